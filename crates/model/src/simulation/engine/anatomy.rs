//! The engine's side of [`crate::anatomy`]: charging every span of a request's life to one
//! [`Part`] as the request passes through the engine.
//!
//! What it owns: a request's [`Trace`] (its parts so far, and the moment up to which they are
//! charged) and a die's [`DieClock`] (how long the die has spent on each kind of work, so a
//! read that waited at it learns what it waited behind).
//!
//! What always holds: a trace's parts add up to the time from the request's submission to its
//! `mark` (a read from the flash: to its critical page's last byte on the link), and at the
//! request's end that is its last byte on the link; so the parts add up to the latency
//! exactly. A read's pages run in parallel: the
//! page whose data leaves its channel last also crosses the link last (the link serves in
//! arrival order), so that page's path is the request's, and only its parts are kept.
//!
//! Why: a few integer adds at each stage cost less than keeping a history, and the die's
//! clocks answer "behind what?" for any wait, whatever order the die chose its work in.

use crate::anatomy::{Part, Parts};
use crate::time::{Nanos, SimTime};

/// What a die is doing, for its clocks: the kinds a waiting read may wait behind, then idle.
/// Each kind is its clock's index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Work {
    Reads = 0,
    Programs = 1,
    Gc = 2,
    Suspends = 3,
    #[default]
    Idle = 4,
}

/// The parts a die's kinds of work are charged to, for a read waiting behind them.
const WAITS: [Part; 4] = [
    Part::BehindReads,
    Part::BehindPrograms,
    Part::BehindGc,
    Part::Suspends,
];

/// A die's time on each kind of work, running totals. Idle time runs on a clock of its own
/// that nobody reads: charging is then the same add whatever the die does.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct DieClock {
    spent: [u64; 5],
    work: Work,
    since: SimTime,
    /// A resumed step pays its resume first: until this moment its time is a suspend's.
    resume_until: SimTime,
}

impl DieClock {
    /// The die turns to `work` at `now`.
    #[inline(always)]
    pub(super) fn switch(&mut self, now: SimTime, work: Work) {
        self.charge(now);
        self.work = work;
    }

    /// The die resumes a suspended step of `work` at `now`, paying `resume` first.
    pub(super) fn resume(&mut self, now: SimTime, work: Work, resume: Nanos) {
        self.switch(now, work);
        self.resume_until = now + resume;
    }

    /// What the die is doing now.
    pub(super) fn work(&self) -> Work {
        self.work
    }

    /// The running totals of the kinds a read may wait behind, as of `now`.
    #[inline(always)]
    pub(super) fn read(&mut self, now: SimTime) -> [u64; 4] {
        self.charge(now);
        [self.spent[0], self.spent[1], self.spent[2], self.spent[3]]
    }

    #[inline(always)]
    fn charge(&mut self, now: SimTime) {
        if self.resume_until > self.since {
            let resumed = self.resume_until.min(now);
            self.spent[Work::Suspends as usize] += resumed.since(self.since).0;
            self.since = resumed;
        }
        self.spent[self.work as usize] += now.since(self.since).0;
        self.since = now;
    }
}

/// A read page's wait at its die: the die's clocks when the page joined its queue, turned
/// into what it waited behind when its sense began. Kept in 32 bits each (the low bits of the
/// clocks, subtracted with wrapping), so a page in a die's queue stays small: exact for any
/// wait under 4.29 s behind one kind of work, far beyond what reads, which go before programs,
/// ever wait; a longer one would count as waiting for power, and the parts would still add up.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct DieWait([u32; 4]);

impl DieWait {
    /// Joined the queue of a die whose clocks read `at_queue`.
    #[inline(always)]
    pub(super) fn queued(at_queue: [u64; 4]) -> DieWait {
        DieWait(at_queue.map(|ns| ns as u32))
    }

    /// The sense begins with the die's clocks at `at_sense`: the wait behind each kind.
    #[inline(always)]
    pub(super) fn began(&mut self, at_sense: [u64; 4]) {
        for (w, now) in self.0.iter_mut().zip(at_sense) {
            *w = (now as u32).wrapping_sub(*w);
        }
    }
}

/// A read page's way from its sense to the end of its channel transfer.
#[derive(Clone, Copy, Debug)]
pub(super) struct PagePath {
    /// When its sense began, and the sense's own time (tR, native or SLC).
    pub(super) began: SimTime,
    pub(super) sense: Nanos,
    pub(super) slc: bool,
    /// Its time on the channel, and when it left it.
    pub(super) transfer: Nanos,
    pub(super) out: SimTime,
}

/// One request's time so far, as the parts it will report, written in place: the hot loop
/// touches it at every stage, and adding it to a run's sums is one add per part.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Trace {
    /// Charged up to `mark`, from the request's submission; a read from the flash has its
    /// critical page's parts (from `mark`, when its pages joined their dies' queues, to the
    /// page's last byte on the link) in them too.
    parts: Parts,
    mark: SimTime,
    /// When the read's critical page left its channel (so far).
    page_out: SimTime,
    /// Served from DRAM without a flash read of its own.
    pub(super) from_dram: bool,
}

/// The parts a read's page sets, from its die's queue to its end on the channel.
const PAGE_PARTS: [Part; 9] = [
    Part::BehindReads,
    Part::BehindPrograms,
    Part::BehindGc,
    Part::Suspends,
    Part::PowerWait,
    Part::Sense,
    Part::SlcSense,
    Part::ChannelQueue,
    Part::ChannelTransfer,
];

impl Trace {
    /// A request made at `at` takes this trace.
    #[inline(always)]
    pub(super) fn start(&mut self, at: SimTime) {
        self.parts = Parts::default();
        self.mark = at;
        self.from_dram = false;
    }

    /// The time from the mark to `until` was `part`.
    #[inline(always)]
    pub(super) fn pass(&mut self, part: Part, until: SimTime) {
        // Stages follow each other in time: a plain difference, checked in tests.
        debug_assert!(until >= self.mark, "{part} ends before it starts");
        self.parts.add(part, Nanos(until.0 - self.mark.0));
        self.mark = until;
    }

    /// The controller served its command: the wait before, then `work`, done at `done`.
    #[inline(always)]
    pub(super) fn commanded(&mut self, work: Nanos, done: SimTime) {
        self.pass(Part::ControllerQueue, SimTime(done.0 - work.0));
        self.pass(Part::Command, done);
    }

    /// Its data crossed the link by `done` after `work` on it (a write, or a read from DRAM).
    #[inline(always)]
    pub(super) fn on_link(&mut self, work: Nanos, done: SimTime) {
        self.pass(Part::LinkQueue, SimTime(done.0 - work.0));
        self.pass(Part::LinkTransfer, done);
    }

    /// A read's pages join their dies' queues now (`mark`); no page has left a channel yet.
    #[inline(always)]
    pub(super) fn pages_queued(&mut self) {
        self.page_out = SimTime::ZERO;
    }

    /// A DRAM-less read's mapping entry arrived now: the time since the mark was its read,
    /// and what that read's page set is not the request's.
    pub(super) fn mapping_read(&mut self, now: SimTime) {
        for part in PAGE_PARTS {
            self.parts.set(part, Nanos::ZERO);
        }
        self.pass(Part::MappingRead, now);
    }

    /// A page of this read left its channel on `path`, after `wait` at its die. If no page
    /// of the read leaves later, its path is the read's.
    #[inline(always)]
    pub(super) fn page(&mut self, wait: &DieWait, path: PagePath) {
        if path.out < self.page_out {
            return;
        }
        let mut waited = 0;
        for (part, &w) in WAITS.iter().zip(&wait.0) {
            self.parts.set(*part, Nanos(u64::from(w)));
            waited += u64::from(w);
        }
        // The rest of its time at the die it waited with the die idle: for a power slot.
        let at_die = path.began.since(self.mark).0;
        self.parts
            .set(Part::PowerWait, Nanos(at_die.saturating_sub(waited)));
        let (own, other) = match path.slc {
            true => (Part::SlcSense, Part::Sense),
            false => (Part::Sense, Part::SlcSense),
        };
        self.parts.set(own, path.sense);
        self.parts.set(other, Nanos::ZERO);
        // A sense that outlasts tR waited for the die's register to empty onto the channel.
        let sensed = path.began + path.sense;
        let channel_queue = path.out.0 - path.transfer.0 - sensed.0;
        self.parts.set(Part::ChannelQueue, Nanos(channel_queue));
        self.parts.set(Part::ChannelTransfer, path.transfer);
        self.page_out = path.out;
    }

    /// A page that left its channel at `out` crossed the link by `done`, after `transfer` on
    /// it: when it is the read's critical page, that is the read's link time.
    #[inline(always)]
    pub(super) fn page_on_link(&mut self, out: SimTime, transfer: Nanos, done: SimTime) {
        if out == self.page_out {
            self.parts
                .set(Part::LinkQueue, Nanos(done.0 - transfer.0 - out.0));
            self.parts.set(Part::LinkTransfer, transfer);
        }
    }

    /// The request's parts so far (whole, once it is done).
    #[inline(always)]
    pub(super) fn parts(&self) -> &Parts {
        &self.parts
    }

    /// Up to when its parts are charged.
    pub(super) fn mark(&self) -> SimTime {
        self.mark
    }

    /// Its link time is charged (a write, or a read served from DRAM).
    pub(super) fn on_the_link(&self) -> bool {
        self.parts.get(Part::LinkTransfer) > Nanos::ZERO
    }
}
