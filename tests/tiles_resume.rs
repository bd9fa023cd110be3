//! A long IDA* run survives being killed (issue 21 §2): completed iterations are
//! checkpoints in the journal's checkpoint log (at most one every tenth of a second), and
//! the same command run again resumes at the next threshold and writes the same results
//! (timing columns aside) as a run never interrupted, serial or searched on all threads.
//! Ctrl-C (SIGINT) stops it cleanly: exit code 130, one line saying what was kept, and
//! the same resumption.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Korf's instance 1 with Manhattan distance: 276 million nodes over ten iterations
/// (thresholds 41 to 57), a few seconds.
const CONFIG: &str = r#"
[experiment]
name = "resume"
description = "IDA* resumed after a kill"
domain = "tiles"
algorithm = "ida"

[params]
instance_set = "korf100"
instance = 1
heuristic = "manhattan"
move_order = "ULRD"
"#;

fn searchlab(config: &Path, out: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_searchlab"));
    cmd.args([
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ])
    .stdin(Stdio::null())
    .stdout(Stdio::null())
    .stderr(Stdio::null());
    cmd
}

/// The non-empty lines of a file (none when it is missing).
fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// The `next` threshold of each checkpoint line.
fn nexts(log: &Path) -> Vec<u64> {
    lines(log)
        .iter()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            v["state"]["next"].as_u64().expect("a next threshold")
        })
        .collect()
}

/// How a run is stopped mid-search.
#[derive(Clone, Copy, PartialEq)]
enum Stop {
    /// SIGKILL: the process ends at once, its last checkpoint where it was.
    Kill,
    /// SIGINT (Ctrl-C): the search stops at its next poll, the process exits with code
    /// 130 and one line saying what it kept.
    Interrupt,
}

/// Runs `config` (experiment `resume`) once whole and once stopped mid-search and run
/// again: the second resumes at its next threshold with the same results (timing
/// columns aside). Returns the results' rows.
fn killed_and_resumed(config: &str, stop: Stop) -> Vec<std::collections::HashMap<String, String>> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("resume.toml");
    std::fs::write(&path, config).unwrap();
    let config = path;
    let (whole, cut) = (dir.path().join("whole"), dir.path().join("cut"));

    let status = searchlab(&config, &whole).status().unwrap();
    assert!(status.success());
    let whole_log = whole.join("resume/runs.checkpoints.jsonl");
    // Iterations are checkpointed at most every tenth of a second: the later ones.
    let all = nexts(&whole_log);
    assert!(
        !all.is_empty(),
        "the run took more than a tenth of a second"
    );
    let increasing = |v: &[u64]| v.windows(2).all(|w| w[0] < w[1]);
    assert!(
        increasing(&all) && all.iter().all(|n| n % 2 == 1 && *n <= 57),
        "{all:?}"
    );

    // Killed (SIGKILL) once the checkpoint log has a line: mid-search.
    let log = cut.join("resume/runs.checkpoints.jsonl");
    let mut child = searchlab(&config, &cut)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while lines(&log).is_empty() {
        assert!(child.try_wait().unwrap().is_none(), "killed before the end");
        assert!(started.elapsed() < Duration::from_secs(300));
        std::thread::sleep(Duration::from_millis(5));
    }
    match stop {
        Stop::Kill => {
            child.kill().unwrap();
            child.wait().unwrap();
        }
        Stop::Interrupt => {
            let out = common::signal(child, "-INT");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(130), "{err}");
            let last = err.lines().last().unwrap_or_default();
            assert!(
                last.starts_with("searchlab: interrupted: 0 of the 1 runs of resume")
                    && last.ends_with("the same command computes the rest"),
                "{err}"
            );
        }
    }
    let before = nexts(&log);
    assert!(!before.is_empty());
    assert!(
        lines(&cut.join("resume/runs.jsonl")).is_empty(),
        "the run had not finished"
    );

    let status = searchlab(&config, &cut).status().unwrap();
    assert!(status.success());
    // Resumed, not restarted: the thresholds go on from the last checkpoint.
    let after = nexts(&log);
    assert!(after.starts_with(&before), "{before:?} then {after:?}");
    assert!(increasing(&after), "no iteration repeated: {after:?}");
    assert_eq!(
        common::reproducible(&cut.join("resume/results.csv")),
        common::reproducible(&whole.join("resume/results.csv"))
    );
    common::rows(&cut.join("resume/results.csv"))
}

#[test]
fn a_killed_ida_run_resumes_at_its_next_threshold_with_the_same_results() {
    let rows = killed_and_resumed(CONFIG, Stop::Kill);
    assert_eq!(rows[0]["generated"], "276361933", "Korf's count");
    assert_eq!(rows[0]["solution_length"], "57");
}

#[test]
fn an_interrupted_ida_run_stops_cleanly_and_resumes_with_the_same_results() {
    let rows = killed_and_resumed(CONFIG, Stop::Interrupt);
    assert_eq!(rows[0]["generated"], "276361933", "Korf's count");
}

#[test]
fn a_killed_parallel_run_resumes_with_the_serial_searchs_results() {
    parallel_resumes_as_serial(Stop::Kill);
}

#[test]
fn an_interrupted_parallel_run_resumes_with_the_serial_searchs_results() {
    parallel_resumes_as_serial(Stop::Interrupt);
}

/// The machine's pruning searches on both threads (threads_per_run = 0); stopped and
/// resumed, it ends with the counts of the same search run serially, never stopped.
fn parallel_resumes_as_serial(stop: Stop) {
    let config = CONFIG
        .replace(
            "algorithm = \"ida\"",
            "algorithm = \"ida\"\nthreads_per_run = 0",
        )
        .replace(
            "move_order = \"ULRD\"",
            "move_order = \"ULRD\"\npruning = \"fsm\"",
        );
    let parallel = killed_and_resumed(&config, stop);
    let dir = tempfile::tempdir().unwrap();
    let serial = dir.path().join("serial.toml");
    std::fs::write(
        &serial,
        config.replace("threads_per_run = 0", "threads_per_run = 1"),
    )
    .unwrap();
    let mut cmd = searchlab(&serial, dir.path());
    assert!(cmd.args(["--jobs", "2"]).status().unwrap().success());
    let serial = common::rows(&dir.path().join("resume/results.csv"));
    for column in ["generated", "expanded", "thresholds", "solution_length"] {
        assert_eq!(parallel[0][column], serial[0][column], "{column}");
    }
    assert_eq!(parallel[0]["solution_length"], "57");
    let (fsm, korf): (u64, u64) = (parallel[0]["generated"].parse().unwrap(), 276_361_933);
    assert!(fsm < korf, "the machine prunes: {fsm} against {korf}");
}
