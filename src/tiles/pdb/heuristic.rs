//! The additive heuristic of a partition's tables: Manhattan distance plus twice the
//! tables' stored values, maximised with the same sum for the state reflected about the
//! main diagonal when the goal is symmetric under it, and over several partitions when
//! given more than one (Holte et al. 2006: the maximum of admissible heuristics is
//! admissible; the tables of groups the partitions share are loaded once). It is
//! assembled from tables however they were made: built in memory, or loaded from the
//! cache by [`super::load`].

use super::partition::{MAX_PARTS, Partition};
use super::spread::Spread;
use super::table::Table;
use crate::tiles::board::{Board, MAX_CELLS};
use rayon::prelude::*;
use std::sync::OnceLock;

/// The reflection about the main diagonal, as a map of cells and of tiles.
#[derive(Debug, Clone)]
pub struct Reflection {
    pub cell: [u8; MAX_CELLS],
    pub tile: [u8; MAX_CELLS + 1],
}

impl Reflection {
    /// The reflection of a square board whose goal is symmetric under it (tile t's
    /// reflection is the goal tile at the transpose of t's goal cell; the blank's goal
    /// cell must be on the diagonal), else `None`.
    pub fn of(goal: &Board) -> Option<Reflection> {
        let w = goal.width as usize;
        if goal.width != goal.height || goal.blanks() != 1 {
            return None;
        }
        let b = goal.blank();
        if b / w != b % w {
            return None;
        }
        let mut r = Reflection {
            cell: [0; MAX_CELLS],
            tile: [0; MAX_CELLS + 1],
        };
        for c in 0..goal.len() {
            let t = (c % w) * w + c / w;
            r.cell[c] = t as u8;
            r.tile[usize::from(goal.cells[c])] = goal.cells[t];
        }
        Some(r)
    }
}

/// One additive partition of a [`PdbHeuristic`]: its groups' tables (indexes into the
/// heuristic's tables, which several partitions may share) and each tile's place in it.
#[derive(Debug, Clone)]
pub struct Part {
    /// `table[g]`: the heuristic's table of group g.
    pub table: Vec<usize>,
    /// `group[t]`: the group of tile t (u8::MAX for none), `index[t]`: its place in it.
    pub group: [u8; MAX_CELLS + 1],
    pub index: [u8; MAX_CELLS + 1],
}

/// An additive PDB heuristic: the maximum over one or more partitions of the tiles (and
/// over each partition's sum for the state reflected about the main diagonal, when the
/// goal has that symmetry) of Manhattan distance plus twice the partition's stored
/// values. Tiles in none of a partition's groups contribute their Manhattan distance.
#[derive(Debug, Clone)]
pub struct PdbHeuristic {
    pub goal: Board,
    /// The name it was asked for by (`6-6-6-6`), or its partitions written out.
    pub name: String,
    pub parts: Vec<Part>,
    /// One table per distinct group of tiles, in the order first met.
    pub tables: Vec<Table>,
    /// `md[t][c]`: tile t's Manhattan distance from cell c to its goal (0 for the blank).
    pub md: [[u8; MAX_CELLS]; MAX_CELLS + 1],
    /// Taken into account when `Some` (and `use_reflection`).
    pub reflection: Option<Reflection>,
    /// The tables' spread copies for the search ([`Self::spreads`]), made on first use.
    spreads: OnceLock<Vec<Spread>>,
}

impl PdbHeuristic {
    /// The heuristic of one partition from its tables (in the partition's group order).
    pub fn new(goal: &Board, partition: Partition, tables: Vec<Table>, reflect: bool) -> Self {
        let name = partition.name.clone();
        PdbHeuristic::max_of(goal, name, &[partition], tables, reflect)
    }

    /// The maximum over `partitions` (at most [`MAX_PARTS`]), from the tables of their
    /// distinct groups in the order first met ([`distinct_groups`]).
    pub fn max_of(
        goal: &Board,
        name: String,
        partitions: &[Partition],
        tables: Vec<Table>,
        reflect: bool,
    ) -> Self {
        assert_eq!(distinct_groups(partitions).len(), tables.len());
        assert!((1..=MAX_PARTS).contains(&partitions.len()));
        let distinct = distinct_groups(partitions);
        let parts = partitions
            .iter()
            .map(|partition| {
                let mut group = [u8::MAX; MAX_CELLS + 1];
                let mut index = [0u8; MAX_CELLS + 1];
                for (g, tiles) in partition.groups.iter().enumerate() {
                    for (i, &t) in tiles.iter().enumerate() {
                        group[usize::from(t)] = g as u8;
                        index[usize::from(t)] = i as u8;
                    }
                }
                let table = (partition.groups.iter())
                    .map(|g| distinct.iter().position(|d| d == g).unwrap_or(0))
                    .collect();
                Part {
                    table,
                    group,
                    index,
                }
            })
            .collect();
        let w = goal.width as usize;
        let mut md = [[0u8; MAX_CELLS]; MAX_CELLS + 1];
        for (gc, &t) in goal.tiles().iter().enumerate() {
            if t == 0 {
                continue;
            }
            for (c, m) in md[usize::from(t)].iter_mut().enumerate().take(goal.len()) {
                *m = ((c / w).abs_diff(gc / w) + (c % w).abs_diff(gc % w)) as u8;
            }
        }
        PdbHeuristic {
            goal: *goal,
            name,
            parts,
            tables,
            md,
            reflection: if reflect { Reflection::of(goal) } else { None },
            spreads: OnceLock::new(),
        }
    }

    /// The tables' [`Spread`] copies, in the tables' order, or none when a table is too
    /// large for one. Made (in parallel over the tables) by the first call, which
    /// callers make while setting up, before they time a search.
    pub fn spreads(&self) -> &[Spread] {
        self.spreads.get_or_init(|| {
            let copies: Option<Vec<Spread>> = self.tables.par_iter().map(Spread::of).collect();
            copies.unwrap_or_default()
        })
    }

    /// Manhattan distance as patterns of one tile each (tables of one entry a cell, built
    /// in memory): the searches of this heuristic are those of Manhattan distance, node
    /// for node, with the options only the pattern-database search has.
    pub fn manhattan(goal: &Board) -> PdbHeuristic {
        let tiles: Vec<u8> = goal.tiles().iter().copied().filter(|&t| t != 0).collect();
        let tables = tiles
            .iter()
            .map(|&t| super::build::build(goal, &[t], &crate::util::observe::Quiet))
            .collect();
        let partition = Partition {
            name: "manhattan".into(),
            groups: tiles.iter().map(|&t| vec![t]).collect(),
        };
        PdbHeuristic::new(goal, partition, tables, false)
    }

    /// The number of tiles of table `t`'s group.
    pub fn group_len(&self, t: usize) -> usize {
        self.tables[t].pattern.len()
    }

    /// The heuristic without spread copies: its searches use the packed tables.
    #[cfg(test)]
    pub(crate) fn without_spreads(mut self) -> PdbHeuristic {
        self.spreads = OnceLock::from(Vec::new());
        self
    }

    /// The bytes all tables take, packed by rank (as published sizes count them).
    pub fn bytes(&self) -> usize {
        self.tables.iter().map(Table::bytes).sum()
    }

    /// The sum of part `p`'s stored values for a state given by `pos[tile]` (the blank's
    /// cell `pos[0]`).
    fn stored_sum(&self, p: usize, pos: &[u8; MAX_CELLS + 1]) -> u32 {
        let mut cells = [0u8; MAX_CELLS];
        (self.parts[p].table.iter())
            .map(|&i| {
                let table = &self.tables[i];
                for (i, &tile) in table.pattern.tiles.iter().enumerate() {
                    cells[i] = pos[usize::from(tile)];
                }
                table.get(table.pattern.rank(&cells[..table.pattern.len()]))
            })
            .sum()
    }

    /// The largest of the parts' stored sums.
    fn max_stored_sum(&self, pos: &[u8; MAX_CELLS + 1]) -> u32 {
        (0..self.parts.len())
            .map(|p| self.stored_sum(p, pos))
            .max()
            .unwrap_or(0)
    }

    /// The heuristic without the reflection: Manhattan + 2 · the largest of the parts'
    /// stored sums.
    pub fn evaluate_plain(&self, cells: &[u8]) -> u32 {
        let (md, pos) = self.md_and_positions(cells);
        md + 2 * self.max_stored_sum(&pos)
    }

    /// The heuristic: the larger of the state's value and its reflection's.
    pub fn evaluate(&self, cells: &[u8]) -> u32 {
        let (md, pos) = self.md_and_positions(cells);
        let mut s = self.max_stored_sum(&pos);
        if let Some(r) = &self.reflection {
            let mut rpos = [0u8; MAX_CELLS + 1];
            for t in 0..self.goal.len() {
                rpos[usize::from(r.tile[t])] = r.cell[usize::from(pos[t])];
            }
            s = s.max(self.max_stored_sum(&rpos));
        }
        md + 2 * s
    }

    fn md_and_positions(&self, cells: &[u8]) -> (u32, [u8; MAX_CELLS + 1]) {
        let mut pos = [0u8; MAX_CELLS + 1];
        let mut md = 0;
        for (c, &t) in cells[..self.goal.len()].iter().enumerate() {
            pos[usize::from(t)] = c as u8;
            md += u32::from(self.md[usize::from(t)][c]);
        }
        (md, pos)
    }
}

/// The distinct groups of `partitions`, in the order first met: one table each.
pub fn distinct_groups(partitions: &[Partition]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    for g in partitions.iter().flat_map(|p| &p.groups) {
        if !out.contains(g) {
            out.push(g.clone());
        }
    }
    out
}
