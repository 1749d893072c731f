//! `lab run JOBFILE`: a fio job file's groups run one after another on the drive, each group's
//! jobs side by side, printed per job (per clone with `numjobs`) or, with `group_reporting`,
//! per group. A group ends when its I/Os are measured or at its longest `runtime` of simulated
//! time, whichever comes first. Warnings about options the model ignores go to stderr, one line
//! each.

use std::fmt::Write as _;

use parallelism_model::fio::{self, JobFigures};
use parallelism_model::stats::{LatencySummary, RunResult};
use parallelism_model::time::SimTime;
use parallelism_model::workload::jobfile::{self, Group};
use parallelism_model::{RunOptions, Simulation};
use serde_json::json;

use crate::cli::{self, Format};
use crate::{anatomy, Fail};

/// One printed line: a job's clone, or a whole group.
struct Row {
    group: usize,
    job: String,
    pattern: String,
    bs: String,
    iodepth: u32,
    offered_iops: Option<f64>,
    iops: f64,
    bw_mb_s: f64,
    latency: LatencySummary,
    /// Each direction's latency (`None`: the row had none of it).
    read_latency: Option<LatencySummary>,
    write_latency: Option<LatencySummary>,
    saturated: bool,
    /// The share of its I/Os that were reads (0..=1), and how many it measured.
    read_share: f64,
    ios: u64,
}

pub fn run(a: &cli::RunJobArgs) -> Result<String, Fail> {
    let text = crate::read_text(&a.file, jobfile::MAX_JOB_FILE_BYTES)?;
    let file = jobfile::parse(&text)?;
    for w in &file.warnings {
        eprintln!("lab: {}: {w}", a.file.display());
    }
    let drive = a.drive.drive()?;
    let (mut rows, mut results) = (Vec::new(), Vec::new());
    for (g, group) in file.groups.iter().enumerate() {
        let options = RunOptions {
            anatomy: a.anatomy,
            ..a.run.options()
        };
        let spec = group.spec(&drive, a.state, options);
        let mut run = spec.check()?;
        if let Some(limit) = a.power.limit() {
            run = run.with_power_limit(limit)?;
        }
        let mut sim = Simulation::new(&run);
        if let Some(runtime) = group.runtime() {
            sim.stop_at(SimTime(runtime.0));
        }
        while !sim.step(u64::MAX) {}
        let result = sim.result()?;
        rows.extend(rows_of(g + 1, group, &result));
        results.push(result);
    }
    if a.anatomy {
        return jobs_anatomy(&file.groups, &results, a.output.format);
    }
    if a.as_fio {
        return Ok(as_fio(&rows));
    }
    render(&rows, a.output.format)
}

/// Each group's anatomy (fio's group report), or each job's, named as the table names it.
fn jobs_anatomy(groups: &[Group], results: &[RunResult], format: Format) -> Result<String, Fail> {
    let mut items = Vec::new();
    for (g, (group, r)) in groups.iter().zip(results).enumerate() {
        let named = |job: String| vec![("group", (g + 1).into()), ("job", job.into())];
        if group.group_reporting {
            items.push(anatomy::Item {
                fields: named(format!("group {}", g + 1)),
                anatomy: &r.anatomy,
            });
            continue;
        }
        let clones = group
            .jobs
            .iter()
            .flat_map(|j| (1..=j.numjobs).map(move |k| (j, k)));
        for ((job, k), s) in clones.zip(&r.streams) {
            let name = if job.numjobs > 1 {
                format!("{} ({k}/{})", job.name, job.numjobs)
            } else {
                job.name.clone()
            };
            items.push(anatomy::Item {
                fields: named(name),
                anatomy: &s.anatomy,
            });
        }
    }
    anatomy::render(&items, format)
}

/// A group's rows: one for the group, or one per stream (each job's clones in order).
fn rows_of(group: usize, g: &Group, r: &RunResult) -> Vec<Row> {
    if g.group_reporting {
        // fio's group report: the first job's description, the group's figures.
        let first = &g.jobs[0];
        let offered: Option<f64> = r.streams.iter().map(|s| s.offered_iops).sum();
        // The jobs' read shares weighted by what each clone completed.
        let shares = g
            .jobs
            .iter()
            .flat_map(|j| (0..j.numjobs).map(move |_| f64::from(j.read_percent())));
        let read_ios: f64 = shares
            .zip(&r.streams)
            .map(|(pct, s)| pct / 100.0 * s.measured_ios as f64)
            .sum();
        return vec![Row {
            group,
            job: format!("group {group}"),
            pattern: first.rw.to_string(),
            bs: first.sizes.to_string(),
            iodepth: first.iodepth,
            offered_iops: offered,
            iops: r.iops,
            bw_mb_s: r.bw_mb_s,
            latency: r.latency.clone(),
            read_latency: r.read_latency.clone(),
            write_latency: r.write_latency.clone(),
            saturated: r.saturated,
            read_share: read_ios / r.measured_ios.max(1) as f64,
            ios: r.measured_ios,
        }];
    }
    let clones = g
        .jobs
        .iter()
        .flat_map(|j| (1..=j.numjobs).map(move |k| (j, k)));
    clones
        .zip(&r.streams)
        .map(|((job, k), s)| Row {
            group,
            job: if job.numjobs > 1 {
                format!("{} ({k}/{})", job.name, job.numjobs)
            } else {
                job.name.clone()
            },
            pattern: job.rw.to_string(),
            bs: job.sizes.to_string(),
            iodepth: job.iodepth,
            offered_iops: s.offered_iops,
            iops: s.iops,
            bw_mb_s: s.bw_mb_s,
            latency: s.latency.clone(),
            read_latency: s.read_latency.clone(),
            write_latency: s.write_latency.clone(),
            saturated: s.saturated,
            read_share: f64::from(job.read_percent()) / 100.0,
            ios: s.measured_ios,
        })
        .collect()
}

/// The rows as fio's JSON output: one job each, named as the table names it.
fn as_fio(rows: &[Row]) -> String {
    let jobs: Vec<JobFigures> = rows
        .iter()
        .map(|r| {
            let mut options = vec![
                ("rw", r.pattern.clone()),
                ("bs", r.bs.clone()),
                ("iodepth", r.iodepth.to_string()),
            ];
            if let Some(rate) = r.offered_iops {
                options.push(("rate_iops", format!("{rate:.0}")));
            }
            JobFigures {
                name: r.job.clone(),
                options,
                iops: r.iops,
                bw_mb_s: r.bw_mb_s,
                ios: r.ios,
                read_share: r.read_share,
                read_latency: r.read_latency.as_ref().unwrap_or(&r.latency),
                write_latency: r.write_latency.as_ref().unwrap_or(&r.latency),
            }
        })
        .collect();
    fio::jobs_json(&jobs)
}

fn render(rows: &[Row], format: Format) -> Result<String, Fail> {
    Ok(match format {
        Format::Json => rows_json(rows)?,
        Format::Csv => rows_csv(rows),
        Format::Table => rows_table(rows),
    })
}

fn rows_json(rows: &[Row]) -> Result<String, Fail> {
    let items: Vec<_> = rows
        .iter()
        .map(|r| {
            json!({
                "group": r.group,
                "job": r.job,
                "rw": r.pattern,
                "bs": r.bs,
                "iodepth": r.iodepth,
                "rate_iops": r.offered_iops,
                "ios": r.ios,
                "iops": r.iops,
                "bw_mb_s": r.bw_mb_s,
                "lat_mean_us": r.latency.mean_us,
                "lat_p99_us": r.latency.p99_us,
                "read_lat": r.read_latency,
                "write_lat": r.write_latency,
                "saturated": r.saturated,
            })
        })
        .collect();
    crate::json(&items)
}

fn rows_csv(rows: &[Row]) -> String {
    let mut s = String::from(
        "group,job,rw,bs,iodepth,rate_iops,iops,bw_mb_s,lat_mean_us,lat_p99_us,saturated\n",
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{:.0},{:.1},{:.1},{:.1},{}",
            r.group,
            r.job.replace(',', " "),
            r.pattern,
            r.bs,
            r.iodepth,
            r.offered_iops
                .map(|v| format!("{v:.0}"))
                .unwrap_or_default(),
            r.iops,
            r.bw_mb_s,
            r.latency.mean_us,
            r.latency.p99_us,
            r.saturated
        );
    }
    s
}

/// A line per row; a row of reads and writes adds each direction's latency below it.
fn rows_table(rows: &[Row]) -> String {
    let mut s = format!(
        "{:>5} {:<20} {:<9} {:<14} {:>7} {:>9} {:>10} {:>9} {:>9} {:>9}\n",
        "group", "job", "rw", "bs", "iodepth", "rate", "IOPS", "MB/s", "mean µs", "p99 µs"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:>5} {:<20} {:<9} {:<14} {:>7} {:>9} {:>10.0} {:>9.1} {:>9.1} {:>9.1}{}",
            r.group,
            r.job,
            r.pattern,
            r.bs,
            r.iodepth,
            r.offered_iops
                .map(|v| format!("{v:.0}"))
                .unwrap_or_else(|| "-".into()),
            r.iops,
            r.bw_mb_s,
            r.latency.mean_us,
            r.latency.p99_us,
            if r.saturated { "  saturated" } else { "" }
        );
        // A group of reads and writes: each direction's latency on a line of its own.
        if let (Some(reads), Some(writes)) = (&r.read_latency, &r.write_latency) {
            for (what, l) in [("reads", reads), ("writes", writes)] {
                let _ = writeln!(
                    s,
                    "{:>5} {:<20} mean {:.1} µs, p99 {:.1} µs",
                    "",
                    format!("  {what}"),
                    l.mean_us,
                    l.p99_us
                );
            }
        }
    }
    s
}
