//! Breadth-first search: the general search skeleton with a FIFO pool (the 8-puzzle assignment).

use super::{Pool, SearchResult, graph_search};
use std::hash::Hash;

/// Breadth-first graph search from `start` until `success`: pops in FIFO order, tests the
/// goal when a node is popped, and merges only never-seen children. Gives up after
/// `expand_limit` expansions.
///
/// ```
/// use searchlab::search::bfs;
/// // From 1, reach 10 by "+1" or "×2": the shortest way is 1, 2, 4, 5, 10.
/// let r = bfs(&1u32, |&n| [n + 1, n * 2], |&n| n == 10, None);
/// assert_eq!(r.path, Some(vec![1, 2, 4, 5, 10]));
/// assert_eq!(r.cost, 4);
/// assert!(!r.limit_reached);
/// ```
pub fn bfs<N, FN, IN, FS>(
    start: &N,
    successors: FN,
    success: FS,
    expand_limit: Option<u64>,
) -> SearchResult<N>
where
    N: Eq + Hash + Clone,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    FS: FnMut(&N) -> bool,
{
    graph_search(start, successors, success, expand_limit, None, Pool::Fifo)
}

/// [`bfs`] that also stops (with `stats.out_of_memory` and `limit_reached`) before its
/// stores would pass `memory_limit` bytes (see [`super::graph_search_bytes_per_state`]).
pub fn bfs_within<N, FN, IN, FS>(
    start: &N,
    successors: FN,
    success: FS,
    expand_limit: Option<u64>,
    memory_limit: u64,
) -> SearchResult<N>
where
    N: Eq + Hash + Clone,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    FS: FnMut(&N) -> bool,
{
    graph_search(
        start,
        successors,
        success,
        expand_limit,
        Some(memory_limit),
        Pool::Fifo,
    )
}
