//! Parallelism Lab: a calibrated, event-driven model of how an SSD turns parallel hardware
//! (host link, controller, NAND channels, dies and planes) into performance, and the browser
//! lab that lets a reader move its sliders.
//!
//! - [`model`] is the `parallelism-model` crate (`crates/model`): pure Rust with no web
//!   dependency, deterministic for a seed, native or wasm; its [`fio`] module turns the lab's
//!   workload into a fio job file and fio's JSON output into points.
//! - [`ui`] is the Leptos client-side app; it only calls the model.
#![forbid(unsafe_code)]

pub use parallelism_model as model;
pub use parallelism_model::fio;
pub mod ui;
