//! The event queue: which event happens next.
//!
//! A binary min-heap of `(time, sequence number, event)` kept in a `Vec`, beside a few FIFO
//! *lanes*. The order events come out in is a total order fixed by the events scheduled, so a
//! run is deterministic:
//! - earlier time first;
//! - at equal times, the heap's events first, in the order they were scheduled, then each
//!   lane's in lane order, each lane first-in first-out (which is scheduling order too).
//!
//! # Lanes
//! Many events are scheduled in time order by construction: a first-come first-served server's
//! completions come out in the order they were reserved, and reservations are made in time
//! order. Such events can wait in a lane, where scheduling and taking the next one costs a
//! few instructions instead of a walk through the heap. An event pushed to a lane earlier
//! than the lane's last event goes to the heap instead, so a lane is always in time order and
//! [`pop`](EventQueue::pop) takes the earliest among the heap's top and the lanes' heads.
//!
//! The queue keeps each lane's head time and last time in two small arrays, so choosing the
//! next event compares a few `u64`s (and picks among them with selects, not branches) instead
//! of asking every lane, and scheduling compares against one number. Ties between sources go
//! by source rather than by sequence number because a `(time, sequence)` key is a `u128`,
//! whose comparisons and selects cost twice the instructions on the engine's hottest path;
//! the order stays total and fixed, which is what determinism needs.
//!
//! # Places
//! An event whose time moves later many times before it comes (controller work pushed back by
//! each host command) need not be scheduled at every move: the engine takes a place in the
//! order ([`EventQueue::take_place`]) at each move, as a push would, and schedules the event
//! once at its latest time in its latest place ([`EventQueue::push_at_place`]). It comes out
//! exactly where the last of those pushes would have put it, and the heap holds no stale copy
//! for each move.
//!
//! # Why not `std::collections::BinaryHeap`
//! Taking the next event is the engine's most frequent operation (three per simulated 4 KiB
//! read), and what costs there is less the instructions than the mispredicted branches: which
//! child of a heap node is earlier, and whether the heap or a lane holds the next event, are
//! coin tosses. This heap compares keys with flags instead of short-circuit branches, picks the
//! earlier child by adding the comparison's result, and moves entries by copy into a hole
//! (events are `Copy`), sifting the last entry down to the bottom and back up (Floyd's method).
//!
//! # Measured alternatives
//! Each was measured with valgrind (`cachegrind --branch-sim=yes`) on the whole engine running
//! 202,000 random 4 KiB reads at QD32 on 32 dies, and lost:
//! - `std::collections::BinaryHeap`: 10% more instructions and 14% more mispredicted branches
//!   than this heap with two lanes (2% and 5% more than this heap without lanes).
//! - A radix heap: 1.85x the instructions of a binary heap on queues this small (a few dozen
//!   to a few hundred events).
//! - Lanes compared with short-circuit `&&`/`||`: 6% fewer instructions, 59% more mispredicted
//!   branches.
//! - A `(time, sequence)` key as one `u128`: fewer instructions, 3% more mispredictions, slower.
//! - A running minimum instead of a select for a lane's new head: compiled to branches.
//! - Division by multiplication (Lemire's `ceil(2^64 / d)`) in a read's dispatch: exact, no
//!   faster (the compiler already divides in 32 bits there).
//!
//! `lab bench` prints the engine's speed; the README's benchmark table has the current figures.

use super::ring::Ring;
use super::time::SimTime;

/// A place in the order of events at equal times: see [`EventQueue::take_place`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Place(u32);

#[derive(Clone, Copy, Debug)]
struct Entry<E> {
    at: SimTime,
    // 32 bits keep an entry at 24 bytes. It wraps after 2^32 events; only a tie at that instant
    // could then leave scheduling order, and still deterministically.
    seq: u32,
    ev: E,
}

impl<E> Entry<E> {
    /// Whether `self` comes out before `other`: earlier, or as early and scheduled first.
    /// (Non-short-circuit `|` and `&`: flags, not branches, which mispredict half the time.)
    #[inline(always)]
    fn before(&self, other: &Self) -> bool {
        (self.at < other.at) | ((self.at == other.at) & (self.seq < other.seq))
    }
}

/// A priority queue of `(SimTime, E)` with first-in first-out ties and `LANES` FIFO lanes for
/// events that are usually scheduled in time order.
#[derive(Debug)]
pub(crate) struct EventQueue<E, const LANES: usize = 0> {
    /// A min-heap: every entry comes out no later than its children at `2i + 1` and `2i + 2`.
    heap: Vec<Entry<E>>,
    /// Each lane holds entries in nondecreasing `(time, sequence)` order.
    lanes: [Ring<Entry<E>>; LANES],
    /// The time of each lane's head, [`EMPTY`] for an empty lane: choosing the next event
    /// reads these few numbers instead of every lane's deque.
    heads: [u64; LANES],
    /// The time of the heap's top, [`EMPTY`] for an empty heap (kept beside `heads` for the
    /// same reason: the heap is rarely used, and asking it costs a branch on every event).
    heap_top: u64,
    /// The time of each lane's last event (kept after the lane empties: a lane only has to
    /// be in order while it holds events, and an empty lane compares against an old time,
    /// which at worst sends one event to the heap).
    tails: [SimTime; LANES],
    seq: u32,
}

/// The head time of an empty lane or heap: later than any event.
const EMPTY: u64 = u64::MAX;

impl<E, const LANES: usize> Default for EventQueue<E, LANES> {
    fn default() -> Self {
        EventQueue {
            heap: Vec::new(),
            lanes: std::array::from_fn(|_| Ring::default()),
            heads: [EMPTY; LANES],
            heap_top: EMPTY,
            tails: [SimTime::ZERO; LANES],
            seq: 0,
        }
    }
}

impl<E: Copy, const LANES: usize> EventQueue<E, LANES> {
    fn entry(&mut self, at: SimTime, ev: E) -> Entry<E> {
        self.seq = self.seq.wrapping_add(1);
        Entry {
            at,
            seq: self.seq,
            ev,
        }
    }

    /// Schedule `ev` at `at`.
    #[inline]
    pub fn push(&mut self, at: SimTime, ev: E) {
        let entry = self.entry(at, ev);
        self.heap_push(entry);
    }

    /// The place in the order of events that a [`push`](Self::push) now would take, kept for
    /// an event scheduled later with [`push_at_place`](Self::push_at_place). An event whose
    /// time keeps moving later (work pushed back by other work) can so be scheduled once, when
    /// its time is known, and still come out exactly where scheduling it at every move would
    /// have put it, without a stale copy in the heap for each move.
    #[inline]
    pub(crate) fn take_place(&mut self) -> Place {
        self.seq = self.seq.wrapping_add(1);
        Place(self.seq)
    }

    /// Schedule `ev` at `at`, in the place [`take_place`](Self::take_place) gave. Comes out
    /// exactly when a [`push`](Self::push) made when the place was taken would have.
    #[inline]
    pub(crate) fn push_at_place(&mut self, at: SimTime, place: Place, ev: E) {
        self.heap_push(Entry {
            at,
            seq: place.0,
            ev,
        });
    }

    /// Schedule `ev` at `at` in lane `lane` (`lane < LANES`), or in the heap if `at` is earlier
    /// than the last event ever scheduled in the lane. Comes out exactly when
    /// [`push`](Self::push) would have.
    #[inline(always)]
    pub(crate) fn push_in_lane(&mut self, lane: usize, at: SimTime, ev: E) {
        let entry = self.entry(at, ev);
        if at < self.tails[lane] {
            self.heap_push(entry);
            return;
        }
        self.tails[lane] = at;
        // Whether the lane was empty is a coin toss too: select, do not branch.
        let head = self.heads[lane];
        self.heads[lane] = if head == EMPTY { at.0 } else { head };
        self.lanes[lane].push_back(entry);
    }

    /// The earliest event; among equal times, the heap's (in scheduling order), then each
    /// lane's in lane order (see the module docs).
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(SimTime, E)> {
        // Which source holds the next event is a coin toss: keep the earliest time with
        // selects rather than branches. `LANES` stands for the heap; a strict `<` keeps the
        // earlier source on a tie.
        let mut best_at = self.heap_top;
        let mut best = LANES;
        for (i, &at) in self.heads.iter().enumerate() {
            let earlier = at < best_at;
            best_at = if earlier { at } else { best_at };
            best = if earlier { i } else { best };
        }
        match self.lanes.get_mut(best) {
            Some(fifo) => {
                let e = fifo.pop_front()?;
                let next = fifo.front_slot().map_or(EMPTY, |e| e.at.0);
                self.heads[best] = if fifo.is_empty() { EMPTY } else { next };
                Some((e.at, e.ev))
            }
            None => self.heap_pop(),
        }
    }

    /// When the earliest event is due, without taking it.
    pub(crate) fn peek_time(&self) -> Option<SimTime> {
        let first = self.heads.iter().copied().fold(self.heap_top, u64::min);
        (first != EMPTY).then_some(SimTime(first))
    }

    #[inline]
    fn heap_push(&mut self, entry: Entry<E>) {
        self.heap.push(entry);
        let hole = self.heap.len() - 1;
        self.sift_up(hole, entry);
        self.heap_top = self.heap[0].at.0;
    }

    #[inline]
    fn heap_pop(&mut self) -> Option<(SimTime, E)> {
        let popped = self.heap_take();
        self.heap_top = self.heap.first().map_or(EMPTY, |e| e.at.0);
        popped
    }

    /// Take the heap's top entry (`heap_pop` without keeping `heap_top`).
    #[inline(always)]
    fn heap_take(&mut self) -> Option<(SimTime, E)> {
        let last = self.heap.pop()?;
        let Some(&top) = self.heap.first() else {
            return Some((last.at, last.ev));
        };
        // Floyd: walk the hole from the root to a leaf along the earlier child, then let the
        // former last entry rise from there; it almost always belongs near the bottom.
        let len = self.heap.len();
        let mut hole = 0;
        let mut child = 1;
        while child + 1 < len {
            // Which child is earlier is a coin toss: add the comparison rather than branch on it.
            child += usize::from(self.heap[child + 1].before(&self.heap[child]));
            self.heap[hole] = self.heap[child];
            hole = child;
            child = 2 * hole + 1;
        }
        if child < len {
            self.heap[hole] = self.heap[child];
            hole = child;
        }
        self.sift_up(hole, last);
        Some((top.at, top.ev))
    }

    /// Put `entry` at `hole` or above it, moving later parents down.
    #[inline(always)]
    fn sift_up(&mut self, mut hole: usize, entry: Entry<E>) {
        while hole > 0 {
            let parent = (hole - 1) / 2;
            if !entry.before(&self.heap[parent]) {
                break;
            }
            self.heap[hole] = self.heap[parent];
            hole = parent;
        }
        self.heap[hole] = entry;
    }
}

/// The queue's length, which only the tests observe.
#[cfg(test)]
impl<E, const LANES: usize> EventQueue<E, LANES> {
    pub fn len(&self) -> usize {
        self.heap.len() + self.lanes.iter().map(Ring::len).sum::<usize>()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn events_come_out_in_time_order_and_ties_in_scheduling_order() {
        let mut q: EventQueue<char> = EventQueue::default();
        q.push(SimTime(5), 'c');
        q.push(SimTime(1), 'a');
        q.push(SimTime(5), 'd');
        q.push(SimTime(1), 'b');
        let out: Vec<(u64, char)> = std::iter::from_fn(|| q.pop().map(|(t, e)| (t.0, e))).collect();
        assert_eq!(out, [(1, 'a'), (1, 'b'), (5, 'c'), (5, 'd')]);
        assert!(q.is_empty());
    }

    #[test]
    fn an_event_pushed_at_a_place_taken_earlier_comes_out_where_a_push_then_would_have() {
        // 'b' is scheduled once its time is known, after 'c' and 'd', in the place taken
        // between 'a' and 'c': at time 5 it comes out after 'a' and before 'c'.
        let mut q: EventQueue<char> = EventQueue::default();
        q.push(SimTime(5), 'a');
        let place = q.take_place();
        q.push(SimTime(5), 'c');
        q.push(SimTime(3), 'd');
        q.push_at_place(SimTime(5), place, 'b');
        let out: Vec<(u64, char)> = std::iter::from_fn(|| q.pop().map(|(t, e)| (t.0, e))).collect();
        assert_eq!(out, [(3, 'd'), (5, 'a'), (5, 'b'), (5, 'c')]);
    }

    #[test]
    fn it_matches_a_sorted_reference_under_interleaved_pushes_and_pops() {
        // Like the engine: every push is at or after the time last popped.
        let mut rng = Rng::new(3);
        let mut q: EventQueue<u64> = EventQueue::default();
        let mut reference: Vec<(u64, u64)> = Vec::new();
        let (mut now, mut id) = (0u64, 0u64);
        for _ in 0..20_000 {
            if rng.below(3) > 0 || reference.is_empty() {
                let span = 1 << rng.below(40);
                let at = now + rng.below(span);
                q.push(SimTime(at), id);
                reference.push((at, id));
                id += 1;
            } else {
                reference.sort();
                let want = reference.remove(0);
                let (t, e) = q.pop().unwrap();
                assert_eq!((t.0, e), want);
                now = t.0;
            }
            assert_eq!(q.len(), reference.len());
        }
    }

    #[test]
    fn lanes_give_time_order_with_the_documented_ties() {
        // Each lane is mostly in order (a server's completions), sometimes not; ties are common.
        // The reference orders by (time, source, scheduling order), where the source is the
        // heap (0) or lane i (i + 1), and an event goes to its lane only if it is no earlier
        // than the last event scheduled there.
        let mut rng = Rng::new(11);
        let mut laned: EventQueue<u64, 2> = EventQueue::default();
        let mut reference: Vec<(u64, usize, u64)> = Vec::new();
        let mut lane_next = [0u64; 2];
        let mut lane_last = [0u64; 2];
        let (mut now, mut id) = (0u64, 0u64);
        for _ in 0..50_000 {
            if rng.below(2) == 0 || reference.is_empty() {
                let lane = rng.below(3) as usize;
                let at = if lane < 2 && rng.below(10) > 0 {
                    lane_next[lane] = lane_next[lane].max(now) + rng.below(4);
                    lane_next[lane]
                } else {
                    now + rng.below(100)
                };
                let source = if lane < 2 && at >= lane_last[lane] {
                    lane_last[lane] = at;
                    lane + 1
                } else {
                    0
                };
                if lane < 2 {
                    laned.push_in_lane(lane, SimTime(at), id);
                } else {
                    laned.push(SimTime(at), id);
                }
                reference.push((at, source, id));
                id += 1;
            } else {
                reference.sort();
                assert_eq!(laned.peek_time(), Some(SimTime(reference[0].0)));
                let (at, _, want) = reference.remove(0);
                assert_eq!(laned.pop(), Some((SimTime(at), want)));
                now = at;
            }
            assert_eq!(laned.len(), reference.len());
        }
    }
}
