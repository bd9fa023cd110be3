//! The sliding-tile domain: boards of 2..=5 by 2..=5 cells with one or more
//! blanks, goals and validation ([`board`]), admissible heuristics ([`heuristic`]), the
//! fast IDA* for one blank ([`ida`]) with its linear-conflict tables ([`conflicts`]), the generic algorithms applied to tiles
//! ([`solve`]), the embedded benchmark sets ([`instances`]), state-space censuses
//! ([`census`]), the assignments' output formats ([`mod@format`]), and additive pattern databases
//! ([`pdb`]) with their fast serial and parallel IDA* ([`pdb_ida`]) and its duplicate
//! pruning ([`fsm`]); both fast searches run under one iterative-deepening driver
//! ([`deepen`]), and the search's options are described once ([`options`]) for the
//! pipeline ([`runner`]) and the command line ([`cli`]). Studies get facts and pictures
//! ([`facts`]) and the 24-puzzle's comparison with the papers ([`korf24`]).

pub mod board;
pub mod census;
pub mod conflicts;
pub mod deepen;
pub mod format;
pub mod fsm;
pub mod heuristic;
pub mod ida;
pub mod instances;
pub mod korf24;
pub mod pdb;
pub mod pdb_ida;
pub mod solve;
#[cfg(test)]
mod tests;

pub use board::{Board, Dir, MoveOrder, Shape};
pub use heuristic::{Heuristic, Tables};
pub use instances::{Instance, InstanceSet};
pub use solve::Problem;
pub mod cli;
pub mod facts;
pub mod options;
pub mod runner;

/// The domain: its algorithms, facts, pictures and command-line program.
pub fn domain() -> crate::domain::Domain {
    crate::domain::Domain {
        runner: runner::runner(),
        about: "Sliding-tile puzzles (the 15-puzzle, 8-puzzle and two-blank puzzle assignments): IDA*, A*, BFS, DFS, pattern databases, census",
        facts: facts::FACTS.to_vec(),
        boards: facts::BOARDS.to_vec(),
        references: Vec::new(),
        canonical: Vec::new(),
        program: crate::domain::Program {
            command: cli::command,
            run: cli::run_matches,
        },
        conclude: None,
    }
}
