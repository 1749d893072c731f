//! The opening chart's entry point: a wasm of its own, small beside the app's, that draws the
//! IOPS chart before the app has arrived (see [`parallelism_lab::ui::opening_chart`]). Trunk
//! builds it beside the app; `assets/boot.js` starts it (which lays out the frame), calls
//! [`draw`] once that frame has been shown, then starts the app.

use wasm_bindgen::prelude::wasm_bindgen;

fn main() {
    if let Err(why) = parallelism_lab::ui::opening_chart::show() {
        web_sys::console::info_1(&format!("Parallelism Lab: no opening chart ({why})").into());
    }
}

/// Draws the chart into the frame `main` laid out; nothing if it laid out none.
#[wasm_bindgen]
pub fn draw() {
    parallelism_lab::ui::opening_chart::draw();
}
