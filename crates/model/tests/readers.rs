//! Every reader of what people bring, against any input (issue 54): fio's output (JSON, JSON+,
//! normal, terse), fio job files, the four trace formats and `drive=` strings. Property tests
//! with `proptest`: random bytes, and real files with characters replaced, cut, removed or
//! doubled; a failure is shrunk to its fewest edits.
//!
//! What every input must give: no panic, and either what the reader documents (finite figures,
//! requests in time order, a drive the model runs) or an error that says where and why in a
//! bounded message. `PROPTEST_CASES` sets the cases for a longer run (`./dev.sh bench`).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::sync::Arc;

use proptest::prelude::*;
use proptest::sample::Index;

use parallelism_model::custom::{self, CustomDrive};
use parallelism_model::fio;
use parallelism_model::presets;
use parallelism_model::workload::jobfile;
use parallelism_model::workload::trace::{self, TraceFormat, TraceParser, MAX_PIECES};
use parallelism_model::workload::{Arrival, Stream, StreamsSpec};
use parallelism_model::{DriveState, RunOptions, Simulation};

use common::cases::config;

/// An error is one bounded message, however long or hostile the input.
const MAX_ERROR_CHARS: usize = 2_000;

macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/fio/local/",
            $name
        ))
    };
}

/// Real fio output of each format, written by fio 3.x on this project's machines.
const FIO_OUTPUTS: [&str; 8] = [
    fixture!("two-jobs.json"),
    fixture!("randrw-70-qd4.jsonplus.json"),
    fixture!("randread-qd8.normal.txt"),
    fixture!("numjobs4-clones.json-normal.txt"),
    fixture!("randread-qd8.terse-v2.txt"),
    fixture!("randread-qd8.terse-v3.txt"),
    fixture!("randread-qd8.terse-v5.txt"),
    fixture!("numjobs4-grouped.terse-v3.txt"),
];

/// Real job files.
const JOB_FILES: [&str; 5] = [
    fixture!("two-jobs.fio"),
    fixture!("rate-limited.fio"),
    fixture!("numjobs4-grouped.fio"),
    fixture!("numjobs4-clones.fio"),
    fixture!("seqread-128k-sweep.fio"),
];

/// A few lines of each trace format, as the README documents them.
const TRACES: [&str; 5] = [
    "4851300 1 524288 16 0\n4864300 1 524304 16 1\n4900000 1 8 4096 1\n",
    "  8,0    3        1     0.000000000  4162  Q   W 223490 + 8 [kjournald]\n\
     \x20 8,0    3        3     0.000010000  4162  D   W 223490 + 8 [kjournald]\n\
     \x20 8,0    1        4     0.001500000  1234  Q   R 1000 + 256 [cat]\n",
    "fio version 2 iolog\n/dev/sdb add\n/dev/sdb open\n/dev/sdb read 0 4096\n\
     /dev/sdb wait 500 0\n/dev/sdb write 8192 8192\n/dev/sdb close\n",
    "fio version 3 iolog\n26 /tmp/f add\n140 /tmp/f open\n144 /tmp/f read 249856 4096\n\
     858 /tmp/f write 3104768 4096\n22344 /tmp/f close\n",
    "128166372003061629,hm,1,Read,3154265088,4096,1285\n\
     128166372016382155,hm,1,Write,3154354176,65536,1443\n",
];

/// One edit of a text: a character replaced, the text cut there, a character removed, or one
/// doubled.
#[derive(Clone, Debug)]
enum Edit {
    Replace(Index, char),
    Cut(Index),
    Remove(Index),
    Double(Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<Index>(), any::<char>()).prop_map(|(i, c)| Edit::Replace(i, c)),
        any::<Index>().prop_map(Edit::Cut),
        any::<Index>().prop_map(Edit::Remove),
        any::<Index>().prop_map(Edit::Double),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        if chars.is_empty() {
            break;
        }
        match e {
            Edit::Replace(i, c) => {
                let at = i.index(chars.len());
                chars[at] = *c;
            }
            Edit::Cut(i) => chars.truncate(i.index(chars.len())),
            Edit::Remove(i) => {
                chars.remove(i.index(chars.len()));
            }
            Edit::Double(i) => {
                let at = i.index(chars.len());
                chars.insert(at, chars[at]);
            }
        }
    }
    chars.into_iter().collect()
}

/// One of `texts` with up to eight edits, or arbitrary bytes read as text.
fn damaged(texts: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (0..texts.len(), prop::collection::vec(edit(), 0..8))
            .prop_map(move |(i, edits)| apply(texts[i], &edits)),
        1 => prop::collection::vec(any::<u8>(), 0..400)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

fn bounded(message: &str) -> Result<(), TestCaseError> {
    prop_assert!(!message.trim().is_empty(), "an error must say why");
    prop_assert!(
        message.chars().count() <= MAX_ERROR_CHARS,
        "an error of {} characters",
        message.chars().count()
    );
    Ok(())
}

proptest! {
    #![proptest_config(config(1_000))]

    #[test]
    fn fio_output_in_any_state_gives_finite_points_or_says_why(text in damaged(&FIO_OUTPUTS)) {
        match fio::parse_output(&text) {
            Ok(out) => {
                for p in &out.points {
                    let figures = [p.iops, p.bw_mb_s, p.lat_mean_us, p.read_percent];
                    prop_assert!(
                        figures.iter().all(|v| v.is_finite() && *v >= 0.0),
                        "{}: {figures:?}", p.job
                    );
                    prop_assert!(p.iodepth >= 1 && p.processes >= 1);
                    prop_assert!(p.lat_p99_us.is_none_or(f64::is_finite));
                }
            }
            Err(e) => bounded(&e.to_string())?,
        }
    }

    #[test]
    fn a_job_file_in_any_state_gives_runnable_jobs_or_says_where(text in damaged(&JOB_FILES)) {
        match jobfile::parse(&text) {
            Ok(file) => {
                let drive = presets::find("e12").unwrap().default_drive();
                for group in &file.groups {
                    prop_assert!(!group.jobs.is_empty());
                    // The model either runs a group or refuses it with a reason: a job file's
                    // values reach the engine only through the checked run.
                    let options = RunOptions { measured_ios: 200, ..RunOptions::default() };
                    match group.spec(&drive, DriveState::Fob, options).check() {
                        Ok(run) => {
                            let mut sim = Simulation::new(&run);
                            sim.step(3_000);
                            prop_assert!(sim.result().is_ok(), "{:?}", sim.result());
                        }
                        Err(e) => bounded(&e.to_string())?,
                    }
                }
            }
            Err(e) => bounded(&e.to_string())?,
        }
    }

    #[test]
    fn a_trace_in_any_state_gives_requests_in_time_order_or_says_where(text in damaged(&TRACES)) {
        match trace::read(text.as_bytes(), None) {
            Ok(t) => {
                prop_assert!(!t.requests.is_empty());
                prop_assert_eq!(t.requests[0].at_ns, 0);
                prop_assert!(t.requests.windows(2).all(|w| w[0].at_ns <= w[1].at_ns));
                prop_assert!(t.requests.iter().all(|r| (1..=256).contains(&r.units)));
                prop_assert!(t.requests.iter().all(|r| u64::from(r.start_unit) + u64::from(r.units) <= 1 << 32));
                // Read a few lines a step, the trace is the trace read at once.
                let mut p = TraceParser::new(text.clone(), None);
                let sliced = loop {
                    if let Some(t) = p.step(3) {
                        break t;
                    }
                };
                prop_assert_eq!(sliced.as_ref(), Ok(&t));
            }
            Err(e) => bounded(&e.to_string())?,
        }
    }

    #[test]
    fn any_request_of_a_trace_is_replayed_on_any_drive_or_refused_by_its_line(
        requests in prop::collection::vec(
            (0u64..1 << 40, 0u64..1 << 36, 0u64..1 << 20, any::<bool>()),
            1..12,
        ),
        dies in 1u32..64,
    ) {
        // MQSim lines: arrival (ns), device, start sector, sectors, 0 write / 1 read.
        let text: String = requests
            .iter()
            .map(|(at, sector, sectors, write)| format!("{at} 1 {sector} {sectors} {}\n", u8::from(!write)))
            .collect();
        let drive = presets::find("e12").unwrap().drive_with_dies(dies).unwrap();
        match trace::read(text.as_bytes(), Some(TraceFormat::Mqsim)) {
            Ok(t) => {
                let pieces: u64 = requests
                    .iter()
                    .filter(|r| r.2 > 0)
                    .map(|(_, sector, sectors, _)| {
                        let (start, end) = (sector * 512 / 4096, (sector + sectors) * 512);
                        end.div_ceil(4096) - start
                    })
                    .map(|units| units.div_ceil(256))
                    .sum();
                prop_assert_eq!(t.requests.len() as u64, pieces);
                prop_assert!(pieces <= requests.len() as u64 * MAX_PIECES);
                let adjusted = t.adjusted(drive.user_bytes() as u64);
                prop_assert_eq!(adjusted.zero_length, requests.iter().filter(|r| r.2 == 0).count() as u64);
                prop_assert!(adjusted.wrapped <= t.requests.len() as u64);
                let spec = StreamsSpec {
                    drive,
                    streams: vec![Stream::replay(Arc::new(t), Arrival::Closed { iodepth: 4 })],
                    state: DriveState::Fob,
                    options: RunOptions::default(),
                };
                let r = Simulation::run(&spec.check().unwrap());
                prop_assert!(r.is_ok(), "{r:?}");
            }
            Err(e) => {
                let e = e.to_string();
                prop_assert!(
                    e.contains("larger than 256 MiB")
                        || e.contains("past 16 TiB")
                        || e.contains("no reads or writes of any bytes"),
                    "{e}"
                );
            }
        }
    }

    #[test]
    fn a_drive_text_in_any_state_is_a_drive_that_runs_or_says_why(
        text in prop_oneof![
            (0..4usize, prop::collection::vec(edit(), 0..6)).prop_map(|(i, edits)| {
                let texts = ["e12_d24_r52500", "e18dc_d8", "octane_d4_r70000_c900", "e12_d16_r50000_c1200"];
                apply(texts[i], &edits)
            }),
            "[a-z0-9_.]{0,40}",
            any::<String>(),
        ]
    ) {
        match custom::lookup(&text) {
            Ok(preset) => {
                let drive = preset.default_drive();
                prop_assert!(drive.check().is_ok(), "{text:?}");
                if let Ok(d) = text.parse::<CustomDrive>() {
                    // A drive's text reads back to the same drive.
                    prop_assert_eq!(d.to_string().parse::<CustomDrive>(), Ok(d));
                }
            }
            Err(e) => bounded(&e.to_string())?,
        }
    }
}
