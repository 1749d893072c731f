//! `lab review`: a review's synthetic tests on a drive, each test's curve and score, and
//! whether the curve has the shape of the review's words. The tests, their procedures, the
//! review's words and the checks come from `parallelism_model::review`; this module only prints
//! them.

use std::fmt::Write as _;

use parallelism_model::review::check;
use parallelism_model::review::{self, Shape, TestResult, TestSpec, E12_SOURCE, E12_SUITE};

use crate::cli::{self, Format, Suite};
use crate::Fail;

/// One test as the JSON prints it.
#[derive(serde::Serialize)]
struct TestJson<'a> {
    test: &'a str,
    title: &'a str,
    review_says: &'a str,
    score_mb_s: f64,
    points: &'a [review::ReviewPoint],
    /// Whether the curve has the shape of the review's words; absent for the records.
    #[serde(skip_serializing_if = "Option::is_none")]
    check: Option<CheckJson>,
}

/// A test's check as the JSON prints it: the verdict, and the figures that decide in words.
#[derive(serde::Serialize)]
struct CheckJson {
    holds: bool,
    found: String,
}

pub fn review(a: &cli::ReviewArgs) -> Result<String, Fail> {
    let suite: &[TestSpec] = match a.suite {
        Suite::E12 => &E12_SUITE,
    };
    let drive = a.drive()?;
    let results = review::run(&drive, suite, a.run.options())?;
    Ok(match a.output.format {
        Format::Json => crate::json(
            &suite
                .iter()
                .zip(&results)
                .map(|(t, r)| TestJson {
                    test: t.test.name(),
                    title: t.title,
                    review_says: t.review_says,
                    score_mb_s: r.score_mb_s,
                    points: &r.points,
                    check: check::check(r).map(|c| CheckJson {
                        holds: c.holds,
                        found: c.found.to_string(),
                    }),
                })
                .collect::<Vec<_>>(),
        )?,
        Format::Csv => csv(&results),
        Format::Table => {
            let name = format!(
                "{}, {} dies ({:.0} GB)",
                drive.controller.name,
                drive.dies,
                drive.user_gb()
            );
            table(&name, suite, &results)
        }
    })
}

fn csv(results: &[TestResult]) -> String {
    let mut s = String::from("test,qd,read_percent,mb_s,slc_read_share\n");
    for r in results {
        for p in &r.points {
            let _ = writeln!(
                s,
                "{},{},{},{:.1},{:.3}",
                r.test, p.iodepth, p.read_percent, p.mb_s, p.slc_read_share
            );
        }
    }
    s
}

fn table(drive: &str, suite: &[TestSpec], results: &[TestResult]) -> String {
    let mut s = format!(
        "The E12 review's tests ({E12_SOURCE}) on the model's {drive}; MB/s are model results.\n"
    );
    for (t, r) in suite.iter().zip(results) {
        let _ = writeln!(s, "\n{}: score {:.0} MB/s", t.title, r.score_mb_s);
        let _ = writeln!(s, "  the review on its E12: \"{}\"", t.review_says);
        let points: Vec<String> = r
            .points
            .iter()
            .map(|p| match t.shape {
                Shape::Mixed => format!("{}% {:.0}", p.read_percent, p.mb_s),
                Shape::Burst | Shape::Sustained => format!("QD{} {:.0}", p.iodepth, p.mb_s),
            })
            .collect();
        let _ = writeln!(s, "  {}", points.join("  "));
        if let Some(c) = check::check(r) {
            let _ = writeln!(s, "  against those words: {c}");
        }
    }
    s
}
