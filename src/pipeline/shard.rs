//! Shards: a deterministic partition of a plan by run key, and the files a shard keeps
//! in the experiment's folder, so that one experiment can run as N processes on
//! different machines (a Slurm job array) and be merged into the tables one process
//! would have written.
//!
//! Run `key` belongs to shard `I/N` when a fixed 64-bit hash of the key is `I` modulo
//! `N`: it depends on the key alone, never on the machine, the order of the sweep or
//! `--jobs`, so every run belongs to exactly one shard. Shard `I/N` writes only files
//! of its own beside the experiment's `runs.jsonl`: its journal
//! `runs.shard-I-of-N.jsonl`, its lock `run.shard-I-of-N.lock` and its manifest
//! `shard-I-of-N.json` (the config it ran, as text and overrides, so that `merge`
//! can rebuild the plan). Two shards never write the same file, so they can run at
//! once on one shared folder, or in folders copied together afterwards.

use crate::util::rng::{fnv1a, splitmix64};
use std::path::{Path, PathBuf};

/// The most shards an experiment may be split into.
pub const MAX_SHARDS: u32 = 100_000;

/// Shard `index` of `count` (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `I/N`, e.g. `0/4`: shard I (0 to N-1) of N.
    fn from_str(text: &str) -> Result<Shard, String> {
        let Some((i, n)) = text.split_once('/') else {
            return Err("expected I/N, e.g. 0/4 (shard I of N, counted from 0)".into());
        };
        let number = |s: &str, what: &str| {
            s.trim()
                .parse::<u32>()
                .map_err(|_| format!("the shard {what} {s:?} is not a whole number"))
        };
        let (index, count) = (number(i, "index")?, number(n, "count")?);
        if count == 0 || count > MAX_SHARDS {
            return Err(format!(
                "the shard count must be 1 to {MAX_SHARDS}, not {count}"
            ));
        }
        if index >= count {
            return Err(format!(
                "shard {index} of {count} does not exist (shards are numbered 0 to {})",
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The shard of `count` that run `key` belongs to.
    pub fn of(key: &str, count: u32) -> u32 {
        (splitmix64(fnv1a(key.as_bytes())) % u64::from(count)) as u32
    }

    /// True when run `key` belongs to this shard.
    pub fn owns(&self, key: &str) -> bool {
        Shard::of(key, self.count) == self.index
    }

    fn stem(&self) -> String {
        format!("shard-{}-of-{}", self.index, self.count)
    }

    /// The shard's journal, beside the experiment's `runs.jsonl`.
    pub fn journal(&self, dir: &Path) -> PathBuf {
        dir.join(format!("runs.{}.jsonl", self.stem()))
    }

    /// The shard's lock file.
    pub fn lock_file(&self) -> String {
        format!("run.{}.lock", self.stem())
    }

    /// The shard's manifest: the config it ran, its runs, when.
    pub fn manifest(&self, dir: &Path) -> PathBuf {
        dir.join(format!("{}.json", self.stem()))
    }

    /// The shard whose journal or manifest `name` is, if it is one.
    fn from_file_name(name: &str) -> Option<(Shard, FileKind)> {
        let (stem, kind) = if let Some(s) = name.strip_prefix("runs.") {
            (s.strip_suffix(".jsonl")?, FileKind::Journal)
        } else {
            (name.strip_suffix(".json")?, FileKind::Manifest)
        };
        let (i, n) = stem.strip_prefix("shard-")?.split_once("-of-")?;
        let shard: Shard = format!("{i}/{n}").parse().ok()?;
        // Only the canonical spelling (no leading zeros, no spaces).
        (shard.stem() == stem).then_some((shard, kind))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FileKind {
    Journal,
    Manifest,
}

/// The shard journals in an experiment's folder, in shard order (by count, then index).
/// A missing folder has none.
pub fn journals(dir: &Path) -> anyhow::Result<Vec<(Shard, PathBuf)>> {
    files(dir, FileKind::Journal)
}

/// The shard manifests in an experiment's folder, in shard order.
pub fn manifests(dir: &Path) -> anyhow::Result<Vec<(Shard, PathBuf)>> {
    files(dir, FileKind::Manifest)
}

fn files(dir: &Path, kind: FileKind) -> anyhow::Result<Vec<(Shard, PathBuf)>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(crate::util::error::environment_error(
                anyhow::Error::new(e).context(format!("listing {}", dir.display())),
                &format!("{}: cannot list the folder", dir.display()),
            ));
        }
    };
    let mut found: Vec<(Shard, PathBuf)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            let (shard, k) = Shard::from_file_name(&name)?;
            (k == kind).then(|| (shard, e.path()))
        })
        .collect();
    found.sort_by_key(|(s, _)| (s.count, s.index));
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_in_exactly_one_shard_and_shards_are_even() {
        let keys: Vec<String> = (0..10_000u64)
            .map(|i| format!("{:016x}", fnv1a(&i.to_le_bytes())))
            .collect();
        for count in [1u32, 2, 3, 10] {
            let mut sizes = vec![0usize; count as usize];
            for k in &keys {
                let owners: Vec<u32> = (0..count)
                    .filter(|&index| Shard { index, count }.owns(k))
                    .collect();
                assert_eq!(owners.len(), 1, "{k} in {owners:?} of {count}");
                sizes[owners[0] as usize] += 1;
            }
            let even = keys.len() / count as usize;
            for s in sizes {
                assert!(
                    s.abs_diff(even) < even / 10 + 10,
                    "{s} vs {even} of {count}"
                );
            }
        }
        // The partition is a fixed function of the key.
        assert_eq!(
            Shard::of("0123456789abcdef", 4),
            Shard::of("0123456789abcdef", 4)
        );
        assert_eq!(Shard::of("k", 1), 0);
    }

    #[test]
    fn shards_parse_and_name_their_files() {
        let s: Shard = "2/4".parse().unwrap();
        assert_eq!(s, Shard { index: 2, count: 4 });
        assert_eq!(s.to_string(), "2/4");
        let dir = Path::new("out/x");
        assert_eq!(s.journal(dir), dir.join("runs.shard-2-of-4.jsonl"));
        assert_eq!(s.manifest(dir), dir.join("shard-2-of-4.json"));
        assert_eq!(s.lock_file(), "run.shard-2-of-4.lock");
        assert_eq!(
            Shard::from_file_name("runs.shard-2-of-4.jsonl"),
            Some((s, FileKind::Journal))
        );
        assert_eq!(
            Shard::from_file_name("shard-2-of-4.json"),
            Some((s, FileKind::Manifest))
        );
        for name in [
            "runs.jsonl",
            "runs.shard-02-of-4.jsonl",
            "shard-4-of-4.json",
            "manifest.json",
        ] {
            assert_eq!(Shard::from_file_name(name), None, "{name}");
        }
        for (bad, says) in [
            ("4/4", "does not exist (shards are numbered 0 to 3)"),
            ("0/0", "count must be 1 to"),
            ("a/4", "index \"a\" is not a whole number"),
            ("3", "expected I/N"),
        ] {
            let err = bad.parse::<Shard>().unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }

    #[test]
    fn a_folder_lists_its_shard_files_in_shard_order() {
        let dir = tempfile::tempdir().unwrap();
        for f in [
            "runs.jsonl",
            "runs.shard-1-of-2.jsonl",
            "runs.shard-0-of-2.jsonl",
            "runs.shard-3-of-10.jsonl",
            "shard-0-of-2.json",
            "manifest.json",
        ] {
            std::fs::write(dir.path().join(f), "").unwrap();
        }
        let names = |v: Vec<(Shard, PathBuf)>| -> Vec<String> {
            v.into_iter().map(|(s, _)| s.to_string()).collect()
        };
        assert_eq!(
            names(journals(dir.path()).unwrap()),
            vec!["0/2", "1/2", "3/10"]
        );
        assert_eq!(names(manifests(dir.path()).unwrap()), vec!["0/2"]);
        assert!(journals(&dir.path().join("none")).unwrap().is_empty());
    }
}
