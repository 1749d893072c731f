//! Every result checks itself before anyone sees it (`stats::check`): finite figures, time
//! above zero when requests completed, the planned requests completed or the reason they were
//! not, and Little's law within its stated allowance. Each test drives one kind of run to an
//! extreme and asserts the engine hands out a result, not an error, and that the result is
//! the one the extreme implies.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::Arc;

use parallelism_model::config::MAX_IODEPTH;
use parallelism_model::presets;
use parallelism_model::stats::{self, Unsound};
use parallelism_model::workload::trace::{Trace, TraceFormat, TraceRequest};
use parallelism_model::workload::{Arrival, Spacing, Stream, StreamsSpec};
use parallelism_model::{
    DriveSpec, DriveState, RunError, RunOptions, RunResult, RunSpec, Rw, Simulation, Workload,
};

/// What a test or its helper returns: a drive or a run the model refuses is an error.
type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

fn drive() -> TestResult<DriveSpec> {
    Ok(presets::lookup("e12")?.drive_with_dies(8)?)
}

fn job(rw: Rw, bs_bytes: u32, iodepth: u32) -> Workload {
    Workload {
        rw,
        rwmixread: 70,
        bs_bytes,
        iodepth,
    }
}

/// The run's result, or the check's own words.
fn run(streams: Vec<Stream>, state: DriveState, measured_ios: u64) -> TestResult<RunResult> {
    let spec = StreamsSpec {
        drive: drive()?,
        streams,
        state,
        options: RunOptions {
            measured_ios,
            ..RunOptions::default()
        },
    };
    Simulation::run(&spec.check()?).map_err(|e| e.to_string().into())
}

fn one_read_at(at_ns: u64, start_unit: u32) -> TraceRequest {
    TraceRequest {
        at_ns,
        start_unit,
        units: 1,
        write: false,
    }
}

#[test]
fn a_trace_of_one_request_is_one_request_in_the_system_for_its_latency() -> TestResult {
    for arrival in [
        Arrival::Closed { iodepth: 1 },
        Arrival::Timed {
            speed: 1.0,
            max_idle: None,
            iodepth: 32,
        },
    ] {
        let trace = Arc::new(Trace::from_requests(
            TraceFormat::Mqsim,
            vec![one_read_at(0, 7)],
        ));
        let r = run(vec![Stream::replay(trace, arrival)], DriveState::Fob, 100)?;
        assert_eq!((r.measured_ios, r.planned_ios), (1, 1));
        // One request alone: L = 1, and X W = (1 / W) W.
        assert!(
            (r.iops * r.latency.mean_us * 1e-6 - 1.0).abs() < 1e-6,
            "{r:?}"
        );
        assert!(r.measured_ns > 0 && r.busy_ns > 0);
    }
    Ok(())
}

#[test]
fn millions_of_requests_complete_every_one() -> TestResult {
    let r = run(
        vec![Stream::closed(&job(Rw::RandRead, 4096, 32))],
        DriveState::SeqFilled,
        2_000_000,
    )?;
    assert_eq!(r.measured_ios, 2_000_000);
    assert!(r.ended_early.is_none());
    Ok(())
}

#[test]
fn every_pattern_at_block_sizes_from_4_kib_to_1_mib_passes_the_check() -> TestResult {
    for rw in [
        Rw::RandRead,
        Rw::RandWrite,
        Rw::RandRw,
        Rw::Read,
        Rw::Write,
        Rw::Rw,
    ] {
        for shift in 12..=20 {
            let w = job(rw, 1 << shift, 4);
            let r = run(vec![Stream::closed(&w)], DriveState::Steady, 500)?;
            assert_eq!(r.measured_ios, r.planned_ios, "{rw} {}", 1 << shift);
        }
    }
    Ok(())
}

#[test]
fn queue_depths_from_1_to_the_most_pass_the_check() -> TestResult {
    let mut depth = 1;
    while depth <= MAX_IODEPTH {
        for rw in [Rw::RandRead, Rw::RandRw] {
            let r = run(
                vec![Stream::closed(&job(rw, 4096, depth))],
                DriveState::SeqFilled,
                500,
            )?;
            // A closed loop holds its depth exactly.
            assert_eq!(r.mean_in_system, f64::from(depth), "{rw} at {depth}");
        }
        // Every depth to 32, then every 8th, then every 64th: each regime of the drive.
        depth += match depth {
            0..32 => 1,
            32..256 => 8,
            _ => 64,
        };
    }
    Ok(())
}

#[test]
fn rates_from_1_to_10_million_iops_pass_the_check() -> TestResult {
    // Each decade at 1, 2 and 5: far below the drive's rate, at its knee, and far past it.
    let rates = (0..7).flat_map(|d| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(d)));
    for iops in rates.chain([1e7]) {
        for spacing in [Spacing::Linear, Spacing::Poisson] {
            let w = job(Rw::RandRead, 4096, 32);
            let r = run(
                vec![Stream::at_rate(&w, iops, spacing)],
                DriveState::SeqFilled,
                2_000,
            )?;
            assert!(r.measured_ios > 0, "{iops} IOPS {spacing:?}");
            // Below the drive's rate the run achieves what was offered.
            if iops <= 20_000.0 {
                assert!(!r.saturated, "{iops}");
                assert!((r.iops / iops - 1.0).abs() < 0.15, "{iops}: {}", r.iops);
            }
            if iops >= 1e6 {
                assert!(r.saturated, "{iops}");
            }
        }
    }
    Ok(())
}

#[test]
fn several_jobs_at_once_pass_the_check() -> TestResult {
    // A reader at QD1 beside a writer at QD32, and a reader at a rate beside a closed writer.
    let reader = Stream::closed(&job(Rw::RandRead, 4096, 1));
    let writer = Stream::closed(&job(Rw::RandWrite, 131_072, 32));
    let r = run(vec![reader, writer.clone()], DriveState::Steady, 2_000)?;
    assert_eq!(r.streams.len(), 2);
    let paced = Stream::at_rate(&job(Rw::RandRead, 4096, 8), 5_000.0, Spacing::Poisson);
    let r = run(vec![paced, writer], DriveState::Steady, 2_000)?;
    assert_eq!(r.measured_ios, r.planned_ios);
    Ok(())
}

#[test]
fn a_result_that_breaks_a_rule_is_named_not_shown() -> TestResult {
    let r = RunSpec {
        drive: drive()?,
        workload: job(Rw::RandRead, 4096, 4),
        state: DriveState::Fob,
        options: RunOptions::default(),
    };
    let good = parallelism_model::run(r).unwrap();
    assert_eq!(stats::check(&good), Ok(()));
    let broken = |f: fn(&mut RunResult)| {
        let mut r = good.clone();
        f(&mut r);
        stats::check(&r).unwrap_err()
    };
    assert!(matches!(
        broken(|r| r.iops = f64::NAN),
        Unsound::NotFinite { ref what, .. } if what == "IOPS"
    ));
    assert!(matches!(
        broken(|r| r.utilisation.dies[3] = 1.5),
        Unsound::NotAShare { ref what, .. } if what == "die 4's busy time"
    ));
    assert!(matches!(
        broken(|r| r.measured_ios = 0),
        Unsound::NothingMeasured { .. }
    ));
    assert!(matches!(broken(|r| r.busy_ns = 0), Unsound::NoTime { .. }));
    assert!(matches!(
        broken(|r| r.measured_ios -= 1),
        Unsound::Unfinished { .. }
    ));
    let law = broken(|r| r.mean_in_system *= 1.5);
    assert!(matches!(law, Unsound::LittlesLaw { .. }));
    assert!(
        law.to_string()
            .starts_with("the model's result failed its check: Little's law: "),
        "{law}"
    );
    // A run still in progress is checked for its figures only.
    assert_eq!(
        stats::check(&RunResult {
            finished: false,
            measured_ios: 0,
            ..good.clone()
        }),
        Ok(())
    );
    let e = RunError::Unsound(broken(|r| r.measured_ios = 0));
    assert_eq!(
        e.to_string(),
        format!(
            "the model's result failed its check: none of its {} requests completed",
            good.planned_ios
        )
    );
    Ok(())
}

#[test]
fn what_reviews_and_fills_derive_checks_its_figures_too() -> TestResult {
    use parallelism_model::over_time;
    use parallelism_model::review::{self, E12_SUITE};

    let d = drive()?;
    let fill = over_time::fill(&d).unwrap();
    assert_eq!(fill.check(), Ok(()));
    let mut broken = fill.clone();
    broken.points[3].mb_s = f64::INFINITY;
    assert!(matches!(
        broken.check(),
        Err(Unsound::NotFinite { ref what, .. }) if what == "the fill's point 4: MB/s"
    ));
    let options = RunOptions {
        seed: 1,
        measured_ios: 500,
        ..RunOptions::default()
    };
    let test = review::run(&d, &E12_SUITE[..1], options).unwrap().remove(0);
    assert_eq!(test.check(), Ok(()));
    let mut broken = test.clone();
    broken.points[0].slc_read_share = 1.5;
    assert!(matches!(broken.check(), Err(Unsound::NotAShare { .. })));
    broken.points[0].slc_read_share = 0.5;
    broken.score_mb_s = -1.0;
    let e = broken.check().unwrap_err();
    assert!(e.to_string().contains("score is -1"), "{e}");
    Ok(())
}

#[test]
fn a_closed_stream_beside_one_at_a_rate_keeps_the_drive_busy_the_whole_window() {
    // The case proptest shrank a failure to: a closed 60/40 mix at QD2 beside 64 KiB reads at
    // 1 IOPS, on one die. The busy time counted only the open stream's requests, so the run
    // said 0 ns busy of 87 ms while the closed stream kept the drive working throughout.
    let mix = Workload {
        rwmixread: 60,
        ..job(Rw::RandRw, 4096, 2)
    };
    let paced = job(Rw::RandRead, 65_536, 1);
    let spec = StreamsSpec {
        drive: presets::find("e12").unwrap().drive_with_dies(1).unwrap(),
        streams: vec![
            Stream::closed(&mix),
            Stream::at_rate(&paced, 1.0, Spacing::Linear),
        ],
        state: DriveState::Fob,
        options: RunOptions {
            measured_ios: 1_000,
            ..RunOptions::default()
        },
    };
    let r = Simulation::run(&spec.check().unwrap()).unwrap();
    assert_eq!(r.busy_ns, r.measured_ns);
}
