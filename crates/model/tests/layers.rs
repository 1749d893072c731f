//! The model's layers, as the crate root's documentation lists them, checked against its sources:
//! every module sits in exactly one layer, and imports only modules of lower layers or those
//! listed before it in its own. A total order of this kind admits no import circle.
//!
//! Imports are read from the source text (`crate::m`, and `super::m` in a top-level module),
//! outside comments and outside `#[cfg(test)]` modules (the code after such a module is read
//! too): a test may build a scenario from any layer, the code it tests may not. A name the
//! crate root re-exports (`crate::Simulation`) or an exported macro (`crate::named_enum!`)
//! counts as an import of the module that defines it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The layers in `lib.rs`'s docs: lines `//! N. name: modules`, modules in backticks.
fn documented_layers() -> Vec<Vec<String>> {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    let mut layers = Vec::new();
    for line in lib.lines() {
        let Some(rest) = line.strip_prefix("//! ") else {
            continue;
        };
        let Some((number, body)) = rest.split_once(". ") else {
            continue;
        };
        if number.parse::<usize>() != Ok(layers.len()) {
            continue;
        }
        let (_, modules) = body.split_once(": ").expect("a layer names its modules");
        let names = modules
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect();
        layers.push(names);
    }
    layers
}

/// Every top-level module and the source files it is made of: `m/mod.rs` and the rest of
/// `m/`, or `m.rs` and its `m/` folder together.
fn modules() -> BTreeMap<String, Vec<PathBuf>> {
    let mut out: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in fs::read_dir(src()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut files = Vec::new();
            collect_rs(&path, &mut files);
            if !files.is_empty() {
                out.entry(name).or_default().extend(files);
            }
        } else if path.extension().is_some_and(|e| e == "rs") && name != "lib" {
            out.entry(name).or_default().push(path);
        }
    }
    out
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_rs(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source without line comments and without its `#[cfg(test)]` modules, wherever they
/// stand (the code after one is kept).
fn code_of(text: &str) -> String {
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
fn block_end(code: &str) -> usize {
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

/// Names `prefix::name` mentions in `code` (a name is what follows the prefix up to `::`).
fn mentioned(code: &str, prefix: &str) -> Vec<String> {
    code.match_indices(prefix)
        .filter(|(i, _)| {
            let before = code[..*i].chars().last();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == ':')
        })
        .map(|(i, _)| {
            code[i + prefix.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// The top-level names the code of one file imports: `crate::m`, each module of a
/// `crate::{a, b::C}` group, and `super::m` when the file is a top-level module's own; a name
/// the root re-exports or an exported macro stands for the module that defines it
/// (`aliases`).
fn imported_names(code: &str, top_level: bool, aliases: &BTreeMap<String, String>) -> Vec<String> {
    let mut found = mentioned(code, "crate::");
    for (i, _) in code.match_indices("crate::{") {
        let group = &code[i + "crate::{".len()..];
        let group = &group[..group.find('}').unwrap_or(group.len())];
        for item in group.split(',') {
            found.push(item.trim().split("::").next().unwrap_or("").to_string());
        }
    }
    if top_level {
        found.extend(mentioned(code, "super::"));
    }
    for name in &mut found {
        if let Some(module) = aliases.get(name.as_str()) {
            name.clone_from(module);
        }
    }
    found.retain(|m| !m.is_empty());
    found.sort();
    found.dedup();
    found
}

/// The names the crate root re-exports (`pub use m::{A, B};` in `lib.rs`), and the macros a
/// module exports (`#[macro_export]`), each with the module that defines it.
fn aliases(all: &BTreeMap<String, Vec<PathBuf>>) -> BTreeMap<String, String> {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    let mut out = BTreeMap::new();
    for line in code_of(&lib).lines() {
        let Some(path) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let path = path.trim_end_matches(';');
        let (module, names) = path.split_once("::").unwrap_or((path, ""));
        for name in names.trim_matches(['{', '}']).split(',') {
            let name = name.trim().rsplit("::").next().unwrap_or("");
            out.insert(name.to_string(), module.to_string());
        }
    }
    for (module, files) in all {
        for file in files {
            let code = code_of(&fs::read_to_string(file).unwrap());
            for (i, _) in code.match_indices("#[macro_export]") {
                let after = &code[i..];
                if let Some(j) = after.find("macro_rules!") {
                    let name: String = after[j + "macro_rules!".len()..]
                        .trim_start()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    out.insert(name, module.clone());
                }
            }
        }
    }
    out
}

/// The modules `files` import, itself excluded.
fn imports(name: &str, files: &[PathBuf], all: &BTreeMap<String, Vec<PathBuf>>) -> Vec<String> {
    let aliases = aliases(all);
    let mut out = Vec::new();
    for file in files {
        let code = code_of(&fs::read_to_string(file).unwrap());
        let top_level = file.parent() == Some(src().as_path());
        out.extend(
            imported_names(&code, top_level, &aliases)
                .into_iter()
                .filter(|m| m != name && all.contains_key(m)),
        );
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn every_module_sits_in_one_documented_layer() {
    let layers = documented_layers();
    assert!(layers.len() >= 5, "lib.rs lists its layers: {layers:?}");
    let mut placed: Vec<&String> = layers.iter().flatten().collect();
    placed.sort();
    let before = placed.len();
    placed.dedup();
    assert_eq!(before, placed.len(), "a module listed twice: {layers:?}");
    let on_disk: Vec<String> = modules().into_keys().collect();
    let placed: Vec<String> = placed.into_iter().cloned().collect();
    assert_eq!(placed, on_disk, "lib.rs's layers against src/");
}

#[test]
fn each_module_imports_only_what_lies_below_it() {
    let layers = documented_layers();
    let all = modules();
    let position: BTreeMap<&str, (usize, usize)> = layers
        .iter()
        .enumerate()
        .flat_map(|(l, mods)| {
            mods.iter()
                .enumerate()
                .map(move |(i, m)| (m.as_str(), (l, i)))
        })
        .collect();
    let mut wrong = Vec::new();
    for (name, files) in &all {
        let Some(&here) = position.get(name.as_str()) else {
            continue; // the other test names it
        };
        for import in imports(name, files, &all) {
            let there = position[import.as_str()];
            if there >= here {
                wrong.push(format!(
                    "{name} (layer {}) imports {import} (layer {})",
                    here.0, there.0
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_reader_of_imports_sees_every_form_and_skips_comments_and_tests() {
    // The check stands on this reader: an import it cannot see would pass unnoticed.
    let code = code_of(
        "use crate::{config::Rw, engine};\n\
         fn f() { crate::presets::find(\"e12\"); super::stats::x(); }\n\
         // crate::fit in a comment is no import\n\
         macro_rules! m { () => { $crate::time::Nanos } }\n\
         #[cfg(test)]\nmod tests { use crate::custom; fn g() { let _ = ('{', \"}}\"); } }\n\
         fn after_the_tests() { crate::ftl::x(); crate::Simulation::new(); crate::named_enum!(); }",
    );
    let aliases: BTreeMap<String, String> = [("Simulation", "engine"), ("named_enum", "names")]
        .map(|(a, m)| (a.to_string(), m.to_string()))
        .into();
    assert_eq!(
        imported_names(&code, false, &aliases),
        ["config", "engine", "ftl", "names", "presets"]
    );
    assert_eq!(
        imported_names(&code, true, &aliases),
        ["config", "engine", "ftl", "names", "presets", "stats"]
    );
}

#[test]
fn a_module_of_a_file_and_a_folder_is_read_whole() {
    let stats = &modules()["stats"];
    let read = |end: &str| stats.iter().any(|f| f.ends_with(end));
    assert!(read("stats.rs") && read("stats/check.rs"), "{stats:?}");
}

#[test]
fn the_roots_re_exports_and_exported_macros_name_their_modules() {
    let aliases = aliases(&modules());
    assert_eq!(aliases["Simulation"], "engine");
    assert_eq!(aliases["RunError"], "run");
    assert_eq!(aliases["Workload"], "config");
    assert_eq!(aliases["named_enum"], "names");
}
