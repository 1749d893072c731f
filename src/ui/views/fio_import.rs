//! "Your drive": a file input that reads fio's JSON output (`--output-format=json`, one or
//! many jobs) with [`crate::fio::parse_output`] and puts the points into [`LabState`], where
//! the charts draw them beside the model.
//!
//! What always holds: a file that does not import (malformed, truncated, too large, not
//! readable) leaves the state exactly as it was and shows a note saying why; the file's name
//! and content only ever reach the page as text.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::HtmlInputElement;

use crate::fio;
use crate::ui::format;
use crate::ui::state::{LabState, YourDrive};

/// Longest file name kept for the legend and the CSV.
const MAX_NAME_CHARS: usize = 60;

/// What the last import did.
#[derive(Clone, Debug, PartialEq)]
enum Outcome {
    None,
    Imported(String),
    Refused(String),
}

/// A summary of imported points for the reader.
fn summary(d: &YourDrive) -> String {
    let jobs = d.points.len();
    let depths: Vec<String> = d.points.iter().map(|p| p.iodepth.to_string()).collect();
    let first = &d.points[0];
    let what = match (first.rw, first.bs_bytes) {
        (Some(rw), Some(bs)) => format!("{} {}", rw.fio_name(), format::block_size(bs)),
        _ => "fio".to_string(),
    };
    format!(
        "Your drive: {jobs} {} from {} ({what}, queue depth {}), drawn as squares on the IOPS and latency charts.",
        if jobs == 1 { "job" } else { "jobs" },
        d.file_name,
        depths.join(", ")
    )
}

/// The import control and its status.
#[component]
pub fn FioImport(
    /// The lab's state (the import is written into it).
    state: RwSignal<LabState>,
) -> impl IntoView {
    let outcome = RwSignal::new(Outcome::None);
    let on_change = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        // Let the same file be chosen again after it changed on disk.
        input.set_value("");
        let name: String = file
            .name()
            .chars()
            .filter(|c| !c.is_control())
            .take(MAX_NAME_CHARS)
            .collect();
        if file.size() > fio::MAX_OUTPUT_BYTES as f64 {
            outcome.set(Outcome::Refused(format!(
                "{name} was not imported: it is larger than {} MiB. The charts are unchanged.",
                fio::MAX_OUTPUT_BYTES >> 20
            )));
            return;
        }
        spawn_local(async move {
            let text = JsFuture::from(file.text())
                .await
                .ok()
                .and_then(|v| v.as_string());
            let Some(text) = text else {
                outcome.set(Outcome::Refused(format!(
                    "{name} could not be read. The charts are unchanged."
                )));
                return;
            };
            match fio::parse_output(&text) {
                Ok(points) => {
                    let drive = YourDrive {
                        file_name: name,
                        points,
                    };
                    outcome.set(Outcome::Imported(summary(&drive)));
                    state.update(|s| s.set_your_drive(Some(drive)));
                }
                Err(e) => outcome.set(Outcome::Refused(format!(
                    "{name} was not imported: {e}. The charts are unchanged."
                ))),
            }
        });
    };
    let has_import = move || state.with(|s| s.your_drive().is_some());
    view! {
        <section id="fio-import" class="fio card" aria-labelledby="fio-title">
            <h2 id="fio-title">"Your drive (fio)"</h2>
            <div class="control">
                <label for="fio-file">"Import fio JSON output (fio --output-format=json)"</label>
                <input id="fio-file" type="file" accept=".json,application/json,text/plain" on:change=on_change />
            </div>
            {move || match outcome.get() {
                Outcome::Refused(why) => Some(view! {
                    <div id="fio-note" class="notes" role="alert">
                        <p>{why}</p>
                        <button type="button" id="dismiss-fio-note" on:click=move |_| outcome.set(Outcome::None)>
                            "Dismiss"
                        </button>
                    </div>
                }.into_any()),
                Outcome::Imported(text) => Some(view! { <p id="fio-status" role="status">{text}</p> }.into_any()),
                Outcome::None => None,
            }}
            <Show when=has_import>
                <button
                    type="button"
                    id="fio-remove"
                    on:click=move |_| {
                        state.update(|s| s.set_your_drive(None));
                        outcome.set(Outcome::None);
                    }
                >
                    "Remove your drive"
                </button>
            </Show>
        </section>
    }
}
