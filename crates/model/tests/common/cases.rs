//! How many cases a property test runs, and from which seed: its own quick count under
//! `cargo test`, or `PROPTEST_CASES` when set (the benchmark's long run, `./dev.sh bench`);
//! a fixed seed, so `cargo test` tries the same cases on every machine (as the model is
//! deterministic for a seed), unless `PROPTEST_RNG_SEED` names another. One definition,
//! included by every crate's property tests.

use proptest::test_runner::{Config, RngSeed};

/// The seed the quick runs use.
const SEED: u64 = 54;

/// The configuration of a property with `quick` cases by default. A failure is shrunk to its
/// smallest case and printed; it is kept as a named regression test beside the property, not
/// in a file proptest writes.
pub fn config(quick: u32) -> Config {
    let from_env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    Config {
        cases: from_env("PROPTEST_CASES").map_or(quick, |n| n.min(u64::from(u32::MAX)) as u32),
        rng_seed: RngSeed::Fixed(from_env("PROPTEST_RNG_SEED").unwrap_or(SEED)),
        failure_persistence: None,
        ..Config::default()
    }
}
