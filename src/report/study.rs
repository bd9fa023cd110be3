//! Study files (`experiments/*.toml`): the questions of a report section, each a list of
//! blocks rendered in order and an answer template filled with named facts.
//!
//! Loading checks everything that can be checked without data: unknown keys, block kinds
//! and their required keys, the experiments named (a config must exist), the domain
//! functions named, the names of blocks, and that every `{fact}` a template names is
//! computed by some block, config or function before it. Errors name the file and line.
//!
//! ```toml
//! title = "Annealing schedules on 7×7 mazes"
//! order = 5                     # position in the report
//! default = false               # part of `searchlab report` without --study?
//! intro = "…"
//!
//! [[question]]
//! title = "Which schedule family is best?"
//! answer = "**{families.best.group}** is best (median {families.best.median:~1} moves)."
//!
//! [[question.block]]
//! kind = "compare"              # a ranking, each group tested against the best
//! name = "families"             # its facts: families.best.group, families[linear].p_holm, …
//! experiment = "rjm7_schedules"
//! group = "variant"
//! metric = "best_path_length"
//! better = "higher"
//! ```

pub use super::block::{Aggregate, Block, BlockKind, Columns, Source};
use crate::pipeline::metrics::Better;
use crate::present::facts::holes;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use toml::Spanned;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuestion {
    title: String,
    #[serde(default)]
    intro: Option<Spanned<String>>,
    #[serde(default)]
    block: Vec<Spanned<Block>>,
    #[serde(default)]
    answer: Option<Spanned<String>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStudy {
    title: String,
    #[serde(default)]
    order: i64,
    #[serde(default = "yes")]
    default: bool,
    #[serde(default)]
    intro: Option<Spanned<String>>,
    #[serde(default)]
    question: Vec<RawQuestion>,
}

fn yes() -> bool {
    true
}

/// A question: its blocks in order and its answer.
#[derive(Debug, Clone)]
pub struct Question {
    pub title: String,
    pub intro: Option<String>,
    pub blocks: Vec<Block>,
    pub answer: Option<String>,
    pub answer_line: usize,
}

/// A checked study.
#[derive(Debug, Clone)]
pub struct Study {
    /// The file stem.
    pub name: String,
    pub source: String,
    pub title: String,
    pub order: i64,
    pub default: bool,
    pub intro: String,
    pub questions: Vec<Question>,
}

impl Study {
    /// Every table set the study's blocks read, as (config, source), in order of first
    /// use, each once.
    fn tables(&self) -> Vec<(String, Source)> {
        let mut out: Vec<(String, Source)> = Vec::new();
        for b in self.questions.iter().flat_map(|q| &q.blocks) {
            for (config, source, _) in b.tables() {
                if !out.contains(&(config.clone(), source)) {
                    out.push((config, source));
                }
            }
        }
        out
    }

    /// Every experiment (config) the study reads, in order of first use.
    pub fn experiments(&self) -> Vec<String> {
        unique(self.tables().into_iter().map(|(c, _)| c))
    }

    /// Every experiment whose runs the study reads.
    pub fn runs(&self) -> Vec<String> {
        unique(
            self.tables()
                .into_iter()
                .filter(|(_, s)| *s == Source::Runs)
                .map(|(c, _)| c),
        )
    }

    /// Every experiment whose tuning the study reads.
    pub fn tunes(&self) -> Vec<String> {
        unique(
            self.tables()
                .into_iter()
                .filter(|(_, s)| *s != Source::Runs)
                .map(|(c, _)| c),
        )
    }
}

fn unique(names: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in names {
        if !out.contains(&e) {
            out.push(e);
        }
    }
    out
}

/// What a study may name, for checking it on loading.
pub struct Known<'a> {
    /// Configs by name (file stems of `configs/`).
    pub experiments: &'a BTreeSet<String>,
    /// Fact functions by name, with the facts each computes.
    pub fact_functions: &'a BTreeMap<String, Vec<String>>,
    /// Board figure functions by name.
    pub board_functions: &'a BTreeSet<String>,
    /// Reference functions by name (a value per problem, for targets).
    pub reference_functions: &'a BTreeSet<String>,
}

/// Fact prefixes computed so far in a study (a template may quote them), with the facts
/// a domain function declares.
type Prefixes = BTreeMap<String, Option<Vec<String>>>;

/// Reads and checks a study: `text` is its file, `source` how messages name it, `name`
/// its name (the file stem).
pub fn parse(text: &str, source: &str, name: &str, known: &Known) -> anyhow::Result<Study> {
    let lines = crate::util::input::LineIndex::new(text);
    let at = |span: std::ops::Range<usize>| format!("{source}:{}", lines.line(span.start));
    let raw: RawStudy = toml::from_str(text).map_err(|e| {
        let line = e.span().map_or(source.to_string(), |s| at(s));
        crate::user_error!("{line}: {}", e.message().trim().replace('\n', " "))
    })?;
    crate::pipeline::config::check_name("study", name, source)?;
    let mut prefixes: Prefixes = BTreeMap::new();
    prefixes.insert("config".into(), None);
    let intro = match &raw.intro {
        Some(i) => {
            check_template(i.get_ref(), &prefixes)
                .map_err(|e| crate::user_error!("{}: intro: {e}", at(i.span())))?;
            i.get_ref().clone()
        }
        None => String::new(),
    };
    let mut names = BTreeMap::new();
    let mut questions = Vec::new();
    for q in raw.question {
        questions.push(question(q, known, &mut prefixes, &mut names, &at)?);
    }
    Ok(Study {
        name: name.to_string(),
        source: source.to_string(),
        title: raw.title,
        order: raw.order,
        default: raw.default,
        intro,
        questions,
    })
}

/// One question, checked: its intro, its blocks in order (each adding its facts), and
/// its answer. `names` holds the block names so far, with their `file:line`.
fn question(
    q: RawQuestion,
    known: &Known,
    prefixes: &mut Prefixes,
    names: &mut BTreeMap<String, String>,
    at: &dyn Fn(std::ops::Range<usize>) -> String,
) -> anyhow::Result<Question> {
    let template = |t: &Spanned<String>, what: &str, prefixes: &Prefixes| {
        check_template(t.get_ref(), prefixes)
            .map_err(|e| crate::user_error!("{}: {what}: {e}", at(t.span())))
    };
    if let Some(i) = &q.intro {
        template(i, "intro", prefixes)?;
    }
    let mut blocks = Vec::new();
    for spanned in q.block {
        let here = at(spanned.span());
        let mut b = spanned.into_inner();
        b.line = here
            .rsplit(':')
            .next()
            .and_then(|l| l.parse().ok())
            .unwrap_or(0);
        check_block(&b, known, prefixes).map_err(|e| crate::user_error!("{here}: {e}"))?;
        if let Some(n) = &b.name
            && let Some(first) = names.insert(n.clone(), here.clone())
        {
            crate::user_bail!(
                "{here}: a second block is named {n:?} (the first is at {first}): names must be unique in a study, as they name facts and figures"
            );
        }
        if b.kind.makes_facts() {
            let declared = match (&b.kind, &b.function) {
                (BlockKind::Facts, Some(f)) => known.fact_functions.get(f).cloned(),
                _ => None,
            };
            prefixes.insert(b.fact_prefix(), declared);
        }
        blocks.push(b);
    }
    let (answer, answer_line) = match &q.answer {
        Some(a) => {
            template(a, "answer", prefixes)?;
            let line = at(a.span());
            let line = line
                .rsplit(':')
                .next()
                .and_then(|l| l.parse().ok())
                .unwrap_or(0);
            (Some(a.get_ref().clone()), line)
        }
        None => (None, 0),
    };
    Ok(Question {
        title: q.title,
        intro: q.intro.map(|i| i.into_inner()),
        blocks,
        answer,
        answer_line,
    })
}

/// Everything about a block that can be checked without data.
fn check_block(b: &Block, known: &Known, prefixes: &Prefixes) -> Result<(), String> {
    if let Some(name) = &b.name {
        crate::pipeline::config::check_name("block", name, "name").map_err(|e| e.to_string())?;
    }
    check_experiments(b, known)?;
    crate::present::view::Filter::from_toml(&b.filter)?;
    if let Some(f) = b.kind.figure() {
        check_figure(b, f)?;
    }
    check_required(b)?;
    check_function(b, known)?;
    if let (BlockKind::Text, Some(t)) = (b.kind, &b.text) {
        check_template(t, prefixes)?;
    }
    check_scoped_keys(b)
}

/// A block names known experiments (a text block none): configs, or `NAME/tuned`.
fn check_experiments(b: &Block, known: &Known) -> Result<(), String> {
    let names = b.experiment.as_ref().map(Columns::list).unwrap_or_default();
    if names.is_empty() && b.kind != BlockKind::Text {
        return Err(format!("a {} block needs experiment", b.kind.name()));
    }
    for n in &names {
        let (config, suffix) = n
            .split_once('/')
            .map_or((n.as_str(), None), |(c, s)| (c, Some(s)));
        if let Some(s) = suffix
            && Source::of_suffix(s).is_none()
        {
            return Err(format!(
                "experiment {n:?}: {s:?} is not a tuning's tables (tuned, race or race_steps)"
            ));
        }
        if !known.experiments.contains(config) {
            return Err(format!(
                "unknown experiment {config:?} (configs: {})",
                join(known.experiments.iter())
            ));
        }
    }
    Ok(())
}

fn join<'a>(names: impl Iterator<Item = &'a String>) -> String {
    names.cloned().collect::<Vec<_>>().join(", ")
}

/// A figure block: its metric, and what its kind needs.
fn check_figure(b: &Block, kind: crate::present::figure::FigureKind) -> Result<(), String> {
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
fn check_required(b: &Block) -> Result<(), String> {
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
fn check_targets(b: &Block) -> Result<(), String> {
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
fn check_function(b: &Block, known: &Known) -> Result<(), String> {
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
fn check_scoped_keys(b: &Block) -> Result<(), String> {
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
    if (b.paired.is_some() || b.best_of.is_some() || b.top.is_some())
        && b.kind != BlockKind::Compare
    {
        return Err("paired, best_of and top apply to compare blocks".into());
    }
    Ok(())
}

/// Every hole of a template must name a fact that a block, a config or a function
/// before it computes.
fn check_template(template: &str, prefixes: &Prefixes) -> Result<(), String> {
    for h in holes(template)? {
        let head = h
            .name
            .split(['.', '['])
            .next()
            .unwrap_or_default()
            .to_string();
        match prefixes.get(&head) {
            None => {
                return Err(format!(
                    "{{{}}} names a fact that nothing computes (facts so far: {})",
                    h.name,
                    prefixes.keys().cloned().collect::<Vec<_>>().join(", ")
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
