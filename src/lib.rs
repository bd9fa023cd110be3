//! searchlab: reproducible experiments with search and local-search algorithms on puzzles.
//!
//! Data flows one way: a TOML config becomes a plan of seeded runs, executed in parallel
//! by a domain's runner; finished runs are journaled and turned into polars tables,
//! figures and the markdown report. The folders:
//!
//! * [`pipeline`]: configs, plans, execution, journal and tables; knows no domain.
//! * [`present`]: statistics and figures.
//! * [`report`]: studies declared in TOML, rendered block by block into markdown.
//! * [`rjm`], [`tiles`], [`pegsol`]: one folder per domain (model, algorithms, runner,
//!   facts, figures, command-line programs), registered in [`domains`].
//! * [`search`], [`local_search`]: generic algorithms over small traits.
//! * [`slurm`]: job scripts that run an experiment's shards as a Slurm job array.
//! * [`util`]: atomic writes, errors, prompts, seeded generators.
//! * [`cli`]: the command line.

pub mod cli;
pub mod domains;
pub mod local_search;
pub mod pegsol;
pub mod pipeline;
pub mod present;
pub mod report;
pub mod rjm;
pub mod search;
pub mod slurm;
pub mod tiles;
pub mod tune;
pub mod util;
