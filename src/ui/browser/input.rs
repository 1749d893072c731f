//! The task that handles the reader's input: when it began, so that the work the input sets
//! off (the charts' drawing, a slider's next steps) can keep that task within
//! [`TASK_BUDGET_MS`].
//!
//! A busy page gets its queued input in one go: a trace of a phone at 4x CPU with twelve key
//! presses sent at once had Chromium dispatch six `keydown` events in each of two tasks, of
//! 175 and 146 ms, each press's own work (the state, its effects, the plan for the workers,
//! the readout) taking 25 to 30 ms.
//!
//! What always holds:
//! - [`began_at`] is set from the first input event of a task (a listener on the window that
//!   captures, so it runs before any control's own handler) until that task ends, or by
//!   [`begin`] for input the page handles in a later task;
//! - nothing here changes what an input does, only when its work is done.

use std::cell::Cell;
use std::time::Duration;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// How long one task may work for the reader before it leaves the rest to tasks of their
/// own. A quarter of the 50 ms that makes a task long, as an assumption: a piece of work
/// started just before the budget is spent may take as long again (a chart on a phone at 4x
/// CPU takes 20 to 50 ms), and the page has its own work in the same task.
pub const TASK_BUDGET_MS: f64 = 12.0;

/// The events by which the reader changes the lab's state: a control's value, a button, a
/// key (the sliders take their arrow keys themselves, with no `input` event).
const INPUT_EVENTS: [&str; 4] = ["input", "change", "click", "keydown"];

thread_local! {
    /// When the page began to handle the reader's latest input (`performance.now()`), until
    /// the task that handles it ends.
    static BEGAN_AT: Cell<Option<f64>> = const { Cell::new(None) };
    /// Whether [`follow`] has its listeners on the window.
    static FOLLOWING: Cell<bool> = const { Cell::new(false) };
}

/// When the task running now began to handle the reader's input, if it handles input.
pub fn began_at() -> Option<f64> {
    follow();
    BEGAN_AT.get()
}

/// How long the task running now has handled the reader's input, if it handles input.
pub fn spent_ms() -> Option<f64> {
    since_ms(began_at())
}

/// Milliseconds from `start` (a [`now_ms`] reading) to now; none without both clocks.
pub fn since_ms(start: Option<f64>) -> Option<f64> {
    start.zip(now_ms()).map(|(a, b)| b - a)
}

/// Marks the task running now as one that handles the reader's input (input the page took
/// in an earlier task and handles now), unless it is marked already.
pub fn begin() {
    if BEGAN_AT.get().is_none() {
        BEGAN_AT.set(now_ms());
        // The task's end: the next task is not the input's.
        set_timeout(|| BEGAN_AT.set(None), Duration::ZERO);
    }
}

/// Notes when the page begins to handle each of the reader's inputs, once per page.
fn follow() {
    if FOLLOWING.replace(true) {
        return;
    }
    let noted = Closure::<dyn Fn()>::new(begin);
    for kind in INPUT_EVENTS {
        let _ = window().add_event_listener_with_callback_and_bool(
            kind,
            noted.as_ref().unchecked_ref(),
            true,
        );
    }
    // Listens as long as the page lives.
    noted.forget();
}

/// `performance.now()`, if the browser has it.
pub fn now_ms() -> Option<f64> {
    window().performance().map(|p| p.now())
}
