//! Sliding-tile boards: sizes 2..=5 by 2..=5, one or more blanks, goals, parsing and
//! validation of instance files, solvability, and blank moves in a configurable order.
//!
//! A state is a fixed array of [`MAX_CELLS`] bytes, row-major, 0 for a blank, unused
//! cells 0: `Copy`, hashable, and ordered lexicographically, which on a board of one size
//! is the two-blank puzzle assignment's order ("consider the state to be a nine-digit integer").

use crate::{user_bail, user_error};
use std::fmt;

/// The largest board has 5 × 5 cells.
pub const MAX_CELLS: usize = 25;
/// A state: the cells row-major, 0 for a blank; cells beyond `width * height` are 0.
pub type Cells = [u8; MAX_CELLS];

/// A direction the blank moves in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'u',
            Dir::Down => 'd',
            Dir::Left => 'l',
            Dir::Right => 'r',
        }
    }

    pub fn inverse(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }
}

/// The order in which the blank's moves are tried: a permutation of U, D, L, R.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveOrder(pub [Dir; 4]);

impl Default for MoveOrder {
    /// U, D, L, R: the 8-puzzle assignment's order.
    fn default() -> Self {
        MoveOrder(Dir::ALL)
    }
}

impl MoveOrder {
    /// Korf's order (1985): U, L, R, D.
    pub const KORF: MoveOrder = MoveOrder([Dir::Up, Dir::Left, Dir::Right, Dir::Down]);

    /// Parses a permutation of the letters U, D, L, R (either case), e.g. `ULRD`.
    pub fn parse(text: &str) -> anyhow::Result<MoveOrder> {
        let letters: Vec<char> = text.trim().chars().collect();
        let bad = || {
            user_error!("--move-order {text:?} is not a permutation of the four letters U, D, L, R")
        };
        if letters.len() != 4 {
            return Err(bad());
        }
        let mut dirs = [Dir::Up; 4];
        for (slot, c) in dirs.iter_mut().zip(&letters) {
            *slot = match c.to_ascii_uppercase() {
                'U' => Dir::Up,
                'D' => Dir::Down,
                'L' => Dir::Left,
                'R' => Dir::Right,
                _ => return Err(bad()),
            };
        }
        for d in Dir::ALL {
            if !dirs.contains(&d) {
                return Err(bad());
            }
        }
        Ok(MoveOrder(dirs))
    }
}

impl fmt::Display for MoveOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in self.0 {
            write!(f, "{}", d.letter().to_ascii_uppercase())?;
        }
        Ok(())
    }
}

/// The shape of a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    pub width: usize,
    pub height: usize,
}

impl Shape {
    pub fn new(width: usize, height: usize) -> anyhow::Result<Shape> {
        if !(2..=5).contains(&width) || !(2..=5).contains(&height) {
            user_bail!("a board is 2 to 5 cells wide and high, not {width}x{height}");
        }
        Ok(Shape { width, height })
    }

    pub fn cells(self) -> usize {
        self.width * self.height
    }

    /// The cell the blank reaches from `pos` moving in `dir`, if on the board.
    #[inline]
    pub fn neighbour(self, pos: usize, dir: Dir) -> Option<usize> {
        let (r, c) = (pos / self.width, pos % self.width);
        match dir {
            Dir::Up if r > 0 => Some(pos - self.width),
            Dir::Down if r + 1 < self.height => Some(pos + self.width),
            Dir::Left if c > 0 => Some(pos - 1),
            Dir::Right if c + 1 < self.width => Some(pos + 1),
            _ => None,
        }
    }

    /// The shape an instance of `count` numbers has, when not given: the square boards.
    fn from_count(count: usize) -> Option<Shape> {
        match count {
            4 => Some(Shape {
                width: 2,
                height: 2,
            }),
            9 => Some(Shape {
                width: 3,
                height: 3,
            }),
            16 => Some(Shape {
                width: 4,
                height: 4,
            }),
            25 => Some(Shape {
                width: 5,
                height: 5,
            }),
            _ => None,
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// A board: its shape and its cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    pub cells: Cells,
    pub width: u8,
    pub height: u8,
}

impl Board {
    pub fn shape(&self) -> Shape {
        Shape {
            width: self.width as usize,
            height: self.height as usize,
        }
    }

    pub fn len(&self) -> usize {
        self.width as usize * self.height as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn tiles(&self) -> &[u8] {
        &self.cells[..self.len()]
    }

    pub fn blanks(&self) -> usize {
        self.tiles().iter().filter(|&&t| t == 0).count()
    }

    /// The first blank's cell.
    pub fn blank(&self) -> usize {
        self.tiles().iter().position(|&t| t == 0).unwrap_or(0)
    }

    /// A board from tiles, checked: every number from 1 to `cells - blanks` exactly once,
    /// the rest 0. `what` names the source in error messages.
    pub fn from_tiles(shape: Shape, tiles: &[u32], what: &str) -> anyhow::Result<Board> {
        let n = shape.cells();
        if tiles.len() != n {
            user_bail!(
                "{what}: a {shape} board needs {n} numbers, found {}",
                tiles.len()
            );
        }
        let blanks = tiles.iter().filter(|&&t| t == 0).count();
        if blanks == 0 {
            user_bail!("{what}: no blank (0) on the board");
        }
        if blanks == n {
            user_bail!("{what}: the board has no tiles, only blanks");
        }
        let max = (n - blanks) as u32;
        let mut seen = [false; MAX_CELLS + 1];
        let mut cells = [0u8; MAX_CELLS];
        for (i, &t) in tiles.iter().enumerate() {
            if t > max {
                user_bail!(
                    "{what}: tile {t} (number {}) is out of range: with {blanks} blank(s) a {shape} board has tiles 1 to {max}",
                    i + 1
                );
            }
            if t != 0 {
                if seen[t as usize] {
                    user_bail!("{what}: tile {t} appears more than once");
                }
                seen[t as usize] = true;
            }
            cells[i] = t as u8;
        }
        Ok(Board {
            cells,
            width: shape.width as u8,
            height: shape.height as u8,
        })
    }

    /// Parses whitespace-separated numbers (one line, or a grid: line breaks are
    /// whitespace). The shape is `width`×`height` when given, else the square the count
    /// implies (4, 9, 16 or 25 numbers).
    pub fn parse(
        text: &str,
        width: Option<usize>,
        height: Option<usize>,
        what: &str,
    ) -> anyhow::Result<Board> {
        let mut tiles = Vec::new();
        for word in text.split_whitespace() {
            // Digits only: `+2` or `٣` is not how a tile is written.
            match word.parse::<u32>() {
                Ok(t) if word.bytes().all(|b| b.is_ascii_digit()) => tiles.push(t),
                _ => user_bail!(
                    "{what}: {} is not a tile number (expected whole numbers, 0 for a blank)",
                    crate::util::input::excerpt(word)
                ),
            }
            if tiles.len() > MAX_CELLS {
                user_bail!("{what}: more than {MAX_CELLS} numbers; a board has at most 5x5 cells");
            }
        }
        for (flag, v) in [("--width", width), ("--height", height)] {
            if let Some(v) = v.filter(|v| !(2..=5).contains(v)) {
                user_bail!("{flag} {v} is outside 2-5 (a board is 2 to 5 cells wide and high)");
            }
        }
        let shape = match (width, height) {
            (Some(w), Some(h)) => Shape::new(w, h)?,
            (Some(w), None) if w > 0 && tiles.len() % w == 0 => Shape::new(w, tiles.len() / w)?,
            (None, Some(h)) if h > 0 && tiles.len() % h == 0 => Shape::new(tiles.len() / h, h)?,
            (None, None) => match Shape::from_count(tiles.len()) {
                Some(s) => s,
                None => user_bail!(
                    "{what}: found {} numbers; a square board has 4, 9, 16 or 25 (give --width and --height for others)",
                    tiles.len()
                ),
            },
            (w, h) => user_bail!(
                "{what}: {} numbers do not fill a board of width {} and height {}",
                tiles.len(),
                w.map_or("?".to_string(), |x| x.to_string()),
                h.map_or("?".to_string(), |x| x.to_string())
            ),
        };
        Board::from_tiles(shape, &tiles, what)
    }

    /// The default goal for a board shaped like this one with this many blanks: tiles in
    /// ascending order, the blanks first on boards at least 4 wide and 4 high (the 15-puzzle assignment,
    /// Korf's benchmark sets) and last on smaller ones (the 8-puzzle and two-blank puzzle assignments).
    pub fn default_goal(shape: Shape, blanks: usize) -> Board {
        let n = shape.cells();
        let mut tiles: Vec<u32> = (1..=(n - blanks) as u32).collect();
        if shape.width >= 4 && shape.height >= 4 {
            let mut v = vec![0; blanks];
            v.extend(tiles);
            tiles = v;
        } else {
            tiles.extend(std::iter::repeat_n(0, blanks));
        }
        Board::from_tiles(shape, &tiles, "default goal").expect("the default goal is valid")
    }

    /// Checks that `goal` fits this board (same shape, same tiles) and that this board can
    /// reach it (for one blank, the permutation parity).
    pub fn check_goal(&self, goal: &Board, what: &str) -> anyhow::Result<()> {
        if goal.shape() != self.shape() {
            user_bail!(
                "{what}: the goal is {} but the instance is {}",
                goal.shape(),
                self.shape()
            );
        }
        if goal.blanks() != self.blanks() {
            user_bail!(
                "{what}: the goal has {} blank(s) but the instance has {}",
                goal.blanks(),
                self.blanks()
            );
        }
        if self.blanks() == 1 && !self.solvable_to(goal) {
            user_bail!(
                "{what}: this instance cannot reach the goal (the permutation parity differs: it is in the other half of the state space)"
            );
        }
        Ok(())
    }

    /// One blank: true when the goal is reachable. A move is a transposition of the blank
    /// with a tile and changes the blank's row-plus-column parity, so the parity of the
    /// permutation taking this board to the goal must equal the parity of the blank's
    /// Manhattan distance. With two or more blanks every arrangement is reachable.
    pub fn solvable_to(&self, goal: &Board) -> bool {
        if self.blanks() != 1 {
            return true;
        }
        let n = self.len();
        let mut where_in_goal = [0usize; MAX_CELLS + 1];
        for (i, &t) in goal.tiles().iter().enumerate() {
            where_in_goal[t as usize] = i;
        }
        // perm[i] = goal position of the content of cell i; count its cycles.
        let perm: Vec<usize> = self
            .tiles()
            .iter()
            .map(|&t| where_in_goal[t as usize])
            .collect();
        let mut visited = vec![false; n];
        let mut transpositions = 0;
        for i in 0..n {
            let mut j = i;
            let mut len = 0;
            while !visited[j] {
                visited[j] = true;
                j = perm[j];
                len += 1;
            }
            if len > 0 {
                transpositions += len - 1;
            }
        }
        let w = self.width as usize;
        let (b, g) = (self.blank(), goal.blank());
        let dist = (b / w).abs_diff(g / w) + (b % w).abs_diff(g % w);
        transpositions % 2 == dist % 2
    }

    /// Every board one move away, with the blank cell and direction of the move: for each
    /// blank in cell order, for each direction in `order`, when the neighbour is a tile.
    pub fn successors(&self, order: MoveOrder) -> impl Iterator<Item = (Board, usize, Dir)> + '_ {
        let shape = self.shape();
        let n = self.len();
        (0..n)
            .filter(move |&p| self.cells[p] == 0)
            .flat_map(move |p| {
                order.0.into_iter().filter_map(move |d| {
                    let q = shape.neighbour(p, d)?;
                    if self.cells[q] == 0 {
                        return None;
                    }
                    let mut next = *self;
                    next.cells.swap(p, q);
                    Some((next, p, d))
                })
            })
    }

    /// The move that takes `self` to `next` (one blank moving), if they are adjacent.
    pub fn move_to(&self, next: &Board) -> Option<Dir> {
        self.successors(MoveOrder::default())
            .find(|(b, _, _)| b == next)
            .map(|(_, _, d)| d)
    }

    /// Row-major lines of numbers separated by single spaces (the 15-puzzle assignment's grid).
    pub fn grid(&self) -> String {
        let w = self.width as usize;
        self.tiles()
            .chunks(w)
            .map(|row| {
                row.iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// `[2, 0, 1, 4, 5, 6, 7, 0, 3]`: the two-blank puzzle assignment's list form.
    pub fn list(&self) -> String {
        let items: Vec<String> = self.tiles().iter().map(|t| t.to_string()).collect();
        format!("[{}]", items.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_validates() {
        let b = Board::parse("2 4 3 1 0 6 7 5 8", None, None, "x").unwrap();
        assert_eq!(
            b.shape(),
            Shape {
                width: 3,
                height: 3
            }
        );
        assert_eq!(b.blank(), 4);
        let err = |t: &str| Board::parse(t, None, None, "f").unwrap_err().to_string();
        assert!(err("1 2 3").contains("found 3 numbers"));
        assert!(err("1 1 3 4 5 6 7 8 0").contains("tile 1 appears more than once"));
        assert!(err("1 2 3 4 5 6 7 9 0").contains("tile 9"));
        assert!(err("1 2 x 4 5 6 7 8 0").contains("\"x\""));
        assert!(err("1 2 -3 4 5 6 7 8 0").contains("\"-3\""));
        assert!(err("1 2 3 4 5 6 7 8 9").contains("no blank"));
        let b = Board::parse("1 2 3 4 5 6 8 7 0", None, None, "f").unwrap();
        let g = Board::default_goal(b.shape(), 1);
        assert!(
            b.check_goal(&g, "f")
                .unwrap_err()
                .to_string()
                .contains("parity")
        );
        assert!(MoveOrder::parse("ULRD").is_ok());
        assert!(MoveOrder::parse("ULRU").is_err());
        assert!(MoveOrder::parse("ULR").is_err());
    }

    #[test]
    fn default_goals_follow_the_seeds() {
        let s3 = Shape::new(3, 3).unwrap();
        assert_eq!(
            Board::default_goal(s3, 1).tiles(),
            &[1, 2, 3, 4, 5, 6, 7, 8, 0]
        );
        assert_eq!(
            Board::default_goal(s3, 2).tiles(),
            &[1, 2, 3, 4, 5, 6, 7, 0, 0]
        );
        let s4 = Shape::new(4, 4).unwrap();
        assert_eq!(Board::default_goal(s4, 1).tiles()[..3], [0, 1, 2]);
    }

    #[test]
    fn solvability_matches_reachability_on_2x3() {
        // Explore everything reachable from the goal; exactly half the states.
        let shape = Shape::new(3, 2).unwrap();
        let goal = Board::default_goal(shape, 1);
        let mut seen = std::collections::HashSet::from([goal]);
        let mut stack = vec![goal];
        while let Some(b) = stack.pop() {
            for (n, _, _) in b.successors(MoveOrder::default()) {
                if seen.insert(n) {
                    stack.push(n);
                }
            }
        }
        assert_eq!(seen.len(), 360);
        for b in &seen {
            assert!(b.solvable_to(&goal));
        }
        let mut odd = goal;
        odd.cells.swap(0, 1);
        assert!(!odd.solvable_to(&goal) && !seen.contains(&odd));
    }
}
