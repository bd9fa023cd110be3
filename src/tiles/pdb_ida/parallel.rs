//! The parallel search: each iteration's tree cut at a frontier depth, its subtrees
//! searched by the threads in depth-first order, the counts and solution those of the
//! serial search (see the module documentation of [`super`]).

use super::search::{Frontier, Search};
use crate::tiles::board::{Board, MoveOrder};
use crate::tiles::deepen::{Control, Counters, IdaResult, Iterate, Iteration};
use crate::tiles::fsm::Fsm;
use crate::tiles::pdb::PdbHeuristic;
use crate::util::cancel::Cancel;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// What one subtree of the parallel search found.
struct Sub {
    pub(super) found: Option<Vec<u8>>,
    pub(super) generated: u64,
    pub(super) expanded: u64,
    pub(super) next_bound: u32,
    pub(super) max_depth: u32,
    /// It stopped at its expansion limit.
    pub(super) limit_reached: bool,
    /// It stopped at the run's stop request.
    pub(super) interrupted: bool,
    /// It was searched in full (not given up for a goal before it or at the limit).
    pub(super) complete: bool,
}

/// The number of frontier nodes the parallel search aims at per iteration.
const FRONTIER_TARGET: usize = 2000;

/// The parallel search: the top of the tree serially down to `split`, the subtrees below
/// by the threads (see the module documentation).
pub(super) struct Parallel<'a> {
    root: Search<'a>,
    pub(super) blank: usize,
    pub(super) md: u32,
    /// The frontier depth of the last iteration (the next starts near it).
    pub(super) split: u32,
    pub(super) c: Counters,
}

impl<'a> Parallel<'a> {
    /// The top of the tree at `bound`, cut at a depth deepened until it has enough
    /// subtrees (or until deeper cuts would give fewer: near the bound most nodes are
    /// pruned); whether the top itself generated a goal.
    pub(super) fn top(&mut self, bound: u32, limit: u64) -> (Search<'a>, bool) {
        self.split = self.split.saturating_sub(2).max(1);
        let mut best_top: Option<(Search, bool)> = None;
        loop {
            let mut top = self.fresh(bound, limit);
            top.split = self.split;
            let first = top.first_orientation();
            let found = top.run(self.blank, 0, self.md, top.start_state(), first);
            if found || top.c.limit_reached {
                return (top, found);
            }
            if let Some((prev, _)) = &best_top
                && top.frontier.len() <= prev.frontier.len()
            {
                self.split -= 1;
                return best_top.take().expect("kept");
            }
            if top.frontier.len() >= FRONTIER_TARGET || self.split >= bound {
                return (top, found);
            }
            best_top = Some((top, found));
            self.split += 1;
        }
    }

    /// A search from the start at `bound` with no counts yet, giving up when about to
    /// expand node number `limit + 1`.
    pub(super) fn fresh(&self, bound: u32, limit: u64) -> Search<'a> {
        let mut s = self.root.clone();
        s.bound = bound;
        s.next_bound = u32::MAX;
        s.c = Counters {
            generated: 0,
            ..Counters::new(Some(limit))
        };
        s.c.schedule(s.stop.is_some());
        s
    }

    /// The iteration at `bound` searched serially, expanding at most `limit` nodes: the
    /// one whose limit falls inside the top of its tree, so that it stops at the node the
    /// serial search stops at.
    pub(super) fn serial(&mut self, bound: u32, limit: u64) -> Iteration {
        let mut s = self.fresh(bound, limit);
        let found = s.run(
            self.blank,
            0,
            self.md,
            s.start_state(),
            s.first_orientation(),
        );
        self.add(s.c.generated, s.c.expanded, s.c.max_depth);
        self.c.limit_reached = s.c.limit_reached;
        self.c.interrupted = s.c.interrupted;
        Iteration {
            found: found.then(|| s.path[..s.found_len].to_vec()),
            next_bound: s.next_bound,
        }
    }

    /// Searches the subtrees of `frontier` at `bound` on the current rayon pool, in
    /// depth-first order from a shared counter; the subtrees after the first one holding a
    /// goal are abandoned. Returns each subtree's result (`None`: abandoned) and the index
    /// of the first holding a goal (usize::MAX: none); [`Subtrees::Over`] when together
    /// they would expand more than `limit` nodes (the subtrees under way then give up),
    /// [`Subtrees::Stopped`] at the run's stop request (the search then stops early, its
    /// results unused).
    fn subtrees(&self, frontier: &[Frontier], bound: u32, limit: u64) -> Subtrees {
        let best = AtomicUsize::new(usize::MAX);
        let next = AtomicUsize::new(0);
        let spent = AtomicU64::new(0);
        let over = AtomicBool::new(false);
        let stopped = AtomicBool::new(false);
        let results: Vec<Mutex<Option<Sub>>> =
            (0..frontier.len()).map(|_| Mutex::new(None)).collect();
        let threads = rayon::current_num_threads().max(1);
        rayon::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|_| {
                    loop {
                        let i = next.fetch_add(1, Relaxed);
                        if i >= frontier.len() || i > best.load(Relaxed) {
                            break;
                        }
                        let sub = self.subtree(&frontier[i], bound, limit, &best, i);
                        let total = spent.fetch_add(sub.expanded, Relaxed) + sub.expanded;
                        if sub.interrupted || self.root.stop.is_some_and(Cancel::is_cancelled) {
                            // Every subtree under way gives up at its next node.
                            stopped.store(true, Relaxed);
                            best.store(0, Relaxed);
                        } else if sub.limit_reached || total > limit {
                            // Every subtree after the first gives up at its next node.
                            over.store(true, Relaxed);
                            best.store(0, Relaxed);
                        }
                        *results[i].lock().expect("no panics while holding") = Some(sub);
                    }
                });
            }
        });
        if stopped.load(Relaxed) {
            return Subtrees::Stopped;
        }
        let results = results
            .into_iter()
            .map(|r| r.into_inner().expect("no panics"))
            .collect();
        if over.load(Relaxed) {
            return Subtrees::Over(results);
        }
        Subtrees::Searched(results, best.load(Relaxed))
    }

    /// The search below frontier node `i`, given up when a subtree before it holds a goal.
    fn subtree(
        &self,
        node: &Frontier,
        bound: u32,
        limit: u64,
        best: &AtomicUsize,
        i: usize,
    ) -> Sub {
        let mut s = self.fresh(bound, limit);
        s.cells = node.cells;
        s.pats[..node.pats.len()].clone_from_slice(&node.pats);
        s.path[..node.path.len()].copy_from_slice(&node.path);
        s.cancel = Some((best, i));
        let g = node.path.len() as u32;
        let found = s.run(node.blank, g, node.md, node.state, node.first);
        if found {
            best.fetch_min(i, Relaxed);
        }
        Sub {
            found: found.then(|| s.path[..s.found_len].to_vec()),
            generated: s.c.generated,
            expanded: s.c.expanded,
            next_bound: s.next_bound,
            max_depth: s.c.max_depth,
            limit_reached: s.c.limit_reached,
            interrupted: s.c.interrupted,
            complete: !(s.cancelled || s.c.limit_reached),
        }
    }

    /// The iteration whose subtrees hold a goal or together passed `limit` (the
    /// expansions left before the run's limit when it began), ended where the serial
    /// search ends it: the top up to a subtree, the subtrees before it in full, and that
    /// subtree up to its goal or the limit. The subtrees are taken in the serial order,
    /// each one searched in full kept as it is, the others (given up when the limit was
    /// passed) searched again on this thread with the expansions left. Only where the
    /// limit falls in the top of the tree, between two subtrees, is the whole iteration
    /// searched again serially.
    fn in_serial_order(
        &mut self,
        bound: u32,
        limit: u64,
        frontier: &[Frontier],
        results: Vec<Option<Sub>>,
    ) -> Iteration {
        let (mut generated, mut expanded, mut max_depth) = (0, 0, 0);
        for (k, (node, sub)) in frontier.iter().zip(results).enumerate() {
            // The serial search's expansions when it enters subtree k.
            let before = node.expanded + expanded;
            if before > limit {
                break;
            }
            let sub = match sub {
                Some(sub) if sub.complete && before + sub.expanded <= limit => sub,
                _ => {
                    let never = AtomicUsize::new(usize::MAX);
                    self.subtree(node, bound, limit - before, &never, k)
                }
            };
            generated += sub.generated;
            expanded += sub.expanded;
            max_depth = max_depth.max(sub.max_depth);
            if sub.found.is_some() || sub.limit_reached {
                let max_depth = max_depth.max(node.max_depth);
                self.add(
                    node.generated + generated,
                    node.expanded + expanded,
                    max_depth,
                );
                self.c.limit_reached = sub.limit_reached;
                self.c.interrupted = sub.interrupted;
                return Iteration {
                    found: sub.found,
                    next_bound: u32::MAX,
                };
            }
        }
        self.serial(bound, limit)
    }

    fn add(&mut self, generated: u64, expanded: u64, max_depth: u32) {
        self.c.generated += generated;
        self.c.expanded += expanded;
        self.c.max_depth = self.c.max_depth.max(max_depth);
    }
}

impl Iterate for Parallel<'_> {
    fn iterate(&mut self, bound: u32) -> Iteration {
        // The expansions left before the limit: an iteration that would pass it ends
        // exactly where the serial search stops ([`Self::in_serial_order`]).
        let limit = self.c.expand_limit.saturating_sub(self.c.expanded);
        let (mut top, top_found) = self.top(bound, limit);
        if top.c.interrupted {
            return self.stopped();
        }
        if top.c.limit_reached {
            return self.serial(bound, limit);
        }
        let frontier = std::mem::take(&mut top.frontier);
        let results = match self.subtrees(&frontier, bound, limit - top.c.expanded) {
            Subtrees::Searched(results, usize::MAX) => results,
            // A goal, or the limit passed: the iteration ends where the serial search ends.
            Subtrees::Searched(results, _) | Subtrees::Over(results) => {
                return self.in_serial_order(bound, limit, &frontier, results);
            }
            Subtrees::Stopped => return self.stopped(),
        };
        self.add(top.c.generated, top.c.expanded, top.c.max_depth);
        let mut next_bound = top.next_bound;
        for sub in results {
            let sub = sub.expect("searched");
            self.add(sub.generated, sub.expanded, sub.max_depth);
            next_bound = next_bound.min(sub.next_bound);
        }
        let found = top_found.then(|| top.path[..top.found_len].to_vec());
        Iteration { found, next_bound }
    }

    fn counters(&mut self) -> &mut Counters {
        &mut self.c
    }
}

impl Parallel<'_> {
    /// The iteration given up at the run's stop request (its counts not added: the run
    /// resumes from the last checkpoint).
    fn stopped(&mut self) -> Iteration {
        self.c.limit_reached = true;
        self.c.interrupted = true;
        Iteration {
            found: None,
            next_bound: u32::MAX,
        }
    }
}

/// What the threads made of an iteration's subtrees ([`Parallel::subtrees`]).
enum Subtrees {
    /// Each subtree's result (`None`: abandoned) and the index of the first holding a
    /// goal (usize::MAX: none).
    Searched(Vec<Option<Sub>>, usize),
    /// Together they would pass the expansion limit: each subtree's result as it stood
    /// (`None`: not begun).
    Over(Vec<Option<Sub>>),
    /// The run's stop request came.
    Stopped,
}

/// The same search as [`super::solve`] (no expansion limit), with the subtrees below a frontier
/// depth searched by the threads of the current rayon pool. The counts and the solution
/// are those of [`super::solve`] (see the module documentation).
pub fn solve_parallel(start: &Board, h: &PdbHeuristic, order: MoveOrder) -> IdaResult {
    solve_parallel_with(start, h, order, None, Control::default())
}

/// [`solve_parallel`] with the pruning machine `fsm` (when given) and under a
/// [`Control`]: the counts and the solution are those of [`super::solve_with`] with the
/// same machine and control. Of an
/// iteration that would pass the expansion limit, the subtrees not searched in full
/// before the one where the serial search reaches it are searched again serially, up to
/// it, so the search stops at the very node the serial one stops at.
pub fn solve_parallel_with(
    start: &Board,
    h: &PdbHeuristic,
    order: MoveOrder,
    fsm: Option<&Fsm>,
    control: Control,
) -> IdaResult {
    assert_eq!(start.blanks(), 1, "the PDB IDA* handles one blank");
    let mut root = Search::new(h, start, order, fsm);
    root.stop = control.cancel();
    let (md, h0, moves) = (root.md(), root.h0(), root.moves);
    let mut p = Parallel {
        root,
        blank: start.blank(),
        md,
        split: 2,
        c: Counters::new(control.limits.expansions),
    };
    crate::tiles::deepen::deepen(&mut p, h0, md == 0, &moves, control)
}
