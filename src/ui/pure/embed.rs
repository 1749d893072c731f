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

/// Most origins a `hosts=` list may name.
pub const MAX_HOSTS: usize = 8;
/// Longest origin a `hosts=` list may name.
pub const MAX_HOST_CHARS: usize = 200;

/// The pages allowed to drive an embedded lab with messages (`hosts=`, a list of origins such
/// as `https://blog.example`, or `none`): without the parameter any page that frames the lab is
/// heard; with it, only a parent of an origin listed, and the lab posts to those origins alone.
/// A list none of whose items is an origin hears nobody (a typo never opens the lab to all).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Hosts {
    /// No `hosts=`: any parent.
    #[default]
    Any,
    /// Only these origins (none: nobody).
    Only(Vec<String>),
}

/// The `hosts=` word for a list that hears nobody.
pub const NO_HOSTS: &str = "none";

/// Why an item of `hosts=` is not an origin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostError {
    /// Not `http://` or `https://`.
    Scheme,
    /// A path, query, fragment or user name after the host, or characters no host has.
    NotAnOrigin,
    /// Longer than [`MAX_HOST_CHARS`].
    TooLong,
    /// More than [`MAX_HOSTS`] origins.
    TooMany,
}

impl std::fmt::Display for HostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HostError::Scheme => write!(f, "an origin starts with https:// or http://"),
            HostError::NotAnOrigin => write!(
                f,
                "an origin is a scheme, a host and perhaps a port (https://blog.example:8443), with no path"
            ),
            HostError::TooLong => write!(f, "longer than {MAX_HOST_CHARS} characters"),
            HostError::TooMany => write!(f, "more than {MAX_HOSTS} origins"),
        }
    }
}

impl Hosts {
    /// The origins listed, in the order given, lower case, without a trailing `/` (none for
    /// [`Hosts::Any`]).
    pub fn list(&self) -> &[String] {
        match self {
            Hosts::Any => &[],
            Hosts::Only(origins) => origins,
        }
    }

    /// Whether a message from `origin` (as the browser names the sender) is heard.
    pub fn hears(&self, origin: &str) -> bool {
        match self {
            Hosts::Any => true,
            Hosts::Only(origins) => origins.iter().any(|o| o == origin),
        }
    }

    /// Adds `item` (an origin as an author writes it), checked; a repeat is kept once. The
    /// list then hears only what it names.
    pub fn add(&mut self, item: &str) -> Result<(), HostError> {
        let origin = origin_of(item)?;
        if let Hosts::Any = self {
            *self = Hosts::Only(Vec::new());
        }
        let Hosts::Only(origins) = self else {
            return Ok(());
        };
        if origins.contains(&origin) {
            return Ok(());
        }
        if origins.len() >= MAX_HOSTS {
            return Err(HostError::TooMany);
        }
        origins.push(origin);
        Ok(())
    }

    /// The `hosts=` value that gives this list back, or `None` for [`Hosts::Any`].
    pub fn param(&self) -> Option<String> {
        match self {
            Hosts::Any => None,
            Hosts::Only(origins) if origins.is_empty() => Some(NO_HOSTS.to_string()),
            Hosts::Only(origins) => Some(origins.join(",")),
        }
    }
}

/// `item` as the browser writes an origin: lower case, no trailing `/`.
fn origin_of(item: &str) -> Result<String, HostError> {
    if item.chars().count() > MAX_HOST_CHARS {
        return Err(HostError::TooLong);
    }
    let lower = item.trim().to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))
        .ok_or(HostError::Scheme)?;
    let authority = rest.strip_suffix('/').unwrap_or(rest);
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) if !h.ends_with(']') || authority.starts_with('[') => (h, Some(p)),
        _ => (authority, None),
    };
    let host_ok = !host.is_empty()
        && (host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
            || (host.starts_with('[')
                && host.ends_with(']')
                && host[1..host.len() - 1]
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() || c == ':')));
    let port_ok = port.is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.parse::<u16>().is_ok());
    if !host_ok || !port_ok {
        return Err(HostError::NotAnOrigin);
    }
    let scheme_end = lower.len() - rest.len();
    Ok(format!("{}{authority}", &lower[..scheme_end]))
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

    #[test]
    fn hosts_are_origins_as_the_browser_names_them() {
        let mut hosts = Hosts::default();
        assert!(
            hosts.hears("https://anyone.example"),
            "no list: every parent"
        );
        assert_eq!(hosts.param(), None);
        assert!(
            !Hosts::Only(Vec::new()).hears("https://blog.example"),
            "an empty list: nobody"
        );
        hosts.add("HTTPS://Blog.Example/").unwrap();
        hosts.add("http://127.0.0.1:8081").unwrap();
        hosts.add("https://blog.example").unwrap();
        assert_eq!(
            hosts.list(),
            ["https://blog.example", "http://127.0.0.1:8081"],
            "lower case, no trailing slash, a repeat once"
        );
        assert!(hosts.hears("https://blog.example"));
        assert!(!hosts.hears("https://blog.example.evil"));
        assert!(
            !hosts.hears("http://blog.example"),
            "the scheme is part of the origin"
        );
        assert_eq!(hosts.add("blog.example"), Err(HostError::Scheme));
        assert_eq!(
            hosts.add("https://blog.example/post"),
            Err(HostError::NotAnOrigin)
        );
        assert_eq!(
            hosts.add("https://me@blog.example"),
            Err(HostError::NotAnOrigin)
        );
        assert_eq!(
            hosts.add("https://blog.example:99999"),
            Err(HostError::NotAnOrigin)
        );
        assert_eq!(hosts.add("https://"), Err(HostError::NotAnOrigin));
        assert_eq!(
            hosts.param().as_deref(),
            Some("https://blog.example,http://127.0.0.1:8081")
        );
        hosts.add("http://[::1]:8080").unwrap();
        for i in 0..5 {
            hosts.add(&format!("https://h{i}.example")).unwrap();
        }
        assert_eq!(hosts.add("https://ninth.example"), Err(HostError::TooMany));
    }
}
