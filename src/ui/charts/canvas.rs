//! The browser half of a chart: [`ChartCanvas`], a `<canvas>` that fills its box at the
//! screen's full resolution and calls a pure draw function, and [`LabCanvas`], the plotters
//! backend it draws through.
//!
//! What always holds:
//! - the canvas's backing store is its CSS size times `devicePixelRatio`, at most
//!   [`MAX_BACKING_RATIO`] (re-measured whenever its box or the ratio changes), and draw
//!   functions get that scale in [`ChartStyle`], so lines and text are crisp on HiDPI screens;
//! - a chart is drawn in a task of its own, once however often its data changed while it
//!   waited, those on the screen first ([`super::turns`]), and never from inside a model
//!   slice (drawing and computing are separate tasks);
//! - a chart's first drawing takes two turns: its frame alone, into a canvas never shown, then
//!   the rest on that frame; the canvas on the screen shows the whole chart or what it showed
//!   before, never the frame without the rest, and counts the two as one drawing;
//! - after each drawing the canvas carries `data-state` (the URL query of the state drawn),
//!   `data-missing` (points still without a result), `data-draws` and the `performance.now()`
//!   times `data-drawn-at`, `data-first-drawn-at` (first drawing of this state) and
//!   `data-complete-at` (first drawing of this state with every point present), and how long
//!   the last and the longest drawing took (`data-draw-ms`, `data-draw-max-ms`); the end-to-end
//!   tests and the page benchmark read them.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use leptos::html;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    CanvasRenderingContext2d, HtmlCanvasElement, IntersectionObserver, IntersectionObserverEntry,
};

use super::frames::{FrameKey, FrameSlot, FrameStore};
use super::paint::DrawResult;
use super::style::{ChartStyle, Palette};
use super::turns;
use super::Stamp;
use crate::ui::browser::resize::follow_box;

/// The plotters backend of the lab's canvases: plotters-canvas for shapes; text measured by the
/// canvas itself (plotters' default inserts a DOM element and forces a layout for every label)
/// and drawn here, setting the context's font, alignment and baseline only when they change
/// (the browser parses a font string every time it is set: plotters-canvas sets it twice per
/// label, the page benchmark's profile found it among the largest costs of drawing). What
/// they are is kept with the canvas from one drawing to the next (a canvas keeps its
/// context's settings until it is resized), so redrawing a chart sets no font at all.
pub struct LabCanvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
    /// What the context's text settings are now, as this canvas's drawings last set them.
    text: Rc<RefCell<TextSettings>>,
}

/// A context's text settings, as the lab's drawings set them.
#[derive(Default)]
struct TextSettings {
    font: String,
    align: &'static str,
    baseline: &'static str,
}

impl LabCanvas {
    /// Sets the font for `style` on the context, unless it is set already.
    fn use_font<TStyle: BackendTextStyle>(&self, style: &TStyle) {
        let font = format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str()
        );
        let mut text = self.text.borrow_mut();
        if text.font != font {
            self.context.set_font(&font);
            text.font = font;
        }
    }

    /// Sets the alignment and baseline for `style`'s anchor, unless they are set already.
    fn use_anchor<TStyle: BackendTextStyle>(&self, style: &TStyle) {
        let anchor = style.anchor();
        let align = match anchor.h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        };
        let baseline = match anchor.v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        };
        let mut text = self.text.borrow_mut();
        if text.align != align {
            self.context.set_text_align(align);
            text.align = align;
        }
        if text.baseline != baseline {
            self.context.set_text_baseline(baseline);
            text.baseline = baseline;
        }
    }
}

impl LabCanvas {
    /// The backend for `canvas`, or `None` if it has no 2D context; `text` is what the
    /// canvas's context's text settings are (default after the canvas was resized).
    fn new(canvas: &HtmlCanvasElement, text: Rc<RefCell<TextSettings>>) -> Option<LabCanvas> {
        let context = canvas
            .get_context("2d")
            .ok()??
            .dyn_into::<CanvasRenderingContext2d>()
            .ok()?;
        Some(LabCanvas {
            inner: CanvasBackend::with_canvas_object(canvas.clone())?,
            context,
            text,
        })
    }
}

/// plotters-canvas's error type (not exported by name, nor made outside it).
type InnerError = <CanvasBackend as DrawingBackend>::ErrorType;
type CanvasResult = Result<(), DrawingErrorKind<CanvasFailed>>;

/// A canvas call the browser refused, with its message.
#[derive(Debug)]
pub struct CanvasFailed(String);

impl std::fmt::Display for CanvasFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the canvas refused to draw: {}", self.0)
    }
}

impl std::error::Error for CanvasFailed {}

/// plotters-canvas's failure as ours.
fn lift(e: DrawingErrorKind<InnerError>) -> DrawingErrorKind<CanvasFailed> {
    match e {
        DrawingErrorKind::DrawingError(e) => {
            DrawingErrorKind::DrawingError(CanvasFailed(e.to_string()))
        }
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    }
}

impl DrawingBackend for LabCanvas {
    type ErrorType = CanvasFailed;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> CanvasResult {
        self.inner.ensure_prepared().map_err(lift)
    }
    fn present(&mut self) -> CanvasResult {
        self.inner.present().map_err(lift)
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> CanvasResult {
        self.inner.draw_pixel(point, color).map_err(lift)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> CanvasResult {
        self.inner.draw_line(from, to, style).map_err(lift)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> CanvasResult {
        self.inner
            .draw_rect(upper_left, bottom_right, style, fill)
            .map_err(lift)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> CanvasResult {
        self.inner.draw_path(path, style).map_err(lift)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> CanvasResult {
        self.inner
            .draw_circle(center, radius, style, fill)
            .map_err(lift)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> CanvasResult {
        self.inner.fill_polygon(vert, style).map_err(lift)
    }
    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> CanvasResult {
        let colour = style.color();
        if colour.alpha == 0.0 {
            return Ok(());
        }
        let (r, g, b) = colour.rgb;
        self.context
            .set_fill_style_str(&format!("rgba({r},{g},{b},{})", colour.alpha));
        self.use_font(style);
        self.use_anchor(style);
        let (x, y) = (f64::from(pos.0), f64::from(pos.1));
        let quarter_turns = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 1.0,
            FontTransform::Rotate180 => 2.0,
            FontTransform::Rotate270 => 3.0,
        };
        let drawn = if quarter_turns == 0.0 {
            self.context.fill_text(text, x, y)
        } else {
            // The rotation lives between save and restore; the text settings stay as they are.
            self.context.save();
            let drawn = self
                .context
                .translate(x, y)
                .and_then(|_| {
                    self.context
                        .rotate(quarter_turns * std::f64::consts::FRAC_PI_2)
                })
                .and_then(|_| self.context.fill_text(text, 0.0, 0.0));
            self.context.restore();
            drawn
        };
        drawn.map_err(|e| DrawingErrorKind::DrawingError(CanvasFailed(format!("{e:?}"))))
    }
    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasFailed>> {
        self.use_font(style);
        let width = self
            .context
            .measure_text(text)
            .map(|m| m.width())
            .unwrap_or(0.0);
        Ok((width.ceil().max(0.0) as u32, style.size().ceil() as u32))
    }
}

/// A pure draw function for chart data of type `T`.
pub type DrawFn<T> = fn(&DrawingArea<LabCanvas, Shift>, &T, &ChartStyle) -> DrawResult<LabCanvas>;

/// The canvas box's size in CSS pixels and the device pixel ratio.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct BoxSize {
    width: f64,
    height: f64,
    ratio: f64,
}

/// A chart canvas that fills its box (sized by the stylesheet) and redraws when its data, the
/// palette or its size change.
#[component]
pub fn ChartCanvas<T>(
    /// Element id of the `<canvas>` (tests and the benchmark find charts by it).
    id: &'static str,
    /// Text alternative: what the chart shows, in words (the canvas is an image to assistive
    /// technology).
    #[prop(into)]
    label: Signal<String>,
    /// The chart's data.
    #[prop(into)]
    data: Signal<T>,
    /// Where the data's [`Stamp`] is.
    stamp: fn(&T) -> &Stamp,
    /// The colours (they change with the theme).
    #[prop(into)]
    palette: Signal<Palette>,
    /// Draws `data` on the canvas.
    draw: DrawFn<T>,
) -> impl IntoView
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    let canvas_ref = NodeRef::<html::Canvas>::new();
    let box_ref = NodeRef::<html::Div>::new();
    let size = follow_box(box_ref, box_size);

    let drawing = Rc::new(Drawing {
        canvas: canvas_ref,
        size,
        palette,
        data,
        painter: Painter { id, stamp, draw },
        log: DrawLog::keeping_frames(),
        on_screen: follow_on_screen(box_ref),
    });
    Effect::new(move |_| {
        data.track();
        palette.track();
        size.track();
        drawing.ask();
    });

    view! {
        <div class="chart-box" node_ref=box_ref>
            <canvas id=id node_ref=canvas_ref role="img" aria-label=move || label.get()></canvas>
        </div>
    }
}

/// What a [`ChartCanvas`] draws, and where.
struct Drawing<T: Send + Sync + 'static> {
    canvas: NodeRef<html::Canvas>,
    size: RwSignal<BoxSize>,
    palette: Signal<Palette>,
    data: Signal<T>,
    painter: Painter<T>,
    log: DrawLog,
    on_screen: Rc<Cell<bool>>,
}

impl<T: Send + Sync + 'static> Drawing<T> {
    /// Asks for the chart to be drawn in its turn among the page's charts (see
    /// [`super::turns`]), however many changes arrive before it, with the data of then; a chart
    /// gone by then is not drawn. A first drawing that drew only its frame asks for the rest in
    /// a turn of its own.
    fn ask(self: &Rc<Self>) {
        let this = self.clone();
        turns::ask(self.painter.id, self.on_screen.clone(), move || {
            let (Some(canvas), Some(size), Some(palette)) = (
                this.canvas.try_get_untracked().flatten(),
                this.size.try_get_untracked(),
                this.palette.try_get_untracked(),
            ) else {
                return;
            };
            let painted = this
                .data
                .try_with_untracked(|d| this.painter.paint(&canvas, size, palette, d, &this.log));
            if painted == Some(Painted::FrameOnly) {
                this.ask();
            }
        });
    }
}

/// The largest ratio of backing-store pixels to CSS pixels a chart uses. Phones have 3 (and
/// more): at 3 a chart's canvas holds 2.25 times the pixels of one at 2, and clearing and
/// handing them to the compositor took 50 to 70 ms per frame of a phone's load at 4x CPU (the
/// page benchmark's trace); at 2 lines and text stay sharp at a phone's reading distance.
pub const MAX_BACKING_RATIO: f64 = 2.0;

/// Whether the chart's box is on the screen, kept current by an intersection observer; `true`
/// until its first notice (a chart is presumed wanted until the browser says otherwise).
fn follow_on_screen(box_ref: NodeRef<html::Div>) -> Rc<Cell<bool>> {
    let on_screen = Rc::new(Cell::new(true));
    let observer: Rc<RefCell<Option<Watcher>>> = Rc::default();
    {
        let (on_screen, observer) = (on_screen.clone(), observer.clone());
        Effect::new(move |_| {
            let Some(div) = box_ref.get() else { return };
            if observer.borrow().is_some() {
                return;
            }
            let on_screen = on_screen.clone();
            let callback =
                Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
                    // The newest notice is the one that holds.
                    if let Ok(entry) = entries
                        .get(entries.length().saturating_sub(1))
                        .dyn_into::<IntersectionObserverEntry>()
                    {
                        on_screen.set(entry.is_intersecting());
                    }
                });
            if let Ok(io) = IntersectionObserver::new(callback.as_ref().unchecked_ref()) {
                io.observe(&div);
                *observer.borrow_mut() = Some((io, callback));
            }
        });
    }
    let observer = send_wrapper::SendWrapper::new(observer);
    on_cleanup(move || {
        if let Some((io, _)) = observer.borrow_mut().take() {
            io.disconnect();
        }
    });
    on_screen
}

/// An intersection observer and the callback it calls.
type Watcher = (IntersectionObserver, Closure<dyn FnMut(js_sys::Array)>);

/// The size of a chart's box now, and the pixel ratio its canvas draws at.
fn box_size(div: &web_sys::Element) -> BoxSize {
    let ratio = window().device_pixel_ratio();
    BoxSize {
        width: f64::from(div.client_width()),
        height: f64::from(div.client_height()),
        ratio: if ratio.is_finite() && ratio > 0.0 {
            ratio.min(MAX_BACKING_RATIO)
        } else {
            1.0
        },
    }
}

/// A chart drawn outside the app, on a canvas of its own, for the opening chart
/// ([`crate::ui::opening_chart`]), which draws one chart before the app exists.
pub struct LoneChart<T: 'static> {
    canvas: HtmlCanvasElement,
    painter: Painter<T>,
    data: T,
    palette: Palette,
    log: DrawLog,
}

impl<T: 'static> LoneChart<T> {
    pub fn new(
        id: &'static str,
        canvas: HtmlCanvasElement,
        data: T,
        stamp: fn(&T) -> &Stamp,
        palette: Palette,
        draw: DrawFn<T>,
    ) -> LoneChart<T> {
        LoneChart {
            canvas,
            painter: Painter { id, stamp, draw },
            data,
            palette,
            log: DrawLog::default(),
        }
    }

    /// Draws the chart at its box's size as laid out now (measuring it forces the layout a
    /// first paint needs anyway), and stamps the canvas as a [`ChartCanvas`] does.
    pub fn draw(&self) {
        if let Some(div) = self.canvas.parent_element() {
            let size = box_size(&div);
            (self.painter).paint(&self.canvas, size, self.palette, &self.data, &self.log);
        }
    }

    pub fn canvas(&self) -> &HtmlCanvasElement {
        &self.canvas
    }
}

/// The class of the opening chart's drawing once the app's chart has taken it in: it shows
/// under the app's canvas until that canvas's first drawing covers it.
pub const UNDERLAY_CLASS: &str = "opening-chart-underlay";

/// Removes the opening chart's drawing under `canvas`, if any (see [`UNDERLAY_CLASS`]).
fn remove_underlay(canvas: &HtmlCanvasElement) {
    if let Some(under) = canvas.previous_element_sibling() {
        if under.class_list().contains(UNDERLAY_CLASS) {
            under.remove();
        }
    }
}

/// What a canvas has drawn so far, for the data attributes tests and the benchmark read, and
/// its context's text settings.
#[derive(Default)]
struct DrawLog {
    /// The canvas's context's text settings, kept from one drawing to the next.
    text: Rc<RefCell<TextSettings>>,
    last_state: RefCell<(String, bool)>,
    draws: Cell<u64>,
    longest_ms: Cell<f64>,
    /// Whether the canvas keeps its chart's frame between drawings (a chart drawn once, the
    /// opening chart, has no use for it).
    keeps_frames: bool,
    /// The kept frame, made at the first drawing.
    frame: std::cell::OnceCell<Rc<CanvasFrame>>,
}

impl DrawLog {
    fn keeping_frames() -> DrawLog {
        DrawLog {
            keeps_frames: true,
            ..DrawLog::default()
        }
    }

    /// Where `canvas` keeps its frame, if it keeps one.
    fn frame(&self, canvas: &HtmlCanvasElement) -> Option<Rc<CanvasFrame>> {
        self.keeps_frames.then(|| {
            self.frame
                .get_or_init(|| {
                    Rc::new(CanvasFrame {
                        canvas: canvas.clone(),
                        kept: RefCell::default(),
                    })
                })
                .clone()
        })
    }

    /// The [`FrameSlot`] of a drawing on `canvas`.
    fn frames(&self, canvas: &HtmlCanvasElement) -> FrameSlot {
        self.frame(canvas)
            .map(|f| FrameSlot::new(f as Rc<dyn FrameStore>))
            .unwrap_or_default()
    }
}

/// A chart canvas's last frame: a copy of its pixels, in a canvas of its own that is never
/// shown, with its key.
struct CanvasFrame {
    canvas: HtmlCanvasElement,
    kept: RefCell<Option<(FrameKey, HtmlCanvasElement)>>,
}

impl CanvasFrame {
    /// Whether a frame is kept.
    fn holds_frame(&self) -> bool {
        self.kept.borrow().is_some()
    }
}

/// A blank canvas of `width` x `height` pixels, never shown: a kept frame's copy, or the canvas
/// of a drawing of the frame alone, which [`FrameAlone`] keeps as drawn.
fn blank_canvas(width: u32, height: u32) -> Option<HtmlCanvasElement> {
    let blank: HtmlCanvasElement = document().create_element("canvas").ok()?.unchecked_into();
    blank.set_width(width);
    blank.set_height(height);
    Some(blank)
}

/// The store of a drawing of the frame alone, into a canvas of its own ([`blank_canvas`]):
/// keeping the frame keeps that canvas, as drawn, for the chart's canvas.
struct FrameAlone {
    frame: Rc<CanvasFrame>,
    drawn: HtmlCanvasElement,
}

impl FrameStore for FrameAlone {
    fn restore(&self, _key: FrameKey) -> bool {
        false
    }

    fn keep(&self, key: FrameKey) {
        *self.frame.kept.borrow_mut() = Some((key, self.drawn.clone()));
    }
}

/// The 2D context of `canvas`, if it has one.
fn context_2d(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok()??.dyn_into().ok()
}

impl FrameStore for CanvasFrame {
    fn restore(&self, key: FrameKey) -> bool {
        let kept = self.kept.borrow();
        let Some((kept_key, copy)) = kept.as_ref() else {
            return false;
        };
        if *kept_key != key
            || copy.width() != self.canvas.width()
            || copy.height() != self.canvas.height()
        {
            return false;
        }
        context_2d(&self.canvas).is_some_and(|c| {
            c.draw_image_with_html_canvas_element(copy, 0.0, 0.0)
                .is_ok()
        })
    }

    fn keep(&self, key: FrameKey) {
        let mut kept = self.kept.borrow_mut();
        let (width, height) = (self.canvas.width(), self.canvas.height());
        let copy = match kept.take() {
            Some((_, copy)) => {
                // Setting a canvas's size clears it, even to the same size.
                copy.set_width(width);
                copy.set_height(height);
                copy
            }
            None => match blank_canvas(width, height) {
                Some(blank) => blank,
                None => return,
            },
        };
        let copied = context_2d(&copy).is_some_and(|c| {
            c.draw_image_with_html_canvas_element(&self.canvas, 0.0, 0.0)
                .is_ok()
        });
        if copied {
            *kept = Some((key, copy));
        }
    }
}

/// How one chart draws: its canvas id, where its data's stamp is, and its drawing function.
struct Painter<T: 'static> {
    id: &'static str,
    stamp: fn(&T) -> &Stamp,
    draw: DrawFn<T>,
}

impl<T> Clone for Painter<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Painter<T> {}

/// What a [`Painter::paint`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Painted {
    /// Nothing: the box has no size, the canvas no context, or the drawing failed (logged).
    Nothing,
    /// The chart's frame alone, kept off the screen: the rest follows in another drawing.
    FrameOnly,
    /// The chart, on its canvas.
    Chart,
}

impl<T> Painter<T> {
    /// Sizes the canvas's backing store to the box times the pixel ratio, draws `data`, and
    /// stamps the canvas with what it shows and how long drawing took.
    ///
    /// A canvas's first drawing, where it keeps frames, draws the frame alone into a canvas
    /// of its own, never shown, keeps it and stops ([`Painted::FrameOnly`]); the next drawing
    /// finds it kept and draws the rest. On a page's load the code that draws a frame and the
    /// code that draws the rest are then each first run, and compiled by the browser, in a
    /// task of its own: in one, the first drawing of the IOPS chart was a task of 50 to 85 ms
    /// on a phone at 4x CPU (CHANGELOG.md "A chart's first drawing in two"). A chart that keeps no
    /// frame draws itself whole there, and that drawing is shown.
    fn paint(
        self,
        canvas: &HtmlCanvasElement,
        size: BoxSize,
        palette: Palette,
        data: &T,
        log: &DrawLog,
    ) -> Painted {
        let BoxSize {
            width,
            height,
            ratio,
        } = size;
        if width < 1.0 || height < 1.0 {
            return Painted::Nothing;
        }
        let (bw, bh) = (
            (width * ratio).round() as u32,
            (height * ratio).round() as u32,
        );
        if canvas.width() != bw || canvas.height() != bh {
            canvas.set_width(bw);
            canvas.set_height(bh);
            // A resized canvas's context is back to its default settings.
            *log.text.borrow_mut() = TextSettings::default();
        }
        let style = |frames: FrameSlot| ChartStyle {
            palette,
            scale: ratio,
            css_width: width,
            frames,
        };
        let performance = window().performance();
        let started = performance.as_ref().map(|p| p.now());
        let first_frame = (log.draws.get() == 0)
            .then(|| log.frame(canvas))
            .flatten()
            .filter(|f| !f.holds_frame());
        let drawn = match first_frame {
            Some(frame) => {
                let Some(alone) = blank_canvas(bw, bh) else {
                    return Painted::Nothing;
                };
                let slot = FrameSlot::frame_only(Rc::new(FrameAlone {
                    frame: frame.clone(),
                    drawn: alone.clone(),
                }));
                // Its own context, so its own text settings.
                if !self.draw_on(&alone, Rc::default(), data, &style(slot)) {
                    return Painted::Nothing;
                }
                if frame.holds_frame() {
                    return Painted::FrameOnly;
                }
                context_2d(canvas).is_some_and(|c| {
                    c.draw_image_with_html_canvas_element(&alone, 0.0, 0.0)
                        .is_ok()
                })
            }
            None => self.draw_on(canvas, log.text.clone(), data, &style(log.frames(canvas))),
        };
        if !drawn {
            return Painted::Nothing;
        }
        remove_underlay(canvas);
        log.draws.set(log.draws.get() + 1);
        let took = performance
            .as_ref()
            .zip(started)
            .map(|(p, t)| p.now() - t)
            .unwrap_or_default();
        log.longest_ms.set(log.longest_ms.get().max(took));
        stamp_canvas(
            canvas,
            (self.stamp)(data),
            log.draws.get(),
            &mut log.last_state.borrow_mut(),
        );
        let _ = canvas.set_attribute("data-draw-ms", &format!("{took:.1}"));
        let _ = canvas.set_attribute("data-draw-max-ms", &format!("{:.1}", log.longest_ms.get()));
        Painted::Chart
    }

    /// Draws `data` on `canvas` (whose context's text settings `text` follows) in `style`;
    /// whether it did (a failure is logged).
    fn draw_on(
        self,
        canvas: &HtmlCanvasElement,
        text: Rc<RefCell<TextSettings>>,
        data: &T,
        style: &ChartStyle,
    ) -> bool {
        let Some(backend) = LabCanvas::new(canvas, text) else {
            return false;
        };
        let root = backend.into_drawing_area();
        match (self.draw)(&root, data, style).and_then(|_| root.present()) {
            Ok(()) => true,
            Err(e) => {
                leptos::logging::warn!("drawing chart {} failed: {e}", self.id);
                false
            }
        }
    }
}

/// Writes the drawing's stamp onto the canvas (see the module documentation).
fn stamp_canvas(canvas: &HtmlCanvasElement, stamp: &Stamp, draws: u64, last: &mut (String, bool)) {
    let now = window()
        .performance()
        .map(|p| p.now())
        .unwrap_or_default()
        .to_string();
    let set = |name: &str, value: &str| {
        let _ = canvas.set_attribute(name, value);
    };
    if last.0 != stamp.state {
        *last = (stamp.state.clone(), false);
        set("data-first-drawn-at", &now);
        let _ = canvas.remove_attribute("data-complete-at");
    }
    if stamp.missing == 0 && !last.1 {
        last.1 = true;
        set("data-complete-at", &now);
    }
    set("data-state", &stamp.state);
    set("data-missing", &stamp.missing.to_string());
    set("data-draws", &draws.to_string());
    set("data-drawn-at", &now);
}
