//! The vendors' spec-sheet peaks of the consumer presets, and the model's fresh drive against
//! them.
//!
//! Spec peaks are claims for a fresh drive writing into its SLC cache (Phison's spec sheets, as
//! \[REF2\] in [`super::presets`] cites them): 128 KiB sequential reads and writes at QD32, and
//! 4 KiB random reads and writes at the best queue depth up to 256. The model meets each within
//! [`SPEC_TOLERANCE`], or [`BEYOND_THE_MODEL`] names the modelled part that makes the figure
//! unreachable and why that part is right; a test holds both, so an explanation cannot outlive
//! the miss it explains.

use serde::Serialize;

use super::presets::Preset;
use crate::config::{DriveState, Figure, RunOptions, RunSpec, Workload};
use crate::Simulation;

/// How far the model may be from a spec peak.
pub const SPEC_TOLERANCE: f64 = 0.15;
/// Queue depths searched for a random-I/O peak.
pub const PEAK_IODEPTHS: [u32; 4] = [32, 64, 128, 256];
const SEQ_IODEPTH: u32 = 32;
const SEQ_BS: u32 = 128 * 1024;
const RANDOM_BS: u32 = 4096;

/// Spec figures the model does not reach, with the modelled part responsible and why it stays.
pub const BEYOND_THE_MODEL: [(&str, Figure, &str); 1] = [(
    "e8",
    Figure::RandRead,
    "The E8 has no DRAM: its mapping table is cached in a 32 MiB host memory buffer that covers \
     32 GiB, so random reads over a whole 480 GB drive miss it nine times in ten and pay a flash \
     read for the mapping first. Spec sheets measure random reads over a small span that the \
     buffer covers; the lab's runs span the whole drive.",
)];

/// The model against one spec figure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SpecRow {
    pub figure: Figure,
    pub capacity_gb: f64,
    pub spec: f64,
    pub model: f64,
    /// `model / spec - 1`.
    pub err: f64,
    /// Why the model stays short of this figure, when it does.
    pub beyond_model: Option<&'static str>,
}

/// The model's fresh drive at the preset's largest listed capacity against its spec peaks
/// (`None` for a preset without published peaks).
pub fn compare(preset: &Preset, options: RunOptions) -> Option<Vec<SpecRow>> {
    let peaks = preset.spec_peaks?;
    let drive = preset
        .drive_for_capacity_gb(f64::from(preset.default_capacity_gb()))
        .ok()?;
    let rows = Figure::ALL
        .into_iter()
        .map(|figure| {
            let rw = figure.rw();
            let (bs_bytes, iodepths): (u32, &[u32]) = if rw.is_random() {
                (RANDOM_BS, &PEAK_IODEPTHS)
            } else {
                (SEQ_BS, &[SEQ_IODEPTH])
            };
            let model = iodepths
                .iter()
                .filter_map(|&iodepth| {
                    let run = RunSpec {
                        drive: drive.clone(),
                        workload: Workload {
                            rw,
                            rwmixread: rw.fixed_read_percent().unwrap_or(100),
                            bs_bytes,
                            iodepth,
                        },
                        state: DriveState::Fob,
                        options: options.without_anatomy(),
                    }
                    .check()
                    .ok()?;
                    // A stalled run gives no figure, as a refused one does.
                    let r = Simulation::run(&run).ok()?;
                    Some(if rw.is_random() { r.iops } else { r.bw_mb_s })
                })
                .fold(0.0, f64::max);
            let spec = peaks.get(figure);
            SpecRow {
                figure,
                capacity_gb: drive.user_gb(),
                spec,
                model,
                err: model / spec - 1.0,
                beyond_model: BEYOND_THE_MODEL
                    .iter()
                    .find(|(id, f, _)| *id == preset.id && *f == figure)
                    .map(|(_, _, why)| *why),
            }
        })
        .collect();
    Some(rows)
}
