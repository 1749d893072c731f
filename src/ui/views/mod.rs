//! Alternative views of the results area, chosen by [`LabState::view`] (URL `view=`).
//!
//! - [`ViewSwitch`]: the two buttons that choose between the charts and teaching mode.
//! - [`activity`]: teaching mode (the drive at work, the bottleneck explainer, guided tours).
//!
//! What always holds: a view only reads and writes the one [`LabState`] signal (through its
//! setters) and keeps its own per-view state to itself, so switching views never changes the
//! experiment.

pub mod activity;

use leptos::prelude::*;

use super::state::LabState;
use super::teaching::View;

/// Chooses what the results area shows.
#[component]
pub fn ViewSwitch(
    /// The lab's state (read and written).
    state: RwSignal<LabState>,
) -> impl IntoView {
    let buttons = View::ALL
        .into_iter()
        .map(|v| {
            view! {
                <button
                    type="button"
                    id=format!("view-{}", v.id())
                    aria-pressed=move || (state.with(LabState::view) == v).to_string()
                    on:click=move |_| state.update(|s| s.set_view(v))
                >
                    {v.label()}
                </button>
            }
        })
        .collect_view();
    view! {
        <div class="view-switch" role="group" aria-label="Show">
            {buttons}
        </div>
    }
}
