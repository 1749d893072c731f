//! [`WorkloadSetup`]: the workload part of the lab's state: queue depth, access pattern, read
//! share, block size, and the state the drive is in when the run starts.
//!
//! What always holds (private fields; every setter snaps instead of failing): `qd` is on
//! [`qd_ladder`], the block size on [`BLOCK_SIZES`], the read share a multiple of
//! [`READ_SHARE_STEP`] in `0..=100`, so the workload always passes the model's checks.

use crate::model::config::{DriveState, Rw, Workload, MAX_IODEPTH};

use crate::ui::ladder::Ladder;

/// Queue depth a fresh page shows: the depth where the published 480 and 1,920 GB random reads
/// already differ by a factor of two.
pub const DEFAULT_QD: u32 = 32;
/// Block size a fresh page shows: the 4 KiB of the published random cells.
pub const DEFAULT_BS_BYTES: u32 = 4096;
/// Read share (percent) a fresh page shows: pure reads.
pub const DEFAULT_READ_PCT: u8 = 100;
/// Drive state a fresh page shows: the state the published random cells were measured in.
pub const DEFAULT_DRIVE_STATE: DriveState = DriveState::Steady;
/// The read-share slider's step, as the reviewers' mixed sweep (0, 10, ..., 100 %).
pub const READ_SHARE_STEP: u8 = 10;
/// Percent of reads in a whole-number share.
pub const ALL_READS_PCT: u8 = 100;
/// Block sizes on the slider: powers of two from 4 KiB to 1 MiB.
pub const BLOCK_SIZES: [u32; 9] = [
    4 << 10,
    8 << 10,
    16 << 10,
    32 << 10,
    64 << 10,
    128 << 10,
    256 << 10,
    512 << 10,
    1 << 20,
];
/// From this block size on the charts speak MB/s rather than IOPS, as reviews do.
pub const THROUGHPUT_IN_MB_FROM_BYTES: u32 = 64 << 10;
/// Queue depths up to this one are all on the slider; above it, four steps per doubling.
const QD_ALL_STEPS_UP_TO: u32 = 8;
/// Fine queue-depth steps per doubling above [`QD_ALL_STEPS_UP_TO`] (x1.25, x1.5, x1.75, x2).
const QD_STEPS_PER_OCTAVE: u32 = 4;

/// The queue depths on the slider: every depth up to 8, then four steps per doubling up to
/// the model's limit. Powers of two are the coarse stops.
pub fn qd_ladder() -> Ladder {
    let mut values: Vec<u32> = (1..=QD_ALL_STEPS_UP_TO).collect();
    let mut base = QD_ALL_STEPS_UP_TO;
    while base < MAX_IODEPTH {
        for k in 1..=QD_STEPS_PER_OCTAVE {
            values.push(base + base * k / QD_STEPS_PER_OCTAVE);
        }
        base *= 2;
    }
    values.retain(|&q| q <= MAX_IODEPTH);
    Ladder::with_coarse(values, DEFAULT_QD, u32::is_power_of_two)
}

/// The block sizes on the slider.
pub fn block_size_ladder() -> Ladder {
    Ladder::new(BLOCK_SIZES, DEFAULT_BS_BYTES)
}

/// The read shares on the slider (percent).
pub fn read_share_ladder() -> Ladder {
    Ladder::new(
        (0..=ALL_READS_PCT)
            .step_by(usize::from(READ_SHARE_STEP))
            .map(u32::from),
        u32::from(DEFAULT_READ_PCT),
    )
}

/// The workload part of the state. See the module documentation for what always holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WorkloadSetup {
    qd: u32,
    random: bool,
    read_pct: u8,
    bs_bytes: u32,
    drive_state: DriveState,
}

impl Default for WorkloadSetup {
    fn default() -> Self {
        WorkloadSetup {
            qd: DEFAULT_QD,
            random: true,
            read_pct: DEFAULT_READ_PCT,
            bs_bytes: DEFAULT_BS_BYTES,
            drive_state: DEFAULT_DRIVE_STATE,
        }
    }
}

impl WorkloadSetup {
    pub fn qd(&self) -> u32 {
        self.qd
    }
    /// Random (true) or sequential (false) addresses.
    pub fn random(&self) -> bool {
        self.random
    }
    /// Percentage of reads.
    pub fn read_pct(&self) -> u8 {
        self.read_pct
    }
    pub fn bs_bytes(&self) -> u32 {
        self.bs_bytes
    }
    pub fn drive_state(&self) -> DriveState {
        self.drive_state
    }

    /// fio's name for the current pattern and read share.
    pub fn rw(&self) -> Rw {
        Rw::from_parts(self.random, self.read_pct)
    }

    /// The model's workload (the host side of the current point).
    pub fn spec(&self) -> Workload {
        Workload {
            rw: self.rw(),
            rwmixread: self.read_pct,
            bs_bytes: self.bs_bytes,
            iodepth: self.qd,
        }
    }

    /// Whether charts should speak MB/s rather than IOPS.
    pub fn throughput_in_mb(&self) -> bool {
        self.bs_bytes >= THROUGHPUT_IN_MB_FROM_BYTES
    }

    /// Sets the queue depth, snapped to the slider's steps.
    pub fn set_qd(&mut self, qd: u32) {
        self.qd = qd_ladder().nearest(qd);
    }

    /// Random (true) or sequential (false) addresses.
    pub fn set_random(&mut self, random: bool) {
        self.random = random;
    }

    /// Sets the read share, clamped to 0..=100 and snapped to [`READ_SHARE_STEP`].
    pub fn set_read_pct(&mut self, pct: u32) {
        self.read_pct = u8::try_from(read_share_ladder().nearest(pct)).unwrap_or(ALL_READS_PCT);
    }

    /// Sets the block size, snapped to [`BLOCK_SIZES`].
    pub fn set_bs_bytes(&mut self, bytes: u32) {
        self.bs_bytes = block_size_ladder().nearest(bytes);
    }

    pub fn set_drive_state(&mut self, state: DriveState) {
        self.drive_state = state;
    }
}
