//! Small utilities shared by every layer, knowing nothing of the rest of the program:
//! atomic file writes ([`atomic`]), cancellation ([`cancel`]), the built-in configs and
//! studies ([`catalog`]), user errors and exit codes ([`error`]), the program's own
//! files, never opened through a symlink ([`files`]), arrays on huge pages ([`huge`]),
//! reading input with limits ([`input`]), values computed once per process ([`memo`]),
//! memory budgets ([`memory`]), a count of a long command's work done ([`meter`]),
//! number formatting ([`numfmt`]), progress notes that `--quiet` silences ([`notice`]),
//! the assignments' interactive prompts ([`prompt`]), seeded generators ([`rng`]), the
//! known names nearest a mistyped one ([`suggest`]) and UTC timestamps ([`timestamp`]).

pub mod atomic;
pub mod cancel;
pub mod catalog;
pub mod error;
pub mod files;
pub mod huge;
pub mod input;
pub mod memo;
pub mod memory;
pub mod meter;
pub mod notice;
pub mod numfmt;
pub mod prompt;
pub mod rng;
pub mod suggest;
pub mod timestamp;
