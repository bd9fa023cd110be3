//! Records to polars dataframes and back to numbers: the results table (one row per
//! run), the anytime table (one row per run and checkpoint), written as Parquet and CSV,
//! atomically; and the column access the summaries, plots and report need.
//!
//! Column types follow the values: integers stay Int64, any float makes Float64, and a
//! column that mixes kinds falls back to strings, so a table never loses a value.

use crate::pipeline::params::Value;
use polars::prelude::*;
use std::path::Path;

/// A column of values that will become one typed polars column.
pub struct ColumnBuilder {
    name: String,
    values: Vec<Value>,
}

impl ColumnBuilder {
    pub fn new(name: &str) -> Self {
        ColumnBuilder {
            name: name.to_string(),
            values: Vec::new(),
        }
    }

    pub fn push(&mut self, v: Value) {
        self.values.push(v);
    }

    pub fn build(self) -> Column {
        let name: PlSmallStr = self.name.as_str().into();
        let kinds =
            |f: fn(&Value) -> bool| self.values.iter().all(|v| matches!(v, Value::Null) || f(v));
        if kinds(|v| matches!(v, Value::Int(_)))
            && self.values.iter().any(|v| !matches!(v, Value::Null))
        {
            Column::new(
                name,
                self.values.iter().map(Value::as_i64).collect::<Vec<_>>(),
            )
        } else if kinds(|v| matches!(v, Value::Int(_) | Value::Float(_))) {
            Column::new(
                name,
                self.values.iter().map(Value::as_f64).collect::<Vec<_>>(),
            )
        } else if kinds(|v| matches!(v, Value::Bool(_))) {
            let bools: Vec<Option<bool>> = self
                .values
                .iter()
                .map(|v| {
                    if let Value::Bool(b) = v {
                        Some(*b)
                    } else {
                        None
                    }
                })
                .collect();
            Column::new(name, bools)
        } else {
            let strs: Vec<Option<String>> = self
                .values
                .iter()
                .map(|v| (!matches!(v, Value::Null)).then(|| v.to_string()))
                .collect();
            Column::new(name, strs)
        }
    }
}

/// Builds a frame from named columns of values, in order.
pub fn frame(columns: Vec<ColumnBuilder>) -> anyhow::Result<DataFrame> {
    let cols: Vec<Column> = columns.into_iter().map(ColumnBuilder::build).collect();
    Ok(DataFrame::new_infer_height(cols)?)
}

/// Writes `<stem>.parquet` and `<stem>.csv` in `dir`, each atomically.
pub fn write_both(df: &mut DataFrame, dir: &Path, stem: &str) -> anyhow::Result<()> {
    crate::util::atomic::write_with(&dir.join(format!("{stem}.parquet")), |w| {
        ParquetWriter::new(w).finish(df)?;
        Ok(())
    })?;
    write_csv(df, &dir.join(format!("{stem}.csv")))
}

/// Writes a CSV atomically.
pub fn write_csv(df: &mut DataFrame, path: &Path) -> anyhow::Result<()> {
    crate::util::atomic::write_with(path, |w| {
        CsvWriter::new(w).include_header(true).finish(df)?;
        Ok(())
    })
}

/// Reads a Parquet table.
/// A file that is not a whole Parquet table (truncated, empty, damaged) is the user's
/// to fix: an error naming it and saying how the tables are written again.
pub fn read_parquet(path: &Path) -> anyhow::Result<DataFrame> {
    let file = std::fs::File::open(path).map_err(|e| {
        crate::util::error::environment_error(
            anyhow::Error::new(e),
            &format!("{}: cannot open the table", path.display()),
        )
    })?;
    ParquetReader::new(file).finish().map_err(|e| {
        let e = e.to_string();
        crate::user_error!(
            "{}: not a readable Parquet table ({}); run its experiment again (its journal rebuilds the tables)",
            path.display(),
            e.lines().next().unwrap_or("damaged")
        )
    })
}

/// A column as floats (integers and booleans converted; null and missing stay `None`).
pub fn floats(df: &DataFrame, name: &str) -> anyhow::Result<Vec<Option<f64>>> {
    let col = df
        .column(name)
        .map_err(|_| anyhow::anyhow!("no column {name}"))?;
    let col = col.cast(&DataType::Float64)?;
    Ok(col.f64()?.iter().collect())
}

/// A column as text (any type, null as empty).
pub fn texts(df: &DataFrame, name: &str) -> anyhow::Result<Vec<String>> {
    let col = df
        .column(name)
        .map_err(|_| anyhow::anyhow!("no column {name}"))?;
    let col = col.cast(&DataType::String)?;
    Ok(col
        .str()?
        .iter()
        .map(|s| s.unwrap_or_default().to_string())
        .collect())
}

/// One cell as a [`Value`] (null, integer, float, boolean or text).
pub fn cell(df: &DataFrame, name: &str, row: usize) -> anyhow::Result<Value> {
    let col = df
        .column(name)
        .map_err(|_| anyhow::anyhow!("no column {name}"))?;
    Ok(match col.get(row)? {
        AnyValue::Null => Value::Null,
        AnyValue::Boolean(b) => Value::Bool(b),
        AnyValue::Int64(i) => Value::Int(i),
        AnyValue::Float64(x) => Value::Float(x),
        AnyValue::String(s) => Value::Str(s.to_string()),
        AnyValue::StringOwned(s) => Value::Str(s.to_string()),
        other => anyhow::bail!("column {name} holds an unexpected {other:?}"),
    })
}

/// Every row of a results table decoded into an algorithm's typed metrics, in order.
pub fn decode_rows<M: crate::pipeline::metrics::Metrics>(df: &DataFrame) -> anyhow::Result<Vec<M>> {
    (0..df.height())
        .map(|i| {
            let mut row = Vec::new();
            for name in M::SPECS.iter().map(|s| s.name) {
                if has_column(df, name) {
                    row.push((name.to_string(), cell(df, name, i)?));
                }
            }
            let get = |k: &str| row.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
            M::from_row(&get).map_err(|e| anyhow::anyhow!("row {i}: {e}"))
        })
        .collect()
}

/// True when the frame has a column of that name.
pub fn has_column(df: &DataFrame, name: &str) -> bool {
    df.column(name).is_ok()
}

/// Rows split by the values of `by`, in order of first appearance: (the group's label
/// values, its sub-frame). An empty `by` gives one group.
pub fn groups(df: &DataFrame, by: &[&str]) -> anyhow::Result<Vec<(Vec<String>, DataFrame)>> {
    if by.is_empty() {
        return Ok(vec![(Vec::new(), df.clone())]);
    }
    let parts = df.partition_by_stable(by.iter().copied(), true)?;
    parts
        .into_iter()
        .map(|part| {
            let labels = by
                .iter()
                .map(|b| texts(&part, b).map(|v| v.first().cloned().unwrap_or_default()))
                .collect::<anyhow::Result<Vec<_>>>()?;
            Ok((labels, part))
        })
        .collect()
}

/// The rows where column `name` equals `value` (compared as text).
pub fn rows_where(df: &DataFrame, name: &str, value: &str) -> anyhow::Result<DataFrame> {
    let mask: BooleanChunked = texts(df, name)?.iter().map(|v| Some(v == value)).collect();
    Ok(df.filter(&mask)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> DataFrame {
        let mut a = ColumnBuilder::new("group");
        let mut b = ColumnBuilder::new("x");
        let mut c = ColumnBuilder::new("y");
        for (g, x, y) in [
            ("p", 1, Value::Float(0.5)),
            ("q", 2, Value::Int(3)),
            ("p", 3, Value::Null),
        ] {
            a.push(Value::from(g));
            b.push(Value::Int(x));
            c.push(y);
        }
        frame(vec![a, b, c]).unwrap()
    }

    #[test]
    fn types_follow_values() {
        let df = sample();
        assert_eq!(df.column("x").unwrap().dtype(), &DataType::Int64);
        assert_eq!(df.column("y").unwrap().dtype(), &DataType::Float64);
        assert_eq!(floats(&df, "y").unwrap(), vec![Some(0.5), Some(3.0), None]);
        let mut mixed = ColumnBuilder::new("m");
        mixed.push(Value::Int(1));
        mixed.push(Value::from("none"));
        assert_eq!(mixed.build().dtype(), &DataType::String);
    }

    #[test]
    fn parquet_and_csv_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let mut df = sample();
        write_both(&mut df, dir.path(), "results").unwrap();
        let back = read_parquet(&dir.path().join("results.parquet")).unwrap();
        assert_eq!(back.height(), df.height());
        for name in ["group", "x", "y"] {
            assert!(
                back.column(name)
                    .unwrap()
                    .equals_missing(df.column(name).unwrap()),
                "{name}"
            );
        }
        let csv = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
        assert_eq!(csv.lines().next(), Some("group,x,y"));
        assert_eq!(csv.lines().count(), 4);
    }

    #[test]
    fn groups_keep_first_appearance_order() {
        let df = sample();
        let g = groups(&df, &["group"]).unwrap();
        assert_eq!(
            g.iter()
                .map(|(l, d)| (l[0].clone(), d.height()))
                .collect::<Vec<_>>(),
            vec![("p".into(), 2), ("q".into(), 1)]
        );
        assert_eq!(rows_where(&df, "x", "2").unwrap().height(), 1);
    }
}
