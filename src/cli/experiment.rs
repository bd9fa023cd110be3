//! The commands on one experiment: `run` (or one shard of it), `tune`, `merge` and
//! `compare`. Each loads and checks the config, has the pipeline compute and write the
//! tables, then presentation write the experiment's summaries and figures.

use super::ExecArgs;
use crate::domain::Domain;
use crate::pipeline::config::Config;
use crate::pipeline::execute::{ShardFinished, run_experiment, run_shard};
use crate::pipeline::metrics::Better;
use crate::pipeline::plan::Plan;
use crate::pipeline::progress::Progress;
use std::io::Write;
use std::path::{Path, PathBuf};

/// `searchlab compare`'s arguments.
#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// Experiment folders (e.g. outputs/rjm_schedules), or a tuning's (outputs/rjm_schedules/tune): read together, with an `experiment` column
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Group by this column (repeat for several)
    #[arg(long = "by", required = true)]
    by: Vec<String>,
    /// The metric compared
    #[arg(long)]
    metric: String,
    /// Higher is better (default: the metric's declared direction)
    #[arg(long, conflicts_with = "minimize")]
    maximize: bool,
    /// Lower is better
    #[arg(long)]
    minimize: bool,
    /// Keep only rows where KEY equals VALUE (repeatable; a comma list keeps any of them)
    #[arg(long = "where", value_name = "KEY=VALUE")]
    filter: Vec<String>,
    /// Pair runs by this column (Wilcoxon signed-rank) instead of Mann-Whitney U
    #[arg(long)]
    paired: Vec<String>,
}

/// Loads the config a command names and plans it, checking its outputs' declarations.
fn load<'a>(
    runners: &[&'a crate::pipeline::runner::Runner],
    config: &Path,
    set: &[String],
) -> anyhow::Result<(Config, Plan<'a>)> {
    let config = crate::pipeline::config::resolve(Path::new("."), config, set)?;
    let plan = crate::pipeline::plan::plan(&config, runners)?;
    crate::present::outputs::check(&config, &plan)?;
    Ok((config, plan))
}

/// `searchlab run`: the experiment's missing runs (or one shard's), its tables, then its
/// summaries and figures.
pub fn run(
    domains: &[Domain],
    config: &Path,
    exec: &ExecArgs,
    set: &[String],
) -> anyhow::Result<()> {
    let runners = crate::domain::runners(domains);
    let (config, plan) = load(&runners, config, set)?;
    let opts = exec.options(domains);
    let dir = crate::pipeline::execute::experiment_dir(&opts.out, &config.name);
    let missing = crate::pipeline::recorded::missing_in_shard(&plan, &dir, opts.force, exec.shard)?;
    let observer = crate::util::observe::stderr(exec.quiet);
    let progress = Progress::new(&*observer, missing as u64);
    if let Some(shard) = exec.shard {
        let done = run_shard(&config, &plan, &opts, shard, &progress)?;
        progress.finish();
        return print_shard(&done);
    }
    let done = run_experiment(&config, &plan, &opts, &progress)?;
    progress.finish();
    crate::present::outputs::write(&config, &plan, &done.results, &done.anytime, &done.dir)?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: {} runs ({} computed, {} reused) in {:.1} s -> {}",
        done.name,
        done.runs,
        done.computed,
        done.runs - done.computed,
        done.seconds,
        done.dir.display()
    )?;
    write!(out, "{}", conclusion(domains, &config, &done.results)?)?;
    if done.left_out > 0 {
        writeln!(
            out,
            "{}: the tables leave out {} finished runs the journal holds of other settings or algorithm versions (they stay in the journal)",
            done.name, done.left_out
        )?;
    }
    Ok(())
}

/// What a shard did, and what remains of its experiment.
pub fn print_shard(done: &ShardFinished) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} shard {}: {} runs ({} computed, {} reused) in {:.1} s -> {}",
        done.name,
        done.shard,
        done.runs,
        done.computed,
        done.runs - done.computed,
        done.seconds,
        done.journal.display()
    )?;
    if done.plan_done == done.plan_runs {
        writeln!(
            out,
            "{}: all {} runs are done; `searchlab merge {}` writes the tables",
            done.name,
            done.plan_runs,
            done.dir.display()
        )?;
    } else {
        writeln!(
            out,
            "{}: {} of {} runs are done so far (the other shards have the rest)",
            done.name, done.plan_done, done.plan_runs
        )?;
    }
    Ok(())
}

/// `searchlab tune`: the races and the elites on held-out seeds.
pub fn tune(
    domains: &[Domain],
    config: &Path,
    exec: &ExecArgs,
    set: &[String],
    overrides: &crate::tune::Overrides,
) -> anyhow::Result<()> {
    if exec.shard.is_some() {
        crate::user_bail!(
            "tune does not take --shard: a race decides after every instance, so it runs on one machine (--jobs sets its threads)"
        );
    }
    let runners = crate::domain::runners(domains);
    let (config, plan) = load(&runners, config, set)?;
    let spec = crate::tune::spec_of(&config, &plan, overrides)?;
    let opts = exec.options(domains);
    let to_evaluate = crate::tune::to_evaluate(&config, &plan, &spec, &opts.out, opts.force)?;
    let observer = crate::util::observe::stderr(exec.quiet);
    let progress = Progress::new(&*observer, to_evaluate);
    let t = crate::tune::tune(&config, &plan, &spec, &opts, &progress)?;
    progress.finish();
    let mut out = std::io::stdout().lock();
    write!(out, "{}", crate::tune::describe_elites(&t, &plan)?)?;
    writeln!(
        out,
        "{} (tune): {} evaluations ({} computed) in {:.1} s -> {}",
        config.name,
        t.evaluations,
        t.computed,
        t.seconds,
        t.dir.display()
    )?;
    Ok(())
}

/// `searchlab merge`: the tables of sharded experiments, with their summaries and
/// figures.
pub fn merge(domains: &[Domain], dirs: &[PathBuf], partial: bool) -> anyhow::Result<()> {
    let runners = crate::domain::runners(domains);
    let cancel = crate::util::cancel::on_interrupt(
        "the merge stops after the experiment it is writing; the journals are kept",
    );
    let mut out = std::io::stdout().lock();
    let merged =
        crate::pipeline::merge::merge(dirs, &runners, partial, &super::host_name(), &cancel)?;
    for (i, m) in merged.iter().enumerate() {
        if cancel.is_cancelled() {
            return Err(crate::pipeline::merge::stopped(&merged[..i]));
        }
        let plan = crate::pipeline::plan::plan(&m.config, &runners)?;
        crate::present::outputs::check(&m.config, &plan)?;
        crate::present::outputs::write(&m.config, &plan, &m.results, &m.anytime, &m.dir)?;
        let copied = if m.copied > 0 {
            format!(", {} copied into its runs.jsonl", m.copied)
        } else {
            String::new()
        };
        let missing = if m.missing > 0 {
            format!(" ({} still missing)", m.missing)
        } else {
            String::new()
        };
        writeln!(
            out,
            "{}: {} runs{missing} merged from {} journals{copied} in {:.1} s -> {}",
            m.name,
            m.runs - m.missing,
            m.journals,
            m.seconds,
            m.dir.display()
        )?;
        write!(out, "{}", conclusion(domains, &m.config, &m.results)?)?;
    }
    Ok(())
}

/// What the config's domain concludes from the results, if anything.
fn conclusion(
    domains: &[Domain],
    config: &Config,
    results: &polars::prelude::DataFrame,
) -> anyhow::Result<String> {
    let conclude = domains
        .iter()
        .find(|d| d.name() == config.domain.value)
        .and_then(|d| d.conclude);
    Ok(match conclude {
        Some(f) => f(results)?.unwrap_or_default(),
        None => String::new(),
    })
}

/// `searchlab compare`: a ranking of a finished experiment's groups, and its figures.
pub fn compare(domains: &[Domain], a: &CompareArgs) -> anyhow::Result<()> {
    let better = match (a.maximize, a.minimize) {
        (true, _) => Some(Better::Higher),
        (_, true) => Some(Better::Lower),
        _ => None,
    };
    let lookup = |domain: &str, algorithm: &str, metric: &str| {
        domains
            .iter()
            .find(|d| d.name() == domain)
            .and_then(|d| d.runner.algorithm(algorithm))
            .and_then(|a| a.metrics.get(metric))
    };
    let query = super::compare::Query {
        dirs: &a.dirs,
        by: &a.by,
        metric: &a.metric,
        better,
        filter: &a.filter,
        paired: &a.paired,
    };
    let text = super::compare::run(&query, &lookup)?;
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}
