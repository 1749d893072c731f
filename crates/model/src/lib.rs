//! The SSD model of Parallelism Lab: pure Rust, no web dependency, deterministic for a seed.
//!
//! The page (the `parallelism-lab` crate at the repository's root) and the `lab` command line
//! only call this crate; its dependencies are serde and serde_json alone, so nothing but the
//! model's own code can reach the engine, and the compiler keeps the web stack out.
//!
//! # A first run
//!
//! A preset's drive at one capacity, a workload in fio's terms, checked once, then run:
//!
//! ```
//! use parallelism_model::{presets, DriveState, RunOptions, RunSpec, Rw, Workload};
//!
//! let drive = presets::find("e18dc").unwrap().drive_with_dies(8)?;
//! let workload = Workload { rw: Rw::RandRead, rwmixread: 100, bs_bytes: 4096, iodepth: 1 };
//! let spec = RunSpec { drive, workload, state: DriveState::Fob, options: RunOptions::default() };
//! let result = parallelism_model::run(spec)?;
//! // One read at a time: IOPS is one over the latency (Little's law with L = 1).
//! let mean_s = result.latency.mean_us * 1e-6;
//! assert!((result.iops * mean_s - 1.0).abs() < 0.01);
//! # Ok::<(), parallelism_model::RunError>(())
//! ```
//!
//! A bad input never reaches the engine; the error says which input and why:
//!
//! ```
//! use parallelism_model::{presets, ConfigError};
//!
//! let err = presets::find("e18dc").unwrap().drive_with_dies(0).unwrap_err();
//! assert!(matches!(&err, ConfigError::OutOfRange { what, .. } if what == "dies"));
//! assert_eq!(err.to_string(), "dies 0 is out of range (allowed: 1..=256)");
//! ```
//!
//! # Layers
//!
//! The crate's folders are its layers, bottom up, and each layer's module says what it owns,
//! what always holds in it and why. A module imports only modules of the layers below it, or
//! those listed before it in its own layer; `tests/layers.rs` reads this list, the folders and
//! the sources, and fails on a module outside its layer's folder or on any other import, so
//! there is no import circle. The root re-exports every module under its own name
//! (`parallelism_model::stats` is [`parts::stats`]): callers name modules, never layers.
//! Modules in `code` without a link are the crate's internals, and inside the public modules
//! every item that only the model uses is `pub(crate)`, so the compiler names whatever nothing
//! uses any more.
//!
//! 0. [`foundations`]: [`time`], [`rng`], `ring`, [`text`], `names`, [`link`], `events`, [`sliced`]
//! 1. [`specification`], what a drive and a run are: [`config`]
//! 2. [`parts`]: [`activity`], [`anatomy`], [`stats`], [`ftl`], [`workload`], [`power`]
//! 3. [`simulation`], checked runs and the engine: [`run`](mod@run), `engine`, [`prepare`]
//! 4. [`experiments`], runs of the engine: [`sweep`], [`fio`], [`over_time`], [`review`]
//! 5. [`published`], presets and what is published: [`presets`], [`calibration`], [`spec_sheet`]
//! 6. [`fitting`]: [`fit`], [`sliced_fit`], [`custom`]
//! 7. [`judgement`], the model scored: [`scorecard`]
//!
//! # The public face
//!
//! - [`time`]: [`Nanos`](time::Nanos) and [`SimTime`](time::SimTime), simulated nanoseconds.
//! - [`rng`]: [`Rng`](rng::Rng), the run's one seeded generator.
//! - [`text`]: a file's bytes as text (UTF-8 or UTF-16); a figure's digits grouped, a share as
//!   a percentage.
//! - [`link`]: [`HostLink`](link::HostLink), host link generations and their rates.
//! - [`sliced`]: [`Sliced`](sliced::Sliced), one shape for work done in slices.
//! - [`config`]: what a drive and a run are made of: [`DriveSpec`], [`NandSpec`](config::NandSpec),
//!   [`ControllerSpec`](config::ControllerSpec), the power tables, [`Param`](config::Param) and
//!   [`Fitted`](config::Fitted), [`SpecPeaks`](config::SpecPeaks), [`Rw`], [`DriveState`],
//!   [`Workload`], [`RunOptions`], [`RunSpec`], [`ConfigError`], block sizes in fio's spelling.
//! - [`activity`]: a read-only snapshot of what every part of the drive does at one instant.
//! - [`stats`]: [`RunResult`], latency summaries, utilisation, the [`Bottleneck`].
//! - [`ftl`]: garbage collection and write amplification, computed at once or in slices.
//! - [`workload`]: streams of requests (closed loop, load at a rate, block-size splits, address
//!   ranges), fio job files, block traces and the desktop workloads.
//! - [`power`]: what each part draws, power states, budgets, idle states, per watt.
//! - [`run`](mod@run): [`CheckedRun`], the only thing the engine runs, and the power budget it keeps.
//! - [`Simulation`]: the discrete-event engine (host stack, controller, channels, dies), run to
//!   the end or stepped.
//! - [`prepare`]: a run made ready for the engine in steps, so a page never blocks.
//! - [`sweep`]: runs over queue depth or read share, as the charts and `lab` draw them.
//! - [`fio`]: fio's output read (normal, terse, JSON) and written.
//! - [`over_time`]: the drive over time: SLC cache fill and folding, torture, TRIM.
//! - [`review`]: the E12 review's synthetic tests (bursts, sustained depths, mixes) on any drive.
//! - [`presets`]: the controllers and NAND parts the lab knows, each value sourced.
//! - [`calibration`]: the published measurements and the model's error against them.
//! - [`spec_sheet`]: the consumer controllers' spec-sheet peaks and the fresh model against them.
//! - [`fit`]: the search that chooses a preset's fitted values, and leave-one-out.
//! - [`sliced_fit`]: a fit run in slices, so a page never blocks on one.
//! - [`scorecard`]: every published figure, the procedure that reproduces it and its band; the
//!   model scored against all of them, and each assumption's effect on each figure.
//! - [`custom`]: a reader's own drive (a preset with fitted values, `drive=` in a link), fitted
//!   to their fio results.
//! - [`named_enum!`]: one table of stable names per enum, for `FromStr` and `Display`.
//! - [`run()`](fn@run): check and run one configuration.
#![forbid(unsafe_code)]

// The layers, bottom up, one declaration apart from the next so that they keep this order.
pub mod foundations;

pub mod specification;

pub mod parts;

pub mod simulation;

pub mod experiments;

pub mod published;

pub mod fitting;

pub mod judgement;

// Every public module under its own name, where it stood before the layers had folders.
pub use experiments::{fio, over_time, review, sweep};
pub use fitting::{custom, fit, sliced_fit};
pub use foundations::{link, rng, sliced, text, time};
pub use judgement::scorecard;
pub use parts::{activity, anatomy, ftl, power, stats, workload};
pub use published::{calibration, presets, spec_sheet};
pub use simulation::{prepare, run};
pub use specification::config;

pub use config::{ConfigError, DriveSpec, DriveState, RunOptions, RunSpec, Rw, Workload};
pub use run::{CheckedRun, RunError, Stalled};
pub use simulation::engine::Simulation;
pub use stats::{Bottleneck, RunResult};

/// Check and run one configuration to the end.
pub fn run(spec: RunSpec) -> Result<RunResult, RunError> {
    Simulation::run(&spec.check()?)
}
