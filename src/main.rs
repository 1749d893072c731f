//! Browser entry point: Trunk builds this binary to wasm and the page loads it.

use leptos::prelude::*;

fn main() {
    leptos::mount::mount_to_body(|| view! { <parallelism_lab::ui::App /> });
}
