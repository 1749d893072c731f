//! The fio bridge against the real fio (Debian's package): the lab's job file runs, and fio's
//! JSON output of it imports as the points the job file asked for.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::PathBuf;

use common::fio::{self, quick_job};

use parallelism_lab::fio::{job_file, parse_output};
use parallelism_lab::model::{Rw, Workload};

/// Scratch files of this test binary.
const AREA: &str = "fio";

fn scratch(name: &str) -> PathBuf {
    fio::scratch(AREA, name)
}

#[test]
fn the_exported_job_file_runs_in_fio_and_its_output_imports_as_one_point_per_depth() {
    let w = Workload {
        rw: Rw::RandRw,
        rwmixread: 70,
        bs_bytes: 4096,
        iodepth: 1,
    };
    let job = quick_job(&job_file(&w, &[1, 8]), &scratch("data.bin"));
    let json = fio::run_fio(AREA, "randrw", &job);
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
    let job = quick_job(&job_file(&w, &[4]), &scratch("data2.bin"));
    let json = fio::run_fio(AREA, "randread", &job);
    assert_eq!(parse_output(&json).unwrap().len(), 1);
    for cut in [json.len() / 3, json.len() / 2, json.len() - 3] {
        let e = parse_output(&json[..cut]).unwrap_err().to_string();
        assert!(e.contains("fio output"), "{e}");
    }
}
