//! The proved optima as studies see them: reference values (`rjm.optimum_length`,
//! `rjm.optimum_objective`) and facts (`rjm.optima`), each proved in this process by
//! searching every part ([`super::solve::solve`]) from the stored best maze's length.
//! A size whose search does not finish in a minute has no reference.

use super::count::Big;
use super::search::Bound;
use super::solve::{Outcome, Settings, solve};
use super::tables::Tables;
use crate::present::facts::{FactFunction, FactInput, Facts, ReferenceFunction};
use crate::util::cancel::Cancel;

/// Reference values per maze size: the proved optimum.
pub const REFERENCES: &[ReferenceFunction] = &[
    ReferenceFunction {
        name: "rjm.optimum_objective",
        what: "the objective (−moves) of the longest maze of the size, proved by exhaustive search (`rjm exact`)",
        value: |size| optimum(size).map(|(n, _)| -f64::from(n)),
    },
    ReferenceFunction {
        name: "rjm.optimum_length",
        what: "the moves of the longest maze of the size, proved by exhaustive search (`rjm exact`)",
        value: |size| optimum(size).map(|(n, _)| f64::from(n)),
    },
];

/// Facts of the report's studies: the proved optimum of every size a block's runs use
/// (`rjm.optima`), and the longest path of the sizes whose best stored maze no maze
/// beats (`rjm.longest`).
pub const FACTS: &[FactFunction] = &[
    FactFunction {
        name: "rjm.optima",
        facts: &["["],
        compute: optima_facts,
    },
    FactFunction {
        name: "rjm.longest",
        facts: &["["],
        compute: longest_facts,
    },
];

/// The whole search of a size from the stored best maze's length (every length from 1
/// when none is stored), stopped after a minute: `None` then.
pub fn proved(size: usize) -> Option<Outcome> {
    let at_least = stored_length(size).unwrap_or(1);
    search_within_a_minute(size, at_least).filter(|o| o.longest() > 0)
}

/// The length of the best maze stored for a size.
fn stored_length(size: usize) -> Option<u32> {
    crate::rjm::best::built_in()
        .ok()?
        .iter()
        .find(|r| r.size == size)
        .map(|r| r.length as u32)
}

/// Every part of a size searched from `at_least` up, unless that takes over a minute.
fn search_within_a_minute(size: usize, at_least: u32) -> Option<Outcome> {
    let cancel = std::sync::Arc::new(Cancel::default());
    let timer = std::sync::Arc::clone(&cancel);
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(60));
        timer.cancel();
    });
    let settings = Settings {
        at_least,
        bound: Bound::Layers,
        threads: 1,
        cancel: Some(&cancel),
    };
    solve(size, &settings)
}

/// Per size from 5×5 to 7×7 whose stored best maze no maze beats, proved by searching
/// every part from one move more within a minute: `[7].longest` (that maze's length,
/// the longest any maze of the size has), `[7].above` (the length no maze reaches) and
/// `[7].nodes` (the search's nodes). The block's rows are not read.
fn longest_facts(_: &FactInput) -> anyhow::Result<Facts> {
    let mut f = Facts::default();
    for size in 5..=7 {
        if let Some((length, nodes)) = longest(size) {
            let key = format!("[{size}]");
            f.set(format!("{key}.longest"), i64::from(length));
            f.set(format!("{key}.above"), i64::from(length + 1));
            f.set(format!("{key}.nodes"), nodes);
        }
    }
    Ok(f)
}

/// The stored best maze's length when no maze of the size is longer (searched within a
/// minute), and the nodes of that search.
fn longest(size: usize) -> Option<(u32, u64)> {
    let length = stored_length(size)?;
    let o = search_within_a_minute(size, length + 1)?;
    o.histogram.is_empty().then_some((length, o.nodes))
}

/// The proved longest shortest path of a size (`"5"`) and the mazes reaching it.
fn optimum(size: &str) -> Option<(u32, Big)> {
    let size: usize = size.trim().parse().ok().filter(|n| (3..=10).contains(n))?;
    proved(size).map(|o| (o.longest(), o.count()))
}

/// Per size of the block's runs (`[5].optimum`, …): the optimum, the mazes reaching it,
/// all mazes, the search's nodes, and the share of the block's runs whose best maze
/// reaches it. A size whose search does not finish in a minute is an error, never a
/// guess.
fn optima_facts(input: &FactInput) -> anyhow::Result<Facts> {
    use crate::pipeline::table::{floats, texts};
    let sizes = texts(input.results, "size")?;
    let lengths = floats(input.results, "best_path_length")?;
    let mut f = Facts::default();
    for size in crate::present::charts::ordered_values(&sizes) {
        let n: usize = size.parse()?;
        let Some(e) = proved(n) else {
            anyhow::bail!("the optimum of {n}x{n} mazes is not proved within a minute");
        };
        let runs: Vec<f64> = sizes
            .iter()
            .zip(&lengths)
            .filter(|(s, _)| **s == size)
            .map(|(_, l)| l.unwrap_or(0.0))
            .collect();
        let reaching = runs
            .iter()
            .filter(|&&l| l >= f64::from(e.longest()))
            .count();
        let share = reaching as f64 / runs.len().max(1) as f64;
        let key = format!("[{size}]");
        f.set(format!("{key}.optimum"), i64::from(e.longest()));
        f.set(format!("{key}.mazes"), e.count().to_f64());
        f.set(
            format!("{key}.all_mazes"),
            Tables::new(n).all_mazes().to_f64(),
        );
        f.set(format!("{key}.nodes"), e.nodes);
        f.set(format!("{key}.runs"), runs.len());
        f.set(format!("{key}.reaching"), share);
        f.set(format!("{key}.reaching_percent"), 100.0 * share);
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_the_proved_optima() {
        let value = |name: &str, size: &str| {
            let r = REFERENCES.iter().find(|r| r.name == name).unwrap();
            (r.value)(size)
        };
        assert_eq!(value("rjm.optimum_objective", "5"), Some(-21.0));
        assert_eq!(value("rjm.optimum_length", "4"), Some(12.0));
        assert_eq!(value("rjm.optimum_length", "11"), None);
    }

    #[test]
    fn the_longest_seven_by_seven_maze_has_45_moves() {
        assert_eq!(longest(7).map(|l| l.0), Some(45));
        assert_eq!(longest(5).map(|l| l.0), Some(21));
    }
}
