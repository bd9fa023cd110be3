//! Every position reachable from the start, counted per number of jumps: as positions,
//! and as positions up to the board's symmetries (orbits under the symmetries of the
//! holes). For the English board this is OEIS A112737.
//!
//! The search goes layer by layer (a jump removes exactly one peg, so layer n is the set
//! of reachable boards with `initial - n` pegs). Each layer is kept as sorted, distinct
//! packed keys of representatives under the symmetries that fix the start (the reachable
//! set is closed under those), so a layer costs 8 bytes per orbit; a position's orbit
//! size gives the plain count. Children are generated in parallel with rayon.

use rayon::prelude::*;

use super::board::{Board, Shape};
use super::table::{Key, Packer};

/// One row of the count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountRow {
    pub jumps: u32,
    pub positions: u64,
    pub positions_up_to_symmetry: u64,
}

/// Boards of the current layer expanded at a time: their children (at most a few
/// hundred MB of keys) are added to the next layer, whose size is then checked.
const BATCH: usize = 1 << 20;

/// Where a count stops early: after `jumps` jumps (none: after the last layer that is
/// not empty), or with a user error before the layers it holds would pass `memory` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub jumps: Option<u32>,
    pub memory: u64,
}

impl Default for Limits {
    /// Every layer, within the default memory budget
    /// ([`crate::util::memory::DEFAULT_MEMORY_LIMIT`]).
    fn default() -> Self {
        Limits {
            jumps: None,
            memory: crate::util::memory::DEFAULT_MEMORY_LIMIT,
        }
    }
}

/// The reachable positions per number of jumps, each row as soon as it is known (so a
/// caller can show it while the next layer is counted), within `limits`: the memory held
/// (the keys of the current layer and of the next one being built) is counted as it
/// grows (checked after each batch of `BATCH` boards, the next layer deduplicated
/// whenever it has doubled), and the count ends with a user error, after the rows so
/// far, before it would pass the budget.
pub fn count<'a>(shape: &'a Shape, start: Board, limits: Limits) -> Rows<'a> {
    let packer = Packer::new(shape.holes());
    if packer.fits_u64 {
        Rows::Narrow(Layered::new(shape, start, packer, limits))
    } else {
        Rows::Wide(Layered::new(shape, start, packer, limits))
    }
}

/// The rows of a count ([`count`]), with keys of 64 or 128 bits.
pub enum Rows<'a> {
    Narrow(Layered<'a, u64>),
    Wide(Layered<'a, u128>),
}

impl Iterator for Rows<'_> {
    type Item = anyhow::Result<CountRow>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Rows::Narrow(l) => l.next(),
            Rows::Wide(l) => l.next(),
        }
    }
}

/// A count layer by layer: the layers' shared parts, the current layer and its number,
/// and the error that ends it once its last row is out.
pub struct Layered<'a, K> {
    l: Layers<'a>,
    layer: Vec<K>,
    jumps: u32,
    max_jumps: u32,
    failed: Option<anyhow::Error>,
}

impl<'a, K: Key + Ord> Layered<'a, K> {
    fn new(shape: &'a Shape, start: Board, packer: Packer, limits: Limits) -> Self {
        // The symmetries fixing the start also fix the whole reachable set.
        let fixing = shape.stabilizer(start);
        let l = Layers {
            shape,
            same_group: fixing.len() == shape.symmetry_count(),
            fixing,
            memory_limit: limits.memory,
            packer,
        };
        let layer = vec![K::from_mask(
            shape.canonical_in(&l.fixing, start).0.0,
            &l.packer,
        )];
        Layered {
            l,
            layer,
            jumps: 0,
            max_jumps: limits.jumps.unwrap_or(u32::MAX),
            failed: None,
        }
    }
}

impl<K: Key + Ord> Iterator for Layered<'_, K> {
    type Item = anyhow::Result<CountRow>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(e) = self.failed.take() {
            return Some(Err(e));
        }
        if self.layer.is_empty() {
            return None;
        }
        let jumps = self.jumps;
        let row = self.l.row(jumps, &self.layer);
        let next = match jumps >= self.max_jumps {
            true => Ok(Vec::new()),
            false => self.l.next(jumps, &self.layer),
        };
        // After a failed layer, its error comes after the row.
        self.layer = next.unwrap_or_else(|e| {
            self.failed = Some(e);
            Vec::new()
        });
        self.jumps += 1;
        Some(Ok(row))
    }
}

/// What the layers of one count share: the shape, the packing of boards into keys, the
/// symmetries fixing the start, and the memory limit.
struct Layers<'a> {
    shape: &'a Shape,
    packer: Packer,
    fixing: Vec<usize>,
    same_group: bool,
    memory_limit: u64,
}

impl Layers<'_> {
    fn unpack<K: Key>(&self, k: K) -> Board {
        Board(self.packer.unpack(k.to_u128()))
    }

    /// The row of one layer: its positions, and its positions up to every symmetry.
    fn row<K: Key + Ord>(&self, jumps: u32, layer: &[K]) -> CountRow {
        let (shape, fixing) = (self.shape, &self.fixing);
        let positions: u64 = layer
            .par_iter()
            .map(|&k| (fixing.len() as u32 / shape.canonical_in(fixing, self.unpack(k)).1) as u64)
            .sum();
        let orbits = if self.same_group {
            layer.len() as u64
        } else {
            let mut full: Vec<K> = layer
                .par_iter()
                .map(|&k| K::from_mask(shape.canonical(self.unpack(k)).0, &self.packer))
                .collect();
            full.par_sort_unstable();
            full.dedup();
            full.len() as u64
        };
        CountRow {
            jumps,
            positions,
            positions_up_to_symmetry: orbits,
        }
    }

    fn over(&self, jumps: u32, keys: usize) -> anyhow::Error {
        crate::user_error!(
            "counting stops after {jumps} jumps: the next layer needs more than the memory limit of {} ({keys} positions held so far; --memory-limit raises it, --max-jumps stops earlier)",
            crate::util::memory::bytes_text(self.memory_limit)
        )
    }

    /// The positions one jump after `layer`, canonical and deduplicated, within the
    /// memory limit (the layer and the next one are counted as they grow).
    fn next<K: Key + Ord>(&self, jumps: u32, layer: &[K]) -> anyhow::Result<Vec<K>> {
        let key_bytes = std::mem::size_of::<K>() as u64;
        // Up front: the layer, and a next layer at least as large, must fit.
        if (layer.len() as u64).saturating_mul(2 * key_bytes) > self.memory_limit {
            return Err(self.over(jumps, layer.len()));
        }
        let needed = |next: usize, part: usize| {
            (layer.len() + part) as u64 * key_bytes + (next + part) as u64 * key_bytes * 2
        };
        let mut next: Vec<K> = Vec::new();
        let mut deduped = 0usize;
        for batch in layer.chunks(BATCH) {
            let part = self.children(batch);
            // Growing `next` may double its buffer: count the old and the new one.
            if needed(next.len(), part.len()) > self.memory_limit {
                next.par_sort_unstable();
                next.dedup();
                next.shrink_to_fit();
                deduped = next.len();
                if needed(next.len(), part.len()) > self.memory_limit {
                    return Err(self.over(jumps, layer.len() + next.len()));
                }
            }
            next.extend(part);
            if next.len() > 2 * deduped + BATCH * 4 {
                next.par_sort_unstable();
                next.dedup();
                deduped = next.len();
            }
        }
        next.par_sort_unstable();
        next.dedup();
        next.shrink_to_fit();
        Ok(next)
    }

    /// The canonical children of a batch of positions, deduplicated per chunk.
    fn children<K: Key + Ord>(&self, batch: &[K]) -> Vec<K> {
        batch
            .par_chunks(1 << 14)
            .flat_map_iter(|chunk| {
                let mut out = Vec::with_capacity(chunk.len() * 8);
                for &k in chunk {
                    let b = self.unpack(k);
                    self.shape.for_each_jump(b, |j| {
                        let child = self.shape.canonical_in(&self.fixing, b.apply(j)).0;
                        out.push(K::from_mask(child.0, &self.packer));
                        true
                    });
                }
                out.sort_unstable();
                out.dedup();
                out
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pegsol::levels::{level, parse_board};
    use std::collections::HashSet;

    /// Every row of a count, or its error.
    fn all(shape: &Shape, start: Board, limits: Limits) -> anyhow::Result<Vec<CountRow>> {
        count(shape, start, limits).collect()
    }

    /// At most `n` jumps.
    fn jumps(n: u32) -> Limits {
        Limits {
            jumps: Some(n),
            ..Limits::default()
        }
    }

    /// Plain breadth-first enumeration with a std set: the definition, without tricks.
    fn brute(shape: &Shape, start: Board, max_jumps: usize) -> Vec<(u64, u64)> {
        let mut layer: HashSet<Board> = HashSet::from([start]);
        let mut out = Vec::new();
        while !layer.is_empty() && out.len() <= max_jumps {
            let orbits: HashSet<Board> = layer.iter().map(|&b| shape.canonical(b)).collect();
            out.push((layer.len() as u64, orbits.len() as u64));
            layer = layer
                .iter()
                .flat_map(|&b| shape.jumps(b).into_iter().map(move |j| b.apply(j)))
                .collect();
        }
        out
    }

    #[test]
    fn matches_brute_force_on_small_boards() {
        let boards = [
            level(2).unwrap(),
            level(3).unwrap(),
            // Symmetric shape, asymmetric start: counts use the start's own symmetries.
            parse_board("-ooo-\nooooo\noo.oo\nooooo\n-ooo-\n", "t").unwrap(),
            parse_board("ooo\no.o\nooo\n", "u").unwrap(),
        ];
        for p in boards {
            let rows = all(&p.shape, p.start, Limits::default()).unwrap();
            let got: Vec<(u64, u64)> = rows
                .iter()
                .map(|r| (r.positions, r.positions_up_to_symmetry))
                .collect();
            assert_eq!(got, brute(&p.shape, p.start, usize::MAX), "{}", p.name);
            assert!(rows.iter().enumerate().all(|(i, r)| r.jumps == i as u32));
        }
    }

    #[test]
    fn boards_with_more_than_64_holes_count_right() {
        let mut text = String::new();
        for y in 0..9 {
            text.push_str(if y == 4 { "oooo.oooo\n" } else { "ooooooooo\n" });
        }
        let p = parse_board(&text, "full").unwrap();
        let rows = all(&p.shape, p.start, jumps(3)).unwrap();
        let got: Vec<(u64, u64)> = rows
            .iter()
            .map(|r| (r.positions, r.positions_up_to_symmetry))
            .collect();
        assert_eq!(got, brute(&p.shape, p.start, 3));
    }

    #[test]
    fn a_count_past_its_memory_budget_stops_with_a_user_error() {
        let p = level(4).unwrap();
        let limits = Limits {
            jumps: None,
            memory: 1 << 20,
        };
        let mut out: Vec<anyhow::Result<CountRow>> = count(&p.shape, p.start, limits).collect();
        // The rows within the budget, then the error, and nothing after it.
        let err = out.pop().unwrap().unwrap_err();
        assert!(crate::util::error::is_user_error(&err));
        assert!(err.to_string().contains("memory limit of 1 MiB"), "{err}");
        assert!(out.len() > 3 && out.iter().all(|r| r.is_ok()));
    }

    #[test]
    fn english_board_matches_brute_force_for_eight_jumps() {
        let p = level(4).unwrap();
        let rows = all(&p.shape, p.start, jumps(8)).unwrap();
        let got: Vec<(u64, u64)> = rows
            .iter()
            .map(|r| (r.positions, r.positions_up_to_symmetry))
            .collect();
        assert_eq!(got, brute(&p.shape, p.start, 8));
        assert_eq!(got[8], (77559, 9751));
    }
}
