//! Depth-first search: the general search skeleton with a LIFO pool (the 8-puzzle assignment).

use super::{Pool, SearchResult, graph_search};
use std::hash::Hash;

/// Depth-first graph search from `start` until `success`: the last child pushed is the
/// next popped, children already seen anywhere are not pushed again, and the search
/// gives up after `expand_limit` expansions (the 8-puzzle assignment uses 100).
///
/// ```
/// use searchlab::search::dfs;
/// // Children are pushed in order, so "×2" (pushed last) is explored first: the path
/// // found is not the shortest.
/// let r = dfs(&1u32, |&n| [n + 1, n * 2].into_iter().filter(|&m| m <= 10), |&n| n == 10, None);
/// let path = r.path.unwrap();
/// assert_eq!((path[0], *path.last().unwrap()), (1, 10));
/// // With a limit of one expansion it gives up.
/// let r = dfs(&1u32, |&n| [n + 1, n * 2], |&n| n == 10, Some(1));
/// assert!(r.limit_reached && r.path.is_none());
/// ```
pub fn dfs<N, FN, IN, FS>(
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
    graph_search(start, successors, success, expand_limit, None, Pool::Lifo)
}

/// [`dfs`] that also stops (with `stats.out_of_memory` and `limit_reached`) before its
/// stores would pass `memory_limit` bytes (see [`super::graph_search_bytes_per_state`]).
pub fn dfs_within<N, FN, IN, FS>(
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
        Pool::Lifo,
    )
}
