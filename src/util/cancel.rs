//! Cancellation of long work: a flag that the caller sets and long runs poll (between
//! iterations, at a frontier), so that a stop request ends a run at a point where its
//! state is consistent. Ctrl-C sets the flag of the process's runs.

use std::sync::atomic::{AtomicBool, Ordering};

/// A stop request, shared by reference.
#[derive(Debug, Default)]
pub struct Cancel(AtomicBool);

impl Cancel {
    /// Asks every run polling this flag to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// True once a stop was asked for.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
