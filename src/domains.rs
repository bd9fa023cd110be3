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
