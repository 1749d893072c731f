//! The guide (`guide/`, mdBook) as its readers meet it, built as the app's build builds it
//! (`assets/guide.sh`, the step of Trunk's post_build hook that writes `dist/guide/`):
//! - every link and resource of the built book lands on a file of the book, and every `#anchor`
//!   on an id of its page (the ids read from the built HTML, not guessed);
//! - the anchor rule the Markdown is written to is the one mdBook applies, so the links of the
//!   README, the changelog and the guide's sources resolve in the repository too (GitHub);
//! - every `lab` command in the guide's and the README's example blocks runs as written: exit
//!   status 0, or 2 with the words the example promises (`# refused (status 2): words`);
//! - every link example names only the lab's URL parameters (the page's parser reads them in a
//!   test of the page: [`guide_text::url_examples`]);
//! - the README stays a first read: the two commands first, under 400 lines.
//!
//! The guide is built fresh (under a second): `dist/guide/` may be older than the sources, since
//! `./dev.sh test` runs these tests before its release build. Without mdbook the tests fail and
//! say how to install it; they never skip.
#![cfg(not(target_arch = "wasm32"))]

mod guide_text;

use std::collections::{BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};
use std::process::Command;
use std::sync::{OnceLock, PoisonError};

use guide_text::{anchors, guide_sources, links, split, Source};

/// What a test or its helper returns: a file it cannot read or a command it cannot run is an
/// error, not a panic (one that can cross from the threads that run the examples).
type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// The repository's root.
fn root() -> TestResult<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root.canonicalize();
    Ok(root.map_err(|e| format!("the repository's root: {e}"))?)
}

/// The built guide: `assets/guide.sh` run once per run of this file, into Cargo's temporary
/// directory for tests; a build that failed fails every test that asks for it, in its words.
fn built() -> TestResult<&'static Path> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let built = BUILT.get_or_init(|| build_guide().map_err(|e| e.to_string()));
    Ok(built.as_deref().map_err(|e| e.clone())?)
}

/// Builds the guide as `trunk build` does, into a staging folder of its own.
fn build_guide() -> TestResult<PathBuf> {
    let mdbook = Command::new("mdbook").arg("--version").output();
    assert!(
        mdbook.is_ok_and(|o| o.status.success()),
        "mdbook is not on PATH: this test builds the guide as `trunk build` does \
         (assets/guide.sh). `./dev.sh setup` installs it (cargo install mdbook --version \
         0.5.4 --locked, into ~/.cargo/bin, which ./dev.sh check and test put on PATH)"
    );
    let staging = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("guide-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).map_err(|e| format!("a staging folder: {e}"))?;
    let out = Command::new("bash")
        .arg(root()?.join("assets/guide.sh"))
        .env("TRUNK_STAGING_DIR", &staging)
        .output()
        .map_err(|e| format!("bash runs: {e}"))?;
    assert!(
        out.status.success(),
        "assets/guide.sh failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(staging.join("guide"))
}

/// Every file under `dir`, recursively, as paths relative to it.
fn files(dir: &Path) -> TestResult<Vec<PathBuf>> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<PathBuf>) -> TestResult {
        let folder = |e| format!("a readable folder {}: {e}", dir.display());
        for entry in std::fs::read_dir(dir).map_err(folder)? {
            let path = entry.map_err(folder)?.path();
            if path.is_dir() {
                walk(&path, base, out)?;
            } else {
                out.push(path.strip_prefix(base)?.to_path_buf());
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    out.sort();
    Ok(out)
}

/// The values of one attribute (`href`, `src`, `id`) in an HTML text, quoted or not.
fn attribute_values<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let pattern = format!("{name}=");
    let mut out = Vec::new();
    for (at, _) in html.match_indices(&pattern) {
        if !html[..at].ends_with(|c: char| c.is_ascii_whitespace()) {
            continue;
        }
        let rest = &html[at + pattern.len()..];
        let value = match rest.chars().next() {
            Some(q @ ('"' | '\'')) => rest[1..].split(q).next(),
            _ => rest
                .split(|c: char| c.is_ascii_whitespace() || c == '>')
                .next(),
        };
        out.extend(value);
    }
    out
}

/// `target` (a path relative to the folder `from`, `..` allowed) as a path relative to the
/// book, or None when it leaves the book.
fn resolve(from: &Path, target: &str) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in from.join(target).components() {
        match part {
            Component::Normal(p) => out.push(p),
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(out)
}

/// A link that points off this site, or at nothing to check.
fn is_external(target: &str) -> bool {
    target.is_empty()
        || target.contains("://")
        || target.starts_with("//")
        || ["mailto:", "javascript:", "data:"]
            .iter()
            .any(|p| target.starts_with(p))
}

/// Whether `target`, a link in the built page `page`, lands on a file of the book and, with a
/// `#fragment`, on an id of that page. `ids` holds every HTML page's ids.
fn lands(
    page: &Path,
    target: &str,
    ids: &HashMap<PathBuf, BTreeSet<String>>,
    book: &BTreeSet<PathBuf>,
) -> Result<(), String> {
    let target = target.replace("&amp;", "&");
    let (path, fragment) = target.split_once('#').unwrap_or((target.as_str(), ""));
    let path = path.split('?').next().unwrap_or_default();
    let file = if path.is_empty() {
        page.to_path_buf()
    } else {
        let dir = page.parent().unwrap_or(Path::new(""));
        let mut file = resolve(dir, path).ok_or("leaves the book")?;
        if path.ends_with('/') || file.as_os_str().is_empty() {
            file.push("index.html");
        }
        file
    };
    if !book.contains(&file) {
        return Err(format!("no file {}", file.display()));
    }
    match ids.get(&file) {
        Some(known) if !fragment.is_empty() && !known.contains(fragment) => {
            Err(format!("no id \"{fragment}\" in {}", file.display()))
        }
        _ => Ok(()),
    }
}

#[test]
fn every_link_and_resource_of_the_built_guide_lands_on_a_file_and_an_id_that_exist() -> TestResult {
    let guide = built()?;
    let book: BTreeSet<PathBuf> = files(guide)?.into_iter().collect();
    let pages: Vec<&PathBuf> = book
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    assert!(
        book.contains(Path::new("index.html")) && pages.len() > 20,
        "the built guide has {} pages",
        pages.len()
    );
    let html: HashMap<PathBuf, String> = pages
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(guide.join(p)).expect("a page");
            ((*p).clone(), text)
        })
        .collect();
    let ids: HashMap<PathBuf, BTreeSet<String>> = html
        .iter()
        .map(|(p, t)| {
            let set = attribute_values(t, "id").into_iter().map(String::from);
            (p.clone(), set.collect())
        })
        .collect();
    let mut broken = Vec::new();
    let mut checked = 0;
    for (page, text) in &html {
        let targets = attribute_values(text, "href").into_iter();
        for target in targets.chain(attribute_values(text, "src")) {
            if is_external(target) {
                continue;
            }
            checked += 1;
            if let Err(why) = lands(page, target, &ids, &book) {
                broken.push(format!("{}: {target}: {why}", page.display()));
            }
        }
    }
    assert!(checked > 500, "only {checked} links checked");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    Ok(())
}

/// A source's text, with mdBook's `{{#include FILE}}` (the changelog chapter) read in.
fn expanded(source: &Source) -> TestResult<String> {
    let text = source.text.trim();
    match text
        .strip_prefix("{{#include ")
        .and_then(|t| t.strip_suffix("}}"))
    {
        Some(file) => {
            let dir = source
                .path
                .parent()
                .ok_or_else(|| format!("a folder: {}", source.path.display()))?;
            let included = std::fs::read_to_string(dir.join(file));
            Ok(included.map_err(|e| format!("the included file {file}: {e}"))?)
        }
        None => Ok(source.text.clone()),
    }
}

#[test]
fn every_heading_of_the_sources_has_the_anchor_the_built_page_gives_it() -> TestResult {
    let guide = built()?;
    let mut missing = Vec::new();
    let mut checked = 0;
    for source in guide_sources(&root()?)? {
        let name = source.name();
        if name == "SUMMARY.md" {
            continue;
        }
        let page = guide.join(name.replace(".md", ".html"));
        let html =
            std::fs::read_to_string(&page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
        let ids: BTreeSet<&str> = attribute_values(&html, "id").into_iter().collect();
        for anchor in anchors(&expanded(&source)?) {
            checked += 1;
            if !ids.contains(anchor.as_str()) {
                missing.push(format!("{name}: #{anchor}"));
            }
        }
    }
    assert!(checked > 100, "only {checked} headings");
    assert!(
        missing.is_empty(),
        "headings whose anchor the built guide does not have (the rule in guide_text::anchor \
         differs from mdBook's):\n{}",
        missing.join("\n")
    );
    Ok(())
}

/// The Markdown the repository shows: the README, the changelog and the guide's sources.
fn markdown() -> TestResult<Vec<Source>> {
    let root = root()?;
    let mut all = vec![
        Source::read(root.join("README.md"))?,
        Source::read(root.join("CHANGELOG.md"))?,
    ];
    all.extend(guide_sources(&root)?);
    Ok(all)
}

/// Whether a Markdown link resolves in the repository: its file exists and, for `#anchor`, the
/// file has a heading of that anchor.
fn resolves_in_repository(source: &Source, target: &str) -> Result<(), String> {
    let (path, fragment) = target.split_once('#').unwrap_or((target, ""));
    let file = if path.is_empty() {
        source.path.clone()
    } else {
        let folder = source.path.parent();
        folder.ok_or("a folder")?.join(path)
    };
    if !file.exists() {
        return Err(format!("no file {}", file.display()));
    }
    if fragment.is_empty() {
        return Ok(());
    }
    let target_source = Source::read(file).map_err(|e| e.to_string())?;
    let text = expanded(&target_source).map_err(|e| e.to_string())?;
    if anchors(&text).iter().any(|a| a == fragment) {
        Ok(())
    } else {
        Err(format!("no heading #{fragment}"))
    }
}

#[test]
fn every_link_of_the_readme_the_changelog_and_the_guide_resolves_in_the_repository() -> TestResult {
    let mut broken = Vec::new();
    let mut checked = 0;
    for source in markdown()? {
        let (_, prose) = split(&source.text);
        for (number, line) in prose {
            for target in links(line).iter().filter(|t| !is_external(t)) {
                checked += 1;
                if let Err(why) = resolves_in_repository(&source, target) {
                    broken.push(format!("{}:{number}: {target}: {why}", source.name()));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} links checked");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    Ok(())
}

/// One `lab` command of an example block, as the guide writes it.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Example {
    args: Vec<String>,
    /// `> FILE`: its output is a file the next examples read.
    stdout_to: Option<String>,
    /// `# refused (status 2): words`: the command must be refused with these words.
    refused: Option<String>,
}

impl Example {
    /// The example of one command line (continuations joined), if it runs `lab`.
    fn of(line: &str) -> Option<Example> {
        let (command, comment) = line.split_once(" #").unwrap_or((line, ""));
        let rest = match command.split_once("--bin lab --") {
            Some((_, rest)) => rest,
            None => command.trim_start().strip_prefix("lab ")?,
        };
        let mut words = rest.split_whitespace();
        let mut args = Vec::new();
        let mut stdout_to = None;
        while let Some(word) = words.next() {
            assert!(
                !word.contains(['"', '\'', '|', '$', '<']),
                "the guide's test runs plain commands; quote or pipe in: {line}"
            );
            if word == ">" {
                stdout_to = words.next().map(String::from);
                break;
            }
            args.push(word.to_string());
        }
        let refused = comment
            .split_once("refused (status 2):")
            .map(|(_, words)| words.trim().to_string());
        Some(Example {
            args,
            stdout_to,
            refused,
        })
    }
}

/// Every `lab` command of the shell blocks (`sh`, `bash`, `console` or no language) of these
/// sources, in order, each once.
fn examples(sources: &[Source]) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    for source in sources {
        let (blocks, _) = split(&source.text);
        let shell = blocks
            .iter()
            .filter(|b| ["sh", "bash", "console", ""].contains(&b.info.as_str()));
        for block in shell {
            let mut line = String::new();
            for part in &block.lines {
                match part.trim_end().strip_suffix('\\') {
                    Some(head) => line.push_str(head),
                    None => {
                        line.push_str(part);
                        out.extend(Example::of(&line).filter(|e| !out.contains(e)));
                        line.clear();
                    }
                }
            }
        }
    }
    out
}

/// A run of one example: its exit status and output.
struct Ran {
    status: Option<i32>,
    stdout: String,
    stderr: String,
    seconds: f64,
}

fn run(example: &Example, dir: &Path) -> TestResult<Ran> {
    let started = std::time::Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_lab"))
        .args(&example.args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("lab runs: {e}"))?;
    if let (Some(file), true) = (&example.stdout_to, out.status.success()) {
        let written = std::fs::write(dir.join(file), &out.stdout);
        written.map_err(|e| format!("the example's output file {file}: {e}"))?;
    }
    Ok(Ran {
        status: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// What is wrong with a run of `example`, if anything.
fn verdict(example: &Example, ran: &Ran) -> Option<String> {
    let ok = match &example.refused {
        None => ran.status == Some(0),
        Some(words) => ran.status == Some(2) && ran.stderr.contains(words.as_str()),
    };
    let want = match &example.refused {
        None => "exit status 0".to_string(),
        Some(words) => format!("exit status 2 with \"{words}\""),
    };
    (!ok).then(|| {
        format!(
            "lab {}: wanted {want}, got {:?}; stderr: {}",
            example.args.join(" "),
            ran.status,
            ran.stderr.trim()
        )
    })
}

/// Runs the examples, those that write a file first and in order (others may read it), then
/// the rest side by side; the runs in the examples' order.
fn run_all(examples: &[Example], dir: &Path) -> TestResult<Vec<Ran>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let mut order: Vec<usize> = (0..examples.len()).collect();
    order.sort_by_key(|&i| examples[i].stdout_to.is_none());
    let writers = order
        .iter()
        .take_while(|&&i| examples[i].stdout_to.is_some());
    let mut runs: Vec<(usize, TestResult<Ran>)> =
        writers.map(|&i| (i, run(&examples[i], dir))).collect();
    let rest = &order[runs.len()..];
    let next = AtomicUsize::new(0);
    let done = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(&i) = rest.get(next.fetch_add(1, Ordering::SeqCst)) {
                    let ran = run(&examples[i], dir);
                    // A run that panicked has failed the scope already: no run is lost.
                    let mut done = done.lock().unwrap_or_else(PoisonError::into_inner);
                    done.push((i, ran));
                }
            });
        }
    });
    runs.extend(done.into_inner().unwrap_or_else(PoisonError::into_inner));
    runs.sort_by_key(|(i, _)| *i);
    runs.into_iter().map(|(_, ran)| ran).collect()
}

/// A trace in fio's iolog version 3, the format `lab replay` reads it in.
const IOLOG: &str = "fio version 3 iolog\n0 /dev/nvme0n1 add\n0 /dev/nvme0n1 open\n\
    0 /dev/nvme0n1 read 0 4096\n100 /dev/nvme0n1 write 2097152 131072\n\
    1057 /dev/nvme0n1 write 8192 4096\n2308 /dev/nvme0n1 read 3534848 4096\n\
    2400 /dev/nvme0n1 close\n";

/// Measurements in the reference's format, for `lab fit --data`: some of the E18DC's cells.
const CELLS: &str = "capacity_gb,workload,block,read_pct,qd,iops,mb_s,lat_ms\n\
    480,random,4KiB,100,1,13095,,0.075\n480,random,4KiB,100,32,132340,,\n\
    480,random,4KiB,100,256,264124,,0.969\n1920,random,4KiB,100,1,13078,,0.076\n\
    1920,random,4KiB,100,32,263839,,\n1920,random,4KiB,100,256,646007,,0.396\n\
    480,random,4KiB,0,1,17825,,\n480,random,4KiB,0,256,18440,,13.882\n\
    1920,random,4KiB,0,256,48522,,5.276\n";

/// A scratch folder holding the files the guide's examples name as the reader's own: fio's
/// output of a drive (`lab sweep --as-fio` writes it as fio would), the job file and the tour
/// file the guide shows, a trace and measurements.
fn readers_files(sources: &[Source]) -> TestResult<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("guide-examples-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("a scratch folder: {e}"))?;
    let fio = [
        ("randread.json", "--rw randread --bs 4k --iodepth 1,8,64"),
        ("read.json", "--rw read --bs 128k --iodepth 16"),
        (
            "lab.json",
            "--rw randrw --rwmixread 70 --bs 4k --iodepth 1,4,32",
        ),
    ];
    for (file, workload) in fio {
        let args = format!("sweep --preset e12 --capacity-gb 960 {workload} --ios 2000 --as-fio");
        let command = format!("lab {args} > {file}");
        let example = Example::of(&command).ok_or_else(|| format!("a lab command: {command}"))?;
        let ran = run(&example, &dir)?;
        assert!(verdict(&example, &ran).is_none(), "{}", ran.stderr);
    }
    let job_file = sources
        .iter()
        .flat_map(|s| split(&s.text).0)
        .find(|b| b.lines.first().is_some_and(|l| l == "[global]"))
        .ok_or("the guide shows a job file")?;
    let tour_file = sources
        .iter()
        .flat_map(|s| split(&s.text).0)
        .find(|b| {
            b.lines.first().is_some_and(|l| l == "{")
                && b.lines.iter().any(|l| l.contains("\"steps\""))
        })
        .ok_or("the guide shows a tour file")?;
    let files = [
        ("mix.fio", job_file.lines.join("\n") + "\n"),
        ("my-tour.json", tour_file.lines.join("\n") + "\n"),
        ("app.iolog", IOLOG.to_string()),
        ("my-cells.csv", CELLS.to_string()),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(dir)
}

#[test]
fn every_lab_command_of_the_guide_and_the_readme_runs_as_written() -> TestResult {
    let mut sources = guide_sources(&root()?)?;
    sources.push(Source::read(root()?.join("README.md"))?);
    let examples = examples(&sources);
    assert!(examples.len() > 25, "only {} examples", examples.len());
    assert!(examples.iter().any(|e| e.refused.is_some()));
    let dir = readers_files(&sources)?;
    let runs = run_all(&examples, &dir)?;
    let mut failed = Vec::new();
    for (example, ran) in examples.iter().zip(&runs) {
        eprintln!("{:6.1} s  lab {}", ran.seconds, example.args.join(" "));
        failed.extend(verdict(example, ran));
    }
    assert!(
        failed.is_empty(),
        "examples that fail:\n{}",
        failed.join("\n")
    );
    // The scorecard's summary line, as the guide quotes it, is what `lab validate` prints.
    let validate = examples.iter().position(|e| e.args == ["validate"]);
    let printed = &runs[validate.expect("the guide runs `lab validate`")].stdout;
    let quoted: Vec<&str> = sources
        .iter()
        .flat_map(|s| s.text.lines())
        .filter(|l| l.contains(" figures within their bands"))
        .filter(|l| l.split_whitespace().nth(1) == Some("of"))
        .collect();
    assert!(
        !quoted.is_empty(),
        "the guide quotes the scorecard's summary"
    );
    for line in quoted {
        assert!(
            printed.lines().any(|p| p == line),
            "the guide quotes\n{line}\nbut lab validate prints\n{printed}"
        );
    }
    Ok(())
}

#[test]
fn the_guide_s_link_examples_name_only_the_lab_s_parameters() -> TestResult {
    let sources = guide_sources(&root()?)?;
    let names = guide_text::url_parameter_names(&sources);
    assert!(names.len() > 20, "the URL parameters' table: {names:?}");
    let queries = guide_text::url_examples(&sources);
    assert!(queries.len() > 30, "only {} link examples", queries.len());
    let mut unknown = Vec::new();
    for query in &queries {
        for pair in query.split('&') {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            if !names.iter().any(|n| n == name) || value.is_empty() {
                unknown.push(format!("{pair} (in ?{query})"));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "link examples with an undocumented name or no value:\n{}",
        unknown.join("\n")
    );
    Ok(())
}

#[test]
fn the_readme_is_a_first_read_with_the_two_commands_first() -> TestResult {
    let readme = Source::read(root()?.join("README.md"))?;
    let lines = readme.text.lines().count();
    assert!(
        lines < 400,
        "README.md has {lines} lines; the guide holds the rest"
    );
    let (blocks, prose) = split(&readme.text);
    assert_eq!(
        blocks.first().map(|b| b.lines.clone()),
        Some(vec![
            "./dev.sh serve   # installs what is missing, builds, serves the lab on http://127.0.0.1:8080".to_string(),
            "./dev.sh test    # installs what is missing, runs every test (native, wasm in Chromium, end-to-end)".to_string(),
        ]),
        "the README opens with the two commands"
    );
    let before: Vec<&str> = prose
        .iter()
        .take_while(|(n, _)| *n < 3)
        .map(|(_, l)| *l)
        .collect();
    assert_eq!(
        before,
        ["# Parallelism Lab", ""],
        "nothing comes before them but the title"
    );
    let chapters = prose
        .iter()
        .flat_map(|(_, line)| links(line))
        .filter(|t| t.starts_with("guide/src/"))
        .count();
    assert!(
        chapters >= 10,
        "the README links {chapters} chapters of the guide"
    );
    Ok(())
}
