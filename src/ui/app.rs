//! [`App`]: the root component, in two halves the page runs a task apart: [`Started`] provides
//! the lab's state ([`Lab`], one signal per part, in Leptos context) and owns everything that
//! follows from it, and [`AppViews`] mounts the views on it:
//! - the model plan (the worker [`Pool`] computes what the new state shows, cached results first);
//! - the URL query, replaced (never pushed, so dragging a slider does not fill the back
//!   button's history) when the state changes, at most every [`URL_REST_MS`] (the last
//!   state always lands); a move to another step of a guided tour pushes a new entry at once,
//!   so back and forward walk the steps, and the lab follows the address when they do;
//! - the colour scheme (`data-theme` on `<html>`) and the palette the charts read from CSS
//!   (the views' half: it reads the page's style);
//! - the chart set, the readout and the legend, derived from state and results;
//! - the embed chrome (`embed=1`: the height reported to the parent page) and, in a frame,
//!   the messages of the page that frames it ([`embed_api`]), and the model's work held until
//!   the frame is in sight ([`InSight`]).
//!
//! It mounts the parts and computes nothing itself: the masthead, the controls panel and the
//! footer ([`crate::ui::views::chrome`]), the charts against queue depth
//! ([`crate::ui::views::queue_charts`]), the drive over time, teaching mode, the tours, and the
//! share, compare and fio parts ([`crate::ui::views`]).
//! - which view the results area shows ([`crate::ui::pure::state::Display::view`]): the charts, the drive
//!   over time or teaching mode, and the guided tours' panel in each (above the teaching views,
//!   below the queue-depth charts; its position lives here, so a tour that changes the view
//!   keeps its place).
//!
//! Nothing else holds state: the controls write the parts through their setters, and the URL
//! is read by [`tours::open_link`] on start and when back or forward changes it.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::ui::browser::later::Later;
use crate::ui::browser::pool::{Pool, PoolStatus};
use crate::ui::browser::staging::{Staging, Step};
use crate::ui::browser::storage::{self, KeptNote};
use crate::ui::charts::{self, LegendEntry, Palette, YourSeries};
use crate::ui::pure::compute;
use crate::ui::pure::load::LoadSweep;
use crate::ui::pure::state::{Display, Lab, LabState, LoadKind, Theme, View};
use crate::ui::pure::tours;
use crate::ui::pure::url_state;
use crate::ui::pure::url_state::TourPlace;
use crate::ui::views::chrome::{ControlsPanel, Footer, Masthead};
use crate::ui::views::compare::{CompareBar, PinRemove};
use crate::ui::views::embed_api;
use crate::ui::views::embed_frame::{self, InSight};
use crate::ui::views::fio_import::FioImport;
use crate::ui::views::notes::LinkNotes;
use crate::ui::views::queue_charts::{has_markers, QueueCharts};
use crate::ui::views::readout::{self, Readout};
use crate::ui::views::review::ReviewTestsView;
use crate::ui::views::scorecard::{ScorecardLink, ScorecardView};
use crate::ui::views::share::ShareBar;
use crate::ui::views::teaching_mode::{Playback, TeachingMode};
use crate::ui::views::tours::{ModelAnswer, ModelCurve, TourShelf, Tours};
use crate::ui::views::{OverTimeView, ViewSwitch};

/// The media query whose changes re-read the palette (with `theme=auto`).
const DARK_QUERY: &str = "(prefers-color-scheme: dark)";

/// The lab, made and mounted in one go (the browser tests' mount; the page itself makes its
/// state and mounts its views in steps, see [`Opened`], [`Started`] and `src/ui/start.rs`).
#[component]
pub fn App(
    /// The query to start from (as `location.search` gives it). Without it the app reads the
    /// page's own URL; tests pass their own.
    #[prop(optional, into)]
    query: Option<String>,
    /// The model worker's loader. Without it the page's own ([`crate::ui::browser::pool::WORKER_URL`],
    /// beside the page); the browser tests pass the built one's.
    #[prop(optional)]
    worker: Option<&'static str>,
) -> impl IntoView {
    let started = Started::new(query, worker);
    started.follow();
    started.answer_host();
    started.keep();
    view! { <AppViews started=started /> }
}

/// The lab's state and all that follows from it, made before any of its views: the parsed
/// link and the state's parts in context ([`Opened`]), the model's workers ([`Opened::start`]),
/// and once it follows the state ([`Started::follow`]) the first plan at work; then the chart
/// set ([`Started::prepare`]), and last the host page's messages ([`Started::answer_host`],
/// in a frame) and the URL kept in step ([`Started::keep`]). The page does
/// each in a task of its own and mounts [`AppViews`] between (`src/ui/start.rs`): on a phone,
/// state and views made one task of 125 ms at 4x CPU, most of it V8 compiling each function
/// the first time it runs.
#[derive(Clone)]
pub struct Started {
    lab: Lab,
    /// The state the link opened on (the author's view).
    authored: LabState,
    embed: bool,
    notes: RwSignal<Vec<url_state::Note>>,
    tours: TourShelf,
    charts: Memo<charts::ChartSet>,
    readout_data: Memo<readout::ReadoutData>,
    progress: Memo<(compute::Progress, PoolStatus)>,
    pool: Pool,
    /// Whether the lab is in sight (a frame below an article's fold is not, until scrolled to).
    in_sight: InSight,
    /// On the page itself, what the reader's device keeps, and why it could not.
    kept: Option<KeptNote>,
    /// In a frame, what the page that frames it may reach ([`Started::answer_host`]).
    host: Option<embed_api::Reach>,
}

/// The lab's state as the link opened it, before the model's workers start: the first of the
/// page's start steps ([`Opened::start`] is the next, in a task of its own, so that neither is
/// a long task on a phone, most of each being V8 compiling the code it runs for the first time).
pub struct Opened {
    lab: Lab,
    authored: LabState,
    embed: bool,
    framed: bool,
    notes: RwSignal<Vec<url_state::Note>>,
    tours: TourShelf,
    in_sight: InSight,
    playback: Playback,
    kept: Option<KeptNote>,
}

impl Opened {
    /// Makes the lab's state from `query` (else the page's URL) and provides its parts in
    /// context. Runs under a reactive owner, which the views mount under too.
    pub fn new(query: Option<String>) -> Opened {
        let Opening {
            query: initial,
            keeps,
        } = opening(query);
        let mut parsed = tours::open_link(&initial);
        let authored = parsed.state.clone();
        let embed = parsed.state.embedding.framed;
        let lab = Lab::provide(parsed.state);
        let kept = KeptNote::provide();
        let keeps = keeps && !embed;
        if keeps {
            restore_from_device(lab, kept);
        } else {
            kept.keep_view.set(false);
        }
        let framed = embed_frame::is_framed();
        if embed || framed {
            embed_frame::report_height();
        }
        let notes = RwSignal::new(std::mem::take(&mut parsed.notes));
        let tours = TourShelf::new(lab, RwSignal::new(parsed.at));
        if let Some(place) = parsed.hosted {
            tours.open_hosted(place, parsed.sets_step, notes);
        }
        Opened {
            lab,
            authored,
            embed,
            framed,
            notes,
            tours,
            in_sight: InSight::provide(framed),
            playback: Playback::provide(),
            kept: keeps.then_some(kept),
        }
    }

    /// Starts the model's workers from `worker` (else the page's own) and derives the charts
    /// and the readout from the state and their results; in a frame, it keeps what the page
    /// that frames it may reach, for [`Started::answer_host`]. Under the same owner as
    /// [`Opened::new`].
    pub fn start(self, worker: Option<&'static str>) -> Started {
        let Opened {
            lab,
            authored,
            embed,
            framed,
            notes,
            tours,
            in_sight,
            playback,
            kept,
        } = self;
        let pool = Pool::start(worker.unwrap_or(crate::ui::browser::pool::WORKER_URL));
        on_cleanup(move || pool.stop());
        let readout_data = current_readout(lab, pool);
        let host = framed.then_some(embed_api::Reach {
            lab,
            shelf: tours,
            notes,
            playback,
            readout: readout_data,
        });
        let charts = Memo::new(move |_| {
            pool.revision();
            let state = lab.state();
            pool.with_results(|lookup| charts::build(&state, lookup))
        });
        let progress = Memo::new(move |_| {
            pool.revision();
            (pool.progress(), pool.status())
        });
        Started {
            lab,
            authored,
            embed,
            notes,
            tours,
            charts,
            readout_data,
            progress,
            pool,
            in_sight,
            kept,
            host,
        }
    }
}

impl Started {
    /// The lab's state from `query` and the model's workers from `worker`, in one go: the
    /// browser tests' [`App`] (the page makes them a task apart, see [`Opened`]).
    pub fn new(query: Option<String>, worker: Option<&'static str>) -> Started {
        Opened::new(query).start(worker)
    }

    /// From now until the page goes, the model runs the plan of the current state while the
    /// lab is in sight (its workers get the first plan before anything else here runs; a
    /// frame's, once it is first in sight), and the page's timeline
    /// marks when every point is estimated and computed. The page does it in a task of its
    /// own after [`Opened::start`] (`src/ui/start.rs`).
    pub fn follow(&self) {
        let Started {
            lab,
            pool,
            progress,
            in_sight,
            ..
        } = *self;
        // A frame out of sight keeps what it is asked to show, and computes it once in sight.
        Effect::new(move |sent: Option<Option<LabState>>| {
            let sent = sent.flatten();
            let state = lab.state();
            if !in_sight.now.get() || sent.as_ref() == Some(&state) {
                return sent;
            }
            pool.set_plan(compute::plan(&state));
            Some(state)
        });
        mark_estimated(progress);
        announce_settled(progress);
    }

    /// From now until the page goes, the URL carries the state and the reader's device keeps
    /// their files and last view (on the page itself). Neither is needed for the first
    /// screen, so the page does it in a task of its own once its views show (`src/ui/start.rs`).
    pub fn keep(&self) {
        keep_the_url(self.lab, self.tours, self.notes);
        if let Some(kept) = self.kept {
            keep_on_device(self.lab, kept);
        }
    }

    /// In a frame, from now until the page goes, hears the messages of the page that frames
    /// it and tells it `ready`, then the lab's news ([`embed_api`]). Not needed for the first
    /// screen (a host waits for `ready`), so the page does it in a task of its own once its
    /// views show (`src/ui/start.rs`): its first run, writing the first `state` and `result`,
    /// would lengthen the model's start step on a phone.
    pub fn answer_host(&self) {
        if let Some(reach) = self.host {
            embed_api::serve(reach);
        }
    }

    /// Builds the chart set (which the IOPS chart reads as it mounts) now: the page does it in
    /// a task of its own between the state's and the views' (`src/ui/start.rs`).
    pub fn prepare(&self) {
        self.charts.with_untracked(|_| ());
    }
}

/// The legend shared by the charts and the compare bar under it, while `shown` (several jobs
/// and a trace have their own tables instead).
#[component]
fn LegendAndCompare(charts: Memo<charts::ChartSet>, shown: Signal<bool>) -> impl IntoView {
    let legend = Memo::new(move |_| charts.with(|c| c.legend.clone()));
    view! {
        <Later soon=true>
            <Show when=move || shown.get()>
                <Legend
                    entries=legend
                    measured=Signal::derive(move || charts.with(has_markers))
                    yours=Signal::derive(move || charts.with(|c| c.iodepth.depth.yours.clone()))
                />
            </Show>
        </Later>
        <Later>
            <Show when=move || shown.get()>
                <CompareBar />
            </Show>
        </Later>
    }
}

/// The full page's parts below the charts (an embedded lab has none): share and export, the
/// reader's fio results, and the guided tours docked at the window's bottom in the queue view.
#[component]
fn SharingParts(
    charts: Memo<charts::ChartSet>,
    tours: TourShelf,
    model: ModelAnswer,
) -> impl IntoView {
    let lab = Lab::expect();
    let queue_view = move || lab.display.with(|d| d.view == View::Queue);
    view! {
        <Later>
            <ShareBar charts=charts />
        </Later>
        <Later>
            <FioImport />
        </Later>
        // Below the charts here (the current step docked at the window's bottom), above the
        // teaching views' panels.
        <Later>
            <Show when=queue_view>
                <Tours shelf=tours model=model docked=true />
            </Show>
        </Later>
    }
}

/// The lab's views, for the state [`Started::new`] made, mounted whole or in the steps
/// `staging` asks for.
#[component]
pub fn AppViews(
    started: Started,
    /// By default the views mount whole and show at once.
    #[prop(optional)]
    staging: Staging,
) -> impl IntoView {
    let Started {
        lab,
        authored,
        embed,
        notes,
        tours,
        charts,
        readout_data,
        progress,
        ..
    } = started;
    // With the views, not the state: it sets `data-theme` on `<html>` and reads the computed
    // style, which the state's task would force on the opening chart's page, and the views'
    // task again on the app's.
    let palette = themed_palette(lab.display);
    let model = ModelAnswer {
        says: Signal::derive(move || readout_data.with(readout::spoken_summary)),
        curve: Signal::derive(move || charts.with(|c| ModelCurve::of(&c.iodepth))),
    };
    // An embedded lab shows no tours' panel to answer in, so it hides nothing, unless the page
    // that frames it led it to the question (and reveals the answer itself).
    let awaiting = Memo::new(move |_| (!embed || tours.host_led()) && tours.awaiting());
    // A guess is drawn on the chart against queue depth, which stays in sight (its own
    // curves hidden by the chart itself).
    let awaiting_guess = Memo::new(move |_| awaiting.get() && tours.drawing().is_some());
    let view_is = move |view: View| lab.display.with(|d| d.view == view);
    // Several jobs and a trace have their own tables instead of one point and its curves.
    let own_table = move || {
        view_is(View::Queue)
            && lab
                .workload
                .with(|w| matches!(w.load(), LoadKind::Jobs | LoadKind::Trace))
    };

    view! {
        <div class="page" class:embedded=embed hidden=move || staging.hidden()>
            <Masthead embed=embed />
            <LinkNotes notes=notes />
            <main class="lab">
                <ControlsPanel authored=authored embed=embed />
                // While a tour's question waits for a prediction, the model's figures (every
                // part but the view switch, the tours and the note) are hidden, to the eye
                // and to assistive technology alike (`visibility: hidden` in the style).
                <div class="results" class:awaiting-answer=awaiting class:awaiting-guess=awaiting_guess>
                    <Show when=move || staging.reached(Step::Results)>
                        <ViewSwitch display=lab.display />
                        <AwaitingNote awaiting=awaiting embed=embed />
                        // The drive over time has its own figures; teaching mode plays this point.
                        <Later>
                            // Several jobs have their own table instead of one point.
                            <Show when=move || {
                                !view_is(View::OverTime)
                                    && !view_is(View::Review)
                                    && !view_is(View::Scorecard)
                                    && !own_table()
                            }>
                                <Readout data=readout_data heading=readout_heading(lab.display) />
                            </Show>
                        </Later>
                        // The status and the legend lie right under the first chart on a phone
                        // and on a desktop: they mount before the controls (on a phone, above
                        // them).
                        <Later soon=true>
                            <Show when=move || !own_table()>
                                <ModelStatus progress=progress />
                            </Show>
                        </Later>
                        <Show when=move || !embed && !view_is(View::Queue)>
                            <Tours shelf=tours model=model />
                        </Show>
                        <Show when=move || view_is(View::Activity)>
                            <TeachingMode />
                        </Show>
                        <LegendAndCompare charts=charts shown=Signal::derive(move || !own_table()) />
                        <Show when=move || staging.reached(Step::Charts)>
                            <QueueCharts charts=charts palette=palette embed=embed tours=tours />
                        </Show>
                        <OverTimeView palette=palette />
                        <ReviewTestsView />
                        <ScorecardView />
                        <Show when=move || !embed>
                            <SharingParts charts=charts tours=tours model=model />
                        </Show>
                    </Show>
                </div>
            </main>
            <Show when=move || staging.reached(Step::Results)>
                <Later>
                    <Footer embed=embed />
                </Later>
            </Show>
        </div>
    }
}

/// Why the model's figures are hidden, while a question waits for its answer: the reader
/// answers in the tours' panel, or in an embed, the article that asked reveals it.
#[component]
fn AwaitingNote(awaiting: Memo<bool>, embed: bool) -> impl IntoView {
    let why = if embed {
        "The model's answer is hidden until the article reveals it."
    } else {
        "The model's answer is hidden until you answer the tour's question."
    };
    view! {
        <p class="card awaiting-note" id="awaiting-note" hidden=move || !awaiting.get()>
            {why}
        </p>
    }
}

/// The query the lab opens on, and whether it keeps the reader's things on their device.
pub(crate) struct Opening {
    pub(crate) query: String,
    /// The page itself (not a test's mount, not an author's frame) keeps the reader's files
    /// and last view on their device.
    pub(crate) keeps: bool,
}

/// What the lab opens on: `query` (a test's), or the page's own URL; without a link, the drive
/// and pins the reader last looked at. The opening chart ([`crate::ui::opening_chart`]) opens on
/// the same.
pub(crate) fn opening(query: Option<String>) -> Opening {
    let keeps = query.is_none() && !embed_frame::is_framed();
    let query = query.unwrap_or_else(|| window().location().search().unwrap_or_default());
    let query = if keeps && query.trim_start_matches('?').is_empty() {
        storage::load_view()
    } else {
        query
    };
    Opening { query, keeps }
}

/// The URL carries the state and the place in a tour, from now until the page goes; back and
/// forward bring the lab to the address they land on.
fn keep_the_url(lab: Lab, shelf: TourShelf, notes: RwSignal<Vec<url_state::Note>>) {
    let url = Rc::new(RefCell::new(UrlWriter::default()));
    follow_history(lab, shelf, notes, url.clone());
    Effect::new(move |_| {
        let place = shelf.place(shelf.at.get());
        let query = tours::link_query(&lab.state(), place.as_ref());
        let mut w = url.borrow_mut();
        if let Some(leave) = w.moved(place, &query) {
            // A new entry at once (a click, not a drag): the entry left behind first gets the
            // state it ended with, which a rewrite at rest may not have written yet.
            w.wanted = None;
            drop(w);
            replace_query(&leave);
            push_query(&query);
            return;
        }
        w.wanted = Some(query);
        let resting = std::mem::replace(&mut w.resting, true);
        drop(w);
        if !resting {
            // In a task of its own: the input's task draws the charts first.
            let url = url.clone();
            set_timeout(move || write_url(url), std::time::Duration::ZERO);
        }
    });
}

/// When back or forward lands on another address of the page, the lab opens it as a link
/// (keeping the reader's fio files, which no address holds) with its notes.
fn follow_history(
    lab: Lab,
    shelf: TourShelf,
    notes: RwSignal<Vec<url_state::Note>>,
    url: Rc<RefCell<UrlWriter>>,
) {
    let listener = window_event_listener_untyped("popstate", move |_| {
        let search = window().location().search().unwrap_or_default();
        let query = search.trim_start_matches('?');
        if url.borrow().last.as_ref().is_some_and(|(_, q)| q == query) {
            // Only the fragment moved (an anchor on the page): the lab already shows this.
            return;
        }
        let opened = tours::open_link(query);
        let place = opened
            .at
            .and_then(tours::built_in_place)
            .or_else(|| opened.hosted.clone());
        if shelf.place(shelf.at.get_untracked()) != place {
            url.borrow_mut().from_history = true;
        }
        let imported = lab.imported.get_untracked();
        lab.set(LabState {
            imported,
            ..opened.state
        });
        shelf.at.set(opened.at);
        notes.set(opened.notes);
        if let Some(hosted) = opened.hosted {
            shelf.open_hosted(hosted, opened.sets_step, notes);
        }
    });
    on_cleanup(move || listener.remove());
}

/// Shortest time between two rewrites of the page's URL. Rewriting it is among the largest
/// costs of a key press on the slider (the page benchmark's profile at 4x: `replaceState` took
/// more time than any chart's drawing code; a trace of desktop key presses: a tenth of the
/// key press's task): a slider held down rewrites it a few times a second, each time in a
/// task after the one that handled the input, and the last state always lands.
const URL_REST_MS: u64 = 200;

/// The query the URL should carry, and whether a rewrite is asked for or happened less than
/// [`URL_REST_MS`] ago; the place and query last asked for, and whether back or forward made
/// the last move.
#[derive(Default)]
struct UrlWriter {
    wanted: Option<String>,
    resting: bool,
    last: Option<(Option<TourPlace>, String)>,
    from_history: bool,
}

impl UrlWriter {
    /// Records the place and query the lab now asks for. When the reader moved to another
    /// place in a tour (not the first query, not back or forward), returns the query of the
    /// entry to leave behind: the move gets an entry of its own.
    fn moved(&mut self, place: Option<TourPlace>, query: &str) -> Option<String> {
        let from_history = std::mem::take(&mut self.from_history);
        let before = self.last.replace((place.clone(), query.to_string()));
        match before {
            Some((was, leave)) if was != place && place.is_some() && !from_history => Some(leave),
            _ => None,
        }
    }
}

/// Writes the wanted query, if any, and rests; after the rest, writes what came meanwhile.
fn write_url(url: Rc<RefCell<UrlWriter>>) {
    let wanted = url.borrow_mut().wanted.take();
    let Some(query) = wanted else {
        url.borrow_mut().resting = false;
        return;
    };
    replace_query(&query);
    url.borrow_mut().resting = true;
    set_timeout(
        move || write_url(url),
        std::time::Duration::from_millis(URL_REST_MS),
    );
}

/// What the readout's figures belong to in the view shown.
fn readout_heading(display: RwSignal<Display>) -> Signal<&'static str> {
    Signal::derive(move || match display.with(|d| d.view) {
        View::Activity => "The point teaching mode plays:",
        View::Queue | View::OverTime | View::Review | View::Scorecard => "This point",
    })
}

/// How far the model is, in one line; the pool's state in data attributes (for the
/// end-to-end tests and anyone curious).
#[component]
fn ModelStatus(
    /// The plan's progress, and the pool working on it.
    #[prop(into)]
    progress: Signal<(compute::Progress, PoolStatus)>,
) -> impl IntoView {
    let status = move || progress.get().1;
    // A memo: the stamp below must not move while the progress stays the same.
    let progress = Memo::new(move |_| progress.get().0);
    let sight = InSight::expect();
    let text = move || {
        let p = progress.get();
        if !sight.ever.get() {
            "Model: waiting until this lab is scrolled into view.".to_string()
        } else if p.all_finished() {
            format!("Model: all {} points computed.", p.total)
        } else if !p.all_estimated() {
            format!("Model: estimating, {} of {} points…", p.estimated, p.total)
        } else {
            format!(
                "Model: refining, {} of {} points final…",
                p.finished, p.total
            )
        }
    };
    view! {
        <p
            class="model-status"
            id="model-status"
            data-workers=move || status().workers
            data-generation=move || status().generation
            data-oldest-report=move || status().oldest_report
            data-stale-running=move || status().stale_running
            data-runs-started=move || status().runs_started
            data-worker-stops=move || status().stops
            data-computed-at=move || computed_at(progress.get())
        >
            <progress
                max=move || progress.get().total.max(1)
                value=move || progress.with(|p| p.estimated + p.finished)
                aria-hidden="true"
            ></progress>
            <span>{text}</span>
            {move || (status().stops > 0).then(|| view! { <WorkerStopped /> })}
        </p>
    }
}

/// The last model worker that stopped, and that a new one took its place.
#[component]
fn WorkerStopped() -> impl IntoView {
    let why = Pool::expect().last_stop().unwrap_or_default();
    view! {
        <span class="worker-stopped" id="worker-stopped" role="status">
            {format!(" A model worker stopped ({why}); a new one took its place.")}
        </span>
    }
}

/// Marks `lab:model-estimated` in the page's performance timeline once per plan, when its
/// last point has its first result (the page benchmark's timeline of a load). Per plan, not at
/// a change from "estimating" seen: a frame that waited until it was in sight may see its
/// plan's every estimate arrive before it first looks.
fn mark_estimated(progress: Memo<(compute::Progress, PoolStatus)>) {
    Effect::new(move |marked: Option<Option<u64>>| {
        let marked = marked.flatten();
        let (estimated, plan) =
            progress.with(|(p, s)| (p.total > 0 && p.all_estimated(), s.generation));
        if !estimated || marked == Some(plan) {
            return marked;
        }
        if let Some(p) = window().performance() {
            let _ = p.mark("lab:model-estimated");
        }
        Some(plan)
    });
}

/// The event on `window`, and the attribute on `<html>`, that say the first view's model work
/// is done: `assets/boot.js` asks for the offline copy only then, so the copy's download of the
/// whole build does not compete with the model worker's own download and start.
const SETTLED: &str = "lab:settled";
const SETTLED_ATTRIBUTE: &str = "data-settled";

/// Once, the first time every point of a plan is computed: sets [`SETTLED_ATTRIBUTE`] on
/// `<html>` (for a listener that comes later) and dispatches [`SETTLED`].
fn announce_settled(progress: Memo<(compute::Progress, PoolStatus)>) {
    Effect::new(move |announced: Option<bool>| {
        if announced == Some(true) {
            return true;
        }
        let settled = progress.with(|(p, _)| plan_computed(*p));
        if settled {
            let window = window();
            if let Some(root) = window.document().and_then(|d| d.document_element()) {
                let _ = root.set_attribute(SETTLED_ATTRIBUTE, "");
            }
            if let Ok(event) = web_sys::Event::new(SETTLED) {
                let _ = window.dispatch_event(&event);
            }
        }
        settled
    });
}

/// `performance.now()` once every point of the plan is computed, kept while that holds: the
/// page benchmark's stamp for "every point computed" (the charts stamp "every point
/// estimated" themselves, see [`crate::ui::charts::canvas`]).
fn computed_at(p: compute::Progress) -> Option<String> {
    plan_computed(p)
        .then(|| window().performance().map(|perf| perf.now().to_string()))
        .flatten()
}

/// A plan of some points has every one computed in full (before the first plan, or for a view
/// with none, nothing has been computed: neither the stamp nor the settling follow).
fn plan_computed(p: compute::Progress) -> bool {
    p.total > 0 && p.all_finished()
}

/// The drives compared on the charts, in their colours.
#[component]
fn Legend(
    /// One entry per drive.
    #[prop(into)]
    entries: Signal<Vec<LegendEntry>>,
    /// Whether the charts show published measurements.
    #[prop(into)]
    measured: Signal<bool>,
    /// The imported fio files the charts draw.
    #[prop(into)]
    yours: Signal<Vec<YourSeries>>,
) -> impl IntoView {
    view! {
        <ul class="legend" aria-label="Drives on the charts">
            {move || {
                entries
                    .get()
                    .into_iter()
                    .map(|e| {
                        view! {
                            <li class:current=e.current class:pinned=e.pin.is_some()>
                                <span class=e.colour.css_class() aria-hidden="true"></span>
                                {e.label}
                                {e.current.then_some(" (the drive you set)")}
                                {e.pin.map(|index| view! { " " <PinRemove index=index /> })}
                            </li>
                        }
                    })
                    .collect_view()
            }}
            <Show when=move || measured.get()>
                <li>
                    <span class="diamond" aria-hidden="true"></span>
                    "published measurement ("
                    <ScorecardLink>"the model against every published figure"</ScorecardLink>
                    ")"
                </li>
            </Show>
            {move || {
                yours
                    .get()
                    .into_iter()
                    .map(|s| {
                        view! {
                            <li class="legend-yours">
                                <span class=format!("swatch {}", s.shape.css_class()) aria-hidden="true"></span>
                                {format!("your measurements: {} (fio)", s.file_name)}
                            </li>
                        }
                    })
                    .collect_view()
            }}
        </ul>
    }
}

/// The reader's files from an earlier visit (see [`storage`]); a store that cannot give them
/// back says so in the import panel.
fn restore_from_device(lab: Lab, kept: KeptNote) {
    match storage::load_imports() {
        Ok(Some(imports)) => lab.imported.set(imports),
        Ok(None) => {}
        Err(note) => kept.note.set(Some(note)),
    }
}

/// From now on, the reader's files, drive and pins kept for their next visit (see
/// [`storage`]); a store that cannot keep them says so in the import panel.
fn keep_on_device(lab: Lab, kept: KeptNote) {
    Effect::new(move |_| {
        let saved = lab.imported.with(storage::save_imports);
        kept.note.update(|n| match saved {
            Err(note) => *n = Some(note),
            Ok(()) if *n != Some(storage::StoreNote::Unreadable) => *n = None,
            Ok(()) => {}
        });
    });
    // Only the drive and pins, and only when they change (not on every slider step).
    let view = Memo::new(move |_| storage::view_part(&url_state::to_query(&lab.state())));
    Effect::new(move |_| {
        let view = view.get();
        if kept.keep_view.get() {
            storage::save_view(&view);
        }
    });
}

/// Rewrites the query of the page's URL, without a new history entry, if it differs.
fn replace_query(query: &str) {
    write_query(query, false);
}

/// Gives the page's URL a new history entry with `query`, if it differs.
fn push_query(query: &str) {
    write_query(query, true);
}

fn write_query(query: &str, push: bool) {
    let window = window();
    let location = window.location();
    let wanted = format!("?{query}");
    if location.search().ok().as_deref() == Some(wanted.as_str()) {
        return;
    }
    let path = location.pathname().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let url = format!("{path}{wanted}{hash}");
    if let Ok(history) = window.history() {
        let _ = if push {
            history.push_state_with_url(&JsValue::NULL, "", Some(&url))
        } else {
            history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
        };
    }
}

/// The readout of the current point, rebuilt after every slice of model results.
fn current_readout(lab: Lab, pool: Pool) -> Memo<readout::ReadoutData> {
    Memo::new(move |_| {
        pool.revision();
        let state = lab.state();
        let key = compute::current_key(&state);
        let sweep = (state.workload.load() == LoadKind::Rate).then(|| {
            pool.with_results(|lookup| LoadSweep::of(&state, state.drive.choice(), lookup))
        });
        readout::build(&state, pool.point(&key), pool.failure(&key), sweep.as_ref())
    })
}

/// The charts' palette, read from the page's CSS whenever the theme (or, with `theme=auto`, the
/// system's scheme) changes; the theme itself goes to `<html>` first.
fn themed_palette(display: RwSignal<Display>) -> RwSignal<Palette> {
    let palette = RwSignal::new(Palette::default());
    Effect::new(move |_| {
        apply_theme(display.with(|d| d.theme));
        palette.set(read_palette());
    });
    follow_system_scheme(palette);
    palette
}

/// Sets `data-theme` on `<html>` (the stylesheet picks the colours from it).
pub(crate) fn apply_theme(theme: Theme) {
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("data-theme", theme.id());
    }
}

/// The palette from the page's CSS custom properties.
pub(crate) fn read_palette() -> Palette {
    let style = document()
        .document_element()
        .and_then(|root| window().get_computed_style(&root).ok().flatten());
    Palette::from_lookup(|name| {
        style
            .as_ref()
            .and_then(|s| s.get_property_value(name).ok())
            .filter(|v| !v.trim().is_empty())
    })
}

/// Re-reads the palette when the system switches between light and dark.
fn follow_system_scheme(palette: RwSignal<Palette>) {
    let Ok(Some(query)) = window().match_media(DARK_QUERY) else {
        return;
    };
    let callback = Closure::<dyn FnMut()>::new(move || {
        let _ = palette.try_set(read_palette());
    });
    if query
        .add_event_listener_with_callback("change", callback.as_ref().unchecked_ref())
        .is_ok()
    {
        let keep = send_wrapper::SendWrapper::new((query, callback));
        on_cleanup(move || {
            let (query, callback) = &*keep;
            let _ = query
                .remove_event_listener_with_callback("change", callback.as_ref().unchecked_ref());
        });
    }
}
