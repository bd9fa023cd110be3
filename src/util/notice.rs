//! Notes for the user on stderr that are neither results nor warnings: what a long step
//! is doing (a pattern database being built inside a run, say). `--quiet` silences them
//! for the whole process ([`set_quiet`]); warnings and errors never pass through here.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

static QUIET: AtomicBool = AtomicBool::new(false);

/// Silences (or restores) [`note`] for the rest of the process.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Relaxed);
}

/// True once `--quiet` has been given.
pub fn quiet() -> bool {
    QUIET.load(Relaxed)
}

/// Prints `searchlab: {message}` on stderr unless the process is quiet.
pub fn note(message: impl std::fmt::Display) {
    if !quiet() {
        eprintln!("searchlab: {message}");
    }
}
