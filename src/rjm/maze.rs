//! A maze as a grid of jump numbers: legality, random generation and the neighbour step.

use crate::util::rng::SearchRng;
use rand::RngExt;

/// An n×n Rook Jumping Maze, row-major. The goal (last cell) holds 0; every other cell
/// holds a legal jump, from 1 to [`max_jump`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Maze {
    size: usize,
    jumps: Vec<u8>,
}

/// The largest legal jump from cell (r, c) of an n×n maze: its greatest distance to an edge.
pub fn max_jump(size: usize, cell: usize) -> u8 {
    let (r, c) = (cell / size, cell % size);
    let far = (size - 1 - r).max(r).max(size - 1 - c).max(c);
    far as u8
}

/// One change of the neighbour step: cell `cell` goes from jump `old` to jump `new`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub cell: usize,
    pub old: u8,
    pub new: u8,
}

impl Maze {
    /// A maze from its jump numbers, checked: `Err` says which cell is wrong.
    pub fn from_jumps(size: usize, jumps: Vec<u8>) -> Result<Maze, String> {
        if !(super::MIN_SIZE..=super::MAX_SIZE).contains(&size) {
            return Err(format!(
                "size {size} is outside {}-{}",
                super::MIN_SIZE,
                super::MAX_SIZE
            ));
        }
        if jumps.len() != size * size {
            return Err(format!(
                "{} jump numbers for a {size}x{size} maze (expected {})",
                jumps.len(),
                size * size
            ));
        }
        let goal = size * size - 1;
        for (cell, &j) in jumps.iter().enumerate() {
            let (r, c) = (cell / size + 1, cell % size + 1);
            if cell == goal {
                if j != 0 {
                    return Err(format!(
                        "the goal cell (row {r}, column {c}) must hold 0, not {j}"
                    ));
                }
            } else if j == 0 || j > max_jump(size, cell) {
                return Err(format!(
                    "jump {j} at row {r}, column {c} is illegal (legal: 1 to {})",
                    max_jump(size, cell)
                ));
            }
        }
        Ok(Maze { size, jumps })
    }

    /// The assignment's random maze: every non-goal cell draws its jump uniformly from its
    /// legal jumps, in row-major order.
    pub fn random(size: usize, rng: &mut SearchRng) -> Maze {
        let mut jumps = vec![0u8; size * size];
        Self::randomize_jumps(size, &mut jumps, rng);
        Maze { size, jumps }
    }

    /// Redraws every non-goal jump of `jumps` in place (no allocation, for restarts).
    pub fn randomize_jumps(size: usize, jumps: &mut [u8], rng: &mut SearchRng) {
        let goal = size * size - 1;
        for (cell, j) in jumps.iter_mut().enumerate() {
            *j = if cell == goal {
                0
            } else {
                rng.random_range(1..=max_jump(size, cell))
            };
        }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn jumps(&self) -> &[u8] {
        &self.jumps
    }

    pub fn jump(&self, cell: usize) -> u8 {
        self.jumps[cell]
    }

    #[cfg(test)]
    pub(crate) fn jumps_mut(&mut self) -> &mut [u8] {
        &mut self.jumps
    }

    pub fn goal(&self) -> usize {
        self.size * self.size - 1
    }

    /// The cells reachable in one jump from `cell`, given its jump number.
    pub fn targets(size: usize, cell: usize, jump: u8) -> impl Iterator<Item = usize> {
        let (r, c, j) = (
            (cell / size) as isize,
            (cell % size) as isize,
            jump as isize,
        );
        let n = size as isize;
        [(r - j, c), (r + j, c), (r, c - j), (r, c + j)]
            .into_iter()
            .filter(move |&(rr, cc)| j > 0 && (0..n).contains(&rr) && (0..n).contains(&cc))
            .map(move |(rr, cc)| (rr * n + cc) as usize)
    }

    /// The assignment's neighbour step: a uniformly random non-goal cell gets a uniformly
    /// random legal jump different from its current one. Returns the change, applied.
    #[inline]
    pub fn random_step(size: usize, jumps: &mut [u8], rng: &mut SearchRng) -> Step {
        let cell = rng.random_range(0..size * size - 1);
        let old = jumps[cell];
        let mut new = rng.random_range(1..max_jump(size, cell));
        if new >= old {
            new += 1;
        }
        jumps[cell] = new;
        Step { cell, old, new }
    }

    /// Every neighbour of this maze, as steps (for exhaustive local-minimum checks).
    pub fn all_steps(&self) -> impl Iterator<Item = Step> + '_ {
        all_steps(self.size, &self.jumps)
    }
}

/// Every single-cell change of `jumps` to another legal jump.
pub fn all_steps(size: usize, jumps: &[u8]) -> impl Iterator<Item = Step> + '_ {
    (0..size * size - 1).flat_map(move |cell| {
        let old = jumps[cell];
        (1..=max_jump(size, cell))
            .filter(move |&j| j != old)
            .map(move |new| Step { cell, old, new })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::rng::rng_from_seed;

    #[test]
    fn max_jump_matches_the_seed_examples() {
        // 5x5: start cell legal jumps {1,2,3,4}, centre cell {1,2}.
        assert_eq!(max_jump(5, 0), 4);
        assert_eq!(max_jump(5, 12), 2);
        assert_eq!(max_jump(10, 44), 5);
    }

    #[test]
    fn random_mazes_are_legal_for_every_size() {
        let mut rng = rng_from_seed(7);
        for size in 5..=10 {
            for _ in 0..50 {
                let m = Maze::random(size, &mut rng);
                assert!(Maze::from_jumps(size, m.jumps().to_vec()).is_ok());
                for cell in 0..m.goal() {
                    assert!(
                        Maze::targets(size, cell, m.jump(cell)).count() >= 1,
                        "every non-goal cell can move"
                    );
                }
            }
        }
    }

    #[test]
    fn random_jumps_are_uniform_over_legal_values() {
        // Start cell of a 5x5 maze: 4 legal jumps, each ~1/4 of 40,000 draws.
        let mut rng = rng_from_seed(1);
        let mut counts = [0u32; 5];
        for _ in 0..40_000 {
            counts[Maze::random(5, &mut rng).jump(0) as usize] += 1;
        }
        assert_eq!(counts[0], 0);
        for &c in &counts[1..] {
            assert!((9_400..10_600).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn step_changes_one_non_goal_cell_uniformly() {
        let mut rng = rng_from_seed(3);
        let mut m = Maze::random(5, &mut rng);
        let mut cell_counts = [0u32; 25];
        let mut new_given_old = std::collections::HashMap::new();
        for _ in 0..96_000 {
            let before = m.clone();
            let s = Maze::random_step(5, m.jumps_mut(), &mut rng);
            assert_ne!(s.old, s.new);
            assert_eq!(before.jump(s.cell), s.old);
            assert!(s.new >= 1 && s.new <= max_jump(5, s.cell));
            let changed = (0..25).filter(|&c| before.jump(c) != m.jump(c)).count();
            assert_eq!(changed, 1);
            cell_counts[s.cell] += 1;
            if s.cell == 0 {
                *new_given_old.entry((s.old, s.new)).or_insert(0u32) += 1;
            }
        }
        assert_eq!(cell_counts[24], 0, "the goal never changes");
        for &c in &cell_counts[..24] {
            assert!((3_600..4_400).contains(&c), "{cell_counts:?}");
        }
        // From any old jump of the start cell, the 3 other jumps are equally likely.
        for old in 1..=4u8 {
            let row: Vec<u32> = (1..=4u8)
                .filter(|&n| n != old)
                .map(|n| new_given_old.get(&(old, n)).copied().unwrap_or(0))
                .collect();
            let total: u32 = row.iter().sum();
            for &c in &row {
                let share = f64::from(c) / f64::from(total.max(1));
                assert!((share - 1.0 / 3.0).abs() < 0.05, "old {old}: {row:?}");
            }
        }
    }

    #[test]
    fn rejects_illegal_mazes() {
        let mut jumps = vec![1u8; 25];
        jumps[24] = 0;
        assert!(Maze::from_jumps(5, jumps.clone()).is_ok());
        jumps[12] = 3;
        assert!(
            Maze::from_jumps(5, jumps.clone())
                .unwrap_err()
                .contains("row 3, column 3")
        );
        jumps[12] = 1;
        jumps[24] = 2;
        assert!(Maze::from_jumps(5, jumps).unwrap_err().contains("goal"));
        assert!(Maze::from_jumps(4, vec![1; 16]).is_err());
    }

    #[test]
    fn all_steps_enumerates_every_neighbour() {
        let m = Maze::random(5, &mut rng_from_seed(9));
        let expected: usize = (0..24).map(|c| usize::from(max_jump(5, c)) - 1).sum();
        assert_eq!(m.all_steps().count(), expected);
    }
}
