//! "How good is this model?" as a view (`view=scorecard`): the model against every published
//! figure the lab's sources hold, scored as `lab validate` scores it. The page-wide summary
//! line first, then one section a source the table holds (the E18DC article, the reviews, the
//! spec sheets, the standards ...), each with its citation, its own count and mean error, a
//! small chart of the model's result against the published figure, and a table of every
//! figure with its verdict in words (and, for a known miss, why it misses).
//!
//! The scoring runs in the page's worker pool ([`Pool::start_scorecard`]), never on the main
//! thread, with its progress, Cancel and Run; once done it is shown at once from then on (it
//! depends on nothing the controls set). The view's contents are built the first time it is
//! shown, and nothing is asked of the worker before then.
//!
//! What always holds: every row and the summary line are the model's own [`Scorecard`], shown
//! as it crossed from the worker (the summary verbatim from its `Display`, each model figure
//! its `model_text`), so the page says what `lab validate` prints; every figure is named as a
//! published measurement (with its source) or a model result; a verdict is said in words, never
//! by colour alone. What the view shows is built by [`build`], pure and tested natively.

use leptos::prelude::*;

use crate::ui::pure::guide::GuidePage;
use crate::ui::views::guide_link::GuideLink;
use parallelism_work::scorecard::ScorecardProgress;
use wasm_bindgen::JsCast;

use crate::model::scorecard::{Score, Scorecard, Source, SourceSummary, Value, Verdict};
use crate::ui::browser::pool::{Pool, ScorecardState};
use crate::ui::pure::format::NO_VALUE;
use crate::ui::pure::state::{Lab, View};
use crate::ui::views::task_status::TaskStatus;

/// The link that opens the view, wherever the page offers it (`index.html`'s masthead too).
pub const HREF: &str = "?view=scorecard";

/// The id of the view's heading, which the links move the focus to.
const TITLE_ID: &str = "scorecard-title";

/// One figure's row.
#[derive(Clone, Debug, PartialEq)]
pub struct RowView {
    pub id: String,
    pub what: String,
    pub drive: String,
    pub published: String,
    pub model: String,
    /// The model's error against the published figure (`+4.7%`), or a dash for words.
    pub error: String,
    pub band: String,
    /// The verdict's stable name, as `lab validate --format json` writes it.
    pub verdict_id: String,
    /// The verdict in words.
    pub verdict: &'static str,
    /// The row's look: `holds`, `known-miss` or `fails`.
    pub look: &'static str,
    /// Why a known miss misses.
    pub cause: Option<String>,
}

/// One point of a source's chart, in the chart's own coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct Dot {
    /// The marker's outline (a circle, square or triangle by verdict), as an SVG path.
    pub path: String,
    pub look: &'static str,
    /// What the point is, for a pointer's tooltip.
    pub title: String,
}

/// A decade's grid line on both axes: where it lies (its x, and its y on the other axis) and
/// its label (none between labelled decades, where the axis is crowded).
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    pub x: f64,
    pub y: f64,
    pub label: Option<String>,
}

/// A source's chart: the model's result against the published figure, both on log scales.
#[derive(Clone, Debug, PartialEq)]
pub struct Scatter {
    /// What the chart shows, in words (its accessible name).
    pub label: String,
    pub dots: Vec<Dot>,
    pub ticks: Vec<Tick>,
}

/// One source's section.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceView {
    /// Its stable name (`e18dc-article`), for element ids.
    pub id: &'static str,
    pub title: &'static str,
    pub citation: &'static str,
    /// Its figures within their bands, and its mean error.
    pub summary: String,
    pub chart: Option<Scatter>,
    pub rows: Vec<RowView>,
}

/// What the view shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScorecardData {
    pub status: String,
    /// The page-wide summary line, as `lab validate` prints it.
    pub summary: Option<String>,
    pub sources: Vec<SourceView>,
}

/// The view's data from what the pool knows of the scoring (`None`: stopped, or never asked).
pub fn build(state: Option<&ScorecardState>) -> ScorecardData {
    let Some(state) = state else {
        return ScorecardData {
            status: "Model: stopped. Press Run to score every published figure.".into(),
            ..ScorecardData::default()
        };
    };
    match &state.outcome {
        None => ScorecardData {
            status: status(state.progress),
            ..ScorecardData::default()
        },
        Some(Err(why)) => ScorecardData {
            status: format!("The model could not score the published figures: {why}"),
            ..ScorecardData::default()
        },
        Some(Ok(card)) => ScorecardData {
            status: format!(
                "Model: every published figure scored ({} figures).",
                card.rows.len()
            ),
            summary: Some(card.summary.to_string()),
            sources: sources(card),
        },
    }
}

fn status(p: ScorecardProgress) -> String {
    if p.total == 0 {
        return "The model is starting to score the published figures…".into();
    }
    format!(
        "The model is scoring every published figure: {} of {} steps (its long runs first, \
         then each figure)…",
        p.done, p.total
    )
}

fn sources(card: &Scorecard) -> Vec<SourceView> {
    card.summary
        .by_source
        .iter()
        .map(|s| {
            let rows: Vec<&Score> = card.rows.iter().filter(|r| r.source == s.source).collect();
            SourceView {
                id: s.source.id(),
                title: s.source.short(),
                citation: s.source.citation(),
                summary: source_summary(s, &rows),
                chart: scatter(s.source, &rows),
                rows: rows.iter().map(|r| row(r)).collect(),
            }
        })
        .collect()
}

/// "39 of 40 figures within their bands, 1 known miss; mean error 3.3% (...) over the 28
/// figures published as numbers".
fn source_summary(s: &SourceSummary, rows: &[&Score]) -> String {
    let known = rows
        .iter()
        .filter(|r| r.verdict == Verdict::ExpectedMiss)
        .count();
    let failing = rows.iter().filter(|r| !r.verdict.as_expected()).count();
    let mut text = format!("{} of {} figures within their bands", s.holding, s.rows);
    match known {
        0 => {}
        1 => text.push_str(", 1 known miss"),
        n => text.push_str(&format!(", {n} known misses")),
    }
    if failing > 0 {
        text.push_str(&format!(", {failing} failing"));
    }
    let over = match rows.iter().filter(|r| r.error.is_some()).count() {
        1 => "its one figure published as a number".to_string(),
        n => format!("the {n} figures published as numbers"),
    };
    if let Some(e) = s.mean_error {
        text.push_str(&format!(
            "; mean error {:.1}% (the model against the published figure) over {over}",
            e * 100.0
        ));
    }
    text.push('.');
    text
}

fn row(r: &Score) -> RowView {
    RowView {
        id: r.id.clone(),
        what: r.what.clone(),
        drive: r.drive.clone(),
        published: r.published.clone(),
        model: r.model_text.clone(),
        error: r
            .error
            .filter(|e| e.is_finite())
            .map_or_else(|| NO_VALUE.to_string(), |e| format!("{:+.1}%", e * 100.0)),
        band: r.band.clone(),
        verdict_id: serde_json::to_value(r.verdict)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        verdict: verdict_words(r.verdict),
        look: look(r.verdict),
        cause: r.cause.clone(),
    }
}

/// The verdict as a reader says it.
pub fn verdict_words(v: Verdict) -> &'static str {
    match v {
        Verdict::Holds => "Holds: within its band",
        Verdict::Misses => "Misses its band",
        Verdict::ExpectedMiss => "Known miss",
        Verdict::WorseThanExpected => "Known miss, grown past its limit",
        Verdict::NoLongerMissed => "Known miss that now holds",
    }
}

fn look(v: Verdict) -> &'static str {
    match v {
        Verdict::Holds => "holds",
        Verdict::ExpectedMiss => "known-miss",
        Verdict::Misses | Verdict::WorseThanExpected | Verdict::NoLongerMissed => "fails",
    }
}

/// The chart in its own units: the plot a square of [`SPAN`] from ([`LEFT`], [`TOP`]) (y grows
/// downwards), the y axis's labels left of it, the x axis's under it.
const LEFT: f64 = 46.0;
const TOP: f64 = 6.0;
const SPAN: f64 = 240.0;
const WIDTH: f64 = LEFT + SPAN + 10.0;
const HEIGHT: f64 = TOP + SPAN + 40.0;
const DOT_R: f64 = 4.5;
/// Most decades an axis labels each of; a wider axis labels every other.
const LABELLED_DECADES: i32 = 6;

/// The figures of `rows` published as a number with a numeric model result, model against
/// published on log scales; `None` when there are none.
fn scatter(source: Source, rows: &[&Score]) -> Option<Scatter> {
    let pairs: Vec<(&Score, f64, f64)> = rows
        .iter()
        .filter_map(|r| match (&r.model, r.published_value) {
            (Value::Number(m), Some(p)) if *m > 0.0 && p > 0.0 && m.is_finite() => {
                Some((*r, p, *m))
            }
            _ => None,
        })
        .collect();
    if pairs.is_empty() {
        return None;
    }
    let logs = pairs.iter().flat_map(|&(_, p, m)| [p.log10(), m.log10()]);
    let (min, max) = logs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let (lo, hi) = (min.floor(), max.ceil().max(min.floor() + 1.0));
    let along = |log: f64| (log - lo) / (hi - lo) * SPAN;
    let dots = pairs
        .iter()
        .map(|&(r, p, m)| {
            let (x, y) = (LEFT + along(p.log10()), TOP + SPAN - along(m.log10()));
            Dot {
                path: marker(r.verdict, x, y),
                look: look(r.verdict),
                title: format!(
                    "{}: published {}, model {} ({})",
                    r.what,
                    r.published,
                    r.model_text,
                    verdict_words(r.verdict).to_lowercase()
                ),
            }
        })
        .collect();
    let (first, last) = (lo as i32, hi as i32);
    let every = if last - first > LABELLED_DECADES {
        2
    } else {
        1
    };
    let ticks = (first..=last)
        .map(|e| Tick {
            x: LEFT + along(f64::from(e)),
            y: TOP + SPAN - along(f64::from(e)),
            label: ((e - first) % every == 0).then(|| decade(e)),
        })
        .collect();
    Some(Scatter {
        label: scatter_label(source, &pairs),
        dots,
        ticks,
    })
}

/// The chart in words: what is plotted against what, and how many points hold.
fn scatter_label(source: Source, pairs: &[(&Score, f64, f64)]) -> String {
    let holding = pairs
        .iter()
        .filter(|(r, _, _)| r.verdict == Verdict::Holds)
        .count();
    format!(
        "Chart: the model's result against the figure published by the {}, both on log scales, for its {} figures published as numbers; a point on the diagonal is exact. {holding} of them within their bands, {} outside.",
        source.short(),
        pairs.len(),
        pairs.len() - holding
    )
}

/// A marker at (`x`, `y`): a circle for a figure that holds, a square for a known miss, a
/// triangle for one that fails, so the verdict never rests on colour alone.
fn marker(v: Verdict, x: f64, y: f64) -> String {
    let r = DOT_R;
    match look(v) {
        "holds" => format!(
            "M{:.1} {y:.1}a{r} {r} 0 1 0 {d} 0a{r} {r} 0 1 0 -{d} 0Z",
            x - r,
            d = 2.0 * r
        ),
        "known-miss" => format!("M{:.1} {:.1}h{d}v{d}h-{d}Z", x - r, y - r, d = 2.0 * r),
        _ => format!(
            "M{x:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z",
            y - r - 1.0,
            x + r + 1.0,
            y + r,
            x - r - 1.0,
            y + r
        ),
    }
}

/// An axis label for 10^`e`: `0.01`, `1`, `100`, `10k`, `1M`.
fn decade(e: i32) -> String {
    match e {
        i32::MIN..=-1 => format!("{}", 10f64.powi(e)),
        0..=2 => format!("{}", 10i64.pow(e.unsigned_abs())),
        3..=5 => format!("{}k", 10i64.pow(e.unsigned_abs() - 3)),
        6..=8 => format!("{}M", 10i64.pow(e.unsigned_abs() - 6)),
        _ => format!("1e{e}"),
    }
}

/// Opens the scorecard in place (the state's view, so the reader's drive stays as it is) and
/// moves the focus to its heading. A click with a modifier (a new tab or window) is the
/// browser's: the link's own `?view=scorecard` opens the view there.
pub fn open(lab: Lab, event: &web_sys::MouseEvent) {
    if event.button() != 0
        || event.ctrl_key()
        || event.meta_key()
        || event.shift_key()
        || event.alt_key()
    {
        return;
    }
    event.prevent_default();
    lab.display.update(|d| d.view = View::Scorecard);
    // Once the view is shown (and, the first time, built).
    set_timeout(
        || {
            let heading = document()
                .get_element_by_id(TITLE_ID)
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
            if let Some(heading) = heading {
                let _ = heading.focus();
                heading.scroll_into_view();
            }
        },
        std::time::Duration::ZERO,
    );
}

/// A link to the view: opens it in place (see [`open`]); in an embed, whose author chose its
/// view, it opens the full lab's scorecard in a new tab.
#[component]
pub fn ScorecardLink(children: Children) -> impl IntoView {
    let lab = Lab::expect();
    if lab.embedding.with_untracked(|e| e.framed) {
        return view! {
            <a class="scorecard-link" href=HREF target="_blank" rel="noopener">
                {children()}
                <span class="visually-hidden">" (opens a new tab)"</span>
            </a>
        }
        .into_any();
    }
    view! {
        <a class="scorecard-link" href=HREF on:click=move |e| open(lab, &e)>
            {children()}
        </a>
    }
    .into_any()
}

/// `index.html`'s masthead link ([`HREF`], `#scorecard-link`) opens the view in place once the
/// app runs (before, and in a new tab, it opens the page at the view).
pub fn follow_masthead_link(lab: Lab) {
    let Some(link) = document().get_element_by_id("scorecard-link") else {
        return;
    };
    let on_click = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::MouseEvent)>::new(
        move |e: web_sys::MouseEvent| open(lab, &e),
    );
    let _ = link.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref());
    // The masthead lives as long as the page.
    on_click.forget();
}

/// The scorecard (hidden, and idle, unless the state's view is [`View::Scorecard`]). The
/// scoring is asked for whenever the view is shown (done once, it is shown at once); hiding it
/// drops a scoring under way. Its contents are built the first time it is shown.
#[component]
pub fn ScorecardView() -> impl IntoView {
    let lab = Lab::expect();
    let pool = Pool::expect();
    let shown = Memo::new(move |_| lab.display.with(|d| d.view == View::Scorecard));
    Effect::new(move |_| match shown.get() {
        true => pool.start_scorecard(),
        false => pool.cancel_scorecard(),
    });
    let opened = crate::ui::browser::later::once_shown(shown);
    view! {
        <section
            id="scorecard"
            class="time-view scorecard-view"
            aria-labelledby=TITLE_ID
            hidden=move || !shown.get()
        >
            <Show when=move || opened.get()>
                <ScorecardContents />
            </Show>
        </section>
    }
}

/// The view's heading, summary, status and one section a source.
#[component]
fn ScorecardContents() -> impl IntoView {
    let pool = Pool::expect();
    let state = Memo::new(move |_| {
        pool.scorecard_revision();
        pool.scorecard_state()
    });
    let data = Memo::new(move |_| state.with(|s| build(s.as_ref())));
    let running = move || state.with(|s| s.as_ref().is_some_and(|s| s.outcome.is_none()));
    let drawn = sources_a_task_at_a_time(data);
    view! {
        <div class="card time-head">
            <h2 id=TITLE_ID tabindex="-1">"How good is this model?"</h2>
            <GuideLink page=GuidePage::Scorecard />
            <p class="chart-sub">
                "Every figure the lab's sources publish (measurements, spec-sheet peaks, and reviews' words read as shapes), each set against the model's result for the same test, computed here, in your browser. A figure holds when the model's result lies within its band; a known miss is one the model cannot reach yet, kept in the table with its cause."
            </p>
            <Show when=move || data.with(|d| d.summary.is_some())>
                <p class="scorecard-summary">
                    <strong>"All sources: "</strong>
                    <span id="scorecard-summary">
                        {move || data.with(|d| d.summary.clone().unwrap_or_default())}
                    </span>
                </p>
            </Show>
            <TaskStatus
                id="scorecard"
                text=Signal::derive(move || data.with(|d| d.status.clone()))
                running=Signal::derive(running)
                stopped=Signal::derive(move || state.with(Option::is_none))
                on_cancel=Callback::new(move |()| pool.cancel_scorecard())
                on_run=Callback::new(move |()| pool.start_scorecard())
            />
        </div>
        <For
            each=move || {
                data.with(|d| {
                    let mut first = 0;
                    d.sources
                        .iter()
                        .map(|s| {
                            let at = first;
                            first += parts(s);
                            (at, s.clone())
                        })
                        .filter(|(at, _)| *at < drawn.get())
                        .collect::<Vec<_>>()
                })
            }
            key=|(_, s)| s.id
            children=move |(at, s)| {
                let chunks = Signal::derive(move || drawn.get().saturating_sub(at + 1));
                view! { <SourceSection source=s chunks=chunks /> }
            }
        />
    }
}

/// Rows of a table drawn in one task.
const ROWS_A_TASK: usize = 10;

/// A source's parts, each drawn in a task of its own: its heading and chart, then its table's
/// rows [`ROWS_A_TASK`] at a time.
fn parts(source: &SourceView) -> usize {
    1 + source.rows.len().div_ceil(ROWS_A_TASK)
}

/// How many parts of the card to draw (see [`parts`]): once the card arrives, one more a task,
/// so a phone draws its few hundred elements without one long task; none while it is scored.
fn sources_a_task_at_a_time(data: Memo<ScorecardData>) -> RwSignal<usize> {
    let drawn = RwSignal::new(0usize);
    let total = Memo::new(move |_| data.with(|d| d.sources.iter().map(parts).sum::<usize>()));
    Effect::new(move |_| {
        let n = total.get();
        drawn.set(0);
        draw_next(drawn, n);
    });
    drawn
}

/// Draws one more part in a task of its own, then asks for the next, until `n` are drawn.
fn draw_next(drawn: RwSignal<usize>, n: usize) {
    if drawn.try_get_untracked().is_none_or(|d| d >= n) {
        return;
    }
    crate::ui::browser::tasks::next_task(move || {
        if drawn.try_update(|d| *d = (*d + 1).min(n)).is_some() {
            draw_next(drawn, n);
        }
    });
}

/// One source: its citation, its count, its chart and its table.
#[component]
fn SourceSection(source: SourceView, chunks: Signal<usize>) -> impl IntoView {
    let title_id = format!("scorecard-{}-title", source.id);
    view! {
        <section
            class="card scorecard-source"
            id=format!("scorecard-{}", source.id)
            aria-labelledby=title_id.clone()
        >
            <h3 id=title_id.clone()>{source.title}</h3>
            <p class="scorecard-citation">"Published in " <cite>{source.citation}</cite></p>
            <p class="scorecard-source-summary">{source.summary}</p>
            {source.chart.map(|c| view! { <ScatterChart chart=c /> })}
            <ScoreTable title=source.title rows=source.rows chunks=chunks />
        </section>
    }
}

/// One figure's row; on a phone each cell is labelled with its column's heading.
fn table_row(r: RowView, heads: &[String; 7]) -> impl IntoView {
    let label = |i: usize| heads[i].clone();
    view! {
        <tr data-id=r.id data-verdict=r.verdict_id class=r.look>
            <th scope="row">{r.what}</th>
            <td data-label=label(1)>{r.drive}</td>
            <td data-label=label(2)>{r.published}</td>
            <td data-label=label(3) class="scorecard-model">{r.model}</td>
            <td data-label=label(4) class="scorecard-error">{r.error}</td>
            <td data-label=label(5)>{r.band}</td>
            <td data-label=label(6)>
                <span class="scorecard-verdict">{r.verdict}</span>
                {r.cause.map(|c| view! { <span class="scorecard-cause">" Why: " {c}</span> })}
            </td>
        </tr>
    }
}

/// A source's chart as inline SVG, with its key.
#[component]
fn ScatterChart(chart: Scatter) -> impl IntoView {
    let (right, bottom) = (LEFT + SPAN, TOP + SPAN);
    let ticks = chart
        .ticks
        .into_iter()
        .map(|t| {
            let (x, y) = (format!("{:.1}", t.x), format!("{:.1}", t.y));
            let labels = t.label.map(|label| {
                view! {
                    <text class="tick" x=x.clone() y=bottom + 14.0 text-anchor="middle">{label.clone()}</text>
                    <text class="tick" x=LEFT - 4.0 y=y.clone() dy="0.35em" text-anchor="end">{label}</text>
                }
            });
            view! {
                <line class="grid" x1=x.clone() x2=x y1=TOP y2=bottom></line>
                <line class="grid" x1=LEFT x2=right y1=y.clone() y2=y></line>
                {labels}
            }
        })
        .collect_view();
    let dots = chart
        .dots
        .into_iter()
        .map(|d| view! { <path class=format!("dot {}", d.look) d=d.path><title>{d.title}</title></path> })
        .collect_view();
    view! {
        <figure class="scorecard-chart">
            <svg
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                role="img"
                aria-label=chart.label
            >
                {ticks}
                <line class="diagonal" x1=LEFT y1=bottom x2=right y2=TOP></line>
                <text class="axis" x=LEFT + SPAN / 2.0 y=HEIGHT - 4.0 text-anchor="middle">
                    "published (its own unit)"
                </text>
                <text
                    class="axis"
                    transform=format!("translate(11 {}) rotate(-90)", TOP + SPAN / 2.0)
                    text-anchor="middle"
                >
                    "model result (same unit)"
                </text>
                {dots}
            </svg>
            <figcaption class="scorecard-key">
                <span><Swatch look="holds" />" within its band"</span>
                <span><Swatch look="known-miss" />" known miss"</span>
                <span><Swatch look="fails" />" misses"</span>
                <span><span class="swatch-diagonal" aria-hidden="true"></span>" model = published"</span>
            </figcaption>
        </figure>
    }
}

/// A marker of the chart's key.
#[component]
fn Swatch(look: &'static str) -> impl IntoView {
    let verdict = match look {
        "holds" => Verdict::Holds,
        "known-miss" => Verdict::ExpectedMiss,
        _ => Verdict::Misses,
    };
    view! {
        <svg class="swatch-dot" viewBox="0 0 12 12" aria-hidden="true">
            <path class=format!("dot {look}") d=marker(verdict, 6.0, 6.5)></path>
        </svg>
    }
}

/// Every figure of a source, one row each; on a phone each row stacks, every cell labelled.
#[component]
fn ScoreTable(title: &'static str, rows: Vec<RowView>, chunks: Signal<usize>) -> impl IntoView {
    let published = format!("Published ({title})");
    let heads = [
        "Figure",
        "Drive",
        published.as_str(),
        "Model result",
        "Model's error",
        "Band",
        "Verdict",
    ]
    .map(str::to_string);
    let chunked: Vec<Vec<RowView>> = rows.chunks(ROWS_A_TASK).map(<[RowView]>::to_vec).collect();
    let count = chunked.len();
    // Each chunk is drawn once, when it is reached; the rows drawn before stay as they are.
    let chunked = StoredValue::new((chunked, heads.clone()));
    let rows = view! {
        <For
            each=move || { (0..chunks.get().min(count)).collect::<Vec<usize>>() }
            key=|i| *i
            children=move |i| {
                chunked.with_value(|(chunks, heads)| {
                    chunks[i].iter().cloned().map(|r| table_row(r, heads)).collect_view()
                })
            }
        />
    };
    view! {
        <div class="scorecard-table-box">
            <table class="scorecard-table">
                <caption>
                    {format!("{title}: each figure as published (a measurement, a spec-sheet figure or the source's words) and the model's result for it; the error is the model's against the published figure")}
                </caption>
                <thead>
                    <tr>{heads.map(|h| view! { <th scope="col">{h}</th> }).into_iter().collect_view()}</tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scorecard::Scorecard;
    use crate::ui::browser::pool::TaskState;
    use parallelism_work::scorecard::ScorecardAsk;
    use std::sync::OnceLock;

    /// The model's scorecard, scored once for every test here.
    fn card() -> &'static Scorecard {
        static CARD: OnceLock<Scorecard> = OnceLock::new();
        CARD.get_or_init(|| Scorecard::run().unwrap())
    }

    fn done() -> ScorecardState {
        let total = card().rows.len();
        TaskState {
            ask: ScorecardAsk,
            progress: ScorecardProgress { done: total, total },
            outcome: Some(Ok(card().clone())),
        }
    }

    #[test]
    fn every_row_shows_as_the_model_scored_it_source_by_source() {
        let v = build(Some(&done()));
        assert_eq!(v.summary, Some(card().summary.to_string()));
        // One section a source the table holds, in the summary's order (the E18DC article's
        // first).
        let ids: Vec<&str> = v.sources.iter().map(|s| s.id).collect();
        let sources: Vec<&str> = card()
            .summary
            .by_source
            .iter()
            .map(|s| s.source.id())
            .collect();
        assert_eq!(ids, sources);
        assert_eq!(ids.first(), Some(&"e18dc-article"));
        let rows: Vec<&RowView> = v.sources.iter().flat_map(|s| &s.rows).collect();
        assert_eq!(rows.len(), card().rows.len());
        for (shown, scored) in rows.iter().zip(&card().rows) {
            assert_eq!(shown.id, scored.id);
            assert_eq!(shown.model, scored.model_text);
            assert_eq!(shown.published, scored.published);
            assert_eq!(
                serde_json::to_value(scored.verdict).unwrap(),
                shown.verdict_id.as_str()
            );
            assert_eq!(shown.cause, scored.cause);
        }
        for s in &v.sources {
            assert!(
                s.summary.contains("figures within their bands"),
                "{}",
                s.summary
            );
            assert!(!s.citation.is_empty());
        }
    }

    #[test]
    fn a_source_summary_counts_its_rows_and_a_known_miss_says_why() {
        let v = build(Some(&done()));
        let e18dc = &v.sources[0];
        let s = &card().summary.by_source[0];
        assert!(
            e18dc.summary.starts_with(&format!(
                "{} of {} figures within their bands",
                s.holding, s.rows
            )),
            "{}",
            e18dc.summary
        );
        // A known miss (the table's, or one made of its first row) says so, and why.
        let mut scored = card().rows[0].clone();
        scored.verdict = Verdict::ExpectedMiss;
        scored.cause = Some("the mechanism is not in the model".into());
        let miss = row(&scored);
        assert_eq!((miss.verdict, miss.look), ("Known miss", "known-miss"));
        assert_eq!(miss.verdict_id, "expected-miss");
        assert_eq!(miss.cause, scored.cause);
        for r in v.sources.iter().flat_map(|s| &s.rows) {
            assert_eq!(r.verdict_id == "expected-miss", r.verdict == "Known miss");
            if r.verdict == "Known miss" {
                assert!(r.cause.as_ref().is_some_and(|c| !c.is_empty()), "{}", r.id);
            }
        }
        let holds = &e18dc.rows[0];
        assert_eq!(holds.look, "holds");
        assert!(holds.error.ends_with('%') && holds.error.starts_with(['+', '-']));
    }

    #[test]
    fn each_chart_plots_the_numeric_rows_inside_its_square_with_decade_ticks() {
        let v = build(Some(&done()));
        for s in &v.sources {
            let numeric = card()
                .rows
                .iter()
                .filter(|r| r.source.id() == s.id && r.published_value.is_some())
                .filter(|r| matches!(r.model, Value::Number(_)))
                .count();
            let Some(chart) = &s.chart else {
                assert_eq!(numeric, 0, "{}", s.id);
                continue;
            };
            assert_eq!(chart.dots.len(), numeric, "{}", s.id);
            assert!(
                chart.label.contains(&format!("{numeric} figures")),
                "{}",
                chart.label
            );
            assert!(chart.ticks.len() >= 2);
            let inside = |v: f64, from: f64| (from..=from + SPAN).contains(&v);
            assert!(chart
                .ticks
                .iter()
                .all(|t| inside(t.x, LEFT) && inside(t.y, TOP)));
            assert!(chart.ticks.first().is_some_and(|t| t.label.is_some()));
            assert!(chart.dots.iter().all(|d| d.path.starts_with('M')));
        }
        assert_eq!(decade(-2), "0.01");
        assert_eq!(decade(0), "1");
        assert_eq!(decade(4), "10k");
        assert_eq!(decade(6), "1M");
    }

    #[test]
    fn progress_a_stop_and_a_failure_each_say_so() {
        assert!(build(None).status.contains("stopped"));
        let mut running = done();
        running.outcome = None;
        running.progress = ScorecardProgress {
            done: 12,
            total: 103,
        };
        let v = build(Some(&running));
        assert!(v.status.contains("12 of 103 steps"), "{}", v.status);
        assert!(v.summary.is_none() && v.sources.is_empty());
        running.progress = ScorecardProgress::default();
        assert!(build(Some(&running)).status.contains("starting"));
        let mut failed = done();
        failed.outcome = Some(Err(parallelism_work::WorkError::FileMissing));
        let v = build(Some(&failed));
        assert!(v.status.contains("could not score"), "{}", v.status);
        assert!(v.sources.is_empty());
    }
}
