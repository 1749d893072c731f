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
    /// A reader's guess, while a tour's question asks for one and after.
    pub guess: Option<GuessLayer>,
}

impl Default for IodepthChartData {
    fn default() -> Self {
        IodepthChartData {
            unit: Measure::Throughput(Unit::Iops),
            depth: DepthSeries::default(),
            guess: None,
        }
    }
}

/// A reader's guess drawn on the chart (a tour's question,
/// [`crate::ui::pure::predict`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GuessLayer {
    /// (queue depth, value) drawn so far, by depth.
    pub points: Vec<(f64, f64)>,
    /// The value axis reaches at least this, before the reveal and after (so the guess keeps
    /// its place when the model's curve joins it).
    pub up_to: f64,
    /// The model's curves, the published measurements, the reader's imports and the current
    /// point are left out: the answer waits for the guess.
    pub hides_model: bool,
    /// The depth being set from the keyboard, ringed.
    pub selected: Option<u32>,
}

impl IodepthChartData {
    fn hides_model(&self) -> bool {
        self.guess.as_ref().is_some_and(|g| g.hides_model)
    }
}

/// The value axis (its top and ticks): over every value drawn, or over the guess alone while
/// it hides the model (so the axis tells nothing of the answer).
fn value_axis(data: &IodepthChartData, narrow: bool) -> (f64, Vec<f64>) {
    let ticks = if narrow { Y_TICKS_NARROW } else { Y_TICKS };
    let guess = data
        .guess
        .iter()
        .flat_map(|g| g.points.iter().map(|p| p.1).chain([g.up_to]));
    if data.hides_model() {
        return axis::linear_axis(guess, ticks);
    }
    let values = data
        .depth
        .curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.1))
        .chain(data.depth.markers.iter().map(|m| m.y))
        .chain(super::your_values(&data.depth.yours).map(|p| p.1))
        .chain(data.depth.current.map(|c| c.1));
    axis::linear_axis(values.chain(guess), ticks)
}

/// The depth of `depths` and the value a pointer at `at` (CSS pixels from the chart's top
/// left, on a chart of `size` CSS pixels) sets on the guess: the nearest depth across, the
/// value up the axis held to the guess's reach; `None` without a guess or depths.
pub fn guess_at(
    data: &IodepthChartData,
    size: (f64, f64),
    at: (f64, f64),
    depths: &[u32],
) -> Option<(u32, f64)> {
    let g = data.guess.as_ref()?;
    let narrow = ChartStyle {
        css_width: size.0,
        ..ChartStyle::default()
    }
    .narrow();
    let (y_top, _) = value_axis(data, narrow);
    let (x_top, _) = axis::octave_ticks(data.depth.max_iodepth, narrow);
    let [left, right, top, bottom] = paint::plot_rect_css(size.0, size.1);
    let octave = (at.0 - left) / (right - left) * x_top;
    let off = |d: &u32| (f64::from(*d).log2() - octave).abs();
    let depth = *depths.iter().min_by(|a, b| off(a).total_cmp(&off(b)))?;
    let value = (bottom - at.1) / (bottom - top) * y_top;
    value
        .is_finite()
        .then(|| (depth, value.clamp(0.0, g.up_to)))
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
    let (y_top, y_ticks) = value_axis(data, style.narrow());
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
    if !data.hides_model() {
        paint::curves(&mut chart, style, &data.depth.curves, &to_chart)?;
        paint::markers(&mut chart, style, &data.depth.markers, &to_chart)?;
        paint::yours(&mut chart, style, &data.depth.yours, &to_chart)?;
        if let Some(at) = data.depth.current.and_then(to_chart) {
            paint::current_point(&mut chart, style, at)?;
        }
    }
    if let Some(g) = &data.guess {
        let points: Vec<(f64, f64)> = g.points.iter().filter_map(|&p| to_chart(p)).collect();
        let selected = g.selected.and_then(|d| {
            let value = g.points.iter().find(|p| p.0 == f64::from(d))?.1;
            to_chart((f64::from(d), value))
        });
        paint::guess(&mut chart, style, &points, selected)?;
    }
    match &data.guess {
        Some(g) if g.hides_model && g.points.is_empty() => {
            paint::centre_note(root, style, "draw your guess: drag across the chart")?;
        }
        Some(g) if g.hides_model => {}
        _ if data.depth.curves.iter().all(|c| c.points.is_empty()) => {
            paint::centre_note(root, style, "computing the model…")?;
        }
        _ => {}
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

    /// The 480 GB drive's curve up to 264,000 IOPS, and a guess up to 100,000 that hides it.
    fn guessed(hides_model: bool) -> IodepthChartData {
        IodepthChartData {
            depth: DepthSeries {
                max_iodepth: 256,
                curves: vec![curve(vec![(1.0, 13e3), (32.0, 132e3), (256.0, 264e3)])],
                current: Some((32.0, 132e3)),
                ..DepthSeries::default()
            },
            guess: Some(GuessLayer {
                points: vec![(1.0, 10e3), (2.0, 20e3)],
                up_to: 100e3,
                hides_model,
                selected: Some(2),
            }),
            ..IodepthChartData::default()
        }
    }

    /// A question's answer is hidden until the guess: no model curve, no current point, and
    /// a value axis that ends near the guess's reach, not the model's 264,000.
    #[test]
    fn a_guess_that_hides_the_model_draws_alone_on_the_guesss_axis() {
        let style = ChartStyle::default();
        let hidden = Recorder::draw(640, 360, |root| draw(root, &guessed(true), &style));
        assert_eq!(
            hidden.paths_in(style.palette.series[0]),
            0,
            "no model curve"
        );
        assert!(
            hidden.circles >= 3,
            "two guessed points and the ring: {}",
            hidden.circles
        );
        assert!(
            hidden.has_text(&Unit::Iops.tick(100e3)),
            "{:?}",
            hidden.texts
        );
        assert!(
            !hidden.has_text(&Unit::Iops.tick(300e3)),
            "{:?}",
            hidden.texts
        );
        let shown = Recorder::draw(640, 360, |root| draw(root, &guessed(false), &style));
        assert!(
            shown.paths_in(style.palette.series[0]) >= 1,
            "the model's curve over the guess"
        );
        assert!(shown.has_text(&Unit::Iops.tick(300e3)), "{:?}", shown.texts);
    }

    #[test]
    fn an_empty_guess_says_how_to_draw_one() {
        let mut data = guessed(true);
        data.guess.as_mut().unwrap().points.clear();
        let rec = Recorder::draw(640, 360, |root| draw(root, &data, &ChartStyle::default()));
        assert!(rec.has_text("draw your guess: drag across the chart"));
        assert!(!rec.has_text("computing the model…"));
    }

    /// On a 640 x 360 chart the plot runs from x 72 to 622 and y 10 to 310 (CSS pixels); its
    /// axis is 0 to 8 octaves across and 0 to 120,000 up (the reach's headroom).
    #[test]
    fn a_pointer_sets_the_nearest_depth_and_the_value_at_its_height() {
        let data = guessed(true);
        let depths = [1, 2, 4, 8, 16, 32, 64, 128, 256];
        let (y_top, _) = value_axis(&data, false);
        assert_eq!(
            guess_at(&data, (640.0, 360.0), (72.0, 310.0), &depths),
            Some((1, 0.0))
        );
        let (depth, value) = guess_at(&data, (640.0, 360.0), (622.0, 160.0), &depths).unwrap();
        assert_eq!(depth, 256);
        assert!((value - y_top / 2.0).abs() < 1e-6, "{value} of {y_top}");
        let (depth, value) = guess_at(
            &data,
            (640.0, 360.0),
            (72.0 + 550.0 * 5.2 / 8.0, -50.0),
            &depths,
        )
        .unwrap();
        assert_eq!(
            (depth, value),
            (32, 100e3),
            "above the plot is held to the reach"
        );
        assert_eq!(
            guess_at(
                &IodepthChartData::default(),
                (640.0, 360.0),
                (0.0, 0.0),
                &depths
            ),
            None
        );
    }
}
