//! Progress of long work on stderr: indicatif bars (overall with ETA, and one per
//! experiment) on a terminal; plain, occasional lines otherwise, so logs stay readable.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often plain progress lines are printed at most.
const PLAIN_INTERVAL: Duration = Duration::from_secs(5);

/// Progress over all the runs of a command.
pub struct Progress {
    bars: Option<(MultiProgress, ProgressBar)>,
    state: Mutex<Plain>,
    quiet: bool,
    /// Whether notes (a table being built) are shown.
    notes: bool,
}

struct Plain {
    done: u64,
    /// The runs to compute: an upper bound while a stage may stop early (a race).
    total: u64,
    last: Instant,
    started: Instant,
}

impl Progress {
    /// Bars when stderr is a terminal, plain lines otherwise; `quiet` prints nothing.
    pub fn new(total: u64, quiet: bool) -> Progress {
        let bars = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
            let overall = multi.add(ProgressBar::new(total));
            overall.set_style(
                ProgressStyle::with_template("{prefix:>14} [{bar:40.cyan/blue}] {pos}/{len} runs  {elapsed_precise} ETA {eta}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            overall.set_prefix("all");
            (multi, overall)
        });
        let now = Instant::now();
        Progress {
            bars,
            state: Mutex::new(Plain {
                done: 0,
                total,
                last: now,
                started: now,
            }),
            quiet,
            notes: !quiet,
        }
    }

    /// Shows notes (or not) whatever the progress display: a quiet progress of runs
    /// may still say that a table is being built.
    pub fn with_notes(mut self, notes: bool) -> Progress {
        self.notes = notes;
        self
    }

    /// A bar for one experiment of `runs` runs, `reused` of them already done.
    pub fn experiment(&self, name: &str, runs: u64, reused: u64) -> Stage<'_> {
        let bar = self.bars.as_ref().map(|(multi, _)| {
            let bar = multi.insert_from_back(1, ProgressBar::new(runs));
            bar.set_style(
                ProgressStyle::with_template(
                    "{prefix:>14} [{bar:40.green/white}] {pos}/{len} runs  {elapsed}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            bar.set_prefix(truncate(name, 14));
            bar.set_position(reused);
            bar
        });
        // The overall count is of runs to compute (its total excludes reused runs).
        self.advance(0, name, reused, runs, true);
        Stage {
            progress: self,
            bar,
            name: name.to_string(),
            runs,
            done: reused,
        }
    }

    fn advance(&self, n: u64, name: &str, done: u64, runs: u64, force: bool) {
        if let Some((_, overall)) = &self.bars {
            overall.inc(n);
            return;
        }
        let Ok(mut s) = self.state.lock() else { return };
        s.done += n;
        if self.quiet || (!force && s.last.elapsed() < PLAIN_INTERVAL && done != runs) {
            return;
        }
        s.last = Instant::now();
        let pct = |a: u64, b: u64| {
            if b == 0 {
                100.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        eprintln!(
            "searchlab: {name}: {done}/{runs} runs ({:.0}%); all: {}/{} ({:.0}%), {:.1}s elapsed",
            pct(done, runs),
            s.done,
            s.total,
            pct(s.done, s.total),
            s.started.elapsed().as_secs_f64()
        );
    }

    /// A message above the bars (or a plain line).
    pub fn note(&self, message: &str) {
        match &self.bars {
            Some((multi, _)) => {
                let _ = multi.println(message);
            }
            None if self.notes => eprintln!("searchlab: {message}"),
            None => {}
        }
    }

    pub fn finish(&self) {
        if let Some((_, overall)) = &self.bars {
            overall.finish();
        }
    }

    /// Takes `n` runs that will not be computed off the total.
    fn shrink(&self, n: u64) {
        if let Ok(mut s) = self.state.lock() {
            s.total = s.total.saturating_sub(n);
        }
        if let Some((_, overall)) = &self.bars {
            overall.set_length(overall.length().unwrap_or(0).saturating_sub(n));
        }
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n - 1).collect::<String>())
    }
}

/// Progress of one experiment.
pub struct Stage<'a> {
    progress: &'a Progress,
    bar: Option<ProgressBar>,
    name: String,
    runs: u64,
    done: u64,
}

impl<'a> Stage<'a> {
    /// The progress this stage belongs to (for notes above the bars).
    pub fn progress(&self) -> &'a Progress {
        self.progress
    }

    pub fn inc(&mut self) {
        self.done += 1;
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
        self.progress
            .advance(1, &self.name, self.done, self.runs, false);
    }

    /// Ends the stage. One that needed fewer runs than it announced (a race that
    /// stopped early) takes the rest off the overall total, so that both end complete.
    pub fn finish(self) {
        let unused = self.runs.saturating_sub(self.done);
        if let Some(bar) = &self.bar {
            bar.set_length(self.done);
            bar.finish();
        }
        if unused > 0 {
            self.progress.shrink(unused);
            self.progress
                .advance(0, &self.name, self.done, self.done, true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reused_runs_do_not_count_toward_the_overall_total() {
        let p = Progress::new(2, true);
        let mut stage = p.experiment("x", 5, 3);
        stage.inc();
        stage.inc();
        stage.finish();
        assert_eq!(p.state.lock().unwrap().done, 2);
    }

    #[test]
    fn a_stage_that_stops_early_takes_its_rest_off_the_total() {
        // A race announced 10 runs (1 reused) and needed 3 more: the total of 9 to
        // compute becomes 3, all done, and the next stage counts on from there.
        let p = Progress::new(9 + 2, true);
        let mut race = p.experiment("race", 10, 1);
        for _ in 0..3 {
            race.inc();
        }
        race.finish();
        let s = p.state.lock().unwrap();
        assert_eq!((s.done, s.total), (3, 3 + 2));
    }
}
