//! `lab`: the command-line twin of the browser lab. It prints the same figures the page plots,
//! from the same model, so anything on screen can be reproduced, scripted and diffed.
//!
//! The binary owns the command line and the printing, nothing else: every figure comes from
//! `parallelism_model`, which is its only dependency besides clap and serde, so it builds without
//! the page's browser stack. The command line is one clap definition (`cli.rs`) from which the
//! parser, the help and the errors all follow; values are read by the model's own parsers, and
//! the limits the model checks when it runs stay in the model.
//!
//! Every bad argument ends in a one-line message on stderr and exit status 2; nothing panics.
//! clap's errors are re-worded here to that one line, in the words `lab` used before clap, so
//! scripts and tests that read them keep working.

mod cli;

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::Parser as _;
use parallelism_model::calibration;
use parallelism_model::drive_state;
use parallelism_model::fit::{self, FitOptions};
use parallelism_model::ftl;
use parallelism_model::presets::{self, Preset};
use parallelism_model::spec_sheet;
use parallelism_model::sweep::{self, SweepPoint, REVIEW_QDS};
use parallelism_model::{ConfigError, DriveState, RunOptions, Rw, Workload};

use cli::{Cli, Command, Format, ReportFormat};

/// A command-line failure: the message to print and exit status 2.
struct Fail(String);

impl From<ConfigError> for Fail {
    fn from(e: ConfigError) -> Fail {
        Fail(e.to_string())
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if is_display(e.kind()) => {
            // Help goes to stdout with status 0; `lab` alone prints it to stderr with clap's 2.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
        Err(e) => return fail(&Fail(clap_message(&e))),
    };
    match run(cli.command) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(f) => fail(&f),
    }
}

fn fail(Fail(msg): &Fail) -> ExitCode {
    eprintln!("lab: {msg}");
    eprintln!("Run `lab --help` for usage.");
    ExitCode::from(2)
}

fn is_display(kind: ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    )
}

/// clap's error as one line, in the words `lab` used before clap: the option and the value that
/// are wrong, and what was expected. Kinds without such words keep clap's own first line.
fn clap_message(e: &clap::Error) -> String {
    let text = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => s.clone(),
        Some(ContextValue::Strings(v)) => v.join(" "),
        Some(v) => v.to_string(),
        None => String::new(),
    };
    // "--iodepth <LIST>" names the option as "--iodepth".
    let option = |kind| {
        text(kind)
            .split([' ', '='])
            .next()
            .unwrap_or("")
            .to_string()
    };
    let did_you_mean = |kind| match text(kind) {
        s if s.is_empty() => String::new(),
        s => format!(" (did you mean {s}?)"),
    };
    let arg = option(ContextKind::InvalidArg);
    let value = text(ContextKind::InvalidValue);
    match e.kind() {
        ErrorKind::ValueValidation => match std::error::Error::source(e) {
            // The model's parsers say what they read ("unknown preset 'x' (expected ...)").
            Some(why) if why.is::<ConfigError>() => why.to_string(),
            Some(why) => format!("{arg} {why}"),
            None => format!("{arg} cannot read '{value}'"),
        },
        ErrorKind::InvalidValue if value.is_empty() => format!("{arg} needs a value"),
        ErrorKind::InvalidValue => {
            let expected = match e.get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(v)) => or_list(v),
                _ => String::new(),
            };
            let name = arg.trim_start_matches('-');
            format!("unknown {name} '{value}' (expected {expected})")
        }
        ErrorKind::UnknownArgument if arg.starts_with("--") => format!(
            "unknown option {arg} for this command{}",
            did_you_mean(ContextKind::SuggestedArg)
        ),
        ErrorKind::UnknownArgument => {
            format!("unexpected argument '{}'", text(ContextKind::InvalidArg))
        }
        ErrorKind::InvalidSubcommand => format!(
            "unknown command '{}'{}",
            text(ContextKind::InvalidSubcommand),
            did_you_mean(ContextKind::SuggestedSubcommand)
        ),
        ErrorKind::ArgumentConflict => {
            let prior = option(ContextKind::PriorArg);
            if prior == arg {
                format!("{arg} given twice")
            } else {
                // Sorted, so the message does not depend on which of the two came first.
                let mut pair = [arg, prior];
                pair.sort();
                format!("give {} or {}, not both", pair[0], pair[1])
            }
        }
        ErrorKind::MissingRequiredArgument => format!(
            "missing {} ({})",
            text(ContextKind::InvalidArg),
            text(ContextKind::Usage)
                .trim()
                .replacen("Usage: ", "usage: ", 1)
        ),
        _ => {
            let first = e.to_string();
            let first = first.lines().next().unwrap_or_default();
            first.strip_prefix("error: ").unwrap_or(first).to_string()
        }
    }
}

/// "a, b or c".
fn or_list(items: &[String]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => items.join(""),
    }
}

fn run(command: Command) -> Result<String, Fail> {
    match command {
        Command::Presets(a) => Ok(presets_cmd(a.format)),
        Command::Sweep(a) => sweep_cmd(&a),
        Command::Calibrate(a) => calibrate_cmd(&a),
        Command::Fit(a) => fit_cmd(&a),
        Command::Spec(a) => spec_cmd(a.preset, a.output.format),
        Command::Fill(a) => fill_cmd(&a),
        Command::Burst(a) => burst_cmd(&a),
        Command::Torture(a) => torture_cmd(&a),
        Command::FioJob(a) => fio_job_cmd(&a),
        Command::Import(a) => import_cmd(&a.file, a.output.format),
        Command::Bench => Ok(bench_cmd()),
    }
}

fn presets_cmd(format: Format) -> String {
    if format == Format::Json {
        let list: Vec<_> = presets::all()
            .iter()
            .map(|p| {
                serde_json::json!({
                    "id": p.id, "name": p.name, "summary": p.summary,
                    "capacities_gb": p.capacities_gb, "gb_per_die": p.gb_per_die(),
                    "channels": p.controller.channels, "link": p.controller.link.name(),
                    "nand": p.nand.name,
                })
            })
            .collect();
        return serde_json::to_string_pretty(&list).expect("plain JSON values") + "\n";
    }
    let mut out = String::new();
    for p in presets::all() {
        let caps: Vec<String> = p.capacities_gb.iter().map(|c| format!("{c} GB")).collect();
        let _ = writeln!(
            out,
            "{:<8} {:<40} {} ({:.0} GB per die of {})",
            p.id,
            p.name,
            caps.join(", "),
            p.gb_per_die(),
            p.nand.name
        );
    }
    out
}

/// The consumer presets' spec-sheet peaks against the model's fresh drive.
fn spec_cmd(preset: Option<&'static Preset>, format: Format) -> Result<String, Fail> {
    let chosen: Vec<&Preset> = match preset {
        Some(p) => vec![p],
        None => presets::all().iter().collect(),
    };
    let options = RunOptions::default();
    let rows: Vec<(&Preset, spec_sheet::SpecRow)> = chosen
        .into_iter()
        .flat_map(|p| {
            spec_sheet::compare(p, options)
                .unwrap_or_default()
                .into_iter()
                .map(move |r| (p, r))
        })
        .collect();
    if rows.is_empty() {
        return Err(Fail(
            "no spec-sheet peaks for this preset (the E12, E12C, E8, E8T and E7 have them)".into(),
        ));
    }
    Ok(match format {
        Format::Json => {
            let list: Vec<_> = rows
                .iter()
                .map(|(p, r)| {
                    serde_json::json!({
                        "preset": p.id, "figure": r.figure, "unit": r.figure.unit(),
                        "capacity_gb": r.capacity_gb, "spec": r.spec, "model": r.model,
                        "err": r.err, "beyond_model": r.beyond_model,
                    })
                })
                .collect();
            serde_json::to_string_pretty(&list).expect("plain JSON values") + "\n"
        }
        Format::Csv | Format::Table => {
            let mut out = format!(
                "{:<6} {:>6}  {:<38} {:>10} {:>10} {:>7}\n",
                "preset", "GB", "figure", "spec", "model", "error"
            );
            for (p, r) in &rows {
                let _ = writeln!(
                    out,
                    "{:<6} {:>6.0}  {:<38} {:>10.0} {:>10.0} {:>+6.1}%{}",
                    p.id,
                    r.capacity_gb,
                    format!("{} {}", r.figure, r.figure.unit()),
                    r.spec,
                    r.model,
                    // Rounded first, so a hair below zero prints as +0.0%, not -0.0%.
                    (r.err * 1000.0).round() / 10.0 + 0.0,
                    if r.beyond_model.is_some() {
                        "  (beyond the model*)"
                    } else {
                        ""
                    }
                );
            }
            for (p, r) in &rows {
                if let Some(why) = r.beyond_model {
                    let _ = writeln!(out, "* {} {}: {why}", p.id, r.figure);
                }
            }
            out
        }
    })
}

fn sweep_cmd(a: &cli::SweepArgs) -> Result<String, Fail> {
    let drive = a.drive.drive()?;
    let workload = a.workload.workload()?;
    let (state, options) = (a.state, a.run.options());
    let points = if a.mix_sweep {
        sweep::over_read_share(&drive, workload, state, options, &sweep::MIX_STEPS)?
    } else {
        sweep::over_queue_depth(&drive, workload, state, options, &a.workload.iodepth.0)?
    };
    Ok(render_points(&points, a.output.format))
}

fn render_points(points: &[SweepPoint], format: Format) -> String {
    match format {
        Format::Json => {
            let rows: Vec<_> = points
                .iter()
                .map(|p| {
                    let r = &p.result;
                    serde_json::json!({
                        "iodepth": p.iodepth,
                        "read_percent": p.read_percent,
                        "iops": r.iops,
                        "bw_mb_s": r.bw_mb_s,
                        "lat_mean_us": r.latency.mean_us,
                        "lat_p50_us": r.latency.p50_us,
                        "lat_p90_us": r.latency.p90_us,
                        "lat_p99_us": r.latency.p99_us,
                        "lat_p999_us": r.latency.p999_us,
                        "lat_max_us": r.latency.max_us,
                        "bottleneck": r.bottleneck.id(),
                        "write_amplification": r.write_amplification,
                        "suspends": r.suspends,
                        "reads_behind_programs": r.reads_behind_programs,
                        "iops_rel_noise": r.iops_rel_noise,
                        "utilisation": r.utilisation,
                    })
                })
                .collect();
            serde_json::to_string_pretty(&rows).expect("plain JSON values") + "\n"
        }
        Format::Csv => {
            let mut s = String::from(
                "iodepth,read_percent,iops,bw_mb_s,lat_mean_us,lat_p50_us,lat_p99_us,lat_p999_us,lat_max_us,bottleneck,write_amplification\n",
            );
            for p in points {
                let r = &p.result;
                let l = &r.latency;
                let _ = writeln!(
                    s,
                    "{},{},{:.0},{:.1},{:.1},{:.1},{:.1},{:.1},{:.1},{},{:.2}",
                    p.iodepth,
                    p.read_percent,
                    r.iops,
                    r.bw_mb_s,
                    l.mean_us,
                    l.p50_us,
                    l.p99_us,
                    l.p999_us,
                    l.max_us,
                    r.bottleneck.id(),
                    r.write_amplification
                );
            }
            s
        }
        Format::Table => {
            let mut s = format!(
                "{:>7} {:>5} {:>10} {:>9} {:>10} {:>10} {:>10}  {}\n",
                "iodepth", "read%", "IOPS", "MB/s", "mean µs", "p99 µs", "p99.9 µs", "limited by"
            );
            for p in points {
                let r = &p.result;
                let _ = writeln!(
                    s,
                    "{:>7} {:>5} {:>10.0} {:>9.1} {:>10.1} {:>10.1} {:>10.1}  {}",
                    p.iodepth,
                    p.read_percent,
                    r.iops,
                    r.bw_mb_s,
                    r.latency.mean_us,
                    r.latency.p99_us,
                    r.latency.p999_us,
                    r.bottleneck.label()
                );
            }
            s
        }
    }
}

fn calibrate_cmd(a: &cli::CalibrateArgs) -> Result<String, Fail> {
    let (options, format, loo) = (a.run.options(), a.output.format, a.loo);
    let rows = calibration::table(options);
    let worst = rows.iter().map(|r| r.error.abs()).fold(0.0, f64::max);
    let mean = rows.iter().map(|r| r.error.abs()).sum::<f64>() / rows.len() as f64;
    // Cross-validation refits the preset once per cell, so it runs only when asked for.
    let loo = if loo {
        let preset = presets::lookup("e18dc")?;
        let fit_options = FitOptions {
            run: options,
            ..FitOptions::default()
        };
        let report = fit::fit_with_loo(preset, calibration::e18dc(), fit_options)?;
        report.loo
    } else {
        None
    };
    let loo_cell = |i: usize| loo.as_ref().map(|l| l.cells[i]);
    Ok(match format {
        Format::Json => {
            let mut value = serde_json::to_value(&rows).expect("plain JSON values");
            if let Some(list) = value.as_array_mut().filter(|_| loo.is_some()) {
                for (i, row) in list.iter_mut().enumerate() {
                    let c = loo_cell(i).expect("one fold per cell");
                    row["loo_model"] = serde_json::json!(c.model);
                    row["loo_error"] = serde_json::json!(c.err());
                }
            }
            json(&value)
        }
        Format::Csv => {
            let mut s = String::from("cell,measured,model,error_pct");
            s += if loo.is_some() {
                ",loo_model,loo_error_pct\n"
            } else {
                "\n"
            };
            for (i, r) in rows.iter().enumerate() {
                let _ = write!(
                    s,
                    "{},{},{:.4},{:.2}",
                    r.cell,
                    r.measured.value,
                    r.model,
                    r.error * 100.0
                );
                if let Some(c) = loo_cell(i) {
                    let _ = write!(s, ",{:.4},{:.2}", c.model, c.err() * 100.0);
                }
                s.push('\n');
            }
            s
        }
        Format::Table => {
            let mut s = format!("Source: {}\n", calibration::SOURCE);
            let _ = write!(
                s,
                "{:<40} {:>12} {:>12} {:>8}",
                "cell", "measured", "model", "error"
            );
            if loo.is_some() {
                let _ = write!(s, " {:>12} {:>9}", "LOO model", "LOO error");
            }
            s.push('\n');
            for (i, r) in rows.iter().enumerate() {
                let _ = write!(
                    s,
                    "{:<40} {:>12.3} {:>12.3} {:>+7.1}%",
                    r.cell,
                    r.measured.value,
                    r.model,
                    r.error * 100.0
                );
                if let Some(c) = loo_cell(i) {
                    let _ = write!(s, " {:>12.3} {:>+8.1}%", c.model, c.err() * 100.0);
                }
                s.push('\n');
            }
            let _ = writeln!(
                s,
                "worst error: {:.1}% over {} cells (mean {:.1}%)",
                worst * 100.0,
                rows.len(),
                mean * 100.0
            );
            match &loo {
                Some(l) => {
                    let _ = writeln!(
                        s,
                        "leave-one-out: worst {:.1}%, mean {:.1}% (each cell predicted by a fit without it)",
                        l.max_err * 100.0,
                        l.mean_err * 100.0
                    );
                }
                None => s.push_str("leave-one-out: run `lab calibrate --loo` (one fit per cell)\n"),
            }
            s
        }
    })
}

fn fit_cmd(a: &cli::FitArgs) -> Result<String, Fail> {
    let (preset, loo) = (a.preset, a.loo);
    let fit_options = FitOptions {
        run: a.run.options(),
        ..FitOptions::default()
    };
    let (source, cells) = match &a.data {
        Some(file) => {
            let path = file.display();
            let bytes =
                std::fs::read(file).map_err(|e| Fail(format!("cannot read '{path}': {e}")))?;
            let cells = calibration::parse(&String::from_utf8_lossy(&bytes))
                .map_err(|e| Fail(format!("{path}: {e}")))?;
            (path.to_string(), cells)
        }
        None => {
            let r = calibration::reference_for(preset.id).ok_or_else(|| {
                Fail(format!(
                    "preset '{}' has no built-in measurements; give --data FILE",
                    preset.id
                ))
            })?;
            (r.source.to_string(), r.cells.to_vec())
        }
    };
    let report = if loo {
        fit::fit_with_loo(preset, &cells, fit_options)
    } else {
        fit::fit(preset, &cells, fit_options)
    }
    .map_err(|e| Fail(format!("{source}: {e}")))?;
    if a.format == ReportFormat::Json {
        return Ok(json(&report));
    }
    let mut s = format!("Source: {source}\n");
    let _ = writeln!(s, "Fit of {} ({} cells)", preset.name, cells.len());
    let _ = writeln!(
        s,
        "{:<28} {:>10} {:>10} {:>18}",
        "parameter", "fit", "preset", "bounds / step"
    );
    for f in preset.fitted {
        let _ = writeln!(
            s,
            "{:<28} {:>10} {:>10} {:>18}",
            f.param.to_string(),
            report.value(f.param).unwrap_or(f64::NAN),
            f.param.get(&preset.controller, &preset.nand),
            format!("{}..={} / {}", f.lo, f.hi, f.step)
        );
    }
    let _ = write!(
        s,
        "{:<40} {:>12} {:>12} {:>8}",
        "cell", "measured", "model", "error"
    );
    if report.loo.is_some() {
        let _ = write!(s, " {:>12} {:>9}", "LOO model", "LOO error");
    }
    s.push('\n');
    for (i, c) in report.cells.iter().enumerate() {
        let _ = write!(
            s,
            "{:<40} {:>12.3} {:>12.3} {:>+7.1}%",
            c.cell.label(),
            c.cell.value,
            c.model,
            c.err() * 100.0
        );
        if let Some(l) = &report.loo {
            let p = &l.cells[i];
            let _ = write!(s, " {:>12.3} {:>+8.1}%", p.model, p.err() * 100.0);
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "in-sample: worst {:.2}%, mean {:.2}% over {} cells",
        report.max_err * 100.0,
        report.mean_err * 100.0,
        report.cells.len()
    );
    if let Some(l) = &report.loo {
        let _ = writeln!(
            s,
            "leave-one-out: worst {:.2}%, mean {:.2}% (each cell predicted by a fit without it)",
            l.max_err * 100.0,
            l.mean_err * 100.0
        );
    }
    let _ = writeln!(s, "{} parameter points run", report.evaluations);
    Ok(s)
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).expect("plain JSON values") + "\n"
}

fn fill_cmd(a: &cli::FillArgs) -> Result<String, Fail> {
    let report = drive_state::fill(&a.drive.drive()?)?;
    Ok(match a.output.format {
        Format::Json => json(&report.points),
        Format::Csv => {
            let mut s = String::from("gb_written,mb_s,phase\n");
            for p in &report.points {
                let _ = writeln!(
                    s,
                    "{:.2},{:.1},{}",
                    p.gb_written,
                    p.mb_s,
                    phase_name(p.phase)
                );
            }
            s
        }
        Format::Table => {
            let mut s = format!(
                "{:.0} GB drive, SLC cache {:.1} GB when empty, average {:.0} MB/s\n{:>10} {:>9}  phase\n",
                report.capacity_gb, report.slc_cache_gb, report.average_mb_s, "GB written", "MB/s"
            );
            let step = (report.points.len() / 40).max(1);
            for p in report.points.iter().step_by(step) {
                let _ = writeln!(
                    s,
                    "{:>10.1} {:>9.0}  {}",
                    p.gb_written,
                    p.mb_s,
                    phase_name(p.phase)
                );
            }
            s
        }
    })
}

fn phase_name(p: drive_state::FillPhase) -> &'static str {
    match p {
        drive_state::FillPhase::Cache => "cache",
        drive_state::FillPhase::PostCache => "post-cache",
        drive_state::FillPhase::Folding => "folding",
    }
}

fn burst_cmd(a: &cli::BurstArgs) -> Result<String, Fail> {
    let points = drive_state::bursts(&a.drive.drive()?, a.burst_gb, a.idle_s, a.bursts)?;
    Ok(match a.output.format {
        Format::Json => json(&points),
        Format::Csv => {
            let mut s = String::from("burst,mb_s,cache_free_gb\n");
            for p in &points {
                let _ = writeln!(s, "{},{:.1},{:.2}", p.burst, p.mb_s, p.cache_free_gb);
            }
            s
        }
        Format::Table => {
            let mut s = format!("{:>5} {:>9} {:>15}\n", "burst", "MB/s", "cache free GB");
            for p in &points {
                let _ = writeln!(
                    s,
                    "{:>5} {:>9.0} {:>15.1}",
                    p.burst, p.mb_s, p.cache_free_gb
                );
            }
            s
        }
    })
}

fn torture_cmd(a: &cli::TortureArgs) -> Result<String, Fail> {
    let r = drive_state::torture(&a.drive.drive()?, a.minutes)?;
    Ok(match a.output.format {
        Format::Json => json(&r),
        Format::Csv => {
            let mut s = String::from("minute,mb_s,write_amplification\n");
            for p in &r.series {
                let _ = writeln!(
                    s,
                    "{:.2},{:.1},{:.2}",
                    p.minute, p.mb_s, p.write_amplification
                );
            }
            s
        }
        Format::Table => {
            let mut s = format!(
                "128 KiB QD1 sequential write: fresh {:.0} MB/s, after torture {:.0} MB/s ({:.0}% of fresh), after TRIM {:.0} MB/s\n{:>7} {:>9} {:>5}\n",
                r.fresh_mb_s,
                r.after_torture_mb_s,
                100.0 * r.after_torture_mb_s / r.fresh_mb_s,
                r.after_trim_mb_s,
                "minute",
                "MB/s",
                "WA"
            );
            for p in &r.series {
                let _ = writeln!(
                    s,
                    "{:>7.1} {:>9.1} {:>5.2}",
                    p.minute, p.mb_s, p.write_amplification
                );
            }
            s
        }
    })
}

fn fio_job_cmd(a: &cli::WorkloadArgs) -> Result<String, Fail> {
    Ok(parallelism_model::fio::job_file(
        &a.workload()?,
        &a.iodepth.0,
    ))
}

fn import_cmd(file: &Path, format: Format) -> Result<String, Fail> {
    let bytes =
        std::fs::read(file).map_err(|e| Fail(format!("cannot read '{}': {e}", file.display())))?;
    let points = parallelism_model::fio::parse_output(&String::from_utf8_lossy(&bytes))?;
    Ok(match format {
        Format::Json => json(&points),
        Format::Csv => {
            let mut s =
                String::from("job,iodepth,read_percent,iops,bw_mb_s,lat_mean_us,lat_p99_us\n");
            for p in &points {
                let _ = writeln!(
                    s,
                    "{},{},{:.0},{:.0},{:.1},{:.1},{}",
                    p.job.replace(',', " "),
                    p.iodepth,
                    p.read_percent,
                    p.iops,
                    p.bw_mb_s,
                    p.lat_mean_us,
                    p.lat_p99_us.map(|v| format!("{v:.1}")).unwrap_or_default()
                );
            }
            s
        }
        Format::Table => {
            let mut s = format!(
                "{:<16} {:>7} {:>6} {:>10} {:>9} {:>10}\n",
                "job", "iodepth", "read%", "IOPS", "MB/s", "mean µs"
            );
            for p in &points {
                let _ = writeln!(
                    s,
                    "{:<16} {:>7} {:>6.0} {:>10.0} {:>9.1} {:>10.1}",
                    p.job, p.iodepth, p.read_percent, p.iops, p.bw_mb_s, p.lat_mean_us
                );
            }
            s
        }
    })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn bench_cmd() -> String {
    const REPEATS: usize = 7;
    const FILL_BENCH_DIES: u32 = 64;
    let preset = presets::find("e18dc").expect("e18dc preset");
    let drive = preset.drive_with_dies(32);
    let options = RunOptions {
        measured_ios: 200_000,
        ..RunOptions::default()
    };
    let qd32 = Workload {
        rw: Rw::RandRead,
        rwmixread: 100,
        bs_bytes: 4096,
        iodepth: 32,
    };
    let run = sweep::spec(&drive, qd32, DriveState::SeqFilled, options)
        .check()
        .expect("bench run is valid");
    let rate = median(
        (0..REPEATS)
            .map(|_| {
                let t = Instant::now();
                let r = parallelism_model::Simulation::run(&run);
                let ios = r.measured_ios as f64 + 2_000.0;
                ios / t.elapsed().as_secs_f64()
            })
            .collect(),
    );
    let sweep_ms = median(
        (0..REPEATS)
            .map(|_| {
                let t = Instant::now();
                let _ = sweep::over_queue_depth(
                    &drive,
                    qd32,
                    DriveState::SeqFilled,
                    RunOptions::default(),
                    &REVIEW_QDS,
                );
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    );
    let steady_ms = median(
        (0..REPEATS)
            .map(|_| {
                let t = Instant::now();
                let _ = ftl::simulate_steady_wa_uncached(drive.effective_spare_ratio());
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    );
    // The largest drive the presets build: 64 dies of 256 Gbit behind the E12 (1,920 GB).
    let big = presets::find("e12")
        .expect("e12 preset")
        .drive_with_dies(FILL_BENCH_DIES);
    let fill_ms = median(
        (0..REPEATS)
            .map(|_| {
                let t = Instant::now();
                let _ = drive_state::fill(&big);
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    );
    // The drive over time as the page runs it: steps of the page's work budget.
    let octane = presets::find("octane")
        .and_then(|p| p.drive_for_capacity_gb(128.0).ok())
        .expect("the Octane 128 GB drive");
    // Steps, the 99th percentile step (the longest is mostly the machine's scheduler), total.
    let steps = |step: &mut dyn FnMut() -> bool| {
        let mut times_ms = Vec::new();
        let t = Instant::now();
        loop {
            let s = Instant::now();
            let done = step();
            times_ms.push(s.elapsed().as_secs_f64() * 1e3);
            if done {
                let total = t.elapsed().as_secs_f64() * 1e3;
                times_ms.sort_by(f64::total_cmp);
                let p99 = times_ms[(times_ms.len() - 1) * 99 / 100];
                return (times_ms.len(), p99, total);
            }
        }
    };
    let budget = drive_state::WORK_UNITS_PER_STEP;
    let mut torture = drive_state::TortureRun::new(&octane, drive_state::REVIEW_TORTURE_MINUTES)
        .expect("the torture run is valid");
    let (torture_steps, torture_step_ms, torture_ms) =
        steps(&mut || torture.step(budget).is_some());
    let mut rates = drive_state::CacheRatesRun::new(&octane).expect("the rates run is valid");
    let (rates_steps, rates_step_ms, rates_ms) = steps(&mut || rates.step(budget).is_some());
    let round2 = |ms: f64| (ms * 100.0).round() / 100.0;
    let out = serde_json::json!({
        "sim_ios_per_s": rate.round(),
        "qd_sweep_9_points_ms": round2(sweep_ms),
        "steady_state_ms": round2(steady_ms),
        "whole_drive_fill_ms": round2(fill_ms),
        "whole_drive_fill_gb": big.user_bytes() / 1e9,
        "drive_time_octane_128gb": {
            "work_units_per_step": budget,
            "torture_steps": torture_steps,
            "torture_p99_step_ms": (torture_step_ms * 1000.0).round() / 1000.0,
            "torture_total_ms": torture_ms.round(),
            "fill_rates_steps": rates_steps,
            "fill_rates_p99_step_ms": (rates_step_ms * 1000.0).round() / 1000.0,
            "fill_rates_total_ms": rates_ms.round(),
        },
        "note": "medians of 7 runs; 4 KiB random reads, E18DC 32 dies; sweep at 20000 measured I/Os per point; fill: E12 with 64 dies, from empty; drive_time: the page's sliced runs, one step per budget",
    });
    serde_json::to_string_pretty(&out).expect("plain JSON values") + "\n"
}
