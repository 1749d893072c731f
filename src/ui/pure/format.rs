//! How numbers are written on the page: units always attached, precision that suits the size,
//! and a dash instead of `NaN` or `inf` (a number that is not finite is never shown).

/// Shown in place of a number that is missing or not finite.
pub const NO_VALUE: &str = "–";
const THOUSAND: f64 = 1e3;
const MILLION: f64 = 1e6;
const US_PER_MS: f64 = 1e3;
/// Microseconds in a second.
pub const US_PER_S: f64 = 1e6;
const KIB: u32 = 1024;
const MIB: u32 = 1024 * 1024;

/// A whole number with thousands separators: `263,839`.
pub fn grouped(v: f64) -> String {
    if !v.is_finite() {
        return NO_VALUE.into();
    }
    crate::model::text::grouped(v)
}

/// A count in a compact form: `9,876`, `13.1k`, `263.8k`, `1.25M`.
pub fn compact(v: f64) -> String {
    if !v.is_finite() {
        return NO_VALUE.into();
    }
    let a = v.abs();
    if a < 10.0 * THOUSAND {
        grouped(v)
    } else if a < MILLION {
        format!("{:.1}k", v / THOUSAND)
    } else {
        format!("{:.2}M", v / MILLION)
    }
}

/// A decimal without trailing zeros: `2.50` becomes `2.5`, `3.0` becomes `3`.
fn trim(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// An axis label for a count: as short as possible (`0`, `500`, `200k`, `1.2M`).
pub fn axis_count(v: f64) -> String {
    if !v.is_finite() {
        return NO_VALUE.into();
    }
    let a = v.abs();
    if a < THOUSAND {
        trim(format!("{v:.1}"))
    } else if a < MILLION {
        trim(format!("{:.1}", v / THOUSAND)) + "k"
    } else {
        trim(format!("{:.2}", v / MILLION)) + "M"
    }
}

/// IOPS for a readout: `263.8k IOPS`.
pub fn iops(v: f64) -> String {
    format!("{} IOPS", compact(v))
}

/// An offered rate, exact as the rate slider sets it: `500,000 IOPS`.
pub fn rate_iops(v: u32) -> String {
    format!("{} IOPS", grouped(f64::from(v)))
}

/// Throughput: `1,077 MB/s`, `9.5 MB/s`.
pub fn mb_s(v: f64) -> String {
    if !v.is_finite() {
        return NO_VALUE.into();
    }
    if v.abs() < 10.0 {
        format!("{v:.1} MB/s")
    } else {
        format!("{} MB/s", grouped(v))
    }
}

/// Power: `2.3 W`, `0.58 W`, `49 mW`.
pub fn watts(w: f64) -> String {
    if !w.is_finite() {
        return NO_VALUE.into();
    }
    if w.abs() < 0.1 {
        format!("{} mW", trim(format!("{:.1}", w * 1e3)))
    } else if w.abs() < 1.0 {
        format!("{w:.2} W")
    } else {
        format!("{} W", trim(format!("{w:.1}")))
    }
}

/// A latency given in microseconds: `7.5 µs`, `75 µs`, `1.23 ms`, `13.9 ms`, `1.2 s`.
pub fn latency_us(us: f64) -> String {
    if !us.is_finite() {
        return NO_VALUE.into();
    }
    let a = us.abs();
    if a < 10.0 {
        format!("{us:.1} µs")
    } else if a < US_PER_MS {
        format!("{us:.0} µs")
    } else if a < 10.0 * US_PER_MS {
        format!("{:.2} ms", us / US_PER_MS)
    } else if a < US_PER_S {
        format!("{:.1} ms", us / US_PER_MS)
    } else {
        format!("{:.1} s", us / US_PER_S)
    }
}

/// An axis label for a latency in microseconds: `50 µs`, `1 ms`, `2.5 ms`.
pub fn axis_latency_us(us: f64) -> String {
    if !us.is_finite() {
        return NO_VALUE.into();
    }
    let (v, unit) = if us.abs() >= US_PER_S {
        (us / US_PER_S, "s")
    } else if us.abs() >= US_PER_MS {
        (us / US_PER_MS, "ms")
    } else {
        (us, "µs")
    };
    format!("{} {unit}", axis_count(v))
}

/// A capacity: `1,920 GB`, or `3.75 GB` for a small unlisted capacity.
pub fn gb(v: f64) -> String {
    if !v.is_finite() {
        return NO_VALUE.into();
    }
    if (v - v.round()).abs() < 0.005 || v >= 100.0 {
        format!("{} GB", grouped(v))
    } else {
        format!("{v:.2} GB")
    }
}

/// A block size: `4 KiB`, `128 KiB`, `1 MiB`.
pub fn block_size(bytes: u32) -> String {
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes.is_multiple_of(KIB) {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} B")
    }
}

/// A percentage of a fraction (0.0-1.0): `85%`.
pub fn percent(share: f64) -> String {
    if !share.is_finite() {
        return NO_VALUE.into();
    }
    crate::model::text::percent(share)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(grouped(263_839.4), "263,839");
        assert_eq!(grouped(999.0), "999");
        assert_eq!(grouped(1_000_000.0), "1,000,000");
        assert_eq!(grouped(-1234.0), "-1,234");
    }

    #[test]
    fn compact_counts_keep_three_significant_digits_or_more() {
        assert_eq!(compact(9_876.0), "9,876");
        assert_eq!(compact(13_095.0), "13.1k");
        assert_eq!(compact(646_007.0), "646.0k");
        assert_eq!(compact(1_250_000.0), "1.25M");
        assert_eq!(iops(263_839.0), "263.8k IOPS");
    }

    #[test]
    fn latencies_switch_units_as_they_grow() {
        assert_eq!(latency_us(7.46), "7.5 µs");
        assert_eq!(latency_us(75.2), "75 µs");
        assert_eq!(latency_us(1234.0), "1.23 ms");
        assert_eq!(latency_us(13_882.0), "13.9 ms");
        assert_eq!(latency_us(2.5e6), "2.5 s");
    }

    #[test]
    fn axis_labels_are_short() {
        assert_eq!(axis_count(0.0), "0");
        assert_eq!(axis_count(500.0), "500");
        assert_eq!(axis_count(200_000.0), "200k");
        assert_eq!(axis_count(1_200_000.0), "1.2M");
        assert_eq!(axis_latency_us(50.0), "50 µs");
        assert_eq!(axis_latency_us(2500.0), "2.5 ms");
        assert_eq!(axis_latency_us(1000.0), "1 ms");
    }

    #[test]
    fn sizes_and_shares_carry_their_units() {
        assert_eq!(gb(1920.0), "1,920 GB");
        assert_eq!(gb(3.75), "3.75 GB");
        assert_eq!(block_size(4096), "4 KiB");
        assert_eq!(block_size(1 << 20), "1 MiB");
        assert_eq!(mb_s(7118.4), "7,118 MB/s");
        assert_eq!(percent(0.853), "85%");
    }

    #[test]
    fn numbers_that_are_not_finite_never_show() {
        for f in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(compact(f), NO_VALUE);
            assert_eq!(latency_us(f), NO_VALUE);
            assert_eq!(mb_s(f), NO_VALUE);
            assert_eq!(axis_count(f), NO_VALUE);
            assert_eq!(gb(f), NO_VALUE);
        }
    }
}
