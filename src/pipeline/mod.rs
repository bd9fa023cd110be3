//! The experiment pipeline, free of any domain, figure, study or tuning: parameters and
//! their specs ([`params`]), metric declarations ([`metrics`]), configs ([`config`]),
//! the plan of seeded runs ([`plan`]), the [`runner`] interface domains implement,
//! parallel execution ([`execute`]) with its journal of finished runs ([`journal`]) and
//! the runs the journals hold ([`recorded`]), result tables ([`results`], [`table`]),
//! manifests ([`manifest`]), progress display ([`progress`]), and the partition of a
//! plan into shards ([`shard`]) whose journals [`merge`] combines.
//!
//! Data flows one way: config → plan → execute (runner) → journal → tables.

pub mod config;
pub mod execute;
pub mod journal;
pub mod manifest;
pub mod merge;
pub mod metrics;
pub mod params;
pub mod plan;
pub mod progress;
pub mod recorded;
pub mod results;
pub mod runner;
pub mod shard;
pub mod table;
