//! The sliding-tile domain as the experiment pipeline sees it: IDA* on the benchmark
//! sets (`ida`) and BFS, DFS, A* and IDA* on random 8-puzzles of a chosen optimal
//! distance (`random8`), with the 15-puzzle assignment's metrics and nodes per second in every row.
//! `random8` draws its instance from `instance_seed` when set (else from the run's
//! seed), so an experiment can give every algorithm the same instances.
//!
//! `ida` also takes the pattern-database heuristics `pdb:5-5-5`, `pdb:6-6-3`, `pdb:7-8`
//! (15-puzzle) and `pdb:6-6-6-6` (24-puzzle), with the reflection: the tables come from
//! the cache folder ([`pdb::pipeline_cache`], `outputs/pdb` by default), built there once
//! when missing, and are shared by all the runs of the process ([`pdb::shared`]). The time
//! a run spends loading or building them is `heuristic_setup_seconds`, not part of
//! `time_seconds`; `heuristic_bytes` is the tables' memory.

use crate::pipeline::metrics::MetricsSpec;
use crate::pipeline::params::{ParamSpec, Params};
use crate::pipeline::runner::{AlgorithmSpec, RunOutput, Runner};
use crate::tiles::board::{Board, MoveOrder, Shape};
use crate::tiles::census;
use crate::tiles::heuristic::Heuristic;
use crate::tiles::ida;
use crate::tiles::instances::InstanceSet;
use crate::tiles::solve::Problem;
use crate::tiles::{pdb, pdb_ida};
use crate::user_bail;
use rand::RngExt;
use std::time::Instant;

/// Every permutation of U, D, L, R, for the `move_order` choice.
const MOVE_ORDERS: &[&str] = &[
    "UDLR", "UDRL", "ULDR", "ULRD", "URDL", "URLD", "DULR", "DURL", "DLUR", "DLRU", "DRUL", "DRLU",
    "LUDR", "LURD", "LDUR", "LDRU", "LRUD", "LRDU", "RUDL", "RULD", "RDUL", "RDLU", "RLUD", "RLDU",
];

crate::metrics! {
    /// What a sliding-tile search measures (IDA* on a benchmark instance, or any search on
    /// a random 8-puzzle).
    pub struct TilesMetrics {
        h0: u32,
        optimal: Option<u64>,
        solved: bool,
        solution_length: Option<usize>,
        generated: u64,
        expanded: u64,
        max_frontier: u64,
        thresholds: Option<String>,
        time_seconds: f64,
        nodes_per_second: Option<f64>,
        expanded_per_second: Option<f64>,
        heuristic_setup_seconds: Option<f64>,
        heuristic_bytes: Option<u64>,
    }
}

pub struct TilesRunner;

impl Runner for TilesRunner {
    fn domain(&self) -> &'static str {
        "tiles"
    }

    fn description(&self) -> &'static str {
        "Sliding-tile puzzles: IDA* on Korf's benchmark sets, and BFS/DFS/A*/IDA* on random 8-puzzles"
    }

    fn algorithms(&self) -> Vec<AlgorithmSpec> {
        vec![
            AlgorithmSpec {
                name: "ida",
                // 2: pattern-database heuristics; heuristic_setup_seconds and heuristic_bytes.
                version: 2,
                description: "IDA* (fast, one blank) on a benchmark instance",
                metrics: MetricsSpec::of::<TilesMetrics>(),
                params: vec![
                    ParamSpec::choice(
                        "instance_set",
                        InstanceSet::NAMES,
                        Some("assignment"),
                        "korf100, assignment (ids 1,2,3,4,14,88) or korf24",
                    ),
                    ParamSpec::int(
                        "instance",
                        1,
                        100,
                        None,
                        "the instance id in its set (Korf's numbering)",
                    ),
                    ParamSpec::text(
                        "heuristic",
                        "manhattan, linear, corner, last, all, pdb:5-5-5, pdb:6-6-3, pdb:7-8, pdb:6-6-6-6, or pdb: and groups of tiles like pdb:1,2,3/4,5,6",
                        pdb::check_ida_heuristic,
                        Some("manhattan"),
                        "manhattan, linear, corner, last, all, or additive pattern databases with the reflection: pdb:5-5-5, pdb:6-6-3, pdb:7-8 (15-puzzle), pdb:6-6-6-6 (24-puzzle), or pdb: and groups of tiles like pdb:1,2,3,4,5,6,7/8,9,10,11,12,13,14,15; tables are cached in outputs/pdb (or $SEARCHLAB_PDB_CACHE)",
                    ),
                    ParamSpec::choice(
                        "move_order",
                        MOVE_ORDERS,
                        Some("ULRD"),
                        "order of the blank's moves (Korf's: ULRD)",
                    ),
                    ParamSpec::optional_int(
                        "expand_limit",
                        1,
                        i64::MAX,
                        "give up after this many expansions",
                    ),
                ],
            },
            AlgorithmSpec {
                name: "random8",
                // 2: dfs_limit belongs to dfs (absent from the other searches' runs).
                // 3: the heuristic_setup_seconds and heuristic_bytes columns (empty here).
                version: 3,
                description: "BFS, DFS, A* or IDA* on a random 8-puzzle at a chosen optimal distance",
                metrics: MetricsSpec::of::<TilesMetrics>(),
                params: vec![
                    ParamSpec::choice(
                        "search",
                        &["bfs", "dfs", "astar", "ida"],
                        None,
                        "the search algorithm (`search`, as `algorithm` is the table's column for random8 itself)",
                    ),
                    ParamSpec::int(
                        "depth_min",
                        0,
                        31,
                        Some(10),
                        "smallest optimal distance of the random instance",
                    ),
                    ParamSpec::int(
                        "depth_max",
                        0,
                        31,
                        Some(20),
                        "largest optimal distance (the distance is drawn uniformly in the band)",
                    ),
                    ParamSpec::optional_int(
                        "depth",
                        0,
                        31,
                        "exact optimal distance (overrides depth_min and depth_max)",
                    ),
                    ParamSpec::optional_int(
                        "instance_seed",
                        0,
                        i64::MAX,
                        "draw the instance from this seed instead of the run's, so that every algorithm gets the same instances",
                    ),
                    ParamSpec::choice(
                        "heuristic",
                        Heuristic::NAMES,
                        Some("manhattan"),
                        "heuristic of astar and ida",
                    ),
                    ParamSpec::choice(
                        "move_order",
                        MOVE_ORDERS,
                        Some("UDLR"),
                        "order of the blank's moves (the 8-puzzle assignment's: UDLR)",
                    ),
                    ParamSpec::optional_int("dfs_limit", 1, i64::MAX, "expansion limit of dfs")
                        .only_when("search", &["dfs"]),
                ],
            },
        ]
    }

    fn run(&self, algorithm: &str, params: &Params, seed: u64) -> anyhow::Result<RunOutput> {
        match algorithm {
            "ida" => run_ida(params),
            "random8" => run_random8(params, seed),
            other => {
                user_bail!("the tiles domain has no algorithm {other:?} (it has ida, random8)")
            }
        }
    }
}

fn heuristic(params: &Params) -> anyhow::Result<Heuristic> {
    let name = params.str("heuristic")?;
    Heuristic::from_name(name).ok_or_else(|| crate::user_error!("unknown heuristic {name:?}"))
}

fn run_ida(params: &Params) -> anyhow::Result<RunOutput> {
    let set_name = params.str("instance_set")?;
    let set = InstanceSet::from_name(set_name)
        .ok_or_else(|| crate::user_error!("unknown instance_set {set_name:?}"))?;
    let id = params.int("instance")?;
    let inst = set.instance(u32::try_from(id).unwrap_or(0))?;
    let order = MoveOrder::parse(params.str("move_order")?)?;
    let limit = params.opt_int("expand_limit")?.map(|l| l as u64);
    let goal = Board::default_goal(inst.board.shape(), 1);
    let name = params.str("heuristic")?;
    let (r, setup, bytes) = match pdb::heuristic_partition(name) {
        Some(partition) => {
            let started = Instant::now();
            let (h, _) = pdb::shared(&goal, partition, &pdb::pipeline_cache())?;
            let setup = started.elapsed().as_secs_f64();
            let r = pdb_ida::solve(&inst.board, &h, order, limit);
            (r, Some(setup), Some(h.bytes() as u64))
        }
        None => (
            ida::solve(&inst.board, &goal, heuristic(params)?, order, limit),
            None,
            None,
        ),
    };
    Ok(RunOutput::of(TilesMetrics {
        h0: r.h0,
        optimal: Some(u64::from(inst.optimal)),
        solved: r.moves.is_some(),
        solution_length: r.solution_length(),
        generated: r.generated,
        expanded: r.expanded,
        max_frontier: u64::from(r.max_depth),
        thresholds: Some(r.thresholds_text()),
        time_seconds: r.seconds,
        nodes_per_second: per_second(r.generated, r.seconds),
        expanded_per_second: per_second(r.expanded, r.seconds),
        heuristic_setup_seconds: setup,
        heuristic_bytes: bytes,
    }))
}

fn per_second(n: u64, secs: f64) -> Option<f64> {
    (secs > 0.0).then(|| n as f64 / secs)
}

fn run_random8(params: &Params, seed: u64) -> anyhow::Result<RunOutput> {
    let (lo, hi) = match params.opt_int("depth")? {
        Some(d) => (d, d),
        None => (params.int("depth_min")?, params.int("depth_max")?),
    };
    if lo > hi {
        user_bail!("depth_min = {lo} is larger than depth_max = {hi}");
    }
    let instance_seed = params.opt_int("instance_seed")?.map_or(seed, |s| {
        crate::util::rng::derive_seed(0, "tiles/random8 instance", s as u64)
    });
    let mut rng = crate::util::rng::rng_from_seed(instance_seed);
    let depth = rng.random_range(lo..=hi) as usize;
    let index = rng.random_range(0..usize::MAX);
    let start = census::eight_puzzle_at(depth, index)
        .ok_or_else(|| anyhow::anyhow!("no 8-puzzle state at distance {depth}"))?;
    let goal = Board::default_goal(
        Shape {
            width: 3,
            height: 3,
        },
        1,
    );
    let order = MoveOrder::parse(params.str("move_order")?)?;
    let h = heuristic(params)?;
    let limit = params.opt_int("dfs_limit")?.map(|l| l as u64);
    let problem = Problem::new(start, goal, order, h);
    let started = Instant::now();
    let o = match params.str("search")? {
        "bfs" => problem.bfs(limit),
        "dfs" => problem.dfs(limit),
        "astar" => problem.astar(limit),
        "ida" => problem.ida(limit),
        other => user_bail!("random8 has no search {other:?} (bfs, dfs, astar, ida)"),
    };
    let secs = started.elapsed().as_secs_f64();
    let thresholds = (!o.stats.thresholds.is_empty()).then(|| {
        o.stats
            .thresholds
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    });
    Ok(RunOutput::of(TilesMetrics {
        h0: problem.h(&start),
        optimal: Some(depth as u64),
        solved: o.path.is_some(),
        solution_length: o.path.as_ref().map(|p| p.len() - 1),
        generated: o.stats.generated,
        expanded: o.stats.expanded,
        max_frontier: o.stats.max_frontier,
        thresholds,
        time_seconds: secs,
        nodes_per_second: per_second(o.stats.generated, secs),
        expanded_per_second: per_second(o.stats.expanded, secs),
        heuristic_setup_seconds: None,
        heuristic_bytes: None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::params::Value;

    fn params(pairs: &[(&str, Value)], algorithm: &str) -> Params {
        let spec = TilesRunner
            .algorithms()
            .into_iter()
            .find(|a| a.name == algorithm)
            .unwrap();
        let mut p = Params::default();
        for s in &spec.params {
            if let Some(d) = &s.default {
                p.set(s.name, d.clone());
            }
        }
        for (k, v) in pairs {
            let s = spec.params.iter().find(|s| s.name == *k).unwrap();
            p.set(k, s.check(v).unwrap());
        }
        p
    }

    fn metric<'a>(out: &'a RunOutput, name: &str) -> &'a Value {
        &out.metrics.iter().find(|(n, _)| *n == name).unwrap().1
    }

    /// The metrics that must not depend on timing.
    fn reproducible(out: &RunOutput) -> Vec<(&'static str, Value)> {
        out.metrics
            .iter()
            .filter(|(n, _)| !n.ends_with("_seconds") && !n.ends_with("_per_second"))
            .cloned()
            .collect()
    }

    #[test]
    fn ida_reports_korfs_counts() {
        let p = params(
            &[
                ("instance_set", "korf100".into()),
                ("instance", Value::Int(9)),
            ],
            "ida",
        );
        let out = TilesRunner.run("ida", &p, 0).unwrap();
        assert_eq!(metric(&out, "generated"), &Value::Int(1_650_696));
        assert_eq!(metric(&out, "solution_length"), &Value::Int(46));
        assert_eq!(metric(&out, "h0"), &Value::Int(32));
        for (name, _) in &out.metrics {
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit())
            );
        }
        let bad = params(&[("instance", Value::Int(5))], "ida");
        let err = TilesRunner.run("ida", &bad, 0).unwrap_err();
        assert!(crate::util::error::is_user_error(&err));
    }

    #[test]
    fn ida_takes_the_pattern_databases_from_a_shared_cache() {
        let dir = tempfile::tempdir().unwrap();
        pdb::set_pipeline_cache(dir.path());
        let p = params(
            &[
                ("instance_set", "korf100".into()),
                ("instance", Value::Int(9)),
                ("heuristic", "pdb:5-5-5".into()),
            ],
            "ida",
        );
        // Two runs at once: one builds the three tables, the other waits for them.
        let (a, b) = rayon::join(
            || TilesRunner.run("ida", &p, 0).unwrap(),
            || TilesRunner.run("ida", &p, 1).unwrap(),
        );
        assert_eq!(reproducible(&a), reproducible(&b));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
        // The same search as the PDB IDA* with tables built here.
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let partition = pdb::Partition::parse("5-5-5", &goal).unwrap();
        let tables = partition
            .groups
            .iter()
            .map(|g| pdb::build(&goal, g, &|_, _| {}))
            .collect();
        let h = pdb::PdbHeuristic::new(&goal, partition, tables, true);
        let inst = InstanceSet::Korf100.instance(9).unwrap();
        let r = pdb_ida::solve(&inst.board, &h, MoveOrder::KORF, None);
        assert_eq!(metric(&a, "generated"), &Value::Int(r.generated as i64));
        assert_eq!(metric(&a, "solution_length"), &Value::Int(46));
        assert_eq!(metric(&a, "h0"), &Value::Int(i64::from(r.h0)));
        // Fewer nodes than Manhattan distance's 1,650,696; 3 tables of 16!/11! entries, 4 bits each.
        assert!(r.generated < 1_650_696 / 10, "{}", r.generated);
        assert_eq!(metric(&a, "heuristic_bytes"), &Value::Int(3 * 524_160 / 2));
        assert!(metric(&a, "heuristic_setup_seconds").as_f64().unwrap() >= 0.0);
        let bad = params(
            &[
                ("instance_set", "korf100".into()),
                ("heuristic", "pdb:6-6-6-6".into()),
                ("instance", Value::Int(1)),
            ],
            "ida",
        );
        let err = TilesRunner.run("ida", &bad, 0).unwrap_err();
        assert!(crate::util::error::is_user_error(&err));
        assert!(err.to_string().contains("5x5"), "{err}");
    }

    #[test]
    fn random8_is_reproducible_and_optimal_where_it_should_be() {
        for alg in ["bfs", "dfs", "astar", "ida"] {
            let p = params(
                &[
                    ("search", alg.into()),
                    ("depth_min", Value::Int(12)),
                    ("depth_max", Value::Int(16)),
                ],
                "random8",
            );
            let a = TilesRunner.run("random8", &p, 7).unwrap();
            let b = TilesRunner.run("random8", &p, 7).unwrap();
            assert_eq!(reproducible(&a), reproducible(&b), "{alg}");
            let optimal = metric(&a, "optimal").as_i64().unwrap();
            assert!((12..=16).contains(&optimal));
            let len = metric(&a, "solution_length").as_i64().unwrap();
            if alg == "dfs" {
                assert!(len >= optimal);
            } else {
                assert_eq!(len, optimal, "{alg}");
            }
        }
        // With an instance seed, every algorithm gets the same instance.
        let same = |alg: &str| {
            let p = params(
                &[
                    ("search", alg.into()),
                    ("depth", Value::Int(14)),
                    ("instance_seed", Value::Int(3)),
                ],
                "random8",
            );
            let out = TilesRunner.run("random8", &p, 99).unwrap();
            (metric(&out, "optimal").clone(), metric(&out, "h0").clone())
        };
        assert_eq!(same("bfs"), same("astar"));
        assert_eq!(same("bfs").0, Value::Int(14));
        let p = params(
            &[("search", "dfs".into()), ("dfs_limit", Value::Int(100))],
            "random8",
        );
        let out = TilesRunner.run("random8", &p, 1).unwrap();
        assert_eq!(metric(&out, "expanded"), &Value::Int(100));
        assert_eq!(metric(&out, "solved"), &Value::Bool(false));
    }
}
