//! Typed metrics: one struct per algorithm, declared with [`metrics!`](crate::metrics),
//! serialised into a run's row (its fields in order, one column each) and decoded back
//! from a row for facts. Each field is declared with what it means (its doc comment), a
//! label and unit for tables and axes, and which way is better, so every consumer
//! (blocks, `compare`, `tune`, `list`) reads the direction from one place. The names a
//! struct declares are the algorithm's metric columns, known before anything runs, so
//! configs and studies that name a column are checked up front, and journal records are
//! checked against them when read back.

use crate::pipeline::params::Value;
use serde::Deserialize;

/// Whether a larger or a smaller value of a metric is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Better {
    Higher,
    Lower,
}

impl Better {
    /// `"higher"` or `"lower"`, as configs and studies write it.
    pub fn name(self) -> &'static str {
        match self {
            Better::Higher => "higher",
            Better::Lower => "lower",
        }
    }
}

/// The declaration of one metric column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MetricSpec {
    pub name: &'static str,
    /// What it measures, in a sentence (its doc comment).
    pub meaning: &'static str,
    /// Words for a table header or an axis (`best path length`).
    pub label: &'static str,
    /// Its unit (`moves`, `s`, `nodes`), or empty.
    pub unit: &'static str,
    /// Which way is better; `None` for values that are not compared (text, counts of
    /// bookkeeping).
    pub better: Option<Better>,
    /// A number (or a boolean, counted as 0 and 1), not text.
    pub numeric: bool,
}

impl MetricSpec {
    /// The header of its column: the label with the unit, `time (s)`.
    pub fn header(&self) -> String {
        if self.unit.is_empty() {
            self.label.to_string()
        } else {
            format!("{} ({})", self.label, self.unit)
        }
    }

    /// True for a wall-clock measurement (`_seconds`, `_per_second`): never
    /// reproducible, so never raced on.
    pub fn is_timing(&self) -> bool {
        self.name.ends_with("_seconds") || self.name.ends_with("_per_second")
    }
}

/// A struct of metrics (see [`metrics!`](crate::metrics)).
pub trait Metrics: Sized {
    /// The fields' declarations, in order: the table's metric columns.
    const SPECS: &'static [MetricSpec];
    /// The fields as (name, value), in order.
    fn into_row(self) -> Vec<(&'static str, Value)>;
    /// Decodes the fields from a lookup of values by name.
    fn from_row(get: &dyn Fn(&str) -> Option<Value>) -> Result<Self, String>;
}

/// A check of a stored record's metrics.
pub type RecordCheck = fn(&[(String, Value)]) -> Result<(), String>;

/// What the pipeline knows of an algorithm's metrics without running it.
#[derive(Debug, Clone, Copy)]
pub struct MetricsSpec {
    pub specs: &'static [MetricSpec],
    /// Checks that a stored record decodes (names and types).
    pub check: RecordCheck,
}

impl MetricsSpec {
    pub fn of<M: Metrics>() -> MetricsSpec {
        MetricsSpec {
            specs: M::SPECS,
            check: |row| {
                if let Some((k, _)) = row
                    .iter()
                    .find(|(k, _)| !M::SPECS.iter().any(|s| s.name == k.as_str()))
                {
                    return Err(format!("unknown metric {k:?}"));
                }
                let get = |name: &str| row.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
                M::from_row(&get).map(|_| ())
            },
        }
    }

    /// The column names, in order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.specs.iter().map(|s| s.name)
    }

    /// The declaration of a metric.
    pub fn get(&self, name: &str) -> Option<&'static MetricSpec> {
        self.specs.iter().find(|s| s.name == name)
    }
}

/// A metric's type, decoded from a stored value.
pub trait FromValue: Sized {
    /// True for numbers and booleans, false for text.
    const NUMERIC: bool = true;
    fn from_value(name: &str, v: Option<Value>) -> Result<Self, String>;
}

fn wrong(name: &str, v: &Option<Value>, what: &str) -> String {
    match v {
        None => format!("metric {name} is missing"),
        Some(v) => format!("metric {name} = {} is not {what}", v.canonical()),
    }
}

macro_rules! int_from_value {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(name: &str, v: Option<Value>) -> Result<Self, String> {
                match &v {
                    Some(Value::Int(i)) => <$t>::try_from(*i).map_err(|_| wrong(name, &v, "in range")),
                    _ => Err(wrong(name, &v, "an integer")),
                }
            }
        }
    )*};
}
int_from_value!(i64, u64, u32, usize);

impl FromValue for f64 {
    fn from_value(name: &str, v: Option<Value>) -> Result<Self, String> {
        match &v {
            Some(Value::Float(x)) => Ok(*x),
            Some(Value::Int(i)) => Ok(*i as f64),
            // A non-finite float is stored as null.
            Some(Value::Null) => Ok(f64::NAN),
            _ => Err(wrong(name, &v, "a number")),
        }
    }
}

impl FromValue for bool {
    fn from_value(name: &str, v: Option<Value>) -> Result<Self, String> {
        match &v {
            Some(Value::Bool(b)) => Ok(*b),
            _ => Err(wrong(name, &v, "true or false")),
        }
    }
}

impl FromValue for String {
    const NUMERIC: bool = false;
    fn from_value(name: &str, v: Option<Value>) -> Result<Self, String> {
        match v {
            Some(Value::Str(s)) => Ok(s),
            other => Err(wrong(name, &other, "a string")),
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    const NUMERIC: bool = T::NUMERIC;
    fn from_value(name: &str, v: Option<Value>) -> Result<Self, String> {
        match v {
            None | Some(Value::Null) => Ok(None),
            some => T::from_value(name, some).map(Some),
        }
    }
}

/// Declares a metrics struct: its fields are the algorithm's metric columns, in order.
/// Each field has a doc comment (what it measures) and, after its type, which way is
/// better (`lower`, `higher` or `none`), its label and its unit. Timing metrics end in
/// `_seconds` or `_per_second`.
///
/// ```
/// searchlab::metrics! {
///     /// What a toy run measures.
///     pub struct ToyMetrics {
///         /// Steps taken to the goal.
///         steps: u64 [lower, "steps", "steps"],
///         /// The best value found, if any.
///         best: Option<i64> [higher, "best value", ""],
///         /// Wall-clock time of the run.
///         time_seconds: f64 [lower, "time", "s"],
///     }
/// }
/// use searchlab::pipeline::metrics::{Better, Metrics};
/// let m = ToyMetrics { steps: 3, best: None, time_seconds: 0.5 };
/// let row = m.clone().into_row();
/// let names: Vec<&str> = ToyMetrics::SPECS.iter().map(|s| s.name).collect();
/// assert_eq!(names, ["steps", "best", "time_seconds"]);
/// assert_eq!(ToyMetrics::SPECS[2].header(), "time (s)");
/// assert_eq!(ToyMetrics::SPECS[1].better, Some(Better::Higher));
/// assert_eq!(ToyMetrics::SPECS[0].meaning, "Steps taken to the goal.");
/// let back = ToyMetrics::from_row(&|k| row.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone()));
/// assert_eq!(back, Ok(m));
/// ```
#[macro_export]
macro_rules! metrics {
    ($(#[$m:meta])* pub struct $name:ident { $($(#[doc = $doc:literal])* $field:ident : $ty:ty [$better:ident, $label:literal, $unit:literal]),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct $name { $($(#[doc = $doc])* pub $field: $ty),* }

        impl $crate::pipeline::metrics::Metrics for $name {
            const SPECS: &'static [$crate::pipeline::metrics::MetricSpec] = &[$(
                $crate::pipeline::metrics::MetricSpec {
                    name: stringify!($field),
                    meaning: $crate::pipeline::metrics::trim_doc(concat!($($doc),*)),
                    label: $label,
                    unit: $unit,
                    better: $crate::__better!($better),
                    numeric: <$ty as $crate::pipeline::metrics::FromValue>::NUMERIC,
                }
            ),*];
            fn into_row(self) -> Vec<(&'static str, $crate::pipeline::params::Value)> {
                vec![$((stringify!($field), $crate::pipeline::params::Value::from(self.$field))),*]
            }
            fn from_row(
                get: &dyn Fn(&str) -> Option<$crate::pipeline::params::Value>,
            ) -> Result<Self, String> {
                Ok($name {
                    $($field: $crate::pipeline::metrics::FromValue::from_value(
                        stringify!($field),
                        get(stringify!($field)),
                    )?),*
                })
            }
        }
    };
}

/// The direction of a metric in [`metrics!`](crate::metrics).
#[doc(hidden)]
#[macro_export]
macro_rules! __better {
    (lower) => {
        Some($crate::pipeline::metrics::Better::Lower)
    };
    (higher) => {
        Some($crate::pipeline::metrics::Better::Higher)
    };
    (none) => {
        None
    };
}

/// A doc comment's text without its leading space (`/// Text` is `" Text"`), at
/// compile time.
#[doc(hidden)]
pub const fn trim_doc(s: &'static str) -> &'static str {
    match s.as_bytes() {
        [b' ', rest @ ..] => match std::str::from_utf8(rest) {
            Ok(t) => t,
            Err(_) => s,
        },
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::metrics! {
        pub struct T {
            /// A count.
            a: i64 [lower, "a", ""],
            /// A value.
            b: Option<f64> [higher, "b", "s"],
            /// A flag.
            c: bool [none, "c", ""],
        }
    }

    #[test]
    fn records_are_checked_by_name_and_type() {
        let spec = MetricsSpec::of::<T>();
        let ok = vec![
            ("a".to_string(), Value::Int(1)),
            ("b".to_string(), Value::Null),
            ("c".to_string(), Value::Bool(true)),
        ];
        assert_eq!((spec.check)(&ok), Ok(()));
        let mut bad = ok.clone();
        bad[0].1 = Value::Str("oops".into());
        assert_eq!(
            (spec.check)(&bad).unwrap_err(),
            "metric a = \"oops\" is not an integer"
        );
        let mut extra = ok.clone();
        extra.push(("d".into(), Value::Int(0)));
        assert!((spec.check)(&extra).unwrap_err().contains("unknown metric"));
        let missing = ok[1..].to_vec();
        assert!((spec.check)(&missing).unwrap_err().contains("missing"));
    }
}
