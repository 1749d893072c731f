//! The crash screen: what a reader sees if the app ever panics, instead of a page that has
//! silently stopped following its controls.
//!
//! A panic in WebAssembly ends the module (the release build aborts), so no Rust code runs
//! afterwards: the screen is plain DOM built inside the panic hook, and both ways out are
//! links that work without the app. "Reload this view" opens the same address, so nothing the
//! reader set is lost (the state lives in the URL); "Reset to the defaults" opens the page
//! without its query. The panic's message is shown as text, never as HTML, inside a
//! "Technical details" disclosure for bug reports, and goes to the console too.
//!
//! `?debug=panic` panics on purpose once the app has mounted, so the end-to-end tests (and
//! anyone curious) can see this screen. `?debug=worker` has a model worker trap mid-run
//! instead, which the page survives: the pool replaces the worker (`pool.rs`). The lab has no
//! other way to fail on demand.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::ui::pure::url_state::{DEBUG_PANIC, DEBUG_PARAM};

/// The crash screen's element id.
pub const CRASH_ID: &str = "crash";

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// Replace the default panic hook (which prints nowhere in a browser) with the crash screen.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        console_error(&format!("Parallelism Lab panicked: {message}"));
        // Nothing more can be done if even the DOM is out of reach.
        let _ = show(&message);
    }));
}

/// Whether the page's query asks for a deliberate panic. Read before the app starts: the app
/// rewrites the URL to its state's query, which has no `debug=`.
pub fn panic_asked() -> bool {
    debug_asked(DEBUG_PANIC)
}

/// Whether the page's query says `debug=` `value` (read before the app rewrites the URL).
pub fn debug_asked(value: &str) -> bool {
    let Some(search) = web_sys::window().and_then(|w| w.location().search().ok()) else {
        return false;
    };
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()
        .and_then(|q| q.get(DEBUG_PARAM))
        .is_some_and(|v| v == value)
}

/// Panics on the next turn of the event loop (see [`panic_asked`]).
pub fn panic_soon() {
    gloo_timers::callback::Timeout::new(0, || {
        panic!("a deliberate panic, asked for by ?{DEBUG_PARAM}={DEBUG_PANIC}")
    })
    .forget();
}

/// Build the screen over the page; a second panic leaves the first screen as it is.
fn show(details: &str) -> Result<(), JsValue> {
    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    let body = document.body().ok_or("no body")?;
    if document.get_element_by_id(CRASH_ID).is_some() {
        return Ok(());
    }
    let location = window.location();
    let this_view = location.href()?;
    let defaults = location.pathname()?;

    let element = |tag: &str, text: &str| -> Result<web_sys::Element, JsValue> {
        let e = document.create_element(tag)?;
        e.set_text_content(Some(text));
        Ok(e)
    };
    let screen = document.create_element("div")?;
    screen.set_id(CRASH_ID);
    screen.set_class_name("crash");
    screen.set_attribute("role", "alertdialog")?;
    screen.set_attribute("aria-modal", "true")?;
    screen.set_attribute("aria-labelledby", "crash-title")?;
    screen.set_attribute("aria-describedby", "crash-text")?;

    let title = element("h2", "The lab stopped")?;
    title.set_id("crash-title");
    let text = element(
        "p",
        "Something inside the lab failed, so it can no longer follow your controls. \
         Your settings are kept in this page's address: reloading brings them back.",
    )?;
    text.set_id("crash-text");
    let actions = document.create_element("p")?;
    actions.set_class_name("crash-actions");
    let reload = element("a", "Reload this view")?;
    reload.set_attribute("href", &this_view)?;
    reload.set_id("crash-reload");
    let reset = element("a", "Reset to the defaults")?;
    reset.set_attribute("href", &defaults)?;
    reset.set_id("crash-reset");
    actions.append_child(&reload)?;
    actions.append_child(&reset)?;
    let disclosure = document.create_element("details")?;
    let summary = element("summary", "Technical details (for a bug report)")?;
    let message = element("pre", details)?;
    disclosure.append_child(&summary)?;
    disclosure.append_child(&message)?;
    for part in [&title, &text, &actions, &disclosure] {
        screen.append_child(part)?;
    }

    // The dead app stays visible behind the screen but out of reach of focus and clicks.
    let children = body.children();
    for i in 0..children.length() {
        if let Some(child) = children.item(i) {
            child.set_attribute("inert", "")?;
        }
    }
    body.append_child(&screen)?;
    if let Ok(link) = reload.dyn_into::<web_sys::HtmlElement>() {
        link.focus()?;
    }
    Ok(())
}
