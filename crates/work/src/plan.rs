//! An [`PlanTask`] that runs a plan of model runs in short slices, with a cache.
//!
//! A full run costs 5-50 ms and the page's default view needs about sixty, so whoever runs the
//! runner (a Web Worker of the page, or a native test) must be able to stop at any moment to
//! take a newer plan. So the runner owns a *plan* (the runs wanted now, most important first)
//! and [`PlanTask::work`] advances it until its caller says time is up. Every run first goes only
//! as far as a quick [`Fidelity::Estimate`] (its provisional result once [`ESTIMATE_IOS`]
//! requests are measured) and is then set aside; once every point of the plan has an estimate,
//! the runs are resumed to their end ([`Fidelity::Full`]). So the charts fill in at once and
//! sharpen afterwards, and no simulated request is ever computed twice.
//!
//! What always holds:
//! - a cached result is reused whenever the plan comes back to a key (a [`RunKey`] fully
//!   identifies a result);
//! - a result is never downgraded: a full result is kept over a later estimate;
//! - [`PlanTask::set_plan`] sets the run in progress aside unless the new plan still needs it
//!   now, so stale work stops at the next step (and resumes if the plan comes back to it);
//! - at most [`MAX_PARKED`] runs are set aside; beyond that, those the plan does not need go;
//! - no step blocks for long: even the drive's garbage-collection model is computed in slices
//!   (the model's [`Preparation`]);
//! - nothing here touches a browser: the caller supplies the clock.

use std::collections::{HashMap, HashSet};

use parallelism_model::prepare::{Preparation, WA_WRITES_PER_STEP};
use parallelism_model::sliced::Sliced;
use parallelism_model::{RunError, Simulation};

use crate::anatomy::PointAnatomy;
use crate::key::{Fidelity, Outcome, Point, RunKey, ESTIMATE_IOS};

/// Most runs set aside at once (each holds its simulation, tens of KB).
pub const MAX_PARKED: usize = 128;
/// Events processed between two looks at the clock (about 0.1-0.3 ms of work in wasm).
pub const EVENTS_PER_STEP: u64 = 1_000;
/// The cache forgets everything the plan does not need when it grows past this many results
/// (a result is about 600 bytes with its key, 450 of them its anatomy, so this is some 12 MB
/// at most).
pub const MAX_CACHED: usize = 20_000;

/// How far a plan is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub total: usize,
    /// Points with at least an estimate (or a failure).
    pub estimated: usize,
    /// Points with a full result (or a failure).
    pub finished: usize,
}

impl Progress {
    /// The progress of `plan` given the results `outcome` looks up.
    pub fn of<'a>(plan: &[RunKey], outcome: impl Fn(&RunKey) -> Option<&'a Outcome>) -> Progress {
        let mut p = Progress {
            total: plan.len(),
            ..Progress::default()
        };
        for key in plan {
            if let Some(o) = outcome(key) {
                p.estimated += 1;
                if o.is_final() {
                    p.finished += 1;
                }
            }
        }
        p
    }

    /// Every point has at least an estimate (a plan of no points has none to wait for).
    pub fn all_estimated(&self) -> bool {
        self.estimated >= self.total
    }

    /// Every point has its full result.
    pub fn all_finished(&self) -> bool {
        self.finished >= self.total
    }

    /// Whether this progress, coming after `before` on the same plan, is a moment a reader
    /// waits for: the plan's last point has its first result, or its last full one.
    pub fn completes(&self, before: &Progress) -> bool {
        (self.all_estimated() && !before.all_estimated())
            || (self.all_finished() && !before.all_finished())
    }
}

/// What one call to [`PlanTask::work`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Slice {
    /// The runs that reached a result (an estimate, a full result or a refusal) in this slice.
    pub completed: Vec<RunKey>,
    /// True when the plan is done and nothing else is left to do.
    pub idle: bool,
}

/// The run being advanced, and the fidelity it is working towards.
struct Active {
    key: RunKey,
    goal: Fidelity,
    sim: Simulation,
}

/// The sliced runner and its cache. See the module documentation.
#[derive(Default)]
pub struct PlanTask {
    cache: HashMap<RunKey, Outcome>,
    plan: Vec<RunKey>,
    active: Option<Active>,
    /// Runs set aside after their estimate, or when the plan changed under them.
    parked: HashMap<RunKey, Simulation>,
    /// The run being made ready (its garbage-collection model computed in slices); the model
    /// memoises the finished amplification itself, so another run on the same drive is ready
    /// at once.
    preparing: Option<(RunKey, Preparation)>,
    runs_started: u64,
}

impl PlanTask {
    pub fn new() -> PlanTask {
        PlanTask::default()
    }

    /// Replaces the plan. The run in progress continues only if the new plan needs it at the
    /// fidelity it is working towards; otherwise it is set aside.
    pub fn set_plan(&mut self, plan: Vec<RunKey>) {
        self.plan = plan;
        if let Some(active) = &self.active {
            // A refinement gives way as soon as some point of the new plan has no estimate.
            let needed = self.plan.contains(&active.key)
                && self.next_job().is_some_and(|(_, next)| next >= active.goal);
            if !needed {
                self.park_active();
            }
        }
        if self.cache.len() > MAX_CACHED {
            let keep: HashSet<RunKey> = self.plan.iter().cloned().collect();
            self.cache.retain(|k, _| keep.contains(k));
        }
        self.trim_parked();
    }

    fn park_active(&mut self) {
        if let Some(active) = self.active.take() {
            self.parked.insert(active.key, active.sim);
        }
    }

    /// Keeps the set-aside runs within [`MAX_PARKED`], dropping those the plan does not need.
    fn trim_parked(&mut self) {
        if self.parked.len() > MAX_PARKED {
            let keep: HashSet<RunKey> = self.plan.iter().cloned().collect();
            self.parked.retain(|k, _| keep.contains(k));
        }
    }

    /// The best result so far for `key`: a point, or why the model refused it.
    pub fn outcome(&self, key: &RunKey) -> Option<&Outcome> {
        self.cache.get(key)
    }

    /// The best point so far for `key`.
    pub fn point(&self, key: &RunKey) -> Option<&Point> {
        match self.cache.get(key) {
            Some(Outcome::Done(p)) => Some(&**p),
            _ => None,
        }
    }

    /// Why the model gave no result for `key`, if it gave none.
    pub fn failure(&self, key: &RunKey) -> Option<&RunError> {
        match self.cache.get(key) {
            Some(Outcome::Failed(why)) => Some(why),
            _ => None,
        }
    }

    /// The key of the run being advanced now, if any.
    pub fn active(&self) -> Option<RunKey> {
        self.active.as_ref().map(|a| a.key.clone())
    }

    /// Runs started since the runner was made (for tests and diagnostics).
    pub fn runs_started(&self) -> u64 {
        self.runs_started
    }

    pub fn progress(&self) -> Progress {
        Progress::of(&self.plan, |k| self.cache.get(k))
    }

    /// Whether every point of the plan has a result, an estimate at least.
    fn all_estimated(&self) -> bool {
        self.plan.iter().all(|k| self.cache.contains_key(k))
    }

    /// The next run to do: the first point without any result, else the first estimate to
    /// refine.
    fn next_job(&self) -> Option<(RunKey, Fidelity)> {
        if let Some(k) = self.plan.iter().find(|k| !self.cache.contains_key(k)) {
            return Some((k.clone(), Fidelity::Estimate));
        }
        self.plan
            .iter()
            .find(|k| self.cache.get(k).is_some_and(|o| !o.is_final()))
            .map(|k| (k.clone(), Fidelity::Full))
    }

    /// Works on the plan until `time_is_up` returns true (checked after every
    /// [`EVENTS_PER_STEP`] events and after each one-off preparation), nothing is left, or the
    /// plan's last point has its first result. That moment is what a reader waits for (every
    /// point drawn), so the slice ends there and its results go out at once rather than with
    /// the refinements that would fill the rest of the slice (up to a whole slice later).
    pub fn work(&mut self, time_is_up: &mut dyn FnMut() -> bool) -> Slice {
        let mut slice = Slice::default();
        loop {
            if self.active.is_none() {
                let Some((key, goal)) = self.next_job() else {
                    slice.idle = true;
                    return slice;
                };
                if let Some(sim) = self.parked.remove(&key) {
                    self.active = Some(Active { key, goal, sim });
                } else {
                    match self.start(key.clone(), time_is_up) {
                        Start::Running(sim) => {
                            self.runs_started += 1;
                            self.active = Some(Active {
                                key,
                                goal,
                                sim: *sim,
                            });
                        }
                        Start::Refused(why) => {
                            self.cache.insert(key.clone(), Outcome::Failed(why));
                            slice.completed.push(key);
                            if self.all_estimated() {
                                return slice;
                            }
                            continue;
                        }
                        Start::OutOfTime => return slice,
                    }
                }
            }
            let estimating = self
                .active
                .as_ref()
                .is_some_and(|a| a.goal == Fidelity::Estimate);
            if let Some(key) = self.advance_active() {
                slice.completed.push(key);
                if estimating && self.all_estimated() {
                    return slice;
                }
            }
            if time_is_up() {
                return slice;
            }
        }
    }

    /// One step of the active run; the key whose result it reached, if it reached one.
    fn advance_active(&mut self) -> Option<RunKey> {
        let active = self.active.as_mut()?;
        let finished = active.sim.step(EVENTS_PER_STEP);
        // The count alone says whether an estimate is reached; the whole result (three latency
        // summaries, every resource's utilisation) is made once, when it is kept: made after
        // every step it would cost about 4% of the default view's estimates natively.
        let reached = finished
            || (active.goal == Fidelity::Estimate && active.sim.measured_ios() >= ESTIMATE_IOS);
        if !reached {
            return None;
        }
        let key = active.key.clone();
        let r = match active.sim.result() {
            Ok(r) => r,
            Err(failed) => {
                // A run that gave no result (it stalled, or failed its check) is finished: its
                // failure is its outcome.
                self.cache.insert(key.clone(), Outcome::Failed(failed));
                self.active = None;
                return Some(key);
            }
        };
        let outcome = Outcome::Done(Box::new(Point {
            iops: r.iops,
            mb_s: r.bw_mb_s,
            mean_us: r.latency.mean_us,
            p99_us: r.latency.p99_us,
            p999_us: r.latency.p999_us,
            bottleneck: r.bottleneck,
            program_wait: r.program_wait(),
            watts: r.power.average_w,
            budget_w: r.power.budget_w,
            saturated: r.saturated,
            in_system: r.mean_in_system,
            anatomy: PointAnatomy::of(&r.anatomy),
            fidelity: if finished {
                Fidelity::Full
            } else {
                Fidelity::Estimate
            },
        }));
        if outcome.improves_on(self.cache.get(&key)) {
            self.cache.insert(key.clone(), outcome);
        }
        if finished {
            self.active = None;
        } else {
            // Estimated: set aside until every point has its estimate.
            self.park_active();
            self.trim_parked();
        }
        Some(key)
    }

    /// Checks `key`'s run and makes its simulation. A run that pays the steady-state write
    /// amplification is first made ready by the model's [`Preparation`], sliced like
    /// everything else (in one go it would take half a second in a browser); that may take
    /// several slices.
    fn start(&mut self, key: RunKey, time_is_up: &mut dyn FnMut() -> bool) -> Start {
        let prep = match &mut self.preparing {
            Some((k, prep)) if *k == key => prep,
            _ => match key.prepare(Fidelity::Full.measured_ios()) {
                Ok(prep) => &mut self.preparing.insert((key, prep)).1,
                Err(why) => return Start::Refused(why.into()),
            },
        };
        let start = match prep.work_until(WA_WRITES_PER_STEP, time_is_up) {
            Ok(Some(run)) => Start::Running(Box::new(Simulation::new(&run))),
            Ok(None) => return Start::OutOfTime,
            Err(why) => Start::Refused(why.into()),
        };
        self.preparing = None;
        start
    }
}

/// What [`PlanTask::start`] came to.
enum Start {
    Running(Box<Simulation>),
    Refused(RunError),
    /// Still computing the write amplification; try again next slice.
    OutOfTime,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(total: usize, estimated: usize, finished: usize) -> Progress {
        Progress {
            total,
            estimated,
            finished,
        }
    }

    /// The plan's last estimate and its last full result are the moments a reader waits for;
    /// results before, between and after them are not.
    #[test]
    fn a_plan_completes_at_its_last_estimate_and_at_its_last_full_result() {
        let (p, q) = (progress(57, 56, 0), progress(57, 57, 0));
        assert!(q.completes(&p), "the last estimate");
        assert!(
            progress(57, 57, 57).completes(&progress(57, 57, 56)),
            "the last result"
        );
        assert!(
            !progress(57, 40, 0).completes(&progress(57, 30, 0)),
            "before"
        );
        assert!(!progress(57, 57, 20).completes(&q), "between");
        assert!(
            !progress(57, 57, 57).completes(&progress(57, 57, 57)),
            "after"
        );
        assert!(progress(0, 0, 0).all_estimated() && progress(0, 0, 0).all_finished());
    }
    use crate::testing::{key, key_at};
    use parallelism_model::DriveState;

    /// Works until idle, one step per slice, and returns how many slices it took.
    fn run_to_idle(runner: &mut PlanTask) -> usize {
        let mut slices = 0;
        while !runner.work(&mut || true).idle {
            slices += 1;
            assert!(slices < 10_000_000, "the runner never went idle");
        }
        slices
    }

    #[test]
    fn every_point_gets_an_estimate_before_any_is_refined() {
        let keys: Vec<RunKey> = [1, 4, 16]
            .map(|iodepth| key_at(DriveState::Fob, iodepth, 100))
            .to_vec();
        let mut e = PlanTask::new();
        e.set_plan(keys.clone());
        let mut fidelities = Vec::new();
        loop {
            let slice = e.work(&mut || true);
            if !slice.completed.is_empty() {
                let p = e.progress();
                fidelities.push((p.estimated, p.finished));
            }
            if slice.idle {
                break;
            }
        }
        assert_eq!(
            fidelities,
            vec![(1, 0), (2, 0), (3, 0), (3, 1), (3, 2), (3, 3)]
        );
        for k in &keys {
            assert_eq!(e.point(k).unwrap().fidelity, Fidelity::Full);
        }
    }

    /// The plan's last estimate ends the slice, however much time is left in it: the reader
    /// waits for that moment, and the refinements that follow would hold its results back
    /// until the slice's end.
    #[test]
    fn a_slice_ends_at_the_plan_s_last_estimate() {
        let keys: Vec<RunKey> = [1, 4]
            .map(|iodepth| key_at(DriveState::Fob, iodepth, 100))
            .to_vec();
        let mut e = PlanTask::new();
        e.set_plan(keys.clone());
        let first = e.work(&mut || false);
        assert_eq!(
            first.completed, keys,
            "both estimates, and nothing refined yet"
        );
        assert!(!first.idle);
        assert_eq!(e.progress(), progress(2, 2, 0));
        let rest = e.work(&mut || false);
        assert_eq!(rest.completed, keys, "both refined in the next slice");
        assert!(rest.idle);
        assert_eq!(e.progress(), progress(2, 2, 2));
    }

    /// A point the model refuses is a result too: when it is the plan's last point, the slice
    /// ends there.
    #[test]
    fn a_refused_last_point_ends_the_slice_too() {
        let refused = RunKey {
            iodepth: 0,
            ..key_at(DriveState::Fob, 1, 100)
        };
        let keys = vec![key_at(DriveState::Fob, 4, 100), refused.clone()];
        let mut e = PlanTask::new();
        e.set_plan(keys.clone());
        let first = e.work(&mut || false);
        assert_eq!(first.completed, keys);
        assert!(e.failure(&refused).is_some(), "the model refuses depth 0");
        assert!(!first.idle, "the first point's refinement is still to do");
    }

    #[test]
    fn coming_back_to_a_plan_reuses_the_cache() {
        let a = vec![
            key_at(DriveState::Fob, 32, 100),
            key_at(DriveState::Fob, 1, 100),
        ];
        let b = vec![
            key_at(DriveState::Fob, 64, 100),
            key_at(DriveState::Fob, 1, 100),
        ];
        let mut e = PlanTask::new();
        e.set_plan(a.clone());
        run_to_idle(&mut e);
        let started = e.runs_started();
        e.set_plan(b);
        run_to_idle(&mut e);
        assert_eq!(e.runs_started(), started + 1, "only the new depth runs");
        e.set_plan(a);
        run_to_idle(&mut e);
        assert_eq!(e.runs_started(), started + 1, "nothing is recomputed");
    }

    #[test]
    fn a_new_plan_sets_the_stale_run_aside_and_resumes_it_on_return() {
        let old = key_at(DriveState::Fob, 32, 100);
        let new = key_at(DriveState::Fob, 4, 100);
        let mut e = PlanTask::new();
        e.set_plan(vec![old.clone()]);
        e.work(&mut || true); // starts the run, one step
        assert_eq!(e.active(), Some(old.clone()));
        e.set_plan(vec![new.clone()]);
        assert_eq!(e.active(), None, "the old run was set aside");
        run_to_idle(&mut e);
        assert!(e.point(&old).is_none());
        assert!(e.point(&new).is_some());
        let started = e.runs_started();
        e.set_plan(vec![old.clone()]);
        run_to_idle(&mut e);
        assert!(e.point(&old).is_some());
        assert_eq!(e.runs_started(), started, "the set-aside run was resumed");
    }

    #[test]
    fn a_run_still_needed_survives_a_new_plan() {
        let k = key_at(DriveState::Fob, 32, 100);
        let mut e = PlanTask::new();
        e.set_plan(vec![k.clone()]);
        e.work(&mut || true);
        e.set_plan(vec![k.clone(), key_at(DriveState::Fob, 4, 100)]);
        assert_eq!(e.active(), Some(k));
    }

    #[test]
    fn the_garbage_collection_model_is_computed_in_slices() {
        // Steady-state random writes pay it, on a spare area no built-in preset has (theirs
        // are known before any run).
        let mut preset = parallelism_model::presets::find("e18dc").unwrap().clone();
        preset.id = "e18dc-other-spare".into();
        preset.controller.spare_efficiency = 0.57;
        let k = RunKey {
            preset: parallelism_model::presets::PresetRef::made(preset),
            ..key_at(DriveState::Steady, 32, 0)
        };
        let ratio = k.spec().drive.effective_spare_ratio();
        let mut e = PlanTask::new();
        e.set_plan(vec![k.clone()]);
        let first = e.work(&mut || true);
        assert!(first.completed.is_empty() && !first.idle);
        assert_eq!(
            parallelism_model::ftl::cached_steady_write_amplification(ratio),
            None,
            "one slice is not the whole computation"
        );
        run_to_idle(&mut e);
        assert!(parallelism_model::ftl::cached_steady_write_amplification(ratio).is_some());
        assert_eq!(e.point(&k).unwrap().fidelity, Fidelity::Full);
    }

    #[test]
    fn an_estimate_and_its_refinement_are_one_run() {
        // The model measures writes for longer than reads: both still run once.
        let keys = vec![key(), key_at(DriveState::Steady, 32, 0)];
        let mut e = PlanTask::new();
        e.set_plan(keys.clone());
        run_to_idle(&mut e);
        assert_eq!(e.runs_started(), 2);
        assert!(e.parked.is_empty());
        for k in &keys {
            assert_eq!(e.point(k).unwrap().fidelity, Fidelity::Full);
        }
    }

    /// The anatomy arrives with the point, estimate and full result alike: a read-only run's
    /// has reads alone, a mix's both directions, each made of its parts.
    #[test]
    fn a_point_carries_its_runs_anatomy() {
        let reads = key_at(DriveState::Fob, 8, 100);
        let mix = key_at(DriveState::Fob, 8, 70);
        let mut e = PlanTask::new();
        e.set_plan(vec![reads.clone(), mix.clone()]);
        e.work(&mut || false);
        let estimate = e.point(&reads).unwrap();
        assert_eq!(estimate.fidelity, Fidelity::Estimate);
        assert!(estimate.anatomy.reads.is_some(), "an estimate has one too");
        run_to_idle(&mut e);
        let p = e.point(&reads).unwrap();
        let a = p.anatomy.reads.unwrap();
        assert_eq!(p.anatomy.writes, None);
        // A read-only run's mean read is its mean request (the result's, in whole
        // nanoseconds), and a tail's mean is at least the percentile it starts at.
        assert!((f64::from(a.mean.latency_us) - p.mean_us).abs() < 1e-3);
        assert!(f64::from(a.p99.latency_us) >= p.p99_us * (1.0 - 1e-6));
        assert!(a.p999.latency_us >= a.p99.latency_us);
        for b in [a.mean, a.p99, a.p999] {
            let sum: f32 = b.parts_us.iter().sum();
            assert!((sum / b.latency_us - 1.0).abs() < 1e-5, "{b:?}");
        }
        let m = e.point(&mix).unwrap().anatomy;
        assert!(m.reads.is_some() && m.writes.is_some());
    }

    #[test]
    fn a_run_the_model_refuses_is_reported_not_retried() {
        let bad = RunKey {
            iodepth: 0,
            ..key()
        };
        let mut e = PlanTask::new();
        e.set_plan(vec![bad.clone()]);
        run_to_idle(&mut e);
        assert!(
            matches!(e.failure(&bad), Some(RunError::Config(c)) if c.to_string().contains("iodepth 0")),
            "{:?}",
            e.failure(&bad)
        );
        assert_eq!(e.progress().finished, 1);
        assert_eq!(e.runs_started(), 0);
    }

    #[test]
    fn a_slice_stops_when_time_is_up() {
        let mut e = PlanTask::new();
        e.set_plan(vec![key_at(DriveState::Fob, 32, 100)]);
        let slice = e.work(&mut || true);
        assert!(slice.completed.is_empty(), "one step is not a whole run");
        assert!(!slice.idle);
    }

    #[test]
    fn estimates_agree_with_full_runs_to_within_a_few_percent() {
        let k = key();
        let mut e = PlanTask::new();
        e.set_plan(vec![k.clone()]);
        let mut estimate = None;
        while !e.work(&mut || true).idle {
            if estimate.is_none() {
                estimate = e.point(&k).copied();
            }
        }
        let estimate = estimate.expect("an estimate came first");
        let full = e.point(&k).unwrap();
        assert_eq!(estimate.fidelity, Fidelity::Estimate);
        assert_eq!(full.fidelity, Fidelity::Full);
        assert!(
            (estimate.iops / full.iops - 1.0).abs() < 0.1,
            "{} vs {}",
            estimate.iops,
            full.iops
        );
    }

    #[test]
    fn a_rate_runs_as_the_models_sweep_over_offered_load_runs_it() {
        // The page's open-loop point is the one `lab sweep --rate-iops` prints, bit for bit.
        use crate::key::Load;
        use parallelism_model::sweep;
        use parallelism_model::workload::Spacing;
        let closed = RunKey {
            drive: crate::key::DriveChoice {
                dies: 8,
                ..key().drive
            },
            ..key_at(DriveState::Fob, 64, 100)
        };
        let rates = [20_000, 10_000_000];
        let keys: Vec<RunKey> = rates
            .map(|iops| RunKey {
                load: Load::Rate {
                    iops,
                    spacing: Spacing::Poisson,
                },
                ..closed.clone()
            })
            .to_vec();
        let mut e = PlanTask::new();
        e.set_plan(keys.clone());
        run_to_idle(&mut e);
        let s = closed.spec();
        let offered = rates.map(f64::from);
        let model = sweep::over_offered_load(
            &s.drive,
            s.workload,
            s.state,
            s.options,
            None,
            &offered,
            Spacing::Poisson,
        )
        .unwrap();
        for (k, m) in keys.iter().zip(&model) {
            let p = e.point(k).unwrap();
            assert_eq!(p.iops, m.result.iops);
            assert_eq!(p.mean_us, m.result.latency.mean_us);
            assert_eq!(p.in_system, m.result.mean_in_system);
            assert_eq!(p.saturated, m.result.saturated);
        }
        assert!(!e.point(&keys[0]).unwrap().saturated);
        assert!(e.point(&keys[1]).unwrap().saturated, "10M IOPS on 8 dies");
    }
}
