//! Result tables to figures: the grouping and medians behind each kind of plot, shared
//! by the per-experiment plots and the report.

use crate::pipeline::table::{floats, groups, texts};
use crate::present::plot::{Band, BoxPlot, Heatmap, Histogram, LinePlot};
use crate::stats::{Summary, median};
use polars::prelude::DataFrame;

/// Distinct values of a column in display order: numerically when every value is a
/// number ("none" and empty, meaning no limit, last), else by first appearance.
pub fn ordered_values(values: &[String]) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for v in values {
        if !seen.contains(v) {
            seen.push(v.clone());
        }
    }
    let key = |s: &str| {
        if s.is_empty() || s == "none" {
            Some(f64::INFINITY)
        } else {
            s.parse::<f64>().ok()
        }
    };
    if seen.iter().all(|s| key(s).is_some()) {
        seen.sort_by(|a, b| key(a).unwrap_or(0.0).total_cmp(&key(b).unwrap_or(0.0)));
    }
    seen
}

pub use crate::present::words::label;

/// The groups of the columns `by` in display order: by the first column's values in
/// [`ordered_values`] order, then the second's, and so on. No column: one group of
/// every row, with no values.
pub fn ordered_groups(
    df: &DataFrame,
    by: &[String],
) -> anyhow::Result<Vec<(Vec<String>, DataFrame)>> {
    if by.is_empty() {
        return Ok(vec![(Vec::new(), df.clone())]);
    }
    let cols: Vec<&str> = by.iter().map(String::as_str).collect();
    let mut parts = groups(df, &cols)?;
    let orders: Vec<Vec<String>> = cols
        .iter()
        .map(|c| Ok(ordered_values(&texts(df, c)?)))
        .collect::<anyhow::Result<_>>()?;
    parts.sort_by_key(|(values, _)| {
        values
            .iter()
            .zip(&orders)
            .map(|(v, o)| o.iter().position(|x| x == v))
            .collect::<Vec<_>>()
    });
    Ok(parts)
}

/// A group's values as a category on an axis: each value's label, joined by commas (the
/// axis title names the columns).
pub fn category(values: &[String]) -> String {
    let labels: Vec<String> = values.iter().map(|v| label(v)).collect();
    labels.join(", ")
}

/// The non-null values of `y` for each value of `x`, in display order.
pub fn samples_by(df: &DataFrame, x: &str, y: &str) -> anyhow::Result<Vec<(String, Vec<f64>)>> {
    let xs = texts(df, x)?;
    let ys = floats(df, y)?;
    Ok(ordered_values(&xs)
        .into_iter()
        .map(|v| {
            let sample: Vec<f64> = xs
                .iter()
                .zip(&ys)
                .filter(|(a, _)| **a == v)
                .filter_map(|(_, b)| *b)
                .collect();
            (v, sample)
        })
        .collect())
}

/// Numeric position of an x value on a line plot ("none" is put one step past the largest).
fn position(v: &str, all: &[String]) -> f64 {
    v.parse::<f64>().unwrap_or_else(|_| {
        let finite: Vec<f64> = all.iter().filter_map(|s| s.parse::<f64>().ok()).collect();
        let top = finite.iter().copied().fold(1.0, f64::max);
        top * 10.0
    })
}

/// True when x values are categories rather than quantities: some are not numbers
/// (heuristic names, levels), or, on a linear axis, they are integers not evenly spaced
/// (instance ids such as 1, 2, 14, 88), where a line would suggest values between them.
pub fn is_categorical(values: &[String], log_x: bool) -> bool {
    let numbers: Vec<f64> = values
        .iter()
        .filter(|v| !v.is_empty() && *v != "none")
        .filter_map(|v| v.parse::<f64>().ok())
        .collect();
    let named = values
        .iter()
        .filter(|v| !v.is_empty() && *v != "none")
        .count();
    if numbers.len() < named {
        return true;
    }
    if log_x || numbers.len() < 3 || numbers.iter().any(|v| v.fract() != 0.0) {
        return false;
    }
    let step = numbers[1] - numbers[0];
    numbers.windows(2).any(|w| w[1] - w[0] != step)
}

/// Median and interquartile band of `y` against `x`, a line per value of `group`
/// (named by the value; the legend's heading names the group). Categorical x values
/// ([`is_categorical`]) sit at their index on a category axis.
pub fn line(
    df: &DataFrame,
    x: &str,
    y: &str,
    group: &[String],
    title: &str,
    log_x: bool,
    log_y: bool,
) -> anyhow::Result<LinePlot> {
    let parts = ordered_groups(df, group)?;
    let all_x = ordered_values(&texts(df, x)?);
    let categorical = is_categorical(&all_x, log_x);
    let mut series = Vec::new();
    for (labels, part) in parts {
        let samples = samples_by(&part, x, y)?;
        let points = samples
            .iter()
            .filter_map(|(v, s)| {
                let at = if categorical {
                    all_x.iter().position(|o| o == v).unwrap_or(0) as f64
                } else {
                    position(v, &all_x)
                };
                Summary::of(s).map(|m| (at, m.median, m.q1, m.q3))
            })
            .collect();
        let name = crate::present::words::entries(group, &labels);
        series.push(Band { name, points });
    }
    Ok(LinePlot {
        title: title.to_string(),
        x_label: x.to_string(),
        y_label: y.to_string(),
        series,
        log_x: log_x && !categorical,
        log_y,
        categories: categorical.then(|| all_x.iter().map(|v| label(v)).collect()),
        legend_title: (!group.is_empty()).then(|| group.join(", ")),
        ..LinePlot::default()
    })
}

/// The non-null values of `y` for each group of the columns `by`, in display order,
/// named by [`category`].
pub fn samples_of_groups(
    df: &DataFrame,
    by: &[String],
    y: &str,
) -> anyhow::Result<Vec<(Vec<String>, Vec<f64>)>> {
    ordered_groups(df, by)?
        .into_iter()
        .map(|(values, part)| Ok((values, floats(&part, y)?.into_iter().flatten().collect())))
        .collect()
}

/// Box plots of `y` for each group of the columns `by` (one column: each value).
pub fn boxes(df: &DataFrame, by: &[String], y: &str, title: &str) -> anyhow::Result<BoxPlot> {
    let groups = samples_of_groups(df, by, y)?
        .into_iter()
        .map(|(v, s)| (category(&v), s))
        .collect();
    Ok(BoxPlot {
        title: title.to_string(),
        x_label: by.join(", "),
        y_label: y.to_string(),
        groups,
        y_range: None,
    })
}

/// Median of `value` on the grid `x` × `y`.
pub fn heatmap(
    df: &DataFrame,
    x: &str,
    y: &[String],
    value: &str,
    title: &str,
) -> anyhow::Result<Heatmap> {
    let xs = texts(df, x)?;
    // A row per group of the y columns: its values joined.
    let keyed: Vec<Vec<String>> = y
        .iter()
        .map(|c| texts(df, c))
        .collect::<anyhow::Result<_>>()?;
    let ys: Vec<String> = (0..df.height())
        .map(|i| category(&keyed.iter().map(|k| k[i].clone()).collect::<Vec<_>>()))
        .collect();
    let y_order: Vec<String> = ordered_groups(df, y)?
        .iter()
        .map(|(v, _)| category(v))
        .collect();
    let vs = floats(df, value)?;
    let x_ticks = ordered_values(&xs);
    let y_ticks = y_order;
    let values = y_ticks
        .iter()
        .map(|yv| {
            x_ticks
                .iter()
                .map(|xv| {
                    let s: Vec<f64> = (0..xs.len())
                        .filter(|&i| xs[i] == *xv && ys[i] == *yv)
                        .filter_map(|i| vs[i])
                        .collect();
                    median(&s)
                })
                .collect()
        })
        .collect();
    Ok(Heatmap {
        title: title.to_string(),
        x_label: x.to_string(),
        y_label: y.join(", "),
        x_ticks: x_ticks.iter().map(|v| label(v)).collect(),
        y_ticks,
        values,
        value_label: format!("median {value}"),
    })
}

/// Histogram of `y`, overlaid per value of `group`.
pub fn histogram(
    df: &DataFrame,
    y: &str,
    group: &[String],
    title: &str,
) -> anyhow::Result<Histogram> {
    let series: Vec<(String, Vec<f64>)> = samples_of_groups(df, group, y)?
        .into_iter()
        .map(|(v, s)| (crate::present::words::entries(group, &v), s))
        .collect();
    let integral = series
        .iter()
        .all(|(_, s): &(String, Vec<f64>)| s.iter().all(|v| v.fract() == 0.0));
    let (lo, hi) = series
        .iter()
        .flat_map(|s| s.1.iter())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let integers = integral && hi - lo <= 60.0;
    let width = if integers {
        1.0
    } else {
        ((hi - lo) / 30.0).max(1e-9)
    };
    Ok(Histogram {
        title: title.to_string(),
        x_label: y.to_string(),
        series,
        bin_width: width,
        integers,
        legend_title: (!group.is_empty()).then(|| group.join(", ")),
        ..Histogram::default()
    })
}

/// Median best-so-far against iterations from an anytime table, a line per `group`.
pub fn anytime(
    df: &DataFrame,
    group: &[String],
    title: &str,
    y_label: &str,
) -> anyhow::Result<LinePlot> {
    let mut plot = line(df, "iteration", "best_so_far", group, title, true, false)?;
    plot.y_label = y_label.to_string();
    Ok(plot)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_values_sort_with_none_last() {
        let v: Vec<String> = ["10", "2", "none", "2", "1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(ordered_values(&v), vec!["1", "2", "10", "none"]);
        let w: Vec<String> = ["b", "a", "b"].iter().map(|s| s.to_string()).collect();
        assert_eq!(ordered_values(&w), vec!["b", "a"]);
    }

    #[test]
    fn labels_read_as_numbers() {
        assert_eq!(label("1500000"), "1,500,000");
        assert_eq!(label("2026"), "2026");
        assert_eq!(label("none"), "∞");
        assert_eq!(label("0.99995"), "0.99995");
        assert_eq!(label("pdb:5-5-5"), "pdb:5-5-5");
    }

    #[test]
    fn instances_and_names_are_categories_evenly_spaced_sizes_are_not() {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(is_categorical(&v(&["1", "2", "3", "4", "14", "88"]), false));
        assert!(is_categorical(&v(&["manhattan", "pdb"]), false));
        assert!(!is_categorical(&v(&["5", "6", "7", "8"]), false));
        assert!(!is_categorical(&v(&["10", "100", "1000"]), true));
        assert!(!is_categorical(&v(&["1", "2", "none"]), false));
        assert!(!is_categorical(&v(&["0.1", "0.5", "2"]), false));
    }
}
