//! Colours and sizes for drawing: a [`Palette`] read from the page's CSS custom properties (so
//! both themes come from one stylesheet) and a [`ChartStyle`] that turns CSS pixels into the
//! canvas's device pixels.
//!
//! What always holds: every palette entry is a valid colour (a missing or unreadable CSS value
//! falls back to the light theme's colour), and every size the drawing code uses goes through
//! [`ChartStyle::px`], so charts are drawn at the screen's full resolution.

use plotters::style::RGBColor;

use super::frames::FrameSlot;
use super::series::{SeriesColour, SERIES_COLOURS};
use crate::ui::pure::anatomy::PartColour;

/// How many colours the parts of a request's time are drawn in.
pub const PART_COLOURS: usize = PartColour::ALL.len();
/// The palette's entries before the series colours (background to band).
const BASE_COLOURS: usize = 9;

/// CSS custom properties the palette reads, each with its light-theme fallback: the chart
/// colours, the series colours, then the parts' colours in [`PartColour::ALL`]'s order (the
/// readout's bars use the same properties, so a band and its bar segment match).
pub const CSS_VARS: [(&str, RGBColor); BASE_COLOURS + SERIES_COLOURS + PART_COLOURS] = [
    ("--chart-bg", RGBColor(0xff, 0xff, 0xff)),
    ("--chart-text", RGBColor(0x1f, 0x29, 0x37)),
    ("--chart-muted", RGBColor(0x4b, 0x55, 0x63)),
    ("--chart-grid", RGBColor(0xe5, 0xe7, 0xeb)),
    ("--chart-axis", RGBColor(0x6b, 0x72, 0x80)),
    ("--chart-configured", RGBColor(0xc0, 0x26, 0xd3)),
    ("--chart-measured", RGBColor(0x11, 0x18, 0x27)),
    ("--chart-current", RGBColor(0xdc, 0x26, 0x26)),
    ("--chart-band", RGBColor(0xf3, 0xf4, 0xf6)),
    ("--series-1", RGBColor(0x25, 0x63, 0xeb)),
    ("--series-2", RGBColor(0xd9, 0x77, 0x06)),
    ("--series-3", RGBColor(0x05, 0x96, 0x69)),
    ("--series-4", RGBColor(0x7c, 0x3a, 0xed)),
    ("--part-host", RGBColor(0xcc, 0x79, 0xa7)),
    ("--part-controller", RGBColor(0xe6, 0x9f, 0x00)),
    ("--part-flash-read", RGBColor(0x00, 0x72, 0xb2)),
    ("--part-other-reads", RGBColor(0x56, 0xb4, 0xe9)),
    ("--part-writes-work", RGBColor(0xd5, 0x5e, 0x00)),
    ("--part-power", RGBColor(0x00, 0x00, 0x00)),
    ("--part-channel", RGBColor(0x00, 0x9e, 0x73)),
    ("--part-link", RGBColor(0xf0, 0xe4, 0x42)),
];

/// The charts' colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    pub background: RGBColor,
    pub text: RGBColor,
    pub muted: RGBColor,
    pub grid: RGBColor,
    pub axis: RGBColor,
    /// The reader's configured drive when it is none of the preset's listed capacities.
    pub configured: RGBColor,
    /// Outline of published-measurement markers.
    pub measured: RGBColor,
    /// The current-depth guide line.
    pub current: RGBColor,
    /// Background band behind "still computing" notes.
    pub band: RGBColor,
    pub series: [RGBColor; SERIES_COLOURS],
    /// The parts' colours (Okabe and Ito's), in [`PartColour::ALL`]'s order.
    pub parts: [RGBColor; PART_COLOURS],
}

impl Default for Palette {
    fn default() -> Self {
        Palette::from_lookup(|_| None)
    }
}

impl Palette {
    /// Builds the palette from `lookup(css_variable_name)`; unreadable values fall back.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Palette {
        let c: Vec<RGBColor> = CSS_VARS
            .iter()
            .map(|(name, fallback)| {
                lookup(name)
                    .and_then(|v| parse_hex(&v))
                    .unwrap_or(*fallback)
            })
            .collect();
        Palette {
            background: c[0],
            text: c[1],
            muted: c[2],
            grid: c[3],
            axis: c[4],
            configured: c[5],
            measured: c[6],
            current: c[7],
            band: c[8],
            series: [c[9], c[10], c[11], c[12]],
            parts: std::array::from_fn(|i| c[BASE_COLOURS + SERIES_COLOURS + i]),
        }
    }

    /// The colour of a series.
    pub fn colour(&self, c: SeriesColour) -> RGBColor {
        match c {
            SeriesColour::Series(i) => self.series[i % SERIES_COLOURS],
            SeriesColour::Configured => self.configured,
        }
    }

    /// The colour a part's band is drawn in.
    pub fn part(&self, c: PartColour) -> RGBColor {
        self.parts[c.index()]
    }
}

/// Reads `#rgb` or `#rrggbb` (surrounding spaces allowed).
pub fn parse_hex(s: &str) -> Option<RGBColor> {
    let h = s.trim().strip_prefix('#')?;
    let digit = |i: usize| u8::from_str_radix(h.get(i..i + 1)?, 16).ok();
    let pair = |i: usize| u8::from_str_radix(h.get(i..i + 2)?, 16).ok();
    match h.len() {
        3 => Some(RGBColor(digit(0)? * 17, digit(1)? * 17, digit(2)? * 17)),
        6 => Some(RGBColor(pair(0)?, pair(2)?, pair(4)?)),
        _ => None,
    }
}

/// The font family the canvas uses: the page's system font stack.
pub const FONT_FAMILY: &str = "system-ui, -apple-system, Segoe UI, Roboto, sans-serif";
/// Tick label size in CSS pixels.
pub const LABEL_CSS_PX: f64 = 12.0;
/// Canvas width (CSS px) below which charts use fewer tick labels.
pub const NARROW_CSS_PX: f64 = 420.0;

/// Palette plus the canvas's device-pixel scale.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartStyle {
    pub palette: Palette,
    /// Device pixels per CSS pixel (the canvas backing store is this much larger).
    pub scale: f64,
    /// Width of the chart in CSS pixels (to choose how many labels fit).
    pub css_width: f64,
    /// Where the canvas keeps the chart's frame between drawings (none: drawn every time).
    pub frames: FrameSlot,
}

impl Default for ChartStyle {
    fn default() -> Self {
        ChartStyle {
            palette: Palette::default(),
            scale: 1.0,
            css_width: 640.0,
            frames: FrameSlot::default(),
        }
    }
}

impl ChartStyle {
    /// A length in device pixels for `css` CSS pixels (at least 1).
    pub fn px(&self, css: f64) -> i32 {
        ((css * self.scale).round() as i32).max(1)
    }

    /// A font size in device pixels for `css` CSS pixels.
    pub fn font(&self, css: f64) -> f64 {
        (css * self.scale).max(1.0)
    }

    /// Whether the chart is narrow enough to need fewer labels.
    pub fn narrow(&self) -> bool {
        self.css_width < NARROW_CSS_PX
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colours_parse_in_both_lengths() {
        assert_eq!(parse_hex("#fff"), Some(RGBColor(255, 255, 255)));
        assert_eq!(parse_hex(" #1f2937 "), Some(RGBColor(0x1f, 0x29, 0x37)));
        for bad in ["", "fff", "#ffff", "#gggggg", "rgb(1,2,3)", "#ééé"] {
            assert_eq!(parse_hex(bad), None, "{bad}");
        }
    }

    #[test]
    fn unreadable_css_values_fall_back_to_the_light_palette() {
        let p = Palette::from_lookup(|name| match name {
            "--chart-bg" => Some("#000".into()),
            "--series-1" => Some("oops".into()),
            _ => None,
        });
        assert_eq!(p.background, RGBColor(0, 0, 0));
        assert_eq!(p.series[0], CSS_VARS[9].1);
    }

    #[test]
    fn the_parts_colours_come_from_the_readouts_css_properties_in_both_themes() {
        let light = Palette::default();
        assert_eq!(light.part(PartColour::Host), RGBColor(0xcc, 0x79, 0xa7));
        assert_eq!(light.part(PartColour::Power), RGBColor(0, 0, 0));
        assert_eq!(light.part(PartColour::Link), RGBColor(0xf0, 0xe4, 0x42));
        // The dark theme's black is its text colour (style/main.css).
        let dark = Palette::from_lookup(|name| (name == "--part-power").then(|| "#e6edf3".into()));
        assert_eq!(dark.part(PartColour::Power), RGBColor(0xe6, 0xed, 0xf3));
        let css = include_str!("../../../style/main.css");
        for (c, (name, colour)) in PartColour::ALL
            .iter()
            .zip(&CSS_VARS[BASE_COLOURS + SERIES_COLOURS..])
        {
            assert!(
                name.ends_with(c.css_class().trim_start_matches("part-")),
                "{name}"
            );
            let rule = format!("{name}: #{:02x}{:02x}{:02x};", colour.0, colour.1, colour.2);
            assert!(css.contains(&rule), "the light theme's {rule}");
        }
    }

    #[test]
    fn sizes_scale_with_the_device_pixel_ratio() {
        let s = ChartStyle {
            scale: 2.0,
            ..ChartStyle::default()
        };
        assert_eq!(s.px(12.0), 24);
        assert_eq!(s.px(0.1), 1, "never thinner than one device pixel");
        assert_eq!(s.font(12.0), 24.0);
    }
}
