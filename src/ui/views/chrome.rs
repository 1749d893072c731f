//! The page's frame around the results: embedded, the masthead's one line with "Open in the
//! full lab" (the full masthead is `index.html`'s), the controls panel (folded away when embedded; with locks, "Back to the
//! author's view" instead of Reset) and the footer that says what every figure is.
//!
//! None of them holds state: they read the lab's parts from its context ([`Lab`]), and the
//! controls write them through their setters.

use leptos::prelude::*;

use crate::ui::pure::guide::{GuidePage, GUIDE_DIR};
use crate::ui::views::guide_link::GuideLink;

use crate::ui::browser::later::Later;
use crate::ui::controls::{
    DriveControls, DriveStateControl, IdleControls, ResetButton, ViewControls, WorkloadControls,
};
use crate::ui::pure::reference;
use crate::ui::pure::state::{Lab, LabState};
use crate::ui::pure::url_state;
use crate::ui::views::scorecard::{self, ScorecardLink};

/// The id of the page's masthead in `index.html`.
pub const PAGE_MASTHEAD_ID: &str = "masthead";

/// Embedded, the compact line with a link to the full lab at the same state, in place of the
/// page's masthead. The full masthead is `index.html`'s own HTML (painted before the app has
/// loaded, so a reader sees what the lab is at once); an embedded lab removes it, the page
/// has its "How good is this model?" link open the scorecard in place.
#[component]
pub fn Masthead(embed: bool) -> impl IntoView {
    let lab = Lab::expect();
    if !embed {
        scorecard::follow_masthead_link(lab);
    }
    // The full lab's link carries the whole state.
    let full_lab_href = move || format!("?{}", url_state::to_query(&lab.state().full_lab()));
    embed.then(|| {
        remove_page_masthead();
        view! {
            <header class="masthead compact">
                <p class="embed-title">"Parallelism Lab"</p>
                <a id="open-full-lab" href=full_lab_href target="_blank" rel="noopener">
                    "Open in the full lab"
                    <span aria-hidden="true">" ↗"</span>
                    <span class="visually-hidden">" (opens a new tab)"</span>
                </a>
            </header>
        }
    })
}

/// Removes `index.html`'s masthead, if the page has one.
fn remove_page_masthead() {
    if let Some(masthead) = document().get_element_by_id(PAGE_MASTHEAD_ID) {
        masthead.remove();
    }
}

/// The controls; embedded, folded into a "Controls" disclosure and built when it is first
/// opened. With locks (`lock=`), the reset button goes back to the author's view (`authored`)
/// and keeps the reader's fio import.
#[component]
pub fn ControlsPanel(
    /// The state the page started from (the author's view).
    authored: LabState,
    embed: bool,
) -> impl IntoView {
    let lab = Lab::expect();
    let has_locks = move || lab.embedding.with(|e| !e.locks.is_empty());
    let authored = StoredValue::new(authored);

    let panel = move || {
        view! {
            // Each group mounts in a task of its own after the first chart (on a phone the
            // panel is below it).
            <aside class="panel" aria-label="Controls" id="controls">
                <Later>
                    <DriveControls drive=lab.drive />
                </Later>
                <Later>
                    <WorkloadControls workload=lab.workload />
                </Later>
                <Later>
                    <DriveStateControl workload=lab.workload />
                    <IdleControls views=lab.views />
                </Later>
                // Reset comes last, with the last group: shown earlier, every group mounted
                // above it would push it down.
                <Later>
                    <ViewControls views=lab.views display=lab.display />
                    <Show when=has_locks fallback=ResetButton>
                    <button
                        type="button"
                        id="reset"
                        class="reset"
                        on:click=move |_| {
                            // The reader's fio import is theirs, not the author's.
                            lab.set(LabState {
                                imported: lab.imported.get_untracked(),
                                ..authored.get_value()
                            })
                        }
                    >
                        "Back to the author's view"
                    </button>
                    </Show>
                    <GuideLink page=GuidePage::Model />
                </Later>
            </aside>
        }
    };
    if embed {
        // Folded, the controls are built when first opened: frames of one site share the
        // article's thread, and building the four groups a reader may never open made tasks
        // of 50 to 70 ms there on a phone. Once open they stay, closed or not.
        let opened = RwSignal::new(false);
        view! {
            <details
                class="embed-controls"
                id="embed-controls"
                on:toggle=move |_| {
                    if !opened.get_untracked() {
                        opened.set(true);
                    }
                }
            >
                <summary>"Controls"</summary>
                <Show when=move || opened.get()>{panel()}</Show>
            </details>
        }
        .into_any()
    } else {
        panel().into_any()
    }
}

/// What every curve, figure and marker on the page is, with the published source.
#[component]
pub fn Footer(embed: bool) -> impl IntoView {
    view! {
        <footer class="footer" class:compact=embed>
            <p>
                "All curves and every figure in the readout are results of the Parallelism Lab model, an event-driven simulation of host link, controller, NAND channels and dies that runs in this page. Diamonds are published measurements: "
                <cite>{reference::source()}</cite>
                ". Random cells were measured in random-write steady state, sequential ones after a sequential fill. "
                <ScorecardLink>"How good is this model?"</ScorecardLink>
                ": every published figure the lab holds, against the model's result for it. "
                // Embedded, the frame keeps its author's height: the guide is a click away
                // through "Open in the full lab".
                {(!embed).then(|| view! {
                    <a href=GUIDE_DIR>"The guide"</a>
                    ": using the lab, teaching and embedding with it, your fio results and traces, the command line, and the model."
                })}
            </p>
        </footer>
    }
}
