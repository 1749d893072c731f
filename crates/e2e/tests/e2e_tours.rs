//! End-to-end tests of the tours as a teacher and a class meet them: a question that hides
//! the model's answer until the reader commits (by mouse and by keyboard), the projector's
//! tally of a class's hands, a step of a linked tour that back and forward return to, and a
//! tour of the teacher's own, chosen or dropped, or refused by its line.
//!
//! Needs `dist/` (`trunk build --release`) and `/usr/bin/chromedriver`; fails, never skips,
//! without them. `tests/run-all.sh` builds `dist/` first and runs this crate last.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::fio::scratch;
use common::{Browser, Context, Result};
use fantoccini::key::Key;
use serde_json::{json, Value};

/// The tours the questions come from, as the page builds them in.
const CAPACITY_TOUR: &str = include_str!("../../../assets/tours/predict-capacity.json");
const LITTLE_TOUR: &str = include_str!("../../../assets/tours/littles-law.json");

/// Field `field` of step `n`'s (from 1) question in a tour file.
fn question_field(file: &str, n: usize, field: &str) -> Result<String> {
    let tour: Value = serde_json::from_str(file)?;
    tour["steps"][n - 1]["question"][field]
        .as_str()
        .map(str::to_string)
        .with_context(|| format!("no {field} in step {n}'s question"))
}

/// The computed `visibility` of the first element matching `css`.
async fn visibility(browser: &Browser, css: &str) -> Result<String> {
    let v = browser
        .js(
            "const e = document.querySelector(arguments[0]); return e ? getComputedStyle(e).visibility : 'absent';",
            vec![json!(css)],
        )
        .await?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

/// Whether the model's figures are hidden, as a reader and a screen reader find them: the
/// readout and the IOPS chart's canvas invisible, the note shown.
async fn model_hidden(browser: &Browser) -> Result<bool> {
    let readout = visibility(browser, "#readout").await?;
    let chart = visibility(browser, ".charts canvas").await?;
    let note = browser
        .js(
            "return document.getElementById('awaiting-note').hidden;",
            vec![],
        )
        .await?;
    Ok(readout == "hidden" && chart == "hidden" && note == json!(false))
}

async fn disabled(browser: &Browser, id: &str) -> Result<Value> {
    browser
        .js(
            "return document.getElementById(arguments[0]).disabled;",
            vec![json!(id)],
        )
        .await
}

/// The text of the element with id `id` once it is on the page (`what` names it in a failure).
async fn text_once_there(browser: &Browser, id: &str, what: &str) -> Result<String> {
    browser
        .wait_for(what, || async {
            let v = browser
                .js(
                    "const e = document.getElementById(arguments[0]); return e ? e.textContent : null;",
                    vec![json!(id)],
                )
                .await?;
            Ok(v.as_str().map(str::to_string))
        })
        .await
}

/// Waits for the reveal's verdict and returns it.
async fn verdict(browser: &Browser) -> Result<String> {
    text_once_there(browser, "tour-verdict", "the verdict after the reveal").await
}

/// The model's own sentence under the answer, once the point is computed.
async fn model_says(browser: &Browser) -> Result<String> {
    browser
        .wait_for("the model's figures under the answer", || async {
            let t = browser.text("#tour-model-says").await?;
            Ok(t.starts_with("Model:").then_some(t))
        })
        .await
}

/// Predict, then reveal, by mouse: the linked question step hides the readout and the
/// charts; Commit waits for a choice; the right choice says so, with the step's explanation
/// and the model's figures, and the charts show.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_tours_a_question_hides_the_model_until_the_reader_commits_by_mouse() -> Result {
    let browser = Browser::start().await?;
    browser
        .open("?tour=predict-capacity&step=1", "#tour-ask")
        .await?;
    browser.wait_for_queue_charts().await?;
    assert_eq!(
        browser.text("#tour-ask").await?,
        question_field(CAPACITY_TOUR, 1, "ask")?
    );
    assert!(model_hidden(&browser).await?, "hidden before the answer");
    assert_eq!(disabled(&browser, "tour-commit").await?, json!(true));
    browser.click("tour-option-3").await?;
    assert!(
        model_hidden(&browser).await?,
        "a choice alone reveals nothing"
    );
    browser.click("tour-commit").await?;
    assert_eq!(
        verdict(&browser).await?,
        "Your prediction matches the model."
    );
    assert_eq!(
        browser.text("#tour-explanation").await?,
        question_field(CAPACITY_TOUR, 1, "explanation")?
    );
    let says = model_says(&browser).await?;
    assert!(says.contains("limited by"), "{says}");
    assert_eq!(visibility(&browser, "#readout").await?, "visible");
    assert_eq!(visibility(&browser, ".charts canvas").await?, "visible");
    // The next step asks again; back at the first, its answer still shows.
    browser.click("tour-next").await?;
    browser
        .wait_until(
            "step 2's question",
            "return document.getElementById('tour-commit') !== null;",
        )
        .await?;
    assert!(model_hidden(&browser).await?, "step 2 hides its own answer");
    browser.click("tour-prev").await?;
    assert_eq!(
        verdict(&browser).await?,
        "Your prediction matches the model."
    );
    browser.assert_clean_console()?;
    browser.close().await
}

/// Drags the mouse across the IOPS chart, from its plot's left end at 80% of its height to its
/// right end at 30%, in `moves` steps: the browser's own input (CDP), as a hand would. The
/// chart is scrolled to the window's top first, clear of the step docked at its bottom, as a
/// reader scrolls it.
async fn drag_across_the_chart(browser: &Browser, moves: u32) -> Result {
    let rect = browser
        .js(
            "const p = document.getElementById('guess-pad'); p.scrollIntoView({block: 'start'});
             const r = p.getBoundingClientRect(); return [r.left, r.top, r.width, r.height];",
            vec![],
        )
        .await?;
    let r: Vec<f64> = serde_json::from_value(rect)?;
    let at = |t: f64| {
        let x = r[0] + 74.0 + t * (r[2] - 74.0 - 20.0);
        let y = r[1] + r[3] * (0.8 - 0.5 * t);
        (x, y)
    };
    let mouse = |kind: &str, (x, y): (f64, f64), buttons: u32| {
        browser.cdp(
            "Input.dispatchMouseEvent",
            json!({ "type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1 }),
        )
    };
    // The step docked at the window's bottom covers what lies under it: the stroke's ends
    // must be on the chart itself.
    for (x, y) in [at(0.0), at(1.0)] {
        let under = browser
            .js(
                "const e = document.elementFromPoint(arguments[0], arguments[1]); return e ? e.id : null;",
                vec![json!(x), json!(y)],
            )
            .await?;
        assert_eq!(under, json!("chart-iops"), "at ({x}, {y})");
    }
    mouse("mousePressed", at(0.0), 1)?;
    for i in 1..=moves {
        mouse("mouseMoved", at(f64::from(i) / f64::from(moves)), 1)?;
    }
    mouse("mouseReleased", at(1.0), 0)?;
    Ok(())
}

/// Predict by drawing: a question that asks for a curve leaves the IOPS chart in sight with
/// the model's curves out of it (every other figure hidden); a quick drag across the chart
/// draws a value at every depth; the keyboard moves along the depths and sets values, as a
/// slider says them; Enter commits, and the model's curve shows over the guess with how far
/// the guess was and the step's explanation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_tours_a_drawn_guess_hides_the_curve_then_shows_guess_and_model() -> Result {
    let browser = Browser::start().await?;
    browser
        .open("?tour=predict-capacity&step=3", "#guess-count")
        .await?;
    browser.wait_for_queue_charts().await?;
    assert_eq!(visibility(&browser, "#chart-iops").await?, "visible");
    assert_eq!(visibility(&browser, "#readout").await?, "hidden");
    assert_eq!(visibility(&browser, "#chart-latency").await?, "hidden");
    let label = browser
        .attr("#chart-iops", "aria-label")
        .await?
        .unwrap_or_default();
    assert!(label.contains("the model's curves are hidden"), "{label}");
    assert_eq!(
        browser.text("#guess-count").await?,
        "0 of 9 queue depths drawn."
    );
    assert_eq!(disabled(&browser, "tour-commit").await?, json!(true));

    // Three moves cross nine depths: the stroke fills those it passed over.
    drag_across_the_chart(&browser, 3).await?;
    assert_eq!(
        browser.text("#guess-count").await?,
        "9 of 9 queue depths drawn."
    );
    assert_eq!(disabled(&browser, "tour-commit").await?, json!(false));
    let label = browser
        .attr("#chart-iops", "aria-label")
        .await?
        .unwrap_or_default();
    assert!(
        label.contains("Your guess: QD 1: ") && label.contains("QD 256: "),
        "{label}"
    );

    let valuetext = || browser.attr("#guess-pad", "aria-valuetext");
    assert_eq!(
        browser.attr("#guess-pad", "role").await?.as_deref(),
        Some("slider")
    );
    browser.press("guess-pad", &Key::Home.to_string()).await?;
    assert!(valuetext().await?.unwrap_or_default().starts_with("QD 1: "));
    browser.press("guess-pad", &Key::Right.to_string()).await?;
    browser.press("guess-pad", &Key::Right.to_string()).await?;
    let before = valuetext().await?.unwrap_or_default();
    assert!(before.starts_with("QD 4: "), "{before}");
    browser.press("guess-pad", &Key::PageUp.to_string()).await?;
    let after = valuetext().await?.unwrap_or_default();
    assert!(
        after.starts_with("QD 4: ") && after != before,
        "{before} -> {after}"
    );
    assert_eq!(
        visibility(&browser, "#readout").await?,
        "hidden",
        "keys reveal nothing"
    );

    browser.press("guess-pad", &Key::Enter.to_string()).await?;
    let verdict = verdict(&browser).await?;
    assert!(
        verdict.starts_with("Your curve is ") && verdict.contains("from the model's on average"),
        "{verdict}"
    );
    assert_eq!(
        browser.text("#tour-explanation").await?,
        question_field(CAPACITY_TOUR, 3, "explanation")?
    );
    assert_eq!(visibility(&browser, "#readout").await?, "visible");
    let label = browser
        .attr("#chart-iops", "aria-label")
        .await?
        .unwrap_or_default();
    assert!(
        !label.contains("hidden") && label.contains("Your guess: QD 1: "),
        "the model's curves and the guess: {label}"
    );
    assert_eq!(
        browser.attr("#guess-pad", "role").await?,
        None,
        "no longer a pad"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

/// A teacher's own tour whose question asks for a point: a guess at QD 32 alone.
const POINT_TOUR: &str = r#"{
  "id": "point-class",
  "title": "One point",
  "audience": "Period 4",
  "steps": [
    {
      "state": "preset=e18dc&cap=480&qd=32&rw=randread&bs=4k&state=steady",
      "text": "Eight dies, 32 in flight.",
      "question": {
        "ask": "How many reads a second at QD 32?",
        "draw": { "up_to": 300000, "at": [32] },
        "explanation": "Four requests wait for each die."
      }
    }
  ]
}"#;

/// A point is a guess at the one depth its question names: one stroke sets it, and the
/// reveal compares it with the model's value there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_tours_a_point_guess_is_drawn_at_its_one_depth() -> Result {
    let browser = Browser::start().await?;
    browser.open("", "#tour-file").await?;
    let file = scratch("tours", "point-class.json")?;
    std::fs::write(&file, POINT_TOUR)?;
    browser
        .press("tour-file", &file.display().to_string())
        .await?;
    assert_eq!(
        text_once_there(&browser, "guess-count", "the point's count").await?,
        "0 of 1 queue depth drawn."
    );
    browser.wait_for_queue_charts().await?;
    drag_across_the_chart(&browser, 1).await?;
    assert_eq!(
        browser.text("#guess-count").await?,
        "1 of 1 queue depth drawn."
    );
    browser.click("tour-commit").await?;
    let verdict = verdict(&browser).await?;
    assert!(
        verdict.starts_with("Your guess is ")
            && verdict.contains("from the model's at QD 32: yours "),
        "{verdict}"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

/// By keyboard alone: Space chooses the focused option, the arrow moves the choice, Enter on
/// Commit reveals; a wrong prediction names the model's answer by its letter and words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_tours_a_question_is_answered_by_keyboard_and_names_the_models_answer() -> Result {
    let browser = Browser::start().await?;
    browser
        .open("?tour=littles-law&step=2", "#tour-ask")
        .await?;
    assert!(model_hidden(&browser).await?);
    browser.press("tour-option-1", " ").await?;
    browser
        .press("tour-option-1", &Key::Down.to_string())
        .await?;
    let checked = browser
        .js(
            "return document.getElementById('tour-option-2').checked;",
            vec![],
        )
        .await?;
    assert_eq!(checked, json!(true), "the arrow moved the choice to B");
    browser
        .press("tour-commit", &Key::Enter.to_string())
        .await?;
    assert_eq!(
        verdict(&browser).await?,
        "The model says otherwise: C (About 16: more than three times)."
    );
    let says = model_says(&browser).await?;
    assert!(says.starts_with("Model:"), "{says}");
    assert!(!model_hidden(&browser).await?);
    // Ask again hides the answer for the next class.
    browser.click("tour-ask-again").await?;
    browser
        .wait_until(
            "the question asked again",
            "return document.getElementById('tour-commit') !== null;",
        )
        .await?;
    assert!(model_hidden(&browser).await?);
    browser.assert_clean_console()?;
    browser.close().await
}

/// On the projector theme the teacher enters each option's hands and reveals: the tally shows
/// the counts entered beside the model's answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_tours_the_projectors_tally_shows_the_hands_entered_beside_the_answer() -> Result {
    let browser = Browser::start().await?;
    browser
        .open("?tour=littles-law&step=1&theme=projector", "#tour-hands-1")
        .await?;
    for (id, hands) in [
        ("tour-hands-1", "3"),
        ("tour-hands-2", "12"),
        ("tour-hands-3", "1"),
    ] {
        browser.press(id, hands).await?;
    }
    assert!(
        model_hidden(&browser).await?,
        "counting hands reveals nothing"
    );
    browser.click("tour-reveal").await?;
    assert_eq!(verdict(&browser).await?, "The model's answer: B (About 5).");
    let tally = browser.text("#tour-tally").await?;
    for line in [
        "A. About 0.5: 3 hands",
        "B. About 5: 12 hands (the model's answer)",
        "C. About 50: 1 hand",
        "D. About 500: 0 hands",
    ] {
        assert!(tally.contains(line), "{line} in {tally}");
    }
    assert_eq!(
        browser.text("#tour-explanation").await?,
        question_field(LITTLE_TOUR, 1, "explanation")?
    );
    browser.assert_clean_console()?;
    browser.close().await
}

/// A link to step 3 opens step 3; Previous makes step 2 an entry of the history; back returns
/// to step 3 and forward to step 2.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_tours_a_link_to_step_3_opens_it_and_back_and_forward_walk_the_steps() -> Result {
    let browser = Browser::start().await?;
    browser
        .open("?tour=littles-law&step=3", "#tour-ask")
        .await?;
    let at = |n: usize| format!("tour=littles-law&step={n}");
    browser
        .wait_for_query("step 3", &[&at(3), "rate=160000"])
        .await?;
    assert!(browser.text(".tour-count").await?.contains("step 3 of 3"));
    browser.click("tour-prev").await?;
    browser
        .wait_for_query("Previous", &[&at(2), "rate=100000"])
        .await?;
    browser.js("history.back();", vec![]).await?;
    browser
        .wait_for_query("back", &[&at(3), "rate=160000"])
        .await?;
    browser
        .wait_for("step 3's count after back", || async {
            Ok(browser
                .text(".tour-count")
                .await?
                .contains("step 3 of 3")
                .then_some(()))
        })
        .await?;
    browser.js("history.forward();", vec![]).await?;
    browser
        .wait_for_query("forward", &[&at(2), "rate=100000"])
        .await?;
    browser.assert_clean_console()?;
    browser.close().await
}

/// A teacher's link to a built-in tour's step draws its first chart as a plain link does: the
/// opening chart reads the step from the build's table (its mark is there, once), and the app
/// takes over the same state.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_tours_a_step_link_gets_the_opening_chart_of_its_own_state() -> Result {
    let browser = Browser::start().await?;
    browser.open("?tour=qd1-reads&step=2", "#tour-text").await?;
    browser.wait_for_queue_charts().await?;
    let marks = browser
        .js(
            "return performance.getEntriesByName('lab:opening-chart').length;",
            vec![],
        )
        .await?;
    assert_eq!(
        marks,
        json!(1),
        "the opening chart drew for the step's link"
    );
    let search = browser.location_search().await?;
    assert!(
        search.starts_with("?preset=e18dc&cap=1920&dies=32&qd=256"),
        "{search}"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

/// A teacher's own tour (`tests/fixtures/my-class.json`): two steps, the second asking a question.
const OWN_TOUR: &str = include_str!("../../../tests/fixtures/my-class.json");

/// Waits until the current step's text is `want`.
async fn wait_tour_text(browser: &Browser, want: &str) -> Result {
    browser
        .wait_for(&format!("the step '{want}'"), || async {
            Ok((browser.text("#tour-text").await.unwrap_or_default() == want).then_some(()))
        })
        .await
}

/// Why the tours panel refused the last file, once it says.
async fn refusal(browser: &Browser) -> Result<String> {
    text_once_there(browser, "tour-file-error", "the refusal").await
}

/// Drops a file named `name` holding `text` on the tours panel, as one dragged from the desktop.
async fn drop_tour_file(browser: &Browser, name: &str, text: &str) -> Result {
    browser
        .js(
            r#"const dt = new DataTransfer();
               dt.items.add(new File([arguments[1]], arguments[0], { type: "application/json" }));
               document.querySelector("section.tours").dispatchEvent(
                   new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));"#,
            vec![json!(name), json!(text)],
        )
        .await
        .map(|_| ())
}

/// A tour file chosen with the file picker opens at its first step and plays; a malformed one
/// is refused by its line and the lab stays where it was; a file dropped on the panel opens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_tours_a_teachers_own_tour_file_plays_and_a_malformed_one_names_its_line() -> Result {
    let browser = Browser::start().await?;
    browser.open("", "#tour-file").await?;
    let good = scratch("tours", "my-class.json")?;
    std::fs::write(&good, OWN_TOUR)?;
    browser
        .press("tour-file", &good.display().to_string())
        .await?;
    wait_tour_text(&browser, "One read at a time on the E12.").await?;
    assert_eq!(browser.text(".tour-audience").await?, "For: Period 3");
    browser
        .wait_for_query("step 1's state", &["preset=e12", "qd=1"])
        .await?;
    assert!(
        !browser.location_search().await?.contains("tour="),
        "a tour of one's own lives in the page, not the link"
    );
    browser.click("tour-next").await?;
    browser.wait_for_query("step 2's state", &["qd=32"]).await?;
    assert!(
        model_hidden(&browser).await?,
        "its question hides the answer"
    );
    browser.click("tour-option-2").await?;
    browser.click("tour-commit").await?;
    assert_eq!(
        verdict(&browser).await?,
        "Your prediction matches the model."
    );

    // A comma lost at the end of line 3: the file is refused there, and nothing moves.
    let broken = OWN_TOUR.replacen("\"My class: the dies at QD1 and QD32\",", "\"My class\"", 1);
    let bad = scratch("tours", "broken.json")?;
    std::fs::write(&bad, broken)?;
    let before = browser.location_search().await?;
    browser
        .press("tour-file", &bad.display().to_string())
        .await?;
    let why = refusal(&browser).await?;
    assert!(
        why.starts_with("broken.json was not opened: line 4, column 3: not JSON"),
        "{why}"
    );
    assert!(why.ends_with("The lab is as it was."), "{why}");
    assert_eq!(browser.location_search().await?, before);
    assert_eq!(browser.text("#tour-text").await?, "Thirty-two at a time.");

    let dropped = OWN_TOUR
        .replace("my-class", "dropped")
        .replace("One read at a time on the E12.", "Dropped, step one.");
    drop_tour_file(&browser, "dropped.json", &dropped).await?;
    wait_tour_text(&browser, "Dropped, step one.").await?;
    let refused = browser
        .js("return document.getElementById('tour-file-error');", vec![])
        .await?;
    assert_eq!(refused, Value::Null, "a good file clears the refusal");
    assert!(browser.text(".tour-list").await?.contains("My class"));
    browser.assert_clean_console()?;
    browser.close().await
}

/// A tour file hosted beside the lab opens from a link (`tour=PATH&step=N`), and its steps
/// stay in the link, so back returns to the step; a missing file and a malformed one are
/// noted at the top of the page with their reason, and the rest of the lab works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_tours_a_hosted_tour_file_opens_from_a_link_and_a_bad_one_is_noted() -> Result {
    let root = common::dist_with("hosted-tour", |_| false, Some(("my-class.json", OWN_TOUR)))?;
    let broken = OWN_TOUR.replacen("\"My class: the dies at QD1 and QD32\",", "\"My class\"", 1);
    std::fs::write(root.join("broken.json"), broken)?;
    let browser = Browser::start_serving(&root).await?;
    browser
        .open("?tour=my-class.json&step=2", "#tour-text")
        .await?;
    browser
        .wait_for("the hosted tour's step 2", || async {
            Ok(
                (browser.text("#tour-text").await.unwrap_or_default() == "Thirty-two at a time.")
                    .then_some(()),
            )
        })
        .await?;
    let at = |n: usize| format!("tour=my-class.json&step={n}");
    browser
        .wait_for_query("step 2 in the link", &["preset=e12", "qd=32", &at(2)])
        .await?;
    browser.click("tour-prev").await?;
    browser
        .wait_for_query("step 1 in the link", &["qd=1&", &at(1)])
        .await?;
    browser.js("history.back();", vec![]).await?;
    browser
        .wait_for_query("back at step 2", &["qd=32", &at(2)])
        .await?;
    wait_tour_text(&browser, "Thirty-two at a time.").await?;

    for (link, want) in [
        (
            "?tour=missing.json&qd=8",
            "the tour file 'missing.json' could not be fetched: no such file (HTTP 404)",
        ),
        (
            "?tour=broken.json&qd=8",
            "the tour file 'broken.json' was not opened: line 4, column 3: not JSON",
        ),
    ] {
        browser.open(link, "#readout").await?;
        let notes = browser
            .wait_for("the note on the tour file", || async {
                let v = browser
                    .js(
                        "const e = document.getElementById('url-notes'); return e ? e.textContent : null;",
                        vec![],
                    )
                    .await?;
                Ok(v.as_str().filter(|t| t.contains("tour file")).map(str::to_string))
            })
            .await?;
        assert!(notes.contains(want), "{want} in {notes}");
        assert_eq!(
            browser.text("#qd-value").await?,
            "8",
            "the rest of the link applies"
        );
    }
    browser.close().await
}

/// Where each of the first `count` questions of the tour `file` is in `text`, with its
/// options: each after the one before; returns where the last one is.
fn every_question_in_order(text: &str, file: &str, count: usize) -> Result<usize> {
    let tour: Value = serde_json::from_str(file)?;
    let mut last = 0;
    for n in 1..=count {
        let ask = question_field(file, n, "ask")?;
        let at = text
            .find(&ask)
            .with_context(|| format!("step {n}'s question"))?;
        assert!(at > last, "step {n} in order");
        last = at;
        for option in tour["steps"][n - 1]["question"]["options"]
            .as_array()
            .context("options")?
        {
            assert!(text.contains(option.as_str().unwrap_or("?")), "{option}");
        }
    }
    Ok(last)
}

/// Opens the current tour's worksheet and waits for it.
async fn open_worksheet(browser: &Browser) -> Result {
    browser.click("tour-worksheet").await?;
    browser
        .wait_until(
            "the worksheet",
            "return document.getElementById('worksheet') !== null;",
        )
        .await
}

/// With the print styles: whether the lab, the worksheet and its buttons show, and the key's
/// page break before.
async fn as_printed(browser: &Browser) -> Result<Value> {
    browser.cdp("Emulation.setEmulatedMedia", json!({ "media": "print" }))?;
    let printed = browser
        .js(
            r#"const shown = e => getComputedStyle(e).display !== "none";
               return [shown(document.querySelector(".page")),
                       shown(document.getElementById("worksheet")),
                       shown(document.querySelector(".worksheet-bar")),
                       getComputedStyle(document.getElementById("worksheet-key")).breakBefore];"#,
            vec![],
        )
        .await?;
    browser.cdp("Emulation.setEmulatedMedia", json!({ "media": "" }))?;
    Ok(printed)
}

/// The worksheet of a tour: every step, every question with its options and room to answer, an
/// empty chart to sketch in that says the lab's answer is a model result, and the answer key
/// last; printed, it stands alone (the lab left out) and the key starts a page of its own;
/// Escape closes it and the focus returns to its button.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_tours_the_worksheet_prints_every_question_and_the_answer_key_last() -> Result {
    let browser = Browser::start().await?;
    browser
        .open("?tour=littles-law&step=1", "#tour-worksheet")
        .await?;
    open_worksheet(&browser).await?;
    let focused = browser
        .js("return document.activeElement.id;", vec![])
        .await?;
    assert_eq!(
        focused,
        json!("worksheet-print"),
        "the worksheet takes the focus"
    );
    let text = browser.text("#worksheet").await?;
    let last = every_question_in_order(&text, LITTLE_TOUR, 3)?;
    let key = browser.text("#worksheet-key").await?;
    assert!(
        text.rfind("Answer key").is_some_and(|k| k > last),
        "the key comes after every question"
    );
    for (n, answer) in [(1, "B. About 5"), (2, "C. About 16"), (3, "B. About 56")] {
        assert!(
            key.contains(&format!("Step {n}: {answer}")),
            "{answer} in {key}"
        );
    }
    assert!(key.contains("results of Parallelism Lab's model"), "{key}");
    let sketches = browser
        .js(
            "return [...document.querySelectorAll('.worksheet-sketch figcaption')].map(f => f.textContent);",
            vec![],
        )
        .await?;
    let sketches = sketches.as_array().context("captions")?;
    assert_eq!(sketches.len(), 3);
    assert!(sketches
        .iter()
        .all(|c| c.as_str().unwrap_or("").contains("a model result")));

    assert_eq!(
        as_printed(&browser).await?,
        json!([false, true, false, "page"]),
        "printed: the lab and the buttons left out, the key on a page of its own"
    );

    browser
        .press("worksheet-print", &Key::Escape.to_string())
        .await?;
    browser
        .wait_until(
            "the worksheet closed",
            "return document.getElementById('worksheet') === null;",
        )
        .await?;
    let focused = browser
        .js("return document.activeElement.id;", vec![])
        .await?;
    assert_eq!(focused, json!("tour-worksheet"));
    browser.assert_clean_console()?;
    browser.close().await
}

/// On a phone (390 and 360 px) a question step, the tally's boxes and the worksheet fit the
/// width, and each option, its box and the buttons are touch targets of 44 px or more; an
/// embedded lab, which has no tours' panel to answer in, hides nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_tours_a_question_fits_a_phone_and_an_embedded_lab_hides_nothing() -> Result {
    let browser = Browser::start().await?;
    browser.set_viewport(390, 844).await?;
    browser
        .open("?tour=littles-law&step=1&theme=projector", "#tour-hands-1")
        .await?;
    let small = browser
        .small_touch_targets(
            ".tour-option, .tour-hands input, #tour-commit, #tour-reveal, #tour-worksheet",
        )
        .await?;
    assert_eq!(small, json!([]), "touch targets under 44 px");
    for width in [390, 360] {
        browser.set_viewport(width, 800).await?;
        let overflow = browser.sideways_overflow().await?;
        assert!(overflow <= 0, "{overflow} px sideways at {width} px");
    }
    open_worksheet(&browser).await?;
    let overflow = browser.sideways_overflow().await?;
    assert!(overflow <= 0, "the worksheet: {overflow} px sideways");

    browser
        .open("?embed=1&tour=predict-capacity&step=1", "#readout")
        .await?;
    browser.wait_for_queue_charts().await?;
    assert!(!model_hidden(&browser).await?, "an embed shows its figures");
    assert_eq!(visibility(&browser, "#readout").await?, "visible");
    browser.assert_clean_console()?;
    browser.close().await
}
