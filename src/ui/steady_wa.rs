//! The model's steady-state write amplification, computed in slices.
//!
//! The model works out a drive's garbage-collection cost by running a scaled flash translation
//! layer through several drive-fills of random writes ([`ftl::steady_write_amplification`]). In
//! one go that takes about half a second in the browser: the page's only long task. This adapter
//! runs the same procedure, with the model's own [`ScaledFtl`] and [`Rng`], a bounded number of
//! writes at a time, and the engine hands the result to the model with
//! [`CheckedRun::with_write_amplification`], so the model never computes it itself.
//!
//! What always holds: the result is bit-for-bit the model's (checked by a test against
//! [`ftl::steady_write_amplification`]), and [`applies`] asks for it exactly where the model
//! would compute it (checked by a test that compares whole runs), so the page shows the
//! model's numbers. The procedure's constants mirror private ones in `model/ftl.rs`; the
//! tests fail if the two ever drift apart.
//!
//! [`CheckedRun::with_write_amplification`]: crate::model::CheckedRun::with_write_amplification

use crate::model::config::{DriveState, Workload};
use crate::model::ftl::{self, ScaledFtl};
use crate::model::rng::Rng;

/// Blocks and pages per block of the model's scaled drive (`model/ftl.rs`).
const SCALED_BLOCKS: usize = 512;
const SCALED_PAGES_PER_BLOCK: usize = 256;
/// Drive-fills of random writes before measuring, and measured (`model/ftl.rs`).
const WARM_DRIVE_WRITES: u64 = 4;
const MEASURED_DRIVE_WRITES: u64 = 2;
/// The model's seed for the random overwrite (`model/ftl.rs`).
const WA_SEED: u64 = 0x05EE_DF71;

/// Whether the model would compute the steady-state write amplification for this run (runs
/// with writes on a drive whose random overwrites meet garbage collection).
pub fn applies(workload: &Workload, state: DriveState) -> bool {
    let writes = workload.read_percent() < 100;
    writes
        && match state {
            DriveState::Fob => false,
            DriveState::SeqFilled => workload.rw.is_random(),
            DriveState::Steady => true,
        }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Writing every logical page once, in order.
    Fill { next: u32 },
    /// Random overwrites before measuring.
    Warm { left: u64 },
    /// Random overwrites that count.
    Measure { left: u64 },
}

/// One steady-state computation in progress.
pub struct SteadyWa {
    ftl: ScaledFtl,
    rng: Rng,
    user: u32,
    phase: Phase,
}

impl SteadyWa {
    /// Starts the computation for a drive with `spare_ratio` (spare / user capacity).
    pub fn new(spare_ratio: f64) -> SteadyWa {
        let ftl = ScaledFtl::new(SCALED_BLOCKS, SCALED_PAGES_PER_BLOCK, spare_ratio);
        let user = u32::try_from(ftl.user_pages()).unwrap_or(u32::MAX);
        SteadyWa {
            ftl,
            rng: Rng::new(WA_SEED),
            user,
            phase: Phase::Fill { next: 0 },
        }
    }

    /// Does at most `writes` host writes; returns the write amplification once done.
    pub fn step(&mut self, writes: u64) -> Option<f64> {
        let mut budget = writes;
        while budget > 0 {
            match self.phase {
                Phase::Fill { next } if next < self.user => {
                    self.ftl.write(next);
                    self.phase = Phase::Fill { next: next + 1 };
                }
                Phase::Fill { .. } => {
                    self.phase = Phase::Warm {
                        left: WARM_DRIVE_WRITES * u64::from(self.user),
                    };
                    continue;
                }
                Phase::Warm { left } if left > 0 => {
                    self.overwrite();
                    self.phase = Phase::Warm { left: left - 1 };
                }
                Phase::Warm { .. } => {
                    self.ftl.reset_counters();
                    self.phase = Phase::Measure {
                        left: MEASURED_DRIVE_WRITES * u64::from(self.user),
                    };
                    continue;
                }
                Phase::Measure { left } if left > 0 => {
                    self.overwrite();
                    self.phase = Phase::Measure { left: left - 1 };
                }
                Phase::Measure { .. } => return Some(self.ftl.write_amplification()),
            }
            budget -= 1;
        }
        matches!(self.phase, Phase::Measure { left: 0 }).then(|| self.ftl.write_amplification())
    }

    fn overwrite(&mut self) {
        let lpn = self.rng.below(u64::from(self.user));
        self.ftl.write(u32::try_from(lpn).unwrap_or(0));
    }
}

/// The model's own (blocking) result, for comparison in tests.
pub fn blocking(spare_ratio: f64) -> f64 {
    ftl::steady_write_amplification(spare_ratio)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::config::{RunOptions, RunSpec, Rw};
    use crate::model::presets;
    use crate::model::Simulation;

    #[test]
    fn the_sliced_result_is_exactly_the_models() {
        let ratio = presets::find("e18dc")
            .unwrap()
            .drive_with_dies(8)
            .effective_spare_ratio();
        let mut job = SteadyWa::new(ratio);
        let mut slices = 0;
        let wa = loop {
            slices += 1;
            if let Some(wa) = job.step(50_000) {
                break wa;
            }
        };
        assert!(slices > 5, "the work really is split ({slices} slices)");
        assert_eq!(wa.to_bits(), blocking(ratio).to_bits());
        assert_eq!(job.step(1), Some(wa), "a finished job keeps its answer");
    }

    #[test]
    fn it_is_asked_for_exactly_where_the_model_would_compute_it() {
        let drive = presets::find("e18dc").unwrap().drive_with_dies(8);
        let wa = blocking(drive.effective_spare_ratio());
        for state in DriveState::ALL {
            for (rw, pct) in [
                (Rw::RandRead, 100),
                (Rw::RandWrite, 0),
                (Rw::RandRw, 70),
                (Rw::Write, 0),
                (Rw::Rw, 50),
            ] {
                let spec = RunSpec {
                    drive: drive.clone(),
                    workload: Workload {
                        rw,
                        rwmixread: pct,
                        bs_bytes: 4096,
                        iodepth: 8,
                    },
                    state,
                    options: RunOptions {
                        seed: 1,
                        measured_ios: 500,
                    },
                };
                let checked = spec.clone().check().unwrap();
                let own = Simulation::run(&checked);
                // Where it applies the model uses the steady-state figure, elsewhere none (1).
                let expected = if applies(&spec.workload, state) {
                    wa
                } else {
                    1.0
                };
                let given = Simulation::run(&checked.with_write_amplification(expected).unwrap());
                assert_eq!(own, given, "{state:?} {rw:?}");
            }
        }
    }
}
