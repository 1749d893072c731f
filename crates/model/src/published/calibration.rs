//! The published measurements the model is judged against, the file format they are kept in,
//! and the model's value for each.
//!
//! Data: `data/e18dc-calibration.csv`, the measurements of *SSD Benchmarking 201, Part 5: One
//! Controller at Three Capacities* restated as data
//! (comments and all) embedded with `include_str!`, so the lab never reads outside its own files
//! and the cells exist in exactly one place: the page, `lab calibrate`, `lab fit` and the tests
//! all parse that file. Phison E18DC enterprise NVMe engineering sample, PCIe 4.0 x4, measured
//! with Iometer; same controller and firmware at each capacity, only the flash changes. Random
//! cells follow a 3-hour 4 KiB random-write precondition (the model's [`DriveState::Steady`]);
//! sequential cells follow a sequential precondition ([`DriveState::SeqFilled`]). QD is the
//! total number of I/Os in flight.
//!
//! The same format carries anyone's measurements into `lab fit --data FILE`, so the parser takes
//! untrusted text: every mistake is a [`ConfigError`] naming the line, never a panic.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::presets;
use crate::config::{
    parse_block_size, ConfigError, DriveSpec, DriveState, RunOptions, Rw, Workload, MAX_IODEPTH,
};
use crate::run::{CheckedRun, RunError};
use crate::stats::RunResult;
use crate::workload::{FileError, Spacing, Stream, StreamsSpec};
use crate::Simulation;

/// Where the reference figures come from, for every place that shows them.
pub const SOURCE: &str = "SSD Benchmarking 201, Part 5: One Controller at Three Capacities \
     (Iometer runs of July 2022 on a Phison E18DC engineering sample)";

/// The E18DC reference file as published.
pub const E18DC_CSV: &str = include_str!("data/e18dc-calibration.csv");

/// The one header line a measurement file has (after its `#` comments).
pub const HEADER: &str = "capacity_gb,workload,block,read_pct,qd,iops,mb_s,lat_ms";

/// What a measured cell reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    Iops,
    MbS,
    LatencyMs,
}

impl Metric {
    /// The measurement file's columns, in its order.
    const COLUMNS: [(Metric, &'static str); 3] = [
        (Metric::Iops, "iops"),
        (Metric::MbS, "mb_s"),
        (Metric::LatencyMs, "lat_ms"),
    ];

    pub fn unit(self) -> &'static str {
        match self {
            Metric::Iops => "IOPS",
            Metric::MbS => "MB/s",
            Metric::LatencyMs => "ms",
        }
    }

    /// The name `lab fit`'s JSON gives the metric.
    pub fn id(self) -> &'static str {
        match self {
            Metric::Iops => "iops",
            Metric::MbS => "mb_s",
            Metric::LatencyMs => "latency_ms",
        }
    }

    /// The model's figure for this metric.
    pub fn of(self, r: &RunResult) -> f64 {
        match self {
            Metric::Iops => r.iops,
            Metric::MbS => r.bw_mb_s,
            Metric::LatencyMs => r.latency.mean_us / 1e3,
        }
    }

    /// The better of two figures: the higher throughput, the lower latency (what a "peak"
    /// cell reports).
    fn best(self, a: f64, b: f64) -> f64 {
        match self {
            Metric::LatencyMs => a.min(b),
            Metric::Iops | Metric::MbS => a.max(b),
        }
    }
}

/// How a cell's requests arrived: a closed loop at a queue depth, "peak" (the best over deep
/// queue depths), or an open loop at a rate (fio's `rate_iops`: evenly spaced arrivals, its
/// default `rate_process`) with at most `iodepth` at the drive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Depth {
    // Scripts that read `lab`'s JSON know this field as `qd`.
    #[serde(rename = "qd")]
    Iodepth(u32),
    Peak,
    Rate {
        iops: u32,
        #[serde(rename = "qd")]
        iodepth: u32,
    },
}

/// Queue depths searched for a "peak" cell.
pub const PEAK_IODEPTHS: [u32; 4] = [32, 64, 128, 256];

impl Depth {
    /// The queue depths the model runs for this cell.
    pub fn iodepths(&self) -> &[u32] {
        match self {
            Depth::Iodepth(q) | Depth::Rate { iodepth: q, .. } => std::slice::from_ref(q),
            Depth::Peak => &PEAK_IODEPTHS,
        }
    }
}

/// One measured figure: a published one, or one of a user's fio jobs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// The capacity measured, which fixes the die count; `None` for a drive fitted as a whole,
    /// whose die count is itself fitted (a fio job does not say what it ran on).
    pub capacity_gb: Option<u32>,
    /// The state the drive was in: published random cells follow a random-write
    /// precondition, sequential ones a sequential fill; a user's fio jobs say which.
    pub state: DriveState,
    pub rw: Rw,
    /// Read share in percent (100 or 0 unless `rw` is mixed).
    pub rwmixread: u8,
    pub bs_bytes: u32,
    pub depth: Depth,
    pub metric: Metric,
    pub value: f64,
}

/// Every E18DC reference cell, parsed once from [`E18DC_CSV`]. The file is read as any
/// measurement file is (a test holds it to the format), so one that would not parse is refused
/// as theirs would be.
pub fn e18dc() -> Result<&'static [Measurement], ConfigError> {
    static CELLS: OnceLock<Result<Vec<Measurement>, ConfigError>> = OnceLock::new();
    CELLS
        .get_or_init(|| {
            parse(E18DC_CSV).map_err(|e| ConfigError::Malformed {
                what: "the built-in E18DC measurements".into(),
                value: String::new(),
                why: e.to_string(),
            })
        })
        .as_deref()
        .map_err(Clone::clone)
}

/// All E18DC reference cells.
pub fn cells() -> Result<impl Iterator<Item = Measurement>, ConfigError> {
    Ok(e18dc()?.iter().copied())
}

/// Measurements built into the lab for a preset, and where they come from.
#[derive(Clone, Copy, Debug)]
pub struct Reference {
    pub source: &'static str,
    pub cells: &'static [Measurement],
}

/// The built-in reference data of the preset with this id, if it has any.
pub fn reference_for(preset_id: &str) -> Result<Option<Reference>, ConfigError> {
    if !preset_id.eq_ignore_ascii_case("e18dc") {
        return Ok(None);
    }
    Ok(Some(Reference {
        source: SOURCE,
        cells: e18dc()?,
    }))
}

/// A mistake in a measurement file, on line `line` (1-based).
fn bad(line: usize, why: impl std::fmt::Display) -> FileError {
    let mut e = FileError::new("measurements");
    e.add(line, why.to_string());
    e
}

/// Read a measurement file: `#` comment lines, the [`HEADER`], then one row per measured
/// point. Each non-empty metric column of a row is one cell.
pub fn parse(text: &str) -> Result<Vec<Measurement>, FileError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let end = text.lines().count() + 1;
    match rows.next() {
        Some((_, h)) if h.split(',').map(str::trim).eq(HEADER.split(',')) => {}
        Some((n, h)) => return Err(bad(n, format!("expected the header {HEADER}, found '{h}'"))),
        None => {
            return Err(bad(
                end,
                format!("expected the header {HEADER}, found no data"),
            ))
        }
    }
    let mut cells = Vec::new();
    for (n, row) in rows {
        cells.extend(parse_row(n, row)?);
    }
    if cells.is_empty() {
        return Err(bad(end, "no measurements after the header"));
    }
    Ok(cells)
}

fn parse_row(n: usize, row: &str) -> Result<Vec<Measurement>, FileError> {
    let f: Vec<&str> = row.split(',').map(str::trim).collect();
    let columns = HEADER.split(',').count();
    if f.len() != columns {
        return Err(bad(
            n,
            format!(
                "expected {columns} comma-separated fields ({HEADER}), found {}",
                f.len()
            ),
        ));
    }
    let whole = |i: usize, lo: u32, hi: u32| -> Result<u32, FileError> {
        f[i].parse::<u32>()
            .ok()
            .filter(|v| (lo..=hi).contains(v))
            .ok_or_else(|| {
                let name = HEADER.split(',').nth(i).unwrap_or("?");
                bad(
                    n,
                    format!("{name} '{}' is not a whole number in {lo}..={hi}", f[i]),
                )
            })
    };
    let capacity_gb = whole(0, 1, u32::MAX)?;
    let random = match f[1].to_ascii_lowercase().as_str() {
        "random" => true,
        "sequential" => false,
        other => {
            return Err(bad(
                n,
                format!("unknown workload '{other}' (expected random or sequential)"),
            ))
        }
    };
    let bs_bytes = parse_block_size(f[2]).map_err(|e| bad(n, e))?;
    let rwmixread = whole(3, 0, 100)? as u8;
    let depth = if f[4].eq_ignore_ascii_case("peak") {
        Depth::Peak
    } else {
        Depth::Iodepth(whole(4, 1, MAX_IODEPTH)?)
    };
    let rw = Rw::from_parts(random, rwmixread);
    let mut cells = Vec::new();
    for (i, (metric, name)) in Metric::COLUMNS.into_iter().enumerate() {
        let text = f[5 + i];
        if text.is_empty() {
            continue;
        }
        let value = text
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v > 0.0)
            .ok_or_else(|| bad(n, format!("{name} '{text}' is not a positive number")))?;
        cells.push(Measurement {
            capacity_gb: Some(capacity_gb),
            state: if rw.is_random() {
                DriveState::Steady
            } else {
                DriveState::SeqFilled
            },
            rw,
            rwmixread,
            bs_bytes,
            depth,
            metric,
            value,
        });
    }
    if cells.is_empty() {
        return Err(bad(n, "no measured value (iops, mb_s or lat_ms)"));
    }
    Ok(cells)
}

impl Measurement {
    pub fn label(&self) -> String {
        let depth = match self.depth {
            Depth::Iodepth(q) => format!("QD{q}"),
            Depth::Peak => "peak".to_string(),
            Depth::Rate { iops, iodepth } => format!("QD{iodepth} at {iops} IOPS"),
        };
        let mix = match self.rw.fixed_read_percent() {
            Some(_) => String::new(),
            None => format!(" {}% read", self.rwmixread),
        };
        let capacity = match self.capacity_gb {
            Some(gb) => format!("{gb} GB "),
            None => String::new(),
        };
        format!(
            "{capacity}{}{} {} KiB {} {}",
            self.rw.fio_name(),
            mix,
            self.bs_bytes / 1024,
            depth,
            self.metric.unit()
        )
    }

    /// The runs of this cell on `drive`'s controller and flash (one per queue depth of
    /// [`Depth::iodepths`]): at the cell's capacity, or with `drive`'s dies when it names none.
    /// Fails if the capacity cannot be built.
    pub fn specs(
        &self,
        drive: &DriveSpec,
        options: RunOptions,
    ) -> Result<Vec<StreamsSpec>, ConfigError> {
        let drive = match self.capacity_gb {
            Some(gb) => drive.with_capacity_gb(f64::from(gb))?,
            None => drive.clone(),
        };
        Ok(self
            .depth
            .iodepths()
            .iter()
            .map(|&iodepth| {
                let workload = Workload {
                    rw: self.rw,
                    rwmixread: self.rw.read_percent(self.rwmixread),
                    bs_bytes: self.bs_bytes,
                    iodepth,
                };
                let stream = match self.depth {
                    Depth::Rate { iops, .. } => {
                        Stream::at_rate(&workload, f64::from(iops), Spacing::Linear)
                    }
                    Depth::Iodepth(_) | Depth::Peak => Stream::closed(&workload),
                };
                // A cell's figure is a total: its runs keep no anatomy.
                StreamsSpec {
                    drive: drive.clone(),
                    streams: vec![stream],
                    state: self.state,
                    options: options.without_anatomy(),
                }
            })
            .collect())
    }

    /// [`specs`](Self::specs), checked. Fails if a run is not one the model takes.
    pub fn runs(
        &self,
        drive: &DriveSpec,
        options: RunOptions,
    ) -> Result<Vec<CheckedRun>, ConfigError> {
        self.specs(drive, options)?
            .into_iter()
            .map(StreamsSpec::check)
            .collect()
    }

    /// The cell's figure from the results of its [`runs`](Self::runs), in the same order.
    pub(crate) fn value_of<'r>(&self, results: impl IntoIterator<Item = &'r RunResult>) -> f64 {
        results
            .into_iter()
            .map(|r| self.metric.of(r))
            .reduce(|a, b| self.metric.best(a, b))
            .unwrap_or(f64::NAN)
    }

    /// What the model gives for this cell on `drive` (see [`specs`](Self::specs)).
    pub fn model_value(&self, drive: &DriveSpec, options: RunOptions) -> Result<f64, RunError> {
        let results = self
            .runs(drive, options)?
            .iter()
            .map(Simulation::run)
            .collect::<Result<Vec<RunResult>, _>>()?;
        Ok(self.value_of(&results))
    }
}

/// One line of the measured-versus-model table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub cell: String,
    pub measured: Measurement,
    pub model: f64,
    /// (model - measured) / measured.
    pub error: f64,
}

/// `drive`'s controller and flash against each of `cells`.
pub fn table_for(
    drive: &DriveSpec,
    cells: &[Measurement],
    options: RunOptions,
) -> Result<Vec<Row>, RunError> {
    cells
        .iter()
        .map(|m| {
            let model = m.model_value(drive, options)?;
            Ok(Row {
                cell: m.label(),
                measured: *m,
                model,
                error: model / m.value - 1.0,
            })
        })
        .collect()
}

/// The E18DC preset against every reference cell.
pub fn table(options: RunOptions) -> Result<Vec<Row>, RunError> {
    let preset = presets::lookup("e18dc")?;
    table_for(&preset.default_drive(), e18dc()?, options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_e18dc_file_has_23_cells_in_its_row_order() {
        let cells = e18dc().unwrap();
        assert_eq!(cells.len(), 23);
        let first = cells[0];
        assert_eq!(
            (first.capacity_gb, first.rw, first.bs_bytes, first.depth),
            (Some(480), Rw::RandRead, 4096, Depth::Iodepth(1))
        );
        assert_eq!((first.metric, first.value), (Metric::Iops, 13095.0));
        assert_eq!(cells[1].metric, Metric::LatencyMs);
        let peak = cells[21];
        assert_eq!(
            (peak.rw, peak.bs_bytes, peak.depth, peak.value),
            (Rw::Read, 128 * 1024, Depth::Peak, 7118.4)
        );
        // The article's text: "At QD1 all three read 128KiB blocks at 1,232.3 to
        // 1,345.7MB/s, with the 1,920GB drive the slowest."
        let qd1 = cells[22];
        assert_eq!(
            (qd1.capacity_gb, qd1.rw, qd1.depth, qd1.metric, qd1.value),
            (Some(1920), Rw::Read, Depth::Iodepth(1), Metric::MbS, 1232.3)
        );
    }

    #[test]
    fn a_mixed_row_is_randrw_with_its_read_share() {
        let cells = parse(&format!("{HEADER}\n960,random,8KiB,70,16,90000,,0.2\n")).unwrap();
        assert_eq!(cells.len(), 2);
        assert_eq!((cells[0].rw, cells[0].rwmixread), (Rw::RandRw, 70));
        assert_eq!(cells[0].bs_bytes, 8192);
        assert!(
            cells[0].label().contains("70% read"),
            "{}",
            cells[0].label()
        );
    }

    #[test]
    fn mistakes_name_their_line() {
        let h = HEADER;
        for (text, says) in [
            ("", (1, "expected the header")),
            ("# only a comment\n", (2, "expected the header")),
            ("capacity,workload\n", (1, "expected the header")),
            (&format!("{h}\n"), (2, "no measurements")),
            (
                &format!("# c\n{h}\n480,random,4KiB,100,1\n"),
                (3, "expected 8"),
            ),
            (
                &format!("{h}\n480,rand,4KiB,100,1,1,,\n"),
                (2, "unknown workload 'rand'"),
            ),
            (
                &format!("{h}\n480,random,3KiB,100,1,1,,\n"),
                (2, "block size"),
            ),
            (
                &format!("{h}\n480,random,4KiB,101,1,1,,\n"),
                (2, "read_pct '101'"),
            ),
            (&format!("{h}\n480,random,4KiB,100,0,1,,\n"), (2, "qd '0'")),
            (
                &format!("{h}\n-1,random,4KiB,100,1,1,,\n"),
                (2, "capacity_gb '-1'"),
            ),
            (
                &format!("{h}\n480,random,4KiB,100,1,1x,,\n"),
                (2, "iops '1x'"),
            ),
            (
                &format!("{h}\n480,random,4KiB,100,1,,NaN,\n"),
                (2, "mb_s 'NaN'"),
            ),
            (
                &format!("{h}\n480,random,4KiB,100,1,,,\n"),
                (2, "no measured value"),
            ),
        ] {
            let (line, says) = says;
            let err = parse(text).unwrap_err();
            assert_eq!(err.problems.len(), 1, "{err:?}");
            assert_eq!(err.problems[0].0, line, "{text:?}: {err:?}");
            assert!(err.problems[0].1.starts_with(says), "{text:?}: {err:?}");
            assert_eq!(
                err.to_string(),
                format!("measurements line {line}: {}", err.problems[0].1)
            );
        }
    }
}
