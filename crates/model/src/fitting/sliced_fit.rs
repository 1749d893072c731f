//! A fit run in slices, for callers that must not block (a page's one thread).
//!
//! [`SlicedFit`] asks the search ([`Evaluator`]'s, replayed against the memo) which point it
//! needs next, prepares and runs that point's runs a few thousand engine events at a time, and
//! records them; when the search needs nothing more it hands out the report. Every value comes
//! from the same search and the same runs as a fit in one go, so both print the same report
//! (tested), and no step of it runs longer than one engine step or one preparation step.
//!
//! It is a [`Sliced`] computation whose unit is one step: a question to the search, one
//! preparation step or one engine step of [`EVENTS_PER_STEP`] events.
//!
//! What always holds: between two steps the fit is in a state the next step continues from,
//! and dropping it cancels it with nothing left running.

use serde::{Deserialize, Serialize};

use crate::fit::{Evaluator, FitReport, Missing, PointPlan, Searched};
use crate::prepare::{Preparation, WA_WRITES_PER_STEP};
use crate::sliced::{self, Sliced};
use crate::stats::RunResult;
use crate::Simulation;

/// Engine events per step between two looks at the clock (about a millisecond in a browser).
pub const EVENTS_PER_STEP: u64 = 2_000;

/// The search a [`SlicedFit`] answers.
pub(crate) type Search = fn(&Evaluator) -> Searched<FitReport>;

/// One run of a point, on its way through the engine.
enum Running {
    Preparing(Box<Preparation>),
    Simulating(Box<Simulation>),
}

/// The point being run: its plan, the results so far and the run under way.
struct PointRun {
    plan: PointPlan,
    results: Vec<Option<RunResult>>,
    current: Option<Running>,
}

/// How far a sliced fit has come.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FitProgress {
    /// Parameter points the engine has run.
    pub points: usize,
    /// Runs of the point under way done, and its runs in all.
    pub runs_done: usize,
    pub runs: usize,
    pub finished: bool,
}

/// A fit in slices: see the module documentation.
pub struct SlicedFit {
    evaluator: Evaluator,
    search: Search,
    point: Option<PointRun>,
    report: Option<FitReport>,
}

impl SlicedFit {
    pub fn new(evaluator: Evaluator, search: Search) -> SlicedFit {
        SlicedFit {
            evaluator,
            search,
            point: None,
            report: None,
        }
    }

    pub fn report(&self) -> Option<&FitReport> {
        self.report.as_ref()
    }

    /// How far the fit has come, counted (its [`Sliced::progress`] is only 0 or 1: a search's
    /// length is not known before it ends).
    pub fn fit_progress(&self) -> FitProgress {
        let (runs_done, runs) = self
            .point
            .as_ref()
            .map_or((0, 0), |p| (p.results.len(), p.plan.runs.len()));
        FitProgress {
            points: self.evaluator.evaluations(),
            runs_done,
            runs,
            finished: self.report.is_some(),
        }
    }

    /// One step: ask the search, or advance the point under way by one engine or preparation
    /// step.
    fn advance(&mut self) {
        let Some(point) = self.point.as_mut() else {
            match (self.search)(&self.evaluator) {
                Ok(report) => self.report = Some(report),
                Err(Missing(p)) => {
                    self.point = Some(PointRun {
                        plan: self.evaluator.plan(&p),
                        results: Vec::new(),
                        current: None,
                    });
                }
            }
            return;
        };
        let next = point.results.len();
        if next == point.plan.runs.len() {
            self.evaluator.record(&point.plan, &point.results);
            self.point = None;
            return;
        }
        match point.current.take() {
            None => match point.plan.runs[next]
                .clone()
                .check()
                .and_then(Preparation::checked)
            {
                Ok(p) => point.current = Some(Running::Preparing(Box::new(p))),
                Err(_) => point.results.push(None),
            },
            Some(Running::Preparing(mut p)) => match p.step(WA_WRITES_PER_STEP) {
                Ok(Some(run)) => {
                    point.current = Some(Running::Simulating(Box::new(Simulation::new(&run))))
                }
                Ok(None) => point.current = Some(Running::Preparing(p)),
                Err(_) => point.results.push(None),
            },
            Some(Running::Simulating(mut sim)) => {
                if sim.step(EVENTS_PER_STEP) {
                    // A stalled run is a cell the model cannot run at this point, like a refused one.
                    point.results.push(sim.result().ok());
                } else {
                    point.current = Some(Running::Simulating(sim));
                }
            }
        }
    }
}

/// Its unit is one step (see the module documentation); the output is the fit's report.
impl Sliced for SlicedFit {
    type Output = FitReport;
    type Error = std::convert::Infallible;

    fn step(&mut self, budget: usize) -> Result<Option<FitReport>, Self::Error> {
        if self.report.is_some() {
            return Ok(self.report.clone());
        }
        sliced::steps(budget, || {
            self.advance();
            Ok(self.report.clone())
        })
    }

    fn progress(&self) -> f64 {
        if self.report.is_some() {
            1.0
        } else {
            0.0
        }
    }
}
