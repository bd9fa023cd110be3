//! Running an experiment: the plan's missing runs in parallel (rayon), each recorded in
//! the journal as it finishes, the tables rewritten from the journal (atomically, every
//! few seconds and at the end), then the manifest, summary tables and plots.
//!
//! Only runs whose keys are not in the journal are computed, unless `force`; rows are in
//! plan order whatever the number of threads or the order runs finish in.

use crate::pipeline::config::Config;
use crate::pipeline::journal::{ExperimentLock, Journal, RunRecord, read_journal, read_records};
use crate::pipeline::params::Value;
use crate::pipeline::plan::{ANYTIME_COLUMNS, ANYTIME_RUN_COLUMNS, Plan, RUN_COLUMNS, Run};
use crate::pipeline::progress::{Progress, Stage};
use crate::pipeline::table::{ColumnBuilder, frame, write_both};
use anyhow::Context;
use polars::prelude::DataFrame;
use rayon::prelude::*;
use std::collections::HashMap;
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
    if force {
        return Ok(plan.runs.len());
    }
    let done = checked_journal(plan, &dir.join("runs.jsonl"), false)?;
    Ok(plan
        .runs
        .iter()
        .filter(|r| !done.contains_key(&r.key))
        .count())
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

/// Runs an experiment to completion.
pub fn run_experiment(
    config: &Config,
    plan: &Plan,
    opts: &Options,
    progress: &Progress,
) -> anyhow::Result<Finished> {
    let started = Instant::now();
    let started_at = crate::util::timestamp::now_utc();
    let dir = experiment_dir(&opts.out, &plan.experiment);
    std::fs::create_dir_all(&dir).map_err(|e| {
        crate::util::error::environment_error(
            anyhow::Error::new(e).context(format!("creating {}", dir.display())),
            &format!("{}: cannot create the output folder", dir.display()),
        )
    })?;
    // One process at a time writes an experiment's folder.
    let _lock = ExperimentLock::acquire(&dir)?;
    let journal_path = dir.join("runs.jsonl");
    if opts.force && journal_path.exists() {
        std::fs::remove_file(&journal_path)
            .with_context(|| format!("removing {}", journal_path.display()))?;
    }
    crate::pipeline::summary::check_outputs(config, plan)?;
    let mut done: HashMap<String, RunRecord> = checked_journal(plan, &journal_path, true)?;
    let todo: Vec<&Run> = plan
        .runs
        .iter()
        .filter(|r| !done.contains_key(&r.key))
        .collect();
    let reused = plan.runs.len() - todo.len();
    let mut stage = progress.experiment(&plan.experiment, plan.runs.len() as u64, reused as u64);

    compute(
        plan,
        &todo,
        &journal_path,
        opts.jobs,
        &mut done,
        &mut stage,
        |done| write_tables(plan, done, &dir).map(|_| ()),
    )?;
    stage.finish();
    let (results, anytime) = write_tables(plan, &done, &dir)?;
    write_manifest(config, plan, &dir, opts, reused, &started_at)?;
    crate::pipeline::summary::write_outputs(config, &results, &anytime, &dir)?;
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

/// Computes `todo` (runs of `plan`) in parallel on `jobs` threads, appending each record
/// to the journal at `journal_path` as it finishes and to `done`; `flush` is called with
/// everything done so far every few seconds (to rewrite tables while runs go on).
pub fn compute(
    plan: &Plan,
    todo: &[&Run],
    journal_path: &Path,
    jobs: usize,
    done: &mut HashMap<String, RunRecord>,
    stage: &mut Stage,
    mut flush: impl FnMut(&HashMap<String, RunRecord>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    if todo.is_empty() {
        return Ok(());
    }
    let mut journal = Journal::open(journal_path)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.min(cap_jobs_quiet()))
        .build()?;
    let (tx, rx) = std::sync::mpsc::channel::<(usize, anyhow::Result<RunRecord>)>();
    let algorithm = plan.algorithm.name;
    let runner = plan.runner;
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
                flush(done)?;
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

fn write_manifest(
    config: &Config,
    plan: &Plan,
    dir: &Path,
    opts: &Options,
    reused: usize,
    started_at: &str,
) -> anyhow::Result<()> {
    let manifest = serde_json::json!({
        "experiment": plan.experiment,
        "description": config.description,
        "config_file": config.source,
        "resolved_config": config.resolved,
        "domain": plan.runner.domain(),
        "algorithm": plan.algorithm.name,
        "algorithm_version": plan.algorithm.version,
        "runs": plan.runs.len(),
        "reused_runs": reused,
        "replicates": config.replicates,
        "base_seed": config.base_seed,
        "jobs": opts.jobs,
        "code_version": { "package": env!("CARGO_PKG_VERSION"), "commit": env!("SEARCHLAB_COMMIT") },
        "started_at": started_at,
        "finished_at": crate::util::timestamp::now_utc(),
    });
    crate::util::atomic::write(
        &dir.join("manifest.json"),
        serde_json::to_string_pretty(&manifest)?.as_bytes(),
    )
}
