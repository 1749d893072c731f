//! Downloads made in the page: text (CSV, fio job files) as a `blob:` URL, images as the
//! canvas's `data:` URL, both through a temporary `<a download>`. Nothing is sent anywhere:
//! the file is made from what the page already has.

use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, Url};

/// How long a `blob:` URL stays valid after its download started, in milliseconds.
const REVOKE_AFTER_MS: u32 = 10_000;

/// Offers `text` as a file named `name` of type `mime`. Returns false if the browser refused.
pub fn text(name: &str, mime: &str, text: &str) -> bool {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let bag = BlobPropertyBag::new();
    bag.set_type(mime);
    let Ok(blob) = Blob::new_with_str_sequence_and_options(&parts, &bag) else {
        return false;
    };
    let Ok(url) = Url::create_object_url_with_blob(&blob) else {
        return false;
    };
    let ok = click(&url, name);
    leptos::task::spawn_local(async move {
        gloo_timers::future::TimeoutFuture::new(REVOKE_AFTER_MS).await;
        let _ = Url::revoke_object_url(&url);
    });
    ok
}

/// Offers the canvas with element id `canvas_id` as a PNG file named `name`.
pub fn canvas_png(canvas_id: &str, name: &str) -> bool {
    let canvas = leptos::prelude::document()
        .get_element_by_id(canvas_id)
        .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok());
    match canvas.and_then(|c| c.to_data_url_with_type("image/png").ok()) {
        Some(url) => click(&url, name),
        None => false,
    }
}

/// Follows `href` as a download named `name` through a temporary link.
fn click(href: &str, name: &str) -> bool {
    let document = leptos::prelude::document();
    let Some(a) = document
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<HtmlAnchorElement>().ok())
    else {
        return false;
    };
    a.set_href(href);
    a.set_download(name);
    let _ = a.set_attribute("rel", "noopener");
    let Some(body) = document.body() else {
        return false;
    };
    if body.append_child(&a).is_err() {
        return false;
    }
    a.click();
    a.remove();
    true
}
