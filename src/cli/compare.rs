//! `searchlab compare DIR... --by COLUMN --metric METRIC [--minimize] [--where K=V]`:
//! the ranking of a study's comparison block for any finished experiments (read
//! together, with an `experiment` column) or tunings' held-out runs, printed as a
//! markdown table, with its ranking chart and box plot written beside the first
//! folder's tables. The direction is the metric's declaration unless a flag says.

use crate::pipeline::metrics::Better;
use crate::pipeline::metrics::MetricSpec;
use crate::present::facts::Facts;
use crate::report::blocks::Renderer;
use crate::study::block::{BoxFigure, CompareTable, IntervalFigure, Read};
use crate::study::{Block, Columns, Kind};
use polars::prelude::DataFrame;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What the compare, ranking and box blocks of the flags read: the experiments, the
/// filter, and a name for their figures.
fn reading(filter: &[String], experiments: Vec<String>, name: &str) -> anyhow::Result<Read> {
    let mut filter_table = BTreeMap::new();
    for f in filter {
        let Some((k, v)) = f.split_once('=') else {
            crate::user_bail!("--where {f}: expected KEY=VALUE");
        };
        let values: Vec<toml::Value> = v
            .split(',')
            .map(|x| toml::Value::String(x.trim().to_string()))
            .collect();
        filter_table.insert(k.trim().to_string(), toml::Value::Array(values));
    }
    Ok(Read {
        experiment: Some(Columns::Many(experiments)),
        filter: filter_table,
        name: Some(name.to_string()),
        ..Read::default()
    })
}

/// A block of `kind` reading `read`.
fn block(read: &Read, kind: Kind) -> Block {
    Block {
        read: read.clone(),
        look: Default::default(),
        frame: Default::default(),
        kind,
        line: 0,
    }
}

/// The question `compare` answers: the folders, the grouping, the metric, the filter.
pub struct Query<'a> {
    /// Experiment folders (`outputs/NAME`) or tunings' (`outputs/NAME/tune`).
    pub dirs: &'a [PathBuf],
    pub by: &'a [String],
    pub metric: &'a str,
    /// Which way is better; default: the metric's declaration.
    pub better: Option<Better>,
    pub filter: &'a [String],
    pub paired: &'a [String],
}

/// A metric's declaration for a domain's algorithm, from the registry.
pub type MetricLookup<'a> = &'a dyn Fn(&str, &str, &str) -> Option<&'static MetricSpec>;

/// One folder's table: an experiment's results, or a tuning's held-out results (named
/// `NAME/tuned`).
fn read_folder(dir: &Path) -> anyhow::Result<(String, DataFrame)> {
    let name = |p: &Path| {
        p.file_name()
            .map_or("experiment".into(), |n| n.to_string_lossy().into_owned())
    };
    let results = dir.join("results.parquet");
    let heldout = dir.join("heldout.parquet");
    if results.is_file() {
        return Ok((name(dir), crate::pipeline::table::read_parquet(&results)?));
    }
    if heldout.is_file() {
        let experiment = dir.parent().map_or("experiment".into(), name);
        let df = crate::pipeline::table::read_parquet(&heldout)?;
        return Ok((format!("{experiment}/tuned"), df));
    }
    crate::user_bail!(
        "{}: no results table (an experiment's folder holds results.parquet, a tuning's heldout.parquet: run it first)",
        dir.display()
    )
}

/// The metric declarations of a table's rows (by its domain and algorithm columns);
/// every table must be of one domain.
fn declarations(
    tables: &[(String, DataFrame)],
    metric: &str,
    lookup: MetricLookup,
) -> anyhow::Result<Vec<&'static MetricSpec>> {
    let mut domain: Option<String> = None;
    let mut out = Vec::new();
    for (name, df) in tables {
        let domains = crate::pipeline::table::texts(df, "domain").unwrap_or_default();
        let algorithms = crate::pipeline::table::texts(df, "algorithm").unwrap_or_default();
        for (d, a) in domains.iter().zip(&algorithms) {
            match &domain {
                Some(x) if x != d => crate::user_bail!(
                    "{name} is of domain {d}, the other tables of {x}: compare tables of one domain"
                ),
                _ => domain = Some(d.clone()),
            }
            if let Some(m) = lookup(d, a, metric)
                && !out.contains(&m)
            {
                out.push(m);
            }
        }
    }
    Ok(out)
}

/// Ranks the groups of the experiments in `q.dirs`, read together; returns the markdown
/// printed. The ranking chart and box plot are written beside the first folder's tables.
pub fn run(q: &Query, lookup: MetricLookup) -> anyhow::Result<String> {
    let read: Vec<(String, DataFrame)> = q
        .dirs
        .iter()
        .map(|d| read_folder(d))
        .collect::<anyhow::Result<_>>()?;
    let mut names = vec![q.metric.to_string()];
    names.extend(q.by.iter().filter(|c| *c != "experiment").cloned());
    names.extend(q.paired.iter().cloned());
    names.extend(
        q.filter
            .iter()
            .filter_map(|f| f.split_once('=').map(|(k, _)| k.trim().to_string())),
    );
    let cols: Vec<&str> = names.iter().map(String::as_str).collect();
    for (dir, (_, df)) in q.dirs.iter().zip(&read) {
        crate::present::outputs::check_columns(df, &cols)
            .map_err(|e| crate::user_error!("{}: {e}", dir.display()))?;
    }
    let mut tables = crate::report::blocks::Tables::default();
    let config = crate::pipeline::config::parse(
        "[experiment]\ndomain = \"any\"\nalgorithm = \"any\"\n",
        "compare",
        &[],
    )?;
    let specs = declarations(&read, q.metric, lookup)?;
    for (name, df) in &read {
        let config_name = name.split('/').next().unwrap_or(name).to_string();
        tables.results.insert(name.clone(), df.clone());
        tables.anytime.insert(name.clone(), DataFrame::empty());
        tables.configs.insert(config_name.clone(), config.clone());
        tables.metrics.insert(config_name, specs.clone());
    }
    let functions = crate::domain::Functions::default();
    let figures = q.dirs[0].clone();
    let renderer = Renderer {
        tables: &tables,
        functions: &functions,
        figures: figures.clone(),
        link: ".".into(),
        styles: &crate::present::plot::StyleBook::default(),
    };
    let experiments: Vec<String> = read.iter().map(|(n, _)| n.clone()).collect();
    let stem = short_name(&format!(
        "compare_{}_by_{}{}",
        q.metric,
        q.by.join("_"),
        filter_suffix(q.filter)
    ));
    let mut facts = Facts::default();
    let group = Some(Columns::Many(q.by.to_vec()));
    let metric = Some(q.metric.to_string());
    let compare = CompareTable {
        metric: metric.clone(),
        group: group.clone(),
        better: q.better,
        missing: None,
        paired: (!q.paired.is_empty()).then(|| Columns::Many(q.paired.to_vec())),
        best_of: None,
        top: None,
        digits: None,
        show: true,
    };
    let b = block(
        &reading(q.filter, experiments.clone(), &stem)?,
        Kind::Compare(compare),
    );
    let table = renderer
        .block(&b, &stem, &mut facts)
        .map_err(|e| crate::user_error!("{}", crate::util::error::one_line(&e)))?;
    let interval = Kind::Interval(IntervalFigure {
        x: None,
        metric: metric.clone(),
        group: group.clone(),
        better: q.better,
        missing: None,
        paired: (!q.paired.is_empty()).then(|| Columns::Many(q.paired.to_vec())),
    });
    let boxes = Kind::Box(BoxFigure {
        x: None,
        metric,
        group,
        missing: None,
    });
    for (kind, suffix) in [(interval, "ranking"), (boxes, "box")] {
        let b = block(
            &reading(q.filter, experiments.clone(), &format!("{stem}_{suffix}"))?,
            kind,
        );
        renderer.block(&b, &stem, &mut facts)?;
    }
    Ok(format!(
        "{table}\nFigures: {}/{stem}_ranking.png, {}/{stem}_box.png\n",
        figures.display(),
        figures.display()
    ))
}

/// `_where_size-7_budget-10-100` for `--where size=7 --where budget=10,100`: filtered
/// comparisons get figures of their own names (letters, digits, `.`, `-` and `_` only).
fn filter_suffix(filter: &[String]) -> String {
    filter
        .iter()
        .map(|f| {
            let words: String = f
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
                        c
                    } else {
                        '-'
                    }
                })
                .collect();
            let words: Vec<&str> = words.split('-').filter(|w| !w.is_empty()).collect();
            format!("_{}", words.join("-"))
        })
        .fold(String::new(), |acc, part| {
            if acc.is_empty() {
                format!("_where{part}")
            } else {
                acc + &part
            }
        })
}

/// A figure's file name from the arguments, kept to 100 characters: a longer one is cut
/// and given a hash of the whole, so that different arguments keep different files.
fn short_name(name: &str) -> String {
    if name.len() <= 100 {
        return name.to_string();
    }
    let hash = crate::util::rng::fnv1a(name.as_bytes());
    let cut: String = name.chars().take(80).collect();
    format!("{cut}_{hash:016x}")
}

#[cfg(test)]
mod filter_name_tests {
    #[test]
    fn filters_name_the_figures() {
        assert_eq!(super::filter_suffix(&[]), "");
        let f = ["size=7".to_string(), "budget = 10, 100".to_string()];
        assert_eq!(super::filter_suffix(&f), "_where_size-7_budget-10-100");
        let long = format!("compare_m_by_{}", "x_".repeat(200));
        let short = super::short_name(&long);
        assert_eq!(short.len(), 97);
        assert_ne!(short, super::short_name(&format!("{long}y")));
        assert_eq!(super::short_name("compare_m_by_v"), "compare_m_by_v");
    }
}
