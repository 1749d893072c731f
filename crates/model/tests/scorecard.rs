//! The model against every published figure (`parallelism_model::scorecard`): the whole table
//! runs on every `cargo test`, and a figure that leaves its band, a known miss that grows, or a
//! known miss that silently holds fails here, naming the figure, its source and its values.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashSet;
use std::sync::OnceLock;

use parallelism_model::scorecard::{
    assumptions, figures, vary, Baseline, Published, Scorecard, Source, Verdict,
};
use parallelism_model::sliced::Sliced;

/// What a test or its helper returns: a scorecard that cannot run is an error, not a panic.
type TestResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// The scorecard, run once for every test here (with the presets each figure read); the
/// error, if it cannot run, in words every test that asks for it reports.
fn baseline() -> TestResult<&'static Baseline> {
    static BASELINE: OnceLock<Result<Baseline, String>> = OnceLock::new();
    let baseline = BASELINE.get_or_init(|| Baseline::run().map_err(|e| e.to_string()));
    Ok(baseline
        .as_ref()
        .map_err(|e| format!("the scorecard cannot run: {e}"))?)
}

fn card() -> TestResult<&'static Scorecard> {
    Ok(&baseline()?.scorecard)
}

/// Every figure is as the table says: inside its band, or a known miss no worse than allowed.
#[test]
fn every_published_figure_is_within_its_band_or_a_known_miss_no_worse_than_stated() -> TestResult {
    let card = card()?;
    let failing: Vec<String> = card
        .rows
        .iter()
        .filter(|r| !r.verdict.as_expected())
        .map(|r| {
            format!(
                "{} ({}): {}: published {}, model {} ({})",
                r.id,
                r.source.short(),
                r.verdict,
                r.published,
                r.model_text,
                r.band
            )
        })
        .collect();
    assert!(failing.is_empty(), "{}", failing.join("\n"));
    assert_eq!(card.summary.failing, 0, "{}", card.summary);
    assert_eq!(card.summary.rows, figures().len());
    Ok(())
}

/// Issue 53's figures: the E18DC's measured cells (the QD1 sequential reads among them) within
/// 8%, and the QD1 sequential reads of the three capacities within the article's range.
#[test]
fn the_e18dc_cells_and_its_qd1_sequential_reads_hold_within_8_percent() -> TestResult {
    let card = card()?;
    let e18dc: Vec<_> = card
        .rows
        .iter()
        .filter(|r| r.source == Source::E18dcArticle && r.error.is_some())
        .collect();
    assert!(e18dc.len() >= 23 + 2, "{} numeric rows", e18dc.len());
    for r in &e18dc {
        assert!(r.error.unwrap().abs() <= 0.08, "{}: {}", r.id, r.model_text);
    }
    for id in [
        "e18dc-1920-gb-read-128-kib-qd1-mb-s",
        "e18dc-480-gb-read-128-kib-qd1-in-the-range",
        "e18dc-960-gb-read-128-kib-qd1-in-the-range",
        "e18dc-qd1-sequential-reads-flat-across-capacity",
    ] {
        let r = card.rows.iter().find(|r| r.id == id).unwrap();
        assert_eq!(r.verdict, Verdict::Holds, "{id}: {}", r.model_text);
    }
    Ok(())
}

/// The table's own bookkeeping: one row per id, a procedure to reproduce each, a cause for each
/// known miss, and every source of the reference represented.
#[test]
fn every_row_has_a_unique_id_a_procedure_and_a_cause_for_its_known_miss() {
    let all = figures();
    let ids: HashSet<&str> = all.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids.len(), all.len(), "duplicate ids");
    for f in all {
        assert!(f.procedure.starts_with("lab "), "{}: {}", f.id, f.procedure);
        assert!(!f.what.is_empty() && !f.drive.is_empty(), "{}", f.id);
        if let Some(k) = f.known_miss {
            assert!(k.cause.len() > 40 && k.up_to > 0.0, "{}", f.id);
        }
        if let Published::Range { lo, hi, .. } = f.published {
            assert!(lo < hi, "{}", f.id);
        }
    }
    for verdict in Verdict::ALL {
        let json = serde_json::to_string(&verdict).unwrap();
        assert_eq!(
            json.trim_matches('"').replace('-', " "),
            verdict.to_string()
        );
    }
    for source in Source::ALL {
        assert!(all.iter().any(|f| f.source == source), "{source}");
        assert_eq!(source.to_string().parse::<Source>(), Ok(source));
        // JSON (lab validate, the page) spells a source as its name does.
        assert_eq!(
            serde_json::to_string(&source).unwrap(),
            format!("\"{source}\"")
        );
    }
}

/// The scorecard in slices (as a worker runs it, a few milliseconds a unit) is the scorecard in
/// one go, bit for bit.
#[test]
fn the_scorecard_in_slices_is_the_scorecard_in_one_go() -> TestResult {
    let whole = card()?;
    let mut run = parallelism_model::scorecard::ScorecardRun::new();
    let mut slices = 0;
    let mut last = 0;
    let stepped = loop {
        slices += 1;
        if let Some(card) = run.step(7).unwrap() {
            break card;
        }
        let (done, total) = run.counts();
        assert!(
            done >= last && done < total,
            "{done} of {total}, after {last}"
        );
        last = done;
    };
    // The replays and the review's suite take many small slices before the figures.
    assert!(slices > figures().len() / 7, "{slices} slices");
    assert_eq!(&stepped, whole);
    // As the page receives it: every word and verdict the same, every number to its last digit
    // but one (JSON's decimal text of a double reads back within an ulp).
    let back: Scorecard = serde_json::from_str(&serde_json::to_string(whole).unwrap()).unwrap();
    assert_eq!(back.summary.to_string(), whole.summary.to_string());
    for (b, w) in back.rows.iter().zip(&whole.rows) {
        assert_eq!(
            (&b.id, &b.published, &b.model_text, b.verdict),
            (&w.id, &w.published, &w.model_text, w.verdict)
        );
        assert!((b.error.unwrap_or(0.0) - w.error.unwrap_or(0.0)).abs() < 1e-12);
    }
    Ok(())
}

/// A sensitivity run reruns every figure that reads the preset it varies, also those whose run
/// an earlier figure made: the retail rows read the E12's fill that the review's row ran first,
/// and a static cache of 0 and of 24 GB moves them (the fill's cache is 32 and 56 GB).
#[test]
fn an_assumption_moves_every_figure_that_shares_its_run() -> TestResult {
    let slc = assumptions()
        .iter()
        .find(|a| a.id == "consumer-slc-static")
        .unwrap();
    let moved = vary(baseline()?, slc).unwrap();
    let card = card()?;
    let ids: Vec<&str> = moved
        .iter()
        .map(|(i, _)| card.rows[*i].id.as_str())
        .collect();
    let cache = card
        .rows
        .iter()
        .position(|r| r.id == "e12-retail-firecuda-510-cache")
        .unwrap();
    let (_, m) = moved
        .iter()
        .find(|(i, _)| *i == cache)
        .expect("the cache row moves");
    assert!(
        (m.at_lo - 32.0).abs() < 0.5 && (m.at_hi - 56.0).abs() < 0.5,
        "{m:?}"
    );
    // The E18DC and the Octane carry no SLC cache: none of their figures is rerun.
    assert!(
        ids.iter()
            .all(|id| !id.starts_with("e18dc") && !id.starts_with("octane")),
        "{ids:?}"
    );
    Ok(())
}
