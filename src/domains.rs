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
