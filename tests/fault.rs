//! Faults a run must survive: kill -9 or Ctrl-C at random (seeded) moments, then the
//! same command to completion, gives the same text in every non-timing column of
//! results.csv and anytime.csv as an uninterrupted run, with one journal record per run; a full disk
//! (a small tmpfs, where the machine lets us mount one) is exit 2 with the path, and
//! leaves no temporary file.

mod common;
use common::{reproducible, root};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// The quickstart sweep, with runs long enough for kills to land while they go on.
const SETS: &[&str] = &["params.evaluations=100000", "replicates.count=10"];

fn command(out: &Path) -> Command {
    let config = root().join("configs/quickstart.toml");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_searchlab"));
    cmd.args([
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--jobs",
        "2",
    ]);
    for s in SETS {
        cmd.args(["--set", s]);
    }
    cmd.current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    cmd
}

/// A small seeded generator (xorshift), so the kill moments replay.
struct Moments(u64);
impl Moments {
    fn next_ms(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }
}

#[test]
fn kill_9_at_random_moments_then_resume_gives_the_same_tables() {
    stopped_at_random_moments_then_resumed(None);
}

#[test]
fn ctrl_c_at_random_moments_then_resume_gives_the_same_tables() {
    stopped_at_random_moments_then_resumed(Some("-INT"));
}

/// Stops the sweep five times at seeded moments, with SIGKILL (`None`) or the signal
/// given to `kill`, then runs it to the end: the tables are those of a run never
/// stopped. A signal the program handles ends it with exit code 130 and a last line
/// saying how many runs it kept (or, landing after the last run, changes nothing).
fn stopped_at_random_moments_then_resumed(signal: Option<&str>) {
    let whole = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let out = command(whole.path()).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Kill moments spread over the uninterrupted run's duration.
    let span = (started.elapsed().as_millis() as u64).max(50);

    let killed = tempfile::tempdir().unwrap();
    let mut moments = Moments(0x9e37_79b9_7f4a_7c15);
    for _ in 0..5 {
        let mut child = command(killed.path()).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(moments.next_ms(span)));
        let Some(signal) = signal else {
            child.kill().unwrap(); // SIGKILL
            child.wait().unwrap();
            continue;
        };
        let out = common::signal(child, signal);
        let err = String::from_utf8_lossy(&out.stderr);
        match out.status.code() {
            Some(130) => assert!(
                err.lines()
                    .last()
                    .is_some_and(|l| l.starts_with("searchlab: interrupted: ")
                        && l.ends_with("; the same command computes the rest")),
                "{err}"
            ),
            code => assert_eq!(code, Some(0), "{err}"),
        }
    }
    let rest = command(killed.path()).output().unwrap();
    assert!(
        rest.status.success(),
        "{}",
        String::from_utf8_lossy(&rest.stderr)
    );

    let (a, b) = (
        whole.path().join("quickstart"),
        killed.path().join("quickstart"),
    );
    for table in ["results.csv", "anytime.csv"] {
        let (x, y) = (reproducible(&a.join(table)), reproducible(&b.join(table)));
        assert!(x.lines().count() > 100, "{table}");
        if x != y {
            let diff = x.lines().zip(y.lines()).find(|(p, q)| p != q);
            panic!("{table} differs after kills: {diff:?}");
        }
    }
    // One record per run: killed runs were not written twice, no line is glued.
    let journal = std::fs::read_to_string(b.join("runs.jsonl")).unwrap();
    let keys: Vec<String> = journal
        .lines()
        .map(|l| {
            let v: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            v["key"].as_str().unwrap().to_string()
        })
        .collect();
    let distinct: std::collections::HashSet<&String> = keys.iter().collect();
    assert_eq!(distinct.len(), 120);
    assert_eq!(keys.len(), 120, "one record per run");
}

#[test]
fn a_full_disk_is_exit_2_with_the_path_and_leaves_no_temporary_file() {
    common::with_tmpfs("4m", |disk| {
        // Fill the disk to different levels, so the journal, the tables and the plots
        // each get their turn at meeting a full disk.
        let mut full = 0;
        for free_kb in [8u64, 64, 160, 320, 640, 1200] {
            let _ = std::fs::remove_dir_all(disk.join("out"));
            let filler = disk.join("filler");
            let _ = std::fs::remove_file(&filler);
            std::fs::write(&filler, vec![0u8; ((4096 - free_kb) * 1024) as usize]).unwrap();
            let out = disk.join("out");
            let mut cmd = command(&out);
            cmd.args([
                "--set",
                "params.evaluations=2000",
                "--set",
                "replicates.count=2",
            ]);
            let r = cmd.output().unwrap();
            let stderr = String::from_utf8_lossy(&r.stderr);
            match r.status.code() {
                Some(0) => {}
                Some(2) => {
                    full += 1;
                    eprintln!("{free_kb} KB free: {}", stderr.trim_end());
                    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
                    assert!(
                        stderr.contains("the disk is full"),
                        "{free_kb} KB: {stderr}"
                    );
                    assert!(stderr.contains(out.to_str().unwrap()), "{stderr}");
                }
                other => panic!("{free_kb} KB free: exit {other:?}: {stderr}"),
            }
            let mut stack = vec![out.clone()];
            while let Some(d) = stack.pop() {
                for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                    let name = e.file_name().to_string_lossy().into_owned();
                    assert!(!name.contains(".tmp"), "{free_kb} KB: left {name}");
                    if e.path().is_dir() {
                        stack.push(e.path());
                    }
                }
            }
        }
        assert!(full >= 3, "only {full} runs met the full disk");
    });
}
