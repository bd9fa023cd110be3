//! `searchlab pegsol …` as a user runs it: replay, board files, counts against OEIS,
//! the strong solver, and clean errors (exit code 2, one line, no panic).

mod common;

use std::io::Write;

fn searchlab(args: &[&str]) -> (i32, String, String) {
    let out = common::run(args, "");
    (out.code, out.stdout, out.stderr)
}

fn board_file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

fn stat(stdout: &str, name: &str) -> u64 {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(name))
        .unwrap_or_else(|| panic!("no {name} in {stdout}"));
    line[name.len()..].trim().parse().unwrap()
}

/// OEIS A112737: positions of the English board after n jumps, up to symmetry.
const A112737: [u64; 13] = [
    1, 1, 2, 8, 39, 171, 719, 2757, 9751, 31312, 89927, 229614, 517854,
];

#[test]
fn count_on_the_english_board_matches_oeis_a112737() {
    let (code, stdout, stderr) = searchlab(&[
        "pegsol",
        "count",
        "--level",
        "4",
        "--csv",
        "--max-jumps",
        "12",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some("jumps,positions,positions_up_to_symmetry")
    );
    let rows: Vec<Vec<u64>> = lines
        .map(|l| l.split(',').map(|f| f.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), A112737.len());
    for (n, row) in rows.iter().enumerate() {
        assert_eq!(row[0], n as u64);
        assert_eq!(row[2], A112737[n], "after {n} jumps");
        // Every orbit has 1 to 8 positions; after one jump all four are distinct.
        assert!(row[1] >= row[2] && row[1] <= 8 * row[2], "{row:?}");
    }
    assert_eq!(rows[1][1], 4);
}

#[test]
fn count_runs_to_the_end_on_a_board_file() {
    // A 21-hole round board with the centre empty: 4 first jumps, all equivalent.
    let f = board_file("-ooo-\nooooo\noo.oo\nooooo\n-ooo-\n");
    let (code, stdout, _) = searchlab(&[
        "pegsol",
        "count",
        "--board",
        f.path().to_str().unwrap(),
        "--csv",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[1], "0,1,1");
    assert_eq!(lines[2], "1,4,1");
    let (_, table, _) = searchlab(&["pegsol", "count", "--board", f.path().to_str().unwrap()]);
    assert!(table.contains("20 pegs, 21 holes, 8 symmetries"), "{table}");
    let rows: Vec<Vec<u64>> = lines[1..]
        .iter()
        .map(|l| l.split(',').map(|f| f.parse().unwrap()).collect())
        .collect();
    let last = rows.last().unwrap();
    assert!(last[1] > 0 && rows.len() <= 20, "{rows:?}");
    assert!(table.lines().last().unwrap().starts_with("total"));
}

#[test]
fn play_solution_prints_each_board_when_piped() {
    let (code, stdout, _) = searchlab(&[
        "pegsol",
        "solve",
        "--level",
        "2",
        "--play-solution",
        "--delay-ms",
        "0",
    ]);
    assert_eq!(code, 0);
    let length = stat(&stdout, "Solution Length:");
    assert_eq!(length, 6);
    assert_eq!(stdout.matches("Jump ").count() as u64, length);
    assert!(stdout.starts_with("Start (7 pegs)\n"));
    assert!(stdout.contains(&format!("Jump {length}/{length}: ")));
    assert!(stdout.contains("(1 peg)\n"));
}

#[test]
fn strong_solver_proves_one_peg_on_the_english_board() {
    let (code, stdout, stderr) =
        searchlab(&["pegsol", "solve", "--level", "4", "--solver", "strong"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stat(&stdout, "Number of Pegs Left:"), 1);
    assert_eq!(stat(&stdout, "Solution Length:"), 31);
    assert!(stdout.contains("Fewest pegs proved"), "{stdout}");
}

#[test]
fn strong_solver_proves_a_minimum_above_one() {
    // o o . o o on a line of 5 and a lone peg: the best is 2 pegs, and it must prove it.
    let f = board_file("oo.oo\n-----\n----o\n");
    let (code, stdout, _) = searchlab(&[
        "pegsol",
        "solve",
        "--board",
        f.path().to_str().unwrap(),
        "--solver",
        "strong",
    ]);
    assert_eq!(code, 0);
    assert_eq!(stat(&stdout, "Number of Pegs Left:"), 3);
    assert!(
        stdout.contains("Fewest pegs proved: no sequence of jumps leaves fewer than 3 pegs"),
        "{stdout}"
    );
    // The seed's search agrees on this tiny board.
    let (_, seed_out, _) = searchlab(&["pegsol", "solve", "--board", f.path().to_str().unwrap()]);
    assert_eq!(stat(&seed_out, "Number of Pegs Left:"), 3);
}

#[test]
fn levels_lists_all_nine_boards() {
    let (code, stdout, _) = searchlab(&["pegsol", "levels"]);
    assert_eq!(code, 0);
    assert_eq!(stdout.matches("level ").count(), 9);
    assert!(stdout.contains("level 4: 32 pegs, 33 holes"));
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    let ragged = board_file("ooo\noo\n");
    let unknown = board_file("oxo\n");
    let empty = board_file("...\n");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["solve".into(), "--level".into(), "9".into()],
            "unknown level 9 (levels are 0 to 8)",
        ),
        (
            vec!["count".into(), "--level".into(), "-1".into()],
            "unknown level -1",
        ),
        (
            vec![
                "solve".into(),
                "--level".into(),
                "1".into(),
                "--budget".into(),
                "0".into(),
            ],
            "--budget 0 is below 1",
        ),
        (
            vec![
                "solve".into(),
                "--board".into(),
                "/nonexistent/b.txt".into(),
            ],
            "/nonexistent/b.txt: cannot read the board file",
        ),
        (
            vec![
                "solve".into(),
                "--board".into(),
                ragged.path().display().to_string(),
            ],
            "line 2: row has 2 columns but the first row has 3",
        ),
        (
            vec![
                "play".into(),
                "--board".into(),
                unknown.path().display().to_string(),
            ],
            "line 1, column 2: unknown character 'x'",
        ),
        (
            vec![
                "count".into(),
                "--board".into(),
                empty.path().display().to_string(),
            ],
            "the board has no pegs",
        ),
        (
            vec!["solve".into()],
            "give a board: --level 0..8 or --board FILE",
        ),
    ];
    for (args, want) in cases {
        let mut all = vec!["pegsol".to_string()];
        all.extend(args.iter().cloned());
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let (code, stdout, stderr) = searchlab(&refs);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("searchlab: ") && stderr.contains(want),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"));
    }
}

#[test]
fn play_without_a_terminal_is_refused_cleanly() {
    let (code, _, stderr) = searchlab(&["pegsol", "play", "--level", "0"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("needs a terminal"), "{stderr}");
}
