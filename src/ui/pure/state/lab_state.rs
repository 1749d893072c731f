//! [`LabState`]: one value of each of the state's parts, as plain values: what the URL's parser
//! and writer, the pure presentation and the tests work on.

use super::{Display, DriveSetup, Embedding, Imports, Pins, ViewSettings, WorkloadSetup};

/// Everything the reader has set, one value per part. See the module documentation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabState {
    pub drive: DriveSetup,
    pub workload: WorkloadSetup,
    pub display: Display,
    pub embedding: Embedding,
    pub views: ViewSettings,
    pub pins: Pins,
    /// The reader's own fio results (never in the URL).
    pub imported: Imports,
}

impl LabState {
    /// The state without embedding: what "Open in the full lab" shows (no embed chrome, no
    /// locks, every chart).
    pub fn full_lab(&self) -> LabState {
        LabState {
            embedding: Embedding::default(),
            ..self.clone()
        }
    }

    /// Back to the defaults, keeping the display, the view settings' playback speed, the
    /// author's embedding (preferences and frame, not part of the experiment) and the reader's
    /// imported fio results.
    pub fn reset(&mut self) {
        let mut views = ViewSettings::default();
        views.set_speed_us_per_s(self.views.speed_us_per_s());
        *self = LabState {
            display: self.display,
            embedding: self.embedding.clone(),
            views,
            imported: std::mem::take(&mut self.imported),
            ..LabState::default()
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::config::{DriveState, Rw, MAX_DIES, MAX_IODEPTH};
    use crate::model::presets::{self, Preset};
    use crate::ui::pure::state::*;

    fn e18dc() -> &'static Preset {
        presets::find("e18dc").unwrap()
    }

    #[test]
    fn the_default_view_is_the_1920_gb_e18dc_at_qd32_random_reads_in_steady_state() {
        let s = LabState::default();
        assert_eq!(s.drive.preset().id, "e18dc");
        assert_eq!(s.drive.dies(), 32);
        assert_eq!(s.drive.die_gbit(), 512);
        assert!((s.drive.capacity_gb() - 1920.0).abs() < 0.5);
        assert_eq!(s.workload.iodepth(), 32);
        assert_eq!(s.workload.rw(), Rw::RandRead);
        assert_eq!(s.workload.bs_bytes(), 4096);
        assert_eq!(s.workload.drive_state(), DriveState::Steady);
        assert!(!s.drive.is_unlisted());
    }

    #[test]
    fn the_default_comparison_is_480_960_and_1920_gb() {
        let s = LabState::default();
        let caps: Vec<u32> = s
            .drive
            .comparison_drives()
            .iter()
            .map(|d| d.capacity_gb(s.drive.preset()).round() as u32)
            .collect();
        assert_eq!(caps, vec![480, 960, 1920]);
    }

    #[test]
    fn queue_depth_moves_in_powers_of_two_with_finer_steps_between() {
        let l = iodepth_ladder();
        assert_eq!(l.values()[0], 1);
        assert_eq!(*l.values().last().unwrap(), MAX_IODEPTH);
        assert!(l.contains(256) && l.contains(24) && l.contains(7));
        assert_eq!(l.step(32, true, false), 64);
        assert_eq!(l.step(32, true, true), 40);
        assert_eq!(l.step(1, true, false), 2);
        assert!(l.values().iter().all(|&q| (1..=MAX_IODEPTH).contains(&q)));
    }

    #[test]
    fn with_density_held_capacity_follows_dies_and_the_reverse() {
        let mut s = LabState::default();
        s.drive.set_dies(8);
        assert!((s.drive.capacity_gb() - 480.0).abs() < 0.5);
        s.drive.set_raw_gbit(16 * 512);
        assert_eq!(s.drive.dies(), 16);
        assert_eq!(s.drive.die_gbit(), 512);
    }

    #[test]
    fn with_capacity_held_more_dies_means_smaller_dies() {
        let mut s = LabState::default();
        s.drive.set_hold(Hold::Capacity);
        assert_eq!(s.drive.dies_ladder().values(), &[8, 16, 32, 64, 128, 256]);
        s.drive.set_dies(64);
        assert_eq!((s.drive.dies(), s.drive.die_gbit()), (64, 256));
        assert!((s.drive.capacity_gb() - 1920.0).abs() < 0.5);
        assert!(s.drive.is_unlisted());
        s.drive.set_dies(100); // not a count that keeps 1,920 GB: snaps to the nearest that does
        assert_eq!(s.drive.dies(), 128);
        s.drive.set_raw_gbit(1); // capacity is held
        assert!((s.drive.capacity_gb() - 1920.0).abs() < 0.5);
    }

    #[test]
    fn with_dies_held_more_capacity_means_denser_dies() {
        let mut s = LabState::default();
        s.drive.set_hold(Hold::Dies);
        s.drive.set_raw_gbit(32 * 1024);
        assert_eq!((s.drive.dies(), s.drive.die_gbit()), (32, 1024));
        s.drive.set_dies(3); // the die count is held
        assert_eq!(s.drive.dies(), 32);
    }

    #[test]
    fn extreme_values_are_clamped_onto_the_sliders() {
        let mut s = LabState::default();
        s.workload.set_iodepth(0);
        assert_eq!(s.workload.iodepth(), 1);
        s.workload.set_iodepth(u32::MAX);
        assert_eq!(s.workload.iodepth(), MAX_IODEPTH);
        s.drive.set_dies(0);
        assert_eq!(s.drive.dies(), 1);
        s.drive.set_dies(u32::MAX);
        assert_eq!(s.drive.dies(), MAX_DIES);
        s.workload.set_read_pct(1000);
        assert_eq!(s.workload.read_pct(), 100);
        s.workload.set_read_pct(34);
        assert_eq!(s.workload.read_pct(), 30);
        s.workload.set_bs_bytes(0);
        assert_eq!(s.workload.bs_bytes(), 4096);
        s.workload.set_bs_bytes(u32::MAX);
        assert_eq!(s.workload.bs_bytes(), 1 << 20);
        assert!(s
            .drive
            .set_choice(DriveChoice {
                dies: 0,
                die_gbit: 512
            })
            .is_err());
        assert!(s
            .drive
            .set_choice(DriveChoice {
                dies: 4,
                die_gbit: 300
            })
            .is_err());
        assert_eq!(s.drive.dies(), MAX_DIES, "a refused choice changes nothing");
    }

    #[test]
    fn every_reachable_extreme_drive_and_workload_passes_the_model_checks() {
        for preset in presets::all() {
            for (dies, die_gbit) in [(1, 32), (1, 2048), (MAX_DIES, 32), (MAX_DIES, 2048)] {
                let mut s = LabState::default();
                s.drive.set_preset(preset);
                s.drive.set_choice(DriveChoice { dies, die_gbit }).unwrap();
                for (iodepth, bs, pct) in [(1, 4096, 0), (MAX_IODEPTH, 1 << 20, 50)] {
                    s.workload.set_iodepth(iodepth);
                    s.workload.set_bs_bytes(bs);
                    s.workload.set_read_pct(pct);
                    let spec = crate::ui::pure::compute::current_key(&s).spec();
                    assert!(spec.check().is_ok(), "{} {dies}x{die_gbit}", preset.id);
                }
            }
        }
    }

    #[test]
    fn switching_preset_takes_its_default_capacity_and_reset_keeps_the_theme() {
        let mut s = LabState::default();
        s.workload.set_iodepth(4);
        s.display.theme = Theme::Dark;
        s.drive.set_preset(presets::find("octane").unwrap());
        assert_eq!(s.drive.dies(), 64);
        assert_eq!(s.drive.die_gbit(), 64);
        s.reset();
        assert_eq!(s.drive.preset().id, e18dc().id);
        assert_eq!(s.workload.iodepth(), DEFAULT_IODEPTH);
        assert_eq!(s.display.theme, Theme::Dark);
    }

    #[test]
    fn at_most_four_distinct_pins_and_reset_clears_them() {
        let mut s = LabState::default();
        for pin in Pin::family(&s) {
            s.pins.add(pin).unwrap();
        }
        assert_eq!(s.pins.add(Pin::of(&s)), Err(PinRefused::Duplicate));
        s.workload.set_iodepth(1);
        s.workload.set_read_pct(0);
        s.pins.add(Pin::of(&s)).unwrap();
        s.workload.set_read_pct(50);
        assert_eq!(s.pins.add(Pin::of(&s)), Err(PinRefused::Full));
        assert_eq!(s.pins.as_slice().len(), MAX_PINS);
        s.pins.remove(99);
        s.pins.remove(0);
        assert_eq!(s.pins.as_slice().len(), MAX_PINS - 1);
        s.embedding.framed = true;
        s.reset();
        assert!(s.pins.as_slice().is_empty() && s.embedding.framed);
        assert!(!s.full_lab().embedding.framed);
    }

    #[test]
    fn drive_over_time_settings_snap_to_their_sliders_and_reset_keeps_the_view() {
        let mut s = LabState::default();
        assert_eq!(
            (s.display.view, s.views.idle_s(), s.views.burst_gb()),
            (View::Queue, 60, 32)
        );
        s.views.set_idle_s(7);
        assert_eq!(s.views.idle_s(), 5);
        s.views.set_idle_s(u32::MAX);
        assert_eq!(s.views.idle_s(), 1800);
        s.views.set_burst_gb(0);
        assert_eq!(s.views.burst_gb(), 4);
        s.views.set_burst_gb(1000);
        assert_eq!(s.views.burst_gb(), 128);
        s.display.view = View::OverTime;
        s.reset();
        assert_eq!(
            (s.display.view, s.views.idle_s(), s.views.burst_gb()),
            (View::OverTime, 60, 32)
        );
        assert_eq!("time".parse::<View>().ok(), Some(View::OverTime));
        assert_eq!("TIME".parse::<View>().ok(), None);
    }

    #[test]
    fn a_custom_drive_joins_the_comparison() {
        let mut s = LabState::default();
        s.drive.set_dies(12);
        let drives = s.drive.comparison_drives();
        assert_eq!(drives.len(), 4);
        assert_eq!(*drives.last().unwrap(), s.drive.choice());
    }
}
