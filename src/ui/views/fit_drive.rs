//! "Fit the model to your drive": the imported fio jobs become cells, the search of
//! [`crate::model::custom`] runs in a worker of the page's pool (progress shown, cancellable,
//! never on the thread that draws), and the fitted drive becomes the lab's drive, so every
//! chart, view, pin, export and link shows it (its `drive=` text is in the URL).
//!
//! The search is the one `lab fit --fio` runs, with [`FIT_IOS`] measured I/Os per run;
//! the panel prints the command that gives the same values. The pure parts (the table rows, the
//! sentences) are functions tested natively; the component only wires them.
//!
//! What always holds: a fit that cannot start (no job the lab models, a capacity it cannot
//! build) says why and changes nothing; cancelling drops the work at once; the drive changes
//! only when a fit finishes, and the reader's earlier drive is one click away.

use leptos::prelude::*;

use crate::ui::pure::guide::GuidePage;
use crate::ui::views::guide_link::GuideLink;

use parallelism_work::fit::{FitAsk, FIT_IOS};

use crate::model::calibration::{Measurement, Metric};
use crate::model::config::Param;
use crate::model::custom::{self, CustomDrive};
use crate::model::fit::FitReport;
use crate::model::presets::{Preset, PresetRef};
use crate::model::sliced_fit::FitProgress;
use crate::model::DriveState;
use crate::ui::browser::pool::Pool;
use crate::ui::pure::state::{custom as custom_presets, DriveSetup, Imports, Lab, YourDrive};

/// What a fit was asked: the base preset, the die count if the capacity was given, the cells
/// and the files they came from.
#[derive(Clone, Debug, PartialEq)]
pub struct FitSetup {
    pub base: &'static Preset,
    pub dies: Option<u32>,
    pub capacity_gb: Option<f64>,
    pub state: DriveState,
    pub cells: Vec<Measurement>,
    pub files: Vec<String>,
    /// Jobs that gave no cell, with the reason.
    pub skipped: Vec<String>,
}

/// The fit the reader asks for, or why it cannot start.
pub fn setup(
    imports: &Imports,
    which: usize,
    drive: &DriveSetup,
    state: DriveState,
    capacity_text: &str,
) -> Result<FitSetup, String> {
    let base = custom_presets::base_of(drive.preset())
        .ok_or("This drive is made on no built-in controller, so the lab cannot fit it.")?;
    let capacity_text = capacity_text.trim();
    let capacity_gb = if capacity_text.is_empty() {
        None
    } else {
        Some(
            capacity_text
                .parse::<f64>()
                .map_err(|_| format!("The capacity '{capacity_text}' is not a number of GB."))?,
        )
    };
    let dies = capacity_gb
        .map(|gb| base.dies_for_capacity_gb(gb))
        .transpose()
        .map_err(|e| format!("{e}."))?;
    let Some(yours) = imports.as_slice().get(which) else {
        return Err("Import your fio files first.".to_string());
    };
    let files = yours.files().iter().map(|f| (f.name.as_str(), f.points()));
    let got = custom::cells_from_files(files, state)
        .map_err(|none| format!("The fit cannot start: {none}."))?;
    let cells = got.cells;
    let skipped = got
        .skipped
        .into_iter()
        .map(|(job, why)| format!("{job}: {why}"))
        .collect();
    Ok(FitSetup {
        base,
        dies,
        capacity_gb,
        state,
        cells,
        files: yours.files().iter().map(|f| f.name.clone()).collect(),
        skipped,
    })
}

/// The same fit on the command line.
pub fn command_line(s: &FitSetup) -> String {
    custom::fit_command_line(s.base, s.state, FIT_IOS, s.capacity_gb, &s.files)
}

/// One row of the fitted values' table.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamRow {
    pub name: &'static str,
    pub fitted: String,
    pub base: String,
    pub bounds: String,
    /// Whether the runs pin it down: "yes", "no" or "given".
    pub pinned: &'static str,
}

fn number(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// The fitted values beside the base preset's, with their bounds and whether the runs pin
/// them down.
pub fn param_rows(s: &FitSetup, report: &FitReport, drive: &CustomDrive) -> Vec<ParamRow> {
    let base = s.base.default_drive();
    let identified = report.identified.clone().unwrap_or_default();
    custom::plausible(s.base)
        .iter()
        .map(|f| ParamRow {
            name: f.param.label(),
            fitted: number(drive.value(f.param).unwrap_or(f64::NAN)),
            base: number(f.param.get(&base)),
            bounds: format!("{} to {}", number(f.lo), number(f.hi)),
            pinned: if f.param == Param::Dies && s.dies.is_some() {
                "given (capacity)"
            } else if identified.contains(&f.param) {
                "yes"
            } else {
                "no"
            },
        })
        .collect()
}

/// One row of the per-point errors.
#[derive(Clone, Debug, PartialEq)]
pub struct CellRow {
    pub label: String,
    pub measured: String,
    pub model: String,
    pub error: String,
    pub missed: bool,
}

/// A measured or model figure, as precise as its metric needs.
fn figure(metric: Metric, v: f64) -> String {
    match metric {
        Metric::Iops => format!("{v:.0}"),
        Metric::MbS => format!("{v:.1}"),
        Metric::LatencyMs => format!("{v:.4}"),
    }
}

/// Each fitted cell: what was measured, what the fitted model gives, the error.
pub fn cell_rows(report: &FitReport) -> Vec<CellRow> {
    report
        .cells
        .iter()
        .map(|c| CellRow {
            label: c.cell.label(),
            measured: figure(c.cell.metric, c.cell.value),
            model: figure(c.cell.metric, c.model),
            error: format!("{:+.1}%", c.err() * 100.0),
            missed: custom::missed(c),
        })
        .collect()
}

/// The fit in one sentence: worst and mean error, and whether it explains the data.
pub fn verdict(report: &FitReport) -> String {
    let head = format!(
        "Model result: worst error {:.1}%, mean {:.1}% over {} measured points.",
        report.max_err * 100.0,
        report.mean_err * 100.0,
        report.cells.len()
    );
    match custom::outliers_text(report) {
        None => head,
        Some(outliers) => format!(
            "{head} {outliers}: odd runs, or a mechanism of your drive the model lacks on this controller (fit again on another controller preset, or check the drive state of the runs)."
        ),
    }
}

/// Progress in words.
pub fn progress_text(p: &FitProgress) -> String {
    if p.runs == 0 {
        format!("Fitting: {} parameter points run.", p.points)
    } else {
        format!(
            "Fitting: {} parameter points run; the next point's runs: {} of {}.",
            p.points, p.runs_done, p.runs
        )
    }
}

/// A finished fit as the panel shows it.
#[derive(Clone, Debug, PartialEq)]
struct Finished {
    setup: FitSetup,
    report: FitReport,
    drive: CustomDrive,
    /// The drive before the fit, for "back".
    before: PresetRef,
}

/// What the page asks its worker to fit for `s`.
pub fn ask(s: &FitSetup) -> FitAsk {
    FitAsk {
        base: s.base.id.to_string(),
        dies: s.dies,
        cells: s.cells.clone(),
    }
}

/// The fit under way and the last one finished, as the panel's signals hold them.
#[derive(Clone, Copy)]
struct FitSignals {
    pool: Pool,
    running: RwSignal<Option<FitSetup>>,
    finished: RwSignal<Option<Finished>>,
    refusal: RwSignal<Option<String>>,
}

impl FitSignals {
    fn start(&self, asked: Result<FitSetup, String>) {
        match asked {
            Ok(s) => {
                self.refusal.set(None);
                self.finished.set(None);
                self.pool.start_fit(ask(&s));
                self.running.set(Some(s));
            }
            Err(why) => self.refusal.set(Some(why)),
        }
    }

    fn cancel(&self) {
        self.pool.cancel_fit();
        self.running.set(None);
        self.refusal
            .set(Some("Fit cancelled; the drive is unchanged.".into()));
    }

    /// Once the fit under way is done: the fitted drive becomes the lab's drive, or the reason
    /// it could not start is shown.
    fn finish_when_done(self, drive: RwSignal<DriveSetup>) {
        Effect::new(move |_| {
            self.pool.fit_revision();
            let Some(s) = self.running.get_untracked() else {
                return;
            };
            let Some(outcome) = self.pool.fit_state().and_then(|f| f.outcome) else {
                return;
            };
            self.running.set(None);
            let found = match outcome {
                Ok(found) => found,
                Err(why) => {
                    self.refusal.set(Some(format!("{why}.")));
                    return;
                }
            };
            let report = found.report(&s.cells);
            let fitted = CustomDrive::fitted(s.base, s.dies, &report);
            let before = drive.with_untracked(|d| d.preset().clone());
            drive.update(|d| d.set_preset(fitted.preset()));
            self.finished.set(Some(Finished {
                setup: s,
                report,
                drive: fitted,
                before,
            }));
        });
    }

    /// How far the fit under way has come (tracks the pool's fit).
    fn progress(&self) -> Option<FitProgress> {
        self.pool.fit_revision();
        self.running.with(Option::is_some).then(|| {
            self.pool
                .fit_state()
                .map(|f| f.progress)
                .unwrap_or_default()
        })
    }
}

/// The panel: capacity and state inputs, Fit, progress and Cancel, and the result.
#[component]
pub fn FitYourDrive() -> impl IntoView {
    let Lab {
        imported, drive, ..
    } = Lab::expect();
    let capacity = RwSignal::new(String::new());
    let state = RwSignal::new(DriveState::Fob);
    let which = RwSignal::new(0usize);
    let fit = FitSignals {
        pool: Pool::expect(),
        running: RwSignal::new(None),
        finished: RwSignal::new(None),
        refusal: RwSignal::new(None),
    };
    fit.finish_when_done(drive);
    let start = move |_| {
        let asked = imported.with(|i| {
            drive.with(|d| {
                let at = which
                    .get_untracked()
                    .min(i.as_slice().len().saturating_sub(1));
                setup(i, at, d, state.get_untracked(), &capacity.get_untracked())
            })
        });
        fit.start(asked);
    };
    let progress = move || {
        fit.progress().map(|p| {
            view! {
                <p id="fit-progress" role="status">{progress_text(&p)}</p>
                <button type="button" id="fit-cancel" on:click=move |_| fit.cancel()>"Cancel"</button>
            }
        })
    };
    let has_imports = move || imported.with(|i| !i.as_slice().is_empty());
    view! {
        <Show when=has_imports>
            <div class="fit" id="fit-drive">
                <h3>"Fit the model to your drive"</h3>
                <GuideLink page=GuidePage::FitYourDrive />
                <p class="hint">
                    "The lab searches the die count, read and program times, controller time per command, host stack and link efficiency of a drive on this controller that best explain one drive's imported jobs (all of its files, whatever the charts show). Give the capacity if you know it: the die count then follows, and the read time is pinned."
                </p>
                <WhichDrive which=which imported=imported />
                <FitInputs capacity=capacity state=state />
                <button type="button" id="fit-start" on:click=start
                    prop:disabled=move || fit.running.with(Option::is_some)>
                    "Fit the model to your drive"
                </button>
                {progress}
                {move || fit.refusal.get().map(|why| view! { <p id="fit-note" class="notes" role="alert">{why}</p> })}
                {move || fit.finished.get().map(|f| view! { <FitResult finished=f drive=drive /> })}
            </div>
        </Show>
    }
}

/// Which imported drive the fit explains, when there are several.
#[component]
fn WhichDrive(which: RwSignal<usize>, imported: RwSignal<Imports>) -> impl IntoView {
    let names =
        move || imported.with(|i| i.as_slice().iter().map(YourDrive::name).collect::<Vec<_>>());
    let several = move || imported.with(|i| i.as_slice().len() > 1);
    view! {
        <Show when=several>
            <div class="control">
                <label for="fit-which">"Fit this drive"</label>
                <select id="fit-which" on:change=move |ev| {
                    if let Ok(d) = event_target_value(&ev).parse() { which.set(d) }
                }>
                    {move || names().into_iter().enumerate().map(|(d, name)| view! {
                        <option value=d.to_string() selected=move || which.get() == d>
                            {format!("drive {} ({name})", d + 1)}
                        </option>
                    }).collect_view()}
                </select>
            </div>
        </Show>
    }
}

/// What the reader tells the fit: the capacity, if known, and the drive's state in the runs.
#[component]
fn FitInputs(capacity: RwSignal<String>, state: RwSignal<DriveState>) -> impl IntoView {
    view! {
        <div class="control">
            <label for="fit-capacity">"Your drive's capacity in GB (optional)"</label>
            <input id="fit-capacity" type="text" inputmode="decimal" size="8"
                prop:value=move || capacity.get()
                on:input=move |ev| capacity.set(event_target_value(&ev)) />
        </div>
        <div class="control">
            <label for="fit-state">"The drive during your fio runs"</label>
            <select id="fit-state" on:change=move |ev| {
                if let Ok(s) = event_target_value(&ev).parse() { state.set(s) }
            }>
                {DriveState::ALL.map(|s| view! {
                    <option value=s.id() selected=move || state.get() == s>{s.label()}</option>
                })}
            </select>
        </div>
    }
}

/// The finished fit: its verdict, the values, the per-point errors, the command line, back.
#[component]
fn FitResult(finished: Finished, drive: RwSignal<DriveSetup>) -> impl IntoView {
    let Finished {
        setup,
        report,
        drive: fitted,
        before,
    } = finished;
    let params = param_rows(&setup, &report, &fitted)
        .into_iter()
        .map(|r| {
            view! {
                <tr><th scope="row">{r.name}</th><td>{r.fitted}</td><td>{r.base}</td><td>{r.bounds}</td><td>{r.pinned}</td></tr>
            }
        })
        .collect_view();
    let cells = cell_rows(&report)
        .into_iter()
        .map(|r| {
            let class = if r.missed { "missed" } else { "" };
            view! {
                <tr class=class><th scope="row">{r.label}</th><td>{r.measured}</td><td>{r.model}</td><td>{r.error}</td></tr>
            }
        })
        .collect_view();
    let skipped =
        (!setup.skipped.is_empty()).then(|| format!("Left out: {}.", setup.skipped.join("; ")));
    let base_name = setup.base.name.clone();
    view! {
        <div id="fit-result" role="region" aria-label="Fit result">
            <p id="fit-verdict">{verdict(&report)}</p>
            <p>
                {format!("The lab's drive is now your drive (fitted on the {base_name}), drive={fitted}. ")}
                <button type="button" id="fit-back" class="small"
                    on:click=move |_| drive.update(|d| d.set_preset(before.clone()))>
                    {format!("Back to the {}", before.name)}
                </button>
            </p>
            <table id="fit-params">
                <caption>"Fitted values (model parameters; “pinned” means 5% off costs the fit a point of error)"</caption>
                <thead><tr><th scope="col">"value"</th><th scope="col">"fitted"</th><th scope="col">{base_name}</th><th scope="col">"searched"</th><th scope="col">"pinned by your runs"</th></tr></thead>
                <tbody>{params}</tbody>
            </table>
            <table id="fit-cells">
                <caption>"Your measured points (fio) against the fitted model"</caption>
                <thead><tr><th scope="col">"point"</th><th scope="col">"measured"</th><th scope="col">"model"</th><th scope="col">"error"</th></tr></thead>
                <tbody>{cells}</tbody>
            </table>
            {skipped.map(|s| view! { <p class="hint">{s}</p> })}
            <p class="hint">"The same fit on the command line: "<code>{command_line(&setup)}</code></p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fio::FioPoint;
    use crate::model::config::Rw;
    use crate::model::presets;
    use crate::ui::pure::state::{FioFile, LabState};

    fn job(rw: Option<Rw>, iodepth: u32) -> FioPoint {
        FioPoint {
            job: format!("qd{iodepth}"),
            rw,
            bs_bytes: Some(4096),
            iodepth,
            line: 1,
            processes: 1,
            rate_iops: None,
            depth_reckoned: false,
            read_percent: 100.0,
            iops: 10_000.0 * f64::from(iodepth),
            bw_mb_s: 41.0 * f64::from(iodepth),
            lat_mean_us: 100.0,
            lat_p99_us: None,
            lat_total_mean_us: None,
        }
    }

    fn lab(points: Vec<FioPoint>) -> LabState {
        let mut s = LabState::default();
        s.drive.set_preset(presets::find("e12").unwrap());
        s.imported
            .add(vec![FioFile::new(
                "mine.json".into(),
                "JSON".into(),
                points,
            )
            .unwrap()])
            .unwrap();
        s
    }

    #[test]
    fn a_fit_takes_every_imported_job_and_the_capacity_fixes_the_die_count() {
        let s = lab(vec![job(Some(Rw::RandRead), 1), job(None, 4)]);
        let f = setup(&s.imported, 0, &s.drive, DriveState::Fob, " 960 ").unwrap();
        assert_eq!(
            f.cells.len(),
            2,
            "a throughput and a latency cell of the one usable job"
        );
        assert_eq!(f.dies, Some(32), "960 GB of the E12's 256 Gbit dies");
        assert_eq!(f.skipped.len(), 1);
        assert!(f.skipped[0].contains("qd4 (mine.json)"), "{:?}", f.skipped);
        assert_eq!(
            command_line(&f),
            "lab fit --preset e12 --state fob --ios 4000 --capacity-gb 960 --fio mine.json"
        );
    }

    #[test]
    fn a_fit_that_cannot_start_says_why() {
        let s = lab(vec![job(None, 1)]);
        let e = setup(&s.imported, 0, &s.drive, DriveState::Fob, "").unwrap_err();
        assert!(
            e.starts_with("The fit cannot start: no fio job can be fitted ("),
            "{e}"
        );
        let s = lab(vec![job(Some(Rw::RandRead), 1)]);
        let e = setup(&s.imported, 0, &s.drive, DriveState::Fob, "lots").unwrap_err();
        assert_eq!(e, "The capacity 'lots' is not a number of GB.");
        let e = setup(&s.imported, 0, &s.drive, DriveState::Fob, "-5").unwrap_err();
        assert!(e.contains("capacity"), "{e}");
    }

    #[test]
    fn a_fit_on_a_custom_drive_starts_from_its_base_preset() {
        let mut s = lab(vec![job(Some(Rw::RandRead), 1)]);
        s.drive
            .set_preset(custom_presets::lookup("e12_d24_r52500").unwrap());
        let f = setup(&s.imported, 0, &s.drive, DriveState::Fob, "").unwrap();
        assert_eq!(f.base.id, "e12");
    }

    #[test]
    fn the_verdict_names_the_points_the_model_misses() {
        let s = lab(vec![job(Some(Rw::RandRead), 1)]);
        let f = setup(&s.imported, 0, &s.drive, DriveState::Fob, "").unwrap();
        let report = FitReport {
            params: crate::model::fit::ParamValues(vec![(Param::Dies, 8.0)]),
            cells: f
                .cells
                .iter()
                .zip([1.05, 1.4])
                .map(|(&cell, k)| crate::model::fit::CellFit {
                    cell,
                    model: cell.value * k,
                })
                .collect(),
            max_err: 0.4,
            mean_err: 0.225,
            robust_err: 0.225,
            loo: None,
            identified: Some(vec![Param::Dies]),
            evaluations: 10,
        };
        let v = verdict(&report);
        assert!(
            v.starts_with("Model result: worst error 40.0%, mean 22.5% over 2"),
            "{v}"
        );
        assert!(
            v.contains(
                "1 of 2 points within 15%; the fit lets go of randread 4 KiB QD1 ms (+40.0%)"
            ),
            "{v}"
        );
        let rows = cell_rows(&report);
        assert_eq!((rows[0].missed, rows[1].missed), (false, true));
        assert_eq!(rows[1].error, "+40.0%");
        let drive = CustomDrive::fitted(f.base, None, &report);
        let params = param_rows(&f, &report, &drive);
        assert_eq!(params[0].fitted, "8");
        assert_eq!(params[0].pinned, "yes");
        assert_eq!(
            params[1].pinned, "no",
            "not fitted in this report, but not given either"
        );
    }
}
