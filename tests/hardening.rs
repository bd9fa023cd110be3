//! Issue 9, as a hostile but realistic user tries it: each numbered defect, through the
//! binary. Names never reach outside `--out`, absurd sizes are refused at once, two
//! runs never share a folder, environment failures and bad bytes are exit 2 with what
//! and where, nonsense is refused, `--jobs` is capped, searches keep to a memory budget,
//! messages say what is wrong, and a closed pipe is a normal end.

mod common;
use common::{Output, assert_user_error, root, run, run_config, run_in};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs the binary with raw bytes on stdin.
fn run_bytes(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // The program may stop reading early (a bounded read): ignore a broken pipe.
    let _ = input.write_all(stdin);
    drop(input);
    let out = child.wait_with_output().unwrap();
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// Every path under `dir`, relative.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            out.push(p.strip_prefix(dir).unwrap().display().to_string());
            if p.is_dir() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

const SMALL: &[&str] = &["replicates.count=2", "params.evaluations=200"];

#[test]
fn item1_names_never_reach_outside_out() {
    let base = tempfile::tempdir().unwrap();
    let out = base.path().join("a/b/out");
    std::fs::create_dir_all(&out).unwrap();
    for name in ["../../escaped_exp", "/tmp/searchlab_abs_x", "", ".hidden"] {
        let mut sets = SMALL.to_vec();
        let set = format!("experiment.name={name}");
        sets.push(&set);
        let r = run_config("quickstart", &out, &[], &sets);
        assert_user_error(&r, "the experiment name");
    }
    let long = format!("experiment.name={}", "n".repeat(100_000));
    let r = run_config("quickstart", &out, &[], &[&long]);
    assert_user_error(&r, "is too long");
    assert!(r.stderr.len() < 400);
    let cfg = std::fs::read_to_string(root().join("configs/quickstart.toml"))
        .unwrap()
        .replace("name = \"heatmap\"", "name = \"../../../../tmp/x\"");
    let path = write(base.path(), "c.toml", &cfg);
    let r = run_in(
        Some(root()),
        &["run", &path, "--out", out.to_str().unwrap()],
        "",
    );
    assert_user_error(&r, "the plot name \"../../../../tmp/x\"");
    assert!(r.stderr.contains("c.toml:"), "{}", r.stderr);
    assert_eq!(tree(base.path()), vec!["a", "a/b", "a/b/out", "c.toml"]);
    assert!(!Path::new("/tmp/searchlab_abs_x").exists());
}

#[test]
fn item2_absurd_plans_are_refused_at_once() {
    let out = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let r = run_config(
        "quickstart",
        out.path(),
        &[],
        &[
            "sweep.initial_temperature={ start = 1, stop = 100000, step = 1 }",
            "sweep.decay={ start = 0.000001, stop = 0.1, num = 100000 }",
        ],
    );
    assert_user_error(&r, "runs");
    assert!(
        r.stderr.contains("more than the 1000000 one"),
        "{}",
        r.stderr
    );
    let r = run_config(
        "quickstart",
        out.path(),
        &[],
        &[
            "replicates.count=1000000",
            "sweep.initial_temperature={ start = 1, stop = 100000, step = 1 }",
        ],
    );
    assert_user_error(&r, "runs");
    // (A list this long is too long for one command-line argument: a config file.)
    let cfg = std::fs::read_to_string(root().join("configs/quickstart.toml"))
        .unwrap()
        .replace(
            "decay = [0.99, 0.999, 0.9999]",
            &format!("decay = [{}]", vec!["0.9"; 200_000].join(",")),
        );
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "long.toml", &cfg);
    let r = run_in(
        Some(root()),
        &["run", &path, "--out", out.path().to_str().unwrap()],
        "",
    );
    assert_user_error(&r, "the list has 200000 values");
    assert!(r.stderr.contains("long.toml:"), "{}", r.stderr);
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(tree(out.path()).is_empty());
}

#[test]
fn item3_a_second_run_on_the_same_folder_stops_naming_the_first() {
    let out = tempfile::tempdir().unwrap();
    let path = root().join("configs/quickstart.toml");
    let mut first = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args([
            "run",
            path.to_str().unwrap(),
            "--out",
            out.path().to_str().unwrap(),
            "--quiet",
            "--jobs",
            "1",
            "--set",
            "params.evaluations=1000000",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lock = out.path().join("quickstart/run.lock");
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::fs::read_to_string(&lock).map_or(true, |t| t.trim().is_empty()) {
        assert!(Instant::now() < deadline, "the first run never locked");
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = run_config("quickstart", out.path(), &["--quiet"], &[]);
    first.kill().unwrap();
    first.wait().unwrap();
    assert_user_error(&second, "run.lock");
    assert!(
        second.stderr.contains(&format!("process {}", first.id())),
        "{}",
        second.stderr
    );
    // Once the first is gone, the folder is free again.
    let again = run_config("quickstart", out.path(), &["--quiet"], SMALL);
    assert_eq!(again.code, 0, "{}", again.stderr);
}

#[test]
fn item6_bad_bytes_and_environment_failures_exit_2_with_what_and_where() {
    let r = run_bytes(&["rjm", "descend", "--seed", "1"], b"\xff\xfe\n");
    assert_user_error(
        &r,
        "answer to \"Iterations?\": the answer is not UTF-8 text",
    );
    let base = tempfile::tempdir().unwrap();
    let file = write(base.path(), "plain", "x");
    let r = run_config(
        "quickstart",
        &Path::new(&file).join("sub"),
        &["--quiet"],
        SMALL,
    );
    assert_user_error(&r, "a part of the path is a file, not a folder");
    assert!(r.stderr.contains("plain/sub"), "{}", r.stderr);
    // A non-UTF-8 line in the journal is skipped with a warning; the run resumes.
    let out = tempfile::tempdir().unwrap();
    assert_eq!(
        run_config("quickstart", out.path(), &["--quiet"], SMALL).code,
        0
    );
    let journal = out.path().join("quickstart/runs.jsonl");
    let text = std::fs::read(&journal).unwrap();
    let first_end = text.iter().position(|&b| b == b'\n').unwrap() + 1;
    let mut damaged = b"\xff\xfe\xfd not a record\n".to_vec();
    damaged.extend_from_slice(&text[first_end..]);
    std::fs::write(&journal, damaged).unwrap();
    let r = run_config("quickstart", out.path(), &["--quiet"], SMALL);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("runs.jsonl: skipped 1 damaged line(s) (line 1)"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("(1 computed, 23 reused)"), "{}", r.stdout);
}

#[test]
fn item7_nonsense_is_refused() {
    let r = run(&["tiles", "batch", "--ids", "1,,2"], "");
    assert_user_error(&r, "an empty item");
    let r = run(&["pegsol", "solve", "--level", "2", "--budget", "1,,0"], "");
    assert_user_error(&r, "not a whole number");
    let r = run_bytes(&["tiles", "solve", "-"], b"1 +2 3\n4 5 6\n7 8 0\n");
    assert_user_error(&r, "\"+2\" is not a tile number");
    let r = run(
        &[
            "rjm",
            "anneal",
            "--seed",
            "1",
            "--iterations",
            "5",
            "--decay",
            "0.9",
        ],
        "1e20\n",
    );
    assert_user_error(&r, "at most 1000000000000");
    let r = run(
        &[
            "rjm",
            "descend",
            "--seed",
            "1",
            "--iterations",
            "18446744073709551615",
        ],
        "",
    );
    assert_user_error(&r, "1000000000");
    // A record whose metric has the wrong type is not a result: it is recomputed.
    let out = tempfile::tempdir().unwrap();
    assert_eq!(
        run_config("quickstart", out.path(), &["--quiet"], SMALL).code,
        0
    );
    let journal = out.path().join("quickstart/runs.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let bad = text.replacen(
        "[\"best_path_length\",",
        "[\"best_path_length\",\"oops\"],[\"was\",",
        1,
    );
    assert_ne!(bad, text);
    std::fs::write(&journal, bad).unwrap();
    let r = run_config("quickstart", out.path(), &["--quiet"], SMALL);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("(1 computed"), "{}", r.stdout);
    let results = std::fs::read_to_string(out.path().join("quickstart/results.csv")).unwrap();
    assert!(!results.contains("oops"));
}

#[test]
fn item8_jobs_are_capped_with_a_note() {
    let out = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let r = run_config(
        "quickstart",
        out.path(),
        &["--jobs", "100000", "--quiet"],
        SMALL,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("--jobs 100000 is more than"),
        "{}",
        r.stderr
    );
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn item9_searches_keep_to_their_memory_budget_and_inputs_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let fifteen = write(
        dir.path(),
        "i.txt",
        "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n",
    );
    for algorithm in ["bfs", "dfs", "astar"] {
        let started = Instant::now();
        let r = run(
            &[
                "tiles",
                "solve",
                "--algorithm",
                algorithm,
                "--memory-limit",
                "32M",
                &fifteen,
            ],
            "",
        );
        assert_user_error(&r, "memory limit of 32 MiB");
        assert!(started.elapsed() < Duration::from_secs(20), "{algorithm}");
    }
    let r = run(
        &[
            "pegsol",
            "count",
            "--level",
            "5",
            "--memory-limit",
            "16M",
            "--csv",
        ],
        "",
    );
    assert_user_error(&r, "memory limit of 16 MiB");
    let r = run(&["tiles", "solve", "--memory-limit", "lots", &fifteen], "");
    assert_user_error(&r, "not a memory size");
    let r = run(&["run", "/dev/zero"], "");
    assert_user_error(&r, "/dev/zero: the config is larger than 16 MiB");
    let r = run(&["tiles", "solve", "/dev/zero"], "");
    assert_user_error(&r, "larger than 16 MiB");
    let r = run(&["pegsol", "solve", "--board", "/dev/zero"], "");
    assert_user_error(&r, "larger than 16 MiB");
    let r = run(&["rjm", "evaluate", "--maze", "/dev/zero"], "");
    assert_user_error(&r, "larger than 16 MiB");
}

#[test]
fn item10_messages_say_what_is_wrong_and_quote_little() {
    let r = run(
        &[
            "tiles", "census", "--width", "5", "--height", "5", "--blanks", "20",
        ],
        "",
    );
    assert_user_error(&r, "at most 16 cells");
    let r = run(&["tiles", "solve", "--width", "0", "/dev/null"], "");
    assert_user_error(&r, "--width 0 is outside 2-5");
    let r = run(&["rjm", "descend", "--seed", "1"], "99999999999999999999\n");
    assert_user_error(
        &r,
        "out of range for iterations (an integer from 1 to 1000000000)",
    );
    let r = run(
        &["rjm", "descend", "--seed", "1"],
        &format!("{}\n", "9".repeat(60)),
    );
    assert_user_error(&r, "is too large for iterations");
    let huge = vec![b'7'; 64 << 20];
    let r = run_bytes(&["rjm", "descend", "--seed", "1"], &huge);
    assert_user_error(&r, "longer than 4096 bytes");
    assert!(r.stderr.len() < 200, "{}", r.stderr.len());
    let out = tempfile::tempdir().unwrap();
    let r = run_config("quickstart", out.path(), &[], &["sweep.decay=[0.9,"]);
    assert_user_error(&r, "is not valid TOML");
    for range in [
        "sweep.decay={ start = 0.9, stop = 0.99, step = 1e-300 }",
        "sweep.decay={ start = 0.9, stop = inf, step = 0.1 }",
        "sweep.size={ start = -9223372036854775808, stop = 9223372036854775807, step = 1 }",
    ] {
        let r = run_config("quickstart", out.path(), &[], &[range]);
        assert_eq!(r.code, 2, "{range}: {}", r.stderr);
        assert!(!r.stderr.contains("no values"), "{range}: {}", r.stderr);
    }
}

#[test]
fn item11_a_closed_pipe_is_a_normal_end() {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(["pegsol", "levels"])
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn item11_the_printed_board_reads_back() {
    let levels = run(&["pegsol", "levels"], "").stdout;
    let block: String = levels
        .split("\n\n")
        .find(|b| b.starts_with("level 4:"))
        .unwrap()
        .to_string();
    let dir = tempfile::tempdir().unwrap();
    let board = write(dir.path(), "board.txt", &block);
    let from_file = run(
        &["pegsol", "solve", "--board", &board, "--budget", "1000"],
        "",
    );
    let from_level = run(&["pegsol", "solve", "--level", "4", "--budget", "1000"], "");
    assert_eq!(from_file.code, 0, "{}", from_file.stderr);
    let strip = |s: &str| -> String {
        s.lines()
            .filter(|l| !l.starts_with("Time") && !l.starts_with("Expanded/"))
            .collect()
    };
    assert_eq!(strip(&from_file.stdout), strip(&from_level.stdout));
}
