//! A count of work done, on stderr, for a long command outside the pipeline (whose runs
//! have their own bars): an indicatif bar on a terminal, else a plain line at most every
//! five seconds (none for work done sooner), so that logs stay readable. `--quiet`
//! ([`super::notice`]) silences it.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a plain line is printed at most.
const PLAIN_EVERY: Duration = Duration::from_secs(5);

/// Work of `total` parts, advanced from any thread.
pub struct Meter {
    bar: Option<ProgressBar>,
    what: String,
    total: u64,
    /// Parts done, and when the last plain line was printed.
    state: Mutex<(u64, Instant)>,
    started: Instant,
    quiet: bool,
}

impl Meter {
    /// A meter of `total` parts of `what` (a plural: "subtrees").
    pub fn new(what: &str, total: u64) -> Meter {
        let quiet = super::notice::quiet();
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(total);
            let template = format!("[{{bar:40}}] {{pos}}/{{len}} {what}  {{elapsed}}  {{msg}}");
            bar.set_style(
                ProgressStyle::with_template(&template)
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            bar
        });
        let now = Instant::now();
        Meter {
            bar,
            what: what.to_string(),
            total,
            state: Mutex::new((0, now)),
            started: now,
            quiet,
        }
    }

    /// One more part done; `status` says where the work stands (shown beside the count).
    pub fn advance(&self, status: &str) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.0 += 1;
        if let Some(bar) = &self.bar {
            bar.set_message(status.to_string());
            bar.inc(1);
        } else if !self.quiet && state.1.elapsed() >= PLAIN_EVERY {
            state.1 = Instant::now();
            eprintln!(
                "searchlab: {}/{} {} ({:.0} s): {status}",
                state.0,
                self.total,
                self.what,
                self.started.elapsed().as_secs_f64()
            );
        }
    }

    /// Takes the bar off the terminal.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
