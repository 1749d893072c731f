//! End-to-end: the release build in `dist/` in headless Chromium, driven over WebDriver.
//!
//! Needs `dist/` (`trunk build --release`) and `/usr/bin/chromedriver`; fails, never skips,
//! without them. `tests/run-all.sh` builds `dist/` first and runs this file last.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{dist_dir, Browser};
use fantoccini::key::Key;
use fantoccini::Locator;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_slider_moves_readout_and_chart() {
    let browser = Browser::start().await;
    browser.open("", "#readout").await;

    // The chart is drawn once the app has mounted (a canvas never drawn on has no ink).
    let chart_before = browser
        .wait_for("the first chart drawing", || async {
            let hash = browser.canvas_hash("#chart-iops").await;
            (!hash.ends_with(":0")).then_some(hash)
        })
        .await;
    let readout_before = browser.text("#readout").await;
    assert_eq!(readout_before, "16", "initial queue depth");

    let slider = browser
        .client
        .find(Locator::Id("qd"))
        .await
        .expect("#qd slider");
    slider
        .send_keys(&Key::Right.to_string())
        .await
        .expect("ArrowRight on #qd");

    let readout_after = browser
        .wait_for("the readout to change", || async {
            let now = browser.text("#readout").await;
            (now != readout_before).then_some(now)
        })
        .await;
    assert_eq!(
        readout_after, "32",
        "one step right doubles the queue depth"
    );
    let valuetext = slider.attr("aria-valuetext").await.expect("aria-valuetext");
    assert_eq!(valuetext.as_deref(), Some("queue depth 32"));

    let chart_after = browser
        .wait_for("the chart to be redrawn", || async {
            let now = browser.canvas_hash("#chart-iops").await;
            (now != chart_before).then_some(now)
        })
        .await;
    assert_ne!(chart_after, chart_before);

    browser.assert_clean_console();
    browser.close().await;
}

/// The built page must keep working under its CSP and from any sub-path: no inline scripts,
/// no absolute asset URLs.
#[test]
fn e2e_dist_has_no_inline_script_or_absolute_urls() {
    let html =
        std::fs::read_to_string(dist_dir().join("index.html")).expect("read dist/index.html");
    for tag in html.split("<script").skip(1) {
        let open = &tag[..tag.find('>').expect("unterminated <script")];
        assert!(
            open.contains("src="),
            "inline <script{open}> in dist/index.html (CSP forbids it)"
        );
    }
    for attr in ["src=\"/", "href=\"/", "data-js=\"/", "data-wasm=\"/"] {
        assert!(
            !html.contains(attr),
            "absolute URL ({attr}...) in dist/index.html"
        );
    }
    assert!(
        html.contains("Content-Security-Policy"),
        "CSP meta missing from dist/index.html"
    );
}
