//! Keys for the tests of this crate: the page's default drive (the E18DC at its default
//! capacity) with 4 KiB random I/O.

use parallelism_model::presets::{self, PresetKey};
use parallelism_model::{DriveState, Rw};

use crate::key::{DriveChoice, RunKey};

/// The default view's readout point: random reads at QD32 on a steady-state drive.
pub fn key() -> RunKey {
    key_at(DriveState::Steady, 32, 100)
}

/// 4 KiB random I/O at `qd` with `read_pct` percent reads, on a drive in `state`.
pub fn key_at(state: DriveState, qd: u32, read_pct: u8) -> RunKey {
    let preset = presets::find("e18dc").expect("the E18DC preset");
    let rw = Rw::from_parts(true, read_pct);
    RunKey {
        preset: PresetKey(preset),
        drive: DriveChoice::default_for(preset),
        rw,
        read_pct: rw.fixed_read_percent().unwrap_or(read_pct),
        bs_bytes: 4096,
        qd,
        state,
        power_state: 0,
    }
}
