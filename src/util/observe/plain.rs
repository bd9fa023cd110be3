//! Progress as plain lines (`searchlab: …`), for stderr that is not a terminal (a log
//! file, a Slurm job's output): notes as they come, and progress only now and then, so
//! that logs stay readable.
//!
//! A task's lines depend on what it is. A part (an experiment within a command's runs)
//! says its count and its whole's when it begins, when it is complete, when it ends
//! short, and otherwise at most every five seconds. A whole with a name (a table being
//! built) says each quarter of its total it reaches; one without (a count of runs with a
//! status) says its count and status at most every five seconds, and nothing for work
//! done sooner.

use super::{Observer, Task, Tracker, Work};
use std::io::Write;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a task's lines are printed at most (but see the module's doc).
const EVERY: Duration = Duration::from_secs(5);

/// The time since the observer was made, as its lines count it.
type Clock = Box<dyn Fn() -> Duration + Send + Sync>;

/// Plain lines to a writer (stderr by default).
pub struct Plain<W: Write + Send = std::io::Stderr> {
    out: Mutex<W>,
    clock: Clock,
}

impl Plain {
    /// Plain lines on stderr.
    pub fn stderr() -> Plain {
        Plain::new(std::io::stderr())
    }
}

impl<W: Write + Send> Plain<W> {
    /// Plain lines to `out`.
    pub fn new(out: W) -> Plain<W> {
        let started = Instant::now();
        Plain {
            out: Mutex::new(out),
            clock: Box::new(move || started.elapsed()),
        }
    }

    /// The same observer with another clock (a test's, frozen, so that its lines do
    /// not depend on how long the work took).
    pub fn with_clock(self, clock: impl Fn() -> Duration + Send + Sync + 'static) -> Plain<W> {
        Plain {
            clock: Box::new(clock),
            ..self
        }
    }

    /// The writer, with everything written to it.
    pub fn into_inner(self) -> W {
        self.out.into_inner().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes `searchlab: {text}` and a newline, at once.
    fn line(&self, text: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = out.write_all(format!("searchlab: {text}\n").as_bytes());
    }

    fn begin<'a>(&'a self, work: &Work, whole: Option<&'a PlainTask<'a, W>>) -> PlainTask<'a, W> {
        let now = (self.clock)();
        PlainTask {
            plain: self,
            name: work.name.to_string(),
            unit: work.unit.to_string(),
            counts: Mutex::new(Counts {
                done: work.done,
                total: work.total,
                started: now,
                last: now,
                quarter: None,
            }),
            whole,
        }
    }
}

impl<W: Write + Send> Observer for Plain<W> {
    fn note(&self, text: &str) {
        self.line(text);
    }

    fn task(&self, work: &Work) -> Task<'_> {
        Task::new(self.begin(work, None))
    }
}

/// Where a task stands.
struct Counts {
    done: u64,
    total: Option<u64>,
    /// When it began and when it last printed a line (a part: its whole's do).
    started: Duration,
    last: Duration,
    /// The last quarter a named whole said.
    quarter: Option<u64>,
}

/// A task printing plain lines.
struct PlainTask<'a, W: Write + Send> {
    plain: &'a Plain<W>,
    name: String,
    unit: String,
    counts: Mutex<Counts>,
    whole: Option<&'a PlainTask<'a, W>>,
}

/// `a` of `b` in percent (100 of nothing).
fn percent(a: u64, b: u64) -> f64 {
    if b == 0 {
        100.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

impl<W: Write + Send> PlainTask<'_, W> {
    fn counts(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A whole's line after its count changed, if one is due.
    fn whole_line(&self, c: &mut Counts, status: &str) {
        let now = (self.plain.clock)();
        let status = match status {
            "" => String::new(),
            s => format!(": {s}"),
        };
        let text = match (self.name.as_str(), c.total) {
            ("", total) => {
                if now.saturating_sub(c.last) < EVERY {
                    return;
                }
                let count = match total {
                    Some(t) => format!("{}/{t}", c.done),
                    None => c.done.to_string(),
                };
                format!(
                    "{count} {} ({:.0} s){status}",
                    self.unit,
                    now.saturating_sub(c.started).as_secs_f64()
                )
            }
            (name, Some(total)) => {
                let quarter = (c.done * 4).checked_div(total).unwrap_or(4);
                if c.quarter == Some(quarter) {
                    return;
                }
                c.quarter = Some(quarter);
                format!("{name}: {}% of {total} {}", quarter * 25, self.unit)
            }
            (name, None) => {
                if now.saturating_sub(c.last) < EVERY {
                    return;
                }
                format!(
                    "{name}: {} {} ({:.0} s){status}",
                    c.done,
                    self.unit,
                    now.saturating_sub(c.started).as_secs_f64()
                )
            }
        };
        c.last = now;
        self.plain.line(&text);
    }

    /// A part's line: its count and its whole's, when `force`d, when it is complete, or
    /// when its whole's last line is five seconds old. `total` overrides its own.
    fn part_line(&self, whole: &Self, c: &Counts, total: Option<u64>, force: bool) {
        let total = total.or(c.total).unwrap_or(c.done);
        let mut w = whole.counts();
        let now = (self.plain.clock)();
        if !force && now.saturating_sub(w.last) < EVERY && c.done != total {
            return;
        }
        w.last = now;
        let whole_total = w.total.unwrap_or(w.done);
        self.plain.line(&format!(
            "{}: {}/{total} {} ({:.0}%); {}: {}/{whole_total} ({:.0}%), {:.1}s elapsed",
            self.name,
            c.done,
            self.unit,
            percent(c.done, total),
            whole.name,
            w.done,
            percent(w.done, whole_total),
            now.saturating_sub(w.started).as_secs_f64()
        ));
    }
}

impl<W: Write + Send> Tracker for PlainTask<'_, W> {
    fn advance(&self, parts: u64, status: &str) {
        let mut c = self.counts();
        c.done += parts;
        match self.whole {
            Some(whole) => {
                whole.counts().done += parts;
                self.part_line(whole, &c, None, false);
            }
            None => self.whole_line(&mut c, status),
        }
    }

    fn set(&self, done: u64) {
        let mut c = self.counts();
        let more = done.saturating_sub(c.done);
        c.done = done;
        match self.whole {
            Some(whole) => {
                whole.counts().done += more;
                self.part_line(whole, &c, None, false);
            }
            None => self.whole_line(&mut c, ""),
        }
    }

    fn part(&self, work: &Work) -> Task<'_> {
        let part = self.plain.begin(work, Some(self));
        // A part says where it and its whole stand as it begins.
        part.part_line(self, &part.counts(), None, true);
        Task::new(part)
    }

    fn finish(&self) {
        let Some(whole) = self.whole else { return };
        let c = self.counts();
        let unused = c.total.map_or(0, |t| t.saturating_sub(c.done));
        if unused > 0 {
            {
                let mut w = whole.counts();
                w.total = w.total.map(|t| t.saturating_sub(unused));
            }
            self.part_line(whole, &c, Some(c.done), true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frozen() -> Plain<Vec<u8>> {
        Plain::new(Vec::new()).with_clock(|| Duration::ZERO)
    }

    fn text(p: Plain<Vec<u8>>) -> String {
        String::from_utf8(p.into_inner()).unwrap()
    }

    #[test]
    fn parts_say_where_they_and_their_whole_stand() {
        // Two experiments: one of 5 runs with 3 reused, one that announced 10 runs (1
        // reused) and needed 3: the total to compute, 4 + 9, becomes 2 + 3.
        let p = frozen();
        {
            let all = p.task(&Work::new("all", "runs", Some(2 + 9)));
            let x = all.part(&Work::new("x", "runs", Some(5)).done(3));
            x.advance(1, "");
            x.advance(1, "");
            drop(x);
            let race = all.part(&Work::new("race", "runs", Some(10)).done(1));
            for _ in 0..3 {
                race.advance(1, "");
            }
        }
        assert_eq!(
            text(p),
            "searchlab: x: 3/5 runs (60%); all: 0/11 (0%), 0.0s elapsed\n\
             searchlab: x: 5/5 runs (100%); all: 2/11 (18%), 0.0s elapsed\n\
             searchlab: race: 1/10 runs (10%); all: 2/11 (18%), 0.0s elapsed\n\
             searchlab: race: 4/4 runs (100%); all: 5/5 (100%), 0.0s elapsed\n"
        );
    }

    #[test]
    fn a_named_whole_says_its_quarters_and_an_unnamed_one_nothing_sooner_than_five_seconds() {
        let p = frozen();
        {
            let t = p.task(&Work::new("building tiles [1]", "placements", Some(8)));
            for done in [1, 2, 3, 4, 8] {
                t.set(done);
            }
            let runs = p.task(&Work::new("", "runs", Some(3)));
            runs.advance(1, "longest so far: 3 moves");
        }
        p.note("a note");
        assert_eq!(
            text(p),
            "searchlab: building tiles [1]: 0% of 8 placements\n\
             searchlab: building tiles [1]: 25% of 8 placements\n\
             searchlab: building tiles [1]: 50% of 8 placements\n\
             searchlab: building tiles [1]: 100% of 8 placements\n\
             searchlab: a note\n"
        );
        // Five seconds on, an unnamed whole says its count and status.
        let later = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let clock = std::sync::Arc::clone(&later);
        let p = Plain::new(Vec::new()).with_clock(move || {
            Duration::from_secs(clock.load(std::sync::atomic::Ordering::Relaxed))
        });
        {
            let runs = p.task(&Work::new("", "runs", Some(3)));
            later.store(6, std::sync::atomic::Ordering::Relaxed);
            runs.advance(1, "longest so far: 3 moves");
            runs.advance(1, "longest so far: 4 moves");
        }
        assert_eq!(
            text(p),
            "searchlab: 1/3 runs (6 s): longest so far: 3 moves\n"
        );
    }
}
