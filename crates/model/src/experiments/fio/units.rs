//! fio's numbers as it prints them: counts with `k`/`M` suffixes, data rates and sizes in its
//! binary or decimal units, and latencies in the unit a line names.
//!
//! What always holds: every reader returns `None` for what it cannot read (never a panic, never
//! a negative or non-finite value), so the format readers name the line instead.
//!
//! Why two unit systems: fio 2.x prints binary multiples with decimal names (`KB` is 1,024
//! bytes: `kb_base=1024`, its default then); fio 3.x prints `KiB` for 1,024 and `kB` for 1,000
//! (fio 3.0's release notes, "units are now IEC"). The readers say which era a line is from.

/// Which era's unit names a line uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Units {
    /// fio 2.x: `KB`, `MB`, `GB` are 1,024-based.
    Legacy,
    /// fio 3.x: `KiB`, `MiB` are 1,024-based; `kB`, `MB` 1,000-based.
    Iec,
}

/// A count as fio prints it: `30864`, `30.9k`, `1.25M` (decimal multiples).
pub(super) fn count(s: &str) -> Option<f64> {
    let s = s.trim();
    let (digits, mult) = match s.char_indices().last()? {
        (i, 'k' | 'K') => (&s[..i], 1e3),
        (i, 'm' | 'M') => (&s[..i], 1e6),
        (i, 'g' | 'G') => (&s[..i], 1e9),
        (i, 't' | 'T') => (&s[..i], 1e12),
        _ => (s, 1.0),
    };
    plain(digits).map(|v| v * mult)
}

/// A plain non-negative finite decimal number.
pub(super) fn plain(s: &str) -> Option<f64> {
    let s = s.trim();
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Bytes per unit of a size or rate unit (`KiB`, `kB`, `MB`, `B`, ...), read in `units`' era.
fn unit_bytes(unit: &str, units: Units) -> Option<f64> {
    let (prefix, binary_name) = match unit.strip_suffix("iB") {
        Some(p) => (p, true),
        None => match unit.strip_suffix('B') {
            Some(p) => (p, false),
            None => (unit, false),
        },
    };
    let power = match prefix {
        "" => 0,
        "k" | "K" => 1,
        "m" | "M" => 2,
        "g" | "G" => 3,
        "t" | "T" => 4,
        "p" | "P" => 5,
        _ => return None,
    };
    let base: f64 = if binary_name || units == Units::Legacy {
        1024.0
    } else {
        1000.0
    };
    Some(base.powi(power))
}

/// A data rate such as `121MiB/s`, `126MB/s` or `123456KB/s`, in bytes per second.
pub(super) fn rate(s: &str, units: Units) -> Option<f64> {
    let s = s.trim().strip_suffix("/s")?;
    size(s, units)
}

/// A size such as `242MiB`, `1024.0MB` or `4096B`, in bytes.
pub(super) fn size(s: &str, units: Units) -> Option<f64> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (number, unit) = s.split_at(split);
    Some(plain(number)? * unit_bytes(unit.trim(), units)?)
}

/// A block size in a job's options or its header line (`4k`, `4K`, `4096B`, `128KiB`, `1m`):
/// always 1,024-based, as fio reads block sizes.
pub(super) fn block_size(s: &str) -> Option<u32> {
    let bytes = size(s, Units::Legacy)?;
    (bytes >= 1.0 && bytes <= f64::from(u32::MAX) && bytes.fract() == 0.0).then_some(bytes as u32)
}

/// Nanoseconds per unit of a latency line's `(usec)`, `(nsec)`, `(msec)` or `(sec)`.
pub(super) fn time_unit_ns(unit: &str) -> Option<f64> {
    match unit.trim() {
        "nsec" | "ns" => Some(1.0),
        "usec" | "us" => Some(1e3),
        "msec" | "ms" => Some(1e6),
        "sec" | "s" => Some(1e9),
        _ => None,
    }
}

/// The text between `key` (such as `avg=`) and the next `,` (or the end) in `line`.
pub(super) fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = find_key(line, key)?;
    let rest = &line[at + key.len()..];
    let end = rest.find(',').unwrap_or(rest.len());
    Some(rest[..end].trim())
}

/// Where `key` starts in `line` as a whole key (not the tail of a longer one: `avg=` is not
/// found in `bwavg=`).
fn find_key(line: &str, key: &str) -> Option<usize> {
    line.match_indices(key).map(|(at, _)| at).find(|&at| {
        line[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_ascii_alphanumeric())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_fios_decimal_suffixes() {
        assert_eq!(count("30864"), Some(30864.0));
        assert_eq!(count("30.9k"), Some(30_900.0));
        assert_eq!(count("1.25M"), Some(1_250_000.0));
        assert_eq!(count("-3"), None);
        assert_eq!(count("k"), None);
        assert_eq!(count(""), None);
        assert_eq!(count("1e999"), None);
    }

    #[test]
    fn rates_read_in_the_era_of_their_line() {
        // fio 3.x: "BW=121MiB/s (126MB/s)": the same rate in two units.
        assert_eq!(rate("121MiB/s", Units::Iec), Some(121.0 * 1_048_576.0));
        assert_eq!(rate("126MB/s", Units::Iec), Some(126e6));
        assert_eq!(rate("512kB/s", Units::Iec), Some(512e3));
        // fio 2.x: "bw=123456KB/s" is KiB/s.
        assert_eq!(rate("123456KB/s", Units::Legacy), Some(123_456.0 * 1024.0));
        assert_eq!(rate("7B/s", Units::Iec), Some(7.0));
        assert_eq!(rate("12XB/s", Units::Iec), None);
        assert_eq!(rate("12MB", Units::Iec), None);
    }

    #[test]
    fn block_sizes_are_binary_whatever_their_name() {
        for (s, bytes) in [
            ("4k", 4096),
            ("4K", 4096),
            ("4096B", 4096),
            ("128KiB", 131_072),
            ("1m", 1_048_576),
            ("512", 512),
        ] {
            assert_eq!(block_size(s), Some(bytes), "{s}");
        }
        assert_eq!(block_size("0.5B"), None);
        assert_eq!(block_size("99999999999k"), None);
    }

    #[test]
    fn fields_are_found_by_whole_key() {
        let line = "clat (usec): min=50, max=2000, avg=250.12, stdev=30.00";
        assert_eq!(field(line, "avg="), Some("250.12"));
        assert_eq!(field(line, "stdev="), Some("30.00"));
        assert_eq!(field("bwavg=3, avg=4", "avg="), Some("4"));
        assert_eq!(field(line, "mean="), None);
        assert_eq!(time_unit_ns("nsec"), Some(1.0));
        assert_eq!(time_unit_ns("msec"), Some(1e6));
        assert_eq!(time_unit_ns("hours"), None);
    }
}
