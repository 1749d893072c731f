//! Teaching mode's "Follow one request" card: buttons to follow the host's next read or write,
//! where the request is now, the timeline of its stages as they happen and the bar of its
//! parts so far. Its content is made in [`crate::ui::pure::journey`]; this only draws it, and
//! the drive picture lights up the die, channel or box the request is at
//! ([`crate::ui::pure::journey::Highlight`]).
//!
//! What always holds:
//! - a direction the workload does not make cannot be followed (its button is disabled and
//!   says why), so the card never waits for a request that will not come;
//! - the timeline and bar change with the frames, but only the sentence that a request is
//!   done is spoken (a polite live region), never every frame;
//! - the parts bar is drawn for the eye only: the sentence under it names every part with its
//!   microseconds, for everyone.

use leptos::prelude::*;

use crate::ui::pure::anatomy;
use crate::ui::pure::format;
use crate::ui::pure::journey::Journey;
use crate::ui::views::anatomy::{legend_view, segments_view};

/// The card. `follow(write)` asks for the next read (or write); `reads` and `writes` say
/// whether the workload makes any.
#[component]
pub fn FollowOne(
    /// The journey of the request followed (`None`: none asked for).
    #[prop(into)]
    journey: Signal<Option<Journey>>,
    /// The player is ready to follow a request.
    #[prop(into)]
    ready: Signal<bool>,
    #[prop(into)] reads: Signal<bool>,
    #[prop(into)] writes: Signal<bool>,
    follow: Callback<bool>,
) -> impl IntoView {
    let now = move || journey.with(|j| j.as_ref().map(Journey::now_text));
    let spoken = move || {
        journey.with(|j| {
            j.as_ref()
                .filter(|j| j.done())
                .map(Journey::now_text)
                .unwrap_or_default()
        })
    };
    let timeline = move || {
        journey.with(|j| {
            j.as_ref().map(|j| {
                j.timeline()
                    .into_iter()
                    .map(|t| view! { <li>{t}</li> })
                    .collect_view()
            })
        })
    };
    view! {
        <section class="card follow-one" id="follow-one" aria-labelledby="follow-title">
            <h2 id="follow-title">"Follow one request"</h2>
            <p class="hint">
                "Pick the host's next read or write and watch its journey: the die, channel or box it is at lights up with a thick dashed outline, and each stage it passes is listed with when it began and ended."
            </p>
            <div class="follow-buttons" role="group" aria-label="Follow a request">
                <FollowButton id="follow-read" label="Follow the next read" write=false ready=ready makes=reads follow=follow />
                <FollowButton id="follow-write" label="Follow the next write" write=true ready=ready makes=writes follow=follow />
            </div>
            <p class="follow-now" id="follow-now">{now}</p>
            <ol class="follow-timeline" id="follow-timeline" aria-label="Its stages so far">
                {timeline}
            </ol>
            <PartsSoFar journey=journey />
            <p class="visually-hidden" id="follow-spoken" aria-live="polite">{spoken}</p>
        </section>
    }
}

/// One follow button, disabled (with its reason as its description) while the player is not
/// ready or when the workload makes none of its direction.
#[component]
fn FollowButton(
    id: &'static str,
    label: &'static str,
    write: bool,
    ready: Signal<bool>,
    makes: Signal<bool>,
    follow: Callback<bool>,
) -> impl IntoView {
    let why = move || {
        (!makes.get()).then(|| {
            let noun = if write { "writes" } else { "reads" };
            format!("This workload makes no {noun}.")
        })
    };
    view! {
        <button
            type="button"
            id=id
            prop:disabled=move || !ready.get() || !makes.get()
            title=why
            on:click=move |_| follow.run(write)
        >
            {label}
        </button>
    }
}

/// The bar of the parts charged so far (the whole latency once done), its legend, and the
/// parts in words (the bar's text, shown: a class reads it off the projector).
#[component]
fn PartsSoFar(journey: Signal<Option<Journey>>) -> impl IntoView {
    let bar = move || {
        journey.with(|j| {
            let j = j.as_ref()?;
            let (us, segments) = j.parts()?;
            let text = j.parts_text(&us, &segments);
            let colours = anatomy::colours(&segments);
            let cells = segments_view(segments);
            Some(view! {
                <div class="anatomy-row follow-parts" id="follow-parts">
                    <span class="anatomy-label" aria-hidden="true">"parts"</span>
                    <span class="anatomy-bar" aria-hidden="true">{cells}</span>
                    <span class="anatomy-value" aria-hidden="true">
                        {format::latency_us(f64::from(us.latency_us))}
                    </span>
                </div>
                <p class="follow-parts-text" id="follow-parts-text">{text}</p>
                {legend_view("follow-legend", colours)}
            })
        })
    };
    view! { {bar} }
}
