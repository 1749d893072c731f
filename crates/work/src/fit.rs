//! A fit of the model to the reader's own measurements, computed in a worker: what the page
//! asks ([`FitAsk`]), the sliced search that answers it ([`FitTask`]), and what crosses back
//! ([`FitFound`]), from which the page rebuilds the model's [`FitReport`].
//!
//! What always holds:
//! - the search is the one `lab fit --fio` runs ([`custom::try_fit`]) with [`FIT_IOS`]
//!   measured I/Os per run, so the page and the command line give the same values;
//! - a fit that cannot start (a base that is not a built-in preset, a die count it cannot
//!   build) is refused with the reason, never a panic;
//! - a [`FitFound`] rebuilt with the cells that were asked equals the report the worker found,
//!   bit for bit (the model's "could not run" NaN included).

use parallelism_model::calibration::Measurement;
use parallelism_model::config::Param;
use parallelism_model::custom;
use parallelism_model::fit::{CellFit, FitOptions, FitReport, ParamValues};
use parallelism_model::presets::{self, Preset};
use parallelism_model::sliced::Sliced;
use parallelism_model::sliced_fit::{FitProgress, SlicedFit};
use parallelism_model::RunOptions;
use serde::{Deserialize, Serialize};

use crate::WorkError;

/// Measured I/Os per run of a page fit: about a minute for a dozen jobs in a browser, and the
/// model's noise (about 2%) stays below the 5% a value is judged identified by. An assumption
/// about readers' patience, checked by the fit's own identification test.
pub const FIT_IOS: u64 = 4_000;

/// The options of a page fit (one thread: a worker runs one search).
pub fn options() -> FitOptions {
    FitOptions {
        run: RunOptions {
            measured_ios: FIT_IOS,
            ..RunOptions::default()
        },
        threads: 1,
    }
}

/// What the page asks a worker to fit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitAsk {
    /// The built-in preset whose controller the fitted drive keeps (its id).
    pub base: String,
    /// The die count, when the reader gave the capacity (then it is not searched).
    pub dies: Option<u32>,
    pub cells: Vec<Measurement>,
}

/// A fit under way.
pub struct FitTask {
    fit: SlicedFit,
}

impl FitTask {
    /// The search for `ask`, ready to run.
    pub fn start(ask: &FitAsk) -> Result<FitTask, WorkError> {
        let base: &'static Preset = presets::find(&ask.base).ok_or_else(|| WorkError::NoBase {
            base: ask.base.clone(),
        })?;
        let evaluator = custom::evaluator(base, &ask.cells, options(), ask.dies)?;
        Ok(FitTask {
            fit: SlicedFit::new(evaluator, custom::try_fit),
        })
    }

    /// How far the fit has come, counted.
    pub fn counts(&self) -> FitProgress {
        self.fit.fit_progress()
    }
}

/// Its unit is one step of the model's [`SlicedFit`]; the output is what the fit found.
impl Sliced for FitTask {
    type Output = FitFound;
    type Error = WorkError;

    /// The fit found, once it has checked itself ([`FitReport::check`]).
    fn step(&mut self, budget: usize) -> Result<Option<FitFound>, WorkError> {
        let Ok(report) = self.fit.step(budget);
        match report {
            Some(report) => {
                report.check().map_err(WorkError::Unsound)?;
                Ok(Some(FitFound::of(&report)))
            }
            None => Ok(None),
        }
    }

    fn progress(&self) -> f64 {
        self.fit.progress()
    }
}

/// A number that may be the model's NaN ("could not run"), as JSON can carry it.
fn carried(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

fn uncarried(v: Option<f64>) -> f64 {
    v.unwrap_or(f64::NAN)
}

/// A [`FitReport`] as it crosses from the worker: the cells are the page's own, so only the
/// model's value for each travels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitFound {
    params: ParamValues,
    /// The model's value for each asked cell, in order (`None`: it could not run it).
    models: Vec<Option<f64>>,
    max_err: Option<f64>,
    mean_err: Option<f64>,
    robust_err: Option<f64>,
    identified: Option<Vec<Param>>,
    evaluations: usize,
}

impl FitFound {
    pub fn of(report: &FitReport) -> FitFound {
        FitFound {
            params: report.params.clone(),
            models: report.cells.iter().map(|c| carried(c.model)).collect(),
            max_err: carried(report.max_err),
            mean_err: carried(report.mean_err),
            robust_err: carried(report.robust_err),
            identified: report.identified.clone(),
            evaluations: report.evaluations,
        }
    }

    /// The report, with `cells` the cells the fit was asked (a cell without a model value,
    /// or a model value without a cell, cannot happen for the fit's own cells).
    pub fn report(&self, cells: &[Measurement]) -> FitReport {
        FitReport {
            params: self.params.clone(),
            cells: cells
                .iter()
                .zip(&self.models)
                .map(|(&cell, &model)| CellFit {
                    cell,
                    model: uncarried(model),
                })
                .collect(),
            max_err: uncarried(self.max_err),
            mean_err: uncarried(self.mean_err),
            robust_err: uncarried(self.robust_err),
            loo: None,
            identified: self.identified.clone(),
            evaluations: self.evaluations,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::fit_ask as ask;
    use parallelism_model::ConfigError;

    #[test]
    fn a_fit_in_a_worker_finds_what_the_fit_in_one_go_finds() {
        let a = ask();
        let text = serde_json::to_string(&a).unwrap();
        let a: FitAsk = serde_json::from_str(&text).unwrap();
        let mut run = FitTask::start(&a).unwrap();
        let found = loop {
            if let Some(found) = run.step(1).unwrap() {
                break found;
            }
        };
        assert!(run.counts().finished);
        let crossed: FitFound =
            serde_json::from_str(&serde_json::to_string(&found).unwrap()).unwrap();
        let base = presets::find("e12").unwrap();
        let at_once = custom::fit(base, &a.cells, options(), a.dies).unwrap();
        assert_eq!(crossed.report(&a.cells), at_once);
    }

    #[test]
    fn a_fit_that_cannot_start_says_why() {
        let refused = |a: FitAsk| FitTask::start(&a).err().unwrap();
        let why = refused(FitAsk {
            base: "nope".into(),
            ..ask()
        });
        assert_eq!(
            why,
            WorkError::NoBase {
                base: "nope".into()
            }
        );
        assert!(
            why.to_string().contains("'nope' is not a built-in preset"),
            "{why}"
        );
        let why = refused(FitAsk {
            dies: Some(100_000),
            ..ask()
        });
        assert!(
            matches!(&why, WorkError::Refused(ConfigError::OutOfRange { what, .. }) if what == "dies"),
            "{why:?}"
        );
    }

    #[test]
    fn the_models_could_not_run_crosses_as_nan() {
        let report = FitReport {
            params: ParamValues(vec![(Param::Dies, 16.0)]),
            cells: vec![CellFit {
                cell: ask().cells[0],
                model: f64::NAN,
            }],
            max_err: f64::NAN,
            mean_err: f64::NAN,
            robust_err: f64::NAN,
            loo: None,
            identified: None,
            evaluations: 3,
        };
        let text = serde_json::to_string(&FitFound::of(&report)).unwrap();
        let back = serde_json::from_str::<FitFound>(&text)
            .unwrap()
            .report(&[ask().cells[0]]);
        assert!(back.cells[0].model.is_nan() && back.max_err.is_nan());
        assert_eq!(back.params, report.params);
    }
}
