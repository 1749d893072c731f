//! Lighthouse 12 on the served app (its mobile defaults: a phone viewport, simulated 4x CPU
//! slowdown and a slow network), against the system Chromium: the four category scores and
//! the metrics a reader's phone feels (largest contentful paint, time to interactive, total
//! blocking time, main-thread work, JavaScript execution). One run per build.
//!
//! Lighthouse is npm's `lighthouse@12` in `.tools/` (`./dev.sh bench` installs it; `LIGHTHOUSE`
//! may name another binary); without it the section says so and the rest still prints. The
//! bench's server sends no compression, so Lighthouse's text-compression audit does not apply
//! to a real host and is left out.

use crate::common::{repo_root, StaticServer};
use crate::report::{Section, Unit};
use crate::{Build, MOUNT};
use serde_json::Value;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longest Lighthouse run (about a minute on 2 cores).
const TIMEOUT: Duration = Duration::from_secs(420);
/// The system Chromium (no tool may download a browser here).
const CHROME_PATH: &str = "/usr/bin/chromium";
const CHROME_FLAGS: &str = "--chrome-flags=--headless=new --no-sandbox --disable-gpu";

const CATEGORIES: &[&str] = &["performance", "accessibility", "best-practices", "seo"];
/// Audits whose `numericValue` is printed (all in ms), with their labels.
const METRICS: &[(&str, &str)] = &[
    ("largest-contentful-paint", "largest contentful paint"),
    ("interactive", "time to interactive"),
    ("total-blocking-time", "total blocking time"),
    ("mainthread-work-breakdown", "main-thread work"),
    ("bootup-time", "JavaScript execution (bootup-time)"),
];

/// The JSON report of one run, or why there is none.
pub type Outcome = Result<Value, String>;

/// One run per build, in order.
pub fn measure(builds: &[Build]) -> Vec<Outcome> {
    builds
        .iter()
        .map(|b| {
            eprintln!("lighthouse: {}", b.name);
            run(b)
        })
        .collect()
}

/// Where Lighthouse is: `LIGHTHOUSE`, else `.tools/`'s.
fn binary() -> Result<PathBuf, String> {
    if let Some(bin) = std::env::var_os("LIGHTHOUSE") {
        return Ok(bin.into());
    }
    let local = repo_root().join(".tools/node_modules/.bin/lighthouse");
    if local.is_file() {
        Ok(local)
    } else {
        Err(format!(
            "not installed ({} missing; `./dev.sh bench` installs it)",
            local.display()
        ))
    }
}

fn run(build: &Build) -> Outcome {
    let bin = binary()?;
    let server = StaticServer::start(&build.dist, MOUNT).map_err(|e| e.to_string())?;
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let slug: String = build
        .name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let (out, log) = (
        tmp.join(format!("lighthouse-{slug}.json")),
        tmp.join(format!("lighthouse-{slug}.log")),
    );
    let _ = std::fs::remove_file(&out);
    let log_file = std::fs::File::create(&log).map_err(|e| e.to_string())?;
    let mut child = Command::new(&bin)
        .arg(server.url(""))
        .args(["--quiet", "--output=json", CHROME_FLAGS])
        .arg(format!("--output-path={}", out.display()))
        .env("CHROME_PATH", CHROME_PATH)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log_file)
        // Its own process group, so a timeout stops the Chromium it launched too.
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if started.elapsed() > TIMEOUT {
            let _ = Command::new("kill")
                .args(["-TERM", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            return Err(format!(
                "timed out after {TIMEOUT:?} (log: {})",
                log.display()
            ));
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    if !status.success() {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(5).collect();
        return Err(format!("exited with {status}: {}", tail.join(" | ")));
    }
    let text = std::fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let report: Value = serde_json::from_str(&text).map_err(|e| format!("report: {e}"))?;
    if let Some(error) = report["runtimeError"]["message"].as_str() {
        return Err(format!("runtime error: {error}"));
    }
    Ok(report)
}

/// The table, one column per build.
pub fn section(builds: &[Build], runs: &[Outcome]) -> Section {
    let mut s = Section::new("Lighthouse 12, mobile defaults (simulated 4x CPU, slow 4G), one run");
    let col = |f: &dyn Fn(&Value) -> String| -> Vec<String> {
        let cell = |r: &Outcome| r.as_ref().map_or_else(|_| "n/a".to_string(), f);
        runs.iter().map(cell).collect()
    };
    for category in CATEGORIES {
        s.row(
            format!("score: {category}"),
            col(&|r| match r["categories"][category]["score"].as_f64() {
                Some(score) => format!("{:.0}", score * 100.0),
                None => "n/a".into(),
            }),
        );
    }
    for (audit, label) in METRICS {
        s.row(
            *label,
            col(&|r| match r["audits"][audit]["numericValue"].as_f64() {
                Some(v) => Unit::Ms.of(v),
                None => "n/a".into(),
            }),
        );
    }
    s.row(
        "its CPU benchmark index (higher: faster machine)",
        col(&|r| match r["environment"]["benchmarkIndex"].as_f64() {
            Some(v) => format!("{v:.0}"),
            None => "n/a".into(),
        }),
    );
    for (build, run) in builds.iter().zip(runs) {
        match run {
            Err(why) => s.note(format!("{}: Lighthouse did not run: {why}", build.name)),
            Ok(r) => {
                let warnings = r["runWarnings"].as_array().map_or(0, Vec::len);
                if warnings > 0 {
                    s.note(format!(
                        "{}: {warnings} Lighthouse run warning(s): {}",
                        build.name, r["runWarnings"]
                    ));
                }
            }
        }
    }
    s.note("the bench's server does not compress: ignore the text-compression audit");
    s
}
