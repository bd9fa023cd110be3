//! Records of finished runs and their journal.
//!
//! Each finished run is appended to `runs.jsonl` in the experiment's folder as one JSON
//! line (its key, metrics and anytime curve) the moment it finishes. The journal is what
//! makes a rerun compute only missing runs, and Ctrl-C then the same command resume; the
//! tables are rebuilt from it. The parts: a line's format, read strictly ([`record`]);
//! reading a journal and choosing each run's record ([`read`]); appending, setting
//! damaged lines aside and dropping superseded records ([`mod@write`]); the checkpoints of
//! long runs ([`checkpoints`]); and the folder's lock ([`lock`]). Journals, checkpoint
//! logs and locks are the program's own regular files: a symlink in their place is
//! refused ([`crate::util::files`]).

pub mod checkpoints;
pub mod lock;
pub mod read;
pub mod record;
pub mod write;

pub use checkpoints::CheckpointLog;
pub use lock::{ExperimentLock, LOCK_FILE};
pub use read::{Kept, Lines, Numbered, Rejected, read_lines, read_records, resolve};
pub use record::{RunRecord, conflict, decode, encode, encode_line, is_timing};
pub use write::{Journal, compact, rejected_path, set_aside};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::params::Value;

    fn outcome() -> RunRecord {
        RunRecord {
            metrics: vec![
                ("a".into(), Value::Int(-12)),
                ("b".into(), Value::Float(1.0)),
            ],
            anytime: vec![(1, -3.0), (10, -7.0)],
        }
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_appending_continues() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.jsonl");
        let full = encode("k1", &outcome());
        std::fs::write(&path, format!("{full}\n{}", &full[..full.len() / 2])).unwrap();
        assert_eq!(read_records(&path).unwrap().0.len(), 1);
        let mut j = Journal::open(&path).unwrap();
        j.append("k2", &outcome()).unwrap();
        j.flush().unwrap();
        let (back, damaged) = read_records(&path).unwrap();
        assert_eq!((back.len(), damaged.len()), (2, 0));
        assert_eq!(back["k2"], outcome());
    }

    #[test]
    fn damaged_lines_are_listed_whatever_their_bytes_and_blank_ones_are_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.jsonl");
        let good = |k: &str| encode(k, &outcome());
        let mut bytes = Vec::new();
        for line in [good("k1"), String::new(), good("k2")] {
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(b"\xff\xfe garbage\n  \nnot json\n");
        bytes.extend_from_slice(good("k4").as_bytes());
        bytes.push(b'\n');
        std::fs::write(&path, bytes).unwrap();
        let lines = read_lines(&path).unwrap();
        let rejected: Vec<usize> = lines.rejected.iter().map(|r| r.number).collect();
        assert_eq!(rejected, vec![4, 6]);
        assert_eq!(lines.rejected[0].reason, "not UTF-8 text");
        let mut keys: Vec<_> = lines.records.iter().map(|n| n.line.key.clone()).collect();
        keys.sort();
        assert_eq!(keys, vec!["k1", "k2", "k4"]);
    }

    #[test]
    fn set_aside_lines_leave_the_journal_and_are_kept_with_their_reasons() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.jsonl");
        let text = format!(
            "{}\nbroken\n{}\n",
            encode("k1", &outcome()),
            encode("k2", &outcome())
        );
        std::fs::write(&path, &text).unwrap();
        let lines = read_lines(&path).unwrap();
        set_aside(&path, &lines.rejected).unwrap();
        let after = std::fs::read_to_string(&path).unwrap();
        assert_eq!(after, text.replace("broken\n", ""));
        let aside = std::fs::read_to_string(rejected_path(&path)).unwrap();
        let v: serde_json::Value = serde_json::from_str(aside.trim()).unwrap();
        assert_eq!(v["lines"], serde_json::json!([2, 2]));
        assert_eq!(v["text"], serde_json::json!(["broken"]));
        assert!(
            v["reason"].as_str().unwrap().starts_with("not a record"),
            "{v}"
        );
        assert!(read_lines(&path).unwrap().rejected.is_empty());
    }

    #[test]
    fn consecutive_lines_of_one_reason_are_one_entry() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.jsonl");
        let good = encode("k1", &outcome());
        std::fs::write(&path, format!("{{}}\n{{}}\n{{}}\n{good}\nx\n{{}}\n")).unwrap();
        let lines = read_lines(&path).unwrap();
        assert_eq!(lines.rejected.len(), 5);
        set_aside(&path, &lines.rejected).unwrap();
        let aside = std::fs::read_to_string(rejected_path(&path)).unwrap();
        let entries: Vec<serde_json::Value> = aside
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let spans: Vec<&serde_json::Value> = entries.iter().map(|e| &e["lines"]).collect();
        assert_eq!(
            spans,
            [
                &serde_json::json!([1, 3]),
                &serde_json::json!([5, 5]),
                &serde_json::json!([6, 6])
            ]
        );
        assert_eq!(entries[0]["text"], serde_json::json!(["{}", "{}", "{}"]));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{good}\n"));
    }

    #[test]
    fn a_replacing_record_supersedes_and_compaction_drops_the_old_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.jsonl");
        let mut other = outcome();
        other.metrics[0].1 = Value::Int(7);
        let mut j = Journal::open(&path).unwrap();
        j.append("k1", &outcome()).unwrap();
        j.append("k2", &outcome()).unwrap();
        // Without `replaces`, a second record that disagrees is an error naming both lines.
        j.append("k1", &other).unwrap();
        let err = read_records(&path).unwrap_err().to_string();
        assert!(
            err.contains("lines 1 and 3 record run \"k1\" with different values of \"a\""),
            "{err}"
        );
        std::fs::write(&path, "").unwrap();
        let mut j = Journal::open(&path).unwrap();
        j.append("k1", &outcome()).unwrap();
        j.append("k2", &outcome()).unwrap();
        let mut j = j.replacing(true);
        j.append("k1", &other).unwrap();
        assert_eq!(read_records(&path).unwrap().0["k1"], other);
        compact(&path).unwrap();
        let lines = read_lines(&path).unwrap();
        let keys: Vec<&str> = lines.records.iter().map(|n| n.line.key.as_str()).collect();
        assert_eq!(keys, vec!["k2", "k1"]);
        assert_eq!(read_records(&path).unwrap().0["k1"], other);
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
    fn a_journal_that_is_a_symlink_is_refused_and_its_target_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.txt");
        std::fs::write(&outside, "keep\n").unwrap();
        let path = dir.path().join("runs.jsonl");
        std::os::unix::fs::symlink(&outside, &path).unwrap();
        for err in [
            Journal::open(&path).err().unwrap(),
            read_lines(&path).unwrap_err(),
            CheckpointLog::open(&path).err().unwrap(),
        ] {
            assert!(crate::util::error::is_user_error(&err), "{err}");
            assert!(err.to_string().contains("runs.jsonl: the"), "{err}");
        }
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep\n");
    }
}
