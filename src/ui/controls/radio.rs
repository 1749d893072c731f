//! [`RadioGroup`]: a fieldset of native radio buttons for one choice among a few.

use leptos::prelude::*;

use super::lock::LockHint;

/// One choice of a [`RadioGroup`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Stable value (also part of the input's id).
    pub value: &'static str,
    /// What the reader sees.
    pub label: String,
}

/// A labelled group of radio buttons.
#[component]
pub fn RadioGroup(
    /// The group's name; each input's id is `{name}-{value}`.
    name: &'static str,
    /// The group's visible legend.
    legend: &'static str,
    /// The choices, in order.
    choices: Vec<Choice>,
    /// The value currently chosen.
    #[prop(into)]
    selected: Signal<&'static str>,
    /// Called with the value the reader picks.
    on_change: Callback<&'static str>,
    /// Made read-only by the page's author (`lock=`).
    #[prop(optional, into)]
    locked: Signal<bool>,
) -> impl IntoView {
    let buttons = choices
        .into_iter()
        .map(|c| {
            let id = format!("{name}-{}", c.value);
            let label_for = id.clone();
            let value = c.value;
            view! {
                <label class="radio" for=label_for>
                    <input
                        type="radio"
                        id=id
                        name=name
                        value=value
                        prop:checked=move || selected.get() == value
                        prop:disabled=move || locked.get()
                        on:change=move |_| on_change.run(value)
                    />
                    <span>{c.label}</span>
                </label>
            }
        })
        .collect_view();
    view! {
        <fieldset class="radio-group">
            <legend>{legend}</legend>
            {buttons}
            <LockHint locked=locked />
        </fieldset>
    }
}
