//! The report: the studies in `experiments/` ([`study`]) rendered block by block
//! ([`blocks`]) into `outputs/report/report.md`, with figures in `figures/`.
//!
//! `build` plans each experiment the chosen studies read once, runs what is missing
//! through the pipeline, keeps the tables it wrote, and renders; [`render`] turns
//! studies and tables into markdown and is all the report knows of them: it never runs
//! an experiment and never names a schedule, a heuristic or a level. Questions, blocks
//! and answers are the studies'; numbers are computed from the tables or read from the
//! configs (`{config.<experiment>.<key>}`).

pub mod blocks;
pub mod compare;
pub mod markdown;
pub mod study;

use crate::pipeline::config::Config;
use crate::pipeline::execute::{
    Finished, Options, ShardFinished, experiment_dir, missing_in_shard, run_experiment, run_shard,
};
use crate::pipeline::params::Value;
use crate::pipeline::plan::Plan;
use crate::pipeline::progress::Progress;
use crate::pipeline::runner::Runner;
use crate::pipeline::shard::Shard;
use crate::present::facts::{Fact, Facts, fill};
use blocks::{Functions, Renderer, Tables};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Instant;
use study::{Known, Source, Study};

/// Where the project's folders are: the current directory when it has them (a
/// checkout), else the source tree the binary was built from.
pub fn project_dir(name: &str) -> PathBuf {
    let here = PathBuf::from(name);
    if here.is_dir() {
        here
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
    }
}

/// The names of the configs in `configs/`.
pub fn config_names(dir: &Path) -> anyhow::Result<BTreeSet<String>> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| crate::user_error!("{}: cannot list configs: {e}", dir.display()))?;
    Ok(entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect())
}

/// Every study in `experiments/`, checked against the configs and the domains'
/// functions.
pub fn load_studies(functions: &Functions) -> anyhow::Result<Vec<Study>> {
    let experiments = config_names(&project_dir("configs"))?;
    let fact_functions: BTreeMap<String, Vec<String>> = functions
        .facts
        .iter()
        .map(|f| {
            (
                f.name.to_string(),
                f.facts.iter().map(|s| s.to_string()).collect(),
            )
        })
        .collect();
    let board_functions: BTreeSet<String> = functions
        .boards
        .iter()
        .map(|f| f.name.to_string())
        .collect();
    let known = Known {
        experiments: &experiments,
        fact_functions: &fact_functions,
        board_functions: &board_functions,
    };
    study::load_all(&project_dir("experiments"), &known)
}

/// Options of `searchlab report`.
pub struct ReportOptions {
    pub exec: Options,
    /// Studies to render (empty: every default study).
    pub studies: Vec<String>,
    pub quiet: bool,
    /// Run only this shard of every experiment ([`build_shard`]).
    pub shard: Option<Shard>,
}

/// Picks the studies to render: the named ones, or every default one.
fn choose(all: Vec<Study>, names: &[String]) -> anyhow::Result<Vec<Study>> {
    if names.is_empty() {
        return Ok(all.into_iter().filter(|s| s.default).collect());
    }
    let known: Vec<String> = all.iter().map(|s| s.name.clone()).collect();
    names
        .iter()
        .map(|name| {
            all.iter()
                .find(|s| &s.name == name)
                .cloned()
                .ok_or_else(|| {
                    crate::user_error!("unknown study {name:?} (known: {})", known.join(", "))
                })
        })
        .collect()
}

/// An experiment a study reads: its name, config and plan; whether a study reads its
/// runs, and its tuning if one reads that.
pub struct Work<'a> {
    pub name: String,
    pub config: Config,
    pub plan: Plan<'a>,
    pub runs: bool,
    pub tune: Option<crate::tune::spec::TuneSpec>,
}

/// The chosen studies, and each experiment they read (once) with its config and plan;
/// the number of runs still to compute (of `shard` only, if given).
pub fn plan_studies<'a>(
    runners: &'a [Box<dyn Runner>],
    functions: &Functions,
    opts: &ReportOptions,
) -> anyhow::Result<(Vec<Study>, Vec<Work<'a>>, u64)> {
    let studies = choose(load_studies(functions)?, &opts.studies)?;
    let mut names: Vec<String> = Vec::new();
    for e in studies.iter().flat_map(Study::experiments) {
        if !names.contains(&e) {
            names.push(e);
        }
    }
    let runs: Vec<String> = studies.iter().flat_map(Study::runs).collect();
    let tunes: Vec<String> = studies.iter().flat_map(Study::tunes).collect();
    let configs_dir = project_dir("configs");
    let mut work = Vec::new();
    let mut total = 0;
    for name in &names {
        let config = crate::pipeline::config::load(&configs_dir.join(format!("{name}.toml")), &[])?;
        let plan = crate::pipeline::plan::plan(&config, runners)?;
        let reads_runs = runs.contains(name);
        if reads_runs {
            let dir = experiment_dir(&opts.exec.out, &config.name);
            total += missing_in_shard(&plan, &dir, opts.exec.force, opts.shard)? as u64;
        }
        // A race decides after every instance: tunings run in the unsharded report.
        let tune = if tunes.contains(name) && opts.shard.is_none() {
            let spec = crate::tune::spec_of(&config, &crate::tune::Overrides::default())?;
            total += crate::tune::most_evaluations(&plan, &spec);
            Some(spec)
        } else {
            None
        };
        work.push(Work {
            name: name.clone(),
            config,
            plan,
            runs: reads_runs,
            tune,
        });
    }
    for s in &studies {
        check_columns(s, &work)?;
    }
    Ok((studies, work, total))
}

/// `report --shard I/N`: runs shard I/N of every experiment of the chosen studies (see
/// [`crate::pipeline::shard`]) and renders nothing; a later `report` merges them.
pub fn build_shard(
    runners: &[Box<dyn Runner>],
    functions: &Functions,
    opts: &ReportOptions,
    shard: Shard,
) -> anyhow::Result<Vec<ShardFinished>> {
    let (_, work, total) = plan_studies(runners, functions, opts)?;
    let progress = Progress::new(total, opts.quiet);
    let done = work
        .iter()
        .filter(|w| w.runs)
        .map(|w| run_shard(&w.config, &w.plan, &opts.exec, shard, &progress))
        .collect();
    progress.finish();
    done
}

/// Runs the studies' experiments and writes `<out>/report/report.md`. Returns its path.
pub fn build(
    runners: &[Box<dyn Runner>],
    functions: &Functions,
    opts: &ReportOptions,
) -> anyhow::Result<PathBuf> {
    let started = Instant::now();
    let (studies, work, total) = plan_studies(runners, functions, opts)?;
    let progress = Progress::new(total, opts.quiet);
    let mut tables = Tables::default();
    let mut finished: Vec<Finished> = Vec::new();
    let mut tuned: Vec<(String, crate::tune::Tuned)> = Vec::new();
    for Work {
        name,
        config,
        plan,
        runs,
        tune,
    } in &work
    {
        tables.configs.insert(name.clone(), config.clone());
        if *runs {
            let f = run_experiment(config, plan, &opts.exec, &progress)?;
            tables.results.insert(name.clone(), f.results.clone());
            tables.anytime.insert(name.clone(), f.anytime.clone());
            finished.push(f);
        }
        if let Some(spec) = tune {
            let t = crate::tune::tune(config, plan, spec, &opts.exec, &progress)?;
            let key = |s: Source| s.key(name);
            tables.results.insert(key(Source::Tuned), t.heldout.clone());
            tables
                .anytime
                .insert(key(Source::Tuned), t.heldout_anytime.clone());
            tables.results.insert(key(Source::Race), t.race.clone());
            tables
                .results
                .insert(key(Source::RaceSteps), t.steps.clone());
            tuned.push((name.clone(), t));
        }
    }
    progress.finish();

    let report_dir = opts.exec.out.join("report");
    let mut md = String::from("# searchlab report\n\n");
    md.push_str(&format!(
        "Generated by searchlab {} (commit {}). Every number below is computed from the result tables in `{}` \
         or read from the experiments' configs; rerunning `searchlab report` reuses finished runs and reproduces \
         the same tables (timing columns aside).\n\n",
        env!("CARGO_PKG_VERSION"),
        env!("SEARCHLAB_COMMIT"),
        opts.exec.out.display()
    ));
    md.push_str(&render(
        &studies,
        &tables,
        functions,
        &report_dir.join("figures"),
    )?);
    md.push_str("## Experiments\n\n");
    let mut rows: Vec<Vec<String>> = finished
        .iter()
        .map(|f| {
            vec![
                format!("`{}`", f.name),
                f.runs.to_string(),
                f.computed.to_string(),
                format!("{:.1}", f.seconds),
                format!("`{}`", f.dir.display()),
            ]
        })
        .collect();
    rows.extend(tuned.iter().map(|(name, t)| {
        vec![
            format!("`{name}` (tuning)"),
            t.evaluations.to_string(),
            t.computed.to_string(),
            format!("{:.1}", t.seconds),
            format!("`{}`", t.dir.display()),
        ]
    }));
    md.push_str(&markdown::table(
        &["experiment", "runs", "computed now", "seconds", "tables"],
        &rows,
    ));
    md.push_str(&format!(
        "\nReport built in {:.1} s.\n",
        started.elapsed().as_secs_f64()
    ));
    let path = report_dir.join("report.md");
    crate::util::atomic::write(&path, md.as_bytes())?;
    Ok(path)
}

/// Checks, before anything runs, that every column a study's blocks name is one their
/// experiment's tables will have.
fn check_columns(s: &Study, work: &[Work]) -> anyhow::Result<()> {
    for q in &s.questions {
        for b in &q.blocks {
            let Some(e) = &b.experiment else { continue };
            let Some(Work { plan, .. }) = work.iter().find(|w| &w.name == e) else {
                continue;
            };
            let known = match (b.source, b.kind.reads_anytime()) {
                (Source::Runs | Source::Tuned, true) => plan.anytime_columns(),
                (Source::Runs | Source::Tuned, false) => plan.columns(),
                (Source::Race, _) => crate::tune::race_columns(plan),
                (Source::RaceSteps, _) => crate::tune::STEP_COLUMNS.to_vec(),
            };
            if let Some(c) = b.columns().iter().find(|c| !known.contains(&c.as_str())) {
                crate::user_bail!(
                    "{}:{}: unknown column {c:?} for experiment {e} (columns: {})",
                    s.source,
                    b.line,
                    known.join(", ")
                );
            }
        }
    }
    Ok(())
}

/// The facts every template can quote about an experiment's config:
/// `config.<experiment>.<parameter>` (a fixed value, or the swept values joined by
/// ", "), `.replicates`, `.base_seed`, `.variants`, and its `[tune]` section's
/// `.tune.budget`, `.tune.train_seeds`, `.tune.test_seeds`, `.tune.first_test`,
/// `.tune.samples`, `.tune.seed`, `.tune.alpha` and `.tune.metric`.
pub fn config_facts(name: &str, config: &Config) -> Facts {
    let mut f = Facts::default();
    let mut values: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for v in &config.variants {
        for (k, l) in &v.params {
            values.entry(k.clone()).or_default().push(l.value.clone());
        }
        for a in &v.sweep {
            let e = values.entry(a.name.clone()).or_default();
            e.extend(a.values.iter().map(|l| l.value.clone()));
        }
    }
    for (k, mut vs) in values {
        let mut seen = Vec::new();
        vs.retain(|v| {
            let new = !seen.contains(v);
            if new {
                seen.push(v.clone());
            }
            new
        });
        let fact = match vs.as_slice() {
            [Value::Int(i)] => Fact::Int(*i),
            [Value::Float(x)] => Fact::Text(x.to_string()),
            _ => Fact::Text(
                vs.iter()
                    .map(|v| match v {
                        Value::Int(i) => crate::util::numfmt::thousands(i.unsigned_abs()),
                        other => other.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
        };
        f.set(format!("{name}.{k}"), fact);
    }
    if let Some(t) = &config.tune {
        for (key, value) in [
            ("budget", t.budget),
            ("train_seeds", t.train_seeds),
            ("test_seeds", t.test_seeds),
            ("first_test", t.first_test),
            ("samples", t.samples),
            ("seed", t.seed),
        ] {
            f.set(format!("{name}.tune.{key}"), value);
        }
        f.set(
            format!("{name}.tune.alpha"),
            Fact::Text(t.alpha.to_string()),
        );
        f.set(format!("{name}.tune.metric"), t.metric.clone());
    }
    f.set(format!("{name}.replicates"), config.replicates);
    f.set(format!("{name}.base_seed"), config.base_seed);
    f.set(
        format!("{name}.variants"),
        config
            .variants
            .iter()
            .map(|v| v.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    );
    f
}

/// The studies as markdown: contents, then each study's intro and questions, each
/// question's blocks in order and its answer. Figures are saved in `figures`.
pub fn render(
    studies: &[Study],
    tables: &Tables,
    functions: &Functions,
    figures: &Path,
) -> anyhow::Result<String> {
    let renderer = Renderer {
        tables,
        functions,
        figures: figures.to_path_buf(),
    };
    let mut base = Facts::default();
    for (name, config) in &tables.configs {
        base.extend_prefixed("config", config_facts(name, config));
    }
    let mut md = String::from("## Contents\n\n");
    for s in studies {
        md.push_str(&format!(
            "- [{}](#{})\n",
            s.title,
            markdown::anchor(&s.title)
        ));
    }
    md.push('\n');
    for s in studies {
        md.push_str(&format!("## {}\n\n", s.title));
        if !s.intro.trim().is_empty() {
            let intro = fill(s.intro.trim(), &base)
                .map_err(|e| crate::user_error!("{}: intro: {e}", s.source))?;
            md.push_str(&intro);
            md.push_str("\n\n");
        }
        let mut facts = base.clone();
        for (i, q) in s.questions.iter().enumerate() {
            md.push_str(&format!("### {}. {}\n\n", i + 1, q.title));
            if let Some(intro) = &q.intro {
                md.push_str(&fill(intro.trim(), &facts).map_err(|e| {
                    crate::user_error!("{}: question {}: intro: {e}", s.source, i + 1)
                })?);
                md.push_str("\n\n");
            }
            for (j, b) in q.blocks.iter().enumerate() {
                let id = format!("{}_q{}_{}", s.name, i + 1, j + 1);
                let text = renderer.block(b, &id, &mut facts).map_err(|e| {
                    let e = crate::util::error::one_line(&e);
                    crate::user_error!("{}:{}: {e}", s.source, b.line)
                })?;
                if !text.trim().is_empty() {
                    md.push_str(text.trim_end());
                    md.push_str("\n\n");
                }
            }
            if let Some(answer) = &q.answer {
                let text = fill(answer.trim(), &facts).map_err(|e| {
                    crate::user_error!("{}:{}: answer: {e}", s.source, q.answer_line)
                })?;
                md.push_str(&format!("**Answer.** {text}\n\n"));
            }
        }
    }
    Ok(md)
}

/// Everything a named study needs, for `searchlab list`: its experiments.
pub fn describe(s: &Study) -> String {
    format!(
        "{} ({} questions: {})",
        s.title,
        s.questions.len(),
        s.experiments().join(", ")
    )
}
