//! Browser entry point: Trunk builds this binary to wasm and the page loads it.

fn main() {
    leptos::mount::mount_to_body(parallelism_lab::ui::App);
}
