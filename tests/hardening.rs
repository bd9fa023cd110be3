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
        r.stderr.contains(
            "runs.jsonl: set aside 1 damaged line (line 1: not UTF-8 text) in runs.rejected.jsonl"
        ),
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

// Issue 19: a second pass.

/// Runs `searchlab merge` on `dirs`.
fn merge(dirs: &[&Path]) -> Output {
    let mut args = vec!["merge"];
    args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
    run_in(Some(root()), &args, "")
}

/// Runs the binary with its standard output on `/dev/full`.
fn to_dev_full(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::new(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn issue19_repeated_list_values_are_refused_and_long_axes_check_at_once() {
    let out = tempfile::tempdir().unwrap();
    let r = run_config(
        "quickstart",
        out.path(),
        &[],
        &["sweep.decay=[0.99, 0.990]"],
    );
    assert_user_error(
        &r,
        "sweep.decay: \"0.99\" is in the list twice (values 1 and 2)",
    );
    let r = run_config("quickstart", out.path(), &[], &["sweep.size=[5, 6, 5.0]"]);
    assert_user_error(&r, "is in the list twice (values 1 and 3)");
    // 10^10 runs: refused before either axis of 100,000 values costs anything.
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
    assert_user_error(&r, "more than the 1000000 one experiment may have");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    // An axis of 100,000 values (the cap) is checked and planned in linear time: the run
    // stops at its lock (a folder here), after the whole plan was checked.
    std::fs::create_dir_all(out.path().join("quickstart/run.lock")).unwrap();
    let started = Instant::now();
    let r = run_config(
        "quickstart",
        out.path(),
        &[],
        &[
            "replicates.count=1",
            "sweep.initial_temperature=[1]",
            "sweep.decay={ start = 0.000001, stop = 0.1, num = 100000 }",
        ],
    );
    assert_user_error(&r, "run.lock: the lock file is a folder");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn issue19_merge_keeps_a_last_record_without_its_newline() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    assert_eq!(
        run_config("quickstart", a.path(), &["--quiet"], SMALL).code,
        0
    );
    assert_eq!(
        run_config("quickstart", b.path(), &["--quiet"], SMALL).code,
        0
    );
    let journal = a.path().join("quickstart/runs.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    // A's journal lacks its first run, and its last record has no final newline.
    let rest = text.split_once('\n').unwrap().1.trim_end_matches('\n');
    std::fs::write(&journal, rest).unwrap();
    let r = merge(&[&a.path().join("quickstart"), &b.path().join("quickstart")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let after = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(after.lines().count(), 24, "{after}");
    assert!(after.ends_with('\n'));
    let again = run_config("quickstart", a.path(), &[], SMALL);
    assert!(
        again.stdout.contains("(0 computed, 24 reused)"),
        "{}",
        again.stdout
    );
}

#[test]
fn issue19_conflicting_records_of_a_run_are_an_error_naming_both() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    assert_eq!(
        run_config("quickstart", a.path(), &["--quiet"], SMALL).code,
        0
    );
    assert_eq!(
        run_config("quickstart", b.path(), &["--quiet"], SMALL).code,
        0
    );
    let journal = a.path().join("quickstart/runs.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let first = text.lines().next().unwrap();
    let changed = first.replacen("[\"best_path_length\",", "[\"best_path_length\",1000", 1);
    assert_ne!(changed, first);
    // The same run twice in one journal, with another value: both lines named.
    std::fs::write(&journal, format!("{text}{changed}\n")).unwrap();
    let r = run_config("quickstart", a.path(), &["--quiet"], SMALL);
    assert_user_error(&r, "runs.jsonl: lines 1 and 25 record run");
    assert!(
        r.stderr
            .contains("different values of \"best_path_length\""),
        "{}",
        r.stderr
    );
    // The same again with only a timing column changed is the same record.
    let timing = regex_free_timing(first);
    std::fs::write(&journal, format!("{text}{timing}\n")).unwrap();
    let r = run_config("quickstart", a.path(), &["--quiet"], SMALL);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Across folders: both journals named.
    let rest = text.split_once('\n').unwrap().1;
    std::fs::write(&journal, format!("{rest}{changed}\n")).unwrap();
    let r = merge(&[&a.path().join("quickstart"), &b.path().join("quickstart")]);
    assert_user_error(&r, "record run");
    let (ja, jb) = (
        a.path().join("quickstart/runs.jsonl"),
        b.path().join("quickstart/runs.jsonl"),
    );
    assert!(
        r.stderr
            .contains(&format!("{} and {}", ja.display(), jb.display())),
        "{}",
        r.stderr
    );
}

/// A journal line with its first timing value (`…_seconds`) changed.
fn regex_free_timing(line: &str) -> String {
    let at = line.find("_seconds\",").expect("a timing column") + "_seconds\",".len();
    let end = at + line[at..].find(']').unwrap();
    format!("{}12345.5{}", &line[..at], &line[end..])
}

#[test]
fn issue19_lock_files_and_journals_that_are_not_files_are_named() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("quickstart");
    std::fs::create_dir_all(&dir).unwrap();
    let lock = dir.join("run.lock");
    let status = Command::new("mkfifo").arg(&lock).status().unwrap();
    assert!(status.success());
    let r = run_config("quickstart", out.path(), &["--quiet"], SMALL);
    assert_user_error(&r, "run.lock: the lock file is a FIFO or a device");
    std::fs::remove_file(&lock).unwrap();
    let target = out.path().join("elsewhere");
    std::os::unix::fs::symlink(&target, &lock).unwrap();
    let r = run_config("quickstart", out.path(), &["--quiet"], SMALL);
    assert_user_error(&r, "run.lock: the lock file is a symlink");
    assert!(!target.exists(), "nothing written through the symlink");
    std::fs::remove_file(&lock).unwrap();
    std::fs::create_dir(&lock).unwrap();
    let r = run_config("quickstart", out.path(), &["--quiet"], SMALL);
    assert_user_error(&r, "run.lock: the lock file is a folder");
    std::fs::remove_dir(&lock).unwrap();
    std::fs::create_dir(dir.join("runs.jsonl")).unwrap();
    let r = run_config("quickstart", out.path(), &["--quiet"], SMALL);
    assert_user_error(
        &r,
        "runs.jsonl: the journal is a folder, not a regular file",
    );
}

#[test]
fn issue19_out_as_a_dangling_symlink_or_a_loop_is_named() {
    let base = tempfile::tempdir().unwrap();
    let dangling = base.path().join("dangling");
    std::os::unix::fs::symlink(base.path().join("nowhere/x"), &dangling).unwrap();
    let r = run_config("quickstart", &dangling, &["--quiet"], SMALL);
    assert_user_error(&r, "dangling");
    let looped = base.path().join("loop");
    std::os::unix::fs::symlink(&looped, &looped).unwrap();
    let r = run_config("quickstart", &looped, &["--quiet"], SMALL);
    assert_user_error(&r, "the path is a loop of symlinks");
    assert!(r.stderr.contains("loop"), "{}", r.stderr);
}

#[test]
fn issue19_standard_output_on_a_full_device_is_exit_2() {
    for args in [
        &["pegsol", "levels"][..],
        &["tiles", "census", "--csv"],
        &["rjm", "descend", "--seed", "1", "--iterations", "10"],
    ] {
        let r = to_dev_full(args);
        assert_user_error(&r, "standard output: the device is full");
    }
}

#[test]
fn issue19_messages_quote_at_most_about_40_characters() {
    let out = tempfile::tempdir().unwrap();
    let long = format!("params.evaluations={}", "7".repeat(10_000));
    let r = run_config("quickstart", out.path(), &[], &[&long]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.len() < 400, "{}", r.stderr);
    let deep = out.path().join("d".repeat(200)).join("e".repeat(200));
    let long_out = format!("{}/{}", deep.display(), "f/".repeat(2400));
    let r = run_config("quickstart", Path::new(&long_out), &["--quiet"], SMALL);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.len() < 400, "{}", r.stderr);
}

#[test]
fn issue19_an_override_is_one_value_of_its_type() {
    let out = tempfile::tempdir().unwrap();
    let r = run_config(
        "quickstart",
        out.path(),
        &[],
        &["params.evaluations=100\nsize = 9"],
    );
    assert_user_error(&r, "is more than one value");
    for number in ["0x10", "1_0_0", "+100", "0o17", "inf"] {
        let set = format!("params.evaluations={number}");
        let r = run_config("quickstart", out.path(), &[], &[&set]);
        assert_user_error(&r, "is not written plainly");
    }
    assert!(tree(out.path()).is_empty());
}

#[test]
fn issue19_experiments_may_not_take_the_program_s_folders() {
    let out = tempfile::tempdir().unwrap();
    for name in ["report", "slurm", "pdb"] {
        let set = format!("experiment.name={name}");
        let r = run_config("quickstart", out.path(), &[], &[&set]);
        assert_user_error(&r, "is a folder of the program's own");
    }
}

#[test]
fn issue19_a_tuning_is_limited_by_its_whole_possible_size() {
    let out = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let r = run(
        &[
            "tune",
            "rjm_schedules",
            "--out",
            out.path().to_str().unwrap(),
            "--budget",
            "1000000",
            "--train-seeds",
            "1000000",
            "--test-seeds",
            "1000000",
        ],
        "",
    );
    assert_user_error(&r, "more than the 1000000 one experiment may have");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(tree(out.path()).is_empty());
}
