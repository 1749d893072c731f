//! Runs the page's main-thread model work (the drive over time, the fit, teaching mode; the
//! charts' runs are the worker pool's, [`super::pool`]): one slice of at most [`SLICE_MS`] per
//! task, yielding to the event loop between slices, so input and drawing always get their turn.
//!
//! The yield is a message to itself over a `MessageChannel` (a new task at once), not a zero
//! timeout: browsers clamp nested timeouts to 4 ms, which would leave the model idle for 40% of
//! the time.
//!
//! What always holds:
//! - the engine is only ever touched from the page's one thread, inside a slice or a lookup,
//!   never across an `await`;
//! - at most one slice loop runs per [`SlicedRunner`]; giving it work ([`SlicedRunner::update`])
//!   wakes it when it is idle;
//! - `revision` changes after every slice that may have changed the results, so everything
//!   derived from them recomputes once per slice, not once per step;
//! - after [`SlicedRunner::stop`] (the component unmounts) no further slice runs.
//!
//! [`SlicedRunner`] is generic over the work ([`SlicedWork`]), so every view's runner shares
//! one loop and one piece of bookkeeping.

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::MessageChannel;

/// Longest stretch of model work per task, in milliseconds: far below the 50 ms that counts as
/// a long task, and short enough that a frame can still be drawn between two slices.
pub const SLICE_MS: f64 = 6.0;

/// A computation the page runs in slices (the model runs of the charts, the drive over time).
pub trait SlicedWork: 'static {
    /// Works until `time_is_up` says so or nothing is left to do.
    fn work_slice(&mut self, time_is_up: &mut dyn FnMut() -> bool) -> SliceOutcome;
}

/// What one slice of a [`SlicedWork`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SliceOutcome {
    /// Nothing is left to do until the work is given more.
    pub idle: bool,
    /// What the page shows from it may have changed.
    pub changed: bool,
}

/// A [`SlicedWork`], its result revision and its loop's state; cheap to copy into closures.
pub struct SlicedRunner<W: 'static> {
    work: StoredValue<W, LocalStorage>,
    revision: RwSignal<u64>,
    running: StoredValue<bool, LocalStorage>,
    stopped: StoredValue<bool, LocalStorage>,
}

impl<W> Clone for SlicedRunner<W> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<W> Copy for SlicedRunner<W> {}

impl<W: SlicedWork> SlicedRunner<W> {
    pub fn new(work: W) -> Self {
        SlicedRunner {
            work: StoredValue::new_local(work),
            revision: RwSignal::new(0),
            running: StoredValue::new_local(false),
            stopped: StoredValue::new_local(false),
        }
    }

    /// Changes after every slice that may have changed the results; track it to follow them.
    pub fn revision(&self) -> u64 {
        self.revision.get()
    }

    /// Changes the work with `f`, then makes sure the loop runs if `wake`.
    pub fn update(&self, f: impl FnOnce(&mut W), wake: bool) {
        self.work.update_value(f);
        if wake {
            self.kick();
        }
    }

    /// Reads the work (not tracked: track [`Self::revision`]); `None` once the page is gone.
    pub fn read<R>(&self, f: impl FnOnce(&W) -> R) -> Option<R> {
        self.work.try_with_value(f)
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
            slice_loop(move |time_is_up| {
                if this.stopped.try_get_value().unwrap_or(true) {
                    return None;
                }
                let slice = this.work.try_update_value(|w| w.work_slice(time_is_up))?;
                if slice.changed {
                    this.revision.update(|r| *r += 1);
                }
                Some(slice.idle)
            })
            .await;
            let _ = this.running.try_set_value(false);
        });
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
