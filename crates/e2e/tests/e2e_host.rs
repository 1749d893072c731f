//! End-to-end tests of the message API between an embedded lab and the page that frames it
//! (issue 58; `src/ui/pure/host_api.rs`, the guide's "Embedding"): the release build in
//! `dist/` served from one origin, the pages that frame it from another (a second port), in
//! headless Chromium over WebDriver.
//!
//! - the guide's example article (`guide/src/examples/scrolling-article.html`) moves the lab
//!   through its sections as it scrolls, asks its question and shows the lab's `result`;
//! - a hundred malformed messages each get an `error`, change nothing, and the lab keeps
//!   answering;
//! - a message from a frame that is not the lab's parent, or from an origin `hosts=` does not
//!   list, is ignored;
//! - a frame out of sight starts no model work until it is scrolled to, and computes then what
//!   its host set meanwhile;
//! - the host plays and pauses teaching mode, which also pauses while its frame is scrolled
//!   away;
//! - a step in a tour file hosted beside the lab moves the lab there once the file arrives; a
//!   step the file lacks, or a file that is not there, gets an `error` and changes nothing;
//! - a reader's own prediction in a framed lab's tours panel is told to the host as `answer`.
//!
//! Needs `dist/` and `/usr/bin/chromedriver`; fails, never skips, without them.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{Browser, Context, Result, StaticServer};
use serde_json::{json, Value};

/// The example article's path in the build (the guide's folder).
const ARTICLE: &str = "guide/examples/scrolling-article.html";
/// The test host page (`tests/fixtures/host-page.html`).
const HOST_PAGE: &str = "host-page.html";
/// A teacher's own tour, two steps (`tests/fixtures/my-class.json`).
const MY_CLASS: &str = include_str!("../../../tests/fixtures/my-class.json");

/// The origin of a server's pages, as a browser names it.
fn origin_of(server: &StaticServer) -> String {
    let url = server.url("");
    let after_scheme = url.find("//").map_or(0, |i| i + 2);
    let end = url[after_scheme..]
        .find('/')
        .map_or(url.len(), |i| after_scheme + i);
    url[..end].to_string()
}

/// The host page of `blog`, `below` pixels above its frame, framing the lab at `query`.
fn host_page(browser: &Browser, blog: &StaticServer, query: &str, below: u32) -> String {
    let lab = browser.url(&format!("?{query}"));
    format!(
        "{}?below={below}#{}",
        blog.fixture_url(HOST_PAGE),
        lab.replace('%', "%25").replace('&', "%26")
    )
}

/// The messages the lab told the host page so far.
async fn told(browser: &Browser) -> Result<Vec<Value>> {
    let v = browser.js("return window.told;", vec![]).await?;
    Ok(v.as_array().cloned().unwrap_or_default())
}

/// Waits until the host page was told a message for which `pick` gives a value.
async fn wait_told<T>(
    browser: &Browser,
    what: &str,
    pick: impl Fn(&[Value]) -> Option<T>,
) -> Result<T> {
    browser
        .wait_for(what, || async { Ok(pick(&told(browser).await?)) })
        .await
}

/// The last message of `kind` whose `query` has every one of `parts`.
fn last_of<'a>(told: &'a [Value], kind: &str, parts: &[&str]) -> Option<&'a Value> {
    told.iter().rev().find(|m| {
        m["type"] == kind
            && parts.iter().all(|p| {
                m["query"]
                    .as_str()
                    .is_some_and(|q| q.split('&').any(|x| x == *p))
            })
    })
}

/// Runs `script` in the page's first frame (the lab) and comes back out.
async fn in_lab(browser: &Browser, script: &str) -> Result<Value> {
    browser
        .client
        .enter_frame(Some(0))
        .await
        .context("into the lab's frame")?;
    let v = browser.js(script, vec![]).await;
    browser
        .client
        .enter_parent_frame()
        .await
        .context("back to the host page")?;
    v
}

/// The host page framing the lab at `query`, `below` pixels down, in a window 900 by 800, once
/// the lab has said it is ready; and the host page's server (another origin than the lab's).
async fn hosted(query: &str, below: u32) -> Result<(Browser, StaticServer)> {
    hosted_by(Browser::start().await?, query, below).await
}

/// [`hosted`], with `browser` serving the lab.
async fn hosted_by(browser: Browser, query: &str, below: u32) -> Result<(Browser, StaticServer)> {
    browser
        .client
        .set_window_size(900, 800)
        .await
        .context("the window's size")?;
    let blog = StaticServer::start(&common::dist_dir()?, "/blog/").context("the host's origin")?;
    let query = query.replace("{host}", &origin_of(&blog));
    browser
        .client
        .goto(&host_page(&browser, &blog, &query, below))
        .await
        .context("open the host page")?;
    wait_told(&browser, "the lab's ready", |t| {
        t.iter().any(|m| m["type"] == "ready").then_some(())
    })
    .await?;
    Ok((browser, blog))
}

/// The host page posts `message` to the lab, as JSON text.
async fn send(browser: &Browser, message: Value) -> Result {
    browser
        .js("send(JSON.stringify(arguments[0]));", vec![message])
        .await
        .map(|_| ())
}

/// Scrolls the article's section `i` (from 0) to the middle of the window.
async fn scroll_to_section(browser: &Browser, i: usize) -> Result {
    browser
        .js(
            "document.querySelectorAll('.steps section')[arguments[0]].scrollIntoView({block: 'center'});",
            vec![json!(i)],
        )
        .await
        .map(|_| ())
}

/// What the article's line under the lab says, and for which state, once it is a final result
/// for a state with every one of `parts`.
async fn article_says(browser: &Browser, parts: &[&str]) -> Result<String> {
    let parts: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
    browser
        .wait_for(
            &format!("the article to show the lab's result for {parts:?}"),
            || async {
                let v = browser
                    .js(
                        "const s = document.getElementById('lab-says');
                     return [s.dataset.query || '', s.dataset.final || '', s.textContent];",
                        vec![],
                    )
                    .await?;
                let query = v[0].as_str().unwrap_or_default();
                let done = v[1] == "true"
                    && parts
                        .iter()
                        .all(|p| query.split('&').any(|x| x == p.as_str()));
                Ok(done.then(|| v[2].as_str().unwrap_or_default().to_string()))
            },
        )
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_the_example_article_moves_the_lab_through_its_sections_and_shows_its_result() -> Result
{
    let browser = Browser::start().await?;
    browser
        .client
        .set_window_size(1200, 900)
        .await
        .expect("window size");
    let blog = StaticServer::start(&common::dist_dir()?, "/blog/").expect("the blog's origin");
    let article = format!("{}?lab={}", blog.url(ARTICLE), browser.url(""));
    browser
        .client
        .goto(&article)
        .await
        .expect("open the article");

    let first = article_says(&browser, &["cap=480", "qd=1"]).await?;
    assert!(
        first.starts_with("The lab's model result: ") && first.contains(" IOPS, mean latency "),
        "the first section's point, said as a model result: {first}"
    );

    scroll_to_section(&browser, 2).await?;
    let deep = article_says(&browser, &["cap=1920", "qd=256"]).await?;
    assert_ne!(deep, first);
    let lab_query = in_lab(&browser, "return location.search;").await?;
    let lab_query = lab_query.as_str().unwrap_or_default();
    assert!(
        lab_query.contains("cap=1920")
            && lab_query.contains("qd=256")
            && lab_query.contains("embed=1"),
        "the lab itself moved, its frame kept: {lab_query}"
    );

    // The question: the lab hides its answer until the reader chooses in the article.
    scroll_to_section(&browser, 1).await?;
    browser
        .wait_until(
            "the article to say the lab hides its answer",
            "return document.getElementById('lab-says').textContent.includes('hides its answer');",
        )
        .await?;
    let hidden = in_lab(
        &browser,
        "return !document.getElementById('awaiting-note').hidden;",
    )
    .await?;
    assert_eq!(
        hidden,
        json!(true),
        "the embedded lab says why its figures are hidden"
    );
    browser
        .js(
            "document.querySelector('[data-option=\"3\"]').click();",
            vec![],
        )
        .await?;
    browser
        .wait_until(
            "the article's verdict",
            "return document.getElementById('verdict').textContent === 'Right: the model agrees.';",
        )
        .await?;
    article_says(&browser, &["cap=480", "qd=1"]).await?;

    scroll_to_section(&browser, 4).await?;
    let writes = article_says(&browser, &["cap=1920", "rw=write", "bs=128k"]).await?;
    assert!(writes.contains(" MB/s, "), "large blocks in MB/s: {writes}");
    browser.assert_clean_console()?;
    browser.close().await
}

/// A hundred messages the lab must refuse: not JSON, not an object, another version, no or an
/// unknown type, unknown fields, values a link would not take, steps to nowhere, a reveal with
/// no question, playback outside teaching mode, and objects JSON cannot hold.
const MALFORMED: &str = r#"
    const texts = ["", "{", "}", "nope", "{'lab':1}", "{\"lab\":1,", "<lab/>", "lab=1&type=set", "NaN",
        "[]", "null", "42", "true", "\"set\"", "[{\"lab\":1,\"type\":\"play\"}]"];
    const objects = [[], 7, null, "x", new Date(0), new Map()];
    const base = (type, extra) => ({ lab: 1, type, ...extra });
    const set = (state) => base("set", { state });
    objects.push(
        { type: "set", state: {} }, { lab: 0, type: "play" }, { lab: 2, type: "play" }, { lab: "1", type: "play" },
        { lab: 1.5, type: "play" }, { lab: -1, type: "play" }, { lab: null, type: "play" }, { lab: true, type: "play" },
        { lab: [1], type: "play" }, { lab: {}, type: "play" },
        { lab: 1 }, { lab: 1, type: 7 }, { lab: 1, type: null }, base(""), base("SET"), base("jump"),
        base("ready"), base("state"), base("error"), base("resize"),
        base("set", { state: {}, x: 1 }), base("play", { speed: 2 }), base("pause", { state: {} }),
        base("reveal", { answer: 1 }), base("step", { tour: "p99", step: 1, state: {} }),
        base("set", { State: {} }), base("step", { tour: "p99", step: 1, at: 1 }), base("reveal", { options: 1 }),
        base("pause", { play: true }),
        set({ qd: 0 }), set({ qd: -1 }), set({ qd: "abc" }), set({ qd: 1e9 }), set({ bs: "3k" }), set({ bs: "" }),
        set({ preset: "nope" }), set({ cap: -5 }), set({ rw: "random" }), set({ state: "new" }), set({ mix: 150, rw: "randrw" }),
        set({ view: "pie" }), set({ theme: "neon" }), set({ speed: 7 }), set({ p999: "maybe" }), set({ colour: "red" }),
        set(null), set("qd=32"), set([1]), set({ qd: null }),
        set({ embed: 0 }), set({ hosts: "*" }), set({ tour: "p99" }), set({ step: 2 }), set({ debug: "panic" }),
        set({ qd: 32, bs: "huge" }), set({ qd: { n: 1 } }), set({ qd: [32] }), set({ qd: Infinity }), set({ compare: "x.y" }),
        base("step", { step: 1 }), base("step", { tour: 5, step: 1 }), base("step", { tour: "nope", step: 1 }),
        base("step", { tour: "p99", step: 0 }), base("step", { tour: "p99", step: 999 }), base("step", { tour: "p99", step: "2" }),
        base("step", { tour: "p99", step: 1.5 }), base("step", { tour: "../x.json", step: 1 }),
        base("step", { tour: "https://evil.example/t.json", step: 1 }), base("step", { tour: "p99" }),
        base("reveal"), base("reveal", { option: 0 }), base("reveal", { option: -1 }), base("reveal", { option: "1" }),
        base("reveal", { option: 1.5 }), base("play"), base("pause"),
    );
    const cyclic = base("set", { state: {} });
    cyclic.state.self = cyclic;
    objects.push(cyclic, { lab: 1, type: "set", state: { qd: 10n } }, "x".repeat(20000));
    const all = [...texts, ...objects];
    if (all.length !== 100) throw new Error(`${all.length} malformed messages, not 100`);
    for (const m of all) {
        try { send(m); } catch (e) { window.told.push({ lab: 1, type: "error", error: "uncloneable: " + e.message }); }
    }
    return all.length;
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_every_malformed_message_gets_an_error_and_the_lab_keeps_answering() -> Result {
    let (browser, _blog) = hosted("qd=8&embed=1&charts=iops&hosts={host}", 0).await?;
    wait_told(&browser, "the first result", |t| {
        last_of(t, "result", &["qd=8"]).map(|_| ())
    })
    .await?;
    let before = in_lab(&browser, "return location.search;").await?;
    let told_before = told(&browser).await?.len();

    let sent = browser.js(MALFORMED, vec![]).await?;
    assert_eq!(sent, json!(100));
    let errors = wait_told(&browser, "an error for each malformed message", |t| {
        let new = &t[told_before..];
        (new.iter().filter(|m| m["type"] == "error").count() >= 100).then(|| new.to_vec())
    })
    .await?;
    assert_eq!(errors.len(), 100, "nothing but the errors: {errors:#?}");
    for e in &errors {
        let text = e["error"].as_str().unwrap_or_default();
        assert!(text.len() > 10 && !text.starts_with("uncloneable"), "{e}");
    }
    let qd_zero = errors
        .iter()
        .find(|e| e["error"].as_str().is_some_and(|t| t.contains("qd:")))
        .context("an error about qd")?;
    assert_eq!(
        qd_zero["error"],
        json!("set: nothing changed; qd: 0 is outside 1 to 1024")
    );
    assert_eq!(qd_zero["about"], json!("set"));
    assert_eq!(
        in_lab(&browser, "return location.search;").await?,
        before,
        "nothing changed"
    );

    send(
        &browser,
        json!({"lab": 1, "type": "set", "state": {"qd": 64}}),
    )
    .await?;
    let state = wait_told(&browser, "the state the host set", |t| {
        last_of(t, "state", &["qd=64"]).cloned()
    })
    .await?;
    assert_eq!(state["by"], json!("host"));
    wait_told(&browser, "its result", |t| {
        last_of(t, "result", &["qd=64"]).map(|_| ())
    })
    .await?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_message_from_another_frame_or_an_origin_not_listed_is_ignored() -> Result {
    let (browser, blog) = hosted("qd=8&embed=1&charts=iops&hosts={host}", 0).await?;
    // Another frame of the same page, of the very origin the lab hears, is not its parent.
    browser
        .js(
            "sibling(JSON.stringify({lab: 1, type: 'set', state: {qd: 128}}));
             sibling('not even JSON');",
            vec![],
        )
        .await?;
    // The sibling's script runs once its frame loads; its messages arrive before this one.
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    send(
        &browser,
        json!({"lab": 1, "type": "set", "state": {"qd": 16}}),
    )
    .await?;
    wait_told(&browser, "the parent's set", |t| {
        last_of(t, "state", &["qd=16"]).map(|_| ())
    })
    .await?;
    let all = told(&browser).await?;
    assert!(
        last_of(&all, "state", &["qd=128"]).is_none(),
        "the sibling's set was not heard"
    );
    assert!(
        !all.iter().any(|m| m["type"] == "error"),
        "nor answered: {all:#?}"
    );

    // A lab that hears another origin only: this page's messages change nothing, and it
    // posts nothing here.
    let elsewhere = "qd=8&embed=1&charts=iops&hosts=https://elsewhere.example";
    browser
        .client
        // Another query than the first page's (not only another fragment): a new document.
        .goto(&host_page(&browser, &blog, elsewhere, 1))
        .await
        .expect("open the host page again");
    let mounted = "return document.documentElement.hasAttribute('data-mounted');";
    browser
        .wait_for("the lab to mount in its frame", || async {
            Ok((in_lab(&browser, mounted).await? == json!(true)).then_some(()))
        })
        .await?;
    send(
        &browser,
        json!({"lab": 1, "type": "set", "state": {"qd": 32}}),
    )
    .await?;
    browser.js("send('{');", vec![]).await?;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let search = in_lab(&browser, "return location.search;").await?;
    assert!(
        search
            .as_str()
            .is_some_and(|s| s.contains("qd=8") && !s.contains("qd=32")),
        "{search}"
    );
    assert_eq!(told(&browser).await?, Vec::<Value>::new(), "not even ready");
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_frame_out_of_sight_starts_no_model_work_until_scrolled_near() -> Result {
    let (browser, _blog) = hosted("qd=8&embed=1&charts=iops", 4000).await?;
    let runs = "const s = document.getElementById('model-status');
                return s && document.documentElement.hasAttribute('data-mounted')
                    ? Number(s.dataset.runsStarted) : null;";
    let started = browser
        .wait_for("the lab below the fold to mount", || async {
            Ok(in_lab(&browser, runs).await?.as_u64())
        })
        .await?;
    assert_eq!(started, 0, "mounted, and no model run started");

    // A set while out of sight is kept, and waits too.
    send(
        &browser,
        json!({"lab": 1, "type": "set", "state": {"qd": 64}}),
    )
    .await?;
    wait_told(&browser, "the state the host set", |t| {
        last_of(t, "state", &["qd=64"]).map(|_| ())
    })
    .await?;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert_eq!(
        in_lab(&browser, runs).await?,
        json!(0),
        "still no model work"
    );
    assert!(!told(&browser).await?.iter().any(|m| m["type"] == "result"));

    browser
        .js("document.getElementById('lab').scrollIntoView();", vec![])
        .await?;
    wait_told(&browser, "the kept state computed once in sight", |t| {
        last_of(t, "result", &["qd=64"]).map(|_| ())
    })
    .await?;
    let after = in_lab(&browser, runs).await?.as_u64().unwrap_or_default();
    assert!(after > 0, "the model ran once the frame was in sight");
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_the_host_plays_and_pauses_teaching_mode_which_pauses_when_scrolled_away() -> Result {
    let (browser, _blog) = hosted("qd=8&view=activity&embed=1", 0).await?;
    let playing = "const b = document.getElementById('teach-play');
                   return b ? b.getAttribute('aria-pressed') : null;";
    let wait_playing = |want: &'static str| {
        let browser = &browser;
        async move {
            browser
                .wait_for(&format!("teaching mode's Play pressed: {want}"), || async {
                    Ok((in_lab(browser, playing).await? == json!(want)).then_some(()))
                })
                .await
        }
    };
    let play = json!({"lab": 1, "type": "play"});
    wait_playing("false").await?;
    send(&browser, play.clone()).await?;
    wait_playing("true").await?;

    browser.js("window.scrollTo(0, 2500);", vec![]).await?;
    wait_playing("false").await?;
    browser.js("window.scrollTo(0, 0);", vec![]).await?;
    send(&browser, play).await?;
    wait_playing("true").await?;
    send(&browser, json!({"lab": 1, "type": "pause"})).await?;
    wait_playing("false").await?;
    assert!(
        !told(&browser).await?.iter().any(|m| m["type"] == "error"),
        "every request taken"
    );
    browser.close().await
}

/// A step in a tour file hosted beside the lab is read once the file arrives (the request was
/// well formed when it came): a step the file has moves the lab there, by the host; a step it
/// lacks, or a file that is not there, is answered with an `error` naming why, and nothing
/// changes (a link to the same step would open the tour's first step and say so on the page).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_step_in_a_hosted_tour_file_moves_the_lab_or_answers_why_not() -> Result {
    let root = common::dist_with("host-tour", |_| false, Some(("my-class.json", MY_CLASS)))?;
    let lab = Browser::start_serving(&root).await?;
    let (browser, _blog) = hosted_by(lab, "qd=8&embed=1&charts=iops&hosts={host}", 0).await?;
    let step =
        |tour: &str, step: u32| json!({"lab": 1, "type": "step", "tour": tour, "step": step});
    send(&browser, step("my-class.json", 2)).await?;
    let state = wait_told(&browser, "the hosted tour's step 2 (E12, QD32)", |t| {
        last_of(t, "state", &["preset=e12", "qd=32"]).cloned()
    })
    .await?;
    assert_eq!(state["by"], json!("host"), "{state}");
    let before = in_lab(&browser, "return location.search;").await?;
    let told_before = told(&browser).await?.len();

    send(&browser, step("my-class.json", 9)).await?;
    send(&browser, step("missing.json", 1)).await?;
    let errors = wait_told(&browser, "an error for each step not there", |t| {
        let errors: Vec<Value> = t[told_before..]
            .iter()
            .filter(|m| m["type"] == "error")
            .cloned()
            .collect();
        (errors.len() >= 2).then_some(errors)
    })
    .await?;
    let said: Vec<&str> = errors.iter().filter_map(|e| e["error"].as_str()).collect();
    assert_eq!(
        said,
        [
            "step: the tour 'my-class' has 2 steps",
            "step: the tour file 'missing.json' could not be fetched: no such file (HTTP 404)",
        ],
        "{errors:#?}"
    );
    assert!(errors.iter().all(|e| e["about"] == "step"), "{errors:#?}");
    assert_eq!(
        in_lab(&browser, "return location.search;").await?,
        before,
        "nothing changed"
    );
    let notes = in_lab(
        &browser,
        "const e = document.getElementById('url-notes'); return e ? e.textContent : '';",
    )
    .await?;
    assert_eq!(notes, json!(""), "nothing noted on the lab's page");
    browser.close().await
}

/// A reader who commits a prediction in the tours' panel of a framed full lab, the article
/// leading nothing, tells the article `answer` as a host's `reveal` does: their option, the
/// model's, whether they match (the tour's first question: the model's answer is option 3).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_a_readers_own_prediction_in_a_framed_lab_is_told_to_the_host() -> Result {
    let (browser, _blog) = hosted("tour=predict-capacity&step=1&hosts={host}", 0).await?;
    browser
        .client
        .enter_frame(Some(0))
        .await
        .context("into the lab's frame")?;
    browser
        .wait_until(
            "the step's question",
            "return document.getElementById('tour-commit') !== null;",
        )
        .await?;
    browser.click("tour-option-3").await?;
    browser.click("tour-commit").await?;
    browser
        .client
        .enter_parent_frame()
        .await
        .context("back to the host page")?;
    let answer = wait_told(&browser, "the reader's answer", |t| {
        t.iter().find(|m| m["type"] == "answer").cloned()
    })
    .await?;
    assert_eq!(
        answer,
        json!({"lab": 1, "type": "answer", "tour": "predict-capacity", "step": 1,
               "option": 3, "answer": 3, "matched": true, "guess": []})
    );
    browser.close().await
}
