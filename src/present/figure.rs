//! Figure specs to figures: one code path for a config's `[[plot]]` and a study's
//! figure blocks, the runtime distribution included. A [`FigureSpec`] names the kind,
//! the columns and the labels; [`build`] computes the figure from (already filtered)
//! rows; [`AnyFigure`] holds any figure a study can show, the domains' board pictures
//! included, so it can be saved by name.
//!
//! A new kind of figure is a variant of [`FigureKind`] with its arm in [`build`] (this
//! file), the chart that computes it (`charts.rs`, or a module of its own), and the
//! study block that asks for it (`study/block.rs`).

use crate::pipeline::metrics::Better;
use crate::present::charts;
use crate::present::compare::{Pairing, rank};
use crate::present::plot::{
    BoardPicture, BoxPlot, Facets, Figure, Heatmap, Histogram, IntervalPlot, IntervalRow, LinePlot,
    Print,
};
use crate::present::view::{Filter, summarize};
use crate::present::words::Words;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend};
use polars::prelude::*;
use serde::Deserialize;

/// The kinds of figure computed from a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FigureKind {
    /// Median of the metric against `x` with an interquartile band, a line per `group`.
    Line,
    /// Box plots of the metric for each value of `x` (or of `group`).
    Box,
    /// Median of the metric over the grid `x` × `group`.
    Heatmap,
    /// Histogram of the metric, overlaid per `group`.
    Histogram,
    /// Median best-so-far against iterations (log scale) from the anytime table.
    Anytime,
    /// A ranking: each group's median with its 95% bootstrap interval, best first.
    Interval,
    /// The runtime distribution (COCO's ECDF) of hitting times of targets, from the
    /// anytime table, a line per `group`.
    Ecdf,
}

impl FigureKind {
    /// Every kind, by the name configs and studies write.
    pub const NAMES: [(&'static str, FigureKind); 6] = [
        ("line", FigureKind::Line),
        ("box", FigureKind::Box),
        ("heatmap", FigureKind::Heatmap),
        ("histogram", FigureKind::Histogram),
        ("anytime", FigureKind::Anytime),
        ("interval", FigureKind::Interval),
    ];

    /// The kind of that name, or an error listing the kinds.
    pub fn from_name(name: &str) -> Result<FigureKind, String> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, k)| *k)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::NAMES.iter().map(|(n, _)| *n).collect();
                format!(
                    "unknown figure kind {name:?} (expected {})",
                    names.join(", ")
                )
            })
    }

    /// True for the kinds drawn from the anytime table.
    pub fn uses_anytime(self) -> bool {
        matches!(self, FigureKind::Anytime | FigureKind::Ecdf)
    }
}

/// A domain's reference value of a problem (see [`crate::present::facts::ReferenceFunction`]).
pub type Reference = fn(&str) -> Option<f64>;

/// The targets of a runtime distribution, and how its budget is counted.
#[derive(Debug, Clone)]
pub struct RuntimeSpec {
    /// Absolute targets; or, with `problem` and `reference`, fractions of each
    /// problem's reference value.
    pub targets: Vec<f64>,
    pub fractions: Vec<f64>,
    pub problem: Option<String>,
    /// The reference value per problem (a domain's function), when targets are relative.
    pub reference: Option<Reference>,
    /// Divide the budget by this column (a problem dimension).
    pub per: Option<String>,
    /// The targets in words, for the x axis.
    pub words: String,
}

impl RuntimeSpec {
    /// The targets as the anytime views take them.
    pub fn targets(&self) -> anyhow::Result<crate::present::anytime::Targets<'_>> {
        use crate::present::anytime::Targets;
        Ok(match (&self.problem, self.reference) {
            (Some(problem), Some(reference)) if !self.fractions.is_empty() => Targets::Relative {
                problem,
                fractions: &self.fractions,
                reference,
            },
            _ if !self.targets.is_empty() => Targets::Absolute(&self.targets),
            _ => anyhow::bail!("a runtime distribution needs targets"),
        })
    }
}

/// What to draw.
#[derive(Debug, Clone)]
pub struct FigureSpec {
    pub kind: FigureKind,
    pub x: Option<String>,
    pub metric: String,
    /// The grouping columns: a line, box or series per group of their values.
    pub group: Vec<String>,
    /// Small multiples: one panel per value of this column, on shared axes.
    pub facet: Option<String>,
    /// The printed width and height (cm) and tick label size (pt), where given.
    pub width: Option<f64>,
    pub height: Option<f64>,
    pub font_size: Option<f64>,
    pub title: String,
    pub x_label: Option<String>,
    pub y_label: Option<String>,
    pub log_x: bool,
    pub log_y: bool,
    /// Which way is better (the metric's declared direction, or the block's `better`):
    /// the ranking chart's order.
    pub better: Option<Better>,
    /// The value a null metric counts as (e.g. 0 moves for an unreachable goal).
    pub missing: Option<f64>,
    /// A runtime distribution's targets.
    pub runtime: Option<RuntimeSpec>,
    /// The ranking chart's pairing columns (empty: independent samples), as a compare
    /// block of the same groups takes them.
    pub paired: Vec<String>,
    /// What the columns mean (axis and legend titles), from the declarations.
    pub words: Words,
}

impl FigureSpec {
    /// A spec of `kind` for `metric` with nothing else set.
    pub fn new(kind: FigureKind, metric: &str) -> FigureSpec {
        FigureSpec {
            kind,
            x: None,
            metric: metric.to_string(),
            group: Vec::new(),
            facet: None,
            width: None,
            height: None,
            font_size: None,
            title: String::new(),
            x_label: None,
            y_label: None,
            log_x: false,
            log_y: false,
            better: None,
            missing: None,
            runtime: None,
            paired: Vec::new(),
            words: Words::default(),
        }
    }

    /// The grouping columns in words, joined: a legend's heading, an axis title.
    fn group_words(&self) -> Option<String> {
        let words: Vec<String> = self.group.iter().map(|g| self.words.of(g)).collect();
        (!words.is_empty()).then(|| words.join(", "))
    }

    /// The printed size of the figure drawn with `panels` panels: the study's width,
    /// height and font size, else the defaults ([`Print::default`]), small multiples
    /// 6.5 cm higher for each row of panels past the first.
    pub fn print(&self, panels: usize) -> Print {
        let d = Print::default();
        let rows = crate::present::plot::grid(panels.max(1)).0;
        let rows = if self.facet.is_some() { rows } else { 1 };
        Print {
            width_cm: self.width.unwrap_or(d.width_cm),
            height_cm: self
                .height
                .unwrap_or(d.height_cm + 6.5 * (rows as f64 - 1.0)),
            font_pt: self.font_size.unwrap_or(d.font_pt),
        }
    }

    /// The columns the figure reads, for checking before anything runs. Anytime figures
    /// read `iteration` and `best_so_far` besides their grouping.
    pub fn columns(&self) -> Vec<&str> {
        let mut cols: Vec<&str> = Vec::new();
        if !self.kind.uses_anytime() {
            cols.push(&self.metric);
        }
        cols.extend(self.x.as_deref());
        cols.extend(self.group.iter().map(String::as_str));
        cols.extend(self.facet.as_deref());
        if let Some(r) = &self.runtime {
            cols.extend(r.per.as_deref());
            cols.extend(r.problem.as_deref());
        }
        cols
    }

    /// A title for a figure given none, from what it shows: its kind, metric, x and
    /// grouping, and the filter that selected its rows (`filter`, as words; empty for
    /// none).
    pub fn derived_title(&self, filter: &str) -> String {
        let w = &self.words;
        let m = self.y_label.clone().unwrap_or_else(|| w.of(&self.metric));
        let x = self
            .x
            .as_deref()
            .map_or_else(|| "group".to_string(), |x| w.of(x));
        let by = |prefix: &str| match self.group.is_empty() {
            true => String::new(),
            false => {
                let g: Vec<String> = self.group.iter().map(|g| w.of(g)).collect();
                format!("{prefix}{}", g.join(", "))
            }
        };
        let mut title = match self.kind {
            FigureKind::Line => format!("Median {m} against {x}{}", by(", by ")),
            FigureKind::Box => {
                let x = match &self.x {
                    Some(c) => w.of(c),
                    None => self.group_words().unwrap_or(x),
                };
                format!("Distribution of {m} by {x}")
            }
            FigureKind::Heatmap => format!("Median {m} over {x}{}", by(" × ")),
            FigureKind::Histogram => format!("Distribution of {m}{}", by(", by ")),
            FigureKind::Anytime => {
                let shown = w.objective.map_or("best so far", |o| o.label);
                format!("Median {shown} against {}{}", w.budget(), by(", by "))
            }
            FigureKind::Interval => {
                let of: Vec<String> = self.group.iter().chain(&self.x).map(|c| w.of(c)).collect();
                format!("Ranking of {} by median {m}", of.join(", "))
            }
            FigureKind::Ecdf => {
                let words = self.runtime.as_ref().map_or("", |r| r.words.as_str());
                format!("Runtime distribution: {words}")
            }
        };
        if let Some(f) = &self.facet {
            title.push_str(&format!(", per {}", w.of(f)));
        }
        if !filter.is_empty() {
            title.push_str(&format!(" ({filter})"));
        }
        title
    }

    /// What the kind needs besides a metric, as an error message.
    pub fn check(&self) -> Result<(), String> {
        match self.kind {
            FigureKind::Line | FigureKind::Heatmap if self.x.is_none() => {
                Err(format!("a {:?} figure needs x", self.kind).to_lowercase())
            }
            FigureKind::Heatmap if self.group.is_empty() => {
                Err("a heatmap needs group (its rows)".into())
            }
            FigureKind::Box | FigureKind::Interval if self.x.is_none() && self.group.is_empty() => {
                Err("this figure needs x or group (its categories)".into())
            }
            FigureKind::Heatmap if self.facet.is_some() => Err(
                "facet does not apply to a heatmap (its rows and columns already show two columns): draw one heatmap per value with where".into(),
            ),
            _ if self.facet.as_ref().is_some_and(|f| self.group.contains(f)) => Err(format!(
                "facet = {:?} is also a group column: a panel per value shows one group each",
                self.facet.as_deref().unwrap_or_default()
            )),
            FigureKind::Ecdf if self.runtime.is_none() => {
                Err("a runtime distribution needs targets".into())
            }
            FigureKind::Interval if self.better.is_none() => Err(format!(
                "{} declares no direction: say better = \"higher\" or \"lower\"",
                self.metric
            )),
            _ => Ok(()),
        }
    }
}

/// `column = value, column = a or b`: a filter in words, for titles (empty for none).
pub fn filter_words(filter: &Filter) -> String {
    let parts: Vec<String> = filter
        .0
        .iter()
        .map(|(c, v)| format!("{c} = {}", v.join(" or ")))
        .collect();
    parts.join(", ")
}

/// A picture a domain draws: its caption and the figure.
pub type Picture = (String, AnyFigure);

#[derive(Clone, Copy)]
/// A domain's pictures (boards, mazes) drawn from a block's rows: (caption, figure).
pub struct BoardFunction {
    pub name: &'static str,
    pub draw: fn(&crate::present::facts::FactInput) -> anyhow::Result<Vec<Picture>>,
}

/// Every figure a report can hold.
pub enum AnyFigure {
    Line(LinePlot),
    Box(BoxPlot),
    Heatmap(Heatmap),
    Histogram(Histogram),
    Interval(IntervalPlot),
    Board(BoardPicture),
    /// Small multiples: panels of one kind with one legend.
    Facets(Facets<AnyFigure>),
}

impl AnyFigure {
    /// How many panels the figure has (one unless small multiples).
    pub fn panels(&self) -> usize {
        match self {
            AnyFigure::Facets(f) => f.panels.len(),
            _ => 1,
        }
    }
}

impl Figure for AnyFigure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        match self {
            AnyFigure::Line(f) => f.draw(root),
            AnyFigure::Box(f) => f.draw(root),
            AnyFigure::Heatmap(f) => f.draw(root),
            AnyFigure::Histogram(f) => f.draw(root),
            AnyFigure::Interval(f) => f.draw(root),
            AnyFigure::Board(f) => f.draw(root),
            AnyFigure::Facets(f) => f.draw(root),
        }
    }

    fn size(&self) -> (u32, u32) {
        match self {
            AnyFigure::Line(f) => f.size(),
            AnyFigure::Box(f) => f.size(),
            AnyFigure::Heatmap(f) => f.size(),
            AnyFigure::Histogram(f) => f.size(),
            AnyFigure::Interval(f) => f.size(),
            AnyFigure::Board(f) => f.size(),
            AnyFigure::Facets(f) => f.size(),
        }
    }
}

/// Replaces nulls of `metric` by `missing`.
fn fill_missing(df: &DataFrame, metric: &str, missing: Option<f64>) -> anyhow::Result<DataFrame> {
    let Some(value) = missing else {
        return Ok(df.clone());
    };
    let filled: Vec<f64> = crate::pipeline::table::floats(df, metric)?
        .into_iter()
        .map(|v| v.unwrap_or(value))
        .collect();
    let mut out = df.clone();
    out.with_column(Column::new(metric.into(), filled))?;
    Ok(out)
}

/// Computes the figure from `rows` (the results table, or the anytime table for
/// anytime figures), already filtered: one figure, whatever `facet` says (small
/// multiples are [`crate::present::facets::build`]'s).
pub fn build(spec: &FigureSpec, rows: &DataFrame) -> anyhow::Result<AnyFigure> {
    let df = match (spec.kind, spec.words.objective) {
        (FigureKind::Anytime, Some(o)) => shown_objective(rows, o.shown)?,
        _ if spec.kind.uses_anytime() => rows.clone(),
        _ => fill_missing(rows, &spec.metric, spec.missing)?,
    };
    let need = |v: &Option<String>, what: &str| {
        v.clone()
            .ok_or_else(|| anyhow::anyhow!("this figure needs {what}"))
    };
    let title = spec.title.as_str();
    let mut fig = match spec.kind {
        FigureKind::Line => AnyFigure::Line(charts::line(
            &df,
            &need(&spec.x, "x")?,
            &spec.metric,
            &spec.group,
            title,
            spec.log_x,
            spec.log_y,
        )?),
        FigureKind::Box => {
            let by = match &spec.x {
                Some(x) => vec![x.clone()],
                None => spec.group.clone(),
            };
            anyhow::ensure!(!by.is_empty(), "this figure needs x or group");
            AnyFigure::Box(charts::boxes(&df, &by, &spec.metric, title)?)
        }
        FigureKind::Heatmap => {
            anyhow::ensure!(!spec.group.is_empty(), "this figure needs group");
            AnyFigure::Heatmap(charts::heatmap(
                &df,
                &need(&spec.x, "x")?,
                &spec.group,
                &spec.metric,
                title,
            )?)
        }
        FigureKind::Histogram => {
            AnyFigure::Histogram(charts::histogram(&df, &spec.metric, &spec.group, title)?)
        }
        FigureKind::Anytime => {
            AnyFigure::Line(charts::anytime(&df, &spec.group, title, &spec.metric)?)
        }
        FigureKind::Interval => AnyFigure::Interval(ranking(spec, &df, title)?),
        FigureKind::Ecdf => AnyFigure::Line(runtime_distribution(spec, &df, title)?),
    };
    relabel(&mut fig, spec);
    if let AnyFigure::Line(f) = &mut fig {
        f.steps = spec.kind == FigureKind::Line && changes_in_steps(spec, &df)?;
    }
    Ok(fig)
}

/// The anytime table with `best_so_far` read as the quantity the domain shows.
fn shown_objective(df: &DataFrame, shown: fn(f64) -> f64) -> anyhow::Result<DataFrame> {
    let values: Vec<Option<f64>> = crate::pipeline::table::floats(df, "best_so_far")?
        .into_iter()
        .map(|v| v.map(shown))
        .collect();
    let mut out = df.clone();
    out.with_column(Column::new("best_so_far".into(), values))?;
    Ok(out)
}

/// True when the metric changes in steps along x: x is a run's budget and the metric
/// takes whole values (pegs left against expansions), so a value holds until the next
/// budget rather than sloping towards it.
fn changes_in_steps(spec: &FigureSpec, df: &DataFrame) -> anyhow::Result<bool> {
    let Some(x) = &spec.x else {
        return Ok(false);
    };
    if !spec.words.budgets.contains(x) {
        return Ok(false);
    }
    let values = crate::pipeline::table::floats(df, &spec.metric)?;
    Ok(values.iter().flatten().all(|v| v.fract() == 0.0))
}

/// The runtime distribution of the spec's targets, a line per group.
fn runtime_distribution(
    spec: &FigureSpec,
    df: &DataFrame,
    title: &str,
) -> anyhow::Result<LinePlot> {
    let r = spec
        .runtime
        .as_ref()
        .ok_or_else(|| anyhow::anyhow!("a runtime distribution needs targets"))?;
    let better = spec.better.unwrap_or(Better::Lower);
    let all =
        crate::present::anytime::hits(df, &spec.group, r.targets()?, better, r.per.as_deref())?;
    let budget = spec.words.budget();
    let budget = match &r.per {
        Some(p) => format!("{budget} per {}", p.trim_end_matches('s')),
        None => budget.to_string(),
    };
    let x_label = format!("{budget} ({})", r.words);
    let mut plot = crate::present::runtime::ecdf_plot(&all, &spec.group, title, &x_label);
    let by: Vec<String> = spec.group.iter().map(|g| spec.words.of(g)).collect();
    plot.legend_title = Some(by.join(", "));
    Ok(plot)
}

/// The ranking chart: groups best first by median, those the compare block's test of
/// the same groups (Mann–Whitney, or Wilcoxon on pairs; Holm corrected, 5%) cannot call
/// worse than the best marked. With fewer than two groups of two runs there is no test,
/// and only the best is marked.
fn ranking(spec: &FigureSpec, df: &DataFrame, title: &str) -> anyhow::Result<IntervalPlot> {
    let by: Vec<String> = spec.group.iter().chain(&spec.x).cloned().collect();
    let better = spec.better.unwrap_or(Better::Lower);
    let pairing = match spec.paired.is_empty() {
        true => Pairing::None,
        false => Pairing::By(spec.paired.clone()),
    };
    let mut groups = summarize(df, &by, &spec.metric, spec.missing)?;
    groups.sort_by(|a, b| {
        let o = a
            .summary
            .median
            .total_cmp(&b.summary.median)
            .then(a.summary.mean.total_cmp(&b.summary.mean));
        if better == Better::Higher {
            o.reverse()
        } else {
            o
        }
    });
    let row = |g: &crate::present::view::GroupSample, with_best: bool| {
        let s = &g.summary;
        IntervalRow {
            label: g.group.label(),
            median: s.median,
            q1: s.q1,
            q3: s.q3,
            ci_low: s.ci_low,
            ci_high: s.ci_high,
            with_best,
        }
    };
    let testable = groups.len() >= 2 && groups.iter().all(|g| g.sample.len() >= 2);
    let rows = if testable {
        rank(groups, &spec.metric, better, &pairing, spec.missing)?
            .iter()
            .map(|r| row(&r.entry, !r.worse()))
            .collect()
    } else {
        groups
            .iter()
            .enumerate()
            .map(|(i, g)| row(g, i == 0))
            .collect()
    };
    Ok(IntervalPlot {
        title: title.to_string(),
        x_label: format!(
            "{} (median, IQR, 95% bootstrap interval of the median)",
            spec.words.of(&spec.metric)
        ),
        rows,
        test: format!("vs best: {}, Holm 5%", pairing.test_name()),
        ..IntervalPlot::default()
    })
}

/// Axis and legend titles: the spec's own, else the declared words of the columns
/// shown (the anytime figure's from the domain's reading of its table).
fn relabel(fig: &mut AnyFigure, spec: &FigureSpec) {
    let w = &spec.words;
    let x = spec.x_label.clone().or_else(|| match &spec.x {
        Some(c) => Some(w.of(c)),
        None => spec.group_words(),
    });
    let y = spec.y_label.clone().unwrap_or_else(|| w.of(&spec.metric));
    let legend = spec.group_words();
    match fig {
        AnyFigure::Line(f) if spec.kind == FigureKind::Anytime => {
            f.x_label = spec
                .x_label
                .clone()
                .unwrap_or_else(|| w.budget().to_string());
            // The values drawn are the domain's reading of the objective: its words
            // name them, whatever a label written for the raw objective said.
            f.y_label = match (w.objective, &spec.y_label) {
                (Some(o), _) => o.header(),
                (None, Some(y)) => y.clone(),
                (None, None) => "best objective so far".into(),
            };
            f.legend_title = legend;
        }
        AnyFigure::Line(f) if spec.kind == FigureKind::Ecdf => {
            f.x_label = spec
                .x_label
                .clone()
                .unwrap_or(std::mem::take(&mut f.x_label));
            f.y_label = spec
                .y_label
                .clone()
                .unwrap_or(std::mem::take(&mut f.y_label));
        }
        AnyFigure::Line(f) => {
            f.x_label = x.unwrap_or(std::mem::take(&mut f.x_label));
            f.y_label = y;
            f.legend_title = legend;
        }
        AnyFigure::Box(f) => {
            f.x_label = x.unwrap_or(std::mem::take(&mut f.x_label));
            f.y_label = y;
        }
        AnyFigure::Heatmap(f) => {
            f.x_label = x.unwrap_or(std::mem::take(&mut f.x_label));
            f.y_label = spec.group_words().unwrap_or(std::mem::take(&mut f.y_label));
            f.value_label = format!("median {}", w.of(&spec.metric));
        }
        AnyFigure::Histogram(f) => {
            f.x_label = spec.x_label.clone().unwrap_or(y);
            f.legend_title = legend;
        }
        AnyFigure::Interval(f) => {
            if let Some(x) = spec.x_label.clone().or(spec.y_label.clone()) {
                f.x_label = format!("{x} (median, IQR, 95% bootstrap interval of the median)");
            }
        }
        AnyFigure::Board(_) | AnyFigure::Facets(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(kind: FigureKind) -> FigureSpec {
        FigureSpec {
            kind,
            x: Some("size".into()),
            group: vec!["variant".into()],
            better: Some(Better::Lower),
            ..FigureSpec::new(kind, "moves")
        }
    }

    #[test]
    fn untitled_figures_say_what_they_show_and_what_was_filtered() {
        assert_eq!(
            spec(FigureKind::Line).derived_title(""),
            "Median moves against size, by variant"
        );
        assert_eq!(
            spec(FigureKind::Interval).derived_title("size = 7"),
            "Ranking of variant, size by median moves (size = 7)"
        );
        assert_eq!(
            spec(FigureKind::Heatmap).derived_title("budget = 10 or 100"),
            "Median moves over size × variant (budget = 10 or 100)"
        );
        let mut b = spec(FigureKind::Box);
        b.y_label = Some("path length (moves)".into());
        assert_eq!(
            b.derived_title(""),
            "Distribution of path length (moves) by size"
        );
    }
}
