//! Records of finished runs and their journal.
//!
//! Each finished run is appended to `runs.jsonl` in the experiment's folder as one JSON
//! line (its key, metrics and anytime curve) the moment it finishes. The journal is what
//! makes a rerun compute only missing runs, and Ctrl-C then the same command resume; the
//! tables are rebuilt from it. A torn last line (the process killed mid-write) is
//! ignored on reading; any other damaged line is skipped with a warning. Floats are
//! written in Rust's shortest round-trip form and read back with a correctly rounded
//! parser (serde_json's `float_roundtrip`), so a resumed run's tables are the same text.

use crate::pipeline::params::Value;
use anyhow::Context;
use serde_json::json;
use std::collections::HashMap;
use std::io::{BufRead, Write};

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// What a finished run produced, as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRecord {
    pub metrics: Vec<(String, Value)>,
    pub anytime: Vec<(u64, f64)>,
}

fn to_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Null => serde_json::Value::Null,
        Value::Bool(b) => json!(b),
        Value::Int(i) => json!(i),
        Value::Float(f) if f.is_finite() => json!(f),
        Value::Float(_) => serde_json::Value::Null,
        Value::Str(s) => json!(s),
    }
}

fn from_json(v: &serde_json::Value) -> Option<Value> {
    Some(match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64()?),
        },
        serde_json::Value::String(s) => Value::Str(s.clone()),
        _ => return None,
    })
}

/// One journal line.
pub fn encode(key: &str, outcome: &RunRecord) -> String {
    let metrics: Vec<serde_json::Value> = outcome
        .metrics
        .iter()
        .map(|(k, v)| json!([k, to_json(v)]))
        .collect();
    json!({ "key": key, "metrics": metrics, "anytime": outcome.anytime }).to_string()
}

fn decode(line: &str) -> Option<(String, RunRecord)> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    let key = v.get("key")?.as_str()?.to_string();
    let metrics = v
        .get("metrics")?
        .as_array()?
        .iter()
        .map(|m| Some((m.get(0)?.as_str()?.to_string(), from_json(m.get(1)?)?)))
        .collect::<Option<Vec<_>>>()?;
    let anytime = v
        .get("anytime")?
        .as_array()?
        .iter()
        .map(|p| Some((p.get(0)?.as_u64()?, p.get(1)?.as_f64()?)))
        .collect::<Option<Vec<_>>>()?;
    Some((key, RunRecord { metrics, anytime }))
}

/// Reads a journal; a missing file is an empty journal. A damaged line (not UTF-8, not
/// a record, or a metric whose type differs from the same metric in the other records)
/// is skipped with one warning on stderr naming the file and lines, and its run is
/// computed again. A torn last line (no newline: the writer was killed) is skipped
/// silently.
pub fn read_journal(path: &Path) -> anyhow::Result<HashMap<String, RunRecord>> {
    let (records, damaged) = read_records(path)?;
    if !damaged.is_empty() {
        let shown: Vec<String> = damaged.iter().take(5).map(|l| l.to_string()).collect();
        let more = if damaged.len() > 5 { ", …" } else { "" };
        eprintln!(
            "searchlab: warning: {}: skipped {} damaged line(s) (line {}{more}); their runs are computed again",
            path.display(),
            damaged.len(),
            shown.join(", ")
        );
    }
    Ok(records)
}

/// [`read_journal`] without the warning: the records, and the numbers of the damaged
/// lines.
pub fn read_records(path: &Path) -> anyhow::Result<(HashMap<String, RunRecord>, Vec<usize>)> {
    let mut records: Vec<(usize, String, RunRecord)> = Vec::new();
    let mut damaged = Vec::new();
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((HashMap::new(), damaged)),
        Err(e) => {
            let e = anyhow::Error::new(e).context(format!("reading {}", path.display()));
            return Err(crate::util::error::environment_error(
                e,
                &format!("{}: cannot read", path.display()),
            ));
        }
    };
    let mut reader = std::io::BufReader::new(file);
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let n = reader.read_until(b'\n', &mut line).map_err(|e| {
            crate::util::error::environment_error(
                anyhow::Error::new(e).context(format!("reading {}", path.display())),
                &format!("{}: cannot read the journal", path.display()),
            )
        })?;
        if n == 0 {
            break;
        }
        let complete = line.ends_with(b"\n");
        match std::str::from_utf8(&line)
            .ok()
            .and_then(|l| decode(l.trim_end()))
        {
            Some((key, outcome)) => records.push((number, key, outcome)),
            None if complete => damaged.push(number),
            None => {} // torn last line
        }
    }
    // Each metric's type is that of most records; a record disagreeing is damaged.
    let mut kinds: HashMap<&str, HashMap<u8, usize>> = HashMap::new();
    for (_, _, o) in &records {
        for (k, v) in &o.metrics {
            if let Some(kind) = kind(v) {
                *kinds.entry(k).or_default().entry(kind).or_default() += 1;
            }
        }
    }
    let majority: HashMap<String, u8> = kinds
        .into_iter()
        .filter(|(_, c)| c.len() > 1)
        .map(|(k, c)| {
            let best = c
                .into_iter()
                .max_by_key(|&(kind, n)| (n, kind))
                .map_or(0, |x| x.0);
            (k.to_string(), best)
        })
        .collect();
    let mut out: HashMap<String, (usize, RunRecord)> = HashMap::new();
    for (number, key, outcome) in records {
        let consistent = outcome.metrics.iter().all(|(k, v)| {
            majority
                .get(k)
                .is_none_or(|&want| kind(v).is_none_or(|got| got == want))
        });
        if !consistent {
            damaged.push(number);
            continue;
        }
        if let Some((first, earlier)) = out.get(&key) {
            if let Some(what) = conflict(earlier, &outcome) {
                crate::user_bail!(
                    "{}: lines {first} and {number} record run {} with different {what}; keep the right one (delete the other line) and run again",
                    path.display(),
                    crate::util::input::excerpt(&key)
                );
            }
            continue;
        }
        out.insert(key, (number, outcome));
    }
    damaged.sort_unstable();
    Ok((out.into_iter().map(|(k, (_, r))| (k, r)).collect(), damaged))
}

/// True for a timing column (`…_seconds`, `…_per_second`): the one thing two records of
/// the same run may disagree on.
pub fn is_timing(column: &str) -> bool {
    column.ends_with("_seconds") || column.ends_with("_per_second")
}

/// What two records of the same run disagree on, timing columns aside ("values of
/// best_path_length", "anytime curves"); `None` when they agree.
pub fn conflict(a: &RunRecord, b: &RunRecord) -> Option<String> {
    let reproducible = |r: &RunRecord| -> HashMap<String, serde_json::Value> {
        r.metrics
            .iter()
            .filter(|(k, _)| !is_timing(k))
            .map(|(k, v)| (k.clone(), to_json(v)))
            .collect()
    };
    let (x, y) = (reproducible(a), reproducible(b));
    let mut names: Vec<&String> = x.keys().chain(y.keys()).collect();
    names.sort();
    if let Some(name) = names.into_iter().find(|n| x.get(*n) != y.get(*n)) {
        return Some(format!("values of {}", crate::util::input::excerpt(name)));
    }
    (a.anytime != b.anytime).then(|| "anytime curves".to_string())
}

/// A value's type for the consistency check (numbers are one type; null fits any).
fn kind(v: &Value) -> Option<u8> {
    match v {
        Value::Null => None,
        Value::Bool(_) => Some(1),
        Value::Int(_) | Value::Float(_) => Some(2),
        Value::Str(_) => Some(3),
    }
}

/// Appends finished runs to a journal.
///
/// Each record is one line written with one `write` call on a file opened in append
/// mode without buffering, so a record is never split or interleaved with another and
/// is in the operating system's hands (safe from a kill) as soon as [`Journal::append`]
/// returns; [`Journal::flush`] also syncs it to the disk (safe from a power cut), which
/// the pipeline does every few seconds and at the end. One process at a time writes an
/// experiment's journal: see [`ExperimentLock`].
pub struct Journal {
    file: std::fs::File,
    line: Vec<u8>,
}

impl Journal {
    /// Opens for appending. A torn last line from an interrupted run is cut off first,
    /// so that new lines start on a line of their own. The check holds the file's
    /// exclusive lock and every append a shared one, so a journal opened while another
    /// writer appends (threads of one process, or processes that share it) never
    /// mistakes a line being written for a torn one; the cut is made in place, so those
    /// writers keep appending to the same file.
    pub fn open(path: &Path) -> anyhow::Result<Journal> {
        let env = |e: std::io::Error| {
            crate::util::error::environment_error(
                anyhow::Error::new(e).context(format!("opening {}", path.display())),
                &format!("{}: cannot write the journal", path.display()),
            )
        };
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(env)?;
        with_lock(&mut file, false, Self::end_last_line).map_err(env)?;
        Ok(Journal {
            file,
            line: Vec::new(),
        })
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
        match std::str::from_utf8(&text[keep..]).ok().and_then(decode) {
            Some(_) => file.write_all(b"\n"),
            None => file.set_len(keep as u64),
        }
    }

    pub fn append(&mut self, key: &str, outcome: &RunRecord) -> anyhow::Result<()> {
        self.line.clear();
        self.line.extend_from_slice(encode(key, outcome).as_bytes());
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

/// The checkpoints of long runs (see [`crate::pipeline::runner::RunObserver`]): one
/// JSON line per checkpoint, `{"key": …, "state": …}`, appended beside a journal; a
/// run that is killed resumes from the last state of its key. A damaged line is
/// ignored (a checkpoint is only a shortcut: the run is computed from scratch).
pub struct CheckpointLog {
    path: PathBuf,
    file: Mutex<Option<std::fs::File>>,
    last: HashMap<String, serde_json::Value>,
}

impl CheckpointLog {
    /// The checkpoint log beside a journal: `runs.jsonl` → `runs.checkpoints.jsonl`.
    pub fn path_for(journal: &Path) -> PathBuf {
        let stem = journal
            .file_stem()
            .map_or_else(|| "runs".into(), |s| s.to_string_lossy().into_owned());
        journal.with_file_name(format!("{stem}.checkpoints.jsonl"))
    }

    /// Reads the log's last state per key; the file is created on the first append.
    pub fn open(path: &Path) -> anyhow::Result<CheckpointLog> {
        let mut last = HashMap::new();
        match std::fs::read(path) {
            Ok(bytes) => {
                for line in bytes.split(|&b| b == b'\n') {
                    let Ok(v) = serde_json::from_slice::<serde_json::Value>(line) else {
                        continue;
                    };
                    if let (Some(k), Some(state)) =
                        (v.get("key").and_then(|k| k.as_str()), v.get("state"))
                    {
                        last.insert(k.to_string(), state.clone());
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(crate::util::error::environment_error(
                    anyhow::Error::new(e),
                    &format!("{}: cannot read", path.display()),
                ));
            }
        }
        Ok(CheckpointLog {
            path: path.to_path_buf(),
            file: Mutex::new(None),
            last,
        })
    }

    /// The last state recorded for `key` before this process started.
    pub fn last(&self, key: &str) -> Option<&serde_json::Value> {
        self.last.get(key)
    }

    /// Appends a checkpoint of `key` (one write of one line), synced to the disk.
    pub fn append(&self, key: &str, state: &serde_json::Value) -> anyhow::Result<()> {
        let mut line = json!({ "key": key, "state": state }).to_string();
        line.push('\n');
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        if file.is_none() {
            *file = Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&self.path)
                    .with_context(|| format!("opening {}", self.path.display()))?,
            );
        }
        if let Some(f) = file.as_mut() {
            // A torn line from a kill before this one is ended first.
            f.write_all(format!("\n{line}").as_bytes())?;
            f.sync_data()?;
        }
        Ok(())
    }
}

/// The name of the lock file in an experiment's folder.
pub const LOCK_FILE: &str = "run.lock";

/// An experiment folder's lock, held while a run writes its journal and tables: a
/// second `searchlab` on the same folder stops at once with a message naming the lock
/// file and the process holding it (its PID is written in the file). There is one lock
/// per folder, `run.lock`: an unsharded run, a merge and a tuning take it exclusively;
/// a shard takes it shared (shards of one plan run side by side, never beside an
/// unsharded run of the same folder) and its own shard's lock exclusively. The lock is
/// the operating system's (`flock`), so it is released when the process ends, however
/// it ends; the file itself stays. A lock file that is not a regular file (a FIFO, a
/// symlink, a folder) is refused, naming it.
pub struct ExperimentLock {
    _files: Vec<std::fs::File>,
}

impl ExperimentLock {
    /// The folder's lock, exclusively.
    pub fn acquire(dir: &Path) -> anyhow::Result<ExperimentLock> {
        let file = lock_file(dir, LOCK_FILE, "", true)?;
        Ok(ExperimentLock { _files: vec![file] })
    }

    /// The folder's lock shared, and the shard's own lock file `file` in `dir`
    /// exclusively; the refusal says the holder is running `part` (e.g. "shard 1/4 of ")
    /// this experiment.
    pub fn acquire_shard(dir: &Path, file: &str, part: &str) -> anyhow::Result<ExperimentLock> {
        let folder = lock_file(dir, LOCK_FILE, "", false)?;
        let own = lock_file(dir, file, part, true)?;
        Ok(ExperimentLock {
            _files: vec![folder, own],
        })
    }
}

/// Opens and locks `dir/name` (exclusively, or shared); an exclusive holder writes its
/// PID in it. Every failure is a user error naming the file.
fn lock_file(dir: &Path, name: &str, part: &str, exclusive: bool) -> anyhow::Result<std::fs::File> {
    let path = dir.join(name);
    let shown = path.display();
    let env = |e: std::io::Error, doing: &str| {
        crate::util::error::environment_error(
            anyhow::Error::new(e).context(format!("{doing} {shown}")),
            &format!("{shown}: cannot {doing} the lock file"),
        )
    };
    let mut file = open_lock(&path)?;
    let locked = match exclusive {
        true => file.try_lock(),
        false => file.try_lock_shared(),
    };
    match locked {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            crate::user_bail!(
                "{shown}: {} is running {part}this experiment; wait for it to finish (or stop it) and run again",
                holder(&mut file)
            );
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(env(e, "lock")),
    }
    if exclusive {
        file.set_len(0).map_err(|e| env(e, "write"))?;
        std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(0)).map_err(|e| env(e, "write"))?;
        writeln!(file, "{}", std::process::id()).map_err(|e| env(e, "write"))?;
        file.sync_data().map_err(|e| env(e, "write"))?;
    }
    Ok(file)
}

/// Opens a lock file for reading and writing: a regular file or none yet (never
/// following a symlink, never waiting on a FIFO).
fn open_lock(path: &Path) -> anyhow::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let shown = path.display();
    let refuse = |what: &str| {
        crate::user_error!(
            "{shown}: the lock file is {what}, not a regular file; remove it (searchlab creates it) and run again"
        )
    };
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => return Err(refuse("a symlink")),
        Ok(m) if m.is_dir() => return Err(refuse("a folder")),
        Ok(m) if !m.is_file() => return Err(refuse("a FIFO or a device")),
        _ => {}
    }
    let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(flags.bits() as i32)
        .open(path)
        .map_err(|e| {
            crate::util::error::environment_error(
                anyhow::Error::new(e).context(format!("opening {shown}")),
                &format!("{shown}: cannot open the lock file"),
            )
        })?;
    match file.metadata() {
        Ok(m) if m.is_file() => Ok(file),
        _ => Err(refuse("not a regular file")),
    }
}

/// Who holds a lock this process could not take: the PID an exclusive holder wrote, or
/// shard runs (which hold it shared and write nothing).
fn holder(file: &mut std::fs::File) -> String {
    if file.try_lock_shared().is_ok() {
        let _ = file.unlock();
        return "a shard run (--shard)".to_string();
    }
    let mut text = String::new();
    let _ = std::io::Read::read_to_string(file, &mut text);
    match text.trim().parse::<u32>() {
        Ok(pid) => format!("process {pid}"),
        Err(_) => "another process".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome() -> RunRecord {
        RunRecord {
            metrics: vec![
                ("a".into(), Value::Int(-12)),
                ("b".into(), Value::Float(1.0)),
                ("c".into(), Value::Null),
                ("d".into(), Value::Str("x/y".into())),
                ("e".into(), Value::Bool(true)),
            ],
            anytime: vec![(1, -3.0), (10, -7.0)],
        }
    }

    #[test]
    fn lines_round_trip_with_types() {
        let line = encode("k1", &outcome());
        assert_eq!(decode(&line), Some(("k1".to_string(), outcome())));
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_appending_continues() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.jsonl");
        let full = encode("k1", &outcome());
        std::fs::write(&path, format!("{full}\n{}", &full[..full.len() / 2])).unwrap();
        assert_eq!(read_journal(&path).unwrap().len(), 1);
        let mut j = Journal::open(&path).unwrap();
        j.append("k2", &outcome()).unwrap();
        j.flush().unwrap();
        let back = read_journal(&path).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back["k2"], outcome());
    }

    #[test]
    fn floats_read_back_bit_for_bit() {
        for x in [
            7.4979578049897895e-22,
            0.1,
            1.0 / 3.0,
            2.2250738585072014e-308,
            1e300,
        ] {
            let o = RunRecord {
                metrics: vec![("t".into(), Value::Float(x))],
                anytime: vec![(1, x)],
            };
            let (_, back) = decode(&encode("k", &o)).unwrap();
            assert_eq!(back, o, "{x:e}");
            assert_eq!(format!("{:?}", back.anytime[0].1), format!("{x:?}"));
        }
    }

    #[test]
    fn damaged_lines_are_skipped_whatever_their_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.jsonl");
        let good = |k: &str| encode(k, &outcome());
        let mut bad_type = outcome();
        bad_type.metrics[0].1 = Value::Str("oops".into());
        let mut bytes = Vec::new();
        for line in [good("k1"), good("k2")] {
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(b"\xff\xfe garbage\n");
        bytes.extend_from_slice(encode("k3", &bad_type).as_bytes());
        bytes.extend_from_slice(b"\nnot json\n");
        bytes.extend_from_slice(good("k4").as_bytes());
        bytes.push(b'\n');
        std::fs::write(&path, bytes).unwrap();
        let (records, damaged) = read_records(&path).unwrap();
        assert_eq!(damaged, vec![3, 4, 5]);
        let mut keys: Vec<_> = records.keys().cloned().collect();
        keys.sort();
        assert_eq!(keys, vec!["k1", "k2", "k4"]);
    }

    #[test]
    fn records_are_whole_lines_with_many_writers() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.jsonl");
        std::thread::scope(|s| {
            for t in 0..4 {
                let path = &path;
                s.spawn(move || {
                    let mut j = Journal::open(path).unwrap();
                    for i in 0..200 {
                        j.append(&format!("k{t}-{i}"), &outcome()).unwrap();
                    }
                });
            }
        });
        let (records, damaged) = read_records(&path).unwrap();
        assert!(damaged.is_empty());
        assert_eq!(records.len(), 800);
    }

    #[test]
    fn shards_share_the_folder_lock_and_an_unsharded_run_takes_it_alone() {
        let dir = tempfile::tempdir().unwrap();
        let shard = |i: usize| {
            ExperimentLock::acquire_shard(
                dir.path(),
                &format!("run.shard-{i}-of-2.lock"),
                &format!("shard {i}/2 of "),
            )
        };
        let (a, b) = (shard(0).unwrap(), shard(1).unwrap());
        let err = ExperimentLock::acquire(dir.path())
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("run.lock: a shard run (--shard) is running this experiment"),
            "{err}"
        );
        let err = shard(0).err().unwrap().to_string();
        assert!(
            err.contains("is running shard 0/2 of this experiment"),
            "{err}"
        );
        drop((a, b));
        let whole = ExperimentLock::acquire(dir.path()).unwrap();
        let err = shard(1).err().unwrap().to_string();
        assert!(
            err.contains(&format!("run.lock: process {}", std::process::id())),
            "{err}"
        );
        drop(whole);
        assert!(shard(1).is_ok());
    }

    #[test]
    fn a_second_lock_on_a_folder_is_refused_naming_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let held = ExperimentLock::acquire(dir.path()).unwrap();
        let err = ExperimentLock::acquire(dir.path()).err().unwrap();
        assert!(crate::util::error::is_user_error(&err));
        let text = err.to_string();
        assert!(text.contains("run.lock"), "{text}");
        assert!(
            text.contains(&format!("process {}", std::process::id())),
            "{text}"
        );
        drop(held);
        assert!(ExperimentLock::acquire(dir.path()).is_ok());
    }
}
