//! Runs over one axis (queue depth, read share or offered load) with everything else fixed:
//! what the charts and `lab sweep` draw. Each point is an independent, checked run with the
//! same seed.

use serde::Serialize;

use super::config::{
    CheckedRun, ConfigError, DriveSpec, DriveState, RunOptions, RunSpec, Rw, Workload,
};
use super::engine::Simulation;
use super::power::PowerLimit;
use super::stats::RunResult;
use super::workload::{Spacing, Stream, StreamsSpec};

/// The queue depths reviewers sweep: 1, 2, 4, ..., 256.
pub const REVIEW_QDS: [u32; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];
/// Read shares of a mixed sweep: 0, 10, ..., 100 %.
pub const MIX_STEPS: [u8; 11] = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100];

/// One point of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepPoint {
    pub iodepth: u32,
    pub read_percent: u8,
    pub result: RunResult,
}

/// Check one run of `drive` with `workload`.
pub fn spec(
    drive: &DriveSpec,
    workload: Workload,
    state: DriveState,
    options: RunOptions,
) -> RunSpec {
    RunSpec {
        drive: drive.clone(),
        workload,
        state,
        options,
    }
}

/// `workload` at each queue depth in `qds`.
pub fn over_queue_depth(
    drive: &DriveSpec,
    workload: Workload,
    state: DriveState,
    options: RunOptions,
    power: Option<PowerLimit>,
    qds: &[u32],
) -> Result<Vec<SweepPoint>, ConfigError> {
    qds.iter()
        .map(|&iodepth| {
            let w = Workload {
                iodepth,
                ..workload
            };
            let run = checked(spec(drive, w, state, options), power)?;
            Ok(SweepPoint {
                iodepth,
                read_percent: w.read_percent(),
                result: Simulation::run(&run),
            })
        })
        .collect()
}

/// `workload` at each read share in `mixes` (random or sequential as `workload.rw` is).
pub fn over_read_share(
    drive: &DriveSpec,
    workload: Workload,
    state: DriveState,
    options: RunOptions,
    power: Option<PowerLimit>,
    mixes: &[u8],
) -> Result<Vec<SweepPoint>, ConfigError> {
    mixes
        .iter()
        .map(|&pct| {
            let w = Workload {
                rw: Rw::from_parts(workload.rw.is_random(), pct),
                rwmixread: pct,
                ..workload
            };
            let run = checked(spec(drive, w, state, options), power)?;
            Ok(SweepPoint {
                iodepth: w.iodepth,
                read_percent: pct,
                result: Simulation::run(&run),
            })
        })
        .collect()
}

/// One point of a sweep over offered load.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LoadPoint {
    /// The rate the requests arrived at, in I/Os per second.
    pub offered_iops: f64,
    /// The most requests at the device at once (more wait in the host).
    pub iodepth: u32,
    pub read_percent: u8,
    pub result: RunResult,
}

/// `workload` arriving at each rate in `rates` (open loop, spaced as `spacing` says), with at
/// most `workload.iodepth` at the device: latency against offered load, the knee and past it.
///
/// ```
/// use parallelism_model::{presets, sweep, workload::Spacing};
/// use parallelism_model::{DriveState, RunOptions, Rw, Workload};
/// let drive = presets::find("e18dc").unwrap().drive_with_dies(8).unwrap();
/// let w = Workload { rw: Rw::RandRead, rwmixread: 100, bs_bytes: 4096, iodepth: 64 };
/// let options = RunOptions { measured_ios: 2_000, ..RunOptions::default() };
/// let points = sweep::over_offered_load(
///     &drive, w, DriveState::SeqFilled, options, None, &[10_000.0, 1e7], Spacing::Poisson,
/// ).unwrap();
/// assert!(!points[0].result.saturated, "10k IOPS is far below what 8 dies serve");
/// assert!(points[1].result.saturated, "10M IOPS is far above it");
/// ```
pub fn over_offered_load(
    drive: &DriveSpec,
    workload: Workload,
    state: DriveState,
    options: RunOptions,
    power: Option<PowerLimit>,
    rates: &[f64],
    spacing: Spacing,
) -> Result<Vec<LoadPoint>, ConfigError> {
    rates
        .iter()
        .map(|&iops| {
            let spec = StreamsSpec {
                drive: drive.clone(),
                streams: vec![Stream::at_rate(&workload, iops, spacing)],
                state,
                options,
            };
            let run = limited(spec.check()?, power)?;
            Ok(LoadPoint {
                offered_iops: iops,
                iodepth: workload.iodepth,
                read_percent: workload.read_percent(),
                result: Simulation::run(&run),
            })
        })
        .collect()
}

/// `spec` checked, and kept within `power` when given.
fn checked(spec: RunSpec, power: Option<PowerLimit>) -> Result<CheckedRun, ConfigError> {
    limited(spec.check()?, power)
}

/// `run` kept within `power` when given.
fn limited(run: CheckedRun, power: Option<PowerLimit>) -> Result<CheckedRun, ConfigError> {
    match power {
        Some(limit) => run.with_power_limit(limit),
        None => Ok(run),
    }
}
