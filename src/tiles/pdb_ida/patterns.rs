//! A state's patterns in one orientation, kept move by move: each pattern's tile
//! cells, rank and stored value, and their sum, read from the packed tables or their
//! spread copies, and restored when the search returns.

use super::orientation::MAX_GROUPS;
use crate::tiles::board::MAX_CELLS;
use crate::tiles::pdb::{Entries, PdbHeuristic, Table};

/// How the search reads a table: by perfect rank from the packed table, or by cells from
/// its spread copy.
pub(super) const PACKED: u8 = 0;
pub(super) const SPREAD: u8 = 1;

/// The patterns of one state (the searched one, or its reflection): each pattern's tile
/// cells, rank and stored value, updated move by move, and the values' sum.
#[derive(Clone, Default)]
pub(super) struct Patterns {
    /// `pos[g][i]`: the cell of tile i of pattern g. Set from the board, then kept move by
    /// move only by the lookups that read it (packed tables): an index into a spread copy
    /// moves by the cell the tile left and the one it entered, both known from the board.
    pub(super) pos: [[u8; MAX_CELLS]; MAX_GROUPS],
    pub(super) rank: [u32; MAX_GROUPS],
    pub(super) val: [u32; MAX_GROUPS],
    pub(super) sum: u32,
}

/// What a pattern's update changed: its old value and rank, and (in a spread copy) the
/// old sum.
pub(super) type Old = (u32, u32, u32);

impl Patterns {
    /// Ranks and looks up every pattern from `pos`, group g's table being `h`'s table
    /// `groups[g]`, read as `lookup` says.
    pub(super) fn rank_all(&mut self, h: &PdbHeuristic, lookup: u8, groups: &[u8]) {
        self.sum = 0;
        for (g, &t) in groups.iter().enumerate() {
            let t = usize::from(t);
            let pos = &self.pos[g][..h.group_len(t)];
            (self.rank[g], self.val[g]) = match lookup {
                SPREAD => {
                    let s = &h.spreads()[t];
                    (s.index(pos), s.get(s.index(pos)))
                }
                _ => {
                    let table = &h.tables[t];
                    let r = table.pattern.rank(pos);
                    (r, table.get(r))
                }
            };
            self.sum += self.val[g];
        }
    }

    /// Moves tile `i` of pattern `g` (whose table is `table`) to cell `to`: its rank and
    /// value updated; returns what [`Self::undo`] restores.
    #[inline(always)]
    pub(super) fn update(&mut self, table: &Table, g: usize, i: usize, to: u8) -> Old {
        let pos = &self.pos[g];
        let r = table
            .pattern
            .rank_moved(&pos[..table.pattern.len()], self.rank[g], i, to);
        self.pos[g][i] = to;
        let old = (self.val[g], self.rank[g], self.sum);
        let v = table.get(r);
        self.val[g] = v;
        self.rank[g] = r;
        self.sum = self.sum + v - old.0;
        old
    }

    /// [`Self::update`] with ranks that are indexes into spread copies: the index moves
    /// by `step`, the cells' change times the tile's place ([`super::SpreadItem`]). Nothing else
    /// needs the tiles' cells here, so they are not kept. Returns the old (value, rank,
    /// sum), which [`Self::restore_spread`] puts back.
    #[inline(always)]
    pub(super) fn update_spread(&mut self, entries: Entries, g: usize, step: i32) -> Old {
        let old = (self.val[g], self.rank[g], self.sum);
        let r = old.1.wrapping_add_signed(step);
        let v = entries.get(r);
        self.val[g] = v;
        self.rank[g] = r;
        self.sum = old.2 + v - old.0;
        old
    }

    /// Undoes [`Self::update_spread`] of pattern `g`.
    #[inline(always)]
    pub(super) fn restore_spread(&mut self, g: usize, old: Old) {
        (self.val[g], self.rank[g], self.sum) = old;
    }

    /// Moves tile `i` of pattern `g` back to cell `from`, restoring `old` (value, rank)
    /// and the sum.
    #[inline(always)]
    pub(super) fn undo(&mut self, g: usize, i: usize, from: u8, old: Old) {
        self.pos[g][i] = from;
        self.sum = self.sum + old.0 - self.val[g];
        self.val[g] = old.0;
        self.rank[g] = old.1;
    }
}
