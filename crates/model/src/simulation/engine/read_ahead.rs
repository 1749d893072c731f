//! One stream's sequential read-ahead: which host reads continue the stream, and the chunks of
//! data the controller prefetched ahead of it.
//!
//! A read continues the stream when it starts where the stream's last read ended; after
//! [`READ_AHEAD_TRIGGER`] of them in a row the controller prefetches chunks of the stream's
//! request size, in order, while they fit in its prefetch buffer (one page per die), each
//! starting after the newest read or chunk.
//! A read that breaks the run drops every chunk (chunks still being read finish and are
//! discarded). A write over a chunk's range drops that chunk, so a hit never returns stale data.
//!
//! What always holds: chunks are in offset order, never overlap, and each is owned by one
//! internal slot of the engine until it is taken or dropped; a chunk a host read waits for is
//! never dropped, so every waiting read is served when its chunk arrives.
//!
//! [`READ_AHEAD_TRIGGER`]: crate::config::READ_AHEAD_TRIGGER

use std::collections::VecDeque;

use crate::config::READ_AHEAD_TRIGGER;

/// Data prefetched (or being prefetched) for one stream.
#[derive(Clone, Copy, Debug)]
struct Chunk {
    offset: u64,
    bytes: u32,
    /// The engine's internal slot reading it.
    slot: u32,
    ready: bool,
    /// A host read waiting for it to arrive.
    waiter: Option<u32>,
}

/// What a host read finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Claim {
    /// Its data is in DRAM: the chunk's slot is free again.
    Ready { chunk_slot: u32 },
    /// Its data is on the way: it waits for the chunk.
    Pending,
    /// Not prefetched: it reads the flash itself.
    Miss,
}

/// What a finished chunk read means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Arrived {
    /// A host read waited for it: serve it (the chunk's slot is free again).
    Serve(u32),
    /// It waits in DRAM for its read.
    Kept,
    /// It was dropped while being read: its slot is free again.
    Dropped,
}

#[derive(Debug, Default)]
pub(super) struct ReadAhead {
    /// Where the next read continuing the stream starts, and reads in a row that did.
    next: u64,
    in_a_row: u32,
    chunks: VecDeque<Chunk>,
    /// End of the data prefetched or being prefetched.
    ahead_to: u64,
}

impl ReadAhead {
    /// A host read of `bytes` at `offset` reaches the controller (`slot` is its slot): what it
    /// finds. A read that breaks the run returns the slots of the chunks it drops in `freed`.
    pub(crate) fn claim(
        &mut self,
        offset: u64,
        bytes: u32,
        slot: u32,
        freed: &mut Vec<u32>,
    ) -> Claim {
        let end = offset + u64::from(bytes);
        if offset == self.next {
            self.in_a_row = self.in_a_row.saturating_add(1);
        } else {
            self.in_a_row = 1;
            self.drop_all(freed);
            self.ahead_to = end;
        }
        self.next = end;
        // Chunks behind the read are of no more use, unless an earlier read waits for one.
        self.chunks.retain(|c| {
            let keep = c.offset >= offset || c.waiter.is_some();
            if !keep && c.ready {
                freed.push(c.slot);
            }
            keep
        });
        let at = self
            .chunks
            .iter()
            .position(|c| c.offset == offset && c.bytes == bytes && c.waiter.is_none());
        match at {
            Some(i) if self.chunks[i].ready => {
                let chunk_slot = self.chunks[i].slot;
                self.chunks.remove(i);
                Claim::Ready { chunk_slot }
            }
            Some(i) => {
                self.chunks[i].waiter = Some(slot);
                Claim::Pending
            }
            None => Claim::Miss,
        }
    }

    /// Whether the stream is detected as sequential.
    pub fn active(&self) -> bool {
        self.in_a_row >= READ_AHEAD_TRIGGER
    }

    /// The next chunk to prefetch (its offset), if the chunks held (prefetched, on the way, or
    /// claimed by a read) leave room for one more in the `window` (the controller's prefetch
    /// buffer) and it fits below `limit` (the drive's end); its slot is given by
    /// [`fetching`](Self::fetching). The buffer bounds what the stream has in flight, so reads
    /// inside it gain nothing from depth, and only reads beyond it add parallelism.
    pub fn wants(&mut self, bytes: u32, window: u64, limit: u64) -> Option<u64> {
        if !self.active() {
            return None;
        }
        let held: u64 = self.chunks.iter().map(|c| u64::from(c.bytes)).sum();
        let from = self.ahead_to.max(self.next);
        let end = from + u64::from(bytes);
        (held + u64::from(bytes) <= window && end <= limit).then_some(from)
    }

    /// The chunk at `offset` is being read by internal slot `slot`.
    pub(crate) fn fetching(&mut self, offset: u64, bytes: u32, slot: u32) {
        self.ahead_to = offset + u64::from(bytes);
        self.chunks.push_back(Chunk {
            offset,
            bytes,
            slot,
            ready: false,
            waiter: None,
        });
    }

    /// The chunk read by `slot` is in DRAM.
    pub fn arrived(&mut self, slot: u32) -> Arrived {
        let Some(i) = self.chunks.iter().position(|c| c.slot == slot) else {
            return Arrived::Dropped;
        };
        match self.chunks[i].waiter {
            Some(host) => {
                self.chunks.remove(i);
                Arrived::Serve(host)
            }
            None => {
                self.chunks[i].ready = true;
                Arrived::Kept
            }
        }
    }

    /// A write of `bytes` at `offset`: chunks it overlaps are stale and dropped (a read waiting
    /// for one keeps it: its data left the flash before the write).
    pub fn written(&mut self, offset: u64, bytes: u32, freed: &mut Vec<u32>) {
        let end = offset + u64::from(bytes);
        self.chunks.retain(|c| {
            let overlaps = c.offset < end && offset < c.offset + u64::from(c.bytes);
            let keep = !overlaps || c.waiter.is_some();
            if !keep && c.ready {
                freed.push(c.slot);
            }
            keep
        });
    }

    /// Drop every chunk no read waits for.
    fn drop_all(&mut self, freed: &mut Vec<u32>) {
        self.chunks.retain(|c| {
            if c.waiter.is_none() && c.ready {
                freed.push(c.slot);
            }
            c.waiter.is_some()
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIB: u32 = 1024;

    /// Three reads in a row start the prefetch; the window caps it.
    #[test]
    fn the_third_read_in_a_row_starts_a_window_of_chunks() {
        let mut ra = ReadAhead::default();
        let mut freed = Vec::new();
        let bs = 128 * KIB;
        for i in 0..2u64 {
            assert_eq!(ra.claim(i * 131_072, bs, 0, &mut freed), Claim::Miss);
            assert_eq!(ra.wants(bs, 512 * 1024, u64::MAX), None, "not yet");
        }
        assert_eq!(ra.claim(2 * 131_072, bs, 0, &mut freed), Claim::Miss);
        let mut fetched = Vec::new();
        while let Some(off) = ra.wants(bs, 512 * 1024, u64::MAX) {
            ra.fetching(off, bs, 100 + fetched.len() as u32);
            fetched.push(off);
        }
        assert_eq!(fetched, [3, 4, 5, 6].map(|i| i * 131_072));
        // The next read waits for its chunk; the chunk arrives and serves it.
        assert_eq!(ra.claim(3 * 131_072, bs, 7, &mut freed), Claim::Pending);
        assert_eq!(ra.arrived(100), Arrived::Serve(7));
        // A chunk that arrives first waits in DRAM and is a hit.
        assert_eq!(ra.arrived(101), Arrived::Kept);
        assert_eq!(
            ra.claim(4 * 131_072, bs, 8, &mut freed),
            Claim::Ready { chunk_slot: 101 }
        );
        assert!(freed.is_empty());
    }

    #[test]
    fn a_jump_drops_the_chunks_and_a_write_drops_what_it_overlaps() {
        let mut ra = ReadAhead::default();
        let mut freed = Vec::new();
        let bs = 4 * KIB;
        for i in 0..3u64 {
            ra.claim(i * 4096, bs, 0, &mut freed);
        }
        for s in 0..4 {
            let off = ra.wants(bs, 16_384, u64::MAX).unwrap();
            ra.fetching(off, bs, 10 + s);
        }
        assert_eq!(ra.wants(bs, 16_384, u64::MAX), None, "the window is full");
        ra.arrived(10);
        ra.arrived(11);
        ra.written(3 * 4096, bs, &mut freed);
        assert_eq!(freed, [10], "the ready chunk under the write");
        freed.clear();
        assert_eq!(ra.claim(1 << 30, bs, 1, &mut freed), Claim::Miss);
        assert_eq!(
            freed,
            [11],
            "ready chunks go; those in flight are dropped on arrival"
        );
        assert_eq!(ra.arrived(12), Arrived::Dropped);
        assert!(!ra.active());
    }
}
