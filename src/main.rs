//! Browser entry point: Trunk builds this binary to wasm and the page loads it; it only starts
//! the app ([`parallelism_lab::ui::start`] says how, in steps).

fn main() {
    parallelism_lab::ui::start::run();
}
