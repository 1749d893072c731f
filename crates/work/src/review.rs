//! The E12 review's tests on one drive, computed in a worker: what the page asks
//! ([`ReviewAsk`]), the stepped suite that answers it ([`ReviewTask`]), and what crosses back
//! ([`ReviewFound`]).
//!
//! What always holds:
//! - the runs are the ones `lab review` runs by default (the model's default seed and run
//!   length), so the page and the command line print the same figures;
//! - a drive the suite refuses (smaller than a test's span) is answered with the reason at
//!   once, never a panic;
//! - no step blocks for long: one phase (one depth or one mix) a step.

use parallelism_model::review::{ReviewRun, TestResult, E12_SUITE};
use parallelism_model::sliced::Sliced;
use parallelism_model::RunOptions;
use serde::{Deserialize, Serialize};

use crate::key::DriveKey;
use crate::WorkError;

/// What the page asks: the E12 review's suite on one drive.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ReviewAsk {
    pub drive: DriveKey,
}

/// Every test's curve and score, in the review's order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewFound {
    pub results: Vec<TestResult>,
}

/// How far the suite is: phases done of all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReviewProgress {
    pub done: usize,
    pub total: usize,
}

/// The suite under way.
pub struct ReviewTask {
    run: ReviewRun,
}

impl ReviewTask {
    /// The suite on the asked drive, refused with the reason when the drive cannot hold it.
    pub fn start(ask: ReviewAsk) -> Result<ReviewTask, WorkError> {
        let run = ReviewRun::new(&ask.drive.spec(), &E12_SUITE, RunOptions::default())?;
        Ok(ReviewTask { run })
    }

    /// How far the suite is, counted in phases.
    pub fn counts(&self) -> ReviewProgress {
        let (done, total) = self.run.phases();
        ReviewProgress { done, total }
    }
}

/// Its unit is one phase of the suite; the output is every test's result.
impl Sliced for ReviewTask {
    type Output = ReviewFound;
    type Error = WorkError;

    fn step(&mut self, budget: usize) -> Result<Option<ReviewFound>, WorkError> {
        Ok(self
            .run
            .step(budget)?
            .map(|results| ReviewFound { results }))
    }

    fn progress(&self) -> f64 {
        self.run.progress()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parallelism_model::review;

    fn e12_key(dies: u32) -> DriveKey {
        format!("e12/{dies}x256").parse().unwrap()
    }

    #[test]
    fn the_worker_finds_what_lab_review_prints() {
        let key = e12_key(32); // the review's 960 GB sample
        let mut task = ReviewTask::start(ReviewAsk { drive: key.clone() }).unwrap();
        let mut slices = 0;
        let found = loop {
            slices += 1;
            if let Some(found) = task.step(1).transpose() {
                break found.unwrap();
            }
        };
        assert_eq!(slices, 50, "one phase a slice");
        let direct = review::run(&key.spec(), &E12_SUITE, RunOptions::default()).unwrap();
        assert_eq!(found.results, direct);
        assert_eq!(
            task.counts(),
            ReviewProgress {
                done: 50,
                total: 50
            }
        );
    }

    #[test]
    fn a_drive_too_small_for_the_suite_is_refused_with_the_reason() {
        let err = ReviewTask::start(ReviewAsk { drive: e12_key(2) })
            .err()
            .unwrap();
        assert!(
            matches!(&err, WorkError::Refused(parallelism_model::ConfigError::OutOfRange { what, .. }) if what == "test span (GB)"),
            "{err:?}"
        );
    }
}
