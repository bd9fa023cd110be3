//! The one interface between the experiment pipeline and the puzzle domains.
//!
//! A domain offers its algorithms as a [`Runner`]: each [`Algorithm`] declares its name
//! (written once), its parameters and its metrics, and the function that runs it. A run
//! gets its resolved parameter values, its [`Seeds`] and a [`RunContext`]: everything
//! else it may use (a cache folder for tables such as pattern databases, its memory
//! budget, cancellation, a place for progress notes and checkpoints, values shared by
//! the runs of one process). No run reads a global or an environment variable. The
//! pipeline knows domains only through this module.

use crate::pipeline::metrics::{Metrics, MetricsSpec};
use crate::pipeline::params::{ParamSpec, Params, Value};
use crate::util::cancel::Cancel;
use crate::util::memo::Memo;
use crate::util::observe::{Observer, Quiet};
use std::path::Path;

/// The two seeds of a run. The instance seed draws the problem instance (a starting
/// maze, a random board) and depends only on the replicate and the instance's own
/// parameters, so every algorithm and setting of an experiment meets the same
/// instances; the run seed drives the method's own random choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Seeds {
    pub run: u64,
    pub instance: u64,
}

/// What a run may use besides its parameters and seeds.
pub struct RunContext<'a> {
    /// The folder the domain keeps tables in between runs and processes (pattern
    /// databases), when it declares one ([`Runner::cache`]).
    pub cache: Option<&'a Path>,
    /// Bytes of memory the run may hold (its share of the process's budget).
    pub memory: u64,
    /// Set when the run should stop early; long runs poll it.
    pub cancel: &'a Cancel,
    /// Where the run reports its notes, the progress of its own long steps (a table
    /// being built) and its checkpoints: the pipeline keeps a run's checkpoints, so that
    /// a run that is killed resumes from its last ([`RunContext::resume`]).
    pub observer: &'a dyn Observer,
    /// Values the runs of one process share (tables loaded once).
    pub memo: &'a Memo,
    /// The last checkpoint this run recorded before it was interrupted, if any.
    pub resume: Option<&'a serde_json::Value>,
    /// The threads the run may search on: when more than one, a rayon pool of that many
    /// is current while it runs (a parallel search uses it); 1: search serially.
    pub threads: usize,
}

impl RunContext<'_> {
    /// The cache folder, or an error saying that the domain declared none.
    pub fn cache_dir(&self) -> anyhow::Result<&Path> {
        self.cache
            .ok_or_else(|| anyhow::anyhow!("this run needs a cache folder and was given none"))
    }
}

/// A context for a run outside the pipeline: no cache, the default memory budget, never
/// cancelled, silent, with a memo of its own.
pub fn with_default_context<T>(cache: Option<&Path>, f: impl FnOnce(&RunContext) -> T) -> T {
    let cancel = Cancel::default();
    let memo = Memo::default();
    f(&RunContext {
        cache,
        memory: crate::util::memory::DEFAULT_MEMORY_LIMIT,
        cancel: &cancel,
        observer: &Quiet,
        memo: &memo,
        resume: None,
        threads: 1,
    })
}

/// Runs one algorithm: `params` have been checked against its specs, with defaults
/// filled in.
pub type RunFn = fn(&Params, Seeds, &RunContext) -> anyhow::Result<RunOutput>;

/// An algorithm a domain offers to experiments.
#[derive(Debug, Clone)]
pub struct Algorithm {
    pub name: &'static str,
    /// Bumped whenever the algorithm's results change, so stored results are recomputed.
    pub version: u32,
    pub description: &'static str,
    pub params: Vec<ParamSpec>,
    /// Its metric columns (one typed struct per algorithm).
    pub metrics: MetricsSpec,
    /// Whether its runs record an anytime curve (the best objective so far against
    /// evaluations): a stored record of it without one, or of another algorithm with
    /// one, is damaged.
    pub anytime: bool,
    /// Parameters that earlier versions of the algorithm had, each with the value every
    /// run had then and has now (its canonical text): they stay in a run's identity (key
    /// and seed) so that the runs recorded before they were removed are still found.
    pub retired: &'static [(&'static str, &'static str)],
    pub run: RunFn,
}

impl Algorithm {
    /// The declaration of a parameter.
    pub fn param(&self, name: &str) -> Option<&ParamSpec> {
        self.params.iter().find(|p| p.name == name)
    }
}

/// A folder a domain keeps tables in: `<out>/<folder>` unless the environment variable
/// `env` names another (read once, by the command line).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CacheSpec {
    pub folder: &'static str,
    pub env: &'static str,
}

/// A measure of a problem's size that a domain declares (a maze's cells): the results
/// and anytime tables carry it as a column of that name, so that a study can read
/// budgets per unit of it across problems of several sizes.
#[derive(Debug, Clone, Copy)]
pub struct Dimension {
    pub name: &'static str,
    pub meaning: &'static str,
    /// Its value for a run's parameters.
    pub of: fn(&Params) -> Option<f64>,
}

/// A domain's algorithms, as the pipeline sees them.
#[derive(Debug, Clone)]
pub struct Runner {
    /// The name configs use in `domain = "…"`.
    pub domain: &'static str,
    pub description: &'static str,
    pub algorithms: Vec<Algorithm>,
    pub cache: Option<CacheSpec>,
    pub dimension: Option<Dimension>,
    /// How its anytime curves read on a figure, if its algorithms record any.
    pub objective: Option<Objective>,
}

/// How a domain's anytime table reads for people: what its `iteration` counts and what
/// quantity its `best_so_far` objective stands for (a maze's path length for the
/// objective −(path length)), so figures show the quantity a reader thinks in.
#[derive(Debug, Clone, Copy)]
pub struct Objective {
    /// What `iteration` counts (`evaluations`).
    pub budget: &'static str,
    /// Words for the quantity shown (`best path length so far`) and its unit.
    pub label: &'static str,
    pub unit: &'static str,
    /// The quantity shown for a value of the objective.
    pub shown: fn(f64) -> f64,
}

impl Objective {
    /// The axis title of the quantity shown: `best path length so far (moves)`.
    pub fn header(&self) -> String {
        match self.unit.is_empty() {
            true => self.label.to_string(),
            false => format!("{} ({})", self.label, self.unit),
        }
    }
}

impl Runner {
    /// The algorithm of that name.
    pub fn algorithm(&self, name: &str) -> Option<&Algorithm> {
        self.algorithms.iter().find(|a| a.name == name)
    }
}

/// What one run produced.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunOutput {
    /// Named metrics, one column each in the results table. Timing metrics end in
    /// `_seconds` or `_per_second`; every other metric must be reproducible from the seed.
    pub metrics: Vec<(&'static str, Value)>,
    /// Best-so-far objective at increasing evaluation counts (log-spaced), if the
    /// algorithm is anytime.
    pub anytime: Vec<(u64, f64)>,
}

impl RunOutput {
    /// The output of a run that measured `metrics` and no anytime curve.
    pub fn of(metrics: impl Metrics) -> RunOutput {
        RunOutput {
            metrics: metrics.into_row(),
            anytime: Vec::new(),
        }
    }
}

/// Counts 1, 2, 3, 5, 7, 10, 20, 30, 50, 70, … up to and including `last`: where
/// anytime curves are sampled (five per decade, so a hitting time read from them is at
/// most twice the true one, and at most 1.7 times from 2 on).
pub fn log_checkpoints(last: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut decade = 1u64;
    'outer: loop {
        for m in [1, 2, 3, 5, 7] {
            let x = decade.saturating_mul(m);
            if x >= last {
                break 'outer;
            }
            out.push(x);
        }
        decade = decade.saturating_mul(10);
    }
    out.push(last);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_are_log_spaced_and_end_at_last() {
        assert_eq!(log_checkpoints(1), vec![1]);
        assert_eq!(log_checkpoints(10), vec![1, 2, 3, 5, 7, 10]);
        assert_eq!(log_checkpoints(40), vec![1, 2, 3, 5, 7, 10, 20, 30, 40]);
        assert_eq!(log_checkpoints(0), vec![0]);
    }
}
