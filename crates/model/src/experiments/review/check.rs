//! The review's words as checks: for each test whose words describe a shape (a rate, a flat
//! stretch, a rise, a ceiling), whether the model's curve has it, with the figures that decide.
//!
//! One source for the E12 tests, `lab review` and the page's review view, so all three say the
//! same of the same results. The thresholds read the review's words the way the lab's issue on
//! the consumer drive wrote them down; each constant says which words it reads. What always
//! holds: a check is computed from the test's own points only, so it applies to any drive the
//! suite runs on (on another drive it says whether that drive has the E12's shape, not whether
//! the model is right); the burst tests of random I/O and of sequential writes, which the
//! review called records without a figure, have none.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Test, TestResult, E12_SUSTAINED_FLOOR_MB_S};
use crate::text::{grouped, percent};

/// "Just shy of 2 GB/s": the E12's burst sequential reads, read as 1,950 MB/s...
pub const BURST_READ_SAID_MB_S: f64 = 1950.0;
/// ...to within this share.
pub const BURST_READ_WITHIN: f64 = 0.15;
/// "Mostly flat at low queue depths": QD1 to QD4 within this share of each other...
pub const FLAT_WITHIN: f64 = 0.2;
/// ...and "then jumps up toward saturation between QD4 and QD16": QD16 at least this many
/// times QD1.
pub const JUMP_AT_LEAST: f64 = 1.5;
/// "At higher queue depths many drives overtake it and saturate at a much higher speed": the
/// E12 saturated early, QD32 at most this many times QD2.
pub const SATURATED_AT_MOST: f64 = 2.0;
/// "Scales up nicely as queue depths increase": QD32 at least this many times QD1.
pub const SCALES_AT_LEAST: f64 = 8.0;
/// "Barely loses any performance when writes are added to the mix": no mix down to half
/// reads below this share of pure reads.
pub const BARELY_LOSES_WITHIN: f64 = 0.1;

/// What the model's curve shows, against the review's words about the E12.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub test: Test,
    /// Whether the curve has the shape the words describe.
    pub holds: bool,
    /// The figures that decide.
    pub found: Found,
}

/// The figures a check decides on, one kind per shape.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Found {
    /// A rate near the one the review's words give: the model's, and the words read as a
    /// figure (MB/s).
    Near { model_mb_s: f64, said_mb_s: f64 },
    /// Flat, then a jump: QD1..QD4's largest over their smallest, and QD16 over QD1.
    FlatThenJump { spread: f64, jump: f64 },
    /// Saturated early: QD32 over QD2.
    SaturatesEarly { ratio: f64 },
    /// Above a floor at every depth, at its best at one: the slowest depth (MB/s) and the
    /// fastest depth.
    AboveFloorBestAt {
        slowest_mb_s: f64,
        best_iodepth: u32,
    },
    /// Scales with depth: QD32 over QD1.
    Scales { ratio: f64 },
    /// Rising from pure reads to pure writes: at 100%, 50% and 0% reads (MB/s).
    Rises {
        reads_mb_s: f64,
        half_mb_s: f64,
        writes_mb_s: f64,
    },
    /// Holding up as writes are added: the lowest mix down to half reads over pure reads.
    HoldsUp { lowest_share: f64 },
}

/// The check of `result` against the review's words, if its test has one.
///
/// ```
/// use parallelism_model::review::{check, ReviewPoint, Test, TestResult};
///
/// let point = |mb_s| ReviewPoint { iodepth: 1, read_percent: 100, mb_s, slc_read_share: 1.0 };
/// let burst = TestResult { test: Test::BurstSequentialRead, points: vec![point(2_100.0)], score_mb_s: 2_100.0 };
/// let c = check::check(&burst).unwrap();
/// assert!(c.holds);
/// assert_eq!(
///     c.to_string(),
///     "holds: 2,100 MB/s against “just shy of 2 GB/s”, read as 1,950 (+8%; within 15%)"
/// );
/// ```
pub fn check(result: &TestResult) -> Option<Check> {
    let at = |iodepth: u32| result.at_iodepth(iodepth).map(|p| p.mb_s);
    let mix = |pct: u8| result.at_read_percent(pct).map(|p| p.mb_s);
    let (holds, found) = match result.test {
        Test::BurstSequentialRead => near_burst_read(result.score_mb_s),
        Test::SustainedSequentialRead => flat_then_jump(at(1)?, at(2)?, at(4)?, at(16)?),
        Test::SustainedRandomWrite => {
            let ratio = at(32)? / at(2)?;
            (ratio <= SATURATED_AT_MOST, Found::SaturatesEarly { ratio })
        }
        Test::SustainedSequentialWrite => above_floor_best_at(result)?,
        Test::SustainedRandomRead => {
            let ratio = at(32)? / at(1)?;
            (ratio >= SCALES_AT_LEAST, Found::Scales { ratio })
        }
        Test::MixedRandom => {
            let (reads_mb_s, half_mb_s, writes_mb_s) = (mix(100)?, mix(50)?, mix(0)?);
            (
                reads_mb_s < half_mb_s && half_mb_s < writes_mb_s,
                Found::Rises {
                    reads_mb_s,
                    half_mb_s,
                    writes_mb_s,
                },
            )
        }
        Test::MixedSequential => holds_up(mix)?,
        Test::BurstRandomRead | Test::BurstRandomWrite | Test::BurstSequentialWrite => return None,
    };
    Some(Check {
        test: result.test,
        holds,
        found,
    })
}

/// "Just shy of 2 GB/s": the burst read's score near what the review said.
fn near_burst_read(model_mb_s: f64) -> (bool, Found) {
    let off = model_mb_s / BURST_READ_SAID_MB_S - 1.0;
    (
        off.abs() <= BURST_READ_WITHIN,
        Found::Near {
            model_mb_s,
            said_mb_s: BURST_READ_SAID_MB_S,
        },
    )
}

/// Flat from QD1 to QD4 (MB/s at `qd1`, `qd2`, `qd4`), then a jump by QD16.
fn flat_then_jump(qd1: f64, qd2: f64, qd4: f64, qd16: f64) -> (bool, Found) {
    let (min, max) = [qd1, qd2, qd4]
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
    let spread = max / min;
    let jump = qd16 / qd1;
    (
        spread <= 1.0 + FLAT_WITHIN && jump >= JUMP_AT_LEAST,
        Found::FlatThenJump { spread, jump },
    )
}

/// Every depth above the floor, the best at QD2; `None` without points.
fn above_floor_best_at(result: &TestResult) -> Option<(bool, Found)> {
    let slowest = result
        .points
        .iter()
        .min_by(|a, b| a.mb_s.total_cmp(&b.mb_s))?;
    let best = result
        .points
        .iter()
        .max_by(|a, b| a.mb_s.total_cmp(&b.mb_s))?;
    Some((
        slowest.mb_s > E12_SUSTAINED_FLOOR_MB_S && best.iodepth == 2,
        Found::AboveFloorBestAt {
            slowest_mb_s: slowest.mb_s,
            best_iodepth: best.iodepth,
        },
    ))
}

/// The slowest mix down to half reads against pure reads (`mix`: MB/s at a read percent);
/// `None` when a mix is missing.
fn holds_up(mix: impl Fn(u8) -> Option<f64>) -> Option<(bool, Found)> {
    let reads = mix(100)?;
    let lowest = [90, 80, 70, 60, 50]
        .into_iter()
        .map(mix)
        .collect::<Option<Vec<f64>>>()?
        .into_iter()
        .fold(f64::INFINITY, f64::min);
    let lowest_share = lowest / reads;
    Some((
        lowest_share >= 1.0 - BARELY_LOSES_WITHIN,
        Found::HoldsUp { lowest_share },
    ))
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Found::Near {
                model_mb_s,
                said_mb_s,
            } => write!(
                f,
                "{} MB/s against “{}”, read as {} ({:+.0}%; within {})",
                grouped(model_mb_s),
                super::TestSpec::of(Test::BurstSequentialRead).review_says,
                grouped(said_mb_s),
                (model_mb_s / said_mb_s - 1.0) * 100.0,
                percent(BURST_READ_WITHIN)
            ),
            Found::FlatThenJump { spread, jump } => write!(
                f,
                "QD1 to QD4 within {} of each other (at most {}), QD16 {jump:.1}x QD1 (at least \
                 {JUMP_AT_LEAST}x)",
                percent(spread - 1.0),
                percent(FLAT_WITHIN)
            ),
            Found::SaturatesEarly { ratio } => write!(
                f,
                "QD32 {ratio:.1}x QD2 (saturated early: at most {SATURATED_AT_MOST}x)"
            ),
            Found::AboveFloorBestAt {
                slowest_mb_s,
                best_iodepth,
            } => write!(
                f,
                "the slowest depth {} MB/s (above {}), the fastest QD{best_iodepth} (the review: QD2)",
                grouped(slowest_mb_s),
                grouped(E12_SUSTAINED_FLOOR_MB_S)
            ),
            Found::Scales { ratio } => {
                write!(f, "QD32 {ratio:.0}x QD1 (at least {SCALES_AT_LEAST}x)")
            }
            Found::Rises {
                reads_mb_s,
                half_mb_s,
                writes_mb_s,
            } => write!(
                f,
                "{} MB/s at 100% reads, {} at 50%, {} at 0%",
                grouped(reads_mb_s),
                grouped(half_mb_s),
                grouped(writes_mb_s)
            ),
            Found::HoldsUp { lowest_share } => write!(
                f,
                "the slowest mix down to 50% reads at {} of pure reads (at least {})",
                percent(lowest_share),
                percent(1.0 - BARELY_LOSES_WITHIN)
            ),
        }
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.holds { "holds" } else { "misses" };
        write!(f, "{verdict}: {}", self.found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::ReviewPoint;

    /// A test's curve from (depth, read share, MB/s) points.
    fn curve(test: Test, points: impl Iterator<Item = (u32, u8, f64)>) -> TestResult {
        let points = points
            .map(|(iodepth, read_percent, mb_s)| ReviewPoint {
                iodepth,
                read_percent,
                mb_s,
                slc_read_share: 0.0,
            })
            .collect();
        TestResult {
            test,
            points,
            score_mb_s: 0.0,
        }
    }

    fn depths(test: Test, rates: [f64; 6]) -> TestResult {
        let depths = crate::review::SUSTAINED_IODEPTHS.into_iter();
        curve(
            test,
            depths.zip(rates).map(|(iodepth, mb_s)| (iodepth, 0, mb_s)),
        )
    }

    fn mixes(test: Test, rates: [f64; 11]) -> TestResult {
        let mixes = crate::review::MIX_READ_PERCENTS.into_iter();
        curve(test, mixes.zip(rates).map(|(pct, mb_s)| (1, pct, mb_s)))
    }

    fn burst(test: Test, mb_s: f64) -> TestResult {
        TestResult {
            test,
            points: vec![ReviewPoint {
                iodepth: 1,
                read_percent: 100,
                mb_s,
                slc_read_share: 1.0,
            }],
            score_mb_s: mb_s,
        }
    }

    /// "Just shy of 2 GB/s", read as 1,950 MB/s within 15%: 2,242 holds, 2,400 misses.
    #[test]
    fn the_burst_read_is_near_1950_mb_s() {
        let c = check(&burst(Test::BurstSequentialRead, 2_242.0)).unwrap();
        assert!(c.holds, "{c}");
        let c = check(&burst(Test::BurstSequentialRead, 2_400.0)).unwrap();
        assert!(!c.holds);
        assert_eq!(
            c.to_string(),
            "misses: 2,400 MB/s against “just shy of 2 GB/s”, read as 1,950 (+23%; within 15%)"
        );
    }

    /// "Mostly flat at low queue depths, then jumps up between QD4 and QD16".
    #[test]
    fn sustained_reads_are_flat_then_jump() {
        let flat = depths(
            Test::SustainedSequentialRead,
            [1000.0, 1000.0, 1190.0, 2000.0, 3000.0, 3000.0],
        );
        assert!(check(&flat).unwrap().holds);
        let doubling = depths(
            Test::SustainedSequentialRead,
            [500.0, 1000.0, 2000.0, 3000.0, 3000.0, 3000.0],
        );
        let c = check(&doubling).unwrap();
        assert!(!c.holds);
        assert_eq!(
            c.to_string(),
            "misses: QD1 to QD4 within 300% of each other (at most 20%), QD16 6.0x QD1 (at \
             least 1.5x)"
        );
    }

    /// "Saturate[s]" early: QD32 at most twice QD2.
    #[test]
    fn random_writes_saturate_early() {
        let early = depths(
            Test::SustainedRandomWrite,
            [300.0, 600.0, 1000.0, 1100.0, 1150.0, 1200.0],
        );
        assert!(check(&early).unwrap().holds);
        let late = depths(
            Test::SustainedRandomWrite,
            [244.0, 488.0, 976.0, 1953.0, 2307.0, 1686.0],
        );
        let c = check(&late).unwrap();
        assert_eq!(
            c.to_string(),
            "misses: QD32 3.5x QD2 (saturated early: at most 2x)"
        );
    }

    /// "Excellent at QD2 ... above 1 GB/s": both, or it misses.
    #[test]
    fn sustained_writes_stay_above_1_gb_s_at_their_best_at_qd2() {
        let good = depths(
            Test::SustainedSequentialWrite,
            [2260.0, 2472.0, 1747.0, 2100.0, 1885.0, 2007.0],
        );
        let c = check(&good).unwrap();
        assert!(c.holds, "{c}");
        assert_eq!(
            c.to_string(),
            "holds: the slowest depth 1,747 MB/s (above 1,000), the fastest QD2 (the review: QD2)"
        );
        let best_at_qd1 = depths(
            Test::SustainedSequentialWrite,
            [2500.0, 2472.0, 1747.0, 2100.0, 1885.0, 2007.0],
        );
        assert!(!check(&best_at_qd1).unwrap().holds);
        let below = depths(
            Test::SustainedSequentialWrite,
            [2260.0, 2472.0, 999.0, 2100.0, 1885.0, 2007.0],
        );
        assert!(!check(&below).unwrap().holds);
    }

    /// The mixes: rising toward writes, and barely losing as writes come in.
    #[test]
    fn mixes_rise_or_hold_up() {
        let rising = mixes(
            Test::MixedRandom,
            [
                184.0, 199.0, 218.0, 242.0, 270.0, 307.0, 355.0, 420.0, 519.0, 672.0, 976.0,
            ],
        );
        assert!(check(&rising).unwrap().holds);
        let falling = mixes(
            Test::MixedRandom,
            [900.0, 0.0, 0.0, 0.0, 0.0, 500.0, 0.0, 0.0, 0.0, 0.0, 400.0],
        );
        assert!(!check(&falling).unwrap().holds);
        let dips = mixes(
            Test::MixedSequential,
            [
                1000.0, 950.0, 890.0, 1000.0, 1000.0, 1000.0, 0.0, 0.0, 0.0, 0.0, 0.0,
            ],
        );
        let c = check(&dips).unwrap();
        assert_eq!(
            c.to_string(),
            "misses: the slowest mix down to 50% reads at 89% of pure reads (at least 90%)"
        );
    }

    /// The records and the "very good" burst have no figure to check.
    #[test]
    fn the_records_have_no_check() {
        for t in [
            Test::BurstRandomRead,
            Test::BurstRandomWrite,
            Test::BurstSequentialWrite,
        ] {
            assert_eq!(check(&burst(t, 1000.0)), None);
        }
    }
}
