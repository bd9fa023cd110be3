//! The additive heuristic of a partition's tables: Manhattan distance plus twice the
//! tables' stored values, maximised with the same sum for the state reflected about the
//! main diagonal when the goal is symmetric under it.

use super::Partition;
use super::store::{Origin, check_cache, load_or_build};
use super::table::Table;
use crate::tiles::board::{Board, MAX_CELLS};
use std::path::Path;

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

/// An additive PDB heuristic: a partition's tables, the tiles' Manhattan distances for
/// tiles in no pattern, and the reflection when the goal has one.
#[derive(Debug, Clone)]
pub struct PdbHeuristic {
    pub goal: Board,
    pub partition: Partition,
    pub tables: Vec<Table>,
    /// `group[t]`: the pattern of tile t (u8::MAX for none), `index[t]`: its place in it.
    pub group: [u8; MAX_CELLS + 1],
    pub index: [u8; MAX_CELLS + 1],
    /// `md[t][c]`: tile t's Manhattan distance from cell c to its goal (0 for the blank).
    pub md: [[u8; MAX_CELLS]; MAX_CELLS + 1],
    /// Taken into account when `Some` (and `use_reflection`).
    pub reflection: Option<Reflection>,
}

impl PdbHeuristic {
    /// The heuristic from tables already at hand (in the partition's group order).
    pub fn new(goal: &Board, partition: Partition, tables: Vec<Table>, reflect: bool) -> Self {
        let mut group = [u8::MAX; MAX_CELLS + 1];
        let mut index = [0u8; MAX_CELLS + 1];
        for (g, tiles) in partition.groups.iter().enumerate() {
            for (i, &t) in tiles.iter().enumerate() {
                group[usize::from(t)] = g as u8;
                index[usize::from(t)] = i as u8;
            }
        }
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
            partition,
            tables,
            group,
            index,
            md,
            reflection: if reflect { Reflection::of(goal) } else { None },
        }
    }

    /// Manhattan distance as patterns of one tile each (tables of one entry a cell, built
    /// in memory): the searches of this heuristic are those of Manhattan distance, node
    /// for node, with the options only the pattern-database search has.
    pub fn manhattan(goal: &Board) -> PdbHeuristic {
        let tiles: Vec<u8> = goal.tiles().iter().copied().filter(|&t| t != 0).collect();
        let tables = tiles
            .iter()
            .map(|&t| super::build::build(goal, &[t], &|_, _| ()))
            .collect();
        let partition = Partition {
            name: "manhattan".into(),
            groups: tiles.iter().map(|&t| vec![t]).collect(),
        };
        PdbHeuristic::new(goal, partition, tables, false)
    }

    /// Builds (or loads from the cache folder) every table of `partition`, after checking
    /// the cache ([`check_cache`]) so that a bad folder is reported before any build.
    /// `progress(pattern index, done, total)` reports each build.
    pub fn load_or_build(
        goal: &Board,
        partition: Partition,
        cache: &Path,
        reflect: bool,
        progress: &dyn Fn(usize, u64, u64),
    ) -> anyhow::Result<(PdbHeuristic, Vec<Origin>)> {
        check_cache(cache, goal, &partition.groups)?;
        let mut tables = Vec::new();
        let mut origins = Vec::new();
        for (i, g) in partition.groups.iter().enumerate() {
            let (t, o) = load_or_build(cache, goal, g, &|d, n| progress(i, d, n))?;
            tables.push(t);
            origins.push(o);
        }
        Ok((PdbHeuristic::new(goal, partition, tables, reflect), origins))
    }

    /// The bytes all tables take.
    pub fn bytes(&self) -> usize {
        self.tables.iter().map(Table::bytes).sum()
    }

    /// The sum of the tables' stored values for a state given by `pos[tile]`.
    fn stored_sum(&self, pos: &[u8; MAX_CELLS + 1]) -> u32 {
        let mut cells = [0u8; MAX_CELLS];
        self.tables
            .iter()
            .map(|t| {
                for (i, &tile) in t.pattern.tiles.iter().enumerate() {
                    cells[i] = pos[usize::from(tile)];
                }
                t.get(t.pattern.rank(&cells[..t.pattern.len()]))
            })
            .sum()
    }

    /// The heuristic without the reflection: Manhattan + 2 · the tables' stored values.
    pub fn evaluate_plain(&self, cells: &[u8]) -> u32 {
        let (md, pos) = self.md_and_positions(cells);
        md + 2 * self.stored_sum(&pos)
    }

    /// The heuristic: the larger of the state's sum and its reflection's.
    pub fn evaluate(&self, cells: &[u8]) -> u32 {
        let (md, pos) = self.md_and_positions(cells);
        let mut s = self.stored_sum(&pos);
        if let Some(r) = &self.reflection {
            let mut rpos = [0u8; MAX_CELLS + 1];
            for t in 0..self.goal.len() {
                rpos[usize::from(r.tile[t])] = r.cell[usize::from(pos[t])];
            }
            s = s.max(self.stored_sum(&rpos));
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
