//! Why a workload file (a job file, a trace) was refused: its first problems by line, then a
//! count of the rest, so a reader fixes the first few and sees how far there is to go.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

/// Problems listed by line before the rest are only counted.
const PROBLEMS_LISTED: usize = 5;

/// Why a file was refused.
///
/// ```
/// use parallelism_model::workload::FileError;
/// let mut e = FileError::new("trace");
/// for line in [3, 9, 12, 20, 31, 40, 41] {
///     e.add(line, "type '7' is neither 0 nor 1");
/// }
/// assert_eq!(e.problems.len(), 5);
/// assert!(e.to_string().ends_with("... and 2 more problems"));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileError {
    /// What the file is ("job file", "trace"), for the message.
    pub what: Cow<'static, str>,
    /// (line, what is wrong), at most five; line 0 is the file as a whole.
    pub problems: Vec<(usize, String)>,
    /// Every problem found, listed or not.
    pub total: usize,
}

impl FileError {
    /// No problems yet.
    pub fn new(what: &'static str) -> FileError {
        FileError {
            what: Cow::Borrowed(what),
            problems: Vec::new(),
            total: 0,
        }
    }

    /// One problem with the file as a whole.
    pub fn whole(what: &'static str, why: impl Into<String>) -> FileError {
        let mut e = FileError::new(what);
        e.add(0, why);
        e
    }

    /// Count a problem on `line`, and list it while fewer than five are.
    pub fn add(&mut self, line: usize, why: impl Into<String>) {
        self.total += 1;
        if self.problems.len() < PROBLEMS_LISTED {
            self.problems.push((line, why.into()));
        }
    }

    /// Whether as many problems are listed as will be.
    pub(crate) fn is_full(&self) -> bool {
        self.problems.len() == PROBLEMS_LISTED
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (line, why)) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            match line {
                0 => write!(f, "{}: {why}", self.what)?,
                n => write!(f, "{} line {n}: {why}", self.what)?,
            }
        }
        let more = self.total - self.problems.len();
        if more > 0 {
            let s = if more == 1 { "" } else { "s" };
            write!(f, "\n... and {more} more problem{s}")?;
        }
        Ok(())
    }
}

impl std::error::Error for FileError {}
