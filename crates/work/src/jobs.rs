//! Several jobs on one drive, computed in a worker: what the page asks ([`JobsAsk`]), the
//! sliced runs that answer it ([`JobsTask`]), and what crosses back ([`JobsFound`]).
//!
//! The jobs run together, as fio runs the jobs of one group, and then each alone on the same
//! drive, so the page can say what the others cost each job (a write job's programs holding the
//! dies a read job needs shows as the read job's p99 together against alone, and in that p99's
//! anatomy as waiting for its die behind host programs).
//!
//! What always holds:
//! - every run is checked by the model before it starts: a job set the model refuses is
//!   answered with the reason, never a panic;
//! - the runs are the ones `lab run` runs for the same jobs in one group (one stream a job, the
//!   seed [`SEED`], [`JOBS_MEASURED_IOS`] measured I/Os), so the page and the command line agree;
//! - no step blocks for long: each run is prepared and advanced in slices.

use parallelism_model::config::PowerLimit;
use parallelism_model::config::{ConfigError, RunOptions, Rw, Workload};
use parallelism_model::prepare::{Preparation, WA_WRITES_PER_STEP};
use parallelism_model::run::CheckedRun;
use parallelism_model::sliced::{self, Sliced};
use parallelism_model::stats::{RunResult, StreamResult};
use parallelism_model::workload::{Spacing, Stream, StreamsSpec};
use parallelism_model::{DriveState, Simulation};
use serde::{Deserialize, Serialize};

use crate::anatomy::PointAnatomy;
use crate::key::{DriveKey, SEED};
use crate::plan::EVENTS_PER_STEP;
use crate::{Counted, WorkError};

/// The most jobs the page runs on one drive at once.
pub const MAX_JOBS: usize = 4;
/// Measured I/Os of the run with every job (the charts' full runs measure as many).
pub const JOBS_MEASURED_IOS: u64 = RunOptions::DEFAULT_MEASURED_IOS;

/// One job: its pattern, block size, depth and, for an open loop, its rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct JobAsk {
    pub rw: Rw,
    /// Read percentage (0 or 100 for the pure patterns).
    pub read_pct: u8,
    pub bs_bytes: u32,
    /// Requests in flight (closed loop), or the most at the drive (at a rate).
    pub iodepth: u32,
    /// Requests a second offered whatever the drive does; `None`: a closed loop.
    pub rate_iops: Option<u32>,
}

impl JobAsk {
    /// The job's pattern, block size and depth as the model's workload.
    pub fn workload(&self) -> Workload {
        Workload {
            rw: self.rw,
            rwmixread: self.read_pct,
            bs_bytes: self.bs_bytes,
            iodepth: self.iodepth,
        }
    }

    /// The model's stream for this job, its rate spaced as `spacing` says.
    pub fn stream(&self, spacing: Spacing) -> Stream {
        let w = self.workload();
        match self.rate_iops {
            None => Stream::closed(&w),
            Some(iops) => Stream::at_rate(&w, f64::from(iops), spacing),
        }
    }
}

/// What the page asks: jobs on one drive in one state.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct JobsAsk {
    pub drive: DriveKey,
    pub state: DriveState,
    /// The active power state the drive is held to (0: PS0).
    pub power_state: u8,
    /// How the open-loop jobs' arrivals are spaced.
    pub spacing: Spacing,
    pub jobs: Vec<JobAsk>,
}

impl JobsAsk {
    /// The checked run of `jobs` on the asked drive.
    fn checked(&self, jobs: &[JobAsk]) -> Result<CheckedRun, ConfigError> {
        let run = StreamsSpec {
            drive: self.drive.spec(),
            streams: jobs.iter().map(|j| j.stream(self.spacing)).collect(),
            state: self.state,
            options: RunOptions {
                seed: SEED,
                measured_ios: JOBS_MEASURED_IOS,
                ..RunOptions::default()
            },
        }
        .check()?;
        match self.power_state {
            0 => Ok(run),
            n => run.with_power_limit(PowerLimit::State(n)),
        }
    }

    /// Every run the answer needs: all jobs together first, then each alone (only when there
    /// is more than one job: alone, one job is the run together).
    fn runs(&self) -> Vec<Vec<JobAsk>> {
        let mut runs = vec![self.jobs.clone()];
        if self.jobs.len() > 1 {
            runs.extend(self.jobs.iter().map(|j| vec![*j]));
        }
        runs
    }
}

/// One job's figures in a run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobFigures {
    pub iops: f64,
    pub mb_s: f64,
    pub mean_us: f64,
    pub p99_us: f64,
    /// Its requests arrived faster than they completed (an open loop past capacity).
    pub saturated: bool,
    /// Where its requests' time went: what the other jobs cost its p99 shows here.
    pub anatomy: PointAnatomy,
}

impl JobFigures {
    fn of_stream(s: &StreamResult) -> JobFigures {
        JobFigures {
            iops: s.iops,
            mb_s: s.bw_mb_s,
            mean_us: s.latency.mean_us,
            p99_us: s.latency.p99_us,
            saturated: s.saturated,
            anatomy: PointAnatomy::of(&s.anatomy),
        }
    }

    fn of_run(r: &RunResult) -> JobFigures {
        JobFigures {
            iops: r.iops,
            mb_s: r.bw_mb_s,
            mean_us: r.latency.mean_us,
            p99_us: r.latency.p99_us,
            saturated: r.saturated,
            anatomy: PointAnatomy::of(&r.anatomy),
        }
    }
}

/// What the worker found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobsFound {
    /// The drive's total with every job running (boxed: with its anatomy a job's figures are
    /// some 500 bytes, and the worker's every reply would be as large as the largest).
    pub total: Box<JobFigures>,
    /// Each job's figures with every job running, in the asked order.
    pub together: Vec<JobFigures>,
    /// Each job's figures running alone (empty for a single job).
    pub alone: Vec<JobFigures>,
    /// What limits the drive with every job running (the model's name for it).
    pub limit: String,
    /// Average power with every job running, in watts.
    pub watts: f64,
}

/// How far a [`JobsTask`] is: runs finished of all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JobsProgress {
    pub done: usize,
    pub total: usize,
}

/// The run being advanced.
enum Current {
    Preparing(Box<Preparation>),
    Running(Box<Simulation>),
}

/// The jobs' runs under way.
pub struct JobsTask {
    ask: JobsAsk,
    runs: Vec<Vec<JobAsk>>,
    results: Vec<RunResult>,
    current: Option<Current>,
}

impl JobsTask {
    /// The runs for `ask`, every one checked before the first starts.
    pub fn start(ask: JobsAsk) -> Result<JobsTask, WorkError> {
        if ask.jobs.is_empty() || ask.jobs.len() > MAX_JOBS {
            return Err(WorkError::TooMany {
                what: Counted::Jobs,
                got: ask.jobs.len(),
                most: MAX_JOBS,
            });
        }
        let runs = ask.runs();
        for run in &runs {
            ask.checked(run)?;
        }
        Ok(JobsTask {
            ask,
            runs,
            results: Vec::new(),
            current: None,
        })
    }

    /// How far the runs are, counted.
    pub fn counts(&self) -> JobsProgress {
        JobsProgress {
            done: self.results.len(),
            total: self.runs.len(),
        }
    }

    /// One step: start the next run, or one preparation or engine step of the run under way;
    /// what was found once every run is done, or why a run failed.
    fn advance(&mut self) -> Result<Option<JobsFound>, WorkError> {
        if self.results.len() == self.runs.len() {
            return Ok(Some(self.found()));
        }
        self.current = match self.current.take() {
            None => {
                let run = &self.runs[self.results.len()];
                let prep = self.ask.checked(run).and_then(Preparation::checked)?;
                Some(Current::Preparing(Box::new(prep)))
            }
            Some(Current::Preparing(mut prep)) => match prep.step(WA_WRITES_PER_STEP)? {
                Some(run) => Some(Current::Running(Box::new(Simulation::new(&run)))),
                None => Some(Current::Preparing(prep)),
            },
            Some(Current::Running(mut sim)) => {
                if sim.step(EVENTS_PER_STEP) {
                    self.results.push(sim.result()?);
                    None
                } else {
                    Some(Current::Running(sim))
                }
            }
        };
        // The last run's end is the jobs' end, in the same step.
        let done = self.current.is_none() && self.results.len() == self.runs.len();
        Ok(done.then(|| self.found()))
    }

    fn found(&self) -> JobsFound {
        let together = &self.results[0];
        JobsFound {
            total: Box::new(JobFigures::of_run(together)),
            together: together.streams.iter().map(JobFigures::of_stream).collect(),
            alone: self.results[1..].iter().map(JobFigures::of_run).collect(),
            limit: together.bottleneck.label().to_string(),
            watts: together.power.average_w,
        }
    }
}

/// Its unit is one step: starting a run, one preparation step or one engine step of
/// [`EVENTS_PER_STEP`] events; the output is what the jobs did.
impl Sliced for JobsTask {
    type Output = JobsFound;
    type Error = WorkError;

    fn step(&mut self, budget: usize) -> Result<Option<JobsFound>, WorkError> {
        sliced::steps(budget, || self.advance())
    }

    fn progress(&self) -> f64 {
        self.results.len() as f64 / self.runs.len().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::DriveChoice;
    use parallelism_model::anatomy::Part;
    use parallelism_model::presets::{self, PresetRef};

    fn ask(jobs: Vec<JobAsk>) -> JobsAsk {
        let preset = presets::find("e18dc").unwrap();
        JobsAsk {
            drive: DriveKey {
                preset: PresetRef::from(preset),
                drive: DriveChoice {
                    dies: 8,
                    die_gbit: preset.nand.die_gbit,
                },
            },
            state: DriveState::Steady,
            power_state: 0,
            spacing: Spacing::Poisson,
            jobs,
        }
    }

    const READER: JobAsk = JobAsk {
        rw: Rw::RandRead,
        read_pct: 100,
        bs_bytes: 4096,
        iodepth: 1,
        rate_iops: None,
    };
    const WRITER: JobAsk = JobAsk {
        rw: Rw::RandWrite,
        read_pct: 0,
        bs_bytes: 4096,
        iodepth: 32,
        rate_iops: None,
    };

    fn run(ask: JobsAsk) -> JobsFound {
        let mut run = JobsTask::start(ask).unwrap();
        loop {
            if let Some(found) = run.step(1).transpose() {
                return found.unwrap();
            }
        }
    }

    #[test]
    fn a_write_job_beside_a_read_job_raises_the_reads_p99_above_what_it_is_alone() {
        let found = run(ask(vec![READER, WRITER]));
        assert_eq!((found.together.len(), found.alone.len()), (2, 2));
        let (with, alone) = (found.together[0], found.alone[0]);
        assert!(
            with.p99_us > 2.0 * alone.p99_us,
            "the reads wait behind programs: p99 {} together, {} alone",
            with.p99_us,
            alone.p99_us
        );
        let sum: f64 = found.together.iter().map(|j| j.iops).sum();
        assert!(
            (sum / found.total.iops - 1.0).abs() < 0.01,
            "{sum} vs {}",
            found.total.iops
        );
    }

    #[test]
    fn the_writer_s_cost_to_the_reader_shows_in_the_reader_s_p99_anatomy() {
        // Issue 56: a QD1 reader beside a QD32 random writer waits behind the writes' work at
        // its p99 (more than half of it behind programs, garbage collection or their
        // suspends); alone, its p99 waits behind none of it. The writer has no reads.
        let found = run(ask(vec![READER, WRITER]));
        let share = |f: &JobFigures| {
            let p99 = f.anatomy.reads.unwrap().p99;
            let writes: f32 = Part::ALL
                .into_iter()
                .filter(|p| p.writes_cause())
                .map(|p| p99.part_us(p))
                .sum();
            writes / p99.latency_us
        };
        assert!(
            share(&found.together[0]) > 0.5,
            "{}",
            share(&found.together[0])
        );
        assert_eq!(share(&found.alone[0]), 0.0);
        assert!(found.together[1].anatomy.reads.is_none());
        assert!(found.together[1].anatomy.writes.is_some());
    }

    #[test]
    fn the_runs_together_are_the_models_own_streams_run() {
        // The same streams through the model in one go give the same figures, bit for bit.
        let a = ask(vec![READER, WRITER]);
        let found = run(a.clone());
        let direct = Simulation::run(&a.checked(&a.jobs).unwrap()).unwrap();
        assert_eq!(*found.total, JobFigures::of_run(&direct));
        assert_eq!(found.together[1], JobFigures::of_stream(&direct.streams[1]));
    }

    #[test]
    fn a_job_set_the_model_refuses_is_refused_with_the_reason() {
        let bad = JobAsk {
            iodepth: 0,
            ..READER
        };
        let why = JobsTask::start(ask(vec![READER, bad])).err().unwrap();
        assert!(
            matches!(&why, WorkError::Refused(ConfigError::OutOfRange { what, value, .. })
                if what == "iodepth" && value == "0"),
            "{why:?}"
        );
        let why = JobsTask::start(ask(vec![READER; 5])).err().unwrap();
        assert_eq!(
            why,
            WorkError::TooMany {
                what: Counted::Jobs,
                got: 5,
                most: MAX_JOBS
            }
        );
        assert!(why.to_string().contains("1 to 4 jobs"), "{why}");
        assert!(JobsTask::start(ask(Vec::new())).is_err());
    }

    #[test]
    fn one_job_runs_once() {
        let found = run(ask(vec![READER]));
        assert!(found.alone.is_empty());
        assert_eq!(found.together.len(), 1);
    }
}
