//! End-to-end: the IOPS chart on the first screen (issue 21). In a desktop window of 1280 x 800
//! or 1366 x 768 the chart against queue depth (its plot, curves and current-depth marker, and
//! the axes that name them) is on screen without scrolling, with the readout of the current
//! point beside it; on a phone (390 x 844, emulated: a desktop window cannot be that narrow) the
//! chart is still the first thing under the masthead. Each size is checked in the light and the
//! dark theme, and a screenshot of each is kept in `target/tmp/screenshots/` (Cargo's
//! per-target temporary directory) for a person to look at.
//!
//! The whole canvas is measured, not only the plot inside it: the plot lies inside the canvas
//! (plotters leaves the axes' labels around it), so a canvas on screen means a plot on screen.
//!
//! The masthead is drawn before the app has loaded: without the app's wasm, the title and
//! the lede are on screen, and an embedded lab hides them from its first paint on. So is the
//! IOPS chart, with its axes, current depth and published measurements: the opening chart
//! (`src/ui/opening_chart.rs`), a wasm of its own, draws it where the app's chart will be, and
//! the app takes its place without a frame of blank chart. The opening chart's wasm is asked for
//! beside its glue, the app's once the opening chart is drawn, and compiled by a worker of its
//! own, off the page's thread (without that worker, the page compiles it as before).
//!
//! Needs `dist/` (`trunk build --release`) and `/usr/bin/chromedriver`; fails, never skips.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::PathBuf;

use common::{app_wasm, dist_dir, dist_with, Browser, Context, Result};
use serde_json::{json, Value};

/// The smallest canvas that still reads as the page's main chart (the stylesheet's floor for
/// a chart box is 15rem), so a chart shrunk to a stamp cannot pass for one on screen.
const MIN_CHART_HEIGHT: f64 = 240.0;

/// Saves what the browser shows as `name.png` among the artefacts.
async fn screenshot(browser: &Browser, name: &str) -> Result {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).with_context(|| format!("{}", dir.display()))?;
    let png = browser.client.screenshot().await.context("a screenshot")?;
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    let file = dir.join(format!("{name}.png"));
    std::fs::write(&file, png).with_context(|| format!("{}", file.display()))
}

/// Emulates a phone's viewport (CSS pixels, touch, a 3x screen) through DevTools.
async fn emulate_phone(browser: &Browser, width: u32, height: u32) -> Result {
    browser.cdp(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": width, "height": height, "deviceScaleFactor": 3, "mobile": true }),
    )?;
    browser.cdp(
        "Emulation.setTouchEmulationEnabled",
        json!({ "enabled": true, "maxTouchPoints": 5 }),
    )?;
    Ok(())
}

/// Opens the default view in `theme` and waits until the IOPS chart is drawn with every point
/// of the state in the URL, on a page scrolled to its top.
async fn open_drawn(browser: &Browser, theme: &str) -> Result {
    browser
        .open(&format!("?theme={theme}"), "#chart-iops")
        .await?;
    browser
        .wait_for("the IOPS chart drawn with every point", || async {
            let done = browser
                .js(
                    "const c = document.getElementById('chart-iops');
                     return c.dataset.state === location.search.slice(1)
                         && c.dataset.missing === '0';",
                    vec![],
                )
                .await?;
            Ok((done == json!(true)).then_some(()))
        })
        .await?;
    let hash = browser.canvas_hash("#chart-iops").await?;
    let ink = hash.rsplit(':').next().unwrap_or_default();
    let ink: u64 = ink.parse().with_context(|| format!("the ink of {hash}"))?;
    assert!(ink > 0, "the IOPS chart has curves: {hash}");
    assert_eq!(
        browser.js("return window.scrollY;", vec![]).await?,
        json!(0),
        "the first screen is the top of the page"
    );
    Ok(())
}

/// The bounding box of the first element matching `css` in viewport pixels, or `null`.
async fn rect(browser: &Browser, css: &str) -> Result<Value> {
    browser
        .js(
            "const e = document.querySelector(arguments[0]);
             if (!e) return null;
             const r = e.getBoundingClientRect();
             return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                     width: r.width, height: r.height};",
            vec![json!(css)],
        )
        .await
}

fn f(v: &Value, key: &str) -> Result<f64> {
    v[key].as_f64().with_context(|| format!("{key} of {v}"))
}

/// Asserts the element `css` lies wholly inside the viewport (`width` x `height`).
async fn assert_on_first_screen(
    browser: &Browser,
    css: &str,
    width: u32,
    height: u32,
    at: &str,
) -> Result {
    let r = rect(browser, css).await?;
    assert!(
        f(&r, "top")? >= 0.0
            && f(&r, "left")? >= 0.0
            && f(&r, "bottom")? <= f64::from(height)
            && f(&r, "right")? <= f64::from(width),
        "{at}: {css} is not on the first screen: {r}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_first_screen_a_desktop_window_shows_the_iops_chart_and_the_readout() -> Result {
    let browser = Browser::start().await?;
    for (width, height) in [(1280, 800), (1366, 768)] {
        browser.set_viewport(width, height).await?;
        for theme in ["light", "dark"] {
            let at = format!("{width} x {height}, {theme}");
            open_drawn(&browser, theme).await?;
            screenshot(&browser, &format!("first-screen-{width}x{height}-{theme}")).await?;
            // The document's width, less a scroll bar if the window shows one.
            let inner = browser
                .js("return document.documentElement.clientWidth;", vec![])
                .await?;
            let inner = inner.as_u64().unwrap() as u32;
            // The figures the README quotes, with `--nocapture`.
            eprintln!(
                "{at}: figure top {}, canvas {} to {}, readout top {}",
                f(&rect(&browser, "#figure-iops").await?, "top")?,
                f(&rect(&browser, "#chart-iops").await?, "top")?,
                f(&rect(&browser, "#chart-iops").await?, "bottom")?,
                f(&rect(&browser, "#readout").await?, "top")?,
            );
            assert_on_first_screen(&browser, "#chart-iops", inner, height, &at).await?;
            let chart = rect(&browser, "#chart-iops").await?;
            assert!(
                f(&chart, "height")? >= MIN_CHART_HEIGHT
                    && f(&chart, "width")? >= 2.0 * MIN_CHART_HEIGHT,
                "{at}: the IOPS chart is {chart}"
            );
            // The chart's title and the current point's figures are read with it.
            assert_on_first_screen(&browser, "#figure-iops h2", inner, height, &at).await?;
            for figure in ["#readout-title", "#readout-iops", "#readout-limit"] {
                assert_on_first_screen(&browser, figure, inner, height, &at).await?;
            }
            // Every control is still where it was: the panel starts beside the chart.
            let panel = rect(&browser, "#controls").await?;
            assert!(
                f(&panel, "right")? <= f(&chart, "left")?,
                "{at}: the controls are left of the chart: {panel} {chart}"
            );
        }
    }
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_first_screen_a_phone_shows_the_chart_first_under_the_masthead() -> Result {
    let (width, height) = (390, 844);
    let browser = Browser::start().await?;
    emulate_phone(&browser, width, height).await?;
    for theme in ["light", "dark"] {
        open_drawn(&browser, theme).await?;
        assert_eq!(
            browser
                .js("return [window.innerWidth, window.innerHeight];", vec![])
                .await?,
            json!([width, height]),
            "the phone's viewport"
        );
        screenshot(&browser, &format!("first-screen-{width}x{height}-{theme}")).await?;
        let masthead = rect(&browser, ".masthead").await?;
        let figure = rect(&browser, "#figure-iops").await?;
        let canvas = rect(&browser, "#chart-iops").await?;
        eprintln!(
            "{width} x {height} {theme}: masthead bottom {}, figure top {}, canvas {} to {}",
            f(&masthead, "bottom")?,
            f(&figure, "top")?,
            f(&canvas, "top")?,
            f(&canvas, "bottom")?
        );
        assert!(
            f(&figure, "top")? >= f(&masthead, "bottom")?
                && f(&figure, "top")? - f(&masthead, "bottom")? <= 32.0,
            "{theme}: the chart right under the masthead: {masthead} {figure}"
        );
        // Nothing of the lab but the chart's own figure comes before the chart's end.
        let before = browser
            .js(
                "const figure = document.getElementById('figure-iops');
                 const end = figure.getBoundingClientRect().bottom;
                 return [...document.querySelectorAll(
                         '.lab > *, .results > *, .charts > *, .panel > *')]
                     .filter((e) => !e.contains(figure) && e !== figure)
                     .filter((e) => {
                         const r = e.getBoundingClientRect();
                         return r.height > 0 && r.top < end;
                     })
                     .map((e) => e.id || e.className);",
                vec![],
            )
            .await?;
        assert_eq!(before, json!([]), "{theme}: shown before the chart ends");
        assert_on_first_screen(&browser, "#chart-iops", width, height, theme).await?;
    }
    browser.assert_clean_console()?;
    browser.close().await
}

/// A copy of the build without the app's wasm (named after `what`), served: the app never
/// arrives, and what the page shows is what it shows before it.
async fn without_the_app_wasm(what: &str) -> Result<(PathBuf, Browser)> {
    let app = app_wasm()?;
    let root = dist_with(what, |name| name == app, None)?;
    let browser = Browser::start_serving(&root).await?;
    Ok((root, browser))
}

/// The masthead is the page's own HTML, not the app's: a reader on a slow network sees the
/// title and what the lab shows before the app's WebAssembly has arrived (here it never does),
/// and an embedded lab hides it from the first paint on, before any app code runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_first_screen_the_masthead_is_drawn_before_the_app_has_loaded() -> Result {
    let (root, browser) = without_the_app_wasm("no-app-wasm").await?;
    browser.client.goto(&browser.url("")).await.unwrap();
    browser
        .wait_until(
            "the masthead to be drawn",
            "const lede = document.querySelector('#masthead .lede');
             return !!lede && lede.getBoundingClientRect().height > 0;",
        )
        .await?;
    assert_eq!(browser.text("#masthead h1").await?, "Parallelism Lab");
    assert!(browser
        .text("#masthead .lede")
        .await?
        .contains("many flash dies working in parallel"));
    assert_eq!(
        browser
            .js(
                "return document.getElementById('controls') === null;",
                vec![]
            )
            .await?,
        json!(true),
        "without its wasm the app never mounted: the masthead is the page's own"
    );

    browser.client.goto(&browser.url("?embed=1")).await.unwrap();
    browser
        .wait_until(
            "the page to be parsed",
            "return document.readyState !== 'loading';",
        )
        .await?;
    assert_eq!(
        browser
            .js(
                "return getComputedStyle(document.getElementById('masthead')).display;",
                vec![]
            )
            .await?,
        json!("none"),
        "embedded, the page's masthead is hidden without the app"
    );
    browser.close().await?;
    let _ = std::fs::remove_dir_all(&root);
    Ok(())
}

/// The value of `attribute` in the first tag of `html` that has it (a file name Trunk wrote,
/// `./` and all).
fn attribute<'a>(html: &'a str, attribute: &str) -> Result<&'a str> {
    let at = html
        .find(&format!("{attribute}=\""))
        .with_context(|| format!("index.html has {attribute}=\"..\""))?
        + attribute.len()
        + 2;
    let end = html[at..].find('"').context("a closing quote")?;
    Ok(&html[at..at + end])
}

/// The scripts the page runs as it loads (the app's glue, the opening chart's and `boot.js`)
/// carry V8's explicit compile hint, `//# allFunctionsCalledOnLoad`, on their first line, so
/// Chromium compiles their functions while they download, not on the page's thread as each is
/// first called (CHANGELOG.md "The glue compiled while it downloads"). The glue is Trunk's and
/// wasm-bindgen's output: `assets/compile-hints.sh` adds the line after the build, before
/// `sw.js` lists the files' hashes (the offline tests install from those hashes).
#[test]
fn e2e_first_screen_the_scripts_the_page_loads_with_carry_v8_s_eager_compile_hint() -> Result {
    let dist = dist_dir()?;
    let index = std::fs::read_to_string(dist.join("index.html")).expect("dist/index.html");
    let app_glue = attribute(&index, "data-js")?;
    let boot = attribute(&index[index.find("<script").expect("a script")..], "src")?;
    assert!(
        boot.contains("boot-"),
        "the first script is boot.js: {boot}"
    );
    for script in [app_glue, "opening-chart.js", boot] {
        let script = script.trim_start_matches("./");
        let text = std::fs::read_to_string(dist.join(script))
            .unwrap_or_else(|e| panic!("dist/{script}: {e}"));
        assert_eq!(
            text.lines().next(),
            Some("//# allFunctionsCalledOnLoad"),
            "the first line of dist/{script}"
        );
    }
    Ok(())
}

/// Milliseconds since the Unix epoch of a time the server logged, on the page's clock's scale
/// (`performance.timeOrigin` plus a mark's time; the same machine's clock).
fn epoch_ms(t: std::time::SystemTime) -> Result<f64> {
    let since = t.duration_since(std::time::UNIX_EPOCH);
    Ok(since.context("after the epoch")?.as_secs_f64() * 1e3)
}

/// The opening chart's wasm is asked for beside its glue, not once the glue has arrived (one
/// round trip fewer before the first chart), and the app's wasm (the largest download) once the
/// opening chart is drawn, so the two share neither the network nor, while the app's compiles,
/// the CPU (`assets/boot.js`). Read from the page's own resource timing and marks, and for the
/// app's wasm, which its compiler worker asks for, from the server's log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_first_screen_the_opening_chart_s_wasm_comes_with_its_glue_before_the_app_s() -> Result
{
    let browser = Browser::start().await?;
    browser.set_viewport(1280, 800).await?;
    open_drawn(&browser, "light").await?;
    let seen = browser
        .js(
            "const found = (pattern) => performance.getEntriesByType('resource')
                 .filter((e) => pattern.test(new URL(e.name).pathname))
                 .map((e) => ({ start: e.startTime, end: e.responseEnd }));
             const drawn = performance.getEntriesByName('lab:opening-chart');
             return { opening: found(/\\/opening-chart_bg\\.wasm$/),
                      glue: found(/\\/opening-chart\\.js$/),
                      drawn: drawn.map((m) => performance.timeOrigin + m.startTime) };",
            vec![],
        )
        .await?;
    for what in ["opening", "glue", "drawn"] {
        assert_eq!(
            seen[what].as_array().map(Vec::len),
            Some(1),
            "one {what} entry: {seen}"
        );
    }
    assert!(
        f(&seen["opening"][0], "start")? <= f(&seen["glue"][0], "start")?,
        "the opening chart's wasm is asked for beside its glue, not once it has arrived: {seen}"
    );
    let app = browser.server.asked_at(&app_wasm()?);
    assert_eq!(app.len(), 1, "the app's wasm asked for once");
    assert!(
        seen["drawn"][0].as_f64().unwrap() <= epoch_ms(app[0])?,
        "the app's wasm is asked for once the opening chart is drawn: {seen}, asked at {}",
        epoch_ms(app[0])?
    );
    browser.assert_clean_console()?;
    browser.close().await
}

/// How many times the page itself fetched the file `name` (its resource timing; a worker's
/// requests are not in it).
async fn fetched_by_the_page(browser: &Browser, name: &str) -> Result<u64> {
    browser
        .js(
            "return performance.getEntriesByType('resource')
                 .filter((e) => new URL(e.name).pathname.endsWith('/' + arguments[0])).length;",
            vec![json!(name)],
        )
        .await?
        .as_u64()
        .context("a count")
}

/// The app's wasm is compiled by a worker of its own (`assets/app_compiler.js`), not on the
/// page's thread, where taking in its bytes was a task of 20 to 70 ms on a phone at 4x: the
/// page never fetches it itself (its resource timing has no entry for it, the server served it
/// once), and the app runs from the module the worker compiled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_first_screen_the_app_s_wasm_is_compiled_off_the_page_s_thread() -> Result {
    let browser = Browser::start().await?;
    browser.open("", "#model-status").await?;
    browser.wait_for_queue_charts().await?;
    let app = app_wasm()?;
    assert_eq!(
        fetched_by_the_page(&browser, &app).await?,
        0,
        "the page fetched the app's wasm itself"
    );
    assert_eq!(browser.server.asked_at(&app).len(), 1, "asked for once");
    assert!(
        !browser
            .console()?
            .iter()
            .any(|e| e.message.contains("compiles on the page")),
        "the page fell back to compiling the app's wasm"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

/// Without its compiler (a host that lost the file) the page compiles the app's wasm itself,
/// says so in the console, and the lab works as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_first_screen_without_its_compiler_the_page_compiles_the_app_s_wasm_itself() -> Result {
    let root = dist_with("no-compiler", |name| name == "app_compiler.js", None)?;
    let browser = Browser::start_serving(&root).await?;
    browser.open("", "#model-status").await?;
    browser.wait_for_queue_charts().await?;
    assert_eq!(
        fetched_by_the_page(&browser, &app_wasm()?).await?,
        1,
        "the page fetched the app's wasm"
    );
    let said = browser.console()?;
    assert!(
        said.iter()
            .any(|e| e.message.contains("the app's wasm compiles on the page")),
        "the console says why: {said:#?}"
    );
    browser.close().await?;
    let _ = std::fs::remove_dir_all(&root);
    Ok(())
}

/// Records, in every document before its scripts, where the opening chart's canvas was when it
/// was drawn (a mutation observer's callback runs at the end of the task that drew it, before
/// anything else can move it), and whether an opening chart appeared at all.
const RECORD_OPENING_CHART: &str = r#"
(() => {
    const seen = { appeared: false, drawn: null };
    Object.defineProperty(window, "__opening", { value: seen });
    new MutationObserver(() => {
        const c = document.getElementById("opening-chart");
        if (!c) return;
        seen.appeared = true;
        if (seen.drawn === null && c.dataset.firstDrawnAt) {
            const r = c.getBoundingClientRect();
            seen.drawn = { top: r.top, left: r.left, width: r.width, height: r.height,
                           state: c.dataset.state, at: Number(c.dataset.firstDrawnAt),
                           marked: performance.getEntriesByName("lab:opening-chart").length };
        }
    }).observe(document, { subtree: true, childList: true, attributes: true });
})();
"#;

/// Without the app's wasm (it never arrives here) the opening chart draws the IOPS chart of
/// the URL's state: axes, the current depth and the published diamonds, as an image with the
/// chart's text alternative, and nothing of it can be focused; a resized window has it drawn
/// again to its new size.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_first_screen_the_opening_chart_is_drawn_before_the_app_has_loaded() -> Result {
    let (root, browser) = without_the_app_wasm("no-app-wasm-opening").await?;
    browser.set_viewport(1280, 800).await?;
    // The state as the page writes it (the stamp is the canonical query).
    let query = "?preset=e18dc&cap=960&dies=16&qd=64&rw=randread&bs=4k&state=steady";
    browser.client.goto(&browser.url(query)).await.unwrap();
    browser
        .wait_until(
            "the opening chart to be drawn",
            "const c = document.getElementById('opening-chart');
             return !!c && !!c.dataset.firstDrawnAt;",
        )
        .await?;
    let canvas = "#opening-chart";
    assert_eq!(
        browser.attr(canvas, "data-state").await?.as_deref(),
        Some(&query[1..]),
        "the opening chart draws the URL's state"
    );
    let hash = browser.canvas_hash(canvas).await?;
    let ink: u64 = hash.rsplit(':').next().unwrap().parse().unwrap();
    assert!(ink > 0, "the opening chart is drawn on: {hash}");
    assert_eq!(browser.attr(canvas, "role").await?.as_deref(), Some("img"));
    let label = browser
        .attr(canvas, "aria-label")
        .await?
        .unwrap_or_default();
    assert!(
        label.starts_with("IOPS against queue depth"),
        "its text alternative: {label}"
    );
    let caption = browser.text("#opening-chart-page figcaption").await?;
    assert!(
        caption.contains("The model is loading") && caption.contains("published measurements"),
        "the caption says what is drawn and what follows: {caption}"
    );
    assert_eq!(
        browser
            .js(
                "return [...document.querySelectorAll('#opening-chart-page *')]
                     .filter((e) => e.tabIndex >= 0 && !e.disabled).length;",
                vec![]
            )
            .await?,
        json!(0),
        "nothing of the opening chart takes the keyboard's focus"
    );
    assert_on_first_screen(&browser, canvas, 1280, 800, "the opening chart").await?;
    // A window resized while the app is still on its way (a phone turned): drawn again to the
    // new size, not stretched.
    let fits = "const c = document.getElementById('opening-chart');
                const ratio = Math.min(devicePixelRatio, 2);
                return c.width === Math.round(c.parentElement.clientWidth * ratio)
                    && c.height === Math.round(c.parentElement.clientHeight * ratio);";
    browser
        .wait_until("the opening chart to fit its box", fits)
        .await?;
    let before = browser.attr(canvas, "data-draws").await?;
    browser.set_viewport(1000, 800).await?;
    browser
        .wait_until("the opening chart drawn again to its new box", fits)
        .await?;
    assert_ne!(
        browser.attr(canvas, "data-draws").await?,
        before,
        "drawn again"
    );
    browser.close().await?;
    let _ = std::fs::remove_dir_all(&root);
    Ok(())
}

/// The app takes the opening chart's place, on the desktop and on a phone: its IOPS chart lies
/// exactly where the opening chart was drawn (the same classes, the same stylesheet), the
/// opening chart is gone once
/// the app has drawn, and a first screen that is not the IOPS chart gets no opening chart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_first_screen_the_app_takes_the_opening_chart_s_place() -> Result {
    let browser = Browser::start().await?;
    browser.cdp(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": RECORD_OPENING_CHART }),
    )?;
    // The projector's large type lays the first screen out its own way.
    let sizes = [
        (1280, 800, "light"),
        (1280, 800, "projector"),
        (1366, 768, "dark"),
        (390, 844, "light"),
    ];
    for (width, height, theme) in sizes {
        if width < 900 {
            emulate_phone(&browser, width, height).await?;
        } else {
            browser.set_viewport(width, height).await?;
        }
        open_drawn(&browser, theme).await?;
        let seen = browser.js("return window.__opening;", vec![]).await?;
        let drawn = &seen["drawn"];
        assert!(
            drawn.is_object(),
            "{width} x {height} {theme}: an opening chart: {seen}"
        );
        assert_eq!(drawn["marked"], json!(1), "its performance mark");
        let app = rect(&browser, "#chart-iops").await?;
        for side in ["top", "left", "width", "height"] {
            assert!(
                (f(drawn, side)? - f(&app, side)?).abs() <= 1.0,
                "{width} x {height} {theme}: the app's chart is where the opening chart \
                 was ({side}): {drawn} {app}"
            );
        }
        let first = browser.attr("#chart-iops", "data-first-drawn-at").await?;
        let first: f64 = first.unwrap().parse().unwrap();
        assert!(
            f(drawn, "at")? < first,
            "the opening chart came first: {drawn} against {first}"
        );
        assert_eq!(
            browser
                .js(
                    "return document.querySelectorAll(
                         '#opening-chart-page, #opening-chart, .opening-chart-underlay').length;",
                    vec![]
                )
                .await?,
            json!(0),
            "{width} x {height}: nothing of the opening chart is left"
        );
    }
    for query in ["?view=time", "?workload=rate"] {
        browser.open(query, ".lab").await?;
        assert_eq!(
            browser
                .js("return window.__opening.appeared;", vec![])
                .await?,
            json!(false),
            "{query}: no opening chart"
        );
    }
    browser.assert_clean_console()?;
    browser.close().await
}

/// Records, from the document's start, whether the app's views were added to the page hidden
/// (the opening chart's root has the app's classes, and its own id).
const RECORD_STAGING: &str = r#"
    window.__addedHidden = null;
    new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) {
            if (n.nodeType === 1 && n.classList.contains("page") && n.id !== "opening-chart-page"
                && window.__addedHidden === null) {
                window.__addedHidden = n.hasAttribute("hidden");
            }
        }
    }).observe(document, { childList: true, subtree: true });
"#;

/// The app starts in steps, each a task of its own (`src/main.rs`, CHANGELOG.md "The app's start in
/// steps"): its state, the state followed, the chart set, then its views, added to the page
/// hidden behind the opening chart, in three steps, then shown, and last the URL and the
/// device's copy following the state. Read from the page's performance timeline: every step's
/// measure, in order, none overlapping the next; the parts mounted after the first screen
/// (their `lab:first-screen` mark) wait until the views show.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_first_screen_the_app_starts_in_steps_behind_the_opening_chart() -> Result {
    let browser = Browser::start().await?;
    browser.cdp(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": RECORD_STAGING }),
    )?;
    emulate_phone(&browser, 390, 844).await?;
    open_drawn(&browser, "light").await?;
    browser
        .wait_until(
            "every part mounted",
            "return document.documentElement.hasAttribute('data-mounted');",
        )
        .await?;
    let seen = browser
        .js(
            "const steps = ['lab:start', 'lab:model', 'lab:follow', 'lab:prepare', 'lab:mount',
                            'lab:results', 'lab:charts', 'lab:show', 'lab:host', 'lab:keep'];
             const span = (n) => {
                 const m = performance.getEntriesByName(n, 'measure');
                 return m.length === 1 ? [m[0].startTime, m[0].startTime + m[0].duration] : m.length;
             };
             const screen = performance.getEntriesByName('lab:first-screen', 'mark');
             return { steps: steps.map((n) => [n, span(n)]),
                      firstScreen: screen.length ? screen[0].startTime : null,
                      addedHidden: window.__addedHidden,
                      hiddenNow: document.querySelector('.page').hidden,
                      opening: !!document.getElementById('opening-chart-page') };",
            vec![],
        )
        .await?;
    assert_eq!(seen["addedHidden"], json!(true), "added hidden: {seen}");
    assert_eq!(seen["hiddenNow"], json!(false), "shown: {seen}");
    assert_eq!(
        seen["opening"],
        json!(false),
        "the opening chart handed over: {seen}"
    );
    let steps = seen["steps"].as_array().expect("the steps");
    let mut before: Option<(String, f64)> = None;
    let mut shown = None;
    for step in steps {
        let name = step[0].as_str().unwrap().to_string();
        let span = step[1]
            .as_array()
            .unwrap_or_else(|| panic!("{name} measured once: {seen}"));
        let (start, end) = (span[0].as_f64().unwrap(), span[1].as_f64().unwrap());
        if let Some((was, ended)) = &before {
            assert!(
                start >= *ended,
                "{name} begins after {was} ends ({start} against {ended}): {seen}"
            );
        }
        if name == "lab:show" {
            shown = Some(end);
        }
        before = Some((name, end));
    }
    let shown = shown.expect("the step that shows the views");
    let first_screen = seen["firstScreen"].as_f64().expect("the first-screen mark");
    assert!(
        first_screen >= shown,
        "the first screen's later parts mount after the views show ({first_screen} against \
         {shown}): {seen}"
    );
    browser.close().await
}
