//! The fast IDA* for one-blank boards: the 15-puzzle assignment's algorithm specialised for tiles.
//!
//! Same search, same order and same counts as [`mod@crate::search::ida`] on tiles (a test
//! checks they agree node for node), but built for speed: the board is one mutable array
//! updated in place (no allocation in the loop), Manhattan distance is updated
//! incrementally from a table (the moved tile's old and new distance), linear conflicts
//! are recomputed only for the one line a move can change (the moved tile's goal line,
//! when the tile enters or leaves it), and the move that undoes the
//! previous one is never generated (parent-move pruning). The heuristic's options are
//! const generics, so the Manhattan-only search carries no conflict bookkeeping.
//!
//! The Manhattan-only search goes further. A move changes Manhattan distance by exactly
//! one, so f rises by 0 or 2 and the next bound is always the bound plus 2. Most nodes
//! of an iteration have f equal to the bound ("tight"): their children stay within it
//! exactly when the moved tile comes closer to its goal, one bit of a per-move mask,
//! and their depth is bound − h, so the tight search carries neither g nor f.
//!
//! The deepening itself, the counts and the checkpoints are the shared driver's
//! ([`super::deepen`]); this file holds the per-node search of one iteration.

use super::board::{Board, MAX_CELLS, MoveOrder};
use super::conflicts::LineTable;
pub use super::deepen::IdaResult;
use super::deepen::{Control, Counters, Iterate, Iteration, MAX_PATH, Moves, NONE};
use super::heuristic::{Heuristic, Tables};
use crate::util::cancel::Cancel;

/// One move of the blank, as the Manhattan search needs it.
#[derive(Debug, Clone, Copy, Default)]
struct Step {
    /// Bit `t` is set when tile `t`, moving from `to` into the blank's cell, comes
    /// closer to its goal (its Manhattan distance falls by one; else it rises by one).
    closer: u32,
    /// The cell the blank moves to.
    to: u8,
    /// The move's index in the move order.
    k: u8,
    /// The move is vertical (the tile changes rows).
    vertical: bool,
    /// The two lines (rows `0..height`, then columns) the tile moves between in its
    /// direction: its rows when vertical, else its columns. Only a tile whose goal line
    /// is one of them changes that line's conflicts.
    lines: [u8; 2],
}

struct Search<'a> {
    t: &'a Tables,
    // The counters and bounds the hot loops touch at every node, first.
    c: Counters,
    bound: u32,
    next_bound: u32,
    /// The smallest h of a tight node searched to the end this iteration (its depth
    /// is bound − h, so this gives the deepest path the tight search examined).
    min_tight_md: u32,
    /// The board (cells beyond the board are 0); 32 entries so that `& 31` indexing
    /// needs no bounds checks in the Manhattan loop.
    cells: [u8; 32],
    /// `steps[cell][prev]`: the blank's moves from `cell` other than the inverse of
    /// `prev` (4 = none); `nmoves` counts them.
    steps: [[[Step; 4]; 5]; 32],
    nmoves: [[u8; 5]; 32],
    pos: [u8; MAX_CELLS + 1],
    moves: Moves,
    /// Each line's linear-conflict penalty, and the tiles in a conflict in it (kept
    /// only with the corner and last-move penalty, the one reader).
    line_pen: [u32; 10],
    line_mask: [u32; 10],
    lines: LineTable,
    /// What the corner and last-move penalty reads ([`Tables::corner_and_last_inputs`]):
    /// a move that touches none of these cells or tiles (and changes no line's
    /// conflicts) keeps its parent's penalty, so it is recomputed only when it may change.
    ex_cells: u32,
    ex_tiles: u32,
    /// `goal_line[vertical][tile]`: the goal line of the tile that a move in that
    /// direction may take it into or out of (its goal row when vertical, else its goal
    /// column, as a line index).
    goal_line: [[u8; 32]; 2],
    corner: bool,
    last: bool,
    heuristic: Heuristic,
    /// The start: the blank's cell, its Manhattan distance and linear conflicts.
    blank: usize,
    md: u32,
    lc: u32,
    found_len: usize,
    path: [u8; MAX_PATH],
    /// The run's stop request, looked at every [`super::deepen::POLL_EVERY`] expansions.
    stop: Option<&'a Cancel>,
}

impl Search<'_> {
    #[inline(always)]
    fn lc_total(&self) -> u32 {
        self.line_pen[..self.t.lines()].iter().sum()
    }

    #[inline(always)]
    fn charged(&self) -> u32 {
        self.line_mask[..self.t.lines()]
            .iter()
            .fold(0, |a, &m| a | m)
    }

    /// The Manhattan-only search below a node with f < bound ("slack"): the same as
    /// [`Self::dfs`] without conflict bookkeeping, over precomputed move lists.
    ///
    /// A move changes Manhattan distance by exactly ±1, so f = g + h rises by 0 or 2
    /// and every f in an iteration has the bound's parity: a slack node has f ≤ bound − 2
    /// and none of its children is pruned. Children whose f reaches the bound go to
    /// [`Self::tight_md`]. `LIMITED` compiles the expansion-limit test in only when there
    /// is a limit; the path is written only along the solution, as the recursion unwinds.
    fn slack_md<const LIMITED: bool>(
        &mut self,
        blank: usize,
        g: u32,
        md: u32,
        prev: usize,
    ) -> bool {
        let Some((b, prev, count)) = self.expand::<LIMITED>(blank, prev) else {
            return false;
        };
        for i in 0..count {
            let m = self.steps[b][prev][i];
            let np = usize::from(m.to) & 31;
            let tile = self.cells[np];
            let closer = (m.closer >> (tile & 31)) & 1;
            let nmd = md + 1 - 2 * closer;
            if nmd == 0 {
                self.found(g, m.k, count - 1 - i);
                return true;
            }
            self.cells[b] = tile;
            self.cells[np] = 0;
            let found = if g + 1 + nmd == self.bound {
                self.tight_md::<LIMITED>(np, nmd, usize::from(m.k))
            } else {
                self.slack_md::<LIMITED>(np, g + 1, nmd, usize::from(m.k))
            };
            if let Some(answer) = self.back::<LIMITED>(found, g, m, b, tile, count - 1 - i) {
                return answer;
            }
        }
        self.c.max_depth = self.c.max_depth.max(g + 1);
        false
    }

    /// The Manhattan-only search below a node with f = bound ("tight"), where most of
    /// the work is: only the children that bring their tile closer to its goal stay
    /// within the bound (the others have f = bound + 2, the next bound), so the test is
    /// one bit of the move's `closer` mask, and g = bound − h need not be carried.
    fn tight_md<const LIMITED: bool>(&mut self, blank: usize, md: u32, prev: usize) -> bool {
        let Some((b, prev, count)) = self.expand::<LIMITED>(blank, prev) else {
            return false;
        };
        for i in 0..count {
            let m = self.steps[b][prev][i];
            let np = usize::from(m.to) & 31;
            let tile = self.cells[np];
            if (m.closer >> (tile & 31)) & 1 == 0 {
                continue;
            }
            if md == 1 {
                self.found(self.bound - 1, m.k, count - 1 - i);
                return true;
            }
            self.cells[b] = tile;
            self.cells[np] = 0;
            let found = self.tight_md::<LIMITED>(np, md - 1, usize::from(m.k));
            let g = self.bound - md;
            if let Some(answer) = self.back::<LIMITED>(found, g, m, b, tile, count - 1 - i) {
                return answer;
            }
        }
        self.min_tight_md = self.min_tight_md.min(md);
        false
    }

    /// Expands the node with the blank at `blank`, reached by move `prev` (4 = none):
    /// its moves are `steps[b][prev][..count]`, returned as `(b, prev, count)` with the
    /// indices clamped for the compiler, or `None` at the expansion limit. Every child is
    /// generated (pruned or not), so all are counted here at once; the children after a
    /// goal are taken back off when it is found.
    #[inline(always)]
    fn expand<const LIMITED: bool>(
        &mut self,
        blank: usize,
        prev: usize,
    ) -> Option<(usize, usize, usize)> {
        if LIMITED && self.c.expanded >= self.c.limit && self.c.at_limit(self.stop) {
            return None;
        }
        self.c.expanded += 1;
        let (b, prev) = (blank & 31, prev.min(4));
        let count = usize::from(self.nmoves[b][prev]).min(4);
        self.c.generated += count as u64;
        Some((b, prev, count))
    }

    /// After the search below a child (move `m` from a node at depth `g` with the blank
    /// at `b`, which moved `tile`; `unseen` children of the node still to come, counted
    /// ahead): on success records the move, else undoes it; `Some(answer)` when the
    /// node must return at once (the goal was found or the limit reached).
    #[inline(always)]
    fn back<const LIMITED: bool>(
        &mut self,
        found: bool,
        g: u32,
        m: Step,
        b: usize,
        tile: u8,
        unseen: usize,
    ) -> Option<bool> {
        if found {
            self.path[g as usize % MAX_PATH] = m.k;
            self.c.generated -= unseen as u64;
            return Some(true);
        }
        self.cells[usize::from(m.to) & 31] = tile;
        self.cells[b] = 0;
        if LIMITED && self.c.limit_reached {
            self.c.generated -= unseen as u64;
            return Some(false);
        }
        None
    }

    /// One iteration of the Manhattan-only search from the start (blank at `blank`,
    /// Manhattan `md`); sets the next bound.
    fn iterate_md(&mut self, blank: usize, md: u32, limited: bool) -> bool {
        let (generated, expanded) = (self.c.generated, self.c.expanded);
        self.min_tight_md = u32::MAX;
        let found = match (md == self.bound, limited) {
            (true, true) => self.tight_md::<true>(blank, md, 4),
            (true, false) => self.tight_md::<false>(blank, md, 4),
            (false, true) => self.slack_md::<true>(blank, 0, md, 4),
            (false, false) => self.slack_md::<false>(blank, 0, md, 4),
        };
        if self.min_tight_md != u32::MAX {
            self.c.max_depth = self.c.max_depth.max(self.bound + 1 - self.min_tight_md);
        }
        // Only tight nodes prune, and only children with f = bound + 2; every child
        // generated is expanded or pruned, so something was pruned exactly when more
        // children were generated than expanded (the start is expanded, not generated).
        let children = self.c.generated - generated;
        let expanded_children = (self.c.expanded - expanded).saturating_sub(1);
        if !found && children > expanded_children {
            self.next_bound = self.bound + 2;
        }
        found
    }

    /// Records a goal generated by move `k` from a node at depth `g`; `unseen` children
    /// of that node come after it and were counted ahead, so they are taken back off.
    fn found(&mut self, g: u32, k: u8, unseen: usize) {
        self.path[g as usize % MAX_PATH] = k;
        self.c.generated -= unseen as u64;
        self.c.max_depth = self.c.max_depth.max(g + 1);
        self.found_len = g as usize + 1;
    }

    /// Depth-first search with linear conflicts (`LC`) and/or corner tiles and last
    /// moves (`EX`) below the current board (blank at `blank`, cost `g`,
    /// Manhattan `md`, linear conflicts `lc`, corner and last-move penalty `ex`), never
    /// undoing move `prev` (4 = none).
    fn dfs<const LC: bool, const EX: bool>(
        &mut self,
        blank: usize,
        g: u32,
        md: u32,
        (lc, ex): (u32, u32),
        prev: usize,
    ) -> bool {
        if self.c.expanded >= self.c.limit && self.c.at_limit(self.stop) {
            return false;
        }
        self.c.expanded += 1;
        let (b, prev) = (blank & 31, prev.min(4));
        let count = usize::from(self.nmoves[b][prev]).min(4);
        for i in 0..count {
            let m = self.steps[b][prev][i];
            let np = usize::from(m.to) & 31;
            let tile = self.cells[np];
            self.c.generated += 1;
            let nmd = md + 1 - 2 * ((m.closer >> (tile & 31)) & 1);
            // Apply the move. Only the moved tile's goal line can change its conflicts,
            // and only if the tile leaves or enters that line.
            self.cells[b] = tile;
            self.cells[np] = 0;
            if EX {
                self.pos[usize::from(tile)] = b as u8;
            }
            let gl = self.goal_line[usize::from(m.vertical)][usize::from(tile & 31)];
            let line = if LC && (gl == m.lines[0] || gl == m.lines[1]) {
                usize::from(gl)
            } else {
                usize::MAX
            };
            let mut saved = (0, 0);
            let mut nlc = lc;
            if LC && line != usize::MAX {
                saved = (self.line_pen[line], self.line_mask[line]);
                let (p, along) = self.lines.line(&self.cells, line);
                nlc = lc - saved.0 + p;
                self.line_pen[line] = p;
                // Only the corner and last-move penalty reads which tiles are charged.
                if EX {
                    self.line_mask[line] = self.lines.tiles(&self.cells, line, along);
                }
            }
            let touched = (self.ex_cells >> b | self.ex_cells >> np | self.ex_tiles >> tile) & 1;
            let nex = if EX && (touched != 0 || nmd == 0 || line != usize::MAX) {
                let charged = if LC { self.charged() } else { 0 };
                self.t
                    .corner_and_last(&self.cells, &self.pos, charged, nmd, self.corner, self.last)
            } else {
                ex
            };
            let f = g + 1 + nmd + nlc + nex;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
            } else if nmd == 0 {
                self.found(g, m.k, 0);
                return true;
            } else {
                self.path[g as usize % MAX_PATH] = m.k;
                if self.dfs::<LC, EX>(np, g + 1, nmd, (nlc, nex), usize::from(m.k)) {
                    return true;
                }
            }
            if LC && line != usize::MAX {
                self.line_pen[line] = saved.0;
                self.line_mask[line] = saved.1;
            }
            self.cells[np] = tile;
            self.cells[b] = 0;
            if EX {
                self.pos[usize::from(tile)] = np as u8;
            }
            if self.c.limit_reached {
                return false;
            }
        }
        if g + 1 > self.c.max_depth {
            self.c.max_depth = g + 1;
        }
        false
    }
}

impl Iterate for Search<'_> {
    fn iterate(&mut self, bound: u32) -> Iteration {
        self.bound = bound;
        self.next_bound = u32::MAX;
        let (blank, md, lc) = (self.blank, self.md, self.lc);
        let h = self.heuristic;
        let charged = if h.linear() { self.charged() } else { 0 };
        let ex =
            self.t
                .corner_and_last(&self.cells, &self.pos, charged, md, self.corner, self.last);
        let found = match (h.linear(), h.corner() || h.last()) {
            (false, false) => self.iterate_md(blank, md, self.c.limit != u64::MAX),
            (true, false) => self.dfs::<true, false>(blank, 0, md, (lc, 0), 4),
            (false, true) => self.dfs::<false, true>(blank, 0, md, (0, ex), 4),
            (true, true) => self.dfs::<true, true>(blank, 0, md, (lc, ex), 4),
        };
        Iteration {
            found: found.then(|| self.path[..self.found_len].to_vec()),
            next_bound: self.next_bound,
        }
    }

    fn counters(&mut self) -> &mut Counters {
        &mut self.c
    }
}

/// The Manhattan search's moves: `steps[cell][prev]` and their number `nmoves[cell][prev]`.
type StepTables = ([[[Step; 4]; 5]; 32], [[u8; 5]; 32]);

fn step_tables(t: &Tables, moves: &Moves, cells: usize) -> StepTables {
    let mut steps = [[[Step::default(); 4]; 5]; 32];
    let mut nmoves = [[0u8; 5]; 32];
    for c in 0..cells {
        for prev in 0..5 {
            for (k, &q) in moves.nbr[c].iter().enumerate() {
                if (prev < 4 && k == moves.inverse[prev]) || q == NONE {
                    continue;
                }
                let closer = (1..cells)
                    .filter(|&tile| t.md[tile][c] < t.md[tile][usize::from(q)])
                    .fold(0u32, |mask, tile| mask | 1 << tile);
                let vertical = moves.vertical[k];
                let (w, q) = (t.width, usize::from(q));
                let lines = match vertical {
                    true => [c / w, q / w],
                    false => [t.height + c % w, t.height + q % w],
                };
                steps[c][prev][usize::from(nmoves[c][prev])] = Step {
                    closer,
                    to: q as u8,
                    k: k as u8,
                    vertical,
                    lines: lines.map(|l| l as u8),
                };
                nmoves[c][prev] += 1;
            }
        }
    }
    (steps, nmoves)
}

/// The goal lines of the tiles, by direction of move ([`Search::goal_line`]).
fn goal_lines(t: &Tables) -> [[u8; 32]; 2] {
    let mut lines = [[u8::MAX; 32]; 2];
    for (tile, (across, along)) in t.goal_col.iter().zip(t.goal_row).enumerate() {
        if (1..=t.max_tile).contains(&tile) {
            lines[0][tile] = (t.height + usize::from(*across)) as u8;
            lines[1][tile] = along;
        }
    }
    lines
}

impl<'a> Search<'a> {
    fn new(t: &'a Tables, start: &Board, heuristic: Heuristic, order: MoveOrder) -> Search<'a> {
        let moves = Moves::new(start.shape(), order);
        let mut pos = [0u8; MAX_CELLS + 1];
        for (c, &tile) in start.tiles().iter().enumerate() {
            pos[tile as usize] = c as u8;
        }
        let mut cells = [0u8; 32];
        cells[..MAX_CELLS].copy_from_slice(&start.cells);
        let (steps, nmoves) = step_tables(t, &moves, start.shape().cells());
        let (ex_cells, ex_tiles) = t.corner_and_last_inputs(heuristic.corner(), heuristic.last());
        let mut s = Search {
            t,
            cells,
            steps,
            nmoves,
            pos,
            moves,
            line_pen: [0; 10],
            line_mask: [0; 10],
            lines: LineTable::new(t.width, t.height, &t.goal_cell[..=t.max_tile]),
            ex_cells,
            ex_tiles,
            goal_line: goal_lines(t),
            corner: heuristic.corner(),
            last: heuristic.last(),
            heuristic,
            blank: start.blank(),
            md: t.manhattan(&start.cells),
            lc: 0,
            bound: 0,
            next_bound: u32::MAX,
            c: Counters::new(None),
            min_tight_md: u32::MAX,
            found_len: 0,
            path: [0; MAX_PATH],
            stop: None,
        };
        if heuristic.linear() {
            for line in 0..t.lines() {
                let (p, m) = t.line_conflicts(&start.cells, line);
                s.line_pen[line] = p;
                s.line_mask[line] = m;
                s.lc += p;
            }
        }
        debug_assert_eq!(s.lc_total(), s.lc);
        s
    }
}

/// IDA* on a one-blank board towards `goal` (which the caller has checked reachable),
/// with the given heuristic and move order. Gives up when it is about to expand node
/// number `expand_limit + 1`.
pub fn solve(
    start: &Board,
    goal: &Board,
    heuristic: Heuristic,
    order: MoveOrder,
    expand_limit: Option<u64>,
) -> IdaResult {
    solve_with(
        start,
        goal,
        heuristic,
        order,
        Control::limited(expand_limit),
    )
}

/// [`solve`] under a [`Control`]: with a limit, resumed from a checkpoint, observed
/// iteration by iteration.
pub fn solve_with(
    start: &Board,
    goal: &Board,
    heuristic: Heuristic,
    order: MoveOrder,
    control: Control,
) -> IdaResult {
    assert_eq!(start.blanks(), 1, "the fast IDA* handles one blank");
    let t = Tables::new(goal);
    let mut s = Search::new(&t, start, heuristic, order);
    s.c = Counters::new(control.limits.expansions);
    s.stop = control.cancel();
    let h0 = t.evaluate(&start.cells, heuristic);
    let (at_goal, moves) = (s.md == 0, s.moves);
    super::deepen::deepen(&mut s, h0, at_goal, &moves, control)
}
