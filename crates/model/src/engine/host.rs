//! The host side of a run: the streams that make requests, where each request goes on the
//! drive, and when an open-loop stream's next request arrives.
//!
//! The engine asks a [`StreamParams`] for a [`Request`] whenever a closed-loop slot frees or an
//! open-loop arrival comes due; the stream's [`Cursor`] holds what moves between requests (the
//! sequential positions, the next arrival). Everything random is drawn from the run's one
//! generator, in a fixed order: the direction, then (with a `bssplit`) the size, then the
//! offset. A stream of one size over the whole drive draws exactly what the single-job engine
//! drew before streams existed, so its results are the same bit for bit.

use std::collections::VecDeque;

use crate::config::{Mapping, MAPPING_UNIT_BYTES};
use crate::rng::Rng;
use crate::time::SimTime;
use std::sync::Arc;

use crate::time::Nanos;
use crate::workload::trace::Trace;
use crate::workload::{Arrival, Requests, Spacing, Stream};

/// One request as a stream makes it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Request {
    pub write: bool,
    pub offset: u64,
    pub bytes: u32,
}

/// When an open-loop stream's requests arrive.
#[derive(Clone, Copy, Debug)]
pub(super) enum Arrivals {
    /// At a rate: the mean gap in nanoseconds, and how gaps are drawn.
    Rate(f64, Spacing),
    /// At a trace's own times, divided by the speed, each gap capped.
    Timed { speed: f64, max_idle: Option<Nanos> },
}

/// A trace being replayed: its requests, and the drive's size in 4 KiB units (addresses
/// past it wrap onto the drive).
#[derive(Clone, Debug)]
struct Replay {
    trace: Arc<Trace>,
    drive_units: u64,
}

/// A stream's request sizes, ready to draw.
#[derive(Clone, Debug)]
enum Sizes {
    /// One size, and how many aligned requests of it fit in the span.
    One { bytes: u32, span_blocks: u64 },
    /// (cumulative weight in percent, bytes), the last weight 100.
    Split(Vec<(u8, u32)>),
}

/// A stream's constants, derived once from its checked [`Stream`].
#[derive(Clone, Debug)]
pub(super) struct StreamParams {
    pub read_percent: u8,
    random: bool,
    sizes: Sizes,
    span_start: u64,
    span_bytes: u64,
    /// Parts per million of this stream's reads that miss the mapping cache.
    pub map_miss_ppm: u64,
    /// The most of its requests at the device at once.
    pub iodepth: u32,
    /// Open loop: when requests arrive (`None`: closed loop).
    pub rate: Option<Arrivals>,
    /// A trace's requests instead of the pattern's.
    replay: Option<Replay>,
}

impl StreamParams {
    pub fn new(stream: &Stream, user_bytes: u64, mapping: Mapping) -> StreamParams {
        let rate = match stream.arrival {
            Arrival::Closed { .. } => None,
            Arrival::Rate { iops, spacing, .. } => Some(Arrivals::Rate(1e9 / iops, spacing)),
            Arrival::Timed {
                speed, max_idle, ..
            } => Some(Arrivals::Timed { speed, max_idle }),
        };
        let pattern = match &stream.requests {
            Requests::Pattern(p) => p,
            Requests::Trace(trace) => {
                let drive_units = user_bytes / u64::from(MAPPING_UNIT_BYTES);
                return StreamParams {
                    read_percent: stream.read_percent(),
                    random: true,
                    sizes: Sizes::One {
                        bytes: MAPPING_UNIT_BYTES,
                        span_blocks: drive_units,
                    },
                    span_start: 0,
                    span_bytes: user_bytes,
                    map_miss_ppm: map_miss_ppm(mapping, user_bytes),
                    iodepth: stream.arrival.iodepth(),
                    rate,
                    replay: Some(Replay {
                        trace: Arc::clone(trace),
                        drive_units,
                    }),
                };
            }
        };
        let (span_start, size) = pattern.span_on(user_bytes);
        let parts = pattern.sizes.parts();
        let (sizes, span_bytes) = match *parts {
            [(bytes, _)] => {
                let bs = u64::from(bytes);
                // Whole requests only, so a sequential stream wraps on a request boundary.
                let span_bytes = (size / bs).max(1) * bs;
                let span_blocks = span_bytes / bs;
                (Sizes::One { bytes, span_blocks }, span_bytes)
            }
            _ => {
                let mut cumulative = 0u8;
                let table = parts
                    .iter()
                    .map(|&(bytes, weight)| {
                        cumulative += weight;
                        (cumulative, bytes)
                    })
                    .collect();
                (Sizes::Split(table), size)
            }
        };
        StreamParams {
            read_percent: pattern.read_percent(),
            random: pattern.rw.is_random(),
            sizes,
            span_start,
            span_bytes,
            map_miss_ppm: map_miss_ppm(mapping, span_bytes),
            iodepth: stream.arrival.iodepth(),
            rate,
            replay: None,
        }
    }

    /// A cursor at the start of the stream's span.
    pub fn cursor(&self) -> Cursor {
        Cursor {
            seq_read_next: self.span_start,
            seq_write_next: self.span_start,
            next_arrival_ns: 0.0,
            next_trace_request: 0,
            at_device: 0,
            waiting: VecDeque::new(),
        }
    }

    /// The number of requests a trace stream makes (`None`: a generated stream never ends).
    pub fn trace_len(&self) -> Option<u64> {
        self.replay.as_ref().map(|r| r.trace.requests.len() as u64)
    }

    /// Whether a trace stream has made all its requests.
    pub fn exhausted(&self, cursor: &Cursor) -> bool {
        self.replay
            .as_ref()
            .is_some_and(|r| cursor.next_trace_request >= r.trace.requests.len())
    }

    /// The stream's next request.
    #[inline(always)]
    pub fn draw(&self, cursor: &mut Cursor, rng: &mut Rng) -> Request {
        if let Some(replay) = &self.replay {
            return replay.request(cursor);
        }
        let write = !rng.percent(self.read_percent);
        let (bytes, span_blocks) = match &self.sizes {
            Sizes::One { bytes, span_blocks } => (*bytes, *span_blocks),
            Sizes::Split(table) => {
                let pick = rng.below(100) as u8;
                let bytes = table
                    .iter()
                    .find(|&&(cumulative, _)| pick < cumulative)
                    .map_or(table[table.len() - 1].1, |&(_, b)| b);
                (bytes, self.span_bytes / u64::from(bytes))
            }
        };
        let bs = u64::from(bytes);
        let offset = if self.random {
            self.span_start + rng.below(span_blocks) * bs
        } else {
            let next = if write {
                &mut cursor.seq_write_next
            } else {
                &mut cursor.seq_read_next
            };
            let off = *next;
            // Wrap to the start when the request after this one would not fit.
            *next = if off + 2 * bs > self.span_start + self.span_bytes {
                self.span_start
            } else {
                off + bs
            };
            off
        };
        Request {
            write,
            offset,
            bytes,
        }
    }

    /// Open loop: when the arrival after the one now (whose request is drawn next) comes due;
    /// `None` once a trace has no request after it.
    pub fn next_arrival(&self, cursor: &mut Cursor, rng: &mut Rng) -> Option<SimTime> {
        cursor.next_arrival_ns += match self.rate? {
            // Kept as a fraction so a rate that is not a whole number of nanoseconds apart
            // does not drift.
            Arrivals::Rate(gap_ns, Spacing::Linear) => gap_ns,
            // Exponential gaps: 1 - u is in (0, 1], so the logarithm is finite.
            Arrivals::Rate(gap_ns, Spacing::Poisson) => -(1.0 - rng.unit()).ln() * gap_ns,
            Arrivals::Timed { speed, max_idle } => {
                let requests = &self.replay.as_ref()?.trace.requests;
                let i = cursor.next_trace_request;
                let gap = requests.get(i + 1)?.at_ns - requests[i].at_ns;
                let gap = gap as f64 / speed;
                max_idle.map_or(gap, |cap| gap.min(cap.0 as f64))
            }
        };
        Some(SimTime(cursor.next_arrival_ns.round() as u64))
    }
}

impl Replay {
    /// The trace's next request, its address wrapped onto the drive.
    fn request(&self, cursor: &mut Cursor) -> Request {
        let r = self.trace.requests[cursor.next_trace_request];
        cursor.next_trace_request += 1;
        let units = u64::from(r.units).min(self.drive_units);
        let start = (u64::from(r.start_unit) % self.drive_units).min(self.drive_units - units);
        Request {
            write: r.write,
            offset: start * u64::from(MAPPING_UNIT_BYTES),
            bytes: units as u32 * MAPPING_UNIT_BYTES,
        }
    }
}

/// What moves between a stream's requests.
#[derive(Clone, Debug)]
pub(super) struct Cursor {
    seq_read_next: u64,
    seq_write_next: u64,
    /// Open loop: the time of the next arrival, unrounded.
    next_arrival_ns: f64,
    /// A trace: the index of the request drawn next.
    next_trace_request: usize,
    /// Open loop: requests of the stream at the device, at most its `iodepth`.
    pub at_device: u32,
    /// Open loop: slots of requests that arrived while the device held `iodepth` of them, in
    /// arrival order.
    pub waiting: VecDeque<u32>,
}

/// Parts per million of reads over `span_bytes` that miss the mapping cache.
fn map_miss_ppm(mapping: Mapping, span_bytes: u64) -> u64 {
    match mapping {
        Mapping::Dram => 0,
        Mapping::Hmb { hmb_bytes } => {
            // 4 bytes of table per 4 KiB mapped: the cache covers 1024x its size.
            let covered = hmb_bytes as f64 * f64::from(MAPPING_UNIT_BYTES) / 4.0;
            ((1.0 - covered / span_bytes as f64).clamp(0.0, 1.0) * 1e6) as u64
        }
    }
}
