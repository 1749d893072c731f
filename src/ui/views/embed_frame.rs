//! The lab in a frame: its height, reported to the page that embeds it so an iframe can size
//! itself to its content (`postMessage` of the JSON text `{"context":"iframe.resize","height":H}`,
//! the common form embed hosts listen for, to the parent window, whenever the height changes);
//! and whether the frame is in sight ([`InSight`]), so that an article of many labs computes
//! only those its reader comes to.
//!
//! What always holds: a height is sent only when the page is framed (`window.parent` is not
//! the page itself) or opened with `embed=1`, and only when it (whole CSS pixels) differs from
//! the last one sent; the message carries nothing but the height, so it goes to any origin
//! (`"*"`). A page that is not framed is always in sight; a framed one is in sight once an
//! `IntersectionObserver` sees its document within [`NEAR`] of the top window's viewport
//! (a cross-origin frame's observer ignores the margin: it is in sight when any of it shows,
//! and the host's `loading="lazy"` loads it as the reader nears it).

use std::cell::Cell;
use std::rc::Rc;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit, ResizeObserver,
};

use crate::ui::pure::snippet::resize_message;

/// The window that frames the page, if it runs inside a frame.
pub fn parent() -> Option<web_sys::Window> {
    let window = window();
    let parent = window.parent().ok()??;
    (!js_sys::Object::is(&parent, &window)).then_some(parent)
}

/// Whether the page runs inside a frame.
pub fn is_framed() -> bool {
    parent().is_some()
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
            let target = parent().unwrap_or_else(window);
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

/// How near the viewport a framed lab counts as in sight (a same-origin frame's observer
/// margin): half a screen above and below, so its work starts as the reader scrolls to it.
pub const NEAR: &str = "50% 0px 50% 0px";

/// Whether the lab is in sight, and whether it ever was; in context for the views whose model
/// work waits for it.
#[derive(Clone, Copy)]
pub struct InSight {
    /// Now.
    pub now: Signal<bool>,
    /// Ever since the page opened (never false again once true).
    pub ever: Signal<bool>,
}

impl InSight {
    /// Starts following whether the page is in sight (see the module documentation) and
    /// provides it to the views below.
    pub fn provide(framed: bool) -> InSight {
        let now = RwSignal::new(!framed);
        if framed {
            observe_sight(now);
        }
        let ever = Memo::new(move |was: Option<&bool>| was == Some(&true) || now.get());
        let sight = InSight {
            now: now.into(),
            ever: ever.into(),
        };
        provide_context(sight);
        sight
    }

    /// The page's, or always in sight where none was provided (a test's mount of one view).
    pub fn expect() -> InSight {
        use_context::<InSight>().unwrap_or(InSight {
            now: Signal::from(true),
            ever: Signal::from(true),
        })
    }
}

/// Sets `now` whenever the frame's document comes within [`NEAR`] of the viewport or leaves it.
fn observe_sight(now: RwSignal<bool>) {
    let Some(root) = document().document_element() else {
        now.set(true);
        return;
    };
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let seen = entries
            .iter()
            .filter_map(|e| e.dyn_into::<IntersectionObserverEntry>().ok())
            .next_back()
            .map(|e| e.is_intersecting());
        if let Some(seen) = seen {
            if now.get_untracked() != seen {
                now.set(seen);
            }
        }
    });
    let options = IntersectionObserverInit::new();
    options.set_root_margin(NEAR);
    let Ok(observer) =
        IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &options)
    else {
        // Without an observer the lab cannot tell, so it works as if seen.
        now.set(true);
        return;
    };
    observer.observe(&root);
    let keep = send_wrapper::SendWrapper::new((observer, callback));
    on_cleanup(move || keep.0.disconnect());
}
