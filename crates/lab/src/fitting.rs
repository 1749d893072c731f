//! The model against measurements: the E18DC calibration table, and fitting a preset's fitted
//! parameters to a measurement file.

use std::fmt::Write as _;

use parallelism_model::calibration::{self, Measurement, Row};
use parallelism_model::custom::{self, CustomDrive, FioCells};
use parallelism_model::fio;
use parallelism_model::fit::{self, FitOptions, FitReport, LooReport};
use parallelism_model::presets::{self, Preset};
use parallelism_model::DriveState;

use crate::cli::{self, Format, ReportFormat};
use crate::{json, Fail};

pub fn calibrate(a: &cli::CalibrateArgs) -> Result<String, Fail> {
    let options = a.run.options();
    let rows = calibration::table(options)?;
    // Cross-validation refits the preset once per cell, so it runs only when asked for.
    let loo = if a.loo {
        let preset = presets::lookup("e18dc")?;
        let fit_options = FitOptions {
            run: options,
            ..FitOptions::default()
        };
        let report = fit::fit_with_loo(preset, calibration::e18dc()?, fit_options)?;
        report.loo
    } else {
        None
    };
    let loo = loo.as_ref();
    Ok(match a.output.format {
        Format::Json => calibration_json(&rows, loo)?,
        Format::Csv => calibration_csv(&rows, loo),
        Format::Table => calibration_table(&rows, loo),
    })
}

fn calibration_json(rows: &[Row], loo: Option<&LooReport>) -> Result<String, Fail> {
    let mut value = serde_json::to_value(rows)?;
    if let (Some(list), Some(l)) = (value.as_array_mut(), loo) {
        for (row, c) in list.iter_mut().zip(&l.cells) {
            row["loo_model"] = serde_json::json!(c.model);
            row["loo_error"] = serde_json::json!(c.err());
        }
    }
    json(&value)
}

fn calibration_csv(rows: &[Row], loo: Option<&LooReport>) -> String {
    let mut s = String::from("cell,measured,model,error_pct");
    s += if loo.is_some() {
        ",loo_model,loo_error_pct\n"
    } else {
        "\n"
    };
    for (i, r) in rows.iter().enumerate() {
        let _ = write!(
            s,
            "{},{},{:.4},{:.2}",
            r.cell,
            r.measured.value,
            r.model,
            r.error * 100.0
        );
        if let Some(c) = loo.map(|l| l.cells[i]) {
            let _ = write!(s, ",{:.4},{:.2}", c.model, c.err() * 100.0);
        }
        s.push('\n');
    }
    s
}

fn calibration_table(rows: &[Row], loo: Option<&LooReport>) -> String {
    let worst = rows.iter().map(|r| r.error.abs()).fold(0.0, f64::max);
    let mean = rows.iter().map(|r| r.error.abs()).sum::<f64>() / rows.len() as f64;
    let mut s = format!("Source: {}\n", calibration::SOURCE);
    let cells = rows
        .iter()
        .map(|r| (r.cell.clone(), r.measured.value, r.model, r.error));
    write_cells(&mut s, cells, loo);
    let _ = writeln!(
        s,
        "worst error: {:.1}% over {} cells (mean {:.1}%)",
        worst * 100.0,
        rows.len(),
        mean * 100.0
    );
    match loo {
        Some(l) => {
            let _ = writeln!(
                s,
                "leave-one-out: worst {:.1}%, mean {:.1}% (each cell predicted by a fit without it)",
                l.max_err * 100.0,
                l.mean_err * 100.0
            );
        }
        None => s.push_str("leave-one-out: run `lab calibrate --loo` (one fit per cell)\n"),
    }
    s
}

/// The cell table `calibrate` and `fit` share: label, measured, model and error of each cell,
/// with the leave-one-out prediction beside it when there is one.
fn write_cells(
    s: &mut String,
    cells: impl Iterator<Item = (String, f64, f64, f64)>,
    loo: Option<&LooReport>,
) {
    let _ = write!(
        s,
        "{:<40} {:>12} {:>12} {:>8}",
        "cell", "measured", "model", "error"
    );
    if loo.is_some() {
        let _ = write!(s, " {:>12} {:>9}", "LOO model", "LOO error");
    }
    s.push('\n');
    for (i, (label, measured, model, err)) in cells.enumerate() {
        let _ = write!(
            s,
            "{:<40} {:>12.3} {:>12.3} {:>+7.1}%",
            label,
            measured,
            model,
            err * 100.0
        );
        if let Some(c) = loo.map(|l| l.cells[i]) {
            let _ = write!(s, " {:>12.3} {:>+8.1}%", c.model, c.err() * 100.0);
        }
        s.push('\n');
    }
}

pub fn fit(a: &cli::FitArgs) -> Result<String, Fail> {
    if !a.fio.is_empty() {
        return fit_drive(a);
    }
    let preset = a.preset;
    let fit_options = FitOptions {
        run: a.run.options(),
        ..FitOptions::default()
    };
    let (source, cells) = measurements(a)?;
    let report = if a.loo {
        fit::fit_with_loo(preset, &cells, fit_options)
    } else {
        fit::fit(preset, &cells, fit_options)
    }
    .map_err(|e| Fail::at(&source, e))?;
    Ok(match a.format {
        ReportFormat::Json => json(&report)?,
        ReportFormat::Table => fit_table(preset, &source, cells.len(), &report),
    })
}

/// The cells to fit and where they come from: `--data`, or the preset's built-in reference.
fn measurements(a: &cli::FitArgs) -> Result<(String, Vec<Measurement>), Fail> {
    let Some(file) = &a.data else {
        let r = calibration::reference_for(&a.preset.id)?.ok_or_else(|| {
            Fail::Refused(format!(
                "preset '{}' has no built-in measurements; give --data FILE",
                a.preset.id
            ))
        })?;
        return Ok((r.source.to_string(), r.cells.to_vec()));
    };
    let path = file.display();
    let cells = calibration::parse(&crate::read_text(file, crate::MAX_CSV_BYTES)?)
        .map_err(|e| Fail::at(&path, e))?;
    Ok((path.to_string(), cells))
}

/// A preset's value as precisely as the fit's `step` resolves it, as the fit column prints its
/// own (a derived value such as PCIe 4.0's link efficiency, 0.9051428..., prints 0.905).
fn at_step(value: f64, step: f64) -> f64 {
    let decimals = (-step.log10()).ceil().clamp(0.0, 9.0) as i32;
    let scale = 10f64.powi(decimals);
    (value * scale).round() / scale
}

fn fit_table(preset: &Preset, source: &str, n_cells: usize, report: &FitReport) -> String {
    let mut s = format!("Source: {source}\n");
    let _ = writeln!(s, "Fit of {} ({n_cells} cells)", preset.name);
    let _ = writeln!(
        s,
        "{:<28} {:>10} {:>10} {:>18}",
        "parameter", "fit", "preset", "bounds / step"
    );
    for f in preset.fitted {
        let _ = writeln!(
            s,
            "{:<28} {:>10} {:>10} {:>18}",
            f.param.to_string(),
            report.value(f.param).unwrap_or(f64::NAN),
            at_step(f.param.get(&preset.default_drive()), f.step),
            format!("{}..={} / {}", f.lo, f.hi, f.step)
        );
    }
    let cells = report
        .cells
        .iter()
        .map(|c| (c.cell.label(), c.cell.value, c.model, c.err()));
    write_cells(&mut s, cells, report.loo.as_ref());
    let _ = writeln!(
        s,
        "in-sample: worst {:.2}%, mean {:.2}% over {} cells",
        report.max_err * 100.0,
        report.mean_err * 100.0,
        report.cells.len()
    );
    if let Some(l) = &report.loo {
        let _ = writeln!(
            s,
            "leave-one-out: worst {:.2}%, mean {:.2}% (each cell predicted by a fit without it)",
            l.max_err * 100.0,
            l.mean_err * 100.0
        );
    }
    let _ = writeln!(s, "{} parameter points run", report.evaluations);
    s
}

/// `lab fit --fio`: a drive of the user's own, fitted to their fio jobs.
fn fit_drive(a: &cli::FitArgs) -> Result<String, Fail> {
    let base = a.preset;
    let mut outputs = Vec::new();
    for file in &a.fio {
        let path = file.display().to_string();
        let output = fio::parse_output(&crate::read_text(file, fio::MAX_OUTPUT_BYTES)?)
            .map_err(|e| Fail::at(&path, e))?;
        outputs.push((path, output));
    }
    // Jobs the reader of fio's output left out, by line; then those the fit cannot take.
    let mut skipped: Vec<(String, String)> = outputs
        .iter()
        .flat_map(|(path, output)| {
            output
                .skipped
                .iter()
                .map(move |s| (format!("{path}: line {}, {}", s.line, s.job), s.why.clone()))
        })
        .collect();
    let files = outputs
        .iter()
        .map(|(path, output)| (path.as_str(), output.points.as_slice()));
    let FioCells {
        cells,
        skipped: left_out,
    } = custom::cells_from_files(files, a.state).map_err(|e| Fail::Refused(e.to_string()))?;
    skipped.extend(left_out);
    let dies = a
        .capacity_gb
        .map(|gb| base.dies_for_capacity_gb(gb))
        .transpose()
        .map_err(|e| Fail::at("--capacity-gb", e))?;
    let options = FitOptions {
        run: a.run.options(),
        ..FitOptions::default()
    };
    let report = custom::fit(base, &cells, options, dies)?;
    let drive = CustomDrive::fitted(base, dies, &report);
    let fitted = DriveFit {
        base,
        state: a.state,
        drive,
        report,
        skipped,
    };
    Ok(match a.format {
        ReportFormat::Json => json(&fitted.json()?)?,
        ReportFormat::Table => fitted.table(),
    })
}

/// What `lab fit --fio` prints, in both formats.
struct DriveFit {
    base: &'static Preset,
    state: DriveState,
    drive: CustomDrive,
    report: FitReport,
    skipped: Vec<(String, String)>,
}

impl DriveFit {
    /// The page's query string that opens this drive in this state.
    fn query(&self) -> String {
        self.drive.page_query(self.state)
    }

    fn misses(&self) -> Vec<String> {
        custom::misses(&self.report)
            .iter()
            .map(|c| c.cell.label())
            .collect()
    }

    fn json(&self) -> Result<serde_json::Value, Fail> {
        let mut v = serde_json::to_value(&self.report)?;
        v["base"] = self.base.id.clone().into();
        v["state"] = self.state.to_string().into();
        v["drive"] = self.drive.to_string().into();
        v["query"] = self.query().into();
        v["explains_within"] = custom::EXPLAINS_WITHIN.into();
        v["misses"] = self.misses().into();
        v["skipped"] = self
            .skipped
            .iter()
            .map(|(job, why)| serde_json::json!({ "job": job, "why": why }))
            .collect::<Vec<_>>()
            .into();
        Ok(v)
    }

    fn table(&self) -> String {
        let r = &self.report;
        let mut s = format!(
            "Fit of a drive on the {} ({} cells from fio, drive {})\n",
            self.base.name,
            r.cells.len(),
            self.state.label()
        );
        let identified = r.identified.clone().unwrap_or_default();
        let base = self.base.default_drive();
        let _ = writeln!(
            s,
            "{:<26} {:>10} {:>10} {:>20}  pinned by the cells",
            "parameter", "fit", "preset", "bounds / step"
        );
        for f in &custom::plausible(self.base) {
            let fitted = r.value(f.param);
            let _ = writeln!(
                s,
                "{:<26} {:>10} {:>10} {:>20}  {}",
                f.param.to_string(),
                self.drive.value(f.param).unwrap_or(f64::NAN),
                at_step(f.param.get(&base), f.step),
                format!("{}..={} / {}", f.lo, f.hi, f.step),
                match fitted {
                    None => "given (--capacity-gb)",
                    Some(_) if identified.contains(&f.param) => "yes (within 5%)",
                    Some(_) => "no",
                }
            );
        }
        let cells = r
            .cells
            .iter()
            .map(|c| (c.cell.label(), c.cell.value, c.model, c.err()));
        write_cells(&mut s, cells, None);
        let _ = writeln!(
            s,
            "worst error {:.1}%, mean {:.1}% over {} cells ({} parameter points run)",
            r.max_err * 100.0,
            r.mean_err * 100.0,
            r.cells.len(),
            r.evaluations
        );
        if let Some(outliers) = custom::outliers_text(r) {
            let _ = writeln!(s, "{outliers}");
        }
        for (job, why) in &self.skipped {
            let _ = writeln!(s, "left out {job}: {why}");
        }
        let _ = writeln!(s, "query: {}", self.query());
        s
    }
}

#[cfg(test)]
mod tests {
    use super::at_step;

    /// The preset column shows what the fit column can: PCIe 4.0's derived link efficiency at
    /// the fit's 0.005 step is 0.905, and values already on their step keep every digit.
    #[test]
    fn a_preset_value_prints_to_its_fit_step() {
        assert_eq!(at_step(0.905_142_857_142_857_1, 0.005), 0.905);
        assert_eq!(at_step(13.8, 0.1), 13.8);
        assert_eq!(at_step(1_650.0, 10.0), 1_650.0);
        assert_eq!(at_step(65.0, 0.5), 65.0);
        assert_eq!(at_step(32.0, 1.0), 32.0);
    }
}
