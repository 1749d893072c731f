//! Following one request through the engine, for teaching mode: the next request of a
//! direction made after [`Simulation::follow_next`] is the one followed, and
//! [`Simulation::followed`] says where it is and what its time has been so far.
//!
//! What always holds: the hot loop pays one test of an empty option per request made and one
//! comparison per request completed; where the request is, is read from the engine's own
//! queues when asked (a frame of teaching mode), never kept as it moves.

use super::anatomy::Work;
use super::Simulation;
use crate::anatomy::{Followed, Part, Parts, Whereabouts};
use crate::time::Nanos;

/// Which request is followed.
#[derive(Clone, Copy, Debug, Default)]
pub(super) enum Follow {
    #[default]
    Nobody,
    /// The next request of this direction (true: a write) made.
    Next { write: bool },
    /// The request in this slot.
    InFlight { slot: u32 },
    /// It is done: its parts, its latency, its direction.
    Done {
        parts: Parts,
        latency: Nanos,
        write: bool,
    },
}

impl Simulation {
    /// Follow the next request of this direction (`write`) that the host makes, dropping the
    /// one followed before. A run that keeps no anatomy ([`RunOptions::anatomy`]
    /// off) keeps no parts or die clocks to follow one with: it follows nobody.
    ///
    /// [`RunOptions::anatomy`]: crate::RunOptions::anatomy
    pub fn follow_next(&mut self, write: bool) {
        self.follow = match self.p.anatomy {
            true => Follow::Next { write },
            false => Follow::Nobody,
        };
    }

    /// The request followed, once there is one.
    pub fn followed(&self) -> Option<Followed> {
        match self.follow {
            Follow::Nobody | Follow::Next { .. } => None,
            Follow::Done {
                parts,
                latency,
                write,
            } => Some(Followed {
                write,
                age: latency,
                parts,
                at: Whereabouts::Done,
            }),
            Follow::InFlight { slot } => {
                let s = &self.slots[slot as usize];
                Some(Followed {
                    write: s.write,
                    age: self.now.since(s.submitted),
                    parts: *self.traces[slot as usize].parts(),
                    at: self.whereabouts(slot),
                })
            }
        }
    }

    /// A request was made in `slot`: it is followed if one of its direction was asked for.
    #[inline(always)]
    pub(super) fn maybe_follow(&mut self, slot: u32) {
        if let Follow::Next { write } = self.follow {
            if self.slots[slot as usize].write == write && !self.slots[slot as usize].prefetch {
                self.follow = Follow::InFlight { slot };
            }
        }
    }

    /// The request in `slot` is done after `latency`: if it is the one followed, keep its
    /// parts.
    #[inline(always)]
    pub(super) fn maybe_followed_done(&mut self, slot: u32, latency: Nanos) {
        if let Follow::InFlight { slot: followed } = self.follow {
            if followed == slot {
                self.follow = Follow::Done {
                    parts: *self.traces[slot as usize].parts(),
                    latency,
                    write: self.slots[slot as usize].write,
                };
            }
        }
    }

    /// Where the request in `slot`, in flight, is now: read from the queues that may hold it.
    fn whereabouts(&self, slot: u32) -> Whereabouts {
        let waiting_in_host = self.host_waiters.contains(&slot)
            || self
                .streams
                .iter()
                .any(|s| s.cursor.waiting.contains(&slot));
        if waiting_in_host {
            return Whereabouts::Host;
        }
        // Charged ahead of now: the host's stack and the controller are reservations.
        if self.traces[slot as usize].mark() > self.now {
            return if self.slots[slot as usize].write || self.traces[slot as usize].on_the_link() {
                Whereabouts::Link
            } else {
                Whereabouts::Controller
            };
        }
        if self.slots[slot as usize].write {
            return match self.buffer_waiters.contains(&slot) {
                true => Whereabouts::Buffer,
                false => Whereabouts::Link,
            };
        }
        self.at_a_die(slot).unwrap_or_else(|| {
            let s = &self.slots[slot as usize];
            match s.data_done > self.now {
                true => Whereabouts::Link,
                false => Whereabouts::Channel,
            }
        })
    }

    /// A read's page at a die: being sensed, or waiting behind the die's work.
    fn at_a_die(&self, slot: u32) -> Option<Whereabouts> {
        self.dies.iter().enumerate().find_map(|(i, d)| {
            let sensing = d.sensing[..d.n_sensing].iter().any(|r| r.slot == slot) && d.busy;
            let queued = (0..d.reads.len()).any(|k| d.reads.get(k).is_some_and(|r| r.slot == slot));
            let behind = match d.clock.work() {
                Work::Reads => Some(Part::BehindReads),
                Work::Programs => Some(Part::BehindPrograms),
                Work::Gc => Some(Part::BehindGc),
                Work::Suspends => Some(Part::Suspends),
                Work::Idle => Some(Part::PowerWait),
            };
            (sensing || queued).then_some(Whereabouts::Die {
                die: i as u32,
                channel: d.channel,
                behind: if sensing { None } else { behind },
            })
        })
    }
}
