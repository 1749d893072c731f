//! "Your drive": a file input that reads fio's output (`--output-format=json`, `json+` or
//! `json,normal`, one or many jobs) with [`crate::fio::parse_output`] and adds the points to the
//! lab's [`Imports`], where the charts draw them beside the model: up to four files at once,
//! each in its own marker shape, each listed here with what it holds and a Remove button.
//!
//! What always holds: a file that does not import (malformed, truncated, too large, not
//! readable, a fifth file) leaves the imports exactly as they were and shows a note saying why;
//! a file with the name of one already imported replaces it; the file's name and content only
//! ever reach the page as text.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::HtmlInputElement;

use crate::fio;
use crate::ui::charts::FioShape;
use crate::ui::format;
use crate::ui::state::{Imports, Lab, WorkloadSetup, YourDrive, MAX_IMPORTS};
use crate::ui::views::fit_drive::FitYourDrive;

/// Longest file name kept for the legend and the CSV.
const MAX_NAME_CHARS: usize = 60;

/// What the last import did.
#[derive(Clone, Debug, PartialEq)]
enum Outcome {
    None,
    Imported(String),
    Refused(String),
}

/// What an import holds, for the reader: its jobs, their workload and depths, and its marker.
pub fn summary(d: &YourDrive, shape: FioShape) -> String {
    let jobs = d.points().len();
    let depths: Vec<String> = d.points().iter().map(|p| p.iodepth.to_string()).collect();
    let first = &d.points()[0];
    let what = match (first.rw, first.bs_bytes) {
        (Some(rw), Some(bs)) => format!("{} {}", rw.fio_name(), format::block_size(bs)),
        _ => "fio".to_string(),
    };
    format!(
        "{}: {jobs} {} ({what}, queue depth {}), drawn as {} on the IOPS and latency charts.",
        d.file_name(),
        if jobs == 1 { "job" } else { "jobs" },
        depths.join(", "),
        shape.plural()
    )
}

/// The jobs of an import that the charts leave out because they were measured with another
/// workload than the one the charts show, each with its workload (`None` when every job is
/// drawn).
pub fn hidden_text(drive: &YourDrive, workload: &WorkloadSetup) -> Option<String> {
    let total = drive.points().len();
    let hidden: Vec<String> = drive
        .points()
        .iter()
        .filter(|p| !YourDrive::shows_on(p, workload))
        .map(|p| {
            let measured = match (p.rw, p.bs_bytes) {
                (Some(rw), Some(bs)) => format!("{} {}", rw.fio_name(), format::block_size(bs)),
                _ => format!("{:.0}% reads", p.read_percent),
            };
            format!("{} ({measured})", p.job)
        })
        .collect();
    if hidden.is_empty() {
        return None;
    }
    let n = hidden.len();
    Some(format!(
        "{}: {n} of its {total} {} {} not drawn, measured with another workload than the charts show ({} {}): {}. Set the controls to that workload to see {}.",
        drive.file_name(),
        if total == 1 { "job" } else { "jobs" },
        if n == 1 { "is" } else { "are" },
        workload.rw().fio_name(),
        format::block_size(workload.bs_bytes()),
        hidden.join(", "),
        if n == 1 { "it" } else { "them" },
    ))
}

/// The import control, the imported files and the status of the last import.
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
    let files = move || {
        imported.with(|i| {
            i.as_slice()
                .iter()
                .enumerate()
                .map(|(index, d)| {
                    let shape = FioShape::of(index);
                    let text = summary(d, shape);
                    let hidden = workload.with(|w| hidden_text(d, w));
                    view! { <ImportedFile index=index shape=shape text=text hidden=hidden imported=imported /> }
                })
                .collect_view()
        })
    };
    view! {
        <section id="fio-import" class="fio card" aria-labelledby="fio-title">
            <h2 id="fio-title">"Your drive (fio)"</h2>
            <div class="control">
                <label for="fio-file">
                    {format!("Import fio output, up to {MAX_IMPORTS} files (fio --output-format=json, json+ or json,normal)")}
                </label>
                <input id="fio-file" type="file" accept=".json,.txt,.log,application/json,text/plain" on:change=on_change />
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
            <ul class="fio-files" id="fio-files" aria-label="Imported fio files">{files}</ul>
            <FitYourDrive />
        </section>
    }
}

/// One imported file: its marker, what it holds, the jobs the charts leave out, Remove.
#[component]
fn ImportedFile(
    index: usize,
    shape: FioShape,
    text: String,
    hidden: Option<String>,
    imported: RwSignal<Imports>,
) -> impl IntoView {
    view! {
        <li class="fio-file" id=format!("fio-file-{index}")>
            <span class=format!("swatch {}", shape.css_class()) aria-hidden="true"></span>
            <span class="fio-summary">{text}</span>
            {hidden.map(|h| view! { <span class="hint fio-hidden">{h}</span> })}
            <button
                type="button"
                class="small"
                id=format!("fio-remove-{index}")
                on:click=move |_| imported.update(|i| i.remove(index))
            >
                "Remove"
            </button>
        </li>
    }
}

/// Reads the chosen file and, if fio's output is in it, adds it to the imports; says why not
/// otherwise (the charts then stay as they were).
fn import(file: web_sys::File, imported: RwSignal<Imports>, outcome: RwSignal<Outcome>) {
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
        outcome.set(add_import(&name, &text, imported));
    });
}

/// Adds fio's output `text` of the file `name` to the imports, and says what happened.
fn add_import(name: &str, text: &str, imported: RwSignal<Imports>) -> Outcome {
    let points = match fio::parse_output(text) {
        Ok(points) => points,
        Err(e) => {
            return Outcome::Refused(format!(
                "{name} was not imported: {e}. The charts are unchanged."
            ))
        }
    };
    let Some(drive) = YourDrive::new(name.to_string(), points) else {
        return Outcome::Refused(format!(
            "{name} holds no fio job. The charts are unchanged."
        ));
    };
    let mut added = Err(crate::ui::state::ImportRefused::Full);
    imported.update(|i| added = i.add(drive.clone()));
    match added {
        Ok(index) => Outcome::Imported(summary(&drive, FioShape::of(index))),
        Err(why) => Outcome::Refused(format!(
            "{name} was not imported: {why}. The charts are unchanged."
        )),
    }
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
            lat_total_mean_us: None,
        }
    }

    fn lab_with(points: Vec<FioPoint>) -> LabState {
        let mut s = LabState::default();
        s.imported
            .add(YourDrive::new("mine.json".into(), points).unwrap())
            .unwrap();
        s
    }

    fn drawn(s: &LabState) -> Vec<u32> {
        s.imported.as_slice()[0]
            .points_on(&s.workload)
            .map(|p| p.iodepth)
            .collect()
    }

    fn hidden(s: &LabState) -> Option<String> {
        hidden_text(&s.imported.as_slice()[0], &s.workload)
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
        assert_eq!(drawn(&s), [1, 32]);
        let text = hidden(&s).expect("one job is hidden");
        assert_eq!(
            text,
            "mine.json: 1 of its 3 jobs is not drawn, measured with another workload than the \
             charts show (randread 4 KiB): randwrite-qd1 (randwrite 4 KiB). Set the controls to \
             that workload to see it."
        );

        s.workload.set_read_pct(0);
        assert_eq!(drawn(&s), [1]);
        s.workload.set_bs_bytes(8192);
        assert!(drawn(&s).is_empty(), "another block size");
        assert!(hidden(&s)
            .unwrap()
            .starts_with("mine.json: 3 of its 3 jobs are not drawn"));
    }

    #[test]
    fn a_mix_counts_as_the_same_within_a_few_points_of_read_share() {
        let s70 = |pct: f64| {
            let mut s = lab_with(vec![point(Rw::RandRw, 4096, 8, pct)]);
            s.workload.set_random(true);
            s.workload.set_read_pct(70);
            drawn(&s).len()
        };
        assert_eq!((s70(68.4), s70(74.9), s70(50.0)), (1, 1, 0));
    }
}
