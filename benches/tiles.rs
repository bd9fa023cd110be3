//! Nodes per second of the fast IDA* with each heuristic, on Korf's instance 9
//! (1.65 million nodes with Manhattan distance) and instance 2 for Manhattan (15.3
//! million). Criterion's throughput is in nodes generated, so its "elem/s" figure is
//! generated nodes per second. Run: `cargo bench --bench tiles`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use searchlab::tiles::board::{Board, MoveOrder};
use searchlab::tiles::heuristic::Heuristic;
use searchlab::tiles::ida;
use searchlab::tiles::instances::InstanceSet;
use std::hint::black_box;

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

criterion_group!(benches, nodes_per_second);
criterion_main!(benches);
