//! The host link: the pipe every byte crosses between host memory and the drive.
//!
//! Raw rates are per direction after line coding, as `../shared/reference/README.md` §5 lists
//! them (SATA 6 Gb/s ≈ 600 MB/s with 8b/10b; PCIe 3.0 ≈ 985 MB/s per lane; PCIe 4.0 ≈ 1.97 GB/s
//! per lane; PCIe 5.0 ≈ 3.94 GB/s per lane, all with 128b/130b). PCIe is full duplex (reads and
//! writes each have their own direction); SATA is half duplex, so its two directions share one
//! pipe. What protocol overhead takes off the raw rate is the controller's `link_efficiency`.

/// A host interface generation and width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostLink {
    Sata3,
    Pcie3x2,
    Pcie3x4,
    Pcie4x4,
    Pcie5x4,
}

impl HostLink {
    pub const ALL: [HostLink; 5] = [
        HostLink::Sata3,
        HostLink::Pcie3x2,
        HostLink::Pcie3x4,
        HostLink::Pcie4x4,
        HostLink::Pcie5x4,
    ];

    /// Raw bytes per second in one direction, after line coding.
    pub fn raw_bytes_per_s(self) -> f64 {
        // 6 Gb/s × 8/10; PCIe 8/16/32 GT/s × 128/130 per lane.
        const SATA3: f64 = 6e9 * 8.0 / 10.0 / 8.0;
        const PCIE3_LANE: f64 = 8e9 * 128.0 / 130.0 / 8.0;
        match self {
            HostLink::Sata3 => SATA3,
            HostLink::Pcie3x2 => 2.0 * PCIE3_LANE,
            HostLink::Pcie3x4 => 4.0 * PCIE3_LANE,
            HostLink::Pcie4x4 => 8.0 * PCIE3_LANE,
            HostLink::Pcie5x4 => 16.0 * PCIE3_LANE,
        }
    }

    /// Whether reads and writes share one direction (SATA) or each have their own (PCIe).
    pub fn half_duplex(self) -> bool {
        matches!(self, HostLink::Sata3)
    }

    pub fn name(self) -> &'static str {
        match self {
            HostLink::Sata3 => "SATA 6 Gb/s",
            HostLink::Pcie3x2 => "PCIe 3.0 x2",
            HostLink::Pcie3x4 => "PCIe 3.0 x4",
            HostLink::Pcie4x4 => "PCIe 4.0 x4",
            HostLink::Pcie5x4 => "PCIe 5.0 x4",
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            HostLink::Sata3 => "sata3",
            HostLink::Pcie3x2 => "pcie3x2",
            HostLink::Pcie3x4 => "pcie3x4",
            HostLink::Pcie4x4 => "pcie4x4",
            HostLink::Pcie5x4 => "pcie5x4",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_rates_match_the_reference_figures() {
        // reference README §5: SATA ≈ 550-600 MB/s usable, PCIe 3.0 x4 ≈ 3.9 GB/s,
        // PCIe 4.0 x4 ≈ 7.9 GB/s, PCIe 5.0 x4 ≈ 15.8 GB/s per direction.
        let gb = |l: HostLink| l.raw_bytes_per_s() / 1e9;
        assert!((gb(HostLink::Sata3) - 0.6).abs() < 0.01);
        assert!((gb(HostLink::Pcie3x4) - 3.94).abs() < 0.01);
        assert!((gb(HostLink::Pcie4x4) - 7.88).abs() < 0.01);
        assert!((gb(HostLink::Pcie5x4) - 15.75).abs() < 0.01);
        assert!(HostLink::Sata3.half_duplex() && !HostLink::Pcie4x4.half_duplex());
    }
}
