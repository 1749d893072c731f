//! The page's side of the worker pool, as bookkeeping: which worker gets which run of a plan,
//! and the results they send back. The browser part (starting workers, posting messages) is
//! the page's; everything that decides is here, so it is tested natively.
//!
//! What always holds:
//! - the page's results live here and only here: a result is never downgraded (a full result
//!   is kept over a later estimate), and a run with a final result is never asked for again;
//! - every run of a plan without a final result goes to exactly one worker, most important
//!   first in each worker's share;
//! - a run a worker has estimated goes back to that worker to be refined (it holds the run's
//!   simulation, set aside), so no simulated request is computed twice; any other run goes to
//!   the worker with the fewest runs of the plan so far (ties to the lowest index), so the
//!   workers share a plan evenly and its first runs start on every worker at once;
//! - every worker is sent every plan, even an empty share, so a worker never goes on with a
//!   plan the page has replaced.

use std::collections::{HashMap, HashSet};

use parallelism_model::RunError;

use crate::key::{Outcome, Point, RunKey};
use crate::plan::{Progress, MAX_CACHED};
use crate::protocol::{Reply, Request};

/// Most workers a page starts: the default view has about sixty runs, so four workers get
/// some fifteen each; more would mostly add start-up (each loads and compiles the engine)
/// and memory on the phones that report eight cores. An assumption, measured in the README.
pub const MAX_WORKERS: usize = 4;

/// How many workers a device gets: one per core it has to spare beyond the page's own
/// thread (`navigator.hardwareConcurrency` less one), at least one, at most [`MAX_WORKERS`].
pub fn pool_size(hardware_concurrency: usize) -> usize {
    hardware_concurrency.saturating_sub(1).clamp(1, MAX_WORKERS)
}

/// What one worker said last.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkerReport {
    /// The plan it was working for.
    pub generation: u64,
    /// The run it was advancing, if any.
    pub working_on: Option<RunKey>,
    pub runs_started: u64,
    pub idle: bool,
}

/// The plan, the results and where each run is computed.
#[derive(Debug)]
pub struct Dispatch {
    workers: usize,
    plan: Vec<RunKey>,
    generation: u64,
    results: HashMap<RunKey, Outcome>,
    /// The worker that holds a run's estimate (and its simulation, set aside).
    home: HashMap<RunKey, usize>,
    reports: Vec<WorkerReport>,
}

impl Dispatch {
    /// Bookkeeping for `workers` workers (at least one).
    pub fn new(workers: usize) -> Dispatch {
        let workers = workers.max(1);
        Dispatch {
            workers,
            plan: Vec::new(),
            generation: 0,
            results: HashMap::new(),
            home: HashMap::new(),
            reports: vec![WorkerReport::default(); workers],
        }
    }

    pub fn workers(&self) -> usize {
        self.workers
    }

    /// The current plan's number (it grows with every [`Self::set_plan`]).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Makes `plan` the plan and returns the request for each worker, by index.
    pub fn set_plan(&mut self, plan: Vec<RunKey>) -> Vec<Request> {
        self.generation += 1;
        self.plan = plan;
        if self.results.len() > MAX_CACHED {
            let keep: HashSet<RunKey> = self.plan.iter().cloned().collect();
            self.results.retain(|k, _| keep.contains(k));
            self.home.retain(|k, _| keep.contains(k));
        }
        let mut shares = vec![Vec::new(); self.workers];
        for key in &self.plan {
            if self.results.get(key).is_some_and(Outcome::is_final) {
                continue;
            }
            let worker = self.home.get(key).copied().unwrap_or_else(|| {
                (0..self.workers)
                    .min_by_key(|&w| shares[w].len())
                    .unwrap_or(0)
            });
            shares[worker].push(key.clone());
        }
        shares
            .into_iter()
            .map(|keys| Request::Plan {
                generation: self.generation,
                keys,
            })
            .collect()
    }

    /// Worker `worker` stopped and a new one took its place: the runs it held (its estimates'
    /// simulations, set aside, are gone with it) go to the workers again, in a new plan of the
    /// same runs; returns the request for each worker, by index. Results already in are kept.
    pub fn worker_lost(&mut self, worker: usize) -> Vec<Request> {
        self.home.retain(|_, &mut w| w != worker);
        if let Some(report) = self.reports.get_mut(worker) {
            *report = WorkerReport::default();
        }
        self.set_plan(self.plan.clone())
    }

    /// Takes in what `worker` replied; true if a result the page shows may have changed.
    pub fn receive(&mut self, worker: usize, reply: Reply) -> bool {
        let Reply::Results {
            generation,
            results,
            working_on,
            runs_started,
            idle,
        } = reply
        else {
            return false;
        };
        if let Some(report) = self.reports.get_mut(worker) {
            *report = WorkerReport {
                generation,
                working_on,
                runs_started,
                idle,
            };
        }
        let mut changed = false;
        for (key, outcome) in results {
            if outcome.is_final() {
                self.home.remove(&key);
            } else {
                self.home.insert(key.clone(), worker);
            }
            if outcome.improves_on(self.results.get(&key)) {
                self.results.insert(key, outcome);
                changed = true;
            }
        }
        changed
    }

    /// What each worker said last, by index.
    pub fn reports(&self) -> &[WorkerReport] {
        &self.reports
    }

    /// Workers whose last report, for the current plan, has them on a run the plan does not
    /// hold (the pool's promise is that this is always zero).
    pub fn stale_running(&self) -> usize {
        self.reports
            .iter()
            .filter(|r| {
                r.generation == self.generation
                    && r.working_on
                        .as_ref()
                        .is_some_and(|k| !self.plan.contains(k))
            })
            .count()
    }

    pub fn outcome(&self, key: &RunKey) -> Option<&Outcome> {
        self.results.get(key)
    }

    /// The best point so far for `key`.
    pub fn point(&self, key: &RunKey) -> Option<Point> {
        match self.results.get(key) {
            Some(Outcome::Done(p)) => Some(**p),
            _ => None,
        }
    }

    /// Why the model gave no result for `key`, if it gave none.
    pub fn failure(&self, key: &RunKey) -> Option<&RunError> {
        match self.results.get(key) {
            Some(Outcome::Failed(why)) => Some(why),
            _ => None,
        }
    }

    pub fn progress(&self) -> Progress {
        Progress::of(&self.plan, |k| self.results.get(k))
    }

    /// Where the plan stands for a page whose first screen draws the plan's first
    /// `first_screen` runs.
    pub fn milestones(&self, first_screen: usize) -> Milestones {
        Milestones {
            progress: self.progress(),
            first_screen: self
                .plan
                .iter()
                .take(first_screen)
                .all(|k| self.results.contains_key(k)),
        }
    }
}

/// The moments of a plan a reader waits for: its first screen with every result (an
/// estimate at least, or a failure), then every point estimated, then every point computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Milestones {
    pub progress: Progress,
    /// Each of the runs the first screen draws has a result.
    pub first_screen: bool,
}

impl Milestones {
    /// Whether one of the moments came between `before` and this, on the same plan.
    pub fn reached_since(&self, before: &Milestones) -> bool {
        (self.first_screen && !before.first_screen) || self.progress.completes(&before.progress)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::{Fidelity, Point};
    use crate::plan::PlanTask;
    use crate::serve::Server;
    use crate::testing::key_at;
    use parallelism_model::DriveState;

    fn keys(n: u32) -> Vec<RunKey> {
        (1..=n)
            .map(|iodepth| key_at(DriveState::Fob, iodepth, 100))
            .collect()
    }

    fn share(request: &Request) -> &[RunKey] {
        match request {
            Request::Plan { keys, .. } => keys,
            other => panic!("not a plan: {other:?}"),
        }
    }

    fn point(fidelity: Fidelity) -> Outcome {
        Outcome::Done(Box::new(Point {
            iops: 1.0,
            mb_s: 1.0,
            mean_us: 1.0,
            p99_us: 1.0,
            p999_us: 1.0,
            bottleneck: parallelism_model::Bottleneck::Dies,
            program_wait: parallelism_model::stats::ProgramWait::Rarely,
            watts: 1.0,
            budget_w: None,
            saturated: false,
            in_system: 1.0,
            anatomy: crate::PointAnatomy::default(),
            fidelity,
        }))
    }

    fn results(generation: u64, results: Vec<(RunKey, Outcome)>) -> Reply {
        Reply::Results {
            generation,
            results,
            working_on: None,
            runs_started: 0,
            idle: false,
        }
    }

    #[test]
    fn a_device_gets_a_worker_per_core_to_spare_within_bounds() {
        assert_eq!(pool_size(0), 1, "a browser that reports nothing gets one");
        assert_eq!(pool_size(1), 1);
        assert_eq!(pool_size(2), 1);
        assert_eq!(pool_size(4), 3);
        assert_eq!(pool_size(16), MAX_WORKERS);
    }

    #[test]
    fn a_plan_is_shared_evenly_most_important_first() {
        let plan = keys(5);
        let mut d = Dispatch::new(2);
        let requests = d.set_plan(plan.clone());
        assert_eq!(
            share(&requests[0]),
            [plan[0].clone(), plan[2].clone(), plan[4].clone()]
        );
        assert_eq!(share(&requests[1]), [plan[1].clone(), plan[3].clone()]);
        assert_eq!(Dispatch::new(0).workers(), 1, "at least one worker");
    }

    #[test]
    fn a_lost_workers_runs_go_to_the_workers_again_and_results_stay() {
        let plan = keys(4);
        let mut d = Dispatch::new(2);
        d.set_plan(plan.clone());
        // Worker 1 estimated the first run (its simulation set aside there), worker 0
        // finished the second; then worker 1 dies.
        d.receive(
            1,
            results(1, vec![(plan[0].clone(), point(Fidelity::Estimate))]),
        );
        d.receive(
            0,
            results(1, vec![(plan[1].clone(), point(Fidelity::Full))]),
        );
        let requests = d.worker_lost(1);
        assert_eq!(
            d.generation(),
            2,
            "a new plan, so no worker goes on with the old one"
        );
        let mut asked: Vec<RunKey> = requests.iter().flat_map(|r| share(r).to_vec()).collect();
        asked.sort_by_key(|k| format!("{k:?}"));
        let mut unfinished = vec![plan[0].clone(), plan[2].clone(), plan[3].clone()];
        unfinished.sort_by_key(|k| format!("{k:?}"));
        assert_eq!(asked, unfinished, "every run without a final result, once");
        assert!(d.point(&plan[0]).is_some(), "the estimate is still shown");
        assert_eq!(d.reports()[1], WorkerReport::default());
    }

    #[test]
    fn an_estimate_goes_back_to_its_worker_and_a_final_result_is_not_asked_again() {
        let plan = keys(3);
        let mut d = Dispatch::new(2);
        d.set_plan(plan.clone());
        // Worker 1 estimated the first run, worker 0 finished the second.
        assert!(d.receive(
            1,
            results(1, vec![(plan[0].clone(), point(Fidelity::Estimate))])
        ));
        assert!(d.receive(
            0,
            results(1, vec![(plan[1].clone(), point(Fidelity::Full))])
        ));
        let requests = d.set_plan(plan.clone());
        assert_eq!(
            share(&requests[1]),
            [plan[0].clone()],
            "refined where it was estimated"
        );
        assert_eq!(share(&requests[0]), [plan[2].clone()]);
        assert_eq!(
            d.progress(),
            Progress {
                total: 3,
                estimated: 2,
                finished: 1
            }
        );
    }

    #[test]
    fn the_first_screen_is_a_moment_once_each_of_its_runs_has_a_result() {
        // A page whose first screen draws the first two of three runs.
        let plan = keys(3);
        let mut d = Dispatch::new(1);
        d.set_plan(plan.clone());
        let start = d.milestones(2);
        assert!(!start.first_screen);
        assert!(d.milestones(0).first_screen, "no runs: nothing to wait for");
        d.receive(
            0,
            results(1, vec![(plan[1].clone(), point(Fidelity::Estimate))]),
        );
        let one = d.milestones(2);
        assert!(!one.reached_since(&start), "the first run is still missing");
        let why = RunKey {
            iodepth: 0,
            ..plan[0].clone()
        }
        .prepare(1)
        .err();
        let refused = Outcome::Failed(RunError::Config(why.expect("depth 0 is refused")));
        d.receive(0, results(1, vec![(plan[0].clone(), refused)]));
        let first = d.milestones(2);
        assert!(
            first.first_screen,
            "an estimate and a failure are both results"
        );
        assert!(first.reached_since(&one));
        assert!(!first.reached_since(&first), "a moment is reached once");
        // The last run: every point estimated, another moment; the first screen stays done.
        d.receive(
            0,
            results(1, vec![(plan[2].clone(), point(Fidelity::Estimate))]),
        );
        let all = d.milestones(2);
        assert!(all.first_screen && all.reached_since(&first));
        assert!(
            d.milestones(10).first_screen,
            "a first screen beyond the plan is the plan"
        );
    }

    #[test]
    fn a_late_estimate_never_replaces_a_full_result() {
        let k = keys(1)[0].clone();
        let mut d = Dispatch::new(1);
        d.set_plan(vec![k.clone()]);
        d.receive(0, results(1, vec![(k.clone(), point(Fidelity::Full))]));
        assert!(!d.receive(0, results(1, vec![(k.clone(), point(Fidelity::Estimate))])));
        assert_eq!(d.point(&k).unwrap().fidelity, Fidelity::Full);
    }

    #[test]
    fn every_worker_hears_of_every_plan_even_with_nothing_to_do() {
        let mut d = Dispatch::new(3);
        let requests = d.set_plan(keys(1));
        assert_eq!(requests.len(), 3);
        assert!(share(&requests[2]).is_empty());
        assert_eq!(d.generation(), 1);
        assert!(requests
            .iter()
            .all(|r| matches!(r, Request::Plan { generation: 1, .. })));
    }

    #[test]
    fn a_pool_of_servers_computes_what_one_runner_computes() {
        // The page's promise: the same numbers whichever worker ran a point.
        let plan: Vec<RunKey> = [1, 2, 8, 32]
            .into_iter()
            .flat_map(|iodepth| {
                [
                    key_at(DriveState::Fob, iodepth, 100),
                    key_at(DriveState::Fob, iodepth, 70),
                ]
            })
            .collect();
        let mut d = Dispatch::new(3);
        let mut servers: Vec<Server> = (0..3).map(|_| Server::new()).collect();
        for (server, request) in servers.iter_mut().zip(d.set_plan(plan.clone())) {
            server.receive(&request.encode());
        }
        // Round robin, one step each, as workers would interleave.
        while servers.iter().any(Server::busy) {
            for (w, server) in servers.iter_mut().enumerate() {
                for reply in server.work(&mut || true) {
                    d.receive(w, Reply::decode(&reply.encode()).unwrap());
                }
            }
        }
        let mut one = PlanTask::new();
        one.set_plan(plan.clone());
        while !one.work(&mut || false).idle {}
        for k in &plan {
            assert_eq!(d.point(k), one.point(k).copied(), "{k}");
        }
        assert_eq!(d.progress().finished, plan.len());
    }

    #[test]
    fn a_worker_on_a_run_the_plan_dropped_counts_as_stale() {
        let plan = keys(2);
        let mut d = Dispatch::new(1);
        d.set_plan(plan.clone());
        d.receive(
            0,
            Reply::Results {
                generation: 1,
                results: vec![],
                working_on: Some(key_at(DriveState::Steady, 64, 0)),
                runs_started: 1,
                idle: false,
            },
        );
        assert_eq!(d.stale_running(), 1);
        d.set_plan(plan);
        assert_eq!(
            d.stale_running(),
            0,
            "a report for an older plan is not counted"
        );
    }
}
