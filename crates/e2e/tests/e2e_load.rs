//! End-to-end tests of workloads in the page: load at a rate (issue #23), the E12 review's
//! tests (issue #25) and the scorecard of every published figure (issue 53). The release
//! build in `dist/` in headless Chromium, driven over WebDriver like `e2e.rs`, checked against
//! the real `lab` binary.
//!
//! Needs `dist/`, `/usr/bin/chromedriver` and the `lab` binary (`LAB_BIN`, which
//! `tests/run-all.sh` sets, or `target/debug/lab`); fails, never skips, without them.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use common::{Browser, Context, Failure, Result};
use fantoccini::key::Key;
use parallelism_lab::ui::pure::compute::sweep_rates;
use parallelism_lab::ui::pure::state::LabState;
use parallelism_lab::ui::pure::url_state::parse_query;
use serde_json::{json, Value};

/// The 480 GB E18DC (8 dies) under random 4 KiB reads arriving at random, at most 64 at the
/// drive: a drive small enough that its knee and capacity lie well inside the sweep.
const RATE_VIEW: &str =
    "?preset=e18dc&cap=480&dies=8&workload=rate&rate=100000&arrivals=poisson&qd=64&rw=randread&bs=4k&state=steady";

/// The command-line twin, built by the workspace.
fn lab_binary() -> Result<PathBuf> {
    let path = std::env::var_os("LAB_BIN").map_or_else(
        || common::repo_root().join("target/debug/lab"),
        PathBuf::from,
    );
    if !path.exists() {
        return Err(Failure::new(format!(
            "no lab binary at {} (build it with `cargo build -p lab`, or set LAB_BIN)",
            path.display()
        )));
    }
    Ok(path)
}

/// What `lab ARGS` prints as JSON; it must succeed.
fn lab_json(args: &[&str]) -> Result<Value> {
    let out = Command::new(lab_binary()?)
        .args(args)
        .output()
        .context("run lab")?;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).context("lab's JSON")
}

/// What `lab sweep --rate-iops` prints as JSON for the page's own sweep of `query`.
fn lab_sweep(query: &str) -> Result<Vec<Value>> {
    let state = parse_query(query, LabState::default()).state;
    let rates: Vec<String> = sweep_rates(&state).iter().map(u32::to_string).collect();
    let rows = lab_json(&[
        "sweep",
        "--preset",
        "e18dc",
        "--dies",
        "8",
        "--iodepth",
        "64",
        "--state",
        "steady",
        "--rate-process",
        "poisson",
        "--format",
        "json",
        "--rate-iops",
        &rates.join(","),
    ])?;
    serde_json::from_value(rows).context("lab's JSON")
}

/// The text of the element matching `css`, or "" while it is not there.
async fn text_of(browser: &Browser, css: &str) -> Result<String> {
    let text = browser
        .js(
            "return document.querySelector(arguments[0])?.textContent ?? '';",
            vec![serde_json::json!(css)],
        )
        .await?;
    Ok(text.as_str().unwrap_or_default().to_string())
}

/// Clicks `#{id}` as soon as it is there, in the page's own task (a click sent over WebDriver
/// after the button was seen could come after the work it cancels has finished).
async fn click_when_there(browser: &Browser, id: &str, what: &str) -> Result {
    browser
        .wait_for(what, || async {
            let clicked = browser
                .js(
                    "const b = document.getElementById(arguments[0]); if (b) b.click(); return !!b;",
                    vec![serde_json::json!(id)],
                )
                .await?;
            Ok((clicked == serde_json::json!(true)).then_some(()))
        })
        .await
}

/// Waits until every point of the plan has its full result and the load chart has been drawn
/// for the state in the URL.
async fn wait_for_final_load_chart(browser: &Browser) -> Result {
    browser
        .wait_until(
            "every point computed and the load chart drawn",
            r#"const state = location.search.slice(1);
               const c = document.getElementById("chart-load");
               const s = document.getElementById("model-status");
               return !!(c && s && s.dataset.computedAt && c.dataset.state === state
                   && c.dataset.missing === "0");"#,
        )
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_the_rate_view_shows_the_knee_and_saturation_where_lab_says_they_are() -> Result {
    let browser = Browser::start().await?;
    browser.open(RATE_VIEW, "#chart-load").await?;
    wait_for_final_load_chart(&browser).await?;
    let rows = lab_sweep(RATE_VIEW)?;
    let knee = rows[0]["knee_iops"].as_f64().expect("lab names a knee");
    let capacity = rows[0]["capacity_iops"].as_f64().unwrap();
    let page = |name: &'static str| {
        let browser = &browser;
        async move {
            browser
                .attr("#figure-load", name)
                .await?
                .and_then(|v| v.parse::<f64>().ok())
                .with_context(|| format!("#figure-load has no {name}"))
        }
    };
    // The same runs (same seed, same length) give the same numbers bit for bit.
    assert_eq!(page("data-knee").await?, knee, "the page's knee is lab's");
    assert_eq!(
        page("data-capacity").await?,
        capacity,
        "the page's capacity is lab's"
    );
    assert!(knee < capacity, "{knee} vs {capacity}");
    // ... and names them in words.
    let named = browser.text("#load-named").await?;
    assert!(
        named.contains("The knee") && named.contains("(limited by NAND dies)"),
        "{named}"
    );
    let carried = browser.canvas_hash("#chart-carried").await?;
    assert!(
        !carried.ends_with(":0"),
        "the carried chart is drawn: {carried}"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_the_workload_choice_and_the_rate_slider_drive_the_page_and_its_link() -> Result {
    let browser = Browser::start().await?;
    browser
        .open("?preset=e18dc&cap=480&qd=64", "#chart-iops")
        .await?;
    browser.click("workload-rate").await?;
    let q = browser
        .wait_for_query("the rate in the link", &["workload=rate", "rate=200000"])
        .await?;
    assert!(q.contains("arrivals=poisson"), "{q}");
    browser.press("rate", &Key::Right.to_string()).await?;
    browser
        .wait_for_query("the next coarse rate", &["rate=500000"])
        .await?;
    browser.click("arrivals-linear").await?;
    browser
        .wait_for_query("evenly spaced arrivals", &["arrivals=linear"])
        .await?;
    let fio = browser.text("#fio-rw").await?;
    assert!(
        fio.contains("iodepth=64") && fio.contains("rate_iops=500000 rate_process=linear"),
        "{fio}"
    );
    let what = browser.text("#readout-what").await?;
    assert!(what.contains("500,000 IOPS offered"), "{what}");
    // The link opens the same view in a fresh page.
    let link = browser.location_search().await?;
    browser.open(&link, "#chart-load").await?;
    assert_eq!(browser.location_search().await?, link);
    assert!(browser
        .attr("#rate", "aria-valuetext")
        .await?
        .unwrap()
        .contains("500,000 IOPS"));
    // Back to one job at a depth: the depth charts return and the link forgets the rate view.
    browser.click("workload-depth").await?;
    browser
        .wait_for("the depth view's link", || async {
            let q = browser.location_search().await?;
            Ok((!q.contains("workload=")).then_some(q))
        })
        .await?;
    browser.wait_for_queue_charts().await?;
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_rate_past_capacity_is_named_saturated_and_one_below_gives_littles_law() -> Result {
    let browser = Browser::start().await?;
    browser
        .open(
            "?preset=e18dc&cap=480&dies=8&workload=rate&rate=5000000&qd=64",
            "#readout",
        )
        .await?;
    let text = browser
        .wait_for("the saturated readout", || async {
            let t = text_of(&browser, "#readout-load").await?;
            Ok(t.contains("Saturated").then_some(t))
        })
        .await?;
    assert!(text.contains("grows without bound"), "{text}");
    let limit = browser.text("#readout-limit").await?;
    assert!(limit.contains("saturated"), "{limit}");
    browser
        .open(
            "?preset=e18dc&cap=480&dies=8&workload=rate&rate=50000&qd=64",
            "#readout",
        )
        .await?;
    let text = browser
        .wait_for("the utilisation readout", || async {
            let t = text_of(&browser, "#readout-load").await?;
            Ok(t.contains("Utilisation").then_some(t))
        })
        .await?;
    assert!(text.contains("Little's law"), "{text}");
    let limit = browser.text("#readout-limit").await?;
    assert!(limit.contains("the offered load"), "{limit}");
    browser.assert_clean_console()?;
    browser.close().await
}

/// Issue 56: each job's p99 anatomy says what the writer costs the reader. With every job
/// running, the reader's p99 is mostly waiting behind the writes' work; each job has a bar
/// together and alone.
async fn assert_the_writer_s_cost_shows_in_the_reader_s_p99(browser: &Browser) -> Result {
    let reader = text_of(browser, "#jobs-anatomy .anatomy-sentence").await?;
    assert!(
        reader.starts_with("Reads: At p99, ") && reader.contains("behind"),
        "{reader}"
    );
    let labels = browser
        .js(
            "return [...document.querySelectorAll('#jobs-anatomy .anatomy-bar')].map(b => b.getAttribute('aria-label'));",
            vec![],
        )
        .await?;
    let labels: Vec<String> = serde_json::from_value(labels)?;
    assert_eq!(
        labels.len(),
        4,
        "two bars a job (together, alone): {labels:?}"
    );
    assert!(
        labels[0].starts_with("With every job running: p99 of reads"),
        "{labels:?}"
    );
    assert!(labels[1].starts_with("Alone: p99 of reads"), "{labels:?}");
    assert!(
        labels[2].starts_with("With every job running: p99 of writes"),
        "{labels:?}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_several_jobs_show_what_a_write_job_does_to_a_read_jobs_p99_and_round_trip() -> Result {
    let browser = Browser::start().await?;
    // A reader (random 4 KiB, one at a time) beside a writer (random 4 KiB, 32 in flight) on
    // the 480 GB E18DC in steady state: the reads wait behind programs.
    let link = "?preset=e18dc&cap=480&workload=jobs&jobs=randread.4k.qd1,randwrite.4k.qd32";
    browser.open(link, "#figure-jobs").await?;
    let summary = browser
        .wait_for("the jobs' results", || async {
            let t = text_of(&browser, "#jobs-summary").await?;
            Ok((!t.is_empty()).then_some(t))
        })
        .await?;
    assert!(
        summary.starts_with("Job 1 (random reads, 4 KiB, QD 1) waits behind the others"),
        "{summary}"
    );
    let rows = browser
        .js(
            "return document.querySelectorAll('#jobs-table tbody tr').length;",
            vec![],
        )
        .await?;
    assert_eq!(rows, serde_json::json!(2));
    assert_the_writer_s_cost_shows_in_the_reader_s_p99(&browser).await?;
    // Adding a job writes it into the link, and the link brings it back.
    browser.click("job-add").await?;
    let q = browser
        .wait_for_query(
            "the third job in the link",
            &["jobs=randread.4k.qd1,randwrite.4k.qd32,randwrite.4k.qd32"],
        )
        .await?;
    browser.open(&q, "#job-3").await?;
    assert_eq!(browser.location_search().await?, q);
    // A fio job file's first group becomes the jobs, with a line for what is left out.
    let job_file = trace_file(
        "two-groups.fio",
        "[global]\nbs=4k\n[reader]\nrw=randread\niodepth=1\n[writer]\nrw=randwrite\n\
         iodepth=16\nnumjobs=2\n[later]\nstonewall\nrw=read\n",
    )?;
    browser
        .press("jobs-file", &job_file.display().to_string())
        .await?;
    browser
        .wait_for_query(
            "the file's jobs in the link",
            &["jobs=randread.4k.qd1,randwrite.4k.qd16,randwrite.4k.qd16"],
        )
        .await?;
    let notes = text_of(&browser, "#jobs-file-notes").await?;
    assert!(notes.contains("2 groups"), "{notes}");
    let bad = trace_file("bad.fio", "[a]\nbs=3k\niodepth=0\n")?;
    let before = browser.location_search().await?;
    browser
        .press("jobs-file", &bad.display().to_string())
        .await?;
    let refused = browser
        .wait_for("the bad job file's message", || async {
            let t = text_of(&browser, "#jobs-file-refused").await?;
            Ok((!t.is_empty()).then_some(t))
        })
        .await?;
    assert!(
        refused.contains("line 2") && refused.contains("unchanged"),
        "{refused}"
    );
    assert_eq!(browser.location_search().await?, before);
    // A bad job in a link is named, and the others still run.
    browser
        .open(
            "?workload=jobs&jobs=randread.4k.qd1,sideways.4k.qd1",
            "#figure-jobs",
        )
        .await?;
    let notes = text_of(&browser, "#url-notes").await?;
    assert!(notes.contains("sideways"), "{notes}");
    assert!(
        browser.attr("#job-2", "id").await?.is_none(),
        "only the good job is set"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

/// The number before " arrived, waiting" in teaching mode's host box, once it shows one.
async fn host_backlog(browser: &Browser) -> Result<Option<u64>> {
    let t = text_of(browser, "#activity g.host").await?;
    let head = t.split(" arrived, waiting").next().unwrap_or_default();
    Ok((head.len() < t.len())
        .then(|| {
            head.rsplit(|c: char| !c.is_ascii_digit())
                .next()?
                .parse()
                .ok()
        })
        .flatten())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_teaching_mode_at_a_rate_past_capacity_shows_the_hosts_queue_growing() -> Result {
    let browser = Browser::start().await?;
    browser
        .open(
            "?view=activity&speed=1000&preset=e18dc&cap=480&workload=rate&rate=250000&qd=64",
            "#activity",
        )
        .await?;
    browser.click("teach-play").await?;
    let first = browser
        .wait_for("the host's queue to show", || async {
            Ok(host_backlog(&browser).await?.filter(|n| *n > 0))
        })
        .await?;
    let host = text_of(&browser, "#activity g.host").await?;
    assert!(host.contains("at most 64 at the drive"), "{host}");
    browser
        .wait_for("the host's queue to grow", || async {
            Ok(host_backlog(&browser).await?.filter(|n| *n > first))
        })
        .await?;
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_the_desktop_trace_shows_the_octane_verdict_and_a_replay_can_be_cancelled() -> Result {
    let browser = Browser::start().await?;
    // The review's Light verdict: the 128 GB Octane "does quite well" against the 512 GB.
    browser
        .open(
            "?preset=octane&cap=128&workload=trace&trace=desktop-light&state=fob",
            "#figure-trace",
        )
        .await?;
    let verdict = browser
        .wait_for("the replay's verdict", || async {
            let t = text_of(&browser, "#trace-verdict").await?;
            Ok((!t.is_empty()).then_some(t))
        })
        .await?;
    assert!(
        verdict.starts_with("128 GB (16 dies) keeps 92% of the data rate of 512 GB (64 dies)"),
        "{verdict}"
    );
    let rows = browser
        .js(
            "return document.querySelectorAll('#trace-table tbody tr').length;",
            vec![],
        )
        .await?;
    assert_eq!(rows, serde_json::json!(3), "128, 256 and 512 GB");
    // Each direction's latency distribution, as percentiles.
    let table = text_of(&browser, "#trace-table").await?;
    assert!(
        table.contains("p50") && table.contains("p90") && table.contains("p99.9"),
        "{table}"
    );
    // Throughput and queue depth over the trace, one curve per drive.
    for chart in ["#chart-trace-rate", "#chart-trace-depth"] {
        let drawn = browser
            .wait_for("the chart over the trace", || async {
                let h = browser.canvas_hash(chart).await?;
                Ok((!h.ends_with(":0") && !h.is_empty()).then_some(h))
            })
            .await?;
        assert!(!drawn.is_empty(), "{chart}");
    }
    // Heavy takes seconds: Cancel stops it, Run starts it again, and the page keeps its state.
    browser.click("trace-desktop-heavy").await?;
    browser
        .wait_for_query("the Heavy trace in the link", &["trace=desktop-heavy"])
        .await?;
    click_when_there(&browser, "trace-cancel", "Cancel while the replay runs").await?;
    browser
        .wait_for("the replay to stop", || async {
            Ok(text_of(&browser, "#trace-status")
                .await?
                .contains("stopped")
                .then_some(()))
        })
        .await?;
    assert!(browser
        .location_search()
        .await?
        .contains("trace=desktop-heavy"));
    browser.click("trace-run").await?;
    browser
        .wait_for("the replay to run again", || async {
            browser.attr("#trace-cancel", "id").await
        })
        .await?;
    browser.assert_clean_console()?;
    browser.close().await
}

/// A scratch file for the trace tests.
fn trace_file(name: &str, text: &str) -> Result<PathBuf> {
    let path = common::fio::scratch("e2e-traces", name)?;
    std::fs::write(&path, text).with_context(|| format!("{}", path.display()))?;
    Ok(path)
}

/// fio's own version 3 iolog of a small rate-limited mixed job, written by the real fio.
fn real_fio_iolog() -> Result<PathBuf> {
    let log = common::fio::scratch("e2e-traces", "fio.iolog")?;
    // fio appends to an iolog that is already there.
    let _ = std::fs::remove_file(&log);
    let job = format!(
        "[replay]\nfilename={}\nsize=4M\nrw=randrw\nrwmixread=60\nbs=4k\nioengine=psync\n\
         number_ios=200\nrate_iops=2000\nwrite_iolog={}\n",
        common::fio::scratch("e2e-traces", "fio.bin")?.display(),
        log.display()
    );
    common::fio::run_fio("e2e-traces", "iolog", &job)?;
    Ok(log)
}

/// Chooses `path` in the trace view's file input and waits for its replay's table.
async fn replay_file(browser: &Browser, path: &std::path::Path) -> Result<String> {
    browser
        .press("trace-upload", &path.display().to_string())
        .await?;
    let name = path.file_name().context("a trace file's name")?;
    let name = name.to_string_lossy().to_string();
    browser
        .wait_for("the file's replay", || async {
            let title = text_of(browser, "#figure-trace h2").await?;
            let rows = browser
                .js(
                    "return document.querySelectorAll('#trace-table tbody tr').length;",
                    vec![],
                )
                .await?;
            Ok((title.contains(&name) && rows == serde_json::json!(3)).then_some(title))
        })
        .await
}

/// A trace of 400 requests in each format the page reads, the last written by the real fio.
fn a_trace_of_each_format() -> Result<[PathBuf; 4]> {
    Ok([
        // MQSim: arrival ns, device, start sector, sectors, 0 write / 1 read.
        trace_file(
            "mqsim.trace",
            &(0..400)
                .map(|i| format!("{} 1 {} 8 {}\n", i * 50_000, i * 64, i % 2))
                .collect::<String>(),
        )?,
        // blkparse's default output: device, cpu, sequence, seconds, pid, action, rwbs,
        // sector + count [process].
        trace_file(
            "blkparse.txt",
            &(0..400)
                .map(|i| {
                    format!(
                        "8,0 1 {} {}.{:09} 4162 Q {} {} + 8 [app]\n",
                        i + 1,
                        i / 10_000,
                        (i % 10_000) * 100_000,
                        if i % 3 == 0 { "W" } else { "R" },
                        i * 8
                    )
                })
                .collect::<String>(),
        )?,
        // The SNIA/MSR Cambridge CSV: Windows filetime, host, disk, type, offset, size, response.
        trace_file(
            "msr.csv",
            &(0..400)
                .map(|i| {
                    format!(
                        "{},hm,1,{},{},4096,100\n",
                        128_166_372_003_061_629u64 + i * 1_000,
                        if i % 4 == 0 { "Write" } else { "Read" },
                        i * 4096
                    )
                })
                .collect::<String>(),
        )?,
        real_fio_iolog()?,
    ])
}

/// A malformed file says which lines and why, and the lab keeps its state; a request of
/// 477 GiB is refused by its line, as `lab replay` refuses it.
async fn a_bad_file_is_refused_by_its_lines(browser: &Browser) -> Result {
    let bad = trace_file("bad.trace", "0 1 0 8 1\n5 1 x 8 1\n6 1 0 8 7\n")?;
    let before = browser.location_search().await?;
    browser
        .press("trace-upload", &bad.display().to_string())
        .await?;
    let error = browser
        .wait_for("the bad file's message", || async {
            let t = text_of(browser, "#trace-error").await?;
            Ok((!t.is_empty()).then_some(t))
        })
        .await?;
    assert!(
        error.contains("line 2") && error.contains("line 3"),
        "{error}"
    );
    assert_eq!(browser.location_search().await?, before);
    let huge_request = trace_file(
        "huge-request.trace",
        "0 1 0 8 1\n1000 1 8 8 1\n2000 1 16 999999999 1\n",
    )?;
    browser
        .press("trace-upload", &huge_request.display().to_string())
        .await?;
    browser
        .wait_for("the huge request's refusal", || async {
            let t = text_of(browser, "#trace-error").await?;
            Ok((t.contains("line 3") && t.contains("larger than 256 MiB")).then_some(()))
        })
        .await
}

/// A zero-length request is skipped and one past a drive's end wraps, each counted per drive:
/// sector 2,000,000,000 (1.02 TB) lies past the 480 and 960 GB drives' ends.
async fn odd_requests_are_skipped_or_wrapped_and_counted(browser: &Browser) -> Result {
    let odd = trace_file(
        "odd.trace",
        "0 1 0 8 1\n1000 1 8 0 1\n2000 1 2000000000 8 1\n3000 1 2000000008 8 0\n",
    )?;
    replay_file(browser, &odd).await?;
    let adjusted = text_of(browser, "#trace-adjusted").await?;
    assert!(
        adjusted.starts_with("Adjusted to fit the drive:"),
        "{adjusted}"
    );
    assert_eq!(
        adjusted.matches("1 zero-length request skipped").count(),
        3,
        "{adjusted}"
    );
    assert_eq!(
        adjusted
            .matches("2 requests past the drive's end wrapped onto it")
            .count(),
        2,
        "{adjusted}"
    );
    Ok(())
}

/// A file over 100 MB is refused before it is read.
async fn a_file_over_100_mb_is_refused_unread(browser: &Browser) -> Result {
    let huge = common::fio::scratch("e2e-traces", "huge.trace")?;
    let sparse = || format!("a sparse file {}", huge.display());
    let f = std::fs::File::create(&huge).with_context(sparse)?;
    f.set_len(101 << 20).with_context(sparse)?;
    browser
        .press("trace-upload", &huge.display().to_string())
        .await?;
    let refused = browser
        .wait_for("the size refusal", || async {
            let t = text_of(browser, "#trace-upload-refused").await?;
            Ok((!t.is_empty()).then_some(t))
        })
        .await?;
    assert!(refused.contains("up to 100 MB"), "{refused}");
    let _ = std::fs::remove_file(&huge);
    Ok(())
}

/// A long trace can be cancelled while it is read or replayed.
async fn a_long_trace_can_be_cancelled(browser: &Browser) -> Result {
    let long = trace_file(
        "long.trace",
        &(0..600_000u64)
            .map(|i| format!("{} 1 {} 8 1\n", i * 20_000, (i * 7919 % 1_000_000) * 8))
            .collect::<String>(),
    )?;
    browser
        .press("trace-upload", &long.display().to_string())
        .await?;
    click_when_there(browser, "trace-cancel", "Cancel while the long trace runs").await?;
    browser
        .wait_for("the replay to stop", || async {
            Ok(text_of(browser, "#trace-status")
                .await?
                .contains("stopped")
                .then_some(()))
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_trace_file_of_each_format_replays_and_a_bad_one_names_its_lines() -> Result {
    let files = a_trace_of_each_format()?;
    let browser = Browser::start().await?;
    let link = "?preset=e18dc&cap=480&workload=trace&trace=file";
    browser.open(link, "#figure-trace").await?;
    let status = text_of(&browser, "#trace-status").await?;
    assert!(status.contains("choose one in the controls"), "{status}");
    for file in &files {
        replay_file(&browser, file).await?;
    }
    a_bad_file_is_refused_by_its_lines(&browser).await?;
    odd_requests_are_skipped_or_wrapped_and_counted(&browser).await?;
    a_file_over_100_mb_is_refused_unread(&browser).await?;
    a_long_trace_can_be_cancelled(&browser).await?;
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_on_a_phone_the_workload_views_never_scroll_sideways_and_their_controls_are_44_px(
) -> Result {
    let browser = Browser::start().await?;
    browser.cdp(
        "Emulation.setDeviceMetricsOverride",
        serde_json::json!({"width": 360, "height": 800, "deviceScaleFactor": 2, "mobile": true}),
    )?;
    let views = [
        (
            "?preset=e18dc&cap=480&workload=rate&rate=100000&qd=64",
            "#chart-load",
        ),
        ("?preset=e18dc&cap=480&workload=jobs", "#jobs-table"),
        (
            "?preset=octane&cap=128&workload=trace&trace=desktop-light&state=fob",
            "#trace-table",
        ),
    ];
    for (link, ready) in views {
        browser.open(link, "#controls").await?;
        browser
            .wait_for("the view's results", || async {
                browser.attr(ready, "id").await
            })
            .await?;
        let overflow = browser.sideways_overflow().await?;
        assert!(
            overflow <= 0,
            "{link}: {overflow} px of sideways scrolling at 360 px"
        );
        let small = browser
            .js(
                "return [...document.querySelectorAll('#controls input, #controls select, #controls button, .radio')]
                     .filter((e) => e.type !== 'file' && e.type !== 'radio' && e.type !== 'checkbox')
                     .filter((e) => e.getBoundingClientRect().height > 0)
                     .filter((e) => e.getBoundingClientRect().height < 44)
                     .map((e) => e.id || e.className);",
                vec![],
            )
            .await?;
        assert_eq!(
            small,
            serde_json::json!([]),
            "{link}: touch targets under 44 px"
        );
    }
    browser.assert_clean_console()?;
    browser.close().await
}

/// The E12 review's tests as a workload in the page: `view=review` runs the suite in the
/// worker on the drive the controls set and shows one chart a test in the review's order,
/// each under the review's words; every score is the one `lab review` prints. The view's
/// contents are built when it is first chosen, not at start-up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_the_reviews_tests_run_in_the_worker_and_match_lab_review() -> Result {
    let browser = Browser::start().await?;
    browser.open("?preset=e12&cap=960", "#view-review").await?;
    assert_eq!(
        browser
            .js(
                "return document.querySelectorAll('#review-tests *').length;",
                vec![]
            )
            .await?,
        json!(0),
        "a view never shown is not built"
    );
    browser.click("view-review").await?;
    let status = browser
        .wait_for("the review's tests to run", || async {
            let s = text_of(&browser, "#review-status").await?;
            Ok(s.contains("every test").then_some(s))
        })
        .await?;
    assert!(status.starts_with("Model"), "{status}");
    let captions: Vec<String> = serde_json::from_value(
        browser
            .js(
                "return [...document.querySelectorAll('#review-tests figcaption')].map(f => f.textContent);",
                vec![],
            )
            .await?,
    )
    .expect("captions");
    assert_eq!(captions.len(), 10, "{captions:?}");
    let lab = lab_json(&["review", "e12", "--format", "json"])?;
    let lab: Vec<Value> = serde_json::from_value(lab).context("lab's JSON")?;
    // The model's check of each test's shape against the review's words, as lab prints it.
    let checks: Vec<Option<String>> = serde_json::from_value(
        browser
            .js(
                "return [...document.querySelectorAll('#review-tests figure')].map(f => { const c = f.querySelector('.review-check'); return c ? c.textContent : null; });",
                vec![],
            )
            .await?,
    )
    .expect("checks");
    assert_eq!(checks.len(), lab.len(), "{checks:?}");
    for (shown, test) in checks.iter().zip(&lab) {
        let check = &test["check"];
        match (shown, check.is_null()) {
            (None, true) => {}
            (Some(text), false) => {
                let verdict = if check["holds"].as_bool().unwrap() {
                    "The model's curve has that shape: "
                } else {
                    "The model's curve misses that shape: "
                };
                let found = check["found"].as_str().unwrap();
                assert_eq!(text, &format!("{verdict}{found}."), "{}", test["test"]);
            }
            _ => panic!("{}: the page shows {shown:?}, lab {check}", test["test"]),
        }
    }
    for (caption, test) in captions.iter().zip(&lab) {
        let title = test["title"].as_str().unwrap();
        assert!(caption.starts_with(title), "{caption} against {title}");
        let score = test["score_mb_s"].as_f64().unwrap();
        let shown = parallelism_lab::ui::pure::format::mb_s(score);
        assert!(
            caption.contains(&format!("score {shown} (model)")),
            "{caption}: {shown}"
        );
    }
    let says = text_of(&browser, "#review-tests .review-says").await?;
    assert!(says.contains("“very good”"), "{says}");
    assert!(
        browser.location_search().await?.contains("view=review"),
        "the URL carries the view"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

/// How long the scorecard may take in the worker before the test fails (the whole table, a
/// figure a slice, in a worker it shares with the charts' plan).
const SCORECARD_TIMEOUT: Duration = Duration::from_secs(180);

/// Waits until `#scorecard-status` says every figure is scored, and gives how long it took
/// and when each count of steps made ("N of M steps": the shared runs, then the figures) was
/// first seen, from the start: the gap before a count is about how long that step took (to the
/// 50 ms this polls at, and the 150 ms the page gathers replies over).
async fn wait_for_scorecard(browser: &Browser) -> Result<(Duration, Vec<(usize, Duration)>)> {
    let start = Instant::now();
    let mut seen: Vec<(usize, Duration)> = Vec::new();
    loop {
        let status = text_of(browser, "#scorecard-status").await?;
        if status.contains("every published figure scored") {
            return Ok((start.elapsed(), seen));
        }
        assert!(
            !status.contains("could not") && !status.contains("stopped"),
            "{status}"
        );
        let done = status
            .split(": ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse::<usize>().ok());
        if let Some(done) = done.filter(|d| seen.last().is_none_or(|l| l.0 != *d)) {
            seen.push((done, start.elapsed()));
        }
        assert!(
            start.elapsed() < SCORECARD_TIMEOUT,
            "the scorecard did not finish in {SCORECARD_TIMEOUT:?}: {status}; console: {}",
            browser.console_text()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The model's shared runs, made before the figures are scored (`ScorecardRun`), in its order.
const SHARED_RUNS: [&str; 5] = [
    "desktop-light on 128 GB",
    "desktop-light on 512 GB",
    "desktop-heavy on 128 GB",
    "desktop-heavy on 512 GB",
    "the E12 review's suite",
];

/// The longest gaps between two counts seen, each with the step under way when the earlier
/// count was seen (a shared run, made in slices of a few milliseconds, or a figure): (name, s).
fn slowest_figures(
    seen: &[(usize, Duration)],
    took: Duration,
    rows: &[Value],
) -> Vec<(String, f64)> {
    let mut counts = vec![(0, Duration::ZERO)];
    counts.extend_from_slice(seen);
    counts.push((SHARED_RUNS.len() + rows.len(), took));
    let mut gaps: Vec<(String, f64)> = counts
        .windows(2)
        .filter_map(|w| {
            let step = w[0].0;
            let name = match SHARED_RUNS.get(step) {
                Some(run) => run.to_string(),
                None => rows.get(step - SHARED_RUNS.len())?["id"]
                    .as_str()?
                    .to_string(),
            };
            Some((name, (w[1].1 - w[0].1).as_secs_f64()))
        })
        .collect();
    gaps.sort_by(|a, b| b.1.total_cmp(&a.1));
    gaps.truncate(3);
    gaps
}

/// Saves the whole page as `name.png` among the artefacts (`target/tmp/screenshots/`), its
/// viewport emulated `width` CSS px wide (a phone's when `mobile`) and as tall as the page.
async fn whole_page_screenshot(browser: &Browser, name: &str, width: u32, mobile: bool) -> Result {
    let metrics = |height: u64| json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile});
    browser.cdp("Emulation.setDeviceMetricsOverride", metrics(844))?;
    let height = browser
        .js("return document.documentElement.scrollHeight;", vec![])
        .await?;
    let height = height.as_u64().unwrap_or(844).clamp(844, 16_000);
    browser.cdp("Emulation.setDeviceMetricsOverride", metrics(height))?;
    let png = browser.client.screenshot().await.context("a screenshot")?;
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    let file = dir.join(format!("{name}.png"));
    std::fs::create_dir_all(&dir).with_context(|| format!("{}", dir.display()))?;
    std::fs::write(&file, png).with_context(|| format!("{}", file.display()))
}

/// The page's scorecard is `lab`'s (`lab validate --format json`): the summary line verbatim,
/// every row's id, model figure and verdict in order, one section a source, each citing it,
/// with a chart named in words where it has numbers.
async fn assert_scorecard_is_labs(browser: &Browser, lab: &Value) -> Result {
    let rows = lab["rows"].as_array().context("lab's rows")?;
    // The card is drawn a part a task after it is scored: wait for its last row.
    browser
        .wait_until(
            "every row of the card drawn",
            &format!(
                "return document.querySelectorAll('#scorecard tr[data-id]').length === {};",
                rows.len()
            ),
        )
        .await?;
    assert_eq!(
        text_of(browser, "#scorecard-summary").await?,
        lab["summary_line"].as_str().context("lab's summary line")?,
        "the summary line, verbatim"
    );
    let shown = browser
        .js(
            "return [...document.querySelectorAll('#scorecard tr[data-id]')].map(tr =>
                 [tr.dataset.id, tr.querySelector('.scorecard-model').textContent, tr.dataset.verdict]);",
            vec![],
        )
        .await?;
    let expected: Vec<Value> = rows
        .iter()
        .map(|r| json!([r["id"], r["model_text"], r["verdict"]]))
        .collect();
    assert_eq!(
        shown,
        json!(expected),
        "every row as lab validate scores it"
    );
    // One section a source, each citing it, with a chart named in words where it has numbers.
    let sections = browser
        .js(
            "return [...document.querySelectorAll('#scorecard .scorecard-source')].map(s =>
                 [s.querySelector('h3').textContent, !!s.querySelector('cite')?.textContent,
                  s.querySelector('svg[role=img]')?.getAttribute('aria-label') ?? '']);",
            vec![],
        )
        .await?;
    let by_source = lab["summary"]["by_source"]
        .as_array()
        .context("lab's sources")?;
    let sections = sections.as_array().context("the card's sections")?;
    assert_eq!(sections.len(), by_source.len(), "{sections:?}");
    for s in sections {
        assert_eq!(s[1], json!(true), "{s}");
        let chart = s[2]
            .as_str()
            .with_context(|| format!("a chart's label: {s}"))?;
        assert!(chart.is_empty() || chart.contains("log scales"), "{s}");
    }
    Ok(())
}

/// On a phone (390 x 844, emulated) nothing scrolls sideways (the table's rows stack).
async fn assert_no_sideways_scroll_on_a_phone(browser: &Browser) -> Result {
    browser.cdp(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": true}),
    )?;
    browser
        .wait_until("the phone's viewport", "return window.innerWidth === 390;")
        .await?;
    let overflow = browser.sideways_overflow().await?;
    assert!(
        overflow <= 0,
        "{overflow} px of sideways scrolling at 390 px"
    );
    Ok(())
}

/// From another view, the masthead's link opens the scorecard in place: the drive kept, the
/// focus on its heading; before, the view is not built. Cancel stops the scoring.
async fn the_masthead_link_opens_it_in_place_and_cancel_stops_it(browser: &Browser) -> Result {
    browser
        .open("?preset=e12&cap=960", "#scorecard-link")
        .await?;
    assert_eq!(
        browser
            .js(
                "return document.querySelectorAll('#scorecard *').length;",
                vec![]
            )
            .await?,
        json!(0),
        "a view never shown is not built"
    );
    browser.click("scorecard-link").await?;
    browser
        .wait_for_query("the view in the URL", &["preset=e12", "view=scorecard"])
        .await?;
    browser
        .wait_until(
            "the view's heading focused",
            "return document.activeElement?.id === 'scorecard-title';",
        )
        .await?;
    let status = text_of(browser, "#scorecard-status").await?;
    assert!(
        status.contains("scor") && !status.contains("stopped"),
        "{status}"
    );
    click_when_there(browser, "scorecard-cancel", "Cancel while it scores").await?;
    browser
        .wait_for("the scoring to stop", || async {
            let stopped = text_of(browser, "#scorecard-status")
                .await?
                .contains("stopped");
            Ok(stopped.then_some(()))
        })
        .await
}

/// "How good is this model?": `view=scorecard` scores every published figure in the worker
/// and shows, source by source, each figure's row; every row's model figure and verdict, and
/// the summary line, are the ones `lab validate` prints. On a phone nothing scrolls sideways;
/// the masthead's link opens the view in place, keeping the drive, and the view is not built
/// before it is opened.
/// Records the page's own tasks over 50 ms from now on, in `window.__scorecardTasks` (ms).
async fn record_long_tasks(browser: &Browser) -> Result {
    browser
        .js(
            "window.__scorecardTasks = []; new PerformanceObserver((l) => { \
             for (const e of l.getEntries()) window.__scorecardTasks.push(Math.round(e.duration)); \
             }).observe({ type: 'longtask' });",
            vec![],
        )
        .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_the_scorecard_runs_in_the_worker_and_matches_lab_validate() -> Result {
    let lab = tokio::task::spawn_blocking(|| lab_json(&["validate", "--format", "json"]));
    let browser = Browser::start().await?;
    browser.open("?view=scorecard", "#scorecard").await?;
    // The page's own tasks while the worker scores (printed with `--nocapture`, a measurement).
    record_long_tasks(&browser).await?;
    let (took, seen) = wait_for_scorecard(&browser).await?;
    let long_tasks = browser
        .js("return window.__scorecardTasks;", vec![])
        .await?;
    let lab = lab.await.context("lab's thread")??;
    let rows = lab["rows"].as_array().context("lab's rows")?;
    // With `--nocapture`: the time in the worker (from the page's mount), and the longest it
    // went between two counts of steps made.
    eprintln!(
        "the scorecard in the worker: {took:.1?} from the page's mount; longest between two counts (step then under way, s): {:?}",
        slowest_figures(&seen, took, rows)
    );
    eprintln!("the page's tasks over 50 ms while it scored and showed it (ms): {long_tasks}");
    assert_scorecard_is_labs(&browser, &lab).await?;
    assert!(browser.location_search().await?.contains("view=scorecard"));
    assert_no_sideways_scroll_on_a_phone(&browser).await?;
    whole_page_screenshot(&browser, "scorecard-390", 390, true).await?;
    whole_page_screenshot(&browser, "scorecard-1280", 1280, false).await?;
    browser.cdp("Emulation.clearDeviceMetricsOverride", json!({}))?;
    browser.assert_clean_console()?;
    the_masthead_link_opens_it_in_place_and_cancel_stops_it(&browser).await?;
    browser.assert_clean_console()?;
    browser.close().await
}
