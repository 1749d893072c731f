//! Properties over the whole configuration space: random configurations (seeded, so a failure
//! names its case and replays exactly) across every preset, die count, queue depth, block size,
//! read share and drive state. Nothing may panic, every output is a finite number, and the
//! invariants every run must keep hold.
#![cfg(not(target_arch = "wasm32"))]

use parallelism_model::config::{MAX_DIES, MAX_IODEPTH};
use parallelism_model::presets;
use parallelism_model::rng::Rng;
use parallelism_model::stats::Utilisation;
use parallelism_model::{DriveState, RunOptions, RunSpec, Rw, Simulation, Workload};

const CASES: u64 = 150;

fn random_spec(rng: &mut Rng) -> RunSpec {
    let all = presets::all();
    let preset = &all[rng.below(all.len() as u64) as usize];
    // Log-uniform die counts and depths: the extremes matter as much as the middle.
    let dies = (1u32 << rng.below(9)).min(MAX_DIES) - rng.below(2) as u32;
    let iodepth = ((1u32 << rng.below(11)) - rng.below(2) as u32).clamp(1, MAX_IODEPTH);
    let bs_bytes = 4096 << rng.below(9);
    let rw = Rw::ALL[rng.below(6) as usize];
    let rwmixread = (rng.below(11) * 10) as u8;
    let state = DriveState::ALL[rng.below(3) as usize];
    RunSpec {
        drive: preset.drive_with_dies(dies.max(1)).unwrap(),
        workload: Workload {
            rw,
            rwmixread,
            bs_bytes,
            iodepth,
        },
        state,
        options: RunOptions {
            seed: rng.next_u64(),
            measured_ios: 100.max(40 * u64::from(iodepth)).min(5_000),
        },
    }
}

fn assert_busy_at_most_elapsed(u: &Utilisation, label: &str) {
    for x in [u.link_read, u.link_write, u.controller]
        .iter()
        .chain(&u.channels)
        .chain(&u.dies)
    {
        assert!((0.0..=1.0).contains(x), "{label}: utilisation {x}");
    }
}

#[test]
fn random_configurations_never_panic_and_keep_every_invariant() {
    let mut rng = Rng::new(2026);
    for case in 0..CASES {
        let spec = random_spec(&mut rng);
        let label = format!(
            "case {case}: {} {} dies {} bs={} qd={} mix={} {}",
            spec.drive.controller.name,
            spec.drive.dies,
            spec.workload.rw.fio_name(),
            spec.workload.bs_bytes,
            spec.workload.iodepth,
            spec.workload.rwmixread,
            spec.state.id()
        );
        let qd = f64::from(spec.workload.iodepth);
        let link_mb_s = spec.drive.controller.link.raw_bytes_per_s() / 1e6;
        let run = spec.check().unwrap_or_else(|e| panic!("{label}: {e}"));
        // Busy time is exact, never clamped: no resource is busy longer than the time that
        // passed, in a provisional result half way through as in the final one.
        let mut sim = Simulation::new(&run);
        sim.step(2_000);
        assert_busy_at_most_elapsed(&sim.result().unwrap().utilisation, &label);
        while !sim.step(u64::MAX) {}
        let r = sim.result().unwrap();
        assert_eq!(
            r,
            Simulation::run(&run).unwrap(),
            "{label}: a run in slices ends as one"
        );
        let numbers = [
            r.iops,
            r.bw_mb_s,
            r.latency.mean_us,
            r.latency.p50_us,
            r.latency.p99_us,
            r.latency.p999_us,
            r.latency.max_us,
            r.write_amplification,
            r.iops_rel_noise,
        ];
        assert!(
            numbers.iter().all(|v| v.is_finite() && *v >= 0.0),
            "{label}: {numbers:?}"
        );
        assert!(r.iops > 0.0 && r.finished, "{label}");
        // Little's law, to the error a finite window allows: requests straddling either edge
        // can span at most the longest latency, a fraction of the window. (Long runs, as in
        // tests/model.rs, bring this under 2%.)
        let in_flight = r.iops * r.latency.mean_us / 1e6;
        let edge = 2.0 * r.latency.max_us * 1e3 / r.measured_ns as f64;
        assert!(
            (in_flight / qd - 1.0).abs() < 0.02 + edge,
            "{label}: {in_flight} in flight"
        );
        // Both directions together never beat twice the link (once on half-duplex SATA).
        assert!(r.bw_mb_s <= 2.0 * link_mb_s, "{label}: {} MB/s", r.bw_mb_s);
        assert_busy_at_most_elapsed(&r.utilisation, &label);
        assert!(r.latency.p50_us <= r.latency.p99_us + 1e-9, "{label}");
        assert!(r.latency.p99_us <= r.latency.max_us + 1e-9, "{label}");
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
