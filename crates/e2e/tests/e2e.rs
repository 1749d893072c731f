//! End-to-end: the release build in `dist/` in headless Chromium, driven over WebDriver.
//!
//! Needs `dist/` (`trunk build --release`) and `/usr/bin/chromedriver`; fails, never skips,
//! without them. `tests/run-all.sh` builds `dist/` first and runs this file last.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{dist_dir, Browser, Result};
use fantoccini::key::Key;
use fantoccini::Locator;
use serde_json::json;

/// The query the default state writes into the URL.
const DEFAULT_QUERY: &str = "?preset=e18dc&cap=1920&dies=32&qd=32&rw=randread&bs=4k&state=steady";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_slider_moves_readout_and_chart() -> Result {
    let browser = Browser::start().await?;
    browser.open("", "#readout").await?;
    browser.wait_for_queue_charts().await?;
    assert_eq!(browser.location_search().await?, DEFAULT_QUERY);

    let readout_before = browser.text("#readout").await?;
    let chart_before = browser.canvas_hash("#chart-iops").await?;
    assert!(
        readout_before.contains("queue depth 32"),
        "initial readout: {readout_before}"
    );
    assert!(
        !browser.text("#readout-iops").await?.contains('–'),
        "the default view has a model result"
    );

    browser.press("qd", &Key::Right.to_string()).await?;

    let readout_after = browser
        .wait_for("the readout to change", || async {
            let now = browser.text("#readout-what").await?;
            Ok(now.contains("queue depth 64").then_some(now))
        })
        .await?;
    assert!(readout_after.contains("queue depth 64"));
    assert_eq!(
        browser.attr("#qd", "aria-valuetext").await?.as_deref(),
        Some("queue depth 64"),
        "one step right doubles the queue depth"
    );
    let chart_after = browser
        .wait_for("the chart to be redrawn", || async {
            let now = browser.canvas_hash("#chart-iops").await?;
            Ok((now != chart_before).then_some(now))
        })
        .await?;
    assert_ne!(chart_after, chart_before);
    browser.wait_for_queue_charts().await?;
    assert_ne!(browser.text("#readout").await?, readout_before);

    browser.assert_clean_console()?;
    browser.close().await
}

/// Under the readout, where the default point's time goes: once the full run is in, the
/// sentence names the largest part of the reads' p99 with the figures `lab sweep --anatomy`
/// prints for the same point, the bars are drawn under the page's CSP (their widths set
/// through the style object), and on a phone's 360 px nothing scrolls sideways, the table of
/// every part opened.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_where_the_time_goes_names_the_default_points_p99() -> Result {
    let browser = Browser::start().await?;
    browser.open("", "#readout").await?;
    let sentence = browser
        .wait_for("the full result's anatomy", || async {
            // Missing until the readout's panel has mounted.
            let title = browser.text("#anatomy-title").await.unwrap_or_default();
            if !title.ends_with("model result") {
                return Ok(None);
            }
            Ok(Some(browser.text("#anatomy-sentence").await?))
        })
        .await?;
    assert_eq!(
        sentence,
        "At p99, 75% of a read's time is spent waiting for its die behind other reads \
         (model: the reads at or above the p99 take 323 µs on average)."
    );
    let drawn = browser
        .js(
            "const s = document.querySelector('#anatomy .anatomy-row:nth-child(2) .anatomy-segment');
             const bar = s.parentElement.getBoundingClientRect();
             const widths = [...s.parentElement.children]
                 .map((e) => e.getBoundingClientRect().width);
             return [bar.width, widths.reduce((a, b) => a + b, 0)];",
            vec![],
        )
        .await?;
    let (bar, parts) = (drawn[0].as_f64().unwrap(), drawn[1].as_f64().unwrap());
    assert!(
        bar > 100.0 && (parts - bar).abs() < 3.0,
        "the p99's parts fill its bar: {drawn}"
    );
    browser.cdp(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 360, "height": 800, "deviceScaleFactor": 2, "mobile": true}),
    )?;
    browser
        .js(
            "document.getElementById('anatomy-parts').open = true;",
            vec![],
        )
        .await?;
    let overflow = browser.sideways_overflow().await?;
    assert!(
        overflow <= 0,
        "{overflow} px of sideways scrolling at 360 px"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_link_opens_with_exactly_its_values() -> Result {
    let browser = Browser::start().await?;
    browser
        .open("?preset=e18dc&cap=960&qd=32&rw=randwrite", "#readout")
        .await?;
    let values = browser
        .js(
            r#"const v = (id) => document.getElementById(id).textContent;
               const checked = (id) => document.getElementById(id).checked;
               return {
                 preset: document.getElementById("preset").value,
                 cap: v("cap-value"), dies: v("dies-value"), qd: v("qd-value"),
                 mix: v("mix-value"), bs: v("bs-value"),
                 random: checked("pattern-random"), steady: checked("state-steady"),
                 notes: document.getElementById("url-notes") !== null,
               };"#,
            vec![],
        )
        .await?;
    assert_eq!(
        values,
        json!({
            "preset": "e18dc", "cap": "960 GB", "dies": "16", "qd": "32",
            "mix": "0% reads", "bs": "4 KiB", "random": true, "steady": true, "notes": false,
        })
    );
    assert_eq!(
        browser.location_search().await?,
        "?preset=e18dc&cap=960&dies=16&qd=32&rw=randwrite&bs=4k&state=steady",
        "the URL is rewritten in full from the state"
    );
    browser.wait_for_queue_charts().await?;
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_moving_a_slider_rewrites_the_url_without_new_history() -> Result {
    let browser = Browser::start().await?;
    browser.open("", "#readout").await?;
    let history_before = browser.js("return history.length;", vec![]).await?;
    assert_eq!(browser.location_search().await?, DEFAULT_QUERY);

    for _ in 0..3 {
        browser.press("bs", &Key::Right.to_string()).await?;
    }
    browser.press("mix", &Key::Left.to_string()).await?;
    // The URL is rewritten at most every 200 ms while the controls move; the last state lands.
    let search = browser
        .wait_for_query("the URL to follow the sliders", &["bs=32k", "mix=90"])
        .await?;
    assert!(search.contains("rw=randrw"), "{search}");
    assert_eq!(
        browser.js("return history.length;", vec![]).await?,
        history_before,
        "dragging must not add history entries"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_bad_parameter_shows_a_note_and_the_page_still_works() -> Result {
    let browser = Browser::start().await?;
    browser.open("?qd=banana", "#url-notes").await?;
    let note = browser.text("#url-notes").await?;
    assert!(
        note.contains("qd") && note.contains("banana"),
        "the note names the parameter and the value: {note}"
    );
    assert_eq!(browser.text("#qd-value").await?, "32");
    browser.wait_for_queue_charts().await?;

    browser.press("qd", &Key::Left.to_string()).await?;
    browser
        .wait_for("the readout to follow", || async {
            Ok(browser
                .text("#readout-what")
                .await?
                .contains("queue depth 16")
                .then_some(()))
        })
        .await?;
    browser
        .client
        .find(Locator::Id("dismiss-notes"))
        .await
        .expect("#dismiss-notes")
        .click()
        .await
        .expect("click Dismiss");
    browser
        .wait_for("the note to be dismissed", || async {
            Ok((browser
                .js(
                    "return document.getElementById('url-notes') === null;",
                    vec![],
                )
                .await?
                == json!(true))
            .then_some(()))
        })
        .await?;
    assert!(browser.location_search().await?.contains("qd=16"));
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_drive_over_time_renders_and_the_idle_slider_moves_the_bursts() -> Result {
    let browser = Browser::start().await?;
    browser
        .open("?preset=e12&cap=960&view=time&idle=0", "#drive-time")
        .await?;
    browser.wait_for_time_charts().await?;
    let search = browser.location_search().await?;
    assert!(
        search.ends_with("&view=time&idle=0&burst=32"),
        "the URL carries the view's settings: {search}"
    );
    assert_eq!(
        browser
            .js("return document.querySelector('.charts').hidden;", vec![])
            .await?,
        json!(true),
        "the queue-depth charts make way"
    );
    let fill = browser.text("#time-fill-summary").await?;
    assert!(
        fill.contains("SLC cache on the empty drive") && fill.starts_with("Model"),
        "{fill}"
    );
    let torture = browser.text("#time-torture-summary").await?;
    assert!(torture.contains("after a TRIM"), "{torture}");
    let readout_before = browser.text("#burst-readout").await?;
    assert!(readout_before.contains("with 0 s idle"), "{readout_before}");
    assert!(browser
        .text("#burst-published")
        .await?
        .contains("above 1 GB/s"));
    let chart_before = browser.canvas_hash("#chart-burst").await?;
    assert!(!chart_before.ends_with(":0"), "the burst chart has ink");

    for _ in 0..6 {
        browser.press("idle", &Key::Right.to_string()).await?;
    }
    let readout_after = browser
        .wait_for("the burst readout to follow the slider", || async {
            let now = browser.text("#burst-readout").await?;
            Ok(now.contains("with 120 s idle").then_some(now))
        })
        .await?;
    assert_ne!(readout_after, readout_before);
    browser
        .wait_for_query("the URL to carry the idle time", &["idle=120"])
        .await?;
    browser.wait_for_time_charts().await?;
    let chart_after = browser.canvas_hash("#chart-burst").await?;
    assert_ne!(chart_after, chart_before, "the burst chart was redrawn");
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_the_view_switch_writes_the_url_and_fits_a_narrow_screen() -> Result {
    let browser = Browser::start().await?;
    browser.open("?preset=octane&cap=128", "#readout").await?;
    browser
        .client
        .find(Locator::Id("view-time"))
        .await
        .expect("#view-time")
        .click()
        .await
        .expect("click the drive-over-time view");
    let search = browser
        .wait_for_query("the URL to carry the view", &["view=time"])
        .await?;
    assert!(search.contains("idle=60&burst=32"), "{search}");
    browser.wait_for_time_charts().await?;
    assert!(browser
        .text("#torture-published")
        .await?
        .contains("OCZ Octane review"));
    browser
        .client
        .set_window_size(360, 800)
        .await
        .expect("a narrow window");
    let overflow = browser
        .wait_for("the narrow layout", || async {
            let v = browser
                .js(
                    "return [window.innerWidth, document.documentElement.scrollWidth];",
                    vec![],
                )
                .await?;
            let (Some(inner), Some(scroll)) = (v[0].as_i64(), v[1].as_i64()) else {
                return Ok(None);
            };
            Ok((inner <= 400).then_some(scroll - inner))
        })
        .await?;
    assert!(
        overflow <= 0,
        "the page is {overflow} px wider than a narrow screen"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

/// The built page must keep working under its CSP and from any sub-path: no inline scripts,
/// no absolute asset URLs.
#[test]
fn e2e_dist_has_no_inline_script_or_absolute_urls() -> Result {
    let html =
        std::fs::read_to_string(dist_dir()?.join("index.html")).expect("read dist/index.html");
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
    Ok(())
}
