//! What a figure's columns mean, in the words the domains and configs declare: a
//! metric's label and unit (`best path length (moves)`), a parameter's label (`decay
//! rate`), a problem dimension's name, what a config's variants are (its
//! `variant_label`: the words of the `variant` column), and how the anytime table reads
//! (what its budget counts, the quantity its objective stands for). Figures take their
//! axis and legend titles from here, so no figure shows a raw column name that a
//! declaration explains.

use crate::pipeline::plan::Plan;
use crate::pipeline::runner::Objective;
use std::collections::{BTreeMap, BTreeSet};

/// The declared words of the columns of one or several experiments' tables.
#[derive(Debug, Clone, Default)]
pub struct Words {
    /// Axis words per column.
    pub columns: BTreeMap<String, String>,
    /// The parameters that are a run's budget (evaluations, expansions).
    pub budgets: BTreeSet<String>,
    /// How the anytime table reads, if the domain declares it.
    pub objective: Option<Objective>,
}

impl Words {
    /// The words of a plan's columns: its parameters', its metrics' and its dimension's.
    pub fn of_plan(plan: &Plan) -> Words {
        let mut w = Words {
            objective: plan.runner.objective,
            ..Words::default()
        };
        for a in plan.used() {
            for p in &a.params {
                w.columns.insert(p.name.to_string(), p.words());
                if p.budget {
                    w.budgets.insert(p.name.to_string());
                }
            }
        }
        for m in plan.metric_names() {
            if let Some(spec) = plan.metric(m) {
                w.columns.insert(m.to_string(), spec.header());
            }
        }
        if let Some(d) = &plan.runner.dimension {
            w.columns.insert(d.name.to_string(), d.name.to_string());
        }
        if let Some(v) = &plan.variant_label {
            w.columns.insert("variant".to_string(), v.clone());
        }
        w
    }

    /// The words of several experiments read together (the first declaration wins).
    pub fn merged<'a>(all: impl IntoIterator<Item = &'a Words>) -> Words {
        let mut out = Words::default();
        for w in all {
            for (k, v) in &w.columns {
                out.columns.entry(k.clone()).or_insert_with(|| v.clone());
            }
            out.budgets.extend(w.budgets.iter().cloned());
            out.objective = out.objective.or(w.objective);
        }
        out
    }

    /// A column's words: declared, else its name with spaces for underscores.
    pub fn of(&self, column: &str) -> String {
        self.columns
            .get(column)
            .cloned()
            .unwrap_or_else(|| column.replace('_', " "))
    }

    /// What the anytime table's `iteration` counts.
    pub fn budget(&self) -> &str {
        self.objective.map_or("evaluations", |o| o.budget)
    }
}

/// A group's value in a legend: a number (or no limit) with its column's name,
/// `decay = 0.999`, `sideways_cap = ∞`; a name (`annealing`) alone.
pub fn entry(column: &str, value: &str) -> String {
    let shown = label(value);
    let numeric = value.is_empty() || value == "none" || value.parse::<f64>().is_ok();
    match numeric && !column.is_empty() {
        true => format!("{column} = {shown}"),
        false => shown,
    }
}

/// Several columns' values of one group: `schedule = …, decay = 0.99` style entries
/// joined by commas.
pub fn entries(columns: &[String], values: &[String]) -> String {
    let parts: Vec<String> = columns
        .iter()
        .zip(values)
        .map(
            |(c, v)| match columns.len() > 1 && v.parse::<f64>().is_err() {
                true => format!("{c} = {}", label(v)),
                false => entry(c, v),
            },
        )
        .collect();
    parts.join(", ")
}

/// A label for a value of a column: "none" (no limit) reads as ∞ on an axis, a
/// whole number from 10,000 up takes thousands separators, a negative one a true minus.
pub fn label(v: &str) -> String {
    if v.is_empty() || v == "none" {
        "∞".to_string()
    } else if v.len() >= 5 && v.bytes().all(|b| b.is_ascii_digit()) {
        v.parse::<u64>()
            .map_or_else(|_| v.to_string(), crate::util::numfmt::thousands)
    } else if v.starts_with('-') && v.parse::<f64>().is_ok() {
        crate::present::plot::minus(v.to_string())
    } else {
        v.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legend_entries_name_numbers_and_leave_names_alone() {
        assert_eq!(entry("decay", "0.999"), "decay = 0.999");
        assert_eq!(entry("sideways_cap", "none"), "sideways_cap = ∞");
        assert_eq!(entry("variant", "annealing"), "annealing");
        assert_eq!(entry("budget", "1500000"), "budget = 1,500,000");
        let cols = ["schedule".to_string(), "decay".to_string()];
        assert_eq!(
            entries(&cols, &["geometric".into(), "0.99".into()]),
            "schedule = geometric, decay = 0.99"
        );
        let w = Words {
            columns: [("decay".to_string(), "decay rate".to_string())].into(),
            ..Words::default()
        };
        assert_eq!(w.of("decay"), "decay rate");
        assert_eq!(w.of("sideways_cap"), "sideways cap");
        assert_eq!(w.budget(), "evaluations");
    }
}
