//! A tour as a worksheet for paper: each step's setup in words, its text, its question with
//! room for the answer and an empty chart to sketch a prediction in, and an answer key to
//! print on a page of its own at the end.
//!
//! What always holds: the worksheet has one entry per step of the tour, in order; a step with
//! a question has a sketch frame (its chart as it stands before the reveal: the page hides the
//! model's figures until then, so the frame holds only the chart's axes) and exactly one entry
//! in the key; the key names each answer by the letter the page shows and says the answers are
//! the model's results, not measurements.

use crate::ui::pure::compute::deepest_iodepth;
use crate::ui::pure::predict::{depths_of, letter};
use crate::ui::pure::state::{LabState, LoadKind, View};
use crate::ui::pure::tour_file::TourFile;
use crate::ui::pure::url_state;
use crate::ui::pure::words::point_words;

/// The worksheet of one tour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worksheet {
    pub title: String,
    pub audience: String,
    pub steps: Vec<SheetStep>,
    /// One entry per question, in the order of the steps.
    pub key: Vec<KeyEntry>,
}

/// One step on paper.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetStep {
    /// Counted from 1.
    pub number: usize,
    /// The point the step sets, in the readout's words.
    pub setup: String,
    /// The step's link query, for a teacher who opens it in the lab.
    pub link: String,
    pub text: String,
    pub question: Option<SheetQuestion>,
}

/// A question on paper: its options lettered as the page letters them (none for a guess to
/// draw), and the axes of the chart whose answer the page hides, to sketch the prediction in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetQuestion {
    pub ask: String,
    pub options: Vec<String>,
    pub sketch: Axes,
    /// A guess to draw: where it is drawn.
    pub draw: Option<SheetDraw>,
}

/// Where a guess is drawn on paper: the value axis from 0 to `up_to` (in the axis's unit), at
/// the queue depths `depths`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetDraw {
    pub up_to: u64,
    pub depths: Vec<u32>,
}

/// A chart's axes, in the chart's own words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Axes {
    pub x: &'static str,
    pub y: &'static str,
}

/// A question's answer in the key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyEntry {
    pub step: usize,
    /// The letter and the option's words: `C. The same`; for a guess to draw, where to see
    /// the model's curve ([`DRAWN_ANSWER`]).
    pub answer: String,
    pub explanation: String,
}

/// What the key says of its answers.
pub const KEY_NOTE: &str = "The answers are the results of Parallelism Lab's model of the drive, \
     not measurements; each step's link opens the point in the lab.";

/// The key's answer to a guess drawn on the chart: the model's curve, which the lab draws.
pub const DRAWN_ANSWER: &str = "The model's curve: open the step's link in the lab, draw or \
     reveal, and compare it with your sketch.";

impl Worksheet {
    /// The worksheet of `tour`.
    pub fn of(tour: &TourFile) -> Worksheet {
        let mut key = Vec::new();
        let steps = tour
            .steps
            .iter()
            .enumerate()
            .map(|(i, step)| {
                let state = url_state::parse_query(&step.state, LabState::default()).state;
                let question = step.question.as_ref().map(|q| {
                    let answer = match q.answer() {
                        Some(a) => format!(
                            "{}. {}",
                            letter(a),
                            q.options().get(a).cloned().unwrap_or_default()
                        ),
                        None => DRAWN_ANSWER.to_string(),
                    };
                    key.push(KeyEntry {
                        step: i + 1,
                        answer,
                        explanation: q.explanation.clone(),
                    });
                    SheetQuestion {
                        ask: q.ask.clone(),
                        options: q.options().to_vec(),
                        sketch: axes(&state),
                        draw: q.draws_up_to().map(|up_to| SheetDraw {
                            up_to,
                            depths: depths_of(q, deepest_iodepth(state.workload.iodepth())),
                        }),
                    }
                });
                SheetStep {
                    number: i + 1,
                    setup: point_words(&state),
                    link: format!("?{}", step.state),
                    text: step.text.clone(),
                    question,
                }
            })
            .collect();
        Worksheet {
            title: tour.title.clone(),
            audience: tour.audience.clone(),
            steps,
            key,
        }
    }
}

/// The axes of the chart that answers a step set to `state`: the drive over time, latency
/// against offered load, or throughput against queue depth.
fn axes(state: &LabState) -> Axes {
    if state.display.view == View::OverTime {
        return Axes {
            x: "data written (GB)",
            y: "write speed (MB/s)",
        };
    }
    if state.workload.load() == LoadKind::Rate {
        return Axes {
            x: "offered load (IOPS)",
            y: "latency (µs)",
        };
    }
    Axes {
        x: "queue depth",
        y: if state.workload.throughput_in_mb() {
            "MB/s"
        } else {
            "IOPS"
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::pure::tours::find;

    #[test]
    fn every_step_is_on_the_sheet_and_every_question_in_the_key_by_its_letter() {
        let (_, tour) = find("littles-law").unwrap();
        let sheet = Worksheet::of(tour);
        assert_eq!(sheet.steps.len(), 3);
        assert_eq!(sheet.key.len(), 3);
        assert_eq!(sheet.key[0].answer, "B. About 5");
        assert_eq!(sheet.key[1].answer, "C. About 16: more than three times");
        assert_eq!(sheet.key[2].step, 3);
        let first = &sheet.steps[0];
        assert_eq!(
            first.link,
            "?preset=e18dc&cap=480&workload=rate&rate=50000&qd=64&rw=randread&bs=4k&state=steady"
        );
        assert_eq!(
            first.setup,
            "Phison E18DC 480 GB, 8 dies · 4 KiB random reads · 50,000 IOPS offered, Poisson \
             (random) arrivals, at most 64 at the drive · random-write steady state"
        );
        let q = first.question.as_ref().unwrap();
        assert_eq!(q.options.len(), 4);
        assert_eq!(q.sketch.x, "offered load (IOPS)");
    }

    /// A guess to draw goes on paper with its axis's reach and the chart's deepest depth, and
    /// the key sends the teacher to the lab for the model's curve.
    #[test]
    fn a_guess_to_draw_has_its_axis_on_the_sheet_and_the_lab_in_the_key() {
        let (_, tour) = find("predict-capacity").unwrap();
        let sheet = Worksheet::of(tour);
        let q = sheet.steps[2].question.as_ref().unwrap();
        assert!(q.options.is_empty());
        assert_eq!(
            q.draw,
            Some(SheetDraw {
                up_to: 400_000,
                depths: vec![1, 2, 4, 8, 16, 32, 64, 128, 256]
            })
        );
        assert_eq!(sheet.key[2].answer, DRAWN_ANSWER);
        assert_eq!(
            sheet.key[1].answer,
            "B. More than twice as many, not quite four times"
        );
    }

    #[test]
    fn a_step_without_a_question_has_no_sketch_and_no_key_entry() {
        let (_, tour) = find("qd1-reads").unwrap();
        let sheet = Worksheet::of(tour);
        assert_eq!(sheet.steps.len(), 2);
        assert!(sheet.steps.iter().all(|s| s.question.is_none()));
        assert!(sheet.key.is_empty());
    }

    #[test]
    fn the_sketch_has_the_axes_of_the_chart_that_answers() {
        let (_, tour) = find("predict-capacity").unwrap();
        let sheet = Worksheet::of(tour);
        let sketch = sheet.steps[0].question.as_ref().unwrap().sketch;
        assert_eq!((sketch.x, sketch.y), ("queue depth", "IOPS"));
        let over_time = url_state::parse_query("view=time", LabState::default()).state;
        assert_eq!(axes(&over_time).x, "data written (GB)");
    }
}
