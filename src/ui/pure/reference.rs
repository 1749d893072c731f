//! The published measurements the page shows beside the model: which of the model's
//! [`calibration::cells`] belong to what the reader is looking at.
//!
//! What always holds: a measurement is only matched to a drive the preset lists at that
//! capacity, built from the preset's own part, with the same access pattern and block size, so
//! a marker never sits on a curve it was not measured for. Every value shown from here is
//! labelled as measured and cites [`calibration::SOURCE`].

use crate::model::calibration::{self, Depth, Measurement, Metric, PEAK_IODEPTHS};
use crate::model::config::DriveState;

use crate::ui::pure::state::{DriveChoice, LabState};

/// The preset whose measurements are published.
pub const MEASURED_PRESET: &str = "e18dc";

/// Where the published figures come from.
pub fn source() -> &'static str {
    calibration::SOURCE
}

/// One published figure, placed on a drive the page compares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    pub drive: DriveChoice,
    pub cell: Measurement,
}

impl Measured {
    /// The state the drive was preconditioned into before the measurement.
    pub fn state(&self) -> DriveState {
        self.cell.state
    }

    /// The depths this figure stands for: one depth, or the range a "peak" was taken over.
    pub fn depths(&self) -> (u32, u32) {
        match self.cell.depth {
            Depth::Iodepth(q) | Depth::Rate { iodepth: q, .. } => (q, q),
            Depth::Peak => (PEAK_IODEPTHS[0], PEAK_IODEPTHS[PEAK_IODEPTHS.len() - 1]),
        }
    }

    /// Whether this figure was measured at queue depth `iodepth` (a peak counts for its range).
    pub fn covers_iodepth(&self, iodepth: u32) -> bool {
        match self.cell.depth {
            Depth::Iodepth(q) => q == iodepth,
            Depth::Peak => PEAK_IODEPTHS.contains(&iodepth),
            // An open loop's figure is not a point of a closed-loop depth sweep.
            Depth::Rate { .. } => false,
        }
    }

    /// The figure as IOPS or MB/s (converted with the block size when it was published in
    /// the other unit); `None` for latency cells.
    pub fn throughput(&self, in_mb: bool) -> Option<f64> {
        let bs_mb = f64::from(self.cell.bs_bytes) / 1e6;
        match (self.cell.metric, in_mb) {
            (Metric::Iops, false) | (Metric::MbS, true) => Some(self.cell.value),
            (Metric::Iops, true) => Some(self.cell.value * bs_mb),
            (Metric::MbS, false) => Some(self.cell.value / bs_mb),
            (Metric::LatencyMs, _) => None,
        }
    }

    /// Mean latency in microseconds, for latency cells.
    pub fn latency_us(&self) -> Option<f64> {
        const US_PER_MS: f64 = 1e3;
        (self.cell.metric == Metric::LatencyMs).then_some(self.cell.value * US_PER_MS)
    }
}

/// The published figures for the compared drives with the state's pattern and block size.
pub fn for_state(state: &LabState) -> Vec<Measured> {
    if state.drive.preset().id != MEASURED_PRESET {
        return Vec::new();
    }
    // Unreadable built-in measurements (the model's tests hold the file to its format) leave
    // the model's curves alone, as a preset without measurements does.
    let Ok(cells) = calibration::cells() else {
        return Vec::new();
    };
    let drives = state.drive.comparison_drives();
    cells
        .filter(|c| c.bs_bytes == state.workload.bs_bytes())
        .filter_map(|cell| {
            let dies = state
                .drive
                .preset()
                .dies_for_capacity_gb(f64::from(cell.capacity_gb?))
                .ok()?;
            let drive = DriveChoice {
                dies,
                die_gbit: state.drive.preset().nand.die_gbit,
            };
            drives.contains(&drive).then_some(Measured { drive, cell })
        })
        .collect()
}

/// Figures with exactly the state's pattern (for the queue-depth and latency charts).
pub fn same_pattern(state: &LabState) -> Vec<Measured> {
    for_state(state)
        .into_iter()
        .filter(|m| m.cell.rw == state.workload.rw())
        .collect()
}

/// Figures for the read-share chart: the same randomness at the state's depth (published
/// cells are all reads or all writes, so they sit at 100% or 0%).
pub fn for_mix(state: &LabState) -> Vec<Measured> {
    for_state(state)
        .into_iter()
        .filter(|m| {
            m.cell.rw.is_random() == state.workload.random()
                && m.covers_iodepth(state.workload.iodepth())
        })
        .collect()
}

/// Figures for exactly the readout's point.
pub fn for_current_point(state: &LabState) -> Vec<Measured> {
    same_pattern(state)
        .into_iter()
        .filter(|m| m.drive == state.drive.choice() && m.covers_iodepth(state.workload.iodepth()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::config::Rw;
    use crate::model::presets;

    #[test]
    fn the_default_view_shows_the_published_random_reads_at_480_and_1920_gb() {
        let s = LabState::default();
        let m = same_pattern(&s);
        assert!(!m.is_empty());
        assert!(m.iter().all(|m| m.cell.rw == Rw::RandRead));
        let caps: std::collections::HashSet<u32> =
            m.iter().filter_map(|m| m.cell.capacity_gb).collect();
        assert_eq!(caps, [480, 1920].into());
    }

    #[test]
    fn the_readout_point_at_qd32_has_its_published_figure() {
        let s = LabState::default();
        let m = for_current_point(&s);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].throughput(false), Some(263_839.0));
    }

    #[test]
    fn other_presets_and_other_patterns_show_no_measurements() {
        let mut s = LabState::default();
        s.workload.set_read_pct(70);
        assert!(same_pattern(&s).is_empty(), "no mixed cells were published");
        s.drive.set_preset(presets::find("e12").unwrap());
        assert!(for_state(&s).is_empty());
    }

    #[test]
    fn a_custom_die_density_is_not_matched_to_a_measurement() {
        let mut s = LabState::default();
        s.drive.set_hold(crate::ui::pure::state::Hold::Capacity);
        s.drive.set_dies(64);
        assert!(for_current_point(&s).is_empty());
    }

    #[test]
    fn sequential_peaks_cover_their_depth_range_and_convert_units() {
        let mut s = LabState::default();
        s.workload.set_random(false);
        s.workload.set_bs_bytes(128 << 10);
        s.workload.set_iodepth(64);
        let m = for_current_point(&s);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].depths(), (32, 256));
        let mb = m[0].throughput(true).unwrap();
        assert!((mb - 7118.4).abs() < 1e-9);
        let iops = m[0].throughput(false).unwrap();
        assert!((iops * 131_072.0 / 1e6 - mb).abs() < 1e-6);
    }
}
