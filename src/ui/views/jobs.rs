//! Several jobs on one drive: the jobs' controls ([`JobsControls`], in the controls panel) and
//! their results ([`JobsFigure`], where the charts are): each job's IOPS, MB/s, mean and p99
//! latency with every job running, its p99 alone, and the drive's total.
//!
//! What always holds: the jobs run in a worker of the pool (never on the page's thread), the
//! latest set asked replacing the one before; every figure is a model result and says so; the
//! table is plain HTML, so it reads to assistive technology as it reads on screen.

use leptos::prelude::*;

use crate::model::config::Rw;
use crate::model::workload::jobfile::{self, MAX_JOB_FILE_BYTES};
use crate::ui::controls::locked;
use crate::ui::embed::Control;
use crate::ui::format;
use crate::ui::pool::Pool;
use crate::ui::readout::pattern_words;
use crate::ui::state::{
    block_size_ladder, qd_ladder, read_share_ladder, JobSetup, Jobs, Lab, LabState, MAX_JOBS,
};
use crate::ui::views::task_status::TaskStatus;
use leptos::task::spawn_local;
use parallelism_work::jobs::{JobFigures, JobsAsk, JobsFound};
use wasm_bindgen_futures::JsFuture;

/// Rates a job can be offered at, besides a closed loop: five a decade from 1,000 to 1,000,000.
const JOB_RATES: [u32; 16] = [
    1_000, 1_600, 2_500, 4_000, 6_300, 10_000, 16_000, 25_000, 40_000, 63_000, 100_000, 160_000,
    250_000, 400_000, 630_000, 1_000_000,
];
/// A p99 together at least this many times its p99 alone is named in the summary.
const HURT_RATIO: f64 = 1.5;

/// What the worker is asked for the state's jobs.
pub fn ask(state: &LabState) -> JobsAsk {
    JobsAsk {
        drive: crate::ui::compute::drive_key(&state.drive),
        state: state.workload.drive_state(),
        power_state: state.drive.power_state(),
        spacing: state.workload.spacing(),
        jobs: state
            .workload
            .jobs()
            .as_slice()
            .iter()
            .map(JobSetup::ask)
            .collect(),
    }
}

/// A job in words, e.g. `random reads, 4 KiB, QD 1` or `... at 20,000 IOPS (at most 4 in
/// flight)`.
pub fn job_words(j: &JobSetup) -> String {
    let load = match j.rate_iops() {
        None => format!("QD {}", j.qd()),
        Some(r) => format!(
            "{} offered, at most {} at the drive",
            format::rate_iops(r),
            j.qd()
        ),
    };
    format!(
        "{}, {}, {load}",
        pattern_words(j.rw(), j.read_pct()),
        format::block_size(j.bs_bytes())
    )
}

/// The jobs whose p99 the others raise most, in one sentence (`None` when none is hurt).
pub fn summary(jobs: &Jobs, found: &JobsFound) -> Option<String> {
    let (index, ratio) = found
        .together
        .iter()
        .zip(&found.alone)
        .map(|(t, a)| t.p99_us / a.p99_us)
        .enumerate()
        .filter(|(_, r)| r.is_finite())
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    (ratio >= HURT_RATIO).then(|| {
        let j = &jobs.as_slice()[index];
        format!(
            "Job {} ({}) waits behind the others: its p99 latency is {:.1} times what it is alone ({} against {}).",
            index + 1,
            job_words(j),
            ratio,
            format::latency_us(found.together[index].p99_us),
            format::latency_us(found.alone[index].p99_us),
        )
    })
}

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
            let text = JsFuture::from(file.text())
                .await
                .ok()
                .and_then(|v| v.as_string());
            let outcome = match text.map(|t| jobfile::parse(&t)) {
                None => Err(format!("{name} could not be read. The jobs are unchanged.")),
                Some(Err(e)) => Err(format!("{name}: {e}. The jobs are unchanged.")),
                Some(Ok(file)) => match Jobs::of_job_file(&file) {
                    Err(why) => Err(format!("{name}: {why}. The jobs are unchanged.")),
                    Ok((jobs, spacing, notes)) => {
                        lab.workload.update(|w| {
                            *w.jobs_mut() = jobs;
                            if let Some(s) = spacing {
                                w.set_spacing(s);
                            }
                        });
                        Ok(notes)
                    }
                },
            };
            loaded.set(Some(outcome));
        });
    };
    let report = move || {
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
                {report}
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
    let depths = qd_ladder()
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
                            j.set_read_pct(crate::ui::url_state::DEFAULT_MIXED_READ_PCT);
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
                selected=read(|j| j.qd().to_string())
                set=change(|j, v| {
                    if let Ok(q) = v.parse() {
                        j.set_qd(q);
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

/// The jobs' results, computed in a worker whenever the jobs or the drive change.
#[component]
pub fn JobsFigure() -> impl IntoView {
    let lab = Lab::expect();
    let pool = Pool::expect();
    let asked = Memo::new(move |_| ask(&lab.state()));
    Effect::new(move |_| pool.start_jobs(asked.get()));
    on_cleanup(move || pool.cancel_jobs());
    let state = Memo::new(move |_| {
        pool.jobs_revision();
        pool.jobs_state()
    });
    let progress = move || {
        state.with(|s| match s {
            None => "Model: stopped. Change a job, or press Run again.".to_string(),
            Some(s) if s.outcome.is_some() => String::new(),
            Some(s) => format!(
                "Model: running the jobs together, then each alone: {} of {} runs…",
                s.progress.done, s.progress.total
            ),
        })
    };
    let running = move || state.with(|s| s.as_ref().is_some_and(|s| s.outcome.is_none()));
    let table = move || {
        let jobs = lab.workload.with(|w| *w.jobs());
        state.with(|s| match s.as_ref().and_then(|s| s.outcome.clone()) {
            Some(Ok(found)) => view! { <JobsTable jobs=jobs found=found /> }.into_any(),
            Some(Err(why)) => view! {
                <p class="error" role="alert">{format!("The model cannot run these jobs: {why}.")}</p>
            }
            .into_any(),
            None => ().into_any(),
        })
    };
    view! {
        <figure class="chart jobs-figure" id="figure-jobs" data-state=move || { pool.jobs_revision(); crate::ui::url_state::to_query(&lab.state()) }>
            <h2>"Several jobs on one drive"</h2>
            <p class="chart-sub">{move || lab.drive.with(|d| format!("{} {}, {}", d.preset().controller.name, format::gb(d.capacity_gb()), lab.workload.with(|w| w.drive_state().label())))}</p>
            <TaskStatus
                id="jobs"
                text=Signal::derive(progress)
                running=Signal::derive(running)
                stopped=Signal::derive(move || state.with(Option::is_none))
                on_cancel=Callback::new(move |()| pool.cancel_jobs())
                on_run=Callback::new(move |()| pool.start_jobs(asked.get_untracked()))
            />
            {table}
            <figcaption>
                "Model results: the jobs run together on the drive, as fio runs the jobs of one group, then each alone on the same drive. A job with a rate arrives on its own clock; one without keeps its depth in flight."
            </figcaption>
        </figure>
    }
}

/// Each job's figures together and its p99 alone, and the drive's total.
#[component]
fn JobsTable(jobs: Jobs, found: JobsFound) -> impl IntoView {
    let cells = |f: &JobFigures| {
        (
            format::compact(f.iops),
            format::mb_s(f.mb_s),
            format::latency_us(f.mean_us),
            format::latency_us(f.p99_us),
        )
    };
    let rows = jobs
        .as_slice()
        .iter()
        .zip(&found.together)
        .enumerate()
        .map(|(i, (j, f))| {
            let (iops, mb, mean, p99) = cells(f);
            let alone = found
                .alone
                .get(i)
                .map_or_else(|| "—".to_string(), |a| format::latency_us(a.p99_us));
            let saturated = f.saturated.then_some(" (saturated)");
            view! {
                <tr>
                    <th scope="row">{format!("Job {}: {}", i + 1, job_words(j))}{saturated}</th>
                    <td>{iops}</td>
                    <td>{mb}</td>
                    <td>{mean}</td>
                    <td>{p99}</td>
                    <td>{alone}</td>
                </tr>
            }
        })
        .collect_view();
    let (iops, mb, mean, p99) = cells(&found.total);
    let summary = summary(&jobs, &found);
    view! {
        <table class="jobs-table" id="jobs-table">
            <caption>"Model: each job with every job running, and its p99 alone"</caption>
            <thead>
                <tr>
                    <th scope="col">"Job"</th>
                    <th scope="col">"IOPS"</th>
                    <th scope="col">"MB/s"</th>
                    <th scope="col">"Mean latency"</th>
                    <th scope="col">"p99 latency"</th>
                    <th scope="col">"p99 alone"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
            <tfoot>
                <tr>
                    <th scope="row">{format!("The drive, all jobs (limited by {}; {})", found.limit, format::watts(found.watts))}</th>
                    <td>{iops}</td>
                    <td>{mb}</td>
                    <td>{mean}</td>
                    <td>{p99}</td>
                    <td></td>
                </tr>
            </tfoot>
        </table>
        {summary.map(|s| view! { <p class="jobs-summary" id="jobs-summary">{s}</p> })}
    }
}
