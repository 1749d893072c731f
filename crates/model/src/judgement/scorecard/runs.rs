//! The runs the scorecard's figures share, each made once: engine runs by their inputs, and the
//! longer procedures (the E12 review's suite, the Octane's torture, the spec-sheet comparison,
//! the desktop replays) by the drive they ran on.
//!
//! Every drive comes from [`Runs::preset`], which applies the assumption being varied (if any),
//! so a sensitivity run changes one value everywhere at once and nothing else.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use crate::calibration::Measurement;
use crate::config::{DriveSpec, DriveState, PowerLimit, RunOptions, RunSpec, Rw, Workload};
use crate::over_time::{self, FillReport, TortureReport};
use crate::presets::{self, Preset};
use crate::review::{self, ReviewRun, TestResult, E12_SUITE};
use crate::run::CheckedRun;
use crate::run::RunError;
use crate::sliced::Sliced;
use crate::spec_sheet::{self, SpecRow};
use crate::stats::RunResult;
use crate::workload::desktop::Desktop;
use crate::workload::trace::Trace;
use crate::workload::{Arrival, Stream, StreamsSpec};
use crate::Simulation;

use super::sensitivity::Assumption;

/// The most requests a replay keeps at the drive: `lab replay`'s default, and the 32 commands
/// of the Octane's SATA native command queueing.
const REPLAY_DEVICE_DEPTH: u32 = 32;

/// One closed-loop engine run: the preset, its capacity (GB), the pattern, read share, block
/// size, depth, state and power state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Job {
    pub preset: &'static str,
    pub gb: u32,
    pub rw: Rw,
    pub rwmixread: u8,
    pub bs_bytes: u32,
    pub iodepth: u32,
    pub state: DriveState,
    pub power_state: Option<u8>,
}

impl Job {
    /// `rw` at `bs_bytes` and `iodepth` on `preset` at `gb`, in the state its pattern's
    /// measurements follow (random: written over; sequential: filled in order).
    pub(crate) fn new(preset: &'static str, gb: u32, rw: Rw, bs_bytes: u32, iodepth: u32) -> Job {
        Job {
            preset,
            gb,
            rw,
            rwmixread: rw.fixed_read_percent().unwrap_or(70),
            bs_bytes,
            iodepth,
            state: if rw.is_random() {
                DriveState::Steady
            } else {
                DriveState::SeqFilled
            },
            power_state: None,
        }
    }

    pub(crate) fn fresh(self) -> Job {
        Job {
            state: DriveState::Fob,
            ..self
        }
    }
}

/// The memo of one scorecard's runs.
pub(crate) struct Runs {
    varied: Option<(&'static Assumption, f64)>,
    options: RunOptions,
    jobs: HashMap<Job, RunResult>,
    cells: HashMap<String, f64>,
    review: Option<Vec<TestResult>>,
    torture: Option<TortureReport>,
    fill: Option<FillReport>,
    spec: HashMap<&'static str, Vec<SpecRow>>,
    desktop: HashMap<(Desktop, u32, DriveState), RunResult>,
    traces: HashMap<(Desktop, u64), Arc<Trace>>,
    /// The presets read since [`start_figure`](Self::start_figure).
    read: RefCell<Vec<String>>,
}

impl Runs {
    /// Runs on the presets as they are, or with one assumption set to a value.
    pub(crate) fn new(varied: Option<(&'static Assumption, f64)>) -> Runs {
        Runs {
            varied,
            // Every figure is a total: no run keeps an anatomy.
            options: RunOptions::default().without_anatomy(),
            jobs: HashMap::new(),
            cells: HashMap::new(),
            review: None,
            torture: None,
            fill: None,
            spec: HashMap::new(),
            desktop: HashMap::new(),
            traces: HashMap::new(),
            read: RefCell::new(Vec::new()),
        }
    }

    /// Forget which presets were read: a new figure starts.
    pub(crate) fn start_figure(&mut self) {
        self.read.get_mut().clear();
    }

    /// The presets read since the figure started.
    pub(crate) fn presets_read(&mut self) -> Vec<String> {
        std::mem::take(self.read.get_mut())
    }

    /// The preset with this id, with the varied assumption applied where it belongs.
    /// Note that the figure being scored reads preset `id`, whether its run is made now or was
    /// made for an earlier figure (so a sensitivity run reruns every figure that shares it).
    fn note(&self, id: &str) {
        let mut read = self.read.borrow_mut();
        if !read.iter().any(|r| r == id) {
            read.push(id.to_string());
        }
    }

    pub(crate) fn preset(&self, id: &str) -> Result<Preset, RunError> {
        self.note(id);
        let mut p = presets::lookup(id)?.clone();
        if let Some((a, value)) = self.varied {
            if a.presets.contains(&id) {
                (a.apply)(&mut p, value);
            }
        }
        Ok(p)
    }

    pub(crate) fn drive(&self, id: &str, gb: u32) -> Result<DriveSpec, RunError> {
        Ok(self.preset(id)?.drive_for_capacity_gb(f64::from(gb))?)
    }

    /// A published cell, as `lab calibrate` runs it.
    pub(crate) fn cell(&mut self, cell: &Measurement) -> Result<f64, RunError> {
        self.note("e18dc");
        let key = format!("{cell:?}");
        if let Some(v) = self.cells.get(&key) {
            return Ok(*v);
        }
        let drive = self.preset("e18dc")?.default_drive();
        let v = cell.model_value(&drive, self.options)?;
        self.cells.insert(key, v);
        Ok(v)
    }

    pub(crate) fn job(&mut self, job: Job) -> Result<&RunResult, RunError> {
        self.note(job.preset);
        if !self.jobs.contains_key(&job) {
            let mut run = RunSpec {
                drive: self.drive(job.preset, job.gb)?,
                workload: Workload {
                    rw: job.rw,
                    rwmixread: job.rwmixread,
                    bs_bytes: job.bs_bytes,
                    iodepth: job.iodepth,
                },
                state: job.state,
                options: self.options,
            }
            .check()?;
            if let Some(n) = job.power_state {
                run = run.with_power_limit(PowerLimit::State(n))?;
            }
            let result = Simulation::run(&run)?;
            self.jobs.insert(job, result);
        }
        Ok(&self.jobs[&job])
    }

    /// The E12 review's suite on its 960 GB sample, as `lab review` runs it.
    pub(crate) fn review(&mut self) -> Result<&[TestResult], RunError> {
        self.note(review::E12_SAMPLE_PRESET);
        let results = match self.review.take() {
            Some(results) => results,
            None => self.review_run()?.finish()?,
        };
        Ok(self.review.insert(results))
    }

    /// The E12 review's suite, to be stepped (see [`review`](Self::review)).
    pub(crate) fn review_run(&mut self) -> Result<ReviewRun, RunError> {
        let drive = self.drive(review::E12_SAMPLE_PRESET, review::E12_SAMPLE_GB as u32)?;
        Ok(ReviewRun::new(&drive, &E12_SUITE, self.options)?)
    }

    /// The suite's results, made by a caller that stepped [`review_run`](Self::review_run).
    pub(crate) fn keep_review(&mut self, results: Vec<TestResult>) {
        self.review = Some(results);
    }

    /// The Octane review's torture on its 128 GB drive, as `lab torture` runs it.
    pub(crate) fn torture(&mut self) -> Result<&TortureReport, RunError> {
        self.note(over_time::OCTANE_PRESET);
        let report = match self.torture.take() {
            Some(report) => report,
            None => {
                let gb = over_time::OCTANE_CAPACITY_GB as u32;
                let drive = self.drive(over_time::OCTANE_PRESET, gb)?;
                over_time::torture(&drive, over_time::REVIEW_TORTURE_MINUTES)?
            }
        };
        Ok(self.torture.insert(report))
    }

    /// The E12 sample's whole-drive fill, as `lab fill` runs it.
    pub(crate) fn fill(&mut self) -> Result<&FillReport, RunError> {
        self.note(review::E12_SAMPLE_PRESET);
        let report = match self.fill.take() {
            Some(report) => report,
            None => {
                let drive = self.drive(review::E12_SAMPLE_PRESET, review::E12_SAMPLE_GB as u32)?;
                over_time::fill(&drive)?
            }
        };
        Ok(self.fill.insert(report))
    }

    /// The preset's spec-sheet rows, as `lab spec` prints them.
    pub(crate) fn spec(&mut self, id: &'static str) -> Result<&[SpecRow], RunError> {
        self.note(id);
        if !self.spec.contains_key(id) {
            let rows = spec_sheet::compare(&self.preset(id)?, self.options).unwrap_or_default();
            self.spec.insert(id, rows);
        }
        Ok(&self.spec[id])
    }

    /// A generated desktop workload (its idle gaps already capped at the reviews' 25 ms)
    /// replayed on the Octane at `gb` at its own times, as `lab replay --workload` runs it.
    pub(crate) fn desktop(
        &mut self,
        workload: Desktop,
        gb: u32,
        state: DriveState,
    ) -> Result<&RunResult, RunError> {
        self.note(over_time::OCTANE_PRESET);
        let key = (workload, gb, state);
        if !self.desktop.contains_key(&key) {
            let result = Simulation::run(&self.desktop_run(workload, gb, state)?)?;
            self.desktop.insert(key, result);
        }
        Ok(&self.desktop[&key])
    }

    /// The checked run of a desktop replay (see [`desktop`](Self::desktop)), for a caller that
    /// steps it itself.
    pub(crate) fn desktop_run(
        &mut self,
        workload: Desktop,
        gb: u32,
        state: DriveState,
    ) -> Result<CheckedRun, RunError> {
        let drive = self.drive(over_time::OCTANE_PRESET, gb)?;
        let trace = self.trace_for(workload, &drive);
        let spec = StreamsSpec {
            drive,
            streams: vec![Stream::replay(
                trace,
                Arrival::Timed {
                    speed: 1.0,
                    max_idle: None,
                    iodepth: REPLAY_DEVICE_DEPTH,
                },
            )],
            state,
            options: self.options,
        };
        Ok(spec.check()?)
    }

    /// A desktop replay's result, made by a caller that stepped [`desktop_run`](Self::desktop_run).
    pub(crate) fn keep_desktop(
        &mut self,
        workload: Desktop,
        gb: u32,
        state: DriveState,
        result: RunResult,
    ) {
        self.desktop.insert((workload, gb, state), result);
    }

    /// A generated desktop trace, as `lab replay --workload` generates it for the 128 GB
    /// Octane.
    pub(crate) fn trace(&mut self, workload: Desktop) -> Result<Arc<Trace>, RunError> {
        let drive = self.drive(over_time::OCTANE_PRESET, 128)?;
        Ok(self.trace_for(workload, &drive))
    }

    fn trace_for(&mut self, workload: Desktop, drive: &DriveSpec) -> Arc<Trace> {
        let user_bytes = drive.user_bytes() as u64;
        Arc::clone(
            self.traces
                .entry((workload, user_bytes))
                .or_insert_with(|| Arc::new(workload.trace(user_bytes, 1.0, 1))),
        )
    }
}
