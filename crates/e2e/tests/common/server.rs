//! A minimal static file server for `dist/`, on `127.0.0.1` with an ephemeral port. It also
//! serves the test-only pages of `tests/fixtures/` under [`FIXTURES_PREFIX`] (an embedding page
//! for the iframe tests); they are never part of `dist/`.
//!
//! Plain std threads rather than the test's tokio runtime: it keeps serving while a test blocks,
//! needs no extra tokio features, and lets the test mount the app under a sub-path (proving the
//! build's relative URLs) and see which requests failed. It can hold its answers, as a network
//! with round trips would ([`StaticServer::hold`] one file's, [`StaticServer::answer_after`]
//! every one), so a test can tell what a page asks for before a file arrives.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Write};
use std::net::{Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

/// Where the test-only fixture pages are served.
pub const FIXTURES_PREFIX: &str = "/test-fixtures/";

/// One answered request: path as requested, the status sent and when the request arrived.
#[derive(Clone, Debug)]
pub struct Served {
    pub path: String,
    pub status: u16,
    /// When its request line was read (wall clock, comparable with `performance.timeOrigin`).
    pub at: SystemTime,
}

/// Serves the files under `root` at `http://127.0.0.1:{port}{prefix}`; stops on drop.
pub struct StaticServer {
    addr: SocketAddr,
    prefix: String,
    stop: Arc<AtomicBool>,
    log: Arc<Mutex<Vec<Served>>>,
    /// How long answers wait before they are sent.
    held: Arc<Mutex<Holds>>,
    accept_thread: Option<JoinHandle<()>>,
    /// Connections accepted and not yet answered, by a number of their own, so that
    /// [`StaticServer::stop`] can close them: Chromium opens sockets ahead of its requests,
    /// and one of those would otherwise still be answered after the port is closed.
    open: Arc<Mutex<HashMap<u64, TcpStream>>>,
}

impl StaticServer {
    /// Starts serving `root` under `prefix` (which must start and end with `/`).
    pub fn start(root: &Path, prefix: &str) -> io::Result<Self> {
        assert!(
            prefix.starts_with('/') && prefix.ends_with('/'),
            "prefix must be /.../"
        );
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let log = Arc::new(Mutex::new(Vec::new()));
        let held = Arc::new(Mutex::new(Holds::default()));
        let open = Arc::new(Mutex::new(HashMap::new()));
        let site = Arc::new(Site {
            root: root.to_path_buf(),
            prefix: prefix.to_string(),
            fixtures: super::repo_root().join("tests").join("fixtures"),
        });
        let accept_thread = {
            let (stop, log, held, open) = (stop.clone(), log.clone(), held.clone(), open.clone());
            std::thread::Builder::new()
                .name("static-server".into())
                .spawn(move || {
                    for (id, stream) in listener.incoming().enumerate() {
                        if stop.load(Ordering::SeqCst) {
                            break;
                        }
                        let Ok(stream) = stream else { continue };
                        let id = id as u64;
                        if let Ok(handle) = stream.try_clone() {
                            locked(&open).insert(id, handle);
                        }
                        let (site, log, held, open) =
                            (site.clone(), log.clone(), held.clone(), open.clone());
                        std::thread::spawn(move || {
                            if let Ok(Some(served)) = site.handle(stream, &held) {
                                locked(&log).push(served);
                            }
                            locked(&open).remove(&id);
                        });
                    }
                })?
        };
        Ok(Self {
            addr,
            prefix: prefix.to_string(),
            stop,
            log,
            held,
            accept_thread: Some(accept_thread),
            open,
        })
    }

    /// Absolute URL of `path` (relative to the mount prefix).
    pub fn url(&self, path: &str) -> String {
        format!(
            "http://{}{}{}",
            self.addr,
            self.prefix,
            path.trim_start_matches('/')
        )
    }

    /// Absolute URL of the fixture page `name` (a file of `tests/fixtures/`).
    pub fn fixture_url(&self, name: &str) -> String {
        format!("http://{}{FIXTURES_PREFIX}{name}", self.addr)
    }

    /// Holds every answer to a file named `name` (the last part of its path) for `by`, as a
    /// slow network would, so a test can tell what a page asks for before that file arrives.
    pub fn hold(&self, name: &str, by: Duration) {
        locked(&self.held).by_name.insert(name.to_string(), by);
    }

    /// Holds every answer for `by` (on top of [`StaticServer::hold`]): a network's round trip,
    /// without a limit on its bandwidth.
    pub fn answer_after(&self, by: Duration) {
        locked(&self.held).every = by;
    }

    /// Every request answered so far.
    pub fn served(&self) -> Vec<Served> {
        locked(&self.log).clone()
    }

    /// When each request so far for a file named `name` (the last part of its path) reached
    /// the server, in order.
    pub fn asked_at(&self, name: &str) -> Vec<SystemTime> {
        let log = locked(&self.log);
        let asked = log
            .iter()
            .filter(|s| s.path.rsplit('/').next() == Some(name));
        asked.map(|s| s.at).collect()
    }

    /// Stops serving, closes the port and every connection still open, as a network that went
    /// away: every request from now on fails. Idempotent; [`Drop`] does the same.
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the blocking accept() so the thread sees the flag and drops the listener.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(thread) = self.accept_thread.take() {
            let _ = thread.join();
        }
        for (_, connection) in locked(&self.open).drain() {
            let _ = connection.shutdown(Shutdown::Both);
        }
    }

    /// Requests answered with anything but 200.
    pub fn failed(&self) -> Vec<Served> {
        self.served()
            .into_iter()
            .filter(|s| s.status != 200)
            .collect()
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The value behind `mutex`, also after a thread panicked holding it: every change to the
/// server's log and settings is one call (a push, an insert), so what they hold is whole.
fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How long answers wait before they are sent: every one, and those of files by name.
#[derive(Default)]
struct Holds {
    every: Duration,
    by_name: HashMap<String, Duration>,
}

impl Holds {
    fn of(&self, path: &str) -> Duration {
        let name = path.rsplit('/').next().unwrap_or_default();
        self.every + self.by_name.get(name).copied().unwrap_or_default()
    }
}

struct Site {
    root: PathBuf,
    prefix: String,
    fixtures: PathBuf,
}

impl Site {
    fn handle(&self, stream: TcpStream, held: &Mutex<Holds>) -> io::Result<Option<Served>> {
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        let mut reader = BufReader::new(stream.try_clone()?);
        let mut request_line = String::new();
        if reader.read_line(&mut request_line)? == 0 {
            return Ok(None); // the wake-up connection from Drop, or a closed preconnect
        }
        let at = SystemTime::now();
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header)? == 0 || header == "\r\n" || header == "\n" {
                break;
            }
        }
        let mut parts = request_line.split_whitespace();
        let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        let path = target.split(['?', '#']).next().unwrap_or("").to_string();

        let file = match method {
            "GET" | "HEAD" => self.resolve(&path),
            _ => None,
        };
        let hold = locked(held).of(&path);
        std::thread::sleep(hold);
        let mut stream = stream;
        let status = match file.and_then(|f| std::fs::read(&f).ok().map(|body| (f, body))) {
            Some((file, body)) => {
                write!(
                    stream,
                    "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
                     Cache-Control: no-store\r\nConnection: close\r\n\r\n",
                    content_type(&file),
                    body.len()
                )?;
                if method == "GET" {
                    stream.write_all(&body)?;
                }
                200
            }
            None => {
                let body = b"not found\n";
                write!(
                    stream,
                    "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\
                     Connection: close\r\n\r\n",
                    body.len()
                )?;
                stream.write_all(body)?;
                404
            }
        };
        stream.flush()?;
        Ok(Some(Served { path, status, at }))
    }

    /// Maps a request path to a file under the root, refusing anything outside it.
    fn resolve(&self, path: &str) -> Option<PathBuf> {
        let (root, rel) = match path.strip_prefix(FIXTURES_PREFIX) {
            Some(rel) => (&self.fixtures, rel),
            None => (&self.root, path.strip_prefix(&self.prefix)?),
        };
        let rel = if rel.is_empty() || rel.ends_with('/') {
            format!("{rel}index.html")
        } else {
            rel.to_string()
        };
        let rel = Path::new(&rel);
        if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
            return None;
        }
        let file = root.join(rel);
        file.is_file().then_some(file)
    }
}

fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "json" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}
