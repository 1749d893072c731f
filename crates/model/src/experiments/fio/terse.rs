//! fio's terse output (`--output-format=terse`, `--minimal`), versions 2 to 5: one line of
//! semicolon-separated fields per job, in the order fio's HOWTO ("Terse output") documents.
//!
//! Layout: the terse version, fio's version (v3 and later), the job's name, group and error;
//! then per direction (read, write, and trim in v2, v4 and v5) its KiB moved, KiB/s, IOPS,
//! runtime (ms), submission, completion and total latency in µs (fio 2.x and 3.x alike), 20
//! completion percentiles (`99.000000%=812`), bandwidth statistics, and in v5 the IOPS
//! statistics; then CPU use and the distribution of depths (`<=1, 2, 4, 8, 16, 32, >=64`).
//!
//! What always holds: a line is read only if its field count fits its version; a terse line
//! holds no job options, so the pattern is unknown and the depth and block size are reckoned
//! (see the `report` module).

use super::report::{Direction, Report};
use super::units;

/// Fields per direction: 41, and 47 with v5's sample counts and IOPS statistics.
fn direction_fields(version: u8) -> usize {
    if version == 5 {
        47
    } else {
        41
    }
}

/// CPU fields after the directions.
const CPU_FIELDS: usize = 5;
/// Buckets of the depth distribution.
const DEPTH_FIELDS: usize = 7;

/// Whether `line` opens like a terse line: a version from 2 to 5, then a field.
fn version_of(line: &str) -> Option<u8> {
    let (v, rest) = line.split_once(';')?;
    let v: u8 = v.trim().parse().ok()?;
    ((2..=5).contains(&v) && rest.contains(';')).then_some(v)
}

/// Whether `text` holds a terse line.
pub(super) fn holds_line(text: &str) -> bool {
    text.lines().any(|l| version_of(l).is_some())
}

/// fio's version from the first v3-or-later line.
pub(super) fn version(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let f: Vec<&str> = l.splitn(3, ';').collect();
        (version_of(l)? >= 3 && f.get(1)?.starts_with("fio-"))
            .then(|| f[1].chars().take(32).collect())
    })
}

/// The terse version of the file (its first line's).
pub(super) fn file_version(text: &str) -> Option<u8> {
    text.lines().find_map(version_of)
}

/// The jobs of the terse lines of `text` (at most `most`), or the lines that do not read.
pub(super) fn reports(text: &str, most: usize) -> (Vec<Report>, Vec<(usize, String)>) {
    let mut out = Vec::new();
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(version) = version_of(line) else {
            continue;
        };
        if out.len() == most {
            break;
        }
        match report(line, version) {
            Ok(mut r) => {
                r.line = i + 1;
                out.push(r);
            }
            Err(why) => bad.push((i + 1, why)),
        }
    }
    (out, bad)
}

fn report(line: &str, version: u8) -> Result<Report, String> {
    let f: Vec<&str> = line.trim_end().split(';').collect();
    let head = if version == 2 { 4 } else { 5 };
    let per_dir = direction_fields(version);
    let tail = CPU_FIELDS + DEPTH_FIELDS;
    // v2 wrote a trim section from fio 2.1 on; fio 2.0's v2 lines have none.
    let dirs = match version {
        3 => 2,
        2 if f.len() < head + 3 * per_dir + tail => 2,
        _ => 3,
    };
    let needed = head + dirs * per_dir + tail;
    if f.len() < needed {
        return Err(format!(
            "a terse v{version} line has at least {needed} fields; this one has {} (is it cut short?)",
            f.len()
        ));
    }
    let name = f[head - 3];
    let group = f[head - 2]
        .trim()
        .parse()
        .map_err(|_| format!("group '{}' is not a number", f[head - 2]))?;
    let error = f[head - 1].trim().parse().unwrap_or(0);
    let read = direction(&f[head..head + per_dir]).ok_or("its read figures do not read")?;
    let write =
        direction(&f[head + per_dir..head + 2 * per_dir]).ok_or("its write figures do not read")?;
    let at = head + dirs * per_dir + CPU_FIELDS;
    let mut depths = [0.0; DEPTH_FIELDS];
    for (d, field) in depths.iter_mut().zip(&f[at..at + DEPTH_FIELDS]) {
        *d = units::plain(field.trim().trim_end_matches('%'))
            .ok_or_else(|| format!("depth share '{field}' is not a percentage"))?;
    }
    Ok(Report {
        name: name.to_string(),
        group,
        error,
        read,
        write,
        depths: Some(depths),
        ..Report::default()
    })
}

/// One direction's fields: KiB, KiB/s, IOPS, runtime, slat (4), clat (4), 20 percentiles,
/// lat (4), ...
fn direction(f: &[&str]) -> Option<Direction> {
    let n = |i: usize| units::plain(f.get(i)?);
    let us = |i: usize| n(i).map(|v| v * 1e3);
    let ios_live = n(2)? > 0.0;
    let p99 = f[12..32].iter().find_map(|p| {
        let (pct, value) = p.split_once("%=")?;
        (units::plain(pct)? == 99.0).then(|| units::plain(value))?
    });
    Some(Direction {
        ios: None,
        iops: n(2)?,
        bytes_per_s: n(1)? * 1024.0,
        runtime_ms: n(3),
        clat_mean_ns: us(10).filter(|_| ios_live),
        lat_mean_ns: us(34).filter(|_| ios_live),
        clat_p99_ns: p99.map(|v| v * 1e3).filter(|_| ios_live),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A v3 line's direction: KiB, KiB/s, IOPS, runtime, slat, clat, percentiles, lat, bw.
    fn dir(kib: u64, kib_s: u64, iops: u64, clat_us: f64) -> String {
        let mut f: Vec<String> = vec![
            kib.to_string(),
            kib_s.to_string(),
            iops.to_string(),
            "2000".into(),
            // Submission latency, then completion latency: min, max, mean, stdev (µs).
            "1".into(),
            "9".into(),
            "2.000000".into(),
            "0.5".into(),
            "50".into(),
            "900".into(),
            format!("{clat_us:.6}"),
            "3.0".into(),
        ];
        for p in 0..20 {
            f.push(if p == 13 {
                format!("99.000000%={}", (clat_us * 2.0) as u64)
            } else {
                "0%=0".into()
            });
        }
        // Total latency, then bandwidth statistics.
        for v in ["52", "902", &format!("{:.6}", clat_us + 2.0), "3.0"] {
            f.push(v.to_string());
        }
        for v in ["1", "2", "100.0%", "1.0", "0.1"] {
            f.push(v.to_string());
        }
        f.join(";")
    }

    fn v3_line(depths: &str) -> String {
        format!(
            "3;fio-3.33;rr;0;0;{};{};5.0%;10.0%;1000;0;20;{depths};0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%",
            dir(240_000, 120_000, 30_000, 250.5),
            dir(0, 0, 0, 0.0)
        )
    }

    #[test]
    fn a_v3_line_gives_its_figures_in_fios_documented_order() {
        let (r, bad) = reports(&v3_line("0.1%;0.1%;0.1%;100.0%;0.0%;0.0%;0.0%"), 10);
        assert!(bad.is_empty(), "{bad:?}");
        let r = &r[0];
        assert_eq!((r.name.as_str(), r.group, r.error), ("rr", 0, 0));
        assert_eq!(r.read.iops, 30_000.0);
        assert_eq!(r.read.bytes_per_s, 120_000.0 * 1024.0);
        assert_eq!(r.read.clat_mean_ns, Some(250_500.0));
        assert_eq!(r.read.lat_mean_ns, Some(252_500.0));
        assert_eq!(r.read.clat_p99_ns, Some(501_000.0));
        assert_eq!(r.write.clat_mean_ns, None, "no writes, no write latency");
        assert_eq!(r.depths, Some([0.1, 0.1, 0.1, 100.0, 0.0, 0.0, 0.0]));
        assert_eq!(version(&v3_line("")).as_deref(), Some("fio-3.33"));
    }

    #[test]
    fn a_line_cut_short_says_how_many_fields_it_lacks() {
        let line = v3_line("0.1%;0.1%;0.1%;100.0%;0.0%;0.0%;0.0%");
        let cut = &line[..line.len() / 2];
        let (r, bad) = reports(cut, 10);
        assert!(r.is_empty());
        assert_eq!(bad[0].0, 1);
        assert!(bad[0].1.contains("cut short"), "{bad:?}");
    }

    #[test]
    fn lines_of_other_kinds_are_not_terse() {
        for l in [
            "",
            "fio-3.33",
            "1;a;b",
            "6;fio;x;0;0",
            "3",
            "randread: (g=0): rw=randread",
        ] {
            assert_eq!(version_of(l), None, "{l}");
        }
    }
}
