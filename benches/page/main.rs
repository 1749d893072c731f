//! Page benchmark (not a test): opens the built `dist/` in headless Chromium, moves the
//! queue-depth slider with the keyboard a fixed number of times and prints, in milliseconds,
//! the median and p95 time from the key press to
//! - the first redraw of all three charts for the new state ("redrawn"), and
//! - the first redraw in which every point of all three charts has at least a model estimate
//!   ("estimated"),
//!
//! plus the main-thread long tasks (over 50 ms) seen meanwhile and while loading, the time from
//! navigation to a first view with every point estimated, and the gzipped bundle size; then it
//! switches to the drive over time and prints how long its three charts take to complete and
//! the long tasks meanwhile.
//! Times are taken inside the page (`performance.now()` at the keydown and the stamps the
//! charts write after drawing), so WebDriver's own latency does not count.
//!
//! Run with `cargo bench --bench page` after `trunk build --release` (`./dev.sh bench` does
//! both).

// WebDriver and a local server only exist natively; a wasm build of this target does nothing.
#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/common/mod.rs"]
mod common;

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    native::main();
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::common;
    use std::time::Duration;

    use common::{dist_dir, Browser};
    use fantoccini::key::Key;
    use fantoccini::Locator;
    use serde_json::{json, Value};

    /// Key presses per direction: up from QD 1 to 1024, down again, then fine (Shift) steps up.
    const PRESSES_PER_LEG: usize = 10;
    /// Longest wait for one press to be fully drawn.
    const PRESS_TIMEOUT: Duration = Duration::from_secs(20);
    const POLL: Duration = Duration::from_millis(25);

    /// Installed once: records the time of every keydown on the slider and every long task.
    const INSTRUMENT: &str = r#"
        window.__bench = { t0: 0, long: [], loadLong: [], start: performance.now() };
        document.getElementById("qd").addEventListener(
            "keydown", () => { window.__bench.t0 = performance.now(); }, { capture: true });
        try {
            // Buffered: long tasks from the page load arrive too, told apart by their start.
            new PerformanceObserver((list) => {
                for (const e of list.getEntries()) {
                    const during = e.startTime >= window.__bench.start;
                    (during ? window.__bench.long : window.__bench.loadLong).push(e.duration);
                }
            }).observe({ type: "longtask", buffered: true });
        } catch (e) { window.__bench.noLongTaskApi = true; }
    "#;

    /// Since navigation start: when every chart of the first view had all points estimated.
    const LOAD_PROBE: &str = r#"
        const ids = ["chart-iops", "chart-latency", "chart-mix", "chart-power", "chart-efficiency"];
        return Math.max(...ids.map((id) => Number(document.getElementById(id).dataset.completeAt)));
    "#;

    /// After a press: null until all charts show the new state with every point estimated, then
    /// the two delays in ms.
    const PROBE: &str = r#"
        const state = location.search.slice(1);
        const charts = ["chart-iops", "chart-latency", "chart-mix", "chart-power", "chart-efficiency"].map((id) => document.getElementById(id));
        if (!charts.every((c) => c.dataset.state === state && c.dataset.completeAt)) return null;
        const t0 = window.__bench.t0;
        return {
            redrawn: Math.max(...charts.map((c) => Number(c.dataset.firstDrawnAt))) - t0,
            estimated: Math.max(...charts.map((c) => Number(c.dataset.completeAt))) - t0,
        };
    "#;

    /// After switching to the drive over time: null until its three charts show the current
    /// state with every point computed, then the ms since the switch.
    const TIME_PROBE: &str = r#"
        const state = location.search.slice(1);
        const ok = ["chart-fill", "chart-burst", "chart-torture"].every((id) => {
            const c = document.getElementById(id);
            return c && c.dataset.state === state && c.dataset.missing === "0";
        });
        return ok ? performance.now() - window.__bench.viewT0 : null;
    "#;

    #[tokio::main(flavor = "multi_thread", worker_threads = 2)]
    pub async fn main() {
        let bundle = bundle_gzip_bytes();
        let browser = Browser::start().await;
        browser.open("?qd=1", "#readout").await;
        wait_until_idle(&browser).await;
        let load = browser.js(LOAD_PROBE, vec![]).await;
        browser.js(INSTRUMENT, vec![]).await;

        let right = Key::Right.to_string();
        let left = Key::Left.to_string();
        let shift_right = format!("{}{}", Key::Shift, Key::Right);
        let legs = [(&right, "up"), (&left, "down"), (&shift_right, "fine up")];
        let slider = browser
            .client
            .find(Locator::Id("qd"))
            .await
            .expect("#qd slider");

        let (mut redrawn, mut estimated) = (Vec::new(), Vec::new());
        for (keys, leg) in legs {
            for i in 0..PRESSES_PER_LEG {
                let before = browser.location_search().await;
                slider.send_keys(keys).await.expect("key press on #qd");
                let deadline = tokio::time::Instant::now() + PRESS_TIMEOUT;
                let times = loop {
                    let now = browser.location_search().await;
                    if now != before {
                        let v = browser.js(PROBE, vec![]).await;
                        if !v.is_null() {
                            break v;
                        }
                    }
                    assert!(
                        tokio::time::Instant::now() < deadline,
                        "press {i} ({leg}) was not drawn within {PRESS_TIMEOUT:?}; console: {:#?}",
                        browser.console()
                    );
                    tokio::time::sleep(POLL).await;
                };
                redrawn.push(times["redrawn"].as_f64().unwrap_or(f64::NAN));
                estimated.push(times["estimated"].as_f64().unwrap_or(f64::NAN));
            }
        }
        // Let buffered long-task entries arrive before reading them.
        tokio::time::sleep(POLL).await;
        let long = browser.js("return window.__bench;", vec![]).await;
        let durations = |name: &str| -> Vec<f64> {
            long[name]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_f64).collect())
                .unwrap_or_default()
        };
        let (long_tasks, load_long_tasks) = (durations("long"), durations("loadLong"));

        println!(
            "page benchmark: {} queue-depth key presses (QD 1 -> 1024 -> 1, then Shift steps)",
            redrawn.len()
        );
        print_stats("input -> all charts redrawn  ", &mut redrawn);
        print_stats("input -> all points estimated", &mut estimated);
        if long["noLongTaskApi"] == json!(true) {
            println!("long tasks (> 50 ms): not measurable in this browser");
        } else {
            let longest = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
            println!(
                "long tasks (> 50 ms) while moving the slider: {} (longest {:.0} ms)",
                long_tasks.len(),
                longest(&long_tasks)
            );
            println!(
                "long tasks (> 50 ms) while loading: {} (longest {:.0} ms)",
                load_long_tasks.len(),
                longest(&load_long_tasks)
            );
        }
        let mount = browser
            .js(
                "const m = performance.getEntriesByName('lab:mount')[0]; return m ? m.duration : null;",
                vec![],
            )
            .await;
        println!(
            "app start-up (mounting the components, part of the first long task): {:.0} ms",
            mount.as_f64().unwrap_or(f64::NAN)
        );
        let draw = browser
            .js(
                r#"return ["chart-iops", "chart-latency", "chart-mix", "chart-power", "chart-efficiency"]
                    .map((id) => id + " " + document.getElementById(id).dataset.drawMaxMs + " ms")
                    .join(", ");"#,
                vec![],
            )
            .await;
        println!(
            "longest single chart drawing: {}",
            draw.as_str().unwrap_or_default()
        );
        println!(
            "page load -> first view with every point estimated: {:.0} ms",
            load.as_f64().unwrap_or(f64::NAN)
        );
        println!("bundle (wasm + js), gzip -9: {:.1} KB", bundle as f64 / 1e3);

        // The drive over time: switch views and time its three charts to complete (each model
        // run sliced), counting the long tasks meanwhile.
        browser
            .js(
                "window.__bench.long = []; window.__bench.viewT0 = performance.now();",
                vec![],
            )
            .await;
        browser.click("view-time").await;
        let took = browser
            .wait_for("the drive-over-time charts to be complete", || async {
                browser.js(TIME_PROBE, vec![]).await.as_f64()
            })
            .await;
        tokio::time::sleep(POLL).await;
        let time_long = browser.js("return window.__bench.long;", vec![]).await;
        let time_long: Vec<f64> = time_long
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default();
        println!(
            "switch to the drive over time -> its 3 charts complete: {took:.0} ms, long tasks (> 50 ms) meanwhile: {} (longest {:.0} ms)",
            time_long.len(),
            time_long.iter().copied().fold(0.0, f64::max)
        );
        browser.assert_clean_console();
        browser.close().await;
    }

    /// Waits until the model has computed every point of the first view.
    async fn wait_until_idle(browser: &Browser) {
        browser
            .wait_for("the first view to be fully computed", || async {
                let t = browser.text("#model-status").await;
                t.contains("all").then_some(())
            })
            .await;
    }

    fn print_stats(what: &str, v: &mut [f64]) {
        v.sort_by(f64::total_cmp);
        let pct = |p: f64| v[((v.len() as f64 - 1.0) * p).round() as usize];
        println!(
            "{what}: median {:6.1} ms, p95 {:6.1} ms, max {:6.1} ms",
            pct(0.5),
            pct(0.95),
            v[v.len() - 1]
        );
    }

    /// Gzipped size of the wasm and JS the page loads (`gzip -9`, as `tests/run-all.sh` counts).
    fn bundle_gzip_bytes() -> u64 {
        let mut total = 0;
        for entry in std::fs::read_dir(dist_dir()).expect("read dist/") {
            let path = entry.expect("dist entry").path();
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ext == "wasm" || ext == "js" {
                let out = std::process::Command::new("gzip")
                    .arg("-9c")
                    .arg(&path)
                    .output()
                    .expect("gzip");
                total += out.stdout.len() as u64;
            }
        }
        total
    }
}
