//! The page's plumbing in the browser: tasks, workers, storage and the steps of the page's start.
//! Nothing here draws a chart or holds a control; the charts, controls and views stand on it.
//!
//! - [`pool`]: the Web Workers that run every model computation the page shows, off the thread
//!   that draws.
//! - [`staging`] and [`later`]: the page's views mounted in steps behind the opening chart, and
//!   the parts below the first screen mounted after it.
//! - [`input`]: the task that handles the reader's input; [`tasks`]: a task of its own, without
//!   a timer's wait; [`resize`]: an element's box, followed.
//! - [`storage`]: the device's copy of the state; [`crash`]: the screen a panic leaves instead of
//!   a dead page; [`fetch`]: a small text file from the page's own origin.

pub mod crash;
pub mod fetch;
pub mod input;
pub mod later;
pub mod pool;
pub mod resize;
pub mod staging;
pub mod storage;
pub mod tasks;
