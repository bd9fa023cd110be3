//! The peg-solitaire experiments through the pipeline as a user runs them: the budget
//! config shrunk with `--set` reproduces the assignment's figures, reruns are reproducible and
//! incremental, and the strong solver's config proves the fewest pegs.

mod common;
use common::{rows, run_config};

use std::collections::HashMap;
use std::path::Path;

fn row<'a>(
    rows: &'a [HashMap<String, String>],
    level: &str,
    budget: &str,
) -> &'a HashMap<String, String> {
    rows.iter()
        .find(|r| r["level"] == level && r["budget"] == budget)
        .unwrap_or_else(|| panic!("no run of level {level} with budget {budget}"))
}

/// The budget config shrunk to levels 4 and 5 and two budgets (the assignment's among them).
const BUDGET_SETS: [&str; 2] = ["sweep.level=[4,5]", "sweep.budget=[10000,1200000]"];

fn run_budget(out: &Path, extra: &[&str]) -> common::Output {
    let res = run_config(
        "pegsol_budget",
        out,
        &[&["--quiet"], extra].concat(),
        &BUDGET_SETS,
    );
    assert_eq!(res.code, 0, "stderr: {}", res.stderr);
    res
}

#[test]
fn budget_config_reproduces_the_seeds_figures() {
    let dir = tempfile::tempdir().unwrap();
    run_budget(dir.path(), &[]);
    let exp = dir.path().join("pegsol_budget");
    let table = rows(&exp.join("results.csv"));
    assert_eq!(table.len(), 4);
    // The assignment's published figures: level 5, budget 1,200,000.
    let r = row(&table, "5", "1200000");
    assert_eq!(r["expanded"], "1090275");
    assert_eq!(r["generated"], "4898609");
    assert_eq!(r["solution_length"], "35");
    assert_eq!(r["pegs_left"], "1");
    assert_eq!(r["initial_pegs"], "36");
    assert_eq!(r["solved"], "true");
    // With 10,000 expansions the budget is spent and pegs remain.
    let r = row(&table, "5", "10000");
    assert_eq!(r["expanded"], "10000");
    assert_eq!(r["pegs_left"], "4");
    // The English board is solved long before either budget.
    for b in ["10000", "1200000"] {
        let r = row(&table, "4", b);
        assert_eq!(
            (r["expanded"].as_str(), r["pegs_left"].as_str()),
            ("1065", "1")
        );
    }
    for r in &table {
        let t: f64 = r["time_seconds"].parse().unwrap();
        let rate: f64 = r["expanded_per_second"].parse().unwrap();
        assert!(t > 0.0 && rate > 0.0, "timings recorded: {r:?}");
    }
    for f in [
        "summary_by_level_budget.csv",
        "pegs_left_by_initial_pegs.png",
        "manifest.json",
    ] {
        assert!(exp.join(f).is_file(), "{f}");
    }
}

#[test]
fn budget_runs_are_reproducible_and_reused() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    run_budget(a.path(), &[]);
    run_budget(b.path(), &["--jobs", "1"]);
    let (ta, tb) = (
        rows(&a.path().join("pegsol_budget/results.csv")),
        rows(&b.path().join("pegsol_budget/results.csv")),
    );
    assert_eq!(ta.len(), tb.len());
    for (x, y) in ta.iter().zip(&tb) {
        for (k, v) in x {
            if !k.ends_with("_seconds") && !k.ends_with("_per_second") {
                assert_eq!(Some(v), y.get(k), "column {k}");
            }
        }
    }
    let again = run_config("pegsol_budget", a.path(), &[], &BUDGET_SETS);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again.stdout.contains("0 computed, 4 reused")
            || again.stderr.contains("0 computed, 4 reused"),
        "a rerun reuses every run: {} {}",
        again.stdout,
        again.stderr
    );
}

#[test]
fn strong_config_proves_the_fewest_pegs() {
    let dir = tempfile::tempdir().unwrap();
    let res = run_config(
        "pegsol_strong",
        dir.path(),
        &["--quiet"],
        &["sweep.level=[3]"],
    );
    assert_eq!(res.code, 0, "stderr: {}", res.stderr);
    let table = rows(&dir.path().join("pegsol_strong/results.csv"));
    let mut variants: Vec<&str> = table.iter().map(|r| r["variant"].as_str()).collect();
    variants.sort();
    assert_eq!(variants, vec!["budget_1500000", "proof"]);
    for r in &table {
        assert_eq!(r["pegs_left"], "1", "{r:?}");
        assert_eq!(r["proved_optimal"], "true", "{r:?}");
        assert_eq!(r["expanded"], "2274", "{r:?}");
    }
    let proof = table.iter().find(|r| r["variant"] == "proof").unwrap();
    assert_eq!(proof["budget"], "", "the proof runs without a budget");
}

#[test]
fn the_study_and_its_configs_are_listed() {
    let res = common::run(&["list"], "");
    assert_eq!(res.code, 0, "{}", res.stderr);
    for (name, runs) in [
        ("pegsol_budget", 36),
        ("pegsol_budget_curve", 40),
        ("pegsol_strong", 18),
    ] {
        let line = res
            .stdout
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} is not listed: {}", res.stdout));
        assert!(line.contains(&format!("{runs} runs")), "{line}");
    }
    assert!(
        res.stdout
            .lines()
            .any(|l| l.trim_start().starts_with("pegsol ") && l.contains("2 questions")),
        "{}",
        res.stdout
    );
}
