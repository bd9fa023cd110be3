//! From a checked config to the list of runs: every variant × sweep point × replicate,
//! with parameters checked against the variant's algorithm, defaults filled in, and each
//! run's seeds and key derived from its identity alone ([`identify`], which every caller
//! uses: experiments and tunings alike).
//!
//! A run's seed depends on the base seed, the algorithm and parameter values, and the
//! replicate index (not on its position in the plan), so adding or removing other runs,
//! changing `--jobs` or resuming never changes a run's result. Its instance seed depends
//! only on the base seed, the domain, the instance's own parameters and the replicate,
//! so every variant and algorithm of an experiment meets the same problem instances. Its
//! key adds the algorithm's version and the variant, so results of an older algorithm
//! are recomputed.

use crate::pipeline::config::{Config, Located, Origin, Variant};
use crate::pipeline::metrics::MetricSpec;
use crate::pipeline::params::{Params, Value};
use crate::pipeline::runner::{Algorithm, Runner, Seeds};
use crate::util::rng::{derive_seed, fnv1a};

/// One run of an experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Position in the plan: the row order of the results.
    pub index: usize,
    pub variant: String,
    /// Its algorithm: an index into the runner's algorithms.
    pub algorithm: usize,
    pub params: Params,
    pub replicate: u64,
    pub seeds: Seeds,
    pub key: String,
}

/// Every run of one experiment.
pub struct Plan<'a> {
    pub experiment: String,
    pub runner: &'a Runner,
    /// The algorithms the runs use (indices into the runner's), in order of first use.
    pub algorithms: Vec<usize>,
    pub runs: Vec<Run>,
    /// The config's `experiment.threads_per_run` (0: all the worker threads).
    pub threads_per_run: usize,
    /// The config's `experiment.variant_label`: what its variants are.
    pub variant_label: Option<String>,
}

/// The columns every results table starts with, before parameters and metrics.
pub const RUN_COLUMNS: [&str; 10] = [
    "experiment",
    "run_index",
    "run_key",
    "variant",
    "domain",
    "algorithm",
    "algorithm_version",
    "replicate",
    "seed",
    "instance_seed",
];

/// The columns every anytime table starts with, before parameters.
pub const ANYTIME_RUN_COLUMNS: [&str; 6] = [
    "experiment",
    "run_index",
    "run_key",
    "variant",
    "algorithm",
    "replicate",
];

/// The anytime table's own columns, after parameters: the evaluations spent and the best
/// objective reached by then.
pub const ANYTIME_COLUMNS: [&str; 2] = ["iteration", "best_so_far"];

impl<'a> Plan<'a> {
    /// A run's algorithm.
    pub fn algorithm(&self, run: &Run) -> &'a Algorithm {
        &self.runner.algorithms[run.algorithm]
    }

    /// The algorithms the runs use, in order of first use.
    pub fn used(&self) -> impl Iterator<Item = &'a Algorithm> + '_ {
        self.algorithms.iter().map(|&i| &self.runner.algorithms[i])
    }

    /// The order to start `todo` (runs of this plan) in, as indices into it: longest
    /// first by the estimate the domain declares ([`ParamSpec::cost`]: the product of
    /// the parameters' estimates), so that the last runs to finish are short ones and no
    /// worker idles long at the end; runs without an estimate, and ties, keep plan
    /// order. Deterministic; it changes when runs finish, never what they record.
    ///
    /// [`ParamSpec::cost`]: crate::pipeline::params::ParamSpec::cost
    pub fn schedule(&self, todo: &[&Run]) -> Vec<usize> {
        let estimate = |run: &Run| -> f64 {
            self.algorithm(run)
                .params
                .iter()
                .filter_map(|p| p.cost)
                .map(|cost| cost(&run.params))
                .filter(|c| c.is_finite())
                .product()
        };
        let costs: Vec<f64> = todo.iter().map(|r| estimate(r)).collect();
        let mut order: Vec<usize> = (0..todo.len()).collect();
        order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]));
        order
    }

    /// The parameter names of every algorithm used, each once, in declared order: the
    /// table's parameter columns.
    pub fn param_names(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for a in self.used() {
            for p in &a.params {
                if !out.contains(&p.name) {
                    out.push(p.name);
                }
            }
        }
        out
    }

    /// True when `name` is a parameter of an algorithm used whose values are names
    /// (a choice or a text), not numbers.
    pub fn param_type_is_text(&self, name: &str) -> bool {
        use crate::pipeline::params::ParamKind;
        self.used().flat_map(|a| &a.params).any(|p| {
            p.name == name && matches!(p.kind, ParamKind::Choice(_) | ParamKind::Text { .. })
        })
    }

    /// True when column `name` of the plan's tables holds names, not numbers: the run's
    /// own text columns (its experiment, key, variant, domain and algorithm), a text
    /// metric, or a choice or text parameter. A figure or a statistic of one is refused.
    pub fn column_is_text(&self, name: &str) -> bool {
        const TEXT: [&str; 5] = ["experiment", "run_key", "variant", "domain", "algorithm"];
        TEXT.contains(&name)
            || self.metric(name).is_some_and(|spec| !spec.numeric)
            || self.param_type_is_text(name)
    }

    /// The metric columns of every algorithm used, each once, in declared order.
    pub fn metric_names(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for a in self.used() {
            for m in a.metrics.names() {
                if !out.contains(&m) {
                    out.push(m);
                }
            }
        }
        out
    }

    /// The declaration of a metric of the plan's algorithms.
    pub fn metric(&self, name: &str) -> Option<&'static MetricSpec> {
        self.used().find_map(|a| a.metrics.get(name))
    }

    /// The parameter columns and the domain's problem dimension, if it declares one.
    pub fn param_columns(&self) -> Vec<&'static str> {
        let mut c = self.param_names();
        c.extend(self.runner.dimension.map(|d| d.name));
        c
    }

    /// Every column of the results table, known before anything runs.
    pub fn columns(&self) -> Vec<&'static str> {
        let mut c: Vec<&'static str> = RUN_COLUMNS.to_vec();
        c.extend(self.param_columns());
        c.extend(self.metric_names());
        c
    }

    /// Every column of the anytime table.
    pub fn anytime_columns(&self) -> Vec<&'static str> {
        let mut c: Vec<&'static str> = ANYTIME_RUN_COLUMNS.to_vec();
        c.extend(self.param_columns());
        c.extend(ANYTIME_COLUMNS);
        c
    }
}

/// A run's seeds and key, from its identity: the domain, the algorithm and its version,
/// the parameter values, the variant, the base seed of its stream of instances and its
/// replicate index (the instance's index in that stream).
pub fn identify(
    domain: &str,
    algorithm: &Algorithm,
    params: &Params,
    variant: &str,
    base_seed: u64,
    replicate: u64,
) -> (Seeds, String) {
    let identity = format!(
        "{domain}/{}|{}",
        algorithm.name,
        params.canonical_with(algorithm.retired)
    );
    let mut instance = Params::default();
    for p in algorithm.params.iter().filter(|p| p.instance) {
        if let Some(v) = params.get(p.name) {
            instance.set(p.name, v.clone());
        }
    }
    let instance_identity = format!("{domain}|instance|{}", instance.canonical());
    // 63 bits, so that a seed fits a signed 64-bit table column and replays exactly.
    let seeds = Seeds {
        run: derive_seed(base_seed, &identity, replicate) >> 1,
        instance: derive_seed(base_seed, &instance_identity, replicate) >> 1,
    };
    let key_text = format!(
        "{identity}|v{}|{variant}|{base_seed}|{replicate}",
        algorithm.version
    );
    (seeds, format!("{:016x}", fnv1a(key_text.as_bytes())))
}

/// The runner of a config's domain, or an error naming the known ones.
pub fn runner_of<'a>(config: &Config, runners: &[&'a Runner]) -> anyhow::Result<&'a Runner> {
    let domain = &config.domain;
    match runners.iter().find(|r| r.domain == domain.value) {
        Some(r) => Ok(r),
        None => {
            let known: Vec<&str> = runners.iter().map(|r| r.domain).collect();
            crate::user_bail!(
                "{}: unknown domain {:?} (known: {})",
                domain.origin,
                domain.value,
                known.join(", ")
            )
        }
    }
}

/// The index of a variant's algorithm in the runner's, or an error naming the known ones.
fn algorithm_of(runner: &Runner, variant: &Variant) -> anyhow::Result<usize> {
    let Some(algo) = &variant.algorithm else {
        anyhow::bail!("variant {:?} has no algorithm", variant.name);
    };
    match runner.algorithms.iter().position(|a| a.name == algo.value) {
        Some(i) => Ok(i),
        None => {
            let known: Vec<&str> = runner.algorithms.iter().map(|a| a.name).collect();
            crate::user_bail!(
                "{}: unknown algorithm {:?} for domain {} (known: {})",
                algo.origin,
                algo.value,
                runner.domain,
                known.join(", ")
            )
        }
    }
}

/// Expands a config into its plan.
/// Folders of `--out` that are the program's own: the report's, the Slurm scripts'.
/// With every domain's cache folder (`pdb`), no experiment may take their names.
pub const OWN_FOLDERS: &[&str] = &["report", "slurm"];

/// An experiment's folder is `<out>/<name>`: a name that is one of the program's own
/// folders (or a domain's cache folder) would mix an experiment into it.
fn check_folder_name(config: &Config, runners: &[&Runner]) -> anyhow::Result<()> {
    let caches = runners.iter().filter_map(|r| r.cache.map(|c| c.folder));
    let mut own: Vec<&str> = OWN_FOLDERS.iter().copied().chain(caches).collect();
    own.sort_unstable();
    own.dedup();
    if own.contains(&config.name.as_str()) {
        crate::user_bail!(
            "{}: the experiment name {:?} is a folder of the program's own in --out ({}); choose another name",
            config.source,
            config.name,
            own.join(", ")
        );
    }
    Ok(())
}

pub fn plan<'a>(config: &Config, runners: &[&'a Runner]) -> anyhow::Result<Plan<'a>> {
    let runner = runner_of(config, runners)?;
    check_folder_name(config, runners)?;
    let mut plan = Plan {
        experiment: config.name.clone(),
        runner,
        algorithms: Vec::new(),
        runs: Vec::new(),
        threads_per_run: config.threads_per_run,
        variant_label: config.variant_label.clone(),
    };
    for variant in &config.variants {
        let a = algorithm_of(runner, variant)?;
        if !plan.algorithms.contains(&a) {
            plan.algorithms.push(a);
        }
        let spec = &runner.algorithms[a];
        for params in points(config, runner, spec, variant)? {
            for replicate in 0..config.replicates {
                let (seeds, key) = identify(
                    runner.domain,
                    spec,
                    &params,
                    &variant.name,
                    config.base_seed,
                    replicate,
                );
                plan.runs.push(Run {
                    index: plan.runs.len(),
                    variant: variant.name.clone(),
                    algorithm: a,
                    params: params.clone(),
                    replicate,
                    seeds,
                    key,
                });
            }
        }
    }
    Ok(plan)
}

/// A variant's sweep points: its fixed parameters and defaults, times each axis, with
/// the parameters whose condition does not hold removed. Every value is checked against
/// the algorithm's declaration.
fn points(
    config: &Config,
    runner: &Runner,
    spec: &Algorithm,
    variant: &Variant,
) -> anyhow::Result<Vec<Params>> {
    for (name, located) in &variant.params {
        check_declared(spec, runner.domain, name, &located.origin)?;
    }
    for axis in &variant.sweep {
        check_declared(spec, runner.domain, &axis.name, &axis.values[0].origin)?;
    }
    let mut points = vec![base_point(config, runner, spec, variant)?];
    for axis in &variant.sweep {
        let values: Vec<Value> = axis
            .values
            .iter()
            .map(|v| check(spec, &axis.name, v))
            .collect::<anyhow::Result<_>>()?;
        let mut next = Vec::with_capacity(points.len() * values.len());
        for p in &points {
            for v in &values {
                let mut q = p.clone();
                q.set(&axis.name, v.clone());
                next.push(q);
            }
        }
        points = next;
    }
    for params in &mut points {
        drop_unused(spec, variant, params)?;
        check_required(config, runner, spec, variant, params)?;
    }
    Ok(points)
}

/// The fixed parameters of a variant, with defaults; axes are null until expanded.
fn base_point(
    config: &Config,
    runner: &Runner,
    spec: &Algorithm,
    variant: &Variant,
) -> anyhow::Result<Params> {
    let mut base = Params::default();
    for p in &spec.params {
        let value = match variant.params.get(p.name) {
            Some(located) => check(spec, p.name, located)?,
            None => match (&p.default, variant.sweep.iter().any(|a| a.name == p.name)) {
                (_, true) => Value::Null,
                (Some(d), false) => d.clone(),
                // Required only where its condition holds: checked per run.
                (None, false) if p.when.is_some() => Value::Null,
                (None, false) => crate::user_bail!(
                    "{}: parameter {} of {}/{} is required ({})",
                    config.source,
                    p.name,
                    runner.domain,
                    spec.name,
                    p.kind.describe()
                ),
            },
        };
        base.set(p.name, value);
    }
    Ok(base)
}

/// A parameter without a default must have a value wherever it is used.
fn check_required(
    config: &Config,
    runner: &Runner,
    spec: &Algorithm,
    variant: &Variant,
    params: &Params,
) -> anyhow::Result<()> {
    let Some(p) = spec
        .params
        .iter()
        .find(|p| p.default.is_none() && params.get(p.name) == Some(&Value::Null))
    else {
        return Ok(());
    };
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
        runner.domain,
        spec.name,
        p.kind.describe()
    )
}

/// Removes the parameters whose condition does not hold for this run, so that they are
/// in neither its key nor its seed (and null in the tables). One that the config sets
/// explicitly is an error naming where it was set.
fn drop_unused(spec: &Algorithm, variant: &Variant, params: &mut Params) -> anyhow::Result<()> {
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
    spec: &Algorithm,
    domain: &str,
    name: &str,
    origin: &Origin,
) -> anyhow::Result<()> {
    if spec.param(name).is_some() {
        return Ok(());
    }
    if let Some(p) = spec
        .params
        .iter()
        .find(|p| p.formerly.is_some_and(|(old, _)| old == name))
    {
        let why = p.formerly.map_or("", |(_, why)| why);
        crate::user_bail!(
            "{origin}: {name} is now called {} in {domain}/{} ({why})",
            p.name,
            spec.name
        );
    }
    let known: Vec<&str> = spec.params.iter().map(|p| p.name).collect();
    crate::user_bail!(
        "{origin}: unknown parameter {name:?} for {domain}/{} (known: {})",
        spec.name,
        known.join(", ")
    )
}

fn check(spec: &Algorithm, name: &str, located: &Located<Value>) -> anyhow::Result<Value> {
    let p = spec
        .param(name)
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
            /// Steps taken.
            steps: u64 [lower, "steps", ""],
        }
    }

    fn toy() -> Runner {
        let walk = |name, instance: bool| {
            let n = ParamSpec::int("n", 1, 100, None, "");
            Algorithm {
                name,
                version: 1,
                description: "",
                metrics: crate::pipeline::metrics::MetricsSpec::of::<ToyMetrics>(),
                anytime: false,
                retired: &[],
                params: vec![
                    if instance { n.instance() } else { n },
                    ParamSpec::float("p", 0.0, 1.0, false, Some(0.5), ""),
                ],
                run: |_, _, _| Ok(RunOutput::default()),
            }
        };
        Runner {
            domain: "toy",
            description: "a toy",
            algorithms: vec![walk("walk", true), walk("jump", true)],
            cache: None,
            dimension: None,
            objective: None,
        }
    }

    fn plan_of(text: &str, sets: &[&str]) -> anyhow::Result<Vec<Run>> {
        let runner = toy();
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        Ok(plan(&parse(text, "t.toml", &sets)?, &[&runner])?.runs)
    }

    const TOY: &str = "[experiment]\ndomain = \"toy\"\nalgorithm = \"walk\"\n[sweep]\nn = [1, 2, 3]\n[replicates]\ncount = 4\nbase_seed = 9\n";

    #[test]
    fn grid_times_replicates_with_defaults() {
        let runs = plan_of(TOY, &[]).unwrap();
        assert_eq!(runs.len(), 12);
        assert!(
            runs.iter()
                .all(|r| r.params.get("p") == Some(&Value::Float(0.5)))
        );
        let keys: std::collections::HashSet<_> = runs.iter().map(|r| &r.key).collect();
        assert_eq!(keys.len(), 12);
        assert_eq!(runs[5].index, 5);
    }

    #[test]
    fn runs_start_longest_first_by_the_declared_cost_ties_in_plan_order() {
        let mut runner = toy();
        let n = &mut runner.algorithms[0].params[0];
        *n = n.clone().cost(|p| p.int("n").map_or(0.0, |n| n as f64));
        let plan = plan(&parse(TOY, "t.toml", &[]).unwrap(), &[&runner]).unwrap();
        let todo: Vec<&Run> = plan.runs.iter().collect();
        let started: Vec<(i64, usize)> = plan
            .schedule(&todo)
            .into_iter()
            .map(|i| (todo[i].params.int("n").unwrap(), todo[i].index))
            .collect();
        let mut expected = started.clone();
        expected.sort_by_key(|&(n, index)| (std::cmp::Reverse(n), index));
        assert_eq!(started, expected);
        assert_eq!(started.first().map(|s| s.0), Some(3));
        assert_eq!(started.len(), 12);
        // Without an estimate, the plan's order.
        let plain = toy();
        let plan = super::plan(&parse(TOY, "t.toml", &[]).unwrap(), &[&plain]).unwrap();
        let todo: Vec<&Run> = plan.runs.iter().collect();
        assert_eq!(plan.schedule(&todo), (0..12).collect::<Vec<_>>());
    }

    #[test]
    fn a_runs_seed_does_not_depend_on_the_rest_of_the_sweep() {
        let all = plan_of(TOY, &[]).unwrap();
        let one = plan_of(TOY, &["sweep.n=[2]"]).unwrap();
        let from_all: Vec<_> = all
            .iter()
            .filter(|r| r.params.get("n") == Some(&Value::Int(2)))
            .map(|r| (r.seeds, r.key.clone()))
            .collect();
        let from_one: Vec<_> = one.iter().map(|r| (r.seeds, r.key.clone())).collect();
        assert_eq!(from_all, from_one);
    }

    #[test]
    fn every_algorithm_meets_the_same_instances() {
        let mixed = format!(
            "{TOY}[[variant]]\nname = \"w\"\n[[variant]]\nname = \"j\"\nalgorithm = \"jump\"\nparams = {{ p = 0.25 }}\n"
        );
        let runs = plan_of(&mixed, &[]).unwrap();
        assert_eq!(runs.len(), 24);
        let (w, j) = runs.split_at(12);
        assert!(w.iter().all(|r| r.algorithm == 0) && j.iter().all(|r| r.algorithm == 1));
        for (a, b) in w.iter().zip(j) {
            // Same n and replicate: the same instance, but the method's own seed differs.
            assert_eq!(
                (a.params.get("n"), a.replicate),
                (b.params.get("n"), b.replicate)
            );
            assert_eq!(a.seeds.instance, b.seeds.instance);
            assert_ne!(a.seeds.run, b.seeds.run);
            assert_ne!(a.key, b.key);
        }
        let instances: std::collections::HashSet<u64> =
            w.iter().map(|r| r.seeds.instance).collect();
        assert_eq!(instances.len(), 12, "each (n, replicate) its own instance");
    }

    #[test]
    fn errors_name_the_place() {
        let err = |text: &str, sets: &[&str]| plan_of(text, sets).err().unwrap().to_string();
        let bad = TOY.replace("n = [1, 2, 3]", "n = [1, 200]");
        assert_eq!(
            err(&bad, &[]),
            "t.toml:5: n = 200 is out of range (expected 1 to 100)"
        );
        let e = err(TOY, &["params.q=1"]);
        assert!(
            e.starts_with("--set params.q=1: unknown parameter \"q\""),
            "{e}"
        );
        let e = err(&TOY.replace("\"toy\"", "\"maze\""), &[]);
        assert!(e.starts_with("t.toml:2: unknown domain \"maze\""), "{e}");
        let e = err(&TOY.replace("[sweep]\nn = [1, 2, 3]\n", ""), &[]);
        assert!(e.contains("parameter n of toy/walk is required"), "{e}");
        let e = err(&TOY.replace("\"walk\"", "\"run\""), &[]);
        assert!(e.starts_with("t.toml:3: unknown algorithm \"run\""), "{e}");
        let none = TOY.replace("algorithm = \"walk\"\n", "");
        let e = err(&none, &[]);
        assert!(e.contains("no algorithm"), "{e}");
    }
}
