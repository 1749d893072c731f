//! The fio corpus (`tests/fixtures/fio`, its README says where each file comes from): real
//! output of fio 2.1 to 3.35 in every format it writes, made on this machine or published in
//! public repositories. Each test states what its files hold, as fio printed it (the job, the
//! depth the drive saw, the processes, IOPS, mean completion latency and the read share), and
//! checks the import reads exactly that. `lab import` and the page call the same
//! [`parse_output`], so this is each form's one test.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;

use parallelism_lab::fio::{parse_output, text_of, FioFormat, FioOutput};
use parallelism_lab::model::calibration::{Depth, Metric};
use parallelism_lab::model::custom::cells_from_fio;
use parallelism_lab::model::DriveState;

/// What a test or its helper returns: a corpus file it cannot read or parse is an error, not
/// a panic.
type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// What a file states of one job.
struct Job {
    name: &'static str,
    /// The most requests the drive had in flight: `numjobs x iodepth`.
    iodepth: u32,
    processes: u32,
    iops: f64,
    /// Mean completion latency, µs, weighted over the directions by I/Os.
    clat_us: f64,
    read_percent: f64,
}

const fn job(
    name: &'static str,
    iodepth: u32,
    processes: u32,
    iops: f64,
    clat_us: f64,
    read_percent: f64,
) -> Job {
    Job {
        name,
        iodepth,
        processes,
        iops,
        clat_us,
        read_percent,
    }
}

fn path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fio")
        .join(file)
}

/// A corpus file as text, as `lab import` and the page read it.
fn fixture(file: &str) -> TestResult<String> {
    let bytes = std::fs::read(path(file)).map_err(|e| format!("{file}: {e}"))?;
    Ok(text_of(&bytes))
}

/// Reads `file` and checks it holds `jobs`, in `format` of fio `version`, skipping none.
fn reads(
    file: &str,
    format: FioFormat,
    version: Option<&str>,
    jobs: &[Job],
) -> TestResult<FioOutput> {
    let out = parse_output(&fixture(file)?).map_err(|e| format!("{file}: {e}"))?;
    assert_eq!(
        (out.format, out.fio_version.as_deref()),
        (format, version),
        "{file}"
    );
    assert!(out.skipped.is_empty(), "{file}: {:?}", out.skipped);
    assert_eq!(out.points.len(), jobs.len(), "{file}");
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * b.abs().max(1.0);
    for (p, j) in out.points.iter().zip(jobs) {
        assert_eq!(
            (p.job.as_str(), p.iodepth, p.processes),
            (j.name, j.iodepth, j.processes),
            "{file}"
        );
        assert!(close(p.iops, j.iops), "{file} {}: IOPS {}", j.name, p.iops);
        assert!(
            close(p.lat_mean_us, j.clat_us),
            "{file} {}: clat {}",
            j.name,
            p.lat_mean_us
        );
        assert!(
            (p.read_percent - j.read_percent).abs() < 0.001,
            "{file} {}: read share {}",
            j.name,
            p.read_percent
        );
    }
    Ok(out)
}

/// One job at depth 8, each format a run of its own: JSON, JSON+, JSON with the normal
/// report, the normal report, and terse v2 to v5 (whose depth is reckoned from fio's depth
/// distribution and Little's law: it holds no job options).
#[test]
fn one_job_at_depth_8_reads_in_every_format_and_terse_version() -> TestResult {
    reads(
        "local/randread-qd8.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job("randread-qd8", 8, 1, 44886.556722, 171.440399, 100.0)],
    )?;
    reads(
        "local/randread-qd8.jsonplus.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job("randread-qd8", 8, 1, 51801.291605, 148.07169, 100.0)],
    )?;
    reads(
        "local/randread-qd8.json-normal.txt",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job("randread-qd8", 8, 1, 45041.252485, 169.731121, 100.0)],
    )?;
    reads(
        "local/randread-qd8.normal.txt",
        FioFormat::Normal,
        Some("fio-3.33"),
        &[job("randread-qd8", 8, 1, 46600.0, 164.04, 100.0)],
    )?;
    reads(
        "local/randread-qd8.terse-v3.txt",
        FioFormat::Terse(3),
        Some("fio-3.33"),
        &[job("randread-qd8", 8, 1, 44833.0, 171.838719, 100.0)],
    )?;
    reads(
        "local/randread-qd8.terse-v2.txt",
        FioFormat::Terse(2),
        None,
        &[job("randread-qd8", 8, 1, 45638.0, 167.219222, 100.0)],
    )?;
    reads(
        "local/randread-qd8.terse-v4.txt",
        FioFormat::Terse(4),
        Some("fio-3.33"),
        &[job("randread-qd8", 8, 1, 48386.0, 158.831883, 100.0)],
    )?;
    reads(
        "local/randread-qd8.terse-v5.txt",
        FioFormat::Terse(5),
        Some("fio-3.33"),
        &[job("randread-qd8", 8, 1, 46524.0, 165.273305, 100.0)],
    )?;
    Ok(())
}

/// `randrw` with `rwmixread=70` at depth 4: the read share is the reads' share of the I/Os.
#[test]
fn a_70_percent_read_mix_reads_its_share_in_every_format() -> TestResult {
    reads(
        "local/randrw-70-qd4.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job("randrw-70-qd4", 4, 1, 28204.162537, 130.768116, 70.03)],
    )?;
    reads(
        "local/randrw-70-qd4.jsonplus.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job("randrw-70-qd4", 4, 1, 29586.706646, 123.912838, 70.062)],
    )?;
    reads(
        "local/randrw-70-qd4.json-normal.txt",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job("randrw-70-qd4", 4, 1, 31401.7991, 116.712255, 70.092)],
    )?;
    reads(
        "local/randrw-70-qd4.normal.txt",
        FioFormat::Normal,
        Some("fio-3.33"),
        &[job("randrw-70-qd4", 4, 1, 28150.0, 129.073476, 70.021)],
    )?;
    reads(
        "local/randrw-70-qd4.terse-v3.txt",
        FioFormat::Terse(3),
        Some("fio-3.33"),
        &[job("randrw-70-qd4", 4, 1, 31469.0, 117.946835, 70.085)],
    )?;
    Ok(())
}

/// The case: `numjobs=4`, `iodepth=8`, `group_reporting`: one report of four
/// processes that kept 32 in flight (a terse line says neither: Little's law finds 32 in
/// flight in the depth-8 bucket, four processes).
#[test]
fn four_grouped_processes_at_depth_8_are_one_point_at_depth_32() -> TestResult {
    reads(
        "local/numjobs4-grouped.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job(
            "numjobs4-grouped",
            32,
            4,
            75441.77911,
            416.057723,
            100.0,
        )],
    )?;
    reads(
        "local/numjobs4-grouped.jsonplus.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job(
            "numjobs4-grouped",
            32,
            4,
            75730.634683,
            414.720248,
            100.0,
        )],
    )?;
    reads(
        "local/numjobs4-grouped.json-normal.txt",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job(
            "numjobs4-grouped",
            32,
            4,
            74046.430354,
            423.048329,
            100.0,
        )],
    )?;
    reads(
        "local/numjobs4-grouped.normal.txt",
        FioFormat::Normal,
        Some("fio-3.33"),
        &[job("numjobs4-grouped", 32, 4, 73000.0, 429.18, 100.0)],
    )?;
    reads(
        "local/numjobs4-grouped.terse-v3.txt",
        FioFormat::Terse(3),
        Some("fio-3.33"),
        &[job("numjobs4-grouped", 32, 4, 69946.0, 449.017276, 100.0)],
    )?;
    Ok(())
}

/// Without `group_reporting` fio reports each of the four clones; the drive served them
/// together, so they are one point at depth 32, their IOPS summed.
#[test]
fn four_clones_reported_apart_are_one_point_at_depth_32() -> TestResult {
    reads(
        "local/numjobs4-clones.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job(
            "numjobs4-clones",
            32,
            4,
            71686.43452,
            438.686148,
            100.0,
        )],
    )?;
    reads(
        "local/numjobs4-clones.jsonplus.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job(
            "numjobs4-clones",
            32,
            4,
            78447.561338,
            400.479335,
            100.0,
        )],
    )?;
    reads(
        "local/numjobs4-clones.json-normal.txt",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job(
            "numjobs4-clones",
            32,
            4,
            73681.431262,
            426.882957,
            100.0,
        )],
    )?;
    reads(
        "local/numjobs4-clones.normal.txt",
        FioFormat::Normal,
        Some("fio-3.33"),
        &[job("numjobs4-clones", 32, 4, 78100.0, 401.488813, 100.0)],
    )?;
    reads(
        "local/numjobs4-clones.terse-v3.txt",
        FioFormat::Terse(3),
        Some("fio-3.33"),
        &[job("numjobs4-clones", 32, 4, 77063.0, 407.297813, 100.0)],
    )?;
    Ok(())
}

/// `rate_iops=2000` at `iodepth=16`: fio's JSON names the rate, an open loop, and the fit takes
/// its latency as a cell at that rate (its IOPS are the rate's, not the drive's); the normal
/// report and terse lines do not name it, and their figures say what the drive saw (about one
/// request in flight, which the fit's Little's-law check refuses to read as depth 16).
#[test]
fn a_rate_limited_job_names_its_rate_where_the_format_holds_it() -> TestResult {
    reads(
        "local/rate-limited.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job("rate-limited", 16, 1, 1999.0005, 442.19347, 100.0)],
    )?;
    reads(
        "local/rate-limited.jsonplus.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job("rate-limited", 16, 1, 1998.001998, 276.372677, 100.0)],
    )?;
    reads(
        "local/rate-limited.json-normal.txt",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job("rate-limited", 16, 1, 1999.0005, 110.757172, 100.0)],
    )?;
    reads(
        "local/rate-limited.normal.txt",
        FioFormat::Normal,
        Some("fio-3.33"),
        &[job("rate-limited", 16, 1, 1999.0, 276.96, 100.0)],
    )?;
    reads(
        "local/rate-limited.terse-v3.txt",
        FioFormat::Terse(3),
        Some("fio-3.33"),
        &[job("rate-limited", 1, 1, 1999.0, 108.853045, 100.0)],
    )?;
    for file in ["local/rate-limited.json", "local/rate-limited.normal.txt"] {
        let out = parse_output(&fixture(file)?).unwrap();
        let p = &out.points[0];
        let rate = if file.ends_with(".json") {
            Some(2000.0)
        } else {
            None
        };
        assert_eq!(p.rate_iops, rate, "{file}");
        let cells = cells_from_fio(&out.points, DriveState::Fob);
        match rate {
            Some(_) => {
                assert!(cells.skipped.is_empty(), "{:?}", cells.skipped);
                let [latency] = cells.cells.as_slice() else {
                    panic!("{file}: {:?}", cells.cells);
                };
                assert_eq!(
                    latency.depth,
                    Depth::Rate {
                        iops: 2000,
                        iodepth: 16
                    }
                );
                assert_eq!(latency.metric, Metric::LatencyMs);
                assert_eq!(latency.label(), "randread 4 KiB QD16 at 2000 IOPS ms");
            }
            None => assert!(cells.cells.is_empty(), "{file}: {:?}", cells.skipped),
        }
    }
    Ok(())
}

/// Two jobs in one group, run together: a 4 KiB reader at depth 1 and a 64 KiB writer at
/// depth 4, two points.
#[test]
fn two_jobs_run_together_are_two_points() -> TestResult {
    reads(
        "local/two-jobs.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[
            job("reader", 1, 1, 3320.83958, 276.332321, 100.0),
            job("writer", 4, 1, 5824.087956, 667.552411, 0.0),
        ],
    )?;
    reads(
        "local/two-jobs.jsonplus.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[
            job("reader", 1, 1, 3054.972514, 307.443892, 100.0),
            job("writer", 4, 1, 5811.594203, 666.921404, 0.0),
        ],
    )?;
    reads(
        "local/two-jobs.json-normal.txt",
        FioFormat::Json,
        Some("fio-3.33"),
        &[
            job("reader", 1, 1, 3827.086457, 243.589161, 100.0),
            job("writer", 4, 1, 6263.868066, 620.727593, 0.0),
        ],
    )?;
    reads(
        "local/two-jobs.normal.txt",
        FioFormat::Normal,
        Some("fio-3.33"),
        &[
            job("reader", 1, 1, 4705.0, 190.71962, 100.0),
            job("writer", 4, 1, 10100.0, 378.47, 0.0),
        ],
    )?;
    reads(
        "local/two-jobs.terse-v3.txt",
        FioFormat::Terse(3),
        Some("fio-3.33"),
        &[
            job("reader", 1, 1, 5149.0, 165.800694, 100.0),
            job("writer", 4, 1, 13078.0, 290.032844, 0.0),
        ],
    )?;
    Ok(())
}

/// Three stonewalled jobs, 128 KiB sequential reads at depths 1, 4 and 16: a sweep.
#[test]
fn a_stonewalled_sweep_is_a_point_per_depth() -> TestResult {
    reads(
        "local/seqread-128k-sweep.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[
            job("read-qd1", 1, 1, 3038.98051, 296.854853, 100.0),
            job("read-qd4", 4, 1, 4694.88189, 827.458782, 100.0),
            job("read-qd16", 16, 1, 8425.287356, 1883.010419, 100.0),
        ],
    )?;
    reads(
        "local/seqread-128k-sweep.jsonplus.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[
            job("read-qd1", 1, 1, 3219.890055, 275.876872, 100.0),
            job("read-qd4", 4, 1, 3630.928854, 1073.323488, 100.0),
            job("read-qd16", 16, 1, 5832.583708, 2724.624953, 100.0),
        ],
    )?;
    reads(
        "local/seqread-128k-sweep.json-normal.txt",
        FioFormat::Json,
        Some("fio-3.33"),
        &[
            job("read-qd1", 1, 1, 8559.027778, 94.749815, 100.0),
            job("read-qd4", 4, 1, 3824.087956, 1031.408396, 100.0),
            job("read-qd16", 16, 1, 4802.098951, 3315.048628, 100.0),
        ],
    )?;
    reads(
        "local/seqread-128k-sweep.normal.txt",
        FioFormat::Normal,
        Some("fio-3.33"),
        &[
            job("read-qd1", 1, 1, 3142.0, 285.76, 100.0),
            job("read-qd4", 4, 1, 3585.0, 1098.64, 100.0),
            job("read-qd16", 16, 1, 3357.0, 4738.01, 100.0),
        ],
    )?;
    reads(
        "local/seqread-128k-sweep.terse-v3.txt",
        FioFormat::Terse(3),
        Some("fio-3.33"),
        &[
            job("read-qd1", 1, 1, 2744.0, 332.373813, 100.0),
            job("read-qd4", 4, 1, 3694.0, 1065.633338, 100.0),
            job("read-qd16", 16, 1, 10945.0, 1449.790681, 100.0),
        ],
    )?;
    Ok(())
}

/// This machine's disk, 4 KiB random reads at depths 1 to 64: one JSON per depth (as scripts
/// that drive fio save them), and the same sweep as one normal report.
#[test]
fn this_machines_depth_sweep_reads_one_file_per_depth_or_one_report() -> TestResult {
    reads(
        "local/disk-sweep/randread-qd1.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job("randread-qd1", 1, 1, 14562.733849, 50.600498, 100.0)],
    )?;
    reads(
        "local/disk-sweep/randread-qd2.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job("randread-qd2", 2, 1, 23583.354161, 74.276099, 100.0)],
    )?;
    reads(
        "local/disk-sweep/randread-qd4.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job("randread-qd4", 4, 1, 34203.13277, 108.945448, 100.0)],
    )?;
    reads(
        "local/disk-sweep/randread-qd8.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job("randread-qd8", 8, 1, 48439.390152, 159.072891, 100.0)],
    )?;
    reads(
        "local/disk-sweep/randread-qd16.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job("randread-qd16", 16, 1, 64893.436486, 240.773971, 100.0)],
    )?;
    reads(
        "local/disk-sweep/randread-qd32.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job("randread-qd32", 32, 1, 66612.346913, 474.179603, 100.0)],
    )?;
    reads(
        "local/disk-sweep/randread-qd64.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job("randread-qd64", 64, 1, 69927.268183, 908.281883, 100.0)],
    )?;
    reads(
        "local/disk-sweep/randread-sweep.normal.txt",
        FioFormat::Normal,
        Some("fio-3.33"),
        &[
            job("randread-qd1", 1, 1, 15000.0, 50.01428, 100.0),
            job("randread-qd2", 2, 1, 21300.0, 81.59, 100.0),
            job("randread-qd4", 4, 1, 37800.0, 98.02, 100.0),
            job("randread-qd8", 8, 1, 53800.0, 142.14, 100.0),
            job("randread-qd16", 16, 1, 57600.0, 270.95, 100.0),
            job("randread-qd32", 32, 1, 67900.0, 463.91, 100.0),
            job("randread-qd64", 64, 1, 69100.0, 919.77, 100.0),
        ],
    )?;
    Ok(())
}

/// fio 2.1.2, terse v3, per-clone lines (jtulak/fio-parser): randrw 80% reads, 8 KiB, four
/// clones per job at depths 4, 8 and 16.
#[test]
fn fio_2_1_terse_clones_are_one_point_per_job() -> TestResult {
    reads(
        "public/fio-2.1.2-terse-v3-randrw-8k-qd4-8-16-perclone.txt",
        FioFormat::Terse(3),
        Some("fio-2.1.2"),
        &[
            job("test-multi-file-io-4", 16, 4, 3380.0, 4699.537542, 80.0),
            job("test-multi-file-io-8", 32, 4, 5437.0, 5851.204178, 79.915),
            job("test-multi-file-io-16", 64, 4, 8216.0, 7754.592866, 79.954),
        ],
    )?;
    Ok(())
}

/// fio 2.1.4 JSON (PerfKitBenchmarker): no job options, KiB/s and µs; depths from fio's depth
/// distribution and block sizes from bytes per I/O (the repo's job file: 512 KiB at depth 64,
/// 4 KiB at depth 1, 4 KiB at depth 64).
#[test]
fn fio_2_1_json_without_options_reckons_depth_and_block_size() -> TestResult {
    let out = reads(
        "public/fio-2.1.4-json-pkb-seq-rand-5groups.json",
        FioFormat::Json,
        Some("fio-2.1.4"),
        &[
            job("sequential_write", 64, 1, 133.0, 477734.84, 0.0),
            job("sequential_read", 64, 1, 253.0, 250667.06, 100.0),
            job("random_write_test", 1, 1, 1610.0, 587.02, 0.0),
            job("random_read_test", 1, 1, 317.0, 3117.62, 100.0),
            job("random_read_test_parallel", 64, 1, 323.0, 198030.44, 100.0),
        ],
    )?;
    let sizes: Vec<Option<u32>> = out.points.iter().map(|p| p.bs_bytes).collect();
    let four_k = Some(4096);
    assert_eq!(
        sizes,
        [Some(524_288), Some(524_288), four_k, four_k, four_k]
    );
    assert!(out
        .points
        .iter()
        .all(|p| p.depth_reckoned && p.rw.is_none()));
    Ok(())
}

/// fio 2.x JSON with options (PerfKitBenchmarker 2.17, louwrentius/fio-plot 2.18): `numjobs`
/// with `group_reporting`, depths written as `"01"`.
#[test]
fn fio_2_x_json_reads_grouped_jobs() -> TestResult {
    reads(
        "public/fio-2.17-json-pkb-randread-randwrite-16k-qd1-nj2.json",
        FioFormat::Json,
        Some("fio-2.17"),
        &[
            job(
                "rand_16k_read_100%-io-depth-1-num-jobs-2",
                2,
                2,
                8086.673998,
                238.357679,
                100.0,
            ),
            job(
                "rand_16k_write_100%-io-depth-1-num-jobs-2",
                2,
                2,
                2457.017193,
                800.193694,
                0.0,
            ),
        ],
    )?;
    reads(
        "public/fio-2.18-json-randread-4k-qd1-nj16-grouped-mdraid-hdd.json",
        FioFormat::Json,
        Some("fio-2.18-59-g618e"),
        &[job("random-io", 16, 16, 357.121558, 44636.969385, 100.0)],
    )?;
    Ok(())
}

/// fio 2.x normal reports (chris-sanders/ceph-fio-results): KB meaning KiB, `B/s` for small
/// rates, clat in usec or msec; four jobs apart, then six groups of four grouped processes.
#[test]
fn fio_2_x_normal_reports_read_kb_as_kib() -> TestResult {
    reads(
        "public/fio-2.2.10-normal-randread-4k-qd32-4jobs-hdd.txt",
        FioFormat::Normal,
        Some("fio-2.2.10"),
        &[
            job("SDA", 32, 1, 359.0, 88905.04, 100.0),
            job("SDB", 32, 1, 422.0, 75657.15, 100.0),
            job("SDC", 32, 1, 382.0, 83516.92, 100.0),
            job("SDD", 32, 1, 169.0, 188414.92, 100.0),
        ],
    )?;
    reads(
        "public/fio-2.16-normal-randread-4k-qd32-nj4-grouped-6groups-ceph.txt",
        FioFormat::Normal,
        Some("fio-2.16"),
        &[
            job("ceph-fuse-replicated", 128, 4, 269.0, 457876.48, 100.0),
            job("ceph-fuse-erasure_1", 128, 4, 156.0, 785015.69, 100.0),
            job("ceph-fuse-erasure_2", 128, 4, 166.0, 736548.34, 100.0),
            job("ceph-kern-replicated", 128, 4, 343.0, 372475.47, 100.0),
            job("ceph-kern-erasure_1", 128, 4, 173.0, 736910.0, 100.0),
            job("ceph-kern-erasure_2", 128, 4, 231.0, 551100.0, 100.0),
        ],
    )?;
    Ok(())
}

/// fio 3.x normal reports: a mixed job whose read clat is in usec and write clat in nsec
/// (3.1), grouped processes (3.19, 3.35 with its "zone resets"), ten clones reported apart
/// (3.28).
#[test]
fn fio_3_x_normal_reports_read_grouped_and_cloned_jobs() -> TestResult {
    reads(
        "public/fio-3.1-normal-rw-4k-qd32-nvme.txt",
        FioFormat::Normal,
        Some("fio-3.1"),
        &[job("nvme-direct", 32, 1, 94600.0, 329.378137, 50.013)],
    )?;
    reads(
        "public/fio-3.19-normal-randread-4k-qd128-nj4-grouped-optane-p4800x.txt",
        FioFormat::Normal,
        Some("fio-3.19"),
        &[job("random-read-4", 512, 4, 587000.0, 868.11, 100.0)],
    )?;
    reads(
        "public/fio-3.35-normal-randwrite-4k-qd128-nj2-grouped-p4510.txt",
        FioFormat::Normal,
        Some("fio-3.35"),
        &[job("random-write-2", 256, 2, 245000.0, 1042.06, 0.0)],
    )?;
    reads(
        "public/fio-3.28-normal-read-4k-qd16-nj10-perclone-nvme.txt",
        FioFormat::Normal,
        Some("fio-3.28"),
        &[job("test", 160, 10, 1701000.0, 93.256, 100.0)],
    )?;
    Ok(())
}

/// fio 3.x JSON of a group of several jobs under `group_reporting` (wilkmar/fioparser 3.16,
/// bensonjohnson/FIO-tests 3.33 after a SIGINT line): one entry under the first job's options;
/// Little's law finds three and six jobs' worth in flight.
#[test]
fn fio_3_x_json_of_a_grouped_group_counts_its_jobs_by_littles_law() -> TestResult {
    reads(
        "public/fio-3.16-json-randread-4k-qd32-ceph-rbd.json",
        FioFormat::Json,
        Some("fio-3.16"),
        &[job("job 1", 96, 3, 7077.404952, 13463.787803, 100.0)],
    )?;
    reads(
        "public/fio-3.33-json-mixed-sigint-rw-4k-qd16.json",
        FioFormat::Json,
        Some("fio-3.33"),
        &[job(
            "sequential_read",
            96,
            6,
            47000.097075,
            2026.593881,
            16.303,
        )],
    )?;
    Ok(())
}

/// A depth sweep of one drive in JSON of fio `version`, one file per depth (`{iodepth}` in
/// `pattern`, two digits): each one job `name` alone at its depth, reading only, at the
/// `(depth, IOPS, mean completion latency µs)` of `depths`.
fn sweep_reads(
    pattern: &str,
    version: &str,
    name: &'static str,
    depths: &[(u32, f64, f64)],
) -> TestResult {
    for &(iodepth, iops, clat_us) in depths {
        let file = pattern.replace("{iodepth}", &format!("{iodepth:02}"));
        let jobs = [job(name, iodepth, 1, iops, clat_us, 100.0)];
        reads(&file, FioFormat::Json, Some(version), &jobs)?;
    }
    Ok(())
}

/// Depth sweeps of two real SSDs, one JSON per depth: a Samsung PM883 (fio 3.1, `bw` in KiB/s
/// and no `bw_bytes`; louwrentius/fio-plot) and a Sabrent Rocket 4 Plus (fio 3.33;
/// SamYaple/fio-plot-results).
#[test]
fn two_real_ssd_depth_sweeps_read_one_file_per_depth() -> TestResult {
    sweep_reads(
        "public/fio-3.1-json-sweep-pm883-randread-4k-qd{iodepth}.json",
        "fio-3.1",
        "iotest",
        &[
            (1, 6389.443509, 142.840672),
            (2, 11626.689555, 159.837713),
            (4, 21028.299528, 177.182982),
            (8, 34732.304462, 219.061374),
            (16, 45389.343511, 342.331488),
            (32, 45404.543258, 694.69451),
            (64, 45408.88637, 1401.33482),
        ],
    )?;
    sweep_reads(
        "public/fio-3.33-json-sweep-sbrkt4p-randread-4k-qd{iodepth}.json",
        "fio-3.33",
        "FIOJOB",
        &[
            (1, 14059.140237, 67.732853),
            (2, 26047.94751, 73.35891),
            (4, 37131.945492, 104.218318),
            (8, 47716.193097, 164.316085),
            (16, 78162.49272, 201.649288),
            (32, 125957.515106, 251.01594),
            (64, 246533.597145, 257.689864),
        ],
    )
}

/// Ten fio runs appended to one file (BU-DiSC/SSD-Benchmark, fio 3.35): one to ten grouped
/// processes at depth 1, each run a point though every job has the same name.
#[test]
fn appended_runs_of_one_job_name_stay_apart() -> TestResult {
    reads(
        "public/fio-3.35-normal-sweep-randread-4k-qd1-nj1to10-p4510.txt",
        FioFormat::Normal,
        Some("fio-3.35"),
        &[
            job("randread1", 1, 1, 13000.0, 74.16, 100.0),
            job("randread1", 2, 2, 25300.0, 76.1548, 100.0),
            job("randread1", 3, 3, 37200.0, 77.49, 100.0),
            job("randread1", 4, 4, 48900.0, 78.41074, 100.0),
            job("randread1", 5, 5, 58800.0, 80.38504, 100.0),
            job("randread1", 6, 6, 71300.0, 80.4701, 100.0),
            job("randread1", 7, 7, 82500.0, 81.45581, 100.0),
            job("randread1", 8, 8, 93500.0, 82.41067, 100.0),
            job("randread1", 9, 9, 103000.0, 83.85376, 100.0),
            job("randread1", 10, 10, 113000.0, 85.25, 100.0),
        ],
    )?;
    reads(
        "public/fio-3.35-normal-sweep-randread-4k-qd1-nj1to10-optane-p4800x.txt",
        FioFormat::Normal,
        Some("fio-3.35"),
        &[
            job("randread1", 1, 1, 80400.0, 9.74527, 100.0),
            job("randread1", 2, 2, 151000.0, 10.1156, 100.0),
            job("randread1", 3, 3, 235000.0, 10.05979, 100.0),
            job("randread1", 4, 4, 301000.0, 10.43002, 100.0),
            job("randread1", 5, 5, 362000.0, 10.76174, 100.0),
            job("randread1", 6, 6, 419000.0, 11.1064, 100.0),
            job("randread1", 7, 7, 482000.0, 11.40708, 100.0),
            job("randread1", 8, 8, 531000.0, 11.83486, 100.0),
            job("randread1", 9, 9, 571000.0, 12.52037, 100.0),
            job("randread1", 10, 10, 591000.0, 13.75929, 100.0),
        ],
    )?;
    Ok(())
}

/// Hostile versions of every corpus file get one clear message or fewer points, never a
/// panic: cut short anywhere, mangled, grown past the size limit.
#[test]
fn cut_mangled_and_oversized_files_get_one_clear_message() -> TestResult {
    let files = corpus_files()?;
    assert!(files.len() >= 70, "the corpus is here: {}", files.len());
    for file in &files {
        let text = fixture(file)?;
        let whole = parse_output(&text).unwrap().points.len();
        for cut in [text.len() / 3, text.len() / 2, text.len().saturating_sub(3)] {
            let cut = (0..=cut)
                .rev()
                .find(|&c| text.is_char_boundary(c))
                .unwrap_or(0);
            match parse_output(&text[..cut]) {
                Ok(out) => {
                    assert!(out.points.len() <= whole, "{file} cut at {cut}");
                    assert!(out
                        .points
                        .iter()
                        .all(|p| p.iops.is_finite() && p.lat_mean_us.is_finite()));
                }
                Err(e) => assert!(
                    e.to_string().starts_with("cannot read fio output: "),
                    "{file} cut at {cut}: {e}"
                ),
            }
        }
        let mangled: String = text
            .chars()
            .enumerate()
            .map(|(i, c)| if i % 7 == 3 { '#' } else { c })
            .collect();
        if let Err(e) = parse_output(&mangled) {
            assert!(e.to_string().starts_with("cannot read fio output: "), "{e}");
        }
    }
    let big = fixture("local/randread-qd8.normal.txt")?.repeat(10_000);
    assert!(big.len() > 16 << 20);
    let e = parse_output(&big).unwrap_err().to_string();
    assert_eq!(e, "cannot read fio output: the file is larger than 16 MiB");
    let e = parse_output("\u{0}\u{1}ELF").unwrap_err().to_string();
    assert!(e.contains("binary data"), "{e}");
    Ok(())
}

/// Saved by Windows PowerShell (UTF-16 with a byte-order mark) or with a job name in another
/// encoding than UTF-8, a report reads as its UTF-8 original does.
#[test]
fn utf16_and_stray_bytes_read_as_the_utf8_original() -> TestResult {
    let text = fixture("local/numjobs4-grouped.normal.txt")?;
    let original = parse_output(&text).unwrap();
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    assert_eq!(parse_output(&text_of(&utf16)).unwrap(), original);
    // "numjobs4-grouped" renamed with a Latin-1 "é" (byte 0xE9) where it names the job.
    let latin1 = text
        .replace("numjobs4-grouped", "r\u{e9}sultat")
        .replace('\u{e9}', "\u{1}");
    let bytes: Vec<u8> = latin1
        .bytes()
        .map(|b| if b == 1 { 0xE9 } else { b })
        .collect();
    let out = parse_output(&text_of(&bytes)).unwrap();
    assert_eq!(out.points[0].job, "r\u{fffd}sultat");
    assert_eq!(out.points[0].iops, original.points[0].iops);
    Ok(())
}

/// Every output file of the corpus, by its path under `tests/fixtures/fio`.
fn corpus_files() -> TestResult<Vec<String>> {
    let mut files = Vec::new();
    for dir in ["local", "local/disk-sweep", "public"] {
        let folder = |e: std::io::Error| format!("{dir}: {e}");
        for entry in std::fs::read_dir(path(dir)).map_err(folder)? {
            let name = entry.map_err(folder)?.file_name();
            let name = name
                .into_string()
                .map_err(|name| format!("{dir}: a file name that is not UTF-8: {name:?}"))?;
            if name.ends_with(".json") || (name.ends_with(".txt") && name != "README.md") {
                files.push(format!("{dir}/{name}"));
            }
        }
    }
    files.sort();
    Ok(files)
}
