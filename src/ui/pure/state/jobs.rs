//! [`Jobs`]: the several-jobs workload of the lab's state: one to [`MAX_JOBS`] jobs, each a
//! [`JobSetup`] with its pattern, read share, block size, depth and, if it has one, its rate.
//!
//! What always holds (private fields; every setter snaps instead of failing): a job's depth is
//! on [`iodepth_ladder`], its block size on [`BLOCK_SIZES`], its read share a multiple of
//! [`READ_SHARE_STEP`], its rate (if any) on [`rate_ladder`], and there are one to
//! [`MAX_JOBS`] jobs, so every job set passes the model's checks. It is `Copy` (a fixed array
//! and a count), as the rest of the workload part is.
//!
//! In a link, `jobs=` lists the jobs separated by `,`, each `pattern[read %].block.iodepthN[.rIOPS]`
//! (e.g. `randread.4k.qd1,write.128k.qd8,randrw70.4k.qd4.r20000`); [`Jobs::code`] writes it
//! and [`Jobs::parse`] reads it back.

use std::fmt;

use crate::model::config::{format_block_size, parse_block_size, Rw};
use crate::model::workload::jobfile::{Amount, JobFile};
use crate::model::workload::Spacing;

use super::ladders::{
    block_size_ladder, iodepth_ladder, rate_ladder, read_share_ladder, ALL_READS_PCT,
};
#[cfg(doc)]
use super::ladders::{BLOCK_SIZES, READ_SHARE_STEP};

pub use parallelism_work::jobs::MAX_JOBS;

/// Separates jobs in `jobs=`.
pub const JOB_SEPARATOR: char = ',';
/// Separates a job's fields.
const FIELD_SEPARATOR: char = '.';

/// One job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JobSetup {
    random: bool,
    read_pct: u8,
    bs_bytes: u32,
    iodepth: u32,
    rate_iops: Option<u32>,
}

impl JobSetup {
    /// A job at `iodepth` in flight (closed loop); values off the controls' steps snap to them.
    pub fn new(rw: Rw, read_pct: u8, bs_bytes: u32, iodepth: u32) -> JobSetup {
        let mut j = JobSetup {
            random: rw.is_random(),
            read_pct: rw.fixed_read_percent().unwrap_or(read_pct),
            bs_bytes: 0,
            iodepth: 0,
            rate_iops: None,
        };
        j.set_read_pct(u32::from(j.read_pct));
        j.set_bs_bytes(bs_bytes);
        j.set_iodepth(iodepth);
        j
    }

    pub fn random(&self) -> bool {
        self.random
    }
    pub fn read_pct(&self) -> u8 {
        self.read_pct
    }
    pub fn bs_bytes(&self) -> u32 {
        self.bs_bytes
    }
    pub fn iodepth(&self) -> u32 {
        self.iodepth
    }
    /// Requests a second offered whatever the drive does; `None`: a closed loop at the depth.
    pub fn rate_iops(&self) -> Option<u32> {
        self.rate_iops
    }

    /// fio's name for the job's pattern and read share.
    pub fn rw(&self) -> Rw {
        Rw::from_parts(self.random, self.read_pct)
    }

    pub fn set_random(&mut self, random: bool) {
        self.random = random;
    }
    pub fn set_read_pct(&mut self, pct: u32) {
        self.read_pct = u8::try_from(read_share_ladder().nearest(pct)).unwrap_or(ALL_READS_PCT);
    }
    pub fn set_bs_bytes(&mut self, bytes: u32) {
        self.bs_bytes = block_size_ladder().nearest(bytes);
    }
    pub fn set_iodepth(&mut self, iodepth: u32) {
        self.iodepth = iodepth_ladder().nearest(iodepth);
    }
    pub fn set_rate_iops(&mut self, iops: Option<u32>) {
        self.rate_iops = iops.map(|r| rate_ladder().nearest(r));
    }

    /// The job for the model's worker.
    pub fn ask(&self) -> parallelism_work::jobs::JobAsk {
        let rw = self.rw();
        parallelism_work::jobs::JobAsk {
            rw,
            read_pct: rw.fixed_read_percent().unwrap_or(self.read_pct),
            bs_bytes: self.bs_bytes,
            iodepth: self.iodepth,
            rate_iops: self.rate_iops,
        }
    }

    /// The job in `jobs=` syntax, e.g. `randrw70.4k.qd4.r20000`.
    pub fn code(&self) -> String {
        let rw = self.rw();
        let mix = match rw.fixed_read_percent() {
            Some(_) => String::new(),
            None => self.read_pct.to_string(),
        };
        let rate = self
            .rate_iops
            .map_or_else(String::new, |r| format!("{FIELD_SEPARATOR}r{r}"));
        format!(
            "{}{mix}{FIELD_SEPARATOR}{}{FIELD_SEPARATOR}qd{}{rate}",
            rw.fio_name(),
            format_block_size(self.bs_bytes),
            self.iodepth
        )
    }

    /// Reads one job in `jobs=` syntax; values between the controls' steps snap to them.
    pub fn parse(code: &str) -> Result<JobSetup, JobRefused> {
        let refused = |why: String| JobRefused {
            job: code.chars().take(32).collect(),
            why,
        };
        let fields: Vec<&str> = code.split(FIELD_SEPARATOR).map(str::trim).collect();
        let (pattern, bs, iodepth, rate) =
            match fields[..] {
                [p, b, q] => (p, b, q, None),
                [p, b, q, r] => (p, b, q, Some(r)),
                _ => return Err(refused(
                    "a job is pattern.block.qdN or pattern.block.qdN.rIOPS, e.g. randread.4k.qd1"
                        .into(),
                )),
            };
        let name_end = pattern
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(pattern.len());
        let rw: Rw = pattern[..name_end]
            .parse()
            .map_err(|e: crate::model::ConfigError| refused(e.to_string()))?;
        let read_pct = match (rw.fixed_read_percent(), &pattern[name_end..]) {
            (Some(p), "") => p,
            (None, digits) => digits
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= ALL_READS_PCT)
                .ok_or_else(|| refused(format!("{} needs its read share, e.g. {}70", rw, rw)))?,
            (Some(_), _) => return Err(refused(format!("{rw} takes no read share"))),
        };
        let bs_bytes = parse_block_size(bs).map_err(|e| refused(e.to_string()))?;
        let iodepth = iodepth
            .strip_prefix("qd")
            .and_then(|q| q.parse::<u32>().ok())
            .filter(|q| *q >= 1)
            .ok_or_else(|| refused(format!("'{iodepth}' is not a depth such as qd8")))?;
        let rate = match rate {
            None => None,
            Some(r) => Some(
                r.strip_prefix('r')
                    .and_then(|r| r.parse::<u32>().ok())
                    .filter(|r| *r >= 1)
                    .ok_or_else(|| refused(format!("'{r}' is not a rate such as r20000")))?,
            ),
        };
        let mut job = JobSetup::new(rw, read_pct, bs_bytes, iodepth);
        job.set_rate_iops(rate);
        Ok(job)
    }
}

/// Why a job in a link was not taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobRefused {
    /// The job's text (shortened).
    pub job: String,
    pub why: String,
}

impl fmt::Display for JobRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "job '{}': {}", self.job, self.why)
    }
}

/// One to [`MAX_JOBS`] jobs. See the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Jobs {
    list: [JobSetup; MAX_JOBS],
    len: usize,
}

impl Default for Jobs {
    /// A latency-sensitive reader (random 4 KiB reads, one at a time) beside a bulk writer
    /// (sequential 128 KiB writes, eight in flight): the pair whose reads wait behind programs.
    fn default() -> Self {
        let reader = JobSetup::new(Rw::RandRead, ALL_READS_PCT, 4 << 10, 1);
        let writer = JobSetup::new(Rw::Write, 0, 128 << 10, 8);
        Jobs {
            list: [reader, writer, reader, reader],
            len: 2,
        }
    }
}

impl Jobs {
    pub fn as_slice(&self) -> &[JobSetup] {
        &self.list[..self.len]
    }

    /// The job at `index`, changed by `change` (nothing if there is none).
    pub fn update(&mut self, index: usize, change: impl FnOnce(&mut JobSetup)) {
        if let Some(j) = self.list[..self.len].get_mut(index) {
            change(j);
        }
    }

    /// Adds a copy of the last job; false (and nothing changes) at [`MAX_JOBS`].
    pub fn add(&mut self) -> bool {
        if self.len >= MAX_JOBS {
            return false;
        }
        self.list[self.len] = self.list[self.len - 1];
        self.len += 1;
        true
    }

    /// Removes the job at `index`; false (and nothing changes) for the last one left.
    pub fn remove(&mut self, index: usize) -> bool {
        if self.len <= 1 || index >= self.len {
            return false;
        }
        self.list.copy_within(index + 1..self.len, index);
        self.len -= 1;
        true
    }

    /// The jobs in `jobs=` syntax.
    pub fn code(&self) -> String {
        self.as_slice()
            .iter()
            .map(JobSetup::code)
            .collect::<Vec<_>>()
            .join(&JOB_SEPARATOR.to_string())
    }

    /// Reads `jobs=`: the jobs it holds, and what was refused (a bad job or one past
    /// [`MAX_JOBS`]); `None` when no job is left.
    pub fn parse(text: &str) -> (Option<Jobs>, Vec<JobRefused>) {
        let mut jobs = Jobs {
            len: 0,
            ..Jobs::default()
        };
        let mut refused = Vec::new();
        for code in text.split(JOB_SEPARATOR).filter(|c| !c.trim().is_empty()) {
            match JobSetup::parse(code) {
                Ok(_) if jobs.len == MAX_JOBS => refused.push(JobRefused {
                    job: code.chars().take(32).collect(),
                    why: format!("at most {MAX_JOBS} jobs run at once; left out"),
                }),
                Ok(j) => {
                    jobs.list[jobs.len] = j;
                    jobs.len += 1;
                }
                Err(e) => refused.push(e),
            }
        }
        ((jobs.len > 0).then_some(jobs), refused)
    }
}

impl Jobs {
    /// The jobs of a fio job file's first group (each of a job's `numjobs` clones one job, up
    /// to [`MAX_JOBS`]), how its rates are spaced, and a line for each thing the jobs view
    /// cannot hold (the file's own warnings first). `Err` when the first group has no job.
    pub fn of_job_file(file: &JobFile) -> Result<(Jobs, Option<Spacing>, Vec<String>), String> {
        let mut notes = file.warnings.clone();
        let Some(group) = file.groups.first() else {
            return Err("the job file has no job to run".into());
        };
        if file.groups.len() > 1 {
            notes.push(format!(
                "the file has {} groups (stonewall); the jobs view runs the first, the jobs that run at once",
                file.groups.len()
            ));
        }
        let mut jobs = Jobs {
            len: 0,
            ..Jobs::default()
        };
        let mut spacing = None;
        let clones = group
            .jobs
            .iter()
            .flat_map(|j| (0..j.numjobs).map(move |_| j));
        for (i, j) in clones.enumerate() {
            if i == MAX_JOBS {
                notes.push(format!(
                    "at most {MAX_JOBS} jobs run at once here: the clones past the {MAX_JOBS}th are left out (lab run runs them all)"
                ));
                break;
            }
            let parts = j.sizes.parts();
            let (bs, _) = parts
                .iter()
                .copied()
                .max_by_key(|p| p.1)
                .unwrap_or((4096, 100));
            if parts.len() > 1 {
                notes.push(format!(
                    "[{}] (line {}): bssplit {}: the jobs view takes its commonest size, {}",
                    j.name,
                    j.line,
                    j.sizes,
                    format_block_size(bs)
                ));
            }
            if j.size.is_some() || j.offset != Amount::Bytes(0) {
                notes.push(format!(
                    "[{}] (line {}): offset and size are left out: the job spans the drive",
                    j.name, j.line
                ));
            }
            let mut job = JobSetup::new(j.rw, j.read_percent(), bs, j.iodepth);
            if let Some((iops, s)) = j.rate {
                job.set_rate_iops(Some(iops.round() as u32));
                spacing = spacing.or(Some(s));
            }
            jobs.list[jobs.len] = job;
            jobs.len += 1;
        }
        if jobs.len == 0 {
            return Err("the job file's first group has no job to run".into());
        }
        Ok((jobs, spacing, notes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_read_back_as_they_are_written() {
        let mut jobs = Jobs::default();
        assert_eq!(jobs.code(), "randread.4k.qd1,write.128k.qd8");
        jobs.add();
        jobs.update(2, |j| {
            j.set_random(true);
            j.set_read_pct(70);
            j.set_bs_bytes(4096);
            j.set_iodepth(4);
            j.set_rate_iops(Some(20_000));
        });
        assert_eq!(
            jobs.code(),
            "randread.4k.qd1,write.128k.qd8,randrw70.4k.qd4.r20000"
        );
        let (back, refused) = Jobs::parse(&jobs.code());
        assert!(refused.is_empty(), "{refused:?}");
        assert_eq!(back, Some(jobs));
    }

    #[test]
    fn a_bad_job_is_named_and_the_others_kept() {
        let (jobs, refused) =
            Jobs::parse("randread.4k.qd1,sideways.4k.qd1,randrw.4k.qd2,read.3k.qd1,write.4k.deep");
        assert_eq!(jobs.unwrap().code(), "randread.4k.qd1");
        let why: Vec<String> = refused.iter().map(ToString::to_string).collect();
        assert_eq!(why.len(), 4, "{why:?}");
        assert!(why[0].contains("sideways"), "{why:?}");
        assert!(why[1].contains("needs its read share"), "{why:?}");
        assert!(why[3].contains("'deep' is not a depth"), "{why:?}");
        let (none, _) = Jobs::parse("nope");
        assert_eq!(none, None);
    }

    #[test]
    fn at_most_four_jobs_and_never_none() {
        let (jobs, refused) = Jobs::parse(&["read.4k.qd1"; 5].join(","));
        let mut jobs = jobs.unwrap();
        assert_eq!(jobs.as_slice().len(), MAX_JOBS);
        assert!(refused[0].why.contains("at most 4 jobs"));
        assert!(!jobs.add());
        for _ in 0..3 {
            assert!(jobs.remove(0));
        }
        assert!(!jobs.remove(0), "the last job stays");
        assert_eq!(jobs.as_slice().len(), 1);
    }

    #[test]
    fn a_fio_job_files_first_group_becomes_the_jobs_with_a_line_for_what_is_left_out() {
        use crate::model::workload::jobfile;
        let text = "[global]\nbs=4k\n[reader]\nrw=randread\niodepth=1\n\
                    [writer]\nrw=write\nbssplit=128k/80:4k/20\niodepth=8\nnumjobs=2\n\
                    rate_iops=2000\nrate_process=poisson\nsize=10%\n\
                    [later]\nstonewall\nrw=read\n";
        let file = jobfile::parse(text).unwrap();
        let (jobs, spacing, notes) = Jobs::of_job_file(&file).unwrap();
        assert_eq!(
            jobs.code(),
            "randread.4k.qd1,write.128k.qd8.r2000,write.128k.qd8.r2000"
        );
        assert_eq!(spacing, Some(Spacing::Poisson));
        let all = notes.join("\n");
        assert!(all.contains("2 groups"), "{all}");
        assert!(all.contains("commonest size, 128k"), "{all}");
        assert!(all.contains("offset and size are left out"), "{all}");
        let many = jobfile::parse("[a]\nrw=read\nnumjobs=6\n").unwrap();
        let (jobs, _, notes) = Jobs::of_job_file(&many).unwrap();
        assert_eq!(jobs.as_slice().len(), MAX_JOBS);
        assert!(notes
            .iter()
            .any(|n| n.contains("left out (lab run runs them all)")));
    }

    #[test]
    fn values_between_steps_snap() {
        let j = JobSetup::parse("randread.4k.qd100.r260000").unwrap();
        assert_eq!((j.iodepth(), j.rate_iops()), (96, Some(250_000)));
    }
}
