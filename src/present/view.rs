//! Views of a result table: the rows a filter keeps (`where = { variant = "geometric" }`),
//! split into groups in display order, each group's sample of a metric and its summary.
//! Config plots and tables and every block of a study select their rows through here,
//! so a filter means the same thing everywhere.

use crate::pipeline::table::{floats, groups, texts};
use crate::present::charts::ordered_values;
use crate::stats::Summary;
use polars::prelude::*;
use std::collections::BTreeMap;

/// Rows whose columns take one of the listed values. Values compare as numbers when
/// both sides are numbers, else as text; `"none"` matches a null (no limit).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter(pub Vec<(String, Vec<String>)>);

impl Filter {
    /// From a TOML table `{ column = value or [values] }`.
    pub fn from_toml(table: &BTreeMap<String, toml::Value>) -> Result<Filter, String> {
        let mut out = Vec::new();
        for (k, v) in table {
            let values = match v {
                toml::Value::Array(items) => items.iter().map(scalar_text).collect(),
                other => vec![scalar_text(other)],
            }
            .into_iter()
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("where.{k}: {e}"))?;
            if values.is_empty() {
                return Err(format!("where.{k}: an empty list keeps no rows"));
            }
            out.push((k.clone(), values));
        }
        Ok(Filter(out))
    }

    pub fn columns(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(c, _)| c.as_str())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The rows of `df` the filter keeps.
    pub fn apply(&self, df: &DataFrame) -> anyhow::Result<DataFrame> {
        if self.0.is_empty() {
            return Ok(df.clone());
        }
        let mut keep = vec![true; df.height()];
        for (col, wanted) in &self.0 {
            let cells = texts(df, col)?;
            for (k, cell) in keep.iter_mut().zip(&cells) {
                *k = *k && wanted.iter().any(|w| same(cell, w));
            }
        }
        let mask: BooleanChunked = keep.into_iter().map(Some).collect();
        Ok(df.filter(&mask)?)
    }
}

fn scalar_text(v: &toml::Value) -> Result<String, String> {
    match v {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Float(f) => Ok(f.to_string()),
        toml::Value::Boolean(b) => Ok(b.to_string()),
        other => Err(format!("expected a value, not {}", other.type_str())),
    }
}

/// True when a cell's text matches a filter value.
fn same(cell: &str, wanted: &str) -> bool {
    if wanted == "none" && cell.is_empty() {
        return true;
    }
    if cell == wanted {
        return true;
    }
    matches!((cell.parse::<f64>(), wanted.parse::<f64>()), (Ok(a), Ok(b)) if a == b)
}

/// One group of rows: its values of the grouping columns and its rows.
pub struct Group {
    /// The grouping columns.
    pub columns: Vec<String>,
    /// The grouping columns' values as text ("none" for null).
    pub values: Vec<String>,
    pub rows: DataFrame,
}

impl Group {
    /// The group's key in facts: its values joined by ", ".
    pub fn key(&self) -> String {
        self.values.join(", ")
    }

    /// A label for display: `∞` for a null (no limit). A group of several columns
    /// reads `variant: a = 1, b = 2`, leaving out columns the group does not use.
    pub fn label(&self) -> String {
        if self.values.len() == 1 {
            return crate::present::charts::label(&self.values[0]);
        }
        let mut head = String::new();
        let mut parts = Vec::new();
        for (c, v) in self.columns.iter().zip(&self.values) {
            if c == "variant" {
                head = v.clone();
            } else if v != "none" {
                parts.push(format!("{c} = {v}"));
            }
        }
        match (head.is_empty(), parts.is_empty()) {
            (_, true) => head,
            (true, false) => parts.join(", "),
            (false, false) => format!("{head}: {}", parts.join(", ")),
        }
    }
}

/// Splits rows by the values of `by` (polars' stable partition), in display order:
/// numeric values ascending with "none" last, others by first appearance, the first
/// column first. An empty `by` gives one group of every row.
pub fn group_rows(df: &DataFrame, by: &[String]) -> anyhow::Result<Vec<Group>> {
    if by.is_empty() {
        return Ok(vec![Group {
            columns: Vec::new(),
            values: Vec::new(),
            rows: df.clone(),
        }]);
    }
    let cols: Vec<&str> = by.iter().map(String::as_str).collect();
    let orders: Vec<Vec<String>> = cols
        .iter()
        .map(|c| texts(df, c).map(|t| ordered_values(&none_for_null(t))))
        .collect::<anyhow::Result<_>>()?;
    let mut out: Vec<Group> = groups(df, &cols)?
        .into_iter()
        .map(|(values, rows)| Group {
            columns: by.to_vec(),
            values: none_for_null(values),
            rows,
        })
        .collect();
    out.sort_by_key(|g| {
        g.values
            .iter()
            .zip(&orders)
            .map(|(v, order)| order.iter().position(|o| o == v).unwrap_or(usize::MAX))
            .collect::<Vec<_>>()
    });
    Ok(out)
}

/// Texts of a column with nulls (empty) written "none".
pub fn none_for_null(values: Vec<String>) -> Vec<String> {
    values
        .into_iter()
        .map(|v| if v.is_empty() { "none".into() } else { v })
        .collect()
}

/// The values of `metric` in `rows`; a null counts as `missing` when given, else is
/// left out.
pub fn sample(rows: &DataFrame, metric: &str, missing: Option<f64>) -> anyhow::Result<Vec<f64>> {
    Ok(floats(rows, metric)?
        .into_iter()
        .filter_map(|v| v.or(missing))
        .collect())
}

/// A group's sample of a metric and its summary.
pub struct GroupSample {
    pub group: Group,
    pub sample: Vec<f64>,
    pub summary: Summary,
}

/// Each group's sample and summary; groups with no value are left out.
pub fn summarize(
    df: &DataFrame,
    by: &[String],
    metric: &str,
    missing: Option<f64>,
) -> anyhow::Result<Vec<GroupSample>> {
    let mut out = Vec::new();
    for group in group_rows(df, by)? {
        let sample = sample(&group.rows, metric, missing)?;
        if let Some(summary) = Summary::of(&sample) {
            out.push(GroupSample {
                group,
                sample,
                summary,
            });
        }
    }
    Ok(out)
}

/// Several experiments' tables read as one: the union of their columns (null where a
/// table lacks one; a column that is a number in one table and text in another becomes
/// text), in the order they first appear, and the `experiment` column set to each
/// table's name.
pub fn concat(tables: &[(String, &DataFrame)]) -> anyhow::Result<DataFrame> {
    let mut names: Vec<PlSmallStr> = vec!["experiment".into()];
    let mut types: Vec<DataType> = vec![DataType::String];
    for (_, df) in tables {
        for c in df.columns() {
            match names.iter().position(|n| n == c.name()) {
                Some(i) => types[i] = common_type(&types[i], c.dtype()),
                None => {
                    names.push(c.name().clone());
                    types.push(c.dtype().clone());
                }
            }
        }
    }
    let mut out: Option<DataFrame> = None;
    for (name, df) in tables {
        let h = df.height();
        let mut cols = Vec::with_capacity(names.len());
        for (n, t) in names.iter().zip(&types) {
            let col = match df.column(n.as_str()) {
                _ if n == "experiment" => Column::new(n.clone(), vec![name.as_str(); h]),
                Ok(c) => c.cast(t)?,
                Err(_) => Column::full_null(n.clone(), h, t),
            };
            cols.push(col);
        }
        let part = DataFrame::new_infer_height(cols)?;
        out = Some(match out {
            None => part,
            Some(mut acc) => {
                acc.vstack_mut(&part)?;
                acc
            }
        });
    }
    Ok(out.unwrap_or_default())
}

/// A type both can be cast to without losing a value.
fn common_type(a: &DataType, b: &DataType) -> DataType {
    match (a, b) {
        (x, y) if x == y => x.clone(),
        (DataType::Null, y) => y.clone(),
        (x, DataType::Null) => x.clone(),
        (x, y) if x.is_primitive_numeric() && y.is_primitive_numeric() => DataType::Float64,
        _ => DataType::String,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::params::Value;
    use crate::pipeline::table::{ColumnBuilder, frame};

    fn sample_frame() -> DataFrame {
        let mut v = ColumnBuilder::new("variant");
        let mut c = ColumnBuilder::new("cap");
        let mut y = ColumnBuilder::new("y");
        for (a, b, x) in [
            ("g", Value::Int(10), 1.0),
            ("l", Value::Null, 2.0),
            ("g", Value::Int(2), 3.0),
            ("g", Value::Null, 4.0),
            ("g", Value::Int(10), 5.0),
        ] {
            v.push(Value::from(a));
            c.push(b);
            y.push(Value::Float(x));
        }
        frame(vec![v, c, y]).unwrap()
    }

    #[test]
    fn filters_match_numbers_text_and_none() {
        let df = sample_frame();
        let t: BTreeMap<String, toml::Value> =
            toml::from_str("variant = \"g\"\ncap = [10.0, \"none\"]").unwrap();
        let kept = Filter::from_toml(&t).unwrap().apply(&df).unwrap();
        assert_eq!(
            floats(&kept, "y").unwrap(),
            vec![Some(1.0), Some(4.0), Some(5.0)]
        );
    }

    #[test]
    fn groups_come_in_display_order_with_none_last() {
        let df = sample_frame();
        let g = summarize(&df, &["cap".to_string()], "y", None).unwrap();
        let keys: Vec<String> = g.iter().map(|g| g.group.key()).collect();
        assert_eq!(keys, vec!["2", "10", "none"]);
        assert_eq!(g[1].sample, vec![1.0, 5.0]);
        assert_eq!(g[2].group.label(), "∞");
        let group = |values: &[&str]| Group {
            columns: vec!["variant".into(), "dfs_limit".into()],
            values: values.iter().map(|v| v.to_string()).collect(),
            rows: DataFrame::default(),
        };
        assert_eq!(group(&["bfs", "none"]).label(), "bfs");
        assert_eq!(group(&["dfs", "100"]).label(), "dfs: dfs_limit = 100");
        assert_eq!(g[1].summary.median, 3.0);
    }
}
