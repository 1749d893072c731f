//! The command-line twin, run as a real process.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{lab, stdout, TestResult};

use std::path::PathBuf;

#[test]
fn sweep_prints_one_json_object_per_queue_depth_with_the_documented_keys() -> TestResult {
    let o = lab(&[
        "sweep",
        "--preset",
        "e18dc",
        "--capacity-gb",
        "960",
        "--rw",
        "randread",
        "--bs",
        "4k",
        "--iodepth",
        "1,4,32",
        "--ios",
        "2000",
        "--format",
        "json",
    ])?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let points: serde_json::Value = serde_json::from_str(&stdout(&o)?).expect("valid JSON");
    let points = points.as_array().expect("an array");
    assert_eq!(points.len(), 3);
    for (p, iodepth) in points.iter().zip([1, 4, 32]) {
        assert_eq!(p["iodepth"], iodepth);
        for key in ["iops", "bw_mb_s", "lat_mean_us", "lat_p99_us"] {
            assert!(p[key].as_f64().unwrap() > 0.0, "{key}");
        }
        assert!(p["bottleneck"].is_string());
    }
    assert!(points[2]["iops"].as_f64() > points[0]["iops"].as_f64());
    Ok(())
}

#[test]
fn csv_and_table_formats_carry_the_same_points() -> TestResult {
    let csv = stdout(&lab(&[
        "sweep",
        "--iodepth",
        "1,8",
        "--ios",
        "1000",
        "--format",
        "csv",
    ])?)?;
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(csv.starts_with("iodepth,read_percent,iops,bw_mb_s"));
    let table = stdout(&lab(&["sweep", "--iodepth", "1,8", "--ios", "1000"])?)?;
    assert!(
        table.contains("limited by") && table.lines().count() == 3,
        "{table}"
    );
    Ok(())
}

#[test]
fn a_mixed_sweep_covers_eleven_read_shares() -> TestResult {
    let o = lab(&[
        "sweep",
        "--rw",
        "randrw",
        "--mix-sweep",
        "--iodepth",
        "4",
        "--ios",
        "500",
        "--format",
        "json",
    ])?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let points: serde_json::Value = serde_json::from_str(&stdout(&o)?).unwrap();
    let shares: Vec<u64> = points
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["read_percent"].as_u64().unwrap())
        .collect();
    assert_eq!(shares, (0..=100).step_by(10).collect::<Vec<u64>>());
    Ok(())
}

#[test]
fn a_rate_sweep_draws_latency_against_offered_load_up_to_saturation() -> TestResult {
    // 8 dies of the E18DC serve about 178k random 4 KiB reads a second.
    let o = lab(&[
        "sweep",
        "--preset",
        "e18dc",
        "--dies",
        "8",
        "--iodepth",
        "1,64",
        "--rate-iops",
        "10000,100000,400000",
        "--rate-process",
        "poisson",
        "--ios",
        "4000",
        "--format",
        "json",
    ])?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows: Vec<serde_json::Value> = serde_json::from_str(&stdout(&o)?).unwrap();
    let field = |i: usize, k: &str| rows[i][k].clone();
    assert_eq!(rows.len(), 3);
    for (i, offered) in [10_000.0, 100_000.0, 400_000.0].into_iter().enumerate() {
        assert_eq!(field(i, "offered_iops"), offered);
        assert_eq!(field(i, "iodepth"), 64, "the deepest listed depth");
    }
    assert_eq!(field(0, "saturated"), false);
    assert_eq!(field(2, "saturated"), true);
    let mean = |i: usize| field(i, "lat_mean_us").as_f64().unwrap();
    assert!(mean(0) < mean(1) && mean(1) < mean(2));
    // The capacity is the closed loop's rate at the allowed depth; the overload achieves it.
    let capacity = field(0, "capacity_iops").as_f64().unwrap();
    let closed = lab(&[
        "sweep",
        "--preset",
        "e18dc",
        "--dies",
        "8",
        "--iodepth",
        "64",
        "--ios",
        "4000",
        "--format",
        "json",
    ])?;
    let closed: Vec<serde_json::Value> = serde_json::from_str(&stdout(&closed)?).unwrap();
    assert_eq!(closed[0]["iops"].as_f64(), Some(capacity));
    let achieved = field(2, "iops").as_f64().unwrap();
    assert!(
        (achieved / capacity - 1.0).abs() < 0.05,
        "{achieved} vs {capacity}"
    );
    let table = stdout(&lab(&[
        "sweep",
        "--dies",
        "8",
        "--rate-iops",
        "1e6",
        "--ios",
        "1000",
    ])?)?;
    assert!(table.contains("saturated"), "{table}");
    assert!(table.starts_with("capacity at depth 256: "), "{table}");
    // One saturated rate brackets no knee, and the table says so rather than guessing.
    assert!(table.contains("knee: not within these rates"), "{table}");
    assert_eq!(
        field(0, "knee_iops"),
        serde_json::Value::Null,
        "two calm rates bracket no knee"
    );
    Ok(())
}

#[test]
fn presets_lists_every_preset_id() -> TestResult {
    let out = stdout(&lab(&["presets"])?)?;
    for id in ["e18dc", "e12", "e12c", "e8", "e8t", "e7", "octane"] {
        assert!(
            out.lines().any(|l| l.starts_with(id)),
            "{id} missing:\n{out}"
        );
    }
    Ok(())
}

#[test]
fn calibrate_prints_every_reference_cell_with_its_error() -> TestResult {
    let out = stdout(&lab(&["calibrate", "--format", "csv"])?)?;
    assert!(out.starts_with("cell,measured,model,error_pct"));
    assert_eq!(out.lines().count(), 24, "{out}");
    Ok(())
}

/// `lab validate` prints the model's scorecard (`parallelism_model::scorecard`): every figure
/// with its verdict, the summary line, and the time it took; the CSV and JSON carry the same
/// rows and verdicts.
#[test]
fn validate_prints_every_figure_its_verdict_the_summary_and_its_time() -> TestResult {
    let table = stdout(&lab(&["validate"])?)?;
    let summary = table
        .lines()
        .find(|l| l.contains("figures within their bands"))
        .expect("a summary line");
    assert!(summary.contains(", 0 failing"), "{summary}");
    assert!(summary.contains("mean error E18DC article"), "{summary}");
    let timed = table.lines().last().unwrap();
    assert!(
        timed.contains("figures scored in") && timed.ends_with(" s"),
        "{timed}"
    );
    let csv = stdout(&lab(&["validate", "--format", "csv"])?)?;
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert!(csv.starts_with("id,source,drive,figure,procedure,published,model,error,band,verdict"));
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&lab(&["validate", "--format", "json"])?)?).unwrap();
    let json_rows = json["rows"].as_array().unwrap();
    assert_eq!(json_rows.len(), rows.len());
    assert_eq!(json["summary"]["failing"], 0);
    assert_eq!(json["summary_line"].as_str(), Some(summary));
    // The QD1 sequential reads of the article that names the lab, in every format.
    let id = "e18dc-1920-gb-read-128-kib-qd1-mb-s";
    assert!(
        rows.iter()
            .any(|r| r.starts_with(id) && r.ends_with(",holds,")),
        "{csv}"
    );
    assert!(table.contains(id));
    assert!(json_rows
        .iter()
        .any(|r| r["id"] == id && r["verdict"] == "holds"));
    Ok(())
}

#[test]
fn bad_arguments_exit_with_status_2_and_say_what_is_wrong() -> TestResult {
    for (args, says) in [
        (&["sweep", "--iodepth", "0"][..], "--iodepth '0'"),
        (&["sweep", "--iodepth", "1,,2"][..], "--iodepth ''"),
        (&["sweep", "--bs", "3k"][..], "block size"),
        (
            &["sweep", "--rw", "randomread"][..],
            "unknown --rw 'randomread'",
        ),
        (&["sweep", "--preset", "nope"][..], "unknown preset 'nope'"),
        (
            &["sweep", "--capacity-gb", "abc"][..],
            "--capacity-gb expects a number",
        ),
        (&["sweep", "--capacity-gb", "1e12"][..], "capacity (GB)"),
        (&["sweep", "--dies", "0"][..], "--dies 0"),
        (
            &["sweep", "--dies", "4", "--capacity-gb", "480"][..],
            "not both",
        ),
        (&["sweep", "--state", "dirty"][..], "unknown --state"),
        (&["sweep", "--rwmixread", "101"][..], "rwmixread 101"),
        (&["sweep", "--ios", "5"][..], "measured I/Os 5"),
        (&["sweep", "--format", "xml"][..], "unknown format 'xml'"),
        (
            &["sweep", "--frobnicate", "1"][..],
            "unknown option --frobnicate",
        ),
        (&["sweep", "--iodepth"][..], "--iodepth needs a value"),
        (&["sweep", "stray"][..], "unexpected argument 'stray'"),
        (&["launch"][..], "unknown command 'launch'"),
        (&["sweep", "--rate-iops", "1e3,x"][..], "'x' is not a rate"),
        (&["sweep", "--rate-iops", "0"][..], "rate (IOPS) 0"),
        (
            &["sweep", "--rate-iops", "1000", "--rate-process", "bursty"][..],
            "unknown --rate-process 'bursty'",
        ),
        (&["sweep", "--rate-process", "poisson"][..], "--rate-iops"),
    ] {
        let o = lab(args)?;
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    Ok(())
}

#[test]
fn fill_and_torture_print_the_documented_json() -> TestResult {
    let o = lab(&[
        "fill",
        "--preset",
        "e12",
        "--capacity-gb",
        "960",
        "--format",
        "json",
    ])?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let points: serde_json::Value = serde_json::from_str(&stdout(&o)?).unwrap();
    let points = points.as_array().unwrap();
    assert!(points.len() > 100);
    assert!(points
        .iter()
        .all(|p| p["gb_written"].is_f64() && p["mb_s"].as_f64().unwrap() > 0.0));

    let o = lab(&[
        "torture",
        "--preset",
        "octane",
        "--capacity-gb",
        "128",
        "--format",
        "json",
    ])?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: serde_json::Value = serde_json::from_str(&stdout(&o)?).unwrap();
    for key in ["fresh_mb_s", "after_torture_mb_s", "after_trim_mb_s"] {
        assert!(r[key].as_f64().unwrap() > 0.0, "{key}");
    }
    assert!(!r["series"].as_array().unwrap().is_empty());

    let table = stdout(&lab(&[
        "burst", "--preset", "e12", "--idle-s", "10", "--bursts", "3",
    ])?)?;
    assert_eq!(table.lines().count(), 4, "{table}");
    Ok(())
}

#[test]
fn drive_state_commands_refuse_bad_numbers_with_status_2() -> TestResult {
    for (args, says) in [
        (&["burst", "--idle-s", "-5"][..], "idle time"),
        (
            &["burst", "--burst-gb", "x"][..],
            "--burst-gb expects a number",
        ),
        (
            &["torture", "--minutes", "inf"][..],
            "--minutes expects a number",
        ),
        (&["fill", "--preset", "e99"][..], "unknown preset"),
    ] {
        let o = lab(args)?;
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    Ok(())
}

#[test]
fn fio_job_prints_a_job_file_and_import_reads_fio_output_or_says_why_not() -> TestResult {
    let job = stdout(&lab(&[
        "fio-job",
        "--rw",
        "randwrite",
        "--bs",
        "128k",
        "--iodepth",
        "1,16",
    ])?)?;
    assert!(job.contains("rw=randwrite") && job.contains("bs=128k") && job.contains("iodepth=16"));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let truncated = dir.join("truncated-fio.json");
    std::fs::write(&truncated, "{\"jobs\": [").unwrap();
    let o = lab(&["import", truncated.to_str().unwrap()])?;
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err.contains("cannot read fio output: not valid JSON"),
        "{err}"
    );
    let o = lab(&["import", "/no/such/file.json"])?;
    assert_eq!(o.status.code(), Some(2));
    Ok(())
}

/// The error as `lab` prints it: one `lab: ` line, then the hint, nothing on stdout.
fn refusal(args: &[&str]) -> TestResult<String> {
    let o = lab(args)?;
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}: {}", stdout(&o)?);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{args:?}: {err}");
    assert!(lines[0].starts_with("lab: "), "{args:?}: {err}");
    assert_eq!(lines[1], "Run `lab --help` for usage.", "{args:?}");
    Ok(lines[0].to_string())
}

#[test]
fn key_equals_value_and_key_space_value_give_the_same_output() -> TestResult {
    let spaced = lab(&[
        "sweep",
        "--preset",
        "e12",
        "--capacity-gb",
        "480",
        "--rw",
        "randrw",
        "--rwmixread",
        "30",
        "--bs",
        "16k",
        "--iodepth",
        "1,8",
        "--state",
        "fob",
        "--seed",
        "3",
        "--ios",
        "500",
        "--format",
        "csv",
    ])?;
    let joined = lab(&[
        "sweep",
        "--preset=e12",
        "--capacity-gb=480",
        "--rw=randrw",
        "--rwmixread=30",
        "--bs=16k",
        "--iodepth=1,8",
        "--state=fob",
        "--seed=3",
        "--ios=500",
        "--format=csv",
    ])?;
    assert!(
        spaced.status.success(),
        "{}",
        String::from_utf8_lossy(&spaced.stderr)
    );
    assert_eq!(stdout(&spaced)?.lines().count(), 3, "{}", stdout(&spaced)?);
    assert_eq!(stdout(&spaced)?, stdout(&joined)?);

    let spaced = lab(&["burst", "--dies", "8", "--idle-s", "5", "--bursts", "2"])?;
    let joined = lab(&["burst", "--dies=8", "--idle-s=5", "--bursts=2"])?;
    assert!(
        spaced.status.success(),
        "{}",
        String::from_utf8_lossy(&spaced.stderr)
    );
    assert_eq!(stdout(&spaced)?, stdout(&joined)?);
    Ok(())
}

#[test]
fn capacity_and_dies_together_are_refused_whichever_comes_first() -> TestResult {
    for args in [
        &["sweep", "--capacity-gb", "480", "--dies", "8"][..],
        &["fill", "--dies=8", "--capacity-gb=480"][..],
        &[
            "torture",
            "--preset",
            "octane",
            "--dies",
            "4",
            "--capacity-gb",
            "128",
        ][..],
    ] {
        let line = refusal(args)?;
        assert!(
            line.contains("--capacity-gb") && line.contains("--dies") && line.contains("not both"),
            "{args:?}: {line}"
        );
    }
    Ok(())
}

#[test]
fn an_unknown_option_is_refused_by_name() -> TestResult {
    for (args, name) in [
        (&["sweep", "--frobnicate", "1"][..], "--frobnicate"),
        (&["fill", "--frobnicate=1"][..], "--frobnicate"),
        (&["calibrate", "--preset", "e12"][..], "--preset"),
        (&["fio-job", "--format", "json"][..], "--format"),
        (&["spec", "--bogus"][..], "--bogus"),
        (&["bench", "--ios", "100"][..], "--ios"),
    ] {
        let line = refusal(args)?;
        assert!(
            line.contains(&format!("unknown option {name}")),
            "{args:?}: {line}"
        );
    }
    Ok(())
}

#[test]
fn every_refusal_is_one_line_and_the_hint() -> TestResult {
    for args in [
        &["sweep", "--iodepth", "0"][..],
        &["sweep", "--iodepth"][..],
        &["sweep", "--bs", "3k"][..],
        &["sweep", "--format", "xml"][..],
        &["sweep", "--ios", "100", "--ios", "200"][..],
        &["sweep", "--dies", "0"][..],
        &["sweep", "stray"][..],
        &["launch"][..],
        &["import"][..],
        &["calibrate", "--loo=yes"][..],
        &["fit", "--format", "csv"][..],
    ] {
        refusal(args)?;
    }
    Ok(())
}

#[test]
fn help_comes_from_the_parser() -> TestResult {
    let o = lab(&["sweep", "--help"])?;
    assert_eq!(o.status.code(), Some(0));
    let help = stdout(&o)?;
    for option in [
        "--iodepth",
        "--capacity-gb",
        "--dies",
        "--mix-sweep",
        "--format",
    ] {
        assert!(help.contains(option), "{option} missing:\n{help}");
    }
    // The defaults printed are the ones the parser applies.
    assert!(
        help.contains("[default: 1,2,4,8,16,32,64,128,256]"),
        "{help}"
    );

    let o = lab(&["--help"])?;
    assert_eq!(o.status.code(), Some(0));
    let help = stdout(&o)?;
    for cmd in [
        "presets",
        "sweep",
        "calibrate",
        "fit",
        "spec",
        "fill",
        "burst",
        "torture",
        "fio-job",
        "import",
        "bench",
    ] {
        assert!(
            help.lines().any(|l| l.trim_start().starts_with(cmd)),
            "{cmd} missing:\n{help}"
        );
    }

    // Alone, `lab` prints the same help as a usage error (clap's arg_required_else_help).
    let o = lab(&[])?;
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("fio-job"));
    Ok(())
}

fn json_rows(args: &[&str]) -> TestResult<Vec<serde_json::Value>> {
    let o = lab(args)?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&o)?).map_err(|e| format!("valid JSON: {e}"))?;
    let rows = v.as_array().ok_or_else(|| format!("an array: {v}"))?;
    Ok(rows.clone())
}

#[test]
fn sweep_points_carry_watts_and_a_power_state_caps_the_deep_queue() -> TestResult {
    let sweep = |power: &[&str]| {
        let mut args = vec![
            "sweep",
            "--preset",
            "e12",
            "--capacity-gb",
            "960",
            "--state",
            "fob",
            "--iodepth",
            "1,256",
            "--ios",
            "2000",
            "--format",
            "json",
        ];
        args.extend_from_slice(power);
        json_rows(&args)
    };
    let ps0 = sweep(&[])?;
    for p in &ps0 {
        let (w, mbs) = (
            p["watts"].as_f64().unwrap(),
            p["mb_s_per_w"].as_f64().unwrap(),
        );
        assert!(w > 0.5 && w < 8.9, "{p}");
        assert!(
            (mbs - p["bw_mb_s"].as_f64().unwrap() / w).abs() < 1e-6,
            "{p}"
        );
        assert_eq!(p["power_budget_w"], 8.9, "PS0 by default");
    }
    assert!(
        ps0[1]["watts"].as_f64() > ps0[0]["watts"].as_f64(),
        "depth costs power"
    );
    let ps2 = sweep(&["--power-state", "ps2"])?;
    assert_eq!(ps2[1]["power_budget_w"], 1.8);
    assert_eq!(ps2[1]["bottleneck"], "power-budget");
    assert!(ps2[1]["iops"].as_f64().unwrap() < ps0[1]["iops"].as_f64().unwrap() * 0.3);
    let watts = sweep(&["--power-limit-w", "2.3"])?;
    let ps1 = sweep(&["--power-state", "ps1"])?;
    assert_eq!(watts[1]["iops"], ps1[1]["iops"], "2.3 W is PS1");
    Ok(())
}

#[test]
fn impossible_power_limits_are_refused_by_name() -> TestResult {
    for (args, says) in [
        (&["sweep", "--power-state", "ps9"][..], "--power-state"),
        (
            &["sweep", "--power-state", "ps1"][..],
            "has none, so give watts",
        ),
        (
            &["sweep", "--preset", "e12", "--power-limit-w", "1"][..],
            "power budget (W) 1",
        ),
        (&["sweep", "--power-limit-w", "-3"][..], "--power-limit-w"),
        (
            &["sweep", "--power-state", "ps1", "--power-limit-w", "3"][..],
            "not both",
        ),
        (
            &["idle", "--preset", "e18dc"][..],
            "no published idle power states",
        ),
        (
            &["idle", "--preset", "e12", "--think-us", "5,x"][..],
            "'x' is not an idle time",
        ),
    ] {
        let line = refusal(args)?;
        assert!(line.contains(says), "{args:?}: {line}");
    }
    Ok(())
}

#[test]
fn idle_prints_the_wake_up_once_per_idle_period() -> TestResult {
    let rows = |burst: &str| {
        json_rows(&[
            "idle",
            "--preset",
            "e12",
            "--think-us",
            "50000,500000,5000000",
            "--burst",
            burst,
            "--ios",
            "1000",
            "--format",
            "json",
        ])
    };
    let one = rows("1")?;
    let states: Vec<&str> = one.iter().map(|r| r["state"].as_str().unwrap()).collect();
    assert_eq!(
        states,
        ["ps0", "ps3", "ps4"],
        "100 ms idle enters PS3, 2 s PS4 (Linux APST)"
    );
    let wake: Vec<f64> = one.iter().map(|r| r["wake_us"].as_f64().unwrap()).collect();
    assert_eq!(wake, [0.0, 2_000.0, 25_000.0], "the E12's exit latencies");
    let idle_w = |r: &serde_json::Value, k: &str| r[k].as_f64().unwrap();
    assert_eq!(
        idle_w(&one[0], "idle_w_with_apst"),
        0.5,
        "50 ms: still PS0's idle draw"
    );
    assert!(idle_w(&one[2], "idle_w_with_apst") < 0.1 * idle_w(&one[2], "idle_w_without_apst"));
    let four = rows("4")?;
    for (a, b) in one.iter().zip(&four) {
        let service = a["lat_mean_us_without_apst"].as_f64().unwrap();
        let extra = |r: &serde_json::Value| r["lat_mean_us_with_apst"].as_f64().unwrap() - service;
        assert!(
            (extra(b) * 4.0 - extra(a)).abs() < 0.01,
            "a burst of four shares one wake-up"
        );
    }
    Ok(())
}

#[test]
fn a_sweep_printed_as_fio_output_imports_as_the_same_points() -> TestResult {
    let dir = scratch("as-fio")?;
    let file = dir.join("model.json");
    let sweep = [
        "sweep",
        "--preset",
        "e12",
        "--dies",
        "8",
        "--state",
        "fob",
        "--iodepth",
        "1,16",
        "--ios",
        "1000",
    ];
    let o = lab(&[&sweep[..], &["--as-fio"]].concat())?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::write(&file, &o.stdout).unwrap();
    let o = lab(&["import", file.to_str().unwrap(), "--format", "json"])?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let read: serde_json::Value = serde_json::from_str(&stdout(&o)?).expect("valid JSON");
    assert_eq!(read["format"], "json");
    let imported = read["points"].as_array().expect("the points").clone();
    let swept = json_rows(&[&sweep[..], &["--format", "json"]].concat())?;
    assert_eq!(imported.len(), 2);
    for (i, s) in imported.iter().zip(&swept) {
        assert_eq!(i["iodepth"], s["iodepth"]);
        let (a, b) = (i["iops"].as_f64().unwrap(), s["iops"].as_f64().unwrap());
        assert!((a - b).abs() < 1e-6 * b, "{i} against {s}");
    }
    Ok(())
}

#[test]
fn a_drive_text_sweeps_like_the_preset_it_names() -> TestResult {
    // A `drive=` text that changes only the die count is the preset at that die count.
    let common = [
        "sweep",
        "--iodepth",
        "1,32",
        "--ios",
        "1000",
        "--format",
        "json",
    ];
    let custom = json_rows(&[&common[..], &["--drive", "e12_d24"]].concat())?;
    let preset = json_rows(&[&common[..], &["--preset", "e12", "--dies", "24"]].concat())?;
    assert_eq!(custom, preset);
    let slower = json_rows(&[&common[..], &["--drive", "e12_d24_r130000"]].concat())?;
    let iops = |rows: &[serde_json::Value]| rows[0]["iops"].as_f64().unwrap();
    assert!(
        iops(&slower) < iops(&custom),
        "a slower read lowers QD1 IOPS"
    );

    let o = lab(&["sweep", "--drive", "e12_d0"])?;
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("d (dies) '0' is not a whole number in 1..=256"),
        "{err}"
    );
    let o = lab(&["sweep", "--drive", "e12_d8", "--dies", "4"])?;
    assert_eq!(o.status.code(), Some(2), "--drive and --dies are two sizes");
    Ok(())
}

#[test]
fn fit_reads_fio_output_and_prints_a_drive_link_that_sweeps_the_fitted_drive() -> TestResult {
    // Issue 17: fio output of a drive with known values (the model's own, through the fio
    // exporter), fitted back with its capacity known, prints every cell, the worst error and a
    // query whose drive= text `lab sweep --drive` takes.
    let dir = scratch("fit-fio")?;
    let truth = "e12_d16_r50000_p1400000_c2000_h8000_l800";
    let mut files = Vec::new();
    for (rw, bs, depths) in [("randread", "4k", "1,8,64"), ("read", "128k", "16")] {
        let o = lab(&[
            "sweep",
            "--drive",
            truth,
            "--state",
            "fob",
            "--rw",
            rw,
            "--bs",
            bs,
            "--iodepth",
            depths,
            "--ios",
            "2000",
            "--as-fio",
        ])?;
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let file = dir.join(format!("{rw}.json"));
        std::fs::write(&file, &o.stdout).unwrap();
        files.push(file.to_str().unwrap().to_string());
    }
    let mut args = vec![
        "fit",
        "--preset",
        "e12",
        "--capacity-gb",
        "480",
        "--ios",
        "2000",
    ];
    args.extend(["--format", "json", "--fio"]);
    args.extend(files.iter().map(String::as_str));
    let o = lab(&args)?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["cells"].as_array().unwrap().len(), 2 * 4);
    let worst = report["max_err"].as_f64().unwrap();
    assert!(worst < 0.05, "worst error {worst}");
    assert_eq!(report["params"]["link_efficiency"].as_f64(), Some(0.8));
    let query = report["query"].as_str().unwrap();
    assert!(query.starts_with("drive=e12_d16_"), "{query}");
    let drive = query
        .strip_prefix("drive=")
        .and_then(|q| q.split('&').next())
        .unwrap();
    let o = lab(&["sweep", "--drive", drive, "--iodepth", "1", "--ios", "500"])?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let normal = dir.join("normal.txt");
    std::fs::write(
        &normal,
        "qd1: (groupid=0, jobs=1): err= 0\n  read: IOPS=10k\n",
    )
    .unwrap();
    // The normal report is read too; this one's job lacks its bandwidth and latency.
    let o = lab(&["fit", "--preset", "e12", "--fio", normal.to_str().unwrap()])?;
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("line 1, job 'qd1': it completed no reads or writes"),
        "{err}"
    );
    Ok(())
}

/// A scratch folder of this test process's own, for the files a test writes.
/// A folder of one test's own files under the system's temporary folder, removed with them
/// when the test ends (also when it fails), so runs leave nothing behind.
struct Scratch(std::path::PathBuf);

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> TestResult<Scratch> {
    let dir = std::env::temp_dir().join(format!("lab-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(Scratch(dir))
}

#[test]
fn run_puts_a_job_files_jobs_side_by_side_until_a_stonewall() -> TestResult {
    let dir = scratch("run")?;
    let file = dir.join("mix.fio");
    std::fs::write(
        &file,
        "; a reader beside a writer, then a rate-limited reader in two clones\n\
         [global]\nioengine=libaio\ndirect=1\nbs=4k\n\n\
         [reader]\nrw=randread\niodepth=32\n\n\
         [writer]\nrw=randwrite\niodepth=32\n\n\
         [light]\nstonewall\nrw=randread\nrate_iops=20000\niodepth=16\nnumjobs=2\nverify=md5\n",
    )
    .unwrap();
    let args = |format: &str| {
        let path = file.to_str().unwrap().to_string();
        lab(&[
            "run", &path, "--dies", "8", "--ios", "4000", "--format", format,
        ])
    };
    let o = args("json")?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "one warning: {err}");
    assert!(err.contains("line 21: 'verify' is not modelled"), "{err}");
    let rows: Vec<serde_json::Value> = serde_json::from_str(&stdout(&o)?).unwrap();
    let jobs: Vec<(u64, &str)> = rows
        .iter()
        .map(|r| (r["group"].as_u64().unwrap(), r["job"].as_str().unwrap()))
        .collect();
    assert_eq!(
        jobs,
        [
            (1, "reader"),
            (1, "writer"),
            (2, "light (1/2)"),
            (2, "light (2/2)")
        ]
    );
    for clone in &rows[2..] {
        assert_eq!(clone["rate_iops"], 20_000.0);
        let iops = clone["iops"].as_f64().unwrap();
        assert!((iops / 20_000.0 - 1.0).abs() < 0.03, "{iops}");
    }
    let csv = stdout(&args("csv")?)?;
    assert_eq!(csv.lines().count(), 5, "{csv}");
    // --as-fio writes fio's JSON output, which `lab import` reads back to the same jobs.
    let as_fio = lab(&[
        "run",
        file.to_str().unwrap(),
        "--dies",
        "8",
        "--ios",
        "4000",
        "--as-fio",
    ])?;
    let json = dir.join("mix.json");
    std::fs::write(&json, stdout(&as_fio)?).unwrap();
    let o = lab(&["import", json.to_str().unwrap(), "--format", "json"])?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let read: serde_json::Value = serde_json::from_str(&stdout(&o)?).unwrap();
    let points = read["points"].as_array().unwrap();
    assert_eq!(points.len(), rows.len());
    for (p, r) in points.iter().zip(&rows) {
        assert_eq!(p["job"], r["job"]);
        let (a, b) = (p["iops"].as_f64().unwrap(), r["iops"].as_f64().unwrap());
        assert!((a / b - 1.0).abs() < 1e-9, "{a} vs {b}");
    }
    assert_eq!(points[1]["read_percent"], 0.0, "the writer");
    Ok(())
}

#[test]
fn the_job_files_fio_job_writes_run_unchanged() -> TestResult {
    let dir = scratch("fio-job-run")?;
    let file = dir.join("lab.fio");
    let job = lab(&["fio-job", "--rw", "randrw", "--iodepth", "1,32"])?;
    std::fs::write(&file, stdout(&job)?).unwrap();
    let o = lab(&[
        "run",
        file.to_str().unwrap(),
        "--dies",
        "8",
        "--ios",
        "4000",
        "--format",
        "json",
    ])?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows: Vec<serde_json::Value> = serde_json::from_str(&stdout(&o)?).unwrap();
    assert_eq!(
        rows.len(),
        2,
        "one group per depth, each reported as a group"
    );
    assert_eq!(rows[0]["iodepth"], 1);
    assert_eq!(rows[1]["iodepth"], 32);
    assert!(rows[0]["read_lat"].is_object() && rows[0]["write_lat"].is_object());
    assert!(rows[1]["iops"].as_f64() > rows[0]["iops"].as_f64());
    Ok(())
}

#[test]
fn a_job_stops_at_its_runtime_of_simulated_time() -> TestResult {
    // QD1 random reads on 8 dies of the E18DC take 80 µs each: in 1 s of simulated time about
    // 12,500, of which the first 2,000 warm the drive up; --ios asks for far more.
    let dir = scratch("runtime")?;
    let file = dir.join("runtime.fio");
    std::fs::write(&file, "[qd1]\nrw=randread\nruntime=1\n").unwrap();
    let o = lab(&[
        "run",
        file.to_str().unwrap(),
        "--dies",
        "8",
        "--ios",
        "1000000",
        "--format",
        "json",
    ])?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stderr.is_empty(), "runtime is honoured, not warned about");
    let rows: Vec<serde_json::Value> = serde_json::from_str(&stdout(&o)?).unwrap();
    let ios = rows[0]["ios"].as_f64().unwrap();
    let iops = rows[0]["iops"].as_f64().unwrap();
    assert!(
        (ios / (iops * 1.0) - 1.0).abs() < 0.2,
        "{ios} I/Os at {iops} IOPS"
    );
    assert!((9_000.0..11_500.0).contains(&ios), "{ios}");
    Ok(())
}

#[test]
fn run_refuses_bad_job_files_by_line_and_never_panics() -> TestResult {
    let dir = scratch("run-bad")?;
    let cases: [(&str, &[u8], &str); 5] = [
        (
            "bad.fio",
            b"[a]\nbs=3k\niodepth=0\n",
            "job file line 2: block size",
        ),
        ("empty.fio", b"", "no job sections"),
        ("binary.fio", b"\x7fELF\x00\x01\x02", "binary data"),
        ("outside.fio", b"[a]\nsize=200%\n", "line 2: size=200%"),
        (
            "range.fio",
            b"[a]\noffset=90%\nsize=20%\n",
            "inside the drive",
        ),
    ];
    for (name, text, says) in cases {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let o = lab(&["run", file.to_str().unwrap(), "--dies", "8"])?;
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(says), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
    let o = lab(&["run", dir.join("missing.fio").to_str().unwrap()])?;
    assert_eq!(o.status.code(), Some(2));
    // A 2 GB file (sparse) is refused before a byte of it is read.
    let huge = dir.join("huge.fio");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(2_000_000_000)
        .unwrap();
    for command in ["run", "import"] {
        let o = lab(&[command, huge.to_str().unwrap()])?;
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{command}: {err}");
        assert!(
            err.contains("2000.0 MB; this command reads files up to"),
            "{command}: {err}"
        );
    }
    Ok(())
}

/// The same three requests (a read, a 128 KiB write 100 µs later, a read 100 µs after that) in
/// each trace format `lab replay` reads, by file name.
const TRACES: [(&str, &str); 5] = [
    (
        "t.mqsim",
        "0 1 0 8 1\n100000 1 4096 256 0\n200000 1 80 8 1\n",
    ),
    (
        "t.blkparse",
        "  8,0    0        1     0.000000000  1  Q   R 0 + 8 [fio]\n\
         \x20 8,0    0        2     0.000100000  1  Q   W 4096 + 256 [fio]\n\
         \x20 8,0    0        3     0.000200000  1  Q   R 80 + 8 [fio]\n",
    ),
    (
        "t.iolog2",
        "fio version 2 iolog\n/f add\n/f open\n/f read 0 4096\n/f wait 100 0\n\
         /f write 2097152 131072\n/f wait 100 0\n/f read 40960 4096\n/f close\n",
    ),
    (
        "t.iolog3",
        "fio version 3 iolog\n0 /f add\n0 /f open\n0 /f read 0 4096\n\
         100 /f write 2097152 131072\n200 /f read 40960 4096\n210 /f close\n",
    ),
    (
        "t.csv",
        "128166372000000000,hm,1,Read,0,4096,10\n\
         128166372000001000,hm,1,Write,2097152,131072,10\n\
         128166372000002000,hm,1,Read,40960,4096,10\n",
    ),
];

#[test]
fn replay_reads_each_trace_format_and_measures_it_as_the_reviews_do() -> TestResult {
    let dir = scratch("replay")?;
    for (name, text) in TRACES {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let o = lab(&[
            "replay",
            file.to_str().unwrap(),
            "--dies",
            "8",
            "--format",
            "json",
        ])?;
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let r: serde_json::Value = serde_json::from_str(&stdout(&o)?).unwrap();
        assert_eq!(
            (r["reads"].clone(), r["writes"].clone()),
            (2.into(), 1.into()),
            "{name}"
        );
        // Three requests 100 µs apart: the replay spans the trace's 200 µs and more.
        let elapsed = r["elapsed_s"].as_f64().unwrap();
        assert!((200e-6..1e-3).contains(&elapsed), "{name}: {elapsed}");
        assert!(r["busy_s"].as_f64().unwrap() <= elapsed);
        assert!(r["energy_j"].as_f64().unwrap() > 0.0);
        assert!(r["read_lat"]["mean_us"].as_f64().unwrap() > 0.0);
    }
    let table = stdout(&lab(&[
        "replay",
        dir.join("t.mqsim").to_str().unwrap(),
        "--iodepth",
        "2",
    ])?)?;
    assert!(
        table.contains("3 requests (2 reads, 1 writes; mqsim)"),
        "{table}"
    );
    // Over time: 100 µs buckets of a 200 µs trace, and the buckets' I/Os add up to its three.
    let csv = stdout(&lab(&[
        "replay",
        dir.join("t.mqsim").to_str().unwrap(),
        "--series-ms",
        "0.1",
        "--format",
        "csv",
    ])?)?;
    assert!(
        csv.starts_with("start_s,iops,mb_s,lat_mean_us,mean_in_system"),
        "{csv}"
    );
    let ios: f64 = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse::<f64>().unwrap() * 1e-4)
        .sum();
    assert!((ios - 3.0).abs() < 1e-6, "{csv}");
    Ok(())
}

#[test]
fn replay_refuses_bad_traces_in_one_line_each_and_never_panics() -> TestResult {
    let dir = scratch("replay-bad")?;
    let big = dir.join("big.trace");
    // A sparse file past the cap: refused before a byte is read.
    std::fs::File::create(&big)
        .unwrap()
        .set_len((1 << 30) + 1)
        .unwrap();
    let cases: [(&str, &[u8], &str); 6] = [
        ("empty.trace", b"", "empty"),
        // The trace: its third request asks for 999,999,999 sectors (477 GiB).
        (
            "huge-request.trace",
            b"0 1 0 8 1\n1000 1 8 8 1\n2000 1 16 999999999 1\n",
            "trace line 3: a request of 511999999488 bytes is larger than 256 MiB",
        ),
        (
            "past-16-tib.trace",
            b"0 1 0 8 1\n1000 1 999999999999 8 1\n",
            "trace line 2: a request ending at byte 512000000003584 reaches past 16 TiB",
        ),
        ("binary.trace", b"\x7fELF\x00\x01\x02", "binary data"),
        (
            "bad.trace",
            b"0 1 0 8 1\n5 1 x 8 1\n",
            "trace line 2: start sector 'x'",
        ),
        (
            "untimed.iolog",
            b"fio version 2 iolog\n/f read 0 4096\n",
            "--iodepth",
        ),
    ];
    for (name, text, _) in cases {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let names = cases
        .iter()
        .map(|c| (c.0, c.2))
        .chain([("big.trace", "up to 1 GiB")]);
    for (name, says) in names {
        let o = lab(&["replay", dir.join(name).to_str().unwrap(), "--dies", "8"])?;
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(says), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
    Ok(())
}

#[test]
fn replay_wraps_requests_past_the_drives_end_and_skips_empty_ones_and_says_how_many() -> TestResult
{
    // On the 960 GB E12: sector 9,999,999,999 (5.1 TB) lies past the end; one request has no
    // bytes.
    let dir = scratch("replay-adjusted")?;
    let path = dir.join("odd.trace");
    std::fs::write(
        &path,
        "0 1 0 8 1\n1000 1 8 0 1\n2000 1 9999999999 8 1\n3000 1 9999999999 8 0\n",
    )
    .unwrap();
    let path = path.to_str().unwrap();
    let o = lab(&["replay", path, "--preset", "e12", "--capacity-gb", "960"])?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o)?;
    assert!(out.contains("3 requests (2 reads, 1 writes"), "{out}");
    assert!(
        out.contains(
            "adjusted       1 zero-length request skipped (they move no data); 2 requests past \
             the drive's end wrapped onto it"
        ),
        "{out}"
    );
    let o = lab(&["replay", path, "--preset", "e12", "--format", "json"])?;
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)?).expect("valid JSON");
    assert_eq!(
        (
            json["zero_length_skipped"].as_u64(),
            json["wrapped"].as_u64()
        ),
        (Some(1), Some(2))
    );
    Ok(())
}

#[test]
fn replay_generates_the_reviews_desktop_workloads() -> TestResult {
    let run = |gb: &str| -> TestResult<serde_json::Value> {
        let o = lab(&[
            "replay",
            "--workload",
            "desktop-light",
            "--scale",
            "0.05",
            "--preset",
            "octane",
            "--capacity-gb",
            gb,
            "--format",
            "json",
        ])?;
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        Ok(serde_json::from_str(&stdout(&o)?)?)
    };
    let (small, large) = (run("128")?, run("512")?);
    // 5% of Light's 372,630 reads and 459,709 writes.
    assert_eq!(small["requests"], 41_617);
    assert_eq!(small["requests"], large["requests"]);
    let rate = |r: &serde_json::Value| r["data_rate_mb_s"].as_f64().unwrap();
    assert!(rate(&small) < rate(&large) && rate(&small) > 0.8 * rate(&large));
    for (args, says) in [
        (&["replay"][..], "FILE"),
        (
            &["replay", "--workload", "desktop-medium"][..],
            "unknown --workload",
        ),
        (
            &["replay", "--workload", "desktop-light", "--scale", "2"][..],
            "--scale 2",
        ),
        (&["replay", "x.trace", "--scale", "0.5"][..], "--workload"),
    ] {
        let o = lab(args)?;
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    Ok(())
}

#[test]
fn review_runs_the_e12_suite_on_the_reviews_sample_and_prints_each_test() -> TestResult {
    let o = lab(&["review", "e12", "--ios", "2000", "--format", "json"])?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let tests: serde_json::Value = serde_json::from_str(&stdout(&o)?).expect("valid JSON");
    let tests = tests.as_array().expect("an array");
    assert_eq!(tests.len(), 10, "the review's ten synthetic tests");
    assert_eq!(tests[0]["test"], "burst-random-read");
    let sustained = &tests[2];
    assert_eq!(sustained["test"], "sustained-random-read");
    let iodepths: Vec<u64> = sustained["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["qd"].as_u64().unwrap())
        .collect();
    assert_eq!(iodepths, [1, 2, 4, 8, 16, 32]);
    assert!(sustained["score_mb_s"].as_f64().unwrap() > 0.0);
    assert!(sustained["review_says"]
        .as_str()
        .unwrap()
        .contains("scales up"));

    let table = stdout(&lab(&["review", "--ios", "2000"])?)?;
    assert!(
        table.contains("on the model's Phison PS5012-E12, 32 dies (960 GB)"),
        "{table}"
    );
    let other = lab(&[
        "review", "--preset", "e8t", "--ios", "2000", "--format", "csv",
    ])?;
    assert!(
        other.status.success(),
        "{}",
        String::from_utf8_lossy(&other.stderr)
    );
    assert!(stdout(&other)?.starts_with("test,qd,read_percent,mb_s,slc_read_share\n"));

    let bad = lab(&["review", "--preset", "e12", "--capacity-gb", "30"])?;
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("test span (GB)"));
    Ok(())
}

#[test]
fn anatomy_rows_add_up_to_their_latency_in_every_format() -> TestResult {
    // `--anatomy`: a row per point, direction and statistic whose parts add up to its
    // latency (to the printed rounding), the same points in JSON, and a table that names the
    // largest part of the p99.
    let args = |format: &str| {
        lab(&[
            "sweep",
            "--preset",
            "e12",
            "--rw",
            "randrw",
            "--iodepth",
            "1,32",
            "--ios",
            "3000",
            "--state",
            "steady",
            "--anatomy",
            "--format",
            format,
        ])
    };
    let csv = stdout(&args("csv")?)?;
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().ok_or("no header")?.split(',').collect();
    assert_eq!(
        header[..6],
        [
            "iodepth",
            "read_percent",
            "direction",
            "statistic",
            "requests",
            "latency_us"
        ]
    );
    assert_eq!(header.len(), 6 + 18, "every part has its column");
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows.len(),
        2 * 2 * 4,
        "two depths, reads and writes, four statistics"
    );
    for row in &rows {
        let latency: f64 = row[5].parse()?;
        let parts: f64 = row[6..]
            .iter()
            .map(|v| v.parse::<f64>())
            .sum::<Result<f64, _>>()?;
        assert!((parts - latency).abs() < 0.02, "{row:?}");
    }
    let json: serde_json::Value = serde_json::from_str(&stdout(&args("json")?)?)?;
    let points = json.as_array().ok_or("an array")?;
    assert_eq!(points.len(), 2);
    let p99 = &points[1]["anatomy"]["reads"]["p99"];
    assert!(p99["requests"].as_u64().ok_or("requests")? >= 1);
    assert!(p99["parts_us"]["sense"].as_f64().ok_or("sense")? > 0.0);
    let table = stdout(&args("table")?)?;
    assert!(table.contains("iodepth 32, read_percent 70"), "{table}");
    assert!(table.contains("at p99, "), "{table}");
    Ok(())
}

#[test]
fn anatomy_of_a_job_file_is_per_job_and_of_a_replay_is_the_trace_s() -> TestResult {
    let dir = scratch("anatomy")?;
    let file = dir.join("pair.fio");
    std::fs::write(
        &file,
        "[reader]\nrw=randread\nbs=4k\niodepth=1\n\n[writer]\nrw=randwrite\nbs=4k\niodepth=32\n",
    )?;
    let path = file.to_str().ok_or("path")?;
    let o = lab(&[
        "run",
        path,
        "--capacity-gb",
        "480",
        "--state",
        "steady",
        "--anatomy",
        "--format",
        "json",
    ])?;
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)?)?;
    let jobs = json.as_array().ok_or("an array")?;
    assert_eq!(jobs.len(), 2);
    assert_eq!(jobs[0]["job"], "reader");
    assert!(
        jobs[0]["anatomy"]["writes"].is_null(),
        "the reader wrote nothing"
    );
    assert!(
        jobs[1]["anatomy"]["reads"].is_null(),
        "the writer read nothing"
    );
    let o = lab(&[
        "replay",
        "--workload",
        "desktop-light",
        "--scale",
        "0.05",
        "--anatomy",
    ])?;
    let table = stdout(&o)?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        table.contains("reads") && table.contains("writes"),
        "{table}"
    );
    Ok(())
}
