//! What the page keeps on the reader's device between visits: the imported fio files, and the
//! drive and pins of the last view, in the browser's own storage (`localStorage`). Nothing of it
//! is sent anywhere; **Forget my files** clears it.
//!
//! What always holds: a store that cannot be used (storage switched off, full, or holding data
//! another version of the page wrote) gives a [`StoreNote`] and the page works on with what it
//! has; nothing read back is trusted until it passes the same checks as a fresh import
//! ([`Imports::checked`], the link's own parser for the drive and pins).

use std::fmt;

use leptos::prelude::*;

use crate::ui::pure::state::Imports;

/// The key of the imported files (the version changes when their stored shape does).
const IMPORTS_KEY: &str = "parallelism-lab.imports.v1";
/// The key of the last view's drive and pins, as the link writes them (`drive=...&compare=...`).
const VIEW_KEY: &str = "parallelism-lab.view.v1";

/// Why the page could not keep or restore what the reader gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreNote {
    /// The browser offers no storage to this page (switched off, or a private window).
    Unavailable,
    /// The browser refused to store more (its quota for this site is full).
    Full,
    /// What was stored could not be read back (another version of the page wrote it).
    Unreadable,
}

impl fmt::Display for StoreNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StoreNote::Unavailable => {
                "This browser does not let the page keep your files: they stay until you close or reload the page."
            }
            StoreNote::Full => {
                "The browser's storage for this page is full: your files stay until you close or reload the page. Remove some files to keep the rest."
            }
            StoreNote::Unreadable => {
                "Files kept from an earlier visit could not be read back and were left out."
            }
        })
    }
}

fn storage() -> Result<web_sys::Storage, StoreNote> {
    web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .ok_or(StoreNote::Unavailable)
}

/// The imported files kept from an earlier visit (`Ok(None)`: none kept).
pub fn load_imports() -> Result<Option<Imports>, StoreNote> {
    let Some(text) = storage()?.get_item(IMPORTS_KEY).ok().flatten() else {
        return Ok(None);
    };
    serde_json::from_str::<Imports>(&text)
        .ok()
        .and_then(Imports::checked)
        .map(Some)
        .ok_or(StoreNote::Unreadable)
}

/// Keeps `imports` for the next visit (none: the kept files are dropped).
pub fn save_imports(imports: &Imports) -> Result<(), StoreNote> {
    let store = storage()?;
    if imports.is_empty() {
        let _ = store.remove_item(IMPORTS_KEY);
        return Ok(());
    }
    let text = serde_json::to_string(imports).map_err(|_| StoreNote::Unreadable)?;
    store
        .set_item(IMPORTS_KEY, &text)
        .map_err(|_| StoreNote::Full)
}

/// The last view's drive and pins, as a query (`drive=...&compare=...`; empty: none kept).
pub fn load_view() -> String {
    storage()
        .ok()
        .and_then(|s| s.get_item(VIEW_KEY).ok().flatten())
        .unwrap_or_default()
}

/// The drive and pins of a query (the page's own link query), as kept.
pub fn view_part(query: &str) -> String {
    let kept: Vec<&str> = query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| p.starts_with("drive=") || p.starts_with("compare="))
        .collect();
    kept.join("&")
}

/// Keeps `view` (see [`view_part`]) for a visit without a link.
pub fn save_view(view: &str) {
    if let Ok(store) = storage() {
        let _ = if view.is_empty() {
            store.remove_item(VIEW_KEY)
        } else {
            store.set_item(VIEW_KEY, view)
        };
    }
}

/// Forgets everything kept: the files and the last view.
pub fn forget() {
    if let Ok(store) = storage() {
        let _ = store.remove_item(IMPORTS_KEY);
        let _ = store.remove_item(VIEW_KEY);
    }
}

/// What the import panel shows of the browser's keeping, and whether the view is kept: the app
/// restores and saves, the panel shows the note and forgets.
#[derive(Clone, Copy, Debug)]
pub struct KeptNote {
    /// Why the page could not keep or restore, if it could not.
    pub note: RwSignal<Option<StoreNote>>,
    /// Whether the last view's drive and pins are kept (not after **Forget my files**, for the
    /// rest of the visit).
    pub keep_view: RwSignal<bool>,
}

impl KeptNote {
    /// A note for the app and its children, keeping the view.
    pub fn provide() -> KeptNote {
        let kept = KeptNote {
            note: RwSignal::new(None),
            keep_view: RwSignal::new(true),
        };
        provide_context(kept);
        kept
    }

    /// The app's note; a panel mounted alone (a test) gets one of its own.
    pub fn expect() -> KeptNote {
        use_context::<KeptNote>().unwrap_or_else(|| KeptNote {
            note: RwSignal::new(None),
            keep_view: RwSignal::new(false),
        })
    }
}
