//! Small markdown helpers for the report: tables, number formatting, anchors.

/// A GitHub-style markdown table.
pub fn table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = format!(
        "| {} |\n|{}\n",
        headers.join(" | "),
        headers.iter().map(|_| "---|").collect::<String>()
    );
    for r in rows {
        out.push_str(&format!("| {} |\n", r.join(" | ")));
    }
    out
}

/// A number with at most `digits` decimals, trailing zeros trimmed.
pub fn num(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return "–".to_string();
    }
    let s = format!("{x:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

pub use crate::util::numfmt::thousands;

/// A p-value as text.
pub fn p_value(p: f64) -> String {
    if p < 1e-4 {
        "p < 0.0001".to_string()
    } else {
        format!("p = {}", num(p, 4))
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(num(2.50, 2), "2.5");
        assert_eq!(num(3.0, 2), "3");
        assert_eq!(thousands(499_911_606), "499,911,606");
        assert_eq!(thousands(12), "12");
        assert_eq!(
            anchor("Rook Jumping Maze: design"),
            "rook-jumping-maze-design"
        );
        assert_eq!(
            table(&["a", "b"], &[vec!["1".into(), "2".into()]]),
            "| a | b |\n|---|---|\n| 1 | 2 |\n"
        );
    }
}
