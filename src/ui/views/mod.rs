//! Views: sets of charts the page can show instead of the queue-depth charts, each chosen by
//! [`View`] in the state's [`Display`] (and so by the URL's `view` parameter).
//!
//! - [`ViewSwitch`]: the radio buttons that choose the view.
//! - [`queue_charts`]: the charts against queue depth and read share, one component a figure.
//! - [`over_time`]: the drive over time (browser components), on [`charts::over_time`](crate::ui::charts::over_time) (its pure
//!   part: the chart data and the texts made from the worker's results, tested natively).
//! - [`teaching_mode`]: teaching mode (the drive at work, the bottleneck explainer), on
//!   [`crate::ui::pure::teaching`] (its pure part); [`journey`]: its "Follow one request"
//!   card, on [`crate::ui::pure::journey`].
//! - [`review`]: the E12 review's tests on the drive, one bar chart a test in its order.
//! - [`scorecard`]: "How good is this model?": every published figure against the model's
//!   result for it, source by source, and the links that open it.
//! - [`tours`]: the guided tours' panel, shown in every view (one tour leads from one view
//!   to another); [`guess_pad`]: the chart against queue depth as a pad to draw a tour
//!   question's guess on.
//!
//! A view reads the same state as the rest of the page (the preset and capacity the controls
//! set, from the lab's context, [`crate::ui::pure::state::Lab`]) and writes only its own settings
//! ([`crate::ui::pure::state::ViewSettings`]), through their setters.
//!
//! In the readout, [`anatomy`]: where the current point's time goes (on
//! [`crate::ui::pure::anatomy`], its pure part).
//!
//! Around them, [`chrome`]: the masthead, the controls panel and the footer.
//!
//! Beside them, the page's sharing parts (browser only): [`share`] (Copy link, Embed snippet,
//! CSV, PNG and fio job file downloads), [`fio_import`] (the reader's fio JSON as "your measurements"),
//! [`compare`] (pin, family, remove), [`embed_frame`] (the compact chrome's height reported
//! to the embedding page, and whether the frame is in sight), [`embed_api`] (the messages the
//! embedding page and the lab exchange) and [`download`] (text and images to files).
//!
//! None of them holds state of the lab: each reads and writes the parts of the lab's state it
//! needs; only transient feedback (a "copied" confirmation, the
//! note about a refused file) lives in the component.

pub mod anatomy;
pub mod chrome;
pub mod compare;
pub mod download;
pub mod embed_api;
pub mod embed_frame;
pub mod fio_import;
pub mod fit_drive;
pub mod guess_pad;
pub mod guide_link;
pub mod jobs;
pub mod journey;
pub mod notes;
pub mod over_time;
pub mod queue_charts;
pub mod readout;
pub mod review;
pub mod scorecard;
pub mod share;
pub mod task_status;
pub mod teaching_mode;
pub mod tours;
pub mod trace;
pub mod worksheet;

use leptos::prelude::*;

use crate::ui::controls::locked;
use crate::ui::controls::radio::{Choice, RadioGroup};
use crate::ui::pure::embed::Control;
use crate::ui::pure::state::{Display, View};

pub use over_time::OverTimeView;

/// Chooses which charts the page shows.
#[component]
pub fn ViewSwitch(
    /// The display part of the state (the view is read and written).
    display: RwSignal<Display>,
) -> impl IntoView {
    let choices = View::ALL
        .iter()
        .map(|v| Choice {
            value: v.id(),
            label: v.label().to_string(),
        })
        .collect();
    view! {
        <div class="view-switch card">
            <RadioGroup
                name="view"
                legend="Charts"
                choices=choices
                selected=Signal::derive(move || display.with(|d| d.view.id()))
                on_change=Callback::new(move |v: &'static str| {
                    if let Ok(view) = v.parse::<View>() {
                        display.update(|d| d.view = view);
                    }
                })
                locked=locked(Control::View)
            />
        </div>
    }
}
