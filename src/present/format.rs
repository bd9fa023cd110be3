//! Tables as a reader sees them, formatted one way everywhere in a report: numbers with
//! thousands separators (integers as integers, large numbers without decimals, others
//! with a few decimals), a minus sign for negatives, intervals to three significant
//! digits, booleans as yes/no, a dash for a missing value, and long lists of values
//! summarised. Also the markdown of a table and the aggregates tables show.

use crate::pipeline::table::{floats, texts};
use crate::present::charts::ordered_values;
use crate::util::numfmt::thousands;
use polars::prelude::DataFrame;
use serde::Deserialize;

/// A GitHub-style markdown table.
pub fn markdown_table(headers: &[String], rows: &[Vec<String>]) -> String {
    let heads: Vec<String> = headers.iter().map(|h| cell(h)).collect();
    let mut out = format!(
        "| {} |\n|{}\n",
        heads.join(" | "),
        headers.iter().map(|_| "---|").collect::<String>()
    );
    for r in rows {
        let cells: Vec<String> = r.iter().map(|c| cell(c)).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}

/// A value as one table cell: a `|` in it (a partition, a journal's text) escaped and
/// line breaks made spaces, so that no value can split or end the table's row.
fn cell(text: &str) -> String {
    if !text.contains(['|', '\n', '\r']) {
        return text.to_string();
    }
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// The anchor GitHub gives a heading.
pub fn anchor(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// A number for a table: an integer with thousands separators; from 1,000 up, no
/// decimals; below, at most `digits` decimals (trailing zeros dropped), or two
/// significant digits for a value that would round to 0; `–` when not finite. Negative numbers take a minus sign (−).
pub fn number(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return "–".into();
    }
    let sign = if x < 0.0 { "−" } else { "" };
    let a = x.abs();
    let rounded_whole = a.round();
    if a >= 1000.0 || (a.fract() == 0.0) {
        if rounded_whole >= 9e15 {
            return format!("{sign}{}", scientific(a));
        }
        return format!("{sign}{}", thousands(rounded_whole as u64));
    }
    let text = match crate::present::facts::trimmed(a, digits) {
        // Nothing that is not 0 prints as 0: two significant digits instead.
        t if t == "0" && a > 0.0 => crate::present::facts::significant(a, 2),
        t => t,
    };
    format!("{sign}{text}")
}

/// A huge number as a reader writes it: `2.59 × 10²²` (three significant digits).
fn scientific(a: f64) -> String {
    let text = format!("{a:.2e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let superscript: String = exponent
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹']
                [d.to_digit(10).unwrap_or(0) as usize],
        })
        .collect();
    format!("{mantissa} × 10{superscript}")
}

/// A number to `significant` significant digits (for intervals and p-like values),
/// with thousands separators from 1,000 up.
pub fn significant(x: f64, significant: usize) -> String {
    if !x.is_finite() || x == 0.0 {
        return number(x, 0);
    }
    let magnitude = x.abs().log10().floor() as i64;
    let decimals = (significant as i64 - 1 - magnitude).max(0) as usize;
    number(x, decimals)
}

/// An interval `[low, high]` to three significant digits.
pub fn interval(low: f64, high: f64) -> String {
    format!("[{}, {}]", significant(low, 3), significant(high, 3))
}

/// A table cell from a column's text: numbers as [`number`], booleans as yes/no, empty
/// as `–`, the rest as is.
pub fn text_cell(s: &str, digits: usize) -> String {
    match s {
        "" => "–".into(),
        "true" => "yes".into(),
        "false" => "no".into(),
        // A whole number (a count, a seed) exactly, whatever its size.
        _ if s.len() > 15 && s.bytes().all(|b| b.is_ascii_digit()) => match s.parse::<u64>() {
            Ok(n) => thousands(n),
            Err(_) => s.to_string(),
        },
        _ => match s.parse::<f64>() {
            Ok(x) => number(x, digits),
            Err(_) => s.to_string(),
        },
    }
}

/// Values as a reader wants them listed: all of them when there are at most ten;
/// else their count and their range (`100 seeds, 0–99`), `what` naming them.
pub fn value_list(values: &[String], what: &str) -> String {
    if values.len() <= 10 {
        return values.join(", ");
    }
    let numbers: Option<Vec<f64>> = values
        .iter()
        .map(|v| v.replace([',', '−'], "").parse().ok())
        .collect();
    match numbers {
        Some(n) => {
            let lo = n.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = n.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            format!(
                "{} {what}, {}–{}",
                values.len(),
                number(lo, 3),
                number(hi, 3)
            )
        }
        None => format!(
            "{} {what}: {}, …, {}",
            values.len(),
            values[0],
            values[values.len() - 1]
        ),
    }
}

/// An aggregate of a pivot or aggregate block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Aggregate {
    #[default]
    Median,
    Mean,
    Sum,
    Min,
    Max,
    Count,
    /// The first value (for settings that run once).
    First,
}

/// One aggregate of a metric over rows (nulls count as `missing`, or are left out).
pub fn aggregate(
    rows: &DataFrame,
    metric: &str,
    how: Aggregate,
    missing: Option<f64>,
) -> anyhow::Result<f64> {
    let v: Vec<f64> = floats(rows, metric)?
        .into_iter()
        .filter_map(|x| x.or(missing))
        .collect();
    let nan = f64::NAN;
    Ok(match how {
        Aggregate::Median => crate::stats::median(&v).unwrap_or(nan),
        Aggregate::Mean => crate::stats::mean(&v).unwrap_or(nan),
        Aggregate::Sum => v.iter().sum(),
        Aggregate::Min => v.iter().copied().fold(f64::INFINITY, f64::min),
        Aggregate::Max => v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        Aggregate::Count => v.len() as f64,
        Aggregate::First => v.first().copied().unwrap_or(nan),
    })
}

/// Rows sorted by columns, numerically where values are numbers.
pub fn sorted(df: &DataFrame, by: &[String]) -> anyhow::Result<DataFrame> {
    let keys: Vec<Vec<String>> = by
        .iter()
        .map(|c| texts(df, c))
        .collect::<anyhow::Result<_>>()?;
    let orders: Vec<Vec<String>> = keys.iter().map(|k| ordered_values(k)).collect();
    let mut idx: Vec<usize> = (0..df.height()).collect();
    idx.sort_by_key(|&i| {
        keys.iter()
            .zip(&orders)
            .map(|(k, o)| o.iter().position(|v| *v == k[i]).unwrap_or(usize::MAX))
            .collect::<Vec<_>>()
    });
    let idx: polars::prelude::IdxCa = idx
        .into_iter()
        .map(|i| Some(i as polars::prelude::IdxSize))
        .collect();
    Ok(df.take(&idx)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_one_way() {
        assert_eq!(number(146_576_131.4, 2), "146,576,131");
        assert_eq!(number(3608.5, 1), "3,609");
        assert_eq!(number(12.0, 2), "12");
        assert_eq!(number(-1500.0, 0), "−1,500");
        assert_eq!(number(0.123456, 2), "0.12");
        assert_eq!(number(-0.0001, 2), "−0.0001");
        assert_eq!(number(0.4, 0), "0.4");
        assert_eq!(number(f64::NAN, 2), "–");
        assert_eq!(number(2.592e22, 0), "2.59 × 10²²");
        assert_eq!(number(-1.0e16, 0), "−1.00 × 10¹⁶");
        assert_eq!(significant(0.0123456, 3), "0.0123");
        assert_eq!(significant(17.5123, 3), "17.5");
        assert_eq!(interval(0.40383, 0.59617), "[0.404, 0.596]");
        assert_eq!(text_cell("true", 1), "yes");
        assert_eq!(text_cell("", 1), "–");
        assert_eq!(text_cell("pdb:5-5-5", 1), "pdb:5-5-5");
        assert_eq!(text_cell("12284001", 0), "12,284,001");
        assert_eq!(
            text_cell("17000000000000000001", 0),
            "17,000,000,000,000,000,001"
        );
    }

    #[test]
    fn long_lists_are_summarised() {
        let seeds: Vec<String> = (0..100).map(|i| i.to_string()).collect();
        assert_eq!(value_list(&seeds, "seeds"), "100 seeds, 0–99");
        assert_eq!(value_list(&seeds[..3], "seeds"), "0, 1, 2");
        assert_eq!(
            markdown_table(&["a".into(), "b".into()], &[vec!["1".into(), "2".into()]]),
            "| a | b |\n|---|---|\n| 1 | 2 |\n"
        );
        assert_eq!(
            anchor("Rook Jumping Maze: design"),
            "rook-jumping-maze-design"
        );
    }
}
