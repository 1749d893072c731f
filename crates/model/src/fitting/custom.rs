//! A drive of the user's own: a preset's controller and flash with the values a fit to their
//! fio runs found, the compact text that carries it in a link (`drive=`), and the fit itself.
//!
//! What it owns:
//! - [`DRIVE_FIT`], the parameters a fit of a whole drive chooses (the die count, the read and
//!   program times, the controller's command cost, the host stack, the host's one-at-a-time
//!   path and the link efficiency) and the widest values a link may give them; [`plausible`],
//!   the part of those a fit searches on a given controller (die counts it addresses, the
//!   link's protocol efficiency, the host stack's floor), so real data with odd cells cannot
//!   land on a drive nobody would believe. A published calibration fits a preset's own list
//!   (`Preset::fitted`) over cells that name their capacity; a user's fio jobs name no capacity,
//!   so the die count joins the search.
//! - [`CustomDrive`]: a base preset and one value per [`DRIVE_FIT`] parameter. It prints and
//!   parses as `e12_d24_r52500_p1400000_c900_h5200_l850` (the base preset's id, then a
//!   one-letter key and a whole number per value that differs from the base's; see [`KEYS`]).
//!   Parsing refuses a value outside its bounds or a key given twice, so a link can only name a
//!   drive the model can run; a key left out keeps the base preset's value.
//! - [`cells_from_fio`]: fio jobs as measurement cells (throughput and mean latency per job),
//!   the jobs that cannot be cells listed with the reason.
//! - [`try_fit`]: the search (a [`Evaluator`] search, so a page runs it in slices and lands
//!   where `lab fit --fio` does), and which parameters the cells pin down.

use std::fmt;
use std::str::FromStr;

use crate::calibration::{Depth, Measurement, Metric};
use crate::config::{ConfigError, DriveSpec, DriveState, MAX_IODEPTH};
use crate::config::{Fitted, Param};
use crate::fio::FioPoint;
use crate::fit::{CellFit, Evaluator, FitOptions, FitReport, ParamValues, Searched};
use crate::presets::{self, Preset, PresetRef};

/// What a fit of a whole drive chooses, in the order the search scans them, and the widest
/// values a `drive=` text may give each: what the model can run, for any NVMe TLC, QLC or
/// SLC-class drive behind a PCIe link or SATA (tR 2 to 200 µs, tPROG 50 µs to 5 ms, a command
/// cost up to 20 µs). A fit searches the narrower, physically plausible part of these for its
/// base controller ([`plausible`]). The steps are finer than the model's 1% run-to-run noise at
/// typical values.
pub static DRIVE_FIT: [Fitted; 8] = [
    Fitted {
        param: Param::Dies,
        lo: 1.0,
        hi: 256.0,
        step: 1.0,
    },
    Fitted {
        param: Param::TReadUs,
        lo: 2.0,
        hi: 200.0,
        step: 0.5,
    },
    Fitted {
        param: Param::TProgUs,
        lo: 50.0,
        hi: 5_000.0,
        step: 10.0,
    },
    Fitted {
        param: Param::CmdCostNs,
        lo: 50.0,
        hi: 20_000.0,
        step: 10.0,
    },
    Fitted {
        param: Param::HostStackUs,
        lo: 0.0,
        hi: 100.0,
        step: 0.1,
    },
    Fitted {
        param: Param::HostPathUs,
        lo: 0.0,
        hi: 100.0,
        step: 0.1,
    },
    Fitted {
        param: Param::MultiplaneReadMinQueue,
        lo: 1.0,
        hi: 64.0,
        step: 1.0,
    },
    Fitted {
        param: Param::LinkEfficiency,
        lo: 0.3,
        hi: 1.0,
        step: 0.005,
    },
];

/// Most dies one chip enable reaches: Phison's E12 sheet (the presets' \[REF2\]) addresses
/// 8 TB through 32 chip enables, which with 512 Gbit dies is four dies a chip enable.
const MAX_DIES_PER_CHIP_ENABLE: u32 = 4;

/// The least random-read rate any controller here is specified for: the E8T's 120k IOPS
/// (\[REF2\]), the slowest of Phison's sheets. A controller's time per command is at most its
/// inverse.
const SLOWEST_SPEC_READ_IOPS: f64 = 120_000.0;

/// The least time the host's kernel spends on one I/O, submission to completion
/// (assumption: no figure here pins it; the fastest round trip in the fio corpus, an Optane
/// P4800X's 12.4 µs at QD1, bounds it from above).
const HOST_STACK_FLOOR_US: f64 = 2.0;

/// A bound as the lattice prints it (nine decimals, as `Fitted::value_at` rounds).
fn on_lattice(v: f64) -> f64 {
    (v * 1e9).round() / 1e9
}

/// [`DRIVE_FIT`] narrowed to what is physically plausible on `base`'s controller, the space a
/// fit of a reader's drive searches:
/// - dies: at least one a channel, at most four on each of its chip enables (the E12
///   addresses 8 TB through 32 of them);
/// - the controller's time per command: at most the inverse of the slowest spec-sheet
///   random-read rate (the E8T's 120k IOPS: 8.34 µs);
/// - the host stack: at least 2 µs (the kernel's own path, an assumption);
/// - the link efficiency: what its protocol allows (`HostLink::efficiency_range`).
///
/// ```
/// use parallelism_model::custom::plausible;
/// use parallelism_model::config::Param;
/// use parallelism_model::presets;
/// let e12 = plausible(presets::find("e12").unwrap());
/// let dies = e12.iter().find(|f| f.param == Param::Dies).unwrap();
/// assert_eq!((dies.lo, dies.hi), (8.0, 128.0)); // 8 channels, 32 chip enables
/// ```
pub fn plausible(base: &Preset) -> [Fitted; 8] {
    let c = &base.controller;
    let (link_lo, link_hi) = c.link.efficiency_range();
    DRIVE_FIT.map(|f| {
        let (lo, hi) = match f.param {
            Param::Dies => (
                f64::from(c.channels),
                f64::from(c.chip_enables * MAX_DIES_PER_CHIP_ENABLE).min(f.hi),
            ),
            Param::CmdCostNs => (
                f.lo,
                (1e9 / SLOWEST_SPEC_READ_IOPS / f.step).ceil() * f.step,
            ),
            Param::HostStackUs => (HOST_STACK_FLOOR_US, f.hi),
            Param::LinkEfficiency => (
                on_lattice((link_lo / f.step).ceil() * f.step),
                on_lattice((link_hi / f.step).floor() * f.step),
            ),
            _ => (f.lo, f.hi),
        };
        Fitted { lo, hi, ..f }
    })
}

/// The one-letter key of each [`DRIVE_FIT`] parameter in a `drive=` text, in its order, and how
/// many of the text's whole units make one of the parameter's own: times in nanoseconds (the
/// model's unit), the link efficiency in thousandths. (A count, so the text's number is divided
/// by it: 81100 / 1000 is exactly the 81.1 a fit lands on, where 81100 x 0.001 is not.) Whole
/// numbers keep the text free of `.`, which separates the fields of a compare pin, and every
/// value a fit lands on is one of them.
pub const KEYS: [(Param, char, f64); 8] = [
    (Param::Dies, 'd', 1.0),
    (Param::TReadUs, 'r', 1e3),
    (Param::TProgUs, 'p', 1e3),
    (Param::CmdCostNs, 'c', 1.0),
    (Param::HostStackUs, 'h', 1e3),
    (Param::HostPathUs, 'u', 1e3),
    (Param::MultiplaneReadMinQueue, 'm', 1.0),
    (Param::LinkEfficiency, 'l', 1e3),
];

/// Longest `drive=` text read (a full one is about 50 characters).
const MAX_TEXT: usize = 200;

/// A base preset with its own value for every [`DRIVE_FIT`] parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct CustomDrive {
    pub base: &'static Preset,
    /// One value per [`DRIVE_FIT`] parameter, in its order.
    values: ParamValues,
}

impl CustomDrive {
    /// `base` at its default capacity, with its own values.
    pub fn of(base: &'static Preset) -> CustomDrive {
        let drive = base.default_drive();
        CustomDrive {
            base,
            values: ParamValues(
                DRIVE_FIT
                    .iter()
                    .map(|f| (f.param, f.param.get(&drive)))
                    .collect(),
            ),
        }
    }

    /// `base` with `dies` and the values a fit of [`DRIVE_FIT`] found (others: the base's).
    pub fn fitted(base: &'static Preset, dies: Option<u32>, report: &FitReport) -> CustomDrive {
        let mut d = CustomDrive::of(base);
        if let Some(n) = dies {
            d.set(Param::Dies, f64::from(n));
        }
        for (param, value) in &mut d.values.0 {
            if let Some(v) = report.value(*param) {
                *value = v;
            }
        }
        d
    }

    fn set(&mut self, param: Param, value: f64) {
        for (p, v) in &mut self.values.0 {
            if *p == param {
                *v = value;
            }
        }
    }

    pub fn value(&self, param: Param) -> Option<f64> {
        self.values.get(param)
    }

    /// The drive itself: the base's controller and flash with these values.
    pub fn drive(&self) -> DriveSpec {
        let mut d = self.base.default_drive();
        for &(param, v) in &self.values.0 {
            param.set(&mut d, v);
        }
        d
    }

    /// Its die count.
    pub fn dies(&self) -> u32 {
        self.drive().dies
    }

    /// The drive as a preset every view, pin, chart, export and worker message takes as it
    /// takes a built-in one: the base itself when the drive changes nothing, else a preset
    /// whose id is the drive's text (whole numbers and `_`: nothing a link, a pin, a CSV field
    /// or a message treats specially), with this drive's controller and flash and its one
    /// capacity. The same text always makes an equal preset, so a run key made from it means
    /// one drive on the page and in its workers.
    ///
    /// ```
    /// use parallelism_model::custom::CustomDrive;
    /// use parallelism_model::presets;
    ///
    /// let e12 = presets::find("e12").unwrap();
    /// assert!(CustomDrive::of(e12).preset().built_in().is_some());
    /// let mine: CustomDrive = "e12_d24".parse().unwrap();
    /// assert_eq!(mine.preset().id, "e12_d24");
    /// assert_eq!(mine.preset().capacities_gb.len(), 1);
    /// ```
    pub fn preset(&self) -> PresetRef {
        let id = self.to_string();
        if id == self.base.id {
            return PresetRef::from(self.base);
        }
        let spec = self.drive();
        PresetRef::made(Preset {
            id: id.into(),
            name: format!("Your drive (on the {})", self.base.controller.name).into(),
            summary: format!(
                "A drive of your own: the {} with the values of a fit to your fio results (or of the link you opened)",
                self.base.name
            )
            .into(),
            capacities_gb: vec![whole_gb(spec.user_gb())].into(),
            controller: spec.controller,
            nand: spec.nand,
            fitted: &[],
            spec_peaks: None,
        })
    }
}

/// The preset a link, a pin or a message names: a built-in id, or a drive's text (a built-in
/// preset when the text changes nothing). A text [`CustomDrive`] refuses is refused with its
/// reason, so a preset found here is always one the model can run.
///
/// ```
/// use parallelism_model::custom;
///
/// assert_eq!(custom::lookup("e12").unwrap().id, "e12");
/// assert_eq!(custom::lookup("e12_d24_r52500").unwrap().nand.t_read.0, 52_500);
/// assert!(custom::lookup("e12_d999").is_err());
/// ```
pub fn lookup(id: &str) -> Result<PresetRef, ConfigError> {
    match presets::find(id) {
        Some(p) => Ok(PresetRef::from(p)),
        None => Ok(id.parse::<CustomDrive>()?.preset()),
    }
}

/// The drive of the reader's own a preset is, if it is not a built-in one.
pub fn custom_of(preset: &Preset) -> Option<CustomDrive> {
    if presets::find(&preset.id).is_some() {
        return None;
    }
    preset.id.parse().ok()
}

/// The built-in preset a preset is, or is made from; `None` only for a preset made some other
/// way than from a [`CustomDrive`].
pub fn base_of(preset: &Preset) -> Option<&'static Preset> {
    presets::find(&preset.id).or_else(|| custom_of(preset).map(|c| c.base))
}

/// A capacity as a listed one: the nearest whole GB, at least 1.
fn whole_gb(user_gb: f64) -> u32 {
    // A drive the model accepts holds far fewer than u32::MAX GB; the cast saturates anyway.
    user_gb.round().max(1.0) as u32
}

/// Where a drive of your own goes next, in each front end's syntax, written once so the page
/// and `lab` always agree: the page's query opens it, `lab fit` repeats the page's fit.
impl CustomDrive {
    /// The page's query (its own `drive=` and `state=` parameters) that opens this drive with
    /// its runs in `state`.
    ///
    /// ```
    /// use parallelism_model::custom::CustomDrive;
    /// use parallelism_model::{presets, DriveState};
    ///
    /// let drive = CustomDrive::of(presets::find("e12").unwrap());
    /// let query = drive.page_query(DriveState::Fob);
    /// assert_eq!(query, format!("drive={drive}&state=fob"));
    /// ```
    pub fn page_query(&self, state: DriveState) -> String {
        format!("drive={self}&state={state}")
    }
}

/// The `lab fit` command line that runs the fit the page runs: on `base`'s controller, the fio
/// runs taken in `state`, `ios` measured I/Os a run, the drive's capacity when the reader gave
/// it, then the fio files.
///
/// ```
/// use parallelism_model::{custom, presets, DriveState};
///
/// let e12 = presets::find("e12").unwrap();
/// let files = ["mine.json".to_string()];
/// assert_eq!(
///     custom::fit_command_line(e12, DriveState::Fob, 4000, Some(960.0), &files),
///     "lab fit --preset e12 --state fob --ios 4000 --capacity-gb 960 --fio mine.json"
/// );
/// ```
pub fn fit_command_line(
    base: &Preset,
    state: DriveState,
    ios: u64,
    capacity_gb: Option<f64>,
    files: &[String],
) -> String {
    let capacity = capacity_gb
        .map(|gb| format!(" --capacity-gb {gb}"))
        .unwrap_or_default();
    format!(
        "lab fit --preset {} --state {state} --ios {ios}{capacity} --fio {}",
        base.id,
        files.join(" ")
    )
}

/// The base preset's id, then `_` and a key and a whole number for each value that differs
/// from the base's (so a drive equal to its base prints as the base's id).
impl fmt::Display for CustomDrive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.base.id)?;
        let base = CustomDrive::of(self.base);
        for (param, key, per) in KEYS {
            let (Some(v), Some(b)) = (self.values.get(param), base.values.get(param)) else {
                continue;
            };
            let (n, nb) = ((v * per).round(), (b * per).round());
            if n != nb {
                write!(f, "_{key}{n}")?;
            }
        }
        Ok(())
    }
}

fn refuse(text: &str, why: impl Into<String>) -> ConfigError {
    ConfigError::Malformed {
        what: "drive".into(),
        value: text.chars().take(60).collect(),
        why: why.into(),
    }
}

impl FromStr for CustomDrive {
    type Err = ConfigError;

    /// Reads `base_d24_r52.5...`: see the module documentation.
    fn from_str(text: &str) -> Result<CustomDrive, ConfigError> {
        if text.len() > MAX_TEXT {
            return Err(refuse(text, format!("longer than {MAX_TEXT} characters")));
        }
        let mut parts = text.split('_');
        let id = parts.next().unwrap_or_default();
        let base = presets::lookup(id)?;
        let mut drive = CustomDrive::of(base);
        let mut seen: Vec<char> = Vec::new();
        for part in parts {
            let mut chars = part.chars();
            let key = chars.next().ok_or_else(|| refuse(text, "an empty value"))?;
            // KEYS is in DRIVE_FIT's order (tested), so each key's bounds are beside it.
            let ((param, _, per), bounds) = KEYS
                .iter()
                .zip(&DRIVE_FIT)
                .find(|((_, k, _), _)| *k == key)
                .ok_or_else(|| {
                    let keys: Vec<String> =
                        KEYS.iter().map(|(p, k, _)| format!("{k} ({p})")).collect();
                    refuse(
                        text,
                        format!("unknown key '{key}': expected {}", keys.join(", ")),
                    )
                })?;
            if seen.contains(&key) {
                return Err(refuse(text, format!("'{key}' ({param}) given twice")));
            }
            seen.push(key);
            let (lo, hi) = ((bounds.lo * per).round(), (bounds.hi * per).round());
            let number = chars.as_str();
            let value = number
                .parse::<u64>()
                .ok()
                .map(|n| n as f64)
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(|| {
                    refuse(
                        text,
                        format!("{key} ({param}) '{number}' is not a whole number in {lo}..={hi}"),
                    )
                })?
                / per;
            drive.set(*param, value);
        }
        Ok(drive)
    }
}

/// Block sizes from which a job's throughput cell is MB/s rather than IOPS (reviews quote
/// large transfers so; the fit weighs both the same).
pub const MB_S_FROM_BYTES: u32 = 64 * 1024;

/// fio jobs as cells, and the jobs left out.
#[derive(Clone, Debug, PartialEq)]
pub struct FioCells {
    pub cells: Vec<Measurement>,
    /// Each job that gave no cell: its name and why.
    pub skipped: Vec<(String, String)>,
}

/// Each fio job as two cells, its throughput (IOPS, or MB/s from [`MB_S_FROM_BYTES`]) and its
/// mean total latency (completion latency where fio gave no total), measured in `state`. A job
/// held to a rate (`rate_iops`) that kept it is an open loop ([`Depth::Rate`]) and gives its
/// latency cell alone. A job without a pattern or block size the lab models, deeper than it
/// runs, or a closed loop that kept under half its depth in flight, is skipped with the
/// reason.
pub fn cells_from_fio(points: &[FioPoint], state: DriveState) -> FioCells {
    let mut cells = Vec::new();
    let mut skipped = Vec::new();
    for p in points {
        match cells_of_job(p, state) {
            Ok(of_job) => cells.extend(of_job),
            Err(why) => skipped.push((p.job.clone(), why)),
        }
    }
    FioCells { cells, skipped }
}

/// Every file's fio jobs as cells, each job left out named with its file (`qd4 (mine.json)`):
/// what a fit of several fio files takes, the one step `lab fit --fio` and the page's fit both
/// call. Refused when no job of any file can be fitted.
///
/// ```
/// use parallelism_model::{custom, DriveState};
///
/// let none = custom::cells_from_files([("mine.json", &[][..])], DriveState::Fob).unwrap_err();
/// assert_eq!(none.to_string(), "no fio job can be fitted (the files hold no jobs)");
/// ```
pub fn cells_from_files<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a [FioPoint])>,
    state: DriveState,
) -> Result<FioCells, NoCells> {
    let mut all = FioCells {
        cells: Vec::new(),
        skipped: Vec::new(),
    };
    for (name, points) in files {
        let got = cells_from_fio(points, state);
        all.cells.extend(got.cells);
        all.skipped.extend(
            got.skipped
                .into_iter()
                .map(|(job, why)| (format!("{job} ({name})"), why)),
        );
    }
    if all.cells.is_empty() {
        return Err(NoCells {
            skipped: all.skipped,
        });
    }
    Ok(all)
}

/// No job of the fio files can be fitted: each job, with why.
#[derive(Clone, Debug, PartialEq)]
pub struct NoCells {
    pub skipped: Vec<(String, String)>,
}

impl fmt::Display for NoCells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.skipped.is_empty() {
            return f.write_str("no fio job can be fitted (the files hold no jobs)");
        }
        let why: Vec<String> = self
            .skipped
            .iter()
            .map(|(job, why)| format!("{job}: {why}"))
            .collect();
        write!(f, "no fio job can be fitted ({})", why.join("; "))
    }
}

impl std::error::Error for NoCells {}

/// A job held to a rate that reached at least this share of it ran as an open loop; one that
/// fell short was held back by the drive, so it ran as a closed loop at its depth.
const RATE_KEPT: f64 = 0.95;

fn cells_of_job(p: &FioPoint, state: DriveState) -> Result<Vec<Measurement>, String> {
    let rw = p.rw.ok_or("its rw= is not a pattern the lab models")?;
    let bs_bytes = p
        .bs_bytes
        .ok_or("its bs= is not a block size the lab models")?;
    if p.iodepth > MAX_IODEPTH {
        return Err(format!(
            "iodepth {} is deeper than the lab's {MAX_IODEPTH}",
            p.iodepth
        ));
    }
    let open_loop = match p.rate_iops {
        Some(rate) if !(rate >= 1.0 && rate <= f64::from(u32::MAX)) => {
            return Err(format!("its rate_iops {rate} is not a rate the lab runs"));
        }
        Some(rate) if p.iops >= RATE_KEPT * rate => Some(rate.round() as u32),
        _ => None,
    };
    // Little's law: a closed-loop job that kept far fewer requests in flight than its depth
    // was held back by something the file does not state, so its depth is not what the drive
    // saw. (An open loop keeps what its rate brings.)
    if open_loop.is_none() && p.iodepth >= 2 && p.in_flight() < f64::from(p.iodepth) / 2.0 {
        return Err(format!(
            "it kept {:.1} of its {} requests in flight (IOPS x latency): a rate, a think time or a synchronous engine held it back",
            p.in_flight(),
            p.iodepth
        ));
    }
    let rwmixread = match rw.fixed_read_percent() {
        Some(share) => share,
        None => p.read_percent.round().clamp(0.0, 100.0) as u8,
    };
    let depth = match open_loop {
        Some(iops) => Depth::Rate {
            iops,
            iodepth: p.iodepth,
        },
        None => Depth::Iodepth(p.iodepth),
    };
    let cell = |metric: Metric, value: f64| Measurement {
        capacity_gb: None,
        state,
        rw,
        rwmixread,
        bs_bytes,
        depth,
        metric,
        value,
    };
    let throughput = if bs_bytes >= MB_S_FROM_BYTES {
        cell(Metric::MbS, p.bw_mb_s)
    } else {
        cell(Metric::Iops, p.iops)
    };
    // The model's latency runs from submission to completion: fio's total latency, where it
    // gave one (its completion latency alone leaves out the submission).
    let latency = cell(
        Metric::LatencyMs,
        p.lat_total_mean_us.unwrap_or(p.lat_mean_us) / 1e3,
    );
    if !(throughput.value > 0.0 && latency.value > 0.0) {
        return Err("it reports no throughput or no latency".into());
    }
    // An open loop's throughput is the rate it was given, whatever the drive: only its
    // latency says something of the drive.
    Ok(match open_loop {
        Some(_) => vec![latency],
        None => vec![throughput, latency],
    })
}

/// The evaluator of a fit of [`DRIVE_FIT`] to `cells` on `base`'s controller and flash,
/// starting from the base's own values at its default capacity. With `dies` known (from the
/// drive's capacity, see `Preset::dies_for_capacity_gb`) the die count is held there and only
/// the rest is searched: the die count and the read time trade off against each other in
/// random reads, so knowing one pins the other.
pub fn evaluator(
    base: &'static Preset,
    cells: &[Measurement],
    options: FitOptions,
    dies: Option<u32>,
) -> Result<Evaluator, ConfigError> {
    let mut start = base.default_drive();
    let space = plausible(base);
    let fitted: &[Fitted] = match dies {
        Some(n) => {
            start = base.drive_with_dies(n)?;
            &space[1..]
        }
        None => &space,
    };
    Ok(Evaluator::starting_at(fitted, start, cells, options)?
        .follow_valleys()
        .robust())
}

/// The fit of a whole drive as a search ([`Evaluator::settle`] runs it to the end, a page in
/// slices): the best values, then which of them the cells pin down (`report.identified`).
pub fn try_fit(e: &Evaluator) -> Searched<FitReport> {
    let mut report = e.try_fit()?;
    report.identified = Some(e.try_identified(&report)?);
    Ok(report)
}

/// Fit [`DRIVE_FIT`] on `base` to `cells` in one go (the die count held at `dies` if known).
pub fn fit(
    base: &'static Preset,
    cells: &[Measurement],
    options: FitOptions,
    dies: Option<u32>,
) -> Result<FitReport, ConfigError> {
    let mut e = evaluator(base, cells, options, dies)?;
    Ok(e.settle(try_fit))
}

/// Whether a fit explains a cell: within this error (the robust objective's own scale, so the
/// cells the fit lets go are the ones it names).
pub const EXPLAINS_WITHIN: f64 = crate::fit::ROBUST_SCALE;

/// Whether a fit misses this cell by more than [`EXPLAINS_WITHIN`] (or could not run it).
pub fn missed(c: &CellFit) -> bool {
    c.err().is_nan() || c.err().abs() > EXPLAINS_WITHIN
}

/// The cells a fit misses (see [`missed`]).
pub fn misses(report: &FitReport) -> Vec<&CellFit> {
    report.cells.iter().filter(|c| missed(c)).collect()
}

/// What a fit says of its misses, for `lab fit` and the page alike: how many cells it explains,
/// then each outlier with its error (`None` when it explains every cell).
///
/// ```
/// use parallelism_model::calibration::{Depth, Measurement, Metric};
/// use parallelism_model::custom::outliers_text;
/// use parallelism_model::fit::{CellFit, FitReport, ParamValues};
/// use parallelism_model::{DriveState, Rw};
/// let cell = |depth, value| Measurement {
///     capacity_gb: None, state: DriveState::Fob, rw: Rw::RandRead, rwmixread: 100,
///     bs_bytes: 4096, depth: Depth::Iodepth(depth), metric: Metric::Iops, value,
/// };
/// let report = FitReport {
///     params: ParamValues::default(),
///     cells: vec![
///         CellFit { cell: cell(1, 10_000.0), model: 10_500.0 },
///         CellFit { cell: cell(8, 50_000.0), model: 67_000.0 },
///     ],
///     max_err: 0.34, mean_err: 0.195, robust_err: 0.2,
///     loo: None, identified: None, evaluations: 0,
/// };
/// assert_eq!(
///     outliers_text(&report).unwrap(),
///     "1 of 2 points within 15%; the fit lets go of randread 4 KiB QD8 IOPS (+34.0%)"
/// );
/// ```
pub fn outliers_text(report: &FitReport) -> Option<String> {
    let misses = misses(report);
    if misses.is_empty() {
        return None;
    }
    let named: Vec<String> = misses
        .iter()
        .map(|c| format!("{} ({:+.1}%)", c.cell.label(), c.err() * 100.0))
        .collect();
    Some(format!(
        "{} of {} points within {:.0}%; the fit lets go of {}",
        report.cells.len() - misses.len(),
        report.cells.len(),
        EXPLAINS_WITHIN * 100.0,
        named.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_text_makes_equal_presets_and_a_text_equal_to_its_base_is_the_base() {
        let a = lookup("e12_d24_r52500").unwrap();
        assert_eq!(a, lookup("e12_d24_r52500").unwrap());
        assert!(a.built_in().is_none());
        assert_eq!(a.nand.t_read.0, 52_500);
        assert_eq!(
            a.dies_for_capacity_gb(f64::from(a.capacities_gb[0])),
            Ok(24)
        );
        let e12 = presets::find("e12").unwrap();
        assert!(std::ptr::eq(
            lookup("e12").unwrap().built_in().unwrap(),
            e12
        ));
        assert_eq!(custom_of(&a).unwrap().to_string(), "e12_d24_r52500");
        assert!(custom_of(e12).is_none());
        assert!(std::ptr::eq(base_of(&a).unwrap(), e12));
        assert!(std::ptr::eq(base_of(e12).unwrap(), e12));
    }

    #[test]
    fn a_text_that_is_no_drive_is_refused_with_the_reason() {
        let e = lookup("e12_d999").unwrap_err().to_string();
        assert!(e.contains("1..=256"), "{e}");
        assert!(lookup("nothing").is_err());
    }

    #[test]
    fn every_key_names_a_fitted_parameter_once_in_its_order() {
        assert_eq!(KEYS.len(), DRIVE_FIT.len());
        for f in &DRIVE_FIT {
            assert_eq!(KEYS.iter().filter(|(p, _, _)| *p == f.param).count(), 1);
        }
        // In the same order: reading a text finds a key's bounds beside it.
        for ((p, _, _), f) in KEYS.iter().zip(&DRIVE_FIT) {
            assert_eq!(*p, f.param);
        }
    }

    /// Issue 24: a fit of real data must land on a drive an engineer would believe, and the
    /// search starts at the base preset's own values, so each preset's drive is plausible on
    /// its own controller; the narrowed bounds stay on the text's lattice, so every value a
    /// fit lands on prints and parses back.
    #[test]
    fn every_presets_own_drive_is_plausible_on_its_controller() {
        for base in presets::all() {
            let drive = base.default_drive();
            for (f, wide) in plausible(base).iter().zip(&DRIVE_FIT) {
                let v = f.param.get(&drive);
                assert!(
                    f.lo <= v && v <= f.hi,
                    "{} {}: {v} not in {f:?}",
                    base.id,
                    f.param
                );
                assert!(
                    wide.lo <= f.lo && f.hi <= wide.hi,
                    "{} {}",
                    base.id,
                    f.param
                );
                let steps = (f.lo - wide.lo) / f.step;
                assert!(
                    (steps - steps.round()).abs() < 1e-6,
                    "{} {}",
                    base.id,
                    f.param
                );
            }
        }
        // The drives a fit once found on real sweeps fall outside: 2 dies on an 8-channel
        // controller, a PCIe link at 30%, no host stack at all.
        let e12 = plausible(presets::find("e12").unwrap());
        let bound = |p: Param| *e12.iter().find(|f| f.param == p).unwrap();
        assert_eq!(bound(Param::Dies).lo, 8.0);
        assert!(bound(Param::LinkEfficiency).lo > 0.65);
        assert_eq!(bound(Param::HostStackUs).lo, 2.0);
        assert_eq!(bound(Param::CmdCostNs).hi, 8_340.0);
    }

    #[test]
    fn a_drive_prints_and_parses_to_itself() {
        let text = "e12_d24_r52500_p1400000_c900_h5200_u22000_m4_l800";
        let d: CustomDrive = text.parse().unwrap();
        assert_eq!(d.to_string(), text);
        assert_eq!(d.dies(), 24);
        assert_eq!(d.drive().nand.t_read.0, 52_500);
        assert_eq!(d.drive().controller.cmd_cost.0, 900);
        assert_eq!(d.to_string().parse::<CustomDrive>().unwrap(), d);
    }

    #[test]
    fn every_value_a_fit_lands_on_prints_and_parses_back_exactly() {
        // A fit's values are lattice points (lo + i x step, rounded to nine decimals); the text
        // must carry each back to the same f64, or a link would name a slightly other drive.
        let base = presets::find("e12").unwrap();
        for f in &DRIVE_FIT {
            for i in 0..=f.last_index() {
                let mut d = CustomDrive::of(base);
                d.set(f.param, f.value_at(i));
                let back: CustomDrive = d.to_string().parse().unwrap();
                assert_eq!(back.value(f.param), d.value(f.param), "{} {}", f.param, d);
            }
        }
    }

    #[test]
    fn keys_left_out_keep_the_base_presets_values_and_print_as_the_base() {
        let d: CustomDrive = "e12_d8".parse().unwrap();
        assert_eq!(CustomDrive::of(d.base).to_string(), "e12");
        assert_eq!(
            "e12".parse::<CustomDrive>().unwrap(),
            CustomDrive::of(d.base)
        );
        let e12 = presets::find("e12").unwrap().default_drive();
        assert_eq!(d.dies(), 8);
        assert_eq!(d.drive().nand, e12.nand);
        assert_eq!(d.drive().controller, e12.controller);
    }

    #[test]
    fn bad_texts_say_what_is_wrong() {
        for (text, says) in [
            ("", "preset"),
            ("nope_d8", "preset 'nope'"),
            ("e12_x5", "unknown key 'x'"),
            ("e12_d0", "d (dies) '0' is not a whole number in 1..=256"),
            ("e12_d8_d9", "'d' (dies) given twice"),
            ("e12_rNaN", "r (t_read_us) 'NaN'"),
            ("e12_r52.5", "r (t_read_us) '52.5'"),
            ("e12__d8", "an empty value"),
            (
                "e12_l1500",
                "l (link_efficiency) '1500' is not a whole number in 300..=1000",
            ),
        ] {
            let e = text.parse::<CustomDrive>().unwrap_err().to_string();
            assert!(e.contains(says), "{text:?}: {e}");
        }
        assert!("e12_d8".repeat(50).parse::<CustomDrive>().is_err());
    }
}
