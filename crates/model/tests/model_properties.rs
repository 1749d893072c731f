//! Properties over the whole configuration space, with `proptest`: random configurations
//! across every preset, die count, queue depth, block size, read share and drive state, and
//! random workloads of several streams, closed and at a rate. Nothing may panic, every result
//! passes its own check (`stats::check`), and the invariants every run must keep hold. A
//! failure is shrunk to its simplest configuration; `PROPTEST_CASES` sets a longer run.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use proptest::prelude::*;

use parallelism_model::config::{MAX_DIES, MAX_IODEPTH};
use parallelism_model::presets::{self, Preset};
use parallelism_model::stats::Utilisation;
use parallelism_model::workload::{Spacing, Stream, StreamsSpec};
use parallelism_model::{DriveState, RunOptions, RunSpec, Rw, Simulation, Workload};

use common::cases::config;

fn preset() -> impl Strategy<Value = &'static Preset> {
    prop::sample::select(presets::all().iter().collect::<Vec<_>>())
}

/// Log-uniform: the extremes matter as much as the middle.
fn log_uniform(most: u32) -> impl Strategy<Value = u32> {
    (0..=most.ilog2(), any::<bool>()).prop_map(move |(shift, less)| {
        ((1u32 << shift) - u32::from(less && shift > 0)).clamp(1, most)
    })
}

fn workload() -> impl Strategy<Value = Workload> {
    (
        prop::sample::select(Rw::ALL.to_vec()),
        (0u8..=10).prop_map(|tenths| tenths * 10),
        (0u32..=8).prop_map(|shift| 4096 << shift),
        log_uniform(MAX_IODEPTH),
    )
        .prop_map(|(rw, rwmixread, bs_bytes, iodepth)| Workload {
            rw,
            rwmixread,
            bs_bytes,
            iodepth,
        })
}

/// A random run's parts: a preset, its die count, a workload, a drive state and a seed
/// ([`run_spec`] makes the run).
fn spec() -> impl Strategy<Value = (&'static Preset, u32, Workload, DriveState, u64)> {
    (
        preset(),
        log_uniform(MAX_DIES),
        workload(),
        prop::sample::select(DriveState::ALL.to_vec()),
        any::<u64>(),
    )
}

/// The run of `preset` with `dies` dies: a short one, and the longer the deeper its queue.
fn run_spec(
    preset: &Preset,
    dies: u32,
    workload: Workload,
    state: DriveState,
    seed: u64,
) -> Result<RunSpec, TestCaseError> {
    Ok(RunSpec {
        drive: preset
            .drive_with_dies(dies)
            .map_err(|e| TestCaseError::fail(e.to_string()))?,
        workload,
        state,
        options: RunOptions {
            seed,
            measured_ios: 100.max(40 * u64::from(workload.iodepth)).min(5_000),
            ..RunOptions::default()
        },
    })
}

fn assert_busy_at_most_elapsed(u: &Utilisation) -> Result<(), TestCaseError> {
    for x in [u.link_read, u.link_write, u.controller]
        .iter()
        .chain(&u.channels)
        .chain(&u.dies)
    {
        prop_assert!((0.0..=1.0).contains(x), "utilisation {}", x);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(150))]

    #[test]
    fn random_configurations_never_panic_and_keep_every_invariant(
        (preset, dies, workload, state, seed) in spec(),
    ) {
        let spec = run_spec(preset, dies, workload, state, seed)?;
        let iodepth = f64::from(spec.workload.iodepth);
        let link_mb_s = spec.drive.controller.link.raw_bytes_per_s() / 1e6;
        let run = spec.check().map_err(|e| TestCaseError::fail(e.to_string()))?;
        // Busy time is exact, never clamped: no resource is busy longer than the time that
        // passed, in a provisional result half way through as in the final one.
        let mut sim = Simulation::new(&run);
        sim.step(2_000);
        assert_busy_at_most_elapsed(&sim.result().unwrap().utilisation)?;
        while !sim.step(u64::MAX) {}
        // The result has passed its own check (finite figures, every request, Little's law)
        // or it would be an error here.
        let r = sim.result().map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&r, &Simulation::run(&run).unwrap(), "a run in slices ends as one");
        prop_assert!(r.iops > 0.0 && r.finished);
        // A closed loop holds its depth: Little's law to the error a finite window allows
        // (requests straddling either edge span at most the longest latency).
        let in_flight = r.iops * r.latency.mean_us / 1e6;
        let edge = 2.0 * r.latency.max_us * 1e3 / r.measured_ns as f64;
        prop_assert!((in_flight / iodepth - 1.0).abs() < 0.02 + edge, "{} in flight", in_flight);
        // Both directions together never beat twice the link (once on half-duplex SATA).
        prop_assert!(r.bw_mb_s <= 2.0 * link_mb_s, "{} MB/s", r.bw_mb_s);
        assert_busy_at_most_elapsed(&r.utilisation)?;
        prop_assert!(r.latency.p50_us <= r.latency.p99_us + 1e-9);
        prop_assert!(r.latency.p99_us <= r.latency.max_us + 1e-9);
    }

    #[test]
    fn random_streams_closed_and_at_a_rate_give_results_that_pass_their_check(
        preset in preset(),
        dies in log_uniform(64),
        streams in prop::collection::vec(
            (workload(), prop::option::of(0f64..7.0), any::<bool>()),
            1..4,
        ),
        state in prop::sample::select(DriveState::ALL.to_vec()),
    ) {
        // Each stream closed, or at a rate from 1 to 10^7 IOPS (log-uniform), evenly spaced
        // or Poisson; depths kept to 64 so a case stays short.
        let streams = streams
            .into_iter()
            .map(|(w, rate, poisson)| {
                let w = Workload { iodepth: w.iodepth.min(64), ..w };
                let spacing = if poisson { Spacing::Poisson } else { Spacing::Linear };
                match rate {
                    Some(decades) => Stream::at_rate(&w, 10f64.powf(decades), spacing),
                    None => Stream::closed(&w),
                }
            })
            .collect();
        let spec = StreamsSpec {
            drive: preset.drive_with_dies(dies).unwrap(),
            streams,
            state,
            options: RunOptions { measured_ios: 1_000, ..RunOptions::default() },
        };
        let run = spec.check().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let r = Simulation::run(&run).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(r.measured_ios > 0 && r.finished);
        // Every planned request, and any that completed at the same instant as the last one
        // (a buffer released at once completes several writes together), or the reason why not.
        prop_assert!(r.measured_ios >= r.planned_ios || r.ended_early.is_some());
    }
}

#[test]
fn more_dies_never_lower_deep_queue_read_iops() {
    for p in presets::all() {
        let mut last = 0.0;
        for dies in [1, 2, 4, 8, 16, 32, 64, 128, 256] {
            let spec = RunSpec {
                drive: p.drive_with_dies(dies).unwrap(),
                workload: Workload {
                    rw: Rw::RandRead,
                    rwmixread: 100,
                    bs_bytes: 4096,
                    iodepth: 256,
                },
                state: DriveState::Steady,
                options: RunOptions {
                    measured_ios: 10_000,
                    ..RunOptions::default()
                },
            };
            let iops = Simulation::run(&spec.check().unwrap()).unwrap().iops;
            assert!(iops >= last * 0.98, "{} {dies} dies: {iops} < {last}", p.id);
            last = last.max(iops);
        }
    }
}
