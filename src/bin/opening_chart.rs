//! The opening chart's entry point: a wasm of its own, small beside the app's, that draws the
//! IOPS chart before the app has arrived (see [`parallelism_lab::ui::opening_chart`]). Trunk
//! builds it beside the app; `assets/boot.js` starts it, calls [`show`] in a task of its own
//! (which lays out the frame), [`draw`] once that frame has been shown, then starts the app.

use wasm_bindgen::prelude::wasm_bindgen;

/// Does nothing: the module's start finishes its compiling and instantiating, a task of its
/// own before [`show`] (in one task the two were a long task of a phone's load: 62 ms at 4x).
fn main() {}

/// Lays out the first screen's frame for the page's URL; nothing where the app is there first
/// or its first screen is not the IOPS chart (the console says why).
#[wasm_bindgen]
pub fn show() {
    if let Err(why) = parallelism_lab::ui::opening_chart::show() {
        web_sys::console::info_1(&format!("Parallelism Lab: no opening chart ({why})").into());
    }
}

/// Draws the chart into the frame `main` laid out; nothing if it laid out none.
#[wasm_bindgen]
pub fn draw() {
    parallelism_lab::ui::opening_chart::draw();
}
