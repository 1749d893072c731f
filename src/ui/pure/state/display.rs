//! [`Display`]: how the page looks, not what it shows of the drive: which set of charts
//! ([`View`]) and the colour scheme ([`Theme`]). Reset keeps both: they are the reader's
//! preferences, not part of the experiment.

/// Which set of charts the page shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum View {
    /// Throughput and latency against the load: queue depth and read share, or offered rate.
    #[default]
    Queue,
    /// The drive over time: whole-drive fill, bursts with idle time, torture and TRIM (its
    /// link keeps `view=time`, which links already published use).
    OverTime,
    /// Teaching mode: the drive at work, the bottleneck explainer, the guided tours.
    Activity,
    /// The E12 review's tests on the drive, in the review's order.
    Review,
    /// How good is this model? Every published figure against the model's result for it.
    Scorecard,
}

crate::model::named_enum!(View, "view", id, {
    Queue => "qd",
    OverTime => "time",
    Activity => "activity",
    Review => "review",
    Scorecard => "scorecard",
});

impl View {
    /// What the view switch says.
    pub fn label(self) -> &'static str {
        match self {
            View::Queue => "against the load",
            View::OverTime => "drive over time",
            View::Activity => "teaching mode",
            View::Review => "the E12 review's tests",
            // Short: a longer label wraps the switch to a second line at 1280 px and pushes the
            // first screen's chart down (its view's heading asks "How good is this model?").
            View::Scorecard => "the scorecard",
        }
    }
}

/// Colour scheme: follow the system, or force one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    #[default]
    Auto,
    Light,
    Dark,
    /// Large type and high contrast, for teaching on a projector.
    Projector,
}

crate::model::named_enum!(Theme, "theme", id, {
    Auto => "auto",
    Light => "light",
    Dark => "dark",
    Projector => "projector",
});

impl Theme {
    pub fn label(self) -> &'static str {
        match self {
            Theme::Auto => "as the system",
            Theme::Light => "light",
            Theme::Dark => "dark",
            Theme::Projector => "projector (large, high contrast)",
        }
    }
}

/// The display part of the state (`view=`, `theme=`); any combination is valid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Display {
    pub view: View,
    pub theme: Theme,
}
