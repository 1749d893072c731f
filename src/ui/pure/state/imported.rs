//! [`Imports`]: the reader's own fio results, as drives of imported files ("your measurements"). Never
//! in the URL (a link cannot carry a file); kept on the reader's device only
//! ([`crate::ui::browser::storage`]); reset and the author's view keep them.
//!
//! What always holds: at most [`MAX_IMPORTS`] drives, each with at least one file and each
//! file with at least one point; no two files share a name (a file of a name already imported
//! replaces it where it is: the reader ran fio again); at most [`MAX_FILES`] files in all.

use serde::{Deserialize, Serialize};

use crate::fio::FioPoint;

use super::workload::WorkloadSetup;

/// How far a mixed job's measured read share may stray from the charts' and still count as
/// the same mix: fio's completed share wanders a few points around its `rwmixread`.
pub const FIO_MIX_TOLERANCE_PCT: f64 = 5.0;

/// Most drives drawn at once: one marker shape each ([`crate::ui::charts::FioShape`]).
pub const MAX_IMPORTS: usize = 4;

/// Most files over all drives: a depth sweep saved one file per depth is a dozen; the cap keeps
/// what the browser stores for the reader small.
pub const MAX_FILES: usize = 64;

/// One imported file: its name as the browser gave it, how it was read, and its points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FioFile {
    pub name: String,
    /// How the file was read (its format and fio's version; the jobs left out).
    pub read_as: String,
    points: Vec<FioPoint>,
}

impl FioFile {
    /// The file `name` of `points`; `None` when there are none.
    pub fn new(name: String, read_as: String, points: Vec<FioPoint>) -> Option<FioFile> {
        (!points.is_empty()).then_some(FioFile {
            name,
            read_as,
            points,
        })
    }

    /// One point per fio job, never empty.
    pub fn points(&self) -> &[FioPoint] {
        &self.points
    }
}

/// One drive's fio results: the files chosen together, and any the reader moved to it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct YourDrive {
    files: Vec<FioFile>,
}

impl YourDrive {
    /// The drive's files, in the order they came.
    pub fn files(&self) -> &[FioFile] {
        &self.files
    }

    /// The drive's name in the legend, the CSV and the lists: its first file's, and how many
    /// more it has.
    pub fn name(&self) -> String {
        match self.files.len() {
            1 => self.files[0].name.clone(),
            n => format!("{} and {} more", self.files[0].name, n - 1),
        }
    }

    /// Every point of every file, file by file.
    pub fn points(&self) -> impl Iterator<Item = &FioPoint> + '_ {
        self.files.iter().flat_map(|f| f.points.iter())
    }

    /// Whether `point` was measured with the workload the charts show: the same pattern and
    /// block size (where the file names them), and for a mix the same read share within
    /// [`FIO_MIX_TOLERANCE_PCT`]. Its queue depth is the chart's x, so any depth shows. A point
    /// whose pattern the file does not say (a terse line) stands on no curve.
    pub fn shows_on(point: &FioPoint, workload: &WorkloadSetup) -> bool {
        let rw = workload.rw();
        let same_rw = point.rw == Some(rw);
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
        self.points().filter(|p| Self::shows_on(p, workload))
    }
}

/// Where a file goes when the reader moves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveTo {
    /// The drive at this place.
    Drive(usize),
    /// A drive of its own, after the others.
    NewDrive,
}

/// The imported drives, in the order they came; see the module documentation for what always
/// holds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Imports(Vec<YourDrive>);

/// Why an import or a move was not made (the imports are left as they were).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportRefused {
    /// Already [`MAX_IMPORTS`] drives.
    Full,
    /// Already [`MAX_FILES`] files.
    TooManyFiles,
}

impl std::fmt::Display for ImportRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImportRefused::Full => write!(
                f,
                "at most {MAX_IMPORTS} drives are drawn at once; remove one first"
            ),
            ImportRefused::TooManyFiles => {
                write!(f, "at most {MAX_FILES} files are kept; remove some first")
            }
        }
    }
}

impl Imports {
    /// The drives, oldest first (a drive's place picks its marker shape).
    pub fn as_slice(&self) -> &[YourDrive] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn file_count(&self) -> usize {
        self.0.iter().map(|d| d.files.len()).sum()
    }

    /// Adds `files`, chosen together, as one drive, and says which drive holds the first of
    /// them. A file with the name of one already imported replaces it where it is; the rest
    /// are a new drive. Refused, leaving the imports as they were, when a new drive would be a
    /// fifth or the files would pass [`MAX_FILES`].
    pub fn add(&mut self, files: Vec<FioFile>) -> Result<usize, ImportRefused> {
        let mut next = self.clone();
        let mut fresh = Vec::new();
        let mut first = None;
        for file in files {
            match next.find(&file.name) {
                Some((d, f)) => {
                    next.0[d].files[f] = file;
                    first.get_or_insert(d);
                }
                None => fresh.push(file),
            }
        }
        if !fresh.is_empty() {
            if next.0.len() >= MAX_IMPORTS {
                return Err(ImportRefused::Full);
            }
            next.0.push(YourDrive { files: fresh });
            first.get_or_insert(next.0.len() - 1);
        }
        if next.file_count() > MAX_FILES {
            return Err(ImportRefused::TooManyFiles);
        }
        *self = next;
        Ok(first.unwrap_or(0))
    }

    /// The drive and place of the file named `name`.
    fn find(&self, name: &str) -> Option<(usize, usize)> {
        self.0.iter().enumerate().find_map(|(d, drive)| {
            let f = drive.files.iter().position(|f| f.name == name)?;
            Some((d, f))
        })
    }

    /// Removes the drive at `index` with its files (nothing if there is none).
    pub fn remove(&mut self, index: usize) {
        if index < self.0.len() {
            self.0.remove(index);
        }
    }

    /// Removes one file; a drive left without files goes too.
    pub fn remove_file(&mut self, drive: usize, file: usize) {
        let Some(d) = self.0.get_mut(drive) else {
            return;
        };
        if file < d.files.len() {
            d.files.remove(file);
        }
        if d.files.is_empty() {
            self.0.remove(drive);
        }
    }

    /// Moves one file to another drive or to a drive of its own; a drive left without files
    /// goes. Refused (nothing moves) when a new drive would be a fifth.
    pub fn move_file(
        &mut self,
        drive: usize,
        file: usize,
        to: MoveTo,
    ) -> Result<(), ImportRefused> {
        let Some(moving) = self.0.get(drive).and_then(|d| d.files.get(file)).cloned() else {
            return Ok(());
        };
        if to == MoveTo::Drive(drive) {
            return Ok(());
        }
        let alone = self.0[drive].files.len() == 1;
        let mut next = self.clone();
        match to {
            MoveTo::Drive(target) if target < next.0.len() => next.0[target].files.push(moving),
            MoveTo::Drive(_) => return Ok(()),
            MoveTo::NewDrive if alone => return Ok(()),
            MoveTo::NewDrive if next.0.len() >= MAX_IMPORTS => return Err(ImportRefused::Full),
            MoveTo::NewDrive => next.0.push(YourDrive {
                files: vec![moving],
            }),
        }
        next.remove_file(drive, file);
        *self = next;
        Ok(())
    }

    /// The imports as stored data read back, kept only if they hold what always holds (a
    /// store another version of the page wrote, or one edited by hand, may not).
    pub fn checked(self) -> Option<Imports> {
        let valid = self.0.len() <= MAX_IMPORTS
            && self.file_count() <= MAX_FILES
            && self
                .0
                .iter()
                .all(|d| !d.files.is_empty() && d.files.iter().all(|f| !f.points.is_empty()));
        let mut names: Vec<&str> = self
            .0
            .iter()
            .flat_map(|d| d.files.iter().map(|f| f.name.as_str()))
            .collect();
        names.sort_unstable();
        let unique = names.windows(2).all(|w| w[0] != w[1]);
        (valid && unique).then_some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::config::Rw;

    fn file(name: &str, iodepth: u32) -> FioFile {
        let point = FioPoint {
            job: "j".into(),
            rw: Some(Rw::RandRead),
            bs_bytes: Some(4096),
            iodepth,
            line: 1,
            processes: 1,
            rate_iops: None,
            depth_reckoned: false,
            read_percent: 100.0,
            iops: 1000.0,
            bw_mb_s: 4.0,
            lat_mean_us: 100.0,
            lat_p99_us: None,
            lat_total_mean_us: None,
        };
        FioFile::new(name.into(), "JSON".into(), vec![point]).unwrap()
    }

    fn names(imports: &Imports) -> Vec<Vec<&str>> {
        imports
            .as_slice()
            .iter()
            .map(|d| d.files().iter().map(|f| f.name.as_str()).collect())
            .collect()
    }

    #[test]
    fn files_chosen_together_are_one_drive_and_four_drives_at_most() {
        assert!(FioFile::new("empty.json".into(), String::new(), Vec::new()).is_none());
        let mut imports = Imports::default();
        let sweep: Vec<FioFile> = [1, 2, 4, 8]
            .iter()
            .map(|q| file(&format!("qd{q}.json"), *q))
            .collect();
        assert_eq!(imports.add(sweep), Ok(0));
        assert_eq!(imports.as_slice()[0].points().count(), 4);
        assert_eq!(imports.as_slice()[0].name(), "qd1.json and 3 more");
        for (i, name) in ["b.json", "c.json", "d.json"].iter().enumerate() {
            assert_eq!(imports.add(vec![file(name, 1)]), Ok(i + 1));
        }
        let before = imports.clone();
        assert_eq!(
            imports.add(vec![file("e.json", 1)]),
            Err(ImportRefused::Full)
        );
        assert_eq!(imports, before, "a refused import changes nothing");
    }

    #[test]
    fn the_same_name_replaces_its_file_where_it_is() {
        let mut imports = Imports::default();
        imports
            .add(vec![file("a.json", 1), file("b.json", 2)])
            .unwrap();
        imports.add(vec![file("c.json", 4)]).unwrap();
        assert_eq!(imports.add(vec![file("b.json", 32)]), Ok(0));
        assert_eq!(names(&imports), [vec!["a.json", "b.json"], vec!["c.json"]]);
        assert_eq!(imports.as_slice()[0].files()[1].points()[0].iodepth, 32);
    }

    #[test]
    fn a_file_moves_to_another_drive_or_its_own_and_empty_drives_go() {
        let mut imports = Imports::default();
        imports
            .add(vec![file("a.json", 1), file("b.json", 2)])
            .unwrap();
        imports.add(vec![file("c.json", 4)]).unwrap();
        imports.move_file(0, 1, MoveTo::NewDrive).unwrap();
        assert_eq!(
            names(&imports),
            [vec!["a.json"], vec!["c.json"], vec!["b.json"]]
        );
        imports.move_file(1, 0, MoveTo::Drive(0)).unwrap();
        assert_eq!(names(&imports), [vec!["a.json", "c.json"], vec!["b.json"]]);
        imports.remove_file(1, 0);
        assert_eq!(names(&imports), [vec!["a.json", "c.json"]]);
        imports.remove_file(7, 0);
        imports.move_file(0, 9, MoveTo::NewDrive).unwrap();
        assert_eq!(
            names(&imports),
            [vec!["a.json", "c.json"]],
            "nothing to move"
        );
    }

    #[test]
    fn stored_imports_that_break_the_rules_are_not_restored() {
        let mut imports = Imports::default();
        imports.add(vec![file("a.json", 1)]).unwrap();
        assert!(imports.clone().checked().is_some());
        let mut twice = imports.clone();
        twice.0.push(imports.0[0].clone());
        assert!(twice.checked().is_none(), "a name twice");
        let mut empty = imports;
        empty.0[0].files.clear();
        assert!(empty.checked().is_none(), "a drive without files");
    }
}
