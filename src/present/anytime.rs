//! Anytime views of runs, as COCO and IOHprofiler report them, from an anytime table
//! (`run_key`, `iteration`: the evaluations spent, `best_so_far`): for each run and
//! target, the first recorded budget at which the best value so far reaches the target
//! ([`hits`]); the empirical cumulative distribution of those hitting times over all
//! (run, target) pairs of a group ([`ecdf`]); the expected running time to a target
//! ([`ert`]); and the best value reached within fixed budgets ([`at_budgets`]).
//!
//! Targets are absolute, or fractions of a reference value per problem (the best known
//! maze of each size), so one distribution can aggregate problems of several sizes; the
//! budget can be divided by a problem dimension (a maze's cells), so that budgets of
//! problems of several sizes are comparable. Hitting times are the first recorded
//! evaluation at which the target was reached: exact when the rows hold every
//! improvement of each run (the improvements table, which the report adds to the anytime
//! table's checkpoints for these views), else the first checkpoint (1, 2, 3, 5, 7, 10, …
//! evaluations), at most twice the true one.

use crate::pipeline::metrics::Better;
use crate::pipeline::table::{floats, texts};
use crate::present::charts::ordered_groups;
use polars::prelude::DataFrame;
use std::collections::HashMap;

/// The targets of a view.
#[derive(Clone, Copy)]
pub enum Targets<'a> {
    /// The same values for every problem.
    Absolute(&'a [f64]),
    /// Per problem (the values of column `problem`): each fraction times the problem's
    /// reference value.
    Relative {
        problem: &'a str,
        fractions: &'a [f64],
        reference: fn(&str) -> Option<f64>,
    },
}

impl Targets<'_> {
    fn count(&self) -> usize {
        match self {
            Targets::Absolute(t) => t.len(),
            Targets::Relative { fractions, .. } => fractions.len(),
        }
    }
}

/// One run's hitting times.
#[derive(Debug, Clone, PartialEq)]
pub struct RunHits {
    /// Its first and last recorded budgets.
    pub first: f64,
    pub length: f64,
    /// Per target, the first budget at which it was reached.
    pub hits: Vec<Option<f64>>,
}

/// One group's runs against the targets.
#[derive(Debug, Clone, PartialEq)]
pub struct Hits {
    /// The group's values.
    pub group: Vec<String>,
    pub runs: Vec<RunHits>,
}

/// Whether `value` reaches `target`.
fn reaches(value: f64, target: f64, better: Better) -> bool {
    match better {
        Better::Lower => value <= target,
        Better::Higher => value >= target,
    }
}

/// Each row's budget: its evaluations, divided by its value of column `per` if given.
fn budgets(df: &DataFrame, per: Option<&str>) -> anyhow::Result<Vec<Option<f64>>> {
    let spent = floats(df, "iteration")?;
    let Some(per) = per else { return Ok(spent) };
    let by = floats(df, per)?;
    Ok(spent
        .iter()
        .zip(&by)
        .map(|(s, d)| match (s, d) {
            (Some(s), Some(d)) if *d > 0.0 => Some(s / d),
            _ => None,
        })
        .collect())
}

/// Each row's targets.
fn row_targets(df: &DataFrame, targets: Targets) -> anyhow::Result<Vec<Vec<f64>>> {
    match targets {
        Targets::Absolute(t) => Ok(vec![t.to_vec(); df.height()]),
        Targets::Relative {
            problem,
            fractions,
            reference,
        } => {
            let problems = texts(df, problem)?;
            let mut cache: HashMap<&str, Vec<f64>> = HashMap::new();
            problems
                .iter()
                .map(|p| {
                    if let Some(t) = cache.get(p.as_str()) {
                        return Ok(t.clone());
                    }
                    let r = reference(p).ok_or_else(|| {
                        crate::user_error!("no reference value for {problem} = {p}")
                    })?;
                    let t: Vec<f64> = fractions.iter().map(|f| f * r).collect();
                    cache.insert(p, t.clone());
                    Ok(t)
                })
                .collect()
        }
    }
}

/// The hitting times of every run of every group of `by`, in display order of the
/// groups, the budget divided by column `per` if given.
pub fn hits(
    df: &DataFrame,
    by: &[String],
    targets: Targets,
    better: Better,
    per: Option<&str>,
) -> anyhow::Result<Vec<Hits>> {
    let mut out = Vec::new();
    for (group, part) in ordered_groups(df, by)? {
        let keys = texts(&part, "run_key")?;
        let spent = budgets(&part, per)?;
        let best = floats(&part, "best_so_far")?;
        let goals = row_targets(&part, targets)?;
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut runs: Vec<RunHits> = Vec::new();
        for i in 0..part.height() {
            let (Some(x), Some(b)) = (spent[i], best[i]) else {
                continue;
            };
            let r = *index.entry(&keys[i]).or_insert_with(|| {
                runs.push(RunHits {
                    first: x,
                    length: x,
                    hits: vec![None; targets.count()],
                });
                runs.len() - 1
            });
            let run = &mut runs[r];
            run.first = run.first.min(x);
            run.length = run.length.max(x);
            for (hit, &t) in run.hits.iter_mut().zip(&goals[i]) {
                if reaches(b, t, better) && hit.is_none_or(|h| x < h) {
                    *hit = Some(x);
                }
            }
        }
        out.push(Hits { group, runs });
    }
    Ok(out)
}

/// True when every target of every run was reached at its first checkpoint: the
/// targets say nothing of the methods' speed.
pub fn trivial(all: &[Hits]) -> bool {
    all.iter()
        .flat_map(|h| &h.runs)
        .all(|r| r.hits.iter().all(|t| t.is_some_and(|x| x <= r.first)))
}

/// Each run's budget spent on target `t` (up to its hit, or all of it) and whether it hit.
fn spent_on(h: &Hits, t: usize) -> (Vec<f64>, Vec<bool>) {
    h.runs
        .iter()
        .map(|r| (r.hits[t].unwrap_or(r.length), r.hits[t].is_some()))
        .unzip()
}

/// Successes, runs and the ERT (None: no success) of target `t` in `h`: the budget of
/// every run (up to its hit, or all of it) divided by the successes.
pub fn ert(h: &Hits, t: usize) -> (usize, usize, Option<f64>) {
    let (spent, hit) = spent_on(h, t);
    let successes = hit.iter().filter(|x| **x).count();
    let e = crate::stats::expected_running_time(&spent, &hit);
    (successes, h.runs.len(), e.is_finite().then_some(e))
}

/// The 95% percentile-bootstrap interval of the ERT of target `t` in `h` (2,000
/// resamples of the runs, seeded by `seed`): the high end is infinite when too many
/// resamples hold no success.
pub fn ert_interval(h: &Hits, t: usize, seed: u64) -> (f64, f64) {
    let (spent, hit) = spent_on(h, t);
    crate::stats::bootstrap_ert_ci(&spent, &hit, 0.95, 2000, seed)
}

/// The longest run's budget in `h`: an ERT above it is extrapolated from the share of
/// runs that hit, not observed.
pub fn longest(h: &Hits) -> f64 {
    h.runs.iter().map(|r| r.length).fold(0.0, f64::max)
}

/// The fraction of (run, target) pairs of `h` reached within each budget at which some
/// pair was reached, as a step function from the first checkpoint to the longest run.
pub fn ecdf(h: &Hits) -> Vec<(f64, f64)> {
    let pairs = h.runs.iter().map(|r| r.hits.len()).sum::<usize>().max(1) as f64;
    let mut times: Vec<f64> = h
        .runs
        .iter()
        .flat_map(|r| r.hits.iter().flatten().copied())
        .collect();
    times.sort_by(f64::total_cmp);
    let start = h.runs.iter().map(|r| r.first).fold(f64::INFINITY, f64::min);
    let start = if start.is_finite() { start } else { 1.0 };
    let end = h.runs.iter().map(|r| r.length).fold(start, f64::max);
    let mut points = vec![(start, 0.0)];
    for (i, &x) in times.iter().enumerate() {
        let y = (i + 1) as f64 / pairs;
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
    points.push((end, last));
    points
}

/// A group's values (its label values first): per budget, every run's best value.
pub type BudgetValues = (Vec<String>, Vec<Vec<f64>>);

/// Per group (in display order), per budget: every run's best value reached within the
/// budget (its value at the last checkpoint not past it; a run shorter than the budget
/// counts with its final value). The budget is divided by column `per` if given.
pub fn at_budgets(
    df: &DataFrame,
    by: &[String],
    budgets_wanted: &[f64],
    per: Option<&str>,
) -> anyhow::Result<Vec<BudgetValues>> {
    let mut out = Vec::new();
    for (group, part) in ordered_groups(df, by)? {
        let keys = texts(&part, "run_key")?;
        let spent = budgets(&part, per)?;
        let best = floats(&part, "best_so_far")?;
        // Per run: (budget, value) at its checkpoints.
        let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
        let mut index: HashMap<&str, usize> = HashMap::new();
        for i in 0..part.height() {
            let (Some(x), Some(b)) = (spent[i], best[i]) else {
                continue;
            };
            let r = *index.entry(&keys[i]).or_insert_with(|| {
                runs.push(Vec::new());
                runs.len() - 1
            });
            runs[r].push((x, b));
        }
        let values = budgets_wanted
            .iter()
            .map(|&budget| {
                runs.iter()
                    .filter_map(|points| {
                        points
                            .iter()
                            .filter(|(x, _)| *x <= budget)
                            .max_by(|a, b| a.0.total_cmp(&b.0))
                            .map(|p| p.1)
                    })
                    .collect()
            })
            .collect();
        out.push((group, values));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::params::Value;
    use crate::pipeline::table::{ColumnBuilder, frame};

    /// Rows (group, run, problem size, evaluations, best so far).
    fn table(rows: &[(&str, &str, i64, u64, f64)]) -> DataFrame {
        let mut cols: Vec<ColumnBuilder> = ["g", "run_key", "size", "iteration", "best_so_far"]
            .iter()
            .map(|c| ColumnBuilder::new(c))
            .collect();
        for &(g, k, s, it, b) in rows {
            let row = [
                Value::from(g),
                Value::from(k),
                Value::Int(s),
                Value::from(it),
                Value::Float(b),
            ];
            for (c, v) in cols.iter_mut().zip(row) {
                c.push(v);
            }
        }
        frame(cols).unwrap()
    }

    fn two_runs() -> DataFrame {
        // Run a reaches −3 at 10; run b reaches −2 at 100 and never −3 (length 1000).
        table(&[
            ("x", "a", 5, 1, -1.0),
            ("x", "a", 5, 10, -3.0),
            ("x", "a", 5, 1000, -3.0),
            ("x", "b", 5, 1, -1.0),
            ("x", "b", 5, 100, -2.0),
            ("x", "b", 5, 1000, -2.0),
        ])
    }

    #[test]
    fn ert_counts_failures_in_full_and_divides_by_successes() {
        let h = hits(
            &two_runs(),
            &["g".into()],
            Targets::Absolute(&[-2.0, -3.0]),
            Better::Lower,
            None,
        )
        .unwrap();
        assert_eq!(h.len(), 1);
        let hits_of = |r: &RunHits| (r.first, r.length, r.hits.clone());
        assert_eq!(
            h[0].runs.iter().map(hits_of).collect::<Vec<_>>(),
            vec![
                (1.0, 1000.0, vec![Some(10.0), Some(10.0)]),
                (1.0, 1000.0, vec![Some(100.0), None])
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
        assert!(!trivial(&h));
        let easy = hits(
            &two_runs(),
            &["g".into()],
            Targets::Absolute(&[-1.0]),
            Better::Lower,
            None,
        )
        .unwrap();
        assert!(trivial(&easy), "every run starts at −1");
    }

    #[test]
    fn no_success_has_no_ert() {
        let df = table(&[("x", "a", 5, 1, 5.0), ("x", "a", 5, 50, 4.0)]);
        let h = hits(
            &df,
            &["g".into()],
            Targets::Absolute(&[10.0]),
            Better::Higher,
            None,
        )
        .unwrap();
        assert_eq!(ert(&h[0], 0), (0, 1, None));
        assert_eq!(ecdf(&h[0]).last(), Some(&(50.0, 0.0)));
    }

    #[test]
    fn targets_relative_to_each_problem_and_budgets_per_cell() {
        // Size 5 (reference −20) and size 10 (reference −40): 50% of the reference is −10
        // and −20; the budget per cell divides by 25 and 100.
        let df = table(&[
            ("x", "a", 5, 1, -5.0),
            ("x", "a", 5, 250, -10.0),
            ("x", "b", 10, 1, -5.0),
            ("x", "b", 10, 1000, -20.0),
        ]);
        let reference = |p: &str| match p {
            "5" => Some(-20.0),
            "10" => Some(-40.0),
            _ => None,
        };
        let t = Targets::Relative {
            problem: "size",
            fractions: &[0.5, 1.0],
            reference,
        };
        let df = {
            let mut df = df;
            let cells: Vec<f64> = floats(&df, "size")
                .unwrap()
                .iter()
                .map(|s| s.unwrap().powi(2))
                .collect();
            df.with_column(polars::prelude::Column::new("cells".into(), cells))
                .unwrap();
            df
        };
        let h = hits(&df, &["g".into()], t, Better::Lower, Some("cells")).unwrap();
        let hit_times: Vec<Vec<Option<f64>>> = h[0].runs.iter().map(|r| r.hits.clone()).collect();
        assert_eq!(
            hit_times,
            vec![vec![Some(10.0), None], vec![Some(10.0), None]]
        );
        let bad = Targets::Relative {
            problem: "g",
            fractions: &[1.0],
            reference,
        };
        assert!(hits(&df, &["g".into()], bad, Better::Lower, None).is_err());
    }

    #[test]
    fn fixed_budgets_read_the_last_checkpoint_within() {
        let v = at_budgets(
            &two_runs(),
            &["g".into()],
            &[5.0, 10.0, 500.0, 5000.0],
            None,
        )
        .unwrap();
        assert_eq!(
            v[0].1,
            vec![
                vec![-1.0, -1.0],
                vec![-3.0, -1.0],
                vec![-3.0, -2.0],
                vec![-3.0, -2.0]
            ]
        );
    }
    #[test]
    fn improvements_give_exact_hitting_times() {
        // Checkpoints of one run, the best improving to −6 at evaluation 6.
        let checkpoints = [
            (1, -4.0),
            (2, -4.0),
            (3, -4.0),
            (5, -4.0),
            (7, -6.0),
            (10, -6.0),
        ];
        let rows = |with_gain: bool| {
            let mut r: Vec<(&str, &str, i64, u64, f64)> = checkpoints
                .iter()
                .map(|&(x, b)| ("g", "a", 5, x, b))
                .collect();
            if with_gain {
                // The improvements table's rows: the start and the gain.
                r.extend([("g", "a", 5, 1, -4.0), ("g", "a", 5, 6, -6.0)]);
            }
            table(&r)
        };
        let read = |df: &DataFrame| {
            let all = hits(
                df,
                &["g".into()],
                Targets::Absolute(&[-5.0]),
                Better::Lower,
                None,
            )
            .unwrap();
            (all[0].runs[0].hits[0], ert(&all[0], 0), longest(&all[0]))
        };
        // At the checkpoints the target is first seen at 7; the improvement says 6.
        assert_eq!(read(&rows(false)), (Some(7.0), (1, 1, Some(7.0)), 10.0));
        assert_eq!(read(&rows(true)), (Some(6.0), (1, 1, Some(6.0)), 10.0));
        let exact = at_budgets(&rows(true), &["g".into()], &[6.0], None).unwrap();
        assert_eq!(exact[0].1, vec![vec![-6.0]]);
    }
}
