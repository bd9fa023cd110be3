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

use crate::pipeline::metrics::Better;
use crate::present::facts::holes;
use crate::present::figure::FigureKind;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use toml::Spanned;

/// One or several column names.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Columns {
    One(String),
    Many(Vec<String>),
}

impl Columns {
    pub fn list(&self) -> Vec<String> {
        match self {
            Columns::One(c) => vec![c.clone()],
            Columns::Many(c) => c.clone(),
        }
    }
}

/// What a block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BlockKind {
    Line,
    Box,
    Heatmap,
    Histogram,
    Anytime,
    Interval,
    /// Pictures a domain draws (boards, mazes) by a named function.
    Board,
    /// A summary per group: runs, median, IQR, 95% CI of the median, mean.
    Table,
    /// One aggregate (sum, median, …) of each of `metrics` per group.
    Aggregate,
    /// One aggregate of `metric` on the grid `rows` × `columns`.
    Pivot,
    /// Listed rows: the `columns` of each run (after the filter), in `sort` order.
    Rows,
    /// A ranking of the groups, each tested against the best.
    Compare,
    /// Named values computed by a domain's fact function.
    Facts,
    /// A paragraph: a template filled with facts.
    Text,
    /// The empirical cumulative distribution of the iterations needed to reach each of
    /// `targets` (fraction of (run, target) pairs reached, log scale), from the anytime
    /// table.
    Ecdf,
    /// The expected running time to each of `targets` with its success rate.
    Ert,
}

impl BlockKind {
    /// The figure kind of a figure block.
    pub fn figure(self) -> Option<FigureKind> {
        Some(match self {
            BlockKind::Line => FigureKind::Line,
            BlockKind::Box => FigureKind::Box,
            BlockKind::Heatmap => FigureKind::Heatmap,
            BlockKind::Histogram => FigureKind::Histogram,
            BlockKind::Anytime => FigureKind::Anytime,
            BlockKind::Interval => FigureKind::Interval,
            _ => return None,
        })
    }

    /// Blocks that read the anytime table.
    pub fn reads_anytime(self) -> bool {
        matches!(self, BlockKind::Anytime | BlockKind::Ecdf | BlockKind::Ert)
    }

    /// Blocks whose facts templates can quote.
    pub fn makes_facts(self) -> bool {
        matches!(
            self,
            BlockKind::Ert
                | BlockKind::Table
                | BlockKind::Aggregate
                | BlockKind::Pivot
                | BlockKind::Compare
                | BlockKind::Facts
        )
    }

    fn name(self) -> String {
        format!("{self:?}").to_lowercase()
    }
}

/// Which of an experiment's tables a block reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The runs of its config's sweep (`results` and `anytime`).
    #[default]
    Runs,
    /// Its tuned elites on the held-out seeds (`searchlab tune`'s `heldout` tables).
    Tuned,
    /// Its race: one row per candidate.
    Race,
    /// Its race: candidates alive after each training instance.
    RaceSteps,
}

impl Source {
    /// The name of the table set in the report's tables.
    pub fn key(self, experiment: &str) -> String {
        match self {
            Source::Runs => experiment.to_string(),
            Source::Tuned => format!("{experiment}/tuned"),
            Source::Race => format!("{experiment}/race"),
            Source::RaceSteps => format!("{experiment}/race_steps"),
        }
    }
}

/// An aggregate of a pivot or aggregate block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Aggregate {
    #[default]
    Median,
    Mean,
    Sum,
    Min,
    Max,
    Count,
    /// The first value (for settings that run once).
    First,
}

/// One block of a question.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Block {
    pub kind: BlockKind,
    #[serde(default)]
    pub experiment: Option<String>,
    /// Which of the experiment's tables: its runs (default), or its tuning's.
    #[serde(default)]
    pub source: Source,
    /// Keep only the rows whose columns take these values.
    #[serde(rename = "where", default)]
    pub filter: BTreeMap<String, toml::Value>,
    #[serde(default)]
    pub group: Option<Columns>,
    #[serde(default)]
    pub x: Option<String>,
    #[serde(default)]
    pub metric: Option<String>,
    #[serde(default)]
    pub metrics: Vec<String>,
    /// Which way is better; default: the metric's declared direction.
    #[serde(default)]
    pub better: Option<Better>,
    /// The value a null metric counts as (e.g. 0 moves for an unreachable goal).
    #[serde(default)]
    pub missing: Option<f64>,
    /// Compare: pair runs by these columns (Wilcoxon signed-rank) instead of Mann–Whitney.
    #[serde(default)]
    pub paired: Option<Columns>,
    /// Compare: keep only the best group for each value of this column (e.g. each
    /// family's best setting) before ranking.
    #[serde(default)]
    pub best_of: Option<String>,
    /// Compare: show only the first `top` rows of the ranking (facts keep every group).
    #[serde(default)]
    pub top: Option<usize>,
    /// The prefix of the block's facts, and its figure's file name.
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub caption: Option<String>,
    #[serde(default)]
    pub x_label: Option<String>,
    #[serde(default)]
    pub y_label: Option<String>,
    #[serde(default)]
    pub log_x: bool,
    #[serde(default)]
    pub log_y: bool,
    /// Facts and board blocks: the domain function (`rjm.escape`).
    #[serde(default)]
    pub function: Option<String>,
    /// Text blocks: the template.
    #[serde(default)]
    pub text: Option<String>,
    /// Pivot: the column whose values make the rows and the columns.
    #[serde(default)]
    pub rows: Option<String>,
    #[serde(default)]
    pub columns: Option<Columns>,
    #[serde(default)]
    pub aggregate: Aggregate,
    /// Rows: sort by these columns (numerically where numbers).
    #[serde(default)]
    pub sort: Option<Columns>,
    /// Ecdf and ert: the targets of the best value so far (reached when at most the
    /// target, or at least it with `better = "higher"`).
    #[serde(default)]
    pub targets: Vec<f64>,
    /// Decimals shown in tables (default 1 for summaries, 0 for aggregates).
    #[serde(default)]
    pub digits: Option<usize>,
    /// Column headers to show instead of the column names.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// Set on loading: the line the block starts on.
    #[serde(skip)]
    pub line: usize,
}

impl Block {
    /// The prefix of this block's facts.
    pub fn fact_prefix(&self) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| match (&self.kind, &self.function) {
                (BlockKind::Facts, Some(f)) => f.rsplit('.').next().unwrap_or(f).to_string(),
                (kind, _) => kind.name(),
            })
    }

    /// Every column the block reads, for checking before anything runs. Anytime
    /// figures read the anytime table (and no metric of their own).
    pub fn columns(&self) -> Vec<String> {
        let mut c: Vec<String> = self.filter.keys().cloned().collect();
        c.extend(self.group_list());
        c.extend(self.x.clone());
        if !self.kind.reads_anytime() {
            c.extend(self.metric.clone());
        }
        c.extend(self.metrics.iter().cloned());
        c.extend(self.rows.clone());
        for cols in [&self.columns, &self.paired, &self.sort]
            .into_iter()
            .flatten()
        {
            if self.kind != BlockKind::Facts {
                c.extend(cols.list());
            }
        }
        c
    }

    /// The grouping columns.
    pub fn group_list(&self) -> Vec<String> {
        self.group.as_ref().map(Columns::list).unwrap_or_default()
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuestion {
    title: String,
    #[serde(default)]
    intro: Option<String>,
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
    intro: String,
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

impl Question {
    /// The experiments the question's blocks read.
    pub fn experiments(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for b in &self.blocks {
            if let Some(e) = &b.experiment
                && !out.contains(e)
            {
                out.push(e.clone());
            }
        }
        out
    }
}

impl Question {
    /// The experiments whose tuning the question's blocks read.
    pub fn tuned(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for b in self.blocks.iter().filter(|b| b.source != Source::Runs) {
            if let Some(e) = &b.experiment
                && !out.contains(e)
            {
                out.push(e.clone());
            }
        }
        out
    }

    /// The experiments whose runs the question's blocks read.
    pub fn run(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for b in self.blocks.iter().filter(|b| b.source == Source::Runs) {
            if let Some(e) = &b.experiment
                && !out.contains(e)
            {
                out.push(e.clone());
            }
        }
        out
    }
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
    /// Every experiment the study reads, in order of first use.
    pub fn experiments(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for e in self.questions.iter().flat_map(Question::experiments) {
            if !out.contains(&e) {
                out.push(e);
            }
        }
        out
    }
}

impl Study {
    /// Every experiment whose runs the study reads.
    pub fn runs(&self) -> Vec<String> {
        unique(self.questions.iter().flat_map(Question::run))
    }

    /// Every experiment whose tuning the study reads.
    pub fn tunes(&self) -> Vec<String> {
        unique(self.questions.iter().flat_map(Question::tuned))
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
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// Reads and checks a study: `text` is its file, `source` how messages name it, `name`
/// its name (the file stem).
pub fn parse(text: &str, source: &str, name: &str, known: &Known) -> anyhow::Result<Study> {
    let raw: RawStudy = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map_or(String::new(), |s| format!(":{}", line_of(text, s.start)));
        crate::user_error!("{source}{line}: {}", e.message().trim().replace('\n', " "))
    })?;
    crate::pipeline::config::check_name("study", name, source)?;
    let name = name.to_string();
    let mut questions = Vec::new();
    // Fact prefixes computed so far in the study: a template may quote them.
    let mut prefixes: BTreeMap<String, Option<Vec<String>>> = BTreeMap::new();
    prefixes.insert("config".into(), None);
    for q in raw.question {
        let mut blocks = Vec::new();
        for spanned in q.block {
            let line = line_of(text, spanned.span().start);
            let mut b = spanned.into_inner();
            b.line = line;
            check_block(&b, known, &prefixes)
                .map_err(|e| crate::user_error!("{source}:{line}: {e}"))?;
            if b.kind.makes_facts() {
                let declared = match (&b.kind, &b.function) {
                    (BlockKind::Facts, Some(f)) => known.fact_functions.get(f).cloned(),
                    _ => None,
                };
                prefixes.insert(b.fact_prefix(), declared);
            }
            blocks.push(b);
        }
        let (answer, answer_line) = match q.answer {
            Some(a) => {
                let line = line_of(text, a.span().start);
                let a = a.into_inner();
                check_template(&a, &prefixes)
                    .map_err(|e| crate::user_error!("{source}:{line}: answer: {e}"))?;
                (Some(a), line)
            }
            None => (None, 0),
        };
        questions.push(Question {
            title: q.title,
            intro: q.intro,
            blocks,
            answer,
            answer_line,
        });
    }
    Ok(Study {
        name,
        source: source.to_string(),
        title: raw.title,
        order: raw.order,
        default: raw.default,
        intro: raw.intro,
        questions,
    })
}

fn check_block(
    b: &Block,
    known: &Known,
    prefixes: &BTreeMap<String, Option<Vec<String>>>,
) -> Result<(), String> {
    let kind = b.kind.name();
    let need = |v: bool, what: &str| {
        if v {
            Ok(())
        } else {
            Err(format!("a {kind} block needs {what}"))
        }
    };
    if let Some(name) = &b.name {
        crate::pipeline::config::check_name("block", name, "name").map_err(|e| e.to_string())?;
    }
    match &b.experiment {
        Some(e) if !known.experiments.contains(e) => {
            return Err(format!(
                "unknown experiment {e:?} (configs: {})",
                known
                    .experiments
                    .iter()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        None if b.kind != BlockKind::Text => need(false, "experiment")?,
        _ => {}
    }
    crate::present::view::Filter::from_toml(&b.filter)?;
    if let Some(f) = b.kind.figure() {
        if b.kind != BlockKind::Anytime {
            need(b.metric.is_some(), "metric")?;
        }
        let spec = crate::present::figure::FigureSpec {
            kind: f,
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
    }
    match b.kind {
        BlockKind::Table | BlockKind::Compare => {
            need(b.metric.is_some(), "metric")?;
            need(b.group.is_some(), "group")?;
        }
        BlockKind::Aggregate => {
            need(!b.metrics.is_empty(), "metrics (a list)")?;
            need(b.group.is_some(), "group")?;
        }
        BlockKind::Pivot => {
            need(b.metric.is_some(), "metric")?;
            need(b.rows.is_some(), "rows")?;
            need(b.columns.is_some(), "columns")?;
        }
        BlockKind::Rows => need(b.columns.is_some(), "columns (a list)")?,
        BlockKind::Ecdf | BlockKind::Ert => {
            need(!b.targets.is_empty(), "targets (a list of values)")?;
            need(b.targets.iter().all(|t| t.is_finite()), "finite targets")?;
        }
        BlockKind::Facts => match &b.function {
            Some(f) if !known.fact_functions.contains_key(f) => {
                return Err(format!(
                    "unknown fact function {f:?} (known: {})",
                    known
                        .fact_functions
                        .keys()
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            Some(_) => {}
            None => need(false, "function")?,
        },
        BlockKind::Board => match &b.function {
            Some(f) if !known.board_functions.contains(f) => {
                return Err(format!(
                    "unknown board function {f:?} (known: {})",
                    known
                        .board_functions
                        .iter()
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            Some(_) => {}
            None => need(false, "function")?,
        },
        BlockKind::Text => {
            let t = b.text.as_deref().ok_or("a text block needs text")?;
            check_template(t, prefixes)?;
        }
        _ => {}
    }
    if !b.targets.is_empty() && !matches!(b.kind, BlockKind::Ecdf | BlockKind::Ert) {
        return Err("targets apply to ecdf and ert blocks".into());
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
fn check_template(
    template: &str,
    prefixes: &BTreeMap<String, Option<Vec<String>>>,
) -> Result<(), String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> (
        BTreeSet<String>,
        BTreeMap<String, Vec<String>>,
        BTreeSet<String>,
    ) {
        (
            ["e1".to_string()].into_iter().collect(),
            [("d.f".to_string(), vec!["count".to_string()])]
                .into_iter()
                .collect(),
            BTreeSet::new(),
        )
    }

    const STUDY: &str = r#"title = "T"

[[question]]
title = "Q"
answer = "{cmp.best.group} and {f.count} with {config.e1.iterations}"

[[question.block]]
kind = "compare"
name = "cmp"
experiment = "e1"
group = "variant"
metric = "y"

[[question.block]]
kind = "facts"
name = "f"
experiment = "e1"
function = "d.f"
"#;

    #[test]
    fn a_study_loads_with_its_blocks_and_lines() {
        let (e, f, b) = known();
        let k = Known {
            experiments: &e,
            fact_functions: &f,
            board_functions: &b,
        };
        let s = parse(STUDY, "experiments/s.toml", "s", &k).unwrap();
        assert_eq!(s.name, "s");
        assert_eq!(s.questions[0].blocks.len(), 2);
        assert_eq!(s.questions[0].blocks[0].line, 7);
        assert_eq!(s.experiments(), vec!["e1"]);
    }

    #[test]
    fn errors_name_the_line() {
        let (e, f, b) = known();
        let k = Known {
            experiments: &e,
            fact_functions: &f,
            board_functions: &b,
        };
        let err = |text: &str| parse(text, "s.toml", "s", &k).unwrap_err().to_string();
        assert!(
            err(&STUDY.replace("\"e1\"\ngroup", "\"e2\"\ngroup"))
                .starts_with("s.toml:7: unknown experiment \"e2\""),
            "{}",
            err(&STUDY.replace("\"e1\"\ngroup", "\"e2\"\ngroup"))
        );
        assert!(err(&STUDY.replace("{f.count}", "{f.total}")).starts_with("s.toml:5: answer:"));
        assert!(err(&STUDY.replace("{cmp.best.group}", "{nope.x}")).contains("nothing computes"));
        assert!(
            err(&STUDY.replace("metric = \"y\"", "metric = \"y\"\ncolour = 1"))
                .starts_with("s.toml:")
        );
        assert!(err(&STUDY.replace("kind = \"compare\"", "kind = \"pie\"")).contains("pie"));
        assert!(err(&STUDY.replace("metric = \"y\"\n", "")).contains("needs metric"));
        assert!(err(&STUDY.replace("\"d.f\"", "\"d.g\"")).contains("unknown fact function"));
    }
}
