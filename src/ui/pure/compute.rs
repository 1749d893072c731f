//! Which model runs the page needs for a state: the [`plan`], most important first, made of
//! [`RunKey`]s. The runs themselves are computed off the main thread by the page's worker pool
//! ([`crate::ui::browser::pool`]); a key, a point and the runner that computes them live in the
//! `parallelism-work` crate, which the page and its workers share.
//!
//! What always holds: a key is built from a state only here ([`drive_key`], [`run_key`],
//! [`current_key`]), so
//! equal runs get equal keys and the pool's cache finds them; nothing here touches the browser
//! or the runners, so all of it is tested natively.

use std::collections::HashSet;

use crate::model::config::{Rw, BYTES_PER_MB};
use crate::model::sweep::{MIX_STEPS, REVIEW_IODEPTHS};

pub use parallelism_work::{
    DriveKey, Fidelity, Load, Outcome, Point, PointAnatomy, Progress, RunKey, ESTIMATE_IOS, SEED,
};

use crate::ui::pure::embed::ChartId;
use crate::ui::pure::state::{
    is_sweep_rate, rate_ladder, DriveChoice, DriveSetup, LabState, LoadKind, View,
};

/// The data rates a sweep over offered load spans, in MB/s: from a trickle (10 MB/s) to past
/// a PCIe 5.0 x4 link (about 15.8 GB/s), whatever the block size.
pub const RATE_SWEEP_MB_S: (f64, f64) = (10.0, 16_000.0);

/// The charts drawn from each drive's sweep over queue depth ([`iodepth_sweep`]); the mixed chart
/// alone draws the sweep over read share ([`mix_sweep`]).
/// Where the time goes draws the sweep over queue depth of the reader's drive alone.
const DEPTH_SWEEP_CHARTS: [ChartId; 3] = [ChartId::Iops, ChartId::Latency, ChartId::Power];

/// The groups of a drive's [`sweeps`], in the order the plan runs them.
const SWEEP_GROUPS: usize = 2;

/// The drive the controls set.
pub fn drive_key(drive: &DriveSetup) -> DriveKey {
    DriveKey {
        preset: drive.preset().clone(),
        drive: drive.choice(),
    }
}

/// The run of `drive` with the state's workload kept at `iodepth` in flight (closed loop), at
/// `read_pct`.
pub fn run_key(state: &LabState, drive: DriveChoice, iodepth: u32, read_pct: u8) -> RunKey {
    let rw = Rw::from_parts(state.workload.random(), read_pct);
    RunKey {
        preset: state.drive.preset().clone(),
        drive,
        rw,
        read_pct: rw.fixed_read_percent().unwrap_or(read_pct),
        bs_bytes: state.workload.bs_bytes(),
        iodepth,
        state: state.workload.drive_state(),
        power_state: state.drive.power_state(),
        load: Load::Depth,
    }
}

/// The run of `drive` with the state's workload arriving at `iops` (open loop), at most the
/// state's depth at the device.
pub fn rate_key(state: &LabState, drive: DriveChoice, iops: u32) -> RunKey {
    RunKey {
        load: Load::Rate {
            iops,
            spacing: state.workload.spacing(),
        },
        ..capacity_key(state, drive)
    }
}

/// The closed loop at the state's depth on `drive`: the most a rate on it can be carried at
/// (its capacity), and the point the charts against queue depth show.
pub fn capacity_key(state: &LabState, drive: DriveChoice) -> RunKey {
    run_key(
        state,
        drive,
        state.workload.iodepth(),
        state.workload.read_pct(),
    )
}

/// The point the readout shows: the current depth, or the current rate.
pub fn current_key(state: &LabState) -> RunKey {
    let drive = state.drive.choice();
    match state.workload.load() {
        LoadKind::Depth | LoadKind::Jobs | LoadKind::Trace => capacity_key(state, drive),
        LoadKind::Rate => rate_key(state, drive, state.workload.rate_iops()),
    }
}

/// The offered loads of a sweep: every other step of the rate slider (five a decade) between
/// [`RATE_SWEEP_MB_S`] at the state's block size, plus the current rate (so the current point
/// lies on its curve).
pub fn sweep_rates(state: &LabState) -> Vec<u32> {
    let bytes = f64::from(state.workload.bs_bytes());
    let (low, high) = RATE_SWEEP_MB_S;
    let (low, high) = (low * BYTES_PER_MB / bytes, high * BYTES_PER_MB / bytes);
    let current = state.workload.rate_iops();
    rate_ladder()
        .values()
        .iter()
        .copied()
        .filter(|&r| r == current || (is_sweep_rate(r) && (low..=high).contains(&f64::from(r))))
        .collect()
}

/// One drive's runs over [`sweep_rates`].
pub fn rate_sweep(state: &LabState, drive: DriveChoice) -> Vec<RunKey> {
    sweep_rates(state)
        .into_iter()
        .map(|iops| rate_key(state, drive, iops))
        .collect()
}

/// One drive's runs for the charts of the state's workload that the page shows (`charts=`),
/// in two groups, the first screen's first: its sweep against queue depth (the IOPS chart's,
/// the latency and power charts' too, and where the time goes for the reader's own drive,
/// `current`), then its sweep against read share (the mixed chart's); or its capacity and
/// sweep over offered load (which the readout reads too, so they are run whatever the
/// charts), then nothing.
fn sweeps(state: &LabState, drive: DriveChoice, current: bool) -> [Vec<RunKey>; SWEEP_GROUPS] {
    let shown = state.embedding.charts;
    match state.workload.load() {
        LoadKind::Depth | LoadKind::Jobs | LoadKind::Trace => [
            if DEPTH_SWEEP_CHARTS.iter().any(|&c| shown.shows(c))
                || (current && shown.shows(ChartId::Anatomy))
            {
                iodepth_sweep(state, drive)
            } else {
                Vec::new()
            },
            if shown.shows(ChartId::Mix) {
                mix_sweep(state, drive)
            } else {
                Vec::new()
            },
        ],
        LoadKind::Rate => {
            let mut keys = vec![capacity_key(state, drive)];
            keys.extend(rate_sweep(state, drive));
            [keys, Vec::new()]
        }
    }
}

/// The queue depths of a sweep: the reviewers' 1..256, extended by doublings to cover `iodepth`,
/// plus `iodepth` itself when it is between them (so the current point lies on its curve).
pub fn sweep_iodepths(iodepth: u32) -> Vec<u32> {
    let mut iodepths = REVIEW_IODEPTHS.to_vec();
    let mut last = *iodepths.last().unwrap_or(&1);
    while last < iodepth {
        last *= 2;
        iodepths.push(last);
    }
    if !iodepths.contains(&iodepth) {
        iodepths.push(iodepth);
        iodepths.sort_unstable();
    }
    iodepths
}

/// The deepest queue depth of [`sweep_iodepths`] for a state at `iodepth`: where the chart
/// against queue depth ends.
pub fn deepest_iodepth(iodepth: u32) -> u32 {
    sweep_iodepths(iodepth).last().copied().unwrap_or(1)
}

/// One drive's runs over [`sweep_iodepths`] at the state's read share.
pub fn iodepth_sweep(state: &LabState, drive: DriveChoice) -> Vec<RunKey> {
    sweep_iodepths(state.workload.iodepth())
        .into_iter()
        .map(|iodepth| run_key(state, drive, iodepth, state.workload.read_pct()))
        .collect()
}

/// One drive's runs over the read shares of the reviewers' mixed sweep at the state's depth.
pub fn mix_sweep(state: &LabState, drive: DriveChoice) -> Vec<RunKey> {
    MIX_STEPS
        .iter()
        .map(|&pct| run_key(state, drive, state.workload.iodepth(), pct))
        .collect()
}

/// The runs the page shows for a state, most important first ([`plan`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub keys: Vec<RunKey>,
    /// How many of the first keys the first screen waits for: the readout's point and the
    /// first group of every drive's sweeps (the IOPS chart's, on the depth view). The pool
    /// shows them the moment they all have a result, not at its next revision.
    pub first_screen: usize,
}

/// Every run the page shows for `state`, most important first: the readout's point, then each
/// group of sweeps (the first screen's first) of the current drive, the other drives and
/// the pinned configurations, one drive's whole sweep before the next's so a curve completes
/// before the next starts. So the IOPS chart on the first screen is complete before the mixed
/// chart's sweeps (the costliest runs: their warm-up fills the write buffer three times)
/// begin. Only the sweeps of the charts shown: an embed of one chart asks for its own. No key
/// appears twice. While another view hides the queue-depth charts only the readout's point
/// is run, so their sweeps do not compete with that view's own work (they are cached, so coming
/// back costs only what was never computed).
pub fn plan(state: &LabState) -> Plan {
    if matches!(state.workload.load(), LoadKind::Jobs | LoadKind::Trace) {
        // Several jobs and a trace run as requests of their own (see `views::jobs` and
        // `views::trace`), not as points.
        return Plan::default();
    }
    let current = state.drive.choice();
    let readout = current_key(state);
    if state.display.view != View::Queue {
        return Plan {
            keys: vec![readout],
            first_screen: 1,
        };
    }
    let mut groups = vec![sweeps(state, current, true)];
    for d in state.drive.comparison_drives() {
        if d != current {
            groups.push(sweeps(state, d, false));
        }
    }
    for pin in state.pins.as_slice() {
        groups.push(sweeps(&pin.apply(state), pin.drive, false));
    }
    // The readout's point and every drive's first group, then every drive's second.
    let first = groups
        .iter_mut()
        .flat_map(|[first, _]| std::mem::take(first));
    let mut seen = HashSet::new();
    let mut keys: Vec<RunKey> = std::iter::once(readout)
        .chain(first)
        .filter(|k| seen.insert(k.clone()))
        .collect();
    let first_screen = keys.len();
    let second = groups.into_iter().flat_map(|[_, second]| second);
    keys.extend(second.filter(|k| seen.insert(k.clone())));
    Plan { keys, first_screen }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::pure::embed::ChartsShown;

    #[test]
    fn the_default_plan_starts_with_the_readout_point_and_covers_three_drives() {
        let s = LabState::default();
        let p = plan(&s).keys;
        assert_eq!(p[0], current_key(&s));
        let drives: HashSet<DriveChoice> = p.iter().map(|k| k.drive).collect();
        assert_eq!(drives.len(), 3);
        // 3 drives x (9 depths + 11 shares), less the 100% share that is also the QD32 read.
        assert_eq!(p.len(), 3 * (9 + 11 - 1));
        // The IOPS chart's (first screen) sweeps over depth come before any read share.
        let (depths, shares) = p.split_at(3 * 9);
        assert!(depths.iter().all(|k| k.read_pct == 100), "{depths:?}");
        assert!(shares.iter().all(|k| k.read_pct < 100 && k.iodepth == 32));
        let unique: HashSet<RunKey> = p.iter().cloned().collect();
        assert_eq!(unique.len(), p.len());
    }

    #[test]
    fn the_first_screen_is_the_readout_point_and_the_iops_charts_sweeps() {
        // The default view: the readout's point (QD 32, also on the current drive's curve)
        // and each drive's 9 depths come first; the read shares follow.
        let s = LabState::default();
        let p = plan(&s);
        assert_eq!(p.first_screen, 3 * 9);
        assert!(p.keys[..p.first_screen].iter().all(|k| k.read_pct == 100));
        // A depth off the reviewers' ladder is the readout's point and a point of each curve.
        let mut s = LabState::default();
        s.workload.set_iodepth(24);
        let p = plan(&s);
        assert_eq!(p.first_screen, 3 * 10);
        assert_eq!(p.keys[0], current_key(&s));
        // An embed of the mixed chart waits only for the readout's point on its first screen.
        s.embedding.charts = ChartsShown::of(&[ChartId::Mix]).unwrap();
        assert_eq!(plan(&s).first_screen, 1);
        // Another view shows the readout's point alone; several jobs plan no points.
        let mut s = LabState::default();
        s.display.view = View::OverTime;
        assert_eq!(plan(&s).first_screen, 1);
        s.workload.set_load(LoadKind::Jobs);
        assert_eq!(plan(&s), Plan::default());
    }

    #[test]
    fn an_embed_plans_only_the_sweeps_its_charts_draw() {
        // `charts=iops`: each drive's 9 depths (the readout's point is the current drive's
        // QD 32), no read shares.
        let mut s = LabState::default();
        s.embedding.charts = ChartsShown::of(&[ChartId::Iops]).unwrap();
        let p = plan(&s).keys;
        assert_eq!(p[0], current_key(&s));
        assert_eq!(p.len(), 3 * 9);
        assert!(p.iter().all(|k| k.read_pct == 100));
        // `charts=mix`: each drive's 11 shares (the 100% share is the readout's point on the
        // current drive), no other depth.
        s.embedding.charts = ChartsShown::of(&[ChartId::Mix]).unwrap();
        let p = plan(&s).keys;
        assert_eq!(p[0], current_key(&s));
        assert_eq!(p.len(), 3 * 11);
        assert!(p.iter().all(|k| k.iodepth == s.workload.iodepth()));
        // The latency and power charts draw the depth sweep too.
        for chart in [ChartId::Latency, ChartId::Power] {
            s.embedding.charts = ChartsShown::of(&[chart]).unwrap();
            assert_eq!(plan(&s).keys.len(), 3 * 9, "{chart}");
        }
        // Where the time goes draws the reader's drive alone: its 9 depths.
        s.embedding.charts = ChartsShown::of(&[ChartId::Anatomy]).unwrap();
        let p = plan(&s).keys;
        assert_eq!(p.len(), 9);
        assert!(p.iter().all(|k| k.drive == s.drive.choice()));
        // A chart of another workload (`charts=load` on the depth view): the readout's point.
        s.embedding.charts = ChartsShown::of(&[ChartId::Load]).unwrap();
        assert_eq!(plan(&s).keys, vec![current_key(&s)]);
    }

    #[test]
    fn other_views_plan_only_the_readout_point() {
        for view in [
            View::OverTime,
            View::Activity,
            View::Review,
            View::Scorecard,
        ] {
            let mut s = LabState::default();
            s.display.view = view;
            assert_eq!(plan(&s).keys, vec![current_key(&s)], "{view:?}");
        }
    }

    #[test]
    fn a_rate_plans_the_readout_point_then_each_drives_capacity_and_sweep_over_offered_load() {
        let mut s = LabState::default();
        s.workload.set_load(LoadKind::Rate);
        let p = plan(&s).keys;
        assert_eq!(p[0], current_key(&s));
        assert_eq!(p[0].load.rate_iops(), Some(s.workload.rate_iops()));
        assert_eq!(p[1], capacity_key(&s, s.drive.choice()));
        assert_eq!(p[1].load, Load::Depth);
        // 4 KiB: 10 MB/s to 16 GB/s is 2,441 to 3.9M IOPS: five rates a decade from 2,500 to
        // 2.5M, and the current 200k between them.
        let rates = sweep_rates(&s);
        assert_eq!(rates.first(), Some(&2_500));
        assert_eq!(rates.last(), Some(&2_500_000));
        assert!(!is_sweep_rate(200_000) && rates.contains(&200_000));
        assert_eq!(rates.len(), 16 + 1);
        // Three capacities, each with its capacity point and its sweep (the readout's point
        // is the current drive's 200k).
        assert_eq!(p.len(), 3 * (1 + rates.len()));
    }

    #[test]
    fn the_current_rate_lies_on_its_curve_and_large_blocks_sweep_lower_rates() {
        let mut s = LabState::default();
        s.workload.set_load(LoadKind::Rate);
        s.workload.set_rate_iops(315_000);
        assert!(sweep_rates(&s).contains(&315_000));
        s.workload.set_bs_bytes(1 << 20);
        let rates = sweep_rates(&s);
        assert_eq!((rates[0], *rates.last().unwrap()), (10, 315_000));
        assert!(
            rates.contains(&10_000),
            "16 GB/s of 1 MiB requests is 15,259 IOPS"
        );
    }

    #[test]
    fn sweeps_reach_the_current_depth() {
        assert_eq!(sweep_iodepths(32), REVIEW_IODEPTHS.to_vec());
        assert_eq!(*sweep_iodepths(1024).last().unwrap(), 1024);
        assert!(sweep_iodepths(24).contains(&24));
        assert!(sweep_iodepths(600).ends_with(&[512, 600, 1024]));
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
