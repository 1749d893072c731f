//! [`Lab`]: the state's parts as signals, one per part, shared through Leptos context. The page
//! provides it once ([`Lab::provide`]); a component takes the part signals it reads or writes
//! (as props, or from [`Lab::expect`] for the page's top-level parts).
//!
//! What always holds: the signals are the only copy of the state in the page; [`Lab::state`]
//! assembles a [`LabState`] from them for the pure presentation and the URL, and [`Lab::set`]
//! writes back only the parts that changed, so nothing follows a part that did not move.

use leptos::prelude::*;

use super::{Display, DriveSetup, Embedding, Imports, LabState, Pins, ViewSettings, WorkloadSetup};

/// The lab's state in the page. Cheap to copy into closures.
#[derive(Clone, Copy)]
pub struct Lab {
    pub drive: RwSignal<DriveSetup>,
    pub workload: RwSignal<WorkloadSetup>,
    pub display: RwSignal<Display>,
    pub embedding: RwSignal<Embedding>,
    pub views: RwSignal<ViewSettings>,
    pub pins: RwSignal<Pins>,
    pub imported: RwSignal<Imports>,
}

impl Lab {
    /// Signals holding `state`'s parts.
    pub fn new(state: LabState) -> Lab {
        Lab {
            drive: RwSignal::new(state.drive),
            workload: RwSignal::new(state.workload),
            display: RwSignal::new(state.display),
            embedding: RwSignal::new(state.embedding),
            views: RwSignal::new(state.views),
            pins: RwSignal::new(state.pins),
            imported: RwSignal::new(state.imported),
        }
    }

    /// Makes a lab holding `state` and shares it with every component below.
    pub fn provide(state: LabState) -> Lab {
        let lab = Lab::new(state);
        provide_context(lab);
        lab
    }

    /// The lab an ancestor provided.
    ///
    /// # Panics
    /// Outside a component tree whose root called [`Lab::provide`]: a programming error, never
    /// an input.
    pub fn expect() -> Lab {
        expect_context::<Lab>()
    }

    /// The whole state; a reactive reader follows every part.
    pub fn state(&self) -> LabState {
        LabState {
            drive: self.drive.get(),
            workload: self.workload.get(),
            display: self.display.get(),
            embedding: self.embedding.get(),
            views: self.views.get(),
            pins: self.pins.get(),
            imported: self.imported.get(),
        }
    }

    /// The whole state, followed by nobody.
    pub fn state_untracked(&self) -> LabState {
        untrack(|| self.state())
    }

    /// Sets every part to `state`'s, notifying only the parts that changed.
    pub fn set(&self, state: LabState) {
        put(self.drive, state.drive);
        put(self.workload, state.workload);
        put(self.display, state.display);
        put(self.embedding, state.embedding);
        put(self.views, state.views);
        put(self.pins, state.pins);
        put(self.imported, state.imported);
    }

    /// Changes the state as a whole (a tour step, a pin applied, reset).
    pub fn update(&self, change: impl FnOnce(&mut LabState)) {
        let mut state = self.state_untracked();
        change(&mut state);
        self.set(state);
    }
}

/// Sets `signal` to `value` unless it holds it already.
fn put<T: PartialEq + Send + Sync + 'static>(signal: RwSignal<T>, value: T) {
    if signal.with_untracked(|old| *old != value) {
        signal.set(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::pure::state::Theme;

    #[test]
    fn the_parts_hold_the_state_they_were_given_and_an_update_changes_only_what_it_touched() {
        let owner = Owner::new();
        owner.with(|| {
            let mut start = LabState::default();
            start.workload.set_iodepth(4);
            start.display.theme = Theme::Dark;
            let lab = Lab::new(start.clone());
            assert_eq!(lab.state_untracked(), start);

            let drive_before = lab.drive.get_untracked();
            lab.update(|s| s.workload.set_iodepth(64));
            assert_eq!(lab.workload.get_untracked().iodepth(), 64);
            assert_eq!(lab.drive.get_untracked(), drive_before);
            assert_eq!(lab.display.get_untracked().theme, Theme::Dark);

            lab.update(LabState::reset);
            let after = lab.state_untracked();
            assert_eq!(after.workload, LabState::default().workload);
            assert_eq!(after.display.theme, Theme::Dark, "reset keeps the colours");
        });
    }
}
