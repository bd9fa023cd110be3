//! The construction of a pattern's table: a layered breadth-first search backwards from
//! the goal over (placement, blank region), in parallel over ranges of placements (see the
//! [module documentation](super) for the words of seen and frontier bits).

use super::grid::Grid;
use super::rank::{Pattern, Unranker, pdep_bits, pext, pext_bits, select_bit};
use super::table::{Encoding, Table};
use crate::tiles::board::{Board, MAX_CELLS};
use crate::util::huge::prefetch;
use crate::util::observe::{Observer, Work};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

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

/// Builds the table of `tiles` towards `goal` (one blank), a task of `observer` whose
/// parts are placements, advanced after every layer by the placements valued in it.
pub fn build(goal: &Board, tiles: &[u8], observer: &dyn Observer) -> Table {
    build_both(goal, tiles, bit_instructions(), observer)
}

/// The table with the bit instructions `bits`. A build whose values do not fit nibbles
/// is done again with bytes.
fn build_both(goal: &Board, tiles: &[u8], bits: Bits, observer: &dyn Observer) -> Table {
    let started = Instant::now();
    let free = goal.len() - tiles.len();
    for encoding in [Encoding::Nibbles, Encoding::Bytes] {
        let how = (encoding, bits);
        let built = if free <= 8 {
            build_with::<AtomicU16>(goal, tiles, how, observer)
        } else if free <= 16 {
            build_with::<AtomicU32>(goal, tiles, how, observer)
        } else {
            build_with::<AtomicU64>(goal, tiles, how, observer)
        };
        if let Some(mut table) = built {
            table.build_seconds = started.elapsed().as_secs_f64();
            return table;
        }
    }
    unreachable!("byte values always fit")
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

impl<W: Word> Build<'_, W> {
    /// One range of placements in one layer: values the placements first reached at
    /// `depth` (into `out`, the range's part of the table) and expands the frontier
    /// regions of the layer's parity. Returns (placements valued, states created).
    #[inline(always)]
    fn chunk<const FAST: bool>(&self, first: u64, depth: u32, out: &mut [u8]) -> Counts {
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
    fn chunk_bmi2(&self, first: u64, depth: u32, out: &mut [u8]) -> Counts {
        self.chunk::<true>(first, depth, out)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,popcnt")]
    fn chunk_popcnt(&self, first: u64, depth: u32, out: &mut [u8]) -> Counts {
        self.chunk::<false>(first, depth, out)
    }

    fn run_chunk(&self, bits: Bits, first: u64, depth: u32, out: &mut [u8]) -> Counts {
        match bits {
            // SAFETY: `Bits::Pdep` only when the CPU has BMI1, BMI2 and POPCNT.
            #[cfg(target_arch = "x86_64")]
            Bits::Pdep => unsafe { self.chunk_bmi2(first, depth, out) },
            // SAFETY: `Bits::Popcnt` only when the CPU has BMI1 and POPCNT.
            #[cfg(target_arch = "x86_64")]
            Bits::Popcnt => unsafe { self.chunk_popcnt(first, depth, out) },
            _ => self.chunk::<false>(first, depth, out),
        }
    }
}

const CHUNK: u64 = 1 << 14;

/// What a range of a layer did: (placements valued, states created).
type Counts = (u64, u64);

/// Which bit instructions the build uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bits {
    /// PDEP and PEXT (BMI2) to select and gather free cells, POPCNT to count them.
    Pdep,
    /// POPCNT, the selecting and gathering done bit by bit.
    Popcnt,
    /// Neither.
    Plain,
}

/// The bit instructions of this CPU that make the build faster. PDEP and PEXT are
/// microcoded on AMD's processors before Zen 3 (families 0x17 and 0x18), where they take
/// hundreds of cycles, so that selecting and gathering bit by bit builds the same table
/// much faster there (`docs/24-puzzle.md` has the measurement).
fn bit_instructions() -> Bits {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if !(has!("bmi1") && has!("popcnt")) {
            return Bits::Plain;
        }
        if has!("bmi2") && !slow_pdep() {
            return Bits::Pdep;
        }
        Bits::Popcnt
    }
    #[cfg(not(target_arch = "x86_64"))]
    Bits::Plain
}

/// True when this CPU's PDEP and PEXT are microcoded ([`pdep_microcoded`]).
#[cfg(target_arch = "x86_64")]
fn slow_pdep() -> bool {
    use std::arch::x86_64::__cpuid;
    let vendor = __cpuid(0);
    let mut name = [0u8; 12];
    for (i, w) in [vendor.ebx, vendor.edx, vendor.ecx].into_iter().enumerate() {
        name[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    pdep_microcoded(&name, __cpuid(1).eax)
}

/// True for the processors whose CPUID vendor is `vendor` and whose signature (leaf 1,
/// EAX) is `signature` when they are AMD's (or Hygon's) of families 0x17 and 0x18: Zen 1,
/// Zen+, Zen 2 and Hygon Dhyana, whose PDEP and PEXT are microcoded.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn pdep_microcoded(vendor: &[u8; 12], signature: u32) -> bool {
    let base = (signature >> 8) & 0xF;
    let family = match base {
        0xF => base + ((signature >> 20) & 0xFF),
        _ => base,
    };
    let amd = vendor == b"AuthenticAMD" || vendor == b"HygonGenuine";
    amd && (0x17..=0x18).contains(&family)
}

/// The layered BFS with words of type `W`, with the bit instructions `instr`: the table,
/// or `None` when a value does not fit `encoding`.
fn build_with<W: Word>(
    goal: &Board,
    tiles: &[u8],
    (encoding, instr): (Encoding, Bits),
    observer: &dyn Observer,
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
    let name = format!("building the pattern database of tiles {tiles:?}");
    let task = observer.task(&Work::new(&name, "placements", Some(entries)));
    let mut histogram: Vec<u64> = Vec::new();
    let mut valued = 0u64;
    let mut depth = 0u32;
    loop {
        let (count, created) = data
            .par_chunks_mut((CHUNK / per_byte) as usize)
            .enumerate()
            .map(|(ci, out)| ctx.run_chunk(instr, ci as u64 * CHUNK, depth, out))
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        if overflow.load(Relaxed) {
            return None;
        }
        histogram.push(count);
        valued += count;
        task.set(valued);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::board::Shape;

    #[test]
    fn every_set_of_bit_instructions_builds_the_same_tables() {
        // The builds with PDEP and PEXT, with POPCNT alone and with neither give the same
        // values, wherever the CPU has the instructions (a 15-puzzle
        // pattern of five tiles, and one of the 8-puzzle with the blank's cell to spare).
        let mut all = vec![Bits::Plain];
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("bmi1") && has!("popcnt") {
                all.push(Bits::Popcnt);
                if has!("bmi2") {
                    all.push(Bits::Pdep);
                }
            }
        }
        for (side, tiles) in [(4, &[1u8, 2, 5, 6, 9][..]), (3, &[1, 2, 3, 4, 5, 6, 7])] {
            let goal = Board::default_goal(Shape::new(side, side).unwrap(), 1);
            let built: Vec<_> = (all.iter())
                .map(|&bits| {
                    let t = build_both(&goal, tiles, bits, &crate::util::observe::Quiet);
                    (t.data, t.histogram)
                })
                .collect();
            assert!(built[0].1.len() > 10, "{:?}", built[0].1);
            for (b, bits) in built.iter().zip(&all) {
                assert!(*b == built[0], "{tiles:?} with {bits:?}");
            }
        }
    }

    #[test]
    fn pdep_is_microcoded_on_amds_zen_before_zen_3() {
        // CPUID signatures (leaf 1, EAX): Zen 1 (EPYC 7551, family 0x17), Zen 2 (EPYC
        // 7742, 0x17), Hygon Dhyana (0x18), Zen 3 (EPYC 7763, 0x19), Zen 4 (0x19), an
        // Intel Skylake-SP (family 6) and an AMD Bulldozer (0x15, no BMI2 anyway).
        for (vendor, signature, slow) in [
            (b"AuthenticAMD", 0x0080_0F12, true),
            (b"AuthenticAMD", 0x0083_0F10, true),
            (b"HygonGenuine", 0x0090_0F01, true),
            (b"AuthenticAMD", 0x00A0_0F11, false),
            (b"AuthenticAMD", 0x00A1_0F11, false),
            (b"GenuineIntel", 0x0005_0654, false),
            (b"AuthenticAMD", 0x0060_0F12, false),
        ] {
            assert_eq!(pdep_microcoded(vendor, signature), slow, "{signature:#x}");
        }
    }
}
