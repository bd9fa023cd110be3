//! Records of finished runs and their journal.
//!
//! Each finished run is appended to `runs.jsonl` in the experiment's folder as one JSON
//! line (its key, metrics and anytime curve) the moment it finishes. The journal is what
//! makes a rerun compute only missing runs, and Ctrl-C then the same command resume; the
//! tables are rebuilt from it. A torn last line (the process killed mid-write) is
//! ignored on reading.

use crate::pipeline::params::Value;
use anyhow::Context;
use serde_json::json;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::Path;

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

/// Reads a journal; a missing file is an empty journal, unreadable lines are skipped.
pub fn read_journal(path: &Path) -> anyhow::Result<HashMap<String, RunRecord>> {
    let mut out = HashMap::new();
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    for line in std::io::BufReader::new(file).lines() {
        let line = line.with_context(|| format!("reading {}", path.display()))?;
        if let Some((key, outcome)) = decode(&line) {
            out.insert(key, outcome);
        }
    }
    Ok(out)
}

/// Appends finished runs to a journal.
pub struct Journal {
    file: std::io::BufWriter<std::fs::File>,
}

impl Journal {
    /// Opens for appending. A torn last line from an interrupted run is cut off first,
    /// so that new lines start on a line of their own.
    pub fn open(path: &Path) -> anyhow::Result<Journal> {
        if let Ok(text) = std::fs::read(path)
            && !text.is_empty()
            && !text.ends_with(b"\n")
        {
            let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            crate::util::atomic::write(path, &text[..keep])?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        Ok(Journal {
            file: std::io::BufWriter::new(file),
        })
    }

    pub fn append(&mut self, key: &str, outcome: &RunRecord) -> anyhow::Result<()> {
        writeln!(self.file, "{}", encode(key, outcome))?;
        Ok(())
    }

    pub fn flush(&mut self) -> anyhow::Result<()> {
        self.file.flush()?;
        Ok(())
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
}
