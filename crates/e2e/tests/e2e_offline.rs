//! End-to-end: after one visit the lab opens without a network (issue 21; README "Works
//! offline"). The build's service worker (`sw.js`, written by `assets/service-worker.sh`)
//! keeps every file of `dist/` in a cache named after the build's version; these tests load
//! the page under the test server's sub-path, wait until that cache holds exactly the files
//! the build shipped, then stop the server (the port is closed: a network that is gone, not a
//! simulated one) and reload. A second test serves a copy of `dist/`, changes it into another
//! build (a different `index.html`, `sw.js` rewritten by the same hook) and checks that the
//! next visit replaces the old cache with the new one, and the visit after shows the new build.
//!
//! Needs `dist/` (`trunk build --release`) and `/usr/bin/chromedriver`; fails, never skips.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::{Path, PathBuf};

use common::{dist_dir, repo_root, Browser, Context, Failure, Result};
use serde_json::{json, Value};

/// The service worker's file in the build (the one file its cache does not hold).
const WORKER: &str = "sw.js";

/// How long an install may take: it downloads and hashes the whole build once more, which on
/// a loaded machine takes longer than a control takes to react.
const INSTALL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// The page's title in the build the update test makes.
const NEW_TITLE: &str = "Parallelism Lab (the next build)";

/// Every file of the site in `root` but the worker, as paths relative to it, sorted.
fn shipped(root: &Path) -> Result<Vec<String>> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) -> Result {
        let folder = || format!("{}", dir.display());
        for entry in std::fs::read_dir(dir).with_context(folder)? {
            let path = entry.with_context(folder)?.path();
            if path.is_dir() {
                walk(&path, root, out)?;
            } else {
                let rel = path.strip_prefix(root)?;
                let rel = rel.to_str().with_context(|| format!("{rel:?} is UTF-8"))?;
                out.push(rel.replace(std::path::MAIN_SEPARATOR, "/"));
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(root, root, &mut files)?;
    files.retain(|f| f != WORKER);
    files.sort();
    Ok(files)
}

/// The build's version, as the hook wrote it into `sw.js`.
fn version(root: &Path) -> Result<String> {
    let worker = std::fs::read_to_string(root.join(WORKER))
        .with_context(|| format!("{}", root.join(WORKER).display()))?;
    let line = worker
        .lines()
        .find(|l| l.starts_with("const VERSION = \""))
        .context("sw.js names its version")?;
    Ok(line
        .trim_start_matches("const VERSION = \"")
        .trim_end_matches("\";")
        .to_string())
}

/// The cache a build's worker fills: one per copy of the lab (its scope) and version.
fn cache_name(browser: &Browser, version: &str) -> String {
    format!("parallelism-lab {} {version}", browser.url(""))
}

/// The absolute URLs of `files` in the served app.
fn urls(browser: &Browser, files: &[String]) -> Vec<String> {
    let mut urls: Vec<String> = files.iter().map(|f| browser.url(f)).collect();
    urls.sort();
    urls
}

/// What the page sees of its service worker: whether one is active and controls the page, and
/// every cache of the origin with the URLs it holds.
async fn offline_state(browser: &Browser) -> Result<Value> {
    // WebDriver waits for the promise a script returns.
    const SCRIPT: &str = r#"
        return (async () => {
            const registration = await navigator.serviceWorker.getRegistration();
            const caches_ = {};
            for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                caches_[name] = (await cache.keys()).map((r) => r.url).sort();
            }
            return {
                active: registration?.active?.state ?? null,
                controlled: navigator.serviceWorker.controller !== null,
                caches: caches_,
            };
        })();
    "#;
    browser.js(SCRIPT, vec![]).await
}

/// Waits until an activated worker controls the page and the origin's only cache is `name`
/// holding exactly `expected` (absolute URLs, sorted).
async fn wait_for_offline_copy(browser: &Browser, name: &str, expected: &[String]) -> Result {
    let want = json!({
        "active": "activated",
        "controlled": true,
        "caches": { name: expected },
    });
    let deadline = tokio::time::Instant::now() + INSTALL_TIMEOUT;
    loop {
        let state = offline_state(browser).await?;
        if state == want {
            return Ok(());
        }
        if tokio::time::Instant::now() > deadline {
            return Err(Failure::new(format!(
                "the offline copy is not what the build shipped:\n got {state:#}\nwant {want:#}\n\
                 console: {}",
                browser.console_text()
            )));
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// Waits until the charts against queue depth are drawn, every point estimated, with ink.
async fn wait_for_charts(browser: &Browser) -> Result {
    browser.wait_for_queue_charts().await?;
    let hash = browser.canvas_hash("#chart-iops").await?;
    let ink = hash.rsplit(':').next().unwrap_or_default();
    let ink: u64 = ink.parse().with_context(|| format!("the ink of {hash}"))?;
    assert!(ink > 0, "the IOPS chart is blank: {hash}");
    Ok(())
}

/// The port the test server listens on (or listened on).
fn port(browser: &Browser) -> Result<u16> {
    let url = browser.url("");
    let host = url.trim_start_matches("http://").split('/').next();
    let port = host.and_then(|h| h.rsplit(':').next()).unwrap_or_default();
    port.parse().with_context(|| format!("the port of {url}"))
}

/// Stops the test server and checks that nothing answers on its port any more.
fn cut_the_network(browser: &mut Browser) -> Result {
    let port = port(browser)?;
    browser.server.stop();
    let refused = std::net::TcpStream::connect_timeout(
        &std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        std::time::Duration::from_secs(2),
    );
    assert!(
        refused.is_err(),
        "the server still answers on port {port} after stop()"
    );
    Ok(())
}

/// A file the build does not ship: the test asks for it on purpose.
const NOT_SHIPPED: &str = "not-shipped.txt";

/// Errors and warnings in the browser console since the last call, but for the failed requests
/// for [`NOT_SHIPPED`] the test made itself.
fn complaints(browser: &Browser) -> Result<Vec<common::LogEntry>> {
    Ok(browser
        .console()?
        .into_iter()
        .filter(|e| e.level == "SEVERE" || e.level == "WARNING")
        .filter(|e| !e.message.contains(NOT_SHIPPED))
        .collect())
}

/// Asks the browser to look for a new `sw.js` now and returns what became of the worker it
/// found: `activated` (installed and in charge) or `redundant` (its install failed).
async fn update_outcome(browser: &Browser) -> Result<Value> {
    const SCRIPT: &str = r#"
        return (async () => {
            const registration = await navigator.serviceWorker.getRegistration();
            await registration.update();
            const worker = registration.installing ?? registration.waiting;
            if (!worker) return "no new worker";
            return new Promise((resolve) => {
                const settled = () => ["activated", "redundant"].includes(worker.state);
                if (settled()) resolve(worker.state);
                worker.addEventListener("statechange", () => settled() && resolve(worker.state));
            });
        })();
    "#;
    browser.js(SCRIPT, vec![]).await
}

/// A copy of the site in `from` in a fresh folder of Cargo's per-target temporary directory.
fn copy_site(from: &Path, name: &str) -> Result<PathBuf> {
    fn copy(from: &Path, to: &Path) -> Result {
        let copying = || format!("a copy of {} in {}", from.display(), to.display());
        std::fs::create_dir_all(to).with_context(copying)?;
        for entry in std::fs::read_dir(from).with_context(copying)? {
            let entry = entry.with_context(copying)?;
            let (path, target) = (entry.path(), to.join(entry.file_name()));
            if path.is_dir() {
                copy(&path, &target)?;
            } else {
                std::fs::copy(&path, &target).with_context(copying)?;
            }
        }
        Ok(())
    }
    let to =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&to);
    copy(from, &to)?;
    Ok(to)
}

/// Samples, every 20 ms from now until both hold (or 20 s), whether the page has a service
/// worker registration and whether `<html>` says the first view is settled (`data-settled`,
/// src/ui/app.rs), with `#model-status`'s "every point computed" stamp and the time.
async fn registration_and_settling(browser: &Browser) -> Result<Vec<Value>> {
    const SCRIPT: &str = r#"
        return (async () => {
            const samples = [];
            const until = performance.now() + 20000;
            for (;;) {
                const registered = (await navigator.serviceWorker.getRegistration()) !== undefined;
                const root = document.documentElement;
                samples.push({
                    registered,
                    settled: root.hasAttribute("data-settled"),
                    computed: document.getElementById("model-status")?.dataset.computedAt !== undefined,
                    at: performance.now(),
                });
                if ((registered && root.hasAttribute("data-settled")) || performance.now() > until) {
                    return samples;
                }
                await new Promise((r) => setTimeout(r, 20));
            }
        })();
    "#;
    let samples = browser.js(SCRIPT, vec![]).await?;
    Ok(samples.as_array().cloned().unwrap_or_default())
}

/// README "Works offline": the copy downloads the whole build once more, so the page asks for
/// it only once its first view's model work is done (before, it competed with the model
/// worker's download and start: on the desktop bench every point was estimated 682/619/668 ms
/// after the load instead of 984/741/811).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_offline_the_copy_is_asked_for_only_once_every_point_is_computed() -> Result {
    let browser = Browser::start().await?;
    browser
        .open("?preset=e12&cap=960&qd=8", "#chart-iops")
        .await?;
    let samples = registration_and_settling(&browser).await?;
    assert!(!samples.is_empty());
    for sample in &samples {
        // At the latest 10 s after the app started, it is asked for anyway (assets/boot.js).
        let early = sample["at"].as_f64().unwrap() < 10_000.0;
        if sample["registered"] == json!(true) && early {
            assert_eq!(
                sample["settled"],
                json!(true),
                "registered before the first view settled: {samples:?}"
            );
        }
        if sample["settled"] == json!(true) {
            assert_eq!(
                sample["computed"],
                json!(true),
                "settled means every point computed: {samples:?}"
            );
        }
    }
    let last = samples.last().unwrap();
    assert_eq!(
        (&last["registered"], &last["settled"]),
        (&json!(true), &json!(true)),
        "the copy is asked for once the view settles: {samples:?}"
    );
    let console = complaints(&browser)?;
    assert!(console.is_empty(), "{console:#?}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_offline_after_one_visit_the_lab_opens_without_a_network() -> Result {
    let dist = dist_dir()?;
    let files = shipped(&dist)?;
    for kind in ["index.html", "_bg.wasm", ".css", ".svg"] {
        assert!(
            files.iter().any(|f| f.ends_with(kind)),
            "the build ships a {kind} file: {files:?}"
        );
    }
    assert!(files
        .iter()
        .any(|f| f.starts_with("boot-") && f.ends_with(".js")));

    let mut browser = Browser::start().await?;
    let query = "?preset=e12&cap=960&qd=8";
    browser.open(query, "#chart-iops").await?;
    wait_for_charts(&browser).await?;
    let name = cache_name(&browser, &version(&dist)?);
    let expected = urls(&browser, &files);
    wait_for_offline_copy(&browser, &name, &expected).await?;

    // Nothing else is stored: not a request the page did not ship (answered 404 here), not the
    // worker, not another view of the page (the same index.html).
    let statuses = browser
        .js(
            "return Promise.all([arguments[0], 'sw.js'].map(
                 (f) => fetch(f, { cache: 'no-store' }).then((r) => r.status)));",
            vec![json!(NOT_SHIPPED)],
        )
        .await?;
    assert_eq!(statuses, json!([404, 200]));
    browser.open("?view=time", "#drive-time").await?;
    browser.wait_for_time_charts().await?;
    wait_for_offline_copy(&browser, &name, &expected).await?;
    let console = complaints(&browser)?;
    assert!(console.is_empty(), "online: {console:#?}");

    cut_the_network(&mut browser)?;
    let gone = browser
        .js(
            "return fetch(arguments[0], { cache: 'no-store' })
                 .then((r) => `answered ${r.status}`, (e) => e.name);",
            vec![json!(NOT_SHIPPED)],
        )
        .await?;
    assert_eq!(gone, json!("TypeError"), "the page's own requests fail now");

    browser.open(query, "#chart-iops").await?;
    wait_for_charts(&browser).await?;
    let search = browser.location_search().await?;
    assert!(search.contains("preset=e12&cap=960"), "{search}");
    let iops = browser.text("#readout-iops").await?;
    assert!(
        iops.chars().any(|c| c.is_ascii_digit()),
        "a model result offline: {iops}"
    );
    browser.client.refresh().await.expect("reload");
    browser
        .wait_for("the reloaded page", || async {
            Ok(browser
                .js(
                    "return document.getElementById('chart-iops') !== null;",
                    vec![],
                )
                .await?
                .as_bool()
                .filter(|&b| b))
        })
        .await?;
    wait_for_charts(&browser).await?;
    // Any view, as the state lives in the query: the drive over time too.
    browser
        .open("?view=time&preset=e12&cap=960", "#drive-time")
        .await?;
    browser.wait_for_time_charts().await?;
    let offline = complaints(&browser)?;
    assert!(offline.is_empty(), "offline: {offline:#?}");
    browser.close().await
}

/// Guide "Works offline": the guide is part of the build, so after one visit its chapters open
/// without a network like the app: by its folder (the masthead's link), by a panel's "How does
/// this work?" link, and with the `?highlight=` mdBook's search adds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_offline_the_guide_opens_without_a_network_from_the_pages_links() -> Result {
    let dist = dist_dir()?;
    let files = shipped(&dist)?;
    assert!(
        files.iter().any(|f| f == "guide/index.html"),
        "the build ships the guide: {files:?}"
    );
    let mut browser = Browser::start().await?;
    browser.open("?preset=e12&cap=960", "#chart-iops").await?;
    wait_for_charts(&browser).await?;
    let name = cache_name(&browser, &version(&dist)?);
    let expected = urls(&browser, &files);
    wait_for_offline_copy(&browser, &name, &expected).await?;
    let links = browser
        .js(
            "return [document.getElementById('guide-link').getAttribute('href'),
                     document.querySelector('#readout .guide-link').getAttribute('href')];",
            vec![],
        )
        .await?;
    assert_eq!(
        links,
        json!(["guide/", "guide/using-the-page.html#what-the-page-shows"])
    );

    cut_the_network(&mut browser)?;
    for (path, heading) in [
        ("guide/", "Parallelism Lab"),
        (
            "guide/using-the-page.html#what-the-page-shows",
            "Using the page",
        ),
        ("guide/teaching.html?highlight=tour", "Teaching with it"),
    ] {
        let url = browser.url(path);
        browser
            .client
            .goto(&url)
            .await
            .expect("the guide's page opens");
        let script = format!(
            "return document.querySelector('main h1')?.textContent.trim() === {};",
            json!(heading)
        );
        browser
            .wait_until(&format!("{path} to show its chapter offline"), &script)
            .await?;
    }
    browser.close().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_offline_a_new_build_replaces_the_cache_on_the_next_visit() -> Result {
    let site = copy_site(&dist_dir()?, "offline-update")?;
    let files = shipped(&site)?;
    let old_version = version(&site)?;
    let mut browser = Browser::start_serving(&site).await?;
    browser.open("", "#chart-iops").await?;
    let old_cache = cache_name(&browser, &old_version);
    let expected = urls(&browser, &files);
    wait_for_offline_copy(&browser, &old_cache, &expected).await?;
    let old_title = browser.js("return document.title;", vec![]).await?;
    assert_ne!(old_title, json!(NEW_TITLE));

    // The next build: another index.html, and sw.js rewritten by the hook Trunk runs.
    let index = site.join("index.html");
    let html = std::fs::read_to_string(&index).unwrap();
    let changed = html.replace(
        "<title>Parallelism Lab</title>",
        &format!("<title>{NEW_TITLE}</title>"),
    );
    assert_ne!(changed, html, "index.html has the title this test changes");
    std::fs::write(&index, changed).unwrap();
    let hook = std::process::Command::new("bash")
        .arg(repo_root().join("assets").join("service-worker.sh"))
        .env("TRUNK_STAGING_DIR", &site)
        .output()
        .expect("run assets/service-worker.sh");
    assert!(hook.status.success(), "{hook:?}");
    let new_version = version(&site)?;
    assert_ne!(
        new_version, old_version,
        "a changed file makes a new version"
    );
    assert_eq!(shipped(&site)?, files, "the same file names");

    // A host that sends other bytes than the build listed (a stale or rewritten index.html):
    // the new worker refuses to install and the old copy stays whole.
    let built = std::fs::read_to_string(&index).unwrap();
    std::fs::write(&index, format!("{built}<!-- not the built file -->\n")).unwrap();
    assert_eq!(
        update_outcome(&browser).await?,
        json!("redundant"),
        "a worker whose files do not match their hashes is not installed"
    );
    wait_for_offline_copy(&browser, &old_cache, &expected).await?;
    std::fs::write(&index, built).unwrap();

    // The next visit is served from the old cache at once; meanwhile the browser finds the new
    // sw.js, which stores the new build and deletes the old cache.
    browser.open("", "#chart-iops").await?;
    assert_eq!(
        browser.js("return document.title;", vec![]).await?,
        old_title
    );
    let new_cache = cache_name(&browser, &new_version);
    wait_for_offline_copy(&browser, &new_cache, &expected).await?;
    let kept = browser
        .js(
            "return caches.open(arguments[0])
                 .then((c) => c.match(arguments[1]))
                 .then((r) => r.text());",
            vec![json!(new_cache), json!(browser.url("index.html"))],
        )
        .await?;
    assert!(
        kept.as_str().unwrap().contains(NEW_TITLE),
        "the new cache holds the new index.html"
    );

    // The visit after shows the new build, with and without a network.
    browser.open("", "#chart-iops").await?;
    assert_eq!(
        browser.js("return document.title;", vec![]).await?,
        json!(NEW_TITLE)
    );
    wait_for_charts(&browser).await?;
    cut_the_network(&mut browser)?;
    browser.open("?qd=64", "#chart-iops").await?;
    assert_eq!(
        browser.js("return document.title;", vec![]).await?,
        json!(NEW_TITLE)
    );
    wait_for_charts(&browser).await?;
    browser.assert_clean_console()?;
    browser.close().await?;
    let _ = std::fs::remove_dir_all(&site);
    Ok(())
}
