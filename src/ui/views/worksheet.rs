//! A tour's worksheet ([`crate::ui::pure::worksheet`]), shown over the lab as it will print:
//! Print hands it to the browser's print (to paper or PDF), where the lab itself is left out,
//! each step keeps to one page where it fits, and the answer key starts a page of its own.
//!
//! What always holds: the worksheet is plain text and boxes (no canvas), so it prints the same
//! in every browser; it says on every sketch and on the key that the lab's answers are model
//! results; Close (or Escape) returns to the lab as it was.

use leptos::portal::Portal;
use leptos::prelude::*;

use crate::model::text::grouped;
use crate::ui::pure::predict::letter;
use crate::ui::pure::worksheet::{KeyEntry, SheetStep, Worksheet, KEY_NOTE};

/// The worksheet of a tour, over the lab, with Print and Close.
#[component]
pub fn WorksheetView(sheet: Worksheet, on_close: Callback<()>) -> impl IntoView {
    // At the end of the body, so that print can leave out everything else.
    view! {
        <Portal>
            <WorksheetBody sheet=sheet.clone() on_close=on_close />
        </Portal>
    }
}

#[component]
fn WorksheetBody(sheet: Worksheet, on_close: Callback<()>) -> impl IntoView {
    let print = move |_| {
        if let Some(w) = web_sys::window() {
            // The browser's own dialog: nothing to do if the reader cancels it.
            let _ = w.print();
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Escape" {
            on_close.run(());
        }
    };
    let print_button = NodeRef::<leptos::html::Button>::new();
    // Keyboard and screen-reader users land on the worksheet, not behind it.
    print_button.on_load(|b| {
        let _ = b.focus();
    });
    let steps = sheet
        .steps
        .into_iter()
        .map(|s| view! { <SheetStepView step=s /> })
        .collect_view();
    let key = sheet.key;
    view! {
            <section class="worksheet" id="worksheet" role="dialog" aria-modal="true"
                aria-labelledby="worksheet-title" on:keydown=on_key>
                <div class="worksheet-bar">
                    <button type="button" id="worksheet-print" node_ref=print_button on:click=print>
                        "Print"
                    </button>
                    <button type="button" id="worksheet-close" on:click=move |_| on_close.run(())>
                        "Close"
                    </button>
                    <span class="hint">"Print to paper or to PDF; the lab itself is left out."</span>
                </div>
                <h1 id="worksheet-title">{sheet.title}</h1>
                <p class="worksheet-for">{format!("For: {}", sheet.audience)}</p>
                <p class="worksheet-name">"Name: ____________________________"</p>
                <ol class="worksheet-steps">{steps}</ol>
                <AnswerKey key=key />
            </section>
    }
}

/// One step: its setup, its text, and its question with room to answer and a chart to sketch.
#[component]
fn SheetStepView(step: SheetStep) -> impl IntoView {
    let question = step.question.map(|q| {
        let options = q
            .options
            .iter()
            .enumerate()
            .map(|(i, o)| view! { <li>{format!("\u{2610} {}. {o}", letter(i))}</li> })
            .collect_view();
        let label = format!(
            "An empty chart of {} against {}, to sketch your prediction in",
            q.sketch.y, q.sketch.x
        );
        let reach = q.draw.map(|d| {
            let depths: Vec<String> = d.depths.iter().map(u32::to_string).collect();
            view! {
                <p class="worksheet-draw">
                    {format!(
                        "Draw your guess in the chart below: {} from 0 to {}, at queue depth {}.",
                        q.sketch.y,
                        grouped(d.up_to as f64),
                        depths.join(", ")
                    )}
                </p>
            }
        });
        view! {
            <div class="worksheet-question">
                <p class="worksheet-ask">{q.ask}</p>
                <ul class="worksheet-options">{options}</ul>
                {reach}
                <p>"Why? Write your reasoning:"</p>
                <div class="worksheet-lines" aria-hidden="true"><span></span><span></span><span></span></div>
                <figure class="worksheet-sketch">
                    <div class="sketch-frame" role="img" aria-label=label>
                        <span class="sketch-y">{q.sketch.y}</span>
                        <span class="sketch-x">{q.sketch.x}</span>
                    </div>
                    <figcaption>
                        "Sketch your prediction before the lab shows its answer (a model result)."
                    </figcaption>
                </figure>
            </div>
        }
    });
    view! {
        <li class="worksheet-step">
            <h2>{format!("Step {}", step.number)}</h2>
            <p class="worksheet-setup">{format!("Setup: {}", step.setup)}</p>
            <p class="worksheet-link">{format!("In the lab: {}", step.link)}</p>
            <p>{step.text}</p>
            {question}
        </li>
    }
}

/// The answer key, on a page of its own.
#[component]
fn AnswerKey(key: Vec<KeyEntry>) -> impl IntoView {
    if key.is_empty() {
        return view! {
            <section class="worksheet-key" id="worksheet-key">
                <h2>"Answer key"</h2>
                <p>"This tour asks no questions."</p>
            </section>
        }
        .into_any();
    }
    let rows = key
        .into_iter()
        .map(|k| {
            view! {
                <li>
                    <p><strong>{format!("Step {}: {}", k.step, k.answer)}</strong></p>
                    <p>{k.explanation}</p>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="worksheet-key" id="worksheet-key">
            <h2>"Answer key"</h2>
            <p class="hint">{KEY_NOTE}</p>
            <ol>{rows}</ol>
        </section>
    }
    .into_any()
}
