//! A controller's spec-sheet peaks: the four figures a spec sheet gives, as plain data a preset
//! carries. [`crate::spec_sheet`] runs the model against them.

use std::fmt;

use serde::Serialize;

use super::Rw;

/// One of the four figures a spec sheet gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Figure {
    SeqRead,
    SeqWrite,
    RandRead,
    RandWrite,
}

impl Figure {
    pub const ALL: [Figure; 4] = [
        Figure::SeqRead,
        Figure::SeqWrite,
        Figure::RandRead,
        Figure::RandWrite,
    ];

    pub(crate) fn rw(self) -> Rw {
        match self {
            Figure::SeqRead => Rw::Read,
            Figure::SeqWrite => Rw::Write,
            Figure::RandRead => Rw::RandRead,
            Figure::RandWrite => Rw::RandWrite,
        }
    }

    pub fn unit(self) -> &'static str {
        match self {
            Figure::SeqRead | Figure::SeqWrite => "MB/s",
            Figure::RandRead | Figure::RandWrite => "IOPS",
        }
    }
}

impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Figure::SeqRead => "128 KiB sequential read, QD32",
            Figure::SeqWrite => "128 KiB sequential write, QD32",
            Figure::RandRead => "4 KiB random read, best QD",
            Figure::RandWrite => "4 KiB random write, best QD",
        })
    }
}

/// A controller's spec-sheet peaks (Phison's spec sheets, \[REF2\] in [`crate::presets`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpecPeaks {
    pub seq_read_mb_s: f64,
    pub seq_write_mb_s: f64,
    pub rand_read_iops: f64,
    pub rand_write_iops: f64,
}

impl SpecPeaks {
    pub fn get(&self, figure: Figure) -> f64 {
        match figure {
            Figure::SeqRead => self.seq_read_mb_s,
            Figure::SeqWrite => self.seq_write_mb_s,
            Figure::RandRead => self.rand_read_iops,
            Figure::RandWrite => self.rand_write_iops,
        }
    }
}
