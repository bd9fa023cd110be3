//! `searchlab tiles` as a user meets it: bad input gives one line on stderr and exit
//! code 2 (never a panic); `census` prints the 8-puzzle's published table; Ctrl-C ends a
//! long search with one line and exit code 130.

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
        &run(&["batch", "--set", "assignment", "--ids", "5"]),
        "instance 5 is not in the assignment set",
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

#[test]
fn pdb_solve_builds_then_loads_the_cache_and_rebuilds_a_corrupted_table() {
    // The 8-puzzle's two 31-move states with a 4-4 partition; the tables go to a fresh
    // cache folder on the first solve and are loaded on the second.
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().to_str().unwrap();
    let args = ["--pdb", "1,2,3,4/5,6,7,8", "--cache", cache];
    for _ in 0..2 {
        let out = solve_text("8 6 7 2 5 4 3 0 1", &args);
        assert!(out.stdout.contains("Solution = 31"), "{}", out.stdout);
        assert!(
            out.stdout.contains("Initial Estimate = 29"),
            "{}",
            out.stdout
        );
    }
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 2);
    let mut bytes = std::fs::read(&files[0]).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&files[0], &bytes).unwrap();
    let out = solve_text("8 6 7 2 5 4 3 0 1", &[&args[..], &["--parallel"]].concat());
    assert!(out.stdout.contains("Solution = 31"), "{}", out.stdout);
    assert!(out.stderr.contains("checksum mismatch"), "{}", out.stderr);
    let out = run(&[
        "pdb",
        "build",
        "--partition",
        "1,2,3,4/5,6,7,8",
        "--cache",
        cache,
    ]);
    assert!(
        out.stdout.contains("loaded from the cache"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("tiles [1, 2, 3, 4]: 3,024 entries"),
        "{}",
        out.stdout
    );
    assert_user_error(
        &solve_text("8 6 7 2 5 4 3 0 1", &["--pdb", "1,2/2,3"]),
        "two groups",
    );
}

#[test]
fn pdb_heuristic_names_work_with_solve_and_batch() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("pdb");
    let cache = cache.to_str().unwrap();
    // `--heuristic pdb:PARTITION` is `--pdb PARTITION`: the 8-puzzle's 31-move state.
    let out = solve_text(
        "8 6 7 2 5 4 3 0 1",
        &["--heuristic", "pdb:1,2,3,4/5,6,7,8", "--cache", cache],
    );
    assert!(out.stdout.contains("Solution = 31"), "{}", out.stderr);
    assert!(
        out.stdout.contains("Initial Estimate = 29"),
        "{}",
        out.stdout
    );
    assert_user_error(
        &solve_text(
            "8 6 7 2 5 4 3 0 1",
            &["--heuristic", "pdb:7-8", "--cache", cache],
        ),
        "partition 7-8 is for the 4x4 board",
    );
    assert_user_error(
        &solve_text(
            "8 6 7 2 5 4 3 0 1",
            &["--heuristic", "pdb:1,2/3", "--algorithm", "bfs"],
        ),
        "pattern databases work with --algorithm ida",
    );
    let mut f = tempfile::NamedTempFile::new().unwrap();
    writeln!(f, "2 5 1 4 0 6 7 8 3").unwrap();
    assert_user_error(
        &run(&[
            "successors",
            f.path().to_str().unwrap(),
            "--heuristic",
            "pdb:1,2/3",
        ]),
        "tiles successors takes manhattan",
    );
    assert_eq!(
        solve_text("1 2 3 4 5 6 7 8 0", &["--heuristic", "pdb:"]).code,
        2
    );
    // The batch runs through the pipeline's tiles/ida with the named partition: the 15-puzzle
    // assignment's instance 2 (optimal 55 moves) with 5-5-5, the tables built into --cache.
    let out_dir = dir.path().join("out");
    let out = run(&[
        "batch",
        "--set",
        "assignment",
        "--ids",
        "2",
        "--heuristic",
        "manhattan,pdb:5-5-5,pdb:1,2,3/4,5,6,7",
        "--cache",
        cache,
        "--out",
        out_dir.to_str().unwrap(),
        "--csv",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().skip(1).collect();
    let rows: Vec<Vec<&str>> = lines.iter().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 3, "{}", out.stdout);
    assert_eq!(
        (rows[0][2], rows[0][5], rows[0][7]),
        ("manhattan", "55", "15300442")
    );
    assert_eq!((rows[1][2], rows[1][5]), ("pdb:5-5-5", "55"));
    let pdb_nodes: u64 = rows[1][7].parse().unwrap();
    assert!(pdb_nodes < 15_300_442 / 10, "{pdb_nodes}");
    let h0: u32 = rows[1][3].parse().unwrap();
    assert!((43..=55).contains(&h0), "{h0}");
    // A custom partition, its name quoted in the CSV: optimal, and fewer nodes than
    // Manhattan distance (tiles 8 to 15 count their Manhattan distance).
    let custom = lines[2]
        .strip_prefix("assignment,2,\"pdb:1,2,3/4,5,6,7\",")
        .unwrap_or_else(|| panic!("{}", lines[2]));
    let fields: Vec<&str> = custom.split(',').collect();
    assert_eq!(fields[2], "55", "{custom}");
    let custom_nodes: u64 = fields[4].parse().unwrap();
    assert!(
        custom_nodes < 15_300_442 && custom_nodes > pdb_nodes,
        "{custom_nodes}"
    );
    let tables = std::fs::read_dir(dir.path().join("pdb")).unwrap().count();
    assert_eq!(
        tables,
        3 + 2 + 2,
        "5-5-5's three tables, the 3-4 pair and the 4-4 pair"
    );
    assert!(
        out.stderr
            .contains("building the pattern database of tiles"),
        "{}",
        out.stderr
    );
    // Names are split at the commas between names, not inside a partition.
    assert_user_error(
        &run(&[
            "batch",
            "--heuristic",
            "manhattan,pdb:1,2/2",
            "--out",
            out_dir.to_str().unwrap(),
        ]),
        "tile 2 is in two groups",
    );
    assert_user_error(
        &run(&[
            "batch",
            "--heuristic",
            "pdb:1-2",
            "--out",
            out_dir.to_str().unwrap(),
        ]),
        "\"1-2\" is not a tile number",
    );
    assert_user_error(
        &run(&[
            "batch",
            "--heuristic",
            "pdb:1,2/30",
            "--out",
            out_dir.to_str().unwrap(),
        ]),
        "tile 30 is not on the 4x4 board",
    );
}

/// Runs `searchlab tiles <args…>` in `dir` with `SEARCHLAB_PDB_CACHE` set to `cache`
/// (removed when `None`).
fn run_env(dir: &std::path::Path, args: &[&str], cache: Option<&std::path::Path>) -> Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_searchlab"));
    cmd.arg("tiles").args(args).current_dir(dir);
    match cache {
        Some(c) => cmd.env("SEARCHLAB_PDB_CACHE", c),
        None => cmd.env_remove("SEARCHLAB_PDB_CACHE"),
    };
    let out = cmd.output().expect("the binary runs");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The files of a folder, sorted.
fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn the_pdb_cache_follows_out_and_the_environment() {
    // `tiles solve` puts its tables in <out>/pdb, or where SEARCHLAB_PDB_CACHE says, as
    // pipeline runs do; `--cache` wins over both.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("eight.txt"), "8 6 7 2 5 4 3 0 1\n").unwrap();
    let pdb = ["solve", "eight.txt", "--heuristic", "pdb:1,2,3,4/5,6,7,8"];
    let out = run_env(d, &[&pdb[..], &["--out", "mine"]].concat(), None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("Solution = 31"), "{}", out.stdout);
    assert_eq!(files_in(&d.join("mine/pdb")).len(), 2);
    assert!(!d.join("outputs").exists(), "nothing in the default folder");
    let env = d.join("from-env");
    let out = run_env(d, &pdb, Some(&env));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(files_in(&env).len(), 2, "SEARCHLAB_PDB_CACHE is honoured");
    assert!(!d.join("outputs").exists());
    let out = run_env(d, &[&pdb[..], &["--cache", "flag"]].concat(), Some(&env));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(files_in(&d.join("flag")).len(), 2, "--cache wins");
    let out = run_env(
        d,
        &["pdb", "build", "--partition", "5-5-5", "--out", "b"],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(files_in(&d.join("b/pdb")).len(), 3);
}

#[test]
fn a_pdb_cache_that_is_a_file_or_device_is_refused_before_any_build() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("eight.txt"), "8 6 7 2 5 4 3 0 1\n").unwrap();
    std::fs::write(d.join("a-file"), "x").unwrap();
    let pdb = ["solve", "eight.txt", "--heuristic", "pdb:1,2,3,4/5,6,7,8"];
    for (flag, env, named) in [
        (Some("a-file"), None, "a-file"),
        (Some("a-file/sub"), None, "a-file"),
        (None, Some(std::path::Path::new("/dev/null")), "/dev/null"),
    ] {
        let mut args = pdb.to_vec();
        if let Some(f) = flag {
            args.extend(["--cache", f]);
        }
        let out = run_env(d, &args, env);
        common::assert_user_error(&out, "is not a folder");
        assert!(out.stderr.contains(named), "{}", out.stderr);
        assert!(
            out.stderr.contains("--cache"),
            "says what to do: {}",
            out.stderr
        );
        assert!(!out.stderr.contains("building"), "no table was built first");
    }
    // The 24-puzzle's 6-6-6-6 tables would take many minutes: refused at once.
    let out = run_env(
        d,
        &[
            "pdb",
            "build",
            "--partition",
            "6-6-6-6",
            "--cache",
            "/dev/null",
        ],
        None,
    );
    common::assert_user_error(&out, "/dev/null");
}

#[test]
fn a_fifo_where_a_pdb_file_is_expected_is_refused_not_opened() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("eight.txt"), "8 6 7 2 5 4 3 0 1\n").unwrap();
    let pdb = ["solve", "eight.txt", "--heuristic", "pdb:1,2,3,4/5,6,7,8"];
    let out = run_env(d, &[&pdb[..], &["--cache", "c"]].concat(), None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let files = files_in(&d.join("c"));
    let victim = d.join("c").join(&files[0]);
    std::fs::remove_file(&victim).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&victim)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    // Opening the FIFO would block for ever; the check refuses it at once.
    let started = std::time::Instant::now();
    let out = run_env(d, &[&pdb[..], &["--cache", "c"]].concat(), None);
    common::assert_user_error(&out, "is not a regular file");
    assert!(out.stderr.contains(&files[0]), "{}", out.stderr);
    assert!(started.elapsed().as_secs() < 60);
}

/// The number after `label = ` in `tiles solve`'s block.
fn count(out: &Output, label: &str) -> u64 {
    let line = out
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{label} = ")))
        .unwrap_or_else(|| panic!("no {label} in {}", out.stdout));
    line.replace(',', "").trim().parse().unwrap()
}

#[test]
fn the_finite_state_machine_prunes_duplicates_and_keeps_the_optimal_length() {
    // The 8-puzzle's two hardest states (31 moves): with Manhattan distance and with a
    // pattern database, the machine finds 31 moves too, with fewer generated nodes.
    for state in ["8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"] {
        for h in [
            &["--heuristic", "manhattan"][..],
            &["--pdb", "1,2,3,4/5,6,7,8"],
        ] {
            let dir = tempfile::tempdir().unwrap();
            let cache = ["--cache", dir.path().to_str().unwrap()];
            let plain = solve_text(state, &[h, &cache[..]].concat());
            let fsm = solve_text(state, &[h, &cache[..], &["--pruning", "fsm"]].concat());
            assert_eq!(count(&plain, "Solution"), 31, "{}", plain.stderr);
            assert_eq!(count(&fsm, "Solution"), 31, "{}", fsm.stderr);
            let (p, f) = (count(&plain, "Generated"), count(&fsm, "Generated"));
            assert!(f < p, "{state} {h:?}: {f} of {p}");
        }
    }
    assert_user_error(
        &solve_text(
            "8 6 7 2 5 4 3 0 1",
            &["--pruning", "fsm", "--heuristic", "linear"],
        ),
        "--pruning fsm works with --heuristic manhattan or pattern databases, not linear",
    );
    // A shallower machine prunes fewer duplicates: more nodes, the same length.
    let state = "8 6 7 2 5 4 3 0 1";
    let manhattan = ["--heuristic", "manhattan", "--pruning", "fsm"];
    let deep = solve_text(state, &manhattan);
    let shallow = solve_text(state, &[&manhattan[..], &["--fsm-depth", "6"]].concat());
    assert_eq!(count(&shallow, "Solution"), 31, "{}", shallow.stderr);
    assert!(count(&shallow, "Generated") > count(&deep, "Generated"));
    assert_user_error(
        &solve_text(state, &["--heuristic", "manhattan", "--fsm-depth", "8"]),
        "--fsm-depth works with --pruning fsm",
    );
    assert_user_error(
        &solve_text(state, &[&manhattan[..], &["--fsm-depth", "19"]].concat()),
        "19 is not in 2..=18",
    );
    assert_user_error(
        &solve_text("8 6 7 2 5 4 3 0 1", &["--pruning", "all"]),
        "\"all\" is not a pruning: parent, fsm",
    );
}

#[test]
fn ctrl_c_stops_a_long_solve_with_what_it_had_done() {
    // Korf's instance 88 (65 moves) takes IDA* with Manhattan distance billions of nodes;
    // Ctrl-C ends it within a second: exit code 130 and one line, serial and parallel.
    let mut f = tempfile::NamedTempFile::new().unwrap();
    writeln!(f, "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4").unwrap();
    for extra in [&[][..], &["--pruning", "fsm", "--parallel"]] {
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_searchlab"))
            .args(["tiles", "solve", f.path().to_str().unwrap()])
            .args(extra)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(700));
        let started = std::time::Instant::now();
        let out = common::signal(child, "-INT");
        assert!(started.elapsed().as_secs_f64() < 5.0, "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{extra:?}: {err}");
        assert!(out.stdout.is_empty(), "{extra:?}");
        let last = err.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("searchlab: interrupted: IDA* stopped in its iteration at threshold ")
                && last.ends_with(" generated nodes"),
            "{extra:?}: {err}"
        );
    }
}
