//! Derived columns: `derive = { NAME = "SQL expression" }` in a study, each expression
//! parsed by polars' SQL engine (polars-sql) and evaluated in memory by polars-lazy over
//! one results table (one row per run), before a block's `where` filter, so that a
//! ratio against a reference group (`… OVER (PARTITION BY instance)`) sees the
//! reference's rows whatever the block keeps. An expression reads the table's own
//! columns, not other derived ones. A derived column computed from a timing column
//! (`…_seconds`, `…_per_second`) is itself a timing: it varies from run to run.

use crate::pipeline::journal::is_timing;
use polars::prelude::DataFrame;
use polars_lazy::dsl::Expr;
use polars_lazy::frame::IntoLazy;

/// One derived column: its name, its SQL text, the expression polars parsed from it
/// and the columns it reads.
#[derive(Debug, Clone)]
pub struct Derived {
    pub name: String,
    pub sql: String,
    expr: Expr,
    /// The table's columns the expression reads (its window's partition too).
    pub inputs: Vec<String>,
}

impl Derived {
    /// Parses `sql` as one SQL expression; an error (one line) for a name that is not a
    /// plain identifier or an expression polars cannot parse.
    pub fn parse(name: &str, sql: &str) -> Result<Derived, String> {
        let plain = name.starts_with(|c: char| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !plain || name.len() > 64 {
            return Err(format!(
                "derive: the name {} is not a column name (letters, digits and _, starting with a letter, at most 64)",
                crate::util::input::excerpt(name)
            ));
        }
        let expr = polars_sql::sql_expr(sql).map_err(|e| {
            format!(
                "{}: polars cannot read it as an SQL expression: {}",
                describe(name, sql),
                one_line(&e.to_string())
            )
        })?;
        let mut inputs: Vec<String> = Vec::new();
        for c in expr.clone().meta().root_names() {
            if !inputs.iter().any(|x| x == c.as_str()) {
                inputs.push(c.to_string());
            }
        }
        Ok(Derived {
            name: name.to_string(),
            sql: sql.to_string(),
            expr: expr.alias(name),
            inputs,
        })
    }

    /// Whether the column is a timing: it reads one (so it varies from run to run).
    pub fn timing(&self) -> bool {
        self.inputs.iter().any(|c| is_timing(c))
    }

    /// `derive.NAME = "SQL"`, for messages.
    pub fn describe(&self) -> String {
        describe(&self.name, &self.sql)
    }
}

/// `derive.NAME = "SQL"` (the SQL clipped), for messages.
fn describe(name: &str, sql: &str) -> String {
    format!("derive.{name} = {}", crate::util::input::excerpt(sql))
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a column of a table read with `derived` is a timing: by its name
/// (`…_seconds`, `…_per_second`), or derived from one.
pub fn column_is_timing(column: &str, derived: &[Derived]) -> bool {
    is_timing(column) || derived.iter().any(|d| d.name == column && d.timing())
}

/// `df` with the derived columns added. A derived name the table already has, or an
/// input it lacks, is an error naming the expression; so is an expression polars
/// cannot evaluate on the table (text divided by a number).
pub fn apply(df: &DataFrame, derived: &[Derived]) -> anyhow::Result<DataFrame> {
    if derived.is_empty() {
        return Ok(df.clone());
    }
    let names: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|c| c.to_string())
        .collect();
    for d in derived {
        check_columns(d, &names).map_err(|e| crate::user_error!("{e}"))?;
    }
    let exprs: Vec<Expr> = derived.iter().map(|d| d.expr.clone()).collect();
    df.clone()
        .lazy()
        .with_columns(exprs)
        .collect()
        .map_err(|e| {
            let which: Vec<String> = derived.iter().map(Derived::describe).collect();
            crate::user_error!(
                "{}: polars cannot evaluate it: {}",
                which.join(", "),
                one_line(&e.to_string())
            )
        })
}

/// A derived column's name is new to the table and its inputs are the table's.
pub fn check_columns(d: &Derived, columns: &[impl AsRef<str>]) -> Result<(), String> {
    let has = |c: &str| columns.iter().any(|x| x.as_ref() == c);
    if has(&d.name) {
        return Err(format!(
            "{}: the table already has a column {:?}; give the derived column a name of its own",
            d.describe(),
            d.name
        ));
    }
    if let Some(c) = d.inputs.iter().find(|c| !has(c)) {
        let near = crate::util::suggest::did_you_mean(c, columns.iter().map(|x| x.as_ref()));
        return Err(format!(
            "{}: unknown column {}{near}",
            d.describe(),
            crate::util::input::excerpt(c)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use polars::prelude::{Column, DataFrame};

    /// Two instances, three heuristics, seconds made up so each ratio is known.
    fn runs() -> DataFrame {
        DataFrame::new_infer_height(vec![
            Column::new("instance".into(), [1i64, 1, 1, 2, 2, 2]),
            Column::new(
                "heuristic".into(),
                ["manhattan", "linear", "all", "manhattan", "linear", "all"],
            ),
            Column::new("time_seconds".into(), [8.0f64, 4.0, 2.0, 3.0, 6.0, 1.5]),
            Column::new("generated".into(), [100i64, 50, 20, 30, 30, 10]),
        ])
        .unwrap()
    }

    fn floats(df: &DataFrame, c: &str) -> Vec<Option<f64>> {
        crate::pipeline::table::floats(df, c).unwrap()
    }

    #[test]
    fn a_ratio_against_a_reference_group_per_instance_equals_the_hand_computed_one() {
        let d = Derived::parse(
            "speedup",
            "MAX(CASE WHEN heuristic = 'manhattan' THEN time_seconds END) OVER (PARTITION BY instance) / time_seconds",
        )
        .unwrap();
        let mut inputs = d.inputs.clone();
        inputs.sort();
        assert_eq!(inputs, ["heuristic", "instance", "time_seconds"]);
        assert!(d.timing(), "read from time_seconds: a timing");
        let out = apply(&runs(), std::slice::from_ref(&d)).unwrap();
        // Instance 1: 8/8, 8/4, 8/2; instance 2: 3/3, 3/6, 3/1.5.
        let want = [1.0, 2.0, 4.0, 1.0, 0.5, 2.0];
        let got = floats(&out, "speedup");
        for (g, w) in got.iter().zip(want) {
            assert!((g.unwrap() - w).abs() < 1e-12, "{got:?}");
        }
        let nodes = Derived::parse("per_node", "time_seconds / generated * 1000").unwrap();
        let counts = Derived::parse("half", "generated / 2").unwrap();
        assert!(nodes.timing() && !counts.timing());
        assert!(column_is_timing(
            "per_node",
            &[nodes.clone(), counts.clone()]
        ));
        assert!(!column_is_timing("half", &[nodes.clone(), counts.clone()]));
        assert!(column_is_timing("time_seconds", &[]));
        let out = apply(&runs(), &[nodes, counts]).unwrap();
        assert_eq!(floats(&out, "half")[0], Some(50.0));
        assert_eq!(floats(&out, "per_node")[1], Some(80.0));
    }

    #[test]
    fn bad_expressions_unknown_columns_and_taken_names_are_errors_naming_the_expression() {
        let err = Derived::parse("speedup", "time_seconds / (").unwrap_err();
        assert!(
            err.starts_with("derive.speedup = \"time_seconds / (\": polars cannot read it"),
            "{err}"
        );
        assert!(
            Derived::parse("speed up", "1")
                .unwrap_err()
                .contains("not a column name")
        );
        let typo = Derived::parse("s", "time_second / 2").unwrap();
        let err = apply(&runs(), &[typo]).unwrap_err().to_string();
        assert_eq!(
            err,
            "derive.s = \"time_second / 2\": unknown column \"time_second\"; did you mean time_seconds?"
        );
        let taken = Derived::parse("generated", "generated * 2").unwrap();
        let err = apply(&runs(), &[taken]).unwrap_err().to_string();
        assert!(err.contains("already has a column \"generated\""), "{err}");
        let text = Derived::parse("bad", "heuristic / 2").unwrap();
        let err = apply(&runs(), &[text]).unwrap_err().to_string();
        assert!(
            err.starts_with("derive.bad = \"heuristic / 2\": polars cannot evaluate it"),
            "{err}"
        );
        assert!(!err.contains('\n'));
    }
}
