//! The three charts: what they show ([`build`] turns state and model results into plain chart
//! data) and how they are drawn (one pure `draw` function per chart that takes that data, a
//! [`ChartStyle`] and any plotters drawing area, so it is tested natively without a browser).
//! [`canvas`] is the only browser part: a HiDPI canvas component that calls a draw function.
//!
//! What always holds:
//! - curves are model results and markers are published measurements; the two are never mixed
//!   in one series, and the page's legend and captions say which is which;
//! - every drive keeps its colour across all three charts and the legend (the preset's listed
//!   capacities take the series colours smallest first, an unlisted capacity the configured colour);
//!   where the time goes ([`anatomy_chart`]) is the one chart of the reader's drive alone, so
//!   its colours are the parts' (the readout's bars'), not a drive's;
//! - chart data holds only finite numbers: a result that is not finite (or not positive on a
//!   log axis) is left out rather than drawn.

pub mod anatomy_chart;
pub mod axis;
pub mod canvas;
pub mod export;
pub mod frames;
pub mod iodepth_chart;
pub mod latency_chart;
pub mod load_chart;
pub mod mix_chart;
pub mod over_time;
pub mod paint;
pub mod series;
pub mod style;
pub mod time_chart;
pub mod turns;

#[cfg(test)]
mod recording;

use crate::model::config::{DriveState, MAX_IODEPTH};
use crate::model::stats::Bottleneck;

use crate::ui::pure::compare::Pin;
use crate::ui::pure::compute::{self, Point, RunKey};
use crate::ui::pure::format;
use crate::ui::pure::load::LoadSweep;
use crate::ui::pure::reference::{self, Measured};
use crate::ui::pure::state::LoadKind;
use crate::ui::pure::state::{DriveChoice, LabState};
use load_chart::DriveLimits;

pub use crate::ui::pure::measure::{Measure, Unit};
pub use anatomy_chart::AnatomyChartData;
pub use iodepth_chart::IodepthChartData;
pub use latency_chart::LatencyChartData;
pub use load_chart::LoadChartData;
pub use mix_chart::MixChartData;
pub use series::{
    your_values, Curve, Dash, DepthSeries, FioShape, LegendEntry, Marker, SeriesColour, Stamp,
    YourSeries,
};
pub use style::{ChartStyle, Palette};

/// The data of all three charts for one state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChartSet {
    pub iodepth: IodepthChartData,
    pub latency: LatencyChartData,
    pub mix: MixChartData,
    /// Average power against queue depth, and throughput per watt.
    pub power: IodepthChartData,
    pub efficiency: IodepthChartData,
    /// The rate view's charts (empty while the workload is a queue depth).
    pub load: LoadChartData,
    /// Where the reader's drive's mean request spends its time, across the depth or rate
    /// sweep (empty for several jobs and a trace).
    pub anatomy: AnatomyChartData,
    pub legend: Vec<LegendEntry>,
    /// The published measurements on the charts were taken in a different drive state.
    pub measured_state_differs: Option<DriveState>,
}

/// A curve set of the chart: a drive with the configuration it runs, its colour and label.
pub(crate) struct Compared {
    /// The configuration the drive's sweeps run (the reader's, or a pin's).
    pub(crate) config: LabState,
    pub(crate) drive: DriveChoice,
    pub(crate) colour: SeriesColour,
    pub(crate) current: bool,
    pub(crate) label: String,
    /// The pin's place in [`|s: &LabState| s.pins.as_slice()`], for a pinned configuration.
    pub(crate) pin: Option<usize>,
}

/// Without pins: the preset's capacities (and the reader's unlisted capacity). With pins: the
/// reader's configuration in the configured colour, then each pin in a series colour (a pin equal
/// to the reader's configuration stands for it, so nothing is drawn twice).
pub(crate) fn compared(state: &LabState) -> Vec<Compared> {
    if !state.pins.as_slice().is_empty() {
        return compared_with_pins(state);
    }
    let preset = state.drive.preset();
    let mut listed = 0;
    state
        .drive
        .comparison_drives()
        .into_iter()
        .map(|drive| {
            let cap = format::gb(drive.capacity_gb(preset));
            let (colour, label) = if drive.is_listed(preset) {
                listed += 1;
                (
                    SeriesColour::Series(listed - 1),
                    format!("{cap} ({} dies)", drive.dies),
                )
            } else {
                (
                    SeriesColour::Configured,
                    format!(
                        "unlisted capacity: {cap} ({} dies of {} Gbit)",
                        drive.dies, drive.die_gbit
                    ),
                )
            };
            Compared {
                config: state.clone(),
                drive,
                colour,
                current: drive == state.drive.choice(),
                label,
                pin: None,
            }
        })
        .collect()
}

fn compared_with_pins(state: &LabState) -> Vec<Compared> {
    let now = Pin::of(state);
    let mut out = Vec::new();
    if !state.pins.as_slice().contains(&now) {
        out.push(Compared {
            config: state.clone(),
            drive: state.drive.choice(),
            colour: SeriesColour::Configured,
            current: true,
            label: format!("now: {}", now.label()),
            pin: None,
        });
    }
    for (i, pin) in state.pins.as_slice().iter().enumerate() {
        out.push(Compared {
            config: pin.apply(state),
            drive: pin.drive,
            colour: SeriesColour::Series(i),
            current: *pin == now,
            label: format!("pin {}: {}", i + 1, pin.label()),
            pin: Some(i),
        });
    }
    out
}

/// Builds every chart's data for `state` from the results `lookup` has so far.
pub fn build(state: &LabState, lookup: &dyn Fn(&RunKey) -> Option<Point>) -> ChartSet {
    let drives = compared(state);
    let unit = Unit::of(state);
    let tag = crate::ui::pure::url_state::to_query(state);
    let current = lookup(&compute::current_key(state));
    let current_missing = usize::from(current.is_none());

    let (mut iodepth, mut latency, iodepth_missing) =
        depth_charts(state, &drives, lookup, unit, current);
    let (mut mix, mix_missing) = mix_chart(state, &drives, lookup, unit, current);
    let measured_state_differs =
        add_published(state, &drives, unit, [&mut iodepth, &mut latency, &mut mix]);
    add_imports(state, unit, &mut iodepth, &mut latency);
    let stamp = |missing: usize| Stamp {
        state: tag.clone(),
        missing: missing + current_missing,
    };
    iodepth.depth.stamp = stamp(iodepth_missing);
    latency.stamp = stamp(iodepth_missing);
    mix.stamp = stamp(mix_missing);

    let (power, efficiency) = power_charts(state, &drives, lookup, current, &tag);
    let load = match state.workload.load() {
        LoadKind::Rate => load_charts(state, &drives, lookup, unit, current, &tag),
        LoadKind::Depth | LoadKind::Jobs | LoadKind::Trace => LoadChartData::default(),
    };
    let anatomy = anatomy_chart(state, &drives, lookup, &iodepth, &load, &tag);
    ChartSet {
        load,
        anatomy,
        iodepth,
        latency,
        mix,
        power,
        efficiency,
        legend: drives
            .into_iter()
            .map(|d| LegendEntry {
                label: d.label,
                colour: d.colour,
                current: d.current,
                pin: d.pin,
            })
            .collect(),
        measured_state_differs,
    }
}

/// The rate view's charts: per compared drive its latency and carried load against offered
/// load, its knee and its capacity; the current drive's named in words.
fn load_charts(
    state: &LabState,
    drives: &[Compared],
    lookup: &dyn Fn(&RunKey) -> Option<Point>,
    unit: Unit,
    current: Option<Point>,
    tag: &str,
) -> LoadChartData {
    let bs = state.workload.bs_bytes();
    let x = |iops: f64| unit.offered(iops, bs);
    let rates = compute::sweep_rates(state);
    let span = |i: usize| rates.get(i).map_or(1.0, |&r| x(f64::from(r)));
    let current_x = x(f64::from(state.workload.rate_iops()));
    let mut data = LoadChartData {
        unit,
        x_range: (span(0), span(rates.len().saturating_sub(1))),
        current_x,
        current_latency: current
            .filter(|p| !p.saturated)
            .map(|p| (current_x, p.mean_us)),
        current_carried: current.map(|p| (current_x, unit.pick(&p))),
        ..LoadChartData::default()
    };
    let mut missing = usize::from(current.is_none());
    for d in drives {
        let sweep = LoadSweep::of(&d.config, d.drive, lookup);
        missing += sweep.missing;
        let curve = |dash, label: String, points| Curve {
            label,
            colour: d.colour,
            emphasis: d.current,
            dash,
            points,
        };
        let calm = || sweep.points.iter().filter(|(_, p)| !p.saturated);
        let mean: Vec<(f64, f64)> =
            finite_points(calm().map(|(r, p)| (x(f64::from(*r)), p.mean_us)));
        let knee = sweep
            .knee_iops
            .map(|k| (x(k), interpolate_log(&mean, x(k))));
        data.latency
            .push(curve(Dash::Solid, format!("{}, mean", d.label), mean));
        data.latency.push(curve(
            Dash::Dashed,
            format!("{}, p99", d.label),
            finite_points(calm().map(|(r, p)| (x(f64::from(*r)), p.p99_us))),
        ));
        data.carried.push(curve(
            Dash::Solid,
            d.label.clone(),
            finite_points(
                sweep
                    .points
                    .iter()
                    .map(|(r, p)| (x(f64::from(*r)), unit.pick(p))),
            ),
        ));
        let capacity = sweep.capacity.map(|p| unit.pick(&p));
        if d.current {
            data.named = named_limits(&sweep, unit, bs, d.config.workload.iodepth());
        }
        data.limits.push(DriveLimits {
            colour: d.colour,
            emphasis: d.current,
            knee: knee.and_then(|(kx, ky)| Some((kx, ky?))),
            capacity,
        });
    }
    data.stamp = Stamp {
        state: tag.to_string(),
        missing,
    };
    data
}

/// Where the time goes for the reader's own drive: its depth sweep's points (or its rate
/// sweep's below saturation, where a latency says how long a request took, not how long the
/// run lasted), on the axis the view's other charts use.
fn anatomy_chart(
    state: &LabState,
    drives: &[Compared],
    lookup: &dyn Fn(&RunKey) -> Option<Point>,
    iodepth: &IodepthChartData,
    load: &LoadChartData,
    tag: &str,
) -> AnatomyChartData {
    let Some(d) = drives.iter().find(|d| d.current) else {
        return AnatomyChartData::default();
    };
    let label = d.label.clone();
    let (mut data, missing) = match state.workload.load() {
        LoadKind::Depth => {
            let (results, missing) = iodepth_results(d, lookup);
            let axis = anatomy_chart::AnatomyAxis::Depth {
                max_iodepth: iodepth.depth.max_iodepth,
                current_iodepth: iodepth.depth.current_iodepth,
            };
            let points = results
                .iter()
                .map(|(k, p)| (f64::from(k.iodepth), &p.anatomy));
            (AnatomyChartData::of(axis, label, points), missing)
        }
        LoadKind::Rate => {
            let sweep = LoadSweep::of(&d.config, d.drive, lookup);
            let bs = d.config.workload.bs_bytes();
            let axis = anatomy_chart::AnatomyAxis::Offered {
                unit: load.unit,
                x_range: load.x_range,
                current_x: load.current_x,
            };
            let points = sweep
                .points
                .iter()
                .filter(|(_, p)| !p.saturated)
                .map(|(r, p)| (load.unit.offered(f64::from(*r), bs), &p.anatomy));
            (AnatomyChartData::of(axis, label, points), sweep.missing)
        }
        LoadKind::Jobs | LoadKind::Trace => return AnatomyChartData::default(),
    };
    data.stamp = Stamp {
        state: tag.to_string(),
        missing,
    };
    data
}

/// The current drive's knee and saturation in words, once both are known.
fn named_limits(sweep: &LoadSweep, unit: Unit, bs: u32, depth: u32) -> Option<String> {
    let capacity = sweep.capacity?;
    let amount = |iops: f64| match unit {
        Unit::Iops => format::iops(iops),
        Unit::MbS => format::mb_s(unit.offered(iops, bs)),
    };
    let limit = match capacity.bottleneck {
        // The closed loop at the allowed depth had room: the depth itself caps the rate.
        Bottleneck::QueueDepth => format!("the {} requests allowed at the drive", depth),
        b => b.label().to_string(),
    };
    let saturated = format!(
        "Saturation at {} (limited by {limit}): past it the queue grows without bound.",
        amount(capacity.iops)
    );
    Some(match sweep.knee_iops {
        Some(k) => format!(
            "The knee, where throughput per latency peaks, lies at {} offered ({:.0}% of capacity). {saturated}",
            amount(k),
            100.0 * k / capacity.iops
        ),
        None => saturated,
    })
}

/// The value of a curve at `x`, interpolated on log-log axes between its points.
fn interpolate_log(points: &[(f64, f64)], x: f64) -> Option<f64> {
    let i = points.iter().position(|p| p.0 >= x)?;
    let (x1, y1) = points[i];
    if i == 0 || x1 == x {
        return Some(y1);
    }
    let (x0, y0) = points[i - 1];
    let t = (x.ln() - x0.ln()) / (x1.ln() - x0.ln());
    Some((y0.ln() + t * (y1.ln() - y0.ln())).exp())
}

/// The latency chart's lines per drive: mean, p99 and (on request, last) p99.9.
type LatencyLine = (Dash, &'static str, fn(&Point) -> f64);
const LATENCY_LINES: [LatencyLine; 3] = [
    (Dash::Solid, "mean", |p| p.mean_us),
    (Dash::Dashed, "p99", |p| p.p99_us),
    (Dash::Dotted, "p99.9", |p| p.p999_us),
];

/// A compared drive's queue-depth sweep: the results so far, and how many are still missing.
fn iodepth_results(
    d: &Compared,
    lookup: &dyn Fn(&RunKey) -> Option<Point>,
) -> (Vec<(RunKey, Point)>, usize) {
    let sweep = compute::iodepth_sweep(&d.config, d.drive);
    let results: Vec<(RunKey, Point)> = sweep
        .iter()
        .filter_map(|k| lookup(k).map(|p| (k.clone(), p)))
        .collect();
    let missing = sweep.len() - results.len();
    (results, missing)
}

/// An empty chart of `measure` against the state's queue depths, with the current point.
fn depth_chart(state: &LabState, measure: Measure, current: Option<Point>) -> IodepthChartData {
    let at = state.workload.iodepth();
    IodepthChartData {
        unit: measure,
        depth: DepthSeries {
            max_iodepth: compute::deepest_iodepth(at),
            current_iodepth: at,
            current: current.map(|p| (f64::from(at), measure.pick(&p))),
            ..DepthSeries::default()
        },
        guess: None,
    }
}

/// Throughput and latency against queue depth, one curve (or three latency curves) per drive,
/// and how many of their points have no result yet.
fn depth_charts(
    state: &LabState,
    drives: &[Compared],
    lookup: &dyn Fn(&RunKey) -> Option<Point>,
    unit: Unit,
    current: Option<Point>,
) -> (IodepthChartData, LatencyChartData, usize) {
    let at = state.workload.iodepth();
    let mut iodepth = depth_chart(state, Measure::Throughput(unit), current);
    let mut latency = LatencyChartData {
        max_iodepth: iodepth.depth.max_iodepth,
        current_iodepth: at,
        current: current.map(|p| (f64::from(at), p.mean_us)),
        ..LatencyChartData::default()
    };
    let mut missing = 0;
    for d in drives {
        let (results, unknown) = iodepth_results(d, lookup);
        missing += unknown;
        let series = |dash, label: String, pick: &dyn Fn(&Point) -> f64| Curve {
            label,
            colour: d.colour,
            emphasis: d.current,
            dash,
            points: finite_points(results.iter().map(|(k, p)| (f64::from(k.iodepth), pick(p)))),
        };
        iodepth
            .depth
            .curves
            .push(series(Dash::Solid, d.label.clone(), &|p| unit.pick(p)));
        let shown = if state.views.show_p999() { 3 } else { 2 };
        for &(dash, name, pick) in &LATENCY_LINES[..shown] {
            latency
                .curves
                .push(series(dash, format!("{}, {name}", d.label), &pick));
        }
    }
    (iodepth, latency, missing)
}

/// Throughput against read share at the current depth, one curve per drive, and how many of
/// its points have no result yet.
fn mix_chart(
    state: &LabState,
    drives: &[Compared],
    lookup: &dyn Fn(&RunKey) -> Option<Point>,
    unit: Unit,
    current: Option<Point>,
) -> (MixChartData, usize) {
    let mut mix = MixChartData {
        unit,
        bs_bytes: state.workload.bs_bytes(),
        current_pct: state.workload.read_pct(),
        current: current.map(|p| (f64::from(state.workload.read_pct()), unit.pick(&p))),
        ..MixChartData::default()
    };
    let mut missing = 0;
    for d in drives {
        let sweep = compute::mix_sweep(&d.config, d.drive);
        let points: Vec<(f64, f64)> = sweep
            .iter()
            .filter_map(|k| lookup(k).map(|p| (f64::from(k.read_pct), unit.pick(&p))))
            .collect();
        missing += sweep.len() - points.len();
        mix.curves.push(Curve {
            label: d.label.clone(),
            colour: d.colour,
            emphasis: d.current,
            dash: Dash::Solid,
            points: finite_points(points.into_iter()),
        });
    }
    (mix, missing)
}

/// The charts a published measurement can stand on.
type PublishedCharts<'a> = [&'a mut dyn PublishedOn; 3];

/// A chart that takes published measurements as markers.
trait PublishedOn {
    fn add(&mut self, m: &Measured, in_mb: bool, colour: SeriesColour);
}

/// Places the published measurements of the state's pattern on the depth charts and the mix
/// chart, in the colour of their drive; returns the drive state they were measured in when it
/// is not the current one.
fn add_published(
    state: &LabState,
    drives: &[Compared],
    unit: Unit,
    charts: PublishedCharts<'_>,
) -> Option<DriveState> {
    let colour_of = |d: DriveChoice| {
        drives
            .iter()
            .find(|c| c.drive == d && c.config.drive.preset().id == state.drive.preset().id)
            .map_or(SeriesColour::Configured, |c| c.colour)
    };
    let in_mb = unit == Unit::MbS;
    let [iodepth, latency, mix] = charts;
    let pattern = reference::same_pattern(state);
    for m in &pattern {
        iodepth.add(m, in_mb, colour_of(m.drive));
        latency.add(m, in_mb, colour_of(m.drive));
    }
    let mixed = reference::for_mix(state);
    for m in &mixed {
        mix.add(m, in_mb, colour_of(m.drive));
    }
    pattern
        .iter()
        .chain(mixed.iter())
        .map(Measured::state)
        .find(|s| *s != state.workload.drive_state())
}

/// A measurement's marker at its depth (or the range of depths its peak was taken over).
fn depth_marker(m: &Measured, y: f64, colour: SeriesColour) -> Marker {
    let (lo, hi) = m.depths();
    Marker {
        x: f64::from(lo),
        x_to: (hi != lo).then_some(f64::from(hi)),
        y,
        colour,
    }
}

impl PublishedOn for IodepthChartData {
    fn add(&mut self, m: &Measured, in_mb: bool, colour: SeriesColour) {
        if let Some(y) = m.throughput(in_mb) {
            self.depth.markers.push(depth_marker(m, y, colour));
        }
    }
}

impl PublishedOn for LatencyChartData {
    fn add(&mut self, m: &Measured, _in_mb: bool, colour: SeriesColour) {
        if let Some(y) = m.latency_us() {
            self.markers.push(depth_marker(m, y, colour));
        }
    }
}

impl PublishedOn for MixChartData {
    fn add(&mut self, m: &Measured, in_mb: bool, colour: SeriesColour) {
        if let Some(y) = m.throughput(in_mb) {
            self.markers.push(Marker {
                x: f64::from(m.cell.rw.fixed_read_percent().unwrap_or(0)),
                x_to: None,
                y,
                colour,
            });
        }
    }
}

/// Places the reader's imported fio files on the depth charts, each in its marker shape,
/// widening the depth axis to their deepest point.
fn add_imports(
    state: &LabState,
    unit: Unit,
    iodepth: &mut IodepthChartData,
    latency: &mut LatencyChartData,
) {
    for (index, import) in state.imported.as_slice().iter().enumerate() {
        let points: Vec<_> = import
            .points_on(&state.workload)
            .filter(|p| p.iodepth <= MAX_IODEPTH)
            .collect();
        let Some(axis_end) = points.iter().map(|p| p.iodepth.next_power_of_two()).max() else {
            continue;
        };
        iodepth.depth.max_iodepth = iodepth.depth.max_iodepth.max(axis_end);
        latency.max_iodepth = latency.max_iodepth.max(axis_end);
        let series = |y: &dyn Fn(&crate::fio::FioPoint) -> f64| YourSeries {
            shape: FioShape::of(index),
            file_name: import.name(),
            points: finite_points(points.iter().map(|p| (f64::from(p.iodepth), y(p)))),
        };
        iodepth.depth.yours.push(series(&|p| match unit {
            Unit::MbS => p.bw_mb_s,
            Unit::Iops => p.iops,
        }));
        latency.yours.push(series(&|p| p.lat_mean_us));
    }
}

/// Average power and throughput per watt against queue depth: one curve per compared drive,
/// from the same runs as the IOPS chart (every run measures its power).
fn power_charts(
    state: &LabState,
    drives: &[Compared],
    lookup: &dyn Fn(&RunKey) -> Option<Point>,
    current: Option<Point>,
    tag: &str,
) -> (IodepthChartData, IodepthChartData) {
    let (mut power, mut efficiency) = (
        depth_chart(state, Measure::Watts, current),
        depth_chart(state, Measure::PerWatt(Unit::of(state)), current),
    );
    let mut missing = usize::from(current.is_none());
    for d in drives {
        let (results, unknown) = iodepth_results(d, lookup);
        missing += unknown;
        for chart in [&mut power, &mut efficiency] {
            let unit = chart.unit;
            chart.depth.curves.push(Curve {
                label: d.label.clone(),
                colour: d.colour,
                emphasis: d.current,
                dash: Dash::Solid,
                points: finite_points(
                    results
                        .iter()
                        .map(|(k, p)| (f64::from(k.iodepth), unit.pick(p))),
                ),
            });
        }
    }
    for chart in [&mut power, &mut efficiency] {
        chart.depth.stamp = Stamp {
            state: tag.to_string(),
            missing,
        };
    }
    (power, efficiency)
}

/// Keeps the points whose coordinates are finite.
fn finite_points(points: impl Iterator<Item = (f64, f64)>) -> Vec<(f64, f64)> {
    points
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .collect()
}

/// A one-line description of a chart's curves for its accessible label.
pub fn describe(
    title: &str,
    curves: &[Curve],
    x_name: &str,
    y_fmt: &dyn Fn(f64) -> String,
) -> String {
    let parts: Vec<String> = curves
        .iter()
        .filter_map(|c| {
            let (first, last) = (c.points.first()?, c.points.last()?);
            Some(format!(
                "{}: {} at {x_name} {} to {} at {x_name} {}",
                c.label,
                y_fmt(first.1),
                first.0,
                y_fmt(last.1),
                last.0
            ))
        })
        .collect();
    if parts.is_empty() {
        format!("{title}: the model is still computing.")
    } else {
        format!("{title} (model results). {}.", parts.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::stats::{Bottleneck, ProgramWait};
    use crate::ui::pure::compute::Fidelity;

    /// A stand-in model: IOPS grow with depth and dies, so tests can check placement.
    fn fake(k: &RunKey) -> Option<Point> {
        let iops = f64::from(k.iodepth.min(k.drive.dies * 8)) * 10_000.0;
        Some(Point {
            iops,
            mb_s: iops * f64::from(k.bs_bytes) / 1e6,
            mean_us: 1e6 * f64::from(k.iodepth) / iops,
            p99_us: 2e6 * f64::from(k.iodepth) / iops,
            p999_us: 3e6 * f64::from(k.iodepth) / iops,
            bottleneck: Bottleneck::Dies,
            program_wait: ProgramWait::Rarely,
            watts: 2.0,
            budget_w: None,
            saturated: false,
            in_system: 1.0,
            anatomy: crate::ui::pure::compute::PointAnatomy::default(),
            fidelity: Fidelity::Full,
        })
    }

    #[test]
    fn the_default_charts_compare_three_capacities_with_their_measurements() {
        let set = build(&LabState::default(), &fake);
        assert_eq!(set.iodepth.depth.curves.len(), 3);
        assert!(set.iodepth.depth.curves.iter().all(|c| c.points.len() == 9));
        assert_eq!(set.latency.curves.len(), 6, "mean and p99 per drive");
        assert_eq!(set.mix.curves.len(), 3);
        assert!(set.mix.curves.iter().all(|c| c.points.len() == 11));
        assert_eq!(set.iodepth.unit, Measure::Throughput(Unit::Iops));
        assert!(!set.iodepth.depth.markers.is_empty());
        assert!(!set.latency.markers.is_empty());
        assert_eq!(set.iodepth.depth.stamp.missing, 0);
        assert_eq!(set.legend.len(), 3);
        assert_eq!(set.legend.iter().filter(|l| l.current).count(), 1);
        assert_eq!(set.measured_state_differs, None);
    }

    #[test]
    fn a_drive_keeps_its_colour_on_every_chart_and_in_the_legend() {
        let set = build(&LabState::default(), &fake);
        for (i, l) in set.legend.iter().enumerate() {
            assert_eq!(set.iodepth.depth.curves[i].colour, l.colour);
            assert_eq!(set.mix.curves[i].colour, l.colour);
            assert_eq!(set.latency.curves[2 * i].colour, l.colour);
        }
        let mut s = LabState::default();
        s.drive.set_dies(12);
        let set = build(&s, &fake);
        assert_eq!(set.legend.last().unwrap().colour, SeriesColour::Configured);
        assert!(set
            .legend
            .last()
            .unwrap()
            .label
            .starts_with("unlisted capacity"));
    }

    #[test]
    fn pins_replace_the_family_and_the_reader_keeps_the_configured_colour() {
        let mut s = LabState::default();
        s.pins.add(Pin::of(&s)).unwrap();
        let set = build(&s, &fake);
        assert_eq!(set.legend.len(), 1, "a pin equal to the view stands for it");
        assert!(set.legend[0].current && set.legend[0].pin == Some(0));
        s.workload.set_read_pct(0);
        for pin in Pin::family(&s) {
            s.pins.add(pin).unwrap();
        }
        s.workload.set_iodepth(8);
        s.workload.set_bs_bytes(128 << 10);
        let set = build(&s, &fake);
        assert_eq!(set.legend.len(), 5, "the view and four pins");
        assert_eq!(set.iodepth.depth.curves.len(), 5);
        assert_eq!(set.mix.curves.len(), 5);
        assert_eq!(set.legend[0].colour, SeriesColour::Configured);
        assert!(set.legend[0].label.starts_with("now: "));
        assert_eq!(set.legend[4].colour, SeriesColour::Series(3));
        assert!(
            set.legend[2].label.contains("randwrite"),
            "{:?}",
            set.legend
        );
        assert!(set.iodepth.depth.curves.iter().all(|c| c.points.len() == 9));
    }

    #[test]
    fn imported_fio_files_land_on_the_iops_and_latency_charts_each_in_its_shape() {
        let mut s = LabState::default();
        let job = |iodepth: u32, iops: f64| {
            format!(
                r#"{{"jobs":[{{"jobname":"qd{iodepth}","job options":{{"iodepth":"{iodepth}","rw":"randread","bs":"4k"}},
                "read":{{"total_ios":10,"iops":{iops},"bw_bytes":20480000,"clat_ns":{{"mean":800000.0}}}}}}]}}"#
            )
        };
        for (name, text) in [("a.json", job(4, 5000.0)), ("b.json", job(8, 7000.0))] {
            let file = crate::ui::pure::state::FioFile::new(
                name.into(),
                "JSON".into(),
                crate::fio::parse_output(&text).unwrap().points,
            );
            s.imported.add(vec![file.unwrap()]).unwrap();
        }
        let set = build(&s, &fake);
        let iops: Vec<_> = set
            .iodepth
            .depth
            .yours
            .iter()
            .map(|y| (y.shape, y.file_name.as_str(), y.points.clone()))
            .collect();
        assert_eq!(
            iops,
            [
                (FioShape::Square, "a.json", vec![(4.0, 5000.0)]),
                (FioShape::Triangle, "b.json", vec![(8.0, 7000.0)]),
            ]
        );
        assert_eq!(set.latency.yours[1].points, vec![(8.0, 800.0)]);
        assert!(set.mix.curves.len() == 3, "the mix chart has no fio points");
    }

    #[test]
    fn missing_results_are_counted_and_left_out() {
        let set = build(&LabState::default(), &|_| None);
        assert!(set.iodepth.depth.curves.iter().all(|c| c.points.is_empty()));
        assert_eq!(set.iodepth.depth.stamp.missing, 3 * 9 + 1);
        assert_eq!(set.iodepth.depth.current, None);
    }

    #[test]
    fn results_that_are_not_finite_are_never_plotted() {
        let nan = |k: &RunKey| {
            fake(k).map(|p| Point {
                iops: if k.iodepth == 4 { f64::NAN } else { p.iops },
                ..p
            })
        };
        let set = build(&LabState::default(), &nan);
        assert!(set.iodepth.depth.curves.iter().all(|c| c.points.len() == 8));
    }

    #[test]
    fn large_blocks_switch_the_throughput_unit_and_convert_measurements() {
        let mut s = LabState::default();
        s.workload.set_random(false);
        s.workload.set_bs_bytes(128 << 10);
        s.workload.set_read_pct(0);
        let set = build(&s, &fake);
        assert_eq!(set.iodepth.unit, Measure::Throughput(Unit::MbS));
        let ys: Vec<f64> = set.iodepth.depth.markers.iter().map(|m| m.y).collect();
        assert!(ys.contains(&1600.8), "{ys:?}");
        assert_eq!(set.measured_state_differs, Some(DriveState::SeqFilled));
    }

    /// [`fake`], its reads' mean 100 µs in the host's stack and a microsecond per request in
    /// flight in its sense.
    fn fake_with_anatomy(k: &RunKey) -> Option<Point> {
        use crate::model::anatomy::{Part, PARTS};
        use crate::ui::pure::compute::PointAnatomy;
        let mut parts_us = [0.0; PARTS];
        parts_us[Part::HostStack as usize] = 100.0;
        parts_us[Part::Sense as usize] = k.iodepth as f32;
        let mean = crate::ui::pure::anatomy::PartsUs {
            latency_us: parts_us.iter().sum(),
            parts_us,
        };
        let reads = crate::ui::pure::anatomy::DirectionParts {
            mean,
            p99: mean,
            p999: mean,
        };
        fake(k).map(|p| Point {
            anatomy: PointAnatomy {
                reads: Some(reads),
                writes: None,
            },
            ..p
        })
    }

    #[test]
    fn where_the_time_goes_follows_the_readers_own_drive_across_the_depth_sweep() {
        use crate::ui::pure::anatomy::{Direction, PartColour};
        let set = build(&LabState::default(), &fake_with_anatomy);
        let a = &set.anatomy;
        let current = set.legend.iter().find(|l| l.current).unwrap();
        assert_eq!(a.drive, current.label, "the drive set, not every capacity");
        assert_eq!(
            a.axis,
            anatomy_chart::AnatomyAxis::Depth {
                max_iodepth: 256,
                current_iodepth: 32
            }
        );
        assert_eq!(a.panels.len(), 1);
        assert_eq!(a.panels[0].direction, Direction::Reads);
        let tops: Vec<(f64, f64)> = a.panels[0]
            .stacks
            .iter()
            .map(|s| (s.x, s.top_us()))
            .collect();
        assert_eq!(
            tops,
            [1, 2, 4, 8, 16, 32, 64, 128, 256].map(|d| (f64::from(d), 100.0 + f64::from(d)))
        );
        assert_eq!(a.colours(), [PartColour::Host, PartColour::FlashRead]);
        assert_eq!(a.stamp.missing, 0);
        let none = build(&LabState::default(), &|_| None);
        assert!(none.anatomy.panels.is_empty());
        assert_eq!(
            none.anatomy.stamp.missing, 9,
            "the reader's drive's sweep alone"
        );
    }

    #[test]
    fn where_the_time_goes_against_offered_load_leaves_out_saturated_rates() {
        let mut s = LabState::default();
        s.workload.set_load(LoadKind::Rate);
        let capacity = 32.0 * 10_000.0;
        let saturating = |k: &RunKey| {
            fake_with_anatomy(k).map(|p| Point {
                saturated: matches!(k.load, compute::Load::Rate { iops, .. } if f64::from(iops) > capacity),
                ..p
            })
        };
        let set = build(&s, &saturating);
        let a = &set.anatomy;
        assert!(matches!(a.axis, anatomy_chart::AnatomyAxis::Offered { .. }));
        let xs: Vec<f64> = a.panels[0].stacks.iter().map(|s| s.x).collect();
        let calm: Vec<f64> = compute::sweep_rates(&s)
            .into_iter()
            .map(f64::from)
            .filter(|&r| r <= capacity)
            .collect();
        assert!(!calm.is_empty());
        assert_eq!(xs, calm);
    }

    #[test]
    fn the_accessible_description_names_each_curve_or_says_it_is_computing() {
        let set = build(&LabState::default(), &fake);
        let d = describe("IOPS", &set.iodepth.depth.curves, "QD", &format::compact);
        assert!(
            d.contains("1,920 GB (32 dies)") && d.contains("model results"),
            "{d}"
        );
        let empty = describe("IOPS", &[], "QD", &format::compact);
        assert!(empty.contains("still computing"));
    }
}
