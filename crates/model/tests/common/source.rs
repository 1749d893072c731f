//! Rust source read as the layer tests read it: without comments and test modules, and a
//! block's extent found by its braces. Shared by the model's layer test
//! (`crates/model/tests/layers.rs`) and the page's (`tests/layers.rs`, which includes this file
//! by its path), so both read imports from the same text.

/// The source without line comments and without its `#[cfg(test)]` modules, wherever they
/// stand (the code after one is kept).
pub fn code_of(text: &str) -> String {
    let code: String = text
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = String::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "#[cfg(test)]".len()..];
        let item = after.trim_start();
        if !item.starts_with("mod ") {
            // A test-only item that is not a module: kept, attribute and all.
            out.push_str("#[cfg(test)]");
            rest = after;
            continue;
        }
        rest = match item.find(['{', ';']) {
            Some(j) if item.as_bytes()[j] == b'{' => &item[block_end(&item[j..]) + j..],
            Some(j) => &item[j + 1..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

/// The length of the block `code` opens with its first `{`, through its closing `}`: braces
/// inside string and character literals do not count.
pub fn block_end(code: &str) -> usize {
    let bytes = code.as_bytes();
    let (mut depth, mut i) = (0usize, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            // A character literal ('{', '\''), not a lifetime ('a).
            b'\'' if bytes.get(i + 2) == Some(&b'\'') => i += 2,
            b'\'' if bytes.get(i + 1) == Some(&b'\\') => {
                i += 2;
                while i < bytes.len() && bytes[i] != b'\'' {
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}
