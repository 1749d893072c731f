//! A first-in first-out ring for the engine's hot queues (the event lanes, the read queues).
//!
//! [`Ring`] keeps `Copy` items in a power-of-two buffer that doubles when full, so finding an
//! item's place is an add and a mask. `std`'s `VecDeque` does the same job with more work per
//! operation: its wrap-around is a compare and a subtract, growing is checked through a call,
//! and `remove` goes through a general copy routine. The engine pushes and pops a few times
//! per simulated request and takes reads from within a few entries of a queue's front, where
//! those costs dominate. Measured with valgrind on 202,000 random reads at QD32 on 32 dies:
//! see [`super::events`].
//!
//! What always holds: items occupy indices `head, head + 1, …, head + len - 1` of the buffer,
//! modulo its length, which is zero or a power of two; index `i` of the ring is the `i`-th
//! oldest item.

/// A FIFO ring of `Copy` items that can also take an item from anywhere (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Ring<T> {
    buf: Vec<T>,
    head: usize,
    len: usize,
}

impl<T> Default for Ring<T> {
    fn default() -> Self {
        Ring {
            buf: Vec::new(),
            head: 0,
            len: 0,
        }
    }
}

impl<T> Ring<T> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<T: Copy> Ring<T> {
    /// The smallest buffer a ring allocates.
    const MIN_CAPACITY: usize = 16;

    /// Buffer index of the ring's `i`-th item (`buf` is not empty).
    #[inline(always)]
    fn at(&self, i: usize) -> usize {
        (self.head + i) & (self.buf.len() - 1)
    }

    #[inline(always)]
    pub fn push_back(&mut self, item: T) {
        if self.len == self.buf.len() {
            self.grow(item);
        }
        let at = self.at(self.len);
        self.buf[at] = item;
        self.len += 1;
    }

    /// Double the buffer, keeping the items in order from index 0 (`filler` only fills the
    /// unused part: items are `Copy` and need not have a default).
    #[cold]
    fn grow(&mut self, filler: T) {
        let capacity = (2 * self.buf.len()).max(Self::MIN_CAPACITY);
        let mut buf = Vec::with_capacity(capacity);
        buf.extend((0..self.len).map(|i| self.buf[self.at(i)]));
        buf.resize(capacity, filler);
        self.buf = buf;
        self.head = 0;
    }

    #[inline(always)]
    pub fn pop_front(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let item = self.buf[self.head];
        self.head = self.at(1);
        self.len -= 1;
        Some(item)
    }

    /// What sits at the front position of the buffer: the front item, or a stale one when the
    /// ring is empty (`None` only before the first push). For a caller that selects between
    /// this and a default with `is_empty`, without branching on it: whether a busy queue has
    /// a next item is a coin toss, which a branch mispredicts half the time.
    #[inline(always)]
    pub fn front_slot(&self) -> Option<&T> {
        self.buf.get(self.head)
    }

    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<&T> {
        (i < self.len).then(|| &self.buf[self.at(i)])
    }

    /// Take the `i`-th item out, keeping the others in order; `None` if there is none. Moves
    /// the items on the shorter side of `i` by one place (the front side on a tie, so taking
    /// the front item never chooses).
    #[inline]
    pub fn remove(&mut self, i: usize) -> Option<T> {
        if i >= self.len {
            return None;
        }
        let item = self.buf[self.at(i)];
        if 2 * i < self.len {
            for k in (0..i).rev() {
                let (to, from) = (self.at(k + 1), self.at(k));
                self.buf[to] = self.buf[from];
            }
            self.head = self.at(1);
        } else {
            for k in i..self.len - 1 {
                let (to, from) = (self.at(k), self.at(k + 1));
                self.buf[to] = self.buf[from];
            }
        }
        self.len -= 1;
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use std::collections::VecDeque;

    #[test]
    fn it_behaves_as_a_deque_under_random_pushes_pops_and_removals() {
        // The reference is std's VecDeque; the mix crosses the wrap-around and several growths.
        let mut rng = Rng::new(7);
        let mut ring: Ring<u32> = Ring::default();
        let mut reference: VecDeque<u32> = VecDeque::new();
        for id in 0..100_000u32 {
            match rng.below(5) {
                0 | 1 => {
                    ring.push_back(id);
                    reference.push_back(id);
                }
                2 => assert_eq!(ring.pop_front(), reference.pop_front()),
                3 => {
                    let i = rng.below(reference.len() as u64 + 2) as usize;
                    assert_eq!(ring.remove(i), reference.remove(i));
                }
                _ => {
                    let back = reference.len().saturating_sub(1);
                    assert_eq!(ring.get(back), reference.back());
                }
            }
            assert_eq!(ring.len(), reference.len());
            assert_eq!(ring.get(0), reference.front());
            if !ring.is_empty() {
                assert_eq!(ring.front_slot(), ring.get(0));
            }
            let i = rng.below(reference.len() as u64 + 1) as usize;
            assert_eq!(ring.get(i), reference.get(i));
        }
    }

    #[test]
    fn an_empty_ring_has_nothing_to_give() {
        let mut ring: Ring<u8> = Ring::default();
        assert!(ring.is_empty());
        assert_eq!(ring.front_slot(), None);
        assert_eq!(ring.pop_front(), None);
        assert_eq!(ring.remove(0), None);
        ring.push_back(1);
        assert_eq!(ring.remove(0), Some(1));
        assert!(ring.is_empty());
    }
}
