//! The several-jobs view's controls, in the controls panel: one group per job (pattern, read
//! share, block size, depth, rate), Add and Remove, and a fio job file to load.
//!
//! What always holds: every value a job takes comes from the ladders the state snaps to, so a
//! job set here always passes the model's checks; a job file refused keeps the jobs as they were.

use super::locked;
use crate::model::config::Rw;
use crate::model::workload::jobfile::{self, MAX_JOB_FILE_BYTES};
use crate::ui::pure::embed::Control;
use crate::ui::pure::format;
use crate::ui::pure::state::{
    block_size_ladder, iodepth_ladder, read_share_ladder, JobSetup, Jobs, Lab, MAX_JOBS,
};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen_futures::JsFuture;

/// Rates a job can be offered at, besides a closed loop: five a decade from 1,000 to 1,000,000.
const JOB_RATES: [u32; 16] = [
    1_000, 1_600, 2_500, 4_000, 6_300, 10_000, 16_000, 25_000, 40_000, 63_000, 100_000, 160_000,
    250_000, 400_000, 630_000, 1_000_000,
];

/// The jobs' controls: one group per job, and Add / Remove.
#[component]
pub fn JobsControls() -> impl IntoView {
    let lab = Lab::expect();
    let count = move || lab.workload.with(|w| w.jobs().as_slice().len());
    let locked = locked(Control::Jobs);
    let full = move || locked.get() || count() >= MAX_JOBS;
    // What the last job file came to: the lines about what was left out, or why it was refused.
    let loaded = RwSignal::new(None::<Result<Vec<String>, String>>);
    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        let name = file.name();
        if file.size() > MAX_JOB_FILE_BYTES as f64 {
            loaded.set(Some(Err(format!(
                "{name} is larger than {} MiB: not a fio job file. The jobs are unchanged.",
                MAX_JOB_FILE_BYTES >> 20
            ))));
            return;
        }
        spawn_local(async move {
            loaded.set(Some(load_job_file(file, lab).await));
        });
    };
    view! {
        <div class="jobs-controls">
            <div class="control">
                <label for="jobs-file">"Load a fio job file"</label>
                <input
                    type="file"
                    id="jobs-file"
                    aria-describedby="jobs-file-hint"
                    on:change=on_file
                    prop:disabled=locked
                />
                <p class="hint" id="jobs-file-hint">
                    "Its first group's jobs (each clone a job, up to four) become the jobs below; a line says what the jobs view leaves out. lab run runs the whole file."
                </p>
                <JobFileReport loaded=loaded />
            </div>
            <For each=move || 0..count() key=|i| *i let:index>
                <JobControls index=index />
            </For>
            <button
                type="button"
                id="job-add"
                prop:disabled=full
                on:click=move |_| lab.workload.update(|w| {
                    w.jobs_mut().add();
                })
            >
                {format!("Add a job (up to {MAX_JOBS})")}
            </button>
        </div>
    }
}

/// Reads a fio job file and, if its first group makes jobs, puts them in the state: the lines
/// about what the jobs view leaves out, or why the file was refused (the jobs unchanged).
async fn load_job_file(file: web_sys::File, lab: Lab) -> Result<Vec<String>, String> {
    let name = file.name();
    let text = JsFuture::from(file.text())
        .await
        .ok()
        .and_then(|v| v.as_string())
        .ok_or_else(|| format!("{name} could not be read. The jobs are unchanged."))?;
    let parsed =
        jobfile::parse(&text).map_err(|e| format!("{name}: {e}. The jobs are unchanged."))?;
    let (jobs, spacing, notes) = Jobs::of_job_file(&parsed)
        .map_err(|why| format!("{name}: {why}. The jobs are unchanged."))?;
    lab.workload.update(|w| {
        *w.jobs_mut() = jobs;
        if let Some(s) = spacing {
            w.set_spacing(s);
        }
    });
    Ok(notes)
}

/// What the last job file came to: the notes on what was left out, or why it was refused.
#[component]
fn JobFileReport(loaded: RwSignal<Option<Result<Vec<String>, String>>>) -> impl IntoView {
    move || {
        loaded.get().map(|r| match r {
            Ok(notes) => view! {
                <div id="jobs-file-notes" role="status">
                    <p class="hint">"Loaded the file's jobs."</p>
                    <ul class="hint">
                        {notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
                    </ul>
                </div>
            }
            .into_any(),
            Err(why) => {
                view! { <p class="error" role="alert" id="jobs-file-refused">{why}</p> }.into_any()
            }
        })
    }
}

/// One `<select>` over `values`, labelled, writing through `set`.
#[component]
fn Pick(
    id: String,
    label: &'static str,
    values: Vec<(String, String)>,
    #[prop(into)] selected: Signal<String>,
    set: Callback<String>,
    #[prop(into)] disabled: Signal<bool>,
) -> impl IntoView {
    let options = values
        .into_iter()
        .map(|(value, text)| {
            let v = value.clone();
            view! { <option value=value prop:selected=move || selected.get() == v>{text}</option> }
        })
        .collect_view();
    let label_for = id.clone();
    view! {
        <div class="control pick">
            <label for=label_for>{label}</label>
            <select id=id prop:disabled=disabled on:change=move |ev| set.run(event_target_value(&ev))>
                {options}
            </select>
        </div>
    }
}

/// Job `index`'s pattern, read share, block size, depth and rate.
#[component]
fn JobControls(index: usize) -> impl IntoView {
    let lab = Lab::expect();
    let locked = locked(Control::Jobs);
    let job = move || {
        lab.workload
            .with(|w| w.jobs().as_slice().get(index).copied())
    };
    let read = move |f: fn(&JobSetup) -> String| {
        Signal::derive(move || job().map(|j| f(&j)).unwrap_or_default())
    };
    let change = move |f: fn(&mut JobSetup, &str)| {
        Callback::new(move |v: String| {
            lab.workload
                .update(|w| w.jobs_mut().update(index, |j| f(j, &v)))
        })
    };
    let patterns = Rw::ALL
        .iter()
        .map(|rw| (rw.fio_name().to_string(), rw.fio_name().to_string()))
        .collect();
    let shares: Vec<(String, String)> = read_share_ladder()
        .values()
        .iter()
        .map(|p| (p.to_string(), format!("{p}% reads")))
        .collect();
    let sizes = block_size_ladder()
        .values()
        .iter()
        .map(|b| (b.to_string(), format::block_size(*b)))
        .collect();
    let depths = iodepth_ladder()
        .values()
        .iter()
        .filter(|q| q.is_power_of_two())
        .map(|q| (q.to_string(), q.to_string()))
        .collect();
    let rates = std::iter::once(("closed".to_string(), "as fast as it completes".to_string()))
        .chain(
            JOB_RATES
                .iter()
                .map(|r| (r.to_string(), format::rate_iops(*r))),
        )
        .collect();
    let mixed = move || job().is_some_and(|j| j.rw().fixed_read_percent().is_none());
    let n = index + 1;
    view! {
        <fieldset class="job" id=format!("job-{n}")>
            <legend>{format!("Job {n}")}</legend>
            <Pick
                id=format!("job-{n}-rw")
                label="Pattern (fio's rw)"
                values=patterns
                selected=read(|j| j.rw().fio_name().to_string())
                set=change(|j, v| {
                    if let Ok(rw) = v.parse::<Rw>() {
                        j.set_random(rw.is_random());
                        if let Some(p) = rw.fixed_read_percent() {
                            j.set_read_pct(u32::from(p));
                        } else if j.rw().fixed_read_percent().is_some() {
                            j.set_read_pct(crate::ui::pure::url_state::DEFAULT_MIXED_READ_PCT);
                        }
                    }
                })
                disabled=locked
            />
            <Show when=mixed>
                <Pick
                    id=format!("job-{n}-mix")
                    label="Read share"
                    values=shares.clone()
                    selected=read(|j| j.read_pct().to_string())
                    set=change(|j, v| {
                        if let Ok(p) = v.parse() {
                            j.set_read_pct(p);
                        }
                    })
                    disabled=locked
                />
            </Show>
            <Pick
                id=format!("job-{n}-bs")
                label="Block size"
                values=sizes
                selected=read(|j| j.bs_bytes().to_string())
                set=change(|j, v| {
                    if let Ok(b) = v.parse() {
                        j.set_bs_bytes(b);
                    }
                })
                disabled=locked
            />
            <Pick
                id=format!("job-{n}-qd")
                label="Queue depth (with a rate: the most at the drive)"
                values=depths
                selected=read(|j| j.iodepth().to_string())
                set=change(|j, v| {
                    if let Ok(q) = v.parse() {
                        j.set_iodepth(q);
                    }
                })
                disabled=locked
            />
            <Pick
                id=format!("job-{n}-rate")
                label="Requests arrive"
                values=rates
                selected=read(|j| j.rate_iops().map_or_else(|| "closed".to_string(), |r| r.to_string()))
                set=change(|j, v| j.set_rate_iops(v.parse().ok()))
                disabled=locked
            />
            <button
                type="button"
                id=format!("job-{n}-remove")
                prop:disabled=move || locked.get() || lab.workload.with(|w| w.jobs().as_slice().len() <= 1)
                on:click=move |_| lab.workload.update(|w| {
                    w.jobs_mut().remove(index);
                })
            >
                {format!("Remove job {n}")}
            </button>
        </fieldset>
    }
}
