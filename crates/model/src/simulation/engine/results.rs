//! The engine's results: what a run measures while it runs ([`Meter`]) and the result made
//! from it ([`Simulation::result`]).
//!
//! What always holds: the hot loop only records (completions, bytes, latencies into
//! histograms, busy time per resource); every figure of a [`RunResult`] is made here, from
//! those counts and the engine's state, without changing either, so a result can be taken at
//! any moment (provisional until the run is finished) and taking one leaves the run as it
//! was. A result leaves only after [`stats::check`] passed it, or as the [`RunError`] that says
//! why it did not.

use super::host::Arrivals;
use super::series::Series;
use super::{Die, Simulation, Slot};
use crate::anatomy::{Anatomy, AnatomyMeter};
use crate::power;
use crate::run::{RunError, Stalled};
use crate::stats::{
    self, Bottleneck, EndedEarly, Histogram, LatencySummary, PowerReading, RunResult, StreamResult,
    Utilisation,
};
use crate::time::{Nanos, SimTime};

/// Batches for the batch-means noise estimate.
const NOISE_BATCHES: u64 = 10;
/// Share of the window's arrivals an open-loop stream may leave uncompleted before it counts
/// as saturated (an assumption: a stable queue's backlog changes by a few requests over a
/// window of thousands, an overloaded one by the whole excess rate).
const SATURATION_SHARE: f64 = 0.02;

/// Latencies by direction: each from its own histogram when there are both, else the one
/// direction's is the whole (`reads`: whether that direction is reads).
fn by_direction(
    whole: &LatencySummary,
    reads: bool,
    both: bool,
    read_hist: &Histogram,
    write_hist: &Histogram,
) -> (Option<LatencySummary>, Option<LatencySummary>) {
    match (both, reads) {
        (true, _) => (
            Some(LatencySummary::from_histogram(read_hist)),
            Some(LatencySummary::from_histogram(write_hist)),
        ),
        (false, true) => (Some(whole.clone()), None),
        (false, false) => (None, Some(whole.clone())),
    }
}

/// Measurement bookkeeping.
#[derive(Debug, Default)]
pub(super) struct Meter {
    pub(super) completed: u64,
    pub(super) warmup: u64,
    /// Completions that end the run: the warm-up and the measured I/Os.
    pub(super) end: u64,
    pub(super) window_start: SimTime,
    pub(super) window_end: SimTime,
    /// When the utilisation window opened (the event time of the warm-up's end).
    pub(super) util_start: SimTime,
    /// Program or erase steps suspended for a read, and reads that found a die programming
    /// and could not suspend it, since the window opened.
    pub(super) suspends: u64,
    pub(super) reads_behind_programs: u64,
    pub(super) hist: Histogram,
    pub(super) bytes: u64,
    /// Most dies ever running an array operation at once under a binding power budget.
    pub(super) peak_active_dies: u32,
    /// Measured I/Os per noise batch, and the completion count that closes the next batch.
    pub(super) per_batch: u64,
    pub(super) next_mark: u64,
    pub(super) batch_marks: Vec<SimTime>,
    /// Latencies by direction, kept only when a run has both (else `hist` is that direction's).
    pub(super) read_hist: Histogram,
    pub(super) write_hist: Histogram,
    /// Each stream's figures, kept only for an open loop or several streams.
    pub(super) streams: Vec<StreamMeter>,
    /// Open loop: requests arrived and not completed, and their number integrated over time
    /// since the window opened (for the mean number in the system, Little's L).
    pub(super) in_system: u64,
    pub(super) in_system_area: u128,
    pub(super) in_system_since: SimTime,
    /// Open loop: time with at least one request in the system since the window opened.
    pub(super) busy_ns: u64,
    /// I/Os the run set out to measure.
    pub(super) planned: u64,
    /// Why the run ended before measuring them: the host held [`MAX_HOST_BACKLOG`](super::MAX_HOST_BACKLOG) requests
    /// (saturated), or its time ran out.
    pub(super) ended_early: Option<EndedEarly>,
    /// Open-loop requests in the system when the window opened.
    pub(super) in_system_at_open: u64,
    /// The host held [`MAX_HOST_BACKLOG`](super::MAX_HOST_BACKLOG) requests at some point (saturated).
    pub(super) backlog_full: bool,
    /// No more open-loop requests arrive (the backlog filled before anything was measured).
    pub(super) arrivals_closed: bool,
    /// Figures over time, when asked for ([`Simulation::record_series`]).
    pub(super) series: Option<Series>,
    /// Where the measured reads' and writes' time went.
    pub(super) anatomy: Directions,
}

/// A direction's anatomy each: reads, writes.
#[derive(Debug, Default)]
pub(super) struct Directions {
    reads: AnatomyMeter,
    writes: AnatomyMeter,
}

impl Directions {
    #[inline(always)]
    pub(super) fn of(&mut self, write: bool) -> &mut AnatomyMeter {
        match write {
            true => &mut self.writes,
            false => &mut self.reads,
        }
    }

    fn summary(&self) -> Anatomy {
        Anatomy {
            reads: self.reads.summary(),
            writes: self.writes.summary(),
        }
    }
}

impl Meter {
    /// A meter for a run that warms up with `warmup` I/Os and measures `planned`, keeping the
    /// figures of `streams` streams apart (none: the run's figures are its one stream's).
    pub(super) fn new(warmup: u64, planned: u64, streams: usize) -> Meter {
        let mut meter = Meter {
            planned,
            streams: (0..streams).map(|_| StreamMeter::default()).collect(),
            ..Meter::default()
        };
        meter.measure(warmup, planned);
        meter
    }

    /// Measure `measured` I/Os from completion `warmup` on, in [`NOISE_BATCHES`] batches.
    pub(super) fn measure(&mut self, warmup: u64, measured: u64) {
        self.warmup = warmup;
        self.end = warmup + measured;
        self.per_batch = (measured / NOISE_BATCHES).max(1);
        self.next_mark = warmup + self.per_batch;
    }
}

/// One stream's measurements inside the window.
#[derive(Debug, Default)]
pub(super) struct StreamMeter {
    pub(super) hist: Histogram,
    /// Its reads' and writes' latencies, kept when the run has both directions.
    pub(super) read_hist: Histogram,
    pub(super) write_hist: Histogram,
    pub(super) bytes: u64,
    pub(super) arrivals: u64,
    pub(super) anatomy: Directions,
}

impl Simulation {
    /// The result so far (final once [`is_finished`](Self::is_finished)), or why there is
    /// none: the run stalled.
    pub fn result(&self) -> Result<RunResult, RunError> {
        if self.stalled {
            return Err(RunError::Stalled(Stalled {
                at: self.now,
                completed: self.meter.completed,
                expected: self.meter.end,
            }));
        }
        let figures = self.figures();
        stats::check(&figures).map_err(RunError::Unsound)?;
        Ok(figures)
    }

    fn figures(&self) -> RunResult {
        let m = &self.meter;
        let window = m.window_end.since(m.window_start).0.max(1) as f64;
        let measured = m.hist.count();
        let utilisation = self.utilisation();
        let per_s = |n: u64| n as f64 * 1e9 / window;
        let latency = LatencySummary::from_histogram(&m.hist);
        let reads = self.streams.iter().any(|s| s.params.read_percent > 0);
        let (read_latency, write_latency) = by_direction(
            &latency,
            reads,
            self.p.both_directions,
            &m.read_hist,
            &m.write_hist,
        );
        let streams = self.stream_results(window, &latency, (&read_latency, &write_latency));
        RunResult {
            iops: per_s(measured),
            bw_mb_s: m.bytes as f64 * 1e3 / window,
            latency,
            read_latency,
            write_latency,
            saturated: streams.iter().any(|s| s.saturated),
            anatomy: m.anatomy.summary(),
            streams,
            mean_in_system: self.mean_in_system(),
            series: self
                .meter
                .series
                .as_ref()
                .map_or_else(Vec::new, |s| s.points(self.closed_depth())),
            // A closed stream keeps requests in the system the whole window: the drive is busy
            // all of it, whatever open-loop streams run beside it.
            busy_ns: if self.p.open && self.closed_depth() == 0 {
                let m = &self.meter;
                let tail = if m.in_system > 0 {
                    self.now.since(m.in_system_since).0
                } else {
                    0
                };
                (m.busy_ns + tail).min(window as u64)
            } else {
                window as u64
            },
            bottleneck: Bottleneck::classify_within(&utilisation, self.power_slots()),
            power: self.power_reading(&utilisation),
            utilisation,
            write_amplification: self.p.write_amplification,
            suspends: m.suspends,
            reads_behind_programs: m.reads_behind_programs,
            measured_ios: measured,
            planned_ios: m.planned,
            ended_early: m.ended_early,
            in_system_at_edges: 2 * u64::from(self.closed_depth())
                + m.in_system_at_open
                + m.in_system,
            oldest_in_system_ns: self.oldest_in_system().0,
            iops_rel_noise: self.batch_noise(),
            measured_ns: window as u64,
            events: self.events,
            finished: self.is_finished(),
        }
    }

    /// Utilisation, measured over the simulated time that has passed since the window opened,
    /// with every resource's work up to now: exact, so never above 1 and never clamped.
    fn utilisation(&self) -> Utilisation {
        let now = self.now;
        let elapsed = now.since(self.meter.util_start).0;
        let frac = |busy: u64| {
            if elapsed == 0 {
                0.0
            } else {
                busy as f64 / elapsed as f64
            }
        };
        let die_busy = |d: &Die| d.busy_ns - d.busy_until.since(now).0;
        Utilisation {
            link_read: frac(self.link[0].busy_by(now)),
            link_write: frac(self.link[usize::from(!self.p.half_duplex)].busy_by(now)),
            controller: frac(self.controller_busy_ns + self.background.busy_ns),
            channels: self.channels.iter().map(|c| frac(c.busy_by(now))).collect(),
            dies: self.dies.iter().map(|d| frac(die_busy(d))).collect(),
        }
    }

    /// Each stream's figures; a single closed stream's are the run's.
    fn stream_results(
        &self,
        window: f64,
        whole: &LatencySummary,
        (reads, writes): (&Option<LatencySummary>, &Option<LatencySummary>),
    ) -> Vec<StreamResult> {
        let m = &self.meter;
        let per_s = |n: u64| n as f64 * 1e9 / window;
        if m.streams.is_empty() {
            return vec![StreamResult {
                iops: per_s(m.hist.count()),
                bw_mb_s: m.bytes as f64 * 1e3 / window,
                offered_iops: None,
                latency: whole.clone(),
                read_latency: reads.clone(),
                write_latency: writes.clone(),
                measured_ios: m.hist.count(),
                saturated: false,
                anatomy: m.anatomy.summary(),
            }];
        }
        self.streams
            .iter()
            .map(|s| &s.params)
            .zip(&m.streams)
            .map(|(p, sm)| {
                let done = sm.hist.count();
                let behind = sm.arrivals.saturating_sub(done) as f64;
                let open = p.rate.is_some();
                let latency = LatencySummary::from_histogram(&sm.hist);
                let both = p.read_percent > 0 && p.read_percent < 100;
                let (read_latency, write_latency) = by_direction(
                    &latency,
                    p.read_percent > 0,
                    both,
                    &sm.read_hist,
                    &sm.write_hist,
                );
                StreamResult {
                    iops: per_s(done),
                    bw_mb_s: sm.bytes as f64 * 1e3 / window,
                    offered_iops: match p.rate {
                        Some(Arrivals::Rate(gap_ns, _)) => Some(1e9 / gap_ns),
                        _ => None,
                    },
                    latency,
                    read_latency,
                    write_latency,
                    measured_ios: done,
                    anatomy: sm.anatomy.summary(),
                    saturated: open
                        && (m.backlog_full || behind > SATURATION_SHARE * sm.arrivals as f64),
                }
            })
            .collect()
    }

    /// The closed-loop streams' depths added up.
    fn closed_depth(&self) -> u32 {
        self.streams
            .iter()
            .filter(|s| s.params.rate.is_none())
            .map(|s| s.params.iodepth)
            .sum()
    }

    /// Requests in the system averaged over the window: the closed streams' depths, and the
    /// open-loop requests' count integrated over time.
    fn mean_in_system(&self) -> f64 {
        let m = &self.meter;
        let closed = self.closed_depth();
        let elapsed = self.now.since(m.window_start).0;
        let open = if elapsed == 0 {
            0.0
        } else {
            let tail = u128::from(m.in_system) * u128::from(self.now.since(m.in_system_since).0);
            (m.in_system_area + tail) as f64 / elapsed as f64
        };
        f64::from(closed) + open
    }

    /// How long the oldest host request still in the system has been there (zero when none
    /// is): a request at the window's end may have waited longer than any that completed.
    fn oldest_in_system(&self) -> Nanos {
        let age = |s: &Slot| self.now.since(s.submitted);
        let host = self.slots.iter().enumerate().filter(|(_, s)| !s.prefetch);
        if self.free_slots.is_empty() {
            // Every host slot holds a request (a closed loop, or an open one at its peak).
            return host.map(|(_, s)| age(s)).max().unwrap_or(Nanos::ZERO);
        }
        let mut free = vec![false; self.slots.len()];
        for &slot in &self.free_slots {
            free[slot as usize] = true;
        }
        host.filter(|(i, _)| !free[*i])
            .map(|(_, s)| age(s))
            .max()
            .unwrap_or(Nanos::ZERO)
    }

    /// The power budget's die slots, when they are fewer than the dies (the budget binds).
    fn power_slots(&self) -> Option<u32> {
        (self.p.die_slots < self.p.dies).then_some(self.p.die_slots)
    }

    /// The run's power: its average from the utilisation, and the most it can have drawn.
    fn power_reading(&self, u: &Utilisation) -> PowerReading {
        let peak_dies = match self.power_slots() {
            Some(_) => self.meter.peak_active_dies,
            None => self.p.dies,
        };
        PowerReading {
            average_w: power::average_w(&self.p.drive, u),
            peak_w: power::peak_w(&self.p.drive, peak_dies),
            budget_w: self.p.budget_w,
        }
    }

    /// Relative standard error of throughput from batch means.
    fn batch_noise(&self) -> f64 {
        let marks = &self.meter.batch_marks;
        if marks.len() < 3 {
            return 0.0;
        }
        let mut prev = self.meter.window_start;
        let rates: Vec<f64> = marks
            .iter()
            .map(|&t| {
                let r = 1.0 / t.since(prev).0.max(1) as f64;
                prev = t;
                r
            })
            .collect();
        let n = rates.len() as f64;
        let mean = rates.iter().sum::<f64>() / n;
        let var = rates.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (var / n).sqrt() / mean
    }
}
