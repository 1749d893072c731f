//! The power tables a drive's specification carries: what the controller and the flash draw,
//! and the NVMe power states a drive publishes. Plain data; [`crate::power`] computes with it.

use std::fmt;
use std::str::FromStr;

use super::ConfigError;
use crate::time::Nanos;

/// What the controller side draws (watts).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ControllerPower {
    /// Everything on and nothing to do (power state 0, link up): controller, DRAM, PHY.
    pub idle_w: f64,
    /// Added while the controller's cores are busy (at 100% utilisation).
    pub busy_w: f64,
    /// Added per link direction while it carries data (at 100% utilisation).
    pub link_w: f64,
    /// The NVMe power states, PS0 first; empty when no table is published.
    pub states: &'static [PowerState],
}

/// What the flash draws (watts): the part of the drive that changes with capacity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NandPower {
    /// One die during an array operation (sense, program or erase).
    pub die_w: f64,
    /// One channel while it transfers.
    pub bus_w: f64,
}

/// One NVMe power state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PowerState {
    /// Its maximum power (watts): a budget for an active state.
    pub max_w: f64,
    /// For a non-operational (idle) state, its entry and exit latency.
    pub idle: Option<IdleLatency>,
}

/// How long an idle state takes to enter and to leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdleLatency {
    pub entry: Nanos,
    pub exit: Nanos,
}

/// A cap on the drive's power: one of its active states, or a number of watts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PowerLimit {
    /// The active power state `PS<n>`.
    State(u8),
    Watts(f64),
}

impl fmt::Display for PowerLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PowerLimit::State(n) => write!(f, "ps{n}"),
            PowerLimit::Watts(w) => write!(f, "{w}w"),
        }
    }
}

impl FromStr for PowerLimit {
    type Err = ConfigError;

    /// `ps0`..`ps4`, or watts as `2.5` or `2.5w`.
    fn from_str(s: &str) -> Result<PowerLimit, ConfigError> {
        let t = s.trim().to_ascii_lowercase();
        if let Some(n) = t.strip_prefix("ps") {
            return n
                .parse::<u8>()
                .ok()
                .filter(|n| *n <= 4)
                .map(PowerLimit::State)
                .ok_or_else(|| unknown(s));
        }
        t.trim_end_matches('w')
            .parse::<f64>()
            .ok()
            .filter(|w| w.is_finite() && *w > 0.0)
            .map(PowerLimit::Watts)
            .ok_or_else(|| unknown(s))
    }
}

fn unknown(s: &str) -> ConfigError {
    ConfigError::Unknown {
        what: "power limit".into(),
        value: s.to_string(),
        expected: "ps0..ps4 or watts (e.g. 2.3)".to_string(),
    }
}
