//! The sliding-tile experiments of the report as a user runs them: the configs behind
//! the tiles and korf100 studies, shrunk with `--set` so they take seconds, checked for
//! the rows they produce, Korf's node counts and the published optimal lengths.

mod common;
use common::{assert_user_error, root, rows, run_config, run_in};
use std::collections::HashMap;

/// Runs `configs/<config>.toml` quietly with `sets`, checks that it succeeded and returns
/// the rows of its results table.
fn results(config: &str, sets: &[&str]) -> Vec<HashMap<String, String>> {
    let out = tempfile::tempdir().unwrap();
    let r = run_config(config, out.path(), &["--quiet"], sets);
    assert_eq!(r.code, 0, "{}", r.stderr);
    rows(&out.path().join(format!("{config}/results.csv")))
}

/// The row of `rows` whose columns hold the values `keys` says.
fn row<'a>(
    rows: &'a [HashMap<String, String>],
    keys: &[(&str, &str)],
) -> &'a HashMap<String, String> {
    rows.iter()
        .find(|r| keys.iter().all(|(k, v)| r[*k] == *v))
        .unwrap_or_else(|| panic!("no row with {keys:?}"))
}

#[test]
fn assignment_config_reproduces_the_seeds_rows_with_optimal_lengths() {
    let rows = results(
        "tiles_assignment",
        &[
            "sweep.instance=[2, 4]",
            "sweep.heuristic=[\"manhattan\", \"all\"]",
        ],
    );
    assert_eq!(rows.len(), 4);
    for row in &rows {
        assert_eq!(row["solved"], "true");
        assert_eq!(row["solution_length"], row["optimal"], "{row:?}");
        assert!(!row["thresholds"].is_empty());
        assert!(row["expanded_per_second"].parse::<f64>().unwrap() > 0.0);
    }
    let get = |id: &str, h: &str| {
        rows.iter()
            .find(|r| r["instance"] == id && r["heuristic"] == h)
            .unwrap_or_else(|| panic!("no row for {id} {h}"))
    };
    // The 15-puzzle assignment's table: instance 2 has h(s0) = 43, cost 55 and Korf's count 15,300,442.
    let two = get("2", "manhattan");
    assert_eq!(
        (two["h0"].as_str(), two["solution_length"].as_str()),
        ("43", "55")
    );
    assert_eq!(two["generated"], "15300442");
    assert_eq!(two["thresholds"], "43 45 47 49 51 53 55");
    // The improved heuristic needs fewer nodes on both instances.
    for id in ["2", "4"] {
        let m: u64 = get(id, "manhattan")["generated"].parse().unwrap();
        let a: u64 = get(id, "all")["generated"].parse().unwrap();
        assert!(a < m, "instance {id}: {a} >= {m}");
    }
}

#[test]
fn korf100_config_checks_against_korfs_table() {
    let rows = results(
        "korf100",
        &[
            "sweep.instance=[9, 12]",
            "sweep.heuristic=[\"manhattan\", \"linear\"]",
        ],
    );
    assert_eq!(rows.len(), 4);
    for row in &rows {
        assert_eq!(row["solution_length"], row["optimal"], "{row:?}");
        assert!(row["h0"].parse::<u32>().unwrap() <= row["optimal"].parse::<u32>().unwrap());
    }
    let nine = rows
        .iter()
        .find(|r| r["instance"] == "9" && r["heuristic"] == "manhattan")
        .unwrap();
    assert_eq!(nine["generated"], "1650696", "Korf (1985), instance 9");
    assert_eq!(nine["optimal"], "46");
}

#[test]
fn eight_puzzle_config_gives_every_algorithm_the_same_boards() {
    let rows = results(
        "tiles_eight",
        &[
            "sweep.depth=[6, 10]",
            "replicates.count=3",
            "variant.dfs_unlimited.sweep.depth=[10]",
        ],
    );
    // bfs, astar, ida: 2 depths × 3 boards; dfs: 3 limits × 6; unlimited dfs: 3.
    assert_eq!(rows.len(), 3 * 6 + 3 * 6 + 3);
    let mut boards: HashMap<(String, String), String> = HashMap::new();
    for row in &rows {
        assert_eq!(row["optimal"], row["depth"]);
        let key = (row["depth"].clone(), row["replicate"].clone());
        let h0 = boards.entry(key).or_insert_with(|| row["h0"].clone());
        assert_eq!(*h0, row["h0"], "same board for every algorithm: {row:?}");
        match row["variant"].as_str() {
            "bfs" | "astar" | "ida" => {
                assert_eq!(row["solution_length"], row["optimal"], "{row:?}")
            }
            "dfs_unlimited" => assert_eq!(row["solved"], "true"),
            _ => {
                let limit: u64 = row["dfs_limit"].parse().unwrap();
                assert!(row["expanded"].parse::<u64>().unwrap() <= limit);
            }
        }
    }
}

#[test]
fn the_pruning_is_a_sweep_axis_with_the_same_optimal_lengths() {
    // Korf's instances 9 and 12 with Manhattan distance and both prunings: parent pruning
    // is Korf's (1985) search (1,650,696 nodes on instance 9); the machine finds the same
    // optimal lengths with fewer nodes.
    let rows = results(
        "korf100",
        &[
            "sweep.instance=[9, 12]",
            "sweep.heuristic=[\"manhattan\"]",
            "sweep.pruning=[\"parent\", \"fsm\"]",
        ],
    );
    assert_eq!(rows.len(), 4);
    let get = |id, p| row(&rows, &[("instance", id), ("pruning", p)]);
    let generated = |r: &HashMap<String, String>| r["generated"].parse::<u64>().unwrap();
    assert_eq!(get("9", "parent")["generated"], "1650696");
    for id in ["9", "12"] {
        let (parent, fsm) = (get(id, "parent"), get(id, "fsm"));
        assert_eq!(fsm["solution_length"], parent["optimal"], "{fsm:?}");
        assert_eq!(fsm["h0"], parent["h0"]);
        assert!(generated(fsm) < generated(parent), "instance {id}");
    }
}

#[test]
fn the_machines_depth_is_a_sweep_axis_and_deeper_prunes_more() {
    // Korf's instance 12 with Manhattan distance and the machine pruning duplicates of up
    // to 8 moves and of up to 14 (the default): the optimal 45 moves both ways, the
    // deeper machine with fewer nodes (as `tiles solve --move-order ULRD --pruning fsm
    // --fsm-depth 8` and `14` count them).
    let rows = results(
        "korf100",
        &[
            "sweep.instance=[12]",
            "sweep.heuristic=[\"manhattan\"]",
            "params.pruning=\"fsm\"",
            "sweep.fsm_depth=[8, 14]",
        ],
    );
    assert_eq!(rows.len(), 2);
    for (depth, generated) in [("8", "412318"), ("14", "342224")] {
        let r = row(&rows, &[("fsm_depth", depth)]);
        assert_eq!(r["solution_length"], "45", "{r:?}");
        assert_eq!(r["generated"], generated, "depth {depth}");
    }
    // The depth belongs to the machine: with parent pruning it is an error, as out of
    // range.
    let out = tempfile::tempdir().unwrap();
    for (sets, message) in [
        (
            &["params.fsm_depth=8"][..],
            "fsm_depth is not used when pruning = parent",
        ),
        (
            &["params.pruning=\"fsm\"", "params.fsm_depth=19"],
            "fsm_depth = 19 is out of range (expected 2 to 18)",
        ),
    ] {
        let r = run_config("korf100", out.path(), &["--quiet"], sets);
        assert_user_error(&r, message);
    }
}

#[test]
fn bad_tiles_settings_are_one_line_errors() {
    let out = tempfile::tempdir().unwrap();
    let r = run_config(
        "tiles_assignment",
        out.path(),
        &["--quiet"],
        &["params.instance_set=\"korf99\""],
    );
    assert_user_error(&r, "instance_set");
    let r = run_config(
        "tiles_assignment",
        out.path(),
        &["--quiet"],
        &["sweep.instance=[5]"],
    );
    assert_user_error(&r, "instance 5 is not in the assignment set");
    let r = run_config(
        "tiles_eight",
        out.path(),
        &["--quiet"],
        &["sweep.depth=[32]"],
    );
    assert_user_error(&r, "depth");
    let r = run_in(Some(root()), &["report", "--study", "korf99"], "");
    assert_user_error(&r, "unknown study");
    // A pattern database of another board, or one not built in: one line each.
    let r = run_config(
        "tiles_assignment",
        out.path(),
        &["--quiet"],
        &["sweep.instance=[2]", "sweep.heuristic=[\"pdb:6-6-6-6\"]"],
    );
    assert_user_error(&r, "partition 6-6-6-6 is for the 5x5 board, not 4x4");
    let r = run_config(
        "tiles_assignment",
        out.path(),
        &["--quiet"],
        &["sweep.heuristic=[\"pdb:1,2/2\"]"],
    );
    assert_user_error(&r, "tile 2 is in two groups");
    let r = run_config(
        "tiles_assignment",
        out.path(),
        &["--quiet"],
        &["sweep.heuristic=[\"pdb:7-9\"]"],
    );
    assert_user_error(
        &r,
        "expected 5-5-5, 6-6-3, 7-8, 6-6-6-6, a catalogue of partitions (6-6-6-6x4, 6-6-6-6x7, 6-6-6-6x14), or groups of tiles",
    );
    // The machine needs a search with it: Manhattan distance or pattern databases.
    let r = run_config(
        "korf100",
        out.path(),
        &["--quiet"],
        &[
            "sweep.instance=[9]",
            "sweep.heuristic=[\"linear\"]",
            "params.pruning=\"fsm\"",
        ],
    );
    assert_user_error(
        &r,
        "pruning = \"fsm\" needs heuristic = \"manhattan\" or a pattern database (pdb:…), not \"linear\"",
    );
    // An unknown pruning, a machine's depth out of range.
    for (option, name) in [
        ("params.pruning=\"all\"", "pruning"),
        ("params.fsm_depth=1", "fsm_depth"),
    ] {
        let r = run_config(
            "korf100",
            out.path(),
            &["--quiet"],
            &["sweep.instance=[9]", option],
        );
        assert_user_error(&r, name);
    }
}

#[test]
fn a_custom_partition_runs_in_the_pipeline_and_quiet_silences_its_build() {
    let out = tempfile::tempdir().unwrap();
    let cache = out.path().join("pdb");
    let config = root().join("configs/tiles_assignment.toml");
    let run = |quiet: bool| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_searchlab"));
        cmd.current_dir(root())
            .env("SEARCHLAB_PDB_CACHE", &cache)
            .args(["run", config.to_str().unwrap(), "--out"])
            .arg(out.path())
            .args(["--set", "sweep.instance=[2]"])
            .args(["--set", "sweep.heuristic=[\"pdb:1,2,3/4,5,6,7\"]"]);
        if quiet {
            cmd.arg("--quiet");
        }
        cmd.output().unwrap()
    };
    let r = run(true);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(
        String::from_utf8_lossy(&r.stderr),
        "",
        "--quiet prints nothing"
    );
    assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 2);
    let csv = std::fs::read_to_string(out.path().join("tiles_assignment/results.csv")).unwrap();
    let row = csv
        .lines()
        .find(|l| l.contains("\"pdb:1,2,3/4,5,6,7\""))
        .unwrap_or_else(|| panic!("{csv}"));
    // Instance 2 of Korf's set takes 55 moves.
    assert!(row.contains(",55,true,55,"), "{row}");
    // Without --quiet, a build reports its progress (here the tables are rebuilt).
    std::fs::remove_dir_all(&cache).unwrap();
    std::fs::remove_dir_all(out.path().join("tiles_assignment")).unwrap();
    let r = run(false);
    assert!(r.status.success());
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(
        stderr.contains("building the pattern database of tiles [1, 2, 3]"),
        "{stderr}"
    );
}

#[test]
fn runs_searched_on_all_threads_give_the_serial_rows() {
    // Two threads, one run at a time on both (threads_per_run = 0) or two runs at once on
    // one each: the same rows but for the timings, with the expansion limit hit or not.
    let sets = [
        "sweep.instance=[9, 12]",
        "sweep.heuristic=[\"pdb:5-5-5\"]",
        "sweep.pruning=[\"parent\", \"fsm\"]",
        "sweep.expand_limit=[1000, 1000000000]",
    ];
    let table = |threads_per_run: &str| {
        let out = tempfile::tempdir().unwrap();
        let mut all = sets.to_vec();
        let threads = format!("experiment.threads_per_run={threads_per_run}");
        all.push(&threads);
        let r = run_config("korf100", out.path(), &["--quiet", "--jobs", "2"], &all);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let mut rows = rows(&out.path().join("korf100/results.csv"));
        for row in &mut rows {
            row.retain(|k, _| !k.ends_with("_seconds") && !k.ends_with("_per_second"));
        }
        rows
    };
    let (serial, parallel) = (table("1"), table("0"));
    assert_eq!(serial.len(), 8);
    assert_eq!(serial, parallel);
    let limited = serial.iter().filter(|r| r["solved"] == "false").count();
    assert_eq!(limited, 4, "1,000 expansions solve neither instance");
    assert!(
        serial
            .iter()
            .filter(|r| r["solved"] == "true")
            .all(|r| r["solution_length"] == r["optimal"])
    );
}
