//! The board's geometry as cell masks, and the blank's regions of a pattern's placements
//! for the zero-aware tables ([`super::zero`]).
//!
//! A placement's free cells (those no pattern tile takes) fall into regions the blank
//! crosses without moving a pattern tile. The regions depend only on which cells are
//! taken, not on which tile takes which, so they are worked out once for every set of k
//! taken cells: C(n, k) sets, 177,100 for six tiles of the 24-puzzle. The *main* region
//! is the one holding more than half the free cells, where the blank is most of the time
//! (a set may have none, when tiles wall the board in two); the others are *pockets*,
//! numbered in the order of their lowest cells. For six tiles of the 24-puzzle 37% of the
//! sets have a pocket, but a blank placed at random is in one 4% of the time.
//!
//! The search learns whether the blank is in the main region without memory, move by
//! move: when a pattern tile moves into the blank's cell, the blank, which was in the
//! main region, stays in it if the tile's new cell did not cut that region: its free
//! neighbours are joined around it, which the 3×3 window around the cell shows
//! ([`Regions::ring_joins`]). Otherwise, a set without pockets has the blank in its main
//! region ([`Regions::pocket_count`], two bits a set: 44 KB for six tiles of the
//! 24-puzzle, which stay in the processor's cache), and only a set with pockets has its
//! region flooded.
//!
//! A zero-aware table keeps the main regions' entries indexed by cells (as a spread copy is) and
//! the pockets' entries in a compact array: set s's pockets start at entry
//! `offset(s) · k!`, one block of k! entries (the orders of the tiles on the set's cells)
//! per pocket. A set is found by its colexicographic rank, which is the order of the
//! taken-cell masks as numbers, so the sets are enumerated in rank order by counting up
//! through masks of k bits.

use crate::tiles::board::{Dir, MAX_CELLS, Shape};

/// The board's geometry as bit masks: cell c is bit c.
#[derive(Debug, Clone)]
pub struct Grid {
    pub n: usize,
    pub all: u32,
    /// Cells with a neighbour to the left (a region may grow right into them), etc.
    not_first_col: u32,
    not_last_col: u32,
    pub w: usize,
    /// `nbr[c][d]`: the neighbour of cell c in direction `Dir::ALL[d]` (u8::MAX: none).
    pub nbr: [[u8; 4]; MAX_CELLS],
}

impl Grid {
    pub fn new(shape: Shape) -> Grid {
        let n = shape.cells();
        let w = shape.width;
        let mut g = Grid {
            n,
            all: if n == 32 { u32::MAX } else { (1 << n) - 1 },
            not_first_col: 0,
            not_last_col: 0,
            w,
            nbr: [[u8::MAX; 4]; MAX_CELLS],
        };
        for c in 0..n {
            if c % w != 0 {
                g.not_first_col |= 1 << c;
            }
            if c % w != w - 1 {
                g.not_last_col |= 1 << c;
            }
            for (k, d) in Dir::ALL.into_iter().enumerate() {
                if let Some(q) = shape.neighbour(c, d) {
                    g.nbr[c][k] = q as u8;
                }
            }
        }
        g
    }

    /// The cells of `free` connected to `seed` (a subset of `free`).
    #[inline(always)]
    pub fn flood(&self, seed: u32, free: u32) -> u32 {
        let mut r = seed;
        loop {
            let grown = (r
                | ((r << 1) & self.not_first_col)
                | ((r >> 1) & self.not_last_col)
                | (r << self.w)
                | (r >> self.w))
                & free;
            if grown == r {
                return r;
            }
            r = grown;
        }
    }

    /// The regions of `free`, in the order of their lowest cells.
    pub fn regions(&self, free: u32) -> impl Iterator<Item = u32> + '_ {
        std::iter::successors(Some((0, free)), |&(_, rest)| {
            (rest != 0).then(|| {
                let r = self.flood(rest & rest.wrapping_neg(), rest);
                (r, rest & !r)
            })
        })
        .skip(1)
        .map(|(r, _)| r)
    }
}

/// Where a (placement, blank region) state's entry is in a zero-aware table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The main region: the entry at the placement's cell index.
    Main,
    /// A pocket: the entry at this index of the pockets' array.
    Pocket(u64),
}

/// The pockets of a set of taken cells.
#[derive(Debug, Clone, Copy)]
struct Pockets {
    /// The cells outside the main region.
    cells: u32,
    /// The lowest cell of each pocket.
    lows: u32,
    /// The number of pockets of the sets before this one.
    first: u32,
}

/// The regions of every set of k taken cells of a board (see the module documentation).
#[derive(Debug)]
pub struct Regions {
    pub grid: Grid,
    pub k: usize,
    /// `binom[i][c]` = C(c, i + 1): a set's rank is the sum over its cells c_0 < c_1 < …
    /// of `binom[i][c_i]`.
    binom: [[u32; MAX_CELLS]; MAX_CELLS],
    /// By set rank: its pockets.
    sets: Vec<Pockets>,
    /// By set rank, two bits each: whether the set has pockets, and whether it has more
    /// than one (a thirtieth of `sets`' size, so they stay in cache).
    kinds: Vec<u64>,
    /// `window[c]`: the bits of the 3×3 window around cell c that are on the board.
    window: [u16; MAX_CELLS],
    /// `joined[w]`: whether the free edge neighbours of the window's centre (bits 1, 3,
    /// 5, 7 of the window `w`, row by row) are joined through the free cells around it.
    joined: [bool; 512],
    /// k!: the orders of the tiles on one set of cells.
    perms: u64,
    /// The pockets' entries in all.
    pub pocket_entries: u64,
}

impl Regions {
    /// The regions of every set of `k` cells of `shape`'s board (1 ≤ k < cells).
    pub fn new(shape: Shape, k: usize) -> Regions {
        let grid = Grid::new(shape);
        let n = grid.n;
        assert!((1..n).contains(&k), "a pattern leaves the blank a cell");
        let mut binom = [[0u32; MAX_CELLS]; MAX_CELLS];
        for (i, row) in binom.iter_mut().enumerate().take(k) {
            for (c, b) in row.iter_mut().enumerate().take(n) {
                *b = choose(c as u64, i as u64 + 1) as u32;
            }
        }
        let sets = choose(n as u64, k as u64) as usize;
        let mut pockets = Vec::with_capacity(sets);
        let mut pockets_before = 0u32;
        let mut taken: u32 = (1 << k) - 1;
        while taken & !grid.all == 0 {
            let regions: Vec<u32> = grid.regions(grid.all & !taken).collect();
            let free = grid.all & !taken;
            let main = (regions.iter())
                .find(|r| 2 * r.count_ones() > free.count_ones())
                .map_or(0, |&r| r);
            pockets.push(Pockets {
                cells: free & !main,
                lows: (regions.iter())
                    .filter(|&&r| r != main)
                    .fold(0, |m, r| m | r & r.wrapping_neg()),
                first: pockets_before,
            });
            pockets_before += regions.len() as u32 - u32::from(main != 0);
            taken = next_same_ones(taken);
        }
        let mut kinds = vec![0u64; pockets.len().div_ceil(32)];
        for (r, p) in pockets.iter().enumerate() {
            let kind = u64::from(p.lows.count_ones().min(2));
            kinds[r / 32] |= kind << (2 * (r % 32));
        }
        let perms = (1..=k as u64).product();
        let w = grid.w;
        let window = std::array::from_fn(|c| {
            let mut bits = 0u16;
            for (b, (dr, dc)) in (-1i32..=1)
                .flat_map(|r| (-1i32..=1).map(move |c| (r, c)))
                .enumerate()
            {
                let (r, col) = ((c / w) as i32 + dr, (c % w) as i32 + dc);
                if c < n && col >= 0 && col < w as i32 && r >= 0 && ((r as usize) * w) < n {
                    bits |= 1 << b;
                }
            }
            bits
        });
        Regions {
            grid,
            k,
            binom,
            sets: pockets,
            kinds,
            window,
            joined: std::array::from_fn(|w| ring_joined(w as u16)),
            perms,
            pocket_entries: u64::from(pockets_before) * perms,
        }
    }

    /// The rank of the set of taken cells `taken` (k of them).
    #[inline(always)]
    pub fn rank(&self, mut taken: u32) -> usize {
        let mut r = 0u32;
        for row in &self.binom[..self.k] {
            r += row[taken.trailing_zeros() as usize];
            taken &= taken - 1;
        }
        r as usize
    }

    /// The number of pockets of the taken cells `taken`: 0, 1, or 2 for two or more.
    #[inline(always)]
    pub fn pocket_count(&self, taken: u32) -> u32 {
        let r = self.rank(taken);
        ((self.kinds[r / 32] >> (2 * (r % 32))) & 3) as u32
    }

    /// Whether the blank on `cell` is in the main region of the taken cells `taken`.
    #[inline(always)]
    pub fn in_main(&self, taken: u32, cell: u8) -> bool {
        if self.pocket_count(taken) == 0 {
            return true;
        }
        let free = self.grid.all & !taken;
        2 * self.grid.flood(1 << cell, free).count_ones() > free.count_ones()
    }

    /// Whether the free edge neighbours of cell `cell` (taken, in `taken`) are joined
    /// through the free cells of the 3×3 window around it: then taking the cell, free
    /// before, split no region, and every free neighbour is in one region.
    #[inline(always)]
    pub fn ring_joins(&self, taken: u32, cell: u8) -> bool {
        let (w, c) = (self.grid.w, usize::from(cell));
        // Free cells shifted up one row and one cell, so that the window's top-left is
        // never below bit 0.
        let free = u64::from(self.grid.all & !taken) << (w + 1);
        let row = |r: usize| ((free >> (c + r * w)) & 7) as usize;
        let bits = (row(0) | row(1) << 3 | row(2) << 6) & usize::from(self.window[c]);
        self.joined[bits]
    }

    /// The cells outside the main region of the taken cells `taken` (0: it has one
    /// region).
    #[inline(always)]
    pub fn pockets(&self, taken: u32) -> u32 {
        self.sets[self.rank(taken)].cells
    }

    /// The slot of the state whose tiles stand on `pos` (the cells `taken`) and whose
    /// blank is on `cell`.
    #[inline(always)]
    pub fn slot(&self, pos: &[u8], taken: u32, cell: u8) -> Slot {
        if self.pockets(taken) & (1 << cell) == 0 {
            return Slot::Main;
        }
        Slot::Pocket(self.pocket_index(pos, taken, cell))
    }

    /// The pockets' array index of the state whose tiles stand on `pos` (the cells
    /// `taken`) and whose blank is on `cell`, in a pocket.
    #[inline(never)]
    pub fn pocket_index(&self, pos: &[u8], taken: u32, cell: u8) -> u64 {
        let set = self.sets[self.rank(taken)];
        let lowest = self.grid.flood(1 << cell, set.cells).trailing_zeros();
        // The pockets whose lowest cells are below this one's come before it.
        let number = (set.lows & ((1 << lowest) - 1)).count_ones();
        u64::from(set.first + number) * self.perms + self.order(pos, taken)
    }

    /// The rank of the tiles' order on their cells: tile i's digit is the number of the
    /// cells of later tiles below its own (a mixed-radix number, the first tile highest).
    #[inline(always)]
    fn order(&self, pos: &[u8], taken: u32) -> u64 {
        let mut rest = taken;
        let mut r = 0u64;
        for (i, &c) in pos.iter().enumerate() {
            rest &= !(1 << c);
            r = r * (self.k - i) as u64 + u64::from((rest & ((1 << c) - 1)).count_ones());
        }
        r
    }
}

/// Whether the set edge bits (1, 3, 5, 7) of the 3×3 window `w` (bit r·3 + c) are joined
/// through its set ring cells (the centre, bit 4, left out); the ring's cells in order
/// around it are each next to the following one.
fn ring_joined(w: u16) -> bool {
    const RING: [u16; 8] = [0, 1, 2, 5, 8, 7, 6, 3];
    let set = |i: usize| w & (1 << RING[i % 8]) != 0;
    // Runs of set cells around the ring; the edges must all be in one run.
    let mut run_of = [usize::MAX; 8];
    let mut runs = 0;
    let start = (0..8).find(|&i| !set(i));
    let Some(start) = start else { return true };
    for step in 1..=8 {
        let i = (start + step) % 8;
        if set(i) {
            if !set(i + 7) {
                runs += 1;
            }
            run_of[i] = runs;
        }
    }
    let edge_runs: Vec<usize> = (0..8)
        .filter(|&i| RING[i] % 2 == 1 && set(i))
        .map(|i| run_of[i])
        .collect();
    edge_runs.windows(2).all(|p| p[0] == p[1])
}

/// C(n, k).
fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// The next larger number with as many one bits (Gosper's hack).
fn next_same_ones(x: u32) -> u32 {
    let low = x & x.wrapping_neg();
    let ripple = x.wrapping_add(low);
    if ripple == 0 {
        return u32::MAX;
    }
    ripple | (((x ^ ripple) >> 2) / low)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_ranks_count_the_sets_in_order_and_pockets_are_what_is_left() {
        // 3x3 with 3 tiles: C(9, 3) = 84 sets, ranked 0..84 in mask order; every set's
        // pocket cells are the free cells outside its largest region.
        let shape = Shape::new(3, 3).unwrap();
        let r = Regions::new(shape, 3);
        assert_eq!(r.sets.len(), 84);
        let mut rank = 0;
        for taken in 0u32..512 {
            if taken.count_ones() != 3 {
                continue;
            }
            assert_eq!(r.rank(taken), rank);
            rank += 1;
            let free = 511 & !taken;
            let regions: Vec<u32> = r.grid.regions(free).collect();
            let largest = regions.iter().map(|x| x.count_ones()).max().unwrap();
            let pockets = r.pockets(taken);
            assert_eq!(pockets & !free, 0);
            // The regions that are not the main one, counted up to two.
            let count = r.grid.regions(pockets).count().min(2) as u32;
            assert_eq!(r.pocket_count(taken), count, "{taken:09b}");
            if 2 * largest > free.count_ones() {
                assert_eq!((free & !pockets).count_ones(), largest);
                assert!(r.grid.regions(free & !pockets).count() == 1);
            } else {
                assert_eq!(pockets, free, "no main region");
            }
        }
        // Tiles on cells 1 and 3 cut off the corner 0; the rest is the main region.
        assert_eq!(r.pockets(0b1_0000_1010), 0b1);
        assert_eq!(r.pocket_count(0b1_0000_1010), 1);
        // Tiles on 1, 3 and 5 cut off the corners 0 and 2.
        assert_eq!(r.pocket_count(0b0_0010_1010), 2);
        assert_eq!(r.pocket_count(0b0_0000_0111), 0);
        // Tiles on 1, 4 and 3: corner 0 cut off (cells 2, 5, 6, 7, 8 stay joined).
        assert_eq!(r.pockets(0b0_0001_1010), 0b1);
    }

    #[test]
    fn slots_are_a_bijection_of_the_states_with_their_blank_in_a_pocket() {
        // Every (placement, pocket) state of 3 tiles on the 3x3 board gets its own pocket entry, and every entry is some
        // state's. Six tiles of the 5x5 board: 74,398 pockets (counted by an independent
        // flood fill: every region of every set of six cells but those holding more than
        // half the free cells) of 6! entries each.
        let r = Regions::new(Shape::new(3, 3).unwrap(), 3);
        let mut seen = vec![false; r.pocket_entries as usize];
        let mut pos = [0u8; 3];
        for a in 0..9u8 {
            for b in 0..9u8 {
                for c in 0..9u8 {
                    if a == b || b == c || a == c {
                        continue;
                    }
                    pos.copy_from_slice(&[a, b, c]);
                    let taken = (1 << a) | (1 << b) | (1 << c);
                    let pockets = r.pockets(taken);
                    for region in r.grid.regions(511 & !taken) {
                        let cell = region.trailing_zeros() as u8;
                        // Every cell of a region gives its slot.
                        let slots: Vec<Slot> = (0..9u8)
                            .filter(|&x| region & (1 << x) != 0)
                            .map(|x| r.slot(&pos, taken, x))
                            .collect();
                        assert!(slots.iter().all(|s| *s == slots[0]));
                        match r.slot(&pos, taken, cell) {
                            Slot::Main => assert_eq!(region & pockets, 0),
                            Slot::Pocket(i) => {
                                assert_eq!(region & !pockets, 0);
                                assert!(!std::mem::replace(&mut seen[i as usize], true));
                            }
                        }
                    }
                }
            }
        }
        assert!(
            seen.iter().all(|&s| s),
            "every pocket entry is some state's"
        );
        let six = Regions::new(Shape::new(5, 5).unwrap(), 6);
        assert_eq!(six.sets.len(), 177_100);
        assert_eq!(six.pocket_entries, 74_398 * 720);
        // Every set of six cells: its pockets get the numbers from the set's first on,
        // one each, in the order of their lowest cells (a pocket that reaches below
        // another's lowest cell, as a U around it does, is still one pocket).
        let mut taken: u32 = 0b11_1111;
        let mut next = 0;
        while taken < 1 << 25 {
            let free = six.grid.all & !taken;
            let pockets = six.pockets(taken);
            let mut lows: Vec<u32> = six.grid.regions(pockets).map(u32::trailing_zeros).collect();
            lows.sort();
            for (number, &low) in lows.iter().enumerate() {
                let region = six.grid.flood(1 << low, free);
                let pos: Vec<u8> = (0..25u8).filter(|&c| taken & (1 << c) != 0).collect();
                for cell in (0..25u8).filter(|&c| region & (1 << c) != 0) {
                    let i = six.pocket_index(&pos, taken, cell);
                    assert_eq!(i / 720, next + number as u64, "{taken:025b}, cell {cell}");
                }
            }
            next += lows.len() as u64;
            taken = next_same_ones(taken);
        }
        assert_eq!(next * 720, six.pocket_entries);
    }

    #[test]
    fn a_blank_in_the_main_region_stays_there_when_the_window_says_so() {
        // Random sets of six cells of the 5x5 board and moves of one of their tiles into a
        // free neighbour: when the blank, on that neighbour, was in the main region and
        // the window around the tile's new cell joins its free neighbours, the blank (on
        // the cell the tile left) is in the main region afterwards; and the window says so
        // for most such moves (measured: 65.5%; the search floods the region for the rest).
        use crate::util::rng::rng_from_seed;
        use rand::RngExt;
        let r = Regions::new(Shape::new(5, 5).unwrap(), 6);
        let mut rng = rng_from_seed(11);
        let (mut tried, mut joined) = (0, 0);
        while tried < 20_000 {
            let mut taken = 0u32;
            while taken.count_ones() < 6 {
                taken |= 1 << rng.random_range(0..25);
            }
            let from = select_set(taken, rng.random_range(0..6));
            for &to in &r.grid.nbr[from as usize] {
                if to == u8::MAX || taken & (1 << to) != 0 || !r.in_main(taken, to) {
                    continue;
                }
                let after = taken ^ (1 << from) ^ (1 << to);
                tried += 1;
                if r.ring_joins(after, to) {
                    joined += 1;
                    assert!(r.in_main(after, from), "{taken:025b}: {from} -> {to}");
                }
            }
        }
        assert!(joined * 10 > tried * 6, "{joined} of {tried}");
    }

    /// The cell of the `d`-th set bit of `mask`.
    fn select_set(mask: u32, d: u32) -> u8 {
        let mut m = mask;
        for _ in 0..d {
            m &= m - 1;
        }
        m.trailing_zeros() as u8
    }
}
