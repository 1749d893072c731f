//! The page's pure parts: what the lab shows, computed from its state and the model's results,
//! with no call into the browser. Each compiles and is tested natively, and no file here names
//! `web_sys`, `js_sys`, `wasm_bindgen` or `gloo` (`tests/layers.rs` checks), so the page's logic
//! is tested without one. It is also the whole crate without its `app` feature: the command
//! line (`lab quiz`, `lab tour check`) reads tours and links with it, as the page does; only
//! [`state::Lab`], the state's parts as Leptos signals, is the app's.
//!
//! - [`state`]: the one [`state::LabState`], in parts, and [`state::Lab`] (its parts as signals).
//! - [`url_state`]: the state written to and read from a link.
//! - [`compute`]: which model runs a state needs, their keys and the points they give.
//! - [`anatomy`]: where a point's time goes, as bars, colours and words.
//! - [`load`]: a sweep over offered load read as capacity and knee; [`measure`]: what a
//!   throughput figure counts and what a chart plots.
//! - [`reference`](mod@reference): the published measurements the charts mark.
//! - [`teaching`]: teaching mode's bottleneck explainer, power meter and tours; [`journey`]:
//!   the request it follows; [`tour_file`]: the tour file's format, read and checked;
//!   [`predict`]: a question step's choice or drawn guess, a class's tally, and whether the
//!   answer shows;
//!   [`worksheet`]: a tour for paper, with its answer key.
//! - [`embed`], [`snippet`], [`compare`]: embed options and the snippet, pinned configurations;
//!   [`host_api`]: the messages between an embedded lab and the page that frames it.
//! - [`format`](mod@format), [`ladder`]: numbers in words and digits, the values a slider snaps to.

pub mod anatomy;
pub mod compare;
pub mod compute;
pub mod embed;
pub mod format;
pub mod guide;
pub mod host_api;
pub mod journey;
pub mod ladder;
pub mod load;
pub mod measure;
pub mod predict;
pub mod reference;
pub mod snippet;
pub mod state;
pub mod teaching;
pub mod tour_file;
pub mod tours;
pub mod url_state;
pub mod words;
pub mod worksheet;
