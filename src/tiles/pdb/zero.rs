//! Zero-aware pattern databases with one-bit entries (Clausecker & Reinefeld 2021).
//!
//! A plain table keeps, for each placement of the pattern's tiles, the least cost over
//! the blank's regions. A zero-aware one keeps the cost of each (placement, blank region)
//! state: where the blank is walled in by the pattern's tiles, the tiles must move to let
//! it out, and the plain table's minimum forgets those moves. The values are larger, so
//! IDA* expands fewer nodes (Clausecker & Reinefeld measured 1.6 times fewer on Korf's
//! fifty 24-puzzles), and still admissible and additive: they are the costs of the same
//! abstract space the plain tables minimise over ([`super::build`]).
//!
//! **One bit an entry.** The cost z of a state is its distance in the abstract space,
//! which is bipartite, so a move of a pattern tile changes z by exactly one, and a move of
//! another tile changes nothing (the blank stays in its region). The stored value
//! s = (z − md) / 2 (md: the pattern's Manhattan distance) then changes by 0 or +1 when
//! the tile moves towards its goal and by 0 or −1 when it moves away, so s's parity tells
//! the change. The search knows the parent's s, so each entry is one bit, s mod 2: 30.5 MB
//! for a six-tile pattern of the 24-puzzle's main regions instead of 122 MB at four bits.
//! A state's full value, needed only at the root of a search, is found by walking
//! downhill (a move whose bit says z drops) to the goal and counting the steps.
//!
//! **Layout.** The main region's entries ([`super::regions`]) are indexed by cells as a spread copy is
//! ([`super::Spread`]): a move adds one multiple of the tile's place value to the index.
//! Each index has two bits side by side: the state with the blank in the main region, and
//! the state with the blank in the pocket when the set of taken cells has exactly one, so
//! that both are read from the same cache line. The pockets' entries are also in a
//! compact array found through the set of taken cells, where the pockets of the sets
//! with several are read. The search knows, move by move and mostly without reading
//! memory, whether the blank is in the main region ([`Regions::ring_joins`],
//! [`Regions::pocket_count`]), so a lookup is one bit read, as from a spread copy, from a
//! table half its size (61 MB and 6.7 MB of pockets for six tiles of the 24-puzzle,
//! against 122 MB). Before the pairing, the pocket states cost a second read and the
//! search was a third slower (2.5–2.9 against 3.5–4 million nodes a second).

use super::rank::Pattern;
use super::regions::{Regions, Slot};
use super::spread::CellIndex;
use crate::tiles::board::{Board, MAX_CELLS};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// The most entries of a zero-aware table's main regions, 2^32 (two bits each, 1 GB):
/// patterns up to six tiles of the 24-puzzle, eight of the 15-puzzle.
pub const MAX_ZERO_ENTRIES: u64 = 1 << 32;

/// The entries of the main regions for a pattern of `k` tiles on `cells` cells (one per number
/// with k base-`cells` digits).
pub fn main_entries(cells: usize, k: usize) -> u64 {
    (cells as u64).saturating_pow(k as u32)
}

/// A pattern's zero-aware table: one bit a (placement, blank region) state, the parity
/// of its stored value (see the module documentation).
#[derive(Debug, Clone)]
pub struct ZeroTable {
    pub pattern: Pattern,
    pub(super) regions: Arc<Regions>,
    /// The main regions' index of a placement.
    cells: CellIndex,
    pub(super) main: Vec<u8>,
    pub(super) pocket: Vec<u8>,
    /// `histogram[z]`: the states whose cost is z moves.
    pub histogram: Vec<u64>,
    /// How long the build took (as recorded when it was built).
    pub build_seconds: f64,
    /// Each tile's goal cell, the blank's goal cell, and `md[i][c]`: tile i's Manhattan
    /// distance from cell c to its goal.
    goal: [u8; MAX_CELLS],
    blank_goal: u8,
    md: [[u8; MAX_CELLS]; MAX_CELLS],
}

impl ZeroTable {
    /// An empty table of `tiles` towards `goal` (every bit 0), its regions `regions`
    /// (for `tiles.len()` tiles on `goal`'s board).
    pub(super) fn empty(goal: &Board, tiles: &[u8], regions: Arc<Regions>) -> ZeroTable {
        let (n, k) = (goal.len(), tiles.len());
        assert_eq!(regions.k, k);
        let w = goal.width as usize;
        let cell_of = |t: u8| goal.tiles().iter().position(|&x| x == t).unwrap_or(0);
        let mut goal_cells = [0u8; MAX_CELLS];
        let mut md = [[0u8; MAX_CELLS]; MAX_CELLS];
        for (i, &t) in tiles.iter().enumerate() {
            let gc = cell_of(t);
            goal_cells[i] = gc as u8;
            for (c, m) in md[i].iter_mut().enumerate().take(n) {
                *m = ((c / w).abs_diff(gc / w) + (c % w).abs_diff(gc % w)) as u8;
            }
        }
        ZeroTable {
            pattern: Pattern::new(tiles, n),
            cells: CellIndex::new(n, k),
            main: crate::util::huge::huge_zeroed(main_entries(n, k).div_ceil(4) as usize),
            pocket: crate::util::huge::huge_zeroed(regions.pocket_entries.div_ceil(8) as usize),
            regions,
            histogram: Vec::new(),
            build_seconds: 0.0,
            goal: goal_cells,
            blank_goal: cell_of(0) as u8,
            md,
        }
    }

    /// The main regions' index of the placement `pos` ([`CellIndex::index`]).
    #[inline(always)]
    pub fn index(&self, pos: &[u8]) -> u32 {
        self.cells.index(pos)
    }

    /// The place value of tile `i`'s cell ([`CellIndex::place`]).
    #[inline(always)]
    pub fn place(&self, i: usize) -> u32 {
        self.cells.place(i)
    }

    /// The bit of the state whose tiles stand on `pos` (the cells `taken`, cell index
    /// `index`) with the blank on `blank`.
    pub fn bit(&self, index: u32, pos: &[u8], taken: u32, blank: u8) -> u32 {
        match self.regions.slot(pos, taken, blank) {
            Slot::Main => bit_of(&self.main, paired(index, false)),
            Slot::Pocket(i) => bit_of(&self.pocket, i),
        }
    }

    /// [`Self::bit`] when the caller knows whether the blank is in the main region
    /// (`main`), as the search does ([`Regions::ring_joins`]): the bit beside the main
    /// region's when the set has one pocket, else the compact array's.
    #[inline(always)]
    pub fn bit_in(&self, main: bool, index: u32, pos: &[u8], taken: u32, blank: u8) -> u32 {
        if main {
            return bit_of(&self.main, paired(index, false));
        }
        if self.regions.pocket_count(taken) == 1 {
            return bit_of(&self.main, paired(index, true));
        }
        self.pocket_bit(pos, taken, blank)
    }

    #[inline(never)]
    fn pocket_bit(&self, pos: &[u8], taken: u32, blank: u8) -> u32 {
        bit_of(&self.pocket, self.regions.pocket_index(pos, taken, blank))
    }

    /// Whether the blank on `blank` is in the main region of the taken cells `taken`,
    /// when before a pattern tile moved from it to `to` the blank, on `to`, was in the
    /// main region (`was`) or not.
    #[inline(always)]
    pub fn in_main_after(&self, was: bool, taken: u32, to: u8, blank: u8) -> bool {
        (was && self.regions.ring_joins(taken, to)) || self.regions.in_main(taken, blank)
    }

    /// Whether the blank on `blank` is in the main region of the taken cells `taken`.
    pub fn in_main(&self, taken: u32, blank: u8) -> bool {
        self.regions.in_main(taken, blank)
    }

    /// The stored value after a move of one of the pattern's tiles, from the value `s`
    /// before it, the new state's bit, and whether the tile moved towards its goal.
    #[inline(always)]
    pub fn step(s: u32, bit: u32, toward: bool) -> u32 {
        if bit == s & 1 {
            s
        } else if toward {
            s + 1
        } else {
            s - 1
        }
    }

    /// The stored value (z − md) / 2 of the state whose tiles stand on `pos` with the
    /// blank on `blank`.
    pub fn value(&self, pos: &[u8], blank: u8) -> u32 {
        let md: u32 = (pos.iter().enumerate())
            .map(|(i, &c)| u32::from(self.md[i][usize::from(c)]))
            .sum();
        (self.distance(pos, blank) - md) / 2
    }

    /// The cost z of the state whose tiles stand on `pos` with the blank on `blank`: the
    /// number of downhill moves to the goal, each one found by its bit.
    pub fn distance(&self, pos: &[u8], blank: u8) -> u32 {
        let grid = &self.regions.grid;
        let k = pos.len();
        let mut p = [0u8; MAX_CELLS];
        p[..k].copy_from_slice(pos);
        let mut taken = pos.iter().fold(0u32, |m, &c| m | 1 << c);
        let mut region = grid.flood(1 << blank, grid.all & !taken);
        let mut bit = self.bit(self.index(&p[..k]), &p[..k], taken, blank);
        let mut z = 0;
        'downhill: loop {
            if p[..k] == self.goal[..k] && region & (1 << self.blank_goal) != 0 {
                return z;
            }
            for i in 0..k {
                let from = p[i];
                for &to in &grid.nbr[usize::from(from)] {
                    if to == u8::MAX || region & (1 << to) == 0 {
                        continue;
                    }
                    p[i] = to;
                    let moved = taken ^ (1 << from) ^ (1 << to);
                    let b = self.bit(self.index(&p[..k]), &p[..k], moved, from);
                    let toward = self.md[i][usize::from(to)] < self.md[i][usize::from(from)];
                    // Equal bits: s kept, z moves with md; else z moves against it.
                    if (b == bit) == toward {
                        (taken, bit, z) = (moved, b, z + 1);
                        region = grid.flood(1 << from, grid.all & !taken);
                        continue 'downhill;
                    }
                    p[i] = from;
                }
            }
            // Every state but the goal has a neighbour one move closer to it.
            unreachable!("a zero-aware table with a state and no way downhill");
        }
    }

    /// The bytes the bits take.
    pub fn bytes(&self) -> usize {
        self.main.len() + self.pocket.len()
    }

    pub fn max_value(&self) -> usize {
        self.histogram.len().saturating_sub(1)
    }

    /// The mean cost over all states.
    pub fn mean_value(&self) -> f64 {
        let total: u64 = self.histogram.iter().sum();
        let sum: u64 = (self.histogram.iter().enumerate())
            .map(|(v, &c)| v as u64 * c)
            .sum();
        sum as f64 / total.max(1) as f64
    }
}

/// The bit of the paired main array for cell index `index`: the main region's state, or
/// (`pocket`) the state with the blank in the set's only pocket.
#[inline(always)]
fn paired(index: u32, pocket: bool) -> u64 {
    2 * u64::from(index) + u64::from(pocket)
}

#[inline(always)]
fn bit_of(bytes: &[u8], i: u64) -> u32 {
    u32::from(bytes[(i >> 3) as usize] >> (i & 7)) & 1
}

/// The writer of a zero-aware table's bits during the breadth-first build, from several
/// threads at once ([`super::build`]).
pub(super) struct ZeroSink<'a> {
    table: &'a ZeroTable,
    main: &'a [AtomicU8],
    pocket: &'a [AtomicU8],
}

impl<'a> ZeroSink<'a> {
    /// A writer into `table`'s bits, which it borrows for the build.
    pub(super) fn new(table: &'a mut ZeroTable) -> ZeroSink<'a> {
        let atomics = |v: &mut Vec<u8>| {
            // SAFETY: AtomicU8 has the size, alignment and bit validity of u8, and the
            // exclusive borrow of the table keeps every other access out for 'a.
            unsafe { std::slice::from_raw_parts(v.as_mut_ptr() as *const AtomicU8, v.len()) }
        };
        let main = atomics(&mut table.main);
        let pocket = atomics(&mut table.pocket);
        ZeroSink {
            table,
            main,
            pocket,
        }
    }

    /// Records the states of the placement `pos` (the cells `taken`) whose blank is in
    /// `cells` (one or more of its regions) as `depth` moves from the goal, `md` being the
    /// placement's Manhattan distance. Returns the number of states (regions).
    #[inline(always)]
    pub(super) fn record(
        &self,
        pos: &[u8],
        taken: u32,
        mut cells: u32,
        depth: u32,
        md: u32,
    ) -> u64 {
        let t = self.table;
        let grid = &t.regions.grid;
        let set = ((depth - md) / 2) & 1 == 1;
        let mut states = 0;
        while cells != 0 {
            let cell = cells.trailing_zeros();
            cells &= !grid.flood(1 << cell, grid.all & !taken);
            states += 1;
            if !set {
                continue;
            }
            let (bytes, i) = match t.regions.slot(pos, taken, cell as u8) {
                Slot::Main => (self.main, paired(t.index(pos), false)),
                Slot::Pocket(i) => {
                    if t.regions.pocket_count(taken) == 1 {
                        let j = paired(t.index(pos), true);
                        self.main[(j >> 3) as usize].fetch_or(1 << (j & 7), Relaxed);
                    }
                    (self.pocket, i)
                }
            };
            bytes[(i >> 3) as usize].fetch_or(1 << (i & 7), Relaxed);
        }
        states
    }
}

#[cfg(test)]
mod tests {
    use super::super::build::build_zero;
    use super::*;
    use crate::tiles::board::Shape;
    use std::collections::{HashMap, VecDeque};

    /// Every state's cost by a plain breadth-first search over (placement, region),
    /// states keyed by (cells of the tiles, lowest cell of the blank's region).
    fn costs(goal: &Board, tiles: &[u8]) -> HashMap<(Vec<u8>, u8), u32> {
        let r = Regions::new(goal.shape(), tiles.len());
        let grid = &r.grid;
        let cells: Vec<u8> = (tiles.iter())
            .map(|&t| goal.tiles().iter().position(|&x| x == t).unwrap() as u8)
            .collect();
        let key = |pos: &[u8], blank: u8| {
            let taken = pos.iter().fold(0u32, |m, &c| m | 1 << c);
            let region = grid.flood(1 << blank, grid.all & !taken);
            (pos.to_vec(), region.trailing_zeros() as u8)
        };
        let start = key(&cells, goal.blank() as u8);
        let mut dist = HashMap::from([(start.clone(), 0)]);
        let mut queue = VecDeque::from([start]);
        while let Some((pos, low)) = queue.pop_front() {
            let d = dist[&(pos.clone(), low)];
            let taken = pos.iter().fold(0u32, |m, &c| m | 1 << c);
            let region = grid.flood(1 << low, grid.all & !taken);
            for i in 0..pos.len() {
                for &to in &grid.nbr[usize::from(pos[i])] {
                    if to != u8::MAX && region & (1 << to) != 0 {
                        let mut next = pos.clone();
                        next[i] = to;
                        let k = key(&next, pos[i]);
                        if !dist.contains_key(&k) {
                            dist.insert(k.clone(), d + 1);
                            queue.push_back(k);
                        }
                    }
                }
            }
        }
        dist
    }

    #[test]
    fn every_states_cost_is_the_breadth_first_searchs() {
        // Patterns of the 8-puzzle and the 15-puzzle: the cost the table gives every
        // (placement, region) state by walking downhill is its distance by a plain
        // breadth-first search over the states, the build counts them all, and the
        // plain table's value of a placement is the least over its regions.
        for (side, tiles) in [
            (3, &[1u8, 2, 3, 4][..]),
            (3, &[2, 4, 6]),
            (4, &[1, 2, 5, 6]),
        ] {
            let goal = Board::default_goal(Shape::new(side, side).unwrap(), 1);
            let want = costs(&goal, tiles);
            let regions = Arc::new(Regions::new(goal.shape(), tiles.len()));
            let (plain, zero) = build_zero(&goal, tiles, &regions, &|_, _| {});
            assert_eq!(zero.histogram.iter().sum::<u64>(), want.len() as u64);
            let mut least: HashMap<Vec<u8>, u32> = HashMap::new();
            let mut single = 0;
            for ((pos, low), &z) in &want {
                // The search's read (the pocket's bit beside the main region's when it is
                // the set's only one) is the compact array's.
                let taken = pos.iter().fold(0u32, |m, &c| m | 1 << c);
                let main = regions.in_main(taken, *low);
                let index = zero.index(pos);
                let fast = zero.bit_in(main, index, pos, taken, *low);
                assert_eq!(fast, zero.bit(index, pos, taken, *low), "{pos:?}, {low}");
                single += usize::from(!main && regions.pocket_count(taken) == 1);
                assert_eq!(
                    zero.distance(pos, *low),
                    z,
                    "{tiles:?} at {pos:?}, blank {low}"
                );
                let m = least.entry(pos.clone()).or_insert(z);
                *m = (*m).min(z);
            }
            for (pos, &z) in &least {
                let md: u32 = (pos.iter().enumerate())
                    .map(|(i, &c)| u32::from(zero.md[i][usize::from(c)]))
                    .sum();
                assert_eq!(
                    md + 2 * plain.get(plain.pattern.rank(pos)),
                    z,
                    "{tiles:?} at {pos:?}"
                );
            }
            // The pockets raise some states above their placement's least cost.
            let raised = (want.iter())
                .filter(|((pos, _), z)| **z > least[pos])
                .count();
            assert!(raised > 0, "{tiles:?}: some placements have pockets");
            assert!(
                single > 0,
                "{tiles:?}: some blanks are in a set's only pocket"
            );
        }
    }
}
