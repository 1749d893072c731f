//! Throughput against queue depth (log2 axis), one curve per compared drive, the current depth
//! marked and the published measurements as diamonds: the chart that shows capacity (dies)
//! turning into performance only once enough requests are in flight.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis;
use super::axis::Axis;
use super::paint::{self, DrawResult};
use super::style::ChartStyle;
use super::{DepthSeries, Measure, Unit};

/// Axis title of the queue-depth axis.
pub const X_TITLE: &str = "queue depth (requests in flight)";
/// Tick labels on the value axis (fewer when narrow).
const Y_TICKS: usize = 5;
const Y_TICKS_NARROW: usize = 4;

/// Everything the queue-depth chart draws: throughput in `unit` against queue depth.
#[derive(Clone, Debug, PartialEq)]
pub struct IodepthChartData {
    pub unit: Measure,
    pub depth: DepthSeries,
}

impl Default for IodepthChartData {
    fn default() -> Self {
        IodepthChartData {
            unit: Measure::Throughput(Unit::Iops),
            depth: DepthSeries::default(),
        }
    }
}

/// The queue-depth axis both depth charts share: octaves from 1 to the series' deepest depth,
/// on a log2 scale.
pub fn depth_axis(depth: &DepthSeries, style: &ChartStyle) -> Axis<'static> {
    octave_axis(depth.max_iodepth, style)
}

/// The queue-depth axis from 1 to `max_iodepth`, in octaves on a log2 scale.
pub fn octave_axis(max_iodepth: u32, style: &ChartStyle) -> Axis<'static> {
    let (hi, ticks) = axis::octave_ticks(max_iodepth, style.narrow());
    Axis {
        lo: 0.0,
        hi,
        ticks,
        title: X_TITLE,
        label: &axis::octave_label,
    }
}

/// Maps (queue depth, value) to chart coordinates; depths below 1 have no place on a log axis.
fn to_chart((iodepth, v): (f64, f64)) -> Option<(f64, f64)> {
    (iodepth >= 1.0 && v.is_finite()).then(|| (iodepth.log2(), v))
}

/// Draws the chart on `root`.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &IodepthChartData,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let values = data
        .depth
        .curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.1))
        .chain(data.depth.markers.iter().map(|m| m.y))
        .chain(super::your_values(&data.depth.yours).map(|p| p.1))
        .chain(data.depth.current.map(|c| c.1));
    let (y_top, y_ticks) = axis::linear_axis(
        values,
        if style.narrow() {
            Y_TICKS_NARROW
        } else {
            Y_TICKS
        },
    );
    let unit = data.unit;
    let y_label = |v: f64| unit.tick(v);
    let Some(mut chart) = paint::frame(
        root,
        style,
        depth_axis(&data.depth, style),
        Axis {
            lo: 0.0,
            hi: y_top,
            ticks: y_ticks,
            title: unit.title(),
            label: &y_label,
        },
    )?
    else {
        return Ok(());
    };
    paint::guide(
        &mut chart,
        style,
        f64::from(data.depth.current_iodepth.max(1)).log2(),
        (0.0, y_top),
    )?;
    paint::curves(&mut chart, style, &data.depth.curves, &to_chart)?;
    paint::markers(&mut chart, style, &data.depth.markers, &to_chart)?;
    paint::yours(&mut chart, style, &data.depth.yours, &to_chart)?;
    if let Some(at) = data.depth.current.and_then(to_chart) {
        paint::current_point(&mut chart, style, at)?;
    }
    if data.depth.curves.iter().all(|c| c.points.is_empty()) {
        paint::centre_note(root, style, "computing the model…")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::recording::Recorder;
    use super::super::{Curve, Dash, Marker, SeriesColour};
    use super::*;

    fn curve(points: Vec<(f64, f64)>) -> Curve {
        Curve {
            label: "480 GB".into(),
            colour: SeriesColour::Series(0),
            emphasis: true,
            dash: Dash::Solid,
            points,
        }
    }

    #[test]
    fn a_curve_marker_and_the_current_point_are_drawn_with_depth_labels() {
        let data = IodepthChartData {
            depth: DepthSeries {
                curves: vec![curve(vec![(1.0, 13e3), (32.0, 132e3), (256.0, 264e3)])],
                current: Some((32.0, 132e3)),
                current_iodepth: 32,
                markers: vec![Marker {
                    x: 32.0,
                    x_to: None,
                    y: 132_340.0,
                    colour: SeriesColour::Series(0),
                }],
                ..DepthSeries::default()
            },
            ..IodepthChartData::default()
        };
        let rec = Recorder::draw(640, 360, |root| draw(root, &data, &ChartStyle::default()));
        for label in ["1", "32", "256", "IOPS", X_TITLE] {
            assert!(rec.has_text(label), "missing {label}: {:?}", rec.texts);
        }
        assert!(rec.paths_in(ChartStyle::default().palette.series[0]) >= 1);
        assert!(rec.polygons >= 1, "the measurement diamond");
        assert!(!rec.has_text("computing the model…"));
    }

    #[test]
    fn an_empty_chart_says_it_is_computing_and_extreme_values_do_not_panic() {
        let rec = Recorder::draw(320, 200, |root| {
            draw(root, &IodepthChartData::default(), &ChartStyle::default())
        });
        assert!(rec.has_text("computing the model…"));
        let wild = IodepthChartData {
            depth: DepthSeries {
                max_iodepth: 1024,
                current_iodepth: 1024,
                curves: vec![curve(vec![(0.0, 5.0), (1.0, f64::MAX), (1024.0, 0.0)])],
                ..DepthSeries::default()
            },
            ..IodepthChartData::default()
        };
        Recorder::draw(200, 120, |root| draw(root, &wild, &ChartStyle::default()));
    }

    #[test]
    fn drawing_at_twice_the_pixel_ratio_scales_fonts() {
        let data = IodepthChartData {
            depth: DepthSeries {
                curves: vec![curve(vec![(1.0, 1.0), (2.0, 2.0)])],
                ..DepthSeries::default()
            },
            ..IodepthChartData::default()
        };
        let style = ChartStyle {
            scale: 2.0,
            ..ChartStyle::default()
        };
        let rec = Recorder::draw(1280, 720, |root| draw(root, &data, &style));
        assert!(
            rec.font_sizes.iter().all(|&s| s >= 24.0),
            "{:?}",
            rec.font_sizes
        );
    }
}
