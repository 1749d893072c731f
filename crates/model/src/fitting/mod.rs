//! Layer 6, fitting: choosing the values no spec sheet gives, against measurements.
//!
//! What it owns: the search that chooses a preset's fitted values, and leave-one-out
//! ([`fit`]); the same fit in slices, for a page that must not block ([`sliced_fit`]); and a
//! reader's own drive, a preset with the values a fit to their fio results found, carried in a
//! link ([`custom`]).
//!
//! What always holds: a fitted value is what the search finds on its reference data, never a
//! hand-tuned one; a fit in slices reports exactly what the fit in one go reports.
//!
//! Why: fitting runs the published data's procedures many times over, so it sits above them,
//! and below the judgement that scores the fitted presets.

pub mod custom;
pub mod fit;
pub mod sliced_fit;
