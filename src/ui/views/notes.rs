//! The notes about a shared link's parameters that were not applied: visible, dismissible,
//! and always plain text (a link's content is never inserted as HTML).

use leptos::prelude::*;

use crate::ui::pure::url_state::Note;

/// The list of link notes, shown only while there are any.
#[component]
pub fn LinkNotes(
    /// The notes; the Dismiss button empties it.
    notes: RwSignal<Vec<Note>>,
) -> impl IntoView {
    view! {
        <Show when=move || notes.with(|n| !n.is_empty())>
            <section
                id="url-notes"
                class="notes card"
                role="status"
                aria-labelledby="url-notes-title"
            >
                <h2 id="url-notes-title">"Some settings in the link were not applied"</h2>
                <ul>
                    {move || {
                        notes
                            .get()
                            .into_iter()
                            .map(|n| {
                                view! {
                                    <li>
                                        <code>{n.param}</code>
                                        ": "
                                        {n.message}
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ul>
                <p class="hint">"Everything else in the link was applied."</p>
                <button type="button" id="dismiss-notes" on:click=move |_| notes.set(Vec::new())>
                    "Dismiss"
                </button>
            </section>
        </Show>
    }
}
