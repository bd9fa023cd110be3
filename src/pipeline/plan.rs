//! From a checked config to the list of runs: every variant × sweep point × replicate,
//! with parameters checked against the algorithm's specs, defaults filled in, and each
//! run's seed and key derived from its identity alone.
//!
//! A run's seed depends on the base seed, the algorithm and parameter values, and the
//! replicate index — not on its position in the plan — so adding or removing other
//! runs, changing `--jobs` or resuming never changes a run's result. Its key adds the
//! algorithm's version and the variant, so results of an older algorithm are recomputed.

use crate::pipeline::config::{Config, Located, Origin, Variant};
use crate::pipeline::params::{Params, Value};
use crate::pipeline::runner::{AlgorithmSpec, Runner};
use crate::util::rng::{derive_seed, fnv1a};

/// One run of an experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Position in the plan: the row order of the results.
    pub index: usize,
    pub variant: String,
    pub params: Params,
    pub replicate: u64,
    pub seed: u64,
    pub key: String,
}

/// Every run of one experiment.
pub struct Plan<'a> {
    pub experiment: String,
    pub runner: &'a dyn Runner,
    pub algorithm: AlgorithmSpec,
    pub runs: Vec<Run>,
}

/// The columns every results table starts with, before parameters and metrics.
pub const RUN_COLUMNS: [&str; 9] = [
    "experiment",
    "run_index",
    "run_key",
    "variant",
    "domain",
    "algorithm",
    "algorithm_version",
    "replicate",
    "seed",
];

/// The columns every anytime table starts with, before parameters.
pub const ANYTIME_RUN_COLUMNS: [&str; 4] = ["run_index", "run_key", "variant", "replicate"];

/// The anytime table's own columns, after parameters.
pub const ANYTIME_COLUMNS: [&str; 2] = ["iteration", "best_so_far"];

impl Plan<'_> {
    /// The parameter names, in the algorithm's declared order: the table's columns.
    pub fn param_names(&self) -> Vec<&'static str> {
        self.algorithm.params.iter().map(|p| p.name).collect()
    }

    /// Every column of the results table, known before anything runs.
    pub fn columns(&self) -> Vec<&'static str> {
        let mut c: Vec<&'static str> = RUN_COLUMNS.to_vec();
        c.extend(self.param_names());
        c.extend(self.algorithm.metrics.names);
        c
    }

    /// Every column of the anytime table.
    pub fn anytime_columns(&self) -> Vec<&'static str> {
        let mut c: Vec<&'static str> = ANYTIME_RUN_COLUMNS.to_vec();
        c.extend(self.param_names());
        c.extend(ANYTIME_COLUMNS);
        c
    }
}

/// Expands a config into its plan.
pub fn plan<'a>(config: &Config, runners: &'a [Box<dyn Runner>]) -> anyhow::Result<Plan<'a>> {
    let domain = &config.domain;
    let Some(runner) = runners.iter().find(|r| r.domain() == domain.value) else {
        let known: Vec<&str> = runners.iter().map(|r| r.domain()).collect();
        crate::user_bail!(
            "{}: unknown domain {:?} (known: {})",
            domain.origin,
            domain.value,
            known.join(", ")
        );
    };
    let algorithms = runner.algorithms();
    let algo = &config.algorithm;
    let Some(spec) = algorithms.iter().find(|a| a.name == algo.value) else {
        let known: Vec<&str> = algorithms.iter().map(|a| a.name).collect();
        crate::user_bail!(
            "{}: unknown algorithm {:?} for domain {} (known: {})",
            algo.origin,
            algo.value,
            domain.value,
            known.join(", ")
        );
    };
    let mut runs = Vec::new();
    for variant in &config.variants {
        for (name, located) in &variant.params {
            check_declared(spec, &domain.value, name, &located.origin)?;
        }
        for axis in &variant.sweep {
            check_declared(spec, &domain.value, &axis.name, &axis.values[0].origin)?;
        }
        let mut base = Params::default();
        for p in &spec.params {
            let value = match variant.params.get(p.name) {
                Some(located) => check(spec, p.name, located)?,
                None => match (&p.default, variant.sweep.iter().any(|a| a.name == p.name)) {
                    (_, true) => Value::Null,
                    (Some(d), false) => d.clone(),
                    // Required only where its condition holds: checked per run below.
                    (None, false) if p.when.is_some() => Value::Null,
                    (None, false) => crate::user_bail!(
                        "{}: parameter {} of {}/{} is required ({})",
                        config.source,
                        p.name,
                        domain.value,
                        spec.name,
                        p.kind.describe()
                    ),
                },
            };
            base.set(p.name, value);
        }
        let mut points = vec![base];
        for axis in &variant.sweep {
            let values: Vec<Value> = axis
                .values
                .iter()
                .map(|v| check(spec, &axis.name, v))
                .collect::<anyhow::Result<_>>()?;
            points = points
                .into_iter()
                .flat_map(|p| {
                    values.iter().map(move |v| {
                        let mut q = p.clone();
                        q.set(&axis.name, v.clone());
                        q
                    })
                })
                .collect();
        }
        for mut params in points {
            drop_unused(spec, variant, &mut params)?;
            if let Some(p) = spec
                .params
                .iter()
                .find(|p| p.default.is_none() && params.get(p.name) == Some(&Value::Null))
            {
                let when = p
                    .when
                    .map_or(String::new(), |w| format!(" when {}", w.describe()));
                let variant = if variant.name.is_empty() {
                    String::new()
                } else {
                    format!(" (variant {:?})", variant.name)
                };
                crate::user_bail!(
                    "{}: parameter {} of {}/{} is required{when}{variant} ({})",
                    config.source,
                    p.name,
                    domain.value,
                    spec.name,
                    p.kind.describe()
                );
            }
            let identity = format!("{}/{}|{}", domain.value, spec.name, params.canonical());
            for replicate in 0..config.replicates {
                // 63 bits, so the seed fits a signed 64-bit table column and replays exactly.
                let seed = derive_seed(config.base_seed, &identity, replicate) >> 1;
                let key_text = format!(
                    "{identity}|v{}|{}|{}|{}",
                    spec.version, variant.name, config.base_seed, replicate
                );
                runs.push(Run {
                    index: runs.len(),
                    variant: variant.name.clone(),
                    params: params.clone(),
                    replicate,
                    seed,
                    key: format!("{:016x}", fnv1a(key_text.as_bytes())),
                });
            }
        }
    }
    Ok(Plan {
        experiment: config.name.clone(),
        runner: runner.as_ref(),
        algorithm: spec.clone(),
        runs,
    })
}

/// Removes the parameters whose condition does not hold for this run, so that they are
/// in neither its key nor its seed (and null in the tables). One that the config sets
/// explicitly is an error naming where it was set.
fn drop_unused(spec: &AlgorithmSpec, variant: &Variant, params: &mut Params) -> anyhow::Result<()> {
    for p in &spec.params {
        let Some(when) = p.when else { continue };
        if when.holds(params) {
            continue;
        }
        let origin = variant.params.get(p.name).map(|l| &l.origin).or_else(|| {
            variant
                .sweep
                .iter()
                .find(|a| a.name == p.name)
                .map(|a| &a.values[0].origin)
        });
        if let Some(origin) = origin {
            let actual = params
                .get(when.param)
                .map_or("none".to_string(), Value::to_string);
            let variant = if variant.name.is_empty() {
                String::new()
            } else {
                format!(" in variant {:?}", variant.name)
            };
            crate::user_bail!(
                "{origin}: {} is not used when {} = {actual}{variant} (it applies only when {})",
                p.name,
                when.param,
                when.describe()
            );
        }
        params.0.remove(p.name);
    }
    Ok(())
}

fn check_declared(
    spec: &AlgorithmSpec,
    domain: &str,
    name: &str,
    origin: &Origin,
) -> anyhow::Result<()> {
    if spec.params.iter().any(|p| p.name == name) {
        return Ok(());
    }
    let known: Vec<&str> = spec.params.iter().map(|p| p.name).collect();
    crate::user_bail!(
        "{origin}: unknown parameter {name:?} for {domain}/{} (known: {})",
        spec.name,
        known.join(", ")
    )
}

fn check(spec: &AlgorithmSpec, name: &str, located: &Located<Value>) -> anyhow::Result<Value> {
    let p = spec
        .params
        .iter()
        .find(|p| p.name == name)
        .ok_or_else(|| anyhow::anyhow!("parameter {name} not declared"))?;
    p.check(&located.value)
        .map_err(|e| crate::user_error!("{}: {e}", located.origin))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::config::parse;
    use crate::pipeline::params::ParamSpec;
    use crate::pipeline::runner::RunOutput;

    crate::metrics! {
        pub struct ToyMetrics {
            steps: u64,
        }
    }

    struct Toy;
    impl Runner for Toy {
        fn domain(&self) -> &'static str {
            "toy"
        }
        fn description(&self) -> &'static str {
            "a toy"
        }
        fn algorithms(&self) -> Vec<AlgorithmSpec> {
            vec![AlgorithmSpec {
                name: "walk",
                version: 1,
                description: "",
                metrics: crate::pipeline::metrics::MetricsSpec::of::<ToyMetrics>(),
                params: vec![
                    ParamSpec::int("n", 1, 100, None, ""),
                    ParamSpec::float("p", 0.0, 1.0, false, Some(0.5), ""),
                ],
            }]
        }
        fn run(&self, _: &str, _: &Params, _: u64) -> anyhow::Result<RunOutput> {
            Ok(RunOutput::default())
        }
    }

    fn runners() -> Vec<Box<dyn Runner>> {
        vec![Box::new(Toy)]
    }

    const TOY: &str = "[experiment]\ndomain = \"toy\"\nalgorithm = \"walk\"\n[sweep]\nn = [1, 2, 3]\n[replicates]\ncount = 4\nbase_seed = 9\n";

    #[test]
    fn grid_times_replicates_with_defaults() {
        let rs = runners();
        let p = plan(&parse(TOY, "t.toml", &[]).unwrap(), &rs).unwrap();
        assert_eq!(p.runs.len(), 12);
        assert!(
            p.runs
                .iter()
                .all(|r| r.params.get("p") == Some(&Value::Float(0.5)))
        );
        let keys: std::collections::HashSet<_> = p.runs.iter().map(|r| &r.key).collect();
        assert_eq!(keys.len(), 12);
        assert_eq!(p.runs[5].index, 5);
    }

    #[test]
    fn a_runs_seed_does_not_depend_on_the_rest_of_the_sweep() {
        let rs = runners();
        let all = plan(&parse(TOY, "t.toml", &[]).unwrap(), &rs).unwrap();
        let one = plan(&parse(TOY, "t.toml", &["sweep.n=[2]".into()]).unwrap(), &rs).unwrap();
        let from_all: Vec<_> = all
            .runs
            .iter()
            .filter(|r| r.params.get("n") == Some(&Value::Int(2)))
            .map(|r| (r.seed, r.key.clone()))
            .collect();
        let from_one: Vec<_> = one.runs.iter().map(|r| (r.seed, r.key.clone())).collect();
        assert_eq!(from_all, from_one);
    }

    #[test]
    fn errors_name_the_place() {
        let rs = runners();
        let bad = TOY.replace("n = [1, 2, 3]", "n = [1, 200]");
        let err = plan(&parse(&bad, "t.toml", &[]).unwrap(), &rs)
            .err()
            .unwrap()
            .to_string();
        assert_eq!(err, "t.toml:5: n = 200 is out of range (expected 1 to 100)");
        let err = plan(&parse(TOY, "t.toml", &["params.q=1".into()]).unwrap(), &rs)
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.starts_with("--set params.q=1: unknown parameter \"q\""),
            "{err}"
        );
        let err = plan(
            &parse(&TOY.replace("\"toy\"", "\"maze\""), "t.toml", &[]).unwrap(),
            &rs,
        )
        .err()
        .unwrap()
        .to_string();
        assert!(
            err.starts_with("t.toml:2: unknown domain \"maze\""),
            "{err}"
        );
        let err = plan(
            &parse(&TOY.replace("[sweep]\nn = [1, 2, 3]\n", ""), "t.toml", &[]).unwrap(),
            &rs,
        )
        .err()
        .unwrap()
        .to_string();
        assert!(err.contains("parameter n of toy/walk is required"), "{err}");
    }
}
