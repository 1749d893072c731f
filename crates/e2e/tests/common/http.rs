//! A tiny blocking HTTP/1.1 client for the few chromedriver endpoints fantoccini does not wrap
//! (`/status`, `/session/{id}/se/log`) and for closing a session from `Drop`, where no async
//! runtime can be relied on.

use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::Duration;

/// Sends one request to `127.0.0.1:port` and returns the status code and the body.
pub fn request(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> io::Result<(u16, String)> {
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(2))?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    stream.set_write_timeout(Some(Duration::from_secs(5)))?;
    let body = body.unwrap_or("");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\
         Content-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    read_response(&mut stream)
}

/// Reads one response; chromedriver keeps the connection open, so this stops at the end of
/// the body (`Content-Length` or the last chunk) instead of waiting for EOF.
fn read_response(stream: &mut impl Read) -> io::Result<(u16, String)> {
    let bad = || io::Error::new(io::ErrorKind::InvalidData, "bad HTTP response");
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        if let Some(done) = complete_len(&raw) {
            raw.truncate(done);
            break;
        }
        let n = stream.read(&mut buf)?;
        if n == 0 {
            break; // EOF: whatever arrived is the response
        }
        raw.extend_from_slice(&buf[..n]);
    }
    parse_response(&raw).ok_or_else(bad)
}

/// Length of the complete response in `raw`, once it has fully arrived.
fn complete_len(raw: &[u8]) -> Option<usize> {
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let body_start = split + 4;
    if let Some(len) = header(&head, "content-length") {
        let len: usize = len.parse().ok()?;
        return (raw.len() >= body_start + len).then_some(body_start + len);
    }
    if header(&head, "transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        let end = raw[body_start..]
            .windows(5)
            .position(|w| w == b"0\r\n\r\n")?;
        return Some(body_start + end + 5);
    }
    None
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k.trim() == name).then_some(v.trim())
    })
}

fn parse_response(raw: &[u8]) -> Option<(u16, String)> {
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    let mut body = raw[split + 4..].to_vec();
    if header(&head, "transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        body = dechunk(&body)?.0;
    }
    Some((status, String::from_utf8_lossy(&body).into_owned()))
}

/// Decodes a chunked body; `None` until its last chunk has arrived. Also returns how many
/// bytes of `data` it used (trailers are not supported: chromedriver sends none).
fn dechunk(data: &[u8]) -> Option<(Vec<u8>, usize)> {
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        let line_end = pos + data[pos..].windows(2).position(|w| w == b"\r\n")?;
        let size_field = std::str::from_utf8(&data[pos..line_end]).ok()?;
        let size = usize::from_str_radix(size_field.split(';').next()?.trim(), 16).ok()?;
        pos = line_end + 2;
        if size == 0 {
            // The empty line that ends the body.
            return (data.get(pos..pos + 2)? == b"\r\n").then_some((out, pos + 2));
        }
        out.extend_from_slice(data.get(pos..pos + size)?);
        pos += size + 2;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_sized_and_chunked_responses_without_waiting_for_eof() {
        // Trailing bytes stand in for a connection that stays open.
        let sized = b"HTTP/1.1 200 OK\r\nContent-Length:2\r\n\r\nhi<never read>";
        let got = super::read_response(&mut OneByteAtATime(sized)).unwrap();
        assert_eq!(got, (200, "hi".into()));
        let chunked = b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n\
                        2\r\nab\r\n1\r\nc\r\n0\r\n\r\n<never read>";
        let got = super::read_response(&mut OneByteAtATime(chunked)).unwrap();
        assert_eq!(got, (404, "abc".into()));
    }

    /// A reader that hands out one byte per call, like a slow socket.
    struct OneByteAtATime<'a>(&'a [u8]);

    impl std::io::Read for OneByteAtATime<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let Some((first, rest)) = self.0.split_first() else {
                return Ok(0);
            };
            buf[0] = *first;
            self.0 = rest;
            Ok(1)
        }
    }
}
