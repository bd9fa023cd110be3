//! The Rook Jumping Maze study (seed 004, part 7): one analysis per question, each a
//! figure, a table and an answer whose numbers come from the result tables.

use super::markdown::{num, p_value, table};
use super::{Analysis, Context, Question};
use crate::pipeline::table::{floats, rows_where, texts};
use crate::present::charts::{self, label};
use crate::present::plot::{Band, IntervalPlot, LinePlot};
use crate::present::stats::{Summary, bootstrap_mean_ci, mann_whitney, wilson};
use polars::prelude::DataFrame;

pub const ANALYSES: &[(&str, Analysis)] = &[
    ("rjm_no_sideways", no_sideways),
    ("rjm_sideways_cap", sideways_cap),
    ("rjm_restarts", restarts),
    ("rjm_escape", escape),
    ("rjm_schedules", schedules),
    ("rjm_best_mazes", best_mazes),
];

const PATH: &str = "best_path_length";

/// Path lengths of runs, with unreachable goals counted as 0 moves (the worst maze).
fn path_lengths(df: &DataFrame) -> anyhow::Result<Vec<f64>> {
    Ok(floats(df, PATH)?
        .into_iter()
        .map(|v| v.unwrap_or(0.0))
        .collect())
}

/// Summaries of the best path length for each value of `x`, in display order.
fn by(df: &DataFrame, x: &str) -> anyhow::Result<Vec<(String, Vec<f64>, Summary)>> {
    let xs = texts(df, x)?;
    let ys = path_lengths(df)?;
    let order = charts::ordered_values(&xs);
    Ok(order
        .into_iter()
        .filter_map(|v| {
            let sample: Vec<f64> = xs
                .iter()
                .zip(&ys)
                .filter(|(a, _)| **a == v)
                .map(|(_, b)| *b)
                .collect();
            Summary::of(&sample).map(|s| (v, sample, s))
        })
        .collect())
}

fn iqr(s: &Summary) -> String {
    format!("{}–{}", num(s.q1, 1), num(s.q3, 1))
}

fn summary_row(name: String, s: &Summary) -> Vec<String> {
    vec![
        name,
        s.n.to_string(),
        num(s.median, 1),
        iqr(s),
        format!("[{}, {}]", num(s.ci_low, 1), num(s.ci_high, 1)),
        num(s.mean, 2),
    ]
}

const SUMMARY_HEAD: [&str; 5] = ["runs", "median", "IQR", "95% CI of median", "mean"];

fn head(first: &str) -> Vec<&str> {
    std::iter::once(first)
        .chain(SUMMARY_HEAD.iter().copied())
        .collect()
}

fn no_sideways(ctx: &Context, q: &Question) -> anyhow::Result<String> {
    let df = ctx.results(&q.experiments[0])?;
    let iterations = floats(df, "iterations")?
        .first()
        .copied()
        .flatten()
        .unwrap_or(0.0);
    let none = rows_where(df, "sideways_cap", "")?;
    let zero = rows_where(df, "sideways_cap", "0")?;
    let (a, b) = (path_lengths(&zero)?, path_lengths(&none)?);
    let (sa, sb) = (
        Summary::of(&a).ok_or_else(|| anyhow::anyhow!("no runs with cap 0"))?,
        Summary::of(&b).ok_or_else(|| anyhow::anyhow!("no uncapped runs"))?,
    );
    let (_, p) = mann_whitney(&a, &b);
    let it = |d: &DataFrame| {
        Summary::of(
            &floats(d, "best_iteration")
                .map(|v| v.into_iter().flatten().collect::<Vec<_>>())
                .unwrap_or_default(),
        )
    };
    let (ia, ib) = (it(&zero), it(&none));
    let unreachable = |d: &DataFrame| -> anyhow::Result<usize> {
        Ok(floats(d, PATH)?.iter().filter(|v| v.is_none()).count())
    };

    let anytime = ctx.anytime(&q.experiments[0])?;
    let mut plot = charts::anytime(
        anytime,
        Some("sideways_cap"),
        "Hill descent: best objective so far, with and without sideways moves",
        "best objective so far (−path length)",
    )?;
    plot.series
        .retain(|s| s.name.ends_with("= 0") || s.name.ends_with("= ∞"));
    let fig = ctx.figure(&plot, "rjm_no_sideways_anytime", "median best objective so far (lower is better) against iterations; bands are interquartile ranges")?;

    let hist = crate::present::plot::Histogram {
        title: "Best path length after 10,000 iterations".into(),
        x_label: "best path length (moves)".into(),
        series: vec![
            ("no sideways moves (k = 0)".into(), a.clone()),
            ("sideways moves (seed)".into(), b.clone()),
        ],
        bin_width: 1.0,
    };
    let mut out = fig;
    out.push('\n');
    out.push_str(&ctx.figure(
        &hist,
        "rjm_no_sideways_histogram",
        "distribution of the best path length over the runs, with and without sideways moves",
    )?);
    out.push('\n');
    out.push_str(&table(
        &head("sideways moves"),
        &[
            summary_row("none (k = 0)".into(), &sa),
            summary_row("unlimited (seed)".into(), &sb),
        ],
    ));
    let stall = match (&ia, &ib) {
        (Some(ia), Some(ib)) => format!(
            "Without them the last improvement comes at a median iteration of {} (IQR {}) of {}, against {} (IQR {}) with them: ",
            num(ia.median, 0),
            iqr(ia),
            num(iterations, 0),
            num(ib.median, 0),
            iqr(ib)
        ),
        _ => String::new(),
    };
    out.push_str(&format!(
        "\n**Answer.** Without sideways moves hill descent stops at the first maze none of whose neighbours is strictly better. \
         Over {} runs each, the best path found has a median of {} moves (IQR {}) without sideways moves against {} moves (IQR {}) \
         when sideways moves are accepted as in the seed (Mann–Whitney, {}). {}\
         almost all of the budget is spent proposing moves that are rejected, because on this landscape most neighbours of a \
         good maze have exactly the same objective (changing a cell off the shortest path rarely changes its length), so a \
         descent that may not move sideways is trapped on the first plateau. {} of {} runs without sideways moves and {} of {} \
         with them ended with an unreachable goal.\n",
        sa.n,
        num(sa.median, 1),
        iqr(&sa),
        num(sb.median, 1),
        iqr(&sb),
        p_value(p),
        stall,
        unreachable(&zero)?,
        sa.n,
        unreachable(&none)?,
        sb.n
    ));
    Ok(out)
}

fn sideways_cap(ctx: &Context, q: &Question) -> anyhow::Result<String> {
    let df = ctx.results(&q.experiments[0])?;
    let groups = by(df, "sideways_cap")?;
    let mut bx = charts::boxes(
        df,
        "sideways_cap",
        PATH,
        "Best path length by cap k on consecutive sideways moves",
    )?;
    bx.x_label = "cap k on consecutive sideways moves".into();
    let mut out = ctx.figure(&bx, "rjm_sideways_cap", "best path length (moves) after 10,000 iterations for each cap k; ∞ is the seed's uncapped algorithm")?;
    let uncapped = groups
        .iter()
        .find(|g| g.0.is_empty())
        .ok_or_else(|| anyhow::anyhow!("no uncapped runs"))?;
    let mut rows = Vec::new();
    let mut first_equal: Option<String> = None;
    for (v, sample, s) in &groups {
        let (_, p) = mann_whitney(sample, &uncapped.1);
        if first_equal.is_none() && p >= 0.05 {
            first_equal = Some(label(v));
        }
        let mut row = summary_row(label(v), s);
        row.push(if v.is_empty() {
            "–".into()
        } else {
            p_value(p)
        });
        rows.push(row);
    }
    let mut h = head("cap k");
    h.push("vs uncapped");
    out.push('\n');
    out.push_str(&table(&h, &rows));
    let best = groups
        .iter()
        .max_by(|a, b| {
            a.2.median
                .total_cmp(&b.2.median)
                .then(a.2.mean.total_cmp(&b.2.mean))
        })
        .ok_or_else(|| anyhow::anyhow!("no groups"))?;
    let zero = &groups[0];
    out.push_str(&format!(
        "\n**Answer.** The cap decides how far a descent can wander across a plateau before it must improve. The median best path \
         rises from {} moves at k = {} to {} moves at k = {} (the best median; mean {}), and the uncapped search reaches {} moves. \
         {} Small caps are nearly as bad as none at all: a plateau of equal mazes is large, and a short walk on it rarely finds \
         the one cell change that lengthens the path.\n",
        num(zero.2.median, 1),
        label(&zero.0),
        num(best.2.median, 1),
        label(&best.0),
        num(best.2.mean, 2),
        num(uncapped.2.median, 1),
        match &first_equal {
            Some(k) if k != "∞" => format!("From k = {k} on, the difference from the uncapped search is no longer significant (Mann–Whitney p ≥ 0.05)."),
            _ => "Every finite cap tested is significantly worse than no cap (Mann–Whitney p < 0.05).".to_string(),
        }
    ));
    Ok(out)
}

fn restarts(ctx: &Context, q: &Question) -> anyhow::Result<String> {
    let df = ctx.results(&q.experiments[0])?;
    let mut plot = charts::line(
        df,
        "restarts",
        PATH,
        Some("iterations"),
        "Hill descent with restarts: best path length (median, IQR)",
        true,
        false,
    )?;
    plot.x_label = "restarts (descents sharing the total)".into();
    plot.y_label = "best path length (moves)".into();
    let mut out = ctx.figure(
        &plot,
        "rjm_restarts",
        "best path length against the number of restarts, for each fixed total of iterations",
    )?;
    let totals = charts::ordered_values(&texts(df, "iterations")?);
    let mut answer = Vec::new();
    let mut best_lengths = Vec::new();
    let mut rows = Vec::new();
    for total in &totals {
        let part = rows_where(df, "iterations", total)?;
        let groups = by(&part, "restarts")?;
        for (v, _, s) in &groups {
            let mut row = vec![total.clone()];
            row.extend(summary_row(v.clone(), s));
            rows.push(row);
        }
        let one = groups.iter().find(|g| g.0 == "1");
        if let Some(best) = groups.iter().max_by(|a, b| {
            a.2.median
                .total_cmp(&b.2.median)
                .then(a.2.mean.total_cmp(&b.2.mean))
        }) {
            let per = total.parse::<f64>().unwrap_or(0.0) / best.0.parse::<f64>().unwrap_or(1.0);
            best_lengths.push(format!("{} (of {total})", num(per, 0)));
        }
        let best = groups.iter().max_by(|a, b| {
            a.2.median
                .total_cmp(&b.2.median)
                .then(a.2.mean.total_cmp(&b.2.mean))
        });
        let worst = groups.last();
        if let (Some(one), Some(best), Some(worst)) = (one, best, worst) {
            let (_, p) = mann_whitney(&best.1, &one.1);
            let per = total.parse::<f64>().unwrap_or(0.0) / worst.0.parse::<f64>().unwrap_or(1.0);
            answer.push(format!(
                "With {total} iterations in all, one descent reaches a median of {} moves (mean {}); the best split is {} restarts with \
                 a median of {} moves (mean {}; against one descent, {}); at {} restarts each descent has only {} iterations and the \
                 median falls to {} moves.",
                num(one.2.median, 1),
                num(one.2.mean, 2),
                best.0,
                num(best.2.median, 1),
                num(best.2.mean, 2),
                p_value(p),
                worst.0,
                num(per, 0),
                num(worst.2.median, 1)
            ));
        }
    }
    let mut h = vec!["total iterations"];
    h.extend(head("restarts"));
    out.push('\n');
    out.push_str(&table(&h, &rows));
    out.push_str(&format!(
        "\n**Answer.** {} Restarts trade depth for breadth: the best splits give each descent {} iterations, enough for one \
         descent to reach a good plateau and explore it for a while; fewer restarts leave most of the budget on a plateau \
         that has stopped paying off, more leave each descent too short to get there.\n",
        answer.join(" "),
        best_lengths.join(" and ")
    ));
    Ok(out)
}

fn escape(ctx: &Context, q: &Question) -> anyhow::Result<String> {
    let df = ctx.results(&q.experiments[0])?;
    let window = floats(df, "window")?
        .first()
        .copied()
        .flatten()
        .unwrap_or(0.0);
    let ps = texts(df, "uphill_probability")?;
    let escaped = floats(df, "escaped")?;
    let to_escape = floats(df, "iterations_to_escape")?;
    let uphill_n = floats(df, "uphill_neighbours")?;
    let sideways_n = floats(df, "sideways_neighbours")?;
    let uphill_steps = floats(df, "uphill_steps")?;
    let mut rows = Vec::new();
    let (mut xs, mut within, mut hazard) = (Vec::new(), Vec::new(), Vec::new());
    let mut share_uphill = Vec::new();
    for v in charts::ordered_values(&ps) {
        let idx: Vec<usize> = (0..ps.len()).filter(|&i| ps[i] == v).collect();
        let n = idx.len() as u64;
        let k = idx.iter().filter(|&&i| escaped[i] == Some(1.0)).count() as u64;
        let (lo, hi) = wilson(k, n);
        // Iterations at risk: up to the escape, or the whole window.
        let at_risk: f64 = idx.iter().map(|&i| to_escape[i].unwrap_or(window)).sum();
        let rate = k as f64 / at_risk.max(1.0);
        let steps: Vec<f64> = idx
            .iter()
            .filter(|&&i| escaped[i] == Some(1.0))
            .filter_map(|&i| uphill_steps[i])
            .collect();
        let med_it: Vec<f64> = idx.iter().filter_map(|&i| to_escape[i]).collect();
        for &i in &idx {
            let (u, s) = (uphill_n[i].unwrap_or(0.0), sideways_n[i].unwrap_or(0.0));
            share_uphill.push(u / (u + s).max(1.0));
        }
        let p: f64 = v.parse().unwrap_or(0.0);
        xs.push(p);
        within.push(k as f64 / n.max(1) as f64);
        hazard.push(rate);
        rows.push(vec![
            v.clone(),
            n.to_string(),
            format!(
                "{} [{}, {}]",
                num(k as f64 / n.max(1) as f64, 3),
                num(lo, 3),
                num(hi, 3)
            ),
            num(rate, 5),
            crate::present::stats::median(&med_it).map_or("–".into(), |m| num(m, 0)),
            crate::present::stats::median(&steps).map_or("–".into(), |m| num(m, 0)),
        ]);
    }
    let share = crate::present::stats::mean(&share_uphill).unwrap_or(0.0);
    let line = |name: &str, ys: &[f64]| Band {
        name: name.to_string(),
        points: xs
            .iter()
            .zip(ys)
            .filter(|(x, _)| **x > 0.0)
            .map(|(&x, &y)| (x, y, y, y))
            .collect(),
    };
    let plot = LinePlot {
        title: "Escaping verified local minima of 5×5 mazes".into(),
        x_label: "uphill step probability p".into(),
        y_label: "probability".into(),
        series: vec![
            line(
                &format!("escaped within {} iterations", num(window, 0)),
                &within,
            ),
            line("escape rate per iteration", &hazard),
            line("p itself", &xs),
        ],
        log_x: true,
        log_y: true,
    };
    let mut out = ctx.figure(
        &plot,
        "rjm_escape",
        "escape probability within the window and per iteration, against the uphill probability p (log–log; p = 0 is in the table)",
    )?;
    out.push_str(&format!(
        "\n**Definitions.** A *local minimum* is a maze none of whose neighbours (every non-goal cell changed to every other legal \
         jump, evaluated exhaustively) has a lower objective; each run reaches one by descending from a random maze through \
         uniformly chosen improving neighbours. From it, hill descent with uphill probability p (sideways moves allowed) runs \
         for at most {} iterations; the run *escapes* at the first iteration at which it evaluates a maze with a lower objective \
         than the minimum. The per-iteration escape rate is escapes divided by iterations at risk (iterations until the escape, \
         or the whole window).\n\n",
        num(window, 0)
    ));
    out.push_str(&table(
        &[
            "p",
            "runs",
            "escaped within window [95% Wilson CI]",
            "escape rate / iteration",
            "median iterations to escape",
            "median uphill steps before escape",
        ],
        &rows,
    ));
    // Strict minima: no sideways neighbour, so only an uphill step can start an escape.
    let strict: Vec<usize> = (0..ps.len())
        .filter(|&i| sideways_n[i] == Some(0.0))
        .collect();
    let strict_text = if strict.is_empty() {
        "None of the minima found was strict (every one had sideways neighbours).".to_string()
    } else {
        let esc = |pred: &dyn Fn(f64) -> bool| {
            let idx: Vec<&usize> = strict
                .iter()
                .filter(|&&i| pred(ps[i].parse().unwrap_or(0.0)))
                .collect();
            (
                idx.iter().filter(|&&&i| escaped[i] == Some(1.0)).count(),
                idx.len(),
            )
        };
        let (e0, n0) = esc(&|p| p == 0.0);
        let (e1, n1) = esc(&|p| p > 0.0);
        format!(
            "Only {} of {} minima were strict (no sideways neighbour); from those, {e0} of {n0} runs escaped with p = 0 and {e1} of {n1} with p > 0.",
            strict.len(),
            ps.len()
        )
    };
    let (best_i, _) = hazard
        .iter()
        .enumerate()
        .fold(
            (0, f64::NEG_INFINITY),
            |acc, (i, &h)| if h > acc.1 { (i, h) } else { acc },
        );
    let last = hazard.len().saturating_sub(1);
    let ratios: Vec<f64> = xs
        .iter()
        .zip(&hazard)
        .filter(|(p, _)| **p > 0.0)
        .map(|(p, h)| h / p)
        .collect();
    let (rlo, rhi) = ratios
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &r| {
            (a.min(r), b.max(r))
        });
    out.push_str(&format!(
        "\n**Answer.** No. p is the probability of *accepting* one proposed uphill step, while escaping needs a sequence of steps \
         that ends below the minimum. At these minima {}% of the neighbours are uphill and the rest sideways (equal objective), so \
         most escapes are walks across a plateau, not uphill steps: with p = 0 already {} of runs escape within {} iterations, \
         at a rate of {} per iteration. The escape rate peaks at p = {} ({} per iteration) and falls to {} at p = {}, because a \
         walk that accepts many uphill steps drifts away from good mazes instead of going below the minimum. Across p > 0 the \
         rate is between {} and {} times p: the two probabilities differ by orders of magnitude at both ends. {}\n",
        num(share * 100.0, 1),
        rows.first().map(|r| r[2].clone()).unwrap_or_default(),
        num(window, 0),
        num(hazard.first().copied().unwrap_or(0.0), 5),
        num(xs[best_i], 4),
        num(hazard[best_i], 5),
        num(hazard[last], 5),
        num(xs[last], 4),
        num(rlo, 3),
        num(rhi, 1),
        strict_text
    ));
    Ok(out)
}

fn schedules(ctx: &Context, q: &Question) -> anyhow::Result<String> {
    let df = ctx.results(&q.experiments[0])?;
    let geometric = rows_where(df, "variant", "geometric")?;
    let mut heat = charts::heatmap(
        &geometric,
        "decay",
        "initial_temperature",
        PATH,
        "Geometric schedule: median best path length (10,000 iterations)",
    )?;
    heat.x_label = "decay d".into();
    heat.y_label = "initial temperature T0".into();
    let mut out = ctx.figure(&heat, "rjm_schedules_geometric", "median best path length of the geometric schedule over T0 × d, from one fixed starting maze")?;
    let start = floats(df, "start_objective")?
        .first()
        .copied()
        .flatten()
        .unwrap_or(0.0);

    // The best setting of each family, by median then mean.
    let variants = charts::ordered_values(&texts(df, "variant")?);
    let mut best: Vec<(String, String, Vec<f64>, Summary)> = Vec::new();
    for v in &variants {
        let part = rows_where(df, "variant", v)?;
        let setting = setting_labels(&part)?;
        let ys = path_lengths(&part)?;
        let mut top: Option<(String, Vec<f64>, Summary)> = None;
        for s in charts::ordered_values(&setting) {
            let sample: Vec<f64> = setting
                .iter()
                .zip(&ys)
                .filter(|(a, _)| **a == s)
                .map(|(_, y)| *y)
                .collect();
            if let Some(sum) = Summary::of(&sample)
                && top
                    .as_ref()
                    .is_none_or(|t| (sum.median, sum.mean) > (t.2.median, t.2.mean))
            {
                top = Some((s, sample, sum));
            }
        }
        if let Some((s, sample, sum)) = top {
            best.push((v.clone(), s, sample, sum));
        }
    }
    best.sort_by(|a, b| {
        (b.3.median, b.3.mean)
            .partial_cmp(&(a.3.median, a.3.mean))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut rows = Vec::new();
    let mut intervals = Vec::new();
    for (i, (v, s, sample, sum)) in best.iter().enumerate() {
        let (lo, hi) = bootstrap_mean_ci(sample, 0.95, 2000, 0x5EED + i as u64);
        let vs_top = if i == 0 {
            "–".to_string()
        } else {
            p_value(mann_whitney(sample, &best[0].2).1)
        };
        rows.push(vec![
            (i + 1).to_string(),
            v.clone(),
            s.clone(),
            num(sum.median, 1),
            iqr(sum),
            format!("{} [{}, {}]", num(sum.mean, 2), num(lo, 2), num(hi, 2)),
            vs_top,
        ]);
        intervals.push((format!("{v} ({s})"), sum.mean, lo, hi));
    }
    let plot = IntervalPlot {
        title: "Best setting of each schedule family: mean best path length, 95% CI".into(),
        x_label: "best path length (moves)".into(),
        rows: intervals,
    };
    out.push_str(&ctx.figure(
        &plot,
        "rjm_schedules_ranking",
        "each family's best setting, ranked; bars are 95% bootstrap intervals of the mean",
    )?);
    out.push('\n');
    out.push_str(&table(
        &[
            "rank",
            "schedule",
            "best setting",
            "median",
            "IQR",
            "mean [95% CI]",
            "vs rank 1 (Mann–Whitney)",
        ],
        &rows,
    ));
    let heat_text = geometric_extremes(&geometric)?;
    let (first, second) = (best.first(), best.get(1));
    if let (Some(a), Some(b)) = (first, second) {
        let (_, p) = mann_whitney(&a.2, &b.2);
        let geo = best.iter().find(|x| x.0 == "geometric");
        out.push_str(&format!(
            "\n**Answer.** From the fixed starting maze (objective {}), with 10,000 iterations and 100 seeds per setting, the best \
             schedule is **{}** with {} (median {} moves, mean {}), ahead of {} with {} (median {}, mean {}; Mann–Whitney {}).{} \
             {}\n\n\
             Each family's best setting was chosen on the same runs that rank it, so close ranks should be read together with \
             their intervals.\n",
            num(start, 0),
            a.0,
            a.1,
            num(a.3.median, 1),
            num(a.3.mean, 2),
            b.0,
            b.1,
            num(b.3.median, 1),
            num(b.3.mean, 2),
            p_value(p),
            geo.map_or(String::new(), |g| format!(" The seed's geometric schedule at its best ({}) has a mean of {} moves.", g.1, num(g.3.mean, 2))),
            heat_text
        ));
    }
    Ok(out)
}

/// What the geometric heatmap shows, in numbers: the best and worst (T0, d) cells and the
/// temperatures they end at.
fn geometric_extremes(geometric: &DataFrame) -> anyhow::Result<String> {
    let t0 = texts(geometric, "initial_temperature")?;
    let d = texts(geometric, "decay")?;
    let fin = floats(geometric, "final_temperature")?;
    let ys = path_lengths(geometric)?;
    let mut cells: Vec<(String, String, Summary, f64)> = Vec::new();
    for a in charts::ordered_values(&t0) {
        for b in charts::ordered_values(&d) {
            let idx: Vec<usize> = (0..t0.len()).filter(|&i| t0[i] == a && d[i] == b).collect();
            let sample: Vec<f64> = idx.iter().map(|&i| ys[i]).collect();
            let temps: Vec<f64> = idx.iter().filter_map(|&i| fin[i]).collect();
            if let (Some(s), Some(t)) =
                (Summary::of(&sample), crate::present::stats::median(&temps))
            {
                cells.push((a.clone(), b.clone(), s, t));
            }
        }
    }
    cells.sort_by(|x, y| {
        (y.2.median, y.2.mean)
            .partial_cmp(&(x.2.median, x.2.mean))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let (Some(top), Some(bottom)) = (cells.first(), cells.last()) else {
        return Ok(String::new());
    };
    let top5: Vec<&(String, String, Summary, f64)> = cells.iter().take(5).collect();
    let (tlo, thi) = top5
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), c| {
            (a.min(c.3), b.max(c.3))
        });
    Ok(format!(
        "In the geometric heatmap the best cell is T0 = {}, d = {} (median {}, mean {}), and the five best cells all end the run \
         at a temperature between {} and {}; the worst cell, T0 = {}, d = {} (median {}), still has T = {} after 10,000 \
         iterations, so it is a random walk to the end. Cooling too fast is far less harmful than not cooling: a schedule \
         frozen early still descends with sideways moves, as in question 1.",
        top.0,
        top.1,
        num(top.2.median, 1),
        num(top.2.mean, 2),
        num(tlo, 3),
        num(thi, 3),
        bottom.0,
        bottom.1,
        num(bottom.2.median, 1),
        num(bottom.3, 2)
    ))
}

/// A label for each run's schedule parameters (those the family sweeps).
fn setting_labels(part: &DataFrame) -> anyhow::Result<Vec<String>> {
    let schedule = texts(part, "schedule")?;
    let keys: &[&str] = match schedule.first().map(String::as_str) {
        Some("geometric") => &["initial_temperature", "decay"],
        Some("lundy_mees") => &["initial_temperature", "beta"],
        Some("reheating") => &["initial_temperature", "decay", "patience"],
        _ => &["initial_temperature"],
    };
    fn short(k: &str) -> &str {
        match k {
            "initial_temperature" => "T0",
            "decay" => "d",
            "beta" => "β",
            other => other,
        }
    }
    let cols: Vec<Vec<String>> = keys
        .iter()
        .map(|k| texts(part, k))
        .collect::<anyhow::Result<_>>()?;
    Ok((0..part.height())
        .map(|i| {
            keys.iter()
                .zip(&cols)
                .map(|(k, c)| format!("{}={}", short(k), c[i]))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect())
}

fn best_mazes(ctx: &Context, q: &Question) -> anyhow::Result<String> {
    let df = ctx.results(&q.experiments[0])?;
    let config = ctx.config(&q.experiments[0])?;
    let iterations = floats(df, "iterations")?
        .first()
        .copied()
        .flatten()
        .unwrap_or(0.0);
    let sizes = texts(df, "size")?;
    let lengths = path_lengths(df)?;
    let codes = texts(df, "best_maze")?;
    let mut out = format!(
        "Each size was annealed {} times ({} iterations, geometric schedule; `configs/{}.toml`); the best maze of each size is \
         drawn with its jump numbers and one shortest solution path from the circled start to the goal G.\n\n",
        config.replicates,
        num(iterations, 0),
        config.name
    );
    let mut rows = Vec::new();
    for size in charts::ordered_values(&sizes) {
        let idx: Vec<usize> = (0..sizes.len()).filter(|&i| sizes[i] == size).collect();
        let Some(&best) = idx
            .iter()
            .max_by(|&&a, &&b| lengths[a].total_cmp(&lengths[b]).then(b.cmp(&a)))
        else {
            continue;
        };
        let sample: Vec<f64> = idx.iter().map(|&i| lengths[i]).collect();
        let s = Summary::of(&sample).ok_or_else(|| anyhow::anyhow!("no runs of size {size}"))?;
        rows.push(vec![
            format!("{size}×{size}"),
            num(lengths[best], 0),
            num(s.median, 1),
            iqr(&s),
        ]);
        let title = format!("Best {size}×{size} maze: {} moves", num(lengths[best], 0));
        if let Some(pic) = crate::rjm::runner::maze_picture(&codes[best], &title) {
            out.push_str(&ctx.figure(&pic, &format!("rjm_best_maze_{size}"), &title)?);
            out.push('\n');
        }
    }
    out.push_str(&table(
        &["size", "best path (moves)", "median over runs", "IQR"],
        &rows,
    ));
    Ok(out)
}
