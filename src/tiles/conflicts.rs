//! Linear conflicts of one line by table lookup, for the fast IDA*'s inner loop.
//!
//! A line's penalty depends only on where, along the line, the goal of each of its
//! tiles lies (when that goal is in the line at all): with `L` cells, each cell is one
//! of `L + 1` cases (the goal position 0..L, or "not this line's tile"), so all the
//! `(L + 1)^L` cases (7,776 at `L` = 5) are computed once, by the same rule as
//! [`super::heuristic::Tables::line_conflicts`] ([`conflicts_of`]), into a table of the penalty and the
//! cells in conflict. A lookup then reads the line's cells, one small table per tile
//! giving its case, and one entry: no sorting, no longest-run loop per node.

/// The longest line (board side).
const MAX_LINE: usize = 5;
/// The most lines of a board (rows, then columns).
const MAX_LINES: usize = 2 * MAX_LINE;

/// The penalty of a line's tiles whose goals are in the line, given their goal positions
/// along it in the order they stand (`keys`): all but a longest increasing run must leave
/// the line and come back, two moves each. Also the mask (bit = index in `keys`) of the
/// tiles in a conflict with another.
pub fn conflicts_of(keys: &[u8]) -> (u32, u32) {
    let k = keys.len();
    if k < 2 {
        return (0, 0);
    }
    let mut mask = 0u32;
    let mut lis = [1u8; MAX_LINE];
    let mut best = 1;
    for j in 1..k {
        for i in 0..j {
            if keys[i] < keys[j] {
                lis[j] = lis[j].max(lis[i] + 1);
            } else {
                mask |= (1 << i) | (1 << j);
            }
        }
        best = best.max(lis[j]);
    }
    (2 * (k as u32 - u32::from(best)), mask)
}

/// The conflicts of every line of one goal, by lookup.
#[derive(Debug, Clone)]
pub struct LineTable {
    /// `case[line][tile]`: the tile's goal position along the line, or the line's
    /// length when its goal is not in the line.
    case: [[u8; 32]; MAX_LINES],
    /// The cells of each line, in order, and how many.
    cells: [[u8; MAX_LINE]; MAX_LINES],
    len: [u8; MAX_LINES],
    /// `entries[len]`: for each combination of cases (base `len + 1`, first cell most
    /// significant), the penalty in the low byte and the cells in conflict (bit = index
    /// along the line) in the high byte.
    entries: [Vec<u16>; MAX_LINE + 1],
}

impl LineTable {
    /// The table of a `w` × `h` board whose tile `t` has its goal at cell
    /// `goal_cell[t]` (for `t` from 1; the blank's entry is not read).
    pub fn new(w: usize, h: usize, goal_cell: &[u8]) -> LineTable {
        let mut table = LineTable {
            case: [[0; 32]; MAX_LINES],
            cells: [[0; MAX_LINE]; MAX_LINES],
            len: [0; MAX_LINES],
            entries: Default::default(),
        };
        for line in 0..w + h {
            let (len, cells): (usize, Vec<usize>) = match line < h {
                true => (w, (0..w).map(|c| line * w + c).collect()),
                false => (h, (0..h).map(|r| r * w + line - h).collect()),
            };
            table.len[line] = len as u8;
            for (i, &c) in cells.iter().enumerate() {
                table.cells[line][i] = c as u8;
            }
            for tile in 0..32 {
                table.case[line][tile] = len as u8;
            }
            for (tile, &gc) in goal_cell.iter().enumerate().skip(1) {
                let (row, col) = (usize::from(gc) / w, usize::from(gc) % w);
                let (goal_line, along) = match line < h {
                    true => (row, col as u8),
                    false => (h + col, row as u8),
                };
                if goal_line == line {
                    table.case[line][tile] = along;
                }
            }
            if table.entries[len].is_empty() {
                table.entries[len] = entries(len);
            }
        }
        table
    }

    /// The penalty of `line` on the board `cells`, and the cells of the line in a
    /// conflict (bit = index along the line).
    #[inline(always)]
    pub fn line(&self, cells: &[u8; 32], line: usize) -> (u32, u32) {
        let line = line % MAX_LINES;
        let len = usize::from(self.len[line]);
        let mut index = 0;
        for &c in &self.cells[line][..len.min(MAX_LINE)] {
            let tile = usize::from(cells[usize::from(c) & 31]) & 31;
            index = index * (len + 1) + usize::from(self.case[line][tile]);
        }
        let e = self.entries[len.min(MAX_LINE)][index];
        (u32::from(e & 0xff), u32::from(e >> 8))
    }

    /// The tiles (bit = tile) at the cells of `line` that `along` marks.
    pub fn tiles(&self, cells: &[u8; 32], line: usize, along: u32) -> u32 {
        let line = line % MAX_LINES;
        (0..usize::from(self.len[line]))
            .filter(|i| along >> i & 1 == 1)
            .fold(0, |m, i| {
                m | 1 << cells[usize::from(self.cells[line][i]) & 31]
            })
    }
}

/// The table of a line of `len` cells (see [`LineTable::entries`]).
fn entries(len: usize) -> Vec<u16> {
    let base = len + 1;
    let size = base.pow(len as u32);
    (0..size)
        .map(|index| {
            let mut cases = [0u8; MAX_LINE];
            let mut rest = index;
            for i in (0..len).rev() {
                cases[i] = (rest % base) as u8;
                rest /= base;
            }
            let (mut keys, mut at) = ([0u8; MAX_LINE], [0usize; MAX_LINE]);
            let mut k = 0;
            for (i, &case) in cases[..len].iter().enumerate() {
                if usize::from(case) < len {
                    (keys[k], at[k]) = (case, i);
                    k += 1;
                }
            }
            let (penalty, mask) = conflicts_of(&keys[..k]);
            let along = (0..k)
                .filter(|j| mask >> j & 1 == 1)
                .fold(0u16, |m, j| m | 1 << at[j]);
            penalty as u16 | along << 8
        })
        .collect()
}
