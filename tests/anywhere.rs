//! The binary carries its defaults: run from an empty folder, it lists, runs and reports
//! the built-in configs and studies and writes to `./outputs`; a folder's own files add
//! to them and override those of the same name; `init` writes the built-in files out.

mod common;

use common::run_in;

#[test]
fn an_empty_folder_lists_runs_and_reports_the_built_in_experiments() {
    let dir = tempfile::tempdir().unwrap();
    let list = run_in(Some(dir.path()), &["list"], "");
    assert_eq!(list.code, 0, "{}", list.stderr);
    assert!(
        list.stdout
            .lines()
            .any(|l| l.trim_start().starts_with("quickstart") && l.contains("(built-in)")),
        "{}",
        list.stdout
    );
    let run = run_in(
        Some(dir.path()),
        &[
            "run",
            "quickstart",
            "--set",
            "replicates.count=2",
            "--quiet",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(dir.path().join("outputs/quickstart/results.csv").is_file());
    // The README's form, `configs/NAME.toml`, names the built-in config when no file is there.
    let again = run_in(
        Some(dir.path()),
        &[
            "run",
            "configs/quickstart.toml",
            "--set",
            "replicates.count=2",
            "--quiet",
        ],
        "",
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(again.stdout.contains("0 computed"), "{}", again.stdout);
    let report = run_in(
        Some(dir.path()),
        &["report", "--study", "rjm7_schedules", "--quiet"],
        "",
    );
    assert_eq!(report.code, 0, "{}", report.stderr);
    let md = dir.path().join("outputs/report/rjm7_schedules.md");
    assert!(std::fs::read_to_string(md).unwrap().contains("7×7"));
    assert!(!dir.path().join("outputs/report/report.md").exists());
}

#[test]
fn a_copied_binary_needs_no_source_tree() {
    // A copy of the binary, elsewhere, run from an empty folder.
    let bin = tempfile::tempdir().unwrap();
    let copy = bin.path().join("searchlab");
    std::fs::copy(env!("CARGO_BIN_EXE_searchlab"), &copy).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(&copy)
        .args([
            "run",
            "quickstart",
            "--quiet",
            "--set",
            "replicates.count=1",
        ])
        .current_dir(dir.path())
        .env("CARGO_MANIFEST_DIR", "/nonexistent")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        dir.path()
            .join("outputs/quickstart/manifest.json")
            .is_file()
    );
}

#[test]
fn local_files_override_and_init_writes_the_built_in_ones() {
    let dir = tempfile::tempdir().unwrap();
    let init = run_in(Some(dir.path()), &["init"], "");
    assert_eq!(init.code, 0, "{}", init.stderr);
    let quickstart = dir.path().join("configs/quickstart.toml");
    assert!(quickstart.is_file() && dir.path().join("experiments/rjm.toml").is_file());
    let list = run_in(Some(dir.path()), &["list"], "");
    let line = |name: &str| {
        list.stdout
            .lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        line("quickstart").contains("built-in, also in the working folder"),
        "{}",
        list.stdout
    );
    // An edited copy overrides the built-in one, and a new file adds to them.
    let text = std::fs::read_to_string(&quickstart).unwrap();
    std::fs::write(&quickstart, text.replace("count = 20", "count = 3")).unwrap();
    std::fs::write(
        dir.path().join("configs/mine.toml"),
        text.replace("name = \"quickstart\"", "name = \"mine\""),
    )
    .unwrap();
    let list = run_in(Some(dir.path()), &["list"], "");
    assert!(
        list.stdout.contains("overrides the built-in one"),
        "{}",
        list.stdout
    );
    assert!(
        list.stdout
            .lines()
            .any(|l| l.trim_start().starts_with("mine") && l.contains("(local)"))
    );
    let run = run_in(
        Some(dir.path()),
        &[
            "run",
            "quickstart",
            "--quiet",
            "--set",
            "params.evaluations=200",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("quickstart: 36 runs"),
        "the local copy's 3 replicates: {}",
        run.stdout
    );
    // init leaves existing files alone.
    let again = run_in(Some(dir.path()), &["init"], "");
    assert!(
        again.stdout.contains("left as they were"),
        "{}",
        again.stdout
    );
    assert!(
        std::fs::read_to_string(&quickstart)
            .unwrap()
            .contains("count = 3")
    );
}
