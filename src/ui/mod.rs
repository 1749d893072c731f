//! The browser lab: a Leptos client-side app around the model.
//!
//! # Layers
//!
//! Each folder is a layer; a file imports only files of its own layer or of the layers below it,
//! and no file imports, directly or through others, one that imports it. `tests/layers.rs` reads
//! this list and the sources, and fails on any other import or on a circle.
//!
//! 0. pure: [`pure`], the state, its URL, the runs it needs and the words and figures made from
//!    them; no browser call, tested natively
//! 1. browser: [`browser`], the workers, tasks, storage and the steps of the page's start
//! 2. charts: [`charts`], chart data, pure draw functions, their CSV, and the canvas that shows them
//! 3. controls: [`controls`], the sliders and choices that set the state
//! 4. views: [`views`], the readout, the views, teaching mode and the sharing parts
//! 5. shell: [`App`] (owns the state signal and wires everything: [`Started`] makes the state,
//!    [`AppViews`] mounts the views), [`start`] (the app's start, in steps) and
//!    [`opening_chart`]
//!
//! The page's layer test names the files of the last layer: `app`, `opening_chart`.

// Without the `app` feature the crate is its pure layer alone (what `lab` reads tours and
// links with); every other layer is the browser's.
#[cfg(feature = "app")]
pub mod browser;
#[cfg(feature = "app")]
pub mod charts;
#[cfg(feature = "app")]
pub mod controls;
#[cfg(feature = "app")]
pub mod opening_chart;
pub mod pure;
#[cfg(feature = "app")]
pub mod start;
#[cfg(feature = "app")]
pub mod views;

#[cfg(feature = "app")]
mod app;

#[cfg(feature = "app")]
pub use app::{App, AppViews, Opened, Started};
