//! The drives the lab knows, each value with its source or marked as an assumption.
//!
//! A preset is one controller (with its firmware) and one NAND part. Capacity is never a
//! parameter of its own: it follows from the die count (`dies × die density × user fraction`),
//! so the 480, 960 and 1,920 GB E18DC drives are literally the same preset with 8, 16 and 32
//! dies. Parameters marked *fitted* were chosen once, for all capacities together, against
//! `e18dc-calibration.csv` (see [`super::calibration`]); parameters marked *assumption* are
//! typical values for the part's generation that no measurement here pins down.
//!
//! Sources, abbreviated in the comments below:
//! - \[REF1\] *SSD Benchmarking 201, Part 5: One Controller at Three Capacities* (Iometer runs of
//!   July 2022 on a Phison E18DC engineering sample; the cells are in `data/`).
//! - \[REF2\] Phison's spec sheets for the E7, E8, E8T, E12 and E12C, as *The Phison E12
//!   Reference Design Preview: A Next-Gen NVMe SSD Controller* (Billy Tallis, AnandTech,
//!   July 18, 2018) tabulates them.
//! - \[REF3\] that E12 preview itself: the 960 GB sample, its SLC cache and power states.
//! - \[REF4\] *An SSD State of the Union Update* (AnandTech, 2011): the OCZ Octane 128 GB on the
//!   Indilinx Everest, against the 512 GB model.
//! - \[REF5\] the host interface standards' rates (SATA 3.x, PCIe 3.0 to 5.0).
//! - \[REF6\] what \[REF1\]'s cells demand of a model, worked out from them: the mechanisms
//!   (multi-plane reads at depth, cache read, a shared command budget, greedy collection, a link
//!   efficiency below 1) without which some cell misses by 10% or more.
//! - \[REF7\] *Solid State Drive Technology Differences between SLC, MLC and TLC NAND* (HP
//!   technical white paper), Table 1: read, program and erase times by cell type.
//! - \[REF8\] *SimpleSSD: Modeling Solid State Drives for Holistic System Simulation* (Jung et
//!   al., IEEE Computer Architecture Letters, 2017) and its published configuration: the
//!   read-ahead of a simulated SSD controller.

use std::borrow::Cow;
use std::sync::Arc;

use crate::config::SpecPeaks;
use crate::config::{
    check_dies, CellType, ConfigError, ControllerSpec, DriveSpec, Mapping, NandSpec,
    SequentialLayout, SlcCache,
};
use crate::config::{ControllerPower, IdleLatency, NandPower, PowerState};
use crate::config::{Fitted, Param};
use crate::link::HostLink;
use crate::time::Nanos;

const KIB: u32 = 1024;
const MIB: u64 = 1024 * 1024;

/// A named controller + NAND combination.
///
/// A preset owns its data: the built-in ones borrow it from the table ([`all`]), a preset made
/// at run time (a drive of the reader's own, see [`PresetRef::made`]) owns its text, and callers
/// hold either through a [`PresetRef`].
#[derive(Clone, Debug, PartialEq)]
pub struct Preset {
    /// Short stable name used in URLs and on the command line.
    pub id: Cow<'static, str>,
    pub name: Cow<'static, str>,
    /// One line on what this drive is and why it is in the lab.
    pub summary: Cow<'static, str>,
    pub controller: ControllerSpec,
    pub nand: NandSpec,
    /// Capacities (GB, user) that were sold or measured; any die count works.
    pub capacities_gb: Cow<'static, [u32]>,
    /// The parameters `lab fit` chooses for this preset, with their search bounds; the values in
    /// `controller` and `nand` are what the fit finds on the preset's reference data.
    pub fitted: &'static [Fitted],
    /// The controller's spec-sheet peaks for a fresh drive (Phison's spec sheets, \[REF2\]), where
    /// a vendor gives them.
    pub spec_peaks: Option<SpecPeaks>,
}

impl Preset {
    /// User GB that one die adds.
    pub fn gb_per_die(&self) -> f64 {
        self.with_dies_unchecked(1).gb_per_die()
    }

    /// The drive with `dies` dies behind this controller; a count outside `1..=MAX_DIES` is
    /// refused, never moved into range.
    pub fn drive_with_dies(&self, dies: u32) -> Result<DriveSpec, ConfigError> {
        check_dies(dies)?;
        Ok(self.with_dies_unchecked(dies))
    }

    fn with_dies_unchecked(&self, dies: u32) -> DriveSpec {
        DriveSpec {
            controller: self.controller.clone(),
            nand: self.nand.clone(),
            dies,
        }
    }

    /// The die count that gives the nearest user capacity.
    pub fn dies_for_capacity_gb(&self, gb: f64) -> Result<u32, ConfigError> {
        self.with_dies_unchecked(1).dies_for_capacity_gb(gb)
    }

    pub fn drive_for_capacity_gb(&self, gb: f64) -> Result<DriveSpec, ConfigError> {
        self.with_dies_unchecked(1).with_capacity_gb(gb)
    }

    /// The drive at [`default_capacity_gb`](Self::default_capacity_gb): where a fit of this
    /// controller starts.
    pub fn default_drive(&self) -> DriveSpec {
        let gb = f64::from(self.default_capacity_gb());
        self.drive_for_capacity_gb(gb)
            .unwrap_or_else(|_| self.with_dies_unchecked(1))
    }

    /// The capacity the lab shows by default for this preset: the last one listed, or, for a
    /// preset that lists none, one die's (the drive [`default_drive`](Self::default_drive)
    /// falls back to), as a whole GB of at least 1.
    pub fn default_capacity_gb(&self) -> u32 {
        match self.capacities_gb.last() {
            Some(&gb) => gb,
            // Far below u32::MAX GB for any die the model accepts; the cast saturates anyway.
            None => self.gb_per_die().round().max(1.0) as u32,
        }
    }
}

/// User fraction of drives sold in decimal GB from binary-sized flash: 480 GB from 512 GiB,
/// 960 GB from 1 TiB (the E12 review's "960 GB usable from 1 TB" [REF3]).
const USER_FRACTION_ENTERPRISE: f64 = 480e9 / (512.0 * 1073741824.0);

/// assumption: 3D NAND stops a program or erase within about 20 µs of a suspend command and
/// re-runs the interrupted program-verify pulse on resume (about 10 µs): the order of the
/// suspend latencies (tens of µs) that 3D TLC datasheets give.
const SUSPEND_3D: Nanos = Nanos::from_us(20);
const RESUME_3D: Nanos = Nanos::from_us(10);
/// assumption: planar MLC parts have the command too; the presets that use them never send it.
const SUSPEND_PLANAR: Nanos = Nanos::from_us(30);
const RESUME_PLANAR: Nanos = Nanos::from_us(15);

/// [REF7]: an SLC page reads in 25 µs, an MLC page in 50 µs and a TLC page in about 75 µs.
/// Cells run in SLC mode sense one read level as SLC cells do, so the SLC cache's pages read in
/// SLC time; the presets' own TLC and MLC tR (60-65 µs and 45-50 µs) sit close to the table's.
const SLC_READ_3D_TLC: Nanos = Nanos::from_us(25);
const SLC_READ_MLC: Nanos = Nanos::from_us(25);

/// assumption: one die's array operation (sense, program or erase) draws VCC 3.3 V x 25 mA, the
/// typical ICC that NAND datasheets of these generations give for all three; a channel
/// transferring draws VCCQ 1.2 V x 25 mA (3D parts' Toggle / ONFI interfaces).
const TLC_3D_POWER: NandPower = NandPower {
    die_w: 0.0825,
    bus_w: 0.03,
};
/// assumption: planar MLC arrays draw like 3D ones; a 1.8 V Toggle 2.0 bus about 20 mA.
const PLANAR_MLC_POWER: NandPower = NandPower {
    die_w: 0.0825,
    bus_w: 0.036,
};
/// assumption: ONFI 2.2 parts at 3.3 V VCCQ, about 15 mA on the bus.
const ONFI2_MLC_POWER: NandPower = NandPower {
    die_w: 0.0825,
    bus_w: 0.05,
};

/// [REF3]: the E12's NVMe power states: PS0 8.9 W, PS1 2.3 W, PS2 1.8 W (active); PS3 49 mW and
/// PS4 1.8 mW (idle, entered and left in 2 ms and 25 ms).
const E12_POWER_STATES: [PowerState; 5] = [
    PowerState {
        max_w: 8.9,
        idle: None,
    },
    PowerState {
        max_w: 2.3,
        idle: None,
    },
    PowerState {
        max_w: 1.8,
        idle: None,
    },
    PowerState {
        max_w: 0.049,
        idle: Some(IdleLatency {
            entry: Nanos::from_ms(2),
            exit: Nanos::from_ms(2),
        }),
    },
    PowerState {
        max_w: 0.0018,
        idle: Some(IdleLatency {
            entry: Nanos::from_ms(25),
            exit: Nanos::from_ms(25),
        }),
    },
];

/// 512 Gbit 3D TLC die of the E18DC sample. [REF6]: 512 Gbit dies (8/16/32 dies at
/// 480/960/1,920 GB) are the density that fits every cell.
const TLC_512GBIT: NandSpec = NandSpec {
    name: "512 Gbit 96-layer 3D TLC",
    cell: CellType::Tlc,
    die_gbit: 512,
    // [REF6]: two planes per die.
    planes: 2,
    // assumption: 16 KiB pages, usual for 64-96 layer TLC.
    page_bytes: 16 * KIB,
    // assumption: 768 pages per plane per block (24 MiB two-plane blocks).
    pages_per_block: 768,
    // fitted by `lab fit` (E18DC_FITTED): the QD1 reads, and the QD32 and QD256 reads of the
    // 480 GB drive, where the dies are the limit [REF1].
    t_read: Nanos::from_us(60),
    t_read_slc: SLC_READ_3D_TLC,
    // fitted by `lab fit`: 128 KiB sequential writes, 368 MB/s at 8 dies and 1.6 GB/s at 32
    // [REF1]: one 96 KiB one-shot unit per die every ~2 ms.
    t_prog: Nanos::from_us(1_930),
    // assumption: typical 3D TLC block erase.
    t_erase: Nanos::from_us(3_500),
    // assumption: SLC-mode page program, typical of 3D TLC.
    t_prog_slc: Nanos::from_us(200),
    // one-shot TLC programs the three pages of a word line together.
    program_pages: 3,
    // assumption: 1,200 MT/s Toggle 4.0 / ONFI 4.1 bus, the E18's top NAND interface speed.
    bus_bytes_per_s: 1.2e9,
    // [REF6]: without cache read the 480 GB sequential read peak is a quarter too low.
    cache_read: true,
    t_suspend: SUSPEND_3D,
    t_resume: RESUME_3D,
    power: TLC_3D_POWER,
};

/// Kioxia/Toshiba BiCS3 256 Gbit 64-layer TLC, the flash of the E12 review sample [REF3].
const BICS3_TLC_256GBIT: NandSpec = NandSpec {
    name: "BiCS3 256 Gbit 64-layer TLC",
    cell: CellType::Tlc,
    die_gbit: 256,
    planes: 2,
    page_bytes: 16 * KIB,
    pages_per_block: 768,
    // assumption: one generation older than the E18DC part, a little slower to sense.
    t_read: Nanos::from_us(65),
    t_read_slc: SLC_READ_3D_TLC,
    // fitted to a fact of [REF3]: the E12's sequential writes stay above 1 GB/s once the SLC
    // cache is full (32 dies); tested by the E12 fill test. Retail 1 TB E12 drives write about
    // 1 GB/s once their cache is full (TechPowerUp's Seagate FireCuda 510 1 TB and Sabrent
    // Rocket 1 TB reviews), which 2.95 ms would give; but then the preview's sample would write
    // fastest at QD1 where the review found QD2, so the preview's value stays and the retail
    // figures are known misses of the scorecard (`lab validate`).
    t_prog: Nanos::from_us(2_400),
    t_erase: Nanos::from_us(3_500),
    // assumption: SLC-mode page program; with 32 dies the cache writes at the link's rate.
    t_prog_slc: Nanos::from_us(250),
    program_pages: 3,
    // assumption: 800 MT/s, the E12's NAND interface.
    bus_bytes_per_s: 0.8e9,
    cache_read: true,
    t_suspend: SUSPEND_3D,
    t_resume: RESUME_3D,
    power: TLC_3D_POWER,
};

/// The same flash behind the 4-channel E12C, whose NAND interface runs slower.
const BICS3_TLC_256GBIT_4CH: NandSpec = NandSpec {
    // fitted to [REF2]: the E12C's 1,700 MB/s sequential read and write spec peaks, which its
    // 4 channels set for both: 425 MB/s a channel (about a 533 MT/s interface, less command
    // overhead).
    bus_bytes_per_s: 0.425e9,
    ..BICS3_TLC_256GBIT
};

/// 15 nm planar MLC (E7 era): 128 Gbit, 16 KiB pages, two planes.
const PLANAR_MLC_15NM: NandSpec = NandSpec {
    name: "15 nm planar MLC 128 Gbit",
    cell: CellType::Mlc,
    die_gbit: 128,
    planes: 2,
    page_bytes: 16 * KIB,
    pages_per_block: 256,
    // assumption: planar MLC datasheet-typical tR and tBERS.
    t_read: Nanos::from_us(45),
    t_read_slc: SLC_READ_MLC,
    // fitted to [REF2]: the E7's 1,300 MB/s sequential-write spec peak, which its MLC program
    // rate sets (no SLC cache); 1.5 ms is within the 15 nm MLC datasheet range.
    t_prog: Nanos::from_us(1_500),
    t_erase: Nanos::from_us(3_000),
    // assumption: MLC lower-page (SLC-like) program.
    t_prog_slc: Nanos::from_us(400),
    program_pages: 1,
    // assumption: 400 MT/s Toggle 2.0.
    bus_bytes_per_s: 0.4e9,
    cache_read: true,
    t_suspend: SUSPEND_PLANAR,
    t_resume: RESUME_PLANAR,
    power: PLANAR_MLC_POWER,
};

/// IMFT 25 nm 64 Gbit (8 GB) synchronous MLC of the OCZ Octane [REF4].
const IMFT_MLC_25NM: NandSpec = NandSpec {
    name: "IMFT 25 nm 64 Gbit MLC",
    cell: CellType::Mlc,
    die_gbit: 64,
    planes: 2,
    // assumption: 8 KiB pages, 256 pages per block (IMFT 25 nm datasheet-typical).
    page_bytes: 8 * KIB,
    pages_per_block: 256,
    // assumption: 50 µs tR, 1.6 ms average program (lower and upper pages), 3 ms erase;
    // gives the "about 160 MB/s" sequential write of the 128 GB model [REF4].
    t_read: Nanos::from_us(50),
    t_read_slc: SLC_READ_MLC,
    t_prog: Nanos::from_us(1_600),
    t_erase: Nanos::from_us(3_000),
    // assumption: MLC lower-page (SLC-like) program.
    t_prog_slc: Nanos::from_us(500),
    program_pages: 1,
    // assumption: ONFI 2.2 synchronous at 166 MT/s.
    bus_bytes_per_s: 0.166e9,
    cache_read: true,
    t_suspend: SUSPEND_PLANAR,
    t_resume: RESUME_PLANAR,
    power: ONFI2_MLC_POWER,
};

/// assumption: an NVMe controller takes every command the host queues, up to NVMe's largest
/// queue.
const NVME_QUEUE_LIMIT: u32 = 65_535;
/// The consumer reviews' host: driver, interrupt and benchmark per I/O, from [REF3]'s fastest
/// drive, which read 128 KiB bursts at QD1 at 2.4 GB/s: 54.6 µs per read, of which a
/// 128 KiB read crosses PCIe 3.0 x4 at the E12's efficiency in 39.2 µs and its controller
/// takes 1.65 µs, so the review's host spends at most 13.8 µs. A bound taken as the value:
/// with it the E12's own bursts run at that fastest drive's speed. The E18DC's host stack,
/// fitted to its QD1 reads on another host [REF1], is close (14.5 µs).
const CONSUMER_HOST_STACK: Nanos = Nanos(13_800);

/// The Phison E18DC and its firmware, one parameter set for every capacity [REF1].
const PHISON_E18DC: ControllerSpec = ControllerSpec {
    name: "Phison E18DC",
    channels: 8,
    chip_enables: 32,
    link: HostLink::Pcie4x4,
    // PCIe's own overhead, not a fit: the 7,118 MB/s sequential-read peak [REF1] is a
    // prediction (see `HostLink::posted_efficiency`).
    link_efficiency: HostLink::Pcie4x4.posted_efficiency(),
    device_queue_limit: NVME_QUEUE_LIMIT,
    // fitted by `lab fit`: caps 4 KiB reads at 1,920 GB and QD256 (IOPS and latency) [REF1].
    cmd_cost: Nanos(1_650),
    // assumption: buffer and mapping bookkeeping of a write command.
    write_cmd_cost: Nanos(2_000),
    // fitted by `lab fit`: with the write amplification, the 1,920 GB random writes at QD1 and
    // QD256 (IOPS and latency) [REF1, REF6].
    gc_unit_cost: Nanos(4_300),
    // fitted by `lab fit`: the rest of the QD1 read latency (driver, interrupt, Iometer) [REF1].
    host_stack: Nanos(14_500),
    // assumption: the review's host (16 Iometer workers over many cores) never limits: its
    // 1,920 GB reads climb to 646k IOPS at QD256 [REF1].
    host_path: Nanos(0),
    mapping: Mapping::Dram,
    // assumption: power-loss-protected write buffer of 8 MiB.
    write_buffer_bytes: 8 * MIB,
    // fitted by `lab fit`: multi-plane reads only at depth [REF6]; the 480 GB QD32 and QD256
    // reads and the 1,920 GB QD32 reads bound it (leave-one-out in the README).
    multiplane_read_min_queue: 8,
    // assumption: a program waits behind at most 8 reads.
    read_burst_limit: 8,
    // assumption: enterprise firmware suspends a program or erase for arriving reads,
    // up to four times per step, so a read never waits out a whole ~2 ms TLC program.
    max_suspends: 4,
    // [REF1]: one 128 KiB read at a time runs at 1,232-1,346 MB/s on all three capacities, the
    // 1,920 GB drive the slowest: one sense and one page per channel, with nothing fetched
    // ahead. Data striped page by page meets eight dies at every capacity; a program unit per
    // die would meet one or two (578 MB/s at 480 GB), and a read-ahead buffer of one page per
    // die would grow with the dies (1,424 MB/s at 1,920 GB), where the real drive does not.
    read_ahead: false,
    sequential_layout: SequentialLayout::Striped,
    user_fraction: USER_FRACTION_ENTERPRISE,
    // fitted by `lab fit`: the random writes at both capacities; the usable spare is a little
    // smaller than raw minus user [REF6].
    spare_efficiency: 0.82,
    // [REF1]: an enterprise drive; its sustained writes show no SLC cache.
    slc_cache: SlcCache::NONE,
    // assumption: enterprise NVMe drives idle at 3 to 5 W (the lower end for a 12 nm
    // controller with DRAM); the cores add 1.5 W at full load; a PCIe 4.0 x4 direction about
    // 4 pJ/bit at 63 Gb/s. No power-state table is published.
    power: ControllerPower {
        idle_w: 3.0,
        busy_w: 1.5,
        link_w: 0.25,
        states: &[],
    },
};

/// The Phison E12, the consumer reference design of [REF3]; the other consumer Phison presets
/// are this controller with what their spec sheets change.
const PHISON_E12: ControllerSpec = ControllerSpec {
    name: "Phison PS5012-E12",
    channels: 8,
    chip_enables: 32,
    link: HostLink::Pcie3x4,
    // assumption: spec-sheet 3,200 MB/s read is about 85% of PCIe 3.0 x4 [REF2].
    link_efficiency: 0.85,
    device_queue_limit: NVME_QUEUE_LIMIT,
    // [REF2]: 600k IOPS random-read spec peak.
    cmd_cost: Nanos(1_650),
    // fitted to [REF2]: the E12's random-write spec peak equals its random-read peak (600k
    // IOPS), and the E12C's, E8T's and E8's are as high or within a tenth: a buffered write
    // costs the controller no more than a read.
    write_cmd_cost: Nanos(0),
    // assumption: the E18DC's collection cost.
    gc_unit_cost: PHISON_E18DC.gc_unit_cost,
    host_stack: CONSUMER_HOST_STACK,
    host_path: PHISON_E18DC.host_path,
    mapping: Mapping::Dram,
    // assumption: an 8 MiB write buffer in DRAM.
    write_buffer_bytes: 8 * MIB,
    // assumption: the E18DC's firmware policies.
    multiplane_read_min_queue: PHISON_E18DC.multiplane_read_min_queue,
    read_burst_limit: 8,
    // assumption: 3D-TLC firmware of 2018 suspends programs and erases for reads, up to four
    // times per step.
    max_suspends: 4,
    // [REF3]: burst sequential reads at QD1 "just shy of 2 GB/s", twice what one 128 KiB
    // request at a time gets from the dies: the controller reads ahead. Trigger and window are
    // SimpleSSD's ([REF8]: three sequential reads, one page from every die).
    read_ahead: true,
    // [REF3]: sustained sequential reads "mostly flat at low queue depths, and then jumps up
    // toward saturation between QD4 and QD16": QD1 to QD4 served alike from the read-ahead
    // buffer, deeper queues reaching the dies that hold a program unit each.
    sequential_layout: SequentialLayout::UnitPerDie,
    // [REF3]: 960 GB usable from 1 TB.
    user_fraction: USER_FRACTION_ENTERPRISE,
    spare_efficiency: PHISON_E18DC.spare_efficiency,
    // assumption: a 12 GB static cache plus a tenth of the free space in SLC mode (about 44 GB
    // on an empty 960 GB drive): 32 GB bursts fit, sustained writing fills it and it refills
    // only with idle time, as in the E12 review [REF3]. Retail 1 TB E12 drives' firmware keeps
    // 16 GB (Sabrent Rocket) to 28 GB (Seagate FireCuda 510) on an erased drive (TechPowerUp's
    // reviews); with 28 GB the preview's sample would peak at QD1, not at the review's QD2, so
    // this stays an assumption (`lab validate --sensitivity` varies the static part 0-24 GB).
    slc_cache: SlcCache {
        static_bytes: 12_000_000_000,
        dynamic_share: 0.1,
    },
    // assumption: a 28 nm consumer controller with DRAM idles at about 0.5 W in PS0 with the
    // link up, its cores add 0.45 W at full load, a PCIe 3.0 x4 direction about 5 pJ/bit at
    // 32 Gb/s. The states are [REF3]'s.
    power: ControllerPower {
        idle_w: 0.5,
        busy_w: 0.45,
        link_w: 0.15,
        states: &E12_POWER_STATES,
    },
};

/// assumption: the smaller Phison controllers cache like the E12 with half the static part.
const SMALL_DYNAMIC_SLC: SlcCache = SlcCache {
    static_bytes: 6_000_000_000,
    dynamic_share: 0.1,
};

/// The Phison E8T: 4 channels and PCIe 3.0 x2 with DRAM [REF2].
const PHISON_E8T: ControllerSpec = ControllerSpec {
    name: "Phison PS5008-E8T",
    channels: 4,
    chip_enables: 32,
    link: HostLink::Pcie3x2,
    // assumption: spec-sheet 1,600 MB/s read is about 81% of PCIe 3.0 x2 [REF2].
    link_efficiency: 0.81,
    // [REF2]: 120k IOPS random-read spec peak.
    cmd_cost: Nanos(8_300),
    // assumption: a slower core than the E12's.
    gc_unit_cost: Nanos(6_000),
    slc_cache: SMALL_DYNAMIC_SLC,
    // assumption: a smaller controller with DRAM on a x2 link; no power-state table is
    // published.
    power: ControllerPower {
        idle_w: 0.4,
        busy_w: 0.3,
        link_w: 0.08,
        states: &[],
    },
    ..PHISON_E12
};

/// What `lab fit` chooses for the E18DC against its reference cells [REF1]. Each is identified by
/// at least two cells (see the README's cross-validation table).
const E18DC_FITTED: [Fitted; 7] = [
    Fitted {
        param: Param::TReadUs,
        lo: 40.0,
        hi: 80.0,
        step: 0.5,
    },
    Fitted {
        param: Param::HostStackUs,
        lo: 2.0,
        hi: 20.0,
        step: 0.25,
    },
    Fitted {
        param: Param::CmdCostNs,
        lo: 1_000.0,
        hi: 2_500.0,
        step: 10.0,
    },
    Fitted {
        param: Param::TProgUs,
        lo: 1_200.0,
        hi: 3_000.0,
        step: 10.0,
    },
    Fitted {
        param: Param::GcUnitCostNs,
        lo: 1_000.0,
        hi: 8_000.0,
        step: 50.0,
    },
    Fitted {
        param: Param::SpareEfficiency,
        lo: 0.5,
        hi: 1.0,
        step: 0.01,
    },
    Fitted {
        param: Param::MultiplaneReadMinQueue,
        lo: 2.0,
        hi: 32.0,
        step: 1.0,
    },
];

/// Every preset, in the order menus show them.
pub(crate) static PRESETS: [Preset; 7] = [
    Preset {
        id: Cow::Borrowed("e18dc"),
        name: Cow::Borrowed("Phison E18DC (enterprise, PCIe 4.0)"),
        summary: Cow::Borrowed("8 channels, 32 CE, PCIe 4.0 x4; measured at 480, 960 and 1,920 GB [REF1]"),
        controller: PHISON_E18DC,
        nand: TLC_512GBIT,
        capacities_gb: Cow::Borrowed(&[480, 960, 1920]),
        fitted: &E18DC_FITTED,
        spec_peaks: None,
    },
    Preset {
        id: Cow::Borrowed("e12"),
        name: Cow::Borrowed("Phison E12 (consumer, PCIe 3.0)"),
        summary: Cow::Borrowed("8 channels, 32 CE, PCIe 3.0 x4, DRAM; the 2018 reference design [REF2, REF3]"),
        controller: PHISON_E12,
        nand: BICS3_TLC_256GBIT,
        capacities_gb: Cow::Borrowed(&[240, 480, 960]),
        fitted: &[],
        // [REF2]: spec-sheet peaks.
        spec_peaks: Some(SpecPeaks {
            seq_read_mb_s: 3_200.0,
            seq_write_mb_s: 3_000.0,
            rand_read_iops: 600_000.0,
            rand_write_iops: 600_000.0,
        }),
    },
    Preset {
        id: Cow::Borrowed("e12c"),
        name: Cow::Borrowed("Phison E12C (4-channel, PCIe 3.0)"),
        summary: Cow::Borrowed("4 channels, 16 CE, PCIe 3.0 x4: the E12 with half the back end [REF2]"),
        controller: ControllerSpec {
            name: "Phison PS5012-E12C",
            channels: 4,
            chip_enables: 16,
            // [REF2]: 340k IOPS random-read spec peak.
            cmd_cost: Nanos(2_900),
            slc_cache: SMALL_DYNAMIC_SLC,
            ..PHISON_E12
        },
        nand: BICS3_TLC_256GBIT_4CH,
        capacities_gb: Cow::Borrowed(&[240, 480]),
        fitted: &[],
        // [REF2]: spec-sheet peaks.
        spec_peaks: Some(SpecPeaks {
            seq_read_mb_s: 1_700.0,
            seq_write_mb_s: 1_700.0,
            rand_read_iops: 340_000.0,
            rand_write_iops: 400_000.0,
        }),
    },
    Preset {
        id: Cow::Borrowed("e8"),
        name: Cow::Borrowed("Phison E8 (DRAM-less, PCIe 3.0 x2)"),
        summary: Cow::Borrowed("4 channels, PCIe 3.0 x2, no DRAM: the mapping table is cached in host memory (HMB) [REF2]"),
        controller: ControllerSpec {
            name: "Phison PS5008-E8",
            // [REF2]: 240k IOPS random-read spec peak.
            cmd_cost: Nanos(4_100),
            // assumption: a 32 MiB host memory buffer, covering a 32 GiB span.
            mapping: Mapping::Hmb {
                hmb_bytes: 32 * MIB,
            },
            // assumption: SRAM-sized buffer, DRAM-less.
            write_buffer_bytes: 2 * MIB,
            // assumption: without DRAM the E8 idles 0.1 W below the E8T.
            power: ControllerPower {
                idle_w: 0.3,
                ..PHISON_E8T.power
            },
            ..PHISON_E8T
        },
        nand: BICS3_TLC_256GBIT,
        capacities_gb: Cow::Borrowed(&[240, 480]),
        fitted: &[],
        // [REF2]: spec-sheet peaks.
        spec_peaks: Some(SpecPeaks {
            seq_read_mb_s: 1_600.0,
            seq_write_mb_s: 1_300.0,
            rand_read_iops: 240_000.0,
            rand_write_iops: 220_000.0,
        }),
    },
    Preset {
        id: Cow::Borrowed("e8t"),
        name: Cow::Borrowed("Phison E8T (DRAM, PCIe 3.0 x2)"),
        summary: Cow::Borrowed("The E8 with a DDR3 mapping cache; lower spec-sheet IOPS [REF2]"),
        controller: PHISON_E8T,
        nand: BICS3_TLC_256GBIT,
        capacities_gb: Cow::Borrowed(&[240, 480]),
        fitted: &[],
        // [REF2]: spec-sheet peaks.
        spec_peaks: Some(SpecPeaks {
            seq_read_mb_s: 1_600.0,
            seq_write_mb_s: 1_300.0,
            rand_read_iops: 120_000.0,
            rand_write_iops: 130_000.0,
        }),
    },
    Preset {
        id: Cow::Borrowed("e7"),
        name: Cow::Borrowed("Phison E7 (planar MLC, PCIe 3.0)"),
        summary: Cow::Borrowed("Phison's first NVMe controller: 8 channels, 64 CE, 15 nm planar MLC [REF2]"),
        controller: ControllerSpec {
            name: "Phison PS5007-E7",
            chip_enables: 64,
            // assumption: spec-sheet 2,600 MB/s read is about 66% of PCIe 3.0 x4 [REF2].
            link_efficiency: 0.70,
            // [REF2]: 300k IOPS random-read spec peak.
            cmd_cost: Nanos(3_300),
            write_cmd_cost: Nanos(2_500),
            gc_unit_cost: Nanos(5_000),
            // assumption: planar MLC drives of the E7's time wrote straight to MLC.
            slc_cache: SlcCache::NONE,
            // assumption: Phison's first NVMe firmware does not suspend programs.
            max_suspends: 0,
            // assumption: a 2015 controller with DRAM idles at about 0.8 W and its cores add
            // 0.6 W at full load; no power-state table is published.
            power: ControllerPower {
                idle_w: 0.8,
                busy_w: 0.6,
                link_w: 0.15,
                states: &[],
            },
            ..PHISON_E12
        },
        nand: PLANAR_MLC_15NM,
        capacities_gb: Cow::Borrowed(&[240, 480, 960]),
        fitted: &[],
        // [REF2]: spec-sheet peaks.
        spec_peaks: Some(SpecPeaks {
            seq_read_mb_s: 2_600.0,
            seq_write_mb_s: 1_300.0,
            rand_read_iops: 300_000.0,
            rand_write_iops: 200_000.0,
        }),
    },
    Preset {
        id: Cow::Borrowed("octane"),
        name: Cow::Borrowed("Indilinx Everest (OCZ Octane, SATA)"),
        summary: Cow::Borrowed("8 channels, SATA 6 Gb/s; 128 GB has a quarter of the 512 GB model's dies [REF4]"),
        controller: ControllerSpec {
            name: "Indilinx Everest",
            channels: 8,
            chip_enables: 64,
            link: HostLink::Sata3,
            // assumption: about 92% of SATA's 600 MB/s (550 MB/s usable, [REF5]).
            link_efficiency: 0.92,
            // AHCI native command queueing holds 32 commands.
            device_queue_limit: 32,
            // assumption: a 2011 SATA controller handles about 160k commands per second.
            cmd_cost: Nanos(6_000),
            // fitted to a fact of [REF4]: with the command cost, caps 4 KiB writes near twice the
            // 128 GB model's die-bound rate, so a quarter of the dies halves random writes
            // (tested by the Octane halving test).
            write_cmd_cost: Nanos(6_500),
            gc_unit_cost: Nanos(8_000),
            // assumption: AHCI driver and interrupt path.
            host_stack: Nanos(15_000),
            host_path: PHISON_E18DC.host_path,
            mapping: Mapping::Dram,
            write_buffer_bytes: 8 * MIB,
            multiplane_read_min_queue: 4,
            read_burst_limit: 8,
            // assumption: a 2011 MLC controller does not suspend programs.
            max_suspends: 0,
            // assumption: no read-ahead; [REF4] measures sequential reads only where the SATA
            // link is the limit.
            read_ahead: false,
            // assumption: laid out as written, as the Phison presets; [REF4] reads sequentially
            // only where the SATA link, not the layout, is the limit.
            sequential_layout: SequentialLayout::UnitPerDie,
            // [REF4]: 128 GB sold from sixteen 8 GiB dies.
            user_fraction: 128e9 / (128.0 * 1073741824.0),
            // fitted to a fact of [REF4]: the torture test ends below a tenth of fresh speed
            // (tested by the Octane torture test); with all of its spare area it would end at
            // 15%, so the Everest keeps about half of it for its own use.
            spare_efficiency: 0.5,
            // [REF4]: a 2011 MLC drive without an SLC cache.
            slc_cache: SlcCache::NONE,
            // assumption: a 2011 SATA controller idles at about 0.6 W, its core adds 0.5 W at
            // full load, a SATA PHY direction 0.1 W; no power-state table is published.
            power: ControllerPower {
                idle_w: 0.6,
                busy_w: 0.5,
                link_w: 0.1,
                states: &[],
            },
        },
        nand: IMFT_MLC_25NM,
        capacities_gb: Cow::Borrowed(&[128, 256, 512]),
        fitted: &[],
        spec_peaks: None,
    },
];

/// A preset as callers hold it: a built-in one from the table, or one made at run time and
/// shared. Cloning is cheap (a pointer, or a reference count); two handles are equal, and hash
/// alike, when their ids are, since an id names one preset, so a handle serves as a key.
///
/// ```
/// use parallelism_model::presets::{self, PresetRef};
///
/// let e12 = PresetRef::from(presets::find("e12").unwrap());
/// assert_eq!(e12.id, "e12");
/// assert_eq!(e12, PresetRef::from(presets::find("E12").unwrap()));
/// assert!(e12.built_in().is_some());
/// ```
#[derive(Clone, Debug)]
pub struct PresetRef(Held);

#[derive(Clone, Debug)]
enum Held {
    BuiltIn(&'static Preset),
    Made(Arc<Preset>),
}

impl PresetRef {
    /// A handle to a preset made at run time.
    pub fn made(preset: Preset) -> PresetRef {
        PresetRef(Held::Made(Arc::new(preset)))
    }

    /// The table's preset, when this is a built-in one.
    pub fn built_in(&self) -> Option<&'static Preset> {
        match self.0 {
            Held::BuiltIn(p) => Some(p),
            Held::Made(_) => None,
        }
    }
}

impl From<&'static Preset> for PresetRef {
    fn from(preset: &'static Preset) -> PresetRef {
        PresetRef(Held::BuiltIn(preset))
    }
}

impl std::ops::Deref for PresetRef {
    type Target = Preset;

    fn deref(&self) -> &Preset {
        match &self.0 {
            Held::BuiltIn(p) => p,
            Held::Made(p) => p,
        }
    }
}

impl PartialEq for PresetRef {
    fn eq(&self, other: &PresetRef) -> bool {
        self.id == other.id
    }
}

impl Eq for PresetRef {}

impl std::hash::Hash for PresetRef {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

/// All presets.
pub fn all() -> &'static [Preset] {
    &PRESETS
}

/// The preset with this id (case-insensitive).
pub fn find(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id.eq_ignore_ascii_case(id))
}

/// The preset with this id, or an error listing the valid ones.
pub fn lookup(id: &str) -> Result<&'static Preset, ConfigError> {
    find(id).ok_or_else(|| ConfigError::Unknown {
        what: "preset".into(),
        value: id.to_string(),
        expected: PRESETS
            .iter()
            .map(|p| &*p.id)
            .collect::<Vec<_>>()
            .join(", "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::MAX_DIES;

    #[test]
    fn e18dc_capacities_are_8_16_and_32_dies_of_512_gbit() {
        // [REF6]: 8 / 16 / 32 dies at 480 / 960 / 1,920 GB.
        let p = find("e18dc").unwrap();
        assert_eq!(p.dies_for_capacity_gb(480.0), Ok(8));
        assert_eq!(p.dies_for_capacity_gb(960.0), Ok(16));
        assert_eq!(p.dies_for_capacity_gb(1920.0), Ok(32));
        assert!((p.drive_with_dies(8).unwrap().user_gb() - 480.0).abs() < 0.5);
    }

    #[test]
    fn the_default_capacity_is_the_last_listed_or_one_dies() {
        let e12 = find("e12").unwrap();
        assert_eq!(e12.default_capacity_gb(), 960);
        let unlisted = Preset {
            capacities_gb: Cow::Borrowed(&[]),
            ..e12.clone()
        };
        assert_eq!(
            f64::from(unlisted.default_capacity_gb()),
            e12.gb_per_die().round()
        );
        assert_eq!(unlisted.default_drive().dies, 1);
    }

    #[test]
    fn a_die_count_outside_the_model_is_refused_not_moved_into_range() {
        let p = find("e18dc").unwrap();
        for dies in [0, MAX_DIES + 1, u32::MAX] {
            let e = p.drive_with_dies(dies).unwrap_err();
            assert!(e.to_string().contains("dies"), "{dies}: {e}");
        }
        assert_eq!(p.drive_with_dies(MAX_DIES).unwrap().dies, MAX_DIES);
    }

    #[test]
    fn the_e12_review_drive_has_32_dies_and_the_octane_16_or_64() {
        assert_eq!(find("e12").unwrap().dies_for_capacity_gb(960.0), Ok(32));
        let octane = find("octane").unwrap();
        assert_eq!(octane.dies_for_capacity_gb(128.0), Ok(16));
        assert_eq!(octane.dies_for_capacity_gb(512.0), Ok(64));
    }

    #[test]
    fn every_preset_builds_a_valid_drive_at_every_listed_capacity() {
        use crate::config::{DriveState, RunOptions, RunSpec, Rw, Workload};
        for p in all() {
            for &gb in p.capacities_gb.iter() {
                let drive = p.drive_for_capacity_gb(f64::from(gb)).unwrap();
                let spec = RunSpec {
                    drive,
                    workload: Workload {
                        rw: Rw::RandRead,
                        rwmixread: 100,
                        bs_bytes: 4096,
                        iodepth: 1,
                    },
                    state: DriveState::Fob,
                    options: RunOptions::default(),
                };
                assert!(spec.check().is_ok(), "{} at {gb} GB", p.id);
            }
        }
    }

    #[test]
    fn unknown_presets_and_impossible_capacities_are_refused_with_the_valid_choices() {
        let err = lookup("e99").unwrap_err().to_string();
        assert!(err.contains("e18dc") && err.contains("octane"), "{err}");
        let p = find("e18dc").unwrap();
        assert!(p.dies_for_capacity_gb(-1.0).is_err());
        assert!(p.dies_for_capacity_gb(f64::NAN).is_err());
        assert!(p.dies_for_capacity_gb(1e9).is_err());
    }
}
