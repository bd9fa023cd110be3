//! Cross-checks of the tile domain against ground truth: every heuristic against exact
//! BFS distances on whole state spaces (3×3 with one and two blanks, 2×4, 4×2) and
//! against optimal lengths on random 4×4 states; the fast IDA* against the generic one,
//! node for node; A*, BFS and IDA* against each other; Korf's published node counts.

use super::board::{Board, Dir, MoveOrder, Shape};
use super::census;
use super::conflicts::LineTable;
use super::heuristic::{Heuristic, Tables};
use super::ida;
use super::instances::{InstanceSet, korf1985_generated};
use super::solve::{Problem, moves_of};
use crate::search::{Limits, Stop};
use crate::util::observe::Recorder;
use crate::util::rng::rng_from_seed;
use rand::RngExt;

/// A random walk of `steps` blank moves from `from` (never undoing the last move).
pub(super) fn random_walk(from: &Board, steps: usize, seed: u64) -> Board {
    let mut rng = rng_from_seed(seed);
    let mut b = *from;
    let mut prev: Option<Board> = None;
    for _ in 0..steps {
        let succ: Vec<Board> = b
            .successors(MoveOrder::default())
            .map(|(n, _, _)| n)
            .filter(|n| Some(*n) != prev)
            .collect();
        let next = succ[rng.random_range(0..succ.len())];
        prev = Some(b);
        b = next;
    }
    b
}

fn unpack_layers(goal: &Board) -> Vec<Vec<Board>> {
    // Reuse the census BFS and decode through `eight_puzzle_at`-like unpacking.
    let shape = goal.shape();
    census::layers(goal)
        .unwrap()
        .into_iter()
        .map(|layer| {
            layer
                .into_iter()
                .map(|code| {
                    let n = shape.cells();
                    let tiles: Vec<u32> = (0..n)
                        .map(|i| ((code >> (4 * (n - 1 - i))) & 0xF) as u32)
                        .collect();
                    Board::from_tiles(shape, &tiles, "t").unwrap()
                })
                .collect()
        })
        .collect()
}

fn check_admissible_everywhere(goal: &Board) -> [u64; 5] {
    let tables = Tables::new(goal);
    let mut sums = [0u64; 5];
    for (d, layer) in unpack_layers(goal).iter().enumerate() {
        for b in layer {
            for (i, h) in Heuristic::ALL.into_iter().enumerate() {
                let v = tables.evaluate(&b.cells, h);
                assert!(v as usize <= d, "{h} = {v} > distance {d} on {}", b.list());
                assert_eq!(v == 0, d == 0, "{h} is 0 exactly at the goal: {}", b.list());
                sums[i] += u64::from(v);
            }
        }
    }
    sums
}

#[test]
fn eight_puzzle_census_is_the_published_one() {
    let counts = census::census(&Board::default_goal(Shape::new(3, 3).unwrap(), 1)).unwrap();
    assert_eq!(counts.iter().sum::<u64>(), 181_440);
    assert_eq!(counts.len() - 1, 31);
    assert_eq!(counts[31], 2);
    assert_eq!(&counts[..5], &[1, 2, 4, 8, 16]);
}

#[test]
fn every_heuristic_is_admissible_on_every_3x3_state() {
    let sums = check_admissible_everywhere(&Board::default_goal(Shape::new(3, 3).unwrap(), 1));
    // The enhancements must actually add something: each beats Manhattan in total.
    for s in &sums[1..] {
        assert!(*s > sums[0], "{sums:?}");
    }
    assert!(sums[4] > sums[1], "all > linear: {sums:?}");
    // With the blank first (the 15-puzzle's convention) and on two-blank boards.
    check_admissible_everywhere(&Board::parse("0 1 2 3 4 5 6 7 8", None, None, "g").unwrap());
    check_admissible_everywhere(&Board::default_goal(Shape::new(3, 3).unwrap(), 2));
}

#[test]
fn every_heuristic_is_admissible_on_narrow_boards() {
    check_admissible_everywhere(&Board::default_goal(Shape::new(4, 2).unwrap(), 1));
    check_admissible_everywhere(&Board::default_goal(Shape::new(2, 4).unwrap(), 1));
    check_admissible_everywhere(&Board::parse("0 1 2 3 4 5 6 7", Some(4), Some(2), "g").unwrap());
}

#[test]
fn heuristics_are_admissible_on_random_4x4_states() {
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    let tables = Tables::new(&goal);
    for seed in 0..12 {
        let start = random_walk(&goal, 60, seed);
        let r = ida::solve(&start, &goal, Heuristic::All, MoveOrder::KORF, None);
        let moves = r.moves.expect("solvable");
        // Replay the optimal path: every state's h is at most its remaining distance.
        let mut b = start;
        let mut states = vec![b];
        for d in &moves {
            let p = b.blank();
            let q = b.shape().neighbour(p, *d).unwrap();
            b.cells.swap(p, q);
            states.push(b);
        }
        assert_eq!(b, goal);
        for (i, s) in states.iter().enumerate() {
            let remaining = (moves.len() - i) as u32;
            for h in Heuristic::ALL {
                assert!(
                    tables.evaluate(&s.cells, h) <= remaining,
                    "{h} on {} (seed {seed})",
                    s.list()
                );
            }
        }
        let m = ida::solve(&start, &goal, Heuristic::Manhattan, MoveOrder::KORF, None);
        assert_eq!(m.solution_length(), Some(moves.len()), "seed {seed}");
    }
}

#[test]
fn fast_ida_matches_generic_ida_node_for_node() {
    for (w, h, steps) in [(3, 3, 40), (4, 4, 34), (3, 4, 30)] {
        let goal = Board::default_goal(Shape::new(w, h).unwrap(), 1);
        for seed in 0..4u64 {
            let start = random_walk(&goal, steps, seed + 100);
            for heuristic in Heuristic::ALL {
                for order in [MoveOrder::default(), MoveOrder::KORF] {
                    let fast = ida::solve(&start, &goal, heuristic, order, None);
                    let generic = Problem::new(start, goal, order, heuristic).ida(None);
                    let ctx = format!("{w}x{h} seed {seed} {heuristic} {order}");
                    assert_eq!(fast.generated, generic.stats.generated, "{ctx}");
                    assert_eq!(fast.expanded, generic.stats.expanded, "{ctx}");
                    assert_eq!(
                        u64::from(fast.max_depth),
                        generic.stats.max_frontier,
                        "{ctx}"
                    );
                    let t: Vec<u64> = fast.thresholds.iter().map(|&t| u64::from(t)).collect();
                    assert_eq!(t, generic.stats.thresholds, "{ctx}");
                    assert_eq!(fast.moves, generic.path.as_deref().map(moves_of), "{ctx}");
                }
            }
        }
    }
}

#[test]
fn fast_ida_stops_at_the_same_node_as_generic_ida() {
    // Under an expansion limit the two searches must stop at the same node, with the
    // same counts, whether the limit falls in a tight or a slack part of the tree.
    let goal = Board::default_goal(Shape::new(4, 4).unwrap(), 1);
    for seed in 0..3u64 {
        let start = random_walk(&goal, 40, seed + 7);
        let full = ida::solve(&start, &goal, Heuristic::Manhattan, MoveOrder::KORF, None);
        for limit in [1, 2, 3, 17, full.expanded / 3, full.expanded - 1] {
            for heuristic in [Heuristic::Manhattan, Heuristic::Linear] {
                let fast = ida::solve(&start, &goal, heuristic, MoveOrder::KORF, Some(limit));
                let generic =
                    Problem::new(start, goal, MoveOrder::KORF, heuristic).ida(Some(limit));
                let ctx = format!("seed {seed} limit {limit} {heuristic}");
                assert_eq!(fast.generated, generic.stats.generated, "{ctx}");
                assert_eq!(fast.expanded, generic.stats.expanded, "{ctx}");
                assert_eq!(fast.stop, generic.stop, "{ctx}");
                assert_eq!(fast.moves, generic.path.as_deref().map(moves_of), "{ctx}");
            }
        }
    }
}

#[test]
fn bfs_astar_and_ida_agree_on_optimal_lengths() {
    let goal = Board::default_goal(Shape::new(3, 3).unwrap(), 1);
    for depth in [0usize, 1, 7, 14, 22, 31] {
        let start = census::eight_puzzle_at(depth, 12345).unwrap();
        let p = Problem::new(start, goal, MoveOrder::default(), Heuristic::All);
        assert_eq!(p.bfs(None).cost, Some(depth as u64));
        assert_eq!(p.astar(None).cost, Some(depth as u64));
        assert_eq!(p.ida(None).cost, Some(depth as u64));
        let r = ida::solve(&start, &goal, Heuristic::Linear, MoveOrder::default(), None);
        assert_eq!(r.solution_length(), Some(depth));
        // DFS finds some solution, no shorter than optimal.
        let d = p.dfs(None);
        assert!(d.cost.is_some_and(|c| c >= depth as u64));
    }
    // Two blanks: BFS and A* agree.
    let goal2 = Board::default_goal(Shape::new(3, 3).unwrap(), 2);
    for seed in 0..5 {
        let start = random_walk(&goal2, 50, seed);
        let p = Problem::new(start, goal2, MoveOrder::default(), Heuristic::All);
        assert_eq!(p.bfs(None).cost, p.astar(None).cost);
        assert_eq!(p.ida(None).cost, p.astar(None).cost);
    }
}

#[test]
fn korf_node_counts_on_easy_instances() {
    // Every instance of Korf's table with fewer than 20 M nodes (37 of them, 273 M
    // nodes in all); the full set is the korf100 study.
    let table = korf1985_generated();
    assert_eq!(table.len(), 100);
    for (id, nodes) in table {
        if nodes > 20_000_000 {
            continue; // the larger ones run in the integration tests or by command
        }
        let inst = InstanceSet::Korf100.instance(id).unwrap();
        let goal = Board::default_goal(inst.board.shape(), 1);
        let r = ida::solve(
            &inst.board,
            &goal,
            Heuristic::Manhattan,
            MoveOrder::KORF,
            None,
        );
        assert_eq!(r.generated, nodes, "instance {id}");
        assert_eq!(r.solution_length(), Some(inst.optimal as usize));
    }
}

#[test]
fn korf_instances_start_estimates() {
    // The 15-puzzle assignment's table: h(s0) of instances 1, 2, 3, 4, 14, 88.
    let expected = [(1, 41), (2, 43), (3, 41), (4, 42), (14, 41), (88, 43)];
    for (id, h0) in expected {
        let inst = InstanceSet::Assignment.instance(id).unwrap();
        let t = Tables::new(&Board::default_goal(inst.board.shape(), 1));
        assert_eq!(
            t.evaluate(&inst.board.cells, Heuristic::Manhattan),
            h0,
            "instance {id}"
        );
        for h in Heuristic::ALL {
            assert!(t.evaluate(&inst.board.cells, h) <= inst.optimal);
        }
    }
}

#[test]
fn seed002_counts_only_merging_expansions() {
    // The 8-puzzle assignment reports 73 and 1974 expansions for BFS; we count every node whose
    // successors were generated (74 and 2045). Its figure is the number of expansions
    // that merged at least one new state into the queue.
    for (case, ours, seeds) in [
        ("2 4 3 1 0 6 7 5 8", 74, 73),
        ("5 4 2 8 0 3 1 7 6", 2045, 1974),
    ] {
        let start = Board::parse(case, None, None, "t").unwrap();
        let goal = Board::default_goal(start.shape(), 1);
        let o = Problem::new(start, goal, MoveOrder::default(), Heuristic::Manhattan).bfs(None);
        assert_eq!((o.stats.expanded, o.stats.merging), (ours, seeds), "{case}");
    }
}

#[test]
fn expansion_limits_stop_every_search() {
    let start = Board::parse("5 4 2 8 0 3 1 7 6", None, None, "t").unwrap();
    let goal = Board::default_goal(start.shape(), 1);
    let p = Problem::new(start, goal, MoveOrder::default(), Heuristic::Manhattan);
    let o = p.dfs(Some(100));
    assert!(o.path.is_none() && o.stop == Stop::ExpansionLimit && o.stats.expanded == 100);
    let o = p.bfs(Some(100));
    assert!(o.path.is_none() && o.stats.expanded == 100);
    let r = ida::solve(
        &start,
        &goal,
        Heuristic::Manhattan,
        MoveOrder::default(),
        Some(10),
    );
    assert!(r.moves.is_none() && r.stop == Stop::ExpansionLimit && r.expanded == 10);
    assert_eq!(moves_of(&[start]), Vec::<Dir>::new());
}

#[test]
fn a_search_resumed_from_any_checkpoint_ends_as_an_uninterrupted_one() {
    // Korf's instance 9 (1.65 million nodes with Manhattan distance, 11 iterations) with
    // each search the driver serves: every checkpoint, resumed, gives the same counts,
    // thresholds, depth and moves; a limit counts the expansions done before the resume.
    use super::deepen::{Checkpoint, Control};
    use super::pdb::{Partition, PdbHeuristic, build};
    use super::pdb_ida;
    let inst = InstanceSet::Korf100.instance(9).unwrap();
    let goal = Board::default_goal(inst.board.shape(), 1);
    let singles: Vec<String> = (1..16).map(|t| t.to_string()).collect();
    let p = Partition::parse(&singles.join("/"), &goal).unwrap();
    let tables = p
        .groups
        .iter()
        .map(|g| build(&goal, g, &crate::util::observe::Quiet))
        .collect();
    let pdb = PdbHeuristic::new(&goal, p, tables, true);
    let key = |r: &ida::IdaResult| {
        (
            r.generated,
            r.expanded,
            r.thresholds.clone(),
            r.moves.clone(),
            r.max_depth,
            r.stop,
        )
    };
    type Solver<'a> = Box<dyn Fn(Control) -> ida::IdaResult + 'a>;
    let searches: Vec<(&str, Solver)> = vec![
        (
            "manhattan",
            Box::new(|c| {
                ida::solve_with(&inst.board, &goal, Heuristic::Manhattan, MoveOrder::KORF, c)
            }),
        ),
        (
            "linear",
            Box::new(|c| {
                ida::solve_with(&inst.board, &goal, Heuristic::Linear, MoveOrder::KORF, c)
            }),
        ),
        (
            "pdb",
            Box::new(|c| {
                pdb_ida::solve_with(&inst.board, &pdb, MoveOrder::KORF, Default::default(), c)
            }),
        ),
    ];
    for (name, solve) in &searches {
        let record = Recorder::default();
        let full = solve(Control {
            observer: &record,
            ..Control::default()
        });
        let seen: Vec<Checkpoint> = record
            .checkpoints()
            .iter()
            .map(|c| Checkpoint::from_json(c).unwrap())
            .collect();
        assert_eq!(
            full.solution_length(),
            Some(inst.optimal as usize),
            "{name}"
        );
        assert_eq!(
            seen.len(),
            full.thresholds.len() - 1,
            "{name}: one per iteration"
        );
        assert!(seen.len() >= 4, "{name}: several iterations");
        for (i, c) in seen.iter().enumerate() {
            assert_eq!(c.thresholds, full.thresholds[..=i], "{name}");
            assert_eq!(c.next, full.thresholds[i + 1], "{name}");
            assert_eq!(c.check(), Ok(()), "{name}: checkpoint {i} passes its check");
            let resumed = solve(Control {
                resume: Some(c.clone()),
                ..Control::default()
            });
            assert_eq!(
                key(&resumed),
                key(&full),
                "{name}, resumed at checkpoint {i}"
            );
        }
        // With a limit that stops in the last iteration, resumed or not.
        let limit = Some(full.expanded - 10);
        let limited = solve(Control::limited(limit));
        assert!(
            limited.stop == Stop::ExpansionLimit && limited.moves.is_none(),
            "{name}"
        );
        let resumed = solve(Control {
            limits: Limits::expansions(limit),
            resume: seen.last().cloned(),
            ..Control::default()
        });
        assert_eq!(key(&resumed), key(&limited), "{name}, limited");
        // Checkpoints no search writes fail their check.
        let last = seen.last().unwrap().clone();
        let mut back = last.clone();
        back.next = last.thresholds[0];
        let mut counts = last.clone();
        counts.expanded = counts.generated + 1;
        let mut order = last.clone();
        order.thresholds.swap(0, 1);
        for (bad, says) in [
            (back, "does not follow"),
            (counts, "node counts"),
            (order, "do not rise"),
        ] {
            assert!(
                bad.check().is_err_and(|e| e.contains(says)),
                "{name}: {says}"
            );
        }
        // A checkpoint of another search (another h0) is ignored.
        let mut other = seen[0].clone();
        other.thresholds[0] += 2;
        let fresh = solve(Control {
            resume: Some(other),
            ..Control::default()
        });
        assert_eq!(key(&fresh), key(&full), "{name}, foreign checkpoint");
    }
}

#[test]
fn the_fast_ida_says_why_it_ended() {
    // An 8-puzzle is solved; Korf's instance 1 (millions of expansions) stops at a limit
    // of a thousand, or at its first look at a stop request already set.
    use super::deepen::{Control, POLL_EVERY};
    let goal8 = Board::default_goal(Shape::new(3, 3).unwrap(), 1);
    let start8 = census::eight_puzzle_at(20, 7).unwrap();
    let solved = ida::solve(&start8, &goal8, Heuristic::Manhattan, MoveOrder::KORF, None);
    assert_eq!(
        (solved.stop, solved.solution_length()),
        (Stop::Solved, Some(20))
    );
    let inst = InstanceSet::Korf100.instance(1).unwrap();
    let goal = Board::default_goal(inst.board.shape(), 1);
    let run = |limits: Limits| {
        let control = Control {
            limits,
            ..Control::default()
        };
        ida::solve_with(
            &inst.board,
            &goal,
            Heuristic::Manhattan,
            MoveOrder::KORF,
            control,
        )
    };
    let limited = run(Limits::expansions(Some(1000)));
    assert_eq!(
        (limited.stop, limited.expanded),
        (Stop::ExpansionLimit, 1000)
    );
    assert_eq!(limited.moves, None);
    let cancelled = crate::util::cancel::Cancel::default();
    cancelled.cancel();
    let stopped = run(Limits::default().with_cancel(&cancelled));
    assert_eq!(
        (stopped.stop, stopped.expanded),
        (Stop::Interrupted, POLL_EVERY)
    );
    // The generic IDA* on a board with two blanks says the same.
    let goal2 = Board::default_goal(Shape::new(3, 3).unwrap(), 2);
    let p = Problem::new(
        random_walk(&goal2, 30, 1),
        goal2,
        MoveOrder::KORF,
        Heuristic::All,
    );
    assert_eq!(p.ida(None).stop, Stop::Solved);
    assert_eq!(p.ida(Some(1)).stop, Stop::ExpansionLimit);
}

/// On random boards of several shapes, every line's lookup gives the penalty and the
/// tiles in conflict that the direct computation gives.
#[test]
fn line_conflict_lookup_agrees_with_the_direct_count() {
    let mut rng = rng_from_seed(56);
    let mut nonzero = 0;
    for (w, h) in [(3, 3), (4, 4), (5, 5), (3, 5), (5, 2)] {
        let shape = Shape::new(w, h).expect("a valid shape");
        let goal = Board::default_goal(shape, 1);
        let t = Tables::new(&goal);
        let table = LineTable::new(w, h, &t.goal_cell[..=t.max_tile]);
        for _ in 0..500 {
            let mut cells = [0u8; 32];
            let mut tiles: Vec<u8> = (0..(w * h) as u8).collect();
            for i in (1..tiles.len()).rev() {
                tiles.swap(i, rng.random_range(0..=i));
            }
            cells[..w * h].copy_from_slice(&tiles);
            for line in 0..t.lines() {
                let (p, along) = table.line(&cells, line);
                let expected = t.line_conflicts(&cells, line);
                assert_eq!((p, table.tiles(&cells, line, along)), expected);
                nonzero += usize::from(p > 0);
            }
        }
    }
    assert!(nonzero > 1000, "{nonzero} lines in conflict");
}
