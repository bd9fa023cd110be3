//! `rjm exact --list FILE`: every maze of the longest length, one per line (rows
//! separated by '/'), free cells expanded into each of their jumps and mirror images
//! written out, sorted, so that anyone can check them one by one with their own
//! breadth-first search.

use super::count::Big;
use super::proof::{Finished, Proof};
use super::run::{maze_code, sized};
use super::search::{Bound, Node, Search, Sink};
use super::tables::Tables;
use crate::util::memo::Memo;
use std::path::Path;

/// The most mazes a list may hold.
pub const MAX_LISTED: u64 = 10_000_000;

/// Expands each maze the search meets at the listed length.
struct Lister<'a> {
    t: &'a Tables,
    length: u32,
    mazes: Vec<String>,
}

impl Lister<'_> {
    /// Every maze of `node` with its free cells filled in, by an odometer over them.
    fn expand(&mut self, node: &Node) {
        let t = self.t;
        let free: Vec<usize> = (0..t.goal).filter(|&c| node.jump[c] == 0).collect();
        let mut jumps: Vec<u8> = node.jump[..t.cells].to_vec();
        for &c in &free {
            jumps[c] = 1;
        }
        loop {
            self.mazes.push(maze_code(t.size, &jumps));
            if node.weight() == 2 {
                self.mazes
                    .push(maze_code(t.size, &transpose(t.size, &jumps)));
            }
            let Some(k) = free.iter().position(|&c| jumps[c] < t.options[c]) else {
                return;
            };
            jumps[free[k]] += 1;
            for &c in &free[..k] {
                jumps[c] = 1;
            }
        }
    }
}

impl Sink for Lister<'_> {
    fn goal(&mut self, length: u32, node: &Node) {
        if length == self.length {
            self.expand(node);
        }
    }

    fn frontier(&mut self, _: &Node) {}
}

/// The mirror image of a maze about its main diagonal.
pub fn transpose(size: usize, jumps: &[u8]) -> Vec<u8> {
    (0..size * size)
        .map(|i| jumps[(i % size) * size + i / size])
        .collect()
}

/// Writes the mazes of `proof`'s longest length (a finished proof) to `path`, atomically;
/// returns how many.
pub fn write_list(path: &Path, proof: &Proof, finished: &[Finished]) -> anyhow::Result<u64> {
    let Some((&length, count)) = proof.histogram.iter().next_back() else {
        crate::user_bail!("--list: no maze reached the threshold, so there is nothing to list");
    };
    if !proof.complete() {
        crate::user_bail!(
            "--list needs every part searched: {} of the {} parts are unfinished (run the same command again to finish them)",
            proof.parts - proof.done,
            proof.parts
        );
    }
    if *count > Big::from_u128(u128::from(MAX_LISTED)) {
        crate::user_bail!(
            "--list: {} mazes have {length} moves, more than the {MAX_LISTED} a list may hold",
            count.grouped()
        );
    }
    let s = sized(&Memo::default(), proof.size)?;
    let mut lister = Lister {
        t: &s.tables,
        length,
        mazes: Vec::new(),
    };
    for f in finished
        .iter()
        .filter(|f| f.histogram.contains_key(&length))
    {
        let part = &s.parts[f.part];
        let (node, goal) = part.node(&s.tables);
        if goal {
            lister.goal(part.bound, &node);
            continue;
        }
        let mut search = Search::new(&s.tables, node, Bound::Layers, length, lister);
        search.run();
        lister = search.sink;
    }
    let mut mazes = lister.mazes;
    mazes.sort_unstable();
    let n = mazes.len() as u64;
    if Big::from_u128(u128::from(n)) != *count {
        anyhow::bail!("the list has {n} mazes of {length} moves, the proof counts {count}");
    }
    crate::util::atomic::write_with(path, |w| {
        use std::io::Write;
        for m in &mazes {
            writeln!(w, "{m}")?;
        }
        Ok(())
    })?;
    Ok(n)
}
