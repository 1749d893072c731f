//! The E12 review's tests as a view: the suite of *The Phison E12 Reference Design Preview*
//! (bursts, sustained depths, mixes) run on the drive the controls set, one bar chart a test in
//! the review's order, each under the review's own words about its E12 sample.
//!
//! The suite runs in the page's worker pool ([`Pool::start_review`]), never on the main thread;
//! a drive already done is shown at once. The bars are plain HTML (a list of labelled values),
//! so a screen reader reads every figure, and each names itself a model result. What the view
//! shows is built by [`build`], pure and tested natively.

use leptos::prelude::*;

use crate::ui::pure::guide::GuidePage;
use crate::ui::views::guide_link::GuideLink;
use parallelism_work::review::{ReviewAsk, ReviewFound, ReviewProgress};

use crate::model::review::check::{self, Check};
use crate::model::review::{Shape, TestSpec, E12_SOURCE};
use crate::ui::browser::pool::{Pool, ReviewState};
use crate::ui::pure::compute::{drive_key, DriveKey};
use crate::ui::pure::format;
use crate::ui::pure::state::{Lab, View};

/// One bar: what it stands for, its figure, and its length against the test's longest.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub label: String,
    pub value: String,
    pub percent: f64,
}

/// One test's figure.
#[derive(Clone, Debug, PartialEq)]
pub struct TestView {
    pub title: &'static str,
    pub score: String,
    pub review_says: &'static str,
    /// Whether the model's curve has the shape of those words, with the figures that decide
    /// (none for the records and the "very good", which came with no figure).
    pub check: Option<Check>,
    pub bars: Vec<Bar>,
}

/// What the view shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReviewView {
    pub status: String,
    pub tests: Vec<TestView>,
}

/// The view's data from what the pool knows of the suite for this drive.
pub fn build(state: Option<&ReviewState>, key: &DriveKey) -> ReviewView {
    let Some(state) = state.filter(|s| s.ask.drive == *key) else {
        return ReviewView {
            status: status(ReviewProgress::default()),
            tests: Vec::new(),
        };
    };
    match &state.outcome {
        None => ReviewView {
            status: status(state.progress),
            tests: Vec::new(),
        },
        Some(Err(why)) => ReviewView {
            status: format!("The model cannot run the review's tests on this drive: {why}"),
            tests: Vec::new(),
        },
        Some(Ok(found)) => ReviewView {
            status: "Model: every test of the review has run on this drive.".into(),
            tests: tests(found),
        },
    }
}

fn status(p: ReviewProgress) -> String {
    if p.total == 0 {
        return "The model is starting the review's tests…".into();
    }
    format!(
        "The model is running the review's tests: {} of {} phases.",
        p.done, p.total
    )
}

fn tests(found: &ReviewFound) -> Vec<TestView> {
    found
        .results
        .iter()
        .map(|r| {
            let spec = TestSpec::of(r.test);
            let top = r.points.iter().map(|p| p.mb_s).fold(0.0, f64::max);
            let bars = r
                .points
                .iter()
                .map(|p| Bar {
                    label: match spec.shape {
                        Shape::Mixed => format!("{}% reads", p.read_percent),
                        Shape::Burst | Shape::Sustained => format!("QD{}", p.iodepth),
                    },
                    value: format::mb_s(p.mb_s),
                    percent: if top > 0.0 { 100.0 * p.mb_s / top } else { 0.0 },
                })
                .collect();
            TestView {
                title: spec.title,
                score: format!("score {} (model)", format::mb_s(r.score_mb_s)),
                review_says: spec.review_says,
                check: check::check(r),
                bars,
            }
        })
        .collect()
}

/// The review's tests (hidden, and idle, unless the state's view is [`View::Review`]). Its
/// suite is asked for whenever it is shown and the drive changes; hiding it drops a suite
/// under way. Its contents are built the first time it is shown and kept from then on, so the
/// app's start-up (one task on a slow phone) does not build them for a view few open.
#[component]
pub fn ReviewTestsView() -> impl IntoView {
    let lab = Lab::expect();
    let pool = Pool::expect();
    let shown = Memo::new(move |_| lab.display.with(|d| d.view == View::Review));
    let key = Memo::new(move |_| lab.drive.with(drive_key));
    Effect::new(move |_| match shown.get() {
        true => pool.start_review(ReviewAsk { drive: key.get() }),
        false => pool.cancel_review(),
    });
    let opened = crate::ui::browser::later::once_shown(shown);
    view! {
        <section
            id="review-tests"
            class="time-view review-view"
            aria-labelledby="review-title"
            hidden=move || !shown.get()
        >
            <Show when=move || opened.get()>
                <ReviewTestsContents key=key />
            </Show>
        </section>
    }
}

/// What the view shows for the drive `key` names.
#[component]
fn ReviewTestsContents(key: Memo<DriveKey>) -> impl IntoView {
    let lab = Lab::expect();
    let pool = Pool::expect();
    let data = Memo::new(move |_| {
        pool.review_revision();
        build(pool.review_state().as_ref(), &key.get())
    });
    let drive = move || lab.drive.with(|d| d.label());
    view! {
        <div class="card time-head">
            <h2 id="review-title">"The E12 review's tests: " {drive}</h2>
            <GuideLink page=GuidePage::Review />
            <p class="chart-sub">
                "Bars are results of the model for the drive set in the controls, run through the procedures of "
                <cite>{E12_SOURCE}</cite>
                ": burst tests at QD1, sustained tests from QD1 to QD32 (a minute or 32 GB a depth, then idle), mixed sweeps from 100% to 0% reads. Quoted words are the review's about its own 960 GB E12 sample."
            </p>
            <p class="model-status" id="review-status" role="status">
                {move || data.with(|v| v.status.clone())}
            </p>
        </div>
        <div class="review-tests">
            <For
                each=move || data.with(|v| v.tests.clone())
                key=|t| t.title
                children=|t| view! { <TestFigure test=t /> }
            />
        </div>
    }
}

#[component]
fn TestFigure(test: TestView) -> impl IntoView {
    view! {
        <figure class="card review-test">
            <figcaption>
                <strong>{test.title}</strong>
                ": "
                {test.score}
            </figcaption>
            <p class="review-says">"The review, on its E12: “" {test.review_says} "”"</p>
            {test
                .check
                .map(|c| {
                    let verdict = if c.holds {
                        "The model's curve has that shape: "
                    } else {
                        "The model's curve misses that shape: "
                    };
                    view! {
                        <p class="review-check" class:misses=!c.holds>
                            {verdict}
                            {c.found.to_string()}
                            "."
                        </p>
                    }
                })}
            <ul class="review-bars">
                {test
                    .bars
                    .into_iter()
                    .map(|b| {
                        view! {
                            <li>
                                <span class="review-bar-label">{b.label}</span>
                                <span class="review-bar" aria-hidden="true">
                                    <span style:width=format!("{:.1}%", b.percent)></span>
                                </span>
                                <span class="review-bar-value">{b.value}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::presets;
    use crate::model::review::{self as model_review, E12_SUITE};
    use crate::model::{ConfigError, RunOptions};
    use crate::ui::browser::pool::TaskState;
    use parallelism_work::WorkError;

    fn e12_key() -> DriveKey {
        "e12/32x256".parse().unwrap()
    }

    fn done(key: DriveKey) -> ReviewState {
        let drive = presets::find("e12").unwrap().drive_with_dies(32).unwrap();
        let options = RunOptions {
            seed: 1,
            measured_ios: 2_000,
            ..RunOptions::default()
        };
        TaskState {
            ask: ReviewAsk { drive: key },
            progress: ReviewProgress {
                done: 50,
                total: 50,
            },
            outcome: Some(Ok(ReviewFound {
                results: model_review::run(&drive, &E12_SUITE, options).unwrap(),
            })),
        }
    }

    #[test]
    fn the_tests_show_in_the_reviews_order_with_its_words_and_model_bars() {
        let v = build(Some(&done(e12_key())), &e12_key());
        assert_eq!(v.tests.len(), 10);
        assert_eq!(v.tests[0].title, "Burst random read (4 KiB, QD1)");
        let sustained = &v.tests[5];
        assert_eq!(
            sustained.title,
            "Sustained sequential read (128 KiB, QD1 to QD32)"
        );
        assert!(sustained.review_says.contains("jumps up toward saturation"));
        let labels: Vec<&str> = sustained.bars.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(labels, ["QD1", "QD2", "QD4", "QD8", "QD16", "QD32"]);
        assert!(sustained.bars.iter().any(|b| b.percent == 100.0));
        assert!(sustained.score.ends_with("(model)"));
        let mixed = &v.tests[8];
        assert_eq!(mixed.bars[0].label, "100% reads");
        assert_eq!(mixed.bars[10].label, "0% reads");
    }

    /// Each test with words that describe a shape shows the model's check of it, the records
    /// none; on the review's own drive the burst read's miss is shown as a miss.
    #[test]
    fn a_test_shows_whether_the_model_has_the_shape_of_the_reviews_words() {
        let v = build(Some(&done(e12_key())), &e12_key());
        let checked: Vec<bool> = v.tests.iter().map(|t| t.check.is_some()).collect();
        assert_eq!(
            checked,
            [false, false, true, true, true, true, false, true, true, true]
        );
        let burst_read = v.tests[4].check.as_ref().unwrap();
        assert!(!burst_read.holds);
        assert!(burst_read.found.to_string().contains("read as 1,950"));
    }

    #[test]
    fn progress_a_refusal_and_another_drive_each_say_so() {
        let key = e12_key();
        assert!(build(None, &key).status.contains("starting"));
        let mut running = done(key.clone());
        running.outcome = None;
        running.progress = ReviewProgress {
            done: 12,
            total: 50,
        };
        assert!(build(Some(&running), &key)
            .status
            .contains("12 of 50 phases"));
        let mut refused = done(key.clone());
        refused.outcome = Some(Err(WorkError::Refused(ConfigError::OutOfRange {
            what: "test span (GB)".into(),
            value: "64".into(),
            allowed: "at most the drive's capacity".into(),
        })));
        let v = build(Some(&refused), &key);
        assert!(
            v.status.contains("cannot run") && v.tests.is_empty(),
            "{v:?}"
        );
        let other: DriveKey = "e12/16x256".parse().unwrap();
        assert!(
            build(Some(&done(key)), &other).tests.is_empty(),
            "results of another drive"
        );
    }
}
