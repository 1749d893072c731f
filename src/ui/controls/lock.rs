//! What the page's author locked (`lock=` in an embedded lab): whether a control is locked, and
//! the hint it shows under it. Every control asks here, so a locked control is disabled and says
//! why in one way.

use leptos::prelude::*;

use crate::ui::pure::embed::Control;
use crate::ui::pure::state::Lab;

/// What a control the page's author locked (`lock=`) says under it.
pub const LOCKED_TEXT: &str = "Locked by the author of this page.";

/// Whether the author locked `control`, as a signal for the control's `disabled`.
pub fn locked(control: Control) -> Signal<bool> {
    let embedding = Lab::expect().embedding;
    Signal::derive(move || embedding.with(|e| e.locks.locks(control)))
}

/// The visible "locked by the author" hint, shown while `locked`.
#[component]
pub fn LockHint(
    /// Whether the control is locked.
    #[prop(into)]
    locked: Signal<bool>,
) -> impl IntoView {
    view! {
        <Show when=move || locked.get()>
            <p class="hint locked-hint">{LOCKED_TEXT}</p>
        </Show>
    }
}
