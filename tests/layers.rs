//! The crate's layers only look down. Each top-level module of `src/` has a layer, from
//! the bottom: util · search, local_search · stats · pipeline · present · domain · the
//! domains (rjm, tiles, pegsol) · tune · study · report · slurm · registry · cli. This test reads
//! every source file and fails on a `crate::` path (or a crate macro) that reaches a
//! module of the same or a higher layer: domains never use each other, the pipeline
//! knows no figure, study or tuning.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layer of each top-level module (same number: peers that may not use each other).
const LAYERS: &[(&str, u32)] = &[
    ("util", 0),
    ("search", 1),
    ("local_search", 1),
    ("stats", 2),
    ("pipeline", 3),
    ("present", 4),
    ("domain", 5),
    ("rjm", 6),
    ("tiles", 6),
    ("pegsol", 6),
    ("tune", 7),
    ("study", 8),
    ("report", 9),
    ("slurm", 10),
    ("registry", 11),
    ("cli", 12),
];

/// The module each exported macro belongs to.
const MACROS: &[(&str, &str)] = &[
    ("user_bail", "util"),
    ("user_error", "util"),
    ("metrics", "pipeline"),
    ("__better", "pipeline"),
    ("with_maze_bits", "rjm"),
];

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level modules a line of code refers to through `crate::` (or a crate macro).
fn references(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for prefix in ["crate::", "$crate::"] {
        let mut rest = code;
        while let Some(i) = rest.find(prefix) {
            let after = &rest[i + prefix.len()..];
            // `crate::{a, b::c}` names several modules.
            let group = after
                .strip_prefix('{')
                .and_then(|g| g.split_once('}'))
                .map(|(g, _)| g);
            let names: Vec<&str> = match group {
                Some(g) => g.split(',').map(str::trim).collect(),
                None => vec![after],
            };
            for n in names {
                let name: String = n
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                // An exported macro, called (`crate::user_bail!`) or imported.
                match MACROS.iter().find(|(m, _)| *m == name) {
                    Some((_, module)) => out.insert(module.to_string()),
                    None => out.insert(name),
                };
            }
            rest = after;
        }
    }
    out
}

#[test]
fn no_module_uses_one_of_its_layer_or_above() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        let Some(own) = layer(&top) else {
            continue; // lib.rs, main.rs
        };
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for r in references(code) {
                if r == top {
                    continue;
                }
                match layer(&r) {
                    Some(l) if l < own => {}
                    Some(_) => wrong.push(format!("{}:{}: {top} uses {r}", rel.display(), n + 1)),
                    None => wrong.push(format!("{}:{}: unknown module {r}", rel.display(), n + 1)),
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

#[test]
fn the_check_sees_references() {
    assert_eq!(
        references("let x = crate::pipeline::plan::plan(&c, &crate::domain::runners(d));"),
        ["domain", "pipeline"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    );
    assert_eq!(
        references("crate::user_bail!(\"x\"); $crate::pipeline::metrics::X"),
        ["pipeline", "util"].iter().map(|s| s.to_string()).collect()
    );
    assert!(layer("tiles") == layer("rjm") && layer("cli") > layer("registry"));
}
