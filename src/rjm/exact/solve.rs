//! Searching one part ([`search_part`]), alone or split into smaller nodes searched in
//! parallel, and every part of a size at once in this process ([`solve`]). A part's
//! outcome is the same whatever the threads: counts add up, nodes too, and the example is
//! the first maze of the longest length in the search's order.

use super::count::{Big, Exps};
use super::parts::{Part, parts};
use super::search::{Bound, Node, Search, Sink};
use super::tables::Tables;
use crate::util::cancel::Cancel;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// What a search found: the mazes of each length from its threshold up, its nodes, and
/// the first maze of its longest length.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    pub histogram: BTreeMap<u32, Big>,
    pub nodes: u64,
    /// Row-major jumps; free cells hold 1, the goal 0.
    pub example: Option<Vec<u8>>,
}

impl Outcome {
    /// The longest length found (0: none).
    pub fn longest(&self) -> u32 {
        self.histogram.keys().next_back().copied().unwrap_or(0)
    }

    /// Mazes of the longest length.
    pub fn count(&self) -> Big {
        self.histogram
            .values()
            .next_back()
            .copied()
            .unwrap_or(Big::ZERO)
    }

    /// Adds `other`, found after `self` in the search's order.
    pub fn absorb(&mut self, other: Outcome) {
        if other.longest() > self.longest() {
            self.example = other.example;
        }
        for (length, n) in other.histogram {
            let e = self.histogram.entry(length).or_insert(Big::ZERO);
            *e = *e + n;
        }
        self.nodes += other.nodes;
    }
}

/// The row-major jumps of a node's maze with every free cell at 1 (the goal at 0).
pub fn example_of(t: &Tables, node: &Node) -> Vec<u8> {
    (0..t.cells)
        .map(|c| match node.jump[c] {
            0 if c != t.goal => 1,
            j => j,
        })
        .collect()
}

/// Counts mazes by length: leaves by (length, free cells' product), turned into numbers
/// at the end.
struct Tally<'a> {
    t: &'a Tables,
    leaves: FxHashMap<(u32, u64), u64>,
    longest: u32,
    example: Option<Vec<u8>>,
}

impl<'a> Tally<'a> {
    fn new(t: &'a Tables) -> Self {
        Tally {
            t,
            leaves: FxHashMap::default(),
            longest: 0,
            example: None,
        }
    }

    fn outcome(self, nodes: u64) -> Outcome {
        let mut histogram: BTreeMap<u32, Big> = BTreeMap::new();
        let mut leaves: Vec<_> = self.leaves.into_iter().collect();
        leaves.sort_unstable();
        for ((length, free), n) in leaves {
            let e = histogram.entry(length).or_insert(Big::ZERO);
            *e = *e + Exps(free).value().mul_small(n);
        }
        Outcome {
            histogram,
            nodes,
            example: self.example,
        }
    }
}

impl Sink for Tally<'_> {
    fn goal(&mut self, length: u32, node: &Node) {
        let free = self.t.all.0 - node.assigned.0;
        *self.leaves.entry((length, free)).or_default() += node.weight();
        if length > self.longest {
            self.longest = length;
            self.example = Some(example_of(self.t, node));
        }
    }

    fn frontier(&mut self, _: &Node) {}
}

/// The nodes a part splits into for threads, in the search's order: nodes to search,
/// and finished mazes (with their length).
struct Split {
    items: Vec<(Node, Option<u32>)>,
}

impl Sink for Split {
    fn goal(&mut self, length: u32, node: &Node) {
        self.items.push((node.clone(), Some(length)));
    }

    fn frontier(&mut self, node: &Node) {
        self.items.push((node.clone(), None));
    }
}

/// How a part is searched.
#[derive(Clone, Copy)]
pub struct Settings<'a> {
    pub at_least: u32,
    pub bound: Bound,
    /// Threads (of the current rayon pool) to search on; 1: serially.
    pub threads: usize,
    pub cancel: Option<&'a Cancel>,
}

/// Searches below `node` serially; `None` when stopped.
fn search_node(t: &Tables, node: Node, s: &Settings) -> Option<Outcome> {
    let mut search = Search::new(t, node, s.bound, s.at_least, Tally::new(t));
    search.cancel = s.cancel;
    search.run();
    if search.stopped {
        return None;
    }
    let nodes = search.nodes;
    Some(search.sink.outcome(nodes))
}

/// Pops below a part at which it is split for threads.
const SPLIT: usize = 3;

/// Searches one part: every maze of it from the threshold up. `None` when stopped.
pub fn search_part(t: &Tables, part: &Part, s: &Settings) -> Option<Outcome> {
    let (node, goal) = part.node(t);
    if goal {
        let mut tally = Tally::new(t);
        let length = part.bound;
        if length >= s.at_least {
            tally.goal(length, &node);
        }
        return Some(tally.outcome(0));
    }
    if s.threads <= 1 {
        return search_node(t, node, s);
    }
    let mut split = Search::new(t, node, s.bound, s.at_least, Split { items: Vec::new() });
    split.limit = part.pops + SPLIT;
    split.run();
    let mut total = Outcome {
        nodes: split.nodes,
        ..Outcome::default()
    };
    let outcomes: Vec<Option<Outcome>> = split
        .sink
        .items
        .into_par_iter()
        .map(|(node, goal)| match goal {
            Some(length) => {
                let mut tally = Tally::new(t);
                tally.goal(length, &node);
                Some(tally.outcome(0))
            }
            None => search_node(t, node, s),
        })
        .collect();
    for o in outcomes {
        total.absorb(o?);
    }
    Some(total)
}

/// Every part of a size searched in this process (on the current rayon pool): the
/// outcome of the whole size. `None` when stopped.
pub fn solve(size: usize, s: &Settings) -> Option<Outcome> {
    let t = Tables::new(size);
    let serial = Settings { threads: 1, ..*s };
    let outcomes: Vec<Option<Outcome>> = parts(&t)
        .par_iter()
        .map(|p| search_part(&t, p, &serial))
        .collect();
    let mut total = Outcome::default();
    // In the parts' order: the example is the first part's with the longest length.
    for o in outcomes {
        total.absorb(o?);
    }
    Some(total)
}
