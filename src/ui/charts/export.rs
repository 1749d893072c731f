//! What the page exports, as text: the plotted series as CSV ([`csv`]) and the file names of
//! every download. Pure Rust (the browser part that turns text into a download is
//! [`crate::ui::views::share`]), so what a reader downloads is tested natively.
//!
//! What always holds: the CSV holds exactly what the visible charts plot, one row per point;
//! every row says whether it is a model result, a published measurement (with its source) or
//! the reader's own fio result, and the opening comment lines say so too; value columns carry
//! their unit in their name; a cell that a spreadsheet could read as a formula is quoted as
//! text.

use crate::ui::charts::anatomy_chart::AnatomyAxis;
use crate::ui::charts::{
    AnatomyChartData, ChartSet, Curve, LegendEntry, LoadChartData, Marker, Measure, SeriesColour,
    Unit, YourSeries,
};
use crate::ui::pure::anatomy::PartColour;
use crate::ui::pure::embed::{ChartId, ChartsShown};
use crate::ui::pure::reference;
use crate::ui::pure::state::{LabState, LoadKind};
use parallelism_work::jobs::JobsFound;
use parallelism_work::replay::{Latency, ReplayFound};

/// File name of the CSV download.
pub const CSV_FILE: &str = "parallelism-lab.csv";
/// File name of the fio job file download.
pub const FIO_JOB_FILE: &str = "parallelism-lab.fio";
/// The CSV's columns, units in the names; the last three are where the time goes's: a row per
/// point, direction and colour of parts, its mean µs.
pub const CSV_HEADER: &str =
    "chart,series,source,queue_depth,read_percent,iops,mb_per_s,latency_us,watts,per_watt,offered_iops,offered_mb_per_s,direction,part,part_mean_us";
/// How many columns [`CSV_HEADER`] names.
const CSV_COLUMNS: usize = 15;
/// Where the time goes's columns in a row: direction, part, its mean µs.
const DIRECTION_COLUMN: usize = 12;
const PART_COLUMN: usize = 13;
const PART_US_COLUMN: usize = 14;
/// `source` of a model point.
pub const SOURCE_MODEL: &str = "model";
/// `source` of a published measurement.
pub const SOURCE_PUBLISHED: &str = "published measurement";
/// `source` of an imported fio result.
pub const SOURCE_FIO: &str = "your measurements (fio)";

/// The columns of the several-jobs view's CSV, units in the names.
pub const JOBS_CSV_HEADER: &str = "job,rw,read_percent,block_bytes,queue_depth,rate_iops,source,iops,mb_per_s,latency_mean_us,latency_p99_us,latency_p99_alone_us";
/// The columns of the trace view's CSV: a summary row per drive, then its figures over time.
pub const TRACE_CSV_HEADER: &str = "drive,row,source,data_rate_mb_s,busy_s,elapsed_s,read_mean_us,read_p99_us,write_mean_us,write_p99_us,energy_j,time_s,mb_per_s,in_system";

/// The comment lines every CSV of the page opens with: the view's link, and what its rows are.
fn opening(state: &LabState, rows: &str) -> String {
    format!(
        "# Parallelism Lab export: {}\n# {rows}\n",
        crate::ui::pure::url_state::to_query(state)
    )
}

/// The several-jobs view's figures as CSV: a row per job (its settings, then its figures with
/// every job running and its p99 alone), and the drive's total.
pub fn jobs_csv(state: &LabState, found: &JobsFound) -> String {
    let mut out = opening(
        state,
        &format!("Rows with source '{SOURCE_MODEL}' are results of the lab's simulation model, not measurements."),
    );
    out.push_str(JOBS_CSV_HEADER);
    out.push('\n');
    let jobs = state.workload.jobs().as_slice();
    for (i, (j, f)) in jobs.iter().zip(&found.together).enumerate() {
        let rw = j.rw();
        let alone = found
            .alone
            .get(i)
            .map_or_else(String::new, |a| number(a.p99_us));
        out.push_str(
            &[
                (i + 1).to_string(),
                rw.fio_name().to_string(),
                rw.fixed_read_percent().unwrap_or(j.read_pct()).to_string(),
                j.bs_bytes().to_string(),
                j.iodepth().to_string(),
                j.rate_iops().map_or_else(String::new, |r| r.to_string()),
                SOURCE_MODEL.to_string(),
                number(f.iops),
                number(f.mb_s),
                number(f.mean_us),
                number(f.p99_us),
                alone,
            ]
            .join(","),
        );
        out.push('\n');
    }
    let t = &found.total;
    out.push_str(&format!(
        "all,,,,,,{SOURCE_MODEL},{},{},{},{},\n",
        number(t.iops),
        number(t.mb_s),
        number(t.mean_us),
        number(t.p99_us)
    ));
    out
}

/// The trace view's figures as CSV: per drive (its legend label) a summary row, then a row
/// per bucket of its figures over the trace.
pub fn trace_csv(state: &LabState, labels: &[String], found: &ReplayFound) -> String {
    let mut out = opening(
        state,
        &format!("Rows with source '{SOURCE_MODEL}' are results of the lab's simulation model, not measurements."),
    );
    out.push_str(TRACE_CSV_HEADER);
    out.push('\n');
    let lat = |l: Option<Latency>, p99: bool| {
        l.map_or_else(String::new, |l| {
            number(if p99 { l.p99_us } else { l.mean_us })
        })
    };
    for (label, d) in labels.iter().zip(&found.drives) {
        out.push_str(
            &[
                cell(label),
                "summary".into(),
                SOURCE_MODEL.into(),
                number(d.data_rate_mb_s),
                number(d.busy_s),
                number(d.elapsed_s),
                lat(d.read, false),
                lat(d.read, true),
                lat(d.write, false),
                lat(d.write, true),
                number(d.energy_j),
                String::new(),
                String::new(),
                String::new(),
            ]
            .join(","),
        );
        out.push('\n');
        for &(at, mb_s, in_system) in &d.series {
            out.push_str(&format!(
                "{},over time,{SOURCE_MODEL},,,,,,,,,{},{},{}\n",
                cell(label),
                number(at),
                number(mb_s),
                number(in_system)
            ));
        }
    }
    out
}

/// The PNG file name of a chart.
pub fn png_file(chart: ChartId) -> String {
    format!("parallelism-lab-{}.png", chart.id())
}

/// Which value column a chart's y values go in.
#[derive(Clone, Copy)]
enum Column {
    Iops,
    MbS,
    LatencyUs,
    Watts,
    /// IOPS or MB/s per watt, as the chart's unit says.
    PerWatt,
}

impl Column {
    fn of(unit: Unit) -> Column {
        match unit {
            Unit::Iops => Column::Iops,
            Unit::MbS => Column::MbS,
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
        crate::ui::pure::url_state::to_query(state),
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
        if shown.shows(ChartId::Anatomy) {
            rows.anatomy(&set.anatomy);
        }
        return out;
    }
    if shown.shows(ChartId::Iops) {
        let col = Column::measuring(set.iodepth.unit);
        rows.curves(
            ChartId::Iops,
            &set.iodepth.depth.curves,
            XColumn::QueueDepth,
            col,
        );
        rows.markers(
            ChartId::Iops,
            &set.iodepth.depth.markers,
            XColumn::QueueDepth,
            col,
        );
        rows.yours(ChartId::Iops, &set.iodepth.depth.yours, col);
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
    if shown.shows(ChartId::Anatomy) {
        rows.anatomy(&set.anatomy);
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
        let mut cells = Self::cells(chart, series, source, x);
        let yi = match y.0 {
            Column::Iops => 5,
            Column::MbS => 6,
            Column::LatencyUs => 7,
            Column::Watts => 8,
            Column::PerWatt => 9,
        };
        cells[yi] = number(y.1);
        self.push(&cells);
    }

    /// A row's cells with its chart, series, source and x filled in, the rest empty.
    fn cells(
        chart: ChartId,
        series: &str,
        source: &str,
        x: (XColumn, f64),
    ) -> [String; CSV_COLUMNS] {
        let mut cells: [String; CSV_COLUMNS] = Default::default();
        cells[0] = cell(chart.id());
        cells[1] = cell(series);
        cells[2] = cell(source);
        let xi = match x.0 {
            XColumn::QueueDepth => 3,
            XColumn::ReadPercent => 4,
            XColumn::Offered(Unit::Iops) => 10,
            XColumn::Offered(Unit::MbS) => 11,
        };
        cells[xi] = number(x.1);
        cells
    }

    fn push(&mut self, cells: &[String]) {
        self.out.push_str(&cells.join(","));
        self.out.push('\n');
    }

    /// Where the time goes: per stack, direction and colour with time in it, its mean µs.
    fn anatomy(&mut self, d: &AnatomyChartData) {
        let x = match d.axis {
            AnatomyAxis::Depth { .. } => XColumn::QueueDepth,
            AnatomyAxis::Offered { unit, .. } => XColumn::Offered(unit),
        };
        for panel in &d.panels {
            for stack in &panel.stacks {
                for colour in PartColour::ALL {
                    let us = stack.bands_us[colour.index()];
                    if us <= 0.0 {
                        continue;
                    }
                    let mut cells =
                        Self::cells(ChartId::Anatomy, &d.drive, SOURCE_MODEL, (x, stack.x));
                    cells[DIRECTION_COLUMN] = panel.direction.plural().to_string();
                    cells[PART_COLUMN] = cell(colour.label());
                    cells[PART_US_COLUMN] = number(us);
                    self.push(&cells);
                }
            }
        }
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
            let name = format!("your measurements ({})", s.file_name);
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
    use crate::model::sliced::Sliced;
    use crate::model::stats::{Bottleneck, ProgramWait};
    use crate::model::workload::trace::Adjusted;
    use crate::ui::charts;
    use crate::ui::pure::compute::{Fidelity, Point, RunKey};
    use crate::ui::pure::embed::ChartsShown;

    fn fake(k: &RunKey) -> Option<Point> {
        let iops = f64::from(k.iodepth) * 1000.0;
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
            anatomy: crate::ui::pure::compute::PointAnatomy::default(),
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
            &set.iodepth.depth.curves,
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
            set.iodepth.depth.markers.len() + set.latency.markers.len() + set.mix.markers.len();
        assert_eq!(rows.len(), model_points + markers);
        assert!(rows.iter().all(|r| r.split(',').count() >= 10), "{rows:?}");
        // The fake run draws 2 W and 32,000 IOPS: 16,000 IOPS per watt.
        assert!(rows
            .iter()
            .any(|r| r.starts_with("power,\"1,920 GB (32 dies)\",model,32,,,,,2,")));
        assert!(rows
            .iter()
            .any(|r| r.starts_with("power,") && r.ends_with(",16000,,,,,")));
        assert!(rows
            .iter()
            .any(|r| r.starts_with("iops,\"1,920 GB (32 dies)\",model,32,,32000,,")));
        assert!(rows.iter().any(|r| r.contains(SOURCE_PUBLISHED)));
    }

    #[test]
    fn a_rate_exports_its_load_curves_with_each_drives_knee_and_capacity() {
        let mut s = LabState::default();
        s.workload.set_load(crate::ui::pure::state::LoadKind::Rate);
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
            && r.ends_with(",32000,,,,")));
    }

    /// [`fake`], its reads' mean 100 µs: 40 in the host's stack, 60 sensing.
    fn fake_with_anatomy(k: &RunKey) -> Option<Point> {
        use crate::model::anatomy::{Part, PARTS};
        use crate::ui::pure::anatomy::{DirectionParts, PartsUs};
        let mut parts_us = [0.0; PARTS];
        parts_us[Part::HostStack as usize] = 40.0;
        parts_us[Part::Sense as usize] = 60.0;
        let mean = PartsUs {
            latency_us: 100.0,
            parts_us,
        };
        fake(k).map(|p| Point {
            anatomy: crate::ui::pure::compute::PointAnatomy {
                reads: Some(DirectionParts {
                    mean,
                    p99: mean,
                    p999: mean,
                }),
                writes: None,
            },
            ..p
        })
    }

    #[test]
    fn where_the_time_goes_exports_each_depths_colours_with_their_mean_us() {
        let mut s = LabState::default();
        s.embedding.charts = ChartsShown::of(&[ChartId::Anatomy]).unwrap();
        let text = csv(&s, &charts::build(&s, &fake_with_anatomy));
        let rows: Vec<&str> = text
            .lines()
            .skip_while(|l| *l != CSV_HEADER)
            .skip(1)
            .collect();
        assert_eq!(
            rows.len(),
            9 * 2,
            "nine depths, two colours with time in them"
        );
        assert_eq!(
            &rows[..2],
            [
                "anatomy,\"1,920 GB (32 dies)\",model,1,,,,,,,,,reads,the host,40",
                "anatomy,\"1,920 GB (32 dies)\",model,1,,,,,,,,,reads,its own flash read,60",
            ]
        );
        // Every column, and the comma quoted inside the drive's label.
        assert!(rows
            .iter()
            .all(|r| r.split(',').count() == CSV_HEADER.split(',').count() + 1));
        // At a rate the offered load is the x.
        s.workload.set_load(LoadKind::Rate);
        let text = csv(&s, &charts::build(&s, &fake_with_anatomy));
        assert!(
            text.lines().any(|r| r
                == "anatomy,\"1,920 GB (32 dies)\",model,,,,,,,,2500,,reads,the host,40"),
            "{text}"
        );
    }

    #[test]
    fn several_jobs_export_a_row_per_job_with_its_p99_alone_and_the_drives_total() {
        use parallelism_work::jobs::{JobFigures, JobsTask};
        let mut s = LabState::default();
        s.workload.set_load(LoadKind::Jobs);
        let ask = crate::ui::views::jobs::ask(&s);
        let found = JobsTask::start(ask).unwrap().finish().unwrap();
        let text = jobs_csv(&s, &found);
        let rows: Vec<&str> = text
            .lines()
            .skip_while(|l| *l != JOBS_CSV_HEADER)
            .skip(1)
            .collect();
        assert_eq!(rows.len(), 3, "two jobs and the total: {text}");
        assert!(
            rows[0].starts_with("1,randread,100,4096,1,,model,"),
            "{}",
            rows[0]
        );
        assert!(
            rows[1].starts_with("2,write,0,131072,8,,model,"),
            "{}",
            rows[1]
        );
        assert!(rows[2].starts_with("all,,,,,,model,"));
        let p99_alone = |r: &str| r.rsplit(',').next().unwrap().parse::<f64>().unwrap();
        let alone: &JobFigures = &found.alone[0];
        assert_eq!(p99_alone(rows[0]), (alone.p99_us * 1000.0).round() / 1000.0);
        assert!(text.starts_with("# Parallelism Lab export: "));
    }

    #[test]
    fn a_trace_exports_each_drives_summary_then_its_figures_over_time() {
        use parallelism_work::replay::DriveReplay;
        let mut s = LabState::default();
        s.workload.set_load(LoadKind::Trace);
        let drive = DriveReplay {
            data_rate_mb_s: 186.0,
            busy_s: 74.5,
            elapsed_s: 1507.5,
            read: Some(Latency {
                mean_us: 402.5,
                p50_us: 150.0,
                p90_us: 800.0,
                p99_us: 2000.0,
                p999_us: 3000.0,
            }),
            write: None,
            energy_j: 900.0,
            requests: 832_339,
            adjusted: Adjusted::default(),
            series: vec![(0.0, 150.0, 1.25), (10.0, 200.0, 2.5)],
        };
        let found = ReplayFound {
            drives: vec![drive],
        };
        let text = trace_csv(&s, &["128 GB (16 dies)".into()], &found);
        let rows: Vec<&str> = text
            .lines()
            .skip_while(|l| *l != TRACE_CSV_HEADER)
            .skip(1)
            .collect();
        assert_eq!(
            rows,
            [
                "128 GB (16 dies),summary,model,186,74.5,1507.5,402.5,2000,,,900,,,",
                "128 GB (16 dies),over time,model,,,,,,,,,0,150,1.25",
                "128 GB (16 dies),over time,model,,,,,,,,,10,200,2.5",
            ]
        );
        assert!(rows
            .iter()
            .all(|r| r.split(',').count() == TRACE_CSV_HEADER.split(',').count()));
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
