//! [`TaskStatus`]: the status line of work a view asks a worker for by itself (several jobs, a
//! replay): what the work is doing, with Cancel while it runs and Run once it was stopped.
//!
//! What always holds: the line is a live region (`role="status"`), so a screen reader hears the
//! progress; its buttons are native and keyboard-operable, with ids `{id}-cancel` and
//! `{id}-run` under the line's `{id}-status`.

use leptos::prelude::*;

/// The status line with its Cancel and Run buttons.
#[component]
pub fn TaskStatus(
    /// The stem of the element ids (`jobs`, `trace`).
    id: &'static str,
    /// What the work is doing, in words.
    #[prop(into)]
    text: Signal<String>,
    /// The work is under way (Cancel is offered).
    #[prop(into)]
    running: Signal<bool>,
    /// The work was stopped and can run again (Run is offered).
    #[prop(into)]
    stopped: Signal<bool>,
    on_cancel: Callback<()>,
    on_run: Callback<()>,
) -> impl IntoView {
    view! {
        <p class="status" id=format!("{id}-status") role="status">
            {move || text.get()}
            <Show when=move || running.get()>
                " "
                <button type="button" id=format!("{id}-cancel") on:click=move |_| on_cancel.run(())>
                    "Cancel"
                </button>
            </Show>
            <Show when=move || stopped.get()>
                " "
                <button type="button" id=format!("{id}-run") on:click=move |_| on_run.run(())>
                    "Run"
                </button>
            </Show>
        </p>
    }
}
