//! Block traces in: the formats people have, read into one compact list of requests.
//!
//! Formats ([`TraceFormat`]), each with one example line:
//! - `mqsim`: MQSim's ASCII traces, `arrival_ns device start_sector sectors type` with 512-byte
//!   sectors and type 0 for a write, 1 for a read: `4851300 1 524288 16 0`.
//! - `blkparse`: blkparse's default text output; the queue events (`Q`) are the requests, as an
//!   application issued them (the driver's `D` events where a trace has no `Q`):
//!   `  8,0    3        1     0.000000000  4162  Q   W 223490 + 8 [kjournald]`.
//! - `iolog2` and `iolog3`: what fio's `write_iolog` writes, `file action offset length` (version
//!   2, timed only by `wait` actions in microseconds) or `time_us file action offset length`
//!   (version 3): `2308 /tmp/scratch.bin read 3534848 4096`.
//! - `msr`: the SNIA / MSR-Cambridge CSV traces, `timestamp,host,disk,type,offset,size,response`
//!   with Windows file-time stamps (100 ns ticks): `128166372003061629,hm,1,Read,3154265088,4096,1285`.
//!
//! # What always holds
//! - A request covers whole 4 KiB mapping units: its start rounds down and its end up (a
//!   512-byte write is a 4 KiB read-modify-write to the flash), and one larger than 1 MiB is
//!   split into 1 MiB requests at the same time. Each is held in 16 bytes.
//! - Requests a drive cannot hold as they are get one rule each, never silence (the README's
//!   trace section lists them):
//!   - a zero-length request moves no data: it is skipped and counted ([`Trace::zero_length`]);
//!   - one larger than [`MAX_REQUEST_BYTES`] (more than [`MAX_PIECES`] pieces of 1 MiB) is
//!     refused by its line: no block layer issues one, and its pieces would flood the replay;
//!   - one reaching past [`MAX_TRACE_BYTES`] (16 TiB, what 32-bit unit numbers address) is
//!     refused by its line;
//!   - one past the end of the drive it is replayed on wraps onto the drive, its start taken
//!     modulo the drive's size as MQSim's trace reader does (and pulled back to end at the
//!     drive's end if it would cross it); [`Trace::adjusted`] counts them for the replay's
//!     report. A request larger than the drive can only meet a made-up drive smaller than
//!     the cap, and wraps piece by piece the same way.
//! - Requests are in time order, from time 0 (the first request's time); lines that are not
//!   reads or writes (flushes, trims, opens, blkparse's other events and summary) are skipped
//!   and counted.
//! - Any input gives a [`Trace`] or a [`FileError`] listing the first problems by line and
//!   counting the rest: an empty file, a binary file and a trace past
//!   [`MAX_TRACE_REQUESTS`] each get one clear line; nothing panics.

use std::io::BufRead;
use std::ops::ControlFlow;

use crate::config::{MAPPING_UNIT_BYTES, MAX_BLOCK_BYTES};

use super::FileError;

/// Most requests one trace holds (320 MB at 16 bytes each): a day of a busy desktop.
pub const MAX_TRACE_REQUESTS: usize = 20_000_000;
/// What the file is called in its problems.
const WHAT: &str = "trace";
/// Largest request in 4 KiB units; larger ones are split.
const MAX_UNITS: u64 = (MAX_BLOCK_BYTES / MAPPING_UNIT_BYTES) as u64;
const SECTOR_BYTES: u64 = 512;
/// The most 1 MiB pieces one request of a trace splits into; larger requests are refused.
pub const MAX_PIECES: u64 = 256;
/// The largest request a trace may hold: [`MAX_PIECES`] pieces of 1 MiB.
pub const MAX_REQUEST_BYTES: u64 = MAX_PIECES * MAX_BLOCK_BYTES as u64;
/// The addresses a trace may reach: 2^32 units of 4 KiB (16 TiB).
pub const MAX_TRACE_BYTES: u64 = (1 << 32) * MAPPING_UNIT_BYTES as u64;

/// The trace formats the lab reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceFormat {
    Mqsim,
    Blkparse,
    Iolog2,
    Iolog3,
    Msr,
}

crate::named_enum!(TraceFormat, "trace format", id, {
    Mqsim => "mqsim",
    Blkparse => "blkparse",
    Iolog2 => "iolog2",
    Iolog3 => "iolog3",
    Msr => "msr",
});

/// One request of a trace, in 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceRequest {
    /// Arrival since the trace's first request, in nanoseconds.
    pub at_ns: u64,
    /// First 4 KiB unit.
    pub start_unit: u32,
    /// Length in 4 KiB units, 1..=256.
    pub units: u16,
    pub write: bool,
}

impl TraceRequest {
    pub fn offset_bytes(self) -> u64 {
        u64::from(self.start_unit) * u64::from(MAPPING_UNIT_BYTES)
    }

    pub fn bytes(self) -> u32 {
        u32::from(self.units) * MAPPING_UNIT_BYTES
    }

    /// Whether the request reaches past the end of a drive of `drive_units` 4 KiB units.
    pub fn wraps(self, drive_units: u64) -> bool {
        u64::from(self.start_unit) + u64::from(self.units) > drive_units
    }

    /// Where the request lands on a drive of `drive_units` (at least one) 4 KiB units: its
    /// first unit and length. A start past the end wraps modulo the drive's size, as MQSim's
    /// trace reader does; a request that would then cross the end is pulled back to end there,
    /// and one longer than the drive is cut to it.
    pub fn placed(self, drive_units: u64) -> (u64, u64) {
        let drive_units = drive_units.max(1);
        let units = u64::from(self.units).min(drive_units);
        let start = (u64::from(self.start_unit) % drive_units).min(drive_units - units);
        (start, units)
    }
}

/// What a replay did to the requests a drive cannot take as they are: counted, so a report
/// can say so. Empty when every request was replayed as the trace has it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Adjusted {
    /// Reads and writes of no bytes, skipped.
    pub zero_length: u64,
    /// Requests past the drive's end, wrapped onto it.
    pub wrapped: u64,
}

impl Adjusted {
    pub fn is_empty(self) -> bool {
        self == Adjusted::default()
    }
}

impl std::fmt::Display for Adjusted {
    /// Each count in words (`3 zero-length requests skipped (they move no data); 12 requests
    /// ...`); nothing when nothing was adjusted.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural = |n: u64| if n == 1 { "request" } else { "requests" };
        let mut parts = Vec::new();
        if self.zero_length > 0 {
            let n = self.zero_length;
            parts.push(format!(
                "{} zero-length {} skipped (they move no data)",
                crate::text::grouped(n as f64),
                plural(n)
            ));
        }
        if self.wrapped > 0 {
            let n = self.wrapped;
            parts.push(format!(
                "{} {} past the drive's end wrapped onto it (its start taken modulo the drive's \
                 size)",
                crate::text::grouped(n as f64),
                plural(n)
            ));
        }
        f.write_str(&parts.join("; "))
    }
}

/// A trace read: its requests in time order.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub format: TraceFormat,
    pub requests: Vec<TraceRequest>,
    /// Lines that were not reads or writes (skipped).
    pub skipped: u64,
    /// Reads and writes of no bytes (skipped: they move no data).
    pub zero_length: u64,
    /// Whether the trace carries times (a version 2 iolog without `wait` does not: it can only
    /// be replayed as fast as the drive allows).
    pub timed: bool,
}

impl Trace {
    /// A trace of the given requests, sorted into time order (for generated workloads).
    pub fn from_requests(format: TraceFormat, mut requests: Vec<TraceRequest>) -> Trace {
        requests.sort_by_key(|r| r.at_ns);
        Trace {
            format,
            requests,
            skipped: 0,
            zero_length: 0,
            timed: true,
        }
    }

    /// What a replay on a drive of `drive_bytes` does to the requests it cannot take as
    /// they are.
    ///
    /// ```
    /// use parallelism_model::workload::trace;
    /// // A read at 1 GiB and one at 3 GiB, on a drive of 2 GiB: the second wraps.
    /// let t = trace::read("0 1 2097152 8 1\n10 1 6291456 8 1\n".as_bytes(), None).unwrap();
    /// let adjusted = t.adjusted(2 << 30);
    /// assert_eq!(adjusted.wrapped, 1);
    /// assert_eq!(
    ///     adjusted.to_string(),
    ///     "1 request past the drive's end wrapped onto it (its start taken modulo the drive's size)"
    /// );
    /// ```
    pub fn adjusted(&self, drive_bytes: u64) -> Adjusted {
        let drive_units = drive_bytes / u64::from(MAPPING_UNIT_BYTES);
        Adjusted {
            zero_length: self.zero_length,
            wrapped: self
                .requests
                .iter()
                .filter(|r| r.wraps(drive_units))
                .count() as u64,
        }
    }

    /// Time from the first request's arrival to the last one's.
    pub fn span_ns(&self) -> u64 {
        self.requests.last().map_or(0, |r| r.at_ns)
    }
}

/// One line's request before it is cut into 4 KiB units.
struct Raw {
    /// Nanoseconds on the trace's own clock (any origin).
    at_ns: u64,
    offset: u64,
    len: u64,
    write: bool,
}

/// What a line holds.
enum Line {
    Request(Raw),
    /// A line that is not a read or write (counted).
    Other,
    /// A line of no interest (a header, a blank, blkparse's summary).
    Nothing,
}

/// Read a trace; `format` `None` tells it from the first line that says.
///
/// ```
/// use parallelism_model::workload::trace::{self, TraceFormat};
/// let t = trace::read("4851300 1 524288 16 0\n4864300 1 8 1 1\n".as_bytes(), None).unwrap();
/// assert_eq!(t.format, TraceFormat::Mqsim);
/// assert_eq!(t.requests[1].at_ns, 13_000);
/// assert_eq!((t.requests[0].bytes(), t.requests[0].write), (8192, true));
/// assert_eq!(t.requests[1].bytes(), 4096, "a 512-byte read covers one 4 KiB unit");
/// ```
pub fn read(mut input: impl BufRead, format: Option<TraceFormat>) -> Result<Trace, FileError> {
    let mut reader = Reader::new(format);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(FileError::whole(WHAT, format!("cannot read it: {e}"))),
        }
        if reader.take(&buf)?.is_break() {
            break;
        }
    }
    reader.finish()
}

/// A trace read from text the caller holds, a few lines at a time, so a worker can read a
/// large file in slices and stay responsive (to a Cancel, say). [`read`] reads a stream at
/// once; both read each line the same way.
///
/// ```
/// use parallelism_model::workload::trace::TraceParser;
/// let text = "4851300 1 524288 16 0\n4864300 1 8 1 1\n".to_string();
/// let mut p = TraceParser::new(text, None);
/// assert!(p.step(1).is_none(), "one line read, one to go");
/// assert_eq!(p.progress(), (22, 38));
/// let t = p.step(1).unwrap().unwrap();
/// assert_eq!(t.requests.len(), 2);
/// ```
pub struct TraceParser {
    text: String,
    /// Bytes of `text` read so far.
    at: usize,
    reader: Reader,
}

impl TraceParser {
    /// A parser of `text`; `format` `None` tells it from the first line that says.
    pub fn new(text: String, format: Option<TraceFormat>) -> TraceParser {
        TraceParser {
            text,
            at: 0,
            reader: Reader::new(format),
        }
    }

    /// Reads at most `max_lines` more lines; the trace (or why it is refused) once the text is
    /// read.
    pub fn step(&mut self, max_lines: usize) -> Option<Result<Trace, FileError>> {
        for _ in 0..max_lines {
            let rest = &self.text.as_bytes()[self.at..];
            if rest.is_empty() {
                break;
            }
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(rest.len(), |i| i + 1);
            self.at += end;
            match self.reader.take(&rest[..end]) {
                Err(e) => return Some(Err(e)),
                Ok(ControlFlow::Break(())) => self.at = self.text.len(),
                Ok(ControlFlow::Continue(())) => {}
            }
        }
        (self.at >= self.text.len()).then(|| {
            let reader = std::mem::replace(&mut self.reader, Reader::new(None));
            reader.finish()
        })
    }

    /// Bytes read, and the text's length.
    pub fn progress(&self) -> (usize, usize) {
        (self.at, self.text.len())
    }
}

struct Reader {
    format: Option<TraceFormat>,
    requests: Vec<TraceRequest>,
    skipped: u64,
    zero_length: u64,
    problems: FileError,
    /// iolog v2: the time the `wait` actions have added up to, and whether there were any.
    wait_ns: u64,
    waits: bool,
    /// blkparse: the driver's (`D`) requests, kept in case the trace has no queue events.
    blk_dispatch: Vec<Raw>,
    blk_queued: bool,
    /// Lines read so far.
    lines: usize,
}

impl Reader {
    fn new(format: Option<TraceFormat>) -> Reader {
        Reader {
            format,
            requests: Vec::new(),
            skipped: 0,
            zero_length: 0,
            problems: FileError::new(WHAT),
            wait_ns: 0,
            waits: false,
            blk_dispatch: Vec::new(),
            blk_queued: false,
            lines: 0,
        }
    }

    /// Reads the next line (its bytes, with or without the line break): `Break` once enough is
    /// known to refuse the trace, an error for a trace refused as a whole.
    fn take(&mut self, bytes: &[u8]) -> Result<ControlFlow<()>, FileError> {
        self.lines += 1;
        if bytes.contains(&0) {
            return Err(FileError::whole(
                WHAT,
                "binary data, not a text trace (mqsim, blkparse, iolog2, iolog3 or msr)",
            ));
        }
        let text = String::from_utf8_lossy(bytes);
        self.line(self.lines, text.trim());
        if self.requests.len() > MAX_TRACE_REQUESTS {
            return Err(FileError::whole(
                WHAT,
                format!("more than {MAX_TRACE_REQUESTS} requests; cut the trace into parts"),
            ));
        }
        // Enough is known to refuse it; count no further.
        Ok(if self.problems.is_full() && self.lines > 1000 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        })
    }

    fn problem(&mut self, n: usize, why: String) {
        self.problems.add(n, why);
    }

    fn line(&mut self, n: usize, line: &str) {
        if line.is_empty() || line.starts_with('#') {
            return;
        }
        let format = match self.format {
            Some(f) => f,
            None => match detect(line) {
                Some(f) => {
                    self.format = Some(f);
                    f
                }
                None => {
                    return self.problem(
                        n,
                        "cannot tell the trace's format from this line (mqsim: `4851300 1 524288 16 0`; \
                         blkparse: `8,0 3 1 0.000000000 4162 Q W 223490 + 8 [cp]`; iolog: \
                         `fio version 3 iolog`; msr: `128166372003061629,hm,1,Read,3154265088,4096,1285`)"
                            .to_string(),
                    )
                }
            },
        };
        let parsed = match format {
            TraceFormat::Mqsim => mqsim(line),
            TraceFormat::Blkparse => self.blkparse(line),
            TraceFormat::Iolog2 => self.iolog(line, false),
            TraceFormat::Iolog3 => self.iolog(line, true),
            TraceFormat::Msr => msr(line),
        };
        if let Err(why) = parsed.and_then(|line| self.take_line(line)) {
            self.problem(n, why);
        }
    }

    fn take_line(&mut self, line: Line) -> Result<(), String> {
        match line {
            Line::Request(raw) => self.push(raw)?,
            Line::Other => self.skipped += 1,
            Line::Nothing => {}
        }
        Ok(())
    }

    /// Takes a request: refused if it is past the cap or the addresses a trace may reach,
    /// counted if it has no bytes, else cut into pieces.
    fn push(&mut self, raw: Raw) -> Result<(), String> {
        check(&raw)?;
        self.cut(raw);
        Ok(())
    }

    /// Cuts a checked request into pieces of whole units, at most 1 MiB each; counts one of no
    /// bytes.
    fn cut(&mut self, raw: Raw) {
        if raw.len == 0 {
            self.zero_length += 1;
            return;
        }
        let unit = u64::from(MAPPING_UNIT_BYTES);
        let mut start = raw.offset / unit;
        let end = (raw.offset + raw.len).div_ceil(unit);
        while start < end && self.requests.len() <= MAX_TRACE_REQUESTS {
            let units = (end - start).min(MAX_UNITS);
            self.requests.push(TraceRequest {
                at_ns: raw.at_ns,
                // Below 2^32 units: `check` kept the end within 16 TiB.
                start_unit: start as u32,
                units: units as u16,
                write: raw.write,
            });
            start += units;
        }
    }

    fn blkparse(&mut self, line: &str) -> Result<Line, String> {
        let f: Vec<&str> = line.split_whitespace().collect();
        // maj,min cpu seq time pid action rwbs sector + count [process]
        if f.len() < 7 || !is_device(f[0]) {
            // The summary blkparse prints after the events.
            return Ok(Line::Nothing);
        }
        let (action, rwbs) = (f[5], f[6]);
        if action != "Q" && action != "D" {
            return Ok(Line::Other);
        }
        let write = rwbs.contains('W');
        if !(write || rwbs.contains('R')) || rwbs.contains('D') || f.len() < 10 || f[8] != "+" {
            // Discards, flushes and barriers without data.
            return Ok(Line::Other);
        }
        let at_ns = seconds_ns(f[3]).ok_or_else(|| format!("time '{}' is not seconds", f[3]))?;
        let sector: u64 = number(f[7], "sector")?;
        let count: u64 = number(f[9], "sector count")?;
        let raw = Raw {
            at_ns,
            offset: sector.saturating_mul(SECTOR_BYTES),
            len: count.saturating_mul(SECTOR_BYTES),
            write,
        };
        if action == "Q" {
            self.blk_queued = true;
            return Ok(Line::Request(raw));
        }
        check(&raw)?;
        self.blk_dispatch.push(raw);
        Ok(Line::Other)
    }

    fn iolog(&mut self, line: &str, v3: bool) -> Result<Line, String> {
        if line.starts_with("fio version") {
            let want = if v3 {
                "fio version 3 iolog"
            } else {
                "fio version 2 iolog"
            };
            return match line == want {
                true => Ok(Line::Nothing),
                false => Err(format!("'{line}': expected '{want}'")),
            };
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let (at_ns, rest) = if v3 {
            let Some((time, rest)) = f.split_first() else {
                return Ok(Line::Nothing);
            };
            let us: u64 = number(time, "timestamp (µs)")?;
            (us.saturating_mul(1000), rest)
        } else {
            (self.wait_ns, &f[..])
        };
        match rest {
            [_, "read", offset, len] | [_, "write", offset, len] => Ok(Line::Request(Raw {
                at_ns,
                offset: number(offset, "offset")?,
                len: number(len, "length")?,
                write: rest[1] == "write",
            })),
            [_, "wait", us, _] if !v3 => {
                let us: u64 = number(us, "wait (µs)")?;
                self.wait_ns = self.wait_ns.saturating_add(us.saturating_mul(1000));
                self.waits = true;
                Ok(Line::Other)
            }
            [_, action, ..]
                if ["add", "open", "close", "unlink", "sync", "datasync", "trim"]
                    .contains(action) =>
            {
                Ok(Line::Other)
            }
            _ => Err(format!(
                "expected `{}file action offset length`",
                if v3 { "time_us " } else { "" }
            )),
        }
    }

    fn finish(mut self) -> Result<Trace, FileError> {
        if self.format == Some(TraceFormat::Blkparse) && !self.blk_queued {
            // Each was checked as its line was read.
            for raw in std::mem::take(&mut self.blk_dispatch) {
                self.cut(raw);
            }
        }
        if !self.problems.is_empty() {
            return Err(self.problems);
        }
        let Some(format) = self.format else {
            return Err(FileError::whole(WHAT, "empty: no requests in it"));
        };
        if self.requests.is_empty() {
            return Err(FileError::whole(
                WHAT,
                format!(
                    "no reads or writes of any bytes in it ({} other lines, {} of no bytes)",
                    self.skipped, self.zero_length
                ),
            ));
        }
        let mut requests = self.requests;
        requests.sort_by_key(|r| r.at_ns);
        let origin = requests[0].at_ns;
        requests.iter_mut().for_each(|r| r.at_ns -= origin);
        let timed = match format {
            TraceFormat::Iolog2 => self.waits,
            _ => true,
        };
        Ok(Trace {
            format,
            requests,
            skipped: self.skipped,
            zero_length: self.zero_length,
            timed,
        })
    }
}

/// Refuses a request larger than the cap, or reaching past the addresses a trace may hold.
fn check(raw: &Raw) -> Result<(), String> {
    if raw.len > MAX_REQUEST_BYTES {
        return Err(format!(
            "a request of {} bytes is larger than {} MiB, the most one request may be (it \
             would split into more than {MAX_PIECES} requests of 1 MiB)",
            raw.len,
            MAX_REQUEST_BYTES >> 20
        ));
    }
    let end = raw.offset.saturating_add(raw.len);
    if end > MAX_TRACE_BYTES {
        return Err(format!(
            "a request ending at byte {end} reaches past 16 TiB, the most a trace may address"
        ));
    }
    Ok(())
}

/// The format a line is written in, if it says.
fn detect(line: &str) -> Option<TraceFormat> {
    match line {
        "fio version 2 iolog" => return Some(TraceFormat::Iolog2),
        "fio version 3 iolog" => return Some(TraceFormat::Iolog3),
        _ => {}
    }
    let csv: Vec<&str> = line.split(',').map(str::trim).collect();
    if csv.len() >= 6 && matches!(csv[3].to_ascii_lowercase().as_str(), "read" | "write") {
        return Some(TraceFormat::Msr);
    }
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() >= 7 && is_device(f[0]) {
        return Some(TraceFormat::Blkparse);
    }
    if f.len() == 5 && f.iter().all(|x| x.bytes().all(|b| b.is_ascii_digit())) {
        return Some(TraceFormat::Mqsim);
    }
    None
}

fn mqsim(line: &str) -> Result<Line, String> {
    let f: Vec<&str> = line.split_whitespace().collect();
    let [time, _device, sector, sectors, kind] = f[..] else {
        return Err("expected `arrival_ns device start_sector sectors type`".into());
    };
    let write = match kind {
        "0" => true,
        "1" => false,
        other => return Err(format!("type '{other}' is neither 0 (write) nor 1 (read)")),
    };
    Ok(Line::Request(Raw {
        at_ns: number(time, "arrival time (ns)")?,
        offset: number::<u64>(sector, "start sector")?.saturating_mul(SECTOR_BYTES),
        len: number::<u64>(sectors, "sector count")?.saturating_mul(SECTOR_BYTES),
        write,
    }))
}

fn msr(line: &str) -> Result<Line, String> {
    let f: Vec<&str> = line.split(',').map(str::trim).collect();
    if f.len() < 6 {
        return Err("expected `timestamp,host,disk,type,offset,size,response`".into());
    }
    let ticks: u64 = number(f[0], "timestamp (100 ns ticks)")?;
    let write = match f[3].to_ascii_lowercase().as_str() {
        "write" => true,
        "read" => false,
        _ => return Ok(Line::Other),
    };
    Ok(Line::Request(Raw {
        at_ns: ticks.saturating_mul(100),
        offset: number(f[4], "offset")?,
        len: number(f[5], "size")?,
        write,
    }))
}

/// blkparse's device field, `major,minor`.
fn is_device(s: &str) -> bool {
    s.split_once(',').is_some_and(|(a, b)| {
        !a.is_empty()
            && !b.is_empty()
            && a.bytes().all(|c| c.is_ascii_digit())
            && b.bytes().all(|c| c.is_ascii_digit())
    })
}

/// Seconds with up to nine decimals (blkparse's `0.000123456`) as nanoseconds.
fn seconds_ns(s: &str) -> Option<u64> {
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty() || frac.len() > 9 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let secs: u64 = whole.parse().ok()?;
    let frac_ns: u64 = format!("{frac:0<9}").parse().ok()?;
    secs.checked_mul(1_000_000_000)?.checked_add(frac_ns)
}

fn number<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.parse()
        .map_err(|_| format!("{what} '{s}' is not a whole number"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Trace, FileError> {
        read(text.as_bytes(), None)
    }

    #[test]
    fn each_format_reads_from_a_small_file_of_its_documented_shape() {
        let mq = parse("4851300 1 524288 16 0\n4864300 1 524304 16 1\n").unwrap();
        assert_eq!(mq.format, TraceFormat::Mqsim);
        assert_eq!(mq.requests[1].offset_bytes(), 524_304 * 512);
        assert!(!mq.requests[1].write);

        let blk = parse(
            "  8,0    3        1     0.000000000  4162  Q   W 223490 + 8 [kjournald]\n\
             \x20 8,0    3        2     0.000002000  4162  G   W 223490 + 8 [kjournald]\n\
             \x20 8,0    3        3     0.000010000  4162  D   W 223490 + 8 [kjournald]\n\
             \x20 8,0    1        4     0.001500000  1234  Q   R 1000 + 256 [cat]\n\
             \x20 8,0    1        5     0.001600000  1234  Q  FN [sync]\n\
             CPU0 (8,0):\n Reads Queued:           1,      128KiB\n",
        )
        .unwrap();
        assert_eq!(blk.format, TraceFormat::Blkparse);
        assert_eq!(blk.requests.len(), 2, "queue events only");
        assert_eq!(blk.requests[1].at_ns, 1_500_000);
        assert_eq!(blk.requests[1].bytes(), 128 * 1024);

        let v2 = parse(
            "fio version 2 iolog\n/dev/sdb add\n/dev/sdb open\n/dev/sdb read 0 4096\n\
             /dev/sdb wait 500 0\n/dev/sdb write 8192 8192\n/dev/sdb close\n",
        )
        .unwrap();
        assert_eq!(v2.format, TraceFormat::Iolog2);
        assert_eq!(v2.requests[1].at_ns, 500_000);
        assert!(v2.timed && v2.requests[1].write);

        let v3 = parse(
            "fio version 3 iolog\n26 /tmp/f add\n140 /tmp/f open\n144 /tmp/f read 249856 4096\n\
             858 /tmp/f write 3104768 4096\n22344 /tmp/f close\n",
        )
        .unwrap();
        assert_eq!(v3.format, TraceFormat::Iolog3);
        assert_eq!(v3.requests[1].at_ns, (858 - 144) * 1000);
        assert_eq!(v3.skipped, 3);

        let msr = parse(
            "128166372003061629,hm,1,Read,3154265088,4096,1285\n\
             128166372016382155,hm,1,Write,3154354176,65536,1443\n",
        )
        .unwrap();
        assert_eq!(msr.format, TraceFormat::Msr);
        assert_eq!(
            msr.requests[1].at_ns,
            (128166372016382155 - 128166372003061629) * 100
        );
        assert_eq!(msr.requests[1].bytes(), 65_536);
    }

    #[test]
    fn requests_cover_whole_units_and_large_ones_split() {
        // 512 bytes at offset 3,584 cross into the second 4 KiB unit.
        let t = parse("0 1 7 2 1\n10 1 0 4096 0\n").unwrap();
        assert_eq!((t.requests[0].start_unit, t.requests[0].units), (0, 2));
        // 2 MiB (4096 sectors) become two 1 MiB requests at the same time.
        assert_eq!(t.requests.len(), 3);
        assert!(t.requests[1..]
            .iter()
            .all(|r| r.units == 256 && r.at_ns == 10));
    }

    #[test]
    fn bad_traces_say_where_and_why() {
        let e = parse("0 1 0 8 1\n5 1 x 8 1\n6 1 0 8 7\n").unwrap_err();
        assert_eq!(e.total, 2);
        assert_eq!(e.problems[0].0, 2);
        assert!(e.to_string().contains("trace line 3: type '7'"), "{e}");
        assert_eq!(
            parse("").unwrap_err().to_string(),
            "trace: empty: no requests in it"
        );
        assert!(parse("hello world\n")
            .unwrap_err()
            .to_string()
            .contains("cannot tell"));
        assert!(read(&b"\x7fELF\x00\x01"[..], None)
            .unwrap_err()
            .to_string()
            .contains("binary"));
        let e = read("0 1 0 8 1\n".as_bytes(), Some(TraceFormat::Msr)).unwrap_err();
        assert!(e.to_string().contains("expected `timestamp"), "{e}");
        assert!(parse("fio version 3 iolog\n1 /f open\n")
            .unwrap_err()
            .to_string()
            .contains("no reads"));
    }

    #[test]
    fn read_in_slices_a_trace_is_the_trace_read_at_once() {
        // Every format, a refused file and one without a final line break, one line a step.
        let texts = [
            "4851300 1 524288 16 0\n4864300 1 524304 16 1\n",
            "8,0 3 1 0.000000000 4162 Q W 223490 + 8 [cp]\n8,0 3 2 0.000100000 4162 Q R 8 + 8 [cp]",
            "fio version 2 iolog\nf add\nf open\nf write 0 4096\nf wait 100 0\nf read 4096 4096\n",
            "fio version 3 iolog\n0 f add\n10 f write 0 4096\n20 f read 4096 8192\n",
            "128166372003061629,hm,1,Read,3154265088,4096,1285\n128166372003061630,hm,1,Write,0,512,5\n",
            "0 1 0 8 1\n5 1 x 8 1\n6 1 0 8 7\n",
        ];
        for text in texts {
            let whole = read(text.as_bytes(), None);
            let mut p = TraceParser::new(text.to_string(), None);
            let sliced = loop {
                if let Some(t) = p.step(1) {
                    break t;
                }
            };
            assert_eq!(sliced, whole, "{text}");
            assert_eq!(p.progress().0, text.len());
        }
    }

    #[test]
    fn a_zero_length_request_moves_no_data_so_it_is_skipped_and_counted() {
        let t = parse("0 1 0 8 1\n10 1 8 0 1\n20 1 16 0 0\n").unwrap();
        assert_eq!((t.requests.len(), t.zero_length), (1, 2));
        assert_eq!(
            t.adjusted(1 << 30).to_string(),
            "2 zero-length requests skipped (they move no data)"
        );
        let e = parse("0 1 8 0 1\n").unwrap_err().to_string();
        assert!(e.contains("no reads or writes of any bytes"), "{e}");
    }

    #[test]
    fn a_request_past_the_split_cap_is_refused_by_its_line() {
        // 256 MiB is 524,288 sectors: the largest request, 256 pieces of 1 MiB.
        let cap = parse("0 1 0 524288 1\n").unwrap();
        assert_eq!(cap.requests.len(), MAX_PIECES as usize);
        let e = parse("0 1 0 8 1\n5 1 0 524289 1\n").unwrap_err();
        assert_eq!(e.problems[0].0, 2);
        assert!(e.to_string().contains("larger than 256 MiB"), "{e}");
        // The issue's case: 999,999,999 sectors (477 GiB) was 488,282 requests at one time.
        let e = parse("0 1 0 8 1\n1 1 8 8 1\n2 1 16 999999999 1\n").unwrap_err();
        assert!(e
            .to_string()
            .starts_with("trace line 3: a request of 511999999488 bytes"));
    }

    #[test]
    fn an_address_past_sixteen_tib_is_refused_by_its_line() {
        let last_unit = (MAX_TRACE_BYTES - 4096) / 512;
        let fits = parse(&format!("0 1 {last_unit} 8 1\n")).unwrap();
        assert_eq!(fits.requests[0].start_unit, u32::MAX);
        let e = parse(&format!("0 1 {} 8 1\n", last_unit + 1)).unwrap_err();
        assert!(e.to_string().contains("reaches past 16 TiB"), "{e}");
        // A `D` event of blkparse is checked as its line is read, like a `Q`.
        let e = parse("8,0 3 1 0.000000000 4162 D R 68719476736 + 8 [cp]\n").unwrap_err();
        assert!(e.to_string().starts_with("trace line 1:"), "{e}");
    }

    #[test]
    fn a_request_past_the_drives_end_wraps_onto_it_and_is_counted() {
        let r = |start_unit, units| TraceRequest {
            at_ns: 0,
            start_unit,
            units,
            write: false,
        };
        // A drive of 1,000 units: unit 1,005 wraps to 5 (MQSim's modulo); a request crossing
        // the end is pulled back to end there; one longer than the drive is cut to it.
        assert_eq!(r(1_005, 1).placed(1_000), (5, 1));
        assert_eq!(r(998, 4).placed(1_000), (996, 4));
        assert_eq!(r(0, 256).placed(100), (0, 100));
        assert_eq!(r(7, 1).placed(0), (0, 1), "never a division by zero");
        let t = Trace::from_requests(
            TraceFormat::Mqsim,
            vec![r(0, 1), r(998, 4), r(1_005, 1), r(999, 1)],
        );
        assert_eq!(t.adjusted(1_000 * 4096).wrapped, 2);
        assert!(t.adjusted(2_000 * 4096).is_empty());
    }

    #[test]
    fn a_request_is_held_in_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<TraceRequest>(), 16);
    }
}
