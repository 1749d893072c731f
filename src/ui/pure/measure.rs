//! What a throughput figure counts ([`Unit`]: IOPS or MB/s) and what a chart against queue depth
//! plots ([`Measure`]: throughput, power or throughput per watt), read off a model point.
//!
//! What always holds: a unit follows from the state alone (large blocks speak MB/s, as reviews
//! do), so the charts, the readout and the CSV of one state count in the same unit.

use crate::model::config::BYTES_PER_MB;
use crate::ui::pure::compute::Point;
use crate::ui::pure::format;
use crate::ui::pure::state::LabState;

/// What a throughput axis counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    Iops,
    MbS,
}

impl Unit {
    pub fn of(state: &LabState) -> Unit {
        if state.workload.throughput_in_mb() {
            Unit::MbS
        } else {
            Unit::Iops
        }
    }

    /// The value of a model point in this unit.
    pub fn pick(self, p: &Point) -> f64 {
        match self {
            Unit::Iops => p.iops,
            Unit::MbS => p.mb_s,
        }
    }

    /// Axis title.
    pub fn title(self) -> &'static str {
        match self {
            Unit::Iops => "IOPS",
            Unit::MbS => "MB/s",
        }
    }

    /// An offered load of `iops` requests of `bs_bytes` in this unit.
    pub fn offered(self, iops: f64, bs_bytes: u32) -> f64 {
        match self {
            Unit::Iops => iops,
            Unit::MbS => iops * f64::from(bs_bytes) / BYTES_PER_MB,
        }
    }

    /// Axis tick label.
    pub fn tick(self, v: f64) -> String {
        match self {
            Unit::Iops => format::axis_count(v),
            Unit::MbS => format::grouped(v),
        }
    }
}

/// What a chart against queue depth counts: throughput, power, or throughput per watt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Measure {
    Throughput(Unit),
    /// Average power.
    Watts,
    /// IOPS or MB/s per watt.
    PerWatt(Unit),
}

impl Measure {
    /// The value of a model point in this measure.
    pub fn pick(self, p: &Point) -> f64 {
        match self {
            Measure::Throughput(u) => u.pick(p),
            Measure::Watts => p.watts,
            Measure::PerWatt(u) => crate::model::power::per_watt(u.pick(p), p.watts),
        }
    }

    /// Axis title.
    pub fn title(self) -> &'static str {
        match self {
            Measure::Throughput(u) => u.title(),
            Measure::Watts => "W",
            Measure::PerWatt(Unit::Iops) => "IOPS per W",
            Measure::PerWatt(Unit::MbS) => "MB/s per W",
        }
    }

    /// Axis tick label.
    pub fn tick(self, v: f64) -> String {
        match self {
            Measure::Throughput(u) | Measure::PerWatt(u) => u.tick(v),
            Measure::Watts => format::axis_count(v),
        }
    }

    /// A value in words with its unit, whole: `606,008 IOPS`.
    pub fn value_words(self, v: f64) -> String {
        format!("{} {}", format::grouped(v.round()), self.title())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_blocks_offer_megabytes_per_second() {
        assert_eq!(Unit::Iops.offered(1000.0, 131_072), 1000.0);
        assert!((Unit::MbS.offered(1000.0, 131_072) - 131.072).abs() < 1e-9);
    }
}
