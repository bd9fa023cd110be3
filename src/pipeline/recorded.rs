//! The finished runs of a plan that an experiment's folders record: `runs.jsonl` and the
//! shard journals, each record checked against its run's algorithm, each run once.
//! What is missing is what a run or a shard computes.

use crate::pipeline::journal::{RunRecord, read_journal, read_records};
use crate::pipeline::plan::{Plan, Run};
use crate::pipeline::shard::Shard;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// How many runs of `plan` are still to compute.
pub fn missing_runs(plan: &Plan, dir: &Path, force: bool) -> anyhow::Result<usize> {
    missing_in_shard(plan, dir, force, None)
}

/// How many runs of `plan` (of `shard` only, if given) no journal of `dir` holds yet.
pub fn missing_in_shard(
    plan: &Plan,
    dir: &Path,
    force: bool,
    shard: Option<Shard>,
) -> anyhow::Result<usize> {
    let ours = plan
        .runs
        .iter()
        .filter(|r| shard.is_none_or(|s| s.owns(&r.key)));
    if force {
        return Ok(ours.count());
    }
    let done = recorded_runs(plan, &[dir], false)?.records;
    Ok(ours.filter(|r| !done.contains_key(&r.key)).count())
}

/// The finished runs of a plan recorded in experiment folders.
#[derive(Default)]
pub struct Recorded {
    /// Each run once, by key.
    pub records: HashMap<String, RunRecord>,
    /// The journals read that hold runs of the plan, in the order read.
    pub journals: Vec<PathBuf>,
}

/// Every run of `plan` recorded in the folders `dirs`: in each folder `runs.jsonl`, then
/// the shard journals in shard order. A run found in several is kept once, from the
/// first; found with other values (timing columns aside), it is an error naming both
/// journals. A shard journal holding runs that are not in the plan was written for
/// another version of the config: that is an error naming it, so that nothing of
/// another config is mixed in (or silently left out). `warn` reports damaged records.
pub fn recorded_runs(plan: &Plan, dirs: &[&Path], warn: bool) -> anyhow::Result<Recorded> {
    let keys: HashSet<&str> = plan.runs.iter().map(|r| r.key.as_str()).collect();
    let mut recorded = Recorded {
        records: HashMap::new(),
        journals: Vec::new(),
    };
    // The journal each run was first found in (an index into `read`).
    let mut found_in: HashMap<String, usize> = HashMap::new();
    let mut read: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        let mut files = vec![(None, dir.join("runs.jsonl"))];
        files.extend(
            crate::pipeline::shard::journals(dir)?
                .into_iter()
                .map(|(s, p)| (Some(s), p)),
        );
        for (shard, path) in files {
            let records = checked_journal(plan, &path, warn)?;
            if let Some(shard) = shard {
                let foreign = records
                    .keys()
                    .filter(|k| !keys.contains(k.as_str()))
                    .count();
                if foreign > 0 {
                    crate::user_bail!(
                        "{}: {foreign} of its {} runs are not runs of this config of {} (shard {shard} ran another version of the config); \
                         move its files ({}, {}) out of the folder, or merge it with the config it ran",
                        path.display(),
                        records.len(),
                        plan.experiment,
                        file_name(&path),
                        file_name(&shard.manifest(dir)),
                    );
                }
            }
            if records.keys().any(|k| keys.contains(k.as_str())) {
                recorded.journals.push(path.clone());
            }
            read.push(path);
            for (key, record) in records {
                add_record(&mut recorded.records, &mut found_in, &read, key, record)?;
            }
        }
    }
    Ok(recorded)
}

/// Keeps a run's record once; the same run recorded with other values (timing aside)
/// in two journals is an error naming both, as neither can be chosen silently.
fn add_record(
    records: &mut HashMap<String, RunRecord>,
    found_in: &mut HashMap<String, usize>,
    read: &[PathBuf],
    key: String,
    record: RunRecord,
) -> anyhow::Result<()> {
    let here = read.len() - 1;
    match records.get(&key) {
        None => {
            found_in.insert(key.clone(), here);
            records.insert(key, record);
        }
        Some(first) => {
            if let Some(what) = crate::pipeline::journal::conflict(first, &record) {
                crate::user_bail!(
                    "{} and {} record run {} with different {what}; move the wrong journal out of the way and run again",
                    read[found_in[&key]].display(),
                    read[here].display(),
                    crate::util::input::excerpt(&key)
                );
            }
        }
    }
    Ok(())
}

pub(crate) fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The journal's records whose metrics are the algorithm's declared metrics with their
/// types; any other record is dropped with a warning, and its run computed again.
pub fn checked_journal(
    plan: &Plan,
    path: &Path,
    warn: bool,
) -> anyhow::Result<HashMap<String, RunRecord>> {
    let mut done = if warn {
        read_journal(path)?
    } else {
        read_records(path)?.0
    };
    let runs: HashMap<&str, &Run> = plan.runs.iter().map(|r| (r.key.as_str(), r)).collect();
    done.retain(|key, record| {
        // A record of a run of another plan is kept as it is (it is never used).
        let Some(run) = runs.get(key.as_str()) else {
            return true;
        };
        match (plan.algorithm(run).metrics.check)(&record.metrics) {
        Ok(()) => true,
        Err(e) => {
            if warn {
                eprintln!(
                    "searchlab: warning: {}: the record of run {key} is damaged ({e}); the run is computed again",
                    path.display()
                );
            }
            false
        }
    }
    });
    Ok(done)
}

/// Creates an experiment's folder (its error is the user's to fix: a path below a file,
/// no permission, a full disk).
pub fn create_dir(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| {
        crate::util::error::environment_error(
            anyhow::Error::new(e).context(format!("creating {}", dir.display())),
            &format!("{}: cannot create the output folder", dir.display()),
        )
    })
}
