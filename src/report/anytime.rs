//! The anytime blocks, read from the anytime tables: the runtime distribution (`ecdf`,
//! a figure: see [`crate::present::figure`]), the expected running time to each target
//! (`ert`) and the best value reached within fixed budgets (`fixed_budget`). Targets
//! are absolute or fractions of a domain's reference value per problem; budgets may be
//! read per unit of a problem dimension.

use super::blocks::{Renderer, Selected};
use crate::present::anytime::{Hits, at_budgets, ert, hits, trivial};
use crate::present::charts::label;
use crate::present::facts::Facts;
use crate::present::figure::{Reference, RuntimeSpec};
use crate::present::format::number;
use crate::study::block::{Block, ErtTable, FixedBudgetTable, Kind, TargetKeys};

impl Renderer<'_> {
    /// The reference function a block's relative targets name.
    pub(super) fn reference(&self, b: &Block) -> anyhow::Result<Option<Reference>> {
        let keys = match &b.kind {
            Kind::Ecdf(k) => &k.targets,
            Kind::Ert(k) => &k.targets,
            _ => return Ok(None),
        };
        let Some(name) = &keys.reference else {
            return Ok(None);
        };
        let reference = self
            .functions
            .references
            .iter()
            .find(|r| r.name == name)
            .ok_or_else(|| anyhow::anyhow!("no reference function {name}"))?;
        Ok(Some(reference.value))
    }

    /// The hitting times of the block's groups; when every target is reached at the
    /// first checkpoint, a warning on stderr and a note for the reader.
    pub(super) fn block_hits(
        &self,
        b: &Block,
        sel: &Selected,
        r: &RuntimeSpec,
    ) -> anyhow::Result<(Vec<Hits>, String)> {
        let better = self
            .tables
            .better(&sel.experiments, "best_so_far", b.better())?;
        let all = hits(
            &sel.anytime,
            &b.group_list(),
            r.targets()?,
            better,
            r.per.as_deref(),
        )?;
        let note = if trivial(&all) {
            crate::say!(
                "searchlab: warning: block {}: every target is reached at the first checkpoint, so the {} says nothing of speed (harder targets?)",
                sel.name,
                b.kind_name()
            );
            "\n*Every target is reached at the first checkpoint: these targets do not tell the methods apart.*\n".to_string()
        } else {
            String::new()
        };
        Ok((all, note))
    }

    /// A runtime block's targets as a figure's spec holds them.
    fn runtime(
        &self,
        b: &Block,
        t: &TargetKeys,
        per: &Option<String>,
    ) -> anyhow::Result<RuntimeSpec> {
        Ok(RuntimeSpec {
            targets: t.targets.clone(),
            fractions: t.fractions.clone(),
            problem: t.problem.clone(),
            reference: self.reference(b)?,
            per: per.clone(),
            words: t.words(),
        })
    }

    /// The budget's name, per problem dimension if divided.
    fn budget_words(per: &Option<String>) -> String {
        match per {
            Some(p) => format!("evaluations per {}", p.trim_end_matches('s')),
            None => "evaluations".to_string(),
        }
    }

    /// The expected running time to each target, with successes, per group; facts for
    /// the last (hardest) target: per group `[GROUP].ert`, `.success` (a share),
    /// `.successes` and `.runs`; `target`; and `best`, `best_ert`, `best_success` (the
    /// group with the lowest ERT to it).
    pub(super) fn ert_block(
        &self,
        b: &Block,
        k: &ErtTable,
        sel: &Selected,
        facts: &mut Facts,
    ) -> anyhow::Result<String> {
        let runtime = self.runtime(b, &k.targets, &k.per)?;
        let (all, note) = self.block_hits(b, sel, &runtime)?;
        let count = k.targets.count();
        let last = count - 1;
        let mut f = Facts::default();
        let mut rows = Vec::new();
        let mut best: Option<(f64, String, f64)> = None;
        for h in &all {
            let key = h.group.join(", ");
            let mut row = vec![
                h.group
                    .iter()
                    .map(|v| label(v))
                    .collect::<Vec<_>>()
                    .join(", "),
            ];
            for t in 0..count {
                let (s, n, e) = ert(h, t);
                row.push(match e {
                    Some(e) => format!("{} ({s}/{n})", number(e, 0)),
                    None => format!("∞ (0/{n})"),
                });
                if t < last {
                    continue;
                }
                f.set(format!("[{key}].ert"), e.map_or(f64::INFINITY, f64::round));
                f.set(format!("[{key}].success"), s as f64 / n.max(1) as f64);
                f.set(format!("[{key}].successes"), s as i64);
                f.set(format!("[{key}].runs"), n as i64);
                if let Some(e) = e
                    && best.as_ref().is_none_or(|(b, ..)| e < *b)
                {
                    best = Some((e, key.clone(), s as f64 / n as f64));
                }
            }
            rows.push(row);
        }
        if let Some((e, g, rate)) = best {
            f.set("best", g);
            f.set("best_ert", e.round());
            f.set("best_success", rate);
        }
        match (k.targets.targets.last(), k.targets.fractions.last()) {
            (Some(t), _) => f.set("target", *t),
            (None, Some(x)) => f.set("target", *x),
            _ => {}
        }
        facts.extend_prefixed(&sel.prefix, f);
        let mut head = vec![self.group_header(b, sel, &b.group_list())];
        let budget = Self::budget_words(&k.per);
        head.extend((0..count).map(|t| match k.targets.targets.get(t) {
            Some(v) => format!("ERT to {} ({budget}; successes)", number(*v, 3)),
            None => format!(
                "ERT to {}% of the reference ({budget}; successes)",
                number(k.targets.fractions[t] * 100.0, 1)
            ),
        }));
        Ok(super::tables::table(&head, rows) + &note)
    }

    /// Per group and budget, the median (and quartiles) of the best value reached
    /// within the budget; facts `[GROUP][BUDGET].median`, `.q1`, `.q3`, and per budget
    /// `[BUDGET].best` (the group with the best median, then mean).
    pub(super) fn fixed_budget_block(
        &self,
        b: &Block,
        k: &FixedBudgetTable,
        sel: &Selected,
        facts: &mut Facts,
    ) -> anyhow::Result<String> {
        let better = self
            .tables
            .better(&sel.experiments, "best_so_far", b.better())?;
        let values = at_budgets(&sel.anytime, &b.group_list(), &k.budgets, k.per.as_deref())?;
        let mut f = Facts::default();
        let mut rows = Vec::new();
        // Per budget: the best (median, mean) so far and its group.
        let mut best: Vec<Option<((f64, f64), String)>> = vec![None; k.budgets.len()];
        for (group, per_budget) in &values {
            let key = group.join(", ");
            let mut row = vec![
                group
                    .iter()
                    .map(|v| label(v))
                    .collect::<Vec<_>>()
                    .join(", "),
            ];
            for (i, v) in per_budget.iter().enumerate() {
                let budget = number(k.budgets[i], 0).replace(',', "");
                let Some(s) = crate::stats::Summary::of(v) else {
                    row.push("–".into());
                    continue;
                };
                f.set(format!("[{key}][{budget}].median"), s.median);
                f.set(format!("[{key}][{budget}].q1"), s.q1);
                f.set(format!("[{key}][{budget}].q3"), s.q3);
                row.push(format!(
                    "{} ({} to {})",
                    number(s.median, 1),
                    number(s.q1, 1),
                    number(s.q3, 1)
                ));
                let score = (s.median, s.mean);
                let ahead = best[i].as_ref().is_none_or(|(m, _)| {
                    let order = score.0.total_cmp(&m.0).then(score.1.total_cmp(&m.1));
                    match better {
                        crate::pipeline::metrics::Better::Lower => order.is_lt(),
                        crate::pipeline::metrics::Better::Higher => order.is_gt(),
                    }
                });
                if ahead {
                    best[i] = Some((score, key.clone()));
                }
            }
            rows.push(row);
        }
        for (i, m) in best.into_iter().enumerate() {
            if let Some((_, g)) = m {
                f.set(
                    format!("[{}].best", number(k.budgets[i], 0).replace(',', "")),
                    g,
                );
            }
        }
        facts.extend_prefixed(&sel.prefix, f);
        let mut head = vec![self.group_header(b, sel, &b.group_list())];
        let budget = Self::budget_words(&k.per);
        head.extend(
            k.budgets
                .iter()
                .map(|x| format!("best so far at {} {budget} (median, IQR)", number(*x, 0))),
        );
        Ok(super::tables::table(&head, rows))
    }
}
