//! Layer 0, foundations: the pieces every part of the model stands on, none of which knows what
//! a drive does.
//!
//! What it owns: simulated time ([`time`]), the run's one seeded generator ([`rng`]), the
//! engine's first-in first-out ring (`ring`) and its event queue (`events`), a file's bytes as
//! text and a figure's digits as words ([`text`]), one table of stable names per enum (`names`,
//! the [`named_enum!`](crate::named_enum) macro), the host link's generations and rates
//! ([`link`]), and one shape for work done in slices ([`sliced`]).
//!
//! What always holds: a module here imports nothing of the model but the modules listed before
//! it in this layer (`events` takes `ring` and `time`); the `named_enum!` macro names the
//! specification's `ConfigError`, but only where it is expanded, in the layers above. Every
//! piece is deterministic: the same inputs give the same outputs on every platform, natively
//! and in wasm.
//!
//! Why: a run is reproducible bit for bit because time is integer nanoseconds, every choice
//! comes from one seeded generator and events at equal times leave the queue in a fixed order;
//! keeping those pieces apart from any drive lets each be tested, and the hot queues measured,
//! on its own.

pub(crate) mod events;
pub mod link;
mod names;
pub(crate) mod ring;
pub mod rng;
pub mod sliced;
pub mod text;
pub mod time;
