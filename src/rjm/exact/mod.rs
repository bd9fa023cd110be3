//! The longest shortest path of every n×n Rook Jumping Maze, by exhaustive search, as a
//! proof that others can check and that survives interruption.
//!
//! Nobody has published the optimum of any maze size. The search ([`search`]) enumerates
//! mazes in the order a breadth-first search from the start meets their cells and counts
//! the mazes of every length from a threshold up. Its tree is cut into a fixed list of
//! parts ([`parts`]), each searched by one run of the pipeline's algorithm `rjm/exact`
//! ([`run`], which searches its part with [`solve`] over the size's [`tables`] of legal
//! jumps), so that a proof is an experiment like any other (`configs/rjm_exact_N.toml`):
//! journaled, resumable, sharded, merged, submitted to Slurm. [`proof`] says what the
//! finished parts prove and [`board`] how a proof under way stands, [`command`] is
//! `searchlab rjm exact`, [`listing`] writes every longest maze out, and [`references`]
//! gives studies the optima. Counts are exact at every size ([`count`]).

pub mod board;
pub mod command;
pub mod count;
pub mod listing;
pub mod parts;
pub mod proof;
pub mod references;
pub mod run;
pub mod search;
pub mod solve;
pub mod tables;

pub use references::{FACTS, REFERENCES};

#[cfg(test)]
mod tests;
