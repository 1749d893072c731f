//! The command-line twin, run as a real process.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;
use std::process::{Command, Output};

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lab"))
        .args(args)
        .output()
        .expect("lab runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8")
}

#[test]
fn sweep_prints_one_json_object_per_queue_depth_with_the_documented_keys() {
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
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let points: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    let points = points.as_array().expect("an array");
    assert_eq!(points.len(), 3);
    for (p, qd) in points.iter().zip([1, 4, 32]) {
        assert_eq!(p["iodepth"], qd);
        for key in ["iops", "bw_mb_s", "lat_mean_us", "lat_p99_us"] {
            assert!(p[key].as_f64().unwrap() > 0.0, "{key}");
        }
        assert!(p["bottleneck"].is_string());
    }
    assert!(points[2]["iops"].as_f64() > points[0]["iops"].as_f64());
}

#[test]
fn csv_and_table_formats_carry_the_same_points() {
    let csv = stdout(&lab(&[
        "sweep",
        "--iodepth",
        "1,8",
        "--ios",
        "1000",
        "--format",
        "csv",
    ]));
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(csv.starts_with("iodepth,read_percent,iops,bw_mb_s"));
    let table = stdout(&lab(&["sweep", "--iodepth", "1,8", "--ios", "1000"]));
    assert!(
        table.contains("limited by") && table.lines().count() == 3,
        "{table}"
    );
}

#[test]
fn a_mixed_sweep_covers_eleven_read_shares() {
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
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let points: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let shares: Vec<u64> = points
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["read_percent"].as_u64().unwrap())
        .collect();
    assert_eq!(shares, (0..=100).step_by(10).collect::<Vec<u64>>());
}

#[test]
fn presets_lists_every_preset_id() {
    let out = stdout(&lab(&["presets"]));
    for id in ["e18dc", "e12", "e12c", "e8", "e8t", "e7", "octane"] {
        assert!(
            out.lines().any(|l| l.starts_with(id)),
            "{id} missing:\n{out}"
        );
    }
}

#[test]
fn calibrate_prints_every_reference_cell_with_its_error() {
    let out = stdout(&lab(&["calibrate", "--format", "csv"]));
    assert!(out.starts_with("cell,measured,model,error_pct"));
    assert_eq!(out.lines().count(), 23, "{out}");
}

#[test]
fn bad_arguments_exit_with_status_2_and_say_what_is_wrong() {
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
    ] {
        let o = lab(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn fill_and_torture_print_the_documented_json() {
    let o = lab(&[
        "fill",
        "--preset",
        "e12",
        "--capacity-gb",
        "960",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let points: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
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
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    for key in ["fresh_mb_s", "after_torture_mb_s", "after_trim_mb_s"] {
        assert!(r[key].as_f64().unwrap() > 0.0, "{key}");
    }
    assert!(!r["series"].as_array().unwrap().is_empty());

    let table = stdout(&lab(&[
        "burst", "--preset", "e12", "--idle-s", "10", "--bursts", "3",
    ]));
    assert_eq!(table.lines().count(), 4, "{table}");
}

#[test]
fn drive_state_commands_refuse_bad_numbers_with_status_2() {
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
        let o = lab(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn fio_job_prints_a_job_file_and_import_reads_fio_output_or_says_why_not() {
    let job = stdout(&lab(&[
        "fio-job",
        "--rw",
        "randwrite",
        "--bs",
        "128k",
        "--iodepth",
        "1,16",
    ]));
    assert!(job.contains("rw=randwrite") && job.contains("bs=128k") && job.contains("iodepth=16"));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let truncated = dir.join("truncated-fio.json");
    std::fs::write(&truncated, "{\"jobs\": [").unwrap();
    let o = lab(&["import", truncated.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err.contains("cannot read fio output: not valid JSON"),
        "{err}"
    );
    let o = lab(&["import", "/no/such/file.json"]);
    assert_eq!(o.status.code(), Some(2));
}
