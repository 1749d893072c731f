//! [`App`]: the root component. It owns the lab's one [`LabState`] signal and everything that
//! follows from it:
//! - the model plan (the [`Runner`] recomputes what the new state shows, cached results first);
//! - the URL query, replaced (never pushed, so dragging a slider does not fill the back
//!   button's history) whenever the state changes;
//! - the colour scheme (`data-theme` on `<html>`) and the palette the charts read from CSS;
//! - the charts, the readout and the legend, derived from state and results;
//! - the embed chrome (`embed=1`: compact header with "Open in the full lab", controls folded
//!   away, only the `charts=` charts, the height reported to the parent page) and the share,
//!   compare and fio parts (`super::views`).
//! - which view the results area shows ([`LabState::view`]): the charts, the drive over time
//!   or teaching mode, and the guided tours' panel in each (above the teaching views, below
//!   the queue-depth charts; its position lives here, so a tour that changes the view keeps
//!   its place).
//!
//! Nothing else holds state: the controls write the signal through [`LabState`]'s setters,
//! and the URL is parsed once, on start, by [`url_state::parse_query`].

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::charts::canvas::ChartCanvas;
use super::charts::{
    self, latency_chart, mix_chart, qd_chart, ChartSet, LatencyChartData, LegendEntry,
    MixChartData, Palette, QdChartData, Stamp,
};
use super::compute::{self, RunKey};
use super::controls::{
    DriveControls, DriveStateControl, ResetButton, ViewControls, WorkloadControls,
};
use super::embed::ChartId;
use super::format;
use super::notes::LinkNotes;
use super::readout::{self, pattern_words, Readout};
use super::reference;
use super::runner::Runner;
use super::state::{LabState, Theme, View};
use super::url_state;
use super::views::activity::TeachingMode;
use super::views::compare::{CompareBar, PinRemove};
use super::views::embed_frame;
use super::views::fio_import::FioImport;
use super::views::share::{PngButton, ShareBar};
use super::views::tours::{TourAt, Tours};
use super::views::{DriveTimeView, ViewSwitch};

/// The media query whose changes re-read the palette (with `theme=auto`).
const DARK_QUERY: &str = "(prefers-color-scheme: dark)";
/// The round amounts the read-share caption converts between IOPS and MB/s.
const EXAMPLE_IOPS: f64 = 1000.0;
const EXAMPLE_MB_S: f64 = 100.0;

/// The lab.
#[component]
pub fn App(
    /// The query to start from (as `location.search` gives it). Without it the app reads the
    /// page's own URL; tests pass their own.
    #[prop(optional, into)]
    query: Option<String>,
) -> impl IntoView {
    let initial = query.unwrap_or_else(|| window().location().search().unwrap_or_default());
    let parsed = url_state::parse_query(&initial, LabState::default());
    let authored = parsed.state.clone();
    let embed = parsed.state.embed();
    let tour_at: TourAt = RwSignal::new(None);
    let state = RwSignal::new(parsed.state);
    if embed || embed_frame::is_framed() {
        embed_frame::report_height();
    }
    let shows = move |chart: ChartId| state.with(|s| s.charts().shows(chart));
    let full_lab_href = move || format!("?{}", state.with(|s| url_state::to_query(&s.full_lab())));
    let has_locks = move || state.with(|s| !s.locks().is_empty());
    let notes = RwSignal::new(parsed.notes);
    let runner = Runner::default();
    on_cleanup(move || runner.stop());

    Effect::new(move |_| runner.set_plan(state.with(compute::plan)));
    Effect::new(move |_| replace_query(&state.with(url_state::to_query)));

    let palette = RwSignal::new(Palette::default());
    Effect::new(move |_| {
        apply_theme(state.with(LabState::theme));
        palette.set(read_palette());
    });
    follow_system_scheme(palette);

    let charts = Memo::new(move |_| {
        runner.revision();
        state.with(|s| runner.with_results(|lookup| charts::build(s, lookup)))
    });
    let qd_data = Memo::new(move |_| charts.with(|c| c.qd.clone()));
    let latency_data = Memo::new(move |_| charts.with(|c| c.latency.clone()));
    let mix_data = Memo::new(move |_| charts.with(|c| c.mix.clone()));
    let legend = Memo::new(move |_| charts.with(|c| c.legend.clone()));
    let readout_data = Memo::new(move |_| {
        runner.revision();
        state.with(|s| {
            let key = RunKey::current(s);
            readout::build(s, runner.point(&key), runner.failure(&key))
        })
    });
    let progress = Memo::new(move |_| {
        runner.revision();
        runner.progress()
    });

    let pattern = move || {
        state.with(|s| {
            format!(
                "{} {}",
                format::block_size(s.bs_bytes()),
                pattern_words(s.rw(), s.read_pct())
            )
        })
    };
    let measured_note = move || measured_caption(&state.get(), &charts.get());
    let your_drive_note = move || {
        state.with(|s| {
            s.your_drive().map(|d| {
                format!(
                    " Squares: your drive, from {} (fio, measured on your machine).",
                    d.file_name
                )
            })
        })
    };

    view! {
        <div class="page" class:embedded=embed>
            {if embed {
                view! {
                    <header class="masthead compact">
                        <p class="embed-title">"Parallelism Lab"</p>
                        <a id="open-full-lab" href=full_lab_href target="_blank" rel="noopener">
                            "Open in the full lab"
                            <span aria-hidden="true">" ↗"</span>
                            <span class="visually-hidden">" (opens a new tab)"</span>
                        </a>
                    </header>
                }
                    .into_any()
            } else {
                view! {
                    <header class="masthead">
                        <h1>"Parallelism Lab"</h1>
                        <p class="lede">
                            "An SSD is many flash dies working in parallel behind one controller. One request keeps one die busy, so at queue depth 1 every capacity of a drive is about equally fast; only with many requests in flight do the extra dies of a bigger drive pay off, until the controller or the host link runs out. Curves: a calibrated model of the drive, simulated in your browser. Diamonds: published measurements of the real drive. Move a control and the charts follow."
                        </p>
                    </header>
                }
                    .into_any()
            }}
            <LinkNotes notes=notes />
            <main class="lab">
                {
                    let panel = move || {
                        view! {
                            <aside class="panel" aria-label="Controls" id="controls">
                                <DriveControls state=state />
                                <WorkloadControls state=state />
                                <DriveStateControl state=state />
                                <ViewControls state=state />
                                <Show
                                    when=has_locks
                                    fallback=move || view! { <ResetButton state=state /> }
                                >
                                    <button
                                        type="button"
                                        id="reset"
                                        class="reset"
                                        on:click={
                                            let authored = authored.clone();
                                            move |_| {
                                                state
                                                    .update(|s| {
                                                        let mut back = authored.clone();
                                                        back.set_your_drive(s.your_drive().cloned());
                                                        *s = back;
                                                    })
                                            }
                                        }
                                    >
                                        "Back to the author's view"
                                    </button>
                                </Show>
                            </aside>
                        }
                    };
                    if embed {
                        view! {
                            <details class="embed-controls" id="embed-controls">
                                <summary>"Controls"</summary>
                                {panel()}
                            </details>
                        }
                            .into_any()
                    } else {
                        panel().into_any()
                    }
                }
                <div class="results">
                    <ViewSwitch state=state />
                    <Readout data=readout_data />
                    <ModelStatus progress=progress />
                    <Show when=move || !embed && state.with(LabState::view) != View::Queue>
                        <Tours state=state at=tour_at />
                    </Show>
                    <Show when=move || state.with(LabState::view) == View::Activity>
                        <TeachingMode state=state />
                    </Show>
                    <Legend
                        entries=legend
                        measured=Signal::derive(move || has_markers(&charts.get()))
                        state=state
                    />
                    <CompareBar state=state />
                    <div class="charts" hidden=move || state.with(|s| s.view() != View::Queue)>
                        <Show when=move || shows(ChartId::Iops)>
                        <figure class="chart" id="figure-iops">
                            <h2>
                                {move || {
                                    format!(
                                        "{} against queue depth",
                                        qd_data.with(|d| d.unit.title()),
                                    )
                                }}
                            </h2>
                            <p class="chart-sub">{pattern}</p>
                            <ChartCanvas
                                id="chart-iops"
                                label=Signal::derive(move || {
                                    qd_data
                                        .with(|d| {
                                            charts::describe(
                                                &format!("{} against queue depth", d.unit.title()),
                                                &d.depth.curves,
                                                "queue depth",
                                                &|v| d.unit.tick(v),
                                            )
                                        })
                                })
                                data=qd_data
                                stamp=qd_stamp
                                palette=palette
                                draw=qd_chart::draw
                            />
                            <figcaption>
                                {move || lines_caption(state.with(|s| !s.pins().is_empty()))}
                                " Dashed red line: the current queue depth. "
                                {measured_note}
                                {your_drive_note}
                            </figcaption>
                            {(!embed).then(|| view! { <PngButton chart=ChartId::Iops /> })}
                        </figure>
                        </Show>
                        <Show when=move || shows(ChartId::Latency)>
                        <figure class="chart" id="figure-latency">
                            <h2>"Latency against queue depth"</h2>
                            <p class="chart-sub">{pattern}</p>
                            <ChartCanvas
                                id="chart-latency"
                                label=Signal::derive(move || {
                                    latency_data
                                        .with(|d| {
                                            charts::describe(
                                                "Latency against queue depth",
                                                &d.curves,
                                                "queue depth",
                                                &format::latency_us,
                                            )
                                        })
                                })
                                data=latency_data
                                stamp=latency_stamp
                                palette=palette
                                draw=latency_chart::draw
                            />
                            <figcaption>
                                "Solid: mean latency; dashed: p99"
                                {move || if state.with(LabState::show_p999) { "; dotted: p99.9" } else { "" }}
                                ". Waiting grows with depth once the drive is saturated (Little's law: latency = depth ÷ IOPS). Diamonds: published mean latencies."
                                {your_drive_note}
                            </figcaption>
                            {(!embed).then(|| view! { <PngButton chart=ChartId::Latency /> })}
                        </figure>
                        </Show>
                        <Show when=move || shows(ChartId::Mix)>
                        <figure class="chart" id="figure-mix">
                            <h2>
                                {move || {
                                    format!("Throughput against read share at queue depth {}", state.with(LabState::qd))
                                }}
                            </h2>
                            <p class="chart-sub">
                                {move || {
                                    state
                                        .with(|s| {
                                            format!(
                                                "{} {} requests, 0% to 100% reads",
                                                format::block_size(s.bs_bytes()),
                                                if s.random() { "random" } else { "sequential" },
                                            )
                                        })
                                }}
                            </p>
                            <ChartCanvas
                                id="chart-mix"
                                label=Signal::derive(move || {
                                    mix_data
                                        .with(|d| {
                                            charts::describe(
                                                "Throughput against read share",
                                                &d.curves,
                                                "read percent",
                                                &|v| d.unit.tick(v),
                                            )
                                        })
                                })
                                data=mix_data
                                stamp=mix_stamp
                                palette=palette
                                draw=mix_chart::draw
                            />
                            <figcaption>
                                {move || {
                                    mix_data
                                        .with(|d| {
                                            let unit = d.unit.title();
                                            let per = match d.unit {
                                                charts::Unit::Iops => EXAMPLE_IOPS,
                                                charts::Unit::MbPerS => EXAMPLE_MB_S,
                                            };
                                            format!(
                                                "The reviewers' mixed sweep: one line per {}. Left axis {unit}; {} {unit} = {} at {}.",
                                                if state.with(|s| s.pins().is_empty()) { "capacity" } else { "configuration" },
                                                format::grouped(per),
                                                mix_chart::secondary_text(d, per),
                                                format::block_size(d.bs_bytes),
                                            )
                                        })
                                }}
                            </figcaption>
                            {(!embed).then(|| view! { <PngButton chart=ChartId::Mix /> })}
                        </figure>
                        </Show>
                    </div>
                    <DriveTimeView state=state palette=palette />
                    {(!embed)
                        .then(|| {
                            view! {
                                <ShareBar state=state charts=charts />
                                <FioImport state=state />
                                // Below the charts here (the current step docked at the window's
                                // bottom), above the teaching views' panels.
                                <Show when=move || state.with(LabState::view) == View::Queue>
                                    <Tours state=state at=tour_at docked=true />
                                </Show>
                            }
                        })}
                </div>
            </main>
            <footer class="footer" class:compact=embed>
                <p>
                    "All curves and every figure in the readout are results of the Parallelism Lab model, an event-driven simulation of host link, controller, NAND channels and dies that runs in this page. Diamonds are published measurements: "
                    <cite>{reference::source()}</cite>
                    ". Random cells were measured in random-write steady state, sequential ones after a sequential fill."
                </p>
            </footer>
        </div>
    }
}

/// What the lines of the queue-depth chart are, with or without pins.
fn lines_caption(pinned: bool) -> &'static str {
    if pinned {
        "Lines: model, one per pinned configuration and the view you set (the thick one)."
    } else {
        "Lines: model, one per capacity (the thick one is the drive you set)."
    }
}

fn qd_stamp(d: &QdChartData) -> &Stamp {
    &d.depth.stamp
}
fn latency_stamp(d: &LatencyChartData) -> &Stamp {
    &d.stamp
}
fn mix_stamp(d: &MixChartData) -> &Stamp {
    &d.stamp
}

fn has_markers(c: &ChartSet) -> bool {
    !(c.qd.depth.markers.is_empty() && c.latency.markers.is_empty() && c.mix.markers.is_empty())
}

/// What the queue-depth chart's caption says about published measurements.
fn measured_caption(state: &LabState, c: &ChartSet) -> String {
    if !has_markers(c) {
        return if state.preset().id == reference::MEASURED_PRESET {
            "No published measurement matches this pattern and block size.".into()
        } else {
            "Published measurements exist only for the Phison E18DC preset.".into()
        };
    }
    let mut s = format!(
        "Diamonds: published measurements ({}).",
        reference::source()
    );
    if let Some(other) = c.measured_state_differs {
        s.push_str(&format!(
            " They were measured {}; set the drive state to match to compare like with like.",
            other.label()
        ));
    }
    s
}

/// How far the model is, in one line.
#[component]
fn ModelStatus(
    /// The plan's progress.
    #[prop(into)]
    progress: Signal<compute::Progress>,
) -> impl IntoView {
    let text = move || {
        let p = progress.get();
        if p.total == 0 || p.finished == p.total {
            format!("Model: all {} points computed.", p.total)
        } else if p.estimated < p.total {
            format!("Model: estimating, {} of {} points…", p.estimated, p.total)
        } else {
            format!(
                "Model: refining, {} of {} points final…",
                p.finished, p.total
            )
        }
    };
    view! {
        <p class="model-status" id="model-status">
            <progress
                max=move || progress.get().total.max(1)
                value=move || progress.with(|p| p.estimated + p.finished)
                aria-hidden="true"
            ></progress>
            <span>{text}</span>
        </p>
    }
}

/// The drives compared on the charts, in their colours.
#[component]
fn Legend(
    /// One entry per drive.
    #[prop(into)]
    entries: Signal<Vec<LegendEntry>>,
    /// Whether the charts show published measurements.
    #[prop(into)]
    measured: Signal<bool>,
    /// The lab's state (pins are removed from it; the imported fio results are listed).
    state: RwSignal<LabState>,
) -> impl IntoView {
    view! {
        <ul class="legend" aria-label="Drives on the charts">
            {move || {
                entries
                    .get()
                    .into_iter()
                    .map(|e| {
                        view! {
                            <li class:current=e.current class:pinned=e.pin.is_some()>
                                <span class=e.colour.css_class() aria-hidden="true"></span>
                                {e.label}
                                {e.current.then_some(" (the drive you set)")}
                                {e.pin.map(|index| view! { " " <PinRemove state=state index=index /> })}
                            </li>
                        }
                    })
                    .collect_view()
            }}
            <Show when=move || measured.get()>
                <li>
                    <span class="diamond" aria-hidden="true"></span>
                    "published measurement"
                </li>
            </Show>
            <Show when=move || state.with(|s| s.your_points().next().is_some())>
                <li id="legend-yours">
                    <span class="square" aria-hidden="true"></span>
                    "your drive (fio)"
                </li>
            </Show>
        </ul>
    }
}

/// Rewrites the query of the page's URL, without a new history entry, if it differs.
fn replace_query(query: &str) {
    let window = window();
    let location = window.location();
    let wanted = format!("?{query}");
    if location.search().ok().as_deref() == Some(wanted.as_str()) {
        return;
    }
    let path = location.pathname().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(
            &JsValue::NULL,
            "",
            Some(&format!("{path}{wanted}{hash}")),
        );
    }
}

/// Sets `data-theme` on `<html>` (the stylesheet picks the colours from it).
fn apply_theme(theme: Theme) {
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("data-theme", theme.id());
    }
}

/// The palette from the page's CSS custom properties.
fn read_palette() -> Palette {
    let style = document()
        .document_element()
        .and_then(|root| window().get_computed_style(&root).ok().flatten());
    Palette::from_lookup(|name| {
        style
            .as_ref()
            .and_then(|s| s.get_property_value(name).ok())
            .filter(|v| !v.trim().is_empty())
    })
}

/// Re-reads the palette when the system switches between light and dark.
fn follow_system_scheme(palette: RwSignal<Palette>) {
    let Ok(Some(query)) = window().match_media(DARK_QUERY) else {
        return;
    };
    let callback = Closure::<dyn FnMut()>::new(move || {
        let _ = palette.try_set(read_palette());
    });
    if query
        .add_event_listener_with_callback("change", callback.as_ref().unchecked_ref())
        .is_ok()
    {
        let keep = send_wrapper::SendWrapper::new((query, callback));
        on_cleanup(move || {
            let (query, callback) = &*keep;
            let _ = query
                .remove_event_listener_with_callback("change", callback.as_ref().unchecked_ref());
        });
    }
}
