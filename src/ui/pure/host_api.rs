//! The messages between an embedded lab and the page that frames it (the *host*): what the
//! host may ask ([`read`] turns a message into a [`Request`] or a [`MessageError`]) and what
//! the lab tells it ([`Told`], written by [`Told::text`]). Version [`VERSION`]; the guide's
//! "Embedding" chapter lists every message with its fields and an example.
//!
//! Every message is a JSON object (sent as text or as an object) with `"lab": 1` and a `type`:
//! - the host sends `set` (`state`: the link's parameters, as a tour step reads them),
//!   `step` (`tour`, `step`: a place in a tour), `reveal` (a question's answer, with the
//!   reader's `option` if the article asked it), `play` and `pause` (teaching mode);
//! - the lab sends `ready`, `state` (after every change, `by` the reader or the host), `result`
//!   (the current point's figures, estimated and then final), `answer` (a prediction made and
//!   revealed), `error` (what was wrong with a message) and, as before this API, the height as
//!   `{"context": "iframe.resize", "height": H}`.
//!
//! What always holds: a message is read whole before anything changes, so a malformed one (not
//! JSON, too long, not an object, another version, an unknown type or field, a value a link
//! would not take) changes nothing and yields an error that names what was wrong; a `set` is
//! checked by the link's own reader ([`crate::ui::pure::tours::read_state`]), so a host can put
//! the lab only where its controls and links could; and the parameters the frame's address
//! fixes (`embed`, `hosts`) and the tour's place (`tour`, `step`) are not a `set`'s to change.
//! Who is heard, and where the lab posts, is [`crate::ui::pure::embed::Hosts`]'s (`hosts=`).

use std::fmt;

use serde_json::{json, Map, Value};

use crate::ui::pure::state::LabState;
use crate::ui::pure::tours::{self, TourIndex};
use crate::ui::pure::url_state::{self, Note, TourPlace};
use parallelism_work::Point;

/// The API's version: the `lab` field of every message.
pub const VERSION: u64 = 1;
/// Longest message read, in bytes of its JSON text (a `set` of every parameter is under 2 KB).
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;
/// The parameters a `set` may not name: the frame's address fixes them, or a `step` moves them.
const NOT_SET: [&str; 5] = ["embed", "hosts", "tour", "step", "debug"];

/// What the host asks of the lab.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Set the lab as a link's query sets a tour step (`state` as a query, encoded).
    Set { query: String },
    /// Move to a place in a tour.
    Step(TourPlace),
    /// Show the current question's answer, committing the reader's option (counted from 1)
    /// if the host gives one.
    Reveal { option: Option<usize> },
    /// Play teaching mode's animation.
    Play,
    /// Pause it.
    Pause,
}

impl Request {
    /// The message type that asks for it.
    pub fn kind(&self) -> Kind {
        match self {
            Request::Set { .. } => Kind::Set,
            Request::Step(_) => Kind::Step,
            Request::Reveal { .. } => Kind::Reveal,
            Request::Play => Kind::Play,
            Request::Pause => Kind::Pause,
        }
    }
}

/// A message's `type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Set,
    Step,
    Reveal,
    Play,
    Pause,
}

crate::model::named_enum!(Kind, "message type", id, {
    Set => "set",
    Step => "step",
    Reveal => "reveal",
    Play => "play",
    Pause => "pause",
});

impl Kind {
    /// The fields a message of this type may carry besides `lab` and `type`.
    fn fields(self) -> &'static [&'static str] {
        match self {
            Kind::Set => &["state"],
            Kind::Step => &["tour", "step"],
            Kind::Reveal => &["option"],
            Kind::Play | Kind::Pause => &[],
        }
    }
}

/// Why a message was not taken: each is answered with an `error` message.
#[derive(Clone, Debug, PartialEq)]
pub enum MessageError {
    /// Longer than [`MAX_MESSAGE_BYTES`].
    TooLong { bytes: usize },
    /// Not JSON text (or an object the browser could not write as JSON).
    NotJson { why: String },
    /// JSON, but not an object.
    NotObject,
    /// No `lab` field, or another version than [`VERSION`].
    Version { got: Option<String> },
    /// No `type`, or not a string.
    NoType,
    /// A `type` the API does not have.
    UnknownType { got: String },
    /// A field the message's type does not have.
    UnknownField { kind: Kind, field: String },
    /// A field missing or of the wrong kind.
    Field {
        kind: Kind,
        field: &'static str,
        why: String,
    },
    /// A `set` whose parameters the link's reader refused (each note names one).
    Values { notes: Vec<Note> },
    /// A well-formed request the lab cannot do now (why in words).
    Refused { kind: Kind, why: String },
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageError::TooLong { bytes } => write!(
                f,
                "the message is {bytes} bytes; the lab reads at most {MAX_MESSAGE_BYTES}"
            ),
            MessageError::NotJson { why } => write!(f, "the message is not JSON: {why}"),
            MessageError::NotObject => write!(f, "the message is not a JSON object"),
            MessageError::Version { got: None } => {
                write!(
                    f,
                    "the message has no \"lab\" version (this lab speaks {VERSION})"
                )
            }
            MessageError::Version { got: Some(v) } => {
                write!(f, "\"lab\" is {v}; this lab speaks version {VERSION}")
            }
            MessageError::NoType => write!(
                f,
                "the message has no \"type\" string (one of: {})",
                Kind::ALL.map(Kind::id).join(", ")
            ),
            MessageError::UnknownType { got } => write!(
                f,
                "no message type '{}' (one of: {})",
                url_state::quote(got),
                Kind::ALL.map(Kind::id).join(", ")
            ),
            MessageError::UnknownField { kind, field } => {
                let has = ["lab", "type"]
                    .into_iter()
                    .chain(kind.fields().iter().copied())
                    .collect::<Vec<_>>()
                    .join(", ");
                write!(
                    f,
                    "a {kind} message has no field '{}' (its fields: {has})",
                    url_state::quote(field)
                )
            }
            MessageError::Field { kind, field, why } => write!(f, "{kind}: \"{field}\" {why}"),
            MessageError::Values { notes } => {
                let each: Vec<String> = notes
                    .iter()
                    .map(|n| format!("{}: {}", n.param, n.message))
                    .collect();
                write!(f, "set: nothing changed; {}", each.join("; "))
            }
            MessageError::Refused { kind, why } => write!(f, "{kind}: {why}"),
        }
    }
}

impl std::error::Error for MessageError {}

/// Reads a message's JSON text into a request, checking its shape and the form of each field
/// (the values of a `set` are checked against the lab by [`check_set`], a step by
/// [`check_step`]).
pub fn read(text: &str) -> Result<Request, MessageError> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(MessageError::TooLong { bytes: text.len() });
    }
    let value: Value =
        serde_json::from_str(text).map_err(|e| MessageError::NotJson { why: e.to_string() })?;
    let Value::Object(message) = value else {
        return Err(MessageError::NotObject);
    };
    match message.get("lab") {
        Some(v) if v.as_u64() == Some(VERSION) => {}
        Some(v) => {
            return Err(MessageError::Version {
                got: Some(url_state::quote(&v.to_string())),
            })
        }
        None => return Err(MessageError::Version { got: None }),
    }
    let kind = match message.get("type") {
        Some(Value::String(t)) => t
            .parse::<Kind>()
            .map_err(|_| MessageError::UnknownType { got: t.clone() })?,
        _ => return Err(MessageError::NoType),
    };
    if let Some(field) = message
        .keys()
        .find(|k| !["lab", "type"].contains(&k.as_str()) && !kind.fields().contains(&k.as_str()))
    {
        return Err(MessageError::UnknownField {
            kind,
            field: field.clone(),
        });
    }
    match kind {
        Kind::Set => read_set(&message),
        Kind::Step => read_step(&message),
        Kind::Reveal => Ok(Request::Reveal {
            option: optional_count(&message, kind, "option")?,
        }),
        Kind::Play => Ok(Request::Play),
        Kind::Pause => Ok(Request::Pause),
    }
}

/// `set`: `state`, an object of the link's parameters, each a string, a number or a boolean.
fn read_set(message: &Map<String, Value>) -> Result<Request, MessageError> {
    let field = |why: &str| MessageError::Field {
        kind: Kind::Set,
        field: "state",
        why: why.to_string(),
    };
    let Some(Value::Object(state)) = message.get("state") else {
        return Err(field(
            "must be an object of the link's parameters, e.g. {\"qd\": 32}",
        ));
    };
    let mut pairs = Vec::with_capacity(state.len());
    for (name, value) in state {
        if NOT_SET.contains(&name.as_str()) {
            return Err(field(&format!(
                "may not name '{name}' (the frame's address sets embed and hosts; a step message moves the tour)"
            )));
        }
        let text = match value {
            Value::String(s) => s.clone(),
            Value::Number(n) if n.as_f64().is_some_and(f64::is_finite) => n.to_string(),
            Value::Bool(b) => if *b { "1" } else { "0" }.to_string(),
            _ => {
                return Err(field(&format!(
                    "'{}' must be a string, a number or true/false",
                    url_state::quote(name)
                )))
            }
        };
        pairs.push(format!(
            "{}={}",
            url_state::encode_component(name),
            url_state::encode_component(&text)
        ));
    }
    Ok(Request::Set {
        query: pairs.join("&"),
    })
}

/// `step`: `tour` (an id, or a tour file's path beside the lab) and `step` (from 1).
fn read_step(message: &Map<String, Value>) -> Result<Request, MessageError> {
    let Some(Value::String(tour)) = message.get("tour") else {
        return Err(MessageError::Field {
            kind: Kind::Step,
            field: "tour",
            why: "must be a tour's id, e.g. \"predict-capacity\"".into(),
        });
    };
    let step = optional_count(message, Kind::Step, "step")?.ok_or(MessageError::Field {
        kind: Kind::Step,
        field: "step",
        why: "is missing (a step number, 1 for the first)".into(),
    })?;
    Ok(Request::Step(TourPlace {
        tour: tour.clone(),
        step,
    }))
}

/// A field that counts from 1, if present.
fn optional_count(
    message: &Map<String, Value>,
    kind: Kind,
    field: &'static str,
) -> Result<Option<usize>, MessageError> {
    match message.get(field) {
        None => Ok(None),
        Some(v) => match v.as_u64().and_then(|n| usize::try_from(n).ok()) {
            Some(n) if n >= 1 => Ok(Some(n)),
            _ => Err(MessageError::Field {
                kind,
                field,
                why: format!(
                    "must be a whole number from 1, not {}",
                    url_state::quote(&v.to_string())
                ),
            }),
        },
    }
}

/// The state a `set` of `query` gives `lab`, or every reason it gives none (then nothing is
/// to change).
pub fn check_set(query: &str, lab: &LabState) -> Result<LabState, MessageError> {
    let read = tours::read_state(query, lab);
    if read.notes.is_empty() {
        Ok(read.state)
    } else {
        Err(MessageError::Values { notes: read.notes })
    }
}

/// Where a `step` goes.
#[derive(Clone, Debug, PartialEq)]
pub enum StepTo {
    /// A built-in tour's step.
    BuiltIn(TourIndex),
    /// A tour file hosted beside the lab, fetched before its step is known to exist.
    Hosted(TourPlace),
}

/// The place `place` names, or why there is none.
pub fn check_step(place: &TourPlace) -> Result<StepTo, MessageError> {
    let refuse = |why: String| MessageError::Field {
        kind: Kind::Step,
        field: if why.starts_with("the tour") {
            "step"
        } else {
            "tour"
        },
        why,
    };
    if let Some((t, tour)) = tours::find(&place.tour) {
        let count = tour.steps.len();
        return if place.step <= count {
            Ok(StepTo::BuiltIn((t, place.step - 1)))
        } else {
            Err(refuse(format!("the tour '{}' has {count} steps", tour.id)))
        };
    }
    if tours::is_hosted_path(&place.tour) {
        return Ok(StepTo::Hosted(place.clone()));
    }
    let ids: Vec<&str> = tours::built_in().iter().map(|t| t.id.as_str()).collect();
    Err(refuse(format!(
        "names no tour: '{}' (the tours: {}; or a tour file's path beside the lab, ending .json)",
        url_state::quote(&place.tour),
        ids.join(", ")
    )))
}

/// Who made a change of state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// The reader, with the lab's own controls.
    Reader,
    /// The host, with a message.
    Host,
}

crate::model::named_enum!(By, "changer", id, {
    Reader => "reader",
    Host => "host",
});

/// A prediction made at a question step and revealed.
#[derive(Clone, Debug, PartialEq)]
pub struct Answered {
    pub tour: String,
    /// From 1.
    pub step: usize,
    /// The option committed to, from 1 (none: revealed without one, or a drawn guess).
    pub option: Option<usize>,
    /// The model's answer among the options, from 1.
    pub answer: Option<usize>,
    /// The guess drawn: (queue depth, value), for a question answered by drawing.
    pub guess: Vec<(u32, f64)>,
}

/// What the lab tells the host.
#[derive(Clone, Debug, PartialEq)]
pub enum Told<'a> {
    /// The lab listens; its state as a link's query.
    Ready { query: &'a str },
    /// The state changed.
    State { query: &'a str, by: By },
    /// The current point's figures: estimated first, then `final`.
    Result {
        query: &'a str,
        point: &'a Point,
        summary: &'a str,
    },
    /// A prediction was made and its answer shown.
    Answer(&'a Answered),
    /// A message was not taken.
    Error {
        error: &'a MessageError,
        kind: Option<Kind>,
    },
}

impl Told<'_> {
    /// The message as JSON text.
    pub fn text(&self) -> String {
        let (kind, fields) = match self {
            Told::Ready { query } => ("ready", state_fields(query)),
            Told::State { query, by } => {
                let mut m = state_fields(query);
                m.insert("by".into(), json!(by.id()));
                ("state", m)
            }
            Told::Result {
                query,
                point,
                summary,
            } => ("result", result_fields(query, point, summary)),
            Told::Answer(a) => ("answer", answer_fields(a)),
            Told::Error { error, kind } => {
                let mut m = Map::new();
                m.insert("error".into(), json!(error.to_string()));
                m.insert("about".into(), json!(kind.map(Kind::id)));
                ("error", m)
            }
        };
        let mut message = Map::new();
        message.insert("lab".into(), json!(VERSION));
        message.insert("type".into(), json!(kind));
        message.extend(fields);
        Value::Object(message).to_string()
    }
}

/// `query` (the link's query) and `state` (its parameters as an object, as a `set` takes them).
fn state_fields(query: &str) -> Map<String, Value> {
    let state: Map<String, Value> = url_state::params(query)
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    let mut m = Map::new();
    m.insert("query".into(), json!(query));
    m.insert("state".into(), Value::Object(state));
    m
}

fn result_fields(query: &str, p: &Point, summary: &str) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("query".into(), json!(query));
    m.insert(
        "final".into(),
        json!(p.fidelity == parallelism_work::Fidelity::Full),
    );
    m.insert("iops".into(), json!(p.iops));
    m.insert("mb_s".into(), json!(p.mb_s));
    m.insert("mean_us".into(), json!(p.mean_us));
    m.insert("p99_us".into(), json!(p.p99_us));
    m.insert("p999_us".into(), json!(p.p999_us));
    m.insert("watts".into(), json!(p.watts));
    m.insert("limit".into(), json!(p.bottleneck.id()));
    m.insert("limited_by".into(), json!(p.bottleneck.label()));
    m.insert("summary".into(), json!(summary));
    m
}

fn answer_fields(a: &Answered) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("tour".into(), json!(a.tour));
    m.insert("step".into(), json!(a.step));
    m.insert("option".into(), json!(a.option));
    m.insert("answer".into(), json!(a.answer));
    m.insert(
        "matched".into(),
        json!(a.option.zip(a.answer).map(|(o, x)| o == x)),
    );
    let guess: Vec<Value> = a.guess.iter().map(|(d, v)| json!([d, v])).collect();
    m.insert("guess".into(), Value::Array(guess));
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(text: &str) -> String {
        read(text).unwrap_err().to_string()
    }

    #[test]
    fn a_set_carries_the_links_parameters_encoded_as_a_link_does() {
        let r = read(
            r#"{"lab":1,"type":"set","state":{"preset":"e18dc","cap":480,"qd":32,"p999":true}}"#,
        );
        assert_eq!(
            r,
            Ok(Request::Set {
                query: "cap=480&p999=1&preset=e18dc&qd=32".into()
            }),
            "in name order (a link's meaning does not hang on its order)"
        );
        let Ok(Request::Set { query }) = read(r#"{"lab":1,"type":"set","state":{"rw":"a&b=c"}}"#)
        else {
            panic!("a set")
        };
        assert_eq!(
            query, "rw=a%26b%3Dc",
            "a value cannot smuggle in another parameter"
        );
    }

    #[test]
    fn a_set_is_checked_by_the_links_reader_and_changes_nothing_when_a_value_is_bad() {
        let lab = LabState::default();
        let Ok(Request::Set { query }) = read(r#"{"lab":1,"type":"set","state":{"qd":32}}"#) else {
            panic!("a set")
        };
        let set = check_set(&query, &lab).unwrap();
        assert_eq!(set.workload.iodepth(), 32);
        let Ok(Request::Set { query }) =
            read(r#"{"lab":1,"type":"set","state":{"qd":32,"bs":"huge"}}"#)
        else {
            panic!("a set")
        };
        let e = check_set(&query, &lab).unwrap_err();
        assert!(
            e.to_string().starts_with("set: nothing changed; bs: "),
            "{e}"
        );
        assert_eq!(
            check_set("qd=0", &lab).unwrap_err().to_string(),
            "set: nothing changed; qd: 0 is outside 1 to 1024",
            "the guide's example of an error"
        );
        let e = check_set("colour=red", &lab).unwrap_err().to_string();
        assert!(e.contains("colour: unknown parameter"), "{e}");
    }

    #[test]
    fn every_malformed_message_names_what_was_wrong() {
        let cases = [
            ("", "not JSON"),
            ("{", "not JSON"),
            ("[1,2]", "not a JSON object"),
            ("\"set\"", "not a JSON object"),
            (r#"{"type":"set"}"#, "no \"lab\" version"),
            (r#"{"lab":2,"type":"set"}"#, "\"lab\" is 2"),
            (r#"{"lab":"1","type":"play"}"#, "\"lab\" is \"1\""),
            (r#"{"lab":1}"#, "no \"type\""),
            (r#"{"lab":1,"type":7}"#, "no \"type\""),
            (r#"{"lab":1,"type":"jump"}"#, "no message type 'jump'"),
            (
                r#"{"lab":1,"type":"play","speed":2}"#,
                "a play message has no field 'speed'",
            ),
            (
                r#"{"lab":1,"type":"set"}"#,
                "set: \"state\" must be an object",
            ),
            (r#"{"lab":1,"type":"set","state":[1]}"#, "must be an object"),
            (
                r#"{"lab":1,"type":"set","state":{"qd":null}}"#,
                "'qd' must be a string",
            ),
            (
                r#"{"lab":1,"type":"set","state":{"embed":0}}"#,
                "may not name 'embed'",
            ),
            (
                r#"{"lab":1,"type":"set","state":{"hosts":"*"}}"#,
                "may not name 'hosts'",
            ),
            (
                r#"{"lab":1,"type":"step","step":1}"#,
                "step: \"tour\" must be",
            ),
            (
                r#"{"lab":1,"type":"step","tour":"x"}"#,
                "step: \"step\" is missing",
            ),
            (
                r#"{"lab":1,"type":"step","tour":"x","step":0}"#,
                "from 1, not 0",
            ),
            (
                r#"{"lab":1,"type":"step","tour":"x","step":1.5}"#,
                "from 1, not 1.5",
            ),
            (
                r#"{"lab":1,"type":"reveal","option":-1}"#,
                "reveal: \"option\" must be",
            ),
        ];
        for (text, says) in cases {
            let e = error_of(text);
            assert!(e.contains(says), "{text}: {e}");
        }
        let long = format!(
            r#"{{"lab":1,"type":"play","x":"{}"}}"#,
            "a".repeat(MAX_MESSAGE_BYTES)
        );
        assert!(error_of(&long).contains("at most 16384"));
    }

    #[test]
    fn a_step_names_a_built_in_tours_step_or_a_hosted_tour_file() {
        let tour = &tours::built_in()[0];
        let count = tour.steps.len();
        let place = |step| TourPlace {
            tour: tour.id.clone(),
            step,
        };
        assert_eq!(
            check_step(&place(count)),
            Ok(StepTo::BuiltIn((0, count - 1)))
        );
        let e = check_step(&place(count + 1)).unwrap_err().to_string();
        assert_eq!(
            e,
            format!("step: \"step\" the tour '{}' has {count} steps", tour.id)
        );
        let hosted = TourPlace {
            tour: "tours/class.json".into(),
            step: 2,
        };
        assert_eq!(check_step(&hosted), Ok(StepTo::Hosted(hosted.clone())));
        let e = check_step(&TourPlace {
            tour: "https://evil.example/t.json".into(),
            step: 1,
        })
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("step: \"tour\" names no tour"), "{e}");
    }

    #[test]
    fn the_lab_tells_its_state_as_a_query_and_as_the_object_a_set_takes() {
        let told = Told::State {
            query: "preset=e18dc&cap=480&qd=32",
            by: By::Host,
        }
        .text();
        let v: Value = serde_json::from_str(&told).unwrap();
        assert_eq!(v["lab"], json!(1));
        assert_eq!(v["type"], json!("state"));
        assert_eq!(v["by"], json!("host"));
        assert_eq!(
            v["state"],
            json!({"preset": "e18dc", "cap": "480", "qd": "32"})
        );
        let set = format!(r#"{{"lab":1,"type":"set","state":{}}}"#, v["state"]);
        assert_eq!(
            read(&set),
            Ok(Request::Set {
                query: "cap=480&preset=e18dc&qd=32".into()
            }),
            "what the lab tells, a host can send back"
        );
    }

    #[test]
    fn the_guide_quotes_what_the_lab_sends_as_it_sends_it() {
        let guide = include_str!("../../../guide/src/embedding.md");
        let lab = |query| tours::open_link(query).state;
        let ready = url_state::to_query(&lab("preset=e18dc&cap=480&qd=1&embed=1&charts=iops"));
        let moved = url_state::to_query(&lab("preset=e18dc&cap=1920&qd=256&embed=1&charts=iops"));
        for told in [
            Told::Ready { query: &ready },
            Told::State {
                query: &moved,
                by: By::Host,
            },
        ] {
            let text = told.text();
            assert!(guide.contains(&text), "the guide's example: {text}");
        }
    }

    #[test]
    fn an_answer_says_whether_the_option_matched_and_an_error_what_it_was_about() {
        let a = Answered {
            tour: "p99".into(),
            step: 2,
            option: Some(3),
            answer: Some(3),
            guess: Vec::new(),
        };
        let v: Value = serde_json::from_str(&Told::Answer(&a).text()).unwrap();
        assert_eq!(v["matched"], json!(true));
        assert_eq!(v["option"], json!(3));
        let drawn = Answered {
            option: None,
            answer: None,
            guess: vec![(1, 10.0), (2, 20.0)],
            ..a
        };
        let v: Value = serde_json::from_str(&Told::Answer(&drawn).text()).unwrap();
        assert_eq!(v["matched"], Value::Null);
        assert_eq!(v["guess"], json!([[1, 10.0], [2, 20.0]]));
        let e = MessageError::NoType;
        let v: Value = serde_json::from_str(
            &Told::Error {
                error: &e,
                kind: None,
            }
            .text(),
        )
        .unwrap();
        assert_eq!(v["type"], json!("error"));
        assert!(v["error"].as_str().unwrap().contains("no \"type\""));
    }
}
