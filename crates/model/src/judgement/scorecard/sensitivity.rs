//! The presets' assumptions, each with a plausible range and its basis, and how far each moves
//! every figure of the scorecard: which predictions are solid and which an assumption decides.
//!
//! What always holds: a sensitivity run changes exactly one value, in the presets that carry
//! it, and reruns only the figures whose procedures read one of those presets (the baseline's
//! runs record which presets each figure read), so every other figure is its baseline value by
//! construction, not by coincidence.

use serde::{Deserialize, Serialize};

use super::runs::Runs;
use super::{figures, judge, Scorecard, Value, Verdict};
use crate::presets::Preset;
use crate::run::RunError;
use crate::time::Nanos;

const THREE_D: &[&str] = &["e18dc", "e12", "e12c", "e8", "e8t"];
const CONSUMER: &[&str] = &["e12", "e12c", "e8", "e8t"];
const ALL: &[&str] = &["e18dc", "e12", "e12c", "e8", "e8t", "e7", "octane"];

/// A value no published figure pins down, the range it plausibly lies in, and why.
#[derive(Debug)]
pub struct Assumption {
    pub id: &'static str,
    pub what: &'static str,
    pub unit: &'static str,
    /// The presets that carry it.
    pub presets: &'static [&'static str],
    pub lo: f64,
    pub hi: f64,
    pub basis: &'static str,
    pub(crate) apply: fn(&mut Preset, f64),
}

/// Every assumption the scorecard's sensitivity varies.
pub fn assumptions() -> &'static [Assumption] {
    &ASSUMPTIONS
}

static ASSUMPTIONS: [Assumption; 10] = [
    Assumption {
        id: "program-suspend",
        what: "time a 3D TLC program or erase takes to suspend for a read",
        unit: "µs",
        presets: THREE_D,
        lo: 20.0,
        hi: 100.0,
        basis: "no 3D TLC figure is published; MQSim defaults to 100 µs (no source), 3D NAND \
                suspends within tens of µs (the reference's section 7)",
        apply: |p, v| p.nand.t_suspend = Nanos::from_us(v as u64),
    },
    Assumption {
        id: "resume-loss",
        what: "time a suspended program or erase loses when it resumes",
        unit: "µs",
        presets: THREE_D,
        lo: 1.0,
        hi: 100.0,
        basis: "from about nothing (MQSim and FEMU lose nothing; the model takes 1 µs, it \
                refuses zero) to one program step (patents: the interrupted pulse re-runs; a \
                2 ms TLC program in about 20 steps)",
        apply: |p, v| p.nand.t_resume = Nanos::from_us(v as u64),
    },
    Assumption {
        id: "erase-time",
        what: "3D TLC block erase time",
        unit: "µs",
        presets: THREE_D,
        lo: 3_500.0,
        hi: 10_500.0,
        basis: "one to three erase loops of about 3.5 ms on worn 3D TLC (AERO, ASPLOS 2024)",
        apply: |p, v| p.nand.t_erase = Nanos::from_us(v as u64),
    },
    Assumption {
        id: "suspends-per-step",
        what: "times the firmware suspends one program or erase step",
        unit: "",
        presets: THREE_D,
        lo: 1.0,
        hi: 16.0,
        basis: "patents describe a cap on suspends per program; no value is published",
        apply: |p, v| p.controller.max_suspends = v as u32,
    },
    Assumption {
        id: "write-buffer",
        what: "the controller's write buffer",
        unit: "MiB",
        presets: ALL,
        lo: 4.0,
        hi: 32.0,
        basis: "a DRAM or power-loss-protected buffer of a few MiB; no drive here publishes it",
        apply: |p, v| p.controller.write_buffer_bytes = (v * 1_048_576.0) as u64,
    },
    Assumption {
        id: "read-burst-limit",
        what: "reads a die serves in a row while a program waits",
        unit: "",
        presets: ALL,
        lo: 2.0,
        hi: 32.0,
        basis: "a starvation guard of the reference's section 6; its size is not published",
        apply: |p, v| p.controller.read_burst_limit = v as u32,
    },
    Assumption {
        id: "die-power",
        what: "power of one die's array operation",
        unit: "W",
        presets: ALL,
        lo: 0.05,
        hi: 0.15,
        basis: "NAND datasheets' typical ICC of 15 to 45 mA at 3.3 V",
        apply: |p, v| p.nand.power.die_w = v,
    },
    Assumption {
        id: "consumer-slc-static",
        what: "the consumer Phison controllers' static SLC cache",
        unit: "GB",
        presets: CONSUMER,
        lo: 0.0,
        hi: 24.0,
        basis: "retail E12 drives of 1 TB show 16 to 28 GB of cache in all on an empty drive \
                (TechPowerUp's Sabrent Rocket and Seagate FireCuda 510 reviews)",
        apply: |p, v| p.controller.slc_cache.static_bytes = (v * 1e9) as u64,
    },
    Assumption {
        id: "consumer-slc-program",
        what: "SLC-mode page program time of the E12 family's BiCS3 TLC",
        unit: "µs",
        presets: CONSUMER,
        lo: 150.0,
        hi: 400.0,
        basis: "SLC-mode programs of 3D TLC run a few hundred µs",
        apply: |p, v| p.nand.t_prog_slc = Nanos::from_us(v as u64),
    },
    Assumption {
        id: "e18dc-nand-bus",
        what: "the E18DC's NAND interface rate",
        unit: "MB/s",
        presets: &["e18dc"],
        lo: 800.0,
        hi: 1_200.0,
        basis: "the E18's fastest interface is 1,200 MT/s; 800 MT/s parts were common in 2020",
        apply: |p, v| p.nand.bus_bytes_per_s = v * 1e6,
    },
];

/// One assumption's effect on one figure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Moved {
    pub assumption: String,
    /// The model's value with the assumption at each end of its range (NaN for a fact).
    pub at_lo: f64,
    pub at_hi: f64,
    /// The larger relative change from the baseline.
    pub moved: f64,
    pub verdict_at_lo: Verdict,
    pub verdict_at_hi: Verdict,
}

/// One figure's sensitivity to every assumption.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SensitivityRow {
    pub id: String,
    pub base: Value,
    /// The assumptions that move it, the largest first.
    pub moves: Vec<Moved>,
}

impl SensitivityRow {
    /// The assumption that moves the figure most, and by how much.
    pub fn decided_by(&self) -> Option<(&str, f64)> {
        self.moves.first().map(|m| (m.assumption.as_str(), m.moved))
    }
}

fn number(v: &Value) -> f64 {
    match v {
        Value::Number(x) => *x,
        Value::Text(_) => f64::NAN,
    }
}

/// The scorecard as the presets are, and the presets each figure's procedure read.
pub struct Baseline {
    pub scorecard: Scorecard,
    read: Vec<Vec<String>>,
}

impl Baseline {
    pub fn run() -> Result<Baseline, RunError> {
        let mut runs = Runs::new(None);
        let mut rows = Vec::new();
        let mut read = Vec::new();
        for f in figures() {
            runs.start_figure();
            rows.push(super::score(f, &mut runs)?);
            read.push(runs.presets_read());
        }
        Ok(Baseline {
            scorecard: Scorecard::from_rows(rows),
            read,
        })
    }
}

/// The baseline rerun with `assumption` at each end of its range: the rows that move.
pub fn vary(
    baseline: &Baseline,
    assumption: &'static Assumption,
) -> Result<Vec<(usize, Moved)>, RunError> {
    let base = &baseline.scorecard;
    let mut ends = [
        Runs::new(Some((assumption, assumption.lo))),
        Runs::new(Some((assumption, assumption.hi))),
    ];
    let mut out = Vec::new();
    for (i, (figure, read)) in figures().iter().zip(&baseline.read).enumerate() {
        if !read
            .iter()
            .any(|p| assumption.presets.contains(&p.as_str()))
        {
            continue;
        }
        let [lo, hi] = &mut ends;
        let (lo, hi) = (
            judge(figure, (figure.model)(lo)?),
            judge(figure, (figure.model)(hi)?),
        );
        let b = number(&base.rows[i].model);
        let rel = |x: f64| if b != 0.0 { (x / b - 1.0).abs() } else { 0.0 };
        let moved = rel(number(&lo.model)).max(rel(number(&hi.model)));
        let text_moved = lo.model != base.rows[i].model || hi.model != base.rows[i].model;
        if moved > 0.0 || (b.is_nan() && text_moved) {
            out.push((
                i,
                Moved {
                    assumption: assumption.id.to_string(),
                    at_lo: number(&lo.model),
                    at_hi: number(&hi.model),
                    moved: if moved.is_nan() { 1.0 } else { moved },
                    verdict_at_lo: lo.verdict,
                    verdict_at_hi: hi.verdict,
                },
            ));
        }
    }
    Ok(out)
}

/// Every figure's sensitivity to every assumption, from the baseline and each assumption's
/// [`vary`] (run in any order, or in parallel, by the caller).
pub fn table(baseline: &Baseline, varied: Vec<Vec<(usize, Moved)>>) -> Vec<SensitivityRow> {
    let mut rows: Vec<SensitivityRow> = baseline
        .scorecard
        .rows
        .iter()
        .map(|r| SensitivityRow {
            id: r.id.clone(),
            base: r.model.clone(),
            moves: Vec::new(),
        })
        .collect();
    for (i, moved) in varied.into_iter().flatten() {
        rows[i].moves.push(moved);
    }
    for r in &mut rows {
        r.moves.sort_by(|a, b| b.moved.total_cmp(&a.moved));
    }
    rows
}

/// The whole sensitivity table, one assumption after another.
pub fn sensitivity(baseline: &Baseline) -> Result<Vec<SensitivityRow>, RunError> {
    let varied = assumptions()
        .iter()
        .map(|a| vary(baseline, a))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(table(baseline, varied))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    /// Both ends of every range build drives the model accepts, on every preset it names.
    #[test]
    fn every_assumption_s_range_gives_valid_drives() {
        for a in assumptions() {
            assert!(a.lo < a.hi, "{}", a.id);
            for id in a.presets {
                for v in [a.lo, a.hi] {
                    let mut p = presets::find(id).unwrap().clone();
                    (a.apply)(&mut p, v);
                    let spec = crate::RunSpec {
                        drive: p.default_drive(),
                        workload: crate::Workload {
                            rw: crate::Rw::RandRw,
                            rwmixread: 70,
                            bs_bytes: 4096,
                            iodepth: 4,
                        },
                        state: crate::DriveState::Steady,
                        options: crate::RunOptions::default().without_anatomy(),
                    };
                    assert!(spec.check().is_ok(), "{} = {v} on {id}", a.id);
                }
            }
        }
    }
}
