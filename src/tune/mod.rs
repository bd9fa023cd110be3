//! Tuning by racing (irace's F-race) and held-out evaluation of the winners.
//!
//! `searchlab tune CONFIG` takes the candidate settings of each variant of a config (the
//! points of its sweep, or settings sampled from the ranges of its `[tune]` section),
//! races each variant's candidates under the same budget of evaluations on a shared
//! sequence of training instances ([`race`]; the `[tune]` section is read by [`spec`]),
//! and runs each variant's elite on
//! held-out instances never used in tuning. An instance is a seed: the same for every
//! candidate (common random numbers), so a run that draws its start from its seed (a
//! maze, where the config fixes none) gets the same start for every candidate.
//!
//! Everything goes through the pipeline's runner and journal, so the race is resumable
//! and reproducible whatever `--jobs`: the same config gives the same race, elites and
//! tables. Outputs, in `<out>/<experiment>/tune/`: `race` (one row per candidate:
//! when it was dropped, its evaluations and training values), `race_steps` (candidates
//! alive after each instance), `race_runs` (every training evaluation), `heldout` and
//! `heldout_anytime` and `heldout_improvements` (the elites on the test instances, with
//! the columns of an experiment's results, anytime and improvements tables), the figure `race` and `manifest.json`.

pub mod race;
pub mod spec;

use crate::pipeline::config::Config;
use crate::pipeline::execute::{Options, compute};
use crate::pipeline::journal::{ExperimentLock, RunRecord};
use crate::pipeline::manifest::{Manifest, Work};
use crate::pipeline::metrics::Better;
use crate::pipeline::params::{Params, Value};
use crate::pipeline::plan::{Plan, Run, identify};
use crate::pipeline::progress::Progress;
use crate::pipeline::recorded::{Access, Expected};
use crate::pipeline::results::frames;
use crate::pipeline::table::{ColumnBuilder, frame, write_both};
use crate::present::figure::{FigureKind, FigureSpec};
use crate::util::rng::{derive_seed, rng_from_seed};
use polars::prelude::DataFrame;
use race::Race;
use rand::RngExt;
use spec::TuneSpec;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Command-line changes to a config's `[tune]` section.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub budget: Option<u64>,
    pub train_seeds: Option<u64>,
    pub test_seeds: Option<u64>,
}

/// What a tuning produced.
pub struct Tuned {
    pub dir: PathBuf,
    pub spec: TuneSpec,
    /// One row per candidate.
    pub race: DataFrame,
    /// Candidates alive after each instance, per variant.
    pub steps: DataFrame,
    /// The elites on the held-out instances: an experiment's results and anytime tables.
    pub heldout: DataFrame,
    pub heldout_anytime: DataFrame,
    /// Evaluations in all (race and held-out) and how many were computed now.
    pub evaluations: usize,
    pub computed: usize,
    pub seconds: f64,
}

/// The folder a config's tuning writes to.
pub fn tune_dir(out: &Path, experiment: &str) -> PathBuf {
    out.join(experiment).join("tune")
}

/// The columns of the race table, for checking study blocks before anything runs.
pub fn race_columns(plan: &Plan) -> Vec<&'static str> {
    let mut c = vec!["variant", "candidate"];
    c.extend(plan.param_names());
    c.extend([
        "instances",
        "dropped_after",
        "mean_rank",
        "train_mean",
        "train_median",
        "elite",
        "evaluations_used",
        "budget",
    ]);
    c
}

/// The columns of the race-steps table.
pub const STEP_COLUMNS: [&str; 4] = ["variant", "instances", "alive", "evaluations"];

/// The spec of `config`'s `[tune]` section with the command line's changes.
pub fn spec_of(config: &Config, plan: &Plan, o: &Overrides) -> anyhow::Result<TuneSpec> {
    let Some(mut spec) = spec::read(config, plan)? else {
        crate::user_bail!(
            "{}: no [tune] section (it names the metric to race on; see the README)",
            config.source
        );
    };
    for (flag, value, field) in [
        ("--budget", o.budget, &mut spec.budget),
        ("--train-seeds", o.train_seeds, &mut spec.train_seeds),
        ("--test-seeds", o.test_seeds, &mut spec.test_seeds),
    ] {
        if let Some(v) = value {
            if v == 0 || v > spec::MAX_TUNE_RUNS {
                crate::user_bail!(
                    "{flag} {v} is out of range (expected 1 to {})",
                    spec::MAX_TUNE_RUNS
                );
            }
            *field = v;
        }
    }
    let most = most_evaluations(plan, &spec);
    if most > crate::pipeline::config::MAX_RUNS {
        crate::user_bail!(
            "{}:{}: the tuning may take {most} evaluations (variants × (budget {} + test_seeds {})), more than the {} one experiment may have; lower the budget or the test seeds",
            config.source,
            spec.line,
            spec.budget,
            spec.test_seeds,
            crate::pipeline::config::MAX_RUNS
        );
    }
    if spec.first_test > spec.train_seeds {
        crate::user_bail!(
            "--train-seeds {} is fewer than the first test's {} instances ({}:{})",
            spec.train_seeds,
            spec.first_test,
            config.source,
            spec.line
        );
    }
    Ok(spec)
}

/// A variant's candidates.
struct Family {
    name: String,
    /// The variant's algorithm (an index into the runner's).
    algorithm: usize,
    candidates: Vec<Params>,
}

/// Each variant's candidate settings: its sweep points in plan order, or sampled ones.
fn families(config: &Config, plan: &Plan, spec: &TuneSpec) -> anyhow::Result<Vec<Family>> {
    let mut out: Vec<Family> = Vec::new();
    for run in plan.runs.iter().filter(|r| r.replicate == 0) {
        match out.iter_mut().find(|f| f.name == run.variant) {
            Some(f) => f.candidates.push(run.params.clone()),
            None => out.push(Family {
                name: run.variant.clone(),
                algorithm: run.algorithm,
                candidates: vec![run.params.clone()],
            }),
        }
    }
    for f in &mut out {
        let key = if f.name.is_empty() { "all" } else { &f.name };
        let Some(ranges) = spec.sample.get(key) else {
            continue;
        };
        let base = f.candidates[0].clone();
        let algorithm = &plan.runner.algorithms[f.algorithm];
        let mut sampled = Vec::new();
        for s in 0..spec.samples {
            let identity = format!("tune|sample|{}", f.name);
            let mut rng = rng_from_seed(derive_seed(spec.seed, &identity, s));
            let mut p = base.clone();
            for (name, range) in ranges {
                let Some(ps) = algorithm.param(name) else {
                    crate::user_bail!(
                        "{}:{}: tune.sample.{key}.{name}: {} has no parameter {name}",
                        config.source,
                        spec.line,
                        algorithm.name
                    );
                };
                if ps.instance || ps.budget {
                    crate::user_bail!(
                        "{}:{}: tune.sample.{key}.{name}: {name} is {}; a race gives every candidate the same {}",
                        config.source,
                        spec.line,
                        if ps.instance {
                            "part of the problem instance"
                        } else {
                            "the run's budget"
                        },
                        if ps.instance { "instances" } else { "budget" }
                    );
                }
                if base.get(name).is_none() {
                    crate::user_bail!(
                        "{}:{}: tune.sample.{key}.{name}: not used by variant {key:?}",
                        config.source,
                        spec.line
                    );
                }
                let x = range.at(rng.random::<f64>());
                let value = match ps.kind {
                    crate::pipeline::params::ParamKind::Int { .. }
                    | crate::pipeline::params::ParamKind::OptionalInt { .. } => {
                        Value::Int(x.round() as i64)
                    }
                    _ => Value::Float(x),
                };
                let value = ps.check(&value).map_err(|e| {
                    crate::user_error!(
                        "{}:{}: tune.sample.{key}.{name}: {e}",
                        config.source,
                        spec.line
                    )
                })?;
                p.set(name, value);
            }
            sampled.push(p);
        }
        f.candidates = sampled;
    }
    Ok(out)
}

/// The most evaluations a tuning can take (every race spending its whole budget), for
/// progress bars.
pub fn most_evaluations(plan: &Plan, spec: &TuneSpec) -> u64 {
    let mut variants: Vec<&str> = plan.runs.iter().map(|r| r.variant.as_str()).collect();
    variants.dedup();
    (variants.len() as u64).saturating_mul(spec.budget.saturating_add(spec.test_seeds))
}

/// The evaluations a tuning may still compute: the most it can take, less those its
/// journal already holds (none with `force`). An upper bound: a race stops early.
/// Only the records of runs this tuning can make count: a journal also keeps the runs of
/// earlier settings or algorithm versions.
pub fn to_evaluate(
    config: &Config,
    plan: &Plan,
    spec: &TuneSpec,
    out: &Path,
    force: bool,
) -> anyhow::Result<u64> {
    let journal = tune_dir(out, &plan.experiment).join("evaluations.jsonl");
    let upper = most_evaluations(plan, spec);
    if force || !journal.exists() {
        return Ok(upper);
    }
    let possible = possible_runs(plan, spec, &families(config, plan, spec)?);
    let none = |_: &str| None;
    let recorded = crate::pipeline::recorded::checked_journal(&none, &journal, Access::Count)?;
    Ok(upper.saturating_sub(reusable(&possible, recorded.keys())))
}

/// How many of `keys` name runs the tuning can make (at most one each).
fn reusable<'a>(
    possible: &HashMap<String, Expected>,
    keys: impl Iterator<Item = &'a String>,
) -> u64 {
    keys.filter(|k| possible.contains_key(*k)).count() as u64
}

/// The base seed of a split's stream of instances ("train" or "test"): instance `i`
/// of the split is replicate `i` of that stream, the same for every candidate and
/// variant.
fn stream_seed(spec: &TuneSpec, split: &str) -> u64 {
    derive_seed(spec.seed, &format!("tune|{split}"), 0) >> 1
}

/// A run of `params` (of `family`) on instance `i` of `split`.
fn evaluation(
    plan: &Plan,
    spec: &TuneSpec,
    family: &Family,
    params: &Params,
    split: &str,
    i: u64,
    index: usize,
) -> Run {
    let algorithm = &plan.runner.algorithms[family.algorithm];
    let (seeds, key) = identify(
        plan.runner.domain,
        algorithm,
        params,
        &family.name,
        stream_seed(spec, split),
        i,
    );
    Run {
        index,
        variant: family.name.clone(),
        algorithm: family.algorithm,
        params: params.clone(),
        replicate: i,
        seeds,
        key,
    }
}

/// The raced value of a record: the metric, missing values filled, negated when higher
/// is better (races minimise).
fn raced_value(spec: &TuneSpec, record: &RunRecord) -> anyhow::Result<f64> {
    let v = record
        .metrics
        .iter()
        .find(|(k, _)| *k == spec.metric)
        .map(|(_, v)| v.clone())
        .unwrap_or(Value::Null);
    let x = match v.as_f64() {
        Some(x) => x,
        None => spec.missing.ok_or_else(|| {
            crate::user_error!(
                "tune: a run has no value of {} (set tune.missing to the value it counts as)",
                spec.metric
            )
        })?,
    };
    Ok(if spec.better == Better::Higher { -x } else { x })
}

/// The evaluations of a tuning: its journal, the records so far, and how many were
/// computed now.
struct Evaluations<'a, 'p> {
    plan: &'a Plan<'p>,
    opts: &'a Options,
    journal: PathBuf,
    done: HashMap<String, RunRecord>,
    computed: usize,
}

impl Evaluations<'_, '_> {
    /// Computes the runs not yet recorded (recording them in the journal).
    fn compute<'r>(
        &mut self,
        runs: impl Iterator<Item = &'r Run>,
        stage: &mut crate::pipeline::progress::Stage,
    ) -> anyhow::Result<()> {
        let todo: Vec<&Run> = runs.filter(|r| !self.done.contains_key(&r.key)).collect();
        if !todo.is_empty() {
            self.computed += todo.len();
            compute(
                self.plan,
                todo,
                self.opts,
                &self.journal,
                &mut self.done,
                stage,
                None,
            )?;
        }
        Ok(())
    }
}

/// Races every variant's candidates and evaluates the elites on held-out instances.
pub fn tune(
    config: &Config,
    plan: &Plan,
    spec: &TuneSpec,
    opts: &Options,
    progress: &Progress,
) -> anyhow::Result<Tuned> {
    let started = Instant::now();
    let started_at = crate::util::timestamp::now_utc();
    let dir = tune_dir(&opts.out, &plan.experiment);
    crate::pipeline::recorded::create_dir(&dir)?;
    let _lock = ExperimentLock::acquire(&dir)?;
    crate::util::atomic::remove_stale(&dir);
    let journal = dir.join("evaluations.jsonl");
    let families = families(config, plan, spec)?;
    // Every record is checked against its run's algorithm, as an experiment's are;
    // with `force` every run is computed again, each replacing its old record.
    let algorithms = possible_runs(plan, spec, &families);
    let algorithm_of = |key: &str| algorithms.get(key).copied();
    let recorded =
        crate::pipeline::recorded::checked_journal(&algorithm_of, &journal, Access::Owner(None))?;
    let mut ev = Evaluations {
        plan,
        opts,
        done: match opts.force {
            true => HashMap::new(),
            false => recorded.into_iter().map(|(k, v)| (k, v.record)).collect(),
        },
        journal,
        computed: 0,
    };
    let upper = most_evaluations(plan, spec);
    let reused = reusable(&algorithms, ev.done.keys()).min(upper);
    let mut stage = progress.experiment(&format!("{} (tune)", plan.experiment), upper, reused);
    let (train, races) = race_all(&mut ev, spec, &families, &mut stage)?;
    let heldout = heldout_runs(plan, spec, &families, &races);
    ev.compute(heldout.iter(), &mut stage)?;
    stage.finish();
    let evaluations = train.len() + heldout.len();
    let tables = write_tables(&dir, &ev, spec, &families, &races, train, heldout)?;
    let manifest = Manifest::new(
        config,
        plan,
        opts.jobs,
        &opts.host,
        &started_at,
        Work::Tune {
            settings: serde_json::to_value(spec)?,
            evaluations,
        },
    );
    manifest.finished().write(&dir.join("manifest.json"))?;
    Ok(Tuned {
        dir,
        spec: spec.clone(),
        race: tables.race,
        steps: tables.steps,
        heldout: tables.heldout,
        heldout_anytime: tables.heldout_anytime,
        evaluations,
        computed: ev.computed,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Runs every race to its end, one training instance for every race still going at a
/// time; returns the training runs and the races.
fn race_all(
    ev: &mut Evaluations,
    spec: &TuneSpec,
    families: &[Family],
    stage: &mut crate::pipeline::progress::Stage,
) -> anyhow::Result<(Vec<Run>, Vec<Race>)> {
    let mut races: Vec<Race> = families
        .iter()
        .map(|f| {
            Race::new(
                f.candidates.len(),
                spec.budget,
                spec.train_seeds,
                spec.first_test,
                spec.alpha,
            )
        })
        .collect();
    let mut train: Vec<Run> = Vec::new();
    loop {
        // (race, its alive candidates, the index of their first run in `train`).
        let mut round: Vec<(usize, Vec<usize>, usize)> = Vec::new();
        for (r, race) in races.iter().enumerate() {
            let Some(alive) = race.next() else { continue };
            let first = train.len();
            let f = &families[r];
            for &c in &alive {
                let i = race.instances();
                let run = evaluation(ev.plan, spec, f, &f.candidates[c], "train", i, train.len());
                train.push(run);
            }
            round.push((r, alive, first));
        }
        if round.is_empty() {
            return Ok((train, races));
        }
        let runs = round
            .iter()
            .flat_map(|(_, a, first)| &train[*first..*first + a.len()]);
        ev.compute(runs, stage)?;
        for (r, alive, first) in &round {
            let values = train[*first..*first + alive.len()]
                .iter()
                .map(|run| raced_value(spec, &ev.done[&run.key]))
                .collect::<anyhow::Result<Vec<f64>>>()?;
            races[*r].record(&values);
        }
    }
}

/// What the record of every run a tuning may make (each candidate on every training and
/// held-out instance) must fit, by run key, for checking its journal's records.
fn possible_runs<'a>(
    plan: &Plan<'a>,
    spec: &TuneSpec,
    families: &[Family],
) -> HashMap<String, Expected<'a>> {
    let mut out = HashMap::new();
    for f in families {
        let algorithm = &plan.runner.algorithms[f.algorithm];
        for c in &f.candidates {
            let splits = [("train", spec.train_seeds), ("test", spec.test_seeds)];
            for (split, n) in splits {
                for i in 0..n {
                    let run = evaluation(plan, spec, f, c, split, i, 0);
                    out.insert(run.key, Expected::of(algorithm, &run.params));
                }
            }
        }
    }
    out
}

/// Each family's elite on every held-out instance.
fn heldout_runs(plan: &Plan, spec: &TuneSpec, families: &[Family], races: &[Race]) -> Vec<Run> {
    families
        .iter()
        .zip(races)
        .flat_map(|(f, race)| {
            let elite = &f.candidates[race.elite()];
            (0..spec.test_seeds).map(move |j| (f, elite, j))
        })
        .enumerate()
        .map(|(index, (f, elite, j))| evaluation(plan, spec, f, elite, "test", j, index))
        .collect()
}

/// The tables a tuning writes, as it returns them.
struct TuneTables {
    race: DataFrame,
    steps: DataFrame,
    heldout: DataFrame,
    heldout_anytime: DataFrame,
}

/// Writes the tuning's tables and its race figure to `dir`.
fn write_tables(
    dir: &Path,
    ev: &Evaluations,
    spec: &TuneSpec,
    families: &[Family],
    races: &[Race],
    train: Vec<Run>,
    heldout: Vec<Run>,
) -> anyhow::Result<TuneTables> {
    let plan = ev.plan;
    let subplan = |runs: Vec<Run>| Plan {
        experiment: plan.experiment.clone(),
        runner: plan.runner,
        algorithms: plan.algorithms.clone(),
        runs,
        threads_per_run: plan.threads_per_run,
        variant_label: plan.variant_label.clone(),
    };
    let (mut race_runs, _) = frames(&subplan(train), &ev.done)?;
    let mut heldout_improvements =
        crate::pipeline::results::improvements(&subplan(heldout.clone()), &ev.done)?;
    let (mut heldout, mut heldout_anytime) = frames(&subplan(heldout), &ev.done)?;
    let mut race = race_table(plan, spec, families, races)?;
    let mut steps = steps_table(families, races)?;
    write_both(&mut race_runs, dir, "race_runs")?;
    write_both(&mut heldout, dir, "heldout")?;
    write_both(&mut heldout_anytime, dir, "heldout_anytime")?;
    write_both(&mut heldout_improvements, dir, "heldout_improvements")?;
    write_both(&mut race, dir, "race")?;
    write_both(&mut steps, dir, "race_steps")?;
    race_figure(plan, &steps, dir)?;
    Ok(TuneTables {
        race,
        steps,
        heldout,
        heldout_anytime,
    })
}

/// The race figure: candidates alive against training instances, per variant.
fn race_figure(plan: &Plan, steps: &DataFrame, dir: &Path) -> anyhow::Result<()> {
    let figure = FigureSpec {
        x: Some("instances".into()),
        group: vec!["variant".into()],
        title: format!("Racing {}: candidates alive", plan.experiment),
        x_label: Some("training instances".into()),
        y_label: Some("candidates alive".into()),
        ..FigureSpec::new(FigureKind::Line, "alive")
    };
    let fig = crate::present::figure::build(&figure, steps)?;
    crate::present::plot::save_printed(&fig, &dir.join("race"), Some(&figure.print(1)))?;
    Ok(())
}

/// One row per candidate of every race.
fn race_table(
    plan: &Plan,
    spec: &TuneSpec,
    families: &[Family],
    races: &[Race],
) -> anyhow::Result<DataFrame> {
    let params = plan.param_names();
    let columns = race_columns(plan);
    let mut cols: Vec<ColumnBuilder> = columns.iter().map(|c| ColumnBuilder::new(c)).collect();
    let sign = if spec.better == Better::Higher {
        -1.0
    } else {
        1.0
    };
    for (f, race) in families.iter().zip(races) {
        let elite = race.elite();
        let ranks = race.mean_ranks();
        for (c, p) in f.candidates.iter().enumerate() {
            let values: Vec<f64> = race.values_of(c).iter().map(|v| sign * v).collect();
            let mut row = vec![Value::from(f.name.as_str()), Value::from(c)];
            row.extend(
                params
                    .iter()
                    .map(|n| p.get(n).cloned().unwrap_or(Value::Null)),
            );
            row.extend([
                Value::from(values.len()),
                Value::from(race.dropped_after(c)),
                Value::Float(ranks[c]),
                Value::from(crate::stats::mean(&values)),
                Value::from(crate::stats::median(&values)),
                Value::Bool(c == elite),
                Value::from(race.used()),
                Value::from(spec.budget),
            ]);
            for (col, v) in cols.iter_mut().zip(row) {
                col.push(v);
            }
        }
    }
    frame(cols)
}

/// Candidates alive after each instance (0: before the first), per race.
fn steps_table(families: &[Family], races: &[Race]) -> anyhow::Result<DataFrame> {
    let mut cols: Vec<ColumnBuilder> = STEP_COLUMNS.iter().map(|c| ColumnBuilder::new(c)).collect();
    for (f, race) in families.iter().zip(races) {
        let mut used = 0u64;
        let mut alive = f.candidates.len();
        let mut rows = vec![(0u64, alive, 0u64)];
        for &(n, after) in race.steps() {
            used += alive as u64;
            alive = after;
            rows.push((n, after, used));
        }
        for (n, a, u) in rows {
            for (col, v) in cols.iter_mut().zip([
                Value::from(f.name.as_str()),
                Value::from(n),
                Value::from(a),
                Value::from(u),
            ]) {
                col.push(v);
            }
        }
    }
    frame(cols)
}

/// The elites for the terminal: each variant's elite with its parameters and how it was
/// chosen, then their held-out ranking (median, mean, p-value against the best, A12), as
/// `compare` prints it (Wilcoxon signed-rank on the shared held-out instances when
/// several variants raced).
pub fn describe_elites(t: &Tuned, plan: &Plan) -> anyhow::Result<String> {
    use crate::present::format::{markdown_table, number};
    let elite = crate::pipeline::table::rows_where(&t.race, "elite", "true")?;
    let variants = crate::pipeline::table::texts(&elite, "variant")?;
    let used = crate::pipeline::table::floats(&elite, "evaluations_used")?;
    let all = crate::pipeline::table::texts(&t.race, "variant")?;
    let mut out = String::new();
    for (i, v) in variants.iter().enumerate() {
        let candidates = all.iter().filter(|x| *x == v).count();
        let params: Vec<String> = plan
            .param_names()
            .iter()
            .filter_map(|p| {
                let text = crate::pipeline::table::texts(&elite, p).ok()?[i].clone();
                (!text.is_empty()).then(|| format!("{p} = {text}"))
            })
            .collect();
        let how = match candidates {
            1 => "its only candidate (no race)".to_string(),
            n => format!(
                "the elite of {n} candidates after {} runs",
                number(used[i].unwrap_or(0.0), 0)
            ),
        };
        out.push_str(&format!(
            "{}: {how}: {}\n",
            if v.is_empty() { "(all)" } else { v },
            params.join(", ")
        ));
    }
    if variants.len() < 2 {
        return Ok(out);
    }
    let by = vec!["variant".to_string()];
    let groups = crate::present::view::summarize(&t.heldout, &by, &t.spec.metric, t.spec.missing)?;
    let pairing = crate::present::compare::Pairing::By(vec!["replicate".into()]);
    let ranked = crate::present::compare::rank(
        groups,
        &t.spec.metric,
        t.spec.better,
        &pairing,
        t.spec.missing,
    )?;
    let head = [
        "rank",
        "variant",
        "held-out runs",
        "median",
        "mean",
        "p vs best (Wilcoxon, Holm)",
        "A12 of best",
    ]
    .map(String::from);
    let rows: Vec<Vec<String>> = ranked
        .iter()
        .map(|r| {
            let s = &r.entry.summary;
            vec![
                r.rank.to_string(),
                r.entry.group.label(),
                s.n.to_string(),
                number(s.median, 2),
                number(s.mean, 3),
                r.p_holm.map_or("–".into(), |p| {
                    crate::present::facts::format_fact(&p.into(), "p").unwrap_or_default()
                }),
                r.a12.map_or("–".into(), |a| number(a, 2)),
            ]
        })
        .collect();
    out.push_str(&format!(
        "\nThe elites on the held-out instances ({}):\n",
        t.spec.metric
    ));
    out.push_str(&markdown_table(&head, &rows));
    Ok(out)
}

/// Each elite's held-out values, by variant, for tests and the terminal.
pub fn heldout_values(t: &Tuned) -> anyhow::Result<HashMap<String, Vec<f64>>> {
    let variants = crate::pipeline::table::texts(&t.heldout, "variant")?;
    let values = crate::pipeline::table::floats(&t.heldout, &t.spec.metric)?;
    let mut out: HashMap<String, Vec<f64>> = HashMap::new();
    for (v, x) in variants.into_iter().zip(values) {
        out.entry(v)
            .or_default()
            .push(x.or(t.spec.missing).unwrap_or(f64::NAN));
    }
    Ok(out)
}
