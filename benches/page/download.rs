//! Download before the first chart: the gzip -9 size of the JS and wasm files the browser
//! fetched before the first chart was drawn (what a reader on a slow link waits for), as
//! "main" (the app's loader `boot-*.js`, the opening chart's and the app's wasm-bindgen glue and
//! wasm, whichever were fetched by then) and "worker" (any file
//! whose name starts with `worker`: a Web Worker's loader, glue and wasm), and their sum; plus,
//! as before, every JS and wasm file in `dist/`.
//!
//! What was fetched comes from two places, merged: the document's resource timing
//! (`PerformanceResourceTiming` entries that started before the first chart), and the static
//! server's log (requests that arrived before the first chart, by the wall clock against
//! `performance.timeOrigin`). The server's log is what sees a worker's own fetches (its module
//! imports and its wasm), which appear only in the worker's timeline, not the document's.

use crate::common::cdp::Chrome;
use crate::common::{Context, Failure, Result, StaticServer};
use crate::lab::Load;
use crate::report::{kb, Section};
use crate::{Build, MOUNT};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

/// `[name, startTime]` of every resource the document fetched.
const RESOURCES: &str = r#"
    return performance.getEntriesByType("resource").map((e) => [e.name, e.startTime]);
"#;

/// The JS and wasm files (paths relative to `dist/`) fetched before the first chart.
pub struct Fetched {
    pub files: Vec<String>,
    /// Those of `files` only the server's log saw (fetched outside the document).
    pub outside_document: Vec<String>,
}

/// What `chrome` (showing `server`'s copy of `dist`) fetched before `load`'s first chart.
pub async fn fetched_before(
    chrome: &Chrome,
    server: &StaticServer,
    dist: &Path,
    load: &Load,
) -> Result<Fetched> {
    let base = server.url("");
    let entries = chrome.js(RESOURCES, vec![]).await?;
    let mut files: Vec<String> = Vec::new();
    for entry in entries.as_array().into_iter().flatten() {
        let (name, start) = (entry[0].as_str().unwrap_or(""), entry[1].as_f64());
        if start.is_some_and(|t| t < load.first_chart) {
            if let Some(rel) = name.strip_prefix(&base) {
                push_code_file(&mut files, rel, dist);
            }
        }
    }
    let in_document = files.len();
    let cutoff = load.time_origin + load.first_chart;
    for served in server.served() {
        let at = served.at.duration_since(UNIX_EPOCH).unwrap_or_default();
        if at.as_secs_f64() * 1e3 < cutoff {
            if let Some(rel) = served.path.strip_prefix(MOUNT) {
                push_code_file(&mut files, rel, dist);
            }
        }
    }
    let outside_document = files[in_document..].to_vec();
    Ok(Fetched {
        files,
        outside_document,
    })
}

/// Adds `rel` (a URL path below the mount, maybe with a query) if it names a JS or wasm file
/// of `dist` not listed yet.
fn push_code_file(files: &mut Vec<String>, rel: &str, dist: &Path) {
    let rel = rel.split(['?', '#']).next().unwrap_or("");
    let is_code = rel.ends_with(".js") || rel.ends_with(".mjs") || rel.ends_with(".wasm");
    if is_code && dist.join(rel).is_file() && !files.iter().any(|f| f == rel) {
        files.push(rel.to_string());
    }
}

/// A Web Worker's file (`worker.js`, `worker_bg.wasm`, `worker_loader.js`, hashed or not).
fn is_worker_file(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name.starts_with("worker")
}

/// `gzip -9` size of one file.
fn gzip_bytes(path: &Path) -> Result<u64> {
    let out = std::process::Command::new("gzip")
        .arg("-9c")
        .arg(path)
        .output()
        .with_context(|| format!("cannot run gzip on {}", path.display()))?;
    if !out.status.success() {
        return Err(Failure::new(format!("gzip {} failed", path.display())));
    }
    Ok(out.stdout.len() as u64)
}

/// Gzipped size of every JS and wasm file in `dist` (what `tests/run-all.sh` counts).
fn whole_bundle(dist: &Path) -> Result<u64> {
    let entries = std::fs::read_dir(dist).with_context(|| format!("{}", dist.display()))?;
    let files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("js" | "wasm")))
        .collect();
    files.iter().map(|p| gzip_bytes(p)).sum()
}

/// The table, from each build's first phone load (`None`: not recorded).
pub fn section(builds: &[Build], fetched: &[Option<&Fetched>]) -> Result<Section> {
    let mut s = Section::new("download before the first chart (phone load), gzip -9");
    let (mut main, mut worker, mut sum, mut all) = (vec![], vec![], vec![], vec![]);
    for (build, f) in builds.iter().zip(fetched) {
        all.push(kb(whole_bundle(&build.dist)?));
        let Some(f) = f else {
            for v in [&mut main, &mut worker, &mut sum] {
                v.push("n/a".to_string());
            }
            continue;
        };
        let size = |worker_files: bool| -> Result<u64> {
            let files = f.files.iter().filter(|r| is_worker_file(r) == worker_files);
            files.map(|r| gzip_bytes(&build.dist.join(r))).sum()
        };
        let (m, w) = (size(false)?, size(true)?);
        main.push(kb(m));
        worker.push(kb(w));
        sum.push(kb(m + w));
        s.note(format!("{}: {}", build.name, f.files.join(", ")));
        if !f.outside_document.is_empty() {
            s.note(format!(
                "{}: fetched outside the document (seen by the server only): {}",
                build.name,
                f.outside_document.join(", ")
            ));
        }
    }
    s.note(
        "a file counts when its fetch started (resource timing) or reached the server before the \
         first chart; a worker that starts late fetches after it",
    );
    s.row(
        "main (boot.js, the opening chart's and the app's JS and wasm)",
        main,
    );
    s.row("worker (files named worker*)", worker);
    s.row("sum", sum);
    s.row("every JS and wasm file in dist/", all);
    Ok(s)
}
