//! An article with three one-chart embeds, on the phone at CPU 4x: `tests/fixtures/
//! embed-article.html` (three frames of the Embed button's snippet, `embed=1&charts=...`)
//! served from one port, its frames pointing at the app served from another port (two
//! [`StaticServer`]s), as an author's blog frames a hosted copy. Every frame runs the whole lab
//! (its own model plan, whatever chart it shows), and frames of the same site share the
//! article's renderer and, in Chromium, its main thread: readers feel that as a page that
//! scrolls and types late.
//!
//! Prints, per frame, the time from the article's navigation until its model has every point
//! estimated and every point computed (the frame's `#model-status`, see [`crate::lab`], moved
//! onto the article's clock with `performance.timeOrigin`), and the long tasks seen by the
//! observer installed in the article's own document. Not the frames' chart stamps: Chromium
//! does not render an off-screen cross-origin frame, so the frames below the fold draw their
//! charts only when scrolled to. One cold load per build.

use crate::common::cdp::{Chrome, Device};
use crate::common::{Context, Failure, Result, StaticServer};
use crate::lab::{self, ModelTimes, TaskSummary, INSTRUMENT, POLL};
use crate::phone::{report_failed_requests, CPU_SLOWDOWN};
use crate::report::{self, Section, Unit};
use crate::{Build, MOUNT};
use serde_json::json;
use std::time::Duration;

/// The fixture page.
const ARTICLE: &str = "embed-article.html";
/// The article's frames in page order: the chart each shows (as its `charts=` says).
const FRAMES: &[&str] = &["chart-iops", "chart-latency", "chart-mix"];
/// Longest wait for every frame to have every point computed (about 20 s a frame at 4x).
const TIMEOUT: Duration = Duration::from_secs(360);

/// `arguments[0]`: a chart id. What a frame shows, for a timeout's message.
const FRAME_STATUS: &str = r#"
    const chart = document.getElementById(arguments[0]);
    const status = document.getElementById("model-status");
    return {
        url: location.href,
        status: status ? status.textContent : null,
        chart: chart ? { state: chart.dataset.state, completeAt: chart.dataset.completeAt } : null,
    };
"#;

/// One frame's model times on the article's clock (ms since the article's navigation).
pub struct FrameTimes {
    estimated: f64,
    computed: f64,
    /// Whether `computed` is the page's `data-computed-at` (else the status text).
    stamped: bool,
}

/// One cold load of the article.
pub struct ArticleRun {
    frames: Vec<FrameTimes>,
    tasks: Option<TaskSummary>,
    /// The attributions of the article's long tasks (`cross-origin-descendant`: a frame's).
    attributions: Vec<String>,
}

/// One run per build, in order.
pub async fn measure(builds: &[Build]) -> Result<Vec<ArticleRun>> {
    lab::one_run_each(builds, "article with 3 embeds", run).await
}

async fn run(build: &Build) -> Result<ArticleRun> {
    let app = StaticServer::start(&build.dist, MOUNT).context("cannot start the app's server")?;
    // The blog: another port, so another origin. It serves the fixtures; its root is unused.
    let blog =
        StaticServer::start(&build.dist, "/blog/").context("cannot start the blog's server")?;
    let url = format!("{}#{}", blog.fixture_url(ARTICLE), app.url(""));
    let chrome = Chrome::start(Device::Phone).await?;
    chrome.run_on_every_document(INSTRUMENT)?;
    chrome.throttle_cpu(CPU_SLOWDOWN)?;
    chrome.goto(&url).await?;
    let origin = chrome.js("return performance.timeOrigin;", vec![]).await?;
    let origin = origin.as_f64().context("performance.timeOrigin")?;

    let loads = wait_for_frames(&chrome, &build.name).await?;
    let frames = loads
        .iter()
        .map(|l| {
            let shift = l.time_origin - origin;
            FrameTimes {
                estimated: l.estimated + shift,
                computed: l.computed + shift,
                stamped: l.computed_from == "data-computed-at",
            }
        })
        .collect();
    let tasks = lab::long_tasks(&chrome).await?;
    let mut attributions: Vec<String> = tasks.iter().flatten().map(|t| t.name.clone()).collect();
    attributions.sort();
    attributions.dedup();
    let what = format!("article of {}", build.name);
    lab::report_console(&chrome, &what);
    chrome.close().await?;
    report_failed_requests(&app, &what);
    report_failed_requests(&blog, &what);
    Ok(ArticleRun {
        frames,
        tasks: tasks.map(|t| TaskSummary::of(&t, f64::NEG_INFINITY, f64::INFINITY)),
        attributions,
    })
}

/// Polls each frame in turn until every one's model has every point estimated and computed.
async fn wait_for_frames(chrome: &Chrome, build: &str) -> Result<Vec<ModelTimes>> {
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    let mut loads: Vec<Option<ModelTimes>> = FRAMES.iter().map(|_| None).collect();
    while loads.iter().any(Option::is_none) {
        for (i, load) in loads.iter_mut().enumerate() {
            if load.is_none() {
                chrome.enter_frame(i as u16).await?;
                *load = lab::probe_model(chrome).await?;
                chrome.leave_frame().await?;
            }
        }
        if tokio::time::Instant::now() > deadline {
            let mut waiting = Vec::new();
            for (i, chart) in FRAMES
                .iter()
                .enumerate()
                .filter(|(i, _)| loads[*i].is_none())
            {
                chrome.enter_frame(i as u16).await?;
                let seen = chrome.js(FRAME_STATUS, vec![json!(chart)]).await?;
                chrome.leave_frame().await?;
                waiting.push(format!("frame {} ({chart}): {seen}", i + 1));
            }
            return Err(Failure::new(format!(
                "{build}: after {TIMEOUT:?} these frames of the article have not computed every point:\n{}\nconsole: {:#?}",
                waiting.join("\n"),
                chrome.console()
            )));
        }
        tokio::time::sleep(POLL).await;
    }
    Ok(loads.into_iter().flatten().collect())
}

/// The table, one column per build.
pub fn section(builds: &[Build], runs: &[ArticleRun]) -> Section {
    let mut s = Section::new(format!(
        "article with 3 one-chart embeds (another origin), phone, CPU {CPU_SLOWDOWN}x, ms since the article's navigation"
    ));
    for (i, chart) in FRAMES.iter().enumerate() {
        let col = |f: &dyn Fn(&FrameTimes) -> f64| {
            runs.iter().map(|r| Unit::Ms.of(f(&r.frames[i]))).collect()
        };
        let n = i + 1;
        s.row(
            format!("frame {n} ({chart}): every point estimated"),
            col(&|f| f.estimated),
        );
        s.row(
            format!("frame {n}: every point computed"),
            col(&|f| f.computed),
        );
    }
    let tasks = |r: &ArticleRun| match r.tasks {
        Some(t) => report::tasks(t.count, t.longest),
        None => "n/a (no longtask API)".into(),
    };
    s.row(
        "long tasks on the article's main thread",
        runs.iter().map(tasks).collect(),
    );
    s.note(
        "estimated and computed are the frame's model (its #model-status): Chromium draws no \
         off-screen cross-origin frame, so the frames below the fold draw their charts when scrolled to",
    );
    for (build, run) in builds.iter().zip(runs) {
        if run.frames.iter().any(|f| !f.stamped) {
            s.note(format!(
                "{}: no data-computed-at on #model-status; \"computed\" is when its text first read \"all N points computed\"",
                build.name
            ));
        }
        if !run.attributions.is_empty() {
            s.note(format!(
                "{}: the article's long tasks are attributed to: {}",
                build.name,
                run.attributions.join(", ")
            ));
        }
    }
    s
}
