//! Writing a journal: appending finished runs, setting damaged lines aside, and
//! dropping records that a recomputed run superseded.
//!
//! Each record is one line written with one `write` call on a file opened in append
//! mode without buffering, so a record is never split or interleaved with another and
//! is in the operating system's hands (safe from a kill) as soon as [`Journal::append`]
//! returns; [`Journal::flush`] also syncs it to the disk (safe from a power cut), which
//! the pipeline does every few seconds and at the end. One process at a time writes an
//! experiment's journal (see [`super::ExperimentLock`]); the rewrites ([`set_aside`],
//! [`compact`]) are made only by that process, to a temporary file renamed over the
//! journal, so a kill at any moment leaves the old journal or the new one, whole.

use super::read::{Rejected, read_lines, resolve};
use super::record::{RunRecord, decode, encode_line};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Appends finished runs to a journal.
pub struct Journal {
    file: std::fs::File,
    line: Vec<u8>,
    /// Records are marked as replacing earlier ones (a `--force` run).
    replaces: bool,
}

impl Journal {
    /// Opens for appending (refusing a symlink, a folder or a FIFO in its place). A torn
    /// last line from an interrupted run is cut off first, so that new lines start on a
    /// line of their own. The check holds the file's exclusive lock and every append a
    /// shared one, so a journal opened while another writer appends (threads of one
    /// process) never mistakes a line being written for a torn one.
    pub fn open(path: &Path) -> anyhow::Result<Journal> {
        let mut file = crate::util::files::open_append(path, "journal", true)?;
        with_lock(&mut file, false, Self::end_last_line).map_err(|e| {
            crate::util::error::environment_error(
                anyhow::Error::new(e).context(format!("opening {}", path.display())),
                &format!("{}: cannot write the journal", path.display()),
            )
        })?;
        Ok(Journal {
            file,
            line: Vec::new(),
            replaces: false,
        })
    }

    /// Marks every record appended from now on as replacing earlier records of its run.
    pub fn replacing(mut self, replaces: bool) -> Journal {
        self.replaces = replaces;
        self
    }

    /// Ends the file's last line: a whole record without its newline (a file edited by
    /// hand, or copied) is a record, as the reader counts it, and gets its newline; a
    /// torn one is cut off.
    fn end_last_line(file: &mut std::fs::File) -> std::io::Result<()> {
        use std::io::{Read, Seek};
        let mut text = Vec::new();
        file.seek(std::io::SeekFrom::Start(0))?;
        file.read_to_end(&mut text)?;
        if text.is_empty() || text.ends_with(b"\n") {
            return Ok(());
        }
        let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        match std::str::from_utf8(&text[keep..]).ok().map(decode) {
            Some(Ok(_)) => file.write_all(b"\n"),
            _ => file.set_len(keep as u64),
        }
    }

    pub fn append(&mut self, key: &str, outcome: &RunRecord) -> anyhow::Result<()> {
        self.line.clear();
        self.line
            .extend_from_slice(encode_line(key, outcome, self.replaces).as_bytes());
        self.line.push(b'\n');
        let line = &self.line;
        with_lock(&mut self.file, true, |f| f.write_all(line))?;
        Ok(())
    }

    pub fn flush(&mut self) -> anyhow::Result<()> {
        self.file.sync_data()?;
        Ok(())
    }
}

/// Runs `f` on `file` holding its lock (`shared`, or exclusive), released after. Best
/// effort: on a file system without locks `f` runs all the same.
fn with_lock<T>(
    file: &mut std::fs::File,
    shared: bool,
    f: impl FnOnce(&mut std::fs::File) -> std::io::Result<T>,
) -> std::io::Result<T> {
    let locked = match shared {
        true => file.lock_shared(),
        false => file.lock(),
    }
    .is_ok();
    let result = f(file);
    if locked {
        let _ = file.unlock();
    }
    result
}

/// Where the lines set aside from a journal go: `runs.jsonl` → `runs.rejected.jsonl`.
pub fn rejected_path(journal: &Path) -> PathBuf {
    let stem = journal
        .file_stem()
        .map_or_else(|| "runs".into(), |s| s.to_string_lossy().into_owned());
    journal.with_file_name(format!("{stem}.rejected.jsonl"))
}

/// Moves the lines `rejected` out of the journal at `path` into its rejected-lines file,
/// so that the next command reads a journal of valid records only; nothing is deleted.
/// Each run of consecutive lines with one reason is one entry, `{"journal", "lines":
/// [first, last], "reason", "text": [each line]}`, so the file stays about the size of
/// the lines it keeps. Lines are named by their numbers in the file as it is now.
pub fn set_aside(path: &Path, rejected: &[Rejected]) -> anyhow::Result<()> {
    if rejected.is_empty() {
        return Ok(());
    }
    let numbers: HashSet<usize> = rejected.iter().map(|r| r.number).collect();
    let text = std::fs::read(path).map_err(|e| {
        crate::util::error::environment_error(
            anyhow::Error::new(e),
            &format!("{}: cannot read the journal", path.display()),
        )
    })?;
    let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
    let aside = rejected_path(path);
    let mut file = crate::util::files::open_append(&aside, "file of rejected lines", true)?;
    let mut out = Vec::new();
    let text = |n: usize| {
        let line = lines.get(n - 1).copied().unwrap_or_default();
        String::from_utf8_lossy(line.strip_suffix(b"\n").unwrap_or(line)).into_owned()
    };
    let mut i = 0;
    while i < rejected.len() {
        let first = &rejected[i];
        let mut j = i + 1;
        while j < rejected.len()
            && rejected[j].number == rejected[j - 1].number + 1
            && rejected[j].reason == first.reason
        {
            j += 1;
        }
        let entry = serde_json::json!({
            "journal": path.file_name().map(|n| n.to_string_lossy()),
            "lines": [first.number, rejected[j - 1].number],
            "reason": first.reason,
            "text": rejected[i..j].iter().map(|r| text(r.number)).collect::<Vec<_>>(),
        });
        out.extend_from_slice(entry.to_string().as_bytes());
        out.push(b'\n');
        i = j;
    }
    file.write_all(&out)
        .and_then(|()| file.sync_data())
        .map_err(|e| {
            crate::util::error::environment_error(
                anyhow::Error::new(e),
                &format!("{}: cannot write", aside.display()),
            )
        })?;
    rewrite(path, &lines, |n| !numbers.contains(&n))
}

/// Drops from the journal at `path` the records that a later record of the same run
/// replaced (`--force`), once the recomputed runs are in.
pub fn compact(path: &Path) -> anyhow::Result<()> {
    let lines = read_lines(path)?;
    let kept: HashSet<usize> = resolve(path, lines.records)?
        .values()
        .map(|k| k.number)
        .chain(lines.rejected.iter().map(|r| r.number))
        .collect();
    let text = match std::fs::read(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    let all: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
    // Blank lines and a torn last line are not records: nothing to keep of them.
    let complete = |n: usize| all[n - 1].ends_with(b"\n");
    if (1..=all.len()).all(|n| kept.contains(&n) || !complete(n)) {
        return Ok(());
    }
    rewrite(path, &all, |n| kept.contains(&n))
}

/// Writes the journal again with the lines (numbered from 1) that `keep` keeps.
fn rewrite(path: &Path, lines: &[&[u8]], keep: impl Fn(usize) -> bool) -> anyhow::Result<()> {
    crate::util::atomic::write_with(path, |w| {
        for (i, line) in lines.iter().enumerate() {
            if keep(i + 1) && line.ends_with(b"\n") {
                w.write_all(line)?;
            }
        }
        Ok(())
    })
}
