//! Teaching mode's "follow one request": the journey of the request the reader follows, as
//! its frames tell it ([`Followed`]: where it is and the parts charged so far). [`Journey`]
//! keeps the stages seen in order, each with when it began and how long it lasted; the page
//! draws them as a timeline beside the parts bar, and highlights the die and channel the
//! request waits on.
//!
//! What always holds:
//! - stages are in the order they were seen and never overlap: each ends where the next
//!   begins, and the last runs to the request's age (its latency, once done);
//! - a stage begins where the time charged to the request's parts ends (the engine charges a
//!   stage's time when the request leaves it), so a stage seen late, after an advance that
//!   jumped over several events, still begins at the right instant; stages the request passed
//!   wholly between two frames are not listed, but their time is in the parts bar;
//! - once done, the parts add up to the latency (the model's [`Followed`] holds it), and the
//!   journey no longer changes.
//!
//! Why: a request's anatomy (where the time went) is a sum; the journey shows the same sum
//! as it is made, one stage after another, so a class sees a read wait behind a program on
//! the die lit up in the picture.

use crate::model::anatomy::{Followed, Part, Whereabouts};
use crate::ui::pure::anatomy::{self, PartsUs, Segment};
use crate::ui::pure::format;

const NANOS_PER_US: f64 = 1_000.0;

/// One stage of the journey: where the request was, from when to when (ns after it arrived).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    pub at: Whereabouts,
    pub from_ns: u64,
    pub until_ns: u64,
}

impl Stage {
    /// The stage in words: `0.0–12.5 µs: waiting in the host`.
    pub fn text(&self, channel: Option<u32>) -> String {
        format!(
            "{}–{}: {}",
            format::latency_us(self.from_ns as f64 / NANOS_PER_US),
            format::latency_us(self.until_ns as f64 / NANOS_PER_US),
            place(self.at, channel)
        )
    }
}

/// What the followed request is doing at `at`, in words (`channel`: the channel of the die it
/// was last at, for the stage on the channel).
pub fn place(at: Whereabouts, channel: Option<u32>) -> String {
    match at {
        Whereabouts::Host => Part::HostQueue.what().to_string(),
        Whereabouts::Controller => "in the host's stack and at the controller".to_string(),
        Whereabouts::Buffer => Part::BufferWait.what().to_string(),
        Whereabouts::Die {
            die,
            channel,
            behind: Some(part),
        } => format!("at die {die} on channel {channel}, {}", part.what()),
        Whereabouts::Die {
            die,
            channel,
            behind: None,
        } => format!("at die {die} on channel {channel}, being sensed"),
        Whereabouts::Channel => match channel {
            Some(ch) => format!("on NAND channel {ch}: waiting for it and crossing it"),
            None => "on its NAND channel: waiting for it and crossing it".to_string(),
        },
        Whereabouts::Link => "on the host link: waiting for it and crossing it".to_string(),
        Whereabouts::Done => "done".to_string(),
    }
}

/// What the picture highlights for the followed request now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Highlight {
    pub host: bool,
    pub controller: bool,
    pub link: bool,
    pub die: Option<u32>,
    pub channel: Option<u32>,
}

/// The journey of the request followed, or the wait for one.
#[derive(Clone, Debug, PartialEq)]
pub struct Journey {
    /// A write is followed (else a read).
    pub write: bool,
    /// The stages seen, in order; empty until the next request of its direction is made.
    pub stages: Vec<Stage>,
    /// The request as its last frame told it.
    pub latest: Option<Followed>,
}

impl Journey {
    /// Waiting for the next read (or write) the host makes.
    pub fn waiting(write: bool) -> Journey {
        Journey {
            write,
            stages: Vec::new(),
            latest: None,
        }
    }

    /// Takes in what a frame says of the request followed (`None`: none made yet).
    pub fn hear(&mut self, followed: Option<Followed>) {
        let Some(f) = followed else { return };
        let fresh = self
            .latest
            .is_some_and(|last| last.write != f.write || f.age < last.age);
        if f.write != self.write || fresh {
            // Another request than the one followed so far: start its journey anew.
            *self = Journey::waiting(f.write);
        }
        if self.latest.is_some_and(|l| l.at == Whereabouts::Done) {
            return;
        }
        let age = f.age.0;
        let begun = f.parts.total().0.min(age);
        match self.stages.last_mut() {
            Some(last) if last.at == f.at => last.until_ns = age,
            _ => {
                if let Some(last) = self.stages.last_mut() {
                    last.until_ns = begun.max(last.from_ns);
                }
                let from_ns = self.stages.last().map_or(begun, |l| begun.max(l.until_ns));
                self.stages.push(Stage {
                    at: f.at,
                    from_ns,
                    until_ns: age,
                });
            }
        }
        self.latest = Some(f);
    }

    /// The channel of the die it was last at, read from its stages.
    fn channel(&self) -> Option<u32> {
        self.stages.iter().rev().find_map(|s| match s.at {
            Whereabouts::Die { channel, .. } => Some(channel),
            _ => None,
        })
    }

    /// Whether the request followed has finished.
    pub fn done(&self) -> bool {
        self.latest.is_some_and(|f| f.at == Whereabouts::Done)
    }

    /// The stages as the timeline lists them, the one it is in last. A done request's last
    /// stage ("done") is its end, not a span, so it is left out.
    pub fn timeline(&self) -> Vec<String> {
        let mut channel = None;
        self.stages
            .iter()
            .filter(|s| s.at != Whereabouts::Done)
            .map(|s| {
                if let Whereabouts::Die { channel: ch, .. } = s.at {
                    channel = Some(ch);
                }
                s.text(channel)
            })
            .collect()
    }

    /// Where it is now, in one sentence.
    pub fn now_text(&self) -> String {
        let noun = if self.write { "write" } else { "read" };
        match self.latest {
            None => format!(
                "Waiting for the host's next {noun}: press Step or Play until it makes one."
            ),
            Some(f) if f.at == Whereabouts::Done => format!(
                "The {noun} is done: {} in the model, every part of it below.",
                format::latency_us(f.age.as_us())
            ),
            Some(f) => format!(
                "The {noun} has been in the system {} and is now {}.",
                format::latency_us(f.age.as_us()),
                place(f.at, self.channel())
            ),
        }
    }

    /// The parts charged so far (the whole latency once done), as the bar draws them.
    pub fn parts(&self) -> Option<(PartsUs, Vec<Segment>)> {
        let f = self.latest?;
        let us = PartsUs::of_request(&f.parts);
        let segments = anatomy::segments(&us);
        Some((us, segments))
    }

    /// The parts bar in words, from the parts and segments [`Journey::parts`] gave (the view
    /// draws the same ones, so they are made once).
    pub fn parts_text(&self, us: &PartsUs, segments: &[Segment]) -> String {
        let so_far = if self.done() { "all" } else { "so far" };
        if segments.is_empty() {
            format!("No time charged to its parts {so_far}.")
        } else {
            format!(
                "Its parts {so_far}, {} in the model: {}",
                format::latency_us(f64::from(us.latency_us)),
                anatomy::largest_first(segments)
            )
        }
    }

    /// What the picture lights up for it now.
    pub fn highlight(&self) -> Highlight {
        let Some(f) = self.latest else {
            return Highlight::default();
        };
        match f.at {
            Whereabouts::Host => Highlight {
                host: true,
                ..Highlight::default()
            },
            Whereabouts::Controller | Whereabouts::Buffer => Highlight {
                controller: true,
                ..Highlight::default()
            },
            Whereabouts::Die { die, channel, .. } => Highlight {
                die: Some(die),
                channel: Some(channel),
                ..Highlight::default()
            },
            Whereabouts::Channel => Highlight {
                channel: self.channel(),
                ..Highlight::default()
            },
            Whereabouts::Link => Highlight {
                link: true,
                ..Highlight::default()
            },
            Whereabouts::Done => Highlight::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::anatomy::Parts;
    use crate::model::time::Nanos;

    fn followed(age_ns: u64, at: Whereabouts, parts: &[(Part, u64)]) -> Option<Followed> {
        let mut p = Parts::default();
        for &(part, ns) in parts {
            p.add(part, Nanos(ns));
        }
        Some(Followed {
            write: false,
            age: Nanos(age_ns),
            parts: p,
            at,
        })
    }

    const DIE_3: Whereabouts = Whereabouts::Die {
        die: 3,
        channel: 1,
        behind: Some(Part::BehindPrograms),
    };
    const SENSING_3: Whereabouts = Whereabouts::Die {
        die: 3,
        channel: 1,
        behind: None,
    };

    /// A read seen at each stage: the stages follow one another without a gap, each begins
    /// where the charged parts end, and the done request's parts are its latency.
    #[test]
    fn a_read_seen_at_every_stage_has_a_timeline_without_gaps() {
        let mut j = Journey::waiting(false);
        assert_eq!(j.timeline(), Vec::<String>::new());
        assert!(j.now_text().starts_with("Waiting for the host's next read"));
        j.hear(None);
        assert_eq!(j.latest, None, "no read made yet");

        j.hear(followed(1_000, Whereabouts::Controller, &[]));
        j.hear(followed(4_000, DIE_3, &[(Part::Command, 4_000)]));
        j.hear(followed(50_000, DIE_3, &[(Part::Command, 4_000)]));
        let behind = [(Part::Command, 4_000), (Part::BehindPrograms, 60_000)];
        j.hear(followed(64_000, SENSING_3, &behind));
        let sensed = [
            (Part::Command, 4_000),
            (Part::BehindPrograms, 60_000),
            (Part::Sense, 50_000),
        ];
        j.hear(followed(120_000, Whereabouts::Channel, &sensed));
        let all = [
            (Part::Command, 4_000),
            (Part::BehindPrograms, 60_000),
            (Part::Sense, 50_000),
            (Part::ChannelTransfer, 10_000),
            (Part::LinkTransfer, 2_000),
        ];
        j.hear(followed(126_000, Whereabouts::Done, &all));

        let spans: Vec<(u64, u64)> = j.stages.iter().map(|s| (s.from_ns, s.until_ns)).collect();
        assert_eq!(
            spans,
            [
                (0, 4_000),
                (4_000, 64_000),
                (64_000, 114_000),
                (114_000, 126_000),
                (126_000, 126_000)
            ]
        );
        assert_eq!(
            j.timeline(),
            [
                "0.0 µs–4.0 µs: in the host's stack and at the controller",
                "4.0 µs–64 µs: at die 3 on channel 1, waiting for its die behind host programs",
                "64 µs–114 µs: at die 3 on channel 1, being sensed",
                "114 µs–126 µs: on NAND channel 1: waiting for it and crossing it",
            ]
        );
        assert!(j.done());
        let (us, segments) = j.parts().unwrap();
        assert_eq!(us.latency_us, 126.0);
        assert_eq!(segments.len(), 5);
        assert_eq!(
            j.highlight(),
            Highlight::default(),
            "a done read lights nothing"
        );
    }

    #[test]
    fn the_die_and_channel_it_waits_on_are_lit_and_the_channel_stays_lit_on_the_bus() {
        let mut j = Journey::waiting(false);
        j.hear(followed(4_000, DIE_3, &[]));
        assert_eq!(
            j.highlight(),
            Highlight {
                die: Some(3),
                channel: Some(1),
                ..Highlight::default()
            }
        );
        assert!(j
            .now_text()
            .contains("now at die 3 on channel 1, waiting for its die behind host programs"));
        j.hear(followed(
            9_000,
            Whereabouts::Channel,
            &[(Part::BehindPrograms, 8_000)],
        ));
        assert_eq!(
            j.highlight(),
            Highlight {
                channel: Some(1),
                ..Highlight::default()
            }
        );
        j.hear(followed(
            9_500,
            Whereabouts::Link,
            &[(Part::BehindPrograms, 9_000)],
        ));
        assert!(j.highlight().link);
    }

    /// Once done, later frames (the worker keeps reporting a done request) change nothing;
    /// a younger request, or one of the other direction, starts a journey anew.
    #[test]
    fn a_done_journey_stays_and_a_new_request_starts_anew() {
        let mut j = Journey::waiting(false);
        j.hear(followed(2_000, Whereabouts::Done, &[(Part::Sense, 2_000)]));
        let done = j.clone();
        j.hear(followed(2_000, Whereabouts::Done, &[(Part::Sense, 2_000)]));
        assert_eq!(j, done);
        j.hear(followed(500, Whereabouts::Host, &[]));
        assert_eq!(j.stages.len(), 1, "a younger request is another one");
        assert_eq!(j.stages[0].at, Whereabouts::Host);
        let mut write = followed(700, Whereabouts::Buffer, &[]).unwrap();
        write.write = true;
        j.hear(Some(write));
        assert!(j.write);
        assert_eq!(j.stages.len(), 1);
        assert!(j.now_text().contains("write"));
    }

    /// An advance that jumps over the die's wait shows the sense beginning where the charged
    /// parts end, not at the frame before.
    #[test]
    fn a_stage_seen_late_begins_where_the_charged_parts_end() {
        let mut j = Journey::waiting(false);
        j.hear(followed(1_000, Whereabouts::Host, &[]));
        j.hear(followed(
            90_000,
            SENSING_3,
            &[(Part::HostQueue, 2_000), (Part::BehindGc, 40_000)],
        ));
        assert_eq!(j.stages[0].until_ns, 42_000);
        assert_eq!(j.stages[1].from_ns, 42_000);
        assert_eq!(j.stages[1].until_ns, 90_000);
        let (us, segments) = j.parts().unwrap();
        let text = j.parts_text(&us, &segments);
        assert!(
            text.starts_with("Its parts so far, 42 µs in the model: 95%"),
            "{text}"
        );
    }
}
