//! What the command line's tests share: `lab` run as a real process, and its output as text.
#![allow(dead_code)] // each test binary uses a different subset of the helpers

use std::process::{Command, Output};

/// What a test or its helper returns: `lab` that cannot run, or prints what is not text, is
/// an error, not a panic.
pub type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// `lab` with `args`, run to its end.
pub fn lab(args: &[&str]) -> TestResult<Output> {
    let output = Command::new(env!("CARGO_BIN_EXE_lab")).args(args).output();
    Ok(output.map_err(|e| format!("lab runs: {e}"))?)
}

pub fn stdout(o: &Output) -> TestResult<String> {
    Ok(String::from_utf8(o.stdout.clone()).map_err(|e| format!("utf-8: {e}"))?)
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
