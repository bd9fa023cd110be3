//! The Rook Jumping Maze domain (the Rook Jumping Maze assignment): mazes ([`maze`], on
//! bit sets of the narrowest width: [`bits`]), their evaluation ([`evaluate`]), the
//! neighbour step as a local-search landscape ([`landscape`]), the assignment's text
//! formats ([`text`]), the best mazes found ([`best`]) and proved optima by exhaustive
//! search ([`exact`]); for the pipeline, the algorithms ([`runner`]), the studies' facts
//! and pictures ([`facts`]) and the `searchlab rjm` programs ([`cli`]).
//!
//! A maze of size n is an n×n grid of jump numbers, start at the top-left cell, goal at
//! the bottom-right (jump 0). From a cell one may jump exactly its number of cells in a
//! straight line, horizontally or vertically. A maze's objective is the negated length
//! of the shortest path from start to goal, or [`UNREACHABLE`] when there is none.

pub mod best;
pub mod bits;
pub mod evaluate;
pub mod exact;
pub mod landscape;
pub mod maze;
pub mod text;

pub use evaluate::Evaluator;
pub use landscape::MazeLandscape;
pub use maze::Maze;

/// The objective of a maze whose goal cannot be reached (the assignment's "large positive number").
pub const UNREACHABLE: i64 = 1_000_000;

/// The sizes the assignment allows.
pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = 10;

/// Calls `$body` with `$B` bound to the narrowest bit-set type that holds a maze of
/// `$size`×`$size` cells, so the hot loops are compiled once per width.
#[macro_export]
macro_rules! with_maze_bits {
    ($size:expr, $B:ident => $body:expr) => {{
        let cells = $size * $size;
        if cells <= 32 {
            type $B = u32;
            $body
        } else if cells <= 64 {
            type $B = u64;
            $body
        } else {
            type $B = u128;
            $body
        }
    }};
}
pub mod cli;
pub mod facts;
pub mod runner;

/// The domain: its algorithms, facts, pictures and command-line program.
pub fn domain() -> crate::domain::Domain {
    crate::domain::Domain {
        runner: runner::runner(),
        about: "Rook Jumping Maze programs (the Rook Jumping Maze assignment, parts 1-6), the best maze of each size, proved optima",
        facts: [facts::FACTS, exact::FACTS].concat(),
        boards: facts::BOARDS.to_vec(),
        references: [best::REFERENCES, exact::REFERENCES].concat(),
        canonical: vec![runner::ANNEAL_CANONICAL],
        program: crate::domain::Program {
            command: cli::command,
            run: cli::run_matches,
        },
        conclude: Some(exact::proof::conclude),
    }
}
