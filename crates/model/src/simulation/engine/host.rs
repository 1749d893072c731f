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
use crate::run::CheckedRun;
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

/// Where a stream's requests come from, ready to draw: one match per request picks the way.
#[derive(Clone, Debug)]
enum Source {
    /// The pattern with one size, and how many aligned requests of it fit in the span.
    One { bytes: u32, span_blocks: u64 },
    /// The pattern with a `bssplit`: (cumulative weight in percent, bytes), the last 100.
    Split(Vec<(u8, u32)>),
    /// A trace's requests.
    Trace(Replay),
}

/// A stream as the engine runs it: its constants and what moves between its requests.
#[derive(Clone, Debug)]
pub(super) struct HostStream {
    pub params: StreamParams,
    pub cursor: Cursor,
}

impl HostStream {
    pub fn new(params: StreamParams) -> HostStream {
        HostStream {
            cursor: params.cursor(),
            params,
        }
    }

    /// The stream's next request.
    #[inline(always)]
    pub fn draw(&mut self, rng: &mut Rng) -> Request {
        self.params.draw(&mut self.cursor, rng)
    }

    /// Open loop: when the arrival after the one now comes due (see
    /// [`StreamParams::next_arrival`]).
    pub(crate) fn next_arrival(&mut self, rng: &mut Rng) -> Option<SimTime> {
        self.params.next_arrival(&mut self.cursor, rng)
    }

    /// Whether a trace stream has made all its requests.
    pub(crate) fn exhausted(&self) -> bool {
        self.params.exhausted(&self.cursor)
    }
}

/// A stream's constants, derived once from its checked [`Stream`].
#[derive(Clone, Debug)]
pub(super) struct StreamParams {
    pub read_percent: u8,
    random: bool,
    source: Source,
    span_start: u64,
    span_bytes: u64,
    /// Parts per million of this stream's reads that miss the mapping cache.
    pub map_miss_ppm: u64,
    /// The most of its requests at the device at once.
    pub iodepth: u32,
    /// Open loop: when requests arrive (`None`: closed loop).
    pub rate: Option<Arrivals>,
}

impl StreamParams {
    /// Every stream of `run`, in order.
    pub fn of(run: &CheckedRun) -> Vec<StreamParams> {
        let d = run.drive();
        let user_bytes = d.user_bytes() as u64;
        run.streams()
            .iter()
            .map(|s| StreamParams::new(s, user_bytes, d.controller.mapping))
            .collect()
    }

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
                    source: Source::Trace(Replay {
                        trace: Arc::clone(trace),
                        drive_units,
                    }),
                    span_start: 0,
                    span_bytes: user_bytes,
                    map_miss_ppm: map_miss_ppm(mapping, user_bytes),
                    iodepth: stream.arrival.iodepth(),
                    rate,
                };
            }
        };
        let (span_start, size) = pattern.span_on(user_bytes);
        let parts = pattern.sizes.parts();
        let (source, span_bytes) = match *parts {
            [(bytes, _)] => {
                let bs = u64::from(bytes);
                // Whole requests only, so a sequential stream wraps on a request boundary.
                let span_bytes = (size / bs).max(1) * bs;
                let span_blocks = span_bytes / bs;
                (Source::One { bytes, span_blocks }, span_bytes)
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
                (Source::Split(table), size)
            }
        };
        StreamParams {
            read_percent: pattern.read_percent(),
            random: pattern.rw.is_random(),
            source,
            span_start,
            span_bytes,
            map_miss_ppm: map_miss_ppm(mapping, span_bytes),
            iodepth: stream.arrival.iodepth(),
            rate,
        }
    }

    /// Whether the stream walks its span in order (a trace counts as random: its data was
    /// written wherever it was).
    pub fn sequential(&self) -> bool {
        !self.random
    }

    /// A cursor at the start of the stream's span.
    fn cursor(&self) -> Cursor {
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
    pub(crate) fn trace_len(&self) -> Option<u64> {
        match &self.source {
            Source::Trace(r) => Some(r.trace.requests.len() as u64),
            _ => None,
        }
    }

    /// Whether a trace stream has made all its requests.
    fn exhausted(&self, cursor: &Cursor) -> bool {
        matches!(&self.source, Source::Trace(r) if cursor.next_trace_request >= r.trace.requests.len())
    }

    /// The stream's next request.
    #[inline(always)]
    fn draw(&self, cursor: &mut Cursor, rng: &mut Rng) -> Request {
        match &self.source {
            Source::One { bytes, span_blocks } => {
                let write = !rng.percent(self.read_percent);
                self.place(cursor, rng, write, *bytes, *span_blocks)
            }
            Source::Split(table) => {
                let write = !rng.percent(self.read_percent);
                let pick = rng.below(100) as u8;
                let bytes = table
                    .iter()
                    .find(|&&(cumulative, _)| pick < cumulative)
                    .map_or(table[table.len() - 1].1, |&(_, b)| b);
                self.place(
                    cursor,
                    rng,
                    write,
                    bytes,
                    self.span_bytes / u64::from(bytes),
                )
            }
            Source::Trace(replay) => replay.request(cursor),
        }
    }

    /// A generated request of `bytes` in the direction drawn: at random among the span's
    /// `span_blocks` aligned places, or after the direction's last one.
    #[inline(always)]
    fn place(
        &self,
        cursor: &mut Cursor,
        rng: &mut Rng,
        write: bool,
        bytes: u32,
        span_blocks: u64,
    ) -> Request {
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
    fn next_arrival(&self, cursor: &mut Cursor, rng: &mut Rng) -> Option<SimTime> {
        cursor.next_arrival_ns += match self.rate? {
            // Kept as a fraction so a rate that is not a whole number of nanoseconds apart
            // does not drift.
            Arrivals::Rate(gap_ns, Spacing::Linear) => gap_ns,
            // Exponential gaps: 1 - u is in (0, 1], so the logarithm is finite.
            Arrivals::Rate(gap_ns, Spacing::Poisson) => -(1.0 - rng.unit()).ln() * gap_ns,
            Arrivals::Timed { speed, max_idle } => {
                let Source::Trace(replay) = &self.source else {
                    return None;
                };
                let requests = &replay.trace.requests;
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
    #[inline(never)]
    fn request(&self, cursor: &mut Cursor) -> Request {
        let r = self.trace.requests[cursor.next_trace_request];
        cursor.next_trace_request += 1;
        let (start, units) = r.placed(self.drive_units);
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
