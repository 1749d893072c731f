//! The engine's parameters: what a run's configuration comes to once, before the first event
//! ([`Params`]), and how long the run warms up and measures ([`Params::run_length`]).
//!
//! What always holds: everything here is computed once per run from the [`CheckedRun`] and its
//! streams, and never changes while the engine runs (but for the two switches a caller may
//! throw before the first step: [`Simulation::watched`](super::Simulation::watched) and
//! [`Simulation::record_series`](super::Simulation::record_series)). The hot loop reads these
//! values and never derives them again: transfer times are tables by size, and divisions by
//! a run's page size, die count and plane count are [`Divisor`]s.

use super::host::StreamParams;
use crate::config::{DriveSpec, SequentialLayout, MAPPING_UNIT_BYTES, MAX_BLOCK_BYTES};
use crate::ftl::steady_write_amplification;
use crate::run::{CheckedRun, SlcRoom};
use crate::time::Nanos;
use crate::workload::Stream;

/// Warm-up I/Os at least, and per unit of queue depth.
const MIN_WARMUP_IOS: u64 = 2_000;
const WARMUP_IOS_PER_IODEPTH: u64 = 4;
/// Write-buffer fills a run with writes measures at least.
const MEASURED_BUFFER_TURNOVERS: u64 = 20;

/// Division by a constant of the run. Page sizes, and most die and plane counts, are powers of
/// two, and then a shift and a mask do the work of a division: a small read's dispatch divides
/// twice, and a division is the slowest instruction on its path.
#[derive(Clone, Copy, Debug)]
pub(super) struct Divisor {
    d: u64,
    /// `log2(d)` when `d` is a power of two.
    shift: Option<u32>,
}

impl Divisor {
    pub(super) fn new(d: u64) -> Divisor {
        Divisor {
            d,
            shift: d.is_power_of_two().then(|| d.trailing_zeros()),
        }
    }

    /// `(n / d, n % d)`.
    #[inline(always)]
    pub(super) fn div_rem(self, n: u64) -> (u64, u64) {
        match self.shift {
            Some(shift) => (n >> shift, n & (self.d - 1)),
            None => (n / self.d, n % self.d),
        }
    }
}

/// Constants derived once from the checked configuration.
#[derive(Clone, Debug)]
pub(super) struct Params {
    /// Keep where every request's time goes (the run's options say).
    pub(super) anatomy: bool,
    pub(super) dies: u32,
    pub(super) planes: u32,
    pub(super) page_bytes: u64,
    pub(super) page_div: Divisor,
    pub(super) die_div: Divisor,
    pub(super) plane_div: Divisor,
    /// The streams' depths added up (the streams themselves live in [`Simulation`](super::Simulation)).
    pub(super) depth: u32,
    /// Some stream arrives at a rate (open loop).
    pub(super) open: bool,
    /// Requests may wait in the host (an open-loop stream, or more in flight than the device
    /// takes): completions then free their places at their own time, as events.
    pub(super) host_may_hold: bool,
    /// The run has reads and writes, so each direction keeps its own latencies.
    pub(super) both_directions: bool,
    /// Several streams, so each keeps its own figures.
    pub(super) per_stream: bool,
    /// Some figures are kept apart (by direction or by stream): [`Simulation::record_split`](super::Simulation::record_split).
    pub(super) split_figures: bool,
    /// The run replays a trace: it measures every request, from the first.
    pub(super) trace_run: bool,
    /// Some stream's reads can miss the mapping cache (a DRAM-less drive).
    pub(super) map_misses: bool,
    /// The mean request size over the streams (for the warm-up's buffer turnovers).
    pub(super) mean_bytes: u64,
    pub(super) t_read: Nanos,
    pub(super) t_read_slc: Nanos,
    /// Reads in a million whose data sits in SLC-mode cells (0: none, and nothing is drawn).
    pub(super) slc_read_ppm: u64,
    /// Some stream reads in order on a controller that lays such data out a program unit per
    /// die in turn (an SLC-mode unit when it sits in the cache), not page by page.
    pub(super) sequential_reads: bool,
    /// Pages of one die's native and SLC-mode program units.
    pub(super) unit_pages: u64,
    pub(super) slc_unit_pages: u64,
    /// The controller reads ahead of sequential streams, up to `read_ahead_window` bytes
    /// (one page per die) past the newest read, within the drive's `user_bytes`.
    pub(super) read_ahead: bool,
    pub(super) read_ahead_window: u64,
    pub(super) user_bytes: u64,
    pub(super) t_prog: Nanos,
    pub(super) t_erase: Nanos,
    pub(super) cache_read: bool,
    /// Transfer times by size in 4 KiB units (every transfer is a whole number of them), so the
    /// hot path never divides floats.
    pub(super) bus_xfer: Vec<Nanos>,
    pub(super) link_xfer: Vec<Nanos>,
    /// Host-to-device transfers (host writes), which a PCIe drive fetches with DMA reads.
    pub(super) link_write_xfer: Vec<Nanos>,
    pub(super) half_duplex: bool,
    pub(super) queue_limit: u32,
    pub(super) cmd_cost: Nanos,
    pub(super) write_cmd_cost: Nanos,
    pub(super) host_stack: Nanos,
    pub(super) host_path: Nanos,
    pub(super) unit_bytes: u32,
    /// An SLC-mode program unit (one page per plane) and its program time.
    pub(super) slc_unit_bytes: u32,
    pub(super) t_prog_slc: Nanos,
    /// Bytes the SLC cache takes at the start of the run (`u64::MAX`: all of them).
    pub(super) slc_room: u64,
    pub(super) senses_per_unit: u64,
    pub(super) gc_copies_per_unit: f64,
    pub(super) erases_per_unit: f64,
    pub(super) gc_ctrl_per_copy: Nanos,
    pub(super) buffer_bytes: u64,
    pub(super) mp_min_queue: usize,
    pub(super) read_burst_limit: u32,
    /// Program and erase suspend: how many times one step may be suspended (0: never), the
    /// time it takes to stop, and the time a resumed step loses.
    pub(super) max_suspends: u32,
    pub(super) t_suspend: Nanos,
    pub(super) t_resume: Nanos,
    pub(super) write_amplification: f64,
    /// Reserve the controller at submission (see the module docs).
    pub(super) direct_arrival: bool,
    /// Dies that may run an array operation at once within the power budget (see
    /// [`crate::power`]); at least `dies` when the budget does not bind.
    pub(super) die_slots: u32,
    /// The budget in watts, if any.
    pub(super) budget_w: Option<f64>,
    /// The drive, for its power draw.
    pub(super) drive: DriveSpec,
}

/// The write amplification the run pays. Garbage collection: random overwrites of a full
/// drive pay the greedy steady-state WA; sequential writes to a sequentially filled drive
/// invalidate whole blocks and pay none.
fn write_amplification(run: &CheckedRun) -> f64 {
    run.write_amplification_override()
        .or_else(|| {
            run.steady_state_spare_ratio()
                .map(steady_write_amplification)
        })
        .unwrap_or(1.0)
}

/// Bytes the SLC cache takes at the start of the run (`u64::MAX`: all of them).
fn slc_room_bytes(run: &CheckedRun) -> u64 {
    match run.slc_room() {
        SlcRoom::Bytes(b) => b,
        SlcRoom::Unlimited => u64::MAX,
    }
}

/// Transfer time of `k` 4 KiB units at `bytes_per_s`, for k up to the largest transfer (a whole
/// request, or a program unit).
fn transfer_table(bytes_per_s: f64, largest_bytes: u32) -> Vec<Nanos> {
    let max_units = u64::from(largest_bytes.max(MAX_BLOCK_BYTES) / MAPPING_UNIT_BYTES);
    (0..=max_units)
        .map(|k| Nanos::for_bytes(k * u64::from(MAPPING_UNIT_BYTES), bytes_per_s))
        .collect()
}

impl Params {
    /// Whether a die with `waiting_reads` reads waiting senses several planes at once.
    #[inline(always)]
    pub(super) fn multi_plane(&self, waiting_reads: u32) -> bool {
        waiting_reads as usize >= self.mp_min_queue && self.planes > 1
    }

    pub(super) fn bus(&self, bytes: u32) -> Nanos {
        self.bus_xfer[(bytes / MAPPING_UNIT_BYTES) as usize]
    }

    pub(super) fn link(&self, bytes: u32) -> Nanos {
        self.link_xfer[(bytes / MAPPING_UNIT_BYTES) as usize]
    }

    pub(super) fn link_write(&self, bytes: u32) -> Nanos {
        self.link_write_xfer[(bytes / MAPPING_UNIT_BYTES) as usize]
    }

    pub(super) fn new(run: &CheckedRun, streams: &[StreamParams]) -> Params {
        let d = run.drive();
        let c = &d.controller;
        let n = &d.nand;
        let depth = streams.iter().map(|s| s.iodepth).sum::<u32>();
        let open = streams.iter().any(|s| s.rate.is_some());
        let reads = streams.iter().any(|s| s.read_percent > 0);
        let writes = streams.iter().any(|s| s.read_percent < 100);
        let mean_bytes =
            run.streams().iter().map(Stream::mean_bytes).sum::<f64>() / streams.len() as f64;
        // The single-job engine's fast path: one closed stream within the device's limit.
        let one_closed = streams.len() == 1 && !open && depth <= c.device_queue_limit;
        let one_direction = !(reads && writes);
        let wa = write_amplification(run);
        let unit_bytes = n.program_unit_bytes();
        let link_bytes_per_s = c.link.raw_bytes_per_s() * c.link_efficiency;
        let link_write_bytes_per_s = link_bytes_per_s * c.link.host_to_device_factor();
        let reads_in_order = streams.iter().any(|s| s.sequential() && s.read_percent > 0);
        let sequential_reads =
            reads_in_order && c.sequential_layout == SequentialLayout::UnitPerDie;
        Params {
            anatomy: run.options().anatomy,
            dies: d.dies,
            planes: n.planes,
            page_bytes: u64::from(n.page_bytes),
            page_div: Divisor::new(u64::from(n.page_bytes)),
            die_div: Divisor::new(u64::from(d.dies)),
            plane_div: Divisor::new(u64::from(n.planes)),
            depth,
            open,
            host_may_hold: open || depth > c.device_queue_limit,
            both_directions: reads && writes,
            per_stream: streams.len() > 1,
            map_misses: streams.iter().any(|s| s.map_miss_ppm > 0),
            trace_run: streams.iter().any(|s| s.trace_len().is_some()),
            split_figures: (reads && writes) || streams.len() > 1 || open,
            mean_bytes: (mean_bytes.round() as u64).max(1),
            t_read: n.t_read,
            t_read_slc: n.t_read_slc,
            slc_read_ppm: (run.slc_read_share() * 1e6).round() as u64,
            sequential_reads,
            unit_pages: u64::from(n.program_pages * n.planes),
            slc_unit_pages: u64::from(n.planes),
            read_ahead: c.read_ahead && reads_in_order,
            read_ahead_window: u64::from(n.page_bytes) * u64::from(d.dies),
            user_bytes: d.user_bytes() as u64,
            t_prog: n.t_prog,
            t_erase: n.t_erase,
            cache_read: n.cache_read,
            bus_xfer: transfer_table(n.bus_bytes_per_s, unit_bytes),
            link_xfer: transfer_table(link_bytes_per_s, unit_bytes),
            link_write_xfer: transfer_table(link_write_bytes_per_s, unit_bytes),
            half_duplex: c.link.half_duplex(),
            queue_limit: c.device_queue_limit,
            cmd_cost: c.cmd_cost,
            write_cmd_cost: c.write_cmd_cost,
            host_stack: c.host_stack,
            host_path: c.host_path,
            unit_bytes,
            slc_unit_bytes: n.page_bytes * n.planes,
            t_prog_slc: n.t_prog_slc,
            slc_room: slc_room_bytes(run),
            senses_per_unit: u64::from(n.program_pages),
            gc_copies_per_unit: wa - 1.0,
            erases_per_unit: wa * f64::from(unit_bytes) / n.block_bytes(),
            gc_ctrl_per_copy: c.gc_unit_cost * u64::from(unit_bytes / MAPPING_UNIT_BYTES),
            buffer_bytes: c.write_buffer_bytes,
            mp_min_queue: c.multiplane_read_min_queue as usize,
            read_burst_limit: c.read_burst_limit,
            max_suspends: c.max_suspends,
            t_suspend: n.t_suspend,
            t_resume: n.t_resume,
            write_amplification: wa,
            direct_arrival: one_closed && wa <= 1.0 && (one_direction || c.link.half_duplex()),
            die_slots: run.power_budget().die_slots,
            budget_w: run.power_budget().budget_w,
            drive: d.clone(),
        }
    }

    /// The I/Os the run warms up with and the I/Os it measures, for `streams` and the
    /// `measured_ios` the options ask for.
    pub(super) fn run_length(&self, streams: &[StreamParams], measured_ios: u64) -> (u64, u64) {
        // Warm-up long enough to fill the write buffer several times and let every slot cycle.
        let buffer_ios = 3 * self.buffer_bytes / self.mean_bytes;
        let writes = streams.iter().any(|s| s.read_percent < 100);
        let warmup = MIN_WARMUP_IOS
            .max(WARMUP_IOS_PER_IODEPTH * u64::from(self.depth))
            .max(if writes { buffer_ios } else { 0 });
        // Write throughput breathes with the buffer filling and draining around long program and
        // collection steps; a window of many turnovers keeps that out of the figure.
        let target = measured_ios.max(if writes {
            MEASURED_BUFFER_TURNOVERS * buffer_ios / 3
        } else {
            0
        });
        // A trace is measured whole, from its first request, as the reviews replay theirs.
        // (A trace runs alone: see `CheckedRun`.)
        match streams.iter().find_map(StreamParams::trace_len) {
            Some(n) => (0, n),
            None => (warmup, target),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_divisor_divides_exactly_with_or_without_a_power_of_two() {
        // Page sizes are multiples of 4 KiB (12 KiB is not a power of two), die counts go
        // from 1 to hundreds, planes from 1 to 8.
        for d in [
            1u64, 2, 3, 4, 6, 8, 12, 32, 48, 4096, 12_288, 16_384, 65_536,
        ] {
            let div = Divisor::new(d);
            for n in [
                0u64,
                1,
                d - 1,
                d,
                d + 1,
                7 * d + 3,
                u64::from(u32::MAX) * 5,
                u64::MAX,
            ] {
                assert_eq!(div.div_rem(n), (n / d, n % d), "{n} / {d}");
            }
        }
    }
}
