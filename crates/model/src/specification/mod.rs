//! Layer 1, specification: what a drive and a run are made of ([`config`]).
//!
//! What it owns: the plain types every layer above describes a drive and a run with (the
//! controller, the NAND part, the power tables, the fitted parameters' declarations, the
//! workload, the run's options) and the checks each input passes, with the [`ConfigError`]
//! that says which input is wrong and why.
//!
//! What always holds: it imports only the foundations (time, the host link, the names of
//! enums); every preset, slider, URL and command-line value passes
//! [`RunSpec::check`](config::RunSpec::check) before the engine sees it.
//!
//! Why: one vocabulary at the bottom means the page, `lab` and the engine describe a drive the
//! same way, and any part may use it without an import circle.
//!
//! [`ConfigError`]: config::ConfigError

pub mod config;
