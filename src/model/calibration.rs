//! The published measurements the model is judged against, and the model's error on each.
//!
//! Data: `shared/reference/e18dc-calibration.csv`, copied here with its source line so the lab
//! never reads outside its own files. Phison E18DC enterprise NVMe engineering sample, PCIe 4.0
//! x4, measured with Iometer; same controller and firmware at each capacity, only the flash
//! changes. 4 KiB cells follow a 3-hour 4 KiB random-write precondition (the model's
//! [`DriveState::Steady`]); 128 KiB cells follow a sequential precondition
//! ([`DriveState::SeqFilled`]). QD is the total number of I/Os in flight.

use serde::Serialize;

use super::config::{DriveState, RunOptions, Rw, Workload};
use super::engine::Simulation;
use super::presets;

/// Where the reference figures come from, for every place that shows them.
pub const SOURCE: &str =
    "Phison E18DC engineering sample, Iometer (shared/reference/e18dc-calibration.csv)";

/// What a measured cell reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    Iops,
    MbPerS,
    LatencyMs,
}

impl Metric {
    pub fn unit(self) -> &'static str {
        match self {
            Metric::Iops => "IOPS",
            Metric::MbPerS => "MB/s",
            Metric::LatencyMs => "ms",
        }
    }
}

/// The queue depth of a cell: a number, or "peak" (the best over deep queue depths).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Depth {
    Qd(u32),
    Peak,
}

/// Queue depths searched for a "peak" cell.
pub const PEAK_QDS: [u32; 4] = [32, 64, 128, 256];

/// One published figure.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Measurement {
    pub capacity_gb: u32,
    pub rw: Rw,
    pub bs_bytes: u32,
    pub depth: Depth,
    pub metric: Metric,
    pub value: f64,
}

const fn cell(capacity_gb: u32, rw: Rw, depth: Depth, metric: Metric, value: f64) -> Measurement {
    let bs_bytes = if matches!(rw, Rw::Read | Rw::Write) {
        128 * 1024
    } else {
        4096
    };
    Measurement {
        capacity_gb,
        rw,
        bs_bytes,
        depth,
        metric,
        value,
    }
}

use Depth::{Peak, Qd};
use Metric::{Iops, LatencyMs, MbPerS};

/// Every cell of `e18dc-calibration.csv` (IOPS, MB/s and average latency given there).
pub const E18DC: [Measurement; 21] = [
    cell(480, Rw::RandRead, Qd(1), Iops, 13095.0),
    cell(480, Rw::RandRead, Qd(1), LatencyMs, 0.075),
    cell(480, Rw::RandRead, Qd(32), Iops, 132340.0),
    cell(480, Rw::RandRead, Qd(256), Iops, 264124.0),
    cell(480, Rw::RandRead, Qd(256), LatencyMs, 0.969),
    cell(1920, Rw::RandRead, Qd(1), Iops, 13078.0),
    cell(1920, Rw::RandRead, Qd(1), LatencyMs, 0.076),
    cell(1920, Rw::RandRead, Qd(32), Iops, 263839.0),
    cell(1920, Rw::RandRead, Qd(256), Iops, 646007.0),
    cell(1920, Rw::RandRead, Qd(256), LatencyMs, 0.396),
    cell(480, Rw::RandWrite, Qd(1), Iops, 17825.0),
    cell(480, Rw::RandWrite, Qd(256), Iops, 18440.0),
    cell(480, Rw::RandWrite, Qd(256), LatencyMs, 13.882),
    cell(1920, Rw::RandWrite, Qd(1), Iops, 48271.0),
    cell(1920, Rw::RandWrite, Qd(256), Iops, 48522.0),
    cell(1920, Rw::RandWrite, Qd(256), LatencyMs, 5.276),
    cell(480, Rw::Write, Qd(1), MbPerS, 368.1),
    cell(480, Rw::Write, Qd(256), MbPerS, 369.3),
    cell(1920, Rw::Write, Qd(1), MbPerS, 1600.8),
    cell(1920, Rw::Write, Qd(256), MbPerS, 1605.8),
    cell(480, Rw::Read, Qd(128), MbPerS, 4169.4),
];

/// The 1,920 GB sequential-read peak, kept apart from [`E18DC`] only because arrays of
/// different lengths cannot be concatenated in a const; [`cells`] joins them.
const E18DC_PEAK: Measurement = cell(1920, Rw::Read, Peak, MbPerS, 7118.4);

/// All E18DC reference cells.
pub fn cells() -> impl Iterator<Item = Measurement> {
    E18DC.into_iter().chain(std::iter::once(E18DC_PEAK))
}

impl Measurement {
    /// The drive state the measurement was preconditioned into.
    pub fn state(&self) -> DriveState {
        if self.rw.is_random() {
            DriveState::Steady
        } else {
            DriveState::SeqFilled
        }
    }

    pub fn label(&self) -> String {
        let depth = match self.depth {
            Qd(q) => format!("QD{q}"),
            Peak => "peak".to_string(),
        };
        format!(
            "{} GB {} {} KiB {} {}",
            self.capacity_gb,
            self.rw.fio_name(),
            self.bs_bytes / 1024,
            depth,
            self.metric.unit()
        )
    }

    fn pick(&self, r: &crate::model::RunResult) -> f64 {
        match self.metric {
            Iops => r.iops,
            MbPerS => r.bw_mb_s,
            LatencyMs => r.latency.mean_us / 1e3,
        }
    }

    /// What the model gives for this cell.
    pub fn model_value(&self, options: RunOptions) -> f64 {
        let preset = presets::find("e18dc").expect("the E18DC preset exists");
        let drive = preset
            .drive_for_capacity_gb(f64::from(self.capacity_gb))
            .expect("reference capacities are valid");
        let qds: &[u32] = match self.depth {
            Qd(q) => &[q],
            Peak => &PEAK_QDS,
        };
        qds.iter()
            .map(|&iodepth| {
                let workload = Workload {
                    rw: self.rw,
                    rwmixread: self.rw.fixed_read_percent().unwrap_or(100),
                    bs_bytes: self.bs_bytes,
                    iodepth,
                };
                let run = super::sweep::spec(&drive, workload, self.state(), options)
                    .check()
                    .expect("reference cells are valid runs");
                self.pick(&Simulation::run(&run))
            })
            .fold(f64::NEG_INFINITY, f64::max)
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

/// The model against every reference cell.
pub fn table(options: RunOptions) -> Vec<Row> {
    cells()
        .map(|m| {
            let model = m.model_value(options);
            Row {
                cell: m.label(),
                measured: m,
                model,
                error: model / m.value - 1.0,
            }
        })
        .collect()
}
