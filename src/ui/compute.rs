//! Which model runs the page needs for a state: the [`plan`], most important first, made of
//! [`RunKey`]s. The runs themselves are computed off the main thread by the page's worker pool
//! ([`super::pool`]); a key, a point and the engine that computes them live in the
//! `parallelism-work` crate, which the page and its workers share.
//!
//! What always holds: a key is built from a state only here ([`drive_key`], [`run_key`],
//! [`current_key`]), so
//! equal runs get equal keys and the pool's cache finds them; nothing here touches the browser
//! or the engine, so all of it is tested natively.

use std::collections::HashSet;

use crate::model::config::Rw;
use crate::model::presets::PresetKey;
use crate::model::sweep::{MIX_STEPS, REVIEW_QDS};

pub use parallelism_work::{
    DriveKey, Fidelity, Outcome, Point, Progress, RunKey, ESTIMATE_IOS, SEED,
};

use super::state::{DriveChoice, DriveSetup, LabState, View};

/// The drive the controls set.
pub fn drive_key(drive: &DriveSetup) -> DriveKey {
    DriveKey {
        preset: PresetKey(drive.preset()),
        drive: drive.choice(),
    }
}

/// The run of `drive` with the state's workload, at `qd` and `read_pct`.
pub fn run_key(state: &LabState, drive: DriveChoice, qd: u32, read_pct: u8) -> RunKey {
    let rw = Rw::from_parts(state.workload.random(), read_pct);
    RunKey {
        preset: PresetKey(state.drive.preset()),
        drive,
        rw,
        read_pct: rw.fixed_read_percent().unwrap_or(read_pct),
        bs_bytes: state.workload.bs_bytes(),
        qd,
        state: state.workload.drive_state(),
        power_state: state.drive.power_state(),
    }
}

/// The point the readout shows.
pub fn current_key(state: &LabState) -> RunKey {
    run_key(
        state,
        state.drive.choice(),
        state.workload.qd(),
        state.workload.read_pct(),
    )
}

/// The queue depths of a sweep: the reviewers' 1..256, extended by doublings to cover `qd`,
/// plus `qd` itself when it is between them (so the current point lies on its curve).
pub fn sweep_qds(qd: u32) -> Vec<u32> {
    let mut qds = REVIEW_QDS.to_vec();
    let mut last = *qds.last().unwrap_or(&1);
    while last < qd {
        last *= 2;
        qds.push(last);
    }
    if !qds.contains(&qd) {
        qds.push(qd);
        qds.sort_unstable();
    }
    qds
}

/// One drive's runs over [`sweep_qds`] at the state's read share.
pub fn qd_sweep(state: &LabState, drive: DriveChoice) -> Vec<RunKey> {
    sweep_qds(state.workload.qd())
        .into_iter()
        .map(|qd| run_key(state, drive, qd, state.workload.read_pct()))
        .collect()
}

/// One drive's runs over the read shares of the reviewers' mixed sweep at the state's depth.
pub fn mix_sweep(state: &LabState, drive: DriveChoice) -> Vec<RunKey> {
    MIX_STEPS
        .iter()
        .map(|&pct| run_key(state, drive, state.workload.qd(), pct))
        .collect()
}

/// Every run the page shows for `state`, most important first: the readout's point, the
/// current drive's sweeps, then the other drives' sweeps, then the pinned configurations'. No
/// key appears twice. While another view hides the queue-depth charts only the readout's point
/// is run, so their sweeps do not compete with that view's own work (they are cached, so coming
/// back costs only what was never computed).
pub fn plan(state: &LabState) -> Vec<RunKey> {
    let current = state.drive.choice();
    let mut keys = vec![current_key(state)];
    if state.display.view != View::Queue {
        return keys;
    }
    keys.extend(qd_sweep(state, current));
    keys.extend(mix_sweep(state, current));
    let others: Vec<DriveChoice> = state
        .drive
        .comparison_drives()
        .into_iter()
        .filter(|d| *d != current)
        .collect();
    for &d in &others {
        keys.extend(qd_sweep(state, d));
    }
    for &d in &others {
        keys.extend(mix_sweep(state, d));
    }
    for pin in state.pins.as_slice() {
        let config = pin.apply(state);
        keys.extend(qd_sweep(&config, pin.drive));
        keys.extend(mix_sweep(&config, pin.drive));
    }
    let mut seen = HashSet::new();
    keys.retain(|k| seen.insert(*k));
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_plan_starts_with_the_readout_point_and_covers_three_drives() {
        let s = LabState::default();
        let p = plan(&s);
        assert_eq!(p[0], current_key(&s));
        let drives: HashSet<DriveChoice> = p.iter().map(|k| k.drive).collect();
        assert_eq!(drives.len(), 3);
        // 3 drives x (9 depths + 11 shares), less the 100% share that is also the QD32 read.
        assert_eq!(p.len(), 3 * (9 + 11 - 1));
        let unique: HashSet<RunKey> = p.iter().copied().collect();
        assert_eq!(unique.len(), p.len());
    }

    #[test]
    fn other_views_plan_only_the_readout_point() {
        for view in [View::Time, View::Activity] {
            let mut s = LabState::default();
            s.display.view = view;
            assert_eq!(plan(&s), vec![current_key(&s)], "{view:?}");
        }
    }

    #[test]
    fn sweeps_reach_the_current_depth() {
        assert_eq!(sweep_qds(32), REVIEW_QDS.to_vec());
        assert_eq!(*sweep_qds(1024).last().unwrap(), 1024);
        assert!(sweep_qds(24).contains(&24));
        assert!(sweep_qds(600).ends_with(&[512, 600, 1024]));
    }

    #[test]
    fn equal_runs_get_equal_keys() {
        // A pure pattern's key ignores the read share the slider holds.
        let mut s = LabState::default();
        s.workload.set_read_pct(70);
        let a = run_key(&s, s.drive.choice(), 32, 100);
        s.workload.set_read_pct(30);
        assert_eq!(run_key(&s, s.drive.choice(), 32, 100), a);
    }
}
