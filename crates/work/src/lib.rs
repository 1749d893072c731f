//! The model runs Parallelism Lab's page asks for, as data: shared by the page's main thread
//! and its Web Workers, with no web dependency, so all of it is tested natively.
//!
//! - [`key`]: a run's identity ([`RunKey`], which travels as text) and what the page keeps of
//!   it ([`Point`], [`Outcome`]).
//! - [`anatomy`]: what a point keeps of its run's anatomy ([`PointAnatomy`]: where the reads'
//!   and writes' time went, mean and tails).
//! - [`plan`]: the [`PlanTask`] that works a plan of runs in slices, estimates first.
//! - [`fit`]: a fit of the model to the reader's measurements.
//! - [`teach`]: teaching mode's player and explainer.
//! - [`review`]: the E12 review's tests on one drive.
//! - [`scorecard`]: the model against every published figure, as `lab validate` scores it.
//! - [`over_time`]: the drive over time (cache rates, fill, torture) for one drive at a time.
//! - [`WorkError`]: why work was not done, as data that crosses to the page.
//! - [`protocol`]: the messages between the page and a worker, and their one text form.
//! - [`serve`]: a worker's side: reads requests, works slices, replies.
//! - [`pool`]: the page's side: which worker gets which run, and the results.
//!
//! The page's main thread builds plans and reads results ([`pool::Dispatch`]); only the
//! workers call the engine, so the main thread's WebAssembly does not carry it.
#![forbid(unsafe_code)]

pub mod anatomy;
mod error;
pub mod fit;
pub mod jobs;
pub mod key;
pub mod over_time;
pub mod plan;
pub mod pool;
pub mod protocol;
pub mod replay;
pub mod review;
pub mod scorecard;
pub mod serve;
pub mod teach;
#[cfg(test)]
mod testing;

pub use anatomy::{DirectionParts, PartsUs, PointAnatomy};
pub use error::{Counted, WorkError};
pub use key::{DriveChoice, DriveKey, Fidelity, Load, Outcome, Point, RunKey, ESTIMATE_IOS, SEED};
pub use plan::{PlanTask, Progress};
