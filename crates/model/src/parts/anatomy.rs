//! Where a request's time goes: its latency split into [`Part`]s that add up to it exactly.
//!
//! What it owns: the parts, named once ([`Part`]: a key that parses and prints, and words for
//! readers); one request's parts as integer nanoseconds ([`Parts`]); the bookkeeping that a
//! run's measured requests go into (the crate's `AnatomyMeter`: sums of parts by latency, so a tail's
//! composition is known without keeping each request); and what a result reports
//! ([`Anatomy`]: per direction, the mean request and the requests at or above p50, p99 and
//! p99.9).
//!
//! What always holds:
//! - a request's parts add up to its latency to the nanosecond (the engine charges each span
//!   of its life to exactly one part, from its submission to its last byte on the link);
//! - a meter's sums add up to the sum of the latencies recorded into it, exactly, so every
//!   [`Breakdown`]'s parts add up to its mean latency (up to float rounding);
//! - a tail is the requests at or above its percentile's rank, as many as the rank says: the
//!   latency buckets above it whole, and of the bucket that holds the rank the share it
//!   needs, at that bucket's mean composition.
//!
//! Why: the latency figures say how long; these say what for. SSD reviews and simulators give
//! only the totals, and a p99 that leaves the mean behind usually does so for a reason (a read
//! waiting behind a program on its die) that the totals cannot show.

use std::fmt;
use std::str::FromStr;

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};

use crate::time::Nanos;

/// How many parts a request's time has.
pub const PARTS: usize = 18;

/// One kind of span in a request's life, in the order a request meets them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    /// Waiting in the host: an open-loop request while its stream has `iodepth` at the
    /// device, or any request while the device's queue is full.
    HostQueue,
    /// The host's stack: the operating system and driver's path to the device.
    HostStack,
    /// Waiting for the controller, behind other commands.
    ControllerQueue,
    /// The controller's work on the command.
    Command,
    /// A DRAM-less controller reading the request's mapping entry from the flash first.
    MappingRead,
    /// A read waiting for a read-ahead of its data already on its way to DRAM.
    ReadAhead,
    /// A write waiting for room in the write buffer (the dies' programs draining it).
    BufferWait,
    /// Waiting for its die while the die reads for other requests.
    BehindReads,
    /// Waiting for its die while the die programs host data.
    BehindPrograms,
    /// Waiting for its die while the die copies or erases for garbage collection.
    BehindGc,
    /// Waiting for its die while a program or erase winds down to let it in (a suspend), or
    /// picks up again (a resume).
    Suspends,
    /// Waiting for its die to get a share of the power budget.
    PowerWait,
    /// Its own NAND read: sensing the page into the die's register.
    Sense,
    /// Its own read of SLC-mode cells (the SLC cache), faster than a native sense.
    SlcSense,
    /// Waiting for the NAND channel (and for the die's data register to empty onto it).
    ChannelQueue,
    /// Its data crossing the NAND channel.
    ChannelTransfer,
    /// Waiting for the host link, behind other requests' data.
    LinkQueue,
    /// Its data crossing the host link.
    LinkTransfer,
}

impl Part {
    /// Every part, in the order a request meets them.
    pub const ALL: [Part; PARTS] = [
        Part::HostQueue,
        Part::HostStack,
        Part::ControllerQueue,
        Part::Command,
        Part::MappingRead,
        Part::ReadAhead,
        Part::BufferWait,
        Part::BehindReads,
        Part::BehindPrograms,
        Part::BehindGc,
        Part::Suspends,
        Part::PowerWait,
        Part::Sense,
        Part::SlcSense,
        Part::ChannelQueue,
        Part::ChannelTransfer,
        Part::LinkQueue,
        Part::LinkTransfer,
    ];

    /// The part's key, as `lab` prints it and a link or a file names it.
    pub fn key(self) -> &'static str {
        match self {
            Part::HostQueue => "host-queue",
            Part::HostStack => "host-stack",
            Part::ControllerQueue => "controller-queue",
            Part::Command => "command",
            Part::MappingRead => "mapping-read",
            Part::ReadAhead => "read-ahead",
            Part::BufferWait => "buffer-wait",
            Part::BehindReads => "behind-reads",
            Part::BehindPrograms => "behind-programs",
            Part::BehindGc => "behind-gc",
            Part::Suspends => "suspends",
            Part::PowerWait => "power-wait",
            Part::Sense => "sense",
            Part::SlcSense => "slc-sense",
            Part::ChannelQueue => "channel-queue",
            Part::ChannelTransfer => "channel-transfer",
            Part::LinkQueue => "link-queue",
            Part::LinkTransfer => "link-transfer",
        }
    }

    /// What the part is, in words that complete "time spent ...".
    pub fn what(self) -> &'static str {
        match self {
            Part::HostQueue => "waiting in the host",
            Part::HostStack => "in the host's stack",
            Part::ControllerQueue => "waiting for the controller",
            Part::Command => "on the controller's command work",
            Part::MappingRead => "reading its mapping entry from the flash",
            Part::ReadAhead => "waiting for a read-ahead in flight",
            Part::BufferWait => "waiting for room in the write buffer",
            Part::BehindReads => "waiting for its die behind other reads",
            Part::BehindPrograms => "waiting for its die behind host programs",
            Part::BehindGc => "waiting for its die behind garbage collection",
            Part::Suspends => "waiting for programs to suspend and resume",
            Part::PowerWait => "waiting for its die's share of the power budget",
            Part::Sense => "on its own NAND read",
            Part::SlcSense => "on its own SLC read",
            Part::ChannelQueue => "waiting for the NAND channel",
            Part::ChannelTransfer => "crossing the NAND channel",
            Part::LinkQueue => "waiting for the host link",
            Part::LinkTransfer => "crossing the host link",
        }
    }

    /// Whether the part is waiting for the writes' work: host programs, garbage collection, or
    /// the suspends and resumes of either.
    pub fn writes_cause(self) -> bool {
        matches!(
            self,
            Part::BehindPrograms | Part::BehindGc | Part::Suspends | Part::BufferWait
        )
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A name that is not one of the parts' keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPart(pub String);

impl fmt::Display for UnknownPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let keys: Vec<&str> = Part::ALL.iter().map(|p| p.key()).collect();
        write!(
            f,
            "'{}' is not a part of a request's time (expected one of: {})",
            self.0,
            keys.join(", ")
        )
    }
}

impl std::error::Error for UnknownPart {}

impl FromStr for Part {
    type Err = UnknownPart;
    fn from_str(s: &str) -> Result<Part, UnknownPart> {
        Part::ALL
            .into_iter()
            .find(|p| p.key() == s)
            .ok_or_else(|| UnknownPart(s.to_string()))
    }
}

/// One request's time, part by part, in nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parts(pub [u64; PARTS]);

impl Parts {
    /// Charge `span` to `part`.
    #[inline(always)]
    pub fn add(&mut self, part: Part, span: Nanos) {
        self.0[part.index()] += span.0;
    }

    /// Charge exactly `span` to `part`, whatever was charged to it before.
    #[inline(always)]
    pub fn set(&mut self, part: Part, span: Nanos) {
        self.0[part.index()] = span.0;
    }

    pub fn get(&self, part: Part) -> Nanos {
        Nanos(self.0[part.index()])
    }

    /// The whole: the request's latency, when these are a request's parts.
    pub fn total(&self) -> Nanos {
        Nanos(self.0.iter().sum())
    }
}

impl std::ops::AddAssign<&Parts> for Parts {
    #[inline(always)]
    fn add_assign(&mut self, other: &Parts) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }
}

/// Latency buckets per power of two: coarse enough that a run's sums stay small, fine enough
/// that a tail's boundary bucket is a small share of it.
const ROW_BITS: u32 = 2;
const ROWS_PER_OCTAVE: u64 = 1 << ROW_BITS;
/// Latencies below this many nanoseconds share one row (no request is that fast).
const FIRST_ROW_NS: u64 = 1 << 10;

/// The row of a latency: one for everything under [`FIRST_ROW_NS`], then
/// [`ROWS_PER_OCTAVE`] per power of two.
fn row_of(latency_ns: u64) -> usize {
    if latency_ns < FIRST_ROW_NS {
        return 0;
    }
    let msb = 63 - latency_ns.leading_zeros();
    let octave = u64::from(msb - FIRST_ROW_NS.trailing_zeros());
    // The bits below the leading one: which row of its octave.
    let within = (latency_ns >> (msb - ROW_BITS)) & (ROWS_PER_OCTAVE - 1);
    (1 + octave * ROWS_PER_OCTAVE + within) as usize
}

/// One latency row: how many requests, and their parts added up.
#[derive(Clone, Copy, Debug, Default)]
struct Row {
    requests: u64,
    parts: Parts,
}

/// The parts of a direction's measured requests, summed by latency row. Grows to the slowest
/// request's row, then allocates nothing.
#[derive(Clone, Debug, Default)]
pub(crate) struct AnatomyMeter {
    rows: Vec<Row>,
    from_dram: u64,
}

impl AnatomyMeter {
    /// Count a measured request of `latency`, served from DRAM or not, and return the sums
    /// its parts go into (the caller adds them: the engine keeps a request's parts where it
    /// wrote them).
    #[inline(always)]
    pub(crate) fn tally(&mut self, latency: Nanos, from_dram: bool) -> &mut Parts {
        let row = row_of(latency.0);
        if row >= self.rows.len() {
            self.grow(row);
        }
        self.from_dram += u64::from(from_dram);
        let r = &mut self.rows[row];
        r.requests += 1;
        &mut r.parts
    }

    /// Rows up to `row`: a slower request than any before.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, row: usize) {
        self.rows.resize(row + 1, Row::default());
    }

    /// Record a measured request made of `parts` (its latency is their total).
    #[cfg(test)]
    fn record(&mut self, parts: &Parts, from_dram: bool) {
        *self.tally(parts.total(), from_dram) += parts;
    }

    pub(crate) fn requests(&self) -> u64 {
        self.rows.iter().map(|r| r.requests).sum()
    }

    /// Every recorded request's parts added up: the sum of their latencies.
    #[cfg(test)]
    fn total_ns(&self) -> u128 {
        self.rows
            .iter()
            .flat_map(|r| r.parts.0)
            .map(u128::from)
            .sum()
    }

    /// What the recorded requests were made of, or `None` when there were none.
    pub(crate) fn summary(&self) -> Option<DirectionAnatomy> {
        let n = self.requests();
        (n > 0).then(|| DirectionAnatomy {
            mean: self.tail(n),
            p50: self.tail(above(n, 0.50)),
            p99: self.tail(above(n, 0.99)),
            p999: self.tail(above(n, 0.999)),
            from_dram: self.from_dram as f64 / n as f64,
        })
    }

    /// The mean composition of the `want` slowest requests.
    fn tail(&self, want: u64) -> Breakdown {
        let mut sums = [0.0f64; PARTS];
        let mut left = want;
        for row in self.rows.iter().rev().filter(|r| r.requests > 0) {
            let share = (left.min(row.requests)) as f64 / row.requests as f64;
            for (sum, &part) in sums.iter_mut().zip(&row.parts.0) {
                *sum += part as f64 * share;
            }
            left -= left.min(row.requests);
            if left == 0 {
                break;
            }
        }
        let per = |ns: f64| ns / want.max(1) as f64 / 1e3;
        let parts_us = sums.map(per);
        Breakdown {
            requests: want,
            latency_us: parts_us.iter().sum(),
            parts_us,
        }
    }
}

/// How many of `n` requests are at or above the `q` quantile: those from its rank on (the
/// rank is the one [`crate::stats`]'s percentiles use).
fn above(n: u64, q: f64) -> u64 {
    let rank = ((q * n as f64).ceil() as u64).clamp(1, n);
    n - rank + 1
}

/// The mean composition of a set of requests.
#[derive(Clone, Debug, PartialEq)]
pub struct Breakdown {
    /// How many requests the set holds.
    pub requests: u64,
    /// Their mean latency, in microseconds: the sum of `parts_us`.
    pub latency_us: f64,
    /// The mean time each part took, in microseconds, in [`Part::ALL`]'s order.
    pub parts_us: [f64; PARTS],
}

impl Breakdown {
    pub fn part_us(&self, part: Part) -> f64 {
        self.parts_us[part.index()]
    }

    /// The part that took the most time, and its share of the whole.
    pub fn largest(&self) -> (Part, f64) {
        let (part, us) = Part::ALL.into_iter().map(|p| (p, self.part_us(p))).fold(
            (Part::HostQueue, f64::MIN),
            |best, c| {
                if c.1 > best.1 {
                    c
                } else {
                    best
                }
            },
        );
        (part, share(us, self.latency_us))
    }

    /// The share of the whole that `parts` took together.
    pub fn share_of(&self, parts: impl Fn(Part) -> bool) -> f64 {
        let us: f64 = Part::ALL
            .into_iter()
            .filter(|&p| parts(p))
            .map(|p| self.part_us(p))
            .sum();
        share(us, self.latency_us)
    }
}

fn share(us: f64, whole_us: f64) -> f64 {
    if whole_us > 0.0 {
        us / whole_us
    } else {
        0.0
    }
}

impl Serialize for Breakdown {
    /// The parts as a map from key to microseconds, in the order a request meets them.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct PartsMap<'a>(&'a [f64; PARTS]);
        impl Serialize for PartsMap<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut map = s.serialize_map(Some(PARTS))?;
                for (part, us) in Part::ALL.iter().zip(self.0) {
                    map.serialize_entry(part.key(), us)?;
                }
                map.end()
            }
        }
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("requests", &self.requests)?;
        map.serialize_entry("latency_us", &self.latency_us)?;
        map.serialize_entry("parts_us", &PartsMap(&self.parts_us))?;
        map.end()
    }
}

/// What one direction's requests were made of.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DirectionAnatomy {
    /// Every measured request.
    pub mean: Breakdown,
    /// The requests at or above the median, the p99 and the p99.9.
    pub p50: Breakdown,
    pub p99: Breakdown,
    pub p999: Breakdown,
    /// Share of the requests served from the controller's DRAM without a flash read of their
    /// own (reads found in a read-ahead; every write, acknowledged from the write buffer).
    pub from_dram: f64,
}

/// Where a run's requests' time went, reads and writes apart (`None`: the run had none).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Anatomy {
    pub reads: Option<DirectionAnatomy>,
    pub writes: Option<DirectionAnatomy>,
}

/// Where a followed request is now (see [`Followed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Whereabouts {
    /// Waiting in the host for room at the device.
    Host,
    /// In the host's stack, or at the controller (waiting for it, or its command in work).
    Controller,
    /// A write waiting for room in the write buffer.
    Buffer,
    /// A read's page at a die: waiting in its queue (behind the die's current work, `behind`),
    /// or being sensed (`behind` is `None`).
    Die {
        die: u32,
        channel: u32,
        behind: Option<Part>,
    },
    /// A read's data on its way to the controller over a NAND channel.
    Channel,
    /// Its data crossing the host link (or waiting for it).
    Link,
    /// Done: its last byte crossed the link.
    Done,
}

/// One request followed through the engine, for teaching mode's "follow one request": its
/// parts charged so far (the whole of them once it is done) and where it is now.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Followed {
    pub write: bool,
    /// How long it has been in the system (its latency, once done).
    pub age: Nanos,
    /// Its parts so far: what it spent up to the stage it is in (a read's pages join them
    /// when they leave their channel); once done, its whole latency.
    pub parts: Parts,
    pub at: Whereabouts,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_prints_and_parses_as_its_key() {
        for part in Part::ALL {
            assert_eq!(part.to_string().parse::<Part>(), Ok(part));
        }
        assert_eq!(Part::ALL.len(), PARTS);
        let err = "queueing".parse::<Part>().unwrap_err().to_string();
        assert!(
            err.contains("'queueing'") && err.contains("behind-programs"),
            "{err}"
        );
    }

    #[test]
    fn a_part_crosses_to_the_page_as_its_key() {
        for part in Part::ALL {
            let json = serde_json::to_string(&part).unwrap();
            assert_eq!(json, format!("\"{}\"", part.key()));
            assert_eq!(serde_json::from_str::<Part>(&json).unwrap(), part);
        }
    }

    #[test]
    fn parts_are_listed_in_their_own_order() {
        for (i, part) in Part::ALL.into_iter().enumerate() {
            assert_eq!(part.index(), i);
        }
    }

    #[test]
    fn rows_grow_with_latency_four_to_an_octave() {
        assert_eq!(row_of(0), 0);
        assert_eq!(row_of(1023), 0);
        assert_eq!(row_of(1024), 1);
        assert_eq!(row_of(1280), 2);
        assert_eq!(row_of(2047), 4);
        assert_eq!(row_of(2048), 5);
        let mut last = 0;
        for ns in (1..40).map(|b| 1u64 << b) {
            for step in 0..8 {
                let row = row_of(ns + ns * step / 8);
                assert!(row >= last);
                last = row;
            }
        }
    }

    /// `n` requests of one part each: `sense` µs of sensing, or `wait` µs behind programs
    /// on top of the sense for the slow ones.
    fn meter_of(fast: u64, slow: u64) -> AnatomyMeter {
        let mut m = AnatomyMeter::default();
        let mut quick = Parts::default();
        quick.add(Part::Sense, Nanos::from_us(60));
        let mut late = quick;
        late.add(Part::BehindPrograms, Nanos::from_us(940));
        for _ in 0..fast {
            m.record(&quick, false);
        }
        for _ in 0..slow {
            m.record(&late, false);
        }
        m
    }

    #[test]
    fn the_tail_is_the_slow_requests_and_the_mean_is_all_of_them() {
        // 990 reads of 60 µs and 10 of 1 ms behind a program. The p99 is the 990th latency,
        // the last quick one: its tail is that one and the ten slow ones (93% waiting). The
        // mean is 69.4 µs, 13.5% of it waiting.
        let a = meter_of(990, 10).summary().unwrap();
        assert_eq!(a.p99.requests, 11);
        assert!((a.p99.latency_us - 10_060.0 / 11.0).abs() < 1e-9);
        let (part, share) = a.p99.largest();
        assert_eq!(part, Part::BehindPrograms);
        assert!((share - 9_400.0 / 10_060.0).abs() < 1e-12);
        assert_eq!(a.mean.requests, 1000);
        assert!((a.mean.latency_us - 69.4).abs() < 1e-9);
        assert!((a.mean.share_of(Part::writes_cause) - 9.4 / 69.4).abs() < 1e-12);
        assert_eq!(a.p50.requests, 501);
        assert_eq!(a.p999.requests, 2);
        assert!((a.p999.latency_us - 1000.0).abs() < 1e-9);
    }

    #[test]
    fn a_tail_that_starts_inside_a_row_takes_the_share_it_needs() {
        // 100 equal requests: the p99's tail is two of them, the p50's 51, each the same mix.
        let a = meter_of(100, 0).summary().unwrap();
        assert_eq!(a.p99.requests, 2);
        assert!((a.p99.part_us(Part::Sense) - 60.0).abs() < 1e-9);
        assert_eq!(a.p50.requests, 51);
        assert!((a.p50.latency_us - 60.0).abs() < 1e-9);
    }

    #[test]
    fn sums_are_the_latencies_added_up() {
        let m = meter_of(7, 3);
        assert_eq!(m.total_ns(), 7 * 60_000 + 3 * 1_000_000);
        assert_eq!(m.requests(), 10);
        assert!(AnatomyMeter::default().summary().is_none());
    }

    #[test]
    fn a_breakdown_is_a_map_of_keys_in_order() {
        let a = meter_of(1, 0).summary().unwrap();
        let json = serde_json::to_string(&a.mean).unwrap();
        assert!(
            json.starts_with(r#"{"requests":1,"latency_us":60.0,"parts_us":{"host-queue":0.0,"#)
        );
        assert!(json.contains(r#""sense":60.0"#));
    }
}
