//! Facts of the peg-solitaire domain for the report's studies: which levels the
//! budgeted DFS finishes with one peg at every budget, and the most expansions it needed
//! there (`pegsol.budget`).

use crate::pipeline::table::floats;
use crate::present::facts::{FactFunction, FactInput, Facts};
use crate::present::figure::BoardFunction;

pub const FACTS: &[FactFunction] = &[FactFunction {
    name: "pegsol.budget",
    facts: &["one_peg_levels", "one_peg_most_expanded", "other_levels"],
    compute: budget,
}];

pub const BOARDS: &[BoardFunction] = &[];

/// Levels that end with one peg at every budget, and the others.
fn budget(input: &FactInput) -> anyhow::Result<Facts> {
    let level = floats(input.results, "level")?;
    let pegs = floats(input.results, "pegs_left")?;
    let expanded = floats(input.results, "expanded")?;
    let mut levels: Vec<i64> = level.iter().flatten().map(|&l| l as i64).collect();
    levels.sort_unstable();
    levels.dedup();
    let level = &level;
    let rows = |l: i64| (0..level.len()).filter(move |&i| level[i] == Some(l as f64));
    let (one, other): (Vec<i64>, Vec<i64>) = levels
        .iter()
        .partition(|&&l| rows(l).all(|i| pegs[i] == Some(1.0)));
    let most = one
        .iter()
        .flat_map(|&l| rows(l).filter_map(|i| expanded[i]))
        .fold(0.0f64, f64::max);
    let list = |v: &[i64]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    let mut f = Facts::default();
    f.set("one_peg_levels", list(&one));
    f.set("other_levels", list(&other));
    f.set("one_peg_most_expanded", most);
    Ok(f)
}
