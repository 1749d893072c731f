//! The guided tours the lab ships ([`built_in`], the files of `assets/tours/` read with
//! [`tour_file::parse`]) and how a step sets the lab ([`apply_step`]).
//!
//! What always holds:
//! - a step sets the lab only by reading its state as a link does
//!   ([`url_state::parse_query`]), so a tour can never put the lab into a state the controls
//!   could not reach;
//! - a step starts from the lab's default drive and workload, so every drive or workload
//!   control its state does not name is the default and the step's link is the plain one,
//!   whatever the reader or an earlier tour set;
//! - everything else stays as the reader had it unless the step names it: the colours, the
//!   pins, the chart settings (p99.9, idle time, speed ...), the reader's own fio files, and
//!   the view: a step about the drive over time names `view=time`; the others keep the view,
//!   since the tours' panel is shown in every view and the reader never loses it.

use std::sync::LazyLock;

use crate::ui::pure::state::{DriveSetup, LabState, WorkloadSetup};
use crate::ui::pure::tour_file::{self, TourFile, TourStep};
use crate::ui::pure::url_state;

/// The built-in tours' files, in the order the page lists them.
const FILES: [&str; 9] = [
    include_str!("../../../assets/tours/qd1-reads.json"),
    include_str!("../../../assets/tours/p99.json"),
    include_str!("../../../assets/tours/load.json"),
    include_str!("../../../assets/tours/desktop.json"),
    include_str!("../../../assets/tours/random-writes.json"),
    include_str!("../../../assets/tours/sequential.json"),
    include_str!("../../../assets/tours/quarter-dies.json"),
    include_str!("../../../assets/tours/slc-cache.json"),
    include_str!("../../../assets/tours/power.json"),
];

/// Read once, on first use (the tours' panel or a tour's link), not on the page's start. A
/// file that did not read is left out; the tests make sure none is.
static BUILT_IN: LazyLock<Vec<TourFile>> = LazyLock::new(|| tour_file::parse_set(&FILES).0);

/// The built-in tours, each reproducing one point the reviews make.
pub fn built_in() -> &'static [TourFile] {
    &BUILT_IN
}

/// The built-in tour with this id, and its place in [`built_in`].
pub fn find(id: &str) -> Option<(usize, &'static TourFile)> {
    built_in().iter().enumerate().find(|(_, t)| t.id == id)
}

/// Sets the lab as `step` says: its state read as a link on the default drive and workload,
/// over everything else the lab holds (see the module's documentation).
pub fn apply_step(step: &TourStep, lab: &mut LabState) {
    let mut base = std::mem::take(lab);
    base.drive = DriveSetup::default();
    base.workload = WorkloadSetup::default();
    *lab = url_state::parse_query(&step.state, base).state;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::pure::state::{Theme, View};

    /// A reader who set a few things of their own before taking a tour.
    fn readers_lab() -> LabState {
        let mut s = LabState::default();
        s.display.view = View::Activity;
        s.display.theme = Theme::Dark;
        s.views.set_show_p999(true);
        s.workload.set_iodepth(8);
        s.drive.set_dies(8);
        s
    }

    #[test]
    fn every_built_in_file_reads_without_an_error_and_every_id_is_its_files() {
        let (tours, errors) = tour_file::parse_set(&FILES);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(tours.len(), FILES.len());
        assert_eq!(built_in(), tours.as_slice());
        assert_eq!(find("p99").map(|(i, t)| (i, t.steps.len())), Some((1, 3)));
        assert_eq!(find("nope"), None);
    }

    /// Each step's state is a plain link: read, written back and read again, the same lab.
    #[test]
    fn every_built_in_steps_state_round_trips_through_the_link() {
        for t in built_in() {
            for (i, step) in t.steps.iter().enumerate() {
                let read = url_state::parse_query(&step.state, LabState::default());
                assert!(
                    read.notes.is_empty(),
                    "{} {}: {:?}",
                    t.id,
                    i + 1,
                    read.notes
                );
                let q = url_state::to_query(&read.state);
                let back = url_state::parse_query(&q, LabState::default());
                assert!(back.notes.is_empty(), "{q}: {:?}", back.notes);
                assert_eq!(back.state, read.state, "{} {}: {q}", t.id, i + 1);
            }
        }
    }

    /// A step sets the drive and workload whole, and keeps what the reader set elsewhere
    /// unless it names it: the view stays, except in the SLC-cache tour, whose steps name the
    /// drive over time.
    #[test]
    fn a_step_keeps_the_readers_view_colours_and_settings_unless_it_names_them() {
        let (_, qd1) = find("qd1-reads").unwrap();
        let mut s = readers_lab();
        apply_step(&qd1.steps[0], &mut s);
        assert_eq!(
            url_state::to_query(&s),
            "preset=e18dc&cap=480&dies=8&qd=1&rw=randread&bs=4k&state=steady&p999=1\
             &view=activity&theme=dark"
        );
        let (_, slc) = find("slc-cache").unwrap();
        apply_step(&slc.steps[1], &mut s);
        assert_eq!(s.display.view, View::OverTime);
        assert_eq!((s.views.idle_s(), s.views.burst_gb()), (0, 32));
        assert_eq!(s.display.theme, Theme::Dark);
    }
}
