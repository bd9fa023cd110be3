//! The report: every study in `experiments/` (the questions it asks and the experiments
//! that answer them) run through the pipeline, then rendered as markdown whose numbers,
//! tables and figures are computed from the result tables.
//!
//! A study file looks like:
//! ```toml
//! title = "Rook Jumping Maze design by local search"
//! order = 1                  # position in the report
//! default = true             # part of `searchlab report` without --study
//! intro = "…"
//! [[question]]
//! title = "What happens without sideways moves?"
//! experiments = ["rjm_sideways"]   # configs/<name>.toml
//! analysis = "rjm_no_sideways"     # the code that answers it (see `analyses`)
//! ```

pub mod markdown;
pub mod pegsol;
pub mod rjm;
pub mod tiles;

use crate::pipeline::config::Config;
use crate::pipeline::execute::{Finished, Options, experiment_dir, missing_runs, run_experiment};
use crate::pipeline::progress::Progress;
use crate::pipeline::runner::Runner;
use crate::pipeline::table::read_parquet;
use crate::present::plot::Figure;
use anyhow::Context as _;
use polars::prelude::DataFrame;
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Study {
    pub title: String,
    #[serde(default)]
    pub order: i64,
    #[serde(default = "yes")]
    pub default: bool,
    #[serde(default)]
    pub intro: String,
    #[serde(default)]
    pub question: Vec<Question>,
    /// The file stem, set on loading.
    #[serde(skip)]
    pub name: String,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub title: String,
    pub experiments: Vec<String>,
    pub analysis: String,
}

/// What an analysis sees: the tables of its experiments, and where figures go.
pub struct Context {
    results: HashMap<String, DataFrame>,
    anytime: HashMap<String, DataFrame>,
    configs: HashMap<String, Config>,
    figures: PathBuf,
}

impl Context {
    pub fn results(&self, experiment: &str) -> anyhow::Result<&DataFrame> {
        self.results
            .get(experiment)
            .ok_or_else(|| anyhow::anyhow!("experiment {experiment} has no results"))
    }

    pub fn anytime(&self, experiment: &str) -> anyhow::Result<&DataFrame> {
        self.anytime
            .get(experiment)
            .ok_or_else(|| anyhow::anyhow!("experiment {experiment} has no anytime table"))
    }

    pub fn config(&self, experiment: &str) -> anyhow::Result<&Config> {
        self.configs
            .get(experiment)
            .ok_or_else(|| anyhow::anyhow!("experiment {experiment} has no config"))
    }

    /// Saves a figure as `figures/<name>.png` and `.svg`; returns its markdown image line.
    pub fn figure(&self, fig: &impl Figure, name: &str, caption: &str) -> anyhow::Result<String> {
        crate::present::plot::save(fig, &self.figures.join(name))?;
        Ok(format!(
            "![{caption}](figures/{name}.png)\n\n*Figure: {caption}* ([SVG](figures/{name}.svg))\n"
        ))
    }
}

/// An analysis answers one question from the tables.
pub type Analysis = fn(&Context, &Question) -> anyhow::Result<String>;

/// Every analysis a study can name.
pub fn analyses() -> Vec<(&'static str, Analysis)> {
    let mut all: Vec<(&'static str, Analysis)> = Vec::new();
    all.extend(rjm::ANALYSES.iter().copied());
    all.extend(tiles::ANALYSES.iter().copied());
    all.extend(pegsol::ANALYSES.iter().copied());
    all
}

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

/// Reads every study in `dir`, in report order.
pub fn load_studies(dir: &Path) -> anyhow::Result<Vec<Study>> {
    let mut studies = Vec::new();
    let entries = std::fs::read_dir(dir)
        .map_err(|e| crate::user_error!("{}: cannot list studies: {e}", dir.display()))?;
    let known: Vec<&str> = analyses().iter().map(|a| a.0).collect();
    for entry in entries {
        let path = entry?.path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let source = path.display().to_string();
        let text =
            std::fs::read_to_string(&path).map_err(|e| crate::user_error!("{source}: {e}"))?;
        let mut study: Study = toml::from_str(&text).map_err(|e| {
            let line = e.span().map_or(String::new(), |s| {
                format!(":{}", text[..s.start].matches('\n').count() + 1)
            });
            crate::user_error!("{source}{line}: {}", e.message().trim())
        })?;
        for q in &study.question {
            if !known.contains(&q.analysis.as_str()) {
                crate::user_bail!(
                    "{source}: unknown analysis {:?} (known: {})",
                    q.analysis,
                    known.join(", ")
                );
            }
        }
        study.name = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        crate::pipeline::config::check_name("study", &study.name, &source)?;
        studies.push(study);
    }
    studies.sort_by(|a, b| (a.order, &a.name).cmp(&(b.order, &b.name)));
    Ok(studies)
}

/// Options of `searchlab report`.
pub struct ReportOptions {
    pub exec: Options,
    /// Studies to render (empty: every default study).
    pub studies: Vec<String>,
    pub quiet: bool,
}

/// Runs the studies' experiments and writes `<out>/report/report.md`. Returns its path.
pub fn build(runners: &[Box<dyn Runner>], opts: &ReportOptions) -> anyhow::Result<PathBuf> {
    let started = Instant::now();
    let all = load_studies(&project_dir("experiments"))?;
    let studies: Vec<Study> = if opts.studies.is_empty() {
        all.into_iter().filter(|s| s.default).collect()
    } else {
        let mut chosen = Vec::new();
        for name in &opts.studies {
            match all.iter().find(|s| &s.name == name) {
                Some(s) => chosen.push(s.clone()),
                None => crate::user_bail!(
                    "unknown study {name:?} (known: {})",
                    all.iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        }
        chosen
    };
    let mut names: Vec<String> = Vec::new();
    for s in &studies {
        for q in &s.question {
            for e in &q.experiments {
                if !names.contains(e) {
                    names.push(e.clone());
                }
            }
        }
    }
    let configs_dir = project_dir("configs");
    let mut configs = HashMap::new();
    let mut total = 0;
    for name in &names {
        let config = crate::pipeline::config::load(&configs_dir.join(format!("{name}.toml")), &[])?;
        let plan = crate::pipeline::plan::plan(&config, runners)?;
        total += missing_runs(
            &plan,
            &experiment_dir(&opts.exec.out, &config.name),
            opts.exec.force,
        )? as u64;
        configs.insert(name.clone(), config);
    }
    let progress = Progress::new(total, opts.quiet);
    let mut finished: Vec<Finished> = Vec::new();
    for name in &names {
        finished.push(run_experiment(
            &configs[name],
            runners,
            &opts.exec,
            &progress,
        )?);
    }
    progress.finish();

    let report_dir = opts.exec.out.join("report");
    let mut ctx = Context {
        results: HashMap::new(),
        anytime: HashMap::new(),
        configs: HashMap::new(),
        figures: report_dir.join("figures"),
    };
    for f in &finished {
        ctx.results.insert(
            f.name.clone(),
            read_parquet(&f.dir.join("results.parquet"))?,
        );
        ctx.anytime.insert(
            f.name.clone(),
            read_parquet(&f.dir.join("anytime.parquet"))?,
        );
    }
    for (name, config) in configs {
        ctx.configs.insert(config.name.clone(), config.clone());
        ctx.configs.insert(name, config);
    }
    let analyses = analyses();
    let mut md = String::from("# searchlab report\n\n");
    md.push_str(&format!(
        "Generated by searchlab {} (commit {}). Every number below is computed from the result tables in `{}`; \
         rerunning `searchlab report` reuses finished runs and reproduces the same tables (timing columns aside).\n\n",
        env!("CARGO_PKG_VERSION"),
        env!("SEARCHLAB_COMMIT"),
        opts.exec.out.display()
    ));
    md.push_str("## Contents\n\n");
    for s in &studies {
        md.push_str(&format!(
            "- [{}](#{})\n",
            s.title,
            markdown::anchor(&s.title)
        ));
    }
    md.push('\n');
    for s in &studies {
        md.push_str(&format!("## {}\n\n", s.title));
        if !s.intro.is_empty() {
            md.push_str(s.intro.trim());
            md.push_str("\n\n");
        }
        for (i, q) in s.question.iter().enumerate() {
            md.push_str(&format!("### {}. {}\n\n", i + 1, q.title));
            let analysis = analyses
                .iter()
                .find(|a| a.0 == q.analysis)
                .map(|a| a.1)
                .ok_or_else(|| anyhow::anyhow!("no analysis {}", q.analysis))?;
            let body = analysis(&ctx, q)
                .with_context(|| format!("analysis {} of study {}", q.analysis, s.name))?;
            md.push_str(body.trim_end());
            md.push_str("\n\n");
        }
    }
    md.push_str("## Experiments\n\n");
    let rows: Vec<Vec<String>> = finished
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
