//! The drive-over-time charts (whole-drive fill, bursts, torture): one linear chart of MB/s
//! against a linear x (GB written, burst number or minutes) with model curves, horizontal
//! reference levels (a model rate, or a published bound) and single model values as dots.
//!
//! One draw function serves all three charts, because they differ only in their data; the
//! frame, axes, curves and levels are the shared pieces of [`paint`] and [`axis`].

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis;
use super::axis::Axis;
use super::paint::{self, DrawResult};
use super::style::ChartStyle;
use super::{Curve, Dash, SeriesColour, Stamp};
use crate::ui::pure::format;

/// Tick labels on each axis (fewer when narrow).
const TICKS: usize = 5;
const TICKS_NARROW: usize = 3;
/// The value axis of every drive-over-time chart.
pub const Y_TITLE: &str = "write speed (MB/s)";

/// What a horizontal level is: a model rate in a series colour, or a published bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelKind {
    Model(SeriesColour),
    Published,
}

/// A horizontal reference line.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub y_mb_s: f64,
    pub kind: LevelKind,
    /// What it is, for the legend and the text alternative.
    pub label: String,
}

/// A single model value drawn as a dot.
#[derive(Clone, Debug, PartialEq)]
pub struct Dot {
    pub at: (f64, f64),
    pub colour: SeriesColour,
    pub label: String,
}

/// Everything one drive-over-time chart draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeChartData {
    pub x_title: &'static str,
    /// The value axis' title; `None`: [`Y_TITLE`].
    pub y_title: Option<&'static str>,
    /// The x axis counts whole things (bursts): ticks only at whole numbers.
    pub x_whole: bool,
    /// Model curves; x in the chart's unit, y in MB/s.
    pub curves: Vec<Curve>,
    pub levels: Vec<Level>,
    pub dots: Vec<Dot>,
    pub stamp: Stamp,
}

impl TimeChartData {
    /// Whether there is nothing to draw yet.
    pub fn is_empty(&self) -> bool {
        self.curves.iter().all(|c| c.points.is_empty()) && self.dots.is_empty()
    }
}

/// An x tick: whole numbers grouped, others with one decimal.
fn x_tick(v: f64) -> String {
    if v.fract() == 0.0 {
        format::grouped(v)
    } else {
        format!("{v:.1}")
    }
}

/// An axis from 0 to one past the largest of `values` with ticks at whole numbers, about
/// `count` of them.
fn whole_ticks(values: impl Iterator<Item = f64>, count: usize) -> (f64, Vec<f64>) {
    let max = values.filter(|v| v.is_finite()).fold(0.0, f64::max);
    let top = (max.min(MAX_WHOLE) + 1.0).ceil();
    let step = (top / count.max(1) as f64).ceil().max(1.0);
    let ticks = (0..)
        .map(|i| f64::from(i) * step)
        .take_while(|t| *t <= top)
        .collect();
    (top, ticks)
}

/// Largest whole-number axis (far beyond any burst count, and small enough to count in).
const MAX_WHOLE: f64 = 1e6;

fn finite((x, y): (f64, f64)) -> Option<(f64, f64)> {
    (x.is_finite() && y.is_finite()).then_some((x, y))
}

/// Draws the chart on `root`.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &TimeChartData,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let ticks = if style.narrow() { TICKS_NARROW } else { TICKS };
    let points = || {
        data.curves
            .iter()
            .flat_map(|c| c.points.iter().copied())
            .chain(data.dots.iter().map(|d| d.at))
    };
    let (x_top, x_ticks) = if data.x_whole {
        whole_ticks(points().map(|p| p.0), ticks)
    } else {
        axis::data_axis(points().map(|p| p.0), ticks)
    };
    let (y_top, y_ticks) = axis::linear_axis(
        points()
            .map(|p| p.1)
            .chain(data.levels.iter().map(|l| l.y_mb_s)),
        ticks,
    );
    let y_label = |v: f64| format::grouped(v);
    let Some(mut chart) = paint::frame(
        root,
        style,
        Axis {
            lo: 0.0,
            hi: x_top,
            ticks: x_ticks,
            title: data.x_title,
            label: &x_tick,
        },
        Axis {
            lo: 0.0,
            hi: y_top,
            ticks: y_ticks,
            title: data.y_title.unwrap_or(Y_TITLE),
            label: &y_label,
        },
    )?
    else {
        return Ok(());
    };
    for l in data.levels.iter().filter(|l| l.y_mb_s.is_finite()) {
        let (colour, dash) = match l.kind {
            LevelKind::Model(c) => (style.palette.colour(c), Dash::Dotted),
            LevelKind::Published => (style.palette.measured, Dash::Dashed),
        };
        paint::level(&mut chart, style, l.y_mb_s, (0.0, x_top), colour, dash)?;
    }
    paint::curves(&mut chart, style, &data.curves, &finite)?;
    for d in &data.dots {
        if let Some(at) = finite(d.at) {
            paint::dot(&mut chart, style, at, style.palette.colour(d.colour))?;
        }
    }
    if data.is_empty() {
        paint::centre_note(root, style, "computing the model…")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::recording::Recorder;
    use super::*;

    fn data() -> TimeChartData {
        TimeChartData {
            y_title: None,
            x_title: "GB written",
            x_whole: false,
            curves: vec![Curve {
                label: "into the SLC cache".into(),
                colour: SeriesColour::Series(0),
                emphasis: true,
                dash: Dash::Solid,
                points: vec![(0.0, 3000.0), (100.0, 3000.0)],
            }],
            levels: vec![Level {
                y_mb_s: 1000.0,
                kind: LevelKind::Published,
                label: "published".into(),
            }],
            dots: vec![Dot {
                at: (100.0, 500.0),
                colour: SeriesColour::Series(1),
                label: "after".into(),
            }],
            stamp: Stamp::default(),
        }
    }

    #[test]
    fn curves_levels_and_dots_are_drawn_with_their_axes() {
        let style = ChartStyle::default();
        let rec = Recorder::draw(640, 360, |root| draw(root, &data(), &style));
        for t in ["GB written", Y_TITLE, "3,000", "100"] {
            assert!(rec.has_text(t), "missing {t}: {:?}", rec.texts);
        }
        assert!(rec.paths_in(style.palette.series[0]) >= 1, "the curve");
        assert!(
            rec.paths_in(style.palette.measured) >= 1,
            "the published level"
        );
        assert!(!rec.has_text("computing the model…"));
    }

    #[test]
    fn an_empty_chart_says_it_is_computing_and_wild_values_do_not_panic() {
        let rec = Recorder::draw(320, 200, |root| {
            draw(root, &TimeChartData::default(), &ChartStyle::default())
        });
        assert!(rec.has_text("computing the model…"));
        let mut wild = data();
        wild.curves[0].points = vec![(f64::NAN, 1.0), (1.0, f64::INFINITY), (0.5, f64::MAX)];
        wild.levels[0].y_mb_s = f64::NAN;
        Recorder::draw(200, 120, |root| draw(root, &wild, &ChartStyle::default()));
        wild.x_whole = true;
        Recorder::draw(200, 120, |root| draw(root, &wild, &ChartStyle::default()));
    }

    #[test]
    fn a_whole_number_axis_has_whole_ticks() {
        assert_eq!(
            whole_ticks([1.0, 6.0].into_iter(), 5),
            (7.0, vec![0.0, 2.0, 4.0, 6.0])
        );
        assert_eq!(whole_ticks(std::iter::empty(), 5), (1.0, vec![0.0, 1.0]));
        let (top, ticks) = whole_ticks([f64::MAX].into_iter(), 5);
        assert!(top.is_finite() && ticks.len() <= 6);
    }
}
