//! The finished runs of a plan that an experiment's folders record: `runs.jsonl` and the
//! shard journals, each record checked against its run's algorithm, each run once.
//! What is missing is what a run or a shard computes.
//!
//! A line that cannot be a valid record of its run (not a record at all, a metric its
//! algorithm does not declare or of the wrong type, an anytime curve missing where the
//! algorithm records one) is set aside into the journal's rejected-lines file by the
//! process that owns the journal ([`Access::Owner`]), with its reason, so that the next
//! command reads only valid records and recomputes that run; any other reader warns.

use crate::pipeline::journal::{Kept, RunRecord, read_lines, rejected_path, resolve, set_aside};
use crate::pipeline::params::Params;
use crate::pipeline::plan::{Plan, Run};
use crate::pipeline::runner::Algorithm;
use crate::pipeline::shard::Shard;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// How a command reads journals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access<'a> {
    /// Counting what is missing before any lock is held: silently, changing nothing.
    Count,
    /// Reading journals another process writes: damaged lines are warned of.
    Read,
    /// Holding the lock of what it writes: damaged lines of the journals it owns (every
    /// journal read, or only the one named) are set aside; of others, warned of.
    Owner(Option<&'a Path>),
}

impl Access<'_> {
    fn owns(&self, path: &Path) -> bool {
        matches!(self, Access::Owner(None)) || *self == Access::Owner(Some(path))
    }
}

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
    let done = recorded_runs(plan, &[dir], Access::Count)?.records;
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
/// the shard journals in shard order. A run found in several is kept once: a record
/// that replaces (a `--force` run's) wins, else the first; found with other values
/// (timing columns aside), it is an error naming both journals. A shard journal holding
/// runs that are not in the plan was written for another version of the config: that
/// is an error naming it, so that nothing of another config is mixed in.
pub fn recorded_runs(plan: &Plan, dirs: &[&Path], access: Access) -> anyhow::Result<Recorded> {
    let keys: HashSet<&str> = plan.runs.iter().map(|r| r.key.as_str()).collect();
    let lookup = plan_lookup(plan);
    let mut recorded = Recorded::default();
    let mut found: HashMap<String, (Kept, usize)> = HashMap::new();
    let mut read: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        let mut files = vec![(None, dir.join("runs.jsonl"))];
        files.extend(
            crate::pipeline::shard::journals(dir)?
                .into_iter()
                .map(|(s, p)| (Some(s), p)),
        );
        for (shard, path) in files {
            let records = checked_journal(&lookup, &path, access)?;
            if let Some(shard) = shard {
                refuse_foreign(plan, &keys, &records, &path, shard, dir)?;
            }
            if records.keys().any(|k| keys.contains(k.as_str())) {
                recorded.journals.push(path.clone());
            }
            read.push(path);
            for (key, kept) in records {
                add_record(&mut found, &read, key, kept)?;
            }
        }
    }
    recorded.records = found.into_iter().map(|(k, (v, _))| (k, v.record)).collect();
    Ok(recorded)
}

/// A shard journal with runs of another version of the config is refused.
fn refuse_foreign(
    plan: &Plan,
    keys: &HashSet<&str>,
    records: &HashMap<String, Kept>,
    path: &Path,
    shard: Shard,
    dir: &Path,
) -> anyhow::Result<()> {
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
            file_name(path),
            file_name(&shard.manifest(dir)),
        );
    }
    Ok(())
}

/// Keeps a run's record once (see [`recorded_runs`]); `found` holds each record with the
/// index in `read` of the journal it came from.
fn add_record(
    found: &mut HashMap<String, (Kept, usize)>,
    read: &[PathBuf],
    key: String,
    kept: Kept,
) -> anyhow::Result<()> {
    let here = read.len() - 1;
    match found.get(&key) {
        None => {}
        Some((first, _)) if kept.replaces && !first.replaces => {}
        Some((first, from)) => {
            if let Some(what) = crate::pipeline::journal::conflict(&first.record, &kept.record) {
                crate::user_bail!(
                    "{} and {} record run {} with different {what}; move the wrong journal out of the way and run again",
                    read[*from].display(),
                    read[here].display(),
                    crate::util::input::excerpt(&key)
                );
            }
            return Ok(());
        }
    }
    found.insert(key, (kept, here));
    Ok(())
}

pub(crate) fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// What a record of a run must fit: the run's algorithm and its budget (the value of
/// the algorithm's budget parameter, when it has one).
#[derive(Clone, Copy)]
pub struct Expected<'a> {
    pub algorithm: &'a Algorithm,
    pub budget: Option<u64>,
}

impl<'a> Expected<'a> {
    /// A run of `algorithm` with `params`.
    pub fn of(algorithm: &'a Algorithm, params: &Params) -> Expected<'a> {
        let budget = algorithm
            .params
            .iter()
            .find(|p| p.budget)
            .and_then(|p| params.int(p.name).ok())
            .and_then(|b| u64::try_from(b).ok());
        Expected { algorithm, budget }
    }
}

/// What the record of a run key must fit, where the caller knows the run.
pub type AlgorithmOf<'a> = dyn Fn(&str) -> Option<Expected<'a>> + 'a;

/// What the records of a plan's runs must fit, by key.
pub fn plan_lookup<'a>(plan: &'a Plan<'a>) -> Box<AlgorithmOf<'a>> {
    let runs: HashMap<&str, &Run> = plan.runs.iter().map(|r| (r.key.as_str(), r)).collect();
    Box::new(move |key| {
        runs.get(key)
            .map(|r| Expected::of(plan.algorithm(r), &r.params))
    })
}

/// Why a record cannot be a run of its algorithm, if it cannot: metrics that do not
/// fit, an anytime curve where none is recorded (or none where one is), or one whose
/// points do not rise strictly or go past the run's budget.
pub fn invalid_for(expected: Expected, record: &RunRecord) -> Option<String> {
    let algorithm = expected.algorithm;
    if let Err(e) = (algorithm.metrics.check)(&record.metrics) {
        return Some(e);
    }
    match (algorithm.anytime, record.anytime.is_empty()) {
        (true, true) => {
            return Some(format!(
                "it has no anytime curve, which {} records",
                algorithm.name
            ));
        }
        (false, false) => {
            return Some(format!(
                "it has an anytime curve, which {} does not record",
                algorithm.name
            ));
        }
        _ => {}
    }
    let points = &record.anytime;
    if let Some(w) = points.windows(2).find(|w| w[1].0 <= w[0].0) {
        return Some(format!(
            "its anytime curve goes back from {} to {}",
            w[0].0, w[1].0
        ));
    }
    match (expected.budget, points.last()) {
        (Some(budget), Some(&(last, _))) if last > budget => Some(format!(
            "its anytime curve reaches {last}, past the run's budget of {budget}"
        )),
        _ => None,
    }
}

/// The journal's records, each checked against its run's algorithm where `algorithm_of`
/// knows it (records of other runs are kept as they are: they are never used). Lines
/// that fail are set aside when `access` owns the journal, else warned of.
pub fn checked_journal(
    algorithm_of: &AlgorithmOf,
    path: &Path,
    access: Access,
) -> anyhow::Result<HashMap<String, Kept>> {
    let mut lines = read_lines(path)?;
    let mut sound = Vec::with_capacity(lines.records.len());
    for n in lines.records {
        match algorithm_of(&n.line.key).and_then(|e| invalid_for(e, &n.line.record)) {
            Some(reason) => lines.rejected.push(crate::pipeline::journal::Rejected {
                number: n.number,
                reason,
            }),
            None => sound.push(n),
        }
    }
    lines.rejected.sort_by_key(|r| r.number);
    report_rejected(path, &lines.rejected, access)?;
    resolve(path, sound)
}

/// Sets aside the rejected lines of a journal this command owns, with a warning saying
/// so; for any other journal, only warns.
fn report_rejected(
    path: &Path,
    rejected: &[crate::pipeline::journal::Rejected],
    access: Access,
) -> anyhow::Result<()> {
    if rejected.is_empty() || access == Access::Count {
        return Ok(());
    }
    let shown: Vec<String> = rejected
        .iter()
        .take(3)
        .map(|r| format!("line {}: {}", r.number, r.reason))
        .collect();
    let more = match rejected.len() {
        n if n > 3 => format!("; and {} more", n - 3),
        _ => String::new(),
    };
    let what = format!(
        "{} damaged line{} ({}{more})",
        rejected.len(),
        if rejected.len() == 1 { "" } else { "s" },
        shown.join("; ")
    );
    if access.owns(path) {
        set_aside(path, rejected)?;
        crate::say!(
            "searchlab: warning: {}: set aside {what} in {}; a run they held is computed again unless another journal holds it",
            path.display(),
            file_name(&rejected_path(path))
        );
    } else {
        crate::say!(
            "searchlab: warning: {}: skipped {what}; the command that writes this journal sets them aside",
            path.display()
        );
    }
    Ok(())
}

/// Creates an experiment's folder (its error is the user's to fix: a path below a file,
/// no permission, a full disk).
pub fn create_dir(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| {
        // "Not found" where the parent exists: a file system that makes no folders
        // (`/proc`), not a missing part of the path.
        let existing = dir.ancestors().skip(1).find(|a| a.exists());
        if e.kind() == std::io::ErrorKind::NotFound
            && let Some(parent) = existing.filter(|a| a.is_dir())
        {
            return crate::user_error!(
                "{}: cannot create the output folder: {} does not take new folders; choose another --out",
                dir.display(),
                parent.display()
            );
        }
        crate::util::error::environment_error(
            anyhow::Error::new(e).context(format!("creating {}", dir.display())),
            &format!("{}: cannot create the output folder", dir.display()),
        )
    })
}
