//! The fast IDA* with a pattern-database heuristic ([`super::pdb`]), serial and parallel.
//!
//! Same conventions as [`super::ida`], under the same driver ([`super::deepen`]: the
//! thresholds, the counts and the checkpoints), serial or parallel: the move order is
//! given, the move undoing the previous one is never generated (or, with
//! [`Pruning::Fsm`], every duplicate sequence of [`super::fsm`]). The board is one array updated in
//! place and the heuristic incrementally: a move changes one tile's Manhattan distance and,
//! in each sum the heuristic maximises over (an *orientation*: a partition of the state,
//! or of its reflection), the rank of one pattern, so each child costs a rank and a
//! lookup per orientation. When every table has a spread copy ([`super::pdb::Spread`],
//! indexed by the tiles' cells), the rank is an index into it, and a move adds one
//! multiple of the tile's place value to it instead of re-ranking the pattern (what a
//! lookup needs of the tile, its table and its index's change for each move, is gathered
//! in one record per tile and orientation); the values and so the counts are the packed
//! tables'. The orientation with the node's largest sum (found by the node's own lookups)
//! is looked up first in its children (the likeliest to prune them), the others only
//! while the maximum so far neither prunes the child nor stops it from lowering the next
//! bound, so the counts are those of the full maximum, whatever the partitions' order.
//!
//! **The lean search** (`lean.rs`). Where it fits (the default: spread copies at 4 bits an
//! entry, 1, 2, 4 or 8 plain orientations of up to four patterns covering every tile, no
//! pathmax, children in move order), the search runs a copy of its depth-first search cut
//! down to that case: one frame of sums, indexes and values a depth instead of undo
//! records, and no branch between a child's lookups once the first has not pruned it.
//! It searches the same nodes to the same counts in 40% fewer instructions (a test
//! compares the two); the general search remains for every other case.
//!
//! **Dual lookups and pathmax** ([`Options::dual`], [`Options::bpmx`]). A dual
//! orientation reads a partition's tables at the state whose tiles and cells trade places
//! (tile t's position is the tile on cell t): a move changes one of its items, so a child
//! costs at most one read there too. Pathmax cuts a node off when a child's f passes the
//! bound by more than two, before its later children are generated.
//!
//! **Parallel search** ([`solve_parallel`]). Each iteration enumerates the tree down to
//! a frontier depth (deepened until there are enough subtrees), then the threads take the
//! frontier's subtrees in depth-first order from a shared counter. The counts of an
//! iteration without a goal are sums over subtrees, the same whatever the number of
//! threads. In the last iteration the subtrees before the first one (in depth-first
//! order) holding a goal are searched to the end, those after it are abandoned and not
//! counted: the reported totals and the solution are exactly those of the serial search,
//! node for node, whatever the number of threads (the abandoned work costs time only).
//! Under an expansion limit, the threads share the expansions left; an iteration that
//! would pass them (the top alone, or the subtrees together) is given up and searched
//! again serially up to the limit, so the search stops at the serial search's node.

use super::board::{Board, MAX_CELLS, MoveOrder};
use super::deepen::{Control, Counters, IdaResult, Iterate, Iteration, MAX_PATH, Moves, NONE};
use super::fsm::{Fsm, Pruning};
use super::pdb::{Entries, Grid, MAX_PARTS, PdbHeuristic, Spread, Table, ZeroTable};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

mod lean;

const MAX_GROUPS: usize = MAX_CELLS;

/// A node where the top of the tree was cut, with the counts at the moment it was
/// generated.
#[derive(Clone)]
struct Frontier {
    cells: [u8; 32],
    blank: usize,
    md: u32,
    /// The pruning state below the node ([`Search::dfs`]).
    state: u32,
    /// The orientation looked up first in its children ([`Child::first`]).
    first: usize,
    path: Vec<u8>,
    generated: u64,
    expanded: u64,
    /// Its patterns in each orientation (a zero-aware value costs a walk to recompute).
    pats: Vec<Patterns>,
}

/// The patterns of one state (the searched one, or its reflection): each pattern's tile
/// cells, the set of them, rank and stored value, updated move by move, and the values'
/// sum.
#[derive(Clone, Default)]
struct Patterns {
    /// `pos[g][i]`: the cell of tile i of pattern g. Set from the board, then kept move by
    /// move only by the lookups that read it (packed and zero-aware tables, dual
    /// orientations): a plain orientation's index into a spread copy moves by the cell
    /// the tile left and the one it entered, both known from the board.
    pos: [[u8; MAX_CELLS]; MAX_GROUPS],
    /// `taken[g]`: the cells of pattern g's tiles, a bit each (kept as `pos` is).
    taken: [u32; MAX_GROUPS],
    /// Bit g: the blank is in the main region of pattern g (zero-aware tables only).
    main: u32,
    rank: [u32; MAX_GROUPS],
    val: [u32; MAX_GROUPS],
    sum: u32,
}

/// What a pattern's update changed: its old value, rank and main-region bits (in a
/// spread copy, which has no regions, the old sum).
type Old = (u32, u32, u32);

/// How the search reads a table: by perfect rank from the packed table, by cells from its
/// spread copy, or by cells from the zero-aware table's bits.
const PACKED: u8 = 0;
const SPREAD: u8 = 1;
const ZERO: u8 = 2;
/// A `LOOKUP` bit: some orientations are dual ones ([`Orientation::dual`]), so the search
/// without them compiles without their branches.
const DUAL: u8 = 4;
/// The bits of a `LOOKUP` that say how the tables are read.
const KIND: u8 = 3;
/// The two `LOOKUP`s with dual orientations (plain tables only).
const DUAL_SPREAD: u8 = SPREAD | DUAL;
const DUAL_PACKED: u8 = PACKED | DUAL;

impl Patterns {
    /// Ranks and looks up every pattern from `pos` (the blank on `blank`), group g's
    /// table being `h`'s table `groups[g]`, read as `lookup` says.
    fn rank_all(&mut self, h: &PdbHeuristic, lookup: u8, groups: &[u8], blank: u8) {
        self.sum = 0;
        self.main = 0;
        for (g, &t) in groups.iter().enumerate() {
            let t = usize::from(t);
            let pos = &self.pos[g][..h.group_len(t)];
            self.taken[g] = pos.iter().fold(0, |m, &c| m | 1 << c);
            if lookup == ZERO && h.zero[t].in_main(self.taken[g], blank) {
                self.main |= 1 << g;
            }
            (self.rank[g], self.val[g]) = match lookup {
                ZERO => (h.zero[t].index(pos), h.zero[t].value(pos, blank)),
                SPREAD => {
                    let s = &h.spreads()[t];
                    (s.index(pos), s.get(s.index(pos)))
                }
                _ => {
                    let table = &h.tables[t];
                    let r = table.pattern.rank(pos);
                    (r, table.get(r))
                }
            };
            self.sum += self.val[g];
        }
    }

    /// Ranks and looks up the patterns of a dual orientation from `pos`, the item
    /// `missing` (group, index; the one on the blank's cell, if any) left out, the sum
    /// over the patterns `valid`. A pattern's rank is, with spread copies, the sum over its
    /// items there of their place values times their cells, so that an item entering or
    /// leaving adds or takes its term.
    fn rank_dual(
        &mut self,
        h: &PdbHeuristic,
        lookup: u8,
        groups: &[u8],
        missing: (usize, usize),
        valid: u32,
    ) {
        self.main = 0;
        for (g, &t) in groups.iter().enumerate() {
            let t = usize::from(t);
            (self.rank[g], self.val[g]) = (0, 0);
            if g != missing.0 {
                (self.rank[g], self.val[g]) = read_whole(h, lookup, t, &self.pos[g]);
            } else if lookup == SPREAD {
                let s = &h.spreads()[t];
                self.rank[g] = (0..h.group_len(t))
                    .filter(|&i| i != missing.1)
                    .map(|i| u32::from(self.pos[g][i]) * s.place(i))
                    .sum();
            }
        }
        self.sum_over(valid);
    }

    /// Sets the sum to the values of the patterns in `valid` (a bit each).
    #[inline(always)]
    fn sum_over(&mut self, mut valid: u32) {
        self.sum = 0;
        while valid != 0 {
            self.sum += self.val[valid.trailing_zeros() as usize];
            valid &= valid - 1;
        }
    }

    /// A move in a dual orientation (see [`Orientation::dual`]), group g's table being
    /// `tables[g]`: the item of the cell the blank moved to, `gone` (group, index), leaves
    /// its pattern; the item of the cell the blank left, `come`, enters its pattern on
    /// cell `to`, which is read when it is whole again; the sum is then over the patterns
    /// `valid` with the blank on its new cell. Returns the entered pattern's old (value,
    /// rank) and the old sum.
    #[inline(always)]
    fn update_dual<const LOOKUP: u8>(
        &mut self,
        h: &PdbHeuristic,
        spreads: &[Spread],
        tables: &[u8; MAX_GROUPS],
        moved: [(usize, usize); 2],
        to: u8,
        valid: u32,
    ) -> Old {
        let [(gq, iq), (gb, ib)] = moved;
        let mut old = (0, 0, self.sum);
        if LOOKUP & KIND == SPREAD && gq < MAX_GROUPS {
            let place = spreads[usize::from(tables[gq])].place(iq);
            self.rank[gq] -= u32::from(self.pos[gq][iq]) * place;
        }
        if gb < MAX_GROUPS {
            old = (self.val[gb], self.rank[gb], self.sum);
            self.pos[gb][ib] = to;
            let t = usize::from(tables[gb]);
            if LOOKUP & KIND == SPREAD {
                self.rank[gb] += u32::from(to) * spreads[t].place(ib);
                if gb != gq {
                    self.val[gb] = spreads[t].get(self.rank[gb]);
                }
            } else if gb != gq {
                (self.rank[gb], self.val[gb]) = read_whole(h, LOOKUP & KIND, t, &self.pos[gb]);
            }
        }
        self.sum_over(valid);
        old
    }

    /// Undoes [`Self::update_dual`]: the item that entered pattern `come` leaves it, the
    /// one that left, `gone`, is back on cell `at` (its pattern's value was kept, left out
    /// of the sum while it lacked the item).
    #[inline(always)]
    fn undo_dual<const LOOKUP: u8>(
        &mut self,
        spreads: &[Spread],
        tables: &[u8; MAX_GROUPS],
        moved: [(usize, usize); 2],
        at: u8,
        old: Old,
    ) {
        let [(gq, iq), (gb, _)] = moved;
        if gb < MAX_GROUPS {
            (self.val[gb], self.rank[gb]) = (old.0, old.1);
        }
        if gq < MAX_GROUPS {
            self.pos[gq][iq] = at;
            if LOOKUP & KIND == SPREAD {
                let place = spreads[usize::from(tables[gq])].place(iq);
                self.rank[gq] += u32::from(at) * place;
            }
        }
        self.sum = old.2;
    }

    /// Moves tile `i` of pattern `g` from its cell to `to` in the set of taken cells;
    /// returns the cell it left.
    #[inline(always)]
    fn move_tile(&mut self, g: usize, i: usize, to: u8) -> u8 {
        let from = std::mem::replace(&mut self.pos[g][i], to);
        self.taken[g] ^= (1 << from) | (1 << to);
        from
    }

    /// Moves tile `i` of pattern `g` (whose table is `table`) to cell `to`: its rank and
    /// value updated; returns what [`Self::undo`] restores.
    #[inline(always)]
    fn update(&mut self, table: &Table, g: usize, i: usize, to: u8) -> Old {
        let pos = &self.pos[g];
        let r = table
            .pattern
            .rank_moved(&pos[..table.pattern.len()], self.rank[g], i, to);
        self.move_tile(g, i, to);
        self.set(g, r, table.get(r))
    }

    /// [`Self::update`] with ranks that are indexes into spread copies: the index moves
    /// by `step`, the cells' change times the tile's place ([`SpreadItem`]). Nothing else
    /// needs the tiles' cells here, so they are not kept. Returns the old (value, rank,
    /// sum), which [`Self::restore_spread`] puts back.
    #[inline(always)]
    fn update_spread(&mut self, entries: Entries, g: usize, step: i32) -> Old {
        let old = (self.val[g], self.rank[g], self.sum);
        let r = old.1.wrapping_add_signed(step);
        let v = entries.get(r);
        self.val[g] = v;
        self.rank[g] = r;
        self.sum = old.2 + v - old.0;
        old
    }

    /// Undoes [`Self::update_spread`] of pattern `g`.
    #[inline(always)]
    fn restore_spread(&mut self, g: usize, old: Old) {
        (self.val[g], self.rank[g], self.sum) = old;
    }

    /// [`Self::update`] with a zero-aware table: the index moves as a spread copy's, the
    /// blank (now on the cell the tile left) is found in the main region or not
    /// ([`ZeroTable::in_main_after`]), and the new state's bit gives the value's change
    /// from the old one, `toward` saying whether the tile moved towards its goal.
    #[inline(always)]
    fn update_zero(&mut self, zero: &ZeroTable, g: usize, i: usize, to: u8, toward: bool) -> Old {
        let old_main = self.main;
        let from = self.move_tile(g, i, to);
        let step = (i32::from(to) - i32::from(from)) * zero.place(i) as i32;
        let r = self.rank[g].wrapping_add_signed(step);
        let taken = self.taken[g];
        let main = zero.in_main_after(old_main & (1 << g) != 0, taken, to, from);
        self.main = (old_main & !(1 << g)) | (u32::from(main) << g);
        let k = zero.pattern.len();
        let bit = zero.bit_in(main, r, &self.pos[g][..k], taken, from);
        let (v, r, _) = self.set(g, r, ZeroTable::step(self.val[g], bit, toward));
        (v, r, old_main)
    }

    /// Sets pattern g's rank and value, returning the old (value, rank, main bits).
    #[inline(always)]
    fn set(&mut self, g: usize, r: u32, v: u32) -> Old {
        let old = (self.val[g], self.rank[g], self.main);
        self.val[g] = v;
        self.rank[g] = r;
        self.sum = self.sum + v - old.0;
        old
    }

    /// Moves tile `i` of pattern `g` back to cell `from`, restoring `old` (value, rank,
    /// main bits) and the sum.
    #[inline(always)]
    fn undo(&mut self, g: usize, i: usize, from: u8, old: Old) {
        self.move_tile(g, i, from);
        self.main = old.2;
        self.sum = self.sum + old.0 - self.val[g];
        self.val[g] = old.0;
        self.rank[g] = old.1;
    }
}

/// Table `t`'s (rank, value) of the whole placement `pos`, read as `lookup` says (plain
/// tables only).
#[inline(always)]
fn read_whole(h: &PdbHeuristic, lookup: u8, t: usize, pos: &[u8]) -> (u32, u32) {
    if lookup == SPREAD {
        let s = &h.spreads()[t];
        let r = s.index(&pos[..h.group_len(t)]);
        return (r, s.get(r));
    }
    let table = &h.tables[t];
    let r = table.pattern.rank(&pos[..table.pattern.len()]);
    (r, table.get(r))
}

/// The orientation looked up `j`-th when `first` is looked up first, the others in order.
#[inline(always)]
fn orientation_at(j: usize, first: usize) -> usize {
    match j {
        0 => first,
        j if j <= first => j - 1,
        j => j,
    }
}

/// The most orientations: each partition, plain and reflected.
const MAX_ORIENT: usize = 2 * MAX_PARTS;
/// The undo records' length for up to four partitions (the default's), a quarter of the
/// most: a node's record is cleared on every expansion.
const FEW_ORIENT: usize = 8;

/// One sum the heuristic maximises over: a partition of the state, or of its reflection,
/// as maps from the searched board's tiles and cells.
#[derive(Clone, Copy)]
struct Orientation {
    /// `group[t]`, `index[t]`: the group and place in it of the tile board tile t stands
    /// for (`NONE`: in no group).
    group: [u8; MAX_CELLS + 1],
    index: [u8; MAX_CELLS + 1],
    /// `cell[c]`: the cell board cell c stands for.
    cell: [u8; MAX_CELLS],
    /// `table[g]`: the heuristic's table of group g.
    table: [u8; MAX_GROUPS],
    groups: usize,
    /// The orientation's dual (Felner, Zahavi, Schaeffer & Holte 2005): the same
    /// partition looked up on the state whose tiles and cells trade places, which is as
    /// far from the goal (tile t on cell t, the blank on cell 0) when the blank is on
    /// its goal cell. Elsewhere the blank's cell has no tile in the dual: the pattern of
    /// that cell's tile is left out of the sum, the rest stay admissible and additive.
    /// An item is a board cell c: its group and index are `group[c]`, `index[c]`, its
    /// cell `cell[t]` for the tile t on c. A table's values count moves to its tiles'
    /// goal cells with the blank in the region of the goal's blank cell, while the dual's
    /// blank ends on the state's blank cell, so a pattern also counts only while that
    /// cell is in the region: `valid[b]` has a bit for each pattern that counts with the
    /// blank on cell b.
    dual: bool,
    valid: [u32; MAX_CELLS],
}

impl Orientation {
    /// This orientation's dual, on `h`'s board (see [`Orientation::dual`]).
    fn dual_of(&self, h: &PdbHeuristic) -> Orientation {
        let grid = Grid::new(h.goal.shape());
        let mut valid = [0u32; MAX_CELLS];
        for g in 0..self.groups {
            let goal_cells = (h.tables[usize::from(self.table[g])].pattern.tiles.iter())
                .fold(0u32, |m, &t| m | 1 << t);
            // The region of cell 0, the goal's blank cell.
            let region = grid.flood(1, grid.all & !goal_cells);
            for (b, v) in valid.iter_mut().enumerate().take(grid.n) {
                let mine = usize::from(self.group[b]) == g;
                if !mine && region & (1 << self.cell[b]) != 0 {
                    *v |= 1 << g;
                }
            }
        }
        Orientation {
            dual: true,
            valid,
            ..*self
        }
    }

    /// The (group, index) of a dual orientation's item of cell `c`.
    #[inline(always)]
    fn item(&self, c: usize) -> (usize, usize) {
        (usize::from(self.group[c]), usize::from(self.index[c]))
    }

    /// Each part of `h`, plain and (when `h` has one) reflected, in that order.
    fn all(h: &PdbHeuristic) -> Vec<Orientation> {
        let mut maps = vec![(
            std::array::from_fn(|t| t as u8),
            std::array::from_fn(|c| c as u8),
        )];
        if let Some(r) = &h.reflection {
            maps.push((r.tile, r.cell));
        }
        let mut out = Vec::new();
        for part in &h.parts {
            for &(tile, cell) in &maps {
                let mut o = Orientation {
                    group: [NONE; MAX_CELLS + 1],
                    index: [0; MAX_CELLS + 1],
                    cell,
                    table: [0; MAX_GROUPS],
                    groups: part.table.len(),
                    dual: false,
                    valid: [0; MAX_CELLS],
                };
                for (t, &mt) in tile.iter().enumerate().take(h.goal.len()).skip(1) {
                    let mt = usize::from(mt);
                    if mt != 0 && part.group[mt] != u8::MAX {
                        o.group[t] = part.group[mt];
                        o.index[t] = part.index[mt];
                    }
                }
                for (g, &i) in part.table.iter().enumerate() {
                    o.table[g] = i as u8;
                }
                out.push(o);
            }
        }
        out
    }
}

/// What a child's lookups changed: the orientations updated (a bit each) and each one's
/// old (value, rank).
struct Undo<const L: usize> {
    touched: u32,
    olds: [Old; L],
}

/// What a lookup in a spread copy needs of a board tile in one orientation, gathered
/// from the orientation, its tables and their place values into one record, so that a
/// child's lookup reads one record where it would follow five maps.
#[derive(Clone, Copy, Default)]
struct SpreadItem<'a> {
    /// The tile's group (`NONE`: in no group, nothing to look up).
    group: u8,
    /// `step[k]`: the change of the group's index when the tile moves into the blank's
    /// cell, the blank making the k-th move of the order: the cells' change (the same
    /// wherever the blank is, the orientation's map of cells being the identity or the
    /// transpose) times the tile's place value ([`Spread::place`]).
    step: [i32; 4],
    /// The group's table.
    entries: Entries<'a>,
}

impl<'a> SpreadItem<'a> {
    /// `items[t]` for each tile t of orientation `or` (none where it is in no group, or
    /// with no spread copies), the moves being `moves` on a board of `cells` cells.
    fn of(or: &Orientation, spreads: &'a [Spread], moves: &Moves, cells: usize) -> [Self; ITEMS] {
        let mut items = [SpreadItem {
            group: NONE,
            ..SpreadItem::default()
        }; ITEMS];
        if spreads.is_empty() || or.dual {
            return items;
        }
        let shift = cell_shifts(or, moves, cells);
        for (t, item) in items.iter_mut().enumerate().take(MAX_CELLS + 1) {
            let g = or.group[t];
            if g != NONE {
                let spread = &spreads[usize::from(or.table[usize::from(g)])];
                let place = spread.place(usize::from(or.index[t])) as i32;
                *item = SpreadItem {
                    group: g,
                    step: shift.map(|d| d * place),
                    entries: spread.entries(),
                };
            }
        }
        items
    }
}

/// `shift[k]`: the change of orientation `or`'s cell of the tile that moves into the
/// blank's cell when the blank makes the k-th move of the order, the same from every cell
/// (checked).
fn cell_shifts(or: &Orientation, moves: &Moves, cells: usize) -> [i32; 4] {
    let mut shift = [None; 4];
    for (blank, nbr) in moves.nbr.iter().enumerate().take(cells) {
        for (k, &np) in nbr.iter().enumerate() {
            if np != NONE {
                let d = i32::from(or.cell[blank]) - i32::from(or.cell[usize::from(np)]);
                assert_eq!(
                    *shift[k].get_or_insert(d),
                    d,
                    "a cell map that is not a symmetry"
                );
            }
        }
    }
    shift.map(|d| d.unwrap_or(0))
}

/// The length of an orientation's [`SpreadItem`]s: a power of two above the tiles, so that
/// a tile indexes them without a bounds check.
const ITEMS: usize = 32;

/// A child entered by [`Search::enter`]: the blank's new cell, the machine's state, the
/// tile moved, the child's Manhattan distance and f.
#[derive(Clone, Copy)]
struct Child {
    np: usize,
    state: u32,
    tile: usize,
    md: u32,
    f: u32,
    /// The orientation with its largest sum, looked up first in its children: the
    /// likeliest to prune them (only meaningful when the child is within the bound).
    first: usize,
}

/// A child's move: `tile` from cell `np` to the blank's cell `blank`, the blank making
/// the k-th move of the order.
#[derive(Clone, Copy)]
struct Moved {
    tile: usize,
    blank: usize,
    np: usize,
    k: usize,
}

/// What [`Search::generate`] made of a move.
enum Generated {
    Not,
    Goal,
    Open(Child),
    /// The child's f shows the node itself beyond the bound ([`Options::bpmx`]).
    Cut,
}

#[derive(Clone)]
struct Search<'a> {
    h: &'a PdbHeuristic,
    /// The tables' spread copies, when the heuristic has them: the patterns' ranks are
    /// then indexes into these.
    spreads: &'a [Spread],
    /// How the tables are read: [`PACKED`], [`SPREAD`] or [`ZERO`].
    lookup: u8,
    moves: Moves,
    /// The duplicate-sequence machine, when pruning with one.
    fsm: Option<&'a Fsm>,
    cells: [u8; 32],
    /// The sums maximised over, and each one's patterns.
    orient: [Orientation; MAX_ORIENT],
    /// `items[o][t]`: what a lookup of tile t in orientation o reads ([`SpreadItem`]).
    items: [[SpreadItem<'a>; ITEMS]; MAX_ORIENT],
    n_orient: usize,
    pats: [Patterns; MAX_ORIENT],
    bound: u32,
    next_bound: u32,
    c: Counters,
    found_len: usize,
    path: [u8; MAX_PATH],
    /// Nodes at this depth are not expanded but collected (the parallel search's top).
    split: u32,
    /// [`Options::order_depth`].
    order_depth: u32,
    /// [`Options::bpmx`].
    bpmx: bool,
    frontier: Vec<Frontier>,
    /// In a subtree of the parallel search: its index and the least index of a subtree
    /// known to hold a goal; the search gives up when the latter drops below the former.
    cancel: Option<(&'a AtomicUsize, usize)>,
    cancelled: bool,
    /// The lean search's frames, one a depth ([`lean`]); empty until it runs.
    frames: Vec<lean::Frame>,
    /// Whether [`Self::run`] may search with [`lean`] where it fits (the tests compare).
    lean: bool,
}

impl<'a> Search<'a> {
    fn new(h: &'a PdbHeuristic, start: &Board, order: MoveOrder, options: Options) -> Search<'a> {
        let mut cells = [0u8; 32];
        cells[..MAX_CELLS].copy_from_slice(&start.cells);
        let fsm = match options.pruning {
            Pruning::Parent => None,
            Pruning::Fsm => Some(Fsm::for_shape(start.shape(), options.fsm_depth)),
        };
        let mut all = Orientation::all(h);
        if options.dual {
            assert!(
                is_identity(&h.goal) && h.zero.is_empty(),
                "dual lookups need plain tables and the blank-first goal"
            );
            let duals: Vec<Orientation> = all.iter().map(|o| o.dual_of(h)).collect();
            all.extend(duals);
        }
        assert!(all.len() <= MAX_ORIENT, "at most {MAX_ORIENT} orientations");
        let mut orient = [all[0]; MAX_ORIENT];
        orient[..all.len()].copy_from_slice(&all);
        let spreads = h.spreads();
        let lookup = match (h.zero.is_empty(), spreads.is_empty()) {
            (false, _) => ZERO,
            (true, false) => SPREAD,
            (true, true) => PACKED,
        };
        let moves = Moves::new(start.shape(), order);
        let n = start.len();
        let items = std::array::from_fn(|o| SpreadItem::of(&orient[o], spreads, &moves, n));
        let mut s = Search {
            h,
            spreads,
            lookup,
            moves,
            fsm,
            cells,
            orient,
            items,
            n_orient: all.len(),
            pats: std::array::from_fn(|_| Patterns::default()),
            bound: 0,
            next_bound: u32::MAX,
            c: Counters::new(None),
            found_len: 0,
            path: [0; MAX_PATH],
            split: u32::MAX,
            order_depth: options.order_depth,
            bpmx: options.bpmx,
            frontier: Vec::new(),
            cancel: None,
            cancelled: false,
            frames: Vec::new(),
            lean: true,
        };
        s.reset_values();
        s
    }

    /// Recomputes the pattern positions and values from `cells`.
    fn reset_values(&mut self) {
        let h = self.h;
        let blank = (0..h.goal.len()).find(|&c| self.cells[c] == 0).unwrap_or(0);
        for (o, pats) in self.orient[..self.n_orient].iter().zip(&mut self.pats) {
            for c in 0..h.goal.len() {
                let t = usize::from(self.cells[c]);
                // A tile, or in the dual, the item of cell c on the tile's cell.
                let (item, cell) = if o.dual {
                    (c, o.cell[t])
                } else {
                    (t, o.cell[c])
                };
                let g = o.group[item];
                if g != NONE && t != 0 {
                    pats.pos[usize::from(g)][usize::from(o.index[item])] = cell;
                }
            }
            if o.dual {
                let valid = o.valid[blank];
                let missing = o.item(blank);
                pats.rank_dual(h, self.lookup, &o.table[..o.groups], missing, valid);
            } else {
                pats.rank_all(h, self.lookup, &o.table[..o.groups], o.cell[blank]);
            }
        }
    }

    fn md(&self) -> u32 {
        (0..self.h.goal.len())
            .map(|c| u32::from(self.h.md[usize::from(self.cells[c])][c]))
            .sum()
    }

    fn found(&mut self, g: u32, k: u8) {
        self.path[g as usize] = k;
        self.reached(g + 1);
        self.found_len = g as usize + 1;
    }

    /// True when the node is not to be expanded: it is on the parallel search's frontier
    /// (collected there), the expansion limit is reached, or a subtree before this one
    /// holds a goal.
    #[inline(always)]
    fn stop(&mut self, blank: usize, g: u32, md: u32, state: u32, first: usize) -> bool {
        if g == self.split {
            let pats = self.pats[..self.n_orient].to_vec();
            self.collect(blank, g, md, state, first, pats);
            return true;
        }
        self.halted()
    }

    /// Puts the node (its patterns `pats`) on the parallel search's frontier.
    #[cold]
    fn collect(
        &mut self,
        blank: usize,
        g: u32,
        md: u32,
        state: u32,
        first: usize,
        pats: Vec<Patterns>,
    ) {
        self.frontier.push(Frontier {
            cells: self.cells,
            blank,
            md,
            state,
            first,
            path: self.path[..g as usize].to_vec(),
            generated: self.c.generated,
            expanded: self.c.expanded,
            pats,
        });
    }

    /// True when the expansion limit is reached or a subtree before this one holds a goal.
    #[inline(always)]
    fn halted(&mut self) -> bool {
        if self.c.expanded >= self.c.limit {
            self.c.limit_reached = true;
            return true;
        }
        if let Some((best, me)) = self.cancel
            && best.load(Relaxed) < me
        {
            self.cancelled = true;
            return true;
        }
        false
    }

    /// Depth-first search below the current board (blank at `blank`, depth `g`,
    /// Manhattan distance `md`). `state`: without `FSM`, the move that reached the node
    /// (4 = none), never undone; with it, the machine's state, and the moves that
    /// complete a forbidden sequence are not generated. The heuristic is the maximum over
    /// the orientations' sums, `first`'s looked up first in the children. `N`: the number
    /// of orientations when the code is specialised for it, else 0; `L`: the length of
    /// the undo records' array (N, else a power of two at least the number of
    /// orientations); `LOOKUP`: how the tables are read ([`Self::lookup`]).
    fn dfs<const FSM: bool, const N: usize, const L: usize, const LOOKUP: u8>(
        &mut self,
        blank: usize,
        g: u32,
        md: u32,
        state: u32,
        first: usize,
    ) -> bool {
        if self.stop(blank, g, md, state, first) {
            return false;
        }
        self.c.expanded += 1;
        if g < self.order_depth {
            return self.expand_in_f_order::<FSM, N, L, LOOKUP>(blank, g, md, state, first);
        }
        // One record for the node's children, filled by each child's lookups: made once
        // and borrowed (a record moved out of a call is copied, which costs more).
        let mut undo = Undo {
            touched: 0,
            olds: [(0, 0, 0); L],
        };
        for k in 0..4 {
            match self.generate::<FSM, N, L, LOOKUP>(blank, g, md, state, k, first, &mut undo) {
                Generated::Goal => return true,
                Generated::Open(child) => {
                    if self.descend::<FSM, N, L, LOOKUP>(blank, g, k, child, &undo) {
                        return true;
                    }
                }
                Generated::Cut => break,
                Generated::Not => {}
            }
            if self.c.limit_reached || self.cancelled {
                return false;
            }
        }
        self.reached(g + 1);
        false
    }

    /// [`Self::dfs`]'s expansion of a node shallower than [`Options::order_depth`]: every
    /// child is generated and looked up first (a goal among them ends the search), then
    /// those within the bound are searched in order of increasing f, ties in move order,
    /// each looked up again (the lookups of a child are undone before the next). The
    /// counts of an iteration searched to the end are the unordered search's; only where
    /// the last one meets a goal changes.
    fn expand_in_f_order<const FSM: bool, const N: usize, const L: usize, const LOOKUP: u8>(
        &mut self,
        blank: usize,
        g: u32,
        md: u32,
        state: u32,
        first: usize,
    ) -> bool {
        let mut undo = Undo {
            touched: 0,
            olds: [(0, 0, 0); L],
        };
        let mut open = [(0u32, 0usize); 4];
        let mut n = 0;
        for k in 0..4 {
            match self.generate::<FSM, N, L, LOOKUP>(blank, g, md, state, k, first, &mut undo) {
                Generated::Goal => return true,
                Generated::Open(child) => {
                    open[n] = (child.f, k);
                    n += 1;
                    self.leave::<L, LOOKUP>(blank, child.np, child.tile, &undo);
                }
                Generated::Cut => {
                    self.reached(g + 1);
                    return false;
                }
                Generated::Not => {}
            }
        }
        open[..n].sort_unstable();
        for &(_, k) in &open[..n] {
            let Some((np, child_state)) = self.child::<FSM>(blank, state, k) else {
                continue;
            };
            let child =
                self.enter::<N, L, LOOKUP>(blank, np, k, child_state, g, md, first, &mut undo);
            if self.descend::<FSM, N, L, LOOKUP>(blank, g, k, child, &undo) {
                return true;
            }
            if self.c.limit_reached || self.cancelled {
                return false;
            }
        }
        self.reached(g + 1);
        false
    }

    /// Generates the blank's move `k` (counted) and looks the child up: `Open` when it
    /// is within the bound and not a goal (the move made, for [`Self::descend`] or
    /// [`Self::leave`]); `Goal` when it is within the bound and a goal (the move made and
    /// recorded in the path); `Cut` when with [`Options::bpmx`] its f puts the node
    /// itself beyond the bound (the move not made, the node's f counted for the next
    /// bound); else `Not`, the move not made (pruned, beyond the bound, or off the
    /// board).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn generate<const FSM: bool, const N: usize, const L: usize, const LOOKUP: u8>(
        &mut self,
        blank: usize,
        g: u32,
        md: u32,
        state: u32,
        k: usize,
        first: usize,
        undo: &mut Undo<L>,
    ) -> Generated {
        let Some((np, child_state)) = self.child::<FSM>(blank, state, k) else {
            return Generated::Not;
        };
        self.c.generated += 1;
        let child = self.enter::<N, L, LOOKUP>(blank, np, k, child_state, g, md, first, undo);
        if self.pruned(child.f) {
            self.leave::<L, LOOKUP>(blank, np, child.tile, undo);
            // h(node) ≥ h(child) − 1, so f(node) ≥ f(child) − 2 (Felner et al. 2005).
            if self.bpmx && child.f - 2 > self.bound {
                self.next_bound = self.next_bound.min(child.f - 2);
                return Generated::Cut;
            }
            return Generated::Not;
        }
        if child.md == 0 {
            self.found(g, k as u8);
            return Generated::Goal;
        }
        Generated::Open(child)
    }

    /// Searches below `child` (entered by move `k` from the node at depth `g`, blank on
    /// `blank`), then leaves it unless it led to a goal; true when it did.
    #[inline(always)]
    fn descend<const FSM: bool, const N: usize, const L: usize, const LOOKUP: u8>(
        &mut self,
        blank: usize,
        g: u32,
        k: usize,
        child: Child,
        undo: &Undo<L>,
    ) -> bool {
        self.path[g as usize] = k as u8;
        if self.dfs::<FSM, N, L, LOOKUP>(child.np, g + 1, child.md, child.state, child.first) {
            return true;
        }
        self.leave::<L, LOOKUP>(blank, child.np, child.tile, undo);
        false
    }

    /// Moves the tile on `np` to `blank` (the blank to `np`, the machine to `state`) and
    /// looks the child up ([`Self::look_up_child`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn enter<const N: usize, const L: usize, const LOOKUP: u8>(
        &mut self,
        blank: usize,
        np: usize,
        k: usize,
        state: u32,
        g: u32,
        md: u32,
        first: usize,
        undo: &mut Undo<L>,
    ) -> Child {
        let h = self.h;
        let tile = usize::from(self.cells[np]);
        let (closer, farther) = (h.md[tile][blank], h.md[tile][np]);
        let md = md + u32::from(closer) - u32::from(farther);
        self.cells[blank] = tile as u8;
        self.cells[np] = 0;
        let base = g + 1 + md;
        let toward = closer < farther;
        let moved = Moved { tile, blank, np, k };
        let (f, first) = self.look_up_child::<N, L, LOOKUP>(moved, base, first, toward, undo);
        Child {
            np,
            state,
            tile,
            md,
            f,
            first,
        }
    }

    /// Undoes [`Self::enter`]: `tile` back from `blank` to `np`.
    #[inline(always)]
    fn leave<const L: usize, const LOOKUP: u8>(
        &mut self,
        blank: usize,
        np: usize,
        tile: usize,
        undo: &Undo<L>,
    ) {
        self.undo_child::<L, LOOKUP>(tile, blank, np, undo);
        self.cells[np] = tile as u8;
        self.cells[blank] = 0;
    }

    /// True when a child of this f is beyond the bound (it is not searched, and the
    /// next bound is at most f).
    #[inline(always)]
    fn pruned(&mut self, f: u32) -> bool {
        if f > self.bound {
            self.next_bound = self.next_bound.min(f);
            return true;
        }
        false
    }

    /// Records that the search reached depth `depth`.
    #[inline(always)]
    fn reached(&mut self, depth: u32) {
        self.c.max_depth = self.c.max_depth.max(depth);
    }

    /// The orientation with the node's largest sum (the first if several), looked up
    /// first in its children, the likeliest to prune them; below the node where the
    /// search starts, each child's comes with its lookups ([`Child::first`]).
    fn first_orientation(&self) -> usize {
        let sums = self.pats[..self.n_orient].iter().map(|p| p.sum);
        (sums.enumerate().rev().max_by_key(|&(_, sum)| sum)).map_or(0, |(o, _)| o)
    }

    /// The blank's move `k` from `blank`, when generated: the cell it moves to and the
    /// child's pruning state (see [`Self::dfs`]).
    #[inline(always)]
    fn child<const FSM: bool>(&self, blank: usize, state: u32, k: usize) -> Option<(usize, u32)> {
        if !FSM && state < 4 && k == self.moves.inverse[state as usize] {
            return None;
        }
        let np = self.moves.nbr[blank][k];
        if np == NONE {
            return None;
        }
        let np = usize::from(np);
        match self.fsm {
            Some(fsm) if FSM => fsm
                .next(state, self.moves.dir[k], np)
                .map(|next| (np, next)),
            _ => Some((np, k as u32)),
        }
    }

    /// The child's f after the move `m` (`base`: its g + Manhattan distance), `first`
    /// orientation first. The moved tile's pattern in each orientation is looked up only
    /// while it can matter: while the child is not pruned, or might lower the next bound.
    /// When the rest are skipped their stale sums cannot matter: f is already above both
    /// the bound and the next bound (with [`Options::bpmx`], f − 2 is, so whether the
    /// child cuts its parent off never depends on the next bound, which the parallel
    /// search's subtrees each have their own of). `toward`: the tile moved towards its
    /// goal (zero-aware tables need it). Returns f and the orientation with the largest
    /// sum ([`Child::first`]), and fills `undo` with what [`Self::undo_child`] restores.
    #[inline(always)]
    fn look_up_child<const N: usize, const L: usize, const LOOKUP: u8>(
        &mut self,
        m: Moved,
        base: u32,
        first: usize,
        toward: bool,
        undo: &mut Undo<L>,
    ) -> (u32, usize) {
        if LOOKUP == SPREAD {
            return self.look_up_spread::<N, L>(m, base, first, undo);
        }
        let Moved { tile, blank, np, k } = m;
        let n = if N > 0 { N } else { self.n_orient };
        let (mut best, mut most) = (0, first);
        undo.touched = 0;
        // With pathmax, f − 2 is what the node's own f is known to be at least.
        let margin = if self.bpmx { 2 } else { 0 };
        for j in 0..n {
            let f = base + 2 * best;
            if j > 0 && f > self.bound + margin && f - margin >= self.next_bound {
                break;
            }
            let o = orientation_at(j, first);
            let or = &self.orient[o];
            let dual = LOOKUP & DUAL != 0 && or.dual;
            if dual {
                let moved = [or.item(np), or.item(blank)];
                let (to, valid) = (or.cell[tile], or.valid[np]);
                undo.olds[o] = self.pats[o].update_dual::<LOOKUP>(
                    self.h,
                    self.spreads,
                    &or.table,
                    moved,
                    to,
                    valid,
                );
                undo.touched |= 1 << o;
            }
            let gi = usize::from(or.group[tile]);
            if !dual && gi < MAX_GROUPS {
                let (t, i, to) = (
                    usize::from(or.table[gi]),
                    usize::from(or.index[tile]),
                    or.cell[blank],
                );
                undo.olds[o] = match LOOKUP & KIND {
                    ZERO => self.pats[o].update_zero(&self.h.zero[t], gi, i, to, toward),
                    SPREAD => {
                        let item = &self.items[o][tile];
                        self.pats[o].update_spread(item.entries, gi, item.step[k])
                    }
                    _ => self.pats[o].update(&self.h.tables[t], gi, i, to),
                };
                undo.touched |= 1 << o;
            }
            if self.pats[o].sum > best {
                (best, most) = (self.pats[o].sum, o);
            }
        }
        (base + 2 * best, most)
    }

    /// [`Self::look_up_child`] with spread copies and no dual orientation, the default
    /// and hot case: each orientation's lookup reads the tile's [`SpreadItem`], moves the
    /// pattern's index by its step and reads the spread copy there. A loop of its own: the
    /// general one with this case first in each orientation's lookup ran 4–6% more
    /// instructions a node (577 and 584 against 553, callgrind on instance 38).
    #[inline(always)]
    fn look_up_spread<const N: usize, const L: usize>(
        &mut self,
        m: Moved,
        base: u32,
        first: usize,
        undo: &mut Undo<L>,
    ) -> (u32, usize) {
        let n = if N > 0 { N } else { self.n_orient };
        let margin = if self.bpmx { 2 } else { 0 };
        let (cut, next) = (self.bound + margin, self.next_bound);
        let (tile, k) = (m.tile % ITEMS, m.k % 4);
        let (mut best, mut most, mut touched) = (0, first, 0u32);
        for j in 0..n {
            let f = base + 2 * best;
            if j > 0 && f > cut && f - margin >= next {
                break;
            }
            let o = orientation_at(j, first) % MAX_ORIENT;
            let item = &self.items[o][tile];
            let pats = &mut self.pats[o];
            if item.group != NONE {
                let g = usize::from(item.group);
                undo.olds[o % L] = pats.update_spread(item.entries, g, item.step[k]);
                touched |= 1 << o;
            }
            if pats.sum > best {
                (best, most) = (pats.sum, o);
            }
        }
        undo.touched = touched;
        (base + 2 * best, most)
    }

    /// Moves `tile` back from `blank` to `np` in the orientations
    /// [`Self::look_up_child`] updated.
    #[inline(always)]
    fn undo_child<const L: usize, const LOOKUP: u8>(
        &mut self,
        tile: usize,
        blank: usize,
        np: usize,
        undo: &Undo<L>,
    ) {
        let mut touched = undo.touched;
        while touched != 0 {
            let o = touched.trailing_zeros() as usize % MAX_ORIENT;
            touched &= touched - 1;
            if LOOKUP == SPREAD {
                let g = usize::from(self.items[o][tile % ITEMS].group);
                self.pats[o].restore_spread(g, undo.olds[o % L]);
                continue;
            }
            let or = &self.orient[o];
            if LOOKUP & DUAL != 0 && or.dual {
                let moved = [or.item(np), or.item(blank)];
                let (at, old) = (or.cell[tile], undo.olds[o]);
                self.pats[o].undo_dual::<LOOKUP>(self.spreads, &or.table, moved, at, old);
                continue;
            }
            let (gi, i) = (usize::from(or.group[tile]), usize::from(or.index[tile]));
            if LOOKUP & KIND == SPREAD {
                self.pats[o].restore_spread(gi, undo.olds[o]);
                continue;
            }
            self.pats[o].undo(gi, i, or.cell[np], undo.olds[o]);
        }
    }

    /// Searches below the current board ([`Self::dfs`]), specialised for its lookups.
    fn run(&mut self, blank: usize, g: u32, md: u32, state: u32, first: usize) -> bool {
        if self.lean_fits() {
            return self.run_lean(blank, g, md, state, first);
        }
        let dual = self.orient[..self.n_orient].iter().any(|o| o.dual);
        let at = (blank, g, md, state, first);
        match (
            self.fsm.is_some(),
            self.lookup | if dual { DUAL } else { 0 },
        ) {
            (true, DUAL_SPREAD) => self.dfs_n::<true, DUAL_SPREAD>(at),
            (true, DUAL_PACKED) => self.dfs_n::<true, DUAL_PACKED>(at),
            (false, DUAL_SPREAD) => self.dfs_n::<false, DUAL_SPREAD>(at),
            (false, DUAL_PACKED) => self.dfs_n::<false, DUAL_PACKED>(at),
            (true, ZERO) => self.dfs_n::<true, ZERO>(at),
            (true, SPREAD) => self.dfs_n::<true, SPREAD>(at),
            (true, _) => self.dfs_n::<true, PACKED>(at),
            (false, ZERO) => self.dfs_n::<false, ZERO>(at),
            (false, SPREAD) => self.dfs_n::<false, SPREAD>(at),
            (false, _) => self.dfs_n::<false, PACKED>(at),
        }
    }

    /// [`Self::dfs`] specialised for the common numbers of orientations.
    fn dfs_n<const FSM: bool, const LOOKUP: u8>(
        &mut self,
        (blank, g, md, state, first): (usize, u32, u32, u32, usize),
    ) -> bool {
        match self.n_orient {
            1 => self.dfs::<FSM, 1, 1, LOOKUP>(blank, g, md, state, first),
            2 => self.dfs::<FSM, 2, 2, LOOKUP>(blank, g, md, state, first),
            3..=FEW_ORIENT => self.dfs::<FSM, 0, FEW_ORIENT, LOOKUP>(blank, g, md, state, first),
            _ => self.dfs::<FSM, 0, MAX_ORIENT, LOOKUP>(blank, g, md, state, first),
        }
    }

    /// The pruning state of the start node.
    fn start_state(&self) -> u32 {
        if self.fsm.is_some() { Fsm::START } else { 4 }
    }

    fn h0(&self) -> u32 {
        let best = self.pats[..self.n_orient].iter().map(|p| p.sum).max();
        self.md() + 2 * best.unwrap_or(0)
    }
}

/// The serial search from the start (blank at `blank`, Manhattan distance `md`).
struct Serial<'a> {
    s: Search<'a>,
    blank: usize,
    md: u32,
}

impl Iterate for Serial<'_> {
    fn iterate(&mut self, bound: u32) -> Iteration {
        let s = &mut self.s;
        s.bound = bound;
        s.next_bound = u32::MAX;
        let found = s.run(
            self.blank,
            0,
            self.md,
            s.start_state(),
            s.first_orientation(),
        );
        Iteration {
            found: found.then(|| s.path[..s.found_len].to_vec()),
            next_bound: s.next_bound,
        }
    }

    fn counters(&mut self) -> &mut Counters {
        &mut self.s.c
    }
}

/// The options of the search beyond its heuristic and move order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Which duplicate move sequences are pruned.
    pub pruning: Pruning,
    /// With [`Pruning::Fsm`], the longest duplicate sequences the machine prunes (at most
    /// [`super::fsm::DEEPEST`]).
    pub fsm_depth: usize,
    /// The children of nodes shallower than this are searched in order of increasing f
    /// (ties in move order), the others in move order; 0: move order everywhere (Korf's
    /// search and counts). Only the last iteration's counts change, the goal being
    /// reached after other subtrees: on the fifteen easiest 24-puzzles, 1.28 times more
    /// nodes in total (from half as many on some instances to six times more on others).
    pub order_depth: u32,
    /// Also maximises over each partition's dual lookups (Felner, Zahavi, Schaeffer &
    /// Holte 2005): the tables read at the tiles standing on the patterns' goal cells,
    /// a pattern left out while its goal cells hold the blank or wall the blank's cell off
    /// from cell 0. Plain tables only, the goal with the blank on cell 0 and tile t on
    /// cell t, up to eight partitions ([`check_options`]).
    pub dual: bool,
    /// Bidirectional pathmax (Felner, Zahavi, Schaeffer & Holte 2005): a child's
    /// heuristic less one bounds its parent's, so a child whose f exceeds the bound by
    /// more than two cuts its parent off, its later children not generated. With an
    /// inconsistent heuristic (dual lookups) it prunes more; the searches stay optimal.
    pub bpmx: bool,
}

impl Default for Options {
    /// Korf & Felner's search: parent pruning, move order, no dual lookups or pathmax (the
    /// machine's depth, if it is asked for, [`super::fsm::DEFAULT_DEPTH`]).
    fn default() -> Options {
        Options {
            pruning: Pruning::Parent,
            fsm_depth: super::fsm::DEFAULT_DEPTH,
            order_depth: 0,
            dual: false,
            bpmx: false,
        }
    }
}

/// Why the search towards `goal` with the pattern databases `partition` (`None`:
/// Manhattan distance) cannot take `options`, if it cannot, found before any table is
/// built: the pruning machine's depth must be 2 to [`super::fsm::DEEPEST`]; dual lookups
/// need plain pattern databases (not zero-aware tables, whose values
/// count the blank's region at the goal, nor Manhattan distance alone, which is its own
/// dual), the goal with tile t on cell t (the blank on cell 0), and at most eight
/// partitions.
pub fn check_options(
    goal: &Board,
    partition: Option<&str>,
    options: &Options,
) -> Result<(), String> {
    let deepest = super::fsm::DEEPEST;
    if options.pruning == Pruning::Fsm && !(2..=deepest).contains(&options.fsm_depth) {
        return Err(format!(
            "the pruning machine's depth must be 2 to {deepest}, not {}",
            options.fsm_depth
        ));
    }
    if !options.dual {
        return Ok(());
    }
    let Some(partition) = partition.filter(|p| !super::pdb::strip_kind(p).1) else {
        return Err("dual lookups need plain pattern databases (pdb:…)".into());
    };
    if !is_identity(goal) {
        return Err(format!(
            "dual lookups need the goal with the blank first and tile t on cell t, not {}",
            goal.tiles()
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    match super::pdb::parse_partitions_text(partition) {
        Ok((_, parts)) if 4 * parts.len() > MAX_ORIENT => Err(format!(
            "dual lookups take up to {} partitions, not {}",
            MAX_ORIENT / 4,
            parts.len()
        )),
        _ => Ok(()),
    }
}

/// Whether `goal` has tile t on cell t (the blank, 0, on cell 0).
fn is_identity(goal: &Board) -> bool {
    let cells = &goal.cells[..goal.len()];
    cells.iter().enumerate().all(|(c, &t)| usize::from(t) == c)
}

/// IDA* with the PDB heuristic on a one-blank board towards the heuristic's goal (the
/// caller has checked it reachable), pruning only the undoing move (Korf & Felner's
/// search). Gives up when about to expand node number `expand_limit + 1`.
pub fn solve(
    start: &Board,
    h: &PdbHeuristic,
    order: MoveOrder,
    expand_limit: Option<u64>,
) -> IdaResult {
    solve_with(
        start,
        h,
        order,
        Options::default(),
        Control::limited(expand_limit),
    )
}

/// [`solve`] with [`Options`] and under a [`Control`]: with a limit, resumed from a
/// checkpoint, observed iteration by iteration.
pub fn solve_with(
    start: &Board,
    h: &PdbHeuristic,
    order: MoveOrder,
    options: Options,
    control: Control,
) -> IdaResult {
    assert_eq!(start.blanks(), 1, "the PDB IDA* handles one blank");
    deepen_serial(Search::new(h, start, order, options), start, control)
}

/// The serial search `s` of `start`, iteration after iteration.
fn deepen_serial(mut s: Search, start: &Board, control: Control) -> IdaResult {
    s.c = Counters::new(control.expand_limit);
    let (md, h0, moves) = (s.md(), s.h0(), s.moves);
    let mut serial = Serial {
        s,
        blank: start.blank(),
        md,
    };
    super::deepen::deepen(&mut serial, h0, md == 0, &moves, control)
}

/// What one subtree of the parallel search found.
struct Sub {
    found: Option<Vec<u8>>,
    generated: u64,
    expanded: u64,
    next_bound: u32,
    max_depth: u32,
    /// It stopped at its expansion limit.
    limit_reached: bool,
}

/// The number of frontier nodes the parallel search aims at per iteration.
const FRONTIER_TARGET: usize = 2000;

/// The parallel search: the top of the tree serially down to `split`, the subtrees below
/// by the threads (see the module documentation).
struct Parallel<'a> {
    root: Search<'a>,
    blank: usize,
    md: u32,
    /// The frontier depth of the last iteration (the next starts near it).
    split: u32,
    c: Counters,
}

impl<'a> Parallel<'a> {
    /// The top of the tree at `bound`, cut at a depth deepened until it has enough
    /// subtrees (or until deeper cuts would give fewer: near the bound most nodes are
    /// pruned); whether the top itself generated a goal.
    fn top(&mut self, bound: u32, limit: u64) -> (Search<'a>, bool) {
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
    fn fresh(&self, bound: u32, limit: u64) -> Search<'a> {
        let mut s = self.root.clone();
        s.bound = bound;
        s.next_bound = u32::MAX;
        s.c = Counters {
            generated: 0,
            limit,
            ..Counters::new(None)
        };
        s
    }

    /// The iteration at `bound` searched serially, expanding at most `limit` nodes: the
    /// one whose limit falls inside it, so that it stops at the node the serial search
    /// stops at.
    fn serial(&mut self, bound: u32, limit: u64) -> Iteration {
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
        Iteration {
            found: found.then(|| s.path[..s.found_len].to_vec()),
            next_bound: s.next_bound,
        }
    }

    /// Searches the subtrees of `frontier` at `bound` on the current rayon pool, in
    /// depth-first order from a shared counter; the subtrees after the first one holding a
    /// goal are abandoned. Returns each subtree's result (`None`: abandoned) and the index
    /// of the first holding a goal (usize::MAX: none); `None` when together they would
    /// expand more than `limit` nodes (the search then stops early, its results unused).
    fn subtrees(
        &self,
        frontier: &[Frontier],
        bound: u32,
        limit: u64,
    ) -> Option<(Vec<Option<Sub>>, usize)> {
        let best = AtomicUsize::new(usize::MAX);
        let next = AtomicUsize::new(0);
        let spent = AtomicU64::new(0);
        let over = AtomicBool::new(false);
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
                        if sub.limit_reached || total > limit {
                            // Every subtree after the first gives up at its next node.
                            over.store(true, Relaxed);
                            best.store(0, Relaxed);
                        }
                        *results[i].lock().expect("no panics while holding") = Some(sub);
                    }
                });
            }
        });
        if over.load(Relaxed) {
            return None;
        }
        let results = results
            .into_iter()
            .map(|r| r.into_inner().expect("no panics"))
            .collect();
        Some((results, best.load(Relaxed)))
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
        }
    }

    fn add(&mut self, generated: u64, expanded: u64, max_depth: u32) {
        self.c.generated += generated;
        self.c.expanded += expanded;
        self.c.max_depth = self.c.max_depth.max(max_depth);
    }
}

impl Iterate for Parallel<'_> {
    fn iterate(&mut self, bound: u32) -> Iteration {
        // The expansions left before the limit: an iteration that would pass it is
        // searched again serially, to stop exactly where the serial search stops.
        let limit = self.c.limit.saturating_sub(self.c.expanded);
        let (mut top, top_found) = self.top(bound, limit);
        if top.c.limit_reached {
            return self.serial(bound, limit);
        }
        let frontier = std::mem::take(&mut top.frontier);
        let Some((results, first_goal)) = self.subtrees(&frontier, bound, limit - top.c.expanded)
        else {
            return self.serial(bound, limit);
        };
        let mut found = None;
        if first_goal != usize::MAX {
            // Serial order: the top up to subtree `first_goal`, the subtrees before it
            // in full, and that subtree up to its goal.
            let node = &frontier[first_goal];
            self.add(node.generated, node.expanded, 0);
            for sub in results.into_iter().take(first_goal + 1) {
                let sub = sub.expect("searched");
                self.add(sub.generated, sub.expanded, sub.max_depth);
                found = found.or(sub.found);
            }
            return Iteration {
                found,
                next_bound: u32::MAX,
            };
        }
        self.add(top.c.generated, top.c.expanded, top.c.max_depth);
        let mut next_bound = top.next_bound;
        for sub in results {
            let sub = sub.expect("searched");
            self.add(sub.generated, sub.expanded, sub.max_depth);
            next_bound = next_bound.min(sub.next_bound);
        }
        if top_found {
            found = Some(top.path[..top.found_len].to_vec());
        }
        Iteration { found, next_bound }
    }

    fn counters(&mut self) -> &mut Counters {
        &mut self.c
    }
}

/// The same search as [`solve`] (no expansion limit), with the subtrees below a frontier
/// depth searched by the threads of the current rayon pool. The counts and the solution
/// are those of [`solve`] (see the module documentation).
pub fn solve_parallel(start: &Board, h: &PdbHeuristic, order: MoveOrder) -> IdaResult {
    solve_parallel_with(start, h, order, Options::default(), Control::default())
}

/// [`solve_parallel`] with [`Options`] and under a [`Control`]: the counts and the
/// solution are those of [`solve_with`] with the same options and control. An iteration
/// that would pass the expansion limit is searched again serially up to it, so the search
/// stops at the very node the serial one stops at.
pub fn solve_parallel_with(
    start: &Board,
    h: &PdbHeuristic,
    order: MoveOrder,
    options: Options,
    control: Control,
) -> IdaResult {
    assert_eq!(start.blanks(), 1, "the PDB IDA* handles one blank");
    let root = Search::new(h, start, order, options);
    let (md, h0, moves) = (root.md(), root.h0(), root.moves);
    let mut p = Parallel {
        root,
        blank: start.blank(),
        md,
        split: 2,
        c: Counters::new(control.expand_limit),
    };
    super::deepen::deepen(&mut p, h0, md == 0, &moves, control)
}

#[cfg(test)]
mod tests {
    use super::super::board::Dir;
    use super::super::board::Shape;
    use super::super::deepen::Checkpoint;
    use super::super::heuristic::Heuristic;
    use super::super::ida;
    use super::super::instances::InstanceSet;
    use super::super::pdb::tests::heuristic;
    use super::*;
    use crate::util::rng::rng_from_seed;
    use rand::RngExt;
    use std::time::Instant;

    fn random_walk(from: &Board, steps: usize, seed: u64) -> Board {
        let mut rng = rng_from_seed(seed);
        let mut b = *from;
        let mut prev = None;
        for _ in 0..steps {
            let succ: Vec<Board> = b
                .successors(MoveOrder::default())
                .map(|(n, _, _)| n)
                .filter(|n| Some(*n) != prev)
                .collect();
            prev = Some(b);
            b = succ[rng.random_range(0..succ.len())];
        }
        b
    }

    fn replay(start: &Board, moves: &[Dir]) -> Vec<Board> {
        let mut b = *start;
        let mut states = vec![b];
        for d in moves {
            let p = b.blank();
            let q = b.shape().neighbour(p, *d).unwrap();
            b.cells.swap(p, q);
            states.push(b);
        }
        states
    }

    /// The serial search of `start` with `options`, checked to reach `h`'s goal in exactly
    /// `optimal` moves.
    fn solve_optimally(
        start: &Board,
        h: &PdbHeuristic,
        options: Options,
        optimal: usize,
    ) -> IdaResult {
        let r = solve_with(start, h, MoveOrder::KORF, options, Control::default());
        assert_eq!(r.solution_length(), Some(optimal), "{}", start.list());
        assert_eq!(
            replay(start, r.moves.as_ref().unwrap()).last(),
            Some(&h.goal)
        );
        r
    }

    /// Checks that the parallel search of `start` counts and moves as the serial `r`.
    fn assert_parallel_as_serial(start: &Board, h: &PdbHeuristic, options: Options, r: &IdaResult) {
        let p = solve_parallel_with(start, h, MoveOrder::KORF, options, Control::default());
        assert_eq!(
            (p.generated, p.expanded, &p.moves),
            (r.generated, r.expanded, &r.moves),
            "{}",
            start.list()
        );
    }

    #[test]
    fn pdb_ida_is_optimal_and_admissible_on_random_4x4_states() {
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let plain = heuristic(&goal, "5-5-5", false);
        let mut refl = plain.clone();
        refl.reflection = super::super::pdb::Reflection::of(&goal);
        for seed in 0..10 {
            let start = random_walk(&goal, 70, seed);
            let optimal = ida::solve(&start, &goal, Heuristic::Linear, MoveOrder::KORF, None);
            let len = optimal.solution_length().unwrap();
            for h in [&plain, &refl] {
                let r = solve(&start, h, MoveOrder::KORF, None);
                let moves = r.moves.expect("solved");
                assert_eq!(moves.len(), len, "seed {seed}");
                let states = replay(&start, &moves);
                assert_eq!(states.last(), Some(&goal));
                // Along an optimal path every state's h is at most its distance.
                for (i, s) in states.iter().enumerate() {
                    assert!(h.evaluate(&s.cells) as usize <= len - i, "seed {seed}");
                }
                assert_eq!(r.h0, h.evaluate(&start.cells));
                assert!(
                    r.generated < optimal.generated,
                    "seed {seed}: PDBs prune more"
                );
            }
            let rp = solve(&start, &plain, MoveOrder::KORF, None);
            let rr = solve(&start, &refl, MoveOrder::KORF, None);
            assert!(
                rr.generated <= rp.generated,
                "seed {seed}: reflection never hurts here"
            );
        }
    }

    #[test]
    fn a_small_4x4_partition_is_admissible_on_random_states() {
        // Four-tile groups (16!/12! = 43,680 placements each): random walks of 40 moves,
        // their optimal lengths by IDA* with Manhattan distance; the PDB value (with the
        // reflection) never exceeds the distance of any state on an optimal path, and the
        // PDB IDA* finds a solution of the optimal length with fewer nodes.
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let h = heuristic(&goal, "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15", true);
        assert!(h.reflection.is_some());
        assert_eq!(h.tables[0].pattern.entries(), 43_680);
        let md = super::super::heuristic::Tables::new(&goal);
        for seed in 100..106 {
            let start = random_walk(&goal, 40, seed);
            let exact = ida::solve(&start, &goal, Heuristic::Manhattan, MoveOrder::KORF, None);
            let len = exact.solution_length().unwrap();
            let states = replay(&start, exact.moves.as_ref().unwrap());
            for (i, s) in states.iter().enumerate() {
                let v = h.evaluate(&s.cells);
                assert!(v as usize <= len - i, "seed {seed}: h {v} > {}", len - i);
                assert!(v >= md.manhattan(&s.cells), "seed {seed}");
                assert_eq!(v % 2, md.manhattan(&s.cells) % 2, "parity, seed {seed}");
            }
            let r = solve(&start, &h, MoveOrder::KORF, None);
            assert_eq!(r.solution_length(), Some(len), "seed {seed}");
            assert!(r.generated <= exact.generated, "seed {seed}");
        }
    }

    #[test]
    fn pdb_ida_with_one_tile_patterns_is_the_manhattan_ida_node_for_node() {
        // Patterns of one tile hold exactly Manhattan distance: same tree, same counts.
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let singles: Vec<String> = (1..16).map(|t| t.to_string()).collect();
        let h = heuristic(&goal, &singles.join("/"), false);
        for id in [9u32, 12, 42] {
            let inst = InstanceSet::Korf100.instance(id).unwrap();
            let m = ida::solve(
                &inst.board,
                &goal,
                Heuristic::Manhattan,
                MoveOrder::KORF,
                None,
            );
            let p = solve(&inst.board, &h, MoveOrder::KORF, None);
            assert_eq!(
                (
                    p.generated,
                    p.expanded,
                    &p.thresholds,
                    &p.moves,
                    p.max_depth
                ),
                (
                    m.generated,
                    m.expanded,
                    &m.thresholds,
                    &m.moves,
                    m.max_depth
                ),
                "instance {id}"
            );
            for limit in [1, 1000, m.expanded / 2] {
                let a = ida::solve(
                    &inst.board,
                    &goal,
                    Heuristic::Manhattan,
                    MoveOrder::KORF,
                    Some(limit),
                );
                let b = solve(&inst.board, &h, MoveOrder::KORF, Some(limit));
                assert_eq!(
                    (a.generated, a.expanded, a.limit_reached),
                    (b.generated, b.expanded, b.limit_reached)
                );
            }
        }
    }

    #[test]
    fn parallel_search_counts_as_the_serial_one_whatever_the_threads() {
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let h = heuristic(&goal, "5-5-5", true);
        let ordered = Options {
            order_depth: 12,
            ..Options::default()
        };
        let pruned_and_ordered = Options {
            pruning: Pruning::Fsm,
            ..ordered
        };
        let dual_bpmx = Options {
            pruning: Pruning::Fsm,
            dual: true,
            bpmx: true,
            ..Options::default()
        };
        for options in [Options::default(), ordered, pruned_and_ordered, dual_bpmx] {
            for id in [1u32, 9, 12, 17] {
                let inst = InstanceSet::Korf100.instance(id).unwrap();
                // The serial search or the parallel one, with the same arguments.
                let search =
                    |solve: fn(&Board, &PdbHeuristic, MoveOrder, Options, Control) -> IdaResult| {
                        solve(
                            &inst.board,
                            &h,
                            MoveOrder::KORF,
                            options,
                            Control::default(),
                        )
                    };
                let serial = search(solve_with);
                assert_eq!(
                    serial.solution_length(),
                    Some(inst.optimal as usize),
                    "instance {id}"
                );
                for threads in [1, 2, 3] {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap();
                    let par = pool.install(|| search(solve_parallel_with));
                    assert_eq!(
                        (
                            par.generated,
                            par.expanded,
                            &par.thresholds,
                            &par.moves,
                            par.max_depth
                        ),
                        (
                            serial.generated,
                            serial.expanded,
                            &serial.thresholds,
                            &serial.moves,
                            serial.max_depth
                        ),
                        "instance {id}, {threads} threads, {options:?}"
                    );
                }
            }
        }
        // Small boards and a start at the goal.
        let g3 = Board::default_goal(Shape::new(3, 3).unwrap(), 1);
        let h3 = heuristic(&g3, "1,2,3,4/5,6,7,8", true);
        let r = solve_parallel(&g3, &h3, MoveOrder::KORF);
        assert_eq!((r.solution_length(), r.generated), (Some(0), 1));
        for depth in [1usize, 5, 20, 31] {
            let start = super::super::census::eight_puzzle_at(depth, 7).unwrap();
            let s = solve(&start, &h3, MoveOrder::default(), None);
            let p = solve_parallel(&start, &h3, MoveOrder::default());
            assert_eq!(s.solution_length(), Some(depth));
            assert_eq!(
                (p.generated, p.expanded, &p.moves),
                (s.generated, s.expanded, &s.moves)
            );
        }
    }

    #[test]
    fn parallel_search_stops_at_the_serial_searchs_node_and_resumes_as_it() {
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let h = heuristic(&goal, "5-5-5", true);
        let start = InstanceSet::Korf100.instance(12).unwrap().board;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for pruning in [Pruning::Parent, Pruning::Fsm] {
            let options = Options {
                pruning,
                ..Options::default()
            };
            let serial = |limit| {
                solve_with(
                    &start,
                    &h,
                    MoveOrder::KORF,
                    options,
                    Control::limited(limit),
                )
            };
            let parallel = |expand_limit, resume| {
                let control = || Control {
                    expand_limit,
                    resume,
                    on_iteration: None,
                };
                pool.install(|| {
                    solve_parallel_with(&start, &h, MoveOrder::KORF, options, control())
                })
            };
            // The iterations' last counts, where an off-by-one would show.
            let mut checkpoints = Vec::new();
            let mut keep = |c: &super::super::deepen::Checkpoint| checkpoints.push(c.clone());
            let full = solve_with(
                &start,
                &h,
                MoveOrder::KORF,
                options,
                Control {
                    on_iteration: Some(&mut keep),
                    ..Control::default()
                },
            );
            let mut limits: Vec<u64> = vec![0, 1, 2, full.expanded - 1, full.expanded];
            for c in &checkpoints {
                limits.extend([c.expanded - 1, c.expanded, c.expanded + 1]);
            }
            let mut rng = rng_from_seed(3);
            limits.extend((0..6).map(|_| rng.random_range(1..full.expanded)));
            for limit in limits {
                let (s, p) = (serial(Some(limit)), parallel(Some(limit), None));
                assert_eq!(
                    (
                        p.generated,
                        p.expanded,
                        p.limit_reached,
                        &p.thresholds,
                        &p.moves
                    ),
                    (
                        s.generated,
                        s.expanded,
                        s.limit_reached,
                        &s.thresholds,
                        &s.moves
                    ),
                    "{pruning:?}, limit {limit}"
                );
                assert_eq!(s.limit_reached, limit < full.expanded, "limit {limit}");
            }
            for c in checkpoints {
                let p = parallel(None, Some(c));
                assert_eq!(
                    (p.generated, p.expanded, &p.thresholds, &p.moves),
                    (full.generated, full.expanded, &full.thresholds, &full.moves)
                );
            }
        }
    }

    #[test]
    fn the_machine_is_optimal_on_8_puzzle_states_of_every_distance() {
        // The 8-puzzle's states by exact distance (breadth-first census), a sample of
        // every distance: IDA* with the machine finds a solution of exactly the distance,
        // serial and parallel alike, with fewer nodes in all than with parent pruning (not
        // always on one state: the machine may prune the solution parent pruning finds
        // first in the last iteration, and search on to another).
        let shape = Shape::new(3, 3).unwrap();
        let goal = Board::default_goal(shape, 1);
        let h = heuristic(&goal, "1,2,3,4/5,6,7,8", false);
        let fsm = Options {
            pruning: Pruning::Fsm,
            ..Options::default()
        };
        let layers = super::super::census::eight_puzzle_layers();
        let (mut plain_total, mut fsm_total) = (0, 0);
        for (d, layer) in layers.iter().enumerate() {
            for code in layer.iter().step_by(499) {
                let b = super::super::census::unpack(*code, shape);
                let plain = solve(&b, &h, MoveOrder::KORF, None);
                let r = solve_optimally(&b, &h, fsm, d);
                assert_eq!(r.h0, plain.h0);
                assert_parallel_as_serial(&b, &h, fsm, &r);
                plain_total += plain.generated;
                fsm_total += r.generated;
            }
        }
        // Measured: 80,580 of 90,198 (short searches: the last iteration is most of them).
        assert!(
            fsm_total * 100 < plain_total * 92,
            "{fsm_total} of {plain_total}"
        );
    }

    #[test]
    fn the_machines_depth_is_checked() {
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        for (depth, ok) in [(1, false), (2, true), (18, true), (19, false)] {
            let options = Options {
                pruning: Pruning::Fsm,
                fsm_depth: depth,
                ..Options::default()
            };
            assert_eq!(check_options(&goal, None, &options).is_ok(), ok, "{depth}");
        }
    }

    #[test]
    fn the_machine_solves_korfs_instances_optimally_with_fewer_nodes() {
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let h = heuristic(&goal, "5-5-5", true);
        let fsm = Options {
            pruning: Pruning::Fsm,
            ..Options::default()
        };
        let (mut plain_total, mut fsm_total) = (0, 0);
        for id in [1u32, 3, 9, 12, 17, 42, 60, 88] {
            let inst = InstanceSet::Korf100.instance(id).unwrap();
            let plain = solve(&inst.board, &h, MoveOrder::KORF, None);
            let r = solve_optimally(&inst.board, &h, fsm, inst.optimal as usize);
            if id == 17 {
                assert_parallel_as_serial(&inst.board, &h, fsm, &r);
            }
            plain_total += plain.generated;
            fsm_total += r.generated;
        }
        assert!(
            fsm_total * 3 < plain_total * 2,
            "{fsm_total} of {plain_total}"
        );
    }

    #[test]
    fn manhattan_with_the_machine_is_optimal_and_generates_fewer_nodes() {
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let h = PdbHeuristic::manhattan(&goal);
        for id in [9u32, 12, 42] {
            let inst = InstanceSet::Korf100.instance(id).unwrap();
            let plain = solve(&inst.board, &h, MoveOrder::KORF, None);
            let fsm = Options {
                pruning: Pruning::Fsm,
                ..Options::default()
            };
            let r = solve_with(&inst.board, &h, MoveOrder::KORF, fsm, Control::default());
            assert_eq!(r.solution_length(), Some(inst.optimal as usize));
            assert_eq!(r.h0, plain.h0);
            assert!(r.generated < plain.generated, "instance {id}");
        }
    }

    /// Every completed iteration's checkpoint of a search (thresholds and counts).
    fn checkpoints(
        start: &Board,
        h: &PdbHeuristic,
        options: Options,
    ) -> (IdaResult, Vec<Checkpoint>) {
        let mut seen = Vec::new();
        let mut keep = |c: &Checkpoint| seen.push(c.clone());
        let control = Control {
            on_iteration: Some(&mut keep),
            ..Control::default()
        };
        let r = solve_with(start, h, MoveOrder::KORF, options, control);
        (r, seen)
    }

    #[test]
    fn ordering_children_by_f_changes_only_the_last_iteration() {
        // The iterations before the last search the same tree in another order: the
        // same thresholds and counts. The last one stops elsewhere: on these seven,
        // measured, 34,867,589 nodes ordered against 33,445,976 (the order is no better
        // than Korf's fixed one, as on the 24-puzzle).
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let h = heuristic(&goal, "5-5-5", true);
        let (mut plain_last, mut ordered_last) = (0, 0);
        for id in [1u32, 9, 12, 17, 42, 60, 88] {
            let inst = InstanceSet::Korf100.instance(id).unwrap();
            let (plain, plain_seen) = checkpoints(&inst.board, &h, Options::default());
            for depth in [1, 10, 1000] {
                let options = Options {
                    order_depth: depth,
                    ..Options::default()
                };
                let (r, seen) = checkpoints(&inst.board, &h, options);
                assert_eq!(r.solution_length(), Some(inst.optimal as usize), "#{id}");
                assert_eq!(seen, plain_seen, "instance {id}, order depth {depth}");
                assert_eq!(r.thresholds, plain.thresholds);
                if depth == 1000 {
                    let before = plain_seen.last().map_or(0, |c| c.generated);
                    plain_last += plain.generated - before;
                    ordered_last += r.generated - before;
                }
            }
        }
        assert_eq!((ordered_last, plain_last), (34_867_589, 33_445_976));
        // The 8-puzzle at every distance, with the machine's pruning: optimal.
        let g3 = Board::default_goal(Shape::new(3, 3).unwrap(), 1);
        let h3 = heuristic(&g3, "1,2,3,4/5,6,7,8", true);
        let options = Options {
            pruning: Pruning::Fsm,
            order_depth: 1000,
            ..Options::default()
        };
        for depth in 0..=31usize {
            let start = super::super::census::eight_puzzle_at(depth, 3).unwrap();
            let r = solve_with(
                &start,
                &h3,
                MoveOrder::default(),
                options,
                Control::default(),
            );
            assert_eq!(r.solution_length(), Some(depth), "distance {depth}");
        }
    }

    #[test]
    fn the_maximum_over_partitions_is_optimal_with_fewer_nodes_in_any_order() {
        // Korf's 15-puzzles with 5-5-5 and a second 5-5-5 of other tiles: the published
        // lengths, fewer nodes than 5-5-5 alone with either pruning, the same counts
        // whichever partition comes first (the lookups skipped are those that cannot
        // matter), and the parallel search's counts are the serial one's. The searches
        // read the tables' spread copies; with the packed tables instead (one partition:
        // the search specialised for two orientations; two: the general one) the counts,
        // thresholds and solutions are the same.
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let other = "1,2,5,6,9/3,4,7,8,11/10,12,13,14,15";
        let one = heuristic(&goal, "5-5-5", true);
        let both = heuristic(&goal, &format!("5-5-5|{other}"), true);
        let swapped = heuristic(&goal, &format!("{other}|5-5-5"), true);
        assert_eq!(both.spreads().len(), both.tables.len());
        let packed = [&one, &both].map(|h| h.clone().without_spreads());
        assert!(packed.iter().all(|h| h.spreads().is_empty()));
        for pruning in [Pruning::Parent, Pruning::Fsm] {
            let options = Options {
                pruning,
                ..Options::default()
            };
            let (mut one_total, mut both_total) = (0, 0);
            for id in [1u32, 9, 12, 17, 42, 60] {
                let inst = InstanceSet::Korf100.instance(id).unwrap();
                let solve = |h| solve_optimally(&inst.board, h, options, inst.optimal as usize);
                let (a, b, c) = (solve(&one), solve(&both), solve(&swapped));
                for (spread, packed) in [(&a, solve(&packed[0])), (&b, solve(&packed[1]))] {
                    assert_eq!(
                        (spread.generated, spread.expanded, &spread.moves),
                        (packed.generated, packed.expanded, &packed.moves),
                        "{pruning:?}, instance {id}"
                    );
                    assert_eq!(spread.thresholds_text(), packed.thresholds_text());
                }
                assert!(b.h0 >= a.h0);
                assert_eq!(
                    (b.generated, b.expanded, &b.moves),
                    (c.generated, c.expanded, &c.moves),
                    "{id}"
                );
                if id == 17 {
                    assert_parallel_as_serial(&inst.board, &both, options, &b);
                }
                one_total += a.generated;
                both_total += b.generated;
            }
            assert!(
                both_total * 4 < one_total * 3,
                "{pruning:?}: {both_total} of {one_total}"
            );
        }
    }

    #[test]
    fn the_lean_search_counts_as_the_general_one() {
        // Korf's 15-puzzles with one to four partitions (1, 2, 4 and 8 orientations with
        // the reflection): the lean search (`lean.rs`) generates and expands the same
        // nodes through the same thresholds to the same solution as the general one,
        // with either pruning, and so does its parallel search with four partitions.
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let four =
            "5-5-5|1,2,5,6,9/3,4,7,8,11/10,12,13,14,15|6-6-3|1,4,8,12,13/2,3,5,6,7/9,10,11,14,15";
        let two = &four[..four.match_indices('|').nth(1).unwrap().0];
        for (partitions, reflect, orientations) in [
            ("5-5-5", false, 1),
            ("5-5-5", true, 2),
            (two, true, 4),
            (four, true, 8),
        ] {
            let h = heuristic(&goal, partitions, reflect);
            for pruning in [Pruning::Parent, Pruning::Fsm] {
                let options = Options {
                    pruning,
                    ..Options::default()
                };
                for id in [1u32, 17, 60] {
                    let inst = InstanceSet::Korf100.instance(id).unwrap();
                    let lean = solve_optimally(&inst.board, &h, options, inst.optimal as usize);
                    let mut general = Search::new(&h, &inst.board, MoveOrder::KORF, options);
                    assert!(general.lean_fits());
                    assert_eq!(general.n_orient, orientations);
                    general.lean = false;
                    let general = deepen_serial(general, &inst.board, Control::default());
                    assert_eq!(
                        (
                            lean.generated,
                            lean.expanded,
                            &lean.moves,
                            lean.thresholds_text()
                        ),
                        (
                            general.generated,
                            general.expanded,
                            &general.moves,
                            general.thresholds_text()
                        ),
                        "{partitions}, {pruning:?}, instance {id}"
                    );
                    if orientations == 8 && id == 17 {
                        assert_parallel_as_serial(&inst.board, &h, options, &general);
                    }
                }
            }
        }
    }

    #[test]
    fn values_carried_down_the_tree_are_the_fresh_ones() {
        // The top of a 15-puzzle search cut at depth 12: every frontier node's pattern
        // values, carried down move by move (one bit a zero-aware lookup), are those
        // computed afresh from its board (by walking downhill for zero-aware tables);
        // plain and zero-aware, with and without the reflection, and with the dual
        // lookups (whose patterns lacking the blank's item keep stale values outside the
        // sum, so only the sums are compared).
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let start = InstanceSet::Korf100.instance(1).unwrap().board;
        let zero = super::super::pdb::tests::zero_heuristic;
        for (h, dual) in [
            (zero(&goal, "5-5-5", true), false),
            (zero(&goal, "6-6-3", false), false),
            (heuristic(&goal, "5-5-5", true), false),
            (heuristic(&goal, "5-5-5|6-6-3", true), true),
            (heuristic(&goal, "5-5-5", true).without_spreads(), true),
        ] {
            let options = Options {
                pruning: Pruning::Fsm,
                dual,
                ..Options::default()
            };
            let mut s = Search::new(&h, &start, MoveOrder::KORF, options);
            (s.bound, s.split) = (s.h0() + 30, 12);
            let (blank, md, state) = (start.blank(), s.md(), s.start_state());
            s.run(blank, 0, md, state, s.first_orientation());
            let frontier = std::mem::take(&mut s.frontier);
            assert!(frontier.len() > 1000, "{}", frontier.len());
            for node in &frontier {
                let mut fresh = s.clone();
                fresh.cells = node.cells;
                fresh.reset_values();
                for (o, (a, b)) in fresh.pats.iter().zip(&node.pats).enumerate() {
                    if s.orient[o].dual {
                        assert_eq!(a.sum, b.sum);
                        continue;
                    }
                    assert_eq!(
                        (a.val, a.rank, a.main, a.sum),
                        (b.val, b.rank, b.main, b.sum)
                    );
                    // The cells are carried where the lookups read them.
                    if s.lookup != SPREAD {
                        assert_eq!((a.pos, a.taken), (b.pos, b.taken));
                    }
                }
                // The orientation carried down to be looked up first has the largest sum.
                let sums = node.pats.iter().map(|p| p.sum);
                assert_eq!(Some(node.pats[node.first].sum), sums.max());
            }
        }
    }

    #[test]
    fn zero_aware_tables_solve_optimally_with_fewer_nodes() {
        // Korf's 15-puzzles with 5-5-5, plain and zero-aware (the same tables' states,
        // unminimised over the blank's regions): the published lengths, h(s0) at least
        // the plain one, fewer nodes in all, the parallel search's counts the serial one's.
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let plain = heuristic(&goal, "5-5-5", true);
        let zero = super::super::pdb::tests::zero_heuristic(&goal, "5-5-5", true);
        let options = Options {
            pruning: Pruning::Fsm,
            ..Options::default()
        };
        let (mut plain_total, mut zero_total) = (0, 0);
        for id in [1u32, 9, 12, 17, 42, 60] {
            let inst = InstanceSet::Korf100.instance(id).unwrap();
            let a = solve_optimally(&inst.board, &plain, options, inst.optimal as usize);
            let b = solve_optimally(&inst.board, &zero, options, inst.optimal as usize);
            assert!(b.h0 >= a.h0);
            assert_eq!(b.h0, zero.evaluate(&inst.board.cells));
            if id == 17 {
                assert_parallel_as_serial(&inst.board, &zero, options, &b);
            }
            plain_total += a.generated;
            zero_total += b.generated;
        }
        assert!(
            zero_total * 10 < plain_total * 9,
            "{zero_total} of {plain_total}"
        );
    }

    /// The heuristic `name` towards `goal` from the default cache (built there when
    /// missing), its tables described on stdout, for [`measure`].
    fn measured_heuristic(name: &str, goal: &Board) -> PdbHeuristic {
        let (heuristic_name, p) = super::super::pdb::parse_partitions(name, goal).unwrap();
        let started = Instant::now();
        let (h, origins) = PdbHeuristic::load_or_build(
            goal,
            heuristic_name,
            p,
            std::path::Path::new(crate::tiles::pdb::DEFAULT_CACHE_DIR),
            super::super::pdb::TableKind::of(name),
            &|i, d, n| eprint!("\rpattern {i}: {d}/{n}   "),
        )
        .unwrap();
        eprintln!();
        println!(
            "{name}: {:?} in {:.2}s, {} bytes",
            origins,
            started.elapsed().as_secs_f64(),
            h.bytes()
        );
        for t in &h.tables {
            println!(
                "  tiles {:?}: {} entries, {} bytes, built in {:.2}s, max {}, mean {:.3}, {}",
                t.pattern.tiles,
                t.pattern.entries(),
                t.bytes(),
                t.build_seconds,
                t.max_value(),
                t.mean_value(),
                super::super::pdb::histogram_text(&t.histogram)
            );
        }
        for z in &h.zero {
            println!(
                "  tiles {:?}: zero-aware, {} bytes, built in {:.2}s, max {}, mean {:.3}, {}",
                z.pattern.tiles,
                z.bytes(),
                z.build_seconds,
                z.max_value(),
                z.mean_value(),
                super::super::pdb::histogram_text(&z.histogram)
            );
        }
        h
    }

    /// One search of [`measure`]: parallel with `PAR`, else serial, printing each
    /// iteration's generated nodes with `ITERS`.
    fn measured_solve(start: &Board, h: &PdbHeuristic, options: Options) -> IdaResult {
        if std::env::var("PAR").is_ok() {
            return solve_parallel_with(start, h, MoveOrder::KORF, options, Control::default());
        }
        let mut last = 0;
        let mut show = |c: &super::super::deepen::Checkpoint| {
            if std::env::var("ITERS").is_ok() {
                println!("    to {}: {} generated", c.next, c.generated - last);
            }
            last = c.generated;
        };
        let control = Control {
            on_iteration: Some(&mut show),
            ..Control::default()
        };
        solve_with(start, h, MoveOrder::KORF, options, control)
    }

    /// Measurements (not a check): `PDB=7-8 cargo test --release --lib pdb_ida::tests::measure -- --ignored --nocapture`;
    /// `SET=korf24 PDB=6-6-6-6x7 FSM=1 IDS=38,40` for the 24-puzzle with the machine's
    /// pruning (`FSM_DEPTH=16` its depth; the tables from the default cache); `ITERS=1` prints each iteration's
    /// nodes, `PAR=1` searches in parallel, `PLAIN=1` drops the reflection, `PACKED=1`
    /// searches the packed tables instead of their spread copies, `ORDER=20` orders the
    /// children by f above depth 20.
    #[test]
    #[ignore]
    fn measure() {
        let name = std::env::var("PDB").unwrap_or("5-5-5".into());
        let set = match std::env::var("SET").as_deref() {
            Ok("korf24") => InstanceSet::Korf24,
            _ => InstanceSet::Korf100,
        };
        let pruning = match std::env::var("FSM") {
            Ok(_) => Pruning::Fsm,
            Err(_) => Pruning::Parent,
        };
        let order_depth = std::env::var("ORDER").map_or(0, |d| d.parse().unwrap());
        let options = Options {
            pruning,
            fsm_depth: std::env::var("FSM_DEPTH")
                .map_or(super::super::fsm::DEFAULT_DEPTH, |d| d.parse().unwrap()),
            order_depth,
            dual: std::env::var("DUAL").is_ok(),
            bpmx: std::env::var("BPMX").is_ok(),
        };
        let goal = Board::default_goal(set.instances()[0].board.shape(), 1);
        let h = measured_heuristic(&name, &goal);
        if std::env::var("PACKED").is_err() {
            let started = Instant::now();
            h.spreads();
            println!("spread copies in {:.2}s", started.elapsed().as_secs_f64());
        }
        if std::env::var("BUILD_ONLY").is_ok() {
            return;
        }
        let reflect_only = std::env::var("PLAIN").is_ok();
        let mut h = h;
        if reflect_only {
            h.reflection = None;
        }
        if std::env::var("PACKED").is_ok() {
            h = h.without_spreads();
        }
        let ids: Vec<u32> = std::env::var("IDS")
            .map(|s| s.split(',').map(|x| x.parse().unwrap()).collect())
            .unwrap_or((1..=set.instances().len() as u32).collect());
        let started = Instant::now();
        let (mut nodes, mut h0) = (0u64, 0u64);
        for &id in &ids {
            let inst = set.instance(id).unwrap();
            let r = measured_solve(&inst.board, &h, options);
            assert_eq!(
                r.solution_length(),
                Some(inst.optimal as usize),
                "instance {id}"
            );
            nodes += r.generated;
            h0 += u64::from(r.h0);
            if ids.len() < 10 {
                println!(
                    "  #{id}: {} generated, {} expanded, {:.3}s, {:.2} M/s",
                    r.generated,
                    r.expanded,
                    r.seconds,
                    r.generated as f64 / r.seconds / 1e6
                );
            }
        }
        let secs = started.elapsed().as_secs_f64();
        println!(
            "{name}{}: {} instances, mean h0 {:.3}, nodes {} (mean {:.0}), {:.3}s, {:.0} nodes/s",
            if reflect_only { " (no reflection)" } else { "" },
            ids.len(),
            h0 as f64 / ids.len() as f64,
            nodes,
            nodes as f64 / ids.len() as f64,
            secs,
            nodes as f64 / secs
        );
    }

    /// Every state of the 3×3 puzzle with the blank first, by its exact distance.
    fn distances(goal: &Board) -> std::collections::HashMap<Board, u32> {
        let mut dist = std::collections::HashMap::from([(*goal, 0)]);
        let mut layer = vec![*goal];
        let mut d = 0;
        while !layer.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for b in &layer {
                for (n, _, _) in b.successors(MoveOrder::KORF) {
                    dist.entry(n).or_insert_with(|| {
                        next.push(n);
                        d
                    });
                }
            }
            layer = next;
        }
        dist
    }

    #[test]
    fn dual_lookups_are_admissible_on_every_state() {
        // All 181,440 states of the 3×3 puzzle with the blank first, against their exact
        // distances: the maximum with the dual lookups never overestimates and is higher
        // than the regular lookups' on thousands of states. Without leaving out the
        // patterns whose goal walls the blank's cell off, 65 states were overestimated
        // with the first partition (its tiles 1 and 3 wall off cell 0).
        let shape = Shape::new(3, 3).unwrap();
        let goal = Board::from_tiles(shape, &(0..9).collect::<Vec<u32>>(), "goal").unwrap();
        let dist = distances(&goal);
        assert_eq!(dist.len(), 181_440);
        let dual = Options {
            dual: true,
            ..Options::default()
        };
        for (partition, reflect, raised) in [
            ("1,2,3,4/5,6,7,8", false, 8762),
            ("1,2,5/3,4,6,7,8", true, 13_477),
        ] {
            let h = heuristic(&goal, partition, reflect);
            let (mut over, mut higher, mut exact) = (0, 0, 0);
            for (b, &d) in &dist {
                let plain = Search::new(&h, b, MoveOrder::KORF, Options::default()).h0();
                let with = Search::new(&h, b, MoveOrder::KORF, dual).h0();
                over += u32::from(with > d);
                higher += u32::from(with > plain);
                exact += u32::from(with == d);
                assert!(with >= plain);
            }
            assert_eq!((over, higher), (0, raised), "{partition}");
            assert!(exact > 20_000, "{partition}: {exact}");
        }
    }

    #[test]
    fn dual_lookups_and_pathmax_solve_optimally_with_fewer_nodes() {
        // Korf's 15-puzzles 1-20 with 5-5-5 and the machine's pruning: the published
        // lengths with the dual lookups, with and without pathmax, and pathmax alone;
        // the dual lookups generate 1.65 times fewer nodes, pathmax 3% fewer again (it
        // cuts off a node's later children only).
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let h = heuristic(&goal, "5-5-5", true);
        let with = |dual, bpmx| Options {
            pruning: Pruning::Fsm,
            dual,
            bpmx,
            ..Options::default()
        };
        let mut totals = [0u64; 4];
        for id in 1..=20u32 {
            let inst = InstanceSet::Korf100.instance(id).unwrap();
            let options = [
                with(false, false),
                with(true, false),
                with(true, true),
                with(false, true),
            ];
            for (total, options) in totals.iter_mut().zip(options) {
                let r = solve_with(
                    &inst.board,
                    &h,
                    MoveOrder::KORF,
                    options,
                    Control::default(),
                );
                assert_eq!(
                    r.solution_length(),
                    Some(inst.optimal as usize),
                    "#{id} {options:?}"
                );
                *total += r.generated;
            }
        }
        assert_eq!(totals, [33_348_140, 20_169_355, 19_558_916, 32_951_922]);
    }

    #[test]
    fn dual_lookups_refuse_what_they_cannot_read() {
        let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let dual = Options {
            dual: true,
            ..Options::default()
        };
        let g3 = Board::default_goal(Shape::new(3, 3).unwrap(), 1);
        let nine = ["5-5-5"; 9].join("|");
        let error = |goal: &Board, p: Option<&str>| check_options(goal, p, &dual).unwrap_err();
        let plain_only = "dual lookups need plain pattern databases (pdb:…)";
        assert_eq!(error(&goal, Some("zpdb:5-5-5")), plain_only);
        assert_eq!(error(&goal, None), plain_only);
        assert_eq!(
            error(&g3, Some("1,2,3,4/5,6,7,8")),
            "dual lookups need the goal with the blank first and tile t on cell t, not 1 2 3 4 5 6 7 8 0"
        );
        assert_eq!(
            error(&goal, Some(&nine)),
            "dual lookups take up to 8 partitions, not 9"
        );
        let eight = ["5-5-5"; 8].join("|");
        assert_eq!(check_options(&goal, Some(&eight), &dual), Ok(()));
        assert_eq!(check_options(&g3, None, &Options::default()), Ok(()));
    }
}
