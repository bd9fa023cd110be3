//! Issue 52, the third hostile pass, through the binary: each numbered finding is a test
//! that failed before the change. Report pages run no one's script; journals, shard
//! journals, checkpoint logs and tuning journals are never written through a symlink;
//! `--force` loses no finished run; no command panics on a closed or full standard
//! output; a damaged checkpoint is discarded, never resumed from; each study keeps its
//! own figures; damaged journal lines are set aside once and for all; unreadable tables
//! and unwritable folders are exit 2; messages say the real reason.

mod common;

use common::{Output, assert_user_error, run_in};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// A small sweep: 2 decays × 8 seeds of annealing on 5×5 mazes, 16 runs.
const TINY: &str = r#"[experiment]
name = "tiny"
domain = "rjm"
algorithm = "anneal"

[params]
size = 5
evaluations = 200
schedule = "geometric"

[sweep]
decay = [0.9, 0.99]

[replicates]
count = 8
base_seed = 1
"#;

/// A project folder with the tiny config.
fn project() -> tempfile::TempDir {
    let p = tempfile::tempdir().unwrap();
    for d in ["configs", "experiments"] {
        std::fs::create_dir_all(p.path().join(d)).unwrap();
    }
    std::fs::write(p.path().join("configs/tiny.toml"), TINY).unwrap();
    p
}

fn sl(dir: &Path, args: &[&str]) -> Output {
    run_in(Some(dir), args, "")
}

fn ok(out: &Output) {
    assert_eq!(out.code, 0, "stdout {}\nstderr {}", out.stdout, out.stderr);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
}

/// The journal's lines, and its distinct run keys.
fn journal(path: &Path) -> (Vec<String>, std::collections::BTreeSet<String>) {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let keys = lines
        .iter()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["key"].as_str().map(str::to_string))
        .collect();
    (lines, keys)
}

#[test]
fn finding1_payloads_in_studies_journals_and_paths_run_nowhere() {
    let p = project();
    // An output folder whose name would close a code span and open markup.
    let out = p.path().join("o`<img src=x onerror=alert(5)>`");
    let out_arg = out.to_str().unwrap();
    ok(&sl(p.path(), &["run", "tiny", "--quiet", "--out", out_arg]));
    // A journal value carrying markup, shown by a rows block.
    let path = out.join("tiny/runs.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let first = text.lines().next().unwrap();
    let mut v: serde_json::Value = serde_json::from_str(first).unwrap();
    for m in v["metrics"].as_array_mut().unwrap() {
        if m[0] == "best_maze" {
            m[1] = "<script>document.title='pwned'</script><img src=x onerror=alert(1)>".into();
        }
    }
    std::fs::write(&path, text.replacen(first, &v.to_string(), 1)).unwrap();
    let payload = r#"<script>alert(1)</script><img src=x onerror=alert(2)><iframe src=\"javascript:alert(3)\"></iframe><object data=\"data:text/html,x\"></object><base href=\"http://evil.example/\"><meta http-equiv=\"refresh\" content=\"0\"><form action=\"http://evil.example\"></form> [a](javascript:alert(4)) [b](data:text/html,x) [ok](https://example.org)"#;
    let study = format!(
        r#"title = "T {payload}"
intro = "I {payload}"

[[question]]
title = "Q **bold** {payload}"
answer = "A {payload} {{by.best.group}}"

[[question.block]]
kind = "text"
text = "X {payload}"

[[question.block]]
kind = "compare"
name = "by"
experiment = "tiny"
group = "decay"
metric = "best_path_length"
headers = {{ decay = "H {payload}" }}

[[question.block]]
kind = "box"
experiment = "tiny"
x = "decay"
metric = "best_path_length"
caption = "C {payload}"

[[question.block]]
kind = "rows"
experiment = "tiny"
columns = ["replicate", "best_maze"]
sort = "replicate"
"#
    );
    std::fs::write(p.path().join("experiments/evil.toml"), study).unwrap();
    let r = sl(
        p.path(),
        &["report", "--study", "evil", "--quiet", "--out", out_arg],
    );
    ok(&r);
    let html = std::fs::read_to_string(out.join("report/evil.html")).unwrap();
    let body = &html[html.find("<body>").unwrap()..];
    let live = searchlab::report::html::audit(body);
    assert!(live.is_empty(), "live markup: {live:?}");
    // Every payload reached the page, as text.
    assert!(body.matches("&lt;script&gt;").count() >= 7, "{body}");
    assert!(
        body.contains("&lt;script&gt;document.title"),
        "the journal's value is shown"
    );
    assert!(body.contains("<a href=\"https://example.org\">ok</a>"));
    assert!(body.contains("<strong>bold</strong>"));
    assert_eq!(
        html.matches("<script").count(),
        1,
        "only the page's own script"
    );
}

#[test]
fn finding2_journals_that_are_symlinks_are_refused_and_nothing_outside_is_written() {
    let p = project();
    let outside = p.path().join("outside.jsonl");
    let dir = p.path().join("outputs/tiny");
    std::fs::create_dir_all(&dir).unwrap();
    for (file, args) in [
        ("runs.jsonl", vec!["run", "tiny", "--quiet"]),
        (
            "runs.shard-0-of-2.jsonl",
            vec!["run", "tiny", "--quiet", "--shard", "0/2"],
        ),
        ("runs.checkpoints.jsonl", vec!["run", "tiny", "--quiet"]),
    ] {
        for dangling in [false, true] {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&outside, "keep\n").unwrap();
            let target = if dangling {
                p.path().join("nowhere.jsonl")
            } else {
                outside.clone()
            };
            std::os::unix::fs::symlink(&target, dir.join(file)).unwrap();
            let r = sl(p.path(), &args);
            assert_user_error(&r, &format!("{file}: the "));
            assert!(r.stderr.contains("is a symlink"), "{}", r.stderr);
            assert_eq!(
                std::fs::read_to_string(&outside).unwrap(),
                "keep\n",
                "{file}"
            );
            assert!(
                !p.path().join("nowhere.jsonl").exists(),
                "{file}: no target created"
            );
        }
    }
    // A tuning's journal.
    std::fs::write(
        p.path().join("configs/race.toml"),
        format!(
            "{}\n[tune]\nmetric = \"best_path_length\"\nbudget = 8\ntrain_seeds = 4\ntest_seeds = 2\nfirst_test = 2\n",
            TINY.replace("name = \"tiny\"", "name = \"race\"")
        ),
    )
    .unwrap();
    let tune_dir = p.path().join("outputs/race/tune");
    std::fs::create_dir_all(&tune_dir).unwrap();
    std::os::unix::fs::symlink(&outside, tune_dir.join("evaluations.jsonl")).unwrap();
    let r = sl(p.path(), &["tune", "race", "--quiet"]);
    assert_user_error(&r, "evaluations.jsonl: the journal is a symlink");
    // Merging folders copies runs into the first one's journal: not through a link.
    let _ = std::fs::remove_dir_all(p.path().join("outputs"));
    ok(&sl(p.path(), &["run", "tiny", "--quiet", "--out", "b"]));
    std::fs::create_dir_all(p.path().join("a/tiny")).unwrap();
    std::fs::copy(
        p.path().join("b/tiny/manifest.json"),
        p.path().join("a/tiny/manifest.json"),
    )
    .unwrap();
    std::os::unix::fs::symlink(&outside, p.path().join("a/tiny/runs.jsonl")).unwrap();
    let r = sl(p.path(), &["merge", "a/tiny", "b/tiny"]);
    assert_user_error(&r, "runs.jsonl: the journal is a symlink");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep\n");
}

#[test]
fn finding3_force_keeps_every_finished_run_and_a_kill_loses_nothing() {
    let p = project();
    let path = p.path().join("outputs/tiny/runs.jsonl");
    ok(&sl(p.path(), &["run", "tiny", "--quiet"]));
    let (_, all) = journal(&path);
    assert_eq!(all.len(), 16);
    // A narrowed --force recomputes its runs and keeps the others.
    let r = sl(
        p.path(),
        &[
            "run",
            "tiny",
            "--quiet",
            "--force",
            "--set",
            "sweep.decay=[0.99]",
        ],
    );
    ok(&r);
    let (lines, keys) = journal(&path);
    assert_eq!(keys, all, "every run is still in the journal");
    assert_eq!(
        lines.len(),
        16,
        "each recomputed run replaced its record: {lines:?}"
    );
    assert!(r.stdout.contains("(8 computed, 0 reused)"), "{}", r.stdout);
    // A shard's --force likewise keeps the shard's other records.
    let shard = p.path().join("outputs/tiny/runs.shard-0-of-2.jsonl");
    let r = sl(
        p.path(),
        &[
            "run",
            "tiny",
            "--quiet",
            "--force",
            "--shard",
            "0/2",
            "--set",
            "replicates.count=1",
        ],
    );
    ok(&r);
    let (_, in_shard) = journal(&shard);
    assert!(in_shard.is_empty() || in_shard.iter().all(|k| all.contains(k)));
    let (_, keys) = journal(&path);
    assert_eq!(keys, all);
    for f in ["runs.shard-0-of-2.jsonl", "shard-0-of-2.json"] {
        let _ = std::fs::remove_file(p.path().join("outputs/tiny").join(f));
    }
    // Killed while forcing a larger sweep: every run finished before stays.
    let big = TINY
        .replace("count = 8", "count = 400")
        .replace("evaluations = 200", "evaluations = 3000");
    std::fs::write(p.path().join("configs/tiny.toml"), big).unwrap();
    ok(&sl(p.path(), &["run", "tiny", "--quiet", "--jobs", "2"]));
    let (_, before) = journal(&path);
    assert_eq!(
        before.len(),
        816,
        "the 800 runs, and the 16 of the smaller sweep"
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(["run", "tiny", "--quiet", "--force", "--jobs", "2"])
        .current_dir(p.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    child.kill().unwrap();
    child.wait().unwrap();
    let (_, after) = journal(&path);
    assert_eq!(
        after, before,
        "no finished run lost to a kill during --force"
    );
    let r = sl(p.path(), &["run", "tiny", "--quiet"]);
    ok(&r);
    assert!(
        r.stdout.contains("(0 computed, 800 reused)"),
        "{}",
        r.stdout
    );
}

/// Every subcommand, as a user could run it into a closed pipe or a full device.
fn commands(project: &Path) -> Vec<Vec<String>> {
    let maze = project.join("maze.txt");
    std::fs::write(
        &maze,
        "3 3 2 4 3\n2 2 2 1 1\n4 3 1 3 4\n2 3 1 1 3\n1 1 3 2 0\n",
    )
    .unwrap();
    let puzzle = project.join("p.txt");
    std::fs::write(&puzzle, "1 2 3 4 5 6 0 7 8").unwrap();
    let words = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
    let mut out = vec![
        words("run tiny --quiet"),
        words("list"),
        words("list rjm/anneal"),
        words("compare outputs/tiny --by decay --metric best_path_length"),
        words("merge outputs/tiny"),
        words("init initdir"),
        words("slurm tiny --tasks 2"),
        words("rjm generate --size 5 --seed 1"),
        words("rjm descend --iterations 100 --seed 1"),
        words("tiles census --width 2 --height 3"),
        words("tiles solve p.txt --algorithm bfs"),
        words("tiles successors p.txt"),
        words("pegsol levels"),
        words("pegsol solve --level 2"),
        words("pegsol count --level 1"),
        words("--help"),
        words("run --help"),
        words("--version"),
    ];
    out.push(vec![
        "rjm".into(),
        "evaluate".into(),
        "--maze".into(),
        maze.display().to_string(),
    ]);
    out
}

#[test]
fn finding4_no_command_panics_on_a_closed_or_full_standard_output() {
    let p = project();
    ok(&sl(p.path(), &["run", "tiny", "--quiet"]));
    for args in commands(p.path()) {
        // A closed pipe: the reader is gone before the first write.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_searchlab"))
            .args(&args)
            .current_dir(p.path())
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?} | true: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        // A full device: exit 2 naming standard output.
        let out = Command::new(env!("CARGO_BIN_EXE_searchlab"))
            .args(&args)
            .current_dir(p.path())
            .stdin(Stdio::null())
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?} > /dev/full: {stderr}");
        assert!(
            stderr.contains("standard output: the device is full"),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        let _ = std::fs::remove_dir_all(p.path().join("initdir"));
    }
}

/// Korf's instance 1 with Manhattan distance and Korf's move order: 57 moves, a few
/// seconds, checkpoints at every iteration that takes a tenth of a second.
const KORF1: &str = r#"[experiment]
name = "korf1"
domain = "tiles"
algorithm = "ida"

[params]
instance_set = "korf100"
instance = 1
heuristic = "manhattan"
move_order = "ULRD"
"#;

#[test]
fn finding5_a_damaged_checkpoint_is_discarded_with_a_warning_never_resumed_from() {
    let p = project();
    std::fs::write(p.path().join("configs/korf1.toml"), KORF1).unwrap();
    ok(&sl(p.path(), &["run", "korf1", "--quiet"]));
    let dir = p.path().join("outputs/korf1");
    let whole = common::reproducible(&dir.join("results.csv"));
    assert!(whole.contains(",57,"), "{whole}");
    let log = dir.join("runs.checkpoints.jsonl");
    let checkpoints: Vec<serde_json::Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        !checkpoints.is_empty(),
        "a run of seconds writes checkpoints"
    );
    let last = checkpoints.last().unwrap().clone();
    let key = last["key"].as_str().unwrap().to_string();
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let edits: Vec<(&str, Edit)> = vec![
        ("edited next", Box::new(|s| s["next"] = 71.into())),
        (
            "edited counts",
            Box::new(|s| s["generated"] = 1_405_102.into()),
        ),
    ];
    for (what, edit) in edits {
        // The run's journal line removed, its last checkpoint edited: its checksum fails.
        std::fs::write(dir.join("runs.jsonl"), "").unwrap();
        let mut line = last.clone();
        edit(&mut line["state"]);
        std::fs::write(&log, format!("{line}\n")).unwrap();
        let r = sl(p.path(), &["run", "korf1"]);
        ok(&r);
        assert!(
            r.stderr
                .contains("discarded 1 checkpoint line(s) that fail their check"),
            "{what}: {}",
            r.stderr
        );
        assert_eq!(
            common::reproducible(&dir.join("results.csv")),
            whole,
            "{what}"
        );
    }
    // A checkpoint sent backwards (`next` below its last threshold) fails the search's
    // check even with a sound checksum.
    std::fs::write(dir.join("runs.jsonl"), "").unwrap();
    let mut line = last.clone();
    line["state"]["next"] = (line["state"]["thresholds"][0].as_u64().unwrap() + 1).into();
    line["check"] =
        searchlab::pipeline::journal::checkpoints::checksum(&key, &line["state"]).into();
    std::fs::write(&log, format!("{line}\n")).unwrap();
    let r = sl(p.path(), &["run", "korf1"]);
    ok(&r);
    assert!(
        r.stderr.contains("checkpoint of this run is discarded"),
        "{}",
        r.stderr
    );
    assert_eq!(common::reproducible(&dir.join("results.csv")), whole);
}

#[test]
fn finding6_each_study_keeps_its_own_figures_and_files() {
    let p = project();
    for (name, title) in [("a", "Figure of study a"), ("b", "Figure of study b")] {
        std::fs::write(
            p.path().join(format!("experiments/{name}.toml")),
            format!(
                "title = \"{name}\"\n\n[[question]]\ntitle = \"q\"\n\n[[question.block]]\nkind = \"box\"\nname = \"fig\"\nexperiment = \"tiny\"\nx = \"decay\"\nmetric = \"best_path_length\"\ntitle = \"{title}\"\n"
            ),
        )
        .unwrap();
    }
    ok(&sl(
        p.path(),
        &["report", "--study", "a", "--study", "b", "--quiet"],
    ));
    let report = p.path().join("outputs/report");
    let a = std::fs::read_to_string(report.join("a.md")).unwrap();
    let b = std::fs::read_to_string(report.join("b.md")).unwrap();
    assert!(
        a.contains("](figures/a/fig.png)") && !a.contains("figures/b/"),
        "{a}"
    );
    assert!(
        b.contains("](figures/b/fig.png)") && !b.contains("figures/a/"),
        "{b}"
    );
    let svg =
        |s: &str| std::fs::read_to_string(report.join(format!("figures/{s}/fig.svg"))).unwrap();
    assert!(svg("a").contains("Figure of study a") && svg("b").contains("Figure of study b"));
    let html = std::fs::read_to_string(report.join("a.html")).unwrap();
    assert!(html.contains("Figure of study a") && !html.contains("Figure of study b"));
    assert!(html.contains("figures/a/fig.svg") && !html.contains("figures/b/"));
    // A study file named report.toml never writes the whole report's file.
    std::fs::create_dir_all(p.path().join("sub")).unwrap();
    std::fs::copy(
        p.path().join("experiments/a.toml"),
        p.path().join("sub/report.toml"),
    )
    .unwrap();
    let r = sl(
        p.path(),
        &["report", "--study", "sub/report.toml", "--quiet"],
    );
    assert_user_error(
        &r,
        "sub/report.toml: a study file may not be named report.toml",
    );
    assert!(!report.join("report.md").exists());
    // The same study named twice is one study.
    let r = sl(
        p.path(),
        &["report", "--study", "a", "--study", "a", "--quiet"],
    );
    ok(&r);
    assert_eq!(r.stdout.matches("a.md").count(), 1, "{}", r.stdout);
    // A study file and a catalog study of one name would write the same files.
    std::fs::copy(
        p.path().join("experiments/b.toml"),
        p.path().join("sub/a.toml"),
    )
    .unwrap();
    let r = sl(
        p.path(),
        &["report", "--study", "a", "--study", "sub/a.toml", "--quiet"],
    );
    assert_user_error(&r, "are both studies named \"a\"");
}

/// The first record of `journal` with its metric `name` set to the JSON text `value`.
fn damage(journal: &Path, edit: impl Fn(&str) -> String) {
    let text = std::fs::read_to_string(journal).unwrap();
    let first = text.lines().next().unwrap().to_string();
    std::fs::write(journal, text.replacen(&first, &edit(&first), 1)).unwrap();
}

#[test]
fn finding7_a_damaged_line_is_set_aside_once_and_the_next_commands_work() {
    let value = |v: &'static str| {
        move |line: &str| {
            let at = line.find("[\"best_path_length\",").unwrap();
            let end = at + line[at..].find(']').unwrap();
            format!("{}[\"best_path_length\",{v}{}", &line[..at], &line[end..])
        }
    };
    type Damage = Box<dyn Fn(&str) -> String>;
    let cases: Vec<(&str, Damage)> = vec![
        ("17.5", Box::new(value("17.5"))),
        ("1e308", Box::new(value("1e308"))),
        ("2^70", Box::new(value("1180591620717411303424"))),
        (
            "unknown metric",
            Box::new(|l: &str| l.replacen("\"metrics\":[", "\"metrics\":[[\"nonsense\",1],", 1)),
        ),
        (
            "metrics twice",
            Box::new(|l: &str| l.replacen("{", "{\"metrics\":[],", 1)),
        ),
        (
            "key twice",
            Box::new(|l: &str| l.replacen("{", "{\"key\":\"0000000000000000\",", 1)),
        ),
        (
            "metric twice",
            Box::new(|l: &str| {
                l.replacen("\"metrics\":[", "\"metrics\":[[\"best_path_length\",3],", 1)
            }),
        ),
        (
            "empty anytime",
            Box::new(|l: &str| {
                let at = l.find("\"anytime\":[").unwrap() + "\"anytime\":".len();
                let end = at + l[at..].find("]]").unwrap() + 2;
                format!("{}[]{}", &l[..at], &l[end..])
            }),
        ),
        (
            "reversed anytime",
            Box::new(|l: &str| {
                let at = l.find("\"anytime\":[").unwrap() + "\"anytime\":".len();
                let end = at + l[at..].find("]]").unwrap() + 2;
                let mut points: Vec<serde_json::Value> = serde_json::from_str(&l[at..end]).unwrap();
                points.reverse();
                format!(
                    "{}{}{}",
                    &l[..at],
                    serde_json::Value::from(points),
                    &l[end..]
                )
            }),
        ),
        (
            "anytime past the budget",
            Box::new(|l: &str| {
                // The last point (the budget of 200 evaluations) moved to 2000.
                let at = l.find("]],").unwrap();
                let start = l[..at].rfind('[').unwrap();
                let value = l[start..at].split_once(',').unwrap().1;
                format!("{}[2000,{value}{}", &l[..start], &l[at..])
            }),
        ),
    ];
    for (what, edit) in cases {
        let p = project();
        ok(&sl(p.path(), &["run", "tiny", "--quiet"]));
        let journal = p.path().join("outputs/tiny/runs.jsonl");
        let anytime_rows = std::fs::read_to_string(p.path().join("outputs/tiny/anytime.csv"))
            .unwrap()
            .lines()
            .count();
        damage(&journal, &edit);
        let r = sl(p.path(), &["run", "tiny", "--quiet"]);
        ok(&r);
        assert!(
            r.stderr.contains("set aside 1 damaged line (line 1"),
            "{what}: {}",
            r.stderr
        );
        assert!(
            r.stdout.contains("(1 computed, 15 reused)"),
            "{what}: {}",
            r.stdout
        );
        let aside =
            std::fs::read_to_string(p.path().join("outputs/tiny/runs.rejected.jsonl")).unwrap();
        assert_eq!(aside.lines().count(), 1, "{what}");
        assert!(aside.contains("\"reason\""), "{what}: {aside}");
        // The repair sticks: run, merge and report all work, and say nothing more.
        for args in [
            vec!["run", "tiny", "--quiet"],
            vec!["merge", "outputs/tiny"],
        ] {
            let r = sl(p.path(), &args);
            ok(&r);
            assert!(
                !r.stderr.contains("warning"),
                "{what}, {args:?}: {}",
                r.stderr
            );
        }
        let rows = std::fs::read_to_string(p.path().join("outputs/tiny/anytime.csv"))
            .unwrap()
            .lines()
            .count();
        assert_eq!(
            rows, anytime_rows,
            "{what}: the anytime table keeps every row"
        );
    }
    // A tuning's journal is checked as a run's is.
    let p = project();
    std::fs::write(
        p.path().join("configs/race.toml"),
        format!(
            "{}\n[tune]\nmetric = \"best_path_length\"\nbudget = 8\ntrain_seeds = 4\ntest_seeds = 2\nfirst_test = 2\n",
            TINY.replace("name = \"tiny\"", "name = \"race\"")
        ),
    )
    .unwrap();
    ok(&sl(p.path(), &["tune", "race", "--quiet"]));
    let tuned = common::reproducible(&p.path().join("outputs/race/tune/heldout.csv"));
    damage(
        &p.path().join("outputs/race/tune/evaluations.jsonl"),
        value("17.5"),
    );
    let r = sl(p.path(), &["tune", "race", "--quiet"]);
    ok(&r);
    assert!(
        r.stderr
            .contains("evaluations.jsonl: set aside 1 damaged line"),
        "{}",
        r.stderr
    );
    let r = sl(p.path(), &["tune", "race", "--quiet"]);
    ok(&r);
    assert!(!r.stderr.contains("warning"), "{}", r.stderr);
    let again = common::reproducible(&p.path().join("outputs/race/tune/heldout.csv"));
    assert_eq!(again, tuned, "the same race");
}

/// Ranks the tiny sweep's decays, writing figures beside its tables.
const COMPARE: [&str; 6] = [
    "compare",
    "outputs/tiny",
    "--by",
    "decay",
    "--metric",
    "best_path_length",
];

#[test]
fn finding8_unreadable_tables_and_unwritable_folders_are_exit_2() {
    let p = project();
    ok(&sl(p.path(), &["run", "tiny", "--quiet"]));
    let table = p.path().join("outputs/tiny/results.parquet");
    let good = std::fs::read(&table).unwrap();
    for bytes in [
        good[..good.len() / 2].to_vec(),
        Vec::new(),
        b"garbage, not parquet".to_vec(),
    ] {
        std::fs::write(&table, &bytes).unwrap();
        let r = sl(p.path(), &COMPARE);
        assert_user_error(&r, "results.parquet: not a readable Parquet table");
    }
    std::fs::write(&table, &good).unwrap();
    // A folder it cannot write: immutable (which binds root too), else read-only.
    let dir = p.path().join("outputs/tiny");
    let immutable = Command::new("chattr")
        .arg("+i")
        .arg(&dir)
        .status()
        .is_ok_and(|s| s.success());
    if !immutable {
        let mut perms = std::fs::metadata(&dir).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o555);
        std::fs::set_permissions(&dir, perms).unwrap();
    }
    let r = sl(p.path(), &COMPARE);
    if immutable {
        let _ = Command::new("chattr").arg("-i").arg(&dir).status();
    }
    let writable = std::fs::File::create(dir.join("probe")).is_ok();
    if !writable || immutable {
        assert_user_error(&r, "outputs/tiny/compare_best_path_length_by_decay");
        assert!(
            r.stderr.contains("permission denied") || r.stderr.contains("operation not permitted"),
            "{}",
            r.stderr
        );
    }
    // A full disk while the Parquet table is written: the disk is named full.
    common::with_tmpfs("1m", |disk| {
        let out = disk.join("out");
        let filler = disk.join("filler");
        let mut found = false;
        for free_kb in [12u64, 20, 28, 36, 48, 64, 96] {
            let _ = std::fs::remove_dir_all(&out);
            let _ = std::fs::remove_file(&filler);
            std::fs::write(&filler, vec![0u8; ((1024 - free_kb) * 1024) as usize]).unwrap();
            let r = sl(
                p.path(),
                &["run", "tiny", "--quiet", "--out", out.to_str().unwrap()],
            );
            if r.code == 2 {
                assert!(
                    r.stderr.contains("the disk is full"),
                    "{free_kb} KB: {}",
                    r.stderr
                );
                assert!(!r.stderr.contains("thrift"), "{}", r.stderr);
                found |= r.stderr.contains(".parquet");
            } else {
                assert_eq!(r.code, 0, "{}", r.stderr);
            }
        }
        assert!(found, "some level of fill met the Parquet writer");
    });
}

#[test]
fn finding9_messages_say_the_real_reason() {
    let p = project();
    ok(&sl(p.path(), &["run", "tiny", "--quiet"]));
    // A study named twice is one study.
    std::fs::write(
        p.path().join("experiments/n6.toml"),
        "title = \"N6\"\n\n[[question]]\ntitle = \"q\"\n\n[[question.block]]\nkind = \"box\"\nexperiment = \"tiny\"\nx = \"decay\"\nmetric = \"best_path_length\"\n",
    )
    .unwrap();
    ok(&sl(
        p.path(),
        &["report", "--study", "n6", "--study", "n6", "--quiet"],
    ));
    // A relative config name is fine for slurm (the binary has it); no path is blamed.
    let r = sl(p.path(), &["slurm", "tiny", "--tasks", "2"]);
    ok(&r);
    // A block's experiment that is a path, not a config's name.
    std::fs::write(
        p.path().join("experiments/up.toml"),
        "title = \"U\"\n\n[[question]]\ntitle = \"q\"\n\n[[question.block]]\nkind = \"box\"\nexperiment = \"../tiny\"\nx = \"decay\"\nmetric = \"best_path_length\"\n",
    )
    .unwrap();
    let r = sl(p.path(), &["report", "--study", "up", "--quiet"]);
    assert_user_error(&r, "unknown experiment \"../tiny\"");
    assert!(!r.stderr.contains("tuning"), "{}", r.stderr);
    // A whole number past 64 bits.
    let r = sl(
        p.path(),
        &[
            "run",
            "tiny",
            "--set",
            "params.evaluations=18446744073709551615",
        ],
    );
    assert_user_error(&r, "the number \"18446744073709551615\" is out of range");
    // Blank lines in a journal are nothing to warn of.
    let journal = p.path().join("outputs/tiny/runs.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    std::fs::write(&journal, format!("\n\n{}\n\n", text.replace('\n', "\n\n"))).unwrap();
    let r = sl(p.path(), &["run", "tiny", "--quiet"]);
    ok(&r);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    assert!(r.stdout.contains("(0 computed, 16 reused)"), "{}", r.stdout);
    // A folder the file system will not make.
    let r = sl(p.path(), &["run", "tiny", "--out", "/proc"]);
    assert_user_error(&r, "/proc does not take new folders");
    // --help on a full device is no success.
    let out = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .arg("--help")
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // run --help suggests a key that exists.
    let r = sl(p.path(), &["run", "--help"]);
    assert!(r.stdout.contains("params.evaluations=") && !r.stdout.contains("params.iterations"));
    // An unknown column offers the nearest names, not every column.
    std::fs::write(
        p.path().join("experiments/col.toml"),
        "title = \"C\"\n\n[[question]]\ntitle = \"q\"\n\n[[question.block]]\nkind = \"box\"\nexperiment = \"tiny\"\nx = \"decay\"\nmetric = \"best_path_lenght\"\n",
    )
    .unwrap();
    let r = sl(p.path(), &["report", "--study", "col", "--quiet"]);
    assert_user_error(
        &r,
        "unknown column \"best_path_lenght\" for experiment tiny; did you mean best_path_length",
    );
    assert!(r.stderr.len() < 300, "{}", r.stderr);
    // An unknown fact names the fact, not the whole template, and offers the nearest.
    let long = "word ".repeat(300);
    std::fs::write(
        p.path().join("experiments/fact.toml"),
        format!(
            "title = \"F\"\n\n[[question]]\ntitle = \"q\"\nanswer = \"{long} {{c.bset.group}}\"\n\n[[question.block]]\nkind = \"compare\"\nname = \"c\"\nexperiment = \"tiny\"\ngroup = \"decay\"\nmetric = \"best_path_length\"\n"
        ),
    )
    .unwrap();
    let r = sl(p.path(), &["report", "--study", "fact", "--quiet"]);
    assert_user_error(
        &r,
        "no fact named \"c.bset.group\"; did you mean c.best.group",
    );
    assert!(r.stderr.len() < 300, "{}", r.stderr);
    // A title with markup links from the contents to its heading.
    std::fs::write(
        p.path().join("experiments/mark.toml"),
        "title = \"Mazes, **bold**, <i>raw</i> and `coded`\"\n\n[[question]]\ntitle = \"q\"\n\n[[question.block]]\nkind = \"box\"\nexperiment = \"tiny\"\nx = \"decay\"\nmetric = \"best_path_length\"\n",
    )
    .unwrap();
    ok(&sl(p.path(), &["report", "--study", "mark", "--quiet"]));
    let html = std::fs::read_to_string(p.path().join("outputs/report/mark.html")).unwrap();
    let link = html
        .split("href=\"#")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    assert!(
        html.contains(&format!("<h2 id=\"{link}\"")),
        "{link}: {html}"
    );
}

/// Stopped while the report renders: no report is written, and the exit code says so.
#[test]
fn finding9_a_stop_while_the_report_renders_is_exit_130() {
    let p = project();
    let many: String = (0..60)
        .map(|i| format!("\n[[question.block]]\nkind = \"box\"\nname = \"b{i}\"\nexperiment = \"tiny\"\nx = \"decay\"\nmetric = \"best_path_length\"\n"))
        .collect();
    std::fs::write(
        p.path().join("experiments/slow.toml"),
        format!("title = \"S\"\n\n[[question]]\ntitle = \"q\"\n{many}"),
    )
    .unwrap();
    ok(&sl(p.path(), &["run", "tiny", "--quiet"]));
    let child = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(["report", "--study", "slow", "--quiet"])
        .current_dir(p.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the rendering to start (the first figure), then Ctrl-C.
    let figures: PathBuf = p.path().join("outputs/report/figures/slow");
    let started = std::time::Instant::now();
    while !figures.join("b0.png").exists() && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("slow.md was not written"), "{stderr}");
    assert!(!p.path().join("outputs/report/slow.md").exists());
}

/// The fourth pass: what a broken standard error, a text column, a repeated experiment,
/// too many targets, a sampled budget, a negative flag and escape codes in a config get.
#[test]
fn fourth_pass_findings_are_one_line_errors_or_harmless() {
    let p = project();
    let dir = p.path();
    // Standard error on a full device: no panic (exit 0; nothing can be said).
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(["run", "tiny", "--jobs", "2"])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(full)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    // A text column as a block's metric.
    let study = |blocks: &str| {
        format!(
            "title = \"t\"\ndefault = false\n\n[[question]]\ntitle = \"q\"\nanswer = \"a\"\n\n{blocks}"
        )
    };
    std::fs::write(
        dir.join("experiments/s1.toml"),
        study("[[question.block]]\nkind = \"table\"\nexperiment = \"tiny\"\ngroup = \"decay\"\nmetric = \"best_maze\"\n"),
    )
    .unwrap();
    assert_user_error(
        &sl(dir, &["report", "--study", "s1"]),
        "is text, not a number",
    );
    // One experiment twice in a block.
    std::fs::write(
        dir.join("experiments/s2.toml"),
        study("[[question.block]]\nkind = \"box\"\nexperiment = [\"tiny\", \"tiny\"]\nx = \"decay\"\nmetric = \"best_path_length\"\n"),
    )
    .unwrap();
    assert_user_error(&sl(dir, &["report", "--study", "s2"]), "listed twice");
    // Ten thousand targets.
    let targets: Vec<String> = (0..10_000).map(|i| format!("-{i}")).collect();
    std::fs::write(
        dir.join("experiments/s3.toml"),
        study(&format!(
            "[[question.block]]\nkind = \"ecdf\"\nexperiment = \"tiny\"\ngroup = \"decay\"\ntargets = [{}]\n",
            targets.join(", ")
        )),
    )
    .unwrap();
    assert_user_error(&sl(dir, &["report", "--study", "s3"]), "takes at most 1000");
    // A race that samples the budget.
    let race = format!(
        "{}\n[[variant]]\nname = \"geo\"\n\n[tune]\nmetric = \"best_path_length\"\nbudget = 20\ntrain_seeds = 10\ntest_seeds = 2\nseed = 1\nsamples = 3\n\n[tune.sample.geo]\nevaluations = {{ min = 100, max = 1000 }}\n",
        TINY.replace("name = \"tiny\"", "name = \"race\"")
    );
    std::fs::write(dir.join("configs/race.toml"), race).unwrap();
    assert_user_error(
        &sl(dir, &["tune", "configs/race.toml"]),
        "tune.sample.geo.evaluations: evaluations is the run's budget",
    );
    // A negative count names its flag.
    assert_user_error(&sl(dir, &["run", "tiny", "--jobs", "-1"]), "--jobs");
    // Escape codes in a config's description are shown as escapes by `list`.
    std::fs::write(
        dir.join("configs/esc.toml"),
        TINY.replace(
            "name = \"tiny\"",
            "name = \"esc\"\ndescription = \"\\u001b]0;owned\\u0007\\u001b[2J\"",
        ),
    )
    .unwrap();
    let out = sl(dir, &["list"]);
    ok(&out);
    assert!(!out.stdout.contains('\u{1b}'), "{:?}", out.stdout);
    assert!(out.stdout.contains("\\u{1b}]0;owned"), "{}", out.stdout);
}
