//! The charts' model runs, computed in a pool of Web Workers: the page's main thread only
//! sends plans and takes in results, so the engine never runs where the page draws and reads
//! its input.
//!
//! The deciding is [`Dispatch`]'s (which worker gets which run; the results, never
//! downgraded); this part starts the workers and carries the messages. The pool has one
//! worker per core the device has to spare ([`pool_size`]), each the `parallelism-worker`
//! binary that Trunk builds beside the page (`worker_loader.js`, a module worker, relative to
//! the page, so a sub-path and an iframe work, under the page's CSP `worker-src 'self'`).
//!
//! Beside the charts' plan, the pool carries the views' own work to its first worker (the
//! drive over time, the fit, teaching mode's player and explainer): the page keeps what it is
//! sent (the drive over time per drive, so it asks only for what it lacks) and takes a fit's
//! or teaching mode's replies only for the fit or point it last asked. Teaching mode's news is
//! handed to its listener as it arrives (an animation cannot wait for a revision).
//!
//! The first worker is started before the app: `assets/boot.js` starts it beside the app's
//! download, so its files arrive and the engine compiles while the app's wasm still arrives
//! and compiles, and the app's first plan finds it ready. The pool takes it as its worker 0,
//! with what it said meanwhile, which `boot.js` held in order.
//!
//! What always holds:
//! - a request is posted at once, also to a worker still loading: the worker's loader
//!   (`assets/worker_loader.js`) holds what arrives before the worker's wasm has started and
//!   hands it over in order, so the first plan is worked on as soon as the worker can, not
//!   once the page's thread has heard its `Ready` (a busy thread while the page mounts);
//! - each revision ([`Pool::revision`] for the charts, [`Pool::time_revision`] for the drive
//!   over time) changes at most once per [`REVISION_MS`] however many results arrive, so the
//!   charts and the readout are redrawn a few times a second while results stream in, not at
//!   every frame (drawing five charts is the main thread's largest task), and a frame the
//!   browser does not render (an embed below the fold) still takes in its results; the
//!   revision also changes at once for a reply that completes what the reader waits for: the
//!   first screen's runs (the plan's first, [`Plan::first_screen`]), the plan's last estimate
//!   or last full result, the drive over time, a fit, jobs, a replay, the review's suite, the
//!   scorecard;
//! - a worker that stops (it trapped: a bug, or memory run out) is replaced by a new one at
//!   its place: the runs it held go to the workers again in a new plan (results already in
//!   stay), the views' own work it carried is reported failed with the reason (the drive over
//!   time is asked again), and the model status line says a worker was replaced and why; the
//!   other views go on. A worker that cannot start, or a [`MAX_WORKER_STOPS`] + 1st stop (a
//!   fault that keeps coming back), shows the page's error screen with the reason (it panics,
//!   which the crash screen catches), never a page that silently stops;
//! - `?debug=worker` has the last worker trap once it is under way with the first plan, so
//!   that recovery can be seen, and is tested (`crates/e2e/tests/e2e_crash.rs`);
//! - after [`Pool::stop`] the workers are ended and nothing more is sent.

use std::collections::HashMap;
use std::rc::Rc;

use crate::model::scorecard::Scorecard;
use crate::model::RunError;
use leptos::prelude::*;
use parallelism_model::sliced_fit::FitProgress;
use parallelism_work::fit::{FitAsk, FitFound};
use parallelism_work::jobs::{JobsAsk, JobsFound, JobsProgress};
use parallelism_work::over_time::{OverTimeResults, MAX_CACHED_DRIVES};
use parallelism_work::pool::{pool_size, Dispatch, Milestones};
use parallelism_work::protocol::{Reply, Request};
use parallelism_work::replay::{ReplayAsk, ReplayFound, ReplayProgress, ReplaySource};
use parallelism_work::review::{ReviewAsk, ReviewFound, ReviewProgress};
use parallelism_work::scorecard::{ScorecardAsk, ScorecardProgress};
use parallelism_work::teach::{TeachCommand, TeachNews};
use parallelism_work::{DriveKey, WorkError};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

use crate::ui::pure::compute::{Plan, Point, Progress, RunKey};

/// Longest wait from a result's arrival to the redraw that shows it, in milliseconds: results
/// that arrive meanwhile are drawn together. The page benchmark measured the per-frame
/// alternative: on a phone at 4x, five charts redrawn at every frame while four workers
/// streamed results kept the main thread busy in tasks of up to a second.
pub const REVISION_MS: u32 = 150;

/// The worker's loader, relative to the page (`assets/worker_loader.js`, beside the page).
pub const WORKER_URL: &str = "./worker_loader.js";

/// What the model status line shows of the pool (and the end-to-end tests read).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolStatus {
    pub workers: usize,
    /// The current plan's number.
    pub generation: u64,
    /// The oldest plan a worker last reported on (equal to `generation` once every worker has
    /// taken the current plan).
    pub oldest_report: u64,
    /// Workers whose last report for the current plan has them on a run it does not hold.
    pub stale_running: usize,
    /// Runs the workers have started since the page loaded.
    pub runs_started: u64,
    /// Workers that stopped and were replaced since the page loaded.
    pub stops: u32,
}

/// Tasks (job sets, replays) whose results the page keeps per kind, so going back to one
/// shows it at once.
const MAX_CACHED_TASKS: usize = 16;

/// The worker that carries the views' own work.
const LANE_WORKER: usize = 0;

/// The most workers the page replaces in its life; one more stop is a fault that keeps coming
/// back (a run that traps its worker each time), and gets the error screen instead.
pub const MAX_WORKER_STOPS: u32 = 3;

/// One worker. Requests are posted at once, before the worker has started too: its loader
/// (`assets/worker_loader.js`) holds them until the worker's wasm takes them, in order.
struct Slot {
    worker: Worker,
    /// How many workers held this place before this one: what a handler of a replaced worker
    /// hears is dropped.
    epoch: u32,
}

impl Slot {
    fn send(&self, request: &Request) {
        post(&self.worker, &JsValue::from_str(&request.encode()));
    }

    /// Sends `request` with `file` beside it (a two-item array: the worker reads the file).
    fn send_with_file(&self, request: &Request, file: &web_sys::File) {
        let pair = js_sys::Array::of2(&JsValue::from_str(&request.encode()), file);
        post(&self.worker, &pair.into());
    }
}

struct Inner {
    dispatch: Dispatch,
    /// How many of the plan's first runs its first screen waits for ([`Plan::first_screen`]).
    first_screen: usize,
    slots: Vec<Slot>,
    stopped: bool,
    /// The drive over time, per drive, as the worker sent it.
    time: HashMap<DriveKey, OverTimeResults>,
    /// The drive the worker was last asked to compute over time.
    time_asked: Option<DriveKey>,
    /// The last fit asked (ids grow; a cancel takes one too) and what is known of it.
    fit_id: u64,
    fit: Option<FitState>,
    /// The last job set asked, and the sets already done.
    jobs: TaskBook<JobsAsk, JobsProgress, JobsFound>,
    /// The last replay asked, and the replays already done.
    replay: TaskBook<ReplayAsk, ReplayProgress, ReplayFound>,
    /// The last review suite asked, and the drives already done.
    review: TaskBook<ReviewAsk, ReviewProgress, ReviewFound>,
    /// The last scoring asked, and the scorecard once done (it depends on nothing the page sets).
    scorecard: TaskBook<ScorecardAsk, ScorecardProgress, Scorecard>,
    /// The reader's trace file, and what tells it apart (never in the state or the link).
    trace_file: Option<(ReplaySource, web_sys::File)>,
    /// Teaching mode's point (ids grow with every point) and who hears its news.
    teach_id: u64,
    on_teach: Option<Rc<dyn Fn(TeachNews)>>,
    /// Where the workers load from.
    url: &'static str,
    /// Workers replaced so far, and why the last one stopped.
    stops: u32,
    last_stop: Option<String>,
    /// `?debug=worker`: the worker to trap once it reports work under way.
    trap: Option<usize>,
}

/// What the page knows of the fit it asked for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FitState {
    pub progress: FitProgress,
    /// What it found, or why it could not start, once it is done.
    pub outcome: Option<Result<FitFound, WorkError>>,
}

fn jobs_request(id: u64, ask: Option<JobsAsk>) -> Request {
    Request::Jobs { id, ask }
}

fn replay_request(id: u64, ask: Option<ReplayAsk>) -> Request {
    Request::Replay { id, ask }
}

fn review_request(id: u64, ask: Option<ReviewAsk>) -> Request {
    Request::Review { id, ask }
}

fn scorecard_request(id: u64, ask: Option<ScorecardAsk>) -> Request {
    Request::Scorecard {
        id,
        run: ask.is_some(),
    }
}

/// What a task asks that may name the reader's trace file.
trait NamesFile {
    /// The file source it names, if it names one.
    fn file_source(&self) -> Option<&ReplaySource>;
}

impl NamesFile for JobsAsk {
    fn file_source(&self) -> Option<&ReplaySource> {
        None
    }
}

impl NamesFile for ReviewAsk {
    fn file_source(&self) -> Option<&ReplaySource> {
        None
    }
}

impl NamesFile for ScorecardAsk {
    fn file_source(&self) -> Option<&ReplaySource> {
        None
    }
}

impl NamesFile for ReplayAsk {
    fn file_source(&self) -> Option<&ReplaySource> {
        matches!(self.source, ReplaySource::File { .. }).then_some(&self.source)
    }
}

impl Inner {
    /// The held trace file, when `ask` names it.
    fn file_for(&self, ask: &impl NamesFile) -> Option<web_sys::File> {
        let wanted = ask.file_source()?;
        self.trace_file
            .as_ref()
            .filter(|(source, _)| source == wanted)
            .map(|(_, file)| file.clone())
    }

    /// Sends `request` to the worker that carries the views' own work.
    fn send_lane(&self, request: &Request) {
        if let Some(slot) = self.slots.get(LANE_WORKER) {
            slot.send(request);
        }
    }
}

/// What the page knows of a task it asked a worker for (a job set, a replay).
#[derive(Clone, Debug, PartialEq)]
pub struct TaskState<A, P, F> {
    pub ask: A,
    pub progress: P,
    /// What the task came to, or why it could not run, once done.
    pub outcome: Option<Result<F, WorkError>>,
}

/// What the page knows of the jobs it asked for.
pub type JobsState = TaskState<JobsAsk, JobsProgress, JobsFound>;
/// What the page knows of the replay it asked for.
pub type ReplayState = TaskState<ReplayAsk, ReplayProgress, ReplayFound>;
/// What the page knows of the review suite it asked for.
pub type ReviewState = TaskState<ReviewAsk, ReviewProgress, ReviewFound>;
/// What the page knows of the scorecard it asked for.
pub type ScorecardState = TaskState<ScorecardAsk, ScorecardProgress, Scorecard>;

/// One kind of task: the last asked (ids grow; a cancel takes one too), what is known of it,
/// and the ones already done.
struct TaskBook<A, P, F> {
    id: u64,
    state: Option<TaskState<A, P, F>>,
    done: Vec<(A, F)>,
}

impl<A, P, F> Default for TaskBook<A, P, F> {
    fn default() -> Self {
        TaskBook {
            id: 0,
            state: None,
            done: Vec::new(),
        }
    }
}

impl<A: Clone + PartialEq, P: Copy + Default, F: Clone> TaskBook<A, P, F> {
    /// What `ask` found, if it was done before.
    fn cached(&self, ask: &A) -> Option<F> {
        self.done
            .iter()
            .find(|(a, _)| a == ask)
            .map(|(_, f)| f.clone())
    }

    /// A new task (or none): its id, for the request.
    fn begin(&mut self, ask: Option<A>) -> u64 {
        self.id += 1;
        self.state = ask.map(|ask| TaskState {
            ask,
            progress: P::default(),
            outcome: None,
        });
        self.id
    }

    fn running(&self) -> bool {
        self.state.as_ref().is_some_and(|s| s.outcome.is_none())
    }

    /// The task under way, if any, failed: `why`.
    fn fail_running(&mut self, why: WorkError) {
        if let Some(state) = self.state.as_mut().filter(|s| s.outcome.is_none()) {
            state.outcome = Some(Err(why));
        }
    }

    /// A reply for task `id`; one for a task no longer asked is dropped.
    fn receive(&mut self, id: u64, progress: P, outcome: Option<Result<F, WorkError>>) {
        if id != self.id {
            return;
        }
        let Some(state) = self.state.as_mut() else {
            return;
        };
        state.progress = progress;
        let known = self.done.iter().any(|(a, _)| *a == state.ask);
        if let Some(Ok(found)) = outcome.as_ref().filter(|_| !known) {
            if self.done.len() >= MAX_CACHED_TASKS {
                self.done.remove(0);
            }
            self.done.push((state.ask.clone(), found.clone()));
        }
        state.outcome = outcome;
    }
}

/// A revision that changes at most once per [`REVISION_MS`].
#[derive(Clone, Copy)]
struct Coalesced {
    revision: RwSignal<u64>,
    /// Whether a change is already due.
    due: StoredValue<bool, LocalStorage>,
}

impl Coalesced {
    fn new() -> Coalesced {
        Coalesced {
            revision: RwSignal::new(0),
            due: StoredValue::new_local(false),
        }
    }

    /// Bumps the revision now if `at_once` (a reply that completes what the reader waits
    /// for; a bump already due still follows), else [`REVISION_MS`] from now.
    fn bump(&self, at_once: bool) {
        if at_once {
            let _ = self.revision.try_update(|r| *r += 1);
        } else {
            self.bump_soon();
        }
    }

    /// Bumps the revision [`REVISION_MS`] from now, once however often it is asked meanwhile.
    fn bump_soon(&self) {
        if self.due.try_get_value().unwrap_or(true) {
            return;
        }
        self.due.set_value(true);
        let Coalesced { revision, due } = *self;
        gloo_timers::callback::Timeout::new(REVISION_MS, move || {
            let _ = due.try_set_value(false);
            let _ = revision.try_update(|r| *r += 1);
        })
        .forget();
    }
}

/// The pool; cheap to copy into closures.
#[derive(Clone, Copy)]
pub struct Pool {
    inner: StoredValue<Inner, LocalStorage>,
    charts: Coalesced,
    time: Coalesced,
    fit: Coalesced,
    jobs: Coalesced,
    replay: Coalesced,
    review: Coalesced,
    scorecard: Coalesced,
}

impl Pool {
    /// Starts the workers from the loader at `url` and provides the pool to the views below;
    /// panics (the page's error screen) if the browser refuses them.
    pub fn start(url: &'static str) -> Pool {
        let workers = pool_size(window().navigator().hardware_concurrency() as usize);
        let pool = Pool {
            inner: StoredValue::new_local(Inner {
                dispatch: Dispatch::new(workers),
                first_screen: 0,
                slots: Vec::with_capacity(workers),
                stopped: false,
                time: HashMap::new(),
                time_asked: None,
                fit_id: 0,
                fit: None,
                jobs: TaskBook::default(),
                replay: TaskBook::default(),
                review: TaskBook::default(),
                scorecard: TaskBook::default(),
                trace_file: None,
                teach_id: 0,
                on_teach: None,
                url,
                stops: 0,
                last_stop: None,
                trap: crate::ui::browser::crash::debug_asked(
                    crate::ui::pure::url_state::DEBUG_WORKER,
                )
                .then_some(workers - 1),
            }),
            charts: Coalesced::new(),
            time: Coalesced::new(),
            fit: Coalesced::new(),
            jobs: Coalesced::new(),
            replay: Coalesced::new(),
            review: Coalesced::new(),
            scorecard: Coalesced::new(),
        };
        let early = EarlyWorker::find();
        for index in 0..workers {
            let worker = match early.as_ref().filter(|_| index == 0) {
                Some(first) => {
                    listen(pool, 0, 0, url, &first.worker);
                    first.worker.clone()
                }
                None => spawn(pool, index, 0, url)
                    .unwrap_or_else(|why| panic!("the model's worker could not start: {why}")),
            };
            pool.inner
                .update_value(|i| i.slots.push(Slot { worker, epoch: 0 }));
        }
        if let Some(first) = early {
            // What it said before the app started, to the handlers just installed, in order (an
            // event whose dispatch is over can be dispatched again, with its time stamp).
            for event in first.take_held() {
                let _ = first.worker.dispatch_event(&event);
            }
        }
        provide_context(pool);
        pool
    }

    /// The page's pool, for a view inside the app (panics outside it, a programming error).
    pub fn expect() -> Pool {
        expect_context::<Pool>()
    }

    /// Changes whenever results may have changed (once per [`REVISION_MS`] at most); track it
    /// to follow them.
    pub fn revision(&self) -> u64 {
        self.charts.revision.get()
    }

    /// Changes whenever the drive over time may have changed (once per [`REVISION_MS`] at
    /// most).
    pub fn time_revision(&self) -> u64 {
        self.time.revision.get()
    }

    /// Makes `plan` what the workers compute: queued work for older plans is dropped and a run
    /// of a plan no longer shown is set aside at the end of the worker's slice.
    pub fn set_plan(&self, plan: Plan) {
        self.inner.update_value(|inner| {
            if inner.stopped {
                return;
            }
            inner.first_screen = plan.first_screen;
            let requests = inner.dispatch.set_plan(plan.keys);
            for (slot, request) in inner.slots.iter().zip(requests) {
                slot.send(&request);
            }
        });
        self.charts.bump_soon();
    }

    /// Makes `drive` the drive computed over time (`None`: none, the view is hidden). A drive
    /// whose results the page holds complete is not asked for again.
    pub fn set_time_target(&self, drive: Option<DriveKey>) {
        self.inner.update_value(|inner| {
            let drive = drive.filter(|d| inner.time.get(d).is_none_or(|r| !r.is_done()));
            if inner.stopped || inner.time_asked == drive {
                return;
            }
            inner.time_asked = drive.clone();
            inner.send_lane(&Request::Time { drive });
        });
    }

    /// Changes whenever the fit may have moved (once per [`REVISION_MS`] at most).
    pub fn fit_revision(&self) -> u64 {
        self.fit.revision.get()
    }

    /// Starts a fit for `ask`, dropping the one before.
    pub fn start_fit(&self, ask: FitAsk) {
        self.ask_fit(Some(ask));
    }

    /// Drops the fit under way, if any.
    pub fn cancel_fit(&self) {
        self.ask_fit(None);
    }

    fn ask_fit(&self, ask: Option<FitAsk>) {
        self.inner.update_value(|inner| {
            if inner.stopped {
                return;
            }
            inner.fit_id += 1;
            inner.fit = ask.is_some().then(FitState::default);
            let request = Request::Fit {
                id: inner.fit_id,
                ask,
            };
            inner.send_lane(&request);
        });
        self.fit.bump_soon();
    }

    /// Changes whenever the jobs may have moved (once per [`REVISION_MS`] at most).
    pub fn jobs_revision(&self) -> u64 {
        self.jobs.revision.get()
    }

    /// Runs the job set `ask`, dropping the one before; a set already done is shown at once.
    pub fn start_jobs(&self, ask: JobsAsk) {
        self.start_task(ask, |i| &mut i.jobs, jobs_request, self.jobs);
    }

    /// Drops the job set under way, if any.
    pub fn cancel_jobs(&self) {
        self.cancel_task(|i| &mut i.jobs, jobs_request, self.jobs);
    }

    /// What is known of the job set last started (not tracked: track [`Self::jobs_revision`]).
    pub fn jobs_state(&self) -> Option<JobsState> {
        self.inner
            .try_with_value(|i| i.jobs.state.clone())
            .flatten()
    }

    /// Changes whenever the replay may have moved (once per [`REVISION_MS`] at most).
    pub fn replay_revision(&self) -> u64 {
        self.replay.revision.get()
    }

    /// Replays `ask`, dropping the replay before; one already done is shown at once. A replay
    /// of the reader's file takes the file [`Self::set_trace_file`] holds along.
    pub fn start_replay(&self, ask: ReplayAsk) {
        self.start_task(ask, |i| &mut i.replay, replay_request, self.replay);
    }

    /// Holds `file` as the reader's trace file (replacing the one before) and says what tells
    /// it apart; the replays that name it take it along.
    pub fn set_trace_file(&self, file: web_sys::File) -> ReplaySource {
        let source = ReplaySource::File {
            name: file.name(),
            bytes: file.size() as u64,
            modified_ms: file.last_modified() as u64,
            format: None,
        };
        let held = source.clone();
        let _ = self
            .inner
            .try_update_value(|i| i.trace_file = Some((held, file)));
        self.replay.bump_soon();
        source
    }

    /// What tells the reader's trace file apart, if one is held.
    pub fn trace_file(&self) -> Option<ReplaySource> {
        self.inner
            .try_with_value(|i| i.trace_file.as_ref().map(|(s, _)| s.clone()))
            .flatten()
    }

    /// Drops the replay under way, if any.
    pub fn cancel_replay(&self) {
        self.cancel_task(|i| &mut i.replay, replay_request, self.replay);
    }

    /// What is known of the replay last started (not tracked: track [`Self::replay_revision`]).
    pub fn replay_state(&self) -> Option<ReplayState> {
        self.inner
            .try_with_value(|i| i.replay.state.clone())
            .flatten()
    }

    /// Changes whenever the review suite may have moved (once per [`REVISION_MS`] at most).
    pub fn review_revision(&self) -> u64 {
        self.review.revision.get()
    }

    /// Runs the E12 review's suite for `ask`, dropping the one before; a drive already done
    /// is shown at once.
    pub fn start_review(&self, ask: ReviewAsk) {
        self.start_task(ask, |i| &mut i.review, review_request, self.review);
    }

    /// Drops the review suite under way, if any.
    pub fn cancel_review(&self) {
        self.cancel_task(|i| &mut i.review, review_request, self.review);
    }

    /// What is known of the suite last started (not tracked: track [`Self::review_revision`]).
    pub fn review_state(&self) -> Option<ReviewState> {
        self.inner
            .try_with_value(|i| i.review.state.clone())
            .flatten()
    }

    /// Changes whenever the scorecard may have moved (once per [`REVISION_MS`] at most).
    pub fn scorecard_revision(&self) -> u64 {
        self.scorecard.revision.get()
    }

    /// Scores the model against every published figure, dropping the scoring before; once
    /// done, the scorecard is shown at once from then on. The view says so at once (not a
    /// revision later: it would say "stopped" meanwhile).
    pub fn start_scorecard(&self) {
        self.start_task(
            ScorecardAsk,
            |i| &mut i.scorecard,
            scorecard_request,
            self.scorecard,
        );
        self.scorecard.bump(true);
    }

    /// Drops the scoring under way, if any; the view says so at once.
    pub fn cancel_scorecard(&self) {
        self.cancel_task(|i| &mut i.scorecard, scorecard_request, self.scorecard);
        self.scorecard.bump(true);
    }

    /// What is known of the scoring last started (not tracked: track
    /// [`Self::scorecard_revision`]).
    pub fn scorecard_state(&self) -> Option<ScorecardState> {
        self.inner
            .try_with_value(|i| i.scorecard.state.clone())
            .flatten()
    }

    /// Asks the lane worker for `ask` (dropping the task before), or shows what it found
    /// before at once.
    fn start_task<A: Clone + PartialEq + NamesFile, P: Copy + Default, F: Clone>(
        &self,
        ask: A,
        book: fn(&mut Inner) -> &mut TaskBook<A, P, F>,
        request: fn(u64, Option<A>) -> Request,
        revision: Coalesced,
    ) {
        let _ = self.inner.try_update_value(|inner| {
            if inner.stopped {
                return;
            }
            let b = book(inner);
            let cached = b.cached(&ask);
            let id = b.begin(Some(ask.clone()));
            let sent = match cached {
                Some(found) => {
                    b.receive(id, P::default(), Some(Ok(found)));
                    None
                }
                None => Some(ask),
            };
            let file = sent.as_ref().and_then(|ask| inner.file_for(ask));
            let request = request(id, sent);
            match (file, inner.slots.get(LANE_WORKER)) {
                (Some(file), Some(slot)) => slot.send_with_file(&request, &file),
                (None, _) => inner.send_lane(&request),
                (Some(_), None) => {}
            }
        });
        revision.bump_soon();
    }

    /// Takes in what is known of `drive` over time (kept per drive, a finished one never
    /// replaced); its revision moves at once when it is done.
    fn take_time(&self, drive: DriveKey, results: OverTimeResults) {
        let done = results.is_done();
        let _ = self.inner.try_update_value(|i| {
            if i.time.get(&drive).is_none_or(|r| !r.is_done()) {
                if i.time.len() >= MAX_CACHED_DRIVES {
                    let asked = i.time_asked.clone();
                    i.time.retain(|k, _| Some(k) == asked.as_ref());
                }
                i.time.insert(drive, results);
            }
        });
        self.time.bump(done);
    }

    /// Takes in a reply for task `id` of `book`; its revision moves at once when it is done.
    fn take_task<A: Clone + PartialEq, P: Copy + Default, F: Clone>(
        &self,
        book: fn(&mut Inner) -> &mut TaskBook<A, P, F>,
        revision: Coalesced,
        id: u64,
        progress: P,
        outcome: Option<Result<F, WorkError>>,
    ) {
        let done = outcome.is_some();
        let _ = self
            .inner
            .try_update_value(|i| book(i).receive(id, progress, outcome));
        revision.bump(done);
    }

    /// Drops the task of `book` if one is under way.
    fn cancel_task<A: Clone + PartialEq, P: Copy + Default, F: Clone>(
        &self,
        book: fn(&mut Inner) -> &mut TaskBook<A, P, F>,
        request: fn(u64, Option<A>) -> Request,
        revision: Coalesced,
    ) {
        let _ = self.inner.try_update_value(|inner| {
            let b = book(inner);
            if !b.running() {
                return;
            }
            let id = b.begin(None);
            if !inner.stopped {
                inner.send_lane(&request(id, None));
            }
        });
        revision.bump_soon();
    }

    /// Plays `key` in teaching mode (dropping the point before); its news goes to `listener`.
    pub fn teach_start(&self, key: RunKey, listener: Rc<dyn Fn(TeachNews)>) {
        self.inner.update_value(|inner| {
            inner.teach_id += 1;
            inner.on_teach = Some(listener);
        });
        self.teach(TeachCommand::Start(key));
    }

    /// Teaching mode is closed: its point is dropped and nobody hears of it.
    pub fn teach_stop(&self) {
        let _ = self.inner.try_update_value(|inner| {
            inner.teach_id += 1;
            inner.on_teach = None;
        });
        self.teach(TeachCommand::Stop);
    }

    /// A command for the point playing (answered to the listener of [`Self::teach_start`]).
    pub fn teach(&self, command: TeachCommand) {
        let _ = self.inner.try_update_value(|inner| {
            if inner.stopped {
                return;
            }
            let request = Request::Teach {
                id: inner.teach_id,
                command,
            };
            inner.send_lane(&request);
        });
    }

    /// What is known of the fit last started (not tracked: track [`Self::fit_revision`]).
    pub fn fit_state(&self) -> Option<FitState> {
        self.inner.try_with_value(|i| i.fit.clone()).flatten()
    }

    /// What is known of `drive` over time (not tracked: track [`Self::time_revision`]).
    pub fn time_results(&self, drive: &DriveKey) -> Option<OverTimeResults> {
        self.inner
            .try_with_value(|i| i.time.get(drive).cloned())
            .flatten()
    }

    /// The best result so far for `key` (not tracked: track [`Self::revision`]).
    pub fn point(&self, key: &RunKey) -> Option<Point> {
        self.inner
            .try_with_value(|i| i.dispatch.point(key))
            .flatten()
    }

    /// Why the model gave no result for `key`, if it gave none.
    pub fn failure(&self, key: &RunKey) -> Option<RunError> {
        self.inner
            .try_with_value(|i| i.dispatch.failure(key).cloned())
            .flatten()
    }

    /// Runs `f` with a lookup of the results so far.
    pub fn with_results<R>(&self, f: impl FnOnce(&dyn Fn(&RunKey) -> Option<Point>) -> R) -> R {
        let lookup = |k: &RunKey| self.point(k);
        f(&lookup)
    }

    pub fn progress(&self) -> Progress {
        self.inner
            .try_with_value(|i| i.dispatch.progress())
            .unwrap_or_default()
    }

    /// Where the plan stands for the page's first screen.
    fn milestones(&self) -> Milestones {
        self.inner
            .try_with_value(|i| i.dispatch.milestones(i.first_screen))
            .unwrap_or_default()
    }

    pub fn status(&self) -> PoolStatus {
        self.inner
            .try_with_value(|i| {
                let d = &i.dispatch;
                PoolStatus {
                    workers: d.workers(),
                    generation: d.generation(),
                    oldest_report: d.reports().iter().map(|r| r.generation).min().unwrap_or(0),
                    stale_running: d.stale_running(),
                    runs_started: d.reports().iter().map(|r| r.runs_started).sum(),
                    stops: i.stops,
                }
            })
            .unwrap_or_default()
    }

    /// Ends the workers for good (the component unmounts).
    pub fn stop(&self) {
        let _ = self.inner.try_update_value(|inner| {
            inner.stopped = true;
            for slot in &inner.slots {
                slot.worker.terminate();
            }
        });
    }

    /// Takes in one message of worker `index`, which the page's thread heard at `heard` (ms in
    /// the page's timeline).
    fn receive(&self, index: usize, text: &str, heard: f64) {
        let reply = Reply::decode(text)
            .unwrap_or_else(|e| {
                // The page's files are content-hashed, the worker's are not: a host that
                // caches the worker's files can pair this page with an older worker.
                panic!(
                    "the model's worker {index} sent a message this page cannot read, as a worker of another version of the lab would (a cached copy: reload the page); it sent {text:?}: {e}"
                )
            });
        match reply {
            Reply::Ready => {
                // In the page's performance timeline (`lab:worker-N-ready`), for the page
                // benchmark's timeline of a load; at the time the page heard it, which for
                // the first worker can be before the app started.
                let at = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&at, &"startTime".into(), &heard.into());
                let _ = mark_at(&format!("lab:worker-{index}-ready"), &at);
            }
            Reply::Panicked { why } => self.worker_stopped(index, why),
            // A request the worker could not read is the page's bug, not the reader's: said
            // where a developer looks, and the worker goes on with the plan it had.
            Reply::Refused { why } => leptos::logging::error!("model worker {index}: {why}"),
            results @ Reply::Results { .. } => {
                self.trap_if_asked(index, &results);
                let before = self.milestones();
                let _ = self
                    .inner
                    .try_update_value(|i| i.dispatch.receive(index, results));
                // What the reader waits for is shown at once: the first screen complete, the
                // plan's last estimate, its last full result; the charts redraw for each once
                // either way.
                self.charts.bump(self.milestones().reached_since(&before));
            }
            Reply::Time { drive, results } => self.take_time(drive, results),
            Reply::Fit {
                id,
                progress,
                outcome,
            } => {
                let done = outcome.is_some();
                let _ = self.inner.try_update_value(|i| {
                    if id == i.fit_id {
                        i.fit = Some(FitState { progress, outcome });
                    }
                });
                self.fit.bump(done);
            }
            Reply::Jobs {
                id,
                progress,
                outcome,
            } => self.take_task(|i| &mut i.jobs, self.jobs, id, progress, outcome),
            Reply::Replay {
                id,
                progress,
                outcome,
            } => self.take_task(|i| &mut i.replay, self.replay, id, progress, outcome),
            Reply::Review {
                id,
                progress,
                outcome,
            } => self.take_task(|i| &mut i.review, self.review, id, progress, outcome),
            Reply::Scorecard {
                id,
                progress,
                outcome,
            } => self.take_task(|i| &mut i.scorecard, self.scorecard, id, progress, outcome),
            Reply::Teach { id, news } => {
                let listener = self
                    .inner
                    .try_with_value(|i| i.on_teach.clone().filter(|_| id == i.teach_id))
                    .flatten();
                if let Some(listener) = listener {
                    listener(news);
                }
            }
        }
    }
}

/// A worker that stops, and the one that takes its place.
impl Pool {
    /// Whether `epoch` is the worker now at place `index` (not one replaced since).
    fn is_current(&self, index: usize, epoch: u32) -> bool {
        self.inner
            .try_with_value(|i| !i.stopped && i.slots.get(index).is_some_and(|s| s.epoch == epoch))
            .unwrap_or(false)
    }

    /// Worker `index` stopped, saying `why`: a new one takes its place (see the module's
    /// documentation), or, past [`MAX_WORKER_STOPS`], the page shows its error screen.
    fn worker_stopped(&self, index: usize, why: String) {
        let Some((stops, epoch, url)) = self.inner.try_update_value(|i| {
            i.stops += 1;
            let epoch = i.slots.get(index).map_or(0, |s| s.epoch + 1);
            (i.stops, epoch, i.url)
        }) else {
            return;
        };
        if stops > MAX_WORKER_STOPS {
            panic!("the model's worker {index} stopped ({why}), the {stops}th worker to stop");
        }
        leptos::logging::warn!("model worker {index} stopped ({why}); starting another");
        let worker = spawn(*self, index, epoch, url).unwrap_or_else(|e| {
            panic!("the model's worker {index} stopped ({why}) and no other could start: {e}")
        });
        let _ = self.inner.try_update_value(|i| {
            if let Some(old) = i.slots.get_mut(index) {
                old.worker.terminate();
                *old = Slot { worker, epoch };
            }
            i.last_stop = Some(why.clone());
            let requests = i.dispatch.worker_lost(index);
            for (slot, request) in i.slots.iter().zip(requests) {
                slot.send(&request);
            }
            if index == LANE_WORKER {
                i.lane_lost(&why);
            }
        });
        if index == LANE_WORKER {
            // Told outside the pool's borrow: the listener may ask the pool for more.
            let listener = self.inner.try_with_value(|i| i.on_teach.clone()).flatten();
            if let Some(listener) = listener {
                listener(TeachNews::Failed(WorkError::WorkerStopped { why }));
            }
        }
        for revision in [
            self.charts,
            self.time,
            self.fit,
            self.jobs,
            self.replay,
            self.review,
            self.scorecard,
        ] {
            revision.bump(true);
        }
    }

    /// `?debug=worker`: traps the chosen worker once it reports work under way on a plan.
    fn trap_if_asked(&self, index: usize, reply: &Reply) {
        let under_way = matches!(
            reply,
            Reply::Results {
                idle: false,
                working_on: Some(_),
                ..
            }
        );
        let _ = self.inner.try_update_value(|i| {
            if under_way && i.trap == Some(index) {
                i.trap = None;
                if let Some(slot) = i.slots.get(index) {
                    slot.send(&Request::Trap);
                }
            }
        });
    }

    /// Why the last worker that stopped did (none has: `None`).
    pub fn last_stop(&self) -> Option<String> {
        self.inner.try_with_value(|i| i.last_stop.clone()).flatten()
    }
}

impl Inner {
    /// The worker that carried the views' own work stopped: what it had under way is failed
    /// with the reason (teaching mode's listener is told once the pool is free again), and the
    /// drive over time is asked of the new worker.
    fn lane_lost(&mut self, why: &str) {
        let lost = || WorkError::WorkerStopped {
            why: why.to_string(),
        };
        if let Some(fit) = self.fit.as_mut().filter(|f| f.outcome.is_none()) {
            fit.outcome = Some(Err(lost()));
        }
        self.jobs.fail_running(lost());
        self.replay.fail_running(lost());
        self.review.fail_running(lost());
        self.scorecard.fail_running(lost());
        if self.time_asked.is_some() {
            self.send_lane(&Request::Time {
                drive: self.time_asked.clone(),
            });
        }
    }
}

/// The name `assets/boot.js` gives the first worker it started, on the page's global object: an
/// object with the `worker` and a `take()` that stops holding its events and hands over those
/// it held, in order, and removes the name (so it is taken once).
const FIRST_WORKER: &str = "labFirstWorker";

/// The first worker `assets/boot.js` started before the app, whose events it holds.
struct EarlyWorker {
    worker: Worker,
    holder: JsValue,
}

impl EarlyWorker {
    /// The worker `boot.js` started; `None` where there is none (the browser tests mount the
    /// app without `boot.js`).
    fn find() -> Option<EarlyWorker> {
        let holder = js_sys::Reflect::get(&js_sys::global(), &FIRST_WORKER.into()).ok()?;
        let worker = js_sys::Reflect::get(&holder, &"worker".into())
            .ok()?
            .dyn_into()
            .ok()?;
        Some(EarlyWorker { worker, holder })
    }

    /// Stops `boot.js` holding the worker's events and returns those it held, in order.
    fn take_held(&self) -> Vec<web_sys::Event> {
        let take = js_sys::Reflect::get(&self.holder, &"take".into())
            .ok()
            .and_then(|t| t.dyn_into::<js_sys::Function>().ok());
        let held = take.and_then(|t| t.call0(&self.holder).ok());
        let held = held.and_then(|h| h.dyn_into::<js_sys::Array>().ok());
        held.map(|h| h.iter().map(JsCast::unchecked_into).collect())
            .unwrap_or_default()
    }
}

/// Starts worker `index` (the `epoch`th at its place) of `pool` with its message and error
/// handlers.
fn spawn(pool: Pool, index: usize, epoch: u32, url: &'static str) -> Result<Worker, String> {
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    options.set_name(&format!("model-{index}"));
    let worker =
        Worker::new_with_options(url, &options).map_err(|e| format!("{url}: {}", describe(&e)))?;
    listen(pool, index, epoch, url, &worker);
    Ok(worker)
}

/// Has `pool` hear worker `index`, the `epoch`th at its place (started from `url`): its
/// messages and its errors, until it is replaced.
fn listen(pool: Pool, index: usize, epoch: u32, url: &'static str, worker: &Worker) {
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        if !pool.is_current(index, epoch) {
            return;
        }
        match event.data().as_string() {
            Some(text) => pool.receive(index, &text, event.time_stamp()),
            None => panic!("the model's worker {index} sent a message that is not text"),
        }
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    let on_error = Closure::<dyn Fn(web_sys::Event)>::new(move |event: web_sys::Event| {
        if !pool.is_current(index, epoch) {
            return;
        }
        // A module that fails to load (missing file, refused by the CSP) gives a plain event;
        // an exception inside the worker (a trap) gives its message.
        let why = event
            .dyn_ref::<ErrorEvent>()
            .map(|e| e.message())
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| format!("{url} did not load"));
        pool.worker_stopped(index, why);
    });
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    // The handlers live as long as the page (a replaced worker's hear nothing more).
    on_message.forget();
    on_error.forget();
}

#[wasm_bindgen]
extern "C" {
    /// `performance.mark(name, { startTime })`: a mark at a time of its own (web-sys has the
    /// options only behind its unstable APIs).
    #[wasm_bindgen(catch, js_namespace = performance, js_name = mark)]
    fn mark_at(name: &str, options: &js_sys::Object) -> Result<JsValue, JsValue>;
}

fn post(worker: &Worker, message: &JsValue) {
    if let Err(e) = worker.post_message(message) {
        panic!(
            "the page could not message its model worker: {}",
            describe(&e)
        );
    }
}

/// A thrown JavaScript value, as text.
fn describe(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}
