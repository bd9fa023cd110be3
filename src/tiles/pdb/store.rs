//! The disk format of a table (header, checksum, packed values; written atomically) and
//! the cache folder of tables: load when present and valid, else build and save; the
//! process-wide sharing of a partition's heuristic between the runs of a pipeline.

use super::build::build;
use super::heuristic::PdbHeuristic;
use super::rank::Pattern;
use super::table::{Encoding, Table};
use crate::tiles::board::Board;
use crate::user_bail;
use crate::util::rng::fnv1a;
use anyhow::Context;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where tables are cached unless the caller says otherwise.
pub const DEFAULT_CACHE_DIR: &str = "outputs/pdb";
/// The cache file format; a file of another version is rebuilt.
pub const FORMAT_VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"SLABPDB\0";

/// The cache file of a pattern: `4x4-g<goal hash>-1-2-3-4-5-6-7.pdb`.
pub fn cache_file(dir: &Path, goal: &Board, tiles: &[u8]) -> PathBuf {
    let g = fnv1a(goal.tiles()) as u32;
    let t: Vec<String> = tiles.iter().map(u8::to_string).collect();
    dir.join(format!("{}-g{g:08x}-{}.pdb", goal.shape(), t.join("-")))
}

/// The header fields that identify a table.
fn header(goal: &Board, tiles: &[u8], table: &Table) -> Vec<u8> {
    let mut h = Vec::new();
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    h.push(goal.width);
    h.push(goal.height);
    h.extend_from_slice(goal.tiles());
    h.push(tiles.len() as u8);
    h.extend_from_slice(tiles);
    h.push(table.encoding as u8);
    h.extend_from_slice(&table.pattern.entries().to_le_bytes());
    h.extend_from_slice(&(table.histogram.len() as u32).to_le_bytes());
    for c in &table.histogram {
        h.extend_from_slice(&c.to_le_bytes());
    }
    h.extend_from_slice(&table.build_seconds.to_le_bytes());
    h.extend_from_slice(&(table.data.len() as u64).to_le_bytes());
    h.extend_from_slice(&fnv1a(&table.data).to_le_bytes());
    h
}

/// Saves a table atomically.
pub fn save(path: &Path, goal: &Board, table: &Table) -> anyhow::Result<()> {
    let head = header(goal, &table.pattern.tiles, table);
    crate::util::atomic::write_with(path, |w| {
        w.write_all(&head)?;
        w.write_all(&table.data)?;
        Ok(())
    })
}

/// Loads a table saved by [`save`]; an error says why the file cannot be used.
pub fn load(path: &Path, goal: &Board, tiles: &[u8]) -> anyhow::Result<Table> {
    // Only a regular file is opened: opening a FIFO would wait for a writer forever.
    if !std::fs::metadata(path)?.is_file() {
        anyhow::bail!("not a regular file");
    }
    let mut file = std::io::BufReader::new(std::fs::File::open(path)?);
    let mut take = |len: usize| -> anyhow::Result<Vec<u8>> {
        let mut b = vec![0u8; len];
        file.read_exact(&mut b).context("the file is truncated")?;
        Ok(b)
    };
    let u32_of = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes"));
    let u64_of = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
    if take(8)? != MAGIC {
        anyhow::bail!("not a searchlab pattern database");
    }
    let version = u32_of(&take(4)?);
    if version != FORMAT_VERSION {
        anyhow::bail!("format version {version}, expected {FORMAT_VERSION}");
    }
    let wh = take(2)?;
    if wh[0] != goal.width || wh[1] != goal.height {
        anyhow::bail!("built for a {}x{} board", wh[0], wh[1]);
    }
    if take(goal.len())? != goal.tiles() {
        anyhow::bail!("built for another goal");
    }
    let k = take(1)?[0] as usize;
    if take(k)? != tiles {
        anyhow::bail!("built for other tiles");
    }
    let encoding = match take(1)?[0] {
        1 => Encoding::Nibbles,
        2 => Encoding::Bytes,
        e => anyhow::bail!("unknown value encoding {e}"),
    };
    let pattern = Pattern::new(tiles, goal.len());
    let entries = u64_of(&take(8)?);
    if entries != pattern.entries() {
        anyhow::bail!("{entries} entries, expected {}", pattern.entries());
    }
    let hlen = u32_of(&take(4)?) as usize;
    if hlen > 256 {
        anyhow::bail!("a histogram of {hlen} values");
    }
    let hist_bytes = take(8 * hlen)?;
    let histogram: Vec<u64> = hist_bytes.chunks(8).map(u64_of).collect();
    let build_seconds = f64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
    let len = u64_of(&take(8)?);
    let per_byte = if encoding == Encoding::Nibbles { 2 } else { 1 };
    if len != entries.div_ceil(per_byte) {
        anyhow::bail!("a payload of {len} bytes for {entries} entries");
    }
    let checksum = u64_of(&take(8)?);
    if histogram.iter().sum::<u64>() > entries {
        anyhow::bail!("the histogram counts more than the entries");
    }
    let data = take(len as usize)?;
    let mut rest = [0u8; 1];
    if file.read(&mut rest)? != 0 {
        anyhow::bail!("trailing bytes after the payload");
    }
    if fnv1a(&data) != checksum {
        anyhow::bail!("checksum mismatch (the file is corrupted)");
    }
    let mut t = Table::new(pattern, encoding, data);
    t.histogram = histogram;
    t.build_seconds = build_seconds;
    Ok(t)
}

/// Checks, before any table is built, that `dir` can serve as the cache of `groups`'
/// tables towards `goal`: `dir` is a folder, or can be made one (its nearest existing
/// ancestor is a folder), and each table's file is a regular file where it exists (a
/// FIFO, device or folder there would block the load or the save). The error names the
/// path and what to do, as a user error (exit code 2).
pub fn check_cache(dir: &Path, goal: &Board, groups: &[Vec<u8>]) -> anyhow::Result<()> {
    let mut at = dir;
    loop {
        match std::fs::metadata(at) {
            Ok(m) if m.is_dir() => break,
            Ok(_) => user_bail!(
                "the pattern-database cache {}: {} is not a folder; give --cache (or SEARCHLAB_PDB_CACHE) a folder, or move that file away",
                dir.display(),
                at.display()
            ),
            Err(_) => match at.parent().filter(|p| !p.as_os_str().is_empty()) {
                Some(parent) => at = parent,
                None => break,
            },
        }
    }
    for tiles in groups {
        let file = cache_file(dir, goal, tiles);
        if let Ok(m) = std::fs::metadata(&file)
            && !m.is_file()
        {
            user_bail!(
                "the pattern-database file {} is not a regular file (a FIFO, device or folder stands there); remove it, or give --cache (or SEARCHLAB_PDB_CACHE) another folder",
                file.display()
            );
        }
    }
    Ok(())
}

/// Where a table came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Built,
    Loaded,
}

/// The table of `tiles` from the cache folder `dir`, or built (and saved there) when
/// missing, stale or corrupted (with a warning on stderr for the last two).
pub fn load_or_build(
    dir: &Path,
    goal: &Board,
    tiles: &[u8],
    progress: &dyn Fn(u64, u64),
) -> anyhow::Result<(Table, Origin)> {
    let path = cache_file(dir, goal, tiles);
    if path.exists() {
        match load(&path, goal, tiles) {
            Ok(t) => return Ok((t, Origin::Loaded)),
            Err(e) => eprintln!(
                "searchlab: warning: ignoring the pattern database {} ({e:#}); rebuilding it",
                path.display()
            ),
        }
    }
    let table = build(goal, tiles, progress);
    save(&path, goal, &table)
        .with_context(|| format!("saving the pattern database {}", path.display()))?;
    Ok((table, Origin::Built))
}

/// The PDB heuristic (with the reflection) of `partition` towards `goal`, shared by
/// every run of the process through the run context's memo: the first run loads the
/// tables from the context's cache folder (or builds and saves them), concurrent runs
/// for the same partition wait for it instead of building the same table twice, and
/// later runs get it at once. A build reports its progress as notes to the run's
/// observer ([`progress_lines`]). Returns the heuristic and whether this call loaded or
/// built it (false when it was already in memory).
pub fn shared(
    goal: &Board,
    partition: &str,
    ctx: &crate::pipeline::runner::RunContext,
) -> anyhow::Result<(Arc<PdbHeuristic>, bool)> {
    let (name, parts) = super::parse_partitions(partition, goal)?;
    let cache = ctx.cache_dir()?;
    let key = format!(
        "tiles/pdb|{}|{}|{:?}|{}",
        cache.display(),
        goal.width,
        goal.tiles(),
        name
    );
    ctx.memo.get_or_try_init(&key, || {
        let groups = super::distinct_groups(&parts);
        let note = |text: &str| ctx.observer.note(text);
        let progress = progress_lines(&groups, &note);
        Ok(PdbHeuristic::load_or_build(goal, name, parts, cache, true, &progress)?.0)
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

/// A one-line summary of a value histogram: `value:count` pairs.
pub fn histogram_text(h: &[u64]) -> String {
    h.iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(v, c)| format!("{v}:{c}"))
        .collect::<Vec<_>>()
        .join(" ")
}
