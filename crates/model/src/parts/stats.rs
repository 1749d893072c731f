//! What a run measured: latency histogram, throughput, utilisation and the limiting resource.
//!
//! Latencies go into a log-linear histogram (64 sub-buckets per power of two, so every
//! percentile is within 1.6% of the exact value) instead of a stored list: memory stays fixed
//! however long a run is, and the browser can read provisional percentiles at any moment.

use serde::{Deserialize, Serialize};

use crate::anatomy::Anatomy;
use crate::time::Nanos;

mod check;

pub use check::{check, figures, EndedEarly, Figure, Unsound, LITTLE_TOLERANCE};

const SUB_BITS: u32 = 6;
const SUB: u64 = 1 << SUB_BITS;
/// Enough octaves for latencies up to 2^40 ns (about 18 minutes).
const BUCKETS: usize = ((40 - SUB_BITS as usize) + 1) * SUB as usize;

/// A fixed-size log-linear histogram of nanosecond latencies.
#[derive(Clone, Debug)]
pub(crate) struct Histogram {
    counts: Vec<u64>,
    total: u64,
    sum_ns: u128,
    max_ns: u64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            counts: vec![0; BUCKETS],
            total: 0,
            sum_ns: 0,
            max_ns: 0,
        }
    }
}

fn bucket_of(v: u64) -> usize {
    if v < SUB {
        return v as usize;
    }
    let msb = 63 - v.leading_zeros();
    let shift = msb - SUB_BITS;
    let idx = ((shift + 1) as u64 * SUB) + ((v >> shift) - SUB);
    (idx as usize).min(BUCKETS - 1)
}

/// The smallest and largest value a bucket holds.
fn bucket_bounds(idx: usize) -> (u64, u64) {
    let idx = idx as u64;
    if idx < SUB {
        return (idx, idx);
    }
    let shift = idx / SUB - 1;
    let lo = (SUB + idx % SUB) << shift;
    (lo, lo + (1 << shift) - 1)
}

impl Histogram {
    pub fn record(&mut self, latency: Nanos) {
        let v = latency.0;
        self.counts[bucket_of(v)] += 1;
        self.total += 1;
        self.sum_ns += u128::from(v);
        self.max_ns = self.max_ns.max(v);
    }

    pub fn count(&self) -> u64 {
        self.total
    }

    pub fn mean(&self) -> Nanos {
        if self.total == 0 {
            return Nanos::ZERO;
        }
        Nanos((self.sum_ns / u128::from(self.total)) as u64)
    }

    pub fn max(&self) -> Nanos {
        Nanos(self.max_ns)
    }

    /// The latency below which `q` (0..=1) of the samples fall: the top of the bucket that holds
    /// the ⌈q·n⌉-th sample (so a percentile never understates), capped at the observed maximum.
    pub fn quantile(&self, q: f64) -> Nanos {
        if self.total == 0 {
            return Nanos::ZERO;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                let (_, hi) = bucket_bounds(i);
                return Nanos(hi.min(self.max_ns));
            }
        }
        Nanos(self.max_ns)
    }
}

/// Latency figures of a run, in microseconds.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LatencySummary {
    pub mean_us: f64,
    pub p50_us: f64,
    pub p90_us: f64,
    pub p99_us: f64,
    pub p999_us: f64,
    pub max_us: f64,
}

impl LatencySummary {
    pub(crate) fn from_histogram(h: &Histogram) -> LatencySummary {
        LatencySummary {
            mean_us: h.mean().as_us(),
            p50_us: h.quantile(0.50).as_us(),
            p90_us: h.quantile(0.90).as_us(),
            p99_us: h.quantile(0.99).as_us(),
            p999_us: h.quantile(0.999).as_us(),
            max_us: h.max().as_us(),
        }
    }
}

/// Busy fraction (0..=1) of every resource over the measured window.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Utilisation {
    /// Device-to-host direction of the link (the only direction on a half-duplex link).
    pub link_read: f64,
    /// Host-to-device direction (equal to `link_read` on a half-duplex link).
    pub link_write: f64,
    pub controller: f64,
    pub channels: Vec<f64>,
    pub dies: Vec<f64>,
}

impl Utilisation {
    pub fn dies_mean(&self) -> f64 {
        mean(&self.dies)
    }
    pub fn channels_max(&self) -> f64 {
        self.channels.iter().copied().fold(0.0, f64::max)
    }
    pub fn link_max(&self) -> f64 {
        self.link_read.max(self.link_write)
    }
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// The resource that limits a run: what a reader should change to go faster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Bottleneck {
    /// Too few requests in flight to keep the hardware busy: latency-bound.
    QueueDepth,
    /// The flash dies (sensing, programming, garbage collection) are all busy.
    Dies,
    /// A NAND channel bus is saturated.
    Channels,
    /// The controller's command processing is saturated.
    Controller,
    /// The host link is full.
    HostLink,
    /// The power budget of the drive's power state caps how many dies work at once.
    PowerBudget,
}

/// Utilisation above which a shared single resource counts as the limit.
const SATURATED: f64 = 0.85;
/// Mean die utilisation above which the dies count as the limit: dies are many independent
/// servers fed by random addresses, so some always sit idle even when adding depth cannot help.
const DIES_SATURATED: f64 = 0.70;

impl Bottleneck {
    /// Names the limit from utilisations, most specific shared resource first.
    pub(crate) fn classify(u: &Utilisation) -> Bottleneck {
        let shared = [
            (u.link_max(), Bottleneck::HostLink),
            (u.controller, Bottleneck::Controller),
            (u.channels_max(), Bottleneck::Channels),
        ];
        let (busiest, which) = shared
            .into_iter()
            .fold((0.0, Bottleneck::QueueDepth), |best, c| {
                if c.0 > best.0 {
                    c
                } else {
                    best
                }
            });
        if busiest >= SATURATED && busiest >= u.dies_mean() {
            which
        } else if u.dies_mean() >= DIES_SATURATED {
            Bottleneck::Dies
        } else if busiest >= SATURATED {
            which
        } else {
            Bottleneck::QueueDepth
        }
    }

    /// [`classify`](Self::classify) for a run whose power budget lets only `die_slots` dies
    /// work at once (`None`: the budget does not bind): where the dies would be the limit, or
    /// too few requests with the slots kept full, the budget is.
    pub(crate) fn classify_within(u: &Utilisation, die_slots: Option<u32>) -> Bottleneck {
        let limit = Bottleneck::classify(u);
        let Some(slots) = die_slots else {
            return limit;
        };
        let working: f64 = u.dies.iter().sum();
        let slots_full = working >= DIES_SATURATED * f64::from(slots.max(1));
        match limit {
            Bottleneck::Dies | Bottleneck::QueueDepth if slots_full => Bottleneck::PowerBudget,
            other => other,
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            Bottleneck::QueueDepth => "queue-depth",
            Bottleneck::Dies => "dies",
            Bottleneck::Channels => "channels",
            Bottleneck::Controller => "controller",
            Bottleneck::HostLink => "host-link",
            Bottleneck::PowerBudget => "power-budget",
        }
    }

    /// A plain-language name for readouts.
    pub fn label(self) -> &'static str {
        match self {
            Bottleneck::QueueDepth => "too few requests in flight",
            Bottleneck::Dies => "NAND dies",
            Bottleneck::Channels => "NAND channels",
            Bottleneck::Controller => "controller",
            Bottleneck::HostLink => "host link",
            Bottleneck::PowerBudget => "power budget",
        }
    }

    /// The name for a run whose requests arrive at a rate (open loop): there the depth never
    /// limits, so a drive with room is limited by the load offered to it.
    pub fn open_loop_label(self) -> &'static str {
        match self {
            Bottleneck::QueueDepth => "the offered load (the drive has room)",
            limit => limit.label(),
        }
    }
}

/// How reads met programs in a run, when they did often enough to matter (one read in a
/// hundred or more).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProgramWait {
    /// Reads rarely find a die programming.
    Rarely,
    /// Reads wait for the program or erase in their way to suspend.
    Suspend,
    /// Reads wait out programs the firmware does not (or may no longer) suspend.
    Behind,
}

/// Share of I/Os above which meeting a program is worth a word.
const PROGRAM_WAIT_SHARE: f64 = 0.01;

impl ProgramWait {
    /// The limit in words, as the readout adds it to the bottleneck.
    pub fn label(self) -> Option<&'static str> {
        match self {
            ProgramWait::Rarely => None,
            ProgramWait::Suspend => Some("reads wait for programs to suspend"),
            ProgramWait::Behind => Some("reads wait behind programs that are not suspended"),
        }
    }
}

/// Everything one run reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunResult {
    pub iops: f64,
    /// Throughput in MB/s (10^6 bytes per second, as Iometer, fio and reviews report it).
    pub bw_mb_s: f64,
    pub latency: LatencySummary,
    /// Latencies of the reads alone and of the writes alone (`None`: the run had none).
    pub read_latency: Option<LatencySummary>,
    pub write_latency: Option<LatencySummary>,
    /// Where the measured requests' time went, part by part.
    pub anatomy: Anatomy,
    /// Each stream's figures, in the order of the run's streams.
    pub streams: Vec<StreamResult>,
    /// Requests in the system (waiting in the host or at the device) averaged over the window:
    /// Little's L. A closed loop holds its depth exactly; an open loop's is measured.
    pub mean_in_system: f64,
    /// Some open-loop stream's requests arrived faster than the drive completed them (its
    /// backlog grew through the window, or reached the engine's limit and stopped the run).
    pub saturated: bool,
    /// Time in the window with at least one request in the system (the reviews' "disk busy
    /// time"): the whole window for a closed loop.
    pub busy_ns: u64,
    /// Figures over time, when the run recorded them (else empty).
    pub series: Vec<SeriesPoint>,
    pub utilisation: Utilisation,
    pub bottleneck: Bottleneck,
    /// What the drive drew.
    pub power: PowerReading,
    pub write_amplification: f64,
    /// Program or erase steps the firmware suspended so a read could run, and reads that met a
    /// die programming and had to wait it out (suspends used up, or none in this firmware).
    pub suspends: u64,
    pub reads_behind_programs: u64,
    /// I/Os measured after warm-up.
    pub measured_ios: u64,
    /// I/Os the run set out to measure (a trace: its requests); fewer were measured only
    /// when `ended_early` says why, or while the run is in progress. A few more may be, when
    /// several complete at the instant the last planned one does (a buffer released at once).
    pub planned_ios: u64,
    /// Why the run ended before measuring `planned_ios`, if it did.
    pub ended_early: Option<EndedEarly>,
    /// Requests in the system when the measured window opened plus those in it when it
    /// closed (for Little's law's allowance at the window's edges; see [`check`]).
    pub in_system_at_edges: u64,
    /// How long the oldest request still in the system when the result was taken had been
    /// there (for the same allowance: it may have waited longer than any that completed).
    pub oldest_in_system_ns: u64,
    /// Relative standard error of `iops` from batch means (0.01 = ±1%).
    pub iops_rel_noise: f64,
    /// Simulated time covered by the measurement.
    pub measured_ns: u64,
    /// Events the engine processed for this run, warm-up included.
    pub events: u64,
    /// False while a run is still in progress (a provisional result).
    pub finished: bool,
}

/// One bucket of a run's figures over time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeriesPoint {
    /// The bucket's start, in seconds from the window's start.
    pub start_s: f64,
    /// Completions per second and MB/s in the bucket.
    pub iops: f64,
    pub mb_s: f64,
    /// Mean latency of the requests that completed in the bucket (0 when none did).
    pub lat_mean_us: f64,
    /// Requests in the system, averaged over the bucket.
    pub mean_in_system: f64,
}

/// One stream's part of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StreamResult {
    /// Achieved I/Os per second and MB/s, over the run's window.
    pub iops: f64,
    pub bw_mb_s: f64,
    /// The rate an open-loop stream offered (`None`: a closed loop).
    pub offered_iops: Option<f64>,
    pub latency: LatencySummary,
    /// Its reads' and its writes' latencies (`None`: it had none).
    pub read_latency: Option<LatencySummary>,
    pub write_latency: Option<LatencySummary>,
    pub measured_ios: u64,
    /// Where its measured requests' time went.
    pub anatomy: Anatomy,
    /// The stream's requests arrived faster than they completed (see [`RunResult::saturated`]).
    pub saturated: bool,
}

/// A run's power (see [`crate::power`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PowerReading {
    /// Average power over the measured window (watts).
    pub average_w: f64,
    /// The most the drive can have drawn at any instant of the run: everything but the dies at
    /// full tilt, plus the most dies that ever worked at once.
    pub peak_w: f64,
    /// The budget the run kept to (the active power state's maximum), if any.
    pub budget_w: Option<f64>,
}

impl RunResult {
    /// Energy the drive used over the window, in joules (its average power times the time).
    pub fn energy_j(&self) -> f64 {
        self.power.average_w * self.measured_ns as f64 / 1e9
    }

    /// MB/s over the busy time only (the reviews' "average data rate": idle excluded).
    pub fn busy_mb_s(&self) -> f64 {
        if self.busy_ns == 0 {
            return 0.0;
        }
        self.bw_mb_s * self.measured_ns as f64 / self.busy_ns as f64
    }

    /// How this run's reads met programs: the more frequent of waiting out a program or
    /// waiting for it to suspend, if either happens to one I/O in a hundred.
    pub fn program_wait(&self) -> ProgramWait {
        let per_io = |n: u64| n as f64 / self.measured_ios.max(1) as f64;
        let (suspend, behind) = (per_io(self.suspends), per_io(self.reads_behind_programs));
        if suspend.max(behind) < PROGRAM_WAIT_SHARE {
            ProgramWait::Rarely
        } else if behind > suspend {
            ProgramWait::Behind
        } else {
            ProgramWait::Suspend
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_cover_their_values_and_are_ordered() {
        let mut last_hi = None;
        for i in 0..BUCKETS - 1 {
            let (lo, hi) = bucket_bounds(i);
            assert!(lo <= hi);
            assert_eq!(bucket_of(lo), i);
            assert_eq!(bucket_of(hi), i);
            if let Some(prev) = last_hi {
                assert_eq!(lo, prev + 1, "bucket {i} leaves a gap");
            }
            last_hi = Some(hi);
        }
    }

    #[test]
    fn quantiles_are_within_two_percent() {
        let mut h = Histogram::default();
        for v in 1..=100_000u64 {
            h.record(Nanos(v * 10));
        }
        for (q, exact) in [(0.5, 500_000.0), (0.99, 990_000.0), (0.999, 999_000.0)] {
            let got = h.quantile(q).0 as f64;
            assert!((got / exact - 1.0).abs() < 0.02, "q{q}: {got} vs {exact}");
        }
        assert_eq!(h.max(), Nanos(1_000_000));
        assert_eq!(h.mean(), Nanos(500_005));
    }

    #[test]
    fn an_idle_run_is_limited_by_queue_depth_and_a_full_link_by_the_link() {
        let mut u = Utilisation {
            link_read: 0.1,
            link_write: 0.0,
            controller: 0.2,
            channels: vec![0.1; 8],
            dies: vec![0.2; 8],
        };
        assert_eq!(Bottleneck::classify(&u), Bottleneck::QueueDepth);
        u.dies = vec![0.9; 8];
        assert_eq!(Bottleneck::classify(&u), Bottleneck::Dies);
        u.link_read = 0.97;
        assert_eq!(Bottleneck::classify(&u), Bottleneck::HostLink);
    }
}
