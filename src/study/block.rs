//! The blocks of a study's questions: what each kind draws or computes, and the keys it
//! takes (see the README's table of block kinds). A block reads one experiment's tables
//! or several together (`experiment = ["a", "b"]`, with an `experiment` column), a
//! config's runs or its tuning's (`"a/tuned"`).

use crate::pipeline::metrics::Better;
use crate::present::figure::FigureKind;
pub use crate::present::format::Aggregate;
use serde::Deserialize;
use std::collections::BTreeMap;

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
    /// The best value reached at each of `budgets`, per group (from the anytime table).
    #[serde(rename = "fixed_budget")]
    FixedBudget,
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
        matches!(
            self,
            BlockKind::Anytime | BlockKind::Ecdf | BlockKind::Ert | BlockKind::FixedBudget
        )
    }

    /// Blocks whose facts templates can quote.
    pub fn makes_facts(self) -> bool {
        matches!(
            self,
            BlockKind::Ert
                | BlockKind::FixedBudget
                | BlockKind::Table
                | BlockKind::Aggregate
                | BlockKind::Pivot
                | BlockKind::Compare
                | BlockKind::Facts
        )
    }

    pub fn name(self) -> String {
        match self {
            BlockKind::FixedBudget => "fixed_budget".to_string(),
            other => format!("{other:?}").to_lowercase(),
        }
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
    /// The source a `NAME/suffix` experiment names, if the suffix is one.
    pub fn of_suffix(suffix: &str) -> Option<Source> {
        match suffix {
            "tuned" => Some(Source::Tuned),
            "race" => Some(Source::Race),
            "race_steps" => Some(Source::RaceSteps),
            _ => None,
        }
    }

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

/// One block of a question.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Block {
    pub kind: BlockKind,
    /// The experiment (a config's name), or several read together with an
    /// `experiment` column; `NAME/tuned` (or `/race`, `/race_steps`) names the tables of
    /// a config's tuning.
    #[serde(default)]
    pub experiment: Option<Columns>,
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
    /// Ecdf and ert: the column whose values are the problems (a size, an instance);
    /// with `reference` and `fractions`, each problem has targets of its own.
    #[serde(default)]
    pub problem: Option<String>,
    /// Ecdf and ert: a domain's reference value per problem (`rjm.best_objective`).
    #[serde(default)]
    pub reference: Option<String>,
    /// Ecdf and ert: targets as fractions of each problem's reference.
    #[serde(default)]
    pub fractions: Vec<f64>,
    /// Ecdf, ert and fixed_budget: divide the budget by this column (a declared problem
    /// dimension, such as a maze's cells).
    #[serde(default)]
    pub per: Option<String>,
    /// Fixed_budget: the budgets at which the best value reached is compared.
    #[serde(default)]
    pub budgets: Vec<f64>,
    /// Decimals shown in tables (default 1 for summaries, 0 for aggregates).
    #[serde(default)]
    pub digits: Option<usize>,
    /// Tables: `false` computes the block's facts for the templates and shows nothing
    /// (when another table already shows the values).
    #[serde(default = "shown")]
    pub show: bool,
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

    /// The tables the block reads: each listed experiment as (its config's name, its
    /// source, the key of its table set).
    pub fn tables(&self) -> Vec<(String, Source, String)> {
        let names = self
            .experiment
            .as_ref()
            .map(Columns::list)
            .unwrap_or_default();
        names
            .into_iter()
            .map(|n| match n.split_once('/') {
                Some((config, suffix)) => {
                    let source = Source::of_suffix(suffix).unwrap_or(self.source);
                    (config.to_string(), source, source.key(config))
                }
                None => (n.clone(), self.source, self.source.key(&n)),
            })
            .collect()
    }

    /// The config of the first experiment the block reads (whose config facts and
    /// functions see), if any.
    pub fn first_experiment(&self) -> Option<String> {
        self.tables().into_iter().next().map(|(config, ..)| config)
    }
}

fn shown() -> bool {
    true
}
