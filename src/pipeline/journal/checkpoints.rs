//! The checkpoints of long runs (see [`crate::util::observe::Observer::checkpoint`]): one JSON
//! line per checkpoint, `{"key": …, "state": …, "check": …}`, appended beside a journal;
//! a run that is killed resumes from the last state of its key.
//!
//! A checkpoint is only a shortcut, so one that cannot be trusted is dropped rather
//! than resumed from: each line carries a checksum of its run's key and state, and a
//! line whose checksum fails (edited, or damaged on the disk) is discarded with a
//! warning, the run resuming from its last sound checkpoint or from its beginning. The
//! domain checks what it resumes as well (an IDA* run its thresholds and counts).

use crate::util::rng::fnv1a;
use serde_json::json;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The checkpoints of the runs of one journal.
pub struct CheckpointLog {
    path: PathBuf,
    file: Mutex<Option<std::fs::File>>,
    last: HashMap<String, serde_json::Value>,
}

/// The checksum of a checkpoint: its run's key and state (serde_json's canonical text).
pub fn checksum(key: &str, state: &serde_json::Value) -> String {
    let text = format!("{key}\n{state}");
    format!("{:016x}", fnv1a(text.as_bytes()))
}

/// A line's key and state when its checksum holds; `Err` names what fails.
fn parse(line: &[u8]) -> Option<Result<(String, serde_json::Value), String>> {
    if line.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(line) else {
        return Some(Err(String::new()));
    };
    let (Some(key), Some(state)) = (v.get("key").and_then(|k| k.as_str()), v.get("state")) else {
        return Some(Err(String::new()));
    };
    match v.get("check").and_then(|c| c.as_str()) {
        Some(c) if c == checksum(key, state) => Some(Ok((key.to_string(), state.clone()))),
        _ => Some(Err(key.to_string())),
    }
}

impl CheckpointLog {
    /// The checkpoint log beside a journal: `runs.jsonl` → `runs.checkpoints.jsonl`.
    pub fn path_for(journal: &Path) -> PathBuf {
        let stem = journal
            .file_stem()
            .map_or_else(|| "runs".into(), |s| s.to_string_lossy().into_owned());
        journal.with_file_name(format!("{stem}.checkpoints.jsonl"))
    }

    /// Reads the log's last sound state per key (a symlink in its place is refused);
    /// the file is created on the first append.
    pub fn open(path: &Path) -> anyhow::Result<CheckpointLog> {
        let mut last = HashMap::new();
        let mut discarded: Vec<(usize, String)> = Vec::new();
        if let Some(mut file) = crate::util::files::open_read(path, "checkpoint log")? {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut file, &mut bytes).map_err(|e| {
                crate::util::error::environment_error(
                    anyhow::Error::new(e),
                    &format!("{}: cannot read", path.display()),
                )
            })?;
            let complete = bytes.ends_with(b"\n");
            let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
            for (i, line) in lines.iter().enumerate() {
                match parse(line) {
                    None => {}
                    Some(Ok((key, state))) => {
                        last.insert(key, state);
                    }
                    // The torn last line of a kill is expected, not damage.
                    Some(Err(_)) if i + 1 == lines.len() && !complete => {}
                    Some(Err(key)) => discarded.push((i + 1, key)),
                }
            }
        }
        if !discarded.is_empty() {
            let lines: Vec<String> = discarded.iter().map(|(n, _)| n.to_string()).collect();
            crate::say!(
                "searchlab: warning: {}: discarded {} checkpoint line(s) that fail their check (line {}); a run resumes from its last sound checkpoint, or from its beginning",
                path.display(),
                discarded.len(),
                lines.join(", ")
            );
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
        let line = json!({ "key": key, "state": state, "check": checksum(key, state) });
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        if file.is_none() {
            *file = Some(crate::util::files::open_append(
                &self.path,
                "checkpoint log",
                true,
            )?);
        }
        if let Some(f) = file.as_mut() {
            // A torn line from a kill before this one is ended first.
            f.write_all(format!("\n{line}\n").as_bytes())?;
            f.sync_data()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edited_checkpoints_are_discarded_and_sound_ones_resumed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.checkpoints.jsonl");
        let log = CheckpointLog::open(&path).unwrap();
        log.append("k", &json!({"next": 45, "generated": 10}))
            .unwrap();
        log.append("k", &json!({"next": 47, "generated": 20}))
            .unwrap();
        log.append("j", &json!({"next": 50})).unwrap();
        assert_eq!(
            CheckpointLog::open(&path).unwrap().last("k").unwrap()["next"],
            47
        );
        // An edited state fails its checksum: the run resumes from the one before.
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replacen("\"next\":47", "\"next\":71", 1)).unwrap();
        let log = CheckpointLog::open(&path).unwrap();
        assert_eq!(log.last("k").unwrap()["next"], 45);
        assert_eq!(log.last("j").unwrap()["next"], 50);
        // A line without a checksum (or another key's) is not trusted either.
        let forged = json!({"key": "j", "state": {"next": 99}, "check": checksum("k", &json!({"next": 99}))});
        let unsigned = json!({"key": "j", "state": {"next": 98}});
        std::fs::write(&path, format!("{forged}\n{unsigned}\n")).unwrap();
        assert!(CheckpointLog::open(&path).unwrap().last("j").is_none());
    }
}
