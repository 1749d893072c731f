//! Layer 4, experiments: what people run on a drive and how they report it, made of runs of
//! the engine.
//!
//! What it owns: runs over one axis, queue depth, read share or offered load ([`sweep`]);
//! fio's output read in every form it takes, and the lab's runs written as fio job files and
//! fio's reports ([`fio`]); the drive over time, its SLC cache filling and folding, torture
//! and TRIM ([`over_time`]); and the E12 review's synthetic tests on any drive ([`review`]).
//!
//! What always holds: every rate an experiment reports comes from the engine on the same drive
//! (none invents a rate of its own); whatever must not block a page also comes in slices, with
//! the output of the same work in one go; a file read here (fio's output) gives points or an
//! error that says where, never a panic.
//!
//! Why: the charts, `lab` and the published data's procedures run the same experiments, so a
//! figure the page draws is the figure the command line prints and the scorecard judges.

pub mod fio;
pub mod over_time;
pub mod review;
pub mod sweep;
