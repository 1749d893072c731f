//! Where the mean request's time goes across the sweep: for the reader's own drive, at each
//! queue depth (x log2, as the other depth charts) or each offered load (x log10, as the rate
//! view's charts), the mean read's latency split into the parts' colours ([`PartColour`]) and
//! stacked bottom to top in the order a request meets them; writes in a panel of their own
//! below when the workload writes.
//!
//! What always holds:
//! - a stack's top is its direction's mean latency (the parts add up to it but for `f32`
//!   rounding, [`parallelism_work::anatomy`]), so the chart reads as the mean latency curve
//!   with what it is made of underneath; the y axis is linear in µs, since only a linear axis
//!   lets band heights add up;
//! - only finite values are drawn: a point without anatomy, or with a part that is not finite,
//!   is left out (a stack with a hole would misstate its top);
//! - at most eight bands, Okabe and Ito's colours as the readout's bars, named in the figure's
//!   text legend, so no band is known by its colour alone.
//!
//! Why two panels rather than one axis or a reads/writes choice: a write's latency lives on
//! another scale than a read's (a fraction of it while the write buffer has room, many times
//! it once the buffer waits for programs: 19 µs against 94 µs at QD1, 17 ms against 431 µs at
//! QD256, the 480 GB E18DC with 70% reads in steady state), so one axis would flatten one of
//! them, and a choice would hide the one panel that explains the other (reads waiting behind
//! the writes' work); each panel has its own value axis and both the same x axis, so a depth
//! lines up across them.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis::{self, Axis};
use super::iodepth_chart::octave_axis;
use super::load_chart::{offered_range, unit_label, x_title};
use super::paint::{self, Chart2d, DrawResult};
use super::style::{ChartStyle, PART_COLOURS};
use super::{Stamp, Unit};
use crate::model::anatomy::Part;
use crate::ui::pure::anatomy::{Direction, PartColour, PartsUs, PointAnatomy};
use crate::ui::pure::format;

/// Value-axis ticks of a panel that has the chart to itself, and of one of two.
const Y_TICKS: usize = 5;
const Y_TICKS_SHARED: usize = 3;
/// The line between two bands, in CSS pixels: thin, in the background's colour, so
/// neighbouring bands read apart where their colours are close (two blues).
const SEAM_CSS: f64 = 1.0;

/// The sweep's axis: queue depth, or offered load in the chart's unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AnatomyAxis {
    Depth {
        /// The deepest queue depth on the axis.
        max_iodepth: u32,
        current_iodepth: u32,
    },
    Offered {
        unit: Unit,
        /// The offered loads the sweep spans, in `unit`.
        x_range: (f64, f64),
        /// The current rate, in `unit`.
        current_x: f64,
    },
}

impl AnatomyAxis {
    /// Where `x` (a depth, or an offered load) sits on the chart's log axis.
    fn place(self, x: f64) -> Option<f64> {
        match self {
            AnatomyAxis::Depth { .. } => (x >= 1.0 && x.is_finite()).then(|| x.log2()),
            AnatomyAxis::Offered { .. } => (x > 0.0 && x.is_finite()).then(|| x.log10()),
        }
    }

    /// Where the current depth or rate is.
    fn current(self) -> f64 {
        match self {
            AnatomyAxis::Depth {
                current_iodepth, ..
            } => f64::from(current_iodepth.max(1)).log2(),
            AnatomyAxis::Offered { current_x, .. } => current_x.max(f64::MIN_POSITIVE).log10(),
        }
    }

    /// A place on the sweep in words: `queue depth 32`, `20.0k IOPS offered`.
    pub fn words(self, x: f64) -> String {
        match self {
            AnatomyAxis::Depth { .. } => format!("queue depth {x}"),
            AnatomyAxis::Offered { unit, .. } => format!("{} offered", amount(unit, x)),
        }
    }
}

/// An amount of `unit`, in words.
fn amount(unit: Unit, x: f64) -> String {
    match unit {
        Unit::Iops => format::iops(x),
        Unit::MbS => format::mb_s(x),
    }
}

impl Default for AnatomyAxis {
    fn default() -> Self {
        AnatomyAxis::Depth {
            max_iodepth: 1,
            current_iodepth: 1,
        }
    }
}

/// One point of the sweep: the mean request's µs in each colour, in [`PartColour::ALL`]'s
/// order (bottom to top).
#[derive(Clone, Debug, PartialEq)]
pub struct Stack {
    /// The queue depth, or the offered load in the axis's unit.
    pub x: f64,
    pub bands_us: [f64; PART_COLOURS],
}

impl Stack {
    /// The mean request's parts, added up colour by colour; `None` if any is not finite.
    pub fn of(x: f64, parts: &PartsUs) -> Option<Stack> {
        let mut bands_us = [0.0; PART_COLOURS];
        for part in Part::ALL {
            bands_us[PartColour::of(part).index()] += f64::from(parts.part_us(part));
        }
        (x.is_finite() && bands_us.iter().all(|us| us.is_finite())).then_some(Stack { x, bands_us })
    }

    /// The stack's top: the mean latency.
    pub fn top_us(&self) -> f64 {
        self.bands_us.iter().sum()
    }
}

/// One direction's stacks, in increasing x.
#[derive(Clone, Debug, PartialEq)]
pub struct StackPanel {
    pub direction: Direction,
    pub stacks: Vec<Stack>,
}

/// Everything the chart draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AnatomyChartData {
    pub axis: AnatomyAxis,
    /// The drive the chart is of (the reader's own), as the legend names it.
    pub drive: String,
    /// Reads first, then writes; only the directions some point has.
    pub panels: Vec<StackPanel>,
    pub stamp: Stamp,
}

impl AnatomyChartData {
    /// The chart of `points` (x, and the point's anatomy) on `axis`.
    pub fn of<'a>(
        axis: AnatomyAxis,
        drive: String,
        points: impl Iterator<Item = (f64, &'a PointAnatomy)> + Clone,
    ) -> AnatomyChartData {
        let panels = [Direction::Reads, Direction::Writes]
            .into_iter()
            .map(|direction| StackPanel {
                direction,
                stacks: points
                    .clone()
                    .filter_map(|(x, a)| {
                        let parts = match direction {
                            Direction::Reads => a.reads,
                            Direction::Writes => a.writes,
                        }?;
                        Stack::of(x, &parts.mean)
                    })
                    .collect(),
            })
            .filter(|p| !p.stacks.is_empty())
            .collect();
        AnatomyChartData {
            axis,
            drive,
            panels,
            stamp: Stamp::default(),
        }
    }

    /// The colours some band has time in, bottom to top (the legend's entries).
    pub fn colours(&self) -> Vec<PartColour> {
        PartColour::ALL
            .into_iter()
            .filter(|c| {
                self.panels
                    .iter()
                    .flat_map(|p| &p.stacks)
                    .any(|s| s.bands_us[c.index()] > 0.0)
            })
            .collect()
    }

    /// The chart in words (its canvas's text alternative): per direction, the first and the
    /// last point's mean latency and its colours' µs.
    pub fn describe(&self, title: &str) -> String {
        let panels: Vec<String> = self
            .panels
            .iter()
            .filter_map(|p| {
                let (first, last) = (p.stacks.first()?, p.stacks.last()?);
                Some(format!(
                    "{}: {}; {}",
                    p.direction.heading(),
                    self.stack_words(p.direction, first),
                    self.stack_words(p.direction, last)
                ))
            })
            .collect();
        if panels.is_empty() {
            return format!("{title}: the model is still computing.");
        }
        format!(
            "{title}, {} (model results, mean request). {}.",
            self.drive,
            panels.join(". ")
        )
    }

    /// `at queue depth 1 the mean read takes 80 µs: the host 5.0 µs, …`.
    fn stack_words(&self, d: Direction, s: &Stack) -> String {
        let bands: Vec<String> = PartColour::ALL
            .into_iter()
            .filter(|c| s.bands_us[c.index()] > 0.0)
            .map(|c| {
                format!(
                    "{} {}",
                    c.label(),
                    format::latency_us(s.bands_us[c.index()])
                )
            })
            .collect();
        format!(
            "at {} the mean {} takes {}: {}",
            self.axis.words(s.x),
            d.noun(),
            format::latency_us(s.top_us()),
            bands.join(", ")
        )
    }
}

/// Draws the chart on `root`: a panel per direction, stacked.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &AnatomyChartData,
    style: &ChartStyle,
) -> DrawResult<DB> {
    // Each panel fills its own area (the panels cover the whole canvas): no frame is kept
    // between drawings, since the canvas keeps one frame and this chart has one a panel.
    if data.panels.is_empty() {
        let waiting = StackPanel {
            direction: Direction::Reads,
            stacks: Vec::new(),
        };
        draw_panel(root, data, &waiting, Y_TICKS, style)?;
        return paint::centre_note(root, style, "computing the model…");
    }
    let ticks = if data.panels.len() > 1 {
        Y_TICKS_SHARED
    } else {
        Y_TICKS
    };
    let areas = root.split_evenly((data.panels.len(), 1));
    for (area, panel) in areas.iter().zip(&data.panels) {
        draw_panel(area, data, panel, ticks, style)?;
    }
    Ok(())
}

/// One direction's panel: its axes, its bands and the current depth or rate.
fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &AnatomyChartData,
    panel: &StackPanel,
    y_ticks: usize,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let (y_top, ticks) = axis::linear_axis(panel.stacks.iter().map(Stack::top_us), y_ticks);
    let y_label = |v: f64| format::axis_latency_us(v);
    let y_title = format!("mean {} latency", panel.direction.noun());
    let y = Axis {
        lo: 0.0,
        hi: y_top,
        ticks,
        title: &y_title,
        label: &y_label,
    };
    let offered_label;
    let x = match data.axis {
        AnatomyAxis::Depth { max_iodepth, .. } => octave_axis(max_iodepth, style),
        AnatomyAxis::Offered {
            unit,
            x_range,
            current_x,
        } => {
            let (lo, hi, ticks) = offered_range(x_range, current_x, style);
            offered_label = unit_label(unit);
            Axis {
                lo,
                hi,
                ticks,
                title: x_title(unit),
                label: &offered_label,
            }
        }
    };
    let mut chart = paint::plot_area(area, style, &x, &y, false)?;
    paint::mesh(&mut chart, style, &x, &y)?;
    bands(&mut chart, data.axis, &panel.stacks, style)?;
    paint::guide(&mut chart, style, data.axis.current(), (0.0, y_top))
}

/// The stacked bands, bottom to top, each a filled area from the band below to its top.
fn bands<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    axis: AnatomyAxis,
    stacks: &[Stack],
    style: &ChartStyle,
) -> DrawResult<DB> {
    let placed: Vec<(f64, &Stack)> = stacks
        .iter()
        .filter_map(|s| Some((axis.place(s.x)?, s)))
        .collect();
    let mut below: Vec<f64> = vec![0.0; placed.len()];
    let seam = style
        .palette
        .background
        .stroke_width(style.px(SEAM_CSS) as u32);
    for colour in PartColour::ALL {
        let i = colour.index();
        if placed.iter().all(|(_, s)| s.bands_us[i] <= 0.0) {
            continue;
        }
        let above: Vec<f64> = below
            .iter()
            .zip(&placed)
            .map(|(b, (_, s))| b + s.bands_us[i])
            .collect();
        let top = placed.iter().zip(&above).map(|((x, _), &y)| (*x, y));
        let bottom = placed.iter().zip(&below).rev().map(|((x, _), &y)| (*x, y));
        let outline: Vec<(f64, f64)> = top.clone().chain(bottom).collect();
        chart.draw_series(std::iter::once(Polygon::new(
            outline,
            style.palette.part(colour).filled(),
        )))?;
        chart.draw_series(LineSeries::new(top, seam))?;
        below = above;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::recording::Recorder;
    use super::*;
    use crate::ui::pure::anatomy::DirectionParts;

    /// A breakdown of `parts` (µs each), its latency their sum.
    fn parts(parts: &[(Part, f32)]) -> PartsUs {
        PartsUs::of_parts(parts)
    }

    fn direction(mean: PartsUs) -> Option<DirectionParts> {
        Some(DirectionParts {
            mean,
            p99: mean,
            p999: mean,
        })
    }

    /// Reads of 70 µs at QD1 (5 in the host's stack, 60 sensing, 5 crossing the link); at QD2
    /// 0.1 µs more in the host's queue, 0.2 µs in the stack and 0.3 µs more behind other reads.
    fn sweep() -> Vec<(f64, PointAnatomy)> {
        let qd1 = parts(&[
            (Part::HostStack, 5.0),
            (Part::Sense, 60.0),
            (Part::LinkTransfer, 5.0),
        ]);
        let qd2 = parts(&[
            (Part::HostQueue, 0.1),
            (Part::HostStack, 5.2),
            (Part::Sense, 60.0),
            (Part::BehindReads, 0.3),
            (Part::LinkTransfer, 5.0),
        ]);
        vec![
            (
                1.0,
                PointAnatomy {
                    reads: direction(qd1),
                    writes: None,
                },
            ),
            (
                2.0,
                PointAnatomy {
                    reads: direction(qd2),
                    writes: None,
                },
            ),
        ]
    }

    fn depth_axis() -> AnatomyAxis {
        AnatomyAxis::Depth {
            max_iodepth: 256,
            current_iodepth: 2,
        }
    }

    fn chart(points: &[(f64, PointAnatomy)]) -> AnatomyChartData {
        AnatomyChartData::of(
            depth_axis(),
            "480 GB (8 dies)".into(),
            points.iter().map(|(x, a)| (*x, a)),
        )
    }

    #[test]
    fn a_stack_is_its_parts_added_up_by_colour_and_its_top_the_mean_latency() {
        let data = chart(&sweep());
        assert_eq!(data.panels.len(), 1, "reads alone: no write panel");
        let stacks = &data.panels[0].stacks;
        assert_eq!(stacks.iter().map(|s| s.x).collect::<Vec<_>>(), [1.0, 2.0]);
        let host = f64::from(0.1f32) + f64::from(5.2f32);
        let mut qd2 = [0.0; PART_COLOURS];
        qd2[PartColour::Host.index()] = host;
        qd2[PartColour::FlashRead.index()] = 60.0;
        qd2[PartColour::OtherReads.index()] = f64::from(0.3f32);
        qd2[PartColour::Link.index()] = 5.0;
        assert_eq!(stacks[1].bands_us, qd2);
        for ((_, a), s) in sweep().iter().zip(stacks) {
            let mean = f64::from(a.reads.unwrap().mean.latency_us);
            assert!(
                (s.top_us() - mean).abs() <= mean * f64::from(f32::EPSILON),
                "top {} against mean {mean}",
                s.top_us()
            );
        }
        assert_eq!(
            data.colours(),
            [
                PartColour::Host,
                PartColour::FlashRead,
                PartColour::OtherReads,
                PartColour::Link
            ],
            "bottom to top, as a request meets them"
        );
    }

    #[test]
    fn points_without_anatomy_or_with_a_part_not_finite_are_left_out() {
        let mut points = sweep();
        points.push((4.0, PointAnatomy::default()));
        let mut broken = points[0].1;
        if let Some(r) = broken.reads.as_mut() {
            r.mean.parts_us[Part::Sense as usize] = f32::NAN;
        }
        points.push((8.0, broken));
        points.push((f64::INFINITY, sweep()[0].1));
        let data = chart(&points);
        let xs: Vec<f64> = data.panels[0].stacks.iter().map(|s| s.x).collect();
        assert_eq!(xs, [1.0, 2.0]);
        assert_eq!(chart(&[]).panels, [], "no point, no panel");
    }

    #[test]
    fn writes_get_a_panel_of_their_own_below_the_reads() {
        let mut points = sweep();
        points[1].1.writes = direction(parts(&[(Part::BufferWait, 20.0)]));
        let data = chart(&points);
        let panels: Vec<(Direction, usize)> = data
            .panels
            .iter()
            .map(|p| (p.direction, p.stacks.len()))
            .collect();
        assert_eq!(panels, [(Direction::Reads, 2), (Direction::Writes, 1)]);
        assert_eq!(data.panels[1].stacks[0].top_us(), 20.0);
    }

    #[test]
    fn the_description_names_each_directions_first_and_last_stack_as_the_models() {
        let data = chart(&sweep());
        assert_eq!(
            data.describe("Where the time goes against queue depth"),
            "Where the time goes against queue depth, 480 GB (8 dies) (model results, mean \
             request). Reads: at queue depth 1 the mean read takes 70 µs: the host 5.0 µs, its \
             own flash read 60 µs, the host link 5.0 µs; at queue depth 2 the mean read takes \
             71 µs: the host 5.3 µs, its own flash read 60 µs, behind other reads 0.3 µs, the \
             host link 5.0 µs."
        );
        assert_eq!(chart(&[]).describe("T"), "T: the model is still computing.");
        let offered = AnatomyAxis::Offered {
            unit: Unit::Iops,
            x_range: (1_000.0, 100_000.0),
            current_x: 20_000.0,
        };
        assert_eq!(offered.words(20_000.0), "20.0k IOPS offered");
    }

    #[test]
    fn bands_are_filled_bottom_to_top_in_the_parts_colours_with_the_axes_named() {
        let data = chart(&sweep());
        let style = ChartStyle::default();
        let rec = Recorder::draw(640, 360, |root| draw(root, &data, &style));
        let colours: Vec<PartColour> = data.colours();
        let expected: Vec<(u8, u8, u8)> = colours
            .iter()
            .map(|&c| {
                let rgb = style.palette.part(c);
                (rgb.0, rgb.1, rgb.2)
            })
            .collect();
        assert_eq!(
            rec.fills, expected,
            "one filled band a colour, bottom first"
        );
        for label in [
            "mean read latency",
            "1",
            "256",
            super::super::iodepth_chart::X_TITLE,
        ] {
            assert!(rec.has_text(label), "missing {label}: {:?}", rec.texts);
        }
        assert!(
            rec.paths_in(style.palette.current) >= 1,
            "the dashed line at the current depth"
        );
        assert!(!rec.has_text("computing the model…"));
    }

    #[test]
    fn writes_draw_a_second_panel_and_an_empty_chart_says_it_is_computing() {
        let mut points = sweep();
        points[1].1.writes = direction(parts(&[(Part::BufferWait, 20.0)]));
        let style = ChartStyle::default();
        let rec = Recorder::draw(640, 480, |root| draw(root, &chart(&points), &style));
        assert!(rec.has_text("mean read latency") && rec.has_text("mean write latency"));
        assert_eq!(rec.fills.len(), 4 + 1, "four read bands, one write band");
        let rec = Recorder::draw(320, 200, |root| draw(root, &chart(&[]), &style));
        assert!(rec.has_text("computing the model…"));
        assert!(rec.fills.is_empty());
        let offered = AnatomyChartData {
            axis: AnatomyAxis::Offered {
                unit: Unit::Iops,
                x_range: (1_000.0, 1e6),
                current_x: 1e4,
            },
            ..chart(&[(1e4, sweep()[0].1), (1e5, sweep()[1].1)])
        };
        let rec = Recorder::draw(640, 360, |root| draw(root, &offered, &style));
        assert!(rec.has_text("offered IOPS (log scale)"), "{:?}", rec.texts);
        assert_eq!(rec.fills.len(), 4);
    }
}
