//! Cancellation of long work: a flag that the caller sets and long runs poll (between
//! iterations, between subtrees, every million or so expansions), so that a stop request
//! ends a run at a point where its state is consistent, and an error that says a run was
//! stopped so ([`Interrupted`]: not a result, not a failure).
//!
//! The commands that do long work take the process's stop request from [`on_interrupt`]:
//! the first Ctrl-C (SIGINT), SIGTERM (Slurm's at a task's time limit) or SIGHUP (the
//! terminal closed) sets it, and
//! the work under way ends cleanly (finished runs kept, a search's last completed
//! iteration in its checkpoint); a second one ends the process at once (exit code 130),
//! as an unhandled one would. The flag reaches a run through its run context, never
//! through a global read by the run itself.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

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

/// The process's stop request, set by the first SIGINT or SIGTERM, which also prints
/// `searchlab: stopping: {what} (Ctrl-C again to stop at once)` on stderr; the second
/// exits with code 130. The handler is installed by the first call (where signals cannot
/// be handled, the flag is simply never set).
pub fn on_interrupt(what: &'static str) -> Arc<Cancel> {
    // The one process-wide mutable state: a signal arrives for the process, so its flag
    // is the process's; everything else reaches a run through its context.
    static STOP: OnceLock<Arc<Cancel>> = OnceLock::new();
    Arc::clone(STOP.get_or_init(|| {
        let stop = Arc::new(Cancel::default());
        let flag = Arc::clone(&stop);
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
            std::thread::spawn(move || {
                for _ in signals.forever() {
                    if flag.is_cancelled() {
                        std::process::exit(EXIT_CODE);
                    }
                    flag.cancel();
                    crate::say!("searchlab: stopping: {what} (Ctrl-C again to stop at once)");
                }
            });
        }
        stop
    }))
}

/// The exit code of a process stopped by a stop request (128 + SIGINT, as a shell
/// reports a process that Ctrl-C ended).
pub const EXIT_CODE: i32 = 130;

/// The error of work ended by a stop request: what was kept and how to go on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interrupted(pub String);

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "interrupted: {}", self.0)
    }
}

impl std::error::Error for Interrupted {}

/// True when any error in the chain is an [`Interrupted`].
pub fn is_interrupted(err: &anyhow::Error) -> bool {
    err.chain().any(|e| e.is::<Interrupted>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interruption_is_recognised_through_context_and_exits_130() {
        let err = anyhow::Error::new(Interrupted("3 of 5 runs kept".into())).context("korf24");
        assert!(is_interrupted(&err));
        assert_eq!(crate::util::error::exit_code(&err), EXIT_CODE);
        assert_eq!(
            crate::util::error::one_line(&err),
            "korf24: interrupted: 3 of 5 runs kept"
        );
        assert!(!is_interrupted(&anyhow::anyhow!("disk full")));
    }
}
