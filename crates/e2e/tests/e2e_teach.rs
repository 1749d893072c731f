//! End-to-end tests of teaching mode (`view=activity`): the release build in `dist/` in
//! headless Chromium, driven over WebDriver like a teacher at the keyboard.
//!
//! Needs `dist/` (`trunk build --release`) and `/usr/bin/chromedriver`; fails, never skips,
//! without them. `tests/run-all.sh` builds `dist/` first and runs this crate last.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{Browser, Context, Result};
use fantoccini::key::Key;
use fantoccini::Locator;
use serde_json::json;
use std::time::Duration;

/// A small drive with a few requests in flight: events come quickly, nothing to prepare.
const SMALL_DRIVE: &str = "?preset=e18dc&cap=480&qd=4&rw=randread&state=fob&view=activity";
/// Longest wait for the URL to follow a click.
const URL_WAIT: Duration = Duration::from_secs(15);
/// How long a paused view is watched to prove nothing moves.
const PAUSE_WATCH: Duration = Duration::from_millis(800);
/// Long enough for the one advance that may be on its way at Pause to be answered.
const IN_FLIGHT_WAIT: Duration = Duration::from_millis(300);

/// `(data-sim-ns, data-steps)` of the activity view.
async fn clock(browser: &Browser) -> Result<(u64, u64)> {
    let v = browser
        .js(
            r#"const a = document.getElementById("activity");
               return [a.dataset.simNs, a.dataset.steps];"#,
            vec![],
        )
        .await?;
    let num = |i: usize| {
        v[i].as_str()
            .and_then(|s| s.parse::<u64>().ok())
            .with_context(|| format!("bad clock attributes: {v}"))
    };
    Ok((num(0)?, num(1)?))
}

async fn wait_ready(browser: &Browser) -> Result {
    browser
        .wait_for("the activity view to be ready", || async {
            Ok((browser
                .js(
                    "const a = document.getElementById('activity'); return a && a.dataset.ready;",
                    vec![],
                )
                .await?
                == json!("true"))
            .then_some(()))
        })
        .await
}

/// Waits until the page's query is `want`; fails showing the last one seen.
async fn wait_search(browser: &Browser, want: &str, what: &str) -> Result {
    let deadline = tokio::time::Instant::now() + URL_WAIT;
    loop {
        let now = browser.location_search().await?;
        if now == want {
            return Ok(());
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{what}: the URL is {now}, not {want}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_teach_play_advances_pause_stops_step_is_one_event_and_reset_restarts() -> Result {
    let browser = Browser::start().await?;
    browser.open(SMALL_DRIVE, "#activity").await?;
    wait_ready(&browser).await?;
    assert_eq!(
        clock(&browser).await?,
        (0, 0),
        "a fresh view starts at zero"
    );
    let dies = browser
        .js(
            "return document.querySelectorAll('.drive-picture .die').length;",
            vec![],
        )
        .await?;
    assert_eq!(dies, json!(8), "the 480 GB drive is drawn with its 8 dies");

    // Step: exactly one engine event, and the clock moves to it (never back).
    for expected in 1..=3u64 {
        let (ns_before, _) = clock(&browser).await?;
        browser.click("teach-step").await?;
        let (ns, steps) = browser
            .wait_for("one step", || async {
                let c = clock(&browser).await?;
                Ok((c.1 == expected).then_some(c))
            })
            .await?;
        assert_eq!(steps, expected);
        assert!(ns >= ns_before, "time ran backwards: {ns_before} -> {ns}");
    }
    let summary = browser.text("#teach-summary").await?;
    assert!(
        summary.contains("of 8 dies busy"),
        "spoken summary: {summary}"
    );

    // Play: simulated time advances by itself.
    let before = clock(&browser).await?;
    browser.click("teach-play").await?;
    let playing = browser
        .wait_for("simulated time to advance", || async {
            let c = clock(&browser).await?;
            Ok((c.0 > before.0 && c.1 > before.1).then_some(c))
        })
        .await?;
    assert!(playing.0 > before.0);

    // Pause: it stops.
    browser.click("teach-pause").await?;
    browser
        .wait_for("the view to stop playing", || async {
            Ok((browser
                .js(
                    "return document.getElementById('activity').dataset.playing;",
                    vec![],
                )
                .await?
                == json!("false"))
            .then_some(()))
        })
        .await?;
    // An advance already on its way to the worker when Pause is pressed is still shown (the
    // clock the worker reached; at most one is ever on its way), then nothing moves.
    let paused = browser
        .wait_for("the advance sent before Pause to be shown", || async {
            let seen = clock(&browser).await?;
            tokio::time::sleep(IN_FLIGHT_WAIT).await;
            Ok((clock(&browser).await? == seen).then_some(seen))
        })
        .await?;
    tokio::time::sleep(PAUSE_WATCH).await;
    assert_eq!(clock(&browser).await?, paused, "time moved while paused");

    // Alt+R: back to the start.
    browser
        .js(
            r#"document.dispatchEvent(new KeyboardEvent("keydown",
                 { key: "r", code: "KeyR", altKey: true, bubbles: true }));"#,
            vec![],
        )
        .await?;
    browser
        .wait_for("Alt+R to reset", || async {
            Ok((clock(&browser).await? == (0, 0)).then_some(()))
        })
        .await?;
    browser.assert_clean_console()?;
    browser.close().await
}

/// Most Steps a followed read of [`SMALL_DRIVE`] takes to finish (it takes a few dozen: the
/// work crate's test follows one to the end).
const MAX_FOLLOW_STEPS: u64 = 400;

/// What the follow card and the picture show after one Step: the sentence, the stages
/// listed, and whether a die is lit.
async fn follow_seen(browser: &Browser) -> Result<(String, u64, bool)> {
    let v = browser
        .js(
            r##"return [document.getElementById("follow-now").textContent,
                       document.querySelectorAll("#follow-timeline li").length,
                       document.querySelector(".drive-picture .die.followed") !== null];"##,
            vec![],
        )
        .await?;
    Ok((
        v[0].as_str().unwrap_or_default().to_string(),
        v[1].as_u64().unwrap_or_default(),
        v[2].as_bool().unwrap_or_default(),
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_teach_a_followed_read_lights_its_die_and_ends_with_every_part_of_its_latency() -> Result
{
    // Issue 56, "follow one request": pick the next read, Step, and watch its journey.
    let browser = Browser::start().await?;
    browser.open(SMALL_DRIVE, "#activity").await?;
    wait_ready(&browser).await?;
    let write_disabled = browser
        .js(
            "return document.getElementById('follow-write').disabled;",
            vec![],
        )
        .await?;
    assert_eq!(
        write_disabled,
        json!(true),
        "random reads make no write to follow"
    );

    browser.click("follow-read").await?;
    browser
        .wait_until(
            "the card to wait for the next read",
            "return document.getElementById('follow-now').textContent.startsWith(\"Waiting for the host's next read\");",
        )
        .await?;
    let mut lit = false;
    let mut seen = (String::new(), 0, false);
    for expected in 1..=MAX_FOLLOW_STEPS {
        browser.click("teach-step").await?;
        browser
            .wait_for("one step", || async {
                Ok((clock(&browser).await?.1 == expected).then_some(()))
            })
            .await?;
        seen = follow_seen(&browser).await?;
        lit |= seen.2;
        if seen.0.contains("is done") {
            break;
        }
    }
    let (now, stages, _) = seen;
    assert!(
        now.starts_with("The read is done: "),
        "after {MAX_FOLLOW_STEPS} steps: {now}"
    );
    assert!(lit, "the die the read was sensed on lit up on the way");
    assert!(
        stages >= 2,
        "a read passes the controller and its die: {stages} stages"
    );
    let timeline = browser.text("#follow-timeline").await?;
    assert!(timeline.contains("being sensed"), "{timeline}");
    // Done, its parts are its latency: the bar's total is the sentence's.
    let latency = now
        .trim_start_matches("The read is done: ")
        .split(" in the model")
        .next()
        .unwrap_or_default()
        .to_string();
    let bar = browser.text("#follow-parts-text").await?;
    assert!(
        bar.starts_with(&format!("Its parts all, {latency} in the model: ")),
        "bar {bar} against {now}"
    );
    assert!(bar.contains("on its own NAND read"), "{bar}");
    let spoken = browser.text("#follow-spoken").await?;
    assert_eq!(spoken, now, "the end is spoken once");

    // Reset: the player starts again following nothing.
    browser.click("teach-reset").await?;
    browser
        .wait_until(
            "Reset to drop the journey",
            "return document.getElementById('follow-now').textContent === '' && !document.querySelector('.followed');",
        )
        .await?;
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_teach_the_sentence_goes_from_dies_idle_at_qd1_to_dies_busy_at_depth() -> Result {
    let browser = Browser::start().await?;
    browser
        .open(
            "?preset=e18dc&cap=480&qd=1&rw=randread&state=steady&view=activity",
            "#explain",
        )
        .await?;
    let limit = |want: &'static str| {
        let browser = &browser;
        async move {
            browser
                .wait_for(&format!("the explainer to name {want}"), || async {
                    let v = browser
                        .js(
                            "return document.getElementById('explain').dataset.limit;",
                            vec![],
                        )
                        .await?;
                    Ok((v == json!(want)).then_some(()))
                })
                .await?;
            browser.text("#explain-sentence").await
        }
    };
    let idle = limit("queue-depth").await?;
    assert!(
        idle.contains("Only 1 request in flight") && idle.contains("7 of 8 dies are idle"),
        "{idle}"
    );
    let little = browser.text("#explain-little").await?;
    assert!(
        little.contains("Little's law") && little.contains("1 request in flight"),
        "{little}"
    );

    // Queue depth 1 -> 256 with the slider's keys (each press doubles it).
    for _ in 0..8 {
        browser
            .client
            .find(Locator::Id("qd"))
            .await
            .expect("#qd")
            .send_keys(&Key::Right.to_string())
            .await
            .expect("key on #qd");
    }
    browser
        .wait_for_query("queue depth 256", &["qd=256"])
        .await?;
    let busy = limit("dies").await?;
    assert!(
        busy.contains("busy") && busy.contains("more queue depth only adds waiting"),
        "{busy}"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

/// Every tour, every step: the URL (the state) it must produce. Steps without a `view` keep
/// the teaching view the test starts in.
const TOUR_STEPS: [(&str, &[&str]); 10] = [
    (
        "qd1-reads",
        &[
            "preset=e18dc&cap=480&dies=8&qd=1&rw=randread&bs=4k&state=steady",
            "preset=e18dc&cap=1920&dies=32&qd=256&rw=randread&bs=4k&state=steady",
        ],
    ),
    (
        "load",
        &[
            "preset=e18dc&cap=480&dies=8&workload=rate&rate=25000&arrivals=poisson&qd=64&rw=randread&bs=4k&state=steady",
            "preset=e18dc&cap=480&dies=8&workload=rate&rate=100000&arrivals=poisson&qd=64&rw=randread&bs=4k&state=steady",
            "preset=e18dc&cap=480&dies=8&workload=rate&rate=160000&arrivals=poisson&qd=64&rw=randread&bs=4k&state=steady",
            "preset=e18dc&cap=480&dies=8&workload=rate&rate=250000&arrivals=poisson&qd=64&rw=randread&bs=4k&state=steady",
        ],
    ),
    (
        "predict-capacity",
        &[
            "preset=e18dc&cap=480&dies=8&qd=1&rw=randread&bs=4k&state=steady",
            "preset=e18dc&cap=1920&dies=32&qd=256&rw=randread&bs=4k&state=steady",
            "preset=e18dc&cap=480&dies=8&qd=32&rw=randread&bs=4k&state=steady",
        ],
    ),
    (
        "littles-law",
        &[
            "preset=e18dc&cap=480&dies=8&workload=rate&rate=50000&arrivals=poisson&qd=64&rw=randread&bs=4k&state=steady",
            "preset=e18dc&cap=480&dies=8&workload=rate&rate=100000&arrivals=poisson&qd=64&rw=randread&bs=4k&state=steady",
            "preset=e18dc&cap=480&dies=8&workload=rate&rate=160000&arrivals=poisson&qd=64&rw=randread&bs=4k&state=steady",
        ],
    ),
    (
        "desktop",
        &[
            "preset=octane&cap=128&dies=16&workload=trace&trace=desktop-light&qd=32&rw=randread&bs=4k&state=fob",
            "preset=octane&cap=128&dies=16&workload=trace&trace=desktop-heavy&qd=32&rw=randread&bs=4k&state=fob",
        ],
    ),
    (
        "random-writes",
        &[
            "preset=e18dc&cap=480&dies=8&qd=1&rw=randwrite&bs=4k&state=steady",
            "preset=e18dc&cap=480&dies=8&qd=256&rw=randwrite&bs=4k&state=steady",
            "preset=e18dc&cap=1920&dies=32&qd=32&rw=randwrite&bs=4k&state=steady",
        ],
    ),
    (
        "sequential",
        &[
            "preset=e18dc&cap=480&dies=8&qd=32&rw=write&bs=128k&state=seq-filled",
            "preset=e18dc&cap=960&dies=16&qd=32&rw=write&bs=128k&state=seq-filled",
            "preset=e18dc&cap=1920&dies=32&qd=32&rw=write&bs=128k&state=seq-filled",
            "preset=e18dc&cap=1920&dies=32&qd=128&rw=read&bs=128k&state=seq-filled",
        ],
    ),
    (
        "quarter-dies",
        &[
            "preset=octane&cap=512&dies=64&qd=32&rw=write&bs=128k&state=seq-filled",
            "preset=octane&cap=128&dies=16&qd=32&rw=write&bs=128k&state=seq-filled",
        ],
    ),
    (
        "power",
        &[
            "preset=e12&cap=960&dies=32&qd=1&rw=randread&bs=4k&state=fob",
            "preset=e12&cap=960&dies=32&qd=256&rw=randread&bs=4k&state=fob",
            "preset=e12&cap=960&dies=32&power=ps2&qd=256&rw=randread&bs=4k&state=fob",
            "preset=e12&cap=960&dies=32&power=ps2&qd=1&rw=randread&bs=4k&state=fob",
        ],
    ),
    (
        "slc-cache",
        &[
            "preset=e12&cap=960&dies=32&qd=32&rw=write&bs=128k&state=fob&view=time&idle=60&burst=32",
            "preset=e12&cap=960&dies=32&qd=32&rw=write&bs=128k&state=fob&view=time&idle=0&burst=32",
            "preset=e12&cap=960&dies=32&qd=32&rw=write&bs=128k&state=fob&view=time&idle=60&burst=32",
            "preset=e18dc&cap=1920&dies=32&qd=32&rw=write&bs=128k&state=fob&view=time&idle=60&burst=32",
        ],
    ),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_teach_each_tour_sets_the_controls_it_promises() -> Result {
    let browser = Browser::start().await?;
    browser
        .open("?view=activity&state=fob", "#activity")
        .await?;
    // Above teaching mode the tours fold to one line until opened.
    assert_eq!(
        browser
            .js("return document.getElementById('tours').open;", vec![])
            .await?,
        json!(false)
    );
    browser.click("tours-summary").await?;
    for (tour, steps) in TOUR_STEPS {
        for (i, want) in steps.iter().enumerate() {
            if i == 0 {
                browser.click(&format!("tour-{tour}")).await?;
            } else {
                browser.click("tour-next").await?;
            }
            // Each step's place follows the state in the URL.
            let place = format!("tour={tour}&step={}", i + 1);
            let want = if want.contains("view=") {
                format!("?{want}&{place}")
            } else {
                format!("?{want}&view=activity&{place}")
            };
            wait_search(&browser, &want, &format!("tour {tour} step {}", i + 1)).await?;
            if want.contains("view=time") {
                browser.wait_for_time_charts().await?;
                let idle = want.split('&').find_map(|kv| kv.strip_prefix("idle="));
                let expect = if want.contains("preset=e18dc") {
                    "this drive has no SLC cache".to_string()
                } else {
                    format!("with {} s idle", idle.unwrap_or("?"))
                };
                let readout = browser.text("#burst-readout").await?;
                assert!(
                    readout.contains(&expect),
                    "the burst chart follows the tour: {readout}"
                );
            }
            let count = browser.text(".tour-count").await?;
            assert!(
                count.contains(&format!("step {} of {}", i + 1, steps.len())),
                "{count}"
            );
            assert!(!browser.text("#tour-text").await?.is_empty());
        }
        let next_disabled = browser
            .js(
                "return document.getElementById('tour-next').disabled;",
                vec![],
            )
            .await?;
        assert_eq!(
            next_disabled,
            json!(true),
            "the last step of {tour} has no next"
        );
    }
    browser.assert_clean_console()?;
    browser.close().await
}

/// The p99 tour's file, as the page builds it in.
const P99_TOUR: &str = include_str!("../../../assets/tours/p99.json");

/// The text of step `n` (from 1) of the p99 tour's file.
fn p99_text(n: usize) -> Result<String> {
    let tour: serde_json::Value = serde_json::from_str(P99_TOUR)?;
    tour["steps"][n - 1]["text"]
        .as_str()
        .map(str::to_string)
        .with_context(|| format!("the p99 tour has no step {n}"))
}

/// A teacher's link to step 2 of a tour opens it with its controls; Next makes step 3 an entry
/// of the history, and the browser's back button returns to step 2, text and controls.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_teach_a_link_opens_a_tours_step_and_back_returns_to_it() -> Result {
    let browser = Browser::start().await?;
    browser.open("?tour=p99&step=2", "#tour-text").await?;
    let steps = [
        "preset=e18dc&cap=480&dies=8&qd=4&rw=randread&bs=4k&state=steady",
        "preset=e18dc&cap=480&dies=8&qd=4&rw=randrw&mix=70&bs=4k&state=steady",
        "preset=e18dc&cap=480&dies=8&qd=256&rw=randrw&mix=70&bs=4k&state=steady",
    ];
    let at = |n: usize| format!("?{}&tour=p99&step={n}", steps[n - 1]);
    wait_search(&browser, &at(2), "the linked step's controls").await?;
    assert_eq!(browser.text("#tour-text").await?, p99_text(2)?);
    assert!(browser.text(".tour-count").await?.contains("step 2 of 3"));
    browser.click("tour-next").await?;
    wait_search(&browser, &at(3), "Next").await?;
    assert_eq!(browser.text("#tour-text").await?, p99_text(3)?);
    browser.js("history.back();", vec![]).await?;
    wait_search(&browser, &at(2), "back").await?;
    browser
        .wait_for("step 2's text after back", || async {
            Ok((browser.text("#tour-text").await? == p99_text(2)?).then_some(()))
        })
        .await?;
    assert_eq!(
        browser.text("#qd-value").await?,
        "4",
        "step 2's queue depth is back"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

/// A link to a tour the lab does not have says so, and the rest of the link applies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_teach_a_link_to_an_unknown_tour_is_noted_and_the_lab_works() -> Result {
    let browser = Browser::start().await?;
    browser.open("?tour=nope&step=2&qd=8", "#url-notes").await?;
    let notes = browser.text("#url-notes").await?;
    assert!(notes.contains("no tour 'nope'"), "{notes}");
    assert_eq!(
        browser.text("#qd-value").await?,
        "8",
        "the rest of the link applies"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_teach_a_tour_started_under_the_charts_keeps_the_charts() -> Result {
    let browser = Browser::start().await?;
    browser.open("", "#tour-qd1-reads").await?;
    assert_eq!(
        browser
            .js(
                "return document.querySelector('.tour-dock').hidden;",
                vec![]
            )
            .await?,
        json!(true),
        "no dock before a tour starts"
    );
    browser.click("tour-qd1-reads").await?;
    let (_, steps) = TOUR_STEPS[0];
    wait_search(
        &browser,
        &format!("?{}&tour=qd1-reads&step=1", steps[0]),
        "the first step, in the chart view",
    )
    .await?;
    browser.click("tour-next").await?;
    wait_search(
        &browser,
        &format!("?{}&tour=qd1-reads&step=2", steps[1]),
        "the second step",
    )
    .await?;
    assert!(browser.text(".tour-count").await?.contains("step 2 of 2"));
    assert_eq!(
        browser
            .js("return document.querySelector('.charts').hidden;", vec![])
            .await?,
        json!(false),
        "the charts stay"
    );
    // A class sees the step and the chart it talks about at once: with the IOPS chart
    // scrolled to the top of the window, the step's text is docked inside the window below it.
    let seen = browser
        .js(
            "document.getElementById('chart-iops').scrollIntoView({block: 'start'});
             const text = document.getElementById('tour-text').getBoundingClientRect();
             const chart = document.getElementById('chart-iops').getBoundingClientRect();
             return [text.top >= 0 && text.bottom <= window.innerHeight,
                     Math.abs(chart.top) < 2 && chart.top < text.top];",
            vec![],
        )
        .await?;
    assert_eq!(
        seen,
        json!([true, true]),
        "step text docked in view, chart above it"
    );
    browser.assert_clean_console()?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e2e_teach_projector_theme_and_view_come_from_the_url_and_bad_values_are_noted() -> Result {
    let browser = Browser::start().await?;
    browser
        .open("?theme=projector&view=activity&speed=7", "#activity")
        .await?;
    let theme = browser
        .js(
            "return [document.documentElement.dataset.theme, document.getElementById('theme').value];",
            vec![],
        )
        .await?;
    assert_eq!(theme, json!(["projector", "projector"]));
    let note = browser.text("#url-notes").await?;
    assert!(note.contains("speed") && note.contains('7'), "{note}");
    assert_eq!(
        browser
            .js(
                "return document.getElementById('view-activity').checked;",
                vec![]
            )
            .await?,
        json!(true)
    );
    browser.click("view-qd").await?;
    browser
        .wait_for("the charts to come back", || async {
            let gone = browser
                .js("return document.getElementById('activity') === null && document.getElementById('chart-iops') !== null;", vec![])
                .await?;
            Ok((gone == json!(true)).then_some(()))
        })
        .await?;
    browser
        .wait_for("the URL to leave teaching mode", || async {
            Ok((!browser.location_search().await?.contains("view=")).then_some(()))
        })
        .await?;
    browser.assert_clean_console()?;
    browser.close().await
}
