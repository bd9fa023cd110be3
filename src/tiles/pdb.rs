//! Additive disjoint pattern databases for one-blank boards (Korf & Felner 2002; Felner,
//! Korf & Hanan 2004): partitions of the tiles, the tables' construction by breadth-first
//! search over the abstract space, their compact storage and disk cache, and lookups
//! (the sum over the patterns, maximised with the sum for the state reflected about the
//! main diagonal). The fast IDA* that uses them is [`super::pdb_ida`].
//!
//! **What a table holds.** A pattern is a set of tiles. Its abstract state is where its
//! tiles are and which cells the blank can reach; the cost counts only moves of pattern
//! tiles (blank moves through non-pattern cells are free), so for disjoint patterns the
//! costs add up without counting any move twice: the sum is admissible. Tiles in no
//! pattern contribute their Manhattan distance, so a partition need not cover the board.
//! The table maps each placement of the pattern's tiles (a k-permutation of the n cells,
//! ranked perfectly: n!/(n−k)! entries) to the least cost over the blank's positions.
//!
//! **Compact values.** Every move of a pattern tile changes that tile's Manhattan
//! distance by one, so a value is the pattern's Manhattan distance plus an even number of
//! extra moves. A table stores `(value − md) / 2`, which fits 4 bits for every partition
//! of the 15-puzzle (bytes are used when it does not), and the lookup is
//! `h = MD + 2 · Σ stored`: Manhattan distance is kept incrementally by the search anyway.
//!
//! **Construction.** A breadth-first search by layers backwards from the goal over
//! (placement, blank region): the blank region is the set of non-pattern cells the blank
//! reaches for free. Per placement one atomic word holds two bit sets over the free cells
//! (in cell order): the cells already *seen* and those in the current *frontier*. A
//! placement's cost has the parity of its Manhattan distance, so the placements of
//! layer d and d + 1 never coincide, and one frontier set serves both: a layer's scan
//! expands the frontier words of its own parity while the expansions fill those of the
//! other. Layers run in parallel over ranges of placements (rayon); a placement's value is
//! written by the scan of the layer that first reaches it, in its own range, so the
//! packed table needs no locking. The 8-tile pattern of the 7-8 partition has 518,918,400
//! placements: 1 GB of words plus 259 MB of table while it is built.
//!
//! **Cache.** Tables are saved in a cache folder ([`DEFAULT_CACHE_DIR`] unless the caller
//! gives another), one file per pattern, named after the board, goal and tiles. A file is
//! a header (magic, [`FORMAT_VERSION`], board shape, goal, tiles, encoding, entry count,
//! value histogram, build seconds, a 64-bit FNV-1a checksum of the payload) and the packed
//! values; it is written atomically ([`crate::util::atomic`]). A file whose header does not
//! match the request or whose checksum fails is rebuilt with a warning on stderr.

use super::board::{Board, Dir, MAX_CELLS, Shape};
use crate::user_bail;
use crate::util::rng::fnv1a;
use anyhow::Context;
use rayon::prelude::*;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// Where tables are cached unless the caller says otherwise.
pub const DEFAULT_CACHE_DIR: &str = "outputs/pdb";
/// The cache file format; a file of another version is rebuilt.
pub const FORMAT_VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"SLABPDB\0";
/// The largest table built: 2^30 entries (the 8-tile pattern of the 15-puzzle has 0.52 G).
pub const MAX_ENTRIES: u64 = 1 << 30;

/// The named partitions: (name, board side, groups).
const NAMED: &[(&str, usize, &[&[u8]])] = &[
    // Korf & Felner 2002 / Felner, Korf & Hanan 2004, 15-puzzle, blank top-left.
    (
        "5-5-5",
        4,
        &[&[1, 2, 3, 6, 7], &[4, 5, 8, 9, 12], &[10, 11, 13, 14, 15]],
    ),
    (
        "6-6-3",
        4,
        &[&[1, 2, 3], &[4, 5, 8, 9, 12, 13], &[6, 7, 10, 11, 14, 15]],
    ),
    (
        "7-8",
        4,
        &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]],
    ),
    // Korf & Felner 2002, 24-puzzle: four blocks of six tiles.
    (
        "6-6-6-6",
        5,
        &[
            &[1, 5, 6, 10, 11, 12],
            &[2, 3, 4, 7, 8, 9],
            &[13, 14, 18, 19, 23, 24],
            &[15, 16, 17, 20, 21, 22],
        ],
    ),
];

/// The names of the built-in partitions.
pub const PARTITION_NAMES: &[&str] = &["5-5-5", "6-6-3", "7-8", "6-6-6-6"];

/// Disjoint groups of tiles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partition {
    /// The name it was given by (`7-8`) or its groups written out (`1,2,3/4,5,6`).
    pub name: String,
    pub groups: Vec<Vec<u8>>,
}

impl Partition {
    /// A named partition (`5-5-5`, `6-6-3`, `7-8`, `6-6-6-6`) or groups of tile numbers
    /// separated by `/`, tiles by `,` (`1,2,3,4/5,6,7,8`), checked against `goal`'s board.
    pub fn parse(text: &str, goal: &Board) -> anyhow::Result<Partition> {
        let p = match Partition::parse_text(text) {
            Ok(p) => p,
            Err(e) => user_bail!("{e}"),
        };
        let shape = goal.shape();
        if let Some((name, side, _)) = NAMED.iter().find(|(n, _, _)| *n == p.name)
            && (shape.width != *side || shape.height != *side)
        {
            user_bail!("partition {name} is for the {side}x{side} board, not {shape}");
        }
        p.check(goal)?;
        Ok(p)
    }

    /// The partition a text names, checked as far as it can be without a board: tile
    /// numbers, no empty group, no tile twice. The error says what is wrong.
    pub fn parse_text(text: &str) -> Result<Partition, String> {
        let text = text.trim();
        let text = text.strip_prefix("pdb:").unwrap_or(text);
        if let Some((name, _, groups)) = NAMED.iter().find(|(n, _, _)| *n == text) {
            return Ok(Partition {
                name: name.to_string(),
                groups: groups.iter().map(|g| g.to_vec()).collect(),
            });
        }
        let mut groups = Vec::new();
        let mut seen = [false; 256];
        for part in text.split('/') {
            let mut g = Vec::new();
            for word in part.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                let t = match word.parse::<u8>() {
                    Ok(t) if t > 0 => t,
                    _ => {
                        return Err(format!(
                            "pattern database partition {text:?}: {word:?} is not a tile number (expected {} or groups of tiles like 1,2,3/4,5,6)",
                            PARTITION_NAMES.join(", ")
                        ));
                    }
                };
                if std::mem::replace(&mut seen[usize::from(t)], true) {
                    return Err(format!(
                        "pattern database partition {text:?}: tile {t} is in two groups (the groups must be disjoint)"
                    ));
                }
                g.push(t);
            }
            if g.is_empty() {
                return Err(format!(
                    "pattern database partition {text:?} has an empty group"
                ));
            }
            groups.push(g);
        }
        let name = groups
            .iter()
            .map(|g| g.iter().map(u8::to_string).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
            .join("/");
        Ok(Partition { name, groups })
    }

    fn check(&self, goal: &Board) -> anyhow::Result<()> {
        if goal.blanks() != 1 {
            user_bail!("pattern databases need a board with one blank");
        }
        let max = goal.len() - 1;
        for g in &self.groups {
            if let Some(t) = g.iter().find(|&&t| usize::from(t) > max) {
                user_bail!(
                    "pattern database partition {}: tile {t} is not on the {} board (tiles 1 to {max})",
                    self.name,
                    goal.shape()
                );
            }
            let entries = Pattern::entries_for(goal.len(), g.len());
            if entries > MAX_ENTRIES {
                user_bail!(
                    "pattern database partition {}: a group of {} tiles on {} cells has {entries} entries; the limit is {MAX_ENTRIES}",
                    self.name,
                    g.len(),
                    goal.len()
                );
            }
        }
        Ok(())
    }
}

/// The perfect ranking of a pattern's placements: tile i's digit is its cell minus the
/// number of cells of tiles before it that are lower, so digits run over 0..n−i and the
/// rank is the mixed-radix number of the digits (the first tile most significant).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    pub tiles: Vec<u8>,
    pub cells: usize,
    /// `weights[i]`: the place value of digit i, (n−i−1)!/(n−k)!.
    weights: [u32; MAX_CELLS],
}

impl Pattern {
    pub fn new(tiles: &[u8], cells: usize) -> Pattern {
        let k = tiles.len();
        let mut weights = [0u32; MAX_CELLS];
        let mut w = 1u64;
        for i in (0..k).rev() {
            weights[i] = w as u32;
            w *= (cells - i) as u64;
        }
        Pattern {
            tiles: tiles.to_vec(),
            cells,
            weights,
        }
    }

    pub fn entries_for(cells: usize, k: usize) -> u64 {
        (cells - k + 1..=cells).map(|x| x as u64).product()
    }

    pub fn entries(&self) -> u64 {
        Pattern::entries_for(self.cells, self.tiles.len())
    }

    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// The rank of the placement `pos` (the cells of the pattern's tiles, in order).
    #[inline(always)]
    pub fn rank(&self, pos: &[u8]) -> u32 {
        let mut rank = 0u32;
        for i in 0..pos.len() {
            let p = pos[i];
            let mut lower = 0u8;
            for &q in &pos[..i] {
                lower += u8::from(q < p);
            }
            rank += u32::from(p - lower) * self.weights[i];
        }
        rank
    }

    /// The rank after tile `i` of the placement `pos` (of rank `rank`) moves to `to`:
    /// its digit changes, and the digits of later tiles between its two cells shift.
    #[inline(always)]
    pub fn rank_moved(&self, pos: &[u8], rank: u32, i: usize, to: u8) -> u32 {
        let from = pos[i];
        let mut lower_to = 0i64;
        let mut lower_from = 0i64;
        for &q in &pos[..i] {
            lower_to += i64::from(q < to);
            lower_from += i64::from(q < from);
        }
        let mut delta = i64::from(self.weights[i])
            * ((i64::from(to) - lower_to) - (i64::from(from) - lower_from));
        for (j, &q) in pos.iter().enumerate().skip(i + 1) {
            delta += i64::from(self.weights[j]) * (i64::from(from < q) - i64::from(to < q));
        }
        (i64::from(rank) + delta) as u32
    }

    /// The placement of rank `rank`, into `pos`.
    pub fn unrank(&self, mut rank: u32, pos: &mut [u8]) {
        let mut used = 0u32;
        for (i, slot) in pos.iter_mut().enumerate().take(self.len()) {
            let digit = rank / self.weights[i];
            rank %= self.weights[i];
            *slot = select(!used, digit) as u8;
            used |= 1 << *slot;
        }
    }
}

/// The cell of the `d`-th (from 0) set bit of `mask`.
#[inline(always)]
fn select(mut mask: u32, d: u32) -> u32 {
    for _ in 0..d {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

/// Bits of `x` at the set positions of `mask`, packed to the bottom (BMI2's pext).
#[inline(always)]
fn pext(x: u32, mut mask: u32) -> u64 {
    let mut out = 0u64;
    let mut bit = 1u64;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask ^= low;
    }
    out
}

/// The bottom bits of `x` spread to the set positions of `mask` (BMI2's pdep).
#[inline(always)]
fn pdep(mut x: u64, mut mask: u32) -> u32 {
    let mut out = 0u32;
    while mask != 0 && x != 0 {
        let low = mask & mask.wrapping_neg();
        if x & 1 != 0 {
            out |= low;
        }
        x >>= 1;
        mask ^= low;
    }
    out
}

/// The board's geometry as bit masks, for the abstract search.
#[derive(Clone)]
struct Grid {
    n: usize,
    all: u32,
    /// Cells with a neighbour to the left (a region may grow right into them), etc.
    not_first_col: u32,
    not_last_col: u32,
    w: usize,
    nbr: [[u8; 4]; MAX_CELLS],
}

impl Grid {
    fn new(shape: Shape) -> Grid {
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
    fn flood(&self, seed: u32, free: u32) -> u32 {
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
}

/// An atomic word of seen and frontier bits (see the module documentation).
trait Word: Send + Sync {
    const BITS: usize;
    fn zero() -> Self;
    fn get(&self) -> u64;
    fn set(&self, v: u64);
    fn cas(&self, old: u64, new: u64) -> Result<u64, u64>;
}

macro_rules! word {
    ($t:ty, $u:ty, $bits:expr) => {
        impl Word for $t {
            const BITS: usize = $bits;
            fn zero() -> Self {
                <$t>::new(0)
            }
            #[inline(always)]
            fn get(&self) -> u64 {
                u64::from(self.load(Relaxed))
            }
            #[inline(always)]
            fn set(&self, v: u64) {
                self.store(v as $u, Relaxed)
            }
            #[inline(always)]
            fn cas(&self, old: u64, new: u64) -> Result<u64, u64> {
                self.compare_exchange_weak(old as $u, new as $u, Relaxed, Relaxed)
                    .map(u64::from)
                    .map_err(u64::from)
            }
        }
    };
}
word!(AtomicU16, u16, 16);
word!(AtomicU32, u32, 32);
word!(AtomicU64, u64, 64);

/// How a table's values are packed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Two entries a byte, low nibble first.
    Nibbles = 1,
    /// One entry a byte.
    Bytes = 2,
}

/// One pattern's table.
#[derive(Debug, Clone)]
pub struct Table {
    pub pattern: Pattern,
    pub encoding: Encoding,
    /// The packed values `(value − md) / 2`.
    data: Vec<u8>,
    /// `histogram[v]`: the number of placements whose value (moves) is v.
    pub histogram: Vec<u64>,
    /// How long the build took (as recorded when it was built).
    pub build_seconds: f64,
    /// 0 for bytes, 1 for nibbles: index = rank >> shift_bits.
    shift_bits: u32,
    mask: u8,
}

impl Table {
    fn new(pattern: Pattern, encoding: Encoding, data: Vec<u8>) -> Table {
        let (shift_bits, mask) = match encoding {
            Encoding::Nibbles => (1, 0xF),
            Encoding::Bytes => (0, 0xFF),
        };
        Table {
            pattern,
            encoding,
            data,
            histogram: Vec::new(),
            build_seconds: 0.0,
            shift_bits,
            mask,
        }
    }

    /// The stored value of a rank: the pattern's extra moves over Manhattan, halved.
    #[inline(always)]
    pub fn get(&self, rank: u32) -> u32 {
        let byte = self.data[(rank >> self.shift_bits) as usize];
        u32::from((byte >> ((rank & self.shift_bits) << 2)) & self.mask)
    }

    /// The bytes the values take.
    pub fn bytes(&self) -> usize {
        self.data.len()
    }

    pub fn max_value(&self) -> usize {
        self.histogram.len().saturating_sub(1)
    }

    pub fn mean_value(&self) -> f64 {
        let total: u64 = self.histogram.iter().sum();
        let sum: u64 = self
            .histogram
            .iter()
            .enumerate()
            .map(|(v, &c)| v as u64 * c)
            .sum();
        sum as f64 / total.max(1) as f64
    }
}

/// Builds the table of `tiles` towards `goal` (one blank). `progress(done, total)` is
/// called after every layer with the number of placements valued so far.
pub fn build(goal: &Board, tiles: &[u8], progress: &dyn Fn(u64, u64)) -> Table {
    let started = Instant::now();
    let free = goal.len() - tiles.len();
    let mut table = None;
    for encoding in [Encoding::Nibbles, Encoding::Bytes] {
        table = if free <= 8 {
            build_with::<AtomicU16>(goal, tiles, encoding, progress)
        } else if free <= 16 {
            build_with::<AtomicU32>(goal, tiles, encoding, progress)
        } else {
            build_with::<AtomicU64>(goal, tiles, encoding, progress)
        };
        if table.is_some() {
            break;
        }
    }
    let mut table = table.expect("byte values always fit");
    table.build_seconds = started.elapsed().as_secs_f64();
    table
}

/// Unranking by two table lookups: the rank's high part gives the first digits, its low
/// part the rest (five bits a digit), so a placement costs one division.
struct Unranker {
    low_radix: u32,
    split: usize,
    high: Vec<u32>,
    low: Vec<u32>,
}

impl Unranker {
    fn new(pattern: &Pattern) -> Unranker {
        let (n, k) = (pattern.cells, pattern.len());
        let split = k - k / 2;
        let digits = |from: usize, to: usize| -> Vec<u32> {
            let radices: Vec<u32> = (from..to).map(|i| (n - i) as u32).collect();
            let count: u32 = radices.iter().product();
            (0..count)
                .map(|mut x| {
                    let mut packed = 0u32;
                    for (j, &r) in radices.iter().enumerate().rev() {
                        packed |= (x % r) << (5 * j);
                        x /= r;
                    }
                    packed
                })
                .collect()
        };
        Unranker {
            low_radix: (split..k).map(|i| (n - i) as u32).product(),
            split,
            high: digits(0, split),
            low: digits(split, k),
        }
    }

    /// The digits of `rank`, five bits each, digit 0 lowest.
    #[inline(always)]
    fn digits(&self, rank: u32) -> u64 {
        let h = self.high[(rank / self.low_radix) as usize];
        let l = self.low[(rank % self.low_radix) as usize];
        u64::from(h) | u64::from(l) << (5 * self.split)
    }
}

/// Everything a layer of the build reads.
struct Build<'a, W> {
    grid: &'a Grid,
    pattern: &'a Pattern,
    unranker: &'a Unranker,
    words: &'a [W],
    md: &'a [[u8; MAX_CELLS]; MAX_CELLS],
    k: usize,
    f: usize,
    entries: u64,
    encoding: Encoding,
    limit: u32,
    overflow: &'a AtomicBool,
}

/// Bit tricks, with BMI2 and POPCNT when `FAST` (checked at run time by the caller).
#[inline(always)]
fn select_bit<const FAST: bool>(mask: u32, d: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: FAST is set only when the CPU has BMI2.
        return unsafe { std::arch::x86_64::_pdep_u32(1 << d, mask) }.trailing_zeros();
    }
    select(mask, d)
}

#[inline(always)]
fn pext_bits<const FAST: bool>(x: u32, mask: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: FAST is set only when the CPU has BMI2.
        return u64::from(unsafe { std::arch::x86_64::_pext_u32(x, mask) });
    }
    pext(x, mask)
}

#[inline(always)]
fn pdep_bits<const FAST: bool>(x: u64, mask: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: FAST is set only when the CPU has BMI2.
        return unsafe { std::arch::x86_64::_pdep_u32(x as u32, mask) };
    }
    pdep(x, mask)
}

#[inline(always)]
fn prefetch<T>(p: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint; any address is allowed.
    #[allow(unused_unsafe)]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (p as *const T).cast(),
        );
    }
}

impl<W: Word> Build<'_, W> {
    /// One range of placements in one layer: values the placements first reached at
    /// `depth` (into `out`, the range's part of the table) and expands the frontier
    /// regions of the layer's parity. Returns (placements valued, states created).
    #[inline(always)]
    fn chunk<const FAST: bool>(&self, first: u64, depth: u32, out: &mut [u8]) -> (u64, u64) {
        let (k, f) = (self.k, self.f);
        let fmask: u64 = (1u64 << f) - 1;
        let last = (first + CHUNK).min(self.entries);
        let grid = self.grid;
        let mut pos = [0u8; MAX_CELLS];
        let mut valued = 0u64;
        let mut created = 0u64;
        // Successors of an expansion: (rank, occupied cells, blank cell). They are
        // checked one expansion later, so that their words' prefetches have landed.
        let mut succ = [[(0u32, 0u32, 0u8); 4 * MAX_CELLS]; 2];
        let mut counts = [0usize; 2];
        let mut slot = 0;
        for r in first..last {
            let word = self.words[r as usize].get();
            let front = (word >> f) & fmask;
            if front == 0 {
                continue;
            }
            let digits = self.unranker.digits(r as u32);
            let mut occupied = 0u32;
            let mut mdp = 0u32;
            for (i, (slot, md)) in pos.iter_mut().zip(self.md).take(k).enumerate() {
                let d = ((digits >> (5 * i)) & 31) as u32;
                let c = select_bit::<FAST>(grid.all & !occupied, d);
                *slot = c as u8;
                occupied |= 1 << c;
                mdp += u32::from(md[c as usize]);
            }
            if mdp & 1 != depth & 1 {
                continue; // in the next layer, being written by this one
            }
            let seen = word & fmask;
            if seen == front {
                // First reached in this layer: its value is the depth.
                let s = (depth - mdp) / 2;
                if s >= self.limit {
                    self.overflow.store(true, Relaxed);
                }
                let idx = (r - first) as usize;
                match self.encoding {
                    Encoding::Nibbles => out[idx / 2] |= (s as u8 & 0xF) << (4 * (idx & 1)),
                    Encoding::Bytes => out[idx] = s as u8,
                }
                valued += 1;
            }
            self.words[r as usize].set(seen);
            let region = pdep_bits::<FAST>(front, grid.all & !occupied);
            slot ^= 1;
            let mut count = 0;
            for i in 0..k {
                let from = pos[i];
                for &to in &grid.nbr[usize::from(from)] {
                    if to == u8::MAX || region & (1 << to) == 0 {
                        continue;
                    }
                    let r2 = self.pattern.rank_moved(&pos[..k], r as u32, i, to);
                    prefetch(&self.words[r2 as usize]);
                    succ[slot][count] = (r2, occupied ^ (1 << from) ^ (1 << to), from);
                    count += 1;
                }
            }
            counts[slot] = count;
            created += self.check::<FAST>(&succ[slot ^ 1][..counts[slot ^ 1]]);
            counts[slot ^ 1] = 0;
        }
        created += self.check::<FAST>(&succ[slot][..counts[slot]]);
        (valued, created)
    }

    /// Marks the successors not seen yet (with their blank regions) as seen and in the
    /// frontier; returns how many there were.
    #[inline(always)]
    fn check<const FAST: bool>(&self, succ: &[(u32, u32, u8)]) -> u64 {
        let f = self.f;
        let grid = self.grid;
        let mut created = 0;
        for &(r2, occ, from) in succ {
            let below = occ & ((1u32 << from) - 1);
            let bit = 1u64 << (u32::from(from) - below.count_ones());
            let target = &self.words[r2 as usize];
            let mut cur = target.get();
            if cur & bit != 0 {
                continue;
            }
            let freecells = grid.all & !occ;
            let reg = grid.flood(1 << from, freecells);
            let b = pext_bits::<FAST>(reg, freecells);
            loop {
                if cur & bit != 0 {
                    break;
                }
                match target.cas(cur, cur | b | b << f) {
                    Ok(_) => {
                        created += 1;
                        break;
                    }
                    Err(now) => cur = now,
                }
            }
        }
        created
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,popcnt")]
    fn chunk_bmi2(&self, first: u64, depth: u32, out: &mut [u8]) -> (u64, u64) {
        self.chunk::<true>(first, depth, out)
    }

    fn run_chunk(&self, fast: bool, first: u64, depth: u32, out: &mut [u8]) -> (u64, u64) {
        #[cfg(target_arch = "x86_64")]
        if fast {
            // SAFETY: `fast` is true only when the CPU has BMI1, BMI2 and POPCNT.
            return unsafe { self.chunk_bmi2(first, depth, out) };
        }
        self.chunk::<false>(first, depth, out)
    }
}

const CHUNK: u64 = 1 << 14;

/// True when the CPU has the bit instructions the build's fast path uses.
fn has_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The layered BFS with words of type `W`; `None` when a value does not fit `encoding`.
fn build_with<W: Word>(
    goal: &Board,
    tiles: &[u8],
    encoding: Encoding,
    progress: &dyn Fn(u64, u64),
) -> Option<Table> {
    let shape = goal.shape();
    let grid = Grid::new(shape);
    let n = grid.n;
    let k = tiles.len();
    let f = n - k;
    assert!(2 * f <= W::BITS);
    let pattern = Pattern::new(tiles, n);
    let entries = pattern.entries();
    let w = shape.width;
    // Manhattan distance of pattern tile i from each cell.
    let mut md = [[0u8; MAX_CELLS]; MAX_CELLS];
    let mut goal_pos = [0u8; MAX_CELLS];
    for (i, &t) in tiles.iter().enumerate() {
        let gc = goal
            .tiles()
            .iter()
            .position(|&x| x == t)
            .expect("tile on board");
        goal_pos[i] = gc as u8;
        for (c, m) in md[i].iter_mut().enumerate().take(n) {
            *m = ((c / w).abs_diff(gc / w) + (c % w).abs_diff(gc % w)) as u8;
        }
    }
    let words: Vec<W> = std::iter::repeat_with(W::zero)
        .take(entries as usize)
        .collect();
    let (per_byte, limit) = match encoding {
        Encoding::Nibbles => (2u64, 15u32),
        Encoding::Bytes => (1, 255),
    };
    let mut data = vec![0u8; entries.div_ceil(per_byte) as usize];
    // The root: the goal placement, the blank's region around its goal cell.
    let occupied: u32 = goal_pos[..k].iter().fold(0, |m, &c| m | 1 << c);
    let region = grid.flood(1 << goal.blank(), grid.all & !occupied);
    let bits = pext(region, grid.all & !occupied);
    let root = pattern.rank(&goal_pos[..k]);
    words[root as usize].set(bits | bits << f);
    let unranker = Unranker::new(&pattern);
    let overflow = AtomicBool::new(false);
    let ctx = Build {
        grid: &grid,
        pattern: &pattern,
        unranker: &unranker,
        words: &words,
        md: &md,
        k,
        f,
        entries,
        encoding,
        limit,
        overflow: &overflow,
    };
    let fast = has_bmi2();
    let mut histogram: Vec<u64> = Vec::new();
    let mut valued = 0u64;
    let mut depth = 0u32;
    loop {
        let (count, created) = data
            .par_chunks_mut((CHUNK / per_byte) as usize)
            .enumerate()
            .map(|(ci, out)| ctx.run_chunk(fast, ci as u64 * CHUNK, depth, out))
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        if overflow.load(Relaxed) {
            return None;
        }
        histogram.push(count);
        valued += count;
        progress(valued, entries);
        if created == 0 {
            break;
        }
        depth += 1;
    }
    // Every placement is reachable when the blank has a cell to spare (else half are).
    debug_assert!(valued == entries || k + 1 == n);
    while histogram.last() == Some(&0) {
        histogram.pop();
    }
    let mut t = Table::new(pattern, encoding, data);
    t.histogram = histogram;
    Some(t)
}

/// The cache file of a pattern: `4x4-g<goal hash>-1-2-3-4-5-6-7.pdb`.
pub fn cache_file(dir: &Path, goal: &Board, tiles: &[u8]) -> PathBuf {
    let g = fnv1a(goal.tiles()) as u32;
    let t: Vec<String> = tiles.iter().map(u8::to_string).collect();
    dir.join(format!("{}-g{g:08x}-{}.pdb", goal.shape(), t.join("-")))
}

/// The header fields that identify a table.
fn header(goal: &Board, tiles: &[u8], table: &Table) -> Vec<u8> {
    let mut h = Vec::new();
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    h.push(goal.width);
    h.push(goal.height);
    h.extend_from_slice(goal.tiles());
    h.push(tiles.len() as u8);
    h.extend_from_slice(tiles);
    h.push(table.encoding as u8);
    h.extend_from_slice(&table.pattern.entries().to_le_bytes());
    h.extend_from_slice(&(table.histogram.len() as u32).to_le_bytes());
    for c in &table.histogram {
        h.extend_from_slice(&c.to_le_bytes());
    }
    h.extend_from_slice(&table.build_seconds.to_le_bytes());
    h.extend_from_slice(&(table.data.len() as u64).to_le_bytes());
    h.extend_from_slice(&fnv1a(&table.data).to_le_bytes());
    h
}

/// Saves a table atomically.
pub fn save(path: &Path, goal: &Board, table: &Table) -> anyhow::Result<()> {
    let head = header(goal, &table.pattern.tiles, table);
    crate::util::atomic::write_with(path, |w| {
        w.write_all(&head)?;
        w.write_all(&table.data)?;
        Ok(())
    })
}

/// Loads a table saved by [`save`]; an error says why the file cannot be used.
pub fn load(path: &Path, goal: &Board, tiles: &[u8]) -> anyhow::Result<Table> {
    let mut file = std::io::BufReader::new(std::fs::File::open(path)?);
    let mut take = |len: usize| -> anyhow::Result<Vec<u8>> {
        let mut b = vec![0u8; len];
        file.read_exact(&mut b).context("the file is truncated")?;
        Ok(b)
    };
    let u32_of = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes"));
    let u64_of = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
    if take(8)? != MAGIC {
        anyhow::bail!("not a searchlab pattern database");
    }
    let version = u32_of(&take(4)?);
    if version != FORMAT_VERSION {
        anyhow::bail!("format version {version}, expected {FORMAT_VERSION}");
    }
    let wh = take(2)?;
    if wh[0] != goal.width || wh[1] != goal.height {
        anyhow::bail!("built for a {}x{} board", wh[0], wh[1]);
    }
    if take(goal.len())? != goal.tiles() {
        anyhow::bail!("built for another goal");
    }
    let k = take(1)?[0] as usize;
    if take(k)? != tiles {
        anyhow::bail!("built for other tiles");
    }
    let encoding = match take(1)?[0] {
        1 => Encoding::Nibbles,
        2 => Encoding::Bytes,
        e => anyhow::bail!("unknown value encoding {e}"),
    };
    let pattern = Pattern::new(tiles, goal.len());
    let entries = u64_of(&take(8)?);
    if entries != pattern.entries() {
        anyhow::bail!("{entries} entries, expected {}", pattern.entries());
    }
    let hlen = u32_of(&take(4)?) as usize;
    if hlen > 256 {
        anyhow::bail!("a histogram of {hlen} values");
    }
    let hist_bytes = take(8 * hlen)?;
    let histogram: Vec<u64> = hist_bytes.chunks(8).map(u64_of).collect();
    let build_seconds = f64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
    let len = u64_of(&take(8)?);
    let per_byte = if encoding == Encoding::Nibbles { 2 } else { 1 };
    if len != entries.div_ceil(per_byte) {
        anyhow::bail!("a payload of {len} bytes for {entries} entries");
    }
    let checksum = u64_of(&take(8)?);
    if histogram.iter().sum::<u64>() > entries {
        anyhow::bail!("the histogram counts more than the entries");
    }
    let data = take(len as usize)?;
    let mut rest = [0u8; 1];
    if file.read(&mut rest)? != 0 {
        anyhow::bail!("trailing bytes after the payload");
    }
    if fnv1a(&data) != checksum {
        anyhow::bail!("checksum mismatch (the file is corrupted)");
    }
    let mut t = Table::new(pattern, encoding, data);
    t.histogram = histogram;
    t.build_seconds = build_seconds;
    Ok(t)
}

/// Where a table came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Built,
    Loaded,
}

/// The table of `tiles` from the cache folder `dir`, or built (and saved there) when
/// missing, stale or corrupted (with a warning on stderr for the last two).
pub fn load_or_build(
    dir: &Path,
    goal: &Board,
    tiles: &[u8],
    progress: &dyn Fn(u64, u64),
) -> anyhow::Result<(Table, Origin)> {
    let path = cache_file(dir, goal, tiles);
    if path.exists() {
        match load(&path, goal, tiles) {
            Ok(t) => return Ok((t, Origin::Loaded)),
            Err(e) => eprintln!(
                "searchlab: warning: ignoring the pattern database {} ({e:#}); rebuilding it",
                path.display()
            ),
        }
    }
    let table = build(goal, tiles, progress);
    save(&path, goal, &table)
        .with_context(|| format!("saving the pattern database {}", path.display()))?;
    Ok((table, Origin::Built))
}

/// The reflection about the main diagonal, as a map of cells and of tiles.
#[derive(Debug, Clone)]
pub struct Reflection {
    pub cell: [u8; MAX_CELLS],
    pub tile: [u8; MAX_CELLS + 1],
}

impl Reflection {
    /// The reflection of a square board whose goal is symmetric under it (tile t's
    /// reflection is the goal tile at the transpose of t's goal cell; the blank's goal
    /// cell must be on the diagonal), else `None`.
    pub fn of(goal: &Board) -> Option<Reflection> {
        let w = goal.width as usize;
        if goal.width != goal.height || goal.blanks() != 1 {
            return None;
        }
        let b = goal.blank();
        if b / w != b % w {
            return None;
        }
        let mut r = Reflection {
            cell: [0; MAX_CELLS],
            tile: [0; MAX_CELLS + 1],
        };
        for c in 0..goal.len() {
            let t = (c % w) * w + c / w;
            r.cell[c] = t as u8;
            r.tile[usize::from(goal.cells[c])] = goal.cells[t];
        }
        Some(r)
    }
}

/// An additive PDB heuristic: a partition's tables, the tiles' Manhattan distances for
/// tiles in no pattern, and the reflection when the goal has one.
#[derive(Debug, Clone)]
pub struct PdbHeuristic {
    pub goal: Board,
    pub partition: Partition,
    pub tables: Vec<Table>,
    /// `group[t]`: the pattern of tile t (u8::MAX for none), `index[t]`: its place in it.
    pub group: [u8; MAX_CELLS + 1],
    pub index: [u8; MAX_CELLS + 1],
    /// `md[t][c]`: tile t's Manhattan distance from cell c to its goal (0 for the blank).
    pub md: [[u8; MAX_CELLS]; MAX_CELLS + 1],
    /// Taken into account when `Some` (and `use_reflection`).
    pub reflection: Option<Reflection>,
}

impl PdbHeuristic {
    /// The heuristic from tables already at hand (in the partition's group order).
    pub fn new(goal: &Board, partition: Partition, tables: Vec<Table>, reflect: bool) -> Self {
        let mut group = [u8::MAX; MAX_CELLS + 1];
        let mut index = [0u8; MAX_CELLS + 1];
        for (g, tiles) in partition.groups.iter().enumerate() {
            for (i, &t) in tiles.iter().enumerate() {
                group[usize::from(t)] = g as u8;
                index[usize::from(t)] = i as u8;
            }
        }
        let w = goal.width as usize;
        let mut md = [[0u8; MAX_CELLS]; MAX_CELLS + 1];
        for (gc, &t) in goal.tiles().iter().enumerate() {
            if t == 0 {
                continue;
            }
            for (c, m) in md[usize::from(t)].iter_mut().enumerate().take(goal.len()) {
                *m = ((c / w).abs_diff(gc / w) + (c % w).abs_diff(gc % w)) as u8;
            }
        }
        PdbHeuristic {
            goal: *goal,
            partition,
            tables,
            group,
            index,
            md,
            reflection: if reflect { Reflection::of(goal) } else { None },
        }
    }

    /// Builds (or loads from the cache folder) every table of `partition`.
    /// `progress(pattern index, done, total)` reports each build.
    pub fn load_or_build(
        goal: &Board,
        partition: Partition,
        cache: &Path,
        reflect: bool,
        progress: &dyn Fn(usize, u64, u64),
    ) -> anyhow::Result<(PdbHeuristic, Vec<Origin>)> {
        let mut tables = Vec::new();
        let mut origins = Vec::new();
        for (i, g) in partition.groups.iter().enumerate() {
            let (t, o) = load_or_build(cache, goal, g, &|d, n| progress(i, d, n))?;
            tables.push(t);
            origins.push(o);
        }
        Ok((PdbHeuristic::new(goal, partition, tables, reflect), origins))
    }

    /// The bytes all tables take.
    pub fn bytes(&self) -> usize {
        self.tables.iter().map(Table::bytes).sum()
    }

    /// The sum of the tables' stored values for a state given by `pos[tile]`.
    fn stored_sum(&self, pos: &[u8; MAX_CELLS + 1]) -> u32 {
        let mut cells = [0u8; MAX_CELLS];
        self.tables
            .iter()
            .map(|t| {
                for (i, &tile) in t.pattern.tiles.iter().enumerate() {
                    cells[i] = pos[usize::from(tile)];
                }
                t.get(t.pattern.rank(&cells[..t.pattern.len()]))
            })
            .sum()
    }

    /// The heuristic without the reflection: Manhattan + 2 · the tables' stored values.
    pub fn evaluate_plain(&self, cells: &[u8]) -> u32 {
        let (md, pos) = self.md_and_positions(cells);
        md + 2 * self.stored_sum(&pos)
    }

    /// The heuristic: the larger of the state's sum and its reflection's.
    pub fn evaluate(&self, cells: &[u8]) -> u32 {
        let (md, pos) = self.md_and_positions(cells);
        let mut s = self.stored_sum(&pos);
        if let Some(r) = &self.reflection {
            let mut rpos = [0u8; MAX_CELLS + 1];
            for t in 0..self.goal.len() {
                rpos[usize::from(r.tile[t])] = r.cell[usize::from(pos[t])];
            }
            s = s.max(self.stored_sum(&rpos));
        }
        md + 2 * s
    }

    fn md_and_positions(&self, cells: &[u8]) -> (u32, [u8; MAX_CELLS + 1]) {
        let mut pos = [0u8; MAX_CELLS + 1];
        let mut md = 0;
        for (c, &t) in cells[..self.goal.len()].iter().enumerate() {
            pos[usize::from(t)] = c as u8;
            md += u32::from(self.md[usize::from(t)][c]);
        }
        (md, pos)
    }
}

/// The heuristic names of the built-in partitions (`pdb:7-8`), as the pipeline's
/// `tiles/ida` accepts them beside the classic heuristics.
pub const HEURISTIC_NAMES: &[&str] = &["pdb:5-5-5", "pdb:6-6-3", "pdb:7-8", "pdb:6-6-6-6"];

/// The partition text of a heuristic name `pdb:PARTITION`, or `None` for other names.
pub fn heuristic_partition(name: &str) -> Option<&str> {
    name.trim().strip_prefix("pdb:")
}

/// Checks a heuristic name as IDA* takes it: a computed heuristic
/// ([`super::heuristic::Heuristic::NAMES`]) or `pdb:` and a partition
/// ([`Partition::parse_text`]; whether its tiles are on the board is checked when its
/// tables are loaded).
pub fn check_ida_heuristic(name: &str) -> Result<(), String> {
    use super::heuristic::Heuristic;
    if Heuristic::from_name(name).is_some() {
        return Ok(());
    }
    match heuristic_partition(name) {
        Some(p) => Partition::parse_text(p).map(|_| ()),
        None => Err(format!(
            "not a heuristic (expected {}, {}, or pdb: and groups of tiles like pdb:1,2,3/4,5,6)",
            Heuristic::NAMES.join(", "),
            HEURISTIC_NAMES.join(", ")
        )),
    }
}

/// Splits a comma-separated list of heuristic names, keeping the commas of a custom
/// partition: `manhattan,pdb:1,2/3,4,linear` is three names (an item starting with a
/// digit continues the `pdb:` name before it). Each name is checked.
pub fn split_heuristics(text: &str) -> Result<Vec<String>, String> {
    let mut names: Vec<String> = Vec::new();
    for item in text.split(',').map(str::trim) {
        let continues = item.starts_with(|c: char| c.is_ascii_digit())
            && names.last().is_some_and(|n| n.starts_with("pdb:"));
        match names.last_mut() {
            Some(last) if continues => {
                last.push(',');
                last.push_str(item);
            }
            _ => names.push(item.to_string()),
        }
    }
    for n in &names {
        check_ida_heuristic(n).map_err(|e| format!("{n:?}: {e}"))?;
    }
    Ok(names)
}

/// The PDB heuristic (with the reflection) of `partition` towards `goal`, shared by
/// every run of the process through the run context's memo: the first run loads the
/// tables from the context's cache folder (or builds and saves them), concurrent runs
/// for the same partition wait for it instead of building the same table twice, and
/// later runs get it at once. A build reports its progress as notes to the run's
/// observer ([`progress_lines`]). Returns the heuristic and whether this call loaded or
/// built it (false when it was already in memory).
pub fn shared(
    goal: &Board,
    partition: &str,
    ctx: &crate::pipeline::runner::RunContext,
) -> anyhow::Result<(Arc<PdbHeuristic>, bool)> {
    let p = Partition::parse(partition, goal)?;
    let cache = ctx.cache_dir()?;
    let key = format!(
        "tiles/pdb|{}|{}|{:?}|{}",
        cache.display(),
        goal.width,
        goal.tiles(),
        p.name
    );
    ctx.memo.get_or_try_init(&key, || {
        let groups = p.groups.clone();
        let note = |text: &str| ctx.observer.note(text);
        let progress = progress_lines(&groups, &note);
        Ok(PdbHeuristic::load_or_build(goal, p, cache, true, &progress)?.0)
    })
}

/// A progress callback that passes plain lines to `note`: the pattern's tiles at each
/// quarter of its placements.
pub fn progress_lines<'a>(
    groups: &'a [Vec<u8>],
    note: &'a dyn Fn(&str),
) -> impl Fn(usize, u64, u64) + 'a {
    let last = std::cell::Cell::new((usize::MAX, 0u64));
    move |i, done, total| {
        let quarter = (done * 4).checked_div(total).unwrap_or(4);
        if last.get() == (i, quarter) {
            return;
        }
        last.set((i, quarter));
        let tiles = groups.get(i).map_or(String::new(), |g| format!("{g:?}"));
        note(&format!(
            "building the pattern database of tiles {tiles}: {}% of {total} placements",
            quarter * 25
        ));
    }
}

/// A one-line summary of a value histogram: `value:count` pairs.
pub fn histogram_text(h: &[u64]) -> String {
    h.iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(v, c)| format!("{v}:{c}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::super::board::Shape;
    use super::super::census;
    use super::*;

    fn goal3() -> Board {
        Board::default_goal(Shape::new(3, 3).unwrap(), 1)
    }

    fn boards_by_distance(goal: &Board) -> Vec<Vec<Board>> {
        let shape = goal.shape();
        let n = shape.cells();
        census::layers(goal)
            .unwrap()
            .into_iter()
            .map(|layer| {
                layer
                    .into_iter()
                    .map(|code| {
                        let tiles: Vec<u32> = (0..n)
                            .map(|i| ((code >> (4 * (n - 1 - i))) & 0xF) as u32)
                            .collect();
                        Board::from_tiles(shape, &tiles, "t").unwrap()
                    })
                    .collect()
            })
            .collect()
    }

    fn heuristic(goal: &Board, partition: &str, reflect: bool) -> PdbHeuristic {
        let p = Partition::parse(partition, goal).unwrap();
        let tables = p
            .groups
            .iter()
            .map(|g| build(goal, g, &|_, _| {}))
            .collect();
        PdbHeuristic::new(goal, p, tables, reflect)
    }

    #[test]
    fn ranking_is_a_bijection() {
        let p = Pattern::new(&[3, 1, 4], 6);
        assert_eq!(p.entries(), 120);
        let mut seen = [false; 120];
        let mut pos = [0u8; MAX_CELLS];
        for r in 0..120 {
            p.unrank(r, &mut pos);
            assert_eq!(p.rank(&pos[..3]), r);
            let distinct = pos[0] != pos[1] && pos[0] != pos[2] && pos[1] != pos[2];
            assert!(distinct && pos[..3].iter().all(|&c| c < 6));
            seen[r as usize] = true;
            for i in 0..3 {
                for to in 0..6u8 {
                    if pos[..3].contains(&to) {
                        continue;
                    }
                    let mut moved = pos;
                    moved[i] = to;
                    assert_eq!(p.rank_moved(&pos[..3], r, i, to), p.rank(&moved[..3]));
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn a_pattern_of_every_tile_gives_exact_3x3_distances() {
        // With all eight tiles in one pattern the abstract space is the puzzle itself.
        let goal = goal3();
        let h = heuristic(&goal, "1,2,3,4,5,6,7,8", true);
        assert!(h.reflection.is_some());
        let t = &h.tables[0];
        assert_eq!(t.pattern.entries(), 362_880);
        // Only the placements of the goal's parity are reachable; the histogram is the
        // census.
        let census = census::census(&goal).unwrap();
        assert_eq!(t.histogram, census);
        for (d, layer) in boards_by_distance(&goal).iter().enumerate() {
            for b in layer {
                assert_eq!(h.evaluate_plain(&b.cells) as usize, d, "{}", b.list());
                // The reflected state is as far from the goal: the maximum is exact too.
                assert_eq!(h.evaluate(&b.cells) as usize, d, "{}", b.list());
            }
        }
    }

    #[test]
    fn every_3x3_partition_variant_is_admissible_everywhere() {
        for goal in [
            goal3(),
            Board::parse("0 1 2 3 4 5 6 7 8", None, None, "g").unwrap(),
        ] {
            for partition in [
                "1,2,3,4/5,6,7,8",
                "1,2,5/3,6/4,7,8",
                "2,4,6,8",
                "1/2/3/4/5/6/7/8",
            ] {
                let h = heuristic(&goal, partition, true);
                assert!(h.reflection.is_some());
                let mut sums = [0u64; 3];
                for (d, layer) in boards_by_distance(&goal).iter().enumerate() {
                    for b in layer {
                        let plain = h.evaluate_plain(&b.cells);
                        let full = h.evaluate(&b.cells);
                        assert!(
                            full as usize <= d,
                            "{partition}: {full} > {d} on {}",
                            b.list()
                        );
                        assert!(plain <= full);
                        assert_eq!(full == 0, d == 0);
                        let md = Tables::new(&goal).manhattan(&b.cells);
                        assert!(plain >= md);
                        sums[0] += u64::from(md);
                        sums[1] += u64::from(plain);
                        sums[2] += u64::from(full);
                    }
                }
                if partition.contains('/') && !partition.starts_with("1/") {
                    assert!(
                        sums[1] > sums[0] && sums[2] > sums[1],
                        "{partition}: {sums:?}"
                    );
                } else if partition.starts_with("1/") {
                    // Single tiles: exactly Manhattan distance.
                    assert_eq!(sums[0], sums[1]);
                }
            }
        }
    }

    use super::super::heuristic::Tables;

    #[test]
    fn partitions_parse_and_reject_bad_input() {
        let g4 = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let p = Partition::parse("pdb:7-8", &g4).unwrap();
        assert_eq!(p.groups[1], vec![8, 9, 10, 11, 12, 13, 14, 15]);
        assert_eq!(
            Partition::parse("1,2,3/4", &g4).unwrap().groups,
            vec![vec![1, 2, 3], vec![4]]
        );
        let err = |t: &str, g: &Board| Partition::parse(t, g).unwrap_err().to_string();
        assert!(err("1,2,x", &g4).contains("\"x\""));
        assert!(err("1,2/2,3", &g4).contains("two groups"));
        assert!(err("1,16", &g4).contains("tile 16"));
        assert!(err("1,2//3", &g4).contains("empty group"));
        assert!(err("6-6-6-6", &g4).contains("5x5"));
        assert!(err("1,2,3,4,5,6,7,8,9,10", &g4).contains("limit"));
        for name in PARTITION_NAMES {
            let side = if *name == "6-6-6-6" { 5 } else { 4 };
            let g = Board::default_goal(Shape::new(side, side).unwrap(), 1);
            let p = Partition::parse(name, &g).unwrap();
            let tiles: usize = p.groups.iter().map(Vec::len).sum();
            assert_eq!(tiles, g.len() - 1, "{name} covers the board");
        }
    }

    #[test]
    fn the_cache_round_trips_and_rebuilds_bad_files() {
        let dir = tempfile::tempdir().unwrap();
        let goal = goal3();
        let tiles = [1u8, 2, 3, 4];
        let (t, o) = load_or_build(dir.path(), &goal, &tiles, &|_, _| {}).unwrap();
        assert_eq!(o, Origin::Built);
        let (u, o) = load_or_build(dir.path(), &goal, &tiles, &|_, _| {}).unwrap();
        assert_eq!(o, Origin::Loaded);
        assert_eq!((t.data.clone(), t.histogram.clone()), (u.data, u.histogram));
        let path = cache_file(dir.path(), &goal, &tiles);
        // A flipped payload byte: the checksum fails, the table is rebuilt.
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x10;
        std::fs::write(&path, &bytes).unwrap();
        assert!(
            load(&path, &goal, &tiles)
                .unwrap_err()
                .to_string()
                .contains("checksum")
        );
        let (_, o) = load_or_build(dir.path(), &goal, &tiles, &|_, _| {}).unwrap();
        assert_eq!(o, Origin::Built);
        assert!(load(&path, &goal, &tiles).is_ok());
        // Truncated, another version, another goal: never used.
        std::fs::write(&path, &bytes[..100]).unwrap();
        assert!(
            load(&path, &goal, &tiles)
                .unwrap_err()
                .to_string()
                .contains("truncated")
        );
        let mut stale = std::fs::read(&path).unwrap();
        stale[8] = 99;
        std::fs::write(&path, &stale).unwrap();
        assert!(
            load(&path, &goal, &tiles)
                .unwrap_err()
                .to_string()
                .contains("version")
        );
        let other = Board::parse("0 1 2 3 4 5 6 7 8", None, None, "g").unwrap();
        save(&path, &other, &build(&other, &tiles, &|_, _| {})).unwrap();
        assert!(
            load(&path, &goal, &tiles)
                .unwrap_err()
                .to_string()
                .contains("goal")
        );
        let (_, o) = load_or_build(dir.path(), &goal, &tiles, &|_, _| {}).unwrap();
        assert_eq!(o, Origin::Built);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporaries"
        );
    }
}
