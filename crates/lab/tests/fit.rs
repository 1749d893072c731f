//! `lab fit`: the documented JSON, with and without cross-validation, and a malformed data file
//! refused with exit status 2 and a message naming the line.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{lab, TestResult};

use std::path::PathBuf;

use parallelism_model::calibration::{self, HEADER};
use parallelism_model::presets;

#[test]
fn lab_fit_prints_the_documented_json_and_loo_adds_the_cross_validation() -> TestResult {
    let cell_keys = [
        "capacity_gb",
        "rw",
        "bs",
        "iodepth",
        "rate_iops",
        "rwmixread",
        "metric",
        "measured",
        "model",
        "err",
    ];
    let check_cells = |cells: &serde_json::Value| {
        let cells = cells.as_array().expect("cells is an array");
        assert_eq!(cells.len(), calibration::e18dc().unwrap().len());
        for c in cells {
            let keys: Vec<&str> = c.as_object().unwrap().keys().map(String::as_str).collect();
            let mut want = cell_keys.to_vec();
            want.sort();
            let mut keys = keys;
            keys.sort();
            assert_eq!(keys, want);
            let rw = c["rw"].as_str().unwrap();
            assert!(
                ["randread", "randwrite", "read", "write"].contains(&rw),
                "{rw}"
            );
            let metric = c["metric"].as_str().unwrap();
            assert!(["iops", "mb_s", "latency_ms"].contains(&metric), "{metric}");
            assert!(c["iodepth"].is_u64() || c["iodepth"] == "peak");
            let (measured, model) = (
                c["measured"].as_f64().unwrap(),
                c["model"].as_f64().unwrap(),
            );
            let err = c["err"].as_f64().unwrap();
            assert!((err - (model / measured - 1.0)).abs() < 1e-12);
        }
        assert!(cells.iter().any(|c| c["iodepth"] == "peak"));
        assert!(cells.iter().any(|c| c["bs"] == 131_072));
    };

    let o = lab(&[
        "fit", "--preset", "e18dc", "--format", "json", "--ios", "2000",
    ])?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let params = r["params"].as_object().expect("params is an object");
    let preset = presets::find("e18dc").unwrap();
    assert_eq!(params.len(), preset.fitted.len());
    for f in preset.fitted {
        let v = params[&f.param.to_string()].as_f64().unwrap();
        assert!((f.lo..=f.hi).contains(&v), "{}: {v}", f.param);
    }
    check_cells(&r["cells"]);
    // The summary is the printed cells' own: the worst of their absolute errors.
    let worst = r["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["err"].as_f64().unwrap().abs())
        .fold(0.0, f64::max);
    assert_eq!(r["max_err"].as_f64().unwrap(), worst);
    assert!(r.get("loo").is_none(), "no cross-validation unless asked");

    let o = lab(&["fit", "--format", "json", "--ios", "2000", "--loo"])?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let loo = &r["loo"];
    for key in ["max_err", "mean_err"] {
        assert!(loo[key].as_f64().unwrap() >= 0.0, "{key}");
    }
    check_cells(&loo["cells"]);
    Ok(())
}

#[test]
fn a_malformed_data_file_exits_with_status_2_and_names_the_line() -> TestResult {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let row = "480,random,4KiB,100,1,13095,,0.075";
    for (name, text, says) in [
        ("empty", String::new(), "line 1"),
        (
            "wrong-header",
            format!("# a comment\ncapacity,workload,block\n{row}\n"),
            "line 2: expected the header",
        ),
        (
            "bad-number",
            format!("{HEADER}\n{row}\n480,random,4KiB,100,32,13x,,\n"),
            "line 3: iops '13x'",
        ),
        (
            "unknown-workload",
            format!("{HEADER}\n# c\n480,zigzag,4KiB,100,1,13095,,\n"),
            "line 3: unknown workload 'zigzag'",
        ),
    ] {
        let path = dir.join(format!("fit-{name}.csv"));
        std::fs::write(&path, text).unwrap();
        let o = lab(&["fit", "--preset", "e18dc", "--data", path.to_str().unwrap()])?;
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        let first = err.lines().next().unwrap_or_default();
        assert!(first.contains(says), "{name}: {err}");
        assert!(first.contains(path.to_str().unwrap()), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
    let o = lab(&["fit", "--data", "/no/such/file.csv"])?;
    assert_eq!(o.status.code(), Some(2));
    let o = lab(&["fit", "--preset", "e12"])?;
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--data"), "{err}");
    Ok(())
}
