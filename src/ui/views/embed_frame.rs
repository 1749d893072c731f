//! The embedded page's height, reported to the page that embeds it so an iframe can size itself
//! to its content: `postMessage` of the JSON text `{"context":"iframe.resize","height":H}` (the
//! common form embed hosts listen for) to the parent window, whenever the height changes.
//!
//! What always holds: a message is sent only when the page is framed (`window.parent` is not
//! the page itself) or opened with `embed=1`, and only when the height (whole CSS pixels)
//! differs from the last one sent; the message carries nothing but the height, so it goes to
//! any origin (`"*"`).

use std::cell::Cell;
use std::rc::Rc;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::ResizeObserver;

use crate::ui::pure::snippet::resize_message;

/// Whether the page runs inside a frame.
pub fn is_framed() -> bool {
    let window = window();
    match window.parent() {
        Ok(Some(parent)) => !js_sys::Object::is(&parent, &window),
        _ => false,
    }
}

/// Starts reporting the height of `<html>` to the parent window (see the module
/// documentation); stops when the calling component is cleaned up.
pub fn report_height() {
    let Some(root) = document().document_element() else {
        return;
    };
    let last = Rc::new(Cell::new(0u32));
    let measure = {
        let root = root.clone();
        move || {
            let height = root.get_bounding_client_rect().height().ceil();
            if !height.is_finite() || height < 1.0 {
                return;
            }
            let height = height as u32;
            if last.replace(height) == height {
                return;
            }
            let window = window();
            let target = match window.parent() {
                Ok(Some(parent)) => parent,
                _ => window,
            };
            let _ = target.post_message(&JsValue::from_str(&resize_message(height)), "*");
        }
    };
    measure();
    let callback = Closure::<dyn FnMut()>::new(measure);
    let Ok(observer) = ResizeObserver::new(callback.as_ref().unchecked_ref()) else {
        return;
    };
    observer.observe(&root);
    let keep = send_wrapper::SendWrapper::new((observer, callback));
    on_cleanup(move || keep.0.disconnect());
}
