//! Maze evaluation: shortest distances from the start by breadth-first search over bit
//! sets. This is the hot path of every local search, so the successor set of each cell
//! is kept up to date incrementally and one BFS layer costs one OR per cell in it.

use super::UNREACHABLE;
use super::bits::CellSet;
use super::maze::{Maze, max_jump};

/// Evaluates mazes of one size. `B` must have at least size² bits.
#[derive(Debug, Clone)]
pub struct Evaluator<B: CellSet> {
    size: usize,
    /// `targets[cell * stride + jump]`: the cells one jump of length `jump` reaches.
    targets: Vec<B>,
    stride: usize,
    /// The successor set of each cell under the current jumps.
    succ: Vec<B>,
}

impl<B: CellSet> Evaluator<B> {
    pub fn new(maze: &Maze) -> Self {
        let size = maze.size();
        assert!(
            size * size <= B::WIDTH,
            "bit set too narrow for a {size}x{size} maze"
        );
        let stride = size;
        let mut targets = vec![B::EMPTY; size * size * stride];
        for cell in 0..size * size {
            for jump in 1..=max_jump(size, cell) {
                let mut set = B::EMPTY;
                for t in Maze::targets(size, cell, jump) {
                    set |= B::single(t);
                }
                targets[cell * stride + usize::from(jump)] = set;
            }
        }
        let mut e = Evaluator {
            size,
            targets,
            stride,
            succ: vec![B::EMPTY; size * size],
        };
        e.load(maze.jumps());
        e
    }

    /// Takes all jumps anew (after a restart).
    pub fn load(&mut self, jumps: &[u8]) {
        for (cell, &j) in jumps.iter().enumerate() {
            self.set_jump(cell, j);
        }
    }

    /// Records that `cell` now holds `jump`.
    #[inline(always)]
    pub fn set_jump(&mut self, cell: usize, jump: u8) {
        self.succ[cell] = self.targets[cell * self.stride + usize::from(jump)];
    }

    /// The assignment's objective: −(moves from start to goal), or [`UNREACHABLE`].
    #[inline]
    pub fn objective(&self) -> i64 {
        match self.goal_distance() {
            Some(d) => -i64::from(d),
            None => UNREACHABLE,
        }
    }

    /// Moves on a shortest path from start to goal; the search stops at the goal's layer.
    #[inline]
    pub fn goal_distance(&self) -> Option<u32> {
        let goal = B::single(self.size * self.size - 1);
        let mut visited = B::single(0);
        let mut frontier = visited;
        let mut depth = 0;
        loop {
            let mut next = B::EMPTY;
            while !frontier.is_empty() {
                next |= self.succ[frontier.pop_lowest()];
            }
            next &= !visited;
            depth += 1;
            if !(next & goal).is_empty() {
                return Some(depth);
            }
            if next.is_empty() {
                return None;
            }
            visited |= next;
            frontier = next;
        }
    }

    /// The minimum number of moves from the start to every cell (`None`: unreachable).
    pub fn distances(&self) -> Vec<Option<u32>> {
        let mut out = vec![None; self.size * self.size];
        let mut visited = B::single(0);
        let mut frontier = visited;
        let mut depth = 0;
        while !frontier.is_empty() {
            let mut next = B::EMPTY;
            let mut layer = frontier;
            while !layer.is_empty() {
                let cell = layer.pop_lowest();
                out[cell] = Some(depth);
                next |= self.succ[cell];
            }
            next &= !visited;
            visited |= next;
            frontier = next;
            depth += 1;
        }
        out
    }
}

/// Distances from the start for a maze of any size (dispatches on the bit width).
pub fn distances(maze: &Maze) -> Vec<Option<u32>> {
    crate::with_maze_bits!(maze.size(), B => Evaluator::<B>::new(maze).distances())
}

/// The objective of a maze of any size.
pub fn objective(maze: &Maze) -> i64 {
    crate::with_maze_bits!(maze.size(), B => Evaluator::<B>::new(maze).objective())
}

/// One shortest path from start to goal, as cells (for drawing the best maze).
pub fn shortest_path(maze: &Maze) -> Option<Vec<usize>> {
    let dist = distances(maze);
    let size = maze.size();
    let goal = maze.goal();
    let mut d = dist[goal]?;
    let mut path = vec![goal];
    let mut cell = goal;
    while d > 0 {
        let prev = (0..size * size).find(|&p| {
            dist[p] == Some(d - 1) && Maze::targets(size, p, maze.jump(p)).any(|t| t == cell)
        })?;
        path.push(prev);
        cell = prev;
        d -= 1;
    }
    path.reverse();
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::rng::rng_from_seed;
    use std::collections::VecDeque;

    /// Textbook queue BFS over the explicit graph: the reference the bit sets must match.
    fn brute_force(maze: &Maze) -> Vec<Option<u32>> {
        let n = maze.size();
        let mut dist = vec![None; n * n];
        dist[0] = Some(0);
        let mut queue = VecDeque::from([0usize]);
        while let Some(c) = queue.pop_front() {
            let d = dist[c].unwrap_or(0);
            for t in Maze::targets(n, c, maze.jump(c)) {
                if dist[t].is_none() {
                    dist[t] = Some(d + 1);
                    queue.push_back(t);
                }
            }
        }
        dist
    }

    #[test]
    fn bit_set_bfs_matches_brute_force_on_random_mazes() {
        let mut rng = rng_from_seed(11);
        let mut unreachable = 0;
        for size in 5..=10 {
            for _ in 0..300 {
                let maze = Maze::random(size, &mut rng);
                let want = brute_force(&maze);
                assert_eq!(distances(&maze), want);
                let obj = objective(&maze);
                match want[maze.goal()] {
                    Some(d) => assert_eq!(obj, -i64::from(d)),
                    None => {
                        assert_eq!(obj, UNREACHABLE);
                        unreachable += 1;
                    }
                }
            }
        }
        assert!(
            unreachable > 0,
            "the sample should include unreachable goals"
        );
    }

    #[test]
    fn seed_part2_examples() {
        // The two transcripts of part 2: objective -5 and 1000000.
        let a = Maze::from_jumps(
            5,
            parse("2 2 2 4 3 2 2 3 3 3 3 3 2 3 3 4 3 2 2 2 1 2 1 4 0"),
        )
        .unwrap();
        assert_eq!(objective(&a), -5);
        let da = distances(&a);
        assert_eq!(da[18], None);
        assert_eq!(da[5], Some(7));
        let b = Maze::from_jumps(
            5,
            parse("3 3 2 4 3 2 2 2 1 1 4 3 1 3 4 2 3 1 1 3 1 1 3 2 0"),
        )
        .unwrap();
        assert_eq!(objective(&b), UNREACHABLE);
        assert_eq!(distances(&b)[2], None);
        assert_eq!(distances(&b)[4], Some(5));
    }

    #[test]
    fn incremental_updates_equal_a_fresh_evaluator() {
        let mut rng = rng_from_seed(5);
        let mut maze = Maze::random(7, &mut rng);
        let mut ev = Evaluator::<u64>::new(&maze);
        for _ in 0..2_000 {
            let s = Maze::random_step(7, maze.jumps_mut(), &mut rng);
            ev.set_jump(s.cell, s.new);
            assert_eq!(ev.objective(), Evaluator::<u64>::new(&maze).objective());
        }
    }

    #[test]
    fn shortest_path_is_legal_and_shortest() {
        let mut rng = rng_from_seed(2);
        for _ in 0..200 {
            let maze = Maze::random(6, &mut rng);
            match (shortest_path(&maze), distances(&maze)[maze.goal()]) {
                (Some(p), Some(d)) => {
                    assert_eq!(p.len() as u32, d + 1);
                    assert_eq!(p[0], 0);
                    for w in p.windows(2) {
                        assert!(Maze::targets(6, w[0], maze.jump(w[0])).any(|t| t == w[1]));
                    }
                }
                (None, None) => {}
                other => panic!("path and distance disagree: {other:?}"),
            }
        }
    }

    fn parse(s: &str) -> Vec<u8> {
        s.split_whitespace().map(|t| t.parse().unwrap()).collect()
    }
}
