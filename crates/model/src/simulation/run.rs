//! A run made checked: a drive, its state and the streams of requests put on it, validated once
//! so the engine never tests an input again.
//!
//! What always holds: a [`CheckedRun`] is made only by [`RunSpec::check`] (one closed-loop job)
//! or [`StreamsSpec::check`](crate::workload::StreamsSpec::check), after the drive, the options
//! and every stream passed their checks; its power budget is one the drive can keep (PS0 unless
//! a caller sets a limit).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::config::{
    check_range, out_of_range, ConfigError, DriveSpec, DriveState, PowerLimit, RunOptions, RunSpec,
};
use crate::power;
use crate::stats::Unsound;
use crate::time::SimTime;
use crate::workload::{Stream, StreamsSpec, MAX_STREAMS};

impl RunSpec {
    /// Validate every field; the result is the only thing the engine accepts.
    pub fn check(self) -> Result<CheckedRun, ConfigError> {
        self.workload.check()?;
        let stream = Stream::closed(&self.workload);
        CheckedRun::of_streams(self.drive, vec![stream], self.state, self.options)
    }
}

impl StreamsSpec {
    /// Validate the drive, the options and every stream; the result is what the engine runs.
    pub fn check(self) -> Result<CheckedRun, ConfigError> {
        CheckedRun::of_streams(self.drive, self.streams, self.state, self.options)
    }
}

/// A run the engine can execute without further checks: a drive, its state, and the streams of
/// requests put on it. Only [`RunSpec::check`] (one closed-loop job) and
/// [`StreamsSpec::check`](crate::workload::StreamsSpec::check) make one.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedRun {
    drive: DriveSpec,
    state: DriveState,
    options: RunOptions,
    streams: Vec<Stream>,
    write_amplification: Option<f64>,
    slc_room: Option<SlcRoom>,
    slc_read_share: f64,
    power: PowerBudget,
}

/// The power budget a run keeps to: its watts (none: unlimited) and how many dies may run an
/// array operation at once within it (see [`crate::power`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PowerBudget {
    pub budget_w: Option<f64>,
    pub die_slots: u32,
}

/// How much the SLC cache takes of a run's writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SlcRoom {
    /// The first this many bytes land in SLC-mode cells, the rest in native cells.
    Bytes(u64),
    /// Every write lands in the cache (the cache's own speed, however long the run).
    Unlimited,
}

impl CheckedRun {
    /// Check the drive, the options, then every stream (in that order, so a bad drive is
    /// named before the ranges it would make wrong), and make the run.
    pub(crate) fn of_streams(
        drive: DriveSpec,
        streams: Vec<Stream>,
        state: DriveState,
        options: RunOptions,
    ) -> Result<CheckedRun, ConfigError> {
        check_range("measured I/Os", options.measured_ios, 100, 10_000_000)?;
        if streams.is_empty() || streams.len() > MAX_STREAMS {
            return Err(out_of_range(
                "streams",
                streams.len(),
                &format!("1..={MAX_STREAMS}"),
            ));
        }
        drive.check()?;
        for s in &streams {
            s.check(&drive)?;
        }
        if streams.len() > 1 && streams.iter().any(|s| s.pattern().is_none()) {
            return Err(out_of_range(
                "streams",
                streams.len(),
                "1 when one of them replays a trace",
            ));
        }
        // An active power state's maximum is a budget: the drive runs in PS0 unless told
        // otherwise, so a table's PS0 applies by default.
        let power = match drive.controller.power.states.first() {
            Some(ps0) => PowerBudget {
                budget_w: Some(ps0.max_w),
                die_slots: power::die_slots(&drive, ps0.max_w)?,
            },
            None => PowerBudget {
                budget_w: None,
                die_slots: u32::MAX,
            },
        };
        Ok(CheckedRun {
            drive,
            state,
            options,
            streams,
            write_amplification: None,
            slc_room: None,
            slc_read_share: 0.0,
            power,
        })
    }

    pub fn drive(&self) -> &DriveSpec {
        &self.drive
    }
    pub fn state(&self) -> DriveState {
        self.state
    }
    pub fn options(&self) -> RunOptions {
        self.options
    }
    /// The streams of requests, at least one.
    pub fn streams(&self) -> &[Stream] {
        &self.streams
    }

    /// The same run with every write paying write amplification `wa` (at least 1) instead of
    /// what the drive state implies: how the drive-state-over-time model asks the engine for the
    /// rate at a given point of a garbage-collection history.
    pub fn with_write_amplification(mut self, wa: f64) -> Result<CheckedRun, ConfigError> {
        if !(wa.is_finite() && (1.0..=1000.0).contains(&wa)) {
            return Err(out_of_range("write amplification", wa, "1..=1000"));
        }
        self.write_amplification = Some(wa);
        Ok(self)
    }

    /// The same run kept within `limit` (an active power state of the drive's table, or watts)
    /// instead of its PS0; refused when the drive has no such state or the budget does not
    /// cover the controller and one working die.
    pub fn with_power_limit(mut self, limit: PowerLimit) -> Result<CheckedRun, ConfigError> {
        let budget_w = power::budget_w(&self.drive, limit)?;
        self.power = PowerBudget {
            budget_w: Some(budget_w),
            die_slots: power::die_slots(&self.drive, budget_w)?,
        };
        Ok(self)
    }

    /// The power budget the run keeps to.
    pub fn power_budget(&self) -> PowerBudget {
        self.power
    }

    /// The same run with this much room in the SLC cache instead of what the drive state
    /// implies: how the drive-state-over-time model asks for the cache's rate
    /// ([`SlcRoom::Unlimited`]) or the native cells' rate (`SlcRoom::Bytes(0)`).
    pub(crate) fn with_slc_room(mut self, room: SlcRoom) -> CheckedRun {
        self.slc_room = Some(room);
        self
    }

    /// The same run with `share` (0 to 1) of its reads finding their data in SLC-mode blocks
    /// (written recently, not yet folded): they sense at the SLC read time, and data read in
    /// order lies as the cache wrote it, one page per plane on each die in turn. None do
    /// unless a caller that knows the drive's history says so (the review's tests do).
    pub fn with_slc_read_share(mut self, share: f64) -> Result<CheckedRun, ConfigError> {
        if !(share.is_finite() && (0.0..=1.0).contains(&share)) {
            return Err(out_of_range(
                "share of reads from the SLC cache",
                share,
                "0..=1",
            ));
        }
        self.slc_read_share = share;
        Ok(self)
    }

    /// Share of the reads whose data sits in SLC-mode blocks.
    pub fn slc_read_share(&self) -> f64 {
        self.slc_read_share
    }

    /// Room in the SLC cache at the start of the run: a fresh drive's whole cache (an empty
    /// drive has its largest dynamic part), none once the drive has been written over (a
    /// preconditioning fills the cache and leaves no idle time to fold it).
    pub(crate) fn slc_room(&self) -> SlcRoom {
        self.slc_room.unwrap_or(match self.state {
            DriveState::Fob => SlcRoom::Bytes(self.drive.slc_cache_bytes(0.0) as u64),
            DriveState::SeqFilled | DriveState::Steady => SlcRoom::Bytes(0),
        })
    }

    /// The write amplification set by [`with_write_amplification`](Self::with_write_amplification).
    pub(crate) fn write_amplification_override(&self) -> Option<f64> {
        self.write_amplification
    }

    /// The spare ratio whose steady-state write amplification this run pays, or `None` when it
    /// pays none (no writes, a fresh drive, sequential writes to a sequentially filled drive)
    /// or was given one. A caller that computes it ahead (in slices, see
    /// [`SteadyWa`](crate::ftl::SteadyWa)) hands it back with
    /// [`with_write_amplification`](Self::with_write_amplification).
    ///
    /// With several streams, one random writer is enough for a sequentially filled drive to
    /// pay: its writes invalidate pages all over the blocks the others fill (an assumption; the
    /// model keeps one write amplification per run).
    pub(crate) fn steady_state_spare_ratio(&self) -> Option<f64> {
        let writers = || self.streams.iter().filter(|s| s.read_percent() < 100);
        let pays = match self.state {
            _ if self.write_amplification.is_some() || writers().next().is_none() => false,
            DriveState::Fob => false,
            DriveState::SeqFilled => writers().any(Stream::writes_at_random),
            DriveState::Steady => true,
        };
        pays.then(|| self.drive.effective_spare_ratio())
    }
}

/// The engine ran out of events before a run's I/Os were done. A checked run always has work
/// (a closed loop keeps its depth, an open loop its arrivals), so this is a fault of the model,
/// never of the inputs: it is reported as an error rather than passed off as a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stalled {
    /// When the last event ran.
    pub at: SimTime,
    /// I/Os completed by then, warm-up included, of the `expected`.
    pub completed: u64,
    pub expected: u64,
}

impl fmt::Display for Stalled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the model stalled at {} ns with {} of {} I/Os done (a fault of the model, not of \
             the inputs)",
            self.at.0, self.completed, self.expected
        )
    }
}

impl std::error::Error for Stalled {}

/// Why a run gave no result: its inputs were refused, the engine stalled, or its result failed
/// its check. Data, as its
/// parts are: it crosses from a worker to the page as itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RunError {
    Config(ConfigError),
    Stalled(Stalled),
    /// The run's result failed its check ([`crate::stats::check`]): a fault of the model,
    /// reported rather than shown.
    Unsound(Unsound),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Config(e) => e.fmt(f),
            RunError::Stalled(e) => e.fmt(f),
            RunError::Unsound(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RunError {}

impl From<ConfigError> for RunError {
    fn from(e: ConfigError) -> RunError {
        RunError::Config(e)
    }
}

impl From<Unsound> for RunError {
    fn from(e: Unsound) -> RunError {
        RunError::Unsound(e)
    }
}

impl From<Stalled> for RunError {
    fn from(e: Stalled) -> RunError {
        RunError::Stalled(e)
    }
}
