//! Axis ranges and tick positions: pure arithmetic shared by the charts.
//!
//! What always holds: every range returned here is finite, non-empty (`lo < hi`) and contains
//! the values it was given, so plotters never sees a degenerate or infinite axis, whatever the
//! model returned.

/// Room above the highest value so the top point is not glued to the frame.
const HEADROOM: f64 = 1.08;
/// A latency axis turns logarithmic when its values span more than this factor.
pub const LOG_SCALE_FROM_RATIO: f64 = 20.0;
/// The "nice" mantissas of axis maxima and log ticks.
const NICE_STEPS: [f64; 5] = [1.0, 2.0, 2.5, 5.0, 10.0];
/// Largest axis top: far beyond any model value, and small enough that rounding it up to a
/// nice number stays finite.
const LARGEST_TOP: f64 = 1e300;
/// Log ticks: 1, 2 and 5 in every decade.
const LOG_TICK_MANTISSAS: [f64; 3] = [1.0, 2.0, 5.0];

/// The smallest "nice" number (1, 2, 2.5 or 5 times a power of ten) at or above `v`;
/// 1 for anything not positive or not finite.
pub fn nice_ceiling(v: f64) -> f64 {
    if !v.is_finite() || v <= 0.0 {
        return 1.0;
    }
    let magnitude = 10f64.powf(v.log10().floor());
    NICE_STEPS
        .iter()
        .map(|m| m * magnitude)
        .find(|&n| n >= v * (1.0 - 1e-12))
        .unwrap_or(10.0 * magnitude)
}

/// A linear axis from 0 holding `values` (ignoring values that are not finite): its top and
/// ticks at a "nice" step, about `ticks` of them.
pub fn linear_axis(values: impl Iterator<Item = f64>, ticks: usize) -> (f64, Vec<f64>) {
    let max = values.filter(|v| v.is_finite()).fold(0.0, f64::max);
    nice_ticks((max * HEADROOM).min(LARGEST_TOP), ticks)
}

/// A linear axis from 0 that ends where `values` end (ignoring values that are not finite),
/// with ticks at a "nice" step inside it: for an x axis, where space past the data would read
/// as a part of the drive the chart says nothing about.
pub fn data_axis(values: impl Iterator<Item = f64>, ticks: usize) -> (f64, Vec<f64>) {
    let max = values.filter(|v| v.is_finite()).fold(0.0, f64::max);
    if max <= 0.0 {
        return (1.0, vec![0.0, 1.0]);
    }
    let top = max.min(LARGEST_TOP);
    (top, ticks_within(top, ticks))
}

/// Ticks at a nice step from 0 to the first step at or above `top` (about `count` steps).
pub fn nice_ticks(top: f64, count: usize) -> (f64, Vec<f64>) {
    let count = count.max(1);
    if !top.is_finite() || top <= 0.0 {
        return (1.0, vec![0.0, 1.0]);
    }
    let step = nice_ceiling(top / count as f64);
    // A nice step is at least top / count, so this is at most count + 1 (the cap is a guard).
    let steps = ((top / step).ceil().max(1.0) as usize).min(2 * count);
    let ticks = (0..=steps).map(|i| step * i as f64).collect();
    (step * steps as f64, ticks)
}

/// Ticks at a nice step within `0..=top` (for a secondary axis whose top is fixed).
pub fn ticks_within(top: f64, count: usize) -> Vec<f64> {
    if !top.is_finite() || top <= 0.0 {
        return vec![0.0];
    }
    let step = nice_ceiling(top / count.max(1) as f64);
    (0..)
        .map(|i| step * f64::from(i))
        .take_while(|t| *t <= top * (1.0 + 1e-9))
        .collect()
}

/// The queue-depth axis in log2 units (`0..=log2(max_iodepth)`) and its ticks: every doubling, or
/// every other one when `narrow` and there are many.
pub fn octave_ticks(max_iodepth: u32, narrow: bool) -> (f64, Vec<f64>) {
    let top = f64::from(max_iodepth.max(2)).log2().ceil();
    let octaves = top as u32;
    let every = if narrow && octaves > 8 { 2 } else { 1 };
    let ticks = (0..=octaves)
        .filter(|o| o % every == 0)
        .map(f64::from)
        .collect();
    (top, ticks)
}

/// The label for a tick at `log2(iodepth)`: the queue depth.
pub fn octave_label(x: f64) -> String {
    format!("{}", 2f64.powf(x).round())
}

/// Whether latencies spanning `lo..=hi` want a logarithmic axis.
pub fn wants_log(lo: f64, hi: f64) -> bool {
    lo > 0.0 && hi.is_finite() && hi / lo > LOG_SCALE_FROM_RATIO
}

/// A log axis in `log10` units covering `lo..=hi` (both positive) and its ticks at 1, 2, 5
/// per decade (thinned to about `max_ticks`).
pub fn log10_range(lo: f64, hi: f64, max_ticks: usize) -> (f64, f64, Vec<f64>) {
    let (lo, hi) = if lo > 0.0 && hi.is_finite() && hi >= lo {
        (lo, hi)
    } else {
        (1.0, 10.0)
    };
    let a = (lo / HEADROOM).log10();
    let b = (hi * HEADROOM).log10().max(a + 0.1);
    let mut ticks = Vec::new();
    let mut decade = a.floor() as i32;
    while f64::from(decade) <= b {
        for m in LOG_TICK_MANTISSAS {
            let t = (m * 10f64.powi(decade)).log10();
            if t >= a && t <= b {
                ticks.push(t);
            }
        }
        decade += 1;
    }
    if ticks.len() > max_ticks.max(2) {
        // Too many for the space: powers of ten only.
        ticks.retain(|t| (t - t.round()).abs() < 1e-9);
    }
    (a, b, ticks)
}

/// One axis: its range, tick positions, title and tick label text.
pub struct Axis<'f> {
    pub lo: f64,
    pub hi: f64,
    pub ticks: Vec<f64>,
    pub title: &'f str,
    pub label: &'f dyn Fn(f64) -> String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_data_axis_ends_at_the_data_with_nice_ticks_inside() {
        let (top, ticks) = data_axis([0.0, 700.0, 1920.0, f64::NAN].into_iter(), 5);
        assert_eq!(top, 1920.0, "a 1,920 GB drive's fill ends at 1,920 GB");
        assert_eq!(ticks, vec![0.0, 500.0, 1000.0, 1500.0]);
        assert_eq!(data_axis(std::iter::empty(), 5), (1.0, vec![0.0, 1.0]));
    }

    #[test]
    fn axis_maxima_are_nice_numbers_above_the_data() {
        assert_eq!(nice_ceiling(646_007.0), 1e6);
        assert_eq!(nice_ceiling(240_000.0), 250_000.0);
        assert_eq!(nice_ceiling(7118.0), 10_000.0);
        assert_eq!(nice_ceiling(1.5), 2.0);
        assert_eq!(nice_ceiling(2.0), 2.0);
        for bad in [0.0, -3.0, f64::NAN, f64::INFINITY] {
            assert_eq!(nice_ceiling(bad), 1.0);
        }
        let (top, ticks) = linear_axis([3.0, f64::NAN, 9.5].into_iter(), 5);
        assert_eq!(top, 12.5);
        assert_eq!(ticks, vec![0.0, 2.5, 5.0, 7.5, 10.0, 12.5]);
        let (top, ticks) = linear_axis([f64::MAX].into_iter(), 5);
        assert!(top.is_finite() && ticks.len() <= 11);
        let (top, ticks) = linear_axis([250_000.0].into_iter(), 5);
        assert_eq!((top, ticks.len()), (300_000.0, 4));
        assert_eq!(linear_axis(std::iter::empty(), 5).0, 1.0);
        assert_eq!(
            ticks_within(1228.8, 5),
            vec![0.0, 250.0, 500.0, 750.0, 1000.0]
        );
        assert_eq!(ticks_within(f64::NAN, 5), vec![0.0]);
    }

    #[test]
    fn queue_depth_ticks_are_doublings() {
        let (top, ticks) = octave_ticks(256, false);
        assert_eq!(top, 8.0);
        assert_eq!(ticks.len(), 9);
        assert_eq!(octave_label(ticks[5]), "32");
        let (top, ticks) = octave_ticks(1024, true);
        assert_eq!(top, 10.0);
        assert_eq!(ticks, vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(
            octave_ticks(0, false).0,
            1.0,
            "a degenerate depth still spans an octave"
        );
    }

    #[test]
    fn latency_goes_logarithmic_only_when_the_range_needs_it() {
        assert!(!wants_log(75.0, 900.0));
        assert!(wants_log(75.0, 14_000.0));
        assert!(!wants_log(0.0, 100.0));
    }

    #[test]
    fn log_ticks_fall_on_1_2_5_and_cover_the_data() {
        let (a, b, ticks) = log10_range(75.0, 14_000.0, 12);
        assert!(a < 75f64.log10() && b > 14_000f64.log10());
        let values: Vec<f64> = ticks.iter().map(|t| 10f64.powf(*t).round()).collect();
        assert_eq!(
            values,
            vec![100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0, 10_000.0]
        );
        let (_, _, few) = log10_range(75.0, 14_000.0, 4);
        assert_eq!(few.len(), 3, "only powers of ten when space is short");
        let (a, b, _) = log10_range(f64::NAN, -1.0, 5);
        assert!(a.is_finite() && b > a);
    }
}
