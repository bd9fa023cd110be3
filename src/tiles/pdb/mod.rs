//! Additive disjoint pattern databases for one-blank boards (Korf & Felner 2002; Felner,
//! Korf & Hanan 2004): partitions of the tiles, the tables' construction by breadth-first
//! search over the abstract space, their compact storage and disk cache, and lookups
//! (the sum over the patterns, maximised with the sum for the state reflected about the
//! main diagonal, and over several partitions when given more than one: `A|B`, or a named
//! catalogue such as `6-6-6-6x4`). The fast IDA* that uses them is [`super::pdb_ida`].
//!
//! **What a table holds.** A pattern is a set of tiles. Its abstract state is where its
//! tiles are and which cells the blank can reach; the cost counts only moves of pattern
//! tiles (blank moves through non-pattern cells are free), so for disjoint patterns the
//! costs add up without counting any move twice: the sum is admissible. Tiles in no
//! pattern contribute their Manhattan distance, so a partition need not cover the board.
//! The table maps each placement of the pattern's tiles (a k-permutation of the n cells,
//! ranked perfectly: n!/(n−k)! entries) to the least cost over the blank's positions.
//!
//! **Compact values.** Every move of a pattern tile changes that tile's Manhattan
//! distance by one, so a value is the pattern's Manhattan distance plus an even number of
//! extra moves. A table stores `(value − md) / 2`, which fits 4 bits for every partition
//! of the 15-puzzle (bytes are used when it does not), and the lookup is
//! `h = MD + 2 · Σ stored`: Manhattan distance is kept incrementally by the search anyway.
//!
//! **Construction.** A breadth-first search by layers backwards from the goal over
//! (placement, blank region): the blank region is the set of non-pattern cells the blank
//! reaches for free. Per placement one atomic word holds two bit sets over the free cells
//! (in cell order): the cells already *seen* and those in the current *frontier*. A
//! placement's cost has the parity of its Manhattan distance, so the placements of
//! layer d and d + 1 never coincide, and one frontier set serves both: a layer's scan
//! expands the frontier words of its own parity while the expansions fill those of the
//! other. Layers run in parallel over ranges of placements (rayon); a placement's value is
//! written by the scan of the layer that first reaches it, in its own range, so the
//! packed table needs no locking. The scans select and gather free cells with BMI2's PDEP
//! and PEXT where the processor has them fast, bit by bit (with POPCNT) on AMD's before
//! Zen 3, which microcode them (a six-tile table of the 24-puzzle in 50 s instead of 82 s
//! on a two-core Zen 1 EPYC); the tables are the same either way. The 8-tile pattern of the 7-8 partition has 518,918,400
//! placements: 1 GB of words plus 259 MB of table while it is built.
//!
//! **Cache.** Tables are saved in a cache folder ([`DEFAULT_CACHE_DIR`] unless the caller
//! gives another), one file per pattern, named after the board, goal and tiles. A file is
//! a header (magic, [`FORMAT_VERSION`], board shape, goal, tiles, encoding, entry count,
//! value histogram, build seconds, a 64-bit FNV-1a checksum of the payload) and the packed
//! values; it is written atomically ([`crate::util::atomic`]). A file whose header does not
//! match the request or whose checksum fails is rebuilt with a warning on stderr.

//!
//! **Zero-aware tables** (`zpdb:` heuristics) keep the cost of each (placement, blank
//! region) state instead of the least over the regions, one bit an entry; see [`ZeroTable`].
//!
//! **Files.** This file holds the partitions; `rank.rs` the perfect ranking of placements
//! and its bit tricks, `build.rs` the breadth-first construction, `table.rs` the packed
//! values, `spread.rs` their copies indexed by cells for the search, `regions.rs` the
//! board's masks and the blank's regions of every set of taken cells, `zero.rs` the
//! zero-aware tables, `store.rs` the disk format and cache, `heuristic.rs` the lookups
//! with the reflection, `names.rs` the heuristic names (`pdb:7-8`, `zpdb:6-6-6-6x4`) the
//! pipeline accepts; their public items are re-exported here.

mod build;
mod heuristic;
mod names;
mod rank;
mod regions;
mod spread;
mod store;
mod table;
mod zero;

pub use build::{build, build_zero};
pub use heuristic::{MAX_PARTS, Part, PdbHeuristic, Reflection, TableKind, distinct_groups};
pub use names::{check_ida_heuristic, heuristic_names, heuristic_partition, split_heuristics};
pub use rank::Pattern;
pub use regions::{Grid, Regions};
pub use spread::{CellIndex, Entries, MAX_SPREAD_ENTRIES, Spread};
pub use store::{
    DEFAULT_CACHE_DIR, FORMAT_VERSION, Origin, cache_file, check_cache, histogram_text, load,
    load_or_build, load_or_build_zero, progress_lines, save, shared, zero_cache_file,
};
pub use table::{Encoding, Table};
pub use zero::{MAX_ZERO_ENTRIES, ZeroTable};

use super::board::Board;
use crate::user_bail;

/// The largest table built: 2^30 entries (the 8-tile pattern of the 15-puzzle has 0.52 G).
pub const MAX_ENTRIES: u64 = 1 << 30;

/// The named partitions: (name, board side, groups).
const NAMED: &[(&str, usize, &[&[u8]])] = &[
    // Korf & Felner 2002 / Felner, Korf & Hanan 2004, 15-puzzle, blank top-left.
    (
        "5-5-5",
        4,
        &[&[1, 2, 3, 6, 7], &[4, 5, 8, 9, 12], &[10, 11, 13, 14, 15]],
    ),
    (
        "6-6-3",
        4,
        &[&[1, 2, 3], &[4, 5, 8, 9, 12, 13], &[6, 7, 10, 11, 14, 15]],
    ),
    (
        "7-8",
        4,
        &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]],
    ),
    // Korf & Felner 2002, 24-puzzle: four blocks of six tiles.
    (
        "6-6-6-6",
        5,
        &[
            &[1, 5, 6, 10, 11, 12],
            &[2, 3, 4, 7, 8, 9],
            &[13, 14, 18, 19, 23, 24],
            &[15, 16, 17, 20, 21, 22],
        ],
    ),
];

/// The names of the built-in partitions.
pub const PARTITION_NAMES: &[&str] = &["5-5-5", "6-6-3", "7-8", "6-6-6-6"];

/// Clausecker & Reinefeld's (2021) "small" catalogue of seven 6-6-6-6 partitions of the
/// 24-puzzle, the first Korf & Felner's (their tables are plain additive ones here, not
/// zero-aware; with the reflection, fourteen sums): 14 tables.
const SMALL_24: &[&str] = &[
    "6-6-6-6",
    "1,2,5,6,10,11/3,4,7,8,9,12/13,14,18,19,23,24/15,16,17,20,21,22",
    "1,5,6,10,11,12/2,3,4,7,8,9/13,14,15,16,17,18/19,20,21,22,23,24",
    "1,2,5,6,10,11/3,4,7,8,9,12/13,14,15,16,17,18/19,20,21,22,23,24",
    "1,5,6,10,15,20/2,3,4,7,8,9/11,12,16,17,21,22/13,14,18,19,23,24",
    "1,2,5,6,10,11/3,4,9,14,19,24/7,8,12,13,18,23/15,16,17,20,21,22",
    "1,5,6,10,15,20/2,3,4,7,8,9/11,12,13,16,17,18/14,19,21,22,23,24",
];

/// The seven partitions their "improved" catalogue adds to the small one (fourteen in
/// all, twenty-eight sums with the reflection): 20 tables with the small one's.
const IMPROVED_24: &[&str] = &[
    "1,5,6,10,15,20/2,3,7,8,13,18/4,9,14,19,23,24/11,12,16,17,21,22",
    "1,5,6,10,11,12/2,3,7,8,13,18/4,9,14,19,23,24/15,16,17,20,21,22",
    "1,2,5,6,10,15/3,4,7,8,9,14/11,12,13,16,17,18/19,20,21,22,23,24",
    "1,2,5,6,10,15/3,4,9,14,19,24/7,8,12,13,18,23/11,16,17,20,21,22",
    "1,2,5,6,10,15/3,4,7,8,9,12/11,16,17,20,21,22/13,14,18,19,23,24",
    "1,2,5,6,10,11/3,4,7,8,9,14/12,13,18,19,23,24/15,16,17,20,21,22",
    "1,2,5,6,10,15/3,4,7,8,9,14/11,16,17,20,21,22/12,13,18,19,23,24",
];

/// Four of the small catalogue's seven (its first, second, sixth and seventh): 11
/// tables. Chosen by measured time: each child that is not pruned reads eight sums
/// instead of fourteen, which more than pays for the nodes the other three would save
/// (on Korf & Felner's instances 40, 25 and 44 with the finite-state machine, 1.29 times
/// the nodes of all seven in 0.7–0.78 times the time).
const FOUR_24: &[&str] = &[SMALL_24[0], SMALL_24[1], SMALL_24[5], SMALL_24[6]];

/// The named maxima over several partitions: (name, board side, the lists whose
/// partitions' texts it maximises over, one after the other).
pub(crate) const CATALOGUES: &[(&str, usize, &[&[&str]])] = &[
    ("6-6-6-6x4", 5, &[FOUR_24]),
    ("6-6-6-6x7", 5, &[SMALL_24]),
    ("6-6-6-6x14", 5, &[SMALL_24, IMPROVED_24]),
];

/// The board side a named partition or catalogue is for (`6-6-6-6`: 5), else `None`.
pub fn named_side(text: &str) -> Option<usize> {
    let text = strip_kind(text).0;
    (NAMED.iter().map(|(n, side, _)| (*n, *side)))
        .chain(CATALOGUES.iter().map(|(n, side, _)| (*n, *side)))
        .find(|(n, _)| *n == text)
        .map(|(_, side)| side)
}

/// The partitions a heuristic's text names: one partition ([`Partition::parse_text`]), a
/// named catalogue of several, or several separated by `|` (`5-5-5|1,2,5,6/...`), whose
/// maximum is taken. Returns the name the heuristic goes by and the partitions, checked
/// as far as they can be without a board.
pub fn parse_partitions_text(text: &str) -> Result<(String, Vec<Partition>), String> {
    let text = strip_kind(text).0;
    let (name, texts): (String, Vec<&str>) = match CATALOGUES.iter().find(|(n, ..)| *n == text) {
        Some((name, _, lists)) => (name.to_string(), lists.concat()),
        None => (String::new(), text.split('|').collect()),
    };
    if texts.len() > 1 && texts.iter().any(|t| t.trim().is_empty()) {
        return Err(format!(
            "pattern database heuristic {text:?} has an empty partition (partitions are separated by |)"
        ));
    }
    let parts = (texts.iter())
        .map(|t| Partition::parse_text(t))
        .collect::<Result<Vec<_>, _>>()?;
    if parts.len() > MAX_PARTS {
        return Err(format!(
            "pattern database heuristic {text:?} has {} partitions; the limit is {MAX_PARTS}",
            parts.len()
        ));
    }
    let name = match name.is_empty() {
        true => parts
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join("|"),
        false => name,
    };
    Ok((name, parts))
}

/// The prefix of the heuristics of zero-aware tables ([`ZeroTable`]): `zpdb:6-6-6-6x4`.
pub const ZERO_PREFIX: &str = "zpdb:";

/// A pattern-database text without its `pdb:` or `zpdb:` prefix, and whether it asks for
/// zero-aware tables (`zpdb:`).
pub fn strip_kind(text: &str) -> (&str, bool) {
    let text = text.trim();
    match text.strip_prefix(ZERO_PREFIX) {
        Some(rest) => (rest, true),
        None => (text.strip_prefix("pdb:").unwrap_or(text), false),
    }
}

/// [`parse_partitions_text`], each partition checked against `goal`'s board (and, for
/// `zpdb:`, against the size of zero-aware tables).
pub fn parse_partitions(text: &str, goal: &Board) -> anyhow::Result<(String, Vec<Partition>)> {
    let (name, parts) = match parse_partitions_text(text) {
        Ok(x) => x,
        Err(e) => user_bail!("{e}"),
    };
    for p in &parts {
        p.check_board(goal)?;
        if strip_kind(text).1 {
            p.check_zero(goal)?;
        }
    }
    Ok((name, parts))
}

/// Disjoint groups of tiles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partition {
    /// The name it was given by (`7-8`) or its groups written out (`1,2,3/4,5,6`).
    pub name: String,
    pub groups: Vec<Vec<u8>>,
}

impl Partition {
    /// A named partition (`5-5-5`, `6-6-3`, `7-8`, `6-6-6-6`) or groups of tile numbers
    /// separated by `/`, tiles by `,` (`1,2,3,4/5,6,7,8`), checked against `goal`'s board.
    pub fn parse(text: &str, goal: &Board) -> anyhow::Result<Partition> {
        let p = match Partition::parse_text(text) {
            Ok(p) => p,
            Err(e) => user_bail!("{e}"),
        };
        p.check_board(goal)?;
        Ok(p)
    }

    /// Checks the partition against `goal`'s board: a named one is for its board size,
    /// every tile is on the board, and no table is over [`MAX_ENTRIES`].
    fn check_board(&self, goal: &Board) -> anyhow::Result<()> {
        let shape = goal.shape();
        if let Some((name, side, _)) = NAMED.iter().find(|(n, _, _)| *n == self.name)
            && (shape.width != *side || shape.height != *side)
        {
            user_bail!("partition {name} is for the {side}x{side} board, not {shape}");
        }
        self.check(goal)
    }

    /// The partition a text names, checked as far as it can be without a board: tile
    /// numbers, no empty group, no tile twice. The error says what is wrong.
    pub fn parse_text(text: &str) -> Result<Partition, String> {
        let text = strip_kind(text).0;
        if let Some((name, _, groups)) = NAMED.iter().find(|(n, _, _)| *n == text) {
            return Ok(Partition {
                name: name.to_string(),
                groups: groups.iter().map(|g| g.to_vec()).collect(),
            });
        }
        let mut groups = Vec::new();
        let mut seen = [false; 256];
        for part in text.split('/') {
            let mut g = Vec::new();
            for word in part.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                let t = match word.parse::<u8>() {
                    Ok(t) if t > 0 => t,
                    _ => {
                        return Err(format!(
                            "pattern database partition {text:?}: {word:?} is not a tile number (expected {}, a catalogue of partitions ({}), or groups of tiles like 1,2,3/4,5,6)",
                            PARTITION_NAMES.join(", "),
                            CATALOGUES
                                .iter()
                                .map(|(name, ..)| *name)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ));
                    }
                };
                if std::mem::replace(&mut seen[usize::from(t)], true) {
                    return Err(format!(
                        "pattern database partition {text:?}: tile {t} is in two groups (the groups must be disjoint)"
                    ));
                }
                g.push(t);
            }
            if g.is_empty() {
                return Err(format!(
                    "pattern database partition {text:?} has an empty group"
                ));
            }
            groups.push(g);
        }
        let name = groups
            .iter()
            .map(|g| g.iter().map(u8::to_string).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
            .join("/");
        Ok(Partition { name, groups })
    }

    /// Checks that every group's zero-aware table fits [`MAX_ZERO_ENTRIES`].
    fn check_zero(&self, goal: &Board) -> anyhow::Result<()> {
        for g in &self.groups {
            let entries = zero::main_entries(goal.len(), g.len());
            if entries > MAX_ZERO_ENTRIES {
                user_bail!(
                    "pattern database partition {}: a zero-aware table of {} tiles on {} cells has {entries} entries; the limit is {MAX_ZERO_ENTRIES} (groups of up to six tiles of the 24-puzzle, eight of the 15-puzzle)",
                    self.name,
                    g.len(),
                    goal.len()
                );
            }
        }
        Ok(())
    }

    fn check(&self, goal: &Board) -> anyhow::Result<()> {
        if goal.blanks() != 1 {
            user_bail!("pattern databases need a board with one blank");
        }
        let max = goal.len() - 1;
        for g in &self.groups {
            if let Some(t) = g.iter().find(|&&t| usize::from(t) > max) {
                user_bail!(
                    "pattern database partition {}: tile {t} is not on the {} board (tiles 1 to {max})",
                    self.name,
                    goal.shape()
                );
            }
            let entries = Pattern::entries_for(goal.len(), g.len());
            if entries > MAX_ENTRIES {
                user_bail!(
                    "pattern database partition {}: a group of {} tiles on {} cells has {entries} entries; the limit is {MAX_ENTRIES}",
                    self.name,
                    g.len(),
                    goal.len()
                );
            }
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::board::{MAX_CELLS, Shape};
    use super::super::census;
    use super::*;

    fn goal3() -> Board {
        Board::default_goal(Shape::new(3, 3).unwrap(), 1)
    }

    fn boards_by_distance(goal: &Board) -> Vec<Vec<Board>> {
        let shape = goal.shape();
        let n = shape.cells();
        census::layers(goal)
            .unwrap()
            .into_iter()
            .map(|layer| {
                layer
                    .into_iter()
                    .map(|code| {
                        let tiles: Vec<u32> = (0..n)
                            .map(|i| ((code >> (4 * (n - 1 - i))) & 0xF) as u32)
                            .collect();
                        Board::from_tiles(shape, &tiles, "t").unwrap()
                    })
                    .collect()
            })
            .collect()
    }

    /// Tables of `partition` (or of several, separated by `|`) built in memory (no
    /// cache), for tests.
    pub(crate) fn heuristic(goal: &Board, partition: &str, reflect: bool) -> PdbHeuristic {
        let (name, parts) = parse_partitions(partition, goal).unwrap();
        let tables = distinct_groups(&parts)
            .iter()
            .map(|g| build(goal, g, &|_, _| {}))
            .collect();
        PdbHeuristic::max_of(goal, name, &parts, tables, reflect)
    }

    /// [`heuristic`] with zero-aware tables.
    pub(crate) fn zero_heuristic(goal: &Board, partition: &str, reflect: bool) -> PdbHeuristic {
        let (name, parts) = parse_partitions(partition, goal).unwrap();
        let mut regions = std::collections::HashMap::new();
        let tables = distinct_groups(&parts)
            .iter()
            .map(|g| {
                let r = (regions.entry(g.len()))
                    .or_insert_with(|| std::sync::Arc::new(Regions::new(goal.shape(), g.len())));
                build_zero(goal, g, r, &|_, _| {}).1
            })
            .collect();
        PdbHeuristic::zero_max_of(goal, name, &parts, tables, reflect)
    }

    #[test]
    fn zero_aware_heuristics_are_admissible_consistent_and_above_the_plain_ones() {
        // Every 8-puzzle state by exact distance, for partitions of one to four groups
        // and the maximum over two: the zero-aware value (with the reflection) is at most
        // the distance, at least the plain one, higher on some states, changes by at most
        // one a move (consistent), and is 0 only at the goal.
        let goal = goal3();
        for partition in [
            "1,2,3,4/5,6,7,8",
            "1,2,5/3,6/4,7,8",
            "2,4,6,8",
            "1,2,3,4/5,6,7,8|1,2,5/3,6/4,7,8",
        ] {
            let plain = heuristic(&goal, partition, true);
            let zero = zero_heuristic(&goal, partition, true);
            assert!(zero.tables.is_empty() && !zero.zero.is_empty());
            let mut higher = 0;
            for (d, layer) in boards_by_distance(&goal).iter().enumerate() {
                for b in layer {
                    let (p, z) = (plain.evaluate(&b.cells), zero.evaluate(&b.cells));
                    assert!(
                        p <= z && z as usize <= d,
                        "{partition}: {p}, {z}, {d} on {}",
                        b.list()
                    );
                    assert_eq!(z == 0, d == 0);
                    higher += u32::from(z > p);
                    for (n, _, _) in b.successors(crate::tiles::board::MoveOrder::default()) {
                        assert!(zero.evaluate(&n.cells).abs_diff(z) <= 1, "{partition}");
                    }
                }
            }
            assert!(higher > 100, "{partition}: {higher}");
        }
    }

    #[test]
    fn ranking_is_a_bijection() {
        let p = Pattern::new(&[3, 1, 4], 6);
        assert_eq!(p.entries(), 120);
        let mut seen = [false; 120];
        let mut pos = [0u8; MAX_CELLS];
        for r in 0..120 {
            p.unrank(r, &mut pos);
            assert_eq!(p.rank(&pos[..3]), r);
            let distinct = pos[0] != pos[1] && pos[0] != pos[2] && pos[1] != pos[2];
            assert!(distinct && pos[..3].iter().all(|&c| c < 6));
            seen[r as usize] = true;
            for i in 0..3 {
                for to in 0..6u8 {
                    if pos[..3].contains(&to) {
                        continue;
                    }
                    let mut moved = pos;
                    moved[i] = to;
                    assert_eq!(p.rank_moved(&pos[..3], r, i, to), p.rank(&moved[..3]));
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn a_pattern_of_every_tile_gives_exact_3x3_distances() {
        // With all eight tiles in one pattern the abstract space is the puzzle itself.
        let goal = goal3();
        let h = heuristic(&goal, "1,2,3,4,5,6,7,8", true);
        assert!(h.reflection.is_some());
        let t = &h.tables[0];
        assert_eq!(t.pattern.entries(), 362_880);
        // Only the placements of the goal's parity are reachable; the histogram is the
        // census.
        let census = census::census(&goal).unwrap();
        assert_eq!(t.histogram, census);
        for (d, layer) in boards_by_distance(&goal).iter().enumerate() {
            for b in layer {
                assert_eq!(h.evaluate_plain(&b.cells) as usize, d, "{}", b.list());
                // The reflected state is as far from the goal: the maximum is exact too.
                assert_eq!(h.evaluate(&b.cells) as usize, d, "{}", b.list());
            }
        }
    }

    #[test]
    fn every_3x3_partition_variant_is_admissible_everywhere() {
        for goal in [
            goal3(),
            Board::parse("0 1 2 3 4 5 6 7 8", None, None, "g").unwrap(),
        ] {
            for partition in [
                "1,2,3,4/5,6,7,8",
                "1,2,5/3,6/4,7,8",
                "2,4,6,8",
                "1/2/3/4/5/6/7/8",
            ] {
                let h = heuristic(&goal, partition, true);
                assert!(h.reflection.is_some());
                let mut sums = [0u64; 3];
                for (d, layer) in boards_by_distance(&goal).iter().enumerate() {
                    for b in layer {
                        let plain = h.evaluate_plain(&b.cells);
                        let full = h.evaluate(&b.cells);
                        assert!(
                            full as usize <= d,
                            "{partition}: {full} > {d} on {}",
                            b.list()
                        );
                        assert!(plain <= full);
                        assert_eq!(full == 0, d == 0);
                        let md = Tables::new(&goal).manhattan(&b.cells);
                        assert!(plain >= md);
                        sums[0] += u64::from(md);
                        sums[1] += u64::from(plain);
                        sums[2] += u64::from(full);
                    }
                }
                if partition.contains('/') && !partition.starts_with("1/") {
                    assert!(
                        sums[1] > sums[0] && sums[2] > sums[1],
                        "{partition}: {sums:?}"
                    );
                } else if partition.starts_with("1/") {
                    // Single tiles: exactly Manhattan distance.
                    assert_eq!(sums[0], sums[1]);
                }
            }
        }
    }

    #[test]
    fn the_maximum_over_partitions_is_admissible_and_each_ones_maximum() {
        // Every 8-puzzle state by exact distance: the maximum over three partitions (the
        // third shares a group, and so a table, with the first) is at most the distance, is
        // exactly the largest of the three heuristics evaluated alone, and is larger than
        // each of them on some states.
        let goal = goal3();
        let texts = ["1,2,3,4/5,6,7,8", "1,2,5/3,6/4,7,8", "1,2,3,4/5,8/6,7"];
        let singles: Vec<PdbHeuristic> = texts.iter().map(|t| heuristic(&goal, t, true)).collect();
        let h = heuristic(&goal, &texts.join("|"), true);
        assert_eq!((h.parts.len(), h.tables.len()), (3, 7));
        assert_eq!(h.name, texts.join("|"));
        let mut above = [0u32; 3];
        for (d, layer) in boards_by_distance(&goal).iter().enumerate() {
            for b in layer {
                let each: Vec<u32> = singles.iter().map(|s| s.evaluate(&b.cells)).collect();
                let v = h.evaluate(&b.cells);
                assert!(v as usize <= d, "{v} > {d} on {}", b.list());
                assert_eq!(v, *each.iter().max().unwrap(), "{}", b.list());
                for (a, e) in above.iter_mut().zip(&each) {
                    *a += u32::from(v > *e);
                }
            }
        }
        assert!(above.iter().all(|&a| a > 1000), "{above:?}");
    }

    #[test]
    fn several_partitions_parse_and_reject_bad_input() {
        let g4 = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let (name, parts) = parse_partitions("pdb:5-5-5|1,2/3,4", &g4).unwrap();
        assert_eq!(name, "5-5-5|1,2/3,4");
        assert_eq!(parts[1].groups, vec![vec![1, 2], vec![3, 4]]);
        let err = |t: &str| parse_partitions(t, &g4).unwrap_err().to_string();
        assert!(err("5-5-5|").contains("empty partition"));
        assert!(err("|5-5-5").contains("empty partition"));
        assert!(err("5-5-5|6-6-6-6").contains("5x5"));
        assert!(err("5-5-5|1,2/2").contains("two groups"));
        // A misspelt catalogue: the message names the catalogues.
        assert!(err("6-6-6-6x15").contains("(6-6-6-6x4, 6-6-6-6x7, 6-6-6-6x14)"));
        assert!(err(&["1"; MAX_PARTS + 1].join("|")).contains("limit"));
        for (name, side, lists) in CATALOGUES {
            let g = Board::default_goal(Shape::new(*side, *side).unwrap(), 1);
            let (n, parts) = parse_partitions(name, &g).unwrap();
            assert_eq!((n.as_str(), parts.len()), (*name, lists.concat().len()));
            assert_eq!(named_side(name), Some(*side));
            for p in parts {
                let tiles: usize = p.groups.iter().map(Vec::len).sum();
                assert_eq!(tiles, g.len() - 1, "{name} covers the board");
            }
        }
        // Their partitions share groups, 14, 11 and 20 distinct ones (a table each), the
        // four are partitions of the small catalogue, and no partition of the improved
        // catalogue repeats another (in any group order).
        let g5 = Board::default_goal(Shape::new(5, 5).unwrap(), 1);
        let (_, small) = parse_partitions("6-6-6-6x7", &g5).unwrap();
        let (_, improved) = parse_partitions("6-6-6-6x14", &g5).unwrap();
        let sorted = |p: &Partition| {
            let mut groups = p.groups.clone();
            groups.sort();
            groups
        };
        for (i, p) in improved.iter().enumerate() {
            assert!(
                improved[..i].iter().all(|q| sorted(q) != sorted(p)),
                "partition {i} repeats one"
            );
        }
        assert_eq!(distinct_groups(&small).len(), 14);
        let (_, four) = parse_partitions("6-6-6-6x4", &g5).unwrap();
        assert_eq!(distinct_groups(&four).len(), 11);
        assert!(
            four.iter()
                .all(|p| small.iter().any(|q| q.groups == p.groups))
        );
        assert_eq!(distinct_groups(&improved).len(), 20);
    }

    use super::super::heuristic::Tables;

    #[test]
    fn partitions_parse_and_reject_bad_input() {
        let g4 = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
        let p = Partition::parse("pdb:7-8", &g4).unwrap();
        assert_eq!(p.groups[1], vec![8, 9, 10, 11, 12, 13, 14, 15]);
        assert_eq!(
            Partition::parse("1,2,3/4", &g4).unwrap().groups,
            vec![vec![1, 2, 3], vec![4]]
        );
        let err = |t: &str, g: &Board| Partition::parse(t, g).unwrap_err().to_string();
        assert!(err("1,2,x", &g4).contains("\"x\""));
        assert!(err("1,2/2,3", &g4).contains("two groups"));
        assert!(err("1,16", &g4).contains("tile 16"));
        assert!(err("1,2//3", &g4).contains("empty group"));
        assert!(err("6-6-6-6", &g4).contains("5x5"));
        assert!(err("1,2,3,4,5,6,7,8,9,10", &g4).contains("limit"));
        for name in PARTITION_NAMES {
            let side = if *name == "6-6-6-6" { 5 } else { 4 };
            let g = Board::default_goal(Shape::new(side, side).unwrap(), 1);
            let p = Partition::parse(name, &g).unwrap();
            let tiles: usize = p.groups.iter().map(Vec::len).sum();
            assert_eq!(tiles, g.len() - 1, "{name} covers the board");
        }
    }

    #[test]
    fn the_cache_round_trips_and_rebuilds_bad_files() {
        let dir = tempfile::tempdir().unwrap();
        let goal = goal3();
        let tiles = [1u8, 2, 3, 4];
        let (t, o) = load_or_build(dir.path(), &goal, &tiles, &|_, _| {}).unwrap();
        assert_eq!(o, Origin::Built);
        let (u, o) = load_or_build(dir.path(), &goal, &tiles, &|_, _| {}).unwrap();
        assert_eq!(o, Origin::Loaded);
        assert_eq!((t.data.clone(), t.histogram.clone()), (u.data, u.histogram));
        let path = cache_file(dir.path(), &goal, &tiles);
        // A flipped payload byte: the checksum fails, the table is rebuilt.
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x10;
        std::fs::write(&path, &bytes).unwrap();
        assert!(
            load(&path, &goal, &tiles)
                .unwrap_err()
                .to_string()
                .contains("checksum")
        );
        let (_, o) = load_or_build(dir.path(), &goal, &tiles, &|_, _| {}).unwrap();
        assert_eq!(o, Origin::Built);
        assert!(load(&path, &goal, &tiles).is_ok());
        // Truncated, another version, another goal: never used.
        std::fs::write(&path, &bytes[..100]).unwrap();
        assert!(
            load(&path, &goal, &tiles)
                .unwrap_err()
                .to_string()
                .contains("truncated")
        );
        let mut stale = std::fs::read(&path).unwrap();
        stale[8] = 99;
        std::fs::write(&path, &stale).unwrap();
        assert!(
            load(&path, &goal, &tiles)
                .unwrap_err()
                .to_string()
                .contains("version")
        );
        let other = Board::parse("0 1 2 3 4 5 6 7 8", None, None, "g").unwrap();
        save(&path, &other, &build(&other, &tiles, &|_, _| {})).unwrap();
        assert!(
            load(&path, &goal, &tiles)
                .unwrap_err()
                .to_string()
                .contains("goal")
        );
        let (_, o) = load_or_build(dir.path(), &goal, &tiles, &|_, _| {}).unwrap();
        assert_eq!(o, Origin::Built);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporaries"
        );
    }
}
