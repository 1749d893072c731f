//! Page benchmark (not a test): serves the built `dist/` and prints how the page performs for
//! its readers, in headless Chromium. It prints measured figures and never asserts a timing.
//!
//! Sections, each in its own module (their docs say what is measured and why):
//! - [`phone`]: the default view opened cold on an emulated 390 x 844 phone with the CPU
//!   slowed 4x, three runs: first chart, every point estimated, every point computed, long
//!   tasks while loading and in a burst of slider key presses;
//! - [`download`]: the gzipped JS and wasm fetched before the first chart, main and worker;
//! - [`desktop`]: the desktop window at full speed, as this benchmark has always run: key
//!   press to redrawn and estimated charts (median, p95), long tasks, load to every point
//!   estimated (median and range of seven cold loads), the drive over time;
//! - [`network`]: the default view from a server that holds every answer for a round trip, so
//!   files asked for one after another cost one each: first chart, the app's start, its first
//!   worker ready, every point estimated and computed;
//! - [`article`]: an article on one port framing five one-chart embeds of the app on
//!   another, on the phone at 4x, scrolled to each in turn: each frame's time from its scroll
//!   to every point estimated, and the article's own long tasks, with the blog on another
//!   site and on the lab's;
//! - [`workloads`]: the rate slider's key presses to redrawn charts (median, p95) and the
//!   Light desktop workload's replay on one drive, with the long tasks meanwhile;
//! - [`teaching`]: teaching mode playing on the phone at 4x, at its slowest, default and
//!   fastest speed on two drives: snapshots drawn per second, its pace, the long tasks;
//! - [`lighthouse`]: Lighthouse 12's scores and load metrics.
//!
//! Times are taken inside the page (the stamps the page writes, see [`lab`]), so WebDriver's
//! own latency never counts.
//!
//! Environment:
//! - `PAGE_BENCH_BEFORE=/path/to/other/dist`: also measure that build, run for run
//!   interleaved with this one (the machine's speed drifts by a third from minute to minute),
//!   and print the two side by side, "before" and "after";
//! - `PAGE_BENCH_ONLY=phone,desktop,network,workloads,article,teaching,tours,lighthouse`: only
//!   those sections (`phone` includes the download).
//!
//! Run with `cargo bench --bench page` after `trunk build --release` (`./dev.sh bench` does
//! both, and installs Lighthouse).

// WebDriver and a local server only exist natively; a wasm build of this target does nothing.
#[cfg(not(target_arch = "wasm32"))]
#[path = "../../crates/e2e/tests/common/mod.rs"]
mod common;

#[cfg(not(target_arch = "wasm32"))]
mod article;
#[cfg(not(target_arch = "wasm32"))]
mod desktop;
#[cfg(not(target_arch = "wasm32"))]
mod download;
#[cfg(not(target_arch = "wasm32"))]
mod lab;
#[cfg(not(target_arch = "wasm32"))]
mod lighthouse;
#[cfg(not(target_arch = "wasm32"))]
mod network;
#[cfg(not(target_arch = "wasm32"))]
mod phone;
#[cfg(not(target_arch = "wasm32"))]
mod profile;
#[cfg(not(target_arch = "wasm32"))]
mod report;
#[cfg(not(target_arch = "wasm32"))]
mod teaching;
#[cfg(not(target_arch = "wasm32"))]
mod tours;
#[cfg(not(target_arch = "wasm32"))]
mod workloads;

/// Runs the benchmark; on a failure (a build missing, a browser that would not start, a page
/// that never got where a section waited for it) prints why and exits with status 1.
fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    if let Err(e) = run() {
        eprintln!("page benchmark failed: {e}");
        std::process::exit(1);
    }
}

/// The sub-path every build is served under (proving its asset URLs are relative).
#[cfg(not(target_arch = "wasm32"))]
const MOUNT: &str = "/lab/";

/// One build to measure: a `dist/` folder and its column's name.
#[cfg(not(target_arch = "wasm32"))]
pub struct Build {
    pub name: String,
    pub dist: std::path::PathBuf,
}

/// The builds: this worktree's `dist/`, after the one `PAGE_BENCH_BEFORE` names if set.
#[cfg(not(target_arch = "wasm32"))]
fn builds() -> common::Result<Vec<Build>> {
    let this = common::dist_dir()?;
    let before = std::env::var_os("PAGE_BENCH_BEFORE").filter(|v| !v.is_empty());
    let Some(before) = before.map(std::path::PathBuf::from) else {
        return Ok(vec![Build {
            name: "this build".into(),
            dist: this,
        }]);
    };
    if !before.join("index.html").is_file() {
        return Err(common::Failure::new(format!(
            "PAGE_BENCH_BEFORE={}: no index.html there (point it at a built dist/ folder)",
            before.display()
        )));
    }
    Ok(vec![
        Build {
            name: "before".into(),
            dist: before,
        },
        Build {
            name: "after".into(),
            dist: this,
        },
    ])
}

/// Whether `PAGE_BENCH_ONLY` (unset: everything) names `section`.
#[cfg(not(target_arch = "wasm32"))]
fn wanted(section: &str) -> common::Result<bool> {
    const KNOWN: &[&str] = &[
        "phone",
        "desktop",
        "network",
        "workloads",
        "article",
        "teaching",
        "tours",
        "lighthouse",
        "profile",
    ];
    match std::env::var("PAGE_BENCH_ONLY") {
        // A profile is a tool, not a figure: only when asked for.
        _ if section == "profile" && std::env::var("PAGE_BENCH_ONLY").is_err() => Ok(false),
        Ok(list) if !list.trim().is_empty() => {
            if let Some(name) = list.split(',').map(str::trim).find(|n| !KNOWN.contains(n)) {
                return Err(common::Failure::new(format!(
                    "PAGE_BENCH_ONLY: unknown section {name:?} (known: {})",
                    KNOWN.join(", ")
                )));
            }
            Ok(list.split(',').any(|s| s.trim() == section))
        }
        _ => Ok(true),
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn run() -> common::Result {
    let started = std::time::Instant::now();
    let builds = builds()?;
    println!(
        "page benchmark (load average at the start: {})",
        load_average()
    );
    for build in &builds {
        println!("  {}: {}", build.name, build.dist.display());
    }
    if wanted("phone")? {
        let runs = phone::measure(&builds).await?;
        phone::section(&builds, &runs).print(&builds);
        let fetched: Vec<_> = runs
            .iter()
            .map(|r| r.first().and_then(|r| r.fetched.as_ref()))
            .collect();
        download::section(&builds, &fetched)?.print(&builds);
    }
    if wanted("desktop")? {
        let runs = desktop::measure(&builds).await?;
        let loads = desktop::measure_loads(&builds).await?;
        desktop::section(&builds, &runs, &loads).print(&builds);
    }
    if wanted("network")? {
        let runs = network::measure(&builds).await?;
        network::section(&runs).print(&builds);
    }
    if wanted("workloads")? {
        let runs = workloads::measure(&builds).await?;
        workloads::section(&builds, &runs).print(&builds);
    }
    if wanted("article")? {
        let runs = article::measure(&builds).await?;
        article::section(&builds, &runs).print(&builds);
    }
    if wanted("teaching")? {
        let runs = teaching::measure(&builds).await?;
        teaching::section(&builds, &runs).print(&builds);
    }
    if wanted("tours")? {
        let runs = tours::measure(&builds).await?;
        tours::section(&runs).print(&builds);
    }
    if wanted("profile")? {
        let windows = profile::measure(&builds).await?;
        profile::print(&builds, &windows);
    }
    if wanted("lighthouse")? {
        let runs = lighthouse::measure(&builds);
        lighthouse::section(&builds, &runs).print(&builds);
    }
    println!(
        "\npage benchmark took {:.0} s (load average at the end: {})",
        started.elapsed().as_secs_f64(),
        load_average()
    );
    Ok(())
}

/// `/proc/loadavg`'s 1, 5 and 15 minute figures: every time here stretches with the machine's
/// other work, so the output says how busy it was.
#[cfg(not(target_arch = "wasm32"))]
fn load_average() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let figures: Vec<&str> = text.split_whitespace().take(3).collect();
    if figures.is_empty() {
        return "unknown".into();
    }
    format!("{} on {} cores", figures.join(" "), cores())
}

#[cfg(not(target_arch = "wasm32"))]
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
