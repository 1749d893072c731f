//! The read path's mechanisms for sequential and recently written data: the controller's
//! read-ahead (SimpleSSD's trigger and buffer: three reads in a row, one page per die), data
//! laid out as it was written (a program unit per die in turn), and reads of SLC-mode blocks at
//! the SLC read time (HP's *Solid State Drive Technology Differences between SLC, MLC and TLC
//! NAND*, Table 1: 25 µs).
#![cfg(not(target_arch = "wasm32"))]

use parallelism_model::presets;
use parallelism_model::{
    CheckedRun, DriveSpec, DriveState, RunOptions, RunResult, RunSpec, Rw, Simulation, Workload,
};

/// What a test or its helper returns: a drive or a run the model refuses is an error.
type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

fn e12_960(read_ahead: bool) -> TestResult<DriveSpec> {
    let mut d = presets::lookup("e12")?.drive_for_capacity_gb(960.0)?;
    d.controller.read_ahead = read_ahead;
    Ok(d)
}

fn checked(drive: DriveSpec, rw: Rw, bs_bytes: u32, iodepth: u32) -> TestResult<CheckedRun> {
    let run = RunSpec {
        drive,
        workload: Workload {
            rw,
            rwmixread: 100,
            bs_bytes,
            iodepth,
        },
        state: DriveState::Fob,
        options: RunOptions {
            seed: 3,
            measured_ios: 10_000,
            ..RunOptions::default()
        },
    }
    .check()?;
    Ok(run)
}

fn run(drive: DriveSpec, rw: Rw, bs_bytes: u32, iodepth: u32) -> TestResult<RunResult> {
    Ok(Simulation::run(&checked(drive, rw, bs_bytes, iodepth)?)?)
}

const SEQ: u32 = 128 * 1024;

/// A QD1 stream with read-ahead over data in the SLC cache (as a review's burst test reads a
/// file it just wrote) waits for the host's round trip (stack, command, link), not for the
/// dies: its median read is served from DRAM.
#[test]
fn read_ahead_serves_a_qd1_sequential_stream_from_dram() -> TestResult {
    let qd1 = |read_ahead| -> TestResult<RunResult> {
        let run = checked(e12_960(read_ahead)?, Rw::Read, SEQ, 1)?.with_slc_read_share(1.0)?;
        Ok(Simulation::run(&run)?)
    };
    let (without, with) = (qd1(false)?, qd1(true)?);
    assert!(
        with.bw_mb_s > 1.5 * without.bw_mb_s,
        "{:.0} against {:.0} MB/s",
        with.bw_mb_s,
        without.bw_mb_s
    );
    let c = &e12_960(true)?.controller;
    // Stack and command, then 128 KiB over PCIe 3.0 x4 at the preset's efficiency.
    let link_us = f64::from(SEQ) / (c.link.raw_bytes_per_s() * c.link_efficiency) * 1e6;
    let round_trip_us = c.host_stack.as_us() + c.cmd_cost.as_us() + link_us;
    assert!(
        (with.latency.p50_us - round_trip_us).abs() < 2.0,
        "median {:.1} µs, round trip {round_trip_us:.1} µs",
        with.latency.p50_us
    );
    Ok(())
}

/// The prefetch buffer bounds what a stream has in flight: depths whose reads fit in it gain
/// little; deeper ones add reads of their own and reach the link.
#[test]
fn depth_adds_little_inside_the_prefetch_buffer_and_a_lot_beyond_it() -> TestResult {
    let mb_s =
        |iodepth| -> TestResult<f64> { Ok(run(e12_960(true)?, Rw::Read, SEQ, iodepth)?.bw_mb_s) };
    let (qd1, qd4, qd16) = (mb_s(1)?, mb_s(4)?, mb_s(16)?);
    assert!(qd4 < 1.2 * qd1, "QD1 {qd1:.0}, QD4 {qd4:.0}");
    assert!(qd16 > 1.5 * qd1, "QD1 {qd1:.0}, QD16 {qd16:.0}");
    Ok(())
}

/// Random reads never continue a stream, so read-ahead leaves them bit for bit alone.
#[test]
fn random_reads_are_untouched_by_read_ahead() -> TestResult {
    for iodepth in [1, 32] {
        let a = run(e12_960(false)?, Rw::RandRead, 4096, iodepth)?;
        let b = run(e12_960(true)?, Rw::RandRead, 4096, iodepth)?;
        assert_eq!(a.iops.to_bits(), b.iops.to_bits(), "QD{iodepth}");
        assert_eq!(a.latency.mean_us.to_bits(), b.latency.mean_us.to_bits());
    }
    Ok(())
}

/// Little's law holds with prefetches in flight: the engine's internal reads never count as
/// the host's.
#[test]
fn littles_law_holds_with_read_ahead() -> TestResult {
    for iodepth in [2, 8] {
        let r = run(e12_960(true)?, Rw::Read, SEQ, iodepth)?;
        let l = r.iops * r.latency.mean_us / 1e6;
        assert!(
            (l - f64::from(iodepth)).abs() < 0.01 * f64::from(iodepth),
            "QD{iodepth}: L = {l:.3}"
        );
    }
    Ok(())
}

/// A 4 KiB read of SLC-mode data senses in 25 µs instead of the BiCS3 part's 65: the QD1 mean
/// drops by the difference and nothing else.
#[test]
fn a_read_from_the_slc_cache_saves_the_difference_in_sense_time() -> TestResult {
    let d = e12_960(true)?;
    let saved_us = d.nand.t_read.as_us() - d.nand.t_read_slc.as_us();
    assert_eq!(saved_us, 40.0);
    let tlc = Simulation::run(&checked(d.clone(), Rw::RandRead, 4096, 1)?)?;
    let slc = Simulation::run(&checked(d, Rw::RandRead, 4096, 1)?.with_slc_read_share(1.0)?)?;
    let drop = tlc.latency.mean_us - slc.latency.mean_us;
    assert!((drop - saved_us).abs() < 0.5, "{drop:.2} µs");
    Ok(())
}

/// Half the data in the cache: about half the reads are fast, drawn by the run's generator.
#[test]
fn a_share_of_reads_from_the_cache_lands_between_none_and_all() -> TestResult {
    let d = e12_960(true)?;
    let mean = |share: f64| -> TestResult<f64> {
        let run = checked(d.clone(), Rw::RandRead, 4096, 1)?.with_slc_read_share(share)?;
        Ok(Simulation::run(&run)?.latency.mean_us)
    };
    let (none, half, all) = (mean(0.0)?, mean(0.5)?, mean(1.0)?);
    let mid = (none + all) / 2.0;
    assert!(
        (half - mid).abs() < 0.05 * (none - all),
        "{none:.1} {half:.1} {all:.1}"
    );
    for bad in [-0.1, 1.5, f64::NAN] {
        let err = checked(d.clone(), Rw::RandRead, 4096, 1)?
            .with_slc_read_share(bad)
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("share of reads from the SLC cache"),
            "{err}"
        );
    }
    Ok(())
}

/// Sequentially written data lies a program unit per die (96 KiB of one-shot TLC on two
/// planes), so without read-ahead a QD1 128 KiB read waits on the one or two dies holding it
/// and their several senses; data written at random lies page by page on eight dies that
/// sense at once.
#[test]
fn sequential_data_without_read_ahead_waits_on_the_dies_that_hold_it() -> TestResult {
    let seq = run(e12_960(false)?, Rw::Read, SEQ, 1)?;
    let scattered = run(e12_960(false)?, Rw::RandRead, SEQ, 1)?;
    assert!(
        seq.latency.mean_us > 2.0 * scattered.latency.mean_us,
        "{:.0} µs against {:.0}",
        seq.latency.mean_us,
        scattered.latency.mean_us
    );
    Ok(())
}
