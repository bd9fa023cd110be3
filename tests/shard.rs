//! Shards and merge through the binary, without a cluster: shards run apart (also in
//! folders of different "machines") merge into the tables of one uninterrupted run;
//! a run in two shards is kept once, another config's shard is refused; a killed
//! shard resumes with only its missing runs while another shard runs beside it; a
//! study of the report runs sharded; and `slurm` writes job scripts that run them.

mod common;
use common::{
    assert_same_outputs, assert_user_error, computed, findings, reproducible, root, run_config,
    run_in, toy_project,
};
use std::path::Path;
use std::process::{Command, Stdio};

fn shard(out: &Path, shard: &str, extra: &[&str]) -> common::Output {
    run_config(
        "quickstart",
        out,
        &[&["--shard", shard, "--quiet"], extra].concat(),
        &[],
    )
}

fn merge(dirs: &[&Path], extra: &[&str]) -> common::Output {
    let mut args = vec!["merge"];
    args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
    args.extend_from_slice(extra);
    run_in(Some(root()), &args, "")
}

#[test]
fn shards_on_two_machines_merge_into_the_single_machine_tables() {
    let whole = tempfile::tempdir().unwrap();
    assert_eq!(
        run_config("quickstart", whole.path(), &["--quiet"], &[]).code,
        0
    );
    // Shards 0 and 1 of 3 on one machine, shard 2 on another.
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut shard_runs = 0;
    for (out, s) in [(a.path(), "0/3"), (a.path(), "1/3"), (b.path(), "2/3")] {
        let r = shard(out, s, &["--jobs", "2"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        shard_runs += computed(&r.stdout);
    }
    assert_eq!(shard_runs, 240, "the shards cover the plan once");
    let (qa, qb) = (a.path().join("quickstart"), b.path().join("quickstart"));
    assert!(qa.join("runs.shard-1-of-3.jsonl").is_file());
    assert!(qa.join("shard-1-of-3.json").is_file());
    assert!(!qa.join("results.csv").exists(), "a shard writes no table");

    // The first machine's folder alone lacks shard 2's runs: refused, naming it.
    let alone = merge(&[&qa], &[]);
    assert_user_error(
        &alone,
        "of the 240 runs of quickstart are in no journal (shard 2/3 has ",
    );
    let partial = merge(&[&qa], &["--partial"]);
    assert_eq!(partial.code, 0, "{}", partial.stderr);
    let rows = reproducible(&qa.join("results.csv")).lines().count() - 1;
    assert!(
        rows < 240 && rows > 100,
        "--partial writes the finished runs: {rows}"
    );

    let merged = merge(&[&qa, &qb], &[]);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    let copied = 240 - (rows);
    assert!(
        merged.stdout.starts_with(&format!(
            "quickstart: 240 runs merged from 3 journals, {copied} copied into its runs.jsonl"
        )),
        "{}",
        merged.stdout
    );
    assert_same_outputs(&whole.path().join("quickstart"), &qa);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(qa.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["work"]["runs"], 240);
    let journals: Vec<&str> = manifest["work"]["journals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j.as_str().unwrap())
        .collect();
    let other = qb.join("runs.shard-2-of-3.jsonl");
    assert_eq!(
        journals,
        vec![
            "runs.shard-0-of-3.jsonl",
            "runs.shard-1-of-3.jsonl",
            other.to_str().unwrap()
        ]
    );

    // The first folder is now complete by itself: a plain run computes nothing.
    let again = run_config("quickstart", a.path(), &["--quiet"], &[]);
    assert!(
        again.stdout.contains("(0 computed, 240 reused)"),
        "{}",
        again.stdout
    );
    assert_same_outputs(&whole.path().join("quickstart"), &qa);
}

#[test]
fn a_run_in_two_shards_is_kept_once_and_another_config_is_refused() {
    let whole = tempfile::tempdir().unwrap();
    assert_eq!(
        run_config("quickstart", whole.path(), &["--quiet"], &[]).code,
        0
    );
    let out = tempfile::tempdir().unwrap();
    for s in ["0/2", "1/2"] {
        assert_eq!(shard(out.path(), s, &[]).code, 0);
    }
    // Shard 0/4 computed again (--force): each of its runs is now in two journals.
    let again = shard(out.path(), "0/4", &["--force"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(computed(&again.stdout) > 40, "{}", again.stdout);
    // A plain run after the shards combines their journals and computes nothing.
    let run = run_config("quickstart", out.path(), &["--quiet"], &[]);
    assert!(
        run.stdout.contains("(0 computed, 240 reused)"),
        "{}",
        run.stdout
    );
    let dir = out.path().join("quickstart");
    assert_same_outputs(&whole.path().join("quickstart"), &dir);

    // Another version of the config (another base seed: other keys) is refused by a
    // shard in the same folder, by a plain run, and by merge of a copied folder.
    let other = ["--set", "replicates.base_seed=2"];
    let in_shard0 = std::fs::read_to_string(dir.join("runs.shard-0-of-2.jsonl"))
        .unwrap()
        .lines()
        .count();
    assert_user_error(
        &shard(out.path(), "0/2", &other),
        &format!(
            "runs.shard-0-of-2.jsonl: {in_shard0} of its {in_shard0} runs are not runs of this config of quickstart"
        ),
    );
    let elsewhere = tempfile::tempdir().unwrap();
    assert_eq!(shard(elsewhere.path(), "1/2", &other).code, 0);
    assert_user_error(
        &merge(&[&dir, &elsewhere.path().join("quickstart")], &[]),
        "ran another config than shard 0/2",
    );
    assert_user_error(
        &merge(&[&dir, &elsewhere.path().join("quickstart")], &[]),
        "they differ at replicates.base_seed",
    );
    assert_same_outputs(&whole.path().join("quickstart"), &dir);

    // Bad folders and shards are one line each.
    assert_user_error(
        &merge(&[&out.path().join("none")], &[]),
        "none: no such folder",
    );
    assert_user_error(
        &merge(&[out.path()], &[]),
        "not an experiment's folder (it has no shard-I-of-N.json nor manifest.json)",
    );
    for (bad, says) in [
        (
            "4/4",
            "shard 4 of 4 does not exist (shards are numbered 0 to 3)",
        ),
        ("1-4", "expected I/N"),
    ] {
        assert_user_error(&shard(out.path(), bad, &[]), says);
    }
}

#[test]
fn a_killed_shard_resumes_with_its_missing_runs_while_another_shard_runs() {
    // Runs of about 0.05 s, so that the kill lands midway.
    let sets = [
        "--set",
        "params.evaluations=500000",
        "--set",
        "replicates.count=10",
        "--jobs",
        "1",
    ];
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("quickstart");
    let spawn = |s: &str| {
        let config = root().join("configs/quickstart.toml");
        Command::new(env!("CARGO_BIN_EXE_searchlab"))
            .args(["run", config.to_str().unwrap(), "--out"])
            .arg(out.path())
            .args(["--shard", &format!("{s}/2"), "--quiet"])
            .args(sets)
            .current_dir(root())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let lines = |s: &str| {
        std::fs::read_to_string(dir.join(format!("runs.shard-{s}-of-2.jsonl")))
            .map_or(0, |t| t.lines().count())
    };
    let wait_for = |s: &str, n: usize| {
        let started = std::time::Instant::now();
        while lines(s) < n && started.elapsed().as_secs() < 60 {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    };
    let mut one = spawn("1");
    wait_for("1", 3);
    // The same shard again is refused while the first holds its lock; the other shard
    // runs beside it.
    assert_user_error(
        &shard(out.path(), "1/2", &sets),
        "run.shard-1-of-2.lock: process",
    );
    let zero = spawn("0");
    wait_for("0", 1);
    assert!(
        one.try_wait().unwrap().is_none(),
        "shard 1 still runs while shard 0 does"
    );
    one.kill().unwrap();
    one.wait().unwrap();
    let zero = zero.wait_with_output().unwrap();
    assert!(zero.status.success());
    let before = lines("1");
    let owned = 120 - computed(&String::from_utf8_lossy(&zero.stdout));
    assert!(
        before > 0 && before < owned,
        "killed midway: {before} of {owned}"
    );

    let resumed = shard(out.path(), "1/2", &sets);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert!(
        resumed.stdout.contains(&format!(
            "{owned} runs ({} computed, {before} reused)",
            owned - before
        )),
        "only the missing runs: {}",
        resumed.stdout
    );
    assert!(
        resumed
            .stdout
            .contains("all 120 runs are done; `searchlab merge "),
        "{}",
        resumed.stdout
    );
    let merged = merge(&[&dir], &[]);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    let whole = tempfile::tempdir().unwrap();
    let one = run_config(
        "quickstart",
        whole.path(),
        &[&sets[..4], &["--jobs", "2"]].concat(),
        &[],
    );
    assert_eq!(one.code, 0, "{}", one.stderr);
    for table in ["results.csv", "anytime.csv"] {
        assert_eq!(
            reproducible(&dir.join(table)),
            reproducible(&whole.path().join("quickstart").join(table)),
            "{table}"
        );
    }
}

#[test]
fn a_study_of_the_report_runs_sharded() {
    let p = toy_project();
    let report = |args: &[&str]| {
        let mut all = vec!["report", "--study", "toy", "--quiet"];
        all.extend_from_slice(args);
        run_in(Some(p.path()), &all, "")
    };
    assert_eq!(report(&["--out", "one"]).code, 0);
    for s in ["0/2", "1/2"] {
        let r = report(&["--out", "sh", "--shard", s]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(
            r.stdout.starts_with(&format!("toy shard {s}: ")),
            "{}",
            r.stdout
        );
    }
    assert!(
        !p.path().join("sh/report").exists(),
        "a shard renders nothing"
    );
    let r = report(&["--out", "sh"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let md = p.path().join("sh/report/toy.md");
    assert!(
        std::fs::read_to_string(&md)
            .unwrap()
            .contains("| `toy` | 240 | 0 | "),
        "the report computed nothing after the shards"
    );
    assert_eq!(
        findings(&md).replace("`sh`", "`one`"),
        findings(&p.path().join("one/report/toy.md"))
    );
    assert!(findings(&md).contains("**Answer.** **0."));
}

#[test]
fn slurm_writes_job_scripts_with_absolute_paths_and_checks_its_flags() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path().to_str().unwrap();
    let r = run_in(
        None,
        &[
            "slurm",
            "configs/quickstart.toml",
            "--tasks",
            "3",
            "--out",
            o,
            "--partition",
            "short",
            "--time",
            "00:10:00",
            "--mem",
            "2G",
            "--cpus-per-task",
            "2",
            "--set",
            "replicates.count=2",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let folder = out.path().join("slurm/quickstart");
    assert!(
        r.stdout
            .contains(&format!("submit with: bash {}/submit.sh", folder.display()))
    );
    let array = std::fs::read_to_string(folder.join("array.sbatch")).unwrap();
    let exe = Path::new(env!("CARGO_BIN_EXE_searchlab"))
        .canonicalize()
        .unwrap();
    for line in [
        "#SBATCH --array=0-2\n".to_string(),
        "#SBATCH --cpus-per-task=2\n".to_string(),
        "#SBATCH --partition=short\n".to_string(),
        "#SBATCH --time=00:10:00\n".to_string(),
        "#SBATCH --mem=2G\n".to_string(),
        format!(
            "#SBATCH --chdir={}\n",
            root().canonicalize().unwrap().display()
        ),
        format!(
            "exec {} run {}/configs/quickstart.toml --out {o} --set replicates.count=2 \\\n    --shard \"$SLURM_ARRAY_TASK_ID/3\" --jobs \"${{SLURM_CPUS_PER_TASK:-1}}\"\n",
            exe.display(),
            root().canonicalize().unwrap().display()
        ),
    ] {
        assert!(array.contains(&line), "{line:?} in\n{array}");
    }
    let merge = std::fs::read_to_string(folder.join("merge.sbatch")).unwrap();
    assert!(
        merge.ends_with(&format!("merge {o}/quickstart\n")),
        "{merge}"
    );
    let submit = std::fs::read_to_string(folder.join("submit.sh")).unwrap();
    assert!(
        submit.contains("--dependency=afterok:\"$array\""),
        "{submit}"
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(folder.join("submit.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o111, 0o111, "submit.sh is executable");

    // Without Slurm's commands, --submit is a clear error.
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_searchlab"));
    let no_slurm = cmd
        .args([
            "slurm",
            "configs/quickstart.toml",
            "--tasks",
            "2",
            "--out",
            o,
            "--submit",
        ])
        .env("PATH", out.path())
        .current_dir(root())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&no_slurm.stderr);
    assert_eq!(no_slurm.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with(
            "searchlab: squeue: not found: Slurm's commands are not on this machine's PATH"
        ),
        "{stderr}"
    );
    for (flags, says) in [
        (
            vec!["--time", "1h"],
            "--time \"1h\": expected a Slurm time limit",
        ),
        (
            vec!["--mem", "4GB"],
            "--mem \"4GB\": expected a memory size",
        ),
        (
            vec!["--partition", "a b"],
            "--partition \"a b\": expected a partition name",
        ),
        (
            vec!["--out", "/tmp/a b"],
            "--out \"/tmp/a b\": a path in a Slurm job script",
        ),
        (vec!["--tasks", "0"], "--tasks"),
        (vec!["--wait"], "--wait needs --submit"),
    ] {
        let mut args = vec!["slurm", "configs/quickstart.toml"];
        if flags[0] != "--tasks" {
            args.extend(["--tasks", "2"]);
        }
        if flags[0] != "--out" {
            args.extend(["--out", o]);
        }
        args.extend(flags);
        assert_user_error(&run_in(None, &args, ""), says);
    }
    assert_user_error(
        &run_in(
            None,
            &["slurm", "--study", "nope", "--tasks", "2", "--out", o],
            "",
        ),
        "unknown study \"nope\"",
    );
}
