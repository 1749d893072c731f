//! Workloads beyond one closed-loop job: load at a rate (open loop), several streams on one
//! drive, block-size splits, address ranges and trace replay. Each test names the queueing fact
//! or the drive behaviour it checks.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::Arc;

use parallelism_model::presets;
use parallelism_model::rng::Rng;
use parallelism_model::time::Nanos;
use parallelism_model::workload::desktop::Desktop;
use parallelism_model::workload::trace::{Trace, TraceFormat, TraceRequest};
use parallelism_model::workload::{Arrival, BlockSizes, Spacing, Span, Stream, StreamsSpec};
use parallelism_model::{
    DriveSpec, DriveState, RunOptions, RunResult, RunSpec, Rw, Simulation, Workload,
};

const GB: u64 = 1_000_000_000;

/// What a test or its helper returns: a drive or a run the model refuses is an error.
type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// The E18DC with 8 dies: 4 KiB random reads top out near 178k IOPS, die-bound.
fn drive() -> TestResult<DriveSpec> {
    Ok(presets::lookup("e18dc")?.drive_with_dies(8)?)
}

fn job(rw: Rw, iodepth: u32) -> Workload {
    Workload {
        rw,
        rwmixread: 70,
        bs_bytes: 4096,
        iodepth,
    }
}

fn closed(drive: &DriveSpec, w: Workload) -> TestResult<RunResult> {
    let spec = RunSpec {
        drive: drive.clone(),
        workload: w,
        state: DriveState::SeqFilled,
        options: RunOptions::default(),
    };
    Ok(Simulation::run(&spec.check()?)?)
}

fn streams(drive: &DriveSpec, streams: Vec<Stream>) -> TestResult<RunResult> {
    let spec = StreamsSpec {
        drive: drive.clone(),
        streams,
        state: DriveState::SeqFilled,
        options: RunOptions::default(),
    };
    Ok(Simulation::run(&spec.check()?)?)
}

fn at_rate(iops: f64, spacing: Spacing) -> TestResult<RunResult> {
    let w = job(Rw::RandRead, 64);
    streams(&drive()?, vec![Stream::at_rate(&w, iops, spacing)])
}

fn rel(a: f64, b: f64) -> f64 {
    (a / b - 1.0).abs()
}

#[test]
fn littles_law_holds_in_the_open_loop() -> TestResult {
    // L = X W: the time-averaged number of requests in the system equals the achieved rate
    // times the mean time each spends there. The open loop measures L by integrating the count
    // over time, so this is a check, not a construction.
    for iops in [30_000.0, 120_000.0, 165_000.0] {
        let r = at_rate(iops, Spacing::Poisson)?;
        let x_w = r.iops * r.latency.mean_us * 1e-6;
        assert!(
            rel(r.mean_in_system, x_w) < 0.02,
            "{iops}: L {} against X W {x_w}",
            r.mean_in_system
        );
    }
    Ok(())
}

#[test]
fn latency_is_flat_at_low_load_and_climbs_steeply_past_the_knee() -> TestResult {
    let capacity = closed(&drive()?, job(Rw::RandRead, 64))?.iops;
    let mean_at = |share: f64| -> TestResult<f64> {
        Ok(at_rate(share * capacity, Spacing::Poisson)?.latency.mean_us)
    };
    let [idle, light, half, heavy, near] = [
        mean_at(0.01)?,
        mean_at(0.1)?,
        mean_at(0.5)?,
        mean_at(0.8)?,
        mean_at(0.98)?,
    ];
    assert!(rel(light, idle) < 0.1, "10% load {light} µs, 1% {idle} µs");
    assert!(heavy > 2.0 * idle, "80% load {heavy} µs, 1% {idle} µs");
    // The last 18 points of load cost far more latency than the first 49 did.
    assert!(
        near - heavy > 3.0 * (half - idle),
        "1% {idle}, 50% {half}, 80% {heavy}, 98% {near} µs"
    );
    Ok(())
}

#[test]
fn below_the_knee_the_drive_carries_what_is_offered_and_past_it_falls_behind() -> TestResult {
    let capacity = closed(&drive()?, job(Rw::RandRead, 64))?.iops;
    let half = at_rate(0.5 * capacity, Spacing::Poisson)?;
    assert!(!half.saturated);
    assert!(rel(half.iops, 0.5 * capacity) < 0.01, "{}", half.iops);
    assert_eq!(half.streams[0].offered_iops, Some(0.5 * capacity));
    let over = at_rate(1.2 * capacity, Spacing::Poisson)?;
    assert!(over.saturated, "20% over the drive's capacity");
    assert!(rel(over.iops, capacity) < 0.03, "achieved {}", over.iops);
    assert!(over.latency.mean_us > 10.0 * half.latency.mean_us);
    Ok(())
}

#[test]
fn an_evenly_spaced_light_load_meets_an_idle_drive_every_time() -> TestResult {
    // fio's default rate_process=linear at 1,000 IOPS on a drive that serves a read in 80 µs:
    // every request finds the drive idle, so it sees exactly the QD1 latency.
    let qd1 = closed(&drive()?, job(Rw::RandRead, 1))?.latency;
    let r = at_rate(1_000.0, Spacing::Linear)?;
    assert!(rel(r.latency.mean_us, qd1.mean_us) < 0.005);
    assert!(rel(r.latency.p99_us, qd1.p99_us) < 0.005);
    assert!(rel(r.iops, 1_000.0) < 0.001, "{}", r.iops);
    Ok(())
}

#[test]
fn an_overload_stops_at_the_host_backlog_limit_and_says_so() -> TestResult {
    // 10 M IOPS offered to a drive that serves 178k: the host's queue reaches the engine's
    // limit during the warm-up, before anything is measured. No more requests arrive, and the
    // run measures the drive working off the backlog: saturated, at the drive's own rate
    // (the closed loop at the same depth), its latency the wait in the host. Before the
    // result checked itself this run reported 0 requests measured as a result.
    let r = at_rate(1e7, Spacing::Linear)?;
    assert!(r.saturated && r.finished);
    assert!(r.events < 2_000_000, "{} events", r.events);
    assert_eq!(r.measured_ios, r.planned_ios);
    let capacity = closed(&drive()?, job(Rw::RandRead, 64))?.iops;
    assert!(
        rel(r.iops, capacity) < 0.05,
        "{} against {capacity}",
        r.iops
    );
    assert!(r.latency.mean_us > 10_000.0, "{} µs", r.latency.mean_us);
    Ok(())
}

#[test]
fn past_capacity_the_hosts_backlog_grows_and_teaching_mode_sees_it() -> TestResult {
    // 250k a second offered to a drive that serves 178k: every snapshot of the run has more
    // requests waiting in the host than the one before it, while the device holds its 64.
    let w = job(Rw::RandRead, 64);
    let spec = StreamsSpec {
        drive: drive()?,
        streams: vec![Stream::at_rate(&w, 250_000.0, Spacing::Poisson)],
        state: DriveState::SeqFilled,
        options: RunOptions::default(),
    };
    let mut sim = Simulation::new(&spec.check().unwrap());
    let mut backlog = Vec::new();
    for _ in 0..4 {
        assert!(!sim.step(20_000), "the run is still going");
        let a = sim.activity();
        assert!(a.open_loop && a.iodepth == 64 && a.in_device <= 64);
        backlog.push(a.host_backlog);
    }
    assert!(backlog.windows(2).all(|w| w[1] > w[0]), "{backlog:?}");
    // A closed loop has no backlog: its depth is what is in flight.
    let mut closed = Simulation::new(
        &RunSpec {
            drive: drive()?,
            workload: w,
            state: DriveState::SeqFilled,
            options: RunOptions::default(),
        }
        .check()
        .unwrap(),
    );
    closed.step(100_000);
    let a = closed.activity();
    assert!(!a.open_loop && a.host_backlog == 0);
    Ok(())
}

#[test]
fn the_same_seed_replays_the_same_poisson_arrivals() -> TestResult {
    assert_eq!(
        at_rate(100_000.0, Spacing::Poisson)?,
        at_rate(100_000.0, Spacing::Poisson)?
    );
    Ok(())
}

#[test]
fn two_jobs_of_half_the_depth_carry_what_one_job_of_the_whole_depth_does() -> TestResult {
    // fio's numjobs=2 at iodepth=32 against one job at iodepth=64: the drive sees 64 requests
    // in flight either way.
    let d = drive()?;
    let one = closed(&d, job(Rw::RandRead, 64))?;
    let half = Stream::closed(&job(Rw::RandRead, 32));
    let two = streams(&d, vec![half.clone(), half])?;
    assert!(
        rel(two.iops, one.iops) < 0.02,
        "{} vs {}",
        two.iops,
        one.iops
    );
    assert!(rel(two.streams[0].iops, two.streams[1].iops) < 0.05);
    // A mixed stream beside a reader keeps each of its directions apart.
    let mixed = streams(
        &d,
        vec![
            Stream::closed(&job(Rw::RandRw, 8)),
            Stream::closed(&job(Rw::RandRead, 8)),
        ],
    )?;
    let s = &mixed.streams[0];
    let (r, w) = (
        s.read_latency.as_ref().unwrap(),
        s.write_latency.as_ref().unwrap(),
    );
    assert!(
        r.mean_us > w.mean_us,
        "reads go to flash, writes to the buffer"
    );
    assert!(r.mean_us > s.latency.mean_us && s.latency.mean_us > w.mean_us);
    let sum: f64 = two.streams.iter().map(|s| s.iops).sum();
    assert!(rel(sum, two.iops) < 1e-9);
    Ok(())
}

#[test]
fn streams_sharing_the_drive_each_get_less_and_together_no_more_than_it_has() -> TestResult {
    let d = drive()?;
    let read_alone = closed(&d, job(Rw::RandRead, 32))?;
    let write_alone = closed(&d, job(Rw::RandWrite, 32))?;
    let both = streams(
        &d,
        vec![
            Stream::closed(&job(Rw::RandRead, 32)),
            Stream::closed(&job(Rw::RandWrite, 32)),
        ],
    )?;
    let (reads, writes) = (&both.streams[0], &both.streams[1]);
    assert!(reads.iops < 0.95 * read_alone.iops, "{}", reads.iops);
    assert!(writes.iops < 0.95 * write_alone.iops, "{}", writes.iops);
    // Reads now wait behind programs: slower than alone, and reported by direction.
    let read_latency = both.read_latency.as_ref().unwrap();
    assert!(read_latency.mean_us > read_alone.latency.mean_us);
    assert_eq!(read_latency, &reads.latency);
    assert_eq!(both.write_latency.as_ref(), Some(&writes.latency));
    assert_eq!(reads.read_latency.as_ref(), Some(&reads.latency));
    assert_eq!(
        (reads.write_latency.as_ref(), writes.read_latency.as_ref()),
        (None, None)
    );
    // Two identical readers share the drive's limit at their combined depth.
    let limit = closed(&d, job(Rw::RandRead, 64))?.iops;
    let pair = streams(
        &d,
        vec![
            Stream::closed(&job(Rw::RandRead, 32)),
            Stream::closed(&job(Rw::RandRead, 32)),
        ],
    )?;
    for s in &pair.streams {
        assert!(s.iops < 0.75 * read_alone.iops, "{}", s.iops);
    }
    assert!(pair.iops <= 1.02 * limit, "{} vs {limit}", pair.iops);
    Ok(())
}

#[test]
fn a_hot_span_inside_the_host_memory_buffer_never_misses_the_mapping_cache() -> TestResult {
    // The DRAM-less E8 caches its mapping table in a 32 MiB host memory buffer, enough for a
    // 32 GiB span: random reads over 8 GB never read a mapping page, over the whole drive
    // most do, and pay a second flash read.
    let e8 = presets::find("e8").unwrap();
    let d = e8
        .drive_for_capacity_gb(f64::from(e8.default_capacity_gb()))
        .unwrap();
    let whole = Stream::closed(&job(Rw::RandRead, 1));
    let mut hot = whole.clone();
    hot.pattern_mut().unwrap().span = Span {
        offset_bytes: 100 * GB / 4096 * 4096,
        size_bytes: Some(8 * GB / 4096 * 4096),
    };
    let (whole, hot) = (streams(&d, vec![whole])?, streams(&d, vec![hot])?);
    assert!(
        hot.latency.mean_us < 0.7 * whole.latency.mean_us,
        "hot {} µs, whole drive {} µs",
        hot.latency.mean_us,
        whole.latency.mean_us
    );
    Ok(())
}

#[test]
fn a_bssplit_stream_moves_its_mean_request_size() -> TestResult {
    let sizes = BlockSizes::parse_bssplit("4k/75:64k/25").unwrap();
    let mean = sizes.mean_bytes();
    let mut s = Stream::closed(&job(Rw::RandRead, 16));
    s.pattern_mut().unwrap().sizes = sizes;
    let r = streams(&drive()?, vec![s])?;
    let bytes_per_io = r.bw_mb_s * 1e6 / r.iops;
    assert!(rel(bytes_per_io, mean) < 0.02, "{bytes_per_io} vs {mean}");
    Ok(())
}

#[test]
fn one_closed_stream_is_the_single_job_bit_for_bit() -> TestResult {
    let d = drive()?;
    let w = job(Rw::RandRw, 8);
    assert_eq!(streams(&d, vec![Stream::closed(&w)])?, closed(&d, w)?);
    Ok(())
}

/// Why `streams` on `d` are refused (an error if they are not).
fn refusal(d: &DriveSpec, streams: Vec<Stream>) -> TestResult<String> {
    let spec = StreamsSpec {
        drive: d.clone(),
        streams,
        state: DriveState::Fob,
        options: RunOptions::default(),
    };
    match spec.check() {
        Ok(_) => Err("streams the model should refuse pass its check".into()),
        Err(e) => Ok(e.to_string()),
    }
}

#[test]
fn streams_the_model_cannot_run_are_refused_with_the_reason() -> TestResult {
    let d = drive()?;
    let w = job(Rw::RandRead, 4);
    let check = |streams: Vec<Stream>| refusal(&d, streams);
    assert_eq!(
        check(vec![])?,
        "streams 0 is out of range (allowed: 1..=64)"
    );
    assert!(check(vec![Stream::closed(&w); 65])?.starts_with("streams 65"));
    for bad in [0.0, -5.0, f64::NAN, f64::INFINITY, 1e9] {
        let e = check(vec![Stream::at_rate(&w, bad, Spacing::Linear)])?;
        assert!(e.starts_with("rate (IOPS)"), "{bad}: {e}");
    }
    let spanning = |span: Span| {
        let mut s = Stream::closed(&w);
        s.pattern_mut().unwrap().span = span;
        s
    };
    let beyond = spanning(Span {
        offset_bytes: 4096 * (d.user_bytes() as u64 / 4096),
        size_bytes: None,
    });
    assert!(check(vec![beyond])?.contains("inside the drive"));
    let unaligned = spanning(Span {
        offset_bytes: 512,
        size_bytes: Some(GB),
    });
    assert!(check(vec![unaligned])?.contains("multiples of 4096"));
    let deep = Stream {
        arrival: Arrival::Closed { iodepth: 0 },
        ..Stream::closed(&w)
    };
    assert!(check(vec![deep])?.starts_with("iodepth 0"));
    Ok(())
}

/// `n` 4 KiB random reads over the drive, `gap_ns` apart.
fn random_read_trace(d: &DriveSpec, n: usize, gap_ns: u64) -> Arc<Trace> {
    let units = (d.user_bytes() as u64 / 4096) as u32;
    let mut rng = Rng::new(11);
    let requests = (0..n as u64)
        .map(|i| TraceRequest {
            at_ns: i * gap_ns,
            start_unit: rng.below(u64::from(units)) as u32,
            units: 1,
            write: false,
        })
        .collect();
    Arc::new(Trace::from_requests(TraceFormat::Mqsim, requests))
}

fn replay(d: &DriveSpec, trace: &Arc<Trace>, arrival: Arrival) -> TestResult<RunResult> {
    streams(d, vec![Stream::replay(Arc::clone(trace), arrival)])
}

#[test]
fn a_trace_replayed_as_fast_as_possible_at_iodepth_n_matches_the_closed_loop_at_iodepth_n(
) -> TestResult {
    let d = drive()?;
    let trace = random_read_trace(&d, 40_000, 1_000);
    for iodepth in [1, 32] {
        let replayed = replay(&d, &trace, Arrival::Closed { iodepth })?;
        let generated = closed(&d, job(Rw::RandRead, iodepth))?;
        assert_eq!(
            replayed.measured_ios, 40_000,
            "the whole trace, from its first request"
        );
        assert!(
            rel(replayed.iops, generated.iops) < 0.03,
            "QD{iodepth}: replay {} against the closed loop {}",
            replayed.iops,
            generated.iops
        );
    }
    Ok(())
}

#[test]
fn a_timed_replay_keeps_the_traces_clock_its_speed_factor_and_its_idle_cap() -> TestResult {
    let d = drive()?;
    // One read every millisecond for 2 seconds: the drive idles 92% of the time.
    let trace = random_read_trace(&d, 2_000, 1_000_000);
    let timed = |speed: f64, max_idle: Option<Nanos>| {
        replay(
            &d,
            &trace,
            Arrival::Timed {
                speed,
                max_idle,
                iodepth: 32,
            },
        )
    };
    let real = timed(1.0, None)?;
    assert!(
        rel(real.measured_ns as f64, 1.999e9) < 0.001,
        "{}",
        real.measured_ns
    );
    let qd1 = closed(&d, job(Rw::RandRead, 1))?.latency.mean_us;
    assert!(
        rel(real.latency.mean_us, qd1) < 0.01,
        "an idle drive each time"
    );
    // Busy time is what the reviews divide by: the requests' own service, idle excluded.
    assert!(
        rel(real.busy_ns as f64, 2_000.0 * qd1 * 1e3) < 0.02,
        "{}",
        real.busy_ns
    );
    assert!(rel(real.busy_mb_s(), 4096.0 / (qd1 * 1e-6) / 1e6) < 0.02);
    let twice = timed(2.0, None)?;
    assert!(rel(twice.measured_ns as f64, 0.9995e9) < 0.001);
    // Gaps capped at 100 µs: the same requests in a fifth of a second.
    let capped = timed(1.0, Some(Nanos::from_us(100)))?;
    assert!(
        rel(capped.measured_ns as f64, 0.1999e9) < 0.01,
        "{}",
        capped.measured_ns
    );
    assert!(capped.energy_j() < real.energy_j());
    Ok(())
}

#[test]
fn a_trace_from_a_larger_disk_wraps_onto_the_drive() -> TestResult {
    let d = drive()?;
    let beyond = (d.user_bytes() as u64 / 4096) as u32 + 1_000;
    let requests = (0..100)
        .map(|i| TraceRequest {
            at_ns: i * 10_000,
            start_unit: beyond + i as u32,
            units: 256,
            write: i % 2 == 0,
        })
        .collect();
    let trace = Arc::new(Trace::from_requests(TraceFormat::Msr, requests));
    let r = replay(&d, &trace, Arrival::Closed { iodepth: 4 })?;
    assert_eq!(r.measured_ios, 100);
    assert!(r.read_latency.is_some() && r.write_latency.is_some());
    Ok(())
}

#[test]
fn a_trace_runs_alone_and_only_a_trace_has_times_to_replay() -> TestResult {
    let d = drive()?;
    let trace = random_read_trace(&d, 10, 1_000);
    let check = |streams: Vec<Stream>| refusal(&d, streams);
    let both = vec![
        Stream::replay(Arc::clone(&trace), Arrival::Closed { iodepth: 1 }),
        Stream::closed(&job(Rw::RandRead, 1)),
    ];
    assert!(check(both)?.contains("1 when one of them replays a trace"));
    let timed_pattern = Stream {
        arrival: Arrival::Timed {
            speed: 1.0,
            max_idle: None,
            iodepth: 1,
        },
        ..Stream::closed(&job(Rw::RandRead, 1))
    };
    assert!(check(vec![timed_pattern])?.contains("only a trace has times"));
    let too_fast = Stream::replay(
        trace,
        Arrival::Timed {
            speed: 1e6,
            max_idle: None,
            iodepth: 1,
        },
    );
    assert!(check(vec![too_fast])?.starts_with("replay speed"));
    Ok(())
}

/// The data rate over the busy time of a generated desktop workload on the Octane at `gb`.
fn octane_desktop(workload: Desktop, gb: f64) -> TestResult<RunResult> {
    let d = presets::lookup("octane")?.drive_for_capacity_gb(gb)?;
    let trace = Arc::new(workload.trace(d.user_bytes() as u64, 0.05, 1));
    let timed = Arrival::Timed {
        speed: 1.0,
        max_idle: None,
        iodepth: 32,
    };
    let spec = StreamsSpec {
        drive: d,
        streams: vec![Stream::replay(trace, timed)],
        state: DriveState::Fob,
        options: RunOptions::default(),
    };
    Ok(Simulation::run(&spec.check()?)?)
}

#[test]
fn the_octane_128gb_does_well_on_light_desktop_work_and_is_penalised_on_heavy() -> TestResult {
    // OCZ Octane review (2011): on Storage Bench Light the 128 GB drive does "quite well"; "it's
    // in write heavy workloads that the reduction in number of available NAND die penalizes"
    // it. A quarter of the dies each program four times as much, and the Octane's firmware
    // does not suspend a program for a read.
    let ratio = |w: Desktop| -> TestResult<f64> {
        let (small, large) = (octane_desktop(w, 128.0)?, octane_desktop(w, 512.0)?);
        Ok(small.busy_mb_s() / large.busy_mb_s())
    };
    let (light, heavy) = (ratio(Desktop::Light)?, ratio(Desktop::Heavy)?);
    assert!(
        light > 0.88,
        "Light: the 128 GB at {light:.3} of the 512 GB"
    );
    assert!(
        heavy < light - 0.03,
        "Heavy {heavy:.3} of the 512 GB against Light {light:.3}"
    );
    Ok(())
}

#[test]
fn a_replays_series_adds_up_to_its_totals_and_follows_the_traces_load() -> TestResult {
    // Two seconds of reads: the first second 1,000 a second, the second 10,000.
    let d = drive()?;
    let units = (d.user_bytes() as u64 / 4096) as u32;
    let mut rng = Rng::new(3);
    let mut at = 0;
    let mut requests = Vec::new();
    for gap in std::iter::repeat_n(1_000_000, 1_000).chain(std::iter::repeat_n(100_000, 10_000)) {
        requests.push(TraceRequest {
            at_ns: at,
            start_unit: rng.below(u64::from(units)) as u32,
            units: 1,
            write: false,
        });
        at += gap;
    }
    let trace = Arc::new(Trace::from_requests(TraceFormat::Mqsim, requests));
    let spec = StreamsSpec {
        drive: d,
        streams: vec![Stream::replay(
            trace,
            Arrival::Timed {
                speed: 1.0,
                max_idle: None,
                iodepth: 32,
            },
        )],
        state: DriveState::SeqFilled,
        options: RunOptions::default(),
    };
    let mut sim = Simulation::new(&spec.check().unwrap());
    sim.record_series(Nanos::from_ms(100));
    while !sim.step(u64::MAX) {}
    let r = sim.result().unwrap();
    assert_eq!(r.series.len(), 20, "two seconds in 100 ms buckets");
    let ios: f64 = r.series.iter().map(|p| p.iops * 0.1).sum();
    assert!((ios - 11_000.0).abs() < 0.5, "{ios}");
    let (first, last) = (&r.series[5], &r.series[15]);
    assert!(rel(first.iops, 1_000.0) < 0.02 && rel(last.iops, 10_000.0) < 0.02);
    assert!(last.mean_in_system > 5.0 * first.mean_in_system);
    assert!(rel(first.lat_mean_us, r.latency.p50_us) < 0.1);
    Ok(())
}
