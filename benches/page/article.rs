//! An article of five one-chart embeds, on the phone at CPU 4x, scrolled to one frame after
//! another as a reader would: `tests/fixtures/five-labs.html` (five frames of the Embed button's
//! snippet, lazy, a screen and more of text apart) served by one server, its frames pointing at
//! the app served by another (two [`StaticServer`]s), as an author's blog frames a hosted copy.
//!
//! A framed lab computes nothing until it is in sight (`src/ui/views/embed_frame.rs`), so the
//! figure a reader feels is the time from a frame's scroll into view until its model has every
//! point estimated (the frame's own `lab:model-estimated` mark, moved onto the article's clock
//! with `performance.timeOrigin`). The budget: within 1.5 s for every frame, and no task
//! over 50 ms on the article's own thread (the observer installed in the article's document).
//!
//! Beside each load of the labs, a control: the same article whose frames hold a page of one
//! paragraph from the lab's origin (`tests/fixtures/blank-frame.html`), read at the same pace.
//! Its long tasks are the browser's own (the article's parsing and first layout at 4x, each
//! frame's document made), which any embed brings; the labs' own are what they add.
//!
//! Two placements of the blog, one cold load each per build:
//! - **another site** (`localhost` beside the lab's `127.0.0.1`): an author's blog and a hosted
//!   lab are different sites, and desktop Chromium runs a cross-site frame in a process of its
//!   own, so the frames' work leaves the article's thread;
//! - **the same site** (both on `127.0.0.1`, other ports): frames share the article's renderer
//!   and its main thread, as every frame does on a phone whose browser does not isolate sites
//!   (Chrome on Android isolates only some): the frames' own start shows among its long tasks.

use crate::common::cdp::{Chrome, Device};
use crate::common::{Context, Failure, Result, StaticServer};
use crate::lab::{self, LongTask, TaskSummary, INSTRUMENT, POLL};
use crate::phone::{report_failed_requests, CPU_SLOWDOWN};
use crate::report::{self, Section, Unit};
use crate::{Build, MOUNT};
use serde_json::json;
use std::time::Duration;

/// The fixture page.
const ARTICLE: &str = "five-labs.html";
/// The control's frame: a page of one paragraph.
const BLANK_FRAME: &str = "blank-frame.html";
/// How long the control's reader stays at each frame (about a lab's estimate and reading).
const BLANK_READ_MS: u64 = 1500;
/// The article's frames.
const FRAMES: u16 = 5;
/// Longest wait for one frame to have every point estimated after its scroll.
const FRAME_TIMEOUT: Duration = Duration::from_secs(60);
/// The budget: every frame's points estimated within this long of its scroll into view (ms).
const BUDGET_MS: f64 = 1500.0;
/// The budget: no task on the article's thread longer than this (ms).
const LONG_TASK_MS: f64 = 50.0;
/// How long the reader stays at a frame after its points are estimated, before scrolling on.
const READ_MS: u64 = 1000;

/// Where the blog is, relative to the lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    AnotherSite,
    SameSite,
}

impl Placement {
    const ALL: [Placement; 2] = [Placement::AnotherSite, Placement::SameSite];

    fn words(self) -> &'static str {
        match self {
            Placement::AnotherSite => "blog on another site",
            Placement::SameSite => "blog on the lab's site (frames share its thread)",
        }
    }
}

/// What the article's frames hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frames {
    /// The lab, each frame its state.
    Labs,
    /// The control: a page of one paragraph from the lab's origin.
    Blank,
}

/// One cold load of the article, scrolled through.
pub struct ArticleRun {
    placement: Placement,
    frames: Frames,
    /// Per frame: ms from its scroll into view until every point was estimated (negative: the
    /// frame had estimated before the reader got there).
    after_scroll: Vec<f64>,
    /// The article's long tasks while it loads (before the first scroll) and while the reader
    /// scrolls through it.
    tasks: Option<[TaskSummary; 2]>,
    /// The attributions of the article's long tasks (`cross-origin-descendant`: a frame's).
    attributions: Vec<String>,
    /// Each long task while the reader scrolls, with the frames' start steps it overlaps.
    listing: Vec<String>,
}

/// One run per build and placement, in order.
pub async fn measure(builds: &[Build]) -> Result<Vec<ArticleRun>> {
    let mut runs = Vec::new();
    for placement in Placement::ALL {
        for frames in [Frames::Labs, Frames::Blank] {
            let section = match frames {
                Frames::Labs => format!("article of five embeds, {}", placement.words()),
                Frames::Blank => format!("article of five blank frames, {}", placement.words()),
            };
            runs.extend(
                lab::one_run_each(builds, &section, async |b: &Build| {
                    run(b, placement, frames).await
                })
                .await?,
            );
        }
    }
    Ok(runs)
}

async fn run(build: &Build, placement: Placement, frames: Frames) -> Result<ArticleRun> {
    let app = StaticServer::start(&build.dist, MOUNT).context("cannot start the app's server")?;
    // The blog: another port, so another origin. It serves the fixtures; its root is unused.
    let blog =
        StaticServer::start(&build.dist, "/blog/").context("cannot start the blog's server")?;
    let page = blog.fixture_url(ARTICLE);
    let page = match placement {
        Placement::AnotherSite => page.replacen("127.0.0.1", "localhost", 1),
        Placement::SameSite => page,
    };
    let framed = match frames {
        Frames::Labs => app.url(""),
        Frames::Blank => app.fixture_url(BLANK_FRAME),
    };
    let url = format!("{page}#{framed}");
    let chrome = Chrome::start(Device::Phone).await?;
    chrome.run_on_every_document(INSTRUMENT)?;
    chrome.throttle_cpu(CPU_SLOWDOWN)?;
    chrome.goto(&url).await?;
    let origin = chrome.js("return performance.timeOrigin;", vec![]).await?;
    let origin = origin.as_f64().context("performance.timeOrigin")?;

    let mut after_scroll = Vec::new();
    let mut scrolls = Vec::new();
    for i in 0..FRAMES {
        let scrolled = chrome
            .js(
                "document.querySelectorAll('iframe')[arguments[0]].scrollIntoView({block: 'center'});
                 return performance.now();",
                vec![json!(i)],
            )
            .await?
            .as_f64()
            .context("the scroll's time")?;
        scrolls.push(scrolled);
        if frames == Frames::Blank {
            tokio::time::sleep(Duration::from_millis(BLANK_READ_MS)).await;
            continue;
        }
        let estimated = wait_for_frame(&chrome, i, &build.name).await?;
        after_scroll.push(estimated - origin - scrolled);
        tokio::time::sleep(Duration::from_millis(READ_MS)).await;
    }
    let tasks = lab::long_tasks(&chrome).await?;
    let first_scroll = scrolls.first().copied().unwrap_or(f64::INFINITY);
    let listing = match (&tasks, frames) {
        (Some(t), Frames::Labs) => list_tasks(&chrome, t, origin, &scrolls).await?,
        _ => Vec::new(),
    };
    let mut attributions: Vec<String> = tasks.iter().flatten().map(|t| t.name.clone()).collect();
    attributions.sort();
    attributions.dedup();
    let what = format!("article of {}", build.name);
    lab::report_console(&chrome, &what);
    chrome.close().await?;
    report_failed_requests(&app, &what);
    report_failed_requests(&blog, &what);
    Ok(ArticleRun {
        placement,
        frames,
        after_scroll,
        tasks: tasks.map(|t| {
            [
                TaskSummary::of(&t, f64::NEG_INFINITY, first_scroll),
                TaskSummary::of(&t, first_scroll, f64::INFINITY),
            ]
        }),
        attributions,
        listing,
    })
}

/// The frames' start steps (the measures `lab:start` to `lab:keep`, `src/ui/start.rs`) and
/// marks, on the article's clock: `(frame, name, start, end)`.
async fn frame_steps(chrome: &Chrome, origin: f64) -> Result<Vec<(u16, String, f64, f64)>> {
    const STEPS: &str = "return performance.getEntries()
        .filter((e) => e.name.startsWith('lab:') && !e.name.endsWith('-start'))
        .map((e) => [e.name, performance.timeOrigin + e.startTime, e.duration]);";
    let mut out = Vec::new();
    for i in 0..FRAMES {
        chrome.enter_frame(i).await?;
        let steps = chrome.js(STEPS, vec![]).await;
        chrome.leave_frame().await?;
        for step in steps?.as_array().into_iter().flatten() {
            let name = step[0].as_str().unwrap_or("?").trim_start_matches("lab:");
            let start = step[1].as_f64().unwrap_or(f64::NAN) - origin;
            let end = start + step[2].as_f64().unwrap_or(0.0);
            out.push((i + 1, name.to_string(), start, end));
        }
    }
    Ok(out)
}

/// Each long task from the first scroll on: when (ms after the scroll to the frame last
/// scrolled to), how long, and the frames' steps it overlaps.
async fn list_tasks(
    chrome: &Chrome,
    tasks: &[LongTask],
    origin: f64,
    scrolls: &[f64],
) -> Result<Vec<String>> {
    let steps = frame_steps(chrome, origin).await?;
    let first = scrolls.first().copied().unwrap_or(f64::INFINITY);
    Ok(tasks
        .iter()
        .filter(|t| t.start >= first)
        .map(|t| {
            let at = scrolls.iter().rposition(|s| *s <= t.start).unwrap_or(0);
            let end = t.start + t.duration;
            let over: Vec<String> = steps
                .iter()
                .filter(|(_, _, s, e)| *s <= end && *e >= t.start)
                .map(|(f, n, _, _)| format!("frame {f} {n}"))
                .collect();
            format!(
                "{:.0} ms after the scroll to frame {}: {:.0} ms{}",
                t.start - scrolls[at],
                at + 1,
                t.duration,
                if over.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", over.join(", "))
                }
            )
        })
        .collect())
}

/// Polls frame `i` until its model has every point estimated; the time, in ms since the Unix
/// epoch.
async fn wait_for_frame(chrome: &Chrome, i: u16, build: &str) -> Result<f64> {
    // The page's own mark, not the instrument's stamp: a cross-site frame runs in a process
    // of its own, where the instrument installed in the article's documents does not run.
    const PROBE: &str = "const m = performance.getEntriesByName('lab:model-estimated')[0];
        return m ? performance.timeOrigin + m.startTime : null;";
    let deadline = tokio::time::Instant::now() + FRAME_TIMEOUT;
    loop {
        chrome.enter_frame(i).await?;
        let at = chrome.js(PROBE, vec![]).await;
        chrome.leave_frame().await?;
        if let Some(at) = at?.as_f64() {
            return Ok(at);
        }
        if tokio::time::Instant::now() > deadline {
            chrome.enter_frame(i).await?;
            let status = chrome
                .js("const s = document.getElementById('model-status'); return [location.href, s && s.textContent];", vec![])
                .await?;
            chrome.leave_frame().await?;
            return Err(Failure::new(format!(
                "{build}: frame {} has not estimated its points {FRAME_TIMEOUT:?} after it was scrolled into view: {status}\nconsole: {:#?}",
                i + 1,
                chrome.console()
            )));
        }
        tokio::time::sleep(POLL).await;
    }
}

/// The table, one column per build.
pub fn section(builds: &[Build], runs: &[ArticleRun]) -> Section {
    let mut s = Section::new(format!(
        "article of five one-chart embeds (another origin), phone, CPU {CPU_SLOWDOWN}x, each scrolled into view in turn"
    ));
    for placement in Placement::ALL {
        let of = |frames: Frames| -> Vec<&ArticleRun> {
            runs.iter()
                .filter(|r| r.placement == placement && r.frames == frames)
                .collect()
        };
        let labs = of(Frames::Labs);
        for i in 0..usize::from(FRAMES) {
            s.row(
                format!(
                    "{}: frame {} estimated, ms after its scroll",
                    placement.words(),
                    i + 1
                ),
                labs.iter()
                    .map(|r| Unit::Ms.of(r.after_scroll[i]))
                    .collect(),
            );
        }
        s.row(
            format!("{}: every frame within {BUDGET_MS} ms", placement.words()),
            labs.iter()
                .map(|r| verdict(r.after_scroll.iter().all(|t| *t <= BUDGET_MS)))
                .collect(),
        );
        task_rows(&mut s, placement, &labs, "the labs");
        task_rows(
            &mut s,
            placement,
            &of(Frames::Blank),
            "blank frames (control)",
        );
        for (build, run) in builds.iter().zip(&labs) {
            for line in &run.listing {
                s.note(format!("{} ({}): {line}", build.name, placement.words()));
            }
            if !run.attributions.is_empty() {
                s.note(format!(
                    "{} ({}): the article's long tasks are attributed to: {}",
                    build.name,
                    placement.words(),
                    run.attributions.join(", ")
                ));
            }
        }
    }
    s.note(
        "while it loads: before the first scroll, the article's own parsing, layout and frames' creation (attributed to self) and the first frames' start",
    );
    s.note(
        "blank frames (control): the same article, its frames a page of one paragraph from the lab's origin; its long tasks are the browser's own, which any embed brings",
    );
    s.note(
        "a negative time: the frame had its points before the reader scrolled to it (a build whose frames compute at once, seen or not)",
    );
    s
}

/// The article's long tasks of `runs` (one per build), while it loads and while it is read.
fn task_rows(s: &mut Section, placement: Placement, runs: &[&ArticleRun], frames: &str) {
    for (when, at) in [("while it loads", 0), ("while the reader scrolls", 1)] {
        let tasks = |r: &&ArticleRun| match r.tasks {
            Some(t) => report::tasks(t[at].count, t[at].longest),
            None => "n/a (no longtask API)".into(),
        };
        s.row(
            format!(
                "{}, {frames}: tasks over {LONG_TASK_MS} ms on the article's thread {when}",
                placement.words()
            ),
            runs.iter().map(tasks).collect(),
        );
    }
}

fn verdict(met: bool) -> String {
    if met { "yes" } else { "no" }.to_string()
}
