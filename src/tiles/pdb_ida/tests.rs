use super::super::board::Dir;
use super::super::board::Shape;
use super::super::deepen::Checkpoint;
use super::super::heuristic::Heuristic;
use super::super::ida;
use super::super::instances::InstanceSet;
use super::super::pdb::tests::heuristic;
use super::super::tests::random_walk;
use super::*;
use crate::util::rng::rng_from_seed;
use rand::RngExt;
use std::time::Instant;

fn replay(start: &Board, moves: &[Dir]) -> Vec<Board> {
    let mut b = *start;
    let mut states = vec![b];
    for d in moves {
        let p = b.blank();
        let q = b.shape().neighbour(p, *d).unwrap();
        b.cells.swap(p, q);
        states.push(b);
    }
    states
}

/// The serial search of `start` with `options`, checked to reach `h`'s goal in exactly
/// `optimal` moves.
fn solve_optimally(start: &Board, h: &PdbHeuristic, options: Options, optimal: usize) -> IdaResult {
    let r = solve_with(start, h, MoveOrder::KORF, options, Control::default());
    assert_eq!(r.solution_length(), Some(optimal), "{}", start.list());
    assert_eq!(
        replay(start, r.moves.as_ref().unwrap()).last(),
        Some(&h.goal)
    );
    r
}

/// Checks that the parallel search of `start` counts and moves as the serial `r`.
fn assert_parallel_as_serial(start: &Board, h: &PdbHeuristic, options: Options, r: &IdaResult) {
    let p = solve_parallel_with(start, h, MoveOrder::KORF, options, Control::default());
    assert_eq!(
        (p.generated, p.expanded, &p.moves),
        (r.generated, r.expanded, &r.moves),
        "{}",
        start.list()
    );
}

#[test]
fn pdb_ida_is_optimal_and_admissible_on_random_4x4_states() {
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let plain = heuristic(&goal, "5-5-5", false);
    let mut refl = plain.clone();
    refl.reflection = super::super::pdb::Reflection::of(&goal);
    for seed in 0..10 {
        let start = random_walk(&goal, 70, seed);
        let optimal = ida::solve(&start, &goal, Heuristic::Linear, MoveOrder::KORF, None);
        let len = optimal.solution_length().unwrap();
        for h in [&plain, &refl] {
            let r = solve(&start, h, MoveOrder::KORF, None);
            let moves = r.moves.expect("solved");
            assert_eq!(moves.len(), len, "seed {seed}");
            let states = replay(&start, &moves);
            assert_eq!(states.last(), Some(&goal));
            // Along an optimal path every state's h is at most its distance.
            for (i, s) in states.iter().enumerate() {
                assert!(h.evaluate(&s.cells) as usize <= len - i, "seed {seed}");
            }
            assert_eq!(r.h0, h.evaluate(&start.cells));
            assert!(
                r.generated < optimal.generated,
                "seed {seed}: PDBs prune more"
            );
        }
        let rp = solve(&start, &plain, MoveOrder::KORF, None);
        let rr = solve(&start, &refl, MoveOrder::KORF, None);
        assert!(
            rr.generated <= rp.generated,
            "seed {seed}: reflection never hurts here"
        );
    }
}

#[test]
fn a_small_4x4_partition_is_admissible_on_random_states() {
    // Four-tile groups (16!/12! = 43,680 placements each): random walks of 40 moves,
    // their optimal lengths by IDA* with Manhattan distance; the PDB value (with the
    // reflection) never exceeds the distance of any state on an optimal path, and the
    // PDB IDA* finds a solution of the optimal length with fewer nodes.
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let h = heuristic(&goal, "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15", true);
    assert!(h.reflection.is_some());
    assert_eq!(h.tables[0].pattern.entries(), 43_680);
    let md = super::super::heuristic::Tables::new(&goal);
    for seed in 100..106 {
        let start = random_walk(&goal, 40, seed);
        let exact = ida::solve(&start, &goal, Heuristic::Manhattan, MoveOrder::KORF, None);
        let len = exact.solution_length().unwrap();
        let states = replay(&start, exact.moves.as_ref().unwrap());
        for (i, s) in states.iter().enumerate() {
            let v = h.evaluate(&s.cells);
            assert!(v as usize <= len - i, "seed {seed}: h {v} > {}", len - i);
            assert!(v >= md.manhattan(&s.cells), "seed {seed}");
            assert_eq!(v % 2, md.manhattan(&s.cells) % 2, "parity, seed {seed}");
        }
        let r = solve(&start, &h, MoveOrder::KORF, None);
        assert_eq!(r.solution_length(), Some(len), "seed {seed}");
        assert!(r.generated <= exact.generated, "seed {seed}");
    }
}

#[test]
fn pdb_ida_with_one_tile_patterns_is_the_manhattan_ida_node_for_node() {
    // Patterns of one tile hold exactly Manhattan distance: same tree, same counts.
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let singles: Vec<String> = (1..16).map(|t| t.to_string()).collect();
    let h = heuristic(&goal, &singles.join("/"), false);
    for id in [9u32, 12, 42] {
        let inst = InstanceSet::Korf100.instance(id).unwrap();
        let m = ida::solve(
            &inst.board,
            &goal,
            Heuristic::Manhattan,
            MoveOrder::KORF,
            None,
        );
        let p = solve(&inst.board, &h, MoveOrder::KORF, None);
        assert_eq!(
            (
                p.generated,
                p.expanded,
                &p.thresholds,
                &p.moves,
                p.max_depth
            ),
            (
                m.generated,
                m.expanded,
                &m.thresholds,
                &m.moves,
                m.max_depth
            ),
            "instance {id}"
        );
        for limit in [1, 1000, m.expanded / 2] {
            let a = ida::solve(
                &inst.board,
                &goal,
                Heuristic::Manhattan,
                MoveOrder::KORF,
                Some(limit),
            );
            let b = solve(&inst.board, &h, MoveOrder::KORF, Some(limit));
            assert_eq!(
                (a.generated, a.expanded, a.limit_reached),
                (b.generated, b.expanded, b.limit_reached)
            );
        }
    }
}

#[test]
fn parallel_search_counts_as_the_serial_one_whatever_the_threads() {
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let h = heuristic(&goal, "5-5-5", true);
    let ordered = Options {
        order_depth: 12,
        ..Options::default()
    };
    let pruned_and_ordered = Options {
        pruning: Pruning::Fsm,
        ..ordered
    };
    let dual_bpmx = Options {
        pruning: Pruning::Fsm,
        dual: true,
        bpmx: true,
        ..Options::default()
    };
    for options in [Options::default(), ordered, pruned_and_ordered, dual_bpmx] {
        for id in [1u32, 9, 12, 17] {
            let inst = InstanceSet::Korf100.instance(id).unwrap();
            // The serial search or the parallel one, with the same arguments.
            let search =
                |solve: fn(&Board, &PdbHeuristic, MoveOrder, Options, Control) -> IdaResult| {
                    solve(
                        &inst.board,
                        &h,
                        MoveOrder::KORF,
                        options,
                        Control::default(),
                    )
                };
            let serial = search(solve_with);
            assert_eq!(
                serial.solution_length(),
                Some(inst.optimal as usize),
                "instance {id}"
            );
            for threads in [1, 2, 3] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let par = pool.install(|| search(solve_parallel_with));
                assert_eq!(
                    (
                        par.generated,
                        par.expanded,
                        &par.thresholds,
                        &par.moves,
                        par.max_depth
                    ),
                    (
                        serial.generated,
                        serial.expanded,
                        &serial.thresholds,
                        &serial.moves,
                        serial.max_depth
                    ),
                    "instance {id}, {threads} threads, {options:?}"
                );
            }
        }
    }
    // Small boards and a start at the goal.
    let g3 = Board::default_goal(Shape::new(3, 3).unwrap(), 1);
    let h3 = heuristic(&g3, "1,2,3,4/5,6,7,8", true);
    let r = solve_parallel(&g3, &h3, MoveOrder::KORF);
    assert_eq!((r.solution_length(), r.generated), (Some(0), 1));
    for depth in [1usize, 5, 20, 31] {
        let start = super::super::census::eight_puzzle_at(depth, 7).unwrap();
        let s = solve(&start, &h3, MoveOrder::default(), None);
        let p = solve_parallel(&start, &h3, MoveOrder::default());
        assert_eq!(s.solution_length(), Some(depth));
        assert_eq!(
            (p.generated, p.expanded, &p.moves),
            (s.generated, s.expanded, &s.moves)
        );
    }
}

#[test]
fn parallel_search_stops_at_the_serial_searchs_node_and_resumes_as_it() {
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let h = heuristic(&goal, "5-5-5", true);
    let start = InstanceSet::Korf100.instance(12).unwrap().board;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for pruning in [Pruning::Parent, Pruning::Fsm] {
        let options = Options {
            pruning,
            ..Options::default()
        };
        let serial = |limit| {
            solve_with(
                &start,
                &h,
                MoveOrder::KORF,
                options,
                Control::limited(limit),
            )
        };
        let parallel = |expand_limit, resume| {
            let control = || Control {
                expand_limit,
                resume,
                ..Control::default()
            };
            pool.install(|| solve_parallel_with(&start, &h, MoveOrder::KORF, options, control()))
        };
        // The iterations' last counts, where an off-by-one would show.
        let mut checkpoints = Vec::new();
        let mut keep = |c: &super::super::deepen::Checkpoint| checkpoints.push(c.clone());
        let full = solve_with(
            &start,
            &h,
            MoveOrder::KORF,
            options,
            Control {
                on_iteration: Some(&mut keep),
                ..Control::default()
            },
        );
        let mut limits: Vec<u64> = vec![0, 1, 2, full.expanded - 1, full.expanded];
        for c in &checkpoints {
            limits.extend([c.expanded - 1, c.expanded, c.expanded + 1]);
        }
        let mut rng = rng_from_seed(3);
        // Most fall in the last iterations, where the subtrees searched in full are kept
        // and the others searched again up to the limit.
        limits.extend((0..40).map(|_| rng.random_range(1..full.expanded)));
        for limit in limits {
            let (s, p) = (serial(Some(limit)), parallel(Some(limit), None));
            assert_eq!(
                (
                    p.generated,
                    p.expanded,
                    p.max_depth,
                    p.limit_reached,
                    &p.thresholds,
                    &p.moves
                ),
                (
                    s.generated,
                    s.expanded,
                    s.max_depth,
                    s.limit_reached,
                    &s.thresholds,
                    &s.moves
                ),
                "{pruning:?}, limit {limit}"
            );
            assert_eq!(s.limit_reached, limit < full.expanded, "limit {limit}");
        }
        for c in checkpoints {
            let p = parallel(None, Some(c));
            assert_eq!(
                (p.generated, p.expanded, &p.thresholds, &p.moves),
                (full.generated, full.expanded, &full.thresholds, &full.moves)
            );
        }
    }
}

#[test]
fn a_stop_request_ends_the_search_within_a_poll_and_it_resumes_as_if_never_stopped() {
    // Korf's instance 1 with Manhattan distance, the stop asked for when the first
    // iteration of a million expansions is complete: the next one is several times
    // larger, so the stop comes in its middle.
    use super::super::deepen::POLL_EVERY;
    use crate::util::cancel::Cancel;
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let h = PdbHeuristic::manhattan(&goal);
    let start = InstanceSet::Korf100.instance(1).unwrap().board;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let options = Options {
        pruning: Pruning::Fsm,
        ..Options::default()
    };
    // Each search: the stop request, and the checkpoint at which it was set.
    let stopped = |search: &dyn Fn(Control) -> IdaResult| {
        let (stop, mut at) = (Cancel::default(), None);
        let mut watch = |c: &Checkpoint| {
            if c.expanded >= POLL_EVERY && at.is_none() {
                stop.cancel();
                at = Some(c.clone());
            }
        };
        let r = search(Control {
            stop: Some(&stop),
            on_iteration: Some(&mut watch),
            ..Control::default()
        });
        let at = at.expect("an iteration of a million expansions");
        assert!(r.interrupted && !r.limit_reached && r.moves.is_none());
        assert_eq!(r.thresholds.len(), at.thresholds.len() + 1);
        (r, at)
    };
    // Serially, it stops within one poll of the next iteration.
    let serial = |c: Control| solve_with(&start, &h, MoveOrder::KORF, options, c);
    let (r, at) = stopped(&serial);
    assert!(r.expanded > at.expanded && r.expanded <= at.expanded + POLL_EVERY);
    // The Manhattan-only search too.
    let manhattan =
        |c: Control| ida::solve_with(&start, &goal, Heuristic::Manhattan, MoveOrder::KORF, c);
    let (m, m_at) = stopped(&manhattan);
    assert!(m.expanded > m_at.expanded && m.expanded <= m_at.expanded + POLL_EVERY);
    // In parallel, between subtrees or at a poll, adding nothing of the iteration.
    let parallel = |c: Control| solve_parallel_with(&start, &h, MoveOrder::KORF, options, c);
    let (p, p_at) = pool.install(|| stopped(&parallel));
    assert_eq!((p.generated, p.expanded), (p_at.generated, p_at.expanded));
    // Resumed from the checkpoint, it ends as a search never stopped.
    let full = serial(Control::default());
    let resumed = serial(Control {
        resume: Some(at),
        ..Control::default()
    });
    assert_eq!(resumed.solution_length(), Some(57));
    assert_eq!(
        (resumed.generated, resumed.expanded, &resumed.thresholds),
        (full.generated, full.expanded, &full.thresholds)
    );
}

#[test]
fn the_machine_is_optimal_on_8_puzzle_states_of_every_distance() {
    // The 8-puzzle's states by exact distance (breadth-first census), a sample of
    // every distance: IDA* with the machine finds a solution of exactly the distance,
    // serial and parallel alike, with fewer nodes in all than with parent pruning (not
    // always on one state: the machine may prune the solution parent pruning finds
    // first in the last iteration, and search on to another).
    let shape = Shape::new(3, 3).unwrap();
    let goal = Board::default_goal(shape, 1);
    let h = heuristic(&goal, "1,2,3,4/5,6,7,8", false);
    let fsm = Options {
        pruning: Pruning::Fsm,
        ..Options::default()
    };
    let layers = super::super::census::eight_puzzle_layers();
    let (mut plain_total, mut fsm_total) = (0, 0);
    for (d, layer) in layers.iter().enumerate() {
        for code in layer.iter().step_by(499) {
            let b = super::super::census::unpack(*code, shape);
            let plain = solve(&b, &h, MoveOrder::KORF, None);
            let r = solve_optimally(&b, &h, fsm, d);
            assert_eq!(r.h0, plain.h0);
            assert_parallel_as_serial(&b, &h, fsm, &r);
            plain_total += plain.generated;
            fsm_total += r.generated;
        }
    }
    // Measured: 80,580 of 90,198 (short searches: the last iteration is most of them).
    assert!(
        fsm_total * 100 < plain_total * 92,
        "{fsm_total} of {plain_total}"
    );
}

#[test]
fn the_machines_depth_is_checked() {
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    for (depth, ok) in [(1, false), (2, true), (18, true), (19, false)] {
        let options = Options {
            pruning: Pruning::Fsm,
            fsm_depth: depth,
            ..Options::default()
        };
        assert_eq!(check_options(&goal, None, &options).is_ok(), ok, "{depth}");
    }
}

#[test]
fn the_machine_solves_korfs_instances_optimally_with_fewer_nodes() {
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let h = heuristic(&goal, "5-5-5", true);
    let fsm = Options {
        pruning: Pruning::Fsm,
        ..Options::default()
    };
    let (mut plain_total, mut fsm_total) = (0, 0);
    for id in [1u32, 3, 9, 12, 17, 42, 60, 88] {
        let inst = InstanceSet::Korf100.instance(id).unwrap();
        let plain = solve(&inst.board, &h, MoveOrder::KORF, None);
        let r = solve_optimally(&inst.board, &h, fsm, inst.optimal as usize);
        if id == 17 {
            assert_parallel_as_serial(&inst.board, &h, fsm, &r);
        }
        plain_total += plain.generated;
        fsm_total += r.generated;
    }
    assert!(
        fsm_total * 3 < plain_total * 2,
        "{fsm_total} of {plain_total}"
    );
}

#[test]
fn manhattan_with_the_machine_is_optimal_and_generates_fewer_nodes() {
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let h = PdbHeuristic::manhattan(&goal);
    for id in [9u32, 12, 42] {
        let inst = InstanceSet::Korf100.instance(id).unwrap();
        let plain = solve(&inst.board, &h, MoveOrder::KORF, None);
        let fsm = Options {
            pruning: Pruning::Fsm,
            ..Options::default()
        };
        let r = solve_with(&inst.board, &h, MoveOrder::KORF, fsm, Control::default());
        assert_eq!(r.solution_length(), Some(inst.optimal as usize));
        assert_eq!(r.h0, plain.h0);
        assert!(r.generated < plain.generated, "instance {id}");
    }
}

/// Every completed iteration's checkpoint of a search (thresholds and counts).
fn checkpoints(start: &Board, h: &PdbHeuristic, options: Options) -> (IdaResult, Vec<Checkpoint>) {
    let mut seen = Vec::new();
    let mut keep = |c: &Checkpoint| seen.push(c.clone());
    let control = Control {
        on_iteration: Some(&mut keep),
        ..Control::default()
    };
    let r = solve_with(start, h, MoveOrder::KORF, options, control);
    (r, seen)
}

#[test]
fn ordering_children_by_f_changes_only_the_last_iteration() {
    // The iterations before the last search the same tree in another order: the
    // same thresholds and counts. The last one stops elsewhere: on these seven,
    // measured, 34,867,589 nodes ordered against 33,445,976 (the order is no better
    // than Korf's fixed one, as on the 24-puzzle).
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let h = heuristic(&goal, "5-5-5", true);
    let (mut plain_last, mut ordered_last) = (0, 0);
    for id in [1u32, 9, 12, 17, 42, 60, 88] {
        let inst = InstanceSet::Korf100.instance(id).unwrap();
        let (plain, plain_seen) = checkpoints(&inst.board, &h, Options::default());
        for depth in [1, 10, 1000] {
            let options = Options {
                order_depth: depth,
                ..Options::default()
            };
            let (r, seen) = checkpoints(&inst.board, &h, options);
            assert_eq!(r.solution_length(), Some(inst.optimal as usize), "#{id}");
            assert_eq!(seen, plain_seen, "instance {id}, order depth {depth}");
            assert_eq!(r.thresholds, plain.thresholds);
            if depth == 1000 {
                let before = plain_seen.last().map_or(0, |c| c.generated);
                plain_last += plain.generated - before;
                ordered_last += r.generated - before;
            }
        }
    }
    assert_eq!((ordered_last, plain_last), (34_867_589, 33_445_976));
    // The 8-puzzle at every distance, with the machine's pruning: optimal.
    let g3 = Board::default_goal(Shape::new(3, 3).unwrap(), 1);
    let h3 = heuristic(&g3, "1,2,3,4/5,6,7,8", true);
    let options = Options {
        pruning: Pruning::Fsm,
        order_depth: 1000,
        ..Options::default()
    };
    for depth in 0..=31usize {
        let start = super::super::census::eight_puzzle_at(depth, 3).unwrap();
        let r = solve_with(
            &start,
            &h3,
            MoveOrder::default(),
            options,
            Control::default(),
        );
        assert_eq!(r.solution_length(), Some(depth), "distance {depth}");
    }
}

#[test]
fn the_maximum_over_partitions_is_optimal_with_fewer_nodes_in_any_order() {
    // Korf's 15-puzzles with 5-5-5 and a second 5-5-5 of other tiles: the published
    // lengths, fewer nodes than 5-5-5 alone with either pruning, the same counts
    // whichever partition comes first (the lookups skipped are those that cannot
    // matter), and the parallel search's counts are the serial one's. The searches
    // read the tables' spread copies; with the packed tables instead (one partition:
    // the search specialised for two orientations; two: the general one) the counts,
    // thresholds and solutions are the same.
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let other = "1,2,5,6,9/3,4,7,8,11/10,12,13,14,15";
    let one = heuristic(&goal, "5-5-5", true);
    let both = heuristic(&goal, &format!("5-5-5|{other}"), true);
    let swapped = heuristic(&goal, &format!("{other}|5-5-5"), true);
    assert_eq!(both.spreads().len(), both.tables.len());
    let packed = [&one, &both].map(|h| h.clone().without_spreads());
    assert!(packed.iter().all(|h| h.spreads().is_empty()));
    for pruning in [Pruning::Parent, Pruning::Fsm] {
        let options = Options {
            pruning,
            ..Options::default()
        };
        let (mut one_total, mut both_total) = (0, 0);
        for id in [1u32, 9, 12, 17, 42, 60] {
            let inst = InstanceSet::Korf100.instance(id).unwrap();
            let solve = |h| solve_optimally(&inst.board, h, options, inst.optimal as usize);
            let (a, b, c) = (solve(&one), solve(&both), solve(&swapped));
            for (spread, packed) in [(&a, solve(&packed[0])), (&b, solve(&packed[1]))] {
                assert_eq!(
                    (spread.generated, spread.expanded, &spread.moves),
                    (packed.generated, packed.expanded, &packed.moves),
                    "{pruning:?}, instance {id}"
                );
                assert_eq!(spread.thresholds_text(), packed.thresholds_text());
            }
            assert!(b.h0 >= a.h0);
            assert_eq!(
                (b.generated, b.expanded, &b.moves),
                (c.generated, c.expanded, &c.moves),
                "{id}"
            );
            if id == 17 {
                assert_parallel_as_serial(&inst.board, &both, options, &b);
            }
            one_total += a.generated;
            both_total += b.generated;
        }
        assert!(
            both_total * 4 < one_total * 3,
            "{pruning:?}: {both_total} of {one_total}"
        );
    }
}

#[test]
fn the_lean_search_counts_as_the_general_one() {
    // Korf's 15-puzzles with one to four partitions (1, 2, 4 and 8 orientations with
    // the reflection): the lean search (`lean.rs`) generates and expands the same
    // nodes through the same thresholds to the same solution as the general one,
    // with either pruning, and so does its parallel search with four partitions.
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let four =
        "5-5-5|1,2,5,6,9/3,4,7,8,11/10,12,13,14,15|6-6-3|1,4,8,12,13/2,3,5,6,7/9,10,11,14,15";
    let two = &four[..four.match_indices('|').nth(1).unwrap().0];
    for (partitions, reflect, orientations) in [
        ("5-5-5", false, 1),
        ("5-5-5", true, 2),
        (two, true, 4),
        (four, true, 8),
    ] {
        let h = heuristic(&goal, partitions, reflect);
        for pruning in [Pruning::Parent, Pruning::Fsm] {
            let options = Options {
                pruning,
                ..Options::default()
            };
            for id in [1u32, 17, 60] {
                let inst = InstanceSet::Korf100.instance(id).unwrap();
                let lean = solve_optimally(&inst.board, &h, options, inst.optimal as usize);
                let mut general = Search::new(&h, &inst.board, MoveOrder::KORF, options);
                assert!(general.lean_fits());
                assert_eq!(general.n_orient, orientations);
                general.lean = false;
                let general = deepen_serial(general, &inst.board, Control::default());
                assert_eq!(
                    (
                        lean.generated,
                        lean.expanded,
                        &lean.moves,
                        lean.thresholds_text()
                    ),
                    (
                        general.generated,
                        general.expanded,
                        &general.moves,
                        general.thresholds_text()
                    ),
                    "{partitions}, {pruning:?}, instance {id}"
                );
                if orientations == 8 && id == 17 {
                    assert_parallel_as_serial(&inst.board, &h, options, &general);
                }
            }
        }
    }
}

#[test]
fn values_carried_down_the_tree_are_the_fresh_ones() {
    // The top of a 15-puzzle search cut at depth 12: every frontier node's pattern
    // values, carried down move by move (one bit a zero-aware lookup), are those
    // computed afresh from its board (by walking downhill for zero-aware tables);
    // plain and zero-aware, with and without the reflection, and with the dual
    // lookups (whose patterns lacking the blank's item keep stale values outside the
    // sum, so only the sums are compared).
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let start = InstanceSet::Korf100.instance(1).unwrap().board;
    let zero = super::super::pdb::tests::zero_heuristic;
    for (h, dual) in [
        (zero(&goal, "5-5-5", true), false),
        (zero(&goal, "6-6-3", false), false),
        (heuristic(&goal, "5-5-5", true), false),
        (heuristic(&goal, "5-5-5|6-6-3", true), true),
        (heuristic(&goal, "5-5-5", true).without_spreads(), true),
    ] {
        let options = Options {
            pruning: Pruning::Fsm,
            dual,
            ..Options::default()
        };
        let mut s = Search::new(&h, &start, MoveOrder::KORF, options);
        (s.bound, s.split) = (s.h0() + 30, 12);
        let (blank, md, state) = (start.blank(), s.md(), s.start_state());
        s.run(blank, 0, md, state, s.first_orientation());
        let frontier = std::mem::take(&mut s.frontier);
        assert!(frontier.len() > 1000, "{}", frontier.len());
        for node in &frontier {
            let mut fresh = s.clone();
            fresh.cells = node.cells;
            fresh.reset_values();
            for (o, (a, b)) in fresh.pats.iter().zip(&node.pats).enumerate() {
                if s.orient[o].dual {
                    assert_eq!(a.sum, b.sum);
                    continue;
                }
                assert_eq!(
                    (a.val, a.rank, a.main, a.sum),
                    (b.val, b.rank, b.main, b.sum)
                );
                // The cells are carried where the lookups read them.
                if s.lookup != SPREAD {
                    assert_eq!((a.pos, a.taken), (b.pos, b.taken));
                }
            }
            // The orientation carried down to be looked up first has the largest sum.
            let sums = node.pats.iter().map(|p| p.sum);
            assert_eq!(Some(node.pats[node.first].sum), sums.max());
        }
    }
}

#[test]
fn zero_aware_tables_solve_optimally_with_fewer_nodes() {
    // Korf's 15-puzzles with 5-5-5, plain and zero-aware (the same tables' states,
    // unminimised over the blank's regions): the published lengths, h(s0) at least
    // the plain one, fewer nodes in all, the parallel search's counts the serial one's.
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let plain = heuristic(&goal, "5-5-5", true);
    let zero = super::super::pdb::tests::zero_heuristic(&goal, "5-5-5", true);
    let options = Options {
        pruning: Pruning::Fsm,
        ..Options::default()
    };
    let (mut plain_total, mut zero_total) = (0, 0);
    for id in [1u32, 9, 12, 17, 42, 60] {
        let inst = InstanceSet::Korf100.instance(id).unwrap();
        let a = solve_optimally(&inst.board, &plain, options, inst.optimal as usize);
        let b = solve_optimally(&inst.board, &zero, options, inst.optimal as usize);
        assert!(b.h0 >= a.h0);
        assert_eq!(b.h0, zero.evaluate(&inst.board.cells));
        if id == 17 {
            assert_parallel_as_serial(&inst.board, &zero, options, &b);
        }
        plain_total += a.generated;
        zero_total += b.generated;
    }
    assert!(
        zero_total * 10 < plain_total * 9,
        "{zero_total} of {plain_total}"
    );
}

/// The heuristic `name` towards `goal` from the default cache (built there when
/// missing), its tables described on stdout, for [`measure`].
fn measured_heuristic(name: &str, goal: &Board) -> PdbHeuristic {
    let (heuristic_name, p) = super::super::pdb::parse_partitions(name, goal).unwrap();
    let started = Instant::now();
    let (h, origins) = PdbHeuristic::load_or_build(
        goal,
        heuristic_name,
        p,
        std::path::Path::new(crate::tiles::pdb::DEFAULT_CACHE_DIR),
        super::super::pdb::TableKind::of(name),
        &|i, d, n| eprint!("\rpattern {i}: {d}/{n}   "),
    )
    .unwrap();
    eprintln!();
    println!(
        "{name}: {:?} in {:.2}s, {} bytes",
        origins,
        started.elapsed().as_secs_f64(),
        h.bytes()
    );
    for t in &h.tables {
        println!(
            "  tiles {:?}: {} entries, {} bytes, built in {:.2}s, max {}, mean {:.3}, {}",
            t.pattern.tiles,
            t.pattern.entries(),
            t.bytes(),
            t.build_seconds,
            t.max_value(),
            t.mean_value(),
            super::super::pdb::histogram_text(&t.histogram)
        );
    }
    for z in &h.zero {
        println!(
            "  tiles {:?}: zero-aware, {} bytes, built in {:.2}s, max {}, mean {:.3}, {}",
            z.pattern.tiles,
            z.bytes(),
            z.build_seconds,
            z.max_value(),
            z.mean_value(),
            super::super::pdb::histogram_text(&z.histogram)
        );
    }
    h
}

/// One search of [`measure`]: parallel with `PAR`, else serial, printing each
/// iteration's generated nodes with `ITERS`.
fn measured_solve(start: &Board, h: &PdbHeuristic, options: Options) -> IdaResult {
    if std::env::var("PAR").is_ok() {
        return solve_parallel_with(start, h, MoveOrder::KORF, options, Control::default());
    }
    let mut last = 0;
    let mut show = |c: &super::super::deepen::Checkpoint| {
        if std::env::var("ITERS").is_ok() {
            println!("    to {}: {} generated", c.next, c.generated - last);
        }
        last = c.generated;
    };
    let control = Control {
        on_iteration: Some(&mut show),
        ..Control::default()
    };
    solve_with(start, h, MoveOrder::KORF, options, control)
}

/// Measurements (not a check): `PDB=7-8 cargo test --release --lib pdb_ida::tests::measure -- --ignored --nocapture`;
/// `SET=korf24 PDB=6-6-6-6x7 FSM=1 IDS=38,40` for the 24-puzzle with the machine's
/// pruning (`FSM_DEPTH=16` its depth; the tables from the default cache); `ITERS=1` prints each iteration's
/// nodes, `PAR=1` searches in parallel, `PLAIN=1` drops the reflection, `PACKED=1`
/// searches the packed tables instead of their spread copies, `ORDER=20` orders the
/// children by f above depth 20.
#[test]
#[ignore]
fn measure() {
    let name = std::env::var("PDB").unwrap_or("5-5-5".into());
    let set = match std::env::var("SET").as_deref() {
        Ok("korf24") => InstanceSet::Korf24,
        _ => InstanceSet::Korf100,
    };
    let pruning = match std::env::var("FSM") {
        Ok(_) => Pruning::Fsm,
        Err(_) => Pruning::Parent,
    };
    let order_depth = std::env::var("ORDER").map_or(0, |d| d.parse().unwrap());
    let options = Options {
        pruning,
        fsm_depth: std::env::var("FSM_DEPTH")
            .map_or(super::super::fsm::DEFAULT_DEPTH, |d| d.parse().unwrap()),
        order_depth,
        dual: std::env::var("DUAL").is_ok(),
        bpmx: std::env::var("BPMX").is_ok(),
    };
    let goal = Board::default_goal(set.instances()[0].board.shape(), 1);
    let h = measured_heuristic(&name, &goal);
    if std::env::var("PACKED").is_err() {
        let started = Instant::now();
        h.spreads();
        println!("spread copies in {:.2}s", started.elapsed().as_secs_f64());
    }
    if std::env::var("BUILD_ONLY").is_ok() {
        return;
    }
    let reflect_only = std::env::var("PLAIN").is_ok();
    let mut h = h;
    if reflect_only {
        h.reflection = None;
    }
    if std::env::var("PACKED").is_ok() {
        h = h.without_spreads();
    }
    let ids: Vec<u32> = std::env::var("IDS")
        .map(|s| s.split(',').map(|x| x.parse().unwrap()).collect())
        .unwrap_or((1..=set.instances().len() as u32).collect());
    let started = Instant::now();
    let (mut nodes, mut h0) = (0u64, 0u64);
    for &id in &ids {
        let inst = set.instance(id).unwrap();
        let r = measured_solve(&inst.board, &h, options);
        assert_eq!(
            r.solution_length(),
            Some(inst.optimal as usize),
            "instance {id}"
        );
        nodes += r.generated;
        h0 += u64::from(r.h0);
        if ids.len() < 10 {
            println!(
                "  #{id}: {} generated, {} expanded, {:.3}s, {:.2} M/s",
                r.generated,
                r.expanded,
                r.seconds,
                r.generated as f64 / r.seconds / 1e6
            );
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{name}{}: {} instances, mean h0 {:.3}, nodes {} (mean {:.0}), {:.3}s, {:.0} nodes/s",
        if reflect_only { " (no reflection)" } else { "" },
        ids.len(),
        h0 as f64 / ids.len() as f64,
        nodes,
        nodes as f64 / ids.len() as f64,
        secs,
        nodes as f64 / secs
    );
}

/// Every state of the 3×3 puzzle with the blank first, by its exact distance.
fn distances(goal: &Board) -> std::collections::HashMap<Board, u32> {
    let mut dist = std::collections::HashMap::from([(*goal, 0)]);
    let mut layer = vec![*goal];
    let mut d = 0;
    while !layer.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for b in &layer {
            for (n, _, _) in b.successors(MoveOrder::KORF) {
                dist.entry(n).or_insert_with(|| {
                    next.push(n);
                    d
                });
            }
        }
        layer = next;
    }
    dist
}

#[test]
fn dual_lookups_are_admissible_on_every_state() {
    // All 181,440 states of the 3×3 puzzle with the blank first, against their exact
    // distances: the maximum with the dual lookups never overestimates and is higher
    // than the regular lookups' on thousands of states. Without leaving out the
    // patterns whose goal walls the blank's cell off, 65 states were overestimated
    // with the first partition (its tiles 1 and 3 wall off cell 0).
    let shape = Shape::new(3, 3).unwrap();
    let goal = Board::from_tiles(shape, &(0..9).collect::<Vec<u32>>(), "goal").unwrap();
    let dist = distances(&goal);
    assert_eq!(dist.len(), 181_440);
    let dual = Options {
        dual: true,
        ..Options::default()
    };
    for (partition, reflect, raised) in [
        ("1,2,3,4/5,6,7,8", false, 8762),
        ("1,2,5/3,4,6,7,8", true, 13_477),
    ] {
        let h = heuristic(&goal, partition, reflect);
        let (mut over, mut higher, mut exact) = (0, 0, 0);
        for (b, &d) in &dist {
            let plain = Search::new(&h, b, MoveOrder::KORF, Options::default()).h0();
            let with = Search::new(&h, b, MoveOrder::KORF, dual).h0();
            over += u32::from(with > d);
            higher += u32::from(with > plain);
            exact += u32::from(with == d);
            assert!(with >= plain);
        }
        assert_eq!((over, higher), (0, raised), "{partition}");
        assert!(exact > 20_000, "{partition}: {exact}");
    }
}

#[test]
fn dual_lookups_and_pathmax_solve_optimally_with_fewer_nodes() {
    // Korf's 15-puzzles 1-20 with 5-5-5 and the machine's pruning: the published
    // lengths with the dual lookups, with and without pathmax, and pathmax alone;
    // the dual lookups generate 1.65 times fewer nodes, pathmax 3% fewer again (it
    // cuts off a node's later children only).
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let h = heuristic(&goal, "5-5-5", true);
    let with = |dual, bpmx| Options {
        pruning: Pruning::Fsm,
        dual,
        bpmx,
        ..Options::default()
    };
    let mut totals = [0u64; 4];
    for id in 1..=20u32 {
        let inst = InstanceSet::Korf100.instance(id).unwrap();
        let options = [
            with(false, false),
            with(true, false),
            with(true, true),
            with(false, true),
        ];
        for (total, options) in totals.iter_mut().zip(options) {
            let r = solve_with(
                &inst.board,
                &h,
                MoveOrder::KORF,
                options,
                Control::default(),
            );
            assert_eq!(
                r.solution_length(),
                Some(inst.optimal as usize),
                "#{id} {options:?}"
            );
            *total += r.generated;
        }
    }
    assert_eq!(totals, [33_348_140, 20_169_355, 19_558_916, 32_951_922]);
}

#[test]
fn dual_lookups_refuse_what_they_cannot_read() {
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let dual = Options {
        dual: true,
        ..Options::default()
    };
    let g3 = Board::default_goal(Shape::new(3, 3).unwrap(), 1);
    let nine = ["5-5-5"; 9].join("|");
    let error = |goal: &Board, p: Option<&str>| check_options(goal, p, &dual).unwrap_err();
    let plain_only = "dual lookups need plain pattern databases (pdb:…)";
    assert_eq!(error(&goal, Some("zpdb:5-5-5")), plain_only);
    assert_eq!(error(&goal, None), plain_only);
    assert_eq!(
        error(&g3, Some("1,2,3,4/5,6,7,8")),
        "dual lookups need the goal with the blank first and tile t on cell t, not 1 2 3 4 5 6 7 8 0"
    );
    assert_eq!(
        error(&goal, Some(&nine)),
        "dual lookups take up to 8 partitions, not 9"
    );
    let eight = ["5-5-5"; 8].join("|");
    assert_eq!(check_options(&goal, Some(&eight), &dual), Ok(()));
    assert_eq!(check_options(&g3, None, &Options::default()), Ok(()));
}
