//! Teaching mode's model work, as a worker does it: the point's run made ready, the slowed-down
//! [`Player`] that steps it as the page's clock asks, and the explainer's short run, whose
//! figures ([`RunFigures`]) the page puts into words.
//!
//! The page sends [`TeachCommand`]s; a [`TeachTask`] answers a command that moves the player
//! ([`TeachCommand::Advance`], [`TeachCommand::Step`], [`TeachCommand::Reset`]) at once with a
//! [`Frame`], and does the rest (preparing the run, the explainer) in slices, sending
//! [`TeachNews`] as it finishes each part.
//!
//! What always holds:
//! - the player's clock ([`Player::clock`]) never runs backwards, never runs ahead of an
//!   unprocessed event, and [`Player::step_one`] processes exactly one engine event;
//! - work per command is bounded: an advance processes at most [`MAX_EVENTS_PER_ADVANCE`]
//!   events whatever the page asks, so a frame's answer is always quick;
//! - a point the model refuses is answered with [`TeachNews::Failed`] and its reason, never a
//!   panic; a command before the point is ready is answered with nothing.

use parallelism_model::activity::Activity;
use parallelism_model::anatomy::Followed;
use parallelism_model::config::DriveSpec;
use parallelism_model::power;
use parallelism_model::prepare::{Preparation, WA_WRITES_PER_STEP};
use parallelism_model::run::CheckedRun;
use parallelism_model::sliced::Sliced;
use parallelism_model::stats::{Bottleneck, RunResult};
use parallelism_model::time::{Nanos, SimTime};
use parallelism_model::Simulation;
use serde::{Deserialize, Serialize};

use crate::key::RunKey;
use crate::WorkError;

/// Measured I/Os of the animated run: as many as the model accepts, so it never ends on screen.
pub const PLAYER_MEASURED_IOS: u64 = 10_000_000;
/// Measured I/Os of the run behind the explainer: a few percent of noise is plenty for a
/// sentence and rounded bars.
pub const EXPLAIN_MEASURED_IOS: u64 = 4_000;
/// Engine events of the explainer's run between two looks at the clock.
pub const EXPLAIN_EVENTS_PER_SLICE: u64 = 2_000;
/// Most engine events one advance processes (the clock waits for the rest): a few
/// milliseconds of work, so a frame's answer never keeps the worker long.
pub const MAX_EVENTS_PER_ADVANCE: u64 = 2_000;

/// The engine, slowed down: a clock that moves with wall time and events processed as the
/// clock passes them.
pub struct Player {
    sim: Simulation,
    clock: SimTime,
    steps: u64,
    drive: DriveSpec,
    budget_w: Option<f64>,
}

impl Player {
    pub fn new(run: &CheckedRun) -> Player {
        Player {
            sim: Simulation::watched(run),
            clock: SimTime::ZERO,
            steps: 0,
            drive: run.drive().clone(),
            budget_w: run.power_budget().budget_w,
        }
    }

    /// The simulated instant shown.
    pub fn clock(&self) -> SimTime {
        self.clock
    }

    /// Engine events processed since the start.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Processes exactly one event and moves the clock to it.
    pub fn step_one(&mut self) {
        self.sim.step(1);
        self.steps += 1;
        self.clock = self.clock.max(self.sim.now());
    }

    /// Moves the clock on by `by`, processing every event it passes, but at most `max_events`
    /// (the clock then stops at the last one processed). Returns the events processed.
    pub fn advance(&mut self, by: Nanos, max_events: u64) -> u64 {
        let target = self.clock + by;
        let done = self.sim.step_until(target, max_events);
        self.steps += done;
        self.clock = self.clock.max(self.sim.now());
        let nothing_left_due =
            self.sim.is_finished() || self.sim.next_event_at().is_none_or(|at| at > target);
        if nothing_left_due {
            self.clock = target;
        }
        done
    }

    /// What the drive does now.
    pub fn activity(&self) -> Activity {
        self.sim.activity()
    }

    /// What the drive draws at the instant `activity` shows (see [`power::instant_w`]).
    pub fn power_w(&self, activity: &Activity) -> f64 {
        power::instant_w(&self.drive, activity)
    }

    /// The budget the run keeps to, if any.
    pub fn budget_w(&self) -> Option<f64> {
        self.budget_w
    }

    /// The player as the page draws it, `events` having just been processed.
    pub fn frame(&self, events: u64) -> Frame {
        let activity = self.activity();
        Frame {
            power_w: self.power_w(&activity),
            activity,
            clock: self.clock,
            steps: self.steps,
            events,
            budget_w: self.budget_w,
            followed: self.sim.followed(),
        }
    }

    /// Follow the next read (or write, `write`) the host makes.
    pub fn follow_next(&mut self, write: bool) {
        self.sim.follow_next(write);
    }
}

/// The player at one instant, as the page draws it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    pub activity: Activity,
    pub clock: SimTime,
    /// Engine events processed since the start.
    pub steps: u64,
    /// Engine events the command that made this frame processed.
    pub events: u64,
    /// What the drive draws at this instant, and the budget it keeps to (W).
    pub power_w: f64,
    pub budget_w: Option<f64>,
    /// The request followed (after [`TeachCommand::Follow`]): where it is and its parts so
    /// far, or `None` before the next one of its direction is made.
    pub followed: Option<Followed>,
}

/// What the explainer says of a finished run: its limit, its IOPS and mean latency, and how
/// busy each resource was (0 to 1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunFigures {
    pub bottleneck: Bottleneck,
    pub iops: f64,
    pub mean_latency_us: f64,
    pub link: f64,
    pub controller: f64,
    /// The busiest channel.
    pub channels: f64,
    /// The dies on average.
    pub dies: f64,
}

impl RunFigures {
    pub fn of(r: &RunResult) -> RunFigures {
        let u = &r.utilisation;
        RunFigures {
            bottleneck: r.bottleneck,
            iops: r.iops,
            mean_latency_us: r.latency.mean_us,
            link: u.link_max(),
            controller: u.controller,
            channels: u.channels_max(),
            dies: u.dies_mean(),
        }
    }
}

/// What the page tells teaching mode's worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TeachCommand {
    /// Play this point from its start (and explain it), dropping the one before.
    Start(RunKey),
    /// Move the clock on by `by`, processing at most `max_events` (and never more than
    /// [`MAX_EVENTS_PER_ADVANCE`]).
    Advance { by: Nanos, max_events: u64 },
    /// Process exactly one event.
    Step,
    /// Back to the point's start.
    Reset,
    /// Follow the next read (or write, `write`) the host makes, dropping the one followed.
    Follow { write: bool },
    /// Nothing more: teaching mode is closed.
    Stop,
}

/// What teaching mode's worker tells the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TeachNews {
    /// The point is ready to play, at its start.
    Ready(Frame),
    /// The player after a command.
    Frame(Frame),
    /// The explainer's run has finished.
    Explained(RunFigures),
    /// The model gave nothing for the point (refused it, stalled, or its worker stopped), and
    /// why.
    Failed(WorkError),
}

/// Where the background work of a [`TeachTask`] is.
#[derive(Default)]
enum Stage {
    #[default]
    Done,
    /// The animated run is being made ready; the explainer's run waits.
    Player(Box<Preparation>, RunKey),
    /// The explainer's run is being made ready (at once when the drive's amplification is
    /// known, as it is after the player's).
    ExplainPreparing(Box<Preparation>),
    Explaining(Box<Simulation>),
}

/// Teaching mode's side of a worker. See the module documentation.
#[derive(Default)]
pub struct TeachTask {
    stage: Stage,
    /// The ready run (kept for Reset) and its player.
    run: Option<CheckedRun>,
    player: Option<Player>,
}

impl TeachTask {
    pub fn new() -> TeachTask {
        TeachTask::default()
    }

    /// Takes one command; the answer due at once, if any.
    pub fn command(&mut self, command: TeachCommand) -> Option<TeachNews> {
        match command {
            TeachCommand::Start(key) => {
                *self = TeachTask::default();
                match key.prepare(PLAYER_MEASURED_IOS) {
                    Ok(prep) => {
                        self.stage = Stage::Player(Box::new(prep), key);
                        None
                    }
                    Err(why) => Some(TeachNews::Failed(why.into())),
                }
            }
            TeachCommand::Stop => {
                *self = TeachTask::default();
                None
            }
            TeachCommand::Advance { by, max_events } => {
                let p = self.player.as_mut()?;
                let events = p.advance(by, max_events.min(MAX_EVENTS_PER_ADVANCE));
                Some(TeachNews::Frame(p.frame(events)))
            }
            TeachCommand::Step => {
                let p = self.player.as_mut()?;
                p.step_one();
                Some(TeachNews::Frame(p.frame(1)))
            }
            TeachCommand::Follow { write } => {
                let p = self.player.as_mut()?;
                p.follow_next(write);
                Some(TeachNews::Frame(p.frame(0)))
            }
            TeachCommand::Reset => {
                let p = Player::new(self.run.as_ref()?);
                let frame = p.frame(0);
                self.player = Some(p);
                Some(TeachNews::Frame(frame))
            }
        }
    }

    /// Whether background work is left.
    pub fn busy(&self) -> bool {
        !matches!(self.stage, Stage::Done)
    }

    /// Works until `time_is_up` or nothing is left; what finished meanwhile.
    #[inline(never)] // A lane of the worker's server: `serve::Server::work` says why.
    pub fn work(&mut self, time_is_up: &mut dyn FnMut() -> bool) -> Vec<TeachNews> {
        let mut news = Vec::new();
        loop {
            self.stage = match std::mem::take(&mut self.stage) {
                Stage::Done => return news,
                Stage::Player(mut prep, key) => {
                    match prep.work_until(WA_WRITES_PER_STEP, time_is_up) {
                        Ok(None) => {
                            self.stage = Stage::Player(prep, key);
                            return news;
                        }
                        Ok(Some(run)) => {
                            let player = Player::new(&run);
                            news.push(TeachNews::Ready(player.frame(0)));
                            self.run = Some(run);
                            self.player = Some(player);
                            match key.prepare(EXPLAIN_MEASURED_IOS) {
                                Ok(prep) => Stage::ExplainPreparing(Box::new(prep)),
                                Err(_) => Stage::Done,
                            }
                        }
                        Err(why) => {
                            news.push(TeachNews::Failed(why.into()));
                            return news;
                        }
                    }
                }
                Stage::ExplainPreparing(mut prep) => {
                    match prep.work_until(WA_WRITES_PER_STEP, time_is_up) {
                        Ok(None) => {
                            self.stage = Stage::ExplainPreparing(prep);
                            return news;
                        }
                        Ok(Some(run)) => Stage::Explaining(Box::new(Simulation::new(&run))),
                        Err(_) => Stage::Done,
                    }
                }
                Stage::Explaining(mut sim) => {
                    if sim.step(EXPLAIN_EVENTS_PER_SLICE) {
                        news.push(match sim.result() {
                            Ok(r) => TeachNews::Explained(RunFigures::of(&r)),
                            Err(e) => TeachNews::Failed(e.into()),
                        });
                        Stage::Done
                    } else {
                        Stage::Explaining(sim)
                    }
                }
            };
            if time_is_up() {
                return news;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::DriveChoice;
    use crate::testing::key_at;
    use parallelism_model::anatomy::Whereabouts;
    use parallelism_model::DriveState;

    /// Random reads at `iodepth` on an E18DC with 8 dies, fresh out of the box.
    fn small_drive(iodepth: u32) -> RunKey {
        let k = key_at(DriveState::Fob, iodepth, 100);
        RunKey {
            drive: DriveChoice { dies: 8, ..k.drive },
            ..k
        }
    }

    fn player(key: RunKey) -> Player {
        let mut prep = key.prepare(PLAYER_MEASURED_IOS).unwrap();
        let run = prep
            .step(0)
            .unwrap()
            .expect("a fresh drive needs no preparation");
        Player::new(&run)
    }

    /// Works `t` until it is idle; everything it said.
    fn all_news(t: &mut TeachTask) -> Vec<TeachNews> {
        let mut news = Vec::new();
        while t.busy() {
            news.extend(t.work(&mut || true));
        }
        news
    }

    #[test]
    fn step_is_one_event_and_the_clock_never_runs_backwards() {
        let mut p = player(small_drive(4));
        let mut last = p.clock();
        for i in 1..=500 {
            p.step_one();
            assert_eq!(p.steps(), i);
            assert!(p.clock() >= last);
            last = p.clock();
        }
        let before = p.steps();
        let done = p.advance(Nanos::from_us(50), u64::MAX);
        assert_eq!(p.steps(), before + done);
        assert_eq!(p.clock(), last + Nanos::from_us(50));
        // A tiny budget stops the clock at the last processed event.
        let done = p.advance(Nanos::from_us(10_000), 3);
        assert_eq!(done, 3);
        assert!(p.clock() < last + Nanos::from_us(10_050));
    }

    #[test]
    fn a_playing_drive_draws_between_idle_and_its_peak() {
        let key = small_drive(32);
        let mut p = player(key.clone());
        p.advance(Nanos::from_us(500), 100_000);
        let a = p.activity();
        let w = p.power_w(&a);
        let drive = key.drive_key().spec();
        assert!(a.busy_dies() > 0, "dies work at QD32");
        assert!(w > drive.controller.power.idle_w, "{w}");
        assert!(w <= power::peak_w(&drive, drive.dies), "{w}");
    }

    #[test]
    fn a_point_is_made_ready_then_explained_from_idle_dies_at_qd1_to_busy_dies_at_depth() {
        for (iodepth, limit) in [(1, Bottleneck::QueueDepth), (256, Bottleneck::Dies)] {
            let mut t = TeachTask::new();
            assert_eq!(t.command(TeachCommand::Start(small_drive(iodepth))), None);
            assert_eq!(t.command(TeachCommand::Step), None, "not ready yet");
            let news = all_news(&mut t);
            let [TeachNews::Ready(start), TeachNews::Explained(figures)] = &news[..] else {
                panic!("qd {iodepth}: {news:?}")
            };
            assert_eq!((start.steps, start.clock), (0, SimTime::ZERO));
            assert_eq!(figures.bottleneck, limit, "qd {iodepth}: {figures:?}");
        }
    }

    #[test]
    fn a_followed_read_is_in_each_frame_until_it_is_done_and_then_stays() {
        // "Follow one request": after Follow, the next read made is in every frame, where it
        // is and its parts so far; done, its parts are its latency and it stays shown.
        let mut t = TeachTask::new();
        t.command(TeachCommand::Start(small_drive(4)));
        all_news(&mut t);
        let Some(TeachNews::Frame(asked)) = t.command(TeachCommand::Follow { write: false }) else {
            panic!("a ready player answers a follow")
        };
        assert_eq!(asked.followed, None, "no read made since");
        let mut seen = Vec::new();
        for _ in 0..10_000 {
            let Some(TeachNews::Frame(f)) = t.command(TeachCommand::Step) else {
                panic!("a ready player answers a step")
            };
            if let Some(followed) = f.followed {
                seen.push(followed.at);
                if followed.at == Whereabouts::Done {
                    assert!(!followed.write);
                    assert_eq!(followed.parts.total(), followed.age);
                    break;
                }
            }
        }
        assert_eq!(seen.last(), Some(&Whereabouts::Done), "{seen:?}");
        let Some(TeachNews::Frame(after)) = t.command(TeachCommand::Step) else {
            panic!("a ready player answers a step")
        };
        assert_eq!(after.followed.map(|f| f.at), Some(Whereabouts::Done));
    }

    #[test]
    fn commands_move_the_player_within_their_budget_and_reset_starts_over() {
        let mut t = TeachTask::new();
        t.command(TeachCommand::Start(small_drive(32)));
        all_news(&mut t);
        let Some(TeachNews::Frame(one)) = t.command(TeachCommand::Step) else {
            panic!("a ready player answers a step")
        };
        assert_eq!((one.steps, one.events), (1, 1));
        let Some(TeachNews::Frame(f)) = t.command(TeachCommand::Advance {
            by: Nanos::from_us(1_000_000),
            max_events: u64::MAX,
        }) else {
            panic!("a ready player answers an advance")
        };
        assert_eq!(f.events, MAX_EVENTS_PER_ADVANCE, "the worker's own bound");
        assert_eq!(f.steps, 1 + MAX_EVENTS_PER_ADVANCE);
        let Some(TeachNews::Frame(back)) = t.command(TeachCommand::Reset) else {
            panic!("reset answers")
        };
        assert_eq!((back.steps, back.clock), (0, SimTime::ZERO));
        let text = serde_json::to_string(&TeachNews::Frame(f.clone())).unwrap();
        assert_eq!(
            serde_json::from_str::<TeachNews>(&text).unwrap(),
            TeachNews::Frame(f)
        );
    }

    #[test]
    fn a_point_the_model_refuses_says_why_and_the_work_stops_when_its_slice_is_up() {
        let mut t = TeachTask::new();
        let steady = RunKey {
            state: DriveState::Steady,
            ..small_drive(4)
        };
        t.command(TeachCommand::Start(steady));
        let mut slices = 0;
        while t.busy() {
            t.work(&mut || true);
            slices += 1;
        }
        assert!(slices > 2, "{slices} slices: one unit of work per slice");
        let bad = RunKey {
            iodepth: 0,
            ..small_drive(4)
        };
        let refused = t.command(TeachCommand::Start(bad));
        assert!(
            matches!(&refused, Some(TeachNews::Failed(WorkError::Refused(why))) if why.to_string().contains("iodepth")),
            "{refused:?}"
        );
        assert!(!t.busy());
    }
}
