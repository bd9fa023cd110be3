//! What the tiles commands share: the instance file and its goal, the heuristic names
//! they take, and the pattern databases' cache folder.

use crate::domain::ProgramEnv;
use crate::tiles::board::Board;
use crate::tiles::heuristic::Heuristic;
use crate::tiles::pdb;
use crate::user_bail;
use std::path::{Path, PathBuf};

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
    /// separated by `|`, maximised over.
    #[arg(long, default_value = "manhattan", value_parser = heuristic_name)]
    pub heuristic: String,
}

/// Checks a `--heuristic` value: a classic heuristic's name or `pdb:PARTITION` (whether
/// the partition's tiles are on the board is checked with the board).
fn heuristic_name(text: &str) -> Result<String, String> {
    pdb::check_ida_heuristic(text.trim()).map(|()| text.trim().to_string())
}

/// The classic heuristic of a `--heuristic` value; pattern databases are refused with
/// what takes them.
pub(super) fn classic_heuristic(name: &str, what: &str) -> anyhow::Result<Heuristic> {
    match Heuristic::from_name(name) {
        Some(h) => Ok(h),
        None => user_bail!(
            "--heuristic {name}: {what} takes {} (pattern databases work with IDA*: tiles solve --algorithm ida, tiles batch)",
            Heuristic::NAMES.join(", ")
        ),
    }
}

/// Reads and validates the instance and its goal.
pub(super) fn load(a: &BoardArgs) -> anyhow::Result<(Board, Board)> {
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

/// The pattern-database cache folder: `--cache`, else the environment's
/// (`$SEARCHLAB_PDB_CACHE`, read once by the command line: [`ProgramEnv::cache`]), else
/// `<out>/pdb`, as for the pipeline's runs.
pub(super) fn cache_dir(flag: Option<&Path>, env: &ProgramEnv, out: &Path) -> PathBuf {
    match (flag, &env.cache) {
        (Some(dir), _) => dir.to_path_buf(),
        (None, Some(dir)) => dir.clone(),
        (None, None) => out.join("pdb"),
    }
}
