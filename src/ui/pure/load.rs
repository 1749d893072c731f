//! What a sweep over offered load says of one drive: its points, its capacity (the closed loop
//! at the state's depth, the most an open loop can be carried at), and its knee (where
//! throughput per latency peaks, [`crate::model::sweep::knee`]). The rate view's charts, its
//! readout and its CSV read drives through [`LoadSweep::of`], so each figure is computed once,
//! from the model's results, in one place.
//!
//! What always holds: the knee is the model's own definition applied to the same points
//! `lab sweep --rate-iops` runs, so the page and the command line name the same knee; a sweep
//! still missing points has no knee yet (a knee from part of a curve would move as it fills).

use crate::model::sweep::{knee, LoadSample};

use crate::ui::pure::compute::{self, Point};
use crate::ui::pure::state::{DriveChoice, LabState};

/// One drive's sweep over offered load, as far as the model has computed it.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadSweep {
    /// (offered I/Os per second, the model's point), in increasing offered load.
    pub points: Vec<(u32, Point)>,
    /// Points of the sweep (and its capacity) without a result yet.
    pub missing: usize,
    /// The closed loop at the state's depth: what the drive carries at most.
    pub capacity: Option<Point>,
    /// The offered load (I/Os per second) where throughput per latency peaks.
    pub knee_iops: Option<f64>,
}

impl LoadSweep {
    /// The sweep of `drive` under `config`'s workload, from the results `lookup` has.
    pub fn of(
        config: &LabState,
        drive: DriveChoice,
        lookup: &dyn Fn(&compute::RunKey) -> Option<Point>,
    ) -> LoadSweep {
        let keys = compute::rate_sweep(config, drive);
        let capacity = lookup(&compute::capacity_key(config, drive));
        let points: Vec<(u32, Point)> = keys
            .iter()
            .filter_map(|k| Some((k.load.rate_iops()?, lookup(k)?)))
            .collect();
        let missing = keys.len() - points.len() + usize::from(capacity.is_none());
        let knee_iops = (missing == 0).then(|| knee(&samples(&points))).flatten();
        LoadSweep {
            points,
            missing,
            capacity,
            knee_iops,
        }
    }

    /// The capacity in I/Os per second.
    pub fn capacity_iops(&self) -> Option<f64> {
        self.capacity.map(|p| p.iops)
    }
}

/// The points as the model's knee reads them.
fn samples(points: &[(u32, Point)]) -> Vec<LoadSample> {
    points
        .iter()
        .map(|(iops, p)| LoadSample {
            offered_iops: f64::from(*iops),
            carried_iops: p.iops,
            mean_latency_us: p.mean_us,
            saturated: p.saturated,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::stats::{Bottleneck, ProgramWait};
    use crate::ui::pure::compute::{Fidelity, Load};
    use crate::ui::pure::state::LoadKind;

    /// An M/M/1-like drive of capacity 100,000 IOPS with a 10 µs service time: latency
    /// 1 / (capacity - load), saturated past capacity.
    fn queue(k: &compute::RunKey) -> Option<Point> {
        let capacity = 100_000.0;
        let (offered, saturated) = match k.load {
            Load::Depth => (capacity, false),
            Load::Rate { iops, .. } => (f64::from(iops), f64::from(iops) >= capacity),
        };
        let carried = offered.min(capacity);
        let mean_us = if saturated {
            1e6
        } else {
            1e6 / (capacity - offered)
        };
        Some(Point {
            iops: carried,
            mb_s: carried * 0.004,
            mean_us,
            p99_us: mean_us * 4.6,
            p999_us: mean_us * 6.9,
            bottleneck: Bottleneck::Dies,
            program_wait: ProgramWait::Rarely,
            watts: 1.0,
            budget_w: None,
            saturated,
            in_system: carried * mean_us / 1e6,
            anatomy: crate::ui::pure::compute::PointAnatomy::default(),
            fidelity: Fidelity::Full,
        })
    }

    fn rate_state() -> LabState {
        let mut s = LabState::default();
        s.workload.set_load(LoadKind::Rate);
        s
    }

    #[test]
    fn a_single_queue_has_its_knee_near_half_its_capacity() {
        // Kleinrock's power of M/M/1 peaks at half the capacity; the sweep's five steps a
        // decade place it between them.
        let s = rate_state();
        let sweep = LoadSweep::of(&s, s.drive.choice(), &queue);
        assert_eq!(sweep.missing, 0);
        assert_eq!(sweep.capacity_iops(), Some(100_000.0));
        let knee = sweep.knee_iops.unwrap();
        assert!((40_000.0..60_000.0).contains(&knee), "{knee}");
    }

    #[test]
    fn a_sweep_still_computing_has_no_knee_yet() {
        let s = rate_state();
        let some = |k: &compute::RunKey| match k.load {
            Load::Rate { iops, .. } if iops > 50_000 => None,
            _ => queue(k),
        };
        let sweep = LoadSweep::of(&s, s.drive.choice(), &some);
        assert!(sweep.missing > 0);
        assert_eq!(sweep.knee_iops, None);
    }
}
