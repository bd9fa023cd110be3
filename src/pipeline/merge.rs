//! `searchlab merge DIR...`: the tables of an experiment whose runs were computed as
//! shards, possibly on several machines, exactly as one process would have written
//! them.
//!
//! Each DIR is an experiment's folder. Its config comes from the folder itself: every
//! shard writes the config it ran (file text and `--set` overrides) in its manifest
//! `shard-I-of-N.json`, and every unsharded run in `manifest.json`. Folders of the same
//! experiment (copies from different machines) are merged into the first of them,
//! whose `runs.jsonl` receives the runs only the others hold, so that it alone is
//! complete. Shards that ran different configs, and journals holding runs of another
//! config, are refused; a run found in two journals is kept once; runs that no journal
//! holds are an error naming the shards that still have work (unless `partial`).
//! Merging computes nothing: the tables come from the journals, in plan order, through
//! the same code as `run`.

use crate::pipeline::config::Config;
use crate::pipeline::execute::{Provenance, write_outputs};
use crate::pipeline::journal::{ExperimentLock, Journal};
use crate::pipeline::manifest::Manifest;
use crate::pipeline::recorded::{Access, Recorded, recorded_runs};
use crate::pipeline::runner::Runner;
use crate::pipeline::shard::Shard;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What merging one experiment did.
pub struct Merged {
    pub name: String,
    /// The folder the tables were written to.
    pub dir: PathBuf,
    pub runs: usize,
    /// Runs of the plan no journal holds (only with `partial`).
    pub missing: usize,
    /// The journals read.
    pub journals: usize,
    /// Runs copied into this folder's `runs.jsonl` from the other folders.
    pub copied: usize,
    pub seconds: f64,
    /// The config the shards ran, and the tables written.
    pub config: Config,
    pub results: polars::prelude::DataFrame,
    pub anytime: polars::prelude::DataFrame,
}

/// A config saved in an experiment's folder by a run or a shard.
struct Saved {
    path: PathBuf,
    shard: Option<Shard>,
    source: String,
    text: String,
    overrides: Vec<String>,
    resolved: serde_json::Value,
}

impl Saved {
    fn read(path: &Path, shard: Option<Shard>) -> anyhow::Result<Saved> {
        let m = Manifest::read(path)?;
        Ok(Saved {
            path: path.to_path_buf(),
            shard,
            source: m.config_file,
            text: m.config_text,
            overrides: m.overrides,
            resolved: m.resolved_config,
        })
    }

    fn config(&self) -> anyhow::Result<Config> {
        crate::pipeline::config::parse(&self.text, &self.source, &self.overrides).map_err(|e| {
            crate::user_error!(
                "{}: the config it ran no longer loads: {}",
                self.path.display(),
                crate::util::error::one_line(&e)
            )
        })
    }

    fn describe(&self) -> String {
        match self.shard {
            Some(s) => format!("shard {s} ({})", self.path.display()),
            None => format!("the run of {}", self.path.display()),
        }
    }

    /// Refuses `other` when it ran another config than this one.
    fn check_same(&self, other: &Saved) -> anyhow::Result<()> {
        if let Some(at) = first_difference(&self.resolved, &other.resolved, "") {
            crate::user_bail!(
                "{} ran another config than {}: they differ at {at}; run every shard with one config (or merge them separately)",
                other.describe(),
                self.describe()
            );
        }
        Ok(())
    }
}

/// The dotted path of the first place two JSON values differ, if they do.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, at: &str) -> Option<String> {
    use serde_json::Value::Object;
    let here = || {
        if at.is_empty() {
            "the top".to_string()
        } else {
            at.to_string()
        }
    };
    match (a, b) {
        (Object(x), Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| {
                let path = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => first_difference(p, q, &path),
                    _ => Some(path),
                }
            })
        }
        _ if a == b => None,
        _ => Some(here()),
    }
}

/// The configs saved in an experiment's folder: its shards', else its run's.
fn saved_configs(dir: &Path) -> anyhow::Result<Vec<Saved>> {
    if !dir.is_dir() {
        crate::user_bail!("{}: no such folder", dir.display());
    }
    let mut saved: Vec<Saved> = crate::pipeline::shard::manifests(dir)?
        .into_iter()
        .map(|(s, p)| Saved::read(&p, Some(s)))
        .collect::<anyhow::Result<_>>()?;
    if saved.is_empty() {
        let manifest = dir.join("manifest.json");
        if !manifest.is_file() {
            crate::user_bail!(
                "{}: not an experiment's folder (it has no shard-I-of-N.json nor manifest.json)",
                dir.display()
            );
        }
        saved.push(Saved::read(&manifest, None)?);
    }
    Ok(saved)
}

/// One experiment's folders and the config they ran.
struct Group {
    dirs: Vec<PathBuf>,
    reference: Saved,
    config: Config,
}

/// Merges the experiment folders `dirs`; see the module doc. A stop request ends it
/// between experiments ([`crate::util::cancel::Interrupted`]): each experiment's files
/// are written whole or not at all.
pub fn merge(
    dirs: &[PathBuf],
    runners: &[&Runner],
    partial: bool,
    host: &str,
    cancel: &crate::util::cancel::Cancel,
) -> anyhow::Result<Vec<Merged>> {
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        let canonical = dir.canonicalize().unwrap_or_else(|_| dir.clone());
        if seen.contains(&canonical) {
            continue;
        }
        seen.push(canonical);
        let mut saved = saved_configs(dir)?.into_iter();
        let Some(first) = saved.next() else { continue };
        for other in saved {
            first.check_same(&other)?;
        }
        let config = first.config()?;
        match groups.get_mut(&config.name) {
            Some(g) => {
                g.reference.check_same(&first)?;
                g.dirs.push(dir.clone());
            }
            None => {
                order.push(config.name.clone());
                groups.insert(
                    config.name.clone(),
                    Group {
                        dirs: vec![dir.clone()],
                        reference: first,
                        config,
                    },
                );
            }
        }
    }
    let mut merged = Vec::new();
    for g in order.iter().filter_map(|name| groups.get(name)) {
        if cancel.is_cancelled() {
            return Err(stopped(&merged));
        }
        merged.push(merge_group(g, runners, partial, host)?);
    }
    Ok(merged)
}

/// The error of a merge stopped by a stop request, saying what it wrote.
pub fn stopped(merged: &[Merged]) -> anyhow::Error {
    let done: Vec<&str> = merged.iter().map(|m| m.name.as_str()).collect();
    let what = match done.as_slice() {
        [] => "no experiment's tables were written".to_string(),
        d => format!("the tables of {} were written", d.join(", ")),
    };
    crate::util::cancel::Interrupted(format!(
        "{what}; the journals are kept, and the same command merges the rest"
    ))
    .into()
}

fn merge_group(
    g: &Group,
    runners: &[&Runner],
    partial: bool,
    host: &str,
) -> anyhow::Result<Merged> {
    let started = Instant::now();
    let started_at = crate::util::timestamp::now_utc();
    let plan = crate::pipeline::plan::plan(&g.config, runners)?;
    let dest = &g.dirs[0];
    let _lock = ExperimentLock::acquire(dest)?;
    crate::util::atomic::remove_stale(dest);
    // Every journal of every folder at once: a run recorded with other values in two
    // of them is an error naming both, before anything is written.
    let all: Vec<&Path> = g.dirs.iter().map(PathBuf::as_path).collect();
    recorded_runs(&plan, &all, Access::Count)?;
    let here = recorded_runs(&plan, &[dest.as_path()], Access::Owner(None))?;
    let others: Vec<&Path> = g.dirs[1..].iter().map(PathBuf::as_path).collect();
    let there = recorded_runs(&plan, &others, Access::Read)?;

    let missing: Vec<&str> = plan
        .runs
        .iter()
        .map(|r| r.key.as_str())
        .filter(|k| !here.records.contains_key(*k) && !there.records.contains_key(*k))
        .collect();
    if !missing.is_empty() && !partial {
        crate::user_bail!(
            "{}: {} of the {} runs of {} are in no journal{}; run those shards again (the same command computes only their missing runs), or merge with --partial for the tables of the finished runs only",
            dest.display(),
            missing.len(),
            plan.runs.len(),
            plan.experiment,
            who_has_work(&missing, g.reference.shard),
        );
    }

    // The runs only other folders hold go into this folder's journal, in plan order.
    let Recorded {
        records: mut done,
        mut journals,
    } = here;
    let copy: Vec<&crate::pipeline::plan::Run> = plan
        .runs
        .iter()
        .filter(|r| !done.contains_key(&r.key) && there.records.contains_key(&r.key))
        .collect();
    if !copy.is_empty() {
        let path = dest.join("runs.jsonl");
        let mut journal = Journal::open(&path)?;
        for run in &copy {
            journal.append(&run.key, &there.records[&run.key])?;
        }
        journal.flush()?;
    }
    let copied = copy.len();
    journals.extend(there.journals);
    for (key, record) in there.records {
        done.entry(key).or_insert(record);
    }
    let (results, anytime) = write_outputs(
        &g.config,
        &plan,
        &done,
        dest,
        &Provenance {
            jobs: 0,
            host,
            reused: plan.runs.len() - missing.len(),
            started_at: &started_at,
            journals: &journals,
        },
    )?;
    Ok(Merged {
        name: plan.experiment.clone(),
        dir: dest.clone(),
        runs: plan.runs.len(),
        missing: missing.len(),
        journals: journals.len(),
        copied,
        seconds: started.elapsed().as_secs_f64(),
        config: g.config.clone(),
        results,
        anytime,
    })
}

/// ": shard 2/4 has 25 to do, shard 3/4 has 15" for the missing keys, by the shard
/// count the folder's shards used.
fn who_has_work(missing: &[&str], shard: Option<Shard>) -> String {
    let Some(Shard { count, .. }) = shard else {
        return String::new();
    };
    let mut by: BTreeMap<u32, usize> = BTreeMap::new();
    for k in missing {
        *by.entry(Shard::of(k, count)).or_default() += 1;
    }
    let parts: Vec<String> = by
        .iter()
        .map(|(i, n)| format!("shard {i}/{count} has {n}"))
        .collect();
    format!(" ({})", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_difference_is_named_by_its_path() {
        let a = json!({"params": {"size": 5, "iterations": 10}, "replicates": {"count": 2}});
        let mut b = a.clone();
        assert_eq!(first_difference(&a, &b, ""), None);
        b["replicates"]["count"] = json!(3);
        assert_eq!(
            first_difference(&a, &b, "").as_deref(),
            Some("replicates.count")
        );
        b["params"]["decay"] = json!(0.9);
        assert_eq!(
            first_difference(&a, &b, "").as_deref(),
            Some("params.decay")
        );
    }

    #[test]
    fn missing_runs_are_counted_by_the_shard_that_owns_them() {
        let keys = ["a", "b", "c", "d", "e"];
        let text = who_has_work(&keys, Some(Shard { index: 0, count: 2 }));
        let total: usize = text
            .split("has ")
            .skip(1)
            .map(|s| {
                s.trim_end_matches(')')
                    .split(',')
                    .next()
                    .unwrap()
                    .parse::<usize>()
                    .unwrap()
            })
            .sum();
        assert_eq!(total, 5, "{text}");
        assert!(text.starts_with(" (shard "), "{text}");
        assert_eq!(who_has_work(&keys, None), "");
    }
}
