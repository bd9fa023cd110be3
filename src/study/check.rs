//! The checks of a study's blocks and templates that need no data: the keys each kind
//! requires or allows, the experiments and functions named, the facts templates quote.

use super::{BlockKind, Columns, Known, Prefixes, Source};
use crate::pipeline::metrics::Better;
use crate::present::facts::{MAX_DECIMALS, check_format, holes};

/// Everything about a block that can be checked without data.
pub(super) fn check_block(
    b: &super::Block,
    known: &Known,
    prefixes: &Prefixes,
) -> Result<(), String> {
    if let Some(name) = &b.name {
        crate::pipeline::config::check_name("block", name, "name").map_err(|e| e.to_string())?;
    }
    check_experiments(b, known)?;
    crate::present::view::Filter::from_toml(&b.filter)?;
    if let Some(f) = b.kind.figure() {
        check_figure(b, f)?;
    }
    check_required(b)?;
    if let Some(d) = b.digits
        && d > MAX_DECIMALS
    {
        return Err(format!(
            "digits = {d}: at most {MAX_DECIMALS} decimals (an f64 has no more)"
        ));
    }
    check_function(b, known)?;
    if let (BlockKind::Text, Some(t)) = (b.kind, &b.text) {
        check_template(t, prefixes)?;
    }
    check_scoped_keys(b)
}

/// A block names known experiments (a text block none): configs, or `NAME/tuned`.
fn check_experiments(b: &super::Block, known: &Known) -> Result<(), String> {
    let names = b.experiment.as_ref().map(Columns::list).unwrap_or_default();
    if names.is_empty() && b.kind != BlockKind::Text {
        return Err(format!("a {} block needs experiment", b.kind.name()));
    }
    for n in &names {
        let (config, suffix) = n
            .split_once('/')
            .map_or((n.as_str(), None), |(c, s)| (c, Some(s)));
        if !known.experiments.contains(config) {
            let near = crate::util::suggest::did_you_mean(
                config,
                known.experiments.iter().map(String::as_str),
            );
            return Err(match near.is_empty() {
                true => format!(
                    "unknown experiment {} (an experiment is a config's name, or NAME/tuned, NAME/race or NAME/race_steps; configs: {})",
                    crate::util::input::excerpt(n),
                    join(known.experiments.iter())
                ),
                false => format!(
                    "unknown experiment {}{near}",
                    crate::util::input::excerpt(n)
                ),
            });
        }
        if let Some(s) = suffix
            && Source::of_suffix(s).is_none()
        {
            return Err(format!(
                "experiment {n:?}: {s:?} is not a tuning's tables (tuned, race or race_steps)"
            ));
        }
    }
    Ok(())
}

fn join<'a>(names: impl Iterator<Item = &'a String>) -> String {
    names.cloned().collect::<Vec<_>>().join(", ")
}

/// A figure block: its metric, and what its kind needs.
fn check_figure(b: &super::Block, kind: crate::present::figure::FigureKind) -> Result<(), String> {
    if b.kind != BlockKind::Anytime && b.metric.is_none() {
        return Err(format!("a {} block needs metric", b.kind.name()));
    }
    let spec = crate::present::figure::FigureSpec {
        kind,
        x: b.x.clone(),
        metric: b.metric.clone().unwrap_or_default(),
        group: b.group_list().first().cloned(),
        title: String::new(),
        x_label: None,
        y_label: None,
        log_x: b.log_x,
        log_y: b.log_y,
        // The direction is checked with the plans (a metric may declare it).
        better: Some(b.better.unwrap_or(Better::Higher)),
        missing: b.missing,
    };
    spec.check()?;
    if b.group_list().len() > 1 {
        return Err("a figure groups by one column".into());
    }
    Ok(())
}

/// The keys each kind requires.
fn check_required(b: &super::Block) -> Result<(), String> {
    let need = |v: bool, what: &str| match v {
        true => Ok(()),
        false => Err(format!("a {} block needs {what}", b.kind.name())),
    };
    match b.kind {
        BlockKind::Table | BlockKind::Compare => {
            need(b.metric.is_some(), "metric")?;
            need(b.group.is_some(), "group")
        }
        BlockKind::Aggregate => {
            need(!b.metrics.is_empty(), "metrics (a list)")?;
            need(b.group.is_some(), "group")
        }
        BlockKind::Pivot => {
            need(b.metric.is_some(), "metric")?;
            need(b.rows.is_some(), "rows")?;
            need(b.columns.is_some(), "columns")
        }
        BlockKind::Rows => need(b.columns.is_some(), "columns (a list)"),
        BlockKind::Ecdf | BlockKind::Ert => check_targets(b),
        BlockKind::FixedBudget => {
            need(
                !b.budgets.is_empty(),
                "budgets (a list of evaluation counts)",
            )?;
            need(
                b.budgets.iter().all(|x| x.is_finite() && *x > 0.0),
                "positive budgets",
            )
        }
        BlockKind::Facts | BlockKind::Board => need(b.function.is_some(), "function"),
        BlockKind::Text => need(b.text.is_some(), "text"),
        _ => Ok(()),
    }
}

/// Targets: absolute (`targets`), or fractions of a reference per problem (`problem`,
/// `reference`, `fractions`).
fn check_targets(b: &super::Block) -> Result<(), String> {
    let relative = b.reference.is_some() || !b.fractions.is_empty();
    match (relative, b.targets.is_empty()) {
        (false, true) => Err(format!(
            "a {} block needs targets (a list of values), or reference and fractions",
            b.kind.name()
        )),
        (true, false) => Err("give targets, or reference and fractions, not both".into()),
        (false, false) if b.targets.iter().all(|t| t.is_finite()) => Ok(()),
        (false, false) => Err("targets must be finite numbers".into()),
        (true, true) => {
            if b.reference.is_none() || b.fractions.is_empty() || b.problem.is_none() {
                return Err("relative targets need problem, reference and fractions".into());
            }
            match b.fractions.iter().all(|f| f.is_finite() && *f > 0.0) {
                true => Ok(()),
                false => Err("fractions must be positive numbers".into()),
            }
        }
    }
}

/// A domain function the block names must exist.
fn check_function(b: &super::Block, known: &Known) -> Result<(), String> {
    let unknown = |what: &str, f: &str, names: String| {
        Err(format!("unknown {what} function {f:?} (known: {names})"))
    };
    match (b.kind, &b.function, &b.reference) {
        (BlockKind::Facts, Some(f), _) if !known.fact_functions.contains_key(f) => {
            unknown("fact", f, join(known.fact_functions.keys()))
        }
        (BlockKind::Board, Some(f), _) if !known.board_functions.contains(f) => {
            unknown("board", f, join(known.board_functions.iter()))
        }
        (_, _, Some(r)) if !known.reference_functions.contains(r) => {
            unknown("reference", r, join(known.reference_functions.iter()))
        }
        _ => Ok(()),
    }
}

/// Keys that apply to some kinds only.
fn check_scoped_keys(b: &super::Block) -> Result<(), String> {
    let anytime = matches!(b.kind, BlockKind::Ecdf | BlockKind::Ert);
    if !anytime
        && (!b.targets.is_empty()
            || b.reference.is_some()
            || !b.fractions.is_empty()
            || b.problem.is_some())
    {
        return Err(
            "targets, problem, reference and fractions apply to ecdf and ert blocks".into(),
        );
    }
    if b.per.is_some() && !anytime && b.kind != BlockKind::FixedBudget {
        return Err("per applies to ecdf, ert and fixed_budget blocks".into());
    }
    if !b.budgets.is_empty() && b.kind != BlockKind::FixedBudget {
        return Err("budgets apply to fixed_budget blocks".into());
    }
    if !b.show && (!b.kind.makes_facts() || b.kind == BlockKind::Facts) {
        return Err("show = false applies to blocks that compute facts (table, compare, aggregate, pivot, ert, fixed_budget)".into());
    }
    if (b.paired.is_some() || b.best_of.is_some() || b.top.is_some())
        && b.kind != BlockKind::Compare
    {
        return Err("paired, best_of and top apply to compare blocks".into());
    }
    Ok(())
}

/// Every hole of a template must name a fact that a block, a config or a function
/// before it computes.
pub(super) fn check_template(template: &str, prefixes: &Prefixes) -> Result<(), String> {
    for h in holes(template)? {
        check_format(&h.format).map_err(|e| format!("{{{}}}: {e}", h.name))?;
        let head = h
            .name
            .split(['.', '['])
            .next()
            .unwrap_or_default()
            .to_string();
        match prefixes.get(&head) {
            None => {
                return Err(format!(
                    "{{{}}} names a fact that nothing before it computes{}",
                    crate::util::input::excerpt(&h.name).trim_matches('"'),
                    match crate::util::suggest::did_you_mean(
                        &head,
                        prefixes.keys().map(String::as_str)
                    ) {
                        s if s.is_empty() => format!(
                            " (blocks so far: {})",
                            prefixes.keys().cloned().collect::<Vec<_>>().join(", ")
                        ),
                        s => s,
                    }
                ));
            }
            Some(Some(declared)) => {
                let rest = h.name[head.len()..].trim_start_matches('.');
                let matches = |d: &String| {
                    d == rest
                        || (d.ends_with('[') && rest.starts_with(d.as_str()))
                        || rest.starts_with(&format!("{d}["))
                };
                if !declared.iter().any(matches) {
                    return Err(format!(
                        "{{{}}}: the function computes no fact {rest:?} (it computes {})",
                        h.name,
                        declared.join(", ")
                    ));
                }
            }
            Some(None) => {}
        }
    }
    Ok(())
}
