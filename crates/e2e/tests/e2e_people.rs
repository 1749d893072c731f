//! End-to-end, as each kind of reader meets the page (issue 15): a reader on the drive over
//! time, a reader on a phone, a teacher on a projector; and no page text names a folder a
//! reader cannot open. Screenshots of the phone and projector layouts are kept as artefacts in
//! `target/tmp/screenshots/` (Cargo's per-target temporary directory), for a person to look at.
//!
//! Needs `dist/` (`trunk build --release`) and `/usr/bin/chromedriver`; fails, never skips.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::PathBuf;

use common::{Browser, Context, Result};
use serde_json::{json, Value};

/// Where the screenshots go.
fn screenshot_path(name: &str) -> Result<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).with_context(|| format!("{}", dir.display()))?;
    Ok(dir.join(format!("{name}.png")))
}

/// Saves what the browser shows as `name.png` among the artefacts.
async fn screenshot(browser: &Browser, name: &str) -> Result {
    let png = browser.client.screenshot().await.context("a screenshot")?;
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    let file = screenshot_path(name)?;
    std::fs::write(&file, png).with_context(|| format!("{}", file.display()))
}

/// The bounding box of the first element matching `css`: `{top, bottom, height}` in viewport
/// pixels, or `null`.
async fn rect(browser: &Browser, css: &str) -> Result<Value> {
    browser
        .js(
            "const e = document.querySelector(arguments[0]);
             if (!e) return null;
             const r = e.getBoundingClientRect();
             return {top: r.top, bottom: r.bottom, height: r.height, width: r.width};",
            vec![json!(css)],
        )
        .await
}

/// Waits until teaching mode's drive is prepared.
async fn wait_until_prepared(browser: &Browser) -> Result {
    browser
        .wait_for("the drive to be prepared", || async {
            let ready = browser.attr("#activity", "data-ready").await?;
            Ok((ready.as_deref() == Some("true")).then_some(()))
        })
        .await
}

async fn top(browser: &Browser, css: &str) -> Result<f64> {
    rect(browser, css).await?["top"]
        .as_f64()
        .with_context(|| format!("{css} is on the page"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_drive_without_a_cache_says_so_and_one_click_shows_the_reviews_e12() -> Result {
    let browser = Browser::start().await?;
    browser.open("?view=time", "#drive-time").await?;
    let note = browser
        .wait_for("the note on the missing SLC cache", || async {
            let t = browser.text("#time-no-cache").await?;
            Ok((!t.is_empty()).then_some(t))
        })
        .await?;
    assert!(
        note.contains("Phison E18DC") && note.contains("no SLC cache"),
        "{note}"
    );
    assert_eq!(
        browser
            .js("return document.getElementById('readout');", vec![])
            .await?,
        Value::Null,
        "the drive over time shows its own figures, not the queue-depth point"
    );
    browser.click("time-show-cache").await?;
    let search = browser
        .wait_for_query("the E12 of the review", &["preset=e12&cap=960"])
        .await?;
    assert!(search.contains("view=time"), "{search}");
    browser.wait_for_time_charts().await?;
    assert_eq!(
        browser
            .js("return document.getElementById('time-no-cache');", vec![])
            .await?,
        Value::Null
    );
    assert!(browser
        .text("#burst-published")
        .await?
        .contains("AnandTech"));

    // Teaching mode plays the point of the controls, and its readout says so.
    browser.click("view-activity").await?;
    let heading = browser
        .wait_for("the readout in teaching mode", || async {
            let t = browser.text("#readout-title").await?;
            Ok((!t.is_empty()).then_some(t))
        })
        .await?;
    assert!(
        heading.starts_with("The point teaching mode plays:"),
        "{heading}"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_no_page_text_names_a_folder_a_reader_cannot_open() -> Result {
    let browser = Browser::start().await?;
    for query in [
        "",
        "?view=time&preset=e12&cap=960",
        "?view=time&preset=octane&cap=128",
        "?view=activity",
        "?embed=1",
    ] {
        browser.open(query, "#readout, #drive-time").await?;
        tokio::time::sleep(std::time::Duration::from_millis(800)).await;
        let text = browser
            .js("return document.body.innerText;", vec![])
            .await?;
        let text = text.as_str().unwrap();
        assert!(!text.contains("shared/"), "{query}: {text}");
        assert!(
            !text.contains(".csv"),
            "{query}: a file name stands for a source"
        );
    }
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_phone_shows_the_chart_then_its_controls_then_the_readout_and_never_scrolls_sideways(
) -> Result {
    let browser = Browser::start().await?;
    browser.set_viewport(390, 844).await?;
    browser.open("", "#chart-iops").await?;
    screenshot(&browser, "phone-390x844").await?;
    let chart = top(&browser, "#figure-iops").await?;
    let iodepth = top(&browser, "#qd").await?;
    let capacity = top(&browser, "#cap").await?;
    let readout = top(&browser, "#readout").await?;
    assert!(
        chart < iodepth,
        "the chart ({chart}) before the queue depth ({iodepth})"
    );
    assert!(
        iodepth < capacity,
        "the queue depth ({iodepth}) before the capacity ({capacity})"
    );
    assert!(
        capacity < readout,
        "the controls before the readout ({readout})"
    );
    for after in ["#share", "#fio-import", ".tours"] {
        let at = top(&browser, after).await?;
        assert!(readout < at, "{after} ({at}) after the readout ({readout})");
    }
    assert!(
        top(&browser, "#figure-latency").await? > readout,
        "the other charts after the readout"
    );
    let small = browser
        .small_touch_targets("input[type=range], #controls select, .radio, .check")
        .await?;
    assert_eq!(small, json!([]), "touch targets under 44 px");

    for width in [390, 360] {
        browser.set_viewport(width, 800).await?;
        let overflow = browser.sideways_overflow().await?;
        assert!(
            overflow <= 0,
            "{overflow} px of sideways scrolling at {width} px"
        );
    }
    browser.assert_clean_console()?;
    browser.close().await
}

/// Teaching mode's picture is drawn in units of a picture up to 1,000 wide, its text 20 units
/// high, and laid out for its box: on a phone it keeps at least 0.7 px a unit
/// (`MIN_PX_PER_UNIT`, text of 14 px and more) with the host, link and controller stacked and
/// the lanes in more rows, so neither the picture nor the page scrolls sideways, for the
/// default drive and the largest (256 dies); widened to a desktop's window, it is laid out
/// again with the front end in a row.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_phone_reads_teaching_mode_s_picture_at_14_px_without_scrolling_sideways() -> Result {
    let browser = Browser::start().await?;
    browser.set_viewport(390, 844).await?;
    for (query, shot) in [
        ("?view=activity", "phone-teaching-390x844"),
        ("?view=activity&dies=256", "phone-teaching-256-dies-390x844"),
    ] {
        browser.open(query, ".drive-picture").await?;
        wait_until_prepared(&browser).await?;
        let picture = browser
            .js(
                "const svg = document.querySelector('.drive-picture');
                 const box = document.querySelector('.picture-box');
                 const title = svg.querySelector('.box-title');
                 const unitPx = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
                 const host = svg.querySelector('.host rect').getBoundingClientRect();
                 const controller = svg.querySelector('.controller rect').getBoundingClientRect();
                 return {
                     textPx: parseFloat(getComputedStyle(title).fontSize) * unitPx,
                     boxScrolls: box.scrollWidth > box.clientWidth,
                     stacked: controller.top >= host.bottom,
                     pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
                 };",
                vec![],
            )
            .await?;
        assert!(
            picture["textPx"].as_f64().unwrap() >= 14.0 - 0.05,
            "{query}: the picture's text on a phone: {picture}"
        );
        assert_eq!(picture["boxScrolls"], json!(false), "{query}: {picture}");
        assert_eq!(picture["stacked"], json!(true), "{query}: {picture}");
        assert!(
            picture["pageOverflow"].as_i64().unwrap() <= 0,
            "{query}: the page scrolls sideways: {picture}"
        );
        screenshot(&browser, shot).await?;
    }
    // The same page in a desktop's window lays the picture out again, the front end in a row.
    browser.set_viewport(1280, 800).await?;
    browser
        .wait_for("the picture's front end in a row", || async {
            let row = browser
                .js(
                    "const svg = document.querySelector('.drive-picture');
                     const host = svg.querySelector('.host rect').getBoundingClientRect();
                     const controller = svg.querySelector('.controller rect').getBoundingClientRect();
                     return controller.top < host.bottom && controller.left > host.right;",
                    vec![],
                )
                .await?;
            Ok((row == json!(true)).then_some(()))
        })
        .await?;
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_projector_shows_the_drive_and_play_on_the_first_screen() -> Result {
    let browser = Browser::start().await?;
    browser.set_viewport(1280, 720).await?;
    browser
        .open("?view=activity&theme=projector", "#teach-play")
        .await?;
    wait_until_prepared(&browser).await?;
    screenshot(&browser, "projector-1280x720").await?;
    for button in ["#teach-play", "#teach-step"] {
        let r = rect(&browser, button).await?;
        let bottom = r["bottom"].as_f64().unwrap();
        assert!(
            r["top"].as_f64().unwrap() >= 0.0 && bottom <= 720.0,
            "{button} on the first screen: {r}"
        );
    }
    let picture = top(&browser, ".drive-picture").await?;
    // Host, link, controller and the first channel's dies: the picture's top 150 px.
    assert!(
        picture < 720.0 - 150.0,
        "the drive picture starts at {picture} px, too low for a 720 px screen"
    );
    let tours = rect(&browser, "#tours").await?;
    assert_eq!(
        browser
            .js("return document.getElementById('tours').open;", vec![])
            .await?,
        json!(false)
    );
    assert!(
        tours["height"].as_f64().unwrap() < 90.0,
        "the folded tours take one line: {tours}"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_lower_power_state_caps_the_deep_queue_and_the_page_says_why() -> Result {
    let browser = Browser::start().await?;
    browser
        .open("?preset=e12&cap=960&qd=256&state=fob", "#power")
        .await?;
    let watts = browser
        .wait_for("the readout's power", || async {
            let t = browser.text("#readout-watts").await?;
            Ok(t.ends_with('W').then_some(t))
        })
        .await?;
    assert!(!watts.starts_with('–'), "{watts}");
    browser
        .client
        .find(fantoccini::Locator::Id("power"))
        .await
        .expect("#power")
        .select_by_value("2")
        .await
        .expect("choose PS2");
    let search = browser
        .wait_for_query("the link to carry the power state", &["power=ps2"])
        .await?;
    assert!(search.contains("preset=e12"), "{search}");
    let limit = browser
        .wait_for("the readout to name the budget", || async {
            let t = browser.text("#readout-limit").await?;
            Ok(t.contains("power budget").then_some(t))
        })
        .await?;
    assert!(limit.contains("1.8 W"), "{limit}");
    assert!(browser
        .text("#readout-what")
        .await?
        .contains("held to PS2 (1.8 W)"));
    assert!(browser
        .text("#figure-power figcaption")
        .await?
        .contains("held to PS2"));
    assert_eq!(
        browser
            .js(
                "return document.getElementById('chart-efficiency') !== null;",
                vec![]
            )
            .await?,
        json!(true)
    );

    // A preset without a published table: the choice is off and says why.
    browser.open("?preset=e18dc", "#power").await?;
    assert_eq!(
        browser
            .js("return document.getElementById('power').disabled;", vec![])
            .await?,
        json!(true)
    );
    assert!(browser
        .text("#power-hint")
        .await?
        .contains("No power-state table is published"));
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_idle_time_shows_the_wake_up_and_teaching_mode_shows_the_draw() -> Result {
    let browser = Browser::start().await?;
    browser
        .open(
            "?preset=e12&cap=960&qd=1&state=fob&think=500000",
            "#readout-idle",
        )
        .await?;
    let idle = browser.text("#readout-idle").await?;
    assert!(idle.contains("PS3") && idle.contains("to wake"), "{idle}");
    browser.click("apst").await?;
    browser
        .wait_for_query("the link to carry APST off", &["apst=0"])
        .await?;
    let off = browser.text("#readout-idle").await?;
    assert!(off.contains("APST off"), "{off}");

    browser
        .open(
            "?view=activity&preset=e12&cap=960&qd=32&state=fob",
            "#teach-step",
        )
        .await?;
    wait_until_prepared(&browser).await?;
    for _ in 0..5 {
        browser.click("teach-step").await?;
    }
    let now = browser.text("#teach-power-now").await?;
    assert!(
        now.starts_with("Drawing now: ") && now.ends_with("of a 8.9 W budget"),
        "{now}"
    );
    browser.assert_clean_console()?;
    browser.close().await
}
