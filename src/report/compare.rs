//! `searchlab compare DIR --by COLUMN --metric METRIC [--minimize] [--where K=V]`: the
//! ranking of a study's comparison block for any finished experiment, printed as a
//! markdown table, with its ranking chart and box plot written beside the tables.

use super::blocks::Renderer;
use super::study::{Block, BlockKind, Columns};
use crate::pipeline::metrics::Better;
use crate::present::facts::Facts;
use std::collections::BTreeMap;
use std::path::Path;

/// Builds the comparison block the flags describe.
fn block(
    by: &[String],
    metric: &str,
    better: Option<Better>,
    filter: &[String],
    paired: &[String],
) -> anyhow::Result<Block> {
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
    let text =
        format!("kind = \"compare\"\nexperiment = \"e\"\nmetric = {metric:?}\ngroup = {by:?}");
    let mut b: Block = toml::from_str(&text).map_err(|e| crate::user_error!("{e}"))?;
    b.better = better;
    b.filter = filter_table;
    if !paired.is_empty() {
        b.paired = Some(Columns::Many(paired.to_vec()));
    }
    Ok(b)
}

/// Ranks the experiment in `dir`; returns the markdown printed.
pub fn run(
    dir: &Path,
    by: &[String],
    metric: &str,
    better: Option<Better>,
    filter: &[String],
    paired: &[String],
) -> anyhow::Result<String> {
    let path = dir.join("results.parquet");
    if !path.exists() {
        crate::user_bail!(
            "{}: no results table (run the experiment first: searchlab run CONFIG)",
            path.display()
        );
    }
    let results = crate::pipeline::table::read_parquet(&path)?;
    let mut names = vec![metric.to_string()];
    names.extend(by.iter().cloned());
    names.extend(paired.iter().cloned());
    names.extend(
        filter
            .iter()
            .filter_map(|f| f.split_once('=').map(|(k, _)| k.trim().to_string())),
    );
    let cols: Vec<&str> = names.iter().map(String::as_str).collect();
    crate::present::outputs::check_columns(&results, &cols)
        .map_err(|e| crate::user_error!("{}: {e}", path.display()))?;
    let mut tables = super::blocks::Tables::default();
    tables.results.insert("e".into(), results);
    tables
        .anytime
        .insert("e".into(), polars::prelude::DataFrame::empty());
    let config = crate::pipeline::config::parse(
        "[experiment]\ndomain = \"any\"\nalgorithm = \"any\"\n",
        "compare",
        &[],
    )?;
    tables.configs.insert("e".into(), config);
    let functions = crate::domain::Functions::default();
    let renderer = Renderer {
        tables: &tables,
        functions: &functions,
        figures: dir.to_path_buf(),
    };
    let stem = format!("compare_{metric}_by_{}", by.join("_"));
    let mut facts = Facts::default();
    let mut b = block(by, metric, better, filter, paired)?;
    let table = renderer
        .block(&b, &stem, &mut facts)
        .map_err(|e| crate::user_error!("{}", crate::util::error::one_line(&e)))?;
    for (kind, suffix) in [(BlockKind::Interval, "ranking"), (BlockKind::Box, "box")] {
        b.kind = kind;
        b.paired = None;
        b.name = Some(format!("{stem}_{suffix}"));
        b.title = Some(format!("{metric} by {}", by.join(", ")));
        renderer.block(&b, &stem, &mut facts)?;
    }
    Ok(format!(
        "{table}\nFigures: {}/{stem}_ranking.png, {}/{stem}_box.png\n",
        dir.display(),
        dir.display()
    ))
}
