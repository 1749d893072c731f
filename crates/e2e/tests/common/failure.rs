//! [`Failure`]: why a helper could not do its part (a server that would not start, a browser
//! that did not answer, a page that never got where a test waited for it), in words for the
//! reader. The helpers return [`Result`]; the tests return it too and pass a failure on with
//! `?`, and the benchmark prints it and exits with status 1. What a test checks stays an
//! `assert!`.

use std::fmt;

/// The result of a helper or a test: `Ok`, or the [`Failure`] that stopped it.
pub type Result<T = (), E = Failure> = std::result::Result<T, E>;

/// Why a step failed, as a message for the reader. Its `Debug` is that message as written, so
/// a test that returns one prints it whole (`Error: ...`), line breaks and all.
pub struct Failure(String);

impl Failure {
    pub fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Any error passes on with `?`, in its own words.
impl<E: std::error::Error> From<E> for Failure {
    fn from(e: E) -> Self {
        Self(e.to_string())
    }
}

/// Says what was being done when an error came, or when a value was missing:
/// `.context("cannot start the static server")?`.
pub trait Context<T> {
    /// The failure, `what` first.
    fn context(self, what: impl fmt::Display) -> Result<T>;

    /// [`Context::context`], with the words made only on failure.
    fn with_context<W: fmt::Display>(self, what: impl FnOnce() -> W) -> Result<T>;
}

impl<T, E: fmt::Display> Context<T> for std::result::Result<T, E> {
    fn context(self, what: impl fmt::Display) -> Result<T> {
        self.map_err(|e| Failure(format!("{what}: {e}")))
    }

    fn with_context<W: fmt::Display>(self, what: impl FnOnce() -> W) -> Result<T> {
        self.map_err(|e| Failure(format!("{}: {e}", what())))
    }
}

impl<T> Context<T> for Option<T> {
    fn context(self, what: impl fmt::Display) -> Result<T> {
        self.ok_or_else(|| Failure(what.to_string()))
    }

    fn with_context<W: fmt::Display>(self, what: impl FnOnce() -> W) -> Result<T> {
        self.ok_or_else(|| Failure(what().to_string()))
    }
}
