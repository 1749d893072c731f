//! The guided tours' panel: one button per tour (the built-in ones of [`built_in`], then the
//! reader's own, opened from a file), then the current step's text, its question if it asks
//! one, and Previous and Next.
//!
//! The page shows it in every view (above teaching mode and the drive over time, folded to one
//! line until opened; below the queue-depth charts) and owns its position ([`TourShelf`]), not
//! any view, because the SLC-cache tour moves the reader from one view to another and the
//! panel must come along. Below the queue-depth charts the current step is *docked*: it
//! sticks to the bottom of the window while the charts it talks about fill the screen, so a
//! class on a projector sees the text and its effect at once without scrolling. The position
//! of a built-in tour is part of the URL (`tour=ID&step=N`, after the lab's state; see
//! [`crate::ui::pure::tours::open_link`]): a teacher links a class to one step, and each move
//! to another step is an entry of the browser's history (the page's URL keeper,
//! [`crate::ui::App`]), so back and forward walk the steps and a shared link lands on the
//! same one. A tour from the reader's own file lives in this page only: no link carries it.
//!
//! A step with a question hides the model's answer ([`TourShelf::awaiting`]; the page hides
//! its charts and readout) until the reader commits to an option, or, on the projector
//! theme, until the teacher reveals it beside the class's show of hands
//! ([`crate::ui::pure::predict`]).
//!
//! What always holds: a step changes the lab only through [`apply_step`] (its state read as a
//! link), so a tour can do nothing the controls could not; a tour file that does not read
//! changes nothing and says why, by line; and while the page's author has locked any control
//! (`lock=`), the tours are off, since a tour sets most controls at once.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::HtmlInputElement;

use crate::ui::browser::fetch;
use crate::ui::charts::iodepth_chart::GuessLayer;
use crate::ui::charts::{IodepthChartData, Measure};
use crate::ui::pure::compute::deepest_iodepth;
use crate::ui::pure::host_api::{Answered, StepTo};
use crate::ui::pure::predict::{
    depths_of, guess_depths, letter, GuessVerdict, Predictions, StepKey, Verdict,
};
use crate::ui::pure::state::{Lab, Theme};
use crate::ui::pure::tour_file::{self, Form, Question, TourFile, MAX_FILE_BYTES};
use crate::ui::pure::tours::{apply_step, built_in, built_in_place, step_in, step_of, TourIndex};
use crate::ui::pure::url_state::{Note, TourPlace, TOUR_PARAM};
use crate::ui::pure::worksheet::Worksheet;
use crate::ui::views::worksheet::WorksheetView;

/// Where the reader is: (tour, step) as indices into the tours of a [`TourShelf`] (the
/// built-in ones first), or `None` before a first click.
pub type TourAt = RwSignal<Option<TourIndex>>;

/// The model's answer for the current point, as a question's reveal shows it.
#[derive(Clone, Copy)]
pub struct ModelAnswer {
    /// The model's figures in one sentence, with what limits it (empty until computed).
    pub says: Signal<String>,
    /// The reader's drive's curve against queue depth, which a drawn guess is judged by.
    pub curve: Signal<ModelCurve>,
}

/// The reader's drive's curve on the chart against queue depth, and what it counts.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelCurve {
    /// (queue depth, value), as computed so far.
    pub points: Vec<(f64, f64)>,
    pub unit: Measure,
}

impl ModelCurve {
    /// The emphasised curve (the reader's drive) of the chart's `data`.
    pub fn of(data: &IodepthChartData) -> ModelCurve {
        ModelCurve {
            points: data
                .depth
                .curves
                .iter()
                .find(|c| c.emphasis)
                .map(|c| c.points.clone())
                .unwrap_or_default(),
            unit: data.unit,
        }
    }
}

/// The tours the page offers, where the reader is in them, and what they committed to at
/// question steps; one for the page, shared by both places the panel shows.
#[derive(Clone, Copy)]
pub struct TourShelf {
    lab: Lab,
    pub at: TourAt,
    /// A hosted tour's place while its file is on its way: the link keeps naming it.
    pending: RwSignal<Option<TourPlace>>,
    /// The reader's own tours, after the built-in ones, in the order opened.
    own: RwSignal<Vec<OwnTour>>,
    asked: RwSignal<Predictions>,
    /// Why the last tour file did not open, if it did not.
    refused: RwSignal<Option<String>>,
    /// The tour whose worksheet is shown, if one is.
    sheet: RwSignal<Option<usize>>,
    /// The page that frames the lab moved it to a step ([`TourShelf::host_step`]): an
    /// embedded lab, which has no panel to answer in, then hides a question's answer until
    /// the host reveals it.
    host_led: RwSignal<bool>,
}

impl TourShelf {
    pub fn new(lab: Lab, at: TourAt) -> TourShelf {
        TourShelf {
            lab,
            at,
            pending: RwSignal::new(None),
            own: RwSignal::new(Vec::new()),
            asked: RwSignal::new(Predictions::default()),
            refused: RwSignal::new(None),
            sheet: RwSignal::new(None),
            host_led: RwSignal::new(false),
        }
    }

    /// `f` of tour `i`, built-in or the reader's own, read in place.
    fn with_tour<R>(self, i: usize, f: impl FnOnce(&TourFile) -> R) -> Option<R> {
        match built_in().get(i) {
            Some(t) => Some(f(t)),
            None => self
                .own
                .with(|own| own.get(i - built_in().len()).map(|o| f(&o.tour))),
        }
    }

    /// Tour `i`, built-in or the reader's own.
    fn tour(self, i: usize) -> Option<TourFile> {
        self.with_tour(i, TourFile::clone)
    }

    /// Moves to step `s` of tour `t`, setting the lab as the step says; a place the shelf does
    /// not have changes nothing.
    fn go(self, (t, s): TourIndex) {
        if let Some(step) = self
            .with_tour(t, |tour| tour.steps.get(s).cloned())
            .flatten()
        {
            self.lab.update(|st| apply_step(&step, st));
            self.at.set(Some((t, s)));
        }
    }

    /// The place `at` as a link names it: a built-in tour by its id, a hosted one by its path
    /// (also while its file is on its way); a tour from a file of the reader's has none (no
    /// link can fetch it).
    pub fn place(self, at: Option<TourIndex>) -> Option<TourPlace> {
        let Some((t, s)) = at else {
            return self.pending.get();
        };
        if t < built_in().len() {
            return built_in_place((t, s));
        }
        self.own.with(|own| {
            let o = own.get(t - built_in().len())?;
            let path = o.hosted.clone()?;
            (s < o.tour.steps.len()).then_some(TourPlace {
                tour: path,
                step: s + 1,
            })
        })
    }

    /// Opens `place` in a tour file hosted beside the lab: at once if the page has it, else
    /// once fetched. When `sets_step`, the step sets the lab; a file that does not arrive or
    /// does not read is noted at the top of the page with the reason, and the lab stays.
    pub fn open_hosted(self, place: TourPlace, sets_step: bool, notes: RwSignal<Vec<Note>>) {
        self.open_hosted_for(place, sets_step, notes, None);
    }

    /// [`TourShelf::open_hosted`], for `asker` when given: `asker` is told once the step is
    /// open, or why not; then a file that does not open, or a step it does not have, changes
    /// nothing and notes nothing on the page (the page that frames the lab answers its `step`
    /// with an `error`).
    fn open_hosted_for(
        self,
        place: TourPlace,
        sets_step: bool,
        notes: RwSignal<Vec<Note>>,
        asker: Option<Asker>,
    ) {
        let had = self.own.with_untracked(|own| {
            own.iter()
                .position(|o| o.hosted.as_deref() == Some(place.tour.as_str()))
        });
        if let Some(i) = had {
            self.go_hosted(built_in().len() + i, &place, sets_step, notes, asker);
            return;
        }
        self.pending.set(Some(place.clone()));
        spawn_local(async move {
            let path = place.tour.clone();
            let read = match fetch::text(&path, MAX_FILE_BYTES).await {
                Ok(text) => tour_file::parse_beside(&text, &built_in_ids())
                    .map_err(|e| format!("the tour file '{path}' was not opened: {e}")),
                Err(e) => Err(format!("the tour file '{path}' could not be fetched: {e}")),
            };
            self.pending.set(None);
            match (read, asker) {
                (Ok(tour), asker) => {
                    let i = self.add(tour, Some(path));
                    self.go_hosted(i, &place, sets_step, notes, asker);
                }
                (Err(message), Some(asker)) => asker(Err(message)),
                (Err(message), None) => notes.update(|n| {
                    n.push(Note {
                        param: TOUR_PARAM.to_string(),
                        message,
                    })
                }),
            }
        });
    }

    /// Moves to `place` in the shelf's tour `i`, setting the lab when `sets_step`; a step the
    /// tour does not have opens its first, and is noted, unless `asker` asked for it: then
    /// nothing changes and `asker` is told why (else, once there, that it is done).
    fn go_hosted(
        self,
        i: usize,
        place: &TourPlace,
        sets_step: bool,
        notes: RwSignal<Vec<Note>>,
        asker: Option<Asker>,
    ) {
        let mut noted = Vec::new();
        let asked = asker.is_some();
        let Some(step) = self.with_tour(i, |tour| {
            if asked {
                step_of(tour, place)
            } else {
                Ok(step_in(tour, place, &mut noted))
            }
        }) else {
            return;
        };
        let (s, asker) = match (step, asker) {
            (Ok(s), asker) => (s, asker),
            (Err(why), Some(asker)) => return asker(Err(why)),
            // Never: without an asker a missing step opens the first, noted.
            (Err(_), None) => return,
        };
        if !noted.is_empty() {
            notes.update(|n| n.extend(noted));
        }
        if sets_step {
            self.go((i, s));
        } else {
            self.at.set(Some((i, s)));
        }
        if let Some(asker) = asker {
            asker(Ok(()));
        }
    }

    /// The current tour's index, its step's index, and the tour.
    fn current(self) -> Option<(usize, usize, TourFile)> {
        let (t, s) = self.at.get()?;
        self.tour(t).map(|tour| (t, s, tour))
    }

    /// The current step's key and question, while it asks one (tracked: the place and the
    /// shelf).
    fn question(self) -> Option<(StepKey, Question)> {
        let (t, s) = self.at.get()?;
        self.with_tour(t, |tour| {
            let question = tour.steps.get(s)?.question.clone()?;
            Some((key_of(tour, s), question))
        })
        .flatten()
    }

    /// Whether the current step asks a question whose answer does not show yet: the page
    /// hides the model's figures while it does.
    pub fn awaiting(self) -> bool {
        self.asking().is_some_and(|(_, awaiting)| awaiting)
    }

    /// The current step's key and question, when the question asks for a guess drawn on the
    /// chart against queue depth.
    pub fn drawing(self) -> Option<(StepKey, Question)> {
        self.question()
            .filter(|(_, question)| question.draws_up_to().is_some())
    }

    /// The queue depths the current step's guess is drawn at: those its question names, else
    /// the octaves of the lab's sweep.
    pub fn guess_depths(self) -> Vec<u32> {
        let deepest = self.lab.workload.with(|w| deepest_iodepth(w.iodepth()));
        match self.drawing() {
            Some((_, question)) => depths_of(&question, deepest),
            None => guess_depths(deepest),
        }
    }

    /// What the chart draws of the current step's guess, the depth `selected` ringed until
    /// the reveal; `None` unless the step asks for a guess.
    pub fn guess_layer(self, selected: u32) -> Option<GuessLayer> {
        let (key, question) = self.drawing()?;
        let (points, revealed) = self.asked.with(|p| (p.guess(&key), p.revealed(&key)));
        Some(GuessLayer {
            points: points.into_iter().map(|(d, v)| (f64::from(d), v)).collect(),
            up_to: question.draws_up_to()? as f64,
            hides_model: !revealed,
            selected: (!revealed).then_some(selected),
        })
    }

    /// The current step's guess at `depth`, if drawn.
    pub fn guess_at(self, depth: u32) -> Option<f64> {
        let (key, _) = self.drawing()?;
        self.asked
            .with(|p| p.guess(&key).into_iter().find(|g| g.0 == depth))
            .map(|g| g.1)
    }

    /// Sets `points` (depth, value) of the current step's guess.
    pub fn draw_guess(self, points: &[(u32, f64)]) {
        if let Some((key, question)) = self.drawing() {
            self.asked.update(|p| {
                for &(depth, value) in points {
                    p.set_guess(key.clone(), &question, depth, value);
                }
            });
        }
    }

    /// Commits the current step's guess once it is whole, and the answer shows.
    pub fn commit_guess(self) {
        if let Some((key, _)) = self.drawing() {
            let depths = self.guess_depths();
            self.asked.update(|p| {
                p.commit_guess(key, &depths);
            });
        }
    }

    /// Whether the page that frames the lab led it to the current step.
    pub fn host_led(self) -> bool {
        self.host_led.get()
    }

    /// Moves to `to` for the page that frames the lab, and tells `done` once there (at once
    /// for a built-in tour). A hosted tour's file is fetched first: if it does not open, or
    /// has no such step, nothing changes and `done` is told why.
    pub fn host_step(
        self,
        to: StepTo,
        notes: RwSignal<Vec<Note>>,
        done: impl FnOnce(Result<(), String>) + 'static,
    ) {
        self.host_led.set(true);
        match to {
            StepTo::BuiltIn(at) => {
                self.go(at);
                done(Ok(()));
            }
            StepTo::Hosted(place) => self.open_hosted_for(place, true, notes, Some(Box::new(done))),
        }
    }

    /// Shows the current question's answer for the page that frames the lab, committing the
    /// reader's `option` (from 1) if given; or says why not.
    pub fn host_reveal(self, option: Option<usize>) -> Result<(), String> {
        if self.at.get_untracked().is_none() {
            return Err("no tour step is open (send a step first)".into());
        }
        let Some((key, question)) = untrack(|| self.question()) else {
            return Err("the current step asks no question".into());
        };
        let count = question.options().len();
        match option {
            Some(o) if o > count => Err(format!(
                "the question has {count} options; option {o} is not one"
            )),
            Some(_) if count == 0 => {
                Err("the question asks for a drawn guess, not an option".into())
            }
            Some(o) => {
                self.asked.update(|p| p.commit(key, &question, o - 1));
                Ok(())
            }
            None => {
                self.asked.update(|p| p.reveal(key));
                Ok(())
            }
        }
    }

    /// The current step's place and whether its answer is still hidden, while it asks a
    /// question.
    pub fn asking(self) -> Option<(StepKey, bool)> {
        let (key, question) = self.question()?;
        let awaiting = self.asked.with(|p| p.awaiting(&key, Some(&question)));
        Some((key, awaiting))
    }

    /// What was predicted at the current step, once its answer shows.
    pub fn answered(self) -> Option<Answered> {
        let (key, question) = untrack(|| self.question())?;
        self.asked.with_untracked(|p| {
            p.revealed(&key).then(|| Answered {
                option: p.chosen(&key).map(|c| c + 1),
                answer: question.answer().map(|a| a + 1),
                guess: p.guess(&key),
                tour: key.tour,
                step: key.step + 1,
            })
        })
    }

    /// Adds the reader's tour, from their file or hosted at `hosted` (replacing their own of
    /// the same id), and returns its index.
    fn add(self, tour: TourFile, hosted: Option<String>) -> usize {
        let mut at = 0;
        self.own.update(|own| {
            let new = OwnTour { tour, hosted };
            at = match own.iter().position(|o| o.tour.id == new.tour.id) {
                Some(i) => {
                    own[i] = new;
                    i
                }
                None => {
                    own.push(new);
                    own.len() - 1
                }
            };
        });
        built_in().len() + at
    }
}

/// A tour the reader opened: from a file of theirs, or hosted beside the lab at a path.
#[derive(Clone)]
struct OwnTour {
    tour: TourFile,
    /// The path a link names it by, if it was fetched from beside the lab.
    hosted: Option<String>,
}

/// The built-in tours' ids, which no tour of the reader's may take.
fn built_in_ids() -> Vec<&'static str> {
    built_in().iter().map(|t| t.id.as_str()).collect()
}

fn key_of(tour: &TourFile, step: usize) -> StepKey {
    StepKey {
        tour: tour.id.clone(),
        step,
    }
}

/// Who asked for a hosted tour's step: told once it is open, or why it could not be.
type Asker = Box<dyn FnOnce(Result<(), String>)>;

/// The guided tours: one click sets the controls for a tour's first step.
#[component]
pub fn Tours(
    /// The tours, the place in them and the answers; the page keeps it while the view changes.
    shelf: TourShelf,
    /// The model's answer for the current point (its sentence, its curve): a question's
    /// reveal shows it beside the answer.
    model: ModelAnswer,
    /// Show the current step in a dock at the bottom of the window instead of inside the
    /// panel (for a panel placed below the charts).
    #[prop(optional)]
    docked: bool,
) -> impl IntoView {
    let lab = Lab::expect();
    let off = Signal::derive(move || lab.embedding.with(|e| !e.locks.is_empty()));
    let go = Callback::new(move |at: TourIndex| shelf.go(at));
    let list = move || view! { <TourList shelf=shelf go=go off=off /> };
    let step = move || view! { <TourStep shelf=shelf go=go off=off model=model /> };
    let off_note = move || {
        view! {
            <p class="hint" id="tours-off" hidden=move || !off.get()>
                "The tours are off: the author of this page locked controls they would change."
            </p>
        }
    };
    let open_own = move || {
        view! {
            <OpenTourFile shelf=shelf go=go off=off />
            <SheetOf shelf=shelf />
        }
    };
    if docked {
        return view! {
            <section class="card tours" aria-labelledby="tours-title"
                on:dragover=move |ev: leptos::ev::DragEvent| ev.prevent_default()
                on:drop=move |ev| drop_file(ev, shelf, go)>
                <h2 id="tours-title">"Guided tours"</h2>
                {list}
                {open_own}
                {off_note}
            </section>
            <aside class="card tour-dock" aria-label="Guided tour step" hidden=move || shelf.at.get().is_none()>
                {step()}
            </aside>
        }
        .into_any();
    }
    // Above teaching mode and the drive over time the panel folds to one line, so the view
    // itself fills the first screen (a projector's 720 px); a tour in progress keeps it open.
    view! {
        <details class="card tours" id="tours" prop:open=shelf.at.get_untracked().is_some()
            on:dragover=move |ev: leptos::ev::DragEvent| ev.prevent_default()
            on:drop=move |ev| drop_file(ev, shelf, go)>
            <summary id="tours-summary">
                <h2 id="tours-title">"Guided tours"</h2>
                <span class="hint">{format!(" {} tours; one click sets the controls for each step", built_in().len())}</span>
            </summary>
            {list}
            {open_own}
            {off_note}
            {step()}
        </details>
    }
    .into_any()
}

/// A button per tour, the built-in ones and then the reader's own.
#[component]
fn TourList(shelf: TourShelf, go: Callback<TourIndex>, off: Signal<bool>) -> impl IntoView {
    let button = move |i: usize, tour: &TourFile| {
        view! {
            <li>
                <button
                    type="button"
                    id=format!("tour-{}", tour.id)
                    aria-pressed=move || (shelf.at.get().map(|a| a.0) == Some(i)).to_string()
                    prop:disabled=move || off.get()
                    on:click=move |_| go.run((i, 0))
                >
                    {tour.title.clone()}
                </button>
            </li>
        }
    };
    let built = built_in()
        .iter()
        .enumerate()
        .map(|(i, t)| button(i, t))
        .collect_view();
    let own = move || {
        shelf.own.with(|own| {
            own.iter()
                .enumerate()
                .map(|(i, o)| button(built_in().len() + i, &o.tour))
                .collect_view()
        })
    };
    view! { <ul class="tour-list">{built}{own}</ul> }
}

/// The reader's own tour: a file chosen (or dropped on the panel), and why it did not open.
#[component]
fn OpenTourFile(shelf: TourShelf, go: Callback<TourIndex>, off: Signal<bool>) -> impl IntoView {
    let on_change = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
        else {
            return;
        };
        let file = input.files().and_then(|f| f.get(0));
        // Let the same file be chosen again after the teacher mended it.
        input.set_value("");
        if let Some(file) = file {
            open_file(file, shelf, go);
        }
    };
    view! {
        <div class="control tour-file">
            <label for="tour-file">"Open a tour file of your own (or drop it here)"</label>
            <input id="tour-file" type="file" accept=".json,application/json"
                prop:disabled=move || off.get() on:change=on_change />
            {move || shelf.refused.get().map(|why| view! {
                <p id="tour-file-error" class="notes" role="alert">{why}</p>
            })}
        </div>
    }
}

/// A tour file dropped on the panel opens as a chosen one does.
fn drop_file(ev: leptos::ev::DragEvent, shelf: TourShelf, go: Callback<TourIndex>) {
    ev.prevent_default();
    let file = ev
        .data_transfer()
        .and_then(|d| d.files())
        .and_then(|f| f.get(0));
    if let Some(file) = file {
        open_file(file, shelf, go);
    }
}

/// Reads `file` as a tour: it joins the list at its first step, or the panel says why not,
/// by line, and the lab stays as it was.
fn open_file(file: web_sys::File, shelf: TourShelf, go: Callback<TourIndex>) {
    let name: String = file
        .name()
        .chars()
        .filter(|c| !c.is_control())
        .take(80)
        .collect();
    if file.size() > MAX_FILE_BYTES as f64 {
        shelf.refused.set(Some(format!(
            "{name} was not opened: it is larger than {} KiB, and a tour file is far smaller.",
            MAX_FILE_BYTES >> 10
        )));
        return;
    }
    spawn_local(async move {
        let text = JsFuture::from(file.text())
            .await
            .ok()
            .and_then(|t| t.as_string());
        let Some(text) = text else {
            shelf
                .refused
                .set(Some(format!("{name} could not be read.")));
            return;
        };
        match tour_file::parse_beside(&text, &built_in_ids()) {
            Ok(tour) => {
                shelf.refused.set(None);
                let i = shelf.add(tour, None);
                go.run((i, 0));
            }
            Err(e) => shelf.refused.set(Some(format!(
                "{name} was not opened: {e}. The lab is as it was."
            ))),
        }
    });
}

/// The current step of a tour: its text, its question, and the buttons to the previous and
/// next step.
#[component]
fn TourStep(
    shelf: TourShelf,
    /// Goes to (tour, step), setting the lab up as the step says.
    go: Callback<TourIndex>,
    /// The tours are off (the author locked controls).
    off: Signal<bool>,
    model: ModelAnswer,
) -> impl IntoView {
    view! {
        <div class="tour-step" id="tour-step" aria-live="polite">
            {move || {
                shelf.current().map(|(t, s, tour)| {
                    let n = tour.steps.len();
                    let step = tour.steps.get(s).cloned();
                    let text = step.as_ref().map(|x| x.text.clone()).unwrap_or_default();
                    let question = step.and_then(|x| x.question).map(|q| {
                        let key = key_of(&tour, s);
                        view! { <QuestionCard shelf=shelf key=key question=q model=model /> }
                    });
                    view! {
                        <p class="tour-count">{format!("{}: step {} of {n}", tour.title, s + 1)}</p>
                        <p class="tour-audience hint">{format!("For: {}", tour.audience)}</p>
                        <p id="tour-text">{text}</p>
                        {question}
                        <div class="tour-nav">
                            <button type="button" id="tour-prev"
                                prop:disabled=move || { s == 0 || off.get() }
                                on:click=move |_| go.run((t, s.saturating_sub(1)))>
                                "Previous step"
                            </button>
                            <button type="button" id="tour-next"
                                prop:disabled=move || { s + 1 >= n || off.get() }
                                on:click=move |_| go.run((t, s + 1))>
                                "Next step"
                            </button>
                            <button type="button" id="tour-worksheet"
                                on:click=move |_| shelf.sheet.set(Some(t))>
                                "Print a worksheet"
                            </button>
                        </div>
                    }
                })
            }}
        </div>
    }
}

/// A step's question: the options to commit to before the answer shows, then the verdict,
/// the step's explanation and the model's own figures.
#[component]
fn QuestionCard(
    shelf: TourShelf,
    key: StepKey,
    question: Question,
    model: ModelAnswer,
) -> impl IntoView {
    // A memo, so that a hand counted (which changes the predictions too) does not draw the
    // question again under the teacher's typing.
    let revealed = {
        let key = key.clone();
        Memo::new(move |_| shelf.asked.with(|p| p.revealed(&key)))
    };
    view! {
        <div class="tour-question" id="tour-question">
            {move || {
                match (revealed.get(), question.draws_up_to().is_some()) {
                    (true, _) => view! { <Revealed shelf=shelf key=key.clone() question=question.clone() model=model /> }
                        .into_any(),
                    (false, true) => view! { <AskToDraw shelf=shelf key=key.clone() question=question.clone() /> }
                        .into_any(),
                    (false, false) => view! { <Ask shelf=shelf key=key.clone() question=question.clone() /> }
                        .into_any(),
                }
            }}
        </div>
    }
}

/// The question asked: one radio per option (keyboard: Tab to the group, arrows to choose),
/// and Commit; on the projector theme a count of raised hands per option and Reveal.
#[component]
fn Ask(shelf: TourShelf, key: StepKey, question: Question) -> impl IntoView {
    let lab = Lab::expect();
    let projector = move || lab.display.with(|d| d.theme == Theme::Projector);
    let choice = RwSignal::new(shelf.asked.with_untracked(|p| p.chosen(&key)));
    let name = format!("tour-q-{}-{}", key.tour, key.step + 1);
    let counted = shelf.asked.with_untracked(|p| p.tally(&key, &question));
    let options = question
        .options()
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let hands_key = key.clone();
            let q = question.clone();
            let set_hands = move |ev: leptos::ev::Event| {
                let hands = event_target_value(&ev).trim().parse::<u32>().unwrap_or(0);
                shelf
                    .asked
                    .update(|p| p.set_hands(hands_key.clone(), &q, i, hands));
            };
            let label = format!("{}. {text}", letter(i));
            let count = counted
                .get(i)
                .filter(|n| **n > 0)
                .map(u32::to_string)
                .unwrap_or_default();
            view! {
                <li>
                    <label class="tour-option">
                        <input type="radio" name=name.clone() id=format!("tour-option-{}", i + 1)
                            prop:checked=move || choice.get() == Some(i)
                            on:change=move |_| choice.set(Some(i)) />
                        {label}
                    </label>
                    <Show when=projector>
                        <label class="tour-hands">
                            <span class="visually-hidden">{format!("Hands raised for {}", letter(i))}</span>
                            <input type="number" min="0" max="999" step="1" inputmode="numeric"
                                id=format!("tour-hands-{}", i + 1) placeholder="hands" value=count.clone()
                                on:input=set_hands.clone() />
                        </label>
                    </Show>
                </li>
            }
        })
        .collect_view();
    let commit = {
        let (key, q) = (key.clone(), question.clone());
        move |()| {
            if let Some(c) = choice.get_untracked() {
                shelf.asked.update(|p| p.commit(key.clone(), &q, c));
            }
        }
    };
    view! {
        <fieldset class="tour-ask">
            <legend id="tour-ask">{question.ask.clone()}</legend>
            <p class="hint">"Predict first: the model's answer shows when you commit."</p>
            <ol class="tour-options">{options}</ol>
            <CommitOrReveal shelf=shelf key=key ready=Signal::derive(move || choice.get().is_some())
                commit=Callback::new(commit) />
        </fieldset>
    }
}

/// The answer shown: whether the prediction matched (or how far the drawn guess was), the
/// class's tally beside the model's answer, the explanation, and the model's figures for the
/// point.
#[component]
fn Revealed(
    shelf: TourShelf,
    key: StepKey,
    question: Question,
    model: ModelAnswer,
) -> impl IntoView {
    let (chosen, tally, guess) = shelf
        .asked
        .with_untracked(|p| (p.chosen(&key), p.tally(&key, &question), p.guess(&key)));
    let verdict = {
        let question = question.clone();
        move || match question.form {
            Form::Choice { .. } => Verdict::of(&question, chosen).to_string(),
            Form::Draw { .. } if guess.is_empty() => {
                "The model's curve is on the chart.".to_string()
            }
            Form::Draw { .. } => model.curve.with(|c| {
                GuessVerdict::of(&guess, &c.points).map_or_else(
                    || "The model is still computing its curve.".to_string(),
                    |v| v.words(&|x| c.unit.value_words(x)),
                )
            }),
        }
    };
    let tally_view = question
        .answer()
        .filter(|_| tally.iter().sum::<u32>() > 0)
        .map(|answer| {
            view! { <Tally question=question.clone() tally=tally.clone() answer=answer /> }
        });
    let says = move || {
        let s = model.says.get();
        if s.is_empty() {
            "The model is still computing this point.".to_string()
        } else {
            s
        }
    };
    view! {
        <div id="tour-answer" role="status">
            <p class="tour-ask-again-q">{question.ask.clone()}</p>
            <p id="tour-verdict"><strong>{verdict}</strong></p>
            {tally_view}
            <p id="tour-explanation">{question.explanation.clone()}</p>
            <p id="tour-model-says">{says}</p>
            <button type="button" id="tour-ask-again" class="small"
                on:click=move |_| shelf.asked.update(|p| p.ask_again(&key))>
                "Ask again"
            </button>
        </div>
    }
}

/// A question answered by drawing on the chart: how to draw, how much is drawn, and Commit
/// once every depth has a value; on the projector theme, Reveal without a guess.
#[component]
fn AskToDraw(shelf: TourShelf, key: StepKey, question: Question) -> impl IntoView {
    let depths = move || shelf.guess_depths();
    let drawn = {
        let key = key.clone();
        Memo::new(move |_| shelf.asked.with(|p| p.guess(&key).len()))
    };
    let complete = move || drawn.get() >= depths().len();
    view! {
        <fieldset class="tour-ask">
            <legend id="tour-ask">{question.ask.clone()}</legend>
            <p class="hint" id="guess-keys">
                "Predict first: draw your guess on the chart above, dragging across it, or with \
                 the keys once the chart has the focus: Left and Right pick a queue depth, Up and \
                 Down (Page Up, Page Down) set its value, Enter commits."
            </p>
            <p id="guess-count" aria-live="polite">
                {move || {
                    let total = depths().len();
                    let noun = if total == 1 { "queue depth" } else { "queue depths" };
                    format!("{} of {total} {noun} drawn.", drawn.get())
                }}
            </p>
            <CommitOrReveal shelf=shelf key=key ready=Signal::derive(complete)
                commit=Callback::new(move |()| shelf.commit_guess()) />
        </fieldset>
    }
}

/// Commit (once `ready`), and on the projector theme Reveal to the class without a choice.
#[component]
fn CommitOrReveal(
    shelf: TourShelf,
    key: StepKey,
    ready: Signal<bool>,
    commit: Callback<()>,
) -> impl IntoView {
    let lab = Lab::expect();
    let projector = move || lab.display.with(|d| d.theme == Theme::Projector);
    view! {
        <div class="tour-nav">
            <button type="button" id="tour-commit" prop:disabled=move || !ready.get()
                on:click=move |_| commit.run(())>
                "Commit and reveal"
            </button>
            <Show when=projector>
                <button type="button" id="tour-reveal"
                    on:click={
                        let key = key.clone();
                        move |_| shelf.asked.update(|p| p.reveal(key.clone()))
                    }>
                    "Reveal to the class"
                </button>
            </Show>
        </div>
    }
}

/// The class's show of hands per option, as counts and bars, the model's answer marked.
#[component]
fn Tally(question: Question, tally: Vec<u32>, answer: usize) -> impl IntoView {
    let most = tally.iter().copied().max().unwrap_or(0).max(1);
    let rows = question
        .options()
        .iter()
        .zip(tally)
        .enumerate()
        .map(|(i, (text, hands))| {
            let mark = if i == answer { " (the model's answer)" } else { "" };
            // Through the style object: the page's content policy refuses style attributes.
            let width = format!("{}%", 100 * hands / most);
            view! {
                <li class:tour-right=i == answer>
                    <span>{format!("{}. {text}: {hands} {}{mark}", letter(i), if hands == 1 { "hand" } else { "hands" })}</span>
                    <span class="tour-bar" style:width=width aria-hidden="true"></span>
                </li>
            }
        })
        .collect_view();
    view! {
        <figure class="tour-tally">
            <figcaption>"The class's predictions"</figcaption>
            <ul id="tour-tally">{rows}</ul>
        </figure>
    }
}

/// The worksheet of the tour asked for, over the lab, until closed; then the button that
/// opened it has the focus again.
#[component]
fn SheetOf(shelf: TourShelf) -> impl IntoView {
    let close = Callback::new(move |()| {
        shelf.sheet.set(None);
        if let Some(button) = document().get_element_by_id("tour-worksheet") {
            if let Ok(button) = button.dyn_into::<web_sys::HtmlElement>() {
                let _ = button.focus();
            }
        }
    });
    move || {
        shelf
            .sheet
            .get()
            .and_then(|t| shelf.tour(t))
            .map(|tour| view! { <WorksheetView sheet=Worksheet::of(&tour) on_close=close /> })
    }
}
