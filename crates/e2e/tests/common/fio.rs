//! The real fio (Debian's package) for the tests that run it: scratch files under Cargo's
//! per-target temporary directory, the lab's job file made small and quick, and one fio run.

use super::{Context, Failure, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A path for `name` in the scratch folder `area` (created if needed).
pub fn scratch(area: &str, name: &str) -> Result<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(area);
    std::fs::create_dir_all(&dir).with_context(|| format!("the folder {}", dir.display()))?;
    Ok(dir.join(name))
}

/// The lab's job file `job`, aimed at the scratch file `data` and cut to a 16 MB file and one
/// second per job, so the real fio finishes quickly.
pub fn quick_job(job: &str, data: &Path) -> String {
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

/// Writes `job` to `area/name.fio`, runs fio on it and returns its JSON output; fails if fio
/// is missing or fails.
pub fn run_fio(area: &str, name: &str, job: &str) -> Result<String> {
    run_fio_as(area, name, job, "json")
}

/// [`run_fio`] with fio's `--output-format=FORMAT` (`json+`, `json,normal`, `normal`, ...).
pub fn run_fio_as(area: &str, name: &str, job: &str, format: &str) -> Result<String> {
    let job_path = scratch(area, &format!("{name}.fio"))?;
    std::fs::write(&job_path, job).with_context(|| format!("{}", job_path.display()))?;
    let out = Command::new("fio")
        .arg(&job_path)
        .arg(format!("--output-format={format}"))
        .output()
        .context("fio is installed (./dev.sh test installs Debian's fio)")?;
    if !out.status.success() {
        return Err(Failure::new(format!(
            "fio failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    String::from_utf8(out.stdout).context("fio's output is UTF-8")
}
