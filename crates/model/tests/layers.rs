//! The model's layers, as the crate root's documentation lists them, checked against its
//! folders and its sources: every layer is a folder of `src/` and every module sits in its
//! layer's folder; a module imports only modules of lower layers or those listed before it in
//! its own. A total order of this kind admits no import circle.
//!
//! Imports are read from the source text, outside comments and outside `#[cfg(test)]` modules
//! (the code after such a module is read too): a test may build a scenario from any layer, the
//! code it tests may not. A path is read whole, groups and all (`crate::{config::Rw,
//! parts::{ftl, stats}}`), and counts as an import of the module it reaches:
//! `crate::layer::module`, the root's re-export `crate::module`, a name the root re-exports
//! (`crate::Simulation`) or an exported macro (`crate::named_enum!`) for the module that
//! defines it, and `super::` counted up from the file's own place.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

#[path = "common/source.rs"]
pub mod source;
use source::code_of;

/// What a test or its helper returns: a source it cannot read is an error, not a panic.
type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The text of `file`; the error names it.
fn read(file: &Path) -> TestResult<String> {
    fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()).into())
}

/// The entries of the folder `dir`, each a path; the error names the folder.
fn entries(dir: &Path) -> TestResult<Vec<PathBuf>> {
    let named = |e: std::io::Error| format!("{}: {e}", dir.display());
    fs::read_dir(dir)
        .map_err(named)?
        .map(|entry| Ok(entry.map_err(named)?.path()))
        .collect()
}

/// The names in backticks in `text`.
fn ticked(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The layers in `lib.rs`'s docs, bottom up: lines `//! N. [`layer`], words: modules`, the
/// layer's folder first in backticks, then its modules in backticks.
fn documented_layers() -> TestResult<Vec<(String, Vec<String>)>> {
    let lib = read(&src().join("lib.rs"))?;
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
        let (label, modules) = body
            .split_once(": ")
            .ok_or_else(|| format!("a layer names its modules: {line}"))?;
        let folder = ticked(label)
            .into_iter()
            .next()
            .ok_or_else(|| format!("a layer names its folder: {line}"))?;
        layers.push((folder, ticked(modules)));
    }
    Ok(layers)
}

/// What `src/` holds: each layer folder's modules with the files each is made of (`m.rs`,
/// `m/mod.rs` and the rest of `m/`, or `m.rs` and its `m/` folder together), and the names of
/// the files that stand loose beside the folders.
struct Disk {
    layers: BTreeMap<String, BTreeMap<String, Vec<PathBuf>>>,
    loose: Vec<String>,
}

fn disk() -> TestResult<Disk> {
    let mut disk = Disk {
        layers: BTreeMap::new(),
        loose: Vec::new(),
    };
    for path in entries(&src())? {
        let name = file_name(&path, Path::file_name)?;
        if path.is_dir() {
            disk.layers.insert(name, modules_in(&path)?);
        } else {
            disk.loose.push(name);
        }
    }
    disk.loose.sort();
    Ok(disk)
}

/// The part of `path`'s name that `part` picks (`Path::file_name`, `Path::file_stem`).
fn file_name(path: &Path, part: fn(&Path) -> Option<&std::ffi::OsStr>) -> TestResult<String> {
    let name = part(path).ok_or_else(|| format!("{} has no file name", path.display()))?;
    Ok(name.to_string_lossy().into_owned())
}

/// The modules of one layer's folder; its own `mod.rs` is the layer's, not a module's.
fn modules_in(layer: &Path) -> TestResult<BTreeMap<String, Vec<PathBuf>>> {
    let mut out: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for path in entries(layer)? {
        let name = file_name(&path, Path::file_stem)?;
        if path.is_dir() {
            let mut files = Vec::new();
            collect_rs(&path, &mut files)?;
            if !files.is_empty() {
                out.entry(name).or_default().extend(files);
            }
        } else if path.extension().is_some_and(|e| e == "rs") && name != "mod" {
            out.entry(name).or_default().push(path);
        }
    }
    Ok(out)
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) -> TestResult {
    for path in entries(dir)? {
        if path.is_dir() {
            collect_rs(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The module path of a source file from the crate root: `parts/stats/check.rs` is
/// `parts::stats::check`, `simulation/engine/mod.rs` is `simulation::engine`.
fn module_path(file: &Path) -> TestResult<Vec<String>> {
    let relative = file.strip_prefix(src())?.with_extension("");
    let mut path: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if path.last().is_some_and(|last| last == "mod") {
        path.pop();
    }
    Ok(path)
}

/// The modules a file declares (`mod m;`, public or not).
fn declared(file: &Path) -> TestResult<BTreeSet<String>> {
    Ok(code_of(&read(file)?)
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let line = line.strip_prefix("pub(crate) ").unwrap_or(line);
            let line = line.strip_prefix("pub ").unwrap_or(line);
            line.strip_prefix("mod ")?
                .strip_suffix(';')
                .map(str::to_string)
        })
        .collect())
}

/// One path a use tree names, and the name it takes (the last segment, or what `as` gives).
struct Leaf {
    path: Vec<String>,
    name: String,
}

/// The number of bytes of whitespace `code` starts with.
fn space(code: &str) -> usize {
    code.len() - code.trim_start().len()
}

/// The identifier `code` starts with (empty when none).
fn ident(code: &str) -> &str {
    let end = code
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(code.len());
    &code[..end]
}

/// Reads the use tree (or expression path) at the start of `code`, below `prefix`, into
/// `out`: `a::{b, c::{D, e as f}}` is `a::b`, `a::c::D` and `a::c::e` (named `f`). Returns the
/// bytes it read.
fn read_tree(code: &str, prefix: &mut Vec<String>, out: &mut Vec<Leaf>) -> usize {
    let depth = prefix.len();
    let mut i = space(code);
    let mut grouped = false;
    loop {
        if code[i..].starts_with('{') {
            i += 1 + read_group(&code[i + 1..], prefix, out);
            grouped = true;
            break;
        }
        let name = ident(&code[i..]);
        if name.is_empty() {
            break;
        }
        prefix.push(name.to_string());
        i += name.len();
        if !code[i..].starts_with("::") {
            break;
        }
        i += 2;
    }
    // The path read here, if it is one and not a group's.
    let last = prefix[depth..].last().filter(|_| !grouped);
    if let Some(last) = last {
        let mut name = last.clone();
        if let Some(alias) = code[i..].trim_start().strip_prefix("as ") {
            name = ident(alias.trim_start()).to_string();
        }
        out.push(Leaf {
            path: prefix.clone(),
            name,
        });
    }
    prefix.truncate(depth);
    i
}

/// Reads the trees of a group, `code` starting after its `{`; returns the bytes it read,
/// through the closing `}`.
fn read_group(code: &str, prefix: &mut Vec<String>, out: &mut Vec<Leaf>) -> usize {
    let mut i = 0;
    loop {
        i += read_tree(&code[i..], prefix, out);
        match code[i..].find([',', '}']) {
            Some(j) if code.as_bytes()[i + j] == b',' => i += j + 1,
            Some(j) => return i + j + 1,
            None => return code.len(),
        }
    }
}

/// The paths that follow `prefix` in `code` (`crate::`, `super::`), each read whole; a
/// prefix inside a longer name (`$crate::`, `super::super::`) starts none of its own.
fn paths_after(code: &str, prefix: &str) -> Vec<Leaf> {
    let mut out = Vec::new();
    for (i, _) in code.match_indices(prefix) {
        let before = code[..i].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == ':') {
            continue;
        }
        read_tree(&code[i + prefix.len()..], &mut Vec::new(), &mut out);
    }
    out
}

/// What the reader resolves paths against: each layer's modules, and the names that stand
/// for a module (a name the root re-exports, an exported macro).
struct Index {
    layers: BTreeMap<String, Vec<String>>,
    aliases: BTreeMap<String, String>,
}

impl Index {
    fn of(disk: &Disk) -> TestResult<Index> {
        let mut index = Index {
            layers: disk
                .layers
                .iter()
                .map(|(layer, modules)| (layer.clone(), modules.keys().cloned().collect()))
                .collect(),
            aliases: BTreeMap::new(),
        };
        index.aliases = aliases(&index, disk)?;
        Ok(index)
    }

    fn is_module(&self, name: &str) -> bool {
        self.layers.values().flatten().any(|m| m == name)
    }

    /// The modules a path from the crate root reaches: `layer::module`, `module` (the root's
    /// re-export), a name that stands for its module, or a layer named alone (all of it).
    fn resolve(&self, path: &[String]) -> Vec<String> {
        let Some(first) = path.first() else {
            return Vec::new();
        };
        if let Some(modules) = self.layers.get(first) {
            return match path.get(1) {
                Some(m) => modules.iter().filter(|x| *x == m).cloned().collect(),
                None => modules.clone(),
            };
        }
        if self.is_module(first) {
            return vec![first.clone()];
        }
        self.aliases.get(first).cloned().into_iter().collect()
    }
}

/// The names the crate root re-exports (its `use` items, read whole) and the macros a module
/// exports (`#[macro_export]`), each with the module that defines it.
fn aliases(index: &Index, disk: &Disk) -> TestResult<BTreeMap<String, String>> {
    let lib = code_of(&read(&src().join("lib.rs"))?);
    let mut out = BTreeMap::new();
    for item in lib.split(';') {
        let item = item.trim_start();
        let item = item.strip_prefix("pub(crate) ").unwrap_or(item);
        let item = item.strip_prefix("pub ").unwrap_or(item);
        let Some(tree) = item.strip_prefix("use ") else {
            continue;
        };
        let mut leaves = Vec::new();
        read_tree(tree, &mut Vec::new(), &mut leaves);
        for leaf in leaves {
            if let Some(module) = index.resolve(&leaf.path).into_iter().next() {
                out.insert(leaf.name, module);
            }
        }
    }
    for (module, files) in disk.layers.values().flatten() {
        for file in files {
            let code = code_of(&read(file)?);
            for (i, _) in code.match_indices("#[macro_export]") {
                let after = &code[i..];
                if let Some(j) = after.find("macro_rules!") {
                    let name = ident(after[j + "macro_rules!".len()..].trim_start());
                    out.insert(name.to_string(), module.clone());
                }
            }
        }
    }
    Ok(out)
}

/// The modules the code of a file at module path `here` imports: every path after `crate::`,
/// and every path after `super::` counted up from `here`.
fn imported_modules(code: &str, here: &[String], index: &Index) -> Vec<String> {
    let mut found = Vec::new();
    for leaf in paths_after(code, "crate::") {
        found.extend(index.resolve(&leaf.path));
    }
    for leaf in paths_after(code, "super::") {
        let ups = 1 + leaf.path.iter().take_while(|s| *s == "super").count();
        let base = &here[..here.len().saturating_sub(ups)];
        let path: Vec<String> = base
            .iter()
            .chain(leaf.path.iter().skip(ups - 1))
            .cloned()
            .collect();
        found.extend(index.resolve(&path));
    }
    found.sort();
    found.dedup();
    found
}

/// The other modules `files` (module `name`'s) import, each with a file that imports it.
fn imports(name: &str, files: &[PathBuf], index: &Index) -> TestResult<BTreeMap<String, PathBuf>> {
    let mut out = BTreeMap::new();
    for file in files {
        let code = code_of(&read(file)?);
        for module in imported_modules(&code, &module_path(file)?, index) {
            if module != name {
                out.entry(module).or_insert_with(|| file.clone());
            }
        }
    }
    Ok(out)
}

#[test]
fn the_folders_are_the_documented_layers() -> TestResult {
    let documented = documented_layers()?;
    assert!(
        documented.len() >= 5,
        "lib.rs lists its layers: {documented:?}"
    );
    let disk = disk()?;
    assert_eq!(
        disk.loose,
        ["lib.rs"],
        "src/ holds lib.rs and the layers' folders"
    );
    let listed: BTreeMap<String, BTreeSet<String>> = documented
        .iter()
        .map(|(layer, modules)| (layer.clone(), modules.iter().cloned().collect()))
        .collect();
    let on_disk: BTreeMap<String, BTreeSet<String>> = disk
        .layers
        .iter()
        .map(|(layer, modules)| (layer.clone(), modules.keys().cloned().collect()))
        .collect();
    assert_eq!(listed, on_disk, "lib.rs's layers against src/'s folders");
    let mut names: Vec<&String> = documented
        .iter()
        .flat_map(|(l, ms)| ms.iter().chain([l]))
        .collect();
    let count = names.len();
    names.sort();
    names.dedup();
    assert_eq!(
        count,
        names.len(),
        "a module listed twice, or named as a layer: {documented:?}"
    );
    // Every folder and file is compiled: the root declares the layers, each layer its modules.
    assert_eq!(
        declared(&src().join("lib.rs"))?,
        listed.keys().cloned().collect()
    );
    for (layer, modules) in &listed {
        assert_eq!(
            &declared(&src().join(layer).join("mod.rs"))?,
            modules,
            "{layer}/mod.rs"
        );
    }
    Ok(())
}

#[test]
fn each_module_imports_only_what_lies_below_it() -> TestResult {
    let disk = disk()?;
    let index = Index::of(&disk)?;
    let position: BTreeMap<String, (usize, usize)> = documented_layers()?
        .into_iter()
        .enumerate()
        .flat_map(|(l, (_, modules))| {
            modules
                .into_iter()
                .enumerate()
                .map(move |(i, m)| (m, (l, i)))
        })
        .collect();
    let mut wrong = Vec::new();
    for (name, files) in disk.layers.values().flatten() {
        let Some(&here) = position.get(name) else {
            continue; // the other test names it
        };
        for (import, file) in imports(name, files, &index)? {
            let Some(&there) = position.get(&import) else {
                continue;
            };
            if there >= here {
                wrong.push(format!(
                    "{name} (layer {}) imports {import} (layer {}) in {}",
                    here.0,
                    there.0,
                    file.strip_prefix(src()).unwrap().display()
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
    Ok(())
}

/// A small crate's index for the reader's own test.
fn sample_index() -> Index {
    let layers = [
        ("foundations", &["time", "names"][..]),
        ("specification", &["config"]),
        ("parts", &["ftl", "stats", "power"]),
        ("simulation", &["engine"]),
        ("published", &["presets", "calibration"]),
        ("fitting", &["fit", "custom"]),
    ];
    let aliases = [("Simulation", "engine"), ("named_enum", "names")];
    Index {
        layers: layers
            .map(|(l, ms)| (l.to_string(), ms.iter().map(|m| m.to_string()).collect()))
            .into(),
        aliases: aliases.map(|(a, m)| (a.to_string(), m.to_string())).into(),
    }
}

#[test]
fn the_reader_of_imports_sees_every_form_and_skips_comments_and_tests() {
    // The check stands on this reader: an import it cannot see would pass unnoticed.
    let index = sample_index();
    let code = code_of(
        "use crate::{config::Rw, parts::{ftl, stats::{self, Figure}}};\n\
         use crate::simulation::engine::Simulation as Sim;\n\
         fn f() { crate::presets::find(\"e12\"); super::power::x(); }\n\
         // crate::fit in a comment is no import\n\
         macro_rules! m { () => { $crate::time::Nanos } }\n\
         #[cfg(test)]\nmod tests { use crate::custom; fn g() { let _ = ('{', \"}}\"); } }\n\
         fn after() { crate::published::calibration::x(); crate::Simulation::new(); }\n\
         crate::named_enum!(Rw, \"pattern\", id, {});",
    );
    let here = ["parts", "activity"].map(String::from);
    assert_eq!(
        imported_modules(&code, &here, &index),
        [
            "calibration",
            "config",
            "engine",
            "ftl",
            "names",
            "power",
            "presets",
            "stats"
        ]
    );
    // In a file of a module's folder, `super::` is the module and `super::super::` its layer.
    let code = code_of("use super::Histogram;\nfn f() { super::super::power::x(); }");
    let here = ["parts", "stats", "check"].map(String::from);
    assert_eq!(imported_modules(&code, &here, &index), ["power", "stats"]);
    // A layer named alone reaches every module in it.
    let code = code_of("use crate::fitting;");
    assert_eq!(imported_modules(&code, &here, &index), ["custom", "fit"]);
}

#[test]
fn a_module_of_a_file_and_a_folder_is_read_whole() -> TestResult {
    let disk = disk()?;
    let stats = &disk.layers["parts"]["stats"];
    let read = |end: &str| stats.iter().any(|f| f.ends_with(end));
    assert!(
        read("parts/stats.rs") && read("parts/stats/check.rs"),
        "{stats:?}"
    );
    assert_eq!(
        module_path(&src().join("parts/stats/check.rs"))?,
        ["parts", "stats", "check"]
    );
    assert_eq!(
        module_path(&src().join("simulation/engine/mod.rs"))?,
        ["simulation", "engine"]
    );
    Ok(())
}

#[test]
fn the_roots_re_exports_and_exported_macros_name_their_modules() -> TestResult {
    let index = Index::of(&disk()?)?;
    let aliases = &index.aliases;
    assert_eq!(aliases["Simulation"], "engine");
    assert_eq!(aliases["RunError"], "run");
    assert_eq!(aliases["Workload"], "config");
    assert_eq!(aliases["named_enum"], "names");
    assert_eq!(aliases["stats"], "stats");
    Ok(())
}

#[test]
fn every_public_module_keeps_its_name_at_the_root() -> TestResult {
    // Callers name modules, never layers (`parallelism_model::stats`), so a module's layer
    // can change without a caller changing.
    let index = Index::of(&disk()?)?;
    for layer in index.layers.keys() {
        let text = fs::read_to_string(src().join(layer).join("mod.rs")).unwrap();
        for line in code_of(&text).lines() {
            let Some(module) = line.trim().strip_prefix("pub mod ") else {
                continue;
            };
            let module = module.trim_end_matches(';');
            assert_eq!(
                index.aliases.get(module).map(String::as_str),
                Some(module),
                "lib.rs re-exports {layer}::{module} as {module}"
            );
        }
    }
    Ok(())
}
