//! `searchlab tiles` as a user meets it: bad input gives one line on stderr and exit
//! code 2 (never a panic); `census` prints the 8-puzzle's published table.

mod common;

use common::Output;
use std::io::Write;

/// Runs `searchlab tiles <args…>`.
fn run(args: &[&str]) -> Output {
    common::run(&[&["tiles"], args].concat(), "")
}

fn solve_text(text: &str, extra: &[&str]) -> Output {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    writeln!(f, "{text}").unwrap();
    let mut args = vec!["solve", f.path().to_str().unwrap()];
    args.extend_from_slice(extra);
    run(&args)
}

/// A user error that prints nothing on stdout.
fn assert_user_error(out: &Output, needle: &str) {
    common::assert_user_error(out, needle);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
}

#[test]
fn bad_instances_are_user_errors() {
    assert_user_error(&solve_text("1 2 3 4 5 6 7 0", &[]), "found 8 numbers");
    assert_user_error(
        &solve_text("1 2 3 4 4 6 7 8 0", &[]),
        "tile 4 appears more than once",
    );
    assert_user_error(&solve_text("1 2 3 4 5 6 7 18 0", &[]), "tile 18");
    assert_user_error(
        &solve_text("1 2 3 4 five 6 7 8 0", &[]),
        "\"five\" is not a tile number",
    );
    assert_user_error(
        &solve_text("1 2 3 4 5 6 8 7 0", &[]),
        "cannot reach the goal",
    );
    assert_user_error(
        &solve_text("0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15", &[]),
        "cannot reach the goal",
    );
    assert_user_error(
        &solve_text("1 2 3 4 5 6 7 8 0", &["--move-order", "UDLX"]),
        "--move-order",
    );
    assert_user_error(
        &solve_text("1 2 3 4 5 6 7 8 0", &["--move-order", "UDL"]),
        "--move-order",
    );
    assert_user_error(
        &solve_text("1 2 3 4 5 6 7 8 0", &["--goal", "1 2 3"]),
        "--goal",
    );
    assert_user_error(&solve_text("1 2 3 4 5 0", &["--width", "6"]), "2 to 5");
    assert_user_error(
        &run(&["solve", "/nonexistent/x.puzzle"]),
        "/nonexistent/x.puzzle: cannot read the instance",
    );
    assert_user_error(&run(&["census", "--width", "4", "--height", "4"]), "limit");
    assert_user_error(
        &run(&["batch", "--set", "seed000", "--ids", "5"]),
        "instance 5 is not in the seed000 set",
    );
    // clap's own usage errors also exit with 2.
    let out = solve_text("1 2 3 4 5 6 7 8 0", &["--heuristic", "nope"]);
    assert_eq!(out.code, 2);
}

#[test]
fn census_of_the_8_puzzle() {
    let out = run(&["census", "--width", "3", "--height", "3", "--csv"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = out.stdout;
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("depth,states"));
    let rows: Vec<(u32, u64)> = lines
        .map(|l| {
            let (d, s) = l.split_once(',').unwrap();
            (d.parse().unwrap(), s.parse().unwrap())
        })
        .collect();
    assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), 181_440);
    assert_eq!(rows.last(), Some(&(31, 2)));
    assert_eq!(rows[..4], [(0, 1), (1, 2), (2, 4), (3, 8)]);
    let table = run(&["census"]).stdout;
    assert!(
        table.contains("181,440") && table.contains("largest distance 31"),
        "{table}"
    );
    // Two blanks: every arrangement is reachable, 9!/2! of them.
    let two = run(&["census", "--blanks", "2"]).stdout;
    assert!(two.contains("total       181,440"), "{two}");
}
