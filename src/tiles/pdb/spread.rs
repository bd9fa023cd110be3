//! A table's values laid out by cells instead of by perfect rank, for the search's
//! lookups.
//!
//! The perfect rank ([`super::Pattern`]) packs a pattern's placements into n!/(n−k)!
//! entries, but updating it when one tile moves costs a pass over the pattern's tiles.
//! Laid out by cells, a placement's index is the number whose base-n digits are the
//! tiles' cells, `Σ pos[i] · n^(k−1−i)`: a move of tile i from cell `from` to `to` adds
//! `(to − from) · n^(k−1−i)`, one multiply. The price is memory (n^k entries, of which
//! the placements are n!/(n−k)!: 1.9 times as many for six tiles of the 24-puzzle), so a
//! spread copy is made only up to [`MAX_SPREAD_ENTRIES`] entries (tables up to six tiles
//! of the 24-puzzle, seven of the 15-puzzle). It is filled from the packed table in
//! memory (on huge pages: the lookups land anywhere), never stored; the entries of cells
//! taken twice are never read and hold 0.

use super::table::Table;
use crate::tiles::board::MAX_CELLS;

/// The most entries a spread copy has: 2^28, 128 MB at 4 bits an entry.
pub const MAX_SPREAD_ENTRIES: u64 = 1 << 28;

/// The index by cells of a pattern's placements: the number whose base-n digits are its
/// tiles' cells, the first tile's most significant, so a move of tile i changes it by the
/// cells' difference times [`Self::place`]`(i)`. Spread copies are laid out by it.
#[derive(Debug, Clone)]
pub struct CellIndex {
    /// `place[i]`: the place value of tile i's cell, n^(k−1−i).
    place: [u32; MAX_CELLS],
}

impl CellIndex {
    /// The index of `k` tiles' placements on `cells` cells.
    pub fn new(cells: usize, k: usize) -> CellIndex {
        let mut place = [0u32; MAX_CELLS];
        let mut p = 1u64;
        for i in (0..k).rev() {
            place[i] = p as u32;
            p *= cells as u64;
        }
        CellIndex { place }
    }

    /// The index of the placement `pos` (the cells of the pattern's tiles, in order).
    #[inline(always)]
    pub fn index(&self, pos: &[u8]) -> u32 {
        pos.iter()
            .zip(&self.place)
            .map(|(&c, &p)| u32::from(c) * p)
            .sum()
    }

    /// The place value of tile `i`'s cell: its move from `from` to `to` changes the index
    /// by `(to − from) · place(i)`.
    #[inline(always)]
    pub fn place(&self, i: usize) -> u32 {
        self.place[i]
    }
}

/// The last tile's placements (its place is 1), where most of the copying happens: on the
/// cells `free`, at `index` plus the cell in `to`, the values packed in `from` from rank
/// `rank` on, in order (`SHIFT` as in [`Spread::fill`]). Returns the next rank.
#[inline(always)]
fn copy_last<const SHIFT: u32>(
    to: &mut [u8],
    from: &[u8],
    mut free: u32,
    index: u32,
    mut rank: u32,
) -> u32 {
    let mask = if SHIFT == 1 { 0xF } else { 0xFF };
    while free != 0 {
        let at = index + free.trailing_zeros();
        free &= free - 1;
        let value = (from[(rank >> SHIFT) as usize] >> ((rank & SHIFT) << 2)) & mask;
        to[(at >> SHIFT) as usize] |= value << ((at & SHIFT) << 2);
        rank += 1;
    }
    rank
}

/// A table's values indexed by cells ([`CellIndex`]).
#[derive(Debug, Clone)]
pub struct Spread {
    data: Vec<u8>,
    cells: CellIndex,
    /// 0 for bytes, 1 for nibbles, as in the table.
    shift_bits: u32,
    mask: u8,
}

impl Spread {
    /// The entries of a spread copy of a pattern of `k` tiles on `cells` cells.
    pub fn entries_for(cells: usize, k: usize) -> u64 {
        (cells as u64).saturating_pow(k as u32)
    }

    /// The spread copy of `table`, or `None` when it would have more than
    /// [`MAX_SPREAD_ENTRIES`] entries.
    pub fn of(table: &Table) -> Option<Spread> {
        let (n, k) = (table.pattern.cells, table.pattern.len());
        let entries = Spread::entries_for(n, k);
        if entries > MAX_SPREAD_ENTRIES {
            return None;
        }
        let (shift_bits, mask) = table.packing();
        let bytes = (entries as usize).div_ceil(1 << shift_bits);
        let mut s = Spread {
            data: crate::util::huge::huge_zeroed(bytes),
            cells: CellIndex::new(n, k),
            shift_bits,
            mask,
        };
        let mut rank = 0u32;
        match shift_bits {
            1 => s.fill::<1>(table, 0, 0, 0, &mut rank),
            _ => s.fill::<0>(table, 0, 0, 0, &mut rank),
        }
        debug_assert_eq!(u64::from(rank), table.pattern.entries());
        Some(s)
    }

    /// Copies the placements whose first `depth` tiles take the cells `used` at index
    /// `index`, in lexicographic order of the cells, which is the order of their perfect
    /// ranks: `rank` counts them. The entries start at 0, so a value is or-ed in. `SHIFT`
    /// is the packing's (1 for nibbles, 0 for bytes), a constant so that the copy's inner
    /// loop ([`copy_last`]) has no variable shifts.
    fn fill<const SHIFT: u32>(
        &mut self,
        table: &Table,
        depth: usize,
        used: u32,
        index: u32,
        rank: &mut u32,
    ) {
        let (n, k) = (table.pattern.cells, table.pattern.len());
        let mut free = !used & ((1u32 << n) - 1);
        if depth + 1 == k {
            *rank = copy_last::<SHIFT>(&mut self.data, &table.data, free, index, *rank);
            return;
        }
        while free != 0 {
            let c = free.trailing_zeros();
            free &= free - 1;
            let at = index + c * self.cells.place(depth);
            self.fill::<SHIFT>(table, depth + 1, used | 1 << c, at, rank);
        }
    }

    /// The index of the placement `pos` ([`CellIndex::index`]).
    pub fn index(&self, pos: &[u8]) -> u32 {
        self.cells.index(pos)
    }

    /// The place value of tile `i`'s cell ([`CellIndex::place`]).
    #[inline(always)]
    pub fn place(&self, i: usize) -> u32 {
        self.cells.place(i)
    }

    /// The stored value at `index`, as [`Table::get`] at the placement's rank.
    #[inline(always)]
    pub fn get(&self, index: u32) -> u32 {
        self.entries().get(index)
    }

    /// The values and how an index reads them, in one small record that a search keeps
    /// at hand for each tile it looks up.
    pub fn entries(&self) -> Entries<'_> {
        Entries {
            data: &self.data,
            shift_bits: self.shift_bits,
            mask: self.mask,
        }
    }

    /// The bytes the values take.
    pub fn bytes(&self) -> usize {
        self.data.len()
    }
}

/// A spread copy's values ([`Spread::entries`]); the default has none.
#[derive(Debug, Clone, Copy, Default)]
pub struct Entries<'a> {
    data: &'a [u8],
    /// As [`Spread`]'s.
    shift_bits: u32,
    mask: u8,
}

impl Entries<'_> {
    /// The stored value at `index` ([`Spread::get`]).
    #[inline(always)]
    pub fn get(&self, index: u32) -> u32 {
        let byte = self.data[(index >> self.shift_bits) as usize];
        u32::from((byte >> ((index & self.shift_bits) << 2)) & self.mask)
    }

    /// Whether the values are 4 bits each, two a byte ([`Self::get_nibble`] reads them).
    pub fn is_nibbles(&self) -> bool {
        self.shift_bits == 1
    }

    /// [`Self::get`] where the values are 4 bits each ([`Self::is_nibbles`]): fewer
    /// instructions in a search's hottest loop.
    #[inline(always)]
    pub fn get_nibble(&self, index: u32) -> u32 {
        u32::from((self.data[(index >> 1) as usize] >> ((index & 1) << 2)) & 15)
    }

    /// Asks the processor to bring the byte of the nibble at `index` into its caches (a
    /// hint: nothing is read, and an index past the end asks for nothing).
    #[inline(always)]
    pub fn prefetch_nibble(&self, index: u32) {
        if let Some(b) = self.data.get((index >> 1) as usize) {
            crate::util::huge::prefetch(b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Encoding;
    use super::super::rank::Pattern;
    use super::*;
    use crate::tiles::board::{Board, Shape};
    use crate::util::rng::rng_from_seed;
    use rand::RngExt;

    /// Whether the placement `pos` has its tiles on distinct cells.
    fn distinct(pos: &[u8]) -> bool {
        let mut seen = 0u32;
        pos.iter().all(|&c| {
            let fresh = seen & (1 << c) == 0;
            seen |= 1 << c;
            fresh
        })
    }

    /// Every placement's spread entry is its table entry, on patterns of one to five tiles,
    /// and a move changes the index by (to − from) · place.
    #[test]
    fn spread_entries_are_the_tables_and_moves_add_their_place() {
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let mut rng = rng_from_seed(7);
        for tiles in [&[5u8][..], &[1, 2], &[3, 7, 11], &[1, 2, 3, 6, 7]] {
            let table = super::super::build(&goal, tiles, &crate::util::observe::Quiet);
            let s = Spread::of(&table).unwrap();
            assert_eq!(s.bytes() as u64, 16u64.pow(tiles.len() as u32).div_ceil(2));
            // The same values a byte each spread the same.
            let ranks = 0..table.pattern.entries() as u32;
            let bytes = ranks.clone().map(|r| table.get(r) as u8).collect();
            let wide = Table::new(table.pattern.clone(), Encoding::Bytes, bytes);
            let t = Spread::of(&wide).unwrap();
            assert_eq!(t.bytes() as u64, 16u64.pow(tiles.len() as u32));
            let mut pos = [0u8; MAX_CELLS];
            for r in ranks {
                table.pattern.unrank(r, &mut pos);
                let index = s.index(&pos[..tiles.len()]);
                assert_eq!((s.get(index), t.get(index)), (table.get(r), table.get(r)));
            }
            let mut pos = [0u8; MAX_CELLS];
            for _ in 0..2000 {
                for c in pos.iter_mut().take(tiles.len()) {
                    *c = rng.random_range(0..16);
                }
                if !distinct(&pos[..tiles.len()]) {
                    continue;
                }
                let k = tiles.len();
                let index = s.index(&pos[..k]);
                assert_eq!(s.get(index), table.get(table.pattern.rank(&pos[..k])));
                let i = rng.random_range(0..k);
                let to = rng.random_range(0..16u8);
                let mut moved = pos;
                moved[i] = to;
                if distinct(&moved[..k]) {
                    let delta = (i64::from(to) - i64::from(pos[i])) * i64::from(s.place(i));
                    assert_eq!(i64::from(s.index(&moved[..k])), i64::from(index) + delta);
                }
            }
        }
    }

    #[test]
    fn patterns_too_large_have_no_spread_copy() {
        assert_eq!(Spread::entries_for(25, 6), 244_140_625);
        assert!(Spread::entries_for(25, 6) <= MAX_SPREAD_ENTRIES);
        assert!(Spread::entries_for(16, 7) <= MAX_SPREAD_ENTRIES);
        assert!(Spread::entries_for(16, 8) > MAX_SPREAD_ENTRIES);
        assert!(Spread::entries_for(25, 7) > MAX_SPREAD_ENTRIES);
        // The 8-tile pattern of the 15-puzzle's 7-8 partition: none, decided before its
        // values are read (this table has none).
        let eight = Pattern::new(&[8, 9, 10, 11, 12, 13, 14, 15], 16);
        let table = Table::new(eight, Encoding::Nibbles, Vec::new());
        assert!(Spread::of(&table).is_none());
    }
}
