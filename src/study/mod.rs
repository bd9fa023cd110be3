//! Study files (`experiments/*.toml`): the questions of a report section, each a list of
//! blocks rendered in order and an answer template filled with named facts.
//!
//! Loading checks everything that can be checked without data: unknown keys, block kinds
//! and their required keys, the experiments named (a config must exist), the domain
//! functions named, the names of blocks, and that every `{fact}` a template names is
//! computed by some block, config or function before it ([`block`] holds the blocks,
//! `check` the checks, [`config_facts`] the facts a config gives templates). Errors name
//! the file and line.
//!
//! ```toml
//! title = "Annealing schedules on 7×7 mazes"
//! order = 5                     # position in the report
//! default = false               # part of `searchlab report` without --study?
//! intro = "…"
//! derive = { ratio = "a / b" }  # columns polars computes (SQL), any block may name
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

pub mod block;
mod check;
pub mod config_facts;

pub use block::{Aggregate, Block, Columns, Kind, Source};
use check::{check_block, check_template};
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
    derive: BTreeMap<String, Spanned<String>>,
    #[serde(default)]
    question: Vec<RawQuestion>,
    #[serde(default)]
    styles: BTreeMap<String, Spanned<RawStyle>>,
}

/// A declared series style: a palette colour by name or `#rrggbb`, a dash and a marker.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStyle {
    colour: String,
    #[serde(default)]
    dash: Option<String>,
    #[serde(default)]
    marker: Option<String>,
}

fn yes() -> bool {
    true
}

/// A question: its blocks in order and its answer.
#[derive(Debug, Clone)]
pub struct Question {
    pub title: String,
    pub intro: Option<String>,
    /// The line of the intro (0 without one).
    pub intro_line: usize,
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
    /// The line of the intro (0 without one).
    pub intro_line: usize,
    /// Derived columns any block may name (`derive = { NAME = "SQL" }`): a block
    /// computes those it names (its `inherited`).
    pub derive: BTreeMap<String, String>,
    pub questions: Vec<Question>,
    /// The series styles the study declares, by group value or legend entry.
    pub styles: Vec<(String, crate::present::plot::SeriesStyle)>,
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
pub(crate) type Prefixes = BTreeMap<String, Option<Vec<String>>>;

/// Reads and checks a study: `text` is its file, `source` how messages name it, `name`
/// its name (the file stem).
pub fn parse(text: &str, source: &str, name: &str, known: &Known) -> anyhow::Result<Study> {
    let lines = crate::util::input::LineIndex::new(text);
    let at = |span: std::ops::Range<usize>| format!("{source}:{}", lines.line(span.start));
    let raw: RawStudy = toml::from_str(text).map_err(|e| {
        let line = e.span().map_or(source.to_string(), &at);
        crate::user_error!("{line}: {}", e.message().trim().replace('\n', " "))
    })?;
    crate::pipeline::config::check_name("study", name, source)?;
    let mut prefixes: Prefixes = BTreeMap::new();
    prefixes.insert("config".into(), None);
    let (intro, intro_line) = match &raw.intro {
        Some(i) => {
            check_template(i.get_ref(), &prefixes)
                .map_err(|e| crate::user_error!("{}: intro: {e}", at(i.span())))?;
            (i.get_ref().clone(), lines.line(i.span().start))
        }
        None => (String::new(), 0),
    };
    let styles = declared_styles(&raw.styles, &at)?;
    let mut derive = BTreeMap::new();
    for (name, sql) in &raw.derive {
        crate::present::derive::Derived::parse(name, sql.get_ref())
            .map_err(|e| crate::user_error!("{}: {e}", at(sql.span())))?;
        derive.insert(name.clone(), sql.get_ref().clone());
    }
    let mut names = BTreeMap::new();
    let mut questions = Vec::new();
    for q in raw.question {
        let mut seen = Seen {
            prefixes: &mut prefixes,
            names: &mut names,
            derive: &derive,
        };
        questions.push(question(q, known, &mut seen, &at)?);
    }
    Ok(Study {
        name: name.to_string(),
        source: source.to_string(),
        title: raw.title,
        order: raw.order,
        default: raw.default,
        intro,
        intro_line,
        derive,
        questions,
        styles,
    })
}

/// The study's `styles`, each checked; two that look alike (the same colour and dash)
/// are refused, as a figure showing both could not tell them apart.
fn declared_styles(
    raw: &BTreeMap<String, Spanned<RawStyle>>,
    at: &dyn Fn(std::ops::Range<usize>) -> String,
) -> anyhow::Result<Vec<(String, crate::present::plot::SeriesStyle)>> {
    let mut out: Vec<(String, crate::present::plot::SeriesStyle)> = Vec::new();
    for (name, spanned) in raw {
        let r = spanned.get_ref();
        let style = crate::present::plot::SeriesStyle::from_words(
            &r.colour,
            r.dash.as_deref(),
            r.marker.as_deref(),
        )
        .map_err(|e| crate::user_error!("{}: styles.{name}: {e}", at(spanned.span())))?;
        if let Some((other, _)) = out.iter().find(|(_, s)| s.looks_like(&style)) {
            crate::user_bail!(
                "{}: styles.{name} has the colour and dash of styles.{other}: give one another colour or dash",
                at(spanned.span())
            );
        }
        out.push((name.clone(), style));
    }
    Ok(out)
}

/// What a question's blocks are checked against: the fact prefixes and block names
/// (with their `file:line`) so far, and the study's derived columns.
struct Seen<'a> {
    prefixes: &'a mut Prefixes,
    names: &'a mut BTreeMap<String, String>,
    derive: &'a BTreeMap<String, String>,
}

/// One question, checked: its intro, its blocks in order (each adding its facts and
/// given the study's derived columns it names), and its answer.
fn question(
    q: RawQuestion,
    known: &Known,
    seen: &mut Seen,
    at: &dyn Fn(std::ops::Range<usize>) -> String,
) -> anyhow::Result<Question> {
    let (prefixes, names) = (&mut *seen.prefixes, &mut *seen.names);
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
        b.line = line_of(&here);
        let named = b.columns();
        b.read.inherited = seen
            .derive
            .iter()
            .filter(|(n, _)| named.contains(*n) && !b.read.derive.contains_key(*n))
            .map(|(n, s)| (n.clone(), s.clone()))
            .collect();
        check_block(&b, known, prefixes, seen.derive)
            .map_err(|e| crate::user_error!("{here}: {e}"))?;
        if let Some(n) = &b.read.name
            && let Some(first) = names.insert(n.clone(), here.clone())
        {
            crate::user_bail!(
                "{here}: a second block is named {n:?} (the first is at {first}): names must be unique in a study, as they name facts and figures"
            );
        }
        if b.makes_facts() {
            let prefix = b.fact_prefix();
            if prefixes.contains_key(&prefix) {
                crate::user_bail!(
                    "{here}: this block's facts would be {prefix}.…, the names of facts computed before it (by another block or the configs): give it a name of its own (name = \"…\")"
                );
            }
            let declared = match &b.kind {
                Kind::Facts(block::FactsBlock {
                    function: Some(f), ..
                }) => known.fact_functions.get(f).cloned(),
                _ => None,
            };
            prefixes.insert(b.fact_prefix(), declared);
        }
        // A title or caption may quote the block's own facts.
        for (what, t) in [("title", &b.look.title), ("caption", &b.look.caption)] {
            if let Some(t) = t {
                check_template(t, prefixes)
                    .map_err(|e| crate::user_error!("{here}: {what}: {e}"))?;
            }
        }
        blocks.push(b);
    }
    let (answer, answer_line) = match &q.answer {
        Some(a) => {
            template(a, "answer", prefixes)?;
            (Some(a.get_ref().clone()), line_of(&at(a.span())))
        }
        None => (None, 0),
    };
    let intro_line = q.intro.as_ref().map_or(0, |i| line_of(&at(i.span())));
    Ok(Question {
        title: q.title,
        intro: q.intro.map(|i| i.into_inner()),
        intro_line,
        blocks,
        answer,
        answer_line,
    })
}

/// The line number of a `file:line` location.
fn line_of(here: &str) -> usize {
    here.rsplit(':')
        .next()
        .and_then(|l| l.parse().ok())
        .unwrap_or(0)
}
