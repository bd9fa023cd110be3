//! The sliding-tile domain as the experiment pipeline sees it: IDA* on the benchmark
//! sets (`ida`) and BFS, DFS, A* and IDA* on random 8-puzzles of a chosen optimal
//! distance (`random8`), with the 15-puzzle assignment's metrics and nodes per second in every row.
//! `random8` draws its board from the run's instance seed, which depends only on the
//! replicate and the distance parameters: every search of an experiment meets the same
//! boards.
//!
//! `ida` also takes the pattern-database heuristics `pdb:5-5-5`, `pdb:6-6-3`, `pdb:7-8`
//! (15-puzzle), `pdb:6-6-6-6`, `pdb:6-6-6-6x4`, `pdb:6-6-6-6x7` and `pdb:6-6-6-6x14`
//! (24-puzzle), custom partitions and maxima over several, with the reflection: the
//! tables come from the run context's cache folder (`<out>/pdb` by default), built there
//! once when missing, and are shared by all the runs of the process through the context's
//! memo ([`pdb::shared`]), as is the pruning machine ([`crate::tiles::fsm::Fsm::shared`]).
//! The time a run spends loading or building them is `heuristic_setup_seconds` (with the
//! tables' spread copies for the search, made in memory), not part of `time_seconds`;
//! `heuristic_bytes` is the packed tables' memory, as the papers count it (the spread
//! copies take more: 1.9 times as much for the 24-puzzle's six-tile tables). The search's
//! options (`pruning`, `fsm_depth`) are described once, in [`crate::tiles::options`].
//!
//! `ida` records a checkpoint after an iteration (its thresholds and counts so far,
//! [`crate::tiles::deepen::Checkpoint`]) in the journal's checkpoint log, at most one per
//! tenth of a second; a run that was
//! killed resumes at its next threshold and ends with the counts of an uninterrupted run.

use crate::pipeline::metrics::MetricsSpec;
use crate::pipeline::params::{ParamSpec, Params};
use crate::pipeline::runner::{Algorithm, CacheSpec, RunContext, RunOutput, Runner, Seeds};
use crate::search::{Limits, Stop};
use crate::tiles::board::{Board, MoveOrder, Shape};
use crate::tiles::census;
use crate::tiles::deepen::{Checkpoint, Control, IdaResult};
use crate::tiles::fsm::Fsm;
use crate::tiles::heuristic::Heuristic;
use crate::tiles::ida;
use crate::tiles::instances::InstanceSet;
use crate::tiles::options::{self, Options};
use crate::tiles::solve::Problem;
use crate::tiles::{pdb, pdb_ida};
use crate::user_bail;
use crate::util::observe::{Observer, Task, Work};
use rand::RngExt;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The least time between two checkpoints of an `ida` run (each is a synced write).
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

/// Every permutation of U, D, L, R, for the `move_order` choice.
const MOVE_ORDERS: &[&str] = &[
    "UDLR", "UDRL", "ULDR", "ULRD", "URDL", "URLD", "DULR", "DURL", "DLUR", "DLRU", "DRUL", "DRLU",
    "LUDR", "LURD", "LDUR", "LDRU", "LRUD", "LRDU", "RUDL", "RULD", "RDUL", "RDLU", "RLUD", "RLDU",
];

crate::metrics! {
    /// What a sliding-tile search measures (IDA* on a benchmark instance, or any search on
    /// a random 8-puzzle).
    pub struct TilesMetrics {
        /// The heuristic's estimate of the start, h(s0).
        h0: u32 [none, "h(s0)", "moves"],
        /// The optimal solution length: the published one, or the 8-puzzle's true distance.
        optimal: Option<u64> [none, "optimal length", "moves"],
        /// Whether the search found a solution within its limits.
        solved: bool [higher, "solved", ""],
        /// Moves of the solution found.
        solution_length: Option<usize> [lower, "solution length", "moves"],
        /// Nodes generated (successors created).
        generated: u64 [lower, "nodes generated", "nodes"],
        /// Nodes expanded (whose successors were generated).
        expanded: u64 [lower, "nodes expanded", "nodes"],
        /// The largest frontier (queue, or IDA*'s deepest path).
        max_frontier: u64 [lower, "largest frontier", "nodes"],
        /// IDA*'s thresholds, in order.
        thresholds: Option<String> [none, "thresholds", ""],
        /// Wall-clock time of the search, the heuristic's setup excluded.
        time_seconds: f64 [lower, "time", "s"],
        /// Generated nodes per second.
        nodes_per_second: Option<f64> [higher, "nodes per second", "nodes/s"],
        /// Expanded nodes per second.
        expanded_per_second: Option<f64> [higher, "expansions per second", "nodes/s"],
        /// Time spent loading or building pattern databases before the search.
        heuristic_setup_seconds: Option<f64> [lower, "heuristic setup", "s"],
        /// Memory of the heuristic's tables.
        heuristic_bytes: Option<u64> [lower, "heuristic memory", "bytes"],
    }
}

/// The sliding-tile algorithms.
pub fn runner() -> Runner {
    Runner {
        domain: "tiles",
        description: "Sliding-tile puzzles: IDA* on Korf's benchmark sets, and BFS/DFS/A*/IDA* on random 8-puzzles",
        cache: Some(CacheSpec {
            folder: "pdb",
            env: "SEARCHLAB_PDB_CACHE",
        }),
        dimension: None,
        objective: None,
        algorithms: vec![ida_algorithm(), random8_algorithm()],
    }
}

/// `ida`: the fast IDA* on a benchmark instance.
fn ida_algorithm() -> Algorithm {
    let mut params = vec![
        ParamSpec::choice(
            "instance_set",
            InstanceSet::NAMES,
            Some("assignment"),
            "korf100, assignment (ids 1,2,3,4,14,88) or korf24",
        )
        .instance(),
        ParamSpec::int(
            "instance",
            1,
            100,
            None,
            "the instance id in its set (Korf's numbering)",
        )
        .instance()
        .cost(ida_cost),
        ParamSpec::text(
            "heuristic",
            "manhattan, linear, corner, last, all, pdb:5-5-5, pdb:6-6-3, pdb:7-8, pdb:6-6-6-6, pdb:6-6-6-6x4, pdb:6-6-6-6x7, pdb:6-6-6-6x14, or pdb: and groups of tiles like pdb:1,2,3/4,5,6 (several partitions separated by |)",
            pdb::check_ida_heuristic,
            Some("manhattan"),
            "manhattan, linear, corner, last, all, or additive pattern databases with the reflection: pdb:5-5-5, pdb:6-6-3, pdb:7-8 (15-puzzle), pdb:6-6-6-6, pdb:6-6-6-6x4, pdb:6-6-6-6x7, pdb:6-6-6-6x14 (24-puzzle: the maximum over four, seven or fourteen partitions), or pdb: and groups of tiles like pdb:1,2,3,4,5,6,7/8,9,10,11,12,13,14,15, or several such partitions separated by | (the maximum over them); tables are cached in <out>/pdb (or $SEARCHLAB_PDB_CACHE)",
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
    ];
    params.extend(options::param_specs());
    Algorithm {
        name: "ida",
        // 2: pattern-database heuristics; heuristic_setup_seconds and heuristic_bytes.
        version: 2,
        description: "IDA* (fast, one blank) on a benchmark instance",
        metrics: MetricsSpec::of::<TilesMetrics>(),
        anytime: false,
        // Options removed since (the children's order, dual lookups, pathmax), at the
        // values every run had: the journals of earlier runs stay theirs.
        retired: &[("bpmx", "false"), ("dual", "false"), ("order_depth", "0")],
        run: run_ida,
        params,
    }
}

/// `random8`: any search on a random 8-puzzle.
fn random8_algorithm() -> Algorithm {
    Algorithm {
        name: "random8",
        // 2: dfs_limit belongs to dfs (absent from the other searches' runs).
        // 3: the heuristic_setup_seconds and heuristic_bytes columns (empty here).
        // 4: the board comes from the replicate's instance seed (no instance_seed).
        version: 4,
        description: "BFS, DFS, A* or IDA* on a random 8-puzzle at a chosen optimal distance",
        metrics: MetricsSpec::of::<TilesMetrics>(),
        anytime: false,
        retired: &[],
        run: run_random8,
        params: vec![
            ParamSpec::choice(
                "search",
                &["bfs", "dfs", "astar", "ida"],
                None,
                "the search algorithm (`search`, as `algorithm` is the table's column for random8 itself)",
            )
    .labelled("search algorithm"),
            ParamSpec::int(
                "depth_min",
                0,
                31,
                Some(10),
                "smallest optimal distance of the random instance",
            )
            .instance(),
            ParamSpec::int(
                "depth_max",
                0,
                31,
                Some(20),
                "largest optimal distance (the distance is drawn uniformly in the band)",
            )
            .instance(),
            ParamSpec::optional_int(
                "depth",
                0,
                31,
                "exact optimal distance (overrides depth_min and depth_max)",
            )
            .instance(),
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
    }
}

fn heuristic(params: &Params) -> anyhow::Result<Heuristic> {
    let name = params.str("heuristic")?;
    Heuristic::from_name(name).ok_or_else(|| crate::user_error!("unknown heuristic {name:?}"))
}

/// The estimated cost of an `ida` run, for scheduling only (longest first): IDA*'s
/// tree grows about 1.85 times per move between the start's heuristic value and the
/// published optimal length (fitted on the assignment's instances), times what a node
/// of the heuristic costs relative to the tree's size (linear conflicts' and the
/// pattern databases' trees are smaller, but their nodes dearer). A pattern database
/// counts from Manhattan distance, at a hundredth. 1 for a run it cannot read.
fn ida_cost(params: &Params) -> f64 {
    let instance = params
        .str("instance_set")
        .ok()
        .and_then(InstanceSet::from_name)
        .zip(params.int("instance").ok())
        .and_then(|(set, id)| set.instance(u32::try_from(id).ok()?).ok());
    let (Some(inst), Ok(name)) = (instance, params.str("heuristic")) else {
        return 1.0;
    };
    let t = crate::tiles::heuristic::Tables::new(&Board::default_goal(inst.board.shape(), 1));
    let (h0, weight) = match Heuristic::from_name(name) {
        Some(h) => {
            let weight = match h {
                Heuristic::Manhattan | Heuristic::Linear => 1.0,
                Heuristic::Corner | Heuristic::Last => 0.7,
                Heuristic::All => 0.5,
            };
            (t.evaluate(&inst.board.cells, h), weight)
        }
        None => (t.manhattan(&inst.board.cells), 0.01),
    };
    weight * 1.85f64.powi(inst.optimal.saturating_sub(h0) as i32)
}

fn run_ida(params: &Params, _: Seeds, ctx: &RunContext) -> anyhow::Result<RunOutput> {
    let set_name = params.str("instance_set")?;
    let set = InstanceSet::from_name(set_name)
        .ok_or_else(|| crate::user_error!("unknown instance_set {set_name:?}"))?;
    let id = params.int("instance")?;
    let inst = set.instance(u32::try_from(id).unwrap_or(0))?;
    let order = MoveOrder::parse(params.str("move_order")?)?;
    let limit = params.opt_int("expand_limit")?.map(|l| l as u64);
    let goal = Board::default_goal(inst.board.shape(), 1);
    let name = params.str("heuristic")?;
    let throttled = Throttled::new(ctx.observer);
    let control = Control {
        limits: Limits::expansions(limit).with_cancel(ctx.cancel),
        resume: ctx.resume.and_then(|v| {
            let checked = Checkpoint::from_json(v).and_then(|c| c.check().map(|()| c));
            checked
                .map_err(|e| {
                    ctx.observer.note(&format!(
                        "warning: the checkpoint of this run is discarded ({e}); it starts from its beginning"
                    ))
                })
                .ok()
        }),
        observer: &throttled,
    };
    let options = Options::from_params(params)?;
    let (r, setup, bytes) = match pdb::heuristic_partition(name) {
        Some(partition) => {
            let started = Instant::now();
            let (h, fsm) = set_up(&goal, partition, &options, ctx)?;
            let setup = started.elapsed().as_secs_f64();
            let r = pdb_search(&inst.board, &h, order, fsm.as_deref(), control, ctx);
            (r, Some(setup), Some(h.bytes() as u64))
        }
        None if options == Options::default() => (
            ida::solve_with(&inst.board, &goal, heuristic(params)?, order, control),
            None,
            None,
        ),
        None if name == "manhattan" => {
            let h = pdb::PdbHeuristic::manhattan(&goal);
            let fsm = options.machine(goal.shape(), ctx.memo);
            let r = pdb_search(&inst.board, &h, order, fsm.as_deref(), control, ctx);
            (r, None, None)
        }
        None => {
            let option = options::first_set(params).unwrap_or_default();
            user_bail!(
                "{option} needs heuristic = \"manhattan\" or a pattern database (pdb:…), not {name:?}"
            )
        }
    };
    if r.stop == Stop::Interrupted {
        throttled.flush();
        return Err(r.interruption().into());
    }
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

/// A run's heuristic and its pruning machine, if any.
type SetUp = (Arc<pdb::PdbHeuristic>, Option<Arc<Fsm>>);

/// The tables of `partition` towards `goal` and the pruning machine the options ask for,
/// both shared through the run context's memo and counted as set-up, made side by side:
/// the machine is built while the tables are loaded and spread, on a thread of its own
/// (its parallel parts on rayon's global pool, which takes no runs, so no run waiting for
/// the machine can be taken up by the thread building it).
fn set_up(
    goal: &Board,
    partition: &str,
    options: &Options,
    ctx: &RunContext,
) -> anyhow::Result<SetUp> {
    std::thread::scope(|s| {
        let fsm = s.spawn(|| options.machine(goal.shape(), ctx.memo));
        let shared = pdb::shared(goal, partition, ctx).inspect(|(h, _)| _ = h.spreads());
        let fsm = fsm
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        Ok((shared?.0, fsm))
    })
}

/// The IDA* with a table heuristic and the pruning machine `fsm` (if any), on the run's
/// threads: parallel when it has several (the same counts and solution as the serial
/// search).
fn pdb_search(
    start: &Board,
    h: &pdb::PdbHeuristic,
    order: MoveOrder,
    fsm: Option<&Fsm>,
    control: Control,
    ctx: &RunContext,
) -> IdaResult {
    if ctx.threads > 1 {
        pdb_ida::solve_parallel_with(start, h, order, fsm, control)
    } else {
        pdb_ida::solve_with(start, h, order, fsm, control)
    }
}

/// The observer of an `ida` run's search: notes and tasks pass on to the run's; an
/// iteration completed is a checkpoint (a run killed resumes at the next one), passed on
/// when [`CHECKPOINT_EVERY`] has passed since the last, else kept: short runs write
/// none, and a run stopped by a stop request writes the last it passed over
/// ([`Throttled::flush`]).
struct Throttled<'a> {
    run: &'a dyn Observer,
    /// When a checkpoint was last passed on, and the one kept since.
    pending: Mutex<(Instant, Option<serde_json::Value>)>,
}

impl<'a> Throttled<'a> {
    fn new(run: &'a dyn Observer) -> Throttled<'a> {
        Throttled {
            run,
            pending: Mutex::new((Instant::now(), None)),
        }
    }

    /// Passes on the checkpoint kept, if any.
    fn flush(&self) {
        let kept = self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .1
            .take();
        if let Some(state) = kept {
            self.run.checkpoint(&state);
        }
    }
}

impl Observer for Throttled<'_> {
    fn note(&self, text: &str) {
        self.run.note(text);
    }

    fn task(&self, work: &Work) -> Task<'_> {
        self.run.task(work)
    }

    fn checkpoint(&self, state: &serde_json::Value) {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        if pending.0.elapsed() >= CHECKPOINT_EVERY {
            self.run.checkpoint(state);
            *pending = (Instant::now(), None);
        } else {
            pending.1 = Some(state.clone());
        }
    }
}

fn per_second(n: u64, secs: f64) -> Option<f64> {
    (secs > 0.0).then(|| n as f64 / secs)
}

fn run_random8(params: &Params, seeds: Seeds, _: &RunContext) -> anyhow::Result<RunOutput> {
    let (lo, hi) = match params.opt_int("depth")? {
        Some(d) => (d, d),
        None => (params.int("depth_min")?, params.int("depth_max")?),
    };
    if lo > hi {
        user_bail!("depth_min = {lo} is larger than depth_max = {hi}");
    }
    let mut rng = crate::util::rng::rng_from_seed(seeds.instance);
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

    /// Runs `algorithm` with both seeds `seed`, its tables cached in `cache`.
    fn run_in(
        cache: Option<&std::path::Path>,
        algorithm: &str,
        p: &Params,
        seed: u64,
    ) -> anyhow::Result<RunOutput> {
        let r = runner();
        let a = r.algorithm(algorithm).expect("a tiles algorithm");
        let seeds = Seeds {
            run: seed,
            instance: seed,
        };
        crate::pipeline::runner::with_default_context(cache, |ctx| (a.run)(p, seeds, ctx))
    }

    fn run(algorithm: &str, p: &Params, seed: u64) -> anyhow::Result<RunOutput> {
        run_in(None, algorithm, p, seed)
    }

    fn params(pairs: &[(&str, Value)], algorithm: &str) -> Params {
        let spec = runner()
            .algorithms
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
        let out = run("ida", &p, 0).unwrap();
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
        let err = run("ida", &bad, 0).unwrap_err();
        assert!(crate::util::error::is_user_error(&err));
    }

    #[test]
    fn ida_takes_the_pattern_databases_from_a_shared_cache() {
        let dir = tempfile::tempdir().unwrap();
        let p = params(
            &[
                ("instance_set", "korf100".into()),
                ("instance", Value::Int(9)),
                ("heuristic", "pdb:5-5-5".into()),
            ],
            "ida",
        );
        // Two runs at once: one builds the three tables, the other waits for them.
        let r = runner();
        let ida = r.algorithm("ida").unwrap();
        let memo = crate::util::memo::Memo::default();
        let cancel = crate::util::cancel::Cancel::default();
        let ctx = RunContext {
            cache: Some(dir.path()),
            memory: crate::util::memory::DEFAULT_MEMORY_LIMIT,
            cancel: &cancel,
            observer: &crate::util::observe::Quiet,
            memo: &memo,
            resume: None,
            threads: 1,
        };
        let (a, b) = rayon::join(
            || (ida.run)(&p, Seeds::default(), &ctx).unwrap(),
            || (ida.run)(&p, Seeds::default(), &ctx).unwrap(),
        );
        assert_eq!(reproducible(&a), reproducible(&b));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
        // The same search as the PDB IDA* with tables built here.
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let partition = pdb::Partition::parse("5-5-5", &goal).unwrap();
        let tables = partition
            .groups
            .iter()
            .map(|g| pdb::build(&goal, g, &crate::util::observe::Quiet))
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
        let err = run_in(Some(dir.path()), "ida", &bad, 0).unwrap_err();
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
            let a = run("random8", &p, 7).unwrap();
            let b = run("random8", &p, 7).unwrap();
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
                &[("search", alg.into()), ("depth", Value::Int(14))],
                "random8",
            );
            let out = run("random8", &p, 3).unwrap();
            (metric(&out, "optimal").clone(), metric(&out, "h0").clone())
        };
        assert_eq!(same("bfs"), same("astar"));
        assert_eq!(same("bfs").0, Value::Int(14));
        let p = params(
            &[("search", "dfs".into()), ("dfs_limit", Value::Int(100))],
            "random8",
        );
        let out = run("random8", &p, 1).unwrap();
        assert_eq!(metric(&out, "expanded"), &Value::Int(100));
        assert_eq!(metric(&out, "solved"), &Value::Bool(false));
    }
}
