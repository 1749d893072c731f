//! Latency against queue depth: mean (solid), p99 (dashed) and on request p99.9 (dotted) per
//! compared drive, on a logarithmic axis when the values span more than
//! [`axis::LOG_SCALE_FROM_RATIO`]. With a closed loop, latency is depth divided by IOPS
//! (Little's law), so once the drive is saturated extra depth only turns into waiting.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis;
use super::axis::Axis;
use super::iodepth_chart::depth_axis;
use super::paint::{self, DrawResult};
use super::style::ChartStyle;
use super::DepthSeries;
use crate::ui::pure::format;

/// Value-axis title.
pub const Y_TITLE: &str = "latency";
/// Linear tick count.
const Y_TICKS: usize = 5;
/// Most log ticks that fit (fewer when narrow).
const LOG_TICKS: usize = 9;
const LOG_TICKS_NARROW: usize = 6;

/// Everything the latency chart draws: mean, p99 and optionally p99.9 curves per drive, and
/// published mean latencies, with y in microseconds.
pub type LatencyChartData = DepthSeries;

/// Draws the chart on `root`.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &LatencyChartData,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let positive: Vec<f64> = data
        .curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.1))
        .chain(data.markers.iter().map(|m| m.y))
        .chain(super::your_values(&data.yours).map(|p| p.1))
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    let lo = positive.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = positive.iter().copied().fold(0.0, f64::max);
    let log = axis::wants_log(lo, hi);
    let (y_lo, y_hi, y_ticks) = if log {
        let max_ticks = if style.narrow() {
            LOG_TICKS_NARROW
        } else {
            LOG_TICKS
        };
        axis::log10_range(lo, hi, max_ticks)
    } else {
        let (top, ticks) = axis::linear_axis(positive.iter().copied(), Y_TICKS);
        (0.0, top, ticks)
    };
    let to_chart = move |(iodepth, us): (f64, f64)| -> Option<(f64, f64)> {
        if iodepth < 1.0 || !us.is_finite() {
            return None;
        }
        if log {
            (us > 0.0).then(|| (iodepth.log2(), us.log10()))
        } else {
            Some((iodepth.log2(), us))
        }
    };
    let y_label = move |v: f64| {
        if log {
            format::axis_latency_us(10f64.powf(v))
        } else {
            format::axis_latency_us(v)
        }
    };
    let title = if log { "latency (log scale)" } else { Y_TITLE };
    let Some(mut chart) = paint::frame(
        root,
        style,
        depth_axis(data, style),
        Axis {
            lo: y_lo,
            hi: y_hi,
            ticks: y_ticks,
            title,
            label: &y_label,
        },
    )?
    else {
        return Ok(());
    };
    paint::guide(
        &mut chart,
        style,
        f64::from(data.current_iodepth.max(1)).log2(),
        (y_lo, y_hi),
    )?;
    paint::curves(&mut chart, style, &data.curves, &to_chart)?;
    paint::markers(&mut chart, style, &data.markers, &to_chart)?;
    paint::yours(&mut chart, style, &data.yours, &to_chart)?;
    if let Some(at) = data.current.and_then(to_chart) {
        paint::current_point(&mut chart, style, at)?;
    }
    if data.curves.iter().all(|c| c.points.is_empty()) {
        paint::centre_note(root, style, "computing the model…")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::recording::Recorder;
    use super::super::{Curve, Dash, Marker, SeriesColour};
    use super::*;

    fn curve(dash: Dash, points: Vec<(f64, f64)>) -> Curve {
        Curve {
            label: "x".into(),
            colour: SeriesColour::Series(1),
            emphasis: false,
            dash,
            points,
        }
    }

    #[test]
    fn a_wide_latency_range_gets_a_log_axis_with_unit_labels() {
        let data = LatencyChartData {
            curves: vec![
                curve(Dash::Solid, vec![(1.0, 75.0), (256.0, 13_900.0)]),
                curve(Dash::Dashed, vec![(1.0, 120.0), (256.0, 30_000.0)]),
            ],
            ..LatencyChartData::default()
        };
        let rec = Recorder::draw(640, 360, |root| draw(root, &data, &ChartStyle::default()));
        assert!(rec.has_text("latency (log scale)"), "{:?}", rec.texts);
        assert!(
            rec.has_text("100 µs") && rec.has_text("10 ms"),
            "{:?}",
            rec.texts
        );
    }

    #[test]
    fn a_narrow_latency_range_stays_linear() {
        let data = LatencyChartData {
            curves: vec![curve(Dash::Solid, vec![(1.0, 75.0), (32.0, 120.0)])],
            ..LatencyChartData::default()
        };
        let rec = Recorder::draw(640, 360, |root| draw(root, &data, &ChartStyle::default()));
        assert!(rec.has_text(Y_TITLE));
    }

    #[test]
    fn zero_and_negative_latencies_do_not_break_the_log_axis() {
        let data = LatencyChartData {
            curves: vec![curve(
                Dash::Dotted,
                vec![(1.0, 0.0), (2.0, -5.0), (4.0, 10.0), (8.0, 1e6)],
            )],
            markers: vec![Marker {
                x: 256.0,
                x_to: None,
                y: 0.0,
                colour: SeriesColour::Configured,
            }],
            ..LatencyChartData::default()
        };
        Recorder::draw(300, 200, |root| draw(root, &data, &ChartStyle::default()));
    }
}
