//! Workloads as people run them: one or more *streams* of requests on one drive.
//!
//! A stream is what one fio job (or one of its `numjobs` clones, or one MQSim flow) puts on the
//! drive. Its requests ([`Requests`]) are generated from a [`Pattern`] (pattern and read share,
//! block sizes, one or fio's `bssplit`, an address range) or replayed from a block trace
//! ([`trace`]; the reviews' desktop workloads are generated traces, [`desktop`]). They arrive:
//! - **closed loop** ([`Arrival::Closed`]): `iodepth` requests always in flight, a new one the
//!   moment one completes (fio without a rate; the lab's charts; a trace as fast as it goes);
//! - **open loop** ([`Arrival::Rate`], [`Arrival::Timed`]): at a rate (fio's `rate_iops`,
//!   evenly spaced or Poisson as `rate_process` says) or at a trace's own times, whether or not
//!   the drive keeps up. At most `iodepth` of the stream's requests are at the device; the rest
//!   wait in the host, and a request's latency runs from its arrival, so it includes that wait.
//!
//! [`StreamsSpec::check`] is the one validation step for runs of streams, as
//! [`RunSpec::check`](crate::RunSpec::check) is for the single closed-loop job (which becomes
//! one closed stream): the engine only ever sees checked streams. fio job files become streams
//! through [`jobfile`].
//!
//! # What always holds
//! - Every block size is a whole number of 4 KiB mapping units in `4k..=1m`, a `bssplit`'s
//!   weights add up to 100, and a stream's range lies inside the drive's user capacity and holds
//!   its largest request.
//! - A rate is finite and above zero; a run of streams has at least one and at most
//!   [`MAX_STREAMS`]; a trace runs alone, and only a trace has times to replay.

use std::fmt;
use std::sync::Arc;

pub mod desktop;
mod file_error;
pub mod jobfile;
pub mod trace;

pub use file_error::FileError;

use crate::config::{
    self, ConfigError, DriveSpec, DriveState, RunOptions, Rw, Workload, MAPPING_UNIT_BYTES,
    MAX_BLOCK_BYTES, MAX_IODEPTH, MIN_BLOCK_BYTES,
};
use crate::time::Nanos;
use trace::Trace;

/// Most streams one run puts on a drive (an assumption: fio's `numjobs` is unbounded, MQSim
/// runs up to 8 flows; 64 covers a job file of many sections with clones).
pub const MAX_STREAMS: usize = 64;
/// Highest rate one stream may ask for, in I/Os per second (an assumption: ten times the
/// fastest drive the lab models, so any saturation point is reachable).
pub(crate) const MAX_RATE_IOPS: f64 = 1e8;
/// Slowest and fastest a trace may be replayed against its own clock.
pub(crate) const MIN_SPEED: f64 = 0.001;
pub(crate) const MAX_SPEED: f64 = 1000.0;

/// How a stream's requests arrive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arrival {
    /// `iodepth` requests always in flight (fio without a rate).
    Closed { iodepth: u32 },
    /// `iops` requests a second, spaced as `spacing` says; at most `iodepth` at the device,
    /// the rest wait in the host (fio's `rate_iops`, `rate_process` and `iodepth`).
    Rate {
        iops: f64,
        spacing: Spacing,
        iodepth: u32,
    },
    /// A trace's own arrival times divided by `speed` (2: twice as fast), each gap capped at
    /// `max_idle` when given (the reviews cap idle at 25 ms); at most `iodepth` at the device.
    Timed {
        speed: f64,
        max_idle: Option<Nanos>,
        iodepth: u32,
    },
}

impl Arrival {
    /// The most requests of the stream at the device at once.
    pub fn iodepth(self) -> u32 {
        match self {
            Arrival::Closed { iodepth }
            | Arrival::Rate { iodepth, .. }
            | Arrival::Timed { iodepth, .. } => iodepth,
        }
    }

    /// The offered rate of an open-loop stream.
    pub fn rate_iops(self) -> Option<f64> {
        match self {
            Arrival::Rate { iops, .. } => Some(iops),
            Arrival::Closed { .. } | Arrival::Timed { .. } => None,
        }
    }
}

/// The gaps between an open-loop stream's arrivals (fio's `rate_process`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Spacing {
    /// Evenly spaced, one every `1 / rate` (fio's default).
    Linear,
    /// Exponential gaps of mean `1 / rate`: arrivals of a Poisson process, the queueing
    /// textbook's M in M/G/1.
    Poisson,
}

crate::named_enum!(Spacing, "rate process", fio_name, {
    Linear => "linear",
    Poisson => "poisson",
});

/// A stream's request sizes: one size, or fio's `bssplit` (sizes with percentage weights).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BlockSizes {
    /// (bytes, weight in percent); weights add up to 100.
    parts: Vec<(u32, u8)>,
}

impl BlockSizes {
    /// Every request of one size.
    pub fn one(bytes: u32) -> BlockSizes {
        BlockSizes {
            parts: vec![(bytes, 100)],
        }
    }

    /// Sizes drawn with the given percentage weights (checked by [`StreamsSpec::check`]).
    pub fn split(parts: Vec<(u32, u8)>) -> BlockSizes {
        BlockSizes { parts }
    }

    /// Read fio's `bssplit` (`4k/50:64k/30:1m/20`); a size without a weight takes what the
    /// others leave, shared equally, as fio does.
    ///
    /// ```
    /// use parallelism_model::workload::BlockSizes;
    /// let b = BlockSizes::parse_bssplit("4k/60:128k").unwrap();
    /// assert_eq!(b.parts(), &[(4096, 60), (131_072, 40)]);
    /// assert!(BlockSizes::parse_bssplit("4k/70:8k/40").is_err());
    /// ```
    pub fn parse_bssplit(s: &str) -> Result<BlockSizes, ConfigError> {
        let malformed = |why: String| ConfigError::Malformed {
            what: "bssplit".into(),
            value: s.to_string(),
            why,
        };
        let mut parts = Vec::new();
        let mut unweighted = Vec::new();
        for item in s.split(':').filter(|i| !i.trim().is_empty()) {
            let (size, weight) = match item.split_once('/') {
                Some((size, weight)) => (size, Some(weight)),
                None => (item, None),
            };
            let bytes = config::parse_block_size(size)?;
            match weight {
                Some(w) => {
                    let w: u8 = w.trim().parse().map_err(|_| {
                        malformed(format!("weight '{w}' is not a whole percentage"))
                    })?;
                    parts.push((bytes, w));
                }
                None => {
                    unweighted.push(parts.len());
                    parts.push((bytes, 0));
                }
            }
        }
        if parts.is_empty() {
            return Err(malformed("no block sizes".to_string()));
        }
        let given: u32 = parts.iter().map(|&(_, w)| u32::from(w)).sum();
        if given > 100 || (unweighted.is_empty() && given != 100) {
            return Err(malformed(format!(
                "the weights add up to {given}%, not 100%"
            )));
        }
        if let Some(n) = u32::try_from(unweighted.len()).ok().filter(|&n| n > 0) {
            let left = 100 - given;
            for (k, &i) in unweighted.iter().enumerate() {
                // The remainder's odd percent goes to the first sizes, so the sum stays 100.
                let extra = u32::from((k as u32) < left % n);
                parts[i].1 = (left / n + extra) as u8;
            }
        }
        Ok(BlockSizes { parts })
    }

    /// The sizes and their weights.
    pub fn parts(&self) -> &[(u32, u8)] {
        &self.parts
    }

    /// The largest size.
    pub fn largest(&self) -> u32 {
        self.parts.iter().map(|&(b, _)| b).max().unwrap_or(0)
    }

    /// The mean request size in bytes.
    pub fn mean_bytes(&self) -> f64 {
        self.parts
            .iter()
            .map(|&(b, w)| f64::from(b) * f64::from(w) / 100.0)
            .sum()
    }

    fn check(&self) -> Result<(), ConfigError> {
        if self.parts.is_empty() {
            return Err(ConfigError::Malformed {
                what: "block sizes".into(),
                value: String::new(),
                why: "a stream needs at least one block size".to_string(),
            });
        }
        for &(bytes, _) in &self.parts {
            if !(MIN_BLOCK_BYTES..=MAX_BLOCK_BYTES).contains(&bytes)
                || !bytes.is_multiple_of(MAPPING_UNIT_BYTES)
            {
                return Err(ConfigError::OutOfRange {
                    what: "block size (bytes)".into(),
                    value: bytes.to_string(),
                    allowed: "4096..=1048576 in multiples of 4096".to_string(),
                });
            }
        }
        let total: u32 = self.parts.iter().map(|&(_, w)| u32::from(w)).sum();
        if total != 100 || self.parts.iter().any(|&(_, w)| w == 0) {
            return Err(ConfigError::OutOfRange {
                what: "block size weights (%)".into(),
                value: total.to_string(),
                allowed: "each above 0, adding up to 100".to_string(),
            });
        }
        Ok(())
    }
}

impl fmt::Display for BlockSizes {
    /// One size as fio's `bs` writes it (`4k`), several as its `bssplit` (`4k/60:128k/40`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [(bytes, _)] = self.parts[..] {
            return f.write_str(&config::format_block_size(bytes));
        }
        let parts: Vec<String> = self
            .parts
            .iter()
            .map(|&(b, w)| format!("{}/{w}", config::format_block_size(b)))
            .collect();
        f.write_str(&parts.join(":"))
    }
}

/// The addresses a stream touches (fio's `offset` and `size`), in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub offset_bytes: u64,
    /// `None`: to the end of the drive's user capacity.
    pub size_bytes: Option<u64>,
}

/// Requests generated as fio generates them: a pattern and read share, sizes and a range.
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    pub rw: Rw,
    /// Read percentage for the mixed patterns (fio's `rwmixread`); ignored otherwise.
    pub rwmixread: u8,
    pub sizes: BlockSizes,
    pub span: Span,
}

impl Pattern {
    pub fn read_percent(&self) -> u8 {
        self.rw.read_percent(self.rwmixread)
    }

    /// The first byte and the length on a drive of `user_bytes` (to the end of the drive's
    /// last whole 4 KiB unit when no size is given).
    pub(crate) fn span_on(&self, user_bytes: u64) -> (u64, u64) {
        let unit = u64::from(MAPPING_UNIT_BYTES);
        let size = self
            .span
            .size_bytes
            .unwrap_or_else(|| user_bytes.saturating_sub(self.span.offset_bytes) / unit * unit);
        (self.span.offset_bytes, size)
    }

    fn check(&self, drive: &DriveSpec) -> Result<(), ConfigError> {
        config::check_range("rwmixread", self.rwmixread, 0, 100)?;
        self.sizes.check()?;
        let user = drive.user_bytes() as u64;
        let (offset, size) = self.span_on(user);
        let unit = u64::from(MAPPING_UNIT_BYTES);
        if !offset.is_multiple_of(unit) || !size.is_multiple_of(unit) {
            return Err(ConfigError::OutOfRange {
                what: "offset and size (bytes)".into(),
                value: format!("{offset} and {size}"),
                allowed: "multiples of 4096".to_string(),
            });
        }
        if size < u64::from(self.sizes.largest()) || offset.saturating_add(size) > user {
            return Err(ConfigError::OutOfRange {
                what: "offset and size (bytes)".into(),
                value: format!("{offset} and {size}"),
                allowed: format!(
                    "a range inside the drive's {user} bytes that holds one {} request",
                    config::format_block_size(self.sizes.largest())
                ),
            });
        }
        Ok(())
    }
}

/// What a stream's requests are.
#[derive(Clone, Debug, PartialEq)]
pub enum Requests {
    /// Generated, as fio generates them.
    Pattern(Pattern),
    /// A block trace's, in its order; addresses past the drive's end wrap around onto it (an
    /// assumption: a trace from a larger disk keeps its access pattern on a smaller one).
    Trace(Arc<Trace>),
}

/// One stream of requests: what they are, and when they come.
#[derive(Clone, Debug, PartialEq)]
pub struct Stream {
    pub requests: Requests,
    pub arrival: Arrival,
}

impl Stream {
    /// The closed-loop job of a [`Workload`], over the whole drive.
    pub fn closed(w: &Workload) -> Stream {
        Stream {
            requests: Requests::Pattern(Pattern {
                rw: w.rw,
                rwmixread: w.rwmixread,
                sizes: BlockSizes::one(w.bs_bytes),
                span: Span::default(),
            }),
            arrival: Arrival::Closed { iodepth: w.iodepth },
        }
    }

    /// The same job arriving at `iops` a second, spaced as `spacing` says, with at most
    /// `w.iodepth` at the device.
    pub fn at_rate(w: &Workload, iops: f64, spacing: Spacing) -> Stream {
        Stream {
            arrival: Arrival::Rate {
                iops,
                spacing,
                iodepth: w.iodepth,
            },
            ..Stream::closed(w)
        }
    }

    /// A trace replayed as `arrival` says: at its own times ([`Arrival::Timed`]), or as fast
    /// as the drive allows at a depth ([`Arrival::Closed`]).
    pub fn replay(trace: Arc<Trace>, arrival: Arrival) -> Stream {
        Stream {
            requests: Requests::Trace(trace),
            arrival,
        }
    }

    /// The generated pattern, for a stream that is not a trace.
    pub fn pattern(&self) -> Option<&Pattern> {
        match &self.requests {
            Requests::Pattern(p) => Some(p),
            Requests::Trace(_) => None,
        }
    }

    /// The generated pattern to change, for a stream that is not a trace.
    pub fn pattern_mut(&mut self) -> Option<&mut Pattern> {
        match &mut self.requests {
            Requests::Pattern(p) => Some(p),
            Requests::Trace(_) => None,
        }
    }

    /// The share of reads, in percent (a trace's, rounded).
    pub fn read_percent(&self) -> u8 {
        match &self.requests {
            Requests::Pattern(p) => p.read_percent(),
            Requests::Trace(t) => {
                let reads = t.requests.iter().filter(|r| !r.write).count();
                (reads * 100).div_ceil(t.requests.len().max(1)) as u8
            }
        }
    }

    /// Whether its writes land at random addresses (a trace's are taken to: its addresses
    /// are whatever the application wrote).
    pub(crate) fn writes_at_random(&self) -> bool {
        self.pattern().is_none_or(|p| p.rw.is_random()) && self.read_percent() < 100
    }

    /// The mean request size in bytes.
    pub fn mean_bytes(&self) -> f64 {
        match &self.requests {
            Requests::Pattern(p) => p.sizes.mean_bytes(),
            Requests::Trace(t) => {
                let total: u64 = t.requests.iter().map(|r| u64::from(r.bytes())).sum();
                total as f64 / t.requests.len().max(1) as f64
            }
        }
    }

    pub(crate) fn check(&self, drive: &DriveSpec) -> Result<(), ConfigError> {
        config::check_range("iodepth", self.arrival.iodepth(), 1, MAX_IODEPTH)?;
        if let Some(iops) = self.arrival.rate_iops() {
            if !(iops.is_finite() && iops > 0.0 && iops <= MAX_RATE_IOPS) {
                return Err(ConfigError::OutOfRange {
                    what: "rate (IOPS)".into(),
                    value: iops.to_string(),
                    allowed: format!("above 0 and at most {MAX_RATE_IOPS:e}"),
                });
            }
        }
        match (&self.requests, self.arrival) {
            (Requests::Pattern(p), Arrival::Timed { .. }) => {
                p.check(drive)?;
                Err(ConfigError::Malformed {
                    what: "arrival".into(),
                    value: "timed".to_string(),
                    why: "only a trace has times of its own to replay".to_string(),
                })
            }
            (Requests::Pattern(p), _) => p.check(drive),
            (Requests::Trace(t), arrival) => {
                if t.requests.is_empty() {
                    return Err(ConfigError::Malformed {
                        what: "trace".into(),
                        value: String::new(),
                        why: "it has no requests".to_string(),
                    });
                }
                if let Arrival::Timed { speed, .. } = arrival {
                    if !(speed.is_finite() && (MIN_SPEED..=MAX_SPEED).contains(&speed)) {
                        return Err(ConfigError::OutOfRange {
                            what: "replay speed".into(),
                            value: speed.to_string(),
                            allowed: format!("{MIN_SPEED}..={MAX_SPEED}"),
                        });
                    }
                }
                Ok(())
            }
        }
    }
}

/// A run of several streams on one drive, unchecked.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamsSpec {
    pub drive: DriveSpec,
    pub streams: Vec<Stream>,
    pub state: DriveState,
    pub options: RunOptions,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bssplit_reads_as_fio_writes_it() {
        let b = BlockSizes::parse_bssplit("4k/50:64k/30:1m/20").unwrap();
        assert_eq!(b.parts(), &[(4096, 50), (65_536, 30), (1 << 20, 20)]);
        assert_eq!(b.to_string(), "4k/50:64k/30:1m/20");
        // Sizes without a weight share what is left, the odd percent going first.
        let b = BlockSizes::parse_bssplit("4k/50:8k:16k:32k").unwrap();
        assert_eq!(
            b.parts(),
            &[(4096, 50), (8192, 17), (16_384, 17), (32_768, 16)]
        );
        assert_eq!(
            BlockSizes::parse_bssplit("8k").unwrap(),
            BlockSizes::one(8192)
        );
        for bad in ["", "4k/60:8k/60", "4k/50:8k/40", "4k/x", "6k/100", "4k/-1"] {
            assert!(BlockSizes::parse_bssplit(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn the_mean_size_weighs_each_size_by_its_share() {
        let b = BlockSizes::parse_bssplit("4k/75:64k/25").unwrap();
        assert_eq!(b.mean_bytes(), 0.75 * 4096.0 + 0.25 * 65_536.0);
    }
}
