//! End-to-end: the crash screen (src/ui/crash.rs). A panic must leave a page that says what
//! happened and offers a way back, not a dead page (issue 7).
//!
//! `?debug=panic` makes the release build panic on purpose once it has mounted. Needs `dist/`
//! and `/usr/bin/chromedriver`, like e2e.rs.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::Browser;
use fantoccini::Locator;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_panic_shows_the_crash_screen_and_reset_brings_the_lab_back() {
    let browser = Browser::start().await;
    browser
        .open("?qd=8&rw=randwrite&debug=panic", "#crash")
        .await;

    assert_eq!(browser.text("#crash-title").await, "The lab stopped");
    assert!(
        browser
            .text("#crash pre")
            .await
            .contains("a deliberate panic, asked for by ?debug=panic"),
        "the technical details carry the panic's message"
    );
    // Keyboard users land on the way out; the dead app behind cannot take focus.
    let focused = browser
        .js("return document.activeElement.id;", vec![])
        .await;
    assert_eq!(focused, json!("crash-reload"));
    let inert_app = browser
        .js(
            "return [...document.body.children].filter(e => e.id !== 'crash').every(e => e.inert);",
            vec![],
        )
        .await;
    assert_eq!(inert_app, json!(true));

    // "Reload this view" keeps what the reader set; "Reset" drops the query.
    let reload = browser
        .attr("#crash-reload", "href")
        .await
        .expect("the reload link has an href");
    assert!(
        reload.contains("qd=8") && reload.contains("rw=randwrite"),
        "reload keeps the view: {reload}"
    );
    let reset = browser
        .attr("#crash-reset", "href")
        .await
        .expect("the reset link has an href");
    assert!(!reset.contains('?'), "reset opens the defaults: {reset}");

    let console = browser.console();
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
                .await;
            (back == json!(true)).then_some(())
        })
        .await;
    browser.assert_clean_console();
    browser.close().await;
}
