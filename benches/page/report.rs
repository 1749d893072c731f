//! Printing: a [`Section`] is a titled table with one row per figure and one column per build
//! (one column without `PAGE_BENCH_BEFORE`; "before" and "after" side by side with it), plus
//! notes; and the few statistics the figures use.

use crate::Build;

/// One table of figures.
pub struct Section {
    title: String,
    rows: Vec<(String, Vec<String>)>,
    notes: Vec<String>,
}

impl Section {
    pub fn new(title: impl Into<String>) -> Section {
        Section {
            title: title.into(),
            rows: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// A figure: its label and one value per build, in the order of the builds.
    pub fn row(&mut self, label: impl Into<String>, values: Vec<String>) {
        self.rows.push((label.into(), values));
    }

    /// A line printed under the table.
    pub fn note(&mut self, note: impl Into<String>) {
        self.notes.push(note.into());
    }

    pub fn print(&self, builds: &[Build]) {
        println!("\n{}", self.title);
        let label_width = self.rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
        let columns = builds.len();
        let width = |i: usize| {
            let values = self.rows.iter().filter_map(|r| r.1.get(i)).map(String::len);
            values.chain([builds[i].name.len()]).max().unwrap_or(0)
        };
        let widths: Vec<usize> = (0..columns).map(width).collect();
        if columns > 1 {
            let head: Vec<String> = builds
                .iter()
                .zip(&widths)
                .map(|(b, w)| format!("{:<w$}", b.name))
                .collect();
            println!("  {:<label_width$}  {}", "", head.join("  ").trim_end());
        }
        for (label, values) in &self.rows {
            let cells: Vec<String> = values
                .iter()
                .zip(&widths)
                .map(|(v, w)| format!("{v:<w$}"))
                .collect();
            println!("  {label:<label_width$}  {}", cells.join("  ").trim_end());
        }
        for note in &self.notes {
            println!("  note: {note}");
        }
    }
}

/// How a figure's numbers are written.
#[derive(Clone, Copy, Debug)]
pub enum Unit {
    /// Milliseconds: to a tenth below 100 ms, whole above.
    Ms,
    /// A whole number.
    Count,
    /// A ratio of two figures, to two decimals.
    Ratio,
}

impl Unit {
    fn number(self, v: f64) -> String {
        match self {
            _ if !v.is_finite() => "n/a".into(),
            Unit::Ms if v.abs() < 100.0 => format!("{v:.1}"),
            Unit::Ms | Unit::Count => format!("{v:.0}"),
            Unit::Ratio => format!("{v:.2}"),
        }
    }

    fn suffix(self) -> &'static str {
        match self {
            Unit::Ms => " ms",
            Unit::Count => "",
            Unit::Ratio => "x",
        }
    }

    /// One value with its unit.
    pub fn of(self, v: f64) -> String {
        format!("{}{}", self.number(v), self.suffix())
    }
}

/// The value at quantile `q` (0..=1) of `v` (nearest rank on the sorted values).
pub fn quantile(v: &[f64], q: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut sorted = v.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// "median (min-max) unit" of several runs; the value alone for one run.
pub fn median_range(v: &[f64], unit: Unit) -> String {
    let n = |q: f64| unit.number(quantile(v, q));
    if v.len() < 2 {
        return unit.of(quantile(v, 0.5));
    }
    format!("{} ({}-{}){}", n(0.5), n(0.0), n(1.0), unit.suffix())
}

/// A count of long tasks and the longest: "3 (longest 66.0 ms)", or "0".
pub fn tasks(count: usize, longest: f64) -> String {
    match count {
        0 => "0".into(),
        n => format!("{n} (longest {})", Unit::Ms.of(longest)),
    }
}

/// Kilobytes (1,000 bytes), to a tenth.
pub fn kb(bytes: u64) -> String {
    format!("{:.1} KB", bytes as f64 / 1e3)
}
