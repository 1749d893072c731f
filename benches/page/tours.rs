//! A tour's step from a link against the same state from a plain link, each opened cold on the
//! phone (CPU 4x), interleaved: a teacher's link to a step (`?tour=qd1-reads&step=2`) must
//! open as fast as the lab does (the budget of issue 57). The step names no state of its own
//! in the link, so the page reads the built-in tour before it knows what to compute; the plain
//! link is that step's state written out.

use crate::common::cdp::{Chrome, Device};
use crate::common::{Context, Result, StaticServer};
use crate::lab::{self, Load, TaskSummary, DEFAULT_CHARTS, INSTRUMENT};
use crate::phone::{check_viewport, report_failed_requests, CPU_SLOWDOWN, LOAD_TIMEOUT, RUNS};
use crate::report::{median_range, Section, Unit};
use crate::{Build, MOUNT};

/// The step's link, as a teacher writes it.
pub const STEP_LINK: &str = "?tour=qd1-reads&step=2";
/// The same state written out: what the step sets.
pub const PLAIN_LINK: &str = "?preset=e18dc&cap=1920&qd=256&rw=randread&bs=4k&state=steady";

/// A cold load and its long tasks until every point was computed (`None`: no longtask API).
type Opened = (Load, Option<TaskSummary>);

/// One cold load of each link.
pub struct TourRun {
    pub plain: Opened,
    pub step: Opened,
}

/// [`RUNS`] cold loads of both links for each build, interleaved.
pub async fn measure(builds: &[Build]) -> Result<Vec<Vec<TourRun>>> {
    lab::interleaved(builds, RUNS, "tour step 4x", async |build, _| {
        Ok(TourRun {
            plain: load(build, PLAIN_LINK).await?,
            step: load(build, STEP_LINK).await?,
        })
    })
    .await
}

async fn load(build: &Build, link: &str) -> Result<Opened> {
    let server =
        StaticServer::start(&build.dist, MOUNT).context("cannot start the static server")?;
    let chrome = Chrome::start(Device::Phone).await?;
    chrome.run_on_every_document(INSTRUMENT)?;
    chrome.throttle_cpu(CPU_SLOWDOWN)?;
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
    s
}
