//! Which model runs the page needs, and an [`Engine`] that runs them in short slices with a cache.
//!
//! The page must never block: a full run costs 5-50 ms and the default view needs about sixty.
//! So the engine owns a *plan* (the runs the current [`LabState`] shows, most important first)
//! and [`Engine::work`] advances it until its caller says time is up. Every run first goes only
//! as far as a quick [`Fidelity::Estimate`] (its provisional result once [`ESTIMATE_IOS`]
//! requests are measured) and is then set aside; once every point of the plan has an estimate,
//! the runs are resumed to their end ([`Fidelity::Full`]). So the charts fill in at once and
//! sharpen afterwards, and no simulated request is ever computed twice.
//!
//! What always holds:
//! - the model is deterministic for a seed, so a [`RunKey`] fully identifies a result and a
//!   cached result is reused whenever the reader comes back to a state;
//! - a result is never downgraded: a full result is kept over a later estimate;
//! - [`Engine::set_plan`] sets the run in progress aside unless the new plan still needs it
//!   now, so stale work stops at the next step (and resumes if the reader comes back);
//! - at most [`MAX_PARKED`] runs are set aside; beyond that, those the plan does not need go;
//! - no step blocks for long: even the drive's garbage-collection model is computed in slices
//!   (the model's [`Preparation`]);
//! - nothing here touches the browser: the caller supplies the clock, so the scheduling is
//!   tested natively (the browser loop is [`super::runner`]).

use std::collections::{HashMap, HashSet};

use crate::model::config::{ConfigError, DriveState, RunOptions, RunSpec, Rw, Workload};
use crate::model::power::PowerLimit;
use crate::model::prepare::Preparation;
use crate::model::presets::PresetKey;
use crate::model::stats::{Bottleneck, ProgramWait};
use crate::model::sweep::{MIX_STEPS, REVIEW_QDS};
use crate::model::Simulation;

use super::state::{DriveChoice, LabState, View};

/// Measured I/Os of a quick estimate: a few percent of noise, a fraction of a full run's cost.
pub const ESTIMATE_IOS: u64 = 1_500;
/// Most runs set aside at once (each holds its simulation, tens of KB).
pub const MAX_PARKED: usize = 128;
/// Events processed between two looks at the clock (about 0.1-0.3 ms of work in wasm).
pub const EVENTS_PER_STEP: u64 = 1_000;
/// The cache forgets everything the plan does not need when it grows past this many results
/// (a result is about a hundred bytes, so this is a few MB at most).
pub const MAX_CACHED: usize = 20_000;
/// The model's seed for every run: one seed makes every chart reproducible.
pub const SEED: u64 = 1;

/// How hard a result was worked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fidelity {
    /// [`ESTIMATE_IOS`] measured I/Os: shown first, replaced when the full run is done.
    Estimate,
    /// The model's default run length ([`RunOptions::DEFAULT_MEASURED_IOS`]).
    Full,
}

impl Fidelity {
    /// Measured I/Os after which a run has reached this fidelity (the model may measure more
    /// for a full run, e.g. many write-buffer turnovers for writes).
    pub fn measured_ios(self) -> u64 {
        match self {
            Fidelity::Estimate => ESTIMATE_IOS,
            Fidelity::Full => RunOptions::DEFAULT_MEASURED_IOS,
        }
    }
}

/// One model run, identified by everything that changes its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RunKey {
    pub preset: PresetKey,
    pub drive: DriveChoice,
    pub rw: Rw,
    /// Read percentage (0 or 100 for the pure patterns, so equal runs get equal keys).
    pub read_pct: u8,
    pub bs_bytes: u32,
    pub qd: u32,
    pub state: DriveState,
    /// The active power state the drive is held to (0: PS0, the model's default).
    pub power_state: u8,
}

impl RunKey {
    /// The run of `drive` with the state's workload, at `qd` and `read_pct`.
    pub fn new(state: &LabState, drive: DriveChoice, qd: u32, read_pct: u8) -> RunKey {
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
    pub fn current(state: &LabState) -> RunKey {
        RunKey::new(
            state,
            state.drive.choice(),
            state.workload.qd(),
            state.workload.read_pct(),
        )
    }

    /// The run for this key, measuring `measured_ios`, checked and held to its power state,
    /// ready to be prepared without blocking.
    pub fn prepare(&self, measured_ios: u64) -> Result<Preparation, ConfigError> {
        let prep = Preparation::new(self.spec_measuring(measured_ios))?;
        match self.power_state {
            0 => Ok(prep),
            n => prep.with_power_limit(PowerLimit::State(n)),
        }
    }

    /// The model's run for this key (always the full run; an estimate is its early part).
    pub fn spec(&self) -> RunSpec {
        self.spec_measuring(Fidelity::Full.measured_ios())
    }

    /// The model's run for this key, measuring `measured_ios`: the one place the page builds
    /// a [`RunSpec`] (teaching mode's player and explainer ask here too).
    pub fn spec_measuring(&self, measured_ios: u64) -> RunSpec {
        RunSpec {
            drive: self.drive.drive(self.preset.0),
            workload: Workload {
                rw: self.rw,
                rwmixread: self.read_pct,
                bs_bytes: self.bs_bytes,
                iodepth: self.qd,
            },
            state: self.state,
            options: RunOptions {
                seed: SEED,
                measured_ios,
            },
        }
    }
}

/// What the charts and the readout need from a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub iops: f64,
    pub mb_s: f64,
    pub mean_us: f64,
    pub p99_us: f64,
    pub p999_us: f64,
    pub bottleneck: Bottleneck,
    /// How reads met programs (suspend, or waiting them out).
    pub program_wait: ProgramWait,
    /// Average power over the run (W), and the budget it kept to.
    pub watts: f64,
    pub budget_w: Option<f64>,
    pub fidelity: Fidelity,
}

/// A finished run: its point, or why the model refused it.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Done(Point),
    Failed(String),
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
        .map(|qd| RunKey::new(state, drive, qd, state.workload.read_pct()))
        .collect()
}

/// One drive's runs over the read shares of the reviewers' mixed sweep at the state's depth.
pub fn mix_sweep(state: &LabState, drive: DriveChoice) -> Vec<RunKey> {
    MIX_STEPS
        .iter()
        .map(|&pct| RunKey::new(state, drive, state.workload.qd(), pct))
        .collect()
}

/// Every run the page shows for `state`, most important first: the readout's point, the
/// current drive's sweeps, then the other drives' sweeps, then the pinned configurations'. No
/// key appears twice. While another view hides the queue-depth charts only the readout's point
/// is run, so their sweeps do not compete with that view's own work (they are cached, so coming
/// back costs only what was never computed).
pub fn plan(state: &LabState) -> Vec<RunKey> {
    let current = state.drive.choice();
    let mut keys = vec![RunKey::current(state)];
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

/// How far the plan is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub total: usize,
    /// Points with at least an estimate (or a failure).
    pub estimated: usize,
    /// Points with a full result (or a failure).
    pub finished: usize,
}

/// What one call to [`Engine::work`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slice {
    /// Runs completed in this slice.
    pub completed: usize,
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
pub struct Engine {
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

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    pub fn new() -> Engine {
        Engine {
            cache: HashMap::new(),
            plan: Vec::new(),
            active: None,
            parked: HashMap::new(),
            preparing: None,
            runs_started: 0,
        }
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
            let keep: HashSet<RunKey> = self.plan.iter().copied().collect();
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
            let keep: HashSet<RunKey> = self.plan.iter().copied().collect();
            self.parked.retain(|k, _| keep.contains(k));
        }
    }

    /// The best result so far for `key`.
    pub fn point(&self, key: &RunKey) -> Option<&Point> {
        match self.cache.get(key) {
            Some(Outcome::Done(p)) => Some(p),
            _ => None,
        }
    }

    /// Why the model refused `key`, if it did.
    pub fn failure(&self, key: &RunKey) -> Option<&str> {
        match self.cache.get(key) {
            Some(Outcome::Failed(why)) => Some(why),
            _ => None,
        }
    }

    /// Runs started since the engine was made (for tests and diagnostics).
    pub fn runs_started(&self) -> u64 {
        self.runs_started
    }

    pub fn progress(&self) -> Progress {
        let mut p = Progress {
            total: self.plan.len(),
            ..Progress::default()
        };
        for key in &self.plan {
            match self.cache.get(key) {
                Some(Outcome::Done(pt)) if pt.fidelity == Fidelity::Estimate => p.estimated += 1,
                Some(_) => {
                    p.estimated += 1;
                    p.finished += 1;
                }
                None => {}
            }
        }
        p
    }

    /// The next run to do: the first point without any result, else the first estimate to
    /// refine.
    fn next_job(&self) -> Option<(RunKey, Fidelity)> {
        if let Some(k) = self.plan.iter().find(|k| !self.cache.contains_key(k)) {
            return Some((*k, Fidelity::Estimate));
        }
        self.plan
            .iter()
            .find(|k| {
                matches!(self.cache.get(k), Some(Outcome::Done(p)) if p.fidelity == Fidelity::Estimate)
            })
            .map(|k| (*k, Fidelity::Full))
    }

    /// Works on the plan until `time_is_up` returns true (checked after every
    /// [`EVENTS_PER_STEP`] events and after each one-off preparation) or nothing is left.
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
                    match self.start(key, time_is_up) {
                        Start::Running(sim) => {
                            self.runs_started += 1;
                            self.active = Some(Active {
                                key,
                                goal,
                                sim: *sim,
                            });
                        }
                        Start::Refused(why) => {
                            self.cache.insert(key, Outcome::Failed(why));
                            slice.completed += 1;
                            continue;
                        }
                        Start::OutOfTime => return slice,
                    }
                }
            }
            if let Some(active) = &mut self.active {
                let finished = active.sim.step(EVENTS_PER_STEP);
                // Results are only read when they may be wanted: at the end, or while an
                // estimate is due.
                let reached = finished
                    || (active.goal == Fidelity::Estimate
                        && active.sim.result().measured_ios >= ESTIMATE_IOS);
                if reached {
                    let r = active.sim.result();
                    let point = Point {
                        iops: r.iops,
                        mb_s: r.bw_mb_s,
                        mean_us: r.latency.mean_us,
                        p99_us: r.latency.p99_us,
                        p999_us: r.latency.p999_us,
                        bottleneck: r.bottleneck,
                        program_wait: r.program_wait(),
                        watts: r.power.average_w,
                        budget_w: r.power.budget_w,
                        fidelity: if finished {
                            Fidelity::Full
                        } else {
                            Fidelity::Estimate
                        },
                    };
                    let keep_old = matches!(
                        self.cache.get(&active.key),
                        Some(Outcome::Done(old)) if old.fidelity > point.fidelity
                    );
                    if !keep_old {
                        self.cache.insert(active.key, Outcome::Done(point));
                    }
                    if finished {
                        self.active = None;
                    } else {
                        // Estimated: set aside until every point has its estimate.
                        self.park_active();
                        self.trim_parked();
                    }
                    slice.completed += 1;
                }
            }
            if time_is_up() {
                return slice;
            }
        }
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
                Err(why) => return Start::Refused(why.to_string()),
            },
        };
        let start = match prep.work_until(time_is_up) {
            Ok(Some(run)) => Start::Running(Box::new(Simulation::new(run))),
            Ok(None) => return Start::OutOfTime,
            Err(why) => Start::Refused(why.to_string()),
        };
        self.preparing = None;
        start
    }
}

/// What [`Engine::start`] came to.
enum Start {
    Running(Box<Simulation>),
    Refused(String),
    /// Still computing the write amplification; try again next slice.
    OutOfTime,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Works until idle, one step per slice, and returns how many slices it took.
    fn run_to_idle(engine: &mut Engine) -> usize {
        let mut slices = 0;
        while !engine.work(&mut || true).idle {
            slices += 1;
            assert!(slices < 10_000_000, "the engine never went idle");
        }
        slices
    }

    fn small_state() -> LabState {
        let mut s = LabState::default();
        s.workload.set_drive_state(DriveState::Fob);
        s
    }

    #[test]
    fn the_default_plan_starts_with_the_readout_point_and_covers_three_drives() {
        let s = LabState::default();
        let p = plan(&s);
        assert_eq!(p[0], RunKey::current(&s));
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
            assert_eq!(plan(&s), vec![RunKey::current(&s)], "{view:?}");
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
    fn every_point_gets_an_estimate_before_any_is_refined() {
        let s = small_state();
        let keys = plan(&s)[..3].to_vec();
        let mut e = Engine::new();
        e.set_plan(keys.clone());
        let mut fidelities = Vec::new();
        while !e.work(&mut || false).idle {}
        // Replay to see the order: a fresh engine, one completed run at a time.
        let mut e2 = Engine::new();
        e2.set_plan(keys.clone());
        loop {
            let slice = e2.work(&mut || true);
            if slice.completed > 0 {
                let p = e2.progress();
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

    #[test]
    fn coming_back_to_a_state_reuses_the_cache() {
        let mut s = small_state();
        let mut e = Engine::new();
        e.set_plan(plan(&s)[..2].to_vec());
        run_to_idle(&mut e);
        let started = e.runs_started();
        s.workload.set_qd(64);
        e.set_plan(plan(&s)[..2].to_vec());
        run_to_idle(&mut e);
        assert!(e.runs_started() > started);
        let started = e.runs_started();
        s.workload.set_qd(32);
        e.set_plan(plan(&s)[..2].to_vec());
        run_to_idle(&mut e);
        assert_eq!(e.runs_started(), started, "nothing is recomputed");
    }

    #[test]
    fn a_new_plan_sets_the_stale_run_aside_and_resumes_it_on_return() {
        let s = small_state();
        let mut e = Engine::new();
        e.set_plan(vec![RunKey::current(&s)]);
        e.work(&mut || true); // starts the run, one step
        assert!(e.active.is_some());
        let mut other = s.clone();
        other.workload.set_qd(4);
        e.set_plan(vec![RunKey::current(&other)]);
        assert!(e.active.is_none(), "the old run was set aside");
        run_to_idle(&mut e);
        assert!(e.point(&RunKey::current(&s)).is_none());
        assert!(e.point(&RunKey::current(&other)).is_some());
        let started = e.runs_started();
        e.set_plan(vec![RunKey::current(&s)]);
        run_to_idle(&mut e);
        assert!(e.point(&RunKey::current(&s)).is_some());
        assert_eq!(e.runs_started(), started, "the set-aside run was resumed");
    }

    #[test]
    fn a_run_still_needed_survives_a_new_plan() {
        let s = small_state();
        let key = RunKey::current(&s);
        let mut e = Engine::new();
        e.set_plan(vec![key]);
        e.work(&mut || true);
        let mut other = s.clone();
        other.workload.set_qd(4);
        e.set_plan(vec![key, RunKey::current(&other)]);
        assert!(e.active.as_ref().is_some_and(|a| a.key == key));
    }

    #[test]
    fn the_garbage_collection_model_is_computed_in_slices() {
        let mut s = LabState::default();
        s.workload.set_read_pct(0); // steady-state random writes pay it
        let key = RunKey::current(&s);
        let ratio = key.spec().drive.effective_spare_ratio();
        let mut e = Engine::new();
        e.set_plan(vec![key]);
        let first = e.work(&mut || true);
        assert_eq!((first.completed, first.idle), (0, false));
        assert_eq!(
            crate::model::ftl::cached_steady_write_amplification(ratio),
            None,
            "one slice is not the whole computation"
        );
        run_to_idle(&mut e);
        assert!(crate::model::ftl::cached_steady_write_amplification(ratio).is_some());
        assert_eq!(e.point(&key).unwrap().fidelity, Fidelity::Full);
    }

    #[test]
    fn an_estimate_and_its_refinement_are_one_run() {
        let s = LabState::default(); // steady-state random reads
        let mut write = s.clone();
        write.workload.set_read_pct(0); // the model measures writes for longer
        let keys = vec![RunKey::current(&s), RunKey::current(&write)];
        let mut e = Engine::new();
        e.set_plan(keys.clone());
        run_to_idle(&mut e);
        assert_eq!(e.runs_started(), 2);
        assert!(e.parked.is_empty());
        for k in &keys {
            assert_eq!(e.point(k).unwrap().fidelity, Fidelity::Full);
        }
    }

    #[test]
    fn a_run_the_model_refuses_is_reported_not_retried() {
        let s = small_state();
        let mut bad = RunKey::current(&s);
        bad.qd = 0;
        let mut e = Engine::new();
        e.set_plan(vec![bad]);
        run_to_idle(&mut e);
        assert!(e.failure(&bad).unwrap().contains("iodepth 0"));
        assert_eq!(e.progress().finished, 1);
        assert_eq!(e.runs_started(), 0);
    }

    #[test]
    fn a_slice_stops_when_time_is_up() {
        let s = small_state();
        let mut e = Engine::new();
        e.set_plan(vec![RunKey::current(&s)]);
        let slice = e.work(&mut || true);
        assert_eq!(slice.completed, 0, "one step is not a whole run");
        assert!(!slice.idle);
    }

    #[test]
    fn estimates_agree_with_full_runs_to_within_a_few_percent() {
        let s = LabState::default();
        let key = RunKey::current(&s);
        let mut e = Engine::new();
        e.set_plan(vec![key]);
        let mut estimate = None;
        while !e.work(&mut || true).idle {
            if estimate.is_none() {
                estimate = e.point(&key).copied();
            }
        }
        let estimate = estimate.expect("an estimate came first");
        let full = e.point(&key).unwrap();
        assert_eq!(estimate.fidelity, Fidelity::Estimate);
        assert_eq!(full.fidelity, Fidelity::Full);
        assert!(
            (estimate.iops / full.iops - 1.0).abs() < 0.1,
            "{} vs {}",
            estimate.iops,
            full.iops
        );
    }
}
