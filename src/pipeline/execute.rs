//! Running an experiment: the plan's missing runs in parallel (rayon), started longest
//! first ([`Plan::schedule`]), each recorded in
//! the journal as it finishes, the tables rewritten from the journal (atomically, every
//! few seconds and at the end), then the manifest. The experiment's summaries and
//! figures are presentation's, written by the command that ran it.
//!
//! Only runs whose keys are not in a journal are computed, unless `force`; rows are in
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
use crate::pipeline::journal::{CheckpointLog, ExperimentLock, Journal, RunRecord};
use crate::pipeline::manifest::{Manifest, Work};
use crate::pipeline::plan::{Plan, Run};
use crate::pipeline::progress::{Progress, Stage};
use crate::pipeline::recorded::{Access, Recorded, create_dir, file_name, recorded_runs};
use crate::pipeline::results::write_tables;
use crate::pipeline::runner::RunContext;
use crate::pipeline::shard::Shard;
use crate::util::cancel::{Cancel, Interrupted, is_interrupted};
use crate::util::memo::Memo;
use crate::util::observe::{self, Observer, Task};
use anyhow::Context;
use polars::prelude::DataFrame;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How often tables are rewritten while runs go on.
const FLUSH_EVERY: Duration = Duration::from_secs(5);

/// What the commands that run experiments say of a stop request ([`RunEnv::cancel`] set
/// by [`crate::util::cancel::on_interrupt`]).
pub const RUNS_STOP: &str = "no new run starts, and the runs under way stop at their next checkpoint or finish; finished runs are kept";

/// What the runs of one process share, given by the command line and passed to every
/// run in its [`RunContext`].
#[derive(Clone)]
pub struct RunEnv {
    /// Each domain's cache folder, by domain name.
    pub caches: BTreeMap<String, PathBuf>,
    /// The memory budget of the runs going on at once, shared evenly between them.
    pub memory: u64,
    /// The stop request: once set, no run is started, runs that look at it stop (their
    /// checkpoints kept, not recorded as finished), and the experiment ends with
    /// [`Interrupted`] once the runs under way are in.
    pub cancel: Arc<Cancel>,
    pub memo: Arc<Memo>,
}

impl Default for RunEnv {
    fn default() -> Self {
        RunEnv {
            caches: BTreeMap::new(),
            memory: crate::util::memory::DEFAULT_MEMORY_LIMIT,
            cancel: Arc::default(),
            memo: Arc::default(),
        }
    }
}

#[derive(Clone)]
pub struct Options {
    /// Worker threads (0: every core).
    pub jobs: usize,
    /// Recompute every run of the plan; each new record replaces the old one as it
    /// finishes, and records of runs outside the plan are kept.
    pub force: bool,
    /// Experiments write to `<out>/<experiment>/`.
    pub out: PathBuf,
    pub env: RunEnv,
    /// The machine's name, for manifests (read once by the command line).
    pub host: String,
}

impl Options {
    /// Every core, no `force`, the default environment, on the machine `host`.
    pub fn new(out: &Path, host: &str) -> Options {
        Options {
            jobs: 0,
            force: false,
            out: out.to_path_buf(),
            env: RunEnv::default(),
            host: host.to_string(),
        }
    }
}

/// What running an experiment did.
pub struct Finished {
    pub name: String,
    pub dir: PathBuf,
    pub runs: usize,
    pub computed: usize,
    /// Finished runs the folder's journals hold that are not runs of this plan (a
    /// `--set` narrowed it, say): kept in the journals, left out of the tables.
    pub left_out: usize,
    pub seconds: f64,
    /// The results and anytime tables as written.
    pub results: DataFrame,
    pub anytime: DataFrame,
}

/// At most this many worker threads per core: more only adds overhead (and thousands
/// of threads can stall the machine).
pub const JOBS_PER_CORE: usize = 4;

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The number of worker threads for `requested` (`flag` names it in the note): 0 means
/// every core; more than [`JOBS_PER_CORE`] × the cores is lowered to that, with a note
/// on stderr.
pub fn cap_jobs(flag: &str, requested: usize) -> usize {
    let cap = cores() * JOBS_PER_CORE;
    if requested > cap {
        crate::say!(
            "searchlab: note: {flag} {requested} is more than {JOBS_PER_CORE} per core ({} cores); using {cap}",
            cores()
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

/// Runs an experiment to completion: the runs no journal of its folder holds (shard
/// journals included) are computed into `runs.jsonl`, then the tables of the whole
/// plan and the manifest are written.
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
    crate::util::atomic::remove_stale(&dir);
    let journal_path = dir.join("runs.jsonl");
    let Recorded {
        records: mut done,
        mut journals,
    } = recorded_runs(plan, &[&dir], Access::Owner(None))?;
    let in_plan = plan
        .runs
        .iter()
        .filter(|r| done.contains_key(&r.key))
        .count();
    let left_out = done.len() - in_plan;
    // With `force` every run of the plan is computed again; its old record stays in
    // the journal until the new one replaces it.
    let todo: Vec<&Run> = plan
        .runs
        .iter()
        .filter(|r| opts.force || !done.contains_key(&r.key))
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
            opts,
            &journal_path,
            &mut done,
            &mut stage,
            Some(&dir),
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
            host: &opts.host,
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
        left_out,
        seconds: started.elapsed().as_secs_f64(),
        results,
        anytime,
    })
}

/// The journals by name when they are the folder's own, else by path.
fn journal_names(journals: &[PathBuf], dir: &Path) -> Vec<String> {
    journals
        .iter()
        .map(|p| match p.parent() == Some(dir) {
            true => file_name(p),
            false => p.display().to_string(),
        })
        .collect()
}

/// Where an experiment's tables came from, for its manifest.
pub struct Provenance<'a> {
    pub jobs: usize,
    /// The machine's name.
    pub host: &'a str,
    /// Runs taken from journals rather than computed now.
    pub reused: usize,
    pub started_at: &'a str,
    /// The journals the runs were read from.
    pub journals: &'a [PathBuf],
}

/// Writes the tables of the finished runs `done` of `plan` to `dir` and the manifest
/// saying where they came from (used by `merge` as by `run`). Returns the tables.
pub fn write_outputs(
    config: &Config,
    plan: &Plan,
    done: &HashMap<String, RunRecord>,
    dir: &Path,
    provenance: &Provenance,
) -> anyhow::Result<(DataFrame, DataFrame)> {
    let tables = write_tables(plan, done, dir)?;
    let manifest = Manifest::new(
        config,
        plan,
        provenance.jobs,
        provenance.host,
        provenance.started_at,
        Work::Run {
            runs: plan.runs.len(),
            reused_runs: provenance.reused,
            journals: journal_names(provenance.journals, dir),
        },
    );
    manifest.finished().write(&dir.join("manifest.json"))?;
    Ok(tables)
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
    // Two processes of one shard exclude each other; other shards run alongside, and
    // no unsharded run of the folder.
    let _lock =
        ExperimentLock::acquire_shard(&dir, &shard.lock_file(), &format!("shard {shard} of "))?;
    let journal_path = shard.journal(&dir);
    let mut done = recorded_runs(plan, &[&dir], Access::Owner(Some(&journal_path)))?.records;
    let owned: Vec<&Run> = plan.runs.iter().filter(|r| shard.owns(&r.key)).collect();
    let todo: Vec<&Run> = owned
        .iter()
        .copied()
        .filter(|r| opts.force || !done.contains_key(&r.key))
        .collect();
    let (runs, computed) = (owned.len(), todo.len());
    let manifest = Manifest::new(
        config,
        plan,
        opts.jobs,
        &opts.host,
        &started_at,
        Work::Shard {
            shard: shard.to_string(),
            plan_runs: plan.runs.len(),
            shard_runs: runs,
            computed_runs: computed,
        },
    );
    manifest.write(&shard.manifest(&dir))?;
    let name = format!("{} {shard}", plan.experiment);
    let mut stage = progress.experiment(&name, runs as u64, (runs - computed) as u64);
    if !todo.is_empty() {
        compute(plan, todo, opts, &journal_path, &mut done, &mut stage, None)?;
    }
    stage.finish();
    manifest.finished().write(&shard.manifest(&dir))?;
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

/// What a run reports: notes and tasks go to the command's observer (above the progress
/// bars), checkpoints to the log.
struct RunObserver<'a, 'o> {
    progress: &'a Progress<'o>,
    checkpoints: &'a CheckpointLog,
    key: &'a str,
}

impl Observer for RunObserver<'_, '_> {
    fn note(&self, text: &str) {
        self.progress.note(text);
    }

    fn task(&self, work: &observe::Work) -> Task<'_> {
        self.progress.observer().task(work)
    }

    fn checkpoint(&self, state: &serde_json::Value) {
        if let Err(e) = self.checkpoints.append(self.key, state) {
            self.progress.note(&format!(
                "warning: a checkpoint of run {} was not recorded: {}",
                self.key,
                crate::util::error::one_line(&e)
            ));
        }
    }
}

/// Calls `run` with a pool of `threads` rayon threads current (when more than one), the
/// threads a run's own parallel search works on. The worker calling it waits blocked: a
/// rayon worker entering another pool would meanwhile take more runs of its own.
fn on_threads<T>(
    threads: usize,
    run: impl FnOnce() -> anyhow::Result<T> + Send,
) -> anyhow::Result<T>
where
    T: Send,
{
    if threads <= 1 {
        return run();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    std::thread::scope(|s| {
        s.spawn(|| pool.install(run))
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// What every run of one [`compute`] is given: the parts of its run context.
struct Worker<'a, 'o> {
    plan: &'a Plan<'a>,
    cache: Option<&'a Path>,
    memory: u64,
    env: &'a RunEnv,
    progress: &'a Progress<'o>,
    checkpoints: &'a CheckpointLog,
    threads: usize,
}

impl Worker<'_, '_> {
    /// Runs `run` on the worker's threads, with its context.
    fn run(&self, run: &Run) -> anyhow::Result<RunRecord> {
        let observer = RunObserver {
            progress: self.progress,
            checkpoints: self.checkpoints,
            key: &run.key,
        };
        let ctx = RunContext {
            cache: self.cache,
            memory: self.memory,
            cancel: &self.env.cancel,
            observer: &observer,
            memo: &self.env.memo,
            resume: self.checkpoints.last(&run.key),
            threads: self.threads,
        };
        let algorithm = self.plan.algorithm(run);
        let out = on_threads(self.threads, || {
            (algorithm.run)(&run.params, run.seeds, &ctx)
        })?;
        // What the journal's reader will check the record against.
        anyhow::ensure!(
            algorithm.anytime != out.anytime.is_empty(),
            "{} declares anytime = {}, and its run gave {} anytime points",
            algorithm.name,
            algorithm.anytime,
            out.anytime.len()
        );
        Ok(RunRecord {
            metrics: out
                .metrics
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            anytime: out.anytime,
        })
    }
}

/// Computes `todo` (runs of `plan`, or runs made like them: a tuning's) in parallel on
/// the options' threads (each run on the plan's threads per run), each with its run
/// context, appending each finished run to the journal at `journal_path` (and to `done`)
/// as it finishes. With `tables`, the tables of every finished run are written to that
/// folder every few seconds (after syncing the journal) and when a stop request ends
/// the runs (a shard's and a tuning's runs write none).
pub fn compute(
    plan: &Plan,
    todo: Vec<&Run>,
    opts: &Options,
    journal_path: &Path,
    done: &mut HashMap<String, RunRecord>,
    stage: &mut Stage,
    tables: Option<&Path>,
) -> anyhow::Result<()> {
    let write = |done: &HashMap<String, RunRecord>| match tables {
        Some(dir) => write_tables(plan, done, dir).map(|_| ()),
        None => Ok(()),
    };
    // A `--force` run's records replace the old ones, which stay until then.
    let mut journal = Journal::open(journal_path)?.replacing(opts.force);
    let checkpoints = CheckpointLog::open(&CheckpointLog::path_for(journal_path))?;
    let threads = match opts.jobs {
        0 => cores(),
        n => n.min(cores() * JOBS_PER_CORE),
    };
    // Each run searches on `per_run` of the threads, so `at_once` runs go at a time.
    let per_run = match plan.threads_per_run {
        0 => threads,
        n => n.min(threads),
    };
    let at_once = (threads / per_run).max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(at_once)
        .build()?;
    let env = &opts.env;
    let worker = Worker {
        plan,
        cache: env.caches.get(plan.runner.domain).map(PathBuf::as_path),
        memory: env.memory / at_once as u64,
        env,
        progress: stage.progress(),
        checkpoints: &checkpoints,
        threads: per_run,
    };
    let worker = &worker;
    let (tx, rx) = std::sync::mpsc::channel::<(usize, anyhow::Result<RunRecord>)>();
    let todo = &todo;
    // Each worker takes the next run in the schedule (longest first) as it frees up.
    let order = plan.schedule(todo);
    let next = AtomicUsize::new(0);
    let (order, next) = (&order, &next);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            pool.broadcast(|_| {
                let tx = tx.clone();
                while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if env.cancel.is_cancelled() {
                        return;
                    }
                    // The receiver only stops listening after an error; then the
                    // remaining runs are simply not recorded.
                    let _ = tx.send((i, worker.run(todo[i])));
                }
            });
        });
        let (mut last_flush, mut finished) = (Instant::now(), 0);
        for (i, out) in rx {
            let run = todo[i];
            if out.as_ref().is_err_and(is_interrupted) {
                continue;
            }
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
            finished += 1;
            stage.inc();
            if last_flush.elapsed() >= FLUSH_EVERY {
                journal.flush()?;
                write(done)?;
                last_flush = Instant::now();
            }
        }
        journal.flush().map_err(|e| {
            crate::util::error::environment_error(e, &journal_path.display().to_string())
        })?;
        if opts.force {
            crate::pipeline::journal::compact(journal_path)?;
        }
        if !env.cancel.is_cancelled() {
            return Ok(());
        }
        write(done)?;
        Err(Interrupted(format!(
            "{finished} of the {} runs of {} to compute finished and are kept in {}; the same command computes the rest",
            todo.len(),
            plan.experiment,
            journal_path.display()
        ))
        .into())
    })
}
