//! `searchlab tiles …`: the sliding-tile commands. `solve` runs IDA* (the 15-puzzle
//! assignment's block), BFS/DFS (the 8-puzzle assignment's result) or A* (the two-blank
//! puzzle assignment's transcript) on an instance file, and `successors` prints the
//! two-blank puzzle assignment's `print_succ` (both in `solve`); `census` counts states
//! by distance (`census`); `batch` runs a benchmark set (Korf's 100, the 15-puzzle
//! assignment's six, the 24-puzzle) across all cores and checks every solution length
//! against the published one (`batch`); `pdb build` builds pattern databases
//! (`pdb_build`). This module holds the command's arguments and the dispatch; what the
//! commands share is in `common`.

mod batch;
mod census;
mod common;
mod pdb_build;
mod solve;

pub use batch::{BatchArgs, HeuristicList};
pub use census::CensusArgs;
pub use common::BoardArgs;
pub use pdb_build::{PdbArgs, PdbBuildArgs, PdbCommand};
pub use solve::{Algorithm, SolveArgs, generic_ida};

use crate::domain::ProgramEnv;
use crate::tiles::board::MoveOrder;
use crate::tiles::format;
use crate::tiles::solve::Problem;
use common::{classic_heuristic, load};
use std::io::Write;

/// Sliding-tile puzzles: solve instances, list successors, count state spaces, run
/// benchmark sets.
#[derive(clap::Args, Debug)]
pub struct TilesArgs {
    #[command(subcommand)]
    pub command: TilesCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum TilesCommand {
    /// Solve one instance (IDA* with Manhattan distance by default).
    Solve(SolveArgs),
    /// Print the successors of an instance with their h, in ascending state order (the two-blank puzzle assignment).
    Successors(BoardArgs),
    /// Count the states at each distance from the goal by breadth-first search.
    Census(CensusArgs),
    /// Run IDA* on a benchmark set, one instance per core, and check the solution lengths.
    Batch(BatchArgs),
    /// Pattern databases: `pdb build --partition 7-8` builds (or finds in the cache) the
    /// tables of a partition and prints their memory, build time and value distribution.
    Pdb(PdbArgs),
}

/// The subcommand's arguments, for the command line.
pub fn command() -> clap::Command {
    <TilesArgs as clap::Args>::augment_args(clap::Command::new("tiles"))
}

/// Runs the subcommand from its parsed arguments, in the environment the command line
/// read.
pub fn run_matches(m: &clap::ArgMatches, env: &ProgramEnv) -> anyhow::Result<()> {
    run(
        <TilesArgs as clap::FromArgMatches>::from_arg_matches(m)?,
        env,
    )
}

/// Runs the subcommand and writes its output.
pub fn run(args: TilesArgs, env: &ProgramEnv) -> anyhow::Result<()> {
    let out = match args.command {
        TilesCommand::Solve(a) => solve::solve(&a, env)?,
        TilesCommand::Successors(a) => {
            let (start, goal) = load(&a)?;
            let h = classic_heuristic(&a.heuristic, "tiles successors")?;
            format::successor_lines(&Problem::new(start, goal, MoveOrder::default(), h))
        }
        TilesCommand::Census(a) => census::census(&a)?,
        TilesCommand::Batch(a) => batch::batch(&a, env)?,
        TilesCommand::Pdb(PdbArgs {
            command: PdbCommand::Build(a),
        }) => pdb_build::build(&a, env)?,
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(())
}
