//! Golden tests: `searchlab tiles …` reproduces the seeds' outputs exactly (the 15-puzzle assignment's
//! IDA* block, the 8-puzzle assignment's BFS/DFS results, the two-blank puzzle assignment's `print_succ` and `solve`
//! transcripts) and Korf's 1985 node counts.

use std::io::Write;
use std::process::Command;

fn instance(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    writeln!(f, "{text}").unwrap();
    f
}

fn tiles(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .arg("tiles")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn solve(text: &str, extra: &[&str]) -> String {
    let f = instance(text);
    let mut args = vec!["solve", f.path().to_str().unwrap()];
    args.extend_from_slice(extra);
    tiles(&args)
}

#[test]
fn assignment_block_for_instance_1_with_korfs_node_count() {
    let out = solve(
        "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
        &["--move-order", "ULRD"],
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        &lines[..10],
        &[
            "Initial State:",
            "14 13 15 7",
            "11 12 9 5",
            "6 0 2 1",
            "4 8 10 3",
            "Initial Estimate = 41",
            "Threshold = 41 43 45 47 49 51 53 55 57",
            "Solution = 57",
            // Korf (1985), instance 1: 276,361,933 nodes generated.
            "Generated = 276,361,933",
            "Expanded = 140,036,828",
        ]
    );
    assert!(lines[10].starts_with("Time (seconds) = "), "{}", lines[10]);
    let secs = lines[10].trim_start_matches("Time (seconds) = ");
    assert!(
        secs.split_once('.').is_some_and(|(_, d)| d.len() == 2),
        "two decimals: {secs}"
    );
    let rate = lines[11].strip_prefix("Expanded/Second = ").unwrap();
    assert!(
        rate.len() >= 5 && rate.chars().all(|c| c.is_ascii_digit() || c == ','),
        "{rate}"
    );
    assert!(rate.contains(','), "thousands separators: {rate}");
    assert_eq!(lines.len(), 12);
}

#[test]
fn korf_counts_for_instances_2_and_9_by_batch() {
    // The batch is a pipeline experiment: its tables go to a temporary --out.
    let out = tempfile::tempdir().unwrap();
    let csv = tiles(&[
        "batch",
        "--out",
        out.path().to_str().unwrap(),
        "--set",
        "korf100",
        "--ids",
        "2,9",
        "--move-order",
        "ULRD",
        "--csv",
        "--threads",
        "1",
    ]);
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 2);
    assert!(out.path().join("tiles_batch_korf100/results.csv").exists());
    // id, h0, optimal, solution length, generated: Korf 1985 gives 15,300,442 and 1,650,696.
    assert_eq!(
        (rows[0][1], rows[0][3], rows[0][4], rows[0][5], rows[0][7]),
        ("2", "43", "55", "55", "15300442")
    );
    assert_eq!(
        (rows[1][1], rows[1][3], rows[1][4], rows[1][5], rows[1][7]),
        ("9", "32", "46", "46", "1650696")
    );
    assert_eq!(rows[0][6], "43 45 47 49 51 53 55");
}

#[test]
fn seed002_bfs_cases() {
    let case1 = solve(
        "2 4 3 1 0 6 7 5 8",
        &["--algorithm", "bfs", "--expand-limit", "100"],
    );
    // The seed reports 73 expansions; we count 74 (see the README / report).
    assert_eq!(
        case1,
        "expands = 74\ndepth = 6\nsolution = { u, l, d, r, d, r }\n"
    );
    let case2 = solve("5 4 2 8 0 3 1 7 6", &["--algorithm", "bfs"]);
    assert_eq!(
        case2,
        "expands = 2045\ndepth = 12\nsolution = { l, d, r, u, u, l, d, r, u, r, d, d }\n"
    );
    // Within the assignment's first limit of 100 expansions, case 2 is not solved.
    let limited = solve(
        "5 4 2 8 0 3 1 7 6",
        &["--algorithm", "bfs", "--expand-limit", "100"],
    );
    assert!(
        limited.starts_with("expands = 100\n") && limited.ends_with("solution = not found\n"),
        "{limited}"
    );
}

#[test]
fn seed002_dfs_gives_up_at_100_expansions() {
    for case in ["2 4 3 1 0 6 7 5 8", "5 4 2 8 0 3 1 7 6"] {
        let out = solve(case, &["--algorithm", "dfs", "--expand-limit", "100"]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "expands = 100");
        let depth: u32 = lines[1].strip_prefix("depth = ").unwrap().parse().unwrap();
        assert!((90..100).contains(&depth), "DFS dives: depth {depth}");
        assert_eq!(lines[2], "solution = not found");
    }
}

#[test]
fn seed003_print_succ() {
    let f = instance("2 5 1 4 0 6 7 0 3");
    let out = tiles(&["successors", f.path().to_str().unwrap()]);
    assert_eq!(
        out,
        "[2, 0, 1, 4, 5, 6, 7, 0, 3] h=5\n\
         [2, 5, 1, 0, 4, 6, 7, 0, 3] h=7\n\
         [2, 5, 1, 4, 0, 6, 0, 7, 3] h=7\n\
         [2, 5, 1, 4, 0, 6, 7, 3, 0] h=7\n\
         [2, 5, 1, 4, 6, 0, 7, 0, 3] h=7\n"
    );
    let f = instance("2 5 1 4 3 6 7 0 0");
    let out = tiles(&["successors", f.path().to_str().unwrap()]);
    assert_eq!(
        out,
        "[2, 5, 1, 4, 0, 6, 7, 3, 0] h=7\n[2, 5, 1, 4, 3, 0, 7, 0, 6] h=7\n[2, 5, 1, 4, 3, 6, 0, 7, 0] h=7\n"
    );
}

#[test]
fn seed003_solve_transcript() {
    let out = solve("4 3 0 5 1 6 7 2 0", &["--algorithm", "astar"]);
    let expected = "\
[4, 3, 0, 5, 1, 6, 7, 2, 0] h=7 moves: 0
[4, 0, 3, 5, 1, 6, 7, 2, 0] h=6 moves: 1
[4, 1, 3, 5, 0, 6, 7, 2, 0] h=5 moves: 2
[4, 1, 3, 0, 5, 6, 7, 2, 0] h=4 moves: 3
[0, 1, 3, 4, 5, 6, 7, 2, 0] h=3 moves: 4
[0, 1, 3, 4, 5, 0, 7, 2, 6] h=4 moves: 5
[0, 1, 3, 4, 0, 5, 7, 2, 6] h=5 moves: 6
[0, 1, 3, 4, 2, 5, 7, 0, 6] h=4 moves: 7
[1, 0, 3, 4, 2, 5, 7, 0, 6] h=3 moves: 8
[1, 2, 3, 4, 0, 5, 7, 0, 6] h=2 moves: 9
[1, 2, 3, 4, 5, 0, 7, 0, 6] h=1 moves: 10
[1, 2, 3, 4, 5, 6, 7, 0, 0] h=0 moves: 11
";
    let (path, queue) = out.rsplit_once("Max queue length: ").unwrap();
    assert_eq!(path, expected);
    // The assignment's run shows 163: its heap keeps duplicates; ours pushes a state only when
    // its g improves (see search::astar).
    assert_eq!(queue.trim(), "72");
}

#[test]
fn ida_on_two_blanks_and_other_goals() {
    let out = solve("4 3 0 5 1 6 7 2 0", &[]);
    assert!(
        out.contains("Initial Estimate = 7\n") && out.contains("Solution = 11\n"),
        "{out}"
    );
    // `--goal`: the 8-puzzle with the blank first.
    let out = solve(
        "1 0 2 3 4 5 6 7 8",
        &["--goal", "0 1 2 3 4 5 6 7 8", "--show-moves"],
    );
    assert!(
        out.contains("Solution = 1\n") && out.ends_with("Moves = l\n"),
        "{out}"
    );
    // A 3x2 board given with --width.
    let f = instance("1 2 3 4 0 5");
    let out = tiles(&[
        "solve",
        f.path().to_str().unwrap(),
        "--width",
        "3",
        "--heuristic",
        "all",
    ]);
    assert!(out.contains("Solution = 1\n"), "{out}");
}
