//! Teaching mode playing, on the phone at 4x (issue 21: its player "may keep stepping where it is
//! fastest, as long as no main-thread task exceeds 50 ms at any speed"): the slowest and the
//! fastest speed and the default, each on the default drive and on the largest drive picture
//! the lab draws ([`MAX_DIES`] dies). For each: the snapshots drawn per second (changes of
//! `#activity`'s `data-sim-ns`, the page's own stamp of a drawn snapshot), the simulated time
//! played against what the speed asks for, and the main thread's long tasks while playing.
//!
//! Each case opens the view afresh (`?view=activity&speed=...`), waits until the player's
//! point is ready, presses Play and watches for [`PLAY`].

use crate::common::cdp::Chrome;
use crate::common::Result;
use crate::lab::{self, TaskSummary};
use crate::phone::{self, report_failed_requests};
use crate::report::{self, Section, Unit};
use crate::Build;
use parallelism_lab::model::config::MAX_DIES;
use parallelism_lab::ui::pure::state::{speed_ladder, DEFAULT_SPEED_US_PER_S};
use parallelism_work::teach::MAX_EVENTS_PER_ADVANCE;
use serde_json::json;
use std::time::Duration;

/// How long each case plays.
const PLAY: Duration = Duration::from_secs(4);
/// Longest wait for the player's point to be ready.
const READY_TIMEOUT: Duration = Duration::from_secs(120);
const POLL: Duration = Duration::from_millis(50);
const NANOS_PER_US: f64 = 1_000.0;

/// Counts the snapshots drawn from now on, presses Play, and returns when (ms since
/// navigation).
const START_PLAYING: &str = r#"
    const activity = document.getElementById("activity");
    const seen = { draws: 0, from: performance.now(), simNs: Number(activity.dataset.simNs) };
    window.__teaching = seen;
    new MutationObserver(() => { seen.draws += 1; })
        .observe(activity, { attributes: true, attributeFilter: ["data-sim-ns"] });
    document.getElementById("teach-play").click();
    return seen.from;
"#;

/// What was drawn since [`START_PLAYING`], and when it was read.
const PLAYED: &str = r#"
    const seen = window.__teaching;
    const activity = document.getElementById("activity");
    return { draws: seen.draws, to: performance.now(),
             simNs: Number(activity.dataset.simNs) - seen.simNs,
             playing: activity.dataset.playing === "true" };
"#;

/// One case: a speed on a drive.
#[derive(Clone, Copy)]
struct Case {
    speed_us_per_s: u32,
    /// `None`: the default drive.
    dies: Option<u32>,
}

impl Case {
    /// The speed control's slowest speed, its default and its fastest, on each drive.
    fn all() -> Vec<Case> {
        let ladder = speed_ladder();
        let speeds = [
            ladder.nearest(0),
            DEFAULT_SPEED_US_PER_S,
            ladder.nearest(u32::MAX),
        ];
        [None, Some(MAX_DIES)]
            .into_iter()
            .flat_map(|dies| {
                speeds.map(|speed_us_per_s| Case {
                    speed_us_per_s,
                    dies,
                })
            })
            .collect()
    }

    fn query(self) -> String {
        let dies = self.dies.map_or(String::new(), |d| format!("&dies={d}"));
        format!("?view=activity&speed={}{dies}", self.speed_us_per_s)
    }

    fn label(self) -> String {
        let drive = self
            .dies
            .map_or("the default drive".to_string(), |d| format!("{d} dies"));
        format!("{} µs per second, {drive}", self.speed_us_per_s)
    }
}

/// What one case measured.
#[derive(Clone, Copy)]
struct Played {
    draws_per_s: f64,
    /// Simulated time played over what the speed asks for in the wall time watched.
    pace: f64,
    tasks: Option<TaskSummary>,
}

/// One build's cases, in [`Case::all`]'s order (`None`: the case could not play).
pub struct TeachingRun {
    played: Vec<Option<Played>>,
}

/// One run per build, in order.
pub async fn measure(builds: &[Build]) -> Result<Vec<TeachingRun>> {
    lab::one_run_each(builds, "teaching mode", run).await
}

async fn run(build: &Build) -> Result<TeachingRun> {
    let (server, chrome) = phone::open(build).await?;
    let what = format!("teaching mode of {}", build.name);
    let mut played = Vec::new();
    for case in Case::all() {
        chrome.goto(&server.url(&case.query())).await?;
        played.push(play(&chrome, case).await?);
    }
    lab::report_console(&chrome, &what);
    chrome.close().await?;
    report_failed_requests(&server, &what);
    Ok(TeachingRun { played })
}

/// Plays `case` once its point is ready (`None`: it did not play).
async fn play(chrome: &Chrome, case: Case) -> Result<Option<Played>> {
    let what = format!("teaching mode's point ({}) to be ready", case.label());
    chrome
        .wait_for(&what, READY_TIMEOUT, POLL, || async {
            let v = chrome
                .js(
                    "const a = document.getElementById('activity');
                     return a && a.dataset.ready === 'true' ? true : null;",
                    vec![],
                )
                .await?;
            Ok((!v.is_null()).then_some(()))
        })
        .await?;
    let Some(from) = chrome.js(START_PLAYING, vec![]).await?.as_f64() else {
        return Ok(None);
    };
    tokio::time::sleep(PLAY).await;
    let seen = chrome.js(PLAYED, vec![]).await?;
    if seen["playing"] != json!(true) {
        return Ok(None);
    }
    let Some(to) = seen["to"].as_f64() else {
        return Ok(None);
    };
    let wall_s = (to - from) / 1e3;
    let asked_ns = f64::from(case.speed_us_per_s) * NANOS_PER_US * wall_s;
    let tasks = lab::long_tasks(chrome).await?;
    let (Some(draws), Some(sim_ns)) = (seen["draws"].as_f64(), seen["simNs"].as_f64()) else {
        return Ok(None);
    };
    Ok(Some(Played {
        draws_per_s: draws / wall_s,
        pace: sim_ns / asked_ns,
        tasks: tasks.map(|t| TaskSummary::of(&t, from, to)),
    }))
}

/// The table, one column per build.
pub fn section(_builds: &[Build], runs: &[TeachingRun]) -> Section {
    let mut s = Section::new(format!(
        "teaching mode playing, phone 390 x 844, CPU 4x, {} s per case",
        PLAY.as_secs()
    ));
    for (i, case) in Case::all().into_iter().enumerate() {
        let cell = |f: &dyn Fn(&Played) -> String| {
            runs.iter()
                .map(|r| {
                    r.played
                        .get(i)
                        .copied()
                        .flatten()
                        .map_or_else(|| "n/a (did not play)".to_string(), |p| f(&p))
                })
                .collect::<Vec<_>>()
        };
        s.row(
            format!("{}: snapshots drawn per second", case.label()),
            cell(&|p| Unit::Count.of(p.draws_per_s)),
        );
        s.row(
            "  simulated time played / what the speed asks",
            cell(&|p| format!("{:.2}", p.pace)),
        );
        s.row(
            "  long tasks (> 50 ms) while playing",
            cell(&|p| match p.tasks {
                Some(t) => report::tasks(t.count, t.longest),
                None => "n/a (no longtask API)".into(),
            }),
        );
    }
    s.note(format!("the pace falls below 1 where the worker cannot keep up with the speed (each answer moves the clock by at most {MAX_EVENTS_PER_ADVANCE} engine events) or frames come slowly"));
    s
}
