//! Sweep axes: a list of values, or a range table expanded to its values, each checked
//! against the axis limit before anything is built.

use super::{Axis, Located, MAX_AXIS_VALUES, Origin};
use crate::pipeline::params::Value;

/// A sweep axis from a list of values, or a range table `{ start, stop, step }` (stop
/// included when reached) or `{ start, stop, num, scale = "linear" | "log" }`.
pub fn axis(name: &str, v: &toml::Value, origin: &Origin) -> anyhow::Result<Axis> {
    let err = |msg: String| crate::user_error!("{origin}: sweep.{name}: {msg}");
    let values: Vec<Value> = match v {
        toml::Value::Array(items) if items.len() > MAX_AXIS_VALUES => {
            return Err(err(format!(
                "the list has {} values, more than the {MAX_AXIS_VALUES} an axis may have",
                items.len()
            )));
        }
        toml::Value::Array(items) => {
            let values: Vec<Value> = items
                .iter()
                .map(to_value)
                .collect::<Result<_, _>>()
                .map_err(err)?;
            check_unique(&values).map_err(err)?;
            values
        }
        toml::Value::Table(t) => range(t).map_err(err)?,
        other => {
            return Err(err(format!(
                "expected a list of values or a range table, not {}",
                other.type_str()
            )));
        }
    };
    if values.is_empty() {
        return Err(err("the list is empty".to_string()));
    }
    Ok(Axis {
        name: name.to_string(),
        values: values
            .into_iter()
            .map(|value| Located {
                value,
                origin: origin.clone(),
            })
            .collect(),
    })
}

pub fn range(t: &toml::Table) -> Result<Vec<Value>, String> {
    for k in t.keys() {
        if !["start", "stop", "step", "num", "scale"].contains(&k.as_str()) {
            return Err(format!(
                "unknown range key {k:?} (expected start, stop, step or num, scale)"
            ));
        }
    }
    let get = |k: &str| t.get(k).map(to_value).transpose();
    let (start, stop) = match (get("start")?, get("stop")?) {
        (Some(a), Some(b)) => (a, b),
        _ => return Err("a range needs start and stop".to_string()),
    };
    for k in ["start", "stop", "step"] {
        let Some(v) = get(k)? else { continue };
        match v {
            Value::Float(f) if !f.is_finite() => {
                return Err(format!("{k} = {f} is not a finite number"));
            }
            Value::Int(_) | Value::Float(_) => {}
            other => return Err(format!("{k} = {other} is not a number")),
        }
    }
    let scale = match t.get("scale") {
        None => "linear",
        Some(toml::Value::String(s)) if s == "linear" || s == "log" => s.as_str(),
        Some(_) => return Err("scale must be \"linear\" or \"log\"".to_string()),
    };
    match (get("step")?, get("num")?) {
        (Some(step), None) => {
            if scale != "linear" {
                return Err("a range with step is linear; use num for a log scale".to_string());
            }
            if let (Value::Int(a), Value::Int(b), Value::Int(s)) = (&start, &stop, &step) {
                if *s <= 0 || b < a {
                    return Err("step must be positive and stop at least start".to_string());
                }
                let count = (i128::from(*b) - i128::from(*a)) / i128::from(*s) + 1;
                if count > MAX_AXIS_VALUES as i128 {
                    return Err(format!(
                        "the range has {count} values, more than the {MAX_AXIS_VALUES} an axis may have"
                    ));
                }
                return Ok((0..count as i64).map(|i| Value::Int(a + i * s)).collect());
            }
            let (a, b, s) = (num(&start)?, num(&stop)?, num(&step)?);
            if s <= 0.0 || b < a {
                return Err("step must be positive and stop at least start".to_string());
            }
            let count = ((b - a) / s + 1e-9).floor() + 1.0;
            if !count.is_finite() || count > MAX_AXIS_VALUES as f64 {
                return Err(format!(
                    "the range has {count:.3e} values, more than the {MAX_AXIS_VALUES} an axis may have"
                ));
            }
            Ok((0..count as i64)
                .map(|i| Value::Float(a + i as f64 * s))
                .collect())
        }
        (None, Some(Value::Int(n))) if (1..=100_000).contains(&n) => {
            let (a, b) = (num(&start)?, num(&stop)?);
            if (b - a).is_infinite() {
                return Err(format!("the range from {a} to {b} is too wide"));
            }
            if scale == "log" && (a <= 0.0 || b <= 0.0) {
                return Err("a log range needs positive start and stop".to_string());
            }
            let ints = matches!((&start, &stop), (Value::Int(_), Value::Int(_)));
            let mut out = Vec::new();
            for i in 0..n {
                let f = if n == 1 {
                    0.0
                } else {
                    i as f64 / (n - 1) as f64
                };
                let x = if scale == "log" {
                    (a.ln() + f * (b.ln() - a.ln())).exp()
                } else {
                    a + f * (b - a)
                };
                let v = if ints {
                    Value::Int(x.round() as i64)
                } else {
                    Value::Float(x)
                };
                // The values are monotone in i: a repeat (of a rounded integer) is the
                // last one, so deduplicating costs one comparison.
                if out.last() != Some(&v) {
                    out.push(v);
                }
            }
            Ok(out)
        }
        (None, Some(_)) => Err("num must be an integer from 1 to 100000".to_string()),
        _ => Err("a range needs exactly one of step or num".to_string()),
    }
}

/// A list's values are distinct: `[0.99, 0.990]` would compute, journal and count one
/// run twice. Numbers compare by value (`1` and `1.0` are the same), in linear time.
fn check_unique(values: &[Value]) -> Result<(), String> {
    let mut seen = std::collections::HashMap::with_capacity(values.len());
    for (i, v) in values.iter().enumerate() {
        if let Some(first) = seen.insert(identity(v), i) {
            return Err(format!(
                "{} is in the list twice (values {} and {}): give each value once",
                crate::util::input::excerpt(&v.to_string()),
                first + 1,
                i + 1
            ));
        }
    }
    Ok(())
}

/// What makes two values of a list the same value.
fn identity(v: &Value) -> (u8, u64, &str) {
    match v {
        Value::Int(i) if (*i as f64) as i64 == *i => (1, (*i as f64).to_bits(), ""),
        Value::Int(i) => (2, *i as u64, ""),
        Value::Float(f) if *f == 0.0 => (1, 0f64.to_bits(), ""),
        Value::Float(f) => (1, f.to_bits(), ""),
        Value::Bool(b) => (3, u64::from(*b), ""),
        Value::Str(s) => (4, 0, s),
        Value::Null => (0, 0, ""),
    }
}

fn num(v: &Value) -> Result<f64, String> {
    v.as_f64().ok_or_else(|| format!("{v} is not a number"))
}

/// A TOML scalar as a [`Value`].
pub fn to_value(v: &toml::Value) -> Result<Value, String> {
    match v {
        toml::Value::String(s) => Ok(Value::Str(s.clone())),
        toml::Value::Integer(i) => Ok(Value::Int(*i)),
        toml::Value::Float(f) => Ok(Value::Float(*f)),
        toml::Value::Boolean(b) => Ok(Value::Bool(*b)),
        other => Err(format!("expected a single value, not {}", other.type_str())),
    }
}
