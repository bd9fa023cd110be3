//! The report built from fixed small tables and a study using every kind of block,
//! compared with the stored markdown `tests/data/report_golden.md`: a change of
//! wording or numbers is a visible diff. Set `SEARCHLAB_BLESS=1` to rewrite the file
//! after a deliberate change.

use searchlab::domain::Functions;
use searchlab::pipeline::metrics::{Better, MetricSpec};
use searchlab::pipeline::params::Value;
use searchlab::pipeline::table::{ColumnBuilder, frame};
use searchlab::report::blocks::Tables;
use searchlab::study::{Known, parse};
use std::collections::{BTreeMap, BTreeSet};

const CONFIG: &str = r#"[experiment]
name = "toy"
domain = "rjm"
algorithm = "anneal"
[params]
evaluations = 500
[sweep]
initial_temperature = [1, 2]
[replicates]
count = 6
base_seed = 3
[[variant]]
name = "geometric"
params = { schedule = "geometric" }
sweep = { decay = [0.9, 0.99] }
[[variant]]
name = "linear"
params = { schedule = "linear" }
"#;

const STUDY: &str = r#"title = "A toy study"
intro = "Runs of {config.toy.evaluations} evaluations, {config.toy.replicates} seeds per setting."
derive = { speedup = "MAX(CASE WHEN variant = 'linear' THEN time_seconds END) OVER (PARTITION BY replicate, initial_temperature) / time_seconds" }

[[question]]
title = "Which family is best?"
answer = """
**{families.best.group}** is best (median {families.best.median:~1}, {families.runs} runs); \
{families.second.group} is {families.second.effect} behind ({families.second.p_holm:p}, \
A12 = {families.second.a12:.2}). Paired by replicate, the best setting is {paired.best.group}.
"""

[[question.block]]
kind = "compare"
name = "families"
experiment = "toy"
group = "variant"
metric = "length"
better = "higher"

[[question.block]]
kind = "compare"
name = "paired"
experiment = "toy"
where = { variant = "geometric" }
group = ["initial_temperature", "decay"]
paired = "replicate"
metric = "length"

[[question.block]]
kind = "box"
name = "toy_box"
experiment = "toy"
x = "variant"
metric = "length"
title = "Length per family"

[[question]]
title = "The tables"
answer = "Total length {sum.all.length:,}; geometric at T0 = 2, d = 0.99: {pivot[2.0][0.99]}."

[[question.block]]
kind = "table"
name = "summary"
experiment = "toy"
group = ["variant", "initial_temperature"]
metric = "length"
missing = 0
headers = { "variant, initial_temperature" = "setting" }

[[question.block]]
kind = "aggregate"
name = "sum"
experiment = "toy"
group = "variant"
metrics = ["length", "unreachable"]
aggregate = "sum"

[[question.block]]
kind = "pivot"
name = "pivot"
experiment = "toy"
where = { variant = "geometric" }
rows = "initial_temperature"
columns = "decay"
metric = "length"
aggregate = "median"
digits = 1

[[question.block]]
kind = "rows"
experiment = "toy"
where = { variant = "linear", replicate = [0, 1] }
columns = ["variant", "initial_temperature", "replicate", "length"]
sort = ["replicate", "initial_temperature"]

[[question.block]]
kind = "text"
text = "The median of the linear runs at T0 = 1 is {summary[linear, 1.0].median}."

[[question]]
title = "Derived columns"
answer = """
Geometric runs take {faster[geometric].speedup / faster[linear].speedup:~2} times less time than linear ones \
(median speed-up {faster[geometric].speedup:~2}); {long[true].length - long[false].length:,} more runs are long than short.
"""

[[question.block]]
kind = "aggregate"
name = "faster"
experiment = "toy"
group = "variant"
metrics = ["speedup"]
aggregate = "median"
digits = 2

[[question.block]]
kind = "pivot"
name = "speedups"
experiment = "toy"
where = { variant = "geometric", replicate = [0, 1] }
rows = "replicate"
columns = "decay"
metric = "speedup"
aggregate = "first"
digits = 2

[[question.block]]
kind = "aggregate"
name = "long"
experiment = "toy"
where = { variant = "geometric" }
derive = { long = "length >= 14" }
group = "long"
metrics = ["length"]
aggregate = "count"

[[question]]
title = "How fast does each family get there?"
answer = """
To objective {ert.target:~0} the lowest expected running time is {ert.best}'s: {ert.best_ert:,} evaluations \
({ert.best_success:%} of its runs; linear: {ert[linear].successes} of {ert[linear].runs}).
"""

[[question.block]]
kind = "ecdf"
name = "toy_ecdf"
experiment = "toy"
group = "variant"
targets = [-10, -13, -16]
better = "lower"
title = "Runtime distribution"

[[question.block]]
kind = "ert"
name = "ert"
experiment = "toy"
group = "variant"
targets = [-10, -13, -16]
better = "lower"
"#;

/// Fixed results: length = a deterministic function of the setting and replicate.
fn tables() -> Tables {
    let config = searchlab::pipeline::config::parse(CONFIG, "configs/toy.toml", &[]).unwrap();
    let mut cols: Vec<ColumnBuilder> = [
        "variant",
        "initial_temperature",
        "decay",
        "replicate",
        "length",
        "unreachable",
        "time_seconds",
    ]
    .iter()
    .map(|c| ColumnBuilder::new(c))
    .collect();
    for (variant, decays) in [
        ("geometric", vec![Some(0.9), Some(0.99)]),
        ("linear", vec![None]),
    ] {
        for t0 in [1i64, 2] {
            for decay in &decays {
                for r in 0..6i64 {
                    let base = if variant == "linear" { 10 } else { 12 };
                    let length = base + ((r * 7 + t0 * 3) % 5) + i64::from(decay == &Some(0.99));
                    let row = [
                        Value::from(variant),
                        Value::Float(t0 as f64),
                        decay.map_or(Value::Null, Value::Float),
                        Value::Int(r),
                        if r == 5 && variant == "linear" {
                            Value::Null
                        } else {
                            Value::Int(length)
                        },
                        Value::Int(i64::from(r == 5 && variant == "linear")),
                        // Seconds: geometric runs twice as fast as linear at d = 0.9.
                        Value::Float(
                            (1 + r) as f64
                                * if variant == "linear" { 1.0 } else { 0.5 }
                                * if decay == &Some(0.99) { 2.0 } else { 1.0 },
                        ),
                    ];
                    for (c, v) in cols.iter_mut().zip(row) {
                        c.push(v);
                    }
                }
            }
        }
    }
    let mut t = Tables::default();
    t.results.insert("toy".into(), frame(cols).unwrap());
    t.anytime.insert("toy".into(), anytime());
    t.configs.insert("toy".into(), config);
    t.metrics.insert("toy".into(), vec![&LENGTH]);
    t
}

/// The toy's metric: a path length, longer is better.
static LENGTH: MetricSpec = MetricSpec {
    name: "length",
    meaning: "Moves on the shortest path.",
    label: "length",
    unit: "moves",
    better: Some(Better::Higher),
    numeric: true,
};

/// Fixed anytime curves: run r of a family improves by one every (r + 1) × 10
/// iterations (geometric from −8, linear from −6), checkpoints 1, 10, 100, 500.
fn anytime() -> polars::prelude::DataFrame {
    let mut cols: Vec<ColumnBuilder> = ["run_key", "variant", "iteration", "best_so_far"]
        .iter()
        .map(|c| ColumnBuilder::new(c))
        .collect();
    for (variant, start) in [("geometric", -8i64), ("linear", -6)] {
        for r in 0..6i64 {
            for it in [1i64, 10, 100, 500] {
                let best = (start - it / ((r + 1) * 10)).max(-20);
                let row = [
                    Value::from(format!("{variant}{r}")),
                    Value::from(variant),
                    Value::Int(it),
                    Value::Float(best as f64),
                ];
                for (c, v) in cols.iter_mut().zip(row) {
                    c.push(v);
                }
            }
        }
    }
    frame(cols).unwrap()
}

/// A study of the toy experiment, as `experiments/toy.toml`.
fn parse_toy(text: &str) -> anyhow::Result<searchlab::study::Study> {
    let experiments: BTreeSet<String> = ["toy".to_string()].into_iter().collect();
    let known = Known {
        experiments: &experiments,
        fact_functions: &BTreeMap::new(),
        board_functions: &BTreeSet::new(),
        reference_functions: &BTreeSet::new(),
    };
    parse(text, "experiments/toy.toml", "toy", &known)
}

#[test]
fn the_report_of_fixed_tables_is_the_stored_markdown() {
    let study = parse_toy(STUDY).unwrap();
    let functions = Functions::default();
    let dir = tempfile::tempdir().unwrap();
    let md = searchlab::report::render(&[study], &tables(), &functions, dir.path()).unwrap();
    assert!(dir.path().join("toy/toy_box.png").exists());
    assert!(dir.path().join("toy/toy_box.svg").exists());
    let pdf = std::fs::read(dir.path().join("toy/toy_box.pdf")).unwrap();
    assert!(
        pdf.starts_with(b"%PDF"),
        "a vector PDF beside the PNG and SVG"
    );
    assert!(dir.path().join("toy/toy_ecdf.png").exists());
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/report_golden.md");
    if std::env::var_os("SEARCHLAB_BLESS").is_some() {
        std::fs::write(&path, &md).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap();
    assert_eq!(md, expected, "the report differs from {}", path.display());
}

#[test]
fn a_derived_column_the_table_cannot_give_is_an_error_naming_the_study_and_expression() {
    for (derive, says) in [
        (
            "{ pace = \"length / time_second\" }",
            "experiments/toy.toml:4: experiment toy: derive.pace = \"length / time_second\": unknown column \"time_second\"; did you mean time_seconds?",
        ),
        (
            "{ length = \"length * 2\" }",
            "experiments/toy.toml:4: experiment toy: derive.length = \"length * 2\": the table already has a column \"length\"",
        ),
        (
            "{ pace = \"variant / 2\" }",
            "experiments/toy.toml:4: experiment toy: derive.pace = \"variant / 2\": polars cannot evaluate it",
        ),
    ] {
        let study = format!(
            "title = \"T\"\n[[question]]\ntitle = \"Q\"\n[[question.block]]\nkind = \"aggregate\"\nexperiment = \"toy\"\nderive = {derive}\ngroup = \"variant\"\nmetrics = [\"length\"]\n"
        );
        let study = parse_toy(&study).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let e = searchlab::report::render(&[study], &tables(), &Functions::default(), dir.path())
            .unwrap_err();
        assert!(searchlab::util::error::is_user_error(&e), "{e}");
        let e = e.to_string();
        assert!(e.starts_with(says) && !e.contains('\n'), "{e}");
    }
}
