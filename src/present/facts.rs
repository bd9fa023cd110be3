//! Named facts: the values a study's answer templates quote (`{best.group}`,
//! `{caps[0].median:.1}`), computed from the tables by the report's blocks and by the
//! domains' fact functions. Facts are values, never prose: the words are the study's.
//!
//! A template is text with `{name}` or `{name:format}` holes. Formats: `.N` (N decimals,
//! trailing zeros kept), `~N` (at most N decimals), `,` (an integer with thousands
//! separators), `p` (a p-value: `p = 0.0123` or `p < 0.0001`), `%` (a fraction as a
//! percentage, one decimal). Without a format an integer prints with thousands separators
//! and a number with at most two decimals. `{{` and `}}` are literal braces.

use crate::util::numfmt::thousands;
use std::collections::BTreeMap;

/// One fact.
#[derive(Debug, Clone, PartialEq)]
pub enum Fact {
    Int(i64),
    Num(f64),
    Text(String),
}

impl From<i64> for Fact {
    fn from(v: i64) -> Self {
        Fact::Int(v)
    }
}
impl From<usize> for Fact {
    fn from(v: usize) -> Self {
        Fact::Int(i64::try_from(v).unwrap_or(i64::MAX))
    }
}
impl From<u64> for Fact {
    fn from(v: u64) -> Self {
        Fact::Int(i64::try_from(v).unwrap_or(i64::MAX))
    }
}
impl From<f64> for Fact {
    fn from(v: f64) -> Self {
        Fact::Num(v)
    }
}
impl From<&str> for Fact {
    fn from(v: &str) -> Self {
        Fact::Text(v.to_string())
    }
}
impl From<String> for Fact {
    fn from(v: String) -> Self {
        Fact::Text(v)
    }
}

/// Facts by name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Facts(pub BTreeMap<String, Fact>);

impl Facts {
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<Fact>) {
        self.0.insert(name.into(), value.into());
    }

    pub fn get(&self, name: &str) -> Option<&Fact> {
        self.0.get(name)
    }

    /// Adds every fact of `other` under `prefix.`.
    pub fn extend_prefixed(&mut self, prefix: &str, other: Facts) {
        for (k, v) in other.0 {
            let name = if prefix.is_empty() {
                k
            } else if k.starts_with('[') {
                format!("{prefix}{k}")
            } else {
                format!("{prefix}.{k}")
            };
            self.0.insert(name, v);
        }
    }
}

/// Formats a fact with a template format (see the module documentation).
pub fn format_fact(fact: &Fact, format: &str) -> Result<String, String> {
    let number = |f: &Fact| match f {
        Fact::Int(i) => Some(*i as f64),
        Fact::Num(x) => Some(*x),
        Fact::Text(t) => t.parse::<f64>().ok(),
    };
    let needs_number = || format!("format {format:?} needs a number");
    match (format, fact) {
        ("", Fact::Int(i)) | (",", Fact::Int(i)) => Ok(signed_thousands(*i)),
        ("", Fact::Num(x)) => Ok(trimmed(*x, 2).replacen('-', "−", 1)),
        ("", Fact::Text(s)) => Ok(s.clone()),
        (",", Fact::Num(x)) => Ok(signed_thousands(x.round() as i64)),
        ("p", f) => {
            let p = number(f).ok_or_else(needs_number)?;
            Ok(if p < 1e-4 {
                "p < 0.0001".to_string()
            } else {
                format!("p = {}", trimmed(p, 4))
            })
        }
        ("%", f) => {
            let x = number(f).ok_or_else(needs_number)?;
            Ok(format!("{}%", trimmed(100.0 * x, 1)))
        }
        (f, fact) if f.starts_with('.') || f.starts_with('~') => {
            let digits = decimals(f)?;
            let x = number(fact).ok_or_else(needs_number)?;
            if f.starts_with('.') {
                Ok(if x.is_finite() {
                    format!("{x:.digits$}")
                } else {
                    "–".into()
                })
            } else {
                Ok(trimmed(x, digits))
            }
        }
        _ => Err(format!(
            "unknown format {format:?} (expected .N, ~N, \",\", p or %)"
        )),
    }
}

/// The most decimals a format or a block's `digits` may ask for: an f64 has about 17
/// significant digits, and more is noise (or, past 65,535, a panic in `format!`).
pub const MAX_DECIMALS: usize = 17;

/// The decimals of a `.N` or `~N` format: N a plain number up to [`MAX_DECIMALS`].
fn decimals(format: &str) -> Result<usize, String> {
    let n = &format[1..];
    let shown = crate::util::input::excerpt(format);
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("unknown format {shown}"));
    }
    match n.parse::<usize>() {
        Ok(d) if d <= MAX_DECIMALS => Ok(d),
        _ => Err(format!(
            "format {shown} asks for more than {MAX_DECIMALS} decimals"
        )),
    }
}

/// Checks a template format without a value: an error for an unknown format or one
/// asking for too many decimals.
pub fn check_format(format: &str) -> Result<(), String> {
    match format {
        "" | "," | "p" | "%" => Ok(()),
        f if f.starts_with('.') || f.starts_with('~') => decimals(f).map(|_| ()),
        f => Err(format!(
            "unknown format {} (expected .N, ~N, \",\", p or %)",
            crate::util::input::excerpt(f)
        )),
    }
}

fn signed_thousands(i: i64) -> String {
    if i < 0 {
        format!("−{}", thousands(i.unsigned_abs()))
    } else {
        thousands(i as u64)
    }
}

/// A number with at most `digits` decimals, trailing zeros trimmed; "–" when not finite.
pub fn trimmed(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return "–".to_string();
    }
    let s = format!("{x:.digits$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" { "0".to_string() } else { s }
}

/// One hole of a template: its name and format, and its byte range.
#[derive(Debug, Clone, PartialEq)]
pub struct Hole {
    pub name: String,
    pub format: String,
}

/// The holes of a template, in order; an error for an unclosed brace.
pub fn holes(template: &str) -> Result<Vec<Hole>, String> {
    let mut out = Vec::new();
    walk(template, |h| {
        out.push(h.clone());
        Ok(String::new())
    })?;
    Ok(out)
}

/// Fills a template from `facts`; an error names the first fact that is missing.
pub fn fill(template: &str, facts: &Facts) -> Result<String, String> {
    walk(template, |h| match facts.get(&h.name) {
        Some(f) => format_fact(f, &h.format).map_err(|e| format!("{{{}}}: {e}", h.name)),
        None => Err(format!(
            "no fact named {}{}",
            crate::util::input::excerpt(&h.name),
            crate::util::suggest::did_you_mean(&h.name, facts.0.keys().map(String::as_str))
        )),
    })
}

fn walk(
    template: &str,
    mut hole: impl FnMut(&Hole) -> Result<String, String>,
) -> Result<String, String> {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some(after) = tail.strip_prefix("{{") {
            out.push('{');
            rest = after;
        } else if let Some(after) = tail.strip_prefix("}}") {
            out.push('}');
            rest = after;
        } else if tail.starts_with('}') {
            return Err("a closing brace without an opening one (write }} for a brace)".into());
        } else {
            let end = tail.find('}').ok_or_else(|| "an unclosed {".to_string())?;
            let inner = &tail[1..end];
            // The format follows the last ':' outside square brackets.
            let mut depth = 0i32;
            let mut split = None;
            for (j, c) in inner.char_indices() {
                match c {
                    '[' => depth += 1,
                    ']' => depth -= 1,
                    ':' if depth == 0 => split = Some(j),
                    _ => {}
                }
            }
            let (name, format) = match split {
                Some(j) => (&inner[..j], &inner[j + 1..]),
                None => (inner, ""),
            };
            let name = name.trim();
            if name.is_empty() {
                return Err("an empty {} in the text".into());
            }
            out.push_str(&hole(&Hole {
                name: name.to_string(),
                format: format.trim().to_string(),
            })?);
            rest = &tail[end + 1..];
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// What a domain's fact or board function sees: the rows a block selected (results and
/// anytime tables, after its filter) and the experiment's config.
pub struct FactInput<'a> {
    pub results: &'a polars::prelude::DataFrame,
    pub anytime: &'a polars::prelude::DataFrame,
    pub config: &'a crate::pipeline::config::Config,
}

#[derive(Clone, Copy)]
/// A domain's named computation of facts (values, never prose) from a block's rows.
pub struct FactFunction {
    /// `domain.name`, as studies write it.
    pub name: &'static str,
    /// The facts it computes; `name[` marks a family such as `sizes[7].length`.
    pub facts: &'static [&'static str],
    pub compute: fn(&FactInput) -> anyhow::Result<Facts>,
}

#[derive(Clone, Copy)]
/// A domain's reference value of a problem, given as the text of the value of the
/// column that names problems (a maze size `"7"`): what targets relative to a reference
/// are fractions of. `what` says what the value is, for messages and `list`.
pub struct ReferenceFunction {
    pub name: &'static str,
    pub what: &'static str,
    pub value: fn(&str) -> Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_fill_with_formats() {
        let mut f = Facts::default();
        f.set("best.group", "geometric");
        f.set("best.median", 18.5);
        f.set("runs", 12345usize);
        f.set("p", 0.00001);
        f.set("caps[0.5].median", 3.0);
        assert_eq!(
            fill(
                "**{best.group}** at {best.median:.1} ({runs} runs, {p:p}); {caps[0.5].median:~2} {{x}}",
                &f
            )
            .unwrap(),
            "**geometric** at 18.5 (12,345 runs, p < 0.0001); 3 {x}"
        );
        assert_eq!(
            fill("{nothing}", &f).unwrap_err(),
            "no fact named \"nothing\""
        );
        assert!(fill("{best.group:.2}", &f).is_err());
        assert!(fill("{best.group", &f).is_err());
        assert_eq!(
            holes("a {x:.1} b {y[1:2]}").unwrap(),
            vec![
                Hole {
                    name: "x".into(),
                    format: ".1".into()
                },
                Hole {
                    name: "y[1:2]".into(),
                    format: "".into()
                }
            ]
        );
    }

    #[test]
    fn numbers_format_as_the_report_writes_them() {
        assert_eq!(format_fact(&Fact::Num(0.25), "%").unwrap(), "25%");
        assert_eq!(format_fact(&Fact::Int(-1500), "").unwrap(), "−1,500");
        assert_eq!(format_fact(&Fact::Num(2.0), ".2").unwrap(), "2.00");
        assert_eq!(format_fact(&Fact::Num(0.01234), "p").unwrap(), "p = 0.0123");
        assert_eq!(trimmed(-0.0001, 2), "0");
    }
}
