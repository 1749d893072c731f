//! The charts take turns: every chart that needs drawing asks here, and the page draws one
//! chart per task, those on the screen first.
//!
//! Drawing all five charts in one animation frame made one task of them (on a phone at 4x CPU,
//! 100 to 190 ms of the load's longest tasks, and the slider's); a reader sees one or two of
//! them at a time. One chart per task keeps each task to one chart's drawing, and input is
//! handled between any two.
//!
//! What always holds:
//! - a chart waits at most once: asking again before its turn keeps its place (its drawing
//!   reads the newest data when it runs);
//! - the first turn after a quiet moment starts in an animation frame, so changes that arrive
//!   within one frame are drawn together, as before; the next turns follow in tasks of their
//!   own;
//! - a chart on the screen goes before every chart off it; among equals, the one that asked
//!   first goes first (page order on a load);
//! - every chart that asks is drawn, those off the screen after those on it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::*;

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

/// Asks for the chart `id` to be drawn by `draw` in a turn of its own; `on_screen` says
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

/// Draws the chart whose turn it is, then asks for another task if any wait.
fn take_turn() {
    let turn = WAITING.with(|w| {
        let mut waiting = w.borrow_mut();
        let next = waiting
            .iter()
            .position(|t| t.on_screen.get())
            .or((!waiting.is_empty()).then_some(0));
        next.map(|i| waiting.remove(i))
    });
    if let Some(turn) = turn {
        (turn.draw)();
    }
    if WAITING.with(|w| w.borrow().is_empty()) {
        ASKED.set(false);
    } else {
        set_timeout(take_turn, Duration::ZERO);
    }
}
