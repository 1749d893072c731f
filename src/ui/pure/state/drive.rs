//! [`DriveSetup`]: the drive part of the lab's state: the controller preset, the drive behind it
//! (a die count and a die density) and which of capacity, die count and density stays put when
//! the reader moves another.
//!
//! What always holds (private fields; every setter clamps or snaps instead of failing):
//! - the preset is one of [`presets::all`] or a drive of the reader's own made by
//!   [`crate::model::custom::CustomDrive::preset`];
//! - `dies` is within `1..=MAX_DIES` and `die_gbit` is one of [`DIE_DENSITIES_GBIT`], so the
//!   drive always passes the model's checks.
//!
//! Capacity is never stored: it is `dies × die density × the controller's user fraction`, as in
//! the model. [`Hold`] says which of the three stays put, so a reader can hold the capacity and
//! vary the die count (the density follows) to isolate what parallelism alone does.

use crate::model::config::PowerLimit;
use crate::model::config::{DriveSpec, MAX_DIES};
use crate::model::presets::{self, PresetRef};

use crate::ui::pure::ladder::Ladder;

/// The preset a fresh page shows: the drive with published measurements at three capacities.
pub const DEFAULT_PRESET: &str = "e18dc";
/// The die densities (Gbit) a reader can get by holding capacity or die count fixed; each
/// preset's own part is one of them.
pub const DIE_DENSITIES_GBIT: [u32; 7] = [32, 64, 128, 256, 512, 1024, 2048];

/// Which quantity stays fixed when the reader moves capacity or die count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Hold {
    /// The NAND part stays: capacity follows the die count and the reverse.
    #[default]
    Density,
    /// Capacity stays: more dies means smaller dies.
    Capacity,
    /// The die count stays: more capacity means denser dies.
    Dies,
}

crate::model::named_enum!(Hold, "hold", id, {
    Density => "density",
    Capacity => "cap",
    Dies => "dies",
});

impl Hold {
    /// What the radio button says.
    pub fn label(self) -> &'static str {
        match self {
            Hold::Density => "die density (the NAND part)",
            Hold::Capacity => "capacity",
            Hold::Dies => "die count",
        }
    }
}

pub use parallelism_work::DriveChoice;

/// The drive part of the state. See the module documentation for what always holds.
#[derive(Clone, Debug, PartialEq)]
pub struct DriveSetup {
    preset: PresetRef,
    choice: DriveChoice,
    hold: Hold,
    /// The active NVMe power state the drive is held to (0: PS0, the default).
    power_state: u8,
}

impl Default for DriveSetup {
    fn default() -> Self {
        let preset = presets::find(DEFAULT_PRESET).unwrap_or(&presets::all()[0]);
        DriveSetup {
            preset: PresetRef::from(preset),
            choice: DriveChoice::default_for(preset),
            hold: Hold::default(),
            power_state: 0,
        }
    }
}

impl DriveSetup {
    pub fn preset(&self) -> &PresetRef {
        &self.preset
    }
    pub fn choice(&self) -> DriveChoice {
        self.choice
    }
    pub fn dies(&self) -> u32 {
        self.choice.dies
    }
    pub fn die_gbit(&self) -> u32 {
        self.choice.die_gbit
    }
    pub fn hold(&self) -> Hold {
        self.hold
    }
    /// The active power state the drive is held to (`PS<n>`).
    pub fn power_state(&self) -> u8 {
        self.power_state
    }

    /// How many active power states the preset publishes (0: no table).
    pub fn active_power_states(&self) -> u8 {
        let states = self.preset.controller.power.states;
        u8::try_from(states.iter().filter(|s| s.idle.is_none()).count()).unwrap_or(u8::MAX)
    }

    /// The budget the model keeps to beyond its default (PS0): `None` in PS0.
    pub fn power_limit(&self) -> Option<PowerLimit> {
        (self.power_state > 0).then_some(PowerLimit::State(self.power_state))
    }

    /// The maximum of the state the drive is held to, in watts, when the preset has a table.
    pub fn power_budget_w(&self) -> Option<f64> {
        self.preset
            .controller
            .power
            .states
            .get(usize::from(self.power_state))
            .map(|s| s.max_w)
    }

    /// Holds the drive to active power state `state`, snapped to the states the preset has (PS0
    /// without a table).
    pub fn set_power_state(&mut self, state: u32) {
        let top = u32::from(self.active_power_states().saturating_sub(1));
        self.power_state = u8::try_from(state.min(top)).unwrap_or(0);
    }

    /// The model's drive.
    pub fn spec(&self) -> DriveSpec {
        self.choice.drive(&self.preset)
    }

    /// The drive as the views' headings name it: "Phison E12 (consumer, PCIe 3.0), 960 GB (32
    /// dies)".
    pub fn label(&self) -> String {
        format!(
            "{}, {} ({} dies)",
            self.preset().name,
            crate::ui::pure::format::gb(self.capacity_gb()),
            self.dies()
        )
    }

    /// User capacity in GB.
    pub fn capacity_gb(&self) -> f64 {
        self.choice.capacity_gb(&self.preset)
    }

    /// Whether the drive differs from every capacity the preset lists (an "unlisted capacity").
    pub fn is_unlisted(&self) -> bool {
        !self.choice.is_listed(&self.preset)
    }

    /// The die counts the dies slider offers: any count, or with capacity held only the counts
    /// whose density is one of [`DIE_DENSITIES_GBIT`].
    pub fn dies_ladder(&self) -> Ladder {
        let raw = self.choice.raw_gbit();
        match self.hold {
            Hold::Capacity => Ladder::new(
                DIE_DENSITIES_GBIT
                    .iter()
                    .filter(|&&g| raw.is_multiple_of(g))
                    .map(|&g| raw / g)
                    .filter(|d| (1..=MAX_DIES).contains(d)),
                self.choice.dies,
            ),
            Hold::Density | Hold::Dies => Ladder::new(1..=MAX_DIES, self.choice.dies),
        }
    }

    /// The raw capacities (Gbit) the capacity slider offers: multiples of the die with the
    /// density held, or the current die count times each density with the die count held.
    pub fn capacity_ladder(&self) -> Ladder {
        let raw = self.choice.raw_gbit();
        match self.hold {
            Hold::Density => Ladder::new((1..=MAX_DIES).map(|d| d * self.choice.die_gbit), raw),
            Hold::Dies => Ladder::new(DIE_DENSITIES_GBIT.iter().map(|g| g * self.choice.dies), raw),
            Hold::Capacity => Ladder::new([raw], raw),
        }
    }

    /// User GB of `raw_gbit` of this preset's flash (for the capacity slider's labels).
    pub fn gb_for_raw_gbit(&self, raw_gbit: u32) -> f64 {
        f64::from(raw_gbit) / f64::from(self.preset.nand.die_gbit) * self.preset.gb_per_die()
    }

    /// The drives the charts compare: the preset's listed capacities built from its own part,
    /// smallest first, then the current drive if it is not one of them.
    pub fn comparison_drives(&self) -> Vec<DriveChoice> {
        let mut drives: Vec<DriveChoice> = self
            .preset
            .capacities_gb
            .iter()
            .filter_map(|&gb| self.preset.dies_for_capacity_gb(f64::from(gb)).ok())
            .map(|dies| DriveChoice {
                dies,
                die_gbit: self.preset.nand.die_gbit,
            })
            .collect();
        drives.dedup();
        if !drives.contains(&self.choice) {
            drives.push(self.choice);
        }
        drives
    }

    /// Switches the controller; the drive becomes the preset's default capacity.
    pub fn set_preset(&mut self, preset: impl Into<PresetRef>) {
        let preset = preset.into();
        if self.preset != preset {
            self.choice = DriveChoice::default_for(&preset);
            self.preset = preset;
            self.power_state = 0;
        }
    }

    /// Sets the die count. With capacity held the density follows (snapping to the nearest
    /// count that keeps the capacity); with the die count held nothing changes.
    pub fn set_dies(&mut self, dies: u32) {
        match self.hold {
            Hold::Dies => {}
            Hold::Density => self.choice.dies = dies.clamp(1, MAX_DIES),
            Hold::Capacity => {
                let raw = self.choice.raw_gbit();
                let dies = self.dies_ladder().nearest(dies);
                self.choice = DriveChoice {
                    dies,
                    die_gbit: raw / dies,
                };
            }
        }
    }

    /// Sets the capacity by its raw Gbit (a value of [`Self::capacity_ladder`]; others snap to
    /// the nearest). With the density held the die count follows, with the die count held the
    /// density; with capacity held nothing changes.
    pub fn set_raw_gbit(&mut self, raw_gbit: u32) {
        let raw = self.capacity_ladder().nearest(raw_gbit);
        match self.hold {
            Hold::Capacity => {}
            Hold::Density => self.choice.dies = raw / self.choice.die_gbit,
            Hold::Dies => self.choice.die_gbit = raw / self.choice.dies,
        }
    }

    /// Sets die count and density together. Refuses (leaving the drive as it was) a count
    /// outside `1..=MAX_DIES` or a density not in [`DIE_DENSITIES_GBIT`].
    pub fn set_choice(&mut self, choice: DriveChoice) -> Result<(), DriveRefused> {
        if !(1..=MAX_DIES).contains(&choice.dies) {
            return Err(DriveRefused::Dies(choice.dies));
        }
        if !DIE_DENSITIES_GBIT.contains(&choice.die_gbit) {
            return Err(DriveRefused::Density(choice.die_gbit));
        }
        self.choice = choice;
        Ok(())
    }

    pub fn set_hold(&mut self, hold: Hold) {
        self.hold = hold;
    }
}

/// Why [`DriveSetup::set_choice`] refused a drive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DriveRefused {
    /// A die count outside `1..=MAX_DIES`.
    Dies(u32),
    /// A die density not in [`DIE_DENSITIES_GBIT`].
    Density(u32),
}

impl std::fmt::Display for DriveRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DriveRefused::Dies(_) => write!(f, "the die count must be 1 to {MAX_DIES}"),
            DriveRefused::Density(gbit) => write!(
                f,
                "a die of {gbit} Gbit is not offered (densities: {})",
                DIE_DENSITIES_GBIT.map(|g| g.to_string()).join(", ")
            ),
        }
    }
}
