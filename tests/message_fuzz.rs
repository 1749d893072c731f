//! The host page's messages against arbitrary input (issue 58: "anything malformed gets an
//! `error` message back naming what was wrong, and changes nothing"). A page that frames the lab
//! may send it anything, so [`read`] must take any text and [`check_set`] any parameters: random
//! bytes, and JSON objects built from the API's own words with values of every JSON kind.
//!
//! What each input must give: no panic; an error that says what was wrong in a bounded
//! sentence; or a request, and for a `set`, a state whose own link reads back to exactly that
//! state with nothing to note. `PROPTEST_CASES` sets a longer run.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../crates/model/tests/common/cases.rs"]
mod cases;

use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{json, Map, Value};

use parallelism_lab::ui::pure::host_api::{check_set, check_step, read, Request};
use parallelism_lab::ui::pure::state::LabState;
use parallelism_lab::ui::pure::url_state::{parse_query, to_query};

use cases::config;

/// An error is a sentence or a few, however long the message.
const MAX_ERROR_CHARS: usize = 2_000;

const TYPES: [&str; 8] = ["set", "step", "reveal", "play", "pause", "ready", "", "SET"];
const FIELDS: [&str; 8] = [
    "lab", "type", "state", "tour", "step", "option", "x", "State",
];
const PARAMS: [&str; 12] = [
    "preset", "cap", "qd", "rw", "bs", "mix", "state", "view", "theme", "embed", "colour", "",
];
const TEXTS: [&str; 12] = [
    "e18dc", "480", "32", "randread", "4k", "70", "steady", "activity", "neon", "p99", "",
    "%26qd=1",
];

/// A JSON value of any kind, small.
fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        select(TEXTS.to_vec()).prop_map(Value::from),
        Just(json!([1, "x"])),
        Just(json!({"qd": 32})),
    ]
}

/// A message built from the API's words: a version, a type, and fields of any kind.
fn message() -> impl Strategy<Value = String> {
    (
        prop::option::weighted(0.9, prop_oneof![Just(json!(1)), value()]),
        prop::option::weighted(
            0.9,
            prop_oneof![select(TYPES.to_vec()).prop_map(Value::from), value()],
        ),
        prop::collection::vec((select(FIELDS[2..].to_vec()), value()), 0..3),
        prop::collection::vec((select(PARAMS.to_vec()), value()), 0..6),
    )
        .prop_map(|(lab, kind, fields, state)| {
            let mut m = Map::new();
            if let Some(lab) = lab {
                m.insert("lab".into(), lab);
            }
            if let Some(kind) = kind {
                m.insert("type".into(), kind);
            }
            for (name, v) in fields {
                m.insert(name.into(), v);
            }
            if !state.is_empty() {
                let state: Map<String, Value> =
                    state.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
                m.insert("state".into(), Value::Object(state));
            }
            Value::Object(m).to_string()
        })
}

fn check(text: &str) -> Result<(), TestCaseError> {
    let lab = LabState::default();
    let said = match read(text) {
        Err(e) => e.to_string(),
        Ok(Request::Set { query }) => match check_set(&query, &lab) {
            Err(e) => e.to_string(),
            Ok(state) => {
                let link = to_query(&state);
                let again = parse_query(&link, LabState::default());
                prop_assert!(again.notes.is_empty(), "{text}: {link}: {:?}", again.notes);
                prop_assert_eq!(&again.state, &state, "{}: the set's state reads back", text);
                return Ok(());
            }
        },
        Ok(Request::Step(place)) => match check_step(&place) {
            Err(e) => e.to_string(),
            Ok(_) => return Ok(()),
        },
        Ok(_) => return Ok(()),
    };
    prop_assert!(
        !said.trim().is_empty() && said.chars().count() <= MAX_ERROR_CHARS,
        "{:?}: an error must say what was wrong, briefly: {:?}",
        text,
        said
    );
    Ok(())
}

proptest! {
    #![proptest_config(config(4_000))]

    #[test]
    fn arbitrary_bytes_give_a_request_or_an_error_never_a_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..200)
    ) {
        check(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn messages_built_from_the_apis_words_give_a_request_or_an_error(text in message()) {
        check(&text)?;
    }
}
