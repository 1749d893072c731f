//! End-to-end: the crash screen (src/ui/crash.rs). A panic must leave a page that says what
//! happened and offers a way back, not a dead page (issue 7).
//!
//! `?debug=panic` makes the release build panic on purpose once it has mounted. Needs `dist/`
//! and `/usr/bin/chromedriver`, like e2e.rs.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{Browser, Result};
use fantoccini::key::Key;
use fantoccini::Locator;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_panic_shows_the_crash_screen_and_reset_brings_the_lab_back() -> Result {
    let browser = Browser::start().await?;
    browser
        .open("?qd=8&rw=randwrite&debug=panic", "#crash")
        .await?;

    assert_eq!(browser.text("#crash-title").await?, "The lab stopped");
    assert!(
        browser
            .text("#crash pre")
            .await?
            .contains("a deliberate panic, asked for by ?debug=panic"),
        "the technical details carry the panic's message"
    );
    // Keyboard users land on the way out; the dead app behind cannot take focus.
    let focused = browser
        .js("return document.activeElement.id;", vec![])
        .await?;
    assert_eq!(focused, json!("crash-reload"));
    let inert_app = browser
        .js(
            "return [...document.body.children].filter(e => e.id !== 'crash').every(e => e.inert);",
            vec![],
        )
        .await?;
    assert_eq!(inert_app, json!(true));

    // "Reload this view" keeps what the reader set; "Reset" drops the query.
    let reload = browser
        .attr("#crash-reload", "href")
        .await?
        .expect("the reload link has an href");
    assert!(
        reload.contains("qd=8") && reload.contains("rw=randwrite"),
        "reload keeps the view: {reload}"
    );
    let reset = browser
        .attr("#crash-reset", "href")
        .await?
        .expect("the reset link has an href");
    assert!(!reset.contains('?'), "reset opens the defaults: {reset}");

    let console = browser.console()?;
    assert!(
        console
            .iter()
            .any(|e| e.level == "SEVERE" && e.message.contains("Parallelism Lab panicked")),
        "the panic is reported on the console: {console:#?}"
    );

    browser
        .client
        .find(Locator::Id("crash-reset"))
        .await
        .expect("the reset link")
        .click()
        .await
        .expect("following the reset link");
    browser
        .wait_for("the lab to come back with its defaults", || async {
            let back = browser
                .js(
                    "return !document.getElementById('crash') && !!document.getElementById('readout') && location.search.includes('qd=32');",
                    vec![],
                )
                .await?;
            Ok((back == json!(true)).then_some(()))
        })
        .await?;
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_worker_that_traps_mid_run_is_replaced_and_the_charts_complete() -> Result {
    // `?debug=worker` has the pool's last worker trap once it is under way with the first plan,
    // as a bug or memory run out would (issue 54). The page must not show its crash screen: a
    // new worker takes the place, the runs the lost one held are computed again, and the model
    // status line says what happened.
    let browser = Browser::start().await?;
    browser.open("?qd=8&debug=worker", "#readout").await?;
    browser
        .wait_for("the pool to replace the worker that trapped", || async {
            let stops = browser.attr("#model-status", "data-worker-stops").await?;
            Ok((stops.as_deref() == Some("1")).then_some(()))
        })
        .await?;
    let said = browser.text("#worker-stopped").await?;
    assert!(
        said.contains("A model worker stopped")
            && said.contains("trapped on purpose (asked by debug=worker)")
            && said.contains("a new one took its place"),
        "the reason is shown: {said}"
    );
    browser
        .wait_for("every point computed after the replacement", || async {
            let status = browser.text("#model-status").await?;
            Ok(status.contains("points computed").then_some(()))
        })
        .await?;
    let crashed = browser
        .js("return !!document.getElementById('crash');", vec![])
        .await?;
    assert_eq!(crashed, json!(false), "the page kept working");
    // Every chart drew its curves, and the controls still move them.
    let charts = browser
        .js(
            "return [...document.querySelectorAll('canvas[id^=chart-]')].filter(c => c.width > 0).length;",
            vec![],
        )
        .await?;
    assert!(charts.as_i64().unwrap_or(0) >= 3, "charts drawn: {charts}");
    browser.press("qd", &Key::Right.to_string()).await?;
    browser
        .wait_for("the readout to follow a key", || async {
            let now = browser.text("#readout-what").await?;
            Ok(now.contains("queue depth 16").then_some(()))
        })
        .await?;
    browser.close().await
}
