//! The URL-state parser against arbitrary input (issue 7: "fuzz the URL-state parser ... every
//! input gives a value or a clear error"). Links are typed by hand and pasted from anywhere, so
//! [`parse_query`] must take any text: random bytes, and valid links with their characters
//! replaced, cut or doubled.
//!
//! What each input must give: no panic; a state the page can show, whose own link reads back to
//! exactly that state with nothing to note; and for everything not applied, a note that names
//! a parameter and says why in a bounded sentence.
#![cfg(not(target_arch = "wasm32"))]

use parallelism_lab::model::rng::Rng;
use parallelism_lab::ui::state::LabState;
use parallelism_lab::ui::url_state::{parse_query, to_query};

/// Inputs per kind (random bytes, built from the lab's vocabulary, mutated real links).
const CASES: usize = 4_000;
/// A note is one sentence about one parameter, however long the input.
const MAX_NOTE_CHARS: usize = 400;

/// Names and values the lab knows, and some it does not, to build plausible links from.
const NAMES: [&str; 24] = [
    "preset", "cap", "dies", "hold", "qd", "rw", "mix", "bs", "state", "p999", "theme", "view",
    "idle", "burst", "speed", "compare", "embed", "charts", "lock", "debug", "", "QD", "%71d",
    "preset[]",
];
const VALUES: [&str; 28] = [
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
];

fn pick<'a>(rng: &mut Rng, from: &[&'a str]) -> &'a str {
    from[rng.below(from.len() as u64) as usize]
}

/// A query built from the vocabulary, with stray separators.
fn plausible(rng: &mut Rng) -> String {
    let mut q = String::new();
    for _ in 0..rng.below(12) {
        if !q.is_empty() || rng.below(2) == 0 {
            q.push(if rng.below(10) == 0 { ';' } else { '&' });
        }
        q.push_str(pick(rng, &NAMES));
        if rng.below(8) > 0 {
            q.push('=');
            q.push_str(pick(rng, &VALUES));
        }
    }
    q
}

/// `text` with a few characters replaced, removed, cut off or duplicated.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..=rng.below(6) {
        if chars.is_empty() {
            break;
        }
        let i = rng.below(chars.len() as u64) as usize;
        match rng.below(4) {
            0 => chars[i] = char::from_u32(rng.below(0x3000) as u32).unwrap_or('?'),
            1 => chars.truncate(i),
            2 => {
                chars.remove(i);
            }
            _ => {
                let c = chars[i];
                chars.insert(i, c);
            }
        }
    }
    chars.into_iter().collect()
}

fn check(query: &str) {
    let parsed = parse_query(query, LabState::default());
    for note in &parsed.notes {
        assert!(
            !note.message.trim().is_empty() && note.message.chars().count() <= MAX_NOTE_CHARS,
            "{query:?}: a note must say why, briefly: {note:?}"
        );
    }
    let written = to_query(&parsed.state);
    let again = parse_query(&written, LabState::default());
    assert!(
        again.notes.is_empty(),
        "{query:?}: the page's own link {written:?} must read back without notes: {:?}",
        again.notes
    );
    assert_eq!(
        again.state, parsed.state,
        "{query:?}: the page's own link {written:?} must read back to the same view"
    );
    assert_eq!(
        to_query(&again.state),
        written,
        "{query:?}: links are stable"
    );
}

#[test]
fn arbitrary_bytes_give_a_state_and_plain_notes_never_a_panic() {
    let mut rng = Rng::new(17);
    for _ in 0..CASES {
        let bytes: Vec<u8> = (0..rng.below(120)).map(|_| rng.below(256) as u8).collect();
        check(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn links_built_from_the_labs_own_words_read_back_exactly() {
    let mut rng = Rng::new(23);
    for _ in 0..CASES {
        let q = plausible(&mut rng);
        check(&q);
        check(&format!("?{q}"));
    }
}

#[test]
fn damaged_real_links_give_a_state_and_plain_notes() {
    let mut rng = Rng::new(29);
    for _ in 0..CASES {
        let real = to_query(&parse_query(&plausible(&mut rng), LabState::default()).state);
        check(&mutate(&mut rng, &real));
    }
}
