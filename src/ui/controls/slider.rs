//! [`LadderSlider`]: a labelled native range input over a [`Ladder`] of values.
//!
//! The input runs over positions (0..len) and the ladder maps a position to a value, so uneven
//! steps (powers of two, doubling block sizes) work with the browser's own slider, keyboard
//! and assistive technology support. Arrow keys jump between the ladder's coarse stops; with
//! Shift they take one fine step. Page Up/Down, Home and End keep their native meaning.
//!
//! Arrow keys pressed faster than the page can follow (a key held down on a slow device) are
//! applied together: once the task handling them has spent [`TASK_BUDGET_MS`], the steps that
//! follow in it add up and are applied as one, in the next task. Every step counts; only the
//! states in between are never computed.

use std::time::Duration;

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;

use super::lock::LockHint;

use crate::ui::browser::input::{self, TASK_BUDGET_MS};
use crate::ui::pure::ladder::Ladder;

/// A labelled slider with its value shown beside it.
#[component]
pub fn LadderSlider(
    /// Element id of the `<input>` (the label and the visible value refer to it).
    id: &'static str,
    /// The visible label.
    label: &'static str,
    /// The values the slider offers, in order.
    #[prop(into)]
    ladder: Signal<Ladder>,
    /// The current value (shown at its nearest position if it is not on the ladder).
    #[prop(into)]
    value: Signal<u32>,
    /// Called with the new value whenever the reader moves the slider.
    on_change: Callback<u32>,
    /// The value as the page shows it next to the slider (e.g. `128 KiB`).
    format: Callback<u32, String>,
    /// The value as assistive technology reads it (e.g. `queue depth 32`).
    value_text: Callback<u32, String>,
    /// A short hint under the slider.
    #[prop(optional)]
    hint: Option<&'static str>,
    /// Greyed out and not focusable, e.g. for a quantity the reader holds fixed.
    #[prop(optional, into)]
    disabled: Signal<bool>,
    /// Made read-only by the page's author (`lock=`): disabled, with a hint saying so.
    #[prop(optional, into)]
    locked: Signal<bool>,
) -> impl IntoView {
    let disabled = Signal::derive(move || disabled.get() || locked.get());
    let index = move || ladder.with(|l| l.index_of(value.get()));
    // Arrow-key steps not yet applied: those the page met after its task had spent its
    // budget on earlier input (see `on_keydown`).
    let pending = StoredValue::new_local(None::<u32>);
    let on_input = move |ev| {
        // A position the reader chose replaces any steps still on their way.
        pending.set_value(None);
        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
            let v = ladder.with_untracked(|l| l.value(i));
            if v != value.get_untracked() {
                on_change.run(v);
            }
        }
    };
    let on_keydown = move |ev: KeyboardEvent| {
        let up = match ev.key().as_str() {
            "ArrowRight" | "ArrowUp" => true,
            "ArrowLeft" | "ArrowDown" => false,
            _ => return,
        };
        ev.prevent_default();
        let waiting = pending.get_value();
        let now = waiting.unwrap_or_else(|| value.get_untracked());
        let next = ladder.with_untracked(|l| l.step(now, up, ev.shift_key()));
        if next == now {
            return;
        }
        let busy = input::spent_ms().is_some_and(|spent| spent >= TASK_BUDGET_MS);
        if !busy && waiting.is_none() {
            on_change.run(next);
            return;
        }
        // A busy page gets the presses queued meanwhile in one task (`crate::ui::browser::input`):
        // once that task has spent its budget, the rest become one step, applied in a task
        // of its own as the reader's input.
        pending.set_value(Some(next));
        if waiting.is_none() {
            set_timeout(
                move || {
                    if let Some(Some(v)) = pending.try_update_value(Option::take) {
                        input::begin();
                        on_change.run(v);
                    }
                },
                Duration::ZERO,
            );
        }
    };
    let hint_id = format!("{id}-hint");
    view! {
        <div class="control" class:disabled=move || disabled.get()>
            <div class="control-head">
                <label for=id>{label}</label>
                <output for=id id=format!("{id}-value")>{move || format.run(value.get())}</output>
            </div>
            <input
                id=id
                type="range"
                min="0"
                step="1"
                prop:max=move || ladder.with(|l| l.max_index().to_string())
                prop:value=move || index().to_string()
                prop:disabled=move || disabled.get()
                aria-valuetext=move || value_text.run(value.get())
                aria-describedby=hint.map(|_| hint_id.clone())
                on:input=on_input
                on:keydown=on_keydown
            />
            {hint.map(|h| view! { <p class="hint" id=hint_id.clone()>{h}</p> })}
            <LockHint locked=locked />
        </div>
    }
}
