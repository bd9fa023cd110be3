//! The compact peg-solitaire board: a shape (which of the 9×9 cells are holes, which
//! jumps stay on the board, which symmetries map the holes to themselves) and a position
//! (a bit mask of the holes that hold a peg, one `u128`, 16 bytes).
//!
//! Cell (x, y) — column x from the left, row y from the top — is bit `9 * x + y`. That
//! column-major order makes "lowest bit first" the assignment's scan order (x outer, y inner),
//! and every jump a shift: left/right move by 9 bits, up/down by 1. Legal jumps for a
//! whole board are four mask expressions, so the searches never look at cells one by one.

use std::fmt;

/// Rows and columns of the largest board.
pub const SIZE: usize = 9;
/// Cells of the 9×9 grid (bits used in a mask).
pub const CELLS: usize = SIZE * SIZE;

/// The bit of cell (x, y).
#[inline]
pub const fn cell(x: usize, y: usize) -> u32 {
    (x * SIZE + y) as u32
}

/// The (x, y) of a bit.
#[inline]
pub const fn coords(c: u32) -> (usize, usize) {
    (c as usize / SIZE, c as usize % SIZE)
}

/// The four jump directions, in the assignment's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    Left,
    Right,
    Up,
    Down,
}

impl Dir {
    /// The assignment's order: left, right, up, down.
    pub const ALL: [Dir; 4] = [Dir::Left, Dir::Right, Dir::Up, Dir::Down];

    /// (dx, dy) of one step.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Dir::Left => "left",
            Dir::Right => "right",
            Dir::Up => "up",
            Dir::Down => "down",
        }
    }
}

/// One jump: the peg on `from` jumps over its neighbour in direction `dir`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Jump {
    pub from: u32,
    pub dir: Dir,
}

impl Jump {
    pub fn new(x: usize, y: usize, dir: Dir) -> Jump {
        Jump {
            from: cell(x, y),
            dir,
        }
    }

    /// The cell jumped over.
    pub fn over(self) -> u32 {
        step(self.from, self.dir, 1)
    }

    /// The landing cell.
    pub fn to(self) -> u32 {
        step(self.from, self.dir, 2)
    }

    /// The three bits a jump flips (from, over, to).
    #[inline]
    pub fn bits(self) -> u128 {
        jump_bits(self.from, self.dir)
    }

    /// 0..324, for compact storage.
    #[inline]
    pub fn code(self) -> u16 {
        (self.from * 4 + self.dir as u32) as u16
    }

    #[inline]
    pub fn from_code(code: u16) -> Jump {
        Jump {
            from: u32::from(code / 4),
            dir: Dir::ALL[usize::from(code % 4)],
        }
    }
}

impl fmt::Display for Jump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (x, y) = coords(self.from);
        let (tx, ty) = coords(self.to());
        write!(f, "({x},{y}) {} to ({tx},{ty})", self.dir.name())
    }
}

#[inline]
fn step(c: u32, dir: Dir, n: i32) -> u32 {
    let (x, y) = coords(c);
    let (dx, dy) = dir.delta();
    cell((x as i32 + n * dx) as usize, (y as i32 + n * dy) as usize)
}

/// Bits of a jump from cell `c`: three cells in a row, 9 apart horizontally, 1 vertically.
#[inline]
pub fn jump_bits(c: u32, dir: Dir) -> u128 {
    const H: u128 = 1 | 1 << 9 | 1 << 18;
    const V: u128 = 0b111;
    match dir {
        Dir::Left => H << (c - 18),
        Dir::Right => H << c,
        Dir::Up => V << (c - 2),
        Dir::Down => V << c,
    }
}

/// A position: the set of holes holding a peg.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Board(pub u128);

impl Board {
    #[inline]
    pub fn pegs(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub fn has_peg(self, c: u32) -> bool {
        self.0 >> c & 1 == 1
    }

    /// The board after a jump (which must be legal).
    #[inline]
    pub fn apply(self, j: Jump) -> Board {
        Board(self.0 ^ j.bits())
    }
}

/// One of the eight symmetries of the square, as a permutation of cells, with byte
/// tables that apply it to a whole mask in a few lookups.
#[derive(Clone)]
struct Symmetry {
    perm: [u8; CELLS],
    /// `tables[k][v]`: the image of byte value `v` at byte `k` of a mask.
    tables: Vec<[u128; 256]>,
}

/// Which cells are holes, and everything derived from that: legal-jump masks, symmetries.
#[derive(Clone)]
pub struct Shape {
    holes: u128,
    /// `src[d]`: cells c such that c and the next two cells in direction d are holes.
    src: [u128; 4],
    /// Symmetries mapping the holes onto themselves; the identity first.
    syms: Vec<Symmetry>,
    /// Bytes of a mask that can hold a hole.
    byte_lo: usize,
    byte_hi: usize,
    /// Bounding box of the holes: (x0, y0, x1, y1), inclusive.
    pub bbox: (usize, usize, usize, usize),
}

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shape")
            .field("holes", &self.holes)
            .field("symmetries", &self.syms.len())
            .finish()
    }
}

impl Shape {
    /// The shape with the given holes (a mask over the 9×9 grid; must be non-empty).
    pub fn new(holes: u128) -> Shape {
        assert!(
            holes != 0 && holes >> CELLS == 0,
            "a shape needs holes inside the 9x9 grid"
        );
        let is_hole = |x: i32, y: i32| -> bool {
            (0..SIZE as i32).contains(&x)
                && (0..SIZE as i32).contains(&y)
                && holes >> cell(x as usize, y as usize) & 1 == 1
        };
        let mut src = [0u128; 4];
        for d in Dir::ALL {
            let (dx, dy) = d.delta();
            for x in 0..SIZE as i32 {
                for y in 0..SIZE as i32 {
                    if is_hole(x, y) && is_hole(x + dx, y + dy) && is_hole(x + 2 * dx, y + 2 * dy) {
                        src[d.index()] |= 1u128 << cell(x as usize, y as usize);
                    }
                }
            }
        }
        let cells: Vec<(usize, usize)> = (0..CELLS as u32)
            .filter(|&c| holes >> c & 1 == 1)
            .map(coords)
            .collect();
        let x0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let x1 = cells.iter().map(|c| c.0).max().unwrap_or(0);
        let y0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let y1 = cells.iter().map(|c| c.1).max().unwrap_or(0);
        let byte_lo = holes.trailing_zeros() as usize / 8;
        let byte_hi = (127 - holes.leading_zeros() as usize) / 8;
        let (w, h) = (x1 - x0, y1 - y0);
        let mut syms = Vec::new();
        for t in 0..8 {
            if t >= 4 && w != h {
                continue;
            }
            let map = |x: usize, y: usize| -> (usize, usize) {
                let (u, v) = (x - x0, y - y0);
                let (u, v) = match t {
                    0 => (u, v),
                    1 => (w - u, v),
                    2 => (u, h - v),
                    3 => (w - u, h - v),
                    4 => (v, u),
                    5 => (h - v, u),
                    6 => (v, w - u),
                    _ => (h - v, w - u),
                };
                (u + x0, v + y0)
            };
            let mut perm = [0u8; CELLS];
            let mut ok = true;
            for c in 0..CELLS as u32 {
                let (x, y) = coords(c);
                if holes >> c & 1 == 1 {
                    let (nx, ny) = map(x, y);
                    let nc = cell(nx, ny);
                    if holes >> nc & 1 == 0 {
                        ok = false;
                        break;
                    }
                    perm[c as usize] = nc as u8;
                } else {
                    perm[c as usize] = c as u8;
                }
            }
            if !ok {
                continue;
            }
            let mut tables = vec![[0u128; 256]; byte_hi - byte_lo + 1];
            for (k, table) in tables.iter_mut().enumerate() {
                for (v, out) in table.iter_mut().enumerate() {
                    for bit in 0..8 {
                        let c = (byte_lo + k) * 8 + bit;
                        if v >> bit & 1 == 1 && c < CELLS && holes >> c & 1 == 1 {
                            *out |= 1u128 << perm[c];
                        }
                    }
                }
            }
            syms.push(Symmetry { perm, tables });
        }
        Shape {
            holes,
            src,
            syms,
            byte_lo,
            byte_hi,
            bbox: (x0, y0, x1, y1),
        }
    }

    #[inline]
    pub fn holes(&self) -> u128 {
        self.holes
    }

    #[inline]
    pub fn is_hole(&self, c: u32) -> bool {
        c < CELLS as u32 && self.holes >> c & 1 == 1
    }

    pub fn hole_count(&self) -> u32 {
        self.holes.count_ones()
    }

    /// For each direction (seed order), the cells whose peg can jump that way.
    #[inline]
    pub fn jump_masks(&self, b: Board) -> [u128; 4] {
        let pegs = b.0;
        let empty = self.holes & !pegs;
        [
            pegs & (pegs << 9) & (empty << 18) & self.src[0],
            pegs & (pegs >> 9) & (empty >> 18) & self.src[1],
            pegs & (pegs << 1) & (empty << 2) & self.src[2],
            pegs & (pegs >> 1) & (empty >> 2) & self.src[3],
        ]
    }

    /// True when some jump is legal.
    #[inline]
    pub fn can_jump(&self, b: Board) -> bool {
        self.jump_masks(b).iter().any(|&m| m != 0)
    }

    /// Calls `f` for every legal jump, in the assignment's order (x outer, y inner; then left,
    /// right, up, down). Stops early when `f` returns `false`.
    #[inline]
    pub fn for_each_jump(&self, b: Board, mut f: impl FnMut(Jump) -> bool) {
        let m = self.jump_masks(b);
        let mut any = m[0] | m[1] | m[2] | m[3];
        while any != 0 {
            let c = any.trailing_zeros();
            any &= any - 1;
            for d in Dir::ALL {
                if m[d.index()] >> c & 1 == 1 && !f(Jump { from: c, dir: d }) {
                    return;
                }
            }
        }
    }

    /// The legal jumps, in the assignment's order.
    pub fn jumps(&self, b: Board) -> Vec<Jump> {
        let mut v = Vec::new();
        self.for_each_jump(b, |j| {
            v.push(j);
            true
        });
        v
    }

    /// Is `j` legal on `b`?
    pub fn is_legal(&self, b: Board, j: Jump) -> bool {
        self.src[j.dir.index()] >> j.from & 1 == 1
            && b.0 & j.bits() == (1u128 << j.from | 1u128 << j.over())
    }

    /// Number of symmetries of the holes (1, 2, 4 or 8), the identity included.
    pub fn symmetry_count(&self) -> usize {
        self.syms.len()
    }

    /// The image of a board under symmetry `s` (0 is the identity).
    #[inline]
    pub fn transform(&self, s: usize, b: Board) -> Board {
        let tables = &self.syms[s].tables;
        let mut out = 0u128;
        for (k, table) in tables.iter().enumerate() {
            out |= table[(b.0 >> ((self.byte_lo + k) * 8)) as u8 as usize];
        }
        Board(out)
    }

    /// The image of a cell under symmetry `s`.
    pub fn transform_cell(&self, s: usize, c: u32) -> u32 {
        u32::from(self.syms[s].perm[c as usize])
    }

    /// The smallest image of `b` under the symmetries in `group` (indices into the shape's
    /// symmetries), and how many of them fix `b`.
    #[inline]
    pub fn canonical_in(&self, group: &[usize], b: Board) -> (Board, u32) {
        let mut best = b;
        let mut fix = 1;
        for &s in group.iter().skip(1) {
            let t = self.transform(s, b);
            if t < best {
                best = t;
            } else if t == b {
                fix += 1;
            }
        }
        (best, fix)
    }

    /// The smallest image of `b` under all symmetries of the shape.
    #[inline]
    pub fn canonical(&self, b: Board) -> Board {
        let mut best = b;
        for s in 1..self.syms.len() {
            let t = self.transform(s, b);
            if t < best {
                best = t;
            }
        }
        best
    }

    /// The symmetries (indices) that map `b` onto itself.
    pub fn stabilizer(&self, b: Board) -> Vec<usize> {
        (0..self.syms.len())
            .filter(|&s| self.transform(s, b) == b)
            .collect()
    }

    /// Bytes spanned by the holes (for the few places that want to know).
    pub fn byte_span(&self) -> (usize, usize) {
        (self.byte_lo, self.byte_hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn english() -> (Shape, Board) {
        let mut holes = 0u128;
        for x in 1..8 {
            for y in 1..8 {
                if (3..6).contains(&x) || (3..6).contains(&y) {
                    holes |= 1 << cell(x, y);
                }
            }
        }
        (Shape::new(holes), Board(holes & !(1 << cell(4, 4))))
    }

    #[test]
    fn english_board_has_four_first_jumps_and_eight_symmetries() {
        let (shape, start) = english();
        assert_eq!(shape.hole_count(), 33);
        assert_eq!(start.pegs(), 32);
        assert_eq!(shape.symmetry_count(), 8);
        let js = shape.jumps(start);
        // Seed order: (2,4) right, (4,2) down, (4,6) up, (6,4) left.
        assert_eq!(
            js,
            vec![
                Jump::new(2, 4, Dir::Right),
                Jump::new(4, 2, Dir::Down),
                Jump::new(4, 6, Dir::Up),
                Jump::new(6, 4, Dir::Left)
            ]
        );
        let children: Vec<Board> = js.iter().map(|&j| start.apply(j)).collect();
        for c in &children {
            assert_eq!(c.pegs(), 31);
            assert_eq!(shape.canonical(*c), shape.canonical(children[0]));
        }
    }

    #[test]
    fn mask_moves_match_brute_force() {
        // Compare the shift-based generator with a cell-by-cell one on pseudo-random boards.
        let (shape, _) = english();
        let mut s = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            s = crate::util::rng::splitmix64(s);
            let t = crate::util::rng::splitmix64(s);
            let b = Board(((u128::from(s) << 64) | u128::from(t)) & shape.holes());
            let mut brute = Vec::new();
            for x in 0..SIZE {
                for y in 0..SIZE {
                    for d in Dir::ALL {
                        let (dx, dy) = d.delta();
                        let (ox, oy, tx, ty) = (
                            x as i32 + dx,
                            y as i32 + dy,
                            x as i32 + 2 * dx,
                            y as i32 + 2 * dy,
                        );
                        if tx < 0 || ty < 0 || tx >= 9 || ty >= 9 {
                            continue;
                        }
                        let (o, t) = (
                            cell(ox as usize, oy as usize),
                            cell(tx as usize, ty as usize),
                        );
                        let f = cell(x, y);
                        if b.has_peg(f) && b.has_peg(o) && shape.is_hole(t) && !b.has_peg(t) {
                            brute.push(Jump { from: f, dir: d });
                        }
                    }
                }
            }
            assert_eq!(shape.jumps(b), brute);
            for j in brute {
                assert!(shape.is_legal(b, j));
                assert_eq!(b.apply(j).pegs(), b.pegs() - 1);
            }
        }
    }

    #[test]
    fn symmetries_are_permutations_preserving_jumps() {
        let (shape, start) = english();
        let b = start.apply(Jump::new(2, 4, Dir::Right));
        for s in 0..8 {
            let t = shape.transform(s, b);
            assert_eq!(t.pegs(), b.pegs());
            assert_eq!(shape.jumps(t).len(), shape.jumps(b).len());
        }
        let images: std::collections::HashSet<Board> =
            (0..8).map(|s| shape.transform(s, b)).collect();
        assert_eq!(images.len(), 4, "a first jump has 4 distinct images");
    }

    #[test]
    fn jump_codes_round_trip() {
        let j = Jump::new(6, 4, Dir::Left);
        assert_eq!(Jump::from_code(j.code()), j);
        assert_eq!(j.to(), cell(4, 4));
        assert_eq!(j.over(), cell(5, 4));
        assert_eq!(j.to_string(), "(6,4) left to (4,4)");
    }
}
