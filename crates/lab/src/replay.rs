//! `lab replay FILE`: a block trace replayed on the drive, at its own times (open loop, with a
//! speed factor and an idle cap) or as fast as the drive allows at a depth (closed loop over
//! the trace's order), measured as the reviews measure their trace tests.

use std::fmt::Write as _;
use std::io::BufReader;
use std::path::Path;
use std::sync::Arc;

use parallelism_model::stats::{LatencySummary, RunResult};
use parallelism_model::time::Nanos;
use parallelism_model::workload::trace::{self, Adjusted, Trace};
use parallelism_model::workload::{Arrival, Stream, StreamsSpec};
use parallelism_model::{RunOptions, Simulation};
use serde_json::json;

use crate::cli::{self, Format};
use crate::Fail;

/// Largest trace file read (about 15 M lines of the MSR format); larger ones are refused at
/// once rather than read for minutes.
const MAX_TRACE_FILE_BYTES: u64 = 1 << 30;
/// Shortest bucket of a series (a microsecond: finer shows single requests, not a rate).
const MIN_SERIES_MS: f64 = 0.001;

pub fn replay(a: &cli::ReplayArgs) -> Result<String, Fail> {
    let drive = a.drive.drive()?;
    let trace = match (&a.file, a.workload) {
        (_, Some(workload)) => {
            let scale = a.scale.unwrap_or(1.0);
            if !(scale > 0.0 && scale <= 1.0) {
                return Err(Fail::Refused(format!(
                    "--scale {scale} is out of range (allowed: above 0 and at most 1)"
                )));
            }
            workload.trace(drive.user_bytes() as u64, scale, a.seed.unwrap_or(1))
        }
        (Some(_), None) if a.scale.is_some() || a.seed.is_some() => {
            return Err(Fail::Refused(
                "--scale and --seed shape a generated --workload, not a trace file".into(),
            ))
        }
        (Some(file), None) => read_trace(file, a)?,
        (None, None) => return Err(Fail::Refused("give a trace FILE or --workload NAME".into())),
    };
    let arrival = match a.iodepth {
        Some(iodepth) => Arrival::Closed { iodepth },
        None if !trace.timed => {
            return Err(Fail::Refused(
                "the trace has no times (a version 2 iolog without wait actions): replay it \
                 with --iodepth N"
                    .into(),
            ))
        }
        None => Arrival::Timed {
            speed: a.speed.unwrap_or(1.0),
            max_idle: a.max_idle_ms.map(|ms| Nanos((ms.max(0.0) * 1e6) as u64)),
            iodepth: a.device_depth,
        },
    };
    let trace = Arc::new(trace);
    let spec = StreamsSpec {
        drive,
        streams: vec![Stream::replay(Arc::clone(&trace), arrival)],
        state: a.state,
        options: RunOptions {
            anatomy: a.anatomy,
            ..RunOptions::default()
        },
    };
    let mut run = spec.check()?;
    if let Some(limit) = a.power.limit() {
        run = run.with_power_limit(limit)?;
    }
    let mut sim = Simulation::new(&run);
    if let Some(ms) = a.series_ms {
        if !(ms.is_finite() && ms >= MIN_SERIES_MS) {
            return Err(Fail::Refused(format!(
                "--series-ms {ms} is out of range (allowed: at least {MIN_SERIES_MS})"
            )));
        }
        sim.record_series(Nanos((ms * 1e6) as u64));
    }
    while !sim.step(u64::MAX) {}
    if a.anatomy {
        let item = crate::anatomy::Item {
            fields: vec![
                ("format", trace.format.id().into()),
                ("requests", trace.requests.len().into()),
            ],
            anatomy: &sim.result()?.anatomy,
        };
        return crate::anatomy::render(&[item], a.output.format);
    }
    let adjusted = trace.adjusted(run.drive().user_bytes() as u64);
    render(&trace, adjusted, &sim.result()?, a.output.format)
}

fn read_trace(path: &Path, a: &cli::ReplayArgs) -> Result<Trace, Fail> {
    let file = crate::open_capped(path, MAX_TRACE_FILE_BYTES)?;
    Ok(trace::read(BufReader::new(file), a.trace_format)?)
}

fn render(t: &Trace, adjusted: Adjusted, r: &RunResult, format: Format) -> Result<String, Fail> {
    let writes = t.requests.iter().filter(|q| q.write).count();
    let counts = Counts {
        reads: t.requests.len() - writes,
        writes,
    };
    Ok(match format {
        Format::Json => replay_json(t, adjusted, r, counts)?,
        Format::Csv if !r.series.is_empty() => series_csv(r),
        Format::Csv => summary_csv(t, adjusted, r, counts),
        Format::Table => replay_table(t, adjusted, r, counts),
    })
}

/// The trace's reads and writes.
#[derive(Clone, Copy)]
struct Counts {
    reads: usize,
    writes: usize,
}

fn secs(ns: u64) -> f64 {
    ns as f64 / 1e9
}

fn replay_json(
    t: &Trace,
    adjusted: Adjusted,
    r: &RunResult,
    counts: Counts,
) -> Result<String, Fail> {
    let Counts { reads, writes } = counts;
    crate::json(&json!({
        "format": t.format.id(),
        "requests": t.requests.len(),
        "reads": reads,
        "writes": writes,
        "skipped_lines": t.skipped,
        "zero_length_skipped": adjusted.zero_length,
        "wrapped": adjusted.wrapped,
        "elapsed_s": secs(r.measured_ns),
        "busy_s": secs(r.busy_ns),
        "data_rate_mb_s": r.busy_mb_s(),
        "mb_s": r.bw_mb_s,
        "iops": r.iops,
        "lat": r.latency,
        "read_lat": r.read_latency,
        "write_lat": r.write_latency,
        "mean_in_system": r.mean_in_system,
        "energy_j": r.energy_j(),
        "watts": r.power.average_w,
        "series": r.series,
    }))
}

/// The replay over time, a line per bucket.
fn series_csv(r: &RunResult) -> String {
    let mut s = String::from("start_s,iops,mb_s,lat_mean_us,mean_in_system\n");
    for p in &r.series {
        let _ = writeln!(
            s,
            "{:.6},{:.0},{:.2},{:.1},{:.3}",
            p.start_s, p.iops, p.mb_s, p.lat_mean_us, p.mean_in_system
        );
    }
    s
}

/// The whole replay on one line.
fn summary_csv(t: &Trace, adjusted: Adjusted, r: &RunResult, counts: Counts) -> String {
    let Counts { reads, writes } = counts;
    let lat = |l: &Option<LatencySummary>| {
        l.as_ref()
            .map(|l| format!("{:.1},{:.1}", l.mean_us, l.p99_us))
            .unwrap_or_else(|| ",".to_string())
    };
    format!(
        "requests,reads,writes,elapsed_s,busy_s,data_rate_mb_s,iops,lat_mean_us,lat_p99_us,read_lat_mean_us,read_lat_p99_us,write_lat_mean_us,write_lat_p99_us,energy_j,zero_length_skipped,wrapped\n\
         {},{reads},{writes},{:.6},{:.6},{:.1},{:.0},{:.1},{:.1},{},{},{:.3},{},{}\n",
        t.requests.len(),
        secs(r.measured_ns),
        secs(r.busy_ns),
        r.busy_mb_s(),
        r.iops,
        r.latency.mean_us,
        r.latency.p99_us,
        lat(&r.read_latency),
        lat(&r.write_latency),
        r.energy_j(),
        adjusted.zero_length,
        adjusted.wrapped
    )
}

fn replay_table(t: &Trace, adjusted: Adjusted, r: &RunResult, counts: Counts) -> String {
    let Counts { reads, writes } = counts;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "trace          {} requests ({reads} reads, {writes} writes; {}), {} other lines skipped",
        t.requests.len(),
        t.format,
        t.skipped
    );
    if !adjusted.is_empty() {
        let _ = writeln!(s, "adjusted       {adjusted}");
    }
    let _ = writeln!(
        s,
        "elapsed        {:.3} s, busy {:.3} s ({:.0}%)",
        secs(r.measured_ns),
        secs(r.busy_ns),
        100.0 * r.busy_ns as f64 / r.measured_ns.max(1) as f64
    );
    let _ = writeln!(
        s,
        "data rate      {:.1} MB/s over the busy time ({:.0} IOPS over the elapsed time)",
        r.busy_mb_s(),
        r.iops
    );
    for (what, l) in [
        ("all", Some(&r.latency)),
        ("reads", r.read_latency.as_ref()),
        ("writes", r.write_latency.as_ref()),
    ] {
        if let Some(l) = l {
            let _ = writeln!(
                s,
                "latency {what:<6} mean {:.1} µs, p99 {:.1} µs",
                l.mean_us, l.p99_us
            );
        }
    }
    let _ = writeln!(
        s,
        "energy         {:.2} J ({:.2} W on average)",
        r.energy_j(),
        r.power.average_w
    );
    if !r.series.is_empty() {
        let _ = writeln!(
            s,
            "\n{:>10} {:>10} {:>9} {:>10} {:>10}",
            "start s", "IOPS", "MB/s", "mean µs", "in system"
        );
        for p in &r.series {
            let _ = writeln!(
                s,
                "{:>10.3} {:>10.0} {:>9.1} {:>10.1} {:>10.2}",
                p.start_s, p.iops, p.mb_s, p.lat_mean_us, p.mean_in_system
            );
        }
    }
    s
}
