//! The parameters a preset may mark as *fitted* (values no spec sheet gives, chosen by
//! [`crate::fit`] against published measurements) and the bounds a search looks in. Plain
//! declarations: presets name them, the fit searches them, links carry them by name.

use std::fmt;
use std::str::FromStr;

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

use super::{ConfigError, DriveSpec, MAX_DIES};
use crate::time::Nanos;

/// A model parameter the fit may choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Param {
    /// Array read time tR (µs).
    TReadUs,
    /// TLC program time of one program unit (µs).
    TProgUs,
    /// Host software stack per I/O (µs).
    HostStackUs,
    /// Host time per I/O on its one-at-a-time path (µs).
    HostPathUs,
    /// Controller time per host command (ns).
    CmdCostNs,
    /// Extra controller time per host write (ns).
    WriteCmdCostNs,
    /// Controller time per 4 KiB relocated by garbage collection (ns).
    GcUnitCostNs,
    /// Share of the nominal spare area garbage collection can use.
    SpareEfficiency,
    /// Reads waiting for a die before it senses several planes at once.
    MultiplaneReadMinQueue,
    /// Fraction of the host link's raw rate left after protocol overhead.
    LinkEfficiency,
    /// Dies behind the controller (a drive fitted as a whole; calibration cells name their
    /// capacity instead).
    Dies,
}

/// One table for the names, so parsing and printing cannot drift apart.
const NAMES: [(Param, &str); 11] = [
    (Param::TReadUs, "t_read_us"),
    (Param::TProgUs, "t_prog_us"),
    (Param::HostStackUs, "host_stack_us"),
    (Param::HostPathUs, "host_path_us"),
    (Param::CmdCostNs, "cmd_cost_ns"),
    (Param::WriteCmdCostNs, "write_cmd_cost_ns"),
    (Param::GcUnitCostNs, "gc_unit_cost_ns"),
    (Param::SpareEfficiency, "spare_efficiency"),
    (Param::MultiplaneReadMinQueue, "multiplane_read_min_queue"),
    (Param::LinkEfficiency, "link_efficiency"),
    (Param::Dies, "dies"),
];

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = NAMES
            .iter()
            .find(|(p, _)| p == self)
            .map_or("?", |(_, n)| n);
        f.write_str(name)
    }
}

impl Serialize for Param {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Param {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Param, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(de::Error::custom)
    }
}

impl FromStr for Param {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Param, ConfigError> {
        NAMES
            .iter()
            .find(|(_, n)| *n == s)
            .map(|(p, _)| *p)
            .ok_or_else(|| ConfigError::Unknown {
                what: "fitted parameter".into(),
                value: s.to_string(),
                expected: NAMES.map(|(_, n)| n).join(", "),
            })
    }
}

impl Param {
    /// What the parameter is, in words, with its unit (for tables a reader sees).
    pub fn label(self) -> &'static str {
        match self {
            Param::TReadUs => "read time tR (µs)",
            Param::TProgUs => "program time tPROG (µs)",
            Param::HostStackUs => "host stack per I/O (µs)",
            Param::HostPathUs => "host path, one I/O at a time (µs)",
            Param::CmdCostNs => "controller time per command (ns)",
            Param::WriteCmdCostNs => "extra controller time per write (ns)",
            Param::GcUnitCostNs => "controller time per 4 KiB collected (ns)",
            Param::SpareEfficiency => "usable share of the spare area",
            Param::MultiplaneReadMinQueue => "reads queued before a multi-plane read",
            Param::LinkEfficiency => "host link efficiency",
            Param::Dies => "dies",
        }
    }

    /// The parameter's value in a drive, in the unit its name gives.
    pub fn get(self, d: &DriveSpec) -> f64 {
        let (c, n) = (&d.controller, &d.nand);
        match self {
            Param::TReadUs => n.t_read.0 as f64 / 1e3,
            Param::TProgUs => n.t_prog.0 as f64 / 1e3,
            Param::HostStackUs => c.host_stack.0 as f64 / 1e3,
            Param::HostPathUs => c.host_path.0 as f64 / 1e3,
            Param::CmdCostNs => c.cmd_cost.0 as f64,
            Param::WriteCmdCostNs => c.write_cmd_cost.0 as f64,
            Param::GcUnitCostNs => c.gc_unit_cost.0 as f64,
            Param::SpareEfficiency => c.spare_efficiency,
            Param::MultiplaneReadMinQueue => f64::from(c.multiplane_read_min_queue),
            Param::LinkEfficiency => c.link_efficiency,
            Param::Dies => f64::from(d.dies),
        }
    }

    /// Set the parameter (in the unit its name gives; times round to whole nanoseconds, counts
    /// to whole numbers). The result still goes through a run's check before any run.
    pub fn set(self, d: &mut DriveSpec, value: f64) {
        let ns = |v: f64| Nanos(v.round().max(0.0) as u64);
        let (c, n) = (&mut d.controller, &mut d.nand);
        match self {
            Param::TReadUs => n.t_read = ns(value * 1e3),
            Param::TProgUs => n.t_prog = ns(value * 1e3),
            Param::HostStackUs => c.host_stack = ns(value * 1e3),
            Param::HostPathUs => c.host_path = ns(value * 1e3),
            Param::CmdCostNs => c.cmd_cost = ns(value),
            Param::WriteCmdCostNs => c.write_cmd_cost = ns(value),
            Param::GcUnitCostNs => c.gc_unit_cost = ns(value),
            Param::SpareEfficiency => c.spare_efficiency = value,
            Param::MultiplaneReadMinQueue => {
                c.multiplane_read_min_queue = value.round().clamp(1.0, 1024.0) as u32
            }
            Param::LinkEfficiency => c.link_efficiency = value,
            Param::Dies => d.dies = value.round().clamp(1.0, f64::from(MAX_DIES)) as u32,
        }
    }
}

/// A parameter a preset marks as fitted: the search looks for it in `lo..=hi` and stops refining
/// at `step` (the resolution a test holds the preset's value to).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fitted {
    pub param: Param,
    pub lo: f64,
    pub hi: f64,
    pub step: f64,
}

impl Fitted {
    /// The highest lattice index: the lattice is `lo, lo + step, ...` up to `hi`.
    pub(crate) fn last_index(&self) -> i64 {
        ((self.hi - self.lo) / self.step + 1e-9).floor().max(0.0) as i64
    }

    /// The value at lattice index `i` (rounded to nine decimals, so 0.5 + 35 x 0.01 prints as
    /// 0.85).
    pub(crate) fn value_at(&self, i: i64) -> f64 {
        ((self.lo + i as f64 * self.step) * 1e9).round() / 1e9
    }

    /// The lattice index nearest `value`, inside the bounds.
    pub fn index_of(&self, value: f64) -> i64 {
        ((value - self.lo) / self.step)
            .round()
            .clamp(0.0, self.last_index() as f64) as i64
    }

    pub(crate) fn check(&self) -> Result<(), ConfigError> {
        let ok = [self.lo, self.hi, self.step].iter().all(|v| v.is_finite())
            && self.step > 0.0
            && self.lo <= self.hi;
        if ok {
            Ok(())
        } else {
            Err(ConfigError::OutOfRange {
                what: "fitted bounds".into(),
                value: format!(
                    "{} {}..={} step {}",
                    self.param, self.lo, self.hi, self.step
                ),
                allowed: "finite bounds lo <= hi and a step above 0".into(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_names_parse_and_print_through_one_table() {
        for (p, name) in NAMES {
            assert_eq!(p.to_string(), name);
            assert_eq!(name.parse::<Param>(), Ok(p));
        }
        let err = "t_read".parse::<Param>().unwrap_err().to_string();
        assert!(err.contains("t_read_us"), "{err}");
    }
}
