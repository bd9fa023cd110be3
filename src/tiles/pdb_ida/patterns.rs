//! A state's patterns in one orientation, kept move by move: each pattern's tile
//! cells, rank and stored value, and their sum, read from the packed tables, their
//! spread copies or the zero-aware tables, and restored when the search returns.

use super::{KIND, MAX_GROUPS, SPREAD, ZERO};
use crate::tiles::board::MAX_CELLS;
use crate::tiles::pdb::{Entries, PdbHeuristic, Spread, Table, ZeroTable};

/// The patterns of one state (the searched one, or its reflection): each pattern's tile
/// cells, the set of them, rank and stored value, updated move by move, and the values'
/// sum.
#[derive(Clone, Default)]
pub(super) struct Patterns {
    /// `pos[g][i]`: the cell of tile i of pattern g. Set from the board, then kept move by
    /// move only by the lookups that read it (packed and zero-aware tables, dual
    /// orientations): a plain orientation's index into a spread copy moves by the cell
    /// the tile left and the one it entered, both known from the board.
    pub(super) pos: [[u8; MAX_CELLS]; MAX_GROUPS],
    /// `taken[g]`: the cells of pattern g's tiles, a bit each (kept as `pos` is).
    pub(super) taken: [u32; MAX_GROUPS],
    /// Bit g: the blank is in the main region of pattern g (zero-aware tables only).
    pub(super) main: u32,
    pub(super) rank: [u32; MAX_GROUPS],
    pub(super) val: [u32; MAX_GROUPS],
    pub(super) sum: u32,
}

/// What a pattern's update changed: its old value, rank and main-region bits (in a
/// spread copy, which has no regions, the old sum).
pub(super) type Old = (u32, u32, u32);

impl Patterns {
    /// Ranks and looks up every pattern from `pos` (the blank on `blank`), group g's
    /// table being `h`'s table `groups[g]`, read as `lookup` says.
    pub(super) fn rank_all(&mut self, h: &PdbHeuristic, lookup: u8, groups: &[u8], blank: u8) {
        self.sum = 0;
        self.main = 0;
        for (g, &t) in groups.iter().enumerate() {
            let t = usize::from(t);
            let pos = &self.pos[g][..h.group_len(t)];
            self.taken[g] = pos.iter().fold(0, |m, &c| m | 1 << c);
            if lookup == ZERO && h.zero[t].in_main(self.taken[g], blank) {
                self.main |= 1 << g;
            }
            (self.rank[g], self.val[g]) = match lookup {
                ZERO => (h.zero[t].index(pos), h.zero[t].value(pos, blank)),
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

    /// Ranks and looks up the patterns of a dual orientation from `pos`, the item
    /// `missing` (group, index; the one on the blank's cell, if any) left out, the sum
    /// over the patterns `valid`. A pattern's rank is, with spread copies, the sum over its
    /// items there of their place values times their cells, so that an item entering or
    /// leaving adds or takes its term.
    pub(super) fn rank_dual(
        &mut self,
        h: &PdbHeuristic,
        lookup: u8,
        groups: &[u8],
        missing: (usize, usize),
        valid: u32,
    ) {
        self.main = 0;
        for (g, &t) in groups.iter().enumerate() {
            let t = usize::from(t);
            (self.rank[g], self.val[g]) = (0, 0);
            if g != missing.0 {
                (self.rank[g], self.val[g]) = read_whole(h, lookup, t, &self.pos[g]);
            } else if lookup == SPREAD {
                let s = &h.spreads()[t];
                self.rank[g] = (0..h.group_len(t))
                    .filter(|&i| i != missing.1)
                    .map(|i| u32::from(self.pos[g][i]) * s.place(i))
                    .sum();
            }
        }
        self.sum_over(valid);
    }

    /// Sets the sum to the values of the patterns in `valid` (a bit each).
    #[inline(always)]
    fn sum_over(&mut self, mut valid: u32) {
        self.sum = 0;
        while valid != 0 {
            self.sum += self.val[valid.trailing_zeros() as usize];
            valid &= valid - 1;
        }
    }

    /// A move in a dual orientation (see [`super::Orientation::dual`]), group g's table being
    /// `tables[g]`: the item of the cell the blank moved to, `gone` (group, index), leaves
    /// its pattern; the item of the cell the blank left, `come`, enters its pattern on
    /// cell `to`, which is read when it is whole again; the sum is then over the patterns
    /// `valid` with the blank on its new cell. Returns the entered pattern's old (value,
    /// rank) and the old sum.
    #[inline(always)]
    pub(super) fn update_dual<const LOOKUP: u8>(
        &mut self,
        h: &PdbHeuristic,
        spreads: &[Spread],
        tables: &[u8; MAX_GROUPS],
        moved: [(usize, usize); 2],
        to: u8,
        valid: u32,
    ) -> Old {
        let [(gq, iq), (gb, ib)] = moved;
        let mut old = (0, 0, self.sum);
        if LOOKUP & KIND == SPREAD && gq < MAX_GROUPS {
            let place = spreads[usize::from(tables[gq])].place(iq);
            self.rank[gq] -= u32::from(self.pos[gq][iq]) * place;
        }
        if gb < MAX_GROUPS {
            old = (self.val[gb], self.rank[gb], self.sum);
            self.pos[gb][ib] = to;
            let t = usize::from(tables[gb]);
            if LOOKUP & KIND == SPREAD {
                self.rank[gb] += u32::from(to) * spreads[t].place(ib);
                if gb != gq {
                    self.val[gb] = spreads[t].get(self.rank[gb]);
                }
            } else if gb != gq {
                (self.rank[gb], self.val[gb]) = read_whole(h, LOOKUP & KIND, t, &self.pos[gb]);
            }
        }
        self.sum_over(valid);
        old
    }

    /// Undoes [`Self::update_dual`]: the item that entered pattern `come` leaves it, the
    /// one that left, `gone`, is back on cell `at` (its pattern's value was kept, left out
    /// of the sum while it lacked the item).
    #[inline(always)]
    pub(super) fn undo_dual<const LOOKUP: u8>(
        &mut self,
        spreads: &[Spread],
        tables: &[u8; MAX_GROUPS],
        moved: [(usize, usize); 2],
        at: u8,
        old: Old,
    ) {
        let [(gq, iq), (gb, _)] = moved;
        if gb < MAX_GROUPS {
            (self.val[gb], self.rank[gb]) = (old.0, old.1);
        }
        if gq < MAX_GROUPS {
            self.pos[gq][iq] = at;
            if LOOKUP & KIND == SPREAD {
                let place = spreads[usize::from(tables[gq])].place(iq);
                self.rank[gq] += u32::from(at) * place;
            }
        }
        self.sum = old.2;
    }

    /// Moves tile `i` of pattern `g` from its cell to `to` in the set of taken cells;
    /// returns the cell it left.
    #[inline(always)]
    fn move_tile(&mut self, g: usize, i: usize, to: u8) -> u8 {
        let from = std::mem::replace(&mut self.pos[g][i], to);
        self.taken[g] ^= (1 << from) | (1 << to);
        from
    }

    /// Moves tile `i` of pattern `g` (whose table is `table`) to cell `to`: its rank and
    /// value updated; returns what [`Self::undo`] restores.
    #[inline(always)]
    pub(super) fn update(&mut self, table: &Table, g: usize, i: usize, to: u8) -> Old {
        let pos = &self.pos[g];
        let r = table
            .pattern
            .rank_moved(&pos[..table.pattern.len()], self.rank[g], i, to);
        self.move_tile(g, i, to);
        self.set(g, r, table.get(r))
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

    /// [`Self::update`] with a zero-aware table: the index moves as a spread copy's, the
    /// blank (now on the cell the tile left) is found in the main region or not
    /// ([`ZeroTable::in_main_after`]), and the new state's bit gives the value's change
    /// from the old one, `toward` saying whether the tile moved towards its goal.
    #[inline(always)]
    pub(super) fn update_zero(
        &mut self,
        zero: &ZeroTable,
        g: usize,
        i: usize,
        to: u8,
        toward: bool,
    ) -> Old {
        let old_main = self.main;
        let from = self.move_tile(g, i, to);
        let step = (i32::from(to) - i32::from(from)) * zero.place(i) as i32;
        let r = self.rank[g].wrapping_add_signed(step);
        let taken = self.taken[g];
        let main = zero.in_main_after(old_main & (1 << g) != 0, taken, to, from);
        self.main = (old_main & !(1 << g)) | (u32::from(main) << g);
        let k = zero.pattern.len();
        let bit = zero.bit_in(main, r, &self.pos[g][..k], taken, from);
        let (v, r, _) = self.set(g, r, ZeroTable::step(self.val[g], bit, toward));
        (v, r, old_main)
    }

    /// Sets pattern g's rank and value, returning the old (value, rank, main bits).
    #[inline(always)]
    pub(super) fn set(&mut self, g: usize, r: u32, v: u32) -> Old {
        let old = (self.val[g], self.rank[g], self.main);
        self.val[g] = v;
        self.rank[g] = r;
        self.sum = self.sum + v - old.0;
        old
    }

    /// Moves tile `i` of pattern `g` back to cell `from`, restoring `old` (value, rank,
    /// main bits) and the sum.
    #[inline(always)]
    pub(super) fn undo(&mut self, g: usize, i: usize, from: u8, old: Old) {
        self.move_tile(g, i, from);
        self.main = old.2;
        self.sum = self.sum + old.0 - self.val[g];
        self.val[g] = old.0;
        self.rank[g] = old.1;
    }
}

/// Table `t`'s (rank, value) of the whole placement `pos`, read as `lookup` says (plain
/// tables only).
#[inline(always)]
fn read_whole(h: &PdbHeuristic, lookup: u8, t: usize, pos: &[u8]) -> (u32, u32) {
    if lookup == SPREAD {
        let s = &h.spreads()[t];
        let r = s.index(&pos[..h.group_len(t)]);
        return (r, s.get(r));
    }
    let table = &h.tables[t];
    let r = table.pattern.rank(&pos[..table.pattern.len()]);
    (r, table.get(r))
}
