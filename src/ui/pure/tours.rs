//! The guided tours the lab ships ([`built_in`], the files of `assets/tours/` read with
//! [`tour_file::parse`]), how a step sets the lab ([`apply_step`]), and a step in a link
//! ([`open_link`] reads `tour=ID&step=N`, [`link_query`] writes it).
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
//!   since the tours' panel is shown in every view and the reader never loses it;
//! - a link that names a step and none of the lab's own parameters (`?tour=p99&step=2`, as a
//!   teacher writes it) opens the step as a click on it would; a link that also carries the
//!   lab's state (as the page's own address does, since the reader may have moved a control
//!   after the step set it) opens that state, with the tour at that step: the lab shows what
//!   the link says, and `open_link(&link_query(s, at))` gives back `s` and `at`;
//! - a tour or step the lab does not have is noted like any bad parameter, and the rest of
//!   the link applies;
//! - a `tour=` that is a tour file's path beside the lab ([`is_hosted_path`]) is left to the
//!   page to fetch ([`Opened::hosted`]); no other path or address is ever one.

use std::sync::LazyLock;

use crate::ui::pure::state::{DriveSetup, LabState, WorkloadSetup};
use crate::ui::pure::tour_file::{self, TourFile, TourStep};
use crate::ui::pure::url_state::{self, Note, TourPlace, STEP_PARAM, TOUR_PARAM};

/// The built-in tours' files, in the order the page lists them.
const FILES: [&str; 11] = [
    include_str!("../../../assets/tours/qd1-reads.json"),
    include_str!("../../../assets/tours/p99.json"),
    include_str!("../../../assets/tours/load.json"),
    include_str!("../../../assets/tours/desktop.json"),
    include_str!("../../../assets/tours/random-writes.json"),
    include_str!("../../../assets/tours/sequential.json"),
    include_str!("../../../assets/tours/quarter-dies.json"),
    include_str!("../../../assets/tours/slc-cache.json"),
    include_str!("../../../assets/tours/power.json"),
    include_str!("../../../assets/tours/predict-capacity.json"),
    include_str!("../../../assets/tours/littles-law.json"),
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
    apply_state(&step.state, lab);
}

/// Sets the lab as a step's `state` (a link's query) says; see [`apply_step`].
pub fn apply_state(state: &str, lab: &mut LabState) {
    *lab = read_state(state, lab).state;
}

/// What `state` (a link's query) makes of `lab` as a step sets it ([`apply_step`]), and the
/// notes on what it could not apply; `lab` itself is left as it is.
pub fn read_state(state: &str, lab: &LabState) -> url_state::Parsed {
    let base = LabState {
        drive: DriveSetup::default(),
        workload: WorkloadSetup::default(),
        ..lab.clone()
    };
    url_state::parse_query(state, base)
}

/// The built-in tours' step states, as a table `build.rs` makes from their files.
mod table {
    include!(concat!(env!("OUT_DIR"), "/tour_steps.rs"));
}

/// The state of the built-in tour's step `place` names, read from the table `build.rs` makes
/// of the tours' files rather than from the files: for the opening chart, which carries no
/// tour reader. A step past the tour's last is its first, as [`open_link`] opens it; a tour
/// that is not built in has none.
pub fn built_in_step_state(place: &TourPlace) -> Option<&'static str> {
    let (_, states) = table::STEP_STATES
        .iter()
        .find(|(id, _)| *id == place.tour)?;
    let step = if place.step > states.len() {
        1
    } else {
        place.step
    };
    states.get(step.checked_sub(1)?).copied()
}

/// Where a reader is in the built-in tours: (tour, step) as indices into [`built_in`].
pub type TourIndex = (usize, usize);

/// What a link opens: the lab's state, what was not applied, and the place in a tour.
#[derive(Clone, Debug, PartialEq)]
pub struct Opened {
    pub state: LabState,
    pub notes: Vec<Note>,
    /// The place in a built-in tour.
    pub at: Option<TourIndex>,
    /// The place in a tour file hosted beside the lab ([`is_hosted_path`]), for the page to
    /// fetch: the link is read without it, and the page opens the step once the file is in.
    pub hosted: Option<TourPlace>,
    /// The link names a step and none of the lab's own parameters, so the step sets the lab.
    pub sets_step: bool,
}

/// Reads a link (the page's address or a test's query), with its place in a tour.
pub fn open_link(query: &str) -> Opened {
    let mut parsed = url_state::parse_query(query, LabState::default());
    let mut hosted = None;
    let at = parsed.tour.take().and_then(|place| {
        if find(&place.tour).is_none() && is_hosted_path(&place.tour) {
            hosted = Some(place);
            return None;
        }
        locate(&place, &mut parsed.notes)
    });
    let sets_step = !parsed.names_lab;
    if let Some((t, s)) = at.filter(|_| sets_step) {
        if let Some(step) = built_in().get(t).and_then(|tour| tour.steps.get(s)) {
            apply_step(step, &mut parsed.state);
        }
    }
    Opened {
        state: parsed.state,
        notes: parsed.notes,
        at,
        hosted,
        sets_step,
    }
}

/// The place as indices: an unknown tour is noted and opens none; a step past the tour's
/// last is noted and opens its first.
fn locate(place: &TourPlace, notes: &mut Vec<Note>) -> Option<TourIndex> {
    let Some((t, tour)) = find(&place.tour) else {
        let ids: Vec<&str> = built_in().iter().map(|t| t.id.as_str()).collect();
        notes.push(Note {
            param: TOUR_PARAM.to_string(),
            message: format!(
                "no tour '{}' (the tours: {}; or a tour file's path beside the lab, ending .json)",
                url_state::quote(&place.tour),
                ids.join(", ")
            ),
        });
        return None;
    };
    Some((t, step_in(tour, place, notes)))
}

/// The step `place` names in `tour`, from 0: a step past the tour's last is noted and opens
/// its first.
pub fn step_in(tour: &TourFile, place: &TourPlace, notes: &mut Vec<Note>) -> usize {
    step_of(tour, place).unwrap_or_else(|why| {
        notes.push(Note {
            param: STEP_PARAM.to_string(),
            message: format!("{why}; opened its first"),
        });
        0
    })
}

/// The step `place` names in `tour`, from 0, or why the tour has no such step.
pub fn step_of(tour: &TourFile, place: &TourPlace) -> Result<usize, String> {
    let count = tour.steps.len();
    if place.step > count {
        return Err(format!("the tour '{}' has {count} steps", tour.id));
    }
    Ok(place.step.saturating_sub(1))
}

/// Longest path of a tour file hosted beside the lab.
pub const MAX_HOSTED_PATH_CHARS: usize = 200;

/// Whether a link's `tour=` names a tour file hosted beside the lab rather than a built-in
/// tour: a relative path ending in `.json`, of ASCII letters, digits, `-`, `_`, `.` and `/`,
/// no segment `..` or empty, at most [`MAX_HOSTED_PATH_CHARS`]. So the page fetches it from its
/// own folder or one below, on its own origin (all the page's content policy lets it fetch),
/// and a link cannot point it anywhere else.
pub fn is_hosted_path(id: &str) -> bool {
    let allowed = |c: char| c.is_ascii_alphanumeric() || "-_./".contains(c);
    id.len() <= MAX_HOSTED_PATH_CHARS
        && id.ends_with(".json")
        && id.chars().all(allowed)
        && id
            .split('/')
            .all(|segment| !segment.is_empty() && segment != "..")
}

/// The place of step `at` of a built-in tour, as a link names it.
pub fn built_in_place(at: TourIndex) -> Option<TourPlace> {
    let (t, s) = at;
    let tour = built_in().get(t)?;
    (s < tour.steps.len()).then(|| TourPlace {
        tour: tour.id.clone(),
        step: s + 1,
    })
}

/// The link for `state` at `place`: the state's query, then the place in the tour, if any.
pub fn link_query(state: &LabState, place: Option<&TourPlace>) -> String {
    let query = url_state::to_query(state);
    match place {
        Some(place) => format!("{query}&{}", url_state::tour_query(place)),
        None => query,
    }
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

    #[test]
    fn a_teachers_link_to_a_step_opens_it_as_a_click_on_it_would() {
        let opened = open_link("?tour=p99&step=2&theme=projector");
        assert!(opened.notes.is_empty(), "{:?}", opened.notes);
        assert_eq!(opened.at, Some((1, 1)));
        let mut want = LabState::default();
        want.display.theme = Theme::Projector;
        apply_step(&built_in()[1].steps[1], &mut want);
        assert_eq!(opened.state, want);
        assert_eq!(
            link_query(&opened.state, opened.at.and_then(built_in_place).as_ref()),
            "preset=e18dc&cap=480&dies=8&qd=4&rw=randrw&mix=70&bs=4k&state=steady\
             &theme=projector&tour=p99&step=2"
        );
        assert_eq!(open_link("tour=p99").at, Some((1, 0)), "step 1 by default");
    }

    #[test]
    fn the_pages_own_link_gives_back_its_state_and_place_even_after_a_control_moved() {
        let mut s = LabState::default();
        apply_step(&built_in()[2].steps[3], &mut s);
        s.workload.set_iodepth(8);
        s.workload.set_load(crate::ui::pure::state::LoadKind::Depth);
        let link = link_query(&s, built_in_place((2, 3)).as_ref());
        assert!(link.ends_with("&tour=load&step=4"), "{link}");
        let back = open_link(&link);
        assert!(back.notes.is_empty(), "{:?}", back.notes);
        assert_eq!((back.state, back.at), (s.clone(), Some((2, 3))));
        assert_eq!(link_query(&s, None), url_state::to_query(&s));
    }

    /// The opening chart's table is the tours' own: every built-in tour, every step's state,
    /// and nothing else.
    #[test]
    fn the_build_s_table_of_step_states_is_the_tours_own() {
        assert_eq!(table::STEP_STATES.len(), built_in().len());
        for tour in built_in() {
            for (i, step) in tour.steps.iter().enumerate() {
                let place = TourPlace {
                    tour: tour.id.clone(),
                    step: i + 1,
                };
                assert_eq!(built_in_step_state(&place), Some(step.state.as_str()));
            }
            let past = TourPlace {
                tour: tour.id.clone(),
                step: tour.steps.len() + 1,
            };
            assert_eq!(
                built_in_step_state(&past),
                Some(tour.steps[0].state.as_str())
            );
        }
        let hosted = TourPlace {
            tour: "tours/a.json".into(),
            step: 1,
        };
        assert_eq!(built_in_step_state(&hosted), None);
    }

    /// A tour file beside the lab is named by its path: only a relative `.json` path within
    /// the lab's folder is one, and a link to it is read without the tour, for the page to
    /// fetch; anything else is an unknown tour.
    #[test]
    fn a_hosted_tours_path_stays_beside_the_lab_and_its_link_waits_for_the_file() {
        for good in ["my-class.json", "tours/period_3.json", "a/b/c.v2.json"] {
            assert!(is_hosted_path(good), "{good}");
        }
        for bad in [
            "my-class",
            "/tours/a.json",
            "//evil.example/a.json",
            "https://evil.example/a.json",
            "../a.json",
            "tours/../../a.json",
            "tours//a.json",
            "a b.json",
            "a%2e.json",
            ".json/",
        ] {
            assert!(!is_hosted_path(bad), "{bad}");
        }
        assert!(!is_hosted_path(&format!("{}.json", "a".repeat(200))));
        let opened = open_link("tour=tours/period-3.json&step=2");
        assert!(opened.notes.is_empty(), "{:?}", opened.notes);
        assert_eq!(opened.at, None);
        assert_eq!(
            opened.hosted,
            Some(TourPlace {
                tour: "tours/period-3.json".into(),
                step: 2
            })
        );
        assert!(opened.sets_step);
        assert!(
            !open_link("qd=8&tour=a.json").sets_step,
            "the link's own state wins"
        );
        let n = open_link("tour=../a.json").notes;
        assert!(
            n[0].message.contains("a tour file's path beside the lab"),
            "{n:?}"
        );
    }

    #[test]
    fn a_bad_tour_or_step_is_noted_and_the_rest_of_the_link_applies() {
        let notes = |q: &str| {
            let o = open_link(q);
            let n: Vec<(String, String)> =
                o.notes.into_iter().map(|n| (n.param, n.message)).collect();
            (o.at, o.state.workload.iodepth(), n)
        };
        let (at, qd, n) = notes("tour=nope&step=2&qd=8");
        assert_eq!((at, qd), (None, 8));
        assert_eq!(n[0].0, "tour");
        assert!(
            n[0].1
                .starts_with("no tour 'nope' (the tours: qd1-reads, p99, load,"),
            "{n:?}"
        );
        let (at, _, n) = notes("tour=p99&step=9");
        assert_eq!(at, Some((1, 0)));
        assert_eq!(
            n,
            [(
                "step".to_string(),
                "the tour 'p99' has 3 steps; opened its first".to_string()
            )]
        );
        for bad in ["tour=p99&step=0", "tour=p99&step=two", "step=2"] {
            let (at, qd, n) = notes(&format!("{bad}&qd=8"));
            assert_eq!((at, qd, n.len()), (None, 8, 1), "{bad}: {n:?}");
            assert_eq!(n[0].0, "step", "{bad}");
        }
    }
}
