//! [`Later`]: the parts of the page that are not on its first screen mount after it, one part
//! per task, so that the first chart is drawn and the page answers a tap while the rest of it
//! is still being built.
//!
//! Mounting the whole lab in the task that starts it was the longest task of a phone's load
//! (the page benchmark at 4x CPU: about 400 ms, of which the app's own mount 240 to 280 ms,
//! before the first chart). Each part wrapped in [`Later`] now mounts in a task of its own.
//!
//! What always holds:
//! - parts mount in the order the page created them (page order), each in its own task, the
//!   first after the next animation frame, so the first screen is painted before (or after
//!   `NO_FRAME_WAIT` where the browser draws no frame: a hidden tab, an off-screen frame);
//! - except that a part marked `soon` goes before every unmarked part still waiting (and
//!   after the `soon` ones already waiting): what both a phone and a desktop show right under
//!   the first chart, which in page order would come after the controls and push them down as
//!   it arrived; once no `soon` part waits, the page's timeline carries the mark
//!   [`FIRST_SCREEN_MARK`];
//! - while the page's views are mounted hidden (`hold` and `release`, from
//!   [`crate::ui::browser::staging`]), parts wait: the first screen is the one they show at the end;
//! - a part whose owner is gone before its turn is skipped, never an error;
//! - once every part asked for so far has mounted, `<html>` carries `data-mounted` (the
//!   end-to-end tests wait for it before they reach for a control below the first screen).

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::*;

use crate::ui::browser::tasks::next_task;

/// The attribute `<html>` carries once every part has mounted.
pub const MOUNTED_ATTRIBUTE: &str = "data-mounted";

/// The `performance` mark set when the last `soon` part waiting has mounted (the page
/// benchmark prints the page's marks).
pub const FIRST_SCREEN_MARK: &str = "lab:first-screen";

/// How long the parts wait for the first frame before they mount without it (an assumption:
/// far longer than a frame, short enough that a reader scrolling to an embed finds it whole).
const NO_FRAME_WAIT: Duration = Duration::from_millis(100);

thread_local! {
    /// The parts waiting for their turn, the `soon` ones first, each kind oldest first.
    static WAITING: RefCell<VecDeque<Box<dyn FnOnce()>>> = RefCell::default();
    /// How many of the waiting parts, at the front, are `soon` ones.
    static SOON: Cell<usize> = const { Cell::new(0) };
    /// Whether a task to mount the next part is already asked for.
    static ASKED: Cell<bool> = const { Cell::new(false) };
    /// Whether the parts wait for [`release`] (the page's views are mounted hidden).
    static HELD: Cell<bool> = const { Cell::new(false) };
}

/// Keeps the parts asked for from now on waiting until [`release`]: the page's views mount
/// hidden, in steps ([`crate::ui::browser::staging`]), and their first screen is the one shown at the end.
pub(crate) fn hold() {
    HELD.set(true);
}

/// Lets the waiting parts mount, after the next frame, as if they had been asked for now.
pub(crate) fn release() {
    if HELD.replace(false) && WAITING.with(|w| !w.borrow().is_empty()) {
        ask_for_turns();
    }
}

/// Mounts its children in a task of its own, after the first screen, in page order (`soon`:
/// before the parts without it).
#[component]
pub fn Later(
    /// Mount before every part without it: for what the first screen shows under its chart.
    #[prop(optional)]
    soon: bool,
    children: ChildrenFn,
) -> impl IntoView {
    let shown = RwSignal::new(false);
    queue(soon, move || {
        // Gone with its owner (a view switched away before its turn): nothing to mount.
        let _ = shown.try_set(true);
    });
    view! { <Show when=move || shown.get()>{children()}</Show> }
}

/// Asks for `mount` to run in a later task of its own (before the parts without `soon`).
fn queue(soon: bool, mount: impl FnOnce() + 'static) {
    WAITING.with(|w| {
        let mut waiting = w.borrow_mut();
        if soon {
            let at = SOON.get();
            waiting.insert(at, Box::new(mount));
            SOON.set(at + 1);
        } else {
            waiting.push_back(Box::new(mount));
        }
    });
    set_mounted(false);
    if !HELD.get() {
        ask_for_turns();
    }
}

/// Asks for the first waiting part to mount, unless that is asked for already.
fn ask_for_turns() {
    if !ASKED.replace(true) {
        // After the next frame, or after a while if the browser draws none: it draws no frame
        // for a hidden tab or a cross-origin frame below an article's fold, and the parts
        // there (the model's status line among them) must mount all the same.
        let started = Rc::new(Cell::new(false));
        let start = move || {
            if !started.replace(true) {
                next_task(mount_next);
            }
        };
        request_animation_frame(start.clone());
        set_timeout(start, NO_FRAME_WAIT);
    }
}

/// Mounts the next waiting part (the `soon` ones first), then asks for another task if any
/// remain.
fn mount_next() {
    let next = WAITING.with(|w| w.borrow_mut().pop_front());
    let was_soon = SOON.get() > 0;
    if was_soon {
        SOON.set(SOON.get() - 1);
    }
    if let Some(mount) = next {
        mount();
    }
    // After the mount: a part it asked for may be a `soon` one too.
    if was_soon && SOON.get() == 0 {
        if let Some(p) = window().performance() {
            let _ = p.mark(FIRST_SCREEN_MARK);
        }
    }
    if WAITING.with(|w| w.borrow().is_empty()) {
        ASKED.set(false);
        set_mounted(true);
    } else {
        next_task(mount_next);
    }
}

/// Marks `<html>` as fully mounted, or not yet.
fn set_mounted(mounted: bool) {
    let Some(root) = document().document_element() else {
        return;
    };
    let _ = if mounted {
        root.set_attribute(MOUNTED_ATTRIBUTE, "")
    } else {
        root.remove_attribute(MOUNTED_ATTRIBUTE)
    };
}

/// True from the first time `shown` is, and for good: a view whose contents are built when it
/// is first shown and kept, so the app's start-up does not build them for a view few open.
pub fn once_shown(shown: Memo<bool>) -> Memo<bool> {
    Memo::new(move |before: Option<&bool>| before.copied().unwrap_or(false) || shown.get())
}
