//! End-to-end tests of sharing, embedding, compare and fio import (issue #6) and of the
//! page's network isolation (issue #7): the release build in `dist/` in headless Chromium,
//! driven over WebDriver like `e2e.rs`.
//!
//! Needs `dist/`, `/usr/bin/chromedriver` and Debian's `fio`; fails, never skips, without them.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::{Path, PathBuf};

use common::{fio, Browser, Context, Failure, Result, StaticServer};
use fantoccini::key::Key;
use fantoccini::Locator;
use parallelism_lab::fio::job_file;
use parallelism_lab::model::{Rw, Workload};
use parallelism_lab::ui::charts::export::{png_file, CSV_FILE, CSV_HEADER, FIO_JOB_FILE};
use parallelism_lab::ui::pure::embed::ChartId;
use serde_json::{json, Value};

/// Waits until every queue-depth chart on the page (the ones `charts=` chooses; the other
/// views' charts are drawn only when shown) has been drawn for the current state with every
/// point at least estimated.
async fn wait_for_visible_charts(browser: &Browser) -> Result {
    const SCRIPT: &str = r#"
        const state = location.search.slice(1);
        const charts = [...document.querySelectorAll(".results > .charts canvas[id^=chart-]")];
        return charts.length > 0 && charts.every((c) =>
            c.dataset.state === state && c.dataset.missing === "0");
    "#;
    browser
        .wait_for(
            "every visible chart to be drawn with all points",
            || async { Ok((browser.js(SCRIPT, vec![]).await? == json!(true)).then_some(())) },
        )
        .await
}

async fn eval(browser: &Browser, script: &str) -> Result<Value> {
    browser.js(script, vec![]).await
}

async fn legend_count(browser: &Browser) -> Result<u64> {
    let count = eval(
        browser,
        "return document.querySelectorAll('.legend li:has(.swatch)').length;",
    )
    .await?;
    Ok(count.as_u64().unwrap_or_default())
}

/// Opens the lab at `query` in the test fixture's embedding page (another page, framing it)
/// and gives the heights the embedded lab has sent its parent, once it has sent one.
async fn open_in_an_embedding_page(browser: &Browser, query: &str) -> Result<Vec<Value>> {
    let lab = browser.url(query);
    let parent = format!(
        "{}#{}",
        browser.server.fixture_url("embed-parent.html"),
        // The fixture decodes its fragment into the iframe's src.
        lab.replace('%', "%25").replace('&', "%26")
    );
    browser
        .client
        .goto(&parent)
        .await
        .context("open the embedding page")?;
    browser
        .wait_for("a resize message from the embedded lab", || async {
            let v = eval(
                browser,
                "const d = document.getElementById('lab').contentDocument;
                 return d && d.getElementById('chart-iops') && window.resizeMessages.length
                     ? window.resizeMessages : null;",
            )
            .await?;
            Ok(v.as_array().cloned())
        })
        .await
}

/// The embedded lab shows its chart and a link to the full lab (for `cap=480`, `iodepth=8`), and
/// none of the full page's chrome: no lede, no sharing, no import, no "Where the time goes"
/// under its readout, its controls folded and not built until they are opened.
async fn the_embed_shows_only_its_chart_and_a_link_to_the_full_lab(browser: &Browser) -> Result {
    browser
        .wait_until(
            "every part of the embedded lab to be mounted",
            "return document.getElementById('lab').contentDocument.documentElement
                 .hasAttribute('data-mounted');",
        )
        .await?;
    let framed = eval(
        browser,
        r#"const d = document.getElementById("lab").contentDocument;
           const full = d.getElementById("open-full-lab");
           return {
             lede: d.querySelector(".lede") !== null,
             share: d.getElementById("share") !== null,
             fio: d.getElementById("fio-file") !== null,
             controlsFolded: d.getElementById("embed-controls") !== null
                 && !d.getElementById("embed-controls").open,
             controlsBuilt: d.getElementById("qd") !== null,
             readout: d.getElementById("readout") !== null,
             anatomy: d.getElementById("anatomy") !== null,
             charts: [...d.querySelectorAll(".results > .charts canvas[id^=chart-]")].map((c) => c.id),
             full: full ? full.getAttribute("href") : null,
             fullText: full ? full.textContent : "",
           };"#,
    )
    .await?;
    assert_eq!(framed["lede"], json!(false), "{framed}");
    assert_eq!(framed["share"], json!(false), "{framed}");
    assert_eq!(framed["fio"], json!(false), "{framed}");
    assert_eq!(framed["controlsFolded"], json!(true), "{framed}");
    assert_eq!(
        framed["controlsBuilt"],
        json!(false),
        "folded controls are built when first opened: {framed}"
    );
    assert_eq!(
        (&framed["readout"], &framed["anatomy"]),
        (&json!(true), &json!(false)),
        "the readout without where the time goes (the frame keeps its height): {framed}"
    );
    assert_eq!(framed["charts"], json!(["chart-iops"]));
    let full_text = framed["fullText"].as_str().context("the link's text")?;
    assert!(full_text.contains("Open in the full lab"), "{framed}");
    let full = framed["full"]
        .as_str()
        .context("Open in the full lab link")?;
    assert!(
        full.contains("cap=480")
            && full.contains("qd=8")
            && !full.contains("embed")
            && !full.contains("charts"),
        "{full}"
    );
    Ok(())
}

/// The iframe follows the lab's content: opening the folded controls makes it taller than
/// `before` and the lab says so.
async fn opening_the_folded_controls_makes_the_frame_taller(
    browser: &Browser,
    before: u64,
) -> Result {
    eval(
        browser,
        "document.getElementById('lab').contentDocument.getElementById('embed-controls').open = true; return null;",
    )
    .await?;
    // Results still arriving may change the layout again; each change sends a new message, so
    // the last message must come to equal the content's height.
    let (after, frame_height) = browser
        .wait_for("a larger height after opening the controls, as last sent", || async {
            let last = eval(
                browser,
                "return window.resizeMessages[window.resizeMessages.length - 1];",
            )
            .await?
            .as_u64()
            .filter(|h| *h > before);
            let Some(last) = last else {
                return Ok(None);
            };
            let frame_height = eval(
                browser,
                "return Math.ceil(document.getElementById('lab').contentDocument.documentElement.getBoundingClientRect().height);",
            )
            .await?
            .as_u64();
            Ok((frame_height == Some(last)).then_some((last, frame_height)))
        })
        .await?;
    assert_eq!(
        frame_height,
        Some(after),
        "the last message is the content height"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_embed_hides_the_chrome_and_reports_its_height_to_the_parent() -> Result {
    let browser = Browser::start().await?;
    let heights =
        open_in_an_embedding_page(&browser, "?embed=1&charts=iops&preset=e18dc&cap=480&qd=8")
            .await?;
    assert!(
        heights.iter().all(|h| h.as_u64().is_some_and(|h| h > 100)),
        "{heights:?}"
    );
    the_embed_shows_only_its_chart_and_a_link_to_the_full_lab(&browser).await?;
    let before = heights.last().and_then(Value::as_u64).unwrap();
    opening_the_folded_controls_makes_the_frame_taller(&browser, before).await?;
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_charts_param_shows_only_those_charts() -> Result {
    let browser = Browser::start().await?;
    browser.open("?charts=latency,mix", "#chart-mix").await?;
    wait_for_visible_charts(&browser).await?;
    let ids = eval(
        &browser,
        "return [...document.querySelectorAll('.results > .charts canvas[id^=chart-]')].map((c) => c.id);",
    )
    .await?;
    assert_eq!(ids, json!(["chart-latency", "chart-mix"]));
    assert!(
        eval(&browser, "return location.search;")
            .await?
            .as_str()
            .unwrap()
            .ends_with("&charts=latency,mix"),
        "the URL keeps the choice"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_lock_disables_those_controls_with_a_visible_hint() -> Result {
    let browser = Browser::start().await?;
    browser.open("?qd=8&lock=qd,rw,compare", "#qd").await?;
    let states = eval(
        &browser,
        r#"const off = (id) => document.getElementById(id).disabled;
           return {
             qd: off("qd"), random: off("pattern-random"), sequential: off("pattern-sequential"),
             pin: off("pin-view"), family: off("pin-family"),
             bs: off("bs"), mix: off("mix"), preset: off("preset"),
             hints: [...document.querySelectorAll(".locked-hint")].map((h) => h.textContent),
           };"#,
    )
    .await?;
    assert_eq!(states["qd"], json!(true), "{states}");
    assert_eq!(states["random"], json!(true), "{states}");
    assert_eq!(states["sequential"], json!(true), "{states}");
    assert_eq!(states["pin"], json!(true), "{states}");
    assert_eq!(states["family"], json!(true), "{states}");
    assert_eq!(states["bs"], json!(false), "{states}");
    assert_eq!(states["mix"], json!(false), "{states}");
    assert_eq!(states["preset"], json!(false), "{states}");
    let hints = states["hints"].as_array().unwrap();
    assert_eq!(
        hints.len(),
        2,
        "one hint per locked control group: {states}"
    );
    assert!(hints
        .iter()
        .all(|h| h.as_str().unwrap().contains("Locked by the author")));
    // An unlocked control still works, the locked one keeps its value.
    browser.press("bs", &Key::Right.to_string()).await?;
    browser
        .wait_for("the block size to change", || async {
            let s = eval(&browser, "return location.search;").await?;
            Ok(s.as_str().unwrap().contains("bs=8k").then_some(()))
        })
        .await?;
    assert_eq!(browser.text("#qd-value").await?, "8");
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_lock_covers_the_view_switch_and_the_drive_over_time_sliders() -> Result {
    let browser = Browser::start().await?;
    browser
        .open("?preset=e12&cap=960&view=time&lock=view,idle", "#idle")
        .await?;
    let states = eval(
        &browser,
        r#"const off = (id) => document.getElementById(id).disabled;
           return {
             queue: off("view-qd"), time: off("view-time"), teach: off("view-activity"),
             idle: off("idle"), burst: off("burst"), tour: off("tour-slc-cache"),
             tours_off: !document.getElementById("tours-off").hidden,
             hints: document.querySelectorAll(".locked-hint").length,
           };"#,
    )
    .await?;
    for locked in ["queue", "time", "teach", "idle"] {
        assert_eq!(states[locked], json!(true), "{locked}: {states}");
    }
    assert_eq!(states["burst"], json!(false), "{states}");
    assert_eq!(
        states["hints"],
        json!(2),
        "one hint per locked control: {states}"
    );
    assert_eq!(
        states["tour"],
        json!(true),
        "a tour would change locked controls: {states}"
    );
    assert_eq!(states["tours_off"], json!(true), "{states}");
    browser.press("burst", &Key::Right.to_string()).await?;
    browser
        .wait_for_query("the unlocked burst slider to move", &["burst=64"])
        .await?;
    assert!(browser.location_search().await?.contains("lock=view,idle"));
    browser.assert_clean_console()?;
    browser.close().await
}

/// A new block size: the pins stay, the view becomes a fourth curve, and the IOPS chart names
/// the three pins and the view.
async fn a_new_block_size_keeps_the_pins_and_adds_the_view(browser: &Browser) -> Result {
    browser.press("bs", &Key::Right.to_string()).await?;
    browser
        .wait_for("the view and three pins", || async {
            Ok((legend_count(browser).await? == 4).then_some(()))
        })
        .await?;
    // The legend follows the state at once, the URL a moment later: charts drawn for the URL's
    // state are the new view's only once the URL carries the new block size.
    browser
        .wait_for_query("the new block size in the URL", &["bs=8k"])
        .await?;
    wait_for_visible_charts(browser).await?;
    let label = eval(
        browser,
        "return document.getElementById('chart-iops').getAttribute('aria-label');",
    )
    .await?;
    let label = label.as_str().context("the IOPS chart's label")?;
    assert_eq!(label.matches("pin ").count(), 3, "{label}");
    assert_eq!(label.matches("now: ").count(), 1, "{label}");
    Ok(())
}

/// Four pins and the view: pinning the view once more is refused with a message, and the link
/// keeps four pins.
async fn a_fifth_pin_is_refused(browser: &Browser) -> Result {
    browser.click("pin-view").await?;
    browser.press("bs", &Key::Right.to_string()).await?;
    browser
        .wait_for("the view beside four pins", || async {
            Ok((legend_count(browser).await? == 5).then_some(()))
        })
        .await?;
    browser.click("pin-view").await?;
    let message = browser
        .wait_for("the fifth pin to be refused", || async {
            let m = eval(
                browser,
                "const m = document.getElementById('compare-message'); return m ? m.textContent : null;",
            )
            .await?;
            Ok(m.as_str().map(str::to_string))
        })
        .await?;
    assert!(message.contains("At most 4"), "{message}");
    assert_eq!(
        eval(
            browser,
            "return location.search.split('compare=')[1].split('&')[0].split(',').length;"
        )
        .await?,
        json!(4)
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_compare_draws_one_curve_per_configuration_and_refuses_a_fifth_pin() -> Result {
    let browser = Browser::start().await?;
    browser.open("", "#pin-family").await?;
    wait_for_visible_charts(&browser).await?;
    assert_eq!(
        legend_count(&browser).await?,
        3,
        "the default view is the family"
    );

    browser.click("pin-family").await?;
    browser
        .wait_for("three pins in the URL", || async {
            let s = eval(&browser, "return location.search;").await?;
            Ok(s.as_str()
                .unwrap()
                .contains("compare=e18dc.8.randread.4k.steady,e18dc.16.randread.4k.steady,e18dc.32.randread.4k.steady")
                .then_some(()))
        })
        .await?;
    assert_eq!(
        legend_count(&browser).await?,
        3,
        "the view is one of the pins"
    );
    a_new_block_size_keeps_the_pins_and_adds_the_view(&browser).await?;
    a_fifth_pin_is_refused(&browser).await?;

    browser.click("clear-pins").await?;
    browser
        .wait_for("the family view again", || async {
            Ok((legend_count(&browser).await? == 3).then_some(()))
        })
        .await?;
    // The URL follows in a task of its own, at most every 200 ms (src/ui/app.rs).
    browser
        .wait_for("the pins gone from the URL", || async {
            let s = eval(&browser, "return location.search;").await?;
            Ok((!s.as_str().unwrap().contains("compare=")).then_some(()))
        })
        .await?;
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_copy_link_and_embed_snippet() -> Result {
    let browser = Browser::start().await?;
    browser.open("?qd=16", "#copy-link").await?;
    browser.click("copy-link").await?;
    let status = browser
        .wait_for(
            "the copy confirmation or the link to copy by hand",
            || async {
                let t = browser.text("#copy-status").await?;
                Ok((!t.is_empty()).then_some(t))
            },
        )
        .await?;
    let search = eval(&browser, "return location.search;").await?;
    if status.contains("copied") {
        // Headless Chromium may or may not grant the clipboard; both outcomes are visible.
    } else {
        let shown = eval(
            &browser,
            "return document.getElementById('share-url').value;",
        )
        .await?;
        assert!(
            shown.as_str().unwrap().ends_with(search.as_str().unwrap()),
            "{shown}"
        );
    }
    browser.click("embed-button").await?;
    let snippet = browser
        .wait_for("the embed snippet", || async {
            let v = eval(
                &browser,
                "const t = document.getElementById('embed-code'); return t ? [t.value, t.readOnly] : null;",
            )
            .await?;
            Ok(v.as_array().cloned())
        })
        .await?;
    let code = snippet[0].as_str().unwrap();
    assert_eq!(snippet[1], json!(true), "the snippet box is read-only");
    for part in [
        "<iframe data-parallelism-lab src=\"http://",
        "qd=16",
        "&amp;embed=1",
        "loading=\"lazy\"",
        "title=\"",
        "width=\"",
        "height=\"",
    ] {
        assert!(code.contains(part), "{part} missing: {code}");
    }
    browser.assert_clean_console()?;
    browser.close().await
}

/// Writes `body` as the page `name` of a scratch site and returns the site's folder.
fn article_page(name: &str, body: &str) -> Result<PathBuf> {
    let path = fio::scratch("e2e-article", name)?;
    let page = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><link rel=\"icon\" href=\"data:,\"><title>An article</title></head>\
         <body><h1>An article about SSDs</h1><p>The lab below is embedded from another origin.</p>\n{body}\n</body></html>"
    );
    std::fs::write(&path, page).with_context(|| format!("{}", path.display()))?;
    let site = path.parent().context("the scratch site's folder")?;
    Ok(site.to_path_buf())
}

/// The embedding iframe's height in CSS pixels, as the page lays it out.
async fn frame_height(browser: &Browser) -> Result<f64> {
    eval(
        browser,
        "return document.querySelector('iframe').getBoundingClientRect().height;",
    )
    .await?
    .as_f64()
    .context("the frame's height")
}

/// Waits until the frame's height holds still for half a second, and returns it.
async fn settled_frame_height(browser: &Browser) -> Result<f64> {
    let last = std::cell::Cell::new(frame_height(browser).await?);
    let last = &last;
    browser
        .wait_for("the frame's height to settle", || async move {
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            let now = frame_height(browser).await?;
            let settled = (now - last.replace(now)).abs() < 0.5;
            Ok(settled.then_some(now))
        })
        .await
}

/// The embed button's two snippets: the one with its script (the frame follows the lab's
/// height) and the one of a fixed height.
async fn the_embed_buttons_snippets(browser: &Browser) -> Result<(String, String)> {
    browser.click("embed-button").await?;
    let snippets = browser
        .wait_for("the embed snippets", || async {
            let v = eval(
                browser,
                "const a = document.getElementById('embed-code');
                 const b = document.getElementById('embed-code-fixed');
                 return a && b ? [a.value, b.value] : null;",
            )
            .await?;
            Ok(v.as_array().cloned())
        })
        .await?;
    let with_script = snippets[0]
        .as_str()
        .context("the snippet with its script")?;
    let fixed = snippets[1]
        .as_str()
        .context("the snippet of a fixed height")?;
    Ok((with_script.to_string(), fixed.to_string()))
}

/// Opens the lab's folded controls inside the article's frame (folded at `folded` px): the
/// frame grows with them, to the lab's new height.
async fn opening_the_controls_inside_the_frame_grows_it(browser: &Browser, folded: f64) -> Result {
    browser
        .client
        .enter_frame(Some(0))
        .await
        .context("enter the lab's frame")?;
    browser
        .client
        .find(Locator::Css("#embed-controls > summary"))
        .await
        .context("the Controls toggle")?
        .click()
        .await
        .context("open the controls")?;
    // Folded, the controls are built when first opened, one group a task.
    browser
        .wait_until(
            "the opened controls to be built",
            "return document.getElementById('qd') !== null
                 && document.documentElement.hasAttribute('data-mounted');",
        )
        .await?;
    let inner = eval(
        browser,
        "return document.documentElement.getBoundingClientRect().height;",
    )
    .await?
    .as_f64()
    .context("the lab's height")?;
    browser
        .client
        .enter_parent_frame()
        .await
        .context("back to the article")?;
    let opened = browser
        .wait_for("the frame to follow the opened controls", || async {
            let h = frame_height(browser).await?;
            Ok((h > folded + 200.0).then_some(h))
        })
        .await?;
    assert!(
        (opened - inner).abs() < 40.0,
        "frame {opened} px, lab {inner} px"
    );
    Ok(())
}

/// Without script: the fixed height of the article at `article` holds the lab in an article
/// column of this width.
async fn the_fixed_height_holds_the_lab(browser: &Browser, article: &str) -> Result {
    browser
        .client
        .goto(article)
        .await
        .context("open the article")?;
    browser
        .client
        .enter_frame(Some(0))
        .await
        .context("enter the lab's frame")?;
    let content = browser
        .wait_for("the chart inside the fixed frame", || async {
            let v = eval(
                browser,
                "return document.getElementById('chart-iops')
                     ? [document.documentElement.getBoundingClientRect().height, window.innerHeight]
                     : null;",
            )
            .await?;
            Ok(v.as_array().cloned())
        })
        .await?;
    let (Some(content), Some(frame)) = (content[0].as_f64(), content[1].as_f64()) else {
        return Err(Failure::new(format!(
            "the lab's height and the frame's: {content:?}"
        )));
    };
    assert!(
        content <= frame,
        "the lab ({content} px) fits its fixed frame ({frame} px)"
    );
    browser
        .client
        .enter_parent_frame()
        .await
        .context("back to the article")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_the_embed_buttons_snippet_pasted_into_another_origin_follows_the_labs_height() -> Result
{
    let browser = Browser::start().await?;
    browser.client.set_window_size(900, 900).await.unwrap();
    browser.open("?charts=iops&qd=8", "#embed-button").await?;
    let (with_script, fixed) = the_embed_buttons_snippets(&browser).await?;
    assert!(with_script.contains("<script>") && !fixed.contains("<script"));
    assert!(fixed.contains("height=\"1280\""), "one chart: {fixed}");

    // The button's exact output in a page served from another origin (another port).
    let site = article_page("with-script.html", &with_script)?;
    article_page("fixed.html", &fixed)?;
    let other = StaticServer::start(&site, "/").expect("a second origin");
    assert_ne!(other.url(""), browser.url(""));
    browser
        .client
        .goto(&other.url("with-script.html"))
        .await
        .expect("open the article");
    browser
        .wait_for("the frame to take the lab's height", || async {
            let h = frame_height(&browser).await?;
            Ok((h > 720.5).then_some(h))
        })
        .await?;
    let folded = settled_frame_height(&browser).await?;
    opening_the_controls_inside_the_frame_grows_it(&browser, folded).await?;
    the_fixed_height_holds_the_lab(&browser, &other.url("fixed.html")).await?;
    browser.assert_clean_console()?;
    browser.close().await
}

/// Scratch files of this test binary.
const AREA: &str = "e2e-fio";

fn scratch(name: &str) -> Result<PathBuf> {
    fio::scratch(AREA, name)
}

/// Runs the lab's own job file (made small and quick) in the real fio, returns its output in
/// fio's `format` (`json`, `json,normal`, `normal`).
fn run_fio(depths: &[u32], format: &str) -> Result<String> {
    let w = Workload {
        rw: Rw::RandRead,
        rwmixread: 100,
        bs_bytes: 4096,
        iodepth: 1,
    };
    let job = fio::quick_job(&job_file(&w, depths), &scratch("data.bin")?);
    fio::run_fio_as(AREA, "lab", &job, format)
}

/// How many imported files the legend lists.
async fn legend_files(browser: &Browser) -> Result<Value> {
    eval(
        browser,
        "return document.querySelectorAll('.legend .legend-yours').length;",
    )
    .await
}

/// The text of the element `id` once it exists.
async fn text_of(browser: &Browser, id: &str, what: &str) -> Result<String> {
    let script =
        format!("const n = document.getElementById('{id}'); return n ? n.textContent : null;");
    browser
        .wait_for(what, || async {
            Ok(eval(browser, &script).await?.as_str().map(str::to_string))
        })
        .await
}

async fn choose_file(browser: &Browser, path: &Path) -> Result {
    browser.press("fio-file", &path.display().to_string()).await
}

/// The real fio's output of the lab's own job, as a reader would choose it: JSON at depths 1
/// and 4, the same cut in half, JSON with the normal report at 2 and 8, the normal report alone
/// at 2.
struct FioFiles {
    good: PathBuf,
    cut: PathBuf,
    with_report: PathBuf,
    report_only: PathBuf,
}

fn fio_files() -> Result<FioFiles> {
    let write = |name: &str, text: &str| -> Result<PathBuf> {
        let path = scratch(name)?;
        std::fs::write(&path, text).with_context(|| format!("{}", path.display()))?;
        Ok(path)
    };
    let json_text = run_fio(&[1, 4], "json")?;
    Ok(FioFiles {
        good: write("lab.json", &json_text)?,
        cut: write("truncated.json", &json_text[..json_text.len() / 2])?,
        with_report: write("lab-with-report.txt", &run_fio(&[2, 8], "json,normal")?)?,
        report_only: write("report-only.txt", &run_fio(&[2], "normal")?)?,
    })
}

/// A truncated file is not imported and changes nothing: the chart, the link and the earlier
/// import stay as they were.
async fn a_truncated_file_changes_nothing(browser: &Browser, cut: &Path) -> Result {
    // Let the model finish refining, so the chart only changes if the view does.
    browser
        .wait_for("every model point to be final", || async {
            let t = browser.text("#model-status").await?;
            Ok(t.contains("points computed").then_some(()))
        })
        .await?;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let with_yours = browser.canvas_hash("#chart-iops").await?;
    let search = eval(browser, "return location.search;").await?;

    choose_file(browser, cut).await?;
    let note = text_of(browser, "fio-note", "the note about the truncated file").await?;
    assert!(
        note.contains("truncated.json")
            && note.contains("not imported")
            && note.contains("unchanged"),
        "{note}"
    );
    // Give a stray redraw a chance to happen, then check nothing changed.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(browser.canvas_hash("#chart-iops").await?, with_yours);
    assert_eq!(eval(browser, "return location.search;").await?, search);
    assert_eq!(
        legend_files(browser).await?,
        json!(1),
        "the earlier import stays"
    );
    browser.click("dismiss-fio-note").await
}

/// fio's normal report alone imports too, and the status says how it was read; Remove takes
/// it off again.
async fn fios_normal_report_alone_imports_too(browser: &Browser, report_only: &Path) -> Result {
    choose_file(browser, report_only).await?;
    browser
        .wait_for("the normal report in the legend", || async {
            Ok((legend_files(browser).await? == json!(2)).then_some(()))
        })
        .await?;
    let status = browser.text("#fio-status").await?;
    assert!(
        status.contains("report-only.txt") && status.contains("queue depth 2"),
        "{status}"
    );
    let files = browser.text("#fio-files").await?;
    assert!(
        files.contains("Read as fio's normal text of fio-3.33"),
        "{files}"
    );
    browser.click("fio-remove-1").await?;
    browser
        .wait_for("the normal report to leave the legend", || async {
            Ok((legend_files(browser).await? == json!(1)).then_some(()))
        })
        .await
}

/// A second file, saved with --output-format=json,normal: drawn beside the first, in its own
/// shape, named in the legend; Remove takes it off again.
async fn a_second_file_is_drawn_beside_the_first(browser: &Browser, with_report: &Path) -> Result {
    choose_file(browser, with_report).await?;
    browser
        .wait_for("the second file in the legend", || async {
            Ok((legend_files(browser).await? == json!(2)).then_some(()))
        })
        .await?;
    let status = browser.text("#fio-status").await?;
    assert!(
        status.contains("lab-with-report.txt") && status.contains("triangles"),
        "{status}"
    );
    let legend = browser.text(".legend").await?;
    assert!(
        legend.contains("your measurements: lab.json (fio)")
            && legend.contains("your measurements: lab-with-report.txt (fio)"),
        "{legend}"
    );
    browser.click("fio-remove-1").await?;
    browser
        .wait_for("the second file to leave the legend", || async {
            Ok((legend_files(browser).await? == json!(1)).then_some(()))
        })
        .await
}

/// fio measured 4 KiB random reads: at another block size its points are not drawn, the page
/// names the jobs and why, and the legend drops the file.
async fn at_another_block_size_the_jobs_are_not_drawn(browser: &Browser) -> Result {
    assert_eq!(
        eval(
            browser,
            "return document.querySelectorAll('.fio-hidden').length;"
        )
        .await?,
        json!(0)
    );
    browser.press("bs", &Key::Right.to_string()).await?;
    let hidden = browser
        .wait_for("the note about the jobs not drawn", || async {
            let t = eval(
                browser,
                "const n = document.querySelector('.fio-hidden'); return n ? n.textContent : null;",
            )
            .await?;
            Ok(t.as_str().map(str::to_string))
        })
        .await?;
    assert!(
        hidden.starts_with("lab.json: 2 of its 2 jobs are not drawn")
            && hidden.contains("(randread 8 KiB)")
            && hidden.contains("(randread 4 KiB)"),
        "{hidden}"
    );
    assert_eq!(legend_files(browser).await?, json!(0));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_real_fio_output_imports_as_your_drive_and_a_truncated_file_changes_nothing() -> Result
{
    let files = fio_files()?;
    let browser = Browser::start().await?;
    browser.open("", "#fio-file").await?;
    wait_for_visible_charts(&browser).await?;
    let plain = browser.canvas_hash("#chart-iops").await?;

    choose_file(&browser, &files.good).await?;
    let status = text_of(&browser, "fio-status", "the import to be confirmed").await?;
    assert!(
        status.contains("2 jobs")
            && status.contains("lab.json")
            && status.contains("1, 4")
            && status.contains("squares"),
        "{status}"
    );
    assert_eq!(legend_files(&browser).await?, json!(1));
    browser
        .wait_for("the chart to draw your drive", || async {
            let now = browser.canvas_hash("#chart-iops").await?;
            Ok((now != plain).then_some(now))
        })
        .await?;
    a_truncated_file_changes_nothing(&browser, &files.cut).await?;
    fios_normal_report_alone_imports_too(&browser, &files.report_only).await?;
    a_second_file_is_drawn_beside_the_first(&browser, &files.with_report).await?;
    at_another_block_size_the_jobs_are_not_drawn(&browser).await?;
    browser.assert_clean_console()?;
    browser.close().await
}

/// Waits for the browser to finish writing `name` into `dir` and returns its bytes.
async fn downloaded(browser: &Browser, dir: &Path, name: &str) -> Result<Vec<u8>> {
    let path = dir.join(name);
    browser
        .wait_for(&format!("the download {name}"), || async {
            // Chromium writes a `.crdownload` first and renames it when done.
            let partial = dir.join(format!("{name}.crdownload"));
            Ok((path.is_file() && !partial.exists())
                .then(|| std::fs::read(&path).ok())
                .flatten())
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_downloads_are_real_files_and_the_job_file_runs_in_the_real_fio() -> Result {
    let dir = scratch("downloads")?.with_extension("d");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let browser = Browser::start_downloading_to(&dir).await?;
    browser.open("?qd=4", "#export-csv").await?;
    wait_for_visible_charts(&browser).await?;

    browser.click("export-csv").await?;
    let csv = String::from_utf8(downloaded(&browser, &dir, CSV_FILE).await?).unwrap();
    assert!(
        csv.starts_with("# Parallelism Lab export: preset=e18dc"),
        "{csv}"
    );
    let mut lines = csv.lines().skip_while(|l| l.starts_with('#'));
    assert_eq!(lines.next(), Some(CSV_HEADER));
    assert!(
        lines
            .clone()
            .any(|l| l.starts_with("iops,") && l.contains(",model,")),
        "{csv}"
    );
    assert!(
        lines
            .clone()
            .any(|l| l.starts_with("anatomy,") && l.contains(",model,4,") && l.contains(",reads,")),
        "where the time goes at the current depth: {csv}"
    );
    assert!(
        lines.any(|l| l.contains("published")),
        "the E18DC's measurements: {csv}"
    );

    for chart in [ChartId::Iops, ChartId::Anatomy] {
        browser.click(&format!("png-{}", chart.id())).await?;
        let png = downloaded(&browser, &dir, &png_file(chart)).await?;
        assert!(
            png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 1_000,
            "{chart}: {} bytes",
            png.len()
        );
    }

    browser.click("export-fio").await?;
    let job = String::from_utf8(downloaded(&browser, &dir, FIO_JOB_FILE).await?).unwrap();
    assert!(
        job.contains("rw=randread") && job.contains("bs=4k"),
        "{job}"
    );
    // The page's job file, made small, runs in the real fio; its output reads back with the
    // lab's importer at the page's depths.
    let out = fio::run_fio(
        AREA,
        "downloaded",
        &fio::quick_job(&job, &scratch("data.bin")?),
    )?;
    let points = parallelism_lab::fio::parse_output(&out)
        .expect("fio's JSON reads back")
        .points;
    let depths: Vec<u32> = points.iter().map(|p| p.iodepth).collect();
    assert!(depths.contains(&1) && depths.contains(&4), "{depths:?}");
    assert!(points
        .iter()
        .all(|p| p.rw == Some(Rw::RandRead) && p.iops > 0.0));
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_no_request_leaves_the_pages_origin() -> Result {
    let browser = Browser::start().await?;
    browser
        .open("?compare=e12.16.randread.4k.steady", "#readout")
        .await?;
    wait_for_visible_charts(&browser).await?;
    browser.click("embed-button").await?;
    let entries = eval(
        &browser,
        r#"return performance.getEntriesByType("resource")
               .concat(performance.getEntriesByType("navigation"))
               .map((e) => e.name);"#,
    )
    .await?;
    let origin = eval(&browser, "return location.origin;").await?;
    let origin = origin.as_str().unwrap();
    let names: Vec<&str> = entries
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        names.len() >= 3,
        "page, script and wasm at least: {names:?}"
    );
    for name in &names {
        assert!(
            name.starts_with(&format!("{origin}/")),
            "{name} is outside {origin}"
        );
    }
    browser.assert_clean_console()?;
    browser.close().await
}

/// An embed the browser does not draw (Chromium renders no cross-origin frame below an
/// article's fold, so it runs no animation frame there) still mounts every part of its lab:
/// the parts below the first screen do not wait for a frame that never comes. Its model waits
/// until it is in sight (its status line says so), and computes every point once scrolled to.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_an_embed_below_an_articles_fold_mounts_all_of_its_lab() -> Result {
    let browser = Browser::start().await?;
    let blog = StaticServer::start(&common::dist_dir()?, "/blog/").expect("the blog's origin");
    let article = format!("{}#{}", blog.fixture_url("five-labs.html"), browser.url(""));
    browser
        .client
        .goto(&article)
        .await
        .expect("open the article");
    let last_frame = 2;
    let in_last_frame = |script: &'static str| {
        let browser = &browser;
        async move {
            if browser.client.enter_frame(Some(last_frame)).await.is_err() {
                return Ok(None);
            }
            let v = eval(browser, script).await?;
            browser.client.enter_parent_frame().await.expect("back");
            Ok(v.as_str().map(str::to_string))
        }
    };
    let status = browser
        .wait_for("the last frame's lab to mount", || {
            in_last_frame(
                "const s = document.getElementById('model-status');
                 return document.documentElement.hasAttribute('data-mounted') && s
                     ? s.textContent : null;",
            )
        })
        .await?;
    assert!(
        status.contains("scrolled into view"),
        "its model waits: {status}"
    );
    let below_the_fold = browser
        .js(
            "const f = document.querySelectorAll('iframe')[arguments[0]];
             return f.getBoundingClientRect().top > window.innerHeight;",
            vec![json!(last_frame)],
        )
        .await?;
    assert_eq!(below_the_fold, json!(true), "the frame is below the fold");
    eval(
        &browser,
        "document.querySelectorAll('iframe')[2].scrollIntoView();",
    )
    .await?;
    let status = browser
        .wait_for("the last frame's lab to compute once scrolled to", || {
            in_last_frame(
                "const s = document.getElementById('model-status');
                 return s && s.dataset.computedAt ? s.textContent : null;",
            )
        })
        .await?;
    assert!(status.contains("points computed"), "{status}");
    browser.close().await
}
