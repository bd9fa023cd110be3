//! The registry of domains: every puzzle the pipeline can run, each through its
//! [`Runner`]. A new domain is one folder (model, algorithms, runner, facts, figures,
//! CLI) plus one line here.

use crate::pipeline::runner::Runner;

/// Every domain the pipeline can run.
pub fn runners() -> Vec<Box<dyn Runner>> {
    vec![
        Box::new(crate::rjm::runner::RjmRunner),
        Box::new(crate::tiles::runner::TilesRunner),
        Box::new(crate::pegsol::runner::PegsolRunner),
    ]
}

/// Every domain's fact and board functions, for the report's studies.
pub fn functions() -> crate::report::blocks::Functions {
    let mut facts = Vec::new();
    let mut boards = Vec::new();
    for (f, b) in [
        (crate::rjm::facts::FACTS, crate::rjm::facts::BOARDS),
        (crate::tiles::facts::FACTS, crate::tiles::facts::BOARDS),
        (crate::pegsol::facts::FACTS, crate::pegsol::facts::BOARDS),
    ] {
        facts.extend_from_slice(f);
        boards.extend_from_slice(b);
    }
    crate::report::blocks::Functions { facts, boards }
}

#[cfg(test)]
mod tests {
    use crate::pipeline::plan::{ANYTIME_COLUMNS, RUN_COLUMNS};

    #[test]
    fn every_algorithms_columns_are_distinct() {
        // A parameter named like a metric (or a pipeline column) would make two table
        // columns of one name.
        for runner in super::runners() {
            for a in runner.algorithms() {
                let mut seen = std::collections::BTreeSet::new();
                let names = RUN_COLUMNS
                    .iter()
                    .chain(&ANYTIME_COLUMNS)
                    .copied()
                    .chain(a.params.iter().map(|p| p.name))
                    .chain(a.metrics.names.iter().copied());
                for n in names {
                    assert!(
                        seen.insert(n),
                        "{}/{}: column {n} twice",
                        runner.domain(),
                        a.name
                    );
                }
            }
        }
    }
}
