//! Points: the model's sweeps, and the fio side of the same workloads (job files out, results in).

use std::fmt::Write as _;
use std::path::Path;

use parallelism_model::power::per_watt;
use parallelism_model::sweep::{self, LoadPoint, SweepPoint};
use parallelism_model::RunOptions;

use crate::cli::{self, Format};
use crate::{anatomy, json, Fail};

pub fn sweep(a: &cli::SweepArgs) -> Result<String, Fail> {
    let drive = a.drive.drive()?;
    let workload = a.workload.workload()?;
    // The anatomy is kept only when it is printed: the runs are faster without it.
    let options = RunOptions {
        anatomy: a.anatomy,
        ..a.run.options()
    };
    let (state, power) = (a.state, a.power.limit());
    if let Some(rates) = &a.rate_iops {
        // The host lets at most the deepest listed depth reach the device.
        let iodepth = a.workload.iodepth.0.iter().copied().max().unwrap_or(1);
        let w = parallelism_model::Workload {
            iodepth,
            ..workload
        };
        let points =
            sweep::over_offered_load(&drive, w, state, options, power, &rates.0, a.rate_process)?;
        // The most the drive completes at that depth: past it the host's queue grows.
        if a.anatomy {
            return load_anatomy(&points, a.output.format);
        }
        let capacity = sweep::over_queue_depth(&drive, w, state, options, power, &[iodepth])?;
        return render_load_points(&points, &capacity[0], a.output.format);
    }
    let points = if a.mix_sweep {
        sweep::over_read_share(&drive, workload, state, options, power, &sweep::MIX_STEPS)?
    } else {
        let iodepths = &a.workload.iodepth.0;
        sweep::over_queue_depth(&drive, workload, state, options, power, iodepths)?
    };
    if a.as_fio {
        return Ok(parallelism_model::fio::output_json(&workload, &points));
    }
    if a.anatomy {
        return points_anatomy(&points, a.output.format);
    }
    render_points(&points, a.output.format)
}

fn points_anatomy(points: &[SweepPoint], format: Format) -> Result<String, Fail> {
    let items: Vec<_> = points
        .iter()
        .map(|p| anatomy::Item {
            fields: vec![
                ("iodepth", p.iodepth.into()),
                ("read_percent", p.read_percent.into()),
            ],
            anatomy: &p.result.anatomy,
        })
        .collect();
    anatomy::render(&items, format)
}

fn load_anatomy(points: &[LoadPoint], format: Format) -> Result<String, Fail> {
    let items: Vec<_> = points
        .iter()
        .map(|p| anatomy::Item {
            fields: vec![
                ("offered_iops", p.offered_iops.into()),
                ("iodepth", p.iodepth.into()),
                ("read_percent", p.read_percent.into()),
            ],
            anatomy: &p.result.anatomy,
        })
        .collect();
    anatomy::render(&items, format)
}

fn render_points(points: &[SweepPoint], format: Format) -> Result<String, Fail> {
    Ok(match format {
        Format::Json => points_json(points)?,
        Format::Csv => points_csv(points),
        Format::Table => points_table(points),
    })
}

fn points_json(points: &[SweepPoint]) -> Result<String, Fail> {
    let rows: Vec<_> = points
        .iter()
        .map(|p| {
            let r = &p.result;
            serde_json::json!({
                "iodepth": p.iodepth,
                "read_percent": p.read_percent,
                "iops": r.iops,
                "bw_mb_s": r.bw_mb_s,
                "lat_mean_us": r.latency.mean_us,
                "lat_p50_us": r.latency.p50_us,
                "lat_p90_us": r.latency.p90_us,
                "lat_p99_us": r.latency.p99_us,
                "lat_p999_us": r.latency.p999_us,
                "lat_max_us": r.latency.max_us,
                "bottleneck": r.bottleneck.id(),
                "watts": r.power.average_w,
                "mb_s_per_w": per_watt(r.bw_mb_s, r.power.average_w),
                "iops_per_w": per_watt(r.iops, r.power.average_w),
                "power_budget_w": r.power.budget_w,
                "peak_w": r.power.peak_w,
                "write_amplification": r.write_amplification,
                "suspends": r.suspends,
                "reads_behind_programs": r.reads_behind_programs,
                "iops_rel_noise": r.iops_rel_noise,
                "utilisation": r.utilisation,
            })
        })
        .collect();
    json(&rows)
}

fn points_csv(points: &[SweepPoint]) -> String {
    let mut s = String::from(
        "iodepth,read_percent,iops,bw_mb_s,lat_mean_us,lat_p50_us,lat_p99_us,lat_p999_us,lat_max_us,bottleneck,write_amplification,watts,mb_s_per_w\n",
    );
    for p in points {
        let r = &p.result;
        let l = &r.latency;
        let _ = writeln!(
            s,
            "{},{},{:.0},{:.1},{:.1},{:.1},{:.1},{:.1},{:.1},{},{:.2},{:.3},{:.1}",
            p.iodepth,
            p.read_percent,
            r.iops,
            r.bw_mb_s,
            l.mean_us,
            l.p50_us,
            l.p99_us,
            l.p999_us,
            l.max_us,
            r.bottleneck.id(),
            r.write_amplification,
            r.power.average_w,
            per_watt(r.bw_mb_s, r.power.average_w)
        );
    }
    s
}

fn points_table(points: &[SweepPoint]) -> String {
    let mut s = format!(
        "{:>7} {:>5} {:>10} {:>9} {:>10} {:>10} {:>10} {:>7} {:>8}  {}\n",
        "iodepth",
        "read%",
        "IOPS",
        "MB/s",
        "mean µs",
        "p99 µs",
        "p99.9 µs",
        "W",
        "MB/s/W",
        "limited by"
    );
    for p in points {
        let r = &p.result;
        let _ = writeln!(
            s,
            "{:>7} {:>5} {:>10.0} {:>9.1} {:>10.1} {:>10.1} {:>10.1} {:>7.2} {:>8.1}  {}",
            p.iodepth,
            p.read_percent,
            r.iops,
            r.bw_mb_s,
            r.latency.mean_us,
            r.latency.p99_us,
            r.latency.p999_us,
            r.power.average_w,
            per_watt(r.bw_mb_s, r.power.average_w),
            r.bottleneck.label()
        );
    }
    s
}

fn render_load_points(
    points: &[LoadPoint],
    capacity: &SweepPoint,
    format: Format,
) -> Result<String, Fail> {
    let most = capacity.result.iops;
    let samples: Vec<sweep::LoadSample> = points.iter().map(sweep::LoadSample::from).collect();
    let knee = sweep::knee(&samples);
    Ok(match format {
        Format::Json => load_points_json(points, most, knee)?,
        Format::Csv => load_points_csv(points),
        Format::Table => load_points_table(points, capacity, knee),
    })
}

/// Each offered load's point, with the drive's capacity (`most`, IOPS) and the knee beside it.
fn load_points_json(points: &[LoadPoint], most: f64, knee: Option<f64>) -> Result<String, Fail> {
    let rows: Vec<_> = points
        .iter()
        .map(|p| {
            let r = &p.result;
            serde_json::json!({
                "offered_iops": p.offered_iops,
                "iodepth": p.iodepth,
                "read_percent": p.read_percent,
                "iops": r.iops,
                "bw_mb_s": r.bw_mb_s,
                "lat_mean_us": r.latency.mean_us,
                "lat_p50_us": r.latency.p50_us,
                "lat_p99_us": r.latency.p99_us,
                "lat_p999_us": r.latency.p999_us,
                "mean_in_system": r.mean_in_system,
                "saturated": r.saturated,
                "bottleneck": r.bottleneck.id(),
                "capacity_iops": most,
                "knee_iops": knee,
            })
        })
        .collect();
    json(&rows)
}

fn load_points_csv(points: &[LoadPoint]) -> String {
    let mut s = String::from(
        "offered_iops,iodepth,read_percent,iops,bw_mb_s,lat_mean_us,lat_p50_us,lat_p99_us,lat_p999_us,mean_in_system,saturated,bottleneck\n",
    );
    for p in points {
        let r = &p.result;
        let l = &r.latency;
        let _ = writeln!(
            s,
            "{:.0},{},{},{:.0},{:.1},{:.1},{:.1},{:.1},{:.1},{:.2},{},{}",
            p.offered_iops,
            p.iodepth,
            p.read_percent,
            r.iops,
            r.bw_mb_s,
            l.mean_us,
            l.p50_us,
            l.p99_us,
            l.p999_us,
            r.mean_in_system,
            r.saturated,
            r.bottleneck.id()
        );
    }
    s
}

/// The capacity and the knee in words, then a line per offered load.
fn load_points_table(points: &[LoadPoint], capacity: &SweepPoint, knee: Option<f64>) -> String {
    let most = capacity.result.iops;
    let mut s = format!(
        "capacity at depth {}: {most:.0} IOPS (limited by {}); offered loads above it \
         saturate the drive and its queue grows without bound\n{}\
         {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}  {}\n",
        capacity.iodepth,
        capacity.result.bottleneck.label(),
        knee_line(knee, most),
        "offered",
        "IOPS",
        "mean µs",
        "p99 µs",
        "p99.9 µs",
        "in system",
        "limited by"
    );
    for p in points {
        let r = &p.result;
        let _ = writeln!(
            s,
            "{:>10.0} {:>10.0} {:>10.1} {:>10.1} {:>10.1} {:>10.1}  {}",
            p.offered_iops,
            r.iops,
            r.latency.mean_us,
            r.latency.p99_us,
            r.latency.p999_us,
            r.mean_in_system,
            match r.bottleneck {
                _ if r.saturated => {
                    "saturated: requests arrive faster than the drive completes them"
                }
                limit => limit.open_loop_label(),
            }
        );
    }
    s
}

/// The knee in words, as the table's second line.
fn knee_line(knee: Option<f64>, capacity: f64) -> String {
    match knee {
        Some(k) => format!(
            "knee (throughput per latency peaks): {k:.0} IOPS offered, {:.0}% of capacity\n",
            100.0 * k / capacity
        ),
        None => "knee: not within these rates (list lower and higher ones)\n".to_string(),
    }
}

pub fn fio_job(a: &cli::WorkloadArgs) -> Result<String, Fail> {
    Ok(parallelism_model::fio::job_file(
        &a.workload()?,
        &a.iodepth.0,
    ))
}

pub fn import(file: &Path, format: Format) -> Result<String, Fail> {
    let output = parallelism_model::fio::parse_output(&crate::read_text(
        file,
        parallelism_model::fio::MAX_OUTPUT_BYTES,
    )?)?;
    let points = &output.points;
    Ok(match format {
        Format::Json => json(&output)?,
        Format::Csv => {
            let mut s = String::from(
                "job,line,iodepth,processes,rate_iops,in_flight,read_percent,iops,bw_mb_s,lat_mean_us,lat_p99_us\n",
            );
            for p in points {
                let _ = writeln!(
                    s,
                    "{},{},{},{},{},{:.1},{:.0},{:.0},{:.1},{:.1},{}",
                    p.job.replace(',', " "),
                    p.line,
                    p.iodepth,
                    p.processes,
                    p.rate_iops.map(|r| format!("{r:.0}")).unwrap_or_default(),
                    p.in_flight(),
                    p.read_percent,
                    p.iops,
                    p.bw_mb_s,
                    p.lat_mean_us,
                    p.lat_p99_us.map(|v| format!("{v:.1}")).unwrap_or_default()
                );
            }
            s
        }
        Format::Table => {
            let mut s = format!("read as {}\n", output.kind());
            let _ = writeln!(
                s,
                "{:<16} {:>5} {:>7} {:>5} {:>9} {:>6} {:>10} {:>9} {:>10}",
                "job", "line", "iodepth", "procs", "in flight", "read%", "IOPS", "MB/s", "mean µs"
            );
            for p in points {
                let depth = match (p.rate_iops, p.depth_reckoned) {
                    (Some(_), _) => format!("≤{}", p.iodepth),
                    (None, true) => format!("~{}", p.iodepth),
                    (None, false) => p.iodepth.to_string(),
                };
                let _ = writeln!(
                    s,
                    "{:<16} {:>5} {:>7} {:>5} {:>9.1} {:>6.0} {:>10.0} {:>9.1} {:>10.1}",
                    p.job,
                    p.line,
                    depth,
                    p.processes,
                    p.in_flight(),
                    p.read_percent,
                    p.iops,
                    p.bw_mb_s,
                    p.lat_mean_us
                );
            }
            for skip in &output.skipped {
                let _ = writeln!(s, "left out: {skip}");
            }
            s
        }
    })
}
