//! A worker's side of the pool: the [`Server`] reads the page's requests and works on the
//! latest of each kind in slices (the charts' plan, the drive over time, a fit, jobs, a
//! replay, the review's suite, the scorecard, teaching mode's point), turning what each slice
//! reached into replies. Teaching mode's player is answered at once, outside the slices, so
//! the animation never waits for them.
//!
//! What always holds:
//! - the server works only on the plan of the last request it read, so a plan the page has
//!   replaced is abandoned at the end of the slice in progress (its run set aside by the
//!   [`PlanTask`], resumed if a later plan wants it again); the same holds for the drive over
//!   time's target, the fit and teaching mode's point;
//! - slices take turns between the kinds that have work, so none waits for another;
//! - the drive over time reports a part as soon as it arrives and its progress at most once
//!   per [`PROGRESS_STEP`], so a long computation never floods the page.
//!
//! Everything here is plain Rust; the worker binary only adds the browser's message loop.

use parallelism_model::sliced::Sliced;
use parallelism_model::sliced_fit::FitProgress;

use crate::fit::{FitAsk, FitTask};
use crate::jobs::{JobsAsk, JobsProgress, JobsTask};
use crate::key::{Outcome, RunKey};
use crate::over_time::OverTimeTask;
use crate::plan::PlanTask;
use crate::protocol::{Reply, Request};
use crate::replay::{ReplayAsk, ReplayProgress, ReplayTask};
use crate::review::{ReviewAsk, ReviewProgress, ReviewTask};
use crate::scorecard::{ScorecardAsk, ScorecardProgress, ScorecardTask};
use crate::teach::TeachTask;
use crate::WorkError;

/// Progress of the drive over time the page is told of, at the finest.
pub const PROGRESS_STEP: f64 = 0.01;

/// One worker's runners and what it serves.
#[derive(Default)]
pub struct Server {
    plans: PlanTask,
    generation: u64,
    /// Whether the last plan still has work.
    busy: bool,
    time: OverTimeTask,
    /// The drive over time's progress last reported.
    time_reported: f64,
    /// The fit under way, and its id.
    fit: Option<(u64, FitTask)>,
    /// The jobs under way, and their id.
    jobs: Option<(u64, JobsTask)>,
    /// The replay under way, and its id.
    replay: Option<(u64, ReplayTask)>,
    /// The review's suite under way, and its id.
    review: Option<(u64, ReviewTask)>,
    /// The scorecard under way, and its id.
    scorecard: Option<(u64, ScorecardTask)>,
    /// The text of a trace file that came with the message being read.
    file: Option<String>,
    /// Teaching mode's point, and its id.
    teacher: TeachTask,
    teach_id: u64,
    /// Which kind of work the next slice starts looking at.
    turn: usize,
    /// The page asked the worker to trap ([`Request::Trap`]).
    trap: bool,
}

/// The kinds of work a server takes turns between.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lane {
    Plan,
    Time,
    Fit,
    Jobs,
    Replay,
    Review,
    Scorecard,
    Teach,
}

const LANES: [Lane; 8] = [
    Lane::Plan,
    Lane::Time,
    Lane::Fit,
    Lane::Jobs,
    Lane::Replay,
    Lane::Review,
    Lane::Scorecard,
    Lane::Teach,
];

/// Work the page asks for by id: a model computation in slices ([`Sliced`]) that ends in what
/// it found or why it could not (a [`WorkError`]): a fit, several jobs, a replay, a review's
/// suite, the scorecard. Every one is driven the same way ([`work_task`]); what differs is how
/// it starts and how its reply is made.
trait Task: Sliced<Error = WorkError> + Sized {
    type Ask;
    /// How far it is, counted as the page shows it.
    type Counts: Copy + Default + PartialEq;
    fn start(ask: Self::Ask) -> Result<Self, WorkError>;
    fn counts(&self) -> Self::Counts;
    /// The reply for task `id`.
    fn reply(
        id: u64,
        counts: Self::Counts,
        outcome: Option<Result<Self::Output, WorkError>>,
    ) -> Reply;
}

/// Declares a [`Task`]: its ask, its counts, how it starts and which reply carries it.
macro_rules! task {
    ($ty:ty, $ask:ty, $counts:ty, |$a:ident| $start:expr, $reply:ident) => {
        impl Task for $ty {
            type Ask = $ask;
            type Counts = $counts;
            fn start($a: Self::Ask) -> Result<Self, WorkError> {
                $start
            }
            fn counts(&self) -> $counts {
                <$ty>::counts(self)
            }
            fn reply(
                id: u64,
                progress: $counts,
                outcome: Option<Result<Self::Output, WorkError>>,
            ) -> Reply {
                Reply::$reply {
                    id,
                    progress,
                    outcome,
                }
            }
        }
    };
}

task!(
    FitTask,
    FitAsk,
    FitProgress,
    |ask| FitTask::start(&ask),
    Fit
);
task!(
    JobsTask,
    JobsAsk,
    JobsProgress,
    |ask| JobsTask::start(ask),
    Jobs
);
// The replay, and the text of the trace file it names (if it names one).
task!(
    ReplayTask,
    (ReplayAsk, Option<String>),
    ReplayProgress,
    |ask| ReplayTask::start(ask.0, ask.1),
    Replay
);
task!(
    ReviewTask,
    ReviewAsk,
    ReviewProgress,
    |ask| ReviewTask::start(ask),
    Review
);
task!(
    ScorecardTask,
    ScorecardAsk,
    ScorecardProgress,
    |ask| ScorecardTask::start(ask),
    Scorecard
);

/// Replaces the task in `slot` by `ask`'s (or by none); a task that cannot start is answered
/// at once with the reason.
fn start_task<T: Task>(slot: &mut Option<(u64, T)>, id: u64, ask: Option<T::Ask>) -> Option<Reply> {
    *slot = None;
    match T::start(ask?) {
        Ok(task) => {
            *slot = Some((id, task));
            None
        }
        Err(why) => Some(T::reply(id, T::Counts::default(), Some(Err(why)))),
    }
}

/// One slice of the task in `slot`: a reply when it moved or ended (and then it is dropped).
#[inline(never)] // A lane's work stays out of [`Server::work`], which says why.
fn work_task<T: Task>(
    slot: &mut Option<(u64, T)>,
    time_is_up: &mut dyn FnMut() -> bool,
) -> Option<Reply> {
    let (id, task) = slot.as_mut()?;
    let id = *id;
    let before = task.counts();
    let outcome = task.work_until(1, time_is_up).transpose();
    let counts = task.counts();
    if outcome.is_some() {
        *slot = None;
    } else if counts == before {
        return None;
    }
    Some(T::reply(id, counts, outcome))
}

impl Server {
    pub fn new() -> Server {
        Server::default()
    }

    /// Reads one message from the page; a reply is due at once only if it was unreadable.
    pub fn receive(&mut self, text: &str) -> Option<Reply> {
        match Request::decode(text) {
            Ok(Request::Plan { generation, keys }) => {
                self.generation = generation;
                self.plans.set_plan(keys);
                self.busy = true;
                None
            }
            Ok(Request::Time { drive }) => {
                self.time.set_target(drive);
                self.time_reported = f64::NEG_INFINITY;
                None
            }
            Ok(Request::Fit { id, ask }) => start_task(&mut self.fit, id, ask),
            Ok(Request::Jobs { id, ask }) => start_task(&mut self.jobs, id, ask),
            Ok(Request::Replay { id, ask }) => {
                let file = self.file.take();
                start_task(&mut self.replay, id, ask.map(|a| (a, file)))
            }
            Ok(Request::Review { id, ask }) => start_task(&mut self.review, id, ask),
            Ok(Request::Scorecard { id, run }) => {
                start_task(&mut self.scorecard, id, run.then_some(ScorecardAsk))
            }
            Ok(Request::Trap) => {
                self.trap = true;
                None
            }
            Ok(Request::Teach { id, command }) => {
                self.teach_id = id;
                let news = self.teacher.command(command)?;
                Some(Reply::Teach { id, news })
            }
            Err(e) => Some(Reply::Refused { why: e.to_string() }),
        }
    }

    /// Reads one message that came with the text of a trace file (a replay of the reader's
    /// file: the text is handed to that replay, never parsed as a message).
    pub fn receive_with_file(&mut self, text: &str, file: String) -> Option<Reply> {
        self.file = Some(file);
        let reply = self.receive(text);
        self.file = None;
        reply
    }

    /// Whether there is work to do (a slice is due).
    pub fn busy(&self) -> bool {
        self.trap || LANES.iter().any(|&l| self.has_work(l))
    }

    fn has_work(&self, lane: Lane) -> bool {
        match lane {
            Lane::Plan => self.busy,
            Lane::Time => self.time.busy() || self.time_unreported(),
            Lane::Fit => self.fit.is_some(),
            Lane::Jobs => self.jobs.is_some(),
            Lane::Replay => self.replay.is_some(),
            Lane::Review => self.review.is_some(),
            Lane::Scorecard => self.scorecard.is_some(),
            Lane::Teach => self.teacher.busy(),
        }
    }

    /// Works one slice, until `time_is_up` or the work in turn is done, and says what it
    /// reached.
    ///
    /// Each lane's work is a function of its own, never inlined here (`#[inline(never)]` for
    /// the compiler, and the worker's `wasm-opt` keeps a function with one caller apart once
    /// it is over 200 bytes: index.html). In a browser this runs every slice, so V8 optimises
    /// it early: with every lane inlined it would be 65 KB of WebAssembly, whose optimisation
    /// takes some 170 ms of a second core in the middle of the first view's load, beside the
    /// page's thread and the worker's own (README "Benchmarks"). Apart, only the lanes that
    /// run are optimised, each on its own.
    ///
    /// # Panics
    /// After [`Request::Trap`], on purpose: in the browser the worker then dies as it would of
    /// a bug, and the page replaces it.
    pub fn work(&mut self, time_is_up: &mut dyn FnMut() -> bool) -> Vec<Reply> {
        if self.trap {
            panic!("the model's worker trapped on purpose (asked by debug=worker)");
        }
        let Some(lane) = (0..LANES.len())
            .map(|i| LANES[(self.turn + i) % LANES.len()])
            .find(|&l| self.has_work(l))
        else {
            return Vec::new();
        };
        self.turn = (LANES.iter().position(|&l| l == lane).unwrap_or(0) + 1) % LANES.len();
        let reply = match lane {
            Lane::Plan => self.work_plan(time_is_up),
            Lane::Time => self.work_time(time_is_up),
            Lane::Fit => work_task(&mut self.fit, time_is_up),
            Lane::Jobs => work_task(&mut self.jobs, time_is_up),
            Lane::Replay => work_task(&mut self.replay, time_is_up),
            Lane::Review => work_task(&mut self.review, time_is_up),
            Lane::Scorecard => work_task(&mut self.scorecard, time_is_up),
            Lane::Teach => {
                let id = self.teach_id;
                let news = self.teacher.work(time_is_up);
                return news
                    .into_iter()
                    .map(|news| Reply::Teach { id, news })
                    .collect();
            }
        };
        reply.into_iter().collect()
    }

    /// Whether the drive over time has a target whose results the page has not been sent.
    fn time_unreported(&self) -> bool {
        self.time_reported == f64::NEG_INFINITY && self.time.target().is_some()
    }

    #[inline(never)] // A lane's work stays out of [`Server::work`], which says why.
    fn work_time(&mut self, time_is_up: &mut dyn FnMut() -> bool) -> Option<Reply> {
        let slice = self.time.work(time_is_up);
        let drive = self.time.target()?;
        let results = self.time.results(drive)?;
        let moved = results.progress - self.time_reported >= PROGRESS_STEP;
        if !(slice.changed || moved || results.is_done() && self.time_unreported()) {
            return None;
        }
        self.time_reported = results.progress;
        Some(Reply::Time {
            drive: drive.clone(),
            results: results.clone(),
        })
    }

    #[inline(never)] // A lane's work stays out of [`Server::work`], which says why.
    fn work_plan(&mut self, time_is_up: &mut dyn FnMut() -> bool) -> Option<Reply> {
        if !self.busy {
            return None;
        }
        let slice = self.plans.work(time_is_up);
        self.busy = !slice.idle;
        if slice.completed.is_empty() && !slice.idle {
            return None;
        }
        // A run reaches a result at most once a slice: the plan's last estimate ends one.
        let results: Vec<(RunKey, Outcome)> = slice
            .completed
            .into_iter()
            .filter_map(|key| {
                let outcome = self.plans.outcome(&key)?.clone();
                Some((key, outcome))
            })
            .collect();
        Some(Reply::Results {
            generation: self.generation,
            results,
            working_on: self.plans.active(),
            runs_started: self.plans.runs_started(),
            idle: slice.idle,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::DriveKey;
    use crate::key::Fidelity;
    use crate::over_time::OverTimeResults;
    use crate::testing::key_at;
    use parallelism_model::DriveState;

    fn plan(generation: u64, keys: &[RunKey]) -> String {
        Request::Plan {
            generation,
            keys: keys.to_vec(),
        }
        .encode()
    }

    /// Works to idle, one step per slice; every reply, in order.
    fn replies(server: &mut Server) -> Vec<Reply> {
        let mut out = Vec::new();
        let mut slices = 0;
        while server.busy() {
            out.extend(server.work(&mut || true));
            slices += 1;
            assert!(slices < 1_000_000, "never idle");
        }
        out
    }

    #[test]
    #[should_panic(expected = "trapped on purpose")]
    fn a_trap_asked_for_stops_the_worker_in_its_next_slice_mid_run() {
        // The page's `debug=worker`: the worker has a plan under way, then traps.
        let mut s = Server::new();
        s.receive(&plan(1, &[key_at(DriveState::Fob, 8, 100)]));
        s.work(&mut || true);
        assert_eq!(s.receive(&Request::Trap.encode()), None);
        assert!(s.busy());
        s.work(&mut || true);
    }

    #[test]
    fn a_plan_is_answered_with_an_estimate_then_the_full_result_of_each_run() {
        let keys = [
            key_at(DriveState::Fob, 1, 100),
            key_at(DriveState::Fob, 8, 100),
        ];
        let mut s = Server::new();
        assert_eq!(s.receive(&plan(3, &keys)), None);
        let out = replies(&mut s);
        let mut reached = Vec::new();
        for reply in &out {
            let Reply::Results {
                generation,
                results,
                ..
            } = reply
            else {
                panic!("{reply:?}")
            };
            assert_eq!(*generation, 3);
            for (key, outcome) in results {
                let Outcome::Done(p) = outcome else {
                    panic!("{outcome:?}")
                };
                reached.push((keys.iter().position(|k| k == key).unwrap(), p.fidelity));
            }
        }
        assert_eq!(
            reached,
            [
                (0, Fidelity::Estimate),
                (1, Fidelity::Estimate),
                (0, Fidelity::Full),
                (1, Fidelity::Full)
            ]
        );
        let Some(Reply::Results {
            idle,
            runs_started,
            working_on,
            ..
        }) = out.last()
        else {
            panic!("no results")
        };
        assert_eq!((*idle, *runs_started, working_on.clone()), (true, 2, None));
        assert!(!s.busy());
        assert_eq!(s.work(&mut || false), [], "an idle server says nothing");
    }

    /// The page marks every point drawn when the plan's last estimate arrives: it goes out
    /// in a reply of its own, with time left in the slice, before its refinement.
    #[test]
    fn the_plan_s_last_estimate_goes_out_before_its_refinement() {
        let k = key_at(DriveState::Fob, 1, 100);
        let mut s = Server::new();
        s.receive(&plan(1, std::slice::from_ref(&k)));
        let finality = |replies: Vec<Reply>| match &replies[..] {
            [Reply::Results { results, idle, .. }] => {
                assert_eq!(results.len(), 1);
                assert_eq!(results[0].0, k);
                (results[0].1.is_final(), *idle)
            }
            other => panic!("not one reply: {other:?}"),
        };
        assert_eq!(
            finality(s.work(&mut || false)),
            (false, false),
            "the estimate"
        );
        assert_eq!(
            finality(s.work(&mut || false)),
            (true, true),
            "then the full result"
        );
    }

    #[test]
    fn a_newer_plan_replaces_the_older_one_at_once() {
        let old = key_at(DriveState::Fob, 32, 100);
        let new = key_at(DriveState::Fob, 2, 100);
        let mut s = Server::new();
        s.receive(&plan(1, &[old]));
        assert_eq!(s.work(&mut || true), [], "one step reaches nothing");
        s.receive(&plan(2, std::slice::from_ref(&new)));
        for reply in replies(&mut s) {
            let Reply::Results {
                generation,
                results,
                working_on,
                ..
            } = reply
            else {
                panic!("{reply:?}")
            };
            assert_eq!(generation, 2);
            assert!(results.iter().all(|(k, _)| *k == new), "{results:?}");
            assert!(working_on.is_none_or(|k| k == new));
        }
    }

    #[test]
    fn an_unreadable_message_is_refused_and_the_worker_goes_on() {
        let mut s = Server::new();
        let k = key_at(DriveState::Fob, 1, 100);
        s.receive(&plan(1, &[k]));
        let refused = s.receive("{\"Plan\":1}");
        assert!(
            matches!(refused, Some(Reply::Refused { .. })),
            "{refused:?}"
        );
        assert!(s.busy(), "the plan it had is still worked on");
        assert!(!replies(&mut s).is_empty());
    }

    #[test]
    fn the_drive_over_time_shares_the_worker_with_the_plan_and_reports_as_it_goes() {
        let drive: DriveKey = "e12/32x256".parse().unwrap();
        let mut s = Server::new();
        s.receive(&plan(1, &[key_at(DriveState::Fob, 1, 100)]));
        s.receive(
            &Request::Time {
                drive: Some(drive.clone()),
            }
            .encode(),
        );
        let out = replies(&mut s);
        let time: Vec<&OverTimeResults> = out
            .iter()
            .filter_map(|r| match r {
                Reply::Time { drive: d, results } if *d == drive => Some(results),
                _ => None,
            })
            .collect();
        let results = out.iter().position(|r| matches!(r, Reply::Results { .. }));
        let first_time = out.iter().position(|r| matches!(r, Reply::Time { .. }));
        assert!(results.is_some() && first_time.is_some());
        assert!(
            first_time < results.map(|i| i + 2),
            "the plan did not keep the drive over time waiting"
        );
        assert!(time.windows(2).all(|w| w[1].progress >= w[0].progress));
        assert!(
            time.windows(2)
                .all(|w| w[1].progress - w[0].progress >= PROGRESS_STEP
                    || w[1].rates != w[0].rates
                    || w[1].torture != w[0].torture),
            "progress alone is reported once per step"
        );
        let last = time.last().unwrap();
        assert!(last.is_done() && last.torture.is_some() && last.fill.is_some());
        assert!(time.len() <= 110, "{} replies", time.len());
    }

    #[test]
    fn coming_back_to_a_computed_drive_sends_its_results_at_once() {
        let drive: DriveKey = "e12/32x256".parse().unwrap();
        let mut s = Server::new();
        s.receive(
            &Request::Time {
                drive: Some(drive.clone()),
            }
            .encode(),
        );
        replies(&mut s);
        s.receive(&Request::Time { drive: None }.encode());
        assert!(!s.busy());
        s.receive(&Request::Time { drive: Some(drive) }.encode());
        let again = replies(&mut s);
        assert!(
            matches!(&again[..], [Reply::Time { results, .. }] if results.is_done()),
            "{again:?}"
        );
    }

    #[test]
    fn jobs_report_each_run_then_what_they_came_to_and_a_refused_set_says_why() {
        use crate::jobs::{JobAsk, JobsAsk};
        let job = |rw, read_pct, iodepth| JobAsk {
            rw,
            read_pct,
            bs_bytes: 4096,
            iodepth,
            rate_iops: None,
        };
        let k = crate::testing::key();
        let ask = JobsAsk {
            drive: k.drive_key(),
            state: parallelism_model::DriveState::Fob,
            power_state: 0,
            spacing: parallelism_model::workload::Spacing::Poisson,
            jobs: vec![
                job(parallelism_model::Rw::RandRead, 100, 1),
                job(parallelism_model::Rw::RandWrite, 0, 8),
            ],
        };
        let mut s = Server::new();
        let request = Request::Jobs {
            id: 1,
            ask: Some(ask.clone()),
        };
        assert_eq!(s.receive(&request.encode()), None);
        let mut replies = Vec::new();
        while s.busy() {
            replies.extend(s.work(&mut || true));
        }
        let dones: Vec<usize> = replies
            .iter()
            .filter_map(|r| match r {
                Reply::Jobs {
                    id: 1, progress, ..
                } => Some(progress.done),
                _ => None,
            })
            .collect();
        assert_eq!(dones, [1, 2, 3], "together, then each alone");
        assert!(matches!(
            replies.last(),
            Some(Reply::Jobs { outcome: Some(Ok(found)), .. }) if found.alone.len() == 2
        ));
        let bad = JobsAsk {
            jobs: vec![job(parallelism_model::Rw::RandRead, 100, 0)],
            ..ask
        };
        let refused = s.receive(
            &Request::Jobs {
                id: 2,
                ask: Some(bad),
            }
            .encode(),
        );
        assert!(
            matches!(&refused, Some(Reply::Jobs { id: 2, outcome: Some(Err(why)), .. }) if why.to_string().contains("iodepth")),
            "{refused:?}"
        );
    }

    /// The whole scoring, to its end, is `scorecard.rs`'s test; here its lane: a slice is a few
    /// milliseconds of the first desktop replay, so the page hears nothing until that replay is
    /// made (a step of the card's progress), and `run: false` drops it.
    #[test]
    fn the_scorecard_reports_each_step_made_and_is_dropped_on_request() {
        let mut s = Server::new();
        let ask = |id, run| Request::Scorecard { id, run }.encode();
        assert_eq!(s.receive(&ask(4, true)), None);
        let mut quiet = 0;
        let first = loop {
            let replies = s.work(&mut || true);
            if let Some(reply) = replies.into_iter().next() {
                break reply;
            }
            quiet += 1;
            assert!(quiet < 100_000, "no step made");
        };
        assert!(quiet > 10, "the first replay takes many slices: {quiet}");
        let Reply::Scorecard {
            id: 4,
            progress,
            outcome: None,
        } = first
        else {
            panic!("{first:?}")
        };
        // Four desktop replays and the E12 review's suite, then every figure.
        let total = 5 + parallelism_model::scorecard::figures().len();
        assert_eq!((progress.done, progress.total), (1, total));
        assert!(s.busy());
        assert_eq!(s.receive(&ask(5, false)), None);
        assert!(!s.busy(), "dropped");
    }

    #[test]
    fn a_fit_reports_progress_then_what_it_found_and_a_new_one_drops_it() {
        let ask = crate::testing::fit_ask();
        let mut s = Server::new();
        s.receive(
            &Request::Fit {
                id: 1,
                ask: Some(ask.clone()),
            }
            .encode(),
        );
        s.work(&mut || true);
        s.receive(
            &Request::Fit {
                id: 2,
                ask: Some(ask),
            }
            .encode(),
        );
        let out = replies(&mut s);
        assert!(out.iter().all(|r| matches!(r, Reply::Fit { id: 2, .. })));
        let Some(Reply::Fit {
            progress,
            outcome: Some(Ok(_)),
            ..
        }) = out.last()
        else {
            panic!("{:?}", out.last())
        };
        assert!(progress.finished);
        let refused = s.receive(
            &Request::Fit {
                id: 3,
                ask: Some(crate::fit::FitAsk {
                    base: "nope".into(),
                    dies: None,
                    cells: Vec::new(),
                }),
            }
            .encode(),
        );
        assert!(
            matches!(&refused, Some(Reply::Fit { id: 3, outcome: Some(Err(WorkError::NoBase { base })), .. }) if base == "nope"),
            "{refused:?}"
        );
        assert!(!s.busy());
    }

    #[test]
    fn teaching_mode_gets_its_point_ready_in_slices_and_its_commands_answered_at_once() {
        use crate::teach::{TeachCommand, TeachNews};
        let teach = |id, command| Request::Teach { id, command }.encode();
        let point = key_at(DriveState::Fob, 4, 100);
        let mut s = Server::new();
        assert_eq!(s.receive(&teach(1, TeachCommand::Start(point))), None);
        s.receive(&plan(1, &[key_at(DriveState::Fob, 1, 100)]));
        let out = replies(&mut s);
        let teach_news: Vec<&TeachNews> = out
            .iter()
            .filter_map(|r| match r {
                Reply::Teach { id: 1, news } => Some(news),
                _ => None,
            })
            .collect();
        assert!(
            matches!(
                teach_news[..],
                [TeachNews::Ready(_), TeachNews::Explained(_)]
            ),
            "{teach_news:?}"
        );
        let stepped = s.receive(&teach(1, TeachCommand::Step));
        assert!(
            matches!(&stepped, Some(Reply::Teach { id: 1, news: TeachNews::Frame(f) }) if f.steps == 1),
            "{stepped:?}"
        );
    }
}
