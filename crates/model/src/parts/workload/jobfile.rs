//! fio job files in: the sections of a job file as streams on one drive.
//!
//! A job file is read the way fio reads it: `[global]` sets the defaults of the jobs after it,
//! each other section is a job, `numjobs` clones a job into that many streams, and a job with
//! `stonewall` starts a new *group* that runs after the ones before; the jobs of one group run
//! side by side on the drive; a group ends when its I/Os are measured or at its longest
//! `runtime` of simulated time. The options the model honours are read and checked; options that
//! change nothing the model sees (`ioengine=libaio`, `direct=1`, `filename`, ...) are accepted as
//! given; every other option is named in one warning and ignored, never silently.
//!
//! # What always holds
//! - Any text gives a [`JobFile`] or a [`FileError`] that lists the first problems by line
//!   number and counts the rest; nothing panics, and a file over [`MAX_JOB_FILE_BYTES`], an
//!   empty one or a binary one gets one clear line.
//! - Values are checked where they are read (`bs=3k` names its line); what depends on the drive
//!   (a range as a percentage, a range inside the drive) is checked when a group becomes a
//!   [`StreamsSpec`].

use std::fmt;

use crate::config::{self, ConfigError, DriveSpec, DriveState, RunOptions, Rw, MAX_IODEPTH};
use crate::time::Nanos;

use super::{
    Arrival, BlockSizes, FileError, Pattern, Requests, Spacing, Span, Stream, StreamsSpec,
    MAX_STREAMS,
};

/// Largest job file read (job files are a few KiB; this leaves room for generated ones).
pub const MAX_JOB_FILE_BYTES: usize = 1 << 20;
/// What the file is called in its problems.
const WHAT: &str = "job file";

/// Options accepted as given: they do not change what the model runs (the I/O engine's
/// submission path, buffering of a direct-I/O job, names, files, time and reporting details).
const ACCEPTED: [&str; 18] = [
    "ioengine",
    "direct",
    "filename",
    "directory",
    "name",
    "description",
    "time_based",
    "ramp_time",
    "thread",
    "randrepeat",
    "norandommap",
    "invalidate",
    "gtod_reduce",
    "percentile_list",
    "lat_percentiles",
    "clat_percentiles",
    "refill_buffers",
    "group_reporting",
];

/// I/O engines that submit one request at a time, whatever `iodepth` says (fio's synchronous
/// engines).
const SYNC_ENGINES: [&str; 5] = ["sync", "psync", "vsync", "pvsync", "pvsync2"];

/// A range bound as fio writes it: bytes, or a percentage of the drive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Amount {
    Bytes(u64),
    Percent(f64),
}

impl Amount {
    fn bytes_of(self, user_bytes: u64) -> u64 {
        match self {
            Amount::Bytes(b) => b,
            // Rounded down to whole 4 KiB units, as fio aligns a percentage offset.
            Amount::Percent(p) => (user_bytes as f64 * p / 100.0) as u64 / 4096 * 4096,
        }
    }
}

/// One job section, with `[global]`'s defaults applied.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    pub name: String,
    /// The line of its `[name]`.
    pub line: usize,
    pub rw: Rw,
    pub rwmixread: u8,
    pub sizes: BlockSizes,
    pub iodepth: u32,
    pub numjobs: u32,
    pub rate: Option<(f64, Spacing)>,
    pub offset: Amount,
    pub size: Option<Amount>,
    /// fio's `number_ios`: the I/Os each clone measures.
    pub number_ios: Option<u64>,
    /// fio's `runtime`: the most simulated time the job runs.
    pub runtime: Option<Nanos>,
}

impl Job {
    /// The job's read share in percent.
    pub fn read_percent(&self) -> u8 {
        self.rw.read_percent(self.rwmixread)
    }

    /// The job's stream on a drive of `user_bytes` (each of its `numjobs` clones is one).
    pub fn stream(&self, user_bytes: u64) -> Stream {
        Stream {
            requests: Requests::Pattern(Pattern {
                rw: self.rw,
                rwmixread: self.rwmixread,
                sizes: self.sizes.clone(),
                span: Span {
                    offset_bytes: self.offset.bytes_of(user_bytes),
                    size_bytes: self.size.map(|s| s.bytes_of(user_bytes)),
                },
            }),
            arrival: match self.rate {
                None => Arrival::Closed {
                    iodepth: self.iodepth,
                },
                Some((iops, spacing)) => Arrival::Rate {
                    iops,
                    spacing,
                    iodepth: self.iodepth,
                },
            },
        }
    }
}

/// Jobs that run side by side (until the next `stonewall`).
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub jobs: Vec<Job>,
    /// fio's `group_reporting`: one result for the group instead of one per job.
    pub group_reporting: bool,
}

impl Group {
    /// The longest `runtime` of the group's jobs: the group stops there if its I/Os are not
    /// done by then (fio's group ends with its last job).
    pub fn runtime(&self) -> Option<Nanos> {
        self.jobs.iter().filter_map(|j| j.runtime).max()
    }

    /// The group as a run: every clone of every job, in file order. Measured I/Os are the
    /// jobs' `number_ios` added up when any gives one, else `options`'.
    pub fn spec(&self, drive: &DriveSpec, state: DriveState, options: RunOptions) -> StreamsSpec {
        let user = drive.user_bytes() as u64;
        let streams = self
            .jobs
            .iter()
            .flat_map(|j| (0..j.numjobs).map(move |_| j.stream(user)))
            .collect();
        let given: u64 = self
            .jobs
            .iter()
            .filter_map(|j| j.number_ios.map(|n| n * u64::from(j.numjobs)))
            .sum();
        StreamsSpec {
            drive: drive.clone(),
            streams,
            state,
            options: RunOptions {
                measured_ios: if given > 0 {
                    given
                } else {
                    options.measured_ios
                },
                ..options
            },
        }
    }
}

/// A job file read: its groups in order, and one warning per option it ignored.
#[derive(Clone, Debug, PartialEq)]
pub struct JobFile {
    pub groups: Vec<Group>,
    pub warnings: Vec<String>,
}

/// Options as read so far, for `[global]` or one job.
#[derive(Clone, Debug, Default)]
struct Options {
    rw: Option<Rw>,
    rwmixread: Option<u8>,
    bs: Option<BlockSizes>,
    iodepth: Option<u32>,
    numjobs: Option<u32>,
    /// fio's `rate_iops`: one cap, or a read cap and a write cap.
    rate_iops: Option<(f64, Option<f64>)>,
    rate_process: Option<Spacing>,
    offset: Option<Amount>,
    size: Option<Amount>,
    number_ios: Option<u64>,
    runtime: Option<Nanos>,
    sync_engine: bool,
    stonewall: bool,
    group_reporting: bool,
}

/// A section being read.
struct Section {
    name: String,
    line: usize,
    options: Options,
}

/// Read a fio job file.
///
/// ```
/// use parallelism_model::workload::jobfile;
/// let file = jobfile::parse("[global]\nbs=4k\nioengine=libaio\n\n[reader]\nrw=randread\niodepth=32\n\n[writer]\nrw=write\nbs=128k\n").unwrap();
/// assert_eq!(file.groups.len(), 1, "no stonewall: both jobs share the drive");
/// assert_eq!(file.groups[0].jobs[1].sizes.largest(), 128 * 1024);
/// assert!(file.warnings.is_empty());
/// let err = jobfile::parse("[a]\nbs=3k\niodepth=0\n").unwrap_err();
/// assert_eq!(err.problems[0].0, 2);
/// ```
pub fn parse(text: &str) -> Result<JobFile, FileError> {
    if text.len() > MAX_JOB_FILE_BYTES {
        return Err(FileError::whole(
            WHAT,
            format!(
                "larger than {} MiB: not a fio job file",
                MAX_JOB_FILE_BYTES >> 20
            ),
        ));
    }
    if text.contains('\0') {
        return Err(FileError::whole(
            WHAT,
            "binary data, not a fio job file (text with [job] sections and option=value lines)",
        ));
    }
    let mut reader = Reader {
        global: Options::default(),
        section: None,
        in_global: false,
        jobs: Vec::new(),
        warnings: Vec::new(),
        problems: FileError::new(WHAT),
    };
    for (i, raw) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        reader.line(i + 1, raw.trim());
    }
    reader.finish()
}

struct Reader {
    global: Options,
    section: Option<Section>,
    in_global: bool,
    jobs: Vec<(Job, bool, bool)>,
    warnings: Vec<String>,
    problems: FileError,
}

impl Reader {
    fn problem(&mut self, line: usize, why: String) {
        self.problems.add(line, why);
    }

    fn line(&mut self, n: usize, line: &str) {
        if line.is_empty() || line.starts_with(';') || line.starts_with('#') {
            return;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let Some(name) = rest.strip_suffix(']') else {
                return self.problem(n, format!("'{line}' opens a section but has no ']'"));
            };
            self.close_section();
            let name = name.trim();
            self.in_global = name == "global";
            if !self.in_global {
                self.section = Some(Section {
                    name: name.to_string(),
                    line: n,
                    options: self.global.clone(),
                });
            }
            return;
        }
        let (key, value) = match line.split_once('=') {
            Some((k, v)) => (k.trim(), Some(v.trim())),
            None => (line, None),
        };
        let mut options = if self.in_global {
            std::mem::take(&mut self.global)
        } else if let Some(s) = self.section.as_mut() {
            std::mem::take(&mut s.options)
        } else {
            return self.problem(n, format!("'{key}' comes before any [section]"));
        };
        if let Err(why) = self.option(n, &mut options, key, value) {
            self.problem(n, why);
        }
        match self.section.as_mut() {
            Some(s) if !self.in_global => s.options = options,
            _ => self.global = options,
        }
    }

    /// Read one option into `o`; a warning for what is ignored, an error for a bad value.
    fn option(
        &mut self,
        n: usize,
        o: &mut Options,
        key: &str,
        value: Option<&str>,
    ) -> Result<(), String> {
        let flag = |value: Option<&str>| !matches!(value, Some("0") | Some("false"));
        let need = |what: &str| value.ok_or_else(|| format!("'{what}' needs a value"));
        match key {
            "rw" | "readwrite" => {
                let v = need(key)?;
                let name = match v.split_once(':') {
                    Some((name, _)) => {
                        self.warn(
                            n,
                            &format!("'{v}': the offset modifier after ':' is ignored"),
                        );
                        name
                    }
                    None => v,
                };
                o.rw = Some(match name {
                    "readwrite" => Rw::Rw,
                    other => other.parse::<Rw>().map_err(|e| e.to_string())?,
                });
            }
            "rwmixread" | "rwmixwrite" => {
                let pct: u8 = whole(need(key)?, key, 0, 100)?;
                o.rwmixread = Some(if key == "rwmixread" { pct } else { 100 - pct });
            }
            "bs" | "blocksize" => {
                let v = need(key)?;
                let first = self.first_of(n, key, v);
                o.bs = Some(BlockSizes::one(
                    config::parse_block_size(first).map_err(|e| e.to_string())?,
                ));
            }
            "bssplit" => {
                let v = need(key)?;
                let first = self.first_of(n, key, v);
                o.bs = Some(BlockSizes::parse_bssplit(first).map_err(|e| e.to_string())?);
            }
            "iodepth" => o.iodepth = Some(whole(need(key)?, key, 1, MAX_IODEPTH)?),
            "numjobs" => o.numjobs = Some(whole(need(key)?, key, 1, MAX_STREAMS as u32)?),
            "rate_iops" => {
                let v = need(key)?;
                let (read, write) = v.split_once(',').unwrap_or((v, ""));
                let read = whole(read.trim(), key, 1, u64::MAX)? as f64;
                let write = match write.trim() {
                    "" => None,
                    w => Some(whole(w, key, 1, u64::MAX)? as f64),
                };
                o.rate_iops = Some((read, write));
            }
            "rate_process" => {
                o.rate_process = Some(need(key)?.parse().map_err(|e: ConfigError| e.to_string())?)
            }
            "offset" => o.offset = Some(amount(need(key)?, key)?),
            "size" => o.size = Some(amount(need(key)?, key)?),
            "number_ios" => o.number_ios = Some(whole(need(key)?, key, 1, 10_000_000)?),
            "runtime" => o.runtime = Some(duration(need(key)?, key)?),
            "stonewall" | "wait_for_previous" => o.stonewall = flag(value),
            "group_reporting" => o.group_reporting = flag(value),
            "ioengine" => o.sync_engine = value.is_some_and(|v| SYNC_ENGINES.contains(&v)),
            "direct" if value == Some("0") => self.warn(
                n,
                "direct=0: the lab models direct I/O; the page cache is not modelled",
            ),
            _ if ACCEPTED.contains(&key) => {}
            _ => self.warn(n, &format!("'{key}' is not modelled; ignored")),
        }
        Ok(())
    }

    /// The first of fio's per-direction values (`read,write[,trim]`), with a warning when
    /// they differ.
    fn first_of<'a>(&mut self, n: usize, key: &str, v: &'a str) -> &'a str {
        let mut parts = v.split(',').map(str::trim);
        let first = parts.next().unwrap_or_default();
        if parts.any(|p| !p.is_empty() && p != first) {
            self.warn(
                n,
                &format!(
                    "{key}={v}: separate read and write values; the lab uses '{first}' for both"
                ),
            );
        }
        first
    }

    fn warn(&mut self, n: usize, what: &str) {
        self.warnings.push(format!("line {n}: {what}"));
    }

    fn close_section(&mut self) {
        let Some(s) = self.section.take() else {
            return;
        };
        let o = s.options;
        let iodepth = if o.sync_engine {
            if o.iodepth.is_some_and(|d| d > 1) {
                self.warn(
                    s.line,
                    &format!("[{}]: a synchronous ioengine keeps one I/O in flight, whatever iodepth says", s.name),
                );
            }
            1
        } else {
            o.iodepth.unwrap_or(1)
        };
        // fio's defaults.
        let rw = o.rw.unwrap_or(Rw::Read);
        let rwmixread = o.rwmixread.unwrap_or(50);
        let rate = o.rate_iops.map(|(read, write)| {
            let total = total_rate(rw, read, write);
            if rw.fixed_read_percent().is_none() {
                let w = write.unwrap_or(read);
                let share = 100.0 * read / (read + w);
                if (share - f64::from(rwmixread)).abs() > 1.0 {
                    self.warn(
                        s.line,
                        &format!(
                            "[{}]: rate_iops caps reads at {read} and writes at {w} a second, {share:.0}% reads where rwmixread={rwmixread} (fio then runs the caps' mix); the lab offers their total, {total}, in the job's mix (write rate_iops=READS,WRITES in the mix to keep it)",
                            s.name
                        ),
                    );
                }
            }
            (total, o.rate_process.unwrap_or(Spacing::Linear))
        });
        let job = Job {
            name: s.name,
            line: s.line,
            rw,
            rwmixread,
            sizes: o.bs.unwrap_or_else(|| BlockSizes::one(4096)),
            iodepth,
            numjobs: o.numjobs.unwrap_or(1),
            rate,
            offset: o.offset.unwrap_or(Amount::Bytes(0)),
            size: o.size,
            number_ios: o.number_ios,
            runtime: o.runtime,
        };
        self.jobs.push((job, o.stonewall, o.group_reporting));
    }

    fn finish(mut self) -> Result<JobFile, FileError> {
        self.close_section();
        if self.problems.is_empty() && self.jobs.is_empty() {
            self.problem(
                0,
                "no job sections ([name] followed by option=value lines)".into(),
            );
        }
        let clones: u32 = self.jobs.iter().map(|(j, _, _)| j.numjobs).sum();
        if self.problems.is_empty() && clones as usize > MAX_STREAMS * 4 {
            self.problem(
                0,
                format!(
                    "{clones} jobs with their clones; the lab runs at most {}",
                    MAX_STREAMS * 4
                ),
            );
        }
        if !self.problems.is_empty() {
            return Err(self.problems);
        }
        let mut groups: Vec<Group> = Vec::new();
        for (job, stonewall, reporting) in self.jobs {
            match groups.last_mut() {
                Some(g) if !stonewall => {
                    g.group_reporting |= reporting;
                    g.jobs.push(job);
                }
                _ => groups.push(Group {
                    jobs: vec![job],
                    group_reporting: reporting,
                }),
            }
        }
        Ok(JobFile {
            groups,
            warnings: self.warnings,
        })
    }
}

/// A whole number in `lo..=hi`, as the option `key`.
fn whole<T: TryFrom<u64> + Into<u64> + Copy + fmt::Display>(
    v: &str,
    key: &str,
    lo: T,
    hi: T,
) -> Result<T, String> {
    let n: u64 = v
        .trim()
        .parse()
        .map_err(|_| format!("{key}={v}: expected a whole number"))?;
    if n < lo.into() || n > hi.into() {
        return Err(format!("{key}={v}: out of range (allowed: {lo}..={hi})"));
    }
    T::try_from(n).map_err(|_| format!("{key}={v}: out of range"))
}

/// A time as fio writes `runtime`: seconds, or with a unit (`us`, `ms`, `s`, `m`, `h`, `d`).
fn duration(v: &str, key: &str) -> Result<Nanos, String> {
    let t = v.trim().to_ascii_lowercase();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let per: u64 = match unit {
        "" | "s" => 1_000_000_000,
        "us" => 1_000,
        "ms" => 1_000_000,
        "m" => 60_000_000_000,
        "h" => 3_600_000_000_000,
        "d" => 86_400_000_000_000,
        _ => {
            return Err(format!(
                "{key}={v}: expected a time such as 60, 30s, 500ms or 2m"
            ))
        }
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{key}={v}: expected a time such as 60, 30s, 500ms or 2m"))?;
    match n.checked_mul(per) {
        Some(ns) if ns > 0 => Ok(Nanos(ns)),
        _ => Err(format!(
            "{key}={v}: out of range (above 0, at most a few centuries)"
        )),
    }
}

/// A size or offset as fio writes it: bytes with an optional k/m/g/t suffix (powers of 1024,
/// fio's default `kb_base`), or a percentage of the drive.
fn amount(v: &str, key: &str) -> Result<Amount, String> {
    let bad = || format!("{key}={v}: expected a size such as 8g, 512m or 25%");
    let t = v.trim().to_ascii_lowercase();
    if let Some(p) = t.strip_suffix('%') {
        let pct: f64 = p.trim().parse().map_err(|_| bad())?;
        if !(pct.is_finite() && (0.0..=100.0).contains(&pct)) {
            return Err(format!("{key}={v}: a percentage must be 0..=100"));
        }
        return Ok(Amount::Percent(pct));
    }
    let t = t
        .strip_suffix("ib")
        .or_else(|| t.strip_suffix('b'))
        .unwrap_or(&t);
    let (digits, shift) = match t.chars().last() {
        Some('k') => (&t[..t.len() - 1], 10),
        Some('m') => (&t[..t.len() - 1], 20),
        Some('g') => (&t[..t.len() - 1], 30),
        Some('t') => (&t[..t.len() - 1], 40),
        _ => (t, 0),
    };
    let n: u64 = digits.trim().parse().map_err(|_| bad())?;
    n.checked_mul(1 << shift)
        .filter(|b| *b < 1 << 60)
        .map(Amount::Bytes)
        .ok_or_else(|| format!("{key}={v}: too large"))
}

/// The requests a second a job's `rate_iops` offers in all. fio caps reads and writes
/// separately (one value caps both), so a pure pattern is offered its own direction's cap and
/// a mixed one the sum of both caps: fio 3.33 with `rwmixread=70 rate_iops=1000` (ioengine
/// null) ran 1,000 reads and 1,000 writes a second, and with `rate_iops=700,300` 700 and 300.
fn total_rate(rw: Rw, read: f64, write: Option<f64>) -> f64 {
    match (rw.fixed_read_percent(), write) {
        (Some(0), Some(w)) => w,
        (Some(_), _) => read,
        (None, w) => read + w.unwrap_or(read),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn global_options_are_the_defaults_of_the_jobs_after_them() {
        let f = parse("[global]\nrw=randread\niodepth=8\n[a]\n[b]\niodepth=2\n").unwrap();
        let jobs = &f.groups[0].jobs;
        assert_eq!((jobs[0].rw, jobs[0].iodepth), (Rw::RandRead, 8));
        assert_eq!((jobs[1].rw, jobs[1].iodepth), (Rw::RandRead, 2));
    }

    #[test]
    fn stonewall_starts_a_group_that_runs_after_the_ones_before() {
        let f = parse("[a]\n[b]\n[c]\nstonewall\n[d]\n").unwrap();
        let names: Vec<Vec<&str>> = f
            .groups
            .iter()
            .map(|g| g.jobs.iter().map(|j| j.name.as_str()).collect())
            .collect();
        assert_eq!(names, [vec!["a", "b"], vec!["c", "d"]]);
    }

    #[test]
    fn runtime_reads_as_fio_writes_it_and_the_longest_ends_the_group() {
        let f = parse("[a]\nruntime=30\n[b]\nruntime=2m\n[c]\nruntime=500ms\n").unwrap();
        assert_eq!(f.groups[0].runtime(), Some(Nanos(120_000_000_000)));
        assert_eq!(f.groups[0].jobs[2].runtime, Some(Nanos::from_ms(500)));
        for bad in ["runtime=x", "runtime=5y", "runtime=0"] {
            assert!(parse(&format!("[a]\n{bad}\n")).is_err(), "{bad}");
        }
    }

    #[test]
    fn sizes_and_ranges_read_with_fio_units() {
        assert_eq!(amount("8g", "size"), Ok(Amount::Bytes(8 << 30)));
        assert_eq!(amount("512MiB", "size"), Ok(Amount::Bytes(512 << 20)));
        assert_eq!(amount("25%", "offset"), Ok(Amount::Percent(25.0)));
        assert_eq!(amount("4096", "offset"), Ok(Amount::Bytes(4096)));
        for bad in ["", "8x", "-1g", "101%", "99999999999999t"] {
            assert!(amount(bad, "size").is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn what_the_model_cannot_honour_is_named_once_and_ignored() {
        let f = parse("[a]\nverify=crc32c\nrw=randread:8\nbs=4k,64k\ndirect=0\n").unwrap();
        assert_eq!(f.warnings.len(), 4, "{:?}", f.warnings);
        assert!(f.warnings[0].starts_with("line 2: 'verify'"));
        assert_eq!(f.groups[0].jobs[0].sizes.largest(), 4096);
    }

    #[test]
    fn a_synchronous_engine_keeps_one_io_in_flight() {
        let f = parse("[a]\nioengine=psync\niodepth=32\n").unwrap();
        assert_eq!(f.groups[0].jobs[0].iodepth, 1);
        assert_eq!(f.warnings.len(), 1);
    }

    #[test]
    fn a_rate_offers_what_fio_runs_each_direction_at() {
        // fio 3.33 caps reads and writes apart: one value caps each, two values one each.
        let rate = |text: &str| parse(text).unwrap().groups[0].jobs[0].rate.unwrap().0;
        assert_eq!(rate("[a]\nrw=randread\nrate_iops=1000\n"), 1000.0);
        assert_eq!(rate("[a]\nrw=randwrite\nrate_iops=1000,400\n"), 400.0);
        assert_eq!(
            rate("[a]\nrw=randrw\nrwmixread=70\nrate_iops=700,300\n"),
            1000.0
        );
        let one = parse("[a]\nrw=randrw\nrwmixread=70\nrate_iops=1000\n").unwrap();
        assert_eq!(one.groups[0].jobs[0].rate.unwrap().0, 2000.0);
        assert!(
            one.warnings[0].contains("50% reads where rwmixread=70"),
            "{:?}",
            one.warnings
        );
    }

    #[test]
    fn bad_files_list_their_first_problems_by_line_then_count_the_rest() {
        let text = "[a]\nbs=3k\niodepth=0\nrw=sideways\nnumjobs=x\nrate_iops=-1\nsize=huge\nrwmixread=200\n";
        let e = parse(text).unwrap_err();
        assert_eq!(e.total, 7);
        let lines: Vec<usize> = e.problems.iter().map(|p| p.0).collect();
        assert_eq!(lines, [2, 3, 4, 5, 6]);
        let shown = e.to_string();
        assert!(shown.starts_with("job file line 2: block size"), "{shown}");
        assert!(shown.ends_with("... and 2 more problems"), "{shown}");
        assert_eq!(
            parse("").unwrap_err().to_string(),
            "job file: no job sections ([name] followed by option=value lines)"
        );
        assert!(parse("bs=4k\n[a]\n")
            .unwrap_err()
            .to_string()
            .contains("line 1"));
        assert!(parse("\0\u{1}ELF")
            .unwrap_err()
            .to_string()
            .contains("binary"));
        let big = "[a]\n".repeat(MAX_JOB_FILE_BYTES / 4 + 1);
        assert!(parse(&big).unwrap_err().to_string().contains("larger than"));
    }
}
