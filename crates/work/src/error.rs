//! Why work the page asked for was not done, as data: the model's own errors as they are, and
//! the few refusals only a worker makes (an ask bigger than a worker takes, a file that did not
//! arrive).
//!
//! What always holds: a [`WorkError`] crosses from a worker to the page as itself (serde), never
//! as text, so the page can tell a refused input from a fault of the model; its words are made
//! only in `Display` (here and in the model's error types).
//!
//! ```
//! use parallelism_work::WorkError;
//!
//! let e = WorkError::TooMany { what: parallelism_work::Counted::Drives, got: 6, most: 5 };
//! assert_eq!(e.to_string(), "a replay covers 1 to 5 drives, not 6");
//! let back: WorkError = serde_json::from_str(&serde_json::to_string(&e).unwrap()).unwrap();
//! assert_eq!(back, e);
//! ```

use std::fmt;

use parallelism_model::stats::Unsound;
use parallelism_model::workload::FileError;
use parallelism_model::{ConfigError, RunError, Stalled};
use serde::{Deserialize, Serialize};

/// Why a piece of work was not done.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum WorkError {
    /// The model refused an input: a drive, a workload, a job's values, a fit's cells.
    Refused(ConfigError),
    /// A run's engine stalled: a fault of the model, not of the inputs.
    Stalled(Stalled),
    /// A run's result failed its check: a fault of the model, not of the inputs.
    Unsound(Unsound),
    /// A workload file (a trace) the model could not read, by line.
    File(FileError),
    /// None, or more parts than one piece of work takes.
    TooMany {
        what: Counted,
        got: usize,
        most: usize,
    },
    /// A trace file larger than a worker reads.
    FileTooLarge { most_mb: u64 },
    /// The text of the trace file the ask names did not reach the worker.
    FileMissing,
    /// A fit asked on a base that is not a built-in preset.
    NoBase { base: String },
    /// The worker doing it stopped (a trap: a bug, or memory run out) and was replaced; the
    /// work was lost with it.
    WorkerStopped { why: String },
}

/// What [`WorkError::TooMany`] counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Counted {
    /// Jobs in one workload of several jobs.
    Jobs,
    /// Drives in one replay.
    Drives,
}

impl fmt::Display for WorkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorkError::Refused(e) => e.fmt(f),
            WorkError::Stalled(e) => e.fmt(f),
            WorkError::Unsound(e) => e.fmt(f),
            WorkError::File(e) => e.fmt(f),
            WorkError::TooMany {
                what: Counted::Jobs,
                got,
                most,
            } => write!(
                f,
                "a workload of several jobs has 1 to {most} jobs, not {got}"
            ),
            WorkError::TooMany {
                what: Counted::Drives,
                got,
                most,
            } => write!(f, "a replay covers 1 to {most} drives, not {got}"),
            WorkError::FileTooLarge { most_mb } => write!(
                f,
                "the file is larger than {most_mb} MB; cut the trace into parts"
            ),
            WorkError::FileMissing => {
                f.write_str("the trace file did not reach the model's worker; choose it again")
            }
            WorkError::NoBase { base } => {
                write!(f, "'{base}' is not a built-in preset to fit on")
            }
            WorkError::WorkerStopped { why } => write!(
                f,
                "the model's worker stopped while working on this ({why}); a new one has taken \
                 its place, so asking again starts it afresh"
            ),
        }
    }
}

impl std::error::Error for WorkError {}

impl From<ConfigError> for WorkError {
    fn from(e: ConfigError) -> WorkError {
        WorkError::Refused(e)
    }
}

impl From<FileError> for WorkError {
    fn from(e: FileError) -> WorkError {
        WorkError::File(e)
    }
}

impl From<RunError> for WorkError {
    fn from(e: RunError) -> WorkError {
        match e {
            RunError::Config(e) => WorkError::Refused(e),
            RunError::Stalled(e) => WorkError::Stalled(e),
            RunError::Unsound(e) => WorkError::Unsound(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parallelism_model::time::SimTime;

    #[test]
    fn every_kind_crosses_to_the_page_as_itself_and_keeps_its_words() {
        let kinds = [
            WorkError::Refused(ConfigError::OutOfRange {
                what: "iodepth".into(),
                value: "0".into(),
                allowed: "1..=256".into(),
            }),
            WorkError::Stalled(Stalled {
                at: SimTime(5),
                completed: 1,
                expected: 2,
            }),
            WorkError::Unsound(Unsound::Unfinished {
                measured: 1,
                planned: 2,
            }),
            WorkError::File(FileError::whole("trace", "it is empty")),
            WorkError::TooMany {
                what: Counted::Jobs,
                got: 0,
                most: 8,
            },
            WorkError::FileTooLarge { most_mb: 64 },
            WorkError::FileMissing,
            WorkError::NoBase {
                base: "nope".into(),
            },
            WorkError::WorkerStopped {
                why: "unreachable executed".into(),
            },
        ];
        for e in kinds {
            let text = serde_json::to_string(&e).unwrap();
            let back: WorkError = serde_json::from_str(&text).unwrap();
            assert_eq!(back.to_string(), e.to_string());
            assert_eq!(back, e, "{text}");
        }
    }

    #[test]
    fn a_run_error_keeps_its_kind() {
        let refused = ConfigError::Malformed {
            what: "block size".into(),
            value: "4q".into(),
            why: "not a size".into(),
        };
        assert_eq!(
            WorkError::from(RunError::Config(refused.clone())),
            WorkError::Refused(refused)
        );
    }
}
