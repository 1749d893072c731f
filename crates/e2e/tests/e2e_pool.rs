//! End-to-end: the charts' model runs in the page's pool of Web Workers (src/ui/pool.rs,
//! crates/worker), issue 21.
//!
//! - The worker computes the numbers the native engine computes for the same runs, bit for
//!   bit (the model is deterministic for its seed, and a result crosses as exact JSON).
//! - What the page posts to a worker before the worker has loaded is held by its loader and
//!   worked on in order once it has (the pool sends its first plan at once); the loader asks
//!   for the worker's wasm beside its glue, not after it.
//! - The first worker starts before the app, while the app's wasm still arrives; the app's
//!   pool takes it and what it said meanwhile.
//! - A burst of slider moves leaves only the last state's work running: each new plan
//!   replaces the one before in every worker, so the runs started stay far below what every
//!   state of the burst would have cost.
//! - A worker that cannot start shows the page's error screen with the reason.
//!
//! Needs `dist/` and `/usr/bin/chromedriver`, like e2e.rs.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::time::Duration;

use common::{dist_with, Browser, Context, Result};
use parallelism_lab::model::presets;
use parallelism_lab::model::{ConfigError, DriveState, RunError, Rw};
use parallelism_work::protocol::{Reply, Request};
use parallelism_work::{DriveChoice, Outcome, PlanTask, RunKey};
use serde_json::{json, Value};

/// A run of `preset` at its default capacity.
fn run(
    preset: &str,
    rw: Rw,
    read_pct: u8,
    bs_bytes: u32,
    iodepth: u32,
    state: DriveState,
) -> Result<RunKey> {
    let p = parallelism_lab::model::custom::lookup(preset).context("a preset")?;
    Ok(RunKey {
        drive: DriveChoice::default_for(&p),
        preset: p,
        rw,
        read_pct,
        bs_bytes,
        iodepth,
        state,
        power_state: 0,
        load: parallelism_work::Load::Depth,
    })
}

/// Runs that reach every part of the engine: deep and shallow reads, the SLC cache, steady
/// state's garbage collection, a mix with suspends, a large sequential block, a power state,
/// a drive of the reader's own and a run the model refuses.
fn runs() -> Result<Vec<RunKey>> {
    assert!(presets::find("e12").is_some());
    Ok(vec![
        run("e18dc", Rw::RandRead, 100, 4096, 1, DriveState::Steady)?,
        run("e18dc", Rw::RandRead, 100, 4096, 128, DriveState::Steady)?,
        run("e18dc", Rw::RandRw, 70, 4096, 32, DriveState::Steady)?,
        run("e12", Rw::RandWrite, 0, 4096, 8, DriveState::Fob)?,
        run("e12", Rw::Write, 0, 131_072, 32, DriveState::Fob)?,
        RunKey {
            power_state: 2,
            ..run("e12", Rw::RandRead, 100, 4096, 64, DriveState::Fob)?
        },
        run("octane", Rw::Read, 100, 131_072, 4, DriveState::SeqFilled)?,
        run(
            "e12_d24_r52500_c900",
            Rw::RandRead,
            100,
            4096,
            16,
            DriveState::Fob,
        )?,
        run("e18dc", Rw::RandRead, 100, 4096, 0, DriveState::Fob)?,
    ])
}

/// Presses Shift+Right on the element `arguments[0]` `arguments[1]` times, each press in a
/// task of its own (a timer's), the next as soon as the page has handled the last.
const PRESS_IN_TASKS_OF_THEIR_OWN: &str = r#"
    const [id, times] = arguments;
    const el = document.getElementById(id);
    let pressed = 0;
    const press = () => {
        el.dispatchEvent(new KeyboardEvent("keydown", {
            key: "ArrowRight", shiftKey: true, bubbles: true, cancelable: true,
        }));
        if (++pressed < times) setTimeout(press, 0);
    };
    setTimeout(press, 0);
"#;

/// Starts a worker of the page by hand and posts it `messages` at once, before its module can
/// have loaded (its loader holds them); returns every message it sent until it was idle or
/// stopped.
const ASK_A_WORKER: &str = r#"
    const [messages, done] = [arguments[0], arguments[arguments.length - 1]];
    const worker = new Worker("./worker_loader.js", { type: "module" });
    const replies = [];
    worker.onerror = (e) => done({ error: String(e.message || "the worker did not load") });
    worker.onmessage = (e) => {
        replies.push(e.data);
        const reply = JSON.parse(e.data);
        if ((reply.Results && reply.Results.idle) || reply.Panicked) {
            worker.terminate();
            done(replies);
        }
    };
    for (const message of messages) worker.postMessage(message);
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_the_worker_computes_the_native_engines_numbers() -> Result {
    let browser = Browser::start().await?;
    browser.open("", "#model-status").await?;
    let keys = runs()?;
    let plan = Request::Plan {
        generation: 1,
        keys: keys.clone(),
    }
    .encode();
    browser
        .client
        .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
            Some(Duration::from_secs(120)),
            None,
            None,
        ))
        .await
        .expect("a script timeout");
    let replies = browser
        .client
        .execute_async(ASK_A_WORKER, vec![json!([plan])])
        .await
        .expect("the worker's replies");
    let Value::Array(replies) = replies else {
        panic!("the worker failed: {replies}")
    };

    let mut from_worker = std::collections::HashMap::new();
    for text in &replies {
        let reply = Reply::decode(text.as_str().expect("text")).expect("a reply");
        let results = match reply {
            Reply::Ready => continue,
            Reply::Results { results, .. } => results,
            other => panic!("{other:?}"),
        };
        from_worker.extend(results);
    }
    let mut native = PlanTask::new();
    native.set_plan(keys.clone());
    while !native.work(&mut || false).idle {}
    for key in &keys {
        let worker = from_worker
            .get(key)
            .unwrap_or_else(|| panic!("no result for {key}"));
        assert_eq!(Some(worker), native.outcome(key), "{key}");
        assert!(worker.is_final(), "{key}: {worker:?}");
    }
    assert!(
        matches!(
            from_worker.get(&keys[8]),
            Some(Outcome::Failed(RunError::Config(ConfigError::OutOfRange { what, value, .. })))
                if what == "iodepth" && value == "0"
        ),
        "the refusal crosses too, as itself"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

/// The worker's loader asks for the worker's wasm beside its glue (`worker.js`), not once the
/// glue has arrived and run: on a network with round trips, one fewer before the model starts.
/// The server holds the glue for a while; the wasm is asked for meanwhile, and the model still
/// computes every point.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_worker_asks_for_its_wasm_beside_its_glue() -> Result {
    const HOLD: Duration = Duration::from_millis(1500);
    let browser = Browser::start().await?;
    browser.server.hold("worker.js", HOLD);
    browser.open("", "#model-status").await?;
    browser.wait_for_queue_charts().await?;
    let served = browser.server.served();
    let first_asked = |name: &str| {
        let asked = browser.server.asked_at(name);
        asked
            .into_iter()
            .min()
            .unwrap_or_else(|| panic!("{name} was asked for: {served:?}"))
    };
    let (glue, wasm) = (first_asked("worker.js"), first_asked("worker_bg.wasm"));
    assert!(
        wasm < glue + HOLD / 2,
        "the wasm was asked for while the glue was held: {served:?}"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

/// The model's first worker starts before the app (`assets/boot.js`, beside the app's
/// download), and the app's pool takes it as its worker 0 with what it said meanwhile. The
/// server holds the app's wasm: the worker was asked for while the app's wasm was held, its
/// `Ready` came before the app started, the pool started no second copy of it, and the charts
/// are drawn with every point.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_the_model_s_first_worker_starts_before_the_app() -> Result {
    const HOLD: Duration = Duration::from_millis(2500);
    let app_wasm = common::app_wasm()?;
    let browser = Browser::start().await?;
    browser.server.hold(&app_wasm, HOLD);
    browser.open("", "#model-status").await?;
    browser.wait_for_queue_charts().await?;
    let served = browser.server.served();
    // Once the view has settled, the offline copy (`sw.js`, registered by boot.js then) fetches
    // every file of the build once more, the worker's loader among them: only the page's own
    // requests, those before it, are the pool's.
    let offline_copy = browser.server.asked_at("sw.js").into_iter().min();
    let loaders: Vec<_> = browser
        .server
        .asked_at("worker_loader.js")
        .into_iter()
        .filter(|at| offline_copy.is_none_or(|copy| *at < copy))
        .collect();
    let app = browser.server.asked_at(&app_wasm);
    assert!(
        loaders
            .first()
            .zip(app.first())
            .is_some_and(|(loader, app)| *loader < *app + HOLD / 2),
        "the first worker was started while the app's wasm was held: {served:?}"
    );
    let workers = browser.attr("#model-status", "data-workers").await?;
    assert_eq!(
        Some(loaders.len().to_string()),
        workers,
        "one worker started per worker of the pool: the first one is taken, not started twice"
    );
    let marks = browser
        .js(
            "const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
             return { ready: at('lab:worker-0-ready'), start: at('lab:start-start') };",
            vec![],
        )
        .await?;
    let (ready, start) = (marks["ready"].as_f64(), marks["start"].as_f64());
    assert!(
        ready.zip(start).is_some_and(|(ready, start)| ready < start),
        "the first worker was ready before the app started: {marks}"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

/// The largest function body the worker's wasm may hold, in bytes. The worker's slice, with
/// every lane of its server inlined, was 65 KB; V8 optimised it on another core in the middle
/// of the first view's load (some 170 ms of CPU). Its lanes are kept apart now (`Server::work`,
/// index.html's `wasm-opt` parameters), and the largest function is the server's reading of a
/// message, about 20 KB.
const LARGEST_WORKER_FUNCTION_BYTES: usize = 32 * 1024;

/// An unsigned LEB128 number at `at` in `bytes`, and where it ends.
fn leb128(bytes: &[u8], mut at: usize) -> (usize, usize) {
    let (mut value, mut shift) = (0usize, 0);
    loop {
        let byte = bytes[at];
        at += 1;
        value |= usize::from(byte & 0x7f) << shift;
        shift += 7;
        if byte < 0x80 {
            return (value, at);
        }
    }
}

/// The sizes of a wasm module's function bodies (its code section's entries).
fn function_body_sizes(wasm: &[u8]) -> Vec<usize> {
    const CODE_SECTION: u8 = 10;
    assert_eq!(&wasm[..4], b"\0asm", "a wasm module");
    let mut at = 8;
    while at < wasm.len() {
        let id = wasm[at];
        let (len, body) = leb128(wasm, at + 1);
        if id == CODE_SECTION {
            let (count, mut entry) = leb128(wasm, body);
            return (0..count)
                .map(|_| {
                    let (size, code) = leb128(wasm, entry);
                    entry = code + size;
                    size
                })
                .collect();
        }
        at = body + len;
    }
    Vec::new()
}

/// The worker's wasm keeps its functions apart: none is over
/// [`LARGEST_WORKER_FUNCTION_BYTES`], so the functions a slice runs are optimised each on its
/// own and early, not as one large function late in the first view's load.
#[test]
fn e2e_the_worker_s_wasm_has_no_function_over_32_kib() -> Result {
    let wasm =
        std::fs::read(common::dist_dir()?.join("worker_bg.wasm")).expect("dist/worker_bg.wasm");
    let sizes = function_body_sizes(&wasm);
    assert!(sizes.len() > 100, "the worker's functions: {}", sizes.len());
    let largest = sizes.iter().copied().max().unwrap_or(0);
    assert!(
        largest <= LARGEST_WORKER_FUNCTION_BYTES,
        "the worker's largest function is {largest} bytes"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_worker_takes_what_the_page_posted_before_it_loaded_in_order() -> Result {
    let browser = Browser::start().await?;
    browser.open("", "#model-status").await?;
    let key = runs()?.remove(0);
    let plan = Request::Plan {
        generation: 7,
        keys: vec![key.clone()],
    }
    .encode();
    let replies = browser
        .client
        .execute_async(ASK_A_WORKER, vec![json!(["not a request", plan])])
        .await
        .expect("the worker's replies");
    let Value::Array(replies) = replies else {
        panic!("the worker failed: {replies}")
    };
    let replies: Vec<Reply> = replies
        .iter()
        .map(|t| Reply::decode(t.as_str().expect("text")).expect("a reply"))
        .collect();
    // Trunk's own loader shim lost both: they arrived while the module awaited its wasm.
    assert_eq!(replies[0], Reply::Ready, "{replies:?}");
    assert!(
        matches!(&replies[1], Reply::Refused { .. }),
        "the first message held is answered first: {replies:?}"
    );
    let mut native = PlanTask::new();
    native.set_plan(vec![key.clone()]);
    while !native.work(&mut || false).idle {}
    let last = replies.iter().rev().find_map(|r| match r {
        Reply::Results {
            generation,
            results,
            ..
        } => results
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, outcome)| (*generation, outcome)),
        _ => None,
    });
    assert_eq!(
        last,
        Some((7, native.outcome(&key).expect("a native result"))),
        "the plan posted before the worker loaded is worked to its full result"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

/// The pool's state as the model status line carries it.
#[derive(Debug, PartialEq)]
struct PoolState {
    workers: u64,
    generation: u64,
    oldest_report: u64,
    stale_running: u64,
    runs_started: u64,
    text: String,
}

async fn pool_state(browser: &Browser) -> Result<PoolState> {
    const SCRIPT: &str = r#"
        const s = document.getElementById("model-status");
        const n = (name) => Number(s.getAttribute("data-" + name));
        return [n("workers"), n("generation"), n("oldest-report"), n("stale-running"),
                n("runs-started"), s.textContent];
    "#;
    let v = browser.js(SCRIPT, vec![]).await?;
    let n = |i: usize| v[i].as_u64().with_context(|| format!("a number: {}", v[i]));
    Ok(PoolState {
        workers: n(0)?,
        generation: n(1)?,
        oldest_report: n(2)?,
        stale_running: n(3)?,
        runs_started: n(4)?,
        text: v[5].as_str().unwrap_or_default().to_string(),
    })
}

/// Waits until every worker has reported on the current plan and every point is computed.
async fn wait_until_done(browser: &Browser) -> Result<PoolState> {
    browser
        .wait_for("every point of the plan computed", || async {
            let s = pool_state(browser).await?;
            assert_eq!(
                s.stale_running, 0,
                "a worker ran a dropped state's run: {s:?}"
            );
            Ok((s.oldest_report == s.generation && s.text.contains("all")).then_some(s))
        })
        .await
}

/// The distinct runs the states of `steps` fine steps up from QD 32 plan, beyond the first
/// state's (computed natively with the page's own plan).
fn runs_the_burst_asks_for(
    ladder: &parallelism_lab::ui::pure::ladder::Ladder,
    steps: usize,
) -> u64 {
    use parallelism_lab::ui::pure::{compute, state::LabState, url_state};
    let mut state = url_state::parse_query("?state=fob", LabState::default()).state;
    let first: std::collections::HashSet<RunKey> = compute::plan(&state).keys.into_iter().collect();
    let mut asked = std::collections::HashSet::new();
    for _ in 0..steps {
        state
            .workload
            .set_iodepth(ladder.step(state.workload.iodepth(), true, true));
        asked.extend(
            compute::plan(&state)
                .keys
                .into_iter()
                .filter(|k| !first.contains(k)),
        );
    }
    asked.len() as u64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_burst_of_slider_moves_leaves_only_the_last_states_work_running() -> Result {
    let browser = Browser::start().await?;
    browser.open("?state=fob", "#qd").await?;
    let before = wait_until_done(&browser).await?;
    assert!(before.workers >= 1);

    // 30 single steps of the depth, each a key press in a task of its own, as fast as the
    // page takes them: 30 states, each a new plan. (Keys typed in one go would reach the busy
    // page in one task, whose later steps the slider applies as one:
    // src/ui/controls/slider.rs.)
    let ladder = parallelism_lab::ui::pure::state::iodepth_ladder();
    let last = (0..30).fold(32, |iodepth, _| ladder.step(iodepth, true, true));
    assert!(last > 64, "30 distinct depths");
    browser
        .js(PRESS_IN_TASKS_OF_THEIR_OWN, vec![json!("qd"), json!(30)])
        .await?;
    let wanted = format!("qd={last}&");
    browser
        .wait_for_query("the 30th step in the URL", &[&wanted])
        .await?;
    let after = wait_until_done(&browser).await?;
    // The page makes a plan per state it shows (moves that land in one task share one).
    let plans = after.generation - before.generation;
    assert!(plans > 10, "the moves made plans: {before:?} -> {after:?}");
    // Every state of the burst asks for about 40 runs of its own (its depth on three drives
    // and the mixed sweep at that depth). A pool that finished every plan it was given would
    // start all of them; one that drops older plans starts the last state's and those it had
    // time for while each plan was the newest.
    let started = after.runs_started - before.runs_started;
    let asked = runs_the_burst_asks_for(&ladder, 30);
    assert!(
        started * 2 < asked,
        "{started} runs started for {plans} plans: not far below the {asked} the burst's states ask for"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_worker_that_cannot_start_shows_the_error_screen_with_the_reason() -> Result {
    // The app without its worker, as a host that lost a file would serve it.
    let details = crash_details(dist_with(
        "no-worker",
        |name| name == "worker_loader.js",
        None,
    )?)
    .await?;
    assert!(
        details.contains("the model's worker") && details.contains("worker_loader.js"),
        "the reason is shown: {details}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_worker_of_another_version_shows_the_error_screen_and_says_to_reload() -> Result {
    // A worker whose first message this page's protocol does not have, as a host that cached
    // an older build's (unhashed) worker files would pair them.
    let details = crash_details(dist_with(
        "old-worker",
        |name| name == "worker_loader.js",
        Some((
            "worker_loader.js",
            "postMessage(JSON.stringify({ Hello: { from: 'an older lab' } }));\n",
        )),
    )?)
    .await?;
    assert!(
        details.contains("another version of the lab") && details.contains("reload the page"),
        "the reason is shown: {details}"
    );
    Ok(())
}

/// Serves `root`, waits for the error screen, and gives its details; then removes `root`.
async fn crash_details(root: std::path::PathBuf) -> Result<String> {
    let browser = Browser::start_serving(&root).await?;
    browser.open("", "#crash").await?;
    let details = browser.text("#crash pre").await?;
    browser.close().await?;
    let _ = std::fs::remove_dir_all(&root);
    Ok(details)
}
