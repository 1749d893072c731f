//! [`Pins`]: the configurations the reader keeps on the charts as curves (`compare=`). What a
//! pin does with the drive and the workload (take them, apply them, read and write its code)
//! is in [`crate::ui::pure::compare`].
//!
//! What always holds: at most [`MAX_PINS`] pins, no two equal, in the order they were pinned.

use crate::model::config::DriveState;
use crate::model::presets::PresetRef;

use super::drive::DriveChoice;

/// Most pins on the charts at once (the palette has this many series colours; the drive the
/// reader is setting takes the custom colour).
pub const MAX_PINS: usize = 4;

/// One pinned configuration: the drive and workload of a curve kept on the charts.
#[derive(Clone, Debug, PartialEq)]
pub struct Pin {
    pub preset: PresetRef,
    pub drive: DriveChoice,
    pub random: bool,
    pub read_pct: u8,
    pub bs_bytes: u32,
    pub drive_state: DriveState,
}

/// Why a pin was not added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PinRefused {
    /// Already [`MAX_PINS`] pins.
    Full,
    /// The same configuration is pinned already.
    Duplicate,
}

impl std::fmt::Display for PinRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PinRefused::Full => write!(
                f,
                "At most {MAX_PINS} configurations can be compared; remove a pin first."
            ),
            PinRefused::Duplicate => f.write_str("This configuration is pinned already."),
        }
    }
}

/// The pins part of the state. See the module documentation for what always holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pins(Vec<Pin>);

impl Pins {
    /// The pins, in the order they were pinned.
    pub fn as_slice(&self) -> &[Pin] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Pins `pin`; refuses a fifth pin or a duplicate, leaving the pins as they were.
    pub fn add(&mut self, pin: Pin) -> Result<(), PinRefused> {
        if self.0.contains(&pin) {
            return Err(PinRefused::Duplicate);
        }
        if self.0.len() >= MAX_PINS {
            return Err(PinRefused::Full);
        }
        self.0.push(pin);
        Ok(())
    }

    /// Removes the pin at `index` (nothing if there is none).
    pub fn remove(&mut self, index: usize) {
        if index < self.0.len() {
            self.0.remove(index);
        }
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }
}
