//! Workloads (issue 23), in the desktop window at full speed:
//! - the rate slider: [`PRESSES_PER_LEG`] key presses down from 200,000 IOPS and as many back
//!   up, each waiting until the rate view's two charts are drawn for it with every point
//!   estimated; the median and p95 delay from the key press to the charts on the screen
//!   redrawn, to both redrawn and to every point estimated (the same stamps as the queue-depth
//!   slider's, so the two compare), and the long tasks while pressing;
//! - the Light desktop workload on one drive (the 128 GB Octane, fresh; a pin that is the view
//!   itself leaves one drive to compare): the time from the replay asked to its result, as the
//!   page stamps them, and the page's long tasks meanwhile (the replay runs in a worker).
//!
//! A build without the workload views (an older `PAGE_BENCH_BEFORE`) reports "n/a".

use crate::common::cdp::{Chrome, Device};
use crate::common::{Context, Result, StaticServer};
use crate::desktop::{now, press_the_slider, KEY_STAMP};
use crate::lab::{self, TaskSummary, INSTRUMENT};
use crate::phone::report_failed_requests;
use crate::report::{self, quantile, Section, Unit};
use crate::{Build, MOUNT};
use fantoccini::key::Key;
use serde_json::json;
use std::time::Duration;

/// Key presses per leg.
const PRESSES_PER_LEG: usize = 6;
/// The rate view's charts.
const RATE_CHARTS: &[&str] = &["chart-load", "chart-carried"];
/// Longest wait for a view, and for a replay.
const TIMEOUT: Duration = Duration::from_secs(120);
const POLL: Duration = Duration::from_millis(25);
/// The 128 GB Octane, fresh, replaying Light, compared with itself only.
const LIGHT_ON_ONE_DRIVE: &str = "?preset=octane&cap=128&workload=trace&trace=desktop-light&state=fob&compare=octane.16.randread.4k.fob";

/// Null until the trace figure has a result; then when the replay was asked and when its
/// result arrived (the page's own stamps, ms since navigation).
const REPLAY_PROBE: &str = r##"
    const f = document.getElementById("figure-trace");
    if (!f || !f.dataset.doneAt) return null;
    return { started: Number(f.dataset.startedAt), done: Number(f.dataset.doneAt),
             rows: document.querySelectorAll("#trace-table tbody tr").length };
"##;

/// One build's figures (`None`: the build has no workload views).
pub struct WorkloadsRun {
    rate: Option<RateFigures>,
    light: Option<LightFigures>,
}

struct RateFigures {
    on_screen: Vec<f64>,
    redrawn: Vec<f64>,
    estimated: Vec<f64>,
    pressing: Option<TaskSummary>,
}

struct LightFigures {
    replay_ms: f64,
    drives: u64,
    tasks: Option<TaskSummary>,
}

/// One run per build, in order.
pub async fn measure(builds: &[Build]) -> Result<Vec<WorkloadsRun>> {
    lab::one_run_each(builds, "workloads", run).await
}

async fn has(chrome: &Chrome, id: &str) -> Result<bool> {
    let found = chrome
        .js(
            "return !!document.getElementById(arguments[0]);",
            vec![json!(id)],
        )
        .await?;
    Ok(found == json!(true))
}

/// Waits until every part of the page has mounted (an older build's too), so a missing view
/// is missing, not late.
async fn mounted(chrome: &Chrome) -> Result {
    chrome
        .wait_for("the page to mount", TIMEOUT, POLL, || async {
            let v = chrome
                .js(
                    "return document.documentElement.hasAttribute('data-mounted') || null;",
                    vec![],
                )
                .await?;
            Ok((!v.is_null()).then_some(()))
        })
        .await
}

async fn run(build: &Build) -> Result<WorkloadsRun> {
    let server =
        StaticServer::start(&build.dist, MOUNT).context("cannot start the static server")?;
    let chrome = Chrome::start(Device::Desktop).await?;
    chrome.run_on_every_document(INSTRUMENT)?;
    let what = format!("workloads of {}", build.name);

    chrome.goto(&server.url("?workload=rate&qd=32")).await?;
    mounted(&chrome).await?;
    let rate = match has(&chrome, "chart-load").await? {
        true => {
            lab::wait_for_load(&chrome, RATE_CHARTS, &what, TIMEOUT).await?;
            chrome.js(KEY_STAMP, vec![json!("rate")]).await?;
            let from = now(&chrome).await?;
            let (left, right) = (Key::Left.to_string(), Key::Right.to_string());
            let legs = [(left.as_str(), "down"), (right.as_str(), "up")];
            let presses =
                press_the_slider(&chrome, "rate", &legs, PRESSES_PER_LEG, RATE_CHARTS).await?;
            let tasks = lab::long_tasks(&chrome).await?;
            Some(RateFigures {
                on_screen: presses.on_screen,
                redrawn: presses.redrawn,
                estimated: presses.estimated,
                pressing: tasks.map(|t| TaskSummary::of(&t, from, f64::INFINITY)),
            })
        }
        false => None,
    };

    chrome.goto(&server.url(LIGHT_ON_ONE_DRIVE)).await?;
    mounted(&chrome).await?;
    let light = if has(&chrome, "figure-trace").await? {
        let v = chrome
            .wait_for("the Light replay", TIMEOUT, POLL, || async {
                let v = chrome.js(REPLAY_PROBE, vec![]).await?;
                Ok((!v.is_null()).then_some(v))
            })
            .await?;
        let (started, done) = (
            v["started"].as_f64().unwrap_or(f64::NAN),
            v["done"].as_f64().unwrap_or(f64::NAN),
        );
        let tasks = lab::long_tasks(&chrome).await?;
        Some(LightFigures {
            replay_ms: done - started,
            drives: v["rows"].as_u64().unwrap_or(0),
            tasks: tasks.map(|t| TaskSummary::of(&t, started, done)),
        })
    } else {
        None
    };
    lab::report_console(&chrome, &what);
    chrome.close().await?;
    report_failed_requests(&server, &what);
    Ok(WorkloadsRun { rate, light })
}

/// The table, one column per build.
pub fn section(_builds: &[Build], runs: &[WorkloadsRun]) -> Section {
    let mut s = Section::new(format!(
        "workloads, desktop 1200 x 800, full speed: {} rate key presses (200,000 IOPS down and back), then Light on one drive",
        2 * PRESSES_PER_LEG
    ));
    let na = || "n/a (no such view)".to_string();
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
    let rate = |f: &dyn Fn(&RateFigures) -> String| {
        runs.iter()
            .map(|r| r.rate.as_ref().map_or_else(na, f))
            .collect::<Vec<_>>()
    };
    let light = |f: &dyn Fn(&LightFigures) -> String| {
        runs.iter()
            .map(|r| r.light.as_ref().map_or_else(na, f))
            .collect::<Vec<_>>()
    };
    s.row(
        "rate: input -> the charts on the screen redrawn",
        rate(&|r| stats(&r.on_screen)),
    );
    s.row(
        "rate: input -> both charts redrawn",
        rate(&|r| stats(&r.redrawn)),
    );
    s.row(
        "rate: input -> every point estimated",
        rate(&|r| stats(&r.estimated)),
    );
    s.row(
        "rate: long tasks while pressing",
        rate(&|r| tasks(r.pressing)),
    );
    s.row(
        "Light desktop workload: asked -> result",
        light(&|l| format!("{} on {} drive(s)", Unit::Ms.of(l.replay_ms), l.drives)),
    );
    s.row("  long tasks meanwhile", light(&|l| tasks(l.tasks)));
    s
}
