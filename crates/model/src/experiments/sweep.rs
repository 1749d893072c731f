//! Runs over one axis (queue depth, read share or offered load) with everything else fixed:
//! what the charts and `lab sweep` draw. Each point is an independent, checked run with the
//! same seed.

use serde::Serialize;

use crate::config::PowerLimit;
use crate::config::{ConfigError, DriveSpec, DriveState, RunOptions, RunSpec, Rw, Workload};
use crate::run::{CheckedRun, RunError};
use crate::stats::RunResult;
use crate::workload::{Spacing, Stream, StreamsSpec};
use crate::Simulation;

/// The queue depths reviewers sweep: 1, 2, 4, ..., 256.
pub const REVIEW_IODEPTHS: [u32; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];
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

/// `workload` at each queue depth in `iodepths`.
pub fn over_queue_depth(
    drive: &DriveSpec,
    workload: Workload,
    state: DriveState,
    options: RunOptions,
    power: Option<PowerLimit>,
    iodepths: &[u32],
) -> Result<Vec<SweepPoint>, RunError> {
    iodepths
        .iter()
        .map(|&iodepth| {
            let w = Workload {
                iodepth,
                ..workload
            };
            let run = checked(spec(drive, w, state, options), power)?;
            Ok(SweepPoint {
                iodepth,
                read_percent: w.read_percent(),
                result: Simulation::run(&run)?,
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
) -> Result<Vec<SweepPoint>, RunError> {
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
                result: Simulation::run(&run)?,
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
) -> Result<Vec<LoadPoint>, RunError> {
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
                result: Simulation::run(&run)?,
            })
        })
        .collect()
}

/// What [`knee`] reads of one point of a sweep over offered load.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoadSample {
    pub offered_iops: f64,
    /// What the drive completed, in I/Os per second.
    pub carried_iops: f64,
    pub mean_latency_us: f64,
    /// The host's backlog grew without bound: past the drive's capacity.
    pub saturated: bool,
}

impl From<&LoadPoint> for LoadSample {
    fn from(p: &LoadPoint) -> LoadSample {
        LoadSample {
            offered_iops: p.offered_iops,
            carried_iops: p.result.iops,
            mean_latency_us: p.result.latency.mean_us,
            saturated: p.result.saturated,
        }
    }
}

/// The knee of a curve of latency against offered load: the offered load at which
/// Kleinrock's *power*, carried throughput divided by mean latency, peaks (L. Kleinrock,
/// "Power and deterministic rules of thumb for probabilistic problems in computer
/// communications", ICC 1979). Below it more load buys throughput at little cost in latency;
/// past it each extra request mostly waits. For one server with Poisson arrivals (M/M/1) it lies
/// at half the capacity, where latency is twice the service time; a drive with many dies
/// serving at once keeps latency flat longer, so its knee lies nearer its capacity.
///
/// `samples` are sorted by offered load; saturated points are left out. The peak is refined
/// by the parabola through it and its two neighbours on log-log axes (so a sweep with a few
/// points per decade still places the knee between them). `None` when fewer than three points
/// are unsaturated, when power falls from the first point on, or when it still rises at the
/// last point and no saturated point follows (the sweep stopped short of the knee). When power
/// rises right up to saturation (evenly spaced arrivals on a wide drive), the knee is the last
/// unsaturated point.
///
/// ```
/// use parallelism_model::sweep::{knee, LoadSample};
/// // M/M/1 with a 100 µs service time: latency 1 / (mu - lambda), capacity 10,000 IOPS.
/// let samples: Vec<LoadSample> = [1000.0, 2000.0, 3000.0, 4000.0, 5000.0, 6000.0, 7000.0, 8000.0]
///     .iter()
///     .map(|&l| LoadSample {
///         offered_iops: l,
///         carried_iops: l,
///         mean_latency_us: 1e6 / (10_000.0 - l),
///         saturated: false,
///     })
///     .collect();
/// let k = knee(&samples).unwrap();
/// assert!((k - 5000.0).abs() < 250.0, "M/M/1's knee is at half the capacity, not {k}");
/// ```
pub fn knee(samples: &[LoadSample]) -> Option<f64> {
    let ok: Vec<(f64, f64)> = samples
        .iter()
        .filter(|s| {
            !s.saturated
                && s.offered_iops > 0.0
                && s.carried_iops > 0.0
                && s.mean_latency_us > 0.0
                && s.mean_latency_us.is_finite()
        })
        .map(|s| {
            (
                s.offered_iops.ln(),
                (s.carried_iops / s.mean_latency_us).ln(),
            )
        })
        .collect();
    if ok.len() < 3 {
        return None;
    }
    let peak = (0..ok.len()).fold(0, |best, i| if ok[i].1 > ok[best].1 { i } else { best });
    if peak == 0 {
        return None;
    }
    if peak == ok.len() - 1 {
        let saturates = samples.iter().any(|s| s.saturated);
        return saturates.then(|| ok[peak].0.exp());
    }
    let [(x0, y0), (x1, y1), (x2, y2)] = [ok[peak - 1], ok[peak], ok[peak + 1]];
    // The vertex of the parabola through three points (Lagrange form, unequal spacing).
    let num = (x1 - x0).powi(2) * (y1 - y2) - (x1 - x2).powi(2) * (y1 - y0);
    let den = (x1 - x0) * (y1 - y2) - (x1 - x2) * (y1 - y0);
    let x = if den.abs() > f64::EPSILON {
        (x1 - 0.5 * num / den).clamp(x0, x2)
    } else {
        x1
    };
    Some(x.exp())
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
