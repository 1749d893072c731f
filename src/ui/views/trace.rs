//! A trace on each compared drive: the trace's choice ([`TraceControls`](crate::ui::controls::trace::TraceControls), in the controls
//! panel) and what each drive did with it ([`TraceFigure`], where the charts are), as the
//! reviews report their desktop tests: the average data rate over the time the drive was busy,
//! the busy time, and each direction's latency.
//!
//! What always holds: the replays run in a worker of the pool (never on the page's thread),
//! the latest asked replacing the one before, with progress and Cancel; the drives are the ones
//! the charts compare (the preset's capacities, or the pins with their drive states, so a pin
//! gives an empty against a full drive); every figure is a model result and says so, and the
//! bars are an HTML table, read by assistive technology as it reads on screen.

use leptos::prelude::*;

use crate::ui::pure::guide::GuidePage;
use crate::ui::views::guide_link::GuideLink;

use crate::ui::pure::words::{trace_label, FILE_FORMATS};

use crate::ui::browser::pool::{Pool, ReplayState};
use crate::ui::charts::canvas::ChartCanvas;
use crate::ui::charts::time_chart::{self, TimeChartData};
use crate::ui::charts::{self, compared, Curve, Dash, Palette, SeriesColour, Stamp};
use crate::ui::pure::format;
use crate::ui::pure::state::{Lab, LabState, TraceSource};
use crate::ui::views::task_status::TaskStatus;
use parallelism_work::replay::{
    DriveReplay, Latency, ReplayAsk, ReplayDrive, ReplayFound, ReplaySource, MAX_REPLAY_DRIVES,
};
use parallelism_work::WorkError;

/// What each bar of a row is drawn against: the largest value of its column, as a percentage.
const FULL_BAR_PCT: f64 = 100.0;

/// One drive a trace replays on, as the charts compare it.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceDrive {
    pub replay: ReplayDrive,
    pub label: String,
    pub colour: SeriesColour,
    /// The drive the reader set (drawn heavier).
    pub current: bool,
}

/// The drives the state's trace replays on, in the charts' order.
pub fn drives(state: &LabState) -> Vec<TraceDrive> {
    compared(state)
        .into_iter()
        .take(MAX_REPLAY_DRIVES)
        .map(|c| TraceDrive {
            replay: ReplayDrive {
                drive: crate::ui::pure::compute::DriveKey {
                    preset: c.config.drive.preset().clone(),
                    drive: c.drive,
                },
                state: c.config.workload.drive_state(),
                power_state: c.config.drive.power_state(),
            },
            label: c.label,
            colour: c.colour,
            current: c.current,
        })
        .collect()
}

/// The figures over the trace as a chart: one curve per drive of `pick` (MB/s, or requests
/// in the system) against seconds of the trace.
pub fn over_time(
    drives: &[TraceDrive],
    found: &ReplayFound,
    y_title: &'static str,
    pick: fn(&(f64, f64, f64)) -> f64,
) -> TimeChartData {
    TimeChartData {
        x_title: "seconds of the trace",
        y_title: Some(y_title),
        curves: drives
            .iter()
            .zip(&found.drives)
            .map(|(d, r)| Curve {
                label: d.label.clone(),
                colour: d.colour,
                emphasis: d.current,
                dash: Dash::Solid,
                points: r.series.iter().map(|p| (p.0, pick(p))).collect(),
            })
            .collect(),
        ..TimeChartData::default()
    }
}

/// What the worker is asked for the state's trace, given the reader's file if one is held;
/// `None` for a file view without a file.
pub fn ask(state: &LabState, file: Option<ReplaySource>) -> Option<ReplayAsk> {
    let source = match state.workload.trace().desktop() {
        Some(d) => ReplaySource::Desktop(d.id().to_string()),
        None => file?,
    };
    Some(ReplayAsk {
        drives: drives(state).into_iter().map(|d| d.replay).collect(),
        source,
    })
}

/// The first drive against the last in one sentence (the smallest capacity against the
/// largest without pins): its share of the other's data rate.
pub fn verdict(labels: &[String], found: &ReplayFound) -> Option<String> {
    let (first, last) = (found.drives.first()?, found.drives.last()?);
    if found.drives.len() < 2 || last.data_rate_mb_s <= 0.0 {
        return None;
    }
    Some(format!(
        "{} keeps {:.0}% of the data rate of {} ({} against {}).",
        labels.first()?,
        100.0 * first.data_rate_mb_s / last.data_rate_mb_s,
        labels.last()?,
        format::mb_s(first.data_rate_mb_s),
        format::mb_s(last.data_rate_mb_s),
    ))
}

/// Where a replay stands, in words: nothing to replay, stopped, reading the file or replaying
/// (empty once it has a result, which the table shows).
fn progress_words(state: Option<&ReplayState>, asked: bool) -> String {
    match state {
        None if !asked => format!(
            "This view replays a trace file of yours: choose one in the controls ({FILE_FORMATS})."
        ),
        None => "Model: stopped.".to_string(),
        Some(s) if s.outcome.is_some() => String::new(),
        Some(s) => match s.progress.reading {
            Some((at, len)) => format!(
                "Model: reading the file, {:.0}% …",
                100.0 * at as f64 / len.max(1) as f64
            ),
            None => format!(
                "Model: replaying on each drive, {:.0}% …",
                100.0 * s.progress.done as f64 / s.progress.total.max(1) as f64
            ),
        },
    }
}

/// A replay's outcome: each drive's results, or why the model cannot replay the trace.
#[component]
fn TraceOutcome(
    #[prop(into)] outcome: Signal<Option<Result<ReplayFound, WorkError>>>,
    palette: RwSignal<Palette>,
) -> impl IntoView {
    let lab = Lab::expect();
    move || {
        match outcome.get() {
        Some(Ok(found)) => {
            let drives = drives(&lab.state());
            view! { <TraceResults drives=drives found=found palette=palette /> }.into_any()
        }
        Some(Err(why)) => view! {
            <p class="error" role="alert" id="trace-error">{format!("The model cannot replay this: {why}.")}</p>
        }
        .into_any(),
        None => ().into_any(),
    }
    }
}

/// The replays' results, computed in a worker whenever the trace or the drives change.
#[component]
pub fn TraceFigure(
    /// The charts' colours.
    palette: RwSignal<Palette>,
) -> impl IntoView {
    let lab = Lab::expect();
    let pool = Pool::expect();
    let asked = Memo::new(move |_| {
        pool.replay_revision();
        ask(&lab.state(), pool.trace_file())
    });
    // When the replay was asked and when its result arrived (`performance.now()`), stamped on
    // the figure for the page benchmark.
    let started_at = RwSignal::new(None::<f64>);
    let done_at = RwSignal::new(None::<f64>);
    Effect::new(move |_| match asked.get() {
        Some(a) => {
            started_at.set(Some(now_ms()));
            done_at.set(None);
            pool.start_replay(a);
        }
        None => pool.cancel_replay(),
    });
    on_cleanup(move || pool.cancel_replay());
    let state = Memo::new(move |_| {
        pool.replay_revision();
        pool.replay_state()
    });
    let progress = move || state.with(|s| progress_words(s.as_ref(), asked.with(Option::is_some)));
    let running = move || state.with(|s| s.as_ref().is_some_and(|s| s.outcome.is_none()));
    Effect::new(move |_| {
        let done = state.with(|s| s.as_ref().is_some_and(|s| s.outcome.is_some()));
        if done && done_at.get_untracked().is_none() {
            done_at.set(Some(now_ms()));
        }
    });
    let outcome = move || state.with(|s| s.as_ref().and_then(|s| s.outcome.clone()));
    let title = move || {
        pool.replay_revision();
        let name = match (lab.workload.with(|w| w.trace()), pool.trace_file()) {
            (TraceSource::File, Some(ReplaySource::File { name, .. })) => name,
            (t, _) => trace_label(t).to_string(),
        };
        format!("{name} on each drive")
    };
    view! {
        <figure
            class="chart trace-figure"
            id="figure-trace"
            data-started-at=move || started_at.get()
            data-done-at=move || done_at.get()
        >
            <h2>{title}</h2>
            <GuideLink page=GuidePage::Traces />
            <TaskStatus
                id="trace"
                text=Signal::derive(progress)
                running=Signal::derive(running)
                stopped=Signal::derive(move || {
                    state.with(Option::is_none) && asked.with(Option::is_some)
                })
                on_cancel=Callback::new(move |()| pool.cancel_replay())
                on_run=Callback::new(move |()| {
                    if let Some(a) = asked.get_untracked() {
                        pool.start_replay(a);
                    }
                })
            />
            <TraceOutcome outcome=Signal::derive(outcome) palette=palette />
            <figcaption>
                "Model results. Data rate: the bytes moved over the time the drive had something to do, as the reviews average their trace tests; busy time: that time. Bars are drawn against the largest of each column. The reviews' own figures for these tests are not in the lab's reference data, so these are predictions."
            </figcaption>
        </figure>
    }
}

/// The page's clock (`performance.now()`), in ms.
fn now_ms() -> f64 {
    window().performance().map_or(f64::NAN, |p| p.now())
}

/// One direction's latency in a cell.
fn latency_text(l: Option<Latency>) -> String {
    l.map_or_else(
        || format::NO_VALUE.to_string(),
        |l| {
            format!(
                "{} mean; p50 {}, p90 {}, p99 {}, p99.9 {}",
                format::latency_us(l.mean_us),
                format::latency_us(l.p50_us),
                format::latency_us(l.p90_us),
                format::latency_us(l.p99_us),
                format::latency_us(l.p999_us)
            )
        },
    )
}

/// A bar of `value` against `top`, and its figure.
fn bar(value: f64, top: f64, text: String) -> impl IntoView {
    let pct = if top > 0.0 {
        (FULL_BAR_PCT * value / top).clamp(0.0, FULL_BAR_PCT)
    } else {
        0.0
    };
    view! {
        <span class="bar" aria-hidden="true" style:width=format!("{pct:.1}%")></span>
        <span class="bar-value">{text}</span>
    }
}

/// The table, and the figures over the trace as two charts.
#[component]
fn TraceResults(
    drives: Vec<TraceDrive>,
    found: ReplayFound,
    palette: RwSignal<Palette>,
) -> impl IntoView {
    let labels: Vec<String> = drives.iter().map(|d| d.label.clone()).collect();
    let rate = over_time(&drives, &found, "data rate (MB/s)", |p| p.1);
    let depth = over_time(&drives, &found, "requests in the system", |p| p.2);
    let describe = |title: &str, d: &TimeChartData| {
        charts::describe(title, &d.curves, "seconds of the trace", &format::grouped)
    };
    let rate_label = describe("Data rate over the trace", &rate);
    let depth_label = describe("Requests in the system over the trace", &depth);
    view! {
        <TraceTable labels=labels found=found />
        <h3 class="chart-sub-title">"Data rate over the trace"</h3>
        <ChartCanvas
            id="chart-trace-rate"
            label=rate_label
            data=Signal::stored(rate)
            stamp=time_stamp
            palette=palette
            draw=time_chart::draw
        />
        <h3 class="chart-sub-title">"Requests in the system over the trace (queue depth)"</h3>
        <ChartCanvas
            id="chart-trace-depth"
            label=depth_label
            data=Signal::stored(depth)
            stamp=time_stamp
            palette=palette
            draw=time_chart::draw
        />
    }
}

fn time_stamp(d: &TimeChartData) -> &Stamp {
    &d.stamp
}

/// Each drive's data rate and busy time as bars, and its latency per direction.
#[component]
fn TraceTable(labels: Vec<String>, found: ReplayFound) -> impl IntoView {
    let top = |f: fn(&DriveReplay) -> f64| found.drives.iter().map(f).fold(0.0, f64::max);
    let (top_rate, top_busy) = (top(|d| d.data_rate_mb_s), top(|d| d.busy_s));
    let rows = found
        .drives
        .iter()
        .zip(&labels)
        .map(|(d, label)| {
            view! {
                <tr>
                    <th scope="row">{label.clone()}</th>
                    <td class="bar-cell">{bar(d.data_rate_mb_s, top_rate, format::mb_s(d.data_rate_mb_s))}</td>
                    <td class="bar-cell">{bar(d.busy_s, top_busy, format!("{:.1} s", d.busy_s))}</td>
                    <td>{latency_text(d.read)}</td>
                    <td>{latency_text(d.write)}</td>
                </tr>
            }
        })
        .collect_view();
    let verdict = verdict(&labels, &found);
    let adjusted = adjusted_words(&labels, &found);
    let requests = found.drives.first().map_or(0, |d| d.requests);
    let elapsed = found.drives.first().map_or(0.0, |d| d.elapsed_s);
    view! {
        <table class="trace-table" id="trace-table">
            <caption>
                {format!(
                    "Model: {} requests over {:.0} s of the trace's time, on each drive",
                    format::grouped(requests as f64),
                    elapsed
                )}
            </caption>
            <thead>
                <tr>
                    <th scope="col">"Drive"</th>
                    <th scope="col">"Data rate"</th>
                    <th scope="col">"Busy time"</th>
                    <th scope="col">"Reads' latency"</th>
                    <th scope="col">"Writes' latency"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
        {verdict.map(|v| view! { <p class="trace-verdict" id="trace-verdict">{v}</p> })}
        {adjusted.map(|a| view! { <p class="hint" id="trace-adjusted">{a}</p> })}
    }
}

/// The trace's requests each drive could not take as they are, in words; `None` when every
/// request was replayed as the trace has it.
fn adjusted_words(labels: &[String], found: &ReplayFound) -> Option<String> {
    let parts: Vec<String> = found
        .drives
        .iter()
        .zip(labels)
        .filter(|(d, _)| !d.adjusted.is_empty())
        .map(|(d, label)| format!("{label}: {}.", d.adjusted))
        .collect();
    (!parts.is_empty()).then(|| format!("Adjusted to fit the drive: {}", parts.join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::presets;
    use crate::model::workload::trace::Adjusted;
    use crate::ui::pure::state::LoadKind;

    fn octane() -> LabState {
        let mut s = LabState::default();
        s.drive.set_preset(presets::find("octane").unwrap());
        s.workload.set_load(LoadKind::Trace);
        s
    }

    #[test]
    fn the_trace_replays_on_the_drives_the_charts_compare() {
        let s = octane();
        let d = drives(&s);
        let caps: Vec<u32> = d
            .iter()
            .map(|d| d.replay.drive.drive.capacity_gb(s.drive.preset()).round() as u32)
            .collect();
        assert_eq!(caps.first(), Some(&128));
        assert_eq!(caps.last(), Some(&512));
        assert_eq!(
            ask(&s, None).unwrap().source,
            ReplaySource::Desktop("desktop-light".into())
        );
        let mut f = s.clone();
        f.workload.set_trace(TraceSource::File);
        assert_eq!(
            ask(&f, None),
            None,
            "a file view without a file asks for nothing"
        );
    }

    /// A drive's replay at `mb_s`, with no series and nothing adjusted.
    fn replayed(mb_s: f64) -> DriveReplay {
        DriveReplay {
            data_rate_mb_s: mb_s,
            busy_s: 1.0,
            elapsed_s: 2.0,
            read: None,
            write: None,
            energy_j: 1.0,
            requests: 10,
            adjusted: Adjusted::default(),
            series: Vec::new(),
        }
    }

    #[test]
    fn the_charts_over_the_trace_draw_one_curve_per_drive_in_its_colour() {
        let s = octane();
        let d = drives(&s);
        let replay = |mb_s: f64| DriveReplay {
            series: vec![(0.0, mb_s, 1.5), (1.0, 2.0 * mb_s, 3.0)],
            ..replayed(mb_s)
        };
        let found = ReplayFound {
            drives: d.iter().map(|_| replay(100.0)).collect(),
        };
        let rate = over_time(&d, &found, "data rate (MB/s)", |p| p.1);
        let depth = over_time(&d, &found, "requests in the system", |p| p.2);
        assert_eq!(rate.curves.len(), d.len());
        assert_eq!(rate.curves[0].points, vec![(0.0, 100.0), (1.0, 200.0)]);
        assert_eq!(depth.curves[0].points, vec![(0.0, 1.5), (1.0, 3.0)]);
        assert_eq!(rate.curves[0].colour, d[0].colour);
        assert!(rate.curves.iter().filter(|c| c.emphasis).count() == 1);
    }

    #[test]
    fn the_verdict_compares_the_first_drive_with_the_last() {
        let drive = replayed;
        let found = ReplayFound {
            drives: vec![drive(184.0), drive(200.0)],
        };
        let labels = vec!["128 GB".to_string(), "512 GB".to_string()];
        assert_eq!(
            verdict(&labels, &found).unwrap(),
            "128 GB keeps 92% of the data rate of 512 GB (184 MB/s against 200 MB/s)."
        );
        let one = ReplayFound {
            drives: vec![drive(1.0)],
        };
        assert_eq!(verdict(&labels, &one), None);
    }

    #[test]
    fn requests_a_drive_could_not_take_as_they_are_are_named_per_drive() {
        let drive = |wrapped| DriveReplay {
            adjusted: Adjusted {
                zero_length: 0,
                wrapped,
            },
            ..replayed(1.0)
        };
        let labels = vec!["128 GB".to_string(), "512 GB".to_string()];
        let found = ReplayFound {
            drives: vec![drive(12), drive(0)],
        };
        assert_eq!(
            adjusted_words(&labels, &found).unwrap(),
            "Adjusted to fit the drive: 128 GB: 12 requests past the drive's end wrapped onto it \
             (its start taken modulo the drive's size)."
        );
        let none = ReplayFound {
            drives: vec![drive(0), drive(0)],
        };
        assert_eq!(adjusted_words(&labels, &none), None);
    }
}
