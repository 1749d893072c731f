//! Desktop workloads for the reviews' trace tests, generated: a stated model of AnandTech
//! Storage Bench 2011 *Heavy* and *Light* as the OCZ Octane review (2011) describes them.
//!
//! The traces themselves were never published; their description was. What it gives is used as
//! given, what it does not is an assumption with its basis ([`Recipe`] holds each):
//! - **Heavy** (published): 2,168,893 reads and 1,783,447 writes, 106.32 GB written, 42% of
//!   operations sequential, average queue depth 4.625, 59% of operations at queue depth 1.
//! - **Light** (published): 372,630 reads and 459,709 writes, "the small transfers like
//!   Heavy's but far fewer large ones"; lighter and more sequential.
//!
//! # The model of a trace
//! Requests come in *groups* that arrive together: a lone request (queue depth 1) or a burst.
//! - A lone request is a 4 KiB read or write at a random place on the drive (the reviews' own
//!   random test size).
//! - A burst is a sequential run of 128 KiB requests in one direction (the reviews' own
//!   sequential test size), as a file copy or an application load issues them at depth.
//! - For Heavy the published figures agree with this model: 59% of operations at depth 1 leaves
//!   41% in bursts, which matches the published 42% sequential; and 41% of writes at 128 KiB
//!   with the rest at 4 KiB make 56.1 KB a write against the published 59.6 KB (106.32 GB over
//!   1,783,447 writes), 6% apart. The burst size gives the published average depth when each
//!   request of a burst counts the ones ahead of it and itself.
//! - Each group is a write with the published share of writes; gaps between groups are
//!   exponential with a stated mean, capped at 25 ms as the reviews cap idle time.
//!
//! `scale` generates a shorter trace with the same mix (the tests replay a fortieth of Heavy).

use crate::rng::Rng;
use crate::workload::trace::{Trace, TraceFormat, TraceRequest};

/// The reviews' cap on idle time between requests (AnandTech Storage Bench 2011).
pub(crate) const MAX_IDLE_NS: u64 = 25_000_000;
const SMALL_UNITS: u16 = 1;
const LARGE_UNITS: u16 = 32;

/// A desktop workload of the reviews.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Desktop {
    Heavy,
    Light,
}

crate::named_enum!(Desktop, "desktop workload", id, {
    Heavy => "desktop-heavy",
    Light => "desktop-light",
});

/// What a generated desktop trace is made of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recipe {
    pub reads: u64,
    pub writes: u64,
    /// Share of requests in bursts (sequential 128 KiB runs); the rest are lone random 4 KiB.
    pub burst_share: f64,
    /// Requests in a burst.
    pub burst: u32,
    /// Mean gap between groups, before the 25 ms cap, in nanoseconds.
    pub mean_gap_ns: f64,
}

impl Desktop {
    /// The recipe, each value published or an assumption with its basis.
    pub fn recipe(self) -> Recipe {
        match self {
            Desktop::Heavy => Recipe {
                // Published counts.
                reads: 2_168_893,
                writes: 1_783_447,
                // Published: 59% of operations at queue depth 1, so 41% in bursts (and 42% of
                // operations sequential, published too).
                burst_share: 0.41,
                // Fit to the published average depth 4.625: the 41% in bursts average
                // (4.625 - 0.59) / 0.41 = 9.84 ahead of and including themselves, which a burst
                // of 19 gives ((19 + 1) / 2 = 10).
                burst: 19,
                // Assumption: 2 ms between groups on average, so a lone request finds the
                // drive idle (a 2011 SATA drive serves one in 0.1-1 ms).
                mean_gap_ns: 2e6,
            },
            Desktop::Light => Recipe {
                // Published counts.
                reads: 372_630,
                writes: 459_709,
                // Assumption ("far fewer large transfers" than Heavy's): a quarter of Heavy's
                // share in bursts.
                burst_share: 0.1,
                // Assumption: bursts as Heavy's (the same applications' transfers).
                burst: 19,
                // Assumption: as Heavy's.
                mean_gap_ns: 2e6,
            },
        }
    }

    /// A trace of this workload on a drive of `user_bytes`, `scale` (0..=1] of its requests.
    pub fn trace(self, user_bytes: u64, scale: f64, seed: u64) -> Trace {
        let r = self.recipe();
        let scale = if scale.is_finite() {
            scale.clamp(1e-6, 1.0)
        } else {
            1.0
        };
        let total = (((r.reads + r.writes) as f64 * scale).round() as u64).max(1);
        let write_share = r.writes as f64 / (r.reads + r.writes) as f64;
        let drive_units = (user_bytes / 4096).max(u64::from(LARGE_UNITS) + 1);
        // A group is a burst with this probability, so bursts hold `burst_share` of requests.
        let b = f64::from(r.burst);
        let burst_group = r.burst_share / (b - r.burst_share * (b - 1.0));
        let mut rng = Rng::new(seed);
        let mut next = [0u64; 2];
        let mut at_ns = 0u64;
        let mut requests = Vec::with_capacity(total as usize);
        while (requests.len() as u64) < total {
            let write = rng.unit() < write_share;
            let left = total - requests.len() as u64;
            if rng.unit() < burst_group {
                let n = u64::from(r.burst).min(left);
                let span = n * u64::from(LARGE_UNITS);
                let cursor = &mut next[usize::from(write)];
                if *cursor + span > drive_units {
                    *cursor = rng.below(drive_units - span.min(drive_units - 1));
                }
                for k in 0..n {
                    requests.push(TraceRequest {
                        at_ns,
                        start_unit: (*cursor + k * u64::from(LARGE_UNITS)) as u32,
                        units: LARGE_UNITS,
                        write,
                    });
                }
                *cursor += span;
            } else {
                requests.push(TraceRequest {
                    at_ns,
                    start_unit: rng.below(drive_units) as u32,
                    units: SMALL_UNITS,
                    write,
                });
            }
            let gap = -(1.0 - rng.unit()).ln() * r.mean_gap_ns;
            at_ns += (gap as u64).min(MAX_IDLE_NS);
        }
        Trace::from_requests(TraceFormat::Mqsim, requests)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_heavy_trace_has_the_published_mix() {
        let t = Desktop::Heavy.trace(512_000_000_000, 0.05, 1);
        let n = t.requests.len() as f64;
        assert_eq!(
            t.requests.len(),
            ((2_168_893.0 + 1_783_447.0) * 0.05_f64).round() as usize
        );
        let writes: Vec<_> = t.requests.iter().filter(|r| r.write).collect();
        let write_share = writes.len() as f64 / n;
        assert!((write_share - 0.4513).abs() < 0.01, "{write_share}");
        // 106.32 GB over the writes is 59.6 KB a write; the model's bursts give 56.1 KB.
        let per_write =
            writes.iter().map(|r| f64::from(r.bytes())).sum::<f64>() / writes.len() as f64;
        assert!((per_write / 59_615.0 - 1.0).abs() < 0.08, "{per_write}");
        let large = t.requests.iter().filter(|r| r.units > 1).count() as f64 / n;
        assert!((large - 0.41).abs() < 0.02, "{large} of requests in bursts");
        assert!(t.requests.windows(2).all(|w| w[0].at_ns <= w[1].at_ns));
        // Every gap stays within the reviews' 25 ms cap.
        assert!(t
            .requests
            .windows(2)
            .all(|w| w[1].at_ns - w[0].at_ns <= MAX_IDLE_NS));
    }

    #[test]
    fn the_same_seed_generates_the_same_trace() {
        let a = Desktop::Light.trace(128_000_000_000, 0.01, 3);
        assert_eq!(a, Desktop::Light.trace(128_000_000_000, 0.01, 3));
        assert_ne!(a, Desktop::Light.trace(128_000_000_000, 0.01, 4));
    }
}
