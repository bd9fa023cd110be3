//! A*: best-first search on f = g + h, with equal f popped in ascending state order.
//!
//! The open list is a binary heap of `(f, state, sequence)`, so among entries of equal f
//! the smallest state (by `Ord`) comes out first, as the two-blank puzzle assignment asks ("if you consider the
//! state to be a nine-digit integer, … ascending order"); the sequence number breaks the
//! remaining ties by insertion order, which is the order of the parents' expansions.
//!
//! A child is pushed only when its g improves on every earlier g for that state; entries
//! made stale by a later improvement stay in the heap (lazy deletion) and are skipped
//! when popped. **Queue length** (`max_frontier`) is the heap's length, stale entries
//! included, measured after the children of each expansion have been pushed.

use super::{Limits, SearchResult, Stats, Stop, trace};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::Hash;

/// The estimated bytes A* holds per stored node (node, closed flag, best-g entry, each
/// with a growing container's slack) and per heap entry.
pub fn astar_bytes<N>() -> (u64, u64) {
    let node = std::mem::size_of::<(N, usize, u64)>() as u64 + 1;
    let best = std::mem::size_of::<(N, (u64, usize))>() as u64 + 1;
    let heap = std::mem::size_of::<(u64, N, usize)>() as u64;
    (2 * node + (2 * best * 8).div_ceil(7), 2 * heap)
}

/// A* from `start` until `success`. `successors` yields `(child, step cost)`;
/// `heuristic` must be admissible for the result to be optimal (and consistent for
/// every state to be expanded at most once). Gives up at its `limits`: after
/// `limits.expansions` expansions, before its stores would pass `limits.memory` bytes
/// (see [`astar_bytes`]), or at a stop request.
///
/// ```
/// use searchlab::search::{astar, Limits, Stop};
/// // A 5×5 grid without walls, unit steps, Manhattan distance to (4, 4).
/// let succ = |&(x, y): &(i32, i32)| {
///     [(1, 0), (-1, 0), (0, 1), (0, -1)]
///         .into_iter()
///         .map(move |(dx, dy)| (x + dx, y + dy))
///         .filter(|&(a, b)| (0..5).contains(&a) && (0..5).contains(&b))
///         .map(|s| (s, 1))
/// };
/// let h = |&(x, y): &(i32, i32)| (8 - x - y) as u32;
/// let r = astar(&(0, 0), succ, h, |&s| s == (4, 4), &Limits::default());
/// assert_eq!((r.stop, r.cost), (Stop::Solved, Some(8)));
/// assert_eq!(r.path.unwrap().len(), 9);
/// // Three expansions are not enough.
/// let r = astar(&(0, 0), succ, h, |&s| s == (4, 4), &Limits::expansions(Some(3)));
/// assert_eq!((r.stop, r.cost), (Stop::ExpansionLimit, None));
/// ```
pub fn astar<N, FN, IN, FH, FS>(
    start: &N,
    mut successors: FN,
    mut heuristic: FH,
    mut success: FS,
    limits: &Limits,
) -> SearchResult<N>
where
    N: Eq + Hash + Ord + Clone,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = (N, u32)>,
    FH: FnMut(&N) -> u32,
    FS: FnMut(&N) -> bool,
{
    let (per_node, per_entry) = astar_bytes::<N>();
    // Nodes: (state, parent index, g). `best` maps a state to its best g and node index.
    let mut nodes: Vec<(N, usize, u64)> = vec![(start.clone(), usize::MAX, 0)];
    let mut best: HashMap<N, (u64, usize)> = HashMap::new();
    let mut closed: Vec<bool> = vec![false];
    best.insert(start.clone(), (0, 0));
    let mut heap: BinaryHeap<Reverse<(u64, N, usize)>> = BinaryHeap::new();
    heap.push(Reverse((u64::from(heuristic(start)), start.clone(), 0)));
    let mut stats = Stats {
        generated: 1,
        max_frontier: 1,
        ..Stats::default()
    };
    let mut last_depth = 0;
    while let Some(Reverse((_, state, idx))) = heap.pop() {
        if closed[idx] || best.get(&state).is_some_and(|&(_, i)| i != idx) {
            continue; // stale entry
        }
        if success(&state) {
            let cost = nodes[idx].2;
            return SearchResult {
                path: Some(trace(&nodes, idx)),
                cost: Some(cost),
                last_depth,
                stop: Stop::Solved,
                stats,
            };
        }
        let held = (nodes.len() as u64)
            .saturating_mul(per_node)
            .saturating_add((heap.len() as u64).saturating_mul(per_entry));
        if held >= limits.memory.unwrap_or(u64::MAX) {
            return SearchResult::ended(Stop::MemoryLimit, last_depth, stats);
        }
        if let Some(stop) = limits.reached(stats.expanded) {
            return SearchResult::ended(stop, last_depth, stats);
        }
        closed[idx] = true;
        stats.expanded += 1;
        let g = nodes[idx].2;
        last_depth = g;
        for (child, step) in successors(&state) {
            stats.generated += 1;
            let cg = g + u64::from(step);
            if best.get(&child).is_some_and(|&(bg, _)| bg <= cg) {
                continue;
            }
            let f = cg + u64::from(heuristic(&child));
            nodes.push((child.clone(), idx, cg));
            closed.push(false);
            let ci = nodes.len() - 1;
            best.insert(child.clone(), (cg, ci));
            heap.push(Reverse((f, child, ci)));
        }
        stats.max_frontier = stats.max_frontier.max(heap.len() as u64);
    }
    SearchResult::ended(Stop::Exhausted, last_depth, stats)
}
