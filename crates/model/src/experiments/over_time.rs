//! Drive state over time: the SLC cache filling and folding, garbage collection catching up
//! under a random-write torture, and TRIM giving the space back.
//!
//! These effects play out over gigabytes and minutes, far beyond what an I/O-level run covers,
//! so this part works at a coarse grain (chunks of the drive's capacity, windows of minutes).
//! It never invents a rate of its own: every speed comes from the I/O-level [`engine`] run on
//! the same drive, with the SLC cache's program time or with the write amplification that the
//! scaled [`ftl`] reports for that moment. The same die counts and timings therefore give the
//! same steady rates at both grains (a test checks it).
//!
//! Every computation that runs the engine or the scaled FTL also comes in slices, for a page
//! that must never block: [`CacheRatesRun`] (the three rates behind [`fill`] and [`bursts`],
//! whose own arithmetic, [`fill_with`] and [`bursts_with`], is a fraction of a millisecond) and
//! [`TortureRun`]. Their `step(budget)` does at most about `budget` engine events or scaled
//! writes, and what always holds is that a finished sliced run gives bit for bit the one-shot
//! result: the one-shot functions are those runs stepped without a budget, so the two paths
//! cannot drift apart, and the engine's runs are deterministic however they are cut.
//!
//! [`engine`]: crate::Simulation
//! [`ftl`]: crate::ftl

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::config::{
    ConfigError, DriveSpec, DriveState, RunOptions, RunSpec, Rw, SlcCache, Workload,
};
use crate::ftl::{scaled_drive, ScaledFtl};
use crate::rng::Rng;
use crate::run::{CheckedRun, RunError, SlcRoom};
use crate::sliced::Sliced;
use crate::stats::{self, Figure, Unsound};
use crate::Simulation;

/// Model work a caller of the sliced runs does between two looks at its clock: engine events or
/// scaled-drive writes (about 0.3 ms natively, 1 ms in a browser). The page and `lab bench`
/// step with it.
pub const WORK_UNITS_PER_STEP: usize = 2_000;

/// Sequential writes as reviewers fill a drive: 128 KiB at QD32.
pub const FILL_BS: u32 = 128 * 1024;
pub const FILL_IODEPTH: u32 = 32;
/// The torture test of the OCZ Octane review [REF4]: 4 KiB random writes at QD32.
const TORTURE_BS: u32 = 4096;
const TORTURE_IODEPTH: u32 = 32;
/// ...and the sequential write measured before and after it: 128 KiB at QD1.
const SEQ_PROBE_IODEPTH: u32 = 1;
/// Chunks a whole-drive fill is split into (a 2 TB drive: 5 GB per chunk).
const FILL_CHUNKS: usize = 400;
/// I/Os per engine run behind a rate: rates are memoised, so a few runs serve a whole curve.
const RATE_IOS: u64 = 4_000;
/// Write amplifications the engine is asked about; others are interpolated. Time per byte is
/// linear in write amplification while one resource limits (each unit of amplification adds the
/// same die or controller work), so linear interpolation of seconds per MB between these points
/// is exact within a bottleneck and close where the bottleneck changes.
const WA_GRID: [f64; 11] = [1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0];
/// Points of a torture series.
const TORTURE_POINTS: usize = 40;

/// Where a fill point's data went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FillPhase {
    /// Into the SLC cache.
    Cache,
    /// Straight to TLC/QLC/MLC: the cache is full.
    PostCache,
    /// Straight to TLC while the shrinking cache must also be folded out of the way.
    Folding,
}

/// One chunk of a whole-drive fill.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FillPoint {
    pub gb_written: f64,
    pub mb_s: f64,
    pub phase: FillPhase,
}

/// A sequential fill from empty, as reviews draw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FillReport {
    pub capacity_gb: f64,
    /// SLC cache available on the empty drive.
    pub slc_cache_gb: f64,
    pub average_mb_s: f64,
    pub points: Vec<FillPoint>,
}

impl FillReport {
    /// Every figure finite and at or above zero (see [`crate::stats::check`]).
    pub fn check(&self) -> Result<(), Unsound> {
        let points = self.points.iter().enumerate().flat_map(|(i, p)| {
            [
                (
                    Figure::numbered("the fill's point #: GB written", i),
                    p.gb_written,
                ),
                (Figure::numbered("the fill's point #: MB/s", i), p.mb_s),
            ]
        });
        let whole = [
            (Figure::named("the fill's capacity"), self.capacity_gb),
            (Figure::named("the fill's SLC cache"), self.slc_cache_gb),
            (Figure::named("the fill's average MB/s"), self.average_mb_s),
        ];
        stats::figures(whole.into_iter().chain(points))
    }
}

/// One burst of a burst-and-idle run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BurstPoint {
    pub burst: u32,
    pub mb_s: f64,
    /// Cache free when the burst started.
    pub cache_free_gb: f64,
}

/// One moment of the torture run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TorturePoint {
    pub minute: f64,
    pub mb_s: f64,
    pub write_amplification: f64,
}

/// The torture test: sequential write speed fresh, after random-write torture, after TRIM.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TortureReport {
    pub fresh_mb_s: f64,
    pub after_torture_mb_s: f64,
    pub after_trim_mb_s: f64,
    /// Random-write speed over the torture.
    pub series: Vec<TorturePoint>,
}

impl TortureReport {
    /// Every figure finite and at or above zero (see [`crate::stats::check`]).
    pub fn check(&self) -> Result<(), Unsound> {
        let series = self.series.iter().enumerate().flat_map(|(i, p)| {
            [
                (Figure::numbered("the torture's point #: MB/s", i), p.mb_s),
                (
                    Figure::numbered("the torture's point #: write amplification", i),
                    p.write_amplification,
                ),
            ]
        });
        let whole = [
            (Figure::named("the fresh MB/s"), self.fresh_mb_s),
            (
                Figure::named("the MB/s after torture"),
                self.after_torture_mb_s,
            ),
            (Figure::named("the MB/s after TRIM"), self.after_trim_mb_s),
        ];
        stats::figures(whole.into_iter().chain(series))
    }
}

/// One engine run behind a rate: the pattern, block size, depth, write amplification (its bits)
/// and whether the dies program in SLC mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct RateKey {
    rw: Rw,
    bs: u32,
    iodepth: u32,
    wa_bits: u64,
    slc: bool,
}

/// Write rates of one drive, from the I/O-level engine, memoised. Each rate is one engine run;
/// `Rates::prepare` advances those runs a bounded number of events at a time, so the sliced
/// computations below never block, and the one-shot path runs them to the end the same way.
pub struct Rates {
    drive: DriveSpec,
    memo: HashMap<RateKey, f64>,
    /// The engine run in progress, if a slice ran out of budget in the middle of one.
    running: Option<(RateKey, Simulation)>,
    /// The first engine run that gave no result (it stalled, or its result failed its check):
    /// the computations that use these rates report it instead of a result.
    failed: Option<RunError>,
}

impl Rates {
    pub fn new(drive: &DriveSpec) -> Rates {
        Rates {
            drive: drive.clone(),
            memo: HashMap::new(),
            running: None,
            failed: None,
        }
    }

    fn checked(&self, key: RateKey) -> Result<CheckedRun, ConfigError> {
        let spec = RunSpec {
            drive: self.drive.clone(),
            workload: Workload {
                rw: key.rw,
                rwmixread: 0,
                bs_bytes: key.bs,
                iodepth: key.iodepth,
            },
            state: DriveState::Fob,
            // A rate's figure is its MB/s: the run keeps no anatomy.
            options: RunOptions {
                seed: 1,
                measured_ios: RATE_IOS,
                anatomy: false,
            },
        };
        // The engine's own SLC cache: every write into it, or none.
        let room = if key.slc {
            SlcRoom::Unlimited
        } else {
            SlcRoom::Bytes(0)
        };
        Ok(spec
            .check()?
            .with_write_amplification(f64::from_bits(key.wa_bits))?
            .with_slc_room(room))
    }

    /// Advances the engine runs behind `keys` (in order) by about `*budget` events, taking what
    /// it uses from `budget`; true once every key has its rate.
    fn prepare(&mut self, keys: &[RateKey], budget: &mut usize) -> bool {
        for &key in keys {
            if self.memo.contains_key(&key) {
                continue;
            }
            let resume = matches!(&self.running, Some((k, _)) if *k == key);
            if !resume {
                match self.checked(key) {
                    // Only checked drives reach here, so a refusal is not expected; a rate of
                    // 0 then reads as "no rate" below rather than failing.
                    Err(_) => {
                        self.memo.insert(key, 0.0);
                        continue;
                    }
                    Ok(run) => self.running = Some((key, Simulation::new(&run))),
                }
            }
            if *budget == 0 {
                return false;
            }
            let Some((_, sim)) = &mut self.running else {
                continue;
            };
            let before = sim.events();
            let finished = sim.step(*budget as u64);
            let used = usize::try_from(sim.events() - before).unwrap_or(usize::MAX);
            *budget = budget.saturating_sub(used.max(1));
            if !finished {
                return false;
            }
            let mb_s = match sim.result() {
                Ok(r) => r.bw_mb_s,
                Err(e) => {
                    self.failed.get_or_insert(e);
                    0.0
                }
            };
            self.memo.insert(key, mb_s);
            self.running = None;
        }
        true
    }

    fn grid_mb_s(&mut self, key: RateKey) -> f64 {
        let mut unlimited = usize::MAX;
        self.prepare(&[key], &mut unlimited);
        self.memo.get(&key).copied().unwrap_or(0.0)
    }

    /// The two grid runs [`Self::write_mb_s`] reads for `wa`, and where `wa` lies between them.
    fn grid(rw: Rw, bs: u32, iodepth: u32, wa: f64, slc: bool) -> ([RateKey; 2], f64) {
        let wa = wa.max(1.0);
        let hi = WA_GRID
            .iter()
            .position(|&g| g >= wa)
            .unwrap_or(WA_GRID.len() - 1)
            .max(1);
        let key = |g: f64| RateKey {
            rw,
            bs,
            iodepth,
            wa_bits: g.to_bits(),
            slc,
        };
        ([key(WA_GRID[hi - 1]), key(WA_GRID[hi])], wa)
    }

    /// MB/s of `rw` writes of `bs` at `iodepth` when every write pays write amplification `wa`.
    pub fn write_mb_s(&mut self, rw: Rw, bs: u32, iodepth: u32, wa: f64, slc: bool) -> f64 {
        let ([ka, kb], wa) = Rates::grid(rw, bs, iodepth, wa, slc);
        let (a, b) = (f64::from_bits(ka.wa_bits), f64::from_bits(kb.wa_bits));
        let (ra, rb) = (self.grid_mb_s(ka), self.grid_mb_s(kb));
        if wa == a || ra <= 0.0 || rb <= 0.0 {
            return ra;
        }
        let t = (wa - a) / (b - a);
        let seconds_per_mb = (1.0 - t) / ra + t / rb;
        1.0 / seconds_per_mb.max(f64::MIN_POSITIVE)
    }

    /// Sequential fill rate into the SLC cache.
    pub fn slc_mb_s(&mut self) -> f64 {
        self.write_mb_s(Rw::Write, FILL_BS, FILL_IODEPTH, 1.0, true)
    }

    /// Sequential fill rate straight to the native cell type.
    pub fn native_mb_s(&mut self) -> f64 {
        self.write_mb_s(Rw::Write, FILL_BS, FILL_IODEPTH, 1.0, false)
    }

    /// Rate at which the dies fold cached data into native cells when they do nothing else:
    /// folding a byte costs what a garbage-collection copy costs, so it is the extra time a
    /// write amplification of 2 adds over 1.
    pub fn fold_mb_s(&mut self) -> f64 {
        let one = self.native_mb_s();
        let two = self.write_mb_s(Rw::Write, FILL_BS, FILL_IODEPTH, FOLD_WA, false);
        if one <= 0.0 || two <= 0.0 || two >= one {
            return one;
        }
        1.0 / (1.0 / two - 1.0 / one)
    }

    /// Engine events of the run in progress, as a fraction of its expected length.
    fn running_progress(&self) -> f64 {
        self.running
            .as_ref()
            .map_or(0.0, |(_, sim)| sim.progress().clamp(0.0, 1.0))
    }
}

/// The write amplification whose extra cost over 1 is one garbage-collection copy per byte.
const FOLD_WA: f64 = 2.0;

/// The three rates a fill and a burst run need: into the SLC cache, straight to native cells,
/// and folding in idle time (all MB/s, from the engine).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CacheRates {
    pub slc_mb_s: f64,
    pub native_mb_s: f64,
    pub fold_mb_s: f64,
}

impl CacheRates {
    /// The engine runs behind the three rates, in the order they are computed.
    fn keys() -> Vec<RateKey> {
        let mut keys = Vec::new();
        for (wa, slc) in [(1.0, true), (1.0, false), (FOLD_WA, false)] {
            let (pair, _) = Rates::grid(Rw::Write, FILL_BS, FILL_IODEPTH, wa, slc);
            for k in pair {
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        keys
    }

    fn from_rates(rates: &mut Rates) -> CacheRates {
        CacheRates {
            slc_mb_s: rates.slc_mb_s(),
            native_mb_s: rates.native_mb_s(),
            fold_mb_s: rates.fold_mb_s(),
        }
    }
}

/// [`cache_rates`] in slices: each [`step`](Self::step) does at most about `budget` engine
/// events. Finished, it gives exactly what [`cache_rates`] gives (the same engine runs, run to
/// the same end).
pub struct CacheRatesRun {
    rates: Rates,
    keys: Vec<RateKey>,
}

impl CacheRatesRun {
    pub fn new(drive: &DriveSpec) -> Result<CacheRatesRun, ConfigError> {
        check(drive)?;
        Ok(CacheRatesRun {
            rates: Rates::new(drive),
            keys: CacheRates::keys(),
        })
    }
}

impl Sliced for CacheRatesRun {
    type Output = CacheRates;
    type Error = RunError;

    /// Works for at most about `budget` engine events; the rates once all runs are done.
    fn step(&mut self, budget: usize) -> Result<Option<CacheRates>, RunError> {
        let mut budget = budget;
        let done = self.rates.prepare(&self.keys, &mut budget);
        match &self.rates.failed {
            Some(e) => Err(e.clone()),
            None => Ok(done.then(|| CacheRates::from_rates(&mut self.rates))),
        }
    }

    /// How far the computation is, from 0 to 1.
    fn progress(&self) -> f64 {
        let done = self
            .keys
            .iter()
            .filter(|k| self.rates.memo.contains_key(k))
            .count() as f64;
        ((done + self.rates.running_progress()) / self.keys.len() as f64).min(1.0)
    }
}

/// The SLC, native and folding rates of `drive`, in one go.
pub fn cache_rates(drive: &DriveSpec) -> Result<CacheRates, RunError> {
    CacheRatesRun::new(drive)?.finish()
}

fn check(drive: &DriveSpec) -> Result<(), ConfigError> {
    RunSpec {
        drive: drive.clone(),
        workload: Workload {
            rw: Rw::Write,
            rwmixread: 0,
            bs_bytes: FILL_BS,
            iodepth: FILL_IODEPTH,
        },
        state: DriveState::Fob,
        options: RunOptions::default(),
    }
    .check()
    .map(|_| ())
}

/// SLC cache state: how much cached data waits to be folded, and how much fits.
struct Cache {
    user_bytes: f64,
    spec: SlcCache,
    cell_bits: u32,
    used: f64,
}

impl Cache {
    fn new(drive: &DriveSpec) -> Cache {
        Cache {
            user_bytes: drive.user_bytes(),
            spec: drive.controller.slc_cache,
            cell_bits: drive.nand.cell.bits(),
            used: 0.0,
        }
    }

    /// Cache size (data bytes) with `written` bytes of user data on the drive.
    fn capacity(&self, written: f64) -> f64 {
        self.spec
            .capacity_bytes(self.user_bytes, written, self.cell_bits)
    }
}

/// Write `bytes` with `written` bytes already on the drive; returns (seconds, phase).
fn write_chunk(
    cache: &mut Cache,
    rates: &CacheRates,
    written: f64,
    bytes: f64,
    new_data: bool,
) -> (f64, FillPhase) {
    let (slc, native, fold) = (
        rates.slc_mb_s * 1e6,
        rates.native_mb_s * 1e6,
        rates.fold_mb_s * 1e6,
    );
    let after = if new_data { written + bytes } else { written };
    let room = (cache.capacity(after) - cache.used).max(0.0);
    let cached = bytes.min(room);
    let direct = bytes - cached;
    cache.used += cached;
    let mut seconds = cached / slc + direct / native;
    // Data in the dynamic cache takes `bits` times its size of free space. Once the drive is
    // too full for that, the cache must be folded into native cells before writing goes on.
    let bits = f64::from(cache.cell_bits);
    let dynamic = (cache.used - cache.spec.static_bytes as f64).max(0.0);
    let overflow = after + dynamic * (bits - 1.0) - cache.user_bytes;
    let excess = if overflow > 0.0 && bits > 1.0 {
        (overflow / (bits - 1.0)).min(dynamic)
    } else {
        0.0
    };
    if excess > 0.0 {
        cache.used -= excess;
        seconds += excess / fold;
    }
    let phase = if excess > 0.0 {
        FillPhase::Folding
    } else if direct > 0.0 {
        FillPhase::PostCache
    } else {
        FillPhase::Cache
    };
    (seconds, phase)
}

/// A whole-drive sequential fill from empty (128 KiB, QD32), chunk by chunk.
pub fn fill(drive: &DriveSpec) -> Result<FillReport, RunError> {
    Ok(fill_with(drive, &cache_rates(drive)?)?)
}

/// [`fill`] from rates computed ahead ([`CacheRatesRun`]); arithmetic only, a fraction of a
/// millisecond. The report checks itself ([`FillReport::check`]).
pub fn fill_with(drive: &DriveSpec, rates: &CacheRates) -> Result<FillReport, Unsound> {
    let mut cache = Cache::new(drive);
    let user = drive.user_bytes();
    let chunk = user / FILL_CHUNKS as f64;
    let mut written = 0.0;
    let mut total_s = 0.0;
    let mut points = Vec::with_capacity(FILL_CHUNKS);
    for _ in 0..FILL_CHUNKS {
        let (s, phase) = write_chunk(&mut cache, rates, written, chunk, true);
        written += chunk;
        total_s += s;
        points.push(FillPoint {
            gb_written: written / 1e9,
            mb_s: chunk / s / 1e6,
            phase,
        });
    }
    let report = FillReport {
        capacity_gb: user / 1e9,
        slc_cache_gb: Cache::new(drive).capacity(0.0) / 1e9,
        average_mb_s: user / total_s / 1e6,
        points,
    };
    report.check()?;
    Ok(report)
}

/// Longest idle time between bursts, in seconds (a day).
pub(crate) const MAX_IDLE_S: f64 = 86_400.0;
/// Most bursts in one run.
pub(crate) const MAX_BURSTS: u32 = 1000;
/// Chunks each burst is written in.
const BURST_CHUNKS: u32 = 50;

/// Bursts of `burst_gb` sequential writes over one test file of that size, with `idle_s`
/// seconds of idle between them in which the drive folds its cache.
pub fn bursts(
    drive: &DriveSpec,
    burst_gb: f64,
    idle_s: f64,
    count: u32,
) -> Result<Vec<BurstPoint>, RunError> {
    check(drive)?;
    check_bursts(drive, burst_gb, idle_s, count)?;
    Ok(bursts_with(
        drive,
        &cache_rates(drive)?,
        burst_gb,
        idle_s,
        count,
    )?)
}

fn check_bursts(
    drive: &DriveSpec,
    burst_gb: f64,
    idle_s: f64,
    count: u32,
) -> Result<(), ConfigError> {
    let user_gb = drive.user_gb();
    if !(burst_gb.is_finite() && burst_gb > 0.0 && burst_gb <= user_gb) {
        return Err(ConfigError::OutOfRange {
            what: "burst size (GB)".into(),
            value: burst_gb.to_string(),
            allowed: format!("above 0 and up to the drive's {user_gb:.0} GB"),
        });
    }
    if !(idle_s.is_finite() && (0.0..=MAX_IDLE_S).contains(&idle_s)) {
        return Err(ConfigError::OutOfRange {
            what: "idle time (s)".into(),
            value: idle_s.to_string(),
            allowed: format!("0..={MAX_IDLE_S}"),
        });
    }
    if !(1..=MAX_BURSTS).contains(&count) {
        return Err(ConfigError::OutOfRange {
            what: "bursts".into(),
            value: count.to_string(),
            allowed: format!("1..={MAX_BURSTS}"),
        });
    }
    Ok(())
}

/// [`bursts`] from rates computed ahead ([`CacheRatesRun`]); arithmetic only, so a page can
/// redo it for every position of an idle-time slider.
pub fn bursts_with(
    drive: &DriveSpec,
    rates: &CacheRates,
    burst_gb: f64,
    idle_s: f64,
    count: u32,
) -> Result<Vec<BurstPoint>, ConfigError> {
    check_bursts(drive, burst_gb, idle_s, count)?;
    let mut cache = Cache::new(drive);
    let file = burst_gb * 1e9;
    let mut out = Vec::new();
    for burst in 1..=count {
        let cache_free_gb = (cache.capacity(file) - cache.used).max(0.0) / 1e9;
        let seconds: f64 = (0..BURST_CHUNKS)
            .map(|_| {
                write_chunk(
                    &mut cache,
                    rates,
                    file,
                    file / f64::from(BURST_CHUNKS),
                    false,
                )
                .0
            })
            .sum();
        out.push(BurstPoint {
            burst,
            mb_s: file / seconds / 1e6,
            cache_free_gb,
        });
        // Idle: the dies fold cached data into native cells.
        cache.used = (cache.used - idle_s * rates.fold_mb_s * 1e6).max(0.0);
    }
    Ok(out)
}

/// How a test of the E12 review \[REF3\] paces one phase (one queue depth or one mix): it runs
/// for `phase_s` seconds or until it has moved `phase_gb` GB, whichever comes first, then the
/// drive idles as long as the phase ran, at most `idle_s` seconds (a 50% duty cycle, cut short).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Phases {
    pub phase_s: f64,
    pub phase_gb: f64,
    pub idle_s: f64,
}

/// Chunks a phase is written in: the cache may fill in the middle of one.
const PHASE_CHUNKS: u32 = 64;

/// A drive holding `held` bytes of test data, its SLC cache carried from phase to phase: the
/// state behind a sustained or mixed test, where one phase's writes and idle time decide what
/// the next phase finds.
pub(crate) struct CachedDrive {
    cache: Cache,
    held: f64,
    rates: Rates,
}

impl CachedDrive {
    /// The drive right after the test data was written to it: the cache holds what fit.
    pub(crate) fn just_written(drive: &DriveSpec, held_bytes: f64) -> CachedDrive {
        let mut d = CachedDrive::idled(drive, held_bytes);
        d.cache.used = held_bytes.min(d.cache.capacity(held_bytes));
        d
    }

    /// The drive after long enough idle that its cache is empty.
    pub(crate) fn idled(drive: &DriveSpec, held_bytes: f64) -> CachedDrive {
        CachedDrive {
            cache: Cache::new(drive),
            held: held_bytes,
            rates: Rates::new(drive),
        }
    }

    /// Share of the test data that sits in SLC-mode blocks (cached, not yet folded).
    pub(crate) fn share_in_cache(&self) -> f64 {
        if self.held <= 0.0 {
            return 0.0;
        }
        (self.cache.used / self.held).clamp(0.0, 1.0)
    }

    /// Whether a write now lands in the cache.
    pub(crate) fn cache_has_room(&self) -> bool {
        self.cache.capacity(self.held) > self.cache.used
    }

    /// Writes of `rw` in `bs` at `iodepth` for one phase; returns (bytes, seconds). Data goes to the
    /// cache while it has room, straight to native cells after, at the engine's rates for this
    /// size and depth.
    pub(crate) fn write_phase(
        &mut self,
        rw: Rw,
        bs: u32,
        iodepth: u32,
        phases: Phases,
    ) -> (f64, f64) {
        let rates = CacheRates {
            slc_mb_s: self.rates.write_mb_s(rw, bs, iodepth, 1.0, true),
            native_mb_s: self.rates.write_mb_s(rw, bs, iodepth, 1.0, false),
            fold_mb_s: self.rates.fold_mb_s(),
        };
        let chunk = phases.phase_gb * 1e9 / f64::from(PHASE_CHUNKS);
        let (mut bytes, mut seconds) = (0.0, 0.0);
        while bytes < phases.phase_gb * 1e9 && seconds < phases.phase_s {
            seconds += write_chunk(&mut self.cache, &rates, self.held, chunk, false).0;
            bytes += chunk;
        }
        (bytes, seconds)
    }

    /// `bytes` written by a mixed phase: into the cache as far as it has room.
    pub(crate) fn absorb(&mut self, bytes: f64) {
        let room = (self.cache.capacity(self.held) - self.cache.used).max(0.0);
        self.cache.used += bytes.min(room);
    }

    /// The idle after a phase of `ran_s` seconds: the dies fold cached data.
    pub(crate) fn idle_after(&mut self, ran_s: f64, phases: Phases) {
        let idle = ran_s.min(phases.idle_s);
        let fold = self.rates.fold_mb_s() * 1e6;
        self.cache.used = (self.cache.used - idle * fold).max(0.0);
    }
}

/// \[REF4\]'s drive, the only one its torture figures belong to: the Octane at 128 GB.
pub const OCTANE_PRESET: &str = "octane";
pub const OCTANE_CAPACITY_GB: f64 = 128.0;
/// \[REF4\]: after the torture, sequential writes fell below this fraction of fresh...
pub const OCTANE_TORTURED_FRACTION: f64 = 0.1;
/// ...as the page cites it...
pub const OCTANE_SOURCE: &str =
    "An SSD State of the Union Update, AnandTech, 2011 (OCZ Octane review, 128 GB model)";
/// ...and in the review's words.
pub const OCTANE_FACT: &str = "After filling the drive and 20 minutes of 4 KB random writes at QD32 across all LBAs, 128 KB sequential writes fell below a tenth of their fresh speed; a TRIM of all user LBAs restored full performance.";

/// The torture's length in the OCZ Octane review \[REF4\], in minutes.
pub const REVIEW_TORTURE_MINUTES: f64 = 20.0;
/// Shortest and longest torture, in minutes.
pub(crate) const MIN_TORTURE_MINUTES: f64 = 0.1;
pub(crate) const MAX_TORTURE_MINUTES: f64 = 1440.0;
/// The seed of the torture's random addresses.
const TORTURE_SEED: u64 = 0x7027_0BE5;
/// The sequential probe after the torture covers this fraction of the user pages (about the
/// minute of writing the review's probe covers at the tortured speed).
const PROBE_DIVISOR: usize = 100;

/// The OCZ Octane review's torture test \[REF4\]: a full drive, `minutes` of 4 KiB random writes
/// at QD32 over every LBA, then a 128 KiB QD1 sequential write; then TRIM and the same again.
pub fn torture(drive: &DriveSpec, minutes: f64) -> Result<TortureReport, RunError> {
    TortureRun::new(drive, minutes)?.finish()
}

/// Where a [`TortureRun`] is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Stage {
    /// The fresh sequential rate.
    Fresh,
    /// The sequential fill of the scaled drive; the next page to write.
    Fill(usize),
    /// The rate at the current write amplification, which sets the window's page count.
    WindowRate,
    /// Random writes of the window still to do.
    Window(usize),
    /// The rate at the window's own amplification; then the point is recorded.
    WindowResult,
    /// Sequential probe writes still to do (before or after the TRIM).
    Probe {
        left: usize,
        trimmed: bool,
    },
    /// The sequential rate at the probe's amplification.
    ProbeRate {
        trimmed: bool,
    },
    Done,
}

/// What one stage of a [`TortureRun`] came to.
enum Flow {
    /// The stage is done; go on to the next.
    Next,
    /// The budget ran out; resume from the stage recorded.
    OutOfBudget,
    Finished(TortureReport),
}

/// [`torture`] in slices: each [`step`](Self::step) does at most about `budget` units of work
/// (one unit is one engine event or one host write of the scaled drive), so a browser can run
/// it between frames. The stages are those of the one-shot procedure in the same order, with
/// the same random sequence, so the finished report is bit for bit what [`torture`] returns
/// (a test checks it).
pub struct TortureRun {
    rates: Rates,
    ftl: ScaledFtl,
    rng: Rng,
    stage: Stage,
    user_pages: usize,
    bytes_per_page: f64,
    window_s: f64,
    /// Write amplification of the last window (1 before the first).
    wa: f64,
    elapsed_s: f64,
    /// The last logical page the sequential probe wrote.
    probe_lpn: u32,
    fresh_mb_s: f64,
    after_torture_mb_s: f64,
    series: Vec<TorturePoint>,
}

impl Sliced for TortureRun {
    type Output = TortureReport;
    type Error = RunError;

    /// Works for at most about `budget` units (see the type's documentation); the report once
    /// finished, or why there is none: an engine run behind a rate gave none.
    fn step(&mut self, budget: usize) -> Result<Option<TortureReport>, RunError> {
        let mut budget = budget;
        loop {
            let flow = self.advance(&mut budget);
            if let Some(e) = &self.rates.failed {
                return Err(e.clone());
            }
            match flow {
                Flow::Next => {}
                Flow::OutOfBudget => return Ok(None),
                Flow::Finished(report) => {
                    report.check()?;
                    return Ok(Some(report));
                }
            }
        }
    }

    /// How far the run is, from 0 to 1 (by stage: the fill, each window, the two probes).
    fn progress(&self) -> f64 {
        let steps = (TORTURE_POINTS + 3) as f64;
        let done = match self.stage {
            Stage::Fresh => 0.0,
            Stage::Fill(next) => next as f64 / self.user_pages.max(1) as f64,
            Stage::WindowRate | Stage::Window(_) | Stage::WindowResult => {
                1.0 + self.series.len() as f64
            }
            Stage::Probe { trimmed, .. } | Stage::ProbeRate { trimmed } => {
                1.0 + TORTURE_POINTS as f64 + f64::from(u8::from(trimmed))
            }
            Stage::Done => steps,
        };
        (done / steps).min(1.0)
    }
}

impl TortureRun {
    pub fn new(drive: &DriveSpec, minutes: f64) -> Result<TortureRun, ConfigError> {
        check(drive)?;
        if !(minutes.is_finite() && (MIN_TORTURE_MINUTES..=MAX_TORTURE_MINUTES).contains(&minutes))
        {
            return Err(ConfigError::OutOfRange {
                what: "torture time (minutes)".into(),
                value: minutes.to_string(),
                allowed: format!("{MIN_TORTURE_MINUTES}..={MAX_TORTURE_MINUTES}"),
            });
        }
        let ftl = scaled_drive(drive.effective_spare_ratio());
        let user_pages = ftl.user_pages();
        Ok(TortureRun {
            rates: Rates::new(drive),
            bytes_per_page: drive.user_bytes() / user_pages as f64,
            user_pages,
            ftl,
            rng: Rng::new(TORTURE_SEED),
            stage: Stage::Fresh,
            window_s: minutes * 60.0 / TORTURE_POINTS as f64,
            wa: 1.0,
            elapsed_s: 0.0,
            probe_lpn: 0,
            fresh_mb_s: 0.0,
            after_torture_mb_s: 0.0,
            series: Vec::with_capacity(TORTURE_POINTS),
        })
    }

    /// Sequential write keys at `wa` (128 KiB, QD1, native cells).
    fn seq_keys(wa: f64) -> [RateKey; 2] {
        Rates::grid(Rw::Write, FILL_BS, SEQ_PROBE_IODEPTH, wa, false).0
    }

    fn seq_mb_s(&mut self, wa: f64) -> f64 {
        self.rates
            .write_mb_s(Rw::Write, FILL_BS, SEQ_PROBE_IODEPTH, wa, false)
    }

    fn random_keys(wa: f64) -> [RateKey; 2] {
        Rates::grid(Rw::RandWrite, TORTURE_BS, TORTURE_IODEPTH, wa, false).0
    }

    fn random_mb_s(&mut self, wa: f64) -> f64 {
        self.rates
            .write_mb_s(Rw::RandWrite, TORTURE_BS, TORTURE_IODEPTH, wa, false)
    }

    fn next_probe_lpn(&mut self) -> u32 {
        self.probe_lpn = (self.probe_lpn + 1) % self.user_pages as u32;
        self.probe_lpn
    }

    /// One stage's worth of work, taken from `budget`.
    fn advance(&mut self, budget: &mut usize) -> Flow {
        match self.stage {
            Stage::Fresh => {
                if !self.rates.prepare(&Self::seq_keys(1.0), budget) {
                    return Flow::OutOfBudget;
                }
                self.fresh_mb_s = self.seq_mb_s(1.0);
                self.stage = Stage::Fill(0);
            }
            Stage::Fill(next) => {
                let end = next.saturating_add(*budget).min(self.user_pages);
                for lpn in next..end {
                    self.ftl.write(lpn as u32);
                }
                *budget -= end - next;
                if end < self.user_pages {
                    self.stage = Stage::Fill(end);
                    return Flow::OutOfBudget;
                }
                self.stage = Stage::WindowRate;
            }
            Stage::WindowRate => return self.window_rate(budget),
            Stage::Window(left) => {
                if !self.write_random(left, budget) {
                    return Flow::OutOfBudget;
                }
                self.wa = self.ftl.write_amplification();
                self.stage = Stage::WindowResult;
            }
            Stage::WindowResult => return self.window_result(budget),
            Stage::Probe { left, trimmed } => {
                if !self.write_probe(left, trimmed, budget) {
                    return Flow::OutOfBudget;
                }
                self.wa = self.ftl.write_amplification();
                self.stage = Stage::ProbeRate { trimmed };
            }
            Stage::ProbeRate { trimmed } => return self.probe_rate(trimmed, budget),
            Stage::Done => {
                let after_trim_mb_s = self.seq_mb_s(self.wa);
                return Flow::Finished(self.report(after_trim_mb_s));
            }
        }
        Flow::Next
    }

    /// The pages the next window writes follow from the rate the current amplification
    /// allows; the window's own amplification then sets the rate it reports.
    fn window_rate(&mut self, budget: &mut usize) -> Flow {
        if !self.rates.prepare(&Self::random_keys(self.wa), budget) {
            return Flow::OutOfBudget;
        }
        let mb_s = self.random_mb_s(self.wa);
        let pages = ((mb_s * 1e6 * self.window_s / self.bytes_per_page) as usize)
            .clamp(1, 4 * self.user_pages);
        self.ftl.reset_counters();
        self.stage = Stage::Window(pages);
        Flow::Next
    }

    /// Random overwrites of the window's `left` pages, as many as `budget` allows; true once
    /// the window is written.
    fn write_random(&mut self, left: usize, budget: &mut usize) -> bool {
        let n = left.min(*budget);
        for _ in 0..n {
            let lpn = self.rng.below(self.user_pages as u64) as u32;
            self.ftl.write(lpn);
        }
        *budget -= n;
        if n < left {
            self.stage = Stage::Window(left - n);
        }
        n == left
    }

    fn window_result(&mut self, budget: &mut usize) -> Flow {
        if !self.rates.prepare(&Self::random_keys(self.wa), budget) {
            return Flow::OutOfBudget;
        }
        let mb_s = self.random_mb_s(self.wa);
        self.elapsed_s += self.window_s;
        self.series.push(TorturePoint {
            minute: self.elapsed_s / 60.0,
            mb_s,
            write_amplification: self.wa,
        });
        if self.series.len() < TORTURE_POINTS {
            self.stage = Stage::WindowRate;
        } else {
            // A sequential write over the tortured drive meets victims full of valid pages.
            self.ftl.reset_counters();
            self.stage = Stage::Probe {
                left: self.probe_pages(),
                trimmed: false,
            };
        }
        Flow::Next
    }

    /// The sequential probe's `left` pages, as many as `budget` allows; true once written.
    fn write_probe(&mut self, left: usize, trimmed: bool, budget: &mut usize) -> bool {
        let n = left.min(*budget);
        for _ in 0..n {
            let lpn = self.next_probe_lpn();
            self.ftl.write(lpn);
        }
        *budget -= n;
        if n < left {
            self.stage = Stage::Probe {
                left: left - n,
                trimmed,
            };
        }
        n == left
    }

    fn probe_rate(&mut self, trimmed: bool, budget: &mut usize) -> Flow {
        if !self.rates.prepare(&Self::seq_keys(self.wa), budget) {
            return Flow::OutOfBudget;
        }
        let mb_s = self.seq_mb_s(self.wa);
        if trimmed {
            self.stage = Stage::Done;
            return Flow::Finished(self.report(mb_s));
        }
        self.after_torture_mb_s = mb_s;
        self.ftl.trim_all();
        self.ftl.reset_counters();
        self.stage = Stage::Probe {
            left: self.probe_pages(),
            trimmed: true,
        };
        Flow::Next
    }

    fn report(&self, after_trim_mb_s: f64) -> TortureReport {
        TortureReport {
            fresh_mb_s: self.fresh_mb_s,
            after_torture_mb_s: self.after_torture_mb_s,
            after_trim_mb_s,
            series: self.series.clone(),
        }
    }

    fn probe_pages(&self) -> usize {
        (self.user_pages / PROBE_DIVISOR).max(1)
    }
}
