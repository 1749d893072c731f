//! What identifies one model run of the page ([`RunKey`]), and what the page keeps of it
//! ([`Point`], [`Outcome`]).
//!
//! What always holds:
//! - the model is deterministic for a seed ([`SEED`]), so a [`RunKey`] fully identifies a
//!   result: the page, every worker and a native test compute the same numbers for one key;
//! - a key travels as text ([`RunKey`]'s `Display`, read back by its `FromStr`), made of the
//!   model's own names (fio's patterns, the drive states) and whole numbers, so it round-trips
//!   exactly and a malformed one is refused with the reason, never run.

use std::fmt;
use std::str::FromStr;

use parallelism_model::config::PowerLimit;
use parallelism_model::config::{
    ConfigError, DriveSpec, NandSpec, RunOptions, RunSpec, Rw, Workload,
};
use parallelism_model::prepare::Preparation;
use parallelism_model::presets::{Preset, PresetRef};
use parallelism_model::run::{CheckedRun, RunError};
use parallelism_model::stats::{Bottleneck, ProgramWait};
use parallelism_model::workload::{Spacing, Stream, StreamsSpec};
use serde::{Deserialize, Serialize};

use parallelism_model::custom;

use crate::anatomy::PointAnatomy;

/// Measured I/Os of a quick estimate: a few percent of noise, a fraction of a full run's cost.
pub const ESTIMATE_IOS: u64 = 1_500;
/// The model's seed for every run: one seed makes every chart reproducible.
pub const SEED: u64 = 1;

/// One drive behind a preset's controller: a die count and a die density.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DriveChoice {
    pub dies: u32,
    pub die_gbit: u32,
}

impl DriveChoice {
    /// Raw flash in Gbit.
    pub fn raw_gbit(self) -> u32 {
        self.dies * self.die_gbit
    }

    /// The model's drive for this choice on `preset`.
    pub fn drive(self, preset: &Preset) -> DriveSpec {
        // The model takes the die density from the NAND part; a held capacity or die count
        // changes only the density and keeps the part's timings. The die count is not checked
        // here: the page's state keeps it in range, and the run's check refuses it otherwise.
        DriveSpec {
            controller: preset.controller.clone(),
            nand: NandSpec {
                die_gbit: self.die_gbit,
                ..preset.nand.clone()
            },
            dies: self.dies,
        }
    }

    /// User capacity in GB.
    pub fn capacity_gb(self, preset: &Preset) -> f64 {
        self.drive(preset).user_gb()
    }

    /// Whether this is one of the capacities the preset was sold or measured at, built from
    /// the preset's own part.
    pub fn is_listed(self, preset: &Preset) -> bool {
        self.die_gbit == preset.nand.die_gbit
            && preset
                .capacities_gb
                .iter()
                .any(|&gb| preset.dies_for_capacity_gb(f64::from(gb)) == Ok(self.dies))
    }

    /// The preset's default capacity, built from its own part.
    pub fn default_for(preset: &Preset) -> DriveChoice {
        let dies = preset
            .dies_for_capacity_gb(f64::from(preset.default_capacity_gb()))
            .unwrap_or(1);
        DriveChoice {
            dies,
            die_gbit: preset.nand.die_gbit,
        }
    }
}

/// One drive: a preset (built-in or the reader's own) and the die count and density behind
/// it. Travels as text, `preset/dies x die Gbit` (e.g. `e18dc/32x512`), the first two fields
/// of a [`RunKey`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DriveKey {
    pub preset: PresetRef,
    pub drive: DriveChoice,
}

impl DriveKey {
    /// The model's drive.
    pub fn spec(&self) -> DriveSpec {
        self.drive.drive(&self.preset)
    }

    /// Reads the two fields `preset` and `dies x die Gbit`; `whole` is the text they came from,
    /// for the message.
    fn parse_fields(preset: &str, drive: &str, whole: &str) -> Result<DriveKey, KeyError> {
        let (dies, die_gbit) = drive
            .split_once('x')
            .ok_or_else(|| KeyError::Shape(whole.to_string()))?;
        Ok(DriveKey {
            preset: custom::lookup(preset)?,
            drive: DriveChoice {
                dies: number("dies", dies)?,
                die_gbit: number("die Gbit", die_gbit)?,
            },
        })
    }
}

impl fmt::Display for DriveKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}x{}",
            self.preset.id, self.drive.dies, self.drive.die_gbit
        )
    }
}

impl FromStr for DriveKey {
    type Err = KeyError;

    fn from_str(text: &str) -> Result<DriveKey, KeyError> {
        let Some((preset, drive)) = text.split_once('/') else {
            return Err(KeyError::DriveShape(text.to_string()));
        };
        DriveKey::parse_fields(preset, drive, text).map_err(|e| match e {
            KeyError::Shape(text) => KeyError::DriveShape(text),
            e => e,
        })
    }
}

/// How hard a result was worked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Fidelity {
    /// [`ESTIMATE_IOS`] measured I/Os: shown first, replaced when the full run is done.
    Estimate,
    /// The model's default run length ([`RunOptions::DEFAULT_MEASURED_IOS`]).
    Full,
}

impl Fidelity {
    /// Measured I/Os after which a run has reached this fidelity (the model may measure more
    /// for a full run, e.g. many write-buffer turnovers for writes).
    pub fn measured_ios(self) -> u64 {
        match self {
            Fidelity::Estimate => ESTIMATE_IOS,
            Fidelity::Full => RunOptions::DEFAULT_MEASURED_IOS,
        }
    }
}

/// How a run's requests arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Load {
    /// Closed loop: the key's depth of requests in flight, each completion sending the next
    /// (fio's `iodepth`).
    Depth,
    /// Open loop: `iops` requests a second whatever the drive does, spaced as `spacing` says
    /// (fio's `rate_iops` and `rate_process`); at most the key's depth at the device, the rest
    /// wait in the host.
    Rate { iops: u32, spacing: Spacing },
}

impl Load {
    /// The offered rate, for an open loop.
    pub fn rate_iops(self) -> Option<u32> {
        match self {
            Load::Depth => None,
            Load::Rate { iops, .. } => Some(iops),
        }
    }
}

/// `depth`, or `rate-IOPS-spacing` (e.g. `rate-250000-poisson`).
impl fmt::Display for Load {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Load::Depth => f.write_str("depth"),
            Load::Rate { iops, spacing } => write!(f, "rate-{iops}-{spacing}"),
        }
    }
}

impl FromStr for Load {
    type Err = KeyError;

    fn from_str(text: &str) -> Result<Load, KeyError> {
        if text == "depth" {
            return Ok(Load::Depth);
        }
        let mut parts = text.splitn(3, '-');
        match (parts.next(), parts.next(), parts.next()) {
            (Some("rate"), Some(iops), Some(spacing)) => Ok(Load::Rate {
                iops: number("rate", iops)?,
                spacing: spacing.parse()?,
            }),
            _ => Err(KeyError::Load(text.to_string())),
        }
    }
}

/// One model run, identified by everything that changes its result.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RunKey {
    pub preset: PresetRef,
    pub drive: DriveChoice,
    pub rw: Rw,
    /// Read percentage (0 or 100 for the pure patterns, so equal runs get equal keys).
    pub read_pct: u8,
    pub bs_bytes: u32,
    pub iodepth: u32,
    pub state: parallelism_model::DriveState,
    /// The active power state the drive is held to (0: PS0, the model's default).
    pub power_state: u8,
    /// A closed loop at `iodepth`, or an open loop at a rate with at most `iodepth` at the device.
    pub load: Load,
}

impl RunKey {
    /// The drive this run is on.
    pub fn drive_key(&self) -> DriveKey {
        DriveKey {
            preset: self.preset.clone(),
            drive: self.drive,
        }
    }

    /// The run for this key, measuring `measured_ios`, checked and held to its power state,
    /// ready to be prepared without blocking.
    pub fn prepare(&self, measured_ios: u64) -> Result<Preparation, ConfigError> {
        let prep = Preparation::checked(self.checked(measured_ios)?)?;
        match self.power_state {
            0 => Ok(prep),
            n => prep.with_power_limit(PowerLimit::State(n)),
        }
    }

    /// The checked run for this key, measuring `measured_ios`: the closed loop of
    /// [`RunKey::spec_measuring`], or one stream at the key's rate.
    pub fn checked(&self, measured_ios: u64) -> Result<CheckedRun, ConfigError> {
        let spec = self.spec_measuring(measured_ios);
        match self.load {
            Load::Depth => spec.check(),
            Load::Rate { iops, spacing } => StreamsSpec {
                streams: vec![Stream::at_rate(&spec.workload, f64::from(iops), spacing)],
                drive: spec.drive,
                state: spec.state,
                options: spec.options,
            }
            .check(),
        }
    }

    /// The model's closed-loop run for this key's drive and pattern (always the full run; an
    /// estimate is its early part). For a rate, the closed loop at the key's depth is the
    /// drive's capacity: the most the open loop can be carried at.
    pub fn spec(&self) -> RunSpec {
        self.spec_measuring(Fidelity::Full.measured_ios())
    }

    /// The model's closed-loop run for this key, measuring `measured_ios`: the one place a
    /// [`RunSpec`] is built from a key.
    pub fn spec_measuring(&self, measured_ios: u64) -> RunSpec {
        RunSpec {
            drive: self.drive.drive(&self.preset),
            workload: Workload {
                rw: self.rw,
                rwmixread: self.read_pct,
                bs_bytes: self.bs_bytes,
                iodepth: self.iodepth,
            },
            state: self.state,
            options: RunOptions {
                seed: SEED,
                measured_ios,
                ..RunOptions::default()
            },
        }
    }
}

/// `preset/dies x die Gbit/pattern/read %/block bytes/depth/drive state/power state/load`,
/// e.g. `e18dc/32x512/randread/100/4096/32/steady/0/depth`.
impl fmt::Display for RunKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}/{}/{}/{}/{}/{}/{}",
            self.drive_key(),
            self.rw,
            self.read_pct,
            self.bs_bytes,
            self.iodepth,
            self.state,
            self.power_state,
            self.load
        )
    }
}

/// Why a key's text was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum KeyError {
    /// Not the nine fields of a key, separated by `/`.
    Shape(String),
    /// Not `depth` or `rate-IOPS-spacing`.
    Load(String),
    /// Not the two fields of a drive, `preset/dies x Gbit`.
    DriveShape(String),
    /// A field that is not a whole number of its kind.
    Number { field: &'static str, value: String },
    /// A preset, pattern or drive state the model does not know.
    Model(ConfigError),
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyError::Shape(text) => write!(
                f,
                "run key '{text}' is not preset/dies x Gbit/pattern/read %/block bytes/depth/state/power state/load"
            ),
            KeyError::Load(text) => write!(
                f,
                "run key load '{text}' is not depth or rate-IOPS-spacing (e.g. rate-250000-poisson)"
            ),
            KeyError::DriveShape(text) => {
                write!(f, "drive key '{text}' is not preset/dies x Gbit")
            }
            KeyError::Number { field, value } => {
                write!(f, "run key field {field} '{value}' is not a whole number")
            }
            KeyError::Model(e) => write!(f, "run key: {e}"),
        }
    }
}

impl std::error::Error for KeyError {}

impl From<ConfigError> for KeyError {
    fn from(e: ConfigError) -> KeyError {
        KeyError::Model(e)
    }
}

fn number<T: FromStr>(field: &'static str, value: &str) -> Result<T, KeyError> {
    value.parse().map_err(|_| KeyError::Number {
        field,
        value: value.to_string(),
    })
}

impl FromStr for RunKey {
    type Err = KeyError;

    fn from_str(text: &str) -> Result<RunKey, KeyError> {
        let fields: Vec<&str> = text.split('/').collect();
        let [preset, drive, rw, read_pct, bs, iodepth, state, power_state, load] = fields[..]
        else {
            return Err(KeyError::Shape(text.to_string()));
        };
        let DriveKey { preset, drive } = DriveKey::parse_fields(preset, drive, text)?;
        Ok(RunKey {
            preset,
            drive,
            rw: rw.parse()?,
            read_pct: number("read %", read_pct)?,
            bs_bytes: number("block bytes", bs)?,
            iodepth: number("depth", iodepth)?,
            state: state.parse()?,
            power_state: number("power state", power_state)?,
            load: load.parse()?,
        })
    }
}

/// Keys cross to the workers as their text.
macro_rules! serde_as_text {
    ($t:ty) => {
        impl Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let text = String::deserialize(d)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

serde_as_text!(RunKey);
serde_as_text!(DriveKey);

/// What the charts and the readout need from a run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub iops: f64,
    pub mb_s: f64,
    pub mean_us: f64,
    pub p99_us: f64,
    pub p999_us: f64,
    pub bottleneck: Bottleneck,
    /// How reads met programs (suspend, or waiting them out).
    pub program_wait: ProgramWait,
    /// Average power over the run (W), and the budget it kept to.
    pub watts: f64,
    pub budget_w: Option<f64>,
    /// Requests arrived faster than the drive completed them (an open loop past capacity).
    pub saturated: bool,
    /// Mean number of requests in the system (host queue and device), time-averaged.
    pub in_system: f64,
    /// Where the reads' and writes' time went (the mean request and the p99's and p99.9's
    /// tails), from the same run.
    pub anatomy: PointAnatomy,
    pub fidelity: Fidelity,
}

/// A finished run: its point, or why the model gave none (its input refused, or its engine
/// stalled).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Outcome {
    /// Boxed: a point with its anatomy is 544 bytes, a failure 80, and the caches hold
    /// thousands of outcomes (serde writes the box as the point itself).
    Done(Box<Point>),
    Failed(RunError),
}

impl Outcome {
    /// Whether nothing more is to be done for this run (a full result, or a refusal).
    pub fn is_final(&self) -> bool {
        match self {
            Outcome::Done(p) => p.fidelity == Fidelity::Full,
            Outcome::Failed(_) => true,
        }
    }

    /// Whether this outcome should replace `old` (a result is never downgraded).
    pub fn improves_on(&self, old: Option<&Outcome>) -> bool {
        match (old, self) {
            (Some(Outcome::Done(old)), Outcome::Done(new)) => new.fidelity >= old.fidelity,
            (Some(Outcome::Failed(_)), _) => false,
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parallelism_model::presets;

    fn key() -> RunKey {
        let preset = presets::find("e18dc").unwrap();
        RunKey {
            preset: PresetRef::from(preset),
            drive: DriveChoice::default_for(preset),
            rw: Rw::RandRead,
            read_pct: 100,
            bs_bytes: 4096,
            iodepth: 32,
            state: parallelism_model::DriveState::Steady,
            power_state: 0,
            load: Load::Depth,
        }
    }

    #[test]
    fn a_key_travels_as_text_and_comes_back_equal() {
        let k = key();
        assert_eq!(
            k.to_string(),
            "e18dc/32x512/randread/100/4096/32/steady/0/depth"
        );
        assert_eq!(k.to_string().parse::<RunKey>(), Ok(k.clone()));
        let custom = RunKey {
            preset: custom::lookup("e12_d24_r52500").unwrap(),
            ..k
        };
        assert_eq!(custom.to_string().parse::<RunKey>(), Ok(custom));
        let rate = RunKey {
            load: Load::Rate {
                iops: 250_000,
                spacing: Spacing::Poisson,
            },
            ..k.clone()
        };
        assert_eq!(
            rate.to_string(),
            "e18dc/32x512/randread/100/4096/32/steady/0/rate-250000-poisson"
        );
        assert_eq!(rate.to_string().parse::<RunKey>(), Ok(rate));
        let json = serde_json::to_string(&k).unwrap();
        assert_eq!(serde_json::from_str::<RunKey>(&json).unwrap(), k);
    }

    #[test]
    fn a_drive_travels_as_the_first_two_fields_of_its_runs() {
        let k = key();
        let drive = k.drive_key();
        assert_eq!(drive.to_string(), "e18dc/32x512");
        assert_eq!("e18dc/32x512".parse::<DriveKey>(), Ok(drive.clone()));
        assert!(k.to_string().starts_with(&format!("{drive}/")));
        let refused = |text: &str| text.parse::<DriveKey>().unwrap_err().to_string();
        assert!(refused("e18dc").contains("drive key 'e18dc' is not preset/"));
        assert!(refused("e18dc/32").contains("drive key 'e18dc/32' is not"));
        assert!(refused("e18dc/32x").contains("die Gbit ''"));
    }

    #[test]
    fn a_malformed_key_is_refused_with_the_reason() {
        let refused = |text: &str| text.parse::<RunKey>().unwrap_err().to_string();
        assert!(refused("e18dc/32x512").contains("is not preset/"));
        let whole = |head: &str| format!("{head}/steady/0/depth");
        assert!(refused(&whole("e18dc/32x512/randread/100/4096/deep")).contains("depth 'deep'"));
        assert!(refused(&whole("e18dc/32/randread/100/4096/32")).contains("is not preset/"));
        assert!(refused(&whole("nope/32x512/randread/100/4096/32")).contains("nope"));
        assert!(refused(&whole("e18dc/32x512/sideways/100/4096/32")).contains("sideways"));
        let load = |load: &str| {
            refused(&format!(
                "e18dc/32x512/randread/100/4096/32/steady/0/{load}"
            ))
        };
        assert!(load("rate").contains("is not depth or rate-IOPS-spacing"));
        assert!(load("rate-fast-poisson").contains("rate 'fast'"));
        assert!(load("rate-1000-bursty").contains("bursty"));
    }

    #[test]
    fn a_result_is_never_downgraded() {
        let point = |fidelity| Point {
            iops: 1.0,
            mb_s: 1.0,
            mean_us: 1.0,
            p99_us: 1.0,
            p999_us: 1.0,
            bottleneck: Bottleneck::Dies,
            program_wait: ProgramWait::Rarely,
            watts: 1.0,
            budget_w: None,
            saturated: false,
            in_system: 1.0,
            anatomy: PointAnatomy::default(),
            fidelity,
        };
        let full = Outcome::Done(Box::new(point(Fidelity::Full)));
        let estimate = Outcome::Done(Box::new(point(Fidelity::Estimate)));
        assert!(full.improves_on(Some(&estimate)));
        assert!(!estimate.improves_on(Some(&full)));
        assert!(estimate.improves_on(None));
        assert!(full.is_final() && !estimate.is_final());
    }
}
