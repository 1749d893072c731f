//! fio in and out: the lab's workload as a fio job file, and fio's JSON output as points to lay
//! over the model's curves ("your drive").
//!
//! Pure text in, text or values out, so the command line, the browser and the tests share it.
//! Everything read from a file is untrusted: any input gives points or a [`ConfigError`] that
//! says what is wrong, never a panic, and names and numbers are checked before use.

use serde::Serialize;
use serde_json::Value;

use crate::config::{format_block_size, parse_block_size, ConfigError, Rw, Workload};
use crate::stats::LatencySummary;
use crate::sweep::SweepPoint;
use crate::workload::Spacing;

/// Largest fio output the importer reads (a many-job sweep is a few hundred KiB).
pub const MAX_OUTPUT_BYTES: usize = 16 * 1024 * 1024;
/// Most jobs the importer keeps.
pub const MAX_JOBS: usize = 256;

/// One fio job's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FioPoint {
    pub job: String,
    pub rw: Option<Rw>,
    pub bs_bytes: Option<u32>,
    pub iodepth: u32,
    /// Read share of completed I/Os, in percent.
    pub read_percent: f64,
    pub iops: f64,
    /// MB/s (10^6 bytes per second).
    pub bw_mb_s: f64,
    /// Mean completion latency over reads and writes, weighted by I/O count.
    pub lat_mean_us: f64,
    /// Mean total latency (fio's `lat_ns`: submission and completion), weighted the same way,
    /// when fio gave it for every direction with I/Os. The model's latency runs from the
    /// host's submission to the completion, so a fit compares it with this.
    pub lat_total_mean_us: Option<f64>,
    /// 99th percentile completion latency of the direction with more I/Os, when fio gave it.
    pub lat_p99_us: Option<f64>,
}

fn malformed(why: impl Into<String>) -> ConfigError {
    ConfigError::Malformed {
        what: "fio output",
        value: String::new(),
        why: why.into(),
    }
}

/// A job option, from the job or else from fio's "global options".
fn option<'a>(job: &'a Value, global: &'a Value, key: &str) -> Option<&'a str> {
    job.get("job options")
        .and_then(|o| o.get(key))
        .or_else(|| global.get(key))
        .and_then(Value::as_str)
}

fn number(v: &Value, path: &[&str]) -> Option<f64> {
    let mut cur = v;
    for p in path {
        cur = cur.get(*p)?;
    }
    cur.as_f64().filter(|x| x.is_finite() && *x >= 0.0)
}

/// Read fio's output as people save it: `--output-format=json` or `json+` (one or many jobs),
/// or `json,normal` (the JSON and the normal text in one file, in either order). Text around
/// the JSON (fio prints warnings, or the normal report) is skipped; the normal text alone is
/// refused with the option that makes fio write JSON.
pub fn parse_output(text: &str) -> Result<Vec<FioPoint>, ConfigError> {
    if text.len() > MAX_OUTPUT_BYTES {
        return Err(malformed(format!(
            "the file is larger than {} MiB",
            MAX_OUTPUT_BYTES >> 20
        )));
    }
    let doc = find_json(text)?;
    let jobs = doc
        .get("jobs")
        .and_then(Value::as_array)
        .ok_or_else(|| malformed("no \"jobs\" list: this is not fio's JSON output"))?;
    if jobs.is_empty() {
        return Err(malformed("the \"jobs\" list is empty"));
    }
    let global = doc.get("global options").cloned().unwrap_or(Value::Null);
    jobs.iter()
        .take(MAX_JOBS)
        .enumerate()
        .map(|(i, job)| parse_job(i, job, &global))
        .collect()
}

/// The JSON document in `text`: the first object that starts a line and holds a `jobs` list,
/// else the first object that starts a line (for the caller to say what it lacks). fio writes
/// its JSON from the start of a line, and the normal report never starts a line with `{`.
fn find_json(text: &str) -> Result<Value, ConfigError> {
    let mut other_object = None;
    let mut first_error = None;
    let line_starts = text
        .match_indices('{')
        .map(|(at, _)| at)
        .filter(|&at| at == 0 || text[..at].ends_with('\n'));
    for at in line_starts {
        let mut values = serde_json::Deserializer::from_str(&text[at..]).into_iter::<Value>();
        match values.next() {
            Some(Ok(doc)) if doc.get("jobs").is_some() => return Ok(doc),
            Some(Ok(doc)) => {
                other_object.get_or_insert(doc);
            }
            Some(Err(e)) => {
                first_error.get_or_insert((at, e));
            }
            None => {}
        }
    }
    if let Some(doc) = other_object {
        return Ok(doc);
    }
    if let Some((at, e)) = first_error {
        let line = text[..at].lines().count() + e.line();
        return Err(malformed(format!(
            "not valid JSON at line {line}, column {} ({e}); is the file complete?",
            e.column()
        )));
    }
    if looks_like_normal_output(text) {
        return Err(malformed(
            "this is fio's normal output; run fio with --output-format=json (or json,normal to \
             keep the report too)",
        ));
    }
    Err(malformed(
        "no JSON object found: was fio run with --output-format=json?",
    ))
}

/// Whether `text` reads like fio's normal (human-readable) report: a job's result line and
/// its IOPS, or the run status summary.
fn looks_like_normal_output(text: &str) -> bool {
    (text.contains("groupid=") && text.contains("IOPS=")) || text.contains("Run status group")
}

fn parse_job(index: usize, job: &Value, global: &Value) -> Result<FioPoint, ConfigError> {
    let name: String = job
        .get("jobname")
        .and_then(Value::as_str)
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control())
        .take(64)
        .collect();
    let label = if name.is_empty() {
        format!("job {}", index + 1)
    } else {
        format!("job {} ('{name}')", index + 1)
    };
    if number(job, &["error"]).is_some_and(|e| e != 0.0) {
        return Err(malformed(format!("{label} reports an error")));
    }
    let iodepth = option(job, global, "iodepth")
        .unwrap_or("1")
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|q| (1..=65_536).contains(q))
        .ok_or_else(|| malformed(format!("{label} has no usable iodepth")))?;
    let rw = option(job, global, "rw")
        .or_else(|| option(job, global, "readwrite"))
        .and_then(|s| s.split(':').next().unwrap_or(s).parse::<Rw>().ok());
    let bs_bytes = option(job, global, "bs").and_then(|s| parse_block_size(s).ok());
    let dir = |d: &str| {
        let ios = number(job, &[d, "total_ios"]).unwrap_or(0.0);
        let iops = number(job, &[d, "iops"]).unwrap_or(0.0);
        let bw = number(job, &[d, "bw_bytes"]).unwrap_or(0.0);
        let total = number(job, &[d, "lat_ns", "mean"]);
        let lat = number(job, &[d, "clat_ns", "mean"]).or(total);
        let p99 = number(job, &[d, "clat_ns", "percentile", "99.000000"]);
        (ios, iops, bw, lat, p99, total)
    };
    let (r_ios, r_iops, r_bw, r_lat, r_p99, r_total) = dir("read");
    let (w_ios, w_iops, w_bw, w_lat, w_p99, w_total) = dir("write");
    let ios = r_ios + w_ios;
    if ios <= 0.0 || r_iops + w_iops <= 0.0 {
        return Err(malformed(format!("{label} completed no reads or writes")));
    }
    let lat_ns = (r_lat.unwrap_or(0.0) * r_ios + w_lat.unwrap_or(0.0) * w_ios) / ios;
    if r_lat.is_none() && w_lat.is_none() {
        return Err(malformed(format!("{label} has no latency figures")));
    }
    let weighted = |r: Option<f64>, w: Option<f64>| -> Option<f64> {
        let r = if r_ios > 0.0 { r? } else { 0.0 };
        let w = if w_ios > 0.0 { w? } else { 0.0 };
        Some((r * r_ios + w * w_ios) / ios / 1e3)
    };
    Ok(FioPoint {
        lat_total_mean_us: weighted(r_total, w_total),
        job: name,
        rw,
        bs_bytes,
        iodepth,
        read_percent: 100.0 * r_ios / ios,
        iops: r_iops + w_iops,
        bw_mb_s: (r_bw + w_bw) / 1e6,
        lat_mean_us: lat_ns / 1e3,
        lat_p99_us: if r_ios >= w_ios { r_p99 } else { w_p99 }.map(|ns| ns / 1e3),
    })
}

/// Runtime of each job in an exported job file.
pub const JOB_RUNTIME_S: u32 = 60;
/// Warm-up each job discards.
pub const JOB_RAMP_S: u32 = 5;

/// A fio job file that runs `workload` at each depth of `iodepths` in turn, so a reader can
/// measure their own drive the way the lab plots it.
pub fn job_file(workload: &Workload, iodepths: &[u32]) -> String {
    let mut s = job_head(workload);
    for &qd in iodepths {
        // stonewall: each depth runs alone, after the one before.
        s.push_str(&format!("\n[qd{qd}]\nstonewall\niodepth={qd}\n"));
    }
    s
}

/// A fio job file that runs `workload` open loop at each rate of `rates` (I/Os per second,
/// spaced as `spacing` says), one job after the other, at most `workload.iodepth` in flight:
/// the rate view's sweep. fio caps reads and writes apart, so a mixed pattern gets one cap per
/// direction in its mix (`rate_iops=READS,WRITES`), which keeps fio to the mix and offers the
/// total; a pure one gets its rate.
///
/// ```
/// use parallelism_model::{fio, workload::Spacing, Rw, Workload};
/// let w = Workload { rw: Rw::RandRw, rwmixread: 70, bs_bytes: 4096, iodepth: 64 };
/// let job = fio::rate_job_file(&w, &[1000, 200_000], Spacing::Poisson);
/// assert!(job.contains("[rate200000]\nstonewall\niodepth=64\nrate_iops=140000,60000\nrate_process=poisson\n"));
/// ```
pub fn rate_job_file(workload: &Workload, rates: &[u32], spacing: Spacing) -> String {
    let mut s = job_head(workload);
    for &iops in rates {
        s.push_str(&format!(
            "\n[rate{iops}]\nstonewall\niodepth={}\n{}",
            workload.iodepth,
            rate_lines(workload, iops, spacing)
        ));
    }
    s
}

/// A fio job file that runs `jobs` at once, as one group: each job with its pattern, block
/// size and depth, and its rate (I/Os per second, spaced as `spacing` says) where it has one.
/// The several-jobs view's workload; fio reports each job apart.
///
/// ```
/// use parallelism_model::{fio, workload::Spacing, Rw, Workload};
/// let reader = Workload { rw: Rw::RandRead, rwmixread: 100, bs_bytes: 4096, iodepth: 1 };
/// let writer = Workload { rw: Rw::Write, rwmixread: 0, bs_bytes: 131_072, iodepth: 8 };
/// let job = fio::group_job_file(&[(reader, None), (writer, Some(2000))], Spacing::Linear);
/// assert!(job.contains("[job1]\nrw=randread\nbs=4k\niodepth=1\n"));
/// assert!(job.contains("[job2]\nrw=write\nbs=128k\niodepth=8\nrate_iops=2000\n"));
/// assert!(!job.contains("stonewall") && !job.contains("group_reporting"));
/// ```
pub fn group_job_file(jobs: &[(Workload, Option<u32>)], spacing: Spacing) -> String {
    let mut s = global_head(&format!("{} jobs at once", jobs.len()), false);
    for (i, (w, rate)) in jobs.iter().enumerate() {
        s.push_str(&format!(
            "\n[job{}]\nrw={}\nbs={}\niodepth={}\n",
            i + 1,
            w.rw.fio_name(),
            format_block_size(w.bs_bytes),
            w.iodepth
        ));
        if w.rw.fixed_read_percent().is_none() {
            s.push_str(&format!("rwmixread={}\n", w.rwmixread));
        }
        if let Some(iops) = rate {
            s.push_str(&rate_lines(w, *iops, spacing));
        }
    }
    s
}

/// `rate_iops` and `rate_process` for `iops` of `workload`. fio caps reads and writes apart,
/// so a mixed pattern gets one cap per direction in its mix, which keeps fio to the mix and
/// offers the total; a pure one gets its rate.
fn rate_lines(workload: &Workload, iops: u32, spacing: Spacing) -> String {
    let caps = match workload.rw.fixed_read_percent() {
        Some(_) => iops.to_string(),
        None => {
            let r = u64::from(iops) * u64::from(workload.read_percent()) / 100;
            format!("{r},{}", u64::from(iops) - r)
        }
    };
    format!("rate_iops={caps}\nrate_process={spacing}\n")
}

/// The `[global]` section of a job file for `workload` (one pattern for every job).
fn job_head(workload: &Workload) -> String {
    let mix = if workload.rw.fixed_read_percent().is_none() {
        format!(", {}% reads", workload.rwmixread)
    } else {
        String::new()
    };
    let what = format!(
        "{}, {} blocks{mix}",
        workload.rw.fio_name(),
        format_block_size(workload.bs_bytes)
    );
    let mut s = global_head(&what, true);
    s.push_str(&format!(
        "rw={}\nbs={}\n",
        workload.rw.fio_name(),
        format_block_size(workload.bs_bytes)
    ));
    if workload.rw.fixed_read_percent().is_none() {
        s.push_str(&format!("rwmixread={}\n", workload.rwmixread));
    }
    s
}

/// The opening comment and the `[global]` options every job file of the lab shares; `grouped`:
/// fio reports the jobs as one (each job a point of a sweep).
fn global_head(what: &str, grouped: bool) -> String {
    format!(
        "; Parallelism Lab workload: {what}.\n\
         ; Run:  fio lab.fio --output-format=json > lab.json   and import lab.json in the lab.\n\
         ; It writes to the file named below; point filename at a scratch file, never at a disk\n\
         ; holding data (write tests destroy it).\n\
         [global]\n\
         ioengine=libaio\n\
         direct=1\n\
         filename=parallelism-lab.bin\n\
         size=8G\n\
         time_based=1\n\
         runtime={JOB_RUNTIME_S}\n\
         ramp_time={JOB_RAMP_S}\n{}",
        if grouped { "group_reporting=1\n" } else { "" }
    )
}

/// Model points as fio writes its JSON output (`--output-format=json`): one job per point,
/// named `lab-qd{depth}` (or `lab-qd{depth}-r{read%}` in a read-share sweep), with the job's
/// options and each direction's I/Os, IOPS, bandwidth and completion latency (mean and p99).
/// [`parse_output`] reads it back to the same points, so model curves can be imported where fio
/// results are, and a fit can be tested on a drive whose parameters are known.
pub fn output_json(workload: &Workload, points: &[SweepPoint]) -> String {
    let jobs: Vec<JobFigures> = points.iter().map(|p| sweep_job(workload, p)).collect();
    jobs_json(&jobs)
}

/// One job's figures as fio reports a job: its name and options, and each direction's I/Os,
/// IOPS, bandwidth and latency.
#[derive(Clone, Debug)]
pub struct JobFigures<'a> {
    pub name: String,
    /// fio's job options, as fio's JSON holds them (text values).
    pub options: Vec<(&'static str, String)>,
    pub iops: f64,
    pub bw_mb_s: f64,
    pub ios: u64,
    /// The share of the I/Os that were reads (0..=1).
    pub read_share: f64,
    pub read_latency: &'a LatencySummary,
    pub write_latency: &'a LatencySummary,
}

/// Jobs as fio writes its JSON output (`--output-format=json`); [`parse_output`] reads it back.
pub fn jobs_json(jobs: &[JobFigures]) -> String {
    let jobs: Vec<Value> = jobs.iter().map(job_json).collect();
    let doc = serde_json::json!({
        "fio version": "parallelism-lab model",
        "jobs": jobs,
    });
    serde_json::to_string_pretty(&doc).expect("plain JSON values") + "\n"
}

fn job_json(j: &JobFigures) -> Value {
    let read_ios = (j.ios as f64 * j.read_share).round();
    let direction = |share: f64, ios: f64, l: &LatencySummary| {
        serde_json::json!({
            "total_ios": ios,
            "iops": j.iops * share,
            "bw_bytes": j.bw_mb_s * 1e6 * share,
            "clat_ns": {
                "mean": l.mean_us * 1e3,
                "percentile": { "99.000000": l.p99_us * 1e3 },
            },
            "lat_ns": { "mean": l.mean_us * 1e3 },
        })
    };
    let options: serde_json::Map<String, Value> = j
        .options
        .iter()
        .map(|(k, v)| (k.to_string(), Value::from(v.as_str())))
        .collect();
    serde_json::json!({
        "jobname": j.name,
        "error": 0,
        "job options": options,
        "read": direction(j.read_share, read_ios, j.read_latency),
        "write": direction(1.0 - j.read_share, j.ios as f64 - read_ios, j.write_latency),
    })
}

/// A sweep's point as a job named `lab-qd{depth}` (or `lab-qd{depth}-r{read%}` in a read-share
/// sweep); both directions carry the run's latency.
fn sweep_job<'a>(workload: &Workload, p: &'a SweepPoint) -> JobFigures<'a> {
    let rw = Rw::from_parts(workload.rw.is_random(), p.read_percent);
    let r = &p.result;
    let mut options = vec![
        ("rw", rw.fio_name().to_string()),
        ("bs", format_block_size(workload.bs_bytes)),
        ("iodepth", p.iodepth.to_string()),
    ];
    let name = match rw.fixed_read_percent() {
        Some(_) => format!("lab-qd{}", p.iodepth),
        None => {
            options.push(("rwmixread", p.read_percent.to_string()));
            format!("lab-qd{}-r{}", p.iodepth, p.read_percent)
        }
    };
    JobFigures {
        name,
        options,
        iops: r.iops,
        bw_mb_s: r.bw_mb_s,
        ios: r.measured_ios,
        read_share: f64::from(p.read_percent) / 100.0,
        read_latency: &r.latency,
        write_latency: &r.latency,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_JOBS: &str = r#"note: a warning fio printed first
{"fio version":"fio-3.33","global options":{"rw":"randread","bs":"4k"},
 "jobs":[
  {"jobname":"qd1","error":0,"job options":{"iodepth":"1"},
   "read":{"total_ios":1000,"iops":10000.0,"bw_bytes":40960000,"clat_ns":{"mean":90000.0,"percentile":{"99.000000":150000}}},
   "write":{"total_ios":0,"iops":0.0,"bw_bytes":0,"clat_ns":{"mean":0.0}}},
  {"jobname":"qd32","error":0,"job options":{"iodepth":"32","rw":"randrw"},
   "read":{"total_ios":700,"iops":70000.0,"bw_bytes":286720000,"clat_ns":{"mean":400000.0}},
   "write":{"total_ios":300,"iops":30000.0,"bw_bytes":122880000,"clat_ns":{"mean":500000.0}}}
 ]}"#;

    #[test]
    fn jobs_read_with_their_options_and_global_defaults() {
        let p = parse_output(TWO_JOBS).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(
            (p[0].iodepth, p[0].rw, p[0].bs_bytes),
            (1, Some(Rw::RandRead), Some(4096))
        );
        assert_eq!(p[0].lat_p99_us, Some(150.0));
        assert!((p[0].bw_mb_s - 40.96).abs() < 1e-9);
        assert_eq!((p[1].iodepth, p[1].rw), (32, Some(Rw::RandRw)));
        assert!((p[1].iops - 100_000.0).abs() < 1e-9);
        assert!((p[1].read_percent - 70.0).abs() < 1e-9);
        assert!((p[1].lat_mean_us - 430.0).abs() < 1e-9);
        assert_eq!(p[1].lat_total_mean_us, None, "fio gave no total latency");
    }

    #[test]
    fn the_total_latency_is_read_where_every_direction_with_ios_gives_it() {
        // fio's lat_ns (submission and completion) is what the model's latency measures.
        let text = TWO_JOBS
            .replace(
                r#""clat_ns":{"mean":400000.0}"#,
                r#""clat_ns":{"mean":400000.0},"lat_ns":{"mean":410000.0}"#,
            )
            .replace(
                r#""clat_ns":{"mean":500000.0}"#,
                r#""clat_ns":{"mean":500000.0},"lat_ns":{"mean":520000.0}"#,
            );
        let p = parse_output(&text).unwrap();
        let total = p[1].lat_total_mean_us.unwrap();
        assert!(
            (total - (0.7 * 410.0 + 0.3 * 520.0)).abs() < 1e-9,
            "{total}"
        );
        assert!(
            (p[1].lat_mean_us - 430.0).abs() < 1e-9,
            "the chart's figure stays clat"
        );
        let cells = crate::custom::cells_from_fio(&p[1..], crate::config::DriveState::Fob).cells;
        assert!(
            (cells[1].value - total / 1e3).abs() < 1e-12,
            "the fit's latency cell"
        );
    }

    #[test]
    fn malformed_and_truncated_files_say_what_is_wrong() {
        for (text, says) in [
            ("", "no JSON object"),
            ("hello", "no JSON object"),
            ("{", "not valid JSON"),
            (&TWO_JOBS[..TWO_JOBS.len() / 2], "is the file complete"),
            ("{\"jobs\": 3}", "no \"jobs\" list"),
            ("{\"jobs\": []}", "empty"),
            ("{\"jobs\": [{\"jobname\": \"x\"}]}", "completed no reads or writes"),
            (
                "{\"jobs\": [{\"job options\": {\"iodepth\": \"zero\"}, \"read\": {\"total_ios\": 1, \"iops\": 1}}]}",
                "iodepth",
            ),
        ] {
            let e = parse_output(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }

    #[test]
    fn the_json_is_found_before_after_or_between_the_normal_report() {
        let report = "t: (groupid=0, jobs=1): err= 0: pid=1\n  read: IOPS=14.4k, BW=56MiB/s\n\
                      Run status group 0 (all jobs):\n   READ: bw={odd}\n";
        for text in [
            format!("{TWO_JOBS}\n{report}"),
            format!("{report}{TWO_JOBS}"),
            format!("fio-3.33\nnote: {{ not json\n{TWO_JOBS}\n{report}"),
        ] {
            assert_eq!(parse_output(&text).unwrap().len(), 2, "{text}");
        }
        let e = parse_output(report).unwrap_err().to_string();
        assert!(e.contains("this is fio's normal output"), "{e}");
        let e = parse_output(&format!("warning\n{}", &TWO_JOBS[..40])).unwrap_err();
        assert!(e.to_string().contains("at line 3"), "{e}");
    }

    #[test]
    fn model_points_written_as_fio_output_read_back_as_the_same_points() {
        use crate::config::{DriveState, RunOptions};
        use crate::{presets, sweep};
        let drive = presets::find("e18dc").unwrap().drive_with_dies(8).unwrap();
        let options = RunOptions {
            seed: 5,
            measured_ios: 1_000,
        };
        let w = |rw, iodepth| Workload {
            rw,
            rwmixread: 70,
            bs_bytes: 4096,
            iodepth,
        };
        let reads = w(Rw::RandRead, 1);
        let mixes = w(Rw::RandRw, 8);
        let state = DriveState::Fob;
        let depth = sweep::over_queue_depth(&drive, reads, state, options, None, &[1, 8]).unwrap();
        let mix = sweep::over_read_share(&drive, mixes, state, options, None, &[0, 70]).unwrap();
        for (workload, points) in [(reads, depth), (mixes, mix)] {
            let back = parse_output(&output_json(&workload, &points)).unwrap();
            assert_eq!(back.len(), points.len());
            for (b, p) in back.iter().zip(&points) {
                let r = &p.result;
                let rw = Rw::from_parts(workload.rw.is_random(), p.read_percent);
                assert_eq!(
                    (b.iodepth, b.rw, b.bs_bytes),
                    (p.iodepth, Some(rw), Some(4096))
                );
                assert!(
                    (b.read_percent - f64::from(p.read_percent)).abs() < 0.1,
                    "{b:?}"
                );
                let close = |a: f64, e: f64| (a - e).abs() <= 1e-9 * e.abs().max(1.0);
                assert!(
                    close(b.iops, r.iops) && close(b.bw_mb_s, r.bw_mb_s),
                    "{b:?}"
                );
                assert!(close(b.lat_mean_us, r.latency.mean_us), "{b:?}");
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        // A property test over random and mutated inputs (the fuzzing the issue asks for).
        let mut rng = crate::rng::Rng::new(9);
        let base = TWO_JOBS.as_bytes();
        for _ in 0..3_000 {
            let mut bytes: Vec<u8> = if rng.below(2) == 0 {
                (0..rng.below(200)).map(|_| rng.below(256) as u8).collect()
            } else {
                base.to_vec()
            };
            for _ in 0..rng.below(8) {
                if bytes.is_empty() {
                    break;
                }
                let i = rng.below(bytes.len() as u64) as usize;
                match rng.below(3) {
                    0 => bytes[i] = rng.below(128) as u8,
                    1 => bytes.truncate(i),
                    _ => {
                        bytes.remove(i);
                    }
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            if let Ok(points) = parse_output(&text) {
                assert!(points
                    .iter()
                    .all(|p| p.iops.is_finite() && p.lat_mean_us.is_finite()));
            }
        }
    }

    #[test]
    fn a_job_file_names_the_workload_in_fios_terms() {
        let w = Workload {
            rw: Rw::RandRw,
            rwmixread: 70,
            bs_bytes: 131_072,
            iodepth: 8,
        };
        let f = job_file(&w, &[1, 32]);
        for line in [
            "rw=randrw",
            "rwmixread=70",
            "bs=128k",
            "direct=1",
            "[qd1]",
            "iodepth=32",
        ] {
            assert!(f.lines().any(|l| l == line), "{line} missing:\n{f}");
        }
        let read_only = job_file(&Workload { rw: Rw::Read, ..w }, &[4]);
        assert!(!read_only.contains("rwmixread"));
    }
}
