//! fio's JSON output (`--output-format=json` and `json+`), of every version in use: fio 3.x
//! gives nanosecond latencies (`clat_ns`, `lat_ns`) and bytes per second (`bw_bytes`); fio 2.x
//! and the first 3.x releases give microseconds (`clat`, `lat`) and KiB/s (`bw`) only.
//!
//! What always holds: a document is an object starting a line that holds a `jobs` list (fio
//! writes its JSON from the start of a line; warnings or the normal report may come before or
//! after it); every such document is read, in file order, so runs appended to one file (`fio
//! ... >> all.json`, a script's habit) all import; every job becomes a [`Report`] or a reason,
//! and a document cut short after whole ones is named by line, not fatal.

use serde_json::Value;

use super::report::{Direction, Options, Report};
use super::units;

/// What the search for fio's JSON found.
pub(super) enum Found {
    /// fio's documents, each with the line it starts on, in file order; and each object after
    /// the first document that would not parse (a run cut short): its line and why.
    Docs(Vec<(Value, usize)>, Vec<(usize, String)>),
    /// A JSON object without a `jobs` list.
    Other,
    /// A JSON object that would not parse: where, and why.
    Broken {
        line: usize,
        column: usize,
        why: String,
    },
    Nothing,
}

/// fio's JSON documents in `text`, if there are any: see the module documentation.
pub(super) fn find(text: &str) -> Found {
    let mut found = Found::Nothing;
    let mut docs = Vec::new();
    let mut cut = Vec::new();
    // Objects that start a line inside a document already read belong to it.
    let mut read_to = 0;
    let line_starts = text
        .match_indices('{')
        .map(|(at, _)| at)
        .filter(|&at| at == 0 || text[..at].ends_with('\n'));
    for at in line_starts {
        if at < read_to {
            continue;
        }
        let mut values = serde_json::Deserializer::from_str(&text[at..]).into_iter::<Value>();
        let line = text[..at].lines().count() + 1;
        match values.next() {
            Some(Ok(doc)) if doc.get("jobs").is_some() => {
                read_to = at + values.byte_offset();
                docs.push((doc, line));
            }
            Some(Ok(_)) if docs.is_empty() => found = Found::Other,
            Some(Err(e)) if !docs.is_empty() => {
                cut.push((line, format!("not valid JSON ({e}): a run cut short?")));
            }
            Some(Err(e)) if matches!(found, Found::Nothing) => {
                found = Found::Broken {
                    line: line - 1 + e.line(),
                    column: e.column(),
                    why: e.to_string(),
                }
            }
            _ => {}
        }
    }
    if docs.is_empty() {
        found
    } else {
        Found::Docs(docs, cut)
    }
}

/// fio's version as the document names it.
pub(super) fn version(doc: &Value) -> Option<String> {
    doc.get("fio version")
        .and_then(Value::as_str)
        .map(|v| v.chars().filter(|c| !c.is_control()).take(32).collect())
}

/// The jobs of `doc` (which starts on `line`), or why there are none.
pub(super) fn reports(doc: &Value, line: usize, most: usize) -> Result<Vec<Report>, String> {
    let jobs = doc
        .get("jobs")
        .and_then(Value::as_array)
        .ok_or("its \"jobs\" is not a list: this is not fio's JSON output")?;
    if jobs.is_empty() {
        return Err("the \"jobs\" list is empty".into());
    }
    let global = doc.get("global options").unwrap_or(&Value::Null);
    Ok(jobs
        .iter()
        .take(most)
        .map(|job| report(job, global, line))
        .collect())
}

fn report(job: &Value, global: &Value, line: usize) -> Report {
    let option = |key: &str| -> Option<&str> {
        job.get("job options")
            .and_then(|o| o.get(key))
            .or_else(|| global.get(key))
            .and_then(Value::as_str)
    };
    let whole = |key: &str, default: Option<u32>| -> Option<u32> {
        match option(key) {
            Some(s) => s.trim().parse().ok().or(Some(0)),
            None => default,
        }
    };
    // fio 2.1's JSON holds no job options at all: its depth is reckoned from the distribution.
    let has_options = job.get("job options").is_some() || !global.is_null();
    Report {
        line,
        name: job
            .get("jobname")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        group: number(job, &["groupid"]).map_or(0, |g| g as u32),
        error: job.get("error").and_then(Value::as_i64).unwrap_or(0),
        processes: None,
        options: Options {
            rw: option("rw")
                .or_else(|| option("readwrite"))
                .map(str::to_string),
            bs_bytes: option("bs")
                .or_else(|| option("blocksize"))
                .and_then(units::block_size),
            // An unreadable depth reads as 0, which the point refuses by name.
            iodepth: whole("iodepth", has_options.then_some(1)),
            numjobs: whole("numjobs", None),
            rate_iops: option("rate_iops").and_then(rate_iops),
            group_reporting: option("group_reporting").is_some_and(|g| g.trim() != "0"),
        },
        read: direction(job.get("read")),
        write: direction(job.get("write")),
        depths: depth_levels(job.get("iodepth_level")),
    }
}

/// fio's depth distribution (`"iodepth_level": {"1": 0.1, ..., ">=64": 0.0}`), in percent.
fn depth_levels(levels: Option<&Value>) -> Option<[f64; 7]> {
    let levels = levels?;
    let mut out = [0.0; 7];
    for (share, key) in out.iter_mut().zip(["1", "2", "4", "8", "16", "32", ">=64"]) {
        *share = number(levels, &[key])?;
    }
    Some(out)
}

/// A job's `rate_iops` (`2000`, or `READS,WRITES`), over its directions.
fn rate_iops(s: &str) -> Option<f64> {
    let total: f64 = s
        .split(',')
        .map(|part| units::count(part).unwrap_or(0.0))
        .sum();
    (total > 0.0).then_some(total)
}

fn direction(d: Option<&Value>) -> Direction {
    let Some(d) = d else {
        return Direction::default();
    };
    let ns = |new: &str, old: &str, key: &[&str]| -> Option<f64> {
        let path_new: Vec<&str> = std::iter::once(new).chain(key.iter().copied()).collect();
        let path_old: Vec<&str> = std::iter::once(old).chain(key.iter().copied()).collect();
        number(d, &path_new).or_else(|| number(d, &path_old).map(|us| us * 1e3))
    };
    Direction {
        ios: number(d, &["total_ios"]),
        iops: number(d, &["iops"]).unwrap_or(0.0),
        bytes_per_s: number(d, &["bw_bytes"])
            .or_else(|| number(d, &["bw"]).map(|kib| kib * 1024.0))
            .unwrap_or(0.0),
        runtime_ms: number(d, &["runtime"]),
        clat_mean_ns: ns("clat_ns", "clat", &["mean"]),
        lat_mean_ns: ns("lat_ns", "lat", &["mean"]),
        clat_p99_ns: ns("clat_ns", "clat", &["percentile", "99.000000"]),
    }
}

fn number(v: &Value, path: &[&str]) -> Option<f64> {
    let mut cur = v;
    for p in path {
        cur = cur.get(*p)?;
    }
    cur.as_f64().filter(|x| x.is_finite() && *x >= 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fio_2_and_early_3_json_give_kib_per_second_and_microseconds() {
        // fio 3.1's JSON: `bw` in KiB/s and no `bw_bytes`; fio 2.x: `clat` in µs.
        let doc: Value = serde_json::from_str(
            r#"{"jobs":[{"jobname":"old","groupid":0,"error":0,"job options":{"iodepth":"4"},
            "read":{"iops":1000.5,"bw":4002,"runtime":2000,
                    "clat":{"mean":3.5,"percentile":{"99.000000":9}},"lat":{"mean":4.0}}}]}"#,
        )
        .unwrap();
        let r = &reports(&doc, 1, 10).unwrap()[0];
        assert_eq!(r.read.bytes_per_s, 4002.0 * 1024.0);
        assert_eq!(r.read.clat_mean_ns, Some(3500.0));
        assert_eq!(r.read.lat_mean_ns, Some(4000.0));
        assert_eq!(r.read.clat_p99_ns, Some(9000.0));
        assert_eq!(r.read.ios, None, "reckoned from iops and runtime later");
        assert_eq!(r.options.iodepth, Some(4));
    }

    #[test]
    fn rates_per_direction_add_up() {
        assert_eq!(rate_iops("140000,60000"), Some(200_000.0));
        assert_eq!(rate_iops("2k"), Some(2_000.0));
        assert_eq!(rate_iops("0"), None);
    }

    #[test]
    fn the_document_is_found_after_warnings_and_a_broken_one_says_where() {
        let text = "fio: warning\n{\"jobs\": []}\n";
        assert!(matches!(find(text), Found::Docs(ref d, _) if d.len() == 1 && d[0].1 == 2));
        match find("note\n{\"jobs\": [\n") {
            Found::Broken { line, .. } => assert_eq!(line, 3),
            _ => panic!("a broken document"),
        }
        assert!(matches!(find("{\"a\": 1}"), Found::Other));
        assert!(matches!(find("no json"), Found::Nothing));
    }
}
