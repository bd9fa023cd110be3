//! A config's `[tune]` section: what racing optimises, with which budget, and which
//! parameters are sampled from ranges instead of enumerated from the sweep. The
//! pipeline keeps the section as written; it is read and checked here, with the plan
//! (whose metric declarations give the direction), before anything runs, so a wrong key
//! or value is a `file:line` error.

use crate::pipeline::config::Config;
use crate::pipeline::metrics::Better;
use crate::pipeline::plan::Plan;
use serde::Deserialize;
use std::collections::BTreeMap;

/// How to race a config's candidate settings.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TuneSpec {
    /// The metric raced on (a column of the results table).
    pub metric: String,
    /// Which way is better: the section's `better`, else the metric's declaration.
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
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct SampleRange {
    pub min: f64,
    pub max: f64,
    #[serde(default)]
    pub scale: Scale,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize, Default)]
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
struct RawTune {
    metric: String,
    #[serde(default)]
    better: Option<Better>,
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

/// Reads and checks a config's `[tune]` section (`None` when it has none) against its
/// plan: the metric must be a reproducible number with a direction.
pub fn read(config: &Config, plan: &Plan) -> anyhow::Result<Option<TuneSpec>> {
    let Some(section) = &config.tune else {
        return Ok(None);
    };
    let at = config.at(section.line);
    let raw: RawTune = section
        .value
        .clone()
        .try_into()
        .map_err(|e: toml::de::Error| {
            crate::user_error!("{at}: tune: {}", e.message().trim().replace('\n', " "))
        })?;
    let variants: Vec<String> = config.variants.iter().map(|v| v.name.clone()).collect();
    let metric = plan.metric(&raw.metric).ok_or_else(|| {
        crate::user_error!(
            "{at}: tune.metric {:?} is not a metric of {} (metrics: {})",
            raw.metric,
            config.name,
            plan.metric_names().join(", ")
        )
    })?;
    if metric.is_timing() {
        crate::user_bail!(
            "{at}: tune.metric {:?} is a timing: a race on wall-clock time is not reproducible; race on a count",
            raw.metric
        );
    }
    if !metric.numeric {
        crate::user_bail!("{at}: tune.metric {:?} is not a number", raw.metric);
    }
    let better = match (raw.better, metric.better) {
        (Some(b), _) | (None, Some(b)) => b,
        (None, None) => crate::user_bail!(
            "{at}: tune.metric {:?} declares no direction: set better = \"higher\" or \"lower\"",
            raw.metric
        ),
    };
    raw.check(&at, section.line, &variants, better).map(Some)
}

impl RawTune {
    /// Checks the values; `at` is the section's `file:line`, `variants` the config's.
    fn check(
        self,
        at: &str,
        line: usize,
        variants: &[String],
        better: Better,
    ) -> anyhow::Result<TuneSpec> {
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
        if self.missing.is_some_and(|m| !m.is_finite()) {
            return Err(bad("missing must be a finite number".into()));
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
            better,
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
