//! `searchlab tiles …`: the sliding-tile commands of issue 3. `solve` runs IDA* (seed
//! 000's block), BFS/DFS (the 8-puzzle assignment's result) or A* (the two-blank puzzle assignment's transcript) on an
//! instance file; `successors` prints the two-blank puzzle assignment's `print_succ`; `census` counts states by
//! distance; `batch` runs a benchmark set (Korf's 100, the 15-puzzle assignment's six, the 24-puzzle)
//! across all cores and checks every solution length against the published one.

use crate::tiles::board::{Board, MoveOrder};
use crate::tiles::census;
use crate::tiles::deepen::Control;
use crate::tiles::format::{self, thousands};
use crate::tiles::fsm::Pruning;
use crate::tiles::heuristic::Heuristic;
use crate::tiles::ida::{self, IdaResult};
use crate::tiles::instances::InstanceSet;
use crate::tiles::solve::{Problem, moves_of};
use crate::tiles::{pdb, pdb_ida};
use crate::util::cancel::{Cancel, on_interrupt};
use crate::{user_bail, user_error};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// Sliding-tile puzzles: solve instances, list successors, count state spaces, run
/// benchmark sets.
#[derive(clap::Args, Debug)]
pub struct TilesArgs {
    #[command(subcommand)]
    pub command: TilesCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum TilesCommand {
    /// Solve one instance (IDA* with Manhattan distance by default).
    Solve(SolveArgs),
    /// Print the successors of an instance with their h, in ascending state order (the two-blank puzzle assignment).
    Successors(BoardArgs),
    /// Count the states at each distance from the goal by breadth-first search.
    Census(CensusArgs),
    /// Run IDA* on a benchmark set, one instance per core, and check the solution lengths.
    Batch(BatchArgs),
    /// Pattern databases: `pdb build --partition 7-8` builds (or finds in the cache) the
    /// tables of a partition and prints their memory, build time and value distribution.
    Pdb(PdbArgs),
}

#[derive(clap::Args, Debug)]
pub struct PdbArgs {
    #[command(subcommand)]
    pub command: PdbCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum PdbCommand {
    /// Build the tables of a partition (or of several) into the cache (or load them if there).
    Build(PdbBuildArgs),
}

#[derive(clap::Args, Debug)]
pub struct PdbBuildArgs {
    /// `5-5-5`, `6-6-3`, `7-8` (15-puzzle), `6-6-6-6`, `6-6-6-6x4`, `6-6-6-6x7`, `6-6-6-6x14` (24-puzzle), groups of
    /// tiles like `1,2,3,4,5,6,7/8,9,10,11,12,13,14,15`, or several partitions separated by
    /// `|`; `zpdb:` before it builds zero-aware tables (`zpdb:6-6-6-6x4`).
    #[arg(long)]
    pub partition: String,
    /// Board side for a custom partition (default: the smallest square holding its tiles).
    #[arg(long)]
    pub side: Option<usize>,
    /// The cache folder (default: $SEARCHLAB_PDB_CACHE, else pdb/ in --out).
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Output folder whose pdb/ is the default cache.
    #[arg(long, default_value = "outputs")]
    pub out: PathBuf,
}

/// Where an instance comes from and what its goal is.
#[derive(clap::Args, Debug)]
pub struct BoardArgs {
    /// Instance file: whitespace-separated numbers, row-major, 0 for a blank (`-` reads stdin).
    pub file: PathBuf,
    /// Board width (default: the square the count implies).
    #[arg(long)]
    pub width: Option<usize>,
    /// Board height (default: the square the count implies).
    #[arg(long)]
    pub height: Option<usize>,
    /// Goal, as numbers like the instance (default: ascending tiles, blanks first on 4x4
    /// and larger, last on smaller boards).
    #[arg(long)]
    pub goal: Option<String>,
    /// The heuristic, all admissible: manhattan, linear (+ linear conflicts), corner
    /// (+ corner tiles), last (+ last moves), all (the three added), or with IDA* the
    /// additive pattern databases with the reflection: pdb:5-5-5, pdb:6-6-3, pdb:7-8
    /// (15-puzzle), pdb:6-6-6-6, pdb:6-6-6-6x4, pdb:6-6-6-6x7, pdb:6-6-6-6x14 (the maximum over four,
    /// seven or fourteen partitions; 24-puzzle), groups of tiles like pdb:1,2,3,4/5,6,7,8, or several partitions
    /// separated by `|`, maximised over; zpdb: instead of pdb: for zero-aware tables (the
    /// blank's region counted, one bit a state).
    #[arg(long, default_value = "manhattan", value_parser = heuristic_name)]
    pub heuristic: String,
}

/// Checks a `--heuristic` value: a classic heuristic's name or `pdb:PARTITION` (whether
/// the partition's tiles are on the board is checked with the board).
fn heuristic_name(text: &str) -> Result<String, String> {
    pdb::check_ida_heuristic(text.trim()).map(|()| text.trim().to_string())
}

/// The names of `tiles batch --heuristic`, each checked ([`pdb::split_heuristics`]).
#[derive(Debug, Clone)]
pub struct HeuristicList(pub Vec<String>);

fn heuristic_list(text: &str) -> Result<HeuristicList, String> {
    pdb::split_heuristics(text).map(HeuristicList)
}

/// The classic heuristic of a `--heuristic` value; pattern databases are refused with
/// what takes them.
fn classic_heuristic(name: &str, what: &str) -> anyhow::Result<Heuristic> {
    match Heuristic::from_name(name) {
        Some(h) => Ok(h),
        None => user_bail!(
            "--heuristic {name}: {what} takes {} (pattern databases work with IDA*: tiles solve --algorithm ida, tiles batch)",
            Heuristic::NAMES.join(", ")
        ),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Algorithm {
    Ida,
    Astar,
    Bfs,
    Dfs,
}

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// ida prints the 15-puzzle assignment's block, bfs and dfs the 8-puzzle assignment's result, astar the two-blank puzzle assignment's path.
    #[arg(long, value_enum, default_value = "ida")]
    pub algorithm: Algorithm,
    /// The order the blank's moves are tried: a permutation of U, D, L, R (Korf's is ULRD).
    #[arg(long, default_value = "UDLR")]
    pub move_order: String,
    /// Give up after expanding this many nodes (the 8-puzzle assignment uses 100).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=i64::MAX as u64))]
    pub expand_limit: Option<u64>,
    /// Also print the blank's moves (IDA* and A*).
    #[arg(long)]
    pub show_moves: bool,
    /// Memory budget of bfs, dfs and astar (which store states): MB, or with a unit
    /// (512M, 4G). The search stops with an error before passing it. IDA* stores none.
    #[arg(long, value_name = "SIZE", default_value = "4G", value_parser = crate::util::memory::parse_memory_limit)]
    pub memory_limit: u64,
    /// IDA* with additive pattern databases instead of `--heuristic` (with the reflection
    /// about the diagonal): `5-5-5`, `6-6-3`, `7-8`, `6-6-6-6`, `6-6-6-6x4`, `6-6-6-6x7`, `6-6-6-6x14`, groups of tiles
    /// like `1,2,3,4/5,6,7,8`, or several partitions separated by `|` (the maximum over
    /// them); missing tables are built into the cache first. The same as `--heuristic
    /// pdb:PARTITION`; `zpdb:PARTITION` for zero-aware tables.
    #[arg(long)]
    pub pdb: Option<String>,
    /// The pattern-database cache folder (default: $SEARCHLAB_PDB_CACHE, else pdb/ in --out).
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Output folder: the pattern-database cache is pdb/ in it unless --cache or
    /// $SEARCHLAB_PDB_CACHE says otherwise (as for `searchlab run`).
    #[arg(long, default_value = "outputs")]
    pub out: PathBuf,
    /// With `--pdb`: search the subtrees below a frontier depth on all cores (same
    /// counts and solution as the serial search).
    #[arg(long)]
    pub parallel: bool,
    /// IDA*'s options with pattern databases or Manhattan distance.
    #[command(flatten)]
    pub search: SearchOptions,
}

/// The options of IDA* with pattern databases (or Manhattan distance as one-tile
/// patterns), shared by `tiles solve` and `tiles batch`.
#[derive(clap::Args, Debug)]
pub struct SearchOptions {
    /// IDA*'s pruning of duplicate move sequences: `parent` (the move undoing the last
    /// one) or `fsm` (every duplicate of up to `--fsm-depth` moves, Taylor and Korf's
    /// finite-state machine; with manhattan or pattern databases).
    #[arg(long, default_value = "parent", value_parser = pruning_name)]
    pub pruning: Pruning,
    /// With `--pruning fsm`: the longest duplicate sequences the machine prunes, 2 to 18
    /// [default: 14]. Deeper prunes more nodes, but the machine is larger, slower to read
    /// and to build (on the 24-puzzle, 18 takes 150 s and 6 GB).
    #[arg(long, value_parser = clap::value_parser!(u16).range(2..=crate::tiles::fsm::DEEPEST as i64))]
    pub fsm_depth: Option<u16>,
    /// IDA* searches the children of nodes shallower than this in order of increasing f
    /// (ties in move order), which changes only where the last iteration meets a goal;
    /// 0 (the default): move order everywhere (with manhattan or pattern databases).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub order_depth: u32,
    /// IDA* also maximises over the dual lookups (the tables read at the tiles on the
    /// patterns' goal cells; plain pattern databases, the goal with the blank first).
    #[arg(long)]
    pub dual: bool,
    /// IDA* with bidirectional pathmax: a child whose f passes the bound by more than
    /// two cuts off its parent (with manhattan or pattern databases).
    #[arg(long)]
    pub bpmx: bool,
}

impl SearchOptions {
    /// The options of the search with pattern databases, or the error of a machine's
    /// depth given without the machine.
    fn options(&self) -> anyhow::Result<pdb_ida::Options> {
        if self.fsm_depth.is_some() && self.pruning != Pruning::Fsm {
            user_bail!("--fsm-depth works with --pruning fsm");
        }
        Ok(pdb_ida::Options {
            pruning: self.pruning,
            fsm_depth: self
                .fsm_depth
                .map_or(crate::tiles::fsm::DEFAULT_DEPTH, usize::from),
            order_depth: self.order_depth,
            dual: self.dual,
            bpmx: self.bpmx,
        })
    }

    /// The option given that only the search with pattern databases has, if any.
    fn pdb_only_option(&self) -> Option<String> {
        if self.pruning != Pruning::Parent {
            Some(format!("--pruning {}", self.pruning.name()))
        } else if let Some(d) = self.fsm_depth {
            Some(format!("--fsm-depth {d}"))
        } else if self.order_depth > 0 {
            Some(format!("--order-depth {}", self.order_depth))
        } else if self.dual {
            Some("--dual".into())
        } else if self.bpmx {
            Some("--bpmx".into())
        } else {
            None
        }
    }
}

fn pruning_name(text: &str) -> Result<Pruning, String> {
    Pruning::from_name(text.trim())
        .ok_or_else(|| format!("{text:?} is not a pruning: {}", Pruning::NAMES.join(", ")))
}

#[derive(clap::Args, Debug)]
pub struct CensusArgs {
    #[arg(long, default_value_t = 3)]
    pub width: usize,
    #[arg(long, default_value_t = 3)]
    pub height: usize,
    /// Number of blanks.
    #[arg(long, default_value_t = 1)]
    pub blanks: usize,
    /// Goal, as numbers (default: as for `solve`).
    #[arg(long)]
    pub goal: Option<String>,
    /// Print `depth,states` CSV.
    #[arg(long)]
    pub csv: bool,
}

#[derive(clap::Args, Debug)]
pub struct BatchArgs {
    /// The benchmark set.
    #[arg(long, value_enum, default_value = "assignment")]
    pub set: InstanceSet,
    /// Instance ids, e.g. `1,2,5-9` (default: the whole set).
    #[arg(long)]
    pub ids: Option<String>,
    /// Heuristics, comma-separated (e.g. `manhattan,linear,all,pdb:7-8`): the classic ones,
    /// the named pattern databases pdb:5-5-5, pdb:6-6-3, pdb:7-8, pdb:6-6-6-6,
    /// pdb:6-6-6-6x4, pdb:6-6-6-6x7, pdb:6-6-6-6x14, or pdb: and groups of tiles, or several partitions separated by `|`
    /// (`manhattan,pdb:1,2,3,4,5,6,7/8,9,10,11,12,13,14,15`); zpdb: for zero-aware tables.
    #[arg(long, default_value = "manhattan", value_parser = heuristic_list)]
    pub heuristic: HeuristicList,
    /// The pattern-database cache folder (default: outputs/pdb, or $SEARCHLAB_PDB_CACHE).
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Move order (Korf's ULRD by default here, so counts compare with his table).
    #[arg(long, default_value = "ULRD")]
    pub move_order: String,
    /// Give up on an instance after expanding this many nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=i64::MAX as u64))]
    pub expand_limit: Option<u64>,
    /// IDA*'s options, as for `tiles solve`.
    #[command(flatten)]
    pub search: SearchOptions,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output folder: the batch is the experiment `tiles_batch_<set>` there, so a rerun
    /// reuses finished runs.
    #[arg(long, default_value = "outputs")]
    pub out: PathBuf,
    /// Print CSV rows instead of a table.
    #[arg(long)]
    pub csv: bool,
}

/// The subcommand's arguments, for the command line.
pub fn command() -> clap::Command {
    <TilesArgs as clap::Args>::augment_args(clap::Command::new("tiles"))
}

/// Runs the subcommand from its parsed arguments.
pub fn run_matches(m: &clap::ArgMatches) -> anyhow::Result<()> {
    run(<TilesArgs as clap::FromArgMatches>::from_arg_matches(m)?)
}

pub fn run(args: TilesArgs) -> anyhow::Result<()> {
    let out = match args.command {
        TilesCommand::Solve(a) => solve(&a)?,
        TilesCommand::Successors(a) => {
            let (start, goal) = load(&a)?;
            let h = classic_heuristic(&a.heuristic, "tiles successors")?;
            format::successor_lines(&Problem::new(start, goal, MoveOrder::default(), h))
        }
        TilesCommand::Census(a) => census_cmd(&a)?,
        TilesCommand::Batch(a) => batch(&a)?,
        TilesCommand::Pdb(PdbArgs {
            command: PdbCommand::Build(a),
        }) => pdb_build(&a)?,
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

/// Reads and validates the instance and its goal.
fn load(a: &BoardArgs) -> anyhow::Result<(Board, Board)> {
    let name = a.file.display().to_string();
    let text = if name == "-" {
        crate::util::input::read_stdin("instance")?
    } else {
        crate::util::input::read_file(&a.file, "instance")?
    };
    let start = Board::parse(&text, a.width, a.height, &name)?;
    let goal = match &a.goal {
        Some(g) => Board::parse(
            g,
            Some(start.width as usize),
            Some(start.height as usize),
            "--goal",
        )?,
        None => Board::default_goal(start.shape(), start.blanks()),
    };
    start.check_goal(&goal, &name)?;
    Ok((start, goal))
}

/// The pattern-database cache folder: `--cache`, else `$SEARCHLAB_PDB_CACHE`, else
/// `<out>/pdb` (as for the pipeline's runs; read once, here, by the command).
pub fn cache_dir(flag: Option<&std::path::Path>, out: &std::path::Path) -> PathBuf {
    match flag {
        Some(dir) => dir.to_path_buf(),
        None => std::env::var_os("SEARCHLAB_PDB_CACHE")
            .filter(|v| !v.is_empty())
            .map_or_else(|| out.join("pdb"), PathBuf::from),
    }
}

/// The PDB heuristic of `partition` towards `goal`, from the cache or built with a
/// progress bar on stderr (plain lines when stderr is not a terminal).
pub fn pdb_heuristic(
    partition: &str,
    goal: &Board,
    cache: &std::path::Path,
) -> anyhow::Result<(pdb::PdbHeuristic, Vec<pdb::Origin>)> {
    let (name, partitions) = pdb::parse_partitions(partition, goal)?;
    let kind = pdb::TableKind::of(partition);
    let groups = pdb::distinct_groups(&partitions);
    if !std::io::stderr().is_terminal() {
        return pdb::PdbHeuristic::load_or_build(
            goal,
            name,
            partitions,
            cache,
            kind,
            &pdb::progress_lines(&groups, &|text| crate::util::notice::note(text)),
        );
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{msg} [{bar:40}] {pos}/{len} placements ({elapsed})",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let result =
        pdb::PdbHeuristic::load_or_build(goal, name, partitions, cache, kind, &|i, done, total| {
            bar.set_message(format!(
                "building the pattern database of tiles {:?}",
                groups[i]
            ));
            bar.set_length(total);
            bar.set_position(done);
        });
    bar.finish_and_clear();
    result
}

fn pdb_build(a: &PdbBuildArgs) -> anyhow::Result<String> {
    let side = match (a.side, pdb::named_side(&a.partition)) {
        (Some(s), _) | (None, Some(s)) => s,
        (None, None) => {
            let max = (pdb::strip_kind(&a.partition).0)
                .split(['/', ',', '|'])
                .filter_map(|w| w.trim().parse::<usize>().ok())
                .max()
                .unwrap_or(0);
            (2..=5).find(|s| s * s > max).unwrap_or(5)
        }
    };
    let goal = Board::default_goal(crate::tiles::board::Shape::new(side, side)?, 1);
    let started = std::time::Instant::now();
    let cache = cache_dir(a.cache.as_deref(), &a.out);
    let (h, origins) = pdb_heuristic(&a.partition, &goal, &cache)?;
    let mut s = format!(
        "partition {} on the {} board: {} {}tables, {} bytes, {:.2} s\n",
        h.name,
        goal.shape(),
        h.groups().len(),
        if h.zero.is_empty() { "" } else { "zero-aware " },
        thousands(h.bytes() as u64),
        started.elapsed().as_secs_f64()
    );
    let origin = |o: &pdb::Origin| match o {
        pdb::Origin::Built => "built",
        pdb::Origin::Loaded => "loaded from the cache",
    };
    for (t, o) in h.tables.iter().zip(&origins) {
        s.push_str(&format!(
            "tiles {:?}: {} entries, {} bytes ({}), {} (build time {:.2} s), max {}, mean {:.3}\n  values: {}\n",
            t.pattern.tiles,
            thousands(t.pattern.entries()),
            thousands(t.bytes() as u64),
            if t.encoding == pdb::Encoding::Nibbles { "4 bits an entry" } else { "a byte an entry" },
            origin(o),
            t.build_seconds,
            t.max_value(),
            t.mean_value(),
            pdb::histogram_text(&t.histogram)
        ));
        s.push_str(&format!(
            "  file: {}\n",
            pdb::cache_file(&cache, &goal, &t.pattern.tiles).display()
        ));
    }
    for (z, o) in h.zero.iter().zip(&origins) {
        s.push_str(&format!(
            "tiles {:?}: {} states, {} bytes (a bit a state), {} (build time {:.2} s), max {}, mean {:.3}\n  costs: {}\n",
            z.pattern.tiles,
            thousands(z.histogram.iter().sum()),
            thousands(z.bytes() as u64),
            origin(o),
            z.build_seconds,
            z.max_value(),
            z.mean_value(),
            pdb::histogram_text(&z.histogram)
        ));
        s.push_str(&format!(
            "  file: {}\n",
            pdb::zero_cache_file(&cache, &goal, &z.pattern.tiles).display()
        ));
    }
    Ok(s)
}

/// `tiles solve` with pattern databases (`None`: Manhattan distance as one-tile
/// patterns): IDA*, serial or parallel.
fn solve_pdb(
    a: &SolveArgs,
    partition: Option<&str>,
    start: &Board,
    goal: &Board,
    order: MoveOrder,
) -> anyhow::Result<String> {
    if a.algorithm != Algorithm::Ida || start.blanks() != 1 {
        match partition {
            Some(_) => {
                user_bail!("pattern databases work with --algorithm ida on one-blank boards")
            }
            None => user_bail!(
                "{} works with --algorithm ida on one-blank boards",
                a.search.pdb_only_option().unwrap_or_default()
            ),
        }
    }
    let options = a.search.options()?;
    pdb_ida::check_options(goal, partition, &options).map_err(|e| user_error!("{e}"))?;
    let h = match partition {
        Some(partition) => {
            let cache = cache_dir(a.cache.as_deref(), &a.out);
            pdb_heuristic(partition, goal, &cache)?.0
        }
        None => pdb::PdbHeuristic::manhattan(goal),
    };
    let stop = on_interrupt(SEARCH_STOPS);
    let control = control(a, &stop);
    let r = if a.parallel {
        pdb_ida::solve_parallel_with(start, &h, order, options, control)
    } else {
        pdb_ida::solve_with(start, &h, order, options, control)
    };
    ida_text(a, start, &r)
}

/// What `tiles solve` says of a stop request while IDA* searches.
const SEARCH_STOPS: &str = "the search ends within a second";

/// `tiles solve`'s control of IDA*: its expansion limit, and `stop` (Ctrl-C).
fn control<'a>(a: &SolveArgs, stop: &'a Cancel) -> Control<'a> {
    Control {
        expand_limit: a.expand_limit,
        stop: Some(stop),
        ..Control::default()
    }
}

/// `tiles solve`'s output for an IDA* result: its block, and its moves when asked for;
/// an interrupted search is an error saying what it had done.
fn ida_text(a: &SolveArgs, start: &Board, r: &IdaResult) -> anyhow::Result<String> {
    if r.interrupted {
        return Err(r.interruption().into());
    }
    let mut s = format::ida_block(start, r);
    if a.show_moves
        && let Some(m) = &r.moves
    {
        s.push_str(&moves_line(m));
    }
    Ok(s)
}

/// The `Moves = …` line of `--show-moves`.
fn moves_line(m: &[crate::tiles::Dir]) -> String {
    let letters: String = m.iter().map(|d| d.letter()).collect();
    format!("Moves = {letters}\n")
}

fn solve(a: &SolveArgs) -> anyhow::Result<String> {
    let (start, goal) = load(&a.board)?;
    let order = MoveOrder::parse(&a.move_order)?;
    let partition = a
        .pdb
        .as_deref()
        .or_else(|| pdb::heuristic_partition(&a.board.heuristic));
    if let Some(partition) = partition {
        return solve_pdb(a, Some(partition), &start, &goal, order);
    }
    let heuristic = classic_heuristic(&a.board.heuristic, "tiles solve")?;
    if let Some(option) = a.search.pdb_only_option() {
        if heuristic != Heuristic::Manhattan {
            user_bail!(
                "{option} works with --heuristic manhattan or pattern databases, not {}",
                heuristic.name()
            );
        }
        return solve_pdb(a, None, &start, &goal, order);
    }
    let problem = Problem::new(start, goal, order, heuristic).with_memory_limit(a.memory_limit);
    let out_of_memory = |name: &str, stored: u64| {
        user_error!(
            "{name} stopped after expanding {stored} states: its stored states would pass the memory limit of {} (--memory-limit raises it; ida stores no states)",
            crate::util::memory::bytes_text(a.memory_limit)
        )
    };
    Ok(match a.algorithm {
        Algorithm::Ida => {
            let r = if start.blanks() == 1 {
                let stop = on_interrupt(SEARCH_STOPS);
                ida::solve_with(&start, &goal, heuristic, order, control(a, &stop))
            } else {
                generic_ida(&problem, a.expand_limit)
            };
            ida_text(a, &start, &r)?
        }
        Algorithm::Bfs | Algorithm::Dfs => {
            let o = if a.algorithm == Algorithm::Bfs {
                problem.bfs(a.expand_limit)
            } else {
                problem.dfs(a.expand_limit)
            };
            if o.stats.out_of_memory {
                let name = if a.algorithm == Algorithm::Bfs {
                    "bfs"
                } else {
                    "dfs"
                };
                return Err(out_of_memory(name, o.stats.expanded));
            }
            match &o.path {
                Some(p) => format::gsa_result(o.stats.expanded, o.cost, Some(&moves_of(p))),
                None => format::gsa_result(o.stats.expanded, o.last_depth, None),
            }
        }
        Algorithm::Astar => {
            let o = problem.astar(a.expand_limit);
            if o.stats.out_of_memory {
                return Err(out_of_memory("astar", o.stats.expanded));
            }
            match &o.path {
                Some(p) => {
                    let mut s = format::astar_transcript(&problem, p, o.stats.max_frontier);
                    if a.show_moves {
                        s.push_str(&moves_line(&moves_of(p)));
                    }
                    s
                }
                None => format!(
                    "not found after {} expansions\nMax queue length: {}\n",
                    o.stats.expanded, o.stats.max_frontier
                ),
            }
        }
    })
}

/// IDA* through the generic search (boards with several blanks), as an [`IdaResult`].
pub fn generic_ida(problem: &Problem, expand_limit: Option<u64>) -> IdaResult {
    let started = std::time::Instant::now();
    let o = problem.ida(expand_limit);
    IdaResult {
        h0: problem.h(&problem.start),
        thresholds: o.stats.thresholds.iter().map(|&t| t as u32).collect(),
        moves: o.path.as_ref().map(|p| moves_of(p)),
        generated: o.stats.generated,
        expanded: o.stats.expanded,
        max_depth: o.stats.max_frontier as u32,
        limit_reached: o.limit_reached,
        interrupted: false,
        seconds: started.elapsed().as_secs_f64(),
    }
}

fn census_cmd(a: &CensusArgs) -> anyhow::Result<String> {
    let shape = crate::tiles::Shape::new(a.width, a.height)?;
    if a.blanks == 0 || a.blanks >= shape.cells() {
        user_bail!(
            "--blanks {} must be from 1 to {} on a {shape} board",
            a.blanks,
            shape.cells() - 1
        );
    }
    let goal = match &a.goal {
        Some(g) => {
            let goal = Board::parse(g, Some(a.width), Some(a.height), "--goal")?;
            if goal.blanks() != a.blanks {
                user_bail!(
                    "--goal has {} blank(s) but --blanks is {}",
                    goal.blanks(),
                    a.blanks
                );
            }
            goal
        }
        None => Board::default_goal(shape, a.blanks),
    };
    let counts = census::census(&goal)?;
    let mut s = String::new();
    if a.csv {
        s.push_str("depth,states\n");
        for (d, c) in counts.iter().enumerate() {
            s.push_str(&format!("{d},{c}\n"));
        }
    } else {
        s.push_str(&format!(
            "{shape} board, {} blank(s), goal {}\n",
            a.blanks,
            goal.list()
        ));
        s.push_str("depth        states\n");
        for (d, c) in counts.iter().enumerate() {
            s.push_str(&format!("{d:>5} {:>13}\n", thousands(*c)));
        }
        let total: u64 = counts.iter().sum();
        s.push_str(&format!(
            "total {:>13}  (largest distance {})\n",
            thousands(total),
            counts.len().saturating_sub(1)
        ));
    }
    Ok(s)
}

/// Parses `1,2,5-9` into ids.
fn parse_ids(text: &str) -> anyhow::Result<Vec<u32>> {
    let mut ids = Vec::new();
    for part in text.split(',').map(str::trim) {
        if part.is_empty() {
            user_bail!(
                "--ids {}: an empty item (expected ids and ranges separated by single commas, e.g. 1,2,5-9)",
                crate::util::input::excerpt(text)
            );
        }
        let num = |s: &str| -> anyhow::Result<u32> {
            s.trim().parse().map_err(|_| {
                user_error!(
                    "--ids: {} is not an instance number",
                    crate::util::input::excerpt(s)
                )
            })
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if a > b {
                    user_bail!("--ids: the range {part} is empty");
                }
                if ids.len() + (b - a) as usize >= 100_000 {
                    user_bail!("--ids: more than 100000 instances");
                }
                ids.extend(a..=b);
            }
            None => ids.push(num(part)?),
        }
    }
    Ok(ids)
}

/// Runs a batch through the pipeline (experiment `tiles_batch_<set>` under `--out`, so a
/// rerun reuses finished runs and an interrupted batch resumes), in the order heuristic
/// by heuristic, instance by instance; returns each run's metrics decoded from the table.
fn batch_runs(
    a: &BatchArgs,
    order: &MoveOrder,
    instances: &[crate::tiles::Instance],
) -> anyhow::Result<Vec<crate::tiles::runner::TilesMetrics>> {
    let list = |v: Vec<String>| v.join(", ");
    let mut text = format!(
        "[experiment]\nname = \"tiles_batch_{set}\"\ndescription = \"tiles batch\"\ndomain = \"tiles\"\nalgorithm = \"ida\"\n[params]\ninstance_set = \"{set}\"\nmove_order = \"{order}\"\n",
        set = a.set.name()
    );
    if let Some(l) = a.expand_limit {
        text.push_str(&format!("expand_limit = {l}\n"));
    }
    let o = a.search.options()?;
    text.push_str(&format!("pruning = \"{}\"\n", o.pruning.name()));
    if o.pruning == Pruning::Fsm {
        text.push_str(&format!("fsm_depth = {}\n", o.fsm_depth));
    }
    text.push_str(&format!("order_depth = {}\n", o.order_depth));
    text.push_str(&format!("dual = {}\nbpmx = {}\n", o.dual, o.bpmx));
    text.push_str(&format!(
        "[sweep]\nheuristic = [{}]\ninstance = [{}]\n",
        list(a.heuristic.0.iter().map(|h| format!("{h:?}")).collect()),
        list(instances.iter().map(|i| i.id.to_string()).collect())
    ));
    let config = crate::pipeline::config::parse(&text, "tiles batch", &[])?;
    let runner = crate::tiles::runner::runner();
    let plan = crate::pipeline::plan::plan(&config, &[&runner])?;
    let mut opts = crate::pipeline::execute::Options::new(&a.out);
    opts.jobs = crate::pipeline::execute::cap_jobs("--threads", a.threads.unwrap_or(0));
    opts.env.cancel = on_interrupt(crate::pipeline::execute::RUNS_STOP);
    opts.env
        .caches
        .insert("tiles".into(), cache_dir(a.cache.as_deref(), &a.out));
    let dir = crate::pipeline::execute::experiment_dir(&opts.out, &config.name);
    let missing = crate::pipeline::recorded::missing_runs(&plan, &dir, false)?;
    let progress = crate::pipeline::progress::Progress::new(missing as u64, true)
        .with_notes(!crate::util::notice::quiet());
    let done = crate::pipeline::execute::run_experiment(&config, &plan, &opts, &progress)?;
    crate::pipeline::table::decode_rows(&done.results)
}

/// Totals of one heuristic over a batch.
struct Totals<'a> {
    heuristic: &'a str,
    generated: u64,
    expanded: u64,
    seconds: f64,
    solved: usize,
}

fn batch(a: &BatchArgs) -> anyhow::Result<String> {
    let order = MoveOrder::parse(&a.move_order)?;
    let instances = match &a.ids {
        Some(text) => parse_ids(text)?
            .into_iter()
            .map(|id| a.set.instance(id))
            .collect::<anyhow::Result<Vec<_>>>()?,
        None => a.set.instances(),
    };
    let mut jobs = Vec::new();
    for h in &a.heuristic.0 {
        for inst in &instances {
            jobs.push((h.as_str(), inst.clone()));
        }
    }
    let results = batch_runs(a, &order, &instances)?;
    let mut s = String::new();
    if a.csv {
        s.push_str("set,id,heuristic,h0,optimal,solution_length,thresholds,generated,expanded,time_seconds,nodes_per_second\n");
    }
    let mut mismatches = Vec::new();
    let mut totals: Vec<Totals> = Vec::new();
    for ((h, inst), r) in jobs.iter().zip(&results) {
        let len = r.solution_length.map(|l| l as u32);
        if len.is_some_and(|l| l != inst.optimal) {
            mismatches.push(format!(
                "{} #{} with {h}: found {:?}, published {}",
                a.set.name(),
                inst.id,
                len,
                inst.optimal
            ));
        }
        let first = totals.last().is_none_or(|t| t.heuristic != *h);
        s.push_str(&batch_row(a, h, inst, r, &order, first));
        if first {
            totals.push(Totals {
                heuristic: h,
                generated: 0,
                expanded: 0,
                seconds: 0.0,
                solved: 0,
            });
        }
        let t = totals.last_mut().expect("pushed");
        t.generated += r.generated;
        t.expanded += r.expanded;
        t.seconds += r.time_seconds;
        t.solved += usize::from(len.is_some());
    }
    if !a.csv {
        s.push_str(&totals_text(instances.len(), &totals));
    }
    if !mismatches.is_empty() {
        anyhow::bail!(
            "solution lengths differ from the published optima: {}",
            mismatches.join("; ")
        );
    }
    Ok(s)
}

/// One instance's line of a batch: CSV, or a table row (after the heuristic's header
/// when `first`).
fn batch_row(
    a: &BatchArgs,
    h: &str,
    inst: &crate::tiles::Instance,
    r: &crate::tiles::runner::TilesMetrics,
    order: &MoveOrder,
    first: bool,
) -> String {
    let nps = format::per_second(r.generated, r.time_seconds);
    let len_text = r.solution_length.map_or("-".to_string(), |l| l.to_string());
    if a.csv {
        // A custom partition's name has commas: quoted, as CSV does.
        let h_field = if h.contains(',') {
            format!("\"{h}\"")
        } else {
            h.to_string()
        };
        return format!(
            "{},{},{h_field},{},{},{len_text},{},{},{},{:.3},{nps}\n",
            a.set.name(),
            inst.id,
            r.h0,
            inst.optimal,
            r.thresholds.clone().unwrap_or_default(),
            r.generated,
            r.expanded,
            r.time_seconds
        );
    }
    let mut s = String::new();
    if first {
        s.push_str(&format!(
            "\n{} with {h}, moves {order}\n{:>4} {:>3} {:>4} {:>17} {:>17} {:>9} {:>13}\n",
            a.set.name(),
            "id",
            "h0",
            "len",
            "generated",
            "expanded",
            "seconds",
            "nodes/s"
        ));
    }
    s.push_str(&format!(
        "{:>4} {:>3} {:>4} {:>17} {:>17} {:>9.2} {:>13}\n",
        inst.id,
        r.h0,
        len_text,
        thousands(r.generated),
        thousands(r.expanded),
        r.time_seconds,
        thousands(nps)
    ));
    s
}

/// The totals table of a batch, with each heuristic's reduction against Manhattan.
fn totals_text(instances: usize, totals: &[Totals]) -> String {
    let w = totals
        .iter()
        .map(|t| t.heuristic.len())
        .max()
        .unwrap_or(0)
        .max(11);
    let mut s = format!(
        "\nTotals over {instances} instance(s)\n{:<w$} {:>6} {:>19} {:>19} {:>10} {:>13} {:>10}\n",
        "heuristic", "solved", "generated", "expanded", "seconds", "nodes/s", "reduction"
    );
    let base = totals
        .iter()
        .find(|t| t.heuristic == Heuristic::Manhattan.name())
        .map(|t| t.generated);
    for t in totals {
        let red = base.map_or("-".to_string(), |b| {
            format!("{:.2}x", b as f64 / t.generated.max(1) as f64)
        });
        s.push_str(&format!(
            "{:<w$} {:>6} {:>19} {:>19} {:>10.2} {:>13} {:>10}\n",
            t.heuristic,
            t.solved,
            thousands(t.generated),
            thousands(t.expanded),
            t.seconds,
            thousands(format::per_second(t.generated, t.seconds)),
            red
        ));
    }
    s
}
