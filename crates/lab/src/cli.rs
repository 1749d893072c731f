//! The command line, defined once. clap derives the parser, the help and the errors from these
//! types, so the help text (the doc comments below) cannot drift from what is accepted.
//!
//! Values are read by the model's own parsers (block sizes, patterns, drive states, presets), so
//! `lab` accepts exactly what the page and the fio import accept. Limits the model enforces when
//! it runs (measured I/Os, capacity, idle time, ...) are left to it; what is checked here is what
//! the model cannot see: a list's syntax, a read share for a job file it never runs.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use clap::{Args, Parser, Subcommand, ValueEnum};
use parallelism_model::config::PowerLimit;
use parallelism_model::config::{parse_block_size, MAX_IODEPTH};
use parallelism_model::custom::CustomDrive;
use parallelism_model::over_time::REVIEW_TORTURE_MINUTES;
use parallelism_model::presets::{self, Preset};
use parallelism_model::review::{
    E12_SAMPLE_GB, E12_SAMPLE_PRESET, REVIEW_PHASES, SUSTAINED_IODEPTHS,
};
use parallelism_model::sweep::REVIEW_IODEPTHS;
use parallelism_model::workload::desktop::Desktop;
use parallelism_model::workload::trace::TraceFormat;
use parallelism_model::workload::Spacing;
use parallelism_model::{ConfigError, DriveSpec, DriveState, RunOptions, Rw, Workload};

use crate::Fail;

/// The command-line twin of Parallelism Lab: the page's figures, from the same model, as tables,
/// CSV and JSON.
#[derive(Parser)]
#[command(name = "lab", arg_required_else_help = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// List the drives the model knows (csv prints the table)
    Presets(OutputArgs),
    /// Run a queue-depth sweep (a read-share sweep with --mix-sweep, an offered-load sweep with
    /// --rate-iops)
    Sweep(SweepArgs),
    /// The model against the published E18DC measurements
    Calibrate(CalibrateArgs),
    /// Fit a preset's fitted parameters to measurements
    Fit(FitArgs),
    /// Consumer spec-sheet peaks against the fresh model (csv prints the table)
    Spec(SpecArgs),
    /// Whole-drive sequential fill from empty: speed against GB written
    Fill(FillArgs),
    /// Bursts of sequential writes with idle time between them
    Burst(BurstArgs),
    /// Random-write torture, then TRIM: sequential write speed each time
    Torture(TortureArgs),
    /// Print a fio job file for the workload, one job per queue depth
    FioJob(WorkloadArgs),
    /// Run a fio job file's jobs on the drive and print fio-like results per job or group
    Run(RunJobArgs),
    /// Replay a block trace (mqsim, blkparse, fio iolog, msr) at its own times or at a depth
    Replay(ReplayArgs),
    /// Read fio's output (JSON, normal text or terse; fio 2.x to 3.x) and print its points
    Import(ImportArgs),
    /// QD1 latency after idle time, with and without autonomous power-state transitions (APST)
    Idle(IdleArgs),
    /// The E12 review's synthetic tests (bursts, sustained depths, mixes) on a drive: each
    /// test's curve and score
    Review(ReviewArgs),
    /// The model against every published figure: each figure's source, published value or
    /// words, the model's value, error, band and verdict, and a summary line
    Validate(ValidateArgs),
    /// Print model speed figures as JSON
    Bench,
    /// The guided tours' questions in the terminal: predict, then see the model's answers
    /// with -c
    Quiz(QuizArgs),
    /// Guided tour files: check one as the page reads it, or list the built-in tours
    #[command(subcommand)]
    Tour(TourCommand),
}

#[derive(Args)]
pub struct QuizArgs {
    /// Ask one tour's questions: a built-in tour's id (see `lab tour list`) or a tour file
    /// [default: every built-in tour's questions, then three on a drive drawn from --seed]
    #[arg(long, value_name = "ID|FILE")]
    pub tour: Option<String>,
    /// Draw the quiz's drive from this seed: the same seed asks the same questions, so a class
    /// given one seed gets one drive
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = whole::<u64>, conflicts_with = "tour")]
    pub seed: u64,
    /// Print each answer as the page reveals it, with its explanation and the model's figures
    #[arg(short = 'c', long = "compute")]
    pub compute: bool,
}

#[derive(Subcommand)]
pub enum TourCommand {
    /// Check a tour file as the page reads it: every field, every step's state and question;
    /// an error names its line and column
    Check {
        /// The tour file (JSON)
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// List the built-in tours: id, steps, questions and title
    List,
}

/// How results are printed.
#[derive(Clone, Copy, PartialEq, ValueEnum)]
pub enum Format {
    /// Aligned columns to read
    Table,
    /// One header line, then one line per point
    Csv,
    /// The fields the page uses, as a pretty-printed array or object
    Json,
}

#[derive(Args)]
#[command(next_help_heading = "Output")]
pub struct OutputArgs {
    /// How to print the results
    #[arg(long, value_name = "FMT", value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// The drive: a preset at a size. Capacity and dies are two spellings of one size.
#[derive(Args)]
#[command(next_help_heading = "Drive")]
pub struct DriveArgs {
    /// The preset (`lab presets` lists them)
    #[arg(long, value_name = "ID", default_value = "e18dc", value_parser = presets::lookup)]
    pub preset: &'static Preset,
    /// Drive size in user GB, rounded to whole dies [default: the preset's largest listed
    /// capacity]
    #[arg(
        long,
        value_name = "GB",
        conflicts_with = "dies",
        value_parser = number,
        allow_negative_numbers = true
    )]
    pub capacity_gb: Option<f64>,
    /// Drive size in dies (the capacity follows from them)
    #[arg(long, value_name = "N", value_parser = whole::<u32>, allow_negative_numbers = true)]
    pub dies: Option<u32>,
    /// A drive of your own, as `lab fit --fio` prints it and the page's `drive=` holds it
    /// (e.g. e12_d24_r52500_c900: the E12 with 24 dies, a 52.5 µs read and a 900 ns command
    /// cost; see the README)
    #[arg(
        long,
        value_name = "TEXT",
        conflicts_with_all = ["preset", "capacity_gb", "dies"],
        value_parser = custom_drive
    )]
    pub drive: Option<CustomDrive>,
}

impl DriveArgs {
    pub fn drive(&self) -> Result<DriveSpec, Fail> {
        if let Some(custom) = &self.drive {
            return Ok(custom.drive());
        }
        let preset = self.preset;
        Ok(match (self.dies, self.capacity_gb) {
            (Some(d), _) => preset
                .drive_with_dies(d)
                .map_err(|e| Fail::at(format_args!("--dies {d}"), e))?,
            (None, Some(gb)) => preset.drive_for_capacity_gb(gb)?,
            (None, None) => {
                preset.drive_for_capacity_gb(f64::from(preset.default_capacity_gb()))?
            }
        })
    }
}

/// A review's test suite.
#[derive(Clone, Copy, PartialEq, ValueEnum)]
pub enum Suite {
    /// The Phison E12 preview's tests (AnandTech, 2018)
    E12,
}

/// The review's tests on a drive: the review's own sample unless told otherwise.
#[derive(Args)]
pub struct ReviewArgs {
    /// The suite to run
    #[arg(value_enum, default_value_t = Suite::E12)]
    pub suite: Suite,
    /// The preset (`lab presets` lists them)
    #[arg(long, value_name = "ID", default_value = "e12", value_parser = presets::lookup)]
    pub preset: &'static Preset,
    /// Drive size in user GB [default: 960, the review's sample, for the E12; else the
    /// preset's largest listed capacity]
    #[arg(long, value_name = "GB", value_parser = number, allow_negative_numbers = true)]
    pub capacity_gb: Option<f64>,
    /// A drive of your own, as `lab fit --fio` prints it
    #[arg(
        long,
        value_name = "TEXT",
        conflicts_with_all = ["preset", "capacity_gb"],
        value_parser = custom_drive
    )]
    pub drive: Option<CustomDrive>,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

impl ReviewArgs {
    pub fn drive(&self) -> Result<DriveSpec, Fail> {
        // The review's own sample size when the preset is the reviewed drive's.
        let sample = (self.preset.id == E12_SAMPLE_PRESET).then_some(E12_SAMPLE_GB);
        DriveArgs {
            preset: self.preset,
            capacity_gb: self.capacity_gb.or(sample),
            dies: None,
            drive: self.drive.clone(),
        }
        .drive()
    }
}

/// The generator: which random run, and how long it is measured.
#[derive(Args)]
#[command(next_help_heading = "Run")]
pub struct RunArgs {
    /// Generator seed
    #[arg(
        long,
        value_name = "N",
        default_value_t = RunOptions::default().seed,
        value_parser = whole::<u64>,
        allow_negative_numbers = true
    )]
    pub seed: u64,
    /// Measured I/Os per point
    #[arg(
        long,
        value_name = "N",
        default_value_t = RunOptions::DEFAULT_MEASURED_IOS,
        value_parser = whole::<u64>,
        allow_negative_numbers = true
    )]
    pub ios: u64,
}

impl RunArgs {
    pub fn options(&self) -> RunOptions {
        RunOptions {
            seed: self.seed,
            measured_ios: self.ios,
            ..RunOptions::default()
        }
    }
}

/// The host side, with fio's option names.
#[derive(Args)]
#[command(next_help_heading = "Workload (fio's names)")]
pub struct WorkloadArgs {
    /// The pattern: randread, randwrite, randrw, read, write or rw
    #[arg(long, value_name = "NAME", default_value = "randread", value_parser = rw)]
    pub rw: Rw,
    /// Block size as fio writes it, 4k .. 1m
    #[arg(long, value_name = "SIZE", default_value = "4k", value_parser = parse_block_size)]
    pub bs: u32,
    /// Queue depths, comma-separated
    #[arg(
        long,
        value_name = "LIST",
        default_value_t = Depths(REVIEW_IODEPTHS.to_vec()),
        value_parser = depths,
        allow_negative_numbers = true
    )]
    pub iodepth: Depths,
    /// Read percentage for randrw and rw
    #[arg(
        long,
        value_name = "N",
        default_value_t = 70,
        value_parser = whole::<u8>,
        allow_negative_numbers = true
    )]
    pub rwmixread: u8,
}

impl WorkloadArgs {
    /// The workload at the first depth.
    pub fn workload(&self) -> Result<Workload, Fail> {
        let workload = Workload {
            rw: self.rw,
            rwmixread: self.rwmixread,
            bs_bytes: self.bs,
            iodepth: self.iodepth.0[0],
        };
        // The job file is written without a model run, so the workload is checked on its own.
        workload.check()?;
        Ok(workload)
    }
}

// Each group sets the heading of the options after it, so a command's own options come first.

#[derive(Args)]
pub struct SweepArgs {
    /// Sweep the read share 0..100% at the first --iodepth instead
    #[arg(long)]
    pub mix_sweep: bool,
    /// Print the points as fio's JSON output (--output-format=json), which `lab import` and the
    /// page's fio import read
    #[arg(long, conflicts_with = "format")]
    pub as_fio: bool,
    /// Offered loads in I/Os per second, comma-separated: requests arrive at each rate whatever
    /// the drive does (open loop, fio's rate_iops), at most the deepest --iodepth at the
    /// device and the rest waiting in the host; prints latency against offered load
    #[arg(
        long,
        value_name = "LIST",
        value_parser = rates,
        conflicts_with_all = ["mix_sweep", "as_fio"]
    )]
    pub rate_iops: Option<Rates>,
    /// How --rate-iops arrivals are spaced: linear (evenly, fio's default) or poisson
    #[arg(
        long,
        value_name = "NAME",
        default_value = "linear",
        value_parser = rate_process,
        requires = "rate_iops"
    )]
    pub rate_process: Spacing,
    /// Print where each point's requests spent their time instead, part by part: for the mean
    /// request and those at or above p50, p99 and p99.9, reads and writes apart
    #[arg(long, conflicts_with = "as_fio")]
    pub anatomy: bool,
    /// The drive's state when the run starts: fob, seq-filled or steady
    #[arg(long, value_name = "STATE", default_value = "seq-filled", value_parser = state)]
    pub state: DriveState,
    #[command(flatten)]
    pub drive: DriveArgs,
    #[command(flatten)]
    pub power: PowerArgs,
    #[command(flatten)]
    pub workload: WorkloadArgs,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args)]
pub struct CalibrateArgs {
    /// Also each cell's leave-one-out error (one refit per cell; under a minute)
    #[arg(long)]
    pub loo: bool,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args)]
pub struct ValidateArgs {
    /// Also rerun the scorecard at both ends of each assumption's range and report, per figure,
    /// how far each assumption moves it (about a minute)
    #[arg(long)]
    pub sensitivity: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `lab fit` prints a report, not points, so it has no CSV.
#[derive(Clone, Copy, PartialEq, ValueEnum)]
pub enum ReportFormat {
    /// Aligned columns to read
    Table,
    /// The fit report as a pretty-printed object
    Json,
}

#[derive(Args)]
pub struct FitArgs {
    /// The preset whose fitted parameters are chosen
    #[arg(long, value_name = "ID", default_value = "e18dc", value_parser = presets::lookup)]
    pub preset: &'static Preset,
    /// Measurements as in e18dc-calibration.csv (header
    /// capacity_gb,workload,block,read_pct,qd,iops,mb_s,lat_ms); optional for e18dc, whose
    /// reference data is built in
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,
    /// fio output files of your drive (JSON, normal text or terse): the fit then chooses the
    /// die count, read and program times, command cost, host stack and link efficiency of a
    /// drive on the preset's controller and flash, and prints a `drive=` link
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["data", "loo"])]
    pub fio: Vec<PathBuf>,
    /// The state the drive was in during the fio runs: fob, seq-filled or steady
    #[arg(long, value_name = "STATE", default_value = "fob", value_parser = state, requires = "fio")]
    pub state: DriveState,
    /// The drive's user capacity, if you know it: the die count then follows from the
    /// preset's flash instead of being fitted (the die count and the read time trade off in
    /// random reads, so knowing one pins the other)
    #[arg(
        long,
        value_name = "GB",
        requires = "fio",
        value_parser = number,
        allow_negative_numbers = true
    )]
    pub capacity_gb: Option<f64>,
    /// Add leave-one-out cross-validation (a refit per cell)
    #[arg(long)]
    pub loo: bool,
    #[command(flatten)]
    pub run: RunArgs,
    /// How to print the report
    #[arg(
        long,
        value_name = "FMT",
        value_enum,
        default_value_t = ReportFormat::Table,
        help_heading = "Output"
    )]
    pub format: ReportFormat,
}

#[derive(Args)]
pub struct SpecArgs {
    /// Only this preset [default: every preset with spec-sheet peaks]
    #[arg(long, value_name = "ID", value_parser = presets::lookup)]
    pub preset: Option<&'static Preset>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args)]
pub struct FillArgs {
    #[command(flatten)]
    pub drive: DriveArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args)]
pub struct BurstArgs {
    /// GB written in each burst (by default the E12 review's 32 GB a depth)
    #[arg(long, value_name = "GB", default_value_t = REVIEW_PHASES.phase_gb, value_parser = finite, allow_negative_numbers = true)]
    pub burst_gb: f64,
    /// Idle seconds between bursts (by default the review's minute between depths)
    #[arg(long, value_name = "S", default_value_t = REVIEW_PHASES.idle_s, value_parser = finite, allow_negative_numbers = true)]
    pub idle_s: f64,
    /// Number of bursts (by default one a depth of the review's sustained tests, QD1 to QD32)
    #[arg(long, value_name = "N", default_value_t = SUSTAINED_IODEPTHS.len() as u32, value_parser = whole::<u32>, allow_negative_numbers = true)]
    pub bursts: u32,
    #[command(flatten)]
    pub drive: DriveArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args)]
pub struct TortureArgs {
    /// Minutes of 4 KiB random writes at QD32 over every LBA (by default the Octane review's 20)
    #[arg(long, value_name = "N", default_value_t = REVIEW_TORTURE_MINUTES, value_parser = finite, allow_negative_numbers = true)]
    pub minutes: f64,
    #[command(flatten)]
    pub drive: DriveArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// A power budget: an active power state of the preset's table, or watts.
#[derive(Args)]
#[command(next_help_heading = "Power")]
pub struct PowerArgs {
    /// Keep to this NVMe power state's maximum: ps0, ps1 or ps2 [default: ps0 where the preset
    /// has a power-state table]
    #[arg(long, value_name = "PS", conflicts_with = "power_limit_w", value_parser = power_state)]
    pub power_state: Option<PowerLimit>,
    /// Keep to this many watts
    #[arg(long, value_name = "W", value_parser = watts, allow_negative_numbers = true)]
    pub power_limit_w: Option<PowerLimit>,
}

impl PowerArgs {
    pub fn limit(&self) -> Option<PowerLimit> {
        self.power_state.or(self.power_limit_w)
    }
}

#[derive(Args)]
pub struct IdleArgs {
    /// Host idle times before each request, microseconds, comma-separated
    #[arg(
        long,
        value_name = "LIST",
        default_value = "0,1000,50000,100000,101000,500000,2000000,5000000",
        value_parser = micros
    )]
    pub think_us: Micros,
    /// Requests in each burst after an idle time (the first pays the wake-up)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = whole::<u32>)]
    pub burst: u32,
    #[command(flatten)]
    pub drive: DriveArgs,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Idle times in microseconds, in the order given.
#[derive(Clone)]
pub struct Micros(pub Vec<u64>);

impl fmt::Display for Micros {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list: Vec<String> = self.0.iter().map(u64::to_string).collect();
        f.write_str(&list.join(","))
    }
}

fn micros(list: &str) -> Result<Micros, String> {
    comma_list(list, "idle times", |v| match v.trim().parse::<u64>() {
        Ok(us) if us <= 3_600_000_000 => Ok(us),
        _ => Err(format!(
            "'{v}' is not an idle time (whole microseconds up to an hour, comma-separated)"
        )),
    })
    .map(Micros)
}

/// Most values a list option takes: it keeps a command's run time in reach.
const MAX_LIST: usize = 64;

/// A comma list of at most [`MAX_LIST`] values, each read by `one` (which words its error).
fn comma_list<T>(
    list: &str,
    what: &str,
    one: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    let values = list.split(',').map(one).collect::<Result<Vec<_>, _>>()?;
    if values.len() > MAX_LIST {
        return Err(format!("lists at most {MAX_LIST} {what}"));
    }
    Ok(values)
}

fn power_state(s: &str) -> Result<PowerLimit, ConfigError> {
    match s.parse::<PowerLimit>() {
        Ok(limit @ PowerLimit::State(_)) => Ok(limit),
        _ => Err(ConfigError::Unknown {
            what: "--power-state".into(),
            value: s.to_string(),
            expected: "ps0, ps1 or ps2".into(),
        }),
    }
}

fn watts(s: &str) -> Result<PowerLimit, String> {
    match s.trim().parse::<f64>() {
        Ok(w) if w.is_finite() && w > 0.0 => Ok(PowerLimit::Watts(w)),
        _ => Err(format!("expects watts above 0, got '{s}'")),
    }
}

#[derive(Args)]
pub struct RunJobArgs {
    /// The fio job file: `[global]` and job sections; jobs without stonewall share the drive
    #[arg(value_name = "JOBFILE")]
    pub file: PathBuf,
    /// Print the results as fio's JSON output (--output-format=json), which `lab import`, the
    /// fit and the page's fio import read
    #[arg(long, conflicts_with = "format")]
    pub as_fio: bool,
    /// Print where each job's (or group's) requests spent their time instead, part by part: for the mean
    /// request and those at or above p50, p99 and p99.9, reads and writes apart
    #[arg(long, conflicts_with = "as_fio")]
    pub anatomy: bool,
    /// The drive's state when each group starts: fob, seq-filled or steady
    #[arg(long, value_name = "STATE", default_value = "seq-filled", value_parser = state)]
    pub state: DriveState,
    #[command(flatten)]
    pub drive: DriveArgs,
    #[command(flatten)]
    pub power: PowerArgs,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args)]
pub struct ReplayArgs {
    /// The trace file
    #[arg(value_name = "FILE", required_unless_present = "workload")]
    pub file: Option<PathBuf>,
    /// Replay a generated desktop workload instead: desktop-heavy or desktop-light (a model of
    /// AnandTech Storage Bench 2011 Heavy and Light; its idle gaps are capped at 25 ms)
    #[arg(long, value_name = "NAME", value_parser = desktop, conflicts_with_all = ["file", "trace_format"])]
    pub workload: Option<Desktop>,
    /// Print where the trace's requests spent their time instead, part by part: for the mean
    /// request and those at or above p50, p99 and p99.9, reads and writes apart
    #[arg(long)]
    pub anatomy: bool,
    /// With --workload: generate this share (0..1] of its requests, in the same mix [default: 1]
    #[arg(long, value_name = "X", value_parser = finite)]
    pub scale: Option<f64>,
    /// With --workload: the generator's seed [default: 1]
    #[arg(long, value_name = "N", value_parser = whole::<u64>)]
    pub seed: Option<u64>,
    /// The trace's format: mqsim, blkparse, iolog2, iolog3 or msr [default: told from the file]
    #[arg(long = "trace-format", value_name = "NAME", value_parser = trace_format)]
    pub trace_format: Option<TraceFormat>,
    /// Replay at the trace's own times divided by this factor (2: twice as fast) [default: 1]
    #[arg(long, value_name = "X", value_parser = finite, conflicts_with = "iodepth")]
    pub speed: Option<f64>,
    /// Replay as fast as the drive allows, in the trace's order, with this many requests in
    /// flight (a closed loop)
    #[arg(long, value_name = "N", value_parser = whole::<u32>)]
    pub iodepth: Option<u32>,
    /// At the trace's times: cap each idle gap at this many milliseconds (the reviews use 25)
    #[arg(long, value_name = "MS", value_parser = finite, conflicts_with = "iodepth")]
    pub max_idle_ms: Option<f64>,
    /// At the trace's times: the most requests at the device at once (the rest wait in the
    /// host)
    #[arg(long, value_name = "N", default_value_t = 32, value_parser = whole::<u32>)]
    pub device_depth: u32,
    /// Also print the replay over time in buckets of this many milliseconds: throughput,
    /// requests in the system and mean latency (CSV: the buckets alone)
    #[arg(long, value_name = "MS", value_parser = finite)]
    pub series_ms: Option<f64>,
    /// The drive's state when the replay starts: fob, seq-filled or steady
    #[arg(long, value_name = "STATE", default_value = "fob", value_parser = state)]
    pub state: DriveState,
    #[command(flatten)]
    pub drive: DriveArgs,
    #[command(flatten)]
    pub power: PowerArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args)]
pub struct ImportArgs {
    /// fio's output as saved: JSON or JSON+, the normal report, terse lines, or a mix (fio 2.x
    /// to 3.x); UTF-8 or UTF-16. Clones are one point at numjobs x iodepth; a job that gives no
    /// point is listed with its line
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Offered loads in I/Os per second, in the order given.
#[derive(Clone)]
pub struct Rates(pub Vec<f64>);

/// A comma list of rates; the model checks each one's range when it runs.
fn rates(list: &str) -> Result<Rates, String> {
    comma_list(list, "rates", |r| {
        finite(r).map_err(|_| format!("'{r}' is not a rate (I/Os per second, comma-separated)"))
    })
    .map(Rates)
}

fn desktop(s: &str) -> Result<Desktop, ConfigError> {
    s.parse().map_err(|e| for_option("--workload", e))
}

fn trace_format(s: &str) -> Result<TraceFormat, ConfigError> {
    s.parse().map_err(|e| for_option("--trace-format", e))
}

fn rate_process(s: &str) -> Result<Spacing, ConfigError> {
    s.parse().map_err(|e| for_option("--rate-process", e))
}

/// Queue depths in the order given. One value, so `--iodepth 1,4` is one option, not two.
#[derive(Clone)]
pub struct Depths(pub Vec<u32>);

impl fmt::Display for Depths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list: Vec<String> = self.0.iter().map(u32::to_string).collect();
        f.write_str(&list.join(","))
    }
}

// The parsers below word their errors to follow the option's name ("--ios expects ..."); the
// error renderer in main.rs puts the name in front. The model's parsers name what they read
// themselves and are printed as they are.

fn whole<T: FromStr>(s: &str) -> Result<T, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("expects a whole number, got '{s}'"))
}

fn number(s: &str) -> Result<f64, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("expects a number, got '{s}'"))
}

/// A number that can be a duration or a size: infinity and NaN are refused as unreadable.
fn finite(s: &str) -> Result<f64, String> {
    number(s)
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("expects a number, got '{s}'"))
}

/// A comma list of depths. The bound is checked while reading because `lab fio-job` writes the
/// list without a model run.
fn depths(list: &str) -> Result<Depths, String> {
    comma_list(list, "depths", |q| match q.trim().parse::<u32>() {
        Ok(n) if (1..=MAX_IODEPTH).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{q}' is not a queue depth (allowed: 1..={MAX_IODEPTH}, comma-separated)"
        )),
    })
    .map(Depths)
}

fn rw(s: &str) -> Result<Rw, ConfigError> {
    s.parse().map_err(|e| for_option("--rw", e))
}

fn custom_drive(s: &str) -> Result<CustomDrive, ConfigError> {
    s.parse()
}

fn state(s: &str) -> Result<DriveState, ConfigError> {
    s.parse().map_err(|e| for_option("--state", e))
}

/// The model's refusal of a name, naming the option it came with.
fn for_option(option: &'static str, e: ConfigError) -> ConfigError {
    match e {
        ConfigError::Unknown {
            value, expected, ..
        } => ConfigError::Unknown {
            what: option.into(),
            value,
            expected,
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn default_depths_are_the_review_depths() {
        let cli = Cli::try_parse_from(["lab", "fio-job"]).unwrap();
        let Command::FioJob(w) = cli.command else {
            panic!("fio-job parses as fio-job")
        };
        assert_eq!(w.iodepth.0, REVIEW_IODEPTHS);
        assert_eq!(w.bs, 4096);
        assert_eq!(w.rw, Rw::RandRead);
    }
}
