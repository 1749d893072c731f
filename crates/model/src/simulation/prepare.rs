//! A run made ready for the engine without ever blocking: checked, and with the steady-state
//! write amplification it pays already known.
//!
//! A run on a written-over drive pays the write amplification that the scaled FTL finds for its
//! spare area (about 50 ms natively, several times that in a browser; the built-in presets'
//! are written down in [`crate::ftl`], so only a drive with another spare area pays it).
//! [`Preparation`] computes it in
//! steps of at most a given number of scaled-drive writes and then hands out a [`CheckedRun`]
//! that carries it ([`CheckedRun::with_write_amplification`]), so `Simulation::new` on it never
//! runs the FTL. Every caller that must not block (the page's charts, its teaching mode)
//! prepares runs this way; the ones that may (the command line, tests) hand a checked run
//! straight to the engine, which then computes the amplification in one go.
//!
//! What always holds: a [`Preparation`] exists only for a run that passed its checks (a refused
//! spec never becomes one), and its [`Sliced::step`] hands out the run exactly when nothing is
//! left to compute, so a caller cannot start an unprepared run. A scheduler with a clock drives
//! it with [`Sliced::work_until`] in steps of [`WA_WRITES_PER_STEP`].

use super::run::CheckedRun;
use crate::config::PowerLimit;
use crate::config::{ConfigError, RunSpec};
use crate::ftl::{cached_steady_write_amplification, SteadyWa};
use crate::sliced::Sliced;

/// Scaled-drive writes per step of a [`Preparation`]: about 1 ms in a browser.
pub const WA_WRITES_PER_STEP: usize = 5_000;

/// A checked run on its way to the engine.
pub struct Preparation {
    run: CheckedRun,
    /// The garbage-collection model, while it still runs for this run.
    collecting: Option<Box<SteadyWa>>,
}

impl Preparation {
    /// Checks `spec` and starts preparing it (ready at once when nothing is owed, or when this
    /// spare area's amplification is already known).
    pub fn new(spec: RunSpec) -> Result<Preparation, ConfigError> {
        Preparation::checked(spec.check()?)
    }

    /// Starts preparing a run already checked (e.g. streams from [`crate::workload::StreamsSpec::check`]).
    pub fn checked(run: CheckedRun) -> Result<Preparation, ConfigError> {
        let Some(ratio) = run.steady_state_spare_ratio() else {
            return Ok(Preparation {
                run,
                collecting: None,
            });
        };
        match cached_steady_write_amplification(ratio) {
            Some(wa) => Ok(Preparation {
                run: run.with_write_amplification(wa)?,
                collecting: None,
            }),
            None => Ok(Preparation {
                run,
                collecting: Some(Box::new(SteadyWa::new(ratio))),
            }),
        }
    }

    /// The run kept within `limit` (see [`CheckedRun::with_power_limit`]).
    pub fn with_power_limit(mut self, limit: PowerLimit) -> Result<Preparation, ConfigError> {
        self.run = self.run.with_power_limit(limit)?;
        Ok(self)
    }

    /// One step of at most `max_writes`; true once the run is ready.
    fn advance(&mut self, max_writes: usize) -> Result<bool, ConfigError> {
        let Some(collecting) = self.collecting.as_mut() else {
            return Ok(true);
        };
        let Ok(Some(wa)) = collecting.step(max_writes) else {
            return Ok(false);
        };
        self.run = self.run.clone().with_write_amplification(wa)?;
        self.collecting = None;
        Ok(true)
    }
}

/// Its unit is one write of the garbage-collection model's scaled drive; the output is the run
/// ready for the engine.
impl Sliced for Preparation {
    type Output = CheckedRun;
    type Error = ConfigError;

    fn step(&mut self, budget: usize) -> Result<Option<CheckedRun>, ConfigError> {
        Ok(self.advance(budget)?.then(|| self.run.clone()))
    }

    fn progress(&self) -> f64 {
        self.collecting.as_ref().map_or(1.0, |c| c.progress())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{DriveState, RunOptions, Rw, Workload};
    use crate::presets;
    use crate::Simulation;

    fn spec(state: DriveState, spare_efficiency: f64) -> RunSpec {
        let mut drive = presets::find("e18dc").unwrap().drive_with_dies(8).unwrap();
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
                ..RunOptions::default()
            },
        }
    }

    #[test]
    fn a_prepared_run_simulates_exactly_as_a_run_that_computes_in_one_go() {
        let mut prep = Preparation::new(spec(DriveState::Steady, 0.613)).unwrap();
        let mut steps = 1;
        let run = loop {
            if let Some(run) = prep.step(WA_WRITES_PER_STEP).unwrap() {
                break run;
            }
            steps += 1;
        };
        assert!(steps > 10, "{steps} steps: the work is cut up");
        assert!(run
            .write_amplification_override()
            .is_some_and(|wa| wa > 1.0));
        let direct = spec(DriveState::Steady, 0.613).check().unwrap();
        assert_eq!(
            Simulation::run(&run).unwrap(),
            Simulation::run(&direct).unwrap()
        );
    }

    #[test]
    fn work_until_stops_when_time_is_up_and_goes_on_where_it_stopped() {
        let mut prep = Preparation::new(spec(DriveState::Steady, 0.619)).unwrap();
        let mut looks = 0;
        let stopped = prep.work_until(WA_WRITES_PER_STEP, &mut || {
            looks += 1;
            looks == 3
        });
        assert!(
            stopped.unwrap().is_none(),
            "three steps do not finish the collection"
        );
        assert_eq!(looks, 3);
        let run = prep
            .work_until(WA_WRITES_PER_STEP, &mut || false)
            .unwrap()
            .unwrap();
        assert!(run
            .write_amplification_override()
            .is_some_and(|wa| wa > 1.0));
    }

    #[test]
    fn a_run_that_pays_nothing_is_ready_at_once_and_a_bad_one_says_why() {
        let mut fresh = Preparation::new(spec(DriveState::Fob, 0.85)).unwrap();
        assert!(fresh.step(0).unwrap().is_some());
        let mut bad = spec(DriveState::Steady, 0.85);
        bad.workload.iodepth = 0;
        let Err(e) = Preparation::new(bad) else {
            panic!("refused");
        };
        assert!(e.to_string().contains("iodepth"), "{e}");
    }
}
