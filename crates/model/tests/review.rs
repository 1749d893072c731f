//! The E12 review's tests on the E12 preset at the review's 960 GB (*The Phison E12 Reference
//! Design Preview*, AnandTech, 2018): each test states the review's words and checks the shape
//! the model gives, and the suite's own bookkeeping (order, scores, cache carried between
//! phases) is checked on exact figures.
#![cfg(not(target_arch = "wasm32"))]

use parallelism_model::presets;
use parallelism_model::review::{self, check, Test, TestSpec, E12_SUITE, MIX_READ_PERCENTS};
use parallelism_model::sliced::Sliced;
use parallelism_model::{DriveSpec, RunOptions};

/// What a test or its helper returns: a drive or a run the model refuses is an error.
type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

fn e12_sample() -> TestResult<DriveSpec> {
    Ok(presets::lookup("e12")?.drive_for_capacity_gb(960.0)?)
}

fn options() -> RunOptions {
    RunOptions {
        seed: 1,
        measured_ios: 20_000,
        ..RunOptions::default()
    }
}

fn spec(test: Test) -> TestResult<&'static TestSpec> {
    let spec = E12_SUITE.iter().find(|t| t.test == test);
    Ok(spec.ok_or_else(|| format!("{test} is not in the E12 suite"))?)
}

fn run(test: Test) -> TestResult<review::TestResult> {
    Ok(review::run_test(&e12_sample()?, spec(test)?, options())?)
}

/// The test's curve on the E12 has the shape the review's words describe
/// (`review::check`, which `lab review` and the page print).
fn holds(test: Test) -> TestResult {
    let c = check::check(&run(test)?).ok_or("a test with words to check")?;
    assert!(c.holds, "{test}: {c}");
    Ok(())
}

#[test]
fn the_suite_runs_in_the_reviews_order_and_scores_as_it_does() -> TestResult {
    let results = review::run(&e12_sample()?, &E12_SUITE, options()).unwrap();
    let order: Vec<Test> = results.iter().map(|r| r.test).collect();
    assert_eq!(order, Test::ALL.to_vec());
    for r in &results {
        let mean = |ps: Vec<f64>| ps.iter().sum::<f64>() / ps.len() as f64;
        let expected = match spec(r.test)?.shape {
            // "score = average of QD1, QD2 and QD4"
            review::Shape::Sustained => mean(
                [1, 2, 4]
                    .iter()
                    .map(|&q| r.at_iodepth(q).unwrap().mb_s)
                    .collect(),
            ),
            _ => mean(r.points.iter().map(|p| p.mb_s).collect()),
        };
        assert_eq!(r.score_mb_s, expected, "{}", r.test);
        assert!(r.points.iter().all(|p| p.mb_s > 0.0), "{}", r.test);
    }
    let mixed = results
        .iter()
        .find(|r| r.test == Test::MixedRandom)
        .unwrap();
    let mixes: Vec<u8> = mixed.points.iter().map(|p| p.read_percent).collect();
    assert_eq!(mixes, MIX_READ_PERCENTS.to_vec(), "100% reads down to 0%");
    Ok(())
}

#[test]
fn a_test_wider_than_the_drive_is_refused_with_its_span() -> TestResult {
    let small = presets::find("e12").unwrap().drive_with_dies(2).unwrap();
    let err = review::run_test(&small, spec(Test::SustainedRandomRead)?, options()).unwrap_err();
    assert!(err.to_string().contains("test span (GB)"), "{err}");
    Ok(())
}

#[test]
fn test_names_parse_back() {
    for t in Test::ALL {
        assert_eq!(t.to_string().parse::<Test>(), Ok(t));
    }
    assert!("burst".parse::<Test>().is_err());
}

/// "Sustained sequential writes ... bounce around ... yet it stays above 1 GB/s", and are
/// "excellent ... at QD2": one 128 KiB write at a time waits out the host's round trip, two in
/// flight hide it while the cache still has room, and deeper depths meet a fuller cache.
#[test]
fn sustained_sequential_writes_stay_above_1_gb_s_and_peak_at_qd2() -> TestResult {
    holds(Test::SustainedSequentialWrite)
}

/// "Bounce around": the cache cannot be emptied in the idle gaps, so a later depth meets a
/// fuller cache and writes slower than an earlier one, although deeper queues never slow the
/// dies themselves.
#[test]
fn sustained_sequential_writes_slow_once_the_idle_gaps_cannot_empty_the_cache() -> TestResult {
    let r = run(Test::SustainedSequentialWrite)?;
    let first = r.points[0].mb_s;
    let slowest = r
        .points
        .iter()
        .map(|p| p.mb_s)
        .fold(f64::INFINITY, f64::min);
    assert!(
        slowest < 0.9 * first,
        "every depth as fast as QD1: {:?}",
        r.points
    );
    Ok(())
}

/// "Gains performance slowly as the test progresses from pure reads toward write-heavy
/// workloads."
#[test]
fn mixed_random_rises_toward_the_write_heavy_end() -> TestResult {
    holds(Test::MixedRandom)
}

/// "Barely loses any performance when writes are added to the mix": at most a tenth, down to
/// half reads.
#[test]
fn mixed_sequential_loses_at_most_a_tenth_as_writes_are_added_up_to_half() -> TestResult {
    holds(Test::MixedSequential)
}

/// "Random reads scale up nicely with queue depth."
#[test]
fn sustained_random_reads_scale_with_depth() -> TestResult {
    holds(Test::SustainedRandomRead)
}

/// "Mostly flat at low queue depths, and then jumps up toward saturation between QD4 and
/// QD16": the prefetch buffer serves QD1 to QD4 alike; deeper reads reach past it.
#[test]
fn sustained_sequential_reads_are_flat_to_qd4_then_jump_by_qd16() -> TestResult {
    holds(Test::SustainedSequentialRead)
}

/// A suite in steps (one phase a step, as the page's worker runs it) ends where a run in one go
/// ends, bit for bit, after one step per phase: 4 bursts, 4 sustained tests of 6 depths, 2 mixed
/// sweeps of 11 mixes.
#[test]
fn a_suite_in_steps_ends_where_a_run_in_one_go_ends() -> TestResult {
    let drive = e12_sample()?;
    let options = RunOptions {
        seed: 1,
        measured_ios: 2_000,
        ..RunOptions::default()
    };
    let whole = review::run(&drive, &E12_SUITE, options).unwrap();
    let mut run = review::ReviewRun::new(&drive, &E12_SUITE, options).unwrap();
    assert_eq!(run.phases(), (0, 4 + 4 * 6 + 2 * 11));
    let mut steps = 0;
    let stepped = loop {
        steps += 1;
        let before = run.phases().0;
        if let Some(r) = run.step(1).unwrap() {
            break r;
        }
        assert_eq!(run.phases().0, before + 1, "one phase a step");
    };
    assert_eq!(steps, 4 + 4 * 6 + 2 * 11);
    assert_eq!(stepped, whole);
    Ok(())
}
