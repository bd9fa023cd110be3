//! Records the git commit the binary was built from (for manifests), and compiles the
//! default configs (`configs/`) and studies (`experiments/`) into the binary, so that it
//! runs them from any folder (see `src/util/catalog.rs`).

use std::fmt::Write;
use std::path::Path;

fn main() {
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=SEARCHLAB_COMMIT={commit}");
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs/heads");

    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let mut out = String::new();
    for (constant, folder) in [("CONFIGS", "configs"), ("STUDIES", "experiments")] {
        let dir = Path::new(&root).join(folder);
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|e| e == "toml"));
        files.sort();
        writeln!(out, "pub const {constant}: &[(&str, &str)] = &[").unwrap();
        for f in files {
            let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
            writeln!(
                out,
                "    ({stem:?}, include_str!({:?})),",
                f.display().to_string()
            )
            .unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    let dest = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("catalog.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
