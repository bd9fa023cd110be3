//! The experiment pipeline, free of any domain: parameters and their specs ([`params`]),
//! configs ([`config`]), the plan of seeded runs ([`plan`]), the [`runner::Runner`] trait
//! domains implement, parallel execution ([`execute`]) with its journal of finished runs
//! ([`journal`]), result tables ([`table`]), per-experiment summaries and plots
//! ([`summary`]), progress display ([`progress`]), and the partition of a plan into
//! shards ([`shard`]) whose journals [`merge`] combines.
//!
//! Data flows one way: config → plan → execute (runner) → journal → tables.

pub mod config;
pub mod execute;
pub mod journal;
pub mod merge;
pub mod metrics;
pub mod params;
pub mod plan;
pub mod progress;
pub mod runner;
pub mod shard;
pub mod summary;
pub mod table;
