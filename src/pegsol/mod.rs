//! Peg solitaire: the assignment's domain (issue 4).
//!
//! Boards and levels ([`board`], [`levels`]), the assignment's budgeted depth-first search
//! reproduced count for count ([`seed`]), a stronger solver that proves the fewest pegs
//! reachable ([`solver`]), the count of reachable positions per number of jumps
//! ([`count`]), text rendering, replay and the search clock ([`render`]), the
//! interactive game ([`play`]) and the hash set of boards the searches share
//! ([`table`]). The command line lives in `crate::pegsol::cli`, the experiment adapter
//! in `crate::pegsol::runner`.

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
