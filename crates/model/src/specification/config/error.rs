//! Why an input was refused: one error type for every input the lab takes (presets, sliders,
//! links, command lines, job files, traces), its text made in `Display` alone.
//!
//! What always holds: a `ConfigError` names the input (`what`) and the value it refused, so a
//! message can be shown as is, and a caller can match on the kind to react.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

/// Why an input was refused. One type for every input the lab takes. It is data: it crosses
/// from a worker to the page as itself (serde), and its text is made only here, in `Display`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ConfigError {
    /// A number outside what the lab models.
    OutOfRange {
        what: Cow<'static, str>,
        value: String,
        allowed: String,
    },
    /// A value that is not one of the accepted names.
    Unknown {
        what: Cow<'static, str>,
        value: String,
        expected: String,
    },
    /// A value that could not be read at all.
    Malformed {
        what: Cow<'static, str>,
        value: String,
        why: String,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::OutOfRange {
                what,
                value,
                allowed,
            } => write!(f, "{what} {value} is out of range (allowed: {allowed})"),
            ConfigError::Unknown {
                what,
                value,
                expected,
            } => write!(f, "unknown {what} '{value}' (expected one of: {expected})"),
            ConfigError::Malformed { what, value, why } if value.is_empty() => {
                write!(f, "cannot read {what}: {why}")
            }
            ConfigError::Malformed { what, value, why } => {
                write!(f, "cannot read {what} '{value}': {why}")
            }
        }
    }
}

impl std::error::Error for ConfigError {}

pub(crate) fn out_of_range(
    what: &'static str,
    value: impl fmt::Display,
    allowed: &str,
) -> ConfigError {
    ConfigError::OutOfRange {
        what: what.into(),
        value: value.to_string(),
        allowed: allowed.to_string(),
    }
}

pub(crate) fn check_range<T: PartialOrd + fmt::Display + Copy>(
    what: &'static str,
    value: T,
    lo: T,
    hi: T,
) -> Result<(), ConfigError> {
    if value >= lo && value <= hi {
        Ok(())
    } else {
        Err(out_of_range(what, value, &format!("{lo}..={hi}")))
    }
}
