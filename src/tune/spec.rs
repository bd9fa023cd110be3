//! A config's `[tune]` section: what racing optimises, with which budget, and which
//! parameters are sampled from ranges instead of enumerated from the sweep. Checked when
//! the config is read, so a wrong key or value is a `file:line` error before anything
//! runs.

use crate::present::figure::Better;
use serde::Deserialize;
use std::collections::BTreeMap;

/// How to race a config's candidate settings.
#[derive(Debug, Clone, PartialEq)]
pub struct TuneSpec {
    /// The metric raced on (a column of the results table).
    pub metric: String,
    pub better: Better,
    /// The value a null metric counts as.
    pub missing: Option<f64>,
    /// Evaluations (runs) each variant may spend on its race.
    pub budget: u64,
    /// The most training instances a race may use.
    pub train_seeds: u64,
    /// Held-out instances on which the elites are compared.
    pub test_seeds: u64,
    /// Instances every candidate sees before the first elimination test.
    pub first_test: u64,
    /// Significance level of the Friedman test and its post-hoc comparisons.
    pub alpha: f64,
    /// Seeds the instances and the sampled candidates.
    pub seed: u64,
    /// Candidates sampled per variant that declares ranges in `sample`.
    pub samples: u64,
    /// Per variant, the parameters sampled uniformly from a range.
    pub sample: BTreeMap<String, BTreeMap<String, SampleRange>>,
    /// Line of the section in its file, for messages.
    pub line: usize,
}

/// A range a parameter is sampled from: uniformly, or uniformly in its logarithm.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SampleRange {
    pub min: f64,
    pub max: f64,
    #[serde(default)]
    pub scale: Scale,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Scale {
    #[default]
    Linear,
    Log,
}

impl SampleRange {
    /// The value at `u` in [0, 1).
    pub fn at(&self, u: f64) -> f64 {
        match self.scale {
            Scale::Linear => self.min + u * (self.max - self.min),
            Scale::Log => (self.min.ln() + u * (self.max.ln() - self.min.ln())).exp(),
        }
    }
}

/// The section as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTune {
    metric: String,
    #[serde(default)]
    better: Better,
    #[serde(default)]
    missing: Option<f64>,
    #[serde(default = "default_budget")]
    budget: u64,
    #[serde(default = "default_train")]
    train_seeds: u64,
    #[serde(default = "default_test")]
    test_seeds: u64,
    #[serde(default = "default_first_test")]
    first_test: u64,
    #[serde(default = "default_alpha")]
    alpha: f64,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    samples: u64,
    #[serde(default)]
    sample: BTreeMap<String, BTreeMap<String, SampleRange>>,
}

fn default_budget() -> u64 {
    1000
}
fn default_train() -> u64 {
    200
}
fn default_test() -> u64 {
    100
}
fn default_first_test() -> u64 {
    5
}
fn default_alpha() -> f64 {
    0.05
}

/// The most evaluations or instances a race may be given.
pub const MAX_TUNE_RUNS: u64 = 1_000_000;

impl RawTune {
    /// Checks the values; `at` is the section's `file:line`, `variants` the config's.
    pub fn check(self, at: &str, line: usize, variants: &[String]) -> anyhow::Result<TuneSpec> {
        let bad = |what: String| crate::user_error!("{at}: tune: {what}");
        for (name, v) in [
            ("budget", self.budget),
            ("train_seeds", self.train_seeds),
            ("test_seeds", self.test_seeds),
        ] {
            if v == 0 || v > MAX_TUNE_RUNS {
                return Err(bad(format!(
                    "{name} = {v} is out of range (expected 1 to {MAX_TUNE_RUNS})"
                )));
            }
        }
        if self.first_test < 2 || self.first_test > self.train_seeds {
            return Err(bad(format!(
                "first_test = {} is out of range (expected 2 to train_seeds = {})",
                self.first_test, self.train_seeds
            )));
        }
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(bad(format!(
                "alpha = {} is out of range (expected between 0 and 1)",
                self.alpha
            )));
        }
        if self.samples > 10_000 {
            return Err(bad(format!(
                "samples = {} is out of range (expected at most 10000)",
                self.samples
            )));
        }
        if !self.sample.is_empty() && self.samples == 0 {
            return Err(bad(
                "sample ranges are given but samples = 0 (how many candidates to draw)".into(),
            ));
        }
        for (variant, ranges) in &self.sample {
            let known = variants.iter().any(|v| v == variant)
                || (variants.len() == 1 && variants[0].is_empty() && variant == "all");
            if !known {
                return Err(bad(format!(
                    "sample.{variant}: no variant of that name (variants: {})",
                    variants.join(", ")
                )));
            }
            for (param, r) in ranges {
                let ok = r.min.is_finite()
                    && r.max.is_finite()
                    && r.min < r.max
                    && (r.scale == Scale::Linear || r.min > 0.0);
                if !ok {
                    return Err(bad(format!(
                        "sample.{variant}.{param}: the range {}..{} is empty or (on a log scale) not positive",
                        r.min, r.max
                    )));
                }
            }
        }
        Ok(TuneSpec {
            metric: self.metric,
            better: self.better,
            missing: self.missing,
            budget: self.budget,
            train_seeds: self.train_seeds,
            test_seeds: self.test_seeds,
            first_test: self.first_test,
            alpha: self.alpha,
            seed: self.seed,
            samples: self.samples,
            sample: self.sample,
            line,
        })
    }
}
