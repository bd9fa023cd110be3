//! Breadth-first search: the general search skeleton with a FIFO pool (the 8-puzzle assignment).

use super::{Limits, Pool, SearchResult, graph_search};
use std::hash::Hash;

/// Breadth-first graph search from `start` until `success`: pops in FIFO order, tests the
/// goal when a node is popped, and merges only never-seen children. Gives up at its
/// `limits`: after `limits.expansions` expansions, before its stores would pass
/// `limits.memory` bytes (see [`super::graph_search_bytes_per_state`]), or at a stop
/// request.
///
/// ```
/// use searchlab::search::{bfs, Limits, Stop};
/// // From 1, reach 10 by "+1" or "×2": the shortest way is 1, 2, 4, 5, 10.
/// let r = bfs(&1u32, |&n| [n + 1, n * 2], |&n| n == 10, &Limits::default());
/// assert_eq!(r.path, Some(vec![1, 2, 4, 5, 10]));
/// assert_eq!((r.stop, r.cost), (Stop::Solved, Some(4)));
/// // Within 20 and without "×2", 30 is out of reach.
/// let r = bfs(&1u32, |&n| (n < 20).then_some(n + 1), |&n| n == 30, &Limits::default());
/// assert_eq!((r.stop, r.cost), (Stop::Exhausted, None));
/// ```
pub fn bfs<N, FN, IN, FS>(
    start: &N,
    successors: FN,
    success: FS,
    limits: &Limits,
) -> SearchResult<N>
where
    N: Eq + Hash + Clone,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    FS: FnMut(&N) -> bool,
{
    graph_search(start, successors, success, limits, Pool::Fifo)
}
