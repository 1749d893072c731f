//! "How does this work?": a panel's link to the section of the guide that explains it. The
//! guide opens in a new tab, so the reader's lab stays as it is; its name for assistive
//! technology says which section, since every panel has one. An embedded lab shows none: its
//! frame keeps the height its author set, and its "Open in the full lab" leads to them.

use leptos::prelude::*;

use crate::ui::pure::guide::GuidePage;
use crate::ui::pure::state::Lab;

/// The link to `page`'s section of the guide (none in an embedded lab).
#[component]
pub fn GuideLink(page: GuidePage) -> impl IntoView {
    // A panel drawn from its props alone, as its tests mount it, has no lab around it: it is
    // not framed.
    let framed = use_context::<Lab>().is_some_and(|lab| lab.embedding.with_untracked(|e| e.framed));
    (!framed).then(|| {
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
    })
}
