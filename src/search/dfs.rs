//! Depth-first search: the general search skeleton with a LIFO pool (seed 002).

use super::{Outcome, Pool, graph_search};
use std::hash::Hash;

/// Depth-first graph search from `start` until `success`: the last child pushed is the
/// next popped, children already seen anywhere are not pushed again, and the search
/// gives up after `expand_limit` expansions (seed 002 uses 100).
pub fn dfs<N, FN, IN, FS>(
    start: &N,
    successors: FN,
    success: FS,
    expand_limit: Option<u64>,
) -> Outcome<N>
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
) -> Outcome<N>
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
