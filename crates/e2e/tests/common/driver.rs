//! A `chromedriver` process on a free local port, stopped on drop.

use super::{http, Context, Failure, Result};
use std::net::{Ipv4Addr, TcpListener};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where chromedriver is unless `CHROMEDRIVER` says otherwise (Debian's chromium-driver).
const DEFAULT_CHROMEDRIVER: &str = "/usr/bin/chromedriver";

pub struct ChromeDriver {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl ChromeDriver {
    /// Starts chromedriver and waits until it accepts sessions. Its log goes to
    /// `target/tmp/chromedriver-{port}.log`, kept only when the test fails.
    pub fn start() -> Result<Self> {
        let bin = std::env::var_os("CHROMEDRIVER")
            .map(PathBuf::from)
            .unwrap_or_else(|| DEFAULT_CHROMEDRIVER.into());
        if !bin.is_file() {
            return Err(Failure::new(format!(
                "{} not found: install chromium and chromium-driver (`./dev.sh setup`) or set CHROMEDRIVER",
                bin.display()
            )));
        }
        let port = free_port()?;
        let log =
            PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("chromedriver-{port}.log"));
        let child = Command::new(&bin)
            .arg(format!("--port={port}"))
            .arg(format!("--log-path={}", log.display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own process group (id = its PID), so Drop can also stop the Chromium it
            // launched, which outlives chromedriver otherwise.
            .process_group(0)
            .spawn()
            .with_context(|| format!("cannot start {}", bin.display()))?;
        let mut driver = Self { child, port, log };
        // Generous: on a loaded CI machine chromedriver has taken over 5 s to bind its port.
        driver.wait_ready(Duration::from_secs(90))?;
        Ok(driver)
    }

    fn wait_ready(&mut self, timeout: Duration) -> Result {
        let start = Instant::now();
        loop {
            if let Ok((200, body)) = http::request(self.port, "GET", "/status", None) {
                if body.contains("\"ready\":true") {
                    return Ok(());
                }
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(Failure::new(format!(
                    "chromedriver exited early with {status}"
                )));
            }
            if start.elapsed() >= timeout {
                return Err(Failure::new(format!(
                    "chromedriver not ready after {timeout:?}"
                )));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The WebDriver URL to connect to.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        // SIGTERM to the whole group we created (chromedriver and any browser it left running),
        // by the group id, which is the PID of the process we started.
        let _ = Command::new("kill")
            .args(["-TERM", "--", &format!("-{}", self.child.id())])
            .stderr(Stdio::null())
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while !matches!(self.child.try_wait(), Ok(Some(_))) {
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        if std::thread::panicking() {
            eprintln!("chromedriver log: {}", self.log.display());
        } else {
            let _ = std::fs::remove_file(&self.log);
        }
    }
}

/// A port that was free a moment ago (the OS picks it; tiny race accepted).
fn free_port() -> Result<u16> {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .context("no free local port")
}
