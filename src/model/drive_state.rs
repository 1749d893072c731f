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
//! [`engine`]: super::engine
//! [`ftl`]: super::ftl

use std::collections::HashMap;

use serde::Serialize;

use super::config::{
    CellType, CheckedRun, ConfigError, DriveSpec, DriveState, RunOptions, RunSpec, Rw, Workload,
};
use super::engine::Simulation;
use super::ftl::{scaled_filled_drive, ScaledFtl};
use super::rng::Rng;

/// Sequential writes as reviewers fill a drive: 128 KiB at QD32.
const FILL_BS: u32 = 128 * 1024;
const FILL_QD: u32 = 32;
/// The torture test of the OCZ Octane review [REF4]: 4 KiB random writes at QD32.
const TORTURE_BS: u32 = 4096;
const TORTURE_QD: u32 = 32;
/// ...and the sequential write measured before and after it: 128 KiB at QD1.
const SEQ_PROBE_QD: u32 = 1;
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FillPoint {
    pub gb_written: f64,
    pub mb_s: f64,
    pub phase: FillPhase,
}

/// A sequential fill from empty, as reviews draw it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FillReport {
    pub capacity_gb: f64,
    /// SLC cache available on the empty drive.
    pub slc_cache_gb: f64,
    pub average_mb_s: f64,
    pub points: Vec<FillPoint>,
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
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TorturePoint {
    pub minute: f64,
    pub mb_s: f64,
    pub write_amplification: f64,
}

/// The torture test: sequential write speed fresh, after random-write torture, after TRIM.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TortureReport {
    pub fresh_mb_s: f64,
    pub after_torture_mb_s: f64,
    pub after_trim_mb_s: f64,
    /// Random-write speed over the torture.
    pub series: Vec<TorturePoint>,
}

/// Write rates of one drive, from the I/O-level engine, memoised.
pub struct Rates {
    drive: DriveSpec,
    memo: HashMap<(Rw, u32, u32, u64, bool), f64>,
}

impl Rates {
    pub fn new(drive: &DriveSpec) -> Rates {
        Rates {
            drive: drive.clone(),
            memo: HashMap::new(),
        }
    }

    fn run(&self, rw: Rw, bs: u32, qd: u32, wa: f64, slc: bool) -> Result<f64, ConfigError> {
        let mut drive = self.drive.clone();
        if slc {
            // SLC mode: one page per plane per program, at the SLC program time.
            drive.nand.cell = CellType::Slc;
            drive.nand.program_pages = 1;
            drive.nand.t_prog = drive.nand.t_prog_slc;
        }
        let spec = RunSpec {
            drive,
            workload: Workload {
                rw,
                rwmixread: 0,
                bs_bytes: bs,
                iodepth: qd,
            },
            state: DriveState::Fob,
            options: RunOptions {
                seed: 1,
                measured_ios: RATE_IOS,
            },
        };
        let run: CheckedRun = spec.check()?.with_write_amplification(wa)?;
        Ok(Simulation::run(&run).bw_mb_s)
    }

    fn grid_mb_s(&mut self, rw: Rw, bs: u32, qd: u32, wa: f64, slc: bool) -> f64 {
        let key = (rw, bs, qd, wa.to_bits(), slc);
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        // Only checked drives reach here, so the engine run cannot be refused.
        let r = self.run(rw, bs, qd, wa, slc).unwrap_or(0.0);
        self.memo.insert(key, r);
        r
    }

    /// MB/s of `rw` writes of `bs` at `qd` when every write pays write amplification `wa`.
    pub fn write_mb_s(&mut self, rw: Rw, bs: u32, qd: u32, wa: f64, slc: bool) -> f64 {
        let wa = wa.max(1.0);
        let hi = WA_GRID
            .iter()
            .position(|&g| g >= wa)
            .unwrap_or(WA_GRID.len() - 1)
            .max(1);
        let (a, b) = (WA_GRID[hi - 1], WA_GRID[hi]);
        let (ra, rb) = (
            self.grid_mb_s(rw, bs, qd, a, slc),
            self.grid_mb_s(rw, bs, qd, b, slc),
        );
        if wa == a || ra <= 0.0 || rb <= 0.0 {
            return ra;
        }
        let t = (wa - a) / (b - a);
        let seconds_per_mb = (1.0 - t) / ra + t / rb;
        1.0 / seconds_per_mb.max(f64::MIN_POSITIVE)
    }

    /// Sequential fill rate into the SLC cache.
    pub fn slc_mb_s(&mut self) -> f64 {
        self.write_mb_s(Rw::Write, FILL_BS, FILL_QD, 1.0, true)
    }

    /// Sequential fill rate straight to the native cell type.
    pub fn native_mb_s(&mut self) -> f64 {
        self.write_mb_s(Rw::Write, FILL_BS, FILL_QD, 1.0, false)
    }

    /// Rate at which the dies fold cached data into native cells when they do nothing else:
    /// folding a byte costs what a garbage-collection copy costs, so it is the extra time a
    /// write amplification of 2 adds over 1.
    pub fn fold_mb_s(&mut self) -> f64 {
        let one = self.native_mb_s();
        let two = self.write_mb_s(Rw::Write, FILL_BS, FILL_QD, 2.0, false);
        if one <= 0.0 || two <= 0.0 || two >= one {
            return one;
        }
        1.0 / (1.0 / two - 1.0 / one)
    }
}

fn check(drive: &DriveSpec) -> Result<(), ConfigError> {
    RunSpec {
        drive: drive.clone(),
        workload: Workload {
            rw: Rw::Write,
            rwmixread: 0,
            bs_bytes: FILL_BS,
            iodepth: FILL_QD,
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
    static_bytes: f64,
    dynamic_share: f64,
    bits: f64,
    used: f64,
}

impl Cache {
    fn new(drive: &DriveSpec) -> Cache {
        let slc = drive.controller.slc_cache;
        Cache {
            user_bytes: drive.user_bytes(),
            static_bytes: slc.static_bytes as f64,
            dynamic_share: slc.dynamic_share,
            bits: f64::from(drive.nand.cell.bits()),
            used: 0.0,
        }
    }

    /// Cache size (data bytes) with `written` bytes of user data on the drive: free space run
    /// in SLC mode holds a bits-per-cell fraction of what it would hold natively.
    fn capacity(&self, written: f64) -> f64 {
        let free = (self.user_bytes - written).max(0.0);
        self.static_bytes + self.dynamic_share * free / self.bits
    }
}

/// Write `bytes` with `written` bytes already on the drive; returns (seconds, phase).
fn write_chunk(
    cache: &mut Cache,
    rates: &mut Rates,
    written: f64,
    bytes: f64,
    new_data: bool,
) -> (f64, FillPhase) {
    let (slc, native, fold) = (
        rates.slc_mb_s() * 1e6,
        rates.native_mb_s() * 1e6,
        rates.fold_mb_s() * 1e6,
    );
    let after = if new_data { written + bytes } else { written };
    let room = (cache.capacity(after) - cache.used).max(0.0);
    let cached = bytes.min(room);
    let direct = bytes - cached;
    cache.used += cached;
    let mut seconds = cached / slc + direct / native;
    // Data in the dynamic cache takes `bits` times its size of free space. Once the drive is
    // too full for that, the cache must be folded into native cells before writing goes on.
    let dynamic = (cache.used - cache.static_bytes).max(0.0);
    let overflow = after + dynamic * (cache.bits - 1.0) - cache.user_bytes;
    let excess = if overflow > 0.0 && cache.bits > 1.0 {
        (overflow / (cache.bits - 1.0)).min(dynamic)
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
pub fn fill(drive: &DriveSpec) -> Result<FillReport, ConfigError> {
    check(drive)?;
    let mut rates = Rates::new(drive);
    let mut cache = Cache::new(drive);
    let user = drive.user_bytes();
    let chunk = user / FILL_CHUNKS as f64;
    let mut written = 0.0;
    let mut total_s = 0.0;
    let mut points = Vec::with_capacity(FILL_CHUNKS);
    for _ in 0..FILL_CHUNKS {
        let (s, phase) = write_chunk(&mut cache, &mut rates, written, chunk, true);
        written += chunk;
        total_s += s;
        points.push(FillPoint {
            gb_written: written / 1e9,
            mb_s: chunk / s / 1e6,
            phase,
        });
    }
    Ok(FillReport {
        capacity_gb: user / 1e9,
        slc_cache_gb: Cache::new(drive).capacity(0.0) / 1e9,
        average_mb_s: user / total_s / 1e6,
        points,
    })
}

/// Bursts of `burst_gb` sequential writes over one test file of that size, with `idle_s`
/// seconds of idle between them in which the drive folds its cache.
pub fn bursts(
    drive: &DriveSpec,
    burst_gb: f64,
    idle_s: f64,
    count: u32,
) -> Result<Vec<BurstPoint>, ConfigError> {
    check(drive)?;
    let user_gb = drive.user_gb();
    if !(burst_gb.is_finite() && burst_gb > 0.0 && burst_gb <= user_gb) {
        return Err(ConfigError::OutOfRange {
            what: "burst size (GB)",
            value: burst_gb.to_string(),
            allowed: format!("above 0 and up to the drive's {user_gb:.0} GB"),
        });
    }
    if !(idle_s.is_finite() && (0.0..=86_400.0).contains(&idle_s)) {
        return Err(ConfigError::OutOfRange {
            what: "idle time (s)",
            value: idle_s.to_string(),
            allowed: "0..=86400".into(),
        });
    }
    if !(1..=1000).contains(&count) {
        return Err(ConfigError::OutOfRange {
            what: "bursts",
            value: count.to_string(),
            allowed: "1..=1000".into(),
        });
    }
    let mut rates = Rates::new(drive);
    let mut cache = Cache::new(drive);
    let file = burst_gb * 1e9;
    let chunks = 50;
    let mut out = Vec::new();
    for burst in 1..=count {
        let cache_free_gb = (cache.capacity(file) - cache.used).max(0.0) / 1e9;
        let seconds: f64 = (0..chunks)
            .map(|_| {
                write_chunk(
                    &mut cache,
                    &mut rates,
                    file,
                    file / f64::from(chunks),
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
        cache.used = (cache.used - idle_s * rates.fold_mb_s() * 1e6).max(0.0);
    }
    Ok(out)
}

/// The OCZ Octane review's torture test [REF4]: a full drive, `minutes` of 4 KiB random writes
/// at QD32 over every LBA, then a 128 KiB QD1 sequential write; then TRIM and the same again.
pub fn torture(drive: &DriveSpec, minutes: f64) -> Result<TortureReport, ConfigError> {
    check(drive)?;
    if !(minutes.is_finite() && (0.1..=1440.0).contains(&minutes)) {
        return Err(ConfigError::OutOfRange {
            what: "torture time (minutes)",
            value: minutes.to_string(),
            allowed: "0.1..=1440".into(),
        });
    }
    let mut rates = Rates::new(drive);
    let seq =
        |rates: &mut Rates, wa: f64| rates.write_mb_s(Rw::Write, FILL_BS, SEQ_PROBE_QD, wa, false);
    let fresh_mb_s = seq(&mut rates, 1.0);

    let mut ftl: ScaledFtl = scaled_filled_drive(drive.effective_spare_ratio());
    let user_pages = ftl.user_pages();
    let bytes_per_page = drive.user_bytes() / user_pages as f64;
    let mut rng = Rng::new(0x7027_0BE5);
    let window_s = minutes * 60.0 / TORTURE_POINTS as f64;
    let mut series = Vec::with_capacity(TORTURE_POINTS);
    let mut elapsed_s = 0.0;
    let mut wa = 1.0;
    while series.len() < TORTURE_POINTS {
        // The pages this window writes follow from the rate the current amplification allows;
        // the window's own amplification then sets the rate it reports.
        let mb_s = rates.write_mb_s(Rw::RandWrite, TORTURE_BS, TORTURE_QD, wa, false);
        let pages = ((mb_s * 1e6 * window_s / bytes_per_page) as usize).clamp(1, 4 * user_pages);
        wa = ftl.window_write_amplification(pages, || rng.below(user_pages as u64) as u32);
        let mb_s = rates.write_mb_s(Rw::RandWrite, TORTURE_BS, TORTURE_QD, wa, false);
        elapsed_s += window_s;
        series.push(TorturePoint {
            minute: elapsed_s / 60.0,
            mb_s,
            write_amplification: wa,
        });
    }
    // A sequential write over the tortured drive meets victims full of valid pages.
    // About the minute of writing the review's probe covers at the tortured speed.
    let probe = (user_pages / 100).max(1);
    let mut lpn = 0u32;
    let mut next = || {
        lpn = (lpn + 1) % user_pages as u32;
        lpn
    };
    let wa_after = ftl.window_write_amplification(probe, &mut next);
    let after_torture_mb_s = seq(&mut rates, wa_after);
    ftl.trim_all();
    let wa_trimmed = ftl.window_write_amplification(probe, &mut next);
    let after_trim_mb_s = seq(&mut rates, wa_trimmed);
    Ok(TortureReport {
        fresh_mb_s,
        after_torture_mb_s,
        after_trim_mb_s,
        series,
    })
}
