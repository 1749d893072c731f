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
//! A question of the other form asks for a guess drawn onto the chart of throughput against
//! queue depth: a value at each depth the chart marks ([`guess_depths`]), as the NYT's "You
//! Draw It" asks its readers to draw before they see. It is committed once every depth has a
//! value, and the model's curve then shows over it, with how far the guess was
//! ([`GuessVerdict`]).
//!
//! What always holds: a step is [`Predictions::awaiting`] exactly when it has a question and
//! has not been revealed; a revealed step stays revealed when the reader walks away and back,
//! until [`Predictions::ask_again`]; a choice or a count is kept only for an option the
//! question has, a guessed value only within its axis (0 to the question's `up_to`) and only
//! until the reveal; nothing here leaves the reader's device (the page keeps it in memory).

use std::collections::BTreeMap;
use std::fmt;

use crate::ui::pure::tour_file::{Form, Question};

/// Steps of a drawn guess's value per key press: twenty to the axis's top, or five with Page
/// Up and Page Down, as a slider moves.
pub const GUESS_KEY_STEPS: u32 = 20;
pub const GUESS_PAGE_STEPS: u32 = 5;

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
#[derive(Clone, Debug, Default, PartialEq)]
struct Committed {
    /// The reader's own choice (an index into the options), if they made one.
    chosen: Option<usize>,
    /// The reader's drawn guess: a value per queue depth, in the chart's unit.
    guess: BTreeMap<u32, f64>,
    /// The class's show of hands per option (projector mode), if entered.
    hands: Vec<u32>,
    revealed: bool,
}

/// Every question step's choice, tally and reveal, for the page's whole visit.
#[derive(Clone, Debug, Default, PartialEq)]
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
        if chosen < question.options().len() {
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
        let options = question.options().len();
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
        hands.resize(question.options().len(), 0);
        hands
    }

    /// The reader's drawn guess at `key`: (queue depth, value), by depth.
    pub fn guess(&self, key: &StepKey) -> Vec<(u32, f64)> {
        self.steps
            .get(key)
            .map(|c| c.guess.iter().map(|(&d, &v)| (d, v)).collect())
            .unwrap_or_default()
    }

    /// Sets the guess's value at `depth` for `question`, held to its axis (0 to its `up_to`).
    /// Ignored for a question that draws no guess, a depth it does not mark, a value that is
    /// not a number, and once the answer shows (the guess is what was predicted).
    pub fn set_guess(&mut self, key: StepKey, question: &Question, depth: u32, value: f64) {
        let Some(up_to) = question.draws_up_to() else {
            return;
        };
        if !depth.is_power_of_two() || value.is_nan() || self.revealed(&key) {
            return;
        }
        let value = value.clamp(0.0, up_to as f64);
        self.steps
            .entry(key)
            .or_default()
            .guess
            .insert(depth, value);
    }

    /// Commits the guess at `key` and shows the answer, once every one of `depths` has a
    /// value; returns whether it did.
    pub fn commit_guess(&mut self, key: StepKey, depths: &[u32]) -> bool {
        let c = self.steps.entry(key).or_default();
        let complete = !depths.is_empty() && depths.iter().all(|d| c.guess.contains_key(d));
        c.revealed |= complete;
        complete
    }
}

/// The queue depths `question`'s guess is drawn at, on a chart whose deepest depth is
/// `max_iodepth`: those it names, else every one the chart marks.
pub fn depths_of(question: &Question, max_iodepth: u32) -> Vec<u32> {
    match &question.form {
        Form::Draw { at, .. } if !at.is_empty() => at.clone(),
        _ => guess_depths(max_iodepth),
    }
}

/// The queue depths a guess is drawn at: the octaves the chart marks, 1 to `max_iodepth`.
pub fn guess_depths(max_iodepth: u32) -> Vec<u32> {
    std::iter::successors(Some(1u32), |d| d.checked_mul(2))
        .take_while(|d| *d <= max_iodepth.max(1))
        .collect()
}

/// The points a pointer's stroke from `from` to `to` sets: `to`, and each of `depths` it
/// passed over between the two, on the straight line between them (on the chart's octave
/// scale), so a quick stroke leaves no depth out.
pub fn stroke(from: Option<(u32, f64)>, to: (u32, f64), depths: &[u32]) -> Vec<(u32, f64)> {
    let Some(from) = from.filter(|f| f.0 != to.0) else {
        return vec![to];
    };
    let octave = |d: u32| f64::from(d).log2();
    let (lo, hi) = (from.0.min(to.0), from.0.max(to.0));
    let span = octave(to.0) - octave(from.0);
    depths
        .iter()
        .filter(|&&d| d > lo && d < hi)
        .map(|&d| {
            let t = (octave(d) - octave(from.0)) / span;
            (d, from.1 + t * (to.1 - from.1))
        })
        .chain([to])
        .collect()
}

/// The value `steps` key presses from `value` on an axis up to `up_to` (negative: down), held
/// to the axis; from no value yet, the presses count from zero.
pub fn guess_stepped(value: Option<f64>, up_to: u64, steps: i32, per_axis: u32) -> f64 {
    let top = up_to as f64;
    let step = top / f64::from(per_axis.max(1));
    (value.unwrap_or(0.0) + f64::from(steps) * step).clamp(0.0, top)
}

/// What a key does on the chart while a guess is drawn: a slider's keys for the value, Left
/// and Right across the depths (the chart's own direction), Enter to commit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuessKey {
    /// To the depth this many places along (negative: left).
    Depth(i32),
    FirstDepth,
    LastDepth,
    /// This many steps up the value (negative: down), [`GUESS_KEY_STEPS`] or
    /// [`GUESS_PAGE_STEPS`] to the axis.
    Value {
        steps: i32,
        per_axis: u32,
    },
    Commit,
}

impl GuessKey {
    /// The action of the key named `key` (a `KeyboardEvent`'s `key`), if it has one.
    pub fn of(key: &str) -> Option<GuessKey> {
        let value = |steps, per_axis| Some(GuessKey::Value { steps, per_axis });
        match key {
            "ArrowLeft" => Some(GuessKey::Depth(-1)),
            "ArrowRight" => Some(GuessKey::Depth(1)),
            "Home" => Some(GuessKey::FirstDepth),
            "End" => Some(GuessKey::LastDepth),
            "ArrowUp" => value(1, GUESS_KEY_STEPS),
            "ArrowDown" => value(-1, GUESS_KEY_STEPS),
            "PageUp" => value(1, GUESS_PAGE_STEPS),
            "PageDown" => value(-1, GUESS_PAGE_STEPS),
            "Enter" => Some(GuessKey::Commit),
            _ => None,
        }
    }

    /// The depth of `depths` this key moves to from `at` (held to the ends), or `at`.
    pub fn moved(self, at: u32, depths: &[u32]) -> u32 {
        let here = depths.iter().position(|d| *d == at).unwrap_or(0);
        let last = depths.len().saturating_sub(1);
        let to = match self {
            GuessKey::Depth(by) => here.saturating_add_signed(by as isize).min(last),
            GuessKey::FirstDepth => 0,
            GuessKey::LastDepth => last,
            _ => here,
        };
        depths.get(to).copied().unwrap_or(at)
    }
}

/// How a drawn guess compares with the model's curve, at the depths both have.
#[derive(Clone, Debug, PartialEq)]
pub struct GuessVerdict {
    /// The mean of |guess − model| / model over the depths compared.
    pub mean_off: f64,
    /// The depth where the guess is furthest from the model, relatively.
    pub furthest: GuessPoint,
    /// How many depths were compared.
    pub compared: usize,
}

/// The guess and the model at one queue depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GuessPoint {
    pub depth: u32,
    pub guess: f64,
    pub model: f64,
}

impl GuessVerdict {
    /// The verdict on `guess` (depth, value) against the model's `curve` (depth, value), at
    /// the depths both have where the model's value is above zero; `None` if there are none
    /// (the model has not computed them yet).
    pub fn of(guess: &[(u32, f64)], curve: &[(f64, f64)]) -> Option<GuessVerdict> {
        let points: Vec<GuessPoint> = guess
            .iter()
            .filter_map(|&(depth, g)| {
                let model = curve
                    .iter()
                    .find(|(x, _)| *x == f64::from(depth))
                    .map(|p| p.1)?;
                (model > 0.0 && model.is_finite()).then_some(GuessPoint {
                    depth,
                    guess: g,
                    model,
                })
            })
            .collect();
        let off = |p: &GuessPoint| (p.guess - p.model).abs() / p.model;
        let furthest = *points.iter().max_by(|a, b| off(a).total_cmp(&off(b)))?;
        let mean_off = points.iter().map(off).sum::<f64>() / points.len() as f64;
        Some(GuessVerdict {
            mean_off,
            furthest,
            compared: points.len(),
        })
    }

    /// The verdict in words, values written by `value` (with their unit).
    pub fn words(&self, value: &dyn Fn(f64) -> String) -> String {
        let p = self.furthest;
        if self.compared == 1 {
            return format!(
                "Your guess is {:.0}% from the model's at QD {}: yours {}, the model's {}.",
                self.mean_off * 100.0,
                p.depth,
                value(p.guess),
                value(p.model)
            );
        }
        format!(
            "Your curve is {:.0}% from the model's on average, over {} queue depths; furthest \
             at QD {}: yours {}, the model's {}.",
            self.mean_off * 100.0,
            self.compared,
            p.depth,
            value(p.guess),
            value(p.model)
        )
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
        let answer = question.answer().unwrap_or_default();
        let text = question.options().get(answer).cloned().unwrap_or_default();
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

    /// A guess to draw with its axis up to 100,000.
    fn to_draw() -> Question {
        Question {
            ask: "Draw the 480 GB drive's IOPS against queue depth.".into(),
            form: Form::Draw {
                up_to: 100_000,
                at: vec![],
            },
            explanation: "The dies fill up by QD 32.".into(),
        }
    }

    #[test]
    fn a_guess_is_drawn_at_the_octaves_the_chart_marks() {
        assert_eq!(guess_depths(256), [1, 2, 4, 8, 16, 32, 64, 128, 256]);
        assert_eq!(guess_depths(48), [1, 2, 4, 8, 16, 32]);
        assert_eq!(guess_depths(0), [1], "a chart always marks QD 1");
    }

    #[test]
    fn a_guess_at_named_depths_is_drawn_there_alone() {
        let mut point = to_draw();
        point.form = Form::Draw {
            up_to: 100_000,
            at: vec![32],
        };
        assert_eq!(depths_of(&point, 256), [32]);
        assert_eq!(depths_of(&to_draw(), 8), [1, 2, 4, 8]);
    }

    #[test]
    fn a_guess_holds_to_its_axis_and_commits_only_when_every_depth_has_a_value() {
        let q = to_draw();
        let mut p = Predictions::default();
        p.set_guess(key(0), &q, 1, 12_000.0);
        p.set_guess(key(0), &q, 2, 250_000.0);
        p.set_guess(key(0), &q, 4, -5.0);
        p.set_guess(key(0), &q, 3, 1.0);
        p.set_guess(key(0), &q, 8, f64::NAN);
        assert_eq!(p.guess(&key(0)), [(1, 12_000.0), (2, 100_000.0), (4, 0.0)]);
        assert!(!p.commit_guess(key(0), &[1, 2, 4, 8]), "QD 8 has no value");
        assert!(p.awaiting(&key(0), Some(&q)));
        p.set_guess(key(0), &q, 8, 90_000.0);
        assert!(p.commit_guess(key(0), &[1, 2, 4, 8]));
        assert!(!p.awaiting(&key(0), Some(&q)));
        p.set_guess(key(0), &q, 8, 1.0);
        assert_eq!(
            p.guess(&key(0))[3],
            (8, 90_000.0),
            "the guess is kept as committed"
        );
        p.ask_again(&key(0));
        assert_eq!(p.guess(&key(0)), [], "asking again forgets the guess");
    }

    #[test]
    fn the_keys_move_across_the_depths_held_to_the_ends_and_step_the_value() {
        let depths = [1, 2, 4, 8];
        let key = |k| GuessKey::of(k).unwrap();
        assert_eq!(key("ArrowRight").moved(2, &depths), 4);
        assert_eq!(key("ArrowLeft").moved(1, &depths), 1, "held at QD 1");
        assert_eq!(
            key("ArrowRight").moved(8, &depths),
            8,
            "held at the deepest"
        );
        assert_eq!(key("End").moved(1, &depths), 8);
        assert_eq!(key("Home").moved(4, &depths), 1);
        assert_eq!(
            key("ArrowUp").moved(4, &depths),
            4,
            "a value key stays at its depth"
        );
        assert_eq!(
            key("PageDown"),
            GuessKey::Value {
                steps: -1,
                per_axis: GUESS_PAGE_STEPS
            }
        );
        assert_eq!(key("Enter"), GuessKey::Commit);
        assert_eq!(GuessKey::of("a"), None, "other keys are the page's");
    }

    /// A stroke from QD 1 at 0 to QD 8 at 30,000 passes QD 2 and QD 4, a third and two
    /// thirds of the way along the octaves.
    #[test]
    fn a_quick_stroke_fills_the_depths_it_passed_over() {
        let depths = [1, 2, 4, 8, 16];
        assert_eq!(
            stroke(Some((1, 0.0)), (8, 30_000.0), &depths),
            [(2, 10_000.0), (4, 20_000.0), (8, 30_000.0)]
        );
        assert_eq!(
            stroke(Some((16, 0.0)), (4, 20_000.0), &depths),
            [(8, 10_000.0), (4, 20_000.0)]
        );
        assert_eq!(stroke(None, (2, 5.0), &depths), [(2, 5.0)]);
        assert_eq!(stroke(Some((2, 1.0)), (2, 5.0), &depths), [(2, 5.0)]);
    }

    #[test]
    fn a_choice_question_takes_no_guess() {
        let mut p = Predictions::default();
        p.set_guess(key(0), &question(), 1, 5.0);
        assert_eq!(p.guess(&key(0)), []);
    }

    #[test]
    fn a_key_press_moves_a_guess_a_twentieth_of_its_axis_held_to_it() {
        assert_eq!(guess_stepped(None, 100_000, 1, GUESS_KEY_STEPS), 5_000.0);
        assert_eq!(
            guess_stepped(Some(97_000.0), 100_000, 1, GUESS_KEY_STEPS),
            100_000.0
        );
        assert_eq!(
            guess_stepped(Some(50_000.0), 100_000, -1, GUESS_PAGE_STEPS),
            30_000.0
        );
        assert_eq!(
            guess_stepped(Some(1_000.0), 100_000, -1, GUESS_KEY_STEPS),
            0.0
        );
    }

    /// Yours 10,000 against the model's 12,500 is 20% off; 60,000 against 50,000 is 20% too;
    /// 50,000 against 100,000 is 50% off, the furthest: mean (20 + 20 + 50) / 3 = 30%.
    #[test]
    fn a_guess_is_judged_by_its_mean_distance_from_the_model_and_its_furthest_depth() {
        let guess = [(1, 10_000.0), (2, 60_000.0), (4, 50_000.0), (8, 1.0)];
        let curve = [(1.0, 12_500.0), (2.0, 50_000.0), (4.0, 100_000.0)];
        let v = GuessVerdict::of(&guess, &curve).unwrap();
        assert_eq!(v.compared, 3, "QD 8 has no model value yet");
        assert!((v.mean_off - 0.3).abs() < 1e-12, "{}", v.mean_off);
        assert_eq!(
            v.furthest,
            GuessPoint {
                depth: 4,
                guess: 50_000.0,
                model: 100_000.0
            }
        );
        assert_eq!(
            v.words(&|x| format!("{x} IOPS")),
            "Your curve is 30% from the model's on average, over 3 queue depths; furthest at \
             QD 4: yours 50000 IOPS, the model's 100000 IOPS."
        );
        assert_eq!(GuessVerdict::of(&guess, &[]), None);
        let point = GuessVerdict::of(&[(4, 50_000.0)], &curve).unwrap();
        assert_eq!(
            point.words(&|x| format!("{x} IOPS")),
            "Your guess is 50% from the model's at QD 4: yours 50000 IOPS, the model's 100000 IOPS."
        );
    }

    fn question() -> Question {
        Question {
            ask: "How much faster is the 1,920 GB drive at QD1?".into(),
            form: Form::Choice {
                options: vec!["Four times".into(), "Twice".into(), "About the same".into()],
                answer: 3,
            },
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
