//! The Rook Jumping Maze assignment programs as a user runs them: exact transcripts with prompts answered on
//! stdin, and one-line errors with exit code 2 for bad input. The golden transcripts pin
//! the generator (ChaCha8 seeded from `--seed`) and the sampling code: if a crate update
//! changes them, every published result would change too, and these tests say so.

mod common;
use common::{assert_user_error, run, run_in};

#[test]
fn part1_generate_prompts_for_the_size() {
    let out = run(&["rjm", "generate", "--seed", "42"], "6\n");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "Rook Jumping Maze size (5-10)? 2 4 1 5 4 3\n2 3 3 2 3 1\n2 2 1 3 3 4\n5 1 2 2 2 5\n3 4 4 3 4 4\n2 1 5 3 1 0\n"
    );
    // The same maze without the prompt when --size is given.
    let flag = run(&["rjm", "generate", "--seed", "42", "--size", "6"], "");
    assert_eq!(
        flag.stdout,
        out.stdout
            .trim_start_matches("Rook Jumping Maze size (5-10)? ")
    );
}

#[test]
fn part2_evaluate_prints_depths_and_objective() {
    let out = run(&["rjm", "evaluate", "--seed", "42"], "");
    assert_eq!(out.code, 0);
    assert_eq!(
        out.stdout,
        "1 3 1 4 4\n2 2 2 3 2\n3 1 1 1 1\n4 2 3 3 1\n3 3 2 4 0\nMoves from start:\n 0  1  4  4  2\n 1  3  2  4  3\n 8  7  6  5  4\n 2  2  3  3  3\n-- -- --  5  3\n-3\n"
    );
}

#[test]
fn part2_evaluates_the_seeds_example_mazes_from_files() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.txt");
    std::fs::write(
        &a,
        "2 2 2 4 3\n2 2 3 3 3\n3 3 2 3 3\n4 3 2 2 2\n1 2 1 4 0\n",
    )
    .unwrap();
    let out = run_in(
        Some(dir.path()),
        &["rjm", "evaluate", "--maze", "a.txt"],
        "",
    );
    assert_eq!(
        out.stdout,
        "2 2 2 4 3\n2 2 3 3 3\n3 3 2 3 3\n4 3 2 2 2\n1 2 1 4 0\nMoves from start:\n 0  3  1  4  2\n 7  5  5  6  4\n 1  4  2  2  3\n 5  6  4 --  3\n--  4  3  4  5\n-5\n"
    );
    let b = dir.path().join("b.txt");
    std::fs::write(
        &b,
        "3 3 2 4 3\n2 2 2 1 1\n4 3 1 3 4\n2 3 1 1 3\n1 1 3 2 0\n",
    )
    .unwrap();
    let out = run_in(
        Some(dir.path()),
        &["rjm", "evaluate", "--maze", "b.txt"],
        "",
    );
    assert!(
        out.stdout.ends_with(" 4  3  3  2 --\n1000000\n"),
        "{}",
        out.stdout
    );
}

#[test]
fn part3_descend() {
    let out = run(&["rjm", "descend", "--seed", "42"], "100\n");
    assert_eq!(
        out.stdout,
        "Iterations? 1 2 3 1 3\n3 3 1 2 4\n4 3 1 2 4\n3 2 2 2 3\n1 4 1 1 0\nMoves from start:\n 0  1  3  2  3\n 1  3  5  2  4\n 4  2  6  7  3\n 3  4  4  3  4\n 2  3  9  8  9\n-9\n"
    );
}

#[test]
fn part4_restarts() {
    let out = run(&["rjm", "restarts", "--seed", "42"], "1000\n10\n");
    assert_eq!(
        out.stdout,
        "Iterations? Hill descents? 1 3 2 2 3\n4 2 3 2 4\n1 1 2 2 4\n2 3 2 3 4\n4 1 4 2 0\nMoves from start:\n 0  1  8 15  2\n 1 12  6 13  2\n10 11  9 16 10\n 4  2  5 14  3\n19 18  7 17 20\n-20\n"
    );
    let flags = run(
        &[
            "rjm",
            "restarts",
            "--seed",
            "42",
            "--iterations",
            "1000",
            "--descents",
            "10",
        ],
        "",
    );
    assert_eq!(
        flags.stdout,
        out.stdout.replace("Iterations? Hill descents? ", "")
    );
}

#[test]
fn part5_uphill() {
    let out = run(&["rjm", "uphill", "--seed", "42"], "2000\n0.01\n");
    assert_eq!(
        out.stdout,
        "Iterations? Uphill step probability? 1 4 3 3 4\n3 3 1 3 2\n3 2 1 2 4\n1 1 1 3 3\n3 2 1 3 0\nMoves from start:\n 0  1 12  5 15\n 1 12 11  2 13\n 8  3 10  4 --\n 7  8  9  6 14\n 2  2 10  3 16\n-16\n"
    );
}

#[test]
fn part6_anneal_on_a_6x6_maze() {
    let out = run(
        &["rjm", "anneal", "--seed", "42", "--size", "6"],
        "2000\n1\n0.99\n",
    );
    assert_eq!(
        out.stdout,
        "Iterations? Initial temperature? Decay rate? 2 5 4 4 4 3\n3 1 3 4 4 3\n2 1 2 1 4 2\n2 1 1 3 3 1\n3 2 4 4 3 2\n3 5 3 3 2 0\nMoves from start:\n 0 13  1  4 20 17\n 3 12 13  4 22 14\n 1 11  2  6  3 16\n 8 10  9  7 19 18\n 2 11  2  3 21 15\n 6 14 24  5 23 25\n-25\n"
    );
}

#[test]
fn without_seed_a_fresh_seed_is_printed_and_replays() {
    let out = run(&["rjm", "evaluate"], "");
    assert_eq!(out.code, 0);
    let seed = out
        .stderr
        .split_whitespace()
        .nth(1)
        .expect("seed: N on stderr")
        .to_string();
    let again = run(&["rjm", "evaluate", "--seed", &seed], "");
    assert_eq!(again.stdout, out.stdout);
    assert_eq!(again.stderr, "");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    assert_user_error(
        &run(&["rjm", "generate"], "11\n"),
        "size 11 is outside 5-10",
    );
    assert_user_error(
        &run(&["rjm", "generate", "--size", "4"], ""),
        "size 4 is outside 5-10",
    );
    assert_user_error(
        &run(&["rjm", "descend"], "ten\n"),
        "\"ten\" is not an integer",
    );
    assert_user_error(
        &run(&["rjm", "descend", "--iterations", "0"], ""),
        "iterations = 0 is out of range (expected 1 to 1000000000)",
    );
    assert_user_error(
        &run(&["rjm", "descend"], "-5\n"),
        "iterations = -5 is out of range",
    );
    assert_user_error(
        &run(&["rjm", "uphill", "--iterations", "10"], "1.5\n"),
        "uphill_probability = 1.5 is out of range",
    );
    assert_user_error(
        &run(
            &["rjm", "anneal", "--iterations", "10", "--temperature", "0"],
            "",
        ),
        "initial_temperature = 0 is out of range (expected greater than 0",
    );
    assert_user_error(
        &run(&["rjm", "anneal"], "10\n1\n1.5\n"),
        "decay = 1.5 is out of range",
    );
    assert_user_error(
        &run(&["rjm", "anneal"], "10\n-1\n"),
        "initial_temperature = -1 is out of range",
    );
    assert_user_error(&run(&["rjm", "restarts"], "10\n"), "standard input ended");
    assert_user_error(
        &run(
            &[
                "rjm",
                "restarts",
                "--iterations",
                "18446744073709551615",
                "--descents",
                "2",
            ],
            "",
        ),
        "18446744073709551615 is out of range for iterations",
    );
    assert_user_error(
        &run(&["rjm", "evaluate", "--maze", "no/such/file.txt"], ""),
        "no/such/file.txt: cannot read the maze file",
    );

    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write(
        "row.txt",
        "2 2 2 4 3\n2 2 3 3\n3 3 2 3 3\n4 3 2 2 2\n1 2 1 4 0\n",
    );
    write(
        "jump.txt",
        "2 2 2 4 3\n2 2 3 3 3\n3 3 9 3 3\n4 3 2 2 2\n1 2 1 4 0\n",
    );
    write(
        "goal.txt",
        "2 2 2 4 3\n2 2 3 3 3\n3 3 2 3 3\n4 3 2 2 2\n1 2 1 4 1\n",
    );
    let at = |args: &[&str]| run_in(Some(dir.path()), args, "");
    assert_user_error(
        &at(&["rjm", "evaluate", "--maze", "row.txt"]),
        "row.txt:2: 4 jump numbers",
    );
    assert_user_error(
        &at(&["rjm", "evaluate", "--maze", "jump.txt"]),
        "jump 9 at row 3, column 3 is illegal",
    );
    assert_user_error(
        &at(&["rjm", "evaluate", "--maze", "goal.txt"]),
        "goal cell (row 5, column 5) must hold 0",
    );
    assert_user_error(
        &at(&["rjm", "evaluate", "--maze", "goal.txt", "--size", "6"]),
        "goal",
    );
}

/// `rjm exact --size N` in a fresh output folder `out`, with more flags.
fn exact(out: &std::path::Path, size: &str, flags: &[&str]) -> common::Output {
    let mut args = vec![
        "rjm",
        "exact",
        "--size",
        size,
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(flags);
    run(&args, "")
}

/// Mazes by length, from the line `mazes by length: 2: 524,880; 3: …`.
fn by_length(stdout: &str) -> Vec<(u32, u128)> {
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("mazes by length: "))
        .unwrap_or_else(|| panic!("no histogram in {stdout}"));
    line.split("; ")
        .map(|pair| {
            let (l, n) = pair.split_once(": ").unwrap();
            (l.parse().unwrap(), n.replace(',', "").parse().unwrap())
        })
        .collect()
}

/// The goal's distance of a maze code (rows separated by '/') by a breadth-first search.
fn distance(code: &str) -> Option<u32> {
    let rows: Vec<Vec<usize>> = code
        .split('/')
        .map(|r| r.split(' ').map(|j| j.parse().unwrap()).collect())
        .collect();
    let n = rows.len();
    let mut dist = vec![vec![None; n]; n];
    dist[0][0] = Some(0u32);
    let mut queue = std::collections::VecDeque::from([(0usize, 0usize)]);
    while let Some((r, c)) = queue.pop_front() {
        let j = rows[r][c] as i64;
        for (dr, dc) in [(0, j), (j, 0), (0, -j), (-j, 0)] {
            let (y, x) = (r as i64 + dr, c as i64 + dc);
            if j > 0 && (0..n as i64).contains(&y) && (0..n as i64).contains(&x) {
                let (y, x) = (y as usize, x as usize);
                if dist[y][x].is_none() {
                    dist[y][x] = dist[r][c].map(|d| d + 1);
                    queue.push_back((y, x));
                }
            }
        }
    }
    dist[n - 1][n - 1]
}

/// The results table without its timing columns.
fn untimed(csv: &std::path::Path) -> Vec<String> {
    common::rows(csv)
        .into_iter()
        .map(|row| {
            let mut cells: Vec<String> = row
                .into_iter()
                .filter(|(k, _)| !k.ends_with("_seconds") && !k.ends_with("_per_second"))
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            cells.sort();
            cells.join(",")
        })
        .collect()
}

#[test]
fn exact_proves_the_longest_paths_of_small_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let four = exact(dir.path(), "4", &[]);
    assert_eq!(four.code, 0, "{}", four.stderr);
    let first = four.stdout.lines().next().unwrap();
    assert!(
        first.starts_with(
            "4x4: the longest shortest path is 12 moves, reached by 2 of the 2,834,352 mazes (proved by exhaustive search"
        ),
        "{first}"
    );
    // The line, the mazes of every length (its threshold is 1), a maze as a grid.
    assert_eq!(four.stdout.lines().count(), 6, "{}", four.stdout);
    let grid: Vec<&str> = four.stdout.lines().skip(2).collect();
    assert_eq!(distance(&grid.join("/")), Some(12));
    // Its runs are kept: the same command computes nothing and says the same.
    assert!(dir.path().join("rjm_exact_4/runs.jsonl").is_file());
    assert_eq!(exact(dir.path(), "4", &[]).stdout, four.stdout);
    let five = exact(dir.path(), "5", &[]);
    assert!(
        five.stdout.starts_with(
            "5x5: the longest shortest path is 21 moves, reached by 34 of the 14,089,640,214,528 mazes"
        ),
        "{}",
        five.stdout
    );
    let six = exact(dir.path(), "6", &["--quiet"]);
    assert!(
        six.stdout.starts_with(
            "6x6: the longest shortest path is 32 moves, reached by 38,472 of the 2.59 × 10²² mazes"
        ),
        "{}",
        six.stdout
    );
    assert_eq!(six.stderr, "");
    // A time limit too short to finish gives a bound, never a proof.
    let eight = exact(dir.path(), "8", &["--seconds", "0.2"]);
    assert_eq!(eight.code, 0, "{}", eight.stderr);
    assert!(
        eight
            .stdout
            .starts_with("8x8: the longest shortest path is 60 to "),
        "{}",
        eight.stdout
    );
    for bad in [
        &["rjm", "exact", "--size", "2"][..],
        &["rjm", "exact", "--size", "11"],
        &["rjm", "exact", "--size", "5", "--seconds", "0"],
        &["rjm", "exact", "--size", "5", "--seconds", "nan"],
        &["rjm", "exact", "--size", "5", "--at-least", "0"],
        &["rjm", "exact", "--size", "5", "--shard", "2/2"],
    ] {
        assert_user_error(&run(bad, ""), "");
    }
}

#[test]
fn exact_counts_every_length_of_four_as_a_brute_force_does() {
    // Every 4×4 maze, one by one, by a breadth-first search of its own.
    let legal = |cell: usize| {
        let (r, c) = (cell / 4, cell % 4);
        r.max(3 - r).max(c).max(3 - c) as u8
    };
    let mut jumps = [1u8; 16];
    let mut want = std::collections::BTreeMap::new();
    'mazes: loop {
        let code: Vec<String> = (0..4)
            .map(|r| {
                let row: Vec<String> = (0..4)
                    .map(|c| {
                        if r == 3 && c == 3 {
                            "0".into()
                        } else {
                            jumps[r * 4 + c].to_string()
                        }
                    })
                    .collect();
                row.join(" ")
            })
            .collect();
        if let Some(d) = distance(&code.join("/")) {
            *want.entry(d).or_insert(0u128) += 1;
        }
        for (k, jump) in jumps.iter_mut().enumerate().take(15) {
            if *jump < legal(k) {
                *jump += 1;
                continue 'mazes;
            }
            *jump = 1;
        }
        break;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = exact(dir.path(), "4", &["--quiet"]);
    assert_eq!(by_length(&out.stdout), want.into_iter().collect::<Vec<_>>());
    // From a threshold up, the same counts.
    let from_nine = exact(dir.path(), "4", &["--quiet", "--at-least", "9"]);
    let all = by_length(&out.stdout);
    assert_eq!(by_length(&from_nine.stdout), all[7..].to_vec());
}

#[test]
fn exact_lists_every_longest_maze() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("five.txt");
    let out = exact(
        dir.path(),
        "5",
        &["--quiet", "--list", list.to_str().unwrap()],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .ends_with(&format!("34 mazes listed in {}\n", list.display()))
    );
    let text = std::fs::read_to_string(&list).unwrap();
    let mazes: std::collections::BTreeSet<&str> = text.lines().collect();
    assert_eq!((mazes.len(), text.lines().count()), (34, 34));
    let transpose = |code: &str| {
        let rows: Vec<Vec<&str>> = code.split('/').map(|r| r.split(' ').collect()).collect();
        (0..rows.len())
            .map(|c| rows.iter().map(|r| r[c]).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("/")
    };
    for m in &mazes {
        assert_eq!(distance(m), Some(21), "{m}");
        assert!(
            mazes.contains(transpose(m).as_str()),
            "{m} without its mirror image"
        );
    }
    let six = dir.path().join("six.txt");
    let out = exact(
        dir.path(),
        "6",
        &["--quiet", "--list", six.to_str().unwrap()],
    );
    assert!(out.stdout.contains("38472 mazes listed"), "{}", out.stdout);
    let text = std::fs::read_to_string(&six).unwrap();
    assert_eq!(text.lines().count(), 38_472);
    assert!(text.lines().take(50).all(|m| distance(m) == Some(32)));
    // Not before every part is searched.
    let other = tempfile::tempdir().unwrap();
    let partial = exact(
        other.path(),
        "6",
        &["--quiet", "--shard", "0/2", "--list", six.to_str().unwrap()],
    );
    assert_user_error(&partial, "--list needs every part searched");
}

#[test]
fn exact_stopped_and_resumed_or_sharded_and_merged_proves_the_same() {
    let whole = tempfile::tempdir().unwrap();
    let once = exact(whole.path(), "6", &["--quiet", "--jobs", "1"]);
    let results = |d: &std::path::Path| untimed(&d.join("rjm_exact_6/results.csv"));
    // Stopped by its time limit, then resumed by the same command.
    let resumed = tempfile::tempdir().unwrap();
    let stopped = exact(
        resumed.path(),
        "6",
        &["--quiet", "--seconds", "0.05", "--jobs", "1"],
    );
    assert_eq!(stopped.code, 0, "{}", stopped.stderr);
    assert!(
        stopped
            .stdout
            .starts_with("6x6: the longest shortest path is 32"),
        "{}",
        stopped.stdout
    );
    let again = exact(resumed.path(), "6", &["--quiet", "--jobs", "2"]);
    let first_line = |s: &str| {
        s.lines()
            .next()
            .unwrap()
            .split(" (proved")
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(first_line(&again.stdout), first_line(&once.stdout));
    assert_eq!(results(resumed.path()), results(whole.path()));
    // Three shards, then merge: the same tables, the same words.
    let sharded = tempfile::tempdir().unwrap();
    for shard in ["0/3", "1/3", "2/3"] {
        let out = exact(sharded.path(), "6", &["--quiet", "--shard", shard]);
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    let folder = sharded.path().join("rjm_exact_6");
    let merged = run(&["merge", folder.to_str().unwrap()], "");
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    let proof = merged.stdout.lines().nth(1).unwrap();
    assert_eq!(
        proof.split(" (proved").next().unwrap(),
        first_line(&once.stdout)
    );
    assert!(
        merged.stdout.ends_with(
            &once
                .stdout
                .lines()
                .skip(1)
                .map(|l| format!("{l}\n"))
                .collect::<String>()
        )
    );
    assert_eq!(results(sharded.path()), results(whole.path()));
}

#[test]
fn exact_stopped_by_ctrl_c_prints_what_it_proved() {
    // 7×7 does not finish in seconds; Ctrl-C (SIGINT) ends it as a time limit would:
    // the interval it proved and a maze of the longest length known, exit code 0.
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args([
            "rjm",
            "exact",
            "--size",
            "7",
            "--out",
            dir.path().to_str().unwrap(),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let out = common::signal(child, "-INT");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("searchlab: stopping: the search ends and prints what it proved"),
        "{stderr}"
    );
    let first = stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(
            "7x7: the longest shortest path is 45 to 46 moves: a maze of 45 was found"
        ) && first.contains(" of the 3257 parts unfinished"),
        "{stdout}"
    );
    assert_eq!(
        stdout.lines().count(),
        8,
        "the line and a 7×7 maze: {stdout}"
    );
}
