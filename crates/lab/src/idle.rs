//! `lab idle`: queue-depth-1 latency after host idle time, with and without autonomous power
//! state transitions (APST). The drive's own QD1 latency comes from the model; the wake-up from
//! an idle state comes from the preset's power-state table and the Linux driver's default APST
//! policy (`parallelism_model::power`).

use std::fmt::Write as _;

use parallelism_model::power::{self, Apst};
use parallelism_model::time::Nanos;
use parallelism_model::{DriveState, RunSpec, Rw, Simulation, Workload};

use crate::cli::{self, Format};
use crate::Fail;

/// One idle time's figures.
#[derive(serde::Serialize)]
struct IdleRow {
    think_us: u64,
    /// The power state the drive was in (or entering) when the request came: `ps0` if none.
    state: String,
    wake_us: f64,
    lat_mean_us_without_apst: f64,
    lat_mean_us_with_apst: f64,
    first_lat_us_with_apst: f64,
    /// The drive's average power over the idle time, without and with APST.
    idle_w_without_apst: f64,
    idle_w_with_apst: f64,
}

pub fn idle(a: &cli::IdleArgs) -> Result<String, Fail> {
    let drive = a.drive.drive()?;
    let states = drive.controller.power.states;
    let idle_w = |think, apst| power::idle_average_w(&drive, think, apst);
    if !states.iter().any(|s| s.idle.is_some()) {
        return Err(Fail::Refused(format!(
            "the {} has no published idle power states (only the E12 family has a table)",
            drive.controller.name
        )));
    }
    let spec = RunSpec {
        drive: drive.clone(),
        workload: Workload {
            rw: Rw::RandRead,
            rwmixread: 100,
            bs_bytes: 4096,
            iodepth: 1,
        },
        state: DriveState::Fob,
        options: a.run.options(),
    };
    let service_us = Simulation::run(&spec.check()?)?.latency.mean_us;
    let service = Nanos((service_us * 1e3).round() as u64);
    let mean_us =
        |lat: &[Nanos]| lat.iter().map(|l| l.as_us()).sum::<f64>() / lat.len().max(1) as f64;
    let rows: Vec<IdleRow> = a
        .think_us
        .0
        .iter()
        .map(|&think_us| {
            let think = Nanos::from_us(think_us);
            let (wake, state) = power::wake_penalty(states, Apst::LINUX, think);
            let with = power::burst_latencies(service, think, a.burst, states, Some(Apst::LINUX));
            let without = power::burst_latencies(service, think, a.burst, states, None);
            IdleRow {
                think_us,
                state: format!("ps{}", state.unwrap_or(0)),
                wake_us: wake.as_us(),
                lat_mean_us_without_apst: mean_us(&without),
                lat_mean_us_with_apst: mean_us(&with),
                first_lat_us_with_apst: with[0].as_us(),
                idle_w_without_apst: idle_w(think, None),
                idle_w_with_apst: idle_w(think, Some(Apst::LINUX)),
            }
        })
        .collect();
    render(&rows, a.output.format)
}

fn render(rows: &[IdleRow], format: Format) -> Result<String, Fail> {
    Ok(match format {
        Format::Json => crate::json(&rows)?,
        Format::Csv => {
            let mut s = String::from(
                "think_us,state,wake_us,lat_mean_us_without_apst,lat_mean_us_with_apst,first_lat_us_with_apst,idle_w_without_apst,idle_w_with_apst\n",
            );
            for r in rows {
                let _ = writeln!(
                    s,
                    "{},{},{:.1},{:.1},{:.1},{:.1},{:.4},{:.4}",
                    r.think_us,
                    r.state,
                    r.wake_us,
                    r.lat_mean_us_without_apst,
                    r.lat_mean_us_with_apst,
                    r.first_lat_us_with_apst,
                    r.idle_w_without_apst,
                    r.idle_w_with_apst
                );
            }
            s
        }
        Format::Table => {
            let mut s = format!(
                "{:>12} {:>6} {:>10} {:>12} {:>12} {:>12} {:>10} {:>10}\n",
                "idle µs",
                "state",
                "wake µs",
                "no APST µs",
                "APST µs",
                "first µs",
                "idle W",
                "APST W"
            );
            for r in rows {
                let _ = writeln!(
                    s,
                    "{:>12} {:>6} {:>10.1} {:>12.1} {:>12.1} {:>12.1} {:>10.3} {:>10.3}",
                    r.think_us,
                    r.state,
                    r.wake_us,
                    r.lat_mean_us_without_apst,
                    r.lat_mean_us_with_apst,
                    r.first_lat_us_with_apst,
                    r.idle_w_without_apst,
                    r.idle_w_with_apst
                );
            }
            s
        }
    })
}
