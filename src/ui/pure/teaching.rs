//! Teaching mode, the pure part: the bottleneck [`explain`]er with its plain-language sentence
//! and Little's law, and the power meter's trace. The player and the explainer's run are the
//! model's work, done in a worker ([`parallelism_work::teach`]); the guided tours are files
//! ([`crate::ui::pure::tours`]). No web-sys here, so all of it is tested natively; the browser
//! side is [`crate::ui::views::teaching_mode`].
//!
//! What always holds: the explainer's words come from the run's own figures and the lab's
//! state ([`ExplainContext`]), never from a separate estimate.

use parallelism_work::teach::RunFigures;

use crate::model::activity::Activity;
use crate::model::link::HostLink;
use crate::model::stats::Bottleneck;
use crate::model::time::{Nanos, SimTime};

use crate::ui::pure::format;
use crate::ui::pure::state::{LabState, LoadKind};

/// Mean die utilisation from which the explainer says "every die is busy".
const ALL_DIES_BUSY: f64 = 0.9;
const NANOS_PER_US: u64 = 1_000;
const PERCENT: f64 = 100.0;

/// Samples the power meter keeps (one per published frame).
pub const POWER_SAMPLES: usize = 120;

/// Teaching mode's power meter: the drive's draw at each published instant, newest last, and
/// the budget it keeps to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PowerTrace {
    samples: std::collections::VecDeque<f64>,
    budget_w: Option<f64>,
}

impl PowerTrace {
    pub fn new(budget_w: Option<f64>) -> PowerTrace {
        PowerTrace {
            samples: std::collections::VecDeque::with_capacity(POWER_SAMPLES),
            budget_w,
        }
    }

    /// Adds the draw at the latest instant, forgetting the oldest beyond [`POWER_SAMPLES`].
    pub fn push(&mut self, watts: f64) {
        if self.samples.len() == POWER_SAMPLES {
            self.samples.pop_front();
        }
        self.samples.push_back(watts);
    }

    /// The latest draw.
    pub fn now_w(&self) -> Option<f64> {
        self.samples.back().copied()
    }

    pub fn budget_w(&self) -> Option<f64> {
        self.budget_w
    }

    /// The scale's top: the budget, or the highest draw seen (never zero).
    pub fn top_w(&self) -> f64 {
        let seen = self.samples.iter().copied().fold(0.0, f64::max);
        self.budget_w
            .unwrap_or(seen)
            .max(seen)
            .max(f64::MIN_POSITIVE)
    }

    /// The trace as SVG polyline points in a `width` x `height` box (newest at the right).
    pub fn polyline(&self, width: f64, height: f64) -> String {
        let top = self.top_w();
        let step = width / (POWER_SAMPLES - 1) as f64;
        let first = (POWER_SAMPLES - self.samples.len()) as f64;
        self.samples
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let x = (first + i as f64) * step;
                let y = height * (1.0 - (w / top).clamp(0.0, 1.0));
                format!("{x:.1},{y:.1}")
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// One utilisation bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Stable id (test hooks, CSS).
    pub id: &'static str,
    pub label: String,
    /// Busy fraction, 0..=1.
    pub busy: f64,
    /// Whether this is the resource that limits the point.
    pub limit: bool,
}

/// The bottleneck explainer's content for one point.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    pub limit: Bottleneck,
    /// One plain-language sentence naming the limit.
    pub sentence: String,
    /// Link, controller, busiest channel, dies on average.
    pub bars: Vec<Bar>,
    /// Little's law with the point's numbers.
    pub little: String,
}

/// What the explainer needs to know besides the run's result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExplainContext {
    pub iodepth: u32,
    pub dies: u32,
    pub link: HostLink,
    /// The power state the drive is held to and its maximum (W), when the preset has a table.
    pub power: Option<(u8, f64)>,
    /// Requests arrive at this rate (I/Os per second, open loop): `iodepth` is then the most
    /// at the drive, and the load, not the depth, is what a drive with room is limited by.
    pub rate_iops: Option<u32>,
}

impl ExplainContext {
    pub fn of(state: &LabState) -> ExplainContext {
        ExplainContext {
            iodepth: state.workload.iodepth(),
            dies: state.drive.dies(),
            link: state.drive.preset().controller.link,
            power: state
                .drive
                .power_budget_w()
                .map(|w| (state.drive.power_state(), w)),
            rate_iops: (state.workload.load() == LoadKind::Rate)
                .then(|| state.workload.rate_iops()),
        }
    }
}

fn requests(n: u32) -> String {
    if n == 1 {
        "1 request".into()
    } else {
        format!("{n} requests")
    }
}

/// The sentence naming what limits a point.
pub fn sentence(
    limit: Bottleneck,
    dies_busy_mean: f64,
    channels_max: f64,
    ctx: ExplainContext,
) -> String {
    let busy_dies = (dies_busy_mean * f64::from(ctx.dies)).round() as u32;
    let idle = ctx.dies.saturating_sub(busy_dies.max(1).min(ctx.dies));
    match (limit, ctx.rate_iops) {
        (Bottleneck::QueueDepth, Some(rate)) => format!(
            "The offered load, {} a second, is the limit: the dies are busy {} of the time and {idle} of {} are idle on average, so a request seldom waits",
            format::grouped(f64::from(rate)),
            format::percent(dies_busy_mean),
            ctx.dies
        ),
        _ => sentence_at_depth(limit, dies_busy_mean, channels_max, ctx, idle),
    }
}

/// [`sentence`] for a closed loop, or for a limit the load's own words do not change.
fn sentence_at_depth(
    limit: Bottleneck,
    dies_busy_mean: f64,
    channels_max: f64,
    ctx: ExplainContext,
    idle: u32,
) -> String {
    match limit {
        Bottleneck::QueueDepth if idle > 0 => format!(
            "Only {} in flight: {idle} of {} dies are idle",
            requests(ctx.iodepth),
            ctx.dies
        ),
        Bottleneck::QueueDepth => format!(
            "Nothing is full yet with {} in flight: more queue depth would still help",
            requests(ctx.iodepth)
        ),
        Bottleneck::Dies if dies_busy_mean >= ALL_DIES_BUSY => {
            "Every die is busy: more queue depth only adds waiting".into()
        }
        Bottleneck::Dies => format!(
            "The dies are busy {} of the time, as busy as random addresses let them be: more queue depth only adds waiting",
            format::percent(dies_busy_mean)
        ),
        Bottleneck::Channels => format!(
            "The NAND channels are full (the busiest one {} of the time): the dies wait for the bus",
            format::percent(channels_max)
        ),
        Bottleneck::Controller => "The controller's command processing is the limit".into(),
        Bottleneck::HostLink => format!("The {} link is full", ctx.link.name()),
        Bottleneck::PowerBudget => match ctx.power {
            Some((state, watts)) => format!(
                "The power budget of PS{state} ({}) limits how many dies work at once",
                format::watts(watts)
            ),
            None => "The power budget limits how many dies work at once".into(),
        },
    }
}

/// Little's law with the point's numbers: requests in flight = IOPS × mean latency; at a rate,
/// the requests in the system on average = the rate they arrive at × their time in it.
pub fn little(ctx: ExplainContext, iops: f64, mean_latency_us: f64) -> String {
    let product = iops * mean_latency_us / 1e6;
    if ctx.rate_iops.is_some() {
        return format!(
            "Little's law: requests in the system = arrival rate × time in the system. {} a second × {} = {product:.1} on average, at most {} of them at the drive.",
            format::grouped(iops),
            format::latency_us(mean_latency_us),
            ctx.iodepth,
        );
    }
    let iodepth = ctx.iodepth;
    format!(
        "Little's law: queue depth = IOPS × latency. {} in flight = {} IOPS × {} (= {product:.1}).",
        requests(iodepth),
        format::grouped(iops),
        format::latency_us(mean_latency_us),
    )
}

/// The explainer for a finished run of the current point.
pub fn explain(r: &RunFigures, ctx: ExplainContext) -> Explanation {
    let limit = r.bottleneck;
    let bar = |id, label: String, busy: f64, which: Bottleneck| Bar {
        id,
        label,
        busy: busy.clamp(0.0, 1.0),
        limit: limit == which,
    };
    Explanation {
        limit,
        sentence: sentence(limit, r.dies, r.channels, ctx),
        bars: vec![
            bar(
                "link",
                format!("Host link ({})", ctx.link.name()),
                r.link,
                Bottleneck::HostLink,
            ),
            bar(
                "controller",
                "Controller".into(),
                r.controller,
                Bottleneck::Controller,
            ),
            bar(
                "channels",
                "Busiest NAND channel".into(),
                r.channels,
                Bottleneck::Channels,
            ),
            bar(
                "dies",
                format!("Dies, on average ({})", ctx.dies),
                r.dies,
                Bottleneck::Dies,
            ),
        ],
        little: little(ctx, r.iops, r.mean_latency_us),
    }
}

/// The percentage a bar shows.
pub fn bar_percent(busy: f64) -> f64 {
    (busy.clamp(0.0, 1.0) * PERCENT).round()
}

/// The spoken summary of a snapshot: one sentence, for a polite live region.
pub fn summary(a: &Activity, clock: SimTime) -> String {
    let dies = a.dies.len();
    let busy = a.busy_dies();
    let channels_busy = a.channels_busy.iter().filter(|b| **b).count();
    let link = if a.link_read_busy || a.link_write_busy {
        "busy"
    } else {
        "idle"
    };
    format!(
        "At {}: {busy} of {dies} dies busy, {} requests waiting on dies, {channels_busy} of {} channels busy, host link {link}.",
        format::latency_us(clock.0 as f64 / NANOS_PER_US as f64),
        a.queued_on_dies(),
        a.channels_busy.len(),
    )
}

/// A simulated speed in words: `20 µs per second`.
pub fn speed_text(us_per_s: u32) -> String {
    if us_per_s >= 1_000 {
        format!("{} ms per second", us_per_s / 1_000)
    } else {
        format!("{us_per_s} µs per second")
    }
}

/// Simulated time for `wall_ms` of playing at `us_per_s`.
pub fn sim_span(wall_ms: f64, us_per_s: u32) -> Nanos {
    let ns = wall_ms.max(0.0) * f64::from(us_per_s) * NANOS_PER_US as f64 / 1e3;
    Nanos(ns.round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::anatomy::Part;
    use crate::model::config::DriveState;
    use crate::model::sliced::Sliced;
    use crate::model::{RunOptions, Simulation};
    use crate::ui::pure::compute;
    use crate::ui::pure::tour_file::TourFile;
    use crate::ui::pure::tours::{apply_step, find};
    use parallelism_work::teach::{TeachCommand, TeachNews, TeachTask};

    /// The built-in tour with this id.
    fn tour(id: &str) -> &'static TourFile {
        find(id).expect("the tour exists").1
    }

    fn ctx(iodepth: u32, dies: u32) -> ExplainContext {
        ExplainContext {
            iodepth,
            dies,
            link: HostLink::Pcie4x4,
            power: None,
            rate_iops: None,
        }
    }

    /// The explainer's figures for `state`'s point, as teaching mode's worker finds them.
    fn figures(state: &LabState) -> RunFigures {
        let mut t = TeachTask::new();
        assert_eq!(
            t.command(TeachCommand::Start(compute::current_key(state))),
            None
        );
        while t.busy() {
            for news in t.work(&mut || false) {
                if let TeachNews::Explained(f) = news {
                    return f;
                }
            }
        }
        panic!("the explainer's run did not finish")
    }

    fn small_drive(iodepth: u32) -> LabState {
        let mut s = LabState::default();
        s.drive.set_dies(8);
        s.workload.set_iodepth(iodepth);
        s.workload.set_drive_state(DriveState::Fob);
        s
    }

    #[test]
    fn at_a_rate_the_explainer_speaks_of_the_load_and_littles_law_of_the_system() {
        let c = ExplainContext {
            rate_iops: Some(25_000),
            ..ctx(64, 8)
        };
        assert_eq!(
            sentence(Bottleneck::QueueDepth, 0.25, 0.1, c),
            "The offered load, 25,000 a second, is the limit: the dies are busy 25% of the time and 6 of 8 are idle on average, so a request seldom waits"
        );
        assert!(sentence(Bottleneck::Dies, 0.95, 0.5, c).starts_with("Every die is busy"));
        let l = little(c, 25_000.0, 85.0);
        assert!(
            l.contains("arrival rate × time in the system") && l.contains("= 2.1 on average"),
            "{l}"
        );
    }

    #[test]
    fn the_sentences_name_the_limit_in_plain_words() {
        let c = ctx(1, 32);
        assert_eq!(
            sentence(Bottleneck::QueueDepth, 0.02, 0.01, c),
            "Only 1 request in flight: 31 of 32 dies are idle"
        );
        assert_eq!(
            sentence(Bottleneck::QueueDepth, 4.0 / 32.0, 0.1, ctx(4, 32)),
            "Only 4 requests in flight: 28 of 32 dies are idle"
        );
        assert_eq!(
            sentence(Bottleneck::Dies, 0.95, 0.5, c),
            "Every die is busy: more queue depth only adds waiting"
        );
        assert!(sentence(Bottleneck::Dies, 0.75, 0.5, c).contains("75%"));
        assert_eq!(
            sentence(Bottleneck::HostLink, 0.5, 0.5, c),
            "The PCIe 4.0 x4 link is full"
        );
        assert_eq!(
            sentence(Bottleneck::Controller, 0.5, 0.5, c),
            "The controller's command processing is the limit"
        );
        assert!(sentence(Bottleneck::Channels, 0.5, 0.93, c).contains("93%"));
        assert!(sentence(Bottleneck::QueueDepth, 1.0, 0.2, ctx(64, 8)).contains("would still help"));
    }

    #[test]
    fn the_power_meter_keeps_the_latest_draws_under_its_budget_line() {
        let mut trace = PowerTrace::new(Some(8.9));
        for i in 0..(POWER_SAMPLES + 10) {
            trace.push(i as f64 / 100.0);
        }
        assert_eq!(trace.now_w(), Some((POWER_SAMPLES + 9) as f64 / 100.0));
        assert_eq!(trace.top_w(), 8.9, "the budget tops the scale");
        let points = trace.polyline(600.0, 60.0);
        assert_eq!(points.split(' ').count(), POWER_SAMPLES);
        assert!(points.ends_with("600.0,51.3"), "{points}");
        let mut open = PowerTrace::new(None);
        open.push(2.0);
        assert_eq!(
            (open.top_w(), open.polyline(600.0, 60.0)),
            (2.0, "600.0,0.0".into())
        );
    }

    #[test]
    fn a_binding_power_budget_is_named_with_its_state_and_watts() {
        let held = ExplainContext {
            power: Some((1, 2.3)),
            ..ctx(256, 32)
        };
        assert_eq!(
            sentence(Bottleneck::PowerBudget, 0.3, 0.2, held),
            "The power budget of PS1 (2.3 W) limits how many dies work at once"
        );
    }

    #[test]
    fn littles_law_uses_the_points_numbers() {
        let s = little(ctx(32, 32), 286_213.0, 111.8);
        assert!(s.contains("32 requests in flight"), "{s}");
        assert!(s.contains("286,213 IOPS"), "{s}");
        assert!(s.contains("(= 32.0)"), "{s}");
    }

    #[test]
    fn explain_marks_the_limiting_bar() {
        let r = RunFigures {
            bottleneck: Bottleneck::QueueDepth,
            iops: 13_000.0,
            mean_latency_us: 75.0,
            link: 0.05,
            controller: 0.1,
            channels: 0.02,
            dies: 0.03,
        };
        let e = explain(&r, ctx(1, 8));
        assert_eq!(e.sentence, "Only 1 request in flight: 7 of 8 dies are idle");
        assert_eq!(e.bars.len(), 4);
        assert!(e.bars.iter().all(|b| !b.limit), "no resource is the limit");
        assert_eq!(bar_percent(e.bars[1].busy), 10.0);
    }

    #[test]
    fn a_real_run_goes_from_dies_idle_at_qd1_to_dies_busy_at_depth_on_a_small_drive() {
        for (iodepth, limit, words) in [
            (1, Bottleneck::QueueDepth, "7 of 8 dies are idle"),
            (256, Bottleneck::Dies, "more queue depth only adds waiting"),
        ] {
            let s = small_drive(iodepth);
            let e = explain(&figures(&s), ExplainContext::of(&s));
            assert_eq!(e.limit, limit, "qd {iodepth}: {}", e.sentence);
            assert!(e.sentence.contains(words), "qd {iodepth}: {}", e.sentence);
        }
    }

    /// The power tour's texts, checked against the model they describe: little above idle at
    /// QD1, several times that at QD256 within PS0, PS2 costing most IOPS at depth and almost
    /// none at QD1.
    #[test]
    fn the_power_tour_shows_what_its_text_says() {
        let steps = &tour("power").steps;
        let run = |i: usize| {
            let mut s = LabState::default();
            apply_step(&steps[i], &mut s);
            let prep = compute::current_key(&s).prepare(3_000).unwrap();
            let run = prep.finish().unwrap();
            Simulation::run(&run).unwrap()
        };
        let (qd1, deep, deep_ps2, qd1_ps2) = (run(0), run(1), run(2), run(3));
        assert!(qd1.power.average_w < 1.0, "{:?}", qd1.power);
        assert!(deep.iops > 10.0 * qd1.iops);
        assert!(deep.power.average_w > 3.0 * qd1.power.average_w);
        assert!(deep.power.peak_w <= 8.9);
        assert!(deep_ps2.iops < 0.3 * deep.iops);
        assert_eq!(deep_ps2.bottleneck, Bottleneck::PowerBudget);
        assert!(qd1_ps2.iops > 0.97 * qd1.iops);
    }

    /// The p99 tour's texts, checked against the model they describe (full runs, as the page
    /// shows them): reads alone, a p99 about 190 µs near twice a mean about 90 µs; with 30%
    /// writes the mean about doubled and the p99 about ninefold, some 1.7 ms, mostly behind
    /// garbage collection; at 256 a mean about 430 µs, a p99 over 4 ms, half behind garbage
    /// collection and most of the rest behind other reads.
    #[test]
    fn the_p99_tour_shows_what_its_text_says() {
        let steps = &tour("p99").steps;
        let reads = |i: usize| {
            let mut s = LabState::default();
            apply_step(&steps[i], &mut s);
            let key = compute::current_key(&s);
            let prep = key.prepare(RunOptions::DEFAULT_MEASURED_IOS).unwrap();
            let r = Simulation::run(&prep.finish().unwrap()).unwrap();
            r.anatomy.reads.unwrap()
        };
        let (alone, mixed, deep) = (reads(0), reads(1), reads(2));
        let near = |v: f64, want: f64, tol: f64| (v / want - 1.0).abs() < tol;
        let show = |a: &crate::model::anatomy::DirectionAnatomy| {
            format!(
                "mean {:.1} µs, p99+ {:.1} µs, largest {:?}",
                a.mean.latency_us,
                a.p99.latency_us,
                a.p99.largest()
            )
        };
        assert!(near(alone.mean.latency_us, 90.0, 0.15), "{}", show(&alone));
        assert!(near(alone.p99.latency_us, 190.0, 0.2), "{}", show(&alone));
        assert!(
            near(mixed.mean.latency_us / alone.mean.latency_us, 2.0, 0.3),
            "{}",
            show(&mixed)
        );
        assert!(
            near(mixed.p99.latency_us / alone.p99.latency_us, 9.0, 0.3),
            "{}",
            show(&mixed)
        );
        assert_eq!(mixed.p99.largest().0, Part::BehindGc, "{}", show(&mixed));
        assert!(near(deep.mean.latency_us, 430.0, 0.15), "{}", show(&deep));
        assert!(deep.p99.latency_us > 4_000.0, "{}", show(&deep));
        let gc = deep.p99.share_of(|p| p == Part::BehindGc);
        let reads_ahead = deep.p99.share_of(|p| p == Part::BehindReads);
        assert!((0.4..0.6).contains(&gc), "{gc:.2}: {}", show(&deep));
        assert!(
            reads_ahead > 0.5 * (1.0 - gc),
            "{reads_ahead:.2}: {}",
            show(&deep)
        );
    }

    /// The load tour's texts, checked against the model they describe (full runs, as the page
    /// shows them): near one read's latency and about 2 in the drive at 25,000 a second; the
    /// mean doubled and p99 further from it at 100,000; four times the first mean and about 55
    /// in the drive at 160,000; saturated at 250,000, past a capacity of about 178,000.
    #[test]
    fn the_load_tour_shows_what_its_text_says() {
        let steps = &tour("load").steps;
        let run = |i: usize| {
            let mut s = LabState::default();
            apply_step(&steps[i], &mut s);
            assert_eq!(s.workload.load(), LoadKind::Rate);
            let key = compute::current_key(&s);
            let prep = key.prepare(RunOptions::DEFAULT_MEASURED_IOS).unwrap();
            let run = prep.finish().unwrap();
            Simulation::run(&run).unwrap()
        };
        let (light, knee, heavy, over) = (run(0), run(1), run(2), run(3));
        let near = |v: f64, want: f64, tol: f64| (v / want - 1.0).abs() < tol;
        assert!(
            near(light.latency.mean_us, 85.0, 0.1),
            "{:?}",
            light.latency
        );
        assert!(
            near(light.mean_in_system, 2.0, 0.2),
            "{}",
            light.mean_in_system
        );
        assert!(
            knee.latency.mean_us > 1.8 * light.latency.mean_us,
            "{:?}",
            knee.latency
        );
        assert!(
            knee.latency.p99_us / knee.latency.mean_us
                > light.latency.p99_us / light.latency.mean_us
        );
        assert!(near(
            heavy.latency.mean_us / light.latency.mean_us,
            4.0,
            0.15
        ));
        assert!(
            near(heavy.mean_in_system, 55.0, 0.1),
            "{}",
            heavy.mean_in_system
        );
        assert!(!light.saturated && !knee.saturated && !heavy.saturated);
        assert!(over.saturated);
        let mut s = LabState::default();
        apply_step(&steps[3], &mut s);
        let capacity = Simulation::run(
            &compute::capacity_key(&s, s.drive.choice())
                .spec()
                .check()
                .unwrap(),
        )
        .unwrap();
        assert!(near(capacity.iops, 178_000.0, 0.02), "{}", capacity.iops);
        assert!(near(160_000.0 / capacity.iops, 0.9, 0.02));
    }

    /// A full run of the lab a link's query sets, as the page shows it.
    fn link_run(query: &str) -> crate::model::RunResult {
        let read = crate::ui::pure::url_state::parse_query(query, LabState::default());
        assert!(read.notes.is_empty(), "{query}: {:?}", read.notes);
        let prep = compute::current_key(&read.state)
            .prepare(RunOptions::DEFAULT_MEASURED_IOS)
            .unwrap();
        Simulation::run(&prep.finish().unwrap()).unwrap()
    }

    /// A full run of a tour's step, as the page shows it.
    fn step_run(tour_id: &str, step: usize) -> crate::model::RunResult {
        link_run(&tour(tour_id).steps[step].state)
    }

    /// The right option of a tour's question, counted from 1, as its file says.
    fn answer_of(tour_id: &str, step: usize) -> usize {
        1 + tour(tour_id).steps[step]
            .question
            .as_ref()
            .unwrap()
            .answer()
            .unwrap()
    }

    /// The capacity question's answers are the model's: at QD1 the 1,920 GB E18DC reads as
    /// fast as the 480 GB (within 2%, answer C); at QD256 more than twice and under three
    /// times as fast, limited by its controller while the 480 GB's dies limit it (answer B).
    #[test]
    fn the_capacity_questions_answers_are_the_models() {
        let steps = &tour("predict-capacity").steps;
        let qd1_small = step_run("predict-capacity", 0);
        let qd1_big = link_run(&steps[0].state.replace("cap=480", "cap=1920"));
        let qd1 = qd1_big.iops / qd1_small.iops;
        assert!((qd1 - 1.0).abs() < 0.02, "QD1: {qd1:.3}");
        assert_eq!(answer_of("predict-capacity", 0), 3, "C: the same");

        let deep_big = step_run("predict-capacity", 1);
        let deep_small = link_run(&steps[1].state.replace("cap=1920", "cap=480"));
        let deep = deep_big.iops / deep_small.iops;
        assert!((2.0..3.0).contains(&deep), "QD256: {deep:.2}");
        assert_eq!(deep_big.bottleneck, Bottleneck::Controller);
        assert_eq!(deep_small.bottleneck, Bottleneck::Dies);
        assert_eq!(answer_of("predict-capacity", 1), 2, "B: more than twice");
    }

    /// The drawn curve's explanation is the model's: at 8 in flight the 480 GB drive reads more
    /// than five times as fast as at one (each request finds an idle die), its last octave
    /// adds under a tenth (the curve flattens), its dies limit it at 256, and the question's
    /// axis (400,000) is above the curve's end, so the curve fits where the reader draws.
    #[test]
    fn the_drawn_curves_explanation_is_the_models() {
        let state = &tour("predict-capacity").steps[2].state;
        let at = |qd: u32| link_run(&state.replace("qd=32", &format!("qd={qd}")));
        let (one, eight, half, deep) = (at(1), at(8), at(128), at(256));
        assert!(
            eight.iops > 5.0 * one.iops,
            "{} vs {}",
            eight.iops,
            one.iops
        );
        assert!(
            deep.iops < 1.1 * half.iops,
            "{} vs {}",
            deep.iops,
            half.iops
        );
        assert_eq!(deep.bottleneck, Bottleneck::Dies);
        let question = tour("predict-capacity").steps[2].question.clone().unwrap();
        assert!(question
            .draws_up_to()
            .is_some_and(|top| top as f64 > deep.iops));
    }

    /// The Little's law questions' answers are the model's: at 50,000, 100,000 and 160,000 reads
    /// a second (at random, as the page offers them) the mean number in the drive is about 5,
    /// 16 and 56 (within 10%), the rate times the mean latency the texts give (99, 163 and
    /// 348 µs, within 5%).
    #[test]
    fn the_littles_law_questions_answers_are_the_models() {
        for (step, rate, latency_us, in_system, answer) in [
            (0, 50_000.0, 99.0, 5.0, 2),
            (1, 100_000.0, 163.0, 16.0, 3),
            (2, 160_000.0, 348.0, 56.0, 2),
        ] {
            let r = step_run("littles-law", step);
            let near = |v: f64, want: f64, tol: f64| (v / want - 1.0).abs() < tol;
            assert!(
                near(r.latency.mean_us, latency_us, 0.05),
                "{step}: {:?}",
                r.latency
            );
            assert!(
                near(r.mean_in_system, in_system, 0.1),
                "{step}: {}",
                r.mean_in_system
            );
            assert!(near(
                r.iops * r.latency.mean_us * 1e-6,
                r.mean_in_system,
                0.02
            ));
            assert!(
                near(rate * latency_us * 1e-6, in_system, 0.1),
                "the text's own sum"
            );
            assert_eq!(answer_of("littles-law", step), answer, "step {}", step + 1);
        }
    }

    /// The desktop tour's texts, checked against the replays the page runs (the worker's own
    /// code, natively): the 128 GB Octane keeps about 92% of the 512 GB's data rate on Light
    /// and about 86% on Heavy.
    // The replay's figures are the app's trace view's.
    #[cfg(feature = "app")]
    #[test]
    fn the_desktop_tour_shows_the_reviews_verdict() {
        use crate::ui::views::trace;
        use parallelism_work::replay::ReplayTask;
        let steps = &tour("desktop").steps;
        let share = |i: usize| {
            let mut s = LabState::default();
            apply_step(&steps[i], &mut s);
            assert_eq!(s.workload.load(), LoadKind::Trace);
            let mut ask = trace::ask(&s, None).unwrap();
            // The first drive (128 GB) against the last (512 GB).
            ask.drives = vec![ask.drives[0].clone(), ask.drives.last().unwrap().clone()];
            let found = ReplayTask::start(ask, None).unwrap().finish().unwrap();
            found.drives[0].data_rate_mb_s / found.drives[1].data_rate_mb_s
        };
        let (light, heavy) = (share(0), share(1));
        assert!((light - 0.92).abs() < 0.01, "Light: {light}");
        assert!((heavy - 0.86).abs() < 0.01, "Heavy: {heavy}");
    }

    /// The SLC-cache tour's texts, checked against the model they describe: a cache that fills
    /// and ends, bursts that run out of it without idle time and do not with a minute's rest,
    /// and an enterprise drive without one.
    #[test]
    fn the_slc_cache_tour_shows_what_its_text_says() {
        use crate::model::over_time::{bursts, fill, FillPhase};
        const BURSTS: u32 = 3;
        let steps = &tour("slc-cache").steps;
        let lab = |i: usize| {
            let mut s = LabState::default();
            apply_step(&steps[i], &mut s);
            s
        };
        let burst_rates = |s: &LabState| -> Vec<f64> {
            let b = bursts(
                &s.drive.spec(),
                f64::from(s.views.burst_gb()),
                f64::from(s.views.idle_s()),
                BURSTS,
            );
            b.expect("valid bursts").iter().map(|p| p.mb_s).collect()
        };

        let e12 = lab(0);
        let report = fill(&e12.drive.spec()).expect("valid fill");
        let first = &report.points[0];
        // The last point before folding: the first after the cache averages in its end.
        let tlc = report
            .points
            .iter()
            .rfind(|p| p.phase == FillPhase::PostCache);
        let tlc = tlc.expect("the cache ends during the fill");
        assert!(report.slc_cache_gb > 0.0 && first.phase == FillPhase::Cache);
        assert!(
            first.mb_s > 2.0 * tlc.mb_s,
            "{} vs {}",
            first.mb_s,
            tlc.mb_s
        );

        let no_rest = burst_rates(&lab(1));
        assert!(
            no_rest[1] < no_rest[0] && no_rest[2] < no_rest[1],
            "{no_rest:?}"
        );
        let tlc_error = (no_rest[2] - tlc.mb_s).abs() / tlc.mb_s;
        assert!(
            tlc_error < 1e-9,
            "the third burst runs at the TLC rate: {no_rest:?}"
        );

        let rested = burst_rates(&lab(2));
        assert!(rested.iter().all(|&r| r == rested[0]), "{rested:?}");
        assert_eq!(
            rested[0], no_rest[0],
            "every rested burst runs at the cache's speed"
        );

        let e18dc = fill(&lab(3).drive.spec()).expect("valid fill");
        assert_eq!(e18dc.slc_cache_gb, 0.0);
        assert!(e18dc
            .points
            .iter()
            .all(|p| p.phase == FillPhase::PostCache && p.mb_s == e18dc.points[0].mb_s));
    }

    #[test]
    fn speeds_snap_and_spans_scale_with_wall_time() {
        assert_eq!(crate::ui::pure::state::speed_ladder().nearest(0), 1);
        assert_eq!(crate::ui::pure::state::speed_ladder().nearest(30), 20);
        assert_eq!(
            crate::ui::pure::state::speed_ladder().nearest(u32::MAX),
            1000
        );
        assert_eq!(sim_span(1000.0, 20), Nanos::from_us(20));
        assert_eq!(sim_span(-5.0, 20), Nanos::ZERO);
        assert_eq!(speed_text(1000), "1 ms per second");
    }
}
