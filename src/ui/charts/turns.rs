//! The charts take turns: every chart that needs drawing asks here, and the page draws them in
//! short tasks, those on the screen first.
//!
//! Drawing all five charts in one animation frame made one task of them (on a phone at 4x CPU,
//! 100 to 190 ms of the load's longest tasks, and the slider's); a reader sees one or two of
//! them at a time. A task draws charts only until it has taken a few milliseconds, so on a
//! slow device each chart is a task of its own, and input is handled between any two.
//!
//! What always holds:
//! - a chart waits at most once: asking again before its turn keeps its place (its drawing
//!   reads the newest data when it runs);
//! - the first turn after a quiet moment starts in an animation frame, so changes that arrive
//!   within one frame are drawn together, as before; a task starts no chart once it has taken
//!   `TASK_BUDGET_MS`, and the next turns follow in tasks of their own;
//! - a chart on the screen goes before every chart off it; among equals, the one that asked
//!   first goes first (page order on a load);
//! - every chart that asks is drawn, those off the screen after those on it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::*;

/// How long one task may draw charts before it lets the browser handle input: a chart starts
/// only within this much of the task's start. A desktop draws the five charts in one or two
/// tasks; a phone at 4x CPU, where one chart takes 20 to 50 ms, one chart per task. A quarter
/// of the 50 ms that makes a task long, as an assumption: a chart started just before the
/// budget is spent may take as long again, and the page has its own work in the same task.
const TASK_BUDGET_MS: f64 = 12.0;

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
        request_animation_frame(take_turn);
    }
}

/// Draws the charts whose turn it is until the task has taken `TASK_BUDGET_MS`, then asks
/// for another task if any wait.
fn take_turn() {
    let started = now_ms();
    while let Some(turn) = next_turn() {
        (turn.draw)();
        let spent = started.zip(now_ms()).map_or(f64::INFINITY, |(a, b)| b - a);
        if spent >= TASK_BUDGET_MS {
            break;
        }
    }
    if WAITING.with(|w| w.borrow().is_empty()) {
        ASKED.set(false);
    } else {
        set_timeout(take_turn, Duration::ZERO);
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

/// `performance.now()`, if the browser has it (without it every chart takes a task of its own).
fn now_ms() -> Option<f64> {
    window().performance().map(|p| p.now())
}
