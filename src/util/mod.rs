//! Small utilities shared by every layer: atomic file writes ([`atomic`]), user errors
//! and exit codes ([`error`]), reading input with limits ([`input`]), memory budgets ([`memory`]), number formatting ([`numfmt`]), progress notes that `--quiet` silences
//! ([`notice`]), the seeds' interactive
//! prompts ([`prompt`]), seeded generators ([`rng`]) and UTC timestamps ([`timestamp`]).

pub mod atomic;
pub mod error;
pub mod input;
pub mod memory;
pub mod notice;
pub mod numfmt;
pub mod prompt;
pub mod rng;
pub mod timestamp;
