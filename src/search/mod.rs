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
//!
//! Every search takes its [`Limits`] (expansions, memory, a stop request; none by
//! default) and says why it ended with one [`Stop`]; a search that found no goal has no
//! path and no cost.

pub mod astar;
pub mod bfs;
pub mod dfs;
pub mod ida;

use crate::util::cancel::Cancel;
use std::collections::HashSet;
use std::collections::VecDeque;
use std::hash::Hash;

pub use astar::astar;
pub use bfs::bfs;
pub use dfs::dfs;
pub use ida::ida;

/// Why a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// A goal was reached: the result holds its path and cost.
    Solved,
    /// No goal is reachable (within the search's own bounds): the space was searched.
    Exhausted,
    /// The search reached its expansion limit first.
    ExpansionLimit,
    /// Its stores would have passed its memory budget.
    MemoryLimit,
    /// A stop request came ([`Limits::cancel`]).
    Interrupted,
}

/// Where a search gives up: after `expansions` expansions, before its stores pass
/// `memory` bytes, or when `cancel` is set (looked at before each expansion). The
/// default has no limit.
#[derive(Debug, Clone, Copy, Default)]
pub struct Limits<'a> {
    pub expansions: Option<u64>,
    pub memory: Option<u64>,
    pub cancel: Option<&'a Cancel>,
}

impl<'a> Limits<'a> {
    /// At most `expansions` expansions (none: no limit), nothing else.
    pub fn expansions(expansions: Option<u64>) -> Limits<'static> {
        Limits {
            expansions,
            ..Limits::default()
        }
    }

    /// The same limits with a memory budget of `bytes`.
    pub fn with_memory(self, bytes: u64) -> Limits<'a> {
        Limits {
            memory: Some(bytes),
            ..self
        }
    }

    /// The same limits, stopping when `cancel` is set.
    pub fn with_cancel<'b>(self, cancel: &'b Cancel) -> Limits<'b>
    where
        'a: 'b,
    {
        Limits {
            cancel: Some(cancel),
            ..self
        }
    }

    /// The limit that stops a search about to make expansion number `expanded + 1`, if
    /// any: the expansion limit, else a stop request.
    pub fn reached(&self, expanded: u64) -> Option<Stop> {
        if self.expansions.is_some_and(|l| expanded >= l) {
            Some(Stop::ExpansionLimit)
        } else if self.cancel.is_some_and(Cancel::is_cancelled) {
            Some(Stop::Interrupted)
        } else {
            None
        }
    }
}

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
    /// The path's cost (its number of moves for unit costs), if a goal was reached.
    pub cost: Option<u64>,
    /// The depth of the last node expanded (BFS/DFS report it when they give up).
    pub last_depth: u64,
    /// Why the search ended.
    pub stop: Stop,
    pub stats: Stats,
}

impl<N> SearchResult<N> {
    /// A result without a goal, ended by `stop`.
    fn ended(stop: Stop, last_depth: u64, stats: Stats) -> SearchResult<N> {
        SearchResult {
            path: None,
            cost: None,
            last_depth,
            stop,
            stats,
        }
    }
}

/// The pool discipline of the general search skeleton.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pool {
    Fifo,
    Lifo,
}

/// The general search skeleton of the 8-puzzle assignment (`push initial; loop { pop; goal test;
/// expand and merge }`) with repeated-state avoidance: a state enters the pool only if it
/// has never been in it (the set of seen states is global). The limits are checked
/// before each pop: the search gives up once its stores reach the memory budget, once
/// it has expanded `limits.expansions` nodes, or at a stop request.
pub(crate) fn graph_search<N, FN, IN, FS>(
    start: &N,
    mut successors: FN,
    mut success: FS,
    limits: &Limits,
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
    let max_states = limits
        .memory
        .map_or(u64::MAX, |m| m / graph_search_bytes_per_state::<N>());
    loop {
        if nodes.len() as u64 >= max_states {
            return SearchResult::ended(Stop::MemoryLimit, last_depth, stats);
        }
        if let Some(stop) = limits.reached(stats.expanded) {
            return SearchResult::ended(stop, last_depth, stats);
        }
        let idx = match pool_kind {
            Pool::Fifo => pool.pop_front(),
            Pool::Lifo => pool.pop_back(),
        };
        let Some(idx) = idx else {
            return SearchResult::ended(Stop::Exhausted, last_depth, stats);
        };
        if success(&nodes[idx].0) {
            let cost = nodes[idx].2;
            let path = trace(&nodes, idx);
            return SearchResult {
                path: Some(path),
                cost: Some(cost),
                last_depth,
                stop: Stop::Solved,
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
        let o = bfs(&0, s, g, &Limits::default());
        assert_eq!(o.path, Some(vec![0, 1, 2, 3, 4, 5]));
        assert_eq!((o.stop, o.cost), (Stop::Solved, Some(5)));
        assert_eq!(o.stats.expanded, 5);
        let (s, g) = line(5);
        let o = dfs(&0, s, g, &Limits::expansions(Some(3)));
        assert!(o.path.is_none() && o.cost.is_none());
        assert_eq!(o.stop, Stop::ExpansionLimit);
        assert_eq!(o.stats.expanded, 3);
        assert_eq!(o.last_depth, 2);
    }

    #[test]
    fn every_search_says_why_it_ended() {
        // The line 0..=5 from 0: its end is reached, unless a limit comes first; a goal
        // off the line exhausts it.
        let cancelled = Cancel::default();
        cancelled.cancel();
        let cases = [
            (Limits::default(), 5, Stop::Solved),
            (Limits::default(), 9, Stop::Exhausted),
            (Limits::expansions(Some(2)), 5, Stop::ExpansionLimit),
            (Limits::default().with_memory(1), 5, Stop::MemoryLimit),
            (
                Limits::default().with_cancel(&cancelled),
                5,
                Stop::Interrupted,
            ),
        ];
        let next = |&i: &i64| [i - 1, i + 1].into_iter().filter(|j| (0..=5).contains(j));
        for (limits, goal, want) in &cases {
            let at = |i: &i64| i == goal;
            let b = bfs(&0, next, at, limits);
            let d = dfs(&0, next, at, limits);
            let a = astar(&0, |i| next(i).map(|j| (j, 1)), |_| 0, at, limits);
            let i = ida(
                &0,
                |i: &i64, out: &mut Vec<(i64, u32)>| out.extend(next(i).map(|j| (j, 1))),
                |_| 0,
                at,
                limits,
            );
            // IDA* stores only its path: a memory budget does not stop it.
            let ida_want = match want {
                Stop::MemoryLimit => Stop::Solved,
                w => *w,
            };
            assert_eq!(
                [b.stop, d.stop, a.stop, i.stop],
                [*want, *want, *want, ida_want],
                "goal {goal}, {limits:?}"
            );
            let cost = |stop: Stop| (stop == Stop::Solved).then_some(5);
            assert_eq!(
                [b.cost, d.cost, a.cost, i.cost],
                [cost(*want), cost(*want), cost(*want), cost(ida_want)]
            );
            assert_eq!(b.path.is_some(), *want == Stop::Solved);
        }
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
        let a = astar(&(0, 0), succ, h, goal, &Limits::default());
        let i = ida(
            &(0, 0),
            |p: &(i32, i32), out: &mut Vec<((i32, i32), u32)>| out.extend(succ(p)),
            h,
            goal,
            &Limits::default(),
        );
        assert_eq!(a.cost, Some(15));
        assert_eq!(i.cost, Some(15));
        assert_eq!(i.path.as_ref().map(Vec::len), Some(16));
        assert_eq!(i.stats.thresholds.first(), Some(&5));
        assert_eq!(i.stats.thresholds.last(), Some(&15));
    }
}
