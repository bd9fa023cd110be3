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
//! Zen 3, which microcode them and run them far slower; the tables are the same either
//! way. The 8-tile pattern of the 7-8 partition has 518,918,400 placements: 1 GB of
//! words plus 259 MB of table while it is built.
//!
//! **Cache.** Tables are saved in a cache folder ([`DEFAULT_CACHE_DIR`] unless the caller
//! gives another), one file per pattern, named after the board, goal and tiles. A file is
//! a header (magic, [`FORMAT_VERSION`], board shape, goal, tiles, encoding, entry count,
//! value histogram, build seconds, a 64-bit FNV-1a checksum of the payload) and the packed
//! values; it is written atomically ([`crate::util::atomic`]). A file whose header does not
//! match the request or whose checksum fails is rebuilt with a warning on stderr.
//!
//! **Files.** `partition.rs` holds the partitions; `rank.rs` the perfect ranking of placements
//! and its bit tricks, `grid.rs` the board's cell masks, `build.rs` the breadth-first
//! construction, `table.rs` the packed values, `spread.rs` their copies indexed by cells
//! for the search, `store.rs` the disk format and the cache of single tables,
//! `heuristic.rs` the lookups with the reflection, `load.rs` a partition's heuristic from
//! the cache and its sharing between runs, `names.rs` the heuristic names (`pdb:7-8`) the
//! pipeline accepts; their public items are re-exported here.

mod build;
mod grid;
mod heuristic;
mod load;
mod names;
mod partition;
mod rank;
mod spread;
mod store;
mod table;

pub use build::build;
pub use heuristic::{Part, PdbHeuristic, Reflection, distinct_groups};
pub use load::{load_heuristic, shared};
pub use names::{check_ida_heuristic, heuristic_names, heuristic_partition, split_heuristics};
pub use partition::{
    CATALOGUES, MAX_ENTRIES, MAX_PARTS, PARTITION_NAMES, Partition, named_side, parse_partitions,
    parse_partitions_text, strip_prefix,
};
pub use rank::Pattern;
pub use spread::{CellIndex, Entries, MAX_SPREAD_ENTRIES, Spread};
pub use store::{
    DEFAULT_CACHE_DIR, FORMAT_VERSION, Origin, cache_file, check_cache, histogram_text, load,
    load_or_build, save,
};
pub use table::{Encoding, Table};

#[cfg(test)]
pub(crate) mod tests {
    use super::super::board::{MAX_CELLS, Shape};
    use super::super::census;
    use super::*;
    use crate::tiles::board::Board;

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
            .map(|g| build(goal, g, &crate::util::observe::Quiet))
            .collect();
        PdbHeuristic::max_of(goal, name, &parts, tables, reflect)
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
        let (t, o) =
            load_or_build(dir.path(), &goal, &tiles, &crate::util::observe::Quiet).unwrap();
        assert_eq!(o, Origin::Built);
        let (u, o) =
            load_or_build(dir.path(), &goal, &tiles, &crate::util::observe::Quiet).unwrap();
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
        let (_, o) =
            load_or_build(dir.path(), &goal, &tiles, &crate::util::observe::Quiet).unwrap();
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
        save(
            &path,
            &other,
            &build(&other, &tiles, &crate::util::observe::Quiet),
        )
        .unwrap();
        assert!(
            load(&path, &goal, &tiles)
                .unwrap_err()
                .to_string()
                .contains("goal")
        );
        let (_, o) =
            load_or_build(dir.path(), &goal, &tiles, &crate::util::observe::Quiet).unwrap();
        assert_eq!(o, Origin::Built);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporaries"
        );
    }
}
