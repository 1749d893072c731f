//! Simulated time.
//!
//! The engine never looks at a wall clock: every instant is a [`SimTime`] (nanoseconds since the
//! start of a run) and every span is a [`Nanos`]. Keeping the two apart makes "an instant plus an
//! instant" a compile error, and integer nanoseconds make runs bit-for-bit reproducible (no float
//! rounding decides which event comes first).

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Sub};

use serde::{Deserialize, Serialize};

/// A span of simulated time in nanoseconds.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Nanos(pub u64);

impl Nanos {
    pub const ZERO: Nanos = Nanos(0);

    /// A span given in microseconds (presets quote NAND timings in µs).
    pub const fn from_us(us: u64) -> Nanos {
        Nanos(us * 1_000)
    }

    /// A span given in milliseconds (power-state latencies are quoted in ms).
    pub const fn from_ms(ms: u64) -> Nanos {
        Nanos(ms * 1_000_000)
    }

    /// This span less `other`, or zero when `other` is longer.
    pub fn saturating_sub(self, other: Nanos) -> Nanos {
        Nanos(self.0.saturating_sub(other.0))
    }

    /// The time `bytes` take at `bytes_per_s`, rounded up so a transfer never takes zero time.
    pub(crate) fn for_bytes(bytes: u64, bytes_per_s: f64) -> Nanos {
        debug_assert!(bytes_per_s > 0.0);
        Nanos(((bytes as f64) * 1e9 / bytes_per_s).ceil().max(1.0) as u64)
    }

    pub fn as_us(self) -> f64 {
        self.0 as f64 / 1e3
    }

    pub(crate) fn as_secs(self) -> f64 {
        self.0 as f64 / 1e9
    }
}

impl Add for Nanos {
    type Output = Nanos;
    fn add(self, rhs: Nanos) -> Nanos {
        Nanos(self.0 + rhs.0)
    }
}

impl AddAssign for Nanos {
    fn add_assign(&mut self, rhs: Nanos) {
        self.0 += rhs.0;
    }
}

impl Mul<u64> for Nanos {
    type Output = Nanos;
    fn mul(self, rhs: u64) -> Nanos {
        Nanos(self.0 * rhs)
    }
}

impl fmt::Display for Nanos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 >= 1_000_000 {
            write!(f, "{:.2} ms", self.0 as f64 / 1e6)
        } else {
            write!(f, "{:.1} µs", self.0 as f64 / 1e3)
        }
    }
}

/// An instant of simulated time: nanoseconds since the run started.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct SimTime(pub u64);

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);

    /// The span from `earlier` to `self`, zero if `earlier` is later.
    pub fn since(self, earlier: SimTime) -> Nanos {
        Nanos(self.0.saturating_sub(earlier.0))
    }
}

impl Add<Nanos> for SimTime {
    type Output = SimTime;
    fn add(self, rhs: Nanos) -> SimTime {
        SimTime(self.0 + rhs.0)
    }
}

impl Sub for SimTime {
    type Output = Nanos;
    fn sub(self, rhs: SimTime) -> Nanos {
        self.since(rhs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transfer_takes_bytes_over_rate_rounded_up() {
        // 4096 bytes at 1.2 GB/s = 3413.33 ns, rounded up.
        assert_eq!(Nanos::for_bytes(4096, 1.2e9), Nanos(3414));
        assert_eq!(Nanos::for_bytes(0, 1e9), Nanos(1));
    }

    #[test]
    fn instants_subtract_to_spans_and_never_go_negative() {
        assert_eq!(SimTime(10) - SimTime(4), Nanos(6));
        assert_eq!(SimTime(4) - SimTime(10), Nanos::ZERO);
        assert_eq!(SimTime(4) + Nanos(6), SimTime(10));
    }
}
