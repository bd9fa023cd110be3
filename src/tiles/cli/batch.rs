//! `tiles batch`: a benchmark set's instances with one or more heuristics, run through
//! the pipeline (a rerun reuses finished runs), every solution length checked against
//! the published one, printed as a table or CSV.

use super::common::cache_dir;
use crate::domain::ProgramEnv;
use crate::pipeline::params::Value;
use crate::tiles::board::MoveOrder;
use crate::tiles::format::{self, thousands};
use crate::tiles::heuristic::Heuristic;
use crate::tiles::instances::InstanceSet;
use crate::tiles::options::Flags;
use crate::tiles::pdb;
use crate::util::cancel::on_interrupt;
use crate::{user_bail, user_error};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct BatchArgs {
    /// The benchmark set.
    #[arg(long, value_enum, default_value = "assignment")]
    pub set: InstanceSet,
    /// Instance ids, e.g. `1,2,5-9` (default: the whole set).
    #[arg(long)]
    pub ids: Option<String>,
    /// Heuristics, comma-separated (e.g. `manhattan,linear,all,pdb:7-8`): the classic ones,
    /// the named pattern databases pdb:5-5-5, pdb:6-6-3, pdb:7-8, pdb:6-6-6-6,
    /// pdb:6-6-6-6x4, pdb:6-6-6-6x7, pdb:6-6-6-6x14, or pdb: and groups of tiles, or several partitions separated by `|`
    /// (`manhattan,pdb:1,2,3,4,5,6,7/8,9,10,11,12,13,14,15`).
    #[arg(long, default_value = "manhattan", value_parser = heuristic_list)]
    pub heuristic: HeuristicList,
    /// The pattern-database cache folder (default: outputs/pdb, or $SEARCHLAB_PDB_CACHE).
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Move order (Korf's ULRD by default here, so counts compare with his table).
    #[arg(long, default_value = "ULRD")]
    pub move_order: String,
    /// Give up on an instance after expanding this many nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=i64::MAX as u64))]
    pub expand_limit: Option<u64>,
    /// IDA*'s options, as for `tiles solve`.
    #[command(flatten)]
    pub search: Flags,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output folder: the batch is the experiment `tiles_batch_<set>` there, so a rerun
    /// reuses finished runs.
    #[arg(long, default_value = "outputs")]
    pub out: PathBuf,
    /// Print CSV rows instead of a table.
    #[arg(long)]
    pub csv: bool,
}

/// The names of `tiles batch --heuristic`, each checked ([`pdb::split_heuristics`]).
#[derive(Debug, Clone)]
pub struct HeuristicList(pub Vec<String>);

fn heuristic_list(text: &str) -> Result<HeuristicList, String> {
    pdb::split_heuristics(text).map(HeuristicList)
}

/// Parses `1,2,5-9` into ids.
fn parse_ids(text: &str) -> anyhow::Result<Vec<u32>> {
    let mut ids = Vec::new();
    for part in text.split(',').map(str::trim) {
        if part.is_empty() {
            user_bail!(
                "--ids {}: an empty item (expected ids and ranges separated by single commas, e.g. 1,2,5-9)",
                crate::util::input::excerpt(text)
            );
        }
        let num = |s: &str| -> anyhow::Result<u32> {
            s.trim().parse().map_err(|_| {
                user_error!(
                    "--ids: {} is not an instance number",
                    crate::util::input::excerpt(s)
                )
            })
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if a > b {
                    user_bail!("--ids: the range {part} is empty");
                }
                if ids.len() + (b - a) as usize >= 100_000 {
                    user_bail!("--ids: more than 100000 instances");
                }
                ids.extend(a..=b);
            }
            None => ids.push(num(part)?),
        }
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(twice) = ids.iter().find(|i| !seen.insert(**i)) {
        user_bail!("--ids: instance {twice} is named twice");
    }
    Ok(ids)
}

/// Runs a batch through the pipeline (experiment `tiles_batch_<set>` under `--out`, so a
/// rerun reuses finished runs and an interrupted batch resumes), in the order heuristic
/// by heuristic, instance by instance; returns each run's metrics decoded from the table.
fn batch_runs(
    a: &BatchArgs,
    env: &ProgramEnv,
    order: &MoveOrder,
    instances: &[crate::tiles::Instance],
) -> anyhow::Result<Vec<crate::tiles::runner::TilesMetrics>> {
    a.search.options()?;
    let table = |pairs: Vec<(&str, toml::Value)>| -> toml::Table {
        pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    };
    let text = |s: &str| toml::Value::String(s.to_string());
    let experiment = table(vec![
        ("name", text(&format!("tiles_batch_{}", a.set.name()))),
        ("description", text("tiles batch")),
        ("domain", text("tiles")),
        ("algorithm", text("ida")),
    ]);
    let mut params = table(vec![
        ("instance_set", text(a.set.name())),
        ("move_order", text(&order.to_string())),
    ]);
    if let Some(l) = a.expand_limit {
        params.insert("expand_limit".into(), toml::Value::Integer(l as i64));
    }
    for (name, value) in &a.search.given.0 {
        params.insert(name.clone(), toml_value(value));
    }
    let heuristics = a.heuristic.0.iter().map(|h| text(h)).collect();
    let ids = instances.iter().map(|i| i64::from(i.id).into()).collect();
    let sweep = table(vec![
        ("heuristic", toml::Value::Array(heuristics)),
        ("instance", toml::Value::Array(ids)),
    ]);
    let config = table(vec![
        ("experiment", experiment.into()),
        ("params", params.into()),
        ("sweep", sweep.into()),
    ]);
    let text = toml::to_string(&config)?;
    let config = crate::pipeline::config::parse(&text, "tiles batch", &[])?;
    let runner = crate::tiles::runner::runner();
    let plan = crate::pipeline::plan::plan(&config, &[&runner])?;
    let mut opts = crate::pipeline::execute::Options::new(&a.out, &env.host);
    opts.jobs = crate::pipeline::execute::cap_jobs("--threads", a.threads.unwrap_or(0));
    opts.env.cancel = on_interrupt(crate::pipeline::execute::RUNS_STOP);
    opts.env
        .caches
        .insert("tiles".into(), cache_dir(a.cache.as_deref(), env, &a.out));
    // The runs' notes and table builds are shown, not the runs: the table is the output.
    let progress = crate::pipeline::progress::Progress::hidden(env.observer());
    let done = crate::pipeline::execute::run_experiment(&config, &plan, &opts, &progress)?;
    crate::pipeline::table::decode_rows(&done.results)
}

/// Totals of one heuristic over a batch.
struct Totals<'a> {
    heuristic: &'a str,
    generated: u64,
    expanded: u64,
    seconds: f64,
    solved: usize,
}

/// `tiles batch`'s output; an error when a solution's length is not the published one.
pub(super) fn batch(a: &BatchArgs, env: &ProgramEnv) -> anyhow::Result<String> {
    let order = MoveOrder::parse(&a.move_order)?;
    let instances = match &a.ids {
        Some(text) => parse_ids(text)?
            .into_iter()
            .map(|id| a.set.instance(id))
            .collect::<anyhow::Result<Vec<_>>>()?,
        None => a.set.instances(),
    };
    let mut jobs = Vec::new();
    for h in &a.heuristic.0 {
        for inst in &instances {
            jobs.push((h.as_str(), inst.clone()));
        }
    }
    let results = batch_runs(a, env, &order, &instances)?;
    let mut s = String::new();
    if a.csv {
        s.push_str("set,id,heuristic,h0,optimal,solution_length,thresholds,generated,expanded,time_seconds,nodes_per_second\n");
    }
    let mut mismatches = Vec::new();
    let mut totals: Vec<Totals> = Vec::new();
    for ((h, inst), r) in jobs.iter().zip(&results) {
        let len = r.solution_length.map(|l| l as u32);
        if len.is_some_and(|l| l != inst.optimal) {
            mismatches.push(format!(
                "{} #{} with {h}: found {:?}, published {}",
                a.set.name(),
                inst.id,
                len,
                inst.optimal
            ));
        }
        let first = totals.last().is_none_or(|t| t.heuristic != *h);
        s.push_str(&batch_row(a, h, inst, r, &order, first));
        if first {
            totals.push(Totals {
                heuristic: h,
                generated: 0,
                expanded: 0,
                seconds: 0.0,
                solved: 0,
            });
        }
        let t = totals.last_mut().expect("pushed");
        t.generated += r.generated;
        t.expanded += r.expanded;
        t.seconds += r.time_seconds;
        t.solved += usize::from(len.is_some());
    }
    if !a.csv {
        s.push_str(&totals_text(instances.len(), &totals));
    }
    if !mismatches.is_empty() {
        anyhow::bail!(
            "solution lengths differ from the published optima: {}",
            mismatches.join("; ")
        );
    }
    Ok(s)
}

/// One instance's line of a batch: CSV, or a table row (after the heuristic's header
/// when `first`).
fn batch_row(
    a: &BatchArgs,
    h: &str,
    inst: &crate::tiles::Instance,
    r: &crate::tiles::runner::TilesMetrics,
    order: &MoveOrder,
    first: bool,
) -> String {
    let nps = format::per_second(r.generated, r.time_seconds);
    let len_text = r.solution_length.map_or("-".to_string(), |l| l.to_string());
    if a.csv {
        // A custom partition's name has commas: quoted, as CSV does.
        let h_field = if h.contains(',') {
            format!("\"{h}\"")
        } else {
            h.to_string()
        };
        return format!(
            "{},{},{h_field},{},{},{len_text},{},{},{},{:.3},{nps}\n",
            a.set.name(),
            inst.id,
            r.h0,
            inst.optimal,
            r.thresholds.clone().unwrap_or_default(),
            r.generated,
            r.expanded,
            r.time_seconds
        );
    }
    let mut s = String::new();
    if first {
        s.push_str(&format!(
            "\n{} with {h}, moves {order}\n{:>4} {:>3} {:>4} {:>17} {:>17} {:>9} {:>13}\n",
            a.set.name(),
            "id",
            "h0",
            "len",
            "generated",
            "expanded",
            "seconds",
            "nodes/s"
        ));
    }
    s.push_str(&format!(
        "{:>4} {:>3} {:>4} {:>17} {:>17} {:>9.2} {:>13}\n",
        inst.id,
        r.h0,
        len_text,
        thousands(r.generated),
        thousands(r.expanded),
        r.time_seconds,
        thousands(nps)
    ));
    s
}

/// The totals table of a batch, with each heuristic's reduction against Manhattan.
fn totals_text(instances: usize, totals: &[Totals]) -> String {
    let w = totals
        .iter()
        .map(|t| t.heuristic.len())
        .max()
        .unwrap_or(0)
        .max(11);
    let mut s = format!(
        "\nTotals over {instances} instance(s)\n{:<w$} {:>6} {:>19} {:>19} {:>10} {:>13} {:>10}\n",
        "heuristic", "solved", "generated", "expanded", "seconds", "nodes/s", "reduction"
    );
    let base = totals
        .iter()
        .find(|t| t.heuristic == Heuristic::Manhattan.name())
        .map(|t| t.generated);
    for t in totals {
        let red = base.map_or("-".to_string(), |b| {
            format!("{:.2}x", b as f64 / t.generated.max(1) as f64)
        });
        s.push_str(&format!(
            "{:<w$} {:>6} {:>19} {:>19} {:>10.2} {:>13} {:>10}\n",
            t.heuristic,
            t.solved,
            thousands(t.generated),
            thousands(t.expanded),
            t.seconds,
            thousands(format::per_second(t.generated, t.seconds)),
            red
        ));
    }
    s
}

/// A parameter's value in a config.
fn toml_value(v: &Value) -> toml::Value {
    match v {
        Value::Null => toml::Value::String(String::new()),
        Value::Bool(b) => toml::Value::Boolean(*b),
        Value::Int(i) => toml::Value::Integer(*i),
        Value::Float(x) => toml::Value::Float(*x),
        Value::Str(s) => toml::Value::String(s.clone()),
    }
}
