//! Every figure block of the studies in `experiments/`, drawn from generated rows with
//! the columns it reads (four groups per grouping column, three sizes per facet or
//! problem), as the report draws it (styles from one book for the whole report, the
//! studies' declared styles included, printed at its size): no two series of a figure
//! share a colour and a line, and every text of its SVG prints at 8 pt or more when the
//! figure is set at a 16 cm text width.

use searchlab::pipeline::params::Value;
use searchlab::pipeline::table::{ColumnBuilder, frame};
use searchlab::present::facets::{apply_styles, build};
use searchlab::present::figure::{AnyFigure, FigureSpec};
use searchlab::present::plot::{Print, SeriesStyle, StyleBook, save_printed};
use std::collections::BTreeMap;
use std::path::Path;

/// A block's filter: each column's values as text.
type Filter = BTreeMap<String, Vec<String>>;

fn filter_of(b: &searchlab::study::Block) -> Filter {
    let text = |v: &toml::Value| match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    b.read
        .filter
        .iter()
        .map(|(c, v)| {
            let values = match v {
                toml::Value::Array(a) => a.iter().map(text).collect(),
                one => vec![text(one)],
            };
            (c.clone(), values)
        })
        .collect()
}

/// The values a column takes in the generated rows: those the block's filter keeps,
/// else sizes for a facet or problem, numbers for x, names for groups.
fn values_of(column: &str, spec: &FigureSpec, filter: &Filter) -> Vec<String> {
    if let Some(v) = filter.get(column) {
        return v.clone();
    }
    let problem = spec.runtime.as_ref().and_then(|r| r.problem.as_deref());
    if Some(column) == problem || spec.facet.as_deref() == Some(column) {
        return ["6", "7", "8"].map(String::from).to_vec();
    }
    if spec.x.as_deref() == Some(column) {
        return ["1", "2", "4", "8", "16"].map(String::from).to_vec();
    }
    ["alpha", "beta", "gamma", "delta"]
        .map(String::from)
        .to_vec()
}

/// Every combination of the values of `columns`.
fn combinations(columns: &[(String, Vec<String>)]) -> Vec<Vec<String>> {
    let mut out = vec![Vec::new()];
    for (_, values) in columns {
        out = out
            .iter()
            .flat_map(|prefix| {
                values.iter().map(move |v| {
                    let mut p = prefix.clone();
                    p.push(v.clone());
                    p
                })
            })
            .collect();
    }
    out
}

/// Rows for the spec: each combination of its columns' values, three runs each; the
/// anytime kinds' rows a run's best so far at checkpoints, reaching its problem's
/// reference (or −20) at a budget that grows with the run.
fn rows(spec: &FigureSpec, filter: &Filter) -> polars::prelude::DataFrame {
    let per = spec.runtime.as_ref().and_then(|r| r.per.clone());
    let mut columns: Vec<(String, Vec<String>)> = Vec::new();
    for c in spec.columns() {
        if c != spec.metric && Some(c) != per.as_deref() && !columns.iter().any(|k| k.0 == c) {
            columns.push((c.to_string(), values_of(c, spec, filter)));
        }
    }
    let problem = spec.runtime.as_ref().and_then(|r| r.problem.clone());
    let reference = spec.runtime.as_ref().and_then(|r| r.reference);
    let anytime = spec.kind.uses_anytime();
    let mut names: Vec<String> = columns.iter().map(|c| c.0.clone()).collect();
    names.extend(per.clone());
    match anytime {
        true => names.extend(["run_key", "iteration", "best_so_far"].map(String::from)),
        false => names.push(spec.metric.clone()),
    }
    let mut cols: Vec<ColumnBuilder> = names.iter().map(|n| ColumnBuilder::new(n)).collect();
    for (k, combo) in combinations(&columns).iter().enumerate() {
        let size = problem
            .as_ref()
            .and_then(|p| columns.iter().position(|c| &c.0 == p))
            .map(|i| combo[i].clone());
        let best = match (reference, &size) {
            (Some(f), Some(s)) => f(s).unwrap_or(-20.0),
            _ => -20.0,
        };
        for run in 0..3usize {
            let checkpoints: &[i64] = if anytime { &[1, 10, 100, 1000] } else { &[0] };
            for &it in checkpoints {
                let mut row: Vec<Value> = combo
                    .iter()
                    .map(|v| match v.parse::<i64>() {
                        Ok(i) => Value::Int(i),
                        Err(_) => Value::from(v.as_str()),
                    })
                    .collect();
                if per.is_some() {
                    let s: i64 = size.as_deref().and_then(|s| s.parse().ok()).unwrap_or(7);
                    row.push(Value::Int(s * s));
                }
                if anytime {
                    let reached = (it as f64 * (run + 1 + k % 5) as f64 / 2000.0).min(1.0);
                    row.push(Value::from(format!("{k}-{run}")));
                    row.push(Value::Int(it));
                    row.push(Value::Float((best * reached).round()));
                } else {
                    row.push(Value::Float(((k * 7 + run * 3) % 11) as f64 + 10.0));
                }
                for (c, v) in cols.iter_mut().zip(row) {
                    c.push(v);
                }
            }
        }
    }
    frame(cols).unwrap()
}

/// The styles of every series of a figure (of each panel), with their names.
fn series_styles(fig: &AnyFigure) -> Vec<Vec<(String, SeriesStyle)>> {
    match fig {
        AnyFigure::Line(f) => vec![
            f.series
                .iter()
                .map(|s| s.name.clone())
                .zip(f.styles.iter().copied())
                .collect(),
        ],
        AnyFigure::Histogram(f) => vec![
            f.series
                .iter()
                .map(|s| s.0.clone())
                .zip(f.styles.iter().copied())
                .collect(),
        ],
        AnyFigure::Facets(f) => {
            let mut all: Vec<Vec<(String, SeriesStyle)>> =
                f.panels.iter().flat_map(series_styles).collect();
            all.push(f.legend.iter().map(|e| (e.0.clone(), e.1)).collect());
            all
        }
        _ => Vec::new(),
    }
}

/// The printed size in points of every text of an SVG set at `text_cm` centimetres.
fn printed_sizes(svg: &str, text_cm: f64) -> Vec<f64> {
    let view = svg
        .split("viewBox=\"0 0 ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|w| w.parse::<f64>().ok())
        .expect("a viewBox");
    svg.split("font-size=\"")
        .skip(1)
        .filter_map(|r| r.split('"').next()?.parse::<f64>().ok())
        .map(|size| Print::printed_pt(size, view, text_cm))
        .collect()
}

#[test]
fn every_default_figure_prints_its_text_at_8_pt_and_tells_its_series_apart() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let functions = searchlab::domain::functions(&searchlab::registry::domains());
    let studies = searchlab::report::load_studies(root, &functions).unwrap();
    let book = StyleBook::default();
    for (name, style) in studies.iter().flat_map(|s| &s.styles) {
        book.declare(name, *style);
    }
    let dir = tempfile::tempdir().unwrap();
    let mut drawn = 0;
    for study in &studies {
        for (i, b) in study.questions.iter().flat_map(|q| &q.blocks).enumerate() {
            let Some(mut spec) = b.figure() else { continue };
            let here = format!("{}:{}", study.source, b.line);
            if let (Some(r), Some(name)) = (
                spec.runtime.as_mut(),
                match &b.kind {
                    searchlab::study::Kind::Ecdf(k) => k.targets.reference.clone(),
                    _ => None,
                },
            ) {
                r.reference = functions
                    .references
                    .iter()
                    .find(|f| f.name == name)
                    .map(|f| f.value);
            }
            spec.better = Some(
                spec.better
                    .unwrap_or(searchlab::pipeline::metrics::Better::Lower),
            );
            spec.title = spec.derived_title("");
            let mut fig =
                build(&spec, &rows(&spec, &filter_of(b))).unwrap_or_else(|e| panic!("{here}: {e}"));
            apply_styles(&mut fig, &book);
            for panel in series_styles(&fig) {
                for (a, (name_a, sa)) in panel.iter().enumerate() {
                    for (name_b, sb) in &panel[..a] {
                        assert!(
                            !sa.looks_like(sb),
                            "{here}: {name_a} and {name_b} share a colour and line"
                        );
                    }
                }
            }
            let stem = dir.path().join(format!("{}_{i}", study.name));
            save_printed(&fig, &stem, Some(&spec.print(fig.panels()))).unwrap();
            let svg = std::fs::read_to_string(stem.with_extension("svg")).unwrap();
            let sizes = printed_sizes(&svg, 16.0);
            assert!(!sizes.is_empty(), "{here}: no text");
            let least = sizes.iter().copied().fold(f64::INFINITY, f64::min);
            assert!(
                least >= 8.0 - 1e-9,
                "{here}: text at {least:.2} pt at 16 cm"
            );
            drawn += 1;
        }
    }
    assert!(drawn >= 20, "{drawn} figures drawn");
}
