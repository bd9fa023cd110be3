//! The board's geometry as cell masks: each cell's neighbours and the flood of a set of
//! free cells from a seed, which the tables' construction uses to find the cells the
//! blank reaches without moving a pattern tile ([`super::build`]).

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
}
