//! An experiment's own outputs beyond its tables: the summary tables and plots its
//! config asks for (`[[table]]`, `[[plot]]`), computed from the tables it just wrote with
//! the same filters, groupings and figure code as a study's blocks. Commands call
//! [`check`] before running an experiment (so a wrong column is an error before any
//! run) and [`write()`] after it.

use crate::pipeline::config::{Config, PlotSpec, TableSpec};
use crate::pipeline::params::Value;
use crate::pipeline::table::{ColumnBuilder, frame, write_both};
use crate::present::figure::{FigureKind, FigureSpec};
use crate::present::view::Filter;
use polars::prelude::DataFrame;
use std::path::Path;

/// Per group of `group_by`: for each metric its count, median, quartiles, mean and a 95%
/// bootstrap interval of the median.
pub fn summary_table(
    df: &DataFrame,
    group_by: &[String],
    metrics: &[String],
) -> anyhow::Result<DataFrame> {
    let mut cols: Vec<ColumnBuilder> = group_by.iter().map(|g| ColumnBuilder::new(g)).collect();
    let stats = ["n", "median", "q1", "q3", "mean", "ci_low", "ci_high"];
    for m in metrics {
        for s in stats {
            cols.push(ColumnBuilder::new(&format!("{m}_{s}")));
        }
    }
    let groups = crate::present::view::group_rows(df, group_by)?;
    for g in groups {
        let mut row: Vec<Value> = g.values.iter().cloned().map(Value::Str).collect();
        for m in metrics {
            let sample = crate::present::view::sample(&g.rows, m, None)?;
            match crate::stats::Summary::of(&sample) {
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

/// The figure a `[[plot]]` draws; the error says what is wrong with it.
pub fn figure_of(p: &PlotSpec, plan: &crate::pipeline::plan::Plan) -> Result<FigureSpec, String> {
    let kind = FigureKind::from_name(&p.kind)?;
    let filter = Filter::from_toml(&p.filter)?;
    let mut spec = FigureSpec {
        x: p.x.clone(),
        group: p.group.iter().cloned().collect(),
        title: p.title.clone().unwrap_or_default(),
        log_x: p.log_x,
        log_y: p.log_y,
        better: plan.metric(&p.y).and_then(|m| m.better),
        words: crate::present::words::Words::of_plan(plan),
        ..FigureSpec::new(kind, &p.y)
    };
    spec.check()?;
    if spec.title.trim().is_empty() {
        spec.title = spec.derived_title(&crate::present::figure::filter_words(&filter));
    }
    Ok(spec)
}

/// Writes the summary tables and plots the config asks for.
pub fn write(
    config: &Config,
    plan: &crate::pipeline::plan::Plan,
    results: &DataFrame,
    anytime: &DataFrame,
    dir: &Path,
) -> anyhow::Result<()> {
    let at = |line: usize| format!("{}:{line}", config.source);
    for t in &config.tables {
        write_table(results, t, dir).map_err(|e| located(e, &at(t.line)))?;
    }
    for p in &config.plots {
        let spec = figure_of(p, plan)
            .map_err(|e| crate::user_error!("{}: plot {:?}: {e}", at(p.line), p.name))?;
        let filter = Filter::from_toml(&p.filter).map_err(anyhow::Error::msg)?;
        let rows = filter.apply(if spec.kind.uses_anytime() {
            anytime
        } else {
            results
        })?;
        check_columns(&rows, &spec.columns())
            .map_err(|e| crate::user_error!("{}: plot {:?}: {e}", at(p.line), p.name))?;
        let fig = crate::present::figure::build(&spec, &rows)?;
        let print = spec.print(fig.panels());
        crate::present::plot::save_printed(&fig, &dir.join(&p.name), Some(&print))?;
    }
    Ok(())
}

fn located(e: anyhow::Error, at: &str) -> anyhow::Error {
    if crate::util::error::is_user_error(&e) {
        crate::user_error!("{at}: {e}")
    } else {
        e
    }
}

/// Checks, before anything runs, that every column the config's tables and plots name
/// is one the experiment's tables will have.
pub fn check(config: &Config, plan: &crate::pipeline::plan::Plan) -> anyhow::Result<()> {
    let results = plan.columns();
    let anytime = plan.anytime_columns();
    let unknown = |names: &[&str], known: &[&str]| -> Result<(), String> {
        match names.iter().find(|n| !known.contains(n)) {
            Some(n) => Err(format!(
                "unknown column {n:?} (columns: {})",
                known.join(", ")
            )),
            None => Ok(()),
        }
    };
    for t in &config.tables {
        Filter::from_toml(&t.filter).map_err(|e| {
            crate::user_error!("{}:{}: table {:?}: {e}", config.source, t.line, t.name)
        })?;
        let mut names: Vec<&str> = t.group_by.iter().map(String::as_str).collect();
        names.extend(t.metrics.iter().map(String::as_str));
        names.extend(t.filter.keys().map(String::as_str));
        unknown(&names, &results).map_err(|e| {
            crate::user_error!("{}:{}: table {:?}: {e}", config.source, t.line, t.name)
        })?;
    }
    for p in &config.plots {
        let spec = figure_of(p, plan).map_err(|e| {
            crate::user_error!("{}:{}: plot {:?}: {e}", config.source, p.line, p.name)
        })?;
        let known = if spec.kind.uses_anytime() {
            &anytime
        } else {
            &results
        };
        let mut names = spec.columns();
        names.extend(p.filter.keys().map(String::as_str));
        unknown(&names, known).map_err(|e| {
            crate::user_error!("{}:{}: plot {:?}: {e}", config.source, p.line, p.name)
        })?;
    }
    Ok(())
}

/// An error naming the first column the rows do not have.
pub fn check_columns(df: &DataFrame, names: &[&str]) -> Result<(), String> {
    for n in names {
        if !crate::pipeline::table::has_column(df, n) {
            let known: Vec<String> = df
                .get_column_names()
                .iter()
                .map(|c| c.to_string())
                .collect();
            let near = crate::util::suggest::did_you_mean(n, known.iter().map(String::as_str));
            return Err(match near.is_empty() {
                true => format!(
                    "unknown column {} (columns: {})",
                    crate::util::input::excerpt(n),
                    known.join(", ")
                ),
                false => format!("unknown column {}{near}", crate::util::input::excerpt(n)),
            });
        }
    }
    Ok(())
}

fn write_table(results: &DataFrame, t: &TableSpec, dir: &Path) -> anyhow::Result<()> {
    let filter = Filter::from_toml(&t.filter).map_err(anyhow::Error::msg)?;
    let rows = filter.apply(results)?;
    let mut names: Vec<&str> = t.group_by.iter().map(String::as_str).collect();
    names.extend(t.metrics.iter().map(String::as_str));
    check_columns(&rows, &names).map_err(|e| crate::user_error!("table {:?}: {e}", t.name))?;
    let mut df = summary_table(&rows, &t.group_by, &t.metrics)?;
    write_both(&mut df, dir, &format!("summary_{}", t.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_follow_groups_in_display_order() {
        let mut g = ColumnBuilder::new("k");
        let mut y = ColumnBuilder::new("y");
        for (k, v) in [(10, 1.0), (2, 5.0), (10, 3.0), (2, 7.0)] {
            g.push(Value::Int(k));
            y.push(Value::Float(v));
        }
        let df = frame(vec![g, y]).unwrap();
        let s = summary_table(&df, &["k".into()], &["y".into()]).unwrap();
        assert_eq!(
            crate::pipeline::table::texts(&s, "k").unwrap(),
            vec!["2", "10"]
        );
        assert_eq!(
            crate::pipeline::table::floats(&s, "y_median").unwrap(),
            vec![Some(6.0), Some(2.0)]
        );
    }
}
