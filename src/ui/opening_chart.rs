//! The opening chart: the IOPS chart drawn by a wasm of its own before the app has arrived.
//!
//! The app's wasm (Leptos, every view, the fio and trace readers) is the largest download of
//! the page, and a reader on a slow network would see only the masthead until all of it has
//! come. The opening chart ([`show`], the whole of the `opening-chart` binary) reads the same
//! URL as the app, lays out the first screen's frame in the app's own classes (so the
//! stylesheet puts the chart where the app's will be) and draws the IOPS chart with the app's
//! own chart code: axes, the current queue depth and the published measurements. The model's
//! curves need the model, which comes with the app and its workers, so the opening chart says
//! that they follow. `assets/boot.js` starts the app's wasm once the opening chart has drawn.
//!
//! It works in tasks of their own, so that none holds the page for long: the binary's start
//! (which only finishes instantiating its wasm), [`show`], which lays out the frame, and
//! [`draw`], which `boot.js` calls once that frame has been shown, draws the chart into it.
//! Drawn in the same task, layout and drawing made the longest task of a phone's load (the
//! page benchmark at 4x CPU), and the start with the layout a task of 62 ms.
//!
//! What always holds:
//! - the opening chart draws only what the app would draw for the same state before its first
//!   result, from the same functions; where the app's first screen is something else (another
//!   view, another load, an embed, which keeps its own layout, or the step of a hosted tour,
//!   whose state is known only once the app has its file) it draws nothing; a built-in tour's
//!   step named alone in a link is drawn from the table of steps `build.rs` makes;
//! - it never stands in the app's way: it draws nothing once the app has mounted, and the
//!   app's mount ([`hand_over`]) takes its drawing into the app's IOPS chart, where it shows
//!   until the app's first drawing of that chart covers it, and removes the rest, so the
//!   chart is never blank between the two;
//! - until the app takes it over, it is drawn again whenever the window's size changes (a
//!   phone turned while a slow network still brings the app), never stretched;
//! - nothing of it can be focused or changed: its view switch is disabled and hidden from
//!   assistive technology, and its chart is an image with the app's text alternative.
//!
//! Its drawing is marked `lab:opening-chart` in the page's performance timeline, and its
//! canvas carries the same stamps as the app's charts, for the page benchmark and the tests.

use std::cell::RefCell;
use std::fmt;

use leptos::prelude::{document, window};
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlCanvasElement};

use crate::ui::app::{apply_theme, opening, read_palette};
use crate::ui::charts::canvas::{LoneChart, UNDERLAY_CLASS};
use crate::ui::charts::{self, iodepth_chart, IodepthChartData};
use crate::ui::pure::embed::ChartId;
use crate::ui::pure::state::{LabState, LoadKind, View};
use crate::ui::pure::{tours, url_state};
use crate::ui::views::embed_frame;
use crate::ui::views::queue_charts::{
    iodepth_stamp, iops_label, iops_title, measured_caption, pattern_text, IOPS_CANVAS_ID,
};

/// The opening chart's root element.
pub const ROOT_ID: &str = "opening-chart-page";
/// Its chart's canvas.
pub const CANVAS_ID: &str = "opening-chart";
/// The performance mark set once the chart is drawn.
pub const DRAWN_MARK: &str = "lab:opening-chart";

/// Why the opening chart drew nothing. Never an error the reader sees: the app follows anyway.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotShown {
    /// The page has its lab already (the app's, or an opening chart drawn before).
    AppFirst,
    /// The app's first screen is not the IOPS chart on the page itself.
    OtherFirstScreen,
    /// The browser refused to build the page's elements.
    NoDocument,
}

impl fmt::Display for NotShown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotShown::AppFirst => "the page has its lab already",
            NotShown::OtherFirstScreen => "the first screen is not the IOPS chart",
            NotShown::NoDocument => "the page's elements could not be built",
        })
    }
}

impl std::error::Error for NotShown {}

thread_local! {
    /// The chart [`show`] laid out, waiting for [`draw`].
    static LAID_OUT: RefCell<Option<LoneChart<IodepthChartData>>> = const { RefCell::new(None) };
}

/// Whether the app's first screen for `state` is the IOPS chart on the page itself.
pub fn starts_with_the_iops_chart(state: &LabState, framed: bool) -> bool {
    !framed
        && !state.embedding.framed
        && state.display.view == View::Queue
        && state.workload.load() == LoadKind::Depth
        && state.embedding.charts.shows(ChartId::Iops)
}

/// Lays out the first screen's frame for the page's URL, with the IOPS chart's canvas empty
/// until [`draw`].
pub fn show() -> Result<(), NotShown> {
    let doc = document();
    if doc.query_selector(".page").ok().flatten().is_some() {
        return Err(NotShown::AppFirst);
    }
    let parsed = url_state::parse_query(&opening(None).query, LabState::default());
    let mut state = parsed.state;
    // A step named alone sets the lab as the step says: a built-in one's state comes from the
    // table made at build time (the tour files' reader stays out of this download); a hosted
    // tour's step is known only once the app has fetched its file.
    if let Some(place) = parsed.tour.filter(|_| !parsed.names_lab) {
        let Some(step_state) = tours::built_in_step_state(&place) else {
            return Err(NotShown::OtherFirstScreen);
        };
        tours::apply_state(step_state, &mut state);
    }
    if !starts_with_the_iops_chart(&state, embed_frame::is_framed()) {
        return Err(NotShown::OtherFirstScreen);
    }
    apply_theme(state.display.theme);
    let set = charts::build(&state, &|_| None);
    let canvas = frame(&doc, &state, &set).ok_or(NotShown::NoDocument)?;
    let chart = LoneChart::new(
        CANVAS_ID,
        canvas,
        set.iodepth,
        iodepth_stamp,
        read_palette(),
        iodepth_chart::draw,
    );
    LAID_OUT.with(|laid_out| laid_out.replace(Some(chart)));
    Ok(())
}

/// Draws the IOPS chart into the frame [`show`] laid out (measuring its box then finds the
/// layout done), and redraws it on resizes from then on. Does nothing if [`show`] laid out
/// nothing, or if it has drawn already.
pub fn draw() {
    let Some(chart) = LAID_OUT.with(RefCell::take) else {
        return;
    };
    chart.draw();
    if let Some(p) = window().performance() {
        let _ = p.mark(DRAWN_MARK);
    }
    follow_resizes(chart);
}

/// Draws `chart` again whenever the window's size changes (a phone turned on a slow network)
/// until the app has taken it over (its canvas then no longer has the opening chart's id).
fn follow_resizes(chart: LoneChart<IodepthChartData>) {
    let redraw = Closure::<dyn FnMut()>::new(move || {
        if chart.canvas().id() == CANVAS_ID {
            chart.draw();
        }
    });
    let _ = window().add_event_listener_with_callback("resize", redraw.as_ref().unchecked_ref());
    // The listener lives as long as the page; after the hand-over it does nothing.
    redraw.forget();
}

/// Builds the first screen's frame in the app's classes and returns its chart's canvas.
fn frame(doc: &Document, state: &LabState, set: &charts::ChartSet) -> Option<HtmlCanvasElement> {
    // A new element in `parent`, with its class and text.
    let add = |parent: &Element, tag: &str, class: &str, words: Option<&str>| {
        let e = doc.create_element(tag).ok()?;
        if !class.is_empty() {
            e.set_class_name(class);
        }
        e.set_text_content(words);
        parent.append_child(&e).ok()?;
        Some(e)
    };

    // Built whole, then put on the page: a frame that could not be built shows nothing.
    let root = doc.create_element("div").ok()?;
    root.set_class_name("page opening-chart");
    root.set_id(ROOT_ID);
    root.set_attribute("aria-busy", "true").ok()?;
    let main = add(&root, "main", "lab", None)?;
    add(&main, "div", "panel", None)?
        .set_attribute("aria-hidden", "true")
        .ok()?;
    let results = add(&main, "div", "results", None)?;

    // The view switch as the app draws it, so the chart below it sits where the app's will.
    let switch = add(&results, "div", "view-switch card", None)?;
    switch.set_attribute("aria-hidden", "true").ok()?;
    let group = add(&switch, "fieldset", "radio-group", None)?;
    add(&group, "legend", "", Some("Charts"))?;
    for view in View::ALL {
        let label = add(&group, "label", "radio", None)?;
        let input = add(&label, "input", "", None)?;
        input.set_attribute("type", "radio").ok()?;
        input.set_attribute("disabled", "").ok()?;
        if view == state.display.view {
            input.set_attribute("checked", "").ok()?;
        }
        add(&label, "span", "", Some(view.label()))?;
    }

    let data = &set.iodepth;
    let charts_div = add(&results, "div", "charts", None)?;
    let figure = add(&charts_div, "figure", "chart", None)?;
    add(&figure, "h2", "", Some(&iops_title(data)))?;
    add(
        &figure,
        "p",
        "chart-sub",
        Some(&pattern_text(&state.workload)),
    )?;
    let chart_box = add(&figure, "div", "chart-box", None)?;
    let canvas: HtmlCanvasElement = add(&chart_box, "canvas", "", None)?.dyn_into().ok()?;
    canvas.set_id(CANVAS_ID);
    canvas.set_attribute("role", "img").ok()?;
    canvas.set_attribute("aria-label", &iops_label(data)).ok()?;
    let caption = format!(
        "The model is loading: its curves follow. Dashed red line: the current queue depth. {}",
        measured_caption(&state.drive, set)
    );
    add(&figure, "figcaption", "", Some(&caption))?;
    doc.body()?.append_child(&root).ok()?;
    Some(canvas)
}

/// The app has mounted: its IOPS chart takes the opening chart's drawing under its own canvas
/// (see [`UNDERLAY_CLASS`]) and the rest of the opening chart goes. Does nothing without an
/// opening chart.
pub fn hand_over() {
    let doc = document();
    let Some(root) = doc.get_element_by_id(ROOT_ID) else {
        return;
    };
    if let (Some(drawn), Some(chart)) = (
        doc.get_element_by_id(CANVAS_ID),
        doc.get_element_by_id(IOPS_CANVAS_ID),
    ) {
        if let Some(chart_box) = chart.parent_element() {
            drawn.remove_attribute("id").ok();
            drawn.set_attribute("aria-hidden", "true").ok();
            drawn.class_list().add_1(UNDERLAY_CLASS).ok();
            chart_box.insert_before(&drawn, Some(&chart)).ok();
        }
    }
    root.remove();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::pure::url_state::parse_query;

    fn state(query: &str) -> LabState {
        parse_query(query, LabState::default()).state
    }

    /// The default view and any drive or depth on it open on the IOPS chart.
    #[test]
    fn the_default_view_starts_with_the_iops_chart() {
        assert!(starts_with_the_iops_chart(&state(""), false));
        assert!(starts_with_the_iops_chart(
            &state("preset=e12&cap=960&qd=4"),
            false
        ));
    }

    /// Another view, another load, an embed or a frame keep their own first screen.
    #[test]
    fn other_first_screens_get_no_opening_chart() {
        for query in [
            "view=time",
            "view=activity",
            "view=review",
            "workload=rate",
            "workload=jobs",
            "embed=1",
        ] {
            assert!(
                !starts_with_the_iops_chart(&state(query), false),
                "{query} opens on the IOPS chart"
            );
        }
        assert!(!starts_with_the_iops_chart(&state(""), true));
    }
}
