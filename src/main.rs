//! Browser entry point: Trunk builds this binary to wasm and the page loads it. It installs the
//! crash screen's panic hook first, then starts the app in two more tasks: the first makes its
//! state and starts the model's workers ([`Started`]), the next mounts its views and takes
//! over from the opening chart (`src/bin/opening_chart.rs`) if it drew. Each task is a first
//! run of much code, which V8 compiles as it goes: one task for both was the longest of a
//! phone's load.
//!
//! Both tasks are wrapped in `performance` marks (`lab:start` and `lab:mount` in the page's
//! performance timeline), so the page benchmark can tell the app's start-up from the
//! browser's.

use leptos::prelude::*;
use parallelism_lab::ui::{crash, opening_chart, Started};

fn main() {
    crash::install();
    let panic_asked = crash::panic_asked();
    // The module was compiled and started in this task: the app starts in a task of its own.
    gloo_timers::callback::Timeout::new(0, move || start(panic_asked)).forget();
}

/// Makes the app's state under an owner that lives as long as the page, then mounts its views
/// under the same owner in the next task (and panics after, if the link asked for it).
fn start(panic_asked: bool) {
    let started = measured("lab:start", || {
        // The state's effects are spawned on the executor, which the mount would set up only
        // in the next task. Already set up (never here) is no error.
        let _ = any_spawner::Executor::init_wasm_bindgen();
        let owner = Owner::new();
        let started = owner.with(|| Started::new(None, None));
        (owner, started)
    });
    gloo_timers::callback::Timeout::new(0, move || {
        mount(started);
        if panic_asked {
            crash::panic_soon();
        }
    })
    .forget();
}

fn mount((owner, started): (Owner, Started)) {
    measured("lab:mount", || {
        owner.with(|| {
            leptos::mount::mount_to_body(move || {
                view! { <parallelism_lab::ui::AppViews started=started /> }
            })
        });
        // In the same task, so no frame shows both: the opening chart's drawing goes
        // under the app's chart.
        opening_chart::hand_over();
    });
    // The state's owner holds the app's signals and workers: it lives as long as the page.
    std::mem::forget(owner);
}

/// Runs `work` between the marks `{name}-start` and `{name}`.
fn measured<T>(name: &str, work: impl FnOnce() -> T) -> T {
    let performance = web_sys::window().and_then(|w| w.performance());
    let start = format!("{name}-start");
    if let Some(p) = &performance {
        let _ = p.mark(&start);
    }
    let out = work();
    if let Some(p) = &performance {
        let _ = p.measure_with_start_mark(name, &start);
    }
    out
}
