//! Admissible heuristics for sliding tiles: Manhattan distance, linear conflicts, and
//! Korf & Taylor's (AAAI-96) corner-tiles and last-moves enhancements, combined so that
//! no move is counted twice.
//!
//! Names (`--heuristic`): `manhattan`; `linear` (Manhattan + linear conflicts);
//! `corner` (Manhattan + corner tiles); `last` (Manhattan + last moves); `all` (all four).
//!
//! Why the sum stays admissible: Manhattan counts each tile's moves towards its goal.
//! Every enhancement claims extra moves of particular tiles that Manhattan cannot count:
//!
//! * **Linear conflicts** (per goal row and column): of k tiles in their goal line, all
//!   but a longest increasing run (by goal position) must leave the line and come back,
//!   two extra moves each, perpendicular to the line. Row conflicts claim vertical moves
//!   and column conflicts horizontal ones, so rows and columns add up. The tiles of a
//!   line that are in any conflict are marked *charged*.
//! * **Corner tiles** (one blank; a corner whose goal tile is a tile): when the corner
//!   holds another tile (not the blank) and an adjacent tile is in its goal cell, that
//!   adjacent tile must move away and back (two extra moves): if it never moved, the
//!   blank could reach the corner only through the other neighbour and would have to
//!   leave the same way, putting the same tile back. Each uncharged adjacent tile in
//!   place adds 2 and becomes charged (a tile is charged at most once, even when it is
//!   next to two corners).
//! * **Last moves** (one blank, not at the goal): the last move brings a tile into a cell
//!   next to the blank's goal cell, from that cell. For each such tile, when the blank's
//!   goal cell is outside the rectangle spanned by the tile and its goal, the detour costs
//!   two moves beyond Manhattan. If that holds for every such tile and none is charged,
//!   add 2 (for the 15-puzzle: tile 1 not in the left column and tile 4 not in the top
//!   row).
//!
//! Extra moves are claimed only for uncharged tiles, so no two enhancements claim the
//! same move. Tests check every heuristic against exact BFS distances on all 3×3 states.

use super::board::{Board, Cells, MAX_CELLS};
use std::fmt;

/// A heuristic the solvers can use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Heuristic {
    /// Sum of the tiles' Manhattan distances (blanks not counted).
    Manhattan,
    /// Manhattan + linear conflicts.
    Linear,
    /// Manhattan + corner tiles.
    Corner,
    /// Manhattan + last moves.
    Last,
    /// Manhattan + linear conflicts + corner tiles + last moves.
    All,
}

impl Heuristic {
    pub const ALL: [Heuristic; 5] = [
        Heuristic::Manhattan,
        Heuristic::Linear,
        Heuristic::Corner,
        Heuristic::Last,
        Heuristic::All,
    ];
    pub const NAMES: &'static [&'static str] = &["manhattan", "linear", "corner", "last", "all"];

    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Manhattan => "manhattan",
            Heuristic::Linear => "linear",
            Heuristic::Corner => "corner",
            Heuristic::Last => "last",
            Heuristic::All => "all",
        }
    }

    pub fn from_name(name: &str) -> Option<Heuristic> {
        Heuristic::ALL.into_iter().find(|h| h.name() == name)
    }

    pub fn linear(self) -> bool {
        matches!(self, Heuristic::Linear | Heuristic::All)
    }
    pub fn corner(self) -> bool {
        matches!(self, Heuristic::Corner | Heuristic::All)
    }
    pub fn last(self) -> bool {
        matches!(self, Heuristic::Last | Heuristic::All)
    }
}

impl fmt::Display for Heuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A corner whose goal content is a tile, and its neighbours whose goal content is a tile.
#[derive(Debug, Clone)]
pub struct Corner {
    pub cell: u8,
    pub tile: u8,
    /// (cell, goal tile) of each adjacent cell holding a tile in the goal.
    pub adjacent: Vec<(u8, u8)>,
}

/// Everything the heuristics need to know about a goal, precomputed.
#[derive(Debug, Clone)]
pub struct Tables {
    pub width: usize,
    pub height: usize,
    pub cells: usize,
    /// The largest tile number.
    pub max_tile: usize,
    pub single_blank: bool,
    /// `md[tile][cell]`: the tile's Manhattan distance from `cell` to its goal (0 for blanks).
    pub md: [[u8; MAX_CELLS]; MAX_CELLS + 1],
    pub goal_row: [u8; MAX_CELLS + 1],
    pub goal_col: [u8; MAX_CELLS + 1],
    pub goal_cell: [u8; MAX_CELLS + 1],
    pub corners: Vec<Corner>,
    /// One blank: the blank's goal cell, and (cell, goal tile) of its neighbours.
    pub blank_goal: Option<(u8, Vec<(u8, u8)>)>,
    /// The same two, as the per-node penalty reads them ([`Self::corner_and_last`]).
    penalties: Penalties,
}

/// A corner as the penalty reads it: its cell, its goal tile, its number of neighbours
/// holding a tile in the goal, and (cell, goal tile) of each.
type CornerCells = (u8, u8, u8, [(u8, u8); 4]);

/// The corners and the last moves as fixed arrays, read at every node of a search.
#[derive(Debug, Clone, Copy, Default)]
struct Penalties {
    corners: [CornerCells; 4],
    n_corners: usize,
    /// For each neighbour of the blank's goal: its goal tile and the cells (bit = cell)
    /// from which the rectangle spanned with that neighbour holds the blank's goal.
    last: [(u8, u32); 4],
    n_last: usize,
    /// No tile is next to two corners or next to a corner and the blank's goal (true
    /// from 4×4 on): charging a tile then never changes another term, and the corner
    /// terms are summed without it.
    independent: bool,
}

impl Penalties {
    fn new(t: &Tables) -> Penalties {
        let mut p = Penalties::default();
        let mut seen = 0u32;
        p.independent = true;
        for k in &t.corners {
            // Unused slots repeat the corner itself: they never count (a corner that
            // holds its own tile adds nothing).
            let mut adjacent = [(k.cell, k.tile); 4];
            p.independent &= k.adjacent.len() <= 2;
            for &(_, ta) in &k.adjacent {
                p.independent &= seen >> ta & 1 == 0;
                seen |= 1 << ta;
            }
            for (slot, &a) in adjacent.iter_mut().zip(&k.adjacent) {
                *slot = a;
            }
            p.corners[p.n_corners] = (k.cell, k.tile, k.adjacent.len() as u8, adjacent);
            p.n_corners += 1;
        }
        if let Some((g, adjacent)) = &t.blank_goal {
            let w = t.width;
            let (gr, gc) = (usize::from(*g) / w, usize::from(*g) % w);
            for &(a, ta) in adjacent {
                let (ar, ac) = (usize::from(a) / w, usize::from(a) % w);
                let inside = (0..t.cells)
                    .filter(|&p| {
                        let (pr, pc) = (p / w, p % w);
                        pr.min(ar) <= gr && gr <= pr.max(ar) && pc.min(ac) <= gc && gc <= pc.max(ac)
                    })
                    .fold(0u32, |m, p| m | 1 << p);
                p.last[p.n_last] = (ta, inside);
                p.n_last += 1;
                p.independent &= seen >> ta & 1 == 0;
            }
        }
        p
    }
}

impl Tables {
    pub fn new(goal: &Board) -> Tables {
        let (w, h) = (goal.width as usize, goal.height as usize);
        let n = w * h;
        let mut t = Tables {
            width: w,
            height: h,
            cells: n,
            max_tile: goal.tiles().iter().copied().max().unwrap_or(0) as usize,
            single_blank: goal.blanks() == 1,
            md: [[0; MAX_CELLS]; MAX_CELLS + 1],
            goal_row: [0; MAX_CELLS + 1],
            goal_col: [0; MAX_CELLS + 1],
            goal_cell: [0; MAX_CELLS + 1],
            corners: Vec::new(),
            blank_goal: None,
            penalties: Penalties::default(),
        };
        for (gc, &tile) in goal.tiles().iter().enumerate() {
            if tile == 0 {
                continue;
            }
            let tile = tile as usize;
            t.goal_row[tile] = (gc / w) as u8;
            t.goal_col[tile] = (gc % w) as u8;
            t.goal_cell[tile] = gc as u8;
            for c in 0..n {
                t.md[tile][c] = ((c / w).abs_diff(gc / w) + (c % w).abs_diff(gc % w)) as u8;
            }
        }
        let shape = goal.shape();
        let adj = |c: usize| -> Vec<(u8, u8)> {
            super::board::Dir::ALL
                .into_iter()
                .filter_map(|d| shape.neighbour(c, d))
                .filter(|&a| goal.cells[a] != 0)
                .map(|a| (a as u8, goal.cells[a]))
                .collect()
        };
        for c in [0, w - 1, n - w, n - 1] {
            if goal.cells[c] != 0 && !t.corners.iter().any(|k| k.cell as usize == c) {
                t.corners.push(Corner {
                    cell: c as u8,
                    tile: goal.cells[c],
                    adjacent: adj(c),
                });
            }
        }
        if t.single_blank {
            let g = goal.blank();
            t.blank_goal = Some((g as u8, adj(g)));
        }
        t.penalties = Penalties::new(&t);
        t
    }

    /// Manhattan distance of a state.
    pub fn manhattan(&self, cells: &[u8]) -> u32 {
        cells[..self.cells]
            .iter()
            .enumerate()
            .map(|(c, &t)| u32::from(self.md[t as usize][c]))
            .sum()
    }

    /// The number of lines (rows then columns).
    pub fn lines(&self) -> usize {
        self.height + self.width
    }

    /// The linear-conflict penalty of line `line` (rows `0..height`, then columns) and
    /// the mask (bit = tile) of the tiles in a conflict in it.
    #[inline]
    pub fn line_conflicts(&self, cells: &[u8], line: usize) -> (u32, u32) {
        let mut keys = [0u8; 5];
        let mut tiles = [0u8; 5];
        let mut k = 0;
        if line < self.height {
            let r = line as u8;
            for c in 0..self.width {
                let t = cells[line * self.width + c];
                if t != 0 && self.goal_row[t as usize] == r {
                    keys[k] = self.goal_col[t as usize];
                    tiles[k] = t;
                    k += 1;
                }
            }
        } else {
            let col = (line - self.height) as u8;
            for r in 0..self.height {
                let t = cells[r * self.width + col as usize];
                if t != 0 && self.goal_col[t as usize] == col {
                    keys[k] = self.goal_row[t as usize];
                    tiles[k] = t;
                    k += 1;
                }
            }
        }
        let (penalty, along) = super::conflicts::conflicts_of(&keys[..k]);
        let mask = (0..k)
            .filter(|i| along >> i & 1 == 1)
            .fold(0, |m, i| m | 1 << tiles[i]);
        (penalty, mask)
    }

    /// Corner-tile and last-move penalties, given the tiles' cells (`pos[tile]`), the
    /// tiles already charged by linear conflicts, and the Manhattan distance.
    #[inline(always)]
    pub fn corner_and_last(
        &self,
        cells: &[u8],
        pos: &[u8],
        mut charged: u32,
        md: u32,
        corner: bool,
        last: bool,
    ) -> u32 {
        if !self.single_blank {
            return 0;
        }
        let p = &self.penalties;
        let mut extra = 0;
        if corner && p.independent {
            // The same sum without branches: each blocked corner adds 2 per uncharged
            // neighbour in place.
            for &(cell, tile, _, adjacent) in &p.corners[..p.n_corners.min(4)] {
                let here = cells[usize::from(cell)];
                let blocked = u32::from(here != tile && here != 0);
                let in_place: u32 = adjacent[..2]
                    .iter()
                    .map(|&(a, ta)| u32::from(cells[usize::from(a)] == ta) & !(charged >> ta))
                    .sum();
                extra += 2 * blocked * in_place;
            }
        } else if corner {
            for &(cell, tile, n, adjacent) in &p.corners[..p.n_corners.min(4)] {
                let here = cells[usize::from(cell)];
                if here == tile || here == 0 {
                    continue;
                }
                for &(a, ta) in &adjacent[..usize::from(n).min(4)] {
                    let bit = 1u32 << ta;
                    if cells[usize::from(a)] == ta && charged & bit == 0 {
                        extra += 2;
                        charged |= bit;
                    }
                }
            }
        }
        // The last move: when every neighbour of the blank's goal has its goal tile
        // outside the rectangle and uncharged (and there is one at least).
        if last
            && md > 0
            && p.n_last > 0
            && p.last[..p.n_last.min(4)].iter().all(|&(ta, inside)| {
                inside >> pos[usize::from(ta)] & 1 == 0 && charged >> ta & 1 == 0
            })
        {
            extra += 2;
        }
        extra
    }

    /// What [`Self::corner_and_last`] reads besides the tiles charged by linear
    /// conflicts and whether Manhattan is 0: the cells whose content it looks at (bit =
    /// cell: the corners and their neighbours, with `corner`) and the tiles whose cell it
    /// looks at (bit = tile: the blank's goal neighbours, with `last`). A move that
    /// changes none of these leaves the penalty as it was.
    pub fn corner_and_last_inputs(&self, corner: bool, last: bool) -> (u32, u32) {
        if !self.single_blank {
            return (0, 0);
        }
        let mut cells = 0u32;
        if corner {
            for k in &self.corners {
                cells |= 1 << k.cell;
                for &(a, _) in &k.adjacent {
                    cells |= 1 << a;
                }
            }
        }
        let mut tiles = 0u32;
        if last && let Some((_, adjacent)) = &self.blank_goal {
            for &(_, ta) in adjacent {
                tiles |= 1 << ta;
            }
        }
        (cells, tiles)
    }

    /// The heuristic value of a state, computed from scratch.
    pub fn evaluate(&self, cells: &Cells, heuristic: Heuristic) -> u32 {
        let md = self.manhattan(cells);
        let mut h = md;
        let mut charged = 0;
        if heuristic.linear() {
            for line in 0..self.lines() {
                let (p, m) = self.line_conflicts(cells, line);
                h += p;
                charged |= m;
            }
        }
        if heuristic.corner() || heuristic.last() {
            let mut pos = [0u8; MAX_CELLS + 1];
            for (c, &t) in cells[..self.cells].iter().enumerate() {
                pos[t as usize] = c as u8;
            }
            h += self.corner_and_last(
                cells,
                &pos,
                charged,
                md,
                heuristic.corner(),
                heuristic.last(),
            );
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_values() {
        // The 15-puzzle assignment: instance 1 has Manhattan 41; the two-blank puzzle assignment: [2,5,1,4,3,6,7,0,0] has h = 6.
        let b = Board::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None, None, "t").unwrap();
        let t = Tables::new(&Board::default_goal(b.shape(), 1));
        assert_eq!(t.evaluate(&b.cells, Heuristic::Manhattan), 41);
        let b = Board::parse("2 5 1 4 3 6 7 0 0", None, None, "t").unwrap();
        let t = Tables::new(&Board::default_goal(b.shape(), 2));
        assert_eq!(t.evaluate(&b.cells, Heuristic::Manhattan), 6);
    }

    #[test]
    fn linear_conflicts_count_removals() {
        // Goal row 0 of the 8-puzzle is 1 2 3; "3 2 1" needs two tiles out: +4.
        let b = Board::parse("3 2 1 4 5 6 7 8 0", None, None, "t").unwrap();
        let t = Tables::new(&Board::default_goal(b.shape(), 1));
        assert_eq!(t.line_conflicts(&b.cells, 0).0, 4);
        assert_eq!(t.evaluate(&b.cells, Heuristic::Linear), 4 + 4);
    }
}
