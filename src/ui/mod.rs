//! The browser lab: a Leptos client-side app around the model.
//!
//! Pure parts (compiled and tested natively, no web-sys calls): [`state`] (the one
//! [`state::LabState`]), [`url_state`] (its URL serialisation), [`compute`] (which model runs a
//! state needs), [`charts`] (chart data and pure draw functions), [`reference`](mod@reference)
//! (published measurements), [`teaching`] (teaching mode's bottleneck explainer, power meter and
//! tours), [`embed`], [`compare`] and [`export`] (embed options, pinned configurations, CSV),
//! [`format`](mod@format), [`ladder`] and [`views::time_model`] (the drive-over-time view's
//! chart data).
//! Browser parts: [`App`] (owns the state signal and wires everything: [`Started`] makes the
//! state, [`AppViews`] mounts the views), [`staging`] (the page's views mounted in steps
//! behind the opening chart), [`input`] (the task that handles the reader's input), [`later`]
//! (the parts below the first screen, mounted after it), [`pool`] (the Web Workers that run
//! every model computation the page shows, off the thread that draws), [`charts::canvas`],
//! [`resize`] (an element's box, followed), [`tasks`] (a task of its own, without a timer's
//! wait), [`controls`], [`readout`], [`notes`], [`views`]
//! (the view switch, the drive-over-time view, teaching mode and the sharing parts) and
//! [`crash`] (the screen a panic leaves instead of a dead page).

pub mod charts;
pub mod compare;
pub mod compute;
pub mod controls;
pub mod crash;
pub mod embed;
pub mod export;
pub mod format;
pub mod input;
pub mod ladder;
pub mod later;
pub mod load;
pub mod notes;
pub mod opening_chart;
pub mod pool;
pub mod readout;
pub mod reference;
pub mod resize;
pub mod snippet;
pub mod staging;
pub mod state;
pub mod storage;
pub mod tasks;
pub mod teaching;
pub mod url_state;
pub mod views;

mod app;

pub use app::{App, AppViews, Started};
