//! What the drive is doing at one instant: a read-only snapshot of a
//! [`Simulation`](crate::Simulation) for the teaching view
//! ([`Simulation::activity`](crate::Simulation::activity)), which steps the engine one event at
//! a time and draws every die, channel and the host link as it goes.
//!
//! This module owns the snapshot's types ([`Activity`], [`DieActivity`], [`DieState`]) and the
//! one piece of state the engine records for it, [`DieOp`] (the die operation in progress).
//! Everything else is read from the engine's own bookkeeping when a snapshot is taken, so the
//! engine's hot path pays nothing for it but one byte written per die operation.
//!
//! What always holds:
//! - a snapshot describes the instant [`Simulation::now`](crate::Simulation::now) after the last
//!   processed event;
//! - a die is [`DieState::Idle`] exactly when it neither holds the array (sensing, programming,
//!   erasing, collecting) nor streams sensed data out over its channel;
//! - a shared server (channel, link direction, controller) is busy at `now` exactly when its
//!   reservations reach past `now`: reservations are made at the current time in time order, so
//!   a server's busy stretch after `now` has no gaps.

use serde::{Deserialize, Serialize};

use crate::time::SimTime;

/// The die operation in progress, recorded by the engine when it starts one (the only thing
/// the snapshot cannot read back from the engine's queues).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DieOp {
    /// Nothing started yet.
    #[default]
    None,
    /// A read: sensing into the data register, then streaming out.
    Read,
    /// A garbage-collection copy (read valid pages, move them over the channel, program).
    Copy,
    /// A block erase owed by garbage collection.
    Erase,
    /// A host program unit.
    Program,
}

/// What one die is doing, as the teaching view colours it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DieState {
    Idle,
    /// Reading cells into the data register (tR).
    Sensing,
    /// Sensed data streams out over the channel (the array itself may be idle).
    Transferring,
    /// Writing host data into the cells (tPROG).
    Programming,
    /// Erasing a block (tBERS) for garbage collection.
    Erasing,
    /// A garbage-collection copy of still-valid pages.
    Collecting,
}

impl DieState {
    pub const ALL: [DieState; 6] = [
        DieState::Idle,
        DieState::Sensing,
        DieState::Transferring,
        DieState::Programming,
        DieState::Erasing,
        DieState::Collecting,
    ];

    /// Short stable name (CSS classes, test hooks).
    pub fn id(self) -> &'static str {
        match self {
            DieState::Idle => "idle",
            DieState::Sensing => "sensing",
            DieState::Transferring => "transferring",
            DieState::Programming => "programming",
            DieState::Erasing => "erasing",
            DieState::Collecting => "gc",
        }
    }

    /// One letter that tells the states apart without colour.
    pub fn letter(self) -> &'static str {
        match self {
            DieState::Idle => "",
            DieState::Sensing => "R",
            DieState::Transferring => "T",
            DieState::Programming => "P",
            DieState::Erasing => "E",
            DieState::Collecting => "G",
        }
    }

    /// Plain-language name for legends and summaries.
    pub fn label(self) -> &'static str {
        match self {
            DieState::Idle => "idle",
            DieState::Sensing => "sensing (read)",
            DieState::Transferring => "transferring",
            DieState::Programming => "programming",
            DieState::Erasing => "erasing",
            DieState::Collecting => "garbage collection",
        }
    }

    /// Whether the die is working (anything but idle).
    pub(crate) fn is_busy(self) -> bool {
        self != DieState::Idle
    }
}

/// One die at the snapshot's instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieActivity {
    pub state: DieState,
    /// The channel the die sits on.
    pub channel: u32,
    /// Reads and program units waiting for this die (not counting the one in progress).
    pub queued: u32,
    /// Bit `p` is set when plane `p` takes part in the read being sensed.
    pub planes_sensing: u8,
}

/// The whole drive at one instant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Activity {
    pub now: SimTime,
    /// Events processed since the run started.
    pub events: u64,
    /// Requests completed since the run started.
    pub completed: u64,
    /// Requests in flight (the queue depth of the closed loop).
    pub iodepth: u32,
    /// Requests inside the device (the rest are in the host stack or wait for a device slot).
    pub in_device: u32,
    /// Requests held back by the host because the device queue is full.
    pub host_waiting: u32,
    /// Requests arrive on their own clock (an open loop): `iodepth` is then the most at the
    /// device, not the number in flight.
    pub open_loop: bool,
    /// Open loop: requests that arrived and wait in the host because their stream has its
    /// depth at the device; this queue grows without bound past the drive's capacity.
    pub host_backlog: u32,
    /// Write requests waiting for room in the write buffer.
    pub buffer_waiting: u32,
    /// Whether the controller processes a command or background work now.
    pub controller_busy: bool,
    pub link_read_busy: bool,
    pub link_write_busy: bool,
    pub half_duplex: bool,
    pub channels_busy: Vec<bool>,
    pub dies: Vec<DieActivity>,
}

impl Activity {
    /// Dies doing anything.
    pub fn busy_dies(&self) -> usize {
        self.dies.iter().filter(|d| d.state.is_busy()).count()
    }

    /// Dies in `state`.
    pub fn dies_in(&self, state: DieState) -> usize {
        self.dies.iter().filter(|d| d.state == state).count()
    }

    /// Requests waiting on dies, summed.
    pub fn queued_on_dies(&self) -> u64 {
        self.dies.iter().map(|d| u64::from(d.queued)).sum()
    }
}

/// What the snapshot needs to know of one engine die.
pub(crate) struct DieView {
    pub busy: bool,
    pub op: DieOp,
    pub sensing_planes: u8,
    pub register_free: SimTime,
    pub channel: u32,
    pub queued: u32,
}

/// A die's state from what the engine keeps.
pub(crate) fn die_state(d: &DieView, now: SimTime) -> DieState {
    let streaming = d.register_free > now;
    match (d.busy, d.op) {
        (true, DieOp::Read) if d.sensing_planes != 0 => DieState::Sensing,
        // Without cache read the die stays busy until its last page has left.
        (true, DieOp::Read) => DieState::Transferring,
        (true, DieOp::Copy) => DieState::Collecting,
        (true, DieOp::Erase) => DieState::Erasing,
        (true, DieOp::Program) => DieState::Programming,
        (true, DieOp::None) | (false, _) if streaming => DieState::Transferring,
        _ => DieState::Idle,
    }
}
