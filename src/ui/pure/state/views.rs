//! [`ViewSettings`]: what each view sets for itself: p99.9 on the latency chart, the burst
//! chart's idle time and burst size, teaching mode's playback speed, and the host's idle time
//! before a request with APST on or off (the readout's wake-up line).
//!
//! What always holds (private fields; every setter snaps instead of failing): the idle time is
//! on [`IDLE_STEPS_S`], the burst size on [`BURST_SIZES_GB`], the speed one of
//! [`SPEEDS_US_PER_S`], the idle time before a request on [`THINK_STEPS_US`].

use crate::ui::pure::ladder::Ladder;

/// Idle seconds between bursts the burst chart offers: none, up to the E12 review's one
/// minute between depths, and long enough for a large cache to fold completely.
pub const IDLE_STEPS_S: [u32; 10] = [0, 5, 10, 20, 30, 60, 120, 300, 600, 1800];
/// Idle time a fresh page shows: the E12 review's "up to 1 minute idle between depths".
pub const DEFAULT_IDLE_S: u32 = crate::model::review::REVIEW_IDLE_S;
/// Burst sizes (GB) the burst chart offers.
pub const BURST_SIZES_GB: [u32; 6] = [4, 8, 16, 32, 64, 128];
/// Burst size a fresh page shows: the E12 review's "32 GB per depth".
pub const DEFAULT_BURST_GB: u32 = crate::model::review::REVIEW_PHASE_GB;
/// Simulated microseconds per wall-clock second teaching mode's speed control offers.
pub const SPEEDS_US_PER_S: [u32; 10] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
/// The speed a fresh page plays at: a 4 KiB read's sense (tens of µs) takes a few seconds.
pub const DEFAULT_SPEED_US_PER_S: u32 = 20;

/// Host idle time before a request (µs) the idle control offers: none, then past the E12's
/// APST thresholds (100 ms into PS3, 2 s into PS4).
pub const THINK_STEPS_US: [u32; 10] = [
    0, 1_000, 10_000, 50_000, 100_000, 101_000, 200_000, 500_000, 2_000_000, 5_000_000,
];

/// The idle times before a request on the idle control's slider (µs).
pub fn think_ladder() -> Ladder {
    Ladder::new(THINK_STEPS_US, 0)
}

/// The idle times on the burst chart's slider (seconds).
pub fn idle_ladder() -> Ladder {
    Ladder::new(IDLE_STEPS_S, DEFAULT_IDLE_S)
}

/// The burst sizes on the burst chart's slider (GB).
pub fn burst_ladder() -> Ladder {
    Ladder::new(BURST_SIZES_GB, DEFAULT_BURST_GB)
}

/// The speeds on teaching mode's slider (simulated µs per second).
pub fn speed_ladder() -> Ladder {
    Ladder::new(SPEEDS_US_PER_S, DEFAULT_SPEED_US_PER_S)
}

/// The per-view part of the state. See the module documentation for what always holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ViewSettings {
    show_p999: bool,
    idle_s: u32,
    burst_gb: u32,
    speed_us_per_s: u32,
    think_us: u32,
    apst: bool,
}

impl Default for ViewSettings {
    fn default() -> Self {
        ViewSettings {
            show_p999: false,
            idle_s: DEFAULT_IDLE_S,
            burst_gb: DEFAULT_BURST_GB,
            speed_us_per_s: DEFAULT_SPEED_US_PER_S,
            think_us: 0,
            // Linux enables autonomous power-state transitions by default.
            apst: true,
        }
    }
}

impl ViewSettings {
    /// Whether the latency chart also draws p99.9.
    pub fn show_p999(&self) -> bool {
        self.show_p999
    }
    /// Idle seconds between the burst chart's bursts.
    pub fn idle_s(&self) -> u32 {
        self.idle_s
    }
    /// Size of each of the burst chart's bursts, in GB.
    pub fn burst_gb(&self) -> u32 {
        self.burst_gb
    }
    /// Teaching mode's playback speed: simulated microseconds per wall-clock second.
    pub fn speed_us_per_s(&self) -> u32 {
        self.speed_us_per_s
    }
    /// Host idle time before each request, in µs (0: none), for the readout's wake-up line.
    pub fn think_us(&self) -> u32 {
        self.think_us
    }
    /// Whether the host lets the drive enter idle power states on its own (APST).
    pub fn apst(&self) -> bool {
        self.apst
    }

    /// Sets the idle time before a request, snapped to [`THINK_STEPS_US`].
    pub fn set_think_us(&mut self, us: u32) {
        self.think_us = think_ladder().nearest(us);
    }

    pub fn set_apst(&mut self, on: bool) {
        self.apst = on;
    }

    pub fn set_show_p999(&mut self, show: bool) {
        self.show_p999 = show;
    }

    /// Sets the idle time between bursts, snapped to [`IDLE_STEPS_S`].
    pub fn set_idle_s(&mut self, idle_s: u32) {
        self.idle_s = idle_ladder().nearest(idle_s);
    }

    /// Sets the burst size, snapped to [`BURST_SIZES_GB`].
    pub fn set_burst_gb(&mut self, burst_gb: u32) {
        self.burst_gb = burst_ladder().nearest(burst_gb);
    }

    /// Sets teaching mode's speed, snapped to the offered speeds.
    pub fn set_speed_us_per_s(&mut self, us_per_s: u32) {
        self.speed_us_per_s = speed_ladder().nearest(us_per_s);
    }
}
