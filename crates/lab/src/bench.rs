//! `lab bench`: how fast the model runs, as the page and the README quote it. A benchmark
//! whose run the model refuses or cannot finish ends the command with the model's error.

use std::time::Instant;

use parallelism_model::custom::{self, CustomDrive};
use parallelism_model::fio;
use parallelism_model::fit::FitOptions;
use parallelism_model::review::{self, ReviewRun, E12_SUITE};
use parallelism_model::sliced::Sliced;
use parallelism_model::sliced_fit::SlicedFit;
use parallelism_model::sweep::{self, REVIEW_IODEPTHS};
use std::fmt::Write as _;
use std::sync::Arc;

use parallelism_model::rng::Rng;
use parallelism_model::workload::trace;
use parallelism_model::workload::{Arrival, Stream, StreamsSpec};
use parallelism_model::{ftl, over_time, presets, DriveState, RunOptions, Rw, Workload};
use parallelism_model::{DriveSpec, Simulation};

use crate::Fail;

/// Each figure is the median of this many runs, so one preempted run does not move it.
const REPEATS: usize = 7;
const FILL_BENCH_DIES: u32 = 64;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The median of `REPEATS` samples; the first that fails ends it.
fn median_of<E>(mut sample: impl FnMut() -> Result<f64, E>) -> Result<f64, E> {
    let v = (0..REPEATS).map(|_| sample()).collect::<Result<_, E>>()?;
    Ok(median(v))
}

/// Median wall time of `work`, in milliseconds.
fn median_ms(mut work: impl FnMut()) -> f64 {
    median(
        (0..REPEATS)
            .map(|_| {
                let t = Instant::now();
                work();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    )
}

fn round2(ms: f64) -> f64 {
    (ms * 100.0).round() / 100.0
}

pub fn run() -> Result<String, Fail> {
    let drive = presets::lookup("e18dc")?.drive_with_dies(32)?;
    let options = RunOptions {
        measured_ios: 200_000,
        ..RunOptions::default()
    };
    let qd32 = Workload {
        rw: Rw::RandRead,
        rwmixread: 100,
        bs_bytes: 4096,
        iodepth: 32,
    };
    let run = sweep::spec(&drive, qd32, DriveState::SeqFilled, options).check()?;
    let rate = median_of(|| {
        let t = Instant::now();
        let r = parallelism_model::Simulation::run(&run)?;
        let ios = r.measured_ios as f64 + 2_000.0;
        Ok::<_, Fail>(ios / t.elapsed().as_secs_f64())
    })?;
    let sweep_ms = median_ms(|| {
        let _ = sweep::over_queue_depth(
            &drive,
            qd32,
            DriveState::SeqFilled,
            RunOptions::default(),
            None,
            &REVIEW_IODEPTHS,
        );
    });
    let steady_ms = median_ms(|| {
        let _ = ftl::simulate_steady_wa_uncached(drive.effective_spare_ratio());
    });
    // The largest drive the presets build: 64 dies of 256 Gbit behind the E12 (1,920 GB).
    let big = presets::lookup("e12")?.drive_with_dies(FILL_BENCH_DIES)?;
    let fill_ms = median_ms(|| {
        let _ = over_time::fill(&big);
    });
    let out = serde_json::json!({
        "sim_ios_per_s": rate.round(),
        "qd_sweep_9_points_ms": round2(sweep_ms),
        "steady_state_ms": round2(steady_ms),
        "whole_drive_fill_ms": round2(fill_ms),
        "whole_drive_fill_gb": big.user_bytes() / 1e9,
        "drive_time_octane_128gb": drive_time()?,
        "replay": replay(&drive)?,
        "fit_your_drive": fit_your_drive()?,
        "review_e12": review_suite()?,
        "note": "medians of 7 runs; 4 KiB random reads, E18DC 32 dies; sweep at 20000 measured I/Os per point; fill: E12 with 64 dies, from empty; drive_time: the page's sliced runs, one step per budget; replay: a generated trace of 1M 4 KiB random reads (MQSim text), parsed, then replayed on the same drive at QD32 and at its own times (10 µs apart); review_e12: the E12 review's ten tests on the E12 at 960 GB (the page's and lab review's runs), in one go and its slowest phase (the page's worker stops between phases); fit_your_drive: the page's fit (4000 measured I/Os, one thread) of fio output the model wrote for e12_d16_r50000_c2000 (4 KiB random reads at QD 1, 8, 64; 128 KiB reads at QD 16), 480 GB given, one step at a time",
    });
    crate::json(&out)
}

/// The E12 review's suite on its 960 GB sample: the whole suite, and the longest single phase
/// (one depth or one mix, the step the page's worker takes before it looks for new messages).
fn review_suite() -> Result<serde_json::Value, Fail> {
    let drive = presets::lookup("e12")?.drive_for_capacity_gb(960.0)?;
    let options = RunOptions::default();
    let total_ms = median_ms(|| {
        let _ = review::run(&drive, &E12_SUITE, options);
    });
    let slowest_phase_ms = median_of(|| {
        let mut run = ReviewRun::new(&drive, &E12_SUITE, options)?;
        let mut slowest: f64 = 0.0;
        loop {
            let t = Instant::now();
            let done = run.step(1)?;
            slowest = slowest.max(t.elapsed().as_secs_f64() * 1e3);
            if done.is_some() {
                return Ok::<_, Fail>(slowest);
            }
        }
    })?;
    Ok(serde_json::json!({
        "phases": ReviewRun::new(&drive, &E12_SUITE, options)?.phases().1,
        "total_ms": round2(total_ms),
        "slowest_phase_ms": round2(slowest_phase_ms),
    }))
}

/// Requests in the replay benchmark's generated trace.
const REPLAY_REQUESTS: u64 = 1_000_000;

/// Trace replay: a generated trace of a million 4 KiB random reads read from MQSim text and
/// replayed on `drive` as fast as it allows at QD32 (the closed-loop rate's twin) and at its
/// own times (requests 10 µs apart, an open loop the drive keeps up with).
fn replay(drive: &DriveSpec) -> Result<serde_json::Value, Fail> {
    let units = drive.user_bytes() as u64 / 4096;
    let mut rng = Rng::new(5);
    let mut text = String::with_capacity(REPLAY_REQUESTS as usize * 32);
    for i in 0..REPLAY_REQUESTS {
        let sector = rng.below(units) * 8;
        let _ = writeln!(text, "{} 1 {sector} 8 1", i * 10_000);
    }
    let parse_s = median_of(|| {
        let t = Instant::now();
        let _ = trace::read(text.as_bytes(), None)?;
        Ok::<_, Fail>(t.elapsed().as_secs_f64())
    })?;
    let trace = Arc::new(trace::read(text.as_bytes(), None)?);
    let rate = |arrival: Arrival| {
        let run = StreamsSpec {
            drive: drive.clone(),
            streams: vec![Stream::replay(Arc::clone(&trace), arrival)],
            state: DriveState::SeqFilled,
            options: RunOptions::default(),
        }
        .check()?;
        median_of(|| {
            let t = Instant::now();
            let r = Simulation::run(&run)?;
            Ok::<_, Fail>(r.measured_ios as f64 / t.elapsed().as_secs_f64())
        })
    };
    Ok(serde_json::json!({
        "requests": REPLAY_REQUESTS,
        "parse_requests_per_s": (REPLAY_REQUESTS as f64 / parse_s).round(),
        "closed_qd32_requests_per_s": rate(Arrival::Closed { iodepth: 32 })?.round(),
        "timed_requests_per_s": rate(Arrival::Timed { speed: 1.0, max_idle: None, iodepth: 32 })?.round(),
        "bytes_per_request": std::mem::size_of::<trace::TraceRequest>(),
    }))
}

/// The drive over time as the page runs it: steps of the page's work budget.
fn drive_time() -> Result<serde_json::Value, Fail> {
    let octane = presets::lookup("octane")?.drive_for_capacity_gb(128.0)?;
    let budget = over_time::WORK_UNITS_PER_STEP;
    let mut torture = over_time::TortureRun::new(&octane, over_time::REVIEW_TORTURE_MINUTES)?;
    let (torture_steps, torture_step_ms, torture_ms) =
        steps(&mut || torture.step(budget).map(|done| done.is_some()))?;
    let mut rates = over_time::CacheRatesRun::new(&octane)?;
    let (rates_steps, rates_step_ms, rates_ms) =
        steps(&mut || rates.step(budget).map(|done| done.is_some()))?;
    Ok(serde_json::json!({
        "work_units_per_step": budget,
        "torture_steps": torture_steps,
        "torture_p99_step_ms": (torture_step_ms * 1000.0).round() / 1000.0,
        "torture_total_ms": torture_ms.round(),
        "fill_rates_steps": rates_steps,
        "fill_rates_p99_step_ms": (rates_step_ms * 1000.0).round() / 1000.0,
        "fill_rates_total_ms": rates_ms.round(),
    }))
}

/// Steps until `step` says done: their count, the 99th percentile step (the longest is mostly
/// the machine's scheduler) and the total, in milliseconds; the first step that fails ends it.
fn steps<E>(step: &mut dyn FnMut() -> Result<bool, E>) -> Result<(usize, f64, f64), E> {
    let mut times_ms = Vec::new();
    let t = Instant::now();
    loop {
        let s = Instant::now();
        let done = step()?;
        times_ms.push(s.elapsed().as_secs_f64() * 1e3);
        if done {
            let total = t.elapsed().as_secs_f64() * 1e3;
            times_ms.sort_by(f64::total_cmp);
            let p99 = times_ms[(times_ms.len() - 1) * 99 / 100];
            return Ok((times_ms.len(), p99, total));
        }
    }
}

/// The page's fit of a drive, step by step as its slices run it: the steps, the 99th
/// percentile step, the total and the parameter points run.
fn fit_your_drive() -> Result<serde_json::Value, Fail> {
    let truth: CustomDrive = "e12_d16_r50000_c2000".parse()?;
    let options = FitOptions {
        run: RunOptions {
            measured_ios: 4_000,
            ..RunOptions::default()
        },
        threads: 1,
    };
    let mut cells = Vec::new();
    for (rw, bs_bytes, depths) in [
        (Rw::RandRead, 4096, &[1, 8, 64][..]),
        (Rw::Read, 131_072, &[16]),
    ] {
        let workload = Workload {
            rw,
            rwmixread: 100,
            bs_bytes,
            iodepth: 1,
        };
        let points = sweep::over_queue_depth(
            &truth.drive(),
            workload,
            DriveState::Fob,
            options.run,
            None,
            depths,
        )?;
        let jobs = fio::parse_output(&fio::output_json(&workload, &points))?.points;
        cells.extend(custom::cells_from_fio(&jobs, DriveState::Fob).cells);
    }
    let dies = Some(truth.dies());
    let evaluator = custom::evaluator(truth.base, &cells, options, dies)?;
    let mut fit = SlicedFit::new(evaluator, custom::try_fit);
    // The page's fit cannot fail (its error type has no values).
    let Ok((count, p99_ms, total_ms)) = steps(&mut || fit.step(1).map(|done| done.is_some()));
    Ok(serde_json::json!({
        "cells": cells.len(),
        "points": fit.fit_progress().points,
        "steps": count,
        "p99_step_ms": (p99_ms * 1000.0).round() / 1000.0,
        "total_ms": total_ms.round(),
        "worst_error": fit.report().map(|r| r.max_err),
    }))
}
