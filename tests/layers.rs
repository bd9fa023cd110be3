//! The shape of the code, checked on its source. The crate's layers only look down: each
//! top-level module of `src/` has the layer `searchlab::LAYERS` gives it, and this test
//! reads every source file and fails on a `crate::` or `super::` path (or a crate macro)
//! that reaches a module of the same or a higher layer (domains never use each other,
//! the pipeline knows no figure, study or tuning), on a top-level module missing from
//! the list, and on the README's table of layers differing from it. Within a module, no
//! two files import each other (no circle of imports among files, a parent's own
//! children aside), and a folder's `mod.rs` names every module it declares in its doc.

use searchlab::LAYERS;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The module each exported macro belongs to.
const MACROS: &[(&str, &str)] = &[
    ("user_bail", "util"),
    ("user_error", "util"),
    ("say", "util"),
    ("metrics", "pipeline"),
    ("__better", "pipeline"),
    ("with_maze_bits", "rjm"),
];

fn layer(module: &str) -> Option<u32> {
    LAYERS
        .iter()
        .find(|(m, ..)| *m == module)
        .map(|(_, l, _)| *l)
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A file's module path: `pipeline/journal/read.rs` → `pipeline::journal::read`,
/// `pipeline/journal/mod.rs` → `pipeline::journal`, `lib.rs` → the root.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// A file's product code: its lines up to its tests, without comments.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .take_while(|(_, l)| l.trim() != "#[cfg(test)]")
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(n, l)| (n + 1, l.to_string()))
        .collect()
}

/// The module paths a line refers to, absolute (from the crate root): `crate::a::b`,
/// `super::x` and `super::super::x` from module `here`, with `{a, b::c}` groups.
fn paths(code: &str, here: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for prefix in ["$crate::", "crate::", "super::"] {
        let mut rest = code;
        while let Some(i) = rest.find(prefix) {
            let before = rest[..i].chars().last();
            let after = &rest[i + prefix.len()..];
            rest = after;
            // `$crate::` is read once, as such; a `crate::` inside `$crate::` is skipped.
            if prefix == "crate::" && before == Some('$') {
                continue;
            }
            // `super::` right after another `super::` is read with it.
            if prefix == "super::"
                && rest_ends_with_super(&code[..code.len() - after.len() - prefix.len()])
            {
                continue;
            }
            let (mut base, mut tail) = match prefix {
                "super::" => (here[..here.len().saturating_sub(1)].to_vec(), after),
                _ => (Vec::new(), after),
            };
            while let Some(t) = tail.strip_prefix("super::") {
                base.pop();
                tail = t;
            }
            let group = tail
                .strip_prefix('{')
                .and_then(|g| g.split_once('}'))
                .map(|(g, _)| g);
            let items: Vec<&str> = match group {
                Some(g) => g.split(',').map(str::trim).collect(),
                None => vec![tail],
            };
            for item in items {
                let mut p = base.clone();
                for seg in item.split("::") {
                    let w = word(seg);
                    if w.is_empty() {
                        break;
                    }
                    p.push(w);
                    if seg.len() != p.last().unwrap().len() {
                        break;
                    }
                }
                if let Some((_, m)) = MACROS
                    .iter()
                    .find(|(m, _)| Some(&m.to_string()) == p.first())
                {
                    p = vec![m.to_string()];
                }
                out.push(p);
            }
        }
    }
    out
}

fn rest_ends_with_super(before: &str) -> bool {
    before.ends_with("super::")
}

#[test]
fn no_module_uses_one_of_its_layer_or_above() {
    let src = src();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let here = module_of(rel);
        let Some(top) = here.first().cloned() else {
            continue; // lib.rs, main.rs
        };
        let Some(own) = layer(&top) else {
            wrong.push(format!(
                "{}: module {top} is not in searchlab::LAYERS",
                rel.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in code_lines(&text) {
            for p in paths(&line, &here) {
                let Some(r) = p.first() else {
                    wrong.push(format!(
                        "{}:{n}: a path above the crate's root",
                        rel.display()
                    ));
                    continue;
                };
                if *r == top {
                    continue;
                }
                match layer(r) {
                    Some(l) if l < own => {}
                    Some(_) => wrong.push(format!("{}:{n}: {top} uses {r}", rel.display())),
                    None => wrong.push(format!("{}:{n}: unknown module {r}", rel.display())),
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "uses that run up a layer:\n{}",
        wrong.join("\n")
    );
}

/// The file a module path names: the longest prefix of it that is a file of `src/`.
fn file_of(path: &[String], files: &BTreeMap<Vec<String>, PathBuf>) -> Option<PathBuf> {
    (1..=path.len())
        .rev()
        .find_map(|n| files.get(&path[..n]).cloned())
}

#[test]
fn no_two_files_import_each_other() {
    let src = src();
    let mut all = Vec::new();
    rust_files(&src, &mut all);
    let files: BTreeMap<Vec<String>, PathBuf> = all
        .iter()
        .map(|f| (module_of(f.strip_prefix(&src).unwrap()), f.clone()))
        .collect();
    // Edges between files, a parent's uses of its own descendants aside.
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for (here, file) in &files {
        if file.file_name().is_some_and(|n| n == "tests.rs") || here.is_empty() {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (_, line) in code_lines(&text) {
            for p in paths(&line, here) {
                let Some(target) = file_of(&p, &files) else {
                    continue;
                };
                let module = module_of(target.strip_prefix(&src).unwrap());
                let child = module.len() > here.len() && module[..here.len()] == here[..];
                if target != *file && !child {
                    edges.entry(file.clone()).or_default().insert(target);
                }
            }
        }
    }
    // A cycle, if any, by depth-first search.
    let name = |p: &PathBuf| p.strip_prefix(&src).unwrap().display().to_string();
    let mut state: BTreeMap<PathBuf, u8> = BTreeMap::new();
    let mut cycles = Vec::new();
    fn visit(
        f: &PathBuf,
        edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        state: &mut BTreeMap<PathBuf, u8>,
        stack: &mut Vec<PathBuf>,
        cycles: &mut Vec<Vec<PathBuf>>,
    ) {
        state.insert(f.clone(), 1);
        stack.push(f.clone());
        for g in edges.get(f).into_iter().flatten() {
            match state.get(g).copied().unwrap_or(0) {
                0 => visit(g, edges, state, stack, cycles),
                1 => {
                    let at = stack.iter().position(|x| x == g).unwrap();
                    cycles.push(stack[at..].to_vec());
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(f.clone(), 2);
    }
    for f in edges.keys() {
        if state.get(f).copied().unwrap_or(0) == 0 {
            visit(f, &edges, &mut state, &mut Vec::new(), &mut cycles);
        }
    }
    let shown: Vec<String> = cycles
        .iter()
        .map(|c| c.iter().map(&name).collect::<Vec<_>>().join(" → "))
        .collect();
    assert!(
        shown.is_empty(),
        "files that import each other:\n{}",
        shown.join("\n")
    );
}

#[test]
fn a_folders_doc_names_its_modules() {
    let src = src();
    let mut all = Vec::new();
    rust_files(&src, &mut all);
    let mut missing = Vec::new();
    for file in all.iter().filter(|f| {
        f.file_name()
            .is_some_and(|n| n == "mod.rs" || n == "lib.rs")
    }) {
        let text = std::fs::read_to_string(file).unwrap();
        let doc: String = text
            .lines()
            .take_while(|l| l.starts_with("//!") || l.trim().is_empty())
            .collect::<Vec<_>>()
            .join("\n");
        for line in text.lines() {
            let declared = line
                .trim_start_matches("pub ")
                .trim_start_matches("pub(crate) ")
                .strip_prefix("mod ")
                .and_then(|m| m.strip_suffix(';'));
            let Some(m) = declared else { continue };
            if m == "tests" || file.ends_with("lib.rs") {
                continue;
            }
            let named = [format!("`{m}`"), format!("`mod@{m}`"), format!("`{m}.rs`")]
                .iter()
                .any(|n| doc.contains(n.as_str()));
            if !named {
                missing.push(format!(
                    "{}: {m}",
                    file.strip_prefix(&src).unwrap().display()
                ));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "modules their folder's doc does not name:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_readme_lists_the_layers() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let table = readme
        .split("<!-- layers -->")
        .nth(1)
        .and_then(|t| t.split("<!-- /layers -->").next())
        .expect("the README's table of layers");
    let rows: Vec<String> = table
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| layer"))
        .map(str::to_string)
        .collect();
    let want: Vec<String> = LAYERS
        .iter()
        .map(|(m, l, what)| format!("| {l} | `{m}` | {what} |"))
        .collect();
    assert_eq!(rows, want);
}

#[test]
fn the_check_sees_references() {
    let here: Vec<String> = ["pipeline", "journal", "read"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let p = paths(
        "let x = crate::pipeline::plan::plan(&c, &crate::domain::runners(d)); use super::{record::X, write};",
        &here,
    );
    let shown: Vec<String> = p.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        shown,
        [
            "pipeline::plan::plan",
            "domain::runners",
            "pipeline::journal::record::X",
            "pipeline::journal::write"
        ]
    );
    let up = paths("use super::super::super::study::Block;", &here);
    assert_eq!(up, vec![vec!["study".to_string(), "Block".to_string()]]);
    let m = paths(
        "crate::user_bail!(\"x\"); $crate::pipeline::metrics::X",
        &here,
    );
    let tops: Vec<&str> = m.iter().map(|p| p[0].as_str()).collect();
    assert_eq!(tops, ["pipeline", "util"]);
    assert!(layer("tiles") == layer("rjm") && layer("cli") > layer("registry"));
}
