//! IDA*: iterative-deepening A*, exactly as the 15-puzzle assignment's pseudocode (Korf 1985).
//!
//! The control loop sets the bound B to h(s0); each iteration is a depth-first search
//! that generates the children of a node, prunes a child when f = g + h > B (recording
//! the smallest pruned f as the next bound B′), stops as soon as a generated child
//! within the bound is a goal, and otherwise recurses. If an iteration fails, B ← B′.
//! The child that returns to the parent's parent is never generated (parent pruning),
//! which for sliding tiles is Korf's "never undo the previous move".
//!
//! Successors are written into a buffer the search owns (one per depth, reused across
//! iterations), so once the deepest iteration has been reached the loop does not
//! allocate.

use super::{Limits, SearchResult, Stats, Stop};

struct Ctx<'a, 'l, N, FN, FH, FS> {
    successors: &'a mut FN,
    heuristic: &'a mut FH,
    success: &'a mut FS,
    path: Vec<N>,
    buffers: Vec<Vec<(N, u32)>>,
    bound: u64,
    next_bound: u64,
    stats: Stats,
    limits: &'a Limits<'l>,
    /// Why the search gave up, once it has.
    stopped: Option<Stop>,
    found_cost: u64,
}

impl<N, FN, FH, FS> Ctx<'_, '_, N, FN, FH, FS>
where
    N: Eq + Clone,
    FN: FnMut(&N, &mut Vec<(N, u32)>),
    FH: FnMut(&N) -> u32,
    FS: FnMut(&N) -> bool,
{
    /// Searches below the last state of `self.path`, at cost `g`. True when a goal has
    /// been pushed onto the path.
    fn search(&mut self, g: u64) -> bool {
        let depth = self.path.len() - 1;
        if let Some(stop) = self.limits.reached(self.stats.expanded) {
            self.stopped = Some(stop);
            return false;
        }
        self.stats.expanded += 1;
        self.stats.max_frontier = self.stats.max_frontier.max(self.path.len() as u64);
        if self.buffers.len() <= depth {
            self.buffers.push(Vec::new());
        }
        let mut buf = std::mem::take(&mut self.buffers[depth]);
        buf.clear();
        (self.successors)(&self.path[depth], &mut buf);
        let mut found = false;
        for (child, step) in buf.drain(..) {
            if depth >= 1 && child == self.path[depth - 1] {
                continue; // never undo the previous move
            }
            self.stats.generated += 1;
            let cg = g + u64::from(step);
            let f = cg + u64::from((self.heuristic)(&child));
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            let goal = (self.success)(&child);
            self.path.push(child);
            if goal {
                self.found_cost = cg;
            }
            if goal || self.search(cg) {
                found = true;
                break;
            }
            if self.stopped.is_some() {
                break;
            }
            self.path.pop();
        }
        self.buffers[depth] = buf;
        found
    }
}

/// IDA* from `start` until `success`. `successors(state, out)` appends `(child, step
/// cost)` pairs to `out`. Gives up at its `limits` (their memory aside: IDA* stores only
/// its path): when it is about to expand node number `limits.expansions + 1`, or at a
/// stop request.
///
/// ```
/// use searchlab::search::{ida, Limits, Stop};
/// // Count down from 7 to 0 by steps of 1 or 2, each costing 1; h = ⌈n/2⌉ is admissible.
/// let succ = |&n: &u32, out: &mut Vec<(u32, u32)>| {
///     out.extend([1, 2].into_iter().filter(|&d| d <= n).map(|d| (n - d, 1)));
/// };
/// let r = ida(&7u32, succ, |&n| n.div_ceil(2), |&n| n == 0, &Limits::default());
/// assert_eq!((r.stop, r.cost), (Stop::Solved, Some(4)));
/// assert_eq!(r.stats.thresholds, vec![4]);
/// // Two expansions are not enough.
/// let r = ida(&7u32, succ, |&n| n.div_ceil(2), |&n| n == 0, &Limits::expansions(Some(2)));
/// assert_eq!((r.stop, r.cost), (Stop::ExpansionLimit, None));
/// ```
pub fn ida<N, FN, FH, FS>(
    start: &N,
    mut successors: FN,
    mut heuristic: FH,
    mut success: FS,
    limits: &Limits,
) -> SearchResult<N>
where
    N: Eq + Clone,
    FN: FnMut(&N, &mut Vec<(N, u32)>),
    FH: FnMut(&N) -> u32,
    FS: FnMut(&N) -> bool,
{
    let mut stats = Stats {
        generated: 1,
        ..Stats::default()
    };
    if success(start) {
        stats.thresholds.push(u64::from(heuristic(start)));
        return SearchResult {
            path: Some(vec![start.clone()]),
            cost: Some(0),
            last_depth: 0,
            stop: Stop::Solved,
            stats,
        };
    }
    let mut ctx = Ctx {
        bound: u64::from(heuristic(start)),
        successors: &mut successors,
        heuristic: &mut heuristic,
        success: &mut success,
        path: vec![start.clone()],
        buffers: Vec::new(),
        next_bound: u64::MAX,
        stats,
        limits,
        stopped: None,
        found_cost: 0,
    };
    loop {
        ctx.stats.thresholds.push(ctx.bound);
        ctx.next_bound = u64::MAX;
        ctx.path.truncate(1);
        if ctx.search(0) {
            let path = std::mem::take(&mut ctx.path);
            let last_depth = path.len() as u64 - 1;
            return SearchResult {
                path: Some(path),
                cost: Some(ctx.found_cost),
                last_depth,
                stop: Stop::Solved,
                stats: ctx.stats,
            };
        }
        if let Some(stop) = ctx.stopped {
            return SearchResult::ended(stop, 0, ctx.stats);
        }
        if ctx.next_bound == u64::MAX {
            return SearchResult::ended(Stop::Exhausted, 0, ctx.stats);
        }
        ctx.bound = ctx.next_bound;
    }
}
