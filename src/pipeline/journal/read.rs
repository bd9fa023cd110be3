//! Reading a journal: every line decoded strictly, the damaged ones listed with their
//! reasons (for [`super::set_aside`] to set aside), and each run's record chosen once.
//!
//! A missing file is an empty journal, a blank line is nothing, and a torn last line (no
//! newline: the writer was killed mid-write) is skipped silently. Two records of one run
//! are resolved as a writer of this program leaves them: a record marked `replaces`
//! (a run recomputed by `--force`) supersedes those before it; otherwise the first is
//! kept, and two that disagree (timing columns aside) are an error naming both lines,
//! since neither can be chosen silently.

use super::record::{Line, RunRecord, conflict, decode};
use std::collections::HashMap;
use std::io::BufRead;
use std::path::Path;

/// A decoded line and its number in the file (from 1).
#[derive(Debug, Clone)]
pub struct Numbered {
    pub number: usize,
    pub line: Line,
}

/// A line that is not a valid record, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected {
    pub number: usize,
    pub reason: String,
}

/// A journal's lines: the records, and the lines that are not.
#[derive(Debug, Default)]
pub struct Lines {
    pub records: Vec<Numbered>,
    pub rejected: Vec<Rejected>,
}

/// The record kept for a run, the line it is on, and whether it replaced another.
#[derive(Debug, Clone)]
pub struct Kept {
    pub record: RunRecord,
    pub number: usize,
    pub replaces: bool,
}

/// Reads and decodes every line of the journal at `path` (refused when it is a symlink
/// or not a regular file; see [`crate::util::files`]).
pub fn read_lines(path: &Path) -> anyhow::Result<Lines> {
    let mut out = Lines::default();
    let Some(file) = crate::util::files::open_read(path, "journal")? else {
        return Ok(out);
    };
    let mut reader = std::io::BufReader::new(file);
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        let n = reader.read_until(b'\n', &mut bytes).map_err(|e| {
            crate::util::error::environment_error(
                anyhow::Error::new(e).context(format!("reading {}", path.display())),
                &format!("{}: cannot read the journal", path.display()),
            )
        })?;
        if n == 0 {
            break;
        }
        let complete = bytes.ends_with(b"\n");
        let text = match std::str::from_utf8(&bytes) {
            Ok(t) => t.trim_end(),
            Err(_) if complete => {
                out.rejected.push(Rejected {
                    number,
                    reason: "not UTF-8 text".into(),
                });
                continue;
            }
            Err(_) => break,
        };
        if text.trim().is_empty() {
            continue;
        }
        match decode(text) {
            Ok(line) => out.records.push(Numbered { number, line }),
            Err(reason) if complete => out.rejected.push(Rejected { number, reason }),
            Err(_) => {} // torn last line
        }
    }
    Ok(out)
}

/// Each run's record once (see the module doc); two that disagree are an error naming
/// the journal and both lines.
pub fn resolve(path: &Path, records: Vec<Numbered>) -> anyhow::Result<HashMap<String, Kept>> {
    let mut out: HashMap<String, Kept> = HashMap::new();
    for Numbered { number, line } in records {
        let kept = Kept {
            record: line.record,
            number,
            replaces: line.replaces,
        };
        match out.get(&line.key) {
            None => {}
            Some(_) if kept.replaces => {}
            Some(earlier) => {
                if let Some(what) = conflict(&earlier.record, &kept.record) {
                    crate::user_bail!(
                        "{}: lines {} and {number} record run {} with different {what}; keep the right one (delete the other line) and run again",
                        path.display(),
                        earlier.number,
                        crate::util::input::excerpt(&line.key)
                    );
                }
                continue;
            }
        }
        out.insert(line.key, kept);
    }
    Ok(out)
}

/// The records of a journal with no checking against algorithms: for tests and tools.
/// Returns the runs' records and the numbers of the lines that are not records.
pub fn read_records(path: &Path) -> anyhow::Result<(HashMap<String, RunRecord>, Vec<usize>)> {
    let lines = read_lines(path)?;
    let damaged = lines.rejected.iter().map(|r| r.number).collect();
    let kept = resolve(path, lines.records)?;
    Ok((
        kept.into_iter().map(|(k, v)| (k, v.record)).collect(),
        damaged,
    ))
}
