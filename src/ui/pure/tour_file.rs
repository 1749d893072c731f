//! The tour file: a guided tour as JSON, read into a checked [`TourFile`] or refused with a
//! [`TourFileError`] that names the line, the column and the reason.
//!
//! ```json
//! {
//!   "id": "p99",
//!   "title": "Why the p99 leaves the mean behind",
//!   "audience": "Readers of a drive review's latency charts",
//!   "steps": [
//!     {
//!       "state": "preset=e18dc&cap=480&qd=4&rw=randread&bs=4k&state=steady",
//!       "text": "Reads alone on the 480 GB drive, 4 in flight: ...",
//!       "question": {
//!         "ask": "With 30% writes, how far does the p99 move?",
//!         "options": ["About twice", "About ninefold"],
//!         "answer": 2,
//!         "explanation": "A read waits behind garbage collection for the writes."
//!       }
//!     }
//!   ]
//! }
//! ```
//!
//! A step's `state` is a link's query, with the same parameters and values (see
//! [`crate::ui::pure::url_state`]), limited to those that set the lab ([`step_param`]): the
//! reader's colours and the page author's embedding are not a tour's to change. `question` is
//! optional; its `answer` counts the options from 1, as people do. A question may ask for a
//! guess drawn on the chart against queue depth instead of a choice: `"draw": {"up_to": N}`
//! in place of `options` and `answer` ([`Form::Draw`]), at a step whose state shows that chart;
//! `"at": [32]` in it asks for a point (or a few) rather than the whole curve.
//!
//! What always holds: [`parse`] returns a tour only when every field is present, within its
//! length, and every step's state reads without a single note (a step the lab would have to
//! correct is refused, naming the parameter); it never panics, whatever the text. Unknown fields
//! are refused too, so a misspelt `qestion` is an error, not a silently missing question.
//!
//! Why this module's public face is the file's own types and plain strings only: the `lab`
//! command line is to check the same files (`lab tour check FILE`), so this part can move to a
//! crate both share, taking only the link's parser with it.

use std::fmt;

use serde::Deserialize;

use crate::ui::pure::compute::deepest_iodepth;
use crate::ui::pure::state::{LabState, LoadKind, View};
use crate::ui::pure::url_state::{self, PARAMS, SPEED_PARAM};

/// Longest id: it names the tour in links (`tour=ID`) and in element ids, so it stays short.
pub const MAX_ID_CHARS: usize = 40;
/// Longest title or audience: a title is a button's label in the tours' list.
pub const MAX_TITLE_CHARS: usize = 120;
/// Longest step text, question or explanation: about six lines of the step docked at the
/// window's bottom on a 1280 px projector; longer text covers the chart it talks about.
pub const MAX_TEXT_CHARS: usize = 600;
/// Longest option of a question: one line of a choice.
pub const MAX_OPTION_CHARS: usize = 120;
/// Largest tour file the page reads: [`MAX_STEPS`] steps of the longest texts, a question each,
/// come to about 60 KB; four times that leaves room for indentation and is still read at once.
pub const MAX_FILE_BYTES: usize = 256 * 1024;
/// Most steps in a tour: a class period's worth; a longer story is two tours.
pub const MAX_STEPS: usize = 20;
/// Fewest and most options of a question: a choice needs two, and more than six is a list to
/// read rather than a prediction to make.
pub const MIN_OPTIONS: usize = 2;
pub const MAX_OPTIONS: usize = 6;

/// The link parameters a step's state may name besides [`PARAMS`]: teaching mode's speed.
pub const STEP_EXTRA_PARAMS: [&str; 1] = [SPEED_PARAM];

/// A checked tour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TourFile {
    /// Lowercase letters, digits and `-` (links and element ids carry it).
    pub id: String,
    pub title: String,
    /// Who the tour is written for, in the author's words.
    pub audience: String,
    /// At least one, at most [`MAX_STEPS`].
    pub steps: Vec<TourStep>,
}

/// One step: the lab's state as a link's query, what to look at, and optionally a question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TourStep {
    /// A query of the parameters [`step_param`] allows that reads without a note.
    pub state: String,
    pub text: String,
    pub question: Option<Question>,
}

/// A question asked at a step before its answer shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    pub ask: String,
    pub form: Form,
    pub explanation: String,
}

/// How a question is answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// Choose one of the options.
    Choice {
        /// [`MIN_OPTIONS`] to [`MAX_OPTIONS`] choices.
        options: Vec<String>,
        /// The right option, counted from 1.
        answer: usize,
    },
    /// Draw a guess onto the chart of throughput against queue depth, a value at each depth
    /// the chart marks; the model's curve is the answer. The chart's value axis reaches
    /// `up_to` (in the chart's unit, IOPS or MB/s as the step's state sets it) while the
    /// model's curve is hidden, so the axis gives nothing away. `at` names the depths to draw
    /// at (one for a point), ascending; empty, every depth the chart marks.
    Draw { up_to: u64, at: Vec<u32> },
}

impl Question {
    /// The options to choose from (none for a guess to draw).
    pub fn options(&self) -> &[String] {
        match &self.form {
            Form::Choice { options, .. } => options,
            Form::Draw { .. } => &[],
        }
    }

    /// The right option, counted from 0 (none for a guess to draw).
    pub fn answer(&self) -> Option<usize> {
        match self.form {
            Form::Choice { answer, .. } => Some(answer.saturating_sub(1)),
            Form::Draw { .. } => None,
        }
    }

    /// The value axis's reach of a guess to draw.
    pub fn draws_up_to(&self) -> Option<u64> {
        match self.form {
            Form::Draw { up_to, .. } => Some(up_to),
            Form::Choice { .. } => None,
        }
    }
}

/// Most a drawn guess's value axis may reach: ten million (IOPS), beyond any drive the lab
/// models, so a slip of the keyboard is refused rather than drawn as a flat line at zero.
pub const MAX_UP_TO: u64 = 10_000_000;

/// Whether a step's state may name the parameter `name`.
pub fn step_param(name: &str) -> bool {
    PARAMS.contains(&name) || STEP_EXTRA_PARAMS.contains(&name)
}

/// The parameters a step's state may name, for messages: [`PARAMS`] and [`STEP_EXTRA_PARAMS`].
pub fn step_params() -> String {
    let mut all: Vec<&str> = PARAMS.to_vec();
    all.extend(STEP_EXTRA_PARAMS);
    all.join(", ")
}

/// Where in the file, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TourFileError {
    /// Counted from 1.
    pub line: usize,
    /// Counted from 1, in characters.
    pub column: usize,
    pub problem: Problem,
}

/// Why a tour file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The text is not JSON (serde_json's reason).
    NotJson(String),
    /// JSON, but not a tour's shape: a wrong type or an unknown field (serde_json's reason).
    Shape(String),
    /// A field every tour (or step, or question) has is missing.
    Missing(Field),
    /// A text field holds only blanks.
    Blank(Field),
    TooLong {
        field: Field,
        chars: usize,
        max: usize,
    },
    /// The id has a character other than a lowercase letter, a digit or `-`.
    BadId(String),
    NoSteps,
    TooManySteps(usize),
    /// Step `step` (from 1) names a parameter that does not set the lab.
    NotAStepParam {
        step: usize,
        param: String,
    },
    /// Step `step`'s state has a value the lab would correct: the link's note.
    BadState {
        step: usize,
        param: String,
        reason: String,
    },
    /// Step `step`'s question has this many options, outside [`MIN_OPTIONS`]..=[`MAX_OPTIONS`].
    Options {
        step: usize,
        count: usize,
    },
    /// Step `step`'s answer is not one of its options.
    Answer {
        step: usize,
        answer: usize,
        options: usize,
    },
    /// Step `step`'s question has both `options` and `draw`, or neither.
    Form {
        step: usize,
        both: bool,
    },
    /// Step `step`'s question draws a guess but names an `answer` (the model's curve is it).
    AnswerWithDraw {
        step: usize,
    },
    /// Step `step`'s `up_to` is 0 or above [`MAX_UP_TO`].
    UpTo {
        step: usize,
        up_to: u64,
    },
    /// Step `step`'s `at` names a depth the chart does not mark (a power of two from 1 to its
    /// deepest, `deepest`).
    DrawAt {
        step: usize,
        depth: u32,
        deepest: u32,
    },
    /// Step `step` asks for a guess drawn on the chart of throughput against queue depth, and
    /// its state shows another chart.
    DrawNeedsDepths {
        step: usize,
    },
    /// Another tour of the same set has this id.
    DuplicateId(String),
}

/// A field of the format, by its name in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Id,
    Title,
    Audience,
    Steps,
    State,
    Text,
    Ask,
    Options,
    Answer,
    Draw,
    UpTo,
    At,
    Explanation,
}

impl Field {
    pub fn name(self) -> &'static str {
        match self {
            Field::Id => "id",
            Field::Title => "title",
            Field::Audience => "audience",
            Field::Steps => "steps",
            Field::State => "state",
            Field::Text => "text",
            Field::Ask => "ask",
            Field::Options => "options",
            Field::Answer => "answer",
            Field::Draw => "draw",
            Field::UpTo => "up_to",
            Field::At => "at",
            Field::Explanation => "explanation",
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NotJson(why) => write!(f, "not JSON: {why}"),
            Problem::Shape(why) => write!(f, "not a tour: {why}"),
            Problem::Missing(field) => write!(f, "missing field `{field}`"),
            Problem::Blank(field) => write!(f, "`{field}` is empty"),
            Problem::TooLong { field, chars, max } => {
                write!(f, "`{field}` has {chars} characters; at most {max}")
            }
            Problem::BadId(id) => write!(
                f,
                "id '{id}' may hold only lowercase letters, digits and '-'"
            ),
            Problem::NoSteps => f.write_str("a tour needs at least one step"),
            Problem::TooManySteps(n) => write!(f, "{n} steps; a tour has at most {MAX_STEPS}"),
            Problem::NotAStepParam { step, param } => write!(
                f,
                "step {step}'s state: '{param}' does not set the lab (a step may use: {})",
                step_params()
            ),
            Problem::BadState {
                step,
                param,
                reason,
            } => write!(f, "step {step}'s state: {param}: {reason}"),
            Problem::Options { step, count } => write!(
                f,
                "step {step}'s question has {count} options; it needs {MIN_OPTIONS} to {MAX_OPTIONS}"
            ),
            Problem::Answer {
                step,
                answer,
                options,
            } => write!(
                f,
                "step {step}'s answer {answer} is not one of its options (1 to {options})"
            ),
            Problem::Form { step, both: true } => write!(
                f,
                "step {step}'s question has both `options` and `draw`; it is one or the other"
            ),
            Problem::Form { step, both: false } => write!(
                f,
                "step {step}'s question needs `options` (with an `answer`) or `draw`"
            ),
            Problem::AnswerWithDraw { step } => write!(
                f,
                "step {step}'s question draws a guess, so it has no `answer`: the model's curve is the answer"
            ),
            Problem::UpTo { step, up_to } => write!(
                f,
                "step {step}'s `up_to` is {up_to}; it is 1 to {MAX_UP_TO}"
            ),
            Problem::DrawAt {
                step,
                depth,
                deepest,
            } => write!(
                f,
                "step {step}'s `at` has {depth}; a guess is drawn at the chart's queue depths, \
                 powers of two from 1 to {deepest}"
            ),
            Problem::DrawNeedsDepths { step } => write!(
                f,
                "step {step}'s question draws on the chart against queue depth, which its state does not show (it needs the queue-depth view and a queue depth, not a rate, jobs or a trace)"
            ),
            Problem::DuplicateId(id) => write!(f, "another tour has the id '{id}'"),
        }
    }
}

impl fmt::Display for TourFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.problem
        )
    }
}

impl std::error::Error for TourFileError {}

/// The file as serde reads it: every field optional, so a missing one is named by [`parse`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTour {
    id: Option<String>,
    title: Option<String>,
    audience: Option<String>,
    steps: Option<Vec<RawStep>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    state: Option<String>,
    text: Option<String>,
    question: Option<RawQuestion>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuestion {
    ask: Option<String>,
    options: Option<Vec<String>>,
    answer: Option<usize>,
    draw: Option<RawDraw>,
    explanation: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDraw {
    up_to: Option<u64>,
    at: Option<Vec<u32>>,
}

/// Reads a tour file.
pub fn parse(text: &str) -> Result<TourFile, TourFileError> {
    let raw: RawTour = serde_json::from_str(text).map_err(|e| {
        let problem = match e.classify() {
            serde_json::error::Category::Data => Problem::Shape(reason_of(&e)),
            _ => Problem::NotJson(reason_of(&e)),
        };
        TourFileError {
            line: e.line().max(1),
            column: e.column().max(1),
            problem,
        }
    })?;
    Checker { text }.tour(raw)
}

/// serde_json's message without its own " at line L column C" (the error names them).
fn reason_of(e: &serde_json::Error) -> String {
    let full = e.to_string();
    match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    }
}

/// Reads a tour file to stand beside tours that have the ids `taken`: a file with one of
/// them is refused at its id.
pub fn parse_beside(text: &str, taken: &[&str]) -> Result<TourFile, TourFileError> {
    let tour = parse(text)?;
    if taken.contains(&tour.id.as_str()) {
        let at = Checker { text }.at(&[Seg::Key(Field::Id.name())]);
        return Err(at.error(Problem::DuplicateId(tour.id)));
    }
    Ok(tour)
}

/// Reads several tour files as one set: each good file's tour, in order, and each refused
/// file's error with its index (a repeated id is refused in the later file, at its id).
pub fn parse_set(texts: &[&str]) -> (Vec<TourFile>, Vec<(usize, TourFileError)>) {
    let mut tours: Vec<TourFile> = Vec::new();
    let mut errors = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let taken: Vec<&str> = tours.iter().map(|t| t.id.as_str()).collect();
        match parse_beside(text, &taken) {
            Ok(t) => tours.push(t),
            Err(e) => errors.push((i, e)),
        }
    }
    (tours, errors)
}

/// A position in the text.
#[derive(Clone, Copy)]
struct At {
    line: usize,
    column: usize,
}

impl At {
    fn error(self, problem: Problem) -> TourFileError {
        TourFileError {
            line: self.line,
            column: self.column,
            problem,
        }
    }
}

/// One step of a path to a value: an object's field or an array's element.
#[derive(Clone, Copy)]
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// The checks serde cannot make, each error placed at the value (or object) it is about.
struct Checker<'a> {
    text: &'a str,
}

impl Checker<'_> {
    /// Where the value at `path` starts (the file's start if the path is not found, which a
    /// text serde has read cannot make happen).
    fn at(&self, path: &[Seg<'_>]) -> At {
        let offset = Cursor::new(self.text).find(path).unwrap_or(0);
        let before = &self.text[..offset];
        At {
            line: before.matches('\n').count() + 1,
            column: before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1,
        }
    }

    /// A present, non-blank text of at most `max` characters, at `path` + its field.
    fn text(
        &self,
        value: Option<String>,
        path: &[Seg<'_>],
        field: Field,
        max: usize,
    ) -> Result<String, TourFileError> {
        let Some(value) = value else {
            return Err(self.at(path).error(Problem::Missing(field)));
        };
        let mut here = path.to_vec();
        here.push(Seg::Key(field.name()));
        let chars = value.chars().count();
        if value.trim().is_empty() {
            Err(self.at(&here).error(Problem::Blank(field)))
        } else if chars > max {
            Err(self.at(&here).error(Problem::TooLong { field, chars, max }))
        } else {
            Ok(value)
        }
    }

    fn tour(&self, raw: RawTour) -> Result<TourFile, TourFileError> {
        let id = self.text(raw.id, &[], Field::Id, MAX_ID_CHARS)?;
        if !id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            return Err(self.at(&[Seg::Key("id")]).error(Problem::BadId(id)));
        }
        let title = self.text(raw.title, &[], Field::Title, MAX_TITLE_CHARS)?;
        let audience = self.text(raw.audience, &[], Field::Audience, MAX_TITLE_CHARS)?;
        let Some(raw_steps) = raw.steps else {
            return Err(self.at(&[]).error(Problem::Missing(Field::Steps)));
        };
        let steps_at = [Seg::Key(Field::Steps.name())];
        if raw_steps.is_empty() {
            return Err(self.at(&steps_at).error(Problem::NoSteps));
        }
        if raw_steps.len() > MAX_STEPS {
            return Err(self
                .at(&steps_at)
                .error(Problem::TooManySteps(raw_steps.len())));
        }
        let steps = raw_steps
            .into_iter()
            .enumerate()
            .map(|(i, s)| self.step(i, s))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(TourFile {
            id,
            title,
            audience,
            steps,
        })
    }

    /// Step `index` (from 0): its state read as a link, its text, its question.
    fn step(&self, index: usize, raw: RawStep) -> Result<TourStep, TourFileError> {
        let path = [Seg::Key(Field::Steps.name()), Seg::Index(index)];
        let state = self.text(raw.state, &path, Field::State, MAX_TEXT_CHARS)?;
        let step = index + 1;
        let state_at = || self.at(&[path[0], path[1], Seg::Key(Field::State.name())]);
        if let Some(param) = url_state::names(&state)
            .into_iter()
            .find(|n| !step_param(n))
        {
            return Err(state_at().error(Problem::NotAStepParam { step, param }));
        }
        let read = url_state::parse_query(&state, LabState::default());
        if let Some(note) = read.notes.into_iter().next() {
            return Err(state_at().error(Problem::BadState {
                step,
                param: note.param,
                reason: note.message,
            }));
        }
        let text = self.text(raw.text, &path, Field::Text, MAX_TEXT_CHARS)?;
        let question = match raw.question {
            Some(q) => Some(self.question(index, q, &read.state)?),
            None => None,
        };
        Ok(TourStep {
            state,
            text,
            question,
        })
    }

    /// Step `index`'s question, asked at a step set to `state`.
    fn question(
        &self,
        index: usize,
        raw: RawQuestion,
        state: &LabState,
    ) -> Result<Question, TourFileError> {
        let path = [
            Seg::Key(Field::Steps.name()),
            Seg::Index(index),
            Seg::Key("question"),
        ];
        let step = index + 1;
        let ask = self.text(raw.ask, &path, Field::Ask, MAX_TEXT_CHARS)?;
        let form = match (raw.options, raw.draw) {
            (Some(options), None) => self.choice(&path, step, options, raw.answer)?,
            (None, Some(draw)) => self.draw(&path, step, draw, raw.answer, state)?,
            (options, _) => {
                let problem = Problem::Form {
                    step,
                    both: options.is_some(),
                };
                return Err(self.at(&path).error(problem));
            }
        };
        let explanation = self.text(raw.explanation, &path, Field::Explanation, MAX_TEXT_CHARS)?;
        Ok(Question {
            ask,
            form,
            explanation,
        })
    }

    /// A choice among `raw_options`, the right one `answer`, for the question at `path`.
    fn choice(
        &self,
        path: &[Seg<'_>; 3],
        step: usize,
        raw_options: Vec<String>,
        answer: Option<usize>,
    ) -> Result<Form, TourFileError> {
        let options_at = [path[0], path[1], path[2], Seg::Key(Field::Options.name())];
        let count = raw_options.len();
        if !(MIN_OPTIONS..=MAX_OPTIONS).contains(&count) {
            return Err(self.at(&options_at).error(Problem::Options { step, count }));
        }
        let mut options = Vec::with_capacity(count);
        for (i, option) in raw_options.into_iter().enumerate() {
            let mut at = options_at.to_vec();
            at.push(Seg::Index(i));
            let chars = option.chars().count();
            let problem = if option.trim().is_empty() {
                Some(Problem::Blank(Field::Options))
            } else if chars > MAX_OPTION_CHARS {
                Some(Problem::TooLong {
                    field: Field::Options,
                    chars,
                    max: MAX_OPTION_CHARS,
                })
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(self.at(&at).error(problem));
            }
            options.push(option);
        }
        let Some(answer) = answer else {
            return Err(self.at(path).error(Problem::Missing(Field::Answer)));
        };
        if !(1..=count).contains(&answer) {
            let at = [path[0], path[1], path[2], Seg::Key(Field::Answer.name())];
            return Err(self.at(&at).error(Problem::Answer {
                step,
                answer,
                options: count,
            }));
        }
        Ok(Form::Choice { options, answer })
    }

    /// A guess to draw, for the question at `path` of a step set to `state`.
    fn draw(
        &self,
        path: &[Seg<'_>; 3],
        step: usize,
        raw: RawDraw,
        answer: Option<usize>,
        state: &LabState,
    ) -> Result<Form, TourFileError> {
        let draw_at = [path[0], path[1], path[2], Seg::Key(Field::Draw.name())];
        if answer.is_some() {
            let at = [path[0], path[1], path[2], Seg::Key(Field::Answer.name())];
            return Err(self.at(&at).error(Problem::AnswerWithDraw { step }));
        }
        if state.display.view != View::Queue || state.workload.load() != LoadKind::Depth {
            return Err(self.at(&draw_at).error(Problem::DrawNeedsDepths { step }));
        }
        let Some(up_to) = raw.up_to else {
            return Err(self.at(&draw_at).error(Problem::Missing(Field::UpTo)));
        };
        if !(1..=MAX_UP_TO).contains(&up_to) {
            let at = [
                path[0],
                path[1],
                path[2],
                draw_at[3],
                Seg::Key(Field::UpTo.name()),
            ];
            return Err(self.at(&at).error(Problem::UpTo { step, up_to }));
        }
        Ok(Form::Draw {
            up_to,
            at: self.draw_depths(path, step, raw.at, state)?,
        })
    }

    /// The depths `at` names, sorted and each once: depths the chart of a step set to `state`
    /// marks (every one of them when `at` is absent, as an empty list).
    fn draw_depths(
        &self,
        path: &[Seg<'_>; 3],
        step: usize,
        at: Option<Vec<u32>>,
        state: &LabState,
    ) -> Result<Vec<u32>, TourFileError> {
        let mut at = at.unwrap_or_default();
        let deepest = deepest_iodepth(state.workload.iodepth());
        let off_chart = |d: &u32| !d.is_power_of_two() || *d > deepest;
        if let Some(&depth) = at.iter().find(|d| off_chart(d)) {
            let draw = Seg::Key(Field::Draw.name());
            let here = [path[0], path[1], path[2], draw, Seg::Key(Field::At.name())];
            let problem = Problem::DrawAt {
                step,
                depth,
                deepest,
            };
            return Err(self.at(&here).error(problem));
        }
        at.sort_unstable();
        at.dedup();
        Ok(at)
    }
}

/// A walk over JSON text serde has already read (so it is valid JSON) to the byte where the
/// value at a path starts: serde_json gives no positions for values it read without error.
struct Cursor<'a> {
    text: &'a str,
    i: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Cursor<'a> {
        Cursor { text, i: 0 }
    }

    fn byte(&self) -> Option<u8> {
        self.text.as_bytes().get(self.i).copied()
    }

    fn blanks(&mut self) {
        while self.byte().is_some_and(|b| b.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    /// Steps over `c` (after blanks) if it comes next.
    fn eat(&mut self, c: u8) -> bool {
        self.blanks();
        let next = self.byte() == Some(c);
        if next {
            self.i += 1;
        }
        next
    }

    /// A string's text as written (escapes kept), stepping over it.
    fn string(&mut self) -> Option<&'a str> {
        if !self.eat(b'"') {
            return None;
        }
        let start = self.i;
        loop {
            match self.byte()? {
                b'\\' => self.i += 2,
                b'"' => {
                    let s = self.text.get(start..self.i);
                    self.i += 1;
                    return s;
                }
                _ => self.i += 1,
            }
        }
    }

    /// Steps over one value of any kind.
    fn skip(&mut self) -> Option<()> {
        self.blanks();
        let mut depth = 0usize;
        loop {
            match self.byte()? {
                b'"' => {
                    self.string()?;
                    if depth == 0 {
                        return Some(());
                    }
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' if depth > 0 => {
                    depth -= 1;
                    if depth == 0 {
                        self.i += 1;
                        return Some(());
                    }
                }
                b',' | b'}' | b']' if depth == 0 => return Some(()),
                b if depth == 0 && b.is_ascii_whitespace() => return Some(()),
                _ => {}
            }
            self.i += 1;
        }
    }

    /// The byte where the value at `path` (from the value at the cursor) starts.
    fn find(&mut self, path: &[Seg<'_>]) -> Option<usize> {
        self.blanks();
        let Some((first, rest)) = path.split_first() else {
            return Some(self.i);
        };
        match *first {
            Seg::Key(key) => {
                if !self.eat(b'{') {
                    return None;
                }
                while !self.eat(b'}') {
                    let name = self.string()?;
                    if !self.eat(b':') {
                        return None;
                    }
                    if name == key {
                        return self.find(rest);
                    }
                    self.skip()?;
                    self.eat(b',');
                }
                None
            }
            Seg::Index(n) => {
                if !self.eat(b'[') {
                    return None;
                }
                let mut index = 0;
                while !self.eat(b']') {
                    if index == n {
                        return self.find(rest);
                    }
                    self.skip()?;
                    self.eat(b',');
                    index += 1;
                }
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-step tour, as a file's lines, for the scenarios below to change.
    const GOOD: &str = r#"{
  "id": "qd1",
  "title": "QD1 reads",
  "audience": "Anyone",
  "steps": [
    {
      "state": "preset=e18dc&cap=480&qd=1&rw=randread&bs=4k&state=steady",
      "text": "One request in flight."
    },
    {
      "state": "preset=e18dc&cap=1920&qd=256",
      "text": "Many in flight.",
      "question": {
        "ask": "How much faster?",
        "options": ["The same", "About twice", "Ten times"],
        "answer": 2,
        "explanation": "Four times the dies, more than twice the IOPS."
      }
    }
  ]
}"#;

    fn refused(text: &str) -> TourFileError {
        match parse(text) {
            Ok(t) => panic!("accepted: {t:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn a_good_file_gives_its_tour_with_its_steps_and_question() {
        let t = parse(GOOD).unwrap();
        assert_eq!((t.id.as_str(), t.title.as_str()), ("qd1", "QD1 reads"));
        assert_eq!(t.audience, "Anyone");
        assert_eq!(t.steps.len(), 2);
        assert_eq!(t.steps[1].state, "preset=e18dc&cap=1920&qd=256");
        let q = t.steps[1].question.as_ref().unwrap();
        assert_eq!((q.options().len(), q.answer()), (3, Some(1)));
        assert_eq!(t.steps[0].question, None, "a question is optional");
    }

    #[test]
    fn text_that_is_not_json_is_refused_at_the_line_serde_stops() {
        let e = refused(&GOOD.replace("\"text\": \"Many", "\"text\" \"Many"));
        assert_eq!(e.line, 12);
        assert!(matches!(e.problem, Problem::NotJson(_)), "{e}");
        assert!(e.to_string().starts_with("line 12, column "), "{e}");
        assert!(
            !e.to_string().contains(" at line "),
            "the line is named once: {e}"
        );
        assert!(matches!(refused("").problem, Problem::NotJson(_)));
    }

    #[test]
    fn a_missing_field_is_named_at_the_object_that_lacks_it() {
        let e = refused(&GOOD.replace(
            "      \"state\": \"preset=e18dc&cap=480&qd=1&rw=randread&bs=4k&state=steady\",\n",
            "",
        ));
        assert_eq!(
            (e.line, e.column, &e.problem),
            (6, 5, &Problem::Missing(Field::State))
        );
        assert_eq!(e.to_string(), "line 6, column 5: missing field `state`");
        let e = refused(&GOOD.replace("  \"audience\": \"Anyone\",\n", ""));
        assert_eq!((e.line, e.problem), (1, Problem::Missing(Field::Audience)));
    }

    #[test]
    fn an_unknown_field_or_a_wrong_type_is_a_shape_error_at_its_line() {
        let e = refused(&GOOD.replace("\"question\"", "\"qestion\""));
        assert_eq!(e.line, 13);
        assert!(
            matches!(&e.problem, Problem::Shape(why) if why.contains("qestion")),
            "{e}"
        );
        let e = refused(&GOOD.replace("\"answer\": 2", "\"answer\": \"2\""));
        assert_eq!(e.line, 16);
        assert!(matches!(e.problem, Problem::Shape(_)), "{e}");
    }

    #[test]
    fn a_bad_value_in_a_steps_state_names_the_step_the_parameter_and_the_line() {
        let e = refused(&GOOD.replace("qd=256", "qd=0"));
        assert_eq!((e.line, e.column), (11, 16), "{e}");
        assert_eq!(
            e.problem,
            Problem::BadState {
                step: 2,
                param: "qd".into(),
                reason: "0 is outside 1 to 1024".into()
            }
        );
        let e = refused(&GOOD.replace("qd=256", "qd=256&speedy=1"));
        assert!(
            matches!(&e.problem, Problem::NotAStepParam { step: 2, param } if param == "speedy")
        );
        assert!(
            e.to_string().contains("a step may use: preset, drive"),
            "{e}"
        );
    }

    #[test]
    fn a_step_may_not_set_the_readers_colours_or_the_authors_embedding() {
        for param in [
            "theme=dark",
            "embed=1",
            "lock=qd",
            "compare=e18dc.8.randread.4k.steady",
            "tour=x",
            "step=2",
        ] {
            let e = refused(&GOOD.replace("qd=256", &format!("qd=256&{param}")));
            assert!(
                matches!(e.problem, Problem::NotAStepParam { step: 2, .. }),
                "{param}: {e}"
            );
        }
        assert!(parse(&GOOD.replace("qd=256", "qd=256&view=activity&speed=50")).is_ok());
    }

    #[test]
    fn a_value_the_lab_would_snap_is_refused_too() {
        let e = refused(&GOOD.replace("qd=256", "qd=100"));
        assert!(
            matches!(&e.problem, Problem::BadState { param, reason, .. }
            if param == "qd" && reason.contains("using 96")),
            "{e}"
        );
    }

    #[test]
    fn empty_steps_too_many_steps_and_blank_or_long_text_are_refused() {
        let start = GOOD.find("[\n    {").unwrap();
        let empty = format!("{}[]\n}}", &GOOD[..start]);
        let e = refused(&empty);
        assert_eq!((e.line, e.problem), (5, Problem::NoSteps));
        let one = r#"{"state": "qd=1", "text": "t"}"#;
        let many = vec![one; MAX_STEPS + 1].join(",");
        let e = refused(&format!("{}[{many}]}}", &GOOD[..start]));
        assert_eq!(e.problem, Problem::TooManySteps(MAX_STEPS + 1));
        let e = refused(&GOOD.replace("Many in flight.", "  "));
        assert_eq!((e.line, e.problem), (12, Problem::Blank(Field::Text)));
        let long = "x".repeat(MAX_TEXT_CHARS + 1);
        let e = refused(&GOOD.replace("Many in flight.", &long));
        assert_eq!(
            e.to_string(),
            "line 12, column 15: `text` has 601 characters; at most 600"
        );
    }

    #[test]
    fn an_id_is_a_short_word_of_lowercase_letters_digits_and_dashes() {
        let e = refused(&GOOD.replace("\"qd1\"", "\"QD 1\""));
        assert_eq!((e.line, e.column), (2, 9));
        assert_eq!(e.problem, Problem::BadId("QD 1".into()));
    }

    #[test]
    fn a_question_needs_two_to_six_options_and_an_answer_among_them() {
        let e = refused(&GOOD.replace(
            "[\"The same\", \"About twice\", \"Ten times\"]",
            "[\"Yes\"]",
        ));
        assert_eq!(
            (e.line, e.problem),
            (15, Problem::Options { step: 2, count: 1 })
        );
        let e = refused(&GOOD.replace("\"answer\": 2", "\"answer\": 4"));
        assert_eq!(e.line, 16);
        assert_eq!(
            e.to_string(),
            "line 16, column 19: step 2's answer 4 is not one of its options (1 to 3)"
        );
        let e = refused(&GOOD.replace("\"answer\": 2,", ""));
        assert_eq!((e.line, e.problem), (13, Problem::Missing(Field::Answer)));
        let e = refused(&GOOD.replace("\"About twice\"", "\"\""));
        assert_eq!((e.line, e.column), (15, 33));
    }

    /// GOOD's question as a guess to draw, its value axis up to `up_to`.
    fn drawn(up_to: &str) -> String {
        GOOD.replace(
            "\"options\": [\"The same\", \"About twice\", \"Ten times\"],\n        \"answer\": 2,",
            &format!("\"draw\": {{ \"up_to\": {up_to} }},"),
        )
    }

    #[test]
    fn a_guess_to_draw_has_the_reach_of_its_axis_and_no_options() {
        let t = parse(&drawn("800000")).unwrap();
        let q = t.steps[1].question.as_ref().unwrap();
        assert_eq!(
            q.form,
            Form::Draw {
                up_to: 800_000,
                at: vec![]
            }
        );
        assert_eq!(
            (q.options(), q.answer(), q.draws_up_to()),
            (&[][..], None, Some(800_000))
        );
    }

    #[test]
    fn a_guess_to_draw_is_refused_without_its_reach_with_an_answer_or_beside_options() {
        let e = refused(&drawn("0"));
        assert_eq!(
            (e.line, e.problem),
            (15, Problem::UpTo { step: 2, up_to: 0 })
        );
        let e = refused(&drawn("20000000"));
        assert_eq!(
            e.to_string(),
            "line 15, column 28: step 2's `up_to` is 20000000; it is 1 to 10000000"
        );
        let e = refused(&drawn("1").replace("\"up_to\": 1", ""));
        assert_eq!((e.line, e.problem), (15, Problem::Missing(Field::UpTo)));
        let e = refused(&drawn("9").replace("\"draw\"", "\"answer\": 1, \"draw\""));
        assert_eq!(e.problem, Problem::AnswerWithDraw { step: 2 });
        let both = GOOD.replace(
            "\"answer\": 2,",
            "\"answer\": 2, \"draw\": { \"up_to\": 9 },",
        );
        assert_eq!(
            refused(&both).problem,
            Problem::Form {
                step: 2,
                both: true
            }
        );
        let neither = GOOD.replace("\"answer\": 2,", "").replace(
            "\"options\": [\"The same\", \"About twice\", \"Ten times\"],",
            "",
        );
        assert_eq!(
            refused(&neither).to_string(),
            "line 13, column 19: step 2's question needs `options` (with an `answer`) or `draw`"
        );
    }

    /// A point is a guess at one depth: `at` names depths the chart marks (powers of two up to
    /// its deepest, 256 at QD 256), sorted and each once.
    #[test]
    fn a_guess_at_some_depths_names_depths_the_chart_marks() {
        let point = drawn("9, \"at\": [32, 4, 32]");
        let q = parse(&point).unwrap().steps[1].question.clone().unwrap();
        assert_eq!(
            q.form,
            Form::Draw {
                up_to: 9,
                at: vec![4, 32]
            }
        );
        for (bad, depth) in [("[3]", 3), ("[512]", 512), ("[0]", 0)] {
            let e = refused(&drawn(&format!("9, \"at\": {bad}")));
            assert_eq!(
                e.problem,
                Problem::DrawAt {
                    step: 2,
                    depth,
                    deepest: 256
                },
                "{bad}"
            );
        }
        assert_eq!(
            refused(&drawn("9, \"at\": [48]")).to_string(),
            "line 15, column 37: step 2's `at` has 48; a guess is drawn at the chart's queue \
             depths, powers of two from 1 to 256"
        );
    }

    /// A guess is drawn on the chart of throughput against queue depth: a step that shows
    /// another chart (a rate's latency, the drive over time) cannot ask for one.
    #[test]
    fn a_guess_to_draw_needs_a_step_that_shows_the_queue_depth_chart() {
        for other in ["workload=rate&rate=50000", "view=time"] {
            let text = drawn("800000").replace("qd=256", other);
            assert_eq!(
                refused(&text).problem,
                Problem::DrawNeedsDepths { step: 2 },
                "{other}"
            );
        }
    }

    #[test]
    fn a_set_refuses_a_repeated_id_in_the_later_file_and_keeps_the_rest() {
        let other = GOOD.replace("\"qd1\"", "\"other\"");
        let (tours, errors) = parse_set(&[GOOD, "nonsense", &other, GOOD]);
        let ids: Vec<&str> = tours.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["qd1", "other"]);
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].0, 1);
        assert_eq!(
            (errors[1].0, errors[1].1.line, &errors[1].1.problem),
            (3, 2, &Problem::DuplicateId("qd1".into()))
        );
    }

    /// A reader's own tour may not take a built-in tour's id: links name tours by it.
    #[test]
    fn a_file_beside_other_tours_is_refused_at_its_id_when_one_of_them_has_it() {
        let e = parse_beside(GOOD, &["p99", "qd1"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 9: another tour has the id 'qd1'"
        );
        assert_eq!(parse_beside(GOOD, &["p99"]).map(|t| t.id), Ok("qd1".into()));
    }

    #[test]
    fn odd_text_never_panics() {
        for text in [
            "{",
            "[]",
            "null",
            "{\"id\": 1}",
            "{\"steps\": [1]}",
            "\u{feff}{}",
            "{\"id\": \"a\\\"b\"}",
        ] {
            assert!(parse(text).is_err(), "{text}");
        }
    }

    /// The guide's complete example (guide/src/teaching.md, "The tour file") is a good file,
    /// and its error example is what the lab says for it.
    #[test]
    fn the_guides_example_file_reads_and_its_error_example_is_exact() {
        let guide = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/guide/src/teaching.md"
        ))
        .unwrap();
        let section = &guide[guide.find("### The tour file").unwrap()..];
        let start = section.find("```json\n").unwrap() + "```json\n".len();
        let example = &section[start..start + section[start..].find("```").unwrap()];
        let tour = parse(example).unwrap();
        assert_eq!((tour.id.as_str(), tour.steps.len()), ("qd1-capacity", 3));
        let drawn = tour.steps[2].question.as_ref().unwrap();
        assert_eq!(
            drawn.draws_up_to(),
            Some(400_000),
            "the example shows both forms"
        );
        let e = refused(&example.replace("cap=1920&qd=1", "cap=1920&qd=0"));
        assert!(
            section.contains(&format!("```text\n{e}\n```")),
            "the guide shows: {e}"
        );
    }
}
