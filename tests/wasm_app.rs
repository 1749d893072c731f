//! Browser component tests: mount the lab (or one component) in headless Chromium
//! (wasm-bindgen-test-runner) and drive it through DOM events, as a reader's browser would.
//!
//! The lab's model runs in the release build's worker (`dist/worker_loader.js`, which the test
//! runner serves from the repository root), so `tests/run-all.sh` builds `dist/` first. The
//! page itself runs in a debug build, where the drive over time is slow, so links use
//! `state=fob` wherever the drive state does not matter and waits are long.
//!
//! The test runner replaces the page's `Worker` with one that starts each worker from a module
//! of its own, which forwards the worker's console and then imports the worker's script
//! (`await import(...)`): messages the page posts meanwhile reach no listener and are lost,
//! which no browser does to a page's own worker (the loader's listener is in place before any
//! message is delivered). The tests start the model's workers with the browser's own `Worker`.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use parallelism_lab::model::anatomy::Part;
use parallelism_lab::model::stats::{Bottleneck, ProgramWait};
use parallelism_lab::ui::browser::later::MOUNTED_ATTRIBUTE;
use parallelism_lab::ui::pure::anatomy::{DirectionParts, PartsUs};
use parallelism_lab::ui::pure::compute::{Fidelity, Point, PointAnatomy};
use parallelism_lab::ui::pure::state::LabState;
use parallelism_lab::ui::views::anatomy::WhereTheTimeGoes;
use parallelism_lab::ui::views::readout::{self, Readout};
use parallelism_lab::ui::App;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{HtmlCanvasElement, HtmlElement, HtmlInputElement, KeyboardEvent, KeyboardEventInit};

wasm_bindgen_test_configure!(run_in_browser);

/// Longest wait for the page to react (the debug-build model is slow).
const WAIT_MS: u32 = 60_000;
const POLL_MS: u32 = 20;
/// Long enough for a `<details>` element's `toggle` event, which the browser fires in a task
/// of its own after the element opens.
const TOGGLE_MS: u32 = 100;

/// The built model worker, as the test runner serves it (from the repository root).
const WORKER: &str = "/dist/worker_loader.js";

/// What a test or its helper returns: what the browser refuses (its own error) or a page that
/// lacks what the test looks for is an error, not a panic.
type TestResult<T = ()> = Result<T, JsValue>;

/// The page's window.
fn window() -> TestResult<web_sys::Window> {
    web_sys::window().ok_or_else(|| "no window".into())
}

/// A fresh `<div>` in `<body>` to mount into.
fn container() -> TestResult<HtmlElement> {
    let document = window()?.document().ok_or("no document")?;
    let div = document.create_element("div")?;
    document.body().ok_or("no body")?.append_child(&div)?;
    Ok(div.unchecked_into())
}

/// Waits until every part of the lab has mounted (those below the first screen mount after
/// it, one per task: `src/ui/later.rs`).
async fn mounted() -> TestResult {
    eventually("every part of the lab to be mounted", || {
        Ok(web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
            .is_some_and(|root| root.has_attribute(MOUNTED_ATTRIBUTE)))
    })
    .await
}

/// Mounts the lab on `query` in a fresh container and waits until every part has mounted;
/// gives the container and the mount (dropping it unmounts the lab).
async fn mount_lab(query: &'static str) -> TestResult<(HtmlElement, impl Sized)> {
    use_the_browsers_worker()?;
    let root = container()?;
    let app = leptos::mount::mount_to(
        root.clone(),
        move || view! { <App query=query worker=WORKER /> },
    );
    mounted().await?;
    Ok((root, app))
}

/// Puts the browser's own `Worker` back in place of the test runner's (see the module docs);
/// the runner's keeps the browser's prototype, whose constructor is the browser's.
fn use_the_browsers_worker() -> TestResult {
    let window = window()?;
    let worker = js_sys::Reflect::get(&window, &"Worker".into())?;
    let prototype = js_sys::Reflect::get(&worker, &"prototype".into())?;
    let own = js_sys::Reflect::get(&prototype, &"constructor".into())?;
    js_sys::Reflect::set(&window, &"Worker".into(), &own)?;
    Ok(())
}

fn find<T: JsCast>(root: &HtmlElement, css: &str) -> TestResult<T> {
    let found = root.query_selector(css)?;
    let found = found.ok_or_else(|| format!("{css} not found"))?;
    Ok(found.unchecked_into())
}

fn text(root: &HtmlElement, css: &str) -> TestResult<String> {
    Ok(find::<HtmlElement>(root, css)?
        .text_content()
        .unwrap_or_default())
}

/// Waits until `cond` holds; Leptos applies updates asynchronously and the model takes time.
async fn eventually(what: &str, mut cond: impl FnMut() -> TestResult<bool>) -> TestResult {
    for _ in 0..WAIT_MS / POLL_MS {
        if cond()? {
            return Ok(());
        }
        TimeoutFuture::new(POLL_MS).await;
    }
    Err(format!("timed out waiting for {what}").into())
}

/// Presses `key` (with Shift if `shift`) on `el`, as the keyboard would.
fn press(el: &HtmlElement, key: &str, shift: bool) -> TestResult {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_shift_key(shift);
    init.set_bubbles(true); // Leptos delegates listeners to the document
    init.set_cancelable(true);
    let ev = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init)?;
    el.dispatch_event(&ev)?;
    Ok(())
}

#[wasm_bindgen_test]
async fn the_readout_follows_the_queue_depth_slider() -> TestResult {
    let (root, app) = mount_lab("?qd=16&state=fob").await?;
    let slider: HtmlInputElement = find(&root, "#qd")?;
    assert_eq!(slider.type_(), "range");
    assert_eq!(
        slider.get_attribute("aria-valuetext").as_deref(),
        Some("queue depth 16")
    );
    eventually("a first model result", || {
        Ok(text(&root, "#readout-iops")? != "–")
    })
    .await?;
    assert!(text(&root, "#readout-what")?.contains("queue depth 16"));

    press(slider.unchecked_ref(), "ArrowRight", false)?;
    eventually("the readout to move to queue depth 32", || {
        Ok(text(&root, "#readout-what")?.contains("queue depth 32"))
    })
    .await?;
    assert_eq!(
        slider.get_attribute("aria-valuetext").as_deref(),
        Some("queue depth 32")
    );
    assert_eq!(text(&root, "#qd-value")?, "32");

    press(slider.unchecked_ref(), "ArrowRight", true)?;
    eventually(
        "a fine step to 40",
        || Ok(text(&root, "#qd-value")? == "40"),
    )
    .await?;
    eventually("a result for the new depth", || {
        Ok(text(&root, "#readout-iops")? != "–")
    })
    .await?;
    drop(app);
    Ok(())
}

#[wasm_bindgen_test]
async fn the_readout_component_shows_what_the_state_and_result_say() -> TestResult {
    let root = container()?;
    let state = RwSignal::new(LabState::default());
    let result = RwSignal::new(None::<Point>);
    let data = Signal::derive(move || state.with(|s| readout::build(s, result.get(), None, None)));
    let handle = leptos::mount::mount_to(
        root.clone(),
        move || view! { <Readout data=data heading="This point" /> },
    );

    assert_eq!(
        text(&root, "#readout-iops")?,
        "–",
        "no result yet, no number"
    );
    assert!(text(&root, "#readout-status")?.contains("Computing"));
    assert!(text(&root, "#readout")?.contains("Published measurement"));
    eventually("the readout's panel of where the time goes", || {
        Ok(root.query_selector("#readout #anatomy-status")?.is_some())
    })
    .await?;

    result.set(Some(Point {
        iops: 263_500.0,
        mb_s: 1079.3,
        mean_us: 121.4,
        p99_us: 310.0,
        p999_us: 600.0,
        bottleneck: Bottleneck::Dies,
        program_wait: ProgramWait::Suspend,
        watts: 2.5,
        budget_w: Some(8.9),
        saturated: false,
        in_system: 1.0,
        anatomy: PointAnatomy::default(),
        fidelity: Fidelity::Estimate,
    }));
    eventually("the figures", || {
        Ok(text(&root, "#readout-iops")? == "263.5k")
    })
    .await?;
    assert_eq!(text(&root, "#readout-mbs")?, "1,079 MB/s");
    assert_eq!(text(&root, "#readout-watts")?, "2.5 W");
    assert_eq!(text(&root, "#readout-efficiency")?, "105.4k IOPS per W");
    assert_eq!(text(&root, "#readout-mean")?, "121 µs");
    assert_eq!(
        text(&root, "#readout-limit")?,
        "NAND dies; reads wait for programs to suspend"
    );
    assert!(text(&root, "#readout-status")?.contains("estimate"));

    state.update(|s| s.workload.set_iodepth(64));
    eventually("the new depth", || {
        Ok(text(&root, "#readout-what")?.contains("queue depth 64"))
    })
    .await?;
    assert!(
        !text(&root, "#readout")?.contains("Published measurement"),
        "nothing was published for QD 64"
    );
    drop(handle);
    Ok(())
}

/// A breakdown of `parts` (µs each), its latency their sum.
fn parts_us(parts: &[(Part, f32)]) -> PartsUs {
    PartsUs::of_parts(parts)
}

/// A point whose reads take 70 µs on average (60 sensing, 10 crossing the link) and 1 ms in
/// the p99's and p99.9's tails (940 µs of it behind host programs), and no writes.
fn point_with_anatomy() -> Point {
    let tail = parts_us(&[(Part::Sense, 60.0), (Part::BehindPrograms, 940.0)]);
    Point {
        iops: 100_000.0,
        mb_s: 409.6,
        mean_us: 70.0,
        p99_us: 1_000.0,
        p999_us: 1_000.0,
        bottleneck: Bottleneck::Dies,
        program_wait: ProgramWait::Rarely,
        watts: 2.0,
        budget_w: None,
        saturated: false,
        in_system: 7.0,
        anatomy: PointAnatomy {
            reads: Some(DirectionParts {
                mean: parts_us(&[(Part::Sense, 60.0), (Part::LinkTransfer, 10.0)]),
                p99: tail,
                p999: tail,
            }),
            writes: None,
        },
        fidelity: Fidelity::Full,
    }
}

#[wasm_bindgen_test]
async fn where_the_time_goes_names_the_p99s_largest_part_and_every_part_in_text() -> TestResult {
    let root = container()?;
    let point = RwSignal::new(None::<Point>);
    let failed = RwSignal::new(false);
    let handle = leptos::mount::mount_to(
        root.clone(),
        move || view! { <WhereTheTimeGoes point=point failed=failed /> },
    );
    assert_eq!(text(&root, "#anatomy-status")?, "Computing the model…");
    assert!(root.query_selector("#anatomy-sentence")?.is_none());

    point.set(Some(point_with_anatomy()));
    eventually("the sentence", || {
        Ok(root.query_selector("#anatomy-sentence")?.is_some())
    })
    .await?;
    assert_eq!(
        text(&root, "#anatomy-sentence")?,
        "At p99, 94% of a read's time is spent waiting for its die behind host programs \
         (model: the reads at or above the p99 take 1.00 ms on average)."
    );
    assert_eq!(
        text(&root, "#anatomy-title")?,
        "Where the time goes · model result"
    );
    assert_eq!(
        text(&root, "#anatomy-legend")?,
        "its own flash readbehind the writes' workthe host link"
    );
    // Each bar's text equivalent, and its parts as wide as their shares.
    find::<HtmlElement>(&root, ".anatomy-row:nth-child(3) .anatomy-bar[role=img]")?;
    assert!(
        root.query_selector(".anatomy-row:nth-child(4)")?.is_none(),
        "three bars: mean, p99, p99.9"
    );
    let p99: HtmlElement = find(&root, ".anatomy-row:nth-child(2) .anatomy-bar")?;
    assert_eq!(
        p99.get_attribute("aria-label").as_deref(),
        Some(
            "p99 of reads at or above the p99, 1.00 ms on average in the model: 94% waiting \
             for its die behind host programs (940 µs); 6% on its own NAND read (60 µs)"
        )
    );
    let first: HtmlElement = find(&p99, ".anatomy-segment")?;
    assert_eq!(first.style().get_property_value("width")?, "94%");
    assert_eq!(
        first.class_name(),
        "anatomy-segment part-writes-work shade-1"
    );
    // The table names every part that took time with its µs, and every other part too.
    let table = text(&root, "#anatomy-parts")?;
    for words in [
        "waiting for its die behind host programs–940 µs940 µs",
        "on its own NAND read60 µs60 µs60 µs",
        "crossing the host link10 µs––",
        "the whole latency70 µs1.00 ms1.00 ms",
        "No time was spent waiting in the host, in the host's stack,",
    ] {
        assert!(table.contains(words), "{words} in {table}");
    }

    // Opened, the table stays open when the panel is redrawn for a new result.
    find::<HtmlElement>(&root, "#anatomy-parts summary")?.click();
    TimeoutFuture::new(TOGGLE_MS).await;
    point.update(|p| {
        if let Some(p) = p {
            p.fidelity = Fidelity::Estimate;
        }
    });
    eventually("the estimate's panel", || {
        Ok(text(&root, "#anatomy-title")?.contains("model estimate"))
    })
    .await?;
    assert!(find::<HtmlElement>(&root, "#anatomy-parts")?.has_attribute("open"));

    failed.set(true);
    eventually("the panel to go with a failure", || {
        Ok(root.query_selector("#anatomy")?.is_none())
    })
    .await?;
    drop(handle);
    Ok(())
}

#[wasm_bindgen_test]
async fn a_bad_link_parameter_shows_a_note_and_the_rest_of_the_link_applies() -> TestResult {
    let (root, app) = mount_lab("?qd=banana&rw=randwrite&state=fob").await?;
    let note = text(&root, "#url-notes")?;
    assert!(note.contains("qd"), "{note}");
    assert!(note.contains("'banana' is not a whole number"), "{note}");
    assert_eq!(text(&root, "#qd-value")?, "32", "the default depth stays");
    assert!(text(&root, "#readout-what")?.contains("random writes"));
    assert_eq!(text(&root, "#mix-value")?, "0% reads");

    find::<HtmlElement>(&root, "#dismiss-notes")?.click();
    eventually("the note to go", || {
        Ok(root.query_selector("#url-notes")?.is_none())
    })
    .await?;
    assert!(text(&root, "#readout-what")?.contains("random writes"));
    drop(app);
    Ok(())
}

#[wasm_bindgen_test]
async fn link_text_is_shown_as_text_never_as_html() -> TestResult {
    let (root, app) = mount_lab("?%3Cimg%20src%3Dx%3E=1&state=fob").await?;
    assert!(text(&root, "#url-notes")?.contains("<img src=x>"));
    assert!(root.query_selector("#url-notes img")?.is_none());
    drop(app);
    Ok(())
}

#[wasm_bindgen_test]
async fn charts_are_drawn_at_the_screen_resolution_and_stamped() -> TestResult {
    let (root, app) = mount_lab("?state=fob").await?;
    let canvas: HtmlCanvasElement = find(&root, "canvas#chart-iops")?;
    eventually("the first drawing", || {
        Ok(canvas.has_attribute("data-draws"))
    })
    .await?;
    let ratio = window()?
        .device_pixel_ratio()
        .min(parallelism_lab::ui::charts::canvas::MAX_BACKING_RATIO);
    let css_width = f64::from(canvas.client_width());
    assert!(css_width > 0.0);
    assert!(
        (f64::from(canvas.width()) - (css_width * ratio).round()).abs() <= 1.0,
        "backing store {} for {css_width} CSS px at ratio {ratio}",
        canvas.width()
    );
    assert_eq!(canvas.get_attribute("role").as_deref(), Some("img"));
    let state = canvas
        .get_attribute("data-state")
        .ok_or("the chart's data-state")?;
    assert!(
        state.contains("qd=32") && state.contains("state=fob"),
        "{state}"
    );
    drop(app);
    Ok(())
}

#[wasm_bindgen_test]
async fn where_the_time_goes_across_queue_depth_is_drawn_described_and_named_in_text() -> TestResult
{
    let (root, app) = mount_lab("?charts=anatomy&state=fob&qd=8").await?;
    let canvas: HtmlCanvasElement = find(&root, "canvas#chart-anatomy")?;
    eventually("every depth of the reader's drive", || {
        Ok(canvas.get_attribute("data-missing").as_deref() == Some("0"))
    })
    .await?;
    assert_eq!(
        text(&root, "#figure-anatomy h2")?,
        "Where the time goes against queue depth"
    );
    let figure: HtmlElement = find(&root, "#figure-anatomy")?;
    assert_eq!(
        figure.get_attribute("data-panels").as_deref(),
        Some("1"),
        "random reads: no write panel"
    );
    let label = canvas.get_attribute("aria-label").unwrap_or_default();
    assert!(
        label.starts_with("Where the time goes against queue depth, 1,920 GB (32 dies) (model results, mean request). Reads: at queue depth 1 the mean read takes "),
        "{label}"
    );
    assert!(
        label.contains("at queue depth 256 the mean read takes "),
        "{label}"
    );
    let caption = text(&root, "#figure-anatomy figcaption")?;
    assert!(
        caption.starts_with(
            "Model results for the drive you set, 1,920 GB (32 dies): at each queue depth,"
        ),
        "{caption}"
    );
    assert!(
        text(&root, "#anatomy-chart-legend")?.contains("its own flash read"),
        "the bands named in text"
    );
    find::<HtmlElement>(&root, "#png-anatomy")?;
    assert!(
        root.query_selector("#figure-latency")?.is_none(),
        "charts=anatomy shows that chart alone"
    );
    drop(app);
    Ok(())
}

#[wasm_bindgen_test]
async fn reset_restores_the_defaults() -> TestResult {
    let (root, app) = mount_lab("?preset=octane&qd=4&bs=128k&state=fob").await?;
    assert_eq!(text(&root, "#qd-value")?, "4");
    assert_eq!(text(&root, "#bs-value")?, "128 KiB");
    find::<HtmlElement>(&root, "#reset")?.click();
    eventually("the defaults", || Ok(text(&root, "#qd-value")? == "32")).await?;
    assert_eq!(text(&root, "#bs-value")?, "4 KiB");
    assert_eq!(text(&root, "#cap-value")?, "1,920 GB");
    let preset: web_sys::HtmlSelectElement = find(&root, "#preset")?;
    assert_eq!(preset.value(), "e18dc");
    drop(app);
    Ok(())
}

#[wasm_bindgen_test]
async fn the_idle_slider_changes_the_burst_chart_readout() -> TestResult {
    let (root, app) = mount_lab("?preset=e12&view=time&idle=0&state=fob").await?;
    let section: HtmlElement = find(&root, "#drive-time")?;
    assert!(
        !section.hidden(),
        "the link asks for the drive-over-time view"
    );
    assert!(
        find::<HtmlElement>(&root, ".charts")?.hidden(),
        "the queue-depth charts make way"
    );
    let slider: HtmlInputElement = find(&root, "#idle")?;
    assert_eq!(
        slider.get_attribute("aria-valuetext").as_deref(),
        Some("0 seconds idle between bursts")
    );
    eventually("the model's burst figures", || {
        Ok(text(&root, "#burst-readout")?.contains("with 0 s idle"))
    })
    .await?;
    let before = text(&root, "#burst-readout")?;
    assert!(before.starts_with("Model"), "{before}");
    assert!(text(&root, "#burst-published")?.contains("E12"));

    press(slider.unchecked_ref(), "ArrowRight", false)?;
    eventually("the bursts with 5 s idle", || {
        Ok(text(&root, "#burst-readout")?.contains("with 5 s idle"))
    })
    .await?;
    assert_eq!(text(&root, "#idle-value")?, "5 s");
    assert_ne!(text(&root, "#burst-readout")?, before);
    let canvas: HtmlCanvasElement = find(&root, "canvas#chart-burst")?;
    eventually("the burst chart drawn for 5 s idle", || {
        Ok(canvas
            .get_attribute("data-state")
            .is_some_and(|s| s.contains("idle=5")))
    })
    .await?;
    assert!(canvas
        .get_attribute("aria-label")
        .is_some_and(|l| l.contains("5 s idle")));
    drop(app);
    Ok(())
}

#[wasm_bindgen_test]
async fn bad_view_parameters_are_noted_and_the_default_view_stays() -> TestResult {
    let (root, app) = mount_lab("?view=graph&idle=abc&burst=3&state=fob").await?;
    let note = text(&root, "#url-notes")?;
    for part in [
        "view",
        "'graph'",
        "idle",
        "'abc'",
        "burst",
        "outside 4 to 128 GB",
    ] {
        assert!(note.contains(part), "{part} missing from: {note}");
    }
    assert!(find::<HtmlElement>(&root, "#drive-time")?.hidden());
    assert!(!find::<HtmlElement>(&root, ".charts")?.hidden());
    find::<HtmlElement>(&root, "#view-time")?.click();
    eventually("the drive-over-time view", || {
        Ok(!find::<HtmlElement>(&root, "#drive-time")?.hidden())
    })
    .await?;
    assert_eq!(text(&root, "#idle-value")?, "60 s", "the default idle time");
    drop(app);
    Ok(())
}

/// Lets the microtasks queued so far run (and those they queue, `rounds` deep), without
/// ending the task: no timer, no animation frame runs meanwhile.
async fn microtasks(rounds: usize) -> TestResult {
    for _ in 0..rounds {
        let resolved = js_sys::Promise::resolve(&JsValue::NULL);
        wasm_bindgen_futures::JsFuture::from(resolved).await?;
    }
    Ok(())
}

/// A task asked for with `next_task` runs after the task that asked has ended (not in its
/// microtasks), the tasks in the order asked, each in a task of its own (a microtask queued by
/// one runs before the next), and one asked for from a task runs after those already waiting.
#[wasm_bindgen_test]
async fn next_task_runs_each_closure_in_a_task_of_its_own_in_the_order_asked() -> TestResult {
    use parallelism_lab::ui::browser::tasks::next_task;
    use std::cell::RefCell;
    use std::rc::Rc;

    let log: Rc<RefCell<Vec<&'static str>>> = Rc::default();
    let note = |log: &Rc<RefCell<Vec<&'static str>>>, what: &'static str| {
        let log = log.clone();
        move || log.borrow_mut().push(what)
    };
    for (task, microtask) in [("a", "a's microtask"), ("b", "b's microtask")] {
        let log = log.clone();
        let inner = note(&log, microtask);
        let later = note(&log, "asked by a, after c");
        next_task(move || {
            log.borrow_mut().push(task);
            leptos::task::spawn_local(async move { inner() });
            if task == "a" {
                next_task(later);
            }
        });
    }
    next_task(note(&log, "c"));
    microtasks(8).await?;
    assert!(
        log.borrow().is_empty(),
        "ran within the asking task: {:?}",
        log.borrow()
    );
    eventually(
        "every task asked for to run",
        || Ok(log.borrow().len() == 6),
    )
    .await?;
    assert_eq!(
        *log.borrow(),
        [
            "a",
            "a's microtask",
            "b",
            "b's microtask",
            "c",
            "asked by a, after c"
        ]
    );
    Ok(())
}

#[wasm_bindgen_test]
async fn parts_marked_soon_mount_before_the_others_each_kind_in_page_order() -> TestResult {
    use parallelism_lab::ui::browser::later::{Later, FIRST_SCREEN_MARK};
    use std::sync::{Arc, Mutex, PoisonError};

    let performance = window()?.performance().ok_or("no performance")?;
    let marks_before = performance.get_entries_by_name(FIRST_SCREEN_MARK).length();
    // Children must be `Send + Sync` (Leptos' `ChildrenFn`).
    let order = Arc::new(Mutex::new(Vec::new()));
    let part = |name: &'static str| {
        let order = order.clone();
        move || {
            order
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(name);
            name
        }
    };
    let (a, b, c, d) = (part("a"), part("b"), part("c"), part("d"));
    let handle = leptos::mount::mount_to(container()?, move || {
        view! {
            <Later>{a.clone()}</Later>
            <Later soon=true>{b.clone()}</Later>
            <Later>{c.clone()}</Later>
            <Later soon=true>{d.clone()}</Later>
        }
    });
    mounted().await?;
    let order = order.lock().unwrap_or_else(PoisonError::into_inner).clone();
    assert_eq!(order, ["b", "d", "a", "c"]);
    assert_eq!(
        performance.get_entries_by_name(FIRST_SCREEN_MARK).length(),
        marks_before + 1,
        "one mark, once the last part marked soon has mounted"
    );
    drop(handle);
    Ok(())
}

#[wasm_bindgen_test]
async fn a_chart_asked_for_while_an_input_is_handled_is_drawn_in_that_inputs_task() -> TestResult {
    use parallelism_lab::ui::charts::turns;
    use std::cell::Cell;
    use std::rc::Rc;

    // A task of its own: an input an earlier test dispatched is over.
    TimeoutFuture::new(1).await;
    // Outside any input a chart waits for the next animation frame (changes within one frame
    // are drawn together).
    let drawn = Rc::new(Cell::new(0));
    let count = drawn.clone();
    turns::ask("test-quiet", Rc::new(Cell::new(true)), move || {
        count.set(count.get() + 1)
    });
    microtasks(8).await?;
    assert_eq!(drawn.get(), 0, "drawn before any frame");
    eventually("the next frame's drawing", || Ok(drawn.get() == 1)).await?;

    // Asked for by a control's handler: drawn right after it, before the task ends.
    let input: HtmlInputElement = window()?
        .document()
        .ok_or("no document")?
        .create_element("input")?
        .unchecked_into();
    container()?.append_child(&input)?;
    let count = drawn.clone();
    let on_input = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
        let count = count.clone();
        turns::ask("test-input", Rc::new(Cell::new(true)), move || {
            count.set(count.get() + 1)
        });
    });
    input.add_event_listener_with_callback("input", on_input.as_ref().unchecked_ref())?;
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict("input", &init)?;
    input.dispatch_event(&ev)?;
    microtasks(8).await?;
    assert_eq!(drawn.get(), 2, "not drawn within the input's task");
    Ok(())
}

#[wasm_bindgen_test]
async fn arrow_presses_a_busy_task_meets_are_applied_as_one_step_in_the_next_task() -> TestResult {
    use parallelism_lab::ui::browser::input::{self, TASK_BUDGET_MS};

    let (root, app) = mount_lab("?qd=16&state=fob").await?;
    let slider: HtmlInputElement = find(&root, "#qd")?;
    TimeoutFuture::new(1).await;

    // A press in a task of its own is applied in it.
    press(slider.unchecked_ref(), "ArrowRight", false)?;
    microtasks(8).await?;
    assert_eq!(text(&root, "#qd-value")?, "32");

    // A task that has already worked its budget for the reader meets three more presses:
    // none is applied in it, and the next task applies all three as one step (32 -> 256).
    TimeoutFuture::new(1).await;
    input::begin();
    let performance = window()?.performance().ok_or("no performance")?;
    let busy_until = performance.now() + TASK_BUDGET_MS + 1.0;
    while performance.now() < busy_until {}
    for _ in 0..3 {
        press(slider.unchecked_ref(), "ArrowRight", false)?;
    }
    microtasks(8).await?;
    assert_eq!(text(&root, "#qd-value")?, "32", "applied in the busy task");
    eventually("the three steps applied", || {
        Ok(text(&root, "#qd-value")? == "256")
    })
    .await?;
    assert_eq!(
        slider.get_attribute("aria-valuetext").as_deref(),
        Some("queue depth 256")
    );
    drop(app);
    Ok(())
}
