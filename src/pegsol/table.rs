//! A set of boards for the searches: open addressing with linear probing over a flat
//! array of keys, no per-entry allocation and no stored hashes.
//!
//! A key is a board's peg mask squeezed onto its holes ([`Packer`]: one shift when the
//! holes span at most 64 bits, else BMI2 `pext` or a shift per run of holes): 8 bytes
//! when the board has at most 64 holes (every level), 16 bytes otherwise. The all-zero
//! key marks an empty slot (a position always has a peg). Load stays at most 3/4; big
//! arrays ask Linux for 2 MB pages.

/// How a shape's boards become keys: the runs of consecutive hole bits, packed side by
/// side. With at most 64 holes (every level) a key is a `u64`, else a `u128`.
#[derive(Debug, Clone)]
pub struct Packer {
    /// (first bit, length) of each run of consecutive holes, in bit order.
    runs: Vec<(u32, u32)>,
    /// True when every hole fits in 64 bits once packed.
    pub fits_u64: bool,
    /// When the holes span at most 64 bits, packing is one shift by this much.
    shift: Option<u32>,
    /// The holes, for the BMI2 `pext` path (when the CPU has it).
    holes: u128,
    pext: bool,
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn pext_pack(mask: u128, holes: u128) -> u128 {
    use std::arch::x86_64::_pext_u64;
    let lo = _pext_u64(mask as u64, holes as u64);
    let hi = _pext_u64((mask >> 64) as u64, (holes >> 64) as u64);
    u128::from(lo) | u128::from(hi) << (holes as u64).count_ones()
}

fn has_pext() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

impl Packer {
    pub fn new(holes: u128) -> Packer {
        let mut runs = Vec::new();
        let mut rest = holes;
        while rest != 0 {
            let start = rest.trailing_zeros();
            let len = (!(rest >> start)).trailing_zeros();
            runs.push((start, len));
            rest &= !(((1u128 << len) - 1) << start);
        }
        let lo = holes.trailing_zeros();
        let span = 128 - holes.leading_zeros() - lo;
        let shift = (span <= 64).then_some(lo);
        Packer {
            runs,
            fits_u64: holes.count_ones() <= 64,
            shift,
            holes,
            pext: has_pext(),
        }
    }

    /// The board's bits, packed run after run (lossless for boards on the shape).
    #[inline]
    pub fn pack(&self, mask: u128) -> u128 {
        if let Some(s) = self.shift {
            return mask >> s;
        }
        #[cfg(target_arch = "x86_64")]
        if self.pext {
            // SAFETY: `pext` is true only when the CPU supports BMI2.
            return unsafe { pext_pack(mask, self.holes) };
        }
        self.pack_runs(mask)
    }

    /// Packing without BMI2: one shift and mask per run.
    #[inline]
    fn pack_runs(&self, mask: u128) -> u128 {
        let mut out = 0u128;
        let mut at = 0;
        for &(start, len) in &self.runs {
            out |= (mask >> start & ((1u128 << len) - 1)) << at;
            at += len;
        }
        out
    }

    /// The inverse of [`Packer::pack`].
    pub fn unpack(&self, key: u128) -> u128 {
        if let Some(s) = self.shift {
            return key << s;
        }
        let mut out = 0u128;
        let mut at = 0;
        for &(start, len) in &self.runs {
            out |= (key >> at & ((1u128 << len) - 1)) << start;
            at += len;
        }
        out
    }
}

/// A packed board in a key type.
pub trait Key: Copy + Eq + Default + Send + Sync + 'static {
    fn from_mask(mask: u128, packer: &Packer) -> Self;
    fn to_u128(self) -> u128;
    fn hash(self) -> u64;
    fn is_empty(self) -> bool;
}

impl Key for u64 {
    #[inline]
    fn from_mask(mask: u128, packer: &Packer) -> Self {
        packer.pack(mask) as u64
    }
    #[inline]
    fn to_u128(self) -> u128 {
        u128::from(self)
    }
    #[inline]
    fn hash(self) -> u64 {
        let h = self.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^ (h >> 29)
    }
    #[inline]
    fn is_empty(self) -> bool {
        self == 0
    }
}

impl Key for u128 {
    #[inline]
    fn from_mask(mask: u128, packer: &Packer) -> Self {
        packer.pack(mask)
    }
    #[inline]
    fn to_u128(self) -> u128 {
        self
    }
    #[inline]
    fn hash(self) -> u64 {
        let lo = (self as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let hi = ((self >> 64) as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let h = lo ^ hi.rotate_left(31);
        h ^ (h >> 29)
    }
    #[inline]
    fn is_empty(self) -> bool {
        self == 0
    }
}

/// A growable hash set of non-zero keys.
pub struct KeySet<K: Key> {
    slots: Vec<K>,
    mask: usize,
    len: usize,
    grow_at: usize,
}

impl<K: Key> KeySet<K> {
    /// A set with room for about `expected` keys before it grows.
    pub fn with_capacity(expected: usize) -> Self {
        let cap = (expected.max(16) * 4 / 3).next_power_of_two();
        KeySet {
            slots: vec![K::default(); cap],
            mask: cap - 1,
            len: 0,
            grow_at: cap / 4 * 3,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held by the slot array.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<K>()
    }

    /// The most bytes held while inserting one more key: three times the slot array
    /// when the insert makes it grow (old and new arrays at once), else the array.
    pub fn bytes_after_insert(&self) -> usize {
        if self.len + 1 >= self.grow_at {
            3 * self.bytes()
        } else {
            self.bytes()
        }
    }

    #[inline]
    fn slot_of(&self, k: K) -> usize {
        (k.hash() >> 20) as usize & self.mask
    }

    /// Hints the CPU to fetch the slot of `k` (used before a batch of lookups).
    #[inline]
    pub fn prefetch(&self, k: K) {
        #[cfg(target_arch = "x86_64")]
        {
            let i = self.slot_of(k);
            // SAFETY: `i` is within `slots` (masked by len - 1); prefetching has no
            // architectural effect beyond the cache.
            unsafe {
                use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
                _mm_prefetch::<_MM_HINT_T0>(self.slots.as_ptr().add(i).cast::<i8>());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = k;
    }

    /// Adds `k`; true when it was not there before.
    #[inline]
    pub fn insert(&mut self, k: K) -> bool {
        debug_assert!(!k.is_empty());
        let mut i = self.slot_of(k);
        loop {
            let s = self.slots[i];
            if s == k {
                return false;
            }
            if s.is_empty() {
                self.slots[i] = k;
                self.len += 1;
                if self.len >= self.grow_at {
                    self.grow();
                }
                return true;
            }
            i = (i + 1) & self.mask;
        }
    }

    #[inline]
    pub fn contains(&self, k: K) -> bool {
        let mut i = self.slot_of(k);
        loop {
            let s = self.slots[i];
            if s == k {
                return true;
            }
            if s.is_empty() {
                return false;
            }
            i = (i + 1) & self.mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let cap = old.len() * 2;
        // Marked for huge pages: lookups land anywhere in it. (Not the first array: a short
        // search would pay for zeroing whole 2 MB pages it barely touches.)
        self.slots = crate::util::huge::huge_zeroed(cap);
        self.mask = cap - 1;
        self.grow_at = cap / 4 * 3;
        for k in old {
            if !k.is_empty() {
                let mut i = self.slot_of(k);
                while !self.slots[i].is_empty() {
                    i = (i + 1) & self.mask;
                }
                self.slots[i] = k;
            }
        }
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = K::default());
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_semantics_survive_growth() {
        let mut s: KeySet<u128> = KeySet::with_capacity(4);
        let mut reference = std::collections::HashSet::new();
        let mut x = 1u64;
        for _ in 0..20_000 {
            x = crate::util::rng::splitmix64(x);
            let k = u128::from(x % 5000 + 1) << 40 | 7;
            assert_eq!(s.insert(k), reference.insert(k));
        }
        assert_eq!(s.len(), reference.len());
        for k in &reference {
            assert!(s.contains(*k));
        }
        assert!(!s.contains(3));
        let mut t: KeySet<u64> = KeySet::with_capacity(1);
        assert!(t.insert(5));
        assert!(!t.insert(5));
        assert_eq!(std::mem::size_of::<u128>(), 16);
    }

    #[test]
    fn packing_is_lossless_on_the_shape() {
        for l in 0..9 {
            let p = crate::pegsol::levels::level(l).unwrap();
            let packer = Packer::new(p.shape.holes());
            assert!(packer.fits_u64);
            let holes = p.shape.holes();
            assert_eq!(packer.pack_runs(holes), (1u128 << holes.count_ones()) - 1);
            assert!(packer.pack(holes) < 1u128 << 64);
            let mut x = 9u64;
            for _ in 0..500 {
                x = crate::util::rng::splitmix64(x);
                let b = (u128::from(x) << 64 | u128::from(crate::util::rng::splitmix64(x))) & holes;
                assert_eq!(packer.unpack(packer.pack(b)), b);
                if packer.shift.is_none() {
                    assert_eq!(packer.pack_runs(b), packer.pack(b));
                }
            }
        }
    }
}
