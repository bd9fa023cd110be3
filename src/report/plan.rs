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

/// Picks the studies to render: the named ones, or every default one.
pub fn choose(all: Vec<Study>, names: &[String]) -> anyhow::Result<Vec<Study>> {
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
                    crate::user_error!(
                        "unknown study {} (known: {})",
                        crate::util::input::excerpt(name),
                        known.join(", ")
                    )
                })
        })
        .collect()
}

/// The chosen studies (`names`, or every default one) of the working folder `base` and
/// the built-in ones, and each experiment they read, planned and checked.
pub fn plan_studies<'a>(
    base: &Path,
    runners: &[&'a Runner],
    functions: &Functions,
    names: &[String],
) -> anyhow::Result<(Vec<Study>, Vec<Work<'a>>)> {
    let studies = choose(super::load_studies(base, functions)?, names)?;
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
