//! The compare buttons: "Pin this view" (the current configuration stays as a curve), "E18DC
//! family" (the 480, 960 and 1,920 GB drives with the current workload) and "Clear pins"; each
//! pin's Remove button sits in the legend ([`PinRemove`]). Pins live in the lab's
//! [`crate::ui::pure::state::Pins`] (and so in the URL's `compare=`).
//!
//! What always holds: a refused pin (a fifth one, or a duplicate) changes nothing and says why;
//! with `lock=compare` every button here is disabled.

use leptos::prelude::*;

use crate::ui::controls::locked;
use crate::ui::pure::compare::{Pin, PinRefused, MAX_PINS};
use crate::ui::pure::embed::Control;
use crate::ui::pure::state::Lab;

/// Pin, family and clear, with the message of the last refusal.
#[component]
pub fn CompareBar() -> impl IntoView {
    let lab = Lab::expect();
    let message = RwSignal::new(None::<String>);
    let locked = locked(Control::Compare);
    let pin = move |_| {
        let mut result = Ok(());
        lab.update(|s| result = s.pins.add(Pin::of(s)));
        message.set(result.err().map(|e: PinRefused| e.to_string()));
    };
    let family = move |_| {
        let mut refused = None;
        lab.update(|s| {
            // The family replaces pins of the same drives; other pins stay if there is room.
            let family = Pin::family(s);
            let mut next = s.clone();
            next.pins.clear();
            for p in family
                .iter()
                .chain(s.pins.as_slice().iter().filter(|p| !family.contains(p)))
            {
                if let Err(e) = next.pins.add(p.clone()) {
                    refused = Some(e);
                }
            }
            *s = next;
        });
        message.set(refused.map(|_| {
            format!("The family takes three of the {MAX_PINS} places; the pins that did not fit were removed.")
        }));
    };
    let clear = move |_| {
        lab.pins.update(|p| p.clear());
        message.set(None);
    };
    view! {
        <div class="compare" role="group" aria-label="Compare configurations">
            <button type="button" id="pin-view" on:click=pin prop:disabled=locked>
                "Pin this view"
            </button>
            <button type="button" id="pin-family" on:click=family prop:disabled=locked>
                "Compare E18DC 480 / 960 / 1,920 GB"
            </button>
            <Show when=move || lab.pins.with(|p| !p.is_empty())>
                <button type="button" id="clear-pins" on:click=clear prop:disabled=locked>
                    "Clear pins"
                </button>
            </Show>
            <span class="hint">
                {move || {
                    format!(
                        "{} of {MAX_PINS} pinned. A pin keeps its drive and workload while you move the sliders.",
                        lab.pins.with(|p| p.len()),
                    )
                }}
            </span>
            {move || message.get().map(|m| view! { <p id="compare-message" class="notes" role="alert">{m}</p> })}
        </div>
    }
}

/// The Remove button of pin `index` in the legend.
#[component]
pub fn PinRemove(
    /// The pin's place.
    index: usize,
) -> impl IntoView {
    let pins = Lab::expect().pins;
    view! {
        <button
            type="button"
            class="small remove-pin"
            aria-label=format!("Remove pin {}", index + 1)
            prop:disabled=locked(Control::Compare)
            on:click=move |_| pins.update(|p| p.remove(index))
        >
            "Remove"
        </button>
    }
}
