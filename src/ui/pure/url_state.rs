//! The URL query as a serialisation of [`LabState`]: [`to_query`] writes it, [`parse_query`]
//! reads it back. Pure Rust (no web-sys), so it is tested natively.
//!
//! Parameter names are short and stable, because people share these links: `preset`, `drive`
//! (a drive of the reader's own instead of a preset: the `drive=` text of
//! [`crate::model::custom`], e.g. `e12_d24_r52500` for the E12 with 24 dies and a 52.5 µs
//! read, as `lab fit --fio` prints it), `cap`
//! (user GB), `dies`, `hold` (`density`, `cap` or `dies`), `power` (the active NVMe power state
//! the drive is held to, `ps1` or `ps2`, for presets with a published table), `think` (host idle
//! µs before a request, on the idle control's steps), `apst` (`0`: no idle power states),
//! `workload` (`depth`, the default: one job at a queue depth; `rate`: requests at a rate),
//! `rate` (offered I/Os per second, on the rate slider's steps 10..5000000), `arrivals`
//! (`poisson` or `linear`), `jobs` (`workload=jobs`: up to four jobs, syntax in
//! [`crate::ui::pure::state::jobs`]), `trace` (`workload=trace`: `desktop-light` or `desktop-heavy`),
//! `iodepth`, `rw` (fio's randread,
//! randwrite, randrw, read, write, rw), `mix` (read %, mixed patterns only), `bs` (4k, 128k,
//! 1m ...), `state` (fob, seq-filled, steady), `p999` (1 to draw p99.9), `view` (`iodepth`, the
//! default, `time` for the drive over time or `activity` for teaching mode), `idle` (seconds of idle between the burst
//! chart's bursts, on the slider's steps 0..1800), `burst` (GB per burst, 4..128), `compare`
//! (pinned configurations, syntax in [`crate::ui::pure::compare`]), `theme` (auto, light, dark,
//! projector) and `speed` (teaching mode's simulated µs per second: 1, 2, 5, 10, 20, 50, 100,
//! 200, 500, 1000); for
//! authors who embed the lab: `embed` (1 for the compact iframe chrome), `charts` (the charts
//! to show, a comma list of `iops`, `latency`, `mix`) and `lock` (read-only controls, a comma
//! list of the control's own parameter names, e.g. `iodepth,rw`; see [`crate::ui::pure::embed`])
//! and `hosts` (the origins whose pages may drive the lab with messages, a comma list, or
//! `none`; see [`crate::ui::pure::host_api`]);
//! and a place in a guided tour: `tour` (a built-in tour's id) and `step` (counted from 1; 1
//! when not given), read here as [`Parsed::tour`] and looked up by
//! [`crate::ui::pure::tours::open_link`], which also says what the place sets.
//!
//! Lists are separated by `,` and written in a fixed order, so equal states give equal links.
//! `charts` is written only when it is not every chart, `lock` and `compare` only when not
//! empty, `embed` only when on, `view` only when it is not `iodepth`, `workload` only when not
//! `depth`, `rate` and `arrivals` when the workload is a rate or they differ from their
//! defaults, `speed` only when not the default, `idle` and `burst` when the
//! view is `time` or they differ from their defaults, so a plain link stays short. The imported
//! fio results are never in the URL (they are the reader's data, not the view's).
//!
//! What always holds:
//! - parsing never fails as a whole: every valid parameter is applied, and each invalid,
//!   unknown or repeated one leaves the state as it was and yields a [`Note`] that names it
//!   and says why (notes are plain text; the page shows them as text, never as HTML);
//! - `parse_query(&to_query(s), LabState::default()).state == s` for every reachable state, and
//!   `to_query` is the same for equal states, so the page can compare queries to avoid
//!   rewriting the URL. A tour's place is not part of [`LabState`]: [`tour_query`] writes it
//!   and the page appends it to the state's query.

use std::str::FromStr;

use crate::model::config::PowerLimit;
use crate::model::config::{parse_block_size, ConfigError, DriveState, Rw, MAX_DIES, MAX_IODEPTH};
use crate::model::presets;

use crate::model::config::format_block_size;
use crate::model::workload::Spacing;
use crate::ui::pure::compare::{Pin, MAX_PINS, PIN_SEPARATOR};
use crate::ui::pure::embed::{ChartId, ChartsShown, Control, Hosts, Locks, NO_HOSTS};
use crate::ui::pure::ladder::Ladder;
use crate::ui::pure::state::{
    burst_ladder, custom, idle_ladder, iodepth_ladder, rate_ladder, think_ladder, DriveChoice,
    DriveSetup, Hold, LabState, LoadKind, Theme, View, ALL_READS_PCT, BLOCK_SIZES,
    DEFAULT_BURST_GB, DEFAULT_IDLE_S, DEFAULT_RATE_IOPS, DEFAULT_SPACING, DEFAULT_SPEED_US_PER_S,
    DIE_DENSITIES_GBIT, READ_SHARE_STEP, SPEEDS_US_PER_S,
};
use crate::ui::pure::state::{Jobs, TraceSource, WorkloadSetup, DEFAULT_TRACE};

/// Every parameter the lab reads, in the order it writes them.
pub const PARAMS: [&str; 22] = [
    "preset", "drive", "cap", "dies", "hold", "power", "workload", "rate", "arrivals", "jobs",
    "trace", "qd", "rw", "mix", "bs", "state", "think", "apst", "p999", "view", "idle", "burst",
];
/// The query parameter (not part of the lab's state) and its values that ask the crash screen for
/// a deliberate panic, or a model worker to trap mid-run.
pub const DEBUG_PARAM: &str = "debug";
pub const DEBUG_PANIC: &str = "panic";
pub const DEBUG_WORKER: &str = "worker";
/// The colour-scheme parameter (written only when not `auto`).
pub const THEME_PARAM: &str = "theme";
/// Teaching mode's playback speed (written after the theme, only when not the default).
pub const SPEED_PARAM: &str = "speed";
/// The guided tour and its step a link opens on (`tour=p99&step=2`), written last.
pub const TOUR_PARAM: &str = "tour";
pub const STEP_PARAM: &str = "step";
/// The parameters of sharing and embedding, in the order they are written (after the theme).
pub const SHARE_PARAMS: [&str; 5] = ["compare", "embed", "charts", "lock", "hosts"];
/// Separates the items of `charts=` and `lock=`.
pub const LIST_SEPARATOR: char = ',';
/// Read share used when a link asks for a mixed pattern (`rw=randrw`) without `mix` and the
/// current share is all reads or all writes: the 70/30 mix reviewers use most.
pub const DEFAULT_MIXED_READ_PCT: u32 = 70;
/// A link's capacity may differ this much (relative) from a buildable one without a note.
const CAPACITY_TOLERANCE: f64 = 0.01;
/// Longest piece of a link's text quoted back in a note.
const MAX_QUOTED_CHARS: usize = 32;

/// Why one parameter of the link was not applied as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The parameter's name as it appeared in the link (shortened if very long).
    pub param: String,
    /// A sentence for the reader: what was wrong and what the page did instead.
    pub message: String,
}

/// The result of reading a link: the state to start from, and what was not applied.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    pub state: LabState,
    pub notes: Vec<Note>,
    /// The place in a tour the link names (`tour=ID&step=N`), read but not yet looked up: the
    /// tours are not this module's (see [`crate::ui::pure::tours::open_link`]).
    pub tour: Option<TourPlace>,
    /// Whether the link names any of the lab's own parameters ([`PARAMS`]).
    pub names_lab: bool,
}

/// A place in a tour as a link names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TourPlace {
    /// The tour's id.
    pub tour: String,
    /// The step, counted from 1 as people count.
    pub step: usize,
}

/// `tour=ID&step=N`, the place's part of a link (written after every other parameter).
pub fn tour_query(place: &TourPlace) -> String {
    format!("{TOUR_PARAM}={}&{STEP_PARAM}={}", place.tour, place.step)
}

/// The drive's parameters: the preset (or a drive of the reader's own), its size, what is held
/// and the power state.
fn drive_params(drive: &DriveSetup) -> Vec<(&'static str, String)> {
    let preset = drive.preset();
    let which = if custom::custom_of(preset).is_some() {
        "drive"
    } else {
        "preset"
    };
    let mut parts = vec![
        (which, preset.id.to_string()),
        ("cap", format_gb(drive.capacity_gb())),
        ("dies", drive.dies().to_string()),
    ];
    if drive.hold() != Hold::default() {
        parts.push(("hold", drive.hold().id().to_string()));
    }
    if let Some(limit) = drive.power_limit() {
        parts.push(("power", limit.to_string()));
    }
    parts
}

/// Writes the query (without the leading `?`) for `state`.
pub fn to_query(state: &LabState) -> String {
    let mut parts = drive_params(&state.drive);
    parts.extend(workload_params(&state.workload));
    parts.extend(view_params(state));
    parts.extend(share_params(state));
    parts
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&")
}

/// The workload's parameters, each only where it differs from the default or its view needs it.
fn workload_params(w: &WorkloadSetup) -> Vec<(&'static str, String)> {
    let mut parts = Vec::new();
    let rate = w.load() == LoadKind::Rate;
    let jobs = w.load() == LoadKind::Jobs;
    if w.load() != LoadKind::Depth {
        parts.push(("workload", w.load().id().to_string()));
    }
    if rate || w.rate_iops() != DEFAULT_RATE_IOPS {
        parts.push(("rate", w.rate_iops().to_string()));
    }
    if rate || jobs || w.spacing() != DEFAULT_SPACING {
        parts.push(("arrivals", w.spacing().fio_name().to_string()));
    }
    if jobs || *w.jobs() != Jobs::default() {
        parts.push(("jobs", w.jobs().code()));
    }
    if w.load() == LoadKind::Trace || w.trace() != DEFAULT_TRACE {
        parts.push(("trace", w.trace().id().to_string()));
    }
    parts.push(("qd", w.iodepth().to_string()));
    let rw = w.rw();
    parts.push(("rw", rw.fio_name().to_string()));
    if rw.fixed_read_percent().is_none() {
        parts.push(("mix", w.read_pct().to_string()));
    }
    parts.push(("bs", format_block_size(w.bs_bytes())));
    parts.push(("state", w.drive_state().id().to_string()));
    parts
}

/// The views' settings and the display, each only where it differs from the default or its view
/// needs it.
fn view_params(state: &LabState) -> Vec<(&'static str, String)> {
    let mut parts = Vec::new();
    if state.views.think_us() != 0 {
        parts.push(("think", state.views.think_us().to_string()));
    }
    if !state.views.apst() {
        parts.push(("apst", "0".to_string()));
    }
    if state.views.show_p999() {
        parts.push(("p999", "1".to_string()));
    }
    let time = state.display.view == View::OverTime;
    if state.display.view != View::default() {
        parts.push(("view", state.display.view.id().to_string()));
    }
    if time || state.views.idle_s() != DEFAULT_IDLE_S {
        parts.push(("idle", state.views.idle_s().to_string()));
    }
    if time || state.views.burst_gb() != DEFAULT_BURST_GB {
        parts.push(("burst", state.views.burst_gb().to_string()));
    }
    if state.display.theme != Theme::default() {
        parts.push((THEME_PARAM, state.display.theme.id().to_string()));
    }
    if state.views.speed_us_per_s() != DEFAULT_SPEED_US_PER_S {
        parts.push((SPEED_PARAM, state.views.speed_us_per_s().to_string()));
    }
    parts
}

/// What sharing and embedding set: the pins, the frame, the charts shown and the locks.
fn share_params(state: &LabState) -> Vec<(&'static str, String)> {
    let mut parts = Vec::new();
    let sep = LIST_SEPARATOR.to_string();
    if !state.pins.as_slice().is_empty() {
        let pins: Vec<String> = state.pins.as_slice().iter().map(Pin::code).collect();
        parts.push(("compare", pins.join(&PIN_SEPARATOR.to_string())));
    }
    if state.embedding.framed {
        parts.push(("embed", "1".to_string()));
    }
    if !state.embedding.charts.is_all() {
        let ids: Vec<&str> = state
            .embedding
            .charts
            .list()
            .into_iter()
            .map(ChartId::id)
            .collect();
        parts.push(("charts", ids.join(&sep)));
    }
    if !state.embedding.locks.is_empty() {
        let ids: Vec<&str> = state
            .embedding
            .locks
            .list()
            .into_iter()
            .map(Control::id)
            .collect();
        parts.push(("lock", ids.join(&sep)));
    }
    if let Some(hosts) = state.embedding.hosts.param() {
        parts.push(("hosts", hosts));
    }
    parts
}

/// Reads `query` (with or without the leading `?`) on top of `base`.
pub fn parse_query(query: &str, base: LabState) -> Parsed {
    let mut p = Parser {
        state: base,
        notes: Vec::new(),
    };
    let params = p.collect(query);
    let get = |name: &str| {
        params
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    p.drive_and_workload(&get);
    p.display(&get);
    p.sharing(&get);
    let tour = p.tour_place(&get);
    Parsed {
        state: p.state,
        notes: p.notes,
        tour,
        names_lab: params.iter().any(|(k, _)| PARAMS.contains(&k.as_str())),
    }
}

/// The query's value of a parameter, if it has one.
type Get<'a> = dyn Fn(&str) -> Option<&'a str> + 'a;

impl Parser {
    /// The drive (preset, what is held, capacity or dies) and the workload on it.
    fn drive_and_workload(&mut self, get: &Get<'_>) {
        if let Some(v) = get("preset") {
            match presets::lookup(v) {
                Ok(preset) => self.state.drive.set_preset(preset),
                Err(e) => self.note("preset", e.to_string()),
            }
        }
        if let Some(v) = get("drive") {
            match custom::lookup(v) {
                Ok(preset) => self.state.drive.set_preset(preset),
                Err(e) => self.note("drive", format!("{e}; the drive is unchanged")),
            }
        }
        if let Some(h) = get("hold").and_then(|v| self.named::<Hold>("hold", v)) {
            self.state.drive.set_hold(h);
        }
        self.drive(get("cap"), get("dies"));
        if let Some(v) = get("power") {
            self.power_state(v);
        }
        let rw = get("rw").and_then(|v| self.rw(v));
        if let Some(v) = get("mix") {
            self.mix(v, rw);
        }
        if let Some(v) = get("bs") {
            self.block_size(v);
        }
        if let Some(v) = get("qd") {
            self.queue_depth(v);
        }
        if let Some(kind) = get("workload").and_then(|v| self.named::<LoadKind>("workload", v)) {
            self.state.workload.set_load(kind);
        }
        if let Some(v) = get("rate") {
            if let Some(iops) = self.on_ladder("rate", v, &rate_ladder(), "I/Os per second") {
                self.state.workload.set_rate_iops(iops);
            }
        }
        if let Some(s) = get("arrivals").and_then(|v| self.named::<Spacing>("arrivals", v)) {
            self.state.workload.set_spacing(s);
        }
        if let Some(t) = get("trace").and_then(|v| self.named::<TraceSource>("trace", v)) {
            self.state.workload.set_trace(t);
        }
        if let Some(v) = get("jobs") {
            let (jobs, refused) = Jobs::parse(v);
            for r in refused {
                self.note("jobs", r.to_string());
            }
            match jobs {
                Some(jobs) => *self.state.workload.jobs_mut() = jobs,
                None => self.note("jobs", "no job left to run; kept the jobs before".into()),
            }
        }
        if let Some(s) = get("state").and_then(|v| self.named::<DriveState>("state", v)) {
            self.state.workload.set_drive_state(s);
        }
    }

    /// `power=ps1`: an active power state of the preset's table.
    fn power_state(&mut self, v: &str) {
        let states = self.state.drive.active_power_states();
        match v.parse::<PowerLimit>() {
            Ok(PowerLimit::State(n)) if n < states => {
                self.state.drive.set_power_state(u32::from(n));
            }
            _ if states == 0 => self.note(
                "power",
                format!(
                    "the {} has no published power-state table; it runs uncapped",
                    self.state.drive.preset().name
                ),
            ),
            _ => self.note(
                "power",
                format!(
                    "'{}' is not an active power state of the {} (ps0..ps{})",
                    quote(v),
                    self.state.drive.preset().name,
                    states - 1
                ),
            ),
        }
    }

    /// What the page shows: p99.9, the view and its settings, the theme, teaching's speed.
    fn display(&mut self, get: &Get<'_>) {
        if let Some(on) = get("p999").and_then(|v| self.flag("p999", v)) {
            self.state.views.set_show_p999(on);
        }
        if let Some(v) = get("think") {
            if let Some(us) = self.on_ladder("think", v, &think_ladder(), "µs") {
                self.state.views.set_think_us(us);
            }
        }
        if let Some(on) = get("apst").and_then(|v| self.flag("apst", v)) {
            self.state.views.set_apst(on);
        }
        if let Some(view) = get("view").and_then(|v| self.named::<View>("view", v)) {
            self.state.display.view = view;
        }
        if let Some(v) = get("idle") {
            if let Some(idle) = self.on_ladder("idle", v, &idle_ladder(), "seconds") {
                self.state.views.set_idle_s(idle);
            }
        }
        if let Some(v) = get("burst") {
            if let Some(gb) = self.on_ladder("burst", v, &burst_ladder(), "GB") {
                self.state.views.set_burst_gb(gb);
            }
        }
        if let Some(t) = get(THEME_PARAM).and_then(|v| self.named::<Theme>(THEME_PARAM, v)) {
            self.state.display.theme = t;
        }
        if let Some(v) = get(SPEED_PARAM) {
            match v.parse::<u32>() {
                Ok(speed) if SPEEDS_US_PER_S.contains(&speed) => {
                    self.state.views.set_speed_us_per_s(speed)
                }
                _ => self.note(
                    SPEED_PARAM,
                    format!(
                        "'{}' is not an offered speed in µs per second ({})",
                        quote(v),
                        SPEEDS_US_PER_S.map(|s| s.to_string()).join(", ")
                    ),
                ),
            }
        }
    }

    /// What an author set for a shared or embedded lab: embed, charts, locks, pins.
    fn sharing(&mut self, get: &Get<'_>) {
        if let Some(on) = get("embed").and_then(|v| self.flag("embed", v)) {
            self.state.embedding.framed = on;
        }
        if let Some(v) = get("charts") {
            self.charts(v);
        }
        if let Some(v) = get("lock") {
            self.lock(v);
        }
        if let Some(v) = get("compare") {
            self.compare(v);
        }
        if let Some(v) = get("hosts") {
            self.hosts(v);
        }
    }

    /// `hosts=`: each origin applies; each item that is not one is noted and not heard, so a
    /// list without one origin (or `none`) hears nobody.
    fn hosts(&mut self, v: &str) {
        let mut hosts = Hosts::Only(Vec::new());
        for item in list_items(v).filter(|i| *i != NO_HOSTS) {
            if let Err(e) = hosts.add(item) {
                self.note("hosts", format!("'{}' is not heard: {e}", quote(item)));
            }
        }
        self.state.embedding.hosts = hosts;
    }

    /// `tour=` and `step=`: the place, the step 1 when not given; a step that is not a whole
    /// number from 1, or a step without a tour, is noted.
    fn tour_place(&mut self, get: &Get<'_>) -> Option<TourPlace> {
        let step = match get(STEP_PARAM).map(|v| (v, v.parse::<usize>())) {
            None => Some(1),
            Some((_, Ok(n))) if n >= 1 => Some(n),
            Some((v, _)) => {
                let message = format!("'{}' is not a step number (1, 2, ...)", quote(v));
                self.note(STEP_PARAM, message);
                None
            }
        };
        match get(TOUR_PARAM) {
            Some(tour) => step.map(|step| TourPlace {
                tour: tour.to_string(),
                step,
            }),
            None if get(STEP_PARAM).is_some() => {
                let message = format!("a step needs its tour ({TOUR_PARAM}=ID); ignored");
                self.note(STEP_PARAM, message);
                None
            }
            None => None,
        }
    }

    /// A switch: `1` or `true`, `0` or `false`; anything else is noted.
    fn flag(&mut self, param: &str, v: &str) -> Option<bool> {
        match v {
            "1" | "true" => Some(true),
            "0" | "false" => Some(false),
            _ => {
                self.note(param, format!("'{}' is not 1 or 0", quote(v)));
                None
            }
        }
    }
}

/// The items of a `,` list, trimmed, without empty ones.
fn list_items(v: &str) -> impl Iterator<Item = &str> {
    v.split(LIST_SEPARATOR)
        .map(str::trim)
        .filter(|i| !i.is_empty())
}

struct Parser {
    state: LabState,
    notes: Vec<Note>,
}

impl Parser {
    fn note(&mut self, param: &str, message: String) {
        self.notes.push(Note {
            param: quote(param),
            message,
        });
    }

    /// A name from the URL read as `T` (one of the enum's names), or a note with the enum's own
    /// refusal, which lists the names it accepts (the value quoted for the page).
    fn named<T: FromStr<Err = ConfigError>>(&mut self, param: &str, v: &str) -> Option<T> {
        match v.parse::<T>() {
            Ok(t) => Some(t),
            Err(ConfigError::Unknown { what, expected, .. }) => {
                let message = format!(
                    "unknown {what} '{}' (expected one of: {expected})",
                    quote(v)
                );
                self.note(param, message);
                None
            }
            Err(other) => {
                self.note(param, other.to_string());
                None
            }
        }
    }

    /// Splits and decodes the query; notes unknown names and repeats (the first one counts).
    fn collect(&mut self, query: &str) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for (k, v) in pairs(query) {
            if k == DEBUG_PARAM {
                // The crash screen's and the pool's (`?debug=panic`, `?debug=worker`), not
                // part of the lab's state.
                continue;
            }
            let known = PARAMS.contains(&k.as_str())
                || [THEME_PARAM, SPEED_PARAM, TOUR_PARAM, STEP_PARAM].contains(&k.as_str())
                || SHARE_PARAMS.contains(&k.as_str());
            if !known {
                self.note(
                    &k,
                    format!(
                        "unknown parameter, ignored (the lab reads: {}, {THEME_PARAM}, {SPEED_PARAM}, {}, {TOUR_PARAM}, {STEP_PARAM})",
                        PARAMS.join(", "),
                        SHARE_PARAMS.join(", ")
                    ),
                );
            } else if out.iter().any(|(seen, _)| *seen == k) {
                self.note(&k, "given more than once; the first value counts".into());
            } else {
                out.push((k, v.trim().to_string()));
            }
        }
        out
    }

    /// `charts=`: the known names apply; unknown ones are noted; none known keeps every chart.
    fn charts(&mut self, v: &str) {
        let mut ids = Vec::new();
        for item in list_items(v) {
            match item.parse::<ChartId>().ok() {
                Some(c) => ids.push(c),
                None => self.note(
                    "charts",
                    format!(
                        "unknown chart '{}' ignored (charts: {})",
                        quote(item),
                        ChartId::ALL.map(ChartId::id).join(", ")
                    ),
                ),
            }
        }
        match ChartsShown::of(&ids) {
            Some(shown) => self.state.embedding.charts = shown,
            None => self.note(
                "charts",
                "names no known chart; showing every chart".to_string(),
            ),
        }
    }

    /// `lock=`: the known control names lock; unknown ones are noted.
    fn lock(&mut self, v: &str) {
        let mut controls = Vec::new();
        for item in list_items(v) {
            match item.parse::<Control>().ok() {
                Some(c) => controls.push(c),
                None => self.note(
                    "lock",
                    format!(
                        "unknown control '{}' not locked (controls: {})",
                        quote(item),
                        Control::ALL.map(Control::id).join(", ")
                    ),
                ),
            }
        }
        self.state.embedding.locks = Locks::of(&controls);
    }

    /// `compare=`: each valid pin is added (at most [`MAX_PINS`]); each bad one is noted.
    fn compare(&mut self, v: &str) {
        for (i, code) in v
            .split(PIN_SEPARATOR)
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .enumerate()
        {
            let added = Pin::parse(code)
                .and_then(|pin| self.state.pins.add(pin).map_err(|e| e.to_string()));
            if let Err(why) = added {
                self.note(
                    "compare",
                    format!("pin {} ('{}') not shown: {why}", i + 1, quote(code)),
                );
            }
            if i >= MAX_PINS * 4 {
                // A hand-written link never has this many; stop noting each one.
                self.note("compare", "the rest of the list was ignored".into());
                break;
            }
        }
    }

    fn drive(&mut self, cap: Option<&str>, dies: Option<&str>) {
        let native = self.state.drive.preset().nand.die_gbit;
        let dies = dies.and_then(|v| self.die_count(v));
        let cap = cap.and_then(|v| self.capacity(v));
        match (cap, dies) {
            (Some(gb), Some(dies)) => self.capacity_from_dies(gb, dies),
            (None, Some(dies)) => {
                // Cannot fail: the count was checked, and the preset's own part is offered.
                let _ = self.state.drive.set_choice(DriveChoice {
                    dies,
                    die_gbit: native,
                });
            }
            (Some(gb), None) => self.capacity_of_the_part(gb),
            (None, None) => {}
        }
    }

    fn die_count(&mut self, v: &str) -> Option<u32> {
        match v.parse::<u32>() {
            Ok(d) if (1..=MAX_DIES).contains(&d) => Some(d),
            Ok(_) => {
                self.note("dies", format!("{} is outside 1 to {MAX_DIES}", quote(v)));
                None
            }
            Err(_) => {
                self.note("dies", format!("'{}' is not a whole number", quote(v)));
                None
            }
        }
    }

    fn capacity(&mut self, v: &str) -> Option<f64> {
        match v.parse::<f64>() {
            Ok(gb) if gb.is_finite() && gb > 0.0 => Some(gb),
            _ => {
                self.note(
                    "cap",
                    format!("'{}' is not a capacity in GB above 0", quote(v)),
                );
                None
            }
        }
    }

    /// Both given: the die density that makes `gb` from `dies`, if the lab offers it; else the
    /// dies of the preset's own part, and a note.
    fn capacity_from_dies(&mut self, gb: f64, dies: u32) {
        let preset = self.state.drive.preset().clone();
        let native = preset.nand.die_gbit;
        let gb_per_gbit = preset.gb_per_die() / f64::from(native);
        let density = gb / f64::from(dies) / gb_per_gbit;
        let fits = DIE_DENSITIES_GBIT
            .into_iter()
            .find(|&g| (f64::from(g) / density - 1.0).abs() < CAPACITY_TOLERANCE);
        // Cannot fail: the count was checked, and both densities are offered.
        let _ = self.state.drive.set_choice(DriveChoice {
            dies,
            die_gbit: fits.unwrap_or(native),
        });
        if fits.is_none() {
            self.note(
                "cap",
                format!(
                    "{gb} GB from {dies} dies needs {density:.0} Gbit dies, which the lab does \
                     not offer ({} Gbit); kept {dies} dies of the {} part",
                    DIE_DENSITIES_GBIT.map(|g| g.to_string()).join(", "),
                    preset.nand.name
                ),
            );
        }
    }

    /// Capacity alone: the nearest die count of the preset's own part, with a note when it is
    /// not the capacity asked for.
    fn capacity_of_the_part(&mut self, gb: f64) {
        let preset = self.state.drive.preset().clone();
        let dies = match preset.dies_for_capacity_gb(gb) {
            Ok(dies) => dies,
            Err(e) => return self.note("cap", e.to_string()),
        };
        let _ = self.state.drive.set_choice(DriveChoice {
            dies,
            die_gbit: preset.nand.die_gbit,
        });
        let got = self.state.drive.capacity_gb();
        if (got / gb - 1.0).abs() > CAPACITY_TOLERANCE {
            self.note(
                "cap",
                format!(
                    "no {} drive has exactly {gb} GB; using the nearest, {got:.0} GB ({dies} dies)",
                    preset.controller.name
                ),
            );
        }
    }

    /// Applies `rw`; returns it when valid.
    fn rw(&mut self, v: &str) -> Option<Rw> {
        let rw = self.named::<Rw>("rw", v)?;
        self.state.workload.set_random(rw.is_random());
        match rw.fixed_read_percent() {
            Some(pct) => self.state.workload.set_read_pct(u32::from(pct)),
            None => {
                let pct = self.state.workload.read_pct();
                if pct == 0 || pct == ALL_READS_PCT {
                    self.state.workload.set_read_pct(DEFAULT_MIXED_READ_PCT);
                }
            }
        }
        Some(rw)
    }

    fn mix(&mut self, v: &str, rw: Option<Rw>) {
        let Ok(pct) = v.parse::<u32>() else {
            self.note("mix", format!("'{}' is not a whole percentage", quote(v)));
            return;
        };
        if pct > u32::from(ALL_READS_PCT) || !pct.is_multiple_of(u32::from(READ_SHARE_STEP)) {
            self.note(
                "mix",
                format!("{pct} is not a read share of 0 to 100 in steps of {READ_SHARE_STEP}"),
            );
            return;
        }
        if let Some(fixed) = rw.and_then(Rw::fixed_read_percent) {
            if u32::from(fixed) != pct {
                self.note(
                    "mix",
                    format!(
                        "ignored: rw={} already means {fixed}% reads",
                        rw.map(Rw::fio_name).unwrap_or_default()
                    ),
                );
                return;
            }
        }
        self.state.workload.set_read_pct(pct);
    }

    fn block_size(&mut self, v: &str) {
        match parse_block_size(v) {
            Ok(bytes) if BLOCK_SIZES.contains(&bytes) => self.state.workload.set_bs_bytes(bytes),
            Ok(_) => self.note(
                "bs",
                format!(
                    "{} is not on the slider (powers of two from {} to {})",
                    quote(v),
                    format_block_size(BLOCK_SIZES[0]),
                    format_block_size(BLOCK_SIZES[BLOCK_SIZES.len() - 1])
                ),
            ),
            Err(e) => self.note("bs", e.to_string()),
        }
    }

    /// A whole number for a slider over `ladder`: outside its range or not a number is noted
    /// and refused; between its steps it snaps to the nearest with a note.
    fn on_ladder(&mut self, param: &str, v: &str, ladder: &Ladder, unit: &str) -> Option<u32> {
        let values = ladder.values();
        let (lo, hi) = (values[0], values[values.len() - 1]);
        match v.parse::<u32>() {
            Ok(n) if (lo..=hi).contains(&n) => {
                let snapped = ladder.nearest(n);
                if snapped != n {
                    self.note(
                        param,
                        format!("{n} lies between the slider's steps; using {snapped}"),
                    );
                }
                Some(snapped)
            }
            Ok(n) => {
                self.note(param, format!("{n} is outside {lo} to {hi} {unit}"));
                None
            }
            Err(_) => {
                self.note(
                    param,
                    format!("'{}' is not a whole number of {unit}", quote(v)),
                );
                None
            }
        }
    }

    fn queue_depth(&mut self, v: &str) {
        match v.parse::<u32>() {
            Ok(iodepth) if (1..=MAX_IODEPTH).contains(&iodepth) => {
                let ladder = iodepth_ladder();
                let snapped = ladder.nearest(iodepth);
                self.state.workload.set_iodepth(snapped);
                if snapped != iodepth {
                    self.note(
                        "qd",
                        format!("{iodepth} lies between the slider's steps; using {snapped}"),
                    );
                }
            }
            Ok(iodepth) => self.note("qd", format!("{iodepth} is outside 1 to {MAX_IODEPTH}")),
            Err(_) => self.note(
                "qd",
                format!(
                    "'{}' is not a whole number; kept {}",
                    quote(v),
                    self.state.workload.iodepth()
                ),
            ),
        }
    }
}

/// A capacity for the link: whole GB when it is one, else up to two decimals (small custom
/// drives such as one 32 Gbit die have 3.75 GB, and rounding that would change the die density).
fn format_gb(gb: f64) -> String {
    let cents = (gb * 100.0).round() / 100.0;
    if cents.fract() == 0.0 {
        format!("{cents:.0}")
    } else {
        format!("{cents:.2}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

/// The query's `name=value` pairs, decoded, in order (empty pairs skipped; a pair without `=`
/// has an empty value).
fn pairs(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode_component(k), decode_component(v))
        })
}

/// The parameter names of `query`, decoded, in order, repeats kept.
pub fn names(query: &str) -> Vec<String> {
    pairs(query).map(|(k, _)| k).collect()
}

/// The parameters of `query`, decoded, in order, repeats kept.
pub fn params(query: &str) -> Vec<(String, String)> {
    pairs(query).collect()
}

/// Encodes one query component so that [`decode_component`] gives it back: letters, digits
/// and `-_.~,:/` as they are (a link stays readable), every other byte as `%XX`.
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~,:/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Link text shortened for quoting back to the reader.
pub fn quote(s: &str) -> String {
    if s.chars().count() <= MAX_QUOTED_CHARS {
        s.to_string()
    } else {
        s.chars().take(MAX_QUOTED_CHARS).collect::<String>() + "…"
    }
}

/// Decodes one `application/x-www-form-urlencoded` component: `+` is a space, `%XX` a byte;
/// a malformed escape stays as written and invalid UTF-8 becomes U+FFFD.
pub fn decode_component(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(hi), Some(lo)) => {
                    out.push(hi << 4 | lo);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(q: &str) -> Parsed {
        parse_query(q, LabState::default())
    }

    fn notes_for(parsed: &Parsed, param: &str) -> Vec<String> {
        parsed
            .notes
            .iter()
            .filter(|n| n.param == param)
            .map(|n| n.message.clone())
            .collect()
    }

    #[test]
    fn the_default_state_serialises_with_every_core_parameter() {
        assert_eq!(
            to_query(&LabState::default()),
            "preset=e18dc&cap=1920&dies=32&qd=32&rw=randread&bs=4k&state=steady"
        );
    }

    #[test]
    fn a_review_link_opens_with_exactly_its_values() {
        let p = parse("?preset=e18dc&cap=960&qd=32&rw=randwrite");
        assert!(p.notes.is_empty(), "{:?}", p.notes);
        assert_eq!(p.state.drive.dies(), 16);
        assert!((p.state.drive.capacity_gb() - 960.0).abs() < 0.5);
        assert_eq!(p.state.workload.iodepth(), 32);
        assert_eq!(p.state.workload.rw(), Rw::RandWrite);
        assert_eq!(p.state.workload.read_pct(), 0);
    }

    #[test]
    fn every_reachable_state_round_trips_through_the_query() {
        let mut states = Vec::new();
        for preset in presets::all() {
            let mut s = LabState::default();
            s.drive.set_preset(preset);
            states.push(s.clone());
            s.drive.set_hold(Hold::Capacity);
            let dies = s.drive.dies_ladder().values()[0];
            s.drive.set_dies(dies);
            s.workload.set_iodepth(24);
            s.workload.set_random(false);
            s.workload.set_read_pct(70);
            s.workload.set_bs_bytes(128 << 10);
            s.workload.set_drive_state(DriveState::SeqFilled);
            s.views.set_show_p999(true);
            s.views.set_think_us(500_000);
            s.views.set_apst(false);
            s.display.theme = Theme::Dark;
            // The top active power state of the preset's table (PS0 without one).
            s.drive.set_power_state(u32::MAX);
            states.push(s.clone());
            s.display.theme = Theme::Projector;
            s.display.view = View::Activity;
            s.views.set_speed_us_per_s(500);
            states.push(s.clone());
            s.display.view = View::Scorecard;
            states.push(s.clone());
            s.display.view = View::Queue;
            states.push(s.clone());
            s.display.view = View::OverTime;
            s.views.set_idle_s(0);
            s.views.set_burst_gb(128);
            states.push(s.clone());
            s.display.view = View::Queue;
            states.push(s.clone());
            s.views.set_idle_s(1800);
            s.views.set_burst_gb(4);
            s.drive.set_hold(Hold::Dies);
            s.workload.set_read_pct(0);
            s.drive.set_dies(MAX_DIES);
            states.push(s);
        }
        let mut odd = LabState::default();
        odd.drive.set_dies(17);
        states.push(odd.clone());
        odd.workload.set_load(LoadKind::Rate);
        states.push(odd.clone());
        odd.workload.set_rate_iops(5_000_000);
        odd.workload.set_spacing(Spacing::Linear);
        states.push(odd.clone());
        odd.workload.set_load(LoadKind::Depth);
        odd.workload.set_rate_iops(10);
        states.push(odd.clone());
        odd.workload.set_load(LoadKind::Jobs);
        states.push(odd.clone());
        odd.workload.jobs_mut().add();
        odd.workload
            .jobs_mut()
            .update(2, |j| j.set_rate_iops(Some(20_000)));
        states.push(odd.clone());
        odd.workload.set_load(LoadKind::Trace);
        states.push(odd.clone());
        odd.workload.set_trace(TraceSource::DesktopHeavy);
        states.push(odd.clone());
        odd.workload.set_trace(TraceSource::File);
        states.push(odd.clone());
        odd.workload.set_load(LoadKind::Depth);
        states.push(odd);
        for s in states {
            let q = to_query(&s);
            let back = parse(&q);
            assert!(back.notes.is_empty(), "{q}: {:?}", back.notes);
            assert_eq!(back.state, s, "{q}");
            assert_eq!(to_query(&back.state), q);
        }
    }

    #[test]
    fn a_rate_link_opens_the_rate_view_and_carries_every_rate_setting() {
        let p = parse("workload=rate&rate=250000&arrivals=linear&qd=64&rw=randread");
        assert!(p.notes.is_empty(), "{:?}", p.notes);
        let w = &p.state.workload;
        assert_eq!(w.load(), LoadKind::Rate);
        assert_eq!(
            (w.rate_iops(), w.spacing(), w.iodepth()),
            (250_000, Spacing::Linear, 64)
        );
        assert_eq!(
            to_query(&p.state),
            "preset=e18dc&cap=1920&dies=32&workload=rate&rate=250000&arrivals=linear&qd=64\
             &rw=randread&bs=4k&state=steady"
        );
    }

    #[test]
    fn bad_rate_settings_are_named_and_the_rest_still_applies() {
        let p = parse("workload=replay&rate=9000000&arrivals=bursty&qd=8");
        assert!(notes_for(&p, "workload")[0].contains("expected one of: depth, rate, jobs, trace"));
        assert!(notes_for(&p, "rate")[0].contains("outside 10 to 5000000"));
        assert!(notes_for(&p, "arrivals")[0].contains("linear, poisson"));
        assert_eq!(p.state.workload.iodepth(), 8);
        assert_eq!(p.state.workload.load(), LoadKind::Depth);
        let between = parse("workload=rate&rate=260000");
        assert!(notes_for(&between, "rate")[0].contains("using 250000"));
        assert_eq!(between.state.workload.rate_iops(), 250_000);
    }

    #[test]
    fn the_power_state_is_in_the_link_for_a_preset_with_a_table_and_noted_otherwise() {
        let e12 = parse("preset=e12&power=ps2&qd=64");
        assert!(e12.notes.is_empty(), "{:?}", e12.notes);
        assert_eq!(e12.state.drive.power_state(), 2);
        assert_eq!(e12.state.drive.power_budget_w(), Some(1.8));
        assert!(to_query(&e12.state).contains("&power=ps2&"));
        let bad = parse("preset=e12&power=ps3");
        assert_eq!(
            bad.state.drive.power_state(),
            0,
            "an idle state runs no I/O"
        );
        assert!(bad.notes[0].message.contains("ps0..ps2"), "{:?}", bad.notes);
        let none = parse("preset=e18dc&power=ps1");
        assert_eq!(none.state.drive.power_state(), 0);
        assert!(none.notes[0]
            .message
            .contains("no published power-state table"));
        assert!(!to_query(&LabState::default()).contains("power="));
    }

    #[test]
    fn the_hosts_an_author_lets_drive_the_lab_round_trip_and_a_typo_opens_it_to_nobody() {
        let p = parse_query(
            "embed=1&hosts=https://blog.example,http://127.0.0.1:8081",
            LabState::default(),
        );
        assert!(p.notes.is_empty(), "{:?}", p.notes);
        let hosts = &p.state.embedding.hosts;
        assert!(hosts.hears("https://blog.example") && hosts.hears("http://127.0.0.1:8081"));
        assert!(!hosts.hears("https://other.example"));
        assert_eq!(
            parse_query(&to_query(&p.state), LabState::default()).state,
            p.state
        );

        let typo = parse_query("hosts=blog.example", LabState::default());
        assert_eq!(typo.notes.len(), 1);
        assert_eq!(typo.notes[0].param, "hosts");
        assert!(!typo.state.embedding.hosts.hears("https://blog.example"));
        assert!(
            to_query(&typo.state).contains("hosts=none"),
            "and stays so in the link"
        );
    }

    #[test]
    fn a_bad_queue_depth_is_named_and_everything_else_still_applies() {
        let p = parse("qd=banana&rw=randwrite&bs=128k");
        let iodepth = notes_for(&p, "qd");
        assert_eq!(iodepth.len(), 1);
        assert!(iodepth[0].contains("banana") && iodepth[0].contains("not a whole number"));
        assert_eq!(
            p.state.workload.iodepth(),
            LabState::default().workload.iodepth()
        );
        assert_eq!(p.state.workload.rw(), Rw::RandWrite);
        assert_eq!(p.state.workload.bs_bytes(), 128 << 10);
    }

    #[test]
    fn unknown_and_repeated_parameters_are_noted_and_ignored() {
        let p = parse("foo=1&qd=8&qd=16&&=x");
        assert_eq!(notes_for(&p, "foo").len(), 1);
        assert!(notes_for(&p, "foo")[0].contains("unknown parameter"));
        assert_eq!(notes_for(&p, "qd").len(), 1);
        assert_eq!(p.state.workload.iodepth(), 8);
        assert_eq!(notes_for(&p, "").len(), 1, "an empty name is unknown too");
    }

    #[test]
    fn out_of_range_values_are_refused_with_the_allowed_range() {
        let p = parse(
            "qd=0&dies=999&cap=-5&mix=75&bs=12k&state=new&theme=blue&preset=e99&p999=2&view=x&speed=3",
        );
        for param in [
            "qd", "dies", "cap", "mix", "bs", "state", "theme", "preset", "p999", "view", "speed",
        ] {
            assert_eq!(notes_for(&p, param).len(), 1, "{param}: {:?}", p.notes);
        }
        assert!(notes_for(&p, "qd")[0].contains("1 to 1024"));
        assert!(notes_for(&p, "preset")[0].contains("e18dc"));
        assert_eq!(
            p.state,
            LabState::default(),
            "nothing invalid changes the state"
        );
    }

    #[test]
    fn the_drive_over_time_view_and_its_settings_are_in_the_link() {
        let p = parse("preset=e12&view=time&idle=10&burst=16");
        assert!(p.notes.is_empty(), "{:?}", p.notes);
        assert_eq!(
            (
                p.state.display.view,
                p.state.views.idle_s(),
                p.state.views.burst_gb()
            ),
            (View::OverTime, 10, 16)
        );
        let q = to_query(&p.state);
        assert!(q.contains("&view=time&idle=10&burst=16"), "{q}");
        let mut s = LabState::default();
        s.display.view = View::OverTime;
        assert!(to_query(&s).ends_with("&view=time&idle=60&burst=32"));
        s.display.view = View::Queue;
        assert!(
            !to_query(&s).contains("idle"),
            "defaults stay out of a plain link"
        );
    }

    #[test]
    fn bad_drive_over_time_values_are_noted_and_change_nothing() {
        let p = parse("view=graph&idle=-3&burst=lots");
        for param in ["view", "idle", "burst"] {
            assert_eq!(notes_for(&p, param).len(), 1, "{param}: {:?}", p.notes);
        }
        assert!(notes_for(&p, "view")[0].contains("qd, time"));
        assert!(notes_for(&p, "idle")[0].contains("not a whole number of seconds"));
        assert_eq!(p.state, LabState::default());
        let p = parse("idle=99999&burst=1");
        assert!(notes_for(&p, "idle")[0].contains("outside 0 to 1800 seconds"));
        assert!(notes_for(&p, "burst")[0].contains("outside 4 to 128 GB"));
        assert_eq!(p.state, LabState::default());
        let p = parse("idle=45");
        assert_eq!(
            p.state.views.idle_s(),
            30,
            "45 s is as near to 30 as to 60: the lower wins"
        );
        assert!(notes_for(&p, "idle")[0].contains("using 30"));
    }

    #[test]
    fn values_between_steps_snap_with_a_note() {
        let p = parse("qd=100&cap=1000");
        assert_eq!(p.state.workload.iodepth(), 96);
        assert!(notes_for(&p, "qd")[0].contains("using 96"));
        assert_eq!(p.state.drive.dies(), 17);
        assert!(notes_for(&p, "cap")[0].contains("1020 GB"));
    }

    #[test]
    fn capacity_and_dies_together_choose_the_die_density() {
        let p = parse("cap=1920&dies=64");
        assert!(p.notes.is_empty(), "{:?}", p.notes);
        assert_eq!((p.state.drive.dies(), p.state.drive.die_gbit()), (64, 256));
        let p = parse("cap=1000&dies=16");
        assert_eq!(notes_for(&p, "cap").len(), 1);
        assert_eq!((p.state.drive.dies(), p.state.drive.die_gbit()), (16, 512));
    }

    #[test]
    fn a_mixed_pattern_takes_its_share_from_mix_and_fixed_patterns_ignore_it() {
        let p = parse("rw=randrw&mix=30");
        assert_eq!(
            (p.state.workload.rw(), p.state.workload.read_pct()),
            (Rw::RandRw, 30)
        );
        let p = parse("rw=rw");
        assert_eq!(
            p.state.workload.read_pct(),
            70,
            "a mix without a share gets 70/30"
        );
        let p = parse("rw=randread&mix=30");
        assert_eq!(p.state.workload.read_pct(), 100);
        assert!(notes_for(&p, "mix")[0].contains("already means 100% reads"));
    }

    #[test]
    fn the_preset_applies_before_the_capacity() {
        let p = parse("cap=128&preset=octane");
        assert!(p.notes.is_empty(), "{:?}", p.notes);
        assert_eq!(p.state.drive.preset().id, "octane");
        assert_eq!(p.state.drive.dies(), 16);
    }

    #[test]
    fn a_drive_of_your_own_round_trips_through_the_link_and_a_bad_one_is_noted() {
        // Issue 17: `drive=` holds a fitted drive; the rest of the state applies on top of it.
        let p = parse("drive=e12_d24_r52500_c900&dies=20&qd=64&compare=e12_d24_r52500_c900.24.randread.4k.fob");
        assert!(p.notes.is_empty(), "{:?}", p.notes);
        assert_eq!(p.state.drive.preset().id, "e12_d24_r52500_c900");
        assert_eq!(p.state.drive.preset().nand.t_read.0, 52_500);
        assert_eq!(p.state.drive.dies(), 20);
        assert_eq!(p.state.pins.as_slice().len(), 1);
        let q = to_query(&p.state);
        assert!(q.starts_with("drive=e12_d24_r52500_c900&"), "{q}");
        assert!(!q.contains("preset="), "{q}");
        assert_eq!(parse(&q).state, p.state);

        let bad = parse("preset=e12&drive=e12_d0&qd=8");
        assert_eq!(bad.state.drive.preset().id, "e12", "the drive is unchanged");
        assert_eq!(bad.state.workload.iodepth(), 8);
        let note = &notes_for(&bad, "drive")[0];
        assert!(note.contains("d (dies) '0'"), "{note}");
        assert!(note.contains("the drive is unchanged"), "{note}");
    }

    #[test]
    fn the_crash_screens_debug_parameter_is_not_an_unknown_one() {
        let p = parse("debug=panic&qd=8");
        assert!(p.notes.is_empty(), "{:?}", p.notes);
        assert_eq!(p.state.workload.iodepth(), 8);
        assert!(!to_query(&p.state).contains("debug"));
    }

    #[test]
    fn lock_covers_the_view_and_its_own_settings() {
        let p = parse("view=time&lock=speed,idle,view,burst");
        assert!(p.notes.is_empty(), "{:?}", p.notes);
        let want = vec![Control::View, Control::Idle, Control::Burst, Control::Speed];
        assert_eq!(p.state.embedding.locks.list(), want);
        let q = to_query(&p.state);
        assert!(q.ends_with("&lock=view,idle,burst,speed"), "{q}");
    }

    #[test]
    fn share_and_embed_parameters_round_trip() {
        let p = parse(
            "embed=1&charts=mix,iops&lock=rw,qd&compare=e18dc.8.randread.4k.steady,e12.16x1024.randrw70.128k.fob",
        );
        assert!(p.notes.is_empty(), "{:?}", p.notes);
        assert!(p.state.embedding.framed);
        assert_eq!(
            p.state.embedding.charts.list(),
            vec![ChartId::Iops, ChartId::Mix]
        );
        assert_eq!(
            p.state.embedding.locks.list(),
            vec![Control::Iodepth, Control::Rw]
        );
        assert_eq!(p.state.pins.as_slice().len(), 2);
        let q = to_query(&p.state);
        assert!(
            q.ends_with(
                "compare=e18dc.8.randread.4k.steady,e12.16x1024.randrw70.128k.fob\
                 &embed=1&charts=iops,mix&lock=qd,rw"
            ),
            "{q}"
        );
        let back = parse(&q);
        assert!(back.notes.is_empty(), "{:?}", back.notes);
        assert_eq!(back.state, p.state);
        let full = to_query(&p.state.full_lab());
        assert!(full.contains("compare=") && !full.contains("embed") && !full.contains("lock"));
    }

    #[test]
    fn bad_share_parameters_are_noted_and_the_valid_rest_applies() {
        let p =
            parse("embed=yes&charts=iops,pie&lock=qd,warp&compare=e18dc.8.randread.4k.steady,junk");
        for param in ["embed", "charts", "lock", "compare"] {
            assert_eq!(notes_for(&p, param).len(), 1, "{param}: {:?}", p.notes);
        }
        assert!(!p.state.embedding.framed);
        assert_eq!(p.state.embedding.charts.list(), vec![ChartId::Iops]);
        assert_eq!(p.state.embedding.locks.list(), vec![Control::Iodepth]);
        assert_eq!(p.state.pins.as_slice().len(), 1);
        assert!(notes_for(&p, "compare")[0].contains("5 fields"));

        let p = parse("charts=pie");
        assert!(p.state.embedding.charts.is_all());
        assert_eq!(notes_for(&p, "charts").len(), 2);

        let five = ["e18dc.8", "e18dc.16", "e18dc.32", "e12.16", "e8.8"]
            .map(|d| format!("{d}.randread.4k.steady"))
            .join(",");
        let p = parse(&format!("compare={five}"));
        assert_eq!(p.state.pins.as_slice().len(), MAX_PINS);
        assert!(notes_for(&p, "compare")[0].contains("At most 4"));
        let p = parse(&format!("compare={}", ",x".repeat(1000)));
        assert!(p.notes.len() <= MAX_PINS * 4 + 2);
    }

    #[test]
    fn link_text_is_decoded_and_long_text_is_shortened_in_notes() {
        assert_eq!(decode_component("a+b%20c%zz%4"), "a b c%zz%4");
        assert_eq!(decode_component("%E2%9C%93"), "✓");
        let long = "x".repeat(500);
        let p = parse(&format!("{long}=1&rw=<b>{long}"));
        assert!(p.notes.iter().all(|n| n.param.chars().count() <= 33));
        assert!(p.notes.iter().all(|n| n.message.len() < 300));
    }

    #[test]
    fn a_tour_and_its_step_are_read_as_a_place_and_written_last() {
        let p = parse("tour=p99&step=2&qd=8");
        assert!(p.notes.is_empty(), "{:?}", p.notes);
        let place = TourPlace {
            tour: "p99".into(),
            step: 2,
        };
        assert_eq!(p.tour, Some(place.clone()));
        assert!(p.names_lab, "qd is the lab's own");
        assert_eq!(tour_query(&place), "tour=p99&step=2");
        let q = format!("{}&{}", to_query(&p.state), tour_query(&place));
        let back = parse(&q);
        assert_eq!((back.state, back.tour), (p.state, Some(place)));
        let alone = parse("tour=p99&theme=dark");
        assert_eq!(alone.tour.map(|t| t.step), Some(1));
        assert!(
            !alone.names_lab,
            "the theme is the reader's, not the lab's state"
        );
    }

    #[test]
    fn a_bad_step_or_a_step_without_a_tour_is_noted() {
        for (q, says) in [
            ("tour=p99&step=0", "'0' is not a step number"),
            ("tour=p99&step=x", "'x' is not a step number"),
            ("step=2", "a step needs its tour (tour=ID); ignored"),
        ] {
            let p = parse(q);
            assert_eq!(p.tour, None, "{q}");
            assert!(
                notes_for(&p, "step")[0].starts_with(says),
                "{q}: {:?}",
                p.notes
            );
        }
    }
}
