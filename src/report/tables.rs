//! The table-like blocks: summaries per group (`table`), rankings with tests against the
//! best (`compare`), aggregates (`aggregate`), pivots (`pivot`), listed rows (`rows`) and
//! a fact family's table (`facts` with `columns`), each formatted the report's one way
//! ([`crate::present::format`]) and adding its values to the facts.

use super::blocks::{Renderer, Selected};
use crate::pipeline::table::texts;
use crate::present::charts::{label, ordered_values};
use crate::present::compare::{self, Pairing};
use crate::present::facts::{Fact, Facts};
use crate::present::format::{
    aggregate, interval, markdown_table, number, significant, sorted, text_cell,
};
use crate::present::view::{group_rows, none_for_null, summarize};
use crate::study::block::{
    AggregateTable, Block, CompareTable, Kind, PivotTable, RowsTable, SummaryTable,
};

impl Renderer<'_> {
    pub(super) fn table_block(
        &self,
        b: &Block,
        k: &SummaryTable,
        sel: &Selected,
        facts: &mut Facts,
    ) -> anyhow::Result<String> {
        let metric = k.metric.clone().unwrap_or_default();
        let by = b.group_list();
        let d = k.digits.unwrap_or(1);
        let groups = summarize(&sel.results, &by, &metric, k.missing)?;
        let mut f = Facts::default();
        let mut rows = Vec::new();
        for g in &groups {
            f.extend_prefixed(&format!("[{}]", g.group.key()), compare::summary_facts(g));
            let s = &g.summary;
            rows.push(vec![
                g.group.label(),
                number(s.n as f64, 0),
                number(s.median, d),
                format!("{}–{}", number(s.q1, d), number(s.q3, d)),
                interval(s.ci_low, s.ci_high),
                number(s.mean, d + 1),
            ]);
        }
        facts.extend_prefixed(&sel.prefix, f);
        let mut head = vec![self.group_header(b, sel, &by)];
        let m = self.header(b, sel, &metric);
        head.extend([
            "runs".to_string(),
            format!("median {m}"),
            "IQR".into(),
            "95% CI of the median".into(),
            "mean".into(),
        ]);
        Ok(table(&head, rows))
    }

    /// The header of the group column: the block's, or the grouping columns' headers.
    pub(super) fn group_header(&self, b: &Block, sel: &Selected, by: &[String]) -> String {
        if let Some(h) = b.look.headers.get(&by.join(", ")) {
            return h.clone();
        }
        by.iter()
            .map(|c| self.header(b, sel, c))
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub(super) fn compare_block(
        &self,
        b: &Block,
        k: &CompareTable,
        sel: &Selected,
        facts: &mut Facts,
    ) -> anyhow::Result<String> {
        let metric = k.metric.clone().unwrap_or_default();
        let by = b.group_list();
        let better = self.tables.better(&sel.experiments, &metric, k.better)?;
        let mut groups = summarize(&sel.results, &by, &metric, k.missing)?;
        if let Some(col) = &k.best_of {
            groups = compare::best_of(groups, &by, col, better)?;
        }
        let pairing = match &k.paired {
            Some(c) => Pairing::By(c.list()),
            None => Pairing::None,
        };
        let hint = match pairing {
            Pairing::None => compare::pairing_hint(&groups),
            Pairing::By(_) => String::new(),
        };
        let ranked = compare::rank(groups, &metric, better, &pairing, k.missing)?;
        let aliases = compare::same_algorithm(&ranked, &self.functions.canonical)?;
        let mut f = compare::facts(&ranked);
        f.extend_prefixed("", compare::alias_facts(&ranked, &aliases));
        facts.extend_prefixed(&sel.prefix, f);
        let test = pairing.test_name();
        let mut head = vec!["rank".to_string(), self.group_header(b, sel, &by)];
        head.extend([
            "runs".to_string(),
            format!("median {}", self.header(b, sel, &metric)),
            "IQR".into(),
            "mean".into(),
            format!("p vs best ({test}, Holm)"),
            "A12 of best".into(),
            "effect".into(),
        ]);
        let d = k.digits.unwrap_or(1);
        let rows: Vec<Vec<String>> = ranked
            .iter()
            .take(k.top.unwrap_or(usize::MAX))
            .map(|r| {
                let s = &r.entry.summary;
                vec![
                    r.rank.to_string(),
                    r.entry.group.label(),
                    number(s.n as f64, 0),
                    number(s.median, d),
                    format!("{}–{}", number(s.q1, d), number(s.q3, d)),
                    number(s.mean, d + 1),
                    r.p_holm.map_or("–".into(), |p| {
                        crate::present::facts::format_fact(&p.into(), "p").unwrap_or_default()
                    }),
                    r.a12.map_or("–".into(), |a| number(a, 2)),
                    r.effect.unwrap_or("–").to_string(),
                ]
            })
            .collect();
        Ok(table(&head, rows) + &compare::alias_note(&aliases) + &hint)
    }

    pub(super) fn aggregate_block(
        &self,
        b: &Block,
        k: &AggregateTable,
        sel: &Selected,
        facts: &mut Facts,
    ) -> anyhow::Result<String> {
        let by = b.group_list();
        let d = k.digits.unwrap_or(0);
        let mut f = Facts::default();
        let mut rows = Vec::new();
        for g in group_rows(&sel.results, &by)? {
            let mut row = vec![g.label()];
            for m in &k.metrics {
                let v = aggregate(&g.rows, m, k.aggregate, k.missing)?;
                f.set(format!("[{}].{m}", g.key()), v);
                row.push(number(v, d));
            }
            rows.push(row);
        }
        for m in &k.metrics {
            let total = aggregate(&sel.results, m, k.aggregate, k.missing)?;
            f.set(format!("all.{m}"), total);
        }
        facts.extend_prefixed(&sel.prefix, f);
        let mut head = vec![self.group_header(b, sel, &by)];
        head.extend(k.metrics.iter().map(|m| self.header(b, sel, m)));
        Ok(table(&head, rows))
    }

    pub(super) fn pivot_block(
        &self,
        b: &Block,
        k: &PivotTable,
        sel: &Selected,
        facts: &mut Facts,
    ) -> anyhow::Result<String> {
        let metric = k.metric.clone().unwrap_or_default();
        let d = k.digits.unwrap_or(0);
        let row_col = k.rows.clone().unwrap_or_default();
        let col_col = k.columns.clone().unwrap_or_default();
        let mut f = Facts::default();
        let col_values = ordered_values(&none_for_null(texts(&sel.results, &col_col)?));
        let mut rows = Vec::new();
        for g in group_rows(&sel.results, std::slice::from_ref(&row_col))? {
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
                let v = aggregate(&part, &metric, k.aggregate, k.missing)?;
                f.set(format!("[{}][{c}]", g.key()), v);
                row.push(number(v, d));
            }
            rows.push(row);
        }
        facts.extend_prefixed(&sel.prefix, f);
        let mut head = vec![format!(
            "{} \\ {}",
            self.header(b, sel, &row_col),
            self.header(b, sel, &col_col)
        )];
        head.extend(col_values.iter().map(|v| label(v)));
        Ok(table(&head, rows))
    }

    pub(super) fn rows_block(
        &self,
        b: &Block,
        k: &RowsTable,
        sel: &Selected,
    ) -> anyhow::Result<String> {
        let d = k.digits.unwrap_or(2);
        let cols = k.columns.as_ref().map(|c| c.list()).unwrap_or_default();
        let df = match &k.sort {
            Some(sort) => sorted(&sel.results, &sort.list())?,
            None => sel.results.clone(),
        };
        let values: Vec<Vec<String>> = cols
            .iter()
            .map(|c| texts(&df, c))
            .collect::<anyhow::Result<_>>()?;
        let rows: Vec<Vec<String>> = (0..df.height())
            .map(|i| values.iter().map(|col| text_cell(&col[i], d)).collect())
            .collect();
        let head: Vec<String> = cols.iter().map(|c| self.header(b, sel, c)).collect();
        Ok(table(&head, rows))
    }

    /// A table of a fact family `[key].column`: a row per key (in display order), a
    /// column per listed name. Every listed column must be a fact of the family.
    pub(super) fn fact_table(
        &self,
        b: &Block,
        digits: Option<usize>,
        facts: &Facts,
        columns: &[String],
    ) -> anyhow::Result<String> {
        let mut keys: Vec<String> = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for k in facts.0.keys() {
            if let Some(rest) = k.strip_prefix('[')
                && let Some((key, name)) = rest.split_once("].")
            {
                if !keys.iter().any(|x| x == key) {
                    keys.push(key.to_string());
                }
                if !names.iter().any(|x| x == name) {
                    names.push(name.to_string());
                }
            }
        }
        if let Some(c) = columns.iter().find(|c| !names.contains(c)) {
            crate::user_bail!(
                "columns: the function computes no fact {c:?} per key (it computes {})",
                names.join(", ")
            );
        }
        let keys = ordered_values(&keys);
        let d = digits.unwrap_or(3);
        let rows: Vec<Vec<String>> = keys
            .iter()
            .map(|k| {
                let mut row = vec![label(k)];
                row.extend(
                    columns
                        .iter()
                        .map(|c| match facts.get(&format!("[{k}].{c}")) {
                            Some(Fact::Num(x)) => significant_or_number(*x, d),
                            Some(Fact::Int(i)) => number(*i as f64, 0),
                            Some(Fact::Text(t)) => text_cell(t, d),
                            None => "–".into(),
                        }),
                );
                row
            })
            .collect();
        let headers = &b.look.headers;
        let mut head = vec![headers.get("key").cloned().unwrap_or_default()];
        head.extend(
            columns
                .iter()
                .map(|c| headers.get(c).cloned().unwrap_or(c.replace('_', " "))),
        );
        Ok(table(&head, rows))
    }
}

impl Renderer<'_> {
    /// The caption of a table block whose study gives none: what it shows, in the
    /// words of its headers, and whether its numbers are wall-clock times (a timing
    /// column, or one derived from one), which vary from run to run.
    pub(super) fn default_caption(&self, b: &Block, sel: &Selected) -> String {
        let what = self.what_it_shows(b, sel);
        let timing = b
            .numeric_columns()
            .iter()
            .any(|(_, c)| crate::present::derive::column_is_timing(c, &sel.derived));
        match timing && !what.is_empty() {
            true => format!("{what}; the times are wall-clock and vary from run to run"),
            false => what,
        }
    }

    fn what_it_shows(&self, b: &Block, sel: &Selected) -> String {
        let by = b.group_list();
        let group = match by.is_empty() {
            true => String::new(),
            false => format!(" by {}", self.group_header(b, sel, &by)),
        };
        let metric = |m: &Option<String>| self.header(b, sel, m.as_deref().unwrap_or_default());
        match &b.kind {
            Kind::Table(k) => format!(
                "{}{group}: runs, median, interquartile range, 95% bootstrap interval of the median and mean",
                metric(&k.metric)
            ),
            Kind::Compare(k) => format!(
                "{}{group}, best first, each tested against the best",
                metric(&k.metric)
            ),
            Kind::Aggregate(k) => {
                let names: Vec<String> = k.metrics.iter().map(|m| self.header(b, sel, m)).collect();
                format!(
                    "{}{group} ({:?} over the runs)",
                    names.join(", "),
                    k.aggregate
                )
                .to_lowercase()
            }
            Kind::Pivot(k) => format!(
                "{} ({:?} over the runs) by {} and {}",
                metric(&k.metric),
                k.aggregate,
                metric(&k.rows),
                metric(&k.columns)
            ),
            Kind::Ert(_) => format!(
                "expected running time to each target{group}, with the runs that reached it"
            ),
            Kind::FixedBudget(_) => format!("the best value reached within each budget{group}"),
            Kind::Rows(_) | Kind::Facts(_) => format!("{}{group}", sel.experiments.join(", ")),
            _ => String::new(),
        }
    }
}

/// A fact's number: small fractions to three significant digits, others as numbers.
fn significant_or_number(x: f64, digits: usize) -> String {
    if x != 0.0 && x.abs() < 0.1 {
        significant(x, 3)
    } else {
        number(x, digits)
    }
}

/// A piece of a cell: a number (its digits before and after the point, separators
/// dropped) or text between numbers.
#[derive(Debug, PartialEq)]
enum Token {
    Number { whole: String, fraction: String },
    Text(String),
}

/// A cell cut into numbers and the text between them. A comma belongs to a number only
/// as a thousands separator (three digits follow it, and no fourth).
fn tokens(cell: &str) -> Vec<Token> {
    let chars: Vec<char> = cell.chars().collect();
    let mut out = Vec::new();
    let mut text = String::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            text.push(chars[i]);
            i += 1;
            continue;
        }
        let (mut whole, mut fraction) = (String::new(), String::new());
        while i < chars.len() {
            let c = chars[i];
            let group = |at: usize| {
                (at + 1..at + 4).all(|j| chars.get(j).is_some_and(char::is_ascii_digit))
                    && !chars.get(at + 4).is_some_and(char::is_ascii_digit)
            };
            if c.is_ascii_digit() {
                whole.push(c);
            } else if c == ',' && group(i) {
            } else {
                break;
            }
            i += 1;
        }
        if chars.get(i) == Some(&'.') && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
            i += 1;
            while let Some(c) = chars.get(i).filter(|c| c.is_ascii_digit()) {
                fraction.push(*c);
                i += 1;
            }
        }
        if !text.is_empty() {
            out.push(Token::Text(std::mem::take(&mut text)));
        }
        out.push(Token::Number { whole, fraction });
    }
    if !text.is_empty() {
        out.push(Token::Text(text));
    }
    out
}

/// Whether a cell holds only numbers (values, ranges, intervals, p-values) or nothing
/// (`–`): what a number column holds.
pub fn is_number(cell: &str) -> bool {
    let cell = cell.trim();
    !cell.is_empty()
        && tokens(cell).iter().all(|t| match t {
            Token::Number { .. } => true,
            Token::Text(t) => t.chars().all(|c| " –-−+%[],<>=≤≥p×∞()/".contains(c)),
        })
}

/// A table's numbers written one way: in each number column every number has the same
/// decimals (the most any has), numbers of four digits or more have thousands
/// separators everywhere in the table, and a column of seeds (its header says `seed`)
/// shows them exactly, without separators.
pub(super) fn uniform(head: &[String], rows: &mut [Vec<String>]) {
    for (c, name) in head.iter().enumerate() {
        let cells: Vec<&String> = rows.iter().filter_map(|r| r.get(c)).collect();
        if !cells.iter().all(|t| is_number(t)) {
            continue;
        }
        let seeds = name.to_lowercase().contains("seed");
        let decimals = cells
            .iter()
            .flat_map(|t| tokens(t))
            .map(|t| match t {
                Token::Number { fraction, .. } => fraction.len(),
                Token::Text(_) => 0,
            })
            .max()
            .unwrap_or(0);
        for row in rows.iter_mut() {
            if let Some(cell) = row.get_mut(c) {
                *cell = rewrite(cell, decimals, !seeds);
            }
        }
    }
}

/// A number cell with every number at `decimals` decimals, thousands separated or not.
fn rewrite(cell: &str, decimals: usize, separated: bool) -> String {
    tokens(cell)
        .into_iter()
        .map(|t| match t {
            Token::Text(t) => t,
            Token::Number { whole, fraction } => {
                let whole = match (separated, whole.parse::<u64>()) {
                    (true, Ok(n)) => crate::util::numfmt::thousands(n),
                    _ => whole,
                };
                match decimals {
                    0 => whole,
                    d => format!("{whole}.{fraction:0<d$}"),
                }
            }
        })
        .collect()
}

/// A table in markdown with its numbers written one way ([`uniform`]).
pub(super) fn table(head: &[String], mut rows: Vec<Vec<String>>) -> String {
    uniform(head, &mut rows);
    markdown_table(head, &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(rows: &[&[&str]]) -> Vec<Vec<String>> {
        rows.iter()
            .map(|r| r.iter().map(|c| c.to_string()).collect())
            .collect()
    }

    #[test]
    fn one_format_per_column_separators_everywhere_seeds_exact() {
        let head: Vec<String> = ["group", "mean", "IQR", "CI", "its seed", "p"]
            .map(String::from)
            .into();
        let mut rows = cells(&[
            &[
                "1000",
                "2.025",
                "587–1469",
                "[708, 1,094]",
                "1700970074948867969",
                "p < 0.0001",
            ],
            &["20,000", "1.5", "19–127", "[40, 62.5]", "17", "–"],
            &["anneal", "1", "17–18", "[1, 2]", "7", "p = 0.3346"],
        ]);
        uniform(&head, &mut rows);
        assert_eq!(
            rows[0],
            [
                "1000",
                "2.025",
                "587–1,469",
                "[708.0, 1,094.0]",
                "1700970074948867969",
                "p < 0.0001"
            ]
        );
        assert_eq!(
            rows[1],
            ["20,000", "1.500", "19–127", "[40.0, 62.5]", "17", "–"]
        );
        assert_eq!(rows[2][1], "1.000");
        // The group column holds text, so it is left as is.
        assert_eq!(rows[2][0], "anneal");
        let mut rows = cells(&[&["1000"], &["20000"], &["5,000"]]);
        uniform(&["budget".to_string()], &mut rows);
        assert_eq!(rows, cells(&[&["1,000"], &["20,000"], &["5,000"]]));
    }

    #[test]
    fn cells_of_numbers_and_cells_of_text() {
        for t in [
            "18",
            "17–18",
            "[708, 1,094]",
            "p < 0.0001",
            "0.41",
            "−16",
            "∞",
            "–",
            "12%",
        ] {
            assert!(is_number(t), "{t}");
        }
        for t in ["large", "anneal geometric", "", "k = 10", "10 descents"] {
            assert!(!is_number(t), "{t}");
        }
    }
}
