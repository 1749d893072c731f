//! The app's start in the browser (`src/main.rs` calls [`run`]). It installs the crash
//! screen's panic hook first, then starts the app in steps, each in a task of its own: the
//! state as the link opened it ([`Opened::new`]); the model's workers ([`Opened::start`]); the
//! first plan sent to them, and the marks that follow the model ([`Started::follow`]); the
//! chart set ([`Started::prepare`]); the views, hidden, in the steps of [`Staging`] (the page's
//! frame, the results, the charts); the views shown in place of the opening chart
//! (`src/bin/opening_chart.rs`), if it drew; in a frame, the messages of the page that frames
//! it ([`Started::answer_host`]); and last the URL and the device's copy following the state
//! ([`Started::keep`]). Each step is a first run of much code, which V8 compiles as it goes:
//! on a phone at 4x CPU, fewer steps made longer tasks (CHANGELOG.md "The app's start in
//! steps"; a framed lab's, "The article beside a control, and where its long tasks come
//! from").
//!
//! Each step is wrapped in `performance` marks (`lab:start`, `lab:model`, `lab:follow`,
//! `lab:prepare`, `lab:mount`, `lab:results`, `lab:charts`, `lab:show`, `lab:host` and
//! `lab:keep` in the page's performance timeline), so the page benchmark can tell the app's
//! start-up from the browser's.

use std::cell::OnceCell;
use std::collections::VecDeque;
use std::rc::Rc;

use crate::ui::browser::crash;
use crate::ui::browser::staging::Staging;
use crate::ui::browser::tasks::next_task;
use crate::ui::{opening_chart, AppViews, Opened, Started};
use leptos::prelude::*;

/// Starts the app: the crash screen first, then the app's steps, from a task of their own.
pub fn run() {
    crash::install();
    let panic_asked = crash::panic_asked();
    // The module was compiled and started in this task: the app starts in a task of its own.
    next_task(move || start(panic_asked));
}

/// Makes the app's state under an owner that lives as long as the page, then starts its
/// model, then its views under the same owner, step by step (and panics after, if the link
/// asked for it).
fn start(panic_asked: bool) {
    let (owner, opened) = measured("lab:start", || {
        // The state's effects are spawned on the executor, which the mount would set up only
        // later. Already set up (never here) is no error.
        let _ = any_spawner::Executor::init_wasm_bindgen();
        let owner = Owner::new();
        let opened = owner.with(|| Opened::new(None));
        (owner, opened)
    });
    // The owner holds the app's signals and workers: it lives as long as the page.
    let owner: &'static Owner = Box::leak(Box::new(owner));
    let made: Rc<OnceCell<Started>> = Rc::default();
    let making = made.clone();
    let model: Task = (
        "lab:model",
        Box::new(move || _ = making.set(opened.start(None))),
    );
    in_turn(owner, [model].into(), move || {
        if let Some(started) = made.get() {
            show(owner, started.clone(), panic_asked);
        }
    });
}

/// The steps after the model's start: the first plan, the chart set, the views (hidden, in
/// the steps of [`Staging`]), shown in place of the opening chart, the host page's messages,
/// and the URL kept.
fn show(owner: &'static Owner, started: Started, panic_asked: bool) {
    let staging = owner.with(Staging::in_steps);
    let views = started.clone();
    let follows = started.clone();
    let prepares = started.clone();
    let hosted = started.clone();
    let steps: [Task; 8] = [
        ("lab:follow", Box::new(move || follows.follow())),
        ("lab:prepare", Box::new(move || prepares.prepare())),
        (
            "lab:mount",
            Box::new(move || {
                leptos::mount::mount_to_body(move || {
                    view! { <AppViews started=views staging=staging /> }
                })
            }),
        ),
        // Each part's views build as its step's effects run, before the next step.
        ("lab:results", Box::new(move || _ = staging.advance())),
        ("lab:charts", Box::new(move || _ = staging.advance())),
        (
            "lab:show",
            Box::new(move || {
                staging.advance();
                // In the same task, so no frame shows both: the opening chart's drawing
                // goes under the app's chart.
                opening_chart::hand_over();
            }),
        ),
        ("lab:host", Box::new(move || hosted.answer_host())),
        ("lab:keep", Box::new(move || started.keep())),
    ];
    in_turn(owner, steps.into(), move || {
        if panic_asked {
            crash::panic_soon();
        }
    });
}

/// One step of the app's start: its mark's name and its work.
type Task = (&'static str, Box<dyn FnOnce()>);

/// Runs `steps` under `owner`, each in a task of its own, in order, then `after`. A step's
/// measure ends once the effects it set off have run (a step's views build in them), still in
/// its task.
fn in_turn(owner: &'static Owner, mut steps: VecDeque<Task>, after: impl FnOnce() + 'static) {
    match steps.pop_front() {
        Some((name, step)) => next_task(move || {
            let measure = Measure::start(name);
            owner.with(step);
            // Queued behind the effects the step set off, so it runs after them.
            leptos::task::spawn_local(async move {
                measure.end();
                in_turn(owner, steps, after);
            });
        }),
        None => after(),
    }
}

/// A span of the page's performance timeline: the marks `{name}-start` and `{name}`.
struct Measure {
    name: &'static str,
    start: String,
}

impl Measure {
    /// Marks the start of `name`.
    fn start(name: &'static str) -> Measure {
        let start = format!("{name}-start");
        if let Some(p) = performance() {
            let _ = p.mark(&start);
        }
        Measure { name, start }
    }

    /// Marks its end.
    fn end(self) {
        if let Some(p) = performance() {
            let _ = p.measure_with_start_mark(self.name, &self.start);
        }
    }
}

/// Runs `work` in the measure `name`.
fn measured<T>(name: &'static str, work: impl FnOnce() -> T) -> T {
    let measure = Measure::start(name);
    let out = work();
    measure.end();
    out
}

fn performance() -> Option<web_sys::Performance> {
    web_sys::window().and_then(|w| w.performance())
}
