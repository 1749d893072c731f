//! Drawing pieces the charts share: the frame and mesh, model curves, published-measurement
//! markers, the current point, horizontal reference levels, single dots and the "still
//! computing" note.
//!
//! Every function takes a plotters chart or area, plain data and a [`ChartStyle`]; none keeps
//! state or touches the browser.

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use super::axis::Axis;
use super::frames::FrameKey;
use super::style::{ChartStyle, FONT_FAMILY, LABEL_CSS_PX};
use super::{Curve, Dash, FioShape, Marker, YourSeries};

/// Errors of drawing on backend `DB`.
pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;
/// A chart whose axes both carry `f64` values at the tick positions the chart chose.
pub type Chart2d<'a, DB> = ChartContext<'a, DB, Cartesian2d<Ticked, Ticked>>;

/// A linear `f64` axis with exactly the given tick positions (plotters' own key-point
/// decorator cannot be combined with a label formatter for `f64`).
#[derive(Clone)]
pub struct Ticked {
    linear: RangedCoordf64,
    ticks: Vec<f64>,
}

impl Ticked {
    pub fn new(range: Range<f64>, ticks: Vec<f64>) -> Ticked {
        Ticked {
            linear: range.into(),
            ticks,
        }
    }
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.linear.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // Only bold lines: light grid lines between ticks would only add noise.
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.linear.range()
    }
}

/// Space around the plot, in CSS pixels.
pub const MARGIN_CSS: f64 = 10.0;
/// Space right of the plot: half of the widest last x label ("1024") must fit.
pub const RIGHT_MARGIN_CSS: f64 = 18.0;
/// Height of the x label area (ticks and axis title), in CSS pixels.
pub const X_LABEL_AREA_CSS: f64 = 40.0;
/// Width of the y label area, in CSS pixels.
pub const Y_LABEL_AREA_CSS: f64 = 62.0;
/// Line widths and marker sizes, in CSS pixels.
const CURVE_CSS: f64 = 2.0;
const CURRENT_CURVE_CSS: f64 = 3.0;
const POINT_CSS: f64 = 2.5;
const CURRENT_POINT_CSS: f64 = 6.0;
const MARKER_CSS: f64 = 6.0;
/// Half the side of a "your measurements" square.
const YOURS_CSS: f64 = 5.0;
const GUIDE_DASH_CSS: f64 = 4.0;
const CURVE_DASH_CSS: f64 = 7.0;
const DOT_CSS: f64 = 2.0;
/// Tick mark length, in CSS pixels.
pub const TICK_CSS: f64 = 4.0;
/// A drawn guess's point, and the ring around the depth being set.
const GUESS_POINT_CSS: f64 = 4.0;
const GUESS_SELECTED_CSS: f64 = 9.0;

/// Where [`plot_area`] puts the plot in a chart of `width` by `height` CSS pixels: its left,
/// right, top and bottom edges, in CSS pixels from the chart's top left (the margins and
/// label areas above); pointer input on a chart maps through it.
pub fn plot_rect_css(width: f64, height: f64) -> [f64; 4] {
    let left = MARGIN_CSS + Y_LABEL_AREA_CSS;
    let right = (width - RIGHT_MARGIN_CSS).max(left + 1.0);
    let top = MARGIN_CSS;
    let bottom = (height - MARGIN_CSS - X_LABEL_AREA_CSS).max(top + 1.0);
    [left, right, top, bottom]
}

/// The label font in `colour`.
pub fn label_font(style: &ChartStyle, colour: RGBColor) -> TextStyle<'static> {
    (FONT_FAMILY, style.font(LABEL_CSS_PX))
        .into_font()
        .color(&colour)
}

/// The key of the frame with axes `x` and `y` on an area of `size` pixels in `style`: what
/// the frame's pixels depend on, hashed ([`super::frames`] says when a kept frame is reused).
pub fn frame_key(size: (u32, u32), style: &ChartStyle, x: &Axis<'_>, y: &Axis<'_>) -> FrameKey {
    let mut h = DefaultHasher::new();
    size.hash(&mut h);
    // The palette's colours, through their printed form (plotters' colours have no Hash).
    format!("{:?}", style.palette).hash(&mut h);
    style.scale.to_bits().hash(&mut h);
    style.css_width.to_bits().hash(&mut h);
    for axis in [x, y] {
        axis.lo.to_bits().hash(&mut h);
        axis.hi.to_bits().hash(&mut h);
        axis.title.hash(&mut h);
        for &t in &axis.ticks {
            t.to_bits().hash(&mut h);
            (axis.label)(t).hash(&mut h);
        }
    }
    FrameKey::from_hash(h.finish())
}

/// Builds the plot area with both axes, the grid and the axis titles: the frame the canvas
/// kept from its last drawing if it has the same key ([`super::frames`]), else drawn and kept.
/// `None` once the frame is kept where the drawing draws the frame only
/// ([`super::frames::FrameSlot::frame_only`]): the caller draws nothing more.
pub fn frame<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    style: &ChartStyle,
    x: Axis<'_>,
    y: Axis<'_>,
) -> Result<Option<Chart2d<'a, DB>>, DrawingAreaErrorKind<DB::ErrorType>> {
    // Made only where the canvas keeps frames: the key formats every tick label.
    let key = style
        .frames
        .keeps()
        .then(|| frame_key(root.dim_in_pixel(), style, &x, &y));
    if key.is_some_and(|k| style.frames.restore(k)) {
        if style.frames.only_frame() {
            return Ok(None);
        }
        return areas(root, style, &x, &y, false).map(Some);
    }
    let mut chart = plot_area(root, style, &x, &y, false)?;
    mesh(&mut chart, style, &x, &y)?;
    if let Some(k) = key {
        style.frames.keep(k);
        if style.frames.only_frame() {
            return Ok(None);
        }
    }
    Ok(Some(chart))
}

/// Builds the plot area on the background, drawing nothing else; `right_area` leaves room
/// for a secondary value axis (which must be set before [`mesh`] draws, or the primary labels
/// would take the right side too).
pub fn plot_area<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    style: &ChartStyle,
    x: &Axis<'_>,
    y: &Axis<'_>,
    right_area: bool,
) -> Result<Chart2d<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&style.palette.background)?;
    areas(root, style, x, y, right_area)
}

/// The plot area and the label areas around it, drawing nothing.
fn areas<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    style: &ChartStyle,
    x: &Axis<'_>,
    y: &Axis<'_>,
    right_area: bool,
) -> Result<Chart2d<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut builder = ChartBuilder::on(root);
    builder
        .margin(style.px(MARGIN_CSS))
        .margin_right(style.px(RIGHT_MARGIN_CSS))
        .x_label_area_size(style.px(X_LABEL_AREA_CSS))
        .y_label_area_size(style.px(Y_LABEL_AREA_CSS));
    if right_area {
        builder.right_y_label_area_size(style.px(Y_LABEL_AREA_CSS));
    }
    builder.build_cartesian_2d(
        Ticked::new(x.lo..x.hi, x.ticks.clone()),
        Ticked::new(y.lo..y.hi, y.ticks.clone()),
    )
}

/// Draws the grid, both primary axes, their tick labels and titles.
pub fn mesh<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    style: &ChartStyle,
    x: &Axis<'_>,
    y: &Axis<'_>,
) -> DrawResult<DB> {
    let pal = &style.palette;
    let x_fmt = |v: &f64| (x.label)(*v);
    let y_fmt = |v: &f64| (y.label)(*v);
    chart
        .configure_mesh()
        .bold_line_style(pal.grid.stroke_width(style.px(1.0) as u32))
        .light_line_style(TRANSPARENT)
        .axis_style(pal.axis.stroke_width(style.px(1.0) as u32))
        .label_style(label_font(style, pal.muted))
        .axis_desc_style(label_font(style, pal.text))
        .x_desc(x.title)
        .y_desc(y.title)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .set_all_tick_mark_size(style.px(TICK_CSS))
        .draw()
}

/// A vertical dashed guide at `x` (the current depth or share).
pub fn guide<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    style: &ChartStyle,
    x: f64,
    y: (f64, f64),
) -> DrawResult<DB> {
    let s = style.palette.current.stroke_width(style.px(1.0) as u32);
    chart.draw_series(DashedLineSeries::new(
        vec![(x, y.0), (x, y.1)],
        style.px(GUIDE_DASH_CSS),
        style.px(GUIDE_DASH_CSS),
        s,
    ))?;
    Ok(())
}

/// Draws model curves; `map` turns a data point into chart coordinates (or drops it).
pub fn curves<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    style: &ChartStyle,
    curves: &[Curve],
    map: &dyn Fn((f64, f64)) -> Option<(f64, f64)>,
) -> DrawResult<DB> {
    // The current drive last, so it is on top.
    let ordered = curves
        .iter()
        .filter(|c| !c.emphasis)
        .chain(curves.iter().filter(|c| c.emphasis));
    for c in ordered {
        let colour = style.palette.colour(c.colour);
        let width = style.px(if c.emphasis {
            CURRENT_CURVE_CSS
        } else {
            CURVE_CSS
        });
        let line = colour.stroke_width(width as u32);
        let pts: Vec<(f64, f64)> = c.points.iter().filter_map(|&p| map(p)).collect();
        match c.dash {
            Dash::Solid => {
                chart.draw_series(LineSeries::new(pts.iter().copied(), line))?;
            }
            Dash::Dashed => {
                chart.draw_series(DashedLineSeries::new(
                    pts.iter().copied(),
                    style.px(CURVE_DASH_CSS),
                    style.px(CURVE_DASH_CSS / 2.0),
                    line,
                ))?;
            }
            Dash::Dotted => {
                chart.draw_series(DashedLineSeries::new(
                    pts.iter().copied(),
                    style.px(DOT_CSS),
                    style.px(DOT_CSS * 2.0),
                    line,
                ))?;
            }
        }
        if c.dash == Dash::Solid {
            let r = style.px(POINT_CSS);
            chart.draw_series(pts.iter().map(|&p| Circle::new(p, r, colour.filled())))?;
        }
    }
    Ok(())
}

/// Draws published measurements as outlined diamonds (a peak over a depth range also gets a
/// bar across that range); `map` turns data points into chart coordinates.
pub fn markers<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    style: &ChartStyle,
    markers: &[Marker],
    map: &dyn Fn((f64, f64)) -> Option<(f64, f64)>,
) -> DrawResult<DB> {
    let r = style.px(MARKER_CSS);
    let outline = style.palette.measured.stroke_width(style.px(1.5) as u32);
    for m in markers {
        let colour = style.palette.colour(m.colour);
        let Some(at) = map((m.x, m.y)) else { continue };
        let centre = match m.x_to.and_then(|x| map((x, m.y))) {
            Some(end) => {
                chart.draw_series(LineSeries::new(
                    [at, end],
                    colour.stroke_width(style.px(2.0) as u32),
                ))?;
                ((at.0 + end.0) / 2.0, at.1)
            }
            None => at,
        };
        let diamond = vec![(0, -r), (r, 0), (0, r), (-r, 0)];
        let mut closed = diamond.clone();
        closed.push((0, -r));
        chart.draw_series(std::iter::once(
            EmptyElement::at(centre)
                + Polygon::new(diamond, colour.filled())
                + PathElement::new(closed, outline),
        ))?;
    }
    Ok(())
}

/// Draws the reader's imported fio results ("your measurements"), each file in its shape, filled in
/// the text colour with a ring of the background, distinct from model curves (lines) and
/// published measurements (diamonds).
pub fn yours<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    style: &ChartStyle,
    series: &[YourSeries],
    map: &dyn Fn((f64, f64)) -> Option<(f64, f64)>,
) -> DrawResult<DB> {
    let r = style.px(YOURS_CSS);
    let fill = style.palette.text.filled();
    let ring = style.palette.background.stroke_width(style.px(1.0) as u32);
    for s in series {
        for at in s.points.iter().filter_map(|&p| map(p)) {
            let outline = shape_outline(s.shape, r);
            let mut closed = outline.clone();
            closed.extend(outline.first().copied());
            chart.draw_series(std::iter::once(
                EmptyElement::at(at) + Polygon::new(outline, fill) + PathElement::new(closed, ring),
            ))?;
        }
    }
    Ok(())
}

/// The outline of `shape` of half-size `r`, around the origin (pixels, y down).
fn shape_outline(shape: FioShape, r: i32) -> Vec<(i32, i32)> {
    let t = (r / 3).max(1);
    match shape {
        FioShape::Square => vec![(-r, -r), (r, -r), (r, r), (-r, r)],
        FioShape::Triangle => vec![(0, -r), (r, r), (-r, r)],
        FioShape::Circle => (0..12)
            .map(|k| {
                let a = f64::from(k) * std::f64::consts::TAU / 12.0;
                (
                    (f64::from(r) * a.cos()).round() as i32,
                    (f64::from(r) * a.sin()).round() as i32,
                )
            })
            .collect(),
        FioShape::Cross => vec![
            (-t, -r),
            (t, -r),
            (t, -t),
            (r, -t),
            (r, t),
            (t, t),
            (t, r),
            (-t, r),
            (-t, t),
            (-r, t),
            (-r, -t),
            (-t, -t),
        ],
    }
}

/// A horizontal line at `y` across `x` in `colour`, dashed (`dash`) or dotted: a rate the
/// chart compares against (a model rate, or a published bound).
pub fn level<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    style: &ChartStyle,
    y: f64,
    x: (f64, f64),
    colour: RGBColor,
    dash: Dash,
) -> DrawResult<DB> {
    let line = colour.stroke_width(style.px(CURVE_CSS) as u32);
    let (on, off) = match dash {
        Dash::Dotted => (DOT_CSS, DOT_CSS * 2.0),
        Dash::Solid | Dash::Dashed => (CURVE_DASH_CSS, CURVE_DASH_CSS / 2.0),
    };
    let pts = [(x.0, y), (x.1, y)];
    if dash == Dash::Solid {
        chart.draw_series(LineSeries::new(pts, line))?;
    } else {
        chart.draw_series(DashedLineSeries::new(
            pts,
            style.px(on),
            style.px(off),
            line,
        ))?;
    }
    Ok(())
}

/// A vertical dotted line at `x` across `y` in `colour`: a limit on the x axis (a drive's
/// capacity).
pub fn upright<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    style: &ChartStyle,
    x: f64,
    y: (f64, f64),
    colour: RGBColor,
) -> DrawResult<DB> {
    let line = colour.stroke_width(style.px(CURVE_CSS) as u32);
    chart.draw_series(DashedLineSeries::new(
        [(x, y.0), (x, y.1)],
        style.px(DOT_CSS),
        style.px(DOT_CSS * 2.0),
        line,
    ))?;
    Ok(())
}

/// The dotted line where y equals x, from `from.0` to `from.1` on both axes, in the text colour.
pub fn diagonal<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    style: &ChartStyle,
    span: (f64, f64),
) -> DrawResult<DB> {
    if span.0 >= span.1 {
        return Ok(());
    }
    let line = style.palette.text.stroke_width(style.px(1.0) as u32);
    chart.draw_series(DashedLineSeries::new(
        [(span.0, span.0), (span.1, span.1)],
        style.px(DOT_CSS),
        style.px(DOT_CSS * 2.0),
        line,
    ))?;
    Ok(())
}

/// An outlined ring in `colour` at `at`: a named point on a curve (a knee).
pub fn ring<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    style: &ChartStyle,
    at: (f64, f64),
    colour: RGBColor,
) -> DrawResult<DB> {
    let ring = colour.stroke_width(style.px(2.0) as u32);
    chart.draw_series(std::iter::once(Circle::new(at, style.px(MARKER_CSS), ring)))?;
    Ok(())
}

/// A short label in the text colour right of `at`: above it, or (`below`) under it, so a
/// label at the top of the plot stays inside.
pub fn tag<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    style: &ChartStyle,
    at: (f64, f64),
    text: &str,
    below: bool,
) -> DrawResult<DB> {
    let (v, dy) = if below {
        (VPos::Top, 1)
    } else {
        (VPos::Bottom, -1)
    };
    let font = label_font(style, style.palette.text).pos(Pos::new(HPos::Left, v));
    let offset = style.px(MARKER_CSS);
    chart.draw_series(std::iter::once(
        EmptyElement::at(at) + Text::new(text.to_string(), (offset, dy * offset), font),
    ))?;
    Ok(())
}

/// A filled dot the size of the current-point ring, for a single model value.
pub fn dot<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    style: &ChartStyle,
    at: (f64, f64),
    colour: RGBColor,
) -> DrawResult<DB> {
    chart.draw_series(std::iter::once(Circle::new(
        at,
        style.px(CURRENT_POINT_CSS),
        colour.filled(),
    )))?;
    Ok(())
}

/// Rings the current point.
pub fn current_point<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    style: &ChartStyle,
    at: (f64, f64),
) -> DrawResult<DB> {
    let ring = style.palette.current.stroke_width(style.px(2.0) as u32);
    chart.draw_series(std::iter::once(Circle::new(
        at,
        style.px(CURRENT_POINT_CSS),
        ring,
    )))?;
    Ok(())
}

/// Draws a reader's guess: a dashed line in the text colour through hollow points (told apart
/// from the model's solid curves and the measurements' diamonds), the point at `selected`
/// (chart coordinates) ringed in the current-point colour.
pub fn guess<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    style: &ChartStyle,
    points: &[(f64, f64)],
    selected: Option<(f64, f64)>,
) -> DrawResult<DB> {
    let line = style.palette.text.stroke_width(style.px(CURVE_CSS) as u32);
    chart.draw_series(DashedLineSeries::new(
        points.iter().copied(),
        style.px(CURVE_DASH_CSS),
        style.px(CURVE_DASH_CSS / 2.0),
        line,
    ))?;
    let r = style.px(GUESS_POINT_CSS);
    chart.draw_series(points.iter().map(|&p| Circle::new(p, r, line)))?;
    if let Some(at) = selected {
        let ring = style.palette.current.stroke_width(style.px(2.0) as u32);
        chart.draw_series(std::iter::once(Circle::new(
            at,
            style.px(GUESS_SELECTED_CSS),
            ring,
        )))?;
    }
    Ok(())
}

/// Writes `text` centred in the plot (used while the model has no result to draw yet).
pub fn centre_note<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    style: &ChartStyle,
    text: &str,
) -> DrawResult<DB> {
    let (w, h) = root.dim_in_pixel();
    let font = label_font(style, style.palette.text).pos(Pos::new(HPos::Center, VPos::Center));
    root.draw(&Text::new(
        text.to_string(),
        ((w / 2) as i32, (h / 2) as i32),
        font,
    ))?;
    Ok(())
}
