//! A figure block's figure as the report draws it: one figure, or small multiples of
//! the spec, one panel per value of its `facet` column (in display order, titled
//! `size = 7`), each the spec's figure of that value's rows, on shared axes (line and
//! anytime ranges, ECDF budgets, histogram bins and counts, box and ranking scales),
//! with the axis titles and one legend (or one ranking key) for the grid; and the
//! series' styles from the report's book, a name looking the same in every panel.

use crate::present::charts::ordered_groups;
use crate::present::figure::{AnyFigure, FigureSpec, build as build_one};
use crate::present::plot::{Facets, SeriesStyle, StyleBook};
use crate::present::words::entry;
use polars::prelude::DataFrame;

/// The figure of `spec` from `rows` (already filtered): with `facet`, one panel per
/// value of the column on shared axes; else one figure.
pub fn build(spec: &FigureSpec, rows: &DataFrame) -> anyhow::Result<AnyFigure> {
    match &spec.facet {
        Some(column) => small_multiples(spec, column, rows),
        None => build_one(spec, rows),
    }
}

/// The small multiples of `spec` over the values of `column` of `rows`.
fn small_multiples(spec: &FigureSpec, column: &str, rows: &DataFrame) -> anyhow::Result<AnyFigure> {
    let parts = ordered_groups(rows, &[column.to_string()])?;
    let panel_spec = FigureSpec {
        facet: None,
        ..spec.clone()
    };
    let heading = spec.words.of(column);
    let mut panels = Vec::new();
    let mut panel_titles = Vec::new();
    for (values, part) in &parts {
        let value = values.first().map_or("", String::as_str);
        let mut panel = build_one(&panel_spec, part)?;
        set_title(&mut panel, String::new());
        panel_titles.push(entry(&heading, value));
        panels.push(panel);
    }
    let whole = build_one(&panel_spec, rows)?;
    share_axes(&mut panels, &whole);
    let (x_label, y_label) = take_labels(&mut panels);
    let mut fig = AnyFigure::Facets(Facets {
        title: spec.title.clone(),
        panels,
        panel_titles,
        x_label,
        y_label,
        legend: Vec::new(),
        legend_title: None,
    });
    // The same style for a name in every panel, the first styles in order until the
    // report's book gives its own.
    style_series(&mut fig, &|names| StyleBook::default().styles_for(names));
    Ok(fig)
}

/// Gives each series of a figure its style from the report's book, so a group's value
/// looks the same in every figure (and in every panel of small multiples).
pub fn apply_styles(fig: &mut AnyFigure, book: &StyleBook) {
    style_series(fig, &|names| book.styles_for(names));
}

/// The names of a figure's series, in order (of every panel, each once).
pub fn series_names(fig: &AnyFigure) -> Vec<String> {
    match fig {
        AnyFigure::Line(f) => f.series.iter().map(|s| s.name.clone()).collect(),
        AnyFigure::Histogram(f) => f.series.iter().map(|s| s.0.clone()).collect(),
        AnyFigure::Facets(f) => {
            let mut out: Vec<String> = Vec::new();
            for n in f.panels.iter().flat_map(series_names) {
                if !out.contains(&n) {
                    out.push(n);
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// Gives the series of a figure the styles `styles_of` gives their names, all panels'
/// names at once so a name looks the same in each; a shared legend follows.
pub fn style_series(fig: &mut AnyFigure, styles_of: &dyn Fn(&[&str]) -> Vec<SeriesStyle>) {
    let names = series_names(fig);
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let styles = styles_of(&refs);
    let of = |name: &str| {
        names
            .iter()
            .position(|n| n == name)
            .map_or(crate::present::plot::series_style(0), |i| styles[i])
    };
    set_styles(fig, &of);
    if let AnyFigure::Facets(f) = fig {
        share_legend(f);
    }
}

/// Sets each series' style by its name.
fn set_styles(fig: &mut AnyFigure, of: &dyn Fn(&str) -> SeriesStyle) {
    match fig {
        AnyFigure::Line(f) => f.styles = f.series.iter().map(|s| of(&s.name)).collect(),
        AnyFigure::Histogram(f) => f.styles = f.series.iter().map(|s| of(&s.0)).collect(),
        AnyFigure::Facets(f) => f.panels.iter_mut().for_each(|p| set_styles(p, of)),
        _ => {}
    }
}

/// A panel's title.
fn set_title(fig: &mut AnyFigure, title: String) {
    match fig {
        AnyFigure::Line(f) => f.title = title,
        AnyFigure::Box(f) => f.title = title,
        AnyFigure::Heatmap(f) => f.title = title,
        AnyFigure::Histogram(f) => f.title = title,
        AnyFigure::Interval(f) => f.title = title,
        AnyFigure::Board(_) | AnyFigure::Facets(_) => {}
    }
}

/// Gives every panel the ranges of the figure of all rows (`whole`) widened to every
/// panel's, so the panels compare at a glance.
fn share_axes(panels: &mut [AnyFigure], whole: &AnyFigure) {
    let union = |a: (f64, f64), b: (f64, f64)| (a.0.min(b.0), a.1.max(b.1));
    match whole {
        AnyFigure::Line(w) => {
            let lines = || panels.iter().filter_map(as_line);
            let xs = lines().map(|p| p.x_span()).fold(w.x_span(), union);
            let ys = lines().map(|p| p.y_span()).fold(w.y_span(), union);
            for p in panels.iter_mut() {
                if let AnyFigure::Line(f) = p {
                    f.x_range = f.categories.is_none().then_some(xs);
                    f.y_range = Some(ys);
                }
            }
        }
        AnyFigure::Histogram(w) => {
            let values = w.series.iter().flat_map(|s| s.1.iter().copied());
            let (lo, hi) = values
                .filter(|v| v.is_finite())
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                    (a.min(v), b.max(v))
                });
            for p in panels.iter_mut() {
                if let AnyFigure::Histogram(f) = p {
                    f.bin_width = w.bin_width;
                    f.integers = w.integers;
                    f.value_range = lo.is_finite().then_some((lo, hi));
                }
            }
            let top = panels
                .iter()
                .filter_map(|p| match p {
                    AnyFigure::Histogram(f) => Some(f.tallest()),
                    _ => None,
                })
                .max();
            for p in panels.iter_mut() {
                if let AnyFigure::Histogram(f) = p {
                    f.count_max = top;
                    f.hide_legend = true;
                }
            }
        }
        AnyFigure::Box(w) => {
            let ys = panels
                .iter()
                .filter_map(|p| match p {
                    AnyFigure::Box(f) => Some(f.y_span()),
                    _ => None,
                })
                .fold(w.y_span(), union);
            for p in panels.iter_mut() {
                if let AnyFigure::Box(f) = p {
                    f.y_range = Some(ys);
                }
            }
        }
        AnyFigure::Interval(_) => {
            let xs = panels
                .iter()
                .filter_map(|p| match p {
                    AnyFigure::Interval(f) => Some(f.x_range()),
                    _ => None,
                })
                .reduce(union);
            for p in panels.iter_mut() {
                if let AnyFigure::Interval(f) = p {
                    f.x_limits = xs;
                    f.hide_key = true;
                }
            }
        }
        _ => {}
    }
}

fn as_line(f: &AnyFigure) -> Option<&crate::present::plot::LinePlot> {
    match f {
        AnyFigure::Line(l) => Some(l),
        _ => None,
    }
}

/// The panels' axis titles, taken from them for the grid to show once: (x, y). A
/// histogram's count axis and a ranking's groups keep their own words.
fn take_labels(panels: &mut [AnyFigure]) -> (String, String) {
    let (mut x, mut y) = (String::new(), String::new());
    for p in panels.iter_mut() {
        let (px, py): (&mut String, Option<&mut String>) = match p {
            AnyFigure::Line(f) => {
                f.hide_legend = true;
                (&mut f.x_label, Some(&mut f.y_label))
            }
            AnyFigure::Box(f) => (&mut f.x_label, Some(&mut f.y_label)),
            AnyFigure::Histogram(f) => (&mut f.x_label, None),
            AnyFigure::Interval(f) => (&mut f.x_label, None),
            _ => continue,
        };
        x = std::mem::take(px);
        if let Some(py) = py {
            y = std::mem::take(py);
        }
    }
    (x, y)
}

/// The grid's one legend, from its panels' series (each name once, in order), or the
/// ranking key of its first panel.
pub fn share_legend(f: &mut Facets<AnyFigure>) {
    let mut legend: Vec<(String, _, _)> = Vec::new();
    let mut title = None;
    for p in &f.panels {
        let (entries, heading) = match p {
            AnyFigure::Line(l) => (l.legend_entries(), l.legend_title.clone()),
            AnyFigure::Histogram(h) => (h.legend_entries(), h.legend_title.clone()),
            AnyFigure::Interval(i) if legend.is_empty() => (i.key(), Some(i.test.clone())),
            _ => (Vec::new(), None),
        };
        title = title.or(heading);
        for e in entries {
            if !legend.iter().any(|l| l.0 == e.0) {
                legend.push(e);
            }
        }
    }
    f.legend_title = title.filter(|_| !legend.is_empty());
    f.legend = legend;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::params::Value;
    use crate::pipeline::table::{ColumnBuilder, frame};
    use crate::present::figure::{FigureKind, RuntimeSpec};
    use crate::present::plot::grid;

    /// Anytime rows of two methods on mazes of sizes 6, 7 and 8: a run of `fast`
    /// reaches −size at 10 evaluations, of `slow` at 100 × size.
    fn anytime() -> DataFrame {
        let names = [
            "run_key",
            "size",
            "variant",
            "schedule",
            "iteration",
            "best_so_far",
        ];
        let mut cols: Vec<ColumnBuilder> = names.iter().map(|c| ColumnBuilder::new(c)).collect();
        for size in [6i64, 7, 8] {
            for (variant, at) in [("fast", 10), ("slow", 100 * size)] {
                for schedule in ["geometric", "linear"] {
                    for r in 0..3 {
                        for it in [1i64, 10, 100, 100 * size, 1000] {
                            let best = if it >= at { -size } else { 0 };
                            let row = [
                                Value::from(format!("{size}{variant}{schedule}{r}")),
                                Value::Int(size),
                                Value::from(variant),
                                Value::from(schedule),
                                Value::Int(it),
                                Value::Float(best as f64),
                            ];
                            for (c, v) in cols.iter_mut().zip(row) {
                                c.push(v);
                            }
                        }
                    }
                }
            }
        }
        frame(cols).unwrap()
    }

    fn ecdf_spec() -> FigureSpec {
        FigureSpec {
            group: vec!["variant".into(), "schedule".into()],
            facet: Some("size".into()),
            title: "Runtime distribution".into(),
            runtime: Some(RuntimeSpec {
                targets: Vec::new(),
                fractions: vec![1.0],
                problem: Some("size".into()),
                reference: Some(|s| s.parse::<f64>().ok().map(|v| -v)),
                per: None,
                words: "targets 100% of −size".into(),
            }),
            ..FigureSpec::new(FigureKind::Ecdf, "best_so_far")
        }
    }

    #[test]
    fn a_facetted_ecdf_shows_sizes_6_7_8_side_by_side_on_shared_axes() {
        let AnyFigure::Facets(f) = build(&ecdf_spec(), &anytime()).unwrap() else {
            panic!("small multiples")
        };
        assert_eq!(grid(f.panels.len()), (1, 3), "one row of three");
        assert_eq!(f.panel_titles, vec!["size = 6", "size = 7", "size = 8"]);
        assert_eq!(f.y_label, "fraction of (run, target) pairs reached");
        let mut ranges = Vec::new();
        for (p, size) in f.panels.iter().zip([6.0, 7.0, 8.0]) {
            let AnyFigure::Line(l) = p else {
                panic!("an ECDF panel")
            };
            assert!(l.title.is_empty(), "the grid titles its panels");
            ranges.push((l.x_range, l.y_range));
            assert!(l.hide_legend, "one legend for the grid");
            // Each panel is its size's distribution: slow reaches its target at
            // 100 × size evaluations, all of its pairs there.
            let slow = l.series.iter().find(|s| s.name.contains("slow")).unwrap();
            let first = slow.points.iter().find(|p| p.1 > 0.0).unwrap();
            assert_eq!(first.0, 100.0 * size, "{}", l.title);
            assert_eq!(first.1, 1.0);
        }
        assert!(ranges.windows(2).all(|w| w[0] == w[1]), "{ranges:?}");
        let names: Vec<&str> = f.legend.iter().map(|e| e.0.as_str()).collect();
        assert_eq!(
            names,
            vec![
                "variant = fast, schedule = geometric",
                "variant = fast, schedule = linear",
                "variant = slow, schedule = geometric",
                "variant = slow, schedule = linear",
            ]
        );
        assert_eq!(f.legend_title.as_deref(), Some("variant, schedule"));
        for (i, a) in f.legend.iter().enumerate() {
            for b in &f.legend[..i] {
                assert!(!a.1.looks_like(&b.1), "{} and {} look alike", a.0, b.0);
            }
        }
    }

    /// Result rows: size, method and a metric of 10 × size plus the method's offset.
    fn results() -> DataFrame {
        let names = ["size", "variant", "schedule", "moves"];
        let mut cols: Vec<ColumnBuilder> = names.iter().map(|c| ColumnBuilder::new(c)).collect();
        for size in [6i64, 7, 8, 9] {
            for (variant, off) in [("a", 0), ("b", 3)] {
                for schedule in ["g", "l"] {
                    for r in 0..4 {
                        let row = [
                            Value::Int(size),
                            Value::from(variant),
                            Value::from(schedule),
                            Value::Float((10 * size + off + r) as f64),
                        ];
                        for (c, v) in cols.iter_mut().zip(row) {
                            c.push(v);
                        }
                    }
                }
            }
        }
        frame(cols).unwrap()
    }

    #[test]
    fn every_kind_that_takes_a_facet_draws_a_panel_per_value_with_shared_scales() {
        let df = results();
        for kind in [
            FigureKind::Line,
            FigureKind::Box,
            FigureKind::Histogram,
            FigureKind::Interval,
        ] {
            let spec = FigureSpec {
                x: (kind == FigureKind::Line).then(|| "schedule".into()),
                group: vec!["variant".into(), "schedule".into()],
                facet: Some("size".into()),
                better: Some(crate::pipeline::metrics::Better::Lower),
                ..FigureSpec::new(kind, "moves")
            };
            spec.check().unwrap();
            let AnyFigure::Facets(f) = build(&spec, &df).unwrap() else {
                panic!("{kind:?}: small multiples")
            };
            assert_eq!(f.panels.len(), 4, "{kind:?}");
            assert_eq!(grid(4), (2, 2));
            let shared: Vec<String> = f
                .panels
                .iter()
                .map(|p| match p {
                    AnyFigure::Line(l) => format!("{:?}", l.y_range),
                    AnyFigure::Box(b) => format!("{:?}", b.y_range),
                    AnyFigure::Histogram(h) => {
                        format!("{:?} {:?} {}", h.value_range, h.count_max, h.bin_width)
                    }
                    AnyFigure::Interval(i) => format!("{:?}", i.x_limits),
                    _ => panic!("{kind:?}: a panel of its kind"),
                })
                .collect();
            assert!(
                shared
                    .iter()
                    .all(|s| *s == shared[0] && !s.contains("None")),
                "{kind:?}: {shared:?}"
            );
            // The axis titles are the grid's, once.
            assert!(!f.x_label.is_empty(), "{kind:?}");
            match &f.panels[1] {
                AnyFigure::Line(l) => assert!(l.x_label.is_empty() && l.y_label.is_empty()),
                AnyFigure::Box(b) => assert!(b.x_label.is_empty() && b.y_label.is_empty()),
                _ => {}
            }
            let dir = tempfile::tempdir().unwrap();
            let stem = dir.path().join("facets");
            crate::present::plot::save(&AnyFigure::Facets(f), &stem).unwrap();
            let svg = std::fs::read_to_string(stem.with_extension("svg")).unwrap();
            assert!(svg.contains("size = 9"), "{kind:?}: the panels are titled");
        }
        let heat = FigureSpec {
            x: Some("schedule".into()),
            group: vec!["variant".into()],
            facet: Some("size".into()),
            ..FigureSpec::new(FigureKind::Heatmap, "moves")
        };
        assert!(
            heat.check()
                .unwrap_err()
                .contains("facet does not apply to a heatmap")
        );
        let twice = FigureSpec {
            facet: Some("variant".into()),
            ..heat.clone()
        };
        assert!(twice.check().is_err());
    }

    #[test]
    fn several_group_columns_name_each_series_by_all_of_them() {
        let spec = FigureSpec {
            x: Some("size".into()),
            group: vec!["variant".into(), "schedule".into()],
            ..FigureSpec::new(FigureKind::Line, "moves")
        };
        spec.check().unwrap();
        let AnyFigure::Line(l) = build(&spec, &results()).unwrap() else {
            panic!("a line figure")
        };
        let names: Vec<&str> = l.series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            vec![
                "variant = a, schedule = g",
                "variant = a, schedule = l",
                "variant = b, schedule = g",
                "variant = b, schedule = l",
            ]
        );
        assert_eq!(l.legend_title.as_deref(), Some("variant, schedule"));
        let boxes = FigureSpec {
            x: None,
            ..FigureSpec::new(FigureKind::Box, "moves")
        };
        let boxes = FigureSpec {
            group: vec!["variant".into(), "schedule".into()],
            ..boxes
        };
        let AnyFigure::Box(b) = build(&boxes, &results()).unwrap() else {
            panic!("a box figure")
        };
        let labels: Vec<&str> = b.groups.iter().map(|g| g.0.as_str()).collect();
        assert_eq!(labels, vec!["a, g", "a, l", "b, g", "b, l"]);
        assert_eq!(b.x_label, "variant, schedule");
        assert_eq!(
            b.groups[3].1,
            vec![
                63.0, 64.0, 65.0, 66.0, 73.0, 74.0, 75.0, 76.0, 83.0, 84.0, 85.0, 86.0, 93.0, 94.0,
                95.0, 96.0
            ]
        );
    }
}
