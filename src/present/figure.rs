//! Figure specs to figures: one code path for a config's `[[plot]]` and a study's
//! figure blocks. A [`FigureSpec`] names the kind, the columns and the labels; [`build`]
//! computes the figure from (already filtered) rows; [`AnyFigure`] holds any figure a
//! study can show, the domains' board pictures included, so it can be saved by name.

use crate::pipeline::metrics::Better;
use crate::present::charts;
use crate::present::plot::{
    BoardPicture, BoxPlot, Figure, Heatmap, Histogram, IntervalPlot, LinePlot, PointChart,
};
use crate::present::view::summarize;
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
        self == FigureKind::Anytime
    }
}

/// What to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct FigureSpec {
    pub kind: FigureKind,
    pub x: Option<String>,
    pub metric: String,
    pub group: Option<String>,
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
}

impl FigureSpec {
    /// The columns the figure reads, for checking before anything runs. Anytime figures
    /// read `iteration` and `best_so_far` besides their grouping.
    pub fn columns(&self) -> Vec<&str> {
        let mut cols: Vec<&str> = Vec::new();
        if !self.kind.uses_anytime() {
            cols.push(&self.metric);
        }
        cols.extend(self.x.as_deref());
        cols.extend(self.group.as_deref());
        cols
    }

    /// What the kind needs besides a metric, as an error message.
    pub fn check(&self) -> Result<(), String> {
        match self.kind {
            FigureKind::Line | FigureKind::Heatmap if self.x.is_none() => {
                Err(format!("a {:?} figure needs x", self.kind).to_lowercase())
            }
            FigureKind::Heatmap if self.group.is_none() => {
                Err("a heatmap needs group (its rows)".into())
            }
            FigureKind::Box | FigureKind::Interval if self.x.is_none() && self.group.is_none() => {
                Err("this figure needs x or group (its categories)".into())
            }
            FigureKind::Interval if self.better.is_none() => Err(format!(
                "{} declares no direction: say better = \"higher\" or \"lower\"",
                self.metric
            )),
            _ => Ok(()),
        }
    }
}

/// Every figure a report can hold.
pub enum AnyFigure {
    Line(LinePlot),
    Box(BoxPlot),
    Heatmap(Heatmap),
    Histogram(Histogram),
    Interval(IntervalPlot),
    Board(BoardPicture),
    Points(PointChart),
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
            AnyFigure::Points(f) => f.draw(root),
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
            AnyFigure::Points(f) => f.size(),
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
/// anytime figures), already filtered.
pub fn build(spec: &FigureSpec, rows: &DataFrame) -> anyhow::Result<AnyFigure> {
    let df = if spec.kind.uses_anytime() {
        rows.clone()
    } else {
        fill_missing(rows, &spec.metric, spec.missing)?
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
            spec.group.as_deref(),
            title,
            spec.log_x,
            spec.log_y,
        )?),
        FigureKind::Box => {
            let x = spec.x.clone().or_else(|| spec.group.clone());
            AnyFigure::Box(charts::boxes(&df, &need(&x, "x")?, &spec.metric, title)?)
        }
        FigureKind::Heatmap => AnyFigure::Heatmap(charts::heatmap(
            &df,
            &need(&spec.x, "x")?,
            &need(&spec.group, "group")?,
            &spec.metric,
            title,
        )?),
        FigureKind::Histogram => AnyFigure::Histogram(charts::histogram(
            &df,
            &spec.metric,
            spec.group.as_deref(),
            title,
        )?),
        FigureKind::Anytime => AnyFigure::Line(charts::anytime(
            &df,
            spec.group.as_deref(),
            title,
            &spec.metric,
        )?),
        FigureKind::Interval => {
            let by: Vec<String> = spec.group.iter().chain(&spec.x).cloned().collect();
            let mut groups = summarize(&df, &by, &spec.metric, None)?;
            groups.sort_by(|a, b| {
                let o = a
                    .summary
                    .median
                    .total_cmp(&b.summary.median)
                    .then(a.summary.mean.total_cmp(&b.summary.mean));
                if spec.better == Some(Better::Higher) {
                    o.reverse()
                } else {
                    o
                }
            });
            AnyFigure::Interval(IntervalPlot {
                title: title.to_string(),
                x_label: spec.metric.clone(),
                rows: groups
                    .iter()
                    .map(|g| {
                        let s = &g.summary;
                        (g.group.label(), s.median, s.ci_low, s.ci_high)
                    })
                    .collect(),
            })
        }
    };
    relabel(&mut fig, spec);
    Ok(fig)
}

fn relabel(fig: &mut AnyFigure, spec: &FigureSpec) {
    let (x, y) = (spec.x_label.clone(), spec.y_label.clone());
    match fig {
        AnyFigure::Line(f) => {
            f.x_label = x.unwrap_or(std::mem::take(&mut f.x_label));
            f.y_label = y.unwrap_or(std::mem::take(&mut f.y_label));
        }
        AnyFigure::Box(f) => {
            f.x_label = x.unwrap_or(std::mem::take(&mut f.x_label));
            f.y_label = y.unwrap_or(std::mem::take(&mut f.y_label));
        }
        AnyFigure::Heatmap(f) => {
            f.x_label = x.unwrap_or(std::mem::take(&mut f.x_label));
            f.y_label = y.unwrap_or(std::mem::take(&mut f.y_label));
        }
        AnyFigure::Histogram(f) => {
            f.x_label = x.unwrap_or(std::mem::take(&mut f.x_label));
        }
        AnyFigure::Interval(f) => {
            f.x_label = x.unwrap_or(std::mem::take(&mut f.x_label));
        }
        AnyFigure::Board(_) | AnyFigure::Points(_) => {}
    }
}
