//! The assignment's short report (`searchlab report --summary`) from small runs of the
//! summary study's experiments (the built-in configs with fewer seeds, in a working
//! folder of its own): summary.pdf has at most two A4 pages, and every question of the
//! assignment's part 7 is answered with numbers in summary.md and summary.html.

mod common;

use common::run_in;
use std::path::Path;

/// The built-in config `name` with each `(from, to)` replaced, saved in `dir/configs`.
fn smaller(dir: &Path, name: &str, changes: &[(&str, &str)]) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("configs/{name}.toml"));
    let mut text = std::fs::read_to_string(path).unwrap();
    for (from, to) in changes {
        assert!(text.contains(from), "{name}: {from}");
        text = text.replace(from, to);
    }
    std::fs::write(dir.join(format!("configs/{name}.toml")), text).unwrap();
}

#[test]
fn the_summary_has_at_most_two_pages_and_answers_every_question() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("configs")).unwrap();
    let few = ("count = 100", "count = 4");
    smaller(
        dir.path(),
        "rjm_sideways",
        &[few, ("evaluations = 10000", "evaluations = 2000")],
    );
    // Enough runs that one descent is not the best split (the answer compares it to the best).
    smaller(dir.path(), "rjm_restarts", &[("count = 100", "count = 30")]);
    smaller(dir.path(), "rjm_escape", &[("count = 200", "count = 4")]);
    smaller(
        dir.path(),
        "rjm_schedules",
        &[
            few,
            ("evaluations = 10000", "evaluations = 1000"),
            ("budget = 1500", "budget = 300"),
            ("train_seeds = 300", "train_seeds = 8"),
            ("test_seeds = 200", "test_seeds = 6"),
            ("samples = 40", "samples = 3"),
            ("first_test = 5", "first_test = 3"),
        ],
    );
    let out = run_in(Some(dir.path()), &["report", "--summary", "--quiet"], "");
    assert!(out.code == 0, "{}", out.stderr);
    let report = dir.path().join("outputs/report");
    let pdf = std::fs::read(report.join("summary.pdf")).unwrap();
    let pages = searchlab::report::pdf::page_count(&pdf);
    assert!((1..=2).contains(&pages), "summary.pdf has {pages} pages");
    let md = std::fs::read_to_string(report.join("summary.md")).unwrap();
    let html = std::fs::read_to_string(report.join("summary.html")).unwrap();
    let study: toml::Value = toml::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/summary.toml"),
        )
        .unwrap(),
    )
    .unwrap();
    let questions = study["question"].as_array().unwrap();
    assert_eq!(questions.len(), 5, "the assignment asks five questions");
    for (i, q) in questions.iter().enumerate() {
        let title = q["title"].as_str().unwrap();
        let heading = format!("### {}. {title}\n\n", i + 1);
        let at = md
            .find(&heading)
            .unwrap_or_else(|| panic!("{title}: not in summary.md"));
        let section = &md[at + heading.len()..];
        let section = &section[..section.find("\n### ").unwrap_or(section.len())];
        let answer = &section[section
            .find("**Answer.** ")
            .unwrap_or_else(|| panic!("{title}: no answer"))..];
        assert!(
            answer.len() > 200 && answer.chars().filter(char::is_ascii_digit).count() >= 5,
            "{title}: {answer}"
        );
        assert!(
            html.contains(&format!("{}. {}", i + 1, title.replace('\'', "&#39;")))
                || html.contains(title),
            "{title}: not in summary.html"
        );
    }
    let figures = md.matches("![").count();
    assert!((1..=3).contains(&figures), "{figures} figures");
    assert!(out.stdout.contains(&format!("summary.pdf: {pages} page")));
}
