//! `lab quiz` and `lab tour`: the tours' questions in the terminal, and a tour file checked.
//!
//! Both read tours with the page's own reader (`parallelism_lab::ui::pure`, the page's layer
//! that needs no browser): a tour file `lab tour check` accepts is one the page opens, with the
//! same errors by line; a question's step is the same link's state, run by the same key the
//! page's workers run, so `-c` prints the answers the page reveals. The quiz's drawn drive
//! comes from `--seed` alone (OSTEP's `ssd.py` habit: a class given one seed gets one drive),
//! and every run is the model's, which is seeded too: the same arguments print the same quiz.

use std::fmt::Write as _;
use std::path::Path;

use parallelism_lab::ui::pure::compute;
use parallelism_lab::ui::pure::predict::{depths_of, letter, Verdict};
use parallelism_lab::ui::pure::state::{LabState, LoadKind};
use parallelism_lab::ui::pure::tour_file::{self, Form, Question, TourFile, MAX_FILE_BYTES};
use parallelism_lab::ui::pure::tours::built_in;
use parallelism_lab::ui::pure::url_state;
use parallelism_lab::ui::pure::words::point_words;
use parallelism_model::rng::Rng;
use parallelism_model::text::grouped;
use parallelism_model::{presets, Bottleneck, RunResult, Simulation};
use parallelism_work::key::{Fidelity, RunKey};

use crate::cli::{QuizArgs, TourCommand};
use crate::{read_text, Fail};

/// Queue depths the drawn drive's questions may ask at: deep enough that the depth may not be
/// the limit, shallow enough that it may.
const DRAWN_DEPTHS: [u32; 6] = [4, 8, 16, 32, 64, 128];
/// The drawn drive's IOPS question offers the model's figure and these multiples of it.
const IOPS_DECOYS: [f64; 3] = [0.25, 0.5, 2.0];
/// The limits the drawn drive's question offers, as the readout names them (the power budget
/// only when it is the answer: the drawn drive runs uncapped).
const LIMITS: [Bottleneck; 5] = [
    Bottleneck::QueueDepth,
    Bottleneck::Dies,
    Bottleneck::Channels,
    Bottleneck::Controller,
    Bottleneck::HostLink,
];

/// One question of the quiz: where it comes from, the lab's state it is asked at (a link's
/// query), the step's text if a tour's, and the question.
struct Asked {
    from: String,
    query: String,
    text: Option<String>,
    question: Question,
}

/// `lab tour check FILE` and `lab tour list`.
pub fn tour(command: &TourCommand) -> Result<String, Fail> {
    match command {
        TourCommand::Check { file } => {
            let tour = read_tour_file(file)?;
            let questions = tour.steps.iter().filter(|s| s.question.is_some()).count();
            Ok(format!(
                "{}: the tour '{}' ({}), {} steps, {} questions: the page opens it\n",
                file.display(),
                tour.id,
                tour.title,
                tour.steps.len(),
                questions
            ))
        }
        TourCommand::List => {
            let mut out = String::new();
            for t in built_in() {
                let questions = t.steps.iter().filter(|s| s.question.is_some()).count();
                let _ = writeln!(
                    out,
                    "{:<18} {:>2} steps {:>2} questions  {}",
                    t.id,
                    t.steps.len(),
                    questions,
                    t.title
                );
            }
            Ok(out)
        }
    }
}

/// A tour file read as the page reads a reader's own (a built-in tour's id refused).
fn read_tour_file(file: &Path) -> Result<TourFile, Fail> {
    let text = read_text(file, MAX_FILE_BYTES)?;
    let taken: Vec<&str> = built_in().iter().map(|t| t.id.as_str()).collect();
    tour_file::parse_beside(&text, &taken)
        .map_err(|e| Fail::at(file.display(), Fail::Refused(e.to_string())))
}

/// `lab quiz`.
pub fn quiz(a: &QuizArgs) -> Result<String, Fail> {
    let asked = match &a.tour {
        Some(name) => {
            let tour = match built_in().iter().find(|t| &t.id == name) {
                Some(t) => t.clone(),
                None => read_tour_file(Path::new(name))?,
            };
            let asked = tour_questions(&tour);
            if asked.is_empty() {
                return Err(Fail::at(
                    format!("--tour {name}"),
                    Fail::Refused(format!("the tour asks no questions; {}", with_questions())),
                ));
            }
            asked
        }
        None => {
            let mut asked: Vec<Asked> = built_in().iter().flat_map(tour_questions).collect();
            asked.extend(drawn_drive(a.seed)?);
            asked
        }
    };
    let mut out = format!(
        "{} questions; predict each, then run `lab quiz` again with -c for the model's answers.\n",
        asked.len()
    );
    for (n, q) in asked.iter().enumerate() {
        out.push('\n');
        write_question(&mut out, n + 1, q, a.compute)?;
    }
    Ok(out)
}

/// "tours with questions: a, b", for a refusal.
fn with_questions() -> String {
    let ids: Vec<&str> = built_in()
        .iter()
        .filter(|t| t.steps.iter().any(|s| s.question.is_some()))
        .map(|t| t.id.as_str())
        .collect();
    format!("built-in tours with questions: {}", ids.join(", "))
}

/// The questions of `tour`'s steps, in order.
fn tour_questions(tour: &TourFile) -> Vec<Asked> {
    let n = tour.steps.len();
    tour.steps
        .iter()
        .enumerate()
        .filter_map(|(i, step)| {
            Some(Asked {
                from: format!("{} (step {} of {n})", tour.title, i + 1),
                query: step.state.clone(),
                text: Some(step.text.clone()),
                question: step.question.clone()?,
            })
        })
        .collect()
}

/// Writes question `n`: its setup, its text, what it asks; with `answers`, the model's answer
/// as the page reveals it, the explanation and the model's figures.
fn write_question(out: &mut String, n: usize, q: &Asked, answers: bool) -> Result<(), Fail> {
    let state = state_of(&q.query)?;
    let _ = writeln!(out, "Q{n}. {}", q.from);
    let _ = writeln!(out, "    Setup: {}", point_words(&state));
    let _ = writeln!(out, "    In the lab: ?{}", q.query);
    if let Some(text) = &q.text {
        let _ = writeln!(out, "    {text}");
    }
    let _ = writeln!(out, "    {}", q.question.ask);
    let depths = depths_of(
        &q.question,
        compute::deepest_iodepth(state.workload.iodepth()),
    );
    match q.question.form {
        Form::Choice { ref options, .. } => {
            for (i, option) in options.iter().enumerate() {
                let _ = writeln!(out, "      {}. {option}", letter(i));
            }
        }
        Form::Draw { up_to, .. } => {
            let depths: Vec<String> = depths.iter().map(u32::to_string).collect();
            let _ = writeln!(
                out,
                "      Draw it at queue depths {} (from 0 to {}).",
                depths.join(", "),
                grouped(up_to as f64)
            );
        }
    }
    if answers {
        let answer = match q.question.form {
            Form::Choice { .. } => Verdict::of(&q.question, None).to_string(),
            Form::Draw { .. } => format!("The model's curve: {}.", curve_words(&state, &depths)?),
        };
        let _ = writeln!(out, "    Answer: {answer}");
        let _ = writeln!(out, "    Why: {}", q.question.explanation);
        let _ = writeln!(
            out,
            "    Model: {}",
            result_words(&state, &run(&compute::current_key(&state))?)
        );
    }
    Ok(())
}

/// The lab's state a query sets; a query the lab would correct is refused (a tour file's are
/// checked so already).
fn state_of(query: &str) -> Result<LabState, Fail> {
    let read = url_state::parse_query(query, LabState::default());
    match read.notes.first() {
        Some(note) => Err(Fail::at(
            format!("?{query}"),
            Fail::Refused(format!("{}: {}", note.param, note.message)),
        )),
        None => Ok(read.state),
    }
}

/// The run the page's workers make of `key`, in full.
fn run(key: &RunKey) -> Result<RunResult, Fail> {
    let checked = key.checked(Fidelity::Full.measured_ios())?;
    Ok(Simulation::run(&checked)?)
}

/// The model's figures for a point, as the readout gives them.
fn result_words(state: &LabState, r: &RunResult) -> String {
    let limit = if state.workload.load() == LoadKind::Rate {
        r.bottleneck.open_loop_label()
    } else {
        r.bottleneck.label()
    };
    format!(
        "{} IOPS, {} MB/s, mean {} µs, p99 {} µs, {:.1} in the drive on average, limited by {limit}",
        grouped(r.iops.round()),
        grouped(r.bw_mb_s.round()),
        grouped(r.latency.mean_us.round()),
        grouped(r.latency.p99_us.round()),
        r.mean_in_system
    )
}

/// The model's curve against queue depth at `depths`, for the state's drive.
fn curve_words(state: &LabState, depths: &[u32]) -> Result<String, Fail> {
    let mb = state.workload.throughput_in_mb();
    let keys = compute::iodepth_sweep(state, state.drive.choice());
    let swept = compute::sweep_iodepths(state.workload.iodepth());
    let mut parts = Vec::new();
    for (depth, key) in swept.iter().zip(&keys) {
        if depths.contains(depth) {
            let r = run(key)?;
            let v = if mb { r.bw_mb_s } else { r.iops };
            parts.push(format!("QD {depth} {}", grouped(v.round())));
        }
    }
    Ok(format!(
        "{} {}",
        parts.join(", "),
        if mb { "MB/s" } else { "IOPS" }
    ))
}

/// Three questions on a drive drawn from `seed`: its IOPS at QD1, its IOPS at a deeper queue,
/// and what limits it there; each answer is the model's.
fn drawn_drive(seed: u64) -> Result<Vec<Asked>, Fail> {
    let mut rng = Rng::new(seed);
    let all = presets::all();
    let preset = &all[below(&mut rng, all.len())];
    let cap = preset.capacities_gb[below(&mut rng, preset.capacities_gb.len())];
    let depth = DRAWN_DEPTHS[below(&mut rng, DRAWN_DEPTHS.len())];
    let rw = ["randread", "randwrite"][below(&mut rng, 2)];
    let query = |qd: u32| {
        format!(
            "preset={}&cap={cap}&qd={qd}&rw={rw}&bs=4k&state=steady",
            preset.id
        )
    };
    let from = format!("A drive drawn from seed {seed}");
    let shallow = run(&compute::current_key(&state_of(&query(1))?))?;
    let deep = run(&compute::current_key(&state_of(&query(depth))?))?;
    let asked = |qd: u32, question: Question| Asked {
        from: from.clone(),
        query: query(qd),
        text: None,
        question,
    };
    Ok(vec![
        asked(1, iops_question(&shallow, 1, &shuffled(&mut rng))),
        asked(depth, iops_question(&deep, depth, &shuffled(&mut rng))),
        asked(depth, limit_question(&deep, depth)),
    ])
}

/// A number below `n` (0 for an empty choice), drawn from `rng`.
fn below(rng: &mut Rng, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

/// The four options' places, shuffled (Fisher-Yates) by `rng`.
fn shuffled(rng: &mut Rng) -> [usize; 4] {
    let mut order = [0, 1, 2, 3];
    for i in (1..order.len()).rev() {
        order.swap(i, below(rng, i + 1));
    }
    order
}

/// "About how many IOPS at QD `qd`?": the model's figure among its decoys, in `order`.
fn iops_question(r: &RunResult, qd: u32, order: &[usize; 4]) -> Question {
    let mut values = vec![r.iops];
    values.extend(IOPS_DECOYS.iter().map(|m| r.iops * m));
    let options = order
        .iter()
        .map(|&i| format!("about {} IOPS", grouped(three_figures(values[i]))))
        .collect();
    let answer = 1 + order.iter().position(|&i| i == 0).unwrap_or(0);
    Question {
        ask: format!(
            "With {qd} in flight, about how many 4 KiB requests a second does it complete?"
        ),
        form: Form::Choice { options, answer },
        explanation: format!(
            "Little's law: {qd} in flight, each {} µs on average, is {qd} / {} µs = {} a second.",
            grouped(r.latency.mean_us.round()),
            grouped(r.latency.mean_us.round()),
            grouped(three_figures(r.iops))
        ),
    }
}

/// "What limits it at QD `qd`?": the readout's limits, the model's among them.
fn limit_question(r: &RunResult, qd: u32) -> Question {
    let mut limits = LIMITS.to_vec();
    if !limits.contains(&r.bottleneck) {
        limits.push(r.bottleneck);
    }
    let answer = 1 + limits.iter().position(|b| *b == r.bottleneck).unwrap_or(0);
    Question {
        ask: format!("With {qd} in flight, what limits it?"),
        form: Form::Choice {
            options: limits.iter().map(|b| b.label().to_string()).collect(),
            answer,
        },
        explanation: if r.bottleneck == Bottleneck::QueueDepth {
            "Every part of the drive has room at this depth: more requests in flight would \
             raise the throughput."
                .to_string()
        } else {
            format!(
                "The model finds the {} the busiest part at this depth: more requests in \
                 flight would wait for it rather than raise the throughput.",
                r.bottleneck.label()
            )
        },
    }
}

/// `v` rounded to three significant figures, as an option is read aloud.
fn three_figures(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return 0.0;
    }
    let scale = 10f64.powi(v.log10().floor() as i32 - 2);
    (v / scale).round() * scale
}
