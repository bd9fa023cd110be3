//! The exhaustive search itself: mazes enumerated in the order a breadth-first search
//! from the start meets their cells, a cell's jump chosen only when the search pops it.
//!
//! Once the goal is met its distance is final, so every cell not popped yet is free: its
//! jumps multiply the count without being enumerated (a maze whose search ends without
//! the goal has no path). The reflection about the main diagonal fixes start, goal and
//! every cell's legal jumps, and swaps the two cells the start reaches (right and down):
//! their jumps are chosen together as a pair a ≤ b when the first of them is popped, the
//! pairs with a < b standing for two mazes each.
//!
//! A node is pruned when even the longest path its subtree could hold ([`Bound`]) is
//! shorter than the search's threshold: the search counts the mazes of every length from
//! the threshold up, and nothing below it. It is sequential and depends on nothing but
//! its start node and threshold, so its counts, its nodes and its example maze are the
//! same on every machine, whatever else runs.

use super::count::Exps;
use super::tables::{CELLS, NONE, Tables};
use crate::util::cancel::Cancel;

/// How the longest path a partial maze can still have is bounded. Each new layer of the
/// breadth-first search needs a cell of its own, so the goal's distance is at most the
/// last queued cell's plus one per unseen cell that can still be met, plus one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// Count an unseen cell when some cell not popped yet has a jump to it (the first
    /// search's bound).
    Reach,
    /// Count only the unseen cells on some chain of legal jumps through unseen cells
    /// from a queued cell to the goal: a cell off every such chain adds no layer before
    /// the goal.
    Paths,
    /// [`Bound::Paths`], and the chain starts one layer lower when no cell of the last
    /// layer queued can begin it.
    Layers,
}

impl Bound {
    pub const NAMES: &'static [&'static str] = &["reach", "paths", "layers"];

    pub fn named(name: &str) -> Option<Bound> {
        match name {
            "reach" => Some(Bound::Reach),
            "paths" => Some(Bound::Paths),
            "layers" => Some(Bound::Layers),
            _ => None,
        }
    }
}

/// A partial maze and its breadth-first search so far. Cells are popped in queue order,
/// so the `p`-th cell popped is `queue[p]`.
#[derive(Clone)]
pub struct Node {
    pub dist: [u8; CELLS],
    /// The assigned jumps (0: not assigned).
    pub jump: [u8; CELLS],
    pub queue: [u8; CELLS],
    /// The next cell to pop is `queue[head]`; `queue[..tail]` have been met.
    pub head: usize,
    pub tail: usize,
    /// Cells met (the goal never is: meeting it ends the search), and cells popped.
    pub seen: u128,
    pub popped: u128,
    /// The product of the assigned cells' numbers of legal jumps.
    pub assigned: Exps,
}

/// What one pop changed, to undo it.
#[derive(Clone, Copy)]
pub struct Step {
    old_tail: usize,
    fixed: bool,
    /// The pop met the goal.
    pub goal: bool,
}

impl Node {
    /// The empty maze: only the start met.
    pub fn start() -> Node {
        let mut n = Node {
            dist: [NONE; CELLS],
            jump: [0; CELLS],
            queue: [0; CELLS],
            head: 0,
            tail: 1,
            seen: 1,
            popped: 0,
            assigned: Exps::default(),
        };
        n.dist[0] = 0;
        n
    }

    /// The distance of the next cell to pop.
    pub fn depth(&self) -> u32 {
        u32::from(self.dist[usize::from(self.queue[self.head])])
    }

    /// Mazes each maze of this node stands for: 2 when the right cell's jump is below the
    /// down cell's (its mirror image is counted here too), else 1.
    pub fn weight(&self) -> u64 {
        let (right, down) = (usize::from(self.queue[1]), usize::from(self.queue[2]));
        if self.tail >= 3 && self.jump[right] != 0 && self.jump[right] < self.jump[down] {
            2
        } else {
            1
        }
    }

    /// Assigns `cell` (not popped yet) its jump ahead of its pop.
    pub fn assign(&mut self, t: &Tables, cell: usize, jump: u8) {
        self.jump[cell] = jump;
        self.assigned.0 += t.exps[cell].0;
    }

    pub fn unassign(&mut self, t: &Tables, cell: usize) {
        self.jump[cell] = 0;
        self.assigned.0 -= t.exps[cell].0;
    }

    /// Pops `queue[head]` with `jump` (or its assigned jump) and queues what it meets.
    pub fn pop(&mut self, t: &Tables, jump: u8) -> Step {
        let cell = usize::from(self.queue[self.head]);
        let fixed = self.jump[cell] != 0;
        if !fixed {
            self.assign(t, cell, jump);
        }
        self.popped |= 1 << cell;
        let d = self.dist[cell] + 1;
        let old_tail = self.tail;
        let mut goal = false;
        for &x in &t.targets[cell * 10 + usize::from(self.jump[cell])] {
            let x = usize::from(x);
            if x == usize::from(NONE) {
                break;
            }
            if x == t.goal {
                goal = true;
            } else if self.dist[x] == NONE {
                self.dist[x] = d;
                self.seen |= 1 << x;
                self.queue[self.tail] = x as u8;
                self.tail += 1;
            }
        }
        self.head += 1;
        Step {
            old_tail,
            fixed,
            goal,
        }
    }

    pub fn unpop(&mut self, t: &Tables, step: Step) {
        for q in step.old_tail..self.tail {
            let x = usize::from(self.queue[q]);
            self.dist[x] = NONE;
            self.seen &= !(1 << x);
        }
        self.tail = step.old_tail;
        self.head -= 1;
        let cell = usize::from(self.queue[self.head]);
        self.popped &= !(1 << cell);
        if !step.fixed {
            self.unassign(t, cell);
        }
    }

    /// The jumps of the popped cells in pop order, and the down cell's when the right
    /// cell is popped (they are chosen together): the node's identity.
    pub fn prefix(&self) -> Vec<u8> {
        let n = if self.head == 2 { 3 } else { self.head };
        self.queue[..n]
            .iter()
            .map(|&c| self.jump[usize::from(c)])
            .collect()
    }

    /// The longest shortest path any completion of this partial maze can have, by
    /// `bound`; `None` when the goal can no longer be met. The next cell is not popped.
    pub fn bound(&self, t: &Tables, bound: Bound) -> Option<u32> {
        let last = u32::from(self.dist[usize::from(self.queue[self.tail - 1])]);
        let unseen = t.mask & !self.seen;
        let goal = 1u128 << t.goal;
        match bound {
            Bound::Reach => {
                let open = t.mask & !self.popped;
                if t.reachers[t.goal] & open == 0 {
                    return None;
                }
                let mut cells = unseen & !goal;
                let mut n = 0;
                while cells != 0 {
                    let x = cells.trailing_zeros() as usize;
                    cells &= cells - 1;
                    n += u32::from(t.reachers[x] & open != 0);
                }
                Some(last + 1 + n)
            }
            Bound::Paths | Bound::Layers => {
                let mut first = 0u128;
                let mut late = 0u128;
                let d = self.depth();
                for &q in &self.queue[self.head..self.tail] {
                    let q = usize::from(q);
                    first |= t.reach[q];
                    if u32::from(self.dist[q]) > d {
                        late |= t.reach[q];
                    }
                }
                let chain = chain_cells(t, first & unseen, unseen)?;
                let from_late = bound == Bound::Paths || late & (chain | goal) != 0;
                let top = if from_late { last } else { d };
                Some(top + 1 + (chain & !goal).count_ones())
            }
        }
    }
}

/// The unseen cells on some chain of legal jumps through unseen cells from `first` (the
/// cells the queued cells can jump to) to the goal, goal included; `None` when no chain
/// reaches the goal.
fn chain_cells(t: &Tables, first: u128, unseen: u128) -> Option<u128> {
    let goal = 1u128 << t.goal;
    let mut met = first;
    let mut front = first;
    while front != 0 {
        let mut next = 0u128;
        let mut f = front & !goal;
        while f != 0 {
            let x = f.trailing_zeros() as usize;
            f &= f - 1;
            next |= t.reach[x];
        }
        front = next & unseen & !met;
        met |= front;
    }
    if met & goal == 0 {
        return None;
    }
    let mut back = goal;
    let mut front = goal;
    while front != 0 {
        let mut prev = 0u128;
        let mut f = front;
        while f != 0 {
            let x = f.trailing_zeros() as usize;
            f &= f - 1;
            prev |= t.reachers[x];
        }
        front = prev & met & !back;
        back |= front;
    }
    Some(back)
}

/// What the search tells as it goes.
pub trait Sink {
    /// The goal met at `length` moves (at least the threshold) by `node`'s last pop:
    /// `node.weight()` times the product of the free cells' numbers of legal jumps mazes.
    fn goal(&mut self, length: u32, node: &Node);
    /// A node at the search's depth limit, not searched further.
    fn frontier(&mut self, node: &Node);
}

/// A depth-first search of the mazes below a node.
pub struct Search<'a, S: Sink> {
    pub t: &'a Tables,
    pub node: Node,
    pub bound: Bound,
    /// Mazes shorter than this are neither counted nor searched for.
    pub at_least: u32,
    /// Nodes with this many cells popped are given to the sink as they are.
    pub limit: usize,
    /// Nodes searched: partial mazes whose next cell was popped.
    pub nodes: u64,
    pub cancel: Option<&'a Cancel>,
    /// Set by a stop request: the search unwinds at once, its counts incomplete.
    pub stopped: bool,
    pub sink: S,
}

impl<'a, S: Sink> Search<'a, S> {
    pub fn new(t: &'a Tables, node: Node, bound: Bound, at_least: u32, sink: S) -> Self {
        Search {
            t,
            node,
            bound,
            at_least,
            limit: usize::MAX,
            nodes: 0,
            cancel: None,
            stopped: false,
            sink,
        }
    }

    /// Searches every maze below the node.
    pub fn run(&mut self) {
        self.explore();
    }

    fn explore(&mut self) {
        let n = &self.node;
        if n.head == n.tail {
            return; // the search ended without meeting the goal: no path
        }
        if n.head >= self.limit {
            self.sink.frontier(&self.node);
            return;
        }
        // Threshold 0 prunes nothing (the list of parts must not depend on the bound).
        if self.at_least > 0 {
            match n.bound(self.t, self.bound) {
                Some(b) if b >= self.at_least => {}
                _ => return,
            }
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(1 << 16) && self.cancel.is_some_and(Cancel::is_cancelled) {
            self.stopped = true;
        }
        if self.stopped {
            return;
        }
        let cell = usize::from(n.queue[n.head]);
        let options = self.t.options[cell];
        if n.head == 1 {
            // The right cell, with the down cell: a pair a ≤ b.
            let down = usize::from(n.queue[2]);
            for a in 1..=options {
                for b in a..=self.t.options[down] {
                    self.node.assign(self.t, down, b);
                    self.branch(a);
                    self.node.unassign(self.t, down);
                }
            }
        } else if n.jump[cell] != 0 {
            self.branch(n.jump[cell]);
        } else {
            for j in 1..=options {
                self.branch(j);
                if self.stopped {
                    return;
                }
            }
        }
    }

    /// Pops the next cell with `jump`, then searches on.
    fn branch(&mut self, jump: u8) {
        let length = self.node.depth() + 1;
        let step = self.node.pop(self.t, jump);
        if step.goal {
            if length >= self.at_least {
                self.sink.goal(length, &self.node);
            }
        } else {
            self.explore();
        }
        self.node.unpop(self.t, step);
    }
}

/// The node reached by `pops` pops with the jumps `prefix` (see [`Node::prefix`]), and
/// whether its last pop met the goal; `None` when that is not a node of the search.
pub fn replay(t: &Tables, prefix: &[u8], pops: usize) -> Option<(Node, bool)> {
    let mut node = Node::start();
    let mut goal = false;
    for p in 0..pops {
        if goal || node.head == node.tail {
            return None;
        }
        let cell = usize::from(node.queue[p]);
        let jump = *prefix.get(p)?;
        if jump == 0 || jump > t.options[cell] {
            return None;
        }
        if p == 1 {
            // The down cell's jump, chosen with the right cell's.
            let down = usize::from(node.queue[2]);
            let b = *prefix.get(2)?;
            if b < jump || b > t.options[down] {
                return None;
            }
            node.assign(t, down, b);
        } else if p == 2 && node.jump[cell] != jump {
            return None;
        }
        goal = node.pop(t, jump).goal;
    }
    (node.prefix() == prefix).then_some((node, goal))
}
