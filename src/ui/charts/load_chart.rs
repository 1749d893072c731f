//! The rate view's two charts, both against offered load on a logarithmic axis:
//! - [`draw_latency`]: mean (solid) and p99 (dashed) latency per compared drive, each drive's
//!   knee as a ring on its mean curve and its capacity as a dotted vertical line, past which the
//!   host's queue grows without bound (saturated points have no latency to draw: it would only
//!   say how long the run lasted);
//! - [`draw_carried`]: what each drive carries against what is offered, with the diagonal where
//!   the two are equal and each drive's capacity as a dotted level.
//!
//! Both take plain data ([`LoadChartData`], built by [`super::build`]) and any plotters area, so
//! they are tested natively.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis;
use super::axis::Axis;
use super::paint::{self, DrawResult};
use super::style::ChartStyle;
use super::{Curve, Dash, SeriesColour, Stamp, Unit};
use crate::ui::pure::format;

/// Most log ticks that fit (fewer when narrow).
const LOG_TICKS: usize = 9;
const LOG_TICKS_NARROW: usize = 5;

/// One drive's knee and capacity, in the chart's units.
#[derive(Clone, Debug, PartialEq)]
pub struct DriveLimits {
    pub colour: SeriesColour,
    /// The reader's current drive (its marks are labelled).
    pub emphasis: bool,
    /// Offered load at the knee, and the mean latency there (on the mean curve).
    pub knee: Option<(f64, f64)>,
    /// The capacity: offered load past which the drive is saturated.
    pub capacity: Option<f64>,
}

/// Everything the rate view's charts draw.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadChartData {
    /// What the offered-load axis counts (MB/s for large blocks).
    pub unit: Unit,
    /// The offered loads the sweeps span, in `unit`.
    pub x_range: (f64, f64),
    /// The current rate, in `unit`.
    pub current_x: f64,
    /// Mean and p99 latency curves (µs) of unsaturated points.
    pub latency: Vec<Curve>,
    /// Carried load curves, in `unit`.
    pub carried: Vec<Curve>,
    pub limits: Vec<DriveLimits>,
    /// The readout's point on each chart: (offered, mean µs) and (offered, carried).
    pub current_latency: Option<(f64, f64)>,
    pub current_carried: Option<(f64, f64)>,
    /// The current drive's knee and saturation in words (the figure's caption), once known.
    pub named: Option<String>,
    pub stamp: Stamp,
}

impl Default for LoadChartData {
    fn default() -> Self {
        LoadChartData {
            unit: Unit::Iops,
            x_range: (1.0, 10.0),
            current_x: 1.0,
            latency: Vec::new(),
            carried: Vec::new(),
            limits: Vec::new(),
            current_latency: None,
            current_carried: None,
            named: None,
            stamp: Stamp::default(),
        }
    }
}

fn max_ticks(style: &ChartStyle) -> usize {
    if style.narrow() {
        LOG_TICKS_NARROW
    } else {
        LOG_TICKS
    }
}

/// Maps (offered, value) to log-log chart coordinates; non-positive values have no place.
fn log_log((x, y): (f64, f64)) -> Option<(f64, f64)> {
    (x > 0.0 && y > 0.0 && x.is_finite() && y.is_finite()).then(|| (x.log10(), y.log10()))
}

/// The tick label at `log10(v)` of an axis counting in `unit`.
pub(super) fn unit_label(unit: Unit) -> impl Fn(f64) -> String {
    move |v: f64| unit.tick(10f64.powf(v))
}

/// The offered-load axis, with the current rate inside it.
fn offered_axis(data: &LoadChartData, style: &ChartStyle) -> (f64, f64, Vec<f64>) {
    offered_range(data.x_range, data.current_x, style)
}

/// The offered-load axis (log10 units) over `x_range`, widened to hold `current_x`.
pub(super) fn offered_range(
    x_range: (f64, f64),
    current_x: f64,
    style: &ChartStyle,
) -> (f64, f64, Vec<f64>) {
    let lo = x_range.0.min(current_x);
    let hi = x_range.1.max(current_x);
    axis::log10_range(lo, hi, max_ticks(style))
}

/// The offered-load axis's title.
pub(super) fn x_title(unit: Unit) -> &'static str {
    match unit {
        Unit::Iops => "offered IOPS (log scale)",
        Unit::MbS => "offered MB/s (log scale)",
    }
}

/// Latency against offered load.
pub fn draw_latency<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &LoadChartData,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let (x_lo, x_hi, x_ticks) = offered_axis(data, style);
    let ys: Vec<f64> = data
        .latency
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.1))
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    let lo = ys.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ys.iter().copied().fold(0.0, f64::max);
    let (y_lo, y_hi, y_ticks) = axis::log10_range(lo, hi, max_ticks(style));
    let x_label = unit_label(data.unit);
    let y_label = |v: f64| format::axis_latency_us(10f64.powf(v));
    let Some(mut chart) = paint::frame(
        root,
        style,
        Axis {
            lo: x_lo,
            hi: x_hi,
            ticks: x_ticks,
            title: x_title(data.unit),
            label: &x_label,
        },
        Axis {
            lo: y_lo,
            hi: y_hi,
            ticks: y_ticks,
            title: "latency (log scale)",
            label: &y_label,
        },
    )?
    else {
        return Ok(());
    };
    for l in &data.limits {
        if let Some(x) = l.capacity.filter(|x| *x > 0.0) {
            let colour = style.palette.colour(l.colour);
            paint::upright(&mut chart, style, x.log10(), (y_lo, y_hi), colour)?;
        }
    }
    paint::guide(
        &mut chart,
        style,
        data.current_x.max(f64::MIN_POSITIVE).log10(),
        (y_lo, y_hi),
    )?;
    paint::curves(&mut chart, style, &data.latency, &log_log)?;
    for l in &data.limits {
        if let Some(at) = l.knee.and_then(log_log) {
            paint::ring(&mut chart, style, at, style.palette.colour(l.colour))?;
            if l.emphasis {
                paint::tag(&mut chart, style, at, "knee", false)?;
            }
        }
        if let (true, Some(x)) = (l.emphasis, l.capacity.filter(|x| *x > 0.0)) {
            paint::tag(&mut chart, style, (x.log10(), y_hi), "saturated", true)?;
        }
    }
    if let Some(at) = data.current_latency.and_then(log_log) {
        paint::current_point(&mut chart, style, at)?;
    }
    if data.latency.iter().all(|c| c.points.is_empty()) {
        paint::centre_note(root, style, "computing the model…")?;
    }
    Ok(())
}

/// Carried against offered load.
pub fn draw_carried<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &LoadChartData,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let (x_lo, x_hi, x_ticks) = offered_axis(data, style);
    // The same decades on both axes, so the diagonal is the diagonal.
    let ys = data
        .carried
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.1))
        .filter(|v| v.is_finite() && *v > 0.0);
    let lo = ys.clone().fold(10f64.powf(x_lo), f64::min);
    let hi = ys.fold(10f64.powf(x_hi), f64::max);
    let (y_lo, y_hi, y_ticks) = axis::log10_range(lo, hi, max_ticks(style));
    let x_label = unit_label(data.unit);
    let y_label = unit_label(data.unit);
    let y_title = match data.unit {
        Unit::Iops => "carried IOPS (log scale)",
        Unit::MbS => "carried MB/s (log scale)",
    };
    let Some(mut chart) = paint::frame(
        root,
        style,
        Axis {
            lo: x_lo,
            hi: x_hi,
            ticks: x_ticks,
            title: x_title(data.unit),
            label: &x_label,
        },
        Axis {
            lo: y_lo,
            hi: y_hi,
            ticks: y_ticks,
            title: y_title,
            label: &y_label,
        },
    )?
    else {
        return Ok(());
    };
    paint::diagonal(&mut chart, style, (x_lo.max(y_lo), x_hi.min(y_hi)))?;
    for l in &data.limits {
        if let Some(x) = l.capacity.filter(|x| *x > 0.0) {
            let colour = style.palette.colour(l.colour);
            paint::level(
                &mut chart,
                style,
                x.log10(),
                (x_lo, x_hi),
                colour,
                Dash::Dotted,
            )?;
        }
    }
    paint::guide(
        &mut chart,
        style,
        data.current_x.max(f64::MIN_POSITIVE).log10(),
        (y_lo, y_hi),
    )?;
    paint::curves(&mut chart, style, &data.carried, &log_log)?;
    if let Some(at) = data.current_carried.and_then(log_log) {
        paint::current_point(&mut chart, style, at)?;
    }
    if data.carried.iter().all(|c| c.points.is_empty()) {
        paint::centre_note(root, style, "computing the model…")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::recording::Recorder;
    use super::*;

    fn data() -> LoadChartData {
        let curve = |dash, points| Curve {
            label: "x".into(),
            colour: SeriesColour::Series(0),
            emphasis: true,
            dash,
            points,
        };
        LoadChartData {
            x_range: (2_500.0, 4_000_000.0),
            current_x: 200_000.0,
            latency: vec![
                curve(Dash::Solid, vec![(2_500.0, 80.0), (100_000.0, 160.0)]),
                curve(Dash::Dashed, vec![(2_500.0, 135.0), (100_000.0, 440.0)]),
            ],
            carried: vec![curve(
                Dash::Solid,
                vec![(2_500.0, 2_500.0), (4_000_000.0, 178_000.0)],
            )],
            limits: vec![DriveLimits {
                colour: SeriesColour::Series(0),
                emphasis: true,
                knee: Some((83_000.0, 130.0)),
                capacity: Some(178_000.0),
            }],
            ..LoadChartData::default()
        }
    }

    #[test]
    fn the_latency_chart_names_the_knee_and_saturation_of_the_current_drive() {
        let rec = Recorder::draw(640, 360, |root| {
            draw_latency(root, &data(), &ChartStyle::default())
        });
        assert!(
            rec.has_text("knee") && rec.has_text("saturated"),
            "{:?}",
            rec.texts
        );
        assert!(rec.has_text("offered IOPS (log scale)"), "{:?}", rec.texts);
    }

    #[test]
    fn the_carried_chart_shares_its_decades_with_the_offered_axis() {
        let rec = Recorder::draw(640, 360, |root| {
            draw_carried(root, &data(), &ChartStyle::default())
        });
        assert!(rec.has_text("carried IOPS (log scale)"), "{:?}", rec.texts);
        assert!(rec.has_text("1M"), "{:?}", rec.texts);
    }

    #[test]
    fn empty_and_odd_values_draw_without_panicking() {
        let odd = LoadChartData {
            x_range: (0.0, f64::NAN),
            current_x: -1.0,
            latency: vec![Curve {
                label: "x".into(),
                colour: SeriesColour::Configured,
                emphasis: false,
                dash: Dash::Solid,
                points: vec![(0.0, 1.0), (f64::INFINITY, 2.0), (10.0, -3.0)],
            }],
            limits: vec![DriveLimits {
                colour: SeriesColour::Configured,
                emphasis: true,
                knee: Some((f64::NAN, 1.0)),
                capacity: Some(0.0),
            }],
            ..LoadChartData::default()
        };
        Recorder::draw(200, 120, |root| {
            draw_latency(root, &odd, &ChartStyle::default())
        });
        Recorder::draw(200, 120, |root| {
            draw_carried(root, &odd, &ChartStyle::default())
        });
        Recorder::draw(200, 120, |root| {
            draw_latency(root, &LoadChartData::default(), &ChartStyle::default())
        });
    }
}
