//! The peg-solitaire study (seed 001, issue 4): the seed's budgeted depth-first search
//! on every level with four expansion budgets (the seed's Deliverable 2), and the
//! stronger solver against it. Each question gets figures, a table and an answer whose
//! numbers all come from the result tables.

use super::markdown::{num, table, thousands};
use super::{Analysis, Context, Question};
use crate::pipeline::table::{floats, has_column};
use crate::present::plot::{PointChart, decade_ticks, integer_ticks, short_number};
use plotters::prelude::SeriesLabelPosition;
use polars::prelude::DataFrame;

pub const ANALYSES: &[(&str, Analysis)] = &[
    ("pegsol_budget", budget_study),
    ("pegsol_strong", strong_vs_seed),
];

/// One run of a pegsol experiment (a row of its results table).
#[derive(Debug, Clone)]
struct Run {
    level: i64,
    /// The expansion budget; `None` runs to the end (the strong solver's proof).
    budget: Option<u64>,
    initial: u64,
    pegs_left: u64,
    length: u64,
    expanded: u64,
    generated: u64,
    seconds: f64,
    per_second: f64,
    /// Whether the fewest pegs was proved (the strong solver only).
    proved: Option<bool>,
}

/// The runs of a results table, by level then budget (unbounded last).
fn runs(df: &DataFrame) -> anyhow::Result<Vec<Run>> {
    let column = |name: &str| floats(df, name);
    let (level, budget, initial, pegs) = (
        column("level")?,
        column("budget")?,
        column("initial_pegs")?,
        column("pegs_left")?,
    );
    let (length, expanded, generated) = (
        column("solution_length")?,
        column("expanded")?,
        column("generated")?,
    );
    let (seconds, per_second) = (column("time_seconds")?, column("expanded_per_second")?);
    let proved = if has_column(df, "proved_optimal") {
        Some(column("proved_optimal")?)
    } else {
        None
    };
    let need = |v: Option<f64>, name: &str| {
        v.ok_or_else(|| anyhow::anyhow!("a pegsol run has no value for {name}"))
    };
    let mut out = Vec::with_capacity(df.height());
    for i in 0..df.height() {
        out.push(Run {
            level: need(level[i], "level")? as i64,
            budget: budget[i].map(|b| b as u64),
            initial: need(initial[i], "initial_pegs")? as u64,
            pegs_left: need(pegs[i], "pegs_left")? as u64,
            length: need(length[i], "solution_length")? as u64,
            expanded: need(expanded[i], "expanded")? as u64,
            generated: need(generated[i], "generated")? as u64,
            seconds: need(seconds[i], "time_seconds")?,
            per_second: per_second[i].unwrap_or(f64::NAN),
            proved: proved.as_ref().and_then(|p| p[i]).map(|v| v != 0.0),
        });
    }
    out.sort_by_key(|r| (r.level, r.budget.unwrap_or(u64::MAX)));
    Ok(out)
}

/// Distinct values, sorted.
fn distinct<T: Ord + Copy>(xs: impl Iterator<Item = T>) -> Vec<T> {
    let mut v: Vec<T> = xs.collect();
    v.sort();
    v.dedup();
    v
}

/// "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Levels as text: a consecutive run as "0–4", else a list.
fn levels_text(levels: &[i64]) -> String {
    let consecutive = levels.windows(2).all(|w| w[1] == w[0] + 1);
    match levels {
        [] => "none".into(),
        [one] => format!("level {one}"),
        [first, .., last] if consecutive && levels.len() > 2 => format!("levels {first}–{last}"),
        _ => format!(
            "levels {}",
            and_list(&levels.iter().map(|l| l.to_string()).collect::<Vec<_>>())
        ),
    }
}

fn count(n: u64) -> String {
    thousands(n)
}

/// A wall time in seconds for a table.
fn secs(x: f64) -> String {
    if !x.is_finite() {
        "–".into()
    } else if x < 0.001 {
        "< 0.001".into()
    } else if x < 1.0 {
        num(x, 3)
    } else {
        num(x, 2)
    }
}

/// Shortest time whose expansion rate is worth printing: below it, the rate measures
/// the clock and the call, not the search.
const RATE_MIN_SECONDS: f64 = 0.001;

/// Expansions per second in millions, or "–" for a run too short to time.
fn rate(r: &Run) -> String {
    if r.seconds < RATE_MIN_SECONDS || !r.per_second.is_finite() {
        "–".into()
    } else {
        num(r.per_second / 1e6, 2)
    }
}

fn pegs(n: u64) -> String {
    if n == 1 {
        "1 peg".into()
    } else {
        format!("{n} pegs")
    }
}

/// Small vertical offsets so that series with equal values stay visible side by side.
fn dodge(i: usize, n: usize) -> f64 {
    const STEP: f64 = 0.06;
    (i as f64 - (n.max(1) - 1) as f64 / 2.0) * STEP
}

/// The run of `level` in a set of runs (one per level).
fn get<'a>(set: &[&'a Run], level: i64) -> Option<&'a Run> {
    set.iter().find(|r| r.level == level).copied()
}

fn find(runs: &[Run], level: i64, budget: Option<u64>) -> Option<&Run> {
    runs.iter().find(|r| r.level == level && r.budget == budget)
}

/// Section 4: the budget study.
fn budget_study(ctx: &Context, q: &Question) -> anyhow::Result<String> {
    let grid = runs(ctx.results(&q.experiments[0])?)?;
    let curve = match q.experiments.get(1) {
        Some(e) => runs(ctx.results(e)?)?,
        None => Vec::new(),
    };
    let budgets: Vec<u64> = distinct(grid.iter().filter_map(|r| r.budget));
    let levels: Vec<i64> = distinct(grid.iter().map(|r| r.level));
    let (Some(&low), Some(&high)) = (budgets.first(), budgets.last()) else {
        anyhow::bail!("the budget study has no runs");
    };
    let initial_of = |l: i64| grid.iter().find(|r| r.level == l).map_or(0, |r| r.initial);

    // Figure 1: pegs left against initial pegs, a line per budget.
    let most = grid.iter().map(|r| r.pegs_left).max().unwrap_or(1);
    let series = budgets
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            let mut pts: Vec<(f64, f64)> = grid
                .iter()
                .filter(|r| r.budget == Some(b))
                .map(|r| {
                    (
                        r.initial as f64,
                        r.pegs_left as f64 + dodge(i, budgets.len()),
                    )
                })
                .collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            (format!("budget {}", count(b)), pts)
        })
        .collect();
    let top_dodge = dodge(budgets.len().saturating_sub(1), budgets.len());
    let chart = PointChart {
        title: "Seed's DFS: pegs left against initial pegs, per budget".into(),
        x_label: "initial pegs of the level".into(),
        y_label: "pegs left (fewer is better)".into(),
        series,
        x_ticks: distinct(levels.iter().map(|&l| initial_of(l)))
            .into_iter()
            .map(|n| (n as f64, n.to_string()))
            .collect(),
        y_ticks: integer_ticks(1, most),
        log_x: false,
        log_y: false,
        legend: SeriesLabelPosition::UpperLeft,
        notes: levels
            .iter()
            .map(|&l| {
                let top = grid
                    .iter()
                    .filter(|r| r.level == l)
                    .map(|r| r.pegs_left)
                    .max()
                    .unwrap_or(1);
                (
                    initial_of(l) as f64,
                    top as f64 + top_dodge,
                    format!("L{l}"),
                )
            })
            .collect(),
        marks: Vec::new(),
    };
    let mut out = ctx.figure(
        &chart,
        "pegsol_pegs_left_by_initial_pegs",
        &format!(
            "pegs left by the seed's DFS on each level (L0–L{}, placed at the level's initial pegs), a line per \
             expansion budget; lines are offset vertically by {} peg so that equal values stay visible",
            levels.last().copied().unwrap_or(0),
            num(dodge(1, 2) - dodge(0, 2), 2)
        ),
    )?;

    // Figure 2: pegs left against budget on the last four levels, grid and curve runs.
    let last: Vec<i64> = levels.iter().rev().take(4).rev().copied().collect();
    let mut combined: Vec<&Run> = grid.iter().chain(curve.iter()).collect();
    combined.sort_by_key(|r| (r.level, r.budget));
    combined.dedup_by_key(|r| (r.level, r.budget));
    let curve_budgets: Vec<u64> = distinct(
        combined
            .iter()
            .filter(|r| last.contains(&r.level))
            .filter_map(|r| r.budget),
    );
    let most = combined
        .iter()
        .filter(|r| last.contains(&r.level))
        .map(|r| r.pegs_left)
        .max()
        .unwrap_or(1);
    let series = last
        .iter()
        .enumerate()
        .map(|(i, &l)| {
            (
                format!("level {l} ({} pegs)", initial_of(l)),
                combined
                    .iter()
                    .filter(|r| r.level == l)
                    .filter_map(|r| {
                        r.budget
                            .map(|b| (b as f64, r.pegs_left as f64 + dodge(i, last.len())))
                    })
                    .collect(),
            )
        })
        .collect();
    let chart = PointChart {
        title: format!(
            "Seed's DFS: solution quality against budget, {}",
            levels_text(&last)
        ),
        x_label: "expansion budget (log scale)".into(),
        y_label: "pegs left (fewer is better)".into(),
        series,
        x_ticks: decade_ticks(
            curve_budgets.first().copied().unwrap_or(1) as f64,
            curve_budgets.last().copied().unwrap_or(1) as f64,
        ),
        y_ticks: integer_ticks(1, most),
        log_x: true,
        log_y: false,
        legend: SeriesLabelPosition::UpperMiddle,
        notes: Vec::new(),
        marks: vec![(high as f64, format!(" {}", short_number(high as f64)))],
    };
    out.push_str(&ctx.figure(
        &chart,
        "pegsol_pegs_left_by_budget",
        &format!(
            "pegs left against the expansion budget on {} ({} budgets from {} to {}; the dashed line is the study's \
             largest budget, {}); lines are offset vertically by {} peg so that equal values stay visible",
            levels_text(&last),
            curve_budgets.len(),
            count(curve_budgets.first().copied().unwrap_or(0)),
            count(curve_budgets.last().copied().unwrap_or(0)),
            count(high),
            num(dodge(1, 2) - dodge(0, 2), 2)
        ),
    )?);

    // The overview: pegs left per level and budget.
    let mut head: Vec<String> = vec!["level".into(), "initial pegs".into()];
    head.extend(budgets.iter().map(|b| format!("budget {}", count(*b))));
    let head_refs: Vec<&str> = head.iter().map(String::as_str).collect();
    let rows: Vec<Vec<String>> = levels
        .iter()
        .map(|&l| {
            let mut row = vec![l.to_string(), initial_of(l).to_string()];
            row.extend(budgets.iter().map(|&b| {
                find(&grid, l, Some(b)).map_or("–".into(), |r| r.pegs_left.to_string())
            }));
            row
        })
        .collect();
    out.push_str("\nPegs left by the seed's DFS, per level and budget:\n\n");
    out.push_str(&table(&head_refs, &rows));

    // The full table.
    let rows: Vec<Vec<String>> = grid
        .iter()
        .map(|r| {
            vec![
                r.level.to_string(),
                r.budget.map_or("none".into(), count),
                r.pegs_left.to_string(),
                r.length.to_string(),
                count(r.generated),
                count(r.expanded),
                rate(r),
                secs(r.seconds),
            ]
        })
        .collect();
    out.push_str(&format!(
        "\nEvery run of `configs/{}.toml` (one per setting: the search is deterministic, so every column but the \
         timings is reproducible; the timings are single measurements, taken while runs share the machine's cores in parallel; a rate is \
         shown only for runs of at least {} ms):\n\n",
        ctx.config(&q.experiments[0])?.name,
        num(RATE_MIN_SECONDS * 1000.0, 0)
    ));
    out.push_str(&table(
        &[
            "level",
            "budget",
            "pegs left",
            "solution length",
            "generated",
            "expanded",
            "expanded / s (millions)",
            "time (s)",
        ],
        &rows,
    ));

    // The answer.
    let solved_always: Vec<i64> = levels
        .iter()
        .copied()
        .filter(|&l| {
            grid.iter()
                .filter(|r| r.level == l)
                .all(|r| r.pegs_left == 1)
        })
        .collect();
    let mut answer = Vec::new();
    if let Some(hardest) = grid
        .iter()
        .filter(|r| solved_always.contains(&r.level))
        .max_by_key(|r| r.expanded)
    {
        answer.push(format!(
            "On {} ({} to {} initial pegs) the seed's DFS ends with one peg at every budget: it finds a one-peg \
             finish within {} expansions (the most, on level {}), so even the smallest budget of {} is never used up.",
            levels_text(&solved_always),
            solved_always.first().map_or(0, |&l| initial_of(l)),
            solved_always.last().map_or(0, |&l| initial_of(l)),
            count(hardest.expanded),
            hardest.level,
            count(low)
        ));
    }
    let hard: Vec<i64> = levels
        .iter()
        .copied()
        .filter(|l| !solved_always.contains(l))
        .collect();
    let at = |l: i64, b: u64| find(&grid, l, Some(b)).map(|r| r.pegs_left.to_string());
    let pegs_at = |b: u64| {
        hard.iter()
            .map(|&l| at(l, b).unwrap_or_else(|| "–".into()))
            .collect::<Vec<_>>()
    };
    if !hard.is_empty() {
        answer.push(format!(
            "On the larger boards the budget decides: on {} the DFS leaves {} pegs with {} expansions and {} pegs \
             with {}.",
            levels_text(&hard),
            and_list(&pegs_at(low)),
            count(low),
            and_list(&pegs_at(high)),
            count(high)
        ));
    }
    for &l in &hard {
        let level_runs: Vec<&Run> = grid.iter().filter(|r| r.level == l).collect();
        let Some(pos) = level_runs.iter().position(|r| r.pegs_left == 1) else {
            continue;
        };
        let r = level_runs[pos];
        let before = pos
            .checked_sub(1)
            .map(|p| level_runs[p])
            .map_or(String::new(), |p| {
                format!(
                    ", more than the budget of {} allows (which leaves {})",
                    p.budget.map_or("none".into(), count),
                    pegs(p.pegs_left)
                )
            });
        answer.push(format!(
            "Level {l} is solved from a budget of {} on: the DFS reaches its one-peg finish after {} expansions \
             ({} generated, a solution of {} jumps){before}.",
            r.budget.map_or("none".into(), count),
            count(r.expanded),
            count(r.generated),
            r.length
        ));
    }
    let unsolved: Vec<&Run> = grid
        .iter()
        .filter(|r| r.budget == Some(high) && r.pegs_left > 1)
        .collect();
    if !unsolved.is_empty() {
        answer.push(format!(
            "With {} expansions, {} still end{} with {} pegs left, every expansion of the budget spent.",
            count(high),
            levels_text(&unsolved.iter().map(|r| r.level).collect::<Vec<_>>()),
            if unsolved.len() == 1 { "s" } else { "" },
            and_list(
                &unsolved
                    .iter()
                    .map(|r| r.pegs_left.to_string())
                    .collect::<Vec<_>>()
            )
        ));
        // Size alone does not explain the difficulty when pegs left is not monotone.
        let mut by_size: Vec<&Run> = grid
            .iter()
            .filter(|r| r.budget == Some(high) && hard.contains(&r.level))
            .collect();
        by_size.sort_by_key(|r| r.initial);
        if by_size.windows(2).any(|w| w[1].pegs_left < w[0].pegs_left) {
            answer.push(format!(
                "Pegs left does not simply grow with the board: ordered by initial pegs, the levels at {} end with {} — \
                 the shape of the board and the DFS's fixed move order matter as much as its size.",
                count(high),
                and_list(
                    &by_size
                        .iter()
                        .map(|r| format!("{} (level {}, {} pegs)", r.pegs_left, r.level, r.initial))
                        .collect::<Vec<_>>()
                )
            ));
        }
    }
    // The longer curve: where each of the last levels stops improving.
    let mut tails = Vec::new();
    for &l in &last {
        let level_runs: Vec<&&Run> = combined.iter().filter(|r| r.level == l).collect();
        let Some(best) = level_runs.iter().map(|r| r.pegs_left).min() else {
            continue;
        };
        let Some(first) = level_runs.iter().find(|r| r.pegs_left == best) else {
            continue;
        };
        let top = level_runs
            .iter()
            .filter_map(|r| r.budget)
            .max()
            .unwrap_or(0);
        let Some(b) = first.budget else { continue };
        if best == 1 {
            if b > high {
                tails.push(format!(
                    "level {l} reaches one peg after {} expansions (of the budgets tried, only {} allows it)",
                    count(first.expanded),
                    count(b)
                ));
            }
        } else if b == top {
            tails.push(format!(
                "level {l} gets down to {} only with the largest budget tried, {}",
                pegs(best),
                count(b)
            ));
        } else {
            tails.push(format!(
                "level {l} gets down to {} with a budget of {} and no further up to {}",
                pegs(best),
                count(b),
                count(top)
            ));
        }
    }
    if !tails.is_empty() {
        answer.push(format!(
            "Beyond {} expansions (second figure): {}.",
            count(high),
            tails.join("; ")
        ));
    }
    let timed: Vec<&Run> = grid.iter().filter(|r| r.expanded >= 100_000).collect();
    let rates: Vec<f64> = timed.iter().map(|r| r.per_second).collect();
    if let (Some(m), Some(lo), Some(hi)) = (
        crate::present::stats::median(&rates),
        rates.iter().copied().reduce(f64::min),
        rates.iter().copied().reduce(f64::max),
    ) {
        let ratio: Vec<f64> = timed
            .iter()
            .map(|r| r.generated as f64 / r.expanded as f64)
            .collect();
        let slowest = grid.iter().map(|r| r.seconds).fold(0.0f64, f64::max);
        // The rate at the smallest and largest budget with long enough runs.
        let rate_at = |b: u64| {
            let v: Vec<f64> = timed
                .iter()
                .filter(|r| r.budget == Some(b))
                .map(|r| r.per_second)
                .collect();
            crate::present::stats::median(&v).map(|m| (b, m))
        };
        let timed_budgets = distinct(timed.iter().filter_map(|r| r.budget));
        let trend = match (
            timed_budgets.first().and_then(|&b| rate_at(b)),
            timed_budgets.last().and_then(|&b| rate_at(b)),
        ) {
            (Some((b0, r0)), Some((b1, r1))) if b0 != b1 => format!(
                "; the rate falls as the visited set grows, from a median of {} million with a budget of {} to {} \
                 million with {}",
                num(r0 / 1e6, 2),
                count(b0),
                num(r1 / 1e6, 2),
                count(b1)
            ),
            _ => String::new(),
        };
        answer.push(format!(
            "Runs of at least 100,000 expansions run at a median of {} million expansions per second ({}–{} million){trend}. \
             Each expansion generates {}–{} jumps, and the largest budget takes at most {} s per level.",
            num(m / 1e6, 2),
            num(lo / 1e6, 2),
            num(hi / 1e6, 2),
            num(ratio.iter().copied().fold(f64::INFINITY, f64::min), 2),
            num(ratio.iter().copied().fold(0.0, f64::max), 2),
            secs(slowest)
        ));
    }
    out.push_str(&format!("\n**Answer.** {}\n", answer.join(" ")));
    Ok(out)
}

/// Section 5: the stronger solver on every level against the seed's DFS.
fn strong_vs_seed(ctx: &Context, q: &Question) -> anyhow::Result<String> {
    let strong = runs(ctx.results(&q.experiments[0])?)?;
    let seed_all = match q.experiments.get(1) {
        Some(e) => runs(ctx.results(e)?)?,
        None => Vec::new(),
    };
    let seed_budget = seed_all.iter().filter_map(|r| r.budget).max();
    let seed: Vec<&Run> = seed_all
        .iter()
        .filter(|r| r.budget.is_some() && r.budget == seed_budget)
        .collect();
    let proof: Vec<&Run> = strong.iter().filter(|r| r.budget.is_none()).collect();
    let capped: Vec<&Run> = strong
        .iter()
        .filter(|r| r.budget.is_some() && r.budget == seed_budget)
        .collect();
    if proof.is_empty() {
        anyhow::bail!("no run of the strong solver without a budget");
    }
    let levels: Vec<i64> = distinct(proof.iter().map(|r| r.level));
    let b_label = seed_budget.map_or("–".into(), count);

    // Figure 1: pegs left per level.
    let mut series = Vec::new();
    let sets: [(&str, &[&Run]); 3] = [
        ("seed's DFS", &seed),
        ("strong solver", &capped),
        ("strong solver, to a proof", &proof),
    ];
    let n_sets = sets.iter().filter(|s| !s.1.is_empty()).count();
    for (i, (name, set)) in sets.iter().filter(|s| !s.1.is_empty()).enumerate() {
        let label = if i < 2 {
            format!("{name}, budget {b_label}")
        } else {
            name.to_string()
        };
        series.push((
            label,
            set.iter()
                .map(|r| (r.level as f64, r.pegs_left as f64 + dodge(i, n_sets)))
                .collect(),
        ));
    }
    let level_ticks: Vec<(f64, String)> =
        levels.iter().map(|&l| (l as f64, l.to_string())).collect();
    let most = sets
        .iter()
        .flat_map(|s| s.1.iter().map(|r| r.pegs_left))
        .max()
        .unwrap_or(1);
    let chart = PointChart {
        title: "Pegs left per level: the seed's DFS and the strong solver".into(),
        x_label: "level".into(),
        y_label: "pegs left (fewer is better)".into(),
        series,
        x_ticks: level_ticks.clone(),
        y_ticks: integer_ticks(1, most),
        log_x: false,
        log_y: false,
        legend: SeriesLabelPosition::UpperLeft,
        notes: Vec::new(),
        marks: Vec::new(),
    };
    let mut out = ctx.figure(
        &chart,
        "pegsol_strong_pegs_left",
        &format!(
            "pegs left on each level by the seed's DFS and the strong solver with {b_label} expansions, and by the \
             strong solver run to a proof; lines are offset vertically by {} peg so that equal values stay visible",
            num(dodge(1, 2) - dodge(0, 2), 2)
        ),
    )?;

    // Figure 2: expansions per level (log scale).
    let mut series = Vec::new();
    if !seed.is_empty() {
        series.push((
            format!("seed's DFS, budget {b_label}"),
            seed.iter()
                .map(|r| (r.level as f64, r.expanded.max(1) as f64))
                .collect(),
        ));
    }
    series.push((
        "strong solver, to a proof".into(),
        proof
            .iter()
            .map(|r| (r.level as f64, r.expanded.max(1) as f64))
            .collect(),
    ));
    let most = seed
        .iter()
        .chain(proof.iter())
        .map(|r| r.expanded)
        .max()
        .unwrap_or(1);
    let chart = PointChart {
        title: "Expansions per level: the seed's DFS and the strong solver".into(),
        x_label: "level".into(),
        y_label: "nodes expanded (log scale)".into(),
        series,
        x_ticks: level_ticks,
        y_ticks: decade_ticks(1.0, most as f64),
        log_x: false,
        log_y: true,
        legend: SeriesLabelPosition::UpperLeft,
        notes: Vec::new(),
        marks: Vec::new(),
    };
    out.push_str(&ctx.figure(
        &chart,
        "pegsol_strong_expanded",
        &format!(
            "nodes expanded on each level: the seed's DFS until it finds one peg or spends its {b_label} expansions, \
             and the strong solver until it proves the fewest pegs"
        ),
    )?);

    // The table.
    let rows: Vec<Vec<String>> = levels
        .iter()
        .map(|&l| {
            let p = get(&proof, l);
            let s = get(&seed, l);
            let c = get(&capped, l);
            let dash = || "–".to_string();
            vec![
                l.to_string(),
                p.map_or_else(dash, |r| r.initial.to_string()),
                s.map_or_else(dash, |r| r.pegs_left.to_string()),
                s.map_or_else(dash, |r| count(r.expanded)),
                s.map_or_else(dash, |r| secs(r.seconds)),
                c.map_or_else(dash, |r| r.pegs_left.to_string()),
                p.map_or_else(dash, |r| r.pegs_left.to_string()),
                p.map_or_else(dash, |r| {
                    if r.proved == Some(true) { "yes" } else { "no" }.to_string()
                }),
                p.map_or_else(dash, |r| r.length.to_string()),
                p.map_or_else(dash, |r| count(r.expanded)),
                p.map_or_else(dash, rate),
                p.map_or_else(dash, |r| secs(r.seconds)),
            ]
        })
        .collect();
    let seed_head = |what: &str| format!("seed's DFS ({b_label}): {what}");
    let (h1, h2, h3) = (
        seed_head("pegs left"),
        seed_head("expanded"),
        seed_head("time (s)"),
    );
    let h4 = format!("strong ({b_label}): pegs left");
    out.push('\n');
    out.push_str(&table(
        &[
            "level",
            "initial pegs",
            &h1,
            &h2,
            &h3,
            &h4,
            "strong, to a proof: pegs left",
            "proved fewest",
            "solution length",
            "expanded",
            "expanded / s (millions)",
            "time (s)",
        ],
        &rows,
    ));

    // The answer.
    let mut answer = Vec::new();
    let one: Vec<i64> = proof
        .iter()
        .filter(|r| r.pegs_left == 1)
        .map(|r| r.level)
        .collect();
    let more: Vec<&Run> = proof.iter().filter(|r| r.pegs_left > 1).copied().collect();
    let all_proved = proof.iter().all(|r| r.proved == Some(true));
    let total_seconds: f64 = proof.iter().map(|r| r.seconds).sum();
    let total_expanded: u64 = proof.iter().map(|r| r.expanded).sum();
    let hardest = proof
        .iter()
        .max_by(|a, b| a.expanded.cmp(&b.expanded))
        .copied();
    let mut s = format!(
        "Run to the end, the strong solver finds a one-peg finish on {}",
        levels_text(&one)
    );
    if !more.is_empty() {
        let why: Vec<String> = more
            .iter()
            .map(|r| {
                let excluded = crate::pegsol::levels::level(r.level)
                    .map(|p| crate::pegsol::solver::possible_last_holes(&p.shape, p.start).is_empty())
                    .unwrap_or(false);
                format!(
                    "on level {} it proves that {} is the fewest{}",
                    r.level,
                    pegs(r.pegs_left),
                    if excluded && r.pegs_left == 2 {
                        " (no hole of the board has the start's position class, so the \"rule of three\" excludes a \
                         single last peg before any search, and the search for two pegs succeeds)"
                    } else {
                        ""
                    }
                )
            })
            .collect();
        s.push_str(&format!(", and {}", and_list(&why)));
    }
    s.push_str(&format!(
        ". {} result is proved optimal. All {} levels together take {} expansions and {} s",
        if all_proved { "Every" } else { "Not every" },
        proof.len(),
        count(total_expanded),
        secs(total_seconds)
    ));
    if let Some(h) = hardest {
        s.push_str(&format!(
            "; the hardest is level {} with {} expansions ({} s)",
            h.level,
            count(h.expanded),
            secs(h.seconds)
        ));
    }
    s.push('.');
    answer.push(s);

    // Where the seed's DFS falls short of the optimum.
    let short: Vec<(&Run, &Run)> = levels
        .iter()
        .filter_map(|&l| Some((get(&seed, l)?, get(&proof, l)?)))
        .filter(|(s, p)| s.pegs_left > p.pegs_left)
        .collect();
    if !short.is_empty() {
        let lv: Vec<i64> = short.iter().map(|(s, _)| s.level).collect();
        answer.push(format!(
            "On {}, where the seed's DFS stops at {} pegs after {} expansions, the strong solver reaches {}.",
            levels_text(&lv),
            and_list(
                &short
                    .iter()
                    .map(|(s, _)| s.pegs_left.to_string())
                    .collect::<Vec<_>>()
            ),
            b_label,
            and_list(
                &short
                    .iter()
                    .map(|(_, p)| format!(
                        "{} on level {} ({}{} expansions, {} s)",
                        pegs(p.pegs_left),
                        p.level,
                        if p.proved == Some(true) { "proved fewest; " } else { "" },
                        count(p.expanded),
                        secs(p.seconds)
                    ))
                    .collect::<Vec<_>>()
            )
        ));
    }
    // At equal effort.
    if !capped.is_empty() {
        let better: Vec<i64> = levels
            .iter()
            .copied()
            .filter(|&l| match (get(&capped, l), get(&seed, l)) {
                (Some(c), Some(s)) => c.pegs_left < s.pegs_left,
                _ => false,
            })
            .collect();
        let short_still: Vec<(&Run, &Run)> = levels
            .iter()
            .filter_map(|&l| Some((get(&capped, l)?, get(&proof, l)?)))
            .filter(|(c, p)| c.pegs_left > p.pegs_left)
            .collect();
        let mut s = format!(
            "With the seed's budget of {b_label} expansions the strong solver does better than the seed's DFS on {}",
            if better.is_empty() {
                "no level".to_string()
            } else {
                levels_text(&better)
            }
        );
        if !short_still.is_empty() {
            s.push_str(&format!(
                ", but on {} it also stops at {} pegs: those need {} expansions to reach the optimum and prove it",
                levels_text(&short_still.iter().map(|(c, _)| c.level).collect::<Vec<_>>()),
                and_list(
                    &short_still
                        .iter()
                        .map(|(c, _)| c.pegs_left.to_string())
                        .collect::<Vec<_>>()
                ),
                and_list(
                    &short_still
                        .iter()
                        .map(|(_, p)| count(p.expanded))
                        .collect::<Vec<_>>()
                )
            ));
        }
        s.push('.');
        answer.push(s);
    }
    // Speed per expansion.
    let rate_of = |set: &[&Run]| {
        let v: Vec<f64> = set
            .iter()
            .filter(|r| r.expanded >= 100_000)
            .map(|r| r.per_second)
            .collect();
        crate::present::stats::median(&v)
    };
    if let (Some(a), Some(b)) = (rate_of(&proof), rate_of(&seed)) {
        answer.push(format!(
            "Its gain is in the search, not in raw speed: an expansion costs more (a canonical form under the board's \
             symmetries, pagoda sums, sorted moves), {} million expansions per second against {} million for the \
             seed's DFS (medians over runs of at least 100,000 expansions). What it buys is that no position is \
             searched twice up to symmetry and that branches which cannot reach the target are cut, which is what \
             lets the searches finish and prove their result.",
            num(a / 1e6, 2),
            num(b / 1e6, 2)
        ));
    }
    let quicker: Vec<String> = levels
        .iter()
        .filter_map(|&l| Some((get(&seed, l)?, get(&proof, l)?)))
        .filter(|(s, p)| s.pegs_left == 1 && p.pegs_left == 1 && s.expanded < p.expanded)
        .map(|(s, p)| {
            format!(
                "level {} ({} expansions against {})",
                s.level,
                count(s.expanded),
                count(p.expanded)
            )
        })
        .collect();
    if !quicker.is_empty() {
        answer.push(format!(
            "Where both find one peg, the seed's move order is sometimes the luckier: it needs fewer expansions on {}.",
            and_list(&quicker)
        ));
    }
    out.push_str(&format!("\n**Answer.** {}\n", answer.join(" ")));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::execute::{Options, run_experiment};
    use crate::pipeline::progress::Progress;
    use crate::pipeline::table::read_parquet;
    use std::collections::HashMap;
    use std::path::Path;

    #[test]
    fn lists_read_as_text() {
        assert_eq!(levels_text(&[0, 1, 2, 3, 4]), "levels 0–4");
        assert_eq!(levels_text(&[6, 7]), "levels 6 and 7");
        assert_eq!(levels_text(&[5, 7, 8]), "levels 5, 7 and 8");
        assert_eq!(levels_text(&[8]), "level 8");
        assert_eq!(
            and_list(&["a".into(), "b".into(), "c".into()]),
            "a, b and c"
        );
        assert_eq!(secs(0.0002), "< 0.001");
        assert_eq!(secs(4.4841), "4.48");
        assert_eq!(pegs(1), "1 peg");
        assert_eq!(short_number(1_500_000.0), "1.5M");
        assert_eq!(short_number(20_000.0), "20k");
        assert_eq!(
            decade_ticks(1000.0, 1e7)
                .into_iter()
                .map(|t| t.1)
                .collect::<Vec<_>>(),
            vec!["1k", "10k", "100k", "1M", "10M"]
        );
        assert!((dodge(0, 4) + dodge(3, 4)).abs() < 1e-12);
    }

    /// Runs small configs through the pipeline and returns the report's view of them.
    fn context(dir: &Path, configs: &[&str]) -> Context {
        let runners = crate::domains::runners();
        let opts = Options {
            jobs: 1,
            force: false,
            out: dir.to_path_buf(),
        };
        let mut ctx = Context {
            results: HashMap::new(),
            anytime: HashMap::new(),
            configs: HashMap::new(),
            figures: dir.join("figures"),
        };
        for text in configs {
            let config = crate::pipeline::config::parse(text, "test.toml", &[]).unwrap();
            let done = run_experiment(&config, &runners, &opts, &Progress::new(0, true)).unwrap();
            ctx.results.insert(
                config.name.clone(),
                read_parquet(&done.dir.join("results.parquet")).unwrap(),
            );
            ctx.configs.insert(config.name.clone(), config);
        }
        ctx
    }

    const GRID: &str = r#"
        [experiment]
        name = "grid"
        domain = "pegsol"
        algorithm = "seed_dfs"
        [sweep]
        level = { start = 0, stop = 8, step = 1 }
        budget = [2000, 20000]
    "#;
    const CURVE: &str = r#"
        [experiment]
        name = "curve"
        domain = "pegsol"
        algorithm = "seed_dfs"
        [sweep]
        level = [5, 6, 7, 8]
        budget = [5000]
    "#;
    const STRONG: &str = r#"
        [experiment]
        name = "strong"
        domain = "pegsol"
        algorithm = "strong"
        [sweep]
        level = [3, 4]
        [[variant]]
        name = "proof"
        params = { budget = "none" }
        [[variant]]
        name = "capped"
        params = { budget = 20000 }
    "#;

    fn question(experiments: &[&str]) -> Question {
        Question {
            title: "test".into(),
            experiments: experiments.iter().map(|e| e.to_string()).collect(),
            analysis: String::new(),
        }
    }

    #[test]
    fn budget_answer_is_computed_from_the_runs() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = context(dir.path(), &[GRID, CURVE]);
        let md = budget_study(&ctx, &question(&["grid", "curve"])).unwrap();
        // Level 3 needs 3,541 expansions: with 2,000 it is not solved.
        assert!(md.contains("On levels 0, 1, 2 and 4 ("), "{md}");
        assert!(
            md.contains("within 1,065 expansions (the most, on level 4)"),
            "{md}"
        );
        assert!(
            md.contains("| 3 | 17 | 2 | 1 |"),
            "overview row of level 3: {md}"
        );
        assert!(md.contains("**Answer.**"));
        assert_eq!(md.matches("\n| 5 | ").count(), 3, "overview + two budgets");
        for f in [
            "pegsol_pegs_left_by_initial_pegs",
            "pegsol_pegs_left_by_budget",
        ] {
            assert!(
                dir.path()
                    .join("figures")
                    .join(format!("{f}.png"))
                    .is_file()
            );
            assert!(md.contains(&format!("figures/{f}.png")));
        }
    }

    #[test]
    fn strong_answer_compares_with_the_seeds_largest_budget() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = context(dir.path(), &[STRONG, GRID]);
        let md = strong_vs_seed(&ctx, &question(&["strong", "grid"])).unwrap();
        assert!(md.contains("one-peg finish on levels 3 and 4"), "{md}");
        assert!(md.contains("Every result is proved optimal"), "{md}");
        // The table row of level 4: seed with 20,000 solves it, the capped strong does not.
        assert!(md.contains("| 4 | 32 | 1 | 1,065 |"), "{md}");
        assert!(
            md.contains("level 4 (1,065 expansions against 188,756)"),
            "{md}"
        );
        assert!(
            md.contains("better than the seed's DFS on no level"),
            "{md}"
        );
        assert!(
            dir.path()
                .join("figures/pegsol_strong_pegs_left.png")
                .is_file()
        );
        assert!(
            dir.path()
                .join("figures/pegsol_strong_expanded.png")
                .is_file()
        );
    }
}
