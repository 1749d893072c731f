//! A run's figures over time, in buckets of simulated time from the window's start: what a
//! chart of a trace replay draws (throughput, requests in the system, latency).
//!
//! Recorded only when asked ([`super::Simulation::record_series`]); a completion counts in the
//! bucket of its time, and the time-integrated number of open-loop requests in the bucket where
//! the interval ends (exact when the bucket is much longer than the gaps between arrivals and
//! completions, which is how a chart uses it).

use crate::stats::SeriesPoint;
use crate::time::Nanos;

/// Most buckets a series keeps (a replay of a day in seconds); later times share the last.
const MAX_BUCKETS: usize = 100_000;

#[derive(Clone, Copy, Debug, Default)]
struct Bucket {
    ios: u64,
    bytes: u64,
    latency_ns: u128,
    /// Open-loop requests in the system integrated over time (request-nanoseconds).
    in_system_area: u128,
}

#[derive(Clone, Debug)]
pub(super) struct Series {
    width: Nanos,
    buckets: Vec<Bucket>,
}

impl Series {
    pub fn new(width: Nanos) -> Series {
        Series {
            width: Nanos(width.0.max(1)),
            buckets: Vec::new(),
        }
    }

    fn bucket(&mut self, since_window: u64) -> &mut Bucket {
        let i = ((since_window / self.width.0) as usize).min(MAX_BUCKETS - 1);
        if self.buckets.len() <= i {
            self.buckets.resize(i + 1, Bucket::default());
        }
        &mut self.buckets[i]
    }

    /// A request completed `since_window` after the window opened.
    pub fn complete(&mut self, since_window: u64, bytes: u32, latency: Nanos) {
        let b = self.bucket(since_window);
        b.ios += 1;
        b.bytes += u64::from(bytes);
        b.latency_ns += u128::from(latency.0);
    }

    /// Open-loop requests in the system over an interval ending `since_window`.
    pub fn in_system(&mut self, since_window: u64, area: u128) {
        self.bucket(since_window).in_system_area += area;
    }

    /// The points, with `closed_depth` closed-loop requests always in the system besides.
    pub fn points(&self, closed_depth: u32) -> Vec<SeriesPoint> {
        let w = self.width.0 as f64;
        self.buckets
            .iter()
            .enumerate()
            .map(|(i, b)| SeriesPoint {
                start_s: i as f64 * w / 1e9,
                iops: b.ios as f64 * 1e9 / w,
                mb_s: b.bytes as f64 * 1e3 / w,
                lat_mean_us: if b.ios == 0 {
                    0.0
                } else {
                    b.latency_ns as f64 / b.ios as f64 / 1e3
                },
                mean_in_system: f64::from(closed_depth) + b.in_system_area as f64 / w,
            })
            .collect()
    }
}
