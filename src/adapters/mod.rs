//! Adapters: each turns one domain's algorithms into pipeline runs (the [`Runner`]
//! trait), translating checked parameters into domain calls and results into metrics.
//! They are the only code that knows both a domain and the pipeline's vocabulary.

pub mod pegsol;
pub mod rjm;
pub mod tiles;

use crate::runner::Runner;

/// Every domain the pipeline can run.
pub fn runners() -> Vec<Box<dyn Runner>> {
    vec![
        Box::new(rjm::RjmRunner),
        Box::new(tiles::TilesRunner),
        Box::new(pegsol::PegsolRunner),
    ]
}
