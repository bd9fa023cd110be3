//! Rook Jumping Maze speed: annealing iterations per second (one core) for each size and
//! for each temperature schedule, and the objective evaluation alone. Run:
//! `cargo bench --bench rjm`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use searchlab::local_search::{Acceptance, Schedule, Settings, Unit};
use searchlab::rjm::landscape::optimize;
use searchlab::rjm::{Evaluator, Maze};
use searchlab::util::rng::rng_from_seed;
use std::hint::black_box;

const ITERATIONS: u64 = 100_000;

fn anneal(c: &mut Criterion) {
    let mut group = c.benchmark_group("rjm_anneal");
    group.throughput(Throughput::Elements(ITERATIONS));
    group.sample_size(20);
    for size in [5usize, 7, 10] {
        let settings = Settings {
            acceptance: Acceptance::Anneal(Schedule::Geometric {
                t0: 1.0,
                decay: 0.9999,
            }),
            sideways_cap: None,
            budget: ITERATIONS,
            unit: Unit::Iterations,
            descents: 1,
            checkpoints: Vec::new(),
        };
        let mut seed = 0;
        group.bench_function(format!("{size}x{size}"), |b| {
            b.iter(|| {
                seed += 1;
                let mut rng = rng_from_seed(seed);
                let start = Maze::random(size, &mut rng);
                black_box(optimize(&start, &settings, &mut rng).best_energy)
            })
        });
    }
    group.finish();
}

fn schedules(c: &mut Criterion) {
    let mut group = c.benchmark_group("rjm_schedule_5x5");
    group.throughput(Throughput::Elements(ITERATIONS));
    group.sample_size(20);
    for schedule in [
        Schedule::Geometric {
            t0: 1.0,
            decay: 0.9999,
        },
        Schedule::Constant { t0: 0.5 },
        Schedule::GeometricEnd {
            t0: 3.0,
            t_end: 0.2,
        },
        Schedule::LinearEnd {
            t0: 3.0,
            t_end: 0.2,
        },
        Schedule::Logarithmic { t0: 2.0 },
        Schedule::Adaptive {
            t0: 1.0,
            target: 0.05,
        },
    ] {
        let name = schedule.name();
        let settings = Settings {
            acceptance: Acceptance::Anneal(schedule),
            sideways_cap: None,
            budget: ITERATIONS,
            unit: Unit::Iterations,
            descents: 1,
            checkpoints: Vec::new(),
        };
        let mut seed = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let mut rng = rng_from_seed(seed);
                let start = Maze::random(5, &mut rng);
                black_box(optimize(&start, &settings, &mut rng).best_energy)
            })
        });
    }
    group.finish();
}

fn evaluate(c: &mut Criterion) {
    let mut group = c.benchmark_group("rjm_objective");
    group.throughput(Throughput::Elements(1));
    let maze = Maze::random(5, &mut rng_from_seed(1));
    let ev = Evaluator::<u32>::new(&maze);
    group.bench_function("5x5", |b| b.iter(|| black_box(&ev).objective()));
    let maze = Maze::random(10, &mut rng_from_seed(1));
    let ev = Evaluator::<u128>::new(&maze);
    group.bench_function("10x10", |b| b.iter(|| black_box(&ev).objective()));
    group.finish();
}

criterion_group!(benches, anneal, schedules, evaluate);
criterion_main!(benches);
