//! [`Browser`]: the built app served locally and a headless Chromium driven through fantoccini.

use super::{dist_dir, http, ChromeDriver, Context, Failure, Result, StaticServer};
use fantoccini::wd::Capabilities;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};
use std::future::Future;
use std::time::Duration;

/// The sub-path the app is served under, so the tests prove its asset URLs are relative.
pub const MOUNT: &str = "/some/sub-path/";

/// How long to wait for the page to react before failing.
pub const TIMEOUT: Duration = Duration::from_secs(15);

/// The smallest touch target, in CSS px (WCAG 2.5.5's target size, as Apple's guidelines).
pub const TOUCH_TARGET_PX: u32 = 44;

/// Chromium flags: headless, runnable as root, and no background traffic.
const CHROME_ARGS: &[&str] = &[
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1200,800",
];

/// One browser console message, as chromedriver reports it.
#[derive(Clone, Debug)]
pub struct LogEntry {
    /// `SEVERE`, `WARNING`, `INFO` or `DEBUG`.
    pub level: String,
    /// `console-api`, `javascript` (uncaught errors), `network`, `security` (CSP), ...
    pub source: String,
    pub message: String,
}

/// Static server + chromedriver + WebDriver session. Drop closes the session and stops both
/// processes, also when the test fails; call [`Browser::close`] at the end of a passing test.
pub struct Browser {
    pub client: Client,
    session_id: String,
    closed: bool,
    // Dropped after the session is closed (fields drop in declaration order).
    driver: ChromeDriver,
    pub server: StaticServer,
}

impl Browser {
    /// Serves `dist/` under [`MOUNT`] and opens a headless Chromium session. Console messages
    /// are collected from the start via chromedriver's `goog:loggingPrefs`.
    pub async fn start() -> Result<Self> {
        Self::start_with(&dist_dir()?, None).await
    }

    /// [`start`](Self::start), serving `root` instead of `dist/` (a changed copy of it).
    pub async fn start_serving(root: &std::path::Path) -> Result<Self> {
        Self::start_with(root, None).await
    }

    /// [`start`](Self::start), with every download saved to `dir` without a prompt.
    pub async fn start_downloading_to(dir: &std::path::Path) -> Result<Self> {
        Self::start_with(&dist_dir()?, Some(dir)).await
    }

    async fn start_with(
        root: &std::path::Path,
        downloads: Option<&std::path::Path>,
    ) -> Result<Self> {
        let server = StaticServer::start(root, MOUNT).context("cannot start the static server")?;
        let driver = ChromeDriver::start()?;

        let mut chrome_options = json!({ "args": CHROME_ARGS });
        if let Some(dir) = downloads {
            chrome_options["prefs"] = json!({
                "download.default_directory": dir.display().to_string(),
                "download.prompt_for_download": false,
                "profile.default_content_setting_values.automatic_downloads": 1,
            });
        }
        if std::path::Path::new("/usr/bin/chromium").is_file() {
            chrome_options["binary"] = json!("/usr/bin/chromium");
        }
        let mut caps = Capabilities::new();
        caps.insert("goog:chromeOptions".into(), chrome_options);
        caps.insert("goog:loggingPrefs".into(), json!({ "browser": "ALL" }));

        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(caps)
            .connect(&driver.url())
            .await
            .context("cannot open a WebDriver session")?;
        let session_id = client
            .session_id()
            .await
            .context("WebDriver session id")?
            .context("WebDriver session id")?;
        Ok(Self {
            client,
            session_id,
            closed: false,
            driver,
            server,
        })
    }

    /// URL of `path` in the served app (relative to [`MOUNT`]).
    pub fn url(&self, path: &str) -> String {
        self.server.url(path)
    }

    /// Opens `path` of the app and waits until the element `ready_css` exists and every part
    /// of the page has mounted.
    pub async fn open(&self, path: &str, ready_css: &str) -> Result {
        let url = self.url(path);
        self.client
            .goto(&url)
            .await
            .with_context(|| format!("cannot open {url}"))?;
        let found = self
            .client
            .wait()
            .at_most(TIMEOUT)
            .for_element(Locator::Css(ready_css))
            .await;
        if let Err(e) = found {
            return Err(Failure::new(format!(
                "{ready_css} did not appear within {TIMEOUT:?} ({e}); console: {}",
                self.console_text()
            )));
        }
        // The parts below the first screen mount after it, one per task (src/ui/later.rs): a
        // test reaches for them once all are there, or once the crash screen has replaced them.
        self.wait_until(
            "every part of the page to be mounted",
            "return document.documentElement.hasAttribute('data-mounted') || !!document.getElementById('crash');",
        )
        .await
    }

    /// Runs `script` (a function body; `arguments` holds `args`) in the page.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Result<Value> {
        self.client
            .execute(script, args)
            .await
            .map_err(|e| Failure::new(format!("script failed: {e}\n{script}")))
    }

    /// How far the page scrolls sideways, in CSS px (0 or less: not at all).
    pub async fn sideways_overflow(&self) -> Result<i64> {
        let overflow = self
            .js(
                "return document.documentElement.scrollWidth - window.innerWidth;",
                vec![],
            )
            .await?;
        Ok(overflow.as_i64().unwrap_or(i64::MAX))
    }

    /// The shown elements matching `css` shorter than a touch target ([`TOUCH_TARGET_PX`]), by
    /// id, else class: none on a phone, so a finger finds each control.
    pub async fn small_touch_targets(&self, css: &str) -> Result<Value> {
        self.js(
            "return [...document.querySelectorAll(arguments[0])]
                 .map((e) => [e, e.getBoundingClientRect().height])
                 .filter(([e, h]) => h > 0 && h < arguments[1])
                 .map(([e]) => e.id || e.className);",
            vec![json!(css), json!(TOUCH_TARGET_PX)],
        )
        .await
    }

    /// `textContent` of the element matching `css`.
    pub async fn text(&self, css: &str) -> Result<String> {
        let v = self
            .js(
                "return document.querySelector(arguments[0]).textContent;",
                vec![json!(css)],
            )
            .await?;
        Ok(v.as_str().unwrap_or_default().to_string())
    }

    /// The page's query string (`location.search`, with its `?`).
    pub async fn location_search(&self) -> Result<String> {
        let search = self.js("return location.search;", vec![]).await?;
        Ok(search.as_str().unwrap_or_default().to_string())
    }

    /// The attribute `name` of the element matching `css` (`None` if either is missing).
    pub async fn attr(&self, css: &str, name: &str) -> Result<Option<String>> {
        let value = self.js(
            "const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null;",
            vec![json!(css), json!(name)],
        )
        .await?;
        Ok(value.as_str().map(str::to_string))
    }

    /// Clicks the element with id `id`.
    pub async fn click(&self, id: &str) -> Result {
        self.client
            .find(Locator::Id(id))
            .await
            .with_context(|| format!("#{id}"))?
            .click()
            .await
            .with_context(|| format!("click #{id}"))
    }

    /// Types `keys` into the element with id `id` (as a reader's keyboard would).
    pub async fn press(&self, id: &str, keys: &str) -> Result {
        self.client
            .find(Locator::Id(id))
            .await
            .with_context(|| format!("#{id}"))?
            .send_keys(keys)
            .await
            .with_context(|| format!("keys on #{id}"))
    }

    /// A hash of the pixels of the canvas matching `css` (changes whenever its drawing does),
    /// as `WxH:hash:ink` where `ink` counts non-zero bytes (0 for a canvas never drawn on).
    pub async fn canvas_hash(&self, css: &str) -> Result<String> {
        // Read back through a copy made for it, so the page's own canvas is not flagged by
        // Chromium's "multiple readbacks, set willReadFrequently" warning.
        const SCRIPT: &str = r#"
            const c = document.querySelector(arguments[0]);
            const copy = document.createElement("canvas");
            copy.width = c.width;
            copy.height = c.height;
            const ctx = copy.getContext("2d", { willReadFrequently: true });
            ctx.drawImage(c, 0, 0);
            const px = ctx.getImageData(0, 0, c.width, c.height).data;
            let h = 0x811c9dc5, ink = 0;
            for (let i = 0; i < px.length; i++) {
                h = Math.imul(h ^ px[i], 0x01000193);
                if (px[i] !== 0) ink++;
            }
            return `${c.width}x${c.height}:${(h >>> 0).toString(16)}:${ink}`;
        "#;
        let v = self.js(SCRIPT, vec![json!(css)]).await?;
        Ok(v.as_str().unwrap_or_default().to_string())
    }

    /// Polls `probe` until it returns `Some`, failing with `what` after [`TIMEOUT`], or with
    /// the probe's own failure.
    pub async fn wait_for<T, F, Fut>(&self, what: &str, mut probe: F) -> Result<T>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<Option<T>>>,
    {
        let deadline = tokio::time::Instant::now() + TIMEOUT;
        loop {
            if let Some(v) = probe().await? {
                return Ok(v);
            }
            if tokio::time::Instant::now() > deadline {
                return Err(Failure::new(format!(
                    "timed out after {TIMEOUT:?} waiting for {what}; console: {}",
                    self.console_text()
                )));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until the page's query contains every one of `parts`, and gives it (the page
    /// rewrites its URL at most every 200 ms while the controls move, so a test waits for it).
    pub async fn wait_for_query(&self, what: &str, parts: &[&str]) -> Result<String> {
        self.wait_for(what, || async {
            let s = self.location_search().await?;
            Ok(parts.iter().all(|p| s.contains(p)).then_some(s))
        })
        .await
    }

    /// Waits until `script` (a function body) returns `true` in the page.
    pub async fn wait_until(&self, what: &str, script: &str) -> Result {
        self.wait_for(what, || async {
            Ok((self.js(script, vec![]).await? == json!(true)).then_some(()))
        })
        .await
    }

    /// Sizes the window so that the page's viewport is `width` x `height` CSS pixels, as a
    /// desktop browser of that window size shows it. The window's frame takes some of its
    /// size, so the window grows by what the viewport lacks; and the page learns of a new
    /// window size a moment after chromedriver has set it (its width and height apart, at
    /// times), so the viewport is read once it has settled, and the last size waited for.
    pub async fn set_viewport(&self, width: u32, height: u32) -> Result {
        let want = (u64::from(width), u64::from(height));
        let resize = || format!("a {width} x {height} window");
        self.client
            .set_window_size(width, height)
            .await
            .with_context(resize)?;
        let (w, h) = self.settled_viewport().await?;
        let framed = (2 * want.0 - w.min(want.0), 2 * want.1 - h.min(want.1));
        if framed != want {
            self.client
                .set_window_size(framed.0 as u32, framed.1 as u32)
                .await
                .with_context(resize)?;
        }
        self.wait_for(&format!("a {width} x {height} viewport"), || async {
            Ok((self.viewport().await? == want).then_some(()))
        })
        .await
    }

    /// The viewport's size in CSS pixels.
    async fn viewport(&self) -> Result<(u64, u64)> {
        let v = self
            .js("return [window.innerWidth, window.innerHeight];", vec![])
            .await?;
        match (v[0].as_u64(), v[1].as_u64()) {
            (Some(width), Some(height)) => Ok((width, height)),
            _ => Err(Failure::new(format!("a viewport's width and height: {v}"))),
        }
    }

    /// The viewport's size once two reads a tenth of a second apart agree.
    async fn settled_viewport(&self) -> Result<(u64, u64)> {
        let deadline = tokio::time::Instant::now() + TIMEOUT;
        let mut last = self.viewport().await?;
        loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let now = self.viewport().await?;
            if now == last {
                return Ok(now);
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(Failure::new(format!(
                    "the viewport never settled: {last:?}, then {now:?}"
                )));
            }
            last = now;
        }
    }

    /// Waits until the three charts against queue depth are drawn for the state in the URL
    /// with every point at least estimated.
    pub async fn wait_for_queue_charts(&self) -> Result {
        const SCRIPT: &str = r#"
            // The charts stamp the lab's state, not the place in a tour written after it.
            const state = location.search.slice(1).replace(/&tour=[^&]*&step=[^&]*$/, "");
            return ["chart-iops", "chart-latency", "chart-mix"].every((id) => {
                const c = document.getElementById(id);
                return c && c.dataset.state === state && c.dataset.missing === "0";
            });
        "#;
        self.wait_until("every chart to be drawn with all points", SCRIPT)
            .await
    }

    /// Waits until the drive-over-time view's three charts are drawn with results for the
    /// state in the URL.
    pub async fn wait_for_time_charts(&self) -> Result {
        const SCRIPT: &str = r#"
            // The charts stamp the lab's state, not the place in a tour written after it.
            const state = location.search.slice(1).replace(/&tour=[^&]*&step=[^&]*$/, "");
            return ["chart-fill", "chart-burst", "chart-torture"].every((id) => {
                const c = document.getElementById(id);
                return c && c.dataset.state === state && c.dataset.missing === "0";
            });
        "#;
        self.wait_until(
            "the drive-over-time charts to be drawn with results",
            SCRIPT,
        )
        .await
    }

    /// Runs the Chrome DevTools Protocol command `cmd` with `params` in this session (through
    /// chromedriver's `goog/cdp/execute`) and returns its result, e.g.
    /// `Emulation.setDeviceMetricsOverride` for a phone's viewport, which a desktop window
    /// cannot be made as narrow as.
    pub fn cdp(&self, cmd: &str, params: Value) -> Result<Value> {
        let path = format!("/session/{}/goog/cdp/execute", self.session_id);
        let body = json!({ "cmd": cmd, "params": params }).to_string();
        let (status, body) = http::request(self.driver.port(), "POST", &path, Some(&body))
            .with_context(|| format!("cannot send {cmd} to chromedriver"))?;
        if status != 200 {
            return Err(Failure::new(format!("{cmd} failed: {body}")));
        }
        let body: Value = serde_json::from_str(&body).context("a CDP answer is JSON")?;
        Ok(body["value"].clone())
    }

    /// Console messages since the last call (chromedriver hands each entry out once).
    pub fn console(&self) -> Result<Vec<LogEntry>> {
        let path = format!("/session/{}/se/log", self.session_id);
        let (status, body) = http::request(
            self.driver.port(),
            "POST",
            &path,
            Some(r#"{"type":"browser"}"#),
        )
        .context("cannot read the browser log from chromedriver")?;
        if status != 200 {
            return Err(Failure::new(format!(
                "reading the browser log failed: {body}"
            )));
        }
        let body: Value = serde_json::from_str(&body).context("browser log is not JSON")?;
        Ok(body["value"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| LogEntry {
                level: e["level"].as_str().unwrap_or("").into(),
                source: e["source"].as_str().unwrap_or("").into(),
                message: e["message"].as_str().unwrap_or("").into(),
            })
            .collect())
    }

    /// The console's messages since the last call, for a failure's message (or why they
    /// cannot be read).
    pub fn console_text(&self) -> String {
        match self.console() {
            Ok(entries) => format!("{entries:#?}"),
            Err(e) => format!("unread ({e})"),
        }
    }

    /// Asserts the page logged no errors or warnings (uncaught exceptions, `console.error`,
    /// CSP violations, failed requests) since the last call, and the server answered every
    /// request.
    pub fn assert_clean_console(&self) -> Result {
        let bad: Vec<_> = self
            .console()?
            .into_iter()
            .filter(|e| e.level == "SEVERE" || e.level == "WARNING")
            .collect();
        assert!(
            bad.is_empty(),
            "browser console has errors or warnings: {bad:#?}"
        );
        let failed = self.server.failed();
        assert!(failed.is_empty(), "requests that failed: {failed:#?}");
        Ok(())
    }

    /// Ends the WebDriver session (Chromium quits); Drop then stops the rest.
    pub async fn close(mut self) -> Result {
        self.closed = true;
        self.client
            .clone()
            .close()
            .await
            .context("closing the WebDriver session")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.closed {
            // A test that failed: end the session synchronously so Chromium quits even though
            // the async runtime may already be gone.
            let path = format!("/session/{}", self.session_id);
            let _ = http::request(self.driver.port(), "DELETE", &path, None);
        }
    }
}
