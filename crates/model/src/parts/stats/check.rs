//! A run's result checks itself before anyone sees it.
//!
//! Every figure the engine hands out passes [`check`]: a result that fails it is an error
//! ([`Unsound`]) naming what failed, never a figure on a screen or in a file. It checks what
//! must hold of any run, whatever the drive and the workload:
//! - every number is finite, and every busy fraction lies in 0..=1;
//! - a finished run measured at least one request, over time above zero, and was busy for
//!   some of it;
//! - a finished run completed the requests it set out to measure, or says why it ended early
//!   ([`EndedEarly`]: the host's backlog, or fio's `runtime`);
//! - Little's law: the measured throughput times the mean latency is the mean number of
//!   requests in the system, within [`LITTLE_TOLERANCE`] plus the requests that straddle the
//!   window's edges;
//! - each direction's anatomy ([`crate::anatomy`]) adds up to its mean latency, within
//!   [`ANATOMY_TOLERANCE_US`].
//!
//! A result still in progress (an estimate) is checked for finite numbers only: its counts
//! are not yet what the run will have. What other computations derive from checked runs (a
//! review's curves, a fill, the drive over time, a fit) passes [`figures`]: finite numbers at
//! or above zero, named when one is not.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{LatencySummary, RunResult};

/// Little's law within this share of the mean number in the system, beyond the edge
/// allowance: the law is exact over a window that starts and ends empty, and a measured
/// window of whole requests differs from it only at its two edges (see [`check`]).
pub const LITTLE_TOLERANCE: f64 = 0.02;

/// A direction's mean anatomy may differ from its mean latency by this much: the latency's
/// mean is whole nanoseconds, rounded down, and the anatomy's is a float sum of its parts.
pub const ANATOMY_TOLERANCE_US: f64 = 0.002;

/// Why a run ended before it completed the requests it set out to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndedEarly {
    /// The host held the engine's most waiting requests: the drive could not keep up with
    /// the arrivals, and what was measured until then is the result.
    HostBacklog,
    /// The run's time ran out (fio's `runtime`).
    Runtime,
}

impl fmt::Display for EndedEarly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndedEarly::HostBacklog => {
                "the host's backlog of waiting requests reached its limit (the drive could not \
                 keep up with the arrivals)"
            }
            EndedEarly::Runtime => "its runtime ran out",
        })
    }
}

/// What a result that failed its check got wrong. Data, like the model's other errors: it
/// crosses from a worker to the page as itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Unsound {
    /// A figure is not a finite number at or above zero.
    NotFinite { what: String, value: f64 },
    /// A share (a busy fraction, a share of reads) outside 0..=1.
    NotAShare { what: String, value: f64 },
    /// A finished run that measured no request.
    NothingMeasured {
        planned: u64,
        ended_early: Option<EndedEarly>,
    },
    /// Requests were measured over no time, or with the drive never busy.
    NoTime {
        measured: u64,
        elapsed_ns: u64,
        busy_ns: u64,
    },
    /// Fewer requests completed than the run set out to measure, with no reason given.
    Unfinished { measured: u64, planned: u64 },
    /// A direction's parts do not add up to its mean latency.
    AnatomyMismatch {
        direction: String,
        parts_us: f64,
        latency_us: f64,
    },
    /// Throughput times mean latency is not the mean number in the system.
    LittlesLaw {
        iops: f64,
        mean_us: f64,
        mean_in_system: f64,
        allowed: f64,
    },
}

impl fmt::Display for Unsound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the model's result failed its check: ")?;
        match self {
            Unsound::NotFinite { what, value } => {
                write!(f, "{what} is {value}, not a finite number at or above zero")
            }
            Unsound::NotAShare { what, value } => {
                write!(f, "{what} is {value}, not a share between 0 and 1")
            }
            Unsound::NothingMeasured {
                planned,
                ended_early,
            } => {
                write!(f, "none of its {planned} requests completed")?;
                match ended_early {
                    Some(why) => write!(f, " before the run ended: {why}"),
                    None => Ok(()),
                }
            }
            Unsound::NoTime {
                measured,
                elapsed_ns,
                busy_ns,
            } => write!(
                f,
                "{measured} requests completed in {elapsed_ns} ns, {busy_ns} ns of it busy \
                 (both must be above zero)"
            ),
            Unsound::Unfinished { measured, planned } => write!(
                f,
                "{measured} of its {planned} requests completed, and nothing says why the rest \
                 did not"
            ),
            Unsound::AnatomyMismatch {
                direction,
                parts_us,
                latency_us,
            } => write!(
                f,
                "the {direction}' parts add up to {parts_us:.3} µs, but their mean latency is \
                 {latency_us:.3} µs"
            ),
            Unsound::LittlesLaw {
                iops,
                mean_us,
                mean_in_system,
                allowed,
            } => write!(
                f,
                "Little's law: {iops:.1} IOPS times a mean latency of {mean_us:.3} µs is {:.3} \
                 requests in the system, but {mean_in_system:.3} were measured (allowed: \
                 within {allowed:.3})",
                iops * mean_us * 1e-6
            ),
        }
    }
}

impl std::error::Error for Unsound {}

/// Checks a result (see the module's documentation).
pub fn check(r: &RunResult) -> Result<(), Unsound> {
    finite(r)?;
    busy_fractions(r)?;
    anatomy_adds_up(r)?;
    if !r.finished {
        return Ok(());
    }
    if r.measured_ios == 0 {
        return Err(Unsound::NothingMeasured {
            planned: r.planned_ios,
            ended_early: r.ended_early,
        });
    }
    if r.measured_ns == 0 || r.busy_ns == 0 {
        return Err(Unsound::NoTime {
            measured: r.measured_ios,
            elapsed_ns: r.measured_ns,
            busy_ns: r.busy_ns,
        });
    }
    if r.measured_ios < r.planned_ios && r.ended_early.is_none() {
        return Err(Unsound::Unfinished {
            measured: r.measured_ios,
            planned: r.planned_ios,
        });
    }
    littles_law(r)
}

/// Little's law, L = X W, with an allowance for the requests at the window's edges: the
/// window opens with requests already in the system (their whole latency counts in W, though
/// part of it fell before the window) and closes with requests still in it (in L, not in W).
/// Over a window of T the two sides differ by at most the requests at the two edges times the
/// longest time any of them spent on the wrong side of an edge: no more than the longest
/// latency of a completed request, or the age of the oldest request still in the system. So
/// the allowance is `in_system_at_edges` times the longer of the two, over T. A run below the
/// drive's rate starts and ends its window nearly empty, and the tests find the two sides
/// within 0.01% there; a saturated run's backlog, or a slow job starved beside a fast one,
/// leaves old requests at the end, and the allowance grows with their age, as the law does.
fn littles_law(r: &RunResult) -> Result<(), Unsound> {
    let l = r.mean_in_system;
    let xw = r.iops * r.latency.mean_us * 1e-6;
    let longest_ns = (r.latency.max_us * 1e3).max(r.oldest_in_system_ns as f64);
    let edges = r.in_system_at_edges as f64 * longest_ns / r.measured_ns as f64;
    let allowed = LITTLE_TOLERANCE * l + edges;
    if (xw - l).abs() <= allowed {
        return Ok(());
    }
    Err(Unsound::LittlesLaw {
        iops: r.iops,
        mean_us: r.latency.mean_us,
        mean_in_system: l,
        allowed,
    })
}

/// Each direction's mean anatomy is its mean latency, in parts.
fn anatomy_adds_up(r: &RunResult) -> Result<(), Unsound> {
    let directions = [
        ("reads", r.anatomy.reads.as_ref(), r.read_latency.as_ref()),
        (
            "writes",
            r.anatomy.writes.as_ref(),
            r.write_latency.as_ref(),
        ),
    ];
    for (direction, anatomy, latency) in directions {
        let (Some(a), Some(l)) = (anatomy, latency) else {
            continue;
        };
        if (a.mean.latency_us - l.mean_us).abs() > ANATOMY_TOLERANCE_US {
            return Err(Unsound::AnatomyMismatch {
                direction: direction.to_string(),
                parts_us: a.mean.latency_us,
                latency_us: l.mean_us,
            });
        }
    }
    Ok(())
}

fn finite(r: &RunResult) -> Result<(), Unsound> {
    let whole = [
        (Figure::named("IOPS"), r.iops),
        (Figure::named("MB/s"), r.bw_mb_s),
        (
            Figure::named("the mean number in the system"),
            r.mean_in_system,
        ),
        (Figure::named("the average power"), r.power.average_w),
        (Figure::named("the peak power"), r.power.peak_w),
        (
            Figure::named("the write amplification"),
            r.write_amplification,
        ),
        (Figure::named("the IOPS noise"), r.iops_rel_noise),
    ];
    let directions = [
        (&ALL, Some(&r.latency)),
        (&READS, r.read_latency.as_ref()),
        (&WRITES, r.write_latency.as_ref()),
    ]
    .into_iter()
    .flat_map(|(names, l)| l.map(|l| latencies(names, None, l)))
    .flatten();
    let streams = r.streams.iter().enumerate().flat_map(|(i, s)| {
        [
            (Figure::numbered("stream #'s IOPS", i), s.iops),
            (Figure::numbered("stream #'s MB/s", i), s.bw_mb_s),
        ]
        .into_iter()
        .chain(latencies(&STREAM, Some(i), &s.latency))
    });
    let series = r.series.iter().enumerate().flat_map(|(i, p)| {
        [
            (Figure::numbered("the IOPS in time bucket #", i), p.iops),
            (Figure::numbered("the MB/s in time bucket #", i), p.mb_s),
            (
                Figure::numbered("the mean latency in time bucket #", i),
                p.lat_mean_us,
            ),
            (
                Figure::numbered("the number in the system in time bucket #", i),
                p.mean_in_system,
            ),
        ]
    });
    figures(
        whole
            .into_iter()
            .chain(directions)
            .chain(streams)
            .chain(series),
    )
}

/// A figure's name, put into words only when the figure fails its check (a check that passes
/// makes no text): what it is, and which one of several it is (a stream, a die, a point of a
/// curve), counted from 1 in place of the `#` in `what`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figure {
    what: Cow<'static, str>,
    number: Option<usize>,
}

impl Figure {
    pub fn named(what: impl Into<Cow<'static, str>>) -> Figure {
        Figure {
            what: what.into(),
            number: None,
        }
    }

    /// The `index`th (from 0) of several: `#` in `what` becomes its number, from 1.
    pub fn numbered(what: impl Into<Cow<'static, str>>, index: usize) -> Figure {
        Figure {
            what: what.into(),
            number: Some(index + 1),
        }
    }
}

impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.number {
            Some(n) => f.write_str(&self.what.replacen('#', &n.to_string(), 1)),
            None => f.write_str(&self.what),
        }
    }
}

/// Checks figures a computation derives from checked runs (a review's curve and score, a
/// fill, a fit's errors): each must be a finite number at or above zero; the first that is
/// not is named.
pub fn figures(named: impl IntoIterator<Item = (Figure, f64)>) -> Result<(), Unsound> {
    match named
        .into_iter()
        .find(|(_, v)| !(v.is_finite() && *v >= 0.0))
    {
        Some((what, value)) => Err(Unsound::NotFinite {
            what: what.to_string(),
            value,
        }),
        None => Ok(()),
    }
}

/// The names of a latency summary's six figures, for each whose they are.
type LatencyNames = [&'static str; 6];
const ALL: LatencyNames = [
    "the mean latency",
    "the p50 latency",
    "the p90 latency",
    "the p99 latency",
    "the p99.9 latency",
    "the longest latency",
];
const READS: LatencyNames = [
    "the reads' mean latency",
    "the reads' p50 latency",
    "the reads' p90 latency",
    "the reads' p99 latency",
    "the reads' p99.9 latency",
    "the reads' longest latency",
];
const WRITES: LatencyNames = [
    "the writes' mean latency",
    "the writes' p50 latency",
    "the writes' p90 latency",
    "the writes' p99 latency",
    "the writes' p99.9 latency",
    "the writes' longest latency",
];
const STREAM: LatencyNames = [
    "stream #'s mean latency",
    "stream #'s p50 latency",
    "stream #'s p90 latency",
    "stream #'s p99 latency",
    "stream #'s p99.9 latency",
    "stream #'s longest latency",
];

/// A latency summary's figures, named by `names` (the `index`th of several, if numbered).
fn latencies(
    names: &'static LatencyNames,
    index: Option<usize>,
    l: &LatencySummary,
) -> impl Iterator<Item = (Figure, f64)> {
    let values = [l.mean_us, l.p50_us, l.p90_us, l.p99_us, l.p999_us, l.max_us];
    names.iter().zip(values).map(move |(&name, v)| {
        let figure = match index {
            Some(i) => Figure::numbered(name, i),
            None => Figure::named(name),
        };
        (figure, v)
    })
}

fn busy_fractions(r: &RunResult) -> Result<(), Unsound> {
    let u = &r.utilisation;
    let named = [
        (
            Figure::named("the host link's reads' busy time"),
            u.link_read,
        ),
        (
            Figure::named("the host link's writes' busy time"),
            u.link_write,
        ),
        (Figure::named("the controller's busy time"), u.controller),
    ];
    let channels = u.channels.iter().enumerate();
    let channels = channels.map(|(i, &v)| (Figure::numbered("channel #'s busy time", i), v));
    let dies = u.dies.iter().enumerate();
    let dies = dies.map(|(i, &v)| (Figure::numbered("die #'s busy time", i), v));
    for (what, value) in named.into_iter().chain(channels).chain(dies) {
        if !value.is_finite() {
            return Err(Unsound::NotFinite {
                what: what.to_string(),
                value,
            });
        }
        if !(0.0..=1.0).contains(&value) {
            return Err(Unsound::NotAShare {
                what: what.to_string(),
                value,
            });
        }
    }
    Ok(())
}
