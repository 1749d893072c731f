//! Runs the [`Engine`] in the browser: one slice of at most [`SLICE_MS`] per task, yielding to
//! the event loop between slices, so input and drawing always get their turn. The loop itself,
//! [`slice_loop`], is shared with the other sliced computations of the page (the drive-over-time
//! view's runner).
//!
//! The yield is a message to itself over a `MessageChannel` (a new task at once), not a zero
//! timeout: browsers clamp nested timeouts to 4 ms, which would leave the model idle for 40% of
//! the time.
//!
//! What always holds:
//! - the engine is only ever touched from the page's one thread, inside a slice or a lookup,
//!   never across an `await`;
//! - at most one slice loop runs per [`Runner`]; [`Runner::set_plan`] wakes it when it is idle;
//! - `revision` changes after every slice that completed a run, so everything derived from
//!   results (charts, readout, progress) recomputes once per slice, not once per run;
//! - after [`Runner::stop`] (the app unmounts) no further slice runs.

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::MessageChannel;

use super::compute::{Engine, Point, Progress, RunKey};

/// Longest stretch of model work per task, in milliseconds: far below the 50 ms that counts as
/// a long task, and short enough that a frame can still be drawn between two slices.
pub const SLICE_MS: f64 = 6.0;

/// The engine, its result revision and its loop's state; cheap to copy into closures.
#[derive(Clone, Copy)]
pub struct Runner {
    engine: StoredValue<Engine, LocalStorage>,
    revision: RwSignal<u64>,
    running: StoredValue<bool, LocalStorage>,
    stopped: StoredValue<bool, LocalStorage>,
}

impl Default for Runner {
    fn default() -> Self {
        Runner::new()
    }
}

impl Runner {
    pub fn new() -> Runner {
        Runner {
            engine: StoredValue::new_local(Engine::new()),
            revision: RwSignal::new(0),
            running: StoredValue::new_local(false),
            stopped: StoredValue::new_local(false),
        }
    }

    /// Changes after every slice that produced results; track it to follow the results.
    pub fn revision(&self) -> u64 {
        self.revision.get()
    }

    /// Replaces the plan and makes sure the loop runs.
    pub fn set_plan(&self, plan: Vec<RunKey>) {
        self.engine.update_value(|e| e.set_plan(plan));
        self.kick();
    }

    /// The best result so far for `key` (not tracked: track [`Self::revision`]).
    pub fn point(&self, key: &RunKey) -> Option<Point> {
        self.engine
            .try_with_value(|e| e.point(key).copied())
            .flatten()
    }

    /// Why the model refused `key`, if it did.
    pub fn failure(&self, key: &RunKey) -> Option<String> {
        self.engine
            .try_with_value(|e| e.failure(key).map(str::to_string))
            .flatten()
    }

    /// Runs `f` with a lookup of the results so far.
    pub fn with_results<R>(&self, f: impl FnOnce(&dyn Fn(&RunKey) -> Option<Point>) -> R) -> R {
        let lookup = |k: &RunKey| self.point(k);
        f(&lookup)
    }

    pub fn progress(&self) -> Progress {
        self.engine
            .try_with_value(Engine::progress)
            .unwrap_or_default()
    }

    /// Stops the loop for good.
    pub fn stop(&self) {
        let _ = self.stopped.try_set_value(true);
    }

    fn kick(&self) {
        if self.running.get_value() || self.stopped.get_value() {
            return;
        }
        self.running.set_value(true);
        let this = *self;
        spawn_local(async move {
            this.slices().await;
            let _ = this.running.try_set_value(false);
        });
    }

    async fn slices(self) {
        slice_loop(move |time_is_up| {
            if self.stopped.try_get_value().unwrap_or(true) {
                return None;
            }
            let slice = self.engine.try_update_value(|e| e.work(time_is_up))?;
            if slice.completed > 0 {
                self.revision.update(|r| *r += 1);
            }
            Some(slice.idle)
        })
        .await;
    }
}

/// Calls `work` once per task, each call with a clock that says when [`SLICE_MS`] are up, and
/// yields to the browser between calls, until `work` says it is idle (`Some(true)`) or gone
/// (`None`). Every sliced computation of the page runs through this loop.
pub async fn slice_loop(mut work: impl FnMut(&mut dyn FnMut() -> bool) -> Option<bool>) {
    let Some(performance) = window().performance() else {
        leptos::logging::error!("no window.performance: the model cannot be scheduled");
        return;
    };
    let channel = MessageChannel::new().ok();
    loop {
        let start = performance.now();
        match work(&mut || performance.now() - start >= SLICE_MS) {
            Some(false) => {}
            None | Some(true) => return,
        }
        yield_to_browser(channel.as_ref()).await;
    }
}

/// Resolves in a new task, after the browser has had its turn (input, a frame if one is due).
async fn yield_to_browser(channel: Option<&MessageChannel>) {
    if let Some(channel) = channel {
        let (inbox, outbox) = (channel.port1(), channel.port2());
        let arrived = js_sys::Promise::new(&mut |resolve, _| {
            inbox.set_onmessage(Some(&resolve));
            if outbox.post_message(&JsValue::NULL).is_err() {
                let _ = resolve.call0(&JsValue::NULL);
            }
        });
        let _ = JsFuture::from(arrived).await;
    } else {
        TimeoutFuture::new(0).await;
    }
}
