//! The charts take turns: every chart that needs drawing asks here, and the page draws them in
//! short tasks, those on the screen first.
//!
//! Drawing all five charts in one animation frame made one task of them (on a phone at 4x CPU,
//! 100 to 190 ms of the load's longest tasks, and the slider's); a reader sees one or two of
//! them at a time. A task draws charts only until it has taken a few milliseconds, so on a
//! slow device each chart is a task of its own, and input is handled between any two.
//!
//! A chart asked for while the page handles the reader's input (a control moved, a button
//! pressed) is drawn in that same task, right after the state has followed the input, if the
//! task is still within its budget: waiting for the next animation frame made a key press wait
//! up to a frame (16.7 ms at 60 Hz) before any drawing began, the most of the desktop's time
//! from a key press to all five charts redrawn (the page benchmark: median 8.7 ms, p95 22.1
//! ms). The reader sees the drawing at the same frame either way; the browser paints what
//! the task drew at its next frame.
//!
//! What always holds:
//! - a chart waits at most once: asking again before its turn keeps its place (its drawing
//!   reads the newest data when it runs);
//! - a turn asked for while the page handles the reader's input ([`crate::ui::browser::input`]) runs in
//!   that input's task, after the state's effects, unless that task has already taken
//!   [`TASK_BUDGET_MS`]; any other first turn after a quiet moment starts in an animation
//!   frame, so changes that arrive within one frame (the model's replies, the load's mounts)
//!   are drawn together;
//! - a task starts no chart once it has taken [`TASK_BUDGET_MS`] (counted from the input, for a
//!   turn in an input's task), and the next turns follow in tasks of their own;
//! - a chart on the screen goes before every chart off it; among equals, the one that asked
//!   first goes first (page order on a load);
//! - every chart that asks is drawn, those off the screen after those on it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use leptos::prelude::*;

use crate::ui::browser::input::{self, now_ms, TASK_BUDGET_MS};
use crate::ui::browser::tasks::next_task;

/// A chart's drawing, waiting for its turn.
struct Turn {
    id: &'static str,
    on_screen: Rc<Cell<bool>>,
    draw: Box<dyn FnOnce()>,
}

thread_local! {
    static WAITING: RefCell<Vec<Turn>> = const { RefCell::new(Vec::new()) };
    /// Whether a task to take the next turn is already asked for.
    static ASKED: Cell<bool> = const { Cell::new(false) };
}

/// Asks for the chart `id` to be drawn by `draw` in its turn; `on_screen` says
/// whether the chart is on the screen now (read when the next turn is chosen).
pub fn ask(id: &'static str, on_screen: Rc<Cell<bool>>, draw: impl FnOnce() + 'static) {
    let fresh = WAITING.with(|w| {
        let mut waiting = w.borrow_mut();
        match waiting.iter_mut().find(|t| t.id == id) {
            Some(turn) => {
                turn.draw = Box::new(draw);
                turn.on_screen = on_screen;
                false
            }
            None => {
                waiting.push(Turn {
                    id,
                    on_screen,
                    draw: Box::new(draw),
                });
                true
            }
        }
    });
    if fresh && !ASKED.replace(true) {
        match input::began_at() {
            // A microtask: after the effects the input set off, within its task.
            Some(at) => leptos::task::spawn_local(async move { draw_turns(Some(at), false) }),
            None => request_animation_frame(take_turn),
        }
    }
}

/// Takes the turns of a task of their own.
fn take_turn() {
    draw_turns(now_ms(), true);
}

/// Draws the charts whose turn it is while the task, begun at `started`, is within
/// [`TASK_BUDGET_MS`] (at least one chart if `at_least_one`; without `performance.now()`,
/// one chart per task), then asks for another task if any wait: the next animation frame if
/// this one drew none, else the next task.
fn draw_turns(started: Option<f64>, at_least_one: bool) {
    let mut drawn = 0;
    loop {
        let spent = input::since_ms(started).unwrap_or(f64::INFINITY);
        if (drawn > 0 || !at_least_one) && spent >= TASK_BUDGET_MS {
            break;
        }
        let Some(turn) = next_turn() else { break };
        (turn.draw)();
        drawn += 1;
    }
    if WAITING.with(|w| w.borrow().is_empty()) {
        ASKED.set(false);
    } else if drawn == 0 {
        request_animation_frame(take_turn);
    } else {
        next_task(take_turn);
    }
}

/// The waiting chart to draw next: the first on the screen, else the first.
fn next_turn() -> Option<Turn> {
    WAITING.with(|w| {
        let mut waiting = w.borrow_mut();
        let next = waiting
            .iter()
            .position(|t| t.on_screen.get())
            .or((!waiting.is_empty()).then_some(0));
        next.map(|i| waiting.remove(i))
    })
}
