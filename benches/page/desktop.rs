//! Desktop (as the benchmark has always run): the 1200 x 800 headless window at full speed,
//! `?iodepth=1`. It presses the queue-depth slider [`PRESSES_PER_LEG`] times in each of three legs
//! (up from QD 1 to 1024, down again, then fine Shift steps up), waiting for each press to be
//! drawn, and prints the median and p95 time from the key press to
//! - the first redraw of the charts on the screen for the new state (what the reader sees),
//! - the first redraw of every chart for the new state ("redrawn"), and
//! - the first redraw in which every point of every chart has at least a model estimate
//!   ("estimated"),
//!
//! and, at each press, the sum of every chart's last drawing's time (all of them drawn once),
//! plus the long tasks while pressing and while loading, the app's start-up, the longest single
//! chart drawing; then it switches to the drive over time and times its three charts to
//! complete (each model run sliced), with the long tasks meanwhile. One such run per build.
//!
//! The load's own figures (from navigation to the IOPS chart and to the first view with every
//! point estimated, and of it the model's own, from its first worker's `Ready`) vary by a
//! tenth and more from one cold load to the next on a two-core machine, so they are the
//! median and range of that run's load and [`EXTRA_LOADS`] more, interleaved between the
//! builds.

use crate::common::cdp::{Chrome, Device};
use crate::common::{Context, Result, StaticServer};
use crate::lab::{self, LongTask, TaskSummary, DEFAULT_CHARTS, INSTRUMENT};
use crate::phone::report_failed_requests;
use crate::report::{self, median_range, quantile, Section, Unit};
use crate::{Build, MOUNT};
use fantoccini::key::Key;
use fantoccini::Locator;
use serde_json::json;
use std::time::Duration;

/// Key presses per leg.
const PRESSES_PER_LEG: usize = 10;
/// Cold loads per build beside the run's own, for the load's figures.
const EXTRA_LOADS: usize = 6;
/// Longest wait for one press to be fully drawn.
const PRESS_TIMEOUT: Duration = Duration::from_secs(20);
/// Longest wait for the first view, and for the drive over time.
const LOAD_TIMEOUT: Duration = Duration::from_secs(120);
/// Poll interval between presses (short: each press waits for the previous one).
const PRESS_POLL: Duration = Duration::from_millis(25);

/// Records the time of every keydown on the slider `arguments[0]` (capture: before the page's
/// handler).
pub const KEY_STAMP: &str = r#"
    document.getElementById(arguments[0]).addEventListener(
        "keydown", () => { window.__bench.keyAt = performance.now(); }, { capture: true });
"#;

/// `arguments[0]`: chart ids. Null until every chart shows the URL's state with every point
/// estimated; then the delays since the last keydown: to the charts on the screen redrawn, to
/// every chart redrawn, and to every point estimated; and the sum of each chart's last
/// drawing's time (all of them drawn once for the state).
const PRESS_PROBE: &str = r#"
    const state = location.search.slice(1);
    const charts = arguments[0].map((id) => document.getElementById(id));
    if (!charts.every((c) => c && c.dataset.state === state && c.dataset.completeAt)) return null;
    const t0 = window.__bench.keyAt;
    const seen = charts.filter((c) => {
        const r = c.getBoundingClientRect();
        return r.bottom > 0 && r.top < window.innerHeight;
    });
    return {
        redrawn: Math.max(...charts.map((c) => Number(c.dataset.firstDrawnAt))) - t0,
        onScreen: Math.max(...seen.map((c) => Number(c.dataset.firstDrawnAt))) - t0,
        estimated: Math.max(...charts.map((c) => Number(c.dataset.completeAt))) - t0,
        drawing: charts.reduce((sum, c) => sum + Number(c.dataset.drawMs), 0),
    };
"#;

/// Null until the drive over time's three charts show the URL's state complete; then when.
const TIME_PROBE: &str = r#"
    const state = location.search.slice(1);
    const charts = ["chart-fill", "chart-burst", "chart-torture"].map((id) => document.getElementById(id));
    if (!charts.every((c) => c && c.dataset.state === state && c.dataset.missing === "0")) return null;
    return Math.max(...charts.map((c) => Number(c.dataset.drawnAt)));
"#;

/// What the page says of its own start-up and drawing.
const PAGE_NOTES: &str = r#"
    // The app's start in steps, each a task of its own (src/ui/start.rs; builds before
    // 2026-12-05 had only lab:start and lab:mount, before 2026-12-04 lab:mount alone).
    const steps = ["lab:start", "lab:model", "lab:follow", "lab:prepare", "lab:mount", "lab:results", "lab:charts", "lab:show", "lab:host", "lab:keep"];
    const parts = steps.flatMap((n) => performance.getEntriesByName(n));
    const first = (n) => performance.getEntriesByName(n)[0]?.startTime;
    return {
        mount: parts.length ? parts.reduce((sum, m) => sum + m.duration, 0) : null,
        model: first("lab:model-estimated") - first("lab:worker-0-ready"),
        draw: arguments[0].map((id) => id + " " + document.getElementById(id).dataset.drawMaxMs + " ms").join(", "),
    };
"#;

/// One desktop run's figures.
pub struct DesktopRun {
    presses: Presses,
    pressing: Option<TaskSummary>,
    loading: Option<TaskSummary>,
    load: DesktopLoad,
    mount: f64,
    longest_draw: String,
    time_view: f64,
    time_view_tasks: Option<TaskSummary>,
    /// The load's long tasks among the page's marks, in words.
    timeline: String,
}

/// A cold load's figures, in ms since navigation.
pub struct DesktopLoad {
    estimated: f64,
    /// The same for the IOPS chart (on the first screen).
    iops_estimated: f64,
    /// From the first worker's `Ready` to every point of the load's plan estimated: the
    /// model's own time, apart from the page's.
    model_estimated: f64,
}

/// One run per build, in order.
pub async fn measure(builds: &[Build]) -> Result<Vec<DesktopRun>> {
    lab::one_run_each(builds, "desktop", run).await
}

/// [`EXTRA_LOADS`] cold loads of each build, interleaved run by run.
pub async fn measure_loads(builds: &[Build]) -> Result<Vec<Vec<DesktopLoad>>> {
    lab::interleaved(builds, EXTRA_LOADS, "desktop loads", async |build, _| {
        let (server, chrome, load) = open(build).await?;
        chrome.close().await?;
        report_failed_requests(&server, &format!("desktop load of {}", build.name));
        Ok(load)
    })
    .await
}

/// A cold load of `build` in a browser of its own, instrumented, waited for until every point
/// is computed.
async fn open(build: &Build) -> Result<(StaticServer, Chrome, DesktopLoad)> {
    let server =
        StaticServer::start(&build.dist, MOUNT).context("cannot start the static server")?;
    let chrome = Chrome::start(Device::Desktop).await?;
    chrome.run_on_every_document(INSTRUMENT)?;
    chrome.goto(&server.url("?qd=1")).await?;
    let what = format!("desktop load of {}", build.name);
    let load = lab::wait_for_load(&chrome, DEFAULT_CHARTS, &what, LOAD_TIMEOUT).await?;
    let notes = chrome.js(PAGE_NOTES, vec![json!(DEFAULT_CHARTS)]).await?;
    let load = DesktopLoad {
        estimated: load.estimated,
        iops_estimated: load.first_listed_estimated,
        model_estimated: notes["model"].as_f64().unwrap_or(f64::NAN),
    };
    Ok((server, chrome, load))
}

async fn run(build: &Build) -> Result<DesktopRun> {
    let (server, chrome, load) = open(build).await?;
    let what = format!("desktop load of {}", build.name);
    chrome.js(KEY_STAMP, vec![json!("qd")]).await?;

    let presses_from = now(&chrome).await?;
    let right = Key::Right.to_string();
    let left = Key::Left.to_string();
    let shift_right = format!("{}{}", Key::Shift, Key::Right);
    let legs = [
        (right.as_str(), "up"),
        (left.as_str(), "down"),
        (shift_right.as_str(), "fine up"),
    ];
    let presses = press_the_slider(&chrome, "qd", &legs, PRESSES_PER_LEG, DEFAULT_CHARTS).await?;
    let tasks = lab::long_tasks(&chrome).await?;
    let notes = chrome.js(PAGE_NOTES, vec![json!(DEFAULT_CHARTS)]).await?;
    let timeline =
        lab::timeline(&chrome, tasks.as_deref().unwrap_or_default(), presses_from).await?;

    let switched_at = now(&chrome).await?;
    chrome
        .client
        .find(Locator::Id("view-time"))
        .await
        .context("the #view-time switch")?
        .click()
        .await
        .context("click #view-time")?;
    let done = chrome
        .wait_for(
            "the drive-over-time charts to be complete",
            LOAD_TIMEOUT,
            PRESS_POLL,
            || async { Ok(chrome.js(TIME_PROBE, vec![]).await?.as_f64()) },
        )
        .await?;
    let time_tasks = lab::long_tasks(&chrome).await?;
    lab::report_console(&chrome, &what);
    chrome.close().await?;
    report_failed_requests(&server, &what);

    let window = |t: &Option<Vec<LongTask>>, from: f64, to: f64| {
        t.as_ref().map(|t| TaskSummary::of(t, from, to))
    };
    Ok(DesktopRun {
        presses,
        pressing: window(&tasks, presses_from, f64::INFINITY),
        loading: window(&tasks, f64::NEG_INFINITY, presses_from),
        load,
        mount: notes["mount"].as_f64().unwrap_or(f64::NAN),
        longest_draw: notes["draw"].as_str().unwrap_or("n/a").to_string(),
        time_view: done - switched_at,
        time_view_tasks: window(&time_tasks, switched_at, f64::INFINITY),
        timeline,
    })
}

pub async fn now(chrome: &Chrome) -> Result<f64> {
    let v = chrome.js("return performance.now();", vec![]).await?;
    v.as_f64().context("performance.now()")
}

/// Each press's figures, in ms: the delays from the key press to the charts on the screen
/// redrawn, to every chart redrawn and to every point estimated, and the time all the charts
/// took to draw once (the sum of each one's last drawing).
#[derive(Default)]
pub struct Presses {
    pub on_screen: Vec<f64>,
    pub redrawn: Vec<f64>,
    pub estimated: Vec<f64>,
    pub drawing: Vec<f64>,
}

/// Presses the slider `id` `presses` times in each leg (its keys, its name) after
/// [`KEY_STAMP`] is installed on it, each press waiting until `charts` are drawn for it with
/// every point estimated.
pub async fn press_the_slider(
    chrome: &Chrome,
    id: &str,
    legs: &[(&str, &str)],
    presses: usize,
    charts: &[&str],
) -> Result<Presses> {
    let slider = chrome
        .client
        .find(Locator::Id(id))
        .await
        .with_context(|| format!("the #{id} slider"))?;
    let mut figures = Presses::default();
    for &(keys, leg) in legs {
        for i in 0..presses {
            let before = location_search(chrome).await?;
            slider
                .send_keys(keys)
                .await
                .context("key press on the slider")?;
            let what = format!("press {i} ({leg}) on #{id} to be drawn with every point estimated");
            let times = chrome
                .wait_for(&what, PRESS_TIMEOUT, PRESS_POLL, || async {
                    if location_search(chrome).await? == before {
                        return Ok(None);
                    }
                    let v = chrome.js(PRESS_PROBE, vec![json!(charts)]).await?;
                    Ok((!v.is_null()).then_some(v))
                })
                .await?;
            let ms = |name: &str| times[name].as_f64().unwrap_or(f64::NAN);
            figures.on_screen.push(ms("onScreen"));
            figures.redrawn.push(ms("redrawn"));
            figures.estimated.push(ms("estimated"));
            figures.drawing.push(ms("drawing"));
        }
    }
    Ok(figures)
}

async fn location_search(chrome: &Chrome) -> Result<String> {
    let v = chrome.js("return location.search;", vec![]).await?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

/// The table, one column per build; the load's figures over each build's run and its
/// `loads`.
pub fn section(builds: &[Build], runs: &[DesktopRun], loads: &[Vec<DesktopLoad>]) -> Section {
    let presses = runs.first().map_or(0, |r| r.presses.redrawn.len());
    let mut s = Section::new(format!(
        "desktop 1200 x 800, full speed, ?qd=1, {presses} queue-depth key presses (QD 1 -> 1024 -> 1, then Shift steps)"
    ));
    let col = |f: &dyn Fn(&DesktopRun) -> String| runs.iter().map(f).collect::<Vec<_>>();
    let stats = |v: &[f64]| {
        format!(
            "median {}, p95 {}, max {}",
            Unit::Ms.of(quantile(v, 0.5)),
            Unit::Ms.of(quantile(v, 0.95)),
            Unit::Ms.of(quantile(v, 1.0))
        )
    };
    let tasks = |t: Option<TaskSummary>| match t {
        Some(t) => report::tasks(t.count, t.longest),
        None => "n/a (no longtask API)".into(),
    };
    s.row(
        "input -> the charts on the screen redrawn",
        col(&|r| stats(&r.presses.on_screen)),
    );
    s.row(
        "input -> all charts redrawn",
        col(&|r| stats(&r.presses.redrawn)),
    );
    s.row(
        "input -> every point estimated",
        col(&|r| stats(&r.presses.estimated)),
    );
    s.row(
        "all charts drawn once (their last drawings)",
        col(&|r| stats(&r.presses.drawing)),
    );
    s.row("long tasks while pressing", col(&|r| tasks(r.pressing)));
    s.row("long tasks while loading", col(&|r| tasks(r.loading)));
    let of_loads = |f: &dyn Fn(&DesktopLoad) -> f64| {
        runs.iter()
            .zip(loads)
            .map(|(run, more)| {
                let v: Vec<f64> = std::iter::once(&run.load).chain(more).map(f).collect();
                median_range(&v, Unit::Ms)
            })
            .collect::<Vec<_>>()
    };
    let count = 1 + loads.first().map_or(0, Vec::len);
    s.row(
        format!(
            "load -> the IOPS chart (first screen) estimated, {count} cold loads: median (range)"
        ),
        of_loads(&|l| l.iops_estimated),
    );
    s.row("load -> every point estimated", of_loads(&|l| l.estimated));
    s.row(
        "  of it, the first worker ready -> every point estimated",
        of_loads(&|l| l.model_estimated),
    );
    s.row(
        "app start-up (the sum of its steps, each a task of its own)",
        col(&|r| Unit::Ms.of(r.mount)),
    );
    s.row(
        "switch to the drive over time -> 3 charts complete",
        col(&|r| Unit::Ms.of(r.time_view)),
    );
    s.row("  long tasks meanwhile", col(&|r| tasks(r.time_view_tasks)));
    for (build, run) in builds.iter().zip(runs) {
        s.note(format!(
            "{}: longest single chart drawing: {}",
            build.name, run.longest_draw
        ));
        s.note(format!(
            "{}, the load: long tasks (start+duration, ms) and the page's marks: {}",
            build.name, run.timeline
        ));
    }
    s
}
