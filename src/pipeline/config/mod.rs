//! Experiment configs: one TOML file per experiment, read into a checked [`Config`].
//!
//! A config names the domain and the algorithm (or one per variant), fixed parameters, a
//! sweep (a grid of lists or ranges), optional variants (each its own algorithm,
//! parameters and sweep, for comparing families such as annealing schedules or whole
//! methods), replicate seeds, and the tables and plots the experiment produces.
//! `--set KEY=VALUE` overrides any key. Every value keeps where it came from, so an error
//! names the file and line, or the `--set` that gave it.
//!
//! This module holds the model; [`parse()`] (of [`mod@parse`]) reads the file, [`ranges`] expands sweep axes
//! and [`overrides`] applies `--set`. The `[[table]]` and `[[plot]]` sections are read
//! here as declarations (names, columns, filters as written) and interpreted by
//! presentation; the `[tune]` section is kept as written for the tuner to read.
//!
//! ```toml
//! [experiment]
//! domain = "rjm"
//! algorithm = "anneal"
//! threads_per_run = 1     # 0: each run on all the worker threads, one at a time
//! variant_label = "schedule"   # what the variants are, on axes and legends
//! [params]
//! iterations = 10000
//! [sweep]
//! initial_temperature = [0.5, 1, 2]
//! decay = { start = 0.99, stop = 0.9999, num = 3, scale = "log" }
//! [replicates]
//! count = 100
//! base_seed = 1
//! ```

pub mod overrides;
pub mod parse;
pub mod ranges;

use crate::pipeline::params::Value;
use serde::Deserialize;
use std::collections::BTreeMap;

pub use parse::{load, load_named, parse, resolve};

/// Where a value came from, for error messages.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    File { path: String, line: usize },
    Set(String),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::File { path, line } => write!(f, "{path}:{line}"),
            Origin::Set(s) => write!(f, "--set {s}"),
        }
    }
}

/// A config value and its origin.
#[derive(Debug, Clone, PartialEq)]
pub struct Located<T> {
    pub value: T,
    pub origin: Origin,
}

/// One sweep axis: the values a parameter takes.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    pub name: String,
    pub values: Vec<Located<Value>>,
}

/// Algorithm, parameters and sweep of one variant (an experiment without variants has
/// one, named "").
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    pub name: String,
    /// Its algorithm: its own, or the experiment's.
    pub algorithm: Option<Located<String>>,
    pub params: BTreeMap<String, Located<Value>>,
    pub sweep: Vec<Axis>,
}

/// A summary table the experiment writes: per group, count, median, quartiles, mean and
/// a 95% interval of each metric.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    pub name: String,
    pub group_by: Vec<String>,
    pub metrics: Vec<String>,
    /// Keep only the rows whose columns take these values (as a study's `where`).
    #[serde(rename = "where", default)]
    pub filter: BTreeMap<String, toml::Value>,
    /// The line it starts on, set on loading.
    #[serde(skip)]
    pub line: usize,
}

/// A figure the experiment draws, as written: presentation interprets the kind and the
/// filter (the same kinds and code as a study's figure blocks).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlotSpec {
    pub name: String,
    pub kind: String,
    #[serde(default)]
    pub x: Option<String>,
    pub y: String,
    #[serde(default)]
    pub group: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub log_x: bool,
    #[serde(default)]
    pub log_y: bool,
    /// Keep only the rows whose columns take these values.
    #[serde(rename = "where", default)]
    pub filter: BTreeMap<String, toml::Value>,
    /// The line it starts on, set on loading.
    #[serde(skip)]
    pub line: usize,
}

/// A section kept as written, for the module that owns it (`[tune]`).
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub value: toml::Value,
    /// The line it starts on.
    pub line: usize,
}

/// A checked experiment config.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub name: String,
    pub description: String,
    pub domain: Located<String>,
    /// The algorithm of the variants that name none.
    pub algorithm: Option<Located<String>>,
    pub variants: Vec<Variant>,
    pub replicates: u64,
    pub base_seed: u64,
    /// `experiment.threads_per_run`: the worker threads each run searches on (0: all of
    /// them, one run at a time); runs that cannot search in parallel use one.
    pub threads_per_run: usize,
    /// `experiment.variant_label`: what the variants are (`method`), the words of the
    /// `variant` column on axes and legends.
    pub variant_label: Option<String>,
    pub tables: Vec<TableSpec>,
    pub plots: Vec<PlotSpec>,
    /// The `[tune]` section as written (read by `searchlab tune`).
    pub tune: Option<Section>,
    /// Where it was read from.
    pub source: String,
    /// The file's text with overrides applied, as TOML, for the manifest.
    pub resolved: toml::Table,
    /// The file's text and the `--set` overrides as given: [`parse()`] of these (with
    /// `source`) gives this config again, which is how `merge` rebuilds a shard's plan.
    pub text: String,
    pub overrides: Vec<String>,
}

/// The largest replicate count a config may ask for.
pub const MAX_REPLICATES: u64 = 1_000_000;

/// The most runs one experiment may plan (variants × sweep points × replicates). The
/// plan is counted before it is built, so a larger one is refused at once. A planned
/// run holds about 0.8 KB (its parameters, key and seed), so this plan takes under 1 GB
/// before anything runs (10 million, measured, took over 7 GB).
pub const MAX_RUNS: u64 = 1_000_000;

/// The most values one sweep axis may take, as a list or as a range.
pub const MAX_AXIS_VALUES: usize = 100_000;

/// The most threads a run may ask for.
pub const MAX_THREADS_PER_RUN: i64 = 1024;

/// A `threads_per_run` value, or what is wrong with it.
pub fn check_threads_per_run(t: i64) -> Result<usize, String> {
    if (0..=MAX_THREADS_PER_RUN).contains(&t) {
        Ok(t as usize)
    } else {
        Err(format!(
            "{t} is not a number of threads from 0 (all of --jobs) to {MAX_THREADS_PER_RUN}"
        ))
    }
}

/// The longest name of an experiment, plot, table, variant or study.
pub const MAX_NAME_CHARS: usize = 100;

/// Checks the name of an experiment, plot, table, variant or study (`kind`), which
/// becomes a file or folder name: 1 to [`MAX_NAME_CHARS`] letters, digits, `_`, `-` and
/// `.`, not starting with `.`. So no name can reach outside the output folder, be empty,
/// be hidden or be too long for the file system. `origin` is where it was given.
pub fn check_name(kind: &str, name: &str, origin: &str) -> anyhow::Result<()> {
    let problem = if name.is_empty() {
        Some("is empty")
    } else if name.chars().count() > MAX_NAME_CHARS {
        Some("is too long")
    } else if name.starts_with('.') {
        Some("starts with a dot")
    } else if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
    {
        Some("has a character other than letters, digits, _, - and .")
    } else {
        None
    };
    match problem {
        None => Ok(()),
        Some(p) => crate::user_bail!(
            "{origin}: the {kind} name {} {p} (a name is 1 to {MAX_NAME_CHARS} letters, digits, _, - or ., not starting with .)",
            crate::util::input::excerpt(name)
        ),
    }
}

impl Config {
    /// `file:line` of a line of the config's file.
    pub fn at(&self, line: usize) -> String {
        format!("{}:{line}", self.source)
    }

    /// The number of runs the plan will have (every variant's sweep points × replicates),
    /// counted without building it.
    pub fn run_count(&self) -> u128 {
        self.variants
            .iter()
            .map(|v| {
                v.sweep
                    .iter()
                    .fold(1u128, |n, a| n.saturating_mul(a.values.len() as u128))
            })
            .fold(0u128, |n, p| n.saturating_add(p))
            .saturating_mul(u128::from(self.replicates))
    }
}

/// A variant on top of the base: its parameters and axes replace the base's.
fn merge(base: &Variant, v: Variant) -> Variant {
    let mut params = base.params.clone();
    let mut sweep: Vec<Axis> = base
        .sweep
        .iter()
        .filter(|a| !v.params.contains_key(&a.name))
        .cloned()
        .collect();
    for axis in v.sweep {
        params.remove(&axis.name);
        sweep.retain(|a| a.name != axis.name);
        sweep.push(axis);
    }
    for (k, val) in v.params {
        params.insert(k, val);
    }
    Variant {
        name: v.name,
        algorithm: v.algorithm.or_else(|| base.algorithm.clone()),
        params,
        sweep,
    }
}

#[cfg(test)]
mod tests {
    use super::ranges::range;
    use super::*;

    const BASIC: &str = r#"[experiment]
domain = "rjm"
algorithm = "anneal"

[params]
iterations = 1000

[sweep]
initial_temperature = [0.5, 1, 2]
decay = { start = 0.9, stop = 0.99, num = 2 }

[replicates]
count = 3
base_seed = 7
"#;

    #[test]
    fn reads_params_sweeps_and_replicates() {
        let c = parse(BASIC, "configs/x.toml", &[]).unwrap();
        assert_eq!(c.name, "x");
        assert_eq!(c.replicates, 3);
        assert_eq!(c.base_seed, 7);
        let v = &c.variants[0];
        assert_eq!(v.params["iterations"].value, Value::Int(1000));
        assert_eq!(
            v.params["iterations"].origin.to_string(),
            "configs/x.toml:6"
        );
        let decay = v.sweep.iter().find(|a| a.name == "decay").unwrap();
        assert_eq!(
            decay
                .values
                .iter()
                .map(|l| l.value.clone())
                .collect::<Vec<_>>(),
            vec![Value::Float(0.9), Value::Float(0.99)]
        );
    }

    #[test]
    fn unknown_keys_and_wrong_types_name_the_line() {
        let text = BASIC.replace("count = 3", "count = 3\nseeds = 4");
        let err = parse(&text, "c.toml", &[]).unwrap_err().to_string();
        assert!(err.starts_with("c.toml:14:"), "{err}");
        assert!(err.contains("seeds"), "{err}");
        let text = BASIC.replace("count = 3", "count = \"three\"");
        let err = parse(&text, "c.toml", &[]).unwrap_err().to_string();
        assert!(err.starts_with("c.toml:13:"), "{err}");
        let err = parse(
            "[experiment]\ndomain = \"rjm\"\nalgorithm = \n",
            "c.toml",
            &[],
        )
        .unwrap_err()
        .to_string();
        assert!(err.starts_with("c.toml:3:"), "{err}");
        assert!(!err.contains('\n'));
    }

    #[test]
    fn a_config_may_say_what_its_variants_are() {
        assert_eq!(parse(BASIC, "c.toml", &[]).unwrap().variant_label, None);
        let text = BASIC.replace(
            "algorithm = \"anneal\"",
            "algorithm = \"anneal\"\nvariant_label = \"schedule\"",
        );
        let c = parse(&text, "c.toml", &[]).unwrap();
        assert_eq!(c.variant_label.as_deref(), Some("schedule"));
    }

    #[test]
    fn threads_per_run_is_one_unless_set_and_checked_where_it_is_set() {
        assert_eq!(parse(BASIC, "c.toml", &[]).unwrap().threads_per_run, 1);
        let text = BASIC.replace(
            "algorithm = \"anneal\"",
            "algorithm = \"anneal\"\nthreads_per_run = 0",
        );
        assert_eq!(parse(&text, "c.toml", &[]).unwrap().threads_per_run, 0);
        let set = ["experiment.threads_per_run=3".to_string()];
        let c = parse(&text, "c.toml", &set).unwrap();
        assert_eq!(c.threads_per_run, 3);
        assert_eq!(
            c.resolved["experiment"]["threads_per_run"].as_integer(),
            Some(3)
        );
        let bad = BASIC.replace(
            "algorithm = \"anneal\"",
            "algorithm = \"anneal\"\nthreads_per_run = -2",
        );
        let err = parse(&bad, "c.toml", &[]).unwrap_err().to_string();
        assert!(
            err.starts_with("c.toml:4: experiment.threads_per_run: -2 is not"),
            "{err}"
        );
        for set in [
            "experiment.threads_per_run=5000",
            "experiment.threads_per_run=two",
        ] {
            let err = parse(BASIC, "c.toml", &[set.into()])
                .unwrap_err()
                .to_string();
            assert!(err.starts_with(&format!("--set {set}: ")), "{err}");
        }
    }

    #[test]
    fn overrides_replace_params_and_axes() {
        let c = parse(
            BASIC,
            "c.toml",
            &[
                "params.initial_temperature=4".into(),
                "sweep.iterations=[10, 20]".into(),
                "replicates.count=5".into(),
            ],
        )
        .unwrap();
        let v = &c.variants[0];
        assert_eq!(v.params["initial_temperature"].value, Value::Int(4));
        assert_eq!(
            v.params["initial_temperature"].origin,
            Origin::Set("params.initial_temperature=4".into())
        );
        assert!(!v.params.contains_key("iterations"));
        assert!(
            v.sweep
                .iter()
                .any(|a| a.name == "iterations" && a.values.len() == 2)
        );
        assert!(!v.sweep.iter().any(|a| a.name == "initial_temperature"));
        assert_eq!(c.replicates, 5);
        assert_eq!(c.resolved["replicates"]["count"].as_integer(), Some(5));
        let bare = parse(BASIC, "c.toml", &["params.schedule=linear".into()]).unwrap();
        assert_eq!(
            bare.variants[0].params["schedule"].value,
            Value::Str("linear".into())
        );
        let err = parse(BASIC, "c.toml", &["parms.x=1".into()])
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("--set parms.x=1: unknown key"), "{err}");
        assert!(parse(BASIC, "c.toml", &["replicates.count=0".into()]).is_err());
    }

    #[test]
    fn ranges_expand() {
        let t: toml::Table = toml::from_str("a = { start = 1, stop = 10, step = 3 }\nb = { start = 1, stop = 100, num = 3, scale = \"log\" }\nc = { start = 0.0, stop = 1.0, step = 0.25 }").unwrap();
        let ints = |v: Vec<Value>| v.iter().map(|x| x.as_f64().unwrap()).collect::<Vec<_>>();
        assert_eq!(
            ints(range(t["a"].as_table().unwrap()).unwrap()),
            vec![1.0, 4.0, 7.0, 10.0]
        );
        assert_eq!(
            range(t["b"].as_table().unwrap()).unwrap(),
            vec![Value::Int(1), Value::Int(10), Value::Int(100)]
        );
        assert_eq!(
            ints(range(t["c"].as_table().unwrap()).unwrap()),
            vec![0.0, 0.25, 0.5, 0.75, 1.0]
        );
    }

    #[test]
    fn variants_merge_over_the_base() {
        let text = format!(
            "{BASIC}\n[[variant]]\nname = \"linear\"\nparams = {{ schedule = \"linear\", decay = 1.0 }}\n\n[[variant]]\nname = \"geo\"\nsweep = {{ decay = [0.5] }}\n"
        );
        let c = parse(&text, "c.toml", &[]).unwrap();
        assert_eq!(c.variants.len(), 2);
        let lin = &c.variants[0];
        assert_eq!(lin.params["schedule"].value, Value::Str("linear".into()));
        assert!(!lin.sweep.iter().any(|a| a.name == "decay"));
        let geo = &c.variants[1];
        assert_eq!(
            geo.sweep
                .iter()
                .find(|a| a.name == "decay")
                .unwrap()
                .values
                .len(),
            1
        );
        let over = parse(
            &text,
            "c.toml",
            &["variant.linear.sweep.initial_temperature=[7]".into()],
        )
        .unwrap();
        let lin = &over.variants[0];
        assert_eq!(
            lin.sweep
                .iter()
                .find(|a| a.name == "initial_temperature")
                .unwrap()
                .values[0]
                .value,
            Value::Int(7)
        );
        assert_eq!(
            over.variants[1]
                .sweep
                .iter()
                .find(|a| a.name == "initial_temperature")
                .unwrap()
                .values
                .len(),
            3
        );
        assert!(
            parse(&text, "c.toml", &["variant.cubic.params.x=1".into()])
                .unwrap_err()
                .to_string()
                .contains("no variant named")
        );
        let dup = format!("{BASIC}\n[[variant]]\nname = \"a\"\n[[variant]]\nname = \"a\"\n");
        assert!(
            parse(&dup, "c.toml", &[])
                .unwrap_err()
                .to_string()
                .contains("two variants")
        );
    }

    fn err(text: &str, sets: &[&str]) -> String {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        let e = parse(text, "c.toml", &sets).unwrap_err();
        assert!(crate::util::error::is_user_error(&e), "{e}");
        assert!(!e.to_string().contains('\n'));
        e.to_string()
    }

    #[test]
    fn names_are_plain_file_names() {
        for bad in [
            "../../escaped_exp",
            "/tmp/x",
            "",
            ".hidden",
            "a/b",
            "a b",
            "é",
        ] {
            let text = BASIC.replace("[experiment]\n", &format!("[experiment]\nname = {bad:?}\n"));
            let e = err(&text, &[]);
            assert!(
                e.starts_with("c.toml:2: the experiment name"),
                "{bad:?}: {e}"
            );
        }
        let long = "x".repeat(100_000);
        let e = err(BASIC, &[&format!("experiment.name={long}")]);
        assert!(e.contains("is too long") && e.len() < 300, "{e}");
        let e = err(BASIC, &["experiment.name=../../x"]);
        assert!(
            e.starts_with("--set experiment.name=../../x: the experiment name"),
            "{e}"
        );
        let plot =
            format!("{BASIC}\n[[plot]]\nname = \"../../../../tmp/x\"\nkind = \"box\"\ny = \"a\"\n");
        assert!(
            err(&plot, &[]).starts_with("c.toml:16: the plot name"),
            "{}",
            err(&plot, &[])
        );
        let table = format!("{BASIC}\n[[table]]\nname = \"\"\ngroup_by = []\nmetrics = []\n");
        assert!(err(&table, &[]).contains("the table name \"\" is empty"));
        let variant = format!("{BASIC}\n[[variant]]\nname = \"a/b\"\n");
        assert!(err(&variant, &[]).starts_with("c.toml:17: the variant name"));
        assert!(
            parse(
                &BASIC.replace("[experiment]\n", "[experiment]\nname = \"ok-1.v2_x\"\n"),
                "c.toml",
                &[]
            )
            .is_ok()
        );
    }

    #[test]
    fn a_second_table_or_plot_of_the_same_name_is_refused() {
        let t = "\n[[table]]\nname = \"t\"\ngroup_by = []\nmetrics = [\"a\"]\n";
        let e = err(&format!("{BASIC}{t}{t}"), &[]);
        assert!(
            e.starts_with("c.toml:21: a second table is named \"t\""),
            "{e}"
        );
        let p = "\n[[plot]]\nname = \"p\"\nkind = \"box\"\nx = \"b\"\ny = \"a\"\n";
        let e = err(&format!("{BASIC}{p}{p}"), &[]);
        assert!(e.contains("a second plot is named \"p\""), "{e}");
    }

    #[test]
    fn absurd_plans_are_refused_before_they_are_built() {
        let two = "[experiment]\ndomain = \"rjm\"\nalgorithm = \"anneal\"\n[sweep]\na = { start = 1, stop = 100000, step = 1 }\nb = { start = 1, stop = 100000, step = 1 }\n";
        let started = std::time::Instant::now();
        let e = err(two, &[]);
        assert!(e.contains("the plan has 10000000000 runs"), "{e}");
        let e = err(
            "[experiment]\ndomain = \"rjm\"\nalgorithm = \"anneal\"\n[sweep]\na = { start = 1, stop = 100000, step = 1 }\n",
            &["replicates.count=1000000"],
        );
        assert!(e.contains("100000000000 runs"), "{e}");
        let at_limit =
            "[experiment]\ndomain = \"rjm\"\nalgorithm = \"anneal\"\n[sweep]\na = [1, 2]\n";
        assert!(parse(at_limit, "c.toml", &["replicates.count=500000".into()]).is_ok());
        let e = err(at_limit, &["replicates.count=500001"]);
        assert!(e.contains("the plan has 1000002 runs"), "{e}");
        let list = format!(
            "[experiment]\ndomain = \"rjm\"\nalgorithm = \"anneal\"\n[sweep]\na = [{}]\n",
            vec!["1"; 200_000].join(",")
        );
        let e = err(&list, &[]);
        assert!(e.contains("the list has 200000 values"), "{e}");
        assert!(started.elapsed().as_secs() < 10);
    }

    #[test]
    fn ranges_say_what_is_wrong() {
        let with = |r: &str| BASIC.replace("{ start = 0.9, stop = 0.99, num = 2 }", r);
        let e = err(&with("{ start = 0.9, stop = nan, step = 0.01 }"), &[]);
        assert!(e.contains("stop = NaN is not a finite number"), "{e}");
        let e = err(&with("{ start = 0.9, stop = inf, step = 0.01 }"), &[]);
        assert!(e.contains("stop = inf is not a finite number"), "{e}");
        let e = err(&with("{ start = 0.9, stop = 0.99, step = 1e-300 }"), &[]);
        assert!(e.contains("more than the 100000"), "{e}");
        let e = err(
            &with("{ start = -9223372036854775808, stop = 9223372036854775807, step = 1 }"),
            &[],
        );
        assert!(e.contains("18446744073709551616 values"), "{e}");
        let e = err(&with("{ start = -1e308, stop = 1e308, num = 3 }"), &[]);
        assert!(e.contains("too wide"), "{e}");
    }

    #[test]
    fn a_set_value_that_looks_like_toml_must_be_toml() {
        let e = err(BASIC, &["sweep.decay=[0.9,"]);
        assert!(
            e.starts_with("--set sweep.decay=[0.9,: the value \"[0.9,\" is not valid TOML"),
            "{e}"
        );
        let long = format!("params.x=[{}", "1,".repeat(50_000));
        assert!(err(BASIC, &[&long]).len() < 400);
    }
}
