//! `searchlab tune`: a race is the same whatever `--jobs`, resumes from its journal
//! without recomputing finished evaluations, respects its budget, and refuses a bad
//! `[tune]` section with a located error.

mod common;

use common::{assert_user_error, rows, run};
use std::collections::HashMap;
use std::path::Path;

const CONFIG: &str = r#"[experiment]
name = "race_toy"
domain = "rjm"
algorithm = "anneal"

[params]
size = 5
evaluations = 1500
start_seed = 4

[[variant]]
name = "geometric"
params = { schedule = "geometric" }
sweep = { initial_temperature = [0.05, 0.5, 2, 50], decay = [0.99, 1.0] }

[[variant]]
name = "geometric_end"
params = { schedule = "geometric_end", end_temperature = 0.1 }

[[variant]]
name = "constant"
params = { schedule = "constant" }
sweep = { initial_temperature = [0.5] }

[tune]
metric = "best_path_length"
better = "higher"
missing = 0
budget = 120
train_seeds = 40
test_seeds = 12
first_test = 4
seed = 3
samples = 6

[tune.sample.geometric_end]
initial_temperature = { min = 0.1, max = 20, scale = "log" }
end_temperature = { min = 0.01, max = 1, scale = "log" }
"#;

fn tune(config: &Path, out: &Path, jobs: &str) -> common::Output {
    run(
        &[
            "tune",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            jobs,
            "--quiet",
        ],
        "",
    )
}

/// A table's rows without its timing columns.
fn reproducible(csv: &Path) -> Vec<Vec<(String, String)>> {
    rows(csv)
        .into_iter()
        .map(|r| {
            let mut v: Vec<(String, String)> = r
                .into_iter()
                .filter(|(k, _)| !k.ends_with("_seconds") && !k.ends_with("_per_second"))
                .collect();
            v.sort();
            v
        })
        .collect()
}

const TABLES: [&str; 4] = ["race.csv", "race_steps.csv", "race_runs.csv", "heldout.csv"];

#[test]
fn a_race_is_reproducible_resumable_and_within_budget() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("race_toy.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    let a = tune(&config, &one, "1");
    assert_eq!(a.code, 0, "{}", a.stderr);
    let b = tune(&config, &two, "2");
    assert_eq!(b.code, 0, "{}", b.stderr);
    let (ta, tb) = (one.join("race_toy/tune"), two.join("race_toy/tune"));
    for t in TABLES {
        assert_eq!(reproducible(&ta.join(t)), reproducible(&tb.join(t)), "{t}");
    }
    assert!(ta.join("race.png").exists() && ta.join("manifest.json").exists());

    // Every family: one elite, evaluations within the budget, the same for all its
    // candidates; sampled candidates come from their ranges.
    let race = rows(&ta.join("race.csv"));
    let mut elites: HashMap<String, usize> = HashMap::new();
    for r in &race {
        let used: u64 = r["evaluations_used"].parse().unwrap();
        assert!(used <= 120, "{r:?}");
        if r["elite"] == "true" {
            *elites.entry(r["variant"].clone()).or_default() += 1;
            assert_eq!(r["dropped_after"], "", "an elite is never dropped");
        }
        if r["variant"] == "geometric_end" {
            let t0: f64 = r["initial_temperature"].parse().unwrap();
            let te: f64 = r["end_temperature"].parse().unwrap();
            assert!(
                (0.1..=20.0).contains(&t0) && (0.01..=1.0).contains(&te),
                "{r:?}"
            );
        }
    }
    assert_eq!(race.len(), 8 + 6 + 1);
    assert_eq!(elites.len(), 3);
    assert!(elites.values().all(|&n| n == 1));
    // The lone constant candidate is no race: it only runs on the held-out seeds.
    assert!(
        race.iter()
            .any(|r| r["variant"] == "constant" && r["instances"] == "0")
    );
    // Held out: each elite on the same 12 test seeds.
    let heldout = rows(&ta.join("heldout.csv"));
    assert_eq!(heldout.len(), 3 * 12);
    let seeds = |v: &str| -> Vec<String> {
        heldout
            .iter()
            .filter(|r| r["variant"] == v)
            .map(|r| r["instance_seed"].clone())
            .collect()
    };
    assert_eq!(seeds("geometric"), seeds("constant"));
    // No test seed was used in training.
    let train: Vec<String> = rows(&ta.join("race_runs.csv"))
        .into_iter()
        .map(|r| r["instance_seed"].clone())
        .collect();
    assert!(seeds("geometric").iter().all(|s| !train.contains(s)));

    // Resume: keep half the journal, and the same race comes out computing only the rest.
    let journal = ta.join("evaluations.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let kept = lines.len() / 2;
    std::fs::write(&journal, format!("{}\n", lines[..kept].join("\n"))).unwrap();
    let before: HashMap<&str, Vec<Vec<(String, String)>>> = TABLES
        .iter()
        .map(|t| (*t, reproducible(&ta.join(t))))
        .collect();
    let c = tune(&config, &one, "2");
    assert_eq!(c.code, 0, "{}", c.stderr);
    let computed = format!("({} computed)", lines.len() - kept);
    assert!(
        c.stdout.contains(&computed),
        "{} should say {computed}",
        c.stdout
    );
    for t in TABLES {
        assert_eq!(reproducible(&ta.join(t)), before[t], "{t} after the resume");
    }
}

#[test]
fn a_bad_tune_section_is_a_located_error() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("bad.toml");
    for (change, needle) in [
        (("budget = 120", "budget = 0"), "budget = 0 is out of range"),
        (
            ("seed = 3", "seed = 3\nbudgte = 4"),
            "unknown field `budgte`",
        ),
        (
            ("first_test = 4", "first_test = 400"),
            "first_test = 400 is out of range",
        ),
        (
            ("[tune.sample.geometric_end]", "[tune.sample.nosuch]"),
            "sample.nosuch: no variant of that name",
        ),
        (
            ("metric = \"best_path_length\"", "metric = \"length\""),
            "tune.metric \"length\" is not a metric",
        ),
    ] {
        std::fs::write(&config, CONFIG.replace(change.0, change.1)).unwrap();
        let out = tune(&config, &dir.path().join("o"), "1");
        assert_user_error(&out, needle);
        assert!(out.stderr.contains("bad.toml:"), "{}", out.stderr);
    }
    std::fs::write(&config, CONFIG).unwrap();
    let out = run(&["tune", config.to_str().unwrap(), "--budget", "0"], "");
    assert_user_error(&out, "--budget 0 is out of range");
}

/// What a tuning still has to compute (the progress bar's total): the most it can take,
/// less only the records of runs it can make. Records of another setting (here the
/// budget of evaluations per run) stay in the journal but count for nothing.
#[test]
fn only_reusable_records_shorten_what_a_tuning_has_to_compute() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("race_toy.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let out = dir.path().join("out");
    let a = tune(&config, &out, "2");
    assert_eq!(a.code, 0, "{}", a.stderr);
    let domains = searchlab::registry::domains();
    let runners = searchlab::domain::runners(&domains);
    let left = |text: &str| {
        let c = searchlab::pipeline::config::parse(text, "race_toy.toml", &[]).unwrap();
        let plan = searchlab::pipeline::plan::plan(&c, &runners).unwrap();
        let spec = searchlab::tune::spec_of(&c, &plan, &Default::default()).unwrap();
        let upper = searchlab::tune::most_evaluations(&plan, &spec);
        let left = searchlab::tune::to_evaluate(&c, &plan, &spec, &out, false).unwrap();
        (upper, left)
    };
    let (upper, same) = left(CONFIG);
    let journal = out.join("race_toy/tune/evaluations.jsonl");
    let lines = std::fs::read_to_string(&journal).unwrap().lines().count() as u64;
    assert_eq!(
        same,
        upper - lines,
        "every record of the same tuning is reusable"
    );
    let other = CONFIG.replace("evaluations = 1500", "evaluations = 1400");
    assert_eq!(
        left(&other),
        (upper, upper),
        "no record of another budget is"
    );
}
