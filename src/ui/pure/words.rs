//! The workload in words, as the readout, the controls, the charts' subtitles and the tables
//! say it: one phrasing per thing, written once.

use crate::model::config::Rw;
use crate::model::workload::Spacing;
use crate::ui::pure::format;
use crate::ui::pure::state::{JobSetup, LabState, LoadKind, TraceSource, ALL_READS_PCT};

/// The pattern in words: `random reads`, `sequential 70% reads / 30% writes`.
pub fn pattern_words(rw: Rw, read_pct: u8) -> String {
    let how = if rw.is_random() {
        "random"
    } else {
        "sequential"
    };
    match rw.fixed_read_percent() {
        Some(ALL_READS_PCT) => format!("{how} reads"),
        Some(_) => format!("{how} writes"),
        None => format!(
            "{how} {read_pct}% reads / {}% writes",
            ALL_READS_PCT.saturating_sub(read_pct)
        ),
    }
}

/// The point a state sets, in words, as the readout heads its figures: drive, dies, block
/// size, pattern, load, the drive's state and any power limit.
pub fn point_words(state: &LabState) -> String {
    let preset = state.drive.preset();
    let dies_text = if state.drive.is_unlisted() {
        format!(
            ", unlisted capacity: {} dies of {} Gbit",
            state.drive.dies(),
            state.drive.die_gbit()
        )
    } else {
        format!(", {} dies", state.drive.dies())
    };
    let power = match (state.drive.power_limit(), state.drive.power_budget_w()) {
        (Some(limit), Some(w)) => format!(
            " · held to {} ({})",
            limit.to_string().to_uppercase(),
            format::watts(w)
        ),
        _ => String::new(),
    };
    let w = &state.workload;
    let open_loop = w.load() == LoadKind::Rate;
    let load = if open_loop {
        format!(
            "{} offered, {} arrivals, at most {} at the drive",
            format::rate_iops(w.rate_iops()),
            spacing_words(w.spacing()),
            w.iodepth()
        )
    } else {
        format!("queue depth {}", w.iodepth())
    };
    format!(
        "{} {}{} · {} {} · {load} · {}{power}",
        preset.controller.name,
        format::gb(state.drive.capacity_gb()),
        dies_text,
        format::block_size(w.bs_bytes()),
        pattern_words(w.rw(), w.read_pct()),
        w.drive_state().label(),
    )
}

/// How arrivals are spaced, in words.
pub fn spacing_words(spacing: Spacing) -> &'static str {
    match spacing {
        Spacing::Poisson => "Poisson (random)",
        Spacing::Linear => "evenly spaced",
    }
}

/// A job in words, e.g. `random reads, 4 KiB, IODEPTH 1` or `... at 20,000 IOPS (at most 4 in
/// flight)`.
pub fn job_words(j: &JobSetup) -> String {
    let load = match j.rate_iops() {
        None => format!("QD {}", j.iodepth()),
        Some(r) => format!(
            "{} offered, at most {} at the drive",
            format::rate_iops(r),
            j.iodepth()
        ),
    };
    format!(
        "{}, {}, {load}",
        pattern_words(j.rw(), j.read_pct()),
        format::block_size(j.bs_bytes())
    )
}

/// What the trace choice says of a trace.
pub fn trace_label(t: TraceSource) -> &'static str {
    match t {
        TraceSource::DesktopLight => "Light: a day of office work (Storage Bench 2011)",
        TraceSource::DesktopHeavy => "Heavy: a day of heavy desktop work (Storage Bench 2011)",
        TraceSource::File => "your trace file",
    }
}

/// The trace file formats the model reads, for the file choice's hint.
pub const FILE_FORMATS: &str =
    "MQSim, blkparse, fio iolog (version 2 or 3) or the SNIA/MSR CSV, up to 100 MB";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_read_as_words() {
        assert_eq!(pattern_words(Rw::RandRead, 100), "random reads");
        assert_eq!(pattern_words(Rw::Write, 0), "sequential writes");
        assert_eq!(
            pattern_words(Rw::RandRw, 70),
            "random 70% reads / 30% writes"
        );
    }
}
