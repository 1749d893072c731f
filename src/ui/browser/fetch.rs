//! A small text file fetched from the page's own origin (a tour file hosted beside the lab).
//!
//! What always holds: a fetch gives the file's text or a [`FetchError`] that says why, never a
//! panic and never a partial text; a text longer than the caller's limit is refused, not cut.
//! The page's content policy (`connect-src 'self'`) keeps every fetch on the lab's origin.

use std::fmt;

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Why a file did not arrive as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FetchError {
    /// The request failed: offline, refused by the content policy, or no window.
    Network,
    /// The server answered with this HTTP status (404: no such file).
    Status(u16),
    /// The file is larger than the limit asked for, in bytes.
    TooLarge { max_bytes: usize },
    /// The answer's body could not be read as text.
    NotText,
}

impl fmt::Display for FetchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FetchError::Network => f.write_str("the request failed (offline?)"),
            FetchError::Status(404) => f.write_str("no such file (HTTP 404)"),
            FetchError::Status(code) => write!(f, "the server answered HTTP {code}"),
            FetchError::TooLarge { max_bytes } => {
                write!(f, "it is larger than {} KiB", max_bytes >> 10)
            }
            FetchError::NotText => f.write_str("its content is not text"),
        }
    }
}

impl std::error::Error for FetchError {}

/// The text of the file at `path` (relative to the page), if it is at most `max_bytes` long.
pub async fn text(path: &str, max_bytes: usize) -> Result<String, FetchError> {
    let window = web_sys::window().ok_or(FetchError::Network)?;
    let answer = JsFuture::from(window.fetch_with_str(path))
        .await
        .map_err(|_| FetchError::Network)?;
    let response: web_sys::Response = answer.dyn_into().map_err(|_| FetchError::Network)?;
    if !response.ok() {
        return Err(FetchError::Status(response.status()));
    }
    let body = response.text().map_err(|_| FetchError::NotText)?;
    let text = JsFuture::from(body)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or(FetchError::NotText)?;
    if text.len() > max_bytes {
        return Err(FetchError::TooLarge { max_bytes });
    }
    Ok(text)
}
