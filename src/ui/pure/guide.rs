//! Where the guide explains each part of the page. The guide is built from `guide/src/` by
//! mdBook and served beside the app (`guide/`, offline too), so a panel's "How does this work?"
//! opens its chapter at the section that explains it.
//!
//! What always holds: every [`GuidePage`] names a chapter of `guide/src/` and a heading that
//! exists in it (`tests/guide_pages.rs` reads the chapters and checks each one).

/// The folder the guide is served from, beside the page.
pub const GUIDE_DIR: &str = "guide/";

/// A section of the guide a part of the page links to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuidePage {
    /// The charts against queue depth and the readout.
    Page,
    /// The model's mechanisms: the controls' drive and its parts.
    Model,
    /// Requests at a rate, several jobs, traces.
    Workloads,
    /// The power charts and their assumptions.
    Power,
    /// The drive over time view.
    DriveOverTime,
    /// The E12 review's tests view.
    Review,
    /// "How good is this model?"
    Scorecard,
    /// Teaching mode and the tours.
    Teaching,
    /// Importing fio output.
    Fio,
    /// Fitting the reader's drive to their fio results.
    FitYourDrive,
    /// Replaying a trace file.
    Traces,
    /// Copy link, Embed, CSV and fio job file.
    Share,
}

impl GuidePage {
    /// Every section the page links to.
    pub const ALL: [GuidePage; 12] = [
        GuidePage::Page,
        GuidePage::Model,
        GuidePage::Workloads,
        GuidePage::Power,
        GuidePage::DriveOverTime,
        GuidePage::Review,
        GuidePage::Scorecard,
        GuidePage::Teaching,
        GuidePage::Fio,
        GuidePage::FitYourDrive,
        GuidePage::Traces,
        GuidePage::Share,
    ];

    /// The chapter (its file name in `guide/src/`, without `.md`) and the heading's anchor.
    pub fn chapter_and_anchor(self) -> (&'static str, &'static str) {
        match self {
            GuidePage::Page => ("using-the-page", "what-the-page-shows"),
            GuidePage::Model => ("model", "the-mechanisms"),
            GuidePage::Workloads => ("workloads", "workloads"),
            GuidePage::Power => ("power", "power-and-energy"),
            GuidePage::DriveOverTime => ("using-the-page", "the-drive-over-time"),
            GuidePage::Review => ("using-the-page", "the-e12-reviews-tests"),
            GuidePage::Scorecard => ("scorecard", "the-scorecard"),
            GuidePage::Teaching => ("teaching", "teaching-mode"),
            GuidePage::Fio => ("fio", "import-fio-output"),
            GuidePage::FitYourDrive => ("fit-your-drive", "your-drive-fitted-from-fio"),
            GuidePage::Traces => ("traces", "replay-your-own-trace"),
            GuidePage::Share => ("embedding", "embedding-it"),
        }
    }

    /// What the section explains, for the link's accessible name.
    pub fn what(self) -> &'static str {
        match self {
            GuidePage::Page => "What the charts and the readout show",
            GuidePage::Model => "The model's drive and its parts",
            GuidePage::Workloads => "Workloads: rates, several jobs, traces",
            GuidePage::Power => "Power and energy",
            GuidePage::DriveOverTime => "The drive over time",
            GuidePage::Review => "The E12 review's tests",
            GuidePage::Scorecard => "The scorecard",
            GuidePage::Teaching => "Teaching mode",
            GuidePage::Fio => "Importing fio output",
            GuidePage::FitYourDrive => "Your drive, fitted from fio",
            GuidePage::Traces => "Replaying your own trace",
            GuidePage::Share => "Sharing and embedding",
        }
    }

    /// The link, relative to the page: `guide/using-the-page.html#the-drive-over-time`.
    pub fn href(self) -> String {
        let (chapter, anchor) = self.chapter_and_anchor();
        format!("{GUIDE_DIR}{chapter}.html#{anchor}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_opens_the_chapter_beside_the_page_at_its_section() {
        assert_eq!(
            GuidePage::DriveOverTime.href(),
            "guide/using-the-page.html#the-drive-over-time"
        );
    }
}
