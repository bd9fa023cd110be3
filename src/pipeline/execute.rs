//! Running an experiment: the plan's missing runs in parallel (rayon), each recorded in
//! the journal as it finishes, the tables rewritten from the journal (atomically, every
//! few seconds and at the end), then the manifest, summary tables and plots.
//!
//! Only runs whose keys are not in the journal are computed, unless `force`; rows are in
//! plan order whatever the number of threads or the order runs finish in.
//!
//! An experiment's folder may also hold shard journals ([`crate::pipeline::shard`]):
//! every run reads them with `runs.jsonl`, so an unsharded run (or [`merge`]) after the
//! shards writes the tables of the whole plan and computes only what no shard did;
//! [`run_shard`] computes one shard's missing runs into its own journal and writes no
//! table.
//!
//! [`merge`]: crate::pipeline::merge

use crate::pipeline::config::Config;
use crate::pipeline::journal::{ExperimentLock, Journal, RunRecord, read_journal, read_records};
use crate::pipeline::params::Value;
use crate::pipeline::plan::{ANYTIME_COLUMNS, ANYTIME_RUN_COLUMNS, Plan, RUN_COLUMNS, Run};
use crate::pipeline::progress::{Progress, Stage};
use crate::pipeline::shard::Shard;
use crate::pipeline::table::{ColumnBuilder, frame, write_both};
use anyhow::Context;
use polars::prelude::DataFrame;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often tables are rewritten while runs go on.
const FLUSH_EVERY: Duration = Duration::from_secs(5);

#[derive(Debug, Clone)]
pub struct Options {
    /// Worker threads (0: every core).
    pub jobs: usize,
    /// Recompute every run, ignoring the journal.
    pub force: bool,
    /// Experiments write to `<out>/<experiment>/`.
    pub out: PathBuf,
}

/// What running an experiment did.
pub struct Finished {
    pub name: String,
    pub dir: PathBuf,
    pub runs: usize,
    pub computed: usize,
    pub seconds: f64,
    /// The results and anytime tables as written.
    pub results: DataFrame,
    pub anytime: DataFrame,
}

/// At most this many worker threads per core: more only adds overhead (and thousands
/// of threads can stall the machine).
pub const JOBS_PER_CORE: usize = 4;

/// The number of worker threads for `requested` (`flag` names it in the note): 0 means
/// every core; more than [`JOBS_PER_CORE`] × the cores is lowered to that, with a note
/// on stderr.
pub fn cap_jobs(flag: &str, requested: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cap = cores * JOBS_PER_CORE;
    if requested > cap {
        eprintln!(
            "searchlab: note: {flag} {requested} is more than {JOBS_PER_CORE} per core ({cores} cores); using {cap}"
        );
        cap
    } else {
        requested
    }
}

/// The folder an experiment writes to.
pub fn experiment_dir(out: &Path, name: &str) -> PathBuf {
    out.join(name)
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
    let done = recorded_runs(plan, &[dir], false)?.records;
    Ok(ours.filter(|r| !done.contains_key(&r.key)).count())
}

/// The finished runs of a plan recorded in experiment folders.
pub struct Recorded {
    /// Each run once, by key.
    pub records: HashMap<String, RunRecord>,
    /// The journals read that hold runs of the plan, in the order read.
    pub journals: Vec<PathBuf>,
}

/// Every run of `plan` recorded in the folders `dirs`: in each folder `runs.jsonl`, then
/// the shard journals in shard order. A run found in several is kept once, from the
/// first. A shard journal holding runs that are not in the plan was written for
/// another version of the config: that is an error naming it, so that nothing of
/// another config is mixed in (or silently left out). `warn` reports damaged records.
pub fn recorded_runs(plan: &Plan, dirs: &[&Path], warn: bool) -> anyhow::Result<Recorded> {
    let keys: HashSet<&str> = plan.runs.iter().map(|r| r.key.as_str()).collect();
    let mut recorded = Recorded {
        records: HashMap::new(),
        journals: Vec::new(),
    };
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
                recorded.journals.push(path);
            }
            for (key, record) in records {
                recorded.records.entry(key).or_insert(record);
            }
        }
    }
    Ok(recorded)
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The journal's records whose metrics are the algorithm's declared metrics with their
/// types; any other record is dropped with a warning, and its run computed again.
pub(crate) fn checked_journal(
    plan: &Plan,
    path: &Path,
    warn: bool,
) -> anyhow::Result<HashMap<String, RunRecord>> {
    let mut done = if warn {
        read_journal(path)?
    } else {
        read_records(path)?.0
    };
    done.retain(|key, record| match (plan.algorithm.metrics.check)(&record.metrics) {
        Ok(()) => true,
        Err(e) => {
            if warn && plan.runs.iter().any(|r| &r.key == key) {
                eprintln!(
                    "searchlab: warning: {}: the record of run {key} is damaged ({e}); the run is computed again",
                    path.display()
                );
            }
            false
        }
    });
    Ok(done)
}

/// Creates an experiment's folder (its error is the user's to fix: a path below a file,
/// no permission, a full disk).
pub(crate) fn create_dir(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| {
        crate::util::error::environment_error(
            anyhow::Error::new(e).context(format!("creating {}", dir.display())),
            &format!("{}: cannot create the output folder", dir.display()),
        )
    })
}

/// Before computing: checks the config's outputs against the plan's columns, and with
/// `force` removes the journal the runs are about to be written to.
fn prepare(config: &Config, plan: &Plan, journal_path: &Path, force: bool) -> anyhow::Result<()> {
    if force && journal_path.exists() {
        std::fs::remove_file(journal_path)
            .with_context(|| format!("removing {}", journal_path.display()))?;
    }
    crate::pipeline::summary::check_outputs(config, plan)
}

/// Runs an experiment to completion: the runs no journal of its folder holds (shard
/// journals included) are computed into `runs.jsonl`, then the tables of the whole
/// plan, the manifest, summaries and plots are written.
pub fn run_experiment(
    config: &Config,
    plan: &Plan,
    opts: &Options,
    progress: &Progress,
) -> anyhow::Result<Finished> {
    let started = Instant::now();
    let started_at = crate::util::timestamp::now_utc();
    let dir = experiment_dir(&opts.out, &plan.experiment);
    create_dir(&dir)?;
    // One process at a time writes an experiment's folder.
    let _lock = ExperimentLock::acquire(&dir)?;
    let journal_path = dir.join("runs.jsonl");
    prepare(config, plan, &journal_path, opts.force)?;
    let Recorded {
        records: mut done,
        mut journals,
    } = if opts.force {
        Recorded {
            records: HashMap::new(),
            journals: Vec::new(),
        }
    } else {
        recorded_runs(plan, &[&dir], true)?
    };
    let todo: Vec<&Run> = plan
        .runs
        .iter()
        .filter(|r| !done.contains_key(&r.key))
        .collect();
    let reused = plan.runs.len() - todo.len();
    let mut stage = progress.experiment(&plan.experiment, plan.runs.len() as u64, reused as u64);
    if !todo.is_empty() {
        if !journals.contains(&journal_path) {
            journals.insert(0, journal_path.clone());
        }
        compute(
            plan,
            todo,
            opts.jobs,
            &journal_path,
            &mut done,
            &mut stage,
            |done| write_tables(plan, done, &dir).map(|_| ()),
        )?;
    }
    stage.finish();
    let (results, anytime) = write_outputs(
        config,
        plan,
        &done,
        &dir,
        &Provenance {
            jobs: opts.jobs,
            reused,
            started_at: &started_at,
            journals: &journals,
        },
    )?;
    Ok(Finished {
        name: plan.experiment.clone(),
        dir,
        runs: plan.runs.len(),
        computed: plan.runs.len() - reused,
        seconds: started.elapsed().as_secs_f64(),
        results,
        anytime,
    })
}

/// What running one shard did.
pub struct ShardFinished {
    pub name: String,
    pub dir: PathBuf,
    pub shard: Shard,
    /// The shard's runs, and how many of them it computed now.
    pub runs: usize,
    pub computed: usize,
    /// The plan's runs, and how many of them the folder's journals hold now.
    pub plan_runs: usize,
    pub plan_done: usize,
    pub journal: PathBuf,
    pub seconds: f64,
}

/// Runs one shard of an experiment: the runs of `shard` that no journal of the folder
/// holds are computed into the shard's own journal, under the shard's own lock, with
/// the shard's manifest (the config it ran) written first and completed at the end.
/// No table is written: [`crate::pipeline::merge`], or any later unsharded run, does.
pub fn run_shard(
    config: &Config,
    plan: &Plan,
    opts: &Options,
    shard: Shard,
    progress: &Progress,
) -> anyhow::Result<ShardFinished> {
    let started = Instant::now();
    let started_at = crate::util::timestamp::now_utc();
    let dir = experiment_dir(&opts.out, &plan.experiment);
    create_dir(&dir)?;
    // Two processes of one shard exclude each other; other shards run alongside.
    let _lock =
        ExperimentLock::acquire_for(&dir, &shard.lock_file(), &format!("shard {shard} of "))?;
    let journal_path = shard.journal(&dir);
    prepare(config, plan, &journal_path, opts.force)?;
    let mut done = if opts.force {
        HashMap::new()
    } else {
        recorded_runs(plan, &[&dir], true)?.records
    };
    let owned: Vec<&Run> = plan.runs.iter().filter(|r| shard.owns(&r.key)).collect();
    let todo: Vec<&Run> = owned
        .iter()
        .copied()
        .filter(|r| !done.contains_key(&r.key))
        .collect();
    let (runs, computed) = (owned.len(), todo.len());
    let manifest = |finished: bool| {
        write_shard_manifest(
            config,
            plan,
            &dir,
            shard,
            opts.jobs,
            runs,
            computed,
            &started_at,
            finished,
        )
    };
    manifest(false)?;
    let name = format!("{} {shard}", plan.experiment);
    let mut stage = progress.experiment(&name, runs as u64, (runs - computed) as u64);
    if !todo.is_empty() {
        compute(
            plan,
            todo,
            opts.jobs,
            &journal_path,
            &mut done,
            &mut stage,
            |_| Ok(()),
        )?;
    }
    stage.finish();
    manifest(true)?;
    Ok(ShardFinished {
        name: plan.experiment.clone(),
        dir,
        shard,
        runs,
        computed,
        plan_runs: plan.runs.len(),
        plan_done: plan
            .runs
            .iter()
            .filter(|r| done.contains_key(&r.key))
            .count(),
        journal: journal_path,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Computes `todo` (runs of `plan`, or runs made like them: a tuning's) in parallel on
/// `jobs` threads, appending each finished run to the journal at `journal_path` (and to
/// `done`) as it finishes, and calling `checkpoint` with every finished run every few
/// seconds (after syncing the journal).
pub fn compute(
    plan: &Plan,
    todo: Vec<&Run>,
    jobs: usize,
    journal_path: &Path,
    done: &mut HashMap<String, RunRecord>,
    stage: &mut Stage,
    mut checkpoint: impl FnMut(&HashMap<String, RunRecord>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut journal = Journal::open(journal_path)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.min(cap_jobs_quiet()))
        .build()?;
    let (tx, rx) = std::sync::mpsc::channel::<(usize, anyhow::Result<RunRecord>)>();
    let algorithm = plan.algorithm.name;
    let runner = plan.runner;
    let todo = &todo;
    std::thread::scope(|scope| {
        scope.spawn(move || {
            pool.install(|| {
                todo.par_iter()
                    .enumerate()
                    .for_each_with(tx, |tx, (i, run)| {
                        let out = runner
                            .run(algorithm, &run.params, run.seed)
                            .map(|o| RunRecord {
                                metrics: o
                                    .metrics
                                    .into_iter()
                                    .map(|(k, v)| (k.to_string(), v))
                                    .collect(),
                                anytime: o.anytime,
                            });
                        // The receiver only stops listening after an error; then the
                        // remaining runs are simply not recorded.
                        let _ = tx.send((i, out));
                    })
            })
        });
        let mut last_flush = Instant::now();
        for (i, out) in rx {
            let run = todo[i];
            let out = out.with_context(|| {
                format!(
                    "run {} of {} ({})",
                    run.index,
                    plan.experiment,
                    run.params.canonical()
                )
            })?;
            journal.append(&run.key, &out).map_err(|e| {
                crate::util::error::environment_error(
                    e,
                    &format!("{}: cannot record a run", journal_path.display()),
                )
            })?;
            done.insert(run.key.clone(), out);
            stage.inc();
            if last_flush.elapsed() >= FLUSH_EVERY {
                journal.flush()?;
                checkpoint(done)?;
                last_flush = Instant::now();
            }
        }
        journal.flush().map_err(|e| {
            crate::util::error::environment_error(e, &journal_path.display().to_string())
        })
    })
}

/// The cap of [`cap_jobs`], without a note (the command line has given it).
fn cap_jobs_quiet() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()) * JOBS_PER_CORE
}

/// The results and anytime tables of the finished runs, in plan order.
pub fn frames(
    plan: &Plan,
    done: &HashMap<String, RunRecord>,
) -> anyhow::Result<(DataFrame, DataFrame)> {
    let finished: Vec<(&Run, &RunRecord)> = plan
        .runs
        .iter()
        .filter_map(|r| done.get(&r.key).map(|o| (r, o)))
        .collect();
    let params = plan.param_names();

    let metric_names: &[&str] = plan.algorithm.metrics.names;
    let mut cols: Vec<ColumnBuilder> = RUN_COLUMNS
        .iter()
        .chain(&params)
        .chain(metric_names)
        .map(|n| ColumnBuilder::new(n))
        .collect();
    for (run, o) in &finished {
        let mut row: Vec<Value> = vec![
            Value::from(plan.experiment.as_str()),
            Value::from(run.index),
            Value::from(run.key.as_str()),
            Value::from(run.variant.as_str()),
            Value::from(plan.runner.domain()),
            Value::from(plan.algorithm.name),
            Value::from(plan.algorithm.version),
            Value::from(run.replicate),
            Value::from(run.seed),
        ];
        row.extend(
            params
                .iter()
                .map(|p| run.params.get(p).cloned().unwrap_or(Value::Null)),
        );
        row.extend(metric_names.iter().map(|m| {
            o.metrics
                .iter()
                .find(|(k, _)| k == m)
                .map_or(Value::Null, |(_, v)| v.clone())
        }));
        for (c, v) in cols.iter_mut().zip(row) {
            c.push(v);
        }
    }
    let results = frame(cols)?;

    let mut cols: Vec<ColumnBuilder> = ANYTIME_RUN_COLUMNS
        .iter()
        .chain(&params)
        .chain(&ANYTIME_COLUMNS)
        .map(|n| ColumnBuilder::new(n))
        .collect();
    for (run, o) in &finished {
        for &(iteration, best) in &o.anytime {
            let mut row: Vec<Value> = vec![
                Value::from(run.index),
                Value::from(run.key.as_str()),
                Value::from(run.variant.as_str()),
                Value::from(run.replicate),
            ];
            row.extend(
                params
                    .iter()
                    .map(|p| run.params.get(p).cloned().unwrap_or(Value::Null)),
            );
            row.push(Value::from(iteration));
            row.push(Value::Float(best));
            for (c, v) in cols.iter_mut().zip(row) {
                c.push(v);
            }
        }
    }
    let anytime = frame(cols)?;
    Ok((results, anytime))
}

fn write_tables(
    plan: &Plan,
    done: &HashMap<String, RunRecord>,
    dir: &Path,
) -> anyhow::Result<(DataFrame, DataFrame)> {
    let (mut results, mut anytime) = frames(plan, done)?;
    write_both(&mut results, dir, "results")?;
    write_both(&mut anytime, dir, "anytime")?;
    Ok((results, anytime))
}

/// Where an experiment's tables came from, for its manifest.
pub struct Provenance<'a> {
    pub jobs: usize,
    /// Runs taken from journals rather than computed now.
    pub reused: usize,
    pub started_at: &'a str,
    /// The journals the runs were read from.
    pub journals: &'a [PathBuf],
}

/// Writes everything an experiment's folder shows of the finished runs `done`: the
/// results and anytime tables in plan order, the manifest, and the summary tables and
/// plots of the config. Returns the tables.
pub fn write_outputs(
    config: &Config,
    plan: &Plan,
    done: &HashMap<String, RunRecord>,
    dir: &Path,
    provenance: &Provenance,
) -> anyhow::Result<(DataFrame, DataFrame)> {
    let (results, anytime) = write_tables(plan, done, dir)?;
    let mut manifest = manifest_base(config, plan, provenance.jobs, provenance.started_at);
    manifest.insert("runs".into(), plan.runs.len().into());
    manifest.insert("reused_runs".into(), provenance.reused.into());
    manifest.insert(
        "journals".into(),
        provenance
            .journals
            .iter()
            .map(|p| {
                // The folder's own journals by name, those of other folders by path.
                match p.parent() == Some(dir) {
                    true => file_name(p),
                    false => p.display().to_string(),
                }
            })
            .collect::<Vec<_>>()
            .into(),
    );
    manifest.insert(
        "finished_at".into(),
        crate::util::timestamp::now_utc().into(),
    );
    crate::util::atomic::write(
        &dir.join("manifest.json"),
        serde_json::to_string_pretty(&manifest)?.as_bytes(),
    )?;
    crate::pipeline::summary::write_outputs(config, &results, &anytime, dir)?;
    Ok((results, anytime))
}

/// What every manifest says: the experiment, its config (as resolved, and as text and
/// overrides, from which [`crate::pipeline::merge`] rebuilds it), the code, the host.
fn manifest_base(
    config: &Config,
    plan: &Plan,
    jobs: usize,
    started_at: &str,
) -> serde_json::Map<String, serde_json::Value> {
    let manifest = serde_json::json!({
        "experiment": plan.experiment,
        "description": config.description,
        "config_file": config.source,
        "resolved_config": config.resolved,
        "config_text": config.text,
        "overrides": config.overrides,
        "domain": plan.runner.domain(),
        "algorithm": plan.algorithm.name,
        "algorithm_version": plan.algorithm.version,
        "replicates": config.replicates,
        "base_seed": config.base_seed,
        "jobs": jobs,
        "host": host_name(),
        "code_version": { "package": env!("CARGO_PKG_VERSION"), "commit": env!("SEARCHLAB_COMMIT") },
        "started_at": started_at,
    });
    match manifest {
        serde_json::Value::Object(m) => m,
        _ => serde_json::Map::new(),
    }
}

#[allow(clippy::too_many_arguments)]
fn write_shard_manifest(
    config: &Config,
    plan: &Plan,
    dir: &Path,
    shard: Shard,
    jobs: usize,
    runs: usize,
    computed: usize,
    started_at: &str,
    finished: bool,
) -> anyhow::Result<()> {
    let mut manifest = manifest_base(config, plan, jobs, started_at);
    manifest.insert("shard".into(), shard.to_string().into());
    manifest.insert("plan_runs".into(), plan.runs.len().into());
    manifest.insert("shard_runs".into(), runs.into());
    manifest.insert("computed_runs".into(), computed.into());
    manifest.insert(
        "finished_at".into(),
        if finished {
            crate::util::timestamp::now_utc().into()
        } else {
            serde_json::Value::Null
        },
    );
    crate::util::atomic::write(
        &shard.manifest(dir),
        serde_json::to_string_pretty(&manifest)?.as_bytes(),
    )
}

/// The machine's name, for manifests (shards of one experiment run on many).
fn host_name() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .filter(|h| !h.is_empty())
        .or_else(|| {
            std::fs::read_to_string("/proc/sys/kernel/hostname")
                .ok()
                .map(|h| h.trim().to_string())
        })
        .unwrap_or_default()
}
