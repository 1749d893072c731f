//! A trace replayed on several drives, computed in a worker: what the page asks
//! ([`ReplayAsk`]), the sliced replays that answer it ([`ReplayTask`]), and what crosses back
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

use parallelism_model::config::PowerLimit;
use parallelism_model::config::{ConfigError, RunOptions, RunSpec, Rw, Workload};
use parallelism_model::prepare::{Preparation, WA_WRITES_PER_STEP};
use parallelism_model::sliced::{self, Sliced};
use parallelism_model::stats::{LatencySummary, RunResult};
use parallelism_model::time::Nanos;
use parallelism_model::workload::desktop::Desktop;
use parallelism_model::workload::trace::{Adjusted, Trace, TraceFormat, TraceParser};
use parallelism_model::workload::{Arrival, Stream, StreamsSpec};
use parallelism_model::{DriveState, Simulation};
use serde::{Deserialize, Serialize};

use crate::key::{DriveKey, SEED};
use crate::plan::EVENTS_PER_STEP;
use crate::{Counted, WorkError};

/// The most requests at the device at once during a replay (the rest wait in the host), as
/// `lab replay`'s default.
pub const DEVICE_DEPTH: u32 = 32;
/// The most drives one replay covers (the page's comparison: three capacities, or four pins and
/// the reader's configuration).
pub const MAX_REPLAY_DRIVES: usize = 5;

/// One drive of a replay: the drive and the state it starts in.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    pub source: ReplaySource,
}

/// The workload a replay runs.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ReplaySource {
    /// A generated desktop workload, by its name (`desktop-light`, `desktop-heavy`).
    Desktop(String),
    /// A trace file of the reader's, whose text comes beside the request (it is never in a
    /// message of the protocol). Its name, size and time stamp tell one file from another.
    File {
        name: String,
        bytes: u64,
        modified_ms: u64,
        /// The trace's format when the reader named it; `None` tells it from the text.
        format: Option<String>,
    },
}

/// The largest trace file a replay reads (the page refuses bigger ones before sending them).
pub const MAX_TRACE_FILE_BYTES: u64 = 100 << 20;
/// Lines of a trace file read per step (about a millisecond in a browser).
pub const LINES_PER_STEP: usize = 2_000;

/// One direction's latency as the page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Latency {
    pub mean_us: f64,
    /// The distribution's percentiles: half, nine in ten, 99 and 999 in 1,000 of the requests
    /// took at most this long.
    pub p50_us: f64,
    pub p90_us: f64,
    pub p99_us: f64,
    pub p999_us: f64,
}

impl Latency {
    fn of(l: &LatencySummary) -> Latency {
        Latency {
            mean_us: l.mean_us,
            p50_us: l.p50_us,
            p90_us: l.p90_us,
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
    /// The trace's requests this drive could not take as they are (skipped or wrapped).
    pub adjusted: Adjusted,
    /// Over the trace, [`SERIES_POINTS`] buckets: (start in s, MB/s, mean requests in the
    /// system).
    pub series: Vec<(f64, f64, f64)>,
}

impl DriveReplay {
    fn of(r: &RunResult, tally: Tally) -> DriveReplay {
        DriveReplay {
            data_rate_mb_s: r.busy_mb_s(),
            busy_s: r.busy_ns as f64 / 1e9,
            elapsed_s: r.measured_ns as f64 / 1e9,
            read: r.read_latency.as_ref().map(Latency::of),
            write: r.write_latency.as_ref().map(Latency::of),
            energy_j: r.energy_j(),
            requests: tally.requests,
            adjusted: tally.adjusted,
            series: r
                .series
                .iter()
                .map(|p| (p.start_s, p.mb_s, p.mean_in_system))
                .collect(),
        }
    }
}

/// What a drive's replay reports beside the engine's figures: the trace's requests, and those
/// the drive could not take as they are.
#[derive(Clone, Copy, Debug)]
struct Tally {
    requests: u64,
    adjusted: Adjusted,
}

/// Buckets of a replay's figures over time: enough for a chart's width, few enough to cross
/// to the page in a moment.
pub const SERIES_POINTS: u64 = 150;
/// The shortest bucket (a millisecond: finer shows single requests, not a rate).
const MIN_BUCKET_NS: u64 = 1_000_000;

/// What the worker found: one result per asked drive, in the asked order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayFound {
    pub drives: Vec<DriveReplay>,
}

/// How far a [`ReplayTask`] is: requests replayed of all (over every drive), after the file's
/// bytes read of all while a trace file is still being read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReplayProgress {
    pub done: u64,
    pub total: u64,
    /// A trace file being read: bytes read, and its size.
    pub reading: Option<(u64, u64)>,
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
    /// The run being made ready, its trace's tally and its series' bucket.
    Preparing(Box<Preparation>, Tally, Nanos),
    Running(Box<Simulation>, Tally),
}

/// Where each drive's trace comes from.
enum Source {
    /// Generated for each drive's size.
    Desktop(Desktop),
    /// A file still being read.
    Reading(Box<TraceParser>),
    /// A file read: one trace for every drive (its addresses wrap onto each).
    Read(Arc<Trace>),
}

/// The replays under way.
pub struct ReplayTask {
    ask: ReplayAsk,
    source: Source,
    found: Vec<DriveReplay>,
    current: Option<Current>,
    /// Requests of each drive's trace (the same count on every drive; 0 until a file is read).
    per_drive: u64,
}

impl ReplayTask {
    /// The replays for `ask`, every drive checked before the first starts; `file` is the
    /// text of the trace file a [`ReplaySource::File`] names.
    pub fn start(ask: ReplayAsk, file: Option<String>) -> Result<ReplayTask, WorkError> {
        let (source, per_drive) = match (&ask.source, file) {
            (ReplaySource::Desktop(name), _) => {
                let workload: Desktop = name.parse()?;
                let recipe = workload.recipe();
                (Source::Desktop(workload), recipe.reads + recipe.writes)
            }
            (ReplaySource::File { .. }, None) => return Err(WorkError::FileMissing),
            (ReplaySource::File { format, .. }, Some(text)) => {
                if text.len() as u64 > MAX_TRACE_FILE_BYTES {
                    return Err(WorkError::FileTooLarge {
                        most_mb: MAX_TRACE_FILE_BYTES >> 20,
                    });
                }
                let format = match format {
                    Some(f) => Some(f.parse::<TraceFormat>()?),
                    None => None,
                };
                (Source::Reading(Box::new(TraceParser::new(text, format))), 0)
            }
        };
        if ask.drives.is_empty() || ask.drives.len() > MAX_REPLAY_DRIVES {
            return Err(WorkError::TooMany {
                what: Counted::Drives,
                got: ask.drives.len(),
                most: MAX_REPLAY_DRIVES,
            });
        }
        for d in &ask.drives {
            check_drive(d)?;
        }
        Ok(ReplayTask {
            ask,
            source,
            found: Vec::new(),
            current: None,
            per_drive,
        })
    }

    /// How far the replays are, counted in requests (and in the file's bytes while it is read).
    pub fn counts(&self) -> ReplayProgress {
        let now = match &self.current {
            Some(Current::Running(sim, _)) => sim.activity().completed,
            _ => 0,
        };
        let reading = match &self.source {
            Source::Reading(p) => {
                let (at, len) = p.progress();
                Some((at as u64, len as u64))
            }
            _ => None,
        };
        ReplayProgress {
            done: self.found.len() as u64 * self.per_drive + now,
            total: self.ask.drives.len() as u64 * self.per_drive,
            reading,
        }
    }

    /// The run of the workload on drive `d`, ready to be prepared; none while the file is
    /// still being read (a drive's run needs the whole trace).
    fn prepared(
        &self,
        d: &ReplayDrive,
    ) -> Result<Option<(Preparation, Tally, Nanos)>, ConfigError> {
        let drive = d.drive.spec();
        let trace = match &self.source {
            Source::Desktop(w) => Arc::new(w.trace(drive.user_bytes() as u64, 1.0, SEED)),
            Source::Read(t) => Arc::clone(t),
            Source::Reading(_) => return Ok(None),
        };
        let tally = Tally {
            requests: trace.requests.len() as u64,
            adjusted: trace.adjusted(drive.user_bytes() as u64),
        };
        let bucket = Nanos((trace.span_ns() / SERIES_POINTS).max(MIN_BUCKET_NS));
        // A trace without times (a version 2 iolog without waits) runs as fast as the drive
        // allows, at the same depth.
        let arrival = if trace.timed {
            Arrival::Timed {
                speed: 1.0,
                max_idle: None,
                iodepth: DEVICE_DEPTH,
            }
        } else {
            Arrival::Closed {
                iodepth: DEVICE_DEPTH,
            }
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
        Ok(Some((Preparation::checked(run)?, tally, bucket)))
    }

    /// One step: read up to [`LINES_PER_STEP`] lines of the file, start the next drive's run,
    /// or one preparation or engine step of the run under way; what was found once every drive
    /// is done, or why a replay failed.
    fn advance(&mut self) -> Result<Option<ReplayFound>, WorkError> {
        if let Source::Reading(parser) = &mut self.source {
            if let Some(trace) = parser.step(LINES_PER_STEP).transpose()? {
                self.per_drive = trace.requests.len() as u64;
                self.source = Source::Read(Arc::new(trace));
            }
            return Ok(None);
        }
        if self.found.len() == self.ask.drives.len() {
            return Ok(Some(ReplayFound {
                drives: self.found.clone(),
            }));
        }
        self.current = match self.current.take() {
            None => {
                let d = self.ask.drives[self.found.len()].clone();
                self.prepared(&d)?
                    .map(|(prep, n, bucket)| Current::Preparing(Box::new(prep), n, bucket))
            }
            Some(Current::Preparing(mut prep, n, bucket)) => {
                match prep.step(WA_WRITES_PER_STEP)? {
                    Some(run) => {
                        let mut sim = Simulation::new(&run);
                        sim.record_series(bucket);
                        Some(Current::Running(Box::new(sim), n))
                    }
                    None => Some(Current::Preparing(prep, n, bucket)),
                }
            }
            Some(Current::Running(mut sim, n)) => {
                if sim.step(EVENTS_PER_STEP) {
                    self.found.push(DriveReplay::of(&sim.result()?, n));
                    None
                } else {
                    Some(Current::Running(sim, n))
                }
            }
        };
        // The last drive's end is the replay's end, in the same step.
        let done = self.current.is_none() && self.found.len() == self.ask.drives.len();
        Ok(done.then(|| ReplayFound {
            drives: self.found.clone(),
        }))
    }
}

/// Its unit is one step: a part of the file read, starting a drive's run, one preparation step
/// or one engine step of [`EVENTS_PER_STEP`] events; the output is every drive's replay.
impl Sliced for ReplayTask {
    type Output = ReplayFound;
    type Error = WorkError;

    fn step(&mut self, budget: usize) -> Result<Option<ReplayFound>, WorkError> {
        sliced::steps(budget, || self.advance())
    }

    fn progress(&self) -> f64 {
        let c = self.counts();
        match c.reading {
            Some(_) => 0.0,
            None => c.done as f64 / c.total.max(1) as f64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::DriveChoice;
    use parallelism_model::presets::{self, PresetRef};

    fn octane(capacity_gb: f64) -> ReplayDrive {
        let preset = presets::find("octane").unwrap();
        ReplayDrive {
            drive: DriveKey {
                preset: PresetRef::from(preset),
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
        let mut run = ReplayTask::start(ask, None).unwrap();
        let mut slices = 0;
        loop {
            slices += 1;
            let before = run.counts();
            if let Some(found) = run.step(1).transpose() {
                return (found.unwrap(), slices);
            }
            assert!(run.counts().done >= before.done, "progress never goes back");
        }
    }

    #[test]
    fn the_octane_128gb_keeps_most_of_the_512gbs_data_rate_on_light_desktop_work() {
        // The review's verdict: the 128 GB "does quite well" on the Light suite.
        let ask = ReplayAsk {
            drives: vec![octane(128.0), octane(512.0)],
            source: ReplaySource::Desktop("desktop-light".into()),
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
            source: ReplaySource::Desktop("desktop-light".into()),
        };
        let run = ReplayTask::start(ask.clone(), None).unwrap();
        let (prep, n, bucket) = run.prepared(&ask.drives[0]).unwrap().unwrap();
        let checked = prep.finish().unwrap();
        let mut direct = Simulation::new(&checked);
        direct.record_series(bucket);
        while !direct.step(u64::MAX) {}
        let (found, _) = replay(ask);
        assert_eq!(
            found.drives[0],
            DriveReplay::of(&direct.result().unwrap(), n)
        );
        // The figures over time cover the trace in about SERIES_POINTS buckets.
        let points = found.drives[0].series.len() as u64;
        assert!(
            (SERIES_POINTS - 2..=SERIES_POINTS + 2).contains(&points),
            "{points}"
        );
    }

    fn file(name: &str) -> ReplaySource {
        ReplaySource::File {
            name: name.into(),
            bytes: 0,
            modified_ms: 0,
            format: None,
        }
    }

    #[test]
    fn a_trace_file_is_read_in_slices_then_replayed_on_each_drive() {
        // 2,000 timed 4 KiB writes, one every 100 µs (MQSim: time ns, device, lba, sectors, type).
        let text: String = (0..2_000)
            .map(|i| format!("{} 1 {} 8 0\n", i * 100_000, i * 8))
            .collect();
        let ask = ReplayAsk {
            drives: vec![octane(128.0), octane(512.0)],
            source: file("writes.trace"),
        };
        let mut run = ReplayTask::start(ask, Some(text)).unwrap();
        let mut read_steps = 0;
        let found = loop {
            if run.counts().reading.is_some() {
                read_steps += 1;
            }
            if let Some(f) = run.step(1).transpose() {
                break f.unwrap();
            }
        };
        assert!(read_steps > 0, "the file is read in slices first");
        assert_eq!(found.drives.len(), 2);
        for d in &found.drives {
            assert_eq!(d.requests, 2_000);
            assert!(d.read.is_none() && d.write.is_some());
            // 0.2 s of trace: the drive keeps up, so the replay lasts as long as the trace.
            assert!((d.elapsed_s - 0.2).abs() < 0.01, "{}", d.elapsed_s);
        }
    }

    #[test]
    fn a_malformed_file_is_refused_with_its_line_numbers_and_a_missing_one_says_so() {
        let ask = ReplayAsk {
            drives: vec![octane(128.0)],
            source: file("bad.trace"),
        };
        let text = "0 1 0 8 1\n5 1 x 8 1\n6 1 0 8 7\n".to_string();
        let mut run = ReplayTask::start(ask.clone(), Some(text)).unwrap();
        let why = loop {
            if let Some(f) = run.step(1).transpose() {
                break f.unwrap_err();
            }
        };
        let WorkError::File(problems) = &why else {
            panic!("a file's problems, by line: {why:?}");
        };
        let lines: Vec<usize> = problems.problems.iter().map(|(line, _)| *line).collect();
        assert_eq!(lines, [2, 3], "{why}");
        let missing = ReplayTask::start(ask, None).err().unwrap();
        assert_eq!(missing, WorkError::FileMissing);
        assert!(missing.to_string().contains("choose it again"), "{missing}");
    }

    #[test]
    fn an_unknown_workload_or_too_many_drives_is_refused_with_the_reason() {
        let bad = ReplayAsk {
            drives: vec![octane(128.0)],
            source: ReplaySource::Desktop("desktop-medium".into()),
        };
        let why = ReplayTask::start(bad, None).err().unwrap();
        assert!(
            matches!(&why, WorkError::Refused(ConfigError::Unknown { value, .. }) if value == "desktop-medium"),
            "{why:?}"
        );
        assert!(
            why.to_string().contains("desktop-heavy, desktop-light"),
            "{why}"
        );
        let many = ReplayAsk {
            drives: vec![octane(128.0); 6],
            source: ReplaySource::Desktop("desktop-light".into()),
        };
        assert_eq!(
            ReplayTask::start(many, None).err(),
            Some(WorkError::TooMany {
                what: Counted::Drives,
                got: 6,
                most: MAX_REPLAY_DRIVES
            })
        );
    }
}
