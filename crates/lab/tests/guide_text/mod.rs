//! The guide's Markdown read as a test reads it: its chapters, their fenced blocks, links and
//! headings, and the link examples it gives. Pure text, no `lab` binary: `guide.rs` uses all of
//! it, and a test of the page can include this file (`#[path = ...] mod guide_text;`) to parse
//! [`url_examples`] with the page's own URL parser.

use std::io;
use std::path::{Path, PathBuf};

/// One Markdown file: where it is and what it says.
pub struct Source {
    pub path: PathBuf,
    pub text: String,
}

impl Source {
    /// The file at `path`; the error names it.
    pub fn read(path: PathBuf) -> io::Result<Source> {
        let text = std::fs::read_to_string(&path).map_err(|e| naming(&path, e))?;
        Ok(Source { path, text })
    }

    /// The file's name, for messages.
    pub fn name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// `e` with the path it is about in its message.
fn naming(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Every chapter's source in `root/guide/src`, sorted by file name.
pub fn guide_sources(root: &Path) -> io::Result<Vec<Source>> {
    let dir = root.join("guide/src");
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(&dir).map_err(|e| naming(&dir, e))? {
        let path = entry.map_err(|e| naming(&dir, e))?.path();
        if path.extension().is_some_and(|x| x == "md") {
            paths.push(path);
        }
    }
    paths.sort();
    paths.into_iter().map(Source::read).collect()
}

/// A fenced code block: its info string (`sh`, `html` or empty) and its lines.
pub struct Block {
    pub info: String,
    pub lines: Vec<String>,
}

/// The text's fenced blocks (```), in order, and its other lines (the prose) with their
/// numbers (from 1).
pub fn split(text: &str) -> (Vec<Block>, Vec<(usize, &str)>) {
    let mut blocks = Vec::new();
    let mut prose = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (fence, open.take()) {
            (Some(info), None) => {
                open = Some(Block {
                    info: info.trim().to_string(),
                    lines: Vec::new(),
                })
            }
            (Some(_), Some(block)) => blocks.push(block),
            (None, Some(mut block)) => {
                block.lines.push(line.to_string());
                open = Some(block);
            }
            (None, None) => prose.push((i + 1, line)),
        }
    }
    (blocks, prose)
}

/// The code spans of one line of prose (`like this`).
pub fn code_spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// The line without its code spans.
fn without_code(line: &str) -> String {
    line.split('`').step_by(2).collect::<Vec<_>>().join(" ")
}

/// The targets of the Markdown links on one line of prose (`[text](target)`), code spans left
/// out. Autolinks (`<https://...>`) are not links to check.
pub fn links(line: &str) -> Vec<String> {
    let text = without_code(line);
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        out.push(after[..end].to_string());
        rest = &after[end..];
    }
    out
}

/// A heading's anchor as mdBook (and GitHub) make it: the heading's text without its Markdown
/// marks, in lower case, each space a `-`, letters, digits, `-` and `_` kept, the rest dropped.
pub fn anchor(heading: &str) -> String {
    heading
        .chars()
        .filter(|c| !matches!(c, '`' | '*'))
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_lowercase().collect::<String>())
            } else if c.is_whitespace() {
                Some("-".to_string())
            } else {
                None
            }
        })
        .collect()
}

/// Every heading's anchor in the text, in order; a repeated one gets `-1`, `-2` ... as mdBook
/// and GitHub number them.
pub fn anchors(text: &str) -> Vec<String> {
    let (_, prose) = split(text);
    let mut seen = std::collections::HashMap::<String, usize>::new();
    let mut out = Vec::new();
    for (_, line) in prose {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        let title = line.get(hashes..).and_then(|t| t.strip_prefix(' '));
        let (Some(title), 1..=6) = (title, hashes) else {
            continue;
        };
        let base = anchor(title.trim());
        let count = seen.entry(base.clone()).or_insert(0);
        out.push(match *count {
            0 => base,
            n => format!("{base}-{n}"),
        });
        *count += 1;
    }
    out
}

/// The names of the lab's URL parameters, as the guide's table lists them (its rows
/// ``| `name` | meaning | example |`` under "URL parameters").
pub fn url_parameter_names(sources: &[Source]) -> Vec<String> {
    let mut names = Vec::new();
    for s in sources {
        let Some(at) = s.text.find("## URL parameters") else {
            continue;
        };
        for line in s.text[at..].lines().skip(1) {
            if line.starts_with("## ") {
                break;
            }
            if let Some(name) = line.strip_prefix("| `").and_then(|l| l.split('`').next()) {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// Every link example the guide gives, as a URL query without its `?`: a query in a code span
/// or a code block (`?view=activity&theme=projector`), the query of an example URL
/// (`https://example.org/lab/?preset=e18dc&amp;...`, its `&amp;` read as `&`), and each example
/// of the URL parameters' table (`qd=32`). Sorted, each once.
pub fn url_examples(sources: &[Source]) -> Vec<String> {
    let mut out = Vec::new();
    for s in sources {
        let (blocks, prose) = split(&s.text);
        let code = prose
            .iter()
            .flat_map(|(_, line)| code_spans(line))
            .map(str::to_string)
            .chain(blocks.iter().flat_map(|b| b.lines.iter().cloned()));
        for text in code {
            for word in text.split(|c: char| c.is_whitespace() || c == '"') {
                let word = word.replace("&amp;", "&");
                let query = match word.find('?') {
                    Some(0) => &word[1..],
                    Some(at) if word.starts_with("https://example.org/") => &word[at + 1..],
                    _ => continue,
                };
                if query.contains('=') {
                    out.push(query.to_string());
                }
            }
        }
    }
    out.extend(table_examples(sources));
    out.sort();
    out.dedup();
    out
}

/// The example column of the URL parameters' table: `| `name` | meaning | `name=value` |`.
fn table_examples(sources: &[Source]) -> Vec<String> {
    let names = url_parameter_names(sources);
    let mut out = Vec::new();
    for s in sources {
        for line in s.text.lines().filter(|l| l.starts_with("| `")) {
            let Some(last) = line.trim_end_matches('|').rsplit('|').next() else {
                continue;
            };
            let example = last.trim().trim_matches('`');
            let name = example.split('=').next().unwrap_or_default();
            if example.contains('=') && names.iter().any(|n| n == name) {
                out.push(example.to_string());
            }
        }
    }
    out
}
