//! `--anatomy`: where each point's (job's, replay's) requests spent their time, part by part
//! ([`parallelism_model::anatomy`]), for the mean request and the tails at or above p50, p99
//! and p99.9, reads and writes apart.
//!
//! The table shows the parts that took any time; CSV has a row per point, direction and
//! statistic with every part's column; JSON gives each point's fields and its anatomy whole.

use std::fmt::Write as _;

use parallelism_model::anatomy::{Anatomy, Breakdown, DirectionAnatomy, Part};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::cli::Format;
use crate::{json, Fail};

/// One point (or job, or replay) and what its requests were made of.
pub struct Item<'a> {
    /// What the point is, as its fields: `iodepth`, `read_percent`, a job's name...
    pub fields: Vec<(&'static str, Value)>,
    pub anatomy: &'a Anatomy,
}

impl Item<'_> {
    fn label(&self) -> String {
        self.fields
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{k} {s}"),
                other => format!("{k} {other}"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

pub fn render(items: &[Item], format: Format) -> Result<String, Fail> {
    Ok(match format {
        Format::Json => as_json(items)?,
        Format::Csv => as_csv(items),
        Format::Table => as_table(items),
    })
}

/// The statistics reported, with their names as the table and CSV print them.
fn statistics(d: &DirectionAnatomy) -> [(&'static str, &Breakdown); 4] {
    [
        ("mean", &d.mean),
        ("p50+", &d.p50),
        ("p99+", &d.p99),
        ("p99.9+", &d.p999),
    ]
}

fn directions(a: &Anatomy) -> impl Iterator<Item = (&'static str, &DirectionAnatomy)> {
    [("reads", a.reads.as_ref()), ("writes", a.writes.as_ref())]
        .into_iter()
        .filter_map(|(name, d)| d.map(|d| (name, d)))
}

/// A point in JSON: its fields, then its anatomy.
#[derive(Serialize)]
struct JsonRow<'a> {
    #[serde(flatten)]
    fields: Map<String, Value>,
    anatomy: &'a Anatomy,
}

fn as_json(items: &[Item]) -> Result<String, Fail> {
    let rows: Vec<JsonRow> = items
        .iter()
        .map(|item| JsonRow {
            fields: item
                .fields
                .iter()
                .map(|(k, v)| ((*k).to_string(), v.clone()))
                .collect(),
            anatomy: item.anatomy,
        })
        .collect();
    json(&rows)
}

fn as_csv(items: &[Item]) -> String {
    let Some(first) = items.first() else {
        return String::new();
    };
    let mut s = String::new();
    for (k, _) in &first.fields {
        let _ = write!(s, "{k},");
    }
    s.push_str("direction,statistic,requests,latency_us");
    for part in Part::ALL {
        let _ = write!(s, ",{}_us", part.key().replace('-', "_"));
    }
    s.push('\n');
    for item in items {
        let fields: String = item
            .fields
            .iter()
            .map(|(_, v)| match v {
                Value::String(text) => format!("{},", text.replace(',', ";")),
                other => format!("{other},"),
            })
            .collect();
        for (direction, d) in directions(item.anatomy) {
            for (stat, b) in statistics(d) {
                let _ = write!(
                    s,
                    "{fields}{direction},{stat},{},{:.3}",
                    b.requests, b.latency_us
                );
                for part in Part::ALL {
                    let _ = write!(s, ",{:.3}", b.part_us(part));
                }
                s.push('\n');
            }
        }
    }
    s
}

fn as_table(items: &[Item]) -> String {
    let mut s = String::new();
    for item in items {
        let _ = writeln!(s, "{}", item.label());
        let mut any = false;
        for (direction, d) in directions(item.anatomy) {
            any = true;
            direction_table(&mut s, direction, d);
        }
        if !any {
            s.push_str("  no request measured\n");
        }
        s.push('\n');
    }
    s.push_str(
        "µs per request, part by part; p99+ is the requests at or above the p99 (the model's \
         results).\n",
    );
    s
}

fn direction_table(s: &mut String, direction: &str, d: &DirectionAnatomy) {
    let stats = statistics(d);
    let _ = write!(s, "  {direction:<48}");
    for (name, _) in &stats {
        let _ = write!(s, " {name:>10}");
    }
    s.push('\n');
    let used = Part::ALL
        .into_iter()
        .filter(|&p| stats.iter().any(|(_, b)| b.part_us(p) > 0.0));
    for part in used {
        let _ = write!(s, "    {:<46}", part.what());
        for (_, b) in &stats {
            let _ = write!(s, " {:>10.1}", b.part_us(part));
        }
        s.push('\n');
    }
    let _ = write!(s, "    {:<46}", "latency");
    for (_, b) in &stats {
        let _ = write!(s, " {:>10.1}", b.latency_us);
    }
    s.push('\n');
    let (part, share) = d.p99.largest();
    let _ = writeln!(
        s,
        "    at p99, {:.0}% of the time is {}",
        share * 100.0,
        part.what()
    );
}
