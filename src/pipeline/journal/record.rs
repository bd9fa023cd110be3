//! One journal line: a finished run's record, written as JSON and read back strictly.
//!
//! A line is `{"key": …, "metrics": [[name, value], …], "anytime": [[evaluations, best],
//! …]}`, with `"replaces": true` when the run was recomputed (`--force`) and its record
//! supersedes any earlier one of the same run. Reading refuses anything that a writer
//! of this program cannot have produced (a field twice or unknown, a metric named
//! twice, an anytime curve out of order) so that a damaged line is set aside rather
//! than half believed. Floats are written in Rust's shortest round-trip form and read
//! back correctly rounded, so a resumed run's tables are the same text.

use crate::pipeline::params::Value;
use serde::Deserialize;
use serde_json::json;
use std::collections::{HashMap, HashSet};

/// What a finished run produced, as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRecord {
    pub metrics: Vec<(String, Value)>,
    pub anytime: Vec<(u64, f64)>,
}

/// A decoded line: its run's key, its record, and whether it supersedes earlier ones.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub key: String,
    pub record: RunRecord,
    pub replaces: bool,
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

/// One journal line (without its newline).
pub fn encode(key: &str, outcome: &RunRecord) -> String {
    encode_line(key, outcome, false)
}

/// One journal line; `replaces` marks a recomputed run's record.
pub fn encode_line(key: &str, outcome: &RunRecord, replaces: bool) -> String {
    let metrics: Vec<serde_json::Value> = outcome
        .metrics
        .iter()
        .map(|(k, v)| json!([k, to_json(v)]))
        .collect();
    let mut line = json!({ "key": key, "metrics": metrics, "anytime": outcome.anytime });
    if replaces {
        line["replaces"] = json!(true);
    }
    line.to_string()
}

/// The fields of a line, exactly: a field twice or one of another name is refused.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Fields {
    key: String,
    metrics: Vec<(String, serde_json::Value)>,
    anytime: Vec<(u64, f64)>,
    #[serde(default)]
    replaces: bool,
}

/// Decodes a line, or says why it is not a record.
pub fn decode(line: &str) -> Result<Line, String> {
    let f: Fields = serde_json::from_str(line).map_err(|e| {
        let e = e.to_string();
        // serde_json's position ("at line 1 column 40") is of no use to a reader.
        match e.split(" at line ").next() {
            Some(head) => format!("not a record ({head})"),
            None => format!("not a record ({e})"),
        }
    })?;
    let mut names = HashSet::new();
    let mut metrics = Vec::with_capacity(f.metrics.len());
    for (name, v) in f.metrics {
        if !names.insert(name.clone()) {
            return Err(format!(
                "metric {} is recorded twice",
                crate::util::input::excerpt(&name)
            ));
        }
        let value = from_json(&v).ok_or_else(|| {
            format!(
                "metric {} is not a number, text, boolean or null",
                crate::util::input::excerpt(&name)
            )
        })?;
        metrics.push((name, value));
    }
    check_curve(&f.anytime)?;
    Ok(Line {
        key: f.key,
        record: RunRecord {
            metrics,
            anytime: f.anytime,
        },
        replaces: f.replaces,
    })
}

/// An anytime curve as a run writes it: evaluations strictly increasing, values finite.
fn check_curve(curve: &[(u64, f64)]) -> Result<(), String> {
    if let Some(w) = curve.windows(2).find(|w| w[1].0 <= w[0].0) {
        return Err(format!(
            "its anytime curve is out of order ({} after {})",
            w[1].0, w[0].0
        ));
    }
    if curve.iter().any(|p| !p.1.is_finite()) {
        return Err("its anytime curve holds a value that is not finite".into());
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn outcome() -> RunRecord {
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
        let back = decode(&line).unwrap();
        assert_eq!(
            (back.key.as_str(), &back.record, back.replaces),
            ("k1", &outcome(), false)
        );
        let forced = decode(&encode_line("k1", &outcome(), true)).unwrap();
        assert!(forced.replaces);
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
            let back = decode(&encode("k", &o)).unwrap().record;
            assert_eq!(back, o, "{x:e}");
            assert_eq!(format!("{:?}", back.anytime[0].1), format!("{x:?}"));
        }
    }

    #[test]
    fn lines_a_writer_cannot_produce_are_refused_with_the_reason() {
        let good = encode("k", &outcome());
        let cases = [
            (
                good.replacen("\"metrics\":", "\"metrics\":[],\"metrics\":", 1),
                "duplicate field `metrics`",
            ),
            (
                good.replacen("\"key\":", "\"key\":\"x\",\"key\":", 1),
                "duplicate field `key`",
            ),
            (
                good.replacen("{", "{\"extra\":1,", 1),
                "unknown field `extra`",
            ),
            (
                good.replacen("[\"a\",-12]", "[\"a\",-12],[\"a\",3]", 1),
                "metric \"a\" is recorded twice",
            ),
            (
                good.replacen("[[1,-3.0],[10,-7.0]]", "[[10,-7.0],[1,-3.0]]", 1),
                "out of order (1 after 10)",
            ),
            (
                good.replacen("[[1,-3.0],[10,-7.0]]", "[[1,-3.0],[1,-7.0]]", 1),
                "out of order (1 after 1)",
            ),
            (
                good.replacen("[\"a\",-12]", "[\"a\",[1]]", 1),
                "is not a number",
            ),
            ("{\"key\":1}".to_string(), "not a record"),
        ];
        for (line, says) in cases {
            assert_ne!(line, good, "the case must change the line: {says}");
            let err = decode(&line).unwrap_err();
            assert!(err.contains(says), "{line}: {err}");
        }
    }

    #[test]
    fn records_conflict_only_outside_timing_columns() {
        let mut a = outcome();
        a.metrics.push(("time_seconds".into(), Value::Float(1.0)));
        let mut b = a.clone();
        b.metrics[5].1 = Value::Float(2.0);
        assert_eq!(conflict(&a, &b), None);
        b.metrics[0].1 = Value::Int(5);
        assert_eq!(conflict(&a, &b).as_deref(), Some("values of \"a\""));
        let mut c = a.clone();
        c.anytime.pop();
        assert_eq!(conflict(&a, &c).as_deref(), Some("anytime curves"));
    }
}
