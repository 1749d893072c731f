//! Parallelism Lab: a calibrated, event-driven model of how an SSD turns parallel hardware
//! (host link, controller, NAND channels, dies and planes) into performance, and the browser
//! lab that lets a reader move its sliders.
//!
//! - [`model`] is pure Rust with no web dependency: deterministic for a seed, native or wasm.
//! - [`ui`] is the Leptos client-side app; it only calls the model.
#![forbid(unsafe_code)]

pub mod model;
pub mod ui;
