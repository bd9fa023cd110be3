//! Small utilities shared by every layer, knowing nothing of the rest of the program:
//! atomic file writes ([`atomic`]), cancellation ([`cancel`]), the built-in configs and
//! studies ([`catalog`]), user errors and exit codes ([`error`]), the program's own
//! files, never opened through a symlink ([`files`]), arrays on huge pages ([`huge`]),
//! reading input with limits ([`input`]), values computed once per process ([`memo`]),
//! memory budgets ([`memory`]), number formatting ([`numfmt`]), how long work reports
//! its notes, progress and checkpoints ([`observe`]), the assignments' interactive
//! prompts ([`prompt`]), seeded generators ([`rng`]), the known names nearest a
//! mistyped one ([`suggest`]) and UTC timestamps ([`timestamp`]).

pub mod atomic;
pub mod cancel;
pub mod catalog;
pub mod error;
pub mod files;
pub mod huge;
pub mod input;
pub mod memo;
pub mod memory;
pub mod numfmt;
pub mod observe;
pub mod prompt;
pub mod rng;
pub mod suggest;
pub mod timestamp;
