//! The drive over time (issue: SLC cache, folding, torture, TRIM), checked against the reviews
//! (the E12 and OCZ Octane reviews) and against the I/O-level model.
#![cfg(not(target_arch = "wasm32"))]

use parallelism_model::over_time::{self, FillPhase};
use parallelism_model::presets;
use parallelism_model::sliced::Sliced;
use parallelism_model::{DriveState, RunOptions, RunSpec, Rw, Simulation, Workload};

/// What a test or its helper returns: a drive or a run the model refuses is an error.
type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

fn drive(preset: &str, gb: f64) -> TestResult<parallelism_model::DriveSpec> {
    Ok(presets::lookup(preset)?.drive_for_capacity_gb(gb)?)
}

fn io_level_mb_s(
    preset: &str,
    gb: f64,
    rw: Rw,
    bs: u32,
    iodepth: u32,
    state: DriveState,
) -> TestResult<f64> {
    let spec = RunSpec {
        drive: drive(preset, gb)?,
        workload: Workload {
            rw,
            rwmixread: 0,
            bs_bytes: bs,
            iodepth,
        },
        state,
        options: RunOptions::default(),
    };
    Ok(Simulation::run(&spec.check()?)?.bw_mb_s)
}

#[test]
fn the_e12_fill_runs_through_cache_post_cache_and_folding_and_stays_above_1_gb_s_after_the_cache(
) -> TestResult {
    // Reference §3: the E12 960 GB drive bursts into its SLC cache and sustains above 1 GB/s.
    // The post-cache figure checks a fit: the E12's NAND tPROG was chosen to meet it.
    let r = over_time::fill(&drive("e12", 960.0)?).unwrap();
    let phases: Vec<FillPhase> = r.points.iter().map(|p| p.phase).collect();
    let first = |ph| {
        phases
            .iter()
            .position(|&p| p == ph)
            .unwrap_or_else(|| panic!("{ph:?} missing"))
    };
    assert!(first(FillPhase::Cache) < first(FillPhase::PostCache));
    assert!(first(FillPhase::PostCache) < first(FillPhase::Folding));
    let speed = |ph| r.points.iter().find(|p| p.phase == ph).unwrap().mb_s;
    assert!(speed(FillPhase::Cache) > speed(FillPhase::PostCache));
    assert!(speed(FillPhase::PostCache) > speed(FillPhase::Folding));
    assert!(
        speed(FillPhase::PostCache) > 1000.0,
        "{}",
        speed(FillPhase::PostCache)
    );
    assert!(r.slc_cache_gb > 10.0 && r.average_mb_s < speed(FillPhase::Cache));
    assert!((r.points.last().unwrap().gb_written - 960.0).abs() < 1.0);
    Ok(())
}

#[test]
fn the_e18dc_fill_runs_at_the_io_models_sustained_sequential_write() -> TestResult {
    // Reference §1: 368 MB/s at 480 GB, 1.6 GB/s at 1,920 GB, with no cache in front.
    for (gb, measured) in [(480.0, 368.1), (1920.0, 1600.8)] {
        let r = over_time::fill(&drive("e18dc", gb)?).unwrap();
        assert_eq!(r.slc_cache_gb, 0.0);
        assert!(r.points.iter().all(|p| p.phase == FillPhase::PostCache));
        assert!(
            (r.average_mb_s / measured - 1.0).abs() < 0.10,
            "{gb} GB: {}",
            r.average_mb_s
        );
        let io = io_level_mb_s(
            "e18dc",
            gb,
            Rw::Write,
            128 * 1024,
            32,
            DriveState::SeqFilled,
        )?;
        assert!(
            (r.average_mb_s / io - 1.0).abs() < 0.05,
            "{gb} GB: {} vs {io}",
            r.average_mb_s
        );
    }
    Ok(())
}

#[test]
fn idle_time_lets_the_cache_recover_and_no_idle_leaves_it_full() -> TestResult {
    // Reference §3: sustained writes "bounce around" because the drive cannot finish folding
    // in the idle gaps; with enough idle every burst lands in the cache again.
    let d = drive("e12", 960.0)?;
    let none = over_time::bursts(&d, 32.0, 0.0, 6).unwrap();
    let some = over_time::bursts(&d, 32.0, 10.0, 6).unwrap();
    let plenty = over_time::bursts(&d, 32.0, 600.0, 6).unwrap();
    assert!(none[5].mb_s < some[5].mb_s && some[5].mb_s < plenty[5].mb_s);
    assert!(
        (plenty[5].mb_s / plenty[0].mb_s - 1.0).abs() < 0.01,
        "full recovery"
    );
    assert!(
        none[5].mb_s > 1000.0,
        "still above 1 GB/s once the cache is gone"
    );
    assert!(none
        .windows(2)
        .all(|w| w[1].cache_free_gb <= w[0].cache_free_gb));
    Ok(())
}

#[test]
fn the_octane_torture_ends_below_a_tenth_of_fresh_and_trim_restores_it() -> TestResult {
    // Reference §4: after 20 minutes of 4 KB random writes at QD32 on a full 128 GB Octane,
    // sequential writes fall below a tenth of fresh; TRIM of all LBAs restores them. The tenth
    // checks a fit: the Octane's spare efficiency was chosen to meet it.
    let r = over_time::torture(&drive("octane", 128.0)?, 20.0).unwrap();
    assert!(
        r.after_torture_mb_s < 0.10 * r.fresh_mb_s,
        "{} vs {}",
        r.after_torture_mb_s,
        r.fresh_mb_s
    );
    assert!((r.after_trim_mb_s / r.fresh_mb_s - 1.0).abs() < 0.10);
    // Reference §4: sequential writes on a full, unfragmented 128 GB model run about 160 MB/s.
    assert!(
        (r.fresh_mb_s / 160.0 - 1.0).abs() < 0.10,
        "{}",
        r.fresh_mb_s
    );
    let first = &r.series[0];
    let last = r.series.last().unwrap();
    assert!((last.minute - 20.0).abs() < 1e-9);
    assert!(last.write_amplification > 3.0 * first.write_amplification);
    assert!(last.mb_s < first.mb_s / 3.0);
    Ok(())
}

#[test]
fn the_torture_settles_at_the_io_models_steady_random_write_rate() -> TestResult {
    // Both grains share the dies and timings: at steady state they agree.
    let r = over_time::torture(&drive("e18dc", 480.0)?, 600.0).unwrap();
    let tail: Vec<f64> = r.series.iter().rev().take(10).map(|p| p.mb_s).collect();
    let coarse = tail.iter().sum::<f64>() / tail.len() as f64;
    let io = io_level_mb_s("e18dc", 480.0, Rw::RandWrite, 4096, 32, DriveState::Steady)?;
    assert!((coarse / io - 1.0).abs() < 0.10, "{coarse} vs {io}");
    Ok(())
}

#[test]
fn bad_drive_state_inputs_are_refused_with_a_reason() -> TestResult {
    let d = drive("e12", 960.0)?;
    for (gb, idle, n) in [
        (0.0, 1.0, 1),
        (f64::NAN, 1.0, 1),
        (5000.0, 1.0, 1),
        (1.0, -1.0, 1),
        (1.0, 1.0, 0),
    ] {
        let e = over_time::bursts(&d, gb, idle, n).unwrap_err().to_string();
        assert!(e.contains("out of range"), "{e}");
    }
    assert!(over_time::torture(&d, f64::INFINITY).is_err());
    assert!(over_time::torture(&d, 0.0).is_err());
    Ok(())
}

#[test]
fn interpolated_rates_match_the_engine_between_grid_points() -> TestResult {
    // Rates at write amplifications between the grid points come from interpolation; the engine
    // run at that exact amplification must agree.
    for (preset, gb) in [("e18dc", 480.0), ("e18dc", 1920.0), ("octane", 128.0)] {
        let d = drive(preset, gb)?;
        let mut rates = over_time::Rates::new(&d);
        for wa in [1.25, 5.0, 10.0] {
            let interpolated = rates.write_mb_s(Rw::RandWrite, 4096, 32, wa, false);
            let spec = RunSpec {
                drive: d.clone(),
                workload: Workload {
                    rw: Rw::RandWrite,
                    rwmixread: 0,
                    bs_bytes: 4096,
                    iodepth: 32,
                },
                state: DriveState::Fob,
                options: RunOptions {
                    seed: 1,
                    measured_ios: 4_000,
                    ..RunOptions::default()
                },
            };
            let run = spec.check().unwrap().with_write_amplification(wa).unwrap();
            let direct = Simulation::run(&run).unwrap().bw_mb_s;
            assert!(
                (interpolated / direct - 1.0).abs() < 0.04,
                "{preset} {gb} WA {wa}: {interpolated} vs {direct}"
            );
        }
    }
    Ok(())
}

/// Work units per slice in these tests: small enough that every stage is cut many times.
const TEST_BUDGET: usize = 2_000;

#[test]
fn the_sliced_torture_gives_exactly_the_one_shot_report() -> TestResult {
    for (preset, gb) in [("octane", 128.0), ("e12", 960.0)] {
        let d = drive(preset, gb)?;
        let one_shot = over_time::torture(&d, over_time::REVIEW_TORTURE_MINUTES).unwrap();
        let mut run = over_time::TortureRun::new(&d, over_time::REVIEW_TORTURE_MINUTES).unwrap();
        let mut slices = 0usize;
        let mut last_progress = 0.0;
        let sliced = loop {
            slices += 1;
            if let Some(r) = run.step(TEST_BUDGET).unwrap() {
                break r;
            }
            let p = run.progress();
            assert!(p >= last_progress && p < 1.0, "{preset}: progress {p}");
            last_progress = p;
        };
        assert!(slices > 100, "{preset}: only {slices} slices");
        assert_eq!(sliced, one_shot, "{preset} {gb} GB");
        assert_eq!(run.progress(), 1.0);
        assert_eq!(
            run.step(TEST_BUDGET),
            Ok(Some(one_shot)),
            "a finished run keeps its report"
        );
    }
    Ok(())
}

#[test]
fn sliced_cache_rates_give_exactly_the_one_shot_fill_and_bursts() -> TestResult {
    let d = drive("e12", 960.0)?;
    let mut run = over_time::CacheRatesRun::new(&d).unwrap();
    let mut slices = 0usize;
    let rates = loop {
        slices += 1;
        if let Some(r) = run.step(TEST_BUDGET).unwrap() {
            break r;
        }
        assert!(run.progress() < 1.0);
    };
    assert!(slices > 10, "only {slices} slices");
    assert_eq!(rates, over_time::cache_rates(&d).unwrap());
    assert_eq!(
        over_time::fill_with(&d, &rates).unwrap(),
        over_time::fill(&d).unwrap()
    );
    for idle_s in [0.0, 10.0, 600.0] {
        assert_eq!(
            over_time::bursts_with(&d, &rates, 32.0, idle_s, 6).unwrap(),
            over_time::bursts(&d, 32.0, idle_s, 6).unwrap()
        );
    }
    assert!(over_time::bursts_with(&d, &rates, 32.0, -1.0, 6).is_err());
    Ok(())
}

#[test]
fn a_run_the_model_refuses_is_refused_before_any_slice() -> TestResult {
    let mut d = drive("e12", 960.0)?;
    d.controller.channels = 0;
    assert!(over_time::CacheRatesRun::new(&d).is_err());
    assert!(over_time::TortureRun::new(&d, 20.0).is_err());
    let d = drive("e12", 960.0)?;
    assert!(over_time::TortureRun::new(&d, f64::NAN).is_err());
    Ok(())
}

#[test]
fn the_queue_depth_sweep_and_the_fill_agree_on_the_slc_cache_rate() -> TestResult {
    // Issue 13: a fresh drive writes into its SLC cache in the I/O-level engine too, so the
    // sweep's 128 KiB QD32 point on a fresh E12 and the fill's cache phase are one rate.
    for (preset, gb) in [("e12", 960.0), ("e12c", 480.0), ("e8", 480.0)] {
        let fill = over_time::fill(&drive(preset, gb)?).unwrap();
        let cache = fill
            .points
            .iter()
            .find(|p| p.phase == FillPhase::Cache)
            .unwrap()
            .mb_s;
        let sweep = io_level_mb_s(
            preset,
            gb,
            Rw::Write,
            over_time::FILL_BS,
            over_time::FILL_IODEPTH,
            DriveState::Fob,
        )?;
        assert!(
            (sweep / cache - 1.0).abs() < 0.05,
            "{preset}: sweep {sweep} MB/s, fill {cache} MB/s"
        );
    }
    Ok(())
}

#[test]
fn a_run_that_outlasts_the_slc_cache_drops_to_the_native_rate() -> TestResult {
    // A fresh drive with a 1 GiB cache, written 4 GiB sequentially after the warm-up: what is
    // left of the cache goes at the cache's rate, the rest at the native cells' rate, so the
    // measured window takes the sum of the two times.
    let mut d = drive("e12", 960.0)?;
    let cache_bytes = 1u64 << 30;
    d.controller.slc_cache.static_bytes = cache_bytes;
    d.controller.slc_cache.dynamic_share = 0.0;
    let bs = u64::from(over_time::FILL_BS);
    let spec = RunSpec {
        drive: d,
        workload: Workload {
            rw: Rw::Write,
            rwmixread: 0,
            bs_bytes: over_time::FILL_BS,
            iodepth: over_time::FILL_IODEPTH,
        },
        state: DriveState::Fob,
        options: RunOptions {
            seed: 1,
            measured_ios: (4 << 30) / bs,
            ..RunOptions::default()
        },
    };
    let long = Simulation::run(&spec.check().unwrap()).unwrap();
    let slc = io_level_mb_s(
        "e12",
        960.0,
        Rw::Write,
        over_time::FILL_BS,
        32,
        DriveState::Fob,
    )?;
    let native = io_level_mb_s(
        "e12",
        960.0,
        Rw::Write,
        over_time::FILL_BS,
        32,
        DriveState::SeqFilled,
    )?;
    assert!(slc > 1.5 * native, "cache {slc} MB/s, native {native} MB/s");
    // The engine's warm-up (2,000 I/Os here) writes into the cache first.
    let warmup_bytes = 2_000 * bs;
    let measured_mb = long.measured_ios as f64 * bs as f64 / 1e6;
    let cached_mb = (cache_bytes - warmup_bytes) as f64 / 1e6;
    let expected = measured_mb / (cached_mb / slc + (measured_mb - cached_mb) / native);
    assert!(
        (long.bw_mb_s / expected - 1.0).abs() < 0.03,
        "{} MB/s, expected {expected} (cache {slc}, native {native})",
        long.bw_mb_s
    );
    Ok(())
}
