//! The model's behaviour, as the reference data and the reviews describe real drives.
//! Each test names the fact it checks; figures come from the publications cited in
//! `crates/model/src/presets.rs` (the E18DC at three capacities, the E12 and Octane reviews).
#![cfg(not(target_arch = "wasm32"))]

use parallelism_model::calibration;
use parallelism_model::presets;
use parallelism_model::time::{Nanos, SimTime};
use parallelism_model::{
    CheckedRun, DriveState, RunOptions, RunResult, RunSpec, Rw, Simulation, Workload,
};

const KIB: u32 = 1024;

/// What a test or its helper returns: a drive or a run the model refuses is an error.
type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

fn run_with(
    preset: &str,
    dies: u32,
    rw: Rw,
    bs_bytes: u32,
    iodepth: u32,
    state: DriveState,
    options: RunOptions,
) -> TestResult<RunResult> {
    let drive = presets::lookup(preset)?.drive_with_dies(dies)?;
    let spec = RunSpec {
        drive,
        workload: Workload {
            rw,
            rwmixread: 70,
            bs_bytes,
            iodepth,
        },
        state,
        options,
    };
    let run = spec.check().map_err(|e| format!("valid run: {e}"))?;
    Ok(Simulation::run(&run)?)
}

fn run(
    preset: &str,
    dies: u32,
    rw: Rw,
    bs_bytes: u32,
    iodepth: u32,
    state: DriveState,
) -> TestResult<RunResult> {
    run_with(
        preset,
        dies,
        rw,
        bs_bytes,
        iodepth,
        state,
        RunOptions::default(),
    )
}

fn ratio(a: f64, b: f64) -> f64 {
    a / b
}

#[test]
fn qd1_reads_do_not_depend_on_die_count() -> TestResult {
    // Reference §1: 4 KiB random reads at QD1 are ~13.1k IOPS at 480 and 1,920 GB alike:
    // one read waits on one die, however many dies there are.
    let small = run("e18dc", 8, Rw::RandRead, 4 * KIB, 1, DriveState::Steady)?;
    for dies in [16, 32, 64] {
        let big = run("e18dc", dies, Rw::RandRead, 4 * KIB, 1, DriveState::Steady)?;
        assert!(
            (ratio(big.iops, small.iops) - 1.0).abs() < 0.01,
            "{dies} dies: {} vs {}",
            big.iops,
            small.iops
        );
    }
    assert_eq!(small.bottleneck.id(), "queue-depth");
    Ok(())
}

#[test]
fn deep_queue_reads_grow_with_dies_until_the_controller_stops_them() -> TestResult {
    // Reference §1: at QD256 the 1,920 GB drive reaches ~646k IOPS, well above 480 GB's 264k;
    // past that the controller's command budget, not the dies, is the limit.
    let runs: Vec<(u32, RunResult)> = [4, 8, 16, 32, 64, 128]
        .into_iter()
        .map(|d| {
            let r = run("e18dc", d, Rw::RandRead, 4 * KIB, 256, DriveState::Steady)?;
            Ok((d, r))
        })
        .collect::<TestResult<_>>()?;
    for w in runs.windows(2) {
        assert!(
            w[1].1.iops >= w[0].1.iops * 0.99,
            "{} dies slower than {}",
            w[1].0,
            w[0].0
        );
    }
    let (eight, thirty_two, sixty_four, max) = (&runs[1].1, &runs[3].1, &runs[4].1, &runs[5].1);
    assert!(
        eight.iops * 1.8 < thirty_two.iops,
        "32 dies should far outrun 8"
    );
    assert_eq!(eight.bottleneck.id(), "dies");
    assert_eq!(sixty_four.bottleneck.id(), "controller");
    assert_eq!(max.bottleneck.id(), "controller");
    assert!(
        (ratio(max.iops, sixty_four.iops) - 1.0).abs() < 0.02,
        "no gain past the controller limit"
    );
    Ok(())
}

#[test]
fn preconditioned_random_writes_are_nearly_flat_in_queue_depth_and_grow_with_dies() -> TestResult {
    // Reference §1: 480 GB 17.8k (QD1) vs 18.4k (QD256); 1,920 GB 48.3k vs 48.5k. Extra depth
    // turns only into waiting.
    for dies in [8, 32] {
        let qd1 = run("e18dc", dies, Rw::RandWrite, 4 * KIB, 1, DriveState::Steady)?;
        let qd256 = run(
            "e18dc",
            dies,
            Rw::RandWrite,
            4 * KIB,
            256,
            DriveState::Steady,
        )?;
        assert!(
            (ratio(qd256.iops, qd1.iops) - 1.0).abs() < 0.10,
            "{dies} dies: {} vs {}",
            qd1.iops,
            qd256.iops
        );
        assert!(
            qd256.latency.mean_us > 100.0 * qd1.latency.mean_us / 2.0,
            "depth turns into waiting"
        );
        assert!(qd1.write_amplification > 2.0);
    }
    let small = run("e18dc", 8, Rw::RandWrite, 4 * KIB, 32, DriveState::Steady)?;
    let big = run("e18dc", 32, Rw::RandWrite, 4 * KIB, 32, DriveState::Steady)?;
    assert!(
        big.iops > 2.0 * small.iops,
        "{} vs {}",
        big.iops,
        small.iops
    );
    Ok(())
}

#[test]
fn fresh_drives_write_at_random_far_faster_than_written_over_ones() -> TestResult {
    // Reference §4: garbage collection is what makes a written-over drive slow.
    let fob = run("e18dc", 8, Rw::RandWrite, 4 * KIB, 32, DriveState::Fob)?;
    let steady = run("e18dc", 8, Rw::RandWrite, 4 * KIB, 32, DriveState::Steady)?;
    assert_eq!(fob.write_amplification, 1.0);
    assert!(
        fob.iops > 3.0 * steady.iops,
        "{} vs {}",
        fob.iops,
        steady.iops
    );
    Ok(())
}

#[test]
fn sequential_writes_grow_with_dies() -> TestResult {
    // Reference §1: 128 KiB sequential writes 368 MB/s at 480 GB, 1.6 GB/s at 1,920 GB.
    let mbs: Vec<f64> = [8, 16, 32]
        .into_iter()
        .map(|d| Ok(run("e18dc", d, Rw::Write, 128 * KIB, 32, DriveState::SeqFilled)?.bw_mb_s))
        .collect::<TestResult<_>>()?;
    assert!(mbs[1] > 1.9 * mbs[0] && mbs[2] > 1.9 * mbs[1], "{mbs:?}");
    Ok(())
}

#[test]
fn sequential_reads_stop_at_the_host_link() -> TestResult {
    // Reference §1/§5: 7.1 GB/s at 1,920 GB, ~90% of PCIe 4.0 x4's 7.88 GB/s.
    let r = run("e18dc", 32, Rw::Read, 128 * KIB, 128, DriveState::SeqFilled)?;
    assert_eq!(r.bottleneck.id(), "host-link");
    let more = run("e18dc", 64, Rw::Read, 128 * KIB, 128, DriveState::SeqFilled)?;
    assert!(
        (ratio(more.bw_mb_s, r.bw_mb_s) - 1.0).abs() < 0.01,
        "more dies add nothing at the link"
    );
    Ok(())
}

/// A host path that serves one I/O at a time (one core submitting, one interrupt handler) caps
/// the host at one I/O per its time however many dies wait: a Samsung PM883 behind an HBA
/// (fio corpus, issue 24) stops at 45.4k IOPS from QD16 on while its latency grows with the
/// depth. At QD64 a 20 µs path gives 50k IOPS and, by Little's law, 64 x 20 µs in the system;
/// at QD1 it only adds its 20 µs in series.
#[test]
fn a_host_path_of_20_us_caps_deep_reads_at_50k_iops() {
    let with_path = |iodepth: u32, path: Nanos| {
        let mut drive = presets::find("e18dc").unwrap().drive_with_dies(32).unwrap();
        drive.controller.host_path = path;
        let spec = RunSpec {
            drive,
            workload: Workload {
                rw: Rw::RandRead,
                rwmixread: 100,
                bs_bytes: 4 * KIB,
                iodepth,
            },
            state: DriveState::Fob,
            options: RunOptions::default(),
        };
        Simulation::run(&spec.check().unwrap()).unwrap()
    };
    let deep = with_path(64, Nanos(20_000));
    assert!((deep.iops / 50_000.0 - 1.0).abs() < 0.005, "{}", deep.iops);
    assert!(
        (deep.latency.mean_us / 1_280.0 - 1.0).abs() < 0.01,
        "{}",
        deep.latency.mean_us
    );
    let (one, free) = (with_path(1, Nanos(20_000)), with_path(1, Nanos::ZERO));
    assert!(
        (one.latency.mean_us - free.latency.mean_us - 20.0).abs() < 0.5,
        "{} against {}",
        one.latency.mean_us,
        free.latency.mean_us
    );
    assert!(with_path(64, Nanos::ZERO).iops > 4.0 * deep.iops);
}

#[test]
fn halving_the_octanes_dies_halves_random_writes_and_leaves_sequential_reads_unchanged(
) -> TestResult {
    // Reference §4: the 128 GB Octane (16 dies) has a quarter of the 512 GB model's dies;
    // random writes are cut in half, sequential reads do not change. The half checks a fit:
    // the Everest's write command cost was chosen to meet it.
    let w = |dies| -> TestResult<f64> {
        Ok(run("octane", dies, Rw::RandWrite, 4 * KIB, 3, DriveState::Fob)?.iops)
    };
    let r = |dies| -> TestResult<f64> {
        Ok(run("octane", dies, Rw::Read, 128 * KIB, 32, DriveState::Fob)?.bw_mb_s)
    };
    let half = ratio(w(8)?, w(16)?);
    assert!((0.45..0.55).contains(&half), "8 vs 16 dies: {half}");
    let quarter = ratio(w(16)?, w(64)?);
    assert!((0.4..0.6).contains(&quarter), "128 vs 512 GB: {quarter}");
    assert!((ratio(r(16)?, r(64)?) - 1.0).abs() < 0.02);
    assert!((ratio(r(8)?, r(16)?) - 1.0).abs() < 0.02);
    Ok(())
}

/// A small grid over every preset, pattern and depth.
fn grid() -> TestResult<Vec<(String, RunResult, u32, f64)>> {
    let mut out = Vec::new();
    for p in presets::all() {
        for &dies in &[1, 8, 32] {
            for rw in Rw::ALL {
                for &(bs, iodepth) in &[
                    (4 * KIB, 1),
                    (4 * KIB, 64),
                    (128 * KIB, 8),
                    (1024 * KIB, 40),
                ] {
                    let state = if rw.is_random() {
                        DriveState::Steady
                    } else {
                        DriveState::SeqFilled
                    };
                    // A window of N completions misplaces about QD of them at its edges, so
                    // Little's law is only as exact as QD / N: keep N >= 100 x QD.
                    let options = RunOptions {
                        measured_ios: 3_000.max(100 * u64::from(iodepth)),
                        ..RunOptions::default()
                    };
                    let r = run_with(&p.id, dies, rw, bs, iodepth, state, options)?;
                    let link = p.controller.link.raw_bytes_per_s() / 1e6;
                    out.push((
                        format!(
                            "{} {dies} dies {} bs={bs} qd={iodepth}",
                            p.id,
                            rw.fio_name()
                        ),
                        r,
                        iodepth,
                        link,
                    ));
                }
            }
        }
    }
    Ok(out)
}

#[test]
fn littles_law_and_the_link_limit_hold_in_every_run() -> TestResult {
    // Little's law: IOPS x mean latency = requests in flight (closed loop, no think time).
    // No run moves more data than its link carries (reads and writes share SATA's one pipe).
    for (name, r, iodepth, link_mb_s) in grid()? {
        let in_flight = r.iops * r.latency.mean_us / 1e6;
        assert!(
            (in_flight / f64::from(iodepth) - 1.0).abs() < 0.02,
            "{name}: {in_flight} in flight"
        );
        assert!(r.bw_mb_s <= link_mb_s * 2.0, "{name}: {} MB/s", r.bw_mb_s);
        for u in [
            r.utilisation.link_read,
            r.utilisation.link_write,
            r.utilisation.controller,
        ]
        .into_iter()
        .chain(r.utilisation.dies.iter().copied())
        .chain(r.utilisation.channels.iter().copied())
        {
            assert!((0.0..=1.0).contains(&u), "{name}: utilisation {u}");
        }
        for v in [
            r.iops,
            r.bw_mb_s,
            r.latency.mean_us,
            r.latency.p99_us,
            r.latency.max_us,
            r.write_amplification,
        ] {
            assert!(v.is_finite() && v > 0.0, "{name}: {v}");
        }
        assert!(
            r.latency.p50_us <= r.latency.p99_us && r.latency.p99_us <= r.latency.max_us,
            "{name}"
        );
    }
    Ok(())
}

#[test]
fn one_direction_of_a_full_duplex_link_never_exceeds_the_link() -> TestResult {
    for (preset, dies) in [("e18dc", 64), ("e12", 64), ("e8", 32), ("octane", 64)] {
        let p = presets::find(preset).unwrap();
        let cap = p.controller.link.raw_bytes_per_s() * p.controller.link_efficiency / 1e6;
        for rw in [Rw::Read, Rw::Write] {
            let r = run(preset, dies, rw, 1024 * KIB, 64, DriveState::SeqFilled)?;
            assert!(
                r.bw_mb_s <= cap * 1.001,
                "{preset} {}: {} > {cap}",
                rw.fio_name(),
                r.bw_mb_s
            );
        }
    }
    Ok(())
}

#[test]
fn the_same_seed_gives_the_same_result_and_another_seed_a_close_one() -> TestResult {
    let a = run("e18dc", 16, Rw::RandRw, 4 * KIB, 32, DriveState::Steady)?;
    let b = run("e18dc", 16, Rw::RandRw, 4 * KIB, 32, DriveState::Steady)?;
    assert_eq!(a, b);
    let other = RunOptions {
        seed: 99,
        ..RunOptions::default()
    };
    let c = run_with(
        "e18dc",
        16,
        Rw::RandRw,
        4 * KIB,
        32,
        DriveState::Steady,
        other,
    )?;
    assert_ne!(a.latency, c.latency);
    assert!((ratio(a.iops, c.iops) - 1.0).abs() < 0.05);
    Ok(())
}

#[test]
fn statistical_noise_is_reported_and_under_two_percent_for_pure_reads_and_writes() -> TestResult {
    // Batch means over the measured window; mixed loads interleave 2 ms programs with 60 µs
    // reads and are noisier, so for them the figure is reported rather than promised.
    for (rw, iodepth) in [
        (Rw::RandRead, 1),
        (Rw::RandRead, 32),
        (Rw::RandWrite, 32),
        (Rw::Write, 4),
    ] {
        let bs = if rw.is_random() { 4 * KIB } else { 128 * KIB };
        let r = run("e18dc", 16, rw, bs, iodepth, DriveState::Steady)?;
        assert!(
            r.iops_rel_noise < 0.02,
            "{} qd{iodepth}: ±{:.2}%",
            rw.fio_name(),
            r.iops_rel_noise * 100.0
        );
    }
    let mixed = run("e18dc", 16, Rw::RandRw, 4 * KIB, 8, DriveState::Steady)?;
    assert!(
        mixed.iops_rel_noise > 0.0 && mixed.iops_rel_noise < 0.05,
        "{}",
        mixed.iops_rel_noise
    );
    Ok(())
}

/// A run that uses every part of the engine: reads and writes, garbage collection, 8 dies.
fn mixed_steady_run() -> TestResult<CheckedRun> {
    let drive = presets::lookup("e18dc")?.drive_with_dies(8)?;
    let run = RunSpec {
        drive,
        workload: Workload {
            rw: Rw::RandRw,
            rwmixread: 70,
            bs_bytes: 4 * KIB,
            iodepth: 16,
        },
        state: DriveState::Steady,
        options: RunOptions::default(),
    }
    .check()?;
    Ok(run)
}

#[test]
fn a_run_in_slices_ends_exactly_where_a_run_in_one_go_ends() -> TestResult {
    let spec = mixed_steady_run()?;
    let whole = Simulation::run(&spec).unwrap();
    let mut sim = Simulation::new(&spec);
    let mut slices = 0;
    while !sim.step(1_000) {
        slices += 1;
        let provisional = sim.result().unwrap();
        assert!(!provisional.finished && provisional.iops.is_finite());
    }
    assert!(slices > 10);
    assert_eq!(sim.result().unwrap(), whole);
    Ok(())
}

#[test]
fn a_run_to_deadlines_runs_exactly_the_events_due_and_ends_where_a_run_in_one_go_ends() -> TestResult
{
    // The "advance a run in slices ... or until a deadline": every call stops before
    // the first event after its deadline, a budget stops it sooner, and the result is bit for
    // bit the one-shot run's.
    let spec = mixed_steady_run()?;
    let whole = Simulation::run(&spec).unwrap();
    let mut sim = Simulation::new(&spec);
    assert_eq!(
        sim.step_until(SimTime(u64::MAX), 5),
        5,
        "the budget stops it"
    );
    assert_eq!(sim.events(), 5);
    let mut deadline = sim.now();
    let mut calls = 0;
    while !sim.is_finished() {
        deadline = deadline + Nanos::from_us(100);
        let before = sim.events();
        let ran = sim.step_until(deadline, u64::MAX);
        assert_eq!(sim.events(), before + ran);
        assert!(sim.now() <= deadline);
        if !sim.is_finished() {
            assert!(sim.next_event_at().is_some_and(|at| at > deadline));
        }
        calls += 1;
    }
    assert!(calls > 100, "{calls} deadlines");
    assert_eq!(
        sim.step_until(SimTime(u64::MAX), 10),
        0,
        "a finished run does nothing"
    );
    assert_eq!(sim.result().unwrap(), whole);
    Ok(())
}

#[test]
fn the_e18dc_preset_is_what_lab_fit_finds_and_its_cross_validation_holds() {
    // Issue 13: one E18DC parameter set, only the die count changing with capacity, is what the
    // fit finds on the published cells (to the search's resolution): every cell within 8%, and
    // each cell predicted by a fit that never saw it within 12% (mean within 5%).
    use parallelism_model::fit::{self, FitOptions};
    let preset = presets::find("e18dc").unwrap();
    let report =
        fit::fit_with_loo(preset, calibration::e18dc().unwrap(), FitOptions::default()).unwrap();
    let off = report.disagreements(preset);
    assert!(
        off.is_empty(),
        "the preset is not the fit; set: {}",
        off.iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let table = calibration::table(RunOptions::default()).unwrap();
    assert_eq!(table.len(), 23);
    let bad: Vec<String> = table
        .iter()
        .filter(|r| r.error.abs() > 0.08)
        .map(|r| format!("{}: {:+.1}%", r.cell, r.error * 100.0))
        .collect();
    assert!(
        bad.is_empty(),
        "cells off by more than 8%:\n{}",
        bad.join("\n")
    );
    let loo = report.loo.expect("leave-one-out ran");
    assert!(loo.max_err <= 0.12, "leave-one-out worst {}", loo.max_err);
    assert!(loo.mean_err <= 0.05, "leave-one-out mean {}", loo.mean_err);
}

/// Direct arrival (engine docs) saves the controller-arrival event of every request and must
/// not change what a run measures: a watched run, with every arrival an event, gives the same
/// IOPS and latency within the model's noise, on a drive where the controller is the limit
/// and on one where it is not.
#[test]
fn a_watched_run_measures_what_a_direct_run_measures_with_an_event_fewer_per_request() {
    for (dies, iodepth) in [(32, 256), (8, 4)] {
        let drive = presets::find("e18dc")
            .unwrap()
            .drive_with_dies(dies)
            .unwrap();
        let spec = RunSpec {
            drive,
            workload: Workload {
                rw: Rw::RandRead,
                rwmixread: 100,
                bs_bytes: 4 * KIB,
                iodepth,
            },
            state: DriveState::SeqFilled,
            options: RunOptions::default(),
        }
        .check()
        .unwrap();
        let direct = Simulation::run(&spec).unwrap();
        let mut watched = Simulation::watched(&spec);
        while !watched.step(u64::MAX) {}
        let watched = watched.result().unwrap();
        let what = format!("{dies} dies at QD{iodepth}");
        let off = |a: f64, b: f64| (ratio(a, b) - 1.0).abs();
        assert!(off(direct.iops, watched.iops) < 0.02, "{what}");
        let mean = |r: &RunResult| r.latency.mean_us;
        assert!(off(mean(&direct), mean(&watched)) < 0.02, "{what}");
        assert_eq!(direct.bottleneck, watched.bottleneck, "{what}");
        // A single-page read is at most four events watched (arrival, dispatch, sense, page
        // out; a multi-plane sense serves two) and one fewer direct.
        let events = ratio(watched.events as f64, direct.events as f64);
        assert!(events > 4.0 / 3.0 - 0.01, "{what}: {events}");
    }
}

/// A mixed random workload on the E18DC with its firmware's program suspend, or with it off.
fn mixed_with_suspends(dies: u32, iodepth: u32, max_suspends: u32) -> TestResult<RunResult> {
    let mut drive = presets::lookup("e18dc")?.drive_with_dies(dies)?;
    drive.controller.max_suspends = max_suspends;
    let spec = RunSpec {
        drive,
        workload: Workload {
            rw: Rw::RandRw,
            rwmixread: 70,
            bs_bytes: 4 * KIB,
            iodepth,
        },
        state: DriveState::Steady,
        options: RunOptions::default(),
    };
    Ok(Simulation::run(&spec.check()?)?)
}

#[test]
fn a_read_suspends_a_program_instead_of_waiting_it_out() -> TestResult {
    // Program suspend (issue 13): a read that meets a die in the middle of a ~2 ms TLC program
    // waits the suspend latency, not the program. At a light mixed load (QD4 on 8 dies) the
    // typical read then never waits for a whole program, and without suspend it often does.
    let t_prog_us = presets::find("e18dc").unwrap().nand.t_prog.as_us();
    let with = mixed_with_suspends(8, 4, 4)?;
    let without = mixed_with_suspends(8, 4, 0)?;
    assert!(
        with.latency.p90_us < 0.25 * t_prog_us,
        "with suspend p90 {} µs",
        with.latency.p90_us
    );
    assert!(
        without.latency.p90_us > 0.5 * t_prog_us,
        "without suspend p90 {} µs",
        without.latency.p90_us
    );
    assert!(
        with.iops > without.iops,
        "{} vs {}",
        with.iops,
        without.iops
    );
    Ok(())
}

#[test]
fn a_deep_mixed_queue_reaches_the_controller_bound_without_doubling_the_depth() -> TestResult {
    // Issue 13: at 1,920 GB a 70/30 mix at QD256 must not need QD512 to reach its limit;
    // reads no longer queue behind programs that nothing interrupts.
    let qd256 = mixed_with_suspends(32, 256, 4)?;
    let qd512 = mixed_with_suspends(32, 512, 4)?;
    assert!(
        qd256.iops > 0.95 * qd512.iops,
        "QD256 {} vs QD512 {}",
        qd256.iops,
        qd512.iops
    );
    assert!(
        qd256.utilisation.controller > 0.95,
        "{:?}",
        qd256.bottleneck
    );
    Ok(())
}

#[test]
fn dies_with_reads_waiting_are_never_left_idle_at_depth() {
    // Each die has its own queue that its channel serves in any order, so at QD256 on 960 GB
    // (16 dies, 16 reads waiting on each) every die stays busy, as at 480 GB.
    let drive = presets::find("e18dc").unwrap().drive_with_dies(16).unwrap();
    let spec = RunSpec {
        drive,
        workload: Workload {
            rw: Rw::RandRead,
            rwmixread: 100,
            bs_bytes: 4 * KIB,
            iodepth: 256,
        },
        state: DriveState::Steady,
        options: RunOptions::default(),
    };
    let r = Simulation::run(&spec.check().unwrap()).unwrap();
    assert!(
        r.utilisation.dies_mean() > 0.97,
        "{}",
        r.utilisation.dies_mean()
    );
}

#[test]
fn fresh_consumer_drives_reach_their_spec_sheet_peaks_or_say_why_not() {
    // Issue 13: the E12, E12C, E8, E8T and E7 fresh-drive peaks (controllers.csv) within 15%,
    // or a named part of the model that makes the figure unreachable, and then truly so.
    use parallelism_model::spec_sheet::{self, SPEC_TOLERANCE};
    let mut checked = 0;
    for p in presets::all() {
        let Some(rows) = spec_sheet::compare(p, RunOptions::default()) else {
            continue;
        };
        for r in rows {
            let within = r.err.abs() <= SPEC_TOLERANCE;
            let what = format!(
                "{} {}: model {:.0} vs spec {:.0} {} ({:+.1}%)",
                p.id,
                r.figure,
                r.model,
                r.spec,
                r.figure.unit(),
                r.err * 100.0
            );
            assert!(within != r.beyond_model.is_some(), "{what}");
            checked += 1;
        }
    }
    assert_eq!(checked, 20, "five presets, four figures each");
}
