//! The exhaustive search checked against independent counts: every maze of 3×3 and 4×4
//! by a plain breadth-first search, 5×5 and 7×7 by a separately written enumeration,
//! and the number of all mazes of 8×8 to 10×10 by a decimal multiplication of its own.

use super::count::Big;
use super::parts::parts;
use super::proof::{Finished, Proof};
use super::search::Bound;
use super::solve::{Outcome, Settings, search_part, solve};
use super::tables::Tables;
use crate::rjm::Maze;
use crate::rjm::maze::max_jump;
use std::collections::BTreeMap;

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

/// Every maze of a size, one by one: mazes by length.
fn brute_force(size: usize) -> BTreeMap<u32, u128> {
    let cells = size * size;
    let mut jumps = vec![1u8; cells];
    jumps[cells - 1] = 0;
    let mut out = BTreeMap::new();
    loop {
        if let Some(d) = goal_distance(size, &jumps) {
            *out.entry(d).or_insert(0) += 1;
        }
        // The next maze, as an odometer over the non-goal cells.
        let mut k = 0;
        loop {
            if k == cells - 1 {
                return out;
            }
            if jumps[k] < max_jump(size, k) {
                jumps[k] += 1;
                break;
            }
            jumps[k] = 1;
            k += 1;
        }
    }
}

/// The mazes of each length from `at_least` up, by a plain enumeration written apart
/// from the search: cells in the order a breadth-first search meets them, no mirror
/// images, no parts, pruned only when fewer unseen cells than the length needs have a
/// cell not popped yet that can jump to them (the first search's bound).
struct Forward {
    size: usize,
    at_least: u32,
    jumps: Vec<u8>,
    dist: Vec<Option<u32>>,
    queue: Vec<usize>,
    /// The cells with a jump to each cell, and the cells popped, as bit sets.
    reachers: Vec<u128>,
    popped: u128,
    histogram: BTreeMap<u32, u128>,
    nodes: u64,
}

impl Forward {
    fn count(size: usize, at_least: u32) -> (BTreeMap<u32, u128>, u64) {
        let cells = size * size;
        let mut reachers = vec![0u128; cells];
        for c in 0..cells - 1 {
            for j in 1..=max_jump(size, c) {
                for t in Maze::targets(size, c, j) {
                    reachers[t] |= 1 << c;
                }
            }
        }
        let mut f = Forward {
            size,
            at_least,
            jumps: vec![0; cells],
            dist: vec![None; cells],
            queue: vec![0],
            reachers,
            popped: 0,
            histogram: BTreeMap::new(),
            nodes: 0,
        };
        f.dist[0] = Some(0);
        f.visit(0);
        (f.histogram, f.nodes)
    }

    fn visit(&mut self, head: usize) {
        let goal = self.size * self.size - 1;
        if head == self.queue.len() {
            return;
        }
        let open = |f: &Forward, x: usize| f.reachers[x] & !f.popped != 0;
        let reachable = (0..goal)
            .filter(|&x| self.dist[x].is_none() && open(self, x))
            .count() as u32;
        let last = self.dist[*self.queue.last().unwrap()].unwrap();
        if !open(self, goal) || last + 1 + reachable < self.at_least {
            return;
        }
        self.nodes += 1;
        let cell = self.queue[head];
        let d = self.dist[cell].unwrap() + 1;
        self.popped |= 1 << cell;
        for j in 1..=max_jump(self.size, cell) {
            self.jumps[cell] = j;
            let old = self.queue.len();
            let mut met = false;
            for t in Maze::targets(self.size, cell, j) {
                if t == goal {
                    met = true;
                } else if self.dist[t].is_none() {
                    self.dist[t] = Some(d);
                    self.queue.push(t);
                }
            }
            if met && d >= self.at_least {
                let free: u128 = (0..goal)
                    .filter(|&c| self.jumps[c] == 0)
                    .map(|c| u128::from(max_jump(self.size, c)))
                    .product();
                *self.histogram.entry(d).or_insert(0) += free;
            } else if !met {
                self.visit(head + 1);
            }
            for t in self.queue.drain(old..) {
                self.dist[t] = None;
            }
        }
        self.jumps[cell] = 0;
        self.popped &= !(1 << cell);
    }
}

fn settings(at_least: u32, bound: Bound) -> Settings<'static> {
    Settings {
        at_least,
        bound,
        threads: 1,
        cancel: None,
    }
}

fn as_u128(h: &BTreeMap<u32, Big>) -> BTreeMap<u32, u128> {
    h.iter()
        .map(|(&l, n)| (l, n.to_string().parse().unwrap()))
        .collect()
}

#[test]
fn every_length_of_three_and_four_agrees_with_brute_force() {
    for size in [3, 4] {
        let want = brute_force(size);
        for bound in [Bound::Reach, Bound::Paths, Bound::Layers] {
            let o = solve(size, &settings(1, bound)).unwrap();
            assert_eq!(as_u128(&o.histogram), want, "size {size}, {bound:?}");
            let example = o.example.clone().expect("an example");
            assert_eq!(goal_distance(size, &example), Some(o.longest()));
        }
    }
    assert_eq!(brute_force(3).get(&4), Some(&7));
    assert_eq!(brute_force(4).get(&12), Some(&2));
}

#[test]
fn five_agrees_with_a_separate_enumeration() {
    let (want, _) = Forward::count(5, 17);
    assert_eq!(
        want.keys().copied().collect::<Vec<_>>(),
        (17..=21).collect::<Vec<_>>()
    );
    assert_eq!(want[&21], 34);
    for bound in [Bound::Reach, Bound::Layers] {
        let o = solve(5, &settings(17, bound)).unwrap();
        assert_eq!(as_u128(&o.histogram), want, "{bound:?}");
    }
}

/// No 7×7 maze has 46 moves, by the separate enumeration too (the stored maze has 45).
#[test]
fn seven_has_no_maze_of_46_moves() {
    let (separate, nodes) = Forward::count(7, 46);
    assert!(
        separate.is_empty() && nodes > 0,
        "{separate:?} in {nodes} nodes"
    );
    let o = solve(7, &settings(46, Bound::Layers)).unwrap();
    assert!(o.histogram.is_empty());
    assert!(o.nodes < nodes);
}

#[test]
fn five_and_six_are_proved_by_every_bound() {
    for (size, longest, count) in [(5, 21, 34u128), (6, 32, 38_472)] {
        let mut nodes = Vec::new();
        for bound in [Bound::Reach, Bound::Paths, Bound::Layers] {
            let o = solve(size, &settings(longest, bound)).unwrap();
            assert_eq!((o.longest(), o.count()), (longest, Big::from_u128(count)));
            assert_eq!(
                goal_distance(size, o.example.as_ref().unwrap()),
                Some(longest)
            );
            nodes.push(o.nodes);
        }
        assert!(nodes[1] < nodes[0] && nodes[2] <= nodes[1], "{nodes:?}");
        let above = solve(size, &settings(longest + 1, Bound::Layers)).unwrap();
        assert_eq!(above.longest(), 0, "no maze is longer");
    }
}

/// Products of decimal digits, least significant first, for the test of big counts.
fn decimal_product(factors: impl Iterator<Item = u32>) -> String {
    let mut digits = vec![1u32];
    for f in factors {
        let mut carry = 0;
        for d in digits.iter_mut() {
            let x = *d * f + carry;
            *d = x % 10;
            carry = x / 10;
        }
        while carry > 0 {
            digits.push(carry % 10);
            carry /= 10;
        }
    }
    digits
        .iter()
        .rev()
        .map(|d| char::from(b'0' + *d as u8))
        .collect()
}

#[test]
fn all_mazes_of_eight_to_ten_are_the_product_of_legal_jumps() {
    for size in [4, 8, 9, 10] {
        // Each cell's legal jumps counted by trying every jump on the grid.
        let legal = (0..size * size - 1).map(|c| {
            (1..size as u8)
                .filter(|&j| Maze::targets(size, c, j).next().is_some())
                .count() as u32
        });
        assert_eq!(
            Tables::new(size).all_mazes().to_string(),
            decimal_product(legal)
        );
    }
    // 8×8 has 2^163.4 mazes: past u128.
    assert!(Tables::new(8).all_mazes() > Big::from_u128(u128::MAX));
}

#[test]
fn a_part_is_the_same_on_any_number_of_threads() {
    let t = Tables::new(6);
    let parts = parts(&t);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for part in parts.iter().take(6) {
        let one = search_part(&t, part, &settings(32, Bound::Layers)).unwrap();
        let two = pool
            .install(|| {
                search_part(
                    &t,
                    part,
                    &Settings {
                        threads: 2,
                        ..settings(32, Bound::Layers)
                    },
                )
            })
            .unwrap();
        assert_eq!(one, two, "part {}", part.describe());
        assert!(one.nodes > 0);
    }
}

#[test]
fn the_upper_bound_falls_as_parts_finish() {
    let t = Tables::new(6);
    let parts = parts(&t);
    let mut finished = Vec::new();
    let mut last = u32::MAX;
    let first = Proof::of(6, 32, &[]).unwrap();
    assert_eq!(first.upper, parts[0].bound);
    for (i, part) in parts.iter().enumerate() {
        let o: Outcome = search_part(&t, part, &settings(32, Bound::Layers)).unwrap();
        finished.push(Finished {
            part: i,
            histogram: o.histogram,
            nodes: o.nodes,
            seconds: 0.0,
            example: None,
        });
        let p = Proof::of(6, 32, &finished).unwrap();
        assert!(p.upper <= last && p.upper >= 32);
        last = p.upper;
    }
    let p = Proof::of(6, 32, &finished).unwrap();
    assert!(p.complete());
    assert_eq!((p.lower, p.upper), (32, 32));
    assert_eq!(p.histogram[&32], Big::from_u128(38_472));
}
