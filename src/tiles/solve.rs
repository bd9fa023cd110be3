//! The generic algorithms of [`crate::search`] applied to sliding tiles: BFS, DFS and
//! A* on any board (one or more blanks), and the generic IDA* used to cross-check the
//! fast one. States are [`Board`]s, ordered as the two-blank puzzle assignment asks.

use super::board::{Board, Dir, MoveOrder};
use super::heuristic::{Heuristic, Tables};
use crate::search::{self, Limits, SearchResult};

/// An instance to solve and how.
#[derive(Debug, Clone)]
pub struct Problem {
    pub start: Board,
    pub goal: Board,
    pub order: MoveOrder,
    pub heuristic: Heuristic,
    pub tables: Tables,
    /// The memory budget of BFS, DFS and A* in bytes (they stop, with
    /// [`search::Stop::MemoryLimit`], before their stores would pass it).
    pub memory_limit: u64,
}

impl Problem {
    pub fn new(start: Board, goal: Board, order: MoveOrder, heuristic: Heuristic) -> Problem {
        let tables = Tables::new(&goal);
        Problem {
            start,
            goal,
            order,
            heuristic,
            tables,
            memory_limit: crate::util::memory::DEFAULT_MEMORY_LIMIT,
        }
    }

    /// The same problem with another memory budget (bytes).
    pub fn with_memory_limit(mut self, bytes: u64) -> Problem {
        self.memory_limit = bytes;
        self
    }

    pub fn h(&self, b: &Board) -> u32 {
        self.tables.evaluate(&b.cells, self.heuristic)
    }

    fn children(&self, b: &Board) -> Vec<Board> {
        b.successors(self.order).map(|(n, _, _)| n).collect()
    }

    /// At most `limit` expansions, within the memory budget.
    fn limits(&self, limit: Option<u64>) -> Limits<'static> {
        Limits::expansions(limit).with_memory(self.memory_limit)
    }

    /// Breadth-first search (the 8-puzzle assignment), giving up after `limit` expansions.
    pub fn bfs(&self, limit: Option<u64>) -> SearchResult<Board> {
        let goal = self.goal;
        search::bfs(
            &self.start,
            |b| self.children(b),
            |b| *b == goal,
            &self.limits(limit),
        )
    }

    /// Depth-first search (the 8-puzzle assignment), giving up after `limit` expansions.
    pub fn dfs(&self, limit: Option<u64>) -> SearchResult<Board> {
        let goal = self.goal;
        search::dfs(
            &self.start,
            |b| self.children(b),
            |b| *b == goal,
            &self.limits(limit),
        )
    }

    /// A* (the two-blank puzzle assignment), giving up after `limit` expansions.
    pub fn astar(&self, limit: Option<u64>) -> SearchResult<Board> {
        let goal = self.goal;
        search::astar(
            &self.start,
            |b| self.children(b).into_iter().map(|n| (n, 1)),
            |b| self.h(b),
            |b| *b == goal,
            &self.limits(limit),
        )
    }

    /// The generic IDA*, giving up after `limit` expansions.
    pub fn ida(&self, limit: Option<u64>) -> SearchResult<Board> {
        let goal = self.goal;
        let order = self.order;
        search::ida(
            &self.start,
            |b: &Board, out: &mut Vec<(Board, u32)>| {
                out.extend(b.successors(order).map(|(n, _, _)| (n, 1)))
            },
            |b| self.h(b),
            |b| *b == goal,
            &Limits::expansions(limit),
        )
    }
}

/// The blank moves along a path of boards (one blank).
pub fn moves_of(path: &[Board]) -> Vec<Dir> {
    path.windows(2)
        .filter_map(|w| w[0].move_to(&w[1]))
        .collect()
}
