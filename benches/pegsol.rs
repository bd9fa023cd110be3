//! Benchmarks of the peg-solitaire searches: the assignment's DFS (expansions per second, the
//! issue's 5 million bar, timed in the search thread's CPU time like its STATS block),
//! the count of reachable positions, and the strong solver (wall time).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use searchlab::pegsol::{budgeted_dfs, count, levels, solver};

fn seed_dfs(c: &mut Criterion) {
    let mut g = c.benchmark_group("pegsol_seed_dfs");
    g.sample_size(10);
    for (level, budget) in [(5, 1_200_000u64), (6, 1_000_000)] {
        let p = levels::level(level).unwrap();
        // Expansions are fixed for a level and budget: report them as elements/s.
        let expanded = budgeted_dfs::solve(&p.shape, p.start, budget).expanded;
        g.throughput(Throughput::Elements(expanded));
        // Timed like the STATS block: the search's own CPU time (the machine is shared).
        g.bench_function(format!("level{level}_budget{budget}"), |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| budgeted_dfs::solve(&p.shape, p.start, budget).elapsed)
                    .sum()
            })
        });
    }
    g.finish();
}

fn count_positions(c: &mut Criterion) {
    let mut g = c.benchmark_group("pegsol_count");
    g.sample_size(10);
    let p = levels::level(4).unwrap();
    g.bench_function("level4_first_12_jumps", |b| {
        b.iter(|| {
            let limits = count::Limits {
                jumps: Some(12),
                ..count::Limits::default()
            };
            count::count(&p.shape, p.start, limits)
                .collect::<anyhow::Result<Vec<_>>>()
                .map(|rows| rows.len())
                .unwrap_or(0)
        })
    });
    g.finish();
}

fn strong(c: &mut Criterion) {
    let mut g = c.benchmark_group("pegsol_strong");
    g.sample_size(10);
    for level in [4, 6] {
        let p = levels::level(level).unwrap();
        g.bench_function(format!("level{level}"), |b| {
            b.iter(|| solver::solve(&p.shape, p.start, &Default::default()))
        });
    }
    g.finish();
}

criterion_group!(benches, seed_dfs, count_positions, strong);
criterion_main!(benches);
