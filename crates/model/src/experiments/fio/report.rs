//! From fio's reports, whatever the format, to the points the lab draws and fits: one rule for
//! the depth the drive saw, for clones, for rates and for what a job lacks.
//!
//! What always holds: a point's `iodepth` is the most requests the drive had in flight from it,
//! `numjobs x iodepth` (fio keeps `iodepth` in flight per process); clones of one job (fio's
//! per-process reports without `group_reporting`) become one point, since the drive served them
//! together; a job that cannot become a point is skipped with its line and the reason, never
//! dropped silently; every figure is finite and non-negative.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::config::Rw;

/// What a format reader gives for one job's report (one process, a group of clones reported
/// as one, or a `group_reporting` group).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Report {
    /// The line where the report starts (1-based), for messages.
    pub line: usize,
    pub name: String,
    pub group: u32,
    /// fio's error code for the job (0: none).
    pub error: i64,
    /// The processes this report covers, where the report says (`jobs=` in the normal text).
    pub processes: Option<u32>,
    pub options: Options,
    pub read: Direction,
    pub write: Direction,
    /// Share of the time at each depth of fio's distribution (`<=1, 2, 4, 8, 16, 32, >=64`),
    /// in percent: what a terse line has in place of the job's options.
    pub depths: Option<[f64; 7]>,
}

/// The job options a report gives (each a process's own: fio applies them per clone).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Options {
    pub rw: Option<String>,
    pub bs_bytes: Option<u32>,
    pub iodepth: Option<u32>,
    pub numjobs: Option<u32>,
    /// The job's `rate_iops`, over its directions, per process.
    pub rate_iops: Option<f64>,
    /// fio's `group_reporting`: a report may cover every job of its group.
    pub group_reporting: bool,
}

/// One direction of a report.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Direction {
    /// I/Os completed; `None` where the format gives only a rate (then reckoned from it).
    pub ios: Option<f64>,
    pub iops: f64,
    pub bytes_per_s: f64,
    /// How long the direction ran, for reckoning its I/Os.
    pub runtime_ms: Option<f64>,
    pub clat_mean_ns: Option<f64>,
    pub lat_mean_ns: Option<f64>,
    pub clat_p99_ns: Option<f64>,
}

impl Direction {
    /// I/Os completed, as the report gives them or as its rate and runtime say.
    fn ios(&self) -> f64 {
        self.ios
            .or_else(|| self.runtime_ms.map(|ms| self.iops * ms / 1e3))
            .unwrap_or(self.iops)
    }
}

/// Which of fio's output formats a file held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FioFormat {
    /// `--output-format=json` or `json+`.
    Json,
    /// The default, human-readable report.
    Normal,
    /// `--output-format=terse` (`--minimal`), of this terse version.
    Terse(u8),
}

impl fmt::Display for FioFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FioFormat::Json => f.write_str("JSON"),
            FioFormat::Normal => f.write_str("normal text"),
            FioFormat::Terse(v) => write!(f, "terse v{v}"),
        }
    }
}

/// One fio job's result: a point on the lab's charts and two cells of a fit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FioPoint {
    pub job: String,
    /// Where the job's report starts in the file (1-based).
    pub line: usize,
    pub rw: Option<Rw>,
    pub bs_bytes: Option<u32>,
    /// The most requests the drive had in flight from this job: `numjobs x iodepth`.
    pub iodepth: u32,
    /// fio processes behind the point (`numjobs`): clones reported apart are one point.
    pub processes: u32,
    /// The rate the job was held to (fio's `rate_iops`, over its directions and processes):
    /// an open loop, where `iodepth` is only the most it may have in flight.
    pub rate_iops: Option<f64>,
    /// The file did not state the depth (fio's terse format holds no job options): it is
    /// reckoned from fio's depth distribution and Little's law.
    pub depth_reckoned: bool,
    /// Read share of completed I/Os, in percent.
    pub read_percent: f64,
    pub iops: f64,
    /// MB/s (10^6 bytes per second).
    pub bw_mb_s: f64,
    /// Mean completion latency over reads and writes, weighted by I/O count.
    pub lat_mean_us: f64,
    /// Mean total latency (fio's `lat`: submission and completion), weighted the same way,
    /// when fio gave it for every direction with I/Os. The model's latency runs from the
    /// host's submission to the completion, so a fit compares it with this.
    pub lat_total_mean_us: Option<f64>,
    /// 99th percentile completion latency of the direction with more I/Os, when fio gave it.
    pub lat_p99_us: Option<f64>,
}

impl FioPoint {
    /// Requests in flight on average, by Little's law: throughput x mean latency (total where
    /// fio gave it). A closed loop keeps about `iodepth`; far fewer means the job was held
    /// back (a rate, a think time, or a synchronous engine that ignores `iodepth`).
    ///
    /// ```
    /// # use parallelism_model::fio::parse_output;
    /// let text = "j: (groupid=0, jobs=1): err= 0: pid=1\n  read: IOPS=10.0k, BW=39.1MiB/s\n    clat (usec): min=1, max=900, avg=100.00, stdev=1\n";
    /// let p = &parse_output(text).unwrap().points[0];
    /// assert!((p.in_flight() - 1.0).abs() < 1e-9);
    /// ```
    pub fn in_flight(&self) -> f64 {
        self.iops * self.lat_total_mean_us.unwrap_or(self.lat_mean_us) / 1e6
    }
}

/// A job of the file that gave no point.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Skipped {
    pub line: usize,
    pub job: String,
    pub why: String,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => write!(f, "job '{}': {}", self.job, self.why),
            n => write!(f, "line {n}, job '{}': {}", self.job, self.why),
        }
    }
}

/// What a file of fio's output holds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FioOutput {
    pub format: FioFormat,
    /// fio's version as the file names it (`fio-3.33`), where it does.
    pub fio_version: Option<String>,
    /// One point per job (clones merged), in the file's order.
    pub points: Vec<FioPoint>,
    /// The jobs that gave no point, and why.
    pub skipped: Vec<Skipped>,
}

impl FioOutput {
    /// What the file was, in words: `fio's normal text of fio-3.33` (`lab import` and the
    /// page say it alike).
    ///
    /// ```
    /// # use parallelism_model::fio::parse_output;
    /// let out = parse_output("fio-3.33\nj: (groupid=0, jobs=1): err= 0: pid=1\n  read: IOPS=1000, BW=3.9MiB/s\n    clat (usec): min=1, max=9, avg=90.0, stdev=1\n").unwrap();
    /// assert_eq!(out.kind(), "fio's normal text of fio-3.33");
    /// ```
    pub fn kind(&self) -> String {
        match &self.fio_version {
            Some(v) => format!("fio's {} of {v}", self.format),
            None => format!("fio's {}", self.format),
        }
    }
}

/// Longest job name kept.
const MAX_NAME_CHARS: usize = 64;
/// Deepest depth a job may state (fio's own limit is 65,536 per process).
const MAX_DEPTH: u32 = 65_536;
/// Most processes a job may state.
const MAX_PROCESSES: u32 = 4_096;

/// The points of `reports` (clones merged), and the jobs skipped.
pub(super) fn points(reports: Vec<Report>) -> (Vec<FioPoint>, Vec<Skipped>) {
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for (i, clones) in clone_runs(reports).into_iter().enumerate() {
        let name = match clean_name(&clones[0].name) {
            unnamed if unnamed.is_empty() => format!("job {}", i + 1),
            name => name,
        };
        match point(&clones, &name) {
            Ok(p) => out.push(p),
            Err(why) => skipped.push(Skipped {
                line: clones[0].line,
                job: name,
                why,
            }),
        }
    }
    (out, skipped)
}

/// Reports in runs of clones: consecutive per-process reports of one job (same name and
/// group, no `jobs=` count above one). fio writes clones one after the other under the job's
/// name; a job with `numjobs=1` or a grouped report stands alone.
fn clone_runs(reports: Vec<Report>) -> Vec<Vec<Report>> {
    let mut runs: Vec<Vec<Report>> = Vec::new();
    for r in reports {
        let single = r.processes.is_none_or(|n| n <= 1);
        let joins = runs.last().is_some_and(|run| {
            let first = &run[0];
            // Where the options give numjobs, a run holds at most that many; where they do
            // not (the normal text and terse lines), consecutive reports of one job are its.
            let room = first.options.numjobs.is_none_or(|n| run.len() < n as usize);
            single
                && first.processes.is_none_or(|n| n <= 1)
                && first.name == r.name
                && first.group == r.group
                && room
        });
        match runs.last_mut() {
            Some(run) if joins => run.push(r),
            _ => runs.push(vec![r]),
        }
    }
    runs
}

fn clean_name(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_control())
        .take(MAX_NAME_CHARS)
        .collect()
}

/// One point from a run of clones (often a run of one).
fn point(clones: &[Report], name: &str) -> Result<FioPoint, String> {
    let first = &clones[0];
    let processes = usable_processes(clones)?;
    let read = merge(clones.iter().map(|r| r.read));
    let write = merge(clones.iter().map(|r| r.write));
    let (r_ios, w_ios) = (read.ios(), write.ios());
    let ios = r_ios + w_ios;
    if !(ios > 0.0 && read.iops + write.iops > 0.0) {
        return Err("it completed no reads or writes".into());
    }
    let weighted = |r: Option<f64>, w: Option<f64>| -> Option<f64> {
        let r = if r_ios > 0.0 { r? } else { 0.0 };
        let w = if w_ios > 0.0 { w? } else { 0.0 };
        Some((r * r_ios + w * w_ios) / ios / 1e3)
    };
    let clat = weighted(
        read.clat_mean_ns.or(read.lat_mean_ns),
        write.clat_mean_ns.or(write.lat_mean_ns),
    )
    .ok_or("it has no latency figures")?;
    let total = weighted(read.lat_mean_ns, write.lat_mean_ns);
    let iops = read.iops + write.iops;
    let bytes_per_s = read.bytes_per_s + write.bytes_per_s;
    let counted = (clones.len() > 1 || first.processes.is_some()).then_some(processes);
    let in_flight = iops * total.unwrap_or(clat) / 1e6;
    let (per_process, processes, reckoned) =
        depth_and_processes(first, processes, counted, in_flight);
    Ok(FioPoint {
        job: name.to_string(),
        line: first.line,
        rw: first
            .options
            .rw
            .as_deref()
            .and_then(|s| s.split(':').next()?.trim().parse::<Rw>().ok()),
        bs_bytes: first
            .options
            .bs_bytes
            .or_else(|| reckon_bs(bytes_per_s, iops)),
        iodepth: per_process * processes,
        processes,
        rate_iops: first.options.rate_iops.map(|r| r * f64::from(processes)),
        depth_reckoned: reckoned,
        read_percent: 100.0 * r_ios / ios,
        iops,
        bw_mb_s: bytes_per_s / 1e6,
        lat_mean_us: clat,
        lat_total_mean_us: total,
        lat_p99_us: if r_ios >= w_ios {
            read.clat_p99_ns
        } else {
            write.clat_p99_ns
        }
        .map(|ns| ns / 1e3),
    })
}

/// The processes a run of clones covers: a grouped report says how many; clones reported
/// apart are counted; a lone report of a job with numjobs > 1 is fio's group report of them
/// all. Refused when fio reports an error for one, or when the count or the job's depth is
/// not one the lab reads.
fn usable_processes(clones: &[Report]) -> Result<u32, String> {
    let first = &clones[0];
    if let Some(e) = clones.iter().find(|r| r.error != 0) {
        return Err(format!("fio reports error {} for it", e.error));
    }
    let processes = match clones.len() {
        1 => first
            .processes
            .unwrap_or_else(|| first.options.numjobs.unwrap_or(1)),
        n => u32::try_from(n).unwrap_or(u32::MAX),
    };
    if !(1..=MAX_PROCESSES).contains(&processes) {
        return Err(format!("numjobs {processes} is not one the lab reads"));
    }
    if let Some(q) = first
        .options
        .iodepth
        .filter(|q| !(1..=MAX_DEPTH).contains(q))
    {
        return Err(format!("iodepth {q} is not a usable depth"));
    }
    Ok(processes)
}

/// Each process's depth and the processes, and whether the lab reckoned them: from the job's
/// `iodepth` where its options give one, else from fio's depth distribution and the I/Os
/// `in_flight` (`counted`: the processes where the report counts them); a grouped report of
/// jobs the options call one is counted from what was in flight.
fn depth_and_processes(
    first: &Report,
    processes: u32,
    counted: Option<u32>,
    in_flight: f64,
) -> (u32, u32, bool) {
    let (per_process, processes, reckoned) = match (first.options.iodepth, first.depths) {
        (Some(q), _) => (q, processes, false),
        (None, Some(d)) => {
            let (q, n) = reckon_depth(&d, in_flight, counted);
            (q, n, true)
        }
        (None, None) => (1, processes, false),
    };
    match grouped_jobs(first, per_process * processes, in_flight) {
        Some(k) => (per_process, processes * k, true),
        None => (per_process, processes, reckoned),
    }
}

/// One direction of clones served together: I/Os and rates add up; latencies are weighted by
/// I/Os. fio gives no percentile of clones' union, so the p99 is their I/O-weighted mean
/// (clones of one job meet the same drive, so theirs differ little).
fn merge(dirs: impl Iterator<Item = Direction>) -> Direction {
    let dirs: Vec<Direction> = dirs.collect();
    if dirs.len() == 1 {
        return dirs[0];
    }
    let ios: f64 = dirs.iter().map(Direction::ios).sum();
    let mean = |f: fn(&Direction) -> Option<f64>| -> Option<f64> {
        if ios <= 0.0 {
            return None;
        }
        let mut sum = 0.0;
        for d in dirs.iter().filter(|d| d.ios() > 0.0) {
            sum += f(d)? * d.ios();
        }
        Some(sum / ios)
    };
    Direction {
        ios: Some(ios),
        iops: dirs.iter().map(|d| d.iops).sum(),
        bytes_per_s: dirs.iter().map(|d| d.bytes_per_s).sum(),
        runtime_ms: None,
        clat_mean_ns: mean(|d| d.clat_mean_ns),
        lat_mean_ns: mean(|d| d.lat_mean_ns),
        clat_p99_ns: mean(|d| d.clat_p99_ns),
    }
}

/// How many jobs a `group_reporting` report covers where the file does not say (fio's JSON
/// gives a group of different jobs under its first job's name and options): Little's law
/// finds a whole multiple of the stated depth in flight (within 10%), or `None`.
fn grouped_jobs(first: &Report, depth: u32, in_flight: f64) -> Option<u32> {
    if !first.options.group_reporting || first.options.iodepth.is_none() {
        return None;
    }
    let depth = f64::from(depth);
    let k = (in_flight / depth).round();
    (k >= 2.0 && (in_flight - k * depth).abs() <= 0.1 * k * depth && k <= f64::from(MAX_PROCESSES))
        .then_some(k as u32)
}

/// Lower bounds of fio's depth distribution's buckets (`<=1, 2, 4, 8, 16, 32, >=64`).
const DEPTH_BUCKETS: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];

/// A process's depth and the processes, where the file states neither: Little's law (in
/// flight = throughput x latency) placed within the bucket of fio's depth distribution (kept
/// per process) that held the most time. The bucket alone says only "8 to 15"; the law alone
/// reads a little low, since fio's latency leaves out the moment between a completion and the
/// next submission. Where the processes are not `counted` (a terse line of a grouped report)
/// and the law exceeds the bucket, the report covers several processes at the bucket's depth.
fn reckon_depth(depths: &[f64; 7], in_flight: f64, counted: Option<u32>) -> (u32, u32) {
    let mut most = 0;
    for (i, share) in depths.iter().enumerate() {
        if *share > depths[most] {
            most = i;
        }
    }
    let low = DEPTH_BUCKETS[most];
    let high = DEPTH_BUCKETS
        .get(most + 1)
        .map_or(MAX_DEPTH, |next| next - 1);
    if !in_flight.is_finite() {
        return (low, counted.unwrap_or(1));
    }
    let within = |law: f64| (law.round().min(f64::from(MAX_DEPTH)) as u32).clamp(low, high);
    match counted {
        Some(n) => (within(in_flight / f64::from(n.max(1))), n),
        None if in_flight <= f64::from(high) + 0.5 => (within(in_flight), 1),
        None => {
            let n = (in_flight / f64::from(low))
                .round()
                .min(f64::from(MAX_PROCESSES));
            (low, (n as u32).max(1))
        }
    }
}

/// A block size where the file states none: bytes per I/O, as the nearest power of two within
/// 1% (block sizes almost always are one; fio's rounded figures are not exact), else as a
/// whole number of 512-byte sectors within 0.5%.
fn reckon_bs(bytes_per_s: f64, iops: f64) -> Option<u32> {
    let per_io = bytes_per_s / iops;
    if !per_io.is_finite() || !(512.0..=f64::from(u32::MAX)).contains(&per_io) {
        return None;
    }
    let near = |bs: f64, within: f64| ((per_io - bs).abs() <= within * bs).then_some(bs as u32);
    near(per_io.log2().round().exp2(), 0.01)
        .or_else(|| near((per_io / 512.0).round() * 512.0, 0.005))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads(iops: f64, clat_us: f64) -> Direction {
        Direction {
            ios: Some(iops * 2.0),
            iops,
            bytes_per_s: iops * 4096.0,
            runtime_ms: Some(2000.0),
            clat_mean_ns: Some(clat_us * 1e3),
            lat_mean_ns: Some(clat_us * 1e3 + 2e3),
            clat_p99_ns: Some(clat_us * 3e3),
        }
    }

    fn report(name: &str, numjobs: u32, processes: Option<u32>, iops: f64) -> Report {
        Report {
            line: 1,
            name: name.into(),
            processes,
            options: Options {
                rw: Some("randread".into()),
                bs_bytes: Some(4096),
                iodepth: Some(8),
                numjobs: Some(numjobs),
                rate_iops: None,
                group_reporting: false,
            },
            read: reads(iops, 100.0),
            ..Report::default()
        }
    }

    #[test]
    fn a_grouped_report_of_four_processes_at_depth_32_is_one_point_at_depth_128() {
        // The issue's case: numjobs=4, iodepth=32, group_reporting kept 128 in flight.
        let mut r = report("g", 4, Some(4), 40_000.0);
        r.options.iodepth = Some(32);
        let (p, skipped) = points(vec![r]);
        assert!(skipped.is_empty());
        assert_eq!((p[0].iodepth, p[0].processes), (128, 4));
    }

    #[test]
    fn four_clones_reported_apart_are_one_point_their_sums_and_weighted_latency() {
        let clones: Vec<Report> = [10_000.0, 10_000.0, 20_000.0, 20_000.0]
            .iter()
            .map(|&iops| report("c", 4, Some(1), iops))
            .collect();
        let (p, _) = points(clones);
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].iodepth, p[0].processes), (32, 4));
        assert!((p[0].iops - 60_000.0).abs() < 1e-9);
        assert!((p[0].bw_mb_s - 60_000.0 * 4096.0 / 1e6).abs() < 1e-9);
        assert!((p[0].lat_mean_us - 100.0).abs() < 1e-9);
        assert!((p[0].lat_total_mean_us.unwrap() - 102.0).abs() < 1e-9);
    }

    #[test]
    fn a_lone_report_of_a_job_with_numjobs_is_the_group_report_of_all_of_them() {
        // fio's JSON with group_reporting: one entry, numjobs in its options.
        let (p, _) = points(vec![report("j", 4, None, 40_000.0)]);
        assert_eq!((p[0].iodepth, p[0].processes), (32, 4));
    }

    #[test]
    fn jobs_of_another_name_or_group_are_not_clones() {
        let mut b = report("b", 2, Some(1), 1_000.0);
        b.group = 1;
        let (p, _) = points(vec![
            report("a", 2, Some(1), 1_000.0),
            report("a", 2, Some(1), 1_000.0),
            b.clone(),
            report("b", 2, Some(1), 1_000.0),
        ]);
        let depths: Vec<u32> = p.iter().map(|p| p.iodepth).collect();
        assert_eq!(
            depths,
            [16, 8, 8],
            "a's two clones, then b's lone reports in two groups"
        );
    }

    #[test]
    fn a_grouped_report_of_several_jobs_counts_them_by_littles_law() {
        // fio 3.16's JSON of three jobs at depth 32 under group_reporting: one entry, the
        // first job's options, 96 in flight.
        let mut r = report("job 1", 1, None, 30_000.0);
        r.options.iodepth = Some(32);
        r.options.group_reporting = true;
        r.read.lat_mean_ns = Some(3_200_000.0);
        let p = &points(vec![r.clone()]).0[0];
        assert_eq!((p.iodepth, p.processes, p.depth_reckoned), (96, 3, true));
        // Without group_reporting a report is one job's, whatever its latency.
        r.options.group_reporting = false;
        assert_eq!(points(vec![r]).0[0].iodepth, 32);
    }

    #[test]
    fn a_rate_limited_job_is_held_to_its_rate_times_its_processes() {
        let mut r = report("r", 2, Some(2), 3_900.0);
        r.options.rate_iops = Some(2_000.0);
        let (p, _) = points(vec![r]);
        assert_eq!(p[0].rate_iops, Some(4_000.0));
    }

    #[test]
    fn without_options_the_depth_is_reckoned_within_fios_depth_bucket() {
        // QD8 at 80,000 IOPS and 99 µs: Little's law gives 7.9, in the "8 to 15" bucket.
        let r = Report {
            read: reads(80_000.0, 97.0),
            depths: Some([0.1, 0.1, 0.1, 99.7, 0.0, 0.0, 0.0]),
            ..Report::default()
        };
        let (p, _) = points(vec![r.clone()]);
        assert_eq!((p[0].iodepth, p[0].depth_reckoned), (8, true));
        assert_eq!(p[0].bs_bytes, Some(4096), "bytes per I/O");
        assert_eq!(p[0].rw, None, "nothing says random or sequential");
        // A law reading below the bucket is raised to it.
        let mut fast = r.clone();
        fast.read = reads(80_000.0, 60.0);
        assert_eq!(points(vec![fast]).0[0].iodepth, 8);
        // Far above it, a lone line is a grouped report: 32 in flight at depth 8 is four.
        let mut grouped = r;
        grouped.read = reads(80_000.0, 398.0);
        let p = &points(vec![grouped]).0[0];
        assert_eq!((p.iodepth, p.processes), (32, 4));
    }

    #[test]
    fn a_job_that_did_nothing_or_failed_is_skipped_with_its_line() {
        let mut idle = report("idle", 1, None, 0.0);
        idle.line = 12;
        idle.read = Direction::default();
        let mut failed = report("failed", 1, None, 1_000.0);
        failed.error = 5;
        let (p, skipped) = points(vec![idle, failed, report("ok", 1, None, 1_000.0)]);
        assert_eq!(p.len(), 1);
        assert_eq!(
            skipped[0].to_string(),
            "line 12, job 'idle': it completed no reads or writes"
        );
        assert!(skipped[1].why.contains("error 5"), "{:?}", skipped[1]);
    }

    #[test]
    fn a_block_size_is_reckoned_as_a_power_of_two_or_whole_sectors() {
        assert_eq!(reckon_bs(4096.0 * 1000.0, 1000.0), Some(4096));
        assert_eq!(reckon_bs(4100.0 * 1000.0, 1000.0), Some(4096));
        // fio 2.1's JSON: 129,836 KiB/s at 253 IOPS is 513.2 KiB, a 512 KiB job.
        assert_eq!(reckon_bs(129_836.0 * 1024.0, 253.0), Some(524_288));
        assert_eq!(
            reckon_bs(12_288.0 * 1000.0, 1000.0),
            Some(12_288),
            "whole sectors"
        );
        assert_eq!(reckon_bs(4400.0 * 1000.0, 1000.0), None);
        assert_eq!(reckon_bs(100.0, 1000.0), None);
        assert_eq!(reckon_bs(1.0, 0.0), None);
    }
}
