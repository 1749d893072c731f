//! "Your measurements": a file input (and a drop target) that reads fio's output (JSON, the normal
//! report or terse lines, of fio 2.x to 3.x, one or many jobs) with
//! [`crate::fio::parse_output`] and adds it to the lab's [`Imports`]: the files chosen or dropped
//! together are one drive (one marker shape on the charts, one fit), up to four drives, each
//! listed here with what it holds, its files (how each was read, Move to, Remove), and Remove.
//!
//! What always holds: a file that does not import (malformed, truncated, too large, not
//! readable) is named with the reason and the rest of its batch imports; a batch that would be
//! a fifth drive leaves the imports exactly as they were; a file with the name of one already
//! imported replaces it; file names and contents only ever reach the page as text.

use leptos::prelude::*;

use crate::ui::pure::guide::GuidePage;
use crate::ui::views::guide_link::GuideLink;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::HtmlInputElement;

use crate::fio;
use crate::ui::browser::storage::{self, KeptNote};
use crate::ui::charts::FioShape;
use crate::ui::pure::format;
use crate::ui::pure::state::{
    FioFile, ImportRefused, Imports, Lab, MoveTo, WorkloadSetup, YourDrive, MAX_IMPORTS,
};
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

/// What a drive holds, for the reader: its files, jobs, their workload and depths, and its
/// marker.
pub fn summary(d: &YourDrive, shape: FioShape) -> String {
    let points: Vec<&fio::FioPoint> = d.points().collect();
    let jobs = points.len();
    let mut depths: Vec<u32> = points.iter().map(|p| p.iodepth).collect();
    depths.sort_unstable();
    depths.dedup();
    let depths: Vec<String> = depths.iter().map(u32::to_string).collect();
    let first = points[0];
    let what = match (first.rw, first.bs_bytes) {
        (Some(rw), Some(bs)) => format!("{} {}", rw.fio_name(), format::block_size(bs)),
        _ => "fio".to_string(),
    };
    let files = match d.files().len() {
        1 => String::new(),
        n => format!(" in {n} files"),
    };
    format!(
        "{}: {jobs} {}{files} ({what}, queue depth {}), drawn as {} on the IOPS and latency charts.",
        d.name(),
        if jobs == 1 { "job" } else { "jobs" },
        depths.join(", "),
        shape.plural()
    )
}

/// The jobs of an import that the charts leave out because they were measured with another
/// workload than the one the charts show, each with its workload (`None` when every job is
/// drawn).
pub fn hidden_text(drive: &YourDrive, workload: &WorkloadSetup) -> Option<String> {
    let total = drive.points().count();
    let hidden: Vec<String> = drive
        .points()
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
        drive.name(),
        if total == 1 { "job" } else { "jobs" },
        if n == 1 { "is" } else { "are" },
        workload.rw().fio_name(),
        format::block_size(workload.bs_bytes()),
        hidden.join(", "),
        if n == 1 { "it" } else { "them" },
    ))
}

/// The import control, the imported drives and their files, the status of the last import and
/// what the browser keeps.
#[component]
pub fn FioImport() -> impl IntoView {
    let Lab { imported, .. } = Lab::expect();
    let kept = KeptNote::expect();
    let outcome = RwSignal::new(Outcome::None);
    let on_change = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
        else {
            return;
        };
        let files = input.files().map(|f| list(&f)).unwrap_or_default();
        // Let the same files be chosen again after they changed on disk.
        input.set_value("");
        import(files, imported, outcome);
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        let files = ev
            .data_transfer()
            .and_then(|d| d.files())
            .map(|f| list(&f))
            .unwrap_or_default();
        import(files, imported, outcome);
    };
    let forget = move |_| {
        imported.set(Imports::default());
        storage::forget();
        kept.note.set(None);
        kept.keep_view.set(false);
        outcome.set(Outcome::Imported(
            "Your files, your fitted drive's link and your pins are no longer kept in this browser."
                .to_string(),
        ));
    };
    view! {
        <section id="fio-import" class="fio card" aria-labelledby="fio-title"
            on:dragover=move |ev: leptos::ev::DragEvent| ev.prevent_default()
            on:drop=on_drop>
            <h2 id="fio-title">"Your measurements (fio)"</h2>
            <GuideLink page=GuidePage::Fio />
            <div class="control">
                <label for="fio-file">
                    {format!("Import fio output: the files you choose (or drop here) together are one drive, up to {MAX_IMPORTS} drives (JSON, normal text or terse, fio 2.x to 3.x)")}
                </label>
                <input id="fio-file" type="file" multiple accept=".json,.txt,.log,.out,application/json,text/plain" on:change=on_change />
            </div>
            <ImportOutcome outcome=outcome />
            {move || kept.note.get().map(|note| view! { <p id="fio-kept-note" class="notes" role="status">{note.to_string()}</p> })}
            <ImportedDrives imported=imported outcome=outcome />
            <p class="hint">
                "Your files stay in this browser (kept for your next visit, never sent anywhere). "
                <button type="button" id="fio-forget" class="small" on:click=forget>"Forget my files"</button>
            </p>
            <FitYourDrive />
        </section>
    }
}

/// The last import's outcome: why a file was refused (until dismissed), or what was imported.
#[component]
fn ImportOutcome(outcome: RwSignal<Outcome>) -> impl IntoView {
    view! {
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
    }
}

/// The imported drives, each with its files.
#[component]
fn ImportedDrives(imported: RwSignal<Imports>, outcome: RwSignal<Outcome>) -> impl IntoView {
    let workload = Lab::expect().workload;
    let drives = move || {
        imported.with(|i| {
            let names: Vec<String> = i.as_slice().iter().map(YourDrive::name).collect();
            i.as_slice()
                .iter()
                .enumerate()
                .map(|(index, d)| {
                    let shape = FioShape::of(index);
                    let text = summary(d, shape);
                    let hidden = workload.with(|w| hidden_text(d, w));
                    let files: Vec<(String, String)> = d
                        .files()
                        .iter()
                        .map(|f| (f.name.clone(), f.read_as.clone()))
                        .collect();
                    view! {
                        <ImportedDrive index=index shape=shape text=text hidden=hidden
                            files=files drives=names.clone() imported=imported outcome=outcome />
                    }
                })
                .collect_view()
        })
    };
    view! {
        <ul class="fio-files" id="fio-files" aria-label="Your measured drives and their fio files">{drives}</ul>
    }
}

/// One drive: its marker, what it holds, the jobs the charts leave out, Remove, and its files
/// (each with how it was read, Move to, Remove).
#[component]
fn ImportedDrive(
    index: usize,
    shape: FioShape,
    text: String,
    hidden: Option<String>,
    /// Each file's name and how it was read.
    files: Vec<(String, String)>,
    /// Every drive's name, for Move to.
    drives: Vec<String>,
    imported: RwSignal<Imports>,
    outcome: RwSignal<Outcome>,
) -> impl IntoView {
    let file_rows = files
        .into_iter()
        .enumerate()
        .map(|(f, (name, read_as))| {
            let targets: Vec<(String, String)> = drives
                .iter()
                .enumerate()
                .filter(|(d, _)| *d != index)
                .map(|(d, n)| (d.to_string(), format!("drive {} ({n})", d + 1)))
                .chain(std::iter::once(("new".to_string(), "a drive of its own".to_string())))
                .collect();
            let on_move = move |ev: leptos::ev::Event| {
                let to = match event_target_value(&ev).as_str() {
                    "new" => MoveTo::NewDrive,
                    d => match d.parse() {
                        Ok(d) => MoveTo::Drive(d),
                        Err(_) => return,
                    },
                };
                let mut refused = None;
                imported.update(|i| refused = i.move_file(index, f, to).err());
                if let Some(why) = refused {
                    outcome.set(Outcome::Refused(format!("The file was not moved: {why}.")));
                }
            };
            let label = format!("Move {name} to");
            view! {
                <li class="fio-file-row" id=format!("fio-file-{index}-{f}")>
                    <span class="fio-file-name">{name.clone()}</span>
                    " "<span class="hint">{read_as}</span>
                    <label class="visually-hidden" for=format!("fio-move-{index}-{f}")>{label}</label>
                    <select id=format!("fio-move-{index}-{f}") class="small" on:change=on_move>
                        <option value="" selected>"Move to…"</option>
                        {targets.into_iter().map(|(value, text)| view! { <option value=value>{text}</option> }).collect_view()}
                    </select>
                    <button type="button" class="small" id=format!("fio-remove-{index}-{f}")
                        aria-label=format!("Remove {name}")
                        on:click=move |_| imported.update(|i| i.remove_file(index, f))>
                        "Remove"
                    </button>
                </li>
            }
        })
        .collect_view();
    view! {
        <li class="fio-file" id=format!("fio-drive-{index}")>
            <span class=format!("swatch {}", shape.css_class()) aria-hidden="true"></span>
            <span class="fio-summary">{text}</span>
            {hidden.map(|h| view! { <span class="hint fio-hidden">{h}</span> })}
            <button
                type="button"
                class="small"
                id=format!("fio-remove-{index}")
                on:click=move |_| imported.update(|i| i.remove(index))
            >
                "Remove drive"
            </button>
            <ul class="fio-drive-files" aria-label=format!("Files of drive {}", index + 1)>{file_rows}</ul>
        </li>
    }
}

/// The files of a file list, in order.
fn list(files: &web_sys::FileList) -> Vec<web_sys::File> {
    (0..files.length()).filter_map(|i| files.get(i)).collect()
}

/// Reads the chosen files and adds those holding fio's output as one drive; says which did not
/// import and why (the imports then hold the rest; with none, they stay as they were).
fn import(files: Vec<web_sys::File>, imported: RwSignal<Imports>, outcome: RwSignal<Outcome>) {
    if files.is_empty() {
        return;
    }
    spawn_local(async move {
        let mut read = Vec::new();
        let mut refused = Vec::new();
        for file in files {
            let name: String = file
                .name()
                .chars()
                .filter(|c| !c.is_control())
                .take(MAX_NAME_CHARS)
                .collect();
            if file.size() > fio::MAX_OUTPUT_BYTES as f64 {
                refused.push(format!(
                    "{name} was not imported: it is larger than {} MiB.",
                    fio::MAX_OUTPUT_BYTES >> 20
                ));
                continue;
            }
            // Bytes, not the browser's text: fio's output saved by PowerShell is UTF-16.
            let text = JsFuture::from(file.array_buffer())
                .await
                .ok()
                .map(|buffer| fio::text_of(&js_sys::Uint8Array::new(&buffer).to_vec()));
            match text {
                Some(text) => match read_file(&name, &text) {
                    Ok(f) => read.push(f),
                    Err(why) => refused.push(why),
                },
                None => refused.push(format!("{name} could not be read.")),
            }
        }
        outcome.set(add_files(read, &refused, imported));
    });
}

/// The file `name` of `text` as an import, or why not.
fn read_file(name: &str, text: &str) -> Result<FioFile, String> {
    let output =
        fio::parse_output(text).map_err(|e| sentence(format!("{name} was not imported: {e}")))?;
    let read_as = read_as(&output);
    FioFile::new(name.to_string(), read_as, output.points)
        .ok_or_else(|| format!("{name} holds no fio job."))
}

/// Adds `files` as one drive and says what happened, naming the files `refused` before.
fn add_files(files: Vec<FioFile>, refused: &[String], imported: RwSignal<Imports>) -> Outcome {
    if files.is_empty() {
        return Outcome::Refused(format!("{} The charts are unchanged.", refused.join(" ")));
    }
    let mut added = Err(ImportRefused::Full);
    imported.update(|i| added = i.add(files));
    match added {
        Ok(index) => {
            let text = imported.with(|i| summary(&i.as_slice()[index], FioShape::of(index)));
            if refused.is_empty() {
                Outcome::Imported(text)
            } else {
                Outcome::Refused(format!("{text} {}", refused.join(" ")))
            }
        }
        Err(why) => Outcome::Refused(format!("Not imported: {why}. The charts are unchanged.")),
    }
}

/// `text` ending as a sentence (fio's messages may end in `?`).
fn sentence(text: String) -> String {
    if text.ends_with(['.', '?', '!']) {
        text
    } else {
        text + "."
    }
}

/// How the file was read: its format and fio's version, and the jobs that gave no point.
fn read_as(output: &fio::FioOutput) -> String {
    let mut text = format!("Read as {}.", output.kind());
    if !output.skipped.is_empty() {
        let skipped: Vec<String> = output.skipped.iter().map(|s| s.to_string()).collect();
        text.push_str(&format!(" Left out: {}.", skipped.join("; ")));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fio::FioPoint;
    use crate::model::config::Rw;
    use crate::ui::pure::state::LabState;

    fn point(rw: Rw, bs_bytes: u32, iodepth: u32, read_percent: f64) -> FioPoint {
        FioPoint {
            job: format!("{}-qd{iodepth}", rw.fio_name()),
            rw: Some(rw),
            bs_bytes: Some(bs_bytes),
            iodepth,
            line: 1,
            processes: 1,
            rate_iops: None,
            depth_reckoned: false,
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
            .add(vec![FioFile::new(
                "mine.json".into(),
                "JSON".into(),
                points,
            )
            .unwrap()])
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
    fn each_file_is_read_with_how_and_a_bad_one_says_why_in_one_sentence() {
        let normal = "rr: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=8\n\
                      rr: (groupid=0, jobs=1): err= 0: pid=1\n  read: IOPS=30.9k, BW=121MiB/s (126MB/s)(242MiB/2001msec)\n\
                      \x20   clat (usec): min=50, max=2000, avg=250.12, stdev=30.00\n";
        let f = read_file("rr.txt", normal).unwrap();
        assert_eq!(f.read_as, "Read as fio's normal text.");
        assert_eq!(f.points()[0].iodepth, 8);
        let e = read_file("cut.json", "{\"jobs\": [").unwrap_err();
        assert!(
            e.starts_with("cut.json was not imported: cannot read fio output: not valid JSON"),
            "{e}"
        );
        assert!(e.ends_with("is the file complete?"), "{e}");
        let e = read_file("notes.txt", "hello").unwrap_err();
        assert!(e.ends_with("is this fio's output?"), "{e}");
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
