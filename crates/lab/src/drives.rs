//! The drives: the presets the model knows, and the consumer ones' spec sheets against it.

use std::fmt::Write as _;

use parallelism_model::presets::{self, Preset};
use parallelism_model::spec_sheet;
use parallelism_model::RunOptions;

use crate::cli::Format;
use crate::{json, Fail};

pub fn presets(format: Format) -> Result<String, Fail> {
    if format == Format::Json {
        let list: Vec<_> = presets::all()
            .iter()
            .map(|p| {
                serde_json::json!({
                    "id": p.id, "name": p.name, "summary": p.summary,
                    "capacities_gb": p.capacities_gb, "gb_per_die": p.gb_per_die(),
                    "channels": p.controller.channels, "link": p.controller.link.name(),
                    "nand": p.nand.name,
                })
            })
            .collect();
        return json(&list);
    }
    let mut out = String::new();
    for p in presets::all() {
        let caps: Vec<String> = p.capacities_gb.iter().map(|c| format!("{c} GB")).collect();
        let _ = writeln!(
            out,
            "{:<8} {:<40} {} ({:.0} GB per die of {})",
            p.id,
            p.name,
            caps.join(", "),
            p.gb_per_die(),
            p.nand.name
        );
    }
    Ok(out)
}

/// The consumer presets' spec-sheet peaks against the model's fresh drive.
pub fn spec(preset: Option<&'static Preset>, format: Format) -> Result<String, Fail> {
    let chosen: Vec<&Preset> = match preset {
        Some(p) => vec![p],
        None => presets::all().iter().collect(),
    };
    let options = RunOptions::default();
    let rows: Vec<(&Preset, spec_sheet::SpecRow)> = chosen
        .into_iter()
        .flat_map(|p| {
            spec_sheet::compare(p, options)
                .unwrap_or_default()
                .into_iter()
                .map(move |r| (p, r))
        })
        .collect();
    if rows.is_empty() {
        return Err(Fail::Refused(
            "no spec-sheet peaks for this preset (the E12, E12C, E8, E8T and E7 have them)".into(),
        ));
    }
    Ok(match format {
        Format::Json => {
            let list: Vec<_> = rows
                .iter()
                .map(|(p, r)| {
                    serde_json::json!({
                        "preset": p.id, "figure": r.figure, "unit": r.figure.unit(),
                        "capacity_gb": r.capacity_gb, "spec": r.spec, "model": r.model,
                        "err": r.err, "beyond_model": r.beyond_model,
                    })
                })
                .collect();
            json(&list)?
        }
        Format::Csv | Format::Table => {
            let mut out = format!(
                "{:<6} {:>6}  {:<38} {:>10} {:>10} {:>7}\n",
                "preset", "GB", "figure", "spec", "model", "error"
            );
            for (p, r) in &rows {
                let _ = writeln!(
                    out,
                    "{:<6} {:>6.0}  {:<38} {:>10.0} {:>10.0} {:>+6.1}%{}",
                    p.id,
                    r.capacity_gb,
                    format!("{} {}", r.figure, r.figure.unit()),
                    r.spec,
                    r.model,
                    // Rounded first, so a hair below zero prints as +0.0%, not -0.0%.
                    (r.err * 1000.0).round() / 10.0 + 0.0,
                    if r.beyond_model.is_some() {
                        "  (beyond the model*)"
                    } else {
                        ""
                    }
                );
            }
            for (p, r) in &rows {
                if let Some(why) = r.beyond_model {
                    let _ = writeln!(out, "* {} {}: {why}", p.id, r.figure);
                }
            }
            out
        }
    })
}
