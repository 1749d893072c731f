//! "How does this work?": a panel's link to the section of the guide that explains it. The
//! guide opens in a new tab, so the reader's lab stays as it is; its name for assistive
//! technology says which section, since every panel has one.

use leptos::prelude::*;

use crate::ui::pure::guide::GuidePage;

/// The link to `page`'s section of the guide.
#[component]
pub fn GuideLink(page: GuidePage) -> impl IntoView {
    view! {
        <a
            class="guide-link"
            href=page.href()
            target="_blank"
            rel="noopener"
            aria-label=format!("How does this work? {} (the guide, in a new tab)", page.what())
        >
            "How does this work?"
        </a>
    }
}
