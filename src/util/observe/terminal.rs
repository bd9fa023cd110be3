//! Progress as indicatif bars on a terminal's stderr, notes printed above them.
//!
//! A part's bar (an experiment's runs) is drawn above its whole's and stays when it
//! ends, at what it did. A whole's bar depends on its name: a short label ("all") is
//! its prefix, with an ETA; a sentence (a table being built) stands before the bar; an
//! unnamed whole shows its status after it. A whole that had parts stays drawn when it
//! ends; one that had none is cleared. Work of unknown total is a spinner.

use super::{Observer, Task, Tracker, Work};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

/// The widest label that is a bar's prefix.
const LABEL: usize = 14;

/// Bars on stderr.
pub struct Terminal {
    multi: MultiProgress,
    /// Bars drawn and not ended: notes go above them while there are any.
    live: AtomicUsize,
}

impl Default for Terminal {
    fn default() -> Self {
        Terminal::new()
    }
}

impl Terminal {
    pub fn new() -> Terminal {
        Terminal {
            multi: MultiProgress::with_draw_target(ProgressDrawTarget::stderr()),
            live: AtomicUsize::new(0),
        }
    }

    fn bar(&self, work: &Work, template: &str) -> ProgressBar {
        let bar = match work.total {
            Some(total) => ProgressBar::new(total),
            None => ProgressBar::new_spinner(),
        };
        bar.set_style(
            ProgressStyle::with_template(template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        bar.set_position(work.done);
        self.live.fetch_add(1, Relaxed);
        bar
    }
}

/// `s` cut to `n` characters, the last an ellipsis when cut.
fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n - 1).collect::<String>())
    }
}

impl Observer for Terminal {
    fn note(&self, text: &str) {
        if self.live.load(Relaxed) > 0 {
            let _ = self.multi.println(text);
        } else {
            eprintln!("searchlab: {text}");
        }
    }

    fn task(&self, work: &Work) -> Task<'_> {
        let unit = work.unit;
        let template = match (work.total, work.name) {
            (None, _) => format!("{{spinner}} {{prefix}} {{pos}} {unit}  {{elapsed}}  {{msg}}"),
            (Some(_), "") => format!("[{{bar:40}}] {{pos}}/{{len}} {unit}  {{elapsed}}  {{msg}}"),
            (Some(_), name) if name.chars().count() <= LABEL => format!(
                "{{prefix:>{LABEL}}} [{{bar:40.cyan/blue}}] {{pos}}/{{len}} {unit}  {{elapsed_precise}} ETA {{eta}}"
            ),
            (Some(_), _) => format!("{{prefix}} [{{bar:40}}] {{pos}}/{{len}} {unit} ({{elapsed}})"),
        };
        let bar = self.multi.add(self.bar(work, &template));
        bar.set_prefix(work.name.to_string());
        Task::new(TerminalTask {
            terminal: self,
            bar,
            whole: None,
            parts: AtomicBool::new(false),
        })
    }
}

/// A task drawn as a bar.
struct TerminalTask<'a> {
    terminal: &'a Terminal,
    bar: ProgressBar,
    /// The whole's bar, for a part.
    whole: Option<&'a TerminalTask<'a>>,
    /// Whether it had parts (then its bar stays when it ends).
    parts: AtomicBool,
}

impl Tracker for TerminalTask<'_> {
    fn advance(&self, parts: u64, status: &str) {
        if !status.is_empty() {
            self.bar.set_message(status.to_string());
        }
        self.bar.inc(parts);
        if let Some(whole) = self.whole {
            whole.bar.inc(parts);
        }
    }

    fn set(&self, done: u64) {
        let more = done.saturating_sub(self.bar.position());
        self.bar.set_position(done);
        if let Some(whole) = self.whole {
            whole.bar.inc(more);
        }
    }

    fn part(&self, work: &Work) -> Task<'_> {
        self.parts.store(true, Relaxed);
        let template = format!(
            "{{prefix:>{LABEL}}} [{{bar:40.green/white}}] {{pos}}/{{len}} {}  {{elapsed}}",
            work.unit
        );
        let bar = self.terminal.bar(work, &template);
        let bar = self.terminal.multi.insert_before(&self.bar, bar);
        bar.set_prefix(truncate(work.name, LABEL));
        Task::new(TerminalTask {
            terminal: self.terminal,
            bar,
            whole: Some(self),
            parts: AtomicBool::new(false),
        })
    }

    fn finish(&self) {
        self.terminal.live.fetch_sub(1, Relaxed);
        let done = self.bar.position();
        match self.whole {
            Some(whole) => {
                // Ended short: the rest is taken off the whole's total.
                let unused = self.bar.length().map_or(0, |l| l.saturating_sub(done));
                self.bar.set_length(done);
                self.bar.finish();
                if unused > 0 {
                    let length = whole.bar.length().unwrap_or(0);
                    whole.bar.set_length(length.saturating_sub(unused));
                }
            }
            None if self.parts.load(Relaxed) => self.bar.finish(),
            None => self.bar.finish_and_clear(),
        }
    }
}
