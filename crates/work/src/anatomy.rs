//! What the page keeps of a run's anatomy (where its requests' time went, part by part): for
//! reads and for writes, the mean request and the tails at or above the p99 and the p99.9,
//! each as its mean latency and its [`PARTS`] parts in microseconds ([`PointAnatomy`]).
//!
//! What always holds:
//! - it is made from the run's own result ([`PointAnatomy::of`]), so it arrives with the
//!   point that carries it and costs no run of its own;
//! - a direction the run had no request of is `None`, never a row of zeros;
//! - each breakdown's parts add up to its latency up to `f32` rounding (a few parts in ten
//!   million), since both come from the model's [`Breakdown`], whose parts add up exactly.
//!
//! Why `f32`: the page holds a point for every run of its plan (and caches thousands), and
//! each crosses `postMessage` as JSON text. An `f32` keeps 24 significant bits, a part of a
//! whole second to 0.06 µs, far finer than the page shows (three significant digits, bars
//! to a tenth of a percent), in half the bytes of an `f64` in memory and about half the digits
//! in a message: a point is 544 bytes, 456 of them its anatomy (912 in `f64`), and its JSON
//! grows from about 300 characters to 750 with reads alone, 1,160 with reads and writes (the
//! E18DC at QD8, measured). Only the three statistics the page draws are kept, not the p50's
//! tail. A [`Point`](crate::Point) stays `Copy`: the anatomy is plain arrays.

use parallelism_model::anatomy::{Anatomy, Breakdown, DirectionAnatomy, Part, Parts, PARTS};
use parallelism_model::time::Nanos;
use serde::{Deserialize, Serialize};

/// One set of requests' mean composition: their mean latency and each part's mean, in µs,
/// in [`Part::ALL`]'s order.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartsUs {
    pub latency_us: f32,
    pub parts_us: [f32; PARTS],
}

impl PartsUs {
    /// The model's breakdown, rounded to `f32`.
    pub fn of(b: &Breakdown) -> PartsUs {
        PartsUs {
            latency_us: b.latency_us as f32,
            parts_us: b.parts_us.map(|us| us as f32),
        }
    }

    /// A breakdown of `parts` (µs each; the others none), its latency their sum.
    pub fn of_parts(parts: &[(Part, f32)]) -> PartsUs {
        let mut parts_us = [0.0; PARTS];
        for &(part, us) in parts {
            // A part's number is its place in `Part::ALL` (the model's tests hold it).
            if let Some(slot) = parts_us.get_mut(part as usize) {
                *slot = us;
            }
        }
        PartsUs {
            latency_us: parts_us.iter().sum(),
            parts_us,
        }
    }

    /// One request's parts (a followed request's, so far), its latency their sum.
    pub fn of_request(p: &Parts) -> PartsUs {
        let us = |ns: u64| Nanos(ns).as_us() as f32;
        PartsUs {
            latency_us: p.total().as_us() as f32,
            parts_us: p.0.map(us),
        }
    }

    /// The mean time `part` took, in µs.
    pub fn part_us(&self, part: Part) -> f32 {
        // A part's number is its place in `Part::ALL` (the model's tests hold it).
        self.parts_us.get(part as usize).copied().unwrap_or(0.0)
    }
}

/// One direction's requests: all of them, and the tails at or above the p99 and the p99.9.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DirectionParts {
    pub mean: PartsUs,
    pub p99: PartsUs,
    pub p999: PartsUs,
}

impl DirectionParts {
    pub fn of(d: &DirectionAnatomy) -> DirectionParts {
        DirectionParts {
            mean: PartsUs::of(&d.mean),
            p99: PartsUs::of(&d.p99),
            p999: PartsUs::of(&d.p999),
        }
    }
}

/// Where a run's time went, as the page shows it: reads and writes apart (`None`: the run had
/// none of them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PointAnatomy {
    pub reads: Option<DirectionParts>,
    pub writes: Option<DirectionParts>,
}

impl PointAnatomy {
    /// What the page keeps of a run's anatomy.
    pub fn of(a: &Anatomy) -> PointAnatomy {
        PointAnatomy {
            reads: a.reads.as_ref().map(DirectionParts::of),
            writes: a.writes.as_ref().map(DirectionParts::of),
        }
    }

    /// Whether the run had any request (a point without an anatomy has none).
    pub fn is_empty(&self) -> bool {
        self.reads.is_none() && self.writes.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn breakdown(latency_us: f64, parts: &[(Part, f64)]) -> Breakdown {
        let mut parts_us = [0.0; PARTS];
        for &(part, us) in parts {
            parts_us[part as usize] = us;
        }
        Breakdown {
            requests: 10,
            latency_us,
            parts_us,
        }
    }

    fn direction(b: Breakdown) -> DirectionAnatomy {
        DirectionAnatomy {
            mean: b.clone(),
            p50: b.clone(),
            p99: b.clone(),
            p999: b,
            from_dram: 0.0,
        }
    }

    #[test]
    fn a_point_keeps_each_directions_mean_and_tails_in_f32() {
        let read = breakdown(
            1_000.1,
            &[(Part::Sense, 60.1), (Part::BehindPrograms, 940.0)],
        );
        let a = Anatomy {
            reads: Some(DirectionAnatomy {
                p99: breakdown(2_000.0, &[(Part::BehindGc, 2_000.0)]),
                ..direction(read)
            }),
            writes: None,
        };
        let kept = PointAnatomy::of(&a);
        let reads = kept.reads.unwrap();
        assert_eq!(reads.mean.latency_us, 1_000.1f32);
        assert_eq!(reads.mean.part_us(Part::Sense), 60.1f32);
        assert_eq!(reads.mean.part_us(Part::BehindPrograms), 940.0);
        assert_eq!(reads.mean.part_us(Part::HostQueue), 0.0);
        assert_eq!(reads.p99.part_us(Part::BehindGc), 2_000.0);
        assert_eq!(reads.p999, reads.mean);
        assert_eq!(kept.writes, None, "no writes, no row of zeros");
        assert!(!kept.is_empty());
        assert!(PointAnatomy::of(&Anatomy::default()).is_empty());
    }

    #[test]
    fn an_anatomy_crosses_as_json_bit_for_bit() {
        // Every f32 from the smallest to 5e8 µs is as likely (a linear congruential walk over
        // their bits), through the protocol's JSON and back.
        let mut parts_us = [0.0f32; PARTS];
        let mut bits = 1u32;
        for round in 0..2_000 {
            for p in parts_us.iter_mut() {
                bits = bits.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                *p = f32::from_bits(bits % 0x4e00_0000);
            }
            let sent = PartsUs {
                latency_us: parts_us.iter().sum(),
                parts_us,
            };
            let text = serde_json::to_string(&sent).unwrap();
            let back: PartsUs = serde_json::from_str(&text).unwrap();
            for (a, b) in sent.parts_us.iter().zip(back.parts_us) {
                assert_eq!(a.to_bits(), b.to_bits(), "round {round}: {text}");
            }
        }
    }
}
