//! The assignment's solver, Algorithm 1, exactly: a depth-first search with an expansion budget
//! that returns the path to the fewest pegs it saw.
//!
//! Its counts are part of the contract (the golden tests pin them), so the order of every
//! step follows the seed: a popped node counts as expanded and becomes the best solution
//! if it has fewer pegs than the best so far; its jumps are generated in scan order
//! (column x outer, row y inner, then left, right, up, down), each counting as generated;
//! a child with one peg wins at once; a child whose board was generated before is not
//! pushed; after a node's children the search stops once `budget` nodes were expanded.
//!
//! Only expanded nodes are kept (8 bytes each: parent and jump) to rebuild the path; the
//! visited set holds one key of at most 16 bytes per generated board.

use std::time::Duration;

use super::board::{Board, Jump, Shape};
use super::table::{Key, KeySet, Packer};

/// What a run of the assignment's search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetedResult {
    pub expanded: u64,
    pub generated: u64,
    /// The jumps from the start to the best board found.
    pub solution: Vec<Jump>,
    pub initial_pegs: u32,
    pub pegs_left: u32,
    /// True when the search stopped on a one-peg board.
    pub solved: bool,
    pub elapsed: Duration,
}

impl BudgetedResult {
    pub fn expanded_per_second(&self) -> f64 {
        self.expanded as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Runs the assignment's search from `start` with an expansion budget (at least 1).
pub fn solve(shape: &Shape, start: Board, budget: u64) -> BudgetedResult {
    let packer = Packer::new(shape.holes());
    if packer.fits_u64 {
        run::<u64>(shape, start, budget, &packer)
    } else {
        run::<u128>(shape, start, budget, &packer)
    }
}

const NO_PARENT: u32 = u32::MAX;

/// Room reserved up front in the visited set: about the boards the budget could
/// generate, but at most 131,072 (2 MB); the set doubles past that. Reserving for the
/// whole budget would make short runs pay for zeroing memory they never use.
fn initial_capacity(budget: u64) -> usize {
    budget.saturating_mul(4).min(1 << 17) as usize
}

/// A node waiting on the stack: its board, the expanded node it came from and the jump.
#[derive(Clone, Copy)]
struct Pending {
    board: Board,
    parent: u32,
    jump: u16,
}

fn run<K: Key>(shape: &Shape, start: Board, budget: u64, packer: &Packer) -> BudgetedResult {
    let t0 = super::render::SearchClock::start();
    let budget = budget.max(1);
    let initial_pegs = start.pegs();
    let mut visited: KeySet<K> = KeySet::with_capacity(initial_capacity(budget));
    // Expanded nodes: (parent index, jump code).
    let mut tree: Vec<(u32, u16)> = Vec::with_capacity(budget.min(1 << 24) as usize);
    let mut stack: Vec<Pending> = vec![Pending {
        board: start,
        parent: NO_PARENT,
        jump: 0,
    }];
    let (mut expanded, mut generated) = (0u64, 0u64);
    let mut best_pegs = initial_pegs;
    let mut best_node = NO_PARENT;
    let mut win: Option<(u32, u16)> = None;
    let mut children: [(Board, K, u16); 4 * 81] = [(Board(0), K::default(), 0); 4 * 81];

    'search: while let Some(n) = stack.pop() {
        expanded += 1;
        let id = tree.len() as u32;
        tree.push((n.parent, n.jump));
        let pegs = n.board.pegs();
        if pegs < best_pegs {
            best_pegs = pegs;
            best_node = id;
        }
        // Generate all children first and prefetch their slots, then handle them in
        // order: the same steps as the seed, with the memory latency overlapped.
        let mut count = 0;
        shape.for_each_jump(n.board, |j| {
            let child = n.board.apply(j);
            let key = K::from_mask(child.0, packer);
            visited.prefetch(key);
            children[count] = (child, key, j.code());
            count += 1;
            true
        });
        for &(child, key, code) in &children[..count] {
            generated += 1;
            if pegs == 2 {
                // Every child of a two-peg board has one peg: the seed wins here.
                best_pegs = 1;
                win = Some((id, code));
                break 'search;
            }
            if visited.insert(key) {
                stack.push(Pending {
                    board: child,
                    parent: id,
                    jump: code,
                });
            }
        }
        if expanded >= budget {
            break;
        }
    }

    let mut solution = Vec::new();
    let (mut node, last) = match win {
        Some((parent, code)) => (parent, Some(code)),
        None => (best_node, None),
    };
    if let Some(code) = last {
        solution.push(Jump::from_code(code));
    }
    while node != NO_PARENT {
        let (parent, code) = tree[node as usize];
        if parent != NO_PARENT {
            solution.push(Jump::from_code(code));
        }
        node = parent;
    }
    solution.reverse();
    BudgetedResult {
        expanded,
        generated,
        solution,
        initial_pegs,
        pegs_left: best_pegs,
        solved: best_pegs == 1,
        elapsed: t0.elapsed(),
    }
}

/// Replays `jumps` from `start`, checking each is legal; the final board.
pub fn replay(shape: &Shape, start: Board, jumps: &[Jump]) -> Option<Board> {
    let mut b = start;
    for &j in jumps {
        if !shape.is_legal(b, j) {
            return None;
        }
        b = b.apply(j);
    }
    Some(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pegsol::levels::level;

    /// A direct transcription of Algorithm 1 with std collections, to cross-check counts.
    fn reference(shape: &Shape, start: Board, budget: u64) -> (u64, u64, u32, usize) {
        let mut stack = vec![(start, 0usize)];
        let mut seen = std::collections::HashSet::new();
        let (mut exp, mut gen_) = (0u64, 0u64);
        let mut best = (start.pegs(), 0usize);
        while let Some((b, depth)) = stack.pop() {
            exp += 1;
            if b.pegs() < best.0 {
                best = (b.pegs(), depth);
            }
            for j in shape.jumps(b) {
                let c = b.apply(j);
                gen_ += 1;
                if c.pegs() == 1 {
                    return (exp, gen_, 1, depth + 1);
                }
                if seen.insert(c) {
                    stack.push((c, depth + 1));
                }
            }
            if exp >= budget {
                break;
            }
        }
        (exp, gen_, best.0, best.1)
    }

    #[test]
    fn matches_the_plain_transcription_on_small_levels_and_budgets() {
        for l in 0..=4 {
            let p = level(l).unwrap();
            for budget in [1, 2, 7, 100, 5000] {
                let r = solve(&p.shape, p.start, budget);
                let want = reference(&p.shape, p.start, budget);
                assert_eq!(
                    (r.expanded, r.generated, r.pegs_left, r.solution.len()),
                    want,
                    "level {l} budget {budget}"
                );
                let end = replay(&p.shape, p.start, &r.solution).expect("legal path");
                assert_eq!(end.pegs(), r.pegs_left);
            }
        }
    }

    #[test]
    fn boards_with_more_than_64_holes_use_wide_keys_and_agree() {
        let mut text = String::new();
        for y in 0..9 {
            text.push_str(if y == 4 { "oooo.oooo\n" } else { "ooooooooo\n" });
        }
        let p = crate::pegsol::levels::parse_board(&text, "full").unwrap();
        assert!(!Packer::new(p.shape.holes()).fits_u64);
        for budget in [1, 50, 3000] {
            let r = solve(&p.shape, p.start, budget);
            let want = reference(&p.shape, p.start, budget);
            assert_eq!(
                (r.expanded, r.generated, r.pegs_left, r.solution.len()),
                want
            );
        }
    }

    #[test]
    fn small_levels_are_solved() {
        for l in 0..=3 {
            let p = level(l).unwrap();
            let r = solve(&p.shape, p.start, 1_000_000);
            assert!(r.solved, "level {l}");
            assert_eq!(r.solution.len() as u32, p.initial_pegs() - 1);
        }
    }
}
