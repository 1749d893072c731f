//! A trace replayed on several drives, computed in a worker: what the page asks
//! ([`ReplayAsk`]), the sliced replays that answer it ([`ReplayRun`]), and what crosses back
//! ([`ReplayFound`]). The reviews' desktop tests (Storage Bench 2011 Light and Heavy) run as
//! the model's generated workloads, on each drive the page compares.
//!
//! What always holds:
//! - each replay is the one `lab replay --workload NAME` runs (the same trace for the drive's
//!   size, seed [`SEED`], at the trace's own times, at most [`DEVICE_DEPTH`] at the device), so
//!   the page and the command line give the same figures;
//! - no step blocks for long: a trace is generated and replayed in slices of
//!   [`EVENTS_PER_STEP`] events, one drive after the other, and progress is the share of all
//!   requests replayed;
//! - a drive the model refuses is answered with the reason, never a panic.

use std::sync::Arc;

use parallelism_model::config::{ConfigError, RunOptions, RunSpec, Rw, Workload};
use parallelism_model::power::PowerLimit;
use parallelism_model::prepare::Preparation;
use parallelism_model::stats::{LatencySummary, RunResult};
use parallelism_model::workload::desktop::Desktop;
use parallelism_model::workload::{Arrival, Stream, StreamsSpec};
use parallelism_model::{DriveState, Simulation};
use serde::{Deserialize, Serialize};

use crate::engine::EVENTS_PER_STEP;
use crate::key::{DriveKey, SEED};

/// The most requests at the device at once during a replay (the rest wait in the host), as
/// `lab replay`'s default.
pub const DEVICE_DEPTH: u32 = 32;
/// The most drives one replay covers (the page's comparison: three capacities, or four pins and
/// the reader's configuration).
pub const MAX_REPLAY_DRIVES: usize = 5;

/// One drive of a replay: the drive and the state it starts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ReplayDrive {
    pub drive: DriveKey,
    pub state: DriveState,
    /// The active power state the drive is held to (0: PS0).
    pub power_state: u8,
}

/// What the page asks: one workload on each of `drives`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ReplayAsk {
    pub drives: Vec<ReplayDrive>,
    /// The generated desktop workload's name (`desktop-light`, `desktop-heavy`).
    pub workload: String,
}

/// One direction's latency as the page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Latency {
    pub mean_us: f64,
    pub p99_us: f64,
    pub p999_us: f64,
}

impl Latency {
    fn of(l: &LatencySummary) -> Latency {
        Latency {
            mean_us: l.mean_us,
            p99_us: l.p99_us,
            p999_us: l.p999_us,
        }
    }
}

/// What one drive did with the trace, as the reviews report a trace test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DriveReplay {
    /// Bytes moved over the time the drive was busy (something in flight), in MB/s: the
    /// reviews' "average data rate".
    pub data_rate_mb_s: f64,
    /// Time the drive had something in flight, in seconds.
    pub busy_s: f64,
    /// The trace's length as replayed, in seconds.
    pub elapsed_s: f64,
    pub read: Option<Latency>,
    pub write: Option<Latency>,
    pub energy_j: f64,
    pub requests: u64,
}

impl DriveReplay {
    fn of(r: &RunResult, requests: u64) -> DriveReplay {
        DriveReplay {
            data_rate_mb_s: r.busy_mb_s(),
            busy_s: r.busy_ns as f64 / 1e9,
            elapsed_s: r.measured_ns as f64 / 1e9,
            read: r.read_latency.as_ref().map(Latency::of),
            write: r.write_latency.as_ref().map(Latency::of),
            energy_j: r.energy_j(),
            requests,
        }
    }
}

/// What the worker found: one result per asked drive, in the asked order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayFound {
    pub drives: Vec<DriveReplay>,
}

/// How far a [`ReplayRun`] is: requests replayed of all (over every drive).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReplayProgress {
    pub done: u64,
    pub total: u64,
}

/// Checks drive `d` in its state and power state, as cheaply as the model allows (a trace is
/// only generated when its replay starts).
fn check_drive(d: &ReplayDrive) -> Result<(), ConfigError> {
    let run = RunSpec {
        drive: d.drive.spec(),
        workload: Workload {
            rw: Rw::RandRead,
            rwmixread: 100,
            bs_bytes: 4096,
            iodepth: 1,
        },
        state: d.state,
        options: RunOptions::default(),
    }
    .check()?;
    if d.power_state > 0 {
        run.with_power_limit(PowerLimit::State(d.power_state))?;
    }
    Ok(())
}

/// The replay being advanced on one drive.
enum Current {
    Preparing(Box<Preparation>, u64),
    Running(Box<Simulation>, u64),
}

/// The replays under way.
pub struct ReplayRun {
    ask: ReplayAsk,
    workload: Desktop,
    found: Vec<DriveReplay>,
    current: Option<Current>,
    /// Requests of each drive's trace (the same count on every drive).
    per_drive: u64,
}

impl ReplayRun {
    /// The replays for `ask`, every drive checked before the first starts.
    pub fn start(ask: ReplayAsk) -> Result<ReplayRun, String> {
        let workload: Desktop = ask
            .workload
            .parse()
            .map_err(|e: ConfigError| e.to_string())?;
        if ask.drives.is_empty() || ask.drives.len() > MAX_REPLAY_DRIVES {
            return Err(format!(
                "a replay covers 1 to {MAX_REPLAY_DRIVES} drives, not {}",
                ask.drives.len()
            ));
        }
        for d in &ask.drives {
            check_drive(d).map_err(|e| e.to_string())?;
        }
        let recipe = workload.recipe();
        Ok(ReplayRun {
            ask,
            workload,
            found: Vec::new(),
            current: None,
            per_drive: recipe.reads + recipe.writes,
        })
    }

    pub fn progress(&self) -> ReplayProgress {
        let now = match &self.current {
            Some(Current::Running(sim, _)) => sim.activity().completed,
            _ => 0,
        };
        ReplayProgress {
            done: self.found.len() as u64 * self.per_drive + now,
            total: self.ask.drives.len() as u64 * self.per_drive,
        }
    }

    /// The run of the workload on drive `d`, ready to be prepared.
    fn prepared(&self, d: &ReplayDrive) -> Result<(Preparation, u64), ConfigError> {
        let drive = d.drive.spec();
        let trace = Arc::new(self.workload.trace(drive.user_bytes() as u64, 1.0, SEED));
        let requests = trace.requests.len() as u64;
        let arrival = Arrival::Timed {
            speed: 1.0,
            max_idle: None,
            iodepth: DEVICE_DEPTH,
        };
        let mut run = StreamsSpec {
            drive,
            streams: vec![Stream::replay(trace, arrival)],
            state: d.state,
            options: RunOptions {
                seed: SEED,
                ..RunOptions::default()
            },
        }
        .check()?;
        if d.power_state > 0 {
            run = run.with_power_limit(PowerLimit::State(d.power_state))?;
        }
        Ok((Preparation::checked(run)?, requests))
    }

    /// Works until `time_is_up` or every drive is done; what was found once it is, or why a
    /// replay failed.
    pub fn work(
        &mut self,
        time_is_up: &mut dyn FnMut() -> bool,
    ) -> Option<Result<ReplayFound, String>> {
        loop {
            if self.found.len() == self.ask.drives.len() {
                return Some(Ok(ReplayFound {
                    drives: self.found.clone(),
                }));
            }
            let current = match self.current.take() {
                Some(c) => c,
                None => {
                    let d = self.ask.drives[self.found.len()];
                    match self.prepared(&d) {
                        Ok((prep, n)) => Current::Preparing(Box::new(prep), n),
                        Err(e) => return Some(Err(e.to_string())),
                    }
                }
            };
            self.current = match current {
                Current::Preparing(mut prep, n) => match prep.work_until(time_is_up) {
                    Ok(Some(run)) => Some(Current::Running(Box::new(Simulation::new(run)), n)),
                    Ok(None) => Some(Current::Preparing(prep, n)),
                    Err(e) => return Some(Err(e.to_string())),
                },
                Current::Running(mut sim, n) => {
                    if sim.step(EVENTS_PER_STEP) {
                        self.found.push(DriveReplay::of(&sim.result(), n));
                        None
                    } else {
                        Some(Current::Running(sim, n))
                    }
                }
            };
            if time_is_up() {
                return None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::DriveChoice;
    use parallelism_model::presets::{self, PresetKey};

    fn octane(capacity_gb: f64) -> ReplayDrive {
        let preset = presets::find("octane").unwrap();
        ReplayDrive {
            drive: DriveKey {
                preset: PresetKey(preset),
                drive: DriveChoice {
                    dies: preset.dies_for_capacity_gb(capacity_gb).unwrap(),
                    die_gbit: preset.nand.die_gbit,
                },
            },
            state: DriveState::Fob,
            power_state: 0,
        }
    }

    fn replay(ask: ReplayAsk) -> (ReplayFound, usize) {
        let mut run = ReplayRun::start(ask).unwrap();
        let mut slices = 0;
        loop {
            slices += 1;
            let before = run.progress();
            if let Some(found) = run.work(&mut || true) {
                return (found.unwrap(), slices);
            }
            assert!(
                run.progress().done >= before.done,
                "progress never goes back"
            );
        }
    }

    #[test]
    fn the_octane_128gb_keeps_most_of_the_512gbs_data_rate_on_light_desktop_work() {
        // The review's verdict: the 128 GB "does quite well" on the Light suite.
        let ask = ReplayAsk {
            drives: vec![octane(128.0), octane(512.0)],
            workload: "desktop-light".into(),
        };
        let (found, slices) = replay(ask);
        assert!(slices > 100, "{slices} slices: the replay is sliced");
        let (small, big) = (&found.drives[0], &found.drives[1]);
        let share = small.data_rate_mb_s / big.data_rate_mb_s;
        assert!((0.85..0.98).contains(&share), "{share}");
        assert!(small.busy_s > big.busy_s);
        assert_eq!(small.requests, 372_630 + 459_709);
        assert!(small.read.is_some() && small.write.is_some());
    }

    #[test]
    fn a_replay_is_what_the_model_runs_in_one_go() {
        // `lab replay --workload desktop-light` runs the same streams unsliced.
        let ask = ReplayAsk {
            drives: vec![octane(128.0)],
            workload: "desktop-light".into(),
        };
        let run = ReplayRun::start(ask.clone()).unwrap();
        let (prep, n) = run.prepared(&ask.drives[0]).unwrap();
        let mut prep = prep;
        let checked = prep.work_until(&mut || false).unwrap().unwrap().clone();
        let direct = Simulation::run(&checked);
        let (found, _) = replay(ask);
        assert_eq!(found.drives[0], DriveReplay::of(&direct, n));
    }

    #[test]
    fn an_unknown_workload_or_too_many_drives_is_refused_with_the_reason() {
        let bad = ReplayAsk {
            drives: vec![octane(128.0)],
            workload: "desktop-medium".into(),
        };
        let why = ReplayRun::start(bad).err().unwrap();
        assert!(why.contains("desktop-heavy, desktop-light"), "{why}");
        let many = ReplayAsk {
            drives: vec![octane(128.0); 6],
            workload: "desktop-light".into(),
        };
        assert!(ReplayRun::start(many)
            .err()
            .unwrap()
            .contains("1 to 5 drives"));
    }
}
