//! Drives of the reader's own ([`crate::model::custom::CustomDrive`], the `drive=` text) in the
//! page's state: the model makes each one a preset ([`lookup`]), so every view, pin, chart and
//! export takes it as it takes a built-in preset, and the page and its workers make equal
//! presets from the same text, so a run key names the same drive on both sides.

pub use crate::model::custom::{base_of, custom_of, lookup};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_custom_drive_has_its_own_capacity_as_its_die_count() {
        let a = lookup("e12_d24_r52500").unwrap();
        assert_eq!(
            crate::ui::pure::state::DriveChoice::default_for(&a).dies,
            24,
            "the custom drive's capacity is its die count"
        );
    }

    // The charts are the app's: without it, this one scenario has nothing to draw.
    #[cfg(feature = "app")]
    #[test]
    fn a_custom_drive_runs_wherever_a_preset_does() {
        // Issue 17: the fitted drive works in every view. The charts' runs, the drive over
        // time, a compare pin and the CSV export all take it as they take a preset.
        use crate::ui::charts::{self, export, over_time};
        use crate::ui::pure::compare::Pin;
        use crate::ui::pure::compute::{self, Point};
        use crate::ui::pure::state::LabState;

        let mut s = LabState::default();
        s.drive.set_preset(lookup("e12_d24_r52500_c900").unwrap());
        for key in compute::plan(&s).keys {
            assert!(key.prepare(1_000).is_ok(), "{key:?}");
        }
        let time = over_time::build(&s, None);
        assert!(
            time.drive.starts_with("Your drive (on the Phison"),
            "{}",
            time.drive
        );
        let pin = Pin::of(&s);
        assert_eq!(Pin::parse(&pin.code()).unwrap(), pin);
        let none = |_: &compute::RunKey| -> Option<Point> { None };
        let csv = export::csv(&s, &charts::build(&s, &none));
        assert!(
            csv.contains("drive=e12_d24_r52500_c900"),
            "the CSV names the view's link"
        );
    }
}
