//! The engine's side of [`crate::anatomy`]: charging every span of a request's life to one
//! [`Part`] as the request passes through the engine.
//!
//! What it owns: a request's [`Trace`] (its parts so far, and the moment up to which they are
//! charged) and a die's [`DieClock`] (how long the die has spent on each kind of work, so a
//! read that waited at it learns what it waited behind).
//!
//! What always holds: a trace's parts plus its critical page's add up to the time from the
//! request's submission to its `mark`, and at the request's end the mark is its last byte on
//! the link; so the parts add up to the latency exactly. A read's pages run in parallel: the
//! page whose data leaves its channel last also crosses the link last (the link serves in
//! arrival order), so that page's path is the request's, and only its parts are kept.
//!
//! Why: a few integer adds at each stage cost less than keeping a history, and the die's
//! clocks answer "behind what?" for any wait, whatever order the die chose its work in.

use crate::anatomy::{Part, Parts};
use crate::time::{Nanos, SimTime};

/// What a die is doing, for its clocks: the kinds a waiting read may wait behind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Work {
    #[default]
    Idle,
    Reads,
    Programs,
    Gc,
    Suspends,
}

/// The parts a die's kinds of work are charged to, for a read waiting behind them.
const WAITS: [Part; 4] = [
    Part::BehindReads,
    Part::BehindPrograms,
    Part::BehindGc,
    Part::Suspends,
];

impl Work {
    fn clock(self) -> Option<usize> {
        match self {
            Work::Idle => None,
            Work::Reads => Some(0),
            Work::Programs => Some(1),
            Work::Gc => Some(2),
            Work::Suspends => Some(3),
        }
    }
}

/// A die's time on each kind of work, running totals (idle time is the rest).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct DieClock {
    spent: [u64; 4],
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

    /// The running totals as of `now`.
    #[inline(always)]
    pub(super) fn read(&mut self, now: SimTime) -> [u64; 4] {
        self.charge(now);
        self.spent
    }

    #[inline(always)]
    fn charge(&mut self, now: SimTime) {
        if let Some(i) = self.work.clock() {
            if self.resume_until > self.since {
                let resumed = self.resume_until.min(now);
                self.spent[3] += resumed.since(self.since).0;
                self.since = resumed;
            }
            self.spent[i] += now.since(self.since).0;
        }
        self.since = now;
    }
}

/// A read page's wait at its die: the die's clocks when the page joined its queue, turned
/// into what it waited behind when its sense began.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct DieWait(pub(super) [u64; 4]);

impl DieWait {
    /// Joined the queue of a die whose clocks read `at_queue`.
    #[inline(always)]
    pub(super) fn queued(at_queue: [u64; 4]) -> DieWait {
        DieWait(at_queue)
    }

    /// The sense begins with the die's clocks at `at_sense`: the wait behind each kind.
    #[inline(always)]
    pub(super) fn began(&mut self, at_sense: [u64; 4]) {
        for (w, now) in self.0.iter_mut().zip(at_sense) {
            *w = now - *w;
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

/// One request's time so far.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Trace {
    /// Charged up to `mark`, from the request's submission.
    parts: Parts,
    mark: SimTime,
    /// A read from the flash: the parts of its critical page (from `mark`, when its pages
    /// joined their dies' queues, to that page's last byte on the link), and when that page
    /// leaves its channel.
    page: Parts,
    page_out: SimTime,
    /// Served from DRAM without a flash read of its own.
    pub(super) from_dram: bool,
}

impl Trace {
    /// A request made at `at`.
    #[inline(always)]
    pub(super) fn new(at: SimTime) -> Trace {
        Trace {
            mark: at,
            ..Trace::default()
        }
    }

    /// The time from the mark to `until` was `part`.
    #[inline(always)]
    pub(super) fn pass(&mut self, part: Part, until: SimTime) {
        self.parts.add(part, until.since(self.mark));
        self.mark = until;
    }

    /// A server that took `work` and was done at `done`: the wait before, then the work.
    #[inline(always)]
    pub(super) fn served(&mut self, queue: Part, work_part: Part, work: Nanos, done: SimTime) {
        self.pass(queue, SimTime(done.0 - work.0));
        self.pass(work_part, done);
    }

    /// A read's pages join their dies' queues now (`mark`); no page has left a channel yet.
    pub(super) fn pages_queued(&mut self) {
        self.page = Parts::default();
        self.page_out = SimTime::ZERO;
    }

    /// A page of this read left its channel on `path`, after `wait` at its die. If no page
    /// of the read leaves later, its path is the read's.
    #[inline(always)]
    pub(super) fn page(&mut self, wait: &DieWait, path: PagePath) {
        if path.out < self.page_out {
            return;
        }
        let mut page = Parts::default();
        let mut waited = 0;
        for (part, &w) in WAITS.iter().zip(&wait.0) {
            page.add(*part, Nanos(w));
            waited += w;
        }
        // The rest of its time at the die it waited with the die idle: for a power slot.
        let at_die = path.began.since(self.mark).0;
        page.add(Part::PowerWait, Nanos(at_die - waited));
        let sense = if path.slc {
            Part::SlcSense
        } else {
            Part::Sense
        };
        page.add(sense, path.sense);
        // A sense that outlasts tR waited for the die's register to empty onto the channel.
        let sensed = path.began + path.sense;
        page.add(
            Part::ChannelQueue,
            Nanos(path.out.0 - path.transfer.0 - sensed.0),
        );
        page.add(Part::ChannelTransfer, path.transfer);
        self.page = page;
        self.page_out = path.out;
    }

    /// A page that left its channel at `out` crossed the link by `done`, after `transfer` on
    /// it: when it is the read's critical page, that is the read's link time.
    #[inline(always)]
    pub(super) fn page_on_link(&mut self, out: SimTime, transfer: Nanos, done: SimTime) {
        if out == self.page_out {
            self.page
                .set(Part::LinkQueue, Nanos(done.0 - transfer.0 - out.0));
            self.page.set(Part::LinkTransfer, transfer);
        }
    }

    /// The request's parts, whole, once it is done.
    #[inline(always)]
    pub(super) fn parts(&self) -> Parts {
        let mut all = self.parts;
        for (a, p) in all.0.iter_mut().zip(self.page.0) {
            *a += p;
        }
        all
    }
}
