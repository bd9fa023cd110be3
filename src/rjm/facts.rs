//! Facts and pictures of the Rook Jumping Maze domain for the report's studies: what
//! the generic blocks cannot compute. `rjm.escape` turns escape trials into escape
//! probabilities (Wilson intervals) and per-iteration escape rates; `rjm.escape_curve`
//! draws them against the uphill probability; `rjm.best_mazes` draws the best maze ever
//! found of each size (the store of [`crate::rjm::best`]) with a shortest path, and
//! `rjm.records` sets those records beside the report's own runs.

use crate::pipeline::table::{floats, texts};
use crate::present::charts::ordered_values;
use crate::present::facts::{FactFunction, FactInput, Facts};
use crate::present::figure::AnyFigure;
use crate::present::figure::BoardFunction;
use crate::present::plot::{Band, LinePlot};
use crate::stats::{mean, median, wilson};

pub const FACTS: &[FactFunction] = &[
    FactFunction {
        name: "rjm.records",
        facts: &["["],
        compute: record_facts,
    },
    FactFunction {
        name: "rjm.escape",
        facts: &[
            "window",
            "runs",
            "uphill_share",
            "strict_count",
            "p0.escaped",
            "p0.ci_low",
            "p0.ci_high",
            "p0.rate",
            "p0.rate_low",
            "p0.rate_high",
            "peak.p",
            "peak.rate",
            "peak.tied",
            "peak.leaders",
            "last.p",
            "last.rate",
            "ratio_low",
            "ratio_high",
            "[",
        ],
        compute: escape_facts,
    },
];

pub const BOARDS: &[BoardFunction] = &[
    BoardFunction {
        name: "rjm.escape_curve",
        draw: escape_curve,
    },
    BoardFunction {
        name: "rjm.best_mazes",
        draw: best_mazes,
    },
];

/// Escape statistics per uphill probability p, in ascending p.
struct EscapeRow {
    p: f64,
    key: String,
    runs: usize,
    escaped: usize,
    rate: f64,
    /// The rate's exact 95% Poisson interval.
    rate_ci: (f64, f64),
    median_iterations: Option<f64>,
    median_uphill_steps: Option<f64>,
}

fn escape_rows(input: &FactInput) -> anyhow::Result<(f64, Vec<EscapeRow>)> {
    let df = input.results;
    let window = floats(df, "window")?
        .first()
        .copied()
        .flatten()
        .unwrap_or(0.0);
    let ps = texts(df, "uphill_probability")?;
    let escaped = floats(df, "escaped")?;
    let to_escape = floats(df, "iterations_to_escape")?;
    let steps = floats(df, "uphill_steps")?;
    let rows = ordered_values(&ps)
        .into_iter()
        .map(|v| {
            let idx: Vec<usize> = (0..ps.len()).filter(|&i| ps[i] == v).collect();
            let hit: Vec<usize> = idx
                .iter()
                .copied()
                .filter(|&i| escaped[i] == Some(1.0))
                .collect();
            // Iterations at risk: up to the escape, or the whole window.
            let at_risk: f64 = idx.iter().map(|&i| to_escape[i].unwrap_or(window)).sum();
            EscapeRow {
                p: v.parse().unwrap_or(0.0),
                runs: idx.len(),
                escaped: hit.len(),
                rate: hit.len() as f64 / at_risk.max(1.0),
                rate_ci: crate::stats::poisson_rate_ci(hit.len() as u64, at_risk.max(1.0)),
                median_iterations: median(
                    &idx.iter().filter_map(|&i| to_escape[i]).collect::<Vec<_>>(),
                ),
                median_uphill_steps: median(
                    &hit.iter().filter_map(|&i| steps[i]).collect::<Vec<_>>(),
                ),
                key: v,
            }
        })
        .collect();
    Ok((window, rows))
}

fn escape_facts(input: &FactInput) -> anyhow::Result<Facts> {
    let (window, rows) = escape_rows(input)?;
    let df = input.results;
    let mut f = Facts::default();
    f.set("window", window);
    f.set("runs", df.height());
    let (up, side) = (
        floats(df, "uphill_neighbours")?,
        floats(df, "sideways_neighbours")?,
    );
    let shares: Vec<f64> = up
        .iter()
        .zip(&side)
        .map(|(u, s)| {
            let (u, s) = (u.unwrap_or(0.0), s.unwrap_or(0.0));
            u / (u + s).max(1.0)
        })
        .collect();
    f.set("uphill_share", mean(&shares).unwrap_or(0.0));
    f.set(
        "strict_count",
        side.iter().filter(|s| **s == Some(0.0)).count(),
    );
    for r in &rows {
        let (lo, hi) = wilson(r.escaped as u64, r.runs as u64);
        let share = r.escaped as f64 / r.runs.max(1) as f64;
        let mut g = Facts::default();
        g.set("p", r.p);
        g.set("runs", r.runs);
        g.set("escaped", share);
        g.set("ci_low", lo);
        g.set("ci_high", hi);
        g.set("rate", r.rate);
        g.set("rate_low", r.rate_ci.0);
        g.set("rate_high", r.rate_ci.1);
        g.set("median_iterations", r.median_iterations.unwrap_or(f64::NAN));
        g.set(
            "median_uphill_steps",
            r.median_uphill_steps.unwrap_or(f64::NAN),
        );
        if r.p == 0.0 {
            f.extend_prefixed("p0", g.clone());
        }
        f.extend_prefixed(&format!("[{}]", r.key), g);
    }
    if let Some(peak) = rows.iter().max_by(|a, b| a.rate.total_cmp(&b.rate)) {
        f.set("peak.p", peak.p);
        f.set("peak.rate", peak.rate);
        // The probabilities whose rate's interval overlaps the peak's: no peak over them.
        let tied: Vec<String> = rows
            .iter()
            .filter(|r| r.key != peak.key)
            .filter(|r| r.rate_ci.0 <= peak.rate_ci.1 && peak.rate_ci.0 <= r.rate_ci.1)
            .map(|r| format!("p = {}", r.key))
            .collect();
        let named = crate::present::compare::leaders(&format!("p = {}", peak.key), &tied);
        if let (Some(t), Some(l)) = (named.get("best.tied"), named.get("leaders")) {
            f.set("peak.tied", t.clone());
            f.set("peak.leaders", l.clone());
        }
    }
    if let Some(last) = rows.last() {
        f.set("last.p", last.p);
        f.set("last.rate", last.rate);
    }
    let ratios: Vec<f64> = rows
        .iter()
        .filter(|r| r.p > 0.0)
        .map(|r| r.rate / r.p)
        .collect();
    f.set(
        "ratio_low",
        ratios.iter().copied().fold(f64::INFINITY, f64::min),
    );
    f.set(
        "ratio_high",
        ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    );
    Ok(f)
}

fn escape_curve(input: &FactInput) -> anyhow::Result<Vec<(String, AnyFigure)>> {
    let (window, rows) = escape_rows(input)?;
    let line = |name: String, y: &dyn Fn(&EscapeRow) -> f64| Band {
        name,
        points: rows
            .iter()
            .filter(|r| r.p > 0.0)
            .map(|r| (r.p, y(r), y(r), y(r)))
            .collect(),
    };
    let plot = LinePlot {
        title: "Escaping verified local minima".into(),
        x_label: "uphill step probability p".into(),
        y_label: "probability".into(),
        series: vec![
            line(format!("escaped within {window} iterations"), &|r| {
                r.escaped as f64 / r.runs.max(1) as f64
            }),
            line("escape rate per iteration".into(), &|r| r.rate),
            line("p itself".into(), &|r| r.p),
        ],
        log_x: true,
        log_y: true,
        ..LinePlot::default()
    };
    Ok(vec![(
        "escape probability within the window and per iteration, against the uphill probability p (log–log; p = 0 is in the table)".into(),
        AnyFigure::Line(plot),
    )])
}

/// The best maze ever found of each size, from the store in the repository.
fn best_mazes(_: &FactInput) -> anyhow::Result<Vec<(String, AnyFigure)>> {
    let mut out = Vec::new();
    for r in crate::rjm::best::built_in()? {
        let title = format!("Best {0}×{0} maze found: {1} moves", r.size, r.length);
        if let Some(pic) = crate::rjm::runner::maze_picture(&r.maze, &title) {
            out.push((title, AnyFigure::Board(pic)));
        }
    }
    Ok(out)
}

/// Per size (`[N]`): the stored record (`record`, `record_iterations`, `record_seed`,
/// `method`) beside the block's runs (`runs`, `best`, `median`, `reached`: runs that
/// reached the record, `evaluations`: of each run, `effort`: evaluations in all,
/// `cpu_seconds`: the runs' time, summed).
fn record_facts(input: &FactInput) -> anyhow::Result<Facts> {
    let df = input.results;
    let sizes = texts(df, "size")?;
    let lengths = floats(df, "best_path_length")?;
    let evaluations = floats(df, "evaluations")?;
    let seconds = floats(df, "time_seconds")?;
    let records = crate::rjm::best::built_in()?;
    let mut f = Facts::default();
    for r in &records {
        let key = format!("[{}]", r.size);
        f.set(format!("{key}.record"), r.length);
        f.set(format!("{key}.record_iterations"), r.iterations);
        f.set(format!("{key}.record_seed"), r.seed.to_string());
        f.set(format!("{key}.method"), r.method.clone());
        let idx: Vec<usize> = (0..sizes.len())
            .filter(|&i| sizes[i] == r.size.to_string())
            .collect();
        let found: Vec<f64> = idx.iter().map(|&i| lengths[i].unwrap_or(0.0)).collect();
        let per_run = idx.first().and_then(|&i| evaluations[i]).unwrap_or(0.0);
        f.set(format!("{key}.runs"), found.len());
        f.set(
            format!("{key}.best"),
            found.iter().copied().fold(0.0, f64::max),
        );
        f.set(format!("{key}.median"), median(&found).unwrap_or(0.0));
        f.set(
            format!("{key}.reached"),
            found.iter().filter(|&&l| l >= r.length as f64).count(),
        );
        f.set(format!("{key}.evaluations"), per_run);
        f.set(format!("{key}.effort"), per_run * found.len() as f64);
        let cpu: f64 = idx.iter().filter_map(|&i| seconds[i]).sum();
        f.set(format!("{key}.cpu_seconds"), cpu);
    }
    Ok(f)
}
