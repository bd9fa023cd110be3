//! "Did you mean": the known names nearest a mistyped one, so that a message can offer
//! a few instead of listing hundreds.

/// At most three of `known` nearest `name` (Jaro–Winkler similarity of at least 0.8,
/// or the name contained in them), best first, each once.
pub fn nearest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let lower = name.to_lowercase();
    let mut scored: Vec<(f64, &str)> = known
        .into_iter()
        .map(|k| {
            let mut score = strsim::jaro_winkler(&lower, &k.to_lowercase());
            if lower.len() >= 3 && k.to_lowercase().contains(&lower) {
                score = score.max(0.85);
            }
            (score, k)
        })
        .filter(|(s, _)| *s >= 0.8)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    let mut out: Vec<&str> = Vec::new();
    for (_, k) in scored {
        if !out.contains(&k) {
            out.push(k);
        }
        if out.len() == 3 {
            break;
        }
    }
    out
}

/// "; did you mean a or b?" for the nearest names, or nothing when none is near.
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let near = nearest(name, known);
    match near.as_slice() {
        [] => String::new(),
        [one] => format!("; did you mean {one}?"),
        [init @ .., last] => format!("; did you mean {} or {last}?", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_names_are_offered_and_far_ones_not() {
        let known = [
            "best_path_length",
            "best_evaluation",
            "best_objective",
            "time_seconds",
        ];
        assert_eq!(nearest("best_path_lenght", known)[0], "best_path_length");
        assert_eq!(
            did_you_mean("bset_objective", known),
            "; did you mean best_objective?"
        );
        assert_eq!(nearest("zzz", known), Vec::<&str>::new());
        assert_eq!(did_you_mean("zzz", known), "");
        let facts = ["c.best.group", "c.best.median", "c.second.group"];
        assert_eq!(nearest("c.bset.group", facts)[0], "c.best.group");
        // Each once, at most three.
        let many = ["ab", "ab", "abc", "abd", "abe"];
        let got = nearest("ab", many);
        assert_eq!(got.len(), 3);
        assert_eq!(got[0], "ab");
    }
}
