//! Layer 7, judgement: the model scored against everything published about it
//! ([`scorecard`]).
//!
//! What it owns: one table of every published figure, the procedure that reproduces it on the
//! model and the band its result must fall in; the model scored against all of them, and each
//! assumption's effect on each figure.
//!
//! What always holds: a row's verdict depends on its own figure alone; `lab validate`, the
//! page's scorecard and the tests read the same table.
//!
//! Why: judging the model needs every layer below (presets, experiments, fits), and nothing in
//! the model depends on the verdict, so it sits on top.

pub mod scorecard;
