//! Drives by id: a built-in preset's id, or the `drive=` text of a drive of the reader's own
//! ([`CustomDrive`]), so every view, pin, chart, export and worker message takes one as it takes
//! a built-in preset.
//!
//! A custom drive becomes a [`Preset`] whose id is its `drive=` text (whole numbers and `_`:
//! nothing a link, a compare pin, a CSV field or a message treats specially), named after its
//! base preset, with its own controller and flash values and its one capacity. Each thread
//! keeps each one for its lifetime, made once per text: [`preset_of`] hands out the same
//! `&'static Preset` for the same text, so a reader who refits or reloads a link many times
//! adds a few hundred bytes per distinct drive, never per lookup.
//!
//! What always holds: [`lookup`] gives a built-in preset for a built-in id (a `drive=` text
//! equal to its base is the base itself) and a custom one only for a text [`CustomDrive`]
//! parses, so a custom preset always names a drive the model can run. The page and its
//! workers make the same preset from the same text, so a run key means one drive on both sides.

use std::cell::RefCell;

use parallelism_model::custom::CustomDrive;
use parallelism_model::presets::{self, Preset};
use parallelism_model::ConfigError;

thread_local! {
    /// The custom presets made so far, one per `drive=` text.
    static MADE: RefCell<Vec<&'static Preset>> = const { RefCell::new(Vec::new()) };
}

/// The preset for `drive`: its base when it changes nothing, else its custom preset.
pub fn preset_of(drive: &CustomDrive) -> &'static Preset {
    let id = drive.to_string();
    if let Some(p) = presets::find(&id) {
        return p;
    }
    if let Some(p) = MADE.with_borrow(|made| made.iter().copied().find(|p| p.id == id)) {
        return p;
    }
    let spec = drive.drive();
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let capacity = spec.user_gb().round().max(1.0) as u32;
    let preset: &'static Preset = Box::leak(Box::new(Preset {
        id: leak(id),
        name: leak(format!("Your drive (on the {})", drive.base.controller.name)),
        summary: leak(format!(
            "A drive of your own: the {} with the values of a fit to your fio results (or of the link you opened)",
            drive.base.name
        )),
        controller: spec.controller,
        nand: spec.nand,
        capacities_gb: Box::leak(Box::new([capacity])),
        fitted: &[],
        spec_peaks: None,
    }));
    MADE.with_borrow_mut(|made| made.push(preset));
    preset
}

/// The preset a link, pin or message names: a built-in id, or a `drive=` text.
pub fn lookup(id: &str) -> Result<&'static Preset, ConfigError> {
    if let Some(p) = presets::find(id) {
        return Ok(p);
    }
    Ok(preset_of(&id.parse::<CustomDrive>()?))
}

/// The custom drive a preset is, if it is not a built-in one.
pub fn custom_of(preset: &Preset) -> Option<CustomDrive> {
    if presets::find(preset.id).is_some() {
        return None;
    }
    preset.id.parse().ok()
}

/// The built-in preset a preset is made from (itself when built in).
pub fn base_of(preset: &'static Preset) -> &'static Preset {
    custom_of(preset).map_or(preset, |c| c.base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_text_makes_one_preset_and_a_text_equal_to_its_base_is_the_base() {
        let a = lookup("e12_d24_r52500").unwrap();
        let b = lookup("e12_d24_r52500").unwrap();
        assert!(std::ptr::eq(a, b), "made once");
        assert_eq!(a.nand.t_read.0, 52_500);
        assert_eq!(a.capacities_gb.len(), 1);
        assert!(std::ptr::eq(
            lookup("e12").unwrap(),
            presets::find("e12").unwrap()
        ));
        assert_eq!(custom_of(a).unwrap().to_string(), "e12_d24_r52500");
        assert!(custom_of(presets::find("e12").unwrap()).is_none());
        assert_eq!(base_of(a).id, "e12");
    }

    #[test]
    fn a_text_that_is_no_drive_is_refused_with_the_reason() {
        let e = lookup("e12_d999").unwrap_err().to_string();
        assert!(e.contains("1..=256"), "{e}");
        assert!(lookup("nothing").is_err());
    }
}
