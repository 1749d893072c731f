//! The URL-state parser against arbitrary input (issue 7: "fuzz the URL-state parser ... every
//! input gives a value or a clear error"; issue 54: property tests that shrink). Links are typed
//! by hand and pasted from anywhere, so [`parse_query`] must take any text: random bytes, links
//! built from the lab's words, and real links with their characters replaced, cut or doubled.
//!
//! What each input must give: no panic; a state the page can show, whose own link reads back to
//! exactly that state with nothing to note; and for everything not applied, a note that names
//! a parameter and says why in a bounded sentence. `PROPTEST_CASES` sets a longer run.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../crates/model/tests/common/cases.rs"]
mod cases;

use proptest::prelude::*;
use proptest::sample::{select, Index};

use parallelism_lab::ui::pure::state::LabState;
use parallelism_lab::ui::pure::url_state::{parse_query, to_query};

use cases::config;

/// A note is one sentence about one parameter, however long the input.
const MAX_NOTE_CHARS: usize = 400;

/// Names and values the lab knows, and some it does not, to build plausible links from.
const NAMES: [&str; 27] = [
    "preset", "cap", "dies", "hold", "qd", "rw", "mix", "bs", "state", "p999", "theme", "view",
    "idle", "burst", "speed", "compare", "embed", "charts", "lock", "debug", "", "QD", "%71d",
    "preset[]", "drive", "tour", "hosts",
];
const VALUES: [&str; 34] = [
    "e12_d24_r52500",
    "e12_d999",
    "octane_d4_r70000_c900",
    "e18dc",
    "octane",
    "e12",
    "480",
    "1920",
    "0",
    "1",
    "-3",
    "1e9",
    "18446744073709551616",
    "NaN",
    "randwrite",
    "rw",
    "4k",
    "1m",
    "3k",
    "steady",
    "fob",
    "dark",
    "projector",
    "time",
    "activity",
    "qd,rw",
    "iops,pie",
    "e18dc.8.randread.4k.steady",
    "%FF%FE",
    "<img src=x>",
    "\u{1F4BE}",
    "https://Blog.Example/",
    "none",
    "http://127.0.0.1:8080,blog.example",
];

/// A query built from the vocabulary, with stray separators.
fn plausible() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            0u8..10,
            select(NAMES.to_vec()),
            prop::option::weighted(0.875, select(VALUES.to_vec())),
        ),
        0..12,
    )
    .prop_map(|parts| {
        let mut q = String::new();
        for (sep, name, value) in parts {
            if !q.is_empty() || sep % 2 == 0 {
                q.push(if sep == 0 { ';' } else { '&' });
            }
            q.push_str(name);
            if let Some(v) = value {
                q.push('=');
                q.push_str(v);
            }
        }
        q
    })
}

/// One edit of a link: a character replaced, the text cut there, a character removed, or one
/// doubled.
fn damage(text: &str, edits: &[(Index, u8, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for (i, op, c) in edits {
        if chars.is_empty() {
            break;
        }
        let i = i.index(chars.len());
        match op % 4 {
            0 => chars[i] = *c,
            1 => chars.truncate(i),
            2 => {
                chars.remove(i);
            }
            _ => chars.insert(i, chars[i]),
        }
    }
    chars.into_iter().collect()
}

fn check(query: &str) -> Result<(), TestCaseError> {
    let parsed = parse_query(query, LabState::default());
    for note in &parsed.notes {
        prop_assert!(
            !note.message.trim().is_empty() && note.message.chars().count() <= MAX_NOTE_CHARS,
            "{:?}: a note must say why, briefly: {:?}",
            query,
            note
        );
    }
    let written = to_query(&parsed.state);
    let again = parse_query(&written, LabState::default());
    prop_assert!(
        again.notes.is_empty(),
        "{:?}: the page's own link {:?} must read back without notes: {:?}",
        query,
        written,
        again.notes
    );
    prop_assert_eq!(
        &again.state,
        &parsed.state,
        "{:?}: the page's own link {:?} must read back to the same view",
        query,
        written
    );
    prop_assert_eq!(to_query(&again.state), written, "links are stable");
    Ok(())
}

proptest! {
    #![proptest_config(config(4_000))]

    #[test]
    fn arbitrary_bytes_give_a_state_and_plain_notes_never_a_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..120)
    ) {
        check(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn links_built_from_the_labs_own_words_read_back_exactly(q in plausible()) {
        check(&q)?;
        check(&format!("?{q}"))?;
    }

    #[test]
    fn damaged_real_links_give_a_state_and_plain_notes(
        q in plausible(),
        edits in prop::collection::vec((any::<Index>(), any::<u8>(), any::<char>()), 1..7),
    ) {
        let real = to_query(&parse_query(&q, LabState::default()).state);
        check(&damage(&real, &edits))?;
    }
}
