//! The readout card: the current point's model figures (IOPS, MB/s, mean and p99 latency, the
//! resource that limits it), where one exists the published measurement of that point, and
//! where its time goes ([`crate::ui::views::anatomy`]).
//!
//! What always holds: every figure says what it is. Model figures are labelled as model
//! results (or as a quick estimate while the full run is still going); a published figure is
//! labelled as measured and cites its source; a missing figure is shown as a dash, never as 0.

use leptos::prelude::*;

use crate::ui::browser::later::Later;
use crate::ui::pure::guide::GuidePage;
use crate::ui::views::anatomy::WhereTheTimeGoes;
use crate::ui::views::guide_link::GuideLink;

use crate::model::power::{self, Apst};
use crate::model::stats::Bottleneck;
use crate::model::time::Nanos;
use crate::model::RunError;

use crate::model::config::RunOptions;
use crate::ui::charts::{Measure, Unit};
use crate::ui::pure::compute::{Fidelity, Point, ESTIMATE_IOS};
use crate::ui::pure::format;
use crate::ui::pure::load::LoadSweep;
use crate::ui::pure::reference;
use crate::ui::pure::state::{LabState, LoadKind};
use crate::ui::pure::words::point_words;

/// A published figure for the current point.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredLine {
    /// The figure with its unit, e.g. `263,839 IOPS`.
    pub value: String,
    /// Depth detail, e.g. `at IODEPTH 32` or `peak over IODEPTH 32-256`.
    pub depth: String,
    /// The drive state it was measured in, when it differs from the current one.
    pub other_state: Option<&'static str>,
}

/// Everything the readout shows.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadoutData {
    /// The point in words: drive, pattern, block size, depth and state.
    pub what: String,
    pub point: Option<Point>,
    /// Why the model gave no result for this point (refused it, or stalled), if it gave none.
    pub failure: Option<RunError>,
    pub measured: Vec<MeasuredLine>,
    /// The state's URL query (stamped on the card for tests).
    pub stamp: String,
    /// Whether the figures speak MB/s (large blocks) rather than IOPS.
    pub in_mb: bool,
    /// What idle time before a request costs it (see [`idle_text`]).
    pub idle: Option<String>,
    /// Requests arrive at a rate (open loop): the depth never limits.
    pub open_loop: bool,
    /// For a rate: utilisation, the number in the system and the knee (see [`load_text`]).
    pub load: Option<String>,
}

/// Builds the readout for `state` from its point's result (or failure) and, for a rate, the
/// current drive's sweep over offered load.
pub fn build(
    state: &LabState,
    point: Option<Point>,
    failure: Option<RunError>,
    sweep: Option<&LoadSweep>,
) -> ReadoutData {
    let what = point_words(state);
    let open_loop = state.workload.load() == LoadKind::Rate;
    let in_mb = state.workload.throughput_in_mb();
    let measured = reference::for_current_point(state)
        .into_iter()
        .filter_map(|m| {
            let (lo, hi) = m.depths();
            let depth = if lo == hi {
                format!("at queue depth {lo}")
            } else {
                format!("best of queue depths {lo} to {hi}")
            };
            let value = match (m.throughput(in_mb), m.latency_us()) {
                (Some(v), _) if in_mb => format::mb_s(v),
                (Some(v), _) => format!("{} IOPS", format::grouped(v)),
                (None, Some(us)) => format!("{} mean latency", format::latency_us(us)),
                (None, None) => return None,
            };
            Some(MeasuredLine {
                value,
                depth,
                other_state: (m.state() != state.workload.drive_state()).then(|| m.state().label()),
            })
        })
        .collect();
    ReadoutData {
        what,
        point,
        failure,
        measured,
        stamp: crate::ui::pure::url_state::to_query(state),
        in_mb,
        idle: idle_text(state, point.as_ref()),
        open_loop,
        load: point
            .zip(sweep)
            .filter(|_| open_loop)
            .map(|(p, sweep)| load_text(state, &p, sweep)),
    }
}

/// What a rate's point says of load: how much of the drive's capacity it uses, how many
/// requests are in the system on average (Little's law: arrival rate times time in the
/// system), and where it lies against the knee; past the capacity, that the queue grows
/// without bound.
pub fn load_text(state: &LabState, p: &Point, sweep: &LoadSweep) -> String {
    let offered = f64::from(state.workload.rate_iops());
    let capacity = sweep.capacity_iops();
    if p.saturated {
        let most = capacity.map_or_else(String::new, |c| format!(" (at most {})", format::iops(c)));
        return format!(
            "Saturated: requests arrive faster than the drive completes them{most}, so the host's queue grows without bound; the latency shown is only how long the run lasted."
        );
    }
    let little = format!(
        "On average {} requests are in the system: Little's law, {} × {} = {}.",
        format::compact(p.in_system),
        format::iops(p.iops),
        format::latency_us(p.mean_us),
        format::compact(p.iops * p.mean_us / format::US_PER_S),
    );
    let Some(capacity) = capacity.filter(|c| *c > 0.0) else {
        return little;
    };
    let knee = match sweep.knee_iops {
        Some(k) if offered <= k => format!(
            " Below the knee ({}): latency still near its floor.",
            format::iops(k)
        ),
        Some(k) => format!(
            " Past the knee ({}): each extra request mostly waits.",
            format::iops(k)
        ),
        None => String::new(),
    };
    format!(
        "Utilisation: {:.0}% of this drive's capacity at depth {} ({}).{knee} {little}",
        100.0 * p.iops / capacity,
        state.workload.iodepth(),
        format::iops(capacity),
    )
}

/// What the host's idle time before a request (`think`) costs that request: with APST the
/// drive has dropped to an idle power state and the request waits for it to wake (once per
/// idle period); `None` without idle time.
pub fn idle_text(state: &LabState, point: Option<&Point>) -> Option<String> {
    let think = state.views.think_us();
    if think == 0 {
        return None;
    }
    let idle = format::latency_us(f64::from(think));
    let controller = &state.drive.preset().controller;
    let states = controller.power.states;
    if !states.iter().any(|s| s.idle.is_some()) {
        return Some(format!(
            "After {idle} idle: the {} publishes no idle power states, so the model keeps it in PS0 and the next request takes no longer.",
            controller.name
        ));
    }
    if !state.views.apst() {
        return Some(format!(
            "After {idle} idle with APST off the drive stays in PS0, drawing its idle power, and the next request takes no longer."
        ));
    }
    let (wake, reached) =
        power::wake_penalty(states, Apst::LINUX, Nanos::from_us(u64::from(think)));
    let Some(n) = reached else {
        return Some(format!(
            "After {idle} idle the drive is still in PS0 (APST waits 100 ms before PS3): the next request takes no longer."
        ));
    };
    let first = point.map_or(String::new(), |p| {
        format!(
            ": {} instead of {}",
            format::latency_us(p.mean_us + wake.as_us()),
            format::latency_us(p.mean_us)
        )
    });
    Some(format!(
        "After {idle} idle, APST has taken the drive to PS{n} ({}): the next request first waits {} for it to wake{first}. Only the first request after each idle period pays.",
        format::watts(states[n].max_w),
        format::latency_us(wake.as_us())
    ))
}

/// What the model status line says.
pub fn status_text(data: &ReadoutData) -> String {
    match (&data.failure, data.point) {
        (Some(why), _) => format!("The model cannot run this point: {why}."),
        (None, None) => "Computing the model…".into(),
        (None, Some(p)) if p.fidelity == Fidelity::Estimate => format!(
            "Model estimate from {} simulated requests; refining…",
            format::grouped(ESTIMATE_IOS as f64)
        ),
        (None, Some(_)) => format!(
            "Model result from {} simulated requests.",
            format::grouped(RunOptions::DEFAULT_MEASURED_IOS as f64)
        ),
    }
}

/// One sentence with the final figures, for screen readers (announced once per settled point).
pub fn spoken_summary(data: &ReadoutData) -> String {
    match data.point {
        Some(p) if p.fidelity == Fidelity::Full => format!(
            "Model: {}, {}, mean latency {}, {} on average, limited by {}.",
            format::iops(p.iops),
            format::mb_s(p.mb_s),
            format::latency_us(p.mean_us),
            format::watts(p.watts),
            limit_text(&p, data.open_loop)
        ),
        _ => String::new(),
    }
}

fn figure(data: &ReadoutData, pick: impl Fn(&Point) -> String) -> String {
    data.point
        .as_ref()
        .map_or_else(|| format::NO_VALUE.to_string(), pick)
}

/// The limit in words: the busiest resource (the power budget with its watts), and how reads
/// meet programs when they do.
fn limit_text(p: &Point, open_loop: bool) -> String {
    let limit = match (p.bottleneck, p.budget_w) {
        (Bottleneck::PowerBudget, Some(w)) => format!("power budget ({})", format::watts(w)),
        (_, _) if p.saturated => "saturated: more arrives than the drive completes".to_string(),
        (b, _) if open_loop => b.open_loop_label().to_string(),
        (b, _) => b.label().to_string(),
    };
    match p.program_wait.label() {
        Some(wait) => format!("{limit}; {wait}"),
        None => limit,
    }
}

/// Throughput per watt in the readout's unit: MB/s per W for large blocks, IOPS per W else.
pub fn efficiency_text(p: &Point, in_mb: bool) -> String {
    if in_mb {
        let per_w = Measure::PerWatt(Unit::MbS).pick(p);
        format!("{} MB/s per W", format::grouped(per_w))
    } else {
        let per_w = Measure::PerWatt(Unit::Iops).pick(p);
        format!("{} IOPS per W", format::compact(per_w))
    }
}

/// One published figure of the current point, with its source.
#[component]
fn MeasuredFigure(line: MeasuredLine) -> impl IntoView {
    let state = line
        .other_state
        .map(|s| format!(" (measured {s})"))
        .unwrap_or_default();
    view! {
        <p class="measured">
            <span class="diamond" aria-hidden="true"></span>
            <strong>"Published measurement: "</strong>
            {format!("{} {}{}. ", line.value, line.depth, state)}
            <cite>{reference::source()}</cite>
        </p>
    }
}

/// The readout card.
#[component]
pub fn Readout(
    /// What to show; derived from the state and the model results.
    #[prop(into)]
    data: Signal<ReadoutData>,
    /// What the figures belong to, e.g. "This point" (of the charts against queue depth).
    #[prop(into)]
    heading: Signal<&'static str>,
) -> impl IntoView {
    let fig = move |pick: fn(&Point) -> String| move || data.with(|d| figure(d, pick));
    let measured = move || {
        data.with(|d| {
            d.measured
                .iter()
                .map(|m| view! { <MeasuredFigure line=m.clone() /> })
                .collect_view()
        })
    };
    view! {
        <section
            id="readout"
            class="readout card"
            aria-labelledby="readout-title"
            data-state=move || data.with(|d| d.stamp.clone())
        >
            <h2 id="readout-title">
                {move || heading.get()}
                " "
                <span class="what" id="readout-what">{move || data.with(|d| d.what.clone())}</span>
            </h2>
            <GuideLink page=GuidePage::Page />
            <dl class="figures">
                <div>
                    <dt>"IOPS"</dt>
                    <dd id="readout-iops">{fig(|p| format::compact(p.iops))}</dd>
                </div>
                <div>
                    <dt>"Throughput"</dt>
                    <dd id="readout-mbs">{fig(|p| format::mb_s(p.mb_s))}</dd>
                </div>
                <div>
                    <dt>"Mean latency"</dt>
                    <dd id="readout-mean">{fig(|p| format::latency_us(p.mean_us))}</dd>
                </div>
                <div>
                    <dt>"p99 latency"</dt>
                    <dd id="readout-p99">{fig(|p| format::latency_us(p.p99_us))}</dd>
                </div>
                <div>
                    <dt>"Power"</dt>
                    <dd id="readout-watts">{fig(|p| format::watts(p.watts))}</dd>
                </div>
                <div>
                    <dt>"Efficiency"</dt>
                    <dd id="readout-efficiency">
                        {move || data.with(|d| figure(d, |p| efficiency_text(p, d.in_mb)))}
                    </dd>
                </div>
                <div class="wide">
                    <dt>"Limited by"</dt>
                    <dd id="readout-limit">
                        {move || data.with(|d| figure(d, |p| limit_text(p, d.open_loop)))}
                    </dd>
                </div>
            </dl>
            <p class="status" id="readout-status">{move || data.with(status_text)}</p>
            {move || data.with(|d| d.idle.clone()).map(|t| view! { <p class="idle-line" id="readout-idle">{t}</p> })}
            {move || data.with(|d| d.load.clone()).map(|t| view! { <p class="load-line" id="readout-load">{t}</p> })}
            {measured}
            // In a task of its own: the readout's own figures come first.
            <Later>
                <WhereTheTimeGoes
                    point=Signal::derive(move || data.with(|d| d.point))
                    failed=Signal::derive(move || data.with(|d| d.failure.is_some()))
                />
            </Later>
            <p class="visually-hidden" aria-live="polite" aria-atomic="true">
                {move || data.with(spoken_summary)}
            </p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::stats::{Bottleneck, ProgramWait};

    fn point(fidelity: Fidelity) -> Point {
        Point {
            iops: 263_000.0,
            mb_s: 1077.0,
            mean_us: 121.0,
            p99_us: 310.0,
            p999_us: 500.0,
            bottleneck: Bottleneck::Dies,
            program_wait: ProgramWait::Rarely,
            watts: 2.0,
            budget_w: None,
            saturated: false,
            in_system: 1.0,
            anatomy: crate::ui::pure::compute::PointAnatomy::default(),
            fidelity,
        }
    }

    #[test]
    fn idle_time_before_a_request_costs_the_wake_up_from_the_state_apst_reached() {
        let mut s = LabState::default();
        assert_eq!(idle_text(&s, None), None, "no idle time, no line");
        s.views.set_think_us(500_000);
        let e18dc = idle_text(&s, None).unwrap();
        assert!(e18dc.contains("publishes no idle power states"), "{e18dc}");
        s.drive
            .set_preset(crate::model::presets::find("e12").unwrap());
        let p = point(Fidelity::Full);
        let e12 = idle_text(&s, Some(&p)).unwrap();
        assert!(e12.contains("PS3 (49 mW)"), "{e12}");
        let wake = format::latency_us(2_000.0);
        assert!(
            e12.contains(&format!("waits {wake} for it to wake")),
            "{e12}"
        );
        assert!(
            e12.contains(&format::latency_us(p.mean_us + 2_000.0)),
            "{e12}"
        );
        s.views.set_think_us(5_000_000);
        assert!(idle_text(&s, None).unwrap().contains("PS4"));
        s.views.set_think_us(50_000);
        assert!(idle_text(&s, None).unwrap().contains("still in PS0"));
        s.views.set_think_us(500_000);
        s.views.set_apst(false);
        assert!(idle_text(&s, None).unwrap().contains("APST off"));
    }

    #[test]
    fn the_readout_gives_power_and_efficiency_and_names_a_binding_budget() {
        let mut p = point(Fidelity::Full);
        p.bottleneck = Bottleneck::PowerBudget;
        p.budget_w = Some(1.8);
        let d = build(&LabState::default(), Some(p), None, None);
        let spoken = spoken_summary(&d);
        assert!(spoken.contains("2 W on average"), "{spoken}");
        assert!(
            spoken.contains("limited by power budget (1.8 W)"),
            "{spoken}"
        );
        assert_eq!(
            efficiency_text(&p, false),
            format!("{} IOPS per W", format::compact(p.iops / 2.0))
        );
        assert!(efficiency_text(&p, true).ends_with("MB/s per W"));
    }

    #[test]
    fn the_default_readout_names_the_point_and_its_published_measurement() {
        let d = build(
            &LabState::default(),
            Some(point(Fidelity::Full)),
            None,
            None,
        );
        assert!(
            d.what.contains("Phison E18DC 1,920 GB, 32 dies"),
            "{}",
            d.what
        );
        assert!(
            d.what.contains("4 KiB random reads · queue depth 32"),
            "{}",
            d.what
        );
        assert_eq!(d.measured.len(), 1);
        assert_eq!(d.measured[0].value, "263,839 IOPS");
        assert_eq!(d.measured[0].other_state, None);
        assert!(status_text(&d).starts_with("Model result"));
        assert!(spoken_summary(&d).contains("limited by NAND dies"));
    }

    #[test]
    fn an_estimate_and_a_missing_point_say_so() {
        let s = LabState::default();
        let d = build(&s, Some(point(Fidelity::Estimate)), None, None);
        assert!(status_text(&d).contains("estimate"));
        assert_eq!(spoken_summary(&d), "", "estimates are not announced");
        let d = build(&s, None, None, None);
        assert_eq!(figure(&d, |p| format::compact(p.iops)), format::NO_VALUE);
        assert!(status_text(&d).contains("Computing"));
        let refused = crate::model::ConfigError::OutOfRange {
            what: "iodepth".into(),
            value: "0".into(),
            allowed: "1..=256".into(),
        };
        let d = build(&s, None, Some(refused.into()), None);
        assert_eq!(
            status_text(&d),
            "The model cannot run this point: iodepth 0 is out of range (allowed: 1..=256)."
        );
    }

    #[test]
    fn a_measurement_from_another_drive_state_says_which() {
        let mut s = LabState::default();
        s.workload
            .set_drive_state(crate::model::config::DriveState::Fob);
        let d = build(&s, None, None, None);
        assert_eq!(d.measured[0].other_state, Some("random-write steady state"));
    }

    #[test]
    fn the_limit_names_reads_waiting_for_programs_to_suspend() {
        // Issue 13: where reads meet programs, the readout says how they wait.
        let suspend = Point {
            program_wait: ProgramWait::Suspend,
            watts: 2.0,
            budget_w: None,
            ..point(Fidelity::Full)
        };
        assert_eq!(
            limit_text(&suspend, false),
            "NAND dies; reads wait for programs to suspend"
        );
        assert_eq!(limit_text(&point(Fidelity::Full), false), "NAND dies");
    }
}
