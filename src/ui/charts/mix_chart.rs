//! Throughput against read share at the current queue depth (the reviewers' mixed sweep from
//! 0% to 100% reads), one curve per compared drive. With one block size, IOPS and MB/s differ
//! only by a constant factor, so one curve carries both: the left axis in the chart's unit, the
//! right axis in the other.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis;
use super::axis::Axis;
use super::paint::{self, DrawResult, Ticked};
use super::style::ChartStyle;
use super::{Curve, Marker, Stamp, Unit};
use crate::ui::pure::format;

/// Axis title of the read-share axis.
pub const X_TITLE: &str = "read share (% of requests)";
/// Read share ticks every this many percent (twice that when narrow).
const X_TICK_PCT: u32 = 10;
/// Chart width (CSS px) from which every 10% step gets a label.
const X_TICKS_ALL_FROM_CSS_PX: f64 = 560.0;
const Y_TICKS: usize = 5;
const Y_TICKS_NARROW: usize = 4;
/// The read-share axis runs from 0 to this (percent).
const ALL_READS: u32 = 100;
/// Bytes per MB (MB/s is decimal, as reviews and fio report it).
const BYTES_PER_MB: f64 = 1e6;

/// Everything the read-share chart draws.
#[derive(Clone, Debug, PartialEq)]
pub struct MixChartData {
    pub unit: Unit,
    pub bs_bytes: u32,
    pub current_pct: u8,
    /// One curve per drive; x is the read percentage.
    pub curves: Vec<Curve>,
    /// The readout's point (read %, value).
    pub current: Option<(f64, f64)>,
    /// Published all-read and all-write figures at this depth.
    pub markers: Vec<Marker>,
    pub stamp: Stamp,
}

impl Default for MixChartData {
    fn default() -> Self {
        MixChartData {
            unit: Unit::Iops,
            bs_bytes: 4096,
            current_pct: ALL_READS as u8,
            curves: Vec::new(),
            current: None,
            markers: Vec::new(),
            stamp: Stamp::default(),
        }
    }
}

impl MixChartData {
    /// The other unit of the right axis, and the factor from the left axis to it.
    pub fn secondary(&self) -> (Unit, f64) {
        let mb_per_io = f64::from(self.bs_bytes) / BYTES_PER_MB;
        match self.unit {
            Unit::Iops => (Unit::MbS, mb_per_io),
            Unit::MbS => (Unit::Iops, 1.0 / mb_per_io),
        }
    }
}

fn to_chart((pct, v): (f64, f64)) -> Option<(f64, f64)> {
    (pct.is_finite() && v.is_finite()).then_some((pct, v))
}

/// Draws the chart on `root`. Narrow charts drop the right axis (the caption gives the
/// conversion instead).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &MixChartData,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let narrow = style.narrow();
    // Ten labels of "100%" need about this much room; below it, every other one.
    let step = if style.css_width < X_TICKS_ALL_FROM_CSS_PX {
        2 * X_TICK_PCT
    } else {
        X_TICK_PCT
    };
    let x_ticks: Vec<f64> = (0..=ALL_READS)
        .step_by(step as usize)
        .map(f64::from)
        .collect();
    let values = data
        .curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.1))
        .chain(data.markers.iter().map(|m| m.y))
        .chain(data.current.map(|c| c.1));
    let (y_top, y_ticks) = axis::linear_axis(values, if narrow { Y_TICKS_NARROW } else { Y_TICKS });
    let unit = data.unit;
    let (other, factor) = data.secondary();
    let x_label = |v: f64| format!("{v:.0}%");
    let y_label = |v: f64| unit.tick(v);
    let x_axis = Axis {
        lo: 0.0,
        hi: f64::from(ALL_READS),
        ticks: x_ticks.clone(),
        title: X_TITLE,
        label: &x_label,
    };
    let y_axis = Axis {
        lo: 0.0,
        hi: y_top,
        ticks: y_ticks.clone(),
        title: unit.title(),
        label: &y_label,
    };
    let chart = paint::plot_area(root, style, &x_axis, &y_axis, !narrow)?;
    // The right axis spans the same range in the other unit, with its own round ticks.
    let y2_top = y_top * factor;
    let mut chart = chart.set_secondary_coord(
        Ticked::new(0.0..f64::from(ALL_READS), x_ticks),
        Ticked::new(0.0..y2_top, axis::ticks_within(y2_top, y_ticks.len())),
    );
    paint::mesh(&mut chart, style, &x_axis, &y_axis)?;
    if !narrow {
        let right = |v: &f64| other.tick(*v);
        chart
            .configure_secondary_axes()
            .axis_style(style.palette.axis.stroke_width(style.px(1.0) as u32))
            .label_style(paint::label_font(style, style.palette.muted))
            .axis_desc_style(paint::label_font(style, style.palette.text))
            .y_desc(other.title())
            .y_label_formatter(&right)
            .set_all_tick_mark_size(style.px(paint::TICK_CSS))
            .draw()?;
    }
    let primary = &mut *chart;
    paint::guide(primary, style, f64::from(data.current_pct), (0.0, y_top))?;
    paint::curves(primary, style, &data.curves, &to_chart)?;
    paint::markers(primary, style, &data.markers, &to_chart)?;
    if let Some(at) = data.current.and_then(to_chart) {
        paint::current_point(primary, style, at)?;
    }
    if data.curves.iter().all(|c| c.points.is_empty()) {
        paint::centre_note(root, style, "computing the model…")?;
    }
    Ok(())
}

/// The right-axis value for a left-axis value, as text with its unit.
pub fn secondary_text(data: &MixChartData, v: f64) -> String {
    let (other, factor) = data.secondary();
    match other {
        Unit::Iops => format::iops(v * factor),
        Unit::MbS => format::mb_s(v * factor),
    }
}

#[cfg(test)]
mod tests {
    use super::super::recording::Recorder;
    use super::super::{Dash, SeriesColour};
    use super::*;

    #[test]
    fn iops_and_mb_per_s_label_the_same_lines() {
        let data = MixChartData {
            curves: vec![Curve {
                label: "x".into(),
                colour: SeriesColour::Series(0),
                emphasis: true,
                dash: Dash::Solid,
                points: vec![(0.0, 40_000.0), (100.0, 250_000.0)],
            }],
            ..MixChartData::default()
        };
        assert_eq!(secondary_text(&data, 250_000.0), "1,024 MB/s");
        let rec = Recorder::draw(640, 360, |root| draw(root, &data, &ChartStyle::default()));
        assert!(
            rec.has_text("0%") && rec.has_text("100%"),
            "{:?}",
            rec.texts
        );
        assert!(
            rec.has_text("IOPS") && rec.has_text("MB/s"),
            "{:?}",
            rec.texts
        );
        assert!(
            rec.has_text("300k") && rec.has_text("1,000"),
            "{:?}",
            rec.texts
        );
        let count = |t: &str| rec.texts.iter().filter(|x| *x == t).count();
        assert_eq!(
            count("300k"),
            1,
            "IOPS labels only on the left: {:?}",
            rec.texts
        );
    }

    #[test]
    fn a_narrow_chart_keeps_one_unit() {
        let style = ChartStyle {
            css_width: 320.0,
            ..ChartStyle::default()
        };
        let rec = Recorder::draw(320, 200, |root| {
            draw(root, &MixChartData::default(), &style)
        });
        assert!(rec.has_text("IOPS"));
        assert!(!rec.has_text("MB/s"), "no right axis when narrow");
        assert!(
            rec.has_text("40%") && !rec.has_text("50%"),
            "ticks every 20%"
        );
    }
}
