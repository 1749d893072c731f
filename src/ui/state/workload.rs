//! [`WorkloadSetup`]: the workload part of the lab's state: how requests arrive (a queue depth
//! kept full, or a rate), access pattern, read share, block size, and the state the drive is
//! in when the run starts.
//!
//! What always holds (private fields; every setter snaps instead of failing): `qd` is on
//! [`qd_ladder`], the rate on [`rate_ladder`], the block size on [`BLOCK_SIZES`], the read
//! share a multiple of [`READ_SHARE_STEP`] in `0..=100`, so the workload always passes the
//! model's checks. With a rate the queue depth stays meaningful: it is the most requests the
//! host lets reach the drive at once (fio's `iodepth` beside `rate_iops`).

use crate::model::config::{DriveState, Rw, Workload, MAX_IODEPTH};
use crate::model::workload::desktop::Desktop;
use crate::model::workload::Spacing;

use super::jobs::{JobSetup, Jobs};

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
/// Offered rate a fresh rate view shows, in I/Os per second: well below the default drive's
/// capacity, so the reader starts left of the knee and moves towards it.
pub const DEFAULT_RATE_IOPS: u32 = 200_000;
/// Arrivals a fresh rate view shows: a Poisson process, the queueing textbook's arrivals of
/// many independent users (fio's default is `linear`; both are offered).
pub const DEFAULT_SPACING: Spacing = Spacing::Poisson;
/// The rate slider's range in I/Os per second: from a trickle to past any drive here.
pub const RATE_RANGE_IOPS: (u32, u32) = (10, 5_000_000);
/// The steps of each decade on the rate slider, in thousandths (the R10 preferred numbers of
/// ISO 3: ten steps of about 26 % a decade).
const RATE_STEPS_PER_MILLE: [u32; 10] =
    [1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000, 6300, 8000];
/// The coarse stops (plain arrow keys) of the rate slider, in thousandths: 1, 2, 5 a decade.
const RATE_COARSE_PER_MILLE: [u32; 3] = [1000, 2000, 5000];

/// The trace a fresh trace view replays: the reviews' Light desktop workload, the one whose
/// verdict on the 128 GB Octane the lab reproduces.
pub const DEFAULT_TRACE: TraceSource = TraceSource::DesktopLight;

/// What the trace view replays: a desktop workload of the reviews, or a trace file of the
/// reader's (the file itself is the reader's data, never in the state or the link: a link
/// says only that its view needs one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceSource {
    DesktopLight,
    DesktopHeavy,
    File,
}

crate::model::named_enum!(TraceSource, "trace", id, {
    DesktopLight => "desktop-light",
    DesktopHeavy => "desktop-heavy",
    File => "file",
});

impl TraceSource {
    /// The generated desktop workload, if this is one.
    pub fn desktop(self) -> Option<Desktop> {
        match self {
            TraceSource::DesktopLight => Some(Desktop::Light),
            TraceSource::DesktopHeavy => Some(Desktop::Heavy),
            TraceSource::File => None,
        }
    }

    /// The source of a desktop workload.
    pub fn of_desktop(d: Desktop) -> TraceSource {
        match d {
            Desktop::Light => TraceSource::DesktopLight,
            Desktop::Heavy => TraceSource::DesktopHeavy,
        }
    }
}

/// How requests arrive: the reader's workload choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LoadKind {
    /// One job keeping a queue depth full (closed loop): the charts against queue depth.
    #[default]
    Depth,
    /// Requests at a rate whatever the drive does (open loop): latency against offered load.
    Rate,
    /// Up to four jobs on the drive at once, each with its own pattern and depth or rate.
    Jobs,
    /// A trace replayed at its own times: the reviews' desktop workloads.
    Trace,
}

crate::model::named_enum!(LoadKind, "workload", id, {
    Depth => "depth",
    Rate => "rate",
    Jobs => "jobs",
    Trace => "trace",
});

impl LoadKind {
    /// What the workload choice says.
    pub fn label(self) -> &'static str {
        match self {
            LoadKind::Depth => "one job at a queue depth",
            LoadKind::Rate => "a rate",
            LoadKind::Jobs => "several jobs",
            LoadKind::Trace => "a trace",
        }
    }
}

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

/// The rates on the slider (I/Os per second): the R10 preferred numbers (1, 1.25, 1.6, 2, 2.5,
/// 3.15, 4, 5, 6.3, 8) in every decade of [`RATE_RANGE_IOPS`], coarse at 1, 2 and 5.
pub fn rate_ladder() -> Ladder {
    let (low, high) = RATE_RANGE_IOPS;
    let mut values = Vec::new();
    let mut decade = low;
    while decade <= high {
        values.extend(RATE_STEPS_PER_MILLE.iter().map(|&m| decade / 10 * m / 100));
        decade *= 10;
    }
    values.retain(|v| (low..=high).contains(v));
    Ladder::with_coarse(values, DEFAULT_RATE_IOPS, |v| {
        RATE_COARSE_PER_MILLE.contains(&leading_per_mille(v))
    })
}

/// The R5 preferred numbers (1, 1.6, 2.5, 4, 6.3 a decade) in thousandths: every other step of
/// the rate slider, the offered loads a sweep runs.
const RATE_SWEEP_PER_MILLE: [u32; 5] = [1000, 1600, 2500, 4000, 6300];

/// Whether `iops` is one of the rates a sweep over offered load runs.
pub fn is_sweep_rate(iops: u32) -> bool {
    RATE_SWEEP_PER_MILLE.contains(&leading_per_mille(iops))
}

/// The first four digits of `v` as thousandths of its decade (250,000 -> 2500; 12 -> 1200).
fn leading_per_mille(v: u32) -> u32 {
    let mut lead = u64::from(v.max(1));
    while lead >= 10_000 {
        lead /= 10;
    }
    while lead < 1_000 {
        lead *= 10;
    }
    u32::try_from(lead).unwrap_or(0)
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
    load: LoadKind,
    jobs: Jobs,
    trace: TraceSource,
    rate_iops: u32,
    spacing: Spacing,
    /// The one job of the depth and rate views (its own rate unused: the view's rate is the
    /// rate).
    job: JobSetup,
    drive_state: DriveState,
}

impl Default for WorkloadSetup {
    fn default() -> Self {
        WorkloadSetup {
            load: LoadKind::Depth,
            jobs: Jobs::default(),
            trace: DEFAULT_TRACE,
            rate_iops: DEFAULT_RATE_IOPS,
            spacing: DEFAULT_SPACING,
            job: JobSetup::new(Rw::RandRead, DEFAULT_READ_PCT, DEFAULT_BS_BYTES, DEFAULT_QD),
            drive_state: DEFAULT_DRIVE_STATE,
        }
    }
}

impl WorkloadSetup {
    /// How requests arrive.
    pub fn load(&self) -> LoadKind {
        self.load
    }
    /// The trace of the trace view.
    pub fn trace(&self) -> TraceSource {
        self.trace
    }
    pub fn set_trace(&mut self, trace: TraceSource) {
        self.trace = trace;
    }
    /// The jobs of the several-jobs view.
    pub fn jobs(&self) -> &Jobs {
        &self.jobs
    }
    pub fn jobs_mut(&mut self) -> &mut Jobs {
        &mut self.jobs
    }
    /// The offered rate (I/Os per second) of the rate view.
    pub fn rate_iops(&self) -> u32 {
        self.rate_iops
    }
    /// How the rate view's arrivals are spaced.
    pub fn spacing(&self) -> Spacing {
        self.spacing
    }
    /// The queue depth kept full or, with a rate, the most requests at the drive at once.
    pub fn qd(&self) -> u32 {
        self.job.qd()
    }
    /// Random (true) or sequential (false) addresses.
    pub fn random(&self) -> bool {
        self.job.random()
    }
    /// Percentage of reads.
    pub fn read_pct(&self) -> u8 {
        self.job.read_pct()
    }
    pub fn bs_bytes(&self) -> u32 {
        self.job.bs_bytes()
    }
    pub fn drive_state(&self) -> DriveState {
        self.drive_state
    }

    /// fio's name for the current pattern and read share.
    pub fn rw(&self) -> Rw {
        self.job.rw()
    }

    /// The model's workload (the host side of the current point).
    pub fn spec(&self) -> Workload {
        Workload {
            rw: self.rw(),
            rwmixread: self.read_pct(),
            bs_bytes: self.bs_bytes(),
            iodepth: self.qd(),
        }
    }

    /// Whether charts should speak MB/s rather than IOPS.
    pub fn throughput_in_mb(&self) -> bool {
        self.bs_bytes() >= THROUGHPUT_IN_MB_FROM_BYTES
    }

    pub fn set_load(&mut self, load: LoadKind) {
        self.load = load;
    }

    /// Sets the offered rate, snapped to [`rate_ladder`].
    pub fn set_rate_iops(&mut self, iops: u32) {
        self.rate_iops = rate_ladder().nearest(iops);
    }

    pub fn set_spacing(&mut self, spacing: Spacing) {
        self.spacing = spacing;
    }

    /// Sets the queue depth, snapped to the slider's steps.
    pub fn set_qd(&mut self, qd: u32) {
        self.job.set_qd(qd);
    }

    /// Random (true) or sequential (false) addresses.
    pub fn set_random(&mut self, random: bool) {
        self.job.set_random(random);
    }

    /// Sets the read share, clamped to 0..=100 and snapped to [`READ_SHARE_STEP`].
    pub fn set_read_pct(&mut self, pct: u32) {
        self.job.set_read_pct(pct);
    }

    /// Sets the block size, snapped to [`BLOCK_SIZES`].
    pub fn set_bs_bytes(&mut self, bytes: u32) {
        self.job.set_bs_bytes(bytes);
    }

    pub fn set_drive_state(&mut self, state: DriveState) {
        self.drive_state = state;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_slider_takes_ten_preferred_steps_a_decade_with_1_2_5_as_coarse_stops() {
        let l = rate_ladder();
        assert_eq!(
            l.values()[..11],
            [10, 12, 16, 20, 25, 31, 40, 50, 63, 80, 100]
        );
        assert_eq!(*l.values().last().unwrap(), 5_000_000);
        assert!(l.contains(DEFAULT_RATE_IOPS));
        assert!(l.values().windows(2).all(|w| w[0] < w[1]));
        // From 200k, a plain arrow key goes to the next coarse stop, 500k; Shift to 250k.
        assert_eq!(l.step(200_000, true, false), 500_000);
        assert_eq!(l.step(200_000, true, true), 250_000);
        assert_eq!(l.step(200_000, false, false), 100_000);
    }

    #[test]
    fn a_rate_between_steps_snaps_to_the_nearest() {
        let mut w = WorkloadSetup::default();
        w.set_rate_iops(260_000);
        assert_eq!(w.rate_iops(), 250_000);
        w.set_rate_iops(0);
        assert_eq!(w.rate_iops(), RATE_RANGE_IOPS.0);
        w.set_rate_iops(u32::MAX);
        assert_eq!(w.rate_iops(), RATE_RANGE_IOPS.1);
    }

    #[test]
    fn the_workload_choice_reads_and_prints_its_url_names() {
        for kind in LoadKind::ALL {
            assert_eq!(kind.id().parse::<LoadKind>().unwrap(), kind);
        }
        assert!("replay".parse::<LoadKind>().is_err());
    }
}
