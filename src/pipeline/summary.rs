//! An experiment's own outputs beyond its tables: the summary tables and plots its
//! config asks for, computed from the results it wrote.

use crate::pipeline::config::{Config, PlotKind, PlotSpec, TableSpec};
use crate::pipeline::params::Value;
use crate::pipeline::table::{ColumnBuilder, floats, frame, groups, read_parquet, write_both};
use crate::present::charts;
use crate::present::plot::save;
use crate::present::stats::Summary;
use polars::prelude::DataFrame;
use std::path::Path;

/// Per group of `group_by`: for each metric its count, median, quartiles, mean and a 95%
/// bootstrap interval of the median.
pub fn summarize(df: &DataFrame, group_by: &[&str], metrics: &[&str]) -> anyhow::Result<DataFrame> {
    let mut cols: Vec<ColumnBuilder> = group_by.iter().map(|g| ColumnBuilder::new(g)).collect();
    let stats = ["n", "median", "q1", "q3", "mean", "ci_low", "ci_high"];
    for m in metrics {
        for s in stats {
            cols.push(ColumnBuilder::new(&format!("{m}_{s}")));
        }
    }
    for (labels, part) in groups(df, group_by)? {
        let mut row: Vec<Value> = labels.into_iter().map(Value::Str).collect();
        for m in metrics {
            let xs: Vec<f64> = floats(&part, m)?.into_iter().flatten().collect();
            match Summary::of(&xs) {
                Some(s) => row.extend([
                    Value::from(s.n),
                    s.median.into(),
                    s.q1.into(),
                    s.q3.into(),
                    s.mean.into(),
                    s.ci_low.into(),
                    s.ci_high.into(),
                ]),
                None => row.extend(std::iter::repeat_n(Value::Null, stats.len())),
            }
        }
        for (c, v) in cols.iter_mut().zip(row) {
            c.push(v);
        }
    }
    frame(cols)
}

/// Writes the summary tables and plots the config asks for, from the tables in `dir`.
pub fn write_outputs(config: &Config, dir: &Path) -> anyhow::Result<()> {
    if config.tables.is_empty() && config.plots.is_empty() {
        return Ok(());
    }
    let results = read_parquet(&dir.join("results.parquet"))?;
    for t in &config.tables {
        write_table(&results, t, dir, &config.source)?;
    }
    for p in &config.plots {
        let df = if p.kind == PlotKind::Anytime {
            read_parquet(&dir.join("anytime.parquet"))?
        } else {
            results.clone()
        };
        draw(&df, p, &dir.join(&p.name), &config.source)?;
    }
    Ok(())
}

fn check_columns(df: &DataFrame, names: &[&str], what: &str, source: &str) -> anyhow::Result<()> {
    for n in names {
        if !crate::pipeline::table::has_column(df, n) {
            let known: Vec<String> = df
                .get_column_names()
                .iter()
                .map(|c| c.to_string())
                .collect();
            crate::user_bail!(
                "{source}: {what} names column {n:?}, which the results do not have (columns: {})",
                known.join(", ")
            );
        }
    }
    Ok(())
}

fn write_table(results: &DataFrame, t: &TableSpec, dir: &Path, source: &str) -> anyhow::Result<()> {
    let by: Vec<&str> = t.group_by.iter().map(String::as_str).collect();
    let metrics: Vec<&str> = t.metrics.iter().map(String::as_str).collect();
    check_columns(results, &by, &format!("table {:?}", t.name), source)?;
    check_columns(results, &metrics, &format!("table {:?}", t.name), source)?;
    let mut df = summarize(results, &by, &metrics)?;
    write_both(&mut df, dir, &format!("summary_{}", t.name))
}

/// Draws one configured plot to `<stem>.png` and `.svg`.
pub fn draw(df: &DataFrame, p: &PlotSpec, stem: &Path, source: &str) -> anyhow::Result<()> {
    let what = format!("plot {:?}", p.name);
    let title = p.title.clone().unwrap_or_else(|| p.name.replace('_', " "));
    let need_x = || {
        p.x.as_deref()
            .ok_or_else(|| crate::user_error!("{source}: {what} ({:?}) needs x", p.kind))
    };
    let mut cols = vec![p.y.as_str()];
    cols.extend(p.x.as_deref());
    cols.extend(p.group.as_deref());
    if p.kind == PlotKind::Anytime {
        cols.retain(|c| *c != p.y.as_str());
    }
    check_columns(df, &cols, &what, source)?;
    match p.kind {
        PlotKind::Line => save(
            &charts::line(
                df,
                need_x()?,
                &p.y,
                p.group.as_deref(),
                &title,
                p.log_x,
                p.log_y,
            )?,
            stem,
        )?,
        PlotKind::Box => save(&charts::boxes(df, need_x()?, &p.y, &title)?, stem)?,
        PlotKind::Heatmap => {
            let y = p.group.as_deref().ok_or_else(|| {
                crate::user_error!("{source}: {what} (heatmap) needs group for its rows")
            })?;
            save(&charts::heatmap(df, need_x()?, y, &p.y, &title)?, stem)?
        }
        PlotKind::Histogram => save(
            &charts::histogram(df, &p.y, p.group.as_deref(), &title)?,
            stem,
        )?,
        PlotKind::Anytime => save(
            &charts::anytime(df, p.group.as_deref(), &title, &p.y)?,
            stem,
        )?,
    };
    Ok(())
}
