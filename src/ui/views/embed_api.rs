//! The lab's side of the message API with the page that frames it
//! ([`crate::ui::pure::host_api`] reads and writes the messages; the guide's "Embedding" lists
//! them): [`serve`] hears the host's requests and answers each malformed one with an `error`,
//! and tells the host `ready`, every `state`, each `result` and each `answer`.
//!
//! What always holds: only a message whose source is this window's parent, from an origin
//! `hosts=` lets in, is read at all (anything else is dropped unanswered: the lab does not tell
//! a stranger it is there); the lab posts only to its parent, and only to the origins `hosts=`
//! lists when it lists any; a request that fails changes nothing; and while a question waits for
//! its answer, no `result` gives it away.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use web_sys::MessageEvent;

use crate::ui::pure::embed::Hosts;
use crate::ui::pure::host_api::{self, By, Kind, MessageError, Request, Told};
use crate::ui::pure::state::{Lab, View};
use crate::ui::pure::url_state::{self, Note};
use crate::ui::views::embed_frame;
use crate::ui::views::readout::{self, ReadoutData};
use crate::ui::views::teaching_mode::Playback;
use crate::ui::views::tours::TourShelf;

/// What the host's requests reach.
#[derive(Clone, Copy)]
pub struct Reach {
    pub lab: Lab,
    pub shelf: TourShelf,
    pub notes: RwSignal<Vec<Note>>,
    pub playback: Playback,
    pub readout: Memo<ReadoutData>,
}

/// The query the host's last request led to, so the `state` it causes says `by: host`.
type HostWish = Rc<RefCell<Option<String>>>;

/// Hears the parent page's messages and tells it the lab's news, from now until the page goes
/// (see the module documentation). Call it only in a frame.
pub fn serve(reach: Reach) {
    let Some(parent) = embed_frame::parent() else {
        return;
    };
    let hosts = reach.lab.embedding.with_untracked(|e| e.hosts.clone());
    let to = Rc::new(Poster { parent, hosts });
    let wish: HostWish = Rc::default();
    listen(reach, to.clone(), wish.clone());
    let query = url_state::to_query(&reach.lab.state_untracked());
    to.post(&Told::Ready { query: &query });
    tell_state(reach.lab, to.clone(), wish);
    tell_results(reach, to.clone());
    tell_answers(reach.shelf, to);
}

/// Where the lab's messages go.
struct Poster {
    parent: web_sys::Window,
    hosts: Hosts,
}

impl Poster {
    /// Posts `told` to the parent: to each origin `hosts=` lists, or to any without a list.
    fn post(&self, told: &Told<'_>) {
        let text = JsValue::from_str(&told.text());
        match &self.hosts {
            Hosts::Any => {
                let _ = self.parent.post_message(&text, "*");
            }
            Hosts::Only(origins) => {
                for origin in origins {
                    let _ = self.parent.post_message(&text, origin);
                }
            }
        }
    }

    /// Whether `event` comes from the parent window, from an origin heard.
    fn hears(&self, event: &MessageEvent) -> bool {
        let from_parent = event
            .source()
            .is_some_and(|s| js_sys::Object::is(&s, &self.parent));
        from_parent && self.hosts.hears(&event.origin())
    }
}

/// Reads each message the parent sends and does what it asks, or answers why not.
fn listen(reach: Reach, to: Rc<Poster>, wish: HostWish) {
    let listener = window_event_listener(leptos::ev::message, move |event: MessageEvent| {
        if !to.hears(&event) {
            return;
        }
        let result = message_text(&event.data())
            .and_then(|text| host_api::read(&text))
            .map_err(|e| (e, None))
            .and_then(|request| {
                let kind = request.kind();
                act(reach, request, &wish, &to).map_err(|e| (e, Some(kind)))
            });
        if let Err((error, kind)) = result {
            to.post(&Told::Error {
                error: &error,
                kind,
            });
        }
    });
    on_cleanup(move || listener.remove());
}

/// A message's JSON text: a string as sent, anything else written as JSON by the browser.
fn message_text(data: &JsValue) -> Result<String, MessageError> {
    if let Some(text) = data.as_string() {
        return Ok(text);
    }
    let not_json = |why: &str| MessageError::NotJson { why: why.into() };
    let written =
        js_sys::JSON::stringify(data).map_err(|_| not_json("it cannot be written as JSON"))?;
    written
        .as_string()
        .ok_or_else(|| not_json("it is not a value JSON can hold"))
}

/// Does what `request` asks, or says why it cannot (then nothing changed). A step in a hosted
/// tour file is checked once the file arrives: then `to` is told if it was refused.
fn act(
    reach: Reach,
    request: Request,
    wish: &HostWish,
    to: &Rc<Poster>,
) -> Result<(), MessageError> {
    let Reach {
        lab, shelf, notes, ..
    } = reach;
    let refused = |kind, why: String| MessageError::Refused { kind, why };
    match request {
        Request::Set { query } => {
            let state = host_api::check_set(&query, &lab.state_untracked())?;
            *wish.borrow_mut() = Some(url_state::to_query(&state));
            lab.set(state);
        }
        Request::Step(place) => {
            let step = host_api::check_step(&place)?;
            let (to, wish) = (to.clone(), wish.clone());
            shelf.host_step(step, notes, move |done| match done {
                // Before the state's effect runs, so the `state` it causes says `by: host`.
                Ok(()) => *wish.borrow_mut() = Some(url_state::to_query(&lab.state_untracked())),
                Err(why) => to.post(&Told::Error {
                    error: &MessageError::Refused {
                        kind: Kind::Step,
                        why,
                    },
                    kind: Some(Kind::Step),
                }),
            });
        }
        Request::Reveal { option } => shelf
            .host_reveal(option)
            .map_err(|why| refused(Kind::Reveal, why))?,
        Request::Play | Request::Pause => {
            let play = request == Request::Play;
            let kind = request.kind();
            if lab.display.with_untracked(|d| d.view != View::Activity) {
                return Err(refused(
                    kind,
                    "teaching mode is not shown (set view to activity first)".into(),
                ));
            }
            if play && Playback::reduced_motion() {
                return Err(refused(
                    kind,
                    "the reader's system asks for reduced motion, so nothing plays".into(),
                ));
            }
            reach.playback.ask(play);
        }
    }
    Ok(())
}

/// Tells the host the state after every change, and whether the host made it.
fn tell_state(lab: Lab, to: Rc<Poster>, wish: HostWish) {
    Effect::new(move |last: Option<String>| {
        let query = url_state::to_query(&lab.state());
        if last.is_some_and(|l| l != query) {
            let by = match wish.borrow_mut().take() {
                Some(w) if w == query => By::Host,
                _ => By::Reader,
            };
            to.post(&Told::State { query: &query, by });
        }
        query
    });
}

/// Tells the host the current point's figures each time they improve (estimated, then final),
/// except while a question hides them.
fn tell_results(reach: Reach, to: Rc<Poster>) {
    let shelf = reach.shelf;
    let hidden = Memo::new(move |_| shelf.host_led() && shelf.awaiting());
    Effect::new(move |last: Option<Option<(String, bool)>>| {
        if hidden.get() {
            return None;
        }
        reach.readout.with(|data| {
            let point = data.point.as_ref()?;
            let seen = (
                data.stamp.clone(),
                point.fidelity == parallelism_work::Fidelity::Full,
            );
            if last.flatten().as_ref() != Some(&seen) {
                let summary = readout::spoken_summary(data);
                to.post(&Told::Result {
                    query: &data.stamp,
                    point,
                    summary: &summary,
                });
            }
            Some(seen)
        })
    });
}

/// Tells the host each prediction made, as its answer shows.
fn tell_answers(shelf: TourShelf, to: Rc<Poster>) {
    Effect::new(move |last: Option<Option<(String, usize, bool)>>| {
        let now = shelf
            .asking()
            .map(|(key, awaiting)| (key.tour, key.step, awaiting));
        if let (Some(Some((tour, step, true))), Some((t, s, false))) = (&last, &now) {
            if tour == t && step == s {
                if let Some(answered) = shelf.answered() {
                    to.post(&Told::Answer(&answered));
                }
            }
        }
        now
    });
}
