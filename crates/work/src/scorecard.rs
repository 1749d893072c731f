//! The scorecard computed in a worker: the model against every published figure, as `lab
//! validate` scores it. What the page asks ([`ScorecardAsk`]: the whole table, nothing to
//! choose), the stepped scoring that answers it ([`ScorecardTask`]), and how far it is
//! ([`ScorecardProgress`]); what crosses back is the model's own [`Scorecard`].
//!
//! What always holds:
//! - the scoring is the model's [`ScorecardRun`] driven a unit a step, so the rows and the
//!   summary are the ones `lab validate` prints, bit for bit ([`Scorecard::run`] in one go);
//! - progress counts the shared runs made (four desktop replays, the E12 review's suite) and
//!   the figures scored, of all, and never goes back;
//! - a unit is a few milliseconds of a shared run or one figure's own runs, so the worker reads
//!   the page's messages (a new plan, Cancel) between them while the scorecard runs.

use parallelism_model::scorecard::{Scorecard, ScorecardRun};
use parallelism_model::sliced::Sliced;
use serde::{Deserialize, Serialize};

use crate::WorkError;

/// What the page asks: the whole scorecard (it depends on nothing the page sets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ScorecardAsk;

/// How far the scoring is: figures scored of all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScorecardProgress {
    pub done: usize,
    pub total: usize,
}

/// The scorecard under way.
pub struct ScorecardTask {
    run: ScorecardRun,
}

impl ScorecardTask {
    /// The whole table, from its first figure.
    pub fn start(_ask: ScorecardAsk) -> Result<ScorecardTask, WorkError> {
        Ok(ScorecardTask {
            run: ScorecardRun::new(),
        })
    }

    /// How far the scoring is: the shared runs made, then the figures scored, of all.
    pub fn counts(&self) -> ScorecardProgress {
        let (done, total) = self.run.counts();
        ScorecardProgress { done, total }
    }
}

/// Its unit is the model's: a few milliseconds of a shared run, or one figure; the output is the
/// whole scorecard.
impl Sliced for ScorecardTask {
    type Output = Scorecard;
    type Error = WorkError;

    fn step(&mut self, budget: usize) -> Result<Option<Scorecard>, WorkError> {
        Ok(self.run.step(budget)?)
    }

    fn progress(&self) -> f64 {
        self.run.progress()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Reply;
    use parallelism_model::scorecard::figures;

    #[test]
    fn the_worker_scores_what_lab_validate_prints_in_small_slices() {
        let mut task = ScorecardTask::start(ScorecardAsk).unwrap();
        // Four desktop replays and the E12 review's suite first, then every figure.
        let total = 5 + figures().len();
        assert_eq!(task.counts(), ScorecardProgress { done: 0, total });
        let mut slices = 0;
        let mut seen = Vec::new();
        let found = loop {
            slices += 1;
            let step = task.step(1).transpose();
            seen.push(task.counts().done);
            if let Some(found) = step {
                break found.unwrap();
            }
        };
        assert!(slices > total, "the long runs take many slices: {slices}");
        assert!(
            seen.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1),
            "never back, one at a time"
        );
        assert_eq!(task.counts(), ScorecardProgress { done: total, total });
        assert_eq!(found, Scorecard::run().unwrap());
        // It crosses to the page as itself: every number bit for bit.
        let reply = Reply::Scorecard {
            id: 1,
            progress: task.counts(),
            outcome: Some(Ok(found)),
        };
        assert_eq!(Reply::decode(&reply.encode()), Ok(reply));
    }
}
