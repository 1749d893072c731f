//! [`LabState`]: everything the reader has set, in one value. It is the lab's single source of
//! truth: the controls write it, the URL is serialised from it, and the charts, the readout and
//! the model runs are derived from it.
//!
//! What always holds (the fields are private so only the setters below can change them, and
//! every setter clamps or snaps to a valid value instead of failing):
//! - the preset is one of [`presets::all`];
//! - `dies` is within `1..=MAX_DIES` and `die_gbit` is one of [`DIE_DENSITIES_GBIT`], so the
//!   drive always passes the model's checks;
//! - `qd` is on [`qd_ladder`], the block size on [`BLOCK_SIZES`], the read share a multiple of
//!   [`READ_SHARE_STEP`] in `0..=100`;
//! - the drive-over-time settings (the [`View`], the idle seconds and the burst size of the
//!   burst chart) are on [`IDLE_STEPS_S`] and [`BURST_SIZES_GB`];
//! - teaching mode's speed is one of [`SPEEDS_US_PER_S`];
//!   the view, the speed and the theme are display preferences that [`LabState::reset`] keeps.
//!
//! Capacity is never stored: it is `dies × die density × the controller's user fraction`, as in
//! the model. [`Hold`] says which of the three stays put when the reader moves one of the others,
//! so a reader can hold the capacity and vary the die count (the density follows) to isolate
//! what parallelism alone does.

use crate::model::config::{DriveSpec, DriveState, NandSpec, Rw, Workload, MAX_DIES, MAX_IODEPTH};
use crate::model::presets::{self, Preset};

use super::embed::{ChartsShown, Locks};
use super::ladder::Ladder;
use crate::fio::FioPoint;

/// The preset a fresh page shows: the drive with published measurements at three capacities.
pub const DEFAULT_PRESET: &str = "e18dc";
/// Queue depth a fresh page shows: the depth where the published 480 and 1,920 GB random reads
/// already differ by a factor of two.
pub const DEFAULT_QD: u32 = 32;
/// Block size a fresh page shows: the 4 KiB of the published random cells.
pub const DEFAULT_BS_BYTES: u32 = 4096;
/// Read share (percent) a fresh page shows: pure reads.
pub const DEFAULT_READ_PCT: u8 = 100;
/// Drive state a fresh page shows: the state the published random cells were measured in.
pub const DEFAULT_DRIVE_STATE: DriveState = DriveState::Steady;
/// The read-share slider's step, as the reviewers' mixed sweep (0, 10, ..., 100 %).
pub const READ_SHARE_STEP: u8 = 10;
/// Percent of reads in a whole-number share.
pub const ALL_READS_PCT: u8 = 100;
/// The die densities (Gbit) a reader can get by holding capacity or die count fixed; each
/// preset's own part is one of them.
pub const DIE_DENSITIES_GBIT: [u32; 7] = [32, 64, 128, 256, 512, 1024, 2048];
/// Block sizes on the slider: powers of two from 4 KiB to 1 MiB.
pub const BLOCK_SIZES: [u32; 9] = [
    4 << 10,
    8 << 10,
    16 << 10,
    32 << 10,
    64 << 10,
    128 << 10,
    256 << 10,
    512 << 10,
    1 << 20,
];
/// From this block size on the charts speak MB/s rather than IOPS, as reviews do.
pub const THROUGHPUT_IN_MB_FROM_BYTES: u32 = 64 << 10;
/// Queue depths up to this one are all on the slider; above it, four steps per doubling.
const QD_ALL_STEPS_UP_TO: u32 = 8;
/// Fine queue-depth steps per doubling above [`QD_ALL_STEPS_UP_TO`] (x1.25, x1.5, x1.75, x2).
const QD_STEPS_PER_OCTAVE: u32 = 4;

/// Idle seconds between bursts the burst chart offers: none, up to the E12 review's one
/// minute between depths, and long enough for a large cache to fold completely.
pub const IDLE_STEPS_S: [u32; 10] = [0, 5, 10, 20, 30, 60, 120, 300, 600, 1800];
/// Idle time a fresh page shows: the E12 review's "up to 1 minute idle between depths".
pub const DEFAULT_IDLE_S: u32 = 60;
/// Burst sizes (GB) the burst chart offers.
pub const BURST_SIZES_GB: [u32; 6] = [4, 8, 16, 32, 64, 128];
/// Burst size a fresh page shows: the E12 review's "32 GB per depth".
pub const DEFAULT_BURST_GB: u32 = 32;

/// Simulated microseconds per wall-clock second teaching mode's speed control offers.
pub const SPEEDS_US_PER_S: [u32; 10] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
/// The speed a fresh page plays at: a 4 KiB read's sense (tens of µs) takes a few seconds.
pub const DEFAULT_SPEED_US_PER_S: u32 = 20;

/// The nearest offered speed to `us_per_s`.
pub fn snap_speed(us_per_s: u32) -> u32 {
    SPEEDS_US_PER_S
        .into_iter()
        .min_by_key(|&s| s.abs_diff(us_per_s))
        .unwrap_or(DEFAULT_SPEED_US_PER_S)
}

/// Most pins on the charts at once (the palette has this many series colours; the drive the
/// reader is setting takes the custom colour).
pub const MAX_PINS: usize = 4;

/// One pinned configuration: the drive and workload of a curve kept on the charts. What a
/// pin does with a state (take it, apply it, read and write its code) is in [`super::compare`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pin {
    pub preset: &'static Preset,
    pub drive: DriveChoice,
    pub random: bool,
    pub read_pct: u8,
    pub bs_bytes: u32,
    pub drive_state: DriveState,
}

/// Why a pin was not added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PinRefused {
    /// Already [`MAX_PINS`] pins.
    Full,
    /// The same configuration is pinned already.
    Duplicate,
}

impl PinRefused {
    pub fn message(&self) -> String {
        match self {
            PinRefused::Full => {
                format!("At most {MAX_PINS} configurations can be compared; remove a pin first.")
            }
            PinRefused::Duplicate => "This configuration is pinned already.".into(),
        }
    }
}

/// Which set of charts the page shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum View {
    /// Throughput and latency against queue depth and read share.
    #[default]
    Queue,
    /// The drive over time: whole-drive fill, bursts with idle time, torture and TRIM.
    Time,
    /// Teaching mode: the drive at work, the bottleneck explainer, the guided tours.
    Activity,
}

crate::model::named_enum!(View, "view", id, {
    Queue => "qd",
    Time => "time",
    Activity => "activity",
});

impl View {
    /// What the view switch says.
    pub fn label(self) -> &'static str {
        match self {
            View::Queue => "against queue depth",
            View::Time => "drive over time",
            View::Activity => "teaching mode",
        }
    }
}

/// The idle times on the burst chart's slider (seconds).
pub fn idle_ladder() -> Ladder {
    Ladder::new(IDLE_STEPS_S, DEFAULT_IDLE_S)
}

/// The burst sizes on the burst chart's slider (GB).
pub fn burst_ladder() -> Ladder {
    Ladder::new(BURST_SIZES_GB, DEFAULT_BURST_GB)
}

/// Which quantity stays fixed when the reader moves capacity or die count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Hold {
    /// The NAND part stays: capacity follows the die count and the reverse.
    #[default]
    Density,
    /// Capacity stays: more dies means smaller dies.
    Capacity,
    /// The die count stays: more capacity means denser dies.
    Dies,
}

crate::model::named_enum!(Hold, "hold", id, {
    Density => "density",
    Capacity => "cap",
    Dies => "dies",
});

impl Hold {
    /// What the radio button says.
    pub fn label(self) -> &'static str {
        match self {
            Hold::Density => "die density (the NAND part)",
            Hold::Capacity => "capacity",
            Hold::Dies => "die count",
        }
    }
}

/// Colour scheme: follow the system, or force one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    #[default]
    Auto,
    Light,
    Dark,
    /// Large type and high contrast, for teaching on a projector.
    Projector,
}

crate::model::named_enum!(Theme, "theme", id, {
    Auto => "auto",
    Light => "light",
    Dark => "dark",
    Projector => "projector",
});

impl Theme {
    pub fn label(self) -> &'static str {
        match self {
            Theme::Auto => "as the system",
            Theme::Light => "light",
            Theme::Dark => "dark",
            Theme::Projector => "projector (large, high contrast)",
        }
    }
}

/// One drive behind the preset's controller: a die count and a die density.
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
        // here: the state keeps it in range, and the run's check refuses it otherwise.
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
}

/// The queue depths on the slider: every depth up to 8, then four steps per doubling up to
/// the model's limit. Powers of two are the coarse stops.
pub fn qd_ladder() -> Ladder {
    let mut values: Vec<u32> = (1..=QD_ALL_STEPS_UP_TO).collect();
    let mut base = QD_ALL_STEPS_UP_TO;
    while base < MAX_IODEPTH {
        for k in 1..=QD_STEPS_PER_OCTAVE {
            values.push(base + base * k / QD_STEPS_PER_OCTAVE);
        }
        base *= 2;
    }
    values.retain(|&q| q <= MAX_IODEPTH);
    Ladder::with_coarse(values, DEFAULT_QD, u32::is_power_of_two)
}

/// The block sizes on the slider.
pub fn block_size_ladder() -> Ladder {
    Ladder::new(BLOCK_SIZES, DEFAULT_BS_BYTES)
}

/// The read shares on the slider (percent).
pub fn read_share_ladder() -> Ladder {
    Ladder::new(
        (0..=ALL_READS_PCT)
            .step_by(usize::from(READ_SHARE_STEP))
            .map(u32::from),
        u32::from(DEFAULT_READ_PCT),
    )
}

/// Everything the reader has set. See the module documentation for what always holds.
#[derive(Clone, Debug, PartialEq)]
pub struct LabState {
    preset: &'static Preset,
    drive: DriveChoice,
    hold: Hold,
    qd: u32,
    random: bool,
    read_pct: u8,
    bs_bytes: u32,
    drive_state: DriveState,
    show_p999: bool,
    theme: Theme,
    /// Compact chrome for an iframe (`embed=1`).
    embed: bool,
    /// The charts shown (`charts=`).
    charts: ChartsShown,
    /// Read-only controls (`lock=`).
    locks: Locks,
    /// Configurations kept as curves (`compare=`), at most [`MAX_PINS`], no two equal.
    pins: Vec<Pin>,
    /// The reader's own fio results, imported from a file (never in the URL).
    your_drive: Option<YourDrive>,
    /// Which charts the page shows (`view=`).
    view: View,
    /// Idle seconds between the burst chart's bursts (`idle=`).
    idle_s: u32,
    /// GB per burst on the burst chart (`burst=`).
    burst_gb: u32,
    /// Teaching mode's playback speed, simulated µs per second (`speed=`).
    speed_us_per_s: u32,
}

/// fio results the reader imported ("your drive").
#[derive(Clone, Debug, PartialEq)]
pub struct YourDrive {
    /// The file's name as the browser gave it (plain text, shortened).
    pub file_name: String,
    /// One point per fio job, never empty.
    pub points: Vec<FioPoint>,
}

/// How far a mixed job's measured read share may stray from the charts' and still count as
/// the same mix: fio's completed share wanders a few points around its `rwmixread`.
pub const FIO_MIX_TOLERANCE_PCT: f64 = 5.0;

impl YourDrive {
    /// Whether `point` was measured with the workload `state`'s charts show: the same pattern
    /// and block size (where the file names them), and for a mix the same read share within
    /// [`FIO_MIX_TOLERANCE_PCT`]. Its queue depth is the chart's x, so any depth shows.
    pub fn shows_on(point: &FioPoint, state: &LabState) -> bool {
        let rw = state.rw();
        let same_rw = point.rw.is_none_or(|r| r == rw);
        let same_bs = point.bs_bytes.is_none_or(|b| b == state.bs_bytes());
        let same_mix = rw.fixed_read_percent().is_some()
            || (point.read_percent - f64::from(state.read_pct())).abs() <= FIO_MIX_TOLERANCE_PCT;
        same_rw && same_bs && same_mix
    }
}

impl Default for LabState {
    fn default() -> Self {
        let preset = presets::find(DEFAULT_PRESET).unwrap_or(&presets::all()[0]);
        LabState {
            preset,
            drive: default_drive(preset),
            hold: Hold::default(),
            qd: DEFAULT_QD,
            random: true,
            read_pct: DEFAULT_READ_PCT,
            bs_bytes: DEFAULT_BS_BYTES,
            drive_state: DEFAULT_DRIVE_STATE,
            show_p999: false,
            theme: Theme::default(),
            embed: false,
            charts: ChartsShown::default(),
            locks: Locks::default(),
            pins: Vec::new(),
            your_drive: None,
            view: View::default(),
            idle_s: DEFAULT_IDLE_S,
            burst_gb: DEFAULT_BURST_GB,
            speed_us_per_s: DEFAULT_SPEED_US_PER_S,
        }
    }
}

/// The preset's default capacity, built from its own part.
fn default_drive(preset: &Preset) -> DriveChoice {
    let dies = preset
        .dies_for_capacity_gb(f64::from(preset.default_capacity_gb()))
        .unwrap_or(1);
    DriveChoice {
        dies,
        die_gbit: preset.nand.die_gbit,
    }
}

impl LabState {
    pub fn preset(&self) -> &'static Preset {
        self.preset
    }
    pub fn drive_choice(&self) -> DriveChoice {
        self.drive
    }
    pub fn dies(&self) -> u32 {
        self.drive.dies
    }
    pub fn die_gbit(&self) -> u32 {
        self.drive.die_gbit
    }
    pub fn hold(&self) -> Hold {
        self.hold
    }
    pub fn qd(&self) -> u32 {
        self.qd
    }
    /// Random (true) or sequential (false) addresses.
    pub fn random(&self) -> bool {
        self.random
    }
    /// Percentage of reads.
    pub fn read_pct(&self) -> u8 {
        self.read_pct
    }
    pub fn bs_bytes(&self) -> u32 {
        self.bs_bytes
    }
    pub fn drive_state(&self) -> DriveState {
        self.drive_state
    }
    /// Whether the latency chart also draws p99.9.
    pub fn show_p999(&self) -> bool {
        self.show_p999
    }
    pub fn theme(&self) -> Theme {
        self.theme
    }
    /// Whether the page is in embed mode (`embed=1`).
    pub fn embed(&self) -> bool {
        self.embed
    }
    pub fn charts(&self) -> ChartsShown {
        self.charts
    }
    pub fn locks(&self) -> Locks {
        self.locks
    }
    /// The pinned configurations, in the order they were pinned.
    pub fn pins(&self) -> &[Pin] {
        &self.pins
    }
    pub fn your_drive(&self) -> Option<&YourDrive> {
        self.your_drive.as_ref()
    }
    /// The imported fio points measured with the workload the charts show (see
    /// [`YourDrive::shows_on`]); the others would stand on a curve they were not measured for.
    pub fn your_points(&self) -> impl Iterator<Item = &FioPoint> {
        self.your_drive
            .iter()
            .flat_map(|d| d.points.iter())
            .filter(|p| YourDrive::shows_on(p, self))
    }
    /// Which charts the page shows.
    pub fn view(&self) -> View {
        self.view
    }
    /// Idle seconds between the burst chart's bursts.
    pub fn idle_s(&self) -> u32 {
        self.idle_s
    }
    /// Size of each of the burst chart's bursts, in GB.
    pub fn burst_gb(&self) -> u32 {
        self.burst_gb
    }
    /// Teaching mode's playback speed: simulated microseconds per wall-clock second.
    pub fn speed_us_per_s(&self) -> u32 {
        self.speed_us_per_s
    }

    /// fio's name for the current pattern and read share.
    pub fn rw(&self) -> Rw {
        Rw::from_parts(self.random, self.read_pct)
    }

    /// The host side of the current point.
    pub fn workload(&self) -> Workload {
        Workload {
            rw: self.rw(),
            rwmixread: self.read_pct,
            bs_bytes: self.bs_bytes,
            iodepth: self.qd,
        }
    }

    /// The model's drive for the current choice.
    pub fn drive(&self) -> DriveSpec {
        self.drive.drive(self.preset)
    }

    /// User capacity in GB.
    pub fn capacity_gb(&self) -> f64 {
        self.drive.capacity_gb(self.preset)
    }

    /// Whether the drive differs from every capacity the preset lists (the "custom drive").
    pub fn is_custom_drive(&self) -> bool {
        !self.drive.is_listed(self.preset)
    }

    /// Whether charts should speak MB/s rather than IOPS.
    pub fn throughput_in_mb(&self) -> bool {
        self.bs_bytes >= THROUGHPUT_IN_MB_FROM_BYTES
    }

    /// The die counts the dies slider offers: any count, or with capacity held only the counts
    /// whose density is one of [`DIE_DENSITIES_GBIT`].
    pub fn dies_ladder(&self) -> Ladder {
        match self.hold {
            Hold::Capacity => Ladder::new(
                DIE_DENSITIES_GBIT
                    .iter()
                    .filter(|&&g| self.drive.raw_gbit().is_multiple_of(g))
                    .map(|&g| self.drive.raw_gbit() / g)
                    .filter(|d| (1..=MAX_DIES).contains(d)),
                self.drive.dies,
            ),
            Hold::Density | Hold::Dies => Ladder::new(1..=MAX_DIES, self.drive.dies),
        }
    }

    /// The raw capacities (Gbit) the capacity slider offers: multiples of the die with the
    /// density held, or the current die count times each density with the die count held.
    pub fn capacity_ladder(&self) -> Ladder {
        match self.hold {
            Hold::Density => Ladder::new(
                (1..=MAX_DIES).map(|d| d * self.drive.die_gbit),
                self.drive.raw_gbit(),
            ),
            Hold::Dies => Ladder::new(
                DIE_DENSITIES_GBIT.iter().map(|g| g * self.drive.dies),
                self.drive.raw_gbit(),
            ),
            Hold::Capacity => Ladder::new([self.drive.raw_gbit()], self.drive.raw_gbit()),
        }
    }

    /// User GB of `raw_gbit` of this preset's flash (for the capacity slider's labels).
    pub fn gb_for_raw_gbit(&self, raw_gbit: u32) -> f64 {
        f64::from(raw_gbit) / f64::from(self.preset.nand.die_gbit) * self.preset.gb_per_die()
    }

    /// Switches the controller; the drive becomes the preset's default capacity.
    pub fn set_preset(&mut self, preset: &'static Preset) {
        if self.preset.id != preset.id {
            self.preset = preset;
            self.drive = default_drive(preset);
        }
    }

    /// Sets the die count. With capacity held the density follows (snapping to the nearest
    /// count that keeps the capacity); with the die count held nothing changes.
    pub fn set_dies(&mut self, dies: u32) {
        match self.hold {
            Hold::Dies => {}
            Hold::Density => self.drive.dies = dies.clamp(1, MAX_DIES),
            Hold::Capacity => {
                let raw = self.drive.raw_gbit();
                let dies = self.dies_ladder().nearest(dies);
                self.drive = DriveChoice {
                    dies,
                    die_gbit: raw / dies,
                };
            }
        }
    }

    /// Sets the capacity by its raw Gbit (a value of [`Self::capacity_ladder`]; others snap to
    /// the nearest). With the density held the die count follows, with the die count held the
    /// density; with capacity held nothing changes.
    pub fn set_raw_gbit(&mut self, raw_gbit: u32) {
        let raw = self.capacity_ladder().nearest(raw_gbit);
        match self.hold {
            Hold::Capacity => {}
            Hold::Density => self.drive.dies = raw / self.drive.die_gbit,
            Hold::Dies => self.drive.die_gbit = raw / self.drive.dies,
        }
    }

    /// Sets die count and density together. Refuses (leaving the state as it was) a count
    /// outside `1..=MAX_DIES` or a density not in [`DIE_DENSITIES_GBIT`].
    pub fn set_drive_choice(&mut self, choice: DriveChoice) -> Result<(), String> {
        if !(1..=MAX_DIES).contains(&choice.dies) {
            return Err(format!("the die count must be 1 to {MAX_DIES}"));
        }
        if !DIE_DENSITIES_GBIT.contains(&choice.die_gbit) {
            return Err(format!(
                "a die of {} Gbit is not offered (densities: {})",
                choice.die_gbit,
                DIE_DENSITIES_GBIT.map(|g| g.to_string()).join(", ")
            ));
        }
        self.drive = choice;
        Ok(())
    }

    pub fn set_hold(&mut self, hold: Hold) {
        self.hold = hold;
    }

    /// Sets the queue depth, snapped to the slider's steps.
    pub fn set_qd(&mut self, qd: u32) {
        self.qd = qd_ladder().nearest(qd);
    }

    /// Random (true) or sequential (false) addresses.
    pub fn set_random(&mut self, random: bool) {
        self.random = random;
    }

    /// Sets the read share, clamped to 0..=100 and snapped to [`READ_SHARE_STEP`].
    pub fn set_read_pct(&mut self, pct: u32) {
        self.read_pct = u8::try_from(read_share_ladder().nearest(pct)).unwrap_or(ALL_READS_PCT);
    }

    /// Sets the block size, snapped to [`BLOCK_SIZES`].
    pub fn set_bs_bytes(&mut self, bytes: u32) {
        self.bs_bytes = block_size_ladder().nearest(bytes);
    }

    pub fn set_drive_state(&mut self, state: DriveState) {
        self.drive_state = state;
    }

    pub fn set_show_p999(&mut self, show: bool) {
        self.show_p999 = show;
    }

    pub fn set_theme(&mut self, theme: Theme) {
        self.theme = theme;
    }

    pub fn set_embed(&mut self, embed: bool) {
        self.embed = embed;
    }

    pub fn set_charts(&mut self, charts: ChartsShown) {
        self.charts = charts;
    }

    pub fn set_locks(&mut self, locks: Locks) {
        self.locks = locks;
    }

    /// Pins `pin`; refuses a fifth pin or a duplicate, leaving the pins as they were.
    pub fn add_pin(&mut self, pin: Pin) -> Result<(), PinRefused> {
        if self.pins.contains(&pin) {
            return Err(PinRefused::Duplicate);
        }
        if self.pins.len() >= MAX_PINS {
            return Err(PinRefused::Full);
        }
        self.pins.push(pin);
        Ok(())
    }

    /// Removes the pin at `index` (nothing if there is none).
    pub fn remove_pin(&mut self, index: usize) {
        if index < self.pins.len() {
            self.pins.remove(index);
        }
    }

    pub fn clear_pins(&mut self) {
        self.pins.clear();
    }

    /// Sets the imported fio results (`None` removes them; an empty import is ignored).
    pub fn set_your_drive(&mut self, drive: Option<YourDrive>) {
        self.your_drive = drive.filter(|d| !d.points.is_empty());
    }

    /// The state without embedding: what "Open in the full lab" shows (no embed chrome, no
    /// locks, every chart).
    pub fn full_lab(&self) -> LabState {
        LabState {
            embed: false,
            locks: Locks::default(),
            charts: ChartsShown::default(),
            ..self.clone()
        }
    }

    pub fn set_view(&mut self, view: View) {
        self.view = view;
    }

    /// Sets teaching mode's speed, snapped to the offered speeds.
    pub fn set_speed_us_per_s(&mut self, us_per_s: u32) {
        self.speed_us_per_s = snap_speed(us_per_s);
    }

    /// Sets the idle time between bursts, snapped to [`IDLE_STEPS_S`].
    pub fn set_idle_s(&mut self, idle_s: u32) {
        self.idle_s = idle_ladder().nearest(idle_s);
    }

    /// Sets the burst size, snapped to [`BURST_SIZES_GB`].
    pub fn set_burst_gb(&mut self, burst_gb: u32) {
        self.burst_gb = burst_ladder().nearest(burst_gb);
    }

    /// Back to the defaults, keeping the colour scheme, the view, the playback speed and the author's embed
    /// settings (display preferences, not part of the experiment) and the reader's imported
    /// fio results.
    pub fn reset(&mut self) {
        *self = LabState {
            theme: self.theme,
            view: self.view,
            speed_us_per_s: self.speed_us_per_s,
            embed: self.embed,
            charts: self.charts,
            locks: self.locks,
            your_drive: self.your_drive.take(),
            ..LabState::default()
        };
    }

    /// The drives the charts compare: the preset's listed capacities built from its own part,
    /// smallest first, then the current drive if it is not one of them.
    pub fn comparison_drives(&self) -> Vec<DriveChoice> {
        let mut drives: Vec<DriveChoice> = self
            .preset
            .capacities_gb
            .iter()
            .filter_map(|&gb| self.preset.dies_for_capacity_gb(f64::from(gb)).ok())
            .map(|dies| DriveChoice {
                dies,
                die_gbit: self.preset.nand.die_gbit,
            })
            .collect();
        drives.dedup();
        if !drives.contains(&self.drive) {
            drives.push(self.drive);
        }
        drives
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e18dc() -> &'static Preset {
        presets::find("e18dc").unwrap()
    }

    #[test]
    fn the_default_view_is_the_1920_gb_e18dc_at_qd32_random_reads_in_steady_state() {
        let s = LabState::default();
        assert_eq!(s.preset().id, "e18dc");
        assert_eq!(s.dies(), 32);
        assert_eq!(s.die_gbit(), 512);
        assert!((s.capacity_gb() - 1920.0).abs() < 0.5);
        assert_eq!(s.qd(), 32);
        assert_eq!(s.rw(), Rw::RandRead);
        assert_eq!(s.bs_bytes(), 4096);
        assert_eq!(s.drive_state(), DriveState::Steady);
        assert!(!s.is_custom_drive());
    }

    #[test]
    fn the_default_comparison_is_480_960_and_1920_gb() {
        let s = LabState::default();
        let caps: Vec<u32> = s
            .comparison_drives()
            .iter()
            .map(|d| d.capacity_gb(s.preset()).round() as u32)
            .collect();
        assert_eq!(caps, vec![480, 960, 1920]);
    }

    #[test]
    fn queue_depth_moves_in_powers_of_two_with_finer_steps_between() {
        let l = qd_ladder();
        assert_eq!(l.values()[0], 1);
        assert_eq!(*l.values().last().unwrap(), MAX_IODEPTH);
        assert!(l.contains(256) && l.contains(24) && l.contains(7));
        assert_eq!(l.step(32, true, false), 64);
        assert_eq!(l.step(32, true, true), 40);
        assert_eq!(l.step(1, true, false), 2);
        assert!(l.values().iter().all(|&q| (1..=MAX_IODEPTH).contains(&q)));
    }

    #[test]
    fn with_density_held_capacity_follows_dies_and_the_reverse() {
        let mut s = LabState::default();
        s.set_dies(8);
        assert!((s.capacity_gb() - 480.0).abs() < 0.5);
        s.set_raw_gbit(16 * 512);
        assert_eq!(s.dies(), 16);
        assert_eq!(s.die_gbit(), 512);
    }

    #[test]
    fn with_capacity_held_more_dies_means_smaller_dies() {
        let mut s = LabState::default();
        s.set_hold(Hold::Capacity);
        assert_eq!(s.dies_ladder().values(), &[8, 16, 32, 64, 128, 256]);
        s.set_dies(64);
        assert_eq!((s.dies(), s.die_gbit()), (64, 256));
        assert!((s.capacity_gb() - 1920.0).abs() < 0.5);
        assert!(s.is_custom_drive());
        s.set_dies(100); // not a count that keeps 1,920 GB: snaps to the nearest that does
        assert_eq!(s.dies(), 128);
        s.set_raw_gbit(1); // capacity is held
        assert!((s.capacity_gb() - 1920.0).abs() < 0.5);
    }

    #[test]
    fn with_dies_held_more_capacity_means_denser_dies() {
        let mut s = LabState::default();
        s.set_hold(Hold::Dies);
        s.set_raw_gbit(32 * 1024);
        assert_eq!((s.dies(), s.die_gbit()), (32, 1024));
        s.set_dies(3); // the die count is held
        assert_eq!(s.dies(), 32);
    }

    #[test]
    fn extreme_values_are_clamped_onto_the_sliders() {
        let mut s = LabState::default();
        s.set_qd(0);
        assert_eq!(s.qd(), 1);
        s.set_qd(u32::MAX);
        assert_eq!(s.qd(), MAX_IODEPTH);
        s.set_dies(0);
        assert_eq!(s.dies(), 1);
        s.set_dies(u32::MAX);
        assert_eq!(s.dies(), MAX_DIES);
        s.set_read_pct(1000);
        assert_eq!(s.read_pct(), 100);
        s.set_read_pct(34);
        assert_eq!(s.read_pct(), 30);
        s.set_bs_bytes(0);
        assert_eq!(s.bs_bytes(), 4096);
        s.set_bs_bytes(u32::MAX);
        assert_eq!(s.bs_bytes(), 1 << 20);
        assert!(s
            .set_drive_choice(DriveChoice {
                dies: 0,
                die_gbit: 512
            })
            .is_err());
        assert!(s
            .set_drive_choice(DriveChoice {
                dies: 4,
                die_gbit: 300
            })
            .is_err());
        assert_eq!(s.dies(), MAX_DIES, "a refused choice changes nothing");
    }

    #[test]
    fn every_reachable_extreme_drive_and_workload_passes_the_model_checks() {
        for preset in presets::all() {
            for (dies, die_gbit) in [(1, 32), (1, 2048), (MAX_DIES, 32), (MAX_DIES, 2048)] {
                let mut s = LabState::default();
                s.set_preset(preset);
                s.set_drive_choice(DriveChoice { dies, die_gbit }).unwrap();
                for (qd, bs, pct) in [(1, 4096, 0), (MAX_IODEPTH, 1 << 20, 50)] {
                    s.set_qd(qd);
                    s.set_bs_bytes(bs);
                    s.set_read_pct(pct);
                    let spec = crate::ui::compute::RunKey::current(&s).spec();
                    assert!(spec.check().is_ok(), "{} {dies}x{die_gbit}", preset.id);
                }
            }
        }
    }

    #[test]
    fn switching_preset_takes_its_default_capacity_and_reset_keeps_the_theme() {
        let mut s = LabState::default();
        s.set_qd(4);
        s.set_theme(Theme::Dark);
        s.set_preset(presets::find("octane").unwrap());
        assert_eq!(s.dies(), 64);
        assert_eq!(s.die_gbit(), 64);
        s.reset();
        assert_eq!(s.preset().id, e18dc().id);
        assert_eq!(s.qd(), DEFAULT_QD);
        assert_eq!(s.theme(), Theme::Dark);
    }

    #[test]
    fn at_most_four_distinct_pins_and_reset_clears_them() {
        let mut s = LabState::default();
        for pin in Pin::family(&s) {
            s.add_pin(pin).unwrap();
        }
        assert_eq!(s.add_pin(Pin::of(&s)), Err(PinRefused::Duplicate));
        s.set_qd(1);
        s.set_read_pct(0);
        s.add_pin(Pin::of(&s)).unwrap();
        s.set_read_pct(50);
        assert_eq!(s.add_pin(Pin::of(&s)), Err(PinRefused::Full));
        assert_eq!(s.pins().len(), MAX_PINS);
        s.remove_pin(99);
        s.remove_pin(0);
        assert_eq!(s.pins().len(), MAX_PINS - 1);
        s.set_embed(true);
        s.reset();
        assert!(s.pins().is_empty() && s.embed());
        assert!(!s.full_lab().embed());
    }

    #[test]
    fn drive_over_time_settings_snap_to_their_sliders_and_reset_keeps_the_view() {
        let mut s = LabState::default();
        assert_eq!((s.view(), s.idle_s(), s.burst_gb()), (View::Queue, 60, 32));
        s.set_idle_s(7);
        assert_eq!(s.idle_s(), 5);
        s.set_idle_s(u32::MAX);
        assert_eq!(s.idle_s(), 1800);
        s.set_burst_gb(0);
        assert_eq!(s.burst_gb(), 4);
        s.set_burst_gb(1000);
        assert_eq!(s.burst_gb(), 128);
        s.set_view(View::Time);
        s.reset();
        assert_eq!((s.view(), s.idle_s(), s.burst_gb()), (View::Time, 60, 32));
        assert_eq!("time".parse::<View>().ok(), Some(View::Time));
        assert_eq!("TIME".parse::<View>().ok(), None);
    }

    #[test]
    fn a_custom_drive_joins_the_comparison() {
        let mut s = LabState::default();
        s.set_dies(12);
        let drives = s.comparison_drives();
        assert_eq!(drives.len(), 4);
        assert_eq!(*drives.last().unwrap(), s.drive_choice());
    }
}
