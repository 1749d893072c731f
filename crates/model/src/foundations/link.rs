//! The host link: the pipe every byte crosses between host memory and the drive.
//!
//! Raw rates are per direction after line coding, as the interface standards give
//! them (SATA 6 Gb/s ≈ 600 MB/s with 8b/10b; PCIe 3.0 ≈ 985 MB/s per lane; PCIe 4.0 ≈ 1.97 GB/s
//! per lane; PCIe 5.0 ≈ 3.94 GB/s per lane, all with 128b/130b). PCIe is full duplex (reads and
//! writes each have their own direction); SATA is half duplex, so its two directions share one
//! pipe. What protocol overhead takes off the raw rate is the controller's `link_efficiency`.

/// Bytes of framing, sequence number, header and LCRC around each PCIe transaction-layer packet.
const TLP_OVERHEAD_BYTES: f64 = 24.0;
/// The maximum payload per packet that hosts of these drives configure.
const MAX_PAYLOAD_BYTES: f64 = 256.0;
/// Share of the lanes the data-link packets (acknowledgements and flow-control updates) take
/// (assumption: typical of hosts of 2018-2022).
const DLLP_SHARE: f64 = 0.01;

/// A host interface generation and width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostLink {
    Sata3,
    Pcie3x2,
    Pcie3x4,
    Pcie4x4,
    Pcie5x4,
}

crate::named_enum!(HostLink, "host link", id, {
    Sata3 => "sata3",
    Pcie3x2 => "pcie3x2",
    Pcie3x4 => "pcie3x4",
    Pcie4x4 => "pcie4x4",
    Pcie5x4 => "pcie5x4",
});

impl HostLink {
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

    /// Share of the raw rate a PCIe drive's reads carry as data: posted writes of the 256-byte
    /// maximum payload, each with ~24 bytes of framing, sequence number, 3-DW header and LCRC
    /// (256 / 280), less about 1% for the data-link packets (acknowledgements and flow-control
    /// updates) that share the lanes (assumption: typical of hosts of 2018-2022). SATA's
    /// efficiency is its controller's own (see the presets).
    pub const fn posted_efficiency(self) -> f64 {
        MAX_PAYLOAD_BYTES / (MAX_PAYLOAD_BYTES + TLP_OVERHEAD_BYTES) * (1.0 - DLLP_SHARE)
    }

    /// The link efficiencies a drive on this link can plausibly have, lowest first: the range
    /// a fit of a reader's drive searches.
    ///
    /// PCIe: at most what 512-byte payloads carry (512 / 536, less the data-link packets), the
    /// largest maximum payload hosts of these drives configure (assumption); at least what the
    /// slowest controller's spec sheet implies: the E7 reads 2,600 MB/s sequentially on PCIe
    /// 3.0 x4's 3,940 (Phison's spec sheets), 66% (its own limit, which the lab counts as the link's).
    /// SATA: 550 MB/s of 600 is what fast SATA drives reach (the SATA standard's usable rate, 0.92); a
    /// data FIS of 8 KiB carries 99% of its bytes, less the command and status FISes of each
    /// I/O, so at most 0.97, and at least 0.85 (assumptions).
    pub(crate) fn efficiency_range(self) -> (f64, f64) {
        const LARGEST_PAYLOAD_BYTES: f64 = 512.0;
        const E7_SPEC_READ_BYTES_PER_S: f64 = 2.6e9;
        const SATA: (f64, f64) = (0.85, 0.97);
        let largest = LARGEST_PAYLOAD_BYTES / (LARGEST_PAYLOAD_BYTES + TLP_OVERHEAD_BYTES)
            * (1.0 - DLLP_SHARE);
        match self {
            HostLink::Sata3 => SATA,
            _ => (
                E7_SPEC_READ_BYTES_PER_S / HostLink::Pcie3x4.raw_bytes_per_s(),
                largest,
            ),
        }
    }

    /// How much of the device-to-host efficiency the host-to-device direction keeps.
    ///
    /// An NVMe drive sends read data to the host as posted writes of up to the maximum payload
    /// (256 bytes on the hosts these drives ship in), but fetches write data with DMA reads, whose
    /// completions the host splits at its read completion boundary (128 bytes on most root
    /// complexes). Each TLP costs the same ~24 bytes of framing, sequence number, header and
    /// LCRC, so writes carry 128 / 152 where reads carry 256 / 280 (assumption: typical MPS,
    /// RCB and 3-DW headers, as PCIe hosts of 2018-2022 configure them). SATA has one shared
    /// direction and the same framing both ways.
    pub(crate) fn host_to_device_factor(self) -> f64 {
        const READ_COMPLETION_BOUNDARY_BYTES: f64 = 128.0;
        let carried = |payload: f64| payload / (payload + TLP_OVERHEAD_BYTES);
        match self {
            HostLink::Sata3 => 1.0,
            _ => carried(READ_COMPLETION_BOUNDARY_BYTES) / carried(MAX_PAYLOAD_BYTES),
        }
    }

    /// Whether reads and writes share one direction (SATA) or each have their own (PCIe).
    pub(crate) fn half_duplex(self) -> bool {
        matches!(self, HostLink::Sata3)
    }

    /// The interface as people write it.
    pub fn name(self) -> &'static str {
        match self {
            HostLink::Sata3 => "SATA 6 Gb/s",
            HostLink::Pcie3x2 => "PCIe 3.0 x2",
            HostLink::Pcie3x4 => "PCIe 3.0 x4",
            HostLink::Pcie4x4 => "PCIe 4.0 x4",
            HostLink::Pcie5x4 => "PCIe 5.0 x4",
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

    #[test]
    fn pcie_writes_carry_less_per_byte_than_reads_and_sata_the_same() {
        // 128-byte completions against 256-byte posted writes, 24 bytes of overhead each:
        // (128 / 152) / (256 / 280) = 0.921.
        let f = HostLink::Pcie3x4.host_to_device_factor();
        assert!((f - 0.9211).abs() < 1e-4, "{f}");
        assert_eq!(HostLink::Sata3.host_to_device_factor(), 1.0);
    }

    #[test]
    fn a_fit_searches_link_efficiencies_the_protocol_allows() {
        // PCIe: 2,600 / 3,938 MB/s = 0.660 to 512 / 536 x 0.99 = 0.946, so the E18DC's own
        // 256-byte figure (0.905) lies inside and the 0.3 a fit once found does not.
        let (lo, hi) = HostLink::Pcie4x4.efficiency_range();
        assert!((lo - 0.6602).abs() < 1e-4, "{lo}");
        assert!((hi - 0.9457).abs() < 1e-4, "{hi}");
        assert!(
            lo < HostLink::Pcie4x4.posted_efficiency()
                && HostLink::Pcie4x4.posted_efficiency() < hi
        );
        assert_eq!(HostLink::Sata3.efficiency_range(), (0.85, 0.97));
    }

    #[test]
    fn pcie_reads_carry_256_of_every_280_bytes_less_the_link_packets() {
        // 256 / 280 x 0.99 = 0.905: with PCIe 4.0 x4's 7.88 GB/s, 7.13 GB/s of data, the
        // ceiling of the E18DC's sequential reads (7,118 MB/s measured [REF1]).
        let e = HostLink::Pcie4x4.posted_efficiency();
        assert!((e - 0.9051).abs() < 1e-4, "{e}");
    }
}
