//! `lab quiz` and `lab tour`, run as a real process against the tour files the page builds in
//! (`assets/tours`): the same questions, the same checks, the answers the page reveals.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{lab, stderr, stdout, TestResult};

use std::path::PathBuf;

use serde_json::Value;

fn tours_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/tours")
}

/// A built-in tour's file, read as JSON.
fn tour(id: &str) -> TestResult<Value> {
    let text = std::fs::read_to_string(tours_dir().join(format!("{id}.json")))?;
    Ok(serde_json::from_str(&text)?)
}

/// A scratch file with `text`, named for the test.
fn scratch(name: &str, text: &str) -> TestResult<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("quiz");
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(name);
    std::fs::write(&path, text)?;
    Ok(path)
}

/// OSTEP's `ssd.py` habit: one seed, one quiz, whenever it is asked; another seed draws
/// another drive. The tours' questions come first, word for word as their files have them.
#[test]
fn a_seed_asks_the_same_questions_every_time() -> TestResult {
    let first = stdout(&lab(&["quiz", "--seed", "7"])?)?;
    let again = stdout(&lab(&["quiz", "--seed", "7"])?)?;
    let other = stdout(&lab(&["quiz", "--seed", "8"])?)?;
    assert_eq!(first, again);
    assert_ne!(first, other, "seed 8 draws another drive or other options");
    assert!(first.starts_with("9 questions; predict each"), "{first}");
    for id in ["predict-capacity", "littles-law"] {
        for step in tour(id)?["steps"].as_array().ok_or("steps")? {
            if let Some(ask) = step["question"]["ask"].as_str() {
                assert!(first.contains(ask), "{ask}");
            }
        }
    }
    assert!(first.contains("Q7. A drive drawn from seed 7"));
    assert!(!first.contains("Answer:"), "no answers without -c");
    Ok(())
}

/// `-c` prints each answer as the page reveals it to a class ("The model's answer: C (The
/// same)."): the letter of the file's `answer`, and for a drawn guess the model's curve at
/// every depth the chart marks.
#[test]
fn compute_prints_the_answers_the_page_reveals() -> TestResult {
    let out = stdout(&lab(&["quiz", "-c"])?)?;
    let letters = ['A', 'B', 'C', 'D', 'E', 'F'];
    for id in ["predict-capacity", "littles-law"] {
        for step in tour(id)?["steps"].as_array().ok_or("steps")? {
            let q = &step["question"];
            if let (Some(answer), Some(options)) = (q["answer"].as_u64(), q["options"].as_array()) {
                let i = usize::try_from(answer)? - 1;
                let words = options[i].as_str().ok_or("an option")?;
                let line = format!("Answer: The model's answer: {} ({words}).", letters[i]);
                assert!(out.contains(&line), "{line}");
            }
            if let Some(why) = q["explanation"].as_str() {
                assert!(out.contains(&format!("Why: {why}")), "{why}");
            }
        }
    }
    let curve = out
        .lines()
        .find(|l| l.contains("Answer: The model's curve: "))
        .ok_or("the drawn guess's answer")?;
    for depth in [1, 2, 4, 8, 16, 32, 64, 128, 256] {
        assert!(curve.contains(&format!("QD {depth} ")), "{curve}");
    }
    assert_eq!(
        out.matches("    Model: ").count(),
        9,
        "each answer with the model's figures"
    );
    assert!(out.contains("limited by NAND dies"));
    Ok(())
}

#[test]
fn a_tour_of_ones_own_asks_its_questions_and_a_bad_one_names_its_line() -> TestResult {
    let own = tour("predict-capacity")?
        .to_string()
        .replace("\"predict-capacity\"", "\"my-class\"");
    let good = scratch("my-class.json", &own)?;
    let out = stdout(&lab(&["quiz", "--tour", good.to_str().ok_or("path")?])?)?;
    assert!(out.starts_with("3 questions;"), "{out}");
    assert!(
        !out.contains("drawn from seed"),
        "one tour's questions alone"
    );

    let bad = scratch("bad.json", &own.replace("qd=256", "qd=0"))?;
    let o = lab(&["quiz", "--tour", bad.to_str().ok_or("path")?])?;
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("step 2's state: qd: 0 is outside 1 to 1024"),
        "{}",
        stderr(&o)
    );
    let o = lab(&["quiz", "--tour", "qd1-reads"])?;
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the tour asks no questions; built-in tours with questions: predict-capacity, littles-law"),
        "{}",
        stderr(&o)
    );
    let o = lab(&["quiz", "--tour", "littles-law", "--seed", "3"])?;
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("give --seed or --tour, not both"),
        "{}",
        stderr(&o)
    );
    Ok(())
}

/// `lab tour check` reads a file as the page does: a good one opens, a malformed one is
/// refused by line and column with the page's words, a built-in tour's id is refused.
#[test]
fn tour_check_accepts_what_the_page_opens_and_names_the_line_of_what_it_refuses() -> TestResult {
    let own = tour("littles-law")?
        .to_string()
        .replace("\"littles-law\"", "\"rate-class\"");
    let good = scratch("rate-class.json", &own)?;
    let o = lab(&["tour", "check", good.to_str().ok_or("path")?])?;
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o)?.ends_with(
        ": the tour 'rate-class' (Little's law at a rate: how many requests are in the drive?), 3 steps, 3 questions: the page opens it\n"
    ));

    let bad = scratch("broken.json", "{\n  \"id\": \"x\",\n  \"title\": 5\n}")?;
    let o = lab(&["tour", "check", bad.to_str().ok_or("path")?])?;
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("broken.json: line 3, column "),
        "{}",
        stderr(&o)
    );

    let builtin = tours_dir().join("littles-law.json");
    let o = lab(&["tour", "check", builtin.to_str().ok_or("path")?])?;
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("another tour has the id 'littles-law'"),
        "{}",
        stderr(&o)
    );
    Ok(())
}

#[test]
fn tour_list_names_every_built_in_tour() -> TestResult {
    let out = stdout(&lab(&["tour", "list"])?)?;
    let mut files = 0;
    for entry in std::fs::read_dir(tours_dir())? {
        let path = entry?.path();
        let id = path.file_stem().and_then(|s| s.to_str()).ok_or("a name")?;
        assert!(out.lines().any(|l| l.starts_with(id)), "{id} in\n{out}");
        files += 1;
    }
    assert_eq!(out.lines().count(), files);
    Ok(())
}
