//! Runtime distributions from anytime tables, as COCO and IOHprofiler report them: for
//! each run and target, the first recorded iteration at which the best value so far
//! reaches the target; the empirical cumulative distribution of those hitting times over
//! all (run, target) pairs of a group; and the expected running time (ERT) to each
//! target, the iterations of every run (successful ones up to the hit, unsuccessful ones
//! in full) divided by the number of successes.
//!
//! Hitting times are read at the anytime table's checkpoints (1, 2, 3, 5, 7, 10, …
//! iterations), so each is the first checkpoint at which the target had been reached: an
//! upper bound at most twice the true one, on the log scale the figures use.

use crate::pipeline::metrics::Better;
use crate::pipeline::table::{floats, groups, texts};
use crate::present::charts::{label, ordered_values};
use crate::present::plot::{Band, LinePlot};
use polars::prelude::DataFrame;

/// One group's runs against a set of targets.
#[derive(Debug, Clone, PartialEq)]
pub struct Hits {
    /// The group's label values.
    pub group: Vec<String>,
    /// Per run: its length (last recorded iteration) and, per target, its hitting time.
    pub runs: Vec<(u64, Vec<Option<u64>>)>,
}

/// Whether `value` reaches `target`.
fn reaches(value: f64, target: f64, better: Better) -> bool {
    match better {
        Better::Lower => value <= target,
        Better::Higher => value >= target,
    }
}

/// The hitting times of every run (`run_key`) of every group of `by`, from an anytime
/// table (`iteration`, `best_so_far`), in display order of the groups.
pub fn hits(
    df: &DataFrame,
    by: &[String],
    targets: &[f64],
    better: Better,
) -> anyhow::Result<Vec<Hits>> {
    let cols: Vec<&str> = by.iter().map(String::as_str).collect();
    let mut parts = groups(df, &cols)?;
    if let [g] = cols.as_slice() {
        let order = ordered_values(&texts(df, g)?);
        parts.sort_by_key(|(l, _)| order.iter().position(|o| *o == l[0]));
    }
    let mut out = Vec::new();
    for (group, part) in parts {
        let keys = texts(&part, "run_key")?;
        let iterations = floats(&part, "iteration")?;
        let best = floats(&part, "best_so_far")?;
        let mut runs: Vec<(String, u64, Vec<Option<u64>>)> = Vec::new();
        for ((key, it), b) in keys.iter().zip(&iterations).zip(&best) {
            let (Some(it), Some(b)) = (*it, *b) else {
                continue;
            };
            let it = it as u64;
            let run = match runs.iter_mut().find(|r| &r.0 == key) {
                Some(r) => r,
                None => {
                    runs.push((key.clone(), 0, vec![None; targets.len()]));
                    runs.last_mut().expect("just pushed")
                }
            };
            run.1 = run.1.max(it);
            for (hit, &t) in run.2.iter_mut().zip(targets) {
                if reaches(b, t, better) && hit.is_none_or(|h| it < h) {
                    *hit = Some(it);
                }
            }
        }
        out.push(Hits {
            group,
            runs: runs.into_iter().map(|(_, n, h)| (n, h)).collect(),
        });
    }
    Ok(out)
}

/// Successes, runs and the ERT (None: no success) of target `t` in `h`.
pub fn ert(h: &Hits, t: usize) -> (usize, usize, Option<f64>) {
    let successes = h.runs.iter().filter(|r| r.1[t].is_some()).count();
    let spent: u64 = h.runs.iter().map(|(n, hits)| hits[t].unwrap_or(*n)).sum();
    let ert = (successes > 0).then(|| spent as f64 / successes as f64);
    (successes, h.runs.len(), ert)
}

/// The fraction of (run, target) pairs of `h` reached within each iteration count at
/// which some pair was reached, as a step function from the first checkpoint to the
/// longest run.
pub fn ecdf(h: &Hits) -> Vec<(f64, f64)> {
    let pairs = h.runs.iter().map(|r| r.1.len()).sum::<usize>().max(1) as f64;
    let mut times: Vec<u64> = h
        .runs
        .iter()
        .flat_map(|r| r.1.iter().flatten().copied())
        .collect();
    times.sort_unstable();
    let end = h.runs.iter().map(|r| r.0).max().unwrap_or(1).max(1);
    let mut points = vec![(1.0, 0.0)];
    for (i, &t) in times.iter().enumerate() {
        let y = (i + 1) as f64 / pairs;
        let x = t.max(1) as f64;
        match points.last_mut() {
            Some(last) if last.0 == x => last.1 = y,
            _ => {
                // A step: hold the previous fraction until x.
                let prev = points.last().map_or(0.0, |p| p.1);
                points.push((x, prev));
                points.push((x, y));
            }
        }
    }
    let last = points.last().map_or(0.0, |p| p.1);
    points.push((end as f64, last));
    points
}

/// The ECDF figure: one line per group.
pub fn ecdf_plot(all: &[Hits], by: &[String], title: &str) -> LinePlot {
    let series = all
        .iter()
        .map(|h| Band {
            name: by
                .iter()
                .zip(&h.group)
                .map(|(c, v)| format!("{c} = {}", label(v)))
                .collect::<Vec<_>>()
                .join(", "),
            points: ecdf(h).into_iter().map(|(x, y)| (x, y, y, y)).collect(),
        })
        .collect();
    LinePlot {
        title: title.to_string(),
        x_label: "iterations (log scale)".into(),
        y_label: "fraction of (run, target) pairs reached".into(),
        series,
        log_x: true,
        log_y: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::params::Value;
    use crate::pipeline::table::{ColumnBuilder, frame};

    fn table(rows: &[(&str, &str, u64, f64)]) -> DataFrame {
        let mut cols: Vec<ColumnBuilder> = ["g", "run_key", "iteration", "best_so_far"]
            .iter()
            .map(|c| ColumnBuilder::new(c))
            .collect();
        for &(g, k, it, b) in rows {
            for (c, v) in cols.iter_mut().zip([
                Value::from(g),
                Value::from(k),
                Value::from(it),
                Value::Float(b),
            ]) {
                c.push(v);
            }
        }
        frame(cols).unwrap()
    }

    #[test]
    fn ert_counts_failures_in_full_and_divides_by_successes() {
        // Run a reaches −3 at 10; run b reaches −2 at 100 and never −3 (length 1000).
        let df = table(&[
            ("x", "a", 1, -1.0),
            ("x", "a", 10, -3.0),
            ("x", "a", 1000, -3.0),
            ("x", "b", 1, -1.0),
            ("x", "b", 100, -2.0),
            ("x", "b", 1000, -2.0),
        ]);
        let h = hits(&df, &["g".into()], &[-2.0, -3.0], Better::Lower).unwrap();
        assert_eq!(h.len(), 1);
        assert_eq!(
            h[0].runs,
            vec![
                (1000, vec![Some(10), Some(10)]),
                (1000, vec![Some(100), None])
            ]
        );
        assert_eq!(ert(&h[0], 0), (2, 2, Some(55.0)));
        // (10 + 1000) / 1.
        assert_eq!(ert(&h[0], 1), (1, 2, Some(1010.0)));
        let e = ecdf(&h[0]);
        assert_eq!(e.first(), Some(&(1.0, 0.0)));
        assert_eq!(e.last(), Some(&(1000.0, 0.75)));
        // Two pairs hit at 10: the fraction jumps from 0 to 0.5 there.
        assert!(e.contains(&(10.0, 0.0)) && e.contains(&(10.0, 0.5)));
        assert!(e.windows(2).all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1));
    }

    #[test]
    fn no_success_has_no_ert() {
        let df = table(&[("x", "a", 1, 5.0), ("x", "a", 50, 4.0)]);
        let h = hits(&df, &["g".into()], &[10.0], Better::Higher).unwrap();
        assert_eq!(ert(&h[0], 0), (0, 1, None));
        assert_eq!(ecdf(&h[0]).last(), Some(&(50.0, 0.0)));
    }
}
