//! The fast IDA* with a pattern-database heuristic ([`super::pdb`]), serial and parallel.
//!
//! Same conventions as [`super::ida`], under the same driver ([`super::deepen`]: the
//! thresholds, the counts and the checkpoints), serial or parallel: the move order is
//! given, the move undoing the previous one is never generated (or, with a pruning
//! machine, [`super::fsm`], every duplicate sequence it knows). The board is one array
//! updated in place and the heuristic incrementally: a move changes one tile's Manhattan
//! distance and, in each sum the heuristic maximises over (an *orientation*: a partition
//! of the state, or of its reflection), the rank of one pattern, so each child costs a
//! rank and a lookup per orientation. When every table has a spread copy
//! ([`super::pdb::Spread`], indexed by the tiles' cells), the rank is an index into it,
//! and a move adds one multiple of the tile's place value to it instead of re-ranking the
//! pattern (what a lookup needs of the tile, its table and its index's change for each
//! move, is gathered in one record per tile and orientation); the values and so the
//! counts are the packed tables'. The orientation with the node's largest sum (found by
//! the node's own lookups) is looked up first in its children (the likeliest to prune
//! them), the others only while the maximum so far neither prunes the child nor stops it
//! from lowering the next bound, so the counts are those of the full maximum, whatever
//! the partitions' order.
//!
//! **The lean search** (`lean.rs`). Where it fits (the default: spread copies at 4 bits an
//! entry, 1, 2, 4 or 8 orientations of up to four patterns covering every tile), the
//! search runs a copy of its depth-first search cut down to that case: one frame of sums,
//! indexes and values a depth instead of undo records, and no branch between a child's
//! lookups once the first has not pruned it. It searches the same nodes to the same
//! counts in far fewer instructions (a test compares the two); the general search
//! (`search.rs`) remains for every other case: packed tables (a pattern too large for a
//! spread copy, as 7-8's eight tiles), byte entries, partitions that leave tiles out or
//! have more than four patterns, and Manhattan distance as one-tile patterns.
//!
//! **Parallel search** ([`solve_parallel`]). Each iteration enumerates the tree down to
//! a frontier depth (deepened until there are enough subtrees), then the threads take the
//! frontier's subtrees in depth-first order from a shared counter. The counts of an
//! iteration without a goal are sums over subtrees, the same whatever the number of
//! threads. In the last iteration the subtrees before the first one (in depth-first
//! order) holding a goal are searched to the end, those after it are abandoned and not
//! counted: the reported totals and the solution are exactly those of the serial search,
//! node for node, whatever the number of threads (the abandoned work costs time only).
//! Under an expansion limit, the threads share the expansions left. When the subtrees
//! together pass them, the iteration ends as the serial search ends it: the subtrees are
//! taken in depth-first order, those searched in full kept, the others searched again on
//! one thread with the expansions left, until the one where the limit falls. Only where
//! it falls in the top of the tree is the whole iteration searched again serially. So
//! the search stops at the serial search's node, having redone a few subtrees at most,
//! instead of searching the whole iteration again.
//!
//! **Where each part lives.** This module holds the serial entry points; `orientation`
//! the sums maximised over and each tile's record in them; `patterns` a state's patterns
//! kept move by move and how a table is read; `search` the general depth-first search of
//! one iteration and the frontier where the parallel search cuts it; `lean` its copy for
//! the default case and `frame` that copy's record of a node; `parallel` the threads.

use super::board::{Board, MoveOrder};
use super::deepen::{Control, Counters, IdaResult, Iterate, Iteration};
use super::fsm::Fsm;
use super::pdb::PdbHeuristic;

mod frame;
mod lean;
mod orientation;
mod parallel;
mod patterns;
mod search;
#[cfg(test)]
mod tests;

pub use parallel::{solve_parallel, solve_parallel_with};
use search::Search;

/// The serial search from the start (blank at `blank`, Manhattan distance `md`).
struct Serial<'a> {
    s: Search<'a>,
    blank: usize,
    md: u32,
}

impl Iterate for Serial<'_> {
    fn iterate(&mut self, bound: u32) -> Iteration {
        let s = &mut self.s;
        s.bound = bound;
        s.next_bound = u32::MAX;
        let found = s.run(
            self.blank,
            0,
            self.md,
            s.start_state(),
            s.first_orientation(),
        );
        Iteration {
            found: found.then(|| s.path[..s.found_len].to_vec()),
            next_bound: s.next_bound,
        }
    }

    fn counters(&mut self) -> &mut Counters {
        &mut self.s.c
    }
}

/// IDA* with the PDB heuristic on a one-blank board towards the heuristic's goal (the
/// caller has checked it reachable), pruning only the undoing move (Korf & Felner's
/// search). Gives up when about to expand node number `expand_limit + 1`.
pub fn solve(
    start: &Board,
    h: &PdbHeuristic,
    order: MoveOrder,
    expand_limit: Option<u64>,
) -> IdaResult {
    solve_with(start, h, order, None, Control::limited(expand_limit))
}

/// [`solve`] pruning the duplicate sequences of `fsm` too when given (else only the
/// undoing move), under a [`Control`]: with a limit, resumed from a checkpoint, observed
/// iteration by iteration. The machine must be for the start's board.
pub fn solve_with(
    start: &Board,
    h: &PdbHeuristic,
    order: MoveOrder,
    fsm: Option<&Fsm>,
    control: Control,
) -> IdaResult {
    assert_eq!(start.blanks(), 1, "the PDB IDA* handles one blank");
    deepen_serial(Search::new(h, start, order, fsm), start, control)
}

/// The serial search `s` of `start`, iteration after iteration.
fn deepen_serial<'a, 'c: 'a>(mut s: Search<'a>, start: &Board, control: Control<'c>) -> IdaResult {
    s.c = Counters::new(control.limits.expansions);
    s.stop = control.cancel();
    let (md, h0, moves) = (s.md(), s.h0(), s.moves);
    let mut serial = Serial {
        s,
        blank: start.blank(),
        md,
    };
    super::deepen::deepen(&mut serial, h0, md == 0, &moves, control)
}
