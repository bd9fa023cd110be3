//! The blocks of a study's questions. A block is what it reads ([`Read`]: experiments,
//! tables, filter, name), how it is shown ([`Look`]: title, caption, headers; [`Frame`]:
//! a figure's axis labels and size) and what it is ([`Kind`]: one struct per kind,
//! holding exactly the keys that kind takes). A key that a kind does not take is an
//! error naming the file and line, from serde, not from a check written by hand.
//!
//! A block reads one experiment's tables or several together (`experiment = ["a",
//! "b"]`, with an `experiment` column), a config's runs or its tuning's (`"a/tuned"`).

use crate::pipeline::metrics::Better;
use crate::present::figure::{FigureKind, FigureSpec, RuntimeSpec};
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

/// The columns of an optional grouping, as a list.
fn list(c: &Option<Columns>) -> Vec<String> {
    c.as_ref().map(Columns::list).unwrap_or_default()
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

/// What a block reads: keys every kind but `text` takes.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Read {
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
    /// The prefix of the block's facts, and its figure's file name.
    #[serde(default)]
    pub name: Option<String>,
    /// Derived columns: name → SQL expression over the runs' table (`present::derive`).
    #[serde(default)]
    pub derive: BTreeMap<String, String>,
    /// Set on loading: the study's derived columns this block names.
    #[serde(skip)]
    pub inherited: BTreeMap<String, String>,
}

impl Read {
    /// The derived columns the block computes: its own, then the study's it names.
    pub fn derivations(&self) -> Vec<(String, String)> {
        let own = self.derive.iter().chain(&self.inherited);
        own.map(|(n, s)| (n.clone(), s.clone())).collect()
    }
}

/// How a block is shown: a title, a caption (templates), and column headers.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Look {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub caption: Option<String>,
    /// Column headers to show instead of the column names.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
}

/// A figure's frame: axis titles and size.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Frame {
    #[serde(default)]
    pub x_label: Option<String>,
    #[serde(default)]
    pub y_label: Option<String>,
    /// Small multiples: one panel per value of this column, on shared axes.
    #[serde(default)]
    pub facet: Option<String>,
    /// The printed width and height in centimetres, and the tick labels' size in points.
    #[serde(default)]
    pub width: Option<f64>,
    #[serde(default)]
    pub height: Option<f64>,
    #[serde(default)]
    pub font_size: Option<f64>,
}

impl Frame {
    /// Whether any key of the frame is set.
    pub fn is_set(&self) -> bool {
        self.x_label.is_some()
            || self.y_label.is_some()
            || self.facet.is_some()
            || self.width.is_some()
            || self.height.is_some()
            || self.font_size.is_some()
    }
}

/// The keys of [`Read`], [`Look`] and [`Frame`], taken out of a block's table before
/// its kind's own keys are read.
const READ_KEYS: [&str; 5] = ["experiment", "source", "where", "name", "derive"];
const LOOK_KEYS: [&str; 3] = ["title", "caption", "headers"];
const FRAME_KEYS: [&str; 6] = [
    "x_label",
    "y_label",
    "facet",
    "width",
    "height",
    "font_size",
];

/// Targets of a runtime view: absolute values, or fractions of a domain's reference
/// value per problem.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetKeys {
    /// Reached when the best value so far is at most the target (at least it with
    /// `better = "higher"`).
    #[serde(default)]
    pub targets: Vec<f64>,
    /// The column whose values are the problems (a size, an instance).
    #[serde(default)]
    pub problem: Option<String>,
    /// A domain's reference value per problem (`rjm.best_objective`).
    #[serde(default)]
    pub reference: Option<String>,
    #[serde(default)]
    pub fractions: Vec<f64>,
}

impl TargetKeys {
    /// The targets as words, for captions and axes: `targets −18, −19`, or `targets 90%,
    /// 100% of rjm.best_objective per size`.
    pub fn words(&self) -> String {
        use crate::present::format::number;
        match &self.reference {
            Some(r) => {
                let f: Vec<String> = self
                    .fractions
                    .iter()
                    .map(|x| format!("{}%", number(x * 100.0, 1)))
                    .collect();
                let problem = self.problem.as_deref().unwrap_or("problem");
                format!("targets {} of {r} per {problem}", f.join(", "))
            }
            None => {
                let t: Vec<String> = self.targets.iter().map(|x| number(*x, 3)).collect();
                format!("targets {}", t.join(", "))
            }
        }
    }

    /// How many targets there are.
    pub fn count(&self) -> usize {
        self.targets.len().max(self.fractions.len())
    }
}

macro_rules! kinds {
    ($( $(#[$doc:meta])* $variant:ident = $ty_name:ident ($name:literal) { $( $(#[$fdoc:meta])* $field:ident : $ty:ty $(= $default:literal)? ),* $(,)? } )*) => {
        /// What a block is, with the keys of its kind.
        #[derive(Debug, Clone, Deserialize)]
        #[serde(tag = "kind", rename_all = "snake_case")]
        pub enum Kind {
            $( $(#[$doc])* $variant($ty_name), )*
        }

        $(
            $(#[$doc])*
            #[derive(Debug, Clone, Deserialize)]
            #[serde(deny_unknown_fields)]
            pub struct $ty_name {
                $( $(#[$fdoc])* #[serde(default $(= $default)?)] pub $field: $ty, )*
            }
        )*

        impl Kind {
            /// The kind's name, as studies write it.
            pub fn name(&self) -> &'static str {
                match self { $( Kind::$variant(_) => $name, )* }
            }
        }

        /// Every kind's name.
        pub const KIND_NAMES: &[&str] = &[$($name),*];
    };
}

kinds! {
    /// Median of `metric` against `x` with an IQR band, a line per group.
    Line = LineFigure("line") {
        x: Option<String>, metric: Option<String>, group: Option<Columns>,
        log_x: bool, log_y: bool, missing: Option<f64>,
    }
    /// Box plots of `metric` per value of `x` (or of the group).
    Box = BoxFigure("box") { x: Option<String>, metric: Option<String>, group: Option<Columns>, missing: Option<f64> }
    /// Median of `metric` over the grid `x` × `group`.
    Heatmap = HeatmapFigure("heatmap") { x: Option<String>, metric: Option<String>, group: Option<Columns>, missing: Option<f64> }
    /// Histogram of `metric`, overlaid per group.
    Histogram = HistogramFigure("histogram") { metric: Option<String>, group: Option<Columns>, missing: Option<f64> }
    /// Median best-so-far against evaluations (the anytime table), a line per group.
    Anytime = AnytimeFigure("anytime") { group: Option<Columns>, log_y: bool }
    /// A ranking chart: each group's median with its 95% bootstrap interval, best first.
    Interval = IntervalFigure("interval") {
        x: Option<String>, metric: Option<String>, group: Option<Columns>,
        better: Option<Better>, missing: Option<f64>,
        /// Pair runs by these columns, as a compare block of the same groups does.
        paired: Option<Columns>,
    }
    /// The runtime distribution: the fraction of (run, target) pairs whose best so far
    /// has reached the target, against evaluations (log scale), a line per group.
    Ecdf = EcdfFigure("ecdf") {
        group: Option<Columns>, targets: TargetKeys, better: Option<Better>,
        /// Divide the budget by this column (a declared problem dimension).
        per: Option<String>,
    }
    /// The expected running time to each target per group, with successes.
    Ert = ErtTable("ert") {
        group: Option<Columns>, targets: TargetKeys, better: Option<Better>,
        per: Option<String>, show: bool = "shown",
    }
    /// Per group, the best value reached within each of `budgets` evaluations.
    FixedBudget = FixedBudgetTable("fixed_budget") {
        group: Option<Columns>, budgets: Vec<f64>, better: Option<Better>, per: Option<String>,
        show: bool = "shown",
    }
    /// A summary per group: runs, median, IQR, 95% CI of the median, mean.
    Table = SummaryTable("table") {
        metric: Option<String>, group: Option<Columns>, missing: Option<f64>,
        digits: Option<usize>, show: bool = "shown",
    }
    /// A ranking of the groups, each tested against the best.
    Compare = CompareTable("compare") {
        metric: Option<String>, group: Option<Columns>, better: Option<Better>, missing: Option<f64>,
        /// Pair runs by these columns (Wilcoxon signed-rank) instead of Mann–Whitney.
        paired: Option<Columns>,
        /// Keep only the best group for each value of this column before ranking.
        best_of: Option<String>,
        /// Show only the first `top` rows of the ranking (facts keep every group).
        top: Option<usize>,
        digits: Option<usize>, show: bool = "shown",
    }
    /// One aggregate (sum, median, …) of each of `metrics` per group.
    Aggregate = AggregateTable("aggregate") {
        metrics: Vec<String>, group: Option<Columns>, aggregate: Aggregate,
        missing: Option<f64>, digits: Option<usize>, show: bool = "shown",
    }
    /// One aggregate of `metric` on the grid `rows` × `columns`.
    Pivot = PivotTable("pivot") {
        metric: Option<String>, rows: Option<String>, columns: Option<String>,
        aggregate: Aggregate, missing: Option<f64>, digits: Option<usize>, show: bool = "shown",
    }
    /// Listed rows: the `columns` of each run (after the filter), in `sort` order.
    Rows = RowsTable("rows") { columns: Option<Columns>, sort: Option<Columns>, digits: Option<usize> }
    /// Named values computed by a domain's fact function, with their table if
    /// `columns` lists some.
    Facts = FactsBlock("facts") { function: Option<String>, columns: Option<Columns>, digits: Option<usize> }
    /// Pictures a domain draws (boards, mazes) by a named function.
    Board = BoardBlock("board") { function: Option<String> }
    /// A paragraph: a template filled with facts.
    Text = TextBlock("text") { text: Option<String> }
}

fn shown() -> bool {
    true
}

/// One block of a question.
#[derive(Debug, Clone)]
pub struct Block {
    pub read: Read,
    pub look: Look,
    pub frame: Frame,
    pub kind: Kind,
    /// Set on loading: the line the block starts on.
    pub line: usize,
}

impl<'de> Deserialize<'de> for Block {
    /// Reads the keys of [`Read`], [`Look`] and [`Frame`], then the rest as the kind's
    /// own (unknown keys refused at each step, naming the kind).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let mut table = toml::Table::deserialize(d)?;
        let mut take = |keys: &[&str]| {
            let mut part = toml::Table::new();
            for k in keys {
                if let Some(v) = table.remove(*k) {
                    part.insert(k.to_string(), v);
                }
            }
            part
        };
        let (read, look, frame) = (take(&READ_KEYS), take(&LOOK_KEYS), take(&FRAME_KEYS));
        let kind: Kind = nest_targets(table)
            .try_into()
            .map_err(|e: toml::de::Error| D::Error::custom(e.message().trim()))?;
        let fail = |e: toml::de::Error| D::Error::custom(e.message().trim());
        Ok(Block {
            read: read.try_into().map_err(fail)?,
            look: look.try_into().map_err(fail)?,
            frame: frame.try_into().map_err(fail)?,
            kind,
            line: 0,
        })
    }
}

/// The runtime kinds' target keys (`targets`, `problem`, `reference`, `fractions`) are
/// written flat in a block and read as one [`TargetKeys`].
fn nest_targets(mut table: toml::Table) -> toml::Table {
    let runtime = matches!(
        table.get("kind").and_then(|k| k.as_str()),
        Some("ecdf" | "ert")
    );
    if runtime {
        let mut targets = toml::Table::new();
        for k in ["targets", "problem", "reference", "fractions"] {
            if let Some(v) = table.remove(k) {
                targets.insert(k.to_string(), v);
            }
        }
        table.insert("targets".into(), toml::Value::Table(targets));
    }
    table
}

impl Block {
    /// The kind's name.
    pub fn kind_name(&self) -> &'static str {
        self.kind.name()
    }

    /// The prefix of this block's facts.
    pub fn fact_prefix(&self) -> String {
        if let Some(n) = &self.read.name {
            return n.clone();
        }
        match &self.kind {
            Kind::Facts(f) => {
                let f = f.function.as_deref().unwrap_or_default();
                f.rsplit('.').next().unwrap_or(f).to_string()
            }
            k => k.name().to_string(),
        }
    }

    /// Blocks whose facts templates can quote.
    pub fn makes_facts(&self) -> bool {
        matches!(
            self.kind,
            Kind::Ert(_)
                | Kind::FixedBudget(_)
                | Kind::Table(_)
                | Kind::Aggregate(_)
                | Kind::Pivot(_)
                | Kind::Compare(_)
                | Kind::Facts(_)
        )
    }

    /// Blocks that read the anytime table.
    pub fn reads_anytime(&self) -> bool {
        matches!(
            self.kind,
            Kind::Anytime(_) | Kind::Ecdf(_) | Kind::Ert(_) | Kind::FixedBudget(_)
        )
    }

    /// Whether the block shows what it computes (`show = false`: facts only).
    pub fn shown(&self) -> bool {
        match &self.kind {
            Kind::Ert(k) => k.show,
            Kind::FixedBudget(k) => k.show,
            Kind::Table(k) => k.show,
            Kind::Compare(k) => k.show,
            Kind::Aggregate(k) => k.show,
            Kind::Pivot(k) => k.show,
            _ => true,
        }
    }

    /// The metric the block ranks, summarises or draws, if it names one.
    pub fn metric(&self) -> Option<&str> {
        match &self.kind {
            Kind::Line(k) => k.metric.as_deref(),
            Kind::Box(k) => k.metric.as_deref(),
            Kind::Heatmap(k) => k.metric.as_deref(),
            Kind::Histogram(k) => k.metric.as_deref(),
            Kind::Interval(k) => k.metric.as_deref(),
            Kind::Table(k) => k.metric.as_deref(),
            Kind::Compare(k) => k.metric.as_deref(),
            Kind::Pivot(k) => k.metric.as_deref(),
            _ => None,
        }
    }

    /// The value a null metric counts as, where the block's kind takes one.
    pub fn missing(&self) -> Option<f64> {
        match &self.kind {
            Kind::Line(k) => k.missing,
            Kind::Box(k) => k.missing,
            Kind::Heatmap(k) => k.missing,
            Kind::Histogram(k) => k.missing,
            Kind::Interval(k) => k.missing,
            Kind::Table(k) => k.missing,
            Kind::Compare(k) => k.missing,
            Kind::Aggregate(k) => k.missing,
            Kind::Pivot(k) => k.missing,
            _ => None,
        }
    }

    /// The block's `better`, where its kind takes one.
    pub fn better(&self) -> Option<Better> {
        match &self.kind {
            Kind::Interval(k) => k.better,
            Kind::Ecdf(k) => k.better,
            Kind::Ert(k) => k.better,
            Kind::FixedBudget(k) => k.better,
            Kind::Compare(k) => k.better,
            _ => None,
        }
    }

    /// Whether the block ranks groups (its metric needs a direction).
    pub fn ranks(&self) -> bool {
        matches!(self.kind, Kind::Compare(_) | Kind::Interval(_))
    }

    /// The grouping columns.
    pub fn group_list(&self) -> Vec<String> {
        match &self.kind {
            Kind::Line(k) => list(&k.group),
            Kind::Box(k) => list(&k.group),
            Kind::Heatmap(k) => list(&k.group),
            Kind::Histogram(k) => list(&k.group),
            Kind::Anytime(k) => list(&k.group),
            Kind::Interval(k) => list(&k.group),
            Kind::Ecdf(k) => list(&k.group),
            Kind::Ert(k) => list(&k.group),
            Kind::FixedBudget(k) => list(&k.group),
            Kind::Table(k) => list(&k.group),
            Kind::Compare(k) => list(&k.group),
            Kind::Aggregate(k) => list(&k.group),
            _ => Vec::new(),
        }
    }

    /// Every column the block reads, for checking before anything runs. Anytime
    /// figures read the anytime table (and no metric of their own).
    pub fn columns(&self) -> Vec<String> {
        let mut c: Vec<String> = self.read.filter.keys().cloned().collect();
        c.extend(self.group_list());
        c.extend(self.frame.facet.clone());
        c.extend(self.metric().map(String::from));
        let mut add = |cols: &[&Option<String>]| c.extend(cols.iter().filter_map(|x| (*x).clone()));
        match &self.kind {
            Kind::Line(k) => add(&[&k.x]),
            Kind::Box(k) => add(&[&k.x]),
            Kind::Heatmap(k) => add(&[&k.x]),
            Kind::Interval(k) => add(&[&k.x]),
            Kind::Ecdf(k) => add(&[&k.per, &k.targets.problem]),
            Kind::Ert(k) => add(&[&k.per, &k.targets.problem]),
            Kind::FixedBudget(k) => add(&[&k.per]),
            Kind::Pivot(k) => add(&[&k.rows, &k.columns]),
            _ => {}
        }
        match &self.kind {
            Kind::Compare(k) => c.extend(list(&k.paired)),
            Kind::Interval(k) => c.extend(list(&k.paired)),
            Kind::Aggregate(k) => c.extend(k.metrics.iter().cloned()),
            Kind::Rows(k) => {
                c.extend(list(&k.columns));
                c.extend(list(&k.sort));
            }
            _ => {}
        }
        c
    }

    /// The columns the block computes with, which must hold numbers: (its key, the
    /// column).
    pub fn numeric_columns(&self) -> Vec<(&'static str, String)> {
        let mut out: Vec<(&'static str, String)> = Vec::new();
        if let (Some(m), false) = (self.metric(), self.reads_anytime()) {
            out.push(("metric", m.to_string()));
        }
        let per = match &self.kind {
            Kind::Ecdf(k) => k.per.clone(),
            Kind::Ert(k) => k.per.clone(),
            Kind::FixedBudget(k) => k.per.clone(),
            Kind::Aggregate(k) => {
                out.extend(k.metrics.iter().map(|m| ("metrics", m.clone())));
                None
            }
            _ => None,
        };
        out.extend(per.map(|p| ("per", p)));
        out
    }

    /// The tables the block reads: each listed experiment as (its config's name, its
    /// source, the key of its table set).
    pub fn tables(&self) -> Vec<(String, Source, String)> {
        list(&self.read.experiment)
            .into_iter()
            .map(|n| match n.split_once('/') {
                Some((config, suffix)) => {
                    let source = Source::of_suffix(suffix).unwrap_or(self.read.source);
                    (config.to_string(), source, source.key(config))
                }
                None => (n.clone(), self.read.source, self.read.source.key(&n)),
            })
            .collect()
    }

    /// The figure a figure block draws, from its own keys: the kind, columns, scales,
    /// direction and targets; titles and labels are the report's to fill from the
    /// tables' declarations, as is a relative target's reference function.
    pub fn figure(&self) -> Option<FigureSpec> {
        let metric = self.metric().unwrap_or("best_so_far");
        let base = |kind| FigureSpec {
            group: self.group_list(),
            facet: self.frame.facet.clone(),
            width: self.frame.width,
            height: self.frame.height,
            font_size: self.frame.font_size,
            x_label: self.frame.x_label.clone(),
            y_label: self.frame.y_label.clone(),
            better: self.better(),
            ..FigureSpec::new(kind, metric)
        };
        Some(match &self.kind {
            Kind::Line(k) => FigureSpec {
                x: k.x.clone(),
                log_x: k.log_x,
                log_y: k.log_y,
                missing: k.missing,
                ..base(FigureKind::Line)
            },
            Kind::Box(k) => FigureSpec {
                x: k.x.clone(),
                missing: k.missing,
                ..base(FigureKind::Box)
            },
            Kind::Heatmap(k) => FigureSpec {
                x: k.x.clone(),
                missing: k.missing,
                ..base(FigureKind::Heatmap)
            },
            Kind::Histogram(k) => FigureSpec {
                missing: k.missing,
                ..base(FigureKind::Histogram)
            },
            Kind::Anytime(k) => FigureSpec {
                log_y: k.log_y,
                ..base(FigureKind::Anytime)
            },
            Kind::Interval(k) => FigureSpec {
                x: k.x.clone(),
                missing: k.missing,
                paired: list(&k.paired),
                ..base(FigureKind::Interval)
            },
            Kind::Ecdf(k) => FigureSpec {
                runtime: Some(RuntimeSpec {
                    targets: k.targets.targets.clone(),
                    fractions: k.targets.fractions.clone(),
                    problem: k.targets.problem.clone(),
                    reference: None,
                    per: k.per.clone(),
                    words: k.targets.words(),
                }),
                ..base(FigureKind::Ecdf)
            },
            _ => return None,
        })
    }

    /// The config of the first experiment the block reads (whose config facts and
    /// functions see), if any.
    pub fn first_experiment(&self) -> Option<String> {
        self.tables().into_iter().next().map(|(config, ..)| config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(text: &str) -> Result<Block, String> {
        toml::from_str::<Block>(text).map_err(|e| e.message().to_string())
    }

    #[test]
    fn each_kind_takes_its_own_keys_and_refuses_others() {
        let b = block("kind = \"compare\"\nexperiment = \"e\"\nmetric = \"m\"\ngroup = [\"a\", \"b\"]\npaired = \"replicate\"\ntitle = \"T\"").unwrap();
        assert_eq!(b.kind_name(), "compare");
        assert_eq!(b.group_list(), vec!["a", "b"]);
        assert_eq!(b.look.title.as_deref(), Some("T"));
        for (text, says) in [
            (
                "kind = \"histogram\"\nmetric = \"m\"\nx = \"s\"",
                "unknown field `x`",
            ),
            (
                "kind = \"box\"\nmetric = \"m\"\nx = \"s\"\nbudgets = [1]",
                "unknown field `budgets`",
            ),
            (
                "kind = \"table\"\nmetric = \"m\"\npaired = \"r\"",
                "unknown field `paired`",
            ),
            (
                "kind = \"text\"\ntext = \"t\"\ntop = 3",
                "unknown field `top`",
            ),
            ("kind = \"pie\"", "unknown variant `pie`"),
            (
                "kind = \"line\"\nx = \"s\"\ncolour = 1",
                "unknown field `colour`",
            ),
        ] {
            let err = block(text).unwrap_err();
            assert!(err.contains(says), "{text}: {err}");
        }
    }

    #[test]
    fn runtime_targets_are_read_flat() {
        let b = block("kind = \"ecdf\"\nexperiment = \"e\"\nproblem = \"size\"\nreference = \"r.f\"\nfractions = [0.5, 1.0]\nper = \"cells\"").unwrap();
        let Kind::Ecdf(k) = &b.kind else { panic!() };
        assert_eq!(k.targets.fractions, vec![0.5, 1.0]);
        assert_eq!(k.targets.problem.as_deref(), Some("size"));
        assert_eq!(b.columns(), vec!["cells".to_string(), "size".to_string()]);
        assert!(block("kind = \"ecdf\"\ntargets = [1]\nbudgets = [3]").is_err());
        assert_eq!(KIND_NAMES.len(), 17);
    }
}
