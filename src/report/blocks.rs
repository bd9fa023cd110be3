//! Rendering a study's blocks to markdown, in order, each from the rows its filter keeps
//! of the tables it reads: figures (saved under `figures/`), text templates, and the
//! table-like (`tables`) and anytime (`anytime`) blocks. Every block
//! that computes values adds them to the question's facts, which later templates quote.

use crate::domain::Functions;
use crate::pipeline::config::Config;
use crate::pipeline::metrics::{Better, MetricSpec};
use crate::present::facts::{Fact, FactInput, Facts, fill};
use crate::present::figure::{AnyFigure, FigureKind, filter_words};
use crate::present::plot::{Print, save_printed};
use crate::present::view::{Filter, concat};
use crate::study::block::{Block, Kind};
use polars::prelude::DataFrame;
use std::collections::HashMap;
use std::path::PathBuf;

/// The finished experiments' tables and configs, read once, and the declarations of
/// their metrics. Tables are keyed by experiment (`NAME`) or tuning (`NAME/tuned`).
#[derive(Default)]
pub struct Tables {
    pub results: HashMap<String, DataFrame>,
    pub anytime: HashMap<String, DataFrame>,
    /// Each run's strict improvements of its best so far (the anytime table's columns):
    /// with the anytime table's checkpoints, the exact hitting times of the runtime
    /// blocks.
    pub improvements: HashMap<String, DataFrame>,
    pub configs: HashMap<String, Config>,
    /// The `[tune]` sections of the configs that have one.
    pub tunes: HashMap<String, crate::tune::spec::TuneSpec>,
    /// Each experiment's metric declarations, by experiment.
    pub metrics: HashMap<String, Vec<&'static MetricSpec>>,
    /// What each experiment's columns mean in words (axis and legend titles).
    pub words: HashMap<String, crate::present::words::Words>,
}

impl Tables {
    /// Which way is better for `metric` of the experiments: the block's `better`, else
    /// the metric's declaration; the anytime table's best-so-far is an objective,
    /// minimised.
    pub fn better(
        &self,
        experiments: &[String],
        metric: &str,
        given: Option<Better>,
    ) -> anyhow::Result<Better> {
        if let Some(b) = given {
            return Ok(b);
        }
        if metric == "best_so_far" {
            return Ok(Better::Lower);
        }
        experiments
            .iter()
            .filter_map(|e| self.metrics.get(e))
            .flat_map(|ms| ms.iter())
            .find(|m| m.name == metric)
            .and_then(|m| m.better)
            .ok_or_else(|| {
                crate::user_error!(
                    "{metric} declares no direction: say better = \"higher\" or \"lower\""
                )
            })
    }

    /// The declaration of a metric of the experiments, if they declare it.
    pub fn metric(&self, experiments: &[String], name: &str) -> Option<&'static MetricSpec> {
        experiments
            .iter()
            .filter_map(|e| self.metrics.get(e))
            .flat_map(|ms| ms.iter().copied())
            .find(|m| m.name == name)
    }
}

/// What a block selected: the rows its filter keeps of the tables it reads (several
/// read together), the experiments they come from, and its names.
pub(super) struct Selected<'a> {
    pub experiments: Vec<String>,
    pub results: DataFrame,
    pub anytime: DataFrame,
    /// The first experiment's config (what its facts and functions see).
    pub config: &'a Config,
    pub filter: Filter,
    /// The name of its figures, and the prefix of its facts.
    pub name: String,
    pub prefix: String,
    /// The derived columns its results have.
    pub derived: Vec<crate::present::derive::Derived>,
}

/// Renders blocks into markdown.
pub struct Renderer<'a> {
    pub tables: &'a Tables,
    pub functions: &'a Functions,
    /// Where figures are saved.
    pub figures: PathBuf,
    /// How markdown links that folder (`figures/STUDY`): figures are `LINK/NAME.png`.
    pub link: String,
    /// The series styles of the whole report: a group's value keeps its look in every
    /// figure.
    pub styles: &'a crate::present::plot::StyleBook,
}

impl Renderer<'_> {
    /// Renders one block. `id` names its figures when the block has no name.
    pub fn block(&self, b: &Block, id: &str, facts: &mut Facts) -> anyhow::Result<String> {
        if let Kind::Text(t) = &b.kind {
            let text = t.text.as_deref().unwrap_or_default();
            return Ok(format!(
                "{}\n",
                fill(text.trim(), facts).map_err(anyhow::Error::msg)?
            ));
        }
        let sel = self.select(b, id)?;
        if b.makes_facts() {
            facts.extend_prefixed(&sel.prefix, filter_facts(&sel.filter));
        }
        if b.figure().is_some() {
            return self.figure_block(b, &sel, facts);
        }
        let shown = match &b.kind {
            Kind::Table(k) => self.table_block(b, k, &sel, facts),
            Kind::Compare(k) => self.compare_block(b, k, &sel, facts),
            Kind::Aggregate(k) => self.aggregate_block(b, k, &sel, facts),
            Kind::Pivot(k) => self.pivot_block(b, k, &sel, facts),
            Kind::Rows(k) => self.rows_block(b, k, &sel),
            Kind::Facts(k) => self.facts_block(b, k, &sel, facts),
            Kind::Board(k) => self.board_block(k, &sel),
            Kind::Ert(k) => self.ert_block(b, k, &sel, facts),
            Kind::FixedBudget(k) => self.fixed_budget_block(b, k, &sel, facts),
            _ => anyhow::bail!("a {} block renders nothing here", b.kind_name()),
        }?;
        if !b.shown() {
            return Ok(String::new());
        }
        let (above, mut below) = self.table_titles(b, facts)?;
        // Every table has a caption: the study's, else what the block computes.
        if below.is_empty() && shown.contains("\n|---") {
            below = format!("\n*{}*\n", self.default_caption(b, &sel));
        }
        Ok(above + &caption_after_table(&shown, &below))
    }

    /// The rows of the tables a block reads, after its filter. A filter that keeps no
    /// row of a table the block reads is an error naming it.
    fn select(&self, b: &Block, id: &str) -> anyhow::Result<Selected<'_>> {
        let filter = Filter::from_toml(&b.read.filter).map_err(anyhow::Error::msg)?;
        let tables = b.tables();
        let (first, ..) = tables
            .first()
            .ok_or_else(|| anyhow::anyhow!("the block reads no experiment"))?;
        let config = self
            .tables
            .configs
            .get(first)
            .ok_or_else(|| anyhow::anyhow!("experiment {first} was not run"))?;
        // The tables of every key, from each of `sets` (one table set, or the anytime
        // checkpoints with the improvements), read as one.
        // The runs' tables get the derived columns before the filter (a ratio against a
        // reference group sees its rows whatever the filter keeps).
        let derived = super::derivations(b).map_err(|e| crate::user_error!("{e}"))?;
        let read = |sets: &[&HashMap<String, DataFrame>],
                    derived: &[crate::present::derive::Derived]|
         -> anyhow::Result<DataFrame> {
            let mut parts = Vec::new();
            for set in sets {
                for (_, _, key) in &tables {
                    let df = set
                        .get(key)
                        .ok_or_else(|| anyhow::anyhow!("{key} has no table"))?;
                    let df = crate::present::derive::apply(df, derived)
                        .map_err(|e| crate::user_error!("experiment {key}: {e}"))?;
                    parts.push((key.clone(), filter.apply(&df)?));
                }
            }
            let named: Vec<(String, &DataFrame)> =
                parts.iter().map(|(k, d)| (k.clone(), d)).collect();
            concat(&named)
        };
        let results = read(&[&self.tables.results], &derived)?;
        // Runtime views read every improvement too: hitting times at the exact evaluation.
        let exact = matches!(b.kind, Kind::Ecdf(_) | Kind::Ert(_) | Kind::FixedBudget(_))
            && tables
                .iter()
                .all(|(.., k)| self.tables.improvements.contains_key(k));
        let anytime = match (b.reads_anytime() || matches!(b.kind, Kind::Facts(_)), exact) {
            (true, true) => read(&[&self.tables.anytime, &self.tables.improvements], &[])?,
            (true, false) => read(&[&self.tables.anytime], &[])?,
            (false, _) => DataFrame::default(),
        };
        let rows = if b.reads_anytime() {
            &anytime
        } else {
            &results
        };
        if !filter.is_empty() && rows.height() == 0 {
            crate::user_bail!("where = {} keeps no rows", describe_filter(&filter));
        }
        Ok(Selected {
            experiments: tables.into_iter().map(|(config, ..)| config).collect(),
            results,
            anytime,
            config,
            filter,
            name: b.read.name.clone().unwrap_or_else(|| id.to_string()),
            prefix: b.fact_prefix(),
            derived,
        })
    }

    /// A figure block: its spec from the block, the labels from the tables'
    /// declarations, the title and caption from its templates; a runtime distribution
    /// whose every target is reached at once says so under it.
    fn figure_block(&self, b: &Block, sel: &Selected, facts: &Facts) -> anyhow::Result<String> {
        let mut spec = b.figure().expect("a figure block");
        spec.words = crate::present::words::Words::merged(
            sel.experiments
                .iter()
                .filter_map(|e| self.tables.words.get(e)),
        );
        let rows = if spec.kind.uses_anytime() {
            &sel.anytime
        } else {
            &sel.results
        };
        if spec.y_label.is_none() && spec.kind != FigureKind::Ecdf {
            spec.y_label = self
                .tables
                .metric(&sel.experiments, &spec.metric)
                .map(|m| m.header());
        }
        spec.better = self
            .tables
            .better(&sel.experiments, &spec.metric, b.better())
            .ok();
        let mut note = String::new();
        if let Some(r) = spec.runtime.as_mut() {
            r.reference = self.reference(b)?;
            let (_, trivial) = self.block_hits(b, sel, r)?;
            let (references, _) = self.references_shown(b, sel)?;
            note = references + &trivial;
        }
        spec.title =
            fill(b.look.title.as_deref().unwrap_or_default(), facts).map_err(anyhow::Error::msg)?;
        if spec.title.trim().is_empty() {
            spec.title = spec.derived_title(&filter_words(&sel.filter));
        }
        let mut fig = crate::present::facets::build(&spec, rows)?;
        crate::present::facets::apply_styles(&mut fig, self.styles);
        let caption = self.caption(b, &spec.title, facts)?;
        let print = spec.print(fig.panels());
        Ok(self.figure_printed(&fig, &sel.name, &caption, Some(&print))? + &note)
    }

    /// A block's caption: its template filled, else its title.
    pub(super) fn caption(&self, b: &Block, title: &str, facts: &Facts) -> anyhow::Result<String> {
        match &b.look.caption {
            Some(c) => fill(c, facts).map_err(anyhow::Error::msg),
            None => Ok(title.to_string()),
        }
    }

    /// A table block's title (above it) and caption (below it), where the study gives
    /// them.
    fn table_titles(&self, b: &Block, facts: &Facts) -> anyhow::Result<(String, String)> {
        let filled = |t: &Option<String>| -> anyhow::Result<Option<String>> {
            t.as_deref()
                .map(|t| fill(t, facts).map_err(anyhow::Error::msg))
                .transpose()
        };
        let above = filled(&b.look.title)?.map_or(String::new(), |t| format!("**{t}**\n\n"));
        let below = filled(&b.look.caption)?.map_or(String::new(), |c| format!("\n*{c}*\n"));
        Ok((above, below))
    }

    fn facts_block(
        &self,
        b: &Block,
        k: &crate::study::block::FactsBlock,
        sel: &Selected,
        facts: &mut Facts,
    ) -> anyhow::Result<String> {
        let name = k.function.as_deref().unwrap_or_default();
        let f = self
            .functions
            .facts
            .iter()
            .find(|f| f.name == name)
            .ok_or_else(|| anyhow::anyhow!("no fact function {name}"))?;
        let computed = (f.compute)(&input(sel))?;
        let table = match &k.columns {
            Some(cols) => self.fact_table(b, k.digits, &computed, &cols.list())?,
            None => String::new(),
        };
        facts.extend_prefixed(&sel.prefix, computed);
        Ok(table)
    }

    fn board_block(
        &self,
        k: &crate::study::block::BoardBlock,
        sel: &Selected,
    ) -> anyhow::Result<String> {
        let fname = k.function.as_deref().unwrap_or_default();
        let f = self
            .functions
            .boards
            .iter()
            .find(|f| f.name == fname)
            .ok_or_else(|| anyhow::anyhow!("no board function {fname}"))?;
        let mut out = String::new();
        for (i, (caption, fig)) in (f.draw)(&input(sel))?.into_iter().enumerate() {
            // A chart at the default printed size; a board at its own shape.
            let print = match fig {
                AnyFigure::Board(_) => None,
                _ => Some(Print::default()),
            };
            let name = format!("{}_{}", sel.name, i + 1);
            out.push_str(&self.figure_printed(&fig, &name, &caption, print.as_ref())?);
            out.push('\n');
        }
        Ok(out)
    }

    /// A column's header: the block's `headers`, else the metric's declared words and
    /// unit, else the column's name.
    pub(super) fn header(&self, b: &Block, sel: &Selected, column: &str) -> String {
        if let Some(h) = b.look.headers.get(column) {
            return h.clone();
        }
        match self.tables.metric(&sel.experiments, column) {
            Some(m) => m.header(),
            None => column.replace('_', " "),
        }
    }

    /// Saves a figure as `<name>.png`, `.svg` and `.pdf` in the figures' folder, drawn
    /// for its printed size (see [`Print`]) where given; returns its markdown.
    pub(super) fn figure_printed(
        &self,
        fig: &AnyFigure,
        name: &str,
        caption: &str,
        print: Option<&Print>,
    ) -> anyhow::Result<String> {
        save_printed(fig, &self.figures.join(name), print)?;
        let link = &self.link;
        Ok(format!(
            "![{caption}]({link}/{name}.png)\n\n*Figure: {caption}* ([SVG]({link}/{name}.svg), [PDF]({link}/{name}.pdf))\n"
        ))
    }
}

/// A block's markdown with its caption right under its (first) table, before any note
/// the block puts below it: the italic line after a table is the table's caption.
fn caption_after_table(shown: &str, caption: &str) -> String {
    let Some(rule) = shown.find("\n|---") else {
        return format!("{shown}{caption}");
    };
    let end = shown[rule + 1..]
        .find("\n\n")
        .map_or(shown.len(), |at| rule + 1 + at + 1);
    let (table, rest) = shown.split_at(end);
    format!("{table}{caption}{rest}")
}

/// What a domain function sees of a block's selection.
fn input<'a>(sel: &'a Selected) -> FactInput<'a> {
    FactInput {
        results: &sel.results,
        anytime: &sel.anytime,
        config: sel.config,
    }
}

/// `{ column = value, … }`, for messages.
fn describe_filter(filter: &Filter) -> String {
    format!("{{ {} }}", filter_words(filter))
}

/// A block's filter as facts, `where.COLUMN`, so that text can quote the values it
/// selected (a number when it is one value that is a number).
fn filter_facts(filter: &Filter) -> Facts {
    let mut f = Facts::default();
    for (col, values) in &filter.0 {
        let fact = match values.as_slice() {
            [one] => match (one.parse::<i64>(), one.parse::<f64>()) {
                (Ok(i), _) => Fact::Int(i),
                (_, Ok(x)) => Fact::Num(x),
                _ => Fact::Text(one.clone()),
            },
            many => Fact::Text(many.join(", ")),
        };
        f.set(format!("where.{col}"), fact);
    }
    f
}

#[cfg(test)]
mod tests {
    use crate::pipeline::metrics::Better;
    use crate::pipeline::params::Value;
    use crate::pipeline::table::{ColumnBuilder, frame};
    use crate::present::compare::{Pairing, rank};
    use crate::present::figure::{AnyFigure, FigureKind, FigureSpec, build};
    use crate::present::view::summarize;

    #[test]
    fn a_tables_caption_comes_right_under_it_before_its_notes() {
        let shown = "| a |\n|---|\n| 1 |\n\n*† a note.*\n\n*Reference values.*\n";
        let out = super::caption_after_table(shown, "\n*the caption*\n");
        assert_eq!(
            out,
            "| a |\n|---|\n| 1 |\n\n*the caption*\n\n*† a note.*\n\n*Reference values.*\n"
        );
        let bare = "| a |\n|---|\n| 1 |\n";
        assert_eq!(
            super::caption_after_table(bare, "\n*c*\n"),
            format!("{bare}\n*c*\n")
        );
        assert_eq!(
            super::caption_after_table("text\n", "\n*c*\n"),
            "text\n\n*c*\n"
        );
    }

    /// Groups a and b on 20 shared replicates, b one below a on each: independent
    /// samples cannot tell them apart, pairs can.
    fn shifted() -> polars::prelude::DataFrame {
        let (mut g, mut r, mut y) = (
            ColumnBuilder::new("g"),
            ColumnBuilder::new("replicate"),
            ColumnBuilder::new("y"),
        );
        for i in 0..20 {
            for (name, v) in [("a", 10.0 + i as f64), ("b", 9.0 + i as f64)] {
                g.push(Value::from(name));
                r.push(Value::Int(i));
                y.push(Value::Float(v));
            }
        }
        frame(vec![g, r, y]).unwrap()
    }

    #[test]
    fn the_interval_chart_marks_what_the_compare_table_says() {
        let df = shifted();
        for paired in [Vec::new(), vec!["replicate".to_string()]] {
            let pairing = match paired.is_empty() {
                true => Pairing::None,
                false => Pairing::By(paired.clone()),
            };
            let groups = summarize(&df, &["g".into()], "y", None).unwrap();
            let table = rank(groups, "y", Better::Higher, &pairing, None).unwrap();
            let spec = FigureSpec {
                group: vec!["g".into()],
                better: Some(Better::Higher),
                paired: paired.clone(),
                ..FigureSpec::new(FigureKind::Interval, "y")
            };
            let AnyFigure::Interval(chart) = build(&spec, &df).unwrap() else {
                panic!("an interval chart")
            };
            let marks: Vec<bool> = chart.rows.iter().map(|r| r.with_best).collect();
            let tied: Vec<bool> = table.iter().map(|r| !r.worse()).collect();
            assert_eq!(marks, tied, "paired by {paired:?}");
            // Unpaired, b is tied with a; paired, it is worse on every one of 20 pairs.
            assert_eq!(tied, vec![true, paired.is_empty()]);
        }
    }
}
