//! Layer 5, published: the drives the lab knows and the measurements published about them.
//!
//! What it owns: the presets, each controller and NAND part with every value sourced or marked
//! as an assumption ([`presets`]); the published E18DC measurements, embedded verbatim from
//! `data/`, and the model's error against them ([`calibration`]); the consumer controllers'
//! spec-sheet peaks and the fresh model against them ([`spec_sheet`]).
//!
//! What always holds: published data exists in exactly one place (the page, `lab` and the
//! tests all parse the same embedded file), and the model's value for a measurement comes from
//! the experiments below, run as the source describes.
//!
//! Why: the presets and the figures that judge them belong together, above the experiments
//! that reproduce the figures and below the fitting that chooses the presets' fitted values.

pub mod calibration;
pub mod presets;
pub mod spec_sheet;
