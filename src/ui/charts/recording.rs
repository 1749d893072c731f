//! A plotters backend for tests that records what a draw function drew (texts, font sizes,
//! stroked paths by colour, filled polygons and their colours, circles) instead of drawing it.

use std::cell::RefCell;
use std::rc::Rc;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};

/// What was drawn.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    pub texts: Vec<String>,
    pub font_sizes: Vec<f64>,
    /// The colour of every stroked line or path.
    pub strokes: Vec<(u8, u8, u8)>,
    pub polygons: usize,
    /// The colour of every filled polygon, in the order drawn.
    pub fills: Vec<(u8, u8, u8)>,
    pub circles: usize,
}

impl Recorder {
    /// Runs `f` on a `w` x `h` recording area; panics if drawing fails.
    pub fn draw(
        w: u32,
        h: u32,
        f: impl FnOnce(
            &DrawingArea<RecordingBackend, Shift>,
        ) -> Result<(), DrawingAreaErrorKind<std::io::Error>>,
    ) -> Recorder {
        let log = Rc::new(RefCell::new(Recorder::default()));
        let root = RecordingBackend {
            log: log.clone(),
            size: (w, h),
        }
        .into_drawing_area();
        f(&root).expect("drawing failed");
        root.present().expect("present");
        drop(root);
        let rec = log.borrow().clone();
        rec
    }

    pub fn has_text(&self, s: &str) -> bool {
        self.texts.iter().any(|t| t == s)
    }

    /// Stroked lines and paths in `colour`.
    pub fn paths_in(&self, colour: RGBColor) -> usize {
        self.strokes
            .iter()
            .filter(|c| **c == (colour.0, colour.1, colour.2))
            .count()
    }
}

pub struct RecordingBackend {
    log: Rc<RefCell<Recorder>>,
    size: (u32, u32),
}

type R = Result<(), DrawingErrorKind<std::io::Error>>;

impl DrawingBackend for RecordingBackend {
    type ErrorType = std::io::Error;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }
    fn ensure_prepared(&mut self) -> R {
        Ok(())
    }
    fn present(&mut self) -> R {
        Ok(())
    }
    fn draw_pixel(&mut self, _: BackendCoord, _: BackendColor) -> R {
        Ok(())
    }
    fn draw_line<S: BackendStyle>(&mut self, _: BackendCoord, _: BackendCoord, s: &S) -> R {
        self.log.borrow_mut().strokes.push(s.color().rgb);
        Ok(())
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        _: BackendCoord,
        _: BackendCoord,
        _: &S,
        _: bool,
    ) -> R {
        Ok(())
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        _: I,
        s: &S,
    ) -> R {
        self.log.borrow_mut().strokes.push(s.color().rgb);
        Ok(())
    }
    fn draw_circle<S: BackendStyle>(&mut self, _: BackendCoord, _: u32, _: &S, _: bool) -> R {
        self.log.borrow_mut().circles += 1;
        Ok(())
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        _: I,
        s: &S,
    ) -> R {
        let mut log = self.log.borrow_mut();
        log.polygons += 1;
        log.fills.push(s.color().rgb);
        Ok(())
    }
    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, style: &S, _: BackendCoord) -> R {
        let mut log = self.log.borrow_mut();
        log.texts.push(text.to_string());
        log.font_sizes.push(style.size());
        Ok(())
    }
}
