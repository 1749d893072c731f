//! The pure half of the drive-over-time view: [`build`], which turns state and the model's results (computed in a worker by
//! [`parallelism_work::over_time`]) into the three charts' data and their texts.
//!
//! What always holds:
//! - every number is labelled: the texts say "model" for the model's results, and published
//!   figures (the reviews' own, from the model: [`E12_SUSTAINED_WRITES_SAID`],
//!   [`OCTANE_FACT`]) appear only with their source, and as levels
//!   of kind [`LevelKind::Published`], only for the drive they were measured on;
//! - results are per drive ([`DriveKey`](parallelism_work::DriveKey)): coming back to a drive reuses them; the burst chart
//!   needs only the drive's three cache rates, so moving its sliders never waits for the model;
//! - nothing here touches the browser, so all of it is tested natively.

use crate::model::config::DriveSpec;
use crate::model::over_time::{
    bursts_with, BurstPoint, CacheRates, FillPhase, TortureReport, REVIEW_TORTURE_MINUTES,
};
use crate::model::presets::{self, Preset};
pub use parallelism_work::over_time::OverTimeResults;

use crate::model::over_time::{
    OCTANE_CAPACITY_GB, OCTANE_FACT, OCTANE_PRESET, OCTANE_SOURCE, OCTANE_TORTURED_FRACTION,
};
use crate::model::review::{
    E12_SAMPLE_GB, E12_SAMPLE_PRESET, E12_SOURCE, E12_SUSTAINED_FLOOR_MB_S,
    E12_SUSTAINED_WRITES_SAID, SUSTAINED_IODEPTHS,
};

use crate::ui::charts::time_chart::{Dot, Level, LevelKind, TimeChartData};
use crate::ui::charts::{Curve, Dash, SeriesColour, Stamp};
use crate::ui::pure::format;
use crate::ui::pure::state::{DriveChoice, LabState};
use crate::ui::pure::url_state;

/// Bursts on the burst chart: the six queue depths (1 to 32) of the E12 review's sustained test.
pub const BURSTS: u32 = SUSTAINED_IODEPTHS.len() as u32;
/// Points of the fill curve drawn (the model computes more; the curve is flat between them).
pub const FILL_POINTS_DRAWN: usize = 100;

/// MB in a GB (decimal, as drives are sold).
const MB_PER_GB: f64 = 1e3;
/// A capacity matches a published sample when it is this close (GB).
const CAPACITY_MATCH_GB: f64 = 1.0;

/// One line of a chart's legend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegendItem {
    /// CSS classes of the swatch.
    pub class: String,
    pub label: String,
}

/// Everything the view shows for one state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeView {
    /// The drive, e.g. "Phison E12, 960 GB (32 dies)".
    pub drive: String,
    /// One line on how far the model is.
    pub status: String,
    pub fill: TimeChartData,
    pub fill_legend: Vec<LegendItem>,
    pub fill_text: String,
    pub burst: TimeChartData,
    pub burst_legend: Vec<LegendItem>,
    pub burst_text: String,
    /// The published E12 figure, when the drive is the E12 review's sample.
    pub burst_published: Option<String>,
    pub torture: TimeChartData,
    pub torture_legend: Vec<LegendItem>,
    pub torture_text: String,
    /// The published Octane figure, when the drive is the Octane review's 128 GB model.
    pub torture_published: Option<String>,
    /// Why the lines are flat, when the drive has no SLC cache (the view then offers
    /// [`cache_example`]).
    pub no_cache: Option<String>,
}

/// The drive the view offers when the current one has no SLC cache: the E12 review's sample,
/// whose published bursts and sustained writes the charts then show beside the model.
pub fn cache_example() -> Option<(&'static Preset, DriveChoice)> {
    let preset = presets::find(E12_SAMPLE_PRESET)?;
    let dies = preset.dies_for_capacity_gb(E12_SAMPLE_GB).ok()?;
    Some((
        preset,
        DriveChoice {
            dies,
            die_gbit: preset.nand.die_gbit,
        },
    ))
}

fn is_sample(state: &LabState, preset: &str, capacity_gb: f64) -> bool {
    state.drive.preset().id == preset
        && !state.drive.is_unlisted()
        && (state.drive.capacity_gb() - capacity_gb).abs() < CAPACITY_MATCH_GB
}

fn legend(curves: &[Curve], levels: &[Level], dots: &[Dot]) -> Vec<LegendItem> {
    let curves = curves.iter().map(|c| LegendItem {
        class: c.colour.css_class(),
        label: c.label.clone(),
    });
    let levels = levels.iter().map(|l| LegendItem {
        class: match l.kind {
            LevelKind::Model(c) => format!("{} level", c.css_class()),
            LevelKind::Published => "swatch published level".into(),
        },
        label: l.label.clone(),
    });
    let dots = dots.iter().map(|d| LegendItem {
        class: format!("{} dot", d.colour.css_class()),
        label: d.label.clone(),
    });
    curves.chain(levels).chain(dots).collect()
}

const COMPUTING: &str = "The model is computing…";

/// Builds the view's data for `state` from what `results` holds so far.
pub fn build(state: &LabState, results: Option<&OverTimeResults>) -> TimeView {
    let tag = url_state::to_query(state);
    let preset = state.drive.preset();
    let drive = state.drive.spec();
    let mut v = TimeView {
        drive: state.drive.label(),
        ..TimeView::default()
    };
    let empty = OverTimeResults::default();
    let r = results.unwrap_or(&empty);
    v.status = if let Some(why) = &r.failure {
        format!("The model refused this drive: {why}")
    } else if r.is_done() {
        "Model: the drive over time is computed.".into()
    } else {
        format!(
            "Model: computing the drive over time, {}…",
            format::percent(r.progress)
        )
    };

    let cell = drive.nand.cell.name();
    if drive.controller.slc_cache.is_none() {
        v.no_cache = Some(format!(
            "The {} has no SLC cache in the model: it writes straight to its {cell} cells at one rate, so the lines below are flat.",
            preset.name
        ));
    }
    fill_chart(&mut v, r, cell, &tag);
    burst_chart(&mut v, state, &drive, r, cell, &tag);
    torture_chart(&mut v, state, r, &tag);
    v
}

/// The chart's stamp: the state it shows, and whether its data is still missing.
fn stamp(tag: &str, ready: bool) -> Stamp {
    Stamp {
        state: tag.to_string(),
        missing: usize::from(!ready),
    }
}

/// The whole-drive fill: a curve per phase and the text with each phase's speed.
fn fill_chart(v: &mut TimeView, r: &OverTimeResults, cell: &str, tag: &str) {
    v.fill.x_title = "GB written";
    v.fill.stamp = stamp(tag, r.fill.is_some() || r.failure.is_some());
    v.fill_text = COMPUTING.into();
    if let Some(fill) = &r.fill {
        let phases = [
            (FillPhase::Cache, "into the SLC cache".to_string(), 0),
            (
                FillPhase::PostCache,
                format!("cache full: straight to {cell}"),
                1,
            ),
            (
                FillPhase::Folding,
                format!("straight to {cell} while folding the cache"),
                2,
            ),
        ];
        let every = fill.points.len().div_ceil(FILL_POINTS_DRAWN).max(1);
        for (phase, label, colour) in phases {
            let points: Vec<(f64, f64)> = fill
                .points
                .iter()
                .enumerate()
                .filter(|(i, p)| p.phase == phase && (i % every == 0 || i + 1 == fill.points.len()))
                .map(|(_, p)| (p.gb_written, p.mb_s))
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .collect();
            if !points.is_empty() {
                v.fill.curves.push(Curve {
                    label: format!("{label} (model)"),
                    colour: SeriesColour::Series(colour),
                    emphasis: true,
                    dash: Dash::Solid,
                    points,
                });
            }
        }
        let phase_speed = |ph: FillPhase| {
            let pts: Vec<f64> = fill
                .points
                .iter()
                .filter(|p| p.phase == ph)
                .map(|p| p.mb_s)
                .collect();
            (!pts.is_empty()).then(|| pts.iter().sum::<f64>() / pts.len() as f64)
        };
        let mut text = format!(
            "Model: SLC cache on the empty drive {}; average speed over the whole fill {}.",
            format::gb(fill.slc_cache_gb),
            format::mb_s(fill.average_mb_s)
        );
        if let Some(s) = phase_speed(FillPhase::Cache) {
            text.push_str(&format!(" Into the cache: {}.", format::mb_s(s)));
        }
        if let Some(s) = phase_speed(FillPhase::PostCache) {
            text.push_str(&format!(
                " Cache full, straight to {cell}: {}.",
                format::mb_s(s)
            ));
        }
        if let Some(s) = phase_speed(FillPhase::Folding) {
            text.push_str(&format!(
                " Near full, folding the cache out of the way: {} on average.",
                format::mb_s(s)
            ));
        }
        if fill.slc_cache_gb <= 0.0 {
            text.push_str(
                " This drive has no SLC cache in the model: it writes at one rate throughout.",
            );
        }
        v.fill_text = text;
    }
    v.fill_legend = legend(&v.fill.curves, &[], &[]);
}

/// Bursts with idle time between them, the cache and native rates as levels, and the E12
/// review's published floor on its own drive.
fn burst_chart(
    v: &mut TimeView,
    state: &LabState,
    drive: &DriveSpec,
    r: &OverTimeResults,
    cell: &str,
    tag: &str,
) {
    let burst_gb = f64::from(state.views.burst_gb()).min(drive.user_gb());
    let idle_s = f64::from(state.views.idle_s());
    v.burst.x_title = "burst number";
    v.burst.x_whole = true;
    v.burst.stamp = stamp(tag, r.rates.is_some() || r.failure.is_some());
    v.burst_text = COMPUTING.into();
    if let Some(rates) = &r.rates {
        match bursts_with(drive, rates, burst_gb, idle_s, BURSTS) {
            Ok(points) => {
                v.burst.curves.push(Curve {
                    label: format!(
                        "each burst of {} after {} s idle (model)",
                        format::gb(burst_gb),
                        state.views.idle_s()
                    ),
                    colour: SeriesColour::Series(0),
                    emphasis: true,
                    dash: Dash::Solid,
                    points: points
                        .iter()
                        .map(|p| (f64::from(p.burst), p.mb_s))
                        .filter(|(_, y)| y.is_finite())
                        .collect(),
                });
                let has_cache = r.fill.as_ref().is_some_and(|f| f.slc_cache_gb > 0.0);
                v.burst.levels.extend(rate_levels(rates, has_cache, cell));
                v.burst_text = burst_summary(
                    &points,
                    rates,
                    burst_gb,
                    state.views.idle_s(),
                    cell,
                    has_cache,
                );
                if burst_gb < f64::from(state.views.burst_gb()) {
                    v.burst_text.push_str(&format!(
                        " (Bursts are capped at the drive's {}.)",
                        format::gb(burst_gb)
                    ));
                }
            }
            Err(e) => v.burst_text = format!("The model refused these bursts: {e}"),
        }
    }
    if is_sample(state, E12_SAMPLE_PRESET, E12_SAMPLE_GB) {
        v.burst.levels.push(Level {
            y_mb_s: E12_SUSTAINED_FLOOR_MB_S,
            kind: LevelKind::Published,
            label: format!(
                "published: sustained writes stayed above {} ({E12_SOURCE}, {} sample)",
                format::mb_s(E12_SUSTAINED_FLOOR_MB_S),
                format::gb(E12_SAMPLE_GB)
            ),
        });
        v.burst_published = Some(format!(
            "Published ({E12_SOURCE}, {} sample): {E12_SUSTAINED_WRITES_SAID}",
            format::gb(E12_SAMPLE_GB)
        ));
    }
    v.burst_legend = legend(&v.burst.curves, &v.burst.levels, &[]);
}

/// The model's two write rates as levels on the burst chart: into the SLC cache (when the
/// drive has one) and straight to the native cells.
fn rate_levels(rates: &CacheRates, has_cache: bool, cell: &str) -> Vec<Level> {
    let cache = has_cache.then(|| Level {
        y_mb_s: rates.slc_mb_s,
        kind: LevelKind::Model(SeriesColour::Series(2)),
        label: format!(
            "into the SLC cache: {} (model)",
            format::mb_s(rates.slc_mb_s)
        ),
    });
    let native = Level {
        y_mb_s: rates.native_mb_s,
        kind: LevelKind::Model(SeriesColour::Series(1)),
        label: format!(
            "sustained, straight to {cell}: {} (model)",
            format::mb_s(rates.native_mb_s)
        ),
    };
    cache.into_iter().chain([native]).collect()
}

/// The burst chart's text: the first and last burst and the cache's free space, the folding
/// rate and the sustained rate; or, without a cache, the one rate every burst gets.
fn burst_summary(
    points: &[BurstPoint],
    rates: &CacheRates,
    burst_gb: f64,
    idle_s: u32,
    cell: &str,
    has_cache: bool,
) -> String {
    let (first, last) = (points.first(), points.last());
    match (first, last) {
        (Some(f), Some(l)) if has_cache => format!(
            "Model, {BURSTS} bursts of {} with {} s idle between: the first at {} with {} of cache free, the last at {} with {} free. In idle time the drive folds its cache at {} ({} in {} s); the sustained rate straight to {cell} is {}.",
            format::gb(burst_gb),
            idle_s,
            format::mb_s(f.mb_s),
            format::gb(f.cache_free_gb),
            format::mb_s(l.mb_s),
            format::gb(l.cache_free_gb),
            format::mb_s(rates.fold_mb_s),
            format::gb(rates.fold_mb_s * f64::from(idle_s) / MB_PER_GB),
            idle_s,
            format::mb_s(rates.native_mb_s),
        ),
        (Some(f), Some(_)) => format!(
            "Model: this drive has no SLC cache, so every burst of {} writes straight to {cell} at {} whatever the idle time.",
            format::gb(burst_gb),
            format::mb_s(f.mb_s),
        ),
        _ => String::new(),
    }
}

/// The torture and TRIM: random-write speed over the torture, the sequential probes as dots,
/// and the Octane review's published bound on its own drive.
fn torture_chart(v: &mut TimeView, state: &LabState, r: &OverTimeResults, tag: &str) {
    v.torture.x_title = "minutes of random writes";
    v.torture.stamp = stamp(tag, r.torture.is_some() || r.failure.is_some());
    v.torture_text = COMPUTING.into();
    if let Some(t) = &r.torture {
        let minutes = REVIEW_TORTURE_MINUTES;
        v.torture.curves.push(Curve {
            label: "4 KiB QD32 random writes during the torture (model)".into(),
            colour: SeriesColour::Series(0),
            emphasis: true,
            dash: Dash::Solid,
            points: t
                .series
                .iter()
                .map(|p| (p.minute, p.mb_s))
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .collect(),
        });
        v.torture.dots = torture_dots(t, minutes);
        let share = |v: f64| {
            if t.fresh_mb_s > 0.0 {
                format::percent(v / t.fresh_mb_s)
            } else {
                format::NO_VALUE.into()
            }
        };
        let (first, last) = (t.series.first(), t.series.last());
        v.torture_text = format!(
            "Model, 128 KiB QD1 sequential write: fresh {}; after {} minutes of 4 KiB QD32 random writes over the full drive {} ({} of fresh); after a TRIM of all user space {} ({} of fresh).",
            format::mb_s(t.fresh_mb_s),
            minutes,
            format::mb_s(t.after_torture_mb_s),
            share(t.after_torture_mb_s),
            format::mb_s(t.after_trim_mb_s),
            share(t.after_trim_mb_s),
        );
        if let (Some(f), Some(l)) = (first, last) {
            v.torture_text.push_str(&format!(
                " During the torture, random writes went from {} (write amplification {:.1}) to {} (write amplification {:.1}).",
                format::mb_s(f.mb_s),
                f.write_amplification,
                format::mb_s(l.mb_s),
                l.write_amplification
            ));
        }
        if is_sample(state, OCTANE_PRESET, OCTANE_CAPACITY_GB) {
            v.torture.levels.push(Level {
                y_mb_s: OCTANE_TORTURED_FRACTION * t.fresh_mb_s,
                kind: LevelKind::Published,
                label: format!(
                    "published bound: a tenth of fresh, which the tortured drive fell below ({OCTANE_SOURCE})"
                ),
            });
        }
    }
    if is_sample(state, OCTANE_PRESET, OCTANE_CAPACITY_GB) {
        v.torture_published = Some(format!("Published ({OCTANE_SOURCE}): {OCTANE_FACT}"));
    }
    v.torture_legend = legend(&v.torture.curves, &v.torture.levels, &v.torture.dots);
}

/// The torture chart's three sequential probes: fresh, after the torture, after TRIM.
fn torture_dots(t: &TortureReport, minutes: f64) -> Vec<Dot> {
    vec![
        Dot {
            at: (0.0, t.fresh_mb_s),
            colour: SeriesColour::Series(1),
            label: format!(
                "128 KiB QD1 sequential write, fresh: {} (model)",
                format::mb_s(t.fresh_mb_s)
            ),
        },
        Dot {
            at: (minutes, t.after_torture_mb_s),
            colour: SeriesColour::Series(3),
            label: format!(
                "the same after the torture: {} (model)",
                format::mb_s(t.after_torture_mb_s)
            ),
        },
        Dot {
            at: (minutes, t.after_trim_mb_s),
            colour: SeriesColour::Series(2),
            label: format!(
                "the same after TRIM of all user space: {} (model)",
                format::mb_s(t.after_trim_mb_s)
            ),
        },
    ]
}

/// The chart's text alternative: its title, then every legend line, then the summary.
pub fn describe(title: &str, legend: &[LegendItem], summary: &str) -> String {
    let items: Vec<&str> = legend.iter().map(|l| l.label.as_str()).collect();
    if items.is_empty() {
        format!("{title}: {summary}")
    } else {
        format!("{title}. {}. {summary}", items.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::presets;
    use crate::ui::pure::compute::drive_key;
    use crate::ui::pure::state::View;
    use parallelism_work::over_time::OverTimeTask;

    #[test]
    fn a_drive_without_an_slc_cache_says_so_and_offers_the_reviews_e12() {
        let e18dc = build(&LabState::default(), None);
        let why = e18dc
            .no_cache
            .expect("the E18DC has no SLC cache in the model");
        assert!(
            why.starts_with("The Phison E18DC (enterprise, PCIe 4.0) has no SLC cache"),
            "{why}"
        );
        let (preset, choice) = cache_example().unwrap();
        let mut s = LabState::default();
        s.drive.set_preset(preset);
        s.drive.set_choice(choice).unwrap();
        assert!(
            is_sample(&s, E12_SAMPLE_PRESET, E12_SAMPLE_GB),
            "the review's 960 GB drive"
        );
        assert_eq!(build(&s, None).no_cache, None);
    }

    fn state(preset: &str) -> LabState {
        let mut s = LabState::default();
        s.drive.set_preset(presets::find(preset).unwrap());
        s.display.view = View::OverTime;
        s
    }

    /// Runs the drive over time for `s`'s drive until idle; returns the number of slices.
    fn compute(runs: &mut OverTimeTask, s: &LabState) -> usize {
        runs.set_target(Some(drive_key(&s.drive)));
        runs.work_to_end()
    }

    #[test]
    fn the_e12_view_shows_three_fill_phases_bursts_and_the_published_floor() {
        let s = state("e12");
        let mut e = OverTimeTask::new();
        let slices = compute(&mut e, &s);
        assert!(slices > 100, "{slices} slices: the work was cut up");
        let v = build(&s, e.results(&drive_key(&s.drive)));
        assert_eq!(v.fill.curves.len(), 3, "cache, post-cache, folding");
        assert!(v
            .fill
            .curves
            .iter()
            .all(|c| c.points.len() <= FILL_POINTS_DRAWN + 1));
        assert!(
            v.fill_text.contains("SLC cache on the empty drive") && v.fill_text.contains("Model")
        );
        assert_eq!(v.burst.curves[0].points.len(), BURSTS as usize);
        assert!(v
            .burst
            .levels
            .iter()
            .any(|l| l.kind == LevelKind::Published && l.y_mb_s == E12_SUSTAINED_FLOOR_MB_S));
        assert!(v
            .burst_published
            .as_deref()
            .is_some_and(|p| p.contains(E12_SOURCE)));
        assert!(
            v.torture_published.is_none(),
            "the Octane figures belong to the Octane"
        );
        assert_eq!(v.torture.dots.len(), 3);
        for stamp in [&v.fill.stamp, &v.burst.stamp, &v.torture.stamp] {
            assert_eq!(stamp.missing, 0);
            assert!(stamp.state.contains("view=time"));
        }
        assert!(v.status.contains("computed"));
    }

    #[test]
    fn idle_time_changes_the_bursts_without_new_model_work() {
        let mut s = state("e12");
        let mut e = OverTimeTask::new();
        compute(&mut e, &s);
        s.views.set_idle_s(0);
        let none = build(&s, e.results(&drive_key(&s.drive)));
        s.views.set_idle_s(600);
        let plenty = build(&s, e.results(&drive_key(&s.drive)));
        assert_eq!(compute(&mut e, &s), 0, "the results were there");
        let last = |v: &TimeView| v.burst.curves[0].points.last().unwrap().1;
        assert!(
            last(&none) < last(&plenty),
            "{} vs {}",
            last(&none),
            last(&plenty)
        );
        assert_ne!(none.burst_text, plenty.burst_text);
        assert!(plenty.burst_text.contains("600 s idle"));
    }

    #[test]
    fn the_octane_torture_cites_the_review_and_a_drive_without_cache_says_so() {
        let mut s = state("octane");
        s.drive.set_dies(16); // the review's 128 GB model
        assert!((s.drive.capacity_gb() - OCTANE_CAPACITY_GB).abs() < 0.5);
        let mut e = OverTimeTask::new();
        compute(&mut e, &s);
        let v = build(&s, e.results(&drive_key(&s.drive)));
        assert!(v
            .torture_published
            .as_deref()
            .is_some_and(|p| p.contains(OCTANE_SOURCE)));
        assert!(v
            .torture
            .levels
            .iter()
            .any(|l| l.kind == LevelKind::Published));
        assert!(v.torture_text.contains("after a TRIM"));
        s.drive.set_preset(presets::find("e18dc").unwrap());
        compute(&mut e, &s);
        let v = build(&s, e.results(&drive_key(&s.drive)));
        assert!(v.burst_text.contains("no SLC cache"), "{}", v.burst_text);
        assert!(v.torture_published.is_none() && v.burst_published.is_none());
    }

    #[test]
    fn before_any_result_every_chart_says_it_is_computing() {
        let s = state("e12");
        let v = build(&s, None);
        assert!(v.fill.is_empty() && v.burst.is_empty() && v.torture.is_empty());
        assert_eq!(v.burst.stamp.missing, 1);
        assert_eq!(v.fill_text, COMPUTING);
        let d = describe("Fill", &v.fill_legend, &v.fill_text);
        assert!(d.contains("computing"));
    }

    #[test]
    fn a_hidden_view_does_no_work_and_a_tiny_drive_caps_the_burst() {
        let mut e = OverTimeTask::new();
        e.set_target(None);
        assert!(e.work(&mut || false).idle);
        let mut s = state("e12");
        s.drive
            .set_choice(crate::ui::pure::state::DriveChoice {
                dies: 1,
                die_gbit: 32,
            })
            .unwrap();
        compute(&mut e, &s);
        let v = build(&s, e.results(&drive_key(&s.drive)));
        assert!(v.burst_text.contains("capped"), "{}", v.burst_text);
        assert!(v.burst.curves[0].points.iter().all(|p| p.1.is_finite()));
    }
}
