//! Layer 2, parts: the pieces a run is built from and measured with, each on its own.
//!
//! What it owns: where a request's time goes, part by part ([`anatomy`]); a snapshot of what every part of the drive does at one instant
//! ([`activity`]), what a run measured and the checks a result passes ([`stats`]), garbage
//! collection and write amplification on a scaled drive ([`ftl`]), the streams of requests a
//! run puts on a drive, fio job files and block traces ([`workload`]), and what each part of
//! the drive draws, its power states and budgets ([`power`]).
//!
//! What always holds: a part imports only the foundations, the specification and the parts
//! listed before it (`stats` reads `anatomy`, `power` reads `activity` and `stats`); none runs the engine, so each is
//! tested alone, and the engine uses them all.
//!
//! Why: the engine's loop stays about time and order, while what a request is, what a result
//! holds, what garbage collection costs and what power is drawn are written (and checked) once,
//! where the engine, the page and `lab` all read them.

pub mod activity;
pub mod anatomy;
pub mod ftl;
pub mod power;
pub mod stats;
pub mod workload;
