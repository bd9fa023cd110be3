//! `searchlab rjm …`: the Rook Jumping Maze assignment programs (parts 1–6) with their exact prompts and
//! transcripts. A value missing from the command line is asked for at the assignment's prompt.

use crate::local_search::{Acceptance, Schedule, Settings};
use crate::rjm::text::{format_evaluation, format_maze, parse_maze};
use crate::rjm::{Maze, exact, landscape::optimize, runner};
use crate::util::observe::Observer;
use crate::util::prompt::value_or_ask;
use crate::util::rng::{fresh_seed, rng_from_seed};
use clap::{Args, Subcommand};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct RjmArgs {
    #[command(subcommand)]
    command: RjmCommand,
}

/// Options every part takes.
#[derive(Debug, Args, Clone)]
pub struct Common {
    /// Maze size, 5 to 10 (default 5; `generate` asks when it is missing)
    #[arg(long, value_parser = maze_size)]
    size: Option<usize>,
    /// Seed of every random choice; without it a fresh seed is drawn and printed on stderr
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(Debug, Subcommand)]
enum RjmCommand {
    /// Part 1: print a random maze
    Generate(Common),
    /// Part 2: print a maze, its moves from the start and its objective
    Evaluate {
        #[command(flatten)]
        common: Common,
        /// Evaluate this maze (n lines of n jump numbers) instead of a random one
        #[arg(long)]
        maze: Option<PathBuf>,
    },
    /// Part 3: hill descent with sideways moves
    Descend {
        #[command(flatten)]
        common: Common,
        #[arg(long, value_parser = iterations_arg)]
        iterations: Option<u64>,
    },
    /// Part 4: hill descent with random restarts
    Restarts {
        #[command(flatten)]
        common: Common,
        /// Iterations of each descent
        #[arg(long, value_parser = iterations_arg)]
        iterations: Option<u64>,
        /// Number of hill descents
        #[arg(long, value_parser = descents_arg)]
        descents: Option<u64>,
    },
    /// Part 5: hill descent with random uphill steps
    Uphill {
        #[command(flatten)]
        common: Common,
        #[arg(long, value_parser = iterations_arg)]
        iterations: Option<u64>,
        /// Probability of accepting an uphill step, in [0, 1]
        #[arg(long, value_parser = probability_arg)]
        probability: Option<f64>,
    },
    /// Anneal one size with a budget and keep the longest maze ever found (src/rjm/data/best_mazes.toml)
    Best(BestArgs),
    /// The longest shortest path of every maze of a size, by exhaustive search through the
    /// pipeline (experiment rjm_exact_N: resumable, shardable, merged like any other);
    /// proved for 3x3 to 6x6 in moments; stopped, it prints the interval it proved
    Exact(ExactArgs),
    /// Part 6: simulated annealing with geometric cooling
    Anneal {
        #[command(flatten)]
        common: Common,
        #[arg(long, value_parser = iterations_arg)]
        iterations: Option<u64>,
        /// Initial temperature T0 > 0
        #[arg(long, value_parser = temperature_arg)]
        temperature: Option<f64>,
        /// Geometric decay rate d in (0, 1]: T ← T·d every iteration
        #[arg(long, value_parser = decay_arg)]
        decay: Option<f64>,
    },
}

/// The arguments of `rjm exact`.
#[derive(Debug, Args)]
pub struct ExactArgs {
    /// Maze size, 3 to 10
    #[arg(long, value_parser = exact_size)]
    size: usize,
    /// Stop after this many seconds and print the interval proved so far (default: no limit)
    #[arg(long, value_parser = seconds_arg)]
    seconds: Option<f64>,
    /// Count the mazes of each length from L up (default: the config's, the best stored maze's length)
    #[arg(long = "at-least", value_name = "L", value_parser = at_least_arg)]
    at_least: Option<u32>,
    /// Output folder: the runs are kept in DIR/rjm_exact_N/, and the same command resumes them
    #[arg(long, value_name = "DIR", default_value = "outputs")]
    out: PathBuf,
    /// Search only shard I of N (0-based) of the parts, into its own journal; `searchlab merge DIR/rjm_exact_N` combines the shards
    #[arg(long, value_name = "I/N")]
    shard: Option<crate::pipeline::shard::Shard>,
    /// Worker threads (default: every core)
    #[arg(long, default_value_t = 0)]
    jobs: usize,
    /// Write every maze of the longest length to FILE, one per line (rows separated by '/')
    #[arg(long, value_name = "FILE")]
    list: Option<PathBuf>,
    /// No progress output
    #[arg(long)]
    quiet: bool,
}

/// The arguments of `rjm best`.
#[derive(Debug, Args)]
pub struct BestArgs {
    /// Maze size, 5 to 10
    #[arg(long, value_parser = maze_size)]
    pub size: usize,
    /// Iterations in all, shared evenly by the runs
    #[arg(long, value_parser = budget_arg)]
    pub budget: u64,
    /// Independent annealing runs
    #[arg(long, default_value_t = 8, value_parser = runs_arg)]
    runs: u64,
    /// Initial temperature T0
    #[arg(long, default_value_t = 3.0, value_parser = temperature_arg)]
    t0: f64,
    /// Temperature at the last iteration
    #[arg(long = "t-end", default_value_t = 0.2, value_parser = temperature_arg)]
    t_end: f64,
    /// Seed of the runs' seeds
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The store of best mazes (default: src/rjm/data/best_mazes.toml in the project)
    #[arg(long)]
    store: Option<PathBuf>,
    /// Worker threads (default: every core)
    #[arg(long, default_value_t = 0)]
    jobs: usize,
}

/// A maze size, 5 to 10.
pub fn maze_size(s: &str) -> Result<usize, String> {
    match s.trim().parse::<i64>() {
        Ok(n) if (5..=10).contains(&n) => Ok(n as usize),
        Ok(n) => Err(format!("size {n} is outside 5-10")),
        Err(_) => Err(format!(
            "{} is not a maze size (5-10)",
            crate::util::input::excerpt(s)
        )),
    }
}

/// A size for `exact`, 3 to 10.
fn exact_size(s: &str) -> Result<usize, String> {
    match s.trim().parse::<i64>() {
        Ok(n) if (3..=10).contains(&n) => Ok(n as usize),
        _ => Err(format!(
            "{} is not a maze size for exact search (3-10)",
            crate::util::input::excerpt(s)
        )),
    }
}

/// A threshold length for `exact`, 1 to 100.
fn at_least_arg(s: &str) -> Result<u32, String> {
    match s.trim().parse::<u32>() {
        Ok(n) if (1..=100).contains(&n) => Ok(n),
        _ => Err(format!(
            "{} is not a number of moves for --at-least (1-100)",
            crate::util::input::excerpt(s)
        )),
    }
}

/// A time limit in seconds, above 0 and at most a year.
fn seconds_arg(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 3.2e7 => Ok(x),
        _ => Err(format!(
            "{} is not a time limit in seconds (above 0, at most 3.2e7)",
            crate::util::input::excerpt(s)
        )),
    }
}

// Flags and prompts take the same limits as configs: the algorithms' `ParamSpec`s.

/// A total of iterations for `best`: 1 to 10^12.
fn budget_arg(s: &str) -> Result<u64, String> {
    match s.trim().replace('_', "").parse::<u64>() {
        Ok(n) if (1..=1_000_000_000_000).contains(&n) => Ok(n),
        Ok(n) => Err(format!("budget {n} is outside 1 to 10^12 iterations")),
        Err(_) => Err(format!(
            "{} is not a number of iterations",
            crate::util::input::excerpt(s)
        )),
    }
}

/// Runs of `best`: 1 to 10,000.
fn runs_arg(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if (1..=10_000).contains(&n) => Ok(n),
        _ => Err(format!(
            "{} is not a number of runs (1 to 10000)",
            crate::util::input::excerpt(s)
        )),
    }
}

/// Iterations, 1 to 10^9 as in configs.
fn iterations_arg(s: &str) -> Result<u64, String> {
    runner::iterations().int_from_text(s).map(|n| n as u64)
}

/// Hill descents, as `restarts` in configs.
fn descents_arg(s: &str) -> Result<u64, String> {
    runner::descents().int_from_text(s).map(|n| n as u64)
}

fn probability_arg(s: &str) -> Result<f64, String> {
    runner::uphill_probability(None).float_from_text(s)
}

fn temperature_arg(s: &str) -> Result<f64, String> {
    runner::initial_temperature().float_from_text(s)
}

fn decay_arg(s: &str) -> Result<f64, String> {
    runner::decay().float_from_text(s)
}

/// The subcommand's arguments, for the command line.
pub fn command() -> clap::Command {
    <RjmArgs as clap::Args>::augment_args(clap::Command::new("rjm"))
}

/// Runs the subcommand from its parsed arguments.
pub fn run_matches(m: &clap::ArgMatches, env: &crate::domain::ProgramEnv) -> anyhow::Result<()> {
    run(<RjmArgs as clap::FromArgMatches>::from_arg_matches(m)?, env)
}

/// Runs the subcommand; its long work (`best`, `exact`) reports to the environment's
/// observer.
pub fn run(args: RjmArgs, env: &crate::domain::ProgramEnv) -> anyhow::Result<()> {
    let observer = env.observer();
    let out = match args.command {
        RjmCommand::Best(a) => best(&a, observer)?,
        RjmCommand::Generate(common) => {
            let size = value_or_ask(common.size, "Rook Jumping Maze size (5-10)? ", maze_size)?;
            let mut rng = rng_from_seed(seed(&common));
            format_maze(&Maze::random(size, &mut rng))
        }
        RjmCommand::Evaluate { common, maze } => evaluate(&common, maze.as_deref())?,
        RjmCommand::Exact(a) => exact(&a, env)?,
        RjmCommand::Descend { common, iterations } => {
            let iterations = value_or_ask(iterations, "Iterations? ", iterations_arg)?;
            search(
                &common,
                Acceptance::Uphill { probability: 0.0 },
                iterations,
                1,
            )
        }
        RjmCommand::Restarts {
            common,
            iterations,
            descents,
        } => {
            let iterations = value_or_ask(iterations, "Iterations? ", iterations_arg)?;
            let descents = value_or_ask(descents, "Hill descents? ", descents_arg)?;
            let total = iterations.checked_mul(descents).ok_or_else(|| {
                crate::user_error!("{iterations} iterations × {descents} descents is too many")
            })?;
            search(
                &common,
                Acceptance::Uphill { probability: 0.0 },
                total,
                descents,
            )
        }
        RjmCommand::Uphill {
            common,
            iterations,
            probability,
        } => {
            let iterations = value_or_ask(iterations, "Iterations? ", iterations_arg)?;
            let probability =
                value_or_ask(probability, "Uphill step probability? ", probability_arg)?;
            search(&common, Acceptance::Uphill { probability }, iterations, 1)
        }
        RjmCommand::Anneal {
            common,
            iterations,
            temperature,
            decay,
        } => {
            let iterations = value_or_ask(iterations, "Iterations? ", iterations_arg)?;
            let t0 = value_or_ask(temperature, "Initial temperature? ", temperature_arg)?;
            let decay = value_or_ask(decay, "Decay rate? ", decay_arg)?;
            search(
                &common,
                Acceptance::Anneal(Schedule::Geometric { t0, decay }),
                iterations,
                1,
            )
        }
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

/// The seed to use: the given one, or a fresh one announced on stderr for replay.
fn seed(common: &Common) -> u64 {
    common.seed.unwrap_or_else(|| {
        let s = fresh_seed();
        crate::say!("seed: {s} (replay with --seed {s})");
        s
    })
}

/// Parts 3–6: a random start, the search, and the best maze in the part-2 format.
/// `rjm best`: anneals one size with a budget and offers the longest maze to the store.
fn best(a: &BestArgs, observer: &dyn Observer) -> anyhow::Result<String> {
    let (size, runs) = (a.size, a.runs);
    let iterations = a.budget / runs;
    if iterations == 0 || iterations > 1_000_000_000 {
        crate::user_bail!(
            "--budget {} over --runs {runs} gives {iterations} iterations per run (expected 1 to 10^9)",
            a.budget
        );
    }
    let method = crate::rjm::best::Method {
        size,
        runs,
        iterations,
        t0: a.t0,
        t_end: a.t_end,
        seed: a.seed,
    };
    let store = a
        .store
        .clone()
        .unwrap_or_else(|| PathBuf::from(crate::rjm::best::DEFAULT_STORE));
    let jobs = match crate::pipeline::execute::cap_jobs("--jobs", a.jobs) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let old = crate::rjm::best::load_store(&store)?
        .into_iter()
        .find(|r| r.size == size);
    let started = std::time::Instant::now();
    let found = method.search(jobs, observer)?;
    let seconds = started.elapsed().as_secs_f64();
    let Some(found) = found else {
        crate::user_bail!("no run reached the goal in {seconds:.1} s (try a larger --budget)");
    };
    let was = old.map_or("none".to_string(), |r| r.length.to_string());
    let mut out = format!(
        "{size}×{size}: best of {runs} runs × {iterations} iterations: {} moves (seed {}) in {seconds:.1} s; stored: {was}\n",
        found.length, found.seed
    );
    out.push_str(&format_maze(&parse_maze_code_or_err(&found.maze)?));
    if crate::rjm::best::offer(&store, found)? {
        out.push_str(&format!("a new best: {} updated\n", store.display()));
    } else {
        out.push_str(&format!(
            "not longer than the stored maze: {} unchanged\n",
            store.display()
        ));
    }
    Ok(out)
}

/// `rjm exact`: the proof of one size through the pipeline.
fn exact(a: &ExactArgs, env: &crate::domain::ProgramEnv) -> anyhow::Result<String> {
    let quiet = crate::util::observe::Quiet;
    let observer: &dyn Observer = if a.quiet { &quiet } else { env.observer() };
    exact::command::exact(&exact::command::Request {
        size: a.size,
        seconds: a.seconds,
        at_least: a.at_least,
        out: a.out.clone(),
        shard: a.shard,
        jobs: a.jobs,
        list: a.list.clone(),
        host: env.host.clone(),
        observer,
    })
}

/// `rjm evaluate`: a maze from a file, or a random one, with its moves from the start.
fn evaluate(common: &Common, maze: Option<&std::path::Path>) -> anyhow::Result<String> {
    let maze = match maze {
        Some(path) => {
            let source = path.display().to_string();
            let text = crate::util::input::read_file(path, "maze file")?;
            let maze = parse_maze(&text, &source)?;
            if let Some(size) = common.size.filter(|&s| s != maze.size()) {
                crate::user_bail!(
                    "{source}: the maze is {0}x{0}, but --size is {size}",
                    maze.size()
                );
            }
            maze
        }
        None => Maze::random(common.size.unwrap_or(5), &mut rng_from_seed(seed(common))),
    };
    Ok(format_evaluation(&maze))
}

fn search(common: &Common, acceptance: Acceptance, iterations: u64, descents: u64) -> String {
    let mut rng = rng_from_seed(seed(common));
    let start = Maze::random(common.size.unwrap_or(5), &mut rng);
    let settings = Settings {
        acceptance,
        sideways_cap: None,
        budget: iterations,
        unit: crate::local_search::Unit::Iterations,
        descents,
        checkpoints: Vec::new(),
    };
    format_evaluation(&optimize(&start, &settings, &mut rng).best)
}

fn parse_maze_code_or_err(code: &str) -> anyhow::Result<Maze> {
    runner::parse_maze_code(code).ok_or_else(|| anyhow::anyhow!("a found maze does not parse"))
}
