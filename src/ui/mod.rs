//! The browser lab: a Leptos client-side app around the model.
//!
//! Pure parts (compiled and tested natively, no web-sys calls): [`state`] (the one
//! [`state::LabState`]), [`url_state`] (its URL serialisation), [`compute`] (which model runs a
//! state needs, and the sliced engine with its cache), [`charts`] (chart data and pure draw
//! functions), [`reference`] (published measurements), [`format`] and [`ladder`].
//! Browser parts: [`App`] (owns the state signal and wires everything), [`runner`] (runs the
//! engine between frames), [`charts::canvas`], [`controls`], [`readout`] and [`notes`].

pub mod charts;
pub mod compare;
pub mod compute;
pub mod controls;
pub mod embed;
pub mod export;
pub mod format;
pub mod ladder;
pub mod notes;
pub mod readout;
pub mod reference;
pub mod runner;
pub mod state;
pub mod url_state;
pub mod views;

mod app;

pub use app::App;
