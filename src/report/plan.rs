//! What a report needs before anything runs: the chosen studies, and each experiment
//! they read (once) with its config, its plan and, when a study reads its tuning, its
//! `[tune]` section; every column a block names checked against the plans. The command
//! runs the experiments; this module only plans them.

use crate::domain::Functions;
use crate::pipeline::config::Config;
use crate::pipeline::plan::Plan;
use crate::pipeline::runner::Runner;
use crate::study::Study;
use crate::tune::spec::TuneSpec;
use std::path::Path;

/// An experiment a study reads: its name, config and plan; whether a study reads its
/// runs, and its tuning if one reads that.
pub struct Work<'a> {
    pub name: String,
    pub config: Config,
    pub plan: Plan<'a>,
    pub runs: bool,
    /// Its `[tune]` section, if it has one.
    pub tune: Option<TuneSpec>,
    /// Whether a study reads its tuning (which the command then runs).
    pub tuned: bool,
}

/// Picks the studies to render: the named ones (a study's name, or the path of a study
/// file), or every default one. Only the chosen studies need to be valid: a broken
/// study file is an error when it is chosen, or when none is named (it may be a
/// default one). A study named twice is chosen once; two studies of one name (a file
/// and a catalog study) would write the same files and are refused, and so is a study
/// file named `report`, the whole report's name.
pub fn choose(base: &Path, functions: &Functions, names: &[String]) -> anyhow::Result<Vec<Study>> {
    if names.is_empty() {
        return Ok(super::load_studies(base, functions)?
            .into_iter()
            .filter(|s| s.default)
            .collect());
    }
    let mut all = super::load_each(base, functions);
    let known: Vec<String> = all.iter().map(|(n, _)| n.clone()).collect();
    let mut chosen: Vec<Study> = Vec::new();
    for name in names {
        let path = Path::new(name);
        let study = if name.ends_with(".toml") && path.is_file() {
            super::load_file(base, path, functions)?
        } else if chosen.iter().any(|s| &s.name == name) {
            continue;
        } else {
            let Some(i) = all.iter().position(|(n, _)| n == name) else {
                crate::user_bail!(
                    "unknown study {} (known: {}; or give the path of a study file)",
                    crate::util::input::excerpt(name),
                    known.join(", ")
                );
            };
            all.remove(i).1?
        };
        if let Some(same) = chosen.iter().find(|s| s.name == study.name) {
            if same.source == study.source {
                continue;
            }
            crate::user_bail!(
                "{} and {} are both studies named {:?}, whose reports would be the same files; rename one of them",
                same.source,
                study.source,
                study.name
            );
        }
        chosen.push(study);
    }
    Ok(chosen)
}

/// The chosen studies (`names`, or every default one) of the working folder `base` and
/// the built-in ones, and each experiment they read, planned and checked.
pub fn plan_studies<'a>(
    base: &Path,
    runners: &[&'a Runner],
    functions: &Functions,
    names: &[String],
) -> anyhow::Result<(Vec<Study>, Vec<Work<'a>>)> {
    let studies = choose(base, functions, names)?;
    let mut work: Vec<Work> = Vec::new();
    let runs: Vec<String> = studies.iter().flat_map(Study::runs).collect();
    let tunes: Vec<String> = studies.iter().flat_map(Study::tunes).collect();
    for name in studies.iter().flat_map(Study::experiments) {
        if work.iter().any(|w| w.name == name) {
            continue;
        }
        let config = crate::pipeline::config::load_named(base, &name, &[])?;
        let plan = crate::pipeline::plan::plan(&config, runners)?;
        crate::present::outputs::check(&config, &plan)?;
        let tuned = tunes.contains(&name);
        if tuned && config.tune.is_none() {
            return Err(no_tune_section(&studies, &name, &config));
        }
        let tune = match tuned || config.tune.is_some() {
            true => Some(crate::tune::spec_of(
                &config,
                &plan,
                &crate::tune::Overrides::default(),
            )?),
            false => None,
        };
        work.push(Work {
            tuned,
            runs: runs.contains(&name),
            name,
            config,
            plan,
            tune,
        });
    }
    for s in &studies {
        super::check_columns(s, &|e| work.iter().find(|w| w.name == e).map(|w| &w.plan))?;
    }
    Ok((studies, work))
}

/// A block reads the tuning of a config with no `[tune]` section: the error names the
/// block's line (the study is what to fix, or the config).
fn no_tune_section(studies: &[Study], name: &str, config: &Config) -> anyhow::Error {
    for s in studies {
        for b in s.questions.iter().flat_map(|q| &q.blocks) {
            if let Some((_, _, key)) = b
                .tables()
                .into_iter()
                .find(|(c, source, _)| c == name && *source != crate::study::Source::Runs)
            {
                return crate::user_error!(
                    "{}:{}: experiment {key:?} reads a tuning, but {} has no [tune] section; read {name:?} (its runs), or add a [tune] section",
                    s.source,
                    b.line,
                    config.source
                );
            }
        }
    }
    crate::user_error!("{}: no [tune] section", config.source)
}
