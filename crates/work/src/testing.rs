//! Requests for the tests of this crate: runs on the page's default drive (the E18DC at its
//! default capacity) with 4 KiB random I/O, and a small fit.

use parallelism_model::calibration::{Depth, Measurement, Metric};
use parallelism_model::presets::{self, PresetRef};
use parallelism_model::{DriveState, Rw};

use crate::fit::FitAsk;
use crate::key::{DriveChoice, RunKey};

/// The default view's readout point: random reads at QD32 on a steady-state drive.
pub fn key() -> RunKey {
    key_at(DriveState::Steady, 32, 100)
}

/// 4 KiB random I/O at `iodepth` with `read_pct` percent reads, on a drive in `state`.
pub fn key_at(state: DriveState, iodepth: u32, read_pct: u8) -> RunKey {
    let preset = presets::find("e18dc").expect("the E18DC preset");
    let rw = Rw::from_parts(true, read_pct);
    RunKey {
        preset: PresetRef::from(preset),
        drive: DriveChoice::default_for(preset),
        rw,
        read_pct: rw.fixed_read_percent().unwrap_or(read_pct),
        bs_bytes: 4096,
        iodepth,
        state,
        power_state: 0,
        load: crate::key::Load::Depth,
    }
}

/// A fit a drive on the E12's controller answers quickly: QD1 and QD32 random reads, read
/// from a fresh drive with 16 dies.
pub fn fit_ask() -> FitAsk {
    let cell = |iodepth, iops| Measurement {
        capacity_gb: None,
        state: DriveState::Fob,
        rw: Rw::RandRead,
        rwmixread: 100,
        bs_bytes: 4096,
        depth: Depth::Iodepth(iodepth),
        metric: Metric::Iops,
        value: iops,
    };
    FitAsk {
        base: "e12".into(),
        dies: Some(16),
        cells: vec![cell(1, 12_000.0), cell(32, 300_000.0)],
    }
}
