//! Browser component test: mounts the app in headless Chromium (wasm-bindgen-test-runner)
//! and drives the queue-depth slider through DOM events.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use parallelism_lab::ui::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Event, EventInit, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh `<div>` in `<body>` to mount into.
fn container() -> HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let div = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&div).unwrap();
    div.unchecked_into()
}

fn find<T: JsCast>(root: &HtmlElement, css: &str) -> T {
    root.query_selector(css)
        .unwrap()
        .unwrap_or_else(|| panic!("{css} not found"))
        .unchecked_into()
}

/// Waits (up to about a second) until `cond` holds; Leptos applies updates asynchronously.
async fn eventually(what: &str, mut cond: impl FnMut() -> bool) {
    for _ in 0..100 {
        if cond() {
            return;
        }
        TimeoutFuture::new(10).await;
    }
    panic!("timed out waiting for {what}");
}

#[wasm_bindgen_test]
async fn readout_follows_the_slider() {
    let root = container();
    let _app = leptos::mount::mount_to(root.clone(), App);

    let slider: HtmlInputElement = find(&root, "#qd");
    let readout: HtmlElement = find(&root, "#readout");
    assert_eq!(slider.type_(), "range");
    assert_eq!((slider.min(), slider.max()), ("0".into(), "8".into()));
    assert_eq!(readout.text_content().as_deref(), Some("16"));

    slider.set_value("7");
    let init = EventInit::new();
    init.set_bubbles(true); // Leptos delegates `input` listeners to the document
    slider
        .dispatch_event(&Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();

    eventually("the readout to show 128", || {
        readout.text_content().as_deref() == Some("128")
    })
    .await;
    assert_eq!(
        slider.get_attribute("aria-valuetext").as_deref(),
        Some("queue depth 128")
    );
}

#[wasm_bindgen_test]
async fn chart_canvas_is_mounted() {
    let root = container();
    let _app = leptos::mount::mount_to(root.clone(), App);
    let canvas: web_sys::HtmlCanvasElement = find(&root, "canvas#chart-iops");
    assert!(canvas.width() > 0 && canvas.height() > 0);
}
