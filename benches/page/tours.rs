//! A tour's step from a link against the same state from a plain link, each opened cold on the
//! phone (CPU 4x), interleaved: a teacher's link to a step (`?tour=qd1-reads&step=2`) must
//! open as fast as the lab does (the budget of issue 57). The step names no state of its own
//! in the link, so the page reads the built-in tour before it knows what to compute; the plain
//! link is that step's state written out.
//!
//! And drawing a guess (issue 57's other budget: no main-thread task over 50 ms while drawing):
//! the capacity tour's third step opened on the phone at 4x, then a finger's stroke across
//! the chart in [`STROKE_MOVES`] moves (DevTools' touch input, as a phone's own), the long tasks
//! from the stroke's start until it is drawn.

use crate::common::{Context, Result};
use crate::lab::{self, Load, TaskSummary, DEFAULT_CHARTS};
use crate::phone::{
    self, check_viewport, report_failed_requests, CPU_SLOWDOWN, LOAD_TIMEOUT, RUNS,
};
use crate::report::{median_range, Section, Unit};
use crate::Build;
use serde_json::json;

/// The step's link, as a teacher writes it.
pub const STEP_LINK: &str = "?tour=qd1-reads&step=2";
/// The same state written out: what the step sets.
pub const PLAIN_LINK: &str = "?preset=e18dc&cap=1920&qd=256&rw=randread&bs=4k&state=steady";

/// The step that asks for a guess drawn on the chart.
pub const GUESS_LINK: &str = "?tour=predict-capacity&step=3";
/// Moves of the finger across the chart: about a second of a stroke at 60 events a second.
const STROKE_MOVES: u32 = 60;
/// Time after the stroke's end still counted: the chart's last drawing (a frame or two) and
/// the observer's delivery fit well within it.
const SETTLE_MS: u64 = 500;

/// A cold load and its long tasks until every point was computed (`None`: no longtask API).
type Opened = (Load, Option<TaskSummary>);

/// One cold load of each link, and one stroke of a guess.
pub struct TourRun {
    pub plain: Opened,
    pub step: Opened,
    pub stroke: Stroke,
}

/// A stroke drawn across the chart: the long tasks from its start until drawn (`None`: no
/// longtask API), and the depths it drew (all of them, or the stroke missed the pad).
pub struct Stroke {
    pub tasks: Option<TaskSummary>,
    pub drawn: String,
}

/// [`RUNS`] cold loads of both links, and a stroke, for each build, interleaved.
pub async fn measure(builds: &[Build]) -> Result<Vec<Vec<TourRun>>> {
    lab::interleaved(builds, RUNS, "tour step 4x", async |build, _| {
        Ok(TourRun {
            plain: load(build, PLAIN_LINK).await?,
            step: load(build, STEP_LINK).await?,
            stroke: stroke(build).await?,
        })
    })
    .await
}

/// Opens the guess's step on the phone (4x), waits for its charts, then strokes a finger
/// across the chart from its plot's left end low to its right end high.
async fn stroke(build: &Build) -> Result<Stroke> {
    let (server, chrome) = phone::open(build).await?;
    chrome.goto(&server.url(GUESS_LINK)).await?;
    let what = format!("phone 4x stroke on {GUESS_LINK} ({})", build.name);
    lab::wait_for_load(&chrome, DEFAULT_CHARTS, &what, LOAD_TIMEOUT).await?;
    let rect = chrome
        .js(
            "const p = document.getElementById('guess-pad'); p.scrollIntoView({block: 'start'});
             const r = p.getBoundingClientRect();
             return [r.left, r.top, r.width, r.height, performance.now()];",
            vec![],
        )
        .await?;
    let r: Vec<f64> = serde_json::from_value(rect).context("the pad's place")?;
    let at = |t: f64| {
        let x = r[0] + 74.0 + t * (r[2] - 74.0 - 20.0);
        json!([{ "x": x, "y": r[1] + r[3] * (0.8 - 0.5 * t) }])
    };
    let touch = |kind: &str, points: serde_json::Value| {
        chrome.cdp(
            "Input.dispatchTouchEvent",
            json!({ "type": kind, "touchPoints": points }),
        )
    };
    touch("touchStart", at(0.0))?;
    for i in 1..=STROKE_MOVES {
        touch("touchMove", at(f64::from(i) / f64::from(STROKE_MOVES)))?;
    }
    touch("touchEnd", json!([]))?;
    let drawn = chrome
        .js(
            "return document.getElementById('guess-count').textContent;",
            vec![],
        )
        .await?
        .as_str()
        .unwrap_or("?")
        .to_string();
    // The stroke's last drawing is in the window too: the chart draws in a task after the
    // input's.
    tokio::time::sleep(std::time::Duration::from_millis(SETTLE_MS)).await;
    let end = chrome.js("return performance.now();", vec![]).await?;
    let tasks = lab::long_tasks(&chrome)
        .await?
        .map(|t| TaskSummary::of(&t, r[4], end.as_f64().unwrap_or(f64::INFINITY)));
    lab::report_console(&chrome, &what);
    chrome.close().await?;
    report_failed_requests(&server, &what);
    Ok(Stroke { tasks, drawn })
}

async fn load(build: &Build, link: &str) -> Result<Opened> {
    let (server, chrome) = phone::open(build).await?;
    chrome.goto(&server.url(link)).await?;
    let what = format!("phone 4x load of {link} ({})", build.name);
    let load = lab::wait_for_load(&chrome, DEFAULT_CHARTS, &what, LOAD_TIMEOUT).await?;
    check_viewport(&load)?;
    let tasks = lab::long_tasks(&chrome)
        .await?
        .map(|t| TaskSummary::of(&t, f64::NEG_INFINITY, load.computed));
    lab::report_console(&chrome, &what);
    chrome.close().await?;
    report_failed_requests(&server, &what);
    Ok((load, tasks))
}

pub fn section(runs: &[Vec<TourRun>]) -> Section {
    let mut s = Section::new(format!(
        "a tour's step from a link ({STEP_LINK}) against its state from a plain link, phone CPU \
         {CPU_SLOWDOWN}x, {RUNS} cold loads each: median (range)"
    ));
    type Pick = fn(&TourRun) -> &Opened;
    let links: [(&str, Pick); 2] = [("plain link", |r| &r.plain), ("step link", |r| &r.step)];
    for (name, pick) in links {
        let figure = |f: &dyn Fn(&Opened) -> Option<f64>, unit| {
            runs.iter()
                .map(|build_runs| {
                    let v: Vec<f64> = build_runs.iter().filter_map(|r| f(pick(r))).collect();
                    median_range(&v, unit)
                })
                .collect()
        };
        s.row(
            format!("{name}: first chart drawn"),
            figure(&|(l, _)| Some(l.first_chart), Unit::Ms),
        );
        s.row(
            format!("{name}: every point estimated"),
            figure(&|(l, _)| Some(l.estimated), Unit::Ms),
        );
        s.row(
            format!("{name}: every point computed"),
            figure(&|(l, _)| Some(l.computed), Unit::Ms),
        );
        s.row(
            format!("{name}: long tasks (> 50 ms) while loading"),
            figure(&|(_, t)| t.map(|t| t.count as f64), Unit::Count),
        );
    }
    let ratio = |build_runs: &Vec<TourRun>| {
        let v: Vec<f64> = build_runs
            .iter()
            .map(|r| r.step.0.estimated / r.plain.0.estimated)
            .collect();
        median_range(&v, Unit::Ratio)
    };
    s.row(
        "step link / plain link, every point estimated (each pair)",
        runs.iter().map(ratio).collect(),
    );
    let stroke = |f: &dyn Fn(&TaskSummary) -> f64, unit| {
        runs.iter()
            .map(|build_runs| {
                let v: Vec<f64> = build_runs
                    .iter()
                    .filter_map(|r| r.stroke.tasks.as_ref().map(f))
                    .collect();
                median_range(&v, unit)
            })
            .collect()
    };
    s.row(
        format!("drawing a guess ({GUESS_LINK}, a stroke of {STROKE_MOVES} moves): long tasks (> 50 ms)"),
        stroke(&|t| t.count as f64, Unit::Count),
    );
    s.row(
        "drawing a guess: longest task (0: none over 50 ms)",
        stroke(&|t| t.longest, Unit::Ms),
    );
    for build_runs in runs {
        for r in build_runs {
            println!("  stroke drew: {}", r.stroke.drawn);
        }
    }
    s
}
