//! The SSD model of Parallelism Lab: pure Rust, no web dependency, deterministic for a seed.
//!
//! The page (the `parallelism-lab` crate at the repository's root) and the `lab` command line
//! only call this crate; its dependencies are serde and serde_json alone, so nothing but the
//! model's own code can reach the engine, and the compiler keeps the web stack out.
//!
//! Parts, each owning one piece of the drive:
//! - [`config`]: what a run is made of, and the one validation step ([`RunSpec::check`]).
//! - [`presets`]: the controllers and NAND parts the lab knows, each value sourced.
//! - [`workload`]: the streams of requests a run puts on a drive (closed loop, load at a rate,
//!   block-size splits, address ranges) and their validation ([`workload::StreamsSpec::check`]).
//! - [`engine`]: the discrete-event engine (host stack, controller, channels, dies).
//! - [`activity`]: a read-only snapshot of what every part of the drive does at one instant.
//! - [`events`]: the time-ordered event queue with deterministic ties.
//! - [`link`]: host link generations and their rates.
//! - [`ftl`]: garbage collection and write amplification.
//! - [`drive_state`]: the drive over time: SLC cache fill and folding, torture, TRIM.
//! - [`stats`]: latency histogram, utilisation, the limiting resource.
//! - [`power`]: what each resource draws, the power states, the budget and idle states.
//! - [`calibration`]: the published measurements and the model's error against them.
//! - [`fit`]: the parameters a preset marks as fitted, and the search that chooses them.
//! - [`custom`]: a user's own drive (a preset with fitted values, `drive=` in a link), fitted
//!   to their fio jobs.
//! - [`sliced_fit`]: a fit run in slices, so a page never blocks on one.
//! - [`spec_sheet`]: the consumer controllers' spec-sheet peaks and the fresh model against them.
//! - [`prepare`]: a run made ready for the engine in steps, so a page never blocks.
//! - [`review`]: the E12 review's synthetic tests (bursts, sustained depths, mixes) on any drive.
//! - [`sweep`]: runs over queue depth or read share, as the charts and the CLI draw them.
//! - [`names`]: one table of stable names per enum ([`named_enum!`]), for `FromStr` and `Display`.
//! - [`ring`]: the first-in first-out ring the hot queues use.
//! - [`fio`]: fio job files out, fio's JSON output in.
//! - [`time`] and [`rng`]: simulated nanoseconds and the run's one random generator.
#![forbid(unsafe_code)]

pub mod activity;
pub mod calibration;
pub mod config;
pub mod custom;
pub mod drive_state;
pub mod engine;
pub mod events;
pub mod fio;
pub mod fit;
pub mod ftl;
pub mod link;
pub mod names;
pub mod power;
pub mod prepare;
pub mod presets;
pub mod review;
pub mod ring;
pub mod rng;
pub mod sliced_fit;
pub mod spec_sheet;
pub mod stats;
pub mod sweep;
pub mod text;
pub mod time;
pub mod workload;

pub use config::{
    CheckedRun, ConfigError, DriveSpec, DriveState, RunOptions, RunSpec, Rw, Workload,
};
pub use engine::Simulation;
pub use stats::{Bottleneck, RunResult};

/// Check and run one configuration to the end.
pub fn run(spec: RunSpec) -> Result<RunResult, ConfigError> {
    Ok(Simulation::run(&spec.check()?))
}
