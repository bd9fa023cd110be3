//! Peg solitaire: the peg-solitaire assignment's domain, and the smallest example of a
//! domain (see [`domain`]).
//!
//! Boards and levels ([`board`], [`levels`]), the assignment's budgeted depth-first search
//! reproduced count for count ([`budgeted_dfs`]), a stronger solver that proves the fewest pegs
//! reachable ([`solver`]), the count of reachable positions per number of jumps
//! ([`count`]), text rendering, replay and the search clock ([`render`]), the
//! interactive game ([`play`]) and the hash set of boards the searches share
//! ([`table`]). The command line lives in [`cli`], the pipeline's algorithms in
//! [`runner`], the report's facts in [`facts`].

pub mod board;
pub mod budgeted_dfs;
pub mod cli;
pub mod count;
pub mod facts;
pub mod levels;
pub mod play;
pub mod render;
pub mod runner;
pub mod solver;
pub mod table;

/// The peg-solitaire domain: its algorithms, facts and command-line program.
pub fn domain() -> crate::domain::Domain {
    crate::domain::Domain {
        runner: runner::runner(),
        about: "Peg solitaire (the peg-solitaire assignment): the assignment's budgeted DFS, a stronger solver, play, count",
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
