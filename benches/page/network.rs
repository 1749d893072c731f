//! A network with round trips: the default view opened cold in the desktop window at full
//! speed, from a server that holds every answer for [`ROUND_TRIP`] (no limit on bandwidth), so
//! what the page asks for one file after another shows as a round trip each. The loopback
//! the other sections use has none, and a chain of requests costs nothing there; readers on a
//! phone's network or a classroom's do not have that.
//!
//! Figures, each the median and range of [`RUNS`] loads per build, interleaved: the first
//! chart drawn, the app started (its `lab:start` mark), the first model worker ready after the
//! app started (`lab:worker-0-ready` less `lab:start`: the worker's files asked for one after
//! another), every point estimated and every point computed.

use crate::common::cdp::{Chrome, Device};
use crate::common::{Context, Result, StaticServer};
use crate::lab::{self, DEFAULT_CHARTS, INSTRUMENT};
use crate::phone::{report_failed_requests, LOAD_TIMEOUT};
use crate::report::{median_range, Section, Unit};
use crate::{Build, MOUNT};
use std::time::Duration;

/// Each answer's wait: the round trip of Lighthouse's mobile throttling ("Slow 4G": 150 ms,
/// Lighthouse's `throttling.mobileSlow4G.rttMs`), which its mobile score assumes.
const ROUND_TRIP: Duration = Duration::from_millis(150);

/// Cold loads per build.
const RUNS: usize = 3;

/// The page's marks this section reads, in ms since navigation (`NaN` where a build has none).
const MARKS: &str = r#"
    const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
    return { start: at("lab:start-start"), ready: at("lab:worker-0-ready") };
"#;

pub struct NetworkRun {
    load: lab::Load,
    /// The app's start (its `lab:start` measure's beginning).
    start: f64,
    /// The first worker's `Ready` taken in by the page.
    ready: f64,
}

/// [`RUNS`] loads of each build, interleaved run by run.
pub async fn measure(builds: &[Build]) -> Result<Vec<Vec<NetworkRun>>> {
    lab::interleaved(builds, RUNS, "network", async |build, _| run(build).await).await
}

async fn run(build: &Build) -> Result<NetworkRun> {
    let server =
        StaticServer::start(&build.dist, MOUNT).context("cannot start the static server")?;
    server.answer_after(ROUND_TRIP);
    let chrome = Chrome::start(Device::Desktop).await?;
    chrome.run_on_every_document(INSTRUMENT)?;
    chrome.goto(&server.url("")).await?;
    let what = format!("load of {} with round trips", build.name);
    let load = lab::wait_for_load(&chrome, DEFAULT_CHARTS, &what, LOAD_TIMEOUT).await?;
    let marks = chrome.js(MARKS, vec![]).await?;
    let mark = |k: &str| marks[k].as_f64().unwrap_or(f64::NAN);
    lab::report_console(&chrome, &what);
    chrome.close().await?;
    report_failed_requests(&server, &what);
    Ok(NetworkRun {
        start: mark("start"),
        ready: mark("ready"),
        load,
    })
}

/// The table: each figure's median and range over the runs, per build.
pub fn section(runs: &[Vec<NetworkRun>]) -> Section {
    let mut s = Section::new(format!(
        "a network with round trips: every answer held {} ms, desktop window at full speed, \
         default view, {RUNS} cold loads: median (range)",
        ROUND_TRIP.as_millis()
    ));
    let figure = |f: &dyn Fn(&NetworkRun) -> f64| -> Vec<String> {
        let per_build = runs.iter().map(|build_runs| {
            let v: Vec<f64> = build_runs.iter().map(f).filter(|v| v.is_finite()).collect();
            if v.is_empty() {
                "n/a (no such mark)".to_string()
            } else {
                median_range(&v, Unit::Ms)
            }
        });
        per_build.collect()
    };
    s.row(
        "first chart drawn (since navigation)",
        figure(&|r| r.load.first_chart),
    );
    s.row("the app started", figure(&|r| r.start));
    s.row(
        "  -> its first model worker ready",
        figure(&|r| r.ready - r.start),
    );
    s.row("every point estimated", figure(&|r| r.load.estimated));
    s.row(
        "every point computed (full runs)",
        figure(&|r| r.load.computed),
    );
    s
}
