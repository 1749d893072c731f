//! End-to-end test of "Fit the model to your drive" (issue 17): fio output of a drive with
//! known values (the model's own, written by the fio exporter) imported in headless Chromium,
//! fitted in slices without a long task, the fitted drive in the link and back from it; a fit
//! cancelled leaves the drive as it was.
//!
//! Needs `dist/` and `/usr/bin/chromedriver`; fails, never skips, without them.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{fio, Browser, Context, Result};
use fantoccini::Locator;
use parallelism_lab::model::custom::{self, CustomDrive};
use parallelism_lab::model::{sweep, DriveState, RunOptions, Rw, Workload};
use serde_json::{json, Value};

const AREA: &str = "e2e-fit";
/// The drive whose fio output the page fits.
const TRUTH: &str = "e12_d16_r50000_c2000";
/// Longest a page fit may take here (a few seconds on this machine; CI machines are slower).
const FIT_TIMEOUT: Duration = Duration::from_secs(300);

fn scratch(name: &str) -> Result<PathBuf> {
    fio::scratch(AREA, name)
}

/// fio's JSON output of `TRUTH` running `rw` at `bs_bytes` over `depths`, as a file.
fn fio_file(name: &str, rw: Rw, bs_bytes: u32, depths: &[u32]) -> Result<PathBuf> {
    let truth: CustomDrive = TRUTH.parse().context(TRUTH)?;
    let workload = Workload {
        rw,
        rwmixread: 100,
        bs_bytes,
        iodepth: 1,
    };
    let options = RunOptions {
        measured_ios: 4_000,
        ..RunOptions::default()
    };
    let points = sweep::over_queue_depth(
        &truth.drive(),
        workload,
        DriveState::Fob,
        options,
        None,
        depths,
    )
    .with_context(|| format!("{TRUTH}'s sweep"))?;
    let path = scratch(name)?;
    let output = parallelism_lab::fio::output_json(&workload, &points);
    std::fs::write(&path, output).with_context(|| format!("{}", path.display()))?;
    Ok(path)
}

async fn eval(browser: &Browser, script: &str) -> Result<Value> {
    browser.js(script, vec![]).await
}

async fn choose_files(browser: &Browser, paths: &[&Path]) -> Result {
    let before = eval(
        browser,
        "return document.querySelectorAll('.fio-file').length;",
    )
    .await?;
    let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    browser.press("fio-file", &paths.join("\n")).await?;
    browser
        .wait_for("the import to be listed", || async {
            let now = eval(
                browser,
                "return document.querySelectorAll('.fio-file').length;",
            )
            .await?;
            Ok((now != before).then_some(()))
        })
        .await
}

/// Records every long task (over 50 ms) from now on in `window.__long`, each as its start after
/// `window.__fitStart` and its length, in ms.
async fn watch_long_tasks(browser: &Browser) -> Result {
    eval(
        browser,
        r#"window.__long = [];
           new PerformanceObserver((list) => {
               for (const e of list.getEntries()) {
                   // Up to the moment the fit's result is shown: the charts the fitted drive
                   // then redraws are the charts' work, not the fit's.
                   if (window.__fitDoneAt === undefined || e.startTime < window.__fitDoneAt) {
                       window.__long.push([Math.round(e.startTime - window.__fitStart), Math.round(e.duration)]);
                   }
               }
           }).observe({ type: "longtask" });
           new MutationObserver(() => {
               if (window.__fitDoneAt === undefined && document.getElementById("fit-verdict")) {
                   window.__fitDoneAt = performance.now();
               }
           }).observe(document.body, { childList: true, subtree: true });
           return true;"#,
    )
    .await?;
    Ok(())
}

/// Waits (up to [`FIT_TIMEOUT`]) for the fit's result, returning its verdict.
async fn fit_result(browser: &Browser) -> Result<String> {
    let deadline = tokio::time::Instant::now() + FIT_TIMEOUT;
    loop {
        let v = eval(
            browser,
            "const n = document.getElementById('fit-verdict'); return n ? n.textContent : null;",
        )
        .await?;
        if let Some(text) = v.as_str() {
            return Ok(text.to_string());
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no fit result after {FIT_TIMEOUT:?}; console: {}",
            browser.console_text()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Runs one fit from the Fit button, once the charts have every point computed (so their
/// redrawing is not measured as the fit's): its verdict, and the long tasks met until it.
async fn fit_once(browser: &Browser) -> Result<(String, Value)> {
    browser
        .wait_until(
            "every point of the charts computed",
            "return document.getElementById('model-status').hasAttribute('data-computed-at');",
        )
        .await?;
    eval(
        browser,
        "window.__long = []; window.__fitDoneAt = undefined; window.__fitStart = performance.now(); return 1;",
    )
    .await?;
    browser.click("fit-start").await?;
    browser
        .wait_until(
            "the last fit's result to go",
            "return document.getElementById('fit-verdict') === null;",
        )
        .await?;
    let verdict = fit_result(browser).await?;
    Ok((verdict, eval(browser, "return window.__long;").await?))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_fit_runs_in_slices_and_its_drive_is_in_the_link() -> Result {
    let reads = fio_file("randread.json", Rw::RandRead, 4096, &[1, 8, 64])?;
    let sequential = fio_file("read.json", Rw::Read, 131_072, &[16])?;

    let browser = Browser::start().await?;
    browser.open("?preset=e12", "#fio-file").await?;
    // Chosen together: one drive's results, one fit.
    choose_files(&browser, &[&reads, &sequential]).await?;

    // Cancelled at once: the drive stays the E12.
    browser.click("fit-start").await?;
    browser.click("fit-cancel").await?;
    let note = browser.text("#fit-note").await?;
    assert!(note.contains("Fit cancelled"), "{note}");
    assert!(browser.location_search().await?.contains("preset=e12"));

    browser.press("fit-capacity", "480").await?;
    watch_long_tasks(&browser).await?;
    // Issue 17: a fit never blocks the page longer than one slice. A loaded machine can
    // stretch any task past 50 ms (it has delayed chromedriver's start by seconds), so a fit
    // that met long tasks is run once more, and that run must meet none: a step that always
    // blocks fails both.
    let mut attempts = Vec::new();
    let verdict = loop {
        let (verdict, long) = fit_once(&browser).await?;
        attempts.push(long.clone());
        if long == json!([]) {
            break verdict;
        }
        assert!(
            attempts.len() < 2,
            "long tasks in every fit ([ms after Fit, ms long] per attempt): {attempts:?}"
        );
    };
    assert!(
        verdict.starts_with("Model result: worst error"),
        "{verdict}"
    );
    assert!(!verdict.contains("lets go"), "{verdict}");

    let rows = eval(
        &browser,
        "return document.querySelectorAll('#fit-params tbody tr').length;",
    )
    .await?;
    assert_eq!(rows, json!(custom::DRIVE_FIT.len()));
    let cells = eval(
        &browser,
        "return document.querySelectorAll('#fit-cells tbody tr').length;",
    )
    .await?;
    assert_eq!(
        cells,
        json!(2 * 4),
        "a throughput and a latency row per job"
    );
    // Tall enough for the whole panel in one picture.
    browser.client.set_window_size(1000, 2600).await.unwrap();
    eval(
        &browser,
        "document.getElementById('fit-drive').scrollIntoView(); return 1;",
    )
    .await?;
    let panel = browser
        .client
        .find(Locator::Id("fit-drive"))
        .await
        .expect("#fit-drive");
    let png = panel.screenshot().await.expect("a screenshot of the panel");
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::write(shots.join("fit-your-drive.png"), png).unwrap();
    let dies = browser.text("#fit-params tbody tr:first-child").await?;
    assert!(dies.contains("given (capacity)"), "{dies}");

    let search = browser
        .wait_for_query("the fitted drive in the link", &["drive=e12_d16"])
        .await?;
    assert!(!search.contains("preset="), "{search}");

    // The link opens the fitted drive for anyone.
    browser.open(&search, "#preset").await?;
    let chosen = eval(
        &browser,
        "const s = document.getElementById('preset'); return s.options[s.selectedIndex].text;",
    )
    .await?;
    assert!(
        chosen.as_str().is_some_and(|t| t.starts_with("Your drive")),
        "{chosen}"
    );
    assert_eq!(browser.location_search().await?, search);
    browser.assert_clean_console()?;
    browser.close().await
}
