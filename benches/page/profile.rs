//! Where the phone's main thread spends its time: one cold load of the default view at 4x CPU,
//! then the phone section's burst of key presses, each under DevTools' sampling profiler; prints
//! the functions with the most self time in each window (JavaScript, and WebAssembly by the
//! names its build kept: build the page with `data-keep-debug` and without `wasm-opt`'s name
//! stripping to see Rust's, or they read `wasm-function[N]`). A tool for finding what to make
//! faster, not a figure to compare: sampling adds its own cost. One run per build.

use crate::common::Result;
use crate::lab::{self, DEFAULT_CHARTS};
use crate::phone::{self, CPU_SLOWDOWN, LOAD_TIMEOUT};
use crate::Build;
use serde_json::{json, Value};
use std::collections::HashMap;

/// Functions printed per window.
const TOP: usize = 25;
/// The profiler's sampling interval, in µs.
const SAMPLING_US: u64 = 200;

/// Self time per function in one window, most first.
pub struct Window {
    pub name: &'static str,
    pub total_ms: f64,
    pub top: Vec<(String, f64)>,
}

/// The load and the burst of each build, profiled.
pub async fn measure(builds: &[Build]) -> Result<Vec<Vec<Window>>> {
    let mut out = Vec::new();
    for build in builds {
        eprintln!("profile: {}", build.name);
        out.push(run(build).await?);
    }
    Ok(out)
}

async fn run(build: &Build) -> Result<Vec<Window>> {
    let (server, chrome) = phone::open(build).await?;
    chrome.cdp("Profiler.enable", json!({}))?;
    chrome.cdp(
        "Profiler.setSamplingInterval",
        json!({ "interval": SAMPLING_US }),
    )?;
    chrome.cdp("Profiler.start", json!({}))?;
    chrome.goto(&server.url("")).await?;
    let what = format!("phone 4x load of {} (profiled)", build.name);
    let load = lab::wait_for_load(&chrome, DEFAULT_CHARTS, &what, LOAD_TIMEOUT).await?;
    phone::check_viewport(&load)?;
    let loaded = chrome.cdp("Profiler.stop", json!({}))?;
    chrome.cdp("Profiler.start", json!({}))?;
    phone::burst(&chrome).await?;
    let burst = chrome.cdp("Profiler.stop", json!({}))?;
    chrome.close().await?;
    Ok(vec![
        window("load to every point computed", &loaded["profile"]),
        window(
            "burst of key presses to the last state estimated",
            &burst["profile"],
        ),
    ])
}

/// Self time per function name of a `Profiler.Profile` (idle and the profiler's own nodes
/// left out).
fn window(name: &'static str, profile: &Value) -> Window {
    let nodes = profile["nodes"].as_array().cloned().unwrap_or_default();
    let label: HashMap<u64, String> = nodes
        .iter()
        .filter_map(|n| {
            let id = n["id"].as_u64()?;
            let frame = &n["callFrame"];
            let function = frame["functionName"].as_str().unwrap_or("");
            let url = frame["url"].as_str().unwrap_or("");
            let file = url.rsplit('/').next().unwrap_or("");
            let function = if function.is_empty() {
                "(anonymous)"
            } else {
                function
            };
            Some((id, format!("{function}  {file}")))
        })
        .collect();
    let samples = profile["samples"].as_array().cloned().unwrap_or_default();
    let deltas = profile["timeDeltas"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut by_label: HashMap<String, f64> = HashMap::new();
    // A sample's time is the delta to the next sample.
    for (i, sample) in samples.iter().enumerate() {
        let Some(id) = sample.as_u64() else { continue };
        let dt_us = deltas.get(i + 1).and_then(Value::as_f64).unwrap_or(0.0);
        let l = label.get(&id).cloned().unwrap_or_default();
        if l.starts_with("(idle)") || l.starts_with("(program)") || l.starts_with("(root)") {
            continue;
        }
        *by_label.entry(l).or_default() += dt_us / 1000.0;
    }
    let total_ms = by_label.values().sum();
    let mut top: Vec<(String, f64)> = by_label.into_iter().collect();
    top.sort_by(|a, b| b.1.total_cmp(&a.1));
    top.truncate(TOP);
    Window {
        name,
        total_ms,
        top,
    }
}

/// Prints each build's windows.
pub fn print(builds: &[Build], windows: &[Vec<Window>]) {
    for (build, windows) in builds.iter().zip(windows) {
        for w in windows {
            println!(
                "\nprofile, phone {CPU_SLOWDOWN}x, {}: {} (busy {:.0} ms of samples; \
                 idle, unattributed (program) time and the root left out)",
                build.name, w.name, w.total_ms
            );
            for (label, ms) in &w.top {
                println!("  {ms:>8.1} ms  {label}");
            }
        }
    }
}
