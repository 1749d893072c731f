//! A chart's frame (its background, grid, axes, tick labels and axis titles) kept between
//! drawings, so that redrawing a chart whose axes did not change draws only its data.
//!
//! The frame was most of a chart's drawing: a trace of 20 queue-depth key presses on the
//! desktop had the grid and its labels at 176 of the 289 samples the five charts took (the tick
//! labels' `fillText` alone 120), the curves at 39. A slider step moves the current point and
//! its guide; the axes stay.
//!
//! What always holds:
//! - a frame is reused only for the same [`FrameKey`]: the drawing area's size in pixels, the
//!   style (palette, scale, width), and both axes' ranges, ticks, tick labels and titles;
//!   anything else draws it afresh;
//! - a [`FrameSlot`] with no store (tests, the opening chart) always draws the frame;
//! - a drawing whose slot asks for the frame only ([`FrameSlot::frame_only`]) draws and keeps
//!   the frame and nothing else (a chart's first drawing: the rest follows in a task of its
//!   own, [`super::canvas`]);
//! - drawing stays a pure function of its data and style: the store only replaces pixels with
//!   the same pixels.

use std::fmt;
use std::rc::Rc;

/// What identifies a frame: equal keys draw equal pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameKey(u64);

impl FrameKey {
    /// The key of a frame whose drawing inputs hashed to `hash`.
    pub fn from_hash(hash: u64) -> FrameKey {
        FrameKey(hash)
    }
}

/// Where a canvas keeps its chart's last frame.
pub trait FrameStore {
    /// Puts the frame kept under `key` on the canvas, if that is the one kept; whether it did.
    fn restore(&self, key: FrameKey) -> bool;
    /// Keeps what the canvas shows now as the frame under `key`.
    fn keep(&self, key: FrameKey);
}

/// A chart's [`FrameStore`], if its canvas has one, and whether this drawing draws only the
/// frame.
#[derive(Clone, Default)]
pub struct FrameSlot {
    store: Option<Rc<dyn FrameStore>>,
    only_frame: bool,
}

impl FrameSlot {
    pub fn new(store: Rc<dyn FrameStore>) -> FrameSlot {
        FrameSlot {
            store: Some(store),
            only_frame: false,
        }
    }

    /// A slot for a drawing that draws its frame, keeps it in `store` and stops there: the
    /// rest of the chart follows in another drawing, which finds the frame kept.
    pub fn frame_only(store: Rc<dyn FrameStore>) -> FrameSlot {
        FrameSlot {
            store: Some(store),
            only_frame: true,
        }
    }

    /// Whether there is a store (else a frame is always drawn, and needs no key).
    pub fn keeps(&self) -> bool {
        self.store.is_some()
    }

    /// Whether the drawing stops once its frame is kept.
    pub fn only_frame(&self) -> bool {
        self.only_frame
    }

    /// See [`FrameStore::restore`]; never with no store.
    pub fn restore(&self, key: FrameKey) -> bool {
        self.store.as_ref().is_some_and(|s| s.restore(key))
    }

    /// See [`FrameStore::keep`].
    pub fn keep(&self, key: FrameKey) {
        if let Some(s) = &self.store {
            s.keep(key);
        }
    }
}

impl PartialEq for FrameSlot {
    fn eq(&self, other: &FrameSlot) -> bool {
        self.only_frame == other.only_frame
            && match (&self.store, &other.store) {
                (None, None) => true,
                (Some(a), Some(b)) => Rc::ptr_eq(a, b),
                _ => false,
            }
    }
}

impl fmt::Debug for FrameSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match (&self.store, self.only_frame) {
            (None, _) => "FrameSlot(none)",
            (Some(_), false) => "FrameSlot(store)",
            (Some(_), true) => "FrameSlot(store, frame only)",
        })
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::super::iodepth_chart::{self, IodepthChartData, X_TITLE};
    use super::super::recording::Recorder;
    use super::super::{Curve, Dash, DepthSeries, SeriesColour};
    use super::*;
    use crate::ui::charts::axis::Axis;
    use crate::ui::charts::paint::frame_key;
    use crate::ui::charts::style::ChartStyle;

    /// A store that keeps only a frame's key (its pixels need a browser).
    #[derive(Default)]
    struct KeyOnly {
        kept: Cell<Option<FrameKey>>,
        restored: Cell<usize>,
    }

    impl FrameStore for KeyOnly {
        fn restore(&self, key: FrameKey) -> bool {
            let hit = self.kept.get() == Some(key);
            self.restored.set(self.restored.get() + usize::from(hit));
            hit
        }

        fn keep(&self, key: FrameKey) {
            self.kept.set(Some(key));
        }
    }

    fn at_depth(current_iodepth: u32, top: f64) -> IodepthChartData {
        IodepthChartData {
            depth: DepthSeries {
                curves: vec![Curve {
                    label: "x".into(),
                    colour: SeriesColour::Series(0),
                    emphasis: true,
                    dash: Dash::Solid,
                    points: vec![(1.0, top / 10.0), (32.0, top / 2.0), (256.0, top)],
                }],
                current_iodepth,
                ..DepthSeries::default()
            },
            ..IodepthChartData::default()
        }
    }

    #[test]
    fn a_slider_step_reuses_the_frame_and_new_axes_draw_it_afresh() {
        let store = Rc::new(KeyOnly::default());
        let style = ChartStyle {
            frames: FrameSlot::new(store.clone()),
            ..ChartStyle::default()
        };
        let draw = |data: &IodepthChartData| {
            Recorder::draw(640, 360, |root| iodepth_chart::draw(root, data, &style))
        };
        let first = draw(&at_depth(32, 264e3));
        assert!(first.has_text(X_TITLE) && first.has_text("IOPS"));
        assert_eq!(store.restored.get(), 0);

        // The current depth moves, the axes stay: the kept frame, no label drawn again.
        let step = draw(&at_depth(64, 264e3));
        assert_eq!(store.restored.get(), 1);
        assert!(
            !step.has_text(X_TITLE) && !step.has_text("IOPS"),
            "{:?}",
            step.texts
        );
        assert!(
            step.paths_in(style.palette.series[0]) >= 1,
            "the curve is drawn"
        );

        // A taller curve changes the value axis: the frame is drawn again.
        let taller = draw(&at_depth(64, 900e3));
        assert_eq!(store.restored.get(), 1);
        assert!(taller.has_text("IOPS"));
    }

    /// A chart's first drawing in two: the frame alone, kept, then the rest on the kept frame,
    /// drawing what one drawing would have drawn between them.
    #[test]
    fn a_drawing_of_the_frame_alone_keeps_it_and_draws_nothing_else() {
        let store = Rc::new(KeyOnly::default());
        let frame_only = ChartStyle {
            frames: FrameSlot::frame_only(store.clone()),
            ..ChartStyle::default()
        };
        let data = at_depth(32, 264e3);
        let frame = Recorder::draw(640, 360, |root| {
            iodepth_chart::draw(root, &data, &frame_only)
        });
        assert!(frame.has_text(X_TITLE) && frame.has_text("IOPS"));
        assert!(store.kept.get().is_some(), "the frame is kept");
        assert_eq!(
            frame.paths_in(frame_only.palette.series[0]),
            0,
            "no curve: {:?}",
            frame.texts
        );

        let rest_style = ChartStyle {
            frames: FrameSlot::new(store.clone()),
            ..ChartStyle::default()
        };
        let rest = Recorder::draw(640, 360, |root| {
            iodepth_chart::draw(root, &data, &rest_style)
        });
        assert_eq!(store.restored.get(), 1, "the rest finds the frame kept");
        assert!(!rest.has_text(X_TITLE), "{:?}", rest.texts);
        assert!(
            rest.paths_in(rest_style.palette.series[0]) >= 1,
            "the curve"
        );
    }

    #[test]
    fn frames_differ_by_size_style_and_labels() {
        fn label(v: f64) -> String {
            format!("{v}")
        }
        fn other(v: f64) -> String {
            format!("{v} x")
        }
        let axis = |label: &'static dyn Fn(f64) -> String| Axis {
            lo: 0.0,
            hi: 10.0,
            ticks: vec![0.0, 5.0, 10.0],
            title: "t",
            label,
        };
        let style = ChartStyle::default();
        let key = frame_key((640, 360), &style, &axis(&label), &axis(&label));
        assert_eq!(
            key,
            frame_key((640, 360), &style, &axis(&label), &axis(&label))
        );
        assert_ne!(
            key,
            frame_key((641, 360), &style, &axis(&label), &axis(&label))
        );
        assert_ne!(
            key,
            frame_key((640, 360), &style, &axis(&label), &axis(&other))
        );
        let dark = ChartStyle {
            palette: super::super::style::Palette {
                background: plotters::style::RGBColor(0, 0, 0),
                ..style.palette
            },
            ..ChartStyle::default()
        };
        assert_ne!(
            key,
            frame_key((640, 360), &dark, &axis(&label), &axis(&label))
        );
    }
}
