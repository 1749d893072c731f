//! Predict, then reveal: what a reader (or a class) committed to at a tour's question steps,
//! and whether the model's answer shows yet.
//!
//! A step with a question keeps the model's answer (its charts and the readout's figures)
//! hidden until it is *revealed*: a reader chooses an option and commits to it, or a teacher
//! on a projector enters the class's show of hands and reveals. Students who only watch a
//! demonstration learn about as little as those who do not see it, and predicting first
//! changes that (Crouch et al., "Classroom demonstrations: learning tools or entertainment?",
//! American Journal of Physics 72, 2004); so the page asks before it shows.
//!
//! What always holds: a step is [`Predictions::awaiting`] exactly when it has a question and
//! has not been revealed; a revealed step stays revealed when the reader walks away and back,
//! until [`Predictions::ask_again`]; a choice or a count is kept only for an option the
//! question has; nothing here leaves the reader's device (the page keeps it in memory).

use std::collections::BTreeMap;
use std::fmt;

use crate::ui::pure::tour_file::Question;

/// Most hands a tally counts per option: a lecture hall's worth, so a slip of the keyboard
/// cannot put a million in the tally.
pub const MAX_HANDS: u32 = 999;

/// A question step, by its tour's id and its place (from 0).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct StepKey {
    pub tour: String,
    pub step: usize,
}

/// What was committed at one question step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Committed {
    /// The reader's own choice (an index into the options), if they made one.
    chosen: Option<usize>,
    /// The class's show of hands per option (projector mode), if entered.
    hands: Vec<u32>,
    revealed: bool,
}

/// Every question step's choice, tally and reveal, for the page's whole visit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Predictions {
    steps: BTreeMap<StepKey, Committed>,
}

impl Predictions {
    /// Whether the model's answer is still hidden at `key` (a step asking `question`).
    pub fn awaiting(&self, key: &StepKey, question: Option<&Question>) -> bool {
        question.is_some() && !self.revealed(key)
    }

    pub fn revealed(&self, key: &StepKey) -> bool {
        self.steps.get(key).is_some_and(|c| c.revealed)
    }

    /// The reader's choice at `key`, as an index into the options.
    pub fn chosen(&self, key: &StepKey) -> Option<usize> {
        self.steps.get(key).and_then(|c| c.chosen)
    }

    /// The reader commits to option `chosen` of `question` and the answer shows. A choice
    /// outside the options is ignored (the step stays hidden).
    pub fn commit(&mut self, key: StepKey, question: &Question, chosen: usize) {
        if chosen < question.options.len() {
            let c = self.steps.entry(key).or_default();
            c.chosen = Some(chosen);
            c.revealed = true;
        }
    }

    /// Shows the answer at `key` without a choice of one's own (a teacher revealing to a class).
    pub fn reveal(&mut self, key: StepKey) {
        self.steps.entry(key).or_default().revealed = true;
    }

    /// Hides the answer again and forgets the choice and the tally (for the next class).
    pub fn ask_again(&mut self, key: &StepKey) {
        self.steps.remove(key);
    }

    /// Sets the hands raised for `option`, at most [`MAX_HANDS`]; an option the question does
    /// not have is ignored.
    pub fn set_hands(&mut self, key: StepKey, question: &Question, option: usize, hands: u32) {
        let options = question.options.len();
        if option < options {
            let c = self.steps.entry(key).or_default();
            c.hands.resize(options, 0);
            if let Some(slot) = c.hands.get_mut(option) {
                *slot = hands.min(MAX_HANDS);
            }
        }
    }

    /// The class's tally at `key`, one count per option of `question` (zeros if none entered).
    pub fn tally(&self, key: &StepKey, question: &Question) -> Vec<u32> {
        let mut hands = self
            .steps
            .get(key)
            .map(|c| c.hands.clone())
            .unwrap_or_default();
        hands.resize(question.options.len(), 0);
        hands
    }
}

/// The letter a question's option goes by (A for the first), as a class calls them out.
pub fn letter(option: usize) -> char {
    const LETTERS: [char; 6] = ['A', 'B', 'C', 'D', 'E', 'F'];
    LETTERS.get(option).copied().unwrap_or('?')
}

/// How a committed choice compares with the question's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The reader chose the question's answer.
    Right,
    /// The reader chose another option; the answer is option `answer` (from 0), `text`.
    Wrong { answer: usize, text: String },
    /// Revealed without a choice (to a class); the answer is option `answer`, `text`.
    Shown { answer: usize, text: String },
}

impl Verdict {
    /// The verdict on `chosen` (an index into the options) for `question`.
    pub fn of(question: &Question, chosen: Option<usize>) -> Verdict {
        let answer = question.answer.saturating_sub(1);
        let text = question.options.get(answer).cloned().unwrap_or_default();
        match chosen {
            Some(c) if c == answer => Verdict::Right,
            Some(_) => Verdict::Wrong { answer, text },
            None => Verdict::Shown { answer, text },
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Right => f.write_str("Your prediction matches the model."),
            Verdict::Wrong { answer, text } => {
                write!(f, "The model says otherwise: {} ({text}).", letter(*answer))
            }
            Verdict::Shown { answer, text } => {
                write!(f, "The model's answer: {} ({text}).", letter(*answer))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question() -> Question {
        Question {
            ask: "How much faster is the 1,920 GB drive at QD1?".into(),
            options: vec!["Four times".into(), "Twice".into(), "About the same".into()],
            answer: 3,
            explanation: "One request keeps one die busy.".into(),
        }
    }

    fn key(step: usize) -> StepKey {
        StepKey {
            tour: "predict-capacity".into(),
            step,
        }
    }

    #[test]
    fn a_question_step_awaits_until_committed_and_a_step_without_one_never_does() {
        let q = question();
        let mut p = Predictions::default();
        assert!(p.awaiting(&key(0), Some(&q)));
        assert!(!p.awaiting(&key(1), None), "no question, nothing to hide");
        p.commit(key(0), &q, 1);
        assert!(!p.awaiting(&key(0), Some(&q)));
        assert_eq!(p.chosen(&key(0)), Some(1));
        assert!(p.awaiting(&key(2), Some(&q)), "each step is its own");
    }

    #[test]
    fn a_choice_the_question_does_not_have_reveals_nothing() {
        let q = question();
        let mut p = Predictions::default();
        p.commit(key(0), &q, 3);
        assert!(p.awaiting(&key(0), Some(&q)));
        assert_eq!(p.chosen(&key(0)), None);
    }

    #[test]
    fn asking_again_hides_the_answer_and_forgets_choice_and_tally() {
        let q = question();
        let mut p = Predictions::default();
        p.set_hands(key(0), &q, 2, 7);
        p.commit(key(0), &q, 2);
        p.ask_again(&key(0));
        assert!(p.awaiting(&key(0), Some(&q)));
        assert_eq!(
            (p.chosen(&key(0)), p.tally(&key(0), &q)),
            (None, vec![0, 0, 0])
        );
    }

    #[test]
    fn a_tally_counts_hands_per_option_up_to_its_cap_and_a_reveal_needs_no_choice() {
        let q = question();
        let mut p = Predictions::default();
        p.set_hands(key(0), &q, 0, 5);
        p.set_hands(key(0), &q, 2, 12);
        p.set_hands(key(0), &q, 1, 1_000_000);
        p.set_hands(key(0), &q, 3, 4);
        assert_eq!(p.tally(&key(0), &q), vec![5, MAX_HANDS, 12]);
        assert!(
            p.awaiting(&key(0), Some(&q)),
            "entering hands reveals nothing"
        );
        p.reveal(key(0));
        assert!(p.revealed(&key(0)));
        assert_eq!(p.chosen(&key(0)), None);
    }

    #[test]
    fn the_verdict_names_the_answer_by_its_letter_and_words() {
        let q = question();
        assert_eq!(Verdict::of(&q, Some(2)), Verdict::Right);
        assert_eq!(
            Verdict::of(&q, Some(0)).to_string(),
            "The model says otherwise: C (About the same)."
        );
        assert_eq!(
            Verdict::of(&q, None).to_string(),
            "The model's answer: C (About the same)."
        );
        assert_eq!((letter(0), letter(5), letter(6)), ('A', 'F', '?'));
    }
}
