//! [`WorkloadSetup`]: the workload part of the lab's state: how requests arrive (a queue depth
//! kept full, or a rate), access pattern, read share, block size, and the state the drive is
//! in when the run starts.
//!
//! What always holds (private fields; every setter snaps instead of failing): `iodepth` is on
//! [`iodepth_ladder`](super::ladders::iodepth_ladder), the rate on [`rate_ladder`], the block size on [`BLOCK_SIZES`](super::ladders::BLOCK_SIZES), the read
//! share a multiple of [`READ_SHARE_STEP`](super::ladders::READ_SHARE_STEP) in `0..=100`, so the workload always passes the
//! model's checks. With a rate the queue depth stays meaningful: it is the most requests the
//! host lets reach the drive at once (fio's `iodepth` beside `rate_iops`).

use crate::model::config::{DriveState, Rw, Workload};
use crate::model::workload::desktop::Desktop;
use crate::model::workload::Spacing;

use super::jobs::{JobSetup, Jobs};
use super::ladders::{
    rate_ladder, DEFAULT_BS_BYTES, DEFAULT_IODEPTH, DEFAULT_RATE_IOPS, DEFAULT_READ_PCT,
};

/// Drive state a fresh page shows: the state the published random cells were measured in.
pub const DEFAULT_DRIVE_STATE: DriveState = DriveState::Steady;
/// From this block size on the charts speak MB/s rather than IOPS, as reviews do.
pub const THROUGHPUT_IN_MB_FROM_BYTES: u32 = 64 << 10;
/// Arrivals a fresh rate view shows: a Poisson process, the queueing textbook's arrivals of
/// many independent users (fio's default is `linear`; both are offered).
pub const DEFAULT_SPACING: Spacing = Spacing::Poisson;
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
            job: JobSetup::new(
                Rw::RandRead,
                DEFAULT_READ_PCT,
                DEFAULT_BS_BYTES,
                DEFAULT_IODEPTH,
            ),
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
    pub fn iodepth(&self) -> u32 {
        self.job.iodepth()
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
            iodepth: self.iodepth(),
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
    pub fn set_iodepth(&mut self, iodepth: u32) {
        self.job.set_iodepth(iodepth);
    }

    /// Random (true) or sequential (false) addresses.
    pub fn set_random(&mut self, random: bool) {
        self.job.set_random(random);
    }

    /// Sets the read share, clamped to 0..=100 and snapped to [`READ_SHARE_STEP`](super::ladders::READ_SHARE_STEP).
    pub fn set_read_pct(&mut self, pct: u32) {
        self.job.set_read_pct(pct);
    }

    /// Sets the block size, snapped to [`BLOCK_SIZES`](super::ladders::BLOCK_SIZES).
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
    use crate::ui::pure::state::ladders::RATE_RANGE_IOPS;

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
