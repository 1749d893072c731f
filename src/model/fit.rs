//! Fitting as code: the parameters a preset marks as *fitted*, the ranges `lab fit` searches
//! them in, and (to come) the search itself.
//!
//! A fitted parameter is one value of the controller or its flash that no spec sheet gives, chosen
//! once for every capacity of a preset against published measurements. Each names the field it
//! sets, the bounds of the search and the resolution the search stops at, so nobody hand-tunes a
//! preset: the preset's value is what the search finds on the preset's reference data.

use std::fmt;
use std::str::FromStr;

use super::config::{ConfigError, ControllerSpec, NandSpec};
use super::time::Nanos;

/// A model parameter the fit may choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Param {
    /// Array read time tR (µs).
    TReadUs,
    /// TLC program time of one program unit (µs).
    TProgUs,
    /// Host software stack per I/O (µs).
    HostStackUs,
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
}

/// One table for the names, so parsing and printing cannot drift apart.
const NAMES: [(Param, &str); 8] = [
    (Param::TReadUs, "t_read_us"),
    (Param::TProgUs, "t_prog_us"),
    (Param::HostStackUs, "host_stack_us"),
    (Param::CmdCostNs, "cmd_cost_ns"),
    (Param::WriteCmdCostNs, "write_cmd_cost_ns"),
    (Param::GcUnitCostNs, "gc_unit_cost_ns"),
    (Param::SpareEfficiency, "spare_efficiency"),
    (Param::MultiplaneReadMinQueue, "multiplane_read_min_queue"),
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

impl FromStr for Param {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Param, ConfigError> {
        NAMES
            .iter()
            .find(|(_, n)| *n == s)
            .map(|(p, _)| *p)
            .ok_or_else(|| ConfigError::Unknown {
                what: "fitted parameter",
                value: s.to_string(),
                expected: NAMES.map(|(_, n)| n).join(", "),
            })
    }
}

impl Param {
    /// The parameter's value in a controller and its flash, in the unit its name gives.
    pub fn get(self, c: &ControllerSpec, n: &NandSpec) -> f64 {
        match self {
            Param::TReadUs => n.t_read.0 as f64 / 1e3,
            Param::TProgUs => n.t_prog.0 as f64 / 1e3,
            Param::HostStackUs => c.host_stack.0 as f64 / 1e3,
            Param::CmdCostNs => c.cmd_cost.0 as f64,
            Param::WriteCmdCostNs => c.write_cmd_cost.0 as f64,
            Param::GcUnitCostNs => c.gc_unit_cost.0 as f64,
            Param::SpareEfficiency => c.spare_efficiency,
            Param::MultiplaneReadMinQueue => f64::from(c.multiplane_read_min_queue),
        }
    }

    /// Set the parameter (in the unit its name gives; times round to whole nanoseconds, counts
    /// to whole numbers). The result still goes through `RunSpec::check` before any run.
    pub fn set(self, c: &mut ControllerSpec, n: &mut NandSpec, value: f64) {
        let ns = |v: f64| Nanos(v.round().max(0.0) as u64);
        match self {
            Param::TReadUs => n.t_read = ns(value * 1e3),
            Param::TProgUs => n.t_prog = ns(value * 1e3),
            Param::HostStackUs => c.host_stack = ns(value * 1e3),
            Param::CmdCostNs => c.cmd_cost = ns(value),
            Param::WriteCmdCostNs => c.write_cmd_cost = ns(value),
            Param::GcUnitCostNs => c.gc_unit_cost = ns(value),
            Param::SpareEfficiency => c.spare_efficiency = value,
            Param::MultiplaneReadMinQueue => {
                c.multiplane_read_min_queue = value.round().clamp(1.0, 1024.0) as u32
            }
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
