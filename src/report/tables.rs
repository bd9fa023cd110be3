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
    AggregateTable, Block, CompareTable, PivotTable, RowsTable, SummaryTable,
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
        Ok(markdown_table(&head, &rows))
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
        Ok(markdown_table(&head, &rows) + &compare::alias_note(&aliases) + &hint)
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
        Ok(markdown_table(&head, &rows))
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
        Ok(markdown_table(&head, &rows))
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
        Ok(markdown_table(&head, &rows))
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
        Ok(markdown_table(&head, &rows))
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
