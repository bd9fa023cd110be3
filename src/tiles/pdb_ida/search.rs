//! The depth-first search of one iteration, for both kinds of lookup (packed tables and
//! spread copies) and any number of orientations: the board updated in place, the
//! heuristic incrementally with undo records. The lean search ([`super::lean`]) replaces
//! it where it fits.

use super::frame::Frame;
use super::orientation::{
    FEW_ORIENT, ITEMS, MAX_GROUPS, MAX_ORIENT, Orientation, SpreadItem, orientation_at,
};
use super::patterns::{Old, PACKED, Patterns, SPREAD};
use crate::tiles::board::{Board, MAX_CELLS, MoveOrder};
use crate::tiles::deepen::{Counters, MAX_PATH, Moves, NONE};
use crate::tiles::fsm::Fsm;
use crate::tiles::pdb::PdbHeuristic;
use crate::util::cancel::Cancel;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// A node where the top of the tree was cut, with the counts at the moment it was
/// generated.
#[derive(Clone)]
pub(super) struct Frontier {
    pub(super) cells: [u8; 32],
    pub(super) blank: usize,
    pub(super) md: u32,
    /// The pruning state below the node ([`Search::dfs`]).
    pub(super) state: u32,
    /// The orientation looked up first in its children ([`Child::first`]).
    pub(super) first: usize,
    pub(super) path: Vec<u8>,
    pub(super) generated: u64,
    pub(super) expanded: u64,
    pub(super) max_depth: u32,
    /// Its patterns in each orientation.
    pub(super) pats: Vec<Patterns>,
}

/// What a child's lookups changed: the orientations updated (a bit each) and each one's
/// old (value, rank).
struct Undo<const L: usize> {
    touched: u32,
    olds: [Old; L],
}

/// A child entered by [`Search::enter`]: the blank's new cell, the machine's state, the
/// tile moved, the child's Manhattan distance and f.
#[derive(Clone, Copy)]
pub(super) struct Child {
    pub(super) np: usize,
    pub(super) state: u32,
    pub(super) tile: usize,
    pub(super) md: u32,
    pub(super) f: u32,
    /// The orientation with its largest sum, looked up first in its children: the
    /// likeliest to prune them (only meaningful when the child is within the bound).
    pub(super) first: usize,
}

/// A child's move: `tile` to the blank's cell `blank`, the blank making the k-th move of
/// the order.
#[derive(Clone, Copy)]
struct Moved {
    tile: usize,
    blank: usize,
    k: usize,
}

/// What [`Search::generate`] made of a move.
enum Generated {
    Not,
    Goal,
    Open(Child),
}

#[derive(Clone)]
pub(super) struct Search<'a> {
    pub(super) h: &'a PdbHeuristic,
    /// How the tables are read: [`PACKED`] or [`SPREAD`].
    pub(super) lookup: u8,
    pub(super) moves: Moves,
    /// The duplicate-sequence machine, when pruning with one.
    pub(super) fsm: Option<&'a Fsm>,
    pub(super) cells: [u8; 32],
    /// The sums maximised over, and each one's patterns.
    pub(super) orient: [Orientation; MAX_ORIENT],
    /// `items[o][t]`: what a lookup of tile t in orientation o reads ([`SpreadItem`]).
    pub(super) items: [[SpreadItem<'a>; ITEMS]; MAX_ORIENT],
    pub(super) n_orient: usize,
    pub(super) pats: [Patterns; MAX_ORIENT],
    pub(super) bound: u32,
    pub(super) next_bound: u32,
    pub(super) c: Counters,
    pub(super) found_len: usize,
    pub(super) path: [u8; MAX_PATH],
    /// Nodes at this depth are not expanded but collected (the parallel search's top).
    pub(super) split: u32,
    pub(super) frontier: Vec<Frontier>,
    /// In a subtree of the parallel search: its index and the least index of a subtree
    /// known to hold a goal; the search gives up when the latter drops below the former.
    pub(super) cancel: Option<(&'a AtomicUsize, usize)>,
    pub(super) cancelled: bool,
    /// The run's stop request, looked at every [`crate::tiles::deepen::POLL_EVERY`]
    /// expansions ([`Counters::at_limit`]).
    pub(super) stop: Option<&'a Cancel>,
    /// The lean search's frames, one a depth ([`lean`]); empty until it runs.
    pub(super) frames: Vec<Frame>,
    /// Whether [`Self::run`] may search with [`lean`] where it fits (the tests compare).
    pub(super) lean: bool,
}

impl<'a> Search<'a> {
    pub(super) fn new(
        h: &'a PdbHeuristic,
        start: &Board,
        order: MoveOrder,
        fsm: Option<&'a Fsm>,
    ) -> Search<'a> {
        let mut cells = [0u8; 32];
        cells[..MAX_CELLS].copy_from_slice(&start.cells);
        let all = Orientation::all(h);
        assert!(all.len() <= MAX_ORIENT, "at most {MAX_ORIENT} orientations");
        let mut orient = [all[0]; MAX_ORIENT];
        orient[..all.len()].copy_from_slice(&all);
        let spreads = h.spreads();
        let lookup = if spreads.is_empty() { PACKED } else { SPREAD };
        let moves = Moves::new(start.shape(), order);
        let n = start.len();
        let items = std::array::from_fn(|o| SpreadItem::of(&orient[o], spreads, &moves, n));
        let mut s = Search {
            h,
            lookup,
            moves,
            fsm,
            cells,
            orient,
            items,
            n_orient: all.len(),
            pats: std::array::from_fn(|_| Patterns::default()),
            bound: 0,
            next_bound: u32::MAX,
            c: Counters::new(None),
            found_len: 0,
            path: [0; MAX_PATH],
            split: u32::MAX,
            frontier: Vec::new(),
            cancel: None,
            cancelled: false,
            stop: None,
            frames: Vec::new(),
            lean: true,
        };
        s.reset_values();
        s
    }

    /// Recomputes the pattern positions and values from `cells`.
    pub(super) fn reset_values(&mut self) {
        let h = self.h;
        for (o, pats) in self.orient[..self.n_orient].iter().zip(&mut self.pats) {
            for c in 0..h.goal.len() {
                let t = usize::from(self.cells[c]);
                let g = o.group[t];
                if g != NONE && t != 0 {
                    pats.pos[usize::from(g)][usize::from(o.index[t])] = o.cell[c];
                }
            }
            pats.rank_all(h, self.lookup, &o.table[..o.groups]);
        }
    }

    pub(super) fn md(&self) -> u32 {
        (0..self.h.goal.len())
            .map(|c| u32::from(self.h.md[usize::from(self.cells[c])][c]))
            .sum()
    }

    pub(super) fn found(&mut self, g: u32, k: u8) {
        self.path[g as usize] = k;
        self.reached(g + 1);
        self.found_len = g as usize + 1;
    }

    /// True when the node is not to be expanded: it is on the parallel search's frontier
    /// (collected there), the expansion limit is reached, or a subtree before this one
    /// holds a goal.
    #[inline(always)]
    pub(super) fn stop(&mut self, blank: usize, g: u32, md: u32, state: u32, first: usize) -> bool {
        if g == self.split {
            let pats = self.pats[..self.n_orient].to_vec();
            self.collect(blank, g, md, state, first, pats);
            return true;
        }
        self.halted()
    }

    /// Puts the node (its patterns `pats`) on the parallel search's frontier.
    #[cold]
    pub(super) fn collect(
        &mut self,
        blank: usize,
        g: u32,
        md: u32,
        state: u32,
        first: usize,
        pats: Vec<Patterns>,
    ) {
        self.frontier.push(Frontier {
            cells: self.cells,
            blank,
            md,
            state,
            first,
            path: self.path[..g as usize].to_vec(),
            generated: self.c.generated,
            expanded: self.c.expanded,
            max_depth: self.c.max_depth,
            pats,
        });
    }

    /// True when the expansion limit is reached, a stop was requested, or a subtree
    /// before this one holds a goal.
    #[inline(always)]
    pub(super) fn halted(&mut self) -> bool {
        if self.c.expanded >= self.c.limit && self.c.at_limit(self.stop) {
            return true;
        }
        if let Some((best, me)) = self.cancel
            && best.load(Relaxed) < me
        {
            self.cancelled = true;
            return true;
        }
        false
    }

    /// Depth-first search below the current board (blank at `blank`, depth `g`,
    /// Manhattan distance `md`). `state`: without `FSM`, the move that reached the node
    /// (4 = none), never undone; with it, the machine's state, and the moves that
    /// complete a forbidden sequence are not generated. The heuristic is the maximum over
    /// the orientations' sums, `first`'s looked up first in the children. `N`: the number
    /// of orientations when the code is specialised for it, else 0; `L`: the length of
    /// the undo records' array (N, else a power of two at least the number of
    /// orientations); `LOOKUP`: how the tables are read ([`Self::lookup`]).
    pub(super) fn dfs<const FSM: bool, const N: usize, const L: usize, const LOOKUP: u8>(
        &mut self,
        blank: usize,
        g: u32,
        md: u32,
        state: u32,
        first: usize,
    ) -> bool {
        if self.stop(blank, g, md, state, first) {
            return false;
        }
        self.c.expanded += 1;
        // One record for the node's children, filled by each child's lookups: made once
        // and borrowed (a record moved out of a call is copied, which costs more).
        let mut undo = Undo {
            touched: 0,
            olds: [(0, 0, 0); L],
        };
        for k in 0..4 {
            match self.generate::<FSM, N, L, LOOKUP>(blank, g, md, state, k, first, &mut undo) {
                Generated::Goal => return true,
                Generated::Open(child) => {
                    if self.descend::<FSM, N, L, LOOKUP>(blank, g, k, child, &undo) {
                        return true;
                    }
                }
                Generated::Not => {}
            }
            if self.c.limit_reached || self.cancelled {
                return false;
            }
        }
        self.reached(g + 1);
        false
    }

    /// Generates the blank's move `k` (counted) and looks the child up: `Open` when it
    /// is within the bound and not a goal (the move made, for [`Self::descend`]); `Goal`
    /// when it is within the bound and a goal (the move made and recorded in the path);
    /// else `Not`, the move not made (pruned, beyond the bound, or off the board).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn generate<const FSM: bool, const N: usize, const L: usize, const LOOKUP: u8>(
        &mut self,
        blank: usize,
        g: u32,
        md: u32,
        state: u32,
        k: usize,
        first: usize,
        undo: &mut Undo<L>,
    ) -> Generated {
        let Some((np, child_state)) = self.child::<FSM>(blank, state, k) else {
            return Generated::Not;
        };
        self.c.generated += 1;
        let child = self.enter::<N, L, LOOKUP>(blank, np, k, child_state, g, md, first, undo);
        if self.pruned(child.f) {
            self.leave::<L, LOOKUP>(blank, np, child.tile, undo);
            return Generated::Not;
        }
        if child.md == 0 {
            self.found(g, k as u8);
            return Generated::Goal;
        }
        Generated::Open(child)
    }

    /// Searches below `child` (entered by move `k` from the node at depth `g`, blank on
    /// `blank`), then leaves it unless it led to a goal; true when it did.
    #[inline(always)]
    fn descend<const FSM: bool, const N: usize, const L: usize, const LOOKUP: u8>(
        &mut self,
        blank: usize,
        g: u32,
        k: usize,
        child: Child,
        undo: &Undo<L>,
    ) -> bool {
        self.path[g as usize] = k as u8;
        if self.dfs::<FSM, N, L, LOOKUP>(child.np, g + 1, child.md, child.state, child.first) {
            return true;
        }
        self.leave::<L, LOOKUP>(blank, child.np, child.tile, undo);
        false
    }

    /// Moves the tile on `np` to `blank` (the blank to `np`, the machine to `state`) and
    /// looks the child up ([`Self::look_up_child`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn enter<const N: usize, const L: usize, const LOOKUP: u8>(
        &mut self,
        blank: usize,
        np: usize,
        k: usize,
        state: u32,
        g: u32,
        md: u32,
        first: usize,
        undo: &mut Undo<L>,
    ) -> Child {
        let h = self.h;
        let tile = usize::from(self.cells[np]);
        let (closer, farther) = (h.md[tile][blank], h.md[tile][np]);
        let md = md + u32::from(closer) - u32::from(farther);
        self.cells[blank] = tile as u8;
        self.cells[np] = 0;
        let base = g + 1 + md;
        let moved = Moved { tile, blank, k };
        let (f, first) = self.look_up_child::<N, L, LOOKUP>(moved, base, first, undo);
        Child {
            np,
            state,
            tile,
            md,
            f,
            first,
        }
    }

    /// Undoes [`Self::enter`]: `tile` back from `blank` to `np`.
    #[inline(always)]
    fn leave<const L: usize, const LOOKUP: u8>(
        &mut self,
        blank: usize,
        np: usize,
        tile: usize,
        undo: &Undo<L>,
    ) {
        self.undo_child::<L, LOOKUP>(tile, np, undo);
        self.cells[np] = tile as u8;
        self.cells[blank] = 0;
    }

    /// True when a child of this f is beyond the bound (it is not searched, and the
    /// next bound is at most f).
    #[inline(always)]
    pub(super) fn pruned(&mut self, f: u32) -> bool {
        if f > self.bound {
            self.next_bound = self.next_bound.min(f);
            return true;
        }
        false
    }

    /// Records that the search reached depth `depth`.
    #[inline(always)]
    pub(super) fn reached(&mut self, depth: u32) {
        self.c.max_depth = self.c.max_depth.max(depth);
    }

    /// The orientation with the node's largest sum (the first if several), looked up
    /// first in its children, the likeliest to prune them; below the node where the
    /// search starts, each child's comes with its lookups ([`Child::first`]).
    pub(super) fn first_orientation(&self) -> usize {
        let sums = self.pats[..self.n_orient].iter().map(|p| p.sum);
        (sums.enumerate().rev().max_by_key(|&(_, sum)| sum)).map_or(0, |(o, _)| o)
    }

    /// The blank's move `k` from `blank`, when generated: the cell it moves to and the
    /// child's pruning state (see [`Self::dfs`]).
    #[inline(always)]
    pub(super) fn child<const FSM: bool>(
        &self,
        blank: usize,
        state: u32,
        k: usize,
    ) -> Option<(usize, u32)> {
        if !FSM && state < 4 && k == self.moves.inverse[state as usize] {
            return None;
        }
        let np = self.moves.nbr[blank][k];
        if np == NONE {
            return None;
        }
        let np = usize::from(np);
        match self.fsm {
            Some(fsm) if FSM => fsm
                .next(state, self.moves.dir[k], np)
                .map(|next| (np, next)),
            _ => Some((np, k as u32)),
        }
    }

    /// The child's f after the move `m` (`base`: its g + Manhattan distance), `first`
    /// orientation first. The moved tile's pattern in each orientation is looked up only
    /// while it can matter: while the child is not pruned, or might lower the next bound.
    /// When the rest are skipped their stale sums cannot matter: f is already above both
    /// the bound and the next bound. Returns f and the orientation with the largest sum
    /// ([`Child::first`]), and fills `undo` with what [`Self::undo_child`] restores.
    #[inline(always)]
    fn look_up_child<const N: usize, const L: usize, const LOOKUP: u8>(
        &mut self,
        m: Moved,
        base: u32,
        first: usize,
        undo: &mut Undo<L>,
    ) -> (u32, usize) {
        if LOOKUP == SPREAD {
            return self.look_up_spread::<N, L>(m, base, first, undo);
        }
        let Moved { tile, blank, .. } = m;
        let n = if N > 0 { N } else { self.n_orient };
        let (mut best, mut most) = (0, first);
        undo.touched = 0;
        for j in 0..n {
            let f = base + 2 * best;
            if j > 0 && f > self.bound && f >= self.next_bound {
                break;
            }
            let o = orientation_at(j, first);
            let or = &self.orient[o];
            let gi = usize::from(or.group[tile]);
            if gi < MAX_GROUPS {
                let (t, i, to) = (
                    usize::from(or.table[gi]),
                    usize::from(or.index[tile]),
                    or.cell[blank],
                );
                undo.olds[o] = self.pats[o].update(&self.h.tables[t], gi, i, to);
                undo.touched |= 1 << o;
            }
            if self.pats[o].sum > best {
                (best, most) = (self.pats[o].sum, o);
            }
        }
        (base + 2 * best, most)
    }

    /// [`Self::look_up_child`] with spread copies: each orientation's lookup reads the
    /// tile's [`SpreadItem`], moves the pattern's index by its step and reads the spread
    /// copy there. A loop of its own, so that the packed tables' branches stay out of it.
    #[inline(always)]
    fn look_up_spread<const N: usize, const L: usize>(
        &mut self,
        m: Moved,
        base: u32,
        first: usize,
        undo: &mut Undo<L>,
    ) -> (u32, usize) {
        let n = if N > 0 { N } else { self.n_orient };
        let (bound, next) = (self.bound, self.next_bound);
        let (tile, k) = (m.tile % ITEMS, m.k % 4);
        let (mut best, mut most, mut touched) = (0, first, 0u32);
        for j in 0..n {
            let f = base + 2 * best;
            if j > 0 && f > bound && f >= next {
                break;
            }
            let o = orientation_at(j, first) % MAX_ORIENT;
            let item = &self.items[o][tile];
            let pats = &mut self.pats[o];
            if item.group != NONE {
                let g = usize::from(item.group);
                undo.olds[o % L] = pats.update_spread(item.entries, g, item.step[k]);
                touched |= 1 << o;
            }
            if pats.sum > best {
                (best, most) = (pats.sum, o);
            }
        }
        undo.touched = touched;
        (base + 2 * best, most)
    }

    /// Moves `tile` back to `np` in the orientations
    /// [`Self::look_up_child`] updated.
    #[inline(always)]
    fn undo_child<const L: usize, const LOOKUP: u8>(
        &mut self,
        tile: usize,
        np: usize,
        undo: &Undo<L>,
    ) {
        let mut touched = undo.touched;
        while touched != 0 {
            let o = touched.trailing_zeros() as usize % MAX_ORIENT;
            touched &= touched - 1;
            if LOOKUP == SPREAD {
                let g = usize::from(self.items[o][tile % ITEMS].group);
                self.pats[o].restore_spread(g, undo.olds[o % L]);
                continue;
            }
            let or = &self.orient[o];
            let (gi, i) = (usize::from(or.group[tile]), usize::from(or.index[tile]));
            self.pats[o].undo(gi, i, or.cell[np], undo.olds[o]);
        }
    }

    /// Searches below the current board ([`Self::dfs`]), specialised for its lookups.
    pub(super) fn run(&mut self, blank: usize, g: u32, md: u32, state: u32, first: usize) -> bool {
        if self.lean_fits() {
            return self.run_lean(blank, g, md, state, first);
        }
        let at = (blank, g, md, state, first);
        match (self.fsm.is_some(), self.lookup) {
            (true, SPREAD) => self.dfs_n::<true, SPREAD>(at),
            (true, _) => self.dfs_n::<true, PACKED>(at),
            (false, SPREAD) => self.dfs_n::<false, SPREAD>(at),
            (false, _) => self.dfs_n::<false, PACKED>(at),
        }
    }

    /// [`Self::dfs`] specialised for the common numbers of orientations.
    fn dfs_n<const FSM: bool, const LOOKUP: u8>(
        &mut self,
        (blank, g, md, state, first): (usize, u32, u32, u32, usize),
    ) -> bool {
        match self.n_orient {
            1 => self.dfs::<FSM, 1, 1, LOOKUP>(blank, g, md, state, first),
            2 => self.dfs::<FSM, 2, 2, LOOKUP>(blank, g, md, state, first),
            3..=FEW_ORIENT => self.dfs::<FSM, 0, FEW_ORIENT, LOOKUP>(blank, g, md, state, first),
            _ => self.dfs::<FSM, 0, MAX_ORIENT, LOOKUP>(blank, g, md, state, first),
        }
    }

    /// The pruning state of the start node.
    pub(super) fn start_state(&self) -> u32 {
        if self.fsm.is_some() { Fsm::START } else { 4 }
    }

    pub(super) fn h0(&self) -> u32 {
        let best = self.pats[..self.n_orient].iter().map(|p| p.sum).max();
        self.md() + 2 * best.unwrap_or(0)
    }
}
