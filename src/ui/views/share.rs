//! The share and export bar: "Copy link" (with a confirmation, or the link as selectable text
//! when the clipboard is refused), "Embed" (the two snippets of [`crate::ui::pure::snippet`] in read-only text boxes),
//! the visible series as CSV and the workload as a fio job file; [`PngButton`] saves one chart.
//!
//! What always holds: every link and snippet is written from the one [`LabState`] (the URL is
//! its serialisation), never from text the page was opened with; text goes into the page as
//! text (attribute values in the snippet are escaped), never as HTML.

use leptos::prelude::*;

use crate::ui::pure::guide::GuidePage;
use crate::ui::views::guide_link::GuideLink;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

use super::download;
use crate::fio;
use crate::ui::browser::pool::Pool;
use crate::ui::charts::export;
use crate::ui::charts::ChartSet;
use crate::ui::pure::compute;
use crate::ui::pure::embed::ChartId;
use crate::ui::pure::snippet;
use crate::ui::pure::state::{Lab, LabState, LoadKind};
use crate::ui::pure::url_state;
use crate::ui::views::trace;

/// The page's address for `state` (origin and path of this page, query from the state).
pub fn page_url(state: &LabState) -> String {
    let location = window().location();
    format!(
        "{}{}?{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_default(),
        url_state::to_query(state)
    )
}

/// The two embed snippets for the current view.
#[derive(Clone, Debug, PartialEq)]
struct Snippets {
    with_script: String,
    fixed: String,
}

/// What the Copy link button last did.
#[derive(Clone, Debug, PartialEq)]
enum Copied {
    Nothing,
    Done,
    /// The clipboard was refused: show the link to copy by hand.
    Refused(String),
}

/// The CSV the state's view exports: the charts' series, or what the jobs' or the trace's table
/// shows (`None` before their run has a result).
fn csv_text(state: &LabState, charts: &ChartSet, pool: Pool) -> Option<String> {
    match state.workload.load() {
        LoadKind::Jobs => match pool.jobs_state()?.outcome? {
            Ok(found) => Some(export::jobs_csv(state, &found)),
            Err(_) => None,
        },
        LoadKind::Trace => match pool.replay_state()?.outcome? {
            Ok(found) => {
                let labels: Vec<String> =
                    trace::drives(state).into_iter().map(|d| d.label).collect();
                Some(export::trace_csv(state, &labels, &found))
            }
            Err(_) => None,
        },
        LoadKind::Depth | LoadKind::Rate => Some(export::csv(state, charts)),
    }
}

/// Whether the CSV waits for a run: several jobs and a trace export their results, and until a
/// run has them there is nothing.
fn csv_waits(load: LoadKind, pool: Pool) -> bool {
    match load {
        LoadKind::Jobs => {
            pool.jobs_revision();
            !matches!(pool.jobs_state().and_then(|s| s.outcome), Some(Ok(_)))
        }
        LoadKind::Trace => {
            pool.replay_revision();
            !matches!(pool.replay_state().and_then(|s| s.outcome), Some(Ok(_)))
        }
        LoadKind::Depth | LoadKind::Rate => false,
    }
}

/// The fio job file of the state's workload; none for a generated desktop workload, a model of
/// a trace rather than a fio job (the button is disabled then, and says why).
fn fio_job_text(state: &LabState) -> Option<String> {
    let w = &state.workload;
    Some(match w.load() {
        LoadKind::Trace => return None,
        LoadKind::Depth => fio::job_file(&w.spec(), &compute::sweep_iodepths(w.iodepth())),
        LoadKind::Rate => fio::rate_job_file(&w.spec(), &compute::sweep_rates(state), w.spacing()),
        LoadKind::Jobs => {
            let jobs: Vec<_> = w
                .jobs()
                .as_slice()
                .iter()
                .map(|j| (j.ask().workload(), j.rate_iops()))
                .collect();
            fio::group_job_file(&jobs, w.spacing())
        }
    })
}

/// What Copy link did: a confirmation, or the link to copy by hand when the clipboard refused.
#[component]
fn CopyStatus(copied: RwSignal<Copied>) -> impl IntoView {
    view! {
            <p class="hint" role="status" id="copy-status">
            {move || match copied.get() {
                Copied::Done => "Link copied to the clipboard.".to_string(),
                Copied::Refused(_) => "The browser did not allow copying; select the link below and copy it.".to_string(),
                Copied::Nothing => String::new(),
            }}
        </p>
        {move || match copied.get() {
            Copied::Refused(url) => Some(view! {
                <label class="copy-box" for="share-url">
                    <span>"Link to this view"</span>
                    <input id="share-url" type="text" readonly prop:value=url on:focus=select_field />
                </label>
            }),
            _ => None,
        }}
    }
}

/// Copy link, Embed, CSV and fio job file.
#[component]
pub fn ShareBar(
    /// What the charts plot now (for the CSV).
    #[prop(into)]
    charts: Signal<ChartSet>,
) -> impl IntoView {
    let lab = Lab::expect();
    let copied = RwSignal::new(Copied::Nothing);
    let snippets = RwSignal::new(None::<Snippets>);
    // A new state makes an old confirmation or snippet stale.
    Effect::new(move |_| {
        lab.state();
        copied.set(Copied::Nothing);
        snippets.set(None);
    });
    let copy = move |_| {
        let url = page_url(&lab.state_untracked());
        spawn_local(async move {
            let clipboard = window().navigator().clipboard();
            let available = !JsValue::from(clipboard.clone()).is_undefined();
            let done = available && JsFuture::from(clipboard.write_text(&url)).await.is_ok();
            copied.set(if done {
                Copied::Done
            } else {
                Copied::Refused(url)
            });
        });
    };
    let embed = move |_| {
        let mut s = lab.state_untracked();
        s.embedding.framed = true;
        let url = page_url(&s);
        snippets.set(Some(Snippets {
            with_script: snippet::with_script(&url),
            fixed: snippet::fixed_height(&url, s.embedding.charts, s.workload.load()),
        }));
    };
    let pool = Pool::expect();
    let csv = move |_| {
        let state = lab.state_untracked();
        if let Some(text) = charts.with_untracked(|c| csv_text(&state, c, pool)) {
            download::text(export::CSV_FILE, "text/csv;charset=utf-8", &text);
        }
    };
    let fio_job = move |_| {
        if let Some(text) = fio_job_text(&lab.state_untracked()) {
            download::text(export::FIO_JOB_FILE, "text/plain;charset=utf-8", &text);
        }
    };
    let no_fio = move || lab.workload.with(|w| w.load() == LoadKind::Trace);
    let no_csv = move || csv_waits(lab.workload.with(|w| w.load()), pool);
    view! {
        <section id="share" class="share card" aria-labelledby="share-title">
            <h2 id="share-title">"Share and export"</h2>
            <GuideLink page=GuidePage::Share />
            <div class="buttons">
                <button type="button" id="copy-link" on:click=copy>"Copy link"</button>
                <button type="button" id="embed-button" on:click=embed>"Embed"</button>
                <button
                    type="button"
                    id="export-csv"
                    on:click=csv
                    prop:disabled=no_csv
                    title=move || no_csv().then_some("The CSV holds the run's results: run the jobs or the trace first.")
                >
                    "Download CSV"
                </button>
                <button
                    type="button"
                    id="export-fio"
                    on:click=fio_job
                    prop:disabled=no_fio
                    title=move || no_fio().then_some("A desktop workload is a model of a trace the reviews never published, not a fio job.")
                >
                    "Download fio job file"
                </button>
            </div>
            <CopyStatus copied=copied />
            {move || snippets.get().map(|s| view! { <SnippetBoxes snippets=s /> })}
            <p class="hint">
                "The CSV holds what the charts plot: model results, published measurements with their source, and your fio points. The fio job file runs this workload at the charts' queue depths; point it at a scratch file, never at a disk holding data."
            </p>
        </section>
    }
}

/// The two embed snippets in read-only boxes, the recommended one first.
#[component]
fn SnippetBoxes(snippets: Snippets) -> impl IntoView {
    view! {
        <label class="copy-box" for="embed-code">
            <span>"Paste this into your page: the frame, and a small script that sizes it to the lab's height (recommended)."</span>
            <textarea id="embed-code" readonly rows="6" prop:value=snippets.with_script on:focus=select_field></textarea>
        </label>
        <label class="copy-box" for="embed-code-fixed">
            <span>"Without script, for hosts that strip scripts: the frame alone, with a fixed height for the charts you chose (an article column of 600 to 800 px; a narrower one scrolls inside the frame)."</span>
            <textarea id="embed-code-fixed" readonly rows="3" prop:value=snippets.fixed on:focus=select_field></textarea>
        </label>
    }
}

/// Selects a read-only field's text when it gets focus, ready to copy.
fn select_field(ev: leptos::ev::FocusEvent) {
    let Some(target) = ev.target() else {
        return;
    };
    if let Some(input) = target.dyn_ref::<web_sys::HtmlInputElement>() {
        input.select();
    } else if let Some(area) = target.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        area.select();
    }
}

/// Saves one chart as a PNG.
#[component]
pub fn PngButton(
    /// The chart (its canvas is `chart-{id}`).
    chart: ChartId,
) -> impl IntoView {
    let id = format!("png-{}", chart.id());
    view! {
        <button
            type="button"
            class="small"
            id=id
            on:click=move |_| {
                download::canvas_png(&format!("chart-{}", chart.id()), &export::png_file(chart));
            }
        >
            "Save as PNG"
        </button>
    }
}
