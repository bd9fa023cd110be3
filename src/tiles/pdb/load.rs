//! A partition's whole heuristic from the cache folder: every table loaded, or built and
//! saved when missing ([`super::store`]), then assembled ([`PdbHeuristic`]); and the
//! process-wide sharing of a heuristic between the runs of a pipeline through the run
//! context's memo. It sits above both the disk format and the heuristic, so that neither
//! of those needs the other.

use super::heuristic::{PdbHeuristic, distinct_groups};
use super::partition::{Partition, parse_partitions};
use super::store::{Origin, check_cache, load_or_build};
use crate::tiles::board::Board;
use crate::util::observe::Observer;
use std::path::Path;
use std::sync::Arc;

/// Builds (or loads from the cache folder) every table of `partitions` after checking
/// the cache ([`check_cache`]), so that a bad folder is reported before any build, and
/// assembles their heuristic with the reflection. Each build is a task of `observer`.
/// Returns the heuristic and where each table came from.
pub fn load_heuristic(
    goal: &Board,
    name: String,
    partitions: Vec<Partition>,
    cache: &Path,
    observer: &dyn Observer,
) -> anyhow::Result<(PdbHeuristic, Vec<Origin>)> {
    let groups = distinct_groups(&partitions);
    check_cache(cache, goal, &groups)?;
    let mut tables = Vec::new();
    let mut origins = Vec::new();
    for g in &groups {
        let (t, o) = load_or_build(cache, goal, g, observer)?;
        tables.push(t);
        origins.push(o);
    }
    let h = PdbHeuristic::max_of(goal, name, &partitions, tables, true);
    Ok((h, origins))
}

/// The PDB heuristic (with the reflection) of `partition` (a `pdb:` text) towards
/// `goal`, shared by every run of the process through the run context's memo: the first
/// run loads the tables from the context's cache folder (or builds and saves them),
/// concurrent runs for the same partition wait for it instead of building the same table
/// twice, and later runs get it at once. A build reports its progress to the run's
/// observer. Returns the heuristic and whether this call loaded or built it (false when
/// it was already in memory).
pub fn shared(
    goal: &Board,
    partition: &str,
    ctx: &crate::pipeline::runner::RunContext,
) -> anyhow::Result<(Arc<PdbHeuristic>, bool)> {
    let (name, parts) = parse_partitions(partition, goal)?;
    let cache = ctx.cache_dir()?;
    let key = format!(
        "tiles/pdb|{}|{}|{:?}|{}",
        cache.display(),
        goal.width,
        goal.tiles(),
        name
    );
    ctx.memo.get_or_try_init(&key, || {
        Ok(load_heuristic(goal, name, parts, cache, ctx.observer)?.0)
    })
}
