//! What the exhaustive search looks up about a maze size: every cell's legal jumps and
//! where each takes it, which cells can reach which, and the prime exponents of the
//! numbers of legal jumps (see [`super::count`]).

use super::count::{Big, Exps};
use crate::rjm::maze::max_jump;

/// Up to 10×10 cells.
pub const CELLS: usize = 100;
/// Past the last target of a jump; also "not met yet" in distances.
pub const NONE: u8 = u8::MAX;

/// The jump tables of one size.
pub struct Tables {
    pub size: usize,
    pub cells: usize,
    pub goal: usize,
    /// Every cell, as a bit set.
    pub mask: u128,
    /// The number of legal jumps of each cell (0 at the goal).
    pub options: Vec<u8>,
    /// `targets[cell * 10 + jump]`: the cells the jump reaches, right, down, left, up;
    /// [`NONE`] past the last.
    pub targets: Vec<[u8; 4]>,
    /// `reach[x]`: every cell some legal jump of `x` takes it to.
    pub reach: Vec<u128>,
    /// `reachers[x]`: every cell with a legal jump to `x`.
    pub reachers: Vec<u128>,
    /// `exps[x]`: the exponents of `options[x]` (1 at the goal).
    pub exps: Vec<Exps>,
    /// The exponents of the number of all mazes: the product of every non-goal cell's
    /// number of legal jumps.
    pub all: Exps,
}

impl Tables {
    pub fn new(size: usize) -> Tables {
        let cells = size * size;
        let goal = cells - 1;
        let mut targets = vec![[NONE; 4]; cells * 10];
        let mut options = vec![0u8; cells];
        let mut reach = vec![0u128; cells];
        let mut reachers = vec![0u128; cells];
        for cell in 0..goal {
            options[cell] = max_jump(size, cell);
            let (r, c) = ((cell / size) as i64, (cell % size) as i64);
            for jump in 1..=options[cell] {
                let j = i64::from(jump);
                let moves = [(r, c + j), (r + j, c), (r, c - j), (r - j, c)];
                let inside = moves.into_iter().filter(|&(y, x)| {
                    (0..size as i64).contains(&y) && (0..size as i64).contains(&x)
                });
                for (k, (y, x)) in inside.enumerate() {
                    let t = (y * size as i64 + x) as usize;
                    targets[cell * 10 + usize::from(jump)][k] = t as u8;
                    reach[cell] |= 1 << t;
                    reachers[t] |= 1 << cell;
                }
            }
        }
        let exps: Vec<Exps> = options.iter().map(|&o| Exps::of(o.max(1))).collect();
        let all = Exps(exps.iter().map(|e| e.0).sum());
        Tables {
            size,
            cells,
            goal,
            mask: if cells == 128 {
                u128::MAX
            } else {
                (1u128 << cells) - 1
            },
            options,
            targets,
            reach,
            reachers,
            exps,
            all,
        }
    }

    /// The number of all mazes of the size.
    pub fn all_mazes(&self) -> Big {
        self.all.value()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_agree_with_the_maze_module() {
        for size in [3, 5, 7, 10] {
            let t = Tables::new(size);
            for cell in 0..t.goal {
                for jump in 1..=t.options[cell] {
                    let mut mine: Vec<usize> = t.targets[cell * 10 + usize::from(jump)]
                        .iter()
                        .filter(|&&x| x != NONE)
                        .map(|&x| usize::from(x))
                        .collect();
                    let mut theirs: Vec<usize> =
                        crate::rjm::Maze::targets(size, cell, jump).collect();
                    mine.sort_unstable();
                    theirs.sort_unstable();
                    assert_eq!(mine, theirs, "size {size}, cell {cell}, jump {jump}");
                }
            }
        }
    }

    #[test]
    fn the_start_reaches_right_then_down() {
        let t = Tables::new(7);
        for s in 1..=6u8 {
            let [right, down, rest @ ..] = t.targets[usize::from(s)];
            assert_eq!(
                (usize::from(right), usize::from(down)),
                (usize::from(s), 7 * usize::from(s))
            );
            assert_eq!(rest, [NONE, NONE]);
        }
    }
}
