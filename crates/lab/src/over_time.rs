//! The drive over time: filling it, writing in bursts, torturing it with random writes.

use std::fmt::Write as _;

use parallelism_model::over_time;

use crate::cli::{self, Format};
use crate::{json, Fail};

pub fn fill(a: &cli::FillArgs) -> Result<String, Fail> {
    let report = over_time::fill(&a.drive.drive()?)?;
    Ok(match a.output.format {
        Format::Json => json(&report.points)?,
        Format::Csv => {
            let mut s = String::from("gb_written,mb_s,phase\n");
            for p in &report.points {
                let _ = writeln!(
                    s,
                    "{:.2},{:.1},{}",
                    p.gb_written,
                    p.mb_s,
                    phase_name(p.phase)
                );
            }
            s
        }
        Format::Table => {
            let mut s = format!(
                "{:.0} GB drive, SLC cache {:.1} GB when empty, average {:.0} MB/s\n{:>10} {:>9}  phase\n",
                report.capacity_gb, report.slc_cache_gb, report.average_mb_s, "GB written", "MB/s"
            );
            let step = (report.points.len() / 40).max(1);
            for p in report.points.iter().step_by(step) {
                let _ = writeln!(
                    s,
                    "{:>10.1} {:>9.0}  {}",
                    p.gb_written,
                    p.mb_s,
                    phase_name(p.phase)
                );
            }
            s
        }
    })
}

fn phase_name(p: over_time::FillPhase) -> &'static str {
    match p {
        over_time::FillPhase::Cache => "cache",
        over_time::FillPhase::PostCache => "post-cache",
        over_time::FillPhase::Folding => "folding",
    }
}

pub fn burst(a: &cli::BurstArgs) -> Result<String, Fail> {
    let points = over_time::bursts(&a.drive.drive()?, a.burst_gb, a.idle_s, a.bursts)?;
    Ok(match a.output.format {
        Format::Json => json(&points)?,
        Format::Csv => {
            let mut s = String::from("burst,mb_s,cache_free_gb\n");
            for p in &points {
                let _ = writeln!(s, "{},{:.1},{:.2}", p.burst, p.mb_s, p.cache_free_gb);
            }
            s
        }
        Format::Table => {
            let mut s = format!("{:>5} {:>9} {:>15}\n", "burst", "MB/s", "cache free GB");
            for p in &points {
                let _ = writeln!(
                    s,
                    "{:>5} {:>9.0} {:>15.1}",
                    p.burst, p.mb_s, p.cache_free_gb
                );
            }
            s
        }
    })
}

pub fn torture(a: &cli::TortureArgs) -> Result<String, Fail> {
    let r = over_time::torture(&a.drive.drive()?, a.minutes)?;
    Ok(match a.output.format {
        Format::Json => json(&r)?,
        Format::Csv => {
            let mut s = String::from("minute,mb_s,write_amplification\n");
            for p in &r.series {
                let _ = writeln!(
                    s,
                    "{:.2},{:.1},{:.2}",
                    p.minute, p.mb_s, p.write_amplification
                );
            }
            s
        }
        Format::Table => {
            let mut s = format!(
                "128 KiB QD1 sequential write: fresh {:.0} MB/s, after torture {:.0} MB/s ({:.0}% of fresh), after TRIM {:.0} MB/s\n{:>7} {:>9} {:>5}\n",
                r.fresh_mb_s,
                r.after_torture_mb_s,
                100.0 * r.after_torture_mb_s / r.fresh_mb_s,
                r.after_trim_mb_s,
                "minute",
                "MB/s",
                "WA"
            );
            for p in &r.series {
                let _ = writeln!(
                    s,
                    "{:>7.1} {:>9.1} {:>5.2}",
                    p.minute, p.mb_s, p.write_amplification
                );
            }
            s
        }
    })
}
