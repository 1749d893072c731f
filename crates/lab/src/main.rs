//! `lab`: the command-line twin of the browser lab. It prints the same figures the page plots,
//! from the same model, so anything on screen can be reproduced, scripted and diffed.
//!
//! Every bad argument ends in a one-line message on stderr and exit status 2; nothing panics.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use parallelism_model::calibration;
use parallelism_model::config::{parse_block_size, MAX_IODEPTH};
use parallelism_model::drive_state;
use parallelism_model::fit::{self, FitOptions};
use parallelism_model::ftl;
use parallelism_model::presets::{self, Preset};
use parallelism_model::spec_sheet;
use parallelism_model::sweep::{self, SweepPoint, REVIEW_QDS};
use parallelism_model::{ConfigError, DriveSpec, DriveState, RunOptions, Rw, Workload};

const USAGE: &str = "\
usage: lab <command> [options]

commands:
  presets                      list the drives the model knows
  sweep                        run a queue-depth sweep (or a read-share sweep with --mix-sweep)
  calibrate                    the model against the published E18DC measurements
                               (--loo: also each cell's leave-one-out error; under a minute)
  fit                          fit a preset's fitted parameters to measurements
  spec                         consumer spec-sheet peaks against the fresh model (--preset, --format)
  fill                         whole-drive sequential fill from empty: speed against GB written
  burst                        bursts of sequential writes with idle time between them
  torture                      random-write torture, then TRIM: sequential write speed each time
  fio-job                      print a fio job file for the workload (--rw --bs --iodepth --rwmixread)
  import FILE                  read fio's JSON output (--output-format=json) and print its points
  bench                        print model speed figures as JSON

sweep options (fio's names where fio has one):
  --preset ID                  e18dc (default), e12, e12c, e8, e8t, e7, octane
  --capacity-gb N | --dies N   drive size (default: the preset's largest listed capacity)
  --rw NAME                    randread (default), randwrite, randrw, read, write, rw
  --bs SIZE                    4k (default) .. 1m
  --iodepth LIST               e.g. 1,4,32,256 (default 1,2,4,...,256)
  --rwmixread N                read percentage for randrw / rw (default 70)
  --mix-sweep                  sweep the read share 0..100% at the first --iodepth instead
  --state STATE                fob, seq-filled (default), steady
  --seed N, --ios N            generator seed (default 1), measured I/Os per point (default 20000)
  --format FMT                 table (default), csv, json

fit options:
  --preset ID                  the preset whose fitted parameters are chosen (default e18dc)
  --data FILE                  measurements as in e18dc-calibration.csv (header
                               capacity_gb,workload,block,read_pct,qd,iops,mb_s,lat_ms);
                               optional for e18dc, whose reference data is built in
  --loo                        add leave-one-out cross-validation (a refit per cell)
  --format FMT                 table (default) or json; --seed, --ios as for sweep

fill / burst / torture options: --preset, --capacity-gb | --dies, --format as above, and
  burst: --burst-gb N (default 32), --idle-s N (default 60), --bursts N (default 6)
  torture: --minutes N (default 20)
";

/// A command-line failure: the message to print and exit status 2.
struct Fail(String);

impl From<ConfigError> for Fail {
    fn from(e: ConfigError) -> Fail {
        Fail(e.to_string())
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(Fail(msg)) => {
            eprintln!("lab: {msg}");
            eprintln!("Run `lab --help` for usage.");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<String, Fail> {
    let Some((cmd, rest)) = args.split_first() else {
        return Ok(USAGE.to_string());
    };
    if cmd == "import" {
        let Some((file, rest)) = rest.split_first() else {
            return Err(Fail("import needs the path of fio's JSON output".into()));
        };
        let opts = Options::parse(rest)?;
        return import_cmd(file, &opts);
    }
    let opts = Options::parse(rest)?;
    match cmd.as_str() {
        "-h" | "--help" | "help" => Ok(USAGE.to_string()),
        "presets" => opts.done(presets_cmd(&opts)),
        "sweep" => sweep_cmd(&opts),
        "calibrate" => calibrate_cmd(&opts),
        "fit" => fit_cmd(&opts),
        "spec" => spec_cmd(&opts),
        "fill" => fill_cmd(&opts),
        "burst" => burst_cmd(&opts),
        "torture" => torture_cmd(&opts),
        "fio-job" => fio_job_cmd(&opts),
        "bench" => opts.done(Ok(bench_cmd())),
        other => Err(Fail(format!("unknown command '{other}'"))),
    }
}

/// `--key value` / `--key=value` / `--flag` options, each read at most once.
struct Options {
    values: HashMap<String, String>,
    used: std::cell::RefCell<Vec<String>>,
}

const FLAGS: [&str; 2] = ["mix-sweep", "loo"];

impl Options {
    fn parse(args: &[String]) -> Result<Options, Fail> {
        let mut values = HashMap::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let Some(key) = a.strip_prefix("--") else {
                return Err(Fail(format!("unexpected argument '{a}'")));
            };
            let (key, value) = match key.split_once('=') {
                Some((k, v)) => (k.to_string(), v.to_string()),
                None if FLAGS.contains(&key) => (key.to_string(), String::new()),
                None => {
                    let v = it
                        .next()
                        .ok_or_else(|| Fail(format!("--{key} needs a value")))?;
                    (key.to_string(), v.clone())
                }
            };
            if values.insert(key.clone(), value).is_some() {
                return Err(Fail(format!("--{key} given twice")));
            }
        }
        Ok(Options {
            values,
            used: Default::default(),
        })
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.used.borrow_mut().push(key.to_string());
        self.values.get(key).map(String::as_str)
    }

    fn flag(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    fn number<T: std::str::FromStr>(&self, key: &'static str) -> Result<Option<T>, Fail> {
        self.get(key)
            .map(|v| {
                v.trim()
                    .parse::<T>()
                    .map_err(|_| Fail(format!("--{key} expects a whole number, got '{v}'")))
            })
            .transpose()
    }

    /// Refuse options the command did not read, then pass its result through.
    fn done(&self, out: Result<String, Fail>) -> Result<String, Fail> {
        let used = self.used.borrow();
        let mut unknown: Vec<&String> = self.values.keys().filter(|k| !used.contains(k)).collect();
        unknown.sort();
        match unknown.first() {
            Some(k) => Err(Fail(format!("unknown option --{k} for this command"))),
            None => out,
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Table,
    Csv,
    Json,
}

fn format_of(opts: &Options) -> Result<Format, Fail> {
    match opts.get("format").unwrap_or("table") {
        "table" => Ok(Format::Table),
        "csv" => Ok(Format::Csv),
        "json" => Ok(Format::Json),
        other => Err(Fail(format!(
            "unknown format '{other}' (expected table, csv or json)"
        ))),
    }
}

fn presets_cmd(opts: &Options) -> Result<String, Fail> {
    let format = format_of(opts)?;
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
        return Ok(serde_json::to_string_pretty(&list).expect("plain JSON values") + "\n");
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
    Ok(out)
}

/// The consumer presets' spec-sheet peaks against the model's fresh drive.
fn spec_cmd(opts: &Options) -> Result<String, Fail> {
    let format = format_of(opts)?;
    let chosen: Vec<&Preset> = match opts.get("preset") {
        Some(id) => vec![presets::lookup(id)?],
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

fn drive_of(opts: &Options) -> Result<(&'static Preset, DriveSpec), Fail> {
    let preset = presets::lookup(opts.get("preset").unwrap_or("e18dc"))?;
    let dies: Option<u32> = opts.number("dies")?;
    let cap = opts.get("capacity-gb");
    let drive = match (dies, cap) {
        (Some(_), Some(_)) => {
            return Err(Fail(
                "give --capacity-gb or --dies, not both (capacity follows from dies)".into(),
            ))
        }
        (Some(d), None) => {
            if d == 0 || d > parallelism_model::config::MAX_DIES {
                return Err(Fail(format!(
                    "--dies {d} is out of range (allowed: 1..={})",
                    parallelism_model::config::MAX_DIES
                )));
            }
            preset.drive_with_dies(d)
        }
        (None, Some(c)) => {
            let gb: f64 = c
                .trim()
                .parse()
                .map_err(|_| Fail(format!("--capacity-gb expects a number, got '{c}'")))?;
            preset.drive_for_capacity_gb(gb)?
        }
        (None, None) => preset.drive_for_capacity_gb(f64::from(preset.default_capacity_gb()))?,
    };
    Ok((preset, drive))
}

fn run_options(opts: &Options) -> Result<RunOptions, Fail> {
    let mut o = RunOptions::default();
    if let Some(seed) = opts.number("seed")? {
        o.seed = seed;
    }
    if let Some(ios) = opts.number("ios")? {
        o.measured_ios = ios;
    }
    Ok(o)
}

fn sweep_cmd(opts: &Options) -> Result<String, Fail> {
    let (_, drive) = drive_of(opts)?;
    let (workload, qds) = workload_of(opts)?;
    let state_name = opts.get("state").unwrap_or("seq-filled");
    let state = DriveState::from_id(state_name).ok_or_else(|| {
        Fail(format!(
            "unknown --state '{state_name}' (expected fob, seq-filled or steady)"
        ))
    })?;
    let mix_sweep = opts.flag("mix-sweep");
    let options = run_options(opts)?;
    let format = format_of(opts)?;
    opts.done(Ok(String::new()))?;
    let points = if mix_sweep {
        sweep::over_read_share(&drive, workload, state, options, &sweep::MIX_STEPS)?
    } else {
        sweep::over_queue_depth(&drive, workload, state, options, &qds)?
    };
    Ok(render_points(&points, format))
}

fn parse_qds(list: &str) -> Result<Vec<u32>, Fail> {
    let qds = list
        .split(',')
        .map(|q| match q.trim().parse::<u32>() {
            Ok(n) if (1..=MAX_IODEPTH).contains(&n) => Ok(n),
            _ => Err(Fail(format!(
                "--iodepth '{q}' is not a queue depth (allowed: 1..={MAX_IODEPTH}, comma-separated)"
            ))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if qds.len() > 64 {
        return Err(Fail("--iodepth lists at most 64 depths".into()));
    }
    Ok(qds)
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

fn calibrate_cmd(opts: &Options) -> Result<String, Fail> {
    let options = run_options(opts)?;
    let format = format_of(opts)?;
    let loo = opts.flag("loo");
    opts.done(Ok(String::new()))?;
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

fn fit_cmd(opts: &Options) -> Result<String, Fail> {
    let preset = presets::lookup(opts.get("preset").unwrap_or("e18dc"))?;
    let data = opts.get("data");
    let loo = opts.flag("loo");
    let fit_options = FitOptions {
        run: run_options(opts)?,
        ..FitOptions::default()
    };
    let format = match format_of(opts)? {
        Format::Csv => return Err(Fail("lab fit prints --format table or json".into())),
        f => f,
    };
    opts.done(Ok(String::new()))?;
    let (source, cells) = match data {
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| Fail(format!("cannot read '{path}': {e}")))?;
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
    if format == Format::Json {
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

fn float(opts: &Options, key: &'static str, default: f64) -> Result<f64, Fail> {
    match opts.get(key) {
        None => Ok(default),
        Some(v) => v
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| Fail(format!("--{key} expects a number, got '{v}'"))),
    }
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).expect("plain JSON values") + "\n"
}

fn fill_cmd(opts: &Options) -> Result<String, Fail> {
    let (_, drive) = drive_of(opts)?;
    let format = format_of(opts)?;
    opts.done(Ok(String::new()))?;
    let report = drive_state::fill(&drive)?;
    Ok(match format {
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

fn burst_cmd(opts: &Options) -> Result<String, Fail> {
    let (_, drive) = drive_of(opts)?;
    let burst_gb = float(opts, "burst-gb", 32.0)?;
    let idle_s = float(opts, "idle-s", 60.0)?;
    let count: u32 = opts.number("bursts")?.unwrap_or(6);
    let format = format_of(opts)?;
    opts.done(Ok(String::new()))?;
    let points = drive_state::bursts(&drive, burst_gb, idle_s, count)?;
    Ok(match format {
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

fn torture_cmd(opts: &Options) -> Result<String, Fail> {
    let (_, drive) = drive_of(opts)?;
    let minutes = float(opts, "minutes", 20.0)?;
    let format = format_of(opts)?;
    opts.done(Ok(String::new()))?;
    let r = drive_state::torture(&drive, minutes)?;
    Ok(match format {
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

fn workload_of(opts: &Options) -> Result<(Workload, Vec<u32>), Fail> {
    let rw_name = opts.get("rw").unwrap_or("randread");
    let rw = Rw::from_fio_name(rw_name).ok_or_else(|| {
        Fail(format!(
            "unknown --rw '{rw_name}' (expected one of: {})",
            Rw::ALL.map(Rw::fio_name).join(", ")
        ))
    })?;
    let bs_bytes = parse_block_size(opts.get("bs").unwrap_or("4k"))?;
    let rwmixread: u8 = opts.number("rwmixread")?.unwrap_or(70);
    if rwmixread > 100 {
        return Err(Fail(format!(
            "--rwmixread {rwmixread} is out of range (allowed: 0..=100)"
        )));
    }
    let qds = match opts.get("iodepth") {
        None => REVIEW_QDS.to_vec(),
        Some(list) => parse_qds(list)?,
    };
    let workload = Workload {
        rw,
        rwmixread,
        bs_bytes,
        iodepth: qds[0],
    };
    Ok((workload, qds))
}

fn fio_job_cmd(opts: &Options) -> Result<String, Fail> {
    let (workload, qds) = workload_of(opts)?;
    opts.done(Ok(parallelism_model::fio::job_file(&workload, &qds)))
}

fn import_cmd(file: &str, opts: &Options) -> Result<String, Fail> {
    let format = format_of(opts)?;
    opts.done(Ok(String::new()))?;
    let bytes = std::fs::read(file).map_err(|e| Fail(format!("cannot read '{file}': {e}")))?;
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
