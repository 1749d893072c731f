//! What a drive and a run are made of: the plain specification types at the bottom of the model,
//! and the checks every input passes.
//!
//! The engine only ever sees a [`CheckedRun`](crate::run::CheckedRun): every preset, slider, URL
//! and command-line value goes through [`RunSpec::check`] first, which either returns a
//! configuration the engine can run without a single further test, or a [`ConfigError`] that
//! says which input is wrong and why. Physical parameters live in [`NandSpec`] and
//! [`ControllerSpec`], with the drive's power tables, the parameters a preset may mark as fitted
//! ([`Param`], [`Fitted`]) and the spec-sheet peaks it quotes ([`SpecPeaks`]); presets fill them
//! in and cite their sources.
//!
//! What always holds: this layer imports nothing of the model but time, the host link and the
//! enum-name table, so every part above can use its types without an import circle.

use serde::{Deserialize, Serialize};

use crate::link::HostLink;
use crate::time::Nanos;

mod error;
mod fitted;
mod peaks;
mod power_tables;

pub use error::ConfigError;
pub(crate) use error::{check_range, out_of_range};
pub use fitted::{Fitted, Param};
pub use peaks::{Figure, SpecPeaks};
pub use power_tables::{ControllerPower, IdleLatency, NandPower, PowerLimit, PowerState};

/// Bytes in one GB as drive vendors, Iometer and fio's "MB/s" count them (10^9).
pub(crate) const BYTES_PER_GB: f64 = 1e9;
/// Bytes in a (decimal) megabyte, the MB of MB/s.
pub const BYTES_PER_MB: f64 = 1e6;
/// The mapping granularity of every FTL modelled here (4 KiB logical pages).
pub(crate) const MAPPING_UNIT_BYTES: u32 = 4096;
/// Smallest and largest request size the lab accepts.
pub(crate) const MIN_BLOCK_BYTES: u32 = 4096;
pub(crate) const MAX_BLOCK_BYTES: u32 = 1 << 20;
/// Largest queue depth the lab accepts (fio's iodepth).
pub const MAX_IODEPTH: u32 = 1024;
/// Sequential reads in a row after which a read-ahead controller starts prefetching (the
/// trigger of SimpleSSD's read-ahead, `ReadPrefetchCount = 3`: *SimpleSSD: Modeling Solid
/// State Drives for Holistic System Simulation*, Jung et al., IEEE Computer Architecture
/// Letters, 2017).
pub const READ_AHEAD_TRIGGER: u32 = 3;
/// Most dies the engine will build (a 256-die drive is already a 16 TB+ enterprise part).
pub const MAX_DIES: u32 = 256;

/// NAND cell type: bits stored per cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellType {
    Slc,
    Mlc,
    Tlc,
    Qlc,
}

impl CellType {
    pub fn bits(self) -> u32 {
        match self {
            CellType::Slc => 1,
            CellType::Mlc => 2,
            CellType::Tlc => 3,
            CellType::Qlc => 4,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CellType::Slc => "SLC",
            CellType::Mlc => "MLC",
            CellType::Tlc => "TLC",
            CellType::Qlc => "QLC",
        }
    }
}

/// One NAND die type ("part"), as a datasheet would describe it.
#[derive(Clone, Debug, PartialEq)]
pub struct NandSpec {
    pub name: &'static str,
    pub cell: CellType,
    /// Die density in Gbit (2^30 bits).
    pub die_gbit: u32,
    pub planes: u32,
    pub page_bytes: u32,
    /// Pages per block per plane (for erase accounting).
    pub pages_per_block: u32,
    /// Array read time (tR) of one page, or of one page per plane in a multi-plane read.
    pub t_read: Nanos,
    /// Array read time of a page in SLC-mode cells (the SLC cache's blocks): one read level
    /// instead of the several a multi-bit page needs.
    pub t_read_slc: Nanos,
    /// Program time of one program unit: `program_pages` pages on every plane at once.
    pub t_prog: Nanos,
    /// Block erase time.
    pub t_erase: Nanos,
    /// Pages per plane written by one program operation (one-shot TLC programs three).
    pub program_pages: u32,
    /// Program time of one page per plane in SLC mode (the SLC cache).
    pub t_prog_slc: Nanos,
    /// Channel (bus) rate in bytes per second.
    pub bus_bytes_per_s: f64,
    /// Whether the die may start its next sense while the last page streams out (cache read).
    pub cache_read: bool,
    /// Time a program or erase in progress takes to reach a suspended state, so a read can run.
    pub t_suspend: Nanos,
    /// Time a suspended program or erase loses when it resumes (the interrupted pulse re-runs).
    pub t_resume: Nanos,
    /// What a die and a channel draw while they work.
    pub power: NandPower,
}

impl NandSpec {
    /// Raw bytes one die stores.
    pub(crate) fn die_bytes(&self) -> f64 {
        f64::from(self.die_gbit) * (1u64 << 30) as f64 / 8.0
    }

    /// Bytes written by one program operation over all planes.
    pub(crate) fn program_unit_bytes(&self) -> u32 {
        self.page_bytes * self.planes * self.program_pages
    }

    /// Bytes in one (multi-plane) erase block.
    pub fn block_bytes(&self) -> f64 {
        f64::from(self.page_bytes) * f64::from(self.pages_per_block) * f64::from(self.planes)
    }
}

/// How the flash translation layer finds a logical page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mapping {
    /// The whole table sits in the drive's DRAM: no lookup ever touches flash.
    Dram,
    /// DRAM-less: the host memory buffer caches `hmb_bytes` of the table; a miss costs one extra
    /// flash read before the data read.
    Hmb { hmb_bytes: u64 },
}

/// A controller and its firmware, as one parameter set shared by every capacity built on it.
#[derive(Clone, Debug, PartialEq)]
pub struct ControllerSpec {
    pub name: &'static str,
    pub channels: u32,
    pub chip_enables: u32,
    pub link: HostLink,
    /// Fraction of the link's raw rate left after protocol overhead.
    pub link_efficiency: f64,
    /// Most commands the device accepts at once (NCQ's 32 on SATA); more wait in the host.
    pub device_queue_limit: u32,
    /// Controller time to process one host command (reads and writes).
    pub cmd_cost: Nanos,
    /// Extra controller time for a host write command (buffer management, mapping update).
    pub write_cmd_cost: Nanos,
    /// Controller time per 4 KiB relocated by garbage collection.
    pub gc_unit_cost: Nanos,
    /// Host software stack and completion path time per I/O, spent outside the drive.
    pub host_stack: Nanos,
    /// Host time per I/O on a path that serves one I/O at a time (one submitting core, one
    /// interrupt handler), in series with the stack: it caps the host at one I/O per this
    /// time however deep the queue. Zero where the host never limits the drive.
    pub host_path: Nanos,
    pub mapping: Mapping,
    /// Write buffer that acknowledges writes once their data is in it.
    pub write_buffer_bytes: u64,
    /// Multi-plane reads are issued only when at least this many reads wait for the die.
    pub multiplane_read_min_queue: u32,
    /// Reads served in a row while a program waits before the program goes first.
    pub read_burst_limit: u32,
    /// Times the firmware suspends one program or erase step for arriving reads (0: never).
    pub max_suspends: u32,
    /// Sequential read-ahead: once a stream's reads have followed one another
    /// [`READ_AHEAD_TRIGGER`] times, the controller keeps one page per die prefetched ahead
    /// of the stream in its DRAM, and reads that find their data there only cross the link.
    pub read_ahead: bool,
    /// Where data written in order lies, which decides how many dies a sequential read meets.
    pub sequential_layout: SequentialLayout,
    /// User capacity per raw flash byte (the rest is spare area).
    pub user_fraction: f64,
    /// Share of the nominal spare area garbage collection can actually use.
    pub spare_efficiency: f64,
    pub slc_cache: SlcCache,
    /// What the controller, its DRAM and its link draw, and its power states.
    pub power: ControllerPower,
}

/// Where a controller puts data the host wrote in order: a firmware policy, told apart by how
/// fast one sequential read at a time goes on drives with more or fewer dies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SequentialLayout {
    /// Page by page over the dies, as data written at random lies: a 128 KiB read of 16 KiB
    /// pages meets eight dies at once, however many the drive has.
    Striped,
    /// A program unit per die in turn, as the write buffer filled them: a 128 KiB read meets
    /// one or two dies, and only reading ahead brings more of them to work.
    UnitPerDie,
}

/// How the firmware runs part of the flash in SLC mode as a write cache.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlcCache {
    /// Flash always run in SLC mode (user data bytes it holds).
    pub static_bytes: u64,
    /// Share of the free user space the firmware may run in SLC mode, where it holds
    /// 1 / bits-per-cell as much data; the dynamic cache shrinks as the drive fills.
    pub dynamic_share: f64,
}

impl SlcCache {
    pub(crate) const NONE: SlcCache = SlcCache {
        static_bytes: 0,
        dynamic_share: 0.0,
    };

    pub fn is_none(&self) -> bool {
        self.static_bytes == 0 && self.dynamic_share == 0.0
    }

    /// Data bytes the cache holds on a drive of `user_bytes` with `written_bytes` of user data
    /// on it, for cells of `bits` bits: free space run in SLC mode holds a bits-per-cell
    /// fraction of what it would hold natively.
    pub(crate) fn capacity_bytes(&self, user_bytes: f64, written_bytes: f64, bits: u32) -> f64 {
        let free = (user_bytes - written_bytes).max(0.0);
        self.static_bytes as f64 + self.dynamic_share * free / f64::from(bits)
    }
}

/// A whole drive: a controller, its flash and how many dies sit behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct DriveSpec {
    pub controller: ControllerSpec,
    pub nand: NandSpec,
    pub dies: u32,
}

impl DriveSpec {
    pub(crate) fn raw_bytes(&self) -> f64 {
        self.nand.die_bytes() * f64::from(self.dies)
    }

    /// User-visible capacity in bytes.
    pub fn user_bytes(&self) -> f64 {
        self.raw_bytes() * self.controller.user_fraction
    }

    pub fn user_gb(&self) -> f64 {
        self.user_bytes() / BYTES_PER_GB
    }

    /// User GB that one die adds behind this controller.
    pub fn gb_per_die(&self) -> f64 {
        self.nand.die_bytes() * self.controller.user_fraction / BYTES_PER_GB
    }

    /// The die count that gives the nearest user capacity to `gb`; a capacity no die count in
    /// `1..=MAX_DIES` comes near is refused.
    pub fn dies_for_capacity_gb(&self, gb: f64) -> Result<u32, ConfigError> {
        let per_die = self.gb_per_die();
        let max_gb = per_die * f64::from(MAX_DIES);
        if !gb.is_finite() || gb <= 0.0 || gb > max_gb * 1.001 {
            return Err(ConfigError::OutOfRange {
                what: "capacity (GB)".into(),
                value: format!("{gb}"),
                allowed: format!(
                    "above 0 and up to {max_gb:.0} for the {} ({per_die:.0} GB per die)",
                    self.controller.name
                ),
            });
        }
        Ok(((gb / per_die).round() as u32).clamp(1, MAX_DIES))
    }

    /// The same controller and flash with the die count nearest `gb` of user capacity.
    pub(crate) fn with_capacity_gb(&self, gb: f64) -> Result<DriveSpec, ConfigError> {
        Ok(DriveSpec {
            dies: self.dies_for_capacity_gb(gb)?,
            ..self.clone()
        })
    }

    /// SLC cache bytes with `written_bytes` of user data on the drive.
    pub(crate) fn slc_cache_bytes(&self, written_bytes: f64) -> f64 {
        self.controller.slc_cache.capacity_bytes(
            self.user_bytes(),
            written_bytes,
            self.nand.cell.bits(),
        )
    }

    /// Spare area usable by garbage collection, as a fraction of user capacity.
    pub fn effective_spare_ratio(&self) -> f64 {
        (1.0 / self.controller.user_fraction - 1.0) * self.controller.spare_efficiency
    }
}

/// fio's `rw=` vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rw {
    RandRead,
    RandWrite,
    RandRw,
    Read,
    Write,
    Rw,
}

crate::named_enum!(Rw, "pattern", fio_name, {
    RandRead => "randread",
    RandWrite => "randwrite",
    RandRw => "randrw",
    Read => "read",
    Write => "write",
    Rw => "rw",
});

impl Rw {
    pub fn is_random(self) -> bool {
        matches!(self, Rw::RandRead | Rw::RandWrite | Rw::RandRw)
    }

    /// The read share this pattern implies, or `None` when `rwmixread` decides.
    pub fn fixed_read_percent(self) -> Option<u8> {
        match self {
            Rw::RandRead | Rw::Read => Some(100),
            Rw::RandWrite | Rw::Write => Some(0),
            Rw::RandRw | Rw::Rw => None,
        }
    }

    /// The read share a job of this pattern runs with `rwmixread`: the pattern's own, or
    /// `rwmixread` for the mixed patterns.
    pub fn read_percent(self, rwmixread: u8) -> u8 {
        self.fixed_read_percent().unwrap_or(rwmixread)
    }

    /// The pattern with the given randomness and read share (fio's canonical name for it).
    pub fn from_parts(random: bool, read_percent: u8) -> Rw {
        match (random, read_percent) {
            (true, 100) => Rw::RandRead,
            (true, 0) => Rw::RandWrite,
            (true, _) => Rw::RandRw,
            (false, 100) => Rw::Read,
            (false, 0) => Rw::Write,
            (false, _) => Rw::Rw,
        }
    }
}

/// The state the drive is in when the run starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DriveState {
    /// Fresh out of the box: every write lands in an erased block, no garbage collection.
    Fob,
    /// Filled once sequentially: full, but every block is wholly valid or wholly stale, so
    /// sequential writes run at the program rate; random writes meet garbage collection.
    SeqFilled,
    /// Random-write steady state: every write pays the greedy garbage collector's write
    /// amplification for this spare area.
    Steady,
}

crate::named_enum!(DriveState, "drive state", id, {
    Fob => "fob",
    SeqFilled => "seq-filled",
    Steady => "steady",
});

impl DriveState {
    pub fn label(self) -> &'static str {
        match self {
            DriveState::Fob => "fresh (FOB)",
            DriveState::SeqFilled => "sequentially filled",
            DriveState::Steady => "random-write steady state",
        }
    }
}

/// The host side of a run, in fio's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Workload {
    pub rw: Rw,
    /// Percentage of reads for the mixed patterns (fio's `rwmixread`); ignored otherwise.
    pub rwmixread: u8,
    pub bs_bytes: u32,
    pub iodepth: u32,
}

impl Workload {
    pub fn read_percent(&self) -> u8 {
        self.rw.read_percent(self.rwmixread)
    }
}

/// How long to run and with which seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RunOptions {
    pub seed: u64,
    /// I/Os completed and measured after warm-up (at least; runs with writes also measure at
    /// least 20 fills of the write buffer, see the engine).
    pub measured_ios: u64,
    /// Keep where every request's time goes ([`RunResult::anatomy`](crate::RunResult::anatomy)).
    /// On unless a run's reader needs only its totals: a measured cell's run (fits, the
    /// scorecard, a review's curves) turns it off ([`without_anatomy`](Self::without_anatomy))
    /// and runs faster. Events and figures are the same either way.
    pub anatomy: bool,
}

impl RunOptions {
    /// Enough I/Os for about 1% statistical noise on IOPS (see the noise test).
    pub const DEFAULT_MEASURED_IOS: u64 = 20_000;

    /// These options for a run whose reader needs only its totals.
    pub fn without_anatomy(self) -> RunOptions {
        RunOptions {
            anatomy: false,
            ..self
        }
    }
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            seed: 1,
            measured_ios: Self::DEFAULT_MEASURED_IOS,
            anatomy: true,
        }
    }
}

/// Everything a run needs, unchecked.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSpec {
    pub drive: DriveSpec,
    pub workload: Workload,
    pub state: DriveState,
    pub options: RunOptions,
}

impl DriveSpec {
    /// The drive's own checks, which every run makes first: dies, controller, flash, and a write
    /// buffer large enough for the engine to keep every die busy.
    pub fn check(&self) -> Result<(), ConfigError> {
        check_dies(self.dies)?;
        check_controller(&self.controller)?;
        check_nand(&self.nand)?;
        // A write buffer must hold a program unit for every die plus the largest request, or
        // the dies could never all be busy and a large write could wait forever.
        let min_buffer = u64::from(self.nand.program_unit_bytes()) * 2 + u64::from(MAX_BLOCK_BYTES);
        if self.controller.write_buffer_bytes < min_buffer {
            return Err(out_of_range(
                "write buffer (bytes)",
                self.controller.write_buffer_bytes,
                &format!("at least {min_buffer}"),
            ));
        }
        Ok(())
    }
}

/// A die count the model accepts: `1..=MAX_DIES`.
pub(crate) fn check_dies(dies: u32) -> Result<(), ConfigError> {
    check_range("dies", dies, 1, MAX_DIES)
}

fn check_positive(what: &'static str, value: f64) -> Result<(), ConfigError> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(out_of_range(what, value, "a finite number above 0"))
    }
}

fn check_fraction(what: &'static str, value: f64) -> Result<(), ConfigError> {
    if value.is_finite() && value > 0.0 && value <= 1.0 {
        Ok(())
    } else {
        Err(out_of_range(what, value, "above 0 and at most 1"))
    }
}

impl Workload {
    /// The workload's own checks, which [`RunSpec::check`] makes first: for a caller that
    /// uses a workload without a run (a fio job file).
    pub fn check(&self) -> Result<(), ConfigError> {
        check_range("iodepth", self.iodepth, 1, MAX_IODEPTH)?;
        check_range("rwmixread", self.rwmixread, 0, 100)?;
        check_range(
            "block size (bytes)",
            self.bs_bytes,
            MIN_BLOCK_BYTES,
            MAX_BLOCK_BYTES,
        )?;
        check_multiple_of_mapping_unit("block size (bytes)", self.bs_bytes)
    }
}

fn check_multiple_of_mapping_unit(what: &'static str, bytes: u32) -> Result<(), ConfigError> {
    if bytes.is_multiple_of(MAPPING_UNIT_BYTES) {
        Ok(())
    } else {
        Err(out_of_range(what, bytes, "a multiple of 4096"))
    }
}

fn check_controller(c: &ControllerSpec) -> Result<(), ConfigError> {
    check_range("channels", c.channels, 1, 32)?;
    check_range("chip enables", c.chip_enables, 1, 1024)?;
    check_range("device queue limit", c.device_queue_limit, 1, 65_535)?;
    check_fraction("link efficiency", c.link_efficiency)?;
    check_fraction("user fraction", c.user_fraction)?;
    check_fraction("spare efficiency", c.spare_efficiency)?;
    check_range(
        "multi-plane read queue threshold",
        c.multiplane_read_min_queue,
        1,
        1024,
    )?;
    check_range("read burst limit", c.read_burst_limit, 1, 1_000_000)?;
    check_range("suspends per program step", c.max_suspends, 0, 64)?;
    if let Mapping::Hmb { hmb_bytes } = c.mapping {
        check_range("HMB size (bytes)", hmb_bytes, 0, 1 << 40)?;
    }
    let slc = c.slc_cache;
    check_range("SLC static cache (bytes)", slc.static_bytes, 0, 1 << 44)?;
    if !(slc.dynamic_share.is_finite() && (0.0..=1.0).contains(&slc.dynamic_share)) {
        return Err(out_of_range(
            "SLC dynamic share",
            slc.dynamic_share,
            "0..=1",
        ));
    }
    let p = c.power;
    for (what, w) in [
        ("idle power (W)", p.idle_w),
        ("controller power (W)", p.busy_w),
        ("link power (W)", p.link_w),
    ] {
        check_watts(what, w)?;
    }
    for s in p.states {
        check_positive("power state maximum (W)", s.max_w)?;
    }
    Ok(())
}

/// A power draw the model accepts: finite, not negative, at most a kilowatt.
fn check_watts(what: &'static str, w: f64) -> Result<(), ConfigError> {
    if w.is_finite() && (0.0..=1000.0).contains(&w) {
        Ok(())
    } else {
        Err(out_of_range(what, w, "0..=1000"))
    }
}

fn check_nand(n: &NandSpec) -> Result<(), ConfigError> {
    check_positive("die power (W)", n.power.die_w)?;
    check_watts("channel power (W)", n.power.bus_w)?;
    check_range("planes", n.planes, 1, 8)?;
    check_range(
        "page size (bytes)",
        n.page_bytes,
        MAPPING_UNIT_BYTES,
        65_536,
    )?;
    check_multiple_of_mapping_unit("page size (bytes)", n.page_bytes)?;
    check_range("pages per block", n.pages_per_block, 1, 65_536)?;
    check_range("pages per program", n.program_pages, 1, 4)?;
    check_range("die density (Gbit)", n.die_gbit, 1, 4096)?;
    check_positive("channel rate (bytes/s)", n.bus_bytes_per_s)?;
    for (what, t) in [
        ("tR", n.t_read),
        ("SLC tR", n.t_read_slc),
        ("tPROG", n.t_prog),
        ("SLC tPROG", n.t_prog_slc),
        ("tBERS", n.t_erase),
        ("suspend latency", n.t_suspend),
        ("resume cost", n.t_resume),
    ] {
        if t.0 == 0 || t.0 > 1_000_000_000 {
            return Err(out_of_range(what, t, "1 ns..=1 s"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    fn spec() -> RunSpec {
        let drive = presets::find("e18dc").unwrap().drive_with_dies(8).unwrap();
        RunSpec {
            drive,
            workload: Workload {
                rw: Rw::RandRead,
                rwmixread: 100,
                bs_bytes: 4096,
                iodepth: 1,
            },
            state: DriveState::Steady,
            options: RunOptions::default(),
        }
    }

    #[test]
    fn a_preset_run_passes_the_checks() {
        assert!(spec().check().is_ok());
    }

    #[test]
    fn every_bad_field_names_itself_in_the_message() {
        let mut s = spec();
        s.workload.iodepth = 0;
        assert_eq!(
            s.check().unwrap_err().to_string(),
            "iodepth 0 is out of range (allowed: 1..=1024)"
        );
        let mut s = spec();
        s.workload.bs_bytes = 6000;
        assert!(s.check().unwrap_err().to_string().contains("block size"));
        let mut s = spec();
        s.drive.dies = 0;
        assert!(s.check().unwrap_err().to_string().starts_with("dies 0"));
        let mut s = spec();
        s.drive.controller.link_efficiency = f64::NAN;
        assert!(s
            .check()
            .unwrap_err()
            .to_string()
            .contains("link efficiency"));
    }

    #[test]
    fn fio_names_round_trip() {
        for rw in Rw::ALL {
            assert_eq!(rw.fio_name().parse::<Rw>(), Ok(rw));
            let pct = rw.fixed_read_percent().unwrap_or(70);
            assert_eq!(Rw::from_parts(rw.is_random(), pct), rw);
        }
        assert!("randomread".parse::<Rw>().is_err());
    }
}

/// Read a block size as fio writes it: `4k`, `128K`, `1m`, `512KiB` or plain bytes `4096`.
pub fn parse_block_size(s: &str) -> Result<u32, ConfigError> {
    let t = s.trim().to_ascii_lowercase();
    let t = t
        .strip_suffix("ib")
        .or_else(|| t.strip_suffix('b'))
        .unwrap_or(&t);
    let (digits, mult) = match t.chars().last() {
        Some('k') => (&t[..t.len() - 1], 1024u64),
        Some('m') => (&t[..t.len() - 1], 1024 * 1024),
        _ => (t, 1),
    };
    let malformed = |why: &str| ConfigError::Malformed {
        what: "block size".into(),
        value: s.to_string(),
        why: why.to_string(),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 9 {
        return Err(malformed("expected a size such as 4k, 128k or 1m"));
    }
    let n: u64 = digits
        .parse()
        .map_err(|_| malformed("not a whole number"))?;
    let bytes = n * mult;
    if bytes < u64::from(MIN_BLOCK_BYTES)
        || bytes > u64::from(MAX_BLOCK_BYTES)
        || !bytes.is_multiple_of(u64::from(MAPPING_UNIT_BYTES))
    {
        return Err(out_of_range("block size", s, "4k..=1m in multiples of 4k"));
    }
    Ok(bytes as u32)
}

/// Write a block size the way fio and the URL spell it (`4k`, `128k`, `1m`).
pub fn format_block_size(bytes: u32) -> String {
    if bytes.is_multiple_of(1024 * 1024) {
        format!("{}m", bytes / (1024 * 1024))
    } else if bytes.is_multiple_of(1024) {
        format!("{}k", bytes / 1024)
    } else {
        bytes.to_string()
    }
}

#[cfg(test)]
mod block_size_tests {
    use super::*;

    #[test]
    fn block_sizes_read_as_fio_writes_them() {
        assert_eq!(parse_block_size("4k"), Ok(4096));
        assert_eq!(parse_block_size("128K"), Ok(131_072));
        assert_eq!(parse_block_size("1m"), Ok(1_048_576));
        assert_eq!(parse_block_size("64KiB"), Ok(65_536));
        assert_eq!(parse_block_size("8192"), Ok(8192));
        for bad in ["", "k", "4x", "-4k", "2m", "6k", "99999999999k", "4.5k"] {
            assert!(parse_block_size(bad).is_err(), "{bad:?} accepted");
        }
        for bs in [4096, 131_072, 1_048_576] {
            assert_eq!(parse_block_size(&format_block_size(bs)), Ok(bs));
        }
    }
}
