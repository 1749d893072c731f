//! The model against every published figure: one table, [`figures`], of each measurement and
//! quoted behaviour the lab's sources hold, the procedure that reproduces it on the model, and
//! the band the model's result must fall in.
//!
//! One source of truth: `lab validate`, the page's scorecard, the test that runs the whole
//! table on every `cargo test` and the README's scorecard all read [`figures`] and score it
//! with [`Scorecard::run`] (or [`ScorecardRun`] in slices), so a change that moves any figure
//! out of its band cannot land unseen.
//!
//! What always holds:
//! - A row's verdict depends on its own figure alone: the model's value against the band.
//! - A known miss (a figure the model cannot reach yet, its cause in words) keeps its band and a
//!   limit on how far outside it the model may be: the row fails when the miss grows past that
//!   limit, and when it silently holds (the table must then say so), so a known miss can never
//!   hide a regression or outlive its cause.
//! - Every run uses the same options ([`RunOptions::default`]), so a row's figure is the one the
//!   `lab` command named in its procedure prints.
//! - Scoring is deterministic: the same model gives the same scorecard, bit for bit, natively
//!   and in the browser.
//!
//! Assumptions (values no published figure pins down) are listed in [`assumptions`], each with
//! a plausible range and its basis; [`sensitivity`] reruns the table at each end of each range.

mod figures;
mod runs;
mod sensitivity;

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

#[cfg(doc)]
use crate::config::RunOptions;
use crate::review::ReviewRun;
use crate::run::RunError;
use crate::sliced::Sliced;
use crate::text::grouped;
use crate::workload::desktop::Desktop;
use crate::Simulation;

pub use figures::figures;
pub(crate) use runs::Runs;
pub use sensitivity::{
    assumptions, sensitivity, table, vary, Assumption, Baseline, Moved, SensitivityRow,
};

/// Where a figure was published, as the page and the README cite it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// *SSD Benchmarking 201, Part 5* (the E18DC at three capacities).
    E18dcArticle,
    /// *The Phison E12 Reference Design Preview* (AnandTech, 2018).
    E12Review,
    /// Phison's spec sheets, as the E12 preview tabulates them.
    SpecSheets,
    /// *An SSD State of the Union Update* (AnandTech, 2011; the OCZ Octane).
    OctaneReview,
    /// TechPowerUp's reviews of retail drives on the E12 with the same kind of flash.
    RetailE12,
    /// The host interface standards' rates, and Little's law.
    Standards,
}

crate::named_enum!(Source, "source", id, {
    E18dcArticle => "e18dc-article",
    E12Review => "e12-review",
    SpecSheets => "spec-sheets",
    OctaneReview => "octane-review",
    RetailE12 => "retail-e12",
    Standards => "standards",
});

impl Source {
    /// The publication, as a reader can look it up.
    pub fn citation(self) -> &'static str {
        match self {
            Source::E18dcArticle => crate::calibration::SOURCE,
            Source::E12Review => crate::review::E12_SOURCE,
            Source::SpecSheets => {
                "Phison's spec sheets for the E7, E8, E8T, E12 and E12C, as tabulated in The \
                 Phison E12 Reference Design Preview (Billy Tallis, AnandTech, July 18, 2018)"
            }
            Source::OctaneReview => crate::over_time::OCTANE_SOURCE,
            Source::RetailE12 => {
                "TechPowerUp, Seagate FireCuda 510 1 TB Review and Sabrent Rocket 1 TB M.2 NVMe \
                 SSD Review, \"Write Intensive Usage\" (1 MB sequential writes in one thread on \
                 an erased drive): retail 1 TB drives on the Phison E12"
            }
            Source::Standards => {
                "The host interface standards (SATA 3.x, PCIe 3.0 to 5.0) and Little's law"
            }
        }
    }

    /// A short name for tables and charts.
    pub fn short(self) -> &'static str {
        match self {
            Source::E18dcArticle => "E18DC article",
            Source::E12Review => "E12 review",
            Source::SpecSheets => "Spec sheets",
            Source::OctaneReview => "Octane review",
            Source::RetailE12 => "E12 retail drives",
            Source::Standards => "Standards",
        }
    }
}

/// What was published: a figure, a range, or words that describe a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Published {
    /// A measured or quoted number, in `unit`.
    Value { value: f64, unit: &'static str },
    /// A span of numbers the source gives for several figures at once.
    Range {
        lo: f64,
        hi: f64,
        unit: &'static str,
    },
    /// The source's words; the band reads them as a shape.
    Said(&'static str),
    /// A fact stated in words that the model's own description must match exactly.
    Fact(&'static str),
}

/// What a figure's model value must be to hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Band {
    /// Within this share of the published value or range.
    Within(f64),
    /// At most this (a ratio or a figure, as the row's model value is).
    AtMost(f64),
    /// At least this.
    AtLeast(f64),
    /// Strictly below this.
    Below(f64),
    /// Between the two, ends included.
    Between(f64, f64),
    /// The model's words equal the published fact.
    Same,
}

/// A figure the model misses today, why, and how far outside its band it may be before the
/// row fails as a regression (the same measure as [`Score::outside`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnownMiss {
    pub cause: &'static str,
    pub up_to: f64,
}

/// How a row's model value is computed from the scorecard's shared runs.
pub(crate) type ModelFn = Arc<dyn Fn(&mut Runs) -> Result<Value, RunError> + Send + Sync>;

/// One published figure and how the model is judged against it.
#[derive(Clone)]
pub struct Figure {
    /// A stable name (JSON, the page, tests).
    pub id: String,
    pub source: Source,
    /// The drive and its state, in words.
    pub drive: String,
    /// What the figure is, in words.
    pub what: String,
    /// The `lab` command that reproduces the model's side.
    pub procedure: String,
    pub published: Published,
    pub band: Band,
    pub known_miss: Option<KnownMiss>,
    pub(crate) model: ModelFn,
}

impl fmt::Debug for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Figure")
            .field("id", &self.id)
            .field("source", &self.source)
            .field("published", &self.published)
            .field("band", &self.band)
            .field("known_miss", &self.known_miss)
            .finish_non_exhaustive()
    }
}

/// A model value: a number, or words for a fact.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    Number(f64),
    Text(String),
}

/// The verdict on one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Inside its band.
    Holds,
    /// Outside its band, and not a known miss: a regression.
    Misses,
    /// A known miss, no further out than the table allows.
    ExpectedMiss,
    /// A known miss grown past what the table allows.
    WorseThanExpected,
    /// A known miss that now holds: the table must say so.
    NoLongerMissed,
}

crate::named_enum!(Verdict, "verdict", name, {
    Holds => "holds",
    Misses => "misses",
    ExpectedMiss => "expected miss",
    WorseThanExpected => "worse than expected",
    NoLongerMissed => "no longer missed",
});

impl Verdict {
    /// Whether the row is as the table says it should be (the test's pass).
    pub fn as_expected(self) -> bool {
        matches!(self, Verdict::Holds | Verdict::ExpectedMiss)
    }
}

/// One row of the scorecard: a figure, the model's value and the verdict, all as text and
/// numbers ready to print or send.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub id: String,
    pub source: Source,
    pub drive: String,
    pub what: String,
    pub procedure: String,
    /// The published value, range or words, as printed.
    pub published: String,
    /// The published number (a range's middle) where there is one, for the charts.
    pub published_value: Option<f64>,
    pub model: Value,
    /// The model's value, as printed.
    pub model_text: String,
    /// `model / published - 1` (0 inside a range) where both are numbers.
    pub error: Option<f64>,
    pub band: String,
    /// How far outside its band the model is (0 when it holds).
    pub outside: f64,
    pub verdict: Verdict,
    /// Why a known miss misses.
    pub cause: Option<String>,
}

/// Errors per source, for the summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SourceSummary {
    pub source: Source,
    pub rows: usize,
    pub holding: usize,
    /// Mean of the absolute errors of the rows with a numeric error.
    pub mean_error: Option<f64>,
}

/// The whole table's verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub rows: usize,
    /// Rows inside their bands.
    pub holding: usize,
    pub expected_misses: usize,
    /// Rows not as the table says (misses, worse known misses, known misses now holding).
    pub failing: usize,
    /// The largest absolute numeric error, and its row's id.
    pub worst: Option<(String, f64)>,
    pub by_source: Vec<SourceSummary>,
}

/// Every figure scored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scorecard {
    pub rows: Vec<Score>,
    pub summary: Summary,
}

impl Scorecard {
    /// Score every figure in one go.
    pub fn run() -> Result<Scorecard, RunError> {
        ScorecardRun::new().finish()
    }

    pub(crate) fn from_rows(rows: Vec<Score>) -> Scorecard {
        let summary = summarise(&rows);
        Scorecard { rows, summary }
    }
}

/// The scorecard in slices, for a worker that must keep answering: the long runs that figures
/// share (the desktop replays, the E12 review's suite) are made first in small steps, then the
/// figures are scored one a unit. A unit is [`REPLAY_EVENTS_PER_UNIT`] engine events of a
/// replay, one phase of the review's suite, or one figure; the scorecard is the one
/// [`Scorecard::run`] gives, bit for bit, however the budget is cut.
pub struct ScorecardRun {
    figures: &'static [Figure],
    runs: Runs,
    stage: Stage,
    rows: Vec<Score>,
}

/// Engine events of a replay in one unit of [`ScorecardRun`]'s work (a few milliseconds).
pub const REPLAY_EVENTS_PER_UNIT: u64 = 20_000;

/// The replays the scorecard's figures read (the Octane review's Storage Bench traces on its
/// 128 and 512 GB drives), made first in steps.
const REPLAYS: [(Desktop, u32); 4] = [
    (Desktop::Light, 128),
    (Desktop::Light, 512),
    (Desktop::Heavy, 128),
    (Desktop::Heavy, 512),
];

/// Where a [`ScorecardRun`] is.
enum Stage {
    /// Replay `next` of [`REPLAYS`], and its engine once started.
    Replay {
        next: usize,
        sim: Option<Box<Simulation>>,
    },
    /// The E12 review's suite, once started.
    Review(Option<Box<ReviewRun>>),
    /// Scoring the figures.
    Figures,
}

impl ScorecardRun {
    pub fn new() -> ScorecardRun {
        ScorecardRun {
            figures: figures(),
            runs: Runs::new(None),
            stage: Stage::Replay { next: 0, sim: None },
            rows: Vec::new(),
        }
    }

    /// Work done and in all, counted in shared runs made (each replay, the review's suite) and
    /// figures scored: what a progress bar shows.
    pub fn counts(&self) -> (usize, usize) {
        let prepared = match &self.stage {
            Stage::Replay { next, .. } => *next,
            Stage::Review(_) => REPLAYS.len(),
            Stage::Figures => REPLAYS.len() + 1,
        };
        (
            prepared + self.rows.len(),
            REPLAYS.len() + 1 + self.figures.len(),
        )
    }

    /// One unit of work; the scorecard once every figure is scored.
    fn unit(&mut self) -> Result<Option<Scorecard>, RunError> {
        match &mut self.stage {
            Stage::Replay { next, sim } => {
                let (workload, gb) = REPLAYS[*next];
                let state = crate::config::DriveState::Fob;
                let engine = match sim {
                    Some(engine) => engine,
                    None => sim.insert(Box::new(Simulation::new(
                        &self.runs.desktop_run(workload, gb, state)?,
                    ))),
                };
                if engine.step(REPLAY_EVENTS_PER_UNIT) {
                    let result = engine.result()?;
                    self.runs.keep_desktop(workload, gb, state, result);
                    self.stage = match *next + 1 {
                        n if n < REPLAYS.len() => Stage::Replay { next: n, sim: None },
                        _ => Stage::Review(None),
                    };
                }
            }
            Stage::Review(run) => {
                let suite = match run {
                    Some(suite) => suite,
                    None => run.insert(Box::new(self.runs.review_run()?)),
                };
                if let Some(results) = suite.step(1)? {
                    self.runs.keep_review(results);
                    self.stage = Stage::Figures;
                }
            }
            Stage::Figures => match self.figures.get(self.rows.len()) {
                Some(f) => self.rows.push(score(f, &mut self.runs)?),
                None => return Ok(Some(Scorecard::from_rows(self.rows.clone()))),
            },
        }
        Ok(
            (matches!(self.stage, Stage::Figures) && self.rows.len() == self.figures.len())
                .then(|| Scorecard::from_rows(self.rows.clone())),
        )
    }
}

impl Default for ScorecardRun {
    fn default() -> Self {
        ScorecardRun::new()
    }
}

impl Sliced for ScorecardRun {
    type Output = Scorecard;
    type Error = RunError;

    /// Up to `budget` units of work (at least one).
    fn step(&mut self, budget: usize) -> Result<Option<Scorecard>, RunError> {
        crate::sliced::steps(budget.max(1), || self.unit())
    }

    fn progress(&self) -> f64 {
        let (done, total) = self.counts();
        done as f64 / total.max(1) as f64
    }
}

fn score(figure: &Figure, runs: &mut Runs) -> Result<Score, RunError> {
    let model = (figure.model)(runs)?;
    Ok(judge(figure, model))
}

/// The verdict on `model` as `figure`'s value.
pub(crate) fn judge(figure: &Figure, model: Value) -> Score {
    let error = match (&model, figure.published) {
        (Value::Number(m), Published::Value { value, .. }) => Some(m / value - 1.0),
        (Value::Number(m), Published::Range { lo, hi, .. }) => Some(if *m < lo {
            m / lo - 1.0
        } else if *m > hi {
            m / hi - 1.0
        } else {
            0.0
        }),
        _ => None,
    };
    let outside = outside(figure, &model, error);
    let verdict = match (figure.known_miss, outside > 0.0) {
        (None, false) => Verdict::Holds,
        (None, true) => Verdict::Misses,
        (Some(_), false) => Verdict::NoLongerMissed,
        (Some(k), true) if outside <= k.up_to => Verdict::ExpectedMiss,
        (Some(_), true) => Verdict::WorseThanExpected,
    };
    Score {
        id: figure.id.clone(),
        source: figure.source,
        drive: figure.drive.clone(),
        what: figure.what.clone(),
        procedure: figure.procedure.clone(),
        published: published_text(figure.published),
        published_value: match figure.published {
            Published::Value { value, .. } => Some(value),
            Published::Range { lo, hi, .. } => Some((lo + hi) / 2.0),
            Published::Said(_) | Published::Fact(_) => None,
        },
        model_text: value_text(&model, figure.published),
        model,
        error,
        band: band_text(figure.band),
        outside,
        verdict,
        cause: figure.known_miss.map(|k| k.cause.to_string()),
    }
}

/// How far outside its band a value is, as a share (0 inside): the relative distance past the
/// band's edge, or 1 for a fact that differs.
fn outside(figure: &Figure, model: &Value, error: Option<f64>) -> f64 {
    let past = |x: f64| x.max(0.0);
    match (figure.band, model) {
        (Band::Same, Value::Text(t)) => match figure.published {
            Published::Fact(fact) if fact == t => 0.0,
            _ => 1.0,
        },
        (Band::Within(share), Value::Number(_)) => error.map_or(1.0, |e| past(e.abs() - share)),
        (Band::AtMost(x), Value::Number(m)) => past(m / x - 1.0),
        (Band::AtLeast(x), Value::Number(m)) => past(x / m - 1.0),
        (Band::Below(x), Value::Number(m)) if *m < x => 0.0,
        (Band::Below(x), Value::Number(m)) => (m / x - 1.0).max(f64::EPSILON),
        (Band::Between(lo, hi), Value::Number(m)) => past(lo / m - 1.0).max(past(m / hi - 1.0)),
        // A value of the wrong kind (or not a number at all) never holds.
        _ => 1.0,
    }
    .max(if matches!(model, Value::Number(m) if !m.is_finite()) {
        1.0
    } else {
        0.0
    })
}

fn number(x: f64) -> String {
    if x.abs() >= 100.0 {
        grouped(x)
    } else if x.abs() >= 10.0 {
        format!("{x:.1}")
    } else if x.abs() >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

fn published_text(p: Published) -> String {
    match p {
        Published::Value { value, unit } => format!("{} {unit}", number(value)).trim().to_string(),
        Published::Range { lo, hi, unit } => format!("{} to {} {unit}", number(lo), number(hi))
            .trim()
            .to_string(),
        Published::Said(words) => format!("“{words}”"),
        Published::Fact(fact) => fact.to_string(),
    }
}

fn value_text(v: &Value, p: Published) -> String {
    match (v, p) {
        (Value::Number(m), Published::Value { unit, .. } | Published::Range { unit, .. }) => {
            format!("{} {unit}", number(*m)).trim().to_string()
        }
        (Value::Number(m), _) => number(*m),
        (Value::Text(t), _) => t.clone(),
    }
}

fn band_text(b: Band) -> String {
    match b {
        Band::Within(share) => format!("within {:.0}%", share * 100.0),
        Band::AtMost(x) => format!("at most {}", number(x)),
        Band::AtLeast(x) => format!("at least {}", number(x)),
        Band::Below(x) => format!("below {}", number(x)),
        Band::Between(lo, hi) => format!("{} to {}", number(lo), number(hi)),
        Band::Same => "the same".to_string(),
    }
}

fn summarise(rows: &[Score]) -> Summary {
    let worst = rows
        .iter()
        .filter_map(|r| r.error.map(|e| (r.id.clone(), e.abs())))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    let by_source = Source::ALL
        .into_iter()
        .filter_map(|source| {
            let of: Vec<&Score> = rows.iter().filter(|r| r.source == source).collect();
            let errors: Vec<f64> = of.iter().filter_map(|r| r.error.map(f64::abs)).collect();
            (!of.is_empty()).then(|| SourceSummary {
                source,
                rows: of.len(),
                holding: of.iter().filter(|r| r.verdict == Verdict::Holds).count(),
                mean_error: (!errors.is_empty())
                    .then(|| errors.iter().sum::<f64>() / errors.len() as f64),
            })
        })
        .collect();
    Summary {
        rows: rows.len(),
        holding: rows.iter().filter(|r| r.verdict == Verdict::Holds).count(),
        expected_misses: rows
            .iter()
            .filter(|r| r.verdict == Verdict::ExpectedMiss)
            .count(),
        failing: rows.iter().filter(|r| !r.verdict.as_expected()).count(),
        worst,
        by_source,
    }
}

impl fmt::Display for Summary {
    /// "83 of 88 figures within their bands, 4 expected misses, 1 failing; worst error ...".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} of {} figures within their bands, {} expected misses, {} failing",
            self.holding, self.rows, self.expected_misses, self.failing
        )?;
        if let Some((id, e)) = &self.worst {
            write!(f, "; worst error {:.1}% ({id})", e * 100.0)?;
        }
        let means: Vec<String> = self
            .by_source
            .iter()
            .filter_map(|s| {
                s.mean_error
                    .map(|e| format!("{} {:.1}%", s.source.short(), e * 100.0))
            })
            .collect();
        if !means.is_empty() {
            write!(f, "; mean error {}", means.join(", "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure(published: Published, band: Band, known_miss: Option<KnownMiss>) -> Figure {
        Figure {
            id: "x".into(),
            source: Source::Standards,
            drive: String::new(),
            what: String::new(),
            procedure: String::new(),
            published,
            band,
            known_miss,
            model: Arc::new(|_| Ok(Value::Number(0.0))),
        }
    }

    const MB_S: &str = "MB/s";

    #[test]
    fn a_value_holds_within_its_share_and_misses_past_it() {
        let f = figure(
            Published::Value {
                value: 100.0,
                unit: MB_S,
            },
            Band::Within(0.08),
            None,
        );
        let s = judge(&f, Value::Number(107.0));
        assert_eq!((s.verdict, s.outside), (Verdict::Holds, 0.0));
        assert!((s.error.unwrap() - 0.07).abs() < 1e-12);
        let s = judge(&f, Value::Number(90.0));
        assert_eq!(s.verdict, Verdict::Misses);
        assert!((s.outside - 0.02).abs() < 1e-12);
        assert_eq!(
            (s.published.as_str(), s.model_text.as_str()),
            ("100 MB/s", "90.0 MB/s")
        );
    }

    #[test]
    fn a_range_counts_no_error_inside_and_the_distance_to_its_nearer_end_outside() {
        let f = figure(
            Published::Range {
                lo: 1232.3,
                hi: 1345.7,
                unit: MB_S,
            },
            Band::Within(0.08),
            None,
        );
        assert_eq!(judge(&f, Value::Number(1300.0)).error, Some(0.0));
        let below = judge(&f, Value::Number(1211.5)).error.unwrap();
        assert!((below - (1211.5 / 1232.3 - 1.0)).abs() < 1e-12);
        let above = judge(&f, Value::Number(1500.0));
        assert_eq!(above.verdict, Verdict::Misses);
    }

    #[test]
    fn a_known_miss_fails_when_it_grows_past_its_limit_or_silently_holds() {
        let miss = Some(KnownMiss {
            cause: "why",
            up_to: 0.5,
        });
        let f = figure(Published::Said("at most twice"), Band::AtMost(2.0), miss);
        assert_eq!(judge(&f, Value::Number(2.5)).verdict, Verdict::ExpectedMiss);
        assert_eq!(
            judge(&f, Value::Number(3.5)).verdict,
            Verdict::WorseThanExpected
        );
        assert_eq!(
            judge(&f, Value::Number(1.9)).verdict,
            Verdict::NoLongerMissed
        );
        assert!(!Verdict::NoLongerMissed.as_expected());
    }

    #[test]
    fn shapes_bound_a_ratio_and_a_fact_must_match_word_for_word() {
        let below = figure(Published::Said("the slowest"), Band::Below(1.0), None);
        assert_eq!(judge(&below, Value::Number(1.0)).verdict, Verdict::Misses);
        assert_eq!(judge(&below, Value::Number(0.99)).verdict, Verdict::Holds);
        let between = figure(Published::Said("unchanged"), Band::Between(0.9, 1.1), None);
        assert_eq!(judge(&between, Value::Number(1.05)).verdict, Verdict::Holds);
        assert_eq!(
            judge(&between, Value::Number(f64::NAN)).verdict,
            Verdict::Misses
        );
        let fact = figure(Published::Fact("8 channels"), Band::Same, None);
        assert_eq!(
            judge(&fact, Value::Text("8 channels".into())).verdict,
            Verdict::Holds
        );
        assert_eq!(
            judge(&fact, Value::Text("4 channels".into())).verdict,
            Verdict::Misses
        );
        assert_eq!(judge(&fact, Value::Number(8.0)).verdict, Verdict::Misses);
    }
}
