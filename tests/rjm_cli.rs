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

#[test]
fn exact_proves_the_longest_paths_of_small_sizes() {
    let four = run(&["rjm", "exact", "--size", "4"], "");
    assert_eq!(four.code, 0, "{}", four.stderr);
    let first = four.stdout.lines().next().unwrap();
    assert!(
        first.starts_with(
            "4x4: the longest shortest path is 12 moves, reached by 2 of the 2,834,352 mazes (proved by exhaustive search"
        ),
        "{first}"
    );
    // One of them, printed as a grid of jumps.
    assert_eq!(four.stdout.lines().count(), 5);
    let five = run(&["rjm", "exact", "--size", "5"], "");
    assert!(
        five.stdout.starts_with(
            "5x5: the longest shortest path is 21 moves, reached by 34 of the 14,089,640,214,528 mazes"
        ),
        "{}",
        five.stdout
    );
    // A time limit too short to finish gives a bound, never a proof.
    let seven = run(&["rjm", "exact", "--size", "8", "--seconds", "0.2"], "");
    assert_eq!(seven.code, 0, "{}", seven.stderr);
    assert!(
        seven
            .stdout
            .starts_with("8x8: the longest shortest path is 60 to "),
        "{}",
        seven.stdout
    );
    for bad in [
        &["rjm", "exact", "--size", "2"][..],
        &["rjm", "exact", "--size", "11"],
        &["rjm", "exact", "--size", "5", "--seconds", "0"],
        &["rjm", "exact", "--size", "5", "--seconds", "nan"],
    ] {
        assert_user_error(&run(bad, ""), "");
    }
}

#[test]
fn exact_stopped_by_ctrl_c_prints_what_it_proved() {
    // 7×7 does not finish in minutes; Ctrl-C (SIGINT) ends it as a time limit would:
    // the interval it proved and a maze of the longest length found, exit code 0.
    use std::process::{Command, Stdio};
    let child = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(["rjm", "exact", "--size", "7"])
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
        stderr.starts_with("searchlab: stopping: the search ends and prints what it proved"),
        "{stderr}"
    );
    let first = stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("7x7: the longest shortest path is 45 to ")
            && first.contains("(search stopped after "),
        "{stdout}"
    );
    assert_eq!(
        stdout.lines().count(),
        8,
        "the line and a 7×7 maze: {stdout}"
    );
}
