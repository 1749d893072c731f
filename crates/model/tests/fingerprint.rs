//! The engine's results, bit for bit: a fingerprint of many short runs across every preset,
//! pattern, depth and drive state, held in `crates/model/tests/fingerprint.txt`.
//!
//! A change that only moves code (a crate split, a rename) must leave it alone; a change to the
//! model moves it on purpose, and the commit that does says so and rewrites the file with
//! `LAB_WRITE_FINGERPRINT=1 cargo test -p parallelism-model --test fingerprint`.
#![cfg(not(target_arch = "wasm32"))]

use std::fmt::Write as _;

use parallelism_model::presets;
use parallelism_model::{DriveState, RunOptions, RunSpec, Rw, Simulation, Workload};

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fingerprint.txt");

/// What a test or its helper returns: a run the model refuses is an error, not a panic.
type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// One line per run: its configuration and every figure it reports, as exact bit patterns.
fn fingerprint() -> TestResult<String> {
    let mut out = String::new();
    for p in presets::all() {
        for &dies in &[1, 8, 32] {
            for rw in Rw::ALL {
                for (i, &iodepth) in [1u32, 4, 64].iter().enumerate() {
                    let state = DriveState::ALL[i];
                    let bs_bytes = if rw.is_random() { 4096 } else { 128 * 1024 };
                    let spec = RunSpec {
                        drive: p.drive_with_dies(dies)?,
                        workload: Workload {
                            rw,
                            rwmixread: 70,
                            bs_bytes,
                            iodepth,
                        },
                        state,
                        options: RunOptions {
                            seed: 7,
                            measured_ios: 1_000,
                            ..RunOptions::default()
                        },
                    };
                    let run = spec.check().map_err(|e| format!("a valid run: {e}"))?;
                    let r = Simulation::run(&run)?;
                    let _ = writeln!(
                        out,
                        "{} {dies} {} qd{iodepth} {} iops={:016x} mbs={:016x} mean={:016x} \
                         p99={:016x} ctrl={:016x} events={} suspends={}",
                        p.id,
                        rw.fio_name(),
                        state.id(),
                        r.iops.to_bits(),
                        r.bw_mb_s.to_bits(),
                        r.latency.mean_us.to_bits(),
                        r.latency.p99_us.to_bits(),
                        r.utilisation.controller.to_bits(),
                        r.events,
                        r.suspends
                    );
                }
            }
        }
    }
    Ok(out)
}

#[test]
fn the_engine_gives_the_fingerprinted_results_bit_for_bit() -> TestResult {
    let now = fingerprint()?;
    if std::env::var_os("LAB_WRITE_FINGERPRINT").is_some() {
        std::fs::write(FILE, &now).expect("the fingerprint file is writable");
    }
    let held = std::fs::read_to_string(FILE).expect("the fingerprint file exists");
    let moved: Vec<String> = held
        .lines()
        .zip(now.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("held: {a}\nnow:  {b}"))
        .take(5)
        .collect();
    assert_eq!(
        held.lines().count(),
        now.lines().count(),
        "run count changed"
    );
    assert!(moved.is_empty(), "results moved:\n{}", moved.join("\n"));
    Ok(())
}
