//! The fast IDA* with a pattern-database heuristic ([`super::pdb`]), serial and parallel.
//!
//! Same conventions as [`super::ida`], under the same driver ([`super::deepen`]: the
//! thresholds, the counts and the checkpoints), serial or parallel: the move order is
//! given, the move undoing the previous one is never generated (or, with
//! [`Pruning::Fsm`], every duplicate sequence of [`super::fsm`]). The board is one array
//! updated in place and the heuristic incrementally: a move changes one tile's Manhattan distance and,
//! in each sum the heuristic maximises over (an *orientation*: a partition of the state,
//! or of its reflection), the rank of one pattern, so each child costs a rank and a
//! lookup per orientation. When every table has a spread copy ([`super::pdb::Spread`],
//! indexed by the tiles' cells), the rank is an index into it, and a move adds one
//! multiple of the tile's place value to it instead of re-ranking the pattern (what a
//! lookup needs of the tile, its table and its index's change for each move, is gathered
//! in one record per tile and orientation); the values and so the counts are the packed
//! tables'. The orientation with the node's largest sum (found by the node's own lookups)
//! is looked up first in its children (the likeliest to prune them), the others only
//! while the maximum so far neither prunes the child nor stops it from lowering the next
//! bound, so the counts are those of the full maximum, whatever the partitions' order.
//!
//! **The lean search** (`lean.rs`). Where it fits (the default: spread copies at 4 bits an
//! entry, 1, 2, 4 or 8 plain orientations of up to four patterns covering every tile, no
//! pathmax, children in move order), the search runs a copy of its depth-first search cut
//! down to that case: one frame of sums, indexes and values a depth instead of undo
//! records, and no branch between a child's lookups once the first has not pruned it.
//! It searches the same nodes to the same counts in 40% fewer instructions (a test
//! compares the two); the general search remains for every other case.
//!
//! **Dual lookups and pathmax** ([`Options::dual`], [`Options::bpmx`]). A dual
//! orientation reads a partition's tables at the state whose tiles and cells trade places
//! (tile t's position is the tile on cell t): a move changes one of its items, so a child
//! costs at most one read there too. Pathmax cuts a node off when a child's f passes the
//! bound by more than two, before its later children are generated.
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
//! the search stops at the serial search's node, having redone a few subtrees at most
//! (the 24-puzzle's instance 41, stopped at 2.5·10⁹ expansions on two cores, took 227 s
//! instead of 602 s when the whole iteration was searched again, with the same counts).
//!
//! **Where each part lives.** This module holds the options, the serial entry points and
//! what the parts share (how a table is read); `orientation` the sums maximised over and
//! each tile's record in them; `patterns` a state's patterns kept move by move;
//! `search` the general depth-first search of one iteration; `lean` its copy for the
//! default case; `parallel` the frontier and the threads.

use super::board::{Board, MAX_CELLS, MoveOrder};
use super::deepen::{Control, Counters, IdaResult, Iterate, Iteration, MAX_PATH, NONE};
use super::fsm::Pruning;
use super::pdb::PdbHeuristic;

mod lean;
mod orientation;
mod parallel;
mod patterns;
mod search;
#[cfg(test)]
mod tests;

use orientation::{FEW_ORIENT, ITEMS, MAX_ORIENT, Orientation, SpreadItem, orientation_at};
use parallel::Frontier;
pub use parallel::{solve_parallel, solve_parallel_with};
use patterns::{Old, Patterns};
use search::Search;

/// The most patterns a partition has: a tile each at most.
const MAX_GROUPS: usize = MAX_CELLS;

/// How the search reads a table: by perfect rank from the packed table, by cells from its
/// spread copy, or by cells from the zero-aware table's bits.
const PACKED: u8 = 0;
const SPREAD: u8 = 1;
const ZERO: u8 = 2;
/// A `LOOKUP` bit: some orientations are dual ones ([`Orientation::dual`]), so the search
/// without them compiles without their branches.
const DUAL: u8 = 4;
/// The bits of a `LOOKUP` that say how the tables are read.
const KIND: u8 = 3;
/// The two `LOOKUP`s with dual orientations (plain tables only).
const DUAL_SPREAD: u8 = SPREAD | DUAL;
const DUAL_PACKED: u8 = PACKED | DUAL;

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

/// The options of the search beyond its heuristic and move order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Which duplicate move sequences are pruned.
    pub pruning: Pruning,
    /// With [`Pruning::Fsm`], the longest duplicate sequences the machine prunes (at most
    /// [`super::fsm::DEEPEST`]).
    pub fsm_depth: usize,
    /// The children of nodes shallower than this are searched in order of increasing f
    /// (ties in move order), the others in move order; 0: move order everywhere (Korf's
    /// search and counts). Only the last iteration's counts change, the goal being
    /// reached after other subtrees: on the fifteen easiest 24-puzzles, 1.28 times more
    /// nodes in total (from half as many on some instances to six times more on others).
    pub order_depth: u32,
    /// Also maximises over each partition's dual lookups (Felner, Zahavi, Schaeffer &
    /// Holte 2005): the tables read at the tiles standing on the patterns' goal cells,
    /// a pattern left out while its goal cells hold the blank or wall the blank's cell off
    /// from cell 0. Plain tables only, the goal with the blank on cell 0 and tile t on
    /// cell t, up to eight partitions ([`check_options`]).
    pub dual: bool,
    /// Bidirectional pathmax (Felner, Zahavi, Schaeffer & Holte 2005): a child's
    /// heuristic less one bounds its parent's, so a child whose f exceeds the bound by
    /// more than two cuts its parent off, its later children not generated. With an
    /// inconsistent heuristic (dual lookups) it prunes more; the searches stay optimal.
    pub bpmx: bool,
}

impl Default for Options {
    /// Korf & Felner's search: parent pruning, move order, no dual lookups or pathmax (the
    /// machine's depth, if it is asked for, [`super::fsm::DEFAULT_DEPTH`]).
    fn default() -> Options {
        Options {
            pruning: Pruning::Parent,
            fsm_depth: super::fsm::DEFAULT_DEPTH,
            order_depth: 0,
            dual: false,
            bpmx: false,
        }
    }
}

/// Why the search towards `goal` with the pattern databases `partition` (`None`:
/// Manhattan distance) cannot take `options`, if it cannot, found before any table is
/// built: the pruning machine's depth must be 2 to [`super::fsm::DEEPEST`]; dual lookups
/// need plain pattern databases (not zero-aware tables, whose values
/// count the blank's region at the goal, nor Manhattan distance alone, which is its own
/// dual), the goal with tile t on cell t (the blank on cell 0), and at most eight
/// partitions.
pub fn check_options(
    goal: &Board,
    partition: Option<&str>,
    options: &Options,
) -> Result<(), String> {
    let deepest = super::fsm::DEEPEST;
    if options.pruning == Pruning::Fsm && !(2..=deepest).contains(&options.fsm_depth) {
        return Err(format!(
            "the pruning machine's depth must be 2 to {deepest}, not {}",
            options.fsm_depth
        ));
    }
    if !options.dual {
        return Ok(());
    }
    let Some(partition) = partition.filter(|p| !super::pdb::strip_kind(p).1) else {
        return Err("dual lookups need plain pattern databases (pdb:…)".into());
    };
    if !is_identity(goal) {
        return Err(format!(
            "dual lookups need the goal with the blank first and tile t on cell t, not {}",
            goal.tiles()
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    match super::pdb::parse_partitions_text(partition) {
        Ok((_, parts)) if 4 * parts.len() > MAX_ORIENT => Err(format!(
            "dual lookups take up to {} partitions, not {}",
            MAX_ORIENT / 4,
            parts.len()
        )),
        _ => Ok(()),
    }
}

/// Whether `goal` has tile t on cell t (the blank, 0, on cell 0).
fn is_identity(goal: &Board) -> bool {
    let cells = &goal.cells[..goal.len()];
    cells.iter().enumerate().all(|(c, &t)| usize::from(t) == c)
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
    solve_with(
        start,
        h,
        order,
        Options::default(),
        Control::limited(expand_limit),
    )
}

/// [`solve`] with [`Options`] and under a [`Control`]: with a limit, resumed from a
/// checkpoint, observed iteration by iteration.
pub fn solve_with(
    start: &Board,
    h: &PdbHeuristic,
    order: MoveOrder,
    options: Options,
    control: Control,
) -> IdaResult {
    assert_eq!(start.blanks(), 1, "the PDB IDA* handles one blank");
    deepen_serial(Search::new(h, start, order, options), start, control)
}

/// The serial search `s` of `start`, iteration after iteration.
fn deepen_serial<'a, 'c: 'a>(mut s: Search<'a>, start: &Board, control: Control<'c>) -> IdaResult {
    s.c = Counters::new(control.expand_limit);
    s.stop = control.stop;
    let (md, h0, moves) = (s.md(), s.h0(), s.moves);
    let mut serial = Serial {
        s,
        blank: start.blank(),
        md,
    };
    super::deepen::deepen(&mut serial, h0, md == 0, &moves, control)
}
