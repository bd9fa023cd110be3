//! One pattern's table in memory: the values packed as nibbles or bytes (`(value − md) /
//! 2`, see the [module documentation](super)), their lookup and statistics.

use super::rank::Pattern;

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
    pub(super) data: Vec<u8>,
    /// `histogram[v]`: the number of placements whose value (moves) is v.
    pub histogram: Vec<u64>,
    /// How long the build took (as recorded when it was built).
    pub build_seconds: f64,
    /// 0 for bytes, 1 for nibbles: index = rank >> shift_bits.
    shift_bits: u32,
    mask: u8,
}

impl Table {
    pub(super) fn new(pattern: Pattern, encoding: Encoding, data: Vec<u8>) -> Table {
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

    /// How the values are packed: (0 for bytes or 1 for nibbles, the entry's mask).
    pub(super) fn packing(&self) -> (u32, u8) {
        (self.shift_bits, self.mask)
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
