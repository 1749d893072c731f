//! `lab validate`: the model against every published figure, as `parallelism_model::scorecard`
//! scores it, printed as a table, CSV or JSON; with `--sensitivity`, each assumption's effect
//! on each figure. The figures, procedures, bands and verdicts all come from the model; this
//! module only prints them (and spreads the sensitivity's reruns over the machine's cores).

use std::fmt::Write as _;
use std::time::Instant;

use parallelism_model::scorecard::{
    self, assumptions, Assumption, Baseline, Moved, Score, Scorecard, SensitivityRow, Source,
};
use serde_json::json;

use crate::cli::{self, Format};
use crate::Fail;

pub fn validate(a: &cli::ValidateArgs) -> Result<String, Fail> {
    let started = Instant::now();
    let baseline = Baseline::run()?;
    let sensitivity = if a.sensitivity {
        Some(sensitivity(&baseline)?)
    } else {
        None
    };
    let seconds = started.elapsed().as_secs_f64();
    let card = &baseline.scorecard;
    Ok(match (a.output.format, &sensitivity) {
        (Format::Json, s) => crate::json(&json!({
            "summary": card.summary,
            "summary_line": card.summary.to_string(),
            "rows": card.rows,
            "sensitivity": s,
            "assumptions": s.as_ref().map(|_| assumption_json()),
            "seconds": seconds,
        }))?,
        (Format::Csv, None) => csv(card),
        (Format::Csv, Some(s)) => sensitivity_csv(card, s),
        (Format::Table, s) => {
            let mut out = table(card);
            if let Some(s) = s {
                out.push_str(&sensitivity_table(card, s));
            }
            let _ = writeln!(out, "{} figures scored in {seconds:.1} s", card.rows.len());
            out
        }
    })
}

/// Each assumption's reruns, two at a time (one per core of a small machine).
fn sensitivity(baseline: &Baseline) -> Result<Vec<SensitivityRow>, Fail> {
    let all = assumptions();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = all.len().div_ceil(threads.max(1));
    let varied = std::thread::scope(|s| {
        let handles: Vec<_> = all
            .chunks(chunk.max(1))
            .map(|part: &'static [Assumption]| {
                s.spawn(move || {
                    part.iter()
                        .map(|a| scorecard::vary(baseline, a))
                        .collect::<Result<Vec<_>, _>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect::<Result<Vec<_>, _>>()
    })?;
    Ok(scorecard::table(
        baseline,
        varied.into_iter().flatten().collect(),
    ))
}

fn assumption_json() -> serde_json::Value {
    assumptions()
        .iter()
        .map(|a| {
            json!({
                "id": a.id, "what": a.what, "unit": a.unit, "lo": a.lo, "hi": a.hi,
                "presets": a.presets, "basis": a.basis,
            })
        })
        .collect()
}

fn error_text(s: &Score) -> String {
    s.error
        .map_or_else(|| "-".to_string(), |e| format!("{:+.1}%", e * 100.0))
}

/// `s` in at most `chars` characters, cut with an ellipsis (the CSV and JSON keep it whole).
fn clipped(s: &str, chars: usize) -> String {
    if s.chars().count() <= chars {
        return s.to_string();
    }
    let cut: String = s.chars().take(chars.saturating_sub(1)).collect();
    format!("{cut}…")
}

fn table(card: &Scorecard) -> String {
    let mut out = String::from(
        "  verdict               error                       published                   model  band            figure\n",
    );
    for source in Source::ALL {
        let rows: Vec<&Score> = card.rows.iter().filter(|r| r.source == source).collect();
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{}: {}", source.short(), source.citation());
        for r in &rows {
            let _ = writeln!(
                out,
                "  {:<19} {:>7}  {:>30}  {:>22}  {:<15} {}",
                r.verdict.to_string(),
                error_text(r),
                clipped(&r.published, 30),
                clipped(&r.model_text, 22),
                r.band,
                r.id,
            );
            if let Some(cause) = &r.cause {
                let _ = writeln!(out, "      known miss: {cause}");
            }
        }
        out.push('\n');
    }
    let _ = writeln!(out, "{}", card.summary);
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv(card: &Scorecard) -> String {
    let mut out =
        String::from("id,source,drive,figure,procedure,published,model,error,band,verdict,cause\n");
    for r in &card.rows {
        let fields = [
            r.id.clone(),
            r.source.to_string(),
            r.drive.clone(),
            r.what.clone(),
            r.procedure.clone(),
            r.published.clone(),
            r.model_text.clone(),
            r.error.map_or_else(String::new, |e| format!("{e:.6}")),
            r.band.clone(),
            r.verdict.to_string(),
            r.cause.clone().unwrap_or_default(),
        ];
        let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        let _ = writeln!(out, "{}", line.join(","));
    }
    out
}

fn sensitivity_csv(card: &Scorecard, rows: &[SensitivityRow]) -> String {
    let mut out =
        String::from("id,base,assumption,at_lo,at_hi,moved,verdict_at_lo,verdict_at_hi\n");
    for (r, s) in card.rows.iter().zip(rows) {
        for m in &s.moves {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{:.6},{},{}",
                r.id,
                csv_field(&r.model_text),
                m.assumption,
                m.at_lo,
                m.at_hi,
                m.moved,
                m.verdict_at_lo,
                m.verdict_at_hi
            );
        }
    }
    out
}

fn moved_text(m: &Moved) -> String {
    let flips = if m.verdict_at_lo.as_expected() && m.verdict_at_hi.as_expected() {
        String::new()
    } else {
        format!(" (at the ends: {}, {})", m.verdict_at_lo, m.verdict_at_hi)
    };
    format!("{} {:.1}%{flips}", m.assumption, m.moved * 100.0)
}

fn sensitivity_table(card: &Scorecard, rows: &[SensitivityRow]) -> String {
    let mut out = String::from("Assumptions, each rerun at both ends of its range:\n");
    for a in assumptions() {
        let _ = writeln!(
            out,
            "  {:<22} {} to {} {} ({}): {}",
            a.id, a.lo, a.hi, a.unit, a.what, a.basis
        );
    }
    out.push_str("\nWhat each figure depends on (moves of 1% or more, the largest first):\n");
    let mut solid = 0;
    for (r, s) in card.rows.iter().zip(rows) {
        let big: Vec<String> = s
            .moves
            .iter()
            .filter(|m| m.moved >= 0.01)
            .map(moved_text)
            .collect();
        if big.is_empty() {
            solid += 1;
            continue;
        }
        let _ = writeln!(out, "  {:<60} {}", r.id, big.join("; "));
    }
    let _ = writeln!(
        out,
        "{solid} of {} figures move less than 1% across every assumption's range\n",
        card.rows.len()
    );
    out
}
