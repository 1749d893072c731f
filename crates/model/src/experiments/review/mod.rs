//! The E12 review's synthetic tests \[REF3\] as workloads on any drive: burst tests at QD1,
//! sustained tests over queue depth with the SLC cache carried from depth to depth, and the
//! mixed sweeps from pure reads to pure writes.
//!
//! Each test is data ([`TestSpec`]): what it moves, at which depths or mixes, on a drive
//! holding how much. Every rate comes from the I/O-level [`engine`] on the same drive; between
//! phases the SLC cache fills and folds at the grain of [`over_time`], so one phase's writes
//! and idle time decide what the next finds (the sustained sequential writes "bounce around"
//! in the review for that reason). What always holds: a test's points are in the review's
//! order, and its score is computed from them as the review computes it (the average of QD1,
//! QD2 and QD4 for a sustained test, of every mix for a mixed one).
//!
//! Two start states, each an assumption the review's text supports: a burst read test reads
//! a file written just before it, so the cache holds as much of it as fit (recently written
//! data reads at the SLC read time); every other test starts after the drive idled long enough
//! to fold its cache, since the drive empties the cache in idle time and the review idles
//! between phases.
//!
//! [`check`] reads the review's words as shapes and says whether a test's curve has them.
//!
//! [`engine`]: crate::Simulation
//! [`over_time`]: crate::over_time

pub mod check;

use serde::{Deserialize, Serialize};

use crate::config::{ConfigError, DriveSpec, DriveState, RunOptions, RunSpec, Rw};
use crate::over_time::{CachedDrive, Phases};
use crate::run::{RunError, SlcRoom};
use crate::sliced::Sliced;
use crate::stats::{self, Figure, Unsound};
use crate::Simulation;
use crate::Workload;

/// \[REF3\], as the page, `lab` and the README cite it.
pub const E12_SOURCE: &str = "The Phison E12 Reference Design Preview: A Next-Gen NVMe SSD Controller, Billy Tallis, AnandTech, July 18, 2018";
/// \[REF3\]'s sample, the only drive its words and figures belong to: the E12 at 960 GB.
pub const E12_SAMPLE_PRESET: &str = "e12";
pub const E12_SAMPLE_GB: f64 = 960.0;
/// \[REF3\]: the sample's sustained sequential writes stayed above this (MB/s)...
pub const E12_SUSTAINED_FLOOR_MB_S: f64 = 1000.0;
/// ...and what the review said of them and of the bursts.
pub const E12_SUSTAINED_WRITES_SAID: &str = "Sustained sequential writes (QD1 to QD32, 32 GB or one minute per depth, up to one minute idle between depths) bounced around between depths because the drive could not finish emptying its SLC cache in the idle gaps, yet stayed above 1 GB/s; bursts landing in the cache set records.";

/// The tests of the E12 review \[REF3\], in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Test {
    BurstRandomRead,
    BurstRandomWrite,
    SustainedRandomRead,
    SustainedRandomWrite,
    BurstSequentialRead,
    SustainedSequentialRead,
    BurstSequentialWrite,
    SustainedSequentialWrite,
    MixedRandom,
    MixedSequential,
}

crate::named_enum!(Test, "review test", name, {
    BurstRandomRead => "burst-random-read",
    BurstRandomWrite => "burst-random-write",
    SustainedRandomRead => "sustained-random-read",
    SustainedRandomWrite => "sustained-random-write",
    BurstSequentialRead => "burst-sequential-read",
    SustainedSequentialRead => "sustained-sequential-read",
    BurstSequentialWrite => "burst-sequential-write",
    SustainedSequentialWrite => "sustained-sequential-write",
    MixedRandom => "mixed-random",
    MixedSequential => "mixed-sequential",
});

/// How a test walks its phases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Shape {
    /// QD1 bursts with idle time between them (a 20% duty cycle): small enough that every
    /// burst meets an empty cache.
    Burst,
    /// One phase per queue depth, each a minute or 32 GB, then idle.
    Sustained,
    /// One phase per read share, from 100% reads to none, at one depth.
    Mixed,
}

/// One test of the suite.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TestSpec {
    pub test: Test,
    pub title: &'static str,
    pub shape: Shape,
    /// The pattern; a mixed test's mixes are `rwmixread` of its random or sequential mix.
    pub rw: Rw,
    pub bs_bytes: u32,
    /// The depths a sustained test sweeps; a burst test's one depth; a mixed test's depth.
    pub iodepths: &'static [u32],
    /// Test data on the drive (GB): the span it reads or writes.
    pub held_gb: f64,
    /// Data a burst test moves in all (GB).
    pub burst_total_gb: f64,
    /// What the review saw on its E12 sample, in its words.
    pub review_says: &'static str,
}

/// \[REF3\]: the sustained tests' depths, QD1 to QD32.
pub const SUSTAINED_IODEPTHS: [u32; 6] = [1, 2, 4, 8, 16, 32];
/// \[REF3\]: burst tests run at QD1.
const BURST_IODEPTH: [u32; 1] = [1];
/// \[REF3\]: the mixed random test runs at QD4, the mixed sequential one at QD1.
const MIXED_RANDOM_IODEPTH: [u32; 1] = [4];
const MIXED_SEQUENTIAL_IODEPTH: [u32; 1] = [1];
/// \[REF3\]: the mixes, 100% reads down to 0% in 10% steps.
pub const MIX_READ_PERCENTS: [u8; 11] = [100, 90, 80, 70, 60, 50, 40, 30, 20, 10, 0];
/// \[REF3\]: a sustained test's depth or a mix moves at most 32 GB...
pub const REVIEW_PHASE_GB: u32 = 32;
/// ...in at most a minute, and up to a minute of idle follows (a mix's idle equals its run: a
/// 50% duty cycle).
pub(crate) const REVIEW_PHASE_S: u32 = 60;
pub const REVIEW_IDLE_S: u32 = 60;
/// The three as one pacing.
pub const REVIEW_PHASES: Phases = Phases {
    phase_s: REVIEW_PHASE_S as f64,
    phase_gb: REVIEW_PHASE_GB as f64,
    idle_s: REVIEW_IDLE_S as f64,
};
/// \[REF3\]: the burst tests' span (16 GB) and the sustained and mixed tests' (64 GB).
const BURST_SPAN_GB: f64 = 16.0;
const SUSTAINED_SPAN_GB: f64 = 64.0;
/// \[REF3\]: the sustained score averages these depths.
const SCORED_IODEPTHS: [u32; 3] = [1, 2, 4];
const KIB: u32 = 1024;
const RANDOM_BS: u32 = 4 * KIB;
const SEQUENTIAL_BS: u32 = 128 * KIB;

/// The E12 review's synthetic tests \[REF3\], in its order, each with the review's words about
/// the E12 itself.
pub const E12_SUITE: [TestSpec; 10] = [
    TestSpec {
        test: Test::BurstRandomRead,
        title: "Burst random read (4 KiB, QD1)",
        shape: Shape::Burst,
        rw: Rw::RandRead,
        bs_bytes: RANDOM_BS,
        iodepths: &BURST_IODEPTH,
        held_gb: BURST_SPAN_GB,
        burst_total_gb: 1.0,
        review_says: "very good",
    },
    TestSpec {
        test: Test::BurstRandomWrite,
        title: "Burst random write (4 KiB, QD1)",
        shape: Shape::Burst,
        rw: Rw::RandWrite,
        bs_bytes: RANDOM_BS,
        iodepths: &BURST_IODEPTH,
        held_gb: BURST_SPAN_GB,
        burst_total_gb: 0.128,
        review_says: "a new record",
    },
    TestSpec {
        test: Test::SustainedRandomRead,
        title: "Sustained random read (4 KiB, QD1 to QD32)",
        shape: Shape::Sustained,
        rw: Rw::RandRead,
        bs_bytes: RANDOM_BS,
        iodepths: &SUSTAINED_IODEPTHS,
        held_gb: SUSTAINED_SPAN_GB,
        burst_total_gb: 0.0,
        review_says: "scales up nicely as queue depths increase",
    },
    TestSpec {
        test: Test::SustainedRandomWrite,
        title: "Sustained random write (4 KiB, QD1 to QD32)",
        shape: Shape::Sustained,
        rw: Rw::RandWrite,
        bs_bytes: RANDOM_BS,
        iodepths: &SUSTAINED_IODEPTHS,
        held_gb: SUSTAINED_SPAN_GB,
        burst_total_gb: 0.0,
        review_says: "very good at QD1 and QD2, but at higher queue depths many drives overtake \
                      it and saturate at a much higher speed",
    },
    TestSpec {
        test: Test::BurstSequentialRead,
        title: "Burst sequential read (128 KiB, QD1)",
        shape: Shape::Burst,
        rw: Rw::Read,
        bs_bytes: SEQUENTIAL_BS,
        iodepths: &BURST_IODEPTH,
        held_gb: BURST_SPAN_GB,
        burst_total_gb: 1.0,
        review_says: "just shy of 2 GB/s",
    },
    TestSpec {
        test: Test::SustainedSequentialRead,
        title: "Sustained sequential read (128 KiB, QD1 to QD32)",
        shape: Shape::Sustained,
        rw: Rw::Read,
        bs_bytes: SEQUENTIAL_BS,
        iodepths: &SUSTAINED_IODEPTHS,
        held_gb: SUSTAINED_SPAN_GB,
        burst_total_gb: 0.0,
        review_says: "mostly flat at low queue depths, and then jumps up toward saturation \
                      between QD4 and QD16",
    },
    TestSpec {
        test: Test::BurstSequentialWrite,
        title: "Burst sequential write (128 KiB, QD1)",
        shape: Shape::Burst,
        rw: Rw::Write,
        bs_bytes: SEQUENTIAL_BS,
        iodepths: &BURST_IODEPTH,
        held_gb: BURST_SPAN_GB,
        burst_total_gb: 1.0,
        review_says: "a record",
    },
    TestSpec {
        test: Test::SustainedSequentialWrite,
        title: "Sustained sequential write (128 KiB, QD1 to QD32)",
        shape: Shape::Sustained,
        rw: Rw::Write,
        bs_bytes: SEQUENTIAL_BS,
        iodepths: &SUSTAINED_IODEPTHS,
        held_gb: SUSTAINED_SPAN_GB,
        burst_total_gb: 0.0,
        review_says: "excellent at QD2, but then bounces around; above 1 GB/s throughout",
    },
    TestSpec {
        test: Test::MixedRandom,
        title: "Mixed random (4 KiB, QD4, 100% to 0% reads)",
        shape: Shape::Mixed,
        rw: Rw::RandRw,
        bs_bytes: RANDOM_BS,
        iodepths: &MIXED_RANDOM_IODEPTH,
        held_gb: SUSTAINED_SPAN_GB,
        burst_total_gb: 0.0,
        review_says: "gains performance slowly as the test progresses from pure reads toward \
                      write-heavy workloads",
    },
    TestSpec {
        test: Test::MixedSequential,
        title: "Mixed sequential (128 KiB, QD1, 100% to 0% reads)",
        shape: Shape::Mixed,
        rw: Rw::Rw,
        bs_bytes: SEQUENTIAL_BS,
        iodepths: &MIXED_SEQUENTIAL_IODEPTH,
        held_gb: SUSTAINED_SPAN_GB,
        burst_total_gb: 0.0,
        review_says: "barely loses any performance when writes are added to the mix",
    },
];

/// One measured phase of a test.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewPoint {
    // Scripts that read `lab`'s JSON know this field as `qd`.
    #[serde(rename = "qd")]
    pub iodepth: u32,
    pub read_percent: u8,
    pub mb_s: f64,
    /// Share of the reads served from SLC-mode blocks (cached data not yet folded).
    pub slc_read_share: f64,
}

/// A test's curve and its score, as the review reports them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestResult {
    pub test: Test,
    pub points: Vec<ReviewPoint>,
    pub score_mb_s: f64,
}

impl TestResult {
    /// Every figure finite and at or above zero, each read share at most 1 (see
    /// [`crate::stats::check`]).
    pub fn check(&self) -> Result<(), Unsound> {
        if let Some((i, p)) = (self.points.iter().enumerate()).find(|(_, p)| p.slc_read_share > 1.0)
        {
            return Err(Unsound::NotAShare {
                what: Figure::numbered("the test's point #: share of reads from SLC", i)
                    .to_string(),
                value: p.slc_read_share,
            });
        }
        let points = self.points.iter().enumerate().flat_map(|(i, p)| {
            [
                (Figure::numbered("the test's point #: MB/s", i), p.mb_s),
                (
                    Figure::numbered("the test's point #: share of reads from SLC", i),
                    p.slc_read_share,
                ),
            ]
        });
        stats::figures(points.chain([(Figure::named("the test's score"), self.score_mb_s)]))
    }

    /// The point at depth `iodepth`, if the test ran it.
    pub fn at_iodepth(&self, iodepth: u32) -> Option<&ReviewPoint> {
        self.points.iter().find(|p| p.iodepth == iodepth)
    }

    /// The point at `read_percent` reads, if the test ran it.
    pub fn at_read_percent(&self, read_percent: u8) -> Option<&ReviewPoint> {
        self.points.iter().find(|p| p.read_percent == read_percent)
    }
}

impl TestSpec {
    /// The E12 suite's spec of `test`.
    pub fn of(test: Test) -> &'static TestSpec {
        // The suite holds every test once, in `Test::ALL`'s order.
        &E12_SUITE[test as usize]
    }
}

/// Run every test of `suite` on `drive`, in order.
///
/// ```
/// use parallelism_model::presets;
/// use parallelism_model::review::{self, Test, E12_SUITE};
/// use parallelism_model::RunOptions;
///
/// let drive = presets::find("e12").unwrap().drive_for_capacity_gb(960.0).unwrap();
/// let options = RunOptions { seed: 1, measured_ios: 2_000, ..RunOptions::default() };
/// let results = review::run(&drive, &E12_SUITE[..1], options).unwrap();
/// assert_eq!(results[0].test, Test::BurstRandomRead);
/// assert!(results[0].score_mb_s > 0.0);
/// ```
pub fn run(
    drive: &DriveSpec,
    suite: &[TestSpec],
    options: RunOptions,
) -> Result<Vec<TestResult>, RunError> {
    ReviewRun::new(drive, suite, options)?.finish()
}

/// Run one test on `drive`.
pub fn run_test(
    drive: &DriveSpec,
    spec: &TestSpec,
    options: RunOptions,
) -> Result<TestResult, RunError> {
    let mut results = run(drive, std::slice::from_ref(spec), options)?;
    Ok(results.remove(0))
}

/// A suite run in steps, one phase (one depth or one mix of one test) a step, so a page's
/// worker can stop between any two; [`run`] is this run stepped to its end, so the two give the
/// same results bit for bit.
pub struct ReviewRun {
    drive: DriveSpec,
    suite: Vec<TestSpec>,
    options: RunOptions,
    done: Vec<TestResult>,
    /// The test under way: its drive state and the points so far.
    current: Option<(CachedDrive, Vec<ReviewPoint>)>,
}

impl ReviewRun {
    /// The suite on `drive`, every test's span checked against the drive before any runs.
    pub fn new(
        drive: &DriveSpec,
        suite: &[TestSpec],
        options: RunOptions,
    ) -> Result<ReviewRun, ConfigError> {
        for spec in suite {
            if spec.held_gb > drive.user_gb() {
                return Err(ConfigError::OutOfRange {
                    what: "test span (GB)".into(),
                    value: spec.held_gb.to_string(),
                    allowed: format!("up to the drive's {:.0} GB", drive.user_gb()),
                });
            }
        }
        Ok(ReviewRun {
            drive: drive.clone(),
            suite: suite.to_vec(),
            options,
            done: Vec::new(),
            current: None,
        })
    }

    /// Phases done and phases in all.
    pub fn phases(&self) -> (usize, usize) {
        let total = self.suite.iter().map(phases_of).sum();
        let finished: usize = self.suite[..self.done.len()].iter().map(phases_of).sum();
        let under_way = self.current.as_ref().map_or(0, |(_, p)| p.len());
        (finished + under_way, total)
    }

    /// Computes one phase; every test's result once the last is done.
    fn phase(&mut self) -> Result<Option<Vec<TestResult>>, RunError> {
        let Some(&spec) = self.suite.get(self.done.len()) else {
            return Ok(Some(self.done.clone()));
        };
        let (mut d, mut points) = self
            .current
            .take()
            .unwrap_or_else(|| (start_state(&self.drive, &spec), Vec::new()));
        points.push(phase(
            &self.drive,
            &spec,
            points.len(),
            &mut d,
            self.options,
        )?);
        if points.len() < phases_of(&spec) {
            self.current = Some((d, points));
        } else {
            let score_mb_s = score(spec.shape, &points);
            let result = TestResult {
                test: spec.test,
                points,
                score_mb_s,
            };
            result.check()?;
            self.done.push(result);
        }
        Ok((self.done.len() == self.suite.len()).then(|| self.done.clone()))
    }
}

/// Its unit is one phase (a depth, or a mix: at most a few milliseconds of engine work); a
/// step computes at least one.
impl Sliced for ReviewRun {
    type Output = Vec<TestResult>;
    type Error = RunError;

    fn step(&mut self, budget: usize) -> Result<Option<Vec<TestResult>>, RunError> {
        for _ in 1..budget.max(1) {
            if let Some(done) = self.phase()? {
                return Ok(Some(done));
            }
        }
        self.phase()
    }

    fn progress(&self) -> f64 {
        let (done, total) = self.phases();
        done as f64 / total.max(1) as f64
    }
}

fn reads_only(spec: &TestSpec) -> bool {
    spec.rw.fixed_read_percent() == Some(100)
}

/// Phases of a test: one per depth, or one per mix.
fn phases_of(spec: &TestSpec) -> usize {
    match spec.shape {
        Shape::Mixed => MIX_READ_PERCENTS.len(),
        Shape::Burst | Shape::Sustained => spec.iodepths.len(),
    }
}

/// The drive a test starts on (see the module docs).
fn start_state(drive: &DriveSpec, spec: &TestSpec) -> CachedDrive {
    let held = spec.held_gb * 1e9;
    match (spec.shape, reads_only(spec)) {
        (Shape::Burst, true) => CachedDrive::just_written(drive, held),
        _ => CachedDrive::idled(drive, held),
    }
}

/// Phase `i` of a test on drive state `d`.
fn phase(
    drive: &DriveSpec,
    spec: &TestSpec,
    i: usize,
    d: &mut CachedDrive,
    options: RunOptions,
) -> Result<ReviewPoint, RunError> {
    match spec.shape {
        Shape::Mixed => mixed_point(drive, spec, MIX_READ_PERCENTS[i], d, options),
        _ if reads_only(spec) => read_point(drive, spec, spec.iodepths[i], d, options),
        _ => Ok(write_point(spec, spec.iodepths[i], d)),
    }
}

fn read_point(
    drive: &DriveSpec,
    spec: &TestSpec,
    iodepth: u32,
    d: &CachedDrive,
    options: RunOptions,
) -> Result<ReviewPoint, RunError> {
    let share = d.share_in_cache();
    let mb_s = engine_mb_s(drive, spec, iodepth, 100, SlcRoom::Bytes(0), share, options)?;
    Ok(ReviewPoint {
        iodepth,
        read_percent: 100,
        mb_s,
        slc_read_share: share,
    })
}

fn write_point(spec: &TestSpec, iodepth: u32, d: &mut CachedDrive) -> ReviewPoint {
    let phases = match spec.shape {
        // Bursts small enough to land in an empty cache, run back to back.
        Shape::Burst => Phases {
            phase_s: f64::INFINITY,
            phase_gb: spec.burst_total_gb,
            idle_s: 0.0,
        },
        _ => REVIEW_PHASES,
    };
    let (bytes, seconds) = d.write_phase(spec.rw, spec.bs_bytes, iodepth, phases);
    d.idle_after(seconds, phases);
    ReviewPoint {
        iodepth,
        read_percent: 0,
        mb_s: bytes / seconds.max(f64::MIN_POSITIVE) / 1e6,
        slc_read_share: 0.0,
    }
}

/// A mix runs a minute or 32 GB; its writes fill the cache, and the idle after it (as long as
/// the mix ran) folds it.
fn mixed_point(
    drive: &DriveSpec,
    spec: &TestSpec,
    read_percent: u8,
    d: &mut CachedDrive,
    options: RunOptions,
) -> Result<ReviewPoint, RunError> {
    let iodepth = spec.iodepths[0];
    let phases = REVIEW_PHASES;
    let room = if d.cache_has_room() {
        SlcRoom::Unlimited
    } else {
        SlcRoom::Bytes(0)
    };
    let share = d.share_in_cache();
    let mb_s = engine_mb_s(drive, spec, iodepth, read_percent, room, share, options)?;
    let seconds = (phases.phase_gb * 1e3 / mb_s.max(f64::MIN_POSITIVE)).min(phases.phase_s);
    let written = mb_s * 1e6 * seconds * f64::from(100 - read_percent) / 100.0;
    d.absorb(written);
    d.idle_after(seconds, phases);
    Ok(ReviewPoint {
        iodepth,
        read_percent,
        mb_s,
        slc_read_share: share,
    })
}

fn engine_mb_s(
    drive: &DriveSpec,
    spec: &TestSpec,
    iodepth: u32,
    read_percent: u8,
    room: SlcRoom,
    slc_read_share: f64,
    options: RunOptions,
) -> Result<f64, RunError> {
    let run = RunSpec {
        drive: drive.clone(),
        workload: Workload {
            rw: Rw::from_parts(spec.rw.is_random(), read_percent),
            rwmixread: read_percent,
            bs_bytes: spec.bs_bytes,
            iodepth,
        },
        state: DriveState::Fob,
        // A phase's figure is its MB/s: the run keeps no anatomy.
        options: options.without_anatomy(),
    }
    .check()?
    .with_slc_room(room)
    .with_slc_read_share(slc_read_share)?;
    Ok(Simulation::run(&run)?.bw_mb_s)
}

fn score(shape: Shape, points: &[ReviewPoint]) -> f64 {
    let scored: Vec<f64> = match shape {
        Shape::Sustained => points
            .iter()
            .filter(|p| SCORED_IODEPTHS.contains(&p.iodepth))
            .map(|p| p.mb_s)
            .collect(),
        Shape::Burst | Shape::Mixed => points.iter().map(|p| p.mb_s).collect(),
    };
    if scored.is_empty() {
        return 0.0;
    }
    scored.iter().sum::<f64>() / scored.len() as f64
}
