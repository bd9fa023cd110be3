//! The experiment pipeline as a user drives it: `run` with overrides, config errors,
//! results that do not depend on `--jobs`, and resuming an interrupted run.

mod common;
use common::{assert_user_error, root, run_config, run_in};
use std::path::Path;

/// A results CSV without its timing columns (names ending in _seconds or _per_second).
fn reproducible(csv: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(csv).unwrap_or_else(|e| panic!("{}: {e}", csv.display()));
    let rows: Vec<Vec<String>> = text
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    let keep: Vec<usize> = rows[0]
        .iter()
        .enumerate()
        .filter(|(_, h)| !h.ends_with("_seconds") && !h.ends_with("_per_second"))
        .map(|(i, _)| i)
        .collect();
    rows.iter()
        .map(|r| keep.iter().map(|&i| r[i].clone()).collect())
        .collect()
}

#[test]
fn quickstart_writes_tables_manifest_summaries_and_plots() {
    let out = tempfile::tempdir().unwrap();
    let r = run_config(
        "quickstart",
        out.path(),
        &[
            "--set",
            "replicates.count=3",
            "--set",
            "params.evaluations=500",
        ],
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let dir = out.path().join("quickstart");
    for f in [
        "results.parquet",
        "results.csv",
        "anytime.parquet",
        "anytime.csv",
        "manifest.json",
        "summary_by_setting.csv",
        "heatmap.png",
        "heatmap.svg",
        "anytime.png",
        "path_length_by_t0.svg",
    ] {
        assert!(dir.join(f).is_file(), "{f} is written");
    }
    let rows = reproducible(&dir.join("results.csv"));
    assert_eq!(
        rows.len(),
        1 + 4 * 3 * 3,
        "header + 4 T0 x 3 decay x 3 replicates"
    );
    let header = &rows[0];
    for col in [
        "run_key",
        "seed",
        "initial_temperature",
        "decay",
        "best_objective",
        "best_path_length",
        "best_evaluation",
        "evaluations",
        "cells",
        "instance_seed",
        "accepted_uphill",
    ] {
        assert!(header.contains(&col.to_string()), "column {col}");
    }
    let evals = header.iter().position(|h| h == "evaluations").unwrap();
    assert!(
        rows[1..].iter().all(|r| r[evals] == "500"),
        "the budget of 500 evaluations, as the parameter column says"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["resolved_config"]["replicates"]["count"], 3);
    assert_eq!(manifest["resolved_config"]["params"]["evaluations"], 500);
    assert!(manifest["code_version"]["package"].is_string());
    // Anytime rows: checkpoints 1, 2, 3, 5, 7, 10, …, 300, 500 for each run.
    let anytime = std::fs::read_to_string(dir.join("anytime.csv")).unwrap();
    assert_eq!(anytime.lines().count(), 1 + 36 * 14);
}

#[test]
fn results_do_not_depend_on_jobs_or_on_the_rest_of_the_sweep() {
    let one = tempfile::tempdir().unwrap();
    let two = tempfile::tempdir().unwrap();
    let set = [
        "--set",
        "replicates.count=4",
        "--set",
        "params.evaluations=2000",
    ];
    assert_eq!(
        run_config(
            "quickstart",
            one.path(),
            &[&set[..], &["--jobs", "1"]].concat(),
            &[]
        )
        .code,
        0
    );
    assert_eq!(
        run_config(
            "quickstart",
            two.path(),
            &[&set[..], &["--jobs", "2"]].concat(),
            &[]
        )
        .code,
        0
    );
    let a = reproducible(&one.path().join("quickstart/results.csv"));
    let b = reproducible(&two.path().join("quickstart/results.csv"));
    assert_eq!(a, b);
    assert_eq!(
        std::fs::read_to_string(one.path().join("quickstart/anytime.csv")).unwrap(),
        std::fs::read_to_string(two.path().join("quickstart/anytime.csv")).unwrap()
    );
    // One setting alone gives the same rows as inside the full sweep.
    let alone = tempfile::tempdir().unwrap();
    let narrow = [
        &set[..],
        &[
            "--set",
            "sweep.initial_temperature=[2]",
            "--set",
            "sweep.decay=[0.999]",
        ],
    ]
    .concat();
    assert_eq!(run_config("quickstart", alone.path(), &narrow, &[]).code, 0);
    let c = reproducible(&alone.path().join("quickstart/results.csv"));
    let (t0, d, key) = ["initial_temperature", "decay", "run_key"]
        .map(|h| a[0].iter().position(|x| x == h).unwrap())
        .into();
    let from_full: Vec<&Vec<String>> = a[1..]
        .iter()
        .filter(|r| r[t0] == "2.0" && r[d] == "0.999")
        .collect();
    assert_eq!(from_full.len(), 4);
    for (x, y) in from_full.iter().zip(&c[1..]) {
        assert_eq!(x[key], y[key]);
        assert_eq!(x[t0 + 1..], y[t0 + 1..], "same metrics for the same run");
    }
}

#[test]
fn rerun_reuses_and_an_interrupted_run_resumes_to_the_same_table() {
    let whole = tempfile::tempdir().unwrap();
    let set = [
        "--set",
        "replicates.count=40",
        "--set",
        "params.evaluations=100000",
        "--jobs",
        "1",
    ];
    assert_eq!(run_config("quickstart", whole.path(), &set, &[]).code, 0);

    // Interrupt a run midway (killed, as by Ctrl-C), then give the same command again.
    let part = tempfile::tempdir().unwrap();
    let config = root().join("configs/quickstart.toml");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args([
            "run",
            config.to_str().unwrap(),
            "--out",
            part.path().to_str().unwrap(),
            "--quiet",
        ])
        .args(set)
        .current_dir(root())
        .spawn()
        .unwrap();
    let journal = part.path().join("quickstart/runs.jsonl");
    let started = std::time::Instant::now();
    while std::fs::metadata(&journal).map_or(0, |m| m.len()) < 20_000
        && started.elapsed().as_secs() < 60
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let done_before = std::fs::read_to_string(&journal).unwrap().lines().count();
    assert!(
        done_before > 0 && done_before < 480,
        "interrupted midway: {done_before} of 480 runs"
    );

    let resumed = run_config("quickstart", part.path(), &set, &[]);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    let computed: usize = resumed
        .stdout
        .split('(')
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(
        computed <= 480 - done_before + 1,
        "only missing runs are computed: {computed}"
    );
    assert_eq!(
        reproducible(&part.path().join("quickstart/results.csv")),
        reproducible(&whole.path().join("quickstart/results.csv"))
    );

    // A third run computes nothing.
    let again = run_config("quickstart", part.path(), &set, &[]);
    assert!(
        again.stdout.contains("(0 computed, 480 reused)"),
        "{}",
        again.stdout
    );
}

#[test]
fn config_errors_name_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        std::fs::write(dir.path().join(name), text).unwrap();
        name.to_string()
    };
    let good = std::fs::read_to_string(root().join("configs/quickstart.toml")).unwrap();
    let run = |file: &str, extra: &[&str]| {
        let mut args = vec!["run", file, "--out", "out"];
        args.extend_from_slice(extra);
        run_in(Some(dir.path()), &args, "")
    };
    let f = write(
        "unknown.toml",
        &good.replace("size = 5", "size = 5\nsizee = 6"),
    );
    let line = good.lines().position(|l| l == "size = 5").unwrap() + 2;
    assert_user_error(
        &run(&f, &[]),
        &format!("unknown.toml:{line}: unknown parameter \"sizee\""),
    );
    let f = write("range.toml", &good.replace("size = 5", "size = 11"));
    assert_user_error(
        &run(&f, &[]),
        &format!("range.toml:{}: size = 11 is out of range", line - 1),
    );
    let f = write("type.toml", &good.replace("count = 20", "count = \"many\""));
    assert_user_error(&run(&f, &[]), "type.toml:");
    let f = write("section.toml", &good.replace("[replicates]", "[replicate]"));
    assert_user_error(&run(&f, &[]), "unknown field `replicate`");
    let f = write("broken.toml", "[experiment\n");
    assert_user_error(&run(&f, &[]), "broken.toml:1:");
    let f = write("ok.toml", &good);
    assert_user_error(
        &run(&f, &["--set", "params.decay=2"]),
        "--set params.decay=2: decay = 2 is out of range",
    );
    assert_user_error(&run(&f, &["--set", "nonsense"]), "expected KEY=VALUE");
    assert_user_error(
        &run(&f, &["--set", "params.schedule=cubic"]),
        "is not one of geometric",
    );
    assert_user_error(
        &run("missing.toml", &[]),
        "missing.toml: cannot read the config",
    );
    assert!(
        !dir.path().join("out").exists(),
        "nothing is written for a bad config"
    );
}
