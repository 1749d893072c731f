//! Text in and out: the one decoding every reader of the reader's files shares (fio's output,
//! job files, traces), so a file saved by another tool reads the same in `lab` and the page; and
//! the one way a figure's digits are grouped and a share is written as a percentage, for the
//! words the model writes and the page's.
//!
//! What always holds: any bytes give text (never an error or a panic); what the decoding
//! replaced shows as U+FFFD, which each parser then names by line.

/// A file's bytes as text: UTF-8 (a byte-order mark dropped, invalid bytes replaced, since
/// every reader here names what it cannot read), or UTF-16 with its byte-order mark (what
/// Windows PowerShell's `>` writes).
///
/// ```
/// use parallelism_model::text::text_of;
/// let utf16: Vec<u8> = [0xFF, 0xFE].into_iter()
///     .chain("fio-3.33\n".encode_utf16().flat_map(u16::to_le_bytes))
///     .collect();
/// assert_eq!(text_of(&utf16), "fio-3.33\n");
/// assert_eq!(text_of(b"\xEF\xBB\xBFfio"), "fio");
/// ```
pub fn text_of(bytes: &[u8]) -> String {
    let utf16 = |rest: &[u8], word: fn([u8; 2]) -> u16| {
        let units: Vec<u16> = rest.chunks_exact(2).map(|c| word([c[0], c[1]])).collect();
        String::from_utf16_lossy(&units)
    };
    match bytes {
        [0xFF, 0xFE, rest @ ..] => utf16(rest, u16::from_le_bytes),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, u16::from_be_bytes),
        [0xEF, 0xBB, 0xBF, rest @ ..] => String::from_utf8_lossy(rest).into_owned(),
        _ => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// A figure rounded to a whole number, its digits grouped by thousands: `263,839`. Whatever is
/// not finite is written as Rust writes it (`NaN`, `inf`); the page shows a dash instead.
///
/// ```
/// use parallelism_model::text::grouped;
/// assert_eq!(grouped(2_399.6), "2,400");
/// assert_eq!(grouped(-1_234_567.0), "-1,234,567");
/// assert_eq!(grouped(999.4), "999");
/// assert_eq!(grouped(1_234.5), "1,235");
/// ```
pub fn grouped(v: f64) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    // Rounded half away from zero, as `f64::round` does (formatting with `{:.0}` would round
    // half to even).
    let digits = (v.round().abs() as u64).to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if v.round() < 0.0 {
        out.insert(0, '-');
    }
    out
}

/// A share (0.0 to 1.0) as a whole percentage: `85%`. Whatever is not finite is written as Rust
/// writes it; the page shows a dash instead.
///
/// ```
/// use parallelism_model::text::percent;
/// assert_eq!(percent(0.853), "85%");
/// assert_eq!(percent(3.0), "300%");
/// ```
pub fn percent(share: f64) -> String {
    if !share.is_finite() {
        return share.to_string();
    }
    format!("{:.0}%", share * 100.0)
}
