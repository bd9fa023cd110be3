//! Named facts: the values a study's answer templates quote (`{best.group}`,
//! `{caps[0].median:.1}`), computed from the tables by the report's blocks and by the
//! domains' fact functions. Facts are values, never prose: the words are the study's.
//!
//! A template is text with `{name}` or `{name:format}` holes. Formats: `.N` (N decimals,
//! trailing zeros kept), `~N` (at most N decimals), `.Ng` (N significant digits), `,` (an
//! integer with thousands separators), `p` (a p-value: `p = 0.0123` or `p < 0.0001`), `%`
//! (a fraction as a percentage, one decimal). A hole may hold the ratio or the difference
//! of two facts, the operator spaced: `{speed[all].median / speed[manhattan].median:~1}`.
//! Without a format an integer prints with
//! thousands separators and a number with three significant digits (all of its integer
//! digits from 100 up). No format but `.N` rounds a value that is not 0 to 0: `~N` and
//! `%` show such a value with two significant digits (`0.0039`). `{{` and `}}` are
//! literal braces.

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
        ("", Fact::Num(x)) => Ok(significant(*x, 3)),
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
            Ok(format!("{}%", at_most(100.0 * x, 1)))
        }
        (f, fact) if f.starts_with('.') && f.ends_with('g') => {
            let digits = decimals(&f[..f.len() - 1])?.max(1);
            let x = number(fact).ok_or_else(needs_number)?;
            // Integer digits past the N-th are rounded too (58,750 to 2 digits: 59,000).
            let excess = x.abs().log10().floor() as i32 + 1 - digits as i32;
            let x = match x.is_finite() && x != 0.0 && excess > 0 {
                true => (x / 10f64.powi(excess)).round() * 10f64.powi(excess),
                false => x,
            };
            Ok(significant(x, digits))
        }
        (f, fact) if f.starts_with('.') || f.starts_with('~') => {
            let digits = decimals(f)?;
            let x = number(fact).ok_or_else(needs_number)?;
            if f.starts_with('.') {
                Ok(if x.is_finite() {
                    grouped(&format!("{x:.digits$}"))
                } else {
                    "–".into()
                })
            } else {
                Ok(at_most(x, digits).replacen('-', "−", 1))
            }
        }
        _ => Err(format!(
            "unknown format {format:?} (expected .N, ~N, .Ng, \",\", p or %)"
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
        f if f.starts_with('.') && f.ends_with('g') => decimals(&f[..f.len() - 1]).map(|_| ()),
        f if f.starts_with('.') || f.starts_with('~') => decimals(f).map(|_| ()),
        f => Err(format!(
            "unknown format {} (expected .N, ~N, .Ng, \",\", p or %)",
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

/// A number's text with thousands separators in its integer part from 1,000 up
/// (`1234.50` → `1,234.50`), as the report's tables write it.
fn grouped(text: &str) -> String {
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => ("−", rest),
        None => ("", text),
    };
    let (whole, fraction) = digits.split_at(digits.find('.').unwrap_or(digits.len()));
    match whole.parse::<u64>() {
        Ok(w) if w >= 1000 => format!("{sign}{}{fraction}", thousands(w)),
        _ => format!("{sign}{digits}"),
    }
}

/// `x` with at most `digits` decimals, trailing zeros trimmed; a value that is not 0 but
/// would print as 0 gets two significant digits instead. From 1,000 up, as in the
/// report's tables: a whole number with thousands separators.
fn at_most(x: f64, digits: usize) -> String {
    if x.is_finite() && x.abs() >= 1000.0 && x.abs() < 9e15 {
        return signed_thousands(x.round() as i64);
    }
    let s = trimmed(x, digits);
    if s == "0" && x != 0.0 && x.is_finite() {
        significant(x, 2)
    } else {
        s
    }
}

/// `x` to `digits` significant digits (trailing zeros trimmed; every integer digit kept,
/// with thousands separators from 1,000 up), a minus sign (−) for negatives, "–" when
/// not finite.
pub fn significant(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return "–".to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let magnitude = x.abs().log10().floor() as i64;
    let decimals = (digits as i64 - 1 - magnitude).max(0) as usize;
    let text = trimmed(x.abs(), decimals.min(MAX_DECIMALS + 6));
    let text = match text.split_once('.') {
        Some(_) => text,
        None if x.abs() >= 1000.0 && x.abs() < 9e15 => thousands(x.abs().round() as u64),
        None => text,
    };
    if x < 0.0 { format!("−{text}") } else { text }
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
    walk(template, |h| {
        let value = match operation(&h.name)? {
            Some((a, op, b)) => combine(fact(facts, a)?, op, fact(facts, b)?)
                .map_err(|e| format!("{{{}}}: {e}", h.name))?,
            None => fact(facts, &h.name)?.clone(),
        };
        format_fact(&value, &h.format).map_err(|e| format!("{{{}}}: {e}", h.name))
    })
}

/// The fact of a name; an error naming it (and the nearest names) when there is none.
fn fact<'a>(facts: &'a Facts, name: &str) -> Result<&'a Fact, String> {
    facts.get(name).ok_or_else(|| {
        format!(
            "no fact named {}{}",
            crate::util::input::excerpt(name),
            crate::util::suggest::did_you_mean(name, facts.0.keys().map(String::as_str))
        )
    })
}

/// A hole's operation, if it has one: `a / b` (a ratio) or `a - b` (a difference) of
/// two facts, the operator spaced and outside square brackets (`{x[pdb:5-5-5].n}` is
/// one fact). One operation per hole.
pub fn operation(name: &str) -> Result<Option<(&str, char, &str)>, String> {
    let mut depth = 0i32;
    let mut found = Vec::new();
    for (i, c) in name.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            '/' | '-'
                if depth == 0 && name[..i].ends_with(' ') && name[i + 1..].starts_with(' ') =>
            {
                found.push((i, c))
            }
            _ => {}
        }
    }
    match found.as_slice() {
        [] => Ok(None),
        [(i, op)] => {
            let (a, b) = (name[..*i].trim(), name[i + 1..].trim());
            match a.is_empty() || b.is_empty() {
                true => Err(format!(
                    "{{{name}}}: an operation needs a fact on each side"
                )),
                false => Ok(Some((a, *op, b))),
            }
        }
        _ => Err(format!(
            "{{{name}}}: one operation per hole (a / b or a - b of two facts)"
        )),
    }
}

/// `a / b` or `a - b` of two facts that are numbers: a ratio is a number (not finite
/// when `b` is 0: printed `–`), a difference of integers an integer.
fn combine(a: &Fact, op: char, b: &Fact) -> Result<Fact, String> {
    let number = |f: &Fact| match f {
        Fact::Int(i) => Ok(*i as f64),
        Fact::Num(x) => Ok(*x),
        Fact::Text(t) => Err(format!(
            "{op} needs numbers, not {}",
            crate::util::input::excerpt(t)
        )),
    };
    Ok(match (op, a, b) {
        ('-', Fact::Int(x), Fact::Int(y)) => Fact::Int(x.saturating_sub(*y)),
        ('-', ..) => Fact::Num(number(a)? - number(b)?),
        _ => Fact::Num(number(a)? / number(b)?),
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
/// A domain's canonical form of a run's algorithm and parameters: runs with equal forms
/// run the same algorithm, whatever their names (an annealing schedule whose decay is 1
/// keeps its temperature: it is the constant one). The report, which knows no domain,
/// says so where a ranking compares such groups.
pub struct CanonicalFunction {
    /// The algorithm whose runs it reads (the results' `algorithm` column).
    pub algorithm: &'static str,
    /// From a run's row (column → text): its canonical key, and words for a reader
    /// naming the effective algorithm (`constant temperature T0 = 0.5`).
    pub canonical: Canonical,
}

/// A canonical-form function: a run's row (column → text) to its canonical key and the
/// words naming it, `None` when the row is not one it reads.
pub type Canonical = fn(&BTreeMap<String, String>) -> Option<(String, String)>;

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
        // Ratios and differences of two facts; a dash inside brackets is part of a name.
        f.set("x[pdb:5-5-5].n", 7i64);
        f.set("x[all].n", 2i64);
        assert_eq!(
            fill("{x[pdb:5-5-5].n / x[all].n:~2}, {x[pdb:5-5-5].n - x[all].n}, {best.median / x[all].n}", &f).unwrap(),
            "3.5, 5, 9.25"
        );
        assert_eq!(fill("{runs / p:,}", &f).unwrap(), "1,234,500,000");
        assert!(
            fill("{x[all].n / best.group}", &f)
                .unwrap_err()
                .contains("needs numbers")
        );
        assert!(
            fill("{x[all].n / nothing}", &f)
                .unwrap_err()
                .contains("no fact named \"nothing\"")
        );
        assert!(
            fill("{runs / p / p}", &f)
                .unwrap_err()
                .contains("one operation per hole")
        );
        assert_eq!(operation("caps[0.5].median").unwrap(), None);
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
        // Nothing that is not 0 prints as 0, and defaults keep three significant digits.
        for (x, format, want) in [
            (0.0039, "", "0.0039"),
            (0.003912, "", "0.00391"),
            (50.5, "", "50.5"),
            (18.6789, "", "18.7"),
            (58750.0, "", "58,750"),
            (-0.25, "", "−0.25"),
            (0.0039, "~2", "0.0039"),
            (0.0039, "p", "p = 0.0039"),
            (0.00004, "%", "0.004%"),
            (58750.0, ".2g", "59,000"),
            (0.0039123, ".2g", "0.0039"),
            (-1.5, "~0", "−2"),
            // From 1,000 up, as the tables write numbers: thousands separators, and
            // `~N` drops the decimals there.
            (1468.8, "~1", "1,469"),
            (999.94, "~1", "999.9"),
            (1234.5, ".2", "1,234.50"),
            (-1234.5, ".1", "−1,234.5"),
            (-2.0, ".2", "−2.00"),
        ] {
            assert_eq!(
                format_fact(&Fact::Num(x), format).unwrap(),
                want,
                "{x} {format}"
            );
        }
        // A quoted number reads as the table beside it does.
        for x in [586.8, 1468.8, 20_000.0, -0.004, 12.25, 123_456.7] {
            assert_eq!(
                format_fact(&Fact::Num(x), "~2").unwrap(),
                crate::present::format::number(x, 2),
                "{x}"
            );
        }
        assert!(check_format(".2g").is_ok());
        assert!(check_format(".xg").is_err());
    }
}
