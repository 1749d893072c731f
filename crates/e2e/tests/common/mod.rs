//! Shared helpers for the end-to-end tests (`crates/e2e/tests/e2e*.rs`), the real-fio tests
//! and the page benchmark (`benches/page/`, which includes this module by path).
//!
//! [`Browser::start`] serves the built `dist/` under a sub-path with [`StaticServer`], starts
//! `chromedriver` ([`ChromeDriver`]) and opens a headless Chromium session through fantoccini.
//! Everything it starts is stopped again when it is dropped, also when a test panics.
//!
//! Every helper that can fail returns [`Result`]: a [`Failure`] says, in words for the reader,
//! what could not be done (the build is missing, chromedriver did not start, a script failed,
//! the page never got where a test waited for it). Tests return it too and pass it on with
//! `?`; what a test checks stays an `assert!`.
//!
//! Conventions for end-to-end tests: files are named `crates/e2e/tests/e2e*.rs`, start with
//! `#![cfg(not(target_arch = "wasm32"))]` and name their tests `e2e_*`. `tests/run-all.sh`
//! runs the crate once `dist/` is built; a plain `cargo test` at the root leaves it out.
#![allow(dead_code)] // each test binary uses a different subset of the helpers

mod browser;
pub mod cdp;
mod driver;
mod failure;
pub mod fio;
mod http;
mod server;

#[allow(unused_imports)] // not every test binary uses every helper
pub use browser::{Browser, LogEntry};
pub use driver::ChromeDriver;
pub use failure::{Context, Failure, Result};
pub use server::StaticServer;

use std::path::PathBuf;

/// The repository root (where `Trunk.toml` and `dist/` are): the manifest's folder or the
/// first above it, so the e2e crate and the root package's benchmark find the same root.
pub fn repo_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|dir| dir.join("Trunk.toml").is_file())
        .unwrap_or(&manifest)
        .to_path_buf()
}

/// The built app. Fails (never skips) when it has not been built, so a missing build can not
/// turn into a silently passing test.
pub fn dist_dir() -> Result<PathBuf> {
    let dist = repo_root().join("dist");
    if !dist.join("index.html").is_file() {
        return Err(Failure::new(format!(
            "{} is missing: build the app first with `trunk build --release` \
             (`./dev.sh test` does that before the end-to-end tests)",
            dist.join("index.html").display()
        )));
    }
    Ok(dist)
}

/// The app's wasm in `dist/`, by its hashed name (`parallelism-lab-<hash>_bg.wasm`).
pub fn app_wasm() -> Result<String> {
    std::fs::read_dir(dist_dir()?)
        .context("dist/")?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .find(|name| name.starts_with("parallelism-lab-") && name.ends_with("_bg.wasm"))
        .context("the app's wasm in dist/")
}

/// A copy of `dist/` in a folder of its own (named after `what`), without the files whose name
/// `leave_out` picks, and with `add` (a file name and its text) written into it.
pub fn dist_with(
    what: &str,
    leave_out: impl Fn(&str) -> bool,
    add: Option<(&str, &str)>,
) -> Result<PathBuf> {
    let root = std::env::temp_dir().join(format!("lab-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let copy = || format!("a copy of dist/ in {}", root.display());
    std::fs::create_dir_all(&root).with_context(copy)?;
    for entry in std::fs::read_dir(dist_dir()?).context("dist/")? {
        let entry = entry.context("dist/")?;
        let name = entry.file_name().to_string_lossy().to_string();
        let path = entry.path();
        if path.is_file() && !leave_out(&name) {
            std::fs::copy(&path, root.join(&name)).with_context(copy)?;
        }
    }
    if let Some((file, text)) = add {
        std::fs::write(root.join(file), text).with_context(copy)?;
    }
    Ok(root)
}
