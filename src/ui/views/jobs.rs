//! Several jobs on one drive: the jobs' controls ([`JobsControls`](crate::ui::controls::jobs::JobsControls), in the controls panel) and
//! their results ([`JobsFigure`], where the charts are): each job's IOPS, MB/s, mean and p99
//! latency with every job running, its p99 alone, and the drive's total; then each job's p99
//! anatomy, together and alone (where its time goes, in the readout's colours).
//!
//! What always holds: the jobs run in a worker of the pool (never on the page's thread), the
//! latest set asked replacing the one before; every figure is a model result and says so; the
//! table is plain HTML, so it reads to assistive technology as it reads on screen.

use leptos::prelude::*;

use crate::ui::pure::guide::GuidePage;
use crate::ui::views::guide_link::GuideLink;

use crate::ui::browser::pool::Pool;
use crate::ui::pure::anatomy::{self, JobP99};
use crate::ui::pure::format;
use crate::ui::pure::state::{JobSetup, Jobs, Lab, LabState};
use crate::ui::pure::words::job_words;
use crate::ui::views::anatomy::{labelled_bar, legend_view};
use crate::ui::views::task_status::TaskStatus;
use parallelism_work::jobs::{JobFigures, JobsAsk, JobsFound};

/// A p99 together at least this many times its p99 alone is named in the summary.
const HURT_RATIO: f64 = 1.5;

/// What the worker is asked for the state's jobs.
pub fn ask(state: &LabState) -> JobsAsk {
    JobsAsk {
        drive: crate::ui::pure::compute::drive_key(&state.drive),
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
        <figure class="chart jobs-figure" id="figure-jobs" data-state=move || { pool.jobs_revision(); crate::ui::pure::url_state::to_query(&lab.state()) }>
            <h2>"Several jobs on one drive"</h2>
            <GuideLink page=GuidePage::Workloads />
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
        <JobsAnatomy jobs=jobs found=found />
    }
}

/// Each job's p99, where its time goes: with every job running, and alone, so the reader
/// sees what a writer costs a reader.
#[component]
fn JobsAnatomy(jobs: Jobs, found: JobsFound) -> impl IntoView {
    let per_job: Vec<(String, Vec<JobP99>)> = jobs
        .as_slice()
        .iter()
        .zip(&found.together)
        .enumerate()
        .map(|(i, (j, f))| {
            let alone = found.alone.get(i).map(|a| &a.anatomy);
            (
                format!("Job {}: {}", i + 1, job_words(j)),
                anatomy::job_p99(&f.anatomy, alone),
            )
        })
        .collect();
    let colours = anatomy::colours(
        per_job
            .iter()
            .flat_map(|(_, d)| d)
            .flat_map(|d| std::iter::once(&d.together).chain(&d.alone))
            .flat_map(|b| &b.segments),
    );
    let jobs_view = per_job
        .into_iter()
        .map(|(heading, directions)| {
            view! {
                <div class="anatomy-direction">
                    <h4>{heading}</h4>
                    {directions.into_iter().map(job_direction).collect_view()}
                </div>
            }
        })
        .collect_view();
    view! {
        <section class="anatomy jobs-anatomy" id="jobs-anatomy" aria-labelledby="jobs-anatomy-title">
            <h3 id="jobs-anatomy-title">"Each job's p99: where its time goes (model)"</h3>
            {jobs_view}
            {legend_view("jobs-anatomy-legend", colours)}
        </section>
    }
}

/// One direction of a job: its p99 bar together and alone, and the sentence naming the
/// largest part together.
fn job_direction(d: JobP99) -> impl IntoView {
    let mut together = d.together;
    together.described = format!("With every job running: {}", together.described);
    let alone = d.alone.map(|mut a| {
        a.described = format!("Alone: {}", a.described);
        labelled_bar("alone", a)
    });
    view! {
        <p class="anatomy-sentence">{format!("{}: {}", d.direction.heading(), d.sentence)}</p>
        <ul class="anatomy-bars">
            {labelled_bar("together", together)}
            {alone}
        </ul>
    }
}
