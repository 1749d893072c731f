//! Fitting as code: the parameters a preset marks as *fitted*, the ranges `lab fit` searches
//! them in, and the search itself.
//!
//! A fitted parameter is one value of the controller or its flash that no spec sheet gives, chosen
//! once for every capacity of a preset against published measurements. Each names the field it
//! sets, the bounds of the search and the resolution the search stops at, so nobody hand-tunes a
//! preset: the preset's value is what the search finds on the preset's reference data.
//!
//! Shape of the search, and why:
//! - The objective of a preset's calibration is the largest absolute relative error over the
//!   cells, ties (within [`TIE`]) broken by the mean: the lab promises a worst cell, so the fit
//!   minimises exactly that. A fit of a reader's own fio results minimises a robust error
//!   instead ([`Objective::Robust`]): real data has odd cells, and a minimax fit lets one of
//!   them drag every parameter, where a robust one lets it go and names it.
//! - Every value lives on a lattice, `lo + i * step` for whole `i`, so a point is a vector of
//!   integers. The engine is deterministic for a seed, so a point's per-cell model values are
//!   memoised by those integers and no point is ever run twice: the refinement revisits its
//!   neighbours all the time, and leave-one-out's folds start where the full fit ended and mostly
//!   ask for points it has already run.
//! - Deterministic: a coarse per-parameter scan over the bounds, starting from the preset's own
//!   values (usually near the optimum, and the fit never returns anything worse), then a
//!   pattern search that halves its steps down to one lattice step, then moves of two
//!   parameters at once where single moves are stuck. No random restarts, and the split of runs
//!   over threads changes no value, so two runs of `lab fit` print the same thing.
//! - Leave-one-out refits once per cell, each fold a pattern search from the full fit's point
//!   with small first steps: the folds share the memo, so a fold whose optimum does not move
//!   costs no engine run at all.
//! - All model values come from one place, [`Evaluator::evaluate`]; the engine runs of one
//!   point are spread over [`FitOptions::threads`] threads (scoped, so nothing outlives the call).

use std::collections::HashMap;
use std::fmt;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

use crate::calibration::{Depth, Measurement};
use crate::config::{ConfigError, DriveSpec, Fitted, Param, RunOptions};
use crate::ftl::steady_write_amplification;
use crate::presets::Preset;
use crate::run::{CheckedRun, RunError};
use crate::stats::{self, Figure, RunResult, Unsound};
use crate::workload::StreamsSpec;
use crate::Simulation;

/// Two objective values closer than this are a tie, which the mean error breaks.
pub const TIE: f64 = 1e-9;

/// Threads an evaluation uses unless told otherwise: this lab's machines have two cores, and a
/// browser has no threads.
pub(crate) const DEFAULT_THREADS: usize = if cfg!(target_arch = "wasm32") { 1 } else { 2 };

/// How a fit runs the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FitOptions {
    /// Seed and measured I/Os of every engine run.
    pub run: RunOptions,
    /// Threads one evaluation spreads its engine runs over (1: the calling thread only).
    pub threads: usize,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            run: RunOptions::default(),
            threads: DEFAULT_THREADS,
        }
    }
}

/// The objective: worst and mean absolute relative error over the cells that count, the mean
/// square (a smooth stand-in a first search can follow down a valley), and the robust error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    pub max_err: f64,
    pub mean_err: f64,
    pub mean_sq_err: f64,
    /// The typical error under a Cauchy loss of the errors in log space: the error every cell
    /// would have for the same total loss. Cells far beyond [`ROBUST_SCALE`] add little to it,
    /// so a few odd cells cannot move a fit that minimises it.
    pub robust_err: f64,
}

/// The scale of the robust loss: cells within it count about as squares do, cells far beyond
/// it only logarithmically. 15%: what the lab asks of a fit of a reader's drive (most cells
/// within 15%; see `custom::EXPLAINS_WITHIN`).
pub const ROBUST_SCALE: f64 = 0.15;

/// What a search minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// The worst cell, ties broken by the mean: what the lab promises.
    Worst,
    /// The mean squared error, ties broken by the worst.
    Squares,
    /// The robust error ([`Score::robust_err`]), ties broken by the worst.
    Robust,
}

impl Score {
    /// The score of signed errors (a cell the model cannot run counts as infinitely wrong).
    ///
    /// ```
    /// use parallelism_model::fit::Score;
    /// // Nine cells 5% off and one 200% off: the worst is the odd cell, the mean 24.5%; the
    /// // robust error stays within its 15% scale.
    /// let s = Score::of([0.05; 9].into_iter().chain([2.0]));
    /// assert_eq!(s.max_err, 2.0);
    /// assert!((s.mean_err - 0.245).abs() < 1e-12);
    /// assert!(s.robust_err < 0.15, "{}", s.robust_err);
    /// // Every cell equally off: the robust error is that error.
    /// assert!((Score::of([0.1, -0.1 / 1.1]).robust_err - 0.1).abs() < 1e-12);
    /// ```
    pub fn of(errors: impl IntoIterator<Item = f64>) -> Score {
        let (mut max, mut sum, mut sq, mut loss, mut n) = (0.0f64, 0.0, 0.0, 0.0, 0usize);
        let scale = ROBUST_SCALE.ln_1p();
        for e in errors {
            // In log space a cell at half the measured value is as wrong as one at twice it.
            let log = if e > -1.0 { e.ln_1p() } else { f64::INFINITY };
            let e = if e.is_nan() { f64::INFINITY } else { e.abs() };
            max = max.max(e);
            sum += e;
            sq += e * e;
            loss += (log / scale).powi(2).ln_1p();
            n += 1;
        }
        let per = |total: f64| if n == 0 { 0.0 } else { total / n as f64 };
        Score {
            max_err: max,
            mean_err: per(sum),
            mean_sq_err: per(sq),
            robust_err: (scale * per(loss).exp_m1().sqrt()).exp_m1(),
        }
    }

    /// The figure `objective` minimises first.
    pub fn primary(&self, objective: Objective) -> f64 {
        match objective {
            Objective::Worst => self.max_err,
            Objective::Squares => self.mean_sq_err,
            Objective::Robust => self.robust_err,
        }
    }

    /// Strictly better under `objective`: a smaller first figure, or (within [`TIE`]) the same
    /// first figure and a smaller second.
    pub(crate) fn better_than(&self, other: &Score, objective: Objective) -> bool {
        let (a, b) = (self.primary(objective), other.primary(objective));
        let (a2, b2) = match objective {
            Objective::Worst => (self.mean_err, other.mean_err),
            Objective::Squares | Objective::Robust => (self.max_err, other.max_err),
        };
        if (a - b).abs() <= TIE {
            a2 < b2
        } else {
            a < b
        }
    }
}

/// What one search aims at: the objective, over every cell but `skip`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Goal {
    skip: Option<usize>,
    objective: Objective,
    /// A parameter (by index) the search leaves where it starts.
    held: Option<usize>,
}

impl Goal {
    /// Every cell, by `objective`, nothing held.
    fn all(objective: Objective) -> Goal {
        Goal {
            skip: None,
            objective,
            held: None,
        }
    }

    fn moves(&self, j: usize) -> bool {
        self.held != Some(j)
    }
}

/// Signed relative error of a model value (NaN when the model could not run the cell).
fn error(model: f64, measured: f64) -> f64 {
    model / measured - 1.0
}

/// Fitted parameter values, in the preset's order (serialized as a JSON object in that order).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParamValues(pub Vec<(Param, f64)>);

impl ParamValues {
    pub fn get(&self, param: Param) -> Option<f64> {
        self.0.iter().find(|(p, _)| *p == param).map(|(_, v)| *v)
    }
}

impl Serialize for ParamValues {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (p, v) in &self.0 {
            map.serialize_entry(&p.to_string(), v)?;
        }
        map.end()
    }
}

/// Reads the object [`ParamValues`] writes, keeping its order.
impl<'de> Deserialize<'de> for ParamValues {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ParamValues, D::Error> {
        struct InOrder;
        impl<'de> Visitor<'de> for InOrder {
            type Value = ParamValues;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of fitted parameter names and values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ParamValues, A::Error> {
                let mut values = Vec::new();
                while let Some((param, value)) = map.next_entry::<Param, f64>()? {
                    values.push((param, value));
                }
                Ok(ParamValues(values))
            }
        }
        d.deserialize_map(InOrder)
    }
}

/// One cell with the model's value for it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellFit {
    pub cell: Measurement,
    pub model: f64,
}

impl CellFit {
    /// `model / measured - 1` (NaN when the model could not run the cell).
    pub fn err(&self) -> f64 {
        error(self.model, self.cell.value)
    }
}

/// The JSON shape `lab fit` documents: fio's names for the pattern, the block size in bytes,
/// the depth as a number or "peak", and the rate an open-loop cell's requests arrived at (fio's
/// `rate_iops`; null for a closed loop).
impl Serialize for CellFit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let c = &self.cell;
        let mut o = s.serialize_struct("CellFit", 10)?;
        o.serialize_field("capacity_gb", &c.capacity_gb)?;
        o.serialize_field("rw", c.rw.fio_name())?;
        o.serialize_field("bs", &c.bs_bytes)?;
        match c.depth {
            Depth::Iodepth(q) | Depth::Rate { iodepth: q, .. } => {
                o.serialize_field("iodepth", &q)?
            }
            Depth::Peak => o.serialize_field("iodepth", "peak")?,
        }
        let rate = match c.depth {
            Depth::Rate { iops, .. } => Some(iops),
            Depth::Iodepth(_) | Depth::Peak => None,
        };
        o.serialize_field("rate_iops", &rate)?;
        o.serialize_field("rwmixread", &c.rwmixread)?;
        o.serialize_field("metric", c.metric.id())?;
        o.serialize_field("measured", &c.value)?;
        o.serialize_field("model", &self.model)?;
        o.serialize_field("err", &self.err())?;
        o.end()
    }
}

/// What a fit found: the values, and the model against every cell with them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitReport {
    pub params: ParamValues,
    pub cells: Vec<CellFit>,
    pub max_err: f64,
    pub mean_err: f64,
    /// The robust error ([`Score::robust_err`]): what a fit of a reader's drive minimises.
    pub robust_err: f64,
    /// Leave-one-out cross-validation, when asked for ([`fit_with_loo`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loo: Option<LooReport>,
    /// The parameters the cells pin down, when asked for ([`Evaluator::try_identified`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identified: Option<Vec<Param>>,
    /// Points the engine ran (memo misses) for this report, leave-one-out included.
    #[serde(skip)]
    pub evaluations: usize,
}

/// A fitted value that is further than one step from the preset's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Disagreement {
    pub param: Param,
    pub preset: f64,
    pub fit: f64,
    pub step: f64,
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: preset {}, fit {} (step {})",
            self.param, self.preset, self.fit, self.step
        )
    }
}

impl FitReport {
    /// Every fitted value and every cell's model value finite and at or above zero, so every
    /// error is a number (see [`crate::stats::check`]); a cell the model could not run fails
    /// it, named.
    pub fn check(&self) -> Result<(), Unsound> {
        let params =
            (self.params.0.iter()).map(|(p, v)| (Figure::named(format!("the fitted {p}")), *v));
        let cells = self.cells.iter().map(|c| {
            let m = &c.cell;
            let what = format!(
                "the model's {} for {} of {} bytes",
                m.metric.id(),
                m.rw.fio_name(),
                m.bs_bytes
            );
            (Figure::named(what), c.model)
        });
        stats::figures(params.chain(cells))
    }

    /// The fitted value of `param`.
    pub fn value(&self, param: Param) -> Option<f64> {
        self.params.get(param)
    }

    /// `drive` with the fitted values.
    pub fn apply(&self, drive: &DriveSpec) -> DriveSpec {
        let mut d = drive.clone();
        for &(param, v) in &self.params.0 {
            param.set(&mut d, v);
        }
        d
    }

    /// The preset's fitted values that this fit puts more than one step away: empty when the
    /// preset holds what the search finds (the check a preset's test makes).
    pub fn disagreements(&self, preset: &Preset) -> Vec<Disagreement> {
        let drive = preset.default_drive();
        preset
            .fitted
            .iter()
            .filter_map(|f| {
                let fit = self.value(f.param)?;
                let current = f.param.get(&drive);
                let d = Disagreement {
                    param: f.param,
                    preset: current,
                    fit,
                    step: f.step,
                };
                ((current - fit).abs() > f.step * (1.0 + 1e-9)).then_some(d)
            })
            .collect()
    }
}

/// Leave-one-out cross-validation: each cell predicted by a fit that did not see it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LooReport {
    pub max_err: f64,
    pub mean_err: f64,
    /// Every cell; `model` is the prediction of the fold that left it out.
    pub cells: Vec<CellFit>,
    /// Each fold's values, in cell order.
    #[serde(skip)]
    pub folds: Vec<ParamValues>,
}

/// Fit `preset`'s fitted parameters to `cells`. Fails (before any search) when a cell is not a
/// run the preset can make, or the preset's bounds are not a lattice.
pub fn fit(
    preset: &Preset,
    cells: &[Measurement],
    options: FitOptions,
) -> Result<FitReport, RunError> {
    let mut e = Evaluator::new(preset, cells, options)?;
    let report = e.fit();
    report.check()?;
    Ok(report)
}

/// [`fit`], then leave-one-out cross-validation sharing its memo (`report.loo` is set).
pub fn fit_with_loo(
    preset: &Preset,
    cells: &[Measurement],
    options: FitOptions,
) -> Result<FitReport, RunError> {
    let mut e = Evaluator::new(preset, cells, options)?;
    let mut report = e.fit();
    report.loo = Some(e.leave_one_out(&report));
    report.evaluations = e.evaluations();
    report.check()?;
    Ok(report)
}

/// Coarse scan: points per parameter across its bounds, ends included.
const COARSE_POINTS: i64 = 9;
/// Each leave-one-out fold starts its pattern search with steps of this many lattice units.
const LOO_FIRST_STEP: i64 = 2;
/// A parameter is identified by the cells when holding it this fraction of its value (or one
/// lattice step, if that is more) away either way, the others refitted, worsens the objective's
/// error (the worst cell's, or the robust error) by [`IDENTIFIED_RISE`] (see
/// [`Evaluator::try_identified`]).
pub const IDENTIFY_MOVE: f64 = 0.05;
/// See [`IDENTIFY_MOVE`]: one percentage point, above the model's run-to-run noise.
pub const IDENTIFIED_RISE: f64 = 0.01;

/// A lattice point a search needs and the memo does not hold yet: what runs next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing(pub Vec<i64>);

/// What a search found, or the point it must see first.
pub(crate) type Searched<T> = Result<T, Missing>;

/// The engine runs one lattice point needs: each distinct run once, and which of them each cell
/// reads (an IOPS cell and a latency cell of the same job share their run).
#[derive(Clone, Debug)]
pub struct PointPlan {
    pub point: Vec<i64>,
    /// Distinct runs, in the order cells first use them.
    pub runs: Vec<StreamsSpec>,
    /// For each cell, its runs (indices into `runs`), or `None` when the drive at this point
    /// cannot make the cell at all.
    reads: Vec<Option<Vec<usize>>>,
}

/// The model at lattice points of a preset's fitted parameters, memoised; and the searches
/// built on it.
///
/// The searches are pure functions of the memo: each either finishes or names the first point
/// it needs that the memo lacks ([`Missing`]). A caller evaluates that point and asks again,
/// and the search replays from the start through points it has already seen, which costs a
/// few microseconds each against milliseconds for a point. [`fit`](Self::fit) loops so on one
/// thread; a page runs the same loop in slices, a point's runs stepped a few thousand events at
/// a time ([`plan`](Self::plan), then [`record`](Self::record)), and lands on the values `lab fit`
/// prints, because both ask the same search the same questions.
pub struct Evaluator {
    /// The parameters searched, with their bounds.
    fitted: Arc<[Fitted]>,
    /// The drive the search starts from, and whose die count cells without a capacity use.
    start: DriveSpec,
    cells: Vec<Measurement>,
    options: FitOptions,
    memo: HashMap<Vec<i64>, Vec<f64>>,
    /// Wall time of each engine run of the last evaluation, for ordering the next one's work.
    costs: Vec<f64>,
    /// Whether the pattern search also follows valleys ([`Evaluator::follow_valleys`]).
    valleys: bool,
    /// What the search minimises: the worst cell unless [`Evaluator::robust`].
    objective: Objective,
}

impl Evaluator {
    /// An evaluator of `preset`'s fitted parameters over cells that name their capacity.
    pub fn new(
        preset: &Preset,
        cells: &[Measurement],
        options: FitOptions,
    ) -> Result<Evaluator, ConfigError> {
        Self::starting_at(preset.fitted, preset.default_drive(), cells, options)
    }

    /// An evaluator whose search starts at `start` (its controller, flash and die count), with
    /// `fitted` as the parameters. Checks the bounds and that every cell is a run the start
    /// drive can make.
    pub(crate) fn starting_at(
        fitted: &[Fitted],
        start: DriveSpec,
        cells: &[Measurement],
        options: FitOptions,
    ) -> Result<Evaluator, ConfigError> {
        if cells.is_empty() {
            return Err(ConfigError::Malformed {
                what: "measurements".into(),
                value: String::new(),
                why: "no cells to fit".into(),
            });
        }
        for f in fitted {
            f.check()?;
        }
        for c in cells {
            c.runs(&start, options.run)
                .map_err(|e| ConfigError::Malformed {
                    what: "measurement".into(),
                    value: c.label(),
                    why: e.to_string(),
                })?;
        }
        Ok(Evaluator {
            fitted: fitted.into(),
            start,
            cells: cells.to_vec(),
            options,
            memo: HashMap::new(),
            costs: Vec::new(),
            valleys: false,
            objective: Objective::Worst,
        })
    }

    /// For spaces whose parameters trade off against each other: the fit first follows the mean
    /// squared error down its valley, and every pattern search also makes Hooke and Jeeves's
    /// pattern moves (see `valley_move`). Off for the presets' calibrations, whose values are
    /// what the plain search finds.
    pub(crate) fn follow_valleys(mut self) -> Evaluator {
        self.valleys = true;
        self
    }

    /// This evaluator minimising the robust error ([`Objective::Robust`]) in place of the
    /// worst cell: for measurements that may hold odd cells (a reader's own fio runs), which
    /// the report then names rather than fits.
    pub(crate) fn robust(mut self) -> Evaluator {
        self.objective = Objective::Robust;
        self
    }

    /// The parameters searched, with their bounds (shared, so a search holds them while it
    /// records points).
    pub fn fitted(&self) -> Arc<[Fitted]> {
        Arc::clone(&self.fitted)
    }

    pub fn cells(&self) -> &[Measurement] {
        &self.cells
    }

    /// Points the engine has run (the memo's size).
    pub fn evaluations(&self) -> usize {
        self.memo.len()
    }

    /// The lattice point nearest the start drive's values.
    pub fn preset_point(&self) -> Vec<i64> {
        self.fitted()
            .iter()
            .map(|f| f.index_of(f.param.get(&self.start)))
            .collect()
    }

    /// The lattice point nearest `values` (parameters they do not name: the start drive's).
    pub(crate) fn point_of(&self, values: &ParamValues) -> Vec<i64> {
        self.fitted()
            .iter()
            .map(|f| {
                let v = values
                    .get(f.param)
                    .unwrap_or_else(|| f.param.get(&self.start));
                f.index_of(v)
            })
            .collect()
    }

    /// The parameter values of a lattice point.
    pub fn values(&self, point: &[i64]) -> ParamValues {
        ParamValues(
            self.fitted()
                .iter()
                .zip(point)
                .map(|(f, &i)| (f.param, f.value_at(i)))
                .collect(),
        )
    }

    /// The start drive with the values of a lattice point.
    pub fn drive_at(&self, point: &[i64]) -> DriveSpec {
        let mut d = self.start.clone();
        for (f, &i) in self.fitted().iter().zip(point) {
            f.param.set(&mut d, f.value_at(i));
        }
        d
    }

    /// The runs a point needs; nothing runs yet.
    pub fn plan(&self, point: &[i64]) -> PointPlan {
        let drive = self.drive_at(point);
        let mut runs: Vec<StreamsSpec> = Vec::new();
        let reads = self
            .cells
            .iter()
            .map(|cell| {
                let specs = cell.specs(&drive, self.options.run).ok()?;
                let mine = specs
                    .into_iter()
                    .map(|spec| match runs.iter().position(|r| *r == spec) {
                        Some(k) => k,
                        None => {
                            runs.push(spec);
                            runs.len() - 1
                        }
                    })
                    .collect();
                Some(mine)
            })
            .collect();
        PointPlan {
            point: point.to_vec(),
            runs,
            reads,
        }
    }

    /// Keep a point's model values, given the results of its plan's runs in order (`None` for
    /// a run the engine refused: its cells count as infinitely wrong).
    pub fn record(&mut self, plan: &PointPlan, results: &[Option<RunResult>]) {
        let values = self
            .cells
            .iter()
            .zip(&plan.reads)
            .map(|(cell, reads)| {
                let Some(reads) = reads else {
                    return f64::NAN;
                };
                let mine: Option<Vec<&RunResult>> = reads
                    .iter()
                    .map(|&k| results.get(k).and_then(Option::as_ref))
                    .collect();
                mine.map_or(f64::NAN, |rs| cell.value_of(rs))
            })
            .collect();
        self.memo.insert(plan.point.clone(), values);
    }

    /// The model's value for every cell at a lattice point, in cell order (NaN for a cell the
    /// model cannot run with these values), running the point if the memo lacks it.
    pub fn evaluate(&mut self, point: &[i64]) -> &[f64] {
        if !self.memo.contains_key(point) {
            let plan = self.plan(point);
            let checked: Vec<Option<CheckedRun>> = plan
                .runs
                .iter()
                .map(|spec| {
                    let run = spec.clone().check().ok()?;
                    with_steady_write_amplification(run).ok()
                })
                .collect();
            let ready: Vec<CheckedRun> = checked.iter().flatten().cloned().collect();
            let mut results = self.run_jobs(&ready).into_iter();
            let results: Vec<Option<RunResult>> = checked
                .iter()
                .map(|c| c.as_ref().and_then(|_| results.next().flatten()))
                .collect();
            self.record(&plan, &results);
        }
        &self.memo[point]
    }

    /// Run every job, spreading them over the threads longest first (by the last evaluation's
    /// times: a peak cell is four runs and deep write queues run longest, so a fixed split
    /// would leave one core idle).
    fn run_jobs(&mut self, jobs: &[CheckedRun]) -> Vec<Option<RunResult>> {
        let threads = self.options.threads.clamp(1, jobs.len().max(1));
        if threads == 1 {
            return jobs.iter().map(|j| Simulation::run(j).ok()).collect();
        }
        let mut order: Vec<usize> = (0..jobs.len()).collect();
        if self.costs.len() == jobs.len() {
            order.sort_by(|&a, &b| self.costs[b].total_cmp(&self.costs[a]));
        }
        let next = AtomicUsize::new(0);
        let work = || {
            let mut done = Vec::new();
            loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&j) = order.get(k) else {
                    return done;
                };
                let t = std::time::Instant::now();
                let r = Simulation::run(&jobs[j]).ok();
                done.push((j, r, t.elapsed().as_secs_f64()));
            }
        };
        let mut finished = std::thread::scope(|s| {
            let helpers: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
            let mut all = work();
            for h in helpers {
                all.extend(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
            }
            all
        });
        finished.sort_by_key(|(j, _, _)| *j);
        self.costs = finished.iter().map(|(_, _, t)| *t).collect();
        finished.into_iter().map(|(_, r, _)| r).collect()
    }

    /// Answer a search by running each point it asks for, until it finishes.
    pub fn settle<T>(&mut self, search: impl Fn(&Evaluator) -> Searched<T>) -> T {
        loop {
            match search(self) {
                Ok(done) => return done,
                Err(Missing(point)) => {
                    self.evaluate(&point);
                }
            }
        }
    }

    /// The memo's values at a point, or the point as [`Missing`].
    pub fn known(&self, point: &[i64]) -> Searched<&[f64]> {
        self.memo
            .get(point)
            .map(Vec::as_slice)
            .ok_or_else(|| Missing(point.to_vec()))
    }

    /// The objective at a point over every cell but `skip`.
    pub fn score(&self, point: &[i64], skip: Option<usize>) -> Searched<Score> {
        let values = self.known(point)?;
        Ok(Score::of(
            self.cells
                .iter()
                .zip(values)
                .enumerate()
                .filter(|(i, _)| Some(*i) != skip)
                .map(|(_, (c, &m))| error(m, c.value)),
        ))
    }

    /// The fit, running every point it needs: see [`try_fit`](Self::try_fit).
    pub fn fit(&mut self) -> FitReport {
        self.settle(Evaluator::try_fit)
    }

    /// The fit: a coarse scan from the start drive's values, then a pattern search down to each
    /// parameter's step.
    pub fn try_fit(&self) -> Searched<FitReport> {
        let start = self.preset_point();
        let first: Vec<i64> = self
            .fitted()
            .iter()
            .map(|f| (f.last_index() / (2 * (COARSE_POINTS - 1))).max(1))
            .collect();
        let from = if self.valleys {
            // Down the valley on the smooth objective first, where one parameter's move can
            // pay for another's; then the worst cell from there.
            let smooth = Goal {
                objective: Objective::Squares,
                ..Goal::all(self.objective)
            };
            let coarse = self.coarse_scan(start, smooth)?;
            self.pattern_search(coarse, smooth, first.clone(), true)?
        } else {
            self.coarse_scan(start, Goal::all(self.objective))?
        };
        let best = self.pattern_search(from, Goal::all(self.objective), first, true)?;
        self.report(&best)
    }

    /// The report of a point: its values and the model against every cell.
    pub fn report(&self, point: &[i64]) -> Searched<FitReport> {
        let model = self.known(point)?;
        let cells: Vec<CellFit> = self
            .cells
            .iter()
            .zip(model)
            .map(|(&cell, &model)| CellFit { cell, model })
            .collect();
        let score = Score::of(cells.iter().map(CellFit::err));
        Ok(FitReport {
            params: self.values(point),
            cells,
            max_err: score.max_err,
            mean_err: score.mean_err,
            robust_err: score.robust_err,
            loo: None,
            identified: None,
            evaluations: self.evaluations(),
        })
    }

    /// The fitted parameters the cells pin down at `report`'s values: those that, held
    /// [`IDENTIFY_MOVE`] away either way while the others are refitted around them (by the
    /// search's own objective), cost at least [`IDENTIFIED_RISE`] of worst error over the cells
    /// the fit explains (a robust fit's outliers, beyond [`ROBUST_SCALE`], pin nothing).
    /// (Moving one parameter alone is not enough: two that trade off, such as the die count
    /// and the read time, each move the cells, yet together they slide along a valley the
    /// cells cannot tell apart.)
    pub fn try_identified(&self, report: &FitReport) -> Searched<Vec<Param>> {
        let at = self.point_of(&report.params);
        let explained: Vec<bool> = match self.objective {
            Objective::Robust => report
                .cells
                .iter()
                .map(|c| c.err().abs() <= ROBUST_SCALE)
                .collect(),
            Objective::Worst | Objective::Squares => vec![true; self.cells.len()],
        };
        let worst_explained = |point: &[i64]| -> Searched<f64> {
            let values = self.known(point)?;
            Ok(Score::of(
                self.cells
                    .iter()
                    .zip(values)
                    .zip(&explained)
                    .filter(|(_, &e)| e)
                    .map(|((c, &m), _)| error(m, c.value)),
            )
            .max_err)
        };
        let base = worst_explained(&at)?;
        let mut pinned = Vec::new();
        for (j, f) in self.fitted().iter().enumerate() {
            let value = f.value_at(at[j]);
            let mut rises = Vec::with_capacity(2);
            for dir in [1i64, -1] {
                let i = f.index_of(value * (1.0 + dir as f64 * IDENTIFY_MOVE));
                let i = if i == at[j] { at[j] + dir } else { i };
                if !(0..=f.last_index()).contains(&i) {
                    continue;
                }
                let mut held = at.clone();
                held[j] = i;
                let goal = Goal {
                    held: Some(j),
                    ..Goal::all(self.objective)
                };
                let steps = vec![LOO_FIRST_STEP; at.len()];
                let refit = self.pattern_search(held, goal, steps, false)?;
                rises.push(worst_explained(&refit)? - base);
            }
            if !rises.is_empty() && rises.iter().all(|&r| r >= IDENTIFIED_RISE) {
                pinned.push(f.param);
            }
        }
        Ok(pinned)
    }

    /// For every cell, a fit without it (a pattern search from the full fit's values; most of
    /// its points are already in the memo) and that fit's prediction of the cell.
    pub(crate) fn leave_one_out(&mut self, full: &FitReport) -> LooReport {
        self.settle(|e| e.try_leave_one_out(full))
    }

    /// See [`leave_one_out`](Self::leave_one_out).
    pub(crate) fn try_leave_one_out(&self, full: &FitReport) -> Searched<LooReport> {
        let start = self.point_of(&full.params);
        let k = self.fitted().len();
        let mut cells = Vec::with_capacity(self.cells.len());
        let mut folds = Vec::with_capacity(self.cells.len());
        for i in 0..self.cells.len() {
            let fold = Goal {
                skip: Some(i),
                ..Goal::all(self.objective)
            };
            let best = self.pattern_search(start.clone(), fold, vec![LOO_FIRST_STEP; k], false)?;
            let model = self.known(&best)?[i];
            cells.push(CellFit {
                cell: self.cells[i],
                model,
            });
            folds.push(self.values(&best));
        }
        let score = Score::of(cells.iter().map(CellFit::err));
        Ok(LooReport {
            max_err: score.max_err,
            mean_err: score.mean_err,
            cells,
            folds,
        })
    }

    /// One pass over the parameters: each scanned at [`COARSE_POINTS`] points across its bounds
    /// with the others held, moving to the best point found (never to a worse one).
    fn coarse_scan(&self, start: Vec<i64>, goal: Goal) -> Searched<Vec<i64>> {
        let mut best_score = self.score(&start, goal.skip)?;
        let mut best = start;
        for (j, f) in self.fitted().iter().enumerate() {
            let last = f.last_index();
            for g in 0..COARSE_POINTS {
                let mut p = best.clone();
                p[j] = last * g / (COARSE_POINTS - 1);
                let s = self.score(&p, goal.skip)?;
                if s.better_than(&best_score, goal.objective) {
                    (best, best_score) = (p, s);
                }
            }
        }
        Ok(best)
    }

    /// Compass search: try each parameter a step up and down (moving on, with doubled steps,
    /// while that keeps improving); when no move improves, halve the steps; stop when no move of
    /// one lattice step improves. With `pairs`, a point no single step improves is also tried
    /// one step along each diagonal of each pair of parameters: at a minimax optimum two cells
    /// are usually equally wrong, and moving one parameter makes one of them worse, while moving
    /// two together can make both better (the full fit polishes so; the folds, which start at
    /// its result, do not, to keep leave-one-out cheap).
    fn pattern_search(
        &self,
        start: Vec<i64>,
        goal: Goal,
        mut steps: Vec<i64>,
        pairs: bool,
    ) -> Searched<Vec<i64>> {
        let lasts: Vec<i64> = self.fitted().iter().map(Fitted::last_index).collect();
        let mut best_score = self.score(&start, goal.skip)?;
        let mut best = start;
        loop {
            let before = best.clone();
            let mut moved = false;
            for j in (0..best.len()).filter(|&j| goal.moves(j)) {
                for dir in [1, -1] {
                    let mut d = steps[j];
                    let mut went = false;
                    loop {
                        let mut p = best.clone();
                        p[j] = (p[j] + dir * d).clamp(0, lasts[j]);
                        if p[j] == best[j] {
                            break;
                        }
                        let s = self.score(&p, goal.skip)?;
                        if !s.better_than(&best_score, goal.objective) {
                            break;
                        }
                        (best, best_score) = (p, s);
                        went = true;
                        d *= 2;
                    }
                    if went {
                        moved = true;
                        break;
                    }
                }
            }
            if moved && self.valleys {
                (best, best_score) = self.valley_move(&before, best, best_score, goal)?;
            }
            if !moved {
                if steps.iter().all(|&d| d <= 1) {
                    match self.pair_move(&best, &best_score, goal, pairs)? {
                        Some((p, s)) => {
                            (best, best_score) = (p, s);
                            continue;
                        }
                        None => return Ok(best),
                    }
                }
                for d in &mut steps {
                    *d = (*d / 2).max(1);
                }
            }
        }
    }

    /// Hooke and Jeeves's pattern move: after a sweep that went from `before` to `best`, go on
    /// in the same direction (twice as far each time) while that improves. A valley along which
    /// several parameters trade off (more dies and a slower read, a faster read and a slower
    /// host) is followed so, where moves of one or two parameters stall.
    fn valley_move(
        &self,
        before: &[i64],
        mut best: Vec<i64>,
        mut best_score: Score,
        goal: Goal,
    ) -> Searched<(Vec<i64>, Score)> {
        let lasts: Vec<i64> = self.fitted().iter().map(Fitted::last_index).collect();
        let delta: Vec<i64> = best.iter().zip(before).map(|(b, a)| b - a).collect();
        let mut k = 1;
        loop {
            let p: Vec<i64> = best
                .iter()
                .zip(&delta)
                .zip(&lasts)
                .map(|((b, d), last)| (b + k * d).clamp(0, *last))
                .collect();
            if p == best {
                return Ok((best, best_score));
            }
            let s = self.score(&p, goal.skip)?;
            if !s.better_than(&best_score, goal.objective) {
                return Ok((best, best_score));
            }
            (best, best_score) = (p, s);
            k *= 2;
        }
    }

    /// The first move of one lattice step in two parameters at once that improves on `best`
    /// (none when `pairs` is off).
    fn pair_move(
        &self,
        best: &[i64],
        best_score: &Score,
        goal: Goal,
        pairs: bool,
    ) -> Searched<Option<(Vec<i64>, Score)>> {
        if !pairs {
            return Ok(None);
        }
        let lasts: Vec<i64> = self.fitted().iter().map(Fitted::last_index).collect();
        for i in (0..best.len()).filter(|&i| goal.moves(i)) {
            for j in (i + 1..best.len()).filter(|&j| goal.moves(j)) {
                for (di, dj) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    let mut p = best.to_vec();
                    p[i] = (p[i] + di).clamp(0, lasts[i]);
                    p[j] = (p[j] + dj).clamp(0, lasts[j]);
                    if p[i] == best[i] || p[j] == best[j] {
                        continue;
                    }
                    let s = self.score(&p, goal.skip)?;
                    if s.better_than(best_score, goal.objective) {
                        return Ok(Some((p, s)));
                    }
                }
            }
        }
        Ok(None)
    }
}

/// A run that pays steady-state write amplification gets it computed here, once per spare ratio
/// on the calling thread (the engine's memo of it is per thread, and the worker threads are new
/// for every point).
fn with_steady_write_amplification(run: CheckedRun) -> Result<CheckedRun, ConfigError> {
    match run.steady_state_spare_ratio() {
        Some(spare) => run.with_write_amplification(steady_write_amplification(spare)),
        None => Ok(run),
    }
}
