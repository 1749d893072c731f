//! fio's side of the bridge going out: the lab's workload as a fio job file, and model points
//! as fio's JSON output (which [`super::parse_output`] reads back, so a fit can be tested on a
//! drive whose parameters are known).

use serde_json::Value;

use crate::config::{format_block_size, Rw, Workload};
use crate::stats::LatencySummary;
use crate::sweep::SweepPoint;
use crate::workload::Spacing;

/// Runtime of each job in an exported job file.
pub const JOB_RUNTIME_S: u32 = 60;
/// Warm-up each job discards.
pub const JOB_RAMP_S: u32 = 5;

/// A fio job file that runs `workload` at each depth of `iodepths` in turn, so a reader can
/// measure their own drive the way the lab plots it.
pub fn job_file(workload: &Workload, iodepths: &[u32]) -> String {
    let mut s = job_head(workload);
    for &iodepth in iodepths {
        // stonewall: each depth runs alone, after the one before.
        s.push_str(&format!("\n[qd{iodepth}]\nstonewall\niodepth={iodepth}\n"));
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
/// [`super::parse_output`] reads it back to the same points, so model curves can be imported where fio
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

/// Jobs as fio writes its JSON output (`--output-format=json`); [`super::parse_output`] reads it
/// back.
pub fn jobs_json(jobs: &[JobFigures]) -> String {
    let jobs: Vec<Value> = jobs.iter().map(job_json).collect();
    let doc = serde_json::json!({
        "fio version": "parallelism-lab model",
        "jobs": jobs,
    });
    // A JSON value's alternate form is serde_json's pretty text, which cannot fail.
    format!("{doc:#}\n")
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
    use crate::fio::parse_output;

    #[test]
    fn model_points_written_as_fio_output_read_back_as_the_same_points() {
        use crate::config::{DriveState, RunOptions};
        use crate::{presets, sweep};
        let drive = presets::find("e18dc").unwrap().drive_with_dies(8).unwrap();
        let options = RunOptions {
            seed: 5,
            measured_ios: 1_000,
            ..RunOptions::default()
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
            let back = parse_output(&output_json(&workload, &points))
                .unwrap()
                .points;
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
