//! Layer 3, simulation: checked runs and the engine that runs them.
//!
//! What it owns: [`CheckedRun`](run::CheckedRun), the only thing the engine runs, with the
//! power budget it keeps and the [`RunError`](run::RunError) a run can end in ([`run`]); the
//! discrete-event engine, [`Simulation`](crate::Simulation) (`engine`: the host stack, the
//! controller, the channels and the dies, run to the end or stepped); and a run made ready for
//! the engine in steps, so a page never blocks ([`prepare`]).
//!
//! What always holds: a run is checked once, before the engine sees it, and the engine never
//! tests an input again; the same checked run gives the same result, natively and in wasm; a
//! result leaves the engine only after it passed its own checks
//! ([`Simulation::result`](crate::Simulation::result)). Modules here import the layers below
//! and, in order, each other: `engine` takes `run`, `prepare` takes both.
//!
//! Why: one gate in front of the engine keeps its hot loop free of checks, and everything above
//! (sweeps, reviews, fits, the scorecard) runs the model only through this layer.

pub(crate) mod engine;
pub mod prepare;
pub mod run;
