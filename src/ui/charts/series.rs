//! The parts a chart is drawn from: model curves, published markers, the reader's fio points,
//! and the colour each drive keeps across the charts and the legend.
//!
//! What always holds: curves are model results, markers published measurements and "your"
//! series the reader's own files; no type carries two of them, so no chart can mix them in one
//! series.

/// Colours the charts cycle through for the compared drives (smallest capacity first).
pub const SERIES_COLOURS: usize = 4;

/// Which colour a series takes from the [`Palette`](super::Palette).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeriesColour {
    /// One of the palette's series colours (by the drive's place in the comparison).
    Series(usize),
    /// The drive the reader configured, when it is none of the preset's listed capacities
    /// (an unlisted capacity), or beside pins.
    Configured,
}

impl SeriesColour {
    /// The CSS class of a legend swatch in this colour (see `style/main.css`).
    pub fn css_class(self) -> String {
        match self {
            SeriesColour::Series(i) => format!("swatch s{}", i % SERIES_COLOURS + 1),
            SeriesColour::Configured => "swatch configured".into(),
        }
    }
}

/// How a curve is stroked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dash {
    Solid,
    Dashed,
    Dotted,
}

/// One model curve.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// What the curve is (for the accessible description).
    pub label: String,
    pub colour: SeriesColour,
    /// The reader's current drive is drawn heavier.
    pub emphasis: bool,
    pub dash: Dash,
    /// (x, y) in data units: queue depth or read percent, and the value; sorted by x.
    pub points: Vec<(f64, f64)>,
}

/// One published measurement on a chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    /// Where it was measured (queue depth or read percent) ...
    pub x: f64,
    /// ... or the far end of the range a peak was taken over.
    pub x_to: Option<f64>,
    pub y: f64,
    pub colour: SeriesColour,
}

/// What the page stamps on a chart's canvas after drawing it (read by tests and the
/// benchmark): which state the data belongs to and how many points are still missing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stamp {
    /// The state's URL query.
    pub state: String,
    /// Points of this chart with no model result yet.
    pub missing: usize,
}

/// What a chart against queue depth draws in its own unit (IOPS or MB/s, or latency in µs):
/// the depth axis and the current depth, one curve per compared drive (x is the queue depth),
/// the readout's point, published measurements and the reader's fio points.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthSeries {
    /// The deepest queue depth on the axis.
    pub max_iodepth: u32,
    pub current_iodepth: u32,
    pub curves: Vec<Curve>,
    /// The readout's point (queue depth, value).
    pub current: Option<(f64, f64)>,
    /// Published measurements.
    pub markers: Vec<Marker>,
    /// The reader's imported fio results ("your measurements"), one series per file, same
    /// coordinates as the curves.
    pub yours: Vec<YourSeries>,
    pub stamp: Stamp,
}

/// One imported fio file's points on a chart, in its marker shape.
#[derive(Clone, Debug, PartialEq)]
pub struct YourSeries {
    pub shape: FioShape,
    /// The file's name, for the legend and the CSV.
    pub file_name: String,
    pub points: Vec<(f64, f64)>,
}

/// The marker of an imported fio file: filled, in the text colour, told apart by shape from
/// each other, from model curves (lines) and from published measurements (diamonds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FioShape {
    Square,
    Triangle,
    Circle,
    Cross,
}

impl FioShape {
    /// One shape per place in the imports (see [`crate::ui::pure::state::MAX_IMPORTS`]).
    pub const ALL: [FioShape; 4] = [
        FioShape::Square,
        FioShape::Triangle,
        FioShape::Circle,
        FioShape::Cross,
    ];

    /// The shape of the import at `index`.
    pub fn of(index: usize) -> FioShape {
        FioShape::ALL[index % FioShape::ALL.len()]
    }

    /// The shape in words, plural ("squares"), for captions and the import's status.
    pub fn plural(self) -> &'static str {
        match self {
            FioShape::Square => "squares",
            FioShape::Triangle => "triangles",
            FioShape::Circle => "circles",
            FioShape::Cross => "crosses",
        }
    }

    /// The legend swatch's CSS class.
    pub fn css_class(self) -> &'static str {
        match self {
            FioShape::Square => "fio-square",
            FioShape::Triangle => "fio-triangle",
            FioShape::Circle => "fio-circle",
            FioShape::Cross => "fio-cross",
        }
    }
}

/// Every point of `series` (for axis ranges).
pub fn your_values(series: &[YourSeries]) -> impl Iterator<Item = (f64, f64)> + '_ {
    series.iter().flat_map(|s| s.points.iter().copied())
}

impl Default for DepthSeries {
    fn default() -> Self {
        DepthSeries {
            max_iodepth: 256,
            current_iodepth: 1,
            curves: Vec::new(),
            current: None,
            markers: Vec::new(),
            yours: Vec::new(),
            stamp: Stamp::default(),
        }
    }
}

/// One line of the legend shared by the charts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegendEntry {
    pub label: String,
    pub colour: SeriesColour,
    pub current: bool,
    /// The pin this entry shows (its place in the state's pins), so the legend can remove it.
    pub pin: Option<usize>,
}
