//! `tiles pdb build`: a partition's tables built into the cache (or found there), with
//! their memory, build time and value distribution; and the tables of `tiles solve`,
//! loaded or built, the builds shown by the program's observer.

use super::common::cache_dir;
use crate::domain::ProgramEnv;
use crate::tiles::board::Board;
use crate::tiles::format::thousands;
use crate::tiles::pdb;
use crate::util::observe::Observer;
use std::path::PathBuf;

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
    /// `|`.
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

/// The PDB heuristic of `partition` towards `goal`, from the cache or built, the builds
/// shown by `observer` (a bar on a terminal, plain lines otherwise).
pub(super) fn heuristic(
    partition: &str,
    goal: &Board,
    cache: &std::path::Path,
    observer: &dyn Observer,
) -> anyhow::Result<(pdb::PdbHeuristic, Vec<pdb::Origin>)> {
    let (name, partitions) = pdb::parse_partitions(partition, goal)?;
    pdb::load_heuristic(goal, name, partitions, cache, observer)
}

/// `tiles pdb build`'s output.
pub(super) fn build(a: &PdbBuildArgs, env: &ProgramEnv) -> anyhow::Result<String> {
    let side = match (a.side, pdb::named_side(&a.partition)) {
        (Some(s), _) | (None, Some(s)) => s,
        (None, None) => {
            let max = pdb::strip_prefix(&a.partition)
                .split(['/', ',', '|'])
                .filter_map(|w| w.trim().parse::<usize>().ok())
                .max()
                .unwrap_or(0);
            (2..=5).find(|s| s * s > max).unwrap_or(5)
        }
    };
    let goal = Board::default_goal(crate::tiles::board::Shape::new(side, side)?, 1);
    let started = std::time::Instant::now();
    let cache = cache_dir(a.cache.as_deref(), env, &a.out);
    let (h, origins) = heuristic(&a.partition, &goal, &cache, env.observer())?;
    let mut s = format!(
        "partition {} on the {} board: {} tables, {} bytes, {:.2} s\n",
        h.name,
        goal.shape(),
        h.tables.len(),
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
    Ok(s)
}
