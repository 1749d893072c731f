//! The trace view's control, in the controls panel: the reviews' desktop traces or a trace file
//! of the reader's, read and replayed in the model's worker, never uploaded.

use leptos::prelude::*;

use super::locked;
use super::radio::{Choice, RadioGroup};
use crate::ui::browser::pool::Pool;
use crate::ui::pure::embed::Control;
use crate::ui::pure::format;
use crate::ui::pure::state::{Lab, TraceSource};
use crate::ui::pure::words::{trace_label, FILE_FORMATS};
use parallelism_work::replay::{ReplaySource, MAX_TRACE_FILE_BYTES};

/// The trace to replay.
#[component]
pub fn TraceControls() -> impl IntoView {
    let lab = Lab::expect();
    let pool = Pool::expect();
    let choices = TraceSource::ALL
        .iter()
        .map(|t| Choice {
            value: t.id(),
            label: trace_label(*t).to_string(),
        })
        .collect();
    let refused = RwSignal::new(None::<String>);
    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        if file.size() > MAX_TRACE_FILE_BYTES as f64 {
            refused.set(Some(format!(
                "{} is {:.0} MB; the lab replays files up to {} MB. Cut the trace into parts.",
                file.name(),
                file.size() / 1e6,
                MAX_TRACE_FILE_BYTES >> 20
            )));
            return;
        }
        refused.set(None);
        pool.set_trace_file(file);
        lab.workload.update(|w| w.set_trace(TraceSource::File));
    };
    let held = move || {
        pool.replay_revision();
        match pool.trace_file() {
            Some(ReplaySource::File { name, bytes, .. }) => {
                format!(
                    "Holding {name} ({}).",
                    format::grouped(bytes as f64) + " bytes"
                )
            }
            _ => "No file chosen yet.".to_string(),
        }
    };
    let file_view = move || lab.workload.with(|w| w.trace() == TraceSource::File);
    view! {
        <RadioGroup
            name="trace"
            legend="Trace"
            choices=choices
            selected=Signal::derive(move || lab.workload.with(|w| w.trace().id()))
            on_change=Callback::new(move |v: &'static str| {
                if let Ok(t) = v.parse::<TraceSource>() {
                    lab.workload.update(|w| w.set_trace(t));
                }
            })
            locked=locked(Control::Trace)
        />
        <div class="control">
            <label for="trace-upload">"Your trace file"</label>
            <input
                type="file"
                id="trace-upload"
                aria-describedby="trace-upload-hint"
                on:change=on_file
                prop:disabled=locked(Control::Trace)
            />
            <p class="hint" id="trace-upload-hint">
                {format!("{FILE_FORMATS}; read and replayed in the model's worker, never uploaded (a fio job file loads in the several-jobs view). ")}
                <span id="trace-upload-held">{held}</span>
            </p>
            {move || refused.get().map(|r| view! { <p class="error" role="alert" id="trace-upload-refused">{r}</p> })}
        </div>
        <Show when=move || !file_view()>
            <p class="hint">
                "The reviews' desktop tests, generated from their published description (the traces were never published): lone 4 KiB requests and bursts of 128 KiB transfers at the trace's own times, idle gaps capped at 25 ms, at most 32 at the drive. The drive state below applies."
            </p>
        </Show>
    }
}
