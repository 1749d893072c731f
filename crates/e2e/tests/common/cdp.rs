//! [`Chrome`]: a headless Chromium session through chromedriver that serves nothing itself and
//! speaks DevTools (CDP), for measurements that choose their device and their server:
//! - [`Device::Phone`] emulates a 390 x 844 phone at pixel ratio 3 with a mobile user agent
//!   (ChromeDriver's `mobileEmulation`), since a headless window cannot be narrower than about
//!   500 px;
//! - [`Chrome::cdp`] sends any DevTools command through ChromeDriver's
//!   `POST /session/{id}/goog/cdp/execute` (e.g. [`Chrome::throttle_cpu`], or
//!   [`Chrome::run_on_every_document`] to instrument a page before its own scripts run);
//! - [`Chrome::wait_for`] polls with the caller's timeout and fails with what it waited for.
//!
//! Unlike [`super::Browser`] it opens no server: the caller points it at one or more
//! [`super::StaticServer`]s (two builds side by side, an article on one port framing the app on
//! another). Drop ends the session and stops chromedriver and its Chromium, also on a failure.

use super::{http, ChromeDriver, Context, Failure, LogEntry, Result};
use fantoccini::wd::Capabilities;
use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};
use std::future::Future;
use std::time::Duration;

/// Chromium flags, as [`super::Browser`] starts it: headless, runnable as root, no background
/// traffic, the same desktop window.
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

/// The emulated phone's viewport in CSS pixels and its device pixel ratio.
pub const PHONE_VIEWPORT: (u32, u32, f64) = (390, 844, 3.0);

/// A current Android Chrome's user agent (pages may pick their layout or input model from it).
const PHONE_USER_AGENT: &str = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 \
     (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

/// What the session's browser looks like to the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    /// The 1200 x 800 desktop window [`super::Browser`] uses.
    Desktop,
    /// [`PHONE_VIEWPORT`], touch and a mobile user agent, by ChromeDriver's `mobileEmulation`.
    Phone,
}

impl Device {
    fn chrome_options(self) -> Value {
        let mut options = json!({ "args": CHROME_ARGS });
        if std::path::Path::new("/usr/bin/chromium").is_file() {
            options["binary"] = json!("/usr/bin/chromium");
        }
        if self == Device::Phone {
            let (width, height, ratio) = PHONE_VIEWPORT;
            options["mobileEmulation"] = json!({
                "deviceMetrics": {
                    "width": width, "height": height, "pixelRatio": ratio,
                    "touch": true, "mobile": true,
                },
                "userAgent": PHONE_USER_AGENT,
            });
        }
        options
    }
}

/// chromedriver + one WebDriver session on a headless Chromium.
pub struct Chrome {
    pub client: Client,
    session_id: String,
    closed: bool,
    // Dropped after the session is closed (fields drop in declaration order).
    driver: ChromeDriver,
}

impl Chrome {
    /// Starts chromedriver and opens a session for `device`. Console messages are collected
    /// from the start (`goog:loggingPrefs`).
    pub async fn start(device: Device) -> Result<Self> {
        let driver = ChromeDriver::start()?;
        let mut caps = Capabilities::new();
        caps.insert("goog:chromeOptions".into(), device.chrome_options());
        caps.insert("goog:loggingPrefs".into(), json!({ "browser": "ALL" }));
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(caps)
            .connect(&driver.url())
            .await
            .with_context(|| format!("cannot open a WebDriver session ({device:?})"))?;
        let session_id = client
            .session_id()
            .await
            .ok()
            .flatten()
            .context("WebDriver session id")?;
        Ok(Self {
            client,
            session_id,
            closed: false,
            driver,
        })
    }

    /// Sends the DevTools command `cmd` with `params` to the page's target and returns its
    /// result. Emulation set this way stays in force across navigations.
    pub fn cdp(&self, cmd: &str, params: Value) -> Result<Value> {
        let path = format!("/session/{}/goog/cdp/execute", self.session_id);
        let body = json!({ "cmd": cmd, "params": params }).to_string();
        let (status, text) = http::request(self.driver.port(), "POST", &path, Some(&body))
            .with_context(|| format!("CDP {cmd}: chromedriver did not answer"))?;
        if status != 200 {
            return Err(Failure::new(format!("CDP {cmd} {params} failed: {text}")));
        }
        let mut reply: Value = serde_json::from_str(&text)
            .map_err(|e| Failure::new(format!("CDP {cmd}: reply is not JSON ({e}): {text}")))?;
        Ok(reply["value"].take())
    }

    /// Slows the page's main thread down `rate` times (DevTools' CPU throttling; 4 is the
    /// usual stand-in for a mid-range phone). Set it before navigating to include the load.
    /// The page's workers run at full speed: Chromium refuses the throttling for workers.
    pub fn throttle_cpu(&self, rate: f64) -> Result {
        self.cdp("Emulation.setCPUThrottlingRate", json!({ "rate": rate }))?;
        Ok(())
    }

    /// Runs `source` in every document (frames too) from now on, before the document's own
    /// scripts; WebDriver's scripts and this one are not subject to the page's CSP.
    pub fn run_on_every_document(&self, source: &str) -> Result {
        self.cdp(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": source }),
        )?;
        Ok(())
    }

    /// Navigates to `url` and returns once it has loaded (WebDriver's normal page load).
    pub async fn goto(&self, url: &str) -> Result {
        self.client
            .goto(url)
            .await
            .with_context(|| format!("cannot open {url}"))
    }

    /// Runs `script` (a function body; `arguments` holds `args`) in the current frame.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Result<Value> {
        self.client
            .execute(script, args)
            .await
            .map_err(|e| Failure::new(format!("script failed: {e}\n{script}")))
    }

    /// Makes the `index`-th frame of the current document the current frame.
    pub async fn enter_frame(&self, index: u16) -> Result {
        self.client
            .enter_frame(Some(index))
            .await
            .with_context(|| format!("cannot enter frame {index}"))
    }

    /// Makes the parent of the current frame the current frame.
    pub async fn leave_frame(&self) -> Result {
        self.client
            .enter_parent_frame()
            .await
            .context("cannot leave the frame")
    }

    /// Polls `probe` every `poll` until it returns `Some`; fails after `timeout`, naming `what`
    /// and the console's last messages, or with the probe's own failure.
    pub async fn wait_for<T, F, Fut>(
        &self,
        what: &str,
        timeout: Duration,
        poll: Duration,
        mut probe: F,
    ) -> Result<T>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<Option<T>>>,
    {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if let Some(v) = probe().await? {
                return Ok(v);
            }
            if tokio::time::Instant::now() > deadline {
                let console = self.console();
                let tail = &console[console.len().saturating_sub(10)..];
                return Err(Failure::new(format!(
                    "timed out after {timeout:?} waiting for {what}; console (last 10): {tail:#?}"
                )));
            }
            tokio::time::sleep(poll).await;
        }
    }

    /// Console messages since the last call (chromedriver hands each entry out once).
    pub fn console(&self) -> Vec<LogEntry> {
        let path = format!("/session/{}/se/log", self.session_id);
        let Ok((200, body)) = http::request(
            self.driver.port(),
            "POST",
            &path,
            Some(r#"{"type":"browser"}"#),
        ) else {
            return Vec::new();
        };
        let body: Value = serde_json::from_str(&body).unwrap_or_default();
        body["value"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| LogEntry {
                level: e["level"].as_str().unwrap_or("").into(),
                source: e["source"].as_str().unwrap_or("").into(),
                message: e["message"].as_str().unwrap_or("").into(),
            })
            .collect()
    }

    /// Console errors and warnings since the last call.
    pub fn console_problems(&self) -> Vec<LogEntry> {
        self.console()
            .into_iter()
            .filter(|e| e.level == "SEVERE" || e.level == "WARNING")
            .collect()
    }

    /// Ends the WebDriver session (Chromium quits); Drop then stops chromedriver.
    pub async fn close(mut self) -> Result {
        self.closed = true;
        self.client
            .clone()
            .close()
            .await
            .context("closing the WebDriver session")
    }
}

impl Drop for Chrome {
    fn drop(&mut self) {
        if !self.closed {
            // A failure: end the session synchronously, as the async runtime may be gone.
            let path = format!("/session/{}", self.session_id);
            let _ = http::request(self.driver.port(), "DELETE", &path, None);
        }
    }
}
