//! End to end against a real Slurm cluster (on these machines, the single-node cluster
//! of `scripts/slurm-local.sh`): a 4-task job array of the quickstart sweep merges into
//! the tables of a single-machine run; a task cancelled midway is named by `--wait`,
//! and the same command then resubmits only it, computing only its missing runs; a
//! study of the report runs as a job array.
//!
//! Opt-in, as they need the cluster: `cargo test --release --test slurm -- --ignored`
//! (`.ci/run` does, after `scripts/slurm-local.sh`, whenever it is root with apt). Asked
//! to run, they fail, never skip, when Slurm does not work.

mod common;
use common::{assert_same_outputs, computed, findings, reproducible, root, run_config, run_in};
use std::io::BufRead;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One test at a time on the cluster (they share its node and the job names).
static CLUSTER: Mutex<()> = Mutex::new(());

/// Panics unless Slurm answers and a node takes jobs.
fn require_slurm() {
    let fix = "set it up with `sudo bash scripts/slurm-local.sh`";
    let out = Command::new("sinfo")
        .args(["-h", "-o", "%t"])
        .output()
        .unwrap_or_else(|e| panic!("Slurm does not work: sinfo: {e}; {fix}"));
    let states = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "Slurm does not work: sinfo: {}; {fix}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        states
            .lines()
            .any(|s| ["idle", "mix", "alloc", "comp"].contains(&s.trim())),
        "Slurm has no node that takes jobs (sinfo: {states:?}); {fix}"
    );
}

fn slurm(dir: &Path, args: &[&str]) -> common::Output {
    let mut all = vec!["slurm"];
    all.extend_from_slice(args);
    run_in(Some(dir), &all, "")
}

/// `searchlab slurm configs/quickstart.toml --tasks 4 --out OUT --submit --wait`.
fn quickstart_array(out: &str) -> common::Output {
    slurm(
        root(),
        &[
            "configs/quickstart.toml",
            "--tasks",
            "4",
            "--out",
            out,
            "--submit",
            "--wait",
            "--quiet",
        ],
    )
}

#[test]
#[ignore = "needs a Slurm cluster: scripts/slurm-local.sh, then cargo test --release --test slurm -- --ignored"]
fn a_job_array_of_quickstart_merges_into_the_single_machine_tables() {
    let _cluster = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    require_slurm();
    let out = tempfile::tempdir().unwrap();
    let o = out.path().to_str().unwrap();
    let started = Instant::now();
    let r = quickstart_array(o);
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("tasks 0-3 completed; merge job "),
        "{}",
        r.stdout
    );
    eprintln!(
        "slurm: a 4-task job array of quickstart, submitted, run and merged in {seconds:.1} s"
    );

    let whole = tempfile::tempdir().unwrap();
    assert_eq!(
        run_config("quickstart", whole.path(), &["--quiet"], &[]).code,
        0
    );
    let merged = out.path().join("quickstart");
    assert_same_outputs(&whole.path().join("quickstart"), &merged);
    // Each task ran its own shard, on the cluster, and they cover the plan once.
    let logs = out.path().join("slurm/quickstart/logs");
    let mut shard_runs = 0;
    for entry in std::fs::read_dir(&logs).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        if let Some(line) = text.lines().find(|l| l.starts_with("quickstart shard ")) {
            assert!(line.contains("/4: "), "{line}");
            shard_runs += computed(line);
        }
    }
    assert_eq!(shard_runs, 240);

    // Submitted again, no task has work: only the merge job runs.
    let again = quickstart_array(o);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again
            .stdout
            .contains("every shard has all its runs; no task to submit"),
        "{}",
        again.stdout
    );
    assert_same_outputs(&whole.path().join("quickstart"), &merged);
}

#[test]
#[ignore = "needs a Slurm cluster: scripts/slurm-local.sh, then cargo test --release --test slurm -- --ignored"]
fn a_cancelled_task_is_resubmitted_alone_and_computes_only_its_missing_runs() {
    let _cluster = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    require_slurm();
    let out = tempfile::tempdir().unwrap();
    let o = out.path().to_str().unwrap().to_string();
    // Runs of about 0.1 s: a task takes several seconds, so the cancel lands midway.
    let sets = [
        "--set",
        "params.evaluations=1000000",
        "--set",
        "replicates.count=10",
    ];
    let args: Vec<&str> = [
        &[
            "slurm",
            "configs/quickstart.toml",
            "--tasks",
            "4",
            "--out",
            &o,
        ][..],
        &sets,
        &["--submit", "--wait", "--quiet"],
    ]
    .concat();
    let mut child = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(&args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read stdout to its end (a reader that stops early would end the command).
    let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in stdout.lines().map_while(Result::ok) {
            let _ = tx.send(line.clone());
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    let array = rx.iter().find_map(|line| {
        line.strip_prefix("submitted job array ")
            .and_then(|rest| rest.split(':').next())
            .map(str::to_string)
    });
    let array = array.unwrap_or_else(|| panic!("no job array submitted"));
    let journal = out.path().join("quickstart/runs.shard-1-of-4.jsonl");
    let lines = || std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count());
    let started = Instant::now();
    while lines() < 3 && started.elapsed() < Duration::from_secs(300) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let cancel = Command::new("scancel")
        .arg(format!("{array}_1"))
        .status()
        .unwrap();
    assert!(cancel.success());
    let first = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&first.stderr);
    let stdout = reader.join().unwrap();
    assert_eq!(first.status.code(), Some(2), "{stdout}{stderr}");
    let log = out
        .path()
        .join(format!("slurm/quickstart/logs/quickstart-{array}_1.log"));
    assert!(
        stderr.contains(&format!("task 1 of job {array} failed (CANCELLED"))
            && stderr.contains(&format!("log {}", log.display()))
            && stderr.contains("run the same command again: only the missing runs are computed"),
        "{stderr}"
    );
    let before = lines();
    let all = run_in(Some(root()), &args, "");
    assert_eq!(all.code, 0, "{}{}", all.stdout, all.stderr);
    assert!(
        all.stdout
            .contains("tasks 1 of 0-3 (the others' shards have all their runs)"),
        "only the cancelled task is submitted again: {}",
        all.stdout
    );
    // Its new log says it computed only the runs the cancel lost.
    let second: String = all
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("submitted job array "))
        .and_then(|r| r.split(':').next())
        .unwrap()
        .to_string();
    let text = std::fs::read_to_string(
        out.path()
            .join(format!("slurm/quickstart/logs/quickstart-{second}_1.log")),
    )
    .unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("quickstart shard 1/4: "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        before > 0 && line.contains(&format!(" computed, {before} reused)")),
        "{before} runs were done before the cancel: {line}"
    );
    assert!(computed(line) > 0, "{line}");

    let whole = tempfile::tempdir().unwrap();
    let one = run_config(
        "quickstart",
        whole.path(),
        &[&sets[..], &["--quiet"]].concat(),
        &[],
    );
    assert_eq!(one.code, 0, "{}", one.stderr);
    for table in ["results.csv", "anytime.csv"] {
        assert_eq!(
            reproducible(&out.path().join("quickstart").join(table)),
            reproducible(&whole.path().join("quickstart").join(table)),
            "{table}"
        );
    }
}

#[test]
#[ignore = "needs a Slurm cluster: scripts/slurm-local.sh, then cargo test --release --test slurm -- --ignored"]
fn a_study_of_the_report_runs_as_a_job_array() {
    let _cluster = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    require_slurm();
    let p = common::toy_project();
    let out = p.path().join("cluster");
    let r = slurm(
        p.path(),
        &[
            "--study",
            "toy",
            "--tasks",
            "2",
            "--out",
            out.to_str().unwrap(),
            "--submit",
            "--wait",
            "--quiet",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("report-toy: job array ") && r.stdout.contains("toy.md"),
        "{}",
        r.stdout
    );
    let one = run_in(
        Some(p.path()),
        &["report", "--study", "toy", "--out", "one", "--quiet"],
        "",
    );
    assert_eq!(one.code, 0, "{}", one.stderr);
    let md = out.join("report/toy.md");
    assert_eq!(
        findings(&md).replace(&format!("`{}`", out.display()), "`one`"),
        findings(&p.path().join("one/report/toy.md"))
    );
    assert!(
        std::fs::read_to_string(&md)
            .unwrap()
            .contains("| `toy` | 240 | 0 | "),
        "the merge job computed nothing"
    );
}
