//! The fixed list of subproblems ("parts") an exhaustive search of one size is split
//! into, each searched by a run of its own.
//!
//! A part is a node of the search tree ([`super::search`]) after a fixed number of pops
//! ([`depth`]: the start's jump, the pair of jumps of the two cells it reaches, then the
//! jumps of the next cells in breadth-first order), or a maze whose path ends before
//! that depth; nodes whose search ends without the goal hold no maze with a path and are
//! left out. The parts are numbered from 0 in decreasing order of their a-priori bound
//! (the longest path the node can still hold, by [`Bound::Layers`]; a finished maze's
//! own length), ties in the search's order. So a run of the parts in order meets the
//! hardest first, and the largest bound among the unfinished parts, an upper bound of
//! every maze not yet searched, falls as they finish.

use super::search::{Bound, Node, Search, Sink, replay};
use super::tables::Tables;

/// One part: the jumps of its prefix ([`Node::prefix`]), the pops they make, and its
/// a-priori bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub prefix: Vec<u8>,
    pub pops: usize,
    pub bound: u32,
}

/// Pops fixed by a part of each size: about 100 parts at 5×5 and under, a few thousand
/// at 7×7 and up.
pub fn depth(size: usize) -> usize {
    match size {
        0..=5 => 3,
        6 => 4,
        _ => 5,
    }
}

/// Collects the frontier and the finished mazes of the enumeration.
struct Collect<'a> {
    t: &'a Tables,
    parts: Vec<Part>,
}

impl Sink for Collect<'_> {
    fn goal(&mut self, length: u32, node: &Node) {
        self.parts.push(Part {
            prefix: node.prefix(),
            pops: node.head,
            bound: length,
        });
    }

    fn frontier(&mut self, node: &Node) {
        self.parts.push(Part {
            prefix: node.prefix(),
            pops: node.head,
            bound: node.bound(self.t, Bound::Layers).unwrap_or(0),
        });
    }
}

/// The parts of a size, in their order (see the module doc).
pub fn parts(t: &Tables) -> Vec<Part> {
    let sink = Collect {
        t,
        parts: Vec::new(),
    };
    let mut s = Search::new(t, Node::start(), Bound::Layers, 0, sink);
    s.limit = depth(t.size);
    s.run();
    let mut parts = s.sink.parts;
    // Stable: ties keep the search's order.
    parts.sort_by_key(|p| std::cmp::Reverse(p.bound));
    parts
}

impl Part {
    /// The node the part starts from, and whether it is a finished maze.
    pub fn node(&self, t: &Tables) -> (Node, bool) {
        replay(t, &self.prefix, self.pops).expect("a part is a node of the search")
    }

    /// Its prefix as text: `3 1 2 4` (the start's jump first).
    pub fn describe(&self) -> String {
        let jumps: Vec<String> = self.prefix.iter().map(u8::to_string).collect();
        jumps.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_replay_to_their_nodes() {
        for size in [3, 4, 5, 7] {
            let t = Tables::new(size);
            let parts = parts(&t);
            assert!(parts.windows(2).all(|w| w[0].bound >= w[1].bound));
            for p in &parts {
                let (node, goal) = p.node(&t);
                assert_eq!(node.prefix(), p.prefix);
                assert_eq!(node.head, p.pops);
                assert!(goal || p.pops == depth(size));
            }
        }
    }
}
