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
//! Counting (Korf 1985): `generated` is every child generated, summed over all
//! iterations, plus the start node once; `expanded` is every node whose children were
//! generated; the last iteration stops when the goal is generated.

use super::board::{Board, Dir, MAX_CELLS, MoveOrder};
use super::heuristic::{Heuristic, Tables};
use std::time::Instant;

/// What one IDA* run found.
#[derive(Debug, Clone, PartialEq)]
pub struct IdaResult {
    pub h0: u32,
    pub thresholds: Vec<u32>,
    /// The blank's moves from the start to the goal, if found.
    pub moves: Option<Vec<Dir>>,
    pub generated: u64,
    pub expanded: u64,
    /// Deepest path examined (the memory an IDA* needs).
    pub max_depth: u32,
    /// True when the search stopped at its expansion limit.
    pub limit_reached: bool,
    pub seconds: f64,
}

impl IdaResult {
    pub fn solution_length(&self) -> Option<usize> {
        self.moves.as_ref().map(Vec::len)
    }

    pub fn thresholds_text(&self) -> String {
        self.thresholds
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

const NONE: u8 = u8::MAX;

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
}
const MAX_PATH: usize = 512;

struct Search<'a> {
    t: &'a Tables,
    /// The board (cells beyond the board are 0); 32 entries so that `& 31` indexing
    /// needs no bounds checks in the Manhattan loop.
    cells: [u8; 32],
    /// `steps[cell][prev]`: the blank's moves from `cell` other than the inverse of
    /// `prev` (4 = none); `nmoves` counts them.
    steps: [[[Step; 4]; 5]; 32],
    nmoves: [[u8; 5]; 32],
    pos: [u8; MAX_CELLS + 1],
    /// `nbr[cell][k]`: the cell the blank reaches from `cell` with the k-th move of the
    /// order, or NONE.
    nbr: [[u8; 4]; MAX_CELLS],
    /// `inverse[k]`: the index in the order of the k-th move's inverse.
    inverse: [usize; 4],
    /// True when the k-th move of the order is vertical (changes the tile's row).
    vertical: [bool; 4],
    line_pen: [u32; 10],
    line_mask: [u32; 10],
    corner: bool,
    last: bool,
    bound: u32,
    next_bound: u32,
    generated: u64,
    expanded: u64,
    limit: u64,
    limit_reached: bool,
    max_depth: u32,
    /// The smallest h of a tight node searched to the end this iteration (its depth
    /// is bound − h, so this gives the deepest path the tight search examined).
    min_tight_md: u32,
    found_len: usize,
    path: [u8; MAX_PATH],
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
        self.max_depth = self.max_depth.max(g + 1);
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
        if LIMITED && self.expanded >= self.limit {
            self.limit_reached = true;
            return None;
        }
        self.expanded += 1;
        let (b, prev) = (blank & 31, prev.min(4));
        let count = usize::from(self.nmoves[b][prev]).min(4);
        self.generated += count as u64;
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
            self.generated -= unseen as u64;
            return Some(true);
        }
        self.cells[usize::from(m.to) & 31] = tile;
        self.cells[b] = 0;
        if LIMITED && self.limit_reached {
            self.generated -= unseen as u64;
            return Some(false);
        }
        None
    }

    /// One iteration of the Manhattan-only search from the start (blank at `blank`,
    /// Manhattan `md`); sets the next bound.
    fn iterate_md(&mut self, blank: usize, md: u32, limited: bool) -> bool {
        let (generated, expanded) = (self.generated, self.expanded);
        self.min_tight_md = u32::MAX;
        let found = match (md == self.bound, limited) {
            (true, true) => self.tight_md::<true>(blank, md, 4),
            (true, false) => self.tight_md::<false>(blank, md, 4),
            (false, true) => self.slack_md::<true>(blank, 0, md, 4),
            (false, false) => self.slack_md::<false>(blank, 0, md, 4),
        };
        if self.min_tight_md != u32::MAX {
            self.max_depth = self.max_depth.max(self.bound + 1 - self.min_tight_md);
        }
        // Only tight nodes prune, and only children with f = bound + 2; every child
        // generated is expanded or pruned, so something was pruned exactly when more
        // children were generated than expanded (the start is expanded, not generated).
        let children = self.generated - generated;
        let expanded_children = (self.expanded - expanded).saturating_sub(1);
        if !found && children > expanded_children {
            self.next_bound = self.bound + 2;
        }
        found
    }

    /// Records a goal generated by move `k` from a node at depth `g`; `unseen` children
    /// of that node come after it and were counted ahead, so they are taken back off.
    fn found(&mut self, g: u32, k: u8, unseen: usize) {
        self.path[g as usize % MAX_PATH] = k;
        self.generated -= unseen as u64;
        self.max_depth = self.max_depth.max(g + 1);
        self.found_len = g as usize + 1;
    }

    /// Depth-first search with linear conflicts (`LC`) and/or corner tiles and last
    /// moves (`EX`) below the current board (blank at `blank`, cost `g`,
    /// Manhattan `md`, linear conflicts `lc`), never undoing move `prev` (4 = none).
    fn dfs<const LC: bool, const EX: bool>(
        &mut self,
        blank: usize,
        g: u32,
        md: u32,
        lc: u32,
        prev: usize,
    ) -> bool {
        if self.expanded >= self.limit {
            self.limit_reached = true;
            return false;
        }
        self.expanded += 1;
        let w = self.t.width;
        let h_lines = self.t.height;
        for k in 0..4 {
            if prev < 4 && k == self.inverse[prev] {
                continue;
            }
            let np = self.nbr[blank][k];
            if np == NONE {
                continue;
            }
            let np = np as usize;
            let tile = self.cells[np] as usize;
            self.generated += 1;
            let nmd = md + u32::from(self.t.md[tile][blank]) - u32::from(self.t.md[tile][np]);
            // Apply the move. Only the moved tile's goal line can change its conflicts,
            // and only if the tile leaves or enters that line.
            self.cells[blank] = tile as u8;
            self.cells[np] = 0;
            self.pos[tile] = blank as u8;
            self.pos[0] = np as u8;
            let line = if self.vertical[k] {
                let gl = self.t.goal_row[tile] as usize;
                if gl == blank / w || gl == np / w {
                    gl
                } else {
                    usize::MAX
                }
            } else {
                let gl = self.t.goal_col[tile] as usize;
                if gl == blank % w || gl == np % w {
                    h_lines + gl
                } else {
                    usize::MAX
                }
            };
            let mut saved = (0, 0);
            let mut nlc = lc;
            if LC && line != usize::MAX {
                saved = (self.line_pen[line], self.line_mask[line]);
                let (p, m) = self.t.line_conflicts(&self.cells, line);
                nlc = lc - saved.0 + p;
                self.line_pen[line] = p;
                self.line_mask[line] = m;
            }
            let ex = if EX {
                let charged = if LC { self.charged() } else { 0 };
                self.t
                    .corner_and_last(&self.cells, &self.pos, charged, nmd, self.corner, self.last)
            } else {
                0
            };
            let f = g + 1 + nmd + nlc + ex;
            let mut found = false;
            if f > self.bound {
                if f < self.next_bound {
                    self.next_bound = f;
                }
            } else if nmd == 0 {
                self.found(g, k as u8, 0);
                return true;
            } else {
                self.path[g as usize] = k as u8;
                found = self.dfs::<LC, EX>(np, g + 1, nmd, nlc, k);
            }
            if found {
                return true;
            }
            if LC && line != usize::MAX {
                self.line_pen[line] = saved.0;
                self.line_mask[line] = saved.1;
            }
            self.cells[np] = tile as u8;
            self.cells[blank] = 0;
            self.pos[tile] = np as u8;
            self.pos[0] = blank as u8;
            if self.limit_reached {
                return false;
            }
        }
        if g + 1 > self.max_depth {
            self.max_depth = g + 1;
        }
        false
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
    assert_eq!(start.blanks(), 1, "the fast IDA* handles one blank");
    let t = Tables::new(goal);
    let shape = start.shape();
    let mut nbr = [[NONE; 4]; MAX_CELLS];
    for (c, row) in nbr.iter_mut().enumerate().take(shape.cells()) {
        for (k, d) in order.0.into_iter().enumerate() {
            if let Some(q) = shape.neighbour(c, d) {
                row[k] = q as u8;
            }
        }
    }
    let mut inverse = [0; 4];
    let mut vertical = [false; 4];
    for (k, d) in order.0.into_iter().enumerate() {
        inverse[k] = order.0.iter().position(|&e| e == d.inverse()).unwrap_or(0);
        vertical[k] = matches!(d, Dir::Up | Dir::Down);
    }
    let mut pos = [0u8; MAX_CELLS + 1];
    for (c, &tile) in start.tiles().iter().enumerate() {
        pos[tile as usize] = c as u8;
    }
    let mut cells = [0u8; 32];
    cells[..MAX_CELLS].copy_from_slice(&start.cells);
    let mut steps = [[[Step::default(); 4]; 5]; 32];
    let mut nmoves = [[0u8; 5]; 32];
    for c in 0..shape.cells() {
        for prev in 0..5 {
            for (k, &q) in nbr[c].iter().enumerate() {
                if (prev < 4 && k == inverse[prev]) || q == NONE {
                    continue;
                }
                let closer = (1..shape.cells())
                    .filter(|&tile| t.md[tile][c] < t.md[tile][usize::from(q)])
                    .fold(0u32, |mask, tile| mask | 1 << tile);
                steps[c][prev][usize::from(nmoves[c][prev])] = Step {
                    closer,
                    to: q,
                    k: k as u8,
                };
                nmoves[c][prev] += 1;
            }
        }
    }
    let mut s = Search {
        t: &t,
        cells,
        steps,
        nmoves,
        pos,
        nbr,
        inverse,
        vertical,
        line_pen: [0; 10],
        line_mask: [0; 10],
        corner: heuristic.corner(),
        last: heuristic.last(),
        bound: 0,
        next_bound: u32::MAX,
        generated: 1,
        expanded: 0,
        limit: expand_limit.unwrap_or(u64::MAX),
        limit_reached: false,
        max_depth: 0,
        min_tight_md: u32::MAX,
        found_len: 0,
        path: [0; MAX_PATH],
    };
    let mut lc = 0;
    if heuristic.linear() {
        for line in 0..t.lines() {
            let (p, m) = t.line_conflicts(&start.cells, line);
            s.line_pen[line] = p;
            s.line_mask[line] = m;
            lc += p;
        }
    }
    let md = t.manhattan(&start.cells);
    let h0 = t.evaluate(&start.cells, heuristic);
    debug_assert_eq!(s.lc_total(), lc);
    let started = Instant::now();
    let mut thresholds = Vec::new();
    let mut moves = None;
    let blank = start.blank();
    if md == 0 {
        thresholds.push(h0);
        moves = Some(Vec::new());
    } else {
        s.bound = h0;
        loop {
            thresholds.push(s.bound);
            s.next_bound = u32::MAX;
            let found = match (heuristic.linear(), heuristic.corner() || heuristic.last()) {
                (false, false) => s.iterate_md(blank, md, expand_limit.is_some()),
                (true, false) => s.dfs::<true, false>(blank, 0, md, lc, 4),
                (false, true) => s.dfs::<false, true>(blank, 0, md, 0, 4),
                (true, true) => s.dfs::<true, true>(blank, 0, md, lc, 4),
            };
            if found {
                let path = s.path[..s.found_len]
                    .iter()
                    .map(|&k| order.0[k as usize])
                    .collect();
                moves = Some(path);
                break;
            }
            if s.limit_reached || s.next_bound == u32::MAX || s.next_bound as usize >= MAX_PATH {
                break;
            }
            s.bound = s.next_bound;
        }
    }
    IdaResult {
        h0,
        thresholds,
        moves,
        generated: s.generated,
        expanded: s.expanded,
        max_depth: s.max_depth,
        limit_reached: s.limit_reached,
        seconds: started.elapsed().as_secs_f64(),
    }
}
