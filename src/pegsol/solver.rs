//! The stronger solver (`--solver strong`): proves the fewest pegs reachable.
//!
//! For a target of T pegs, T = 1, 2, …, a depth-first search looks for a board with T
//! pegs. Boards are identified up to the symmetries of the holes and a transposition
//! table remembers every board (up to symmetry) from which the target was proved out of
//! reach, so no position is searched twice. Jumps are tried in order of how far they
//! bring the jumping peg toward the middle; short restarts with shuffled ties (each
//! twice as long as the last, the table kept) keep an early wrong turn from costing
//! the whole search. Two invariants prune:
//!
//! * the position class (the "rule of three": peg-count parities on the diagonals
//!   x + y and x − y mod 3 never change) tells which holes a last peg could stand on; if
//!   none, one peg is impossible without any search;
//! * for a one-peg target, one Manhattan pagoda function per such hole f (weight σ^d at
//!   distance d from f, σ = (√5 − 1)/2; a jump never raises its sum) must still be ≥ 1
//!   for some f, otherwise no jump sequence can end on a single peg.
//!
//! The first target reached is therefore the proved minimum: every smaller target was
//! searched exhaustively (or excluded by the class) before it.

use std::time::Duration;

use crate::search::{Limits, Stop};

use super::board::{Board, CELLS, Jump, Shape, coords};
use super::table::{Key, KeySet, Packer};

/// What the stronger solver found.
#[derive(Debug, Clone, PartialEq)]
pub struct StrongResult {
    /// Jumps from the start to the best board found.
    pub solution: Vec<Jump>,
    pub initial_pegs: u32,
    pub pegs_left: u32,
    /// Why the search ended: [`Stop::Solved`] when no board with fewer pegs than
    /// `pegs_left` is reachable (proved by exhaustive search), else the limit that came
    /// first (the best board found so far is kept).
    pub stop: Stop,
    /// Boards expanded (searched below) and jumps generated.
    pub expanded: u64,
    pub generated: u64,
    /// Boards kept in the transposition table at the end.
    pub table_entries: u64,
    pub elapsed: Duration,
}

impl StrongResult {
    /// True when no board with fewer pegs is reachable (proved by exhaustive search).
    pub fn proved_optimal(&self) -> bool {
        self.stop == Stop::Solved
    }

    pub fn expanded_per_second(&self) -> f64 {
        self.expanded as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The position class of a board: four parity bits (see the module docs).
pub fn position_class(b: Board) -> u8 {
    let (mut a, mut d) = ([0u32; 3], [0u32; 3]);
    let mut m = b.0;
    while m != 0 {
        let c = m.trailing_zeros();
        m &= m - 1;
        let (x, y) = coords(c);
        a[(x + y) % 3] += 1;
        d[(x + 9 - y) % 3] += 1;
    }
    let bit = |v: u32| (v & 1) as u8;
    bit(a[0] + a[1]) | bit(a[1] + a[2]) << 1 | bit(d[0] + d[1]) << 2 | bit(d[1] + d[2]) << 3
}

/// Holes where a single last peg could stand, by the position class of `start`.
pub fn possible_last_holes(shape: &Shape, start: Board) -> Vec<u32> {
    let class = position_class(start);
    (0..CELLS as u32)
        .filter(|&c| shape.is_hole(c) && position_class(Board(1u128 << c)) == class)
        .collect()
}

/// Runs the solver within `limits`: `limits.expansions` caps expansions and
/// `limits.memory` the transposition table (the search stops before a growth of the
/// table would pass it); either way the best board found is kept, not proved optimal.
/// The solver looks at no stop request (`limits.cancel`).
pub fn solve(shape: &Shape, start: Board, limits: &Limits) -> StrongResult {
    let packer = Packer::new(shape.holes());
    let memory = limits.memory.unwrap_or(u64::MAX);
    if packer.fits_u64 {
        let mut s = Search::<u64>::new(shape, start, &packer, limits.expansions);
        s.memory_limit = memory;
        s.run()
    } else {
        let mut s = Search::<u128>::new(shape, start, &packer, limits.expansions);
        s.memory_limit = memory;
        s.run()
    }
}

const SIGMA: f64 = 0.618_033_988_749_894_9;

struct Search<'a, K: Key> {
    shape: &'a Shape,
    packer: &'a Packer,
    start: Board,
    limit: u64,
    dead: KeySet<K>,
    target: u32,
    expanded: u64,
    generated: u64,
    aborted: bool,
    memory_limit: u64,
    out_of_memory: bool,
    path: Vec<Jump>,
    best: (u32, Vec<Jump>),
    /// Move-ordering weight of each cell: distance from the middle of the holes.
    weight: [i32; CELLS],
    /// Candidate last holes and their pagoda weights, `pagoda[f * CELLS + cell]`.
    last_holes: usize,
    pagoda: Vec<f64>,
    /// Pagoda sums per depth: `sums[depth * last_holes + f]`.
    sums: Vec<f64>,
    stop_at: u64,
    noise: Option<crate::util::rng::SearchRng>,
}

/// Expansions of the first restart.
const RESTART_NODES: u64 = 20_000;
/// Random tie-breaking added to scores (×8) in restarts.
const NOISE: i32 = 24;

impl<'a, K: Key> Search<'a, K> {
    fn new(shape: &'a Shape, start: Board, packer: &'a Packer, limit: Option<u64>) -> Self {
        let (x0, y0, x1, y1) = shape.bbox;
        let (cx2, cy2) = ((x0 + x1) as i32, (y0 + y1) as i32);
        let mut weight = [0i32; CELLS];
        for (c, w) in weight.iter_mut().enumerate() {
            let (x, y) = coords(c as u32);
            *w = (2 * x as i32 - cx2).abs() + (2 * y as i32 - cy2).abs();
        }
        let lasts = possible_last_holes(shape, start);
        let mut pagoda = vec![0.0; lasts.len() * CELLS];
        for (i, &f) in lasts.iter().enumerate() {
            let (fx, fy) = coords(f);
            for c in 0..CELLS {
                let (x, y) = coords(c as u32);
                pagoda[i * CELLS + c] = SIGMA.powi((x.abs_diff(fx) + y.abs_diff(fy)) as i32);
            }
        }
        let depth = start.pegs() as usize + 1;
        Search {
            shape,
            packer,
            start,
            limit: limit.unwrap_or(u64::MAX),
            dead: KeySet::with_capacity(1 << 16),
            target: 1,
            expanded: 0,
            generated: 0,
            aborted: false,
            memory_limit: u64::MAX,
            out_of_memory: false,
            path: Vec::with_capacity(depth),
            best: (start.pegs(), Vec::new()),
            weight,
            last_holes: lasts.len(),
            pagoda,
            sums: vec![0.0; depth * lasts.len().max(1)],
            stop_at: 0,
            noise: None,
        }
    }

    fn run(mut self) -> StrongResult {
        let t0 = super::render::SearchClock::start();
        let initial = self.start.pegs();
        // One peg is excluded outright when no hole has the start's class.
        let first = if self.last_holes == 0 { 2 } else { 1 };
        let mut proved = false;
        for target in first..=initial {
            self.target = target;
            self.dead.clear();
            if target == 1 {
                for f in 0..self.last_holes {
                    self.sums[f] = self.pagoda_sum(f, self.start);
                }
            }
            // Restarts: short runs with shuffled ties first, each twice as long as the
            // last, the transposition table kept (its entries are proofs); the last run
            // is unbounded, so a target out of reach is still proved so.
            let mut cap = RESTART_NODES;
            let mut restart = 0u64;
            let found = loop {
                self.noise = (restart > 0).then(|| crate::util::rng::rng_from_seed(restart));
                self.stop_at = self.limit.min(self.expanded.saturating_add(cap));
                self.path.clear();
                self.aborted = false;
                if self.dfs(self.start, initial, 0) {
                    break true;
                }
                if !self.aborted || self.expanded >= self.limit || self.out_of_memory {
                    break false;
                }
                restart += 1;
                cap = cap.saturating_mul(2);
            };
            if found {
                proved = !self.aborted;
                self.best = (target, self.path.clone());
                break;
            }
            if self.aborted {
                break;
            }
        }
        StrongResult {
            solution: self.best.1.clone(),
            initial_pegs: initial,
            pegs_left: self.best.0,
            stop: match (proved, self.out_of_memory) {
                (true, _) => Stop::Solved,
                (false, true) => Stop::MemoryLimit,
                (false, false) => Stop::ExpansionLimit,
            },
            expanded: self.expanded,
            generated: self.generated,
            table_entries: self.dead.len() as u64,
            elapsed: t0.elapsed(),
        }
    }

    fn pagoda_sum(&self, f: usize, b: Board) -> f64 {
        let w = &self.pagoda[f * CELLS..(f + 1) * CELLS];
        let mut m = b.0;
        let mut s = 0.0;
        while m != 0 {
            s += w[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        s
    }

    /// True when a board with `target` pegs is reachable from `b`; `self.path` then
    /// holds the jumps to it.
    fn dfs(&mut self, b: Board, pegs: u32, depth: usize) -> bool {
        if pegs == self.target {
            return true;
        }
        if pegs < self.best.0 {
            self.best = (pegs, self.path.clone());
        }
        if self.target == 1 && self.last_holes > 0 {
            let row = &self.sums[depth * self.last_holes..(depth + 1) * self.last_holes];
            if row.iter().all(|&s| s < 1.0 - 1e-9) {
                return false;
            }
        }
        let key = K::from_mask(self.shape.canonical(b).0, self.packer);
        if self.dead.contains(key) {
            return false;
        }
        if self.expanded >= self.stop_at {
            self.aborted = true;
            return false;
        }
        self.expanded += 1;
        let mut moves = [(
            0i32,
            Jump {
                from: 0,
                dir: super::board::Dir::Left,
            },
        ); 4 * CELLS];
        let mut n = 0;
        let weight = &self.weight;
        self.shape.for_each_jump(b, |j| {
            // Jumps that bring the jumping peg toward the middle first.
            let score = weight[j.to() as usize] - weight[j.from as usize];
            moves[n] = (score, j);
            n += 1;
            true
        });
        self.generated += n as u64;
        if let Some(rng) = self.noise.as_mut() {
            use rand::RngExt;
            for m in &mut moves[..n] {
                m.0 = m.0 * 8 + rng.random_range(0..NOISE);
            }
        }
        moves[..n].sort_by_key(|&(s, _)| s);
        for &(_, j) in &moves[..n] {
            if self.target == 1 && self.last_holes > 0 {
                let (from, over, to) = (j.from as usize, j.over() as usize, j.to() as usize);
                let lh = self.last_holes;
                for f in 0..lh {
                    let w = &self.pagoda[f * CELLS..(f + 1) * CELLS];
                    self.sums[(depth + 1) * lh + f] =
                        self.sums[depth * lh + f] - w[from] - w[over] + w[to];
                }
            }
            self.path.push(j);
            if self.dfs(b.apply(j), pegs - 1, depth + 1) {
                return true;
            }
            self.path.pop();
            if self.aborted {
                return false;
            }
        }
        if self.dead.bytes_after_insert() as u64 > self.memory_limit {
            self.out_of_memory = true;
            self.aborted = true;
            return false;
        }
        self.dead.insert(key);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pegsol::budgeted_dfs::replay;
    use crate::pegsol::levels::{level, parse_board};
    use std::collections::HashMap;

    /// The fewest pegs reachable, by plain memoised recursion over all positions.
    fn brute_min(shape: &Shape, b: Board, memo: &mut HashMap<Board, u32>) -> u32 {
        if let Some(&v) = memo.get(&b) {
            return v;
        }
        let mut best = b.pegs();
        for j in shape.jumps(b) {
            best = best.min(brute_min(shape, b.apply(j), memo));
        }
        memo.insert(b, best);
        best
    }

    #[test]
    fn proves_the_brute_force_minimum_on_small_boards() {
        let boards = [
            level(0).unwrap(),
            level(1).unwrap(),
            level(2).unwrap(),
            level(3).unwrap(),
            parse_board("ooo\no.o\nooo\n", "ring").unwrap(),
            parse_board("oooo.\n", "line").unwrap(),
            parse_board("o.o\n...\no.o\n", "stuck").unwrap(),
            parse_board("-ooo-\nooooo\noo.oo\nooooo\n-ooo-\n", "round").unwrap(),
            parse_board("oo.oo\no-o-o\noo.oo\n", "holes").unwrap(),
        ];
        for p in boards {
            let want = brute_min(&p.shape, p.start, &mut HashMap::new());
            let r = solve(&p.shape, p.start, &Limits::default());
            assert!(r.proved_optimal(), "{}", p.name);
            assert_eq!(r.pegs_left, want, "{}", p.name);
            let end = replay(&p.shape, p.start, &r.solution).expect("legal");
            assert_eq!(end.pegs(), want, "{}", p.name);
        }
    }

    #[test]
    fn proves_the_brute_force_minimum_on_random_boards() {
        let mut x = 77u64;
        let mut excluded_by_class = 0;
        for i in 0..60 {
            let mut text = String::new();
            for _ in 0..4 {
                for _ in 0..5 {
                    x = crate::util::rng::splitmix64(x);
                    text.push(match x % 8 {
                        0 => '-',
                        1 | 2 => '.',
                        _ => 'o',
                    });
                }
                text.push('\n');
            }
            let Ok(p) = parse_board(&text, "random") else {
                continue;
            };
            if possible_last_holes(&p.shape, p.start).is_empty() {
                excluded_by_class += 1;
            }
            let want = brute_min(&p.shape, p.start, &mut HashMap::new());
            let r = solve(&p.shape, p.start, &Limits::default());
            assert!(r.proved_optimal());
            assert_eq!(r.pegs_left, want, "board {i}:\n{text}");
            assert_eq!(
                replay(&p.shape, p.start, &r.solution).map(|b| b.pegs()),
                Some(want)
            );
        }
        assert!(
            excluded_by_class > 0,
            "some boards should be settled by the class alone"
        );
    }

    #[test]
    fn the_diamond_cannot_end_on_one_peg() {
        let p = level(8).unwrap();
        assert!(possible_last_holes(&p.shape, p.start).is_empty());
    }

    #[test]
    fn class_of_a_single_peg_matches_the_rule_of_three() {
        // The English board's central game can only end in the centre or 3 cells away.
        let p = level(4).unwrap();
        let lasts: Vec<(usize, usize)> = possible_last_holes(&p.shape, p.start)
            .into_iter()
            .map(coords)
            .collect();
        assert_eq!(lasts, vec![(1, 4), (4, 1), (4, 4), (4, 7), (7, 4)]);
    }

    #[test]
    fn solves_the_english_board_to_one_peg() {
        let p = level(4).unwrap();
        let r = solve(&p.shape, p.start, &Limits::expansions(Some(5_000_000)));
        assert_eq!(
            (r.pegs_left, r.proved_optimal(), r.solution.len()),
            (1, true, 31)
        );
    }

    #[test]
    fn the_solver_says_why_it_ended() {
        // The English board: proved at one peg with room to spare; a budget of ten
        // expansions, or a transposition table of a few bytes, ends it first.
        let p = level(4).unwrap();
        let cases = [
            (Limits::default(), Stop::Solved),
            (Limits::expansions(Some(10)), Stop::ExpansionLimit),
            (Limits::default().with_memory(64), Stop::MemoryLimit),
        ];
        for (limits, want) in cases {
            let r = solve(&p.shape, p.start, &limits);
            assert_eq!(r.stop, want, "{limits:?}");
            assert_eq!(r.proved_optimal(), want == Stop::Solved);
            if want == Stop::ExpansionLimit {
                assert_eq!(r.expanded, 10);
            }
        }
    }
}
