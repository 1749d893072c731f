//! Fitting as code: the search finds the values that generated its data, the model values it
//! judges are the calibration table's, and every fitted value is identified by several cells.
//! (`lab fit`'s output and errors are tested with the command line, in `crates/lab/tests`.)
#![cfg(not(target_arch = "wasm32"))]

use std::fmt::Write as _;

use parallelism_model::calibration::{self, Depth, Metric, HEADER};
use parallelism_model::config::{Fitted, Param};
use parallelism_model::fit::{self, Evaluator, FitOptions};
use parallelism_model::presets::{self, Preset};
use parallelism_model::RunOptions;

/// Fewer measured I/Os than the default: these tests check the search, not the model's noise.
fn quick() -> FitOptions {
    FitOptions {
        run: RunOptions {
            measured_ios: 4_000,
            ..RunOptions::default()
        },
        ..FitOptions::default()
    }
}

/// Bounds of the two free parameters of the round trip (the values generating the data sit on
/// their lattices: 64 = 40 + 48 x 0.5, 1800 = 1000 + 80 x 10).
static TWO_FREE: [Fitted; 2] = [
    Fitted {
        param: Param::TReadUs,
        lo: 40.0,
        hi: 80.0,
        step: 0.5,
    },
    Fitted {
        param: Param::CmdCostNs,
        lo: 1_000.0,
        hi: 2_500.0,
        step: 10.0,
    },
];

#[test]
fn a_fit_recovers_the_parameters_that_generated_its_data() {
    let e18dc = presets::find("e18dc").unwrap();
    let mut truth = e18dc.default_drive();
    Param::TReadUs.set(&mut truth, 64.0);
    Param::CmdCostNs.set(&mut truth, 1_800.0);
    let options = quick();

    // A measurement file with the E18DC's cells, each value what the model gives at the truth.
    let mut file =
        format!("# synthetic: the E18DC preset with t_read_us 64, cmd_cost_ns 1800\n{HEADER}\n");
    for c in calibration::e18dc().unwrap() {
        let value = c.model_value(&truth, options.run).unwrap();
        let workload = if c.rw.is_random() {
            "random"
        } else {
            "sequential"
        };
        let iodepth = match c.depth {
            Depth::Iodepth(q) => q.to_string(),
            Depth::Peak => "peak".into(),
            Depth::Rate { .. } => unreachable!("published cells are closed loops"),
        };
        let metrics = match c.metric {
            Metric::Iops => format!("{value},,"),
            Metric::MbS => format!(",{value},"),
            Metric::LatencyMs => format!(",,{value}"),
        };
        let _ = writeln!(
            file,
            "{},{workload},{}KiB,{},{iodepth},{metrics}",
            c.capacity_gb.unwrap(),
            c.bs_bytes / 1024,
            c.rwmixread
        );
    }
    let cells = calibration::parse(&file).unwrap();
    assert_eq!(cells.len(), calibration::e18dc().unwrap().len());

    let start = Preset {
        fitted: &TWO_FREE,
        ..e18dc.clone()
    };
    let report = fit::fit(&start, &cells, options).unwrap();
    for (param, want) in [(Param::TReadUs, 64.0), (Param::CmdCostNs, 1_800.0)] {
        let step = TWO_FREE.iter().find(|f| f.param == param).unwrap().step;
        let got = report.value(param).unwrap();
        assert!(
            (got - want).abs() <= step,
            "{param}: fit {got}, generated with {want}"
        );
    }
    assert!(report.max_err < 1e-9, "worst error {}", report.max_err);
    assert!(report.apply(&start.default_drive()).controller.cmd_cost == truth.controller.cmd_cost);
}

#[test]
fn the_fit_judges_the_model_values_the_calibration_table_shows() {
    let e18dc = presets::find("e18dc").unwrap();
    let options = quick();
    let mut e = Evaluator::new(e18dc, calibration::e18dc().unwrap(), options).unwrap();
    let point = e.preset_point();
    let at = e.drive_at(&point);
    let fitted = e.evaluate(&point).to_vec();
    let table = calibration::table_for(&at, calibration::e18dc().unwrap(), options.run).unwrap();
    assert_eq!(fitted.len(), table.len());
    for (f, row) in fitted.iter().zip(&table) {
        assert_eq!(*f, row.model, "{}", row.cell);
    }
    let runs = e.evaluations();
    e.evaluate(&point);
    assert_eq!(e.evaluations(), runs, "a point is run once");
}

#[test]
fn every_fitted_e18dc_value_is_identified_by_at_least_two_cells() {
    // Issue 13: a fitted value that moves only one cell is bent to that cell. Moving each of
    // the E18DC's fitted values by a tenth of its search range must move at least two published
    // cells by more than 1% each.
    let preset = presets::find("e18dc").unwrap();
    let cells = calibration::e18dc().unwrap();
    let options = RunOptions::default();
    let drive = preset.default_drive();
    let base = calibration::table_for(&drive, cells, options).unwrap();
    for f in preset.fitted {
        let mut moved = drive.clone();
        let value = f.param.get(&drive);
        let nudge = ((f.hi - f.lo) / 10.0).max(f.step);
        let target = if value + nudge <= f.hi {
            value + nudge
        } else {
            value - nudge
        };
        f.param.set(&mut moved, target);
        let rows = calibration::table_for(&moved, cells, options).unwrap();
        let sensitive: Vec<&str> = base
            .iter()
            .zip(&rows)
            .filter(|(a, b)| (b.model / a.model - 1.0).abs() > 0.01)
            .map(|(a, _)| a.cell.as_str())
            .collect();
        assert!(
            sensitive.len() >= 2,
            "{} {value} -> {target} moves only {sensitive:?}",
            f.param
        );
    }
}
