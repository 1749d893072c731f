//! The messages between the page and its Web Workers, and their one text form (JSON).
//!
//! What always holds:
//! - every message is one JSON text made by [`Request::encode`] or [`Reply::encode`] and read
//!   by the matching `decode`, so both ends share one definition and nothing else is parsed;
//! - numbers cross bit for bit (serde_json's `float_roundtrip`), so a point the page shows is
//!   the point the worker's engine computed;
//! - a worker answers a message it cannot read with [`Reply::Refused`] and keeps working: a
//!   bad message never ends a worker.

use std::fmt;

use serde::{Deserialize, Serialize};

use parallelism_model::scorecard::Scorecard;
use parallelism_model::sliced_fit::FitProgress;

use crate::fit::{FitAsk, FitFound};
use crate::jobs::{JobsAsk, JobsFound, JobsProgress};
use crate::key::{DriveKey, Outcome, RunKey};
use crate::over_time::OverTimeResults;
use crate::replay::{ReplayAsk, ReplayFound, ReplayProgress};
use crate::review::{ReviewAsk, ReviewFound, ReviewProgress};
use crate::scorecard::ScorecardProgress;
use crate::teach::{TeachCommand, TeachNews};
use crate::WorkError;

/// What the page asks of a worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Work on these runs now, most important first, and on nothing else. `generation` grows
    /// with every plan the page makes, so a reply says which plan it was working for.
    Plan { generation: u64, keys: Vec<RunKey> },
    /// Compute the drive over time for this drive, and stop the one before (`None`: stop).
    Time { drive: Option<DriveKey> },
    /// Fit the model to these measurements, and drop the fit before (`None`: just drop it).
    /// `id` names the fit in the replies, so a reply for a dropped fit is told apart.
    Fit { id: u64, ask: Option<FitAsk> },
    /// A command for teaching mode's player; `id` grows with every point started, so a reply
    /// for a point no longer shown is told apart.
    Teach { id: u64, command: TeachCommand },
    /// Run these jobs on one drive, and drop the jobs before (`None`: just drop them). `id`
    /// names the set in the replies.
    Jobs { id: u64, ask: Option<JobsAsk> },
    /// Replay this workload on these drives, and drop the replay before (`None`: just drop
    /// it). `id` names the replay in the replies.
    Replay { id: u64, ask: Option<ReplayAsk> },
    /// Run the E12 review's tests on this drive, and drop the suite before (`None`: just drop
    /// it). `id` names the suite in the replies.
    Review { id: u64, ask: Option<ReviewAsk> },
    /// Score the model against every published figure (`run`), and drop the scoring before
    /// (`false`: just drop it). `id` names the scoring in the replies.
    Scorecard { id: u64, run: bool },
    /// Trap on the next slice of work, as a bug or an allocation past the memory would: the
    /// page's `debug=worker` switch, so the page's recovery from a worker that dies mid-run
    /// can be seen and tested. Nothing else sends it.
    Trap,
}

/// What a worker tells the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    /// The worker's wasm has started and its message loop is installed; what the page sent
    /// before is held by the worker's loader (`assets/worker_loader.js`) and taken next, in
    /// order. The page marks it in its performance timeline and waits for nothing.
    Ready,
    /// Results reached since the last reply, for the plan of `generation`.
    Results {
        generation: u64,
        results: Vec<(RunKey, Outcome)>,
        /// The run being advanced when the reply was sent, if any.
        working_on: Option<RunKey>,
        /// Runs this worker has started since it loaded.
        runs_started: u64,
        /// Nothing is left to do for this plan.
        idle: bool,
    },
    /// What is known of the drive over time for `drive`: sent when a part arrives and as the
    /// progress moves.
    Time {
        drive: DriveKey,
        results: OverTimeResults,
    },
    /// How far fit `id` is, and once it is done what it found or why it could not start.
    Fit {
        id: u64,
        progress: FitProgress,
        outcome: Option<Result<FitFound, WorkError>>,
    },
    /// What teaching mode's player or explainer has for point `id`.
    Teach { id: u64, news: TeachNews },
    /// How far jobs `id` are, and once done what they came to or why they could not run.
    Jobs {
        id: u64,
        progress: JobsProgress,
        outcome: Option<Result<JobsFound, WorkError>>,
    },
    /// How far replay `id` is, and once done what each drive did or why it could not run.
    Replay {
        id: u64,
        progress: ReplayProgress,
        outcome: Option<Result<ReplayFound, WorkError>>,
    },
    /// How far review suite `id` is, and once done every test's curve or why it could not run.
    Review {
        id: u64,
        progress: ReviewProgress,
        outcome: Option<Result<ReviewFound, WorkError>>,
    },
    /// How far scoring `id` is, and once done every figure's row and the summary, or why it
    /// could not finish.
    Scorecard {
        id: u64,
        progress: ScorecardProgress,
        outcome: Option<Result<Scorecard, WorkError>>,
    },
    /// A message the worker could not read, and why.
    Refused { why: String },
    /// The worker's module panicked and has ended; the message says where and why.
    Panicked { why: String },
}

/// A message that is not one of ours.
#[derive(Clone, Debug, PartialEq)]
pub struct ProtocolError(String);

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unreadable message between the page and its worker: {}",
            self.0
        )
    }
}

impl std::error::Error for ProtocolError {}

fn encode<T: Serialize>(message: &T) -> String {
    // Our messages hold strings, numbers and enums only: serialising cannot fail.
    serde_json::to_string(message).unwrap_or_default()
}

fn decode<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, ProtocolError> {
    serde_json::from_str(text).map_err(|e| ProtocolError(e.to_string()))
}

impl Request {
    pub fn encode(&self) -> String {
        encode(self)
    }

    pub fn decode(text: &str) -> Result<Request, ProtocolError> {
        decode(text)
    }
}

impl Reply {
    pub fn encode(&self) -> String {
        encode(self)
    }

    pub fn decode(text: &str) -> Result<Reply, ProtocolError> {
        decode(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::key;

    #[test]
    fn messages_read_back_as_they_were_written() {
        let plan = Request::Plan {
            generation: 7,
            keys: vec![key()],
        };
        assert_eq!(Request::decode(&plan.encode()), Ok(plan));
        let ready = Reply::Ready;
        assert_eq!(Reply::decode(&ready.encode()), Ok(ready));
    }

    #[test]
    fn a_message_that_is_not_ours_is_refused_with_the_reason() {
        let e = Request::decode("{\"Plan\":{\"generation\":1,\"keys\":[\"e18dc/0\"]}}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("run key 'e18dc/0'"), "{e}");
        assert!(Request::decode("not json").is_err());
    }
}
