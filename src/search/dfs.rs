//! Depth-first search: the general search skeleton with a LIFO pool (the 8-puzzle assignment).

use super::{Limits, Pool, SearchResult, graph_search};
use std::hash::Hash;

/// Depth-first graph search from `start` until `success`: the last child pushed is the
/// next popped, children already seen anywhere are not pushed again, and the search
/// gives up at its `limits`: after `limits.expansions` expansions (the 8-puzzle
/// assignment uses 100), before its stores would pass `limits.memory` bytes (see
/// [`super::graph_search_bytes_per_state`]), or at a stop request.
///
/// ```
/// use searchlab::search::{dfs, Limits, Stop};
/// // Children are pushed in order, so "×2" (pushed last) is explored first: the path
/// // found is not the shortest.
/// let within = |n: u32| [n + 1, n * 2].into_iter().filter(|&m| m <= 10);
/// let r = dfs(&1u32, |&n| within(n), |&n| n == 10, &Limits::default());
/// let path = r.path.unwrap();
/// assert_eq!((path[0], *path.last().unwrap()), (1, 10));
/// // With a limit of one expansion it gives up.
/// let r = dfs(&1u32, |&n| [n + 1, n * 2], |&n| n == 10, &Limits::expansions(Some(1)));
/// assert_eq!((r.stop, r.path), (Stop::ExpansionLimit, None));
/// ```
pub fn dfs<N, FN, IN, FS>(
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
    graph_search(start, successors, success, limits, Pool::Lifo)
}
