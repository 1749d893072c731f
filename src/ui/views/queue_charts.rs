//! The charts against queue depth and read share (or, for a rate, against offered load): each
//! figure a small component that
//! takes the chart set the page derives from the state and the results, and draws one chart
//! with its title, subtitle, caption and PNG button.
//!
//! What always holds: every figure says what its lines are (model results) and what its
//! markers are (published measurements, cited; the reader's fio points); the texts come from
//! the pure helpers below, so a figure computes no number of its own.

use leptos::prelude::*;

use crate::ui::pure::guide::GuidePage;
use crate::ui::views::guide_link::GuideLink;

use crate::ui::browser::later::Later;
use crate::ui::charts::anatomy_chart::{self, AnatomyAxis};
use crate::ui::charts::canvas::ChartCanvas;
use crate::ui::charts::{
    self, iodepth_chart, latency_chart, load_chart, mix_chart, AnatomyChartData, ChartSet,
    IodepthChartData, LatencyChartData, LoadChartData, MixChartData, Palette, Stamp, YourSeries,
};
use crate::ui::pure::embed::ChartId;
use crate::ui::pure::format;
use crate::ui::pure::reference;
use crate::ui::pure::state::{DriveSetup, Lab, LoadKind, View, WorkloadSetup};
use crate::ui::pure::words::{pattern_words, spacing_words};
use crate::ui::views::guess_pad::GuessPad;
use crate::ui::views::jobs::JobsFigure;
use crate::ui::views::share::PngButton;
use crate::ui::views::tours::TourShelf;
use crate::ui::views::trace::TraceFigure;

/// The IOPS chart's canvas (tests, the benchmark and the opening chart find it by it).
pub(crate) const IOPS_CANVAS_ID: &str = "chart-iops";

/// The round amounts the read-share caption converts between IOPS and MB/s.
const EXAMPLE_IOPS: f64 = 1000.0;
const EXAMPLE_MB_S: f64 = 100.0;

/// The queue-depth view's charts, those that `charts=` shows.
#[component]
pub fn QueueCharts(
    /// Every chart's data, derived from the state and the model's results.
    charts: Memo<ChartSet>,
    palette: RwSignal<Palette>,
    /// Embedded: no PNG buttons.
    embed: bool,
    /// The tours: a question may ask for a guess drawn on the chart against queue depth.
    tours: TourShelf,
) -> impl IntoView {
    let lab = Lab::expect();
    let shows = move |chart: ChartId| lab.embedding.with(|e| e.charts.shows(chart));
    let load = move || lab.workload.with(|w| w.load());
    let rate = move || load() == LoadKind::Rate;
    view! {
        <div class="charts" hidden=move || lab.display.with(|d| d.view != View::Queue)>
            <Show when=rate>
                <Show when=move || shows(ChartId::Load)>
                    <LoadFigure charts=charts palette=palette embed=embed />
                </Show>
                <Later>
                    <Show when=move || shows(ChartId::Carried)>
                        <CarriedFigure charts=charts palette=palette embed=embed />
                    </Show>
                </Later>
                <Later>
                    <Show when=move || shows(ChartId::Anatomy)>
                        <AnatomyFigure charts=charts palette=palette embed=embed />
                    </Show>
                </Later>
            </Show>
            <Show when=move || load() == LoadKind::Depth>
                <DepthFigures charts=charts palette=palette embed=embed tours=tours />
            </Show>
            <Show when=move || load() == LoadKind::Jobs && shows(ChartId::Jobs)>
                <JobsFigure />
            </Show>
            <Show when=move || load() == LoadKind::Trace && shows(ChartId::Trace)>
                <TraceFigure palette=palette />
            </Show>
        </div>
    }
}

/// The charts against queue depth and read share.
#[component]
fn DepthFigures(
    charts: Memo<ChartSet>,
    palette: RwSignal<Palette>,
    embed: bool,
    tours: TourShelf,
) -> impl IntoView {
    let lab = Lab::expect();
    let shows = move |chart: ChartId| lab.embedding.with(|e| e.charts.shows(chart));
    view! {
            <Show when=move || shows(ChartId::Iops)>
                <IopsFigure charts=charts palette=palette embed=embed tours=tours />
            </Show>
            // Below the first screen: each mounts in a task of its own once it is drawn.
            <Later>
                <Show when=move || shows(ChartId::Latency)>
                    <LatencyFigure charts=charts palette=palette embed=embed />
                </Show>
            </Later>
            // Beside the latency it makes up, where the page sets two figures a row.
            <Later>
                <Show when=move || shows(ChartId::Anatomy)>
                    <AnatomyFigure charts=charts palette=palette embed=embed />
                </Show>
            </Later>
            <Later>
                <Show when=move || shows(ChartId::Mix)>
                    <MixFigure charts=charts palette=palette embed=embed />
                </Show>
            </Later>
            <Later>
                <Show when=move || shows(ChartId::Power)>
                    <PowerFigure charts=charts palette=palette embed=embed />
                </Show>
            </Later>
    }
}

/// Latency against offered load, with each drive's knee and capacity.
#[component]
fn LoadFigure(charts: Memo<ChartSet>, palette: RwSignal<Palette>, embed: bool) -> impl IntoView {
    let lab = Lab::expect();
    let data = Memo::new(move |_| charts.with(|c| c.load.clone()));
    let label = Signal::derive(move || {
        data.with(|d| {
            let mut text = charts::describe(
                "Latency against offered load",
                &d.latency,
                &format!("offered {}", d.unit.title()),
                &|v| d.unit.tick(v),
            );
            if let Some(named) = &d.named {
                text.push(' ');
                text.push_str(named);
            }
            text
        })
    });
    let knee = move || {
        data.with(|d| {
            d.limits
                .iter()
                .find(|l| l.emphasis)
                .and_then(|l| l.knee)
                .map(|(x, _)| x.to_string())
        })
    };
    let capacity = move || {
        data.with(|d| {
            d.limits
                .iter()
                .find(|l| l.emphasis)
                .and_then(|l| l.capacity)
                .map(|x| x.to_string())
        })
    };
    view! {
        <figure class="chart" id="figure-load" data-knee=knee data-capacity=capacity>
            <h2>"Latency against offered load"</h2>
            <GuideLink page=GuidePage::Workloads />
            <p class="chart-sub">{move || lab.workload.with(rate_subtitle)}</p>
            <ChartCanvas
                id="chart-load"
                label=label
                data=data
                stamp=load_stamp
                palette=palette
                draw=load_chart::draw_latency
            />
            <figcaption>
                {move || lines_caption(lab.pins.with(|p| !p.is_empty()))}
                " Solid: mean latency; dashed: p99. Rings: each drive's knee, where throughput per latency peaks (Kleinrock's power); dotted uprights: its capacity, the most it completes at this depth. Past the capacity requests arrive faster than they complete, so the host's queue, and the latency, grow without bound: no point is drawn there. Dashed red line: the current rate. "
                <span id="load-named">{move || data.with(|d| d.named.clone().unwrap_or_default())}</span>
            </figcaption>
            {(!embed).then(|| view! { <PngButton chart=ChartId::Load /> })}
        </figure>
    }
}

/// Carried against offered load.
#[component]
fn CarriedFigure(charts: Memo<ChartSet>, palette: RwSignal<Palette>, embed: bool) -> impl IntoView {
    let lab = Lab::expect();
    let data = Memo::new(move |_| charts.with(|c| c.load.clone()));
    let label = Signal::derive(move || {
        data.with(|d| {
            charts::describe(
                "Carried against offered load",
                &d.carried,
                &format!("offered {}", d.unit.title()),
                &|v| d.unit.tick(v),
            )
        })
    });
    view! {
        <figure class="chart" id="figure-carried">
            <h2>"Carried against offered load"</h2>
            <p class="chart-sub">{move || lab.workload.with(rate_subtitle)}</p>
            <ChartCanvas
                id="chart-carried"
                label=label
                data=data
                stamp=load_stamp
                palette=palette
                draw=load_chart::draw_carried
            />
            <figcaption>
                {move || lines_caption(lab.pins.with(|p| !p.is_empty()))}
                " Dotted diagonal: carried equals offered, where every drive runs below its capacity; dotted levels: each drive's capacity, where its line bends flat."
            </figcaption>
            {(!embed).then(|| view! { <PngButton chart=ChartId::Carried /> })}
        </figure>
    }
}

/// IOPS (or MB/s) against queue depth; while a tour's question asks for a guess, the pad it
/// is drawn on, the model's curves hidden until the reveal.
#[component]
fn IopsFigure(
    charts: Memo<ChartSet>,
    palette: RwSignal<Palette>,
    embed: bool,
    tours: TourShelf,
) -> impl IntoView {
    let lab = Lab::expect();
    let selected = RwSignal::new(1);
    let data = Memo::new(move |_| {
        let mut d = charts.with(|c| c.iodepth.clone());
        d.guess = tours.guess_layer(selected.get());
        d
    });
    let title = move || data.with(iops_title);
    let label = Signal::derive(move || data.with(iops_label));
    view! {
        <figure class="chart" id="figure-iops">
            <h2>{title}</h2>
            <p class="chart-sub">{move || lab.workload.with(pattern_text)}</p>
            <GuessPad shelf=tours data=data selected=selected>
                <ChartCanvas
                    id=IOPS_CANVAS_ID
                    label=label
                    data=data
                    stamp=iodepth_stamp
                    palette=palette
                    draw=iodepth_chart::draw
                />
            </GuessPad>
            <figcaption>
                {move || lines_caption(lab.pins.with(|p| !p.is_empty()))}
                " Dashed red line: the current queue depth. "
                {move || lab.drive.with(|d| charts.with(|c| measured_caption(d, c)))}
                {move || data.with(|d| your_drive_note(&d.depth.yours))}
                {move || data.with(|d| d.guess.is_some()).then_some(GUESS_CAPTION)}
            </figcaption>
            {(!embed).then(|| view! { <PngButton chart=ChartId::Iops /> })}
        </figure>
    }
}

/// What the chart says of a drawn guess.
const GUESS_CAPTION: &str =
    " Dashed line through rings: your guess (the tour's question), not a model result.";

/// Mean, p99 (and p99.9) latency against queue depth.
#[component]
fn LatencyFigure(charts: Memo<ChartSet>, palette: RwSignal<Palette>, embed: bool) -> impl IntoView {
    let lab = Lab::expect();
    let data = Memo::new(move |_| charts.with(|c| c.latency.clone()));
    let label = Signal::derive(move || {
        data.with(|d| {
            charts::describe(
                "Latency against queue depth",
                &d.curves,
                "queue depth",
                &format::latency_us,
            )
        })
    });
    view! {
        <figure class="chart" id="figure-latency">
            <h2>"Latency against queue depth"</h2>
            <p class="chart-sub">{move || lab.workload.with(pattern_text)}</p>
            <ChartCanvas
                id="chart-latency"
                label=label
                data=data
                stamp=latency_stamp
                palette=palette
                draw=latency_chart::draw
            />
            <figcaption>
                "Solid: mean latency; dashed: p99"
                {move || if lab.views.with(|v| v.show_p999()) { "; dotted: p99.9" } else { "" }}
                ". Waiting grows with depth once the drive is saturated (Little's law: latency = depth ÷ IOPS). Diamonds: published mean latencies."
                {move || data.with(|d| your_drive_note(&d.yours))}
            </figcaption>
            {(!embed).then(|| view! { <PngButton chart=ChartId::Latency /> })}
        </figure>
    }
}

/// Where the reader's drive's mean request spends its time, against queue depth (or offered
/// load): the parts' colours stacked, reads above and writes below.
#[component]
fn AnatomyFigure(charts: Memo<ChartSet>, palette: RwSignal<Palette>, embed: bool) -> impl IntoView {
    let lab = Lab::expect();
    let data = Memo::new(move |_| charts.with(|c| c.anatomy.clone()));
    let title = move || data.with(|d| anatomy_title(d.axis));
    let label = Signal::derive(move || data.with(|d| d.describe(anatomy_title(d.axis))));
    let subtitle = move || {
        let workload = lab.workload.with(|w| match w.load() {
            LoadKind::Rate => rate_subtitle(w),
            _ => pattern_text(w),
        });
        data.with(|d| format!("{workload}; {}", d.drive))
    };
    let legend = move || {
        data.with(AnatomyChartData::colours)
            .into_iter()
            .map(|c| {
                view! {
                    <li>
                        <span class=format!("anatomy-swatch {}", c.css_class()) aria-hidden="true"></span>
                        {c.label()}
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <figure class="chart" id="figure-anatomy" data-panels=move || data.with(|d| d.panels.len())>
            <h2>{title}</h2>
            <p class="chart-sub">{subtitle}</p>
            <ChartCanvas
                id="chart-anatomy"
                label=label
                data=data
                stamp=anatomy_stamp
                palette=palette
                draw=anatomy_chart::draw
            />
            <figcaption>
                {move || data.with(|d| anatomy_caption(d, embed))}
                <ul class="anatomy-legend" id="anatomy-chart-legend" aria-label="The bands, bottom to top">
                    {legend}
                </ul>
            </figcaption>
            {(!embed).then(|| view! { <PngButton chart=ChartId::Anatomy /> })}
        </figure>
    }
}

/// Where the time goes's title, after its axis.
fn anatomy_title(axis: AnatomyAxis) -> &'static str {
    match axis {
        AnatomyAxis::Depth { .. } => "Where the time goes against queue depth",
        AnatomyAxis::Offered { .. } => "Where the time goes against offered load",
    }
}

/// What the bands are, and which drive and line: the model's mean request (and, where the
/// readout has its panel, not `embed`ded, where the current point's parts are).
fn anatomy_caption(d: &AnatomyChartData, embed: bool) -> String {
    let (at, guide) = match d.axis {
        AnatomyAxis::Depth { .. } => ("queue depth", "the current queue depth"),
        AnatomyAxis::Offered { .. } => ("offered load below saturation", "the current rate"),
    };
    format!(
        "Model results for the drive you set, {}: at each {at}, the mean request's latency split into where its time goes, in bands stacked bottom to top in the order a request meets them, so the top of a stack is the mean latency (linear axis, µs). Reads above; writes in a panel of their own below when the workload writes. Dashed red line: {guide}.{} The bands, bottom to top:",
        d.drive,
        if embed {
            ""
        } else {
            " The readout's Where the time goes gives the current point's parts one by one, and its tails."
        }
    )
}

/// Throughput against read share at the current depth.
#[component]
fn MixFigure(charts: Memo<ChartSet>, palette: RwSignal<Palette>, embed: bool) -> impl IntoView {
    let lab = Lab::expect();
    let data = Memo::new(move |_| charts.with(|c| c.mix.clone()));
    let label = Signal::derive(move || {
        data.with(|d| {
            charts::describe(
                "Throughput against read share",
                &d.curves,
                "read percent",
                &|v| d.unit.tick(v),
            )
        })
    });
    let title = move || {
        format!(
            "Throughput against read share at queue depth {}",
            lab.workload.with(WorkloadSetup::iodepth)
        )
    };
    let caption = move || {
        let pinned = lab.pins.with(|p| !p.is_empty());
        data.with(|d| mix_caption(d, pinned))
    };
    view! {
        <figure class="chart" id="figure-mix">
            <h2>{title}</h2>
            <p class="chart-sub">{move || lab.workload.with(mix_subtitle)}</p>
            <ChartCanvas
                id="chart-mix"
                label=label
                data=data
                stamp=mix_stamp
                palette=palette
                draw=mix_chart::draw
            />
            <figcaption>{caption}</figcaption>
            {(!embed).then(|| view! { <PngButton chart=ChartId::Mix /> })}
        </figure>
    }
}

/// Average power and throughput per watt against queue depth, two canvases in one figure.
#[component]
fn PowerFigure(charts: Memo<ChartSet>, palette: RwSignal<Palette>, embed: bool) -> impl IntoView {
    let lab = Lab::expect();
    let power = Memo::new(move |_| charts.with(|c| c.power.clone()));
    let efficiency = Memo::new(move |_| charts.with(|c| c.efficiency.clone()));
    let label = |data: Memo<IodepthChartData>, title: &'static str| {
        Signal::derive(move || {
            data.with(|d| {
                charts::describe(title, &d.depth.curves, "queue depth", &|v| d.unit.tick(v))
            })
        })
    };
    let efficiency_title = move || {
        format!(
            "{} against queue depth",
            efficiency.with(|d| d.unit.title())
        )
    };
    view! {
        <figure class="chart" id="figure-power">
            <h2>"Power against queue depth"</h2>
            <GuideLink page=GuidePage::Power />
            <p class="chart-sub">{move || lab.workload.with(pattern_text)}</p>
            <ChartCanvas
                id="chart-power"
                label=label(power, "Average power (W) against queue depth")
                data=power
                stamp=iodepth_stamp
                palette=palette
                draw=iodepth_chart::draw
            />
            <h3 class="chart-sub-title">{efficiency_title}</h3>
            <ChartCanvas
                id="chart-efficiency"
                label=label(efficiency, "Throughput per watt against queue depth")
                data=efficiency
                stamp=iodepth_stamp
                palette=palette
                draw=iodepth_chart::draw
            />
            <figcaption>
                {move || lab.drive.with(power_caption)}
            </figcaption>
            {(!embed).then(|| view! { <PngButton chart=ChartId::Power /> })}
        </figure>
    }
}

/// What the power chart's lines are, and the budget they keep to.
fn power_caption(drive: &DriveSetup) -> String {
    let budget = match (drive.power_budget_w(), drive.power_state()) {
        (Some(w), n) => format!(
            " The drive is held to PS{n}, whose {} maximum is a budget: only as many dies work at once as it leaves room for.",
            format::watts(w)
        ),
        (None, _) => " No power-state table is published for this controller: it runs uncapped.".into(),
    };
    format!(
        "Lines: model, the average power of each run (idle draw plus each part's active draw for the time it was busy; the draws are stated assumptions, see the guide's Power chapter) and the throughput it buys per watt.{budget} No published power figure is drawn: the reference data has none for these drives."
    )
}

/// The queue-depth chart's title.
pub(crate) fn iops_title(d: &IodepthChartData) -> String {
    format!("{} against queue depth", d.unit.title())
}

/// The queue-depth chart in words (its canvas's text alternative): the guess alone while it
/// hides the model's curves, after them once shown.
pub(crate) fn iops_label(d: &IodepthChartData) -> String {
    let curves = || {
        charts::describe(&iops_title(d), &d.depth.curves, "queue depth", &|v| {
            d.unit.tick(v)
        })
    };
    let Some(g) = &d.guess else {
        return curves();
    };
    let points: Vec<String> = g
        .points
        .iter()
        .map(|&(depth, v)| format!("QD {depth}: {}", d.unit.value_words(v)))
        .collect();
    let yours = if points.is_empty() {
        "Your guess: nothing drawn yet.".to_string()
    } else {
        format!("Your guess: {}.", points.join("; "))
    };
    if g.hides_model {
        format!(
            "{}: the model's curves are hidden until you commit. {yours}",
            iops_title(d)
        )
    } else {
        format!("{} {yours}", curves())
    }
}

/// The block size and pattern the queue-depth charts show.
pub(crate) fn pattern_text(w: &WorkloadSetup) -> String {
    format!(
        "{} {}",
        format::block_size(w.bs_bytes()),
        pattern_words(w.rw(), w.read_pct())
    )
}

/// The rate view's subtitle: the pattern, how arrivals are spaced and the depth allowed.
fn rate_subtitle(w: &WorkloadSetup) -> String {
    format!(
        "{}, {} arrivals, at most {} at the drive",
        pattern_text(w),
        spacing_words(w.spacing()),
        w.iodepth()
    )
}

/// The mixed sweep's subtitle: block size and randomness, all read shares.
fn mix_subtitle(w: &WorkloadSetup) -> String {
    format!(
        "{} {} requests, 0% to 100% reads",
        format::block_size(w.bs_bytes()),
        if w.random() { "random" } else { "sequential" },
    )
}

/// The mixed sweep's caption: what a line is, and the other unit at a round figure.
fn mix_caption(d: &MixChartData, pinned: bool) -> String {
    let unit = d.unit.title();
    let per = match d.unit {
        charts::Unit::Iops => EXAMPLE_IOPS,
        charts::Unit::MbS => EXAMPLE_MB_S,
    };
    format!(
        "The reviewers' mixed sweep: one line per {}. Left axis {unit}; {} {unit} = {} at {}.",
        if pinned { "configuration" } else { "capacity" },
        format::grouped(per),
        mix_chart::secondary_text(d, per),
        format::block_size(d.bs_bytes),
    )
}

/// Where the squares on the charts come from, when the reader imported fio results.
fn your_drive_note(yours: &[YourSeries]) -> Option<String> {
    if yours.is_empty() {
        return None;
    }
    let files: Vec<String> = yours
        .iter()
        .map(|s| format!("{} from {}", s.shape.plural(), s.file_name))
        .collect();
    Some(format!(
        " Your measurements (fio, on your machine): {}.",
        files.join(", ")
    ))
}

/// What the lines of the queue-depth chart are, with or without pins.
fn lines_caption(pinned: bool) -> &'static str {
    if pinned {
        "Lines: model, one per pinned configuration and the view you set (the thick one)."
    } else {
        "Lines: model, one per capacity (the thick one is the drive you set)."
    }
}

pub(crate) fn iodepth_stamp(d: &IodepthChartData) -> &Stamp {
    &d.depth.stamp
}
fn latency_stamp(d: &LatencyChartData) -> &Stamp {
    &d.stamp
}
fn mix_stamp(d: &MixChartData) -> &Stamp {
    &d.stamp
}
fn load_stamp(d: &LoadChartData) -> &Stamp {
    &d.stamp
}
fn anatomy_stamp(d: &AnatomyChartData) -> &Stamp {
    &d.stamp
}

/// Whether any chart shows a published measurement.
pub fn has_markers(c: &ChartSet) -> bool {
    !(c.iodepth.depth.markers.is_empty()
        && c.latency.markers.is_empty()
        && c.mix.markers.is_empty())
}

/// What the queue-depth chart's caption says about published measurements.
pub(crate) fn measured_caption(drive: &DriveSetup, c: &ChartSet) -> String {
    if !has_markers(c) {
        return if drive.preset().id == reference::MEASURED_PRESET {
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
