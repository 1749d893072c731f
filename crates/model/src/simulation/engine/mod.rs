//! The event engine: host requests flowing through the host stack, the controller, the NAND
//! channels and dies, and back over the host link. The requests come from the run's streams
//! (`host.rs`): a closed-loop stream keeps `iodepth` in flight, an open-loop one arrives at a
//! rate and waits in the host while its `iodepth` are at the device.
//!
//! # Shape
//! Shared single servers that serve in arrival order (the controller, each channel, each link
//! direction) are *reservations*: a request that reaches one at time `t` is served from
//! `max(t, free_at)`, so they need no events of their own. Every reservation is made while
//! handling an event at the current time, and events are handled in time order, so reservations
//! arrive in time order and each server stays exactly first-come first-served.
//! When requests reach the controller in the order they are submitted, the controller's
//! reservation is made at submission too (*direct arrival*), which saves an event per request:
//! with one link direction carrying every completion (reads only, writes only, or a
//! half-duplex link) submissions come in completion order, which is arrival order, as long as
//! the host holds nothing back (queue depth within the device's limit) and no background work
//! shares the controller (no garbage collection). Results are then the same in distribution,
//! not bit for bit: a dispatch scheduled earlier can come out before another event at the very
//! same nanosecond. [`Simulation::watched`] turns it off for a view that shows the controller
//! at every instant.
//!
//! Dies are different: they choose what to do next (reads before programs, with a guard against
//! starving programs; several queued reads to different planes in one sense), so each die keeps
//! real queues and the engine wakes it with events.
//!
//! Reads follow the data's layout: written at random, a read's pages spread over the dies page
//! by page; written in order, they lie as the controller's `sequential_layout` puts them (page
//! by page too, or a program unit per die in turn). A controller that reads
//! ahead (`read_ahead.rs`) prefetches a sequential stream's next requests into its DRAM with
//! reads of its own, in internal slots that never count as host requests, and a host read that
//! finds its data there only crosses the link.
//!
//! # What always holds
//! - Events at equal times run in a fixed order (see [`EventQueue`]), and one seeded [`Rng`]
//!   makes every choice: the same [`CheckedRun`] gives the same result, natively and in wasm.
//! - A closed-loop stream has exactly `iodepth` requests in flight; a request's latency runs
//!   from the moment its slot was freed to the moment its last byte crossed the link, so
//!   Little's law holds by construction. An open-loop request's latency runs from its arrival,
//!   host wait included; the run measures the number in the system over time, so there
//!   Little's law is a check (`tests/workload.rs`).
//! - An open-loop run never runs away: when 65,536 requests (`MAX_HOST_BACKLOG`) wait in the
//!   host it stops, and reports itself saturated. If that happens before anything was
//!   measured (an offered load far past the drive's, still in its warm-up), no more requests
//!   arrive and the run measures the drive working off the backlog instead: a saturated
//!   result at the drive's own rate, its latency the wait in the host, never a result of no
//!   requests.
//! - Per request the engine allocates nothing: slots, die queues and the event heap are reused
//!   (an open loop grows its slots to the most requests it ever held, then reuses them).
//! - Under a power budget that binds (fewer slots than dies, see [`crate::power`]), at most
//!   `die_slots` dies run an array operation at once: a die with work takes a slot before it
//!   starts and gives it back when it is free, and dies waiting for one get it first come first
//!   served. A budget that does not bind costs one comparison per die start.
//!
//! # Running in slices
//! [`Simulation::step`] processes at most a given number of events and returns, so the browser
//! can interleave simulation with drawing; [`Simulation::step_until`] processes the events due
//! up to a simulated deadline (teaching mode plays a run at a chosen speed with it);
//! [`Simulation::result`] is valid (provisional) at any moment.
//!
//! # Files
//! This file is the hot loop: the engine's state, its events and their handlers, together.
//! What a run's configuration comes to before the first event (the derived constants, the
//! warm-up and the measured I/Os) is in `params.rs`; what the loop counts and the result made
//! from those counts are in `results.rs`; each stream's requests and arrivals in `host.rs`, a
//! sequential stream's prefetches in `read_ahead.rs`, figures over time in `series.rs`.

use std::collections::VecDeque;

use super::run::{CheckedRun, RunError};
use crate::activity::{die_state, Activity, DieActivity, DieOp, DieView};
use crate::anatomy::Part;
use crate::config::MAPPING_UNIT_BYTES;
use crate::foundations::events::{EventQueue, Place};
use crate::foundations::ring::Ring;
use crate::rng::Rng;
use crate::stats::{EndedEarly, RunResult};
use crate::time::{Nanos, SimTime};

mod anatomy;
mod follow;
mod host;
mod params;
mod read_ahead;
mod results;
mod series;
use anatomy::{DieClock, DieWait, PagePath, Trace, Work};
use follow::Follow;
use host::{HostStream, StreamParams};
use params::Params;
use read_ahead::{Arrived, Claim, ReadAhead};
use results::Meter;
use series::Series;

/// Most planes a die may have (bounded so a die's in-flight read batch is a fixed array).
const MAX_PLANES: usize = 8;
/// Event-queue lanes (see [`EventQueue`]): events a first-come first-served stage schedules in
/// time order wait in a FIFO beside the heap. Arrivals at the controller follow completions on
/// the link, dispatches follow the controller's reservations, sense completions follow their
/// start by the constant tR (unless the data register is still busy), and pages leave their
/// channel in order (unless a busy channel delays one past a later sense).
const LANES: usize = 4;
const ARRIVAL_LANE: usize = 0;
const DISPATCH_LANE: usize = 1;
const SENSE_LANE: usize = 2;
const PAGE_LANE: usize = 3;
/// Requests waiting in the host, over every open-loop stream, at which a run stops and reports
/// itself saturated: an offered load the drive cannot carry grows this queue without bound
/// (an assumption: 65,536 requests is far past any knee and costs about 3 MB).
const MAX_HOST_BACKLOG: usize = 1 << 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ev {
    /// A request leaves the host stack and reaches the controller.
    CtrlArrive(u32),
    /// The controller has processed a request's command.
    Dispatch(u32),
    /// A die finished sensing its current read batch.
    SenseDone(u32),
    /// One page of a read crossed its channel into the controller.
    PageOut { slot: u32, bytes: u32, map: bool },
    /// A die without cache read is free once its last page left.
    DieFree(u32),
    /// A die finished one step of a program unit (valid only for the die's step generation: a
    /// suspend moves the step's end).
    StepDone { die: u32, generation: u32 },
    /// A die finished suspending its program or erase step and may read.
    Suspended(u32),
    /// The controller's background work in service may be done: done if the place it carries
    /// is the work's latest ([`Background::due`]); otherwise host commands pushed the work
    /// back and this event comes again at the work's end, in its latest place.
    BackgroundDone(Place),
    /// A request's last byte crossed the host link (used only when the host may queue).
    Complete(u32),
    /// A request of an open-loop stream arrives.
    Arrive(u32),
    /// The run's time limit ([`Simulation::stop_at`]).
    Stop,
}

/// Controller work that runs only while no host command needs the controller (preemptive
/// priority): garbage-collection bookkeeping. Host commands never wait for it, but it slows
/// down as host commands take the controller's time, and the die operation that owes it cannot
/// finish before it does. This is why queue depth barely moves a controller-bound random write:
/// the work happens whenever the host leaves the controller alone.
#[derive(Debug, Default)]
struct Background {
    /// (die, work) in arrival order; the head is in service.
    jobs: VecDeque<(u32, Nanos)>,
    /// When the head job ends unless a host command preempts it.
    head_done: SimTime,
    /// The head job's place among events due at `head_done`: taken whenever `head_done` is set
    /// or moves, as if its completion were scheduled anew each time. One completion event is
    /// in the queue while there are jobs; a host command that pushes the head job back moves
    /// only `head_done` and this place, and the event, when it comes too early, is scheduled
    /// again at `head_done` in this place. So the events come out in the order of scheduling
    /// at every move, without a stale event in the heap for each of thousands of moves (a
    /// steady-state random write pushes the head job back at nearly every command).
    due: Place,
    /// When the head job started its service.
    head_start: SimTime,
    /// Work of the jobs that started and finished inside the measured window.
    busy_ns: u64,
}

/// A single first-come first-served server, used by reservation.
///
/// Reserved at the present, a server's booked work runs without a gap from `now` to
/// `free_at`, so the work done by `now` is what was booked less that tail: busy time is exact,
/// and never more than the time that passed. (The controller, reserved ahead with direct
/// arrival, counts its work when each command is dispatched instead.)
#[derive(Clone, Copy, Debug, Default)]
struct Server {
    free_at: SimTime,
    /// Work booked since the measured window opened, plus what was still to run then.
    booked_ns: u64,
}

impl Server {
    /// Serve `work` arriving at `now`; returns when it is done.
    fn reserve(&mut self, now: SimTime, work: Nanos) -> SimTime {
        let start = self.free_at.max(now);
        self.free_at = start + work;
        self.booked_ns += work.0;
        self.free_at
    }

    /// Work done since the window opened, as of `now` (reserved at the present only).
    fn busy_by(&self, now: SimTime) -> u64 {
        self.booked_ns - self.free_at.since(now).0
    }

    /// Open the measured window at `now`: only the tail still to run counts.
    fn open_window(&mut self, now: SimTime) {
        self.booked_ns = self.free_at.since(now).0;
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct PageRead {
    slot: u32,
    plane: u8,
    bytes: u32,
    /// A mapping-table read (DRAM-less miss), not user data.
    map: bool,
    /// The page sits in SLC-mode cells (the SLC cache).
    slc: bool,
    /// What it waited behind at its die (see `anatomy.rs`).
    wait: DieWait,
}

#[derive(Debug, Default)]
struct Die {
    channel: u32,
    busy: bool,
    reads: Ring<PageRead>,
    /// Reads waiting for this die, wherever they are queued.
    waiting_reads: u32,
    /// Host program units queued for this die (each `unit_bytes` of buffered host data, or
    /// `slc_unit_bytes` for a unit into the SLC cache).
    units_queued: u32,
    /// Units ever begun on this die, and how many of its units (always its first ones: the
    /// cache only ever fills during a run) went to the SLC cache.
    units_begun: u64,
    slc_units: u64,
    /// The unit in progress: its garbage-collection steps left, then the host program.
    unit: Option<UnitSteps>,
    /// The read batch being sensed.
    sensing: [PageRead; MAX_PLANES],
    n_sensing: usize,
    /// When the data register is free for the next sensed page (cache read).
    register_free: SimTime,
    reads_in_a_row: u32,
    /// Units whose flash work is done, whose controller work is done, and whose buffer space
    /// has been released (a unit is released once both parts are done; both finish in order).
    units_array_done: u64,
    units_background_done: u64,
    units_released: u64,
    /// Busy time booked for this die, up to `busy_until` (see [`Simulation::result`]).
    busy_ns: u64,
    busy_until: SimTime,
    /// When the program step in progress ends, and the generation its `StepDone` carries.
    step_end: SimTime,
    step_generation: u32,
    /// Suspends the program step in progress has had.
    suspends: u32,
    /// A program step is winding down into suspension (until its `Suspended` event).
    suspending: bool,
    /// A suspended program step: what it still needs (resume cost included) and its kind.
    suspended: Option<(Nanos, DieOp)>,
    gc_debt: f64,
    erase_debt: f64,
    /// The operation last started (only read by [`Simulation::activity`]).
    op: DieOp,
    /// The die holds one of the power budget's slots (it is running an array operation).
    holds_slot: bool,
    /// The die has work and waits for a power slot.
    waits_for_power: bool,
    /// Its time on each kind of work, for the reads that wait behind it.
    clock: DieClock,
    /// The batch being sensed: when its sense began, its tR, and whether in SLC-mode cells.
    sense_began: SimTime,
    sense_time: Nanos,
    sense_slc: bool,
}

impl Die {
    /// Whether a program unit is in progress or waiting for this die.
    #[inline(always)]
    fn owes_program(&self) -> bool {
        self.unit.is_some() || self.units_queued > 0 || self.suspended.is_some()
    }

    /// Book the die busy from `now` until `done`.
    #[inline(always)]
    fn book(&mut self, now: SimTime, done: SimTime) {
        self.busy_ns += done.since(now).0;
        self.busy_until = done;
    }
}

/// The flash steps of one program unit still to run. Each step is a separate die operation so
/// that reads can slip in between (read priority): a garbage-collection copy (multi-plane read,
/// out and back over the channel, program), an erase, and finally the host data's program.
#[derive(Clone, Copy, Debug)]
struct UnitSteps {
    copies: u64,
    erases: u64,
    /// The host data goes to SLC-mode cells (the SLC cache).
    slc: bool,
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// The stream the request belongs to.
    stream: u32,
    /// When the request was made: its slot freed (closed loop) or it arrived (open loop).
    submitted: SimTime,
    write: bool,
    bytes: u32,
    offset: u64,
    pages_left: u32,
    data_done: SimTime,
    /// The controller's own read ahead of a sequential stream, not a host request.
    prefetch: bool,
    /// The request's data sits in SLC-mode cells.
    slc: bool,
}

/// The clock a die's program or garbage-collection step runs on.
fn work_of(op: DieOp) -> Work {
    match op {
        DieOp::Copy | DieOp::Erase => Work::Gc,
        DieOp::Program => Work::Programs,
        DieOp::Read => Work::Reads,
        DieOp::None => Work::Idle,
    }
}

/// Put `first`, the read taken from the front of `queue`, into `batch[0]` and, when `deep`, take
/// the first other read on each other plane; returns how many the batch holds.
fn take_batch(
    first: PageRead,
    queue: &mut Ring<PageRead>,
    deep: bool,
    planes: usize,
    batch: &mut [PageRead; MAX_PLANES],
) -> usize {
    batch[0] = first;
    let mut n = 1;
    if deep {
        let mut used = 1u32 << first.plane;
        let mut i = 0;
        while n < planes {
            let Some(&r) = queue.get(i) else {
                break;
            };
            if used & (1 << r.plane) == 0 {
                used |= 1 << r.plane;
                batch[n] = r;
                n += 1;
                queue.remove(i);
            } else {
                i += 1;
            }
        }
    }
    n
}

/// One run of the model, advanced in slices.
pub struct Simulation {
    p: Params,
    now: SimTime,
    queue: EventQueue<Ev, LANES>,
    rng: Rng,
    slots: Vec<Slot>,
    /// Each slot's request's time so far, part by part (apart from `slots`, which the hot
    /// loop copies whole).
    traces: Vec<Trace>,
    dies: Vec<Die>,
    channels: Vec<Server>,
    controller: Server,
    /// The host's one-at-a-time path
    /// ([`ControllerSpec::host_path`](crate::config::ControllerSpec::host_path)).
    host_path: Server,
    /// Host command work the controller finished inside the measured window.
    controller_busy_ns: u64,
    background: Background,
    /// [device-to-host, host-to-device]; a half-duplex link uses index 0 for both.
    link: [Server; 2],
    buffer_used: u64,
    unit_fill: u64,
    /// Room left in the SLC cache.
    slc_left: u64,
    buffer_waiters: VecDeque<u32>,
    next_program_die: u32,
    in_device: u32,
    host_waiters: VecDeque<u32>,
    /// The streams of requests (see `host.rs`), and the slots of open-loop requests that
    /// completed.
    streams: Vec<HostStream>,
    free_slots: Vec<u32>,
    /// Open-loop requests waiting in the host for their stream's depth.
    host_backlog: usize,
    meter: Meter,
    events: u64,
    /// The event queue ran dry before the run was done (see [`Stalled`](crate::run::Stalled)).
    stalled: bool,
    /// Dies running an array operation under a binding power budget, and the dies with work
    /// waiting for a slot, first come first served.
    active_dies: u32,
    power_waiters: VecDeque<u32>,
    /// Each stream's read-ahead (empty unless the controller reads ahead), the internal slots
    /// free for prefetches, and a scratch list of slots a read-ahead frees.
    ahead: Vec<ReadAhead>,
    prefetch_free: Vec<u32>,
    freed: Vec<u32>,
    /// The request teaching mode follows (see `follow.rs`).
    follow: Follow,
}

impl Simulation {
    /// Prepare a run; no event is processed until [`step`](Self::step).
    pub fn new(run: &CheckedRun) -> Simulation {
        let streams = StreamParams::of(run);
        Simulation::build(Params::new(run, &streams), streams, run)
    }

    /// [`new`](Self::new) for a run someone watches event by event: every request's arrival
    /// at the controller is an event of its own, so [`activity`](Self::activity) never shows
    /// the controller busy with a request still in the host's stack.
    pub fn watched(run: &CheckedRun) -> Simulation {
        let streams = StreamParams::of(run);
        let mut p = Params::new(run, &streams);
        p.direct_arrival = false;
        Simulation::build(p, streams, run)
    }

    fn build(p: Params, streams: Vec<StreamParams>, run: &CheckedRun) -> Simulation {
        let d = run.drive();
        let channels = d.controller.channels;
        let dies = (0..p.dies)
            .map(|i| Die {
                channel: i % channels,
                ..Die::default()
            })
            .collect();
        let opts = run.options();
        let (warmup, target) = p.run_length(&streams, opts.measured_ios);
        let kept_apart = if p.per_stream || p.open {
            streams.len()
        } else {
            0
        };
        let mut sim = Simulation {
            now: SimTime::ZERO,
            queue: EventQueue::default(),
            rng: Rng::new(opts.seed),
            slots: Vec::new(),
            traces: Vec::new(),
            dies,
            channels: vec![Server::default(); channels as usize],
            controller: Server::default(),
            host_path: Server::default(),
            controller_busy_ns: 0,
            background: Background::default(),
            link: [Server::default(); 2],
            buffer_used: 0,
            unit_fill: 0,
            slc_left: p.slc_room,
            buffer_waiters: VecDeque::new(),
            next_program_die: 0,
            in_device: 0,
            host_waiters: VecDeque::new(),
            streams: Vec::new(),
            free_slots: Vec::new(),
            host_backlog: 0,
            meter: Meter::new(warmup, target, kept_apart),
            events: 0,
            stalled: false,
            active_dies: 0,
            power_waiters: VecDeque::new(),
            ahead: Vec::new(),
            prefetch_free: Vec::new(),
            freed: Vec::new(),
            follow: Follow::Nobody,
            p,
        };
        if sim.p.read_ahead {
            sim.ahead = (0..streams.len()).map(|_| ReadAhead::default()).collect();
        }
        sim.streams = streams.into_iter().map(HostStream::new).collect();
        // Closed-loop streams own their slots for the whole run; open-loop ones take a slot
        // per arrival and give it back on completion.
        for stream in 0..sim.streams.len() as u32 {
            let st = &sim.streams[stream as usize].params;
            if st.rate.is_some() {
                sim.queue.push(SimTime::ZERO, Ev::Arrive(stream));
                continue;
            }
            for _ in 0..st.iodepth {
                let slot = sim.slots.len() as u32;
                sim.slots.push(Slot {
                    stream,
                    ..Slot::default()
                });
                sim.traces.push(Trace::default());
                sim.submit(slot, SimTime::ZERO);
            }
        }
        sim
    }

    /// Keep the run's figures over time in buckets of `bucket` from the window's start
    /// ([`RunResult::series`]); call before the first step.
    pub fn record_series(&mut self, bucket: Nanos) {
        self.meter.series = Some(Series::new(bucket));
        self.p.split_figures = true;
    }

    /// End the run at simulated time `at` if its I/Os are not all done by then (fio's
    /// `runtime`); call before the first step.
    pub fn stop_at(&mut self, at: SimTime) {
        self.queue.push(at, Ev::Stop);
    }

    /// Run to the end and return the final result.
    pub fn run(run: &CheckedRun) -> Result<RunResult, RunError> {
        let mut sim = Simulation::new(run);
        while !sim.step(u64::MAX) {}
        sim.result()
    }

    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Events processed so far (a measure of the work done, for slicing).
    pub fn events(&self) -> u64 {
        self.events
    }

    /// When the next event happens (`None` only for a run that has stalled).
    pub fn next_event_at(&self) -> Option<SimTime> {
        self.queue.peek_time()
    }

    /// What every die, channel, the controller and the host link are doing at [`Self::now`]
    /// (see [`crate::activity`]). Reads the engine's state only; costs nothing unless called.
    pub fn activity(&self) -> Activity {
        let now = self.now;
        let busy = |s: &Server| s.free_at > now;
        let dies = self
            .dies
            .iter()
            .map(|d| {
                let view = DieView {
                    busy: d.busy,
                    op: d.op,
                    sensing_planes: d.sensing[..d.n_sensing]
                        .iter()
                        .fold(0u8, |m, r| m | (1 << r.plane)),
                    register_free: d.register_free,
                    channel: d.channel,
                    queued: d.waiting_reads + d.units_queued,
                };
                DieActivity {
                    state: die_state(&view, now),
                    channel: view.channel,
                    queued: view.queued,
                    planes_sensing: view.sensing_planes,
                }
            })
            .collect();
        Activity {
            now,
            events: self.events,
            completed: self.meter.completed,
            iodepth: self.p.depth,
            in_device: self.in_device,
            host_waiting: self.host_waiters.len() as u32,
            open_loop: self.p.open,
            host_backlog: self
                .streams
                .iter()
                .map(|s| s.cursor.waiting.len() as u32)
                .sum(),
            buffer_waiting: self.buffer_waiters.len() as u32,
            controller_busy: busy(&self.controller)
                || (!self.background.jobs.is_empty() && self.background.head_done > now),
            link_read_busy: busy(&self.link[0]),
            link_write_busy: busy(&self.link[usize::from(!self.p.half_duplex)]),
            half_duplex: self.p.half_duplex,
            channels_busy: self.channels.iter().map(busy).collect(),
            dies,
        }
    }

    /// Whether the run is over: its I/Os are done, or it stalled.
    pub fn is_finished(&self) -> bool {
        self.meter.completed >= self.meter.end || self.stalled
    }

    /// I/Os measured so far (those after the warm-up): the result's
    /// [`measured_ios`](RunResult::measured_ios) without making the rest of it, so a caller
    /// that stops at a number of I/Os can ask after every step.
    pub fn measured_ios(&self) -> u64 {
        self.meter.hist.count()
    }

    /// Fraction of the run's I/Os completed so far (warm-up included).
    pub fn progress(&self) -> f64 {
        self.meter.completed as f64 / self.meter.end as f64
    }

    /// Process at most `max_events` events; true once the run is finished.
    pub fn step(&mut self, max_events: u64) -> bool {
        let mut budget = max_events;
        while budget > 0 && !self.is_finished() {
            let Some((at, ev)) = self.queue.pop() else {
                // A checked run always has work; if it ever has none, the run ends rather than
                // spins, and its result is the error [`Stalled`].
                self.stalled = true;
                break;
            };
            self.now = at;
            self.events += 1;
            budget -= 1;
            self.handle(ev);
        }
        self.is_finished()
    }

    /// Process the events due at or before `deadline` (simulated time), but at most
    /// `max_events` of them, and return how many ran. [`now`](Self::now) is then the time of
    /// the last one; unless the budget ran out or the run finished, the next event is due
    /// after `deadline`. This is how a view plays a run at a chosen speed (one event at a
    /// time: such a view draws every few events, and [`step`](Self::step) stays the hot loop).
    pub fn step_until(&mut self, deadline: SimTime, max_events: u64) -> u64 {
        let mut done = 0;
        while done < max_events
            && !self.is_finished()
            && self.queue.peek_time().is_some_and(|at| at <= deadline)
        {
            self.step(1);
            done += 1;
        }
        done
    }

    #[inline(always)]
    fn handle(&mut self, ev: Ev) {
        match ev {
            Ev::CtrlArrive(slot) => self.ctrl_arrive(slot),
            Ev::Dispatch(slot) => self.dispatch(slot),
            Ev::SenseDone(die) => self.sense_done(die),
            Ev::PageOut { slot, bytes, map } => self.page_out(slot, bytes, map),
            Ev::DieFree(die) => self.wake_die(die),
            Ev::StepDone { die, generation } => self.step_done(die, generation),
            Ev::Suspended(die) => self.wake_die(die),
            Ev::BackgroundDone(place) => self.background_done(place),
            Ev::Complete(slot) => self.complete(slot, self.now),
            Ev::Arrive(stream) => self.arrive_open(stream),
            // What was measured by now is the result.
            Ev::Stop => {
                if self.meter.completed < self.meter.end {
                    self.meter.ended_early = Some(EndedEarly::Runtime);
                    self.meter.end = self.meter.completed;
                }
            }
        }
    }

    /// A fresh request of the slot's stream takes slot `slot` at `at` (the moment the slot
    /// was freed) and leaves for the device.
    #[inline(always)]
    fn submit(&mut self, slot: u32, at: SimTime) {
        if self.p.trace_run && self.trace_done(slot) {
            // A closed-loop replay's slot retires with the trace's last request.
            return;
        }
        self.make_request(slot, at);
        self.send(slot, at);
    }

    /// Whether the slot's stream is a trace with no request left.
    #[inline(never)]
    fn trace_done(&self, slot: u32) -> bool {
        let i = self.slots[slot as usize].stream as usize;
        self.streams[i].exhausted()
    }

    /// Draw the slot's stream's next request into the slot, made at `at`.
    #[inline(always)]
    fn make_request(&mut self, slot: u32, at: SimTime) {
        let stream = self.slots[slot as usize].stream;
        let i = stream as usize;
        let r = self.streams[i].draw(&mut self.rng);
        self.slots[slot as usize] = Slot {
            stream,
            submitted: at,
            write: r.write,
            bytes: r.bytes,
            offset: r.offset,
            pages_left: 0,
            data_done: SimTime::ZERO,
            prefetch: false,
            slc: false,
        };
        if self.p.anatomy {
            self.traces[slot as usize].start(at);
        }
        self.maybe_follow(slot);
    }

    /// The request in `slot` goes down the host's stack at `at`, to the controller.
    #[inline(always)]
    fn send(&mut self, slot: u32, at: SimTime) {
        let p = &self.p;
        // A host that never limits books no path, so its runs are the same bit for bit.
        let through = if p.host_path == Nanos::ZERO {
            at
        } else {
            self.host_path.reserve(at, p.host_path)
        };
        let at_drive = through + p.host_stack;
        if p.anatomy {
            let trace = &mut self.traces[slot as usize];
            trace.pass(Part::HostQueue, at);
            trace.pass(Part::HostStack, at_drive);
        }
        if p.direct_arrival {
            self.arrive(slot, at_drive);
        } else {
            self.queue
                .push_in_lane(ARRIVAL_LANE, at_drive, Ev::CtrlArrive(slot));
        }
    }

    /// An open-loop stream's request arrives now: it takes a slot, and goes to the device
    /// unless the stream already has `iodepth` there (then it waits in the host, its latency
    /// running). The stream's next arrival is scheduled.
    #[inline(never)]
    fn arrive_open(&mut self, stream: u32) {
        if self.meter.arrivals_closed {
            return;
        }
        let i = stream as usize;
        if let Some(next) = self.streams[i].next_arrival(&mut self.rng) {
            self.queue.push(next, Ev::Arrive(stream));
        }
        let slot = match self.free_slots.pop() {
            Some(slot) => slot,
            None => {
                self.slots.push(Slot::default());
                self.traces.push(Trace::default());
                self.slots.len() as u32 - 1
            }
        };
        self.slots[slot as usize].stream = stream;
        self.make_request(slot, self.now);
        self.count_in_system(true);
        if self.meter.completed >= self.meter.warmup {
            self.meter.streams[i].arrivals += 1;
        }
        let host = &mut self.streams[i];
        let cursor = &mut host.cursor;
        if cursor.at_device < host.params.iodepth {
            cursor.at_device += 1;
            self.send(slot, self.now);
        } else {
            cursor.waiting.push_back(slot);
            self.host_backlog += 1;
            if self.host_backlog >= MAX_HOST_BACKLOG {
                self.backlog_full();
            }
        }
    }

    /// The host holds [`MAX_HOST_BACKLOG`] requests: the run ends here, what it measured so
    /// far its result; or, with nothing measured yet, it takes no more arrivals and measures
    /// the drive working off the backlog from the next completion on.
    fn backlog_full(&mut self) {
        let m = &mut self.meter;
        m.backlog_full = true;
        // Ended here once at least one request was measured (the warm-up's last completion
        // opens the window but is not measured).
        if m.completed > m.warmup {
            m.ended_early = Some(EndedEarly::HostBacklog);
            m.end = m.completed;
            return;
        }
        m.arrivals_closed = true;
        // The next completion opens the window; the rest of those in the system are measured.
        let left = m.in_system.saturating_sub(1);
        let measured = m.planned.min(left).max(1);
        if measured < m.planned {
            m.ended_early = Some(EndedEarly::HostBacklog);
        }
        m.measure(m.completed + 1, measured);
    }

    /// An open-loop request completed now: its slot is free, and its stream's first waiting
    /// request goes to the device.
    #[inline(never)]
    fn leave_open(&mut self, slot: u32) {
        self.count_in_system(false);
        self.free_slots.push(slot);
        let cursor = &mut self.streams[self.slots[slot as usize].stream as usize].cursor;
        match cursor.waiting.pop_front() {
            Some(next) => {
                self.host_backlog -= 1;
                self.send(next, self.now);
            }
            None => cursor.at_device -= 1,
        }
    }

    /// One more (or one fewer) open-loop request in the system, now.
    fn count_in_system(&mut self, arrived: bool) {
        let m = &mut self.meter;
        let elapsed = self.now.since(m.in_system_since).0;
        let area = u128::from(m.in_system) * u128::from(elapsed);
        m.in_system_area += area;
        if let Some(series) = &mut m.series {
            series.in_system(self.now.since(m.window_start).0, area);
        }
        if m.in_system > 0 {
            m.busy_ns += elapsed;
        }
        m.in_system_since = self.now;
        if arrived {
            m.in_system += 1;
        } else {
            m.in_system -= 1;
        }
    }

    /// Controller time one host command takes.
    #[inline(always)]
    fn command_cost(&self, write: bool) -> Nanos {
        if write {
            self.p.cmd_cost + self.p.write_cmd_cost
        } else {
            self.p.cmd_cost
        }
    }

    fn ctrl_arrive(&mut self, slot: u32) {
        if self.in_device >= self.p.queue_limit {
            self.host_waiters.push_back(slot);
            return;
        }
        self.arrive(slot, self.now);
    }

    /// Request `slot` reaches the controller at `now` (the present, or with direct arrival
    /// the future) and is let in.
    #[inline(always)]
    fn arrive(&mut self, slot: u32, now: SimTime) {
        self.in_device += 1;
        let cost = self.command_cost(self.slots[slot as usize].write);
        let done = self.controller.reserve(now, cost);
        if self.p.anatomy {
            let trace = &mut self.traces[slot as usize];
            trace.pass(Part::HostQueue, now);
            trace.commanded(cost, done);
        }
        self.preempt_background(done, cost);
        self.queue
            .push_in_lane(DISPATCH_LANE, done, Ev::Dispatch(slot));
    }

    fn dispatch(&mut self, slot: u32) {
        let write = self.slots[slot as usize].write;
        // The command held the controller for the `cost` before now (first come, first
        // served): its part inside the window is the controller's work.
        let cost = self.command_cost(write);
        self.controller_busy_ns += cost.0.min(self.now.since(self.meter.util_start).0);
        if !write && self.p.slc_read_ppm > 0 {
            self.slots[slot as usize].slc = self.draw_slc();
        }
        if write {
            if self.p.read_ahead {
                self.drop_stale_chunks(slot);
            }
            if self.buffer_waiters.is_empty() && self.buffer_fits(slot) {
                self.admit_write(slot);
            } else {
                self.buffer_waiters.push_back(slot);
            }
        } else if self.map_miss(slot) {
            // DRAM-less miss: read the mapping page first, then the data.
            let die = self.rng.below(u64::from(self.p.dies)) as u32;
            self.slots[slot as usize].pages_left = 1;
            self.enqueue_read(
                die,
                PageRead {
                    slot,
                    plane: 0,
                    bytes: MAPPING_UNIT_BYTES,
                    map: true,
                    slc: false,
                    wait: DieWait::default(),
                },
            );
        } else if self.p.read_ahead {
            self.read_with_read_ahead(slot);
        } else {
            self.dispatch_pages(slot);
        }
    }

    /// Whether a read's data sits in SLC-mode cells, drawn at the run's share.
    fn draw_slc(&mut self) -> bool {
        self.p.slc_read_ppm >= 1_000_000 || self.rng.below(1_000_000) < self.p.slc_read_ppm
    }

    /// A host read on a controller that reads ahead: served from DRAM when prefetched, else
    /// from the flash; then the stream's window is topped up.
    #[inline(never)]
    fn read_with_read_ahead(&mut self, slot: u32) {
        let s = self.slots[slot as usize];
        let i = s.stream as usize;
        if !self.streams[i].params.sequential() {
            self.dispatch_pages(slot);
            return;
        }
        let mut freed = std::mem::take(&mut self.freed);
        match self.ahead[i].claim(s.offset, s.bytes, slot, &mut freed) {
            Claim::Ready { chunk_slot } => {
                freed.push(chunk_slot);
                self.serve_from_dram(slot);
            }
            Claim::Pending => {}
            Claim::Miss => self.dispatch_pages(slot),
        }
        self.prefetch_free.append(&mut freed);
        self.freed = freed;
        let (window, limit) = (self.p.read_ahead_window, self.p.user_bytes);
        while let Some(offset) = self.ahead[i].wants(s.bytes, window, limit) {
            let chunk = match self.prefetch_free.pop() {
                Some(free) => free,
                None => {
                    self.slots.push(Slot::default());
                    self.traces.push(Trace::default());
                    self.slots.len() as u32 - 1
                }
            };
            let slc = self.p.slc_read_ppm > 0 && self.draw_slc();
            self.slots[chunk as usize] = Slot {
                stream: s.stream,
                submitted: self.now,
                bytes: s.bytes,
                offset,
                prefetch: true,
                slc,
                ..Slot::default()
            };
            if self.p.anatomy {
                self.traces[chunk as usize].start(self.now);
            }
            self.ahead[i].fetching(offset, s.bytes, chunk);
            self.dispatch_pages(chunk);
        }
    }

    /// A write makes any chunk prefetched over its range stale, in every stream.
    fn drop_stale_chunks(&mut self, slot: u32) {
        let s = self.slots[slot as usize];
        let mut freed = std::mem::take(&mut self.freed);
        for ra in &mut self.ahead {
            ra.written(s.offset, s.bytes, &mut freed);
        }
        self.prefetch_free.append(&mut freed);
        self.freed = freed;
    }

    /// A host read whose data is in the controller's DRAM: it only crosses the link.
    fn serve_from_dram(&mut self, slot: u32) {
        let bytes = self.slots[slot as usize].bytes;
        let transfer = self.p.link(bytes);
        let done = self.link[0].reserve(self.now, transfer);
        if self.p.anatomy {
            let trace = &mut self.traces[slot as usize];
            trace.pass(Part::ReadAhead, self.now);
            trace.on_link(transfer, done);
            trace.from_dram = true;
        }
        self.finish(slot, done);
    }

    /// A prefetched chunk read by internal slot `chunk` is in DRAM.
    fn chunk_arrived(&mut self, chunk: u32) {
        let i = self.slots[chunk as usize].stream as usize;
        match self.ahead[i].arrived(chunk) {
            Arrived::Serve(host) => {
                self.prefetch_free.push(chunk);
                self.serve_from_dram(host);
            }
            Arrived::Kept => {}
            Arrived::Dropped => self.prefetch_free.push(chunk),
        }
    }

    /// Whether a read of the slot's stream misses the mapping cache (DRAM-less drives).
    #[inline(always)]
    fn map_miss(&mut self, slot: u32) -> bool {
        if !self.p.map_misses {
            return false;
        }
        let stream = self.slots[slot as usize].stream as usize;
        let ppm = self.streams[stream].params.map_miss_ppm;
        ppm > 0 && self.rng.below(1_000_000) < ppm
    }

    /// Split a read into flash pages, striped page by page over dies, then planes (data
    /// written at random addresses lands anywhere, so any even spread is as good).
    fn dispatch_pages(&mut self, slot: u32) {
        if self.p.anatomy {
            self.traces[slot as usize].pages_queued();
        }
        let s = self.slots[slot as usize];
        if self.p.sequential_reads && self.streams[s.stream as usize].params.sequential() {
            self.dispatch_unit_pages(slot);
            return;
        }
        let (page, dies, planes) = (self.p.page_bytes, self.p.dies, self.p.planes);
        let end = s.offset + u64::from(s.bytes);
        let (first, within) = self.p.page_div.div_rem(s.offset);
        // Divisions are the costly part of a small read's dispatch: one that fits in its first
        // page needs no second.
        let last = if within + u64::from(s.bytes) <= page {
            first
        } else {
            self.p.page_div.div_rem(end - 1).0
        };
        self.slots[slot as usize].pages_left = (last - first + 1) as u32;
        // Page `lpn` lives on die `lpn % dies`, plane `(lpn / dies) % planes`; walking the
        // pages in order steps the die and wraps it into the next plane, without dividing.
        let (stripe, die) = self.p.die_div.div_rem(first);
        let mut die = die as u32;
        let mut plane = self.p.plane_div.div_rem(stripe).1 as u32;
        let mut start = s.offset;
        for lpn in first..=last {
            let stop = ((lpn + 1) * page).min(end);
            self.enqueue_read(
                die,
                PageRead {
                    slot,
                    plane: plane as u8,
                    bytes: (stop - start) as u32,
                    map: false,
                    slc: s.slc,
                    wait: DieWait::default(),
                },
            );
            start = stop;
            die += 1;
            if die == dies {
                die = 0;
                plane += 1;
                if plane == planes {
                    plane = 0;
                }
            }
        }
    }

    /// Split a read of sequentially written data into flash pages as the writes laid them
    /// out: a program unit's pages (`unit_pages`, or `slc_unit_pages` in the SLC cache) on one
    /// die, plane after plane, then the next die.
    #[inline(never)]
    fn dispatch_unit_pages(&mut self, slot: u32) {
        let s = self.slots[slot as usize];
        let p = &self.p;
        let unit = if s.slc {
            p.slc_unit_pages
        } else {
            p.unit_pages
        };
        let (page, dies, planes) = (p.page_bytes, u64::from(p.dies), u64::from(p.planes));
        let end = s.offset + u64::from(s.bytes);
        let (first, last) = (s.offset / page, (end - 1) / page);
        self.slots[slot as usize].pages_left = (last - first + 1) as u32;
        let mut start = s.offset;
        for lpn in first..=last {
            let stop = ((lpn + 1) * page).min(end);
            let die = (lpn / unit) % dies;
            let plane = (lpn % unit) % planes;
            self.enqueue_read(
                die as u32,
                PageRead {
                    slot,
                    plane: plane as u8,
                    bytes: (stop - start) as u32,
                    map: false,
                    slc: s.slc,
                    wait: DieWait::default(),
                },
            );
            start = stop;
        }
    }

    /// A read joins its die's queue. A die that starts with this read alone (idle, no program
    /// owed, no multi-plane batch to gather) takes it without a trip through the queue.
    fn enqueue_read(&mut self, die: u32, mut read: PageRead) {
        let p = &self.p;
        let d = &mut self.dies[die as usize];
        d.waiting_reads += 1;
        // Under a binding power budget the read goes the long way, through a power slot.
        let ungated = p.die_slots >= p.dies;
        if ungated && !d.busy && !d.owes_program() && !p.multi_plane(d.waiting_reads) {
            // It waits for nothing: its `wait` stays zero.
            d.waiting_reads -= 1;
            d.sensing[0] = read;
            d.n_sensing = 1;
            self.begin_sense(die, false);
            return;
        }
        if p.anatomy {
            read.wait = DieWait::queued(d.clock.read(self.now));
        }
        d.reads.push_back(read);
        if d.busy {
            self.try_suspend(die);
        } else {
            self.start_die(die);
        }
    }

    /// A die became free: let it pick new work (after the dies waiting for its power slot).
    fn wake_die(&mut self, die_idx: u32) {
        let die = &mut self.dies[die_idx as usize];
        if self.p.anatomy {
            die.clock.switch(self.now, Work::Idle);
        }
        die.busy = false;
        die.suspending = false;
        if die.holds_slot {
            die.holds_slot = false;
            self.active_dies -= 1;
            self.hand_out_power_slots();
        }
        self.start_die_with(die_idx);
    }

    /// Under a binding budget: a slot for the idle die `die_idx`, or a place in the queue for
    /// one; true if it may start.
    #[inline(never)]
    fn take_power_slot(&mut self, die_idx: u32) -> bool {
        let die = &mut self.dies[die_idx as usize];
        if self.active_dies < self.p.die_slots {
            self.active_dies += 1;
            die.holds_slot = true;
            self.meter.peak_active_dies = self.meter.peak_active_dies.max(self.active_dies);
            return true;
        }
        if !die.waits_for_power {
            die.waits_for_power = true;
            self.power_waiters.push_back(die_idx);
        }
        false
    }

    /// Free slots go to the waiting dies in the order they asked.
    fn hand_out_power_slots(&mut self) {
        while self.active_dies < self.p.die_slots {
            let Some(next) = self.power_waiters.pop_front() else {
                return;
            };
            let die = &mut self.dies[next as usize];
            die.waits_for_power = false;
            if !die.busy {
                self.start_die_with(next);
            }
        }
    }

    /// Take the die's first waiting read into `sensing`, and with a deep queue the first
    /// waiting read on each other plane too: a multi-plane read shares one tR. False when no
    /// read waits.
    fn take_read_batch(&mut self, die_idx: u32) -> bool {
        let p = &self.p;
        let die = &mut self.dies[die_idx as usize];
        let Some(first) = die.reads.pop_front() else {
            return false;
        };
        let deep = p.multi_plane(die.waiting_reads);
        let planes = p.planes as usize;
        die.n_sensing = take_batch(first, &mut die.reads, deep, planes, &mut die.sensing);
        die.waiting_reads -= die.n_sensing as u32;
        true
    }

    /// Let an idle die pick its next operation: reads first, but never more than
    /// `read_burst_limit` of them in a row while a program waits.
    fn start_die(&mut self, die_idx: u32) {
        if self.dies[die_idx as usize].busy {
            return;
        }
        self.start_die_with(die_idx);
    }

    /// [`start_die`](Self::start_die) for a die known to be idle.
    #[inline]
    fn start_die_with(&mut self, die_idx: u32) {
        let die = &self.dies[die_idx as usize];
        let has_read = !die.reads.is_empty();
        let owes_program = die.owes_program();
        if self.p.die_slots < self.p.dies
            && (has_read || owes_program)
            && !self.take_power_slot(die_idx)
        {
            return;
        }
        // A die that owes no program only reads: the common case takes the short path.
        if owes_program {
            self.start_die_owing_programs(die_idx, has_read);
        } else if has_read {
            self.start_read(die_idx);
        }
    }

    /// [`start_die_with`](Self::start_die_with) for a die with a program waiting: a read only
    /// while fewer than `read_burst_limit` ran in a row, else the next program step.
    #[inline(never)]
    fn start_die_owing_programs(&mut self, die_idx: u32, has_read: bool) {
        let limit = self.p.read_burst_limit;
        let die = &mut self.dies[die_idx as usize];
        match has_read {
            true if die.reads_in_a_row < limit => {
                die.reads_in_a_row += 1;
                self.start_read(die_idx);
            }
            _ => {
                die.reads_in_a_row = 0;
                die.busy = true;
                if let Some((left, op)) = die.suspended.take() {
                    die.op = op;
                    if self.p.anatomy {
                        die.clock.resume(self.now, work_of(op), self.p.t_resume);
                    }
                    let done = self.now + left;
                    self.schedule_step(die_idx, done);
                    return;
                }
                let steps = match die.unit.take() {
                    Some(steps) => steps,
                    None => {
                        die.units_queued -= 1;
                        self.begin_unit(die_idx)
                    }
                };
                self.program_step(die_idx, steps);
            }
        }
    }

    /// Start sensing the die's first waiting read (and with a deep queue a multi-plane batch);
    /// with none waiting there is nothing to sense.
    #[inline]
    fn start_read(&mut self, die_idx: u32) {
        if self.take_read_batch(die_idx) {
            self.begin_sense(die_idx, true);
        }
    }

    /// Start sensing the batch in the die's `sensing`; `queued`: its reads waited in the die's
    /// queue (and learn now what they waited behind).
    #[inline]
    fn begin_sense(&mut self, die_idx: u32, queued: bool) {
        let p = &self.p;
        let die = &mut self.dies[die_idx as usize];
        debug_assert!(
            die.holds_slot || p.die_slots >= p.dies,
            "sense without a slot"
        );
        debug_assert!(die.busy_until <= self.now, "die {die_idx} booked twice");
        die.busy = true;
        die.op = DieOp::Read;
        // The sensed data needs the data register, still held by the previous page until it
        // has streamed out (cache read overlaps the two; the register cannot).
        let slc = p.slc_read_ppm > 0 && die.sensing[..die.n_sensing].iter().all(|r| r.slc);
        let t_read = if slc { p.t_read_slc } else { p.t_read };
        if p.anatomy {
            if queued {
                let clocks = die.clock.read(self.now);
                for r in &mut die.sensing[..die.n_sensing] {
                    r.wait.began(clocks);
                }
            }
            die.clock.switch(self.now, Work::Reads);
        }
        (die.sense_began, die.sense_time, die.sense_slc) = (self.now, t_read, slc);
        let done = (self.now + t_read).max(die.register_free);
        die.book(self.now, done);
        self.queue
            .push_in_lane(SENSE_LANE, done, Ev::SenseDone(die_idx));
    }

    fn sense_done(&mut self, die_idx: u32) {
        let die = &mut self.dies[die_idx as usize];
        let ch = &mut self.channels[die.channel as usize];
        let mut last = self.now;
        for r in &die.sensing[..die.n_sensing] {
            let transfer = self.p.bus(r.bytes);
            last = ch.reserve(self.now, transfer);
            let path = PagePath {
                began: die.sense_began,
                sense: die.sense_time,
                slc: die.sense_slc,
                transfer,
                out: last,
            };
            if self.p.anatomy {
                self.traces[r.slot as usize].page(&r.wait, path);
            }
            self.queue.push_in_lane(
                PAGE_LANE,
                last,
                Ev::PageOut {
                    slot: r.slot,
                    bytes: r.bytes,
                    map: r.map,
                },
            );
        }
        die.n_sensing = 0;
        die.register_free = last;
        if self.p.cache_read {
            self.wake_die(die_idx);
        } else {
            die.book(self.now, last);
            self.queue.push(last, Ev::DieFree(die_idx));
        }
    }

    fn page_out(&mut self, slot: u32, bytes: u32, map: bool) {
        if map {
            if self.p.anatomy {
                self.traces[slot as usize].mapping_read(self.now);
            }
            self.dispatch_pages(slot);
            return;
        }
        if self.slots[slot as usize].prefetch {
            let s = &mut self.slots[slot as usize];
            s.pages_left -= 1;
            if s.pages_left == 0 {
                self.chunk_arrived(slot);
            }
            return;
        }
        let transfer = self.p.link(bytes);
        let done = self.link[0].reserve(self.now, transfer);
        if self.p.anatomy {
            self.traces[slot as usize].page_on_link(self.now, transfer, done);
        }
        let s = &mut self.slots[slot as usize];
        s.data_done = s.data_done.max(done);
        s.pages_left -= 1;
        if s.pages_left == 0 {
            let at = s.data_done;
            self.finish(slot, at);
        }
    }

    fn buffer_fits(&self, slot: u32) -> bool {
        self.buffer_used + u64::from(self.slots[slot as usize].bytes) <= self.p.buffer_bytes
    }

    /// Take buffer space, move the data over the link and acknowledge; full program units go to
    /// the dies in turn (log-structured writes stripe over every die whatever the address).
    fn admit_write(&mut self, slot: u32) {
        let bytes = self.slots[slot as usize].bytes;
        self.buffer_used += u64::from(bytes);
        let dir = usize::from(!self.p.half_duplex);
        let transfer = self.p.link_write(bytes);
        let done = self.link[dir].reserve(self.now, transfer);
        if self.p.anatomy {
            let trace = &mut self.traces[slot as usize];
            trace.pass(Part::BufferWait, self.now);
            trace.on_link(transfer, done);
            trace.from_dram = true;
        }
        self.unit_fill += u64::from(bytes);
        loop {
            // Host data fills SLC-mode units while the cache has room, native ones after.
            let slc_unit = u64::from(self.p.slc_unit_bytes);
            let slc = self.slc_left >= slc_unit;
            let unit = if slc {
                slc_unit
            } else {
                u64::from(self.p.unit_bytes)
            };
            if self.unit_fill < unit {
                break;
            }
            self.unit_fill -= unit;
            let die = self.next_program_die;
            self.next_program_die = (die + 1) % self.p.dies;
            let d = &mut self.dies[die as usize];
            d.units_queued += 1;
            if slc {
                self.slc_left -= slc_unit;
                d.slc_units += 1;
            }
            self.start_die(die);
        }
        self.finish(slot, done);
    }

    /// A program unit owes the garbage collection that makes room for it (copies of valid
    /// pages and its share of erases) before its own program; the controller's share of that
    /// collection runs as background work beside it. Returns the unit's steps.
    fn begin_unit(&mut self, die_idx: u32) -> UnitSteps {
        let p = &self.p;
        let die = &mut self.dies[die_idx as usize];
        die.gc_debt += p.gc_copies_per_unit;
        let copies = die.gc_debt.floor();
        die.gc_debt -= copies;
        die.erase_debt += p.erases_per_unit;
        let erases = die.erase_debt.floor();
        die.erase_debt -= erases;
        let (copies, erases) = (copies as u64, erases as u64);
        let slc = die.units_begun < die.slc_units;
        die.units_begun += 1;
        if p.gc_copies_per_unit > 0.0 {
            // Every unit gets a (possibly empty) background job so units finish in order.
            self.background
                .jobs
                .push_back((die_idx, p.gc_ctrl_per_copy * copies));
            if self.background.jobs.len() == 1 {
                self.start_background_head();
            }
        }
        UnitSteps {
            copies,
            erases,
            slc,
        }
    }

    /// Run the next flash step of the die's unit, `steps` (out of `die.unit`): a copy or an
    /// erase leaves the rest in `die.unit`, the host data's program ends the unit.
    fn program_step(&mut self, die_idx: u32, mut steps: UnitSteps) {
        let p = &self.p;
        let die = &mut self.dies[die_idx as usize];
        let unit_xfer = p.bus(p.unit_bytes);
        let channel = &mut self.channels[die.channel as usize];
        let done = if steps.copies > 0 {
            steps.copies -= 1;
            die.unit = Some(steps);
            die.op = DieOp::Copy;
            if p.anatomy {
                die.clock.switch(self.now, Work::Gc);
            }
            let out_and_in = channel.reserve(self.now, unit_xfer * 2);
            (self.now + p.t_read * p.senses_per_unit + p.t_prog).max(out_and_in)
        } else if steps.erases > 0 {
            steps.erases -= 1;
            die.unit = Some(steps);
            die.op = DieOp::Erase;
            if p.anatomy {
                die.clock.switch(self.now, Work::Gc);
            }
            self.now + p.t_erase
        } else {
            let (bytes, t_prog) = if steps.slc {
                (p.slc_unit_bytes, p.t_prog_slc)
            } else {
                (p.unit_bytes, p.t_prog)
            };
            die.op = DieOp::Program;
            if p.anatomy {
                die.clock.switch(self.now, Work::Programs);
            }
            channel.reserve(self.now, p.bus(bytes)) + t_prog
        };
        die.suspends = 0;
        self.schedule_step(die_idx, done);
    }

    /// The die's program step (new or resumed) ends at `done`.
    fn schedule_step(&mut self, die_idx: u32, done: SimTime) {
        let die = &mut self.dies[die_idx as usize];
        die.book(self.now, done);
        die.step_end = done;
        die.step_generation = die.step_generation.wrapping_add(1);
        let generation = die.step_generation;
        self.queue.push(
            done,
            Ev::StepDone {
                die: die_idx,
                generation,
            },
        );
    }

    /// A read reached a die busy with a program or erase step: when the firmware suspends and
    /// the step has enough left to make it worth while, stop it after the suspend latency and
    /// keep what it still needs (plus the resume cost) for later. Each step is suspended at
    /// most `max_suspends` times, so programs finish however many reads arrive.
    fn try_suspend(&mut self, die_idx: u32) {
        let p = &self.p;
        let die = &mut self.dies[die_idx as usize];
        let programming = matches!(die.op, DieOp::Program | DieOp::Copy | DieOp::Erase);
        if !programming || die.suspending {
            return;
        }
        let stop = self.now + p.t_suspend;
        if die.suspends >= p.max_suspends || stop + p.t_resume >= die.step_end {
            self.meter.reads_behind_programs += 1;
            return;
        }
        self.meter.suspends += 1;
        let left = die.step_end.since(stop);
        die.busy_ns -= left.0;
        die.busy_until = stop;
        die.suspends += 1;
        die.suspending = true;
        if p.anatomy {
            die.clock.switch(self.now, Work::Suspends);
        }
        die.suspended = Some((left + p.t_resume, die.op));
        die.step_generation = die.step_generation.wrapping_add(1);
        self.queue.push(stop, Ev::Suspended(die_idx));
    }

    fn step_done(&mut self, die_idx: u32, generation: u32) {
        let die = &mut self.dies[die_idx as usize];
        if generation != die.step_generation {
            return;
        }
        if die.unit.is_none() {
            die.units_array_done += 1;
            self.release_units(die_idx);
        }
        self.wake_die(die_idx);
    }

    fn start_background_head(&mut self) {
        let Some(&(_, work)) = self.background.jobs.front() else {
            return;
        };
        let bg = &mut self.background;
        bg.head_start = self.now.max(self.controller.free_at);
        bg.head_done = bg.head_start + work;
        bg.due = self.queue.take_place();
        self.queue
            .push_at_place(bg.head_done, bg.due, Ev::BackgroundDone(bg.due));
    }

    /// A host command holds the controller until `done` for `cost`: background work in service
    /// then is pushed back by as much.
    fn preempt_background(&mut self, done: SimTime, cost: Nanos) {
        let bg = &mut self.background;
        let start = SimTime(done.0 - cost.0);
        if bg.jobs.is_empty() || start >= bg.head_done {
            return;
        }
        bg.head_done = bg.head_done + cost;
        bg.due = self.queue.take_place();
    }

    fn background_done(&mut self, place: Place) {
        let bg = &self.background;
        if place != bg.due {
            // Pushed back since this event was scheduled: come again at the end, in the
            // latest place.
            self.queue
                .push_at_place(bg.head_done, bg.due, Ev::BackgroundDone(bg.due));
            return;
        }
        // An event in its due place always has its job; without one there is nothing to end.
        let Some((die, work)) = self.background.jobs.pop_front() else {
            return;
        };
        // Background work runs only while no host command holds the controller, so counting
        // whole jobs that started inside the window never counts the same time twice.
        if self.background.head_start >= self.meter.util_start {
            self.background.busy_ns += work.0;
        }
        self.start_background_head();
        self.dies[die as usize].units_background_done += 1;
        self.release_units(die);
    }

    /// Give back the buffer space of every unit whose flash and controller work are both done.
    fn release_units(&mut self, die_idx: u32) {
        let gc = self.p.gc_copies_per_unit > 0.0;
        let die = &mut self.dies[die_idx as usize];
        let done = if gc {
            die.units_array_done.min(die.units_background_done)
        } else {
            die.units_array_done
        };
        let released = done - die.units_released;
        if released == 0 {
            return;
        }
        // Units finish in order, and a die's SLC units are its first ones.
        let k = die.slc_units;
        let slc = done.min(k) - die.units_released.min(k);
        die.units_released = done;
        self.buffer_used -= slc * u64::from(self.p.slc_unit_bytes)
            + (released - slc) * u64::from(self.p.unit_bytes);
        while let Some(&slot) = self.buffer_waiters.front() {
            if !self.buffer_fits(slot) {
                break;
            }
            self.buffer_waiters.pop_front();
            self.admit_write(slot);
        }
    }

    /// The request's last byte crosses the link at `at`.
    #[inline(always)]
    fn finish(&mut self, slot: u32, at: SimTime) {
        if self.p.host_may_hold {
            // The host may hold requests back: free the device slot at the right moment.
            self.queue.push(at, Ev::Complete(slot));
        } else {
            self.complete(slot, at);
        }
    }

    #[inline(always)]
    fn complete(&mut self, slot: u32, at: SimTime) {
        self.in_device -= 1;
        if let Some(waiting) = self.host_waiters.pop_front() {
            self.queue.push(at, Ev::CtrlArrive(waiting));
        }
        let s = self.slots[slot as usize];
        self.maybe_followed_done(slot, at.since(s.submitted));
        let m = &mut self.meter;
        m.completed += 1;
        if m.completed == m.warmup {
            m.window_start = at;
            m.window_end = at;
            m.in_system_area = 0;
            m.busy_ns = 0;
            m.in_system_since = at;
            m.in_system_at_open = m.in_system;
            self.reset_busy();
        } else if m.completed > m.warmup {
            let latency = at.since(s.submitted);
            m.hist.record(latency);
            if self.p.anatomy {
                let trace = &self.traces[slot as usize];
                debug_assert_eq!(
                    trace.parts().total(),
                    latency,
                    "a request's parts add up to its latency"
                );
                *m.anatomy.of(s.write).tally(latency, trace.from_dram) += trace.parts();
            }
            m.bytes += u64::from(s.bytes);
            m.window_end = m.window_end.max(at);
            if m.completed == m.next_mark {
                m.batch_marks.push(m.window_end);
                m.next_mark += m.per_batch;
            }
            if self.p.split_figures {
                self.record_split(&s, slot, at, latency);
            }
        }
        if self.p.open && self.streams[s.stream as usize].params.rate.is_some() {
            self.leave_open(slot);
        } else {
            // The slot is reused at once: a closed loop has no think time.
            self.submit(slot, at);
        }
    }

    /// Record a measured request where a run keeps figures apart: by direction, by stream,
    /// over time.
    #[inline(never)]
    fn record_split(&mut self, s: &Slot, slot: u32, at: SimTime, latency: Nanos) {
        let m = &mut self.meter;
        if self.p.both_directions {
            match s.write {
                true => m.write_hist.record(latency),
                false => m.read_hist.record(latency),
            }
        }
        if let Some(sm) = m.streams.get_mut(s.stream as usize) {
            sm.hist.record(latency);
            sm.bytes += u64::from(s.bytes);
            if self.p.anatomy {
                let trace = &self.traces[slot as usize];
                *sm.anatomy.of(s.write).tally(latency, trace.from_dram) += trace.parts();
            }
            if self.p.both_directions {
                match s.write {
                    true => sm.write_hist.record(latency),
                    false => sm.read_hist.record(latency),
                }
            }
        }
        if let Some(series) = &mut m.series {
            series.complete(at.since(m.window_start).0, s.bytes, latency);
        }
    }

    /// Open the utilisation window at `now`: what each resource still has booked from before
    /// counts, what it did before does not.
    fn reset_busy(&mut self) {
        let now = self.now;
        self.meter.util_start = now;
        self.meter.suspends = 0;
        self.meter.reads_behind_programs = 0;
        self.controller_busy_ns = 0;
        self.background.busy_ns = 0;
        self.link.iter_mut().for_each(|l| l.open_window(now));
        self.channels.iter_mut().for_each(|c| c.open_window(now));
        self.dies
            .iter_mut()
            .for_each(|d| d.busy_ns = d.busy_until.since(now).0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Stalled;

    /// A simulation of 4 KiB random I/O (`read_pct` reads) at `iodepth` on a fresh `preset` of
    /// `gb`, measuring `measured_ios`.
    fn fresh_drive_run(
        preset: &str,
        gb: f64,
        read_pct: u8,
        iodepth: u32,
        measured_ios: u64,
    ) -> Simulation {
        let spec = crate::RunSpec {
            drive: crate::presets::find(preset)
                .unwrap()
                .drive_for_capacity_gb(gb)
                .unwrap(),
            workload: crate::Workload {
                rw: crate::Rw::from_parts(true, read_pct),
                rwmixread: read_pct,
                bs_bytes: 4096,
                iodepth,
            },
            state: crate::DriveState::Fob,
            options: crate::RunOptions {
                measured_ios,
                ..crate::RunOptions::default()
            },
        };
        Simulation::new(&spec.check().unwrap())
    }

    #[test]
    fn a_run_whose_events_run_out_is_an_error_not_a_result() {
        // A checked run always has work, so the only way to see the path is to take its
        // events away: the run must end (not spin) and say it stalled, with what was done.
        let mut sim = fresh_drive_run(
            "e12",
            960.0,
            100,
            4,
            crate::RunOptions::DEFAULT_MEASURED_IOS,
        );
        assert!(!sim.step(1_000));
        assert!(sim.result().is_ok(), "a run in progress has figures so far");
        let (at, done) = (sim.now(), sim.meter.completed);
        sim.queue = EventQueue::default();
        assert!(sim.step(1), "a run with no events left is over");
        assert_eq!(
            sim.result(),
            Err(RunError::Stalled(Stalled {
                at,
                completed: done,
                expected: sim.meter.end,
            }))
        );
        assert!(done < sim.meter.end);
        assert!(sim
            .result()
            .unwrap_err()
            .to_string()
            .starts_with("the model stalled at "));
    }

    #[test]
    fn the_measured_count_is_the_results_at_every_step_and_none_during_the_warm_up() {
        // `measured_ios` stands in for `result().measured_ios` where a caller stops at a
        // count (the page's estimates, `parallelism_work::plan`): the two never differ.
        let mut sim = fresh_drive_run("e18dc", 1920.0, 70, 8, 3_000);
        assert_eq!(sim.measured_ios(), 0);
        let mut steps = 0;
        while !sim.step(500) {
            steps += 1;
            let measured = sim.measured_ios();
            assert_eq!(measured, sim.result().unwrap().measured_ios, "step {steps}");
            if sim.meter.completed <= sim.meter.warmup {
                assert_eq!(measured, 0, "step {steps}, in the warm-up");
            }
        }
        assert_eq!(sim.measured_ios(), sim.result().unwrap().measured_ios);
        assert!(sim.measured_ios() >= 3_000);
        assert!(steps > 10, "the run took {steps} steps");
    }
}
