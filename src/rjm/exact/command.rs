//! `searchlab rjm exact`: the proof of one size run through the pipeline, as the
//! experiment `rjm_exact_N` (one run per part, in `--out DIR/rjm_exact_N/`): it resumes
//! where an earlier run stopped, takes one shard with `--shard`, stops cleanly at
//! `--seconds` or Ctrl-C, and prints what the finished parts prove.

use super::board::{Start, install_board};
use super::proof::{Finished, Proof};
use super::run::ExactMetrics;
use crate::pipeline::execute::{Options, RunEnv, cap_jobs, experiment_dir};
use crate::pipeline::metrics::Metrics;
use crate::pipeline::plan::Plan;
use crate::pipeline::progress::Progress;
use crate::pipeline::shard::Shard;
use crate::util::cancel::is_interrupted;
use std::path::{Path, PathBuf};

/// What `rjm exact` was asked.
pub struct Request<'o> {
    pub size: usize,
    pub seconds: Option<f64>,
    pub at_least: Option<u32>,
    pub out: PathBuf,
    pub shard: Option<Shard>,
    pub jobs: usize,
    pub list: Option<PathBuf>,
    /// The machine's name, for the manifest.
    pub host: String,
    /// Where the progress of the parts goes.
    pub observer: &'o dyn crate::util::observe::Observer,
}

/// What the stop request says it does.
const STOP: &str = "the search ends and prints what it proved";

/// Runs the request's parts that no journal holds yet and describes the proof.
pub fn exact(r: &Request<'_>) -> anyhow::Result<String> {
    let name = format!("rjm_exact_{}", r.size);
    let sets: Vec<String> = r
        .at_least
        .map(|l| format!("params.at_least={l}"))
        .into_iter()
        .collect();
    let config = crate::pipeline::config::load_named(Path::new("."), &name, &sets)?;
    let runner = crate::rjm::runner::runner();
    let plan = crate::pipeline::plan::plan(&config, &[&runner])?;
    let at_least = threshold(&plan, r.size, &name)?;
    let env = RunEnv {
        cancel: crate::util::cancel::on_interrupt(STOP),
        ..RunEnv::default()
    };
    let opts = Options {
        jobs: cap_jobs("--jobs", r.jobs),
        force: false,
        out: r.out.clone(),
        env,
        host: r.host.clone(),
    };
    let dir = experiment_dir(&opts.out, &plan.experiment);
    let before = finished_parts(&plan, &dir)?;
    let parts = super::run::sized(&opts.env.memo, r.size)?;
    let done: std::collections::BTreeSet<usize> = before.iter().map(|f| f.part).collect();
    install_board(
        &opts.env.memo,
        Start {
            size: r.size,
            at_least,
            parts: parts.parts.len(),
            open: (0..parts.parts.len())
                .filter(|i| !done.contains(i))
                .map(|i| (i, parts.parts[i].bound))
                .collect(),
            lower: Proof::of(r.size, at_least, &before)?.lower,
        },
    )?;
    if let Some(seconds) = r.seconds {
        let cancel = std::sync::Arc::clone(&opts.env.cancel);
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs_f64(seconds));
            cancel.cancel();
        });
    }
    let missing = crate::pipeline::recorded::missing_in_shard(&plan, &dir, false, r.shard)?;
    let progress = Progress::new(r.observer, missing as u64);
    let ran = match r.shard {
        Some(shard) => {
            crate::pipeline::execute::run_shard(&config, &plan, &opts, shard, &progress).map(|_| ())
        }
        None => {
            crate::pipeline::execute::run_experiment(&config, &plan, &opts, &progress).map(|_| ())
        }
    };
    progress.finish();
    match ran {
        Err(e) if !is_interrupted(&e) => return Err(e),
        _ => {}
    }
    let finished = finished_parts(&plan, &dir)?;
    let proof = Proof::of(r.size, at_least, &finished)?;
    let mut out = proof.describe();
    if let Some(path) = &r.list {
        let n = super::listing::write_list(path, &proof, &finished)?;
        out.push_str(&format!("{n} mazes listed in {}\n", path.display()));
    }
    Ok(out)
}

/// The plan's one threshold, checking that it is a proof of `size` (a local config of
/// that name could be anything).
fn threshold(plan: &Plan, size: usize, name: &str) -> anyhow::Result<u32> {
    let mut thresholds = std::collections::BTreeSet::new();
    for run in &plan.runs {
        let algorithm = plan.algorithm(run).name;
        if algorithm != "exact" || run.params.int("size")? as usize != size {
            crate::user_bail!(
                "{name}: the config must run rjm/exact on {size}x{size} mazes, not {algorithm}"
            );
        }
        thresholds.insert(run.params.int("at_least")? as u32);
    }
    match thresholds.into_iter().collect::<Vec<_>>()[..] {
        [t] => Ok(t),
        _ => crate::user_bail!("{name}: the config must sweep the parts with one at_least"),
    }
}

/// The parts of `plan` that the journals of `dir` hold.
fn finished_parts(plan: &Plan, dir: &Path) -> anyhow::Result<Vec<Finished>> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let records = crate::pipeline::recorded::recorded_runs(
        plan,
        &[dir],
        crate::pipeline::recorded::Access::Read,
    )?
    .records;
    let mut out = Vec::new();
    for run in &plan.runs {
        let Some(record) = records.get(&run.key) else {
            continue;
        };
        let get = |k: &str| {
            record
                .metrics
                .iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| v.clone())
        };
        let m = ExactMetrics::from_row(&get).map_err(|e| anyhow::anyhow!("{e}"))?;
        out.push(Finished::of(run.params.int("part")? as usize, &m)?);
    }
    Ok(out)
}
