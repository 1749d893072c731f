//! "Where the time goes": a point's anatomy (its requests' latency split into the model's
//! eighteen parts, [`Part`]) as the page shows it: for reads, and for writes when the workload
//! writes, a stacked bar per statistic (the mean request, the p99's and the p99.9's tails), the
//! parts' colours, a sentence naming the largest part of the p99, and every part in words.
//!
//! What always holds:
//! - a bar is its statistic's whole latency: its segments are the parts that took any time,
//!   in the order a request meets them, each as wide as its share (the widths add up to 100%
//!   but for `f32` rounding);
//! - every part is named in text with its microseconds (the table's rows, the bars'
//!   descriptions), however thin its segment, and the parts that took no time are named too;
//! - the 18 parts are drawn in at most [`PartColour::ALL`]'s eight colours, Okabe and Ito's set
//!   (told apart with deuteranopia and protanopia); the parts of one colour are told apart by
//!   a pattern ([`shade`]), so no part is known by its colour alone;
//! - every figure says it is the model's.
//!
//! Why: the latency figures say how long; these say what for, and a tail that leaves the mean
//! behind usually does so for a reason (reads waiting behind programs) the totals cannot show.

use crate::model::anatomy::Part;
use crate::ui::pure::compute::{Fidelity, Point, ESTIMATE_IOS};
use crate::ui::pure::format;

pub use parallelism_work::{DirectionParts, PartsUs, PointAnatomy};

/// A bar's whole width, in percent.
const FULL_PCT: f64 = 100.0;

/// One of the colours the parts are drawn in: a kind of time, the parts a reader would name
/// alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PartColour {
    /// Waiting in the host and its stack.
    Host,
    /// The controller: waiting for it, and its command work.
    Controller,
    /// The request's own flash read: its mapping entry, a read-ahead of its data, its sense.
    FlashRead,
    /// Its die busy reading for other requests.
    OtherReads,
    /// The writes' work: a full write buffer, host programs, garbage collection and the
    /// suspends of either ([`Part::writes_cause`]).
    WritesWork,
    /// Its die's share of the power budget.
    Power,
    /// The NAND channel: waiting for it and crossing it.
    Channel,
    /// The host link: waiting for it and crossing it.
    Link,
}

impl PartColour {
    /// Every colour, in the order a request meets them.
    pub const ALL: [PartColour; 8] = [
        PartColour::Host,
        PartColour::Controller,
        PartColour::FlashRead,
        PartColour::OtherReads,
        PartColour::WritesWork,
        PartColour::Power,
        PartColour::Channel,
        PartColour::Link,
    ];

    /// The colour a part is drawn in.
    pub fn of(part: Part) -> PartColour {
        match part {
            Part::HostQueue | Part::HostStack => PartColour::Host,
            Part::ControllerQueue | Part::Command => PartColour::Controller,
            Part::MappingRead | Part::ReadAhead | Part::Sense | Part::SlcSense => {
                PartColour::FlashRead
            }
            Part::BehindReads => PartColour::OtherReads,
            Part::BufferWait | Part::BehindPrograms | Part::BehindGc | Part::Suspends => {
                PartColour::WritesWork
            }
            Part::PowerWait => PartColour::Power,
            Part::ChannelQueue | Part::ChannelTransfer => PartColour::Channel,
            Part::LinkQueue | Part::LinkTransfer => PartColour::Link,
        }
    }

    /// Its place in [`PartColour::ALL`] (the enum is declared in that order; a test holds it).
    pub fn index(self) -> usize {
        self as usize
    }

    /// What the colour stands for, in the legend's words.
    pub fn label(self) -> &'static str {
        match self {
            PartColour::Host => "the host",
            PartColour::Controller => "the controller",
            PartColour::FlashRead => "its own flash read",
            PartColour::OtherReads => "behind other reads",
            PartColour::WritesWork => "behind the writes' work",
            PartColour::Power => "the power budget",
            PartColour::Channel => "the NAND channel",
            PartColour::Link => "the host link",
        }
    }

    /// The stylesheet's class that paints it (`style/main.css`, `--part-*`).
    pub fn css_class(self) -> &'static str {
        match self {
            PartColour::Host => "part-host",
            PartColour::Controller => "part-controller",
            PartColour::FlashRead => "part-flash-read",
            PartColour::OtherReads => "part-other-reads",
            PartColour::WritesWork => "part-writes-work",
            PartColour::Power => "part-power",
            PartColour::Channel => "part-channel",
            PartColour::Link => "part-link",
        }
    }
}

/// A part's place among its colour's parts (0 for the first a request meets): its pattern,
/// so two neighbours of one colour read apart.
pub fn shade(part: Part) -> usize {
    let colour = PartColour::of(part);
    Part::ALL
        .into_iter()
        .take_while(|&p| p != part)
        .filter(|&p| PartColour::of(p) == colour)
        .count()
}

/// The stylesheet's classes for a part's colour and pattern, e.g. `part-flash-read shade-2`.
pub fn css_classes(part: Part) -> String {
    format!("{} shade-{}", PartColour::of(part).css_class(), shade(part))
}

/// Reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Reads,
    Writes,
}

impl Direction {
    /// A heading: `Reads`.
    pub fn heading(self) -> &'static str {
        match self {
            Direction::Reads => "Reads",
            Direction::Writes => "Writes",
        }
    }

    /// One request of the direction: `read`.
    pub fn noun(self) -> &'static str {
        match self {
            Direction::Reads => "read",
            Direction::Writes => "write",
        }
    }

    /// The requests of the direction: `reads`.
    pub fn plural(self) -> &'static str {
        match self {
            Direction::Reads => "reads",
            Direction::Writes => "writes",
        }
    }
}

/// What a bar stands for: every request, or a tail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Statistic {
    Mean,
    P99,
    P999,
}

impl Statistic {
    /// The bars, top to bottom.
    pub const ALL: [Statistic; 3] = [Statistic::Mean, Statistic::P99, Statistic::P999];

    /// The bar's label: `mean`, `p99`, `p99.9`.
    pub fn label(self) -> &'static str {
        match self {
            Statistic::Mean => "mean",
            Statistic::P99 => "p99",
            Statistic::P999 => "p99.9",
        }
    }

    /// The requests it stands for, in words: `all reads`, `reads at or above the p99`.
    pub fn requests(self, d: Direction) -> String {
        match self {
            Statistic::Mean => format!("all {}", d.plural()),
            tail => format!("{} at or above the {}", d.plural(), tail.label()),
        }
    }

    /// Its breakdown among a direction's.
    pub fn of(self, d: &DirectionParts) -> &PartsUs {
        match self {
            Statistic::Mean => &d.mean,
            Statistic::P99 => &d.p99,
            Statistic::P999 => &d.p999,
        }
    }
}

/// One part's slice of a bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    pub part: Part,
    pub us: f64,
    /// Its share of the bar, in percent.
    pub width_pct: f64,
}

impl Segment {
    /// The segment in words, for a pointer resting on it: `on its own NAND read: 60 µs (86%)`.
    pub fn title(&self) -> String {
        format!(
            "{}: {} ({})",
            self.part.what(),
            format::latency_us(self.us),
            format::percent(self.width_pct / FULL_PCT)
        )
    }
}

/// One statistic's stacked bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub statistic: Statistic,
    pub latency_us: f64,
    /// The parts that took any time, in the order a request meets them.
    pub segments: Vec<Segment>,
    /// The bar in words, its largest parts first (its text equivalent).
    pub described: String,
}

/// One part's row in the table: its microseconds in each statistic.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub part: Part,
    /// In [`Statistic::ALL`]'s order.
    pub us: [f64; 3],
}

/// One direction's bars and table.
#[derive(Clone, Debug, PartialEq)]
pub struct DirectionPanel {
    pub direction: Direction,
    pub bars: Vec<Bar>,
    /// The parts that took time in any of the bars, in the order a request meets them.
    pub rows: Vec<Row>,
    /// The parts that took no time in any of them.
    pub idle: Vec<Part>,
}

/// Everything the panel shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Panel {
    /// The largest part of the p99, in words.
    pub sentence: String,
    /// Reads first, then writes; only those the run had.
    pub directions: Vec<DirectionPanel>,
    /// The colours the bars use, for the legend.
    pub colours: Vec<PartColour>,
}

/// The panel for a point's anatomy, or `None` when the run had no request.
pub fn panel(anatomy: &PointAnatomy) -> Option<Panel> {
    let directions: Vec<DirectionPanel> = [
        (Direction::Reads, anatomy.reads),
        (Direction::Writes, anatomy.writes),
    ]
    .into_iter()
    .filter_map(|(d, parts)| parts.map(|p| direction_panel(d, &p)))
    .collect();
    let first = directions.first()?;
    let p99 = first.bars.iter().find(|b| b.statistic == Statistic::P99)?;
    let sentence = sentence(first.direction, p99);
    let colours = colours(
        directions
            .iter()
            .flat_map(|d| &d.bars)
            .flat_map(|b| &b.segments),
    );
    Some(Panel {
        sentence,
        directions,
        colours,
    })
}

/// The colours `segments` use, in the order a request meets them, for a legend.
pub fn colours<'a>(segments: impl IntoIterator<Item = &'a Segment>) -> Vec<PartColour> {
    let mut used = [false; PartColour::ALL.len()];
    for seg in segments {
        used[PartColour::of(seg.part) as usize] = true;
    }
    PartColour::ALL
        .into_iter()
        .filter(|&c| used[c as usize])
        .collect()
}

fn direction_panel(direction: Direction, parts: &DirectionParts) -> DirectionPanel {
    let bars: Vec<Bar> = Statistic::ALL
        .into_iter()
        .map(|s| bar(direction, s, s.of(parts)))
        .collect();
    let (rows, idle): (Vec<Row>, Vec<Row>) = Part::ALL
        .into_iter()
        .map(|part| Row {
            part,
            us: Statistic::ALL.map(|s| f64::from(s.of(parts).part_us(part))),
        })
        .partition(|r| r.us.iter().any(|&us| us > 0.0));
    DirectionPanel {
        direction,
        bars,
        rows,
        idle: idle.into_iter().map(|r| r.part).collect(),
    }
}

/// One statistic's bar: each part that took time, as its share of the whole.
pub fn bar(direction: Direction, statistic: Statistic, b: &PartsUs) -> Bar {
    let latency_us = f64::from(b.latency_us);
    let segments = segments(b);
    let described = format!(
        "{} of {}, {} on average in the model: {}",
        statistic.label(),
        statistic.requests(direction),
        format::latency_us(latency_us),
        largest_first(&segments)
    );
    Bar {
        statistic,
        latency_us,
        segments,
        described,
    }
}

/// The parts of `b` that took time, in the order a request meets them, each as its share of
/// `b`'s latency.
pub fn segments(b: &PartsUs) -> Vec<Segment> {
    let latency_us = f64::from(b.latency_us);
    Part::ALL
        .into_iter()
        .map(|part| (part, f64::from(b.part_us(part))))
        .filter(|&(_, us)| us > 0.0)
        .map(|(part, us)| Segment {
            part,
            us,
            width_pct: share(us, latency_us) * FULL_PCT,
        })
        .collect()
}

/// Segments in words, largest first: `94% waiting for its die behind host programs (940 µs);
/// 4% on its own NAND read (40 µs)`.
pub fn largest_first(segments: &[Segment]) -> String {
    let mut largest: Vec<&Segment> = segments.iter().collect();
    largest.sort_by(|a, b| b.us.total_cmp(&a.us));
    let parts: Vec<String> = largest
        .iter()
        .map(|seg| {
            format!(
                "{} {} ({})",
                format::percent(seg.width_pct / FULL_PCT),
                seg.part.what(),
                format::latency_us(seg.us)
            )
        })
        .collect();
    parts.join("; ")
}

/// The largest part of the p99's tail in one sentence: `At p99, 71% of a read's time is spent
/// waiting for its die behind host programs (model: …)`.
pub fn sentence(direction: Direction, p99: &Bar) -> String {
    let largest = p99
        .segments
        .iter()
        .fold(None::<&Segment>, |best, s| match best {
            Some(b) if b.us >= s.us => Some(b),
            _ => Some(s),
        });
    let Some(largest) = largest else {
        return format!(
            "The model's {} at or above the p99 took no time to measure.",
            direction.plural()
        );
    };
    format!(
        "At p99, {} of a {}'s time is spent {} (model: the {} at or above the p99 take {} on average).",
        format::percent(largest.width_pct / FULL_PCT),
        direction.noun(),
        largest.part.what(),
        direction.plural(),
        format::latency_us(p99.latency_us),
    )
}

/// One direction of a job's p99 in several-jobs view: its bar with every job running, and
/// alone (`None` for a single job, which never runs alone).
#[derive(Clone, Debug, PartialEq)]
pub struct JobP99 {
    pub direction: Direction,
    pub together: Bar,
    pub alone: Option<Bar>,
    /// The largest part of the p99 together, in words.
    pub sentence: String,
}

/// A job's p99 bars, reads first, then writes; only the directions the job has.
pub fn job_p99(together: &PointAnatomy, alone: Option<&PointAnatomy>) -> Vec<JobP99> {
    let of = |a: &PointAnatomy, d: Direction| match d {
        Direction::Reads => a.reads,
        Direction::Writes => a.writes,
    };
    [Direction::Reads, Direction::Writes]
        .into_iter()
        .filter_map(|d| {
            let with = bar(d, Statistic::P99, &of(together, d)?.p99);
            let without = alone
                .and_then(|a| of(a, d))
                .map(|a| bar(d, Statistic::P99, &a.p99));
            Some(JobP99 {
                direction: d,
                sentence: sentence(d, &with),
                together: with,
                alone: without,
            })
        })
        .collect()
}

/// The least time the table prints as a figure: [`format::latency_us`] gives a tenth of a
/// microsecond, so anything under half of one would print as `0.0 µs`, which reads as none.
const LEAST_SHOWN_US: f64 = 0.05;

/// `us` in the table's words: a dash for no time, `< 0.1 µs` for a sliver, else the latency's.
pub fn table_us(us: f64) -> String {
    if us <= 0.0 {
        format::NO_VALUE.to_string()
    } else if us < LEAST_SHOWN_US {
        "< 0.1 µs".to_string()
    } else {
        format::latency_us(us)
    }
}

/// What the panel shows for a point.
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    /// The model is still running the point.
    Computing,
    /// The point's bars, and how hard it was worked for.
    Panel(Panel, Fidelity),
    /// Nothing: the model gave no result (the readout says why), or the run had no request.
    Nothing,
}

/// What the panel shows for `point` (`None`: no result yet, or none at all when `failed`).
pub fn shown(point: Option<&Point>, failed: bool) -> Shown {
    match point {
        _ if failed => Shown::Nothing,
        None => Shown::Computing,
        Some(p) => {
            panel(&p.anatomy).map_or(Shown::Nothing, |panel| Shown::Panel(panel, p.fidelity))
        }
    }
}

/// What the figures are, beside the panel's heading.
pub fn kind_text(fidelity: Fidelity) -> String {
    match fidelity {
        Fidelity::Estimate => format!(
            "model estimate from {} simulated requests, refining…",
            format::grouped(ESTIMATE_IOS as f64)
        ),
        Fidelity::Full => "model result".to_string(),
    }
}

/// The parts that took no time, in words: `No time was spent waiting in the host, … or
/// waiting for the host link.`
pub fn idle_text(idle: &[Part]) -> Option<String> {
    let (last, rest) = idle.split_last()?;
    let words: Vec<&str> = rest.iter().map(|p| p.what()).collect();
    Some(match words.is_empty() {
        true => format!("No time was spent {}.", last.what()),
        false => format!("No time was spent {} or {}.", words.join(", "), last.what()),
    })
}

fn share(us: f64, whole_us: f64) -> f64 {
    if whole_us > 0.0 {
        us / whole_us
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::anatomy::PARTS;

    /// A breakdown of `parts` (µs each), its latency their sum.
    fn parts(parts: &[(Part, f32)]) -> PartsUs {
        PartsUs::of_parts(parts)
    }

    /// Reads of 70 µs on average (60 sensing, 10 crossing the link); the p99's and p99.9's
    /// tails 1 ms, 940 µs of it behind host programs.
    fn reads() -> DirectionParts {
        let tail = parts(&[(Part::Sense, 60.0), (Part::BehindPrograms, 940.0)]);
        DirectionParts {
            mean: parts(&[(Part::Sense, 60.0), (Part::LinkTransfer, 10.0)]),
            p99: tail,
            p999: tail,
        }
    }

    /// Writes of 25 µs: 5 in the host's stack, 20 waiting for room in the write buffer.
    fn writes() -> DirectionParts {
        let w = parts(&[(Part::HostStack, 5.0), (Part::BufferWait, 20.0)]);
        DirectionParts {
            mean: w,
            p99: w,
            p999: w,
        }
    }

    #[test]
    fn eighteen_parts_take_eight_colours_and_a_pattern_within_each() {
        let colours: std::collections::HashSet<PartColour> =
            Part::ALL.into_iter().map(PartColour::of).collect();
        assert_eq!(colours.len(), PartColour::ALL.len());
        assert_eq!(
            PartColour::ALL.len(),
            8,
            "Okabe and Ito's set has eight colours"
        );
        for part in Part::ALL {
            assert_eq!(
                PartColour::of(part) == PartColour::WritesWork,
                part.writes_cause(),
                "{part}: the writes' work is one colour"
            );
        }
        assert_eq!(shade(Part::HostQueue), 0);
        assert_eq!(shade(Part::HostStack), 1);
        assert_eq!(shade(Part::MappingRead), 0);
        assert_eq!(shade(Part::Sense), 2);
        assert_eq!(shade(Part::SlcSense), 3);
        assert_eq!(shade(Part::BehindReads), 0);
        assert_eq!(css_classes(Part::Sense), "part-flash-read shade-2");
        assert_eq!(css_classes(Part::Suspends), "part-writes-work shade-3");
        for (i, c) in PartColour::ALL.into_iter().enumerate() {
            assert_eq!(c.index(), i, "{c:?}");
        }
        let most = Part::ALL.into_iter().map(shade).max();
        assert_eq!(most, Some(3), "four patterns are enough");
    }

    #[test]
    fn a_bar_is_its_parts_shares_in_the_order_a_request_meets_them() {
        let b = bar(Direction::Reads, Statistic::Mean, &reads().mean);
        assert_eq!(b.latency_us, 70.0);
        let seen: Vec<(Part, f64)> = b.segments.iter().map(|s| (s.part, s.us)).collect();
        assert_eq!(seen, [(Part::Sense, 60.0), (Part::LinkTransfer, 10.0)]);
        assert!((b.segments[0].width_pct - 600.0 / 7.0).abs() < 1e-9);
        assert!((b.segments[1].width_pct - 100.0 / 7.0).abs() < 1e-9);
        assert_eq!(b.segments[0].title(), "on its own NAND read: 60 µs (86%)");
        assert_eq!(
            b.described,
            "mean of all reads, 70 µs on average in the model: 86% on its own NAND read (60 µs); \
             14% crossing the host link (10 µs)"
        );
        let tail = bar(Direction::Reads, Statistic::P99, &reads().p99);
        assert_eq!(
            tail.described,
            "p99 of reads at or above the p99, 1.00 ms on average in the model: 94% waiting for \
             its die behind host programs (940 µs); 6% on its own NAND read (60 µs)"
        );
    }

    #[test]
    fn the_sentence_names_the_largest_part_of_the_p99_as_the_models() {
        let p = panel(&PointAnatomy {
            reads: Some(reads()),
            writes: None,
        })
        .unwrap();
        assert_eq!(
            p.sentence,
            "At p99, 94% of a read's time is spent waiting for its die behind host programs \
             (model: the reads at or above the p99 take 1.00 ms on average)."
        );
        let only_writes = panel(&PointAnatomy {
            reads: None,
            writes: Some(writes()),
        })
        .unwrap();
        assert_eq!(
            only_writes.sentence,
            "At p99, 80% of a write's time is spent waiting for room in the write buffer \
             (model: the writes at or above the p99 take 25 µs on average)."
        );
    }

    #[test]
    fn every_part_is_named_with_its_time_or_as_taking_none() {
        let p = panel(&PointAnatomy {
            reads: Some(reads()),
            writes: Some(writes()),
        })
        .unwrap();
        let directions: Vec<Direction> = p.directions.iter().map(|d| d.direction).collect();
        assert_eq!(directions, [Direction::Reads, Direction::Writes]);
        let r = &p.directions[0];
        assert_eq!(r.bars.len(), 3);
        assert_eq!(
            r.rows,
            [
                Row {
                    part: Part::BehindPrograms,
                    us: [0.0, 940.0, 940.0]
                },
                Row {
                    part: Part::Sense,
                    us: [60.0, 60.0, 60.0]
                },
                Row {
                    part: Part::LinkTransfer,
                    us: [10.0, 0.0, 0.0]
                },
            ]
        );
        assert_eq!(r.rows.len() + r.idle.len(), PARTS);
        let idle = idle_text(&r.idle).unwrap();
        assert!(
            idle.starts_with("No time was spent waiting in the host, in the host's stack, "),
            "{idle}"
        );
        assert!(
            idle.ends_with(", crossing the NAND channel or waiting for the host link."),
            "{idle}"
        );
        assert_eq!(idle_text(&[]), None);
        assert_eq!(
            idle_text(&[Part::PowerWait]).as_deref(),
            Some("No time was spent waiting for its die's share of the power budget.")
        );
        assert_eq!(table_us(0.0), format::NO_VALUE);
        assert_eq!(table_us(940.0), "940 µs");
        assert_eq!(table_us(0.04), "< 0.1 µs");
        assert_eq!(table_us(0.05), "0.1 µs");
        assert_eq!(
            p.colours,
            [
                PartColour::Host,
                PartColour::FlashRead,
                PartColour::WritesWork,
                PartColour::Link
            ],
            "the legend shows the colours the bars use"
        );
    }

    /// Several jobs: a reader's p99 with a writer running waits behind programs; alone it
    /// is its own sense. A writer has a writes' bar only; a single job has no "alone".
    #[test]
    fn a_job_s_p99_is_shown_together_and_alone_for_each_direction_it_has() {
        let own = parts(&[(Part::Sense, 60.0), (Part::LinkTransfer, 10.0)]);
        let alone = PointAnatomy {
            reads: Some(DirectionParts {
                mean: own,
                p99: own,
                p999: own,
            }),
            writes: None,
        };
        let together = PointAnatomy {
            reads: Some(reads()),
            writes: None,
        };
        let bars = job_p99(&together, Some(&alone));
        assert_eq!(bars.len(), 1);
        let reader = &bars[0];
        assert_eq!(reader.direction, Direction::Reads);
        assert_eq!(reader.together.latency_us, 1000.0);
        assert_eq!(reader.alone.as_ref().map(|b| b.latency_us), Some(70.0));
        assert!(
            reader.sentence.starts_with(
                "At p99, 94% of a read's time is spent waiting for its die behind host programs"
            ),
            "{}",
            reader.sentence
        );

        let writer = PointAnatomy {
            reads: None,
            writes: Some(writes()),
        };
        let bars = job_p99(&writer, None);
        assert_eq!(bars.len(), 1);
        assert_eq!(bars[0].direction, Direction::Writes);
        assert_eq!(bars[0].alone, None);
        assert_eq!(job_p99(&PointAnatomy::default(), None), Vec::new());
    }

    #[test]
    fn a_run_without_requests_has_no_panel() {
        assert_eq!(panel(&PointAnatomy::default()), None);
    }

    #[test]
    fn the_panel_computes_until_a_point_arrives_and_says_what_its_figures_are() {
        use crate::model::stats::{Bottleneck, ProgramWait};
        let point = |anatomy, fidelity| Point {
            iops: 1.0,
            mb_s: 1.0,
            mean_us: 70.0,
            p99_us: 1_000.0,
            p999_us: 1_000.0,
            bottleneck: Bottleneck::Dies,
            program_wait: ProgramWait::Rarely,
            watts: 1.0,
            budget_w: None,
            saturated: false,
            in_system: 1.0,
            anatomy,
            fidelity,
        };
        let read = PointAnatomy {
            reads: Some(reads()),
            writes: None,
        };
        assert_eq!(shown(None, false), Shown::Computing);
        assert_eq!(shown(None, true), Shown::Nothing, "the readout says why");
        let estimate = point(read, Fidelity::Estimate);
        assert!(matches!(
            shown(Some(&estimate), false),
            Shown::Panel(_, Fidelity::Estimate)
        ));
        let empty = point(PointAnatomy::default(), Fidelity::Full);
        assert_eq!(shown(Some(&empty), false), Shown::Nothing);
        assert_eq!(kind_text(Fidelity::Full), "model result");
        assert_eq!(
            kind_text(Fidelity::Estimate),
            "model estimate from 1,500 simulated requests, refining…"
        );
    }

    #[test]
    fn the_tails_are_named_by_the_requests_they_hold() {
        assert_eq!(Statistic::Mean.requests(Direction::Writes), "all writes");
        assert_eq!(
            Statistic::P999.requests(Direction::Reads),
            "reads at or above the p99.9"
        );
        let labels = Statistic::ALL.map(Statistic::label);
        assert_eq!(labels, ["mean", "p99", "p99.9"]);
    }
}
