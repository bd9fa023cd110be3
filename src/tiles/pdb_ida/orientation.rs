//! The sums the heuristic maximises over (orientations: a partition of the state or of
//! its reflection) and what a lookup in a spread copy needs of each
//! tile in each of them, gathered once when the search is set up.

use crate::tiles::board::MAX_CELLS;
use crate::tiles::deepen::{Moves, NONE};
use crate::tiles::pdb::{Entries, MAX_PARTS, PdbHeuristic, Spread};

/// The orientation looked up `j`-th when `first` is looked up first, the others in order.
#[inline(always)]
pub(super) fn orientation_at(j: usize, first: usize) -> usize {
    match j {
        0 => first,
        j if j <= first => j - 1,
        j => j,
    }
}

/// The most patterns a partition has: a tile each at most.
pub(super) const MAX_GROUPS: usize = MAX_CELLS;

/// The most orientations: each partition, plain and reflected.
pub(super) const MAX_ORIENT: usize = 2 * MAX_PARTS;
/// The undo records' length for up to four partitions (the default's), a quarter of the
/// most: a node's record is cleared on every expansion.
pub(super) const FEW_ORIENT: usize = 8;

/// One sum the heuristic maximises over: a partition of the state, or of its reflection,
/// as maps from the searched board's tiles and cells.
#[derive(Clone, Copy)]
pub(super) struct Orientation {
    /// `group[t]`, `index[t]`: the group and place in it of the tile board tile t stands
    /// for (`NONE`: in no group).
    pub(super) group: [u8; MAX_CELLS + 1],
    pub(super) index: [u8; MAX_CELLS + 1],
    /// `cell[c]`: the cell board cell c stands for.
    pub(super) cell: [u8; MAX_CELLS],
    /// `table[g]`: the heuristic's table of group g.
    pub(super) table: [u8; MAX_GROUPS],
    pub(super) groups: usize,
}

impl Orientation {
    /// Each part of `h`, plain and (when `h` has one) reflected, in that order.
    pub(super) fn all(h: &PdbHeuristic) -> Vec<Orientation> {
        let mut maps = vec![(
            std::array::from_fn(|t| t as u8),
            std::array::from_fn(|c| c as u8),
        )];
        if let Some(r) = &h.reflection {
            maps.push((r.tile, r.cell));
        }
        let mut out = Vec::new();
        for part in &h.parts {
            for &(tile, cell) in &maps {
                let mut o = Orientation {
                    group: [NONE; MAX_CELLS + 1],
                    index: [0; MAX_CELLS + 1],
                    cell,
                    table: [0; MAX_GROUPS],
                    groups: part.table.len(),
                };
                for (t, &mt) in tile.iter().enumerate().take(h.goal.len()).skip(1) {
                    let mt = usize::from(mt);
                    if mt != 0 && part.group[mt] != u8::MAX {
                        o.group[t] = part.group[mt];
                        o.index[t] = part.index[mt];
                    }
                }
                for (g, &i) in part.table.iter().enumerate() {
                    o.table[g] = i as u8;
                }
                out.push(o);
            }
        }
        out
    }
}

/// What a lookup in a spread copy needs of a board tile in one orientation, gathered
/// from the orientation, its tables and their place values into one record, so that a
/// child's lookup reads one record where it would follow five maps.
#[derive(Clone, Copy, Default)]
pub(super) struct SpreadItem<'a> {
    /// The tile's group (`NONE`: in no group, nothing to look up).
    pub(super) group: u8,
    /// `step[k]`: the change of the group's index when the tile moves into the blank's
    /// cell, the blank making the k-th move of the order: the cells' change (the same
    /// wherever the blank is, the orientation's map of cells being the identity or the
    /// transpose) times the tile's place value ([`Spread::place`]).
    pub(super) step: [i32; 4],
    /// The group's table.
    pub(super) entries: Entries<'a>,
}

impl<'a> SpreadItem<'a> {
    /// `items[t]` for each tile t of orientation `or` (none where it is in no group, or
    /// with no spread copies), the moves being `moves` on a board of `cells` cells.
    pub(super) fn of(
        or: &Orientation,
        spreads: &'a [Spread],
        moves: &Moves,
        cells: usize,
    ) -> [Self; ITEMS] {
        let mut items = [SpreadItem {
            group: NONE,
            ..SpreadItem::default()
        }; ITEMS];
        if spreads.is_empty() {
            return items;
        }
        let shift = cell_shifts(or, moves, cells);
        for (t, item) in items.iter_mut().enumerate().take(MAX_CELLS + 1) {
            let g = or.group[t];
            if g != NONE {
                let spread = &spreads[usize::from(or.table[usize::from(g)])];
                let place = spread.place(usize::from(or.index[t])) as i32;
                *item = SpreadItem {
                    group: g,
                    step: shift.map(|d| d * place),
                    entries: spread.entries(),
                };
            }
        }
        items
    }
}

/// `shift[k]`: the change of orientation `or`'s cell of the tile that moves into the
/// blank's cell when the blank makes the k-th move of the order, the same from every cell
/// (checked).
fn cell_shifts(or: &Orientation, moves: &Moves, cells: usize) -> [i32; 4] {
    let mut shift = [None; 4];
    for (blank, nbr) in moves.nbr.iter().enumerate().take(cells) {
        for (k, &np) in nbr.iter().enumerate() {
            if np != NONE {
                let d = i32::from(or.cell[blank]) - i32::from(or.cell[usize::from(np)]);
                assert_eq!(
                    *shift[k].get_or_insert(d),
                    d,
                    "a cell map that is not a symmetry"
                );
            }
        }
    }
    shift.map(|d| d.unwrap_or(0))
}

/// The length of an orientation's [`SpreadItem`]s: a power of two above the tiles, so that
/// a tile indexes them without a bounds check.
pub(super) const ITEMS: usize = 32;
