//! searchlab: reproducible experiments with search and local-search algorithms on puzzles.
//!
//! Data flows one way: a TOML config ([`config`]) becomes a plan of seeded runs
//! ([`plan`]), executed in parallel ([`execute`]) by a domain's [`runner::Runner`]
//! ([`adapters`]); finished runs are journaled ([`records`]) and turned into polars
//! tables ([`table`]), summaries ([`summary`]), figures ([`plot`], [`charts`]) and the
//! markdown report ([`report`]). Domains ([`rjm`], [`tiles`], [`pegsol`]) and the search
//! algorithms ([`search`], [`local_search`]) know nothing of that pipeline.

pub mod adapters;
pub mod atomic;
pub mod charts;
pub mod cli;
pub mod config;
pub mod error;
pub mod execute;
pub mod local_search;
pub mod numfmt;
pub mod params;
pub mod pegsol;
pub mod plan;
pub mod plot;
pub mod progress;
pub mod prompt;
pub mod records;
pub mod report;
pub mod rjm;
pub mod rng;
pub mod runner;
pub mod search;
pub mod stats;
pub mod summary;
pub mod table;
pub mod tiles;
pub mod timestamp;
