//! searchlab: reproducible experiments with search and local-search algorithms on puzzles.
//!
//! Data flows one way: a TOML config becomes a plan of seeded runs, executed in parallel
//! by a domain's algorithms; finished runs are journaled and turned into polars tables,
//! figures and the report. The modules form layers, each using only those below it
//! (a test of the crate's source checks it), from the bottom:
//!
//! 1. [`util`]: atomic writes, errors, input limits, seeded generators, the built-in
//!    configs and studies.
//! 2. [`search`], [`local_search`]: generic algorithms over small traits.
//! 3. [`stats`]: descriptive statistics, distributions, rank tests, effect sizes.
//! 4. [`pipeline`]: params, metrics, configs, plans, the runner interface, execution,
//!    journals, tables, shards and merge; no figure, study or tuning.
//! 5. [`present`]: views of tables, summaries, comparisons, facts, figures.
//! 6. [`domain`]: what a domain is (its descriptor).
//! 7. [`rjm`], [`tiles`], [`pegsol`]: one folder per domain, never using each other.
//! 8. [`tune`]: racing a config's settings.
//! 9. [`study`]: studies declared in TOML (questions, blocks, answers), checked on loading.
//! 10. [`report`]: studies rendered block by block into the report.
//! 11. [`slurm`]: an experiment or a study as a Slurm job array.
//! 12. [`registry`]: the list of domains.
//! 13. [`cli`]: the command line.

pub mod cli;
pub mod domain;
pub mod local_search;
pub mod pegsol;
pub mod pipeline;
pub mod present;
pub mod registry;
pub mod report;
pub mod rjm;
pub mod search;
pub mod slurm;
pub mod stats;
pub mod study;
pub mod tiles;
pub mod tune;
pub mod util;
