//! The documentation (the README and `docs/*.md`) is part of the interface: every TOML
//! example in it is a config, a study or an excerpt of a project file, and each is
//! checked (configs planned, studies loaded, excerpts found in their file); its table of
//! algorithms is the declarations' own (`SEARCHLAB_BLESS=1` rewrites it); and the study
//! written from scratch in it renders, from a folder holding only the documentation's
//! files.

mod common;

use common::run_in;
use std::collections::BTreeSet;
use std::path::Path;

/// The README, then every page of `docs/`, each by its path.
fn pages() -> Vec<(std::path::PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec![root.join("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    paths.extend(docs);
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// The README and the pages of `docs/`, one after the other.
fn readme() -> String {
    pages().into_iter().map(|(_, t)| t + "\n").collect()
}

/// The ```toml blocks of the README, in order.
fn toml_blocks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("```toml\n") {
        let body = &rest[i + 8..];
        let end = body.find("```").expect("a closed block");
        out.push(body[..end].to_string());
        rest = &body[end..];
    }
    out
}

fn is_config(block: &str) -> bool {
    block.contains("[experiment]")
}

fn is_study(block: &str) -> bool {
    block.contains("[[question]]")
}

#[test]
fn every_toml_example_is_checked() {
    let domains = searchlab::registry::domains();
    let runners = searchlab::domain::runners(&domains);
    let blocks = toml_blocks(&readme());
    assert!(blocks.len() >= 5, "{} blocks", blocks.len());
    let mut experiments: BTreeSet<String> = searchlab::util::catalog::CONFIGS
        .entries(Path::new("/nonexistent"))
        .into_keys()
        .collect();
    for b in blocks.iter().filter(|b| is_config(b)) {
        let config = searchlab::pipeline::config::parse(b, "README.md", &[])
            .unwrap_or_else(|e| panic!("a README config: {e}\n{b}"));
        let plan = searchlab::pipeline::plan::plan(&config, &runners)
            .unwrap_or_else(|e| panic!("a README config: {e}\n{b}"));
        searchlab::present::outputs::check(&config, &plan).unwrap();
        experiments.insert(config.name.clone());
    }
    let functions = searchlab::domain::functions(&domains);
    let names = |n: Vec<&str>| -> BTreeSet<String> { n.into_iter().map(String::from).collect() };
    let facts = functions
        .facts
        .iter()
        .map(|f| {
            (
                f.name.to_string(),
                f.facts.iter().map(|s| s.to_string()).collect(),
            )
        })
        .collect();
    let boards = names(functions.boards.iter().map(|f| f.name).collect());
    let references = names(functions.references.iter().map(|f| f.name).collect());
    let known = searchlab::study::Known {
        experiments: &experiments,
        fact_functions: &facts,
        board_functions: &boards,
        reference_functions: &references,
    };
    for b in &blocks {
        if is_study(b) {
            searchlab::study::parse(b, "README.md", "readme", &known)
                .unwrap_or_else(|e| panic!("a README study: {e}\n{b}"));
        } else if !is_config(b) {
            excerpt_is_in_its_file(b);
        }
    }
}

/// A block that is neither a config nor a study starts with `# part of FILE`, and each of
/// its lines is a line of that file.
fn excerpt_is_in_its_file(block: &str) {
    let first = block.lines().next().unwrap_or_default();
    let file = first
        .strip_prefix("# part of ")
        .unwrap_or_else(|| panic!("a TOML example that is no config, study or excerpt:\n{block}"));
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    let lines: BTreeSet<&str> = text.lines().map(str::trim).collect();
    for l in block
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| !l.is_empty())
    {
        assert!(lines.contains(l), "{file} has no line {l:?}");
    }
}

/// The table of every algorithm, its parameters and its metrics, from the declarations.
fn algorithms_table() -> String {
    let mut out =
        String::from("| algorithm | what it does | parameters | metrics |\n|---|---|---|---|\n");
    for d in searchlab::registry::domains() {
        for a in &d.runner.algorithms {
            let params: Vec<String> = a.params.iter().map(|p| format!("`{}`", p.name)).collect();
            let metrics: Vec<String> = a.metrics.names().map(|m| format!("`{m}`")).collect();
            out.push_str(&format!(
                "| `{}/{}` | {} | {} | {} |\n",
                d.name(),
                a.name,
                a.description,
                params.join(", "),
                metrics.join(", ")
            ));
        }
    }
    out
}

#[test]
fn the_table_of_algorithms_is_the_declarations() {
    let (start, end) = ("<!-- algorithms -->\n", "<!-- /algorithms -->");
    let (path, text) = pages()
        .into_iter()
        .find(|(_, t)| t.contains(start))
        .expect("a page of the documentation marks the table of algorithms");
    let a = text.find(start).unwrap() + start.len();
    let b = text.find(end).expect("the end marker");
    let table = algorithms_table();
    if std::env::var_os("SEARCHLAB_BLESS").is_some() {
        let new = format!("{}{table}{}", &text[..a], &text[b..]);
        std::fs::write(&path, new).unwrap();
        return;
    }
    assert_eq!(
        &text[a..b],
        table,
        "{}: the table of algorithms (SEARCHLAB_BLESS=1 rewrites it)",
        path.display()
    );
}

#[test]
fn the_study_written_from_scratch_renders_from_an_empty_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("configs")).unwrap();
    std::fs::create_dir_all(dir.path().join("experiments")).unwrap();
    let blocks = toml_blocks(&readme());
    for b in blocks.iter().filter(|b| is_config(b)) {
        let name = b
            .lines()
            .find_map(|l| l.strip_prefix("name = \""))
            .map(|n| n.trim_end_matches('"').to_string())
            .unwrap();
        if name.starts_with("maze_") {
            std::fs::write(dir.path().join(format!("configs/{name}.toml")), b).unwrap();
        }
    }
    let study = blocks
        .iter()
        .find(|b| is_study(b) && b.contains("maze_methods"))
        .expect("the README's study");
    std::fs::write(dir.path().join("experiments/maze_methods.toml"), study).unwrap();
    let out = run_in(
        Some(dir.path()),
        &["report", "--study", "maze_methods", "--quiet"],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.is_empty(), "no warning: {}", out.stderr);
    let md = std::fs::read_to_string(dir.path().join("outputs/report/maze_methods.md")).unwrap();
    assert!(!dir.path().join("outputs/report/report.md").exists());
    assert!(md.contains("Wilcoxon, Holm"), "{md}");
    assert!(md.contains("A12 of best"));
    // The answer names a method, and the ERT reads lower objectives as better.
    let answer = md.lines().find(|l| l.starts_with("**Answer.**")).unwrap();
    let methods = ["restarts", "anneal", "descent"];
    assert!(
        methods
            .iter()
            .any(|m| answer.contains(&format!("**Answer.** **{m}"))),
        "{answer}"
    );
    assert!(!answer.contains("{"), "{answer}");
    let figures = dir.path().join("outputs/report/figures/maze_methods");
    let pngs = std::fs::read_dir(&figures).unwrap().filter(|e| {
        e.as_ref()
            .unwrap()
            .path()
            .extension()
            .is_some_and(|x| x == "png")
    });
    assert_eq!(pngs.count(), 2, "the box plot and the ECDF");
}
