//! What the finished parts of a size prove ([`Proof`]), in the words `rjm exact`, `run`
//! and `merge` print: the longest shortest path and how many mazes reach it when every
//! part is searched, else the interval proved so far. An unfinished part is bounded by its
//! a-priori bound, a finished one by its longest path (or, when none reaches the
//! threshold, by the threshold less one), so the upper bound falls as parts finish.
//! While `rjm exact` runs, a board ([`super::board`]) says after each part how many
//! remain and the interval now.

use super::count::Big;
use super::run::{ExactMetrics, parse_histogram, sized};
use crate::pipeline::params::Value;
use crate::util::memo::Memo;
use std::collections::BTreeMap;

/// One finished part, as a run recorded it.
#[derive(Debug, Clone)]
pub struct Finished {
    pub part: usize,
    pub histogram: BTreeMap<u32, Big>,
    pub nodes: u64,
    pub seconds: f64,
    pub example: Option<String>,
}

impl Finished {
    /// A part from its run's metrics.
    pub fn of(part: usize, m: &ExactMetrics) -> anyhow::Result<Finished> {
        Ok(Finished {
            part,
            histogram: parse_histogram(&m.histogram)
                .ok_or_else(|| anyhow::anyhow!("part {part}: a histogram that does not parse"))?,
            nodes: m.nodes,
            seconds: m.time_seconds,
            example: m.example.clone(),
        })
    }

    fn longest(&self) -> u32 {
        self.histogram.keys().next_back().copied().unwrap_or(0)
    }
}

/// What the finished parts of a size prove.
#[derive(Debug, Clone)]
pub struct Proof {
    pub size: usize,
    pub at_least: u32,
    pub parts: usize,
    pub done: usize,
    /// Mazes by length from the threshold up, over the finished parts.
    pub histogram: BTreeMap<u32, Big>,
    pub nodes: u64,
    /// The finished parts' search time.
    pub seconds: f64,
    /// The longest path some maze is known to have: found, or the stored best maze's.
    pub lower: u32,
    /// No maze is longer.
    pub upper: u32,
    /// A maze of length `lower` (maze code).
    pub example: Option<String>,
}

impl Proof {
    /// The proof of `finished` (each part once) for `size` with threshold `at_least`.
    pub fn of(size: usize, at_least: u32, finished: &[Finished]) -> anyhow::Result<Proof> {
        let s = sized(&Memo::default(), size)?;
        let by_part: BTreeMap<usize, &Finished> = finished.iter().map(|f| (f.part, f)).collect();
        let mut upper = 0;
        for (i, p) in s.parts.iter().enumerate() {
            upper = upper.max(match by_part.get(&i) {
                Some(f) if f.longest() > 0 => f.longest(),
                Some(_) => p.bound.min(at_least.saturating_sub(1)),
                None => p.bound,
            });
        }
        let mut histogram: BTreeMap<u32, Big> = BTreeMap::new();
        for f in by_part.values() {
            for (&l, n) in &f.histogram {
                let e = histogram.entry(l).or_insert(Big::ZERO);
                *e = *e + *n;
            }
        }
        let found = histogram.keys().next_back().copied().unwrap_or(0);
        // The first part (in the parts' order) with a maze of the longest length.
        let mut example = by_part
            .values()
            .find(|f| found > 0 && f.longest() == found)
            .and_then(|f| f.example.clone());
        let mut lower = found;
        if let Some(known) = crate::rjm::best::built_in()?
            .into_iter()
            .find(|r| r.size == size && r.length as u32 > found)
        {
            lower = known.length as u32;
            example = Some(known.maze);
        }
        Ok(Proof {
            size,
            at_least,
            parts: s.parts.len(),
            done: by_part.len(),
            histogram,
            nodes: by_part.values().map(|f| f.nodes).sum(),
            seconds: by_part.values().fold(0.0, |s, f| s + f.seconds),
            lower,
            upper: upper.max(lower),
            example,
        })
    }

    /// Every part searched.
    pub fn complete(&self) -> bool {
        self.done == self.parts
    }

    /// The proof as `rjm exact` prints it: a line, the mazes by length when more than one
    /// length was counted, and the example maze as a grid of jumps.
    pub fn describe(&self) -> String {
        let n = self.size;
        let all =
            crate::present::format::number(super::tables::Tables::new(n).all_mazes().to_f64(), 0);
        let work = format!(
            "{} nodes, {:.1} s",
            crate::present::format::number(self.nodes as f64, 0),
            self.seconds
        );
        let found = self.histogram.keys().next_back().copied().unwrap_or(0);
        let mut out = if self.complete() && found > 0 {
            format!(
                "{n}x{n}: the longest shortest path is {found} moves, reached by {} of the {all} mazes (proved by exhaustive search: {work})",
                self.histogram[&found].grouped()
            )
        } else if self.complete() {
            format!(
                "{n}x{n}: no maze has {} moves or more, so the longest shortest path is {} (proved by exhaustive search: {work})",
                self.at_least,
                self.interval()
            )
        } else {
            format!(
                "{n}x{n}: the longest shortest path is {}{} ({} of the {} parts unfinished; {} searched: {work})",
                self.interval(),
                self.witness(),
                self.parts - self.done,
                self.parts,
                self.done
            )
        };
        out.push('\n');
        if self.histogram.len() > 1 {
            let pairs: Vec<String> = self
                .histogram
                .iter()
                .map(|(l, c)| format!("{l}: {}", c.grouped()))
                .collect();
            out.push_str(&format!("mazes by length: {}\n", pairs.join("; ")));
        }
        if let Some(code) = &self.example {
            for row in code.split('/') {
                out.push_str(row);
                out.push('\n');
            }
        }
        out
    }

    /// `45 to 46 moves`, `45 moves`, or `at most 46 moves` when no maze is known.
    fn interval(&self) -> String {
        match (self.lower, self.upper) {
            (0, hi) => format!("at most {hi} moves"),
            (lo, hi) if lo == hi => format!("{lo} moves"),
            (lo, hi) => format!("{lo} to {hi} moves"),
        }
    }

    fn witness(&self) -> String {
        match self.lower {
            0 => String::new(),
            lo if lo == self.upper => format!(
                ": a maze of {lo} was found, and no maze is longer; the unfinished parts may hold more of {lo}"
            ),
            lo => format!(
                ": a maze of {lo} was found, and no maze is longer than {}",
                self.upper
            ),
        }
    }
}

/// The proofs a results table holds: one per size, threshold and bound of its `exact`
/// runs, described as `rjm exact` describes them (the domain's conclusion for `run` and
/// `merge`).
pub fn conclude(results: &polars::prelude::DataFrame) -> anyhow::Result<Option<String>> {
    use crate::pipeline::table::{cell, has_column, rows_where};
    if !has_column(results, "algorithm") || !has_column(results, "histogram") {
        return Ok(None);
    }
    let rows = rows_where(results, "algorithm", "exact")?;
    let mut groups: BTreeMap<(i64, i64, String), Vec<Finished>> = BTreeMap::new();
    for i in 0..rows.height() {
        let int = |name: &str| -> anyhow::Result<i64> {
            cell(&rows, name, i)?
                .as_i64()
                .ok_or_else(|| anyhow::anyhow!("row {i}: {name} is not an integer"))
        };
        let text = |name: &str| -> anyhow::Result<Option<String>> {
            Ok(match cell(&rows, name, i)? {
                Value::Str(s) => Some(s),
                _ => None,
            })
        };
        let m = ExactMetrics {
            histogram: text("histogram")?.unwrap_or_default(),
            nodes: int("nodes")? as u64,
            time_seconds: cell(&rows, "time_seconds", i)?.as_f64().unwrap_or(0.0),
            example: text("example")?,
            ..ExactMetrics::default()
        };
        let key = (
            int("size")?,
            int("at_least")?,
            text("bound")?.unwrap_or_default(),
        );
        groups
            .entry(key)
            .or_default()
            .push(Finished::of(int("part")? as usize, &m)?);
    }
    let texts: Vec<String> = groups
        .into_iter()
        .map(|((size, at_least, _), finished)| {
            Proof::of(size as usize, at_least as u32, &finished).map(|p| p.describe())
        })
        .collect::<anyhow::Result<_>>()?;
    Ok((!texts.is_empty()).then(|| texts.concat()))
}
