//! Phone, CPU 4x: the default view opened cold on an emulated 390 x 844 phone (pixel ratio 3,
//! mobile user agent) with DevTools' CPU throttling at 4x set before navigation, the usual
//! stand-in for a mid-range phone. A reader who follows a link on a phone waits for this.
//! The throttling slows the page's thread, not its model workers: Chromium refuses it for a
//! worker ("Operation is only supported for pages, not workers", Chromium 156), so the
//! model's share of a real phone's load is larger than here.
//!
//! Each run is a new browser (nothing cached; the server sends `no-store` anyway) and prints,
//! in ms since navigation: the first chart drawn, every point of the IOPS chart (on the first
//! screen) and of the view estimated, every point computed in full, and the main thread's long
//! tasks until then. Then a burst of key
//! presses on the queue-depth slider (a reader holding an arrow key): the long tasks from the
//! first press until the last state has every point estimated, and how long that took. The
//! first run of each build also records what was fetched before the first chart
//! ([`crate::download`]).

use crate::common::cdp::{Chrome, Device, PHONE_VIEWPORT};
use crate::common::{Context, Failure, Result, StaticServer};
use crate::download::{self, Fetched};
use crate::lab::{self, Load, TaskSummary, DEFAULT_CHARTS, INSTRUMENT, POLL};
use crate::report::{median_range, Section, Unit};
use crate::{Build, MOUNT};
use fantoccini::key::Key;
use fantoccini::Locator;
use serde_json::json;
use std::time::Duration;

/// Cold loads per build (each figure prints their median and range). Five: the count of long
/// tasks while loading moves by one or two from load to load on this two-core machine, and three
/// loads' median did not tell builds apart that a probe of six loads each did.
pub const RUNS: usize = 5;
/// DevTools' CPU slowdown.
pub const CPU_SLOWDOWN: f64 = 4.0;
/// Longest wait for a load to have every point computed (about 10 s at 4x on 2 cores).
pub const LOAD_TIMEOUT: Duration = Duration::from_secs(240);
/// Longest wait for the burst's last state to have every point estimated.
const BURST_TIMEOUT: Duration = Duration::from_secs(120);
/// The burst: from the default QD 32, five presses up (to 1024, the top) then seven down,
/// sent as one WebDriver key sequence so they arrive as fast as a held key repeats.
const BURST_UP: usize = 5;
const BURST_DOWN: usize = 7;
/// Where the burst ends (32 -> 1024 -> 8).
const BURST_END_IODEPTH: &str = "8";

/// `arguments`: chart ids, the final depth. Null until the URL has that depth and every chart
/// shows it with every point estimated; then when the last chart got there.
const BURST_PROBE: &str = r#"
    const [ids, qd] = arguments;
    if (new URLSearchParams(location.search).get("qd") !== qd) return null;
    const charts = ids.map((id) => document.getElementById(id));
    const state = location.search.slice(1);
    if (!charts.every((c) => c && c.dataset.state === state && c.dataset.completeAt)) return null;
    return Math.max(...charts.map((c) => Number(c.dataset.completeAt)));
"#;

/// One cold load and its burst.
pub struct PhoneRun {
    pub load: Load,
    /// Long tasks from navigation until every point was computed (`None`: no longtask API).
    pub load_tasks: Option<TaskSummary>,
    /// Long tasks from the burst's first press until its last state was estimated.
    pub burst_tasks: Option<TaskSummary>,
    /// From the first press to the last state with every point estimated.
    pub burst_settled: f64,
    /// The JS and wasm fetched before the first chart (first run of each build only).
    pub fetched: Option<Fetched>,
    /// The load's long tasks among the page's own marks, in words (first run only).
    pub timeline: Option<String>,
}

/// [`RUNS`] cold loads of each build, interleaved run by run so a drift in the machine's
/// speed hits every build alike. Returns the runs per build.
pub async fn measure(builds: &[Build]) -> Result<Vec<Vec<PhoneRun>>> {
    lab::interleaved(builds, RUNS, "phone 4x", async |build, i| {
        run(build, i == 0).await
    })
    .await
}

/// The build served and a phone's Chrome (CPU 4x) with the benchmark's instrument, not yet
/// on a page: where every section on the phone starts.
pub async fn open(build: &Build) -> Result<(StaticServer, Chrome)> {
    let server =
        StaticServer::start(&build.dist, MOUNT).context("cannot start the static server")?;
    let chrome = Chrome::start(Device::Phone).await?;
    chrome.run_on_every_document(INSTRUMENT)?;
    chrome.throttle_cpu(CPU_SLOWDOWN)?;
    Ok((server, chrome))
}

/// One cold load on the phone, then the burst.
async fn run(build: &Build, record_fetches: bool) -> Result<PhoneRun> {
    let (server, chrome) = open(build).await?;
    chrome.goto(&server.url("")).await?;
    let what = format!("phone 4x load of {}", build.name);
    let load = lab::wait_for_load(&chrome, DEFAULT_CHARTS, &what, LOAD_TIMEOUT).await?;
    check_viewport(&load)?;
    let fetched = if record_fetches {
        Some(download::fetched_before(&chrome, &server, &build.dist, &load).await?)
    } else {
        None
    };
    let tasks = lab::long_tasks(&chrome).await?;
    let load_tasks = tasks
        .as_ref()
        .map(|t| TaskSummary::of(t, f64::NEG_INFINITY, load.computed));
    let timeline = match (&tasks, record_fetches) {
        (Some(t), true) => Some(lab::timeline(&chrome, t, load.computed).await?),
        _ => None,
    };

    let (from, to) = burst(&chrome).await?;
    let tasks = lab::long_tasks(&chrome).await?;
    let burst_tasks = tasks.as_ref().map(|t| TaskSummary::of(t, from, to));
    lab::report_console(&chrome, &what);
    chrome.close().await?;
    report_failed_requests(&server, &what);
    Ok(PhoneRun {
        load,
        load_tasks,
        burst_tasks,
        burst_settled: to - from,
        fetched,
        timeline,
    })
}

/// The emulation took: the page saw the phone's width and pixel ratio.
pub fn check_viewport(load: &Load) -> Result {
    let (width, _, ratio) = PHONE_VIEWPORT;
    let (w, _, r) = load.viewport;
    if w == f64::from(width) && r == ratio {
        return Ok(());
    }
    Err(Failure::new(format!(
        "phone emulation did not apply: the page saw {w} CSS px at ratio {r}, not {width} at {ratio}"
    )))
}

/// Presses the queue-depth slider [`BURST_UP`] times up and [`BURST_DOWN`] times down in one
/// go; returns when the presses began and when the last state had every point estimated
/// (both ms since navigation).
pub async fn burst(chrome: &Chrome) -> Result<(f64, f64)> {
    let keys = Key::Right.to_string().repeat(BURST_UP) + &Key::Left.to_string().repeat(BURST_DOWN);
    let slider = chrome
        .client
        .find(Locator::Id("qd"))
        .await
        .context("the #qd slider")?;
    let from = chrome.js("return performance.now();", vec![]).await?;
    let from = from.as_f64().context("performance.now()")?;
    slider
        .send_keys(&keys)
        .await
        .context("key presses on #qd")?;
    let what =
        format!("the burst's last state (qd={BURST_END_IODEPTH}) with every point estimated");
    let to = chrome
        .wait_for(&what, BURST_TIMEOUT, POLL, || async {
            let args = vec![json!(DEFAULT_CHARTS), json!(BURST_END_IODEPTH)];
            Ok(chrome.js(BURST_PROBE, args).await?.as_f64())
        })
        .await?;
    Ok((from, to))
}

/// Prints the requests the server could not answer (a missing file skews every figure).
pub fn report_failed_requests(server: &StaticServer, what: &str) {
    for failed in server.failed() {
        eprintln!("request failed ({what}): {} {}", failed.status, failed.path);
    }
}

/// The table: each figure's median and range over the runs, per build.
pub fn section(builds: &[Build], runs: &[Vec<PhoneRun>]) -> Section {
    let (w, h, r) = PHONE_VIEWPORT;
    let mut s = Section::new(format!(
        "phone {w} x {h} (ratio {r}), CPU {CPU_SLOWDOWN}x, default view, {RUNS} cold loads: median (range)"
    ));
    let figure = |f: &dyn Fn(&PhoneRun) -> Option<f64>, unit: Unit| -> Vec<String> {
        let per_build = runs.iter().map(|build_runs| {
            let v: Vec<f64> = build_runs.iter().filter_map(f).collect();
            if v.is_empty() {
                "n/a (no longtask API)".to_string()
            } else {
                median_range(&v, unit)
            }
        });
        per_build.collect()
    };
    let count = |t: Option<TaskSummary>| t.map(|t| t.count as f64);
    let longest = |t: Option<TaskSummary>| t.map(|t| t.longest);
    s.row(
        "first chart drawn (since navigation)",
        figure(&|r| Some(r.load.first_chart), Unit::Ms),
    );
    s.row(
        "the IOPS chart (first screen): every point estimated",
        figure(&|r| Some(r.load.first_listed_estimated), Unit::Ms),
    );
    s.row(
        "every point estimated",
        figure(&|r| Some(r.load.estimated), Unit::Ms),
    );
    s.row(
        "every point computed (full runs)",
        figure(&|r| Some(r.load.computed), Unit::Ms),
    );
    s.row(
        "long tasks (> 50 ms) while loading",
        figure(&|r| count(r.load_tasks), Unit::Count),
    );
    s.row("  longest", figure(&|r| longest(r.load_tasks), Unit::Ms));
    let presses = BURST_UP + BURST_DOWN;
    s.row(
        format!("burst of {presses} qd key presses -> last state estimated"),
        figure(&|r| Some(r.burst_settled), Unit::Ms),
    );
    s.row(
        "long tasks (> 50 ms) in the burst",
        figure(&|r| count(r.burst_tasks), Unit::Count),
    );
    s.row("  longest", figure(&|r| longest(r.burst_tasks), Unit::Ms));
    note_computed_source(&mut s, builds, runs);
    for (build, build_runs) in builds.iter().zip(runs) {
        if let Some(t) = build_runs.first().and_then(|r| r.timeline.as_ref()) {
            s.note(format!(
                "{}, first load: long tasks (start+duration, ms) and the page's marks: {t}",
                build.name
            ));
        }
    }
    s
}

/// Says where "every point computed" was read, when a build lacks the page's own stamp.
fn note_computed_source(s: &mut Section, builds: &[Build], runs: &[Vec<PhoneRun>]) {
    for (build, build_runs) in builds.iter().zip(runs) {
        if build_runs
            .iter()
            .any(|r| r.load.computed_from != "data-computed-at")
        {
            s.note(format!(
                "{}: no data-computed-at on #model-status; \"computed\" is when its text first read \"all N points computed\"",
                build.name
            ));
        }
    }
}
