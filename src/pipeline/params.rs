//! Parameter values and their declared specs: what an algorithm accepts, and how a
//! run's values are carried from the config to the algorithm and into the result table.
//!
//! Domain adapters declare [`ParamSpec`]s; the config module checks every value against
//! them (so out-of-range values are reported with file and line before anything runs);
//! adapters then read typed values from [`Params`] without re-validating.

use std::collections::BTreeMap;
use std::fmt;

/// One value of a parameter or a metric. `Null` is "absent" (for example no cap).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
}

impl Value {
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            Value::Bool(b) => Some(f64::from(u8::from(*b))),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The canonical text of a value, used in run identities: stable across platforms
    /// (floats use Rust's shortest round-trip formatting).
    pub fn canonical(&self) -> String {
        match self {
            Value::Null => "none".to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => format!("{f:?}"),
            Value::Str(s) => format!("{s:?}"),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("none"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Str(s) => f.write_str(s),
        }
    }
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}
impl From<u64> for Value {
    fn from(v: u64) -> Self {
        Value::Int(i64::try_from(v).unwrap_or(i64::MAX))
    }
}
impl From<usize> for Value {
    fn from(v: usize) -> Self {
        Value::Int(i64::try_from(v).unwrap_or(i64::MAX))
    }
}
impl From<u32> for Value {
    fn from(v: u32) -> Self {
        Value::Int(i64::from(v))
    }
}
impl From<i32> for Value {
    fn from(v: i32) -> Self {
        Value::Int(i64::from(v))
    }
}
impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value::Float(v)
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Str(v.to_string())
    }
}
impl From<String> for Value {
    fn from(v: String) -> Self {
        Value::Str(v)
    }
}
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Self {
        v.map_or(Value::Null, Into::into)
    }
}

/// The type and legal range of a parameter.
#[derive(Debug, Clone)]
pub enum ParamKind {
    /// An integer in `min..=max`.
    Int {
        min: i64,
        max: i64,
    },
    /// An integer in `min..=max`, or the string `"none"` (stored as null): an optional cap.
    OptionalInt {
        min: i64,
        max: i64,
    },
    /// A float in the range; `min_open` excludes `min` itself (for "must be > 0").
    Float {
        min: f64,
        max: f64,
        min_open: bool,
    },
    /// One of a fixed set of names.
    Choice(&'static [&'static str]),
    Bool,
    /// A string from an open family of names that the domain checks itself (the tiles'
    /// `pdb:1,2,3/4,5,6`): `check` says what is wrong, `what` describes the family.
    Text {
        what: &'static str,
        check: fn(&str) -> Result<(), String>,
    },
}

/// A parameter an algorithm accepts.
#[derive(Debug, Clone)]
pub struct ParamSpec {
    pub name: &'static str,
    pub kind: ParamKind,
    /// The value used when the config does not set it; `None` makes it required.
    pub default: Option<Value>,
    pub help: &'static str,
    /// Used only when another parameter takes one of some values (`decay` only under
    /// the schedules that decay): elsewhere the parameter is absent from the run.
    pub when: Option<Condition>,
    /// Part of the problem instance (a maze's size, a benchmark instance, a board's
    /// distance): the instance seed depends on these parameters only, so every method
    /// of an experiment meets the same instances.
    pub instance: bool,
    /// The run's budget (evaluations, expansions): what a fair comparison gives every
    /// method alike, so a tuning never samples it.
    pub budget: bool,
    /// Its former name, refused with a pointer to this one.
    pub formerly: Option<(&'static str, &'static str)>,
    /// A short name for axes and legends (`decay rate`); none: the name.
    pub label: Option<&'static str>,
    /// An a-priori estimate of a run's cost (any unit) from its parameters, declared by
    /// the domain on the parameter it mostly depends on: used only to start the runs of
    /// an experiment longest first ([`crate::pipeline::plan::Plan::schedule`]), never in
    /// a result.
    pub cost: Option<fn(&Params) -> f64>,
}

/// "Only when parameter `param` is one of `values`."
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Condition {
    pub param: &'static str,
    pub values: &'static [&'static str],
}

impl Condition {
    /// True when `params` satisfies the condition.
    pub fn holds(&self, params: &Params) -> bool {
        params
            .get(self.param)
            .and_then(Value::as_str)
            .is_some_and(|v| self.values.contains(&v))
    }

    /// "schedule = geometric or reheating", for messages and `searchlab list`.
    pub fn describe(&self) -> String {
        format!("{} = {}", self.param, self.values.join(" or "))
    }
}

impl ParamSpec {
    pub fn int(
        name: &'static str,
        min: i64,
        max: i64,
        default: Option<i64>,
        help: &'static str,
    ) -> Self {
        ParamSpec {
            name,
            kind: ParamKind::Int { min, max },
            default: default.map(Value::Int),
            help,
            when: None,
            instance: false,
            budget: false,
            formerly: None,
            label: None,
            cost: None,
        }
    }

    pub fn optional_int(name: &'static str, min: i64, max: i64, help: &'static str) -> Self {
        ParamSpec {
            name,
            kind: ParamKind::OptionalInt { min, max },
            default: Some(Value::Null),
            help,
            when: None,
            instance: false,
            budget: false,
            formerly: None,
            label: None,
            cost: None,
        }
    }

    pub fn float(
        name: &'static str,
        min: f64,
        max: f64,
        min_open: bool,
        default: Option<f64>,
        help: &'static str,
    ) -> Self {
        ParamSpec {
            name,
            kind: ParamKind::Float { min, max, min_open },
            default: default.map(Value::Float),
            help,
            when: None,
            instance: false,
            budget: false,
            formerly: None,
            label: None,
            cost: None,
        }
    }

    pub fn choice(
        name: &'static str,
        choices: &'static [&'static str],
        default: Option<&'static str>,
        help: &'static str,
    ) -> Self {
        ParamSpec {
            name,
            kind: ParamKind::Choice(choices),
            default: default.map(Value::from),
            help,
            when: None,
            instance: false,
            budget: false,
            formerly: None,
            label: None,
            cost: None,
        }
    }

    /// A string checked by `check` (see [`ParamKind::Text`]).
    pub fn text(
        name: &'static str,
        what: &'static str,
        check: fn(&str) -> Result<(), String>,
        default: Option<&'static str>,
        help: &'static str,
    ) -> Self {
        ParamSpec {
            name,
            kind: ParamKind::Text { what, check },
            default: default.map(Value::from),
            help,
            when: None,
            instance: false,
            budget: false,
            formerly: None,
            label: None,
            cost: None,
        }
    }

    pub fn boolean(name: &'static str, default: Option<bool>, help: &'static str) -> Self {
        ParamSpec {
            name,
            kind: ParamKind::Bool,
            default: default.map(Value::Bool),
            help,
            when: None,
            instance: false,
            budget: false,
            formerly: None,
            label: None,
            cost: None,
        }
    }

    /// Declares the short name axes and legends use.
    pub fn labelled(mut self, label: &'static str) -> Self {
        self.label = Some(label);
        self
    }

    /// Words for an axis or a legend's heading: the declared label, else the name.
    pub fn words(&self) -> String {
        self.label
            .map_or_else(|| self.name.replace('_', " "), str::to_string)
    }

    /// Declares the parameter's former name `old` (and why it changed): a config that
    /// uses it is refused with a pointer to the new name.
    pub fn formerly(mut self, old: &'static str, why: &'static str) -> Self {
        self.formerly = Some((old, why));
        self
    }

    /// Declares the parameter part of the problem instance (see [`ParamSpec::instance`]).
    pub fn instance(mut self) -> Self {
        self.instance = true;
        self
    }

    /// Declares the run's estimated cost ([`Self::cost`]).
    pub fn cost(mut self, estimate: fn(&Params) -> f64) -> Self {
        self.cost = Some(estimate);
        self
    }

    /// Declares the parameter the run's budget.
    pub fn budget(mut self) -> Self {
        self.budget = true;
        self
    }

    /// Declares the parameter used only when `param` is one of `values`.
    pub fn only_when(mut self, param: &'static str, values: &'static [&'static str]) -> Self {
        self.when = Some(Condition { param, values });
        self
    }

    /// An integer typed at a prompt or given as a flag, checked against this spec (the
    /// same limits as in configs).
    pub fn int_from_text(&self, s: &str) -> Result<i64, String> {
        use crate::util::{input::excerpt, prompt::is_integer_text};
        let s = s.trim();
        let n = match s.parse::<i128>() {
            Ok(n) => n,
            Err(_) if is_integer_text(s) => {
                return Err(format!("{} is too large for {}", excerpt(s), self.name));
            }
            Err(_) => return Err(format!("{} is not an integer", excerpt(s))),
        };
        let Ok(n) = i64::try_from(n) else {
            return Err(format!(
                "{n} is out of range for {} ({})",
                self.name,
                self.kind.describe()
            ));
        };
        match self.check(&Value::Int(n))? {
            Value::Int(i) => Ok(i),
            other => Err(format!("{} must be an integer, not {other}", self.name)),
        }
    }

    /// A number typed at a prompt or given as a flag, checked against this spec.
    pub fn float_from_text(&self, s: &str) -> Result<f64, String> {
        let x = crate::util::prompt::number(s)?;
        self.check(&Value::Float(x))?
            .as_f64()
            .ok_or_else(|| format!("{} must be a number", self.name))
    }

    /// Checks a value against this spec and normalises it (an integer given for a float
    /// parameter becomes a float). The error says what is wrong, without a location:
    /// the caller knows where the value came from.
    pub fn check(&self, value: &Value) -> Result<Value, String> {
        let name = self.name;
        match (&self.kind, value) {
            (ParamKind::Int { min, max }, Value::Int(i))
            | (ParamKind::OptionalInt { min, max }, Value::Int(i)) => {
                if i < min || i > max {
                    Err(format!(
                        "{name} = {i} is out of range (expected {min} to {max})"
                    ))
                } else {
                    Ok(Value::Int(*i))
                }
            }
            (ParamKind::OptionalInt { .. }, Value::Str(s)) if s == "none" => Ok(Value::Null),
            (ParamKind::OptionalInt { .. }, Value::Null) => Ok(Value::Null),
            (ParamKind::Float { min, max, min_open }, v @ (Value::Int(_) | Value::Float(_))) => {
                let x = v.as_f64().unwrap_or(f64::NAN);
                let low_ok = if *min_open { x > *min } else { x >= *min };
                if !x.is_finite() || !low_ok || x > *max {
                    let open = if *min_open {
                        "greater than"
                    } else {
                        "at least"
                    };
                    Err(format!(
                        "{name} = {x} is out of range (expected {open} {min} and at most {max})"
                    ))
                } else {
                    Ok(Value::Float(x))
                }
            }
            (ParamKind::Choice(choices), Value::Str(s)) => {
                if choices.contains(&s.as_str()) {
                    Ok(value.clone())
                } else {
                    Err(format!(
                        "{name} = {s:?} is not one of {}",
                        choices.join(", ")
                    ))
                }
            }
            (ParamKind::Bool, Value::Bool(_)) => Ok(value.clone()),
            (ParamKind::Text { check, .. }, Value::Str(s)) => match check(s) {
                Ok(()) => Ok(value.clone()),
                Err(e) => Err(format!("{name} = {s:?}: {e}")),
            },
            (kind, v) => Err(format!(
                "{name} must be {}, not {}",
                kind.describe(),
                describe_value(v)
            )),
        }
    }
}

impl ParamKind {
    pub fn describe(&self) -> String {
        match self {
            ParamKind::Int { min, max } => format!("an integer from {min} to {max}"),
            ParamKind::OptionalInt { min, max } => {
                format!("an integer from {min} to {max} or \"none\"")
            }
            ParamKind::Float {
                min,
                max,
                min_open: true,
            } => format!("a number greater than {min} and at most {max}"),
            ParamKind::Float {
                min,
                max,
                min_open: false,
            } => format!("a number from {min} to {max}"),
            ParamKind::Choice(c) => format!("one of {}", c.join(", ")),
            ParamKind::Bool => "true or false".to_string(),
            ParamKind::Text { what, .. } => what.to_string(),
        }
    }
}

fn describe_value(v: &Value) -> String {
    match v {
        Value::Null => "nothing".to_string(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Int(i) => format!("the integer {i}"),
        Value::Float(f) => format!("the number {f}"),
        Value::Str(s) => format!("the string {s:?}"),
    }
}

/// The resolved parameter values of one run, by name, in name order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Params(pub BTreeMap<String, Value>);

impl Params {
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.0.get(name)
    }

    pub fn set(&mut self, name: &str, value: Value) {
        self.0.insert(name.to_string(), value);
    }

    /// An integer parameter. Specs guarantee presence and type once a config is checked;
    /// reaching the error means an adapter asked for a parameter it did not declare.
    pub fn int(&self, name: &str) -> anyhow::Result<i64> {
        self.get(name)
            .and_then(Value::as_i64)
            .ok_or_else(|| anyhow::anyhow!("parameter {name} is missing or not an integer"))
    }

    /// An optional integer parameter (null or absent is `None`).
    pub fn opt_int(&self, name: &str) -> anyhow::Result<Option<i64>> {
        match self.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Int(i)) => Ok(Some(*i)),
            Some(v) => anyhow::bail!("parameter {name} = {v} is not an integer"),
        }
    }

    pub fn float(&self, name: &str) -> anyhow::Result<f64> {
        self.get(name)
            .and_then(Value::as_f64)
            .ok_or_else(|| anyhow::anyhow!("parameter {name} is missing or not a number"))
    }

    pub fn str(&self, name: &str) -> anyhow::Result<&str> {
        self.get(name)
            .and_then(Value::as_str)
            .ok_or_else(|| anyhow::anyhow!("parameter {name} is missing or not a string"))
    }

    pub fn bool(&self, name: &str) -> anyhow::Result<bool> {
        match self.get(name) {
            Some(Value::Bool(b)) => Ok(*b),
            _ => anyhow::bail!("parameter {name} is missing or not a boolean"),
        }
    }

    /// `name=value|name=value…` in name order: the run's identity, for keys and seeds.
    pub fn canonical(&self) -> String {
        self.canonical_with(&[])
    }

    /// [`Params::canonical`] with `extra` parameters (name, canonical text) among them,
    /// in their places by name; a parameter the params hold is not replaced.
    pub fn canonical_with(&self, extra: &[(&str, &str)]) -> String {
        let mut parts: BTreeMap<&str, String> = self
            .0
            .iter()
            .map(|(k, v)| (k.as_str(), v.canonical()))
            .collect();
        for (k, v) in extra {
            parts.entry(k).or_insert_with(|| v.to_string());
        }
        parts
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("|")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_ranges_and_types() {
        let size = ParamSpec::int("size", 5, 10, Some(5), "");
        assert_eq!(size.check(&Value::Int(7)), Ok(Value::Int(7)));
        assert!(
            size.check(&Value::Int(11))
                .unwrap_err()
                .contains("out of range")
        );
        assert!(
            size.check(&Value::Str("x".into()))
                .unwrap_err()
                .contains("must be an integer")
        );
        let p = ParamSpec::float("probability", 0.0, 1.0, false, None, "");
        assert_eq!(p.check(&Value::Int(1)), Ok(Value::Float(1.0)));
        assert!(p.check(&Value::Float(1.5)).is_err());
        let t = ParamSpec::float("t0", 0.0, f64::MAX, true, None, "");
        assert!(t.check(&Value::Float(0.0)).is_err());
        assert!(t.check(&Value::Float(f64::NAN)).is_err());
        let cap = ParamSpec::optional_int("cap", 0, 1000, "");
        assert_eq!(cap.check(&Value::Str("none".into())), Ok(Value::Null));
        assert!(cap.check(&Value::Str("all".into())).is_err());
        let s = ParamSpec::choice("schedule", &["geometric", "linear"], None, "");
        assert!(
            s.check(&Value::Str("cubic".into()))
                .unwrap_err()
                .contains("geometric, linear")
        );
    }

    #[test]
    fn spec_bounds_apply_at_prompts() {
        let t = ParamSpec::float("initial_temperature", 0.0, 1e12, true, None, "");
        assert!(
            t.float_from_text("1e20")
                .unwrap_err()
                .contains("out of range")
        );
        assert_eq!(t.float_from_text("2.5"), Ok(2.5));
        let it = ParamSpec::int("iterations", 1, 1_000_000_000, None, "");
        assert!(
            it.int_from_text("18446744073709551615")
                .unwrap_err()
                .contains("out of range")
        );
        assert!(
            it.int_from_text("99999999999999999999999999999999999999999")
                .unwrap_err()
                .contains("too large")
        );
        assert!(it.int_from_text(&"x".repeat(100)).unwrap_err().len() < 100);
        assert_eq!(it.int_from_text("250"), Ok(250));
    }

    #[test]
    fn canonical_is_ordered_and_typed() {
        let mut p = Params::default();
        p.set("b", Value::Float(1.0));
        p.set("a", Value::Int(1));
        p.set("c", Value::Str("x".into()));
        assert_eq!(p.canonical(), "a=1|b=1.0|c=\"x\"");
    }
}
