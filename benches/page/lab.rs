//! What the benchmark reads from the lab's page, shared by every section:
//! - [`INSTRUMENT`], run in every document before its own scripts (so nothing of the load is
//!   missed): a `longtask` observer, and a fallback "every point computed" stamp for builds
//!   without the page's own;
//! - [`wait_for_load`]: the stamps of a first view (first chart drawn, every point estimated,
//!   every point computed), in ms since the document's navigation;
//! - [`long_tasks`] and [`TaskSummary`]: the main thread's long tasks (over 50 ms) in a window;
//! - [`one_run_each`]: a section's run of each build, in order; [`interleaved`]: several runs
//!   of each build, run by run.
//!
//! The stamps are the page's own, taken with `performance.now()` where the work happens, so
//! WebDriver's polling latency never counts:
//! - each chart's canvas carries `data-state` (the URL query drawn), `data-first-drawn-at`
//!   (its first drawing of that state) and `data-complete-at` (its first drawing of that state
//!   with every point at least estimated); see `src/ui/charts/canvas.rs`;
//! - `#model-status` carries `data-computed-at` once every point of the plan has its full
//!   result (`src/ui/app.rs`). Builds from before that attribute are read through the status
//!   line's text ("Model: all N points computed."), seen by a `MutationObserver` at once;
//!   the same observer notes when the line first leaves "estimating" (the model's "every
//!   point estimated", for frames whose charts are not drawn).

use crate::common::cdp::Chrome;
use crate::common::{Failure, Result};
use crate::Build;
use serde_json::{json, Value};
use std::time::Duration;

/// The charts of the default view (the queue-depth view), in page order.
pub const DEFAULT_CHARTS: &[&str] = &[
    "chart-iops",
    "chart-latency",
    "chart-mix",
    "chart-power",
    "chart-efficiency",
];

/// Poll interval while waiting for a page: the times are stamped by the page, so this only
/// bounds how soon a wait ends (and each poll costs the page's main thread a little).
pub const POLL: Duration = Duration::from_millis(200);

/// Installed in every document (`Page.addScriptToEvaluateOnNewDocument`), before its scripts.
pub const INSTRUMENT: &str = r#"
(() => {
    if (window.__bench) return;
    const bench = { longTasks: [], estimatedAt: null, computedAt: null, noLongTaskApi: false };
    Object.defineProperty(window, "__bench", { value: bench });
    try {
        new PerformanceObserver((list) => {
            for (const e of list.getEntries()) {
                bench.longTasks.push({ start: e.startTime, duration: e.duration, name: e.name });
            }
        }).observe({ type: "longtask", buffered: true });
    } catch (e) {
        bench.noLongTaskApi = true;
    }
    // The model status line's text: when every point is first estimated ("refining", or
    // straight to "all N computed"), and computed (for builds without data-computed-at).
    const estimated = /refining|all [1-9][0-9]* points computed/;
    const done = /all [1-9][0-9]* points computed/;
    const check = (status) => {
        const text = status.textContent;
        if (bench.estimatedAt === null && estimated.test(text)) bench.estimatedAt = performance.now();
        if (bench.computedAt === null && done.test(text)) bench.computedAt = performance.now();
    };
    const finder = new MutationObserver(() => {
        const status = document.getElementById("model-status");
        if (!status) return;
        finder.disconnect();
        check(status);
        new MutationObserver(() => check(status))
            .observe(status, { subtree: true, childList: true, characterData: true });
    });
    finder.observe(document, { childList: true, subtree: true });
})();
"#;

/// `arguments[0]`: chart ids. Null until each shows the URL's state with every point estimated
/// and every point is computed; then the stamps. The place in a tour, which the page writes
/// after the state (`&tour=ID&step=N`), is not the charts' to stamp.
const LOAD_PROBE: &str = r#"
    const charts = arguments[0].map((id) => document.getElementById(id));
    const state = location.search.slice(1).replace(/&?tour=[^&]*&step=[0-9]+$/, "");
    if (!charts.every((c) => c && c.dataset.state === state && c.dataset.completeAt)) return null;
    const status = document.getElementById("model-status");
    const attr = status ? status.dataset.computedAt : undefined;
    const computed = attr ? Number(attr) : (window.__bench || {}).computedAt;
    if (computed === null || computed === undefined) return null;
    return {
        firstChart: Math.min(
            ...performance.getEntriesByName("lab:opening-chart").map((m) => m.startTime),
            ...charts.map((c) => Number(c.dataset.firstDrawnAt)),
        ),
        estimated: Math.max(...charts.map((c) => Number(c.dataset.completeAt))),
        firstListedEstimated: Number(charts[0].dataset.completeAt),
        computed: computed,
        computedFrom: attr ? "data-computed-at" : "status text",
        timeOrigin: performance.timeOrigin,
        viewport: [innerWidth, innerHeight, devicePixelRatio],
    };
"#;

/// The stamps of a first view, in ms since its document's navigation.
#[derive(Clone, Debug)]
pub struct Load {
    /// The earliest first drawing of any of the charts, the opening chart's included (its
    /// `lab:opening-chart` performance mark: the app's chart takes its place).
    pub first_chart: f64,
    /// The last chart's first drawing with every point at least estimated.
    pub estimated: f64,
    /// The same for the first chart asked for (the IOPS chart, on the first screen).
    pub first_listed_estimated: f64,
    /// Every point of the plan computed in full.
    pub computed: f64,
    /// Where `computed` came from: the page's `data-computed-at` or the status text.
    pub computed_from: String,
    /// The document's `performance.timeOrigin` (ms since the Unix epoch).
    pub time_origin: f64,
    /// `innerWidth`, `innerHeight`, `devicePixelRatio`.
    pub viewport: (f64, f64, f64),
}

impl Load {
    fn from_probe(v: &Value) -> Load {
        let n = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
        let vp = |i: usize| v["viewport"][i].as_f64().unwrap_or(f64::NAN);
        Load {
            first_chart: n("firstChart"),
            estimated: n("estimated"),
            first_listed_estimated: n("firstListedEstimated"),
            computed: n("computed"),
            computed_from: v["computedFrom"].as_str().unwrap_or("?").to_string(),
            time_origin: n("timeOrigin"),
            viewport: (vp(0), vp(1), vp(2)),
        }
    }
}

/// The probe once, in the current frame: `Some` once `charts` are complete and computed.
pub async fn probe_load(chrome: &Chrome, charts: &[&str]) -> Result<Option<Load>> {
    let v = chrome.js(LOAD_PROBE, vec![json!(charts)]).await?;
    Ok((!v.is_null()).then(|| Load::from_probe(&v)))
}

/// Waits (at most `timeout`) until `charts` show the URL's state with every point estimated
/// and every point is computed, and returns the stamps.
pub async fn wait_for_load(
    chrome: &Chrome,
    charts: &[&str],
    what: &str,
    timeout: Duration,
) -> Result<Load> {
    let what = format!(
        "{what}: {} with every point estimated and computed",
        charts.join(", ")
    );
    chrome
        .wait_for(&what, timeout, POLL, || probe_load(chrome, charts))
        .await
}

/// Runs `run` once for each build, in order, saying on stderr which section and build it is at;
/// stops at the first run that fails.
pub async fn one_run_each<R>(
    builds: &[Build],
    section: &str,
    run: impl AsyncFn(&Build) -> Result<R>,
) -> Result<Vec<R>> {
    let mut runs = Vec::with_capacity(builds.len());
    for build in builds {
        eprintln!("{section}: {}", build.name);
        runs.push(run(build).await?);
    }
    Ok(runs)
}

/// Runs `run` `times` for each build, interleaved run by run (the first run of every build,
/// then the second, ...), so a drift in the machine's speed hits every build alike; `run` is
/// told which run it is (0-based). Returns the runs per build, in `builds`' order; stops at the
/// first run that fails.
pub async fn interleaved<R>(
    builds: &[Build],
    times: usize,
    section: &str,
    run: impl AsyncFn(&Build, usize) -> Result<R>,
) -> Result<Vec<Vec<R>>> {
    let mut runs: Vec<Vec<R>> = builds.iter().map(|_| Vec::with_capacity(times)).collect();
    for i in 0..times {
        for (build, build_runs) in builds.iter().zip(&mut runs) {
            eprintln!("{section}: {} run {}/{times}", build.name, i + 1);
            build_runs.push(run(build, i).await?);
        }
    }
    Ok(runs)
}

/// One main-thread long task, as the `longtask` observer saw it.
#[derive(Clone, Debug)]
pub struct LongTask {
    /// Start, ms since navigation.
    pub start: f64,
    pub duration: f64,
    /// Its attribution (`self`, `cross-origin-descendant`, ...).
    pub name: String,
}

/// Every long task of the current document so far; `None` where the browser has no
/// `longtask` entries.
pub async fn long_tasks(chrome: &Chrome) -> Result<Option<Vec<LongTask>>> {
    // Let the observer's last entries arrive (they are delivered after the task).
    tokio::time::sleep(Duration::from_millis(100)).await;
    let v = chrome.js("return window.__bench || null;", vec![]).await?;
    if v.is_null() {
        return Err(Failure::new(
            "the page has no window.__bench: the instrument script did not run",
        ));
    }
    if v["noLongTaskApi"] == json!(true) {
        return Ok(None);
    }
    let tasks = v["longTasks"].as_array().cloned().unwrap_or_default();
    Ok(Some(
        tasks
            .iter()
            .map(|t| LongTask {
                start: t["start"].as_f64().unwrap_or(f64::NAN),
                duration: t["duration"].as_f64().unwrap_or(f64::NAN),
                name: t["name"].as_str().unwrap_or("").to_string(),
            })
            .collect(),
    ))
}

/// How many long tasks started in a window, and the longest.
#[derive(Clone, Copy, Debug, Default)]
pub struct TaskSummary {
    pub count: usize,
    pub longest: f64,
}

impl TaskSummary {
    /// The tasks of `tasks` that started in `from..to` (ms since navigation).
    pub fn of(tasks: &[LongTask], from: f64, to: f64) -> TaskSummary {
        let inside = tasks.iter().filter(|t| t.start >= from && t.start < to);
        inside.fold(TaskSummary::default(), |s, t| TaskSummary {
            count: s.count + 1,
            longest: s.longest.max(t.duration),
        })
    }
}

/// Checks the page's console had no errors or warnings; prints them otherwise (a benchmark
/// reports, it does not fail on the page's behaviour).
pub fn report_console(chrome: &Chrome, what: &str) {
    for e in chrome.console_problems() {
        eprintln!("console ({what}): {} {}: {}", e.level, e.source, e.message);
    }
}

/// The page's own marks and measures (`lab:*`), as `[name, start, duration]`.
const MARKS: &str = r#"
    return performance.getEntries()
        .filter((e) => (e.entryType === "mark" || e.entryType === "measure")
            && e.name.startsWith("lab:"))
        .map((e) => [e.name, e.startTime, e.duration]);
"#;

/// Where the long tasks before `until` fell among the page's marks (the opening chart drawn,
/// the app's mount, the workers ready, the model's estimates): "task START+DURATION", in
/// order, each mark in its place.
pub async fn timeline(chrome: &Chrome, tasks: &[LongTask], until: f64) -> Result<String> {
    let marks = chrome.js(MARKS, vec![]).await?;
    let mut events: Vec<(f64, String)> = tasks
        .iter()
        .filter(|t| t.start < until)
        .map(|t| (t.start, format!("task {:.0}+{:.0}", t.start, t.duration)))
        .collect();
    for m in marks.as_array().into_iter().flatten() {
        let (name, start, duration) = (
            m[0].as_str().unwrap_or("?"),
            m[1].as_f64().unwrap_or(f64::NAN),
            m[2].as_f64().unwrap_or(0.0),
        );
        let text = if duration > 0.0 {
            format!("{name} {start:.0}+{duration:.0}")
        } else {
            format!("{name} {start:.0}")
        };
        if start < until {
            events.push((start, text));
        }
    }
    events.sort_by(|a, b| a.0.total_cmp(&b.0));
    let words: Vec<String> = events.into_iter().map(|(_, w)| w).collect();
    Ok(words.join(", "))
}
