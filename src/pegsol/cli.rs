//! `searchlab pegsol …`: solve a peg-solitaire board with the assignment's search or the
//! stronger solver (and replay the solution), play it in the terminal, count its
//! reachable positions, or list the levels. Output goes to stdout; bad input (unknown
//! level, unreadable or malformed board file, budget below 1) is a user error.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};

use crate::pegsol::levels::{self, Puzzle};
use crate::pegsol::render::{self, board_text, pegs_text};
use crate::pegsol::{budgeted_dfs, count, play, solver};
use crate::search::{Limits, Stop};

/// Peg solitaire: the assignment's budgeted DFS, a stronger solver, play, and position counts.
#[derive(Debug, Args)]
pub struct PegsolArgs {
    #[command(subcommand)]
    pub command: PegsolCommand,
}

#[derive(Debug, Subcommand)]
pub enum PegsolCommand {
    /// Solve a board and print the assignment's STATS block.
    Solve(SolveArgs),
    /// Play a board in the terminal (arrows, Enter, u undo, r restart, q quit).
    Play(BoardArgs),
    /// Count the positions reachable after each number of jumps.
    Count(CountArgs),
    /// List the nine levels with their boards.
    Levels,
}

/// Which board: one of the nine levels or a board file.
#[derive(Debug, Args, Clone)]
pub struct BoardArgs {
    /// A level of the seed, 0 to 8.
    #[arg(long, value_name = "L", allow_negative_numbers = true)]
    pub level: Option<i64>,
    /// A board file: rows of `o` (peg), `.` (empty hole), `-` (no hole), up to 9×9.
    #[arg(long, value_name = "FILE", conflicts_with = "level")]
    pub board: Option<PathBuf>,
}

impl BoardArgs {
    pub fn puzzle(&self) -> anyhow::Result<Puzzle> {
        levels::from_choice(self.level, self.board.as_deref())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SolverName {
    /// The assignment's depth-first search with an expansion budget (Algorithm 1).
    Seed,
    /// Symmetry-reduced DFS with a transposition table, pagoda pruning and restarts;
    /// proves the fewest pegs reachable.
    Strong,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Most nodes to expand. The assignment's default is 1,000,000; the strong solver runs to
    /// a proof unless given one. Commas and underscores are allowed (1,500,000).
    #[arg(long, value_name = "B")]
    pub budget: Option<String>,
    /// The solver.
    #[arg(long, value_enum, default_value = "seed")]
    pub solver: SolverName,
    /// Replay the solution jump by jump (redrawn on a terminal, printed otherwise).
    #[arg(long)]
    pub play_solution: bool,
    /// Pause between jumps of the replay on a terminal, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 300)]
    pub delay_ms: u64,
    /// Memory budget of the strong solver's transposition table: MB, or with a unit
    /// (512M, 4G). The solver stops with an error before passing it.
    #[arg(long, value_name = "SIZE", default_value = "4G", value_parser = crate::util::memory::parse_memory_limit)]
    pub memory_limit: u64,
}

#[derive(Debug, Args)]
pub struct CountArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Print CSV (`jumps,positions,positions_up_to_symmetry`) instead of a table.
    #[arg(long)]
    pub csv: bool,
    /// Stop after this many jumps.
    #[arg(long, value_name = "N")]
    pub max_jumps: Option<u32>,
    /// Memory budget of the layers kept: MB, or with a unit (512M, 4G). Counting stops
    /// with an error before passing it.
    #[arg(long, value_name = "SIZE", default_value = "4G", value_parser = crate::util::memory::parse_memory_limit)]
    pub memory_limit: u64,
}

/// Parses a budget: a positive integer, commas and underscores allowed.
pub fn parse_budget(text: &str) -> anyhow::Result<u64> {
    let t = text.trim();
    let (negative, unsigned) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    // Groups of digits separated by single commas or underscores: 1,500,000 or 10_000,
    // not 1,,0 or ,5.
    let groups: Vec<&str> = unsigned.split([',', '_']).collect();
    if groups
        .iter()
        .any(|g| g.is_empty() || !g.bytes().all(|b| b.is_ascii_digit()))
    {
        crate::user_bail!(
            "--budget {} is not a whole number (digits, optionally grouped by single commas or underscores)",
            crate::util::input::excerpt(text)
        );
    }
    let digits = groups.concat();
    let value = digits.trim_start_matches('0');
    if negative || value.is_empty() {
        crate::user_bail!("--budget {t} is below 1 (it counts expanded nodes)");
    }
    match value.parse::<u64>() {
        Ok(b) => Ok(b),
        Err(_) => crate::user_bail!("--budget {t} is too large (at most {})", u64::MAX),
    }
}

/// The subcommand's arguments, for the command line.
pub fn command() -> clap::Command {
    <PegsolArgs as clap::Args>::augment_args(clap::Command::new("pegsol"))
}

/// Runs the subcommand from its parsed arguments.
pub fn run_matches(m: &clap::ArgMatches, _: &crate::domain::ProgramEnv) -> anyhow::Result<()> {
    run(<PegsolArgs as clap::FromArgMatches>::from_arg_matches(m)?)
}

pub fn run(args: PegsolArgs) -> anyhow::Result<()> {
    match args.command {
        PegsolCommand::Solve(a) => solve(&a),
        PegsolCommand::Play(b) => play::run(&b.puzzle()?),
        PegsolCommand::Count(a) => count_cmd(&a),
        PegsolCommand::Levels => list_levels(),
    }
}

fn solve(a: &SolveArgs) -> anyhow::Result<()> {
    let budget = a.budget.as_deref().map(parse_budget).transpose()?;
    let p = a.board.puzzle()?;
    let mut out = std::io::stdout().lock();
    let (solution, stats) = match a.solver {
        SolverName::Seed => {
            let budget = budget.unwrap_or(1_000_000);
            let spec = crate::pegsol::runner::budget_param();
            let value =
                crate::pipeline::params::Value::Int(i64::try_from(budget).unwrap_or(i64::MAX));
            if let Err(e) = spec.check(&value) {
                crate::user_bail!("--budget: {e}");
            }
            let r = budgeted_dfs::solve(&p.shape, p.start, budget);
            let stats = stats_block(
                r.expanded,
                r.generated,
                r.solution.len(),
                r.pegs_left,
                r.expanded_per_second(),
                r.elapsed,
            );
            (r.solution, stats)
        }
        SolverName::Strong => {
            let limits = Limits::expansions(budget).with_memory(a.memory_limit);
            let r = solver::solve(&p.shape, p.start, &limits);
            if r.stop == Stop::MemoryLimit {
                crate::user_bail!(
                    "the strong solver stopped after expanding {} boards: its transposition table would pass the memory limit of {} (--memory-limit raises it, --budget stops earlier)",
                    r.expanded,
                    crate::util::memory::bytes_text(a.memory_limit)
                );
            }
            let mut stats = stats_block(
                r.expanded,
                r.generated,
                r.solution.len(),
                r.pegs_left,
                r.expanded_per_second(),
                r.elapsed,
            );
            let proof = if r.proved_optimal() {
                format!(
                    "proved: no sequence of jumps leaves fewer than {}\n",
                    pegs_text(r.pegs_left)
                )
            } else {
                "not proved: the budget ran out first\n".to_string()
            };
            stats.push_str(&format!(
                "Fewest pegs {proof}Transposition table: {} boards\n",
                r.table_entries
            ));
            (r.solution, stats)
        }
    };
    if a.play_solution {
        let terminal = std::io::stdout().is_terminal();
        render::replay(
            &p.shape,
            p.start,
            &solution,
            Duration::from_millis(a.delay_ms),
            &mut out,
            terminal,
        )?;
    }
    out.write_all(stats.as_bytes())?;
    Ok(())
}

/// The assignment's STATS block.
pub fn stats_block(
    expanded: u64,
    generated: u64,
    length: usize,
    pegs_left: u32,
    per_second: f64,
    elapsed: Duration,
) -> String {
    format!(
        "STATS:\nExpanded nodes: {expanded}\nGenerated nodes: {generated}\nSolution Length: {length}\nNumber of Pegs Left: {pegs_left}\nExpanded/seconds: {}\nTime (seconds): {:.6}\n",
        per_second.round() as u64,
        elapsed.as_secs_f64()
    )
}

fn count_cmd(a: &CountArgs) -> anyhow::Result<()> {
    let p = a.board.puzzle()?;
    let mut out = std::io::stdout().lock();
    if a.csv {
        writeln!(out, "jumps,positions,positions_up_to_symmetry")?;
    } else {
        writeln!(
            out,
            "{}: {} pegs, {} holes, {} symmetries",
            p.name,
            p.initial_pegs(),
            p.shape.hole_count(),
            p.shape.symmetry_count()
        )?;
        writeln!(
            out,
            "{:>5} {:>14} {:>24}",
            "jumps", "positions", "up to symmetry"
        )?;
    }
    let limits = count::Limits {
        jumps: a.max_jumps,
        memory: a.memory_limit,
    };
    // Each row is printed as soon as it is known; a failed write stops the count.
    let mut rows = Vec::new();
    for r in count::count(&p.shape, p.start, limits) {
        let r = r?;
        let line = if a.csv {
            format!("{},{},{}", r.jumps, r.positions, r.positions_up_to_symmetry)
        } else {
            format!(
                "{:>5} {:>14} {:>24}",
                r.jumps, r.positions, r.positions_up_to_symmetry
            )
        };
        writeln!(out, "{line}").and_then(|_| out.flush())?;
        rows.push(r);
    }
    if !a.csv {
        let total: u64 = rows.iter().map(|r| r.positions).sum();
        let total_sym: u64 = rows.iter().map(|r| r.positions_up_to_symmetry).sum();
        writeln!(out, "{:>5} {:>14} {:>24}", "total", total, total_sym)?;
    }
    Ok(())
}

fn list_levels() -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    for l in 0..levels::LEVEL_COUNT as i64 {
        let p = levels::level(l)?;
        writeln!(
            out,
            "level {l}: {} pegs, {} holes",
            p.initial_pegs(),
            p.shape.hole_count()
        )?;
        writeln!(out, "{}", board_text(&p.shape, p.start, None))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_parse_with_separators_and_reject_below_one() {
        assert_eq!(parse_budget("1,500,000").unwrap(), 1_500_000);
        assert_eq!(parse_budget("10_000").unwrap(), 10_000);
        for bad in [
            "0",
            "-5",
            "ten",
            "1,,0",
            ",5",
            "5,",
            "+5",
            "1__0",
            "99999999999999999999999",
        ] {
            let e = parse_budget(bad).unwrap_err();
            assert_eq!(crate::util::error::exit_code(&e), 2, "{bad}");
        }
    }

    #[test]
    fn stats_block_has_the_seed_lines() {
        let s = stats_block(10, 20, 3, 1, 1234.4, Duration::from_millis(1500));
        assert_eq!(
            s,
            "STATS:\nExpanded nodes: 10\nGenerated nodes: 20\nSolution Length: 3\nNumber of Pegs Left: 1\nExpanded/seconds: 1234\nTime (seconds): 1.500000\n"
        );
    }
}
