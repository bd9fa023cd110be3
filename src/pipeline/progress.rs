//! The progress of a command's runs, shown by the command's observer
//! ([`crate::util::observe`]): a task of all the runs to compute, with a part per
//! experiment (its runs, those reused counted as done). On a terminal that is a bar of
//! all the runs with an ETA and one per experiment; otherwise plain, occasional lines,
//! so that logs stay readable.

use crate::util::observe::{Observer, Task, Work};

/// Progress over all the runs of a command, and the observer their notes go to.
pub struct Progress<'o> {
    observer: &'o dyn Observer,
    all: Task<'o>,
}

impl<'o> Progress<'o> {
    /// Progress of `total` runs to compute (runs reused aside; an upper bound while a
    /// stage may stop early, as a race does), shown by `observer`.
    pub fn new(observer: &'o dyn Observer, total: u64) -> Progress<'o> {
        Progress {
            observer,
            all: observer.task(&Work::new("all", "runs", Some(total))),
        }
    }

    /// Progress whose runs are not shown: only the runs' notes and their own tasks (a
    /// table being built) are (`tiles batch`, whose table of runs is its output).
    pub fn hidden(observer: &'o dyn Observer) -> Progress<'o> {
        Progress {
            observer,
            all: Task::quiet(),
        }
    }

    /// The observer the runs report to.
    pub fn observer(&self) -> &'o dyn Observer {
        self.observer
    }

    /// The progress of one experiment of `runs` runs, `reused` of them already done.
    pub fn experiment(&self, name: &str, runs: u64, reused: u64) -> Stage<'_, 'o> {
        Stage {
            progress: self,
            task: self
                .all
                .part(&Work::new(name, "runs", Some(runs)).done(reused)),
        }
    }

    /// A message for the user (above the bars, or a plain line).
    pub fn note(&self, message: &str) {
        self.observer.note(message);
    }

    /// Ends the progress of all the runs.
    pub fn finish(self) {}
}

/// Progress of one experiment.
pub struct Stage<'a, 'o> {
    progress: &'a Progress<'o>,
    task: Task<'a>,
}

impl<'a, 'o> Stage<'a, 'o> {
    /// The progress this stage belongs to (for notes above the bars).
    pub fn progress(&self) -> &'a Progress<'o> {
        self.progress
    }

    /// One run more done.
    pub fn inc(&mut self) {
        self.task.advance(1, "");
    }

    /// Ends the stage. One that needed fewer runs than it announced (a race that
    /// stopped early) takes the rest off the overall total, so that both end complete.
    pub fn finish(self) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::observe::{Event, Recorder};

    #[test]
    fn an_experiment_is_a_part_of_all_the_runs_and_hidden_progress_shows_none() {
        let r = Recorder::default();
        {
            let p = Progress::new(&r, 2);
            let mut stage = p.experiment("x", 5, 3);
            stage.inc();
            p.note("a table is built");
        }
        let begin = |name: &str, total, done| Event::Begin {
            name: name.into(),
            unit: "runs".into(),
            total: Some(total),
            done,
        };
        let advance = Event::Advance {
            parts: 1,
            status: String::new(),
        };
        assert_eq!(
            r.events(),
            vec![
                begin("all", 2, 0),
                begin("x", 5, 3),
                advance,
                Event::Note("a table is built".into()),
                Event::Finish,
                Event::Finish
            ]
        );
        let r = Recorder::default();
        {
            let p = Progress::hidden(&r);
            p.experiment("x", 5, 3).inc();
            p.note("shown");
        }
        assert_eq!(r.events(), vec![Event::Note("shown".into())]);
    }
}
