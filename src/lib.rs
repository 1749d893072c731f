//! Parallelism Lab: a calibrated, event-driven model of how an SSD turns parallel hardware
//! (host link, controller, NAND channels, dies and planes) into performance, and the browser
//! lab that lets a reader move its sliders.
//!
//! - [`model`] is pure Rust with no web dependency: deterministic for a seed, native or wasm.
//! - [`ui`] is the Leptos client-side app; it only calls the model.
//! - [`fio`] turns the lab's workload into a fio job file and fio's JSON output into points,
//!   for the command line and the page alike.
#![forbid(unsafe_code)]

pub mod fio;
pub mod model;
pub mod ui;
