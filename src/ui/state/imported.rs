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

/// Most fio files drawn at once: one marker shape each ([`crate::ui::charts::FioShape`]).
pub const MAX_IMPORTS: usize = 4;

/// The imported files, in the order they were imported; at most [`MAX_IMPORTS`], no two with
/// the same file name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Imports(Vec<YourDrive>);

/// Why an import was not added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportRefused {
    /// Already [`MAX_IMPORTS`] files.
    Full,
}

impl std::fmt::Display for ImportRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImportRefused::Full => write!(
                f,
                "at most {MAX_IMPORTS} fio files are drawn at once; remove one first"
            ),
        }
    }
}

impl Imports {
    /// The imports, oldest first (an import's place picks its marker shape).
    pub fn as_slice(&self) -> &[YourDrive] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Adds `drive` and says where it went. A file with the name of one already imported
    /// replaces it in its place (the reader ran fio again); a fifth file is refused, leaving
    /// the imports as they were.
    pub fn add(&mut self, drive: YourDrive) -> Result<usize, ImportRefused> {
        if let Some(at) = self.0.iter().position(|d| d.file_name == drive.file_name) {
            self.0[at] = drive;
            return Ok(at);
        }
        if self.0.len() >= MAX_IMPORTS {
            return Err(ImportRefused::Full);
        }
        self.0.push(drive);
        Ok(self.0.len() - 1)
    }

    /// Removes the import at `index` (nothing if there is none).
    pub fn remove(&mut self, index: usize) {
        if index < self.0.len() {
            self.0.remove(index);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::config::Rw;

    fn drive(name: &str, iodepth: u32) -> YourDrive {
        let point = FioPoint {
            job: "j".into(),
            rw: Some(Rw::RandRead),
            bs_bytes: Some(4096),
            iodepth,
            read_percent: 100.0,
            iops: 1000.0,
            bw_mb_s: 4.0,
            lat_mean_us: 100.0,
            lat_p99_us: None,
            lat_total_mean_us: None,
        };
        YourDrive::new(name.into(), vec![point]).unwrap()
    }

    #[test]
    fn four_files_at_most_and_the_same_name_replaces_its_file_in_place() {
        assert!(YourDrive::new("empty.json".into(), Vec::new()).is_none());
        let mut imports = Imports::default();
        for (i, name) in ["a.json", "b.json", "c.json", "d.json"].iter().enumerate() {
            assert_eq!(imports.add(drive(name, 1)), Ok(i));
        }
        assert_eq!(imports.add(drive("e.json", 1)), Err(ImportRefused::Full));
        assert_eq!(
            imports.add(drive("b.json", 8)),
            Ok(1),
            "b is replaced where it was"
        );
        assert_eq!(imports.as_slice()[1].points()[0].iodepth, 8);
        imports.remove(9);
        imports.remove(0);
        let names: Vec<&str> = imports.as_slice().iter().map(|d| d.file_name()).collect();
        assert_eq!(names, ["b.json", "c.json", "d.json"]);
    }
}
