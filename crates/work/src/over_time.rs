//! The drive over time, computed for one drive at a time: the three cache rates (and the
//! whole-drive fill they give) and the review's random-write torture, as the page's
//! drive-over-time view needs them. A worker runs the [`OverTimeTask`]; the page keeps the
//! [`OverTimeResults`] it is sent.
//!
//! What always holds:
//! - the runs never block: [`OverTimeTask::work`] advances the model's sliced runs
//!   ([`CacheRatesRun`], [`TortureRun`]) [`WORK_UNITS_PER_STEP`] units at a time and checks the
//!   caller's clock between steps;
//! - only the target drive is worked on; a run for another drive is dropped when the target
//!   changes, and finished parts stay cached per drive ([`MAX_CACHED_DRIVES`] at most), so
//!   coming back to a drive reuses them;
//! - a drive the model refuses gets its reason in [`OverTimeResults::failure`], never a panic.

use std::collections::HashMap;

use parallelism_model::over_time::{
    fill_with, CacheRates, CacheRatesRun, FillReport, TortureReport, TortureRun,
    REVIEW_TORTURE_MINUTES, WORK_UNITS_PER_STEP,
};
use parallelism_model::sliced::Sliced;
use parallelism_model::{DriveSpec, RunError};
use serde::{Deserialize, Serialize};

use crate::key::DriveKey;

/// Drives whose results are kept; beyond that only the current one stays.
pub const MAX_CACHED_DRIVES: usize = 32;
/// Share of the work the cache rates take (the torture takes the rest), for progress.
const RATES_SHARE: f64 = 0.25;

/// What the model has computed for one drive so far.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OverTimeResults {
    pub rates: Option<CacheRates>,
    pub fill: Option<FillReport>,
    pub torture: Option<TortureReport>,
    /// Why the model gave nothing for the drive (refused it, or stalled), if it did.
    pub failure: Option<RunError>,
    /// How far the computation for this drive is (0 to 1, both parts together).
    pub progress: f64,
}

impl OverTimeResults {
    /// Whether nothing more will come for this drive.
    pub fn is_done(&self) -> bool {
        self.failure.is_some() || (self.rates.is_some() && self.torture.is_some())
    }
}

/// A sliced model run in progress.
enum Job {
    Rates(Box<CacheRatesRun>),
    Torture(Box<TortureRun>),
}

/// What one call to [`OverTimeTask::work`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OverTimeSlice {
    /// A result or a failure arrived in this slice.
    pub changed: bool,
    /// Nothing is left to do for the target.
    pub idle: bool,
}

/// Runs the drive-over-time computations for one target drive. See the module documentation.
#[derive(Default)]
pub struct OverTimeTask {
    target: Option<DriveKey>,
    results: HashMap<DriveKey, OverTimeResults>,
    job: Option<(DriveKey, DriveSpec, Job)>,
}

impl OverTimeTask {
    pub fn new() -> OverTimeTask {
        OverTimeTask::default()
    }

    /// The drive to compute for (`None`: stop working). A run for another drive is dropped;
    /// its finished parts stay cached.
    pub fn set_target(&mut self, target: Option<DriveKey>) {
        if self
            .job
            .as_ref()
            .is_some_and(|(k, _, _)| Some(k) != target.as_ref())
        {
            self.job = None;
        }
        if self.results.len() > MAX_CACHED_DRIVES {
            self.results.retain(|k, _| Some(k) == target.as_ref());
        }
        self.target = target;
    }

    /// The drive worked for.
    pub fn target(&self) -> Option<&DriveKey> {
        self.target.as_ref()
    }

    /// What is known for `key`.
    pub fn results(&self, key: &DriveKey) -> Option<&OverTimeResults> {
        self.results.get(key)
    }

    /// Whether the target still has work.
    pub fn busy(&self) -> bool {
        self.target
            .as_ref()
            .is_some_and(|k| self.results.get(k).is_none_or(|r| !r.is_done()))
    }

    /// Works one step per slice until the target's results are complete (a native caller that
    /// may block, e.g. a test); the number of slices that left work.
    pub fn work_to_end(&mut self) -> usize {
        let mut slices = 0;
        while !self.work(&mut || true).idle {
            slices += 1;
        }
        slices
    }

    /// Works until `time_is_up` (checked after every [`WORK_UNITS_PER_STEP`]) or until the
    /// target's results are complete.
    pub fn work(&mut self, time_is_up: &mut dyn FnMut() -> bool) -> OverTimeSlice {
        let mut slice = OverTimeSlice::default();
        loop {
            let Some(key) = self.target.clone() else {
                slice.idle = true;
                return slice;
            };
            let entry = self.results.entry(key.clone()).or_default();
            if entry.is_done() {
                slice.idle = true;
                return slice;
            }
            if self.job.is_none() {
                let drive = key.spec();
                let started = if entry.rates.is_none() {
                    CacheRatesRun::new(&drive).map(|r| Job::Rates(Box::new(r)))
                } else {
                    TortureRun::new(&drive, REVIEW_TORTURE_MINUTES)
                        .map(|t| Job::Torture(Box::new(t)))
                };
                match started {
                    Ok(job) => self.job = Some((key, drive, job)),
                    Err(why) => {
                        entry.failure = Some(why.into());
                        slice.changed = true;
                        continue;
                    }
                }
            }
            if let Some((_, drive, job)) = &mut self.job {
                let done = match job {
                    Job::Rates(run) => match run.step(WORK_UNITS_PER_STEP) {
                        Ok(Some(rates)) => {
                            match fill_with(drive, &rates) {
                                Ok(fill) => entry.fill = Some(fill),
                                Err(unsound) => entry.failure = Some(unsound.into()),
                            }
                            entry.rates = Some(rates);
                            entry.progress = RATES_SHARE;
                            true
                        }
                        Ok(None) => {
                            entry.progress = RATES_SHARE * run.progress();
                            false
                        }
                        Err(failed) => {
                            entry.failure = Some(failed);
                            true
                        }
                    },
                    Job::Torture(run) => match run.step(WORK_UNITS_PER_STEP) {
                        Ok(Some(report)) => {
                            entry.torture = Some(report);
                            entry.progress = 1.0;
                            true
                        }
                        Ok(None) => {
                            entry.progress = RATES_SHARE + (1.0 - RATES_SHARE) * run.progress();
                            false
                        }
                        Err(failed) => {
                            entry.failure = Some(failed);
                            true
                        }
                    },
                };
                if done {
                    self.job = None;
                    slice.changed = true;
                }
            }
            if time_is_up() {
                return slice;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drive(text: &str) -> DriveKey {
        text.parse().unwrap()
    }

    fn compute(runs: &mut OverTimeTask, key: DriveKey) -> usize {
        runs.set_target(Some(key));
        runs.work_to_end()
    }

    #[test]
    fn a_drive_gets_its_rates_fill_and_torture_in_many_short_slices() {
        let e12 = drive("e12/32x256");
        let mut e = OverTimeTask::new();
        assert!(compute(&mut e, e12.clone()) > 100, "the work was cut up");
        let r = e.results(&e12).unwrap();
        assert!(r.is_done() && r.failure.is_none());
        assert!(r.rates.is_some() && r.fill.is_some() && r.torture.is_some());
        assert_eq!(r.progress, 1.0);
        assert!(!e.busy());
        assert_eq!(compute(&mut e, e12), 0, "coming back reuses the results");
    }

    #[test]
    fn a_new_target_drops_the_old_run_and_no_target_means_no_work() {
        let mut e = OverTimeTask::new();
        assert!(e.work(&mut || false).idle, "nothing asked");
        let (e12, octane) = (drive("e12/32x256"), drive("octane/16x64"));
        e.set_target(Some(e12.clone()));
        e.work(&mut || true);
        assert!(e.busy());
        e.set_target(Some(octane.clone()));
        compute(&mut e, octane.clone());
        assert!(e.results(&e12).is_some_and(|r| !r.is_done()));
        assert!(e.results(&octane).is_some_and(OverTimeResults::is_done));
        e.set_target(None);
        assert!(!e.busy() && e.work(&mut || false).idle);
    }

    #[test]
    fn results_cross_to_the_page_unchanged() {
        let e12 = drive("e12/32x256");
        let mut e = OverTimeTask::new();
        compute(&mut e, e12.clone());
        let r = e.results(&e12).unwrap();
        let text = serde_json::to_string(r).unwrap();
        assert_eq!(&serde_json::from_str::<OverTimeResults>(&text).unwrap(), r);
    }
}
