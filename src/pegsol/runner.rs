//! The peg-solitaire domain for the experiment pipeline: the assignment's budgeted DFS
//! (`budgeted_dfs`) and the stronger solver (`strong`) on the nine levels. Both are
//! deterministic: the seeds are unused and every metric except the timings
//! (`time_seconds`, `expanded_per_second`) is reproducible.

use crate::pegsol::{budgeted_dfs, levels, solver};
use crate::pipeline::metrics::MetricsSpec;
use crate::pipeline::params::{ParamSpec, Params};
use crate::pipeline::runner::{Algorithm, RunContext, RunOutput, Runner, Seeds};

crate::metrics! {
    /// What a peg-solitaire search measures.
    pub struct PegsolMetrics {
        /// Pegs on the board at the start.
        initial_pegs: u32 [none, "initial pegs", "pegs"],
        /// Pegs left on the best board reached (1 is solved).
        pegs_left: u32 [lower, "pegs left", "pegs"],
        /// Jumps from the start to the best board reached.
        solution_length: usize [none, "solution length", "jumps"],
        /// Boards whose successors were generated.
        expanded: u64 [lower, "expanded", "boards"],
        /// Successor boards generated.
        generated: u64 [lower, "generated", "boards"],
        /// Whether one peg was left.
        solved: bool [higher, "solved", ""],
        /// The strong solver only: the pegs left are proved the fewest reachable.
        proved_optimal: Option<bool> [higher, "proved optimal", ""],
        /// Wall-clock time of the search.
        time_seconds: f64 [lower, "time", "s"],
        /// Expansions per second of wall-clock time.
        expanded_per_second: f64 [higher, "expansions per second", "boards/s"],
    }
}

fn level_param() -> ParamSpec {
    ParamSpec::int(
        "level",
        0,
        levels::LEVEL_COUNT as i64 - 1,
        None,
        "level of the assignment, 0 to 8",
    )
    .instance()
}

/// The budgeted DFS's expansion budget: the same limits for configs and `--budget`.
pub fn budget_param() -> ParamSpec {
    ParamSpec::int(
        "budget",
        1,
        1_000_000_000,
        Some(1_000_000),
        "most nodes to expand",
    )
    .labelled("expansion budget")
    .budget()
}

/// The peg-solitaire algorithms.
pub fn runner() -> Runner {
    Runner {
        domain: "pegsol",
        description: "peg solitaire on the assignment's nine levels: fewest pegs left",
        cache: None,
        dimension: None,
        objective: None,
        algorithms: vec![
            Algorithm {
                name: "budgeted_dfs",
                version: 1,
                description: "the assignment's depth-first search with an expansion budget (Algorithm 1)",
                metrics: MetricsSpec::of::<PegsolMetrics>(),
                anytime: false,
                retired: &[],
                params: vec![level_param(), budget_param()],
                run: run_budgeted_dfs,
            },
            Algorithm {
                name: "strong",
                version: 1,
                description: "symmetry-reduced DFS with a transposition table, pagoda pruning and restarts; proves the fewest pegs",
                metrics: MetricsSpec::of::<PegsolMetrics>(),
                anytime: false,
                retired: &[],
                params: vec![
                    level_param(),
                    ParamSpec::optional_int(
                        "budget",
                        1,
                        i64::MAX,
                        "most nodes to expand (none: run to a proof)",
                    ),
                ],
                run: run_strong,
            },
        ],
    }
}

fn run_budgeted_dfs(params: &Params, _: Seeds, _: &RunContext) -> anyhow::Result<RunOutput> {
    let p = levels::level(params.int("level")?)?;
    let r = budgeted_dfs::solve(&p.shape, p.start, params.int("budget")?.max(1) as u64);
    Ok(RunOutput::of(PegsolMetrics {
        initial_pegs: r.initial_pegs,
        pegs_left: r.pegs_left,
        solution_length: r.solution.len(),
        expanded: r.expanded,
        generated: r.generated,
        solved: r.solved,
        proved_optimal: None,
        time_seconds: r.elapsed.as_secs_f64(),
        expanded_per_second: r.expanded_per_second(),
    }))
}

fn run_strong(params: &Params, _: Seeds, ctx: &RunContext) -> anyhow::Result<RunOutput> {
    let p = levels::level(params.int("level")?)?;
    let budget = params.opt_int("budget")?.map(|b| b.max(1) as u64);
    let limits = crate::search::Limits::expansions(budget).with_memory(ctx.memory);
    let r = solver::solve(&p.shape, p.start, &limits);
    if r.stop == crate::search::Stop::MemoryLimit {
        crate::user_bail!(
            "the strong solver's transposition table would pass its memory budget of {} after {} expansions (give a budget to stop earlier)",
            crate::util::memory::bytes_text(ctx.memory),
            r.expanded
        );
    }
    Ok(RunOutput::of(PegsolMetrics {
        initial_pegs: r.initial_pegs,
        pegs_left: r.pegs_left,
        solution_length: r.solution.len(),
        expanded: r.expanded,
        generated: r.generated,
        solved: r.pegs_left == 1,
        proved_optimal: Some(r.proved_optimal()),
        time_seconds: r.elapsed.as_secs_f64(),
        expanded_per_second: r.expanded_per_second(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::params::Value;

    fn params(level: i64, budget: i64) -> Params {
        let mut p = Params::default();
        p.set("level", Value::Int(level));
        p.set("budget", Value::Int(budget));
        p
    }

    fn run(algorithm: &str, params: &Params) -> anyhow::Result<RunOutput> {
        let r = runner();
        let a = r
            .algorithm(algorithm)
            .ok_or_else(|| anyhow::anyhow!("no {algorithm}"))?;
        crate::pipeline::runner::with_default_context(None, |ctx| {
            (a.run)(params, Seeds::default(), ctx)
        })
    }

    fn metric(out: &RunOutput, name: &str) -> Value {
        out.metrics
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or(Value::Null)
    }

    #[test]
    fn seed_dfs_reports_reproducible_metrics() {
        let a = run("budgeted_dfs", &params(3, 10_000)).unwrap();
        let b = run("budgeted_dfs", &params(3, 10_000)).unwrap();
        assert_eq!(metric(&a, "initial_pegs"), Value::Int(17));
        assert_eq!(metric(&a, "pegs_left"), Value::Int(1));
        assert_eq!(metric(&a, "solution_length"), Value::Int(16));
        for (name, value) in &a.metrics {
            if !name.ends_with("_seconds") && !name.ends_with("_per_second") {
                assert_eq!(
                    Some(value),
                    b.metrics.iter().find(|(n, _)| n == name).map(|(_, v)| v),
                    "{name}"
                );
            }
        }
        let budget1 = run("budgeted_dfs", &params(4, 1)).unwrap();
        assert_eq!(metric(&budget1, "expanded"), Value::Int(1));
        assert_eq!(metric(&budget1, "generated"), Value::Int(4));
        assert_eq!(metric(&budget1, "pegs_left"), Value::Int(32));
    }

    #[test]
    fn strong_proves_level_two() {
        let mut p = Params::default();
        p.set("level", Value::Int(2));
        p.set("budget", Value::Null);
        let out = run("strong", &p).unwrap();
        assert_eq!(metric(&out, "pegs_left"), Value::Int(1));
        assert_eq!(metric(&out, "proved_optimal"), Value::Bool(true));
    }

    #[test]
    fn specs_declare_level_and_budget() {
        let algs = runner().algorithms;
        assert_eq!(
            algs.iter().map(|a| a.name).collect::<Vec<_>>(),
            vec!["budgeted_dfs", "strong"]
        );
        for a in &algs {
            let names: Vec<&str> = a.params.iter().map(|p| p.name).collect();
            assert_eq!(names, vec!["level", "budget"]);
            assert!(a.params[0].check(&Value::Int(9)).is_err());
            assert!(a.params[1].check(&Value::Int(0)).is_err());
        }
        assert!(run("bfs", &params(0, 1)).is_err());
    }
}
