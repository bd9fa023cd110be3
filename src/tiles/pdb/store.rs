//! The disk format of a table (header, checksum, packed values; written atomically) and
//! the cache folder of tables: a table is loaded when its file is present and valid,
//! else built and saved. Whole heuristics are assembled from here by [`super::load`].

use super::build::build;
use super::rank::Pattern;
use super::table::{Encoding, Table};
use crate::tiles::board::Board;
use crate::user_bail;
use crate::util::rng::fnv1a;
use anyhow::Context;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

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

/// The fields that say what a file holds: magic, format version, board, goal, tiles.
fn identity(magic: &[u8; 8], goal: &Board, tiles: &[u8]) -> Vec<u8> {
    let mut h = Vec::new();
    h.extend_from_slice(magic);
    h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    h.push(goal.width);
    h.push(goal.height);
    h.extend_from_slice(goal.tiles());
    h.push(tiles.len() as u8);
    h.extend_from_slice(tiles);
    h
}

/// A histogram, the build's seconds, then each payload's length and checksum.
fn trailer(histogram: &[u64], build_seconds: f64, payloads: &[&[u8]]) -> Vec<u8> {
    let mut h = Vec::new();
    h.extend_from_slice(&(histogram.len() as u32).to_le_bytes());
    for c in histogram {
        h.extend_from_slice(&c.to_le_bytes());
    }
    h.extend_from_slice(&build_seconds.to_le_bytes());
    for p in payloads {
        h.extend_from_slice(&(p.len() as u64).to_le_bytes());
        h.extend_from_slice(&fnv1a(p).to_le_bytes());
    }
    h
}

/// The header fields that identify a table.
fn header(goal: &Board, tiles: &[u8], table: &Table) -> Vec<u8> {
    let mut h = identity(MAGIC, goal, tiles);
    h.push(table.encoding as u8);
    h.extend_from_slice(&table.pattern.entries().to_le_bytes());
    h.extend(trailer(
        &table.histogram,
        table.build_seconds,
        &[&table.data],
    ));
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

/// The fields of a cache file, read in order; an error says why the file cannot be used.
struct Fields {
    file: std::io::BufReader<std::fs::File>,
}

impl Fields {
    /// Opens `path` (a regular file only: opening a FIFO would wait for a writer forever)
    /// and checks what it holds ([`identity`]).
    fn open(path: &Path, magic: &[u8; 8], goal: &Board, tiles: &[u8]) -> anyhow::Result<Fields> {
        if !std::fs::metadata(path)?.is_file() {
            anyhow::bail!("not a regular file");
        }
        let mut f = Fields {
            file: std::io::BufReader::new(std::fs::File::open(path)?),
        };
        if f.take(8)? != magic {
            anyhow::bail!("not a searchlab pattern database of this kind");
        }
        let (version, expected) = (f.u32()?, FORMAT_VERSION);
        if version != expected {
            anyhow::bail!("format version {version}, expected {expected}");
        }
        let wh = f.take(2)?;
        if wh[0] != goal.width || wh[1] != goal.height {
            anyhow::bail!("built for a {}x{} board", wh[0], wh[1]);
        }
        if f.take(goal.len())? != goal.tiles() {
            anyhow::bail!("built for another goal");
        }
        let k = f.take(1)?[0] as usize;
        if f.take(k)? != tiles {
            anyhow::bail!("built for other tiles");
        }
        Ok(f)
    }

    fn take(&mut self, len: usize) -> anyhow::Result<Vec<u8>> {
        let mut b = vec![0u8; len];
        self.fill(&mut b)?;
        Ok(b)
    }

    fn fill(&mut self, b: &mut [u8]) -> anyhow::Result<()> {
        self.file.read_exact(b).context("the file is truncated")
    }

    fn u32(&mut self) -> anyhow::Result<u32> {
        let mut b = [0u8; 4];
        self.fill(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self) -> anyhow::Result<u64> {
        let mut b = [0u8; 8];
        self.fill(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    /// A histogram counting at most `states` and the build's seconds.
    fn histogram(&mut self, states: u64) -> anyhow::Result<(Vec<u64>, f64)> {
        let hlen = self.u32()? as usize;
        if hlen > 256 {
            anyhow::bail!("a histogram of {hlen} values");
        }
        let histogram: Vec<u64> = (0..hlen).map(|_| self.u64()).collect::<Result<_, _>>()?;
        if histogram.iter().sum::<u64>() > states {
            anyhow::bail!("the histogram counts more than the entries");
        }
        Ok((histogram, f64::from_bits(self.u64()?)))
    }

    /// A payload's length (which must be `len`) and checksum.
    fn payload_head(&mut self, len: u64, what: &str) -> anyhow::Result<u64> {
        let got = self.u64()?;
        if got != len {
            anyhow::bail!("a payload of {got} bytes for {len} bytes of {what}");
        }
        self.u64()
    }

    /// Reads a payload into `into`, checking it against `checksum`.
    fn payload(&mut self, into: &mut [u8], checksum: u64) -> anyhow::Result<()> {
        self.fill(into)?;
        if fnv1a(into) != checksum {
            anyhow::bail!("checksum mismatch (the file is corrupted)");
        }
        Ok(())
    }

    /// Checks that nothing follows.
    fn end(mut self) -> anyhow::Result<()> {
        let mut rest = [0u8; 1];
        if self.file.read(&mut rest)? != 0 {
            anyhow::bail!("trailing bytes after the payload");
        }
        Ok(())
    }
}

/// Loads a table saved by [`save`]; an error says why the file cannot be used.
pub fn load(path: &Path, goal: &Board, tiles: &[u8]) -> anyhow::Result<Table> {
    let mut f = Fields::open(path, MAGIC, goal, tiles)?;
    let encoding = match f.take(1)?[0] {
        1 => Encoding::Nibbles,
        2 => Encoding::Bytes,
        e => anyhow::bail!("unknown value encoding {e}"),
    };
    let pattern = Pattern::new(tiles, goal.len());
    let entries = f.u64()?;
    if entries != pattern.entries() {
        anyhow::bail!("{entries} entries, expected {}", pattern.entries());
    }
    let (histogram, build_seconds) = f.histogram(entries)?;
    let per_byte = if encoding == Encoding::Nibbles { 2 } else { 1 };
    let checksum = f.payload_head(entries.div_ceil(per_byte), "values")?;
    let mut data = vec![0u8; entries.div_ceil(per_byte) as usize];
    f.payload(&mut data, checksum)?;
    f.end()?;
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
    for file in groups.iter().map(|tiles| cache_file(dir, goal, tiles)) {
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
    observer: &dyn crate::util::observe::Observer,
) -> anyhow::Result<(Table, Origin)> {
    let path = cache_file(dir, goal, tiles);
    if let Some(t) = try_load(&path, || load(&path, goal, tiles)) {
        return Ok((t, Origin::Loaded));
    }
    let table = build(goal, tiles, observer);
    // The write's own error names the file and why (a full disk, no permission).
    save(&path, goal, &table)?;
    Ok((table, Origin::Built))
}

/// What `load` reads from `path` when the file is there and sound; a file that is there
/// but cannot be used is reported on stderr (it is then rebuilt).
fn try_load<T>(path: &Path, load: impl FnOnce() -> anyhow::Result<T>) -> Option<T> {
    if !path.exists() {
        return None;
    }
    match load() {
        Ok(t) => Some(t),
        Err(e) => {
            crate::say!(
                "searchlab: warning: ignoring the pattern database {} ({e:#}); rebuilding it",
                path.display()
            );
            None
        }
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
