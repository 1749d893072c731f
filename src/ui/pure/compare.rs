//! Compare: a [`Pin`] is one configuration (controller, drive, pattern, read share, block size,
//! drive state) kept as a curve on the charts while the reader moves the sliders on. Pure Rust,
//! tested natively; [`crate::ui::pure::state::LabState`] holds the pins and [`crate::ui::pure::url_state`] writes
//! them as the `compare=` parameter.
//!
//! The `compare=` syntax is compact and stable so authors can write it by hand: pins separated
//! by `,`, each pin's fields separated by `.`, in this order:
//!
//! ```text
//! preset . dies[xGbit] . rw[mix] . bs . state
//! e18dc  . 8x512       . randread . 4k . steady      (the 480 GB E18DC, 4 KiB random reads)
//! e12    . 16          . randrw70 . 4k . fob         (16 dies of the preset's own part, 70% reads)
//! ```
//!
//! `dies` alone means dies of the preset's own NAND part; `xGbit` picks another density.
//! Mixed patterns (`randrw`, `rw`) carry their read share as a number right after the name.
//!
//! What always holds: a pin is built through [`LabState`]'s setters, so every pin is a valid
//! configuration of the model (the same clamping and snapping as the sliders); parsing a pin
//! never panics and either gives a pin or says what is wrong; [`Pin::code`] and [`Pin::parse`]
//! round-trip.

use crate::model::config::{format_block_size, parse_block_size, DriveState, Rw};
use crate::model::presets;

use crate::ui::pure::state::{custom, DriveChoice, LabState, BLOCK_SIZES, DIE_DENSITIES_GBIT};
pub use crate::ui::pure::state::{Pin, PinRefused, MAX_PINS};

/// Separates pins in `compare=`.
pub const PIN_SEPARATOR: char = ',';
/// Separates a pin's fields.
pub const FIELD_SEPARATOR: char = '.';
/// Capacities of the one-click E18DC family, in GB.
pub const FAMILY_CAPACITIES_GB: [u32; 3] = [480, 960, 1920];
/// The preset of the one-click family.
pub const FAMILY_PRESET: &str = "e18dc";
/// Fields of a pin.
const FIELDS: usize = 5;

impl Pin {
    /// The configuration `state` shows now.
    pub fn of(state: &LabState) -> Pin {
        Pin {
            preset: state.drive.preset().clone(),
            drive: state.drive.choice(),
            random: state.workload.random(),
            read_pct: state.workload.read_pct(),
            bs_bytes: state.workload.bs_bytes(),
            drive_state: state.workload.drive_state(),
        }
    }

    /// `state` with this pin's configuration (queue depth and view settings stay `state`'s).
    pub fn apply(&self, state: &LabState) -> LabState {
        let mut s = state.clone();
        s.drive.set_preset(self.preset.clone());
        let _ = s.drive.set_choice(self.drive);
        s.workload.set_random(self.random);
        s.workload.set_read_pct(u32::from(self.read_pct));
        s.workload.set_bs_bytes(self.bs_bytes);
        s.workload.set_drive_state(self.drive_state);
        s
    }

    pub fn rw(&self) -> Rw {
        Rw::from_parts(self.random, self.read_pct)
    }

    /// The pin in `compare=` syntax.
    pub fn code(&self) -> String {
        let rw = self.rw();
        let mix = if rw.fixed_read_percent().is_none() {
            self.read_pct.to_string()
        } else {
            String::new()
        };
        let density = if self.drive.die_gbit == self.preset.nand.die_gbit {
            String::new()
        } else {
            format!("x{}", self.drive.die_gbit)
        };
        [
            self.preset.id.to_string(),
            format!("{}{density}", self.drive.dies),
            format!("{}{mix}", rw.fio_name()),
            format_block_size(self.bs_bytes),
            self.drive_state.id().to_string(),
        ]
        .join(&FIELD_SEPARATOR.to_string())
    }

    /// A short label for the legend, e.g. `E18DC 480 GB, randread 4 KiB, steady state`.
    pub fn label(&self) -> String {
        let gb = self.drive.capacity_gb(&self.preset);
        let rw = self.rw();
        let mix = if rw.fixed_read_percent().is_none() {
            format!(" {}% reads", self.read_pct)
        } else {
            String::new()
        };
        format!(
            "{} {} ({} dies), {}{mix} {}, {}",
            self.preset.controller.name,
            crate::ui::pure::format::gb(gb),
            self.drive.dies,
            rw.fio_name(),
            crate::ui::pure::format::block_size(self.bs_bytes),
            self.drive_state.label()
        )
    }

    /// Reads one pin in `compare=` syntax.
    pub fn parse(code: &str) -> Result<Pin, String> {
        let fields: Vec<&str> = code.split(FIELD_SEPARATOR).map(str::trim).collect();
        if fields.len() != FIELDS {
            return Err(format!(
                "a pin has {FIELDS} fields separated by '{FIELD_SEPARATOR}' \
                 (preset.dies.rw.bs.state, e.g. e18dc.8.randread.4k.steady), this has {}",
                fields.len()
            ));
        }
        let preset = custom::lookup(fields[0]).map_err(|e| e.to_string())?;
        let (dies, density) = match fields[1].split_once('x') {
            Some((d, g)) => (d, Some(g)),
            None => (fields[1], None),
        };
        let dies: u32 = dies
            .parse()
            .map_err(|_| format!("the die count '{dies}' is not a whole number"))?;
        let die_gbit = match density {
            None => preset.nand.die_gbit,
            Some(g) => g
                .parse()
                .ok()
                .filter(|g| DIE_DENSITIES_GBIT.contains(g))
                .ok_or_else(|| {
                    format!(
                        "the die density '{g}' is not one of {} Gbit",
                        DIE_DENSITIES_GBIT.map(|g| g.to_string()).join(", ")
                    )
                })?,
        };
        let name_end = fields[2]
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(fields[2].len());
        let (rw_name, mix) = fields[2].split_at(name_end);
        let rw = rw_name.parse::<Rw>().map_err(|e| e.to_string())?;
        let read_pct = match (rw.fixed_read_percent(), mix) {
            (Some(p), "") => p,
            (Some(_), _) => return Err(format!("{rw_name} takes no read share")),
            (None, "") => return Err(format!("{rw_name} needs a read share, e.g. {rw_name}70")),
            (None, m) => m
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= crate::ui::pure::state::ALL_READS_PCT)
                .ok_or_else(|| format!("the read share '{m}' is not 0 to 100"))?,
        };
        let bs_bytes = parse_block_size(fields[3]).map_err(|e| e.to_string())?;
        if !BLOCK_SIZES.contains(&bs_bytes) {
            return Err(format!(
                "the block size '{}' is not on the slider",
                fields[3]
            ));
        }
        let drive_state = fields[4].parse::<DriveState>().map_err(|e| e.to_string())?;
        let mut s = LabState::default();
        s.drive.set_preset(preset);
        s.drive
            .set_choice(DriveChoice { dies, die_gbit })
            .map_err(|e| e.to_string())?;
        s.workload.set_random(rw.is_random());
        s.workload.set_read_pct(u32::from(read_pct));
        s.workload.set_bs_bytes(bs_bytes);
        s.workload.set_drive_state(drive_state);
        let pin = Pin::of(&s);
        if pin.read_pct != read_pct {
            return Err(format!(
                "the read share {read_pct} is not a step of the slider"
            ));
        }
        Ok(pin)
    }

    /// The one-click family: the E18DC at 480, 960 and 1,920 GB with `state`'s workload.
    pub fn family(state: &LabState) -> Vec<Pin> {
        let Some(preset) = presets::find(FAMILY_PRESET) else {
            return Vec::new();
        };
        FAMILY_CAPACITIES_GB
            .iter()
            .filter_map(|&gb| preset.dies_for_capacity_gb(f64::from(gb)).ok())
            .map(|dies| Pin {
                preset: preset.into(),
                drive: DriveChoice {
                    dies,
                    die_gbit: preset.nand.die_gbit,
                },
                ..Pin::of(state)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pins_round_trip_through_their_code() {
        let mut s = LabState::default();
        let p = Pin::of(&s);
        assert_eq!(p.code(), "e18dc.32.randread.4k.steady");
        assert_eq!(Pin::parse(&p.code()), Ok(p));
        s.drive.set_preset(presets::find("e12").unwrap());
        s.workload.set_random(false);
        s.workload.set_read_pct(70);
        s.workload.set_bs_bytes(128 << 10);
        s.workload.set_drive_state(DriveState::Fob);
        let _ = s.drive.set_choice(DriveChoice {
            dies: 12,
            die_gbit: 1024,
        });
        let p = Pin::of(&s);
        assert_eq!(p.code(), "e12.12x1024.rw70.128k.fob");
        assert_eq!(Pin::parse(&p.code()), Ok(p.clone()));
        assert_eq!(p.apply(&LabState::default()).drive.choice(), p.drive);
    }

    #[test]
    fn bad_pins_say_what_is_wrong() {
        for (code, says) in [
            ("", "5 fields"),
            ("e18dc.8.randread.4k", "5 fields"),
            ("e99.8.randread.4k.steady", "e99"),
            ("e18dc.lots.randread.4k.steady", "not a whole number"),
            ("e18dc.0.randread.4k.steady", "die count"),
            ("e18dc.8x300.randread.4k.steady", "density"),
            ("e18dc.8.scan.4k.steady", "unknown pattern"),
            ("e18dc.8.randrw.4k.steady", "needs a read share"),
            ("e18dc.8.randrw101.4k.steady", "not 0 to 100"),
            ("e18dc.8.randrw75.4k.steady", "not a step"),
            ("e18dc.8.randread70.4k.steady", "takes no read share"),
            ("e18dc.8.randread.12k.steady", "not on the slider"),
            ("e18dc.8.randread.4k.new", "unknown drive state"),
        ] {
            let e = Pin::parse(code).unwrap_err();
            assert!(e.contains(says), "{code}: {e}");
        }
    }

    #[test]
    fn the_family_is_three_e18dc_capacities_with_the_current_workload() {
        let mut s = LabState::default();
        s.workload.set_iodepth(4);
        s.workload.set_read_pct(0);
        let fam = Pin::family(&s);
        let caps: Vec<u32> = fam
            .iter()
            .map(|p| p.drive.capacity_gb(&p.preset).round() as u32)
            .collect();
        assert_eq!(caps, FAMILY_CAPACITIES_GB.to_vec());
        assert!(fam.iter().all(|p| p.rw() == Rw::RandWrite));
    }
}
