//! "Your drive": a file input that reads fio's JSON output (`--output-format=json`, one or
//! many jobs) with [`crate::fio::parse_output`] and puts the points into [`crate::ui::state::LabState`], where
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
use crate::ui::state::{Lab, WorkloadSetup, YourDrive};

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
    let jobs = d.points().len();
    let depths: Vec<String> = d.points().iter().map(|p| p.iodepth.to_string()).collect();
    let first = &d.points()[0];
    let what = match (first.rw, first.bs_bytes) {
        (Some(rw), Some(bs)) => format!("{} {}", rw.fio_name(), format::block_size(bs)),
        _ => "fio".to_string(),
    };
    format!(
        "Your drive: {jobs} {} from {} ({what}, queue depth {}), drawn as squares on the IOPS and latency charts.",
        if jobs == 1 { "job" } else { "jobs" },
        d.file_name(),
        depths.join(", ")
    )
}

/// What an import shows of itself when the charts' workload is not the one some of its points
/// were measured with (`None` when every point is drawn, or nothing is imported).
pub fn hidden_text(imported: Option<&YourDrive>, workload: &WorkloadSetup) -> Option<String> {
    let drive = imported?;
    let total = drive.points().len();
    let hidden = total - drive.points_on(workload).count();
    if hidden == 0 {
        return None;
    }
    let mut theirs: Vec<String> = drive
        .points()
        .iter()
        .filter(|p| !YourDrive::shows_on(p, workload))
        .map(|p| match (p.rw, p.bs_bytes) {
            (Some(rw), Some(bs)) => format!("{} {}", rw.fio_name(), format::block_size(bs)),
            _ => format!("{:.0}% reads", p.read_percent),
        })
        .collect();
    theirs.sort_unstable();
    theirs.dedup();
    Some(format!(
        "{hidden} of your {total} fio {} not drawn: measured with {}, while the charts show {} {}. Set the controls to that workload to see {}.",
        if hidden == 1 { "point is" } else { "points are" },
        theirs.join(", "),
        workload.rw().fio_name(),
        format::block_size(workload.bs_bytes()),
        if hidden == 1 { "it" } else { "them" },
    ))
}

/// The import control and its status.
#[component]
pub fn FioImport() -> impl IntoView {
    let Lab {
        imported, workload, ..
    } = Lab::expect();
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
        import(file, imported, outcome);
    };
    let has_import = move || imported.with(Option::is_some);
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
            <p id="fio-hidden" class="hint" role="status">
                {move || imported.with(|i| workload.with(|w| hidden_text(i.as_ref(), w)))}
            </p>
            <Show when=has_import>
                <button
                    type="button"
                    id="fio-remove"
                    on:click=move |_| {
                        imported.set(None);
                        outcome.set(Outcome::None);
                    }
                >
                    "Remove your drive"
                </button>
            </Show>
        </section>
    }
}

/// Reads the chosen file and, if fio's output is in it, makes it "your drive"; says why not
/// otherwise (the charts then stay as they were).
fn import(file: web_sys::File, imported: RwSignal<Option<YourDrive>>, outcome: RwSignal<Outcome>) {
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
            Ok(points) => match YourDrive::new(name.clone(), points) {
                Some(drive) => {
                    outcome.set(Outcome::Imported(summary(&drive)));
                    imported.set(Some(drive));
                }
                None => outcome.set(Outcome::Refused(format!(
                    "{name} holds no fio job. The charts are unchanged."
                ))),
            },
            Err(e) => outcome.set(Outcome::Refused(format!(
                "{name} was not imported: {e}. The charts are unchanged."
            ))),
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fio::FioPoint;
    use crate::model::config::Rw;
    use crate::ui::state::LabState;

    fn point(rw: Rw, bs_bytes: u32, iodepth: u32, read_percent: f64) -> FioPoint {
        FioPoint {
            job: format!("{}-qd{iodepth}", rw.fio_name()),
            rw: Some(rw),
            bs_bytes: Some(bs_bytes),
            iodepth,
            read_percent,
            iops: 1000.0,
            bw_mb_s: 4.0,
            lat_mean_us: 100.0,
            lat_p99_us: None,
        }
    }

    fn lab_with(points: Vec<FioPoint>) -> LabState {
        LabState {
            imported: YourDrive::new("mine.json".into(), points),
            ..LabState::default()
        }
    }

    #[test]
    fn only_points_measured_with_the_charts_workload_are_drawn_and_the_rest_are_named() {
        let mut s = lab_with(vec![
            point(Rw::RandRead, 4096, 1, 100.0),
            point(Rw::RandRead, 4096, 32, 100.0),
            point(Rw::RandWrite, 4096, 1, 0.0),
        ]);
        s.workload.set_random(true);
        s.workload.set_read_pct(100);
        s.workload.set_bs_bytes(4096);
        assert_eq!(s.your_points().count(), 2);
        let text = hidden_text(s.imported.as_ref(), &s.workload).expect("one point is hidden");
        assert!(
            text.starts_with("1 of your 3 fio point is not drawn: measured with randwrite 4 KiB")
                && text.contains("the charts show randread 4 KiB"),
            "{text}"
        );

        s.workload.set_read_pct(0);
        assert_eq!(s.your_points().map(|p| p.iodepth).collect::<Vec<_>>(), [1]);
        s.workload.set_bs_bytes(8192);
        assert_eq!(s.your_points().count(), 0, "another block size");
        assert!(hidden_text(s.imported.as_ref(), &s.workload)
            .unwrap()
            .starts_with("3 of your 3 fio points are not drawn"));
    }

    #[test]
    fn a_mix_counts_as_the_same_within_a_few_points_of_read_share() {
        let s70 = |pct: f64| {
            let mut s = lab_with(vec![point(Rw::RandRw, 4096, 8, pct)]);
            s.workload.set_random(true);
            s.workload.set_read_pct(70);
            s.your_points().count()
        };
        assert_eq!((s70(68.4), s70(74.9), s70(50.0)), (1, 1, 0));
        assert_eq!(
            hidden_text(None, &WorkloadSetup::default()),
            None,
            "nothing imported"
        );
    }
}
