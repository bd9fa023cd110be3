//! The perfect ranking of a pattern's placements (k-permutations of the cells), its
//! incremental update for one moved tile, unranking (by digits, and by two table lookups
//! for the build's inner loop), and the bit tricks on cell masks (select, pext, pdep,
//! with BMI2 when the CPU has it).

use crate::tiles::board::MAX_CELLS;

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
pub(super) fn select(mut mask: u32, d: u32) -> u32 {
    for _ in 0..d {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

/// Bits of `x` at the set positions of `mask`, packed to the bottom (BMI2's pext).
#[inline(always)]
pub(super) fn pext(x: u32, mut mask: u32) -> u64 {
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
pub(super) fn pdep(mut x: u64, mut mask: u32) -> u32 {
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

/// Unranking by two table lookups: the rank's high part gives the first digits, its low
/// part the rest (five bits a digit), so a placement costs one division.
pub(super) struct Unranker {
    low_radix: u32,
    split: usize,
    high: Vec<u32>,
    low: Vec<u32>,
}

impl Unranker {
    pub(super) fn new(pattern: &Pattern) -> Unranker {
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
    pub(super) fn digits(&self, rank: u32) -> u64 {
        let h = self.high[(rank / self.low_radix) as usize];
        let l = self.low[(rank % self.low_radix) as usize];
        u64::from(h) | u64::from(l) << (5 * self.split)
    }
}

/// Bit tricks, with BMI2 and POPCNT when `FAST` (checked at run time by the caller).
#[inline(always)]
pub(super) fn select_bit<const FAST: bool>(mask: u32, d: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: FAST is set only when the CPU has BMI2.
        return unsafe { std::arch::x86_64::_pdep_u32(1 << d, mask) }.trailing_zeros();
    }
    select(mask, d)
}

#[inline(always)]
pub(super) fn pext_bits<const FAST: bool>(x: u32, mask: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: FAST is set only when the CPU has BMI2.
        return u64::from(unsafe { std::arch::x86_64::_pext_u32(x, mask) });
    }
    pext(x, mask)
}

#[inline(always)]
pub(super) fn pdep_bits<const FAST: bool>(x: u64, mask: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: FAST is set only when the CPU has BMI2.
        return unsafe { std::arch::x86_64::_pdep_u32(x as u32, mask) };
    }
    pdep(x, mask)
}
