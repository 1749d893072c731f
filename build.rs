//! Writes the built-in tours' step states (`assets/tours/*.json`) into
//! `$OUT_DIR/tour_steps.rs`, a table of `(id, [state, ...])` that the opening chart reads: it
//! draws a teacher's link to a step (`?tour=p99&step=2`) as soon as a plain link, without the
//! tour reader, whose JSON parser and checks would add a third to its download (measured:
//! 134.3 -> 167.7 KB gzip). The app reads the files themselves with the tour reader
//! (`src/ui/pure/tour_file.rs`); a test checks this table against what it reads
//! (`tours::tests::the_build_s_table_of_step_states_is_the_tours_own`), so the two cannot
//! part. A file this script cannot read is left out of the table, and that test names it.

use std::error::Error;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const TOURS: &str = "assets/tours";

fn main() -> Result<(), Box<dyn Error>> {
    println!("cargo::rerun-if-changed={TOURS}");
    let mut files: Vec<PathBuf> = std::fs::read_dir(TOURS)?
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = String::from(
        "/// Each built-in tour's id and its steps' states, in file order (made by `build.rs`).\n\
         pub static STEP_STATES: &[(&str, &[&str])] = &[\n",
    );
    for path in &files {
        println!("cargo::rerun-if-changed={}", path.display());
        if let Some((id, states)) = steps_of(path) {
            let states: Vec<String> = states.iter().map(|s| format!("{s:?}")).collect();
            writeln!(out, "    ({id:?}, &[{}]),", states.join(", "))?;
        }
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR")?).join("tour_steps.rs");
    std::fs::write(dest, out)?;
    Ok(())
}

/// The tour's id and its steps' states, if the file has them.
fn steps_of(path: &Path) -> Option<(String, Vec<String>)> {
    let text = std::fs::read_to_string(path).ok()?;
    let tour: serde_json::Value = serde_json::from_str(&text).ok()?;
    let id = tour["id"].as_str()?.to_string();
    let states = tour["steps"]
        .as_array()?
        .iter()
        .map(|step| step["state"].as_str().map(str::to_string))
        .collect::<Option<Vec<String>>>()?;
    Some((id, states))
}
