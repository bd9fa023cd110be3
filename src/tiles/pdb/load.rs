//! A partition's whole heuristic from the cache folder: every table loaded, or built and
//! saved when missing ([`super::store`]), then assembled ([`PdbHeuristic`]); and the
//! process-wide sharing of a heuristic between the runs of a pipeline through the run
//! context's memo. It sits above both the disk format and the heuristic, so that neither
//! of those needs the other.

use super::heuristic::{PdbHeuristic, distinct_groups};
use super::partition::{Partition, parse_partitions};
use super::store::{Origin, check_cache, load_or_build};
use crate::tiles::board::Board;
use std::path::Path;
use std::sync::Arc;

/// Builds (or loads from the cache folder) every table of `partitions` after checking
/// the cache ([`check_cache`]), so that a bad folder is reported before any build, and
/// assembles their heuristic with the reflection. `progress(table index, done, total)`
/// reports each build, the index into [`distinct_groups`]. Returns the heuristic and
/// where each table came from.
pub fn load_heuristic(
    goal: &Board,
    name: String,
    partitions: Vec<Partition>,
    cache: &Path,
    progress: &dyn Fn(usize, u64, u64),
) -> anyhow::Result<(PdbHeuristic, Vec<Origin>)> {
    let groups = distinct_groups(&partitions);
    check_cache(cache, goal, &groups)?;
    let mut tables = Vec::new();
    let mut origins = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let (t, o) = load_or_build(cache, goal, g, &|d, n| progress(i, d, n))?;
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
/// twice, and later runs get it at once. A build reports its progress as notes to the
/// run's observer ([`progress_lines`]). Returns the heuristic and whether this call
/// loaded or built it (false when it was already in memory).
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
        let groups = distinct_groups(&parts);
        let note = |text: &str| ctx.observer.note(text);
        let progress = progress_lines(&groups, &note);
        Ok(load_heuristic(goal, name, parts, cache, &progress)?.0)
    })
}

/// A progress callback that passes plain lines to `note`: the pattern's tiles at each
/// quarter of its placements.
pub fn progress_lines<'a>(
    groups: &'a [Vec<u8>],
    note: &'a dyn Fn(&str),
) -> impl Fn(usize, u64, u64) + 'a {
    let last = std::cell::Cell::new((usize::MAX, 0u64));
    move |i, done, total| {
        let quarter = (done * 4).checked_div(total).unwrap_or(4);
        if last.get() == (i, quarter) {
            return;
        }
        last.set((i, quarter));
        let tiles = groups.get(i).map_or(String::new(), |g| format!("{g:?}"));
        note(&format!(
            "building the pattern database of tiles {tiles}: {}% of {total} placements",
            quarter * 25
        ));
    }
}
