//! Helpers shared by the integration tests: run the binary with arguments and stdin,
//! run a config of the project, read a results CSV, check a user error, make a small
//! project folder with a study, stop a running one with a signal.

#![allow(dead_code)]

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `searchlab` in `dir` (the project root when `None`) with `args`, feeding `stdin`.
pub fn run_in(dir: Option<&Path>, args: &[&str], stdin: &str) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_searchlab"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd.current_dir(dir.unwrap_or(Path::new(env!("CARGO_MANIFEST_DIR"))));
    let mut child = cmd.spawn().expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("stdin written");
    let out = child.wait_with_output().expect("the binary finishes");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

pub fn run(args: &[&str], stdin: &str) -> Output {
    run_in(None, args, stdin)
}

/// The project root, where configs/ lives.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `searchlab run configs/<config>.toml --out <out> <flags…>` from the project
/// root, with `--set` before each of `sets`.
pub fn run_config(config: &str, out: &Path, flags: &[&str], sets: &[&str]) -> Output {
    let path = root().join(format!("configs/{config}.toml"));
    let mut args = vec![
        "run",
        path.to_str().expect("a UTF-8 path"),
        "--out",
        out.to_str().expect("a UTF-8 path"),
    ];
    args.extend_from_slice(flags);
    for s in sets {
        args.extend(["--set", s]);
    }
    run_in(Some(root()), &args, "")
}

/// The rows of a results CSV as column → value maps (quotes stripped; no value of ours
/// contains a comma).
pub fn rows(csv: &Path) -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(csv).unwrap_or_else(|e| panic!("{}: {e}", csv.display()));
    let mut lines = text.lines();
    let head: Vec<String> = lines
        .next()
        .expect("a header")
        .split(',')
        .map(str::to_string)
        .collect();
    lines
        .map(|l| {
            head.iter()
                .cloned()
                .zip(l.split(',').map(|v| v.trim_matches('"').to_string()))
                .collect()
        })
        .collect()
}

/// Asserts a user error: exit code 2, one line on stderr, `searchlab: ` and then a
/// message containing `needle`, no panic.
pub fn assert_user_error(out: &Output, needle: &str) {
    assert_eq!(out.code, 2, "exit code; stderr: {}", out.stderr);
    assert_eq!(
        out.stderr.trim_end().lines().count(),
        1,
        "one line on stderr: {:?}",
        out.stderr
    );
    assert!(
        out.stderr.starts_with("searchlab: ") && out.stderr.contains(needle),
        "stderr {:?} should contain {needle:?}",
        out.stderr
    );
    assert!(!out.stderr.contains("panicked"), "no panic: {}", out.stderr);
}

/// A project folder with one small config (`toy`, the quickstart sweep) and one study
/// of it, for `report` and `slurm --study`.
pub fn toy_project() -> tempfile::TempDir {
    let p = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(p.path().join("configs")).unwrap();
    std::fs::create_dir_all(p.path().join("experiments")).unwrap();
    let quickstart = std::fs::read_to_string(root().join("configs/quickstart.toml")).unwrap();
    std::fs::write(
        p.path().join("configs/toy.toml"),
        quickstart.replace("name = \"quickstart\"", "name = \"toy\""),
    )
    .unwrap();
    std::fs::write(
        p.path().join("experiments/toy.toml"),
        r#"title = "A toy study"
intro = "{config.toy.replicates} seeds per setting."

[[question]]
title = "Which decay designs the longest mazes?"
answer = "**{by_decay.best.group}** is best (median {by_decay.best.median:~1})."

[[question.block]]
kind = "compare"
name = "by_decay"
experiment = "toy"
group = "decay"
metric = "best_path_length"
better = "higher"

[[question.block]]
kind = "box"
experiment = "toy"
x = "decay"
metric = "best_path_length"
title = "Best path length per decay"
"#,
    )
    .unwrap();
    p
}

/// A CSV's text without its timing columns (names ending in _seconds or _per_second).
pub fn reproducible(csv: &Path) -> String {
    let text = std::fs::read_to_string(csv).unwrap_or_else(|e| panic!("{}: {e}", csv.display()));
    let head: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let keep: Vec<bool> = head
        .iter()
        .map(|h| !h.ends_with("_seconds") && !h.ends_with("_per_second"))
        .collect();
    text.lines()
        .map(|l| {
            l.split(',')
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(v, _)| v)
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Asserts that two folders of the quickstart experiment hold the same tables (timing columns aside),
/// summaries and figures (to the byte).
pub fn assert_same_outputs(a: &Path, b: &Path) {
    for table in ["results.csv", "anytime.csv"] {
        let (x, y) = (reproducible(&a.join(table)), reproducible(&b.join(table)));
        assert!(x.lines().count() > 200, "{table} has the whole plan");
        if x != y {
            let diff = x.lines().zip(y.lines()).find(|(p, q)| p != q);
            panic!("{table} differs: {diff:?}");
        }
    }
    for file in [
        "summary_by_setting.csv",
        "summary_by_setting.parquet",
        "anytime.parquet",
        "heatmap.png",
        "heatmap.svg",
        "anytime.svg",
        "path_length_by_t0.png",
    ] {
        assert!(
            std::fs::read(a.join(file)).unwrap() == std::fs::read(b.join(file)).unwrap(),
            "{file} differs"
        );
    }
}

/// The report without its last section (runs computed now, seconds).
pub fn findings(report: &Path) -> String {
    let text = std::fs::read_to_string(report).unwrap();
    text.split("## Experiments").next().unwrap().to_string()
}

/// The number before " computed" in a run's summary line.
pub fn computed(stdout: &str) -> usize {
    let at = stdout.find(" computed").expect("a summary line");
    stdout[..at]
        .rsplit('(')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stdout}"))
}

/// Sends `signal` (as `kill` takes it: "-INT", "-TERM") to a running `searchlab`, and
/// waits for it to end.
pub fn signal(child: std::process::Child, signal: &str) -> std::process::Output {
    let pid = child.id().to_string();
    let sent = Command::new("kill").args([signal, &pid]).status();
    assert!(sent.is_ok_and(|s| s.success()), "kill {signal} {pid}");
    child.wait_with_output().expect("the child's output")
}

/// Runs `f` with a fresh tmpfs of `size` mounted on a temporary folder; skips (with a
/// note) where mounting is not allowed.
pub fn with_tmpfs(size: &str, f: impl FnOnce(&Path)) {
    let dir = tempfile::tempdir().unwrap();
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
        .arg(dir.path())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!(
            "note: cannot mount a tmpfs here (not root or no permission): full-disk test skipped"
        );
        return;
    }
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(dir.path())));
    let _ = std::process::Command::new("umount")
        .arg(dir.path())
        .status();
    if let Err(p) = result {
        std::panic::resume_unwind(p);
    }
}
