//! [`OverTimeView`]: the drive over time for the preset and capacity the controls set — a
//! whole-drive fill, bursts with idle time between them (with their sliders) and a random-write
//! torture followed by TRIM — drawn by the same [`ChartCanvas`] and paint helpers as the
//! queue-depth charts.
//!
//! The view's model work runs in the page's worker pool ([`Pool::set_time_target`]), never on
//! the thread that draws; it is asked for only while the view is shown. Everything the view
//! shows comes from [`over_time::build`], so the component holds no logic of its own beyond
//! wiring.

use leptos::prelude::*;

use crate::ui::pure::guide::GuidePage;
use crate::ui::views::embed_frame::InSight;
use crate::ui::views::guide_link::GuideLink;

use crate::ui::browser::pool::Pool;
use crate::ui::charts::canvas::ChartCanvas;
use crate::ui::charts::over_time::{self, cache_example, LegendItem, TimeView};
use crate::ui::charts::time_chart::{self, TimeChartData};
use crate::ui::charts::{Palette, Stamp};
use crate::ui::controls::locked;
use crate::ui::controls::slider::LadderSlider;
use crate::ui::pure::compute::{drive_key, DriveKey};
use crate::ui::pure::embed::Control;
use crate::ui::pure::format;
use crate::ui::pure::state::{burst_ladder, idle_ladder, Lab, View, ViewSettings};

fn stamp_of(d: &TimeChartData) -> &Stamp {
    &d.stamp
}

/// A chart's legend as a list under it.
#[component]
fn ChartLegend(
    /// The legend's lines.
    #[prop(into)]
    items: Signal<Vec<LegendItem>>,
    /// What the list describes.
    label: &'static str,
) -> impl IntoView {
    view! {
        <ul class="legend chart-legend" aria-label=label>
            {move || {
                items
                    .get()
                    .into_iter()
                    .map(|i| {
                        view! {
                            <li>
                                <span class=i.class aria-hidden="true"></span>
                                {i.label}
                            </li>
                        }
                    })
                    .collect_view()
            }}
        </ul>
    }
}

/// The drive-over-time view (hidden, and idle, unless the state's view is [`View::OverTime`]). Its
/// contents are built the first time it is shown and kept from then on: a reader who never
/// opens it never pays for its three charts at start-up.
#[component]
pub fn OverTimeView(
    /// The charts' colours.
    #[prop(into)]
    palette: Signal<Palette>,
) -> impl IntoView {
    let lab = Lab::expect();
    let pool = Pool::expect();
    let shown = Memo::new(move |_| lab.display.with(|d| d.view == View::OverTime));
    let key = Memo::new(move |_| lab.drive.with(drive_key));
    // In an article, the model's work waits until the frame is first in sight.
    let sight = InSight::expect();
    Effect::new(move |_| {
        let wanted = shown.get() && sight.ever.get();
        pool.set_time_target(wanted.then(|| key.get()));
    });
    let opened = crate::ui::browser::later::once_shown(shown);
    view! {
        <section
            id="drive-time"
            class="time-view"
            aria-labelledby="drive-time-title"
            hidden=move || !shown.get()
        >
            <Show when=move || opened.get()>
                <DriveTimeContents key=key palette=palette />
            </Show>
        </section>
    }
}

/// What the drive-over-time view shows for the drive `key` names.
#[component]
fn DriveTimeContents(key: Memo<DriveKey>, palette: Signal<Palette>) -> impl IntoView {
    let lab = Lab::expect();
    let pool = Pool::expect();
    let data = Memo::new(move |_| {
        pool.time_revision();
        let results = pool.time_results(&key.get());
        over_time::build(&lab.state(), results.as_ref())
    });
    view! {
            <div class="card time-head">
                <h2 id="drive-time-title">
                    "The drive over time: " {move || data.with(|v| v.drive.clone())}
                </h2>
                <GuideLink page=GuidePage::DriveOverTime />
                <p class="chart-sub">
                    "Curves, lines and dots are results of the model for the preset and capacity set in the controls; dashed dark lines and quoted figures are published measurements, with their source."
                </p>
                <p class="model-status" id="time-status">
                    {move || data.with(|v| v.status.clone())}
                </p>
                {move || data.with(|v| v.no_cache.clone()).map(|why| view! { <NoCacheNote why=why /> })}
            </div>
            <div class="charts">
                <FillFigure data=data palette=palette />
                <BurstFigure views=lab.views data=data palette=palette />
                <TortureFigure data=data palette=palette />
            </div>
    }
}

/// Says why a drive without an SLC cache draws flat lines, and offers one click to the E12
/// review's drive, which has one.
#[component]
fn NoCacheNote(why: String) -> impl IntoView {
    let drive = Lab::expect().drive;
    let example = cache_example();
    let label = example.map(|(preset, choice)| {
        format!(
            "Show the {} at {}, the drive of the review",
            preset.name,
            format::gb(choice.capacity_gb(preset))
        )
    });
    let show = move |_| {
        if let Some((preset, choice)) = example {
            drive.update(|d| {
                d.set_preset(preset);
                let _ = d.set_choice(choice);
            });
        }
    };
    view! {
        <p class="notes no-cache" id="time-no-cache">
            <span>{why}</span>
            " "
            {label.map(|l| view! {
                <button type="button" id="time-show-cache" on:click=show prop:disabled=locked(Control::Preset)>
                    {l}
                </button>
            })}
        </p>
    }
}

const FILL_TITLE: &str = "Whole-drive fill: write speed against GB written";
const BURST_TITLE: &str = "Bursts with idle time against sustained writing";
const TORTURE_TITLE: &str = "Random-write torture, then TRIM";

/// A drive-over-time chart and its legend. Its text alternative is the title, every legend
/// line and the summary, so a screen reader hears what the legend and caption show.
#[component]
fn TimeCanvas(
    /// The canvas's element id.
    id: &'static str,
    title: &'static str,
    chart: Memo<TimeChartData>,
    /// The chart's summary (also its caption or readout).
    text: Signal<String>,
    legend: Signal<Vec<LegendItem>>,
    /// What the legend lists, for assistive technology.
    legend_label: &'static str,
    palette: Signal<Palette>,
) -> impl IntoView {
    let label = Signal::derive(move || over_time::describe(title, &legend.get(), &text.get()));
    view! {
        <ChartCanvas
            id=id
            label=label
            data=chart
            stamp=stamp_of
            palette=palette
            draw=time_chart::draw
        />
        <ChartLegend items=legend label=legend_label />
    }
}

/// One chart's data out of the view's.
fn chart_of(data: Memo<TimeView>, f: fn(&TimeView) -> TimeChartData) -> Memo<TimeChartData> {
    Memo::new(move |_| data.with(f))
}

/// The whole-drive fill.
#[component]
fn FillFigure(data: Memo<TimeView>, palette: Signal<Palette>) -> impl IntoView {
    let fill = chart_of(data, |v| v.fill.clone());
    let fill_text = Signal::derive(move || data.with(|v| v.fill_text.clone()));
    let fill_legend = Signal::derive(move || data.with(|v| v.fill_legend.clone()));
    view! {
        <figure class="chart">
            <h2>{FILL_TITLE}</h2>
            <p class="chart-sub">
                "128 KiB sequential writes at QD32 from empty to full, as reviews draw it: the SLC cache first, then native cells, then folding the shrinking cache out of the way."
            </p>
            <TimeCanvas
                id="chart-fill"
                title=FILL_TITLE
                chart=fill
                text=fill_text
                legend=fill_legend
                legend_label="Lines on the fill chart"
                palette=palette
            />
            <figcaption id="time-fill-summary">{fill_text}</figcaption>
        </figure>
    }
}

/// Bursts with idle time, with the idle-time and burst-size sliders.
#[component]
fn BurstFigure(
    /// The per-view settings (the sliders write the idle time and burst size).
    views: RwSignal<ViewSettings>,
    data: Memo<TimeView>,
    palette: Signal<Palette>,
) -> impl IntoView {
    let burst = chart_of(data, |v| v.burst.clone());
    let burst_text = Signal::derive(move || data.with(|v| v.burst_text.clone()));
    let burst_legend = Signal::derive(move || data.with(|v| v.burst_legend.clone()));
    view! {
        <figure class="chart">
            <h2>{BURST_TITLE}</h2>
            <p class="chart-sub">
                "Six bursts of 128 KiB sequential writes at QD32 with idle time between them, in which the drive folds its SLC cache into native cells."
            </p>
            <div class="time-controls">
                <LadderSlider
                    id="idle"
                    label="Idle time between bursts"
                    ladder=Signal::derive(idle_ladder)
                    value=Signal::derive(move || views.with(ViewSettings::idle_s))
                    on_change=Callback::new(move |v| views.update(|s| s.set_idle_s(v)))
                    format=Callback::new(|v: u32| format!("{v} s"))
                    value_text=Callback::new(|v: u32| format!("{v} seconds idle between bursts"))
                    locked=locked(Control::Idle)
                />
                <LadderSlider
                    id="burst"
                    label="Burst size"
                    ladder=Signal::derive(burst_ladder)
                    value=Signal::derive(move || views.with(ViewSettings::burst_gb))
                    on_change=Callback::new(move |v| views.update(|s| s.set_burst_gb(v)))
                    format=Callback::new(|v: u32| format!("{v} GB"))
                    value_text=Callback::new(|v: u32| format!("{v} gigabytes per burst"))
                    locked=locked(Control::Burst)
                />
            </div>
            <TimeCanvas
                id="chart-burst"
                title=BURST_TITLE
                chart=burst
                text=burst_text
                legend=burst_legend
                legend_label="Lines on the burst chart"
                palette=palette
            />
            <p class="time-readout" id="burst-readout" aria-live="polite">{burst_text}</p>
            {move || {
                data.with(|v| v.burst_published.clone())
                    .map(|p| view! { <p class="measured" id="burst-published">{p}</p> })
            }}
        </figure>
    }
}

/// The random-write torture, then TRIM.
#[component]
fn TortureFigure(data: Memo<TimeView>, palette: Signal<Palette>) -> impl IntoView {
    let torture = chart_of(data, |v| v.torture.clone());
    let torture_text = Signal::derive(move || data.with(|v| v.torture_text.clone()));
    let torture_legend = Signal::derive(move || data.with(|v| v.torture_legend.clone()));
    view! {
        <figure class="chart">
            <h2>{TORTURE_TITLE}</h2>
            <p class="chart-sub">
                "A full drive takes 20 minutes of 4 KiB random writes at QD32 over all of it, as in the OCZ Octane review; then a 128 KiB sequential write, a TRIM of all user space, and the sequential write again."
            </p>
            <TimeCanvas
                id="chart-torture"
                title=TORTURE_TITLE
                chart=torture
                text=torture_text
                legend=torture_legend
                legend_label="Lines and dots on the torture chart"
                palette=palette
            />
            <figcaption id="time-torture-summary">{torture_text}</figcaption>
            {move || {
                data.with(|v| v.torture_published.clone())
                    .map(|p| view! { <p class="measured" id="torture-published">{p}</p> })
            }}
        </figure>
    }
}
