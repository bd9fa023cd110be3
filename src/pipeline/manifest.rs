//! Manifests: what an experiment's folder says of how its tables came to be. One typed
//! [`Manifest`] serves a run (`manifest.json`), a shard (`shard-I-of-N.json`) and a
//! tuning (`tune/manifest.json`): the config as resolved and as written (from which
//! `merge` rebuilds a shard's plan), the algorithms and their versions, the code, the
//! host and the times, and what the work itself did ([`Work`]).

use crate::pipeline::config::Config;
use crate::pipeline::plan::Plan;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// An algorithm and the version its results were computed with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Versioned {
    pub name: String,
    pub version: u32,
}

/// The code that wrote the tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CodeVersion {
    pub package: String,
    pub commit: String,
}

impl CodeVersion {
    /// This binary's version.
    pub fn current() -> CodeVersion {
        CodeVersion {
            package: env!("CARGO_PKG_VERSION").to_string(),
            commit: env!("SEARCHLAB_COMMIT").to_string(),
        }
    }
}

/// What the work recorded by a manifest did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Work {
    /// An unsharded run (or a merge): the tables of the whole plan.
    Run {
        runs: usize,
        /// Runs taken from journals rather than computed now.
        reused_runs: usize,
        /// The journals read: the folder's own by name, those of other folders by path.
        journals: Vec<String>,
    },
    /// One shard of the plan, computed into its own journal.
    Shard {
        shard: String,
        plan_runs: usize,
        shard_runs: usize,
        computed_runs: usize,
    },
    /// A tuning: its settings as the tuner declares them, and its evaluations.
    Tune {
        settings: serde_json::Value,
        evaluations: usize,
    },
}

/// A manifest (see the module's doc).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub experiment: String,
    pub description: String,
    pub config_file: String,
    pub resolved_config: serde_json::Value,
    pub config_text: String,
    pub overrides: Vec<String>,
    pub domain: String,
    pub algorithms: Vec<Versioned>,
    pub replicates: u64,
    pub base_seed: u64,
    pub jobs: usize,
    pub host: String,
    pub code_version: CodeVersion,
    pub started_at: String,
    /// Empty while the work goes on.
    pub finished_at: Option<String>,
    pub work: Work,
}

impl Manifest {
    /// A manifest of work on `plan` of `config` with `jobs` threads on the machine
    /// `host`, started at `started_at`, not finished.
    pub fn new(
        config: &Config,
        plan: &Plan,
        jobs: usize,
        host: &str,
        started_at: &str,
        work: Work,
    ) -> Self {
        Manifest {
            experiment: plan.experiment.clone(),
            description: config.description.clone(),
            config_file: config.source.clone(),
            resolved_config: serde_json::to_value(&config.resolved)
                .unwrap_or(serde_json::Value::Null),
            config_text: config.text.clone(),
            overrides: config.overrides.clone(),
            domain: plan.runner.domain.to_string(),
            algorithms: plan
                .used()
                .map(|a| Versioned {
                    name: a.name.to_string(),
                    version: a.version,
                })
                .collect(),
            replicates: config.replicates,
            base_seed: config.base_seed,
            jobs,
            host: host.to_string(),
            code_version: CodeVersion::current(),
            started_at: started_at.to_string(),
            finished_at: None,
            work,
        }
    }

    /// Marks it finished now.
    pub fn finished(mut self) -> Self {
        self.finished_at = Some(crate::util::timestamp::now_utc());
        self
    }

    /// Writes it to `path`, atomically.
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        crate::util::atomic::write(path, serde_json::to_string_pretty(self)?.as_bytes())
    }

    /// Reads a manifest; anything that is not one written by this version is a user
    /// error naming the file.
    pub fn read(path: &Path) -> anyhow::Result<Manifest> {
        let text = crate::util::input::read_file(path, "manifest")?;
        serde_json::from_str(&text).map_err(|e| {
            crate::user_error!(
                "{}: not a manifest written by this version of searchlab ({}); run the experiment again",
                path.display(),
                crate::util::input::excerpt(&e.to_string())
            )
        })
    }
}
