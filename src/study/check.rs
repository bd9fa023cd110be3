//! The checks of a study's blocks and templates that need no data: the keys each kind
//! requires (its struct says which it takes), the experiments and functions named, what
//! a block's look and frame may set, the facts templates quote.

use super::block::{Block, Kind, TargetKeys};
use super::{Columns, Known, Prefixes, Source};
use crate::pipeline::metrics::Better;
use crate::present::derive::Derived;
use crate::present::facts::{MAX_DECIMALS, check_format, holes, operation};
use std::collections::BTreeMap;

/// Everything about a block that can be checked without data.
pub(super) fn check_block(
    b: &Block,
    known: &Known,
    prefixes: &Prefixes,
    study_derive: &BTreeMap<String, String>,
) -> Result<(), String> {
    if let Some(name) = &b.read.name {
        crate::pipeline::config::check_name("block", name, "name").map_err(|e| e.to_string())?;
    }
    check_experiments(b, known)?;
    crate::present::view::Filter::from_toml(&b.read.filter)?;
    if let Some(mut spec) = b.figure() {
        // The direction is checked with the plans (a metric may declare it).
        spec.better = Some(spec.better.unwrap_or(Better::Higher));
        spec.check()?;
        spec.print(1).check()?;
    }
    check_required(b)?;
    check_look(b)?;
    if b.missing().is_some_and(|m| !m.is_finite()) {
        return Err("missing must be a finite number".into());
    }
    if let Some(d) = digits(b)
        && d > MAX_DECIMALS
    {
        return Err(format!(
            "digits = {d}: at most {MAX_DECIMALS} decimals (an f64 has no more)"
        ));
    }
    check_function(b, known)?;
    check_derive(b, study_derive)?;
    if let Kind::Text(t) = &b.kind {
        check_template(t.text.as_deref().unwrap_or_default(), prefixes)?;
    }
    Ok(())
}

/// A block names known experiments (a text block none): configs, or `NAME/tuned`.
fn check_experiments(b: &Block, known: &Known) -> Result<(), String> {
    let names = b
        .read
        .experiment
        .as_ref()
        .map(Columns::list)
        .unwrap_or_default();
    let text = matches!(b.kind, Kind::Text(_));
    if names.is_empty() && !text {
        return Err(format!("a {} block needs experiment", b.kind_name()));
    }
    if let Some((_, n)) = names
        .iter()
        .enumerate()
        .find(|(i, n)| names[..*i].contains(n))
    {
        return Err(format!(
            "experiment {} is listed twice: its runs would count twice",
            crate::util::input::excerpt(n)
        ));
    }
    if text && (!names.is_empty() || !b.read.filter.is_empty() || b.read.name.is_some()) {
        return Err(
            "a text block reads no experiment (experiment, where and name do not apply)".into(),
        );
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

/// The decimals a table block asks for.
fn digits(b: &Block) -> Option<usize> {
    match &b.kind {
        Kind::Table(k) => k.digits,
        Kind::Compare(k) => k.digits,
        Kind::Aggregate(k) => k.digits,
        Kind::Pivot(k) => k.digits,
        Kind::Rows(k) => k.digits,
        Kind::Facts(k) => k.digits,
        _ => None,
    }
}

/// The keys each kind requires.
fn check_required(b: &Block) -> Result<(), String> {
    let need = |v: bool, what: &str| match v {
        true => Ok(()),
        false => Err(format!("a {} block needs {what}", b.kind_name())),
    };
    let metric = b.metric().is_some();
    match &b.kind {
        Kind::Line(_)
        | Kind::Box(_)
        | Kind::Heatmap(_)
        | Kind::Histogram(_)
        | Kind::Interval(_) => need(metric, "metric"),
        Kind::Table(k) => need(metric, "metric").and(need(k.group.is_some(), "group")),
        Kind::Compare(k) => need(metric, "metric").and(need(k.group.is_some(), "group")),
        Kind::Aggregate(k) => {
            need(!k.metrics.is_empty(), "metrics (a list)")?;
            need(k.group.is_some(), "group")
        }
        Kind::Pivot(k) => {
            need(metric, "metric")?;
            need(k.rows.is_some(), "rows")?;
            need(k.columns.is_some(), "columns")
        }
        Kind::Rows(k) => need(k.columns.is_some(), "columns (a list)"),
        Kind::Ecdf(k) => check_targets(b.kind_name(), &k.targets),
        Kind::Ert(k) => check_targets(b.kind_name(), &k.targets),
        Kind::FixedBudget(k) => {
            need(
                !k.budgets.is_empty(),
                "budgets (a list of evaluation counts)",
            )?;
            need(k.budgets.len() <= MAX_TARGETS, "at most 1000 budgets")?;
            need(
                k.budgets.iter().all(|x| x.is_finite() && *x > 0.0),
                "positive budgets",
            )
        }
        Kind::Facts(k) => need(k.function.is_some(), "function"),
        Kind::Board(k) => need(k.function.is_some(), "function"),
        Kind::Text(k) => need(k.text.is_some(), "text"),
        Kind::Anytime(_) => Ok(()),
    }
}

/// What a block's look and frame may set: a title and a caption wherever something is
/// shown under a heading (not in a text block, nor a board's pictures, which caption
/// themselves); headers on tables; axis labels on figures.
fn check_look(b: &Block) -> Result<(), String> {
    let figure = b.figure().is_some();
    let table = !figure && !matches!(b.kind, Kind::Text(_) | Kind::Board(_));
    let refuse = |keys: &str, applies: &str| {
        Err(format!(
            "{keys} does not apply to a {} block ({applies})",
            b.kind_name()
        ))
    };
    if !figure && !table && (b.look.title.is_some() || b.look.caption.is_some()) {
        return refuse("title or caption", "figures and tables have them");
    }
    if !table && !b.look.headers.is_empty() {
        return refuse("headers", "tables have them");
    }
    if !figure && b.frame.is_set() {
        return refuse(
            "x_label, y_label, facet, width, height or font_size",
            "figures have them",
        );
    }
    if table && !b.shown() && (b.look.title.is_some() || b.look.caption.is_some()) {
        return refuse("title or caption", "show = false shows nothing");
    }
    Ok(())
}

/// The most targets or budgets a block may ask for: a view of more says nothing more,
/// and its cost grows with their number.
pub const MAX_TARGETS: usize = 1000;

/// Targets: absolute (`targets`), or fractions of a reference per problem (`problem`,
/// `reference`, `fractions`).
fn check_targets(kind: &str, t: &TargetKeys) -> Result<(), String> {
    if t.count() > MAX_TARGETS {
        return Err(format!(
            "{} targets: a {kind} block takes at most {MAX_TARGETS}",
            t.count()
        ));
    }
    let relative = t.reference.is_some() || !t.fractions.is_empty();
    match (relative, t.targets.is_empty()) {
        (false, true) => Err(format!(
            "a {kind} block needs targets (a list of values), or reference and fractions"
        )),
        (true, false) => Err("give targets, or reference and fractions, not both".into()),
        (false, false) if t.targets.iter().all(|t| t.is_finite()) => Ok(()),
        (false, false) => Err("targets must be finite numbers".into()),
        (true, true) => {
            if t.reference.is_none() || t.fractions.is_empty() || t.problem.is_none() {
                return Err("relative targets need problem, reference and fractions".into());
            }
            match t.fractions.iter().all(|f| f.is_finite() && *f > 0.0) {
                true => Ok(()),
                false => Err("fractions must be positive numbers".into()),
            }
        }
    }
}

/// A block's derived columns: each expression parses, none takes the name of one the
/// study derives, they apply to a table of runs (not to the anytime table, nor to a
/// text block), and a block that ranks a derived metric says which way is better.
fn check_derive(b: &Block, study_derive: &BTreeMap<String, String>) -> Result<(), String> {
    for (name, sql) in &b.read.derive {
        if study_derive.contains_key(name) {
            return Err(format!(
                "derive.{name}: the study derives {name} for every block; give the block's column another name"
            ));
        }
        Derived::parse(name, sql)?;
    }
    let derived = b.read.derivations();
    let Some((first, _)) = derived.first() else {
        return Ok(());
    };
    if matches!(b.kind, Kind::Text(_)) || b.reads_anytime() {
        return Err(format!(
            "derived columns ({first}) are computed on the runs' table, one row per run; a {} block reads {}",
            b.kind_name(),
            match b.reads_anytime() {
                true => "the anytime table",
                false => "no table",
            }
        ));
    }
    if let (true, None, Some(m)) = (b.ranks(), b.better(), b.metric())
        && derived.iter().any(|(n, _)| n == m)
    {
        return Err(format!(
            "metric {m} is a derived column, which declares no direction: a {} block ranks it, so say better = \"lower\" or \"higher\"",
            b.kind_name()
        ));
    }
    Ok(())
}

/// A domain function the block names must exist.
fn check_function(b: &Block, known: &Known) -> Result<(), String> {
    let unknown = |what: &str, f: &str, names: Vec<&str>| {
        let near = crate::util::suggest::did_you_mean(f, names.iter().copied());
        Err(match near.is_empty() {
            true => format!(
                "unknown {what} function {f:?} (known: {})",
                names.join(", ")
            ),
            false => format!("unknown {what} function {f:?}{near}"),
        })
    };
    let reference = match &b.kind {
        Kind::Ecdf(k) => k.targets.reference.as_ref(),
        Kind::Ert(k) => k.targets.reference.as_ref(),
        _ => None,
    };
    match (&b.kind, reference) {
        (Kind::Facts(k), _) => match &k.function {
            Some(f) if !known.fact_functions.contains_key(f) => unknown(
                "fact",
                f,
                known.fact_functions.keys().map(String::as_str).collect(),
            ),
            _ => Ok(()),
        },
        (Kind::Board(k), _) => match &k.function {
            Some(f) if !known.board_functions.contains(f) => unknown(
                "board",
                f,
                known.board_functions.iter().map(String::as_str).collect(),
            ),
            _ => Ok(()),
        },
        (_, Some(r)) if !known.reference_functions.contains(r) => unknown(
            "reference",
            r,
            known
                .reference_functions
                .iter()
                .map(String::as_str)
                .collect(),
        ),
        _ => Ok(()),
    }
}

/// Every hole of a template must name a fact that a block, a config or a function
/// before it computes.
pub(super) fn check_template(template: &str, prefixes: &Prefixes) -> Result<(), String> {
    for h in holes(template)? {
        check_format(&h.format).map_err(|e| format!("{{{}}}: {e}", h.name))?;
        match operation(&h.name)? {
            Some((a, _, b)) => {
                check_fact(a, prefixes)?;
                check_fact(b, prefixes)?;
            }
            None => check_fact(&h.name, prefixes)?,
        }
    }
    Ok(())
}

/// A fact a template quotes must be computed by a block, a config or a function before
/// it.
fn check_fact(name: &str, prefixes: &Prefixes) -> Result<(), String> {
    let head = name
        .split(['.', '['])
        .next()
        .unwrap_or_default()
        .to_string();
    match prefixes.get(&head) {
        None => {
            return Err(format!(
                "{{{}}} names a fact that nothing before it computes{}",
                crate::util::input::clip(name),
                match crate::util::suggest::did_you_mean(&head, prefixes.keys().map(String::as_str))
                {
                    s if s.is_empty() => format!(
                        " (blocks so far: {})",
                        prefixes.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                    s => s,
                }
            ));
        }
        Some(Some(declared)) => {
            let rest = name[head.len()..].trim_start_matches('.');
            let matches = |d: &String| {
                d == rest
                    || (d.ends_with('[') && rest.starts_with(d.as_str()))
                    || rest.starts_with(&format!("{d}["))
            };
            if !declared.iter().any(matches) {
                return Err(format!(
                    "{{{}}}: the function computes no fact {rest:?} (it computes {})",
                    name,
                    declared.join(", ")
                ));
            }
        }
        Some(None) => {}
    }
    Ok(())
}
