//! Parallelism Lab's suites that need more than Rust, in `tests/`: the end-to-end tests
//! (`e2e*.rs`: the built page in `dist/`, served under a sub-path, in headless Chromium over
//! WebDriver or DevTools) and the tests that run the real fio (`fio.rs`). Their shared helpers
//! are `tests/common/`, which the page benchmark (`benches/page/`) uses too.
//!
//! The crate is a workspace member but not a default one: a plain `cargo test` at the root
//! runs everything that needs only Rust, and `./dev.sh test` runs these once `dist/` is built
//! (they fail, never skip, without a browser, a build or fio).
