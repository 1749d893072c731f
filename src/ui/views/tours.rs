//! The guided tours' panel: one button per tour of [`built_in`], then the current step's text
//! with Previous and Next.
//!
//! The page shows it in every view (above teaching mode and the drive over time, folded to one
//! line until opened; below the queue-depth charts) and owns its position ([`TourAt`]), not any view, because the SLC-cache
//! tour moves the reader from one view to another and the panel must come along. Below the
//! queue-depth charts the current step is *docked*: it sticks to the bottom of the window
//! while the charts it talks about fill the screen, so a class on a projector sees the text
//! and its effect at once without scrolling. The position is part of the URL
//! (`tour=ID&step=N`, after the lab's state; see [`crate::ui::pure::tours::open_link`]): a
//! teacher links a class to one step, and each move to another step is an entry of the
//! browser's history (the page's URL keeper, [`crate::ui::App`]), so back and forward walk
//! the steps and a shared link lands on the same one.
//!
//! What always holds: a step changes the lab only through [`apply_step`] (its state read as a
//! link), so a tour can do nothing the controls could not; and while the page's author has
//! locked any control (`lock=`), the tours are off, since a tour sets most controls at once.

use leptos::prelude::*;

use crate::ui::pure::state::Lab;
use crate::ui::pure::tours::{apply_step, built_in};

/// Where the reader is: (tour, step) as indices into [`built_in`], or `None` before a first click.
pub type TourAt = RwSignal<Option<(usize, usize)>>;

/// The guided tours: one click sets the controls for a tour's first step.
#[component]
pub fn Tours(
    /// The tour and step shown; the page keeps it while the view changes.
    at: TourAt,
    /// Show the current step in a dock at the bottom of the window instead of inside the
    /// panel (for a panel placed below the charts).
    #[prop(optional)]
    docked: bool,
) -> impl IntoView {
    let lab = Lab::expect();
    let off = move || lab.embedding.with(|e| !e.locks.is_empty());
    let go = Callback::new(move |(tour, step): (usize, usize)| {
        if let Some(s) = built_in().get(tour).and_then(|t| t.steps.get(step)) {
            lab.update(|st| apply_step(s, st));
            at.set(Some((tour, step)));
        }
    });
    let list = built_in()
        .iter()
        .enumerate()
        .map(|(i, t)| {
            view! {
                <li>
                    <button
                        type="button"
                        id=format!("tour-{}", t.id)
                        aria-pressed=move || (at.get().map(|a| a.0) == Some(i)).to_string()
                        prop:disabled=off
                        on:click=move |_| go.run((i, 0))
                    >
                        {t.title.as_str()}
                    </button>
                </li>
            }
        })
        .collect_view();
    let step = move || view! { <TourStep at=at go=go off=Signal::derive(off) /> };
    let off_note = move || {
        view! {
            <p class="hint" id="tours-off" hidden=move || !off()>
                "The tours are off: the author of this page locked controls they would change."
            </p>
        }
    };
    if docked {
        return view! {
            <section class="card tours" aria-labelledby="tours-title">
                <h2 id="tours-title">"Guided tours"</h2>
                <ul class="tour-list">{list}</ul>
                {off_note}
            </section>
            <aside class="card tour-dock" aria-label="Guided tour step" hidden=move || at.get().is_none()>
                {step()}
            </aside>
        }
        .into_any();
    }
    // Above teaching mode and the drive over time the panel folds to one line, so the view
    // itself fills the first screen (a projector's 720 px); a tour in progress keeps it open.
    view! {
        <details class="card tours" id="tours" prop:open=at.get_untracked().is_some()>
            <summary id="tours-summary">
                <h2 id="tours-title">"Guided tours"</h2>
                <span class="hint">{format!(" {} tours; one click sets the controls for each step", built_in().len())}</span>
            </summary>
            <ul class="tour-list">{list}</ul>
            {off_note}
            {step()}
        </details>
    }
    .into_any()
}

/// The current step of a tour: its text and the buttons to the previous and next step.
#[component]
fn TourStep(
    /// The tour and step shown.
    at: TourAt,
    /// Goes to (tour, step), setting the lab up as the step says.
    go: Callback<(usize, usize)>,
    /// The tours are off (the author locked controls).
    off: Signal<bool>,
) -> impl IntoView {
    let current = move || {
        at.get()
            .and_then(|(t, s)| built_in().get(t).map(|tour| (t, s, tour)))
    };
    view! {
        <div class="tour-step" id="tour-step" aria-live="polite">
            {move || {
                current()
                    .map(|(t, s, tour)| {
                        let n = tour.steps.len();
                        let text = tour.steps.get(s).map(|x| x.text.clone()).unwrap_or_default();
                        view! {
                            <p class="tour-count">{format!("{}: step {} of {n}", tour.title, s + 1)}</p>
                            <p id="tour-text">{text}</p>
                            <div class="tour-nav">
                                <button
                                    type="button"
                                    id="tour-prev"
                                    prop:disabled=move || { s == 0 || off.get() }
                                    on:click=move |_| go.run((t, s.saturating_sub(1)))
                                >
                                    "Previous step"
                                </button>
                                <button
                                    type="button"
                                    id="tour-next"
                                    prop:disabled=move || { s + 1 >= n || off.get() }
                                    on:click=move |_| go.run((t, s + 1))
                                >
                                    "Next step"
                                </button>
                            </div>
                        }
                    })
            }}
        </div>
    }
}
