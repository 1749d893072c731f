//! Where a request's time goes ([`parallelism_model::anatomy`]): each test a small scenario
//! and the queueing fact it shows, with what the parts must be.
#![cfg(not(target_arch = "wasm32"))]

use parallelism_model::anatomy::{Breakdown, DirectionAnatomy, Followed, Part, Whereabouts};
use parallelism_model::presets;
use parallelism_model::time::Nanos;
use parallelism_model::workload::{Arrival, Spacing, Stream, StreamsSpec};
use parallelism_model::{DriveSpec, DriveState, RunOptions, RunResult, Rw, Simulation, Workload};
use proptest::prelude::*;

type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

fn job(rw: Rw, rwmixread: u8, bs_bytes: u32, iodepth: u32) -> Workload {
    Workload {
        rw,
        rwmixread,
        bs_bytes,
        iodepth,
    }
}

fn run(d: &DriveSpec, streams: Vec<Stream>, state: DriveState, ios: u64) -> TestResult<RunResult> {
    let spec = StreamsSpec {
        drive: d.clone(),
        streams,
        state,
        options: RunOptions {
            measured_ios: ios,
            ..RunOptions::default()
        },
    };
    Ok(Simulation::run(&spec.check()?)?)
}

fn reads(r: &RunResult) -> TestResult<&DirectionAnatomy> {
    r.anatomy
        .reads
        .as_ref()
        .ok_or_else(|| "no reads measured".into())
}

/// The parts of `b` that took any time, for messages.
fn shown(b: &Breakdown) -> String {
    Part::ALL
        .into_iter()
        .filter(|&p| b.part_us(p) > 0.0)
        .map(|p| format!("{p} {:.1} µs", b.part_us(p)))
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn a_qd1_read_on_an_idle_drive_is_its_command_sense_and_transfers_with_no_wait() -> TestResult {
    // One 4 KiB read at a time: nothing is ever ahead of it, so it waits for nothing. Its
    // time is the host's stack, the controller's command, its own sense, and its page on the
    // channel and the link; every request is the same, so the p99.9's parts are the mean's.
    let d = presets::lookup("e18dc")?.drive_for_capacity_gb(1920.0)?;
    let r = run(
        &d,
        vec![Stream::closed(&job(Rw::RandRead, 100, 4096, 1))],
        DriveState::SeqFilled,
        2_000,
    )?;
    let a = reads(&r)?;
    let waits = [
        Part::HostQueue,
        Part::ControllerQueue,
        Part::MappingRead,
        Part::ReadAhead,
        Part::BufferWait,
        Part::BehindReads,
        Part::BehindPrograms,
        Part::BehindGc,
        Part::Suspends,
        Part::PowerWait,
        Part::ChannelQueue,
        Part::LinkQueue,
    ];
    for part in waits {
        assert_eq!(a.mean.part_us(part), 0.0, "{part}: {}", shown(&a.mean));
    }
    let own = a.mean.part_us(Part::Sense) + a.mean.part_us(Part::SlcSense);
    for (what, us) in [
        ("host stack", a.mean.part_us(Part::HostStack)),
        ("command", a.mean.part_us(Part::Command)),
        ("sense", own),
        ("channel", a.mean.part_us(Part::ChannelTransfer)),
        ("link", a.mean.part_us(Part::LinkTransfer)),
    ] {
        assert!(us > 0.0, "{what}: {}", shown(&a.mean));
    }
    assert!((a.p999.latency_us - a.mean.latency_us).abs() < 1e-6);
    assert!((a.mean.latency_us - r.latency.mean_us).abs() < 0.002);
    Ok(())
}

#[test]
fn past_the_knee_of_an_open_loop_the_host_queue_is_most_of_the_time() -> TestResult {
    // Offered more than the drive completes, requests pile up in the host: the time waiting
    // there grows without bound while the device's part stays what the depth allows.
    let d = presets::lookup("e18dc")?.drive_with_dies(8)?;
    let w = job(Rw::RandRead, 100, 4096, 64);
    let capacity = run(&d, vec![Stream::closed(&w)], DriveState::SeqFilled, 20_000)?.iops;
    let over = Stream::at_rate(&w, capacity * 1.3, Spacing::Poisson);
    let r = run(&d, vec![over], DriveState::SeqFilled, 20_000)?;
    let a = reads(&r)?;
    let (part, share) = a.mean.largest();
    assert_eq!(part, Part::HostQueue, "{}", shown(&a.mean));
    assert!(share > 0.5, "host queue {share:.2} of {}", shown(&a.mean));
    Ok(())
}

#[test]
fn a_70_30_mix_at_qd256_on_the_480_gb_e18dc_has_reads_whose_p99_waits_for_the_writes() -> TestResult
{
    // Steady state, 8 dies: the writes' programs and garbage collection hold the dies, and the
    // reads that meet them make the tail. The reads' own sense and transfers are a small part
    // of their p99.
    let d = presets::lookup("e18dc")?.drive_for_capacity_gb(480.0)?;
    let w = job(Rw::RandRw, 70, 4096, 256);
    let r = run(&d, vec![Stream::closed(&w)], DriveState::Steady, 30_000)?;
    let p99 = &reads(&r)?.p99;
    let writes = p99.share_of(Part::writes_cause);
    let own = p99.share_of(|p| {
        matches!(
            p,
            Part::Sense | Part::SlcSense | Part::ChannelTransfer | Part::LinkTransfer
        )
    });
    assert!(writes > 0.5, "writes cause {writes:.2}: {}", shown(p99));
    assert!(writes > own, "own {own:.2}: {}", shown(p99));
    Ok(())
}

#[test]
fn a_qd1_reader_beside_a_qd32_writer_waits_behind_programs_for_most_of_its_p99() -> TestResult {
    // The reader asks for one page at a time; the writer keeps the dies programming. A read
    // that lands on a programming die waits for the program (or its suspend): that wait is
    // what the writer costs the reader at the tail.
    let d = presets::lookup("e18dc")?.drive_for_capacity_gb(480.0)?;
    let reader = Stream::closed(&job(Rw::RandRead, 100, 4096, 1));
    let writer = Stream::closed(&job(Rw::RandWrite, 0, 4096, 32));
    let r = run(&d, vec![reader, writer], DriveState::Steady, 30_000)?;
    let reader = &r.streams[0].anatomy;
    let p99 = &reader
        .reads
        .as_ref()
        .ok_or("the reader measured no reads")?
        .p99;
    let behind =
        p99.share_of(|p| matches!(p, Part::BehindPrograms | Part::Suspends | Part::BehindGc));
    assert!(behind > 0.5, "behind programs {behind:.2}: {}", shown(p99));
    assert!(reader.writes.is_none(), "the reader wrote nothing");
    Ok(())
}

fn any_drive() -> impl Strategy<Value = (usize, usize)> {
    (0..presets::all().len(), 0usize..3)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Every request's parts add up to its latency to the nanosecond: the engine asserts it
    /// for each request as it records it (a debug assertion, on in tests), and each
    /// direction's mean parts are its mean latency.
    #[test]
    fn every_requests_parts_add_up_to_its_latency(
        (which, size) in any_drive(),
        rw in prop::sample::select(vec![Rw::RandRead, Rw::RandWrite, Rw::RandRw, Rw::Read, Rw::Write, Rw::Rw]),
        bs_kib in prop::sample::select(vec![4u32, 16, 128]),
        iodepth in prop::sample::select(vec![1u32, 4, 32, 256]),
        state in prop::sample::select(vec![DriveState::Fob, DriveState::SeqFilled, DriveState::Steady]),
        rate in prop::option::of(10_000.0f64..400_000.0),
    ) {
        prop_assert!(cfg!(debug_assertions), "the per-request check is a debug assertion");
        let preset = &presets::all()[which];
        let sizes = &preset.capacities_gb;
        let gb = sizes.get(size.min(sizes.len().saturating_sub(1))).copied().unwrap_or(480);
        let d = preset.drive_for_capacity_gb(f64::from(gb)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let w = job(rw, 70, bs_kib * 1024, iodepth);
        let stream = match rate {
            Some(iops) => Stream::at_rate(&w, iops, Spacing::Poisson),
            None => Stream::closed(&w),
        };
        let r = run(&d, vec![stream], state, 1_500).map_err(|e| TestCaseError::fail(e.to_string()))?;
        for (a, l) in [(&r.anatomy.reads, &r.read_latency), (&r.anatomy.writes, &r.write_latency)] {
            prop_assert_eq!(a.is_some(), l.is_some());
            if let (Some(a), Some(l)) = (a, l) {
                prop_assert!((a.mean.latency_us - l.mean_us).abs() < 0.002);
                prop_assert!(a.p99.latency_us >= a.mean.latency_us * 0.999);
            }
        }
    }
}

#[test]
fn streams_kept_apart_have_their_own_anatomy() -> TestResult {
    // Two closed streams: each stream's parts are its own requests', and a stream of reads has
    // no writes' anatomy.
    let d = presets::lookup("e12")?.drive_for_capacity_gb(480.0)?;
    let a = Stream::closed(&job(Rw::RandRead, 100, 4096, 4));
    let b = Stream {
        arrival: Arrival::Closed { iodepth: 4 },
        ..Stream::closed(&job(Rw::Write, 0, 131_072, 4))
    };
    let r = run(&d, vec![a, b], DriveState::SeqFilled, 4_000)?;
    assert!(r.streams[0].anatomy.writes.is_none() && r.streams[0].anatomy.reads.is_some());
    assert!(r.streams[1].anatomy.reads.is_none() && r.streams[1].anatomy.writes.is_some());
    let w = r.streams[1].anatomy.writes.as_ref().ok_or("no writes")?;
    assert_eq!(
        w.from_dram, 1.0,
        "writes are acknowledged from the write buffer"
    );
    assert_eq!(w.mean.part_us(Part::Sense), 0.0);
    Ok(())
}

/// Steps `sim` one event at a time until the followed request is done, and returns where it
/// was seen, each place once in order, and what it was made of.
fn follow(sim: &mut Simulation, write: bool) -> TestResult<(Vec<Whereabouts>, Followed)> {
    sim.follow_next(write);
    let mut seen: Vec<Whereabouts> = Vec::new();
    for _ in 0..2_000_000 {
        sim.step(1);
        if let Some(f) = sim.followed() {
            if seen.last() != Some(&f.at) {
                seen.push(f.at);
            }
            if f.at == Whereabouts::Done {
                return Ok((seen, f));
            }
        }
    }
    Err(format!("the followed request never finished: {seen:?}").into())
}

#[test]
fn a_followed_read_is_seen_at_its_die_then_on_its_way_back_and_its_parts_are_its_latency(
) -> TestResult {
    // One read at a time on an idle drive: it is at the controller, then sensed on a die,
    // then its data crosses the channel and the link; done, its parts are its whole latency.
    let d = presets::lookup("e18dc")?.drive_for_capacity_gb(1920.0)?;
    let spec = StreamsSpec {
        drive: d,
        streams: vec![Stream::closed(&job(Rw::RandRead, 100, 4096, 1))],
        state: DriveState::SeqFilled,
        options: RunOptions::default(),
    };
    let mut sim = Simulation::watched(&spec.check()?);
    sim.step(100);
    let (seen, f) = follow(&mut sim, false)?;
    assert!(!f.write);
    assert_eq!(f.parts.total(), f.age, "{seen:?}");
    assert!(
        seen.iter()
            .any(|w| matches!(w, Whereabouts::Die { behind: None, .. })),
        "sensed on a die: {seen:?}"
    );
    assert_eq!(seen.last(), Some(&Whereabouts::Done));
    assert!(f.parts.get(Part::Sense) > Nanos::ZERO || f.parts.get(Part::SlcSense) > Nanos::ZERO);
    Ok(())
}

#[test]
fn a_followed_write_on_a_full_buffer_waits_for_room_then_crosses_the_link() -> TestResult {
    // Random writes at QD32 in steady state keep the write buffer full: a write waits for
    // room, then its data crosses the link and the drive acknowledges it.
    let d = presets::lookup("e18dc")?.drive_for_capacity_gb(480.0)?;
    let spec = StreamsSpec {
        drive: d,
        streams: vec![Stream::closed(&job(Rw::RandWrite, 0, 4096, 32))],
        state: DriveState::Steady,
        options: RunOptions {
            measured_ios: 100_000,
            ..RunOptions::default()
        },
    };
    let mut sim = Simulation::new(&spec.check()?);
    sim.step(50_000);
    assert!(!sim.is_finished(), "the buffer fills before the run ends");
    let (seen, f) = follow(&mut sim, true)?;
    assert!(f.write);
    assert!(seen.contains(&Whereabouts::Buffer), "{seen:?}");
    assert_eq!(f.parts.total(), f.age);
    assert!(f.parts.get(Part::BufferWait) > Nanos::ZERO);
    Ok(())
}

#[test]
fn a_run_without_the_anatomy_follows_nobody() -> TestResult {
    // Without the anatomy the engine keeps no parts and no die clocks: asked to follow a
    // read, it says it follows none rather than give a journey of zeros.
    let d = presets::lookup("e18dc")?.drive_for_capacity_gb(480.0)?;
    let spec = StreamsSpec {
        drive: d,
        streams: vec![Stream::closed(&job(Rw::RandRead, 100, 4096, 4))],
        state: DriveState::SeqFilled,
        options: RunOptions::default().without_anatomy(),
    };
    let mut sim = Simulation::watched(&spec.check()?);
    sim.follow_next(false);
    sim.step(1_000);
    assert_eq!(sim.followed(), None);
    Ok(())
}

#[test]
fn a_run_without_the_anatomy_has_the_same_figures_and_no_anatomy() -> TestResult {
    // The anatomy only watches: the same run with it off has the same events, latencies and
    // throughput, and reports no parts.
    let d = presets::lookup("e12")?.drive_for_capacity_gb(480.0)?;
    let w = job(Rw::RandRw, 70, 4096, 32);
    let with = |anatomy: bool| -> TestResult<RunResult> {
        let spec = StreamsSpec {
            drive: d.clone(),
            streams: vec![Stream::closed(&w)],
            state: DriveState::Steady,
            options: RunOptions {
                measured_ios: 3_000,
                anatomy,
                ..RunOptions::default()
            },
        };
        Ok(Simulation::run(&spec.check()?)?)
    };
    let (on, off) = (with(true)?, with(false)?);
    assert_eq!(on.events, off.events);
    assert_eq!(on.latency, off.latency);
    assert_eq!(on.iops, off.iops);
    assert!(on.anatomy.reads.is_some() && on.anatomy.writes.is_some());
    assert_eq!(off.anatomy, Default::default());
    Ok(())
}
