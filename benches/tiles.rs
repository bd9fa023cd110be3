//! Nodes per second of the fast IDA* with each heuristic, on Korf's instance 9
//! (1.65 million nodes with Manhattan distance) and instance 2 for Manhattan (15.3
//! million), and of the pattern-database IDA* (5-5-5 and 6-6-3 built here, in a few
//! seconds; 7-8 when its tables are in the default cache `outputs/pdb`, e.g. after
//! `searchlab tiles pdb build --partition 7-8`) on instances 1, 3 and 17, serial and
//! parallel, and 5-5-5 on the long instances 60 and 88 (87 and 33 million nodes), where
//! the parallel search's speed-up shows; each serial search also with the finite-state
//! machine's duplicate pruning (`…/fsm`), and, when their tables are cached, the
//! 24-puzzle's instances 38 and 40 both ways with 6-6-6-6 and with the maximum over four
//! and over seven partitions (6-6-6-6x4, 6-6-6-6x7). Criterion's throughput is in nodes
//! generated, so its "elem/s" figure is generated nodes per second. `pdb_lookups` times
//! the heuristic alone, computed from scratch (lookups per second). Run:
//! `cargo bench --bench tiles`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use searchlab::tiles::board::{Board, MoveOrder};
use searchlab::tiles::deepen::Control;
use searchlab::tiles::fsm::{DEFAULT_DEPTH, Fsm};
use searchlab::tiles::heuristic::Heuristic;
use searchlab::tiles::instances::InstanceSet;
use searchlab::tiles::pdb::{self, PdbHeuristic};
use searchlab::tiles::{ida, pdb_ida};
use std::hint::black_box;
use std::path::Path;

fn nodes_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("tiles_ida");
    group.sample_size(10);
    for (id, heuristics) in [(2, &[Heuristic::Manhattan][..]), (9, &Heuristic::ALL[..])] {
        let inst = InstanceSet::Korf100
            .instance(id)
            .expect("embedded instance");
        let goal = Board::default_goal(inst.board.shape(), 1);
        for &h in heuristics {
            let nodes = ida::solve(&inst.board, &goal, h, MoveOrder::KORF, None).generated;
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(format!("korf{id}/{h}"), |b| {
                b.iter(|| {
                    ida::solve(black_box(&inst.board), &goal, h, MoveOrder::KORF, None).generated
                })
            });
        }
    }
    group.finish();
}

/// The PDB heuristic `name` (`pdb:…`) of `set`'s board: built in memory, or loaded from
/// the default cache (`None` when `cached_only` and it is not there).
fn pdb_heuristic(set: InstanceSet, name: &str, cached_only: bool) -> Option<PdbHeuristic> {
    let goal = Board::default_goal(set.instances()[0].board.shape(), 1);
    let (name, parts) = pdb::parse_partitions(name, &goal).expect("a built-in partition");
    let dir = Path::new(pdb::DEFAULT_CACHE_DIR);
    let mut tables = Vec::new();
    for g in &pdb::distinct_groups(&parts) {
        let file = pdb::cache_file(dir, &goal, g);
        match pdb::load(&file, &goal, g) {
            Ok(t) => tables.push(t),
            Err(_) if cached_only => return None,
            Err(_) => tables.push(pdb::build(&goal, g, &searchlab::util::observe::Quiet)),
        }
    }
    Some(PdbHeuristic::max_of(&goal, name, &parts, tables, true))
}

/// The serial search of `board` with the finite-state machine's pruning, as `{name}/fsm`
/// (its throughput its own generated nodes; the machine built before the timing).
fn bench_fsm(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    board: &Board,
    h: &PdbHeuristic,
) {
    let fsm = Fsm::build(board.shape(), DEFAULT_DEPTH);
    let order = MoveOrder::KORF;
    let solve = || pdb_ida::solve_with(black_box(board), h, order, Some(&fsm), Control::default());
    group.throughput(Throughput::Elements(solve().generated));
    group.bench_function(format!("{name}/fsm"), |b| b.iter(|| solve().generated));
}

fn pdb_nodes_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("tiles_pdb_ida");
    group.sample_size(10);
    for (name, cached_only, ids) in [
        ("pdb:5-5-5", false, &[1u32, 17, 60, 88][..]),
        ("pdb:6-6-3", false, &[1, 3, 17][..]),
        ("pdb:7-8", true, &[1, 3, 17][..]),
    ] {
        let Some(h) = pdb_heuristic(InstanceSet::Korf100, name, cached_only) else {
            eprintln!(
                "tiles_pdb_ida/{name}: no cached tables in {}, skipped",
                pdb::DEFAULT_CACHE_DIR
            );
            continue;
        };
        for &id in ids {
            let inst = InstanceSet::Korf100
                .instance(id)
                .expect("embedded instance");
            let nodes = pdb_ida::solve(&inst.board, &h, MoveOrder::KORF, None).generated;
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(format!("korf{id}/{name}"), |b| {
                b.iter(|| {
                    pdb_ida::solve(black_box(&inst.board), &h, MoveOrder::KORF, None).generated
                })
            });
            group.bench_function(format!("korf{id}/{name}/parallel"), |b| {
                b.iter(|| {
                    pdb_ida::solve_parallel(black_box(&inst.board), &h, MoveOrder::KORF).generated
                })
            });
            bench_fsm(&mut group, &format!("korf{id}/{name}"), &inst.board, &h);
        }
    }
    group.finish();
    // The 24-puzzle: two of Korf & Felner's easiest instances, with each heuristic whose
    // tables are in the default cache (`searchlab tiles pdb build --partition 6-6-6-6x7`
    // builds all three's).
    let mut group = c.benchmark_group("tiles_pdb_ida_24");
    group.sample_size(10);
    for name in ["pdb:6-6-6-6", "pdb:6-6-6-6x4", "pdb:6-6-6-6x7"] {
        let Some(h) = pdb_heuristic(InstanceSet::Korf24, name, true) else {
            eprintln!("tiles_pdb_ida_24: no cached {name} tables, skipped");
            continue;
        };
        for id in [38u32, 40] {
            let inst = InstanceSet::Korf24.instance(id).expect("embedded instance");
            let nodes = pdb_ida::solve(&inst.board, &h, MoveOrder::KORF, None).generated;
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(format!("korf24-{id}/{name}"), |b| {
                b.iter(|| {
                    pdb_ida::solve(black_box(&inst.board), &h, MoveOrder::KORF, None).generated
                })
            });
            bench_fsm(&mut group, &format!("korf24-{id}/{name}"), &inst.board, &h);
        }
    }
    group.finish();
    let mut group = c.benchmark_group("tiles_pdb_lookups");
    let boards: Vec<Board> = InstanceSet::Korf100
        .instances()
        .iter()
        .map(|i| i.board)
        .collect();
    group.throughput(Throughput::Elements(boards.len() as u64));
    for name in ["pdb:5-5-5", "pdb:6-6-3"] {
        let h = pdb_heuristic(InstanceSet::Korf100, name, false).expect("built");
        group.bench_function(name, |b| {
            b.iter(|| {
                boards
                    .iter()
                    .map(|s| h.evaluate(black_box(&s.cells)))
                    .sum::<u32>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, nodes_per_second, pdb_nodes_per_second);
criterion_main!(benches);
