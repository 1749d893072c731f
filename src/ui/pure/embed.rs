//! What an author can set for an embedded lab, as plain values: which charts show
//! ([`ChartsShown`], the `charts=` parameter) and which controls are read-only ([`Locks`], the
//! `lock=` parameter). Pure Rust, tested natively; [`crate::ui::pure::state::LabState`] holds them and
//! [`crate::ui::pure::url_state`] reads and writes them.
//!
//! What always holds: at least one chart shows (an empty choice is refused, never stored), and
//! names are short, stable and the same as the URL parameter of the control they lock, so an
//! author can write `lock=iodepth,rw` from the URL table alone.

use crate::ui::pure::state::LoadKind;

/// One of the lab's charts, by its stable `charts=` name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChartId {
    /// IOPS (or MB/s) against queue depth.
    Iops,
    /// Latency against queue depth.
    Latency,
    /// Where the mean request's time goes, against queue depth or offered load (beside the
    /// latency it makes up).
    Anatomy,
    /// Throughput against read share.
    Mix,
    /// Average power and throughput per watt against queue depth.
    Power,
    /// Latency against offered load (a rate).
    Load,
    /// Carried against offered load (a rate).
    Carried,
    /// Several jobs on one drive.
    Jobs,
    /// A trace replayed on each compared drive.
    Trace,
}

crate::model::named_enum!(ChartId, "chart", id, {
    Iops => "iops",
    Latency => "latency",
    Anatomy => "anatomy",
    Mix => "mix",
    Power => "power",
    Load => "load",
    Carried => "carried",
    Jobs => "jobs",
    Trace => "trace",
});

impl ChartId {
    /// The workloads whose views hold this chart (where the time goes has a place against
    /// queue depth and against offered load alike).
    pub fn views(self) -> &'static [LoadKind] {
        match self {
            ChartId::Iops | ChartId::Latency | ChartId::Mix | ChartId::Power => &[LoadKind::Depth],
            ChartId::Load | ChartId::Carried => &[LoadKind::Rate],
            ChartId::Anatomy => &[LoadKind::Depth, LoadKind::Rate],
            ChartId::Jobs => &[LoadKind::Jobs],
            ChartId::Trace => &[LoadKind::Trace],
        }
    }

    /// Whether the view of `load` holds this chart.
    pub fn in_view(self, load: LoadKind) -> bool {
        self.views().contains(&load)
    }

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// Which charts the page shows; never none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChartsShown(u16);

impl Default for ChartsShown {
    fn default() -> Self {
        ChartsShown::all()
    }
}

impl ChartsShown {
    pub fn all() -> ChartsShown {
        ChartsShown(ChartId::ALL.iter().fold(0, |b, c| b | c.bit()))
    }

    /// The charts in `ids`, or `None` when it names none.
    pub fn of(ids: &[ChartId]) -> Option<ChartsShown> {
        let bits = ids.iter().fold(0, |b, c| b | c.bit());
        (bits != 0).then_some(ChartsShown(bits))
    }

    pub fn shows(self, chart: ChartId) -> bool {
        self.0 & chart.bit() != 0
    }

    pub fn is_all(self) -> bool {
        self == ChartsShown::all()
    }

    /// The charts shown, in page order.
    pub fn list(self) -> Vec<ChartId> {
        ChartId::ALL
            .into_iter()
            .filter(|c| self.shows(*c))
            .collect()
    }
}

/// A control an author can lock, named like its URL parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Control {
    Preset,
    Hold,
    Dies,
    Cap,
    Iodepth,
    /// The random / sequential choice.
    Rw,
    /// The read share.
    Mix,
    Bs,
    State,
    P999,
    Theme,
    /// The compare buttons (pin, family, remove).
    Compare,
    /// The view switch (queue depth, drive over time, teaching mode).
    View,
    /// The drive over time's idle-time slider.
    Idle,
    /// The drive over time's burst-size slider.
    Burst,
    /// Teaching mode's speed slider.
    Speed,
    /// The power-state choice.
    Power,
    /// The idle time before a request.
    Think,
    /// Autonomous power-state transitions on or off.
    Apst,
    /// The workload choice (a queue depth or a rate).
    Workload,
    /// The offered rate.
    Rate,
    /// How a rate's arrivals are spaced.
    Arrivals,
    /// The several jobs' settings.
    Jobs,
    /// The trace to replay.
    Trace,
}

crate::model::named_enum!(Control, "control", id, {
    Preset => "preset",
    Hold => "hold",
    Dies => "dies",
    Cap => "cap",
    Iodepth => "qd",
    Rw => "rw",
    Mix => "mix",
    Bs => "bs",
    State => "state",
    P999 => "p999",
    Theme => "theme",
    Compare => "compare",
    View => "view",
    Idle => "idle",
    Burst => "burst",
    Speed => "speed",
    Power => "power",
    Think => "think",
    Apst => "apst",
    Workload => "workload",
    Rate => "rate",
    Arrivals => "arrivals",
    Jobs => "jobs",
    Trace => "trace",
});

impl Control {
    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// The controls an author made read-only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Locks(u32);

impl Locks {
    pub fn of(controls: &[Control]) -> Locks {
        Locks(controls.iter().fold(0, |b, c| b | c.bit()))
    }

    pub fn locks(self, control: Control) -> bool {
        self.0 & control.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The locked controls, in [`Control::ALL`] order.
    pub fn list(self) -> Vec<Control> {
        Control::ALL
            .into_iter()
            .filter(|c| self.locks(*c))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_sets_keep_page_order() {
        for c in ChartId::ALL {
            assert_eq!(c.id().parse::<ChartId>().ok(), Some(c));
        }
        for c in Control::ALL {
            assert_eq!(c.id().parse::<Control>().ok(), Some(c));
        }
        let shown = ChartsShown::of(&[ChartId::Mix, ChartId::Iops]).unwrap();
        assert_eq!(shown.list(), vec![ChartId::Iops, ChartId::Mix]);
        assert!(ChartsShown::of(&[]).is_none(), "never no chart");
        let locks = Locks::of(&[Control::Rw, Control::Iodepth]);
        assert_eq!(locks.list(), vec![Control::Iodepth, Control::Rw]);
        assert!(Locks::default().is_empty());
    }

    #[test]
    fn where_the_time_goes_belongs_to_the_depth_and_the_rate_views() {
        assert_eq!(ChartId::Anatomy.id(), "anatomy");
        assert!(ChartId::Anatomy.in_view(LoadKind::Depth));
        assert!(ChartId::Anatomy.in_view(LoadKind::Rate));
        assert!(!ChartId::Anatomy.in_view(LoadKind::Jobs));
        assert!(!ChartId::Latency.in_view(LoadKind::Rate));
        let every: Vec<ChartId> = ChartsShown::all().list();
        assert_eq!(
            every,
            ChartId::ALL.to_vec(),
            "nine charts fit the set's bits"
        );
    }
}
