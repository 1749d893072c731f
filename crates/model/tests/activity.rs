//! The engine's activity snapshot, stepped one event at a time as teaching mode does: what it
//! shows must match what the model is known to do.
#![cfg(not(target_arch = "wasm32"))]

use parallelism_model::activity::DieState;
use parallelism_model::config::{DriveState, RunOptions, RunSpec, Rw, Workload};
use parallelism_model::presets;
use parallelism_model::Simulation;

/// Events stepped through per test: many thousands of requests.
const EVENTS: u64 = 60_000;
/// Events skipped before counting, so the closed loop has filled.
const SETTLE_EVENTS: u64 = 2_000;

/// What a test or its helper returns: a failure to set a run up is an error, not a panic.
type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

fn sim(dies: u32, iodepth: u32, rw: Rw, state: DriveState) -> TestResult<Simulation> {
    let preset = presets::lookup("e18dc")?;
    let spec = RunSpec {
        drive: preset.drive_with_dies(dies)?,
        workload: Workload {
            rw,
            rwmixread: 100,
            bs_bytes: 4096,
            iodepth,
        },
        state,
        options: RunOptions {
            measured_ios: 1_000_000,
            ..RunOptions::default()
        },
    };
    let run = spec.check().map_err(|e| format!("valid run: {e}"))?;
    Ok(Simulation::new(&run))
}

#[test]
fn at_qd1_on_32_dies_at_most_one_die_is_ever_busy() -> TestResult {
    let mut s = sim(32, 1, Rw::RandRead, DriveState::Fob)?;
    let mut seen_busy = 0;
    for _ in 0..EVENTS {
        s.step(1);
        let a = s.activity();
        assert_eq!(a.dies.len(), 32);
        assert!(
            a.busy_dies() <= 1,
            "at {:?}: {} dies busy",
            a.now,
            a.busy_dies()
        );
        assert!(a.queued_on_dies() <= 1);
        seen_busy += a.busy_dies();
    }
    assert!(seen_busy > 0, "the one request does reach a die");
    Ok(())
}

#[test]
fn at_qd256_on_8_dies_every_die_is_busy_most_of_the_time() -> TestResult {
    let mut s = sim(8, 256, Rw::RandRead, DriveState::Fob)?;
    s.step(SETTLE_EVENTS);
    let mut all_busy = 0;
    for _ in 0..EVENTS {
        s.step(1);
        let a = s.activity();
        if a.busy_dies() == 8 {
            all_busy += 1;
        }
        assert!(a.dies_in(DieState::Programming) == 0, "reads only");
    }
    let share = all_busy as f64 / EVENTS as f64;
    assert!(share > 0.8, "all 8 dies busy only {share:.2} of the time");
    Ok(())
}

#[test]
fn each_step_processes_one_event_and_time_never_runs_backwards() -> TestResult {
    let mut s = sim(16, 32, Rw::RandWrite, DriveState::Steady)?;
    let mut last = s.now();
    let mut states = std::collections::HashSet::new();
    for i in 1..=EVENTS {
        let next = s.next_event_at().expect("a closed loop always has work");
        assert!(next >= last);
        s.step(1);
        assert_eq!(s.events(), i);
        assert_eq!(s.now(), next, "the clock moves to the event it processed");
        last = s.now();
        let a = s.activity();
        assert_eq!(a.events, i);
        assert_eq!(a.channels_busy.len(), 8);
        states.extend(a.dies.iter().map(|d| d.state));
    }
    // Erases are rare (one per block's worth of programs) and need not fall in the window.
    for st in [DieState::Programming, DieState::Collecting] {
        assert!(
            states.contains(&st),
            "random writes on a full drive show {st:?}"
        );
    }
    Ok(())
}

#[test]
fn a_snapshot_changes_nothing() -> TestResult {
    let mut a = sim(8, 4, Rw::RandRead, DriveState::Fob)?;
    let mut b = sim(8, 4, Rw::RandRead, DriveState::Fob)?;
    for _ in 0..5_000 {
        a.step(1);
        let _ = a.activity();
    }
    b.step(5_000);
    assert_eq!(a.activity(), b.activity());
    assert_eq!(a.result().unwrap(), b.result().unwrap());
    Ok(())
}
