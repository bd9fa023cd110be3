//! How long work reports itself: one [`Observer`] trait, passed down explicitly (a run
//! gets one in its run context, a command's program makes one), through which work
//! gives notes for the user, the progress of its parts (of a known or an unknown total)
//! and checkpoints of its state. Nothing reports through a global.
//!
//! The command line chooses the implementation: [`Terminal`] (indicatif bars, `terminal`)
//! when stderr is a terminal, [`Plain`] (occasional plain lines, `plain`) when it is not,
//! and [`Quiet`] for `--quiet` ([`stderr`] makes that choice). [`Recorder`] keeps what it
//! is told, for tests and for callers that look at it.
//!
//! Progress is a [`Task`]: work of a [`Work`]'s parts, advanced from any thread, with
//! parts of its own ([`Task::part`]: an experiment within the runs of a command), ended
//! when dropped.

mod plain;
mod terminal;

pub use plain::Plain;
pub use terminal::Terminal;

use std::io::IsTerminal;
use std::sync::Mutex;

/// What a piece of long work is, when it begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Work<'a> {
    /// Its name: a short label ("all", an experiment's name), a sentence ("building the
    /// pattern database of tiles [1, 2, 3]"), or empty (a count of runs, its status
    /// saying where it stands).
    pub name: &'a str,
    /// What its parts are, plural: "runs", "placements", "subtrees".
    pub unit: &'a str,
    /// Its parts, if known beforehand.
    pub total: Option<u64>,
    /// Parts already done when it begins (runs reused from a journal): they are not
    /// counted toward the work it is a part of.
    pub done: u64,
}

impl<'a> Work<'a> {
    /// Work of `total` parts of `unit`, none done yet.
    pub fn new(name: &'a str, unit: &'a str, total: Option<u64>) -> Work<'a> {
        Work {
            name,
            unit,
            total,
            done: 0,
        }
    }

    /// The same work with `done` parts done before it begins.
    pub fn done(self, done: u64) -> Work<'a> {
        Work { done, ..self }
    }
}

/// Receives what long work reports while it goes on. Each method has a default that
/// drops what it is told, so an observer implements only what it shows.
pub trait Observer: Sync {
    /// A note for the user: what a long step is doing, or a warning that does not stop
    /// the work.
    fn note(&self, text: &str) {
        let _ = text;
    }

    /// Work begins; the task returned reports its progress.
    fn task(&self, work: &Work) -> Task<'_> {
        let _ = work;
        Task::quiet()
    }

    /// A checkpoint of a long run's state (an IDA* iteration finished): kept, so that a
    /// run that is killed resumes from its last checkpoint.
    fn checkpoint(&self, state: &serde_json::Value) {
        let _ = state;
    }
}

/// An observer's side of a [`Task`].
pub trait Tracker: Send + Sync {
    /// `parts` more parts done; `status` says where the work stands (may be empty).
    fn advance(&self, parts: u64, status: &str);
    /// `done` parts done in all.
    fn set(&self, done: u64);
    /// A part of this work with progress of its own: each of its parts done is one of
    /// this work's too; when it ends short of its total, the rest is taken off this
    /// work's total.
    fn part(&self, work: &Work) -> Task<'_>;
    /// The work ended.
    fn finish(&self);
}

/// The progress of one piece of work, as an observer shows it; it ends when dropped.
pub struct Task<'a>(Option<Box<dyn Tracker + 'a>>);

impl<'a> Task<'a> {
    /// A task shown by `tracker`.
    pub fn new(tracker: impl Tracker + 'a) -> Task<'a> {
        Task(Some(Box::new(tracker)))
    }

    /// A task nobody is shown.
    pub fn quiet() -> Task<'static> {
        Task(None)
    }

    /// `parts` more parts done; `status` says where the work stands (may be empty).
    pub fn advance(&self, parts: u64, status: &str) {
        if let Some(t) = &self.0 {
            t.advance(parts, status);
        }
    }

    /// `done` parts done in all.
    pub fn set(&self, done: u64) {
        if let Some(t) = &self.0 {
            t.set(done);
        }
    }

    /// A part of this work with progress of its own ([`Tracker::part`]).
    pub fn part(&self, work: &Work) -> Task<'_> {
        match &self.0 {
            Some(t) => t.part(work),
            None => Task::quiet(),
        }
    }

    /// Ends the task (as dropping it does).
    pub fn finish(self) {}
}

impl Drop for Task<'_> {
    fn drop(&mut self) {
        if let Some(t) = self.0.take() {
            t.finish();
        }
    }
}

/// An observer that drops everything: `--quiet`, and work outside any command (tests,
/// library callers).
#[derive(Debug, Clone, Copy, Default)]
pub struct Quiet;

impl Observer for Quiet {}

/// The observer of a command's progress on stderr: nothing when `quiet`, bars when
/// stderr is a terminal, plain lines otherwise.
pub fn stderr(quiet: bool) -> Box<dyn Observer> {
    if quiet {
        Box::new(Quiet)
    } else if std::io::stderr().is_terminal() {
        Box::new(Terminal::new())
    } else {
        Box::new(Plain::stderr())
    }
}

/// What a [`Recorder`] was told.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    Note(String),
    /// A task or a part began.
    Begin {
        name: String,
        unit: String,
        total: Option<u64>,
        done: u64,
    },
    Advance {
        parts: u64,
        status: String,
    },
    Set(u64),
    Finish,
    Checkpoint(serde_json::Value),
}

/// An observer that keeps everything it is told, in order.
#[derive(Debug, Default)]
pub struct Recorder {
    events: Mutex<Vec<Event>>,
}

impl Recorder {
    fn push(&self, e: Event) {
        self.events
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(e);
    }

    /// Everything told so far.
    pub fn events(&self) -> Vec<Event> {
        self.events
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The notes told so far.
    pub fn notes(&self) -> Vec<String> {
        self.events()
            .into_iter()
            .filter_map(|e| match e {
                Event::Note(n) => Some(n),
                _ => None,
            })
            .collect()
    }

    /// The statuses of the advances told so far.
    pub fn statuses(&self) -> Vec<String> {
        self.events()
            .into_iter()
            .filter_map(|e| match e {
                Event::Advance { status, .. } => Some(status),
                _ => None,
            })
            .collect()
    }

    /// The checkpoints told so far.
    pub fn checkpoints(&self) -> Vec<serde_json::Value> {
        self.events()
            .into_iter()
            .filter_map(|e| match e {
                Event::Checkpoint(c) => Some(c),
                _ => None,
            })
            .collect()
    }
}

impl Observer for Recorder {
    fn note(&self, text: &str) {
        self.push(Event::Note(text.to_string()));
    }

    fn task(&self, work: &Work) -> Task<'_> {
        self.begin(work)
    }

    fn checkpoint(&self, state: &serde_json::Value) {
        self.push(Event::Checkpoint(state.clone()));
    }
}

impl Recorder {
    fn begin(&self, work: &Work) -> Task<'_> {
        self.push(Event::Begin {
            name: work.name.to_string(),
            unit: work.unit.to_string(),
            total: work.total,
            done: work.done,
        });
        Task::new(RecordedTask(self))
    }
}

/// A task of a [`Recorder`]: its events go to the recorder's list.
struct RecordedTask<'a>(&'a Recorder);

impl Tracker for RecordedTask<'_> {
    fn advance(&self, parts: u64, status: &str) {
        self.0.push(Event::Advance {
            parts,
            status: status.to_string(),
        });
    }

    fn set(&self, done: u64) {
        self.0.push(Event::Set(done));
    }

    fn part(&self, work: &Work) -> Task<'_> {
        self.0.begin(work)
    }

    fn finish(&self) {
        self.0.push(Event::Finish);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorder_keeps_notes_tasks_and_checkpoints_in_order() {
        let r = Recorder::default();
        r.note("hello");
        {
            let t = r.task(&Work::new("", "runs", Some(2)));
            t.advance(1, "one");
            let p = t.part(&Work::new("x", "runs", Some(3)).done(1));
            p.set(2);
        }
        r.checkpoint(&serde_json::json!({"next": 3}));
        assert_eq!(
            r.events(),
            vec![
                Event::Note("hello".into()),
                Event::Begin {
                    name: "".into(),
                    unit: "runs".into(),
                    total: Some(2),
                    done: 0
                },
                Event::Advance {
                    parts: 1,
                    status: "one".into()
                },
                Event::Begin {
                    name: "x".into(),
                    unit: "runs".into(),
                    total: Some(3),
                    done: 1
                },
                Event::Set(2),
                Event::Finish,
                Event::Finish,
                Event::Checkpoint(serde_json::json!({"next": 3})),
            ]
        );
        assert_eq!(r.statuses(), vec!["one".to_string()]);
    }

    #[test]
    fn a_quiet_observer_and_a_quiet_task_drop_everything() {
        let t = Quiet.task(&Work::new("all", "runs", Some(3)));
        t.advance(1, "");
        t.part(&Work::new("x", "runs", Some(1))).advance(1, "");
        Quiet.note("nothing");
        Quiet.checkpoint(&serde_json::Value::Null);
    }
}
