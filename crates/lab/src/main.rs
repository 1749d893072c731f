//! `lab`: the command-line twin of the browser lab. It prints the same figures the page plots,
//! from the same model, so anything on screen can be reproduced, scripted and diffed.
//!
//! The binary owns the command line and the printing, nothing else: every figure comes from
//! `parallelism_model`; the guided tours and the links their steps are written in come from the
//! page's own reader (`parallelism_lab`'s pure layer, without its `app` feature) and run by the
//! page's run keys (`parallelism_work`), so `lab quiz` asks what the page asks; it builds without
//! the page's browser stack. The command line is one clap definition (`cli.rs`) from which the
//! parser, the help and the errors all follow; values are read by the model's own parsers, and
//! the limits the model checks when it runs stay in the model.
//!
//! The other modules print one family of commands each (`points`: sweeps and fio; `drives`:
//! presets and spec sheets; `fitting`: calibrate and fit; `drive_time`: fill, burst, torture;
//! `idle`: QD1 latency after idle time; `jobs`: fio job files run; `replay`: block traces; `review`: a review's test suite;
//! `validate`: the scorecard of every published figure; `quiz`: the tours' questions and
//! `lab tour`; `bench`); each asks the model and formats what it returns, nothing more.
//!
//! Every bad argument ends in a one-line message on stderr and exit status 2; nothing panics.
//! clap's errors are re-worded here to that one line, in the words `lab` used before clap, so
//! scripts and tests that read them keep working.

mod anatomy;
mod bench;
mod cli;
mod drives;
mod fitting;
mod idle;
mod jobs;
mod over_time;
mod points;
mod quiz;
mod replay;
mod review;
mod validate;

use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::Parser as _;
use parallelism_model::workload::FileError;
use parallelism_model::{ConfigError, RunError};

use cli::{Cli, Command};

/// Why a command failed, as data until `main` prints it (`lab: …`, exit status 2): the model's
/// own errors as they are, the file or option they concern, and what `lab` itself refuses.
#[derive(Debug)]
enum Fail {
    /// The model refused an input, or a run gave no result (it stalled, or failed its check).
    Model(RunError),
    /// A file the model read and refused: its problems by line.
    File(FileError),
    /// A failure that concerns one option or one file, named first.
    At(String, Box<Fail>),
    /// A file the system could not open or read.
    Io(PathBuf, std::io::Error),
    /// A file larger than the command reads.
    TooLarge {
        path: PathBuf,
        bytes: u64,
        most_bytes: u64,
    },
    /// What the command line or the command itself refuses, in its words.
    Refused(String),
    /// Output that serde_json would not write (a map whose keys are not text).
    Json(serde_json::Error),
}

impl Fail {
    /// `why`, concerning `place` (an option with its value, or a file).
    fn at(place: impl fmt::Display, why: impl Into<Fail>) -> Fail {
        Fail::At(place.to_string(), Box::new(why.into()))
    }
}

impl fmt::Display for Fail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fail::Model(e) => e.fmt(f),
            Fail::File(e) => e.fmt(f),
            Fail::At(place, why) => write!(f, "{place}: {why}"),
            Fail::Io(path, e) => write!(f, "cannot read '{}': {e}", path.display()),
            Fail::TooLarge {
                path,
                bytes,
                most_bytes,
            } => {
                let cap = match most_bytes >> 30 {
                    0 => format!("{} MiB", most_bytes >> 20),
                    gib => format!("{gib} GiB"),
                };
                write!(
                    f,
                    "'{}' is {:.1} MB; this command reads files up to {cap}",
                    path.display(),
                    *bytes as f64 / 1e6,
                )
            }
            Fail::Refused(why) => f.write_str(why),
            Fail::Json(e) => write!(f, "cannot write the output as JSON: {e}"),
        }
    }
}

impl From<ConfigError> for Fail {
    fn from(e: ConfigError) -> Fail {
        Fail::Model(e.into())
    }
}

impl From<RunError> for Fail {
    fn from(e: RunError) -> Fail {
        Fail::Model(e)
    }
}

impl From<FileError> for Fail {
    fn from(e: FileError) -> Fail {
        Fail::File(e)
    }
}

impl From<serde_json::Error> for Fail {
    fn from(e: serde_json::Error) -> Fail {
        Fail::Json(e)
    }
}

/// Largest measurements CSV `lab calibrate` and `lab fit` read (as large as fio output).
const MAX_CSV_BYTES: usize = parallelism_model::fio::MAX_OUTPUT_BYTES;

/// `file` opened for reading, refused before a byte is read when it is larger than
/// `max_bytes`, so a stray multi-gigabyte file costs one line, not the machine's memory.
fn open_capped(file: &std::path::Path, max_bytes: u64) -> Result<std::fs::File, Fail> {
    let cannot = |e: std::io::Error| Fail::Io(file.to_path_buf(), e);
    let f = std::fs::File::open(file).map_err(cannot)?;
    let size = f.metadata().map_err(cannot)?.len();
    if size > max_bytes {
        return Err(Fail::TooLarge {
            path: file.to_path_buf(),
            bytes: size,
            most_bytes: max_bytes,
        });
    }
    Ok(f)
}

/// A file's text (UTF-8 or UTF-16, see [`parallelism_model::text::text_of`]), at
/// most `max_bytes` of it (see [`open_capped`]).
fn read_text(file: &std::path::Path, max_bytes: usize) -> Result<String, Fail> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut open_capped(file, max_bytes as u64)?, &mut bytes)
        .map_err(|e| Fail::Io(file.to_path_buf(), e))?;
    Ok(parallelism_model::text::text_of(&bytes))
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if is_display(e.kind()) => {
            // Help goes to stdout with status 0; `lab` alone prints it to stderr with clap's 2.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
        Err(e) => return fail(&Fail::Refused(clap_message(&e))),
    };
    match run(cli.command) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(f) => fail(&f),
    }
}

fn fail(why: &Fail) -> ExitCode {
    eprintln!("lab: {why}");
    eprintln!("Run `lab --help` for usage.");
    ExitCode::from(2)
}

fn is_display(kind: ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    )
}

/// clap's error as one line, in the words `lab` used before clap: the option and the value that
/// are wrong, and what was expected. Kinds without such words keep clap's own first line.
fn clap_message(e: &clap::Error) -> String {
    let text = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => s.clone(),
        Some(ContextValue::Strings(v)) => v.join(" "),
        Some(v) => v.to_string(),
        None => String::new(),
    };
    // "--iodepth <LIST>" names the option as "--iodepth".
    let option = |kind| {
        text(kind)
            .split([' ', '='])
            .next()
            .unwrap_or("")
            .to_string()
    };
    let did_you_mean = |kind| match text(kind) {
        s if s.is_empty() => String::new(),
        s => format!(" (did you mean {s}?)"),
    };
    let arg = option(ContextKind::InvalidArg);
    let value = text(ContextKind::InvalidValue);
    match e.kind() {
        ErrorKind::ValueValidation => match std::error::Error::source(e) {
            // The model's parsers say what they read ("unknown preset 'x' (expected ...)").
            Some(why) if why.is::<ConfigError>() => why.to_string(),
            Some(why) => format!("{arg} {why}"),
            None => format!("{arg} cannot read '{value}'"),
        },
        ErrorKind::InvalidValue if value.is_empty() => format!("{arg} needs a value"),
        ErrorKind::InvalidValue => {
            let expected = match e.get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(v)) => or_list(v),
                _ => String::new(),
            };
            let name = arg.trim_start_matches('-');
            format!("unknown {name} '{value}' (expected {expected})")
        }
        ErrorKind::UnknownArgument if arg.starts_with("--") => format!(
            "unknown option {arg} for this command{}",
            did_you_mean(ContextKind::SuggestedArg)
        ),
        ErrorKind::UnknownArgument => {
            format!("unexpected argument '{}'", text(ContextKind::InvalidArg))
        }
        ErrorKind::InvalidSubcommand => format!(
            "unknown command '{}'{}",
            text(ContextKind::InvalidSubcommand),
            did_you_mean(ContextKind::SuggestedSubcommand)
        ),
        ErrorKind::ArgumentConflict => {
            let prior = option(ContextKind::PriorArg);
            if prior == arg {
                format!("{arg} given twice")
            } else {
                // Sorted, so the message does not depend on which of the two came first.
                let mut pair = [arg, prior];
                pair.sort();
                format!("give {} or {}, not both", pair[0], pair[1])
            }
        }
        ErrorKind::MissingRequiredArgument => format!(
            "missing {} ({})",
            text(ContextKind::InvalidArg),
            text(ContextKind::Usage)
                .trim()
                .replacen("Usage: ", "usage: ", 1)
        ),
        _ => {
            let first = e.to_string();
            let first = first.lines().next().unwrap_or_default();
            first.strip_prefix("error: ").unwrap_or(first).to_string()
        }
    }
}

/// "a, b or c".
fn or_list(items: &[String]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => items.join(""),
    }
}

fn run(command: Command) -> Result<String, Fail> {
    match command {
        Command::Presets(a) => drives::presets(a.format),
        Command::Sweep(a) => points::sweep(&a),
        Command::Calibrate(a) => fitting::calibrate(&a),
        Command::Fit(a) => fitting::fit(&a),
        Command::Spec(a) => drives::spec(a.preset, a.output.format),
        Command::Fill(a) => over_time::fill(&a),
        Command::Burst(a) => over_time::burst(&a),
        Command::Torture(a) => over_time::torture(&a),
        Command::FioJob(a) => points::fio_job(&a),
        Command::Run(a) => jobs::run(&a),
        Command::Replay(a) => replay::replay(&a),
        Command::Import(a) => points::import(&a.file, a.output.format),
        Command::Idle(a) => idle::idle(&a),
        Command::Review(a) => review::review(&a),
        Command::Validate(a) => validate::validate(&a),
        Command::Bench => bench::run(),
        Command::Quiz(a) => quiz::quiz(&a),
        Command::Tour(c) => quiz::tour(&c),
    }
}

/// `value` as pretty JSON and a line break: every command's `--format json`.
fn json<T: serde::Serialize>(value: &T) -> Result<String, Fail> {
    Ok(serde_json::to_string_pretty(value)? + "\n")
}
