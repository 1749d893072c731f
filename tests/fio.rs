//! The fio bridge against the real fio (Debian's package): the lab's job file runs, and fio's
//! JSON output of it imports as the points the job file asked for.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;
use std::process::Command;

use parallelism_lab::fio::{job_file, parse_output};
use parallelism_lab::model::{Rw, Workload};

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fio");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn run_fio(job: &str, name: &str) -> String {
    let job_path = scratch(&format!("{name}.fio"));
    std::fs::write(&job_path, job).unwrap();
    let out = Command::new("fio")
        .arg(&job_path)
        .arg("--output-format=json")
        .output()
        .expect("fio is installed (./dev.sh test installs Debian's fio)");
    assert!(
        out.status.success(),
        "fio failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The exported job file, made small and quick, aimed at a scratch file.
fn quick(job: &str, data: &std::path::Path) -> String {
    job.lines()
        .map(|l| match l.split('=').next() {
            Some("filename") => format!("filename={}", data.display()),
            Some("size") => "size=16M".to_string(),
            Some("runtime") => "runtime=1".to_string(),
            Some("ramp_time") => "ramp_time=0".to_string(),
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_exported_job_file_runs_in_fio_and_its_output_imports_as_one_point_per_depth() {
    let w = Workload {
        rw: Rw::RandRw,
        rwmixread: 70,
        bs_bytes: 4096,
        iodepth: 1,
    };
    let job = quick(&job_file(&w, &[1, 8]), &scratch("data.bin"));
    let json = run_fio(&job, "randrw");
    let points = parse_output(&json).expect("fio's own output imports");
    assert_eq!(points.len(), 2);
    assert_eq!(points.iter().map(|p| p.iodepth).collect::<Vec<_>>(), [1, 8]);
    for p in &points {
        assert_eq!(p.rw, Some(Rw::RandRw));
        assert_eq!(p.bs_bytes, Some(4096));
        assert!(
            p.iops > 0.0 && p.bw_mb_s > 0.0 && p.lat_mean_us > 0.0,
            "{p:?}"
        );
        assert!((40.0..100.0).contains(&p.read_percent), "{p:?}");
    }
}

#[test]
fn truncated_real_output_is_refused_with_a_reason() {
    let w = Workload {
        rw: Rw::RandRead,
        rwmixread: 100,
        bs_bytes: 4096,
        iodepth: 4,
    };
    let json = run_fio(
        &quick(&job_file(&w, &[4]), &scratch("data2.bin")),
        "randread",
    );
    assert_eq!(parse_output(&json).unwrap().len(), 1);
    for cut in [json.len() / 3, json.len() / 2, json.len() - 3] {
        let e = parse_output(&json[..cut]).unwrap_err().to_string();
        assert!(e.contains("fio output"), "{e}");
    }
}
