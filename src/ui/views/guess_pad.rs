//! The chart against queue depth as a pad to draw a guess on, while a tour's question asks
//! for one ([`crate::ui::pure::predict`]): a pointer's stroke sets the value at each depth it
//! crosses, and from the keyboard the pad is a slider (Left and Right pick a depth, Up and
//! Down set its value, Enter commits), which says the depth and value it is at to a screen
//! reader.
//!
//! What always holds: the pad only takes input while the answer is hidden; a stroke leaves no
//! depth it crossed without a value ([`stroke`]); every value is held to the question's axis
//! (the predictions hold it); the chart maps a pointer through the same axes it draws
//! ([`iodepth_chart::guess_at`]).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::ui::charts::iodepth_chart::{self, IodepthChartData};
use crate::ui::pure::predict::{guess_stepped, stroke, GuessKey};
use crate::ui::views::tours::TourShelf;

/// The element that explains the pad's keys (the question's card).
const KEYS_HINT_ID: &str = "guess-keys";

/// Wraps the chart `children` draw; a pad while `data`'s guess hides the model.
#[component]
pub fn GuessPad(
    shelf: TourShelf,
    data: Memo<IodepthChartData>,
    /// The depth the keyboard sets (ringed on the chart).
    selected: RwSignal<u32>,
    children: Children,
) -> impl IntoView {
    let guessing =
        Memo::new(move |_| data.with(|d| d.guess.as_ref().is_some_and(|g| g.hides_model)));
    // The stroke's last point; none between strokes.
    let last = StoredValue::new(None::<(u32, f64)>);
    let draw_to = move |ev: &web_sys::PointerEvent| {
        let Some(to) = pointer_at(ev, data, &shelf.guess_depths()) else {
            return;
        };
        shelf.draw_guess(&stroke(last.get_value(), to, &shelf.guess_depths()));
        selected.set(to.0);
        last.set_value(Some(to));
    };
    let down = move |ev: web_sys::PointerEvent| {
        if !guessing.get_untracked() {
            return;
        }
        ev.prevent_default();
        if let Some(el) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        {
            let _ = el.set_pointer_capture(ev.pointer_id());
        }
        last.set_value(None);
        draw_to(&ev);
    };
    let moved = move |ev: web_sys::PointerEvent| {
        if guessing.get_untracked() && last.get_value().is_some() {
            draw_to(&ev);
        }
    };
    let value_text = move || {
        let depth = GuessKey::Depth(0).moved(selected.get(), &shelf.guess_depths());
        let unit = data.with(|d| d.unit);
        match shelf.guess_at(depth) {
            Some(v) => format!("QD {depth}: {}", unit.value_words(v)),
            None => format!("QD {depth}: not drawn yet"),
        }
    };
    let on = move |v: &'static str| move || guessing.get().then_some(v);
    view! {
        <div class="guess-pad" id="guess-pad" class:guessing=guessing
            tabindex=on("0") role=on("slider") aria-describedby=on(KEYS_HINT_ID)
            aria-label=on("Your guess, at each queue depth")
            aria-valuemin=on("0")
            aria-valuemax=move || data.with(|d| d.guess.as_ref().map(|g| g.up_to.to_string()))
            aria-valuenow=move || shelf.guess_at(selected.get()).map(|v| v.round().to_string())
            aria-valuetext=move || guessing.get().then(value_text)
            on:pointerdown=down
            on:pointermove=moved
            on:pointerup=move |_| last.set_value(None)
            on:pointercancel=move |_| last.set_value(None)
            on:keydown=move |ev| on_key(&ev, shelf, data, selected, guessing)>
            {children()}
        </div>
    }
}

/// The depth and value under the pointer, if it is over the chart.
fn pointer_at(
    ev: &web_sys::PointerEvent,
    data: Memo<IodepthChartData>,
    depths: &[u32],
) -> Option<(u32, f64)> {
    let el = ev.current_target()?.dyn_into::<web_sys::Element>().ok()?;
    let rect = el.get_bounding_client_rect();
    let at = (
        f64::from(ev.client_x()) - rect.left(),
        f64::from(ev.client_y()) - rect.top(),
    );
    data.with_untracked(|d| iodepth_chart::guess_at(d, (rect.width(), rect.height()), at, depths))
}

/// A key on the pad: its [`GuessKey`] action, the page's own keys left alone.
fn on_key(
    ev: &web_sys::KeyboardEvent,
    shelf: TourShelf,
    data: Memo<IodepthChartData>,
    selected: RwSignal<u32>,
    guessing: Memo<bool>,
) {
    let Some(key) = GuessKey::of(&ev.key()).filter(|_| guessing.get_untracked()) else {
        return;
    };
    ev.prevent_default();
    let depths = shelf.guess_depths();
    // The depth the keys set: the one selected, if the guess is drawn there, else its first.
    let at = GuessKey::Depth(0).moved(selected.get_untracked(), &depths);
    match key {
        GuessKey::Commit => shelf.commit_guess(),
        GuessKey::Value { steps, per_axis } => {
            let up_to = data.with_untracked(|d| d.guess.as_ref().map_or(0.0, |g| g.up_to));
            let value = guess_stepped(shelf.guess_at(at), up_to as u64, steps, per_axis);
            shelf.draw_guess(&[(at, value)]);
            selected.set(at);
        }
        _ => selected.set(key.moved(at, &depths)),
    }
}
