//! A worker's side of the pool: the [`Server`] reads the page's requests and works on the
//! latest plan in slices, turning what each slice reached into one [`Reply`].
//!
//! What always holds: the server works only on the plan of the last request it read, so a
//! plan the page has replaced is abandoned at the end of the slice in progress (its run set
//! aside by the [`Engine`], resumed if a later plan wants it again). Everything here is
//! plain Rust; the worker binary only adds the browser's message loop around it.

use crate::engine::Engine;
use crate::key::{Outcome, RunKey};
use crate::protocol::{Reply, Request};

/// One worker's engine and the plan it serves.
#[derive(Default)]
pub struct Server {
    engine: Engine,
    generation: u64,
    /// Whether the last plan still has work.
    busy: bool,
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
                self.engine.set_plan(keys);
                self.busy = true;
                None
            }
            Err(e) => Some(Reply::Refused { why: e.to_string() }),
        }
    }

    /// Whether there is work to do (a slice is due).
    pub fn busy(&self) -> bool {
        self.busy
    }

    /// Works one slice, until `time_is_up` or the plan is done, and says what it reached.
    pub fn work(&mut self, time_is_up: &mut dyn FnMut() -> bool) -> Option<Reply> {
        if !self.busy {
            return None;
        }
        let slice = self.engine.work(time_is_up);
        self.busy = !slice.idle;
        if slice.completed.is_empty() && !slice.idle {
            return None;
        }
        // Each run once, with the best result it has now (an estimate refined within the same
        // slice is sent as the full result only).
        let mut results: Vec<(RunKey, Outcome)> = Vec::new();
        for key in slice.completed {
            if results.iter().all(|(k, _)| *k != key) {
                if let Some(outcome) = self.engine.outcome(&key) {
                    results.push((key, outcome.clone()));
                }
            }
        }
        Some(Reply::Results {
            generation: self.generation,
            results,
            working_on: self.engine.active(),
            runs_started: self.engine.runs_started(),
            idle: slice.idle,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::Fidelity;
    use crate::testing::key_at;
    use parallelism_model::DriveState;

    fn plan(generation: u64, keys: &[RunKey]) -> String {
        Request::Plan {
            generation,
            keys: keys.to_vec(),
        }
        .encode()
    }

    /// Works to idle, one engine step per slice; every reply, in order.
    fn replies(server: &mut Server) -> Vec<Reply> {
        let mut out = Vec::new();
        while server.busy() {
            out.extend(server.work(&mut || true));
        }
        out
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
        assert_eq!((*idle, *runs_started, *working_on), (true, 2, None));
        assert!(!s.busy());
        assert_eq!(s.work(&mut || false), None, "an idle server says nothing");
    }

    #[test]
    fn a_run_reached_twice_in_one_slice_is_sent_once_with_its_best_result() {
        let k = key_at(DriveState::Fob, 1, 100);
        let mut s = Server::new();
        s.receive(&plan(1, &[k]));
        let Some(Reply::Results { results, .. }) = s.work(&mut || false) else {
            panic!("no reply")
        };
        assert_eq!(results.len(), 1);
        assert!(results[0].1.is_final());
    }

    #[test]
    fn a_newer_plan_replaces_the_older_one_at_once() {
        let old = key_at(DriveState::Fob, 32, 100);
        let new = key_at(DriveState::Fob, 2, 100);
        let mut s = Server::new();
        s.receive(&plan(1, &[old]));
        assert_eq!(s.work(&mut || true), None, "one step reaches nothing");
        s.receive(&plan(2, &[new]));
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
}
