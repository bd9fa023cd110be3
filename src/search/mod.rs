//! Domain-free search algorithms: breadth-first ([`mod@bfs`]), depth-first with an
//! expansion limit ([`mod@dfs`]), A* ([`mod@astar`]) and IDA* ([`mod@ida`]), over any state type,
//! with the counters every experiment reports.
//!
//! In the spirit of the `pathfinding` crate, a domain is given as closures (successors,
//! heuristic, goal test) rather than as a trait object, so the compiler specialises each
//! search for its domain. Counting conventions, shared by all four algorithms:
//!
//! * **generated**: every state produced by a successor function, plus the start state
//!   once (Korf's convention; for IDA* summed over all iterations);
//! * **expanded**: every state whose successors were produced;
//! * **max_frontier**: the largest number of states waiting in the open list (queue,
//!   stack or heap; for IDA* the deepest recursion, i.e. the memory the search needs);
//! * **thresholds**: the IDA* bounds, in the order used.

pub mod astar;
pub mod bfs;
pub mod dfs;
pub mod ida;

use std::collections::HashSet;
use std::collections::VecDeque;
use std::hash::Hash;

pub use astar::{astar, astar_within};
pub use bfs::{bfs, bfs_within};
pub use dfs::{dfs, dfs_within};
pub use ida::ida;

/// Counters common to every algorithm (see the module documentation).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    pub generated: u64,
    pub expanded: u64,
    pub max_frontier: u64,
    /// IDA* only: every bound used, first to last.
    pub thresholds: Vec<u64>,
    /// BFS/DFS only: the expansions that merged at least one new state into the pool.
    /// The 8-puzzle assignment counts these as its `expands` (73 and 1974 on its two cases, where
    /// `expanded` is 74 and 2045): an expansion whose children had all been seen
    /// before is not counted there.
    pub merging: u64,
    /// BFS/DFS/A*: the search stopped because its stores would pass the memory budget.
    pub out_of_memory: bool,
}

/// The estimated bytes a graph search (BFS/DFS) holds per stored state: its node
/// (state, parent, depth) and its entry in the seen set, each with the slack of a
/// growing vector or hash table (up to twice), and its place in the pool.
pub fn graph_search_bytes_per_state<N>() -> u64 {
    let node = std::mem::size_of::<(N, usize, u64)>() as u64;
    let seen = std::mem::size_of::<N>() as u64 + 1;
    2 * node + (2 * seen * 8).div_ceil(7) + 16
}

/// What a search returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult<N> {
    /// The states from the start to the goal (both included), if a goal was reached.
    pub path: Option<Vec<N>>,
    /// The path's cost (its number of moves for unit costs); 0 when not found.
    pub cost: u64,
    /// The depth of the last node expanded (BFS/DFS report it when they give up).
    pub last_depth: u64,
    /// True when the search stopped at its limit rather than exhausting the space.
    pub limit_reached: bool,
    pub stats: Stats,
}

/// The pool discipline of the general search skeleton.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pool {
    Fifo,
    Lifo,
}

/// The general search skeleton of the 8-puzzle assignment (`push initial; loop { pop; goal test;
/// expand and merge }`) with repeated-state avoidance: a state enters the pool only if it
/// has never been in it (the set of seen states is global). The expansion limit is
/// checked before each pop: the search gives up once it has expanded `limit` nodes.
pub(crate) fn graph_search<N, FN, IN, FS>(
    start: &N,
    mut successors: FN,
    mut success: FS,
    expand_limit: Option<u64>,
    memory_limit: Option<u64>,
    pool_kind: Pool,
) -> SearchResult<N>
where
    N: Eq + Hash + Clone,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    FS: FnMut(&N) -> bool,
{
    // Every node ever generated: (state, parent index, depth).
    let mut nodes: Vec<(N, usize, u64)> = vec![(start.clone(), usize::MAX, 0)];
    let mut seen: HashSet<N> = HashSet::new();
    seen.insert(start.clone());
    let mut pool: VecDeque<usize> = VecDeque::from([0]);
    let mut stats = Stats {
        generated: 1,
        max_frontier: 1,
        ..Stats::default()
    };
    let mut last_depth = 0;
    let max_states = memory_limit.map_or(u64::MAX, |m| m / graph_search_bytes_per_state::<N>());
    loop {
        let out_of_memory = nodes.len() as u64 >= max_states;
        stats.out_of_memory = out_of_memory;
        if out_of_memory || expand_limit.is_some_and(|l| stats.expanded >= l) {
            return SearchResult {
                path: None,
                cost: 0,
                last_depth,
                limit_reached: true,
                stats,
            };
        }
        let idx = match pool_kind {
            Pool::Fifo => pool.pop_front(),
            Pool::Lifo => pool.pop_back(),
        };
        let Some(idx) = idx else {
            return SearchResult {
                path: None,
                cost: 0,
                last_depth,
                limit_reached: false,
                stats,
            };
        };
        if success(&nodes[idx].0) {
            let cost = nodes[idx].2;
            let path = trace(&nodes, idx);
            return SearchResult {
                path: Some(path),
                cost,
                last_depth,
                limit_reached: false,
                stats,
            };
        }
        stats.expanded += 1;
        let depth = nodes[idx].2;
        last_depth = depth;
        let parent_state = nodes[idx].0.clone();
        let mut merged = false;
        for child in successors(&parent_state) {
            stats.generated += 1;
            if seen.contains(&child) {
                continue;
            }
            seen.insert(child.clone());
            nodes.push((child, idx, depth + 1));
            pool.push_back(nodes.len() - 1);
            merged = true;
        }
        stats.merging += u64::from(merged);
        stats.max_frontier = stats.max_frontier.max(pool.len() as u64);
    }
}

/// The states from the root to `idx`, following parent indices.
pub(crate) fn trace<N: Clone, X>(nodes: &[(N, usize, X)], mut idx: usize) -> Vec<N> {
    let mut path = Vec::new();
    while idx != usize::MAX {
        path.push(nodes[idx].0.clone());
        idx = nodes[idx].1;
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line 0..=n: successors of i are i-1 and i+1; the goal is `n`.
    fn line(n: i64) -> (impl FnMut(&i64) -> Vec<i64>, impl FnMut(&i64) -> bool) {
        (
            move |&i: &i64| {
                [i - 1, i + 1]
                    .into_iter()
                    .filter(|&j| (0..=n).contains(&j))
                    .collect()
            },
            move |&i: &i64| i == n,
        )
    }

    #[test]
    fn bfs_and_dfs_find_the_end_of_a_line() {
        let (s, g) = line(5);
        let o = bfs(&0, s, g, None);
        assert_eq!(o.path, Some(vec![0, 1, 2, 3, 4, 5]));
        assert_eq!(o.stats.expanded, 5);
        let (s, g) = line(5);
        let o = dfs(&0, s, g, Some(3));
        assert!(o.path.is_none() && o.limit_reached);
        assert_eq!(o.stats.expanded, 3);
        assert_eq!(o.last_depth, 2);
    }

    #[test]
    fn astar_and_ida_agree_on_a_grid() {
        // 6x6 grid with a wall; cost 1 per step; Manhattan heuristic.
        let wall = |x: i32, y: i32| x == 3 && y < 5;
        let succ = move |&(x, y): &(i32, i32)| {
            [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
                .into_iter()
                .filter(|&(a, b)| (0..6).contains(&a) && (0..6).contains(&b) && !wall(a, b))
                .map(|p| (p, 1))
                .collect::<Vec<_>>()
        };
        let h = |&(x, y): &(i32, i32)| ((5 - x).abs() + y.abs()) as u32;
        let goal = |p: &(i32, i32)| *p == (5, 0);
        let a = astar(&(0, 0), succ, h, goal, None);
        let i = ida(
            &(0, 0),
            |p: &(i32, i32), out: &mut Vec<((i32, i32), u32)>| out.extend(succ(p)),
            h,
            goal,
            None,
        );
        assert_eq!(a.cost, 15);
        assert_eq!(i.cost, 15);
        assert_eq!(i.path.as_ref().map(Vec::len), Some(16));
        assert_eq!(i.stats.thresholds.first(), Some(&5));
        assert_eq!(i.stats.thresholds.last(), Some(&15));
    }
}
