//! The longest shortest path of every n×n Rook Jumping Maze, by exhaustive search.
//!
//! Nobody has published the optimum of any maze size, so the local searches are measured
//! against the best mazes they find. This module proves optima where exhaustive search
//! reaches: it enumerates mazes in the order a breadth-first search from the start meets
//! their cells, branching on a cell's jump only when the search pops that cell. Once the
//! goal is discovered its distance is final, so every cell not yet popped is free and its
//! jumps multiply the count without being enumerated; a maze whose search ends without the
//! goal has no path and is skipped. A subtree is pruned when even the longest path it could
//! still hold (one new layer per undiscovered cell) is shorter than the best found. The
//! reflection about the main diagonal fixes start, goal and every cell's legal jumps, so
//! the two cells the start reaches take their jumps as an ordered pair (a ≤ b), the pair
//! with a < b counting twice.
//!
//! With a time limit or at a stop request ([`Watch`]) the search stops early and returns
//! the best upper bound it proved: the largest bound of the subtrees it did not finish.

use super::maze::{Maze, max_jump};
use crate::util::cancel::Cancel;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Instant;

/// Up to 10×10 cells.
const CELLS: usize = 100;
const UNSEEN: u8 = u8::MAX;

/// What an exhaustive search proved about one maze size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exact {
    pub size: usize,
    /// The longest shortest path found (moves from start to goal).
    pub longest: u32,
    /// Mazes whose shortest path has that length (complete only when `proved`).
    pub count: u128,
    /// The longest shortest path any maze can have, as far as the search proved: equal to
    /// `longest` when the search finished.
    pub upper_bound: u32,
    /// Whether every maze was accounted for (no time limit cut the search short).
    pub proved: bool,
    /// Search nodes (cells popped with a jump chosen).
    pub nodes: u64,
    /// One maze of the longest length found (row-major jump numbers).
    pub example: Option<Vec<u8>>,
}

/// The jump targets of every cell, and what the count multiplies by.
struct Tables {
    size: usize,
    goal: usize,
    options: Vec<u8>,
    /// `targets[cell * 10 + jump]`: up to four cells, `UNSEEN` past the last.
    targets: Vec<[u8; 4]>,
    /// The product of every non-goal cell's number of legal jumps: all mazes.
    all: u128,
    /// `reachers[x]`: the cells some legal jump takes to `x`, as a bit set.
    reachers: Vec<u128>,
}

impl Tables {
    fn new(size: usize) -> Tables {
        let cells = size * size;
        let mut targets = vec![[UNSEEN; 4]; cells * 10];
        let mut options = vec![0u8; cells];
        for cell in 0..cells - 1 {
            options[cell] = max_jump(size, cell);
            for jump in 1..=options[cell] {
                for (k, t) in Maze::targets(size, cell, jump).enumerate() {
                    targets[cell * 10 + usize::from(jump)][k] = t as u8;
                }
            }
        }
        let all = options[..cells - 1]
            .iter()
            .map(|&o| u128::from(o))
            .product();
        let mut reachers = vec![0u128; cells];
        for (i, set) in targets.iter().enumerate() {
            for &t in set.iter().filter(|&&t| t != UNSEEN) {
                reachers[usize::from(t)] |= 1 << (i / 10);
            }
        }
        Tables {
            reachers,
            size,
            goal: cells - 1,
            options,
            targets,
            all,
        }
    }
}

/// One task's search state: the breadth-first search of a partial maze.
struct Search<'a> {
    t: &'a Tables,
    best: &'a AtomicU32,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    /// The user's stop request, looked at with the deadline.
    cancel: Option<&'a Cancel>,
    dist: [u8; CELLS],
    jump: [u8; CELLS],
    queue: [u8; CELLS],
    tail: usize,
    /// Cells met by the search, and cells whose jumps are chosen (popped), as bit sets.
    seen: u128,
    popped: u128,
    /// The product of the assigned cells' numbers of legal jumps.
    assigned: u128,
    /// How many mazes each maze of this task stands for (2 for a mirrored pair).
    weight: u128,
    longest: u32,
    count: u128,
    open_bound: u32,
    nodes: u64,
    example: Option<Vec<u8>>,
}

impl<'a> Search<'a> {
    /// The longest path the subtree can still hold: one more layer per cell not yet met
    /// that some cell not yet popped could still jump to, then the goal. `None` when no
    /// cell left can reach the goal.
    fn bound(&self) -> Option<u32> {
        let open = !self.popped;
        if self.t.reachers[self.t.goal] & open == 0 {
            return None;
        }
        let all = (1u128 << (self.t.size * self.t.size)) - 1;
        let mut unseen = all & !self.seen & !(1u128 << self.t.goal);
        let mut reachable = 0;
        while unseen != 0 {
            let x = unseen.trailing_zeros() as usize;
            unseen &= unseen - 1;
            reachable += u32::from(self.t.reachers[x] & open != 0);
        }
        let last = usize::from(self.queue[self.tail - 1]);
        Some(u32::from(self.dist[last]) + 1 + reachable)
    }

    /// Pops `queue[head]`.
    fn visit(&mut self, head: usize) {
        let cell = usize::from(self.queue[head]);
        let d = self.dist[cell];
        let Some(bound) = self.bound() else {
            return;
        };
        if bound < self.best.load(Ordering::Relaxed) {
            return;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(1 << 16) {
            self.check_time();
        }
        if self.stop.load(Ordering::Relaxed) {
            self.open_bound = self.open_bound.max(bound);
            return;
        }
        let fixed = self.jump[cell] != 0;
        let (first, last) = if fixed {
            (self.jump[cell], self.jump[cell])
        } else {
            self.assigned *= u128::from(self.t.options[cell]);
            (1, self.t.options[cell])
        };
        self.popped |= 1 << cell;
        for j in first..=last {
            self.jump[cell] = j;
            let old_tail = self.tail;
            let mut reached_goal = false;
            for &t in &self.t.targets[cell * 10 + usize::from(j)] {
                let t = usize::from(t);
                if t == usize::from(UNSEEN) || self.dist[t] != UNSEEN {
                    continue;
                }
                if t == self.t.goal {
                    reached_goal = true;
                } else {
                    self.dist[t] = d + 1;
                    self.seen |= 1 << t;
                    self.queue[self.tail] = t as u8;
                    self.tail += 1;
                }
            }
            if reached_goal {
                self.found(u32::from(d) + 1);
            } else if head + 1 < self.tail {
                self.visit(head + 1);
            }
            for q in old_tail..self.tail {
                let t = usize::from(self.queue[q]);
                self.dist[t] = UNSEEN;
                self.seen &= !(1 << t);
            }
            self.tail = old_tail;
        }
        self.popped &= !(1 << cell);
        if !fixed {
            self.jump[cell] = 0;
            self.assigned /= u128::from(self.t.options[cell]);
        }
    }

    /// The goal is met at distance `length`: every unassigned cell is free.
    fn found(&mut self, length: u32) {
        if length < self.longest || length < self.best.load(Ordering::Relaxed) {
            return;
        }
        let mazes = self.weight * (self.t.all / self.assigned);
        if length > self.longest {
            self.longest = length;
            self.count = 0;
            self.best.fetch_max(length, Ordering::Relaxed);
            let cells = self.t.size * self.t.size;
            let jumps = self.jump[..cells].iter().enumerate();
            // A free cell may hold any jump: 1 is legal everywhere but at the goal.
            let free = |(c, &j): (usize, &u8)| if j == 0 && c != self.t.goal { 1 } else { j };
            self.example = Some(jumps.map(free).collect());
        }
        self.count += mazes;
    }

    fn check_time(&self) {
        if self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.cancel.is_some_and(Cancel::is_cancelled)
        {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// One task: the start's jump and the jumps of the two cells it reaches.
#[derive(Debug, Clone, Copy)]
struct Task {
    start: u8,
    right: u8,
    down: u8,
}

fn tasks(t: &Tables) -> Vec<Task> {
    let mut out = Vec::new();
    for start in 1..=t.options[0] {
        let s = usize::from(start);
        let (right, down) = (s, s * t.size);
        for a in 1..=t.options[right] {
            for b in a..=t.options[down] {
                out.push(Task {
                    start,
                    right: a,
                    down: b,
                });
            }
        }
    }
    out
}

/// What one task found: (longest, count, open bound, nodes, an example).
type Outcome = (u32, u128, u32, u64, Option<Vec<u8>>);

/// Runs one task to the end (or to the deadline).
fn run_task(
    t: &Tables,
    task: Task,
    best: &AtomicU32,
    stop: &AtomicBool,
    watch: &Watch,
    deadline: Option<Instant>,
) -> Outcome {
    let mut s = Search {
        t,
        best,
        stop,
        deadline,
        cancel: watch.stop,
        dist: [UNSEEN; CELLS],
        jump: [0; CELLS],
        queue: [0; CELLS],
        tail: 0,
        seen: 0,
        popped: 0,
        assigned: 1,
        weight: if task.right < task.down { 2 } else { 1 },
        longest: 0,
        count: 0,
        open_bound: 0,
        nodes: 0,
        example: None,
    };
    let start = usize::from(task.start);
    let (right, down) = (start, start * t.size);
    s.dist[0] = 0;
    s.jump[0] = task.start;
    s.jump[right] = task.right;
    s.jump[down] = task.down;
    s.assigned = [0, right, down]
        .iter()
        .map(|&c| u128::from(t.options[c]))
        .product();
    for (k, cell) in [0, right, down].into_iter().enumerate() {
        s.queue[k] = cell as u8;
        s.dist[cell] = if cell == 0 { 0 } else { 1 };
        s.seen |= 1 << cell;
    }
    s.popped = 1;
    s.tail = 3;
    s.visit(1);
    (s.longest, s.count, s.open_bound, s.nodes, s.example)
}

impl Exact {
    /// The one line `rjm exact` prints.
    pub fn describe(&self, seconds: f64) -> String {
        let n = self.size;
        let all = crate::present::format::number(Tables::new(n).all as f64, 0);
        let nodes = crate::present::format::number(self.nodes as f64, 0);
        if self.proved {
            format!(
                "{n}x{n}: the longest shortest path is {} moves, reached by {} of the {all} mazes (proved by exhaustive search: {nodes} nodes, {seconds:.1} s)",
                self.longest,
                crate::present::format::number(self.count as f64, 0)
            )
        } else {
            format!(
                "{n}x{n}: the longest shortest path is {} to {} moves: a maze of {} was found, and no maze is longer than {} (search stopped after {seconds:.0} s: {nodes} nodes)",
                self.longest, self.upper_bound, self.longest, self.upper_bound
            )
        }
    }
}

/// Searches every `size`×`size` maze (3 to 10) for the longest shortest path. `lower` is a
/// length some maze is known to reach (0 if none): subtrees that cannot reach it are
/// pruned at once. With `seconds`, the search stops after that long and says what it
/// proved.
pub fn solve(size: usize, lower: u32, seconds: Option<f64>) -> Exact {
    solve_watched(
        size,
        lower,
        &Watch {
            seconds,
            ..Watch::default()
        },
    )
}

/// What watches an exhaustive search beyond its bound: when it stops, and who hears of
/// its progress.
#[derive(Default)]
pub struct Watch<'a> {
    /// A time limit: the search stops after that long and says what it proved.
    pub seconds: Option<f64>,
    /// A stop request, which ends the search as the time limit does.
    pub stop: Option<&'a Cancel>,
    /// Called after each of the search's [`subtrees`] with the longest path found so
    /// far.
    pub on_subtree: Option<&'a (dyn Fn(u32) + Sync)>,
}

/// How many subtrees the search of `size`×`size` mazes is split into (the jumps of the
/// start and of the two cells it reaches), done in parallel.
pub fn subtrees(size: usize) -> usize {
    tasks(&Tables::new(size)).len()
}

/// [`solve`] under a [`Watch`].
pub fn solve_watched(size: usize, lower: u32, watch: &Watch) -> Exact {
    let t = Tables::new(size);
    let best = AtomicU32::new(lower);
    let stop = AtomicBool::new(false);
    let deadline = watch
        .seconds
        .map(|s| Instant::now() + std::time::Duration::from_secs_f64(s));
    let outcomes: Vec<Outcome> = tasks(&t)
        .into_par_iter()
        .map(|task| {
            let outcome = run_task(&t, task, &best, &stop, watch, deadline);
            if let Some(tell) = watch.on_subtree {
                tell(best.load(Ordering::Relaxed).max(outcome.0));
            }
            outcome
        })
        .collect();
    let longest = outcomes.iter().map(|o| o.0).max().unwrap_or(0);
    let count = outcomes
        .iter()
        .filter(|o| o.0 == longest)
        .map(|o| o.1)
        .sum();
    let open = outcomes.iter().map(|o| o.2).max().unwrap_or(0);
    let proved = !stop.load(Ordering::Relaxed);
    Exact {
        size,
        longest,
        count,
        upper_bound: if proved { longest } else { open.max(longest) },
        proved,
        nodes: outcomes.iter().map(|o| o.3).sum(),
        example: outcomes
            .into_iter()
            .find(|o| o.0 == longest)
            .and_then(|o| o.4),
    }
}

/// Reference values per maze size: the proved optimum, for targets such as "the longest
/// path any maze of the size has". Proved on demand (5×5 and 6×6 take well under a
/// second); a size whose search does not finish in a minute has no reference.
pub const REFERENCES: &[crate::present::facts::ReferenceFunction] = &[
    crate::present::facts::ReferenceFunction {
        name: "rjm.optimum_objective",
        what: "the objective (−moves) of the longest maze of the size, proved by exhaustive search (`rjm exact`)",
        value: |size| optimum(size).map(|n| -f64::from(n)),
    },
    crate::present::facts::ReferenceFunction {
        name: "rjm.optimum_length",
        what: "the moves of the longest maze of the size, proved by exhaustive search (`rjm exact`)",
        value: |size| optimum(size).map(f64::from),
    },
];

/// Facts of the report's studies: the proved optimum of every size a block's runs use.
pub const FACTS: &[crate::present::facts::FactFunction] = &[crate::present::facts::FactFunction {
    name: "rjm.optima",
    facts: &["["],
    compute: optima_facts,
}];

/// Per size of the block's runs (`[5].optimum`, …): the optimum, the mazes reaching it,
/// all mazes, the search's nodes, and the share of the block's runs whose best maze
/// reaches it. A size whose search does not finish in a minute is an error, never a
/// guess.
fn optima_facts(
    input: &crate::present::facts::FactInput,
) -> anyhow::Result<crate::present::facts::Facts> {
    use crate::pipeline::table::{floats, texts};
    let sizes = texts(input.results, "size")?;
    let lengths = floats(input.results, "best_path_length")?;
    let mut f = crate::present::facts::Facts::default();
    for size in crate::present::charts::ordered_values(&sizes) {
        let n: usize = size.parse()?;
        let stored = super::best::built_in()?;
        let lower = stored
            .iter()
            .find(|r| r.size == n)
            .map_or(0, |r| r.length as u32);
        let e = solve(n, lower, Some(60.0));
        if !e.proved {
            anyhow::bail!("the optimum of {n}x{n} mazes is not proved within a minute");
        }
        let runs: Vec<f64> = sizes
            .iter()
            .zip(&lengths)
            .filter(|(s, _)| **s == size)
            .map(|(_, l)| l.unwrap_or(0.0))
            .collect();
        let reaching = runs.iter().filter(|&&l| l >= f64::from(e.longest)).count();
        let key = format!("[{size}]");
        f.set(format!("{key}.optimum"), i64::from(e.longest));
        f.set(format!("{key}.mazes"), e.count as f64);
        f.set(format!("{key}.all_mazes"), Tables::new(n).all as f64);
        f.set(format!("{key}.nodes"), e.nodes);
        f.set(format!("{key}.runs"), runs.len());
        f.set(
            format!("{key}.reaching"),
            reaching as f64 / runs.len().max(1) as f64,
        );
        f.set(
            format!("{key}.reaching_percent"),
            100.0 * reaching as f64 / runs.len().max(1) as f64,
        );
    }
    Ok(f)
}

/// The proved longest shortest path of a size (`"5"`), if the search finishes in a minute.
fn optimum(size: &str) -> Option<u32> {
    let size: usize = size.trim().parse().ok().filter(|n| (3..=10).contains(n))?;
    let stored = super::best::built_in().ok()?;
    let lower = stored
        .iter()
        .find(|r| r.size == size)
        .map_or(0, |r| r.length as u32);
    let e = solve(size, lower, Some(60.0));
    e.proved.then_some(e.longest)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The goal's distance by a plain breadth-first search.
    fn goal_distance(size: usize, jumps: &[u8]) -> Option<u32> {
        let cells = size * size;
        let mut dist = vec![None; cells];
        dist[0] = Some(0u32);
        let mut queue = std::collections::VecDeque::from([0usize]);
        while let Some(c) = queue.pop_front() {
            for t in Maze::targets(size, c, jumps[c]) {
                if dist[t].is_none() {
                    dist[t] = Some(dist[c].unwrap() + 1);
                    queue.push_back(t);
                }
            }
        }
        dist[cells - 1]
    }

    /// Every maze of a size, one by one: (longest, count).
    fn brute_force(size: usize) -> (u32, u128) {
        let t = Tables::new(size);
        let cells = size * size;
        let mut jumps = vec![1u8; cells];
        jumps[cells - 1] = 0;
        let (mut longest, mut count) = (0u32, 0u128);
        loop {
            if let Some(d) = goal_distance(size, &jumps) {
                if d > longest {
                    (longest, count) = (d, 0);
                }
                if d == longest {
                    count += 1;
                }
            }
            // The next maze, as an odometer over the non-goal cells.
            let mut k = 0;
            loop {
                if k == cells - 1 {
                    return (longest, count);
                }
                if jumps[k] < t.options[k] {
                    jumps[k] += 1;
                    break;
                }
                jumps[k] = 1;
                k += 1;
            }
        }
    }

    #[test]
    fn three_and_four_agree_with_brute_force() {
        for size in [3, 4] {
            let (longest, count) = brute_force(size);
            let e = solve(size, 0, None);
            assert!(e.proved);
            assert_eq!((e.longest, e.count), (longest, count), "size {size}");
            assert_eq!(e.upper_bound, longest);
            let example = e.example.expect("an example maze");
            assert_eq!(goal_distance(size, &example), Some(longest));
        }
    }

    #[test]
    fn a_known_lower_bound_prunes_without_changing_the_answer() {
        let plain = solve(4, 0, None);
        let pruned = solve(4, plain.longest, None);
        assert_eq!((plain.longest, plain.count), (pruned.longest, pruned.count));
        assert!(pruned.nodes < plain.nodes);
    }

    #[test]
    fn a_time_limit_gives_a_bound_not_a_proof() {
        let e = solve(6, 0, Some(0.0));
        assert!(!e.proved);
        assert!(e.upper_bound >= e.longest);
        assert!(e.upper_bound <= 35, "at most one layer per cell");
    }

    /// The optima of 5×5 and 6×6, searched from nothing, agree with the search pruned
    /// from the stored best mazes (found by annealing) and with their lengths.
    #[test]
    fn five_and_six_are_proved() {
        let best = crate::rjm::best::built_in().unwrap();
        for (size, longest, count) in [(5, 21, 34), (6, 32, 38_472)] {
            let stored = best.iter().find(|r| r.size == size).unwrap().length as u32;
            let from_nothing = solve(size, 0, None);
            let from_stored = solve(size, stored, None);
            assert!(from_nothing.proved && from_stored.proved);
            assert_eq!((from_nothing.longest, from_nothing.count), (longest, count));
            assert_eq!((from_stored.longest, from_stored.count), (longest, count));
            let example = from_nothing.example.unwrap();
            assert_eq!(goal_distance(size, &example), Some(longest));
        }
    }

    #[test]
    fn references_are_the_proved_optima() {
        let value = |name: &str, size: &str| {
            let r = REFERENCES.iter().find(|r| r.name == name).unwrap();
            (r.value)(size)
        };
        assert_eq!(value("rjm.optimum_objective", "5"), Some(-21.0));
        assert_eq!(value("rjm.optimum_length", "4"), Some(12.0));
        assert_eq!(value("rjm.optimum_length", "11"), None);
    }

    #[test]
    fn all_mazes_of_four_are_counted() {
        assert_eq!(Tables::new(4).all, 3u128.pow(11) * 2u128.pow(4));
    }
}
