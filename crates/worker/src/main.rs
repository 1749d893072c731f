//! The page's Web Worker: the model's engine, off the main thread that draws.
//!
//! All the deciding is [`parallelism_work::serve::Server`]'s; this binary only puts the
//! browser's message loop around it:
//! - a message from the page is read at once (a new plan replaces the old one);
//! - the work runs in slices of at most `browser::SLICE_MS`, each its own task, so a message that
//!   arrives mid-plan is read at the end of the slice in progress and the plan it replaces is
//!   abandoned then;
//! - the first message the page gets is `Ready` (a mark in the page's timeline); what the
//!   page sent before is held by the worker's loader (`assets/worker_loader.js`) and handed
//!   to the message loop once it is installed, in order;
//! - a panic is reported to the page (which shows its error screen with the reason) before
//!   the module ends.
//!
//! Natively this program does nothing: it exists so the workspace builds and lints it.

#[cfg(target_arch = "wasm32")]
mod browser;

fn main() {
    #[cfg(target_arch = "wasm32")]
    browser::start();
}
