//! Typed metrics: one struct per algorithm, declared with [`metrics!`](crate::metrics),
//! serialised into a run's row (its fields in order, one column each) and decoded back
//! from a row for facts. The names a struct declares are the algorithm's metric columns,
//! known before anything runs, so configs and studies that name a column are checked
//! up front, and journal records are checked against them when read back.

use crate::pipeline::params::Value;

/// A struct of metrics (see [`metrics!`](crate::metrics)).
pub trait Metrics: Sized {
    /// The field names, in order: the table's metric columns.
    const NAMES: &'static [&'static str];
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
    pub names: &'static [&'static str],
    /// Checks that a stored record decodes (names and types).
    pub check: RecordCheck,
}

impl MetricsSpec {
    pub fn of<M: Metrics>() -> MetricsSpec {
        MetricsSpec {
            names: M::NAMES,
            check: |row| {
                if let Some((k, _)) = row.iter().find(|(k, _)| !M::NAMES.contains(&k.as_str())) {
                    return Err(format!("unknown metric {k:?}"));
                }
                let get = |name: &str| row.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
                M::from_row(&get).map(|_| ())
            },
        }
    }
}

/// A metric's type, decoded from a stored value.
pub trait FromValue: Sized {
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
    fn from_value(name: &str, v: Option<Value>) -> Result<Self, String> {
        match v {
            Some(Value::Str(s)) => Ok(s),
            other => Err(wrong(name, &other, "a string")),
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(name: &str, v: Option<Value>) -> Result<Self, String> {
        match v {
            None | Some(Value::Null) => Ok(None),
            some => T::from_value(name, some).map(Some),
        }
    }
}

/// Declares a metrics struct: its fields are the algorithm's metric columns, in order.
/// Timing metrics end in `_seconds` or `_per_second`.
///
/// ```
/// searchlab::metrics! {
///     /// What a toy run measures.
///     pub struct ToyMetrics {
///         steps: u64,
///         best: Option<i64>,
///         time_seconds: f64,
///     }
/// }
/// use searchlab::pipeline::metrics::Metrics;
/// let m = ToyMetrics { steps: 3, best: None, time_seconds: 0.5 };
/// let row = m.clone().into_row();
/// assert_eq!(ToyMetrics::NAMES, &["steps", "best", "time_seconds"]);
/// let back = ToyMetrics::from_row(&|k| row.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone()));
/// assert_eq!(back, Ok(m));
/// ```
#[macro_export]
macro_rules! metrics {
    ($(#[$m:meta])* pub struct $name:ident { $($(#[$fm:meta])* $field:ident : $ty:ty),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct $name { $($(#[$fm])* pub $field: $ty),* }

        impl $crate::pipeline::metrics::Metrics for $name {
            const NAMES: &'static [&'static str] = &[$(stringify!($field)),*];
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

#[cfg(test)]
mod tests {
    use super::*;

    crate::metrics! {
        pub struct T {
            a: i64,
            b: Option<f64>,
            c: bool,
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
