//! Rendering a study's blocks to markdown, in order, each from the rows its filter keeps:
//! figures (saved under `figures/`), summary, aggregate, pivot and row tables,
//! comparisons, domain facts and board pictures, and text templates. Every block that
//! computes values adds them to the question's facts, which later templates quote.

use super::markdown::table;
use super::study::{Aggregate, Block, BlockKind};
use crate::domain::Functions;
use crate::pipeline::config::Config;
use crate::pipeline::metrics::{Better, MetricSpec};
use crate::pipeline::table::{floats, texts};
use crate::present::charts::ordered_values;
use crate::present::compare::{self, Pairing};
use crate::present::facts::{FactInput, Facts, fill, trimmed};
use crate::present::figure::{AnyFigure, FigureSpec};
use crate::present::plot::save;
use crate::present::runtime;
use crate::present::view::{Filter, group_rows, none_for_null, summarize};
use crate::util::numfmt::thousands;
use polars::prelude::DataFrame;
use std::collections::HashMap;
use std::path::PathBuf;

/// The finished experiments' tables and configs, read once, and the declarations of
/// their metrics.
#[derive(Default)]
pub struct Tables {
    pub results: HashMap<String, DataFrame>,
    pub anytime: HashMap<String, DataFrame>,
    pub configs: HashMap<String, Config>,
    /// The `[tune]` sections of the configs that have one.
    pub tunes: HashMap<String, crate::tune::spec::TuneSpec>,
    /// Each experiment's metric declarations, by experiment.
    pub metrics: HashMap<String, Vec<&'static MetricSpec>>,
}

impl Tables {
    /// Which way is better for `metric` of `experiment`: the block's `better`, else the
    /// metric's declaration; the anytime table's best-so-far is an objective, minimised.
    pub fn better(
        &self,
        experiment: &str,
        metric: &str,
        given: Option<Better>,
    ) -> anyhow::Result<Better> {
        if let Some(b) = given {
            return Ok(b);
        }
        if metric == "best_so_far" {
            return Ok(Better::Lower);
        }
        self.metrics
            .get(experiment)
            .and_then(|ms| ms.iter().find(|m| m.name == metric))
            .and_then(|m| m.better)
            .ok_or_else(|| {
                crate::user_error!(
                    "{metric} declares no direction: say better = \"higher\" or \"lower\""
                )
            })
    }
}

/// What a block selected: its experiment's rows after the filter, and its names.
struct Selected<'a> {
    experiment: String,
    results: DataFrame,
    config: &'a Config,
    /// The key of its table set ([`super::study::Source::key`]).
    table: String,
    filter: Filter,
    name: String,
    prefix: String,
}

/// Renders blocks into markdown.
pub struct Renderer<'a> {
    pub tables: &'a Tables,
    pub functions: &'a Functions,
    /// Where figures are saved; markdown links them as `figures/<name>.png`.
    pub figures: PathBuf,
}

impl Renderer<'_> {
    /// Renders one block. `id` names its figures when the block has no name.
    pub fn block(&self, b: &Block, id: &str, facts: &mut Facts) -> anyhow::Result<String> {
        if b.kind == BlockKind::Text {
            let text = b.text.as_deref().unwrap_or_default();
            return Ok(format!(
                "{}\n",
                fill(text.trim(), facts).map_err(anyhow::Error::msg)?
            ));
        }
        let experiment = b.experiment.as_deref().unwrap_or_default();
        let filter = Filter::from_toml(&b.filter).map_err(anyhow::Error::msg)?;
        let config = self
            .tables
            .configs
            .get(experiment)
            .ok_or_else(|| anyhow::anyhow!("experiment {experiment} was not run"))?;
        let table = b.source.key(experiment);
        let results = self.rows(&self.tables.results, &table, &filter)?;
        let name = b.name.clone().unwrap_or_else(|| id.to_string());
        if let Some(kind) = b.kind.figure() {
            let rows = if kind.uses_anytime() {
                self.rows(&self.tables.anytime, &table, &filter)?
            } else {
                results
            };
            let spec = FigureSpec {
                kind,
                x: b.x.clone(),
                metric: b
                    .metric
                    .clone()
                    .unwrap_or_else(|| "best objective so far".into()),
                group: b.group_list().first().cloned(),
                title: fill(b.title.as_deref().unwrap_or_default(), facts)
                    .map_err(anyhow::Error::msg)?,
                x_label: b.x_label.clone(),
                y_label: b.y_label.clone(),
                log_x: b.log_x,
                log_y: b.log_y,
                better: self
                    .tables
                    .better(
                        experiment,
                        b.metric.as_deref().unwrap_or("best_so_far"),
                        b.better,
                    )
                    .ok(),
                missing: b.missing,
            };
            let fig = crate::present::figure::build(&spec, &rows)?;
            let caption = match &b.caption {
                Some(c) => fill(c, facts).map_err(anyhow::Error::msg)?,
                None => spec.title.clone(),
            };
            return self.figure(&fig, &name, &caption);
        }
        if b.kind == BlockKind::Ecdf {
            let rows = self.rows(&self.tables.anytime, &table, &filter)?;
            let by = b.group_list();
            let better = self.tables.better(experiment, "best_so_far", b.better)?;
            let hits = runtime::hits(&rows, &by, &b.targets, better)?;
            let title =
                fill(b.title.as_deref().unwrap_or_default(), facts).map_err(anyhow::Error::msg)?;
            let fig = AnyFigure::Line(runtime::ecdf_plot(&hits, &by, &title));
            let caption = match &b.caption {
                Some(c) => fill(c, facts).map_err(anyhow::Error::msg)?,
                None => title,
            };
            return self.figure(&fig, &name, &caption);
        }
        if b.kind.makes_facts() {
            facts.extend_prefixed(&b.fact_prefix(), filter_facts(&filter));
        }
        let sel = Selected {
            experiment: experiment.to_string(),
            results,
            config,
            table,
            filter,
            name,
            prefix: b.fact_prefix(),
        };
        match b.kind {
            BlockKind::Table => self.table_block(b, &sel, facts),
            BlockKind::Compare => self.compare_block(b, &sel, facts),
            BlockKind::Aggregate => self.aggregate_block(b, &sel, facts),
            BlockKind::Pivot => self.pivot_block(b, &sel, facts),
            BlockKind::Rows => self.rows_block(b, &sel, facts),
            BlockKind::Facts => self.facts_block(b, &sel, facts),
            BlockKind::Board => self.board_block(b, &sel, facts),
            BlockKind::Ert => self.ert_block(b, &sel, facts),
            _ => unreachable!("figure and text blocks return above"),
        }
    }

    fn table_block(&self, b: &Block, sel: &Selected, facts: &mut Facts) -> anyhow::Result<String> {
        let prefix = &sel.prefix;
        let metric = b.metric.clone().unwrap_or_default();
        let by = b.group_list();
        let digits = b.digits;
        let results = &sel.results;
        let groups = summarize(results, &by, &metric, b.missing)?;
        let mut f = Facts::default();
        let mut rows = Vec::new();
        for g in &groups {
            f.extend_prefixed(&format!("[{}]", g.group.key()), compare::summary_facts(g));
            let mut row = vec![g.group.label()];
            row.extend(summary_numbers(&g.summary, digits.unwrap_or(1)));
            rows.push(row);
        }
        facts.extend_prefixed(prefix, f);
        let mut head = vec![self.header(b, &by.join(", "))];
        head.extend(["runs", "median", "IQR", "95% CI of median", "mean"].map(String::from));
        Ok(markdown_table(&head, &rows))
    }

    fn compare_block(
        &self,
        b: &Block,
        sel: &Selected,
        facts: &mut Facts,
    ) -> anyhow::Result<String> {
        let prefix = &sel.prefix;
        let metric = b.metric.clone().unwrap_or_default();
        let by = b.group_list();
        let digits = b.digits;
        let results = &sel.results;
        let better = self.tables.better(&sel.experiment, &metric, b.better)?;
        let mut groups = summarize(results, &by, &metric, b.missing)?;
        if let Some(col) = &b.best_of {
            groups = compare::best_of(groups, &by, col, better)?;
        }
        let pairing = match &b.paired {
            Some(c) => Pairing::By(c.list()),
            None => Pairing::None,
        };
        let ranked = compare::rank(groups, &metric, better, &pairing, b.missing)?;
        facts.extend_prefixed(prefix, compare::facts(&ranked));
        let test = match pairing {
            Pairing::None => "Mann–Whitney",
            Pairing::By(_) => "Wilcoxon",
        };
        let mut head = vec!["rank".to_string(), self.header(b, &by.join(", "))];
        head.extend([
            "runs".to_string(),
            "median".into(),
            "IQR".into(),
            "mean".into(),
            format!("p vs best ({test}, Holm)"),
            "A12 of best".into(),
            "effect".into(),
        ]);
        let d = digits.unwrap_or(1);
        let rows: Vec<Vec<String>> = ranked
            .iter()
            .take(b.top.unwrap_or(usize::MAX))
            .map(|r| {
                let s = &r.entry.summary;
                vec![
                    r.rank.to_string(),
                    r.entry.group.label(),
                    s.n.to_string(),
                    trimmed(s.median, d),
                    format!("{}–{}", trimmed(s.q1, d), trimmed(s.q3, d)),
                    trimmed(s.mean, d + 1),
                    r.p_holm.map_or("–".into(), |p| {
                        crate::present::facts::format_fact(&p.into(), "p").unwrap_or_default()
                    }),
                    r.a12.map_or("–".into(), |a| trimmed(a, 2)),
                    r.effect.unwrap_or("–").to_string(),
                ]
            })
            .collect();
        Ok(markdown_table(&head, &rows))
    }

    fn aggregate_block(
        &self,
        b: &Block,
        sel: &Selected,
        facts: &mut Facts,
    ) -> anyhow::Result<String> {
        let prefix = &sel.prefix;
        let by = b.group_list();
        let digits = b.digits;
        let results = &sel.results;
        let mut f = Facts::default();
        let mut rows = Vec::new();
        for g in group_rows(results, &by)? {
            let mut row = vec![g.label()];
            for m in &b.metrics {
                let v = aggregate(&g.rows, m, b.aggregate, b.missing)?;
                f.set(format!("[{}].{m}", g.key()), v);
                row.push(cell(v, digits.unwrap_or(0)));
            }
            rows.push(row);
        }
        for m in &b.metrics {
            let total = aggregate(results, m, b.aggregate, b.missing)?;
            f.set(format!("all.{m}"), total);
        }
        facts.extend_prefixed(prefix, f);
        let mut head = vec![self.header(b, &by.join(", "))];
        head.extend(b.metrics.iter().map(|m| self.header(b, m)));
        Ok(markdown_table(&head, &rows))
    }

    fn pivot_block(&self, b: &Block, sel: &Selected, facts: &mut Facts) -> anyhow::Result<String> {
        let prefix = &sel.prefix;
        let metric = b.metric.clone().unwrap_or_default();
        let digits = b.digits;
        let results = &sel.results;
        let row_col = b.rows.clone().unwrap_or_default();
        let col_col = b
            .columns
            .as_ref()
            .map(|c| c.list().join(","))
            .unwrap_or_default();
        let mut f = Facts::default();
        let col_values = ordered_values(&none_for_null(texts(results, &col_col)?));
        let mut rows = Vec::new();
        for g in group_rows(results, std::slice::from_ref(&row_col))? {
            let mut row = vec![g.label()];
            let cols = none_for_null(texts(&g.rows, &col_col)?);
            for c in &col_values {
                let keep: polars::prelude::BooleanChunked =
                    cols.iter().map(|v| Some(v == c)).collect();
                let part = g.rows.filter(&keep)?;
                if part.height() == 0 {
                    row.push("–".into());
                    continue;
                }
                let v = aggregate(&part, &metric, b.aggregate, b.missing)?;
                f.set(format!("[{}][{c}]", g.key()), v);
                row.push(cell(v, digits.unwrap_or(0)));
            }
            rows.push(row);
        }
        facts.extend_prefixed(prefix, f);
        let mut head = vec![format!(
            "{} \\ {}",
            self.header(b, &row_col),
            self.header(b, &col_col)
        )];
        head.extend(col_values.iter().map(|v| crate::present::charts::label(v)));
        Ok(markdown_table(&head, &rows))
    }

    fn rows_block(&self, b: &Block, sel: &Selected, _: &mut Facts) -> anyhow::Result<String> {
        let digits = b.digits;
        let results = &sel.results;
        let cols = b.columns.as_ref().map(|c| c.list()).unwrap_or_default();
        let df = match &b.sort {
            Some(sort) => sorted(results, &sort.list())?,
            None => results.clone(),
        };
        let values: Vec<Vec<String>> = cols
            .iter()
            .map(|c| texts(&df, c))
            .collect::<anyhow::Result<_>>()?;
        let rows: Vec<Vec<String>> = (0..df.height())
            .map(|i| {
                values
                    .iter()
                    .map(|col| text_cell(&col[i], digits.unwrap_or(2)))
                    .collect()
            })
            .collect();
        let head: Vec<String> = cols.iter().map(|c| self.header(b, c)).collect();
        Ok(markdown_table(&head, &rows))
    }

    fn facts_block(&self, b: &Block, sel: &Selected, facts: &mut Facts) -> anyhow::Result<String> {
        let prefix = &sel.prefix;
        let name = b.function.as_deref().unwrap_or_default();
        let f = self
            .functions
            .facts
            .iter()
            .find(|f| f.name == name)
            .ok_or_else(|| anyhow::anyhow!("no fact function {name}"))?;
        let computed = self.with_input(sel, f.compute)?;
        let table = match &b.columns {
            Some(cols) => fact_table(b, &computed, &cols.list()),
            None => String::new(),
        };
        facts.extend_prefixed(prefix, computed);
        Ok(table)
    }

    fn board_block(&self, b: &Block, sel: &Selected, _: &mut Facts) -> anyhow::Result<String> {
        let name = &sel.name;
        let fname = b.function.as_deref().unwrap_or_default();
        let f = self
            .functions
            .boards
            .iter()
            .find(|f| f.name == fname)
            .ok_or_else(|| anyhow::anyhow!("no board function {fname}"))?;
        let pictures = self.with_input(sel, f.draw)?;
        let mut out = String::new();
        for (i, (caption, fig)) in pictures.into_iter().enumerate() {
            out.push_str(&self.figure(&fig, &format!("{name}_{}", i + 1), &caption)?);
            out.push('\n');
        }
        Ok(out)
    }

    /// The expected running time to each target, with successes, per group; facts for
    /// the last (hardest) target: per group `[GROUP].ert`, `.success` (a share),
    /// `.successes` and `.runs`; `target`; and `best`, `best_ert`, `best_success` (the
    /// group with the lowest ERT to it).
    fn ert_block(&self, b: &Block, sel: &Selected, facts: &mut Facts) -> anyhow::Result<String> {
        let rows = self.rows(&self.tables.anytime, &sel.table, &sel.filter)?;
        let by = b.group_list();
        let better = self
            .tables
            .better(&sel.experiment, "best_so_far", b.better)?;
        let hits = runtime::hits(&rows, &by, &b.targets, better)?;
        let last = b.targets.len() - 1;
        let mut f = Facts::default();
        let mut table_rows = Vec::new();
        let mut best: Option<(f64, String, f64)> = None;
        for h in &hits {
            let key = h.group.join(", ");
            let mut row = vec![
                h.group
                    .iter()
                    .map(|v| crate::present::charts::label(v))
                    .collect::<Vec<_>>()
                    .join(", "),
            ];
            for t in 0..b.targets.len() {
                let (s, n, e) = runtime::ert(h, t);
                row.push(match e {
                    Some(e) => format!("{} ({s}/{n})", thousands(e.round() as u64)),
                    None => format!("∞ (0/{n})"),
                });
                if t == last {
                    f.set(
                        format!("[{key}].ert"),
                        e.map_or(f64::INFINITY, |e| e.round()),
                    );
                    f.set(format!("[{key}].success"), s as f64 / n.max(1) as f64);
                    f.set(format!("[{key}].successes"), s as i64);
                    f.set(format!("[{key}].runs"), n as i64);
                    if let Some(e) = e
                        && best.as_ref().is_none_or(|(b, ..)| e < *b)
                    {
                        best = Some((e, key.clone(), s as f64 / n as f64));
                    }
                }
            }
            table_rows.push(row);
        }
        if let Some((e, g, rate)) = best {
            f.set("best", g);
            f.set("best_ert", e.round());
            f.set("best_success", rate);
        }
        f.set("target", b.targets[last]);
        facts.extend_prefixed(&sel.prefix, f);
        let mut head = vec![self.header(b, &by.join(", "))];
        head.extend(b.targets.iter().map(|t| format!("ERT to {t} (successes)")));
        Ok(markdown_table(&head, &table_rows))
    }

    /// Calls a domain function with the block's rows (results and anytime) and config.
    fn with_input<T>(
        &self,
        sel: &Selected,
        f: fn(&FactInput) -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        let anytime = self.rows(&self.tables.anytime, &sel.table, &sel.filter)?;
        f(&FactInput {
            results: &sel.results,
            anytime: &anytime,
            config: sel.config,
        })
    }

    fn rows(
        &self,
        frames: &HashMap<String, DataFrame>,
        table: &str,
        filter: &Filter,
    ) -> anyhow::Result<DataFrame> {
        let df = frames
            .get(table)
            .ok_or_else(|| anyhow::anyhow!("{table} has no table"))?;
        filter.apply(df)
    }

    fn header(&self, b: &Block, column: &str) -> String {
        b.headers
            .get(column)
            .cloned()
            .unwrap_or_else(|| column.to_string())
    }

    /// Saves a figure as `figures/<name>.png` and `.svg`; returns its markdown.
    fn figure(&self, fig: &AnyFigure, name: &str, caption: &str) -> anyhow::Result<String> {
        save(fig, &self.figures.join(name))?;
        Ok(format!(
            "![{caption}](figures/{name}.png)\n\n*Figure: {caption}* ([SVG](figures/{name}.svg))\n"
        ))
    }
}

/// A summary's cells: runs, median, IQR, 95% CI of the median, mean.
fn summary_numbers(s: &crate::stats::Summary, d: usize) -> Vec<String> {
    vec![
        s.n.to_string(),
        trimmed(s.median, d),
        format!("{}–{}", trimmed(s.q1, d), trimmed(s.q3, d)),
        format!("[{}, {}]", trimmed(s.ci_low, d), trimmed(s.ci_high, d)),
        trimmed(s.mean, d + 1),
    ]
}

/// A block's filter as facts, `where.COLUMN`, so that text can quote the values it
/// selected (a number when it is one value that is a number).
fn filter_facts(filter: &Filter) -> Facts {
    let mut f = Facts::default();
    for (col, values) in &filter.0 {
        let fact = match values.as_slice() {
            [one] => match (one.parse::<i64>(), one.parse::<f64>()) {
                (Ok(i), _) => crate::present::facts::Fact::Int(i),
                (_, Ok(x)) => crate::present::facts::Fact::Num(x),
                _ => crate::present::facts::Fact::Text(one.clone()),
            },
            many => crate::present::facts::Fact::Text(many.join(", ")),
        };
        f.set(format!("where.{col}"), fact);
    }
    f
}

/// A table of a fact family `[key].column`: a row per key (in display order), a column
/// per listed name.
fn fact_table(b: &Block, facts: &Facts, columns: &[String]) -> String {
    let mut keys: Vec<String> = Vec::new();
    for k in facts.0.keys() {
        if let Some(rest) = k.strip_prefix('[')
            && let Some((key, _)) = rest.split_once("].")
            && !keys.iter().any(|x| x == key)
        {
            keys.push(key.to_string());
        }
    }
    let keys = ordered_values(&keys);
    let d = b.digits.unwrap_or(3);
    let rows: Vec<Vec<String>> = keys
        .iter()
        .map(|k| {
            let mut row = vec![crate::present::charts::label(k)];
            for c in columns {
                row.push(match facts.get(&format!("[{k}].{c}")) {
                    Some(crate::present::facts::Fact::Num(x)) => cell(*x, d),
                    Some(crate::present::facts::Fact::Int(i)) => cell(*i as f64, d),
                    Some(crate::present::facts::Fact::Text(t)) => t.clone(),
                    None => "–".into(),
                });
            }
            row
        })
        .collect();
    let mut head = vec![b.headers.get("key").cloned().unwrap_or_default()];
    head.extend(
        columns
            .iter()
            .map(|c| b.headers.get(c).cloned().unwrap_or(c.clone())),
    );
    markdown_table(&head, &rows)
}

fn markdown_table(head: &[String], rows: &[Vec<String>]) -> String {
    let h: Vec<&str> = head.iter().map(String::as_str).collect();
    table(&h, rows)
}

/// One aggregate of a metric over rows (nulls count as `missing`, or are left out).
pub fn aggregate(
    rows: &DataFrame,
    metric: &str,
    how: Aggregate,
    missing: Option<f64>,
) -> anyhow::Result<f64> {
    let v: Vec<f64> = floats(rows, metric)?
        .into_iter()
        .filter_map(|x| x.or(missing))
        .collect();
    let nan = f64::NAN;
    Ok(match how {
        Aggregate::Median => crate::stats::median(&v).unwrap_or(nan),
        Aggregate::Mean => crate::stats::mean(&v).unwrap_or(nan),
        Aggregate::Sum => v.iter().sum(),
        Aggregate::Min => v.iter().copied().fold(f64::INFINITY, f64::min),
        Aggregate::Max => v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        Aggregate::Count => v.len() as f64,
        Aggregate::First => v.first().copied().unwrap_or(nan),
    })
}

/// A number for a table: integers with thousands separators, others with `digits`.
fn cell(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        "–".into()
    } else if x.fract() == 0.0 && x.abs() < 9e15 {
        if x < 0.0 {
            format!("−{}", thousands(x.abs() as u64))
        } else {
            thousands(x as u64)
        }
    } else {
        trimmed(x, digits)
    }
}

/// A table cell from a column's text: numbers formatted as [`cell`], the rest as is.
fn text_cell(s: &str, digits: usize) -> String {
    match s.parse::<f64>() {
        Ok(x) if !s.is_empty() => cell(x, digits),
        _ if s.is_empty() => "–".into(),
        _ => s.to_string(),
    }
}

/// Rows sorted by columns, numerically where values are numbers.
fn sorted(df: &DataFrame, by: &[String]) -> anyhow::Result<DataFrame> {
    let keys: Vec<Vec<String>> = by
        .iter()
        .map(|c| texts(df, c))
        .collect::<anyhow::Result<_>>()?;
    let orders: Vec<Vec<String>> = keys.iter().map(|k| ordered_values(k)).collect();
    let mut idx: Vec<usize> = (0..df.height()).collect();
    idx.sort_by_key(|&i| {
        keys.iter()
            .zip(&orders)
            .map(|(k, o)| o.iter().position(|v| *v == k[i]).unwrap_or(usize::MAX))
            .collect::<Vec<_>>()
    });
    let idx: polars::prelude::IdxCa = idx
        .into_iter()
        .map(|i| Some(i as polars::prelude::IdxSize))
        .collect();
    Ok(df.take(&idx)?)
}
