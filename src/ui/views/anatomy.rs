//! "Where the time goes", in the readout: the current point's anatomy as stacked bars (mean,
//! p99 and p99.9, reads and writes apart), a sentence naming the largest part of the p99, a
//! legend of the colours, and every part in a table. Its content is made in
//! [`crate::ui::pure::anatomy`]; this only draws it.
//!
//! What always holds:
//! - the bars are plain HTML (a box a part, its width set through the style object, which the
//!   page's Content-Security-Policy allows), each with its text equivalent as its accessible
//!   name, and the table names every part with its microseconds;
//! - nothing here moves, so there is nothing for `prefers-reduced-motion` to stop;
//! - an embedded lab shows no panel: its frame keeps the height its author set, and its "Open
//!   in the full lab" leads to it;
//! - the panel redraws only when the point's anatomy or fidelity changes, not on every slice
//!   of model results the readout follows.

use leptos::prelude::*;

use crate::ui::pure::anatomy::{
    self, css_classes, Bar, DirectionPanel, Panel, PartColour, Segment, Shown, Statistic,
};
use crate::ui::pure::compute::{Fidelity, Point};
use crate::ui::pure::format;
use crate::ui::pure::state::Lab;

/// The panel for `point` (none in an embedded lab).
#[component]
pub fn WhereTheTimeGoes(
    /// The current point's result, once there is one.
    #[prop(into)]
    point: Signal<Option<Point>>,
    /// The model gave no result for the point (the readout says why).
    #[prop(into)]
    failed: Signal<bool>,
) -> impl IntoView {
    // A panel drawn from its props alone, as its tests mount it, has no lab around it: it is
    // not framed.
    let framed = use_context::<Lab>().is_some_and(|lab| lab.embedding.with_untracked(|e| e.framed));
    let shown = Memo::new(move |_| point.with(|p| anatomy::shown(p.as_ref(), failed.get())));
    // The table stays open across the panel's redraws (a new point, the full run after its
    // estimate) once the reader has opened it.
    let table_open = RwSignal::new(false);
    let panel = move || match shown.get() {
        Shown::Nothing => None,
        Shown::Computing => Some(frame(
            view! { <p class="status" id="anatomy-status">"Computing the model…"</p> }.into_any(),
            None,
        )),
        Shown::Panel(panel, fidelity) => Some(frame(panel_view(panel, table_open), Some(fidelity))),
    };
    (!framed).then_some(panel)
}

/// The panel's section, its heading saying what its figures are.
fn frame(content: AnyView, fidelity: Option<Fidelity>) -> impl IntoView {
    view! {
        <section class="anatomy" id="anatomy" aria-labelledby="anatomy-title">
            <h3 id="anatomy-title">
                "Where the time goes"
                {fidelity.map(|f| view! { <span class="anatomy-kind">{format!(" · {}", anatomy::kind_text(f))}</span> })}
            </h3>
            {content}
        </section>
    }
}

/// The sentence, the bars, the legend and the table (open if `table_open`).
fn panel_view(panel: Panel, table_open: RwSignal<bool>) -> AnyView {
    let tables = panel.directions.clone();
    view! {
        <p class="anatomy-sentence" id="anatomy-sentence">{panel.sentence}</p>
        {panel.directions.into_iter().map(direction_bars).collect_view()}
        {legend_view("anatomy-legend", panel.colours)}
        <details
            class="anatomy-parts"
            id="anatomy-parts"
            open=table_open.get_untracked()
            on:toggle=move |ev| {
                table_open.set(event_target::<web_sys::Element>(&ev).has_attribute("open"))
            }
        >
            <summary>"Every part, in microseconds"</summary>
            {tables.into_iter().map(direction_table).collect_view()}
        </details>
    }
    .into_any()
}

/// A direction's three bars under its heading.
fn direction_bars(d: DirectionPanel) -> impl IntoView {
    view! {
        <div class="anatomy-direction">
            <h4>{d.direction.heading()}</h4>
            <ul class="anatomy-bars">{d.bars.into_iter().map(bar_view).collect_view()}</ul>
        </div>
    }
}

/// A bar's parts side by side, each as wide as its share, its words as its title.
pub fn segments_view(segments: Vec<Segment>) -> impl IntoView {
    segments
        .into_iter()
        .map(|s| {
            view! {
                <span
                    class=format!("anatomy-segment {}", css_classes(s.part))
                    style:width=format!("{:.3}%", s.width_pct)
                    title=s.title()
                ></span>
            }
        })
        .collect_view()
}

/// The colours' legend, each in words beside its swatch.
pub fn legend_view(id: &'static str, colours: Vec<PartColour>) -> impl IntoView {
    view! {
        <ul class="anatomy-legend" id=id aria-label="The parts' colours">
            {colours
                .into_iter()
                .map(|f| {
                    view! {
                        <li>
                            <span class=format!("anatomy-swatch {}", f.css_class()) aria-hidden="true"></span>
                            {f.label()}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}

/// One bar labelled with its statistic.
fn bar_view(bar: Bar) -> impl IntoView {
    let label = bar.statistic.label();
    labelled_bar(label, bar)
}

/// One bar: `label`, its parts side by side, its latency.
pub fn labelled_bar(label: &'static str, bar: Bar) -> impl IntoView {
    let segments = segments_view(bar.segments);
    view! {
        <li class="anatomy-row">
            <span class="anatomy-label" aria-hidden="true">{label}</span>
            <span class="anatomy-bar" role="img" aria-label=bar.described>{segments}</span>
            <span class="anatomy-value" aria-hidden="true">{format::latency_us(bar.latency_us)}</span>
        </li>
    }
}

/// A direction's table: every part that took time, in each statistic, and those that took none.
fn direction_table(d: DirectionPanel) -> impl IntoView {
    let heading = d.direction.heading();
    let totals = d.bars.iter().map(|b| b.latency_us).collect::<Vec<_>>();
    let idle = anatomy::idle_text(&d.idle);
    view! {
        <table class="anatomy-table">
            <caption>{format!("{heading}: the model's mean time in each part")}</caption>
            <thead>
                <tr>
                    <th scope="col">"Part"</th>
                    {Statistic::ALL.map(|s| view! { <th scope="col">{s.label()}</th> })}
                </tr>
            </thead>
            <tbody>
                {d
                    .rows
                    .into_iter()
                    .map(|r| {
                        view! {
                            <tr>
                                <th scope="row">
                                    <span class=format!("anatomy-swatch {}", css_classes(r.part)) aria-hidden="true"></span>
                                    {r.part.what()}
                                </th>
                                {r.us.map(|us| view! { <td>{anatomy::table_us(us)}</td> })}
                            </tr>
                        }
                    })
                    .collect_view()}
                <tr class="anatomy-total">
                    <th scope="row">"the whole latency"</th>
                    {totals.into_iter().map(|us| view! { <td>{format::latency_us(us)}</td> }).collect_view()}
                </tr>
            </tbody>
        </table>
        {idle.map(|t| view! { <p class="anatomy-idle">{t}</p> })}
    }
}
