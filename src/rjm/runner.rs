//! Rook Jumping Maze runs: hill descent (sideways cap, restarts, uphill probability),
//! simulated annealing under each schedule, and local-minimum escape trials.

use crate::local_search::escape::{descend_to_local_minimum, escape_trial};
use crate::local_search::{Acceptance, Schedule, Settings, schedule::SCHEDULE_NAMES};
use crate::pipeline::metrics::MetricsSpec;
use crate::pipeline::params::{ParamSpec, Params};
use crate::pipeline::runner::{
    Algorithm, Dimension, RunContext, RunOutput, Runner, Seeds, log_checkpoints,
};
use crate::present::facts::CanonicalFunction;
use crate::rjm::{Maze, MazeLandscape, UNREACHABLE, landscape::optimize};
use crate::util::rng::rng_from_seed;
use std::time::Instant;

crate::metrics! {
    /// What a hill descent or annealing run measures.
    pub struct DescentMetrics {
        /// The objective of the starting maze: −(moves from start to goal), or 1,000,000
        /// when the goal is unreachable.
        start_objective: i64 [lower, "start objective", ""],
        /// The best objective reached (lower is better).
        best_objective: i64 [lower, "best objective", ""],
        /// Moves on a shortest path of the best maze (empty when its goal is unreachable).
        best_path_length: Option<i64> [higher, "best path length", "moves"],
        /// Whether the best maze's goal is reachable.
        goal_reachable: bool [higher, "goal reachable", ""],
        /// The evaluation at which the best objective was first reached.
        best_evaluation: u64 [lower, "evaluation of the best", "evaluations"],
        /// Improving steps taken.
        accepted_improving: u64 [none, "improving steps", "steps"],
        /// Sideways steps (equal objective) taken.
        accepted_sideways: u64 [none, "sideways steps", "steps"],
        /// Uphill steps (worse objective) taken.
        accepted_uphill: u64 [none, "uphill steps", "steps"],
        /// Fresh random mazes started after the first descent.
        restarts_done: u64 [none, "restarts", "restarts"],
        /// The temperature after the last step (annealing only).
        final_temperature: Option<f64> [none, "final temperature", ""],
        /// The best maze, rows separated by '/'.
        best_maze: String [none, "best maze", ""],
        /// Wall-clock time of the run.
        time_seconds: f64 [lower, "time", "s"],
        /// Evaluations per second of wall-clock time.
        evaluations_per_second: f64 [higher, "evaluations per second", "evaluations/s"],
    }
}

crate::metrics! {
    /// What an escape trial from a verified local minimum measures.
    pub struct EscapeMetrics {
        /// The objective of the local minimum reached by the descent.
        minimum_objective: i64 [lower, "minimum objective", ""],
        /// Moves on a shortest path of the local minimum's maze.
        minimum_path_length: Option<i64> [higher, "minimum path length", "moves"],
        /// Neighbours of the minimum with the same objective.
        sideways_neighbours: usize [none, "sideways neighbours", "mazes"],
        /// Neighbours of the minimum with a worse objective.
        uphill_neighbours: usize [none, "uphill neighbours", "mazes"],
        /// Steps of the descent to the minimum.
        descent_steps: u64 [none, "descent steps", "steps"],
        /// Whether a strictly better maze was reached within the window.
        escaped: bool [higher, "escaped", ""],
        /// Steps until the escape (empty when it did not escape).
        iterations_to_escape: Option<u64> [lower, "steps to escape", "steps"],
        /// Uphill steps taken during the trial.
        uphill_steps: u64 [none, "uphill steps", "steps"],
        /// Uphill steps proposed during the trial.
        uphill_proposals: u64 [none, "uphill proposals", "steps"],
        /// Evaluations of the objective in all.
        evaluations_used: u64 [none, "evaluations", "evaluations"],
        /// Wall-clock time of the run.
        time_seconds: f64 [lower, "time", "s"],
        /// Evaluations per second of wall-clock time.
        evaluations_per_second: f64 [higher, "evaluations per second", "evaluations/s"],
    }
}

const MAX_ITERATIONS: i64 = 1_000_000_000;

pub fn size() -> ParamSpec {
    ParamSpec::int("size", 5, 10, Some(5), "maze size n (n×n cells)")
        .labelled("maze size")
        .instance()
}
/// The assignment's iterations (steps), as its programs ask for them.
pub fn iterations() -> ParamSpec {
    ParamSpec::int(
        "iterations",
        1,
        MAX_ITERATIONS,
        None,
        "iterations (steps proposed)",
    )
}
/// A run's budget: evaluations of the objective.
pub fn evaluations() -> ParamSpec {
    ParamSpec::int(
        "evaluations",
        1,
        MAX_ITERATIONS,
        None,
        "the budget: evaluations of the objective, the starting maze's and each restart's included",
    )
    .labelled("evaluation budget")
    .budget()
    .formerly(
        "iterations",
        "the budget counts evaluations of the objective, restarts included",
    )
}
/// Hill descents sharing the budget (more than one: random restarts).
pub fn descents() -> ParamSpec {
    ParamSpec::int(
        "descents",
        1,
        1_000_000,
        Some(1),
        "hill descents sharing the budget evenly (1: no restart; each further descent starts from a fresh random maze)",
    )
    .labelled("descents")
    .formerly(
        "restarts",
        "restarts = 1 ran one descent and no restart: the parameter counts descents",
    )
}
/// An uphill step's acceptance probability.
pub fn uphill_probability(default: Option<f64>) -> ParamSpec {
    ParamSpec::float(
        "uphill_probability",
        0.0,
        1.0,
        false,
        default,
        "probability of accepting an uphill step",
    )
    .labelled("uphill probability")
}
/// Annealing's initial temperature T0.
pub fn initial_temperature() -> ParamSpec {
    ParamSpec::float("initial_temperature", 0.0, 1e12, true, Some(1.0), "T0")
        .labelled("initial temperature")
}
/// The geometric decay rate.
pub fn decay() -> ParamSpec {
    ParamSpec::float(
        "decay",
        0.0,
        1.0,
        true,
        Some(0.999),
        "geometric and reheating: T <- T*decay",
    )
    .labelled("decay rate")
    .only_when("schedule", &["geometric", "reheating"])
}
fn start_seed() -> ParamSpec {
    ParamSpec::optional_int(
        "start_seed",
        0,
        i64::MAX,
        "seed of a fixed starting maze (none: the replicate's instance)",
    )
    .instance()
}
fn sideways_cap() -> ParamSpec {
    ParamSpec::optional_int(
        "sideways_cap",
        0,
        MAX_ITERATIONS,
        "most consecutive sideways moves accepted (none: no cap)",
    )
    .labelled("sideways-move cap")
}

/// The Rook Jumping Maze algorithms.
pub fn runner() -> Runner {
    Runner {
        domain: "rjm",
        description: "Rook Jumping Maze design by stochastic local search (the Rook Jumping Maze assignment)",
        cache: None,
        algorithms: vec![
            hill_descent(),
            anneal(),
            escape(),
            super::exact::run::algorithm(),
        ],
        dimension: Some(Dimension {
            name: "cells",
            meaning: "cells of the maze (size²)",
            of: |p| p.int("size").ok().map(|n| (n * n) as f64),
        }),
        objective: Some(crate::pipeline::runner::Objective {
            budget: "evaluations",
            label: "best path length so far",
            unit: "moves",
            shown: path_length_of_objective,
        }),
    }
}

/// The path length an objective stands for: −objective, and 0 moves for an
/// unreachable goal (objective 1,000,000).
fn path_length_of_objective(objective: f64) -> f64 {
    if objective > 0.0 { 0.0 } else { -objective }
}

/// `hill_descent`.
fn hill_descent() -> Algorithm {
    Algorithm {
        name: "hill_descent",
        // 2: anytime checkpoints at 1, 2, 3, 5, 7 per decade.
        // 3: the budget counts evaluations (`evaluations`, `descents`); the start
        // is the replicate's instance, shared by every method. 4: the anytime
        // curve holds every strict improvement besides the checkpoints.
        version: 4,
        description: "hill descent with sideways moves, random restarts and uphill steps of fixed probability (parts 3-5)",
        metrics: MetricsSpec::of::<DescentMetrics>(),
        anytime: true,
        retired: &[],
        run: run_hill_descent,
        params: vec![
            size(),
            evaluations(),
            descents(),
            sideways_cap(),
            uphill_probability(Some(0.0)),
            start_seed(),
        ],
    }
}

/// `anneal`.
fn anneal() -> Algorithm {
    Algorithm {
        name: "anneal",
        // 2: no random number is drawn for uphill steps whose probability
        // underflows (e^x, x < -700). 3: decay, beta and patience belong to
        // their schedules (absent from the runs of the others). 4: the
        // constant, end-point and adaptive schedules; anytime checkpoints at 1,
        // 2, 3, 5, 7 per decade. 5: the budget counts evaluations; the start is
        // the replicate's instance, shared by every method. 6: the anytime curve
        // holds every strict improvement besides the checkpoints. 7: the default
        // schedule cools over the whole budget (geometric_end, T0 = 1 to T_end = 0.2,
        // near the tuned 10,000-evaluation elite) instead of geometric with d = 0.999,
        // which ignores the budget.
        version: 7,
        description: "simulated annealing (part 6) with a choice of temperature schedule",
        metrics: MetricsSpec::of::<DescentMetrics>(),
        anytime: true,
        retired: &[],
        run: run_anneal,
        params: vec![
            size(),
            evaluations(),
            ParamSpec::choice(
                "schedule",
                SCHEDULE_NAMES,
                Some("geometric_end"),
                "temperature schedule",
            )
            .labelled("temperature schedule"),
            initial_temperature(),
            decay(),
            ParamSpec::float(
                "beta",
                0.0,
                1e12,
                true,
                Some(0.001),
                "lundy_mees: T <- T/(1+beta*T)",
            )
            .only_when("schedule", &["lundy_mees"]),
            ParamSpec::int(
                "patience",
                1,
                MAX_ITERATIONS,
                Some(1000),
                "reheating: iterations without a new best before T <- T0",
            )
            .only_when("schedule", &["reheating"]),
            ParamSpec::float(
                "end_temperature",
                0.0,
                1e12,
                true,
                Some(0.2),
                "geometric_end and linear_end: the temperature T_end at the last iteration",
            )
            .only_when("schedule", &["geometric_end", "linear_end"]),
            ParamSpec::float(
                "target_acceptance",
                0.0,
                1.0,
                true,
                Some(0.44),
                "adaptive: the share of uphill proposals to accept",
            )
            .only_when("schedule", &["adaptive"]),
            sideways_cap(),
            start_seed(),
        ],
    }
}

/// `escape`.
fn escape() -> Algorithm {
    Algorithm {
        name: "escape",
        // 2: the start is the replicate's instance.
        version: 2,
        description: "descend to a verified local minimum, then try to escape it with uphill probability p",
        metrics: MetricsSpec::of::<EscapeMetrics>(),
        anytime: false,
        retired: &[],
        run: run_escape,
        params: vec![
            size(),
            uphill_probability(None),
            ParamSpec::int(
                "window",
                1,
                MAX_ITERATIONS,
                Some(1000),
                "iterations allowed for the escape",
            ),
        ],
    }
}

/// The starting maze of a run: the fixed one of `start_seed`, else the instance's.
fn start_maze(size: usize, params: &Params, seeds: Seeds) -> anyhow::Result<Maze> {
    let seed = match params.opt_int("start_seed")? {
        Some(s) => s as u64,
        None => seeds.instance,
    };
    Ok(Maze::random(size, &mut rng_from_seed(seed)))
}

fn run_hill_descent(params: &Params, seeds: Seeds, _: &RunContext) -> anyhow::Result<RunOutput> {
    let acceptance = Acceptance::Uphill {
        probability: params.float("uphill_probability")?,
    };
    local_search(params, seeds, acceptance, params.int("descents")? as u64)
}

fn run_anneal(params: &Params, seeds: Seeds, _: &RunContext) -> anyhow::Result<RunOutput> {
    local_search(params, seeds, Acceptance::Anneal(schedule(params)?), 1)
}

/// One hill descent or annealing run: the loop of [`optimize`] from the run's start.
fn local_search(
    params: &Params,
    seeds: Seeds,
    acceptance: Acceptance,
    descents: u64,
) -> anyhow::Result<RunOutput> {
    let size = params.int("size")? as usize;
    let started = Instant::now();
    let start = start_maze(size, params, seeds)?;
    let total = params.int("evaluations")? as u64;
    if descents > total {
        crate::user_bail!(
            "{descents} descents need at least {descents} evaluations (each evaluates its start), not {total}"
        );
    }
    let settings = Settings {
        acceptance,
        sideways_cap: params.opt_int("sideways_cap")?.map(|c| c as u64),
        budget: total,
        unit: crate::local_search::Unit::Evaluations,
        descents,
        checkpoints: log_checkpoints(total),
    };
    let start_objective = crate::rjm::evaluate::objective(&start);
    let out = optimize(&start, &settings, &mut rng_from_seed(seeds.run));
    let seconds = started.elapsed().as_secs_f64();
    let best = out.best_energy as i64;
    let mut r = RunOutput::of(DescentMetrics {
        start_objective: start_objective as i64,
        best_objective: best,
        best_path_length: (best != UNREACHABLE).then_some(-best),
        goal_reachable: best != UNREACHABLE,
        best_evaluation: out.best_at,
        accepted_improving: out.accepted_improving,
        accepted_sideways: out.accepted_sideways,
        accepted_uphill: out.accepted_uphill,
        restarts_done: out.restarts,
        final_temperature: out.final_temperature,
        best_maze: maze_code(&out.best),
        time_seconds: seconds,
        evaluations_per_second: out.evaluations as f64 / seconds.max(1e-9),
    });
    r.anytime = out.anytime;
    Ok(r)
}

fn schedule(params: &Params) -> anyhow::Result<Schedule> {
    schedule_of(params.str("schedule")?, &|name| params.float(name))
}

/// The schedule named `name` with its parameters read by `num`.
fn schedule_of(name: &str, num: &dyn Fn(&str) -> anyhow::Result<f64>) -> anyhow::Result<Schedule> {
    let t0 = num("initial_temperature")?;
    Ok(match name {
        "geometric" => Schedule::Geometric {
            t0,
            decay: num("decay")?,
        },
        "linear" => Schedule::Linear { t0 },
        "logarithmic" => Schedule::Logarithmic { t0 },
        "lundy_mees" => Schedule::LundyMees {
            t0,
            beta: num("beta")?,
        },
        "reheating" => Schedule::Reheating {
            t0,
            decay: num("decay")?,
            patience: num("patience")? as u64,
        },
        "constant" => Schedule::Constant { t0 },
        "geometric_end" => Schedule::GeometricEnd {
            t0,
            t_end: num("end_temperature")?,
        },
        "linear_end" => Schedule::LinearEnd {
            t0,
            t_end: num("end_temperature")?,
        },
        "adaptive" => Schedule::Adaptive {
            t0,
            target: num("target_acceptance")?,
        },
        other => anyhow::bail!("unknown schedule {other}"),
    })
}

/// `anneal`'s canonical form: its schedule reduced ([`Schedule::canonical`]) and its
/// other parameters as they are.
pub const ANNEAL_CANONICAL: CanonicalFunction = CanonicalFunction {
    algorithm: "anneal",
    canonical: anneal_canonical,
};

/// The parameters that say which schedule runs; the others are kept as they are.
const SCHEDULE_PARAMS: [&str; 7] = [
    "schedule",
    "initial_temperature",
    "decay",
    "beta",
    "patience",
    "end_temperature",
    "target_acceptance",
];

fn anneal_canonical(row: &std::collections::BTreeMap<String, String>) -> Option<(String, String)> {
    let num = |name: &str| -> anyhow::Result<f64> {
        let text = row.get(name).map(String::as_str).unwrap_or_default();
        text.parse::<f64>()
            .map_err(|_| anyhow::anyhow!("{name} = {text:?} is not a number"))
    };
    let s = schedule_of(row.get("schedule")?, &num).ok()?.canonical();
    let mut key = format!("{s:?}");
    for p in anneal().params.iter().map(|p| p.name) {
        if !SCHEDULE_PARAMS.contains(&p) {
            key.push_str(&format!(
                ", {p} = {}",
                row.get(p).map_or("", |v| v.as_str())
            ));
        }
    }
    let words = match &s {
        Schedule::Constant { t0 } => format!("Metropolis at the constant temperature T0 = {t0}"),
        other => format!("{} schedule {other:?}", other.name()),
    };
    Some((key, words))
}

/// A maze as one string, rows separated by '/': compact for a table cell.
pub fn maze_code(maze: &Maze) -> String {
    maze.jumps()
        .chunks(maze.size())
        .map(|r| r.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("/")
}

/// The maze a [`maze_code`] stands for.
pub fn parse_maze_code(code: &str) -> Option<Maze> {
    let rows: Vec<&str> = code.split('/').collect();
    let jumps: Option<Vec<u8>> = rows
        .iter()
        .flat_map(|r| r.split_whitespace())
        .map(|t| t.parse().ok())
        .collect();
    Maze::from_jumps(rows.len(), jumps?).ok()
}

/// A picture of a maze given by its [`maze_code`]: jump numbers, the goal marked G,
/// each jump of one shortest path as an arrow numbered in the cell it leaves, and the
/// cells no sequence of jumps reaches from the start shaded.
pub fn maze_picture(code: &str, title: &str) -> Option<crate::present::plot::BoardPicture> {
    let maze = parse_maze_code(code)?;
    let labels = maze
        .jumps()
        .iter()
        .enumerate()
        .map(|(c, j)| {
            if c == maze.goal() {
                "G".to_string()
            } else {
                j.to_string()
            }
        })
        .collect();
    let distances = crate::rjm::evaluate::distances(&maze);
    Some(crate::present::plot::BoardPicture {
        title: title.to_string(),
        size: maze.size(),
        labels,
        path: crate::rjm::evaluate::shortest_path(&maze).unwrap_or_default(),
        start: Some(0),
        goal: Some(maze.goal()),
        shaded: (0..distances.len())
            .filter(|&c| distances[c].is_none())
            .collect(),
        shaded_means: "unreachable from the start".into(),
    })
}

fn run_escape(params: &Params, seeds: Seeds, _: &RunContext) -> anyhow::Result<RunOutput> {
    let started = Instant::now();
    let size = params.int("size")? as usize;
    let p = params.float("uphill_probability")?;
    let window = params.int("window")? as u64;
    let start = Maze::random(size, &mut rng_from_seed(seeds.instance));
    let rng = &mut rng_from_seed(seeds.run);
    let r = crate::with_maze_bits!(size, B => {
        let mut land = MazeLandscape::<B>::new(&start);
        let minimum = descend_to_local_minimum(&mut land, rng);
        let trial = escape_trial(&mut land, rng, p, window, minimum.energy);
        let seconds = started.elapsed().as_secs_f64();
        let best = minimum.energy as i64;
        RunOutput::of(EscapeMetrics {
            minimum_objective: best,
            minimum_path_length: (best != UNREACHABLE).then_some(-best),
            sideways_neighbours: minimum.sideways_neighbours,
            uphill_neighbours: minimum.uphill_neighbours,
            descent_steps: minimum.descent_steps,
            escaped: trial.escaped,
            iterations_to_escape: trial.iterations_to_escape,
            uphill_steps: trial.uphill_steps,
            uphill_proposals: trial.uphill_proposals,
            evaluations_used: land.evaluations(),
            time_seconds: seconds,
            evaluations_per_second: land.evaluations() as f64 / seconds.max(1e-9),
        })
    });
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::params::Value;

    #[test]
    fn every_best_maze_picture_reads_cleanly_up_to_ten_by_ten() {
        let records = crate::rjm::best::built_in().unwrap();
        let ten = records
            .iter()
            .find(|r| r.size == 10)
            .expect("a 10×10 record");
        for r in &records {
            let pic = maze_picture(&r.maze, "best").expect("a valid maze");
            let layout = pic.layout();
            assert_eq!(layout.jumps.len(), pic.path.len() - 1);
            assert!(
                layout.collisions().is_empty(),
                "{}×{}: {:?}",
                r.size,
                r.size,
                layout.collisions()
            );
        }
        assert!(maze_picture(&ten.maze, "").unwrap().path.len() > 90);
    }

    #[test]
    fn a_configs_variant_label_names_the_variant_column() {
        let path = "configs/rjm_methods_sizes.toml";
        let c = crate::pipeline::config::parse(&std::fs::read_to_string(path).unwrap(), path, &[])
            .unwrap();
        let r = runner();
        let plan = crate::pipeline::plan::plan(&c, &[&r]).unwrap();
        let words = crate::present::words::Words::of_plan(&plan);
        assert_eq!(words.of("variant"), "method");
    }

    /// Runs `algorithm` with both seeds `seed`.
    fn run(algorithm: &str, params: &Params, seed: u64) -> anyhow::Result<RunOutput> {
        let r = runner();
        let a = r.algorithm(algorithm).expect("an rjm algorithm");
        let seeds = Seeds {
            run: seed,
            instance: seed,
        };
        crate::pipeline::runner::with_default_context(None, |ctx| (a.run)(params, seeds, ctx))
    }

    fn params(pairs: &[(&str, Value)]) -> Params {
        let runner = runner();
        let algo = pairs
            .iter()
            .find(|(k, _)| *k == "algorithm")
            .and_then(|(_, v)| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let spec = runner
            .algorithms
            .into_iter()
            .find(|a| a.name == algo)
            .unwrap();
        let mut p = Params::default();
        for s in spec.params {
            p.set(s.name, s.default.unwrap_or(Value::Null));
        }
        for (k, v) in pairs.iter().filter(|(k, _)| *k != "algorithm") {
            p.set(k, v.clone());
        }
        p
    }

    #[test]
    fn runs_are_reproducible_apart_from_timing() {
        let p = params(&[
            ("algorithm", "anneal".into()),
            ("evaluations", Value::Int(3000)),
        ]);
        let a = run("anneal", &p, 17).unwrap();
        let b = run("anneal", &p, 17).unwrap();
        let strip = |r: &RunOutput| {
            r.metrics
                .iter()
                .filter(|(k, _)| !k.ends_with("_seconds") && !k.ends_with("_per_second"))
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&a), strip(&b));
        assert_eq!(a.anytime, b.anytime);
        let c = run("anneal", &p, 18).unwrap();
        assert_ne!(strip(&a), strip(&c));
    }

    #[test]
    fn best_maze_round_trips_and_matches_the_objective() {
        let p = params(&[
            ("algorithm", "hill_descent".into()),
            ("evaluations", Value::Int(2000)),
            ("size", Value::Int(8)),
        ]);
        let out = run("hill_descent", &p, 3).unwrap();
        let get = |k: &str| {
            out.metrics
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.clone())
                .unwrap()
        };
        let maze = parse_maze_code(get("best_maze").as_str().unwrap()).unwrap();
        assert_eq!(
            Value::Int(crate::rjm::evaluate::objective(&maze)),
            get("best_objective")
        );
        // The budget is spent exactly; the anytime curve ends at it.
        assert_eq!(out.anytime.last().map(|a| a.0), Some(2000));
        let p5 = params(&[
            ("algorithm", "hill_descent".into()),
            ("evaluations", Value::Int(2000)),
            ("descents", Value::Int(5)),
        ]);
        let five = run("hill_descent", &p5, 3).unwrap();
        let restarts = five
            .metrics
            .iter()
            .find(|(n, _)| *n == "restarts_done")
            .unwrap();
        assert_eq!(restarts.1, Value::Int(4));
    }

    #[test]
    fn fixed_start_seed_fixes_the_starting_maze() {
        let metric = |r: &RunOutput, k: &str| {
            r.metrics
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.clone())
                .unwrap()
        };
        let fixed = params(&[
            ("algorithm", "hill_descent".into()),
            ("evaluations", Value::Int(10)),
            ("start_seed", Value::Int(5)),
        ]);
        let start = Maze::random(5, &mut rng_from_seed(5));
        let want = Value::Int(crate::rjm::evaluate::objective(&start));
        let free = params(&[
            ("algorithm", "hill_descent".into()),
            ("evaluations", Value::Int(10)),
        ]);
        let mut starts = std::collections::HashSet::new();
        for seed in 0..20 {
            assert_eq!(
                metric(
                    &run("hill_descent", &fixed, seed).unwrap(),
                    "start_objective"
                ),
                want
            );
            starts.insert(format!(
                "{:?}",
                metric(
                    &run("hill_descent", &free, seed).unwrap(),
                    "start_objective"
                )
            ));
        }
        assert!(
            starts.len() > 1,
            "without start_seed the start varies with the run's seed"
        );
    }

    #[test]
    fn escape_trials_start_from_true_local_minima() {
        let p = params(&[
            ("algorithm", "escape".into()),
            ("uphill_probability", Value::Float(0.0)),
            ("window", Value::Int(200)),
        ]);
        for seed in 0..10 {
            let out = run("escape", &p, seed).unwrap();
            let get = |k: &str| {
                out.metrics
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.clone())
                    .unwrap()
            };
            assert_eq!(get("uphill_steps"), Value::Int(0));
            // Without sideways neighbours and without uphill steps nothing can escape.
            if get("sideways_neighbours") == Value::Int(0) {
                assert_eq!(get("escaped"), Value::Bool(false));
            }
        }
    }
    #[test]
    fn default_annealing_cools_over_the_whole_budget() {
        // A config that sets only the budget: the temperature falls from T0 = 1 to
        // T_end = 0.2 at the last evaluation, whatever the budget.
        for evaluations in [1_000u64, 30_000] {
            let p = params(&[
                ("algorithm", "anneal".into()),
                ("evaluations", Value::Int(evaluations as i64)),
            ]);
            let s = schedule(&p).unwrap();
            assert_eq!(s.name(), "geometric_end");
            let mut c = s.start(evaluations);
            assert_eq!(c.temperature(), 1.0);
            for i in 1..=evaluations {
                if i == evaluations / 2 {
                    assert!((c.temperature() - 0.2f64.sqrt()).abs() < 1e-3);
                }
                c.advance(i, evaluations, false);
            }
            assert!((c.temperature() - 0.2).abs() < 1e-9, "{}", c.temperature());
        }
    }
    #[test]
    fn annealing_that_keeps_its_temperature_is_the_constant_schedule() {
        let row = |pairs: &[(&str, &str)]| -> std::collections::BTreeMap<String, String> {
            let mut r: std::collections::BTreeMap<String, String> = [
                ("algorithm", "anneal"),
                ("size", "5"),
                ("evaluations", "10000"),
                ("start_seed", "2026"),
                ("sideways_cap", ""),
            ]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
            r.extend(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())));
            r
        };
        let form = |pairs: &[(&str, &str)]| anneal_canonical(&row(pairs)).unwrap();
        let constant = form(&[("schedule", "constant"), ("initial_temperature", "0.5")]);
        let geometric = form(&[
            ("schedule", "geometric"),
            ("initial_temperature", "0.5"),
            ("decay", "1.0"),
        ]);
        assert_eq!(geometric, constant);
        assert_eq!(
            constant.1,
            "Metropolis at the constant temperature T0 = 0.5"
        );
        let cooling = form(&[
            ("schedule", "geometric"),
            ("initial_temperature", "0.5"),
            ("decay", "0.999"),
        ]);
        assert_ne!(cooling.0, constant.0);
        // Another budget is another algorithm run.
        let mut longer = row(&[("schedule", "constant"), ("initial_temperature", "0.5")]);
        longer.insert("evaluations".into(), "20000".into());
        assert_ne!(anneal_canonical(&longer).unwrap().0, constant.0);
    }
}
