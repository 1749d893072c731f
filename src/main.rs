//! Browser entry point: Trunk builds this binary to wasm and the page loads it. It installs the
//! crash screen's panic hook first, then mounts the app in the next task, which takes over
//! from the opening chart (`src/bin/opening_chart.rs`) if it drew.
//!
//! The mount is wrapped in `performance` marks (`lab:mount` in the page's performance
//! timeline), so the page benchmark can tell the app's start-up from the browser's.

use leptos::prelude::*;

fn main() {
    parallelism_lab::ui::crash::install();
    // The module was compiled and started in this task: the app mounts in a task of its own.
    gloo_timers::callback::Timeout::new(0, mount).forget();
}

fn mount() {
    let performance = web_sys::window().and_then(|w| w.performance());
    if let Some(p) = &performance {
        let _ = p.mark("lab:mount-start");
    }
    leptos::mount::mount_to_body(|| view! { <parallelism_lab::ui::App /> });
    // In the same task, so no frame shows both: the opening chart's drawing goes
    // under the app's chart.
    parallelism_lab::ui::opening_chart::hand_over();
    if let Some(p) = &performance {
        let _ = p.measure_with_start_mark("lab:mount", "lab:mount-start");
    }
    parallelism_lab::ui::crash::panic_if_asked();
}
