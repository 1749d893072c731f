//! The page's layers, as `src/ui/mod.rs`'s documentation lists them, checked against its
//! sources, file by file:
//! - every file sits in one layer: a layer is a folder of `src/ui`, and the last one, `shell`,
//!   the files at `src/ui`'s root;
//! - a file imports only files of its own layer or of the layers listed before it;
//! - no file imports, directly or through others, a file that imports it (no import circle,
//!   inside a layer either);
//! - the pure layer names no browser crate, so it compiles and is tested natively.
//!
//! Imports are read from the source text outside comments and `#[cfg(test)]` modules (a test
//! may build its scenario from any layer): `crate::` paths (with `{..}` groups expanded),
//! `super::` and `self::` paths, and a module's own children named by their bare names. A name
//! a module re-exports (`pub use child::Name`) stands for the file that defines it, so an
//! import through a re-export is an import of that file.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

#[path = "../crates/model/tests/common/source.rs"]
pub mod source;
use source::{block_end, code_of};

/// A module's path below the crate root, e.g. `["ui", "charts", "style"]`.
type ModPath = Vec<String>;

/// What a test or its helper returns: a source it cannot read is an error, not a panic.
type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

fn ui() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui")
}

/// The text of `file`; the error names it.
fn read(file: &Path) -> TestResult<String> {
    fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()).into())
}

/// The layers in `src/ui/mod.rs`'s docs: lines `//! N. name: ...`.
fn documented_layers() -> TestResult<Vec<String>> {
    let docs = read(&ui().join("mod.rs"))?;
    let mut layers = Vec::new();
    for line in docs.lines() {
        let Some((number, body)) = line
            .strip_prefix("//! ")
            .and_then(|rest| rest.split_once(". "))
        else {
            continue;
        };
        if number.parse::<usize>() == Ok(layers.len()) {
            let (name, _) = body
                .split_once(':')
                .ok_or_else(|| format!("a layer says what it holds: {line}"))?;
            layers.push(name.to_string());
        }
    }
    Ok(layers)
}

/// Every source file of `src/ui` with its module path.
fn files() -> TestResult<BTreeMap<ModPath, PathBuf>> {
    let mut out = BTreeMap::new();
    collect(&ui(), &mut vec!["ui".to_string()], &mut out)?;
    Ok(out)
}

fn collect(dir: &Path, at: &mut ModPath, out: &mut BTreeMap<ModPath, PathBuf>) -> TestResult {
    let named = |e: std::io::Error| format!("{}: {e}", dir.display());
    let mut entries = Vec::new();
    for entry in fs::read_dir(dir).map_err(named)? {
        entries.push(entry.map_err(named)?.path());
    }
    entries.sort();
    for path in entries {
        let stem = path
            .file_stem()
            .ok_or_else(|| format!("{} has no name", path.display()))?;
        let stem = stem.to_string_lossy().into_owned();
        if path.is_dir() {
            at.push(stem);
            collect(&path, at, out)?;
            at.pop();
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut module = at.clone();
            if stem != "mod" {
                module.push(stem);
            }
            out.insert(module, path);
        }
    }
    Ok(())
}

/// The layer a file sits in: the folder of `src/ui` it is under, or `shell` at the root.
fn layer_of(module: &ModPath, file: &Path) -> String {
    let at_root = file.parent() == Some(ui().as_path());
    if at_root && module.len() <= 2 {
        "shell".to_string()
    } else {
        module[1].clone()
    }
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths that start with `root` (a word such as `crate` or a child module's name) in
/// `code`, each as its segments with `{..}` groups expanded: `crate::a::{b, c::D}` gives
/// `[crate, a, b]` and `[crate, a, c, D]`.
fn paths_from(code: &str, root: &str) -> Vec<ModPath> {
    let mut out = Vec::new();
    for (i, _) in code.match_indices(root) {
        let before = code[..i].chars().last();
        let rest = &code[i + root.len()..];
        if before.is_some_and(|c| is_word(c) || c == ':' || c == '$') || !rest.starts_with("::") {
            continue;
        }
        expand(vec![root.to_string()], rest, &mut out);
    }
    out
}

/// Reads `::seg::seg..` or `::{tree, ..}` after `prefix` into whole paths.
fn expand(mut prefix: ModPath, mut rest: &str, out: &mut Vec<ModPath>) {
    while let Some(after) = rest.strip_prefix("::") {
        if after.starts_with('{') {
            let inner = &after[1..block_end(after) - 1];
            for item in split_top(inner) {
                let item = item.trim();
                let name: String = item.chars().take_while(|&c| is_word(c)).collect();
                if name.is_empty() || name == "self" {
                    out.push(prefix.clone());
                    continue;
                }
                let mut p = prefix.clone();
                p.push(name.clone());
                expand(p, &item[name.len()..], out);
            }
            return;
        }
        let name: String = after.chars().take_while(|&c| is_word(c)).collect();
        if name.is_empty() {
            break;
        }
        rest = &after[name.len()..];
        prefix.push(name);
    }
    out.push(prefix);
}

/// `a, b::{c, d}, e` split at its top-level commas.
fn split_top(list: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in list.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&list[start..]);
    parts
}

/// The child modules a file declares (`mod x;`, `pub mod x;`).
fn children(code: &str) -> Vec<String> {
    code.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("pub ").unwrap_or(l);
            let name = l.strip_prefix("mod ")?.strip_suffix(';')?;
            Some(name.trim().to_string())
        })
        .collect()
}

/// Every path a file's code names, made absolute (`crate::` removed, `super::` and `self::`
/// and its children's bare names resolved against `module`).
fn named_paths(code: &str, module: &ModPath) -> Vec<ModPath> {
    // `super::` is the parent of the file's module (a `mod.rs` is its folder's module).
    let here = module.clone();
    let mut out: Vec<ModPath> = paths_from(code, "crate")
        .into_iter()
        .map(|p| p[1..].to_vec())
        .collect();
    for p in paths_from(code, "super") {
        let mut base = here[..here.len() - 1].to_vec();
        let mut segs = &p[1..];
        while segs.first().is_some_and(|s| s == "super") {
            base.pop();
            segs = &segs[1..];
        }
        base.extend(segs.iter().cloned());
        out.push(base);
    }
    for p in paths_from(code, "self") {
        let mut base = here.clone();
        base.extend(p[1..].iter().cloned());
        out.push(base);
    }
    for child in children(code) {
        for p in paths_from(code, &child) {
            let mut base = here.clone();
            base.extend(p);
            out.push(base);
        }
    }
    out
}

/// What each module re-exports: (module, name) to the path the name stands for.
fn re_exports(
    all: &BTreeMap<ModPath, PathBuf>,
) -> TestResult<BTreeMap<(ModPath, String), ModPath>> {
    let mut out = BTreeMap::new();
    for (module, file) in all {
        let code = code_of(&read(file)?);
        let kids = children(&code);
        for statement in code.split(';') {
            let Some(tree) = statement.trim().strip_prefix("pub use ") else {
                continue;
            };
            for path in named_paths(&format!("use {tree};"), module) {
                if let Some(name) = path.last() {
                    out.insert((module.clone(), name.clone()), path.clone());
                }
            }
            for child in &kids {
                if let Some(rest) = tree
                    .strip_prefix(child.as_str())
                    .filter(|r| r.starts_with("::"))
                {
                    let mut found = Vec::new();
                    expand(vec![child.clone()], rest, &mut found);
                    for p in found {
                        let mut full = module.clone();
                        full.extend(p.iter().cloned());
                        out.insert((module.clone(), p[p.len() - 1].clone()), full);
                    }
                }
            }
        }
    }
    Ok(out)
}

/// The file a path lands in: the deepest module on it, through re-exports.
fn resolve(
    path: &[String],
    all: &BTreeMap<ModPath, PathBuf>,
    exports: &BTreeMap<(ModPath, String), ModPath>,
    depth: usize,
) -> Option<ModPath> {
    let n = (1..=path.len())
        .rev()
        .find(|&n| all.contains_key(&path[..n]))?;
    let module = path[..n].to_vec();
    match path
        .get(n)
        .and_then(|name| exports.get(&(module.clone(), name.clone())))
    {
        Some(target) if depth < 8 && target.as_slice() != path => {
            let mut next = target.clone();
            next.extend(path[n + 1..].iter().cloned());
            resolve(&next, all, exports, depth + 1).or(Some(module))
        }
        _ => Some(module),
    }
}

/// Each file's imports: the other files of `src/ui` its code names.
fn imports() -> TestResult<BTreeMap<ModPath, BTreeSet<ModPath>>> {
    let all = files()?;
    let exports = re_exports(&all)?;
    let mut out = BTreeMap::new();
    for (module, file) in &all {
        let code = code_of(&read(file)?);
        let mut named: Vec<ModPath> = named_paths(&code, module)
            .into_iter()
            .filter(|p| p.first().is_some_and(|s| s == "ui"))
            .collect();
        // A module imported by name (`use crate::ui::charts;`) is then named by its last
        // segment (`charts::time_chart::X`): those paths count too.
        let modules: Vec<ModPath> = named
            .iter()
            .filter(|p| all.contains_key(*p))
            .cloned()
            .collect();
        for m in modules {
            for p in paths_from(&code, &m[m.len() - 1]) {
                let mut full = m.clone();
                full.extend(p[1..].iter().cloned());
                named.push(full);
            }
        }
        let found: BTreeSet<ModPath> = named
            .iter()
            .filter_map(|p| resolve(p, &all, &exports, 0))
            .filter(|m| m != module)
            .collect();
        out.insert(module.clone(), found);
    }
    Ok(out)
}

/// A circle of imports, if there is one: the files around it, the first repeated at the end.
fn a_circle(graph: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Option<Vec<ModPath>> {
    // Depth-first, with the files on the current walk: an edge back to one closes a circle.
    fn walk(
        at: &ModPath,
        graph: &BTreeMap<ModPath, BTreeSet<ModPath>>,
        on_walk: &mut Vec<ModPath>,
        done: &mut BTreeSet<ModPath>,
    ) -> Option<Vec<ModPath>> {
        if let Some(i) = on_walk.iter().position(|m| m == at) {
            let mut circle = on_walk[i..].to_vec();
            circle.push(at.clone());
            return Some(circle);
        }
        if !done.insert(at.clone()) {
            return None;
        }
        on_walk.push(at.clone());
        for next in graph.get(at).into_iter().flatten() {
            if let Some(c) = walk(next, graph, on_walk, done) {
                return Some(c);
            }
        }
        on_walk.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| walk(m, graph, &mut Vec::new(), &mut done))
}

fn shown(m: &ModPath) -> String {
    m.join("::")
}

#[test]
fn every_file_sits_in_a_documented_layer() -> TestResult {
    let layers = documented_layers()?;
    assert_eq!(
        layers,
        ["pure", "browser", "charts", "controls", "views", "shell"],
        "src/ui/mod.rs lists the layers"
    );
    for (module, file) in files()? {
        let layer = layer_of(&module, &file);
        assert!(layers.contains(&layer), "{} is in no layer", file.display());
    }
    Ok(())
}

#[test]
fn each_file_imports_only_its_own_layer_and_those_below() -> TestResult {
    let layers = documented_layers()?;
    let all = files()?;
    let rank = |m: &ModPath| {
        let layer = layer_of(m, &all[m]);
        layers.iter().position(|l| *l == layer).unwrap()
    };
    let mut wrong = Vec::new();
    for (module, found) in imports()? {
        for import in found {
            if rank(&import) > rank(&module) {
                wrong.push(format!("{} imports {}", shown(&module), shown(&import)));
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

#[test]
fn no_file_imports_one_that_imports_it() -> TestResult {
    let circle = a_circle(&imports()?);
    assert!(
        circle.is_none(),
        "an import circle: {}",
        circle
            .unwrap()
            .iter()
            .map(shown)
            .collect::<Vec<_>>()
            .join(" -> ")
    );
    Ok(())
}

#[test]
fn the_pure_layer_names_no_browser_crate() -> TestResult {
    for (module, file) in files()? {
        if layer_of(&module, &file) != "pure" {
            continue;
        }
        let code = code_of(&fs::read_to_string(&file).unwrap());
        for web in ["web_sys", "js_sys", "wasm_bindgen", "gloo"] {
            assert!(
                paths_from(&code, web).is_empty(),
                "{} names {web}",
                file.display()
            );
        }
    }
    Ok(())
}

#[test]
fn the_reader_of_imports_sees_every_form_and_skips_comments_and_tests() {
    // The checks stand on this reader: an import it cannot see would pass unnoticed.
    let code = code_of(
        "mod kid;\n\
         use crate::ui::{pure::{format, state::Lab}, charts};\n\
         use kid::Thing;\n\
         fn f() { super::super::browser::pool::Pool::expect(); self::inner::g(); }\n\
         // crate::ui::views in a comment is no import\n\
         #[cfg(test)]\nmod tests { use crate::ui::app; fn g() { let _ = ('{', \"}}\"); } }\n\
         fn after_the_tests() { crate::ui::controls::locked(); }",
    );
    let here: ModPath = ["ui", "views", "share"].map(String::from).to_vec();
    let found: Vec<String> = named_paths(&code, &here).iter().map(shown).collect();
    assert_eq!(
        found,
        [
            "ui::pure::format",
            "ui::pure::state::Lab",
            "ui::charts",
            "ui::controls::locked",
            "ui::browser::pool::Pool::expect",
            "ui::views::share::inner::g",
            "ui::views::share::kid::Thing",
        ]
    );
}

#[test]
fn a_name_re_exported_stands_for_the_file_that_defines_it() -> TestResult {
    let all = files()?;
    let exports = re_exports(&all)?;
    let path = |s: &str| s.split("::").map(String::from).collect::<ModPath>();
    // charts/mod.rs re-exports ChartStyle from charts/style.rs.
    assert_eq!(
        resolve(&path("ui::charts::ChartStyle"), &all, &exports, 0),
        Some(path("ui::charts::style"))
    );
    // controls/mod.rs re-exports `locked` from controls/lock.rs.
    assert_eq!(
        resolve(&path("ui::controls::locked"), &all, &exports, 0),
        Some(path("ui::controls::lock"))
    );
    Ok(())
}

#[test]
fn a_circle_is_found_and_named() {
    let m = |s: &str| vec![s.to_string()];
    let graph: BTreeMap<ModPath, BTreeSet<ModPath>> = [
        (m("a"), [m("b")].into()),
        (m("b"), [m("c")].into()),
        (m("c"), [m("a")].into()),
        (m("d"), [m("a")].into()),
    ]
    .into();
    assert_eq!(a_circle(&graph), Some(vec![m("a"), m("b"), m("c"), m("a")]));
    let mut acyclic = graph.clone();
    acyclic.insert(m("c"), BTreeSet::new());
    assert_eq!(a_circle(&acyclic), None);
}
