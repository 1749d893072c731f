//! Power and energy: what each part of the drive draws while it works, the drive's NVMe power
//! states, and the budget an active state sets.
//!
//! The model of power is the model of time: every resource the engine tracks (controller, each
//! link direction, each channel, each die) draws its *active* power for the share of the time it
//! is busy, on top of the drive's idle power, so a run's average power comes from the
//! utilisation the engine already measures exactly ([`average_w`]). One die's array operation
//! (sense, program, erase) draws the same power: NAND datasheets give one typical array current
//! for all three.
//!
//! An active power state's maximum is a budget. Firmware keeps to it the way real controllers
//! do, by limiting how many dies work at once: everything else (idle draw, the controller's
//! cores, both link directions and every channel at full tilt) is reserved first, and each
//! running die operation takes one share of the rest ([`die_slots`]). So the drive can never
//! draw more than its budget ([`peak_w`]), a lower state caps parallelism, and deep queues gain
//! less from it; at queue depth 1 one die works at a time and the budget rarely matters.
//!
//! Idle power states (PS3, PS4) are entered autonomously (APST) after the host has been idle
//! for a while and cost their exit latency to the first request after ([`wake_penalty`]).

use super::activity::{Activity, DieState};
use super::stats::Utilisation;
use crate::config::{ConfigError, DriveSpec, IdleLatency, PowerLimit, PowerState};
use crate::time::Nanos;

/// Efficiency as reviews quote it: a rate (IOPS or MB/s) per watt of average power, the one
/// definition the charts, the readout and `lab` use.
///
/// ```
/// assert_eq!(parallelism_model::power::per_watt(3000.0, 6.0), 500.0);
/// ```
pub fn per_watt(rate: f64, average_w: f64) -> f64 {
    rate / average_w
}

/// The drive's average power over a run with utilisation `u`: idle, plus each resource's
/// active power for the share of the time it was busy.
pub fn average_w(drive: &DriveSpec, u: &Utilisation) -> f64 {
    let c = &drive.controller.power;
    let n = &drive.nand.power;
    let channels: f64 = u.channels.iter().sum();
    let dies: f64 = u.dies.iter().sum();
    c.idle_w
        + c.busy_w * u.controller
        + c.link_w * (u.link_read + u.link_write)
        + n.bus_w * channels
        + n.die_w * dies
}

/// What the drive draws at the instant `a` shows: idle, plus every part busy at that instant
/// (a die in an array operation; one whose data only streams out draws on its channel).
pub fn instant_w(drive: &DriveSpec, a: &Activity) -> f64 {
    let c = &drive.controller.power;
    let n = &drive.nand.power;
    let count = |busy: &[bool]| busy.iter().filter(|b| **b).count() as f64;
    let working = a
        .dies
        .iter()
        .filter(|d| d.state.is_busy() && d.state != DieState::Transferring)
        .count() as f64;
    c.idle_w
        + c.busy_w * f64::from(u8::from(a.controller_busy))
        + c.link_w * f64::from(u8::from(a.link_read_busy) + u8::from(a.link_write_busy))
        + n.bus_w * count(&a.channels_busy)
        + n.die_w * working
}

/// What the drive draws with everything but the dies at full tilt: idle, the controller's
/// cores, both link directions and every channel. A budget must cover this and one die.
pub fn reserved_w(drive: &DriveSpec) -> f64 {
    let c = &drive.controller.power;
    c.idle_w
        + c.busy_w
        + 2.0 * c.link_w
        + drive.nand.power.bus_w * f64::from(drive.controller.channels)
}

/// The most the drive can draw with `active_dies` dies in an array operation at once.
pub fn peak_w(drive: &DriveSpec, active_dies: u32) -> f64 {
    reserved_w(drive) + drive.nand.power.die_w * f64::from(active_dies)
}

/// How many dies may run an array operation at once within `budget_w`; refused when the budget
/// does not even cover [`reserved_w`] and one die.
pub fn die_slots(drive: &DriveSpec, budget_w: f64) -> Result<u32, ConfigError> {
    let spare = budget_w - reserved_w(drive);
    let slots = (spare / drive.nand.power.die_w).floor();
    if !budget_w.is_finite() || slots < 1.0 {
        return Err(ConfigError::OutOfRange {
            what: "power budget (W)".into(),
            value: format!("{budget_w}"),
            allowed: format!(
                "at least {:.2} W for this drive (its controller, link and channels at full \
                 tilt and one die working)",
                peak_w(drive, 1)
            ),
        });
    }
    Ok(slots.min(f64::from(u32::MAX)) as u32)
}

/// The budget in watts `limit` sets for `drive`: an active state of its table, or the watts
/// given.
pub fn budget_w(drive: &DriveSpec, limit: PowerLimit) -> Result<f64, ConfigError> {
    match limit {
        PowerLimit::Watts(w) => Ok(w),
        PowerLimit::State(n) => {
            let states = drive.controller.power.states;
            match states.get(usize::from(n)) {
                Some(s) if s.idle.is_none() => Ok(s.max_w),
                Some(_) => Err(ConfigError::OutOfRange {
                    what: "power state".into(),
                    value: format!("ps{n}"),
                    allowed: "an active (operational) state; the idle ones do no I/O".into(),
                }),
                None if states.is_empty() => Err(ConfigError::OutOfRange {
                    what: "power state".into(),
                    value: format!("ps{n}"),
                    allowed: format!(
                        "a state of a published power-state table; the {} has none, so give \
                         watts instead",
                        drive.controller.name
                    ),
                }),
                None => Err(ConfigError::Unknown {
                    what: "power state".into(),
                    value: format!("ps{n}"),
                    expected: format!("ps0..ps{}", states.len() - 1),
                }),
            }
        }
    }
}

/// When an idle drive enters its idle states (APST): the Linux NVMe driver's default policy
/// transitions to a state whose entry plus exit latency is within 15 ms after 100 ms idle, and
/// to one within 100 ms after 2 s idle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Apst {
    pub primary_idle: Nanos,
    pub primary_latency: Nanos,
    pub secondary_idle: Nanos,
    pub secondary_latency: Nanos,
}

impl Apst {
    /// The Linux driver's defaults (`apst_primary_timeout_ms` 100, `apst_primary_latency_tol_us`
    /// 15000, `apst_secondary_timeout_ms` 2000, `apst_secondary_latency_tol_us` 100000).
    pub const LINUX: Apst = Apst {
        primary_idle: Nanos(100_000_000),
        primary_latency: Nanos(15_000_000),
        secondary_idle: Nanos(2_000_000_000),
        secondary_latency: Nanos(100_000_000),
    };

    /// After how long idle the drive starts entering each idle state of `states` (in order of
    /// entry), with the state's index.
    pub fn schedule(&self, states: &[PowerState]) -> Vec<(Nanos, usize, IdleLatency)> {
        let mut out = Vec::new();
        let mut last_tolerated = None;
        for (i, s) in states.iter().enumerate() {
            let Some(lat) = s.idle else { continue };
            let total = lat.entry + lat.exit;
            let idle_after = if total <= self.primary_latency {
                self.primary_idle
            } else if total <= self.secondary_latency {
                self.secondary_idle
            } else {
                continue;
            };
            // A deeper state replaces a shallower one with the same timeout.
            if last_tolerated == Some(idle_after) {
                out.pop();
            }
            last_tolerated = Some(idle_after);
            out.push((idle_after, i, lat));
        }
        out
    }
}

/// The first request after `idle` of host idle time, on a drive whose idle states are entered
/// by `apst`: how long it waits for the drive to wake (zero if no idle state was reached), and
/// the state it woke from. A state still being entered is finished first, then left.
pub fn wake_penalty(states: &[PowerState], apst: Apst, idle: Nanos) -> (Nanos, Option<usize>) {
    let mut penalty = (Nanos(0), None);
    for (after, index, lat) in apst.schedule(states) {
        if idle < after {
            break;
        }
        let entered = after + lat.entry;
        let finish_entry = entered.saturating_sub(idle);
        penalty = (finish_entry + lat.exit, Some(index));
    }
    penalty
}

/// The drive's average power over `idle` of host idle time: its PS0 idle draw throughout
/// without APST; with it, the idle draw until an idle state is entered (entering at the idle
/// draw too), then that state's maximum.
pub fn idle_average_w(drive: &DriveSpec, idle: Nanos, apst: Option<Apst>) -> f64 {
    let c = &drive.controller.power;
    if idle.0 == 0 {
        return c.idle_w;
    }
    let mut energy = 0.0;
    let mut at = Nanos(0);
    let mut draw = c.idle_w;
    let schedule = apst.map(|a| a.schedule(c.states)).unwrap_or_default();
    for (after, index, lat) in schedule {
        let entered = after + lat.entry;
        if entered >= idle {
            break;
        }
        energy += draw * entered.saturating_sub(at).as_secs();
        at = entered;
        draw = c.states[index].max_w;
    }
    energy += draw * idle.saturating_sub(at).as_secs();
    energy / idle.as_secs()
}

/// Requests at queue depth 1 in bursts of `burst`, with `think` of host idle time before each
/// burst: every request's latency over one idle period, each taking `service` once the drive
/// is awake. With `apst`, the first request of a burst pays the wake-up from the idle state
/// the drive reached ([`wake_penalty`]); the others find it awake.
pub fn burst_latencies(
    service: Nanos,
    think: Nanos,
    burst: u32,
    states: &[PowerState],
    apst: Option<Apst>,
) -> Vec<Nanos> {
    let penalty = apst.map_or(Nanos(0), |a| wake_penalty(states, a, think).0);
    (0..burst.max(1))
        .map(|i| if i == 0 { service + penalty } else { service })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    fn e12(dies: u32) -> DriveSpec {
        presets::find("e12").unwrap().drive_with_dies(dies).unwrap()
    }

    #[test]
    fn the_e12s_active_states_leave_room_for_fewer_dies_the_lower_they_are() {
        // 0.5 W idle + 0.45 W cores + 2 x 0.15 W link + 8 x 0.03 W channels = 1.49 W reserved;
        // each die 82.5 mW.
        let d = e12(32);
        assert!((reserved_w(&d) - 1.49).abs() < 1e-9);
        let slots = |ps: u8| die_slots(&d, budget_w(&d, PowerLimit::State(ps)).unwrap()).unwrap();
        assert_eq!((slots(0), slots(1), slots(2)), (89, 9, 3));
        assert!(peak_w(&d, 32) < 8.9, "32 dies at once stay within PS0");
        assert!(
            die_slots(&d, 1.5).is_err(),
            "1.5 W does not cover one working die"
        );
        let idle = budget_w(&d, PowerLimit::State(3)).unwrap_err().to_string();
        assert!(idle.contains("active"), "{idle}");
        let e18dc = presets::find("e18dc").unwrap().drive_with_dies(32).unwrap();
        let none = budget_w(&e18dc, PowerLimit::State(1))
            .unwrap_err()
            .to_string();
        assert!(none.contains("has none, so give watts"), "{none}");
    }

    #[test]
    fn power_limits_parse_and_print_as_states_or_watts() {
        assert_eq!("PS1".parse::<PowerLimit>().ok(), Some(PowerLimit::State(1)));
        assert_eq!(
            "2.5w".parse::<PowerLimit>().ok(),
            Some(PowerLimit::Watts(2.5))
        );
        assert_eq!("3".parse::<PowerLimit>().ok(), Some(PowerLimit::Watts(3.0)));
        for bad in ["ps5", "-1", "0", "nan", "inf", "watts", ""] {
            assert!(bad.parse::<PowerLimit>().is_err(), "{bad}");
        }
        assert_eq!(PowerLimit::State(2).to_string(), "ps2");
    }

    #[test]
    fn an_idle_drive_wakes_from_the_state_it_reached_finishing_an_entry_first() {
        let states = presets::find("e12").unwrap().controller.power.states;
        let ms = Nanos::from_ms;
        let wake = |idle_ms: u64| wake_penalty(states, Apst::LINUX, ms(idle_ms));
        assert_eq!(wake(50), (ms(0), None), "still in PS0");
        assert_eq!(
            wake(101),
            (ms(1) + ms(2), Some(3)),
            "entering PS3: 1 ms left, 2 ms out"
        );
        assert_eq!(wake(500), (ms(2), Some(3)));
        assert_eq!(wake(2_010), (ms(15) + ms(25), Some(4)));
        assert_eq!(wake(60_000), (ms(25), Some(4)));
    }

    #[test]
    fn an_idle_drive_draws_its_idle_power_until_apst_takes_it_to_a_deeper_state() {
        let d = e12(32);
        let w = |ms: u64, apst| idle_average_w(&d, Nanos::from_ms(ms), apst);
        assert_eq!(w(5_000, None), 0.5, "without APST: PS0's idle draw");
        assert_eq!(w(50, Some(Apst::LINUX)), 0.5, "before the first threshold");
        // 102 ms at 0.5 W, then PS3's 49 mW for the rest of 1 s.
        let one_s = (0.5 * 0.102 + 0.049 * 0.898) / 1.0;
        assert!((w(1_000, Some(Apst::LINUX)) - one_s).abs() < 1e-9);
        assert!(
            w(60_000, Some(Apst::LINUX)) < 0.01,
            "a minute idle is mostly PS4"
        );
    }

    #[test]
    fn the_idle_exit_latency_appears_once_per_idle_period() {
        let states = presets::find("e12").unwrap().controller.power.states;
        let service = Nanos::from_us(80);
        let think = Nanos::from_ms(500);
        let with = burst_latencies(service, think, 4, states, Some(Apst::LINUX));
        assert_eq!(
            with,
            [service + Nanos::from_ms(2), service, service, service]
        );
        let without = burst_latencies(service, think, 4, states, None);
        assert!(without.iter().all(|&l| l == service));
    }
}
