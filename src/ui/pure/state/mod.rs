//! The lab's state: everything the reader (or the page's author) has set, in parts with one
//! job each. It is the lab's single source of truth: the controls write it, the URL is
//! serialised from it, and the charts, the readout and the model runs are derived from it.
//!
//! - [`DriveSetup`] ([`drive`]): the preset and the drive behind it, and what stays fixed;
//!   the preset may be a drive of the reader's own ([`custom`]).
//! - [`WorkloadSetup`] ([`workload`]): a queue depth or a rate, pattern, read share, block
//!   size, drive state.
//! - [`Display`] ([`display`]): the view and the colour scheme.
//! - [`Embedding`] ([`embedding`]): what the author of an embedding page set.
//! - [`ViewSettings`] ([`views`]): what each view sets for itself.
//! - [`Pins`] ([`pins`]): the configurations kept as curves.
//! - [`Imports`] ([`imported`]): the reader's imported fio results, up to four files.
//!
//! [`LabState`] holds one of each, as plain values: the URL's parser and writer, the pure
//! presentation and the tests work on it. In the page, [`Lab`] ([`lab`]) holds each part in its
//! own signal, shared through Leptos context, so a component follows only the parts it reads
//! and a change of colours never rebuilds a chart.
//!
//! What always holds: each part keeps its own rules (its fields are private, or any value of
//! them is valid), so every `LabState` is one the controls could reach and every run it asks
//! for passes the model's checks. No rule spans two parts.

pub mod custom;
pub mod display;
pub mod drive;
pub mod embedding;
pub mod imported;
pub mod jobs;
#[cfg(feature = "app")]
pub mod lab;
pub mod lab_state;
pub mod ladders;
pub mod pins;
pub mod views;
pub mod workload;

pub use display::{Display, Theme, View};
pub use drive::{DriveChoice, DriveRefused, DriveSetup, Hold, DEFAULT_PRESET, DIE_DENSITIES_GBIT};
pub use embedding::Embedding;
pub use imported::{
    FioFile, ImportRefused, Imports, MoveTo, YourDrive, FIO_MIX_TOLERANCE_PCT, MAX_FILES,
    MAX_IMPORTS,
};
pub use jobs::{JobRefused, JobSetup, Jobs, MAX_JOBS};
#[cfg(feature = "app")]
pub use lab::Lab;
pub use lab_state::LabState;
pub use ladders::{
    block_size_ladder, iodepth_ladder, is_sweep_rate, rate_ladder, read_share_ladder,
    ALL_READS_PCT, BLOCK_SIZES, DEFAULT_BS_BYTES, DEFAULT_IODEPTH, DEFAULT_RATE_IOPS,
    DEFAULT_READ_PCT, RATE_RANGE_IOPS, READ_SHARE_STEP,
};
pub use pins::{Pin, PinRefused, Pins, MAX_PINS};
pub use views::{
    burst_ladder, idle_ladder, speed_ladder, think_ladder, ViewSettings, BURST_SIZES_GB,
    DEFAULT_BURST_GB, DEFAULT_IDLE_S, DEFAULT_SPEED_US_PER_S, IDLE_STEPS_S, SPEEDS_US_PER_S,
    THINK_STEPS_US,
};
pub use workload::{
    LoadKind, TraceSource, WorkloadSetup, DEFAULT_DRIVE_STATE, DEFAULT_SPACING, DEFAULT_TRACE,
    THROUGHPUT_IN_MB_FROM_BYTES,
};
