//! fio in and out: fio's output, in every form it writes, as points to lay over the model's
//! curves and cells to fit ("your drive"); and the lab's workload as a fio job file.
//!
//! Reading: [`parse_output`] takes a file as people save it (JSON or JSON+, the normal
//! report, terse lines, or a mix of them, from fio 2.x to 3.x) and finds its format; one
//! reader per format turns the jobs into reports, and one rule (the `report` module) turns reports into
//! points, so the depth the drive saw, clones and rates mean the same whatever the format.
//!
//! Pure text in, text or values out, so the command line, the browser and the tests share it.
//! Everything read from a file is untrusted: any input gives points or a [`ConfigError`] that
//! says what is wrong and where, never a panic, and names and numbers are checked before use.

mod json;
mod normal;
mod report;
mod terse;
mod units;
mod write;

pub use crate::text::text_of;
pub use report::{FioFormat, FioOutput, FioPoint, Skipped};
pub use write::{
    group_job_file, job_file, jobs_json, output_json, rate_job_file, JobFigures, JOB_RAMP_S,
    JOB_RUNTIME_S,
};

use crate::config::ConfigError;

/// Largest fio output the importer reads (a many-job sweep is a few hundred KiB).
pub const MAX_OUTPUT_BYTES: usize = 16 * 1024 * 1024;
/// Most jobs the importer keeps.
pub const MAX_JOBS: usize = 256;
/// Skipped jobs named in a refusal before the rest are counted.
const SKIPS_NAMED: usize = 3;

fn malformed(why: impl Into<String>) -> ConfigError {
    ConfigError::Malformed {
        what: "fio output".into(),
        value: String::new(),
        why: why.into(),
    }
}

/// Read fio's output as people save it: `--output-format=json` or `json+`, the normal
/// report, or terse lines (`--minimal`, versions 2 to 5), from fio 2.x to 3.x, or a file
/// holding several of them (`json,normal`; warnings first). JSON is preferred where a file
/// holds it (its figures are exact), then the normal report (it names each job's options),
/// then terse lines. Jobs that give no point are listed in [`FioOutput::skipped`] with their
/// line; a file with no point at all is refused with the reasons.
///
/// ```
/// use parallelism_model::fio::{parse_output, FioFormat};
/// let text = "\
/// rr: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=32
/// rr: (groupid=0, jobs=4): err= 0: pid=1: Wed Dec  2 10:00:00 2026
///   read: IOPS=250k, BW=977MiB/s (1024MB/s)(1954MiB/2001msec)
///     clat (usec): min=40, max=3000, avg=510.2, stdev=80.0
/// ";
/// let out = parse_output(text).unwrap();
/// assert_eq!(out.format, FioFormat::Normal);
/// let p = &out.points[0];
/// assert_eq!((p.iodepth, p.processes), (128, 4), "numjobs x iodepth in flight");
/// assert_eq!(p.iops, 250_000.0);
/// ```
pub fn parse_output(text: &str) -> Result<FioOutput, ConfigError> {
    if text.len() > MAX_OUTPUT_BYTES {
        return Err(malformed(format!(
            "the file is larger than {} MiB",
            MAX_OUTPUT_BYTES >> 20
        )));
    }
    if text.contains('\0') {
        return Err(malformed(
            "the file holds binary data, not text: is it fio's output?",
        ));
    }
    let Read {
        format,
        fio_version,
        reports,
        mut skipped,
    } = read(text)?;
    let (points, more_skipped) = report::points(reports);
    skipped.extend(more_skipped);
    if points.is_empty() {
        return Err(malformed(no_points(format, &skipped)));
    }
    Ok(FioOutput {
        format,
        fio_version,
        points,
        skipped,
    })
}

/// What one format's reader made of a file: the jobs' reports, before they become points.
struct Read {
    format: FioFormat,
    fio_version: Option<String>,
    reports: Vec<report::Report>,
    /// What the reader could not take, by line.
    skipped: Vec<Skipped>,
}

/// The file read in the first format it holds, in the order of preference
/// [`parse_output`] gives; refused when it holds none, or only broken JSON.
fn read(text: &str) -> Result<Read, ConfigError> {
    match json::find(text) {
        json::Found::Docs(docs, cut) => read_json(&docs, cut),
        _ if normal::holds_report(text) => Ok(Read {
            format: FioFormat::Normal,
            fio_version: normal::version(text),
            reports: normal::reports(text, MAX_JOBS),
            skipped: Vec::new(),
        }),
        _ if terse::holds_line(text) => Ok(read_terse(text)),
        json::Found::Broken { line, column, why } => Err(malformed(format!(
            "not valid JSON at line {line}, column {column} ({why}); is the file complete?"
        ))),
        json::Found::Other => Err(malformed("no \"jobs\" list: this is not fio's JSON output")),
        json::Found::Nothing => Err(malformed(
            "found no fio JSON, normal report or terse line: is this fio's output?",
        )),
    }
}

/// fio's JSON documents, with `cut`, the objects after the first that would not parse.
/// Appended runs: a document without jobs is named and the others read; a file whose every
/// document is so says why its first is.
fn read_json(
    docs: &[(serde_json::Value, usize)],
    cut: Vec<(usize, String)>,
) -> Result<Read, ConfigError> {
    let mut reports = Vec::new();
    let mut refused = Vec::new();
    for (doc, line) in docs {
        let most = MAX_JOBS - reports.len();
        match json::reports(doc, *line, most) {
            Ok(more) => reports.extend(more),
            Err(why) => refused.push((*line, why)),
        }
    }
    if reports.is_empty() {
        if let Some((_, why)) = refused.first() {
            return Err(malformed(why.clone()));
        }
    }
    let mut skipped: Vec<Skipped> = refused
        .into_iter()
        .chain(cut)
        .map(|(line, why)| Skipped {
            line,
            job: String::new(),
            why,
        })
        .collect();
    skipped.sort_by_key(|s| s.line);
    Ok(Read {
        format: FioFormat::Json,
        fio_version: docs.first().and_then(|(doc, _)| json::version(doc)),
        reports,
        skipped,
    })
}

/// Terse lines' reports, with each line that would not read and why.
fn read_terse(text: &str) -> Read {
    let (reports, bad) = terse::reports(text, MAX_JOBS);
    let skipped = bad
        .into_iter()
        .map(|(line, why)| Skipped {
            line,
            job: String::new(),
            why,
        })
        .collect();
    let version = terse::file_version(text).unwrap_or(3);
    Read {
        format: FioFormat::Terse(version),
        fio_version: terse::version(text),
        reports,
        skipped,
    }
}

/// Why a file of `format` gave no point: its first skipped jobs, then a count of the rest.
fn no_points(format: FioFormat, skipped: &[Skipped]) -> String {
    if skipped.is_empty() {
        return format!("its {format} holds no job");
    }
    let named: Vec<String> = skipped
        .iter()
        .take(SKIPS_NAMED)
        .map(Skipped::to_string)
        .collect();
    let more = skipped.len().saturating_sub(SKIPS_NAMED);
    let rest = match more {
        0 => String::new(),
        n => format!("; and {n} more"),
    };
    format!(
        "no job of its {format} gives a point: {}{rest}",
        named.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Rw;

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
        let p = parse_output(TWO_JOBS).unwrap().points;
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
        let p = parse_output(&text).unwrap().points;
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
            ("", "found no fio JSON, normal report or terse line"),
            ("hello", "found no fio JSON, normal report or terse line"),
            ("{", "not valid JSON"),
            (&TWO_JOBS[..TWO_JOBS.len() / 2], "is the file complete"),
            ("{\"jobs\": 3}", "its \"jobs\" is not a list"),
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
            assert_eq!(parse_output(&text).unwrap().points.len(), 2, "{text}");
        }
        // The normal report alone is read too; this one lacks its latency lines.
        let e = parse_output(report).unwrap_err().to_string();
        assert!(
            e.contains("line 1, job 't': it has no latency figures"),
            "{e}"
        );
        let e = parse_output(&format!("warning\n{}", &TWO_JOBS[..40])).unwrap_err();
        assert!(e.to_string().contains("at line 3"), "{e}");
    }

    /// Scripts append run after run to one file (`fio job.fio --output-format=json >>
    /// all.json`): every run imports, in file order, and a last run cut short is named by its
    /// line while the whole ones stay.
    #[test]
    fn runs_appended_to_one_file_all_import_and_a_cut_one_is_named() {
        let text = format!("{TWO_JOBS}\n{TWO_JOBS}\n{}", &TWO_JOBS[..40]);
        let out = parse_output(&text).unwrap();
        assert_eq!(out.points.len(), 4);
        assert!(out.points[0].line < out.points[2].line);
        // Each run: a warning line, then its document; the runs are joined by a newline.
        let n = TWO_JOBS.lines().count();
        assert_eq!(out.points[2].line, n + 2, "the second run's document");
        let [cut] = out.skipped.as_slice() else {
            panic!("{:?}", out.skipped);
        };
        assert_eq!(cut.line, 2 * n + 2, "the third run's document");
        assert!(cut.why.contains("not valid JSON"), "{}", cut.why);
        let empty = format!("{{\"jobs\": []}}\n{TWO_JOBS}");
        let out = parse_output(&empty).unwrap();
        assert_eq!(out.points.len(), 2);
        assert_eq!(out.skipped[0].line, 1);
        assert!(parse_output("{\"jobs\": []}\n{\"jobs\": []}").is_err());
    }
}
