//! A run made ready for the engine without ever blocking: checked, and with the steady-state
//! write amplification it pays already known.
//!
//! A run on a written-over drive pays the write amplification that the scaled FTL finds for its
//! spare area (about 50 ms natively, half a second in a browser). [`Preparation`] computes it in
//! steps of at most a given number of scaled-drive writes and then holds a [`CheckedRun`] that
//! carries it ([`CheckedRun::with_write_amplification`]), so `Simulation::new` on it never runs
//! the FTL. Every caller that must not block (the page's charts, its teaching mode) prepares
//! runs this way; the ones that may (the command line, tests) hand a checked run straight to the
//! engine, which then computes the amplification in one go.

use super::config::{CheckedRun, ConfigError, RunSpec};
use super::ftl::{cached_steady_write_amplification, SteadyWa};

/// Scaled-drive writes per step of a [`Preparation`]: about 1 ms in a browser.
pub const WA_WRITES_PER_STEP: usize = 5_000;

/// A run on its way to the engine.
pub enum Preparation {
    /// Ready: [`Simulation::new`](super::Simulation::new) on it never blocks.
    Ready(CheckedRun),
    /// The garbage-collection model still runs for this run.
    Collecting(CheckedRun, Box<SteadyWa>),
    /// The run was refused.
    Failed(ConfigError),
}

impl Preparation {
    /// Check `spec` and start preparing it (ready at once when nothing is owed, or when this
    /// spare area's amplification is already known).
    pub fn new(spec: RunSpec) -> Preparation {
        let run = match spec.check() {
            Err(e) => return Preparation::Failed(e),
            Ok(run) => run,
        };
        match run.steady_state_spare_ratio() {
            None => Preparation::Ready(run),
            Some(ratio) => match cached_steady_write_amplification(ratio) {
                Some(wa) => Preparation::settle(run, wa),
                None => Preparation::Collecting(run, Box::new(SteadyWa::new(ratio))),
            },
        }
    }

    fn settle(run: CheckedRun, wa: f64) -> Preparation {
        match run.with_write_amplification(wa) {
            Ok(run) => Preparation::Ready(run),
            Err(e) => Preparation::Failed(e),
        }
    }

    /// Advance the garbage-collection model by at most `max_writes`; true once there is
    /// nothing more to do (ready, or refused).
    pub fn work(&mut self, max_writes: usize) -> bool {
        let Preparation::Collecting(run, wa) = self else {
            return true;
        };
        let Some(wa) = wa.step(max_writes) else {
            return false;
        };
        *self = Preparation::settle(run.clone(), wa);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{DriveState, RunOptions, Rw, Workload};
    use crate::engine::Simulation;
    use crate::presets;

    fn spec(state: DriveState, spare_efficiency: f64) -> RunSpec {
        let mut drive = presets::find("e18dc").unwrap().drive_with_dies(8);
        // A spare area no other test uses, so the memo cannot have its amplification yet.
        drive.controller.spare_efficiency = spare_efficiency;
        RunSpec {
            drive,
            workload: Workload {
                rw: Rw::RandWrite,
                rwmixread: 0,
                bs_bytes: 4096,
                iodepth: 4,
            },
            state,
            options: RunOptions {
                seed: 3,
                measured_ios: 2_000,
            },
        }
    }

    #[test]
    fn a_prepared_run_simulates_exactly_as_a_run_that_computes_in_one_go() {
        let mut prep = Preparation::new(spec(DriveState::Steady, 0.613));
        assert!(matches!(prep, Preparation::Collecting(..)));
        let mut steps = 1;
        while !prep.work(WA_WRITES_PER_STEP) {
            steps += 1;
        }
        assert!(steps > 10, "{steps} steps: the work is cut up");
        let Preparation::Ready(run) = prep else {
            panic!("a valid run gets ready");
        };
        assert!(run
            .write_amplification_override()
            .is_some_and(|wa| wa > 1.0));
        let direct = spec(DriveState::Steady, 0.613).check().unwrap();
        assert_eq!(Simulation::run(&run), Simulation::run(&direct));
    }

    #[test]
    fn a_run_that_pays_nothing_is_ready_at_once_and_a_bad_one_says_why() {
        assert!(matches!(
            Preparation::new(spec(DriveState::Fob, 0.85)),
            Preparation::Ready(_)
        ));
        let mut bad = spec(DriveState::Steady, 0.85);
        bad.workload.iodepth = 0;
        let Preparation::Failed(e) = Preparation::new(bad) else {
            panic!("refused");
        };
        assert!(e.to_string().contains("iodepth"), "{e}");
    }
}
