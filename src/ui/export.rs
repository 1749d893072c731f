//! What the page exports, as text: the plotted series as CSV ([`csv`]) and the file names of
//! every download. Pure Rust (the browser part that turns text into a download is
//! [`super::views::share`]), so what a reader downloads is tested natively.
//!
//! What always holds: the CSV holds exactly what the visible charts plot, one row per point;
//! every row says whether it is a model result, a published measurement (with its source) or
//! the reader's own fio result, and the opening comment lines say so too; value columns carry
//! their unit in their name; a cell that a spreadsheet could read as a formula is quoted as
//! text.

use super::charts::{
    ChartSet, Curve, LegendEntry, LoadChartData, Marker, Measure, SeriesColour, Unit, YourSeries,
};
use super::embed::{ChartId, ChartsShown};
use super::reference;
use super::state::{LabState, LoadKind};

/// File name of the CSV download.
pub const CSV_FILE: &str = "parallelism-lab.csv";
/// File name of the fio job file download.
pub const FIO_JOB_FILE: &str = "parallelism-lab.fio";
/// The CSV's columns, units in the names.
pub const CSV_HEADER: &str =
    "chart,series,source,queue_depth,read_percent,iops,mb_per_s,latency_us,watts,per_watt,offered_iops,offered_mb_per_s";
/// `source` of a model point.
pub const SOURCE_MODEL: &str = "model";
/// `source` of a published measurement.
pub const SOURCE_PUBLISHED: &str = "published measurement";
/// `source` of an imported fio result.
pub const SOURCE_FIO: &str = "your drive (fio)";

/// The PNG file name of a chart.
pub fn png_file(chart: ChartId) -> String {
    format!("parallelism-lab-{}.png", chart.id())
}

/// Which value column a chart's y values go in.
#[derive(Clone, Copy)]
enum Column {
    Iops,
    MbPerS,
    LatencyUs,
    Watts,
    /// IOPS or MB/s per watt, as the chart's unit says.
    PerWatt,
}

impl Column {
    fn of(unit: Unit) -> Column {
        match unit {
            Unit::Iops => Column::Iops,
            Unit::MbPerS => Column::MbPerS,
        }
    }

    fn measuring(measure: Measure) -> Column {
        match measure {
            Measure::Throughput(unit) => Column::of(unit),
            Measure::Watts => Column::Watts,
            Measure::PerWatt(_) => Column::PerWatt,
        }
    }
}

/// Which x column a chart's x values go in.
#[derive(Clone, Copy)]
enum XColumn {
    QueueDepth,
    ReadPercent,
    /// Offered load, in the chart's unit.
    Offered(Unit),
}

/// The visible series of `set` as CSV for `state` (whose `charts=` says which are visible).
pub fn csv(state: &LabState, set: &ChartSet) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "# Parallelism Lab export: {}\n\
         # Rows with source '{SOURCE_MODEL}' are results of the lab's simulation model, not \
         measurements.\n\
         # Rows with source '{SOURCE_PUBLISHED}' are published measurements: {}.\n\
         # Rows with source '{SOURCE_FIO}' are fio results the reader imported.\n",
        super::url_state::to_query(state),
        reference::source().replace('\n', " "),
    ));
    out.push_str(CSV_HEADER);
    out.push('\n');
    let shown = state.embedding.charts;
    let mut rows = Rows {
        out: &mut out,
        legend: &set.legend,
    };
    if state.workload.load() == LoadKind::Rate {
        rows.load(shown, &set.load);
        return out;
    }
    if shown.shows(ChartId::Iops) {
        let col = Column::measuring(set.qd.unit);
        rows.curves(
            ChartId::Iops,
            &set.qd.depth.curves,
            XColumn::QueueDepth,
            col,
        );
        rows.markers(
            ChartId::Iops,
            &set.qd.depth.markers,
            XColumn::QueueDepth,
            col,
        );
        rows.yours(ChartId::Iops, &set.qd.depth.yours, col);
    }
    if shown.shows(ChartId::Latency) {
        let col = Column::LatencyUs;
        rows.curves(
            ChartId::Latency,
            &set.latency.curves,
            XColumn::QueueDepth,
            col,
        );
        rows.markers(
            ChartId::Latency,
            &set.latency.markers,
            XColumn::QueueDepth,
            col,
        );
        rows.yours(ChartId::Latency, &set.latency.yours, col);
    }
    if shown.shows(ChartId::Mix) {
        let col = Column::of(set.mix.unit);
        rows.curves(ChartId::Mix, &set.mix.curves, XColumn::ReadPercent, col);
        rows.markers(ChartId::Mix, &set.mix.markers, XColumn::ReadPercent, col);
    }
    if shown.shows(ChartId::Power) {
        for chart in [&set.power, &set.efficiency] {
            let col = Column::measuring(chart.unit);
            rows.curves(
                ChartId::Power,
                &chart.depth.curves,
                XColumn::QueueDepth,
                col,
            );
        }
    }
    out
}

struct Rows<'a> {
    out: &'a mut String,
    legend: &'a [LegendEntry],
}

impl Rows<'_> {
    fn row(
        &mut self,
        chart: ChartId,
        series: &str,
        source: &str,
        x: (XColumn, f64),
        y: (Column, f64),
    ) {
        let mut cells = [
            cell(chart.id()),
            cell(series),
            cell(source),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
        ];
        let xi = match x.0 {
            XColumn::QueueDepth => 3,
            XColumn::ReadPercent => 4,
            XColumn::Offered(Unit::Iops) => 10,
            XColumn::Offered(Unit::MbPerS) => 11,
        };
        let yi = match y.0 {
            Column::Iops => 5,
            Column::MbPerS => 6,
            Column::LatencyUs => 7,
            Column::Watts => 8,
            Column::PerWatt => 9,
        };
        cells[xi] = number(x.1);
        cells[yi] = number(y.1);
        self.out.push_str(&cells.join(","));
        self.out.push('\n');
    }

    fn curves(&mut self, chart: ChartId, curves: &[Curve], x: XColumn, y: Column) {
        for c in curves {
            for &(px, py) in &c.points {
                self.row(chart, &c.label, SOURCE_MODEL, (x, px), (y, py));
            }
        }
    }

    /// The rate view's charts: latency and carried load against offered load, and each
    /// drive's knee (on the latency chart) and capacity (on the carried chart).
    fn load(&mut self, shown: ChartsShown, d: &LoadChartData) {
        let x = XColumn::Offered(d.unit);
        let drives = d.carried.iter().zip(&d.limits);
        if shown.shows(ChartId::Load) {
            self.curves(ChartId::Load, &d.latency, x, Column::LatencyUs);
            for (c, l) in drives.clone() {
                if let Some((kx, ky)) = l.knee {
                    let series = format!("{}, knee", c.label);
                    self.row(
                        ChartId::Load,
                        &series,
                        SOURCE_MODEL,
                        (x, kx),
                        (Column::LatencyUs, ky),
                    );
                }
            }
        }
        if shown.shows(ChartId::Carried) {
            let y = Column::of(d.unit);
            self.curves(ChartId::Carried, &d.carried, x, y);
            for (c, l) in drives {
                if let Some(cap) = l.capacity {
                    let series = format!("{}, capacity", c.label);
                    self.row(ChartId::Carried, &series, SOURCE_MODEL, (x, cap), (y, cap));
                }
            }
        }
    }

    fn markers(&mut self, chart: ChartId, markers: &[Marker], x: XColumn, y: Column) {
        for m in markers {
            let series = self.drive_of(m.colour);
            let source = format!("{SOURCE_PUBLISHED} ({})", reference::source());
            self.row(chart, &series, &source, (x, m.x), (y, m.y));
        }
    }

    fn yours(&mut self, chart: ChartId, series: &[YourSeries], y: Column) {
        for s in series {
            let name = format!("your drive ({})", s.file_name);
            for &(px, py) in &s.points {
                self.row(chart, &name, SOURCE_FIO, (XColumn::QueueDepth, px), (y, py));
            }
        }
    }

    fn drive_of(&self, colour: SeriesColour) -> String {
        self.legend
            .iter()
            .find(|l| l.colour == colour)
            .map_or_else(|| "measured drive".to_string(), |l| l.label.clone())
    }
}

/// A number as the CSV writes it: up to three decimals, no trailing zeros.
fn number(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A text cell: quoted when it holds a separator, quote or line break; text that starts like
/// a spreadsheet formula gets a leading `'` so it stays text.
fn cell(text: &str) -> String {
    let mut t: String = text.chars().filter(|c| *c != '\r').collect();
    if t.starts_with(['=', '+', '-', '@']) {
        t.insert(0, '\'');
    }
    if t.contains([',', '"', '\n']) {
        format!("\"{}\"", t.replace('"', "\"\""))
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::stats::{Bottleneck, ProgramWait};
    use crate::ui::charts;
    use crate::ui::compute::{Fidelity, Point, RunKey};
    use crate::ui::embed::ChartsShown;

    fn fake(k: &RunKey) -> Option<Point> {
        let iops = f64::from(k.qd) * 1000.0;
        Some(Point {
            iops,
            mb_s: iops * 0.004,
            mean_us: 100.0,
            p99_us: 200.0,
            p999_us: 300.0,
            bottleneck: Bottleneck::Dies,
            program_wait: ProgramWait::Rarely,
            watts: 2.0,
            budget_w: None,
            saturated: false,
            in_system: 1.0,
            fidelity: Fidelity::Full,
        })
    }

    #[test]
    fn the_csv_names_units_and_sources_and_holds_every_plotted_point() {
        let s = LabState::default();
        let set = charts::build(&s, &fake);
        let text = csv(&s, &set);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("# Parallelism Lab export: preset=e18dc"));
        assert!(text.contains("are results of the lab's simulation model"));
        let header = lines.iter().position(|l| *l == CSV_HEADER).unwrap();
        let rows = &lines[header + 1..];
        let model_points: usize = [
            &set.qd.depth.curves,
            &set.latency.curves,
            &set.mix.curves,
            &set.power.depth.curves,
            &set.efficiency.depth.curves,
        ]
        .iter()
        .flat_map(|c| c.iter())
        .map(|c| c.points.len())
        .sum();
        let markers =
            set.qd.depth.markers.len() + set.latency.markers.len() + set.mix.markers.len();
        assert_eq!(rows.len(), model_points + markers);
        assert!(rows.iter().all(|r| r.split(',').count() >= 10), "{rows:?}");
        // The fake run draws 2 W and 32,000 IOPS: 16,000 IOPS per watt.
        assert!(rows
            .iter()
            .any(|r| r.starts_with("power,\"1,920 GB (32 dies)\",model,32,,,,,2,")));
        assert!(rows
            .iter()
            .any(|r| r.starts_with("power,") && r.ends_with(",16000,,")));
        assert!(rows
            .iter()
            .any(|r| r.starts_with("iops,\"1,920 GB (32 dies)\",model,32,,32000,,")));
        assert!(rows.iter().any(|r| r.contains(SOURCE_PUBLISHED)));
    }

    #[test]
    fn a_rate_exports_its_load_curves_with_each_drives_knee_and_capacity() {
        let mut s = LabState::default();
        s.workload.set_load(crate::ui::state::LoadKind::Rate);
        let set = charts::build(&s, &fake);
        let text = csv(&s, &set);
        let rows: Vec<&str> = text
            .lines()
            .skip_while(|l| *l != CSV_HEADER)
            .skip(1)
            .collect();
        let points: usize = [&set.load.latency, &set.load.carried]
            .iter()
            .flat_map(|c| c.iter())
            .map(|c| c.points.len())
            .sum();
        let named = set.load.limits.iter().filter(|l| l.knee.is_some()).count()
            + set
                .load
                .limits
                .iter()
                .filter(|l| l.capacity.is_some())
                .count();
        assert!(points > 0 && named > 0);
        assert_eq!(rows.len(), points + named);
        assert!(rows
            .iter()
            .all(|r| r.starts_with("load,") || r.starts_with("carried,")));
        // The fake capacity at depth 32 is 32,000 IOPS, offered and carried.
        assert!(rows.iter().any(|r| r
            .starts_with("carried,\"1,920 GB (32 dies), capacity\",model,,,32000,")
            && r.ends_with(",32000,")));
    }

    #[test]
    fn only_visible_charts_are_exported_and_formulas_stay_text() {
        let mut s = LabState::default();
        s.embedding.charts = ChartsShown::of(&[ChartId::Latency]).unwrap();
        let text = csv(&s, &charts::build(&s, &fake));
        let header = text.lines().position(|l| l == CSV_HEADER).unwrap();
        assert!(text
            .lines()
            .skip(header + 1)
            .all(|r| r.starts_with("latency,")));
        assert_eq!(cell("=HYPERLINK(1)"), "'=HYPERLINK(1)");
        assert_eq!(cell("a \"b\", c"), "\"a \"\"b\"\", c\"");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(32.0), "32");
    }
}
