//! The command line: `run`, `report`, `tune`, `merge`, `compare`, `list` and `init`
//! drive the pipeline, `slurm` spreads it over a cluster, and each domain of the
//! registry adds its own programs as a subcommand (`rjm`, `tiles`, `pegsol`: the
//! assignments' programs). One module a concern: running experiments, tunings, merges
//! and comparisons (`experiment`, `compare`), the report (`report`), listings and
//! `init` (`list`), and what standard output's failures mean (`output`). Errors come
//! back to `main` as one line.

mod compare;
mod experiment;
mod list;
mod output;
mod report;

use crate::domain::{Domain, ProgramEnv};
use crate::pipeline::execute::{Options, RunEnv};
use crate::pipeline::runner::CacheSpec;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::path::{Path, PathBuf};

#[derive(Debug, Parser)]
#[command(
    name = "searchlab",
    version,
    about = "Reproducible experiments with search and local-search algorithms on puzzles"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run one experiment (a config file, or the name of a built-in config): outputs/<experiment>/results.{parquet,csv}, anytime tables, manifest, plots
    Run {
        /// The experiment config: a TOML file, or a config's name (see `searchlab list`)
        config: PathBuf,
        #[command(flatten)]
        exec: ExecArgs,
        /// Override a config key, e.g. --set params.evaluations=5000 or --set sweep.decay=[0.9,0.99]; params.KEY fixes a swept parameter (its sweep is replaced), sweep.KEY sweeps a fixed one
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
    },
    /// Run every experiment of the report's studies and write outputs/report/report.md
    Report {
        #[command(flatten)]
        exec: ExecArgs,
        /// Render only this study (a name, or a study file); repeatable; writes outputs/report/NAME.md. Default: every default study, into report.md
        #[arg(long = "study", value_name = "NAME")]
        studies: Vec<String>,
        /// Write the assignment's short report instead (the study `summary`): outputs/report/summary.{md,html,pdf}, at most two A4 pages
        #[arg(long, conflicts_with = "studies")]
        summary: bool,
    },
    /// Race each variant's candidate settings under the same budget (the config's [tune] section), then run the elites on held-out seeds: outputs/<experiment>/tune/
    Tune {
        /// The experiment config with a [tune] section: a file or a config's name
        config: PathBuf,
        /// Evaluations (runs) each variant's race may spend
        #[arg(long)]
        budget: Option<u64>,
        /// The most training instances (seeds) a race may use
        #[arg(long = "train-seeds")]
        train_seeds: Option<u64>,
        /// Held-out seeds each elite runs on
        #[arg(long = "test-seeds")]
        test_seeds: Option<u64>,
        #[command(flatten)]
        exec: ExecArgs,
        /// Override a config key, as for run
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
    },
    /// Merge the journals of an experiment's shards (copies of its folder from several machines too) into its tables
    Merge {
        /// Experiment folders (e.g. outputs/quickstart); folders of one experiment are merged into the first
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Write the tables of the finished runs even when some runs are in no journal yet
        #[arg(long)]
        partial: bool,
    },
    /// Run an experiment (or the report's studies) on a Slurm cluster: a job array of shards, then a merge job
    Slurm(crate::slurm::SlurmArgs),
    /// List the experiment configs, the studies of the report, the domains and their algorithms; `list DOMAIN/ALGORITHM` explains one algorithm's parameters and metrics
    List {
        /// One algorithm (e.g. rjm/anneal) or one domain (e.g. rjm)
        what: Option<String>,
    },
    /// Write the built-in configs and studies into DIR/configs and DIR/experiments, for editing
    Init {
        /// The folder (default: the working folder)
        #[arg(default_value = ".")]
        dir: PathBuf,
    },
    /// Rank the groups of a finished experiment, each tested against the best, and draw them
    Compare(experiment::CompareArgs),
}

#[derive(Debug, clap::Args)]
struct ExecArgs {
    /// Worker threads (default: every core)
    #[arg(long, default_value_t = 0)]
    jobs: usize,
    /// Output folder
    #[arg(long, default_value = "outputs")]
    out: PathBuf,
    /// Recompute runs that are already in the results
    #[arg(long)]
    force: bool,
    /// No progress output
    #[arg(long)]
    quiet: bool,
    /// Run only shard I of N (0-based) of each experiment: its own journal, no tables; `merge` (or a run without --shard) writes the tables
    #[arg(long, value_name = "I/N")]
    shard: Option<crate::pipeline::shard::Shard>,
}

impl ExecArgs {
    /// The pipeline's options: the threads, the output folder, and the run environment
    /// (each domain's cache folder: its environment variable, else `<out>/<folder>`).
    fn options(&self, domains: &[Domain]) -> Options {
        let mut env = RunEnv {
            cancel: crate::util::cancel::on_interrupt(crate::pipeline::execute::RUNS_STOP),
            ..RunEnv::default()
        };
        for d in domains {
            if let Some(c) = d.runner.cache {
                let dir = cache_env(c).unwrap_or_else(|| self.out.join(c.folder));
                env.caches.insert(d.name().to_string(), dir);
            }
        }
        Options {
            jobs: crate::pipeline::execute::cap_jobs("--jobs", self.jobs),
            force: self.force,
            out: self.out.clone(),
            env,
            host: host_name(),
        }
    }
}

/// The machine's name, for manifests (shards of one experiment run on many): `HOSTNAME`,
/// else the kernel's. Read here only, and passed to what writes manifests.
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

/// A domain's cache folder when its environment variable names one (set and not
/// empty), else `None`. The only place the variables are read: runs get the folder in
/// their context, domain programs in their [`ProgramEnv`].
fn cache_env(c: CacheSpec) -> Option<PathBuf> {
    std::env::var_os(c.env)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The command line: the built-in commands and a subcommand per domain. Negative
/// numbers are read as values everywhere, so `--jobs -1` is refused naming `--jobs`.
pub fn command(domains: &[Domain]) -> clap::Command {
    let mut cmd = Cli::command();
    for d in domains {
        cmd = cmd.subcommand((d.program.command)().name(d.name()).about(d.about));
    }
    negatives_as_values(cmd)
}

fn negatives_as_values(cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    let mut cmd = cmd.allow_negative_numbers(true);
    for n in names {
        cmd = cmd.mut_subcommand(n, negatives_as_values);
    }
    cmd
}

/// Runs the command the arguments name. A write that failed because standard output
/// is on a full device (`> /dev/full`, a full disk) is the environment's: exit 2 naming
/// standard output, whichever program wrote it.
pub fn run(domains: &[Domain], matches: &clap::ArgMatches) -> anyhow::Result<()> {
    let result = run_command(domains, matches);
    let flushed = std::io::Write::flush(&mut std::io::stdout()).map_err(anyhow::Error::new);
    result
        .and(flushed)
        .map_err(output::stdout_failure)
        .map_err(output::clipped)
}

/// clap's error on one line: its message up to the usage block, the lines that name the
/// arguments joined to it ("the following required arguments were not provided:
/// `<CONFIG>`").
pub fn clap_message(text: &str) -> String {
    let head = text.split("\n\n").next().unwrap_or(text);
    let words: Vec<&str> = head
        .lines()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect();
    let line = words.join(" ");
    let line = line.trim_start_matches("error: ");
    match line.is_empty() {
        true => "invalid arguments".to_string(),
        false => line.to_string(),
    }
}

/// The exit code after printing help or the version failed (`--help > /dev/full`):
/// 0 when the reader went away (a closed pipe), else the error on stderr and 2.
pub fn print_failed(err: std::io::Error) -> i32 {
    let err = anyhow::Error::new(err);
    if crate::util::error::is_broken_pipe(&err) {
        return 0;
    }
    let err = output::stdout_failure(err.context("printing the help"));
    crate::say!("searchlab: {}", crate::util::error::one_line(&err));
    crate::util::error::exit_code(&err).max(2)
}

fn run_command(domains: &[Domain], matches: &clap::ArgMatches) -> anyhow::Result<()> {
    if let Some((name, sub)) = matches.subcommand()
        && let Some(d) = domains.iter().find(|d| d.name() == name)
    {
        let env = ProgramEnv {
            cache: d.runner.cache.and_then(cache_env),
            host: host_name(),
            observer: crate::util::observe::stderr(false),
        };
        return (d.program.run)(sub, &env);
    }
    let cli = Cli::from_arg_matches(matches)?;
    let base = Path::new(".");
    match cli.command {
        Command::Run { config, exec, set } => experiment::run(domains, &config, &exec, &set),
        Command::Report {
            exec,
            studies,
            summary,
        } => report::run(domains, base, &exec, &studies, summary),
        Command::Tune {
            config,
            budget,
            train_seeds,
            test_seeds,
            exec,
            set,
        } => {
            let overrides = crate::tune::Overrides {
                budget,
                train_seeds,
                test_seeds,
            };
            experiment::tune(domains, &config, &exec, &set, &overrides)
        }
        Command::Merge { dirs, partial } => experiment::merge(domains, &dirs, partial),
        Command::Slurm(args) => crate::slurm::run(args, domains),
        Command::List { what } => list::list(domains, base, what.as_deref()),
        Command::Init { dir } => list::init(&dir),
        Command::Compare(args) => experiment::compare(domains, &args),
    }
}
