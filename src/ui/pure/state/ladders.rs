//! The values the workload's settings snap to: each slider's ladder and the default it starts
//! at. The single job ([`super::JobSetup`]) and the workload ([`super::WorkloadSetup`]) both snap
//! to these, so they live apart from either.
//!
//! What always holds: every ladder's values pass the model's checks (queue depths up to
//! [`MAX_IODEPTH`], block sizes fio can write, read shares in `0..=100`), and each default is on
//! its ladder.

use crate::model::config::MAX_IODEPTH;
use crate::ui::pure::ladder::Ladder;

/// Queue depth a fresh page shows: the depth where the published 480 and 1,920 GB random reads
/// already differ by a factor of two.
pub const DEFAULT_IODEPTH: u32 = 32;
/// Block size a fresh page shows: the 4 KiB of the published random cells.
pub const DEFAULT_BS_BYTES: u32 = 4096;
/// Read share (percent) a fresh page shows: pure reads.
pub const DEFAULT_READ_PCT: u8 = 100;
/// The read-share slider's step, as the reviewers' mixed sweep (0, 10, ..., 100 %).
pub const READ_SHARE_STEP: u8 = 10;
/// Percent of reads in a whole-number share.
pub const ALL_READS_PCT: u8 = 100;
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
/// Offered rate a fresh rate view shows, in I/Os per second: well below the default drive's
/// capacity, so the reader starts left of the knee and moves towards it.
pub const DEFAULT_RATE_IOPS: u32 = 200_000;
/// The rate slider's range in I/Os per second: from a trickle to past any drive here.
pub const RATE_RANGE_IOPS: (u32, u32) = (10, 5_000_000);
/// The steps of each decade on the rate slider, in thousandths (the R10 preferred numbers of
/// ISO 3: ten steps of about 26 % a decade).
const RATE_STEPS_PER_MILLE: [u32; 10] =
    [1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000, 6300, 8000];
/// The coarse stops (plain arrow keys) of the rate slider, in thousandths: 1, 2, 5 a decade.
const RATE_COARSE_PER_MILLE: [u32; 3] = [1000, 2000, 5000];

/// Queue depths up to this one are all on the slider; above it, four steps per doubling.
const IODEPTH_ALL_STEPS_UP_TO: u32 = 8;
/// Fine queue-depth steps per doubling above [`IODEPTH_ALL_STEPS_UP_TO`] (x1.25, x1.5, x1.75, x2).
const IODEPTH_STEPS_PER_OCTAVE: u32 = 4;

/// The queue depths on the slider: every depth up to 8, then four steps per doubling up to
/// the model's limit. Powers of two are the coarse stops.
pub fn iodepth_ladder() -> Ladder {
    let mut values: Vec<u32> = (1..=IODEPTH_ALL_STEPS_UP_TO).collect();
    let mut base = IODEPTH_ALL_STEPS_UP_TO;
    while base < MAX_IODEPTH {
        for k in 1..=IODEPTH_STEPS_PER_OCTAVE {
            values.push(base + base * k / IODEPTH_STEPS_PER_OCTAVE);
        }
        base *= 2;
    }
    values.retain(|&q| q <= MAX_IODEPTH);
    Ladder::with_coarse(values, DEFAULT_IODEPTH, u32::is_power_of_two)
}

/// The rates on the slider (I/Os per second): the R10 preferred numbers (1, 1.25, 1.6, 2, 2.5,
/// 3.15, 4, 5, 6.3, 8) in every decade of [`RATE_RANGE_IOPS`], coarse at 1, 2 and 5.
pub fn rate_ladder() -> Ladder {
    let (low, high) = RATE_RANGE_IOPS;
    let mut values = Vec::new();
    let mut decade = low;
    while decade <= high {
        values.extend(RATE_STEPS_PER_MILLE.iter().map(|&m| decade / 10 * m / 100));
        decade *= 10;
    }
    values.retain(|v| (low..=high).contains(v));
    Ladder::with_coarse(values, DEFAULT_RATE_IOPS, |v| {
        RATE_COARSE_PER_MILLE.contains(&leading_per_mille(v))
    })
}

/// The R5 preferred numbers (1, 1.6, 2.5, 4, 6.3 a decade) in thousandths: every other step of
/// the rate slider, the offered loads a sweep runs.
const RATE_SWEEP_PER_MILLE: [u32; 5] = [1000, 1600, 2500, 4000, 6300];

/// Whether `iops` is one of the rates a sweep over offered load runs.
pub fn is_sweep_rate(iops: u32) -> bool {
    RATE_SWEEP_PER_MILLE.contains(&leading_per_mille(iops))
}

/// The first four digits of `v` as thousandths of its decade (250,000 -> 2500; 12 -> 1200).
fn leading_per_mille(v: u32) -> u32 {
    let mut lead = u64::from(v.max(1));
    while lead >= 10_000 {
        lead /= 10;
    }
    while lead < 1_000 {
        lead *= 10;
    }
    u32::try_from(lead).unwrap_or(0)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_slider_takes_ten_preferred_steps_a_decade_with_1_2_5_as_coarse_stops() {
        let l = rate_ladder();
        assert_eq!(
            l.values()[..11],
            [10, 12, 16, 20, 25, 31, 40, 50, 63, 80, 100]
        );
        assert_eq!(*l.values().last().unwrap(), 5_000_000);
        assert!(l.contains(DEFAULT_RATE_IOPS));
        assert!(l.values().windows(2).all(|w| w[0] < w[1]));
        // From 200k, a plain arrow key goes to the next coarse stop, 500k; Shift to 250k.
        assert_eq!(l.step(200_000, true, false), 500_000);
        assert_eq!(l.step(200_000, true, true), 250_000);
        assert_eq!(l.step(200_000, false, false), 100_000);
    }
}
