//! What the reader gives stays on their device (issue 24): fio files chosen together are one
//! drive, a file moves to another drive; a reload finds the files, and a visit without a link
//! finds them with the fitted drive and the pins; **Forget my files** clears all of it.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{Browser, Context, Result};
use serde_json::{json, Value};

/// A file of the fio corpus (real output of fio 3.33 on this project's machine).
fn corpus(file: &str) -> String {
    common::repo_root()
        .join("tests/fixtures/fio/local")
        .join(file)
        .display()
        .to_string()
}

async fn eval(browser: &Browser, script: &str) -> Result<Value> {
    browser.js(script, vec![]).await
}

/// Each drive's text in the import panel, in order.
async fn drives(browser: &Browser) -> Result<Vec<String>> {
    let v = eval(
        browser,
        "return [...document.querySelectorAll('#fio-files > .fio-file')].map(n => n.textContent);",
    )
    .await?;
    let texts = v.as_array().context("the drives' texts")?.iter();
    texts
        .map(|t| Ok(t.as_str().context("a drive's text")?.to_string()))
        .collect()
}

/// Waits until the import panel lists `n` drives, and returns their texts.
async fn wait_for_drives(browser: &Browser, n: usize, what: &str) -> Result<Vec<String>> {
    browser
        .wait_for(what, || async {
            let d = drives(browser).await?;
            Ok((d.len() == n).then_some(d))
        })
        .await
}

/// A fitted drive (as a fit writes it into the link) and one pin.
const VIEW: &str = "?drive=e12_d24_r52500_c900&compare=e18dc.8.randread.4k.steady";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_files_chosen_together_are_one_drive_and_stay_until_forgotten() -> Result {
    let browser = Browser::start().await?;
    browser.open(VIEW, "#fio-file").await?;

    // A depth sweep saved one JSON per depth, chosen together: one drive.
    let sweep = [
        corpus("disk-sweep/randread-qd1.json"),
        corpus("disk-sweep/randread-qd8.json"),
    ];
    browser.press("fio-file", &sweep.join("\n")).await?;
    let listed = wait_for_drives(&browser, 1, "the sweep as one drive").await?;
    assert!(
        listed[0].contains("randread-qd1.json and 1 more: 2 jobs in 2 files")
            && listed[0].contains("queue depth 1, 8")
            && listed[0].contains("Read as fio's JSON of fio-3.33"),
        "{listed:?}"
    );
    // Another file chosen alone is another drive; moved into the first, it joins it.
    browser
        .press("fio-file", &corpus("randread-qd8.normal.txt"))
        .await?;
    let listed = wait_for_drives(&browser, 2, "a second drive").await?;
    assert!(
        listed[1].contains("Read as fio's normal text"),
        "{listed:?}"
    );
    eval(
        &browser,
        "const s = document.getElementById('fio-move-1-0'); s.value = '0'; s.dispatchEvent(new Event('change')); return 1;",
    )
    .await?;
    let listed = wait_for_drives(&browser, 1, "the file moved into the first drive").await?;
    assert!(listed[0].contains("3 jobs in 3 files"), "{listed:?}");

    // A reload finds the files; a visit without a link finds the drive and the pin too.
    browser.open(VIEW, "#fio-file").await?;
    let listed = wait_for_drives(&browser, 1, "the files after a reload").await?;
    assert!(listed[0].contains("3 jobs in 3 files"), "{listed:?}");
    browser.open("", "#fio-file").await?;
    wait_for_drives(&browser, 1, "the files on a visit without a link").await?;
    let search = browser
        .wait_for_query(
            "the kept drive and pin",
            &["drive=e12_d24_r52500_c900", "compare="],
        )
        .await?;
    assert!(search.contains("e18dc.8.randread.4k.steady"), "{search}");

    // Forget my files: gone now, and on the next visit.
    browser.click("fio-forget").await?;
    wait_for_drives(&browser, 0, "the files to be forgotten").await?;
    let status = browser.text("#fio-status").await?;
    assert!(status.contains("no longer kept"), "{status}");
    browser.open("", "#fio-file").await?;
    assert_eq!(drives(&browser).await?.len(), 0);
    let search = browser.location_search().await?;
    assert!(
        !search.contains("drive=") && !search.contains("compare="),
        "{search}"
    );
    assert_eq!(
        eval(&browser, "return localStorage.length;").await?,
        json!(0),
        "nothing is left in the browser's storage"
    );
    browser.close().await
}
