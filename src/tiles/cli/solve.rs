//! `tiles solve`: one instance, by IDA* (the fast one with Manhattan distance or pattern
//! databases, and its options), A*, BFS or DFS, printed as the assignments print it.

use super::common::{BoardArgs, cache_dir, classic_heuristic, load};
use crate::domain::ProgramEnv;
use crate::search::{Limits, Stop};
use crate::tiles::board::{Board, MoveOrder};
use crate::tiles::deepen::Control;
use crate::tiles::format;
use crate::tiles::heuristic::Heuristic;
use crate::tiles::ida::{self, IdaResult};
use crate::tiles::options::Flags;
use crate::tiles::solve::{Problem, moves_of};
use crate::tiles::{pdb, pdb_ida};
use crate::util::cancel::{Cancel, on_interrupt};
use crate::util::memo::Memo;
use crate::{user_bail, user_error};
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Algorithm {
    Ida,
    Astar,
    Bfs,
    Dfs,
}

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// ida prints the 15-puzzle assignment's block, bfs and dfs the 8-puzzle assignment's result, astar the two-blank puzzle assignment's path.
    #[arg(long, value_enum, default_value = "ida")]
    pub algorithm: Algorithm,
    /// The order the blank's moves are tried: a permutation of U, D, L, R (Korf's is ULRD).
    #[arg(long, default_value = "UDLR")]
    pub move_order: String,
    /// Give up after expanding this many nodes (the 8-puzzle assignment uses 100).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=i64::MAX as u64))]
    pub expand_limit: Option<u64>,
    /// Also print the blank's moves (IDA* and A*).
    #[arg(long)]
    pub show_moves: bool,
    /// Memory budget of bfs, dfs and astar (which store states): MB, or with a unit
    /// (512M, 4G). The search stops with an error before passing it. IDA* stores none.
    #[arg(long, value_name = "SIZE", default_value = "4G", value_parser = crate::util::memory::parse_memory_limit)]
    pub memory_limit: u64,
    /// IDA* with additive pattern databases instead of `--heuristic` (with the reflection
    /// about the diagonal): `5-5-5`, `6-6-3`, `7-8`, `6-6-6-6`, `6-6-6-6x4`, `6-6-6-6x7`, `6-6-6-6x14`, groups of tiles
    /// like `1,2,3,4/5,6,7,8`, or several partitions separated by `|` (the maximum over
    /// them); missing tables are built into the cache first. The same as `--heuristic
    /// pdb:PARTITION`.
    #[arg(long)]
    pub pdb: Option<String>,
    /// The pattern-database cache folder (default: $SEARCHLAB_PDB_CACHE, else pdb/ in --out).
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Output folder: the pattern-database cache is pdb/ in it unless --cache or
    /// $SEARCHLAB_PDB_CACHE says otherwise (as for `searchlab run`).
    #[arg(long, default_value = "outputs")]
    pub out: PathBuf,
    /// With `--pdb`: search the subtrees below a frontier depth on all cores (same
    /// counts and solution as the serial search).
    #[arg(long)]
    pub parallel: bool,
    /// IDA*'s options with pattern databases or Manhattan distance.
    #[command(flatten)]
    pub search: Flags,
}

/// `tiles solve` with pattern databases (`None`: Manhattan distance as one-tile
/// patterns): IDA*, serial or parallel.
fn solve_pdb(
    a: &SolveArgs,
    env: &ProgramEnv,
    partition: Option<&str>,
    (start, goal): (&Board, &Board),
    order: MoveOrder,
) -> anyhow::Result<String> {
    if a.algorithm != Algorithm::Ida || start.blanks() != 1 {
        match partition {
            Some(_) => {
                user_bail!("pattern databases work with --algorithm ida on one-blank boards")
            }
            None => user_bail!(
                "{} works with --algorithm ida on one-blank boards",
                a.search.first_set().unwrap_or_default()
            ),
        }
    }
    let options = a.search.options()?;
    let h = match partition {
        Some(partition) => {
            let cache = cache_dir(a.cache.as_deref(), env, &a.out);
            super::pdb_build::heuristic(partition, goal, &cache, env.observer())?.0
        }
        None => pdb::PdbHeuristic::manhattan(goal),
    };
    // Asked for before the machine is built, so that Ctrl-C then ends the search at its
    // start (the build itself is short).
    let stop = on_interrupt(SEARCH_STOPS);
    let fsm = options.machine(goal.shape(), &Memo::default());
    let control = control(a, &stop);
    let r = if a.parallel {
        pdb_ida::solve_parallel_with(start, &h, order, fsm.as_deref(), control)
    } else {
        pdb_ida::solve_with(start, &h, order, fsm.as_deref(), control)
    };
    ida_text(a, start, &r)
}

/// What `tiles solve` says of a stop request while IDA* searches.
const SEARCH_STOPS: &str = "the search ends within a second";

/// `tiles solve`'s control of IDA*: its expansion limit, and `stop` (Ctrl-C).
fn control<'a>(a: &SolveArgs, stop: &'a Cancel) -> Control<'a> {
    Control {
        limits: Limits::expansions(a.expand_limit).with_cancel(stop),
        ..Control::default()
    }
}

/// `tiles solve`'s output for an IDA* result: its block, and its moves when asked for;
/// an interrupted search is an error saying what it had done.
fn ida_text(a: &SolveArgs, start: &Board, r: &IdaResult) -> anyhow::Result<String> {
    if r.stop == Stop::Interrupted {
        return Err(r.interruption().into());
    }
    let mut s = format::ida_block(start, r);
    if a.show_moves
        && let Some(m) = &r.moves
    {
        s.push_str(&moves_line(m));
    }
    Ok(s)
}

/// The `Moves = …` line of `--show-moves`.
fn moves_line(m: &[crate::tiles::Dir]) -> String {
    let letters: String = m.iter().map(|d| d.letter()).collect();
    format!("Moves = {letters}\n")
}

/// `tiles solve`'s output.
pub(super) fn solve(a: &SolveArgs, env: &ProgramEnv) -> anyhow::Result<String> {
    let (start, goal) = load(&a.board)?;
    let order = MoveOrder::parse(&a.move_order)?;
    a.search.options()?;
    let partition = a
        .pdb
        .as_deref()
        .or_else(|| pdb::heuristic_partition(&a.board.heuristic));
    if let Some(partition) = partition {
        return solve_pdb(a, env, Some(partition), (&start, &goal), order);
    }
    let heuristic = classic_heuristic(&a.board.heuristic, "tiles solve")?;
    if let Some(option) = a.search.first_set() {
        if heuristic != Heuristic::Manhattan {
            user_bail!(
                "{option} works with --heuristic manhattan or pattern databases, not {}",
                heuristic.name()
            );
        }
        return solve_pdb(a, env, None, (&start, &goal), order);
    }
    let problem = Problem::new(start, goal, order, heuristic).with_memory_limit(a.memory_limit);
    let out_of_memory = |name: &str, stored: u64| {
        user_error!(
            "{name} stopped after expanding {stored} states: its stored states would pass the memory limit of {} (--memory-limit raises it; ida stores no states)",
            crate::util::memory::bytes_text(a.memory_limit)
        )
    };
    Ok(match a.algorithm {
        Algorithm::Ida => {
            let r = if start.blanks() == 1 {
                let stop = on_interrupt(SEARCH_STOPS);
                ida::solve_with(&start, &goal, heuristic, order, control(a, &stop))
            } else {
                generic_ida(&problem, a.expand_limit)
            };
            ida_text(a, &start, &r)?
        }
        Algorithm::Bfs | Algorithm::Dfs => {
            let o = if a.algorithm == Algorithm::Bfs {
                problem.bfs(a.expand_limit)
            } else {
                problem.dfs(a.expand_limit)
            };
            if o.stop == Stop::MemoryLimit {
                let name = if a.algorithm == Algorithm::Bfs {
                    "bfs"
                } else {
                    "dfs"
                };
                return Err(out_of_memory(name, o.stats.expanded));
            }
            match (&o.path, o.cost) {
                (Some(p), Some(cost)) => {
                    format::gsa_result(o.stats.expanded, cost, Some(&moves_of(p)))
                }
                _ => format::gsa_result(o.stats.expanded, o.last_depth, None),
            }
        }
        Algorithm::Astar => {
            let o = problem.astar(a.expand_limit);
            if o.stop == Stop::MemoryLimit {
                return Err(out_of_memory("astar", o.stats.expanded));
            }
            match &o.path {
                Some(p) => {
                    let mut s = format::astar_transcript(&problem, p, o.stats.max_frontier);
                    if a.show_moves {
                        s.push_str(&moves_line(&moves_of(p)));
                    }
                    s
                }
                None => format!(
                    "not found after {} expansions\nMax queue length: {}\n",
                    o.stats.expanded, o.stats.max_frontier
                ),
            }
        }
    })
}

/// IDA* through the generic search (boards with several blanks), as an [`IdaResult`].
pub fn generic_ida(problem: &Problem, expand_limit: Option<u64>) -> IdaResult {
    let started = std::time::Instant::now();
    let o = problem.ida(expand_limit);
    IdaResult {
        h0: problem.h(&problem.start),
        thresholds: o.stats.thresholds.iter().map(|&t| t as u32).collect(),
        moves: o.path.as_ref().map(|p| moves_of(p)),
        generated: o.stats.generated,
        expanded: o.stats.expanded,
        max_depth: o.stats.max_frontier as u32,
        stop: o.stop,
        seconds: started.elapsed().as_secs_f64(),
    }
}
