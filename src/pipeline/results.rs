//! The results and anytime tables of an experiment's finished runs, in plan order: one
//! row per run (its identity, every parameter of every algorithm used, every metric,
//! null where a column does not apply), one row per run and anytime checkpoint, and
//! (`improvements`) one row per run and strict improvement of its best so far, the exact
//! evaluations at which targets are first reached. Both curves' tables come from the one
//! curve a run records.
//! A non-finite number is null in both, as the journal stores it, so a table written
//! from memory is the same text as one written after a resume.

use crate::pipeline::journal::RunRecord;
use crate::pipeline::params::Value;
use crate::pipeline::plan::{ANYTIME_COLUMNS, ANYTIME_RUN_COLUMNS, Plan, RUN_COLUMNS, Run};
use crate::pipeline::runner::log_checkpoints;
use crate::pipeline::table::{ColumnBuilder, frame, write_both};
use polars::prelude::DataFrame;
use std::collections::HashMap;
use std::path::Path;

/// A value as a table stores it: non-finite numbers are null.
fn stored(v: &Value) -> Value {
    match v {
        Value::Float(x) if !x.is_finite() => Value::Null,
        other => other.clone(),
    }
}

/// The results and anytime tables of the finished runs, in plan order.
pub fn frames(
    plan: &Plan,
    done: &HashMap<String, RunRecord>,
) -> anyhow::Result<(DataFrame, DataFrame)> {
    let finished: Vec<(&Run, &RunRecord)> = plan
        .runs
        .iter()
        .filter_map(|r| done.get(&r.key).map(|o| (r, o)))
        .collect();
    Ok((results(plan, &finished)?, anytime(plan, &finished)?))
}

fn results(plan: &Plan, finished: &[(&Run, &RunRecord)]) -> anyhow::Result<DataFrame> {
    let params = plan.param_columns();
    let metrics = plan.metric_names();
    let mut cols: Vec<ColumnBuilder> = RUN_COLUMNS
        .iter()
        .chain(&params)
        .chain(&metrics)
        .map(|n| ColumnBuilder::new(n))
        .collect();
    for (run, o) in finished {
        let algorithm = plan.algorithm(run);
        let mut row: Vec<Value> = vec![
            Value::from(plan.experiment.as_str()),
            Value::from(run.index),
            Value::from(run.key.as_str()),
            Value::from(run.variant.as_str()),
            Value::from(plan.runner.domain),
            Value::from(algorithm.name),
            Value::from(algorithm.version),
            Value::from(run.replicate),
            Value::from(run.seeds.run),
            Value::from(run.seeds.instance),
        ];
        row.extend(params.iter().map(|p| param(plan, run, p)));
        row.extend(metrics.iter().map(|m| {
            o.metrics
                .iter()
                .find(|(k, _)| k == m)
                .map_or(Value::Null, |(_, v)| stored(v))
        }));
        for (c, v) in cols.iter_mut().zip(row) {
            c.push(v);
        }
    }
    frame(cols)
}

/// Which points of a run's curve a table keeps.
#[derive(Clone, Copy, PartialEq)]
enum Points {
    /// The log-spaced checkpoints ([`log_checkpoints`] of the curve's last count): the
    /// anytime table, which plots read.
    Checkpoints,
    /// The first point and every strict improvement of the best: the improvements
    /// table, whose rows are the exact hitting times of every target.
    Improvements,
}

/// The points of `curve` that `which` keeps.
fn kept(curve: &[(u64, f64)], which: Points) -> Vec<(u64, f64)> {
    match which {
        Points::Checkpoints => {
            let last = curve.last().map_or(0, |p| p.0);
            let marks = log_checkpoints(last);
            curve
                .iter()
                .filter(|p| marks.binary_search(&p.0).is_ok())
                .copied()
                .collect()
        }
        Points::Improvements => curve
            .iter()
            .enumerate()
            .filter(|(i, p)| *i == 0 || p.1 < curve[i - 1].1)
            .map(|(_, p)| *p)
            .collect(),
    }
}

/// The improvements table of the finished runs, in plan order: one row per run and
/// strict improvement of its best so far (and its first evaluation), with the anytime
/// table's columns (`iteration` the evaluation at which the best improved).
pub fn improvements(plan: &Plan, done: &HashMap<String, RunRecord>) -> anyhow::Result<DataFrame> {
    let finished: Vec<(&Run, &RunRecord)> = plan
        .runs
        .iter()
        .filter_map(|r| done.get(&r.key).map(|o| (r, o)))
        .collect();
    curve_table(plan, &finished, Points::Improvements)
}

fn anytime(plan: &Plan, finished: &[(&Run, &RunRecord)]) -> anyhow::Result<DataFrame> {
    curve_table(plan, finished, Points::Checkpoints)
}

fn curve_table(
    plan: &Plan,
    finished: &[(&Run, &RunRecord)],
    which: Points,
) -> anyhow::Result<DataFrame> {
    let params = plan.param_columns();
    let mut cols: Vec<ColumnBuilder> = ANYTIME_RUN_COLUMNS
        .iter()
        .chain(&params)
        .chain(&ANYTIME_COLUMNS)
        .map(|n| ColumnBuilder::new(n))
        .collect();
    for (run, o) in finished {
        for (evaluations, best) in kept(&o.anytime, which) {
            let mut row: Vec<Value> = vec![
                Value::from(plan.experiment.as_str()),
                Value::from(run.index),
                Value::from(run.key.as_str()),
                Value::from(run.variant.as_str()),
                Value::from(plan.algorithm(run).name),
                Value::from(run.replicate),
            ];
            row.extend(params.iter().map(|p| param(plan, run, p)));
            row.push(Value::from(evaluations));
            row.push(stored(&Value::Float(best)));
            for (c, v) in cols.iter_mut().zip(row) {
                c.push(v);
            }
        }
    }
    frame(cols)
}

/// A parameter's value in a run, or the domain's problem dimension.
fn param(plan: &Plan, run: &Run, name: &str) -> Value {
    match plan.runner.dimension {
        Some(d) if d.name == name => Value::from((d.of)(&run.params)),
        _ => run.params.get(name).cloned().unwrap_or(Value::Null),
    }
}

/// Writes `results` and `anytime` (Parquet and CSV) of the finished runs to `dir`.
pub fn write_tables(
    plan: &Plan,
    done: &HashMap<String, RunRecord>,
    dir: &Path,
) -> anyhow::Result<(DataFrame, DataFrame)> {
    let (mut results, mut anytime) = frames(plan, done)?;
    write_both(&mut results, dir, "results")?;
    write_both(&mut anytime, dir, "anytime")?;
    write_both(&mut improvements(plan, done)?, dir, "improvements")?;
    Ok((results, anytime))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::config::parse;
    use crate::pipeline::params::ParamSpec;
    use crate::pipeline::runner::{Algorithm, RunOutput, Runner};

    crate::metrics! {
        pub struct RatioMetrics {
            /// A ratio that may overflow.
            ratio: f64 [lower, "ratio", ""],
        }
    }

    fn toy() -> Runner {
        Runner {
            domain: "toy",
            description: "a toy",
            algorithms: vec![Algorithm {
                name: "walk",
                version: 1,
                description: "",
                metrics: crate::pipeline::metrics::MetricsSpec::of::<RatioMetrics>(),
                anytime: true,
                retired: &[],
                params: vec![ParamSpec::int("n", 1, 100, None, "").instance()],
                run: |_, _, _| Ok(RunOutput::default()),
            }],
            cache: None,
            dimension: None,
            objective: None,
        }
    }

    #[test]
    fn one_curve_gives_the_checkpoints_and_the_improvements() {
        let curve = [
            (1, 5.0),
            (2, 5.0),
            (3, 5.0),
            (4, 3.0),
            (5, 3.0),
            (6, 2.0),
            (7, 2.0),
            (10, 2.0),
        ];
        assert_eq!(
            kept(&curve, Points::Checkpoints),
            vec![(1, 5.0), (2, 5.0), (3, 5.0), (5, 3.0), (7, 2.0), (10, 2.0)]
        );
        assert_eq!(
            kept(&curve, Points::Improvements),
            vec![(1, 5.0), (4, 3.0), (6, 2.0)]
        );
    }

    #[test]
    fn a_non_finite_metric_is_the_same_text_from_memory_and_from_the_journal() {
        let runner = toy();
        let text = "[experiment]\ndomain = \"toy\"\nalgorithm = \"walk\"\n[sweep]\nn = [1, 2, 3]\n";
        let config = parse(text, "t.toml", &[]).unwrap();
        let plan = crate::pipeline::plan::plan(&config, &[&runner]).unwrap();
        let values = [f64::INFINITY, f64::NAN, 2.5];
        let memory: HashMap<String, RunRecord> = plan
            .runs
            .iter()
            .zip(values)
            .map(|(r, x)| {
                let record = RunRecord {
                    metrics: vec![("ratio".to_string(), Value::Float(x))],
                    anytime: vec![(1, 1.0)],
                };
                (r.key.clone(), record)
            })
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let journal = dir.path().join("runs.jsonl");
        let lines: String = plan
            .runs
            .iter()
            .map(|r| crate::pipeline::journal::encode(&r.key, &memory[&r.key]) + "\n")
            .collect();
        std::fs::write(&journal, lines).unwrap();
        let (resumed, damaged) = crate::pipeline::journal::read_records(&journal).unwrap();
        assert!(damaged.is_empty());
        let csv = |done: &HashMap<String, RunRecord>, name: &str| {
            let (mut results, mut anytime) = frames(&plan, done).unwrap();
            let (a, b) = (dir.path().join(name), dir.path().join(format!("a{name}")));
            crate::pipeline::table::write_csv(&mut results, &a).unwrap();
            crate::pipeline::table::write_csv(&mut anytime, &b).unwrap();
            (std::fs::read(a).unwrap(), std::fs::read(b).unwrap())
        };
        let (from_memory, from_journal) = (csv(&memory, "m.csv"), csv(&resumed, "j.csv"));
        assert_eq!(from_memory, from_journal);
        let text = String::from_utf8(from_memory.0).unwrap();
        assert!(
            !text.contains("inf") && !text.to_lowercase().contains("nan"),
            "{text}"
        );
        assert!(text.contains("2.5"), "{text}");
    }
}
