//! The lean search: [`Search::dfs`] for the default case, with the same nodes, counts,
//! thresholds and solutions in far fewer instructions.
//!
//! It searches where the tables are read from their spread copies, at 4 bits an entry,
//! every tile is in a pattern, and there are 1, 2, 4 or 8 orientations of at most
//! [`GROUPS`] patterns each (`pdb:6-6-6-6x4` on the 24-puzzle, `pdb:5-5-5` or `pdb:6-6-3`
//! with their reflections on the 15-puzzle). Why a search of its own: the general search,
//! built for every kind of lookup, runs many more instructions a generated node, and its
//! table reads wait on the caches, so every instruction between them shows. Here:
//!
//! - **Frames, not undo records.** Each depth has a [`Frame`]: every orientation's sum and
//!   its patterns' indexes and values. A child's lookups read its parent's frame and write
//!   its own, so nothing is undone when the search returns.
//! - **The first orientation alone first.** The orientation with the parent's largest sum
//!   ([`super::search::Child::first`]) is looked up from the parent's frame alone; most children
//!   it does not prune are within the bound, so the others are then all looked up, one
//!   after the other with no branch between them.
//! - **Reads asked for a level ahead.** A child's indexes need no table read, so once it
//!   is not pruned by its first orientation, its own children's first entries are
//!   prefetched before its other orientations are looked up, and each child's entry in
//!   the pruning machine (0.96 MB on the 24-puzzle) is prefetched when it is generated.
//!
//! `docs/24-puzzle.md` has what each of these saved, measured.
//!
//! Why the counts are the general search's: both stop looking up a child once its f
//! passes both the bound and the next bound, so the f found for a pruned child is either
//! the full maximum or at least the next bound, which never changes the next bound (the
//! least f of a pruned child).

use super::frame::{Frame, GROUPS};
use super::orientation::ITEMS;
use super::patterns::SPREAD;
use super::search::Search;
use crate::tiles::deepen::{MAX_PATH, NONE};

impl Search<'_> {
    /// Whether the lean search fits this search (see the module's documentation).
    pub(super) fn lean_fits(&self) -> bool {
        let orient = &self.orient[..self.n_orient];
        let tiles = 1..self.h.goal.len();
        let mut items = self.items[..self.n_orient]
            .iter()
            .flat_map(|i| &i[tiles.clone()]);
        self.lean
            && self.lookup == SPREAD
            && matches!(self.n_orient, 1 | 2 | 4 | 8)
            && orient.iter().all(|o| o.groups <= GROUPS)
            && items.all(|i| i.group != NONE && i.entries.is_nibbles())
    }

    /// [`Self::run`] with the lean search, which must fit ([`Self::lean_fits`]).
    pub(super) fn run_lean(
        &mut self,
        blank: usize,
        g: u32,
        md: u32,
        state: u32,
        first: usize,
    ) -> bool {
        let n = self.n_orient;
        self.frames.resize(MAX_PATH + 1, Frame::of(&[]));
        self.frames[g as usize] = Frame::of(&self.pats[..n]);
        let node = (blank, g, md, state, first);
        match (self.fsm.is_some(), n) {
            (true, 1) => self.lean::<true, 1>(node),
            (true, 2) => self.lean::<true, 2>(node),
            (true, 4) => self.lean::<true, 4>(node),
            (true, _) => self.lean::<true, 8>(node),
            (false, 1) => self.lean::<false, 1>(node),
            (false, 2) => self.lean::<false, 2>(node),
            (false, 4) => self.lean::<false, 4>(node),
            (false, _) => self.lean::<false, 8>(node),
        }
    }

    /// The depth-first search below the current board, as [`Self::dfs`] (the same
    /// arguments, as a tuple), its heuristic the maximum over `N` orientations.
    fn lean<const FSM: bool, const N: usize>(
        &mut self,
        (blank, g, md, state, first): (usize, u32, u32, u32, usize),
    ) -> bool {
        if g == self.split {
            let mut pats = self.pats[..N].to_vec();
            self.frames[g as usize].write_to(&mut pats);
            self.collect(blank, g, md, state, first, pats);
            return false;
        }
        if self.halted() {
            return false;
        }
        self.c.expanded += 1;
        for k in 0..4 {
            let Some((np, state)) = self.child::<FSM>(blank, state, k) else {
                continue;
            };
            // The child's entry in the machine, read when the child is expanded.
            if let Some(fsm) = self.fsm
                && FSM
            {
                fsm.prefetch(state);
            }
            self.c.generated += 1;
            let tile = usize::from(self.cells[np]);
            let md = md + u32::from(self.h.md[tile][blank]) - u32::from(self.h.md[tile][np]);
            let (f, first) =
                self.look_up_lean::<N>(g as usize, (blank, np), tile, k, g + 1 + md, first);
            if self.pruned(f) {
                continue;
            }
            if md == 0 {
                self.found(g, k as u8);
                return true;
            }
            (self.cells[blank], self.cells[np]) = (tile as u8, 0);
            self.path[g as usize] = k as u8;
            if self.lean::<FSM, N>((np, g + 1, md, state, first)) {
                return true;
            }
            (self.cells[blank], self.cells[np]) = (0, tile as u8);
            if self.c.limit_reached || self.cancelled {
                return false;
            }
        }
        self.reached(g + 1);
        false
    }

    /// Looks up the child of the node at depth `d` reached by moving `tile` with the k-th
    /// move, the blank going from `blank` to `np` (`base`: the child's g + Manhattan
    /// distance), writing its frame (depth `d + 1`). Returns its f, or a lower bound on it
    /// that is beyond both the bound and the next bound (then the frame is not written);
    /// and the orientation with its largest sum.
    #[inline(always)]
    fn look_up_lean<const N: usize>(
        &mut self,
        d: usize,
        (blank, np): (usize, usize),
        tile: usize,
        k: usize,
        base: u32,
        first: usize,
    ) -> (u32, usize) {
        let (items, k) = (&self.items, k % 4);
        let (above, below) = self.frames.split_at_mut(d + 1);
        let (parent, child) = (&above[d], &mut below[0]);
        let tile = tile % ITEMS;
        // The orientation likeliest to prune it, from the parent's frame alone.
        let o = first % N;
        let item = &items[o][tile];
        let slot = o * GROUPS + usize::from(item.group) % GROUPS;
        let r = parent.rank[slot].wrapping_add_signed(item.step[k]);
        let sum = parent.sum[o] + item.entries.get_nibble(r) - u32::from(parent.val[slot]);
        let f = base + 2 * sum;
        if f > self.bound && f >= self.next_bound {
            return (f, o);
        }
        // Field by field: copied whole, the frame went through a copy on the stack, both
        // copies calls to the C library's memcpy (its 192 bytes are past what the compiler
        // copies in line).
        child.rank = parent.rank;
        child.val = parent.val;
        child.sum = parent.sum;
        child.rank[slot] = r;
        // Ask for the entries of the child's children's first lookups: their indexes need
        // no table read, so they arrive while the child's other orientations are looked
        // up. Orientation o (the parent's largest sum) stands in for the child's, not
        // known yet; the move back to `blank` is never generated.
        for k2 in 0..4 {
            let np2 = self.moves.nbr[np % 32][k2];
            if np2 == NONE || usize::from(np2) == blank {
                continue;
            }
            let item = &items[o][usize::from(self.cells[usize::from(np2) % 32]) % ITEMS];
            let slot = o * GROUPS + usize::from(item.group) % GROUPS;
            item.entries
                .prefetch_nibble(child.rank[slot].wrapping_add_signed(item.step[k2]));
        }
        let (mut best, mut most) = (0, 0);
        for (o, items) in items.iter().enumerate().take(N) {
            let item = &items[tile];
            let slot = o * GROUPS + usize::from(item.group) % GROUPS;
            let r = parent.rank[slot].wrapping_add_signed(item.step[k]);
            let v = item.entries.get_nibble(r);
            let sum = parent.sum[o] + v - u32::from(parent.val[slot]);
            (child.rank[slot], child.val[slot], child.sum[o]) = (r, v as u8, sum);
            if sum > best {
                (best, most) = (sum, o);
            }
        }
        (base + 2 * best, most)
    }
}
