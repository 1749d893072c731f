//! Power and energy, as the Phison E12 reference design review (AnandTech, 2018) lists the
//! E12's power states: PS0 8.9 W, PS1 2.3 W, PS2 1.8 W. A state's maximum is a budget the
//! firmware keeps by letting fewer dies work at once.
#![cfg(not(target_arch = "wasm32"))]

use parallelism_model::config::PowerLimit;
use parallelism_model::presets;
use parallelism_model::{DriveState, RunOptions, RunResult, RunSpec, Rw, Simulation, Workload};

const KIB: u32 = 1024;

/// What a test or its helper returns: a drive or a run the model refuses is an error.
type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

fn run(
    preset: &str,
    dies: u32,
    rw: Rw,
    bs_bytes: u32,
    iodepth: u32,
    limit: Option<PowerLimit>,
) -> TestResult<RunResult> {
    let spec = RunSpec {
        drive: presets::lookup(preset)?.drive_with_dies(dies)?,
        workload: Workload {
            rw,
            rwmixread: 70,
            bs_bytes,
            iodepth,
        },
        state: DriveState::Fob,
        options: RunOptions {
            seed: 11,
            measured_ios: 4_000,
            ..RunOptions::default()
        },
    };
    let mut run = spec.check().map_err(|e| format!("a valid run: {e}"))?;
    if let Some(limit) = limit {
        run = run
            .with_power_limit(limit)
            .map_err(|e| format!("a budget the drive can keep: {e}"))?;
    }
    Ok(Simulation::run(&run)?)
}

/// Workloads that keep the dies busy in different ways: senses, programs, a mix.
const WORKLOADS: [(Rw, u32); 4] = [
    (Rw::RandRead, 4 * KIB),
    (Rw::RandWrite, 4 * KIB),
    (Rw::RandRw, 4 * KIB),
    (Rw::Read, 128 * KIB),
];

#[test]
fn a_power_budget_is_never_exceeded_at_any_instant() -> TestResult {
    let limits = [
        PowerLimit::State(0),
        PowerLimit::State(1),
        PowerLimit::State(2),
        PowerLimit::Watts(2.0),
    ];
    for (preset, dies) in [("e12", 32), ("e12c", 16), ("e12", 256)] {
        for limit in limits {
            for (rw, bs) in WORKLOADS {
                for iodepth in [1, 8, 64, 256] {
                    let r = run(preset, dies, rw, bs, iodepth, Some(limit))?;
                    let budget = r.power.budget_w.expect("a budget");
                    let label =
                        format!("{preset} {dies} dies {limit} {} qd{iodepth}", rw.fio_name());
                    assert!(
                        r.power.peak_w <= budget + 1e-9,
                        "{label}: peak {}",
                        r.power.peak_w
                    );
                    assert!(r.power.average_w <= r.power.peak_w, "{label}");
                }
            }
        }
    }
    Ok(())
}

#[test]
fn the_e12s_ps0_maximum_of_8_9_w_is_never_exceeded_in_any_sweep() -> TestResult {
    for &gb in presets::find("e12").unwrap().capacities_gb.iter() {
        let dies = presets::find("e12")
            .unwrap()
            .dies_for_capacity_gb(f64::from(gb))
            .unwrap();
        for (rw, bs) in WORKLOADS {
            for iodepth in [1, 2, 4, 8, 16, 32, 64, 128, 256] {
                let r = run("e12", dies, rw, bs, iodepth, None)?;
                assert_eq!(r.power.budget_w, Some(8.9), "PS0 applies by default");
                assert!(
                    r.power.peak_w <= 8.9,
                    "{gb} GB {} qd{iodepth}: {}",
                    rw.fio_name(),
                    r.power.peak_w
                );
            }
        }
    }
    Ok(())
}

#[test]
fn a_lower_budget_never_raises_throughput() -> TestResult {
    for (rw, bs) in WORKLOADS {
        for iodepth in [1, 8, 64, 256] {
            let iops: Vec<f64> = (0..=2)
                .map(|ps| Ok(run("e12", 32, rw, bs, iodepth, Some(PowerLimit::State(ps)))?.iops))
                .collect::<TestResult<_>>()?;
            // Within the model's statistical noise (a few percent at these run lengths).
            assert!(
                iops[1] <= iops[0] * 1.03 && iops[2] <= iops[1] * 1.03,
                "{} qd{iodepth}: {iops:?}",
                rw.fio_name()
            );
        }
    }
    Ok(())
}

#[test]
fn at_qd1_a_lower_state_costs_little_and_at_depth_much() -> TestResult {
    // PS2 leaves room for three dies at once on the 960 GB E12 (32 dies).
    let at = |iodepth, ps| {
        run(
            "e12",
            32,
            Rw::RandRead,
            4 * KIB,
            iodepth,
            Some(PowerLimit::State(ps)),
        )
    };
    let (qd1_ps0, qd1_ps2) = (at(1, 0)?, at(1, 2)?);
    assert!(
        qd1_ps2.iops >= qd1_ps0.iops * 0.97,
        "QD1: {} against {}",
        qd1_ps2.iops,
        qd1_ps0.iops
    );
    let (deep_ps0, deep_ps2) = (at(256, 0)?, at(256, 2)?);
    assert!(
        deep_ps2.iops < deep_ps0.iops * 0.3,
        "QD256: {} against {}",
        deep_ps2.iops,
        deep_ps0.iops
    );
    assert_eq!(deep_ps2.bottleneck.id(), "power-budget");
    assert_ne!(qd1_ps2.bottleneck.id(), "power-budget");
    Ok(())
}

#[test]
fn power_rises_with_queue_depth_until_the_bottleneck_stops_it() -> TestResult {
    let watts = |iodepth| -> TestResult<f64> {
        Ok(run("e12", 32, Rw::RandRead, 4 * KIB, iodepth, None)?
            .power
            .average_w)
    };
    let w: Vec<f64> = [1, 4, 16, 64, 256, 512]
        .into_iter()
        .map(watts)
        .collect::<TestResult<_>>()?;
    assert!(w[0] < w[1] && w[1] < w[2] && w[2] < w[3], "{w:?}");
    // Past saturation the same work per second draws the same power.
    assert!((w[5] - w[4]).abs() < 0.03 * w[4], "{w:?}");
    // An idle-dominated QD1 draws little above the 0.5 W idle.
    assert!(w[0] < 1.0, "{w:?}");
    Ok(())
}
