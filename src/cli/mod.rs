//! The command line: `run`, `report`, `merge` and `list` drive the pipeline, `slurm`
//! spreads it over a cluster; `rjm`, `tiles` and `pegsol` are the seeds' programs.
//! Errors come back to `main` as one line.

use crate::pipeline::execute::{Options, ShardFinished, run_experiment, run_shard};
use crate::pipeline::progress::Progress;
use crate::present::figure::Better;
use crate::report::{ReportOptions, load_studies, project_dir};
use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "searchlab",
    version,
    about = "Reproducible experiments with search and local-search algorithms on puzzles"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run one experiment config: outputs/<experiment>/results.{parquet,csv}, anytime tables, manifest, plots
    Run {
        /// The experiment config (TOML)
        config: PathBuf,
        #[command(flatten)]
        exec: ExecArgs,
        /// Override a config key, e.g. --set params.iterations=5000 or --set sweep.decay=[0.9,0.99]
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
    },
    /// Run every experiment of the report's studies and write outputs/report/report.md
    Report {
        #[command(flatten)]
        exec: ExecArgs,
        /// Render only this study (a file stem in experiments/); repeatable. Default: every default study
        #[arg(long = "study", value_name = "NAME")]
        studies: Vec<String>,
    },
    /// Race each variant's candidate settings under the same budget (the config's [tune] section), then run the elites on held-out seeds: outputs/<experiment>/tune/
    Tune {
        /// The experiment config (TOML) with a [tune] section
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
    /// List the experiment configs and the studies of the report
    List,
    /// Rank the groups of a finished experiment, each tested against the best, and draw them
    Compare {
        /// The experiment's output folder (e.g. outputs/rjm_schedules)
        dir: PathBuf,
        /// Group by this column (repeat for several)
        #[arg(long = "by", required = true)]
        by: Vec<String>,
        /// The metric compared
        #[arg(long)]
        metric: String,
        /// Higher is better (the default)
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
    },
    /// Rook Jumping Maze programs (the Rook Jumping Maze assignment, parts 1-6)
    Rjm(crate::rjm::cli::RjmArgs),
    /// Sliding-tile puzzles (the 15-puzzle, 8-puzzle and two-blank puzzle assignments): IDA*, A*, BFS, DFS, census
    Tiles(crate::tiles::cli::TilesArgs),
    /// Peg solitaire (the peg-solitaire assignment): the assignment's budgeted DFS, a stronger solver, play, count
    Pegsol(crate::pegsol::cli::PegsolArgs),
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
    fn options(&self) -> Options {
        Options {
            jobs: crate::pipeline::execute::cap_jobs("--jobs", self.jobs),
            force: self.force,
            out: self.out.clone(),
        }
    }
}

/// Parses the command line and runs the command.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    let runners = crate::domains::runners();
    if let Command::Run { exec, .. } | Command::Report { exec, .. } | Command::Tune { exec, .. } =
        &cli.command
    {
        crate::util::notice::set_quiet(exec.quiet);
    }
    match cli.command {
        Command::Run { config, exec, set } => {
            let config = crate::pipeline::config::load(&config, &set)?;
            let plan = crate::pipeline::plan::plan(&config, &runners)?;
            let dir = crate::pipeline::execute::experiment_dir(&exec.out, &config.name);
            let missing =
                crate::pipeline::execute::missing_in_shard(&plan, &dir, exec.force, exec.shard)?;
            let progress = Progress::new(missing as u64, exec.quiet);
            if let Some(shard) = exec.shard {
                let done = run_shard(&config, &plan, &exec.options(), shard, &progress)?;
                progress.finish();
                print_shard(&done)?;
                return Ok(());
            }
            let done = run_experiment(&config, &plan, &exec.options(), &progress)?;
            progress.finish();
            writeln!(
                std::io::stdout().lock(),
                "{}: {} runs ({} computed, {} reused) in {:.1} s -> {}",
                done.name,
                done.runs,
                done.computed,
                done.runs - done.computed,
                done.seconds,
                done.dir.display()
            )?;
        }
        Command::Report { exec, studies } => {
            let opts = ReportOptions {
                exec: exec.options(),
                studies,
                quiet: exec.quiet,
                shard: exec.shard,
            };
            let functions = crate::domains::functions();
            if let Some(shard) = exec.shard {
                for done in crate::report::build_shard(&runners, &functions, &opts, shard)? {
                    print_shard(&done)?;
                }
                return Ok(());
            }
            let path = crate::report::build(&runners, &functions, &opts)?;
            writeln!(std::io::stdout().lock(), "report: {}", path.display())?;
        }
        Command::Tune {
            config,
            budget,
            train_seeds,
            test_seeds,
            exec,
            set,
        } => {
            if exec.shard.is_some() {
                crate::user_bail!(
                    "tune does not take --shard: a race decides after every instance, so it runs on one machine (--jobs sets its threads)"
                );
            }
            let config = crate::pipeline::config::load(&config, &set)?;
            let plan = crate::pipeline::plan::plan(&config, &runners)?;
            let overrides = crate::tune::Overrides {
                budget,
                train_seeds,
                test_seeds,
            };
            let spec = crate::tune::spec_of(&config, &overrides)?;
            let progress = Progress::new(0, exec.quiet);
            let t = crate::tune::tune(&config, &plan, &spec, &exec.options(), &progress)?;
            progress.finish();
            let mut out = std::io::stdout().lock();
            write!(out, "{}", crate::tune::describe_elites(&t)?)?;
            writeln!(
                out,
                "{} (tune): {} evaluations ({} computed) in {:.1} s -> {}",
                config.name,
                t.evaluations,
                t.computed,
                t.seconds,
                t.dir.display()
            )?;
        }
        Command::Merge { dirs, partial } => {
            let mut out = std::io::stdout().lock();
            for m in crate::pipeline::merge::merge(&dirs, &runners, partial)? {
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
            }
        }
        Command::Slurm(args) => crate::slurm::run(args, &runners)?,
        Command::List => list(&runners)?,
        Command::Compare {
            dir,
            by,
            metric,
            maximize: _,
            minimize,
            filter,
            paired,
        } => {
            let better = if minimize {
                Better::Lower
            } else {
                Better::Higher
            };
            print!(
                "{}",
                crate::report::compare::run(&dir, &by, &metric, better, &filter, &paired)?
            );
        }
        Command::Rjm(args) => crate::rjm::cli::run(args)?,
        Command::Tiles(args) => crate::tiles::cli::run(args)?,
        Command::Pegsol(args) => crate::pegsol::cli::run(args)?,
    }
    Ok(())
}

/// What a shard did, and what remains of its experiment.
fn print_shard(done: &ShardFinished) -> anyhow::Result<()> {
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

fn list(runners: &[Box<dyn crate::pipeline::runner::Runner>]) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    let dir = project_dir("configs");
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| crate::user_error!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    entries.sort();
    writeln!(out, "Experiments ({}):", dir.display())?;
    for path in entries {
        let config = crate::pipeline::config::load(&path, &[])?;
        let runs = crate::pipeline::plan::plan(&config, runners)
            .map(|p| p.runs.len().to_string())
            .unwrap_or_else(|e| format!("invalid: {e}"));
        let tune = if config.tune.is_some() {
            " [searchlab tune]"
        } else {
            ""
        };
        writeln!(
            out,
            "  {:<22} {}/{}, {} runs  {}{tune}",
            config.name, config.domain.value, config.algorithm.value, runs, config.description
        )?;
    }
    let studies = load_studies(&crate::domains::functions())?;
    writeln!(out, "\nStudies of the report (experiments/):")?;
    for s in studies {
        let default = if s.default {
            ""
        } else {
            "  [not in the default report: searchlab report --study NAME]"
        };
        writeln!(
            out,
            "  {:<22} {}{default}",
            s.name,
            crate::report::describe(&s)
        )?;
    }
    writeln!(out, "\nDomains and algorithms:")?;
    for r in runners {
        for a in r.algorithms() {
            let params: Vec<String> = a
                .params
                .iter()
                .map(|p| match &p.when {
                    Some(w) => format!("{} (when {})", p.name, w.describe()),
                    None => p.name.to_string(),
                })
                .collect();
            let name = format!("{}/{}", r.domain(), a.name);
            writeln!(
                out,
                "  {name:<22} {} [{}]",
                a.description,
                params.join(", ")
            )?;
        }
    }
    Ok(())
}
