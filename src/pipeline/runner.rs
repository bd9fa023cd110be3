//! The one interface between the experiment pipeline and the puzzle domains.
//!
//! A [`Runner`] turns one run of a plan (an algorithm name, resolved parameter values and
//! a seed) into a [`RunOutput`]: named metrics and an optional anytime curve. The pipeline
//! knows runners only through this trait; adapters in `crate::adapters` implement it for
//! each domain, and know nothing of configs, dataframes or plots.

use crate::pipeline::metrics::{Metrics, MetricsSpec};
use crate::pipeline::params::{ParamSpec, Params, Value};

/// An algorithm a runner offers to experiments.
#[derive(Debug, Clone)]
pub struct AlgorithmSpec {
    pub name: &'static str,
    /// Bumped whenever the algorithm's results change, so stored results are recomputed.
    pub version: u32,
    pub description: &'static str,
    pub params: Vec<ParamSpec>,
    /// Its metric columns (one typed struct per algorithm).
    pub metrics: MetricsSpec,
}

/// What one run produced.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunOutput {
    /// Named metrics, one column each in the results table. Timing metrics end in
    /// `_seconds` or `_per_second`; every other metric must be reproducible from the seed.
    pub metrics: Vec<(&'static str, Value)>,
    /// Best-so-far objective at increasing iteration counts (log-spaced), if the
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

/// A domain's algorithms, as the pipeline sees them.
pub trait Runner: Sync + Send {
    /// The name configs use in `domain = "…"`.
    fn domain(&self) -> &'static str;
    fn description(&self) -> &'static str;
    fn algorithms(&self) -> Vec<AlgorithmSpec>;
    /// Runs one algorithm. `params` has been checked against the algorithm's specs, with
    /// defaults filled in; `seed` seeds every random choice the run makes.
    fn run(&self, algorithm: &str, params: &Params, seed: u64) -> anyhow::Result<RunOutput>;
}

/// Iteration counts 1, 2, 3, 5, 7, 10, 20, 30, 50, 70, … up to and including `last`:
/// where anytime curves are sampled (five per decade, so a hitting time read from them
/// is at most twice the true one, and at most 1.7 times from 2 on).
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
