//! Duplicate move sequences pruned by a finite-state machine (Taylor & Korf 1993).
//!
//! IDA* on a sliding-tile puzzle searches a tree, not the graph: two sequences of blank
//! moves that reach the same state are both searched, with everything below them. The
//! undoing move (`UD`, `LR`, …) is the shortest such pair, and every search here already
//! prunes it. This module finds all the others up to a length `L` and prunes them too.
//!
//! **The sequences.** From every cell of the board, a breadth-first search over the
//! moves of a blank on a board of labelled tiles enumerates the move sequences of length
//! `≤ L` in lexicographic order (U < D < L < R), and keeps for each state the first
//! sequence that reaches it. A sequence that reaches a state reached before, by a shorter
//! or by a lexicographically smaller sequence of the same length, is *forbidden from that
//! cell*. Only the minimal ones are kept: no proper suffix of one is itself forbidden
//! (from the cell where the suffix starts); their prefixes never are, since a breadth-first
//! search extends only the first sequence to each state.
//!
//! **Why the search stays optimal.** Take the lexicographically smallest of the optimal
//! solutions. If it held a forbidden sequence, replacing that sequence by the one it
//! duplicates would give a shorter solution, or an optimal one smaller in lexicographic
//! order: either way a contradiction. So that solution is never pruned, every IDA*
//! threshold up to its length keeps it, and IDA* still returns an optimal solution (not
//! necessarily that one: it returns the first in its own move order).
//!
//! **The machine.** The forbidden sequences of all cells go into one Aho–Corasick
//! automaton over the four moves. A state of the search carries the automaton's state
//! (the longest suffix of its path that is a prefix of a forbidden sequence); a move is
//! pruned when the automaton's next state ends a forbidden sequence *from the cell
//! where that sequence started*, which is known from the cell where it ends: each
//! state keeps a bit mask of the cells at which reaching it completes one. Few masks are
//! distinct (176 on the 5 × 5 board at depth 14), so a state is one 16-byte entry holding,
//! for each of its four moves, the next state and the place of that state's mask in a
//! table of the distinct ones (a kilobyte, always in the first-level cache): a node's
//! moves, pruned or not, read a quarter of a cache line and that table, and allocate
//! nothing. A sequence that equals the empty one (a cycle) or a shorter one is pruned by
//! the same rule.
//!
//! **Made minimal.** The Aho–Corasick automaton has states that no sequence of moves can
//! tell apart (every sequence from them bans the same cells at each step); Moore's
//! partition refinement merges them, which prunes the same paths with a quarter fewer
//! states on the 5 × 5 board (59,735 of 79,376 at depth 14, 349,557 of 471,775 at 16,
//! 1,918,680 of 2,603,776 at 18).

use super::board::{Dir, MAX_CELLS, Shape};
use rayon::prelude::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::VecDeque;
use std::sync::Arc;

/// The machine's depth unless a search asks for another. On the 5 × 5 board: 64,211
/// sequences, a machine of 59,735 states (0.96 MB; 79,376 states before it was made
/// minimal). Why 14: a shallower machine prunes fewer nodes, a deeper one prunes more
/// but its automaton no longer fits the processor's caches, so its reads wait on the
/// memory and the search is slower (`docs/24-puzzle.md` has the measurements).
pub const DEFAULT_DEPTH: usize = 14;

/// The deepest machine a search may ask for: on the 5 × 5 board, depth 18's automaton
/// takes gigabytes to build, and each further two moves about six times as much.
pub const DEEPEST: usize = 18;

/// The longest sequences a machine can compare: a sequence is kept in 64 bits, two a move.
pub const MAX_DEPTH: usize = 32;

/// Which duplicate move sequences a search prunes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Pruning {
    /// The move undoing the previous one (Korf 1985; Korf & Felner 2002).
    #[default]
    Parent,
    /// Every duplicate sequence of the [`Fsm`] (Taylor & Korf 1993).
    Fsm,
}

impl Pruning {
    pub const NAMES: &[&str] = &["parent", "fsm"];

    pub fn from_name(name: &str) -> Option<Pruning> {
        match name {
            "parent" => Some(Pruning::Parent),
            "fsm" => Some(Pruning::Fsm),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Pruning::Parent => "parent",
            Pruning::Fsm => "fsm",
        }
    }
}

/// The pruning automaton of one board shape.
#[derive(Debug, Clone)]
pub struct Fsm {
    /// One entry a state: its moves, each with the next state and which cells it bans,
    /// so that checking a node's children reads only the node's own entry and one small
    /// table. Against the next state's mask read from an array of masks (the children's
    /// states are anywhere), 3–9% faster on the 24-puzzle (6% on average over four pairs
    /// of runs side by side).
    table: Vec<Entry>,
    /// The distinct masks of cells at which reaching a state completes a forbidden
    /// sequence, `masks[0]` the empty one (176 on the 5 × 5 board at depth 14): an entry
    /// names one by its place here, in the bits above [`Self::state_bits`].
    masks: Vec<u32>,
    /// The bits of an entry's word that name the next state.
    state_bits: u32,
    /// The forbidden sequences of the machine (minimal ones, over all cells).
    pub sequences: usize,
    /// The longest sequences compared.
    pub depth: usize,
}

/// One state of the machine: for move `d` (a [`Dir`] as an index), word `d` holds the
/// state after it (the low [`Fsm::state_bits`] bits) and, above them, the place in
/// [`Fsm::masks`] of the cells at which reaching that state completes a forbidden
/// sequence. A quarter of a cache line, aligned so it never straddles two.
#[derive(Debug, Clone, Copy)]
#[repr(align(16))]
struct Entry([u32; 4]);

/// The automaton while it is built: `next[s][d]`, the state after move `d` from state
/// `s` (`u32::MAX`: none yet); `banned[s]`, the cells at which reaching `s` completes a
/// forbidden sequence.
struct Trie {
    next: Vec<[u32; 4]>,
    banned: Vec<u32>,
}

/// A move sequence as two bits a move, the first move lowest, and its length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Seq {
    bits: u64,
    len: u8,
}

impl Seq {
    fn dir(self, i: usize) -> usize {
        ((self.bits >> (2 * i)) & 3) as usize
    }

    fn suffix(self, i: usize) -> Seq {
        Seq {
            bits: self.bits >> (2 * i),
            len: self.len - i as u8,
        }
    }
}

impl Fsm {
    /// The state before any move.
    pub const START: u32 = 0;

    /// The machine for sequences of up to `depth` moves (at most [`MAX_DEPTH`]) on `shape`.
    pub fn build(shape: Shape, depth: usize) -> Fsm {
        Fsm::build_with(shape, depth, true)
    }

    /// [`Self::build`], the automaton made minimal or not (to test that it prunes the same).
    fn build_with(shape: Shape, depth: usize, minimise: bool) -> Fsm {
        let depth = depth.min(MAX_DEPTH);
        let found: Vec<(u8, Seq)> = (0..shape.cells())
            .into_par_iter()
            .flat_map_iter(|cell| {
                duplicates(shape, cell, depth)
                    .into_iter()
                    .map(move |seq| (cell as u8, seq))
            })
            .collect();
        let mut forbidden = HashSet::with_capacity_and_hasher(found.len(), Default::default());
        forbidden.extend(found.iter().copied());
        // A sequence is minimal when no proper suffix is forbidden from the cell where
        // it starts; the cells come with the check, and the last is where the sequence
        // ends (its bit in the automaton). Checked in parallel: most of the build's time.
        let mut minimal: Vec<(u8, Seq, usize)> = found
            .par_iter()
            .filter_map(|&(cell, seq)| {
                let cells = cells_along(shape, usize::from(cell), seq);
                let minimal = (1..usize::from(seq.len).saturating_sub(1))
                    .all(|i| !forbidden.contains(&(cells[i], seq.suffix(i))));
                minimal.then(|| (cell, seq, usize::from(cells[usize::from(seq.len)])))
            })
            .collect();
        minimal.sort_by_key(|&(cell, s, _)| (s.len, s.bits, cell));
        let mut trie = Trie {
            next: vec![[u32::MAX; 4]],
            banned: vec![0],
        };
        for &(_, seq, end) in &minimal {
            trie.insert(seq, end);
        }
        trie.link();
        let (masks, ids) = distinct(&trie.banned);
        let moves: Vec<Moves> = (trie.next.iter())
            .map(|n| (*n, n.map(|s| ids[s as usize])))
            .collect();
        let next = if minimise {
            minimal_machine(&moves)
        } else {
            moves
        };
        let state_bits = (next.len() as u32).next_power_of_two().trailing_zeros();
        assert!(
            masks.len() <= 1 << (32 - state_bits),
            "a machine of depth {depth} is too large"
        );
        let table = (next.iter())
            .map(|&(next, out)| Entry(std::array::from_fn(|d| next[d] | out[d] << state_bits)))
            .collect();
        Fsm {
            table,
            masks,
            state_bits,
            sequences: minimal.len(),
            depth,
        }
    }

    /// The machine of `shape` for sequences of up to `depth` moves, built once for all
    /// the users of `memo` (the runs of a pipeline share their context's): concurrent
    /// callers wait for the first one's build instead of building it again.
    pub fn shared(shape: Shape, depth: usize, memo: &crate::util::memo::Memo) -> Arc<Fsm> {
        let key = format!("tiles/fsm|{}x{}|{depth}", shape.width, shape.height);
        let built = memo.get_or_try_init(&key, || Ok(Fsm::build(shape, depth)));
        built.expect("building a machine cannot fail").0
    }

    /// The number of states of the automaton.
    pub fn states(&self) -> usize {
        self.table.len()
    }

    /// The memory of the automaton's table.
    pub fn bytes(&self) -> usize {
        self.table.len() * std::mem::size_of::<Entry>() + self.masks.len() * 4
    }

    /// Asks the processor to bring state `s`'s entry into its caches, for a node whose
    /// moves are generated soon (the 0.96 MB machine of the 24-puzzle does not fit the
    /// first two levels of cache). A hint: no effect on what the program computes.
    #[inline(always)]
    pub fn prefetch(&self, s: u32) {
        if let Some(e) = self.table.get(s as usize) {
            crate::util::huge::prefetch(e);
        }
    }

    /// The state after move `dir` (a [`Dir`] as an index) from state `s`, the blank
    /// moving to `cell`; `None` when the move completes a forbidden sequence (it is
    /// pruned).
    #[inline(always)]
    pub fn next(&self, s: u32, dir: usize, cell: usize) -> Option<u32> {
        let word = self.table[s as usize].0[dir];
        let state = word & ((1 << self.state_bits) - 1);
        let banned = self.masks[(word >> self.state_bits) as usize];
        ((banned >> cell) & 1 == 0).then_some(state)
    }
}

/// The minimal machine equivalent to the automaton whose states' moves are `moves`
/// (Moore's partition refinement): two states are merged when every sequence of moves from
/// them bans the same cells at each step. The start state stays state 0.
fn minimal_machine(moves: &[Moves]) -> Vec<Moves> {
    let mut class: Vec<u32> = vec![0; moves.len()];
    let mut count = 1;
    loop {
        let mut place: HashMap<Moves, u32> = HashMap::default();
        let refined: Vec<u32> = (moves.iter())
            .map(|(next, out)| {
                let key = (*out, next.map(|n| class[n as usize]));
                let fresh = place.len() as u32;
                *place.entry(key).or_insert(fresh)
            })
            .collect();
        let refined_count = place.len();
        class = refined;
        if refined_count == count {
            break;
        }
        count = refined_count;
    }
    let mut machine = vec![([0; 4], [0; 4]); count];
    for (&c, (next, out)) in class.iter().zip(moves) {
        machine[c as usize] = (next.map(|n| class[n as usize]), *out);
    }
    machine
}

/// A state's four moves: for each, the next state and the place of its mask.
type Moves = ([u32; 4], [u32; 4]);

/// The distinct values of `banned`, the empty mask first, and each one's place among them.
fn distinct(banned: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut masks = vec![0u32];
    let mut place = HashMap::from_iter([(0u32, 0u32)]);
    let ids = banned
        .iter()
        .map(|&m| {
            *place.entry(m).or_insert_with(|| {
                masks.push(m);
                masks.len() as u32 - 1
            })
        })
        .collect();
    (masks, ids)
}

impl Trie {
    /// Adds `seq`, forbidden when it ends on cell `end`, to the trie.
    fn insert(&mut self, seq: Seq, end: usize) {
        let mut s = 0usize;
        for i in 0..usize::from(seq.len) {
            let d = seq.dir(i);
            if self.next[s][d] == u32::MAX {
                self.next[s][d] = self.next.len() as u32;
                self.next.push([u32::MAX; 4]);
                self.banned.push(0);
            }
            s = self.next[s][d] as usize;
        }
        self.banned[s] |= 1 << end;
    }

    /// Turns the trie into the automaton (Aho–Corasick): every missing move follows the
    /// longest proper suffix that is in the trie, and a state completes every sequence
    /// its suffixes complete.
    fn link(&mut self) {
        let mut fail = vec![0u32; self.next.len()];
        let mut queue = VecDeque::new();
        for d in 0..4 {
            match self.next[0][d] {
                u32::MAX => self.next[0][d] = 0,
                v => queue.push_back(v),
            }
        }
        while let Some(u) = queue.pop_front() {
            let u = u as usize;
            let f = fail[u] as usize;
            self.banned[u] |= self.banned[f];
            for d in 0..4 {
                match self.next[u][d] {
                    u32::MAX => self.next[u][d] = self.next[f][d],
                    v => {
                        fail[v as usize] = if u == 0 { 0 } else { self.next[f][d] };
                        queue.push_back(v);
                    }
                }
            }
        }
    }
}

/// The cells the blank visits along `seq` from `cell`, the start included (the first
/// `seq.len + 1`). `seq` was found on `shape` from `cell`, so every move stays on the
/// board; a move off it would stay put, as if the blank were still where it was.
fn cells_along(shape: Shape, cell: usize, seq: Seq) -> [u8; MAX_DEPTH + 1] {
    let mut cells = [cell as u8; MAX_DEPTH + 1];
    let mut c = cell;
    for i in 0..usize::from(seq.len) {
        c = shape.neighbour(c, Dir::ALL[seq.dir(i)]).unwrap_or(c);
        cells[i + 1] = c as u8;
    }
    cells
}

/// The move sequences of up to `depth` moves from `cell` that reach a state already
/// reached by a shorter or a lexicographically smaller sequence, found breadth first and
/// never extended.
fn duplicates(shape: Shape, cell: usize, depth: usize) -> Vec<Seq> {
    // A state as five bits a cell: the tiles labelled by their first cell, + 1.
    let mut start = 0u128;
    for c in 0..shape.cells() {
        if c != cell {
            start |= (c as u128 + 1) << (5 * c);
        }
    }
    let mut seen = HashSet::default();
    seen.insert(start);
    let mut level = vec![(start, cell, Seq { bits: 0, len: 0 })];
    let mut found = Vec::new();
    for len in 0..depth {
        let mut next = Vec::with_capacity(level.len() * 2);
        for &(state, blank, seq) in &level {
            for (d, &dir) in Dir::ALL.iter().enumerate() {
                let Some(q) = shape.neighbour(blank, dir) else {
                    continue;
                };
                let tile = (state >> (5 * q)) & 31;
                let child = (state | tile << (5 * blank)) & !(31u128 << (5 * q));
                let seq = Seq {
                    bits: seq.bits | (d as u64) << (2 * len),
                    len: len as u8 + 1,
                };
                if seen.insert(child) {
                    next.push((child, q, seq));
                } else {
                    found.push(seq);
                }
            }
        }
        level = next;
    }
    found
}

const _: () = assert!(MAX_CELLS <= 32, "a cell mask is a u32");

#[cfg(test)]
mod tests {
    use super::*;

    /// Every state reachable within `depth` moves from the start with the blank on
    /// `cell`, by search with the machine and without (duplicates kept apart by state).
    fn reached(shape: Shape, cell: usize, depth: usize, fsm: Option<&Fsm>) -> (HashSet<u128>, u64) {
        let mut start = 0u128;
        for c in 0..shape.cells() {
            if c != cell {
                start |= (c as u128 + 1) << (5 * c);
            }
        }
        let mut all = HashSet::default();
        let mut paths = 0u64;
        let mut stack = vec![(start, cell, Fsm::START, 0usize, 4usize)];
        while let Some((state, blank, s, len, prev)) = stack.pop() {
            all.insert(state);
            paths += 1;
            if len == depth {
                continue;
            }
            for (d, &dir) in Dir::ALL.iter().enumerate() {
                let Some(q) = shape.neighbour(blank, dir) else {
                    continue;
                };
                let ns = match fsm {
                    Some(m) => {
                        let Some(ns) = m.next(s, d, q) else {
                            continue;
                        };
                        ns
                    }
                    None if prev < 4 && Dir::ALL[prev].inverse() == dir => continue,
                    None => 0,
                };
                let tile = (state >> (5 * q)) & 31;
                let child = (state | tile << (5 * blank)) & !(31u128 << (5 * q));
                stack.push((child, q, ns, len + 1, d));
            }
        }
        (all, paths)
    }

    #[test]
    fn the_machine_keeps_every_state_and_prunes_duplicate_paths() {
        // Every state within 12 moves is still reached with the machine, by fewer paths;
        // beyond the machine's own depth too (its sequences are pruned anywhere in a path).
        for (w, h, depth, most) in [(3, 3, 10, 0.71), (4, 4, 8, 0.87), (5, 5, 8, 0.92)] {
            let shape = Shape::new(w, h).unwrap();
            let fsm = Fsm::build(shape, depth);
            for cell in [0, shape.cells() / 2, shape.cells() - 1] {
                let (plain, plain_paths) = reached(shape, cell, 12, None);
                let (pruned, pruned_paths) = reached(shape, cell, 12, Some(&fsm));
                assert_eq!(pruned, plain, "{w}x{h} from cell {cell}");
                // Measured: 3x3 0.70, 4x4 0.85-0.86, 5x5 0.89-0.91 of the paths.
                assert!(
                    (pruned_paths as f64) < most * plain_paths as f64,
                    "{w}x{h} from {cell}: {pruned_paths} paths of {plain_paths}"
                );
            }
        }
    }

    #[test]
    fn the_minimal_machine_prunes_what_the_automaton_prunes() {
        // The same paths kept from three cells, each a little past the machine's depth,
        // by a machine a fifth smaller.
        let cases = [
            (3, 3, 10, 14, (250, 318)),
            (4, 4, 10, 13, (1291, 1631)),
            (5, 5, 8, 11, (161, 201)),
        ];
        for (w, h, depth, paths, states) in cases {
            let shape = Shape::new(w, h).unwrap();
            let minimal = Fsm::build_with(shape, depth, true);
            let automaton = Fsm::build_with(shape, depth, false);
            assert_eq!(minimal.sequences, automaton.sequences);
            assert_eq!((minimal.states(), automaton.states()), states, "{w}x{h}");
            for cell in [0, shape.cells() / 2, shape.cells() - 1] {
                let kept = reached(shape, cell, paths, Some(&minimal));
                assert_eq!(kept, reached(shape, cell, paths, Some(&automaton)));
            }
        }
    }

    #[test]
    fn the_24_puzzles_machine_is_the_documented_one() {
        // DEFAULT_DEPTH's documentation: 64,211 sequences, 59,735 states of 16 bytes
        // (79,376 in the automaton before it is made minimal).
        // Counted before the minimality check ran in parallel; the parallel build keeps it.
        let fsm = Fsm::build(Shape::new(5, 5).unwrap(), DEFAULT_DEPTH);
        assert_eq!((fsm.sequences, fsm.states()), (64_211, 59_735));
        assert_eq!(fsm.bytes(), 59_735 * 16 + 176 * 4);
    }

    #[test]
    fn each_depth_is_a_machine_of_its_own_built_once() {
        let shape = Shape::new(3, 3).unwrap();
        let memo = crate::util::memo::Memo::default();
        let (m6, m8) = (Fsm::shared(shape, 6, &memo), Fsm::shared(shape, 8, &memo));
        assert_eq!((m6.depth, m8.depth), (6, 8));
        assert!(m6.sequences < m8.sequences);
        assert!(Arc::ptr_eq(&m8, &Fsm::shared(shape, 8, &memo)));
        let other = crate::util::memo::Memo::default();
        assert!(!Arc::ptr_eq(&m8, &Fsm::shared(shape, 8, &other)));
    }

    #[test]
    fn the_shortest_duplicates_are_the_undoing_moves_and_the_four_cycles() {
        // Up to depth 2 the only duplicates are a move and its inverse: from a middle
        // cell all four pairs; a 3x3 corner has two. No sequence of 3 or 4 moves on a
        // sliding-tile board reaches a state another reaches (the first cycles of the
        // blank's moves that leave the tiles in place have 12 moves), so depth 4 adds none.
        let shape = Shape::new(3, 3).unwrap();
        assert_eq!(duplicates(shape, 4, 2).len(), 4);
        assert_eq!(duplicates(shape, 0, 2).len(), 2);
        let fsm2 = Fsm::build(shape, 2);
        let fsm4 = Fsm::build(shape, 4);
        assert_eq!(fsm2.sequences, fsm4.sequences);
        // Every cell's undoing pairs: 2 * (number of edges) * 2 directions = 24 on 3x3.
        assert_eq!(fsm2.sequences, 24);
        // From the middle cell 4: up (to cell 1) is generated, then down (back to 4)
        // is pruned and left (to cell 0) is not.
        let up = fsm2.next(Fsm::START, 0, 1).unwrap();
        assert_eq!(fsm2.next(up, 1, 4), None);
        assert!(fsm2.next(up, 2, 0).is_some());
    }

    /// Measurements (not a check): `cargo test --release --lib fsm::tests::measure -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn measure() {
        for (w, h) in [(3, 3), (4, 4), (5, 5)] {
            let shape = Shape::new(w, h).unwrap();
            let (_, plain) = reached(shape, shape.cells() / 2, 16, None);
            for depth in [8, 10, 12, 14, 16, 18] {
                let t = std::time::Instant::now();
                let fsm = Fsm::build(shape, depth);
                let secs = t.elapsed().as_secs_f64();
                let (_, pruned) = reached(shape, shape.cells() / 2, 16, Some(&fsm));
                println!(
                    "{w}x{h} depth {depth}: {} sequences, {} states, {} bytes, {secs:.2}s; paths of 16 moves from the middle {plain} -> {pruned} ({:.2}x)",
                    fsm.sequences,
                    fsm.states(),
                    fsm.bytes(),
                    plain as f64 / pruned as f64
                );
            }
        }
    }
}
