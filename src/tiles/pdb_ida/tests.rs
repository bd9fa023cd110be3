use super::super::board::Dir;
use super::super::board::Shape;
use super::super::deepen::Checkpoint;
use super::super::fsm::DEFAULT_DEPTH;
use super::super::heuristic::Heuristic;
use super::super::ida;
use super::super::instances::InstanceSet;
use super::super::pdb::tests::heuristic;
use super::super::tests::random_walk;
use super::patterns::SPREAD;
use super::*;
use crate::search::{Limits, Stop};
use crate::util::observe::{Observer, Recorder};
use crate::util::rng::rng_from_seed;
use rand::RngExt;

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

/// The pruning machine of the default depth for `shape`'s boards.
fn machine(shape: Shape) -> Fsm {
    Fsm::build(shape, DEFAULT_DEPTH)
}

/// The serial search of `start` with the pruning machine `fsm` (if any), checked to
/// reach `h`'s goal in exactly `optimal` moves.
fn solve_optimally(
    start: &Board,
    h: &PdbHeuristic,
    fsm: Option<&Fsm>,
    optimal: usize,
) -> IdaResult {
    let r = solve_with(start, h, MoveOrder::KORF, fsm, Control::default());
    assert_eq!(r.solution_length(), Some(optimal), "{}", start.list());
    assert_eq!(
        replay(start, r.moves.as_ref().unwrap()).last(),
        Some(&h.goal)
    );
    r
}

/// Checks that the parallel search of `start` counts and moves as the serial `r`.
fn assert_parallel_as_serial(start: &Board, h: &PdbHeuristic, fsm: Option<&Fsm>, r: &IdaResult) {
    let p = solve_parallel_with(start, h, MoveOrder::KORF, fsm, Control::default());
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
                (a.generated, a.expanded, a.stop),
                (b.generated, b.expanded, b.stop)
            );
        }
    }
}

#[test]
fn parallel_search_counts_as_the_serial_one_whatever_the_threads() {
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let h = heuristic(&goal, "5-5-5", true);
    let fsm = machine(goal.shape());
    for pruning in [None, Some(&fsm)] {
        for id in [1u32, 9, 12, 17] {
            let inst = InstanceSet::Korf100.instance(id).unwrap();
            // The serial search or the parallel one, with the same arguments.
            let search = |solve: fn(
                &Board,
                &PdbHeuristic,
                MoveOrder,
                Option<&Fsm>,
                Control,
            ) -> IdaResult| {
                solve(
                    &inst.board,
                    &h,
                    MoveOrder::KORF,
                    pruning,
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
                    "instance {id}, {threads} threads, machine {}",
                    pruning.is_some()
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
    let fsm = machine(goal.shape());
    for pruning in [None, Some(&fsm)] {
        let serial = |limit| {
            solve_with(
                &start,
                &h,
                MoveOrder::KORF,
                pruning,
                Control::limited(limit),
            )
        };
        let parallel = |expand_limit, resume| {
            let control = || Control {
                limits: Limits::expansions(expand_limit),
                resume,
                ..Control::default()
            };
            pool.install(|| solve_parallel_with(&start, &h, MoveOrder::KORF, pruning, control()))
        };
        // The iterations' last counts, where an off-by-one would show.
        let keep = Recorder::default();
        let full = solve_with(
            &start,
            &h,
            MoveOrder::KORF,
            pruning,
            Control {
                observer: &keep,
                ..Control::default()
            },
        );
        let checkpoints: Vec<Checkpoint> = keep
            .checkpoints()
            .iter()
            .map(|c| Checkpoint::from_json(c).unwrap())
            .collect();
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
                    p.stop,
                    &p.thresholds,
                    &p.moves
                ),
                (
                    s.generated,
                    s.expanded,
                    s.max_depth,
                    s.stop,
                    &s.thresholds,
                    &s.moves
                ),
                "machine {}, limit {limit}",
                pruning.is_some()
            );
            assert_eq!(
                s.stop == Stop::ExpansionLimit,
                limit < full.expanded,
                "limit {limit}"
            );
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
    let fsm = machine(goal.shape());
    let options = Some(&fsm);
    // Each search: the stop request, and the checkpoint at which it was set.
    /// Sets its stop request at the first checkpoint past a million expansions.
    struct Watch {
        stop: Cancel,
        at: std::sync::Mutex<Option<Checkpoint>>,
    }
    impl Observer for Watch {
        fn checkpoint(&self, state: &serde_json::Value) {
            let c = Checkpoint::from_json(state).unwrap();
            let mut at = self.at.lock().unwrap();
            if c.expanded >= POLL_EVERY && at.is_none() {
                self.stop.cancel();
                *at = Some(c);
            }
        }
    }
    let stopped = |search: &dyn Fn(Control) -> IdaResult| {
        let watch = Watch {
            stop: Cancel::default(),
            at: std::sync::Mutex::new(None),
        };
        let r = search(Control {
            limits: Limits::default().with_cancel(&watch.stop),
            observer: &watch,
            ..Control::default()
        });
        let at = watch.at.into_inner().unwrap();
        let at = at.expect("an iteration of a million expansions");
        assert!(r.stop == Stop::Interrupted && r.moves.is_none());
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
    let machine = machine(shape);
    let fsm = Some(&machine);
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
fn the_machine_solves_korfs_instances_optimally_with_fewer_nodes() {
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let h = heuristic(&goal, "5-5-5", true);
    let machine = machine(goal.shape());
    let fsm = Some(&machine);
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
    let fsm = machine(goal.shape());
    for id in [9u32, 12, 42] {
        let inst = InstanceSet::Korf100.instance(id).unwrap();
        let plain = solve(&inst.board, &h, MoveOrder::KORF, None);
        let r = solve_with(
            &inst.board,
            &h,
            MoveOrder::KORF,
            Some(&fsm),
            Control::default(),
        );
        assert_eq!(r.solution_length(), Some(inst.optimal as usize));
        assert_eq!(r.h0, plain.h0);
        assert!(r.generated < plain.generated, "instance {id}");
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
    let fsm = machine(goal.shape());
    for options in [None, Some(&fsm)] {
        let pruning = options.is_some();
        let (mut one_total, mut both_total) = (0, 0);
        for id in [1u32, 9, 12, 17, 42, 60] {
            let inst = InstanceSet::Korf100.instance(id).unwrap();
            let solve = |h| solve_optimally(&inst.board, h, options, inst.optimal as usize);
            let (a, b, c) = (solve(&one), solve(&both), solve(&swapped));
            for (spread, packed) in [(&a, solve(&packed[0])), (&b, solve(&packed[1]))] {
                assert_eq!(
                    (spread.generated, spread.expanded, &spread.moves),
                    (packed.generated, packed.expanded, &packed.moves),
                    "machine {pruning}, instance {id}"
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
            "machine {pruning}: {both_total} of {one_total}"
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
        let fsm = machine(goal.shape());
        for options in [None, Some(&fsm)] {
            let pruning = options.is_some();
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
                    "{partitions}, machine {pruning}, instance {id}"
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
    // values, carried down move by move, are those computed afresh from its board;
    // with spread copies and packed tables, with and without the reflection, one
    // partition or two.
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let start = InstanceSet::Korf100.instance(1).unwrap().board;
    let fsm = machine(goal.shape());
    for h in [
        heuristic(&goal, "5-5-5", true),
        heuristic(&goal, "6-6-3", false),
        heuristic(&goal, "5-5-5|6-6-3", true),
        heuristic(&goal, "5-5-5", true).without_spreads(),
        heuristic(&goal, "5-5-5|6-6-3", false).without_spreads(),
    ] {
        let mut s = Search::new(&h, &start, MoveOrder::KORF, Some(&fsm));
        (s.bound, s.split) = (s.h0() + 30, 12);
        let (blank, md, state) = (start.blank(), s.md(), s.start_state());
        s.run(blank, 0, md, state, s.first_orientation());
        let frontier = std::mem::take(&mut s.frontier);
        assert!(frontier.len() > 1000, "{}", frontier.len());
        for node in &frontier {
            let mut fresh = s.clone();
            fresh.cells = node.cells;
            fresh.reset_values();
            for (a, b) in fresh.pats.iter().zip(&node.pats) {
                assert_eq!((a.val, a.rank, a.sum), (b.val, b.rank, b.sum));
                // The cells are carried where the lookups read them.
                if s.lookup != SPREAD {
                    assert_eq!(a.pos, b.pos);
                }
            }
            // The orientation carried down to be looked up first has the largest sum.
            let sums = node.pats.iter().map(|p| p.sum);
            assert_eq!(Some(node.pats[node.first].sum), sums.max());
        }
    }
}
