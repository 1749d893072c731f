//! [`Staging`]: how the app's views come onto the page, whole in one go or in [`Step`]s.
//!
//! The page mounts them in steps, each in a task of its own (`src/main.rs`), hidden, while the
//! opening chart ([`crate::ui::opening_chart`]) stays on the screen: the page's frame, then the
//! results' parts, then the charts against queue depth; then the views are shown and take over
//! from the opening chart. Each step is a first run of much of the app's code, which V8
//! compiles as it goes: on a phone at 4x CPU the views mounted in one task made one of the
//! load's longest (figures: CHANGELOG.md "The app's start in steps"). The browser tests'
//! [`crate::ui::App`] mounts the views whole and shows them at once ([`Staging::default`]).
//!
//! What always holds:
//! - a part waiting for a step mounts once that step is reached, never before; steps are
//!   reached in their order, one per [`Staging::advance`], and never left;
//! - the views are hidden (the `hidden` attribute: no room, no focus) until [`Step::Shown`], so
//!   the reader meets the opening chart, then the app, never both; the parts that mount after
//!   the first screen ([`crate::ui::browser::later`]) wait until then.

use leptos::prelude::*;

use crate::ui::browser::later;

/// The steps of the views' mount, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    /// The page's frame: the masthead, the notes, the controls' panel (its groups mount
    /// later, [`crate::ui::browser::later`]).
    Frame,
    /// The view switch and the results' parts but the charts against queue depth (most of
    /// them mount later still), and the footer.
    Results,
    /// The charts against queue depth.
    Charts,
    /// Everything mounted, and shown.
    Shown,
}

impl Step {
    /// The step after this one (the last stays).
    fn next(self) -> Step {
        match self {
            Step::Frame => Step::Results,
            Step::Results => Step::Charts,
            Step::Charts | Step::Shown => Step::Shown,
        }
    }
}

/// Where the views are in their steps; copied into the views that follow it.
#[derive(Clone, Copy)]
pub struct Staging {
    step: RwSignal<Step>,
}

impl Default for Staging {
    /// Views mounted whole and shown at once.
    fn default() -> Staging {
        Staging {
            step: RwSignal::new(Step::Shown),
        }
    }
}

impl Staging {
    /// Views that mount their frame, hidden, and each further step at [`Staging::advance`];
    /// the parts that mount after the first screen ([`crate::ui::browser::later`]) wait until they show.
    pub fn in_steps() -> Staging {
        later::hold();
        Staging {
            step: RwSignal::new(Step::Frame),
        }
    }

    /// Goes to the next step; its parts build as this task's effects run, before the next
    /// task. Returns the step reached.
    pub fn advance(self) -> Step {
        let next = self.step.get_untracked().next();
        if next != self.step.get_untracked() {
            self.step.set(next);
            if next == Step::Shown {
                later::release();
            }
        }
        next
    }

    /// Whether `step` is reached (tracked).
    pub(crate) fn reached(self, step: Step) -> bool {
        self.step.get() >= step
    }

    /// Whether the views are hidden (tracked).
    pub(crate) fn hidden(self) -> bool {
        !self.reached(Step::Shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The browser tests' mount: everything at once.
    #[test]
    fn by_default_the_views_mount_whole_and_show_at_once() {
        let owner = Owner::new();
        owner.with(|| {
            let staging = Staging::default();
            assert!(staging.reached(Step::Charts));
            assert!(!staging.hidden());
        });
    }

    /// The page's mount: the frame, hidden; each step reached in order, one per advance; the
    /// last stays.
    #[test]
    fn in_steps_each_step_is_reached_in_order_one_per_advance() {
        let owner = Owner::new();
        owner.with(|| {
            let staging = Staging::in_steps();
            assert!(staging.reached(Step::Frame));
            assert!(!staging.reached(Step::Results));
            assert!(staging.hidden());
            assert_eq!(staging.advance(), Step::Results);
            assert!(!staging.reached(Step::Charts));
            assert_eq!(staging.advance(), Step::Charts);
            assert!(staging.reached(Step::Charts));
            assert!(staging.hidden());
            assert_eq!(staging.advance(), Step::Shown);
            assert!(!staging.hidden());
            assert_eq!(staging.advance(), Step::Shown);
        });
    }
}
