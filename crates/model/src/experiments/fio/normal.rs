//! fio's normal (human-readable) report, fio 2.x and 3.x: the job header lines
//! (`name: (g=0): rw=randread, bs=..., iodepth=8`), each job's report
//! (`name: (groupid=0, jobs=1): err= 0: ...`) with its direction lines, latency lines,
//! percentile blocks, issued counts and depth line, and the run status summary (skipped).
//!
//! What always holds: each report becomes a [`Report`] with the line it starts on; a line this
//! reader does not know is passed over (fio adds lines between versions), and a report without
//! a readable direction line gives a report with no I/Os, which the point names.
//!
//! fio 2.x: `read : io=1024.0MB, bw=123456KB/s, iops=30864, runt=  8493msec` (KB meaning KiB);
//! fio 3.x: `read: IOPS=30.9k, BW=121MiB/s (126MB/s)(242MiB/2001msec)`.

use super::report::{Direction, Options, Report};
use super::units::{self, Units};

/// Which direction a line speaks of.
#[derive(Clone, Copy, PartialEq)]
enum Dir {
    Read,
    Write,
    /// Trim and anything else fio reports that the lab does not model.
    Other,
}

/// Whether `text` holds a job report of fio's normal output.
pub(super) fn holds_report(text: &str) -> bool {
    text.lines().any(|l| report_start(l).is_some())
}

/// fio's version, from the `fio-3.33` at the start of a line (fio prints it before the jobs).
pub(super) fn version(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|l| l.starts_with("fio-") && l.len() <= 32 && !l.contains(' '))
        .map(str::to_string)
}

/// The job reports of `text`, at most `most`.
pub(super) fn reports(text: &str, most: usize) -> Vec<Report> {
    let headers = headers(text);
    let mut out: Vec<Report> = Vec::new();
    let mut dir = Dir::Other;
    let mut percentiles: Option<(Dir, f64)> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some((name, group, processes, error)) = report_start(line) {
            if out.len() == most {
                break;
            }
            out.push(Report {
                line: i + 1,
                options: header_for(&headers, name),
                name: name.to_string(),
                group,
                processes: Some(processes),
                error,
                ..Report::default()
            });
            dir = Dir::Other;
            percentiles = None;
            continue;
        }
        let Some(r) = out.last_mut() else {
            continue;
        };
        if t.starts_with("Run status group") || t.starts_with("Disk stats") {
            dir = Dir::Other;
            percentiles = None;
            continue;
        }
        if let Some((d, figures)) = direction_line(t) {
            dir = d;
            percentiles = None;
            match d {
                Dir::Read => r.read = figures,
                Dir::Write => r.write = figures,
                Dir::Other => {}
            }
            continue;
        }
        if let Some(block) = t.strip_prefix('|') {
            if let Some((d, unit)) = percentiles {
                if let Some(p99) = percentile(block, "99.00th=").map(|v| v * unit) {
                    set(r, d, |x| x.clat_p99_ns = Some(p99));
                }
            }
            continue;
        }
        percentiles = None;
        if let Some(unit) = t
            .strip_prefix("clat percentiles (")
            .and_then(|rest| units::time_unit_ns(rest.split(')').next()?))
        {
            percentiles = Some((dir, unit));
        } else if let Some((kind, mean_ns)) = latency_line(t) {
            set(r, dir, |x| match kind {
                Latency::Completion => x.clat_mean_ns = Some(mean_ns),
                Latency::Total => x.lat_mean_ns = Some(mean_ns),
            });
        } else if t.starts_with("issued") {
            if let Some([reads, writes]) = issued(t) {
                r.read.ios = Some(reads);
                r.write.ios = Some(writes);
            }
        } else if t.starts_with("latency") && t.contains("depth=") {
            if let Some(q) = units::field(t, "depth=").and_then(|q| q.parse().ok()) {
                r.options.iodepth = Some(q);
            }
        }
    }
    out
}

fn set(r: &mut Report, d: Dir, f: impl FnOnce(&mut Direction)) {
    match d {
        Dir::Read => f(&mut r.read),
        Dir::Write => f(&mut r.write),
        Dir::Other => {}
    }
}

/// A report's first line: `name: (groupid=0, jobs=1): err= 0: pid=...` gives the name, the
/// group, the processes and the error.
fn report_start(line: &str) -> Option<(&str, u32, u32, i64)> {
    let at = line.find(": (groupid=")?;
    let name = &line[..at];
    if name.is_empty() || name.starts_with(char::is_whitespace) {
        return None;
    }
    let rest = &line[at + 2..];
    let group = units::field(rest, "(groupid=")?.parse().ok()?;
    let jobs = units::field(rest, "jobs=")?
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()?;
    let error = rest
        .split("err=")
        .nth(1)
        .and_then(|e| e.trim_start().split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|e| e.parse().ok())
        .unwrap_or(0);
    Some((name, group, jobs, error))
}

/// Each job's options from its header line: `name: (g=0): rw=randread, bs=(R) 4096B-4096B,
/// (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=8` (fio 3.x) or
/// `name: (g=0): rw=randread, bs=4K-4K/4K-4K/4K-4K, ioengine=libaio, iodepth=32` (fio 2.x).
fn headers(text: &str) -> Vec<(&str, Options)> {
    text.lines()
        .filter_map(|line| {
            let at = line.find(": (g=")?;
            let rest = &line[at..];
            if !rest.contains("rw=") {
                return None;
            }
            let bs = units::field(rest, "bs=").and_then(|b| {
                let first = b.trim_start_matches("(R)").trim();
                units::block_size(first.split(['-', '/']).next()?)
            });
            Some((
                &line[..at],
                Options {
                    rw: units::field(rest, "rw=").map(str::to_string),
                    bs_bytes: bs,
                    iodepth: units::field(rest, "iodepth=").and_then(|q| q.parse().ok()),
                    numjobs: None,
                    rate_iops: None,
                    group_reporting: false,
                },
            ))
        })
        .collect()
}

fn header_for(headers: &[(&str, Options)], name: &str) -> Options {
    headers
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, o)| o.clone())
        .unwrap_or_default()
}

/// A direction line of either era, with the figures it gives.
fn direction_line(t: &str) -> Option<(Dir, Direction)> {
    let (word, rest) = t.split_once(':')?;
    let dir = match word.trim() {
        "read" | "mixed" => Dir::Read,
        "write" => Dir::Write,
        "trim" => Dir::Other,
        _ => return None,
    };
    // fio 3.35 adds "; 0 zone resets" to write lines.
    let rest = rest.split(';').next().unwrap_or(rest).trim();
    let figures = if let Some(iops) = rest.strip_prefix("IOPS=") {
        // fio 3.x: IOPS=30.9k, BW=121MiB/s (126MB/s)(242MiB/2001msec)
        let iops = units::count(iops.split(',').next()?)?;
        let bw = units::field(rest, "BW=")?;
        let bytes_per_s = units::rate(bw.split([' ', '(']).next()?, Units::Iec)?;
        let runtime_ms = bw
            .rsplit('/')
            .next()
            .and_then(|r| r.trim_end_matches(')').strip_suffix("msec"))
            .and_then(units::plain);
        Direction {
            iops,
            bytes_per_s,
            runtime_ms,
            ..Direction::default()
        }
    } else if rest.starts_with("io=") {
        // fio 2.x: io=1024.0MB, bw=123456KB/s, iops=30864, runt=  8493msec
        Direction {
            iops: units::count(units::field(rest, "iops=")?)?,
            bytes_per_s: units::rate(units::field(rest, "bw=")?, Units::Legacy)?,
            runtime_ms: units::field(rest, "runt=")
                .and_then(|r| r.strip_suffix("msec"))
                .and_then(units::plain),
            ..Direction::default()
        }
    } else {
        return None;
    };
    Some((dir, figures))
}

enum Latency {
    Completion,
    Total,
}

/// `clat (usec): min=50, max=2000, avg=250.12, stdev=30.00` (or `lat`): which, and the mean in
/// nanoseconds. `slat` and the distribution lines (`lat (usec)   : 100=0.01%`) are not these.
fn latency_line(t: &str) -> Option<(Latency, f64)> {
    let kind = if t.starts_with("clat (") {
        Latency::Completion
    } else if t.starts_with("lat (") {
        Latency::Total
    } else {
        return None;
    };
    let unit = units::time_unit_ns(t.split_once('(')?.1.split(')').next()?)?;
    let avg = units::count(units::field(t, "avg=")?)?;
    Some((kind, avg * unit))
}

/// A percentile's value in a block line (`|  1.00th=[  200],  5.00th=[  210], ...`).
fn percentile(block: &str, key: &str) -> Option<f64> {
    let at = block.find(key)?;
    let rest = &block[at + key.len()..];
    let value = rest.strip_prefix('[')?.split(']').next()?;
    units::count(value)
}

/// Reads and writes issued: `issued rwts: total=61886,0,0,0 short=...` (fio 3.x) or
/// `issued    : total=r=61886/w=0/d=0, short=...` (fio 2.x).
fn issued(t: &str) -> Option<[f64; 2]> {
    let total = t.split("total=").nth(1)?;
    let total = total.split([' ', '\t']).next()?.trim_end_matches(',');
    let parts: Vec<&str> = if total.contains('/') {
        total
            .split('/')
            .map(|p| p.split('=').next_back().unwrap_or(p))
            .collect()
    } else {
        total.split(',').collect()
    };
    Some([units::plain(parts.first()?)?, units::plain(parts.get(1)?)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIO_3: &str = "\
randread: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=8
fio-3.33
Starting 1 process

randread: (groupid=0, jobs=1): err= 0: pid=4242: Wed Dec  2 10:00:00 2026
  read: IOPS=30.9k, BW=121MiB/s (126MB/s)(242MiB/2001msec)
    slat (nsec): min=1500, max=90000, avg=3210.5, stdev=1000.0
    clat (usec): min=50, max=2000, avg=250.12, stdev=30.00
     lat (usec): min=52, max=2004, avg=253.40, stdev=30.10
    clat percentiles (usec):
     |  1.00th=[  200],  5.00th=[  210], 10.00th=[  215], 20.00th=[  225],
     | 99.00th=[  400], 99.50th=[  420], 99.90th=[ 1123], 99.95th=[ 1500],
   bw (  KiB/s): min=120000, max=125000, per=100.00%, avg=123000.00, stdev=100.00, samples=4
   iops        : min=30000, max=31000, avg=30900.00, stdev=10.00, samples=4
  lat (usec)   : 100=0.01%, 250=50.00%, 500=49.99%
  cpu          : usr=5.00%, sys=20.00%, ctx=61886, majf=0, minf=20
  IO depths    : 1=0.1%, 2=0.1%, 4=0.1%, 8=100.0%, 16=0.0%, 32=0.0%, >=64=0.0%
     issued rwts: total=61886,0,0,0 short=0,0,0,0 dropped=0,0,0,0
     latency   : target=0, window=0, percentile=100.00%, depth=8

Run status group 0 (all jobs):
   READ: bw=121MiB/s (126MB/s), 121MiB/s-121MiB/s (126MB/s-126MB/s), io=242MiB (253MB), run=2001-2001msec
";

    #[test]
    fn a_fio_3_report_gives_its_options_figures_and_latencies() {
        let r = &reports(FIO_3, 10)[0];
        assert_eq!(
            (r.name.as_str(), r.group, r.processes),
            ("randread", 0, Some(1))
        );
        assert_eq!(r.line, 5);
        assert_eq!(r.options.rw.as_deref(), Some("randread"));
        assert_eq!(
            (r.options.bs_bytes, r.options.iodepth),
            (Some(4096), Some(8))
        );
        assert_eq!(r.read.iops, 30_900.0);
        assert_eq!(r.read.bytes_per_s, 121.0 * 1_048_576.0);
        assert_eq!(r.read.runtime_ms, Some(2001.0));
        assert_eq!(r.read.ios, Some(61_886.0));
        assert_eq!(r.read.clat_mean_ns, Some(250_120.0));
        assert_eq!(r.read.lat_mean_ns, Some(253_400.0));
        assert_eq!(r.read.clat_p99_ns, Some(400_000.0));
        assert_eq!(r.write.ios, Some(0.0));
        assert_eq!(version(FIO_3).as_deref(), Some("fio-3.33"));
    }

    #[test]
    fn a_fio_2_report_reads_kb_as_kib() {
        let text = "\
rr: (g=0): rw=randread, bs=4K-4K/4K-4K/4K-4K, ioengine=libaio, iodepth=32
rr: (groupid=0, jobs=4): err= 0: pid=77: Tue Mar  1 12:00:00 2016
  read : io=1024.0MB, bw=123456KB/s, iops=30864, runt=  8493msec
    clat (usec): min=50, max=20000, avg=4100.50, stdev=300.00
     lat (usec): min=52, max=20004, avg=4103.00, stdev=300.10
    clat percentiles (msec):
     |  1.00th=[    3],  5.00th=[    3], 10.00th=[    4], 20.00th=[    4],
     | 99.00th=[    8], 99.50th=[    9], 99.90th=[   12], 99.95th=[   14],
  IO depths    : 1=0.1%, 2=0.1%, 4=0.1%, 8=0.1%, 16=0.1%, 32=100.0%, >=64=0.0%
     issued    : total=r=262144/w=0/d=0, short=r=0/w=0/d=0, drop=r=0/w=0/d=0
";
        let r = &reports(text, 10)[0];
        assert_eq!((r.processes, r.options.iodepth), (Some(4), Some(32)));
        assert_eq!(r.options.bs_bytes, Some(4096));
        assert_eq!(r.read.bytes_per_s, 123_456.0 * 1024.0);
        assert_eq!(r.read.iops, 30_864.0);
        assert_eq!(r.read.runtime_ms, Some(8493.0));
        assert_eq!(r.read.ios, Some(262_144.0));
        assert_eq!(r.read.clat_mean_ns, Some(4_100_500.0));
        assert_eq!(r.read.clat_p99_ns, Some(8e6), "a block in msec");
    }

    #[test]
    fn each_direction_keeps_its_own_latencies() {
        let text = "\
m: (groupid=0, jobs=1): err= 0: pid=1
  read: IOPS=700, BW=2800KiB/s (2867kB/s)(5600KiB/2000msec)
    clat (usec): min=1, max=9, avg=100.00, stdev=1
  write: IOPS=300, BW=1200KiB/s (1229kB/s)(2400KiB/2000msec)
    clat (nsec): min=1, max=9, avg=50000.00, stdev=1
    clat percentiles (usec):
     | 99.00th=[  90],
";
        let r = &reports(text, 10)[0];
        assert_eq!(r.read.clat_mean_ns, Some(100_000.0));
        assert_eq!(r.write.clat_mean_ns, Some(50_000.0));
        assert_eq!(r.write.clat_p99_ns, Some(90_000.0));
        assert_eq!(r.read.clat_p99_ns, None);
        assert_eq!(r.write.bytes_per_s, 1200.0 * 1024.0);
    }

    #[test]
    fn an_error_code_and_odd_lines_are_read_without_panic() {
        let r = &reports("x: (groupid=2, jobs=1): err= 5 (file:io_u.c, func=io_u error): pid=1\n  read: IOPS=k\n", 10)[0];
        assert_eq!((r.group, r.error), (2, 5));
        assert_eq!(
            r.read,
            Direction::default(),
            "an unreadable line gives nothing"
        );
        assert!(
            reports("  read: IOPS=1, BW=1B/s\n", 10).is_empty(),
            "no report started"
        );
    }
}
