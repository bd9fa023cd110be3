//! Fixed-width bit sets (u32, u64, u128) for breadth-first search over maze cells: a
//! whole BFS layer is one word, so expanding it is a few ORs.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// A set of cell indices below `Self::WIDTH`.
pub trait CellSet:
    Copy
    + Eq
    + BitOr<Output = Self>
    + BitOrAssign
    + BitAnd<Output = Self>
    + BitAndAssign
    + Not<Output = Self>
    + Send
    + Sync
    + 'static
{
    const EMPTY: Self;
    const WIDTH: usize;
    fn single(cell: usize) -> Self;
    fn is_empty(self) -> bool;
    /// Removes and returns the lowest cell of a non-empty set.
    fn pop_lowest(&mut self) -> usize;
    fn contains(self, cell: usize) -> bool {
        !(self & Self::single(cell)).is_empty()
    }
}

macro_rules! impl_cell_set {
    ($t:ty) => {
        impl CellSet for $t {
            const EMPTY: Self = 0;
            const WIDTH: usize = <$t>::BITS as usize;
            #[inline(always)]
            fn single(cell: usize) -> Self {
                1 << cell
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn pop_lowest(&mut self) -> usize {
                let cell = self.trailing_zeros() as usize;
                *self &= *self - 1;
                cell
            }
        }
    };
}

impl_cell_set!(u32);
impl_cell_set!(u64);
impl_cell_set!(u128);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pop_lowest_visits_every_cell_in_order() {
        let mut s: u128 = u128::single(3) | u128::single(70) | u128::single(127);
        assert_eq!(s.pop_lowest(), 3);
        assert_eq!(s.pop_lowest(), 70);
        assert!(s.contains(127));
        assert_eq!(s.pop_lowest(), 127);
        assert!(s.is_empty());
    }
}
