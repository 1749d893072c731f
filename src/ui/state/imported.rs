//! [`YourDrive`]: the reader's own fio results, imported from a file. Never in the URL (a link
//! cannot carry a file); reset and the author's view keep them.
//!
//! What always holds: an import has at least one point ([`YourDrive::new`] refuses none).

use crate::fio::FioPoint;

use super::workload::WorkloadSetup;

/// How far a mixed job's measured read share may stray from the charts' and still count as
/// the same mix: fio's completed share wanders a few points around its `rwmixread`.
pub const FIO_MIX_TOLERANCE_PCT: f64 = 5.0;

/// fio results the reader imported ("your drive").
#[derive(Clone, Debug, PartialEq)]
pub struct YourDrive {
    file_name: String,
    points: Vec<FioPoint>,
}

impl YourDrive {
    /// The import of `points` from `file_name`; `None` when there are no points.
    pub fn new(file_name: String, points: Vec<FioPoint>) -> Option<YourDrive> {
        (!points.is_empty()).then_some(YourDrive { file_name, points })
    }

    /// The file's name as the browser gave it.
    pub fn file_name(&self) -> &str {
        &self.file_name
    }

    /// One point per fio job, never empty.
    pub fn points(&self) -> &[FioPoint] {
        &self.points
    }

    /// Whether `point` was measured with the workload the charts show: the same pattern and
    /// block size (where the file names them), and for a mix the same read share within
    /// [`FIO_MIX_TOLERANCE_PCT`]. Its queue depth is the chart's x, so any depth shows.
    pub fn shows_on(point: &FioPoint, workload: &WorkloadSetup) -> bool {
        let rw = workload.rw();
        let same_rw = point.rw.is_none_or(|r| r == rw);
        let same_bs = point.bs_bytes.is_none_or(|b| b == workload.bs_bytes());
        let same_mix = rw.fixed_read_percent().is_some()
            || (point.read_percent - f64::from(workload.read_pct())).abs() <= FIO_MIX_TOLERANCE_PCT;
        same_rw && same_bs && same_mix
    }

    /// The points measured with the workload the charts show (see [`Self::shows_on`]); the
    /// others would stand on a curve they were not measured for.
    pub fn points_on<'a>(
        &'a self,
        workload: &'a WorkloadSetup,
    ) -> impl Iterator<Item = &'a FioPoint> + 'a {
        self.points.iter().filter(|p| Self::shows_on(p, workload))
    }
}
