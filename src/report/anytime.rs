//! The anytime blocks, read from the anytime tables: the runtime distribution (`ecdf`,
//! a figure: see [`crate::present::figure`]), the expected running time to each target
//! (`ert`) and the best value reached within fixed budgets (`fixed_budget`). Targets
//! are absolute or fractions of a domain's reference value per problem; budgets may be
//! read per unit of a problem dimension.

use super::blocks::{Renderer, Selected};
use crate::pipeline::table::texts;
use crate::present::anytime::{Hits, at_budgets, ert, ert_interval, hits, longest, trivial};
use crate::present::charts::{label, ordered_values};
use crate::present::facts::Facts;
use crate::present::figure::{Reference, RuntimeSpec};
use crate::present::format::{interval, number};
use crate::study::block::{Block, ErtTable, FixedBudgetTable, Kind, TargetKeys};
use crate::util::rng::fnv1a;

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

    /// The reference values of a block's relative targets, per problem of its rows: a
    /// line for the reader naming them and the targets they give, and the facts
    /// `reference[PROBLEM]` and `target[PROBLEM]` (the hardest target of each problem).
    /// Nothing for absolute targets.
    pub(super) fn references_shown(
        &self,
        b: &Block,
        sel: &Selected,
    ) -> anyhow::Result<(String, Facts)> {
        let keys = match &b.kind {
            Kind::Ecdf(k) => &k.targets,
            Kind::Ert(k) => &k.targets,
            _ => return Ok((String::new(), Facts::default())),
        };
        let (Some(name), Some(problem), Some(reference)) =
            (&keys.reference, &keys.problem, self.reference(b)?)
        else {
            return Ok((String::new(), Facts::default()));
        };
        let mut f = Facts::default();
        let mut shown = Vec::new();
        let hardest = keys.fractions.last().copied().unwrap_or(1.0);
        for p in ordered_values(&texts(&sel.anytime, problem)?) {
            let Some(r) = reference(&p) else { continue };
            f.set(format!("reference[{p}]"), r);
            f.set(format!("target[{p}]"), r * hardest);
            let targets: Vec<String> = keys.fractions.iter().map(|x| number(x * r, 2)).collect();
            shown.push(format!(
                "{problem} {p}: {} (targets {})",
                number(r, 2),
                targets.join(", ")
            ));
        }
        let line = format!("\n*Reference values ({name}): {}.*\n", shown.join("; "));
        Ok((line, f))
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

    /// The expected running time to each target, with successes and its 95% bootstrap
    /// interval, per group; an ERT above the longest run's budget is marked as
    /// extrapolated (†, explained under the table). Facts for the last (hardest) target:
    /// per group `[GROUP].ert`, `.ert_low`, `.ert_high`, `.status` (`within the budget` or
    /// `extrapolated beyond the budget of N evaluations`), `.success` (a share),
    /// `.successes` and `.runs`; `target`; `budget` (the longest run); and `best`,
    /// `best_ert`, `best_ert_low`, `best_ert_high`, `best_status`, `best_success` (the
    /// group with the lowest ERT to it), with `best_tied` (the groups whose interval
    /// overlaps the best's; `none`), `best_tied_count` and `leaders`.
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
        let budget_words = Self::budget_words(&k.per);
        let mut f = Facts::default();
        let mut rows = Vec::new();
        let mut hardest: Vec<(String, f64, (f64, f64))> = Vec::new();
        let mut extrapolated = false;
        for h in &all {
            let key = h.group.join(", ");
            let label = h.group.iter().map(|v| label(v)).collect::<Vec<_>>();
            let mut row = vec![label.join(", ")];
            let longest = longest(h);
            for t in 0..count {
                let (s, n, e) = ert(h, t);
                let ci = ert_interval(h, t, fnv1a(format!("{key}|{t}").as_bytes()));
                let beyond = e.is_some_and(|e| e > longest);
                extrapolated |= beyond;
                row.push(match e {
                    Some(e) => format!(
                        "{}{} {} ({s}/{n})",
                        number(e, 0),
                        if beyond { "†" } else { "" },
                        interval(ci.0, ci.1).replace('–', "∞"),
                    ),
                    None => format!("∞ (0/{n})"),
                });
                if t + 1 < count {
                    continue;
                }
                let status = match beyond {
                    true => format!(
                        "extrapolated beyond the budget of {} {budget_words}",
                        number(longest, 0)
                    ),
                    false => "within the budget".to_string(),
                };
                let mut g = Facts::default();
                g.set("ert", e.map_or(f64::INFINITY, f64::round));
                g.set("ert_low", ci.0.round());
                g.set("ert_high", ci.1.round());
                g.set("status", status.clone());
                g.set("success", s as f64 / n.max(1) as f64);
                g.set("successes", s as i64);
                g.set("runs", n as i64);
                if let Some(e) = e {
                    hardest.push((key.clone(), e, ci));
                }
                f.extend_prefixed(&format!("[{key}]"), g);
            }
            rows.push(row);
        }
        f.extend_prefixed("", ert_leaders(&hardest, &f));
        let (line, refs) = self.references_shown(b, sel)?;
        match (k.targets.targets.last(), k.targets.fractions.last()) {
            (Some(t), _) => f.set("target", *t),
            (None, Some(x)) => {
                f.set("target_fraction", *x);
                // The real target: one problem's, or each problem's in words.
                let per: Vec<(&String, &crate::present::facts::Fact)> = refs
                    .0
                    .iter()
                    .filter(|(n, _)| n.starts_with("target["))
                    .collect();
                match per.as_slice() {
                    [(_, one)] => f.set("target", (*one).clone()),
                    many => f.set(
                        "target",
                        many.iter()
                            .map(|(n, v)| {
                                let v =
                                    crate::present::facts::format_fact(v, "").unwrap_or_default();
                                format!("{v} ({})", &n["target[".len()..n.len() - 1])
                            })
                            .collect::<Vec<_>>()
                            .join(", "),
                    ),
                }
            }
            _ => {}
        }
        f.extend_prefixed("", refs);
        if let Some(longest) = all.iter().map(longest).reduce(f64::max) {
            f.set("budget", longest);
        }
        facts.extend_prefixed(&sel.prefix, f);
        let mut head = vec![self.group_header(b, sel, &b.group_list())];
        head.extend((0..count).map(|t| match k.targets.targets.get(t) {
            Some(v) => format!(
                "ERT to {} ({budget_words}; 95% CI; successes)",
                number(*v, 3)
            ),
            None => format!(
                "ERT to {}% of the reference ({budget_words}; 95% CI; successes)",
                number(k.targets.fractions[t] * 100.0, 1)
            ),
        }));
        let dagger = match extrapolated {
            true => {
                "\n*† above the longest run's budget: extrapolated from the share of runs that reached the target, not observed. Intervals: 95% bootstrap over the runs.*\n"
            }
            false => "\n*Intervals: 95% bootstrap over the runs.*\n",
        };
        Ok(super::tables::table(&head, rows) + dagger + &line + &note)
    }

    /// Per group and budget, the median (and quartiles) of the best value reached
    /// within the budget; facts `[GROUP][BUDGET].median`, `.q1`, `.q3`, and per budget
    /// `[BUDGET].best` (the group with the best median, then mean) with
    /// `[BUDGET].leaders` and `[BUDGET].best.tied`: the groups not significantly worse
    /// than it, by the compare block's unpaired test (Mann–Whitney, Holm-corrected).
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
                let at = format!("[{}]", number(k.budgets[i], 0).replace(',', ""));
                f.set(format!("{at}.best"), g);
                f.extend_prefixed(&at, budget_leaders(&values, &b.group_list(), i, better)?);
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

/// The group with the lowest ERT to the hardest target (of `hardest`: group, ERT,
/// interval), its facts as `best_*` (from the groups' facts `f`), and the groups whose
/// interval overlaps its own: `best_tied`, `best_tied_count`, `leaders`.
fn ert_leaders(hardest: &[(String, f64, (f64, f64))], f: &Facts) -> Facts {
    let mut out = Facts::default();
    let Some((best, _, ci)) = hardest.iter().min_by(|a, b| a.1.total_cmp(&b.1)) else {
        return out;
    };
    out.set("best", best.clone());
    for k in ["ert", "ert_low", "ert_high", "status", "success"] {
        if let Some(v) = f.get(&format!("[{best}].{k}")) {
            out.set(format!("best_{k}"), v.clone());
        }
    }
    let tied: Vec<String> = hardest
        .iter()
        .filter(|(g, _, c)| g != best && c.0 <= ci.1 && ci.0 <= c.1)
        .map(|(g, ..)| g.clone())
        .collect();
    let named = crate::present::compare::leaders(best, &tied);
    for (k, v) in named.0 {
        out.set(k.replace("best.", "best_"), v);
    }
    out
}

/// The leaders at budget `i` of the fixed-budget values: the groups' values ranked as a
/// compare block ranks them (unpaired), as `leaders`, `best.tied` and `best.tied_count`.
fn budget_leaders(
    values: &[crate::present::anytime::BudgetValues],
    by: &[String],
    i: usize,
    better: crate::pipeline::metrics::Better,
) -> anyhow::Result<Facts> {
    use crate::present::compare::{Pairing, facts, rank};
    use crate::present::view::{Group, GroupSample};
    let groups: Vec<GroupSample> = values
        .iter()
        .filter_map(|(group, per_budget)| {
            let sample = per_budget[i].clone();
            let summary = crate::stats::Summary::of(&sample)?;
            Some(GroupSample {
                group: Group {
                    columns: by.to_vec(),
                    values: group.clone(),
                    rows: polars::prelude::DataFrame::default(),
                },
                sample,
                summary,
            })
        })
        .collect();
    let mut out = Facts::default();
    if groups.len() < 2 || groups.iter().any(|g| g.sample.len() < 2) {
        return Ok(out);
    }
    let all = facts(&rank(groups, "best_so_far", better, &Pairing::None, None)?);
    for k in ["leaders", "best.tied", "best.tied_count"] {
        if let Some(v) = all.get(k) {
            out.set(k, v.clone());
        }
    }
    Ok(out)
}
