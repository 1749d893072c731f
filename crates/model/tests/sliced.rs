//! Every computation the model does in slices keeps the promise of [`Sliced`]: stepped with a
//! small budget it gives exactly what it gives in one go, its progress only rises and reaches 1
//! when it is done, and stepping it once more gives the same output again.

use std::fmt::Debug;

use parallelism_model::ftl::SteadyWa;
use parallelism_model::over_time::CacheRatesRun;
use parallelism_model::prepare::Preparation;
use parallelism_model::review::{ReviewRun, E12_SUITE};
use parallelism_model::sliced::Sliced;
use parallelism_model::{presets, DriveState, RunOptions, RunSpec, Rw, Workload};

/// What a test or its helper returns: a step that fails is an error, not a panic.
type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

fn keeps_the_promise<S>(mut make: impl FnMut() -> S, budget: usize) -> TestResult
where
    S: Sliced,
    S::Output: PartialEq + Debug,
    S::Error: Debug,
{
    // In slices first: a one-shot run may leave a memo behind that makes the next one instant.
    let mut run = make();
    let mut slices = 0;
    let mut last = run.progress();
    assert!((0.0..1.0).contains(&last), "not done before a step: {last}");
    let failed = |e: S::Error| format!("a step failed: {e:?}");
    let stepped = loop {
        slices += 1;
        if let Some(out) = run.step(budget).map_err(failed)? {
            break out;
        }
        let p = run.progress();
        assert!(p >= last && p < 1.0, "progress {last} then {p}");
        last = p;
    };
    assert!(slices > 1, "the budget cut the work into slices");
    assert_eq!(run.progress(), 1.0);
    assert_eq!(
        run.step(budget).map_err(failed)?.as_ref(),
        Some(&stepped),
        "done stays done"
    );
    assert_eq!(
        make().finish().map_err(failed)?,
        stepped,
        "slices end where one go ends"
    );
    Ok(())
}

#[test]
fn the_garbage_collection_model_in_slices() -> TestResult {
    keeps_the_promise(|| SteadyWa::new(0.173), 20_000)
}

#[test]
fn a_run_made_ready_in_slices() -> TestResult {
    // A spare area no preset has: the presets' amplifications are known before any run.
    let mut drive = presets::find("e18dc").unwrap().drive_with_dies(8).unwrap();
    drive.controller.spare_efficiency = 0.61;
    let spec = || RunSpec {
        drive: drive.clone(),
        workload: Workload {
            rw: Rw::RandWrite,
            rwmixread: 0,
            bs_bytes: 4096,
            iodepth: 32,
        },
        state: DriveState::Steady,
        options: RunOptions::default(),
    };
    keeps_the_promise(|| Preparation::new(spec()).unwrap(), 20_000)
}

#[test]
fn the_drive_over_time_rates_in_slices() -> TestResult {
    let drive = presets::find("e12")
        .unwrap()
        .drive_for_capacity_gb(960.0)
        .unwrap();
    keeps_the_promise(|| CacheRatesRun::new(&drive).unwrap(), 50_000)
}

#[test]
fn the_reviews_tests_in_slices() -> TestResult {
    let drive = presets::find("e12")
        .unwrap()
        .drive_for_capacity_gb(960.0)
        .unwrap();
    let options = RunOptions {
        seed: 1,
        measured_ios: 1_000,
        ..RunOptions::default()
    };
    keeps_the_promise(
        || ReviewRun::new(&drive, &E12_SUITE[..2], options).unwrap(),
        1,
    )
}
