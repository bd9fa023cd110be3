//! Comparisons: a ranking of groups in which every group is tested against the best.
//!
//! The best group has the best median (ties: the best mean). Each other group is tested
//! against it with a two-sided Mann–Whitney U test, or, when runs are paired (the same
//! replicate or instance in every group), a Wilcoxon signed-rank test on the pairs; the
//! p-values are Holm-corrected over the k − 1 tests, and the Vargha–Delaney A12 gives the
//! probability that a run of the best group beats a run of the other (ties count half),
//! with Vargha & Delaney's reading of its size. The same ranking serves the report's
//! comparison blocks and `searchlab compare`.

use crate::pipeline::metrics::Better;
use crate::present::facts::{CanonicalFunction, Facts};
use crate::present::view::{GroupSample, sample};
use crate::stats::{a12, a12_magnitude, holm, mann_whitney_u, wilcoxon_signed_rank};

/// The significance level of "significantly worse than the best".
pub const ALPHA: f64 = 0.05;

/// One group of a ranking.
pub struct Ranked {
    pub entry: GroupSample,
    /// 1 for the best.
    pub rank: usize,
    /// Raw and Holm-corrected p-values against the best (`None` for the best itself).
    pub p: Option<f64>,
    pub p_holm: Option<f64>,
    /// A12 of the best against this group, in the direction of "better".
    pub a12: Option<f64>,
    pub effect: Option<&'static str>,
}

impl Ranked {
    /// True when the group is significantly worse than the best (Holm-corrected).
    pub fn worse(&self) -> bool {
        self.p_holm.is_some_and(|p| p < ALPHA)
    }
}

/// How runs are compared.
#[derive(Debug, Clone, PartialEq)]
pub enum Pairing {
    /// Independent samples: Mann–Whitney U.
    None,
    /// Runs paired by the values of these columns: Wilcoxon signed-rank on the pairs.
    By(Vec<String>),
}

impl Pairing {
    /// The test's name, for headers and legends.
    pub fn test_name(&self) -> &'static str {
        match self {
            Pairing::None => "Mann–Whitney",
            Pairing::By(_) => "Wilcoxon",
        }
    }
}

/// Ranks the groups (at least two, each with at least two runs).
pub fn rank(
    groups: Vec<GroupSample>,
    metric: &str,
    better: Better,
    pairing: &Pairing,
    missing: Option<f64>,
) -> anyhow::Result<Vec<Ranked>> {
    if groups.len() < 2 {
        anyhow::bail!(
            "a comparison needs at least two groups, and the rows give {}",
            groups.len()
        );
    }
    if let Some(g) = groups.iter().find(|g| g.sample.len() < 2) {
        anyhow::bail!(
            "group {} has {} run(s); a comparison needs at least 2 per group",
            g.group.label(),
            g.sample.len()
        );
    }
    let sign = if better == Better::Higher { 1.0 } else { -1.0 };
    let mut groups = groups;
    groups.sort_by(|a, b| {
        let (sa, sb) = (&a.summary, &b.summary);
        (sign * sb.median)
            .total_cmp(&(sign * sa.median))
            .then((sign * sb.mean).total_cmp(&(sign * sa.mean)))
    });
    if let Pairing::By(cols) = pairing {
        check_pairing(&groups, cols)?;
    }
    let best = &groups[0];
    let mut raw = Vec::new();
    let mut a12s = Vec::new();
    for other in &groups[1..] {
        let p = match pairing {
            Pairing::None => mann_whitney_u(&best.sample, &other.sample).p_value,
            Pairing::By(cols) => {
                let (x, y) = paired(best, other, cols, metric, missing)?;
                wilcoxon_signed_rank(&x, &y)
                    .map(|w| w.p_value)
                    .unwrap_or(1.0)
            }
        };
        raw.push(p);
        let (b, o): (Vec<f64>, Vec<f64>) = (
            best.sample.iter().map(|v| sign * v).collect(),
            other.sample.iter().map(|v| sign * v).collect(),
        );
        a12s.push(a12(&b, &o));
    }
    let adjusted = holm(&raw);
    Ok(groups
        .into_iter()
        .enumerate()
        .map(|(i, entry)| {
            let test = i.checked_sub(1);
            Ranked {
                entry,
                rank: i + 1,
                p: test.map(|t| raw[t]),
                p_holm: test.map(|t| adjusted[t]),
                a12: test.map(|t| a12s[t]),
                effect: test.map(|t| a12_magnitude(a12s[t])),
            }
        })
        .collect())
}

/// The best group (by median, then mean) for each value of `column`, one of the
/// grouping columns `by`: e.g. each schedule family's best setting.
pub fn best_of(
    groups: Vec<GroupSample>,
    by: &[String],
    column: &str,
    better: Better,
) -> anyhow::Result<Vec<GroupSample>> {
    let Some(at) = by.iter().position(|c| c == column) else {
        anyhow::bail!("best_of = {column:?} must be one of the grouping columns");
    };
    let sign = if better == Better::Higher { 1.0 } else { -1.0 };
    let mut out: Vec<GroupSample> = Vec::new();
    for g in groups {
        match out
            .iter_mut()
            .find(|o| o.group.values[at] == g.group.values[at])
        {
            Some(o) => {
                let key = |x: &GroupSample| (sign * x.summary.median, sign * x.summary.mean);
                let (a, b) = (key(&g), key(o));
                if a.0 > b.0 || (a.0 == b.0 && a.1 > b.1) {
                    *o = g;
                }
            }
            None => out.push(g),
        }
    }
    Ok(out)
}

/// Groups of a ranking that run one algorithm under several names: each group whose
/// runs all have one canonical form (the domain's [`CanonicalFunction`] of their
/// algorithm) shares it with the others listed, as (their labels, in rank order; the
/// words naming the algorithm). Groups whose runs differ in form are in none.
pub fn same_algorithm(
    ranked: &[Ranked],
    canonical: &[CanonicalFunction],
) -> anyhow::Result<Vec<(Vec<String>, String)>> {
    let mut classes: Vec<(String, Vec<String>, String)> = Vec::new();
    for r in ranked {
        let rows = &r.entry.group.rows;
        let names: Vec<String> = rows
            .get_column_names()
            .iter()
            .map(|c| c.to_string())
            .collect();
        let columns: Vec<Vec<String>> = names
            .iter()
            .map(|c| crate::pipeline::table::texts(rows, c))
            .collect::<anyhow::Result<_>>()?;
        let mut forms = std::collections::BTreeSet::new();
        for i in 0..rows.height() {
            let row: std::collections::BTreeMap<String, String> = names
                .iter()
                .zip(&columns)
                .map(|(n, c)| (n.clone(), c[i].clone()))
                .collect();
            let form = canonical
                .iter()
                .find(|c| row.get("algorithm").is_some_and(|a| a == c.algorithm))
                .and_then(|c| (c.canonical)(&row));
            forms.insert(form);
        }
        let mut forms = forms.into_iter();
        let (Some(Some((key, words))), None) = (forms.next(), forms.next()) else {
            continue;
        };
        let label = r.entry.group.label();
        match classes.iter_mut().find(|c| c.0 == key) {
            Some(c) => c.1.push(label),
            None => classes.push((key, vec![label], words)),
        }
    }
    Ok(classes
        .into_iter()
        .filter(|c| c.1.len() > 1)
        .map(|(_, labels, words)| (labels, words))
        .collect())
}

/// The facts of [`same_algorithm`]'s classes: `aliases` (`a = b (words); …` or `none`),
/// `aliases_count`, and per group in a class `[GROUP].same_as` (the others), and
/// `best.same_as` (`none` when the best is in no class).
pub fn alias_facts(ranked: &[Ranked], classes: &[(Vec<String>, String)]) -> Facts {
    let mut f = Facts::default();
    let shown: Vec<String> = classes
        .iter()
        .map(|(labels, words)| format!("{} ({words})", labels.join(" = ")))
        .collect();
    f.set("aliases_count", classes.len());
    f.set(
        "aliases",
        if shown.is_empty() {
            "none".into()
        } else {
            shown.join("; ")
        },
    );
    f.set("best.same_as", "none");
    for r in ranked {
        let label = r.entry.group.label();
        let Some((labels, _)) = classes.iter().find(|c| c.0.contains(&label)) else {
            continue;
        };
        let others: Vec<&str> = labels
            .iter()
            .filter(|l| **l != label)
            .map(String::as_str)
            .collect();
        f.set(
            format!("[{}].same_as", r.entry.group.key()),
            others.join(", "),
        );
        if r.rank == 1 {
            f.set("best.same_as", others.join(", "));
        }
    }
    f
}

/// A note under a ranking for each of [`same_algorithm`]'s classes: the groups are one
/// algorithm, so their difference is the runs' noise (empty without a class).
pub fn alias_note(classes: &[(Vec<String>, String)]) -> String {
    classes
        .iter()
        .map(|(labels, words)| {
            format!(
                "\n*{} run the same algorithm under {} names ({words}): their difference is the noise between runs, not a difference of algorithms.*\n",
                labels.join(", "),
                if labels.len() == 2 { "two".to_string() } else { labels.len().to_string() }
            )
        })
        .collect()
}

/// For an unpaired ranking: the note that its groups ran on the same problem instances
/// (the `instance_seed` column pairs them one to one), so that a paired test would use
/// that; empty otherwise.
pub fn pairing_hint(groups: &[GroupSample]) -> String {
    let col = "instance_seed".to_string();
    let has = groups
        .iter()
        .all(|g| crate::pipeline::table::has_column(&g.group.rows, &col));
    let keyed = has
        && groups.iter().all(|g| {
            crate::pipeline::table::texts(&g.group.rows, &col)
                .is_ok_and(|t| t.iter().all(|v| !v.is_empty()))
        });
    if groups.len() < 2 || !keyed || check_pairing(groups, std::slice::from_ref(&col)).is_err() {
        return String::new();
    }
    format!(
        "\n*The groups ran on the same problem instances, one run each: `paired = \"{col}\"` would compare them instance by instance (Wilcoxon); this table does not.*\n"
    )
}

/// Each run's key: the values of the pairing columns, joined.
fn pair_keys(g: &GroupSample, cols: &[String]) -> anyhow::Result<Vec<String>> {
    let cols: Vec<Vec<String>> = cols
        .iter()
        .map(|c| crate::pipeline::table::texts(&g.group.rows, c))
        .collect::<anyhow::Result<_>>()?;
    Ok((0..g.group.rows.height())
        .map(|i| {
            cols.iter()
                .map(|c| c[i].as_str())
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect())
}

/// Checks that the columns `cols` pair the groups' runs one to one: within each group
/// every key (the columns' values) occurs once, and every group has the same keys. A
/// column constant within the groups, or one that leaves runs unmatched, is an error
/// naming the column, the key and the groups: a paired test on such "pairs" tests
/// something else than the data hold.
pub fn check_pairing(groups: &[GroupSample], cols: &[String]) -> anyhow::Result<()> {
    let named = cols.join(", ");
    let shown = |k: &str| k.replace('|', ", ");
    let mut first: Option<(String, std::collections::BTreeSet<String>)> = None;
    for g in groups {
        let mut seen = std::collections::BTreeMap::<String, usize>::new();
        for k in pair_keys(g, cols)? {
            *seen.entry(k).or_default() += 1;
        }
        if let Some((k, n)) = seen.iter().find(|(_, n)| **n > 1) {
            crate::user_bail!(
                "paired = {named:?} does not pair the runs: group {} has {n} runs with {named} = {}; a pairing column must take each value once per group",
                g.group.label(),
                shown(k)
            );
        }
        let keys: std::collections::BTreeSet<String> = seen.into_keys().collect();
        match &first {
            None => first = Some((g.group.label(), keys)),
            Some((label, base)) => {
                let odd = base
                    .symmetric_difference(&keys)
                    .next()
                    .map(|k| (k, base.contains(k)));
                if let Some((k, in_first)) = odd {
                    let (has, lacks) = match in_first {
                        true => (label.clone(), g.group.label()),
                        false => (g.group.label(), label.clone()),
                    };
                    crate::user_bail!(
                        "paired = {named:?} does not pair the runs: group {has} has a run with {named} = {} and group {lacks} has none; the groups must share the same values",
                        shown(k)
                    );
                }
            }
        }
    }
    Ok(())
}

/// The two groups' values on the runs they share, matched by the pairing columns.
fn paired(
    a: &GroupSample,
    b: &GroupSample,
    cols: &[String],
    metric: &str,
    missing: Option<f64>,
) -> anyhow::Result<(Vec<f64>, Vec<f64>)> {
    let values = |g: &GroupSample| -> anyhow::Result<Vec<Option<f64>>> {
        Ok(crate::pipeline::table::floats(&g.group.rows, metric)?
            .into_iter()
            .map(|v| v.or(missing))
            .collect())
    };
    let (ka, va) = (pair_keys(a, cols)?, values(a)?);
    let (kb, vb) = (pair_keys(b, cols)?, values(b)?);
    let index: std::collections::HashMap<&str, usize> = kb
        .iter()
        .enumerate()
        .map(|(i, k)| (k.as_str(), i))
        .collect();
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for (i, k) in ka.iter().enumerate() {
        if let (Some(&j), Some(u)) = (index.get(k.as_str()), va[i])
            && let Some(v) = vb[j]
        {
            x.push(u);
            y.push(v);
        }
    }
    if x.len() < 2 {
        anyhow::bail!(
            "groups {} and {} share {} paired run(s) by {}; a paired comparison needs at least 2",
            a.group.label(),
            b.group.label(),
            x.len(),
            cols.join(", ")
        );
    }
    Ok((x, y))
}

/// The ranking's facts: `best.*`, `second.*`, `worst.*` and `[group].*` with `group`,
/// `n`, `median`, `q1`, `q3`, `mean`, `ci_low`, `ci_high`, `rank`, and for every group
/// but the best `p`, `p_holm`, `a12`, `effect`; `groups` (how many), `runs`, `tied`
/// (the groups not significantly worse than the best, the best included, separated by
/// semicolons), `tied_count` and `worse_count`. So that no text names a single winner
/// where the data show a tie: `best.tied` (the groups tied with the best, the best
/// excluded, separated by commas; `none`), `best.tied_count`, and `leaders`, the best
/// with its tied set (`a (tied with b, c)` or `a alone`).
pub fn facts(ranked: &[Ranked]) -> Facts {
    let mut f = Facts::default();
    let one = |r: &Ranked| {
        let mut g = summary_facts(&r.entry);
        g.set("rank", r.rank);
        if let (Some(p), Some(ph), Some(a), Some(e)) = (r.p, r.p_holm, r.a12, r.effect) {
            g.set("p", p);
            g.set("p_holm", ph);
            g.set("a12", a);
            g.set("effect", e);
        }
        g
    };
    for r in ranked {
        f.extend_prefixed(&format!("[{}]", r.entry.group.key()), one(r));
    }
    if let Some(r) = ranked.get(1) {
        f.extend_prefixed("second", one(r));
    }
    if let Some(r) = ranked.last() {
        f.extend_prefixed("worst", one(r));
    }
    let tied: Vec<String> = ranked
        .iter()
        .filter(|r| !r.worse())
        .map(|r| r.entry.group.label())
        .collect();
    if let Some(r) = ranked.first() {
        f.extend_prefixed("best", one(r));
        f.extend_prefixed("", leaders(&r.entry.group.label(), &tied[1..]));
    }
    f.set("groups", ranked.len());
    f.set(
        "runs",
        ranked.iter().map(|r| r.entry.sample.len()).sum::<usize>(),
    );
    f.set("tied_count", tied.len());
    f.set("tied", tied.join("; "));
    f.set("worse_count", ranked.len() - tied.len());
    f
}

/// The facts naming a best with the groups tied with it (`others`, the best excluded):
/// `best.tied`, `best.tied_count` and `leaders`.
pub fn leaders(best: &str, others: &[String]) -> Facts {
    let mut f = Facts::default();
    let list = others.join(", ");
    f.set("best.tied_count", others.len());
    f.set(
        "best.tied",
        if others.is_empty() {
            "none".into()
        } else {
            list.clone()
        },
    );
    f.set(
        "leaders",
        if others.is_empty() {
            format!("{best} alone")
        } else {
            format!("{best} (tied with {list})")
        },
    );
    f
}

/// A group's summary as facts: `group`, `n`, `median`, `q1`, `q3`, `mean`, `min`, `max`,
/// `ci_low`, `ci_high`.
pub fn summary_facts(g: &GroupSample) -> Facts {
    let s = &g.summary;
    let mut f = Facts::default();
    f.set("group", g.group.label());
    f.set("n", s.n);
    for (k, v) in [
        ("median", s.median),
        ("q1", s.q1),
        ("q3", s.q3),
        ("mean", s.mean),
        ("min", s.min),
        ("max", s.max),
        ("ci_low", s.ci_low),
        ("ci_high", s.ci_high),
    ] {
        f.set(k, v);
    }
    f
}

/// The values of `metric` per group, for callers that have rows but no samples yet.
pub fn samples_of(
    groups: Vec<crate::present::view::Group>,
    metric: &str,
    missing: Option<f64>,
) -> anyhow::Result<Vec<GroupSample>> {
    let mut out = Vec::new();
    for group in groups {
        let s = sample(&group.rows, metric, missing)?;
        if let Some(summary) = crate::stats::Summary::of(&s) {
            out.push(GroupSample {
                group,
                sample: s,
                summary,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::params::Value;
    use crate::pipeline::table::{ColumnBuilder, frame, texts};
    use crate::present::view::summarize;

    fn groups_frame() -> polars::prelude::DataFrame {
        let mut g = ColumnBuilder::new("g");
        let mut r = ColumnBuilder::new("replicate");
        let mut y = ColumnBuilder::new("y");
        // a is clearly best, b slightly behind a, c far behind.
        for i in 0..20 {
            for (name, v) in [
                ("a", 10.0 + i as f64),
                ("b", 9.5 + i as f64),
                ("c", i as f64 * 0.1),
            ] {
                g.push(Value::from(name));
                r.push(Value::Int(i));
                y.push(Value::Float(v));
            }
        }
        frame(vec![g, r, y]).unwrap()
    }

    #[test]
    fn the_best_comes_first_and_others_are_tested_against_it() {
        let df = groups_frame();
        let groups = summarize(&df, &["g".into()], "y", None).unwrap();
        let ranked = rank(groups, "y", Better::Higher, &Pairing::None, None).unwrap();
        let names: Vec<String> = ranked.iter().map(|r| r.entry.group.key()).collect();
        assert_eq!(names, vec!["a", "b", "c"]);
        // b overlaps a heavily (independent samples): not significant; c is.
        assert!(!ranked[1].worse());
        assert!(ranked[2].worse());
        assert_eq!(ranked[2].a12, Some(1.0));
        assert_eq!(ranked[2].effect, Some("large"));
        // Paired by replicate, b is below a on every one of the 20 pairs.
        let groups = summarize(&df, &["g".into()], "y", None).unwrap();
        let paired = rank(
            groups,
            "y",
            Better::Higher,
            &Pairing::By(vec!["replicate".into()]),
            None,
        )
        .unwrap();
        assert!(paired[1].worse(), "{:?}", paired[1].p_holm);
        let f = facts(&paired);
        assert_eq!(f.get("best.group"), Some(&"a".into()));
        assert_eq!(f.get("tied"), Some(&"a".into()));
        assert_eq!(f.get("[c].rank"), Some(&3usize.into()));
        assert_eq!(f.get("leaders"), Some(&"a alone".into()));
        assert_eq!(f.get("best.tied"), Some(&"none".into()));
        // Unpaired, b cannot be told from a: the leaders name both.
        let f = facts(&ranked);
        assert_eq!(f.get("leaders"), Some(&"a (tied with b)".into()));
        assert_eq!(f.get("best.tied"), Some(&"b".into()));
        assert_eq!(f.get("best.tied_count"), Some(&1usize.into()));
        assert_eq!(f.get("tied"), Some(&"a; b".into()));
        // Lower is better reverses the order.
        let groups = summarize(&df, &["g".into()], "y", None).unwrap();
        let low = rank(groups, "y", Better::Lower, &Pairing::None, None).unwrap();
        assert_eq!(low[0].entry.group.key(), "c");
    }

    #[test]
    fn a_column_that_does_not_pair_the_runs_is_refused() {
        let df = groups_frame();
        let by = ["g".to_string()];
        let rank_by = |cols: &[&str], df: &polars::prelude::DataFrame| {
            let groups = summarize(df, &by, "y", None).unwrap();
            let cols = cols.iter().map(|c| c.to_string()).collect();
            rank(groups, "y", Better::Higher, &Pairing::By(cols), None)
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        // The grouping column itself is constant within each group: 20 runs share a key.
        let err = rank_by(&["g"], &df).unwrap_err();
        assert!(err.contains("group a has 20 runs with g = a"), "{err}");
        // Group c lacks replicate 19: the groups do not share their keys.
        let keep: polars::prelude::BooleanChunked = texts(&df, "g")
            .unwrap()
            .iter()
            .zip(texts(&df, "replicate").unwrap())
            .map(|(g, r)| g != "c" || r != "19")
            .collect();
        let cut = df.filter(&keep).unwrap();
        let err = rank_by(&["replicate"], &cut).unwrap_err();
        assert!(
            err.contains("group a has a run with replicate = 19 and group c has none"),
            "{err}"
        );
        assert_eq!(rank_by(&["replicate"], &df), Ok(()));
    }

    #[test]
    fn too_few_groups_or_runs_are_errors() {
        let df = groups_frame();
        let one = summarize(&df, &[], "y", None).unwrap();
        assert!(rank(one, "y", Better::Higher, &Pairing::None, None).is_err());
    }
}
